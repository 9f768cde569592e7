//! [`Dialect`]: what differs between the official seasons on the wire, as
//! one value a game chooses (decisions.md §14). The server and the generic
//! message code read the dialect of a room's game instead of asking which
//! game it is.
//!
//! A dialect says which `class` a move request has, how the close packet is
//! written, how a result is laid out, how a player is named in texts and
//! what the texts say ([`SeasonTexts`]), whether a violation's error packet
//! follows the result, who is timed by default, and whether a connection
//! stays open after a game or a refused join. What the seasons share (the
//! lobby, the envelope of room messages, mementos) needs no entry.
//!
//! Spielleiter's product decisions hold for every season (decisions.md
//! §5–§12), so some fields have the same value in every dialect Spielleiter
//! speaks; they are fields all the same, so that the server never asks for
//! the season.
//!
//! Each season's dialect and texts live with its game: `SEASON_2021` in
//! [`blokus2021`](crate::games::blokus2021) (the classic games and the
//! test game speak it too), `SEASON_2022` in
//! [`ostseeschach2022`](crate::games::ostseeschach2022), `SEASON_2027` in
//! [`blokus2027`](crate::games::blokus2027), the Champions League's in
//! [`bcl`](crate::games::bcl).

use std::fmt;

pub use crate::result::ResultLayout;
use crate::{
    result::{Conclusion, ScoreCause},
    room_texts,
};

/// The `class` of the move request (`<data class="…"/>`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveRequestClass {
    /// `sc.framework.plugins.protocol.MoveRequest` (2021: no alias).
    Qualified,
    /// `moveRequest` (2022 on).
    Alias,
}

impl MoveRequestClass {
    /// Every form, as the reader recognises them.
    pub const ALL: &[MoveRequestClass] = &[MoveRequestClass::Qualified, MoveRequestClass::Alias];

    /// The `class` attribute.
    pub const fn class(self) -> &'static str {
        match self {
            MoveRequestClass::Qualified => "sc.framework.plugins.protocol.MoveRequest",
            MoveRequestClass::Alias => "moveRequest",
        }
    }

    /// The form with this `class`, if any.
    pub fn from_class(class: &str) -> Option<MoveRequestClass> {
        MoveRequestClass::ALL
            .iter()
            .copied()
            .find(|form| form.class() == class)
    }
}

/// The element of the server's close packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CloseElement {
    /// `<close/>` (Spielleiter's 2021 dialect; the alias of 2027).
    Short,
    /// `<sc.protocol.CloseConnection/>` (2022: the class had no alias).
    Qualified,
}

impl CloseElement {
    /// Every form, as the reader recognises them.
    pub const ALL: &[CloseElement] = &[CloseElement::Short, CloseElement::Qualified];

    /// The element name.
    pub const fn element(self) -> &'static str {
        match self {
            CloseElement::Short => "close",
            CloseElement::Qualified => "sc.protocol.CloseConnection",
        }
    }

    /// The form with this element name, if any.
    pub fn from_element(name: &str) -> Option<CloseElement> {
        CloseElement::ALL
            .iter()
            .copied()
            .find(|form| form.element() == name)
    }
}

/// How a player ran out of time, for texts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TimeLimit {
    /// The move came after the soft limit.
    Soft,
    /// No move came within the hard limit.
    Hard,
}

impl TimeLimit {
    /// The official reason of a timeout of this kind, naming its limit in
    /// whole seconds (the same wording in 2021 and 2022).
    pub(crate) fn official_reason(self, soft_secs: u64, hard_secs: u64) -> String {
        match self {
            TimeLimit::Soft => room_texts::soft_timeout_reason(soft_secs),
            TimeLimit::Hard => room_texts::hard_timeout_reason(hard_secs),
        }
    }
}

/// Why a player left a game, in the official names (2022 and 2027 print it
/// in the reason).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LeaveCause {
    /// The client closed the connection (`</protocol>`, `<close/>`).
    ReceivedDisconnect,
    /// The connection broke or the client stopped reading.
    LostConnection,
    /// The client broke the protocol (malformed XML, a malformed move).
    ProtocolError,
    /// The seat was never taken.
    NotConnected,
    /// Anything else.
    Unknown,
}

impl LeaveCause {
    /// The official name, e.g. `LOST_CONNECTION`.
    pub const fn name(self) -> &'static str {
        match self {
            LeaveCause::ReceivedDisconnect => "RECEIVED_DISCONNECT",
            LeaveCause::LostConnection => "LOST_CONNECTION",
            LeaveCause::ProtocolError => "PROTOCOL_ERROR",
            LeaveCause::NotConnected => "NOT_CONNECTED",
            LeaveCause::Unknown => "UNKNOWN",
        }
    }
}

/// The texts of a move the server refuses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ViolationTexts {
    /// The room `error` message.
    pub room_error: String,
    /// The reason of the offender's score.
    pub reason: String,
    /// The `errorpacket` message the offender gets after the result, if the
    /// season sends one.
    pub error_packet: Option<String>,
}

/// A player as the texts name it: by its display name, or where a season
/// says so, by its seat when the name is blank.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Player<'a> {
    /// The player's seat.
    pub seat: usize,
    /// The player's display name (empty if it has none).
    pub display_name: &'a str,
}

/// The texts a season puts on the wire about a game: how players are named,
/// what a refused move and an irregular end say. Each season has one
/// implementation; [`Dialect::texts`] picks it.
pub trait SeasonTexts: fmt::Debug + Sync {
    /// An illegal move of `offender`: the mistake's official text and,
    /// where the season names it, the move's description.
    fn rule_violation(
        &self,
        offender: Player<'_>,
        mistake: &str,
        move_description: Option<&str>,
    ) -> ViolationTexts;

    /// A move from `actual` while `expected` is on turn.
    fn not_your_turn(
        &self,
        expected: Player<'_>,
        actual: Player<'_>,
        move_description: &str,
    ) -> ViolationTexts;

    /// A move from `player`, who is on turn but was not asked (the room is
    /// paused).
    fn move_not_requested(&self, player: Player<'_>, move_description: &str) -> ViolationTexts;

    /// The reason of a player who left.
    fn left(&self, player: Player<'_>, cause: LeaveCause) -> String;

    /// The reason of a player who ran out of time; the limits in whole
    /// seconds.
    fn timeout(
        &self,
        player: Player<'_>,
        kind: TimeLimit,
        soft_secs: u64,
        hard_secs: u64,
    ) -> String;

    /// The reason of every player when an administrator cancelled the game;
    /// every season says it alike.
    fn cancelled(&self) -> String {
        room_texts::CANCELLED_REASON.to_owned()
    }

    /// The reason of every player when the server ended the game at
    /// shutdown; every season says it alike.
    fn shutdown(&self) -> String {
        room_texts::SHUTDOWN_REASON.to_owned()
    }

    /// How the game ended, for layouts that state it (2027): `regular`
    /// unless someone left, broke a rule, ran out of time or the game was
    /// stopped; the reason of an irregular end (the offender's, or the
    /// common one of a cancelled or stopped game); the winners. `None` (the
    /// default) for seasons whose results do not say.
    fn conclusion(
        &self,
        regular: bool,
        irregular_reason: Option<&str>,
        winners: &[Player<'_>],
    ) -> Option<Conclusion> {
        let _ = (regular, irregular_reason, winners);
        None
    }

    /// The cause of an irregular end with this reason, for layouts that
    /// write the reason but no causes (2027). [`ScoreCause::Unknown`] (the
    /// default) for seasons whose results name their causes.
    fn cause_of(&self, reason: &str) -> ScoreCause {
        let _ = reason;
        ScoreCause::Unknown
    }
}

/// What differs between seasons on the wire; see the module documentation.
#[derive(Clone, Copy, Debug)]
pub struct Dialect {
    /// The class of the move request.
    pub move_request: MoveRequestClass,
    /// The server's close packet at the end of a game.
    pub close: CloseElement,
    /// How results are laid out.
    pub result_layout: ResultLayout,
    /// The name of the first score fragment, the win points (2 win, 1 draw,
    /// 0 loss), which the server puts in front of the game's own parts.
    pub win_points_fragment: &'static str,
    /// Whether an offender's game parts are written as 0 or as they stand
    /// (2021 and 2022, as their official servers do).
    pub zero_offender_parts: bool,
    /// Whether players who joined without a prepared slot are timed.
    pub times_joined_players: bool,
    /// Whether a player's connection is closed after its game's result.
    pub closes_after_game: bool,
    /// Whether a connection is closed after the server refused its join.
    pub closes_after_refused_join: bool,
    /// Whether results are recorded for `scoreForPlayer` in test mode.
    pub test_mode: bool,
    /// The season's texts.
    pub texts: &'static dyn SeasonTexts,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wire_forms_are_read_back() {
        for &form in MoveRequestClass::ALL {
            assert_eq!(MoveRequestClass::from_class(form.class()), Some(form));
        }
        for &form in CloseElement::ALL {
            assert_eq!(CloseElement::from_element(form.element()), Some(form));
        }
        assert_eq!(MoveRequestClass::from_class("MoveRequest"), None);
        assert_eq!(CloseElement::from_element("Close"), None);
    }
}
