//! A three-seat counting game that exists for tests only (feature
//! `test-games`): it lets the tests drive a game with more than two seats
//! through the whole server before a real one exists.
//!
//! Seats move in turn 0, 1, 2, 0, …; a move adds 1, 2 or 3 to the mover's
//! own total. After [`ROUNDS`] rounds the game is over; the highest total
//! wins, equal highest totals share the win.

use core::fmt;

use rand_core::Rng;

use crate::game::{Game, PlayerSet, ScoreParts};

/// The number of seats.
pub const SEATS: usize = 3;

/// The number of rounds (each seat moves once per round).
pub const ROUNDS: u32 = 2;

/// The state: each seat's total and the number of moves made.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Counting {
    /// Each seat's total.
    pub totals: [u32; SEATS],
    /// Moves made so far.
    pub turn: u32,
}

/// A move: add this amount (1, 2 or 3) to the mover's total.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Count(pub u32);

/// Why a move is illegal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CountingMistake {
    /// The amount is not 1, 2 or 3.
    OutOfRange,
    /// The game is over.
    GameOver,
}

impl fmt::Display for CountingMistake {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            CountingMistake::OutOfRange => "a count must be 1, 2 or 3",
            CountingMistake::GameOver => "the game is over",
        })
    }
}

impl core::error::Error for CountingMistake {}

impl Counting {
    /// A new game (nothing is left to chance; the catalogue's constructor).
    pub fn new_random<R: Rng + ?Sized>(_rng: &mut R) -> Counting {
        Counting::default()
    }
}

impl Game for Counting {
    type Move = Count;
    type Mistake = CountingMistake;

    fn player_count(&self) -> usize {
        SEATS
    }

    fn turn(&self) -> u32 {
        self.turn
    }

    fn player_to_move(&self) -> Option<usize> {
        (!self.is_over()).then_some(self.turn as usize % SEATS)
    }

    fn play(&mut self, mv: &Count) -> Result<(), CountingMistake> {
        let seat = self.player_to_move().ok_or(CountingMistake::GameOver)?;
        if !(1..=3).contains(&mv.0) {
            return Err(CountingMistake::OutOfRange);
        }
        self.totals[seat] += mv.0;
        self.turn += 1;
        Ok(())
    }

    fn is_over(&self) -> bool {
        self.turn >= ROUNDS * SEATS as u32
    }

    fn has_legal_move(&self) -> bool {
        !self.is_over()
    }

    fn for_each_legal_move(&self, mut f: impl FnMut(Count)) {
        if !self.is_over() {
            (1..=3).for_each(|n| f(Count(n)));
        }
    }

    fn score(&self, seat: usize) -> ScoreParts {
        ScoreParts::new(&[i64::from(self.totals[seat])])
    }

    fn winners(&self) -> PlayerSet {
        PlayerSet::best_by(SEATS, |seat| self.totals[seat])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn three_seats_take_turns_until_two_rounds_are_played() {
        let mut game = Counting::default();
        for (expected_seat, amount) in [(0, 3), (1, 1), (2, 3), (0, 1), (1, 2), (2, 1)] {
            assert_eq!(game.player_to_move(), Some(expected_seat));
            game.play(&Count(amount)).expect("legal");
        }
        assert!(game.is_over());
        assert_eq!(game.player_to_move(), None);
        assert_eq!(game.totals, [4, 3, 4]);
        assert_eq!(game.winners().iter().collect::<Vec<_>>(), [0, 2]);
        assert_eq!(game.play(&Count(1)), Err(CountingMistake::GameOver));
    }

    #[test]
    fn three_moves_each_turn() {
        let game = Counting::default();
        assert_eq!(crate::perft(&game, 2), 9);
        assert_eq!(crate::perft(&game, 6), 729);
        assert_eq!(crate::perft(&game, 7), 0);
    }

    #[test]
    fn counts_outside_one_to_three_are_refused() {
        let mut game = Counting::default();
        assert_eq!(game.play(&Count(4)), Err(CountingMistake::OutOfRange));
        assert_eq!(game.play(&Count(0)), Err(CountingMistake::OutOfRange));
        assert_eq!(game.turn, 0);
    }
}
