//! Every text the server sends: the protocol crate's official texts
//! (re-exported) plus the few situations only Spielleiter's server has.
//! The texts about a game come from the game's dialect instead (see
//! [`wire`](crate::wire)).

use std::time::Duration;

pub use spielleiter_protocol::texts::*;

const SERVER_EXCEPTION: &str = "spielleiter.server.ServerException";

/// The connection limit is reached.
pub fn server_full(limit: usize) -> String {
    format!("{SERVER_EXCEPTION}: The server is full ({limit} connections); try again later")
}

/// The result reason of a prepared room whose reserved players did not all
/// come in time.
pub fn reservations_expired_reason() -> String {
    "Das Spiel wurde nicht begonnen: die reservierten Plätze wurden nicht rechtzeitig besetzt"
        .to_owned()
}

/// Tells administrators that a prepared room expired.
pub fn reservations_expired(room_id: &str, after: Duration) -> String {
    format!(
        "{SERVER_EXCEPTION}: Room {room_id} was closed: its reservations were not all used within {} seconds",
        after.as_secs()
    )
}

/// The connection limit per address is reached.
pub fn address_full(limit: usize) -> String {
    format!(
        "{SERVER_EXCEPTION}: Your address holds the most connections allowed ({limit}); close one and try again"
    )
}

/// A message that took longer than the limit from first to last byte.
pub fn message_timeout(limit: Duration) -> String {
    format!(
        "{SERVER_EXCEPTION}: A message was not completed within {} seconds; closing the connection",
        limit.as_secs()
    )
}

/// A large unfinished message while the server holds too many.
pub fn unfinished_messages_over_bound() -> String {
    format!(
        "{SERVER_EXCEPTION}: The server is short of memory for unfinished messages; send smaller messages at once"
    )
}

/// A connection that neither joined nor authenticated in time.
pub fn idle(limit: Duration) -> String {
    format!(
        "{SERVER_EXCEPTION}: No request within {} seconds; closing the connection",
        limit.as_secs()
    )
}

/// A second join from a connection that already plays.
pub fn already_seated(room_id: &str) -> String {
    format!(
        "{SERVER_EXCEPTION}: This connection already plays in room {room_id}; use a new connection for another game"
    )
}

/// A move while the room still waits for players.
pub fn game_not_started(room_id: &str) -> String {
    format!("{SERVER_EXCEPTION}: The game in room {room_id} has not started yet")
}

/// `scoreForPlayer` for a name without recorded games.
pub fn no_scores(display_name: &str) -> String {
    format!("{SERVER_EXCEPTION}: No scores recorded for player '{display_name}' (is test mode on?)")
}

/// A `prepare` with more slots than the game has seats.
pub fn too_many_slots(given: usize, players: usize) -> String {
    format!("{SERVER_EXCEPTION}: {given} slots given, but the game has {players} players")
}

/// A `prepare` without slots.
pub fn no_slots() -> String {
    format!("{SERVER_EXCEPTION}: A prepared room needs at least one slot; none given")
}

/// A `prepare` with a display name over the limit.
pub fn display_name_too_long(length: usize, limit: usize) -> String {
    format!(
        "{SERVER_EXCEPTION}: A displayName has {length} characters; at most {limit} are allowed"
    )
}

/// A request for a new game while the server shuts down.
pub fn shutting_down() -> String {
    format!("{SERVER_EXCEPTION}: The server is shutting down and starts no new games")
}

/// `authenticate` on a player's connection that cannot administer (an
/// in-process player connection, such as a person's seat on the web side).
pub fn players_do_not_administer() -> String {
    "sc.server.network.AuthenticationFailedException: Failed to authenticate as administrator: a player's connection cannot administer"
        .to_owned()
}
