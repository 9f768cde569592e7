//! The texts of `blokus_bcl` (Spielleiter's own, in English): the seed's
//! error codes with what they mean, and [`BclTexts`], what a refused move
//! and an irregular end say.

use spielleiter_rules::blokus::bcl::BclMistake;

use crate::{
    dialect::{LeaveCause, Player, SeasonTexts, TimeLimit, ViolationTexts},
    seats::seat_label,
};

/// The text of `mistake`: its code first (the seed's `OVERLAP` and
/// `OUT_OF_STAGE`; the corner rule's three codes marked as such), then
/// what it means.
pub const fn mistake_text(mistake: BclMistake) -> &'static str {
    match mistake {
        BclMistake::NotYourTurn => "NOT_YOUR_TURN: it is not this player's turn",
        BclMistake::BlockUsed => "BLOCK_USED: the player has no block of this kind left",
        BclMistake::OutOfStage => "OUT_OF_STAGE: the block does not fit on the board",
        BclMistake::Overlap => "OVERLAP: the block would cover an occupied field",
        BclMistake::NotOnStartCorner => {
            "NOT_ON_START_CORNER (corner rule): a player's first block must cover its start corner"
        }
        BclMistake::EdgeContact => {
            "EDGE_CONTACT (corner rule): the block shares an edge with the player's own blocks"
        }
        BclMistake::NoCornerContact => {
            "NO_CORNER_CONTACT (corner rule): the block must touch the player's own blocks at a corner"
        }
        BclMistake::PassWhilePlacementExists => {
            "PASS_WHILE_PLACEMENT_EXISTS: there is no pass while a block can be placed"
        }
    }
}

/// The texts of `blokus_bcl`: a player is named by its display name, or by
/// its seat (`ONE`, `TWO`) when it has none; the reason of a
/// disqualification is also the room `error` the offender gets; no
/// `errorpacket` follows the result.
#[derive(Clone, Copy, Debug, Default)]
pub struct BclTexts;

/// How texts name `player`.
fn name(player: Player<'_>) -> &str {
    if player.display_name.trim().is_empty() {
        seat_label(player.seat)
    } else {
        player.display_name
    }
}

/// A refused move whose room `error` and reason are `text`.
fn refused(text: String) -> ViolationTexts {
    ViolationTexts {
        room_error: text.clone(),
        reason: text,
        error_packet: None,
    }
}

impl SeasonTexts for BclTexts {
    fn rule_violation(
        &self,
        offender: Player<'_>,
        mistake: &str,
        move_description: Option<&str>,
    ) -> ViolationTexts {
        let mut text = format!("{} is disqualified: {mistake}", name(offender));
        if let Some(mv) = move_description {
            text.push_str(" (");
            text.push_str(mv);
            text.push(')');
        }
        refused(text)
    }

    fn not_your_turn(
        &self,
        expected: Player<'_>,
        actual: Player<'_>,
        move_description: &str,
    ) -> ViolationTexts {
        refused(format!(
            "{} is disqualified: NOT_YOUR_TURN: {} is on turn ({move_description})",
            name(actual),
            name(expected)
        ))
    }

    fn move_not_requested(&self, player: Player<'_>, move_description: &str) -> ViolationTexts {
        refused(format!(
            "{} is disqualified: a move nobody asked for ({move_description})",
            name(player)
        ))
    }

    fn left(&self, player: Player<'_>, cause: LeaveCause) -> String {
        format!("{} left the game ({})", name(player), cause.name())
    }

    fn timeout(
        &self,
        player: Player<'_>,
        kind: TimeLimit,
        soft_secs: u64,
        hard_secs: u64,
    ) -> String {
        match kind {
            TimeLimit::Soft => format!(
                "{} is disqualified: the move came later than {soft_secs} s after the request",
                name(player)
            ),
            TimeLimit::Hard => format!(
                "{} is disqualified: no move within {hard_secs} s of the request",
                name(player)
            ),
        }
    }

    fn cancelled(&self) -> String {
        "An administrator cancelled the game".to_owned()
    }

    fn shutdown(&self) -> String {
        "The server ended the game as it shut down".to_owned()
    }
}
