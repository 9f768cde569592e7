//! The BCL game as the server drives it: the [`Game`] implementation of
//! [`Bcl`] (seat 0 is ONE, seat 1 TWO) and the catalogue's constructor.

use rand_core::Rng;

use super::position::{Bcl, BclMistake, BclMove, BclMoveList, BclPlayer};
use crate::game::{Game, PlayerSet, ScoreParts};

/// A new game (the catalogue's constructor for `blokus_bcl`). Nothing is
/// left to chance, so `rng` is not drawn from.
pub fn new_game<R: Rng + ?Sized>(_rng: &mut R) -> Bcl {
    Bcl::new()
}

/// The player of `seat`.
///
/// # Panics
///
/// If `seat` is not 0 or 1.
fn player(seat: usize) -> BclPlayer {
    BclPlayer::ALL[seat]
}

impl Game for Bcl {
    type Move = BclMove;
    type Mistake = BclMistake;

    fn player_count(&self) -> usize {
        BclPlayer::ALL.len()
    }

    fn turn(&self) -> u32 {
        Bcl::turn(self)
    }

    fn player_to_move(&self) -> Option<usize> {
        Bcl::player_to_move(self)
    }

    fn play(&mut self, mv: &BclMove) -> Result<(), BclMistake> {
        Bcl::play(self, mv)
    }

    fn is_over(&self) -> bool {
        Bcl::is_over(self)
    }

    fn has_legal_move(&self) -> bool {
        !Bcl::is_over(self) && Bcl::has_legal_move(self, self.current_player())
    }

    fn for_each_legal_move(&self, mut f: impl FnMut(BclMove)) {
        let mut moves = BclMoveList::new();
        self.legal_moves(&mut moves);
        for place in &moves {
            f(BclMove::Place(place));
        }
    }

    /// One part: the cells of the seat's blocks on the board.
    ///
    /// # Panics
    ///
    /// If `seat` is not 0 or 1.
    fn score(&self, seat: usize) -> ScoreParts {
        ScoreParts::new(&[i64::from(self.points(player(seat)))])
    }

    fn winners(&self) -> PlayerSet {
        Bcl::winners(self)
    }

    /// The seed's term for why the seat stopped placing: `OUT_OF_BLOCK`
    /// (all 12 blocks placed) or `OUT_OF_SPACE` (blocks left, none fits);
    /// empty while the seat is in the game.
    fn regular_reason(&self, seat: usize) -> &'static str {
        self.out_reason(player(seat))
            .map_or("", |reason| reason.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_whole_game_through_the_trait() {
        let mut game = Bcl::new();
        assert_eq!((game.player_count(), game.player_to_move()), (2, Some(0)));
        assert_eq!(game.regular_reason(0), "");
        while let Some(seat) = game.player_to_move() {
            assert!(Game::has_legal_move(&game));
            let mut first = None;
            game.for_each_legal_move(|mv| {
                first.get_or_insert(mv);
            });
            let mv = first.expect("the player to move can place");
            assert_eq!(mv.player().index(), seat);
            Game::play(&mut game, &mv).expect("a listed move is legal");
        }
        let mut listed = 0;
        game.for_each_legal_move(|_| listed += 1);
        assert_eq!(listed, 0);
        for seat in 0..2 {
            let reason = game.regular_reason(seat);
            assert!(
                ["OUT_OF_SPACE", "OUT_OF_BLOCK"].contains(&reason),
                "{reason}"
            );
            let cells = game.score(seat).as_slice()[0];
            assert_eq!(cells == 51, reason == "OUT_OF_BLOCK", "{game:?}");
        }
        let [one, two] = [0, 1].map(|seat| game.score(seat).as_slice()[0]);
        let expected: PlayerSet = [(0, one >= two), (1, two >= one)]
            .into_iter()
            .filter_map(|(seat, best)| best.then_some(seat))
            .collect();
        assert_eq!(game.winners(), expected);
    }
}
