//! The Software-Challenge Blokus seasons as the server drives them: the
//! [`Game`] implementation of [`SwcBlokus`] for every season (seat 0 is
//! team ONE, seat 1 team TWO) and the catalogue's constructor.

use rand_core::Rng;

use super::{Mistake, Move, MoveList, SwcBlokus, SwcVariant, Team};
use crate::game::{Game, PlayerSet, ScoreParts};

/// A new game of the season `V` whose start piece is drawn from `rng` (the
/// catalogue's constructor for `swc_2021_blokus` and `swc_2027_blokus`).
pub fn new_random_game<V: SwcVariant, R: Rng + ?Sized>(rng: &mut R) -> SwcBlokus<V> {
    SwcBlokus::new(SwcBlokus::<V>::random_start_piece(rng))
}

/// The team of seat `seat`.
///
/// # Panics
///
/// If `seat` is not 0 or 1.
fn team(seat: usize) -> Team {
    Team::ALL[seat]
}

impl<V: SwcVariant> Game for SwcBlokus<V> {
    type Move = Move;
    type Mistake = Mistake;

    fn player_count(&self) -> usize {
        Team::ALL.len()
    }

    fn turn(&self) -> u32 {
        SwcBlokus::turn(self)
    }

    fn player_to_move(&self) -> Option<usize> {
        (!SwcBlokus::is_over(self)).then(|| self.current_team().index())
    }

    fn play(&mut self, mv: &Move) -> Result<(), Mistake> {
        SwcBlokus::play(self, mv)
    }

    fn is_over(&self) -> bool {
        SwcBlokus::is_over(self)
    }

    fn has_legal_move(&self) -> bool {
        !SwcBlokus::is_over(self) && SwcBlokus::has_legal_move(self, self.current_color())
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
