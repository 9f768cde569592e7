//! The 2022 season: its dialect ([`SEASON_2022`]) and texts
//! ([`Season2022`]).

use crate::{
    dialect::{
        CloseElement, Dialect, LeaveCause, MoveRequestClass, Player, ResultLayout, SeasonTexts,
        TimeLimit, ViolationTexts,
    },
    room_texts::{
        LEFT_REASON, move_not_requested_room_error, not_your_turn_room_error,
        player_description_2022, rule_violation_reason, rule_violation_room_error,
    },
};

/// The 2022 season as Spielleiter speaks it: the official 22.x wire
/// (`ostseeschach-2022.md`: `moveRequest`, `<sc.protocol.CloseConnection/>`,
/// the 2022 result layout and texts) with Spielleiter's decisions: every
/// player timed, a hard timeout reported as `HARD_TIMEOUT` and the opponent
/// named winner after any timeout, connections closed after the game and
/// kept open after a refused join.
pub const SEASON_2022: Dialect = Dialect {
    move_request: MoveRequestClass::Alias,
    close: CloseElement::Qualified,
    result_layout: ResultLayout::Season2022,
    win_points_fragment: "Siegpunkte",
    zero_offender_parts: false,
    times_joined_players: true,
    closes_after_game: true,
    closes_after_refused_join: false,
    test_mode: true,
    texts: &Season2022,
};

/// The result reason of a player who left, in 2022: the official text with
/// the cause, e.g. `Der Spieler hat das Spiel verlassen: LOST_CONNECTION`.
pub fn left_reason_2022(cause: LeaveCause) -> String {
    format!("{LEFT_REASON}: {}", cause.name())
}

/// The texts of the 2022 season (`ostseeschach-2022.md` §13): a refused
/// move's room error goes with a reason but no error packet; a move out of
/// turn or without request is reported with the official exception text,
/// which is also the reason; players are named `ONE(alice)`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Season2022;

impl SeasonTexts for Season2022 {
    fn rule_violation(
        &self,
        offender: Player<'_>,
        mistake: &str,
        move_description: Option<&str>,
    ) -> ViolationTexts {
        ViolationTexts {
            room_error: rule_violation_room_error(offender.display_name, mistake, move_description),
            reason: rule_violation_reason(mistake, move_description),
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
            &player_description_2022(expected.seat, expected.display_name),
            &player_description_2022(actual.seat, actual.display_name),
            move_description,
        );
        ViolationTexts {
            room_error: text.clone(),
            reason: text,
            error_packet: None,
        }
    }

    fn move_not_requested(&self, player: Player<'_>, _move_description: &str) -> ViolationTexts {
        let text = move_not_requested_room_error(&player_description_2022(
            player.seat,
            player.display_name,
        ));
        ViolationTexts {
            room_error: text.clone(),
            reason: text,
            error_packet: None,
        }
    }

    fn left(&self, _player: Player<'_>, cause: LeaveCause) -> String {
        left_reason_2022(cause)
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
