//! [`IllegalBot`]: a test bot that is disqualified on purpose.

use spielleiter_rules::blokus::bcl::{Bcl, BclFlip, BclKind, BclMove, BclRotation, PlaceTo};

use crate::Bot;

/// For tests of disqualification (e.g. a league that must record it): its
/// first block is a legal placement (the first in the rules' list that is
/// not the DOT), its second move puts the DOT on its own start corner,
/// which its first block covers: the seed's `OVERLAP`, every game, in
/// either seat.
#[derive(Debug, Default)]
pub struct IllegalBot;

impl IllegalBot {
    /// An illegal bot.
    pub fn new() -> IllegalBot {
        IllegalBot
    }
}

impl Bot<Bcl> for IllegalBot {
    fn name(&self) -> &'static str {
        "illegal"
    }

    fn choose_move(&mut self, game: &Bcl) -> BclMove {
        let player = game.current_player();
        if game.is_first_move(player) {
            let mut moves = spielleiter_rules::blokus::bcl::BclMoveList::new();
            game.legal_moves(&mut moves);
            if let Some(first) = moves.iter().find(|p| p.kind != BclKind::Dot) {
                return BclMove::Place(first);
            }
        }
        let (row, col) = player.start_corner();
        BclMove::Place(PlaceTo {
            player,
            kind: BclKind::Dot,
            rotation: BclRotation::None,
            flip: BclFlip::None,
            row,
            col,
        })
    }
}
