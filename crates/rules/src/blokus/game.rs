//! The Blokus games as the server drives them: the [`Game`] implementation
//! of [`SwcBlokus`] for every Software-Challenge season (seat 0 is team
//! ONE, seat 1 team TWO) and of [`Classic`] for 4, 3 and 2 players, and the
//! catalogue's constructors.

use rand_core::Rng;

use super::{
    Classic, ClassicMistake, ClassicPlayers, Mistake, Move, MoveList, SwcBlokus, SwcVariant,
};
use crate::{
    game::{Game, PlayerSet, ScoreParts},
    team::Team,
};

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

/// A new four-player classic game (the catalogue's constructor for
/// `blokus_classic`; nothing is left to chance).
pub fn new_classic_4<R: Rng + ?Sized>(_rng: &mut R) -> Classic {
    Classic::new(ClassicPlayers::Four)
}

/// A new three-player classic game (`blokus_classic_3`).
pub fn new_classic_3<R: Rng + ?Sized>(_rng: &mut R) -> Classic {
    Classic::new(ClassicPlayers::Three)
}

/// A new two-player classic game (`blokus_classic_2`).
pub fn new_classic_2<R: Rng + ?Sized>(_rng: &mut R) -> Classic {
    Classic::new(ClassicPlayers::Two)
}

impl Game for Classic {
    type Move = Move;
    type Mistake = ClassicMistake;

    fn player_count(&self) -> usize {
        Classic::player_count(self)
    }

    fn turn(&self) -> u32 {
        Classic::turn(self)
    }

    fn player_to_move(&self) -> Option<usize> {
        Classic::player_to_move(self)
    }

    fn play(&mut self, mv: &Move) -> Result<(), ClassicMistake> {
        Classic::play(self, mv)
    }

    fn is_over(&self) -> bool {
        Classic::is_over(self)
    }

    /// Always true while the game is not over: a colour that cannot place
    /// is skipped before it is asked.
    fn has_legal_move(&self) -> bool {
        !Classic::is_over(self)
    }

    fn for_each_legal_move(&self, mut f: impl FnMut(Move)) {
        let mut moves = MoveList::new();
        self.legal_moves(&mut moves);
        for placement in &moves {
            f(Move::Set(placement));
        }
    }

    /// Two parts: the seat's points (its colours' cells and bonuses), then
    /// its place by those points (1 + the number of seats with more; equal
    /// points share a place).
    ///
    /// # Panics
    ///
    /// If `seat` is not below the number of players.
    fn score(&self, seat: usize) -> ScoreParts {
        ScoreParts::new(&[i64::from(self.points(seat)), i64::from(self.place(seat))])
    }

    /// Every seat with the highest points (several share the win).
    fn winners(&self) -> PlayerSet {
        Classic::winners(self)
    }
}
