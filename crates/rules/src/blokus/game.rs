//! Blokus 2021 as the server drives it: the [`Game`] implementation (seat 0
//! is team ONE, seat 1 team TWO) and the catalogue's constructor.

use rand_core::Rng;

use super::{Blokus, Mistake, Move, MoveList, Team};
use crate::game::{Game, PlayerSet, ScoreParts};

/// A new game whose start piece is drawn from `rng` (the catalogue's
/// constructor for `swc_2021_blokus`).
pub fn new_random_game<R: Rng + ?Sized>(rng: &mut R) -> Blokus {
    Blokus::new(Blokus::random_start_piece(rng))
}

/// The team of seat `seat`.
///
/// # Panics
///
/// If `seat` is not 0 or 1.
fn team(seat: usize) -> Team {
    Team::ALL[seat]
}

impl Game for Blokus {
    type Move = Move;
    type Mistake = Mistake;

    fn player_count(&self) -> usize {
        Team::ALL.len()
    }

    fn turn(&self) -> u32 {
        Blokus::turn(self)
    }

    fn player_to_move(&self) -> Option<usize> {
        (!Blokus::is_over(self)).then(|| self.current_team().index())
    }

    fn play(&mut self, mv: &Move) -> Result<(), Mistake> {
        Blokus::play(self, mv)
    }

    fn is_over(&self) -> bool {
        Blokus::is_over(self)
    }

    fn has_legal_move(&self) -> bool {
        !Blokus::is_over(self) && Blokus::has_legal_move(self, self.current_color())
    }

    fn for_each_legal_move(&self, mut f: impl FnMut(Move)) {
        let mut moves = MoveList::new();
        self.legal_moves(&mut moves);
        for placement in &moves {
            f(Move::Set(placement));
        }
    }

    /// One part: the points of the seat's team.
    ///
    /// # Panics
    ///
    /// If `seat` is not 0 or 1.
    fn score(&self, seat: usize) -> ScoreParts {
        ScoreParts::new(&[i64::from(self.team_points(team(seat)))])
    }

    /// The team with more points; both on equal points.
    fn winners(&self) -> PlayerSet {
        PlayerSet::best_by(Team::ALL.len(), |seat| self.team_points(team(seat)))
    }
}
