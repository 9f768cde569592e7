//! The 2027 season: its dialect ([`SEASON_2027`]), the one mistake text
//! that changed (`WRONG_COLOR`, `blokus-2027.md` §3.6) and [`Season2027`],
//! what a refused move and an irregular end say (§7, §8; decisions.md §25
//! where the spec leaves a choice).

use spielleiter_rules::blokus::Mistake;

use crate::{
    dialect::{
        CloseElement, Dialect, LeaveCause, MoveRequestClass, Player, ResultLayout, SeasonTexts,
        TimeLimit, ViolationTexts,
    },
    games::blokus,
    result::{Conclusion, ScoreCause},
    room_texts::{
        CANCELLED_REASON, invalid_move_exception, move_not_requested_room_error,
        not_your_turn_room_error, player_description_2022,
    },
    seats::seat_label,
};

/// The official text of `mistake` in 2027: the 2021 texts, but
/// `WRONG_COLOR` is the SDK's generic `Nur eigene Spielfiguren können
/// gezogen werden`.
pub const fn mistake_text(mistake: Mistake) -> &'static str {
    match mistake {
        Mistake::WrongColor => "Nur eigene Spielfiguren können gezogen werden",
        other => blokus::mistake_text(other),
    }
}

/// The reason of a regular end with one winner: `NAME hat am meisten
/// Punkte erzielt.`
const WIN_REASON: &str = " hat am meisten Punkte erzielt.";

/// The reason of a regular end without a single winner.
pub const TIE_REASON: &str = "Beide Spieler sind gleichauf";

const RULE_VIOLATION: &str = "Regelverletzung von ";
const PROCESS_VIOLATION: &str = "Missachtung des Spielablaufs von ";
const LEFT: &str = " hat das Spiel verlassen: ";
const SOFT_TIMEOUT: &str = " hat fuer die Antwort auf die Zugaufforderung laenger als ";
const HARD_TIMEOUT: &str = " Sekunden nach Aufforderung keinen Zug gesendet.";

/// The texts of the 2027 season (`blokus-2027.md` §7, §8): every player is
/// named by its display name, or by its seat (`ONE`, `TWO`) when it has
/// none (decisions.md §25); a refused move is answered with the room
/// `error` message only, never an `errorpacket`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Season2027;

impl Season2027 {
    /// How the reasons and the room `error` name a player.
    fn name(player: Player<'_>) -> &str {
        if player.display_name.trim().is_empty() {
            seat_label(player.seat)
        } else {
            player.display_name
        }
    }

    /// How the texts about the order of play name a player: `ONE(alice)`,
    /// as in 2022.
    fn describe(player: Player<'_>) -> String {
        player_description_2022(player.seat, player.display_name)
    }

    /// A process violation: `text` to the offender, and as its reason.
    fn process_violation(offender: Player<'_>, text: String) -> ViolationTexts {
        ViolationTexts {
            reason: format!("{PROCESS_VIOLATION}{}: {text}", Self::name(offender)),
            room_error: text,
            error_packet: None,
        }
    }
}

impl SeasonTexts for Season2027 {
    fn rule_violation(
        &self,
        offender: Player<'_>,
        mistake: &str,
        move_description: Option<&str>,
    ) -> ViolationTexts {
        let name = Self::name(offender);
        let exception = match move_description {
            Some(description) => format!("{mistake} bei '{description}'"),
            None => mistake.to_owned(),
        };
        ViolationTexts {
            room_error: format!(
                "Ungueltiger Zug von '{name}'.\n{}",
                invalid_move_exception(mistake, move_description)
            ),
            reason: format!("{RULE_VIOLATION}{name}: {exception}"),
            error_packet: None,
        }
    }

    fn not_your_turn(
        &self,
        expected: Player<'_>,
        actual: Player<'_>,
        move_description: &str,
    ) -> ViolationTexts {
        let text = not_your_turn_room_error(
            &Self::describe(expected),
            &Self::describe(actual),
            move_description,
        );
        Self::process_violation(actual, text)
    }

    fn move_not_requested(&self, player: Player<'_>, _move_description: &str) -> ViolationTexts {
        let text = move_not_requested_room_error(&Self::describe(player));
        Self::process_violation(player, text)
    }

    fn left(&self, player: Player<'_>, cause: LeaveCause) -> String {
        format!("{}{LEFT}{}", Self::name(player), cause.name())
    }

    /// Both texts name the soft limit, as the official server does.
    fn timeout(
        &self,
        player: Player<'_>,
        kind: TimeLimit,
        soft_secs: u64,
        _hard_secs: u64,
    ) -> String {
        let name = Self::name(player);
        match kind {
            TimeLimit::Soft => format!("{name}{SOFT_TIMEOUT}{soft_secs} Sekunden gebraucht."),
            TimeLimit::Hard => format!("{name} hat innerhalb von {soft_secs}{HARD_TIMEOUT}"),
        }
    }

    fn conclusion(
        &self,
        regular: bool,
        irregular_reason: Option<&str>,
        winners: &[Player<'_>],
    ) -> Option<Conclusion> {
        let reason = match (regular, winners) {
            (false, _) => irregular_reason.unwrap_or_default().to_owned(),
            (true, [winner]) => format!("{}{WIN_REASON}", Self::name(*winner)),
            (true, _) => TIE_REASON.to_owned(),
        };
        Some(Conclusion { regular, reason })
    }

    fn cause_of(&self, reason: &str) -> ScoreCause {
        if reason.starts_with(RULE_VIOLATION) || reason.starts_with(PROCESS_VIOLATION) {
            ScoreCause::RuleViolation
        } else if reason.contains(LEFT) {
            ScoreCause::Left
        } else if reason.contains(SOFT_TIMEOUT) {
            ScoreCause::SoftTimeout
        } else if reason.ends_with(HARD_TIMEOUT) {
            ScoreCause::HardTimeout
        } else if reason == CANCELLED_REASON {
            ScoreCause::Regular
        } else {
            ScoreCause::Unknown
        }
    }
}

/// The 2027 season as Spielleiter speaks it (`blokus-2027.md` §6–§10): the
/// move request `moveRequest`, results with `<scores>` entries and an
/// always present `<winner regular reason>`, violators' parts zeroed, no
/// `errorpacket` after a refused move, no test mode (removed in 2027);
/// with Spielleiter's decisions (every player timed, `<close/>` after the
/// game, connections stay open after refused requests).
pub const SEASON_2027: Dialect = Dialect {
    move_request: MoveRequestClass::Alias,
    close: CloseElement::Short,
    result_layout: ResultLayout::Season2027,
    win_points_fragment: "Siegpunkte",
    zero_offender_parts: true,
    times_joined_players: true,
    closes_after_game: true,
    closes_after_refused_join: false,
    test_mode: false,
    texts: &Season2027,
};

#[cfg(test)]
mod tests {
    use super::*;

    const ALICE: Player<'static> = Player {
        seat: 0,
        display_name: "alice",
    };
    const BOB: Player<'static> = Player {
        seat: 1,
        display_name: "bob",
    };
    const NAMELESS: Player<'static> = Player {
        seat: 1,
        display_name: " ",
    };
    const MOVE: &str = "Setze PENTO_V(Farbe Gelb)[8,8]";

    #[test]
    fn only_wrong_color_is_worded_anew() {
        assert_eq!(
            mistake_text(Mistake::WrongColor),
            "Nur eigene Spielfiguren können gezogen werden"
        );
        assert_eq!(
            mistake_text(Mistake::NotOnBorder),
            "Der erste Zug muss an den Rand gesetzt werden"
        );
        assert_eq!(
            mistake_text(Mistake::SkipFirstTurn),
            blokus::mistake_text(Mistake::SkipFirstTurn)
        );
    }

    #[test]
    fn a_rule_violation_is_reported_in_the_room_only() {
        let mistake = mistake_text(Mistake::NotOnBorder);
        let texts = Season2027.rule_violation(BOB, mistake, Some(MOVE));
        assert_eq!(
            texts.room_error,
            format!(
                "Ungueltiger Zug von 'bob'.\nInvalidMoveException(mistake={mistake}, move={MOVE})"
            )
        );
        assert_eq!(
            texts.reason,
            format!("Regelverletzung von bob: {mistake} bei '{MOVE}'")
        );
        assert_eq!(texts.error_packet, None);
        let shape = mistake_text(Mistake::WrongShape);
        let texts = Season2027.rule_violation(NAMELESS, shape, None);
        assert_eq!(texts.reason, format!("Regelverletzung von TWO: {shape}"));
        assert!(texts.room_error.starts_with("Ungueltiger Zug von 'TWO'.\n"));
        assert!(texts.room_error.ends_with(", move=null)"));
    }

    #[test]
    fn process_violations_name_both_players() {
        let texts = Season2027.not_your_turn(ALICE, BOB, MOVE);
        let expected =
            format!("It's not your turn yet; expected: ONE(alice), got TWO(bob) (msg was {MOVE}).");
        assert_eq!(texts.room_error, expected);
        assert_eq!(
            texts.reason,
            format!("Missachtung des Spielablaufs von bob: {expected}")
        );
        assert_eq!(texts.error_packet, None);
        let texts = Season2027.move_not_requested(BOB, MOVE);
        assert_eq!(
            texts.room_error,
            "Move from TWO(bob) has not been requested."
        );
        assert_eq!(
            texts.reason,
            "Missachtung des Spielablaufs von bob: Move from TWO(bob) has not been requested."
        );
    }

    #[test]
    fn departures_and_timeouts_name_the_player() {
        assert_eq!(
            Season2027.left(BOB, LeaveCause::LostConnection),
            "bob hat das Spiel verlassen: LOST_CONNECTION"
        );
        assert_eq!(
            Season2027.timeout(BOB, TimeLimit::Soft, 2, 10),
            "bob hat fuer die Antwort auf die Zugaufforderung laenger als 2 Sekunden gebraucht."
        );
        assert_eq!(
            Season2027.timeout(NAMELESS, TimeLimit::Hard, 2, 10),
            "TWO hat innerhalb von 2 Sekunden nach Aufforderung keinen Zug gesendet."
        );
    }

    #[test]
    fn conclusions_state_the_winner_a_tie_or_the_violation() {
        let conclusion = |regular, reason, winners: &[Player<'_>]| {
            Season2027
                .conclusion(regular, reason, winners)
                .expect("2027 states a conclusion")
        };
        assert_eq!(
            conclusion(true, None, &[ALICE]).reason,
            "alice hat am meisten Punkte erzielt."
        );
        assert_eq!(
            conclusion(true, None, &[NAMELESS]).reason,
            "TWO hat am meisten Punkte erzielt."
        );
        assert_eq!(conclusion(true, None, &[ALICE, BOB]).reason, TIE_REASON);
        assert_eq!(conclusion(true, None, &[]).reason, TIE_REASON);
        let violation = conclusion(
            false,
            Some("bob hat das Spiel verlassen: UNKNOWN"),
            &[ALICE],
        );
        assert!(!violation.regular);
        assert_eq!(violation.reason, "bob hat das Spiel verlassen: UNKNOWN");
    }

    #[test]
    fn every_irregular_reason_tells_its_cause() {
        let mistake = mistake_text(Mistake::NotOnBorder);
        for (reason, cause) in [
            (
                Season2027.rule_violation(BOB, mistake, Some(MOVE)).reason,
                ScoreCause::RuleViolation,
            ),
            (
                Season2027.not_your_turn(ALICE, BOB, MOVE).reason,
                ScoreCause::RuleViolation,
            ),
            (
                Season2027.move_not_requested(BOB, MOVE).reason,
                ScoreCause::RuleViolation,
            ),
            (
                Season2027.left(BOB, LeaveCause::ProtocolError),
                ScoreCause::Left,
            ),
            (
                Season2027.timeout(BOB, TimeLimit::Soft, 2, 10),
                ScoreCause::SoftTimeout,
            ),
            (
                Season2027.timeout(BOB, TimeLimit::Hard, 2, 10),
                ScoreCause::HardTimeout,
            ),
            (Season2027.cancelled(), ScoreCause::Regular),
            (Season2027.shutdown(), ScoreCause::Unknown),
        ] {
            assert_eq!(Season2027.cause_of(&reason), cause, "{reason}");
        }
    }
}
