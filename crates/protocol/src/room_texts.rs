//! The official texts about a game in a room that the seasons share: the
//! room error messages, `errorpacket` messages and result reasons of
//! refused moves, timeouts and irregular ends (`lobby.md` §9.2,
//! `blokus-2021.md` §9.4, §11.3), and how the official servers print a
//! player. Each season's [`SeasonTexts`](crate::dialect::SeasonTexts), in
//! its game's folder (`games::…`), is built from them.

const GAME_LOGIC_EXCEPTION: &str = "sc.api.plugins.exceptions.GameLogicException";

/// How the official 2021 server prints a player: `Team 1(alice)` for the
/// first seat.
pub fn player_description(seat: usize, display_name: &str) -> String {
    format!("Team {}({display_name})", seat + 1)
}

/// A move that arrived after the game ended; `move_description` is the
/// move's official description.
pub fn game_already_over(move_description: &str) -> String {
    format!(
        "sc.api.plugins.exceptions.GameException: Game is already over, but got {move_description}"
    )
}

/// The room error message for a move from the player not on turn.
/// `expected` and `actual` are [`player_description`]s.
pub fn not_your_turn_room_error(expected: &str, actual: &str, move_description: &str) -> String {
    format!(
        "It's not your turn yet; expected: {expected}, got {actual} (msg was {move_description})."
    )
}

/// The `errorpacket` message for a move from the player not on turn (the
/// official text has no class-name prefix).
pub fn not_your_turn(expected: &str, actual: &str, move_description: &str) -> String {
    format!("NotYourTurnException(expected={expected}, actual={actual}, data={move_description})")
}

/// The result reason for a player who moved out of turn (decisions.md §9:
/// Spielleiter ends the game with `RULE_VIOLATION`).
pub fn not_your_turn_reason(move_description: &str) -> String {
    format!("Der Spieler war nicht am Zug bei Zug '{move_description}'")
}

/// The room error message for a move that was not requested. `player` is a
/// [`player_description`].
pub fn move_not_requested_room_error(player: &str) -> String {
    format!("Move from {player} has not been requested.")
}

/// The `errorpacket` message for a move that was not requested.
pub fn move_not_requested(player: &str) -> String {
    format!(
        "{GAME_LOGIC_EXCEPTION}: {}",
        move_not_requested_room_error(player)
    )
}

/// `InvalidMoveException(mistake=M, move=D)`; `D` is `null` when the
/// mistake is reported without the move.
pub fn invalid_move_exception(mistake_text: &str, move_description: Option<&str>) -> String {
    format!(
        "InvalidMoveException(mistake={mistake_text}, move={})",
        move_description.unwrap_or("null")
    )
}

/// The room error message for a rule violation, sent to the offender and
/// the observers: `Ungueltiger Zug von 'NAME'.\nInvalidMoveException(…)`.
pub fn rule_violation_room_error(
    display_name: &str,
    mistake_text: &str,
    move_description: Option<&str>,
) -> String {
    format!(
        "Ungueltiger Zug von '{display_name}'.\n{}",
        invalid_move_exception(mistake_text, move_description)
    )
}

/// The `errorpacket` message for a rule violation.
pub fn rule_violation(mistake_text: &str, move_description: Option<&str>) -> String {
    format!(
        "{GAME_LOGIC_EXCEPTION}: {}",
        invalid_move_exception(mistake_text, move_description)
    )
}

/// The result reason of a rule violation: `M bei Zug 'D'`, or just `M`
/// when the mistake is reported without the move.
pub fn rule_violation_reason(mistake_text: &str, move_description: Option<&str>) -> String {
    match move_description {
        Some(description) => format!("{mistake_text} bei Zug '{description}'"),
        None => mistake_text.to_owned(),
    }
}

/// The result reason of a player who left (cause `LEFT`).
pub const LEFT_REASON: &str = "Der Spieler hat das Spiel verlassen";

/// The result reason of a soft timeout (cause `SOFT_TIMEOUT`) with a limit
/// of `seconds`.
pub fn soft_timeout_reason(seconds: u64) -> String {
    timeout_reason(seconds)
}

/// The result reason of a hard timeout (cause `HARD_TIMEOUT`) with a limit
/// of `seconds`.
pub fn hard_timeout_reason(seconds: u64) -> String {
    timeout_reason(seconds)
}

fn timeout_reason(seconds: u64) -> String {
    format!(
        "Der Spieler hat innerhalb von {seconds} Sekunden nach Aufforderung keinen Zug gesendet"
    )
}

/// The result reason of a player whose move was not requested (Spielleiter
/// ends the game with `RULE_VIOLATION`).
pub fn move_not_requested_reason(move_description: &str) -> String {
    format!("Der Zug wurde nicht angefordert bei Zug '{move_description}'")
}

/// The result reason when the server ended a game at shutdown.
pub const SHUTDOWN_REASON: &str = "Das Spiel wurde beendet, weil der Server herunterfährt";

/// The result reason when an administrator cancelled the game.
pub const CANCELLED_REASON: &str = "Das Spiel wurde von einem Administrator abgebrochen";

/// How the official 2022 server prints a player: `ONE(alice)` for the
/// first seat, `ONE()` for a player without display name.
pub fn player_description_2022(seat: usize, display_name: &str) -> String {
    format!("{}({display_name})", crate::seats::seat_label(seat))
}

#[cfg(test)]
mod tests {
    use super::*;

    const MONO: &str = "Setze MONO(Farbe Gelb)[16,3]";

    #[test]
    fn turn_errors_name_players_and_move() {
        let alice = player_description(0, "alice");
        let bob = player_description(1, "bob");
        assert_eq!(alice, "Team 1(alice)");
        assert_eq!(
            not_your_turn(&alice, &bob, MONO),
            "NotYourTurnException(expected=Team 1(alice), actual=Team 2(bob), data=Setze MONO(Farbe Gelb)[16,3])"
        );
        assert_eq!(
            not_your_turn_room_error(&alice, &bob, MONO),
            "It's not your turn yet; expected: Team 1(alice), got Team 2(bob) (msg was Setze MONO(Farbe Gelb)[16,3])."
        );
        assert_eq!(
            move_not_requested(&alice),
            "sc.api.plugins.exceptions.GameLogicException: Move from Team 1(alice) has not been requested."
        );
    }

    #[test]
    fn timeout_reasons_name_the_limit() {
        assert_eq!(
            soft_timeout_reason(2),
            "Der Spieler hat innerhalb von 2 Sekunden nach Aufforderung keinen Zug gesendet"
        );
        assert_eq!(
            hard_timeout_reason(10),
            "Der Spieler hat innerhalb von 10 Sekunden nach Aufforderung keinen Zug gesendet"
        );
    }
}
