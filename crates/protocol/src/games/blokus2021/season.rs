//! The 2021 season: its dialect ([`SEASON_2021`]) and texts
//! ([`Season2021`]), which the classic games speak too.

use crate::{
    dialect::{
        CloseElement, Dialect, LeaveCause, MoveRequestClass, Player, ResultLayout, SeasonTexts,
        TimeLimit, ViolationTexts,
    },
    room_texts::{
        LEFT_REASON, move_not_requested, move_not_requested_reason, move_not_requested_room_error,
        not_your_turn, not_your_turn_reason, not_your_turn_room_error, player_description,
        rule_violation, rule_violation_reason, rule_violation_room_error,
    },
};

/// The 2021 season as Spielleiter speaks it: the official 21.4.0 wire with
/// Spielleiter's decisions (every player timed, `<close/>`, connections
/// stay open after refused requests and close after the game).
pub const SEASON_2021: Dialect = Dialect {
    move_request: MoveRequestClass::Qualified,
    close: CloseElement::Short,
    result_layout: ResultLayout::Season2021,
    win_points_fragment: "Gewinner",
    zero_offender_parts: false,
    times_joined_players: true,
    closes_after_game: true,
    closes_after_refused_join: false,
    test_mode: true,
    texts: &Season2021,
};

/// The texts of the 2021 season (`blokus-2021.md` §9–§11, `lobby.md` §9.2),
/// with Spielleiter's own reasons where it ends a game the official server
/// would not.
#[derive(Clone, Copy, Debug, Default)]
pub struct Season2021;

impl SeasonTexts for Season2021 {
    fn rule_violation(
        &self,
        offender: Player<'_>,
        mistake: &str,
        move_description: Option<&str>,
    ) -> ViolationTexts {
        ViolationTexts {
            room_error: rule_violation_room_error(offender.display_name, mistake, move_description),
            reason: rule_violation_reason(mistake, move_description),
            error_packet: Some(rule_violation(mistake, move_description)),
        }
    }

    fn not_your_turn(
        &self,
        expected: Player<'_>,
        actual: Player<'_>,
        move_description: &str,
    ) -> ViolationTexts {
        let expected = player_description(expected.seat, expected.display_name);
        let actual = player_description(actual.seat, actual.display_name);
        ViolationTexts {
            room_error: not_your_turn_room_error(&expected, &actual, move_description),
            reason: not_your_turn_reason(move_description),
            error_packet: Some(not_your_turn(&expected, &actual, move_description)),
        }
    }

    fn move_not_requested(&self, player: Player<'_>, move_description: &str) -> ViolationTexts {
        let player = player_description(player.seat, player.display_name);
        ViolationTexts {
            room_error: move_not_requested_room_error(&player),
            reason: move_not_requested_reason(move_description),
            error_packet: Some(move_not_requested(&player)),
        }
    }

    fn left(&self, _player: Player<'_>, _cause: LeaveCause) -> String {
        LEFT_REASON.to_owned()
    }

    fn timeout(
        &self,
        _player: Player<'_>,
        kind: TimeLimit,
        soft_secs: u64,
        hard_secs: u64,
    ) -> String {
        kind.official_reason(soft_secs, hard_secs)
    }
}
