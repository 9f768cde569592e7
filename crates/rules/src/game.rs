//! The game-agnostic interface the server drives: the [`Game`] trait, the
//! seats of a game ([`PlayerSet`]) and a player's score ([`ScoreParts`]).
//!
//! The server knows players by seat index (0 = the first seat of a room,
//! the one that is asked first) and never looks inside a game: whose turn
//! it is, playing a move, whether the game is over, the score parts and the
//! winners all go through [`Game`]. Each game implements it in its own
//! module; the [`catalogue`](crate::catalogue) joins them.
//!
//! What a game decides and what the server decides: a game knows its own
//! score parts (Blokus: the team's points; other games may have several)
//! and who wins at a regular end, tie-breaks included ([`Game::winners`]).
//! The server adds the win points in front of the game's parts and handles
//! every irregular end (a rule violation, a timeout, a player who left: the
//! offender gets nothing, everybody else wins).

use core::fmt;

use crate::index_set::{IndexSet, Indexed};

/// The seats of a room by number (0 = the first seat), at most 8: the
/// universe of a [`PlayerSet`].
#[derive(Debug)]
pub enum Seats {}

impl Indexed for Seats {
    type Item = usize;
    const COUNT: usize = PlayerSet::CAPACITY;

    #[inline]
    fn index(seat: usize) -> usize {
        seat
    }

    #[inline]
    fn item(index: usize) -> usize {
        index
    }
}

/// A set of seats (at most 8), e.g. the winners of a game.
pub type PlayerSet = IndexSet<Seats>;

impl IndexSet<Seats> {
    /// The largest number of seats a set can hold.
    pub const CAPACITY: usize = 8;

    /// Seats `0..count`.
    ///
    /// # Panics
    ///
    /// If `count` is more than 8.
    pub const fn first(count: usize) -> PlayerSet {
        assert!(count <= PlayerSet::CAPACITY, "at most 8 players");
        PlayerSet::from_bits((1u32 << count) - 1)
    }

    /// The seats among `0..players` whose `key` is the greatest: one seat,
    /// or all that share the greatest key (a tie).
    pub fn best_by<K: Ord>(players: usize, key: impl Fn(usize) -> K) -> PlayerSet {
        let mut best: Option<K> = None;
        let mut set = PlayerSet::EMPTY;
        for seat in 0..players {
            let value = key(seat);
            match best.as_ref().map(|b| value.cmp(b)) {
                Some(core::cmp::Ordering::Less) => {}
                Some(core::cmp::Ordering::Equal) => set.insert(seat),
                None | Some(core::cmp::Ordering::Greater) => {
                    best = Some(value);
                    set = PlayerSet::single(seat);
                }
            }
        }
        set
    }
}

/// One player's score as the game computes it: the game's own parts, in the
/// order of the game's score definition (Blokus 2021: the team's points;
/// Ostseeschach: ambers, then light pieces forward). The server puts the
/// win points in front of them.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct ScoreParts {
    parts: [i64; ScoreParts::CAPACITY],
    len: u8,
}

impl ScoreParts {
    /// The most parts a game may have.
    pub const CAPACITY: usize = 4;

    /// The parts `parts`, in order.
    ///
    /// # Panics
    ///
    /// If there are more than [`ScoreParts::CAPACITY`] parts.
    pub const fn new(parts: &[i64]) -> ScoreParts {
        assert!(parts.len() <= ScoreParts::CAPACITY, "at most 4 score parts");
        let mut all = [0; ScoreParts::CAPACITY];
        let mut i = 0;
        while i < parts.len() {
            all[i] = parts[i];
            i += 1;
        }
        ScoreParts {
            parts: all,
            len: parts.len() as u8,
        }
    }

    /// The parts, in order.
    pub fn as_slice(&self) -> &[i64] {
        &self.parts[..usize::from(self.len)]
    }

    /// The same number of parts, all zero.
    pub fn zeroed(&self) -> ScoreParts {
        ScoreParts {
            parts: [0; ScoreParts::CAPACITY],
            len: self.len,
        }
    }
}

impl fmt::Debug for ScoreParts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

/// A game as the server drives it: players are seat indices
/// `0..player_count()`.
pub trait Game: Clone + fmt::Debug {
    /// A move as the rules take it.
    type Move: Copy + fmt::Debug + Eq + core::hash::Hash;
    /// Why a move is illegal.
    type Mistake: Copy + fmt::Debug + Eq + core::hash::Hash + core::error::Error;

    /// The number of seats.
    fn player_count(&self) -> usize;

    /// The game's turn counter, as its state messages carry it.
    fn turn(&self) -> u32;

    /// The seat whose move it is; `None` iff the game is over. This is the
    /// only source of whose turn it is.
    fn player_to_move(&self) -> Option<usize>;

    /// Plays `mv` for the player to move.
    ///
    /// # Errors
    ///
    /// The mistake if `mv` is illegal; the game is then unchanged.
    fn play(&mut self, mv: &Self::Move) -> Result<(), Self::Mistake>;

    /// Whether the game is over by its rules.
    fn is_over(&self) -> bool;

    /// Whether the player to move has a legal move. Games that remove stuck
    /// players (Blokus) guarantee this whenever the game is not over; games
    /// without passing (Ostseeschach) may ask a player who has none.
    fn has_legal_move(&self) -> bool;

    /// Calls `f` for every legal move of the player to move, one per
    /// distinct effect on the game (none when the game is over). Optional
    /// moves such as a Blokus skip are not listed.
    fn for_each_legal_move(&self, f: impl FnMut(Self::Move));

    /// The game's own score parts of `seat`, as they stand now.
    fn score(&self, seat: usize) -> ScoreParts;

    /// The winners at a regular end, by the game's rules including its
    /// tie-breaks: one seat, or several that share the win (a draw among
    /// them). Ends by rule violation, timeout or disconnect are the
    /// server's business.
    fn winners(&self) -> PlayerSet;

    /// Why `seat` stopped playing, in the game's own terms, for the reason
    /// of a regular result (BLOKUS Champions League: `OUT_OF_SPACE`,
    /// `OUT_OF_BLOCK`); empty (the default) where the game names none.
    fn regular_reason(&self, seat: usize) -> &'static str {
        let _ = seat;
        ""
    }
}

/// The number of move sequences of length `depth` from `game`, over
/// [`Game::for_each_legal_move`] (one move per distinct effect, no optional
/// moves, nothing past the end of the game): the generic move-generator
/// check. Games may have faster counters of their own (Blokus: its
/// `perft` module).
pub fn perft<G: Game>(game: &G, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut nodes = 0;
    game.for_each_legal_move(|mv| {
        if depth == 1 {
            nodes += 1;
            return;
        }
        let mut child = game.clone();
        if child.play(&mv).is_ok() {
            nodes += perft(&child, depth - 1);
        }
    });
    nodes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn player_sets() {
        let both: PlayerSet = [1, 0].into_iter().collect();
        assert_eq!(both.iter().collect::<Vec<_>>(), [0, 1]);
        assert_eq!(both.len(), 2);
        assert!(!both.contains(2) && !both.contains(100));
        assert!(PlayerSet::EMPTY.is_empty());
        assert_eq!(PlayerSet::first(3).iter().collect::<Vec<_>>(), [0, 1, 2]);
        assert_eq!(PlayerSet::first(8).len(), 8);
    }

    #[test]
    fn the_best_seats_share_the_greatest_key() {
        let points = [5, 9, 9, 1];
        let best = PlayerSet::best_by(4, |seat| points[seat]);
        assert_eq!(best.iter().collect::<Vec<_>>(), [1, 2]);
        assert_eq!(PlayerSet::best_by(4, |seat| seat), PlayerSet::single(3));
        assert_eq!(PlayerSet::best_by(0, |seat| seat), PlayerSet::EMPTY);
    }

    #[test]
    fn generic_perft_agrees_with_blokus_perft() {
        use crate::blokus::{Blokus, PieceKind, perft::perft as blokus_perft};
        let game = Blokus::new(PieceKind::PentoL);
        for depth in 0..=2 {
            assert_eq!(perft(&game, depth), blokus_perft(&game, depth), "{depth}");
        }
    }

    #[test]
    fn score_parts_keep_their_order() {
        let parts = ScoreParts::new(&[2, 0, 7]);
        assert_eq!(parts.as_slice(), [2, 0, 7]);
        assert_eq!(parts.zeroed().as_slice(), [0, 0, 0]);
        assert_eq!(ScoreParts::default().as_slice(), [] as [i64; 0]);
    }
}
