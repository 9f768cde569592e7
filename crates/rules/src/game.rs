//! The game-agnostic interface the server drives: the [`Game`] trait, the
//! catalogue of hosted games ([`GameType`]) and [`AnyGame`], an enum over the
//! concrete games that delegates without `dyn`.
//!
//! The server knows players by slot index (0 = the first slot of a room) and
//! never looks inside a game: whose turn it is, playing a move, whether the
//! game is over, points and winners all go through [`Game`]. Adding a game
//! means a variant in [`GameType`], [`AnyGame`], [`AnyMove`] and
//! [`AnyMistake`], and nothing in the server.

use core::fmt;

use rand_core::Rng;

use crate::blokus::{self, Blokus, Team};

/// A set of player slots (at most 8), e.g. the winners of a game.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct PlayerSet(u8);

impl PlayerSet {
    /// No player.
    pub const EMPTY: PlayerSet = PlayerSet(0);

    /// The set holding only `player`.
    ///
    /// # Panics
    ///
    /// If `player` is 8 or more.
    pub const fn single(player: usize) -> PlayerSet {
        assert!(player < 8, "at most 8 players");
        PlayerSet(1 << player)
    }

    /// Whether `player` is in the set.
    #[inline]
    pub const fn contains(self, player: usize) -> bool {
        player < 8 && self.0 >> player & 1 != 0
    }

    /// Adds `player`.
    ///
    /// # Panics
    ///
    /// If `player` is 8 or more.
    pub fn insert(&mut self, player: usize) {
        *self = PlayerSet(self.0 | PlayerSet::single(player).0);
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The number of players in the set.
    #[inline]
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// The slots in ascending order.
    pub fn iter(self) -> impl Iterator<Item = usize> {
        (0..8).filter(move |&p| self.contains(p))
    }
}

impl FromIterator<usize> for PlayerSet {
    fn from_iter<I: IntoIterator<Item = usize>>(iter: I) -> Self {
        let mut set = PlayerSet::EMPTY;
        for p in iter {
            set.insert(p);
        }
        set
    }
}

impl fmt::Debug for PlayerSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

/// A game as the server drives it: players are slot indices
/// `0..player_count()`.
pub trait Game {
    /// A move as a client sends it.
    type Move;
    /// Why a move is illegal.
    type Mistake: core::error::Error;

    /// The number of player slots.
    fn player_count(&self) -> usize;

    /// The game's turn counter, as its state messages carry it.
    fn turn(&self) -> u32;

    /// The slot whose move it is; `None` iff the game is over.
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
    /// players (Blokus) guarantee this whenever the game is not over.
    fn has_legal_move(&self) -> bool;

    /// Calls `f` for every legal move of the player to move, one per
    /// distinct effect on the game (none when the game is over). Optional
    /// moves such as a Blokus skip are not listed.
    fn for_each_legal_move(&self, f: impl FnMut(Self::Move));

    /// The game points of `player` (for Blokus: the team score).
    fn points(&self, player: usize) -> u32;

    /// The winners at a regular end: the players with the most points, all
    /// of them on a draw. (Ends by rule violation, timeout or disconnect are
    /// the server's business.)
    fn winners(&self) -> PlayerSet;
}

impl Game for Blokus {
    type Move = blokus::Move;
    type Mistake = blokus::Mistake;

    fn player_count(&self) -> usize {
        2
    }

    fn turn(&self) -> u32 {
        Blokus::turn(self)
    }

    fn player_to_move(&self) -> Option<usize> {
        (!Blokus::is_over(self)).then(|| self.current_team().index())
    }

    fn play(&mut self, mv: &blokus::Move) -> Result<(), blokus::Mistake> {
        Blokus::play(self, mv)
    }

    fn is_over(&self) -> bool {
        Blokus::is_over(self)
    }

    fn has_legal_move(&self) -> bool {
        !Blokus::is_over(self) && Blokus::has_legal_move(self, self.current_color())
    }

    fn for_each_legal_move(&self, mut f: impl FnMut(blokus::Move)) {
        let mut moves = blokus::MoveList::new();
        self.legal_moves(&mut moves);
        for placement in &moves {
            f(blokus::Move::Set(placement));
        }
    }

    /// The team score of slot `player` (0 = team ONE, 1 = team TWO).
    ///
    /// # Panics
    ///
    /// If `player` is not 0 or 1.
    fn points(&self, player: usize) -> u32 {
        self.team_points(Team::ALL[player])
    }

    fn winners(&self) -> PlayerSet {
        let [one, two] = Team::ALL.map(|t| self.team_points(t));
        match one.cmp(&two) {
            core::cmp::Ordering::Greater => PlayerSet::single(0),
            core::cmp::Ordering::Less => PlayerSet::single(1),
            core::cmp::Ordering::Equal => PlayerSet::single(0) | PlayerSet::single(1),
        }
    }
}

impl core::ops::BitOr for PlayerSet {
    type Output = PlayerSet;

    fn bitor(self, rhs: PlayerSet) -> PlayerSet {
        PlayerSet(self.0 | rhs.0)
    }
}

/// The games Spielleiter hosts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameType {
    /// Blokus, Software-Challenge 2021.
    Blokus2021,
}

impl GameType {
    /// Every hosted game.
    pub const ALL: [GameType; 1] = [GameType::Blokus2021];

    /// The `gameType` id of the protocol, e.g. `swc_2021_blokus`.
    pub const fn id(self) -> &'static str {
        match self {
            GameType::Blokus2021 => "swc_2021_blokus",
        }
    }

    /// The game with this protocol id (exact, case-sensitive).
    pub fn from_id(id: &str) -> Option<GameType> {
        GameType::ALL.into_iter().find(|g| g.id() == id)
    }

    /// The number of player slots of a room for this game.
    pub const fn player_count(self) -> usize {
        match self {
            GameType::Blokus2021 => 2,
        }
    }
}

impl fmt::Display for GameType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// A game of any hosted type.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum AnyGame {
    /// Blokus 2021.
    Blokus2021(Blokus),
}

/// A move of any hosted game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AnyMove {
    /// A Blokus 2021 move.
    Blokus2021(blokus::Move),
}

/// Why a move is illegal, for any hosted game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AnyMistake {
    /// The move belongs to another game type than the game.
    WrongGame,
    /// A Blokus 2021 mistake.
    Blokus2021(blokus::Mistake),
}

impl fmt::Display for AnyMistake {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnyMistake::WrongGame => f.write_str("the move is for another game"),
            AnyMistake::Blokus2021(mistake) => mistake.fmt(f),
        }
    }
}

impl core::error::Error for AnyMistake {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        match self {
            AnyMistake::WrongGame => None,
            AnyMistake::Blokus2021(mistake) => Some(mistake),
        }
    }
}

impl From<blokus::Move> for AnyMove {
    fn from(mv: blokus::Move) -> Self {
        AnyMove::Blokus2021(mv)
    }
}

impl From<blokus::Mistake> for AnyMistake {
    fn from(mistake: blokus::Mistake) -> Self {
        AnyMistake::Blokus2021(mistake)
    }
}

impl From<Blokus> for AnyGame {
    fn from(game: Blokus) -> Self {
        AnyGame::Blokus2021(game)
    }
}

impl AnyGame {
    /// A new game of `game_type`, drawing whatever the game leaves to chance
    /// (the Blokus start piece) from `rng`.
    pub fn new<R: Rng + ?Sized>(game_type: GameType, rng: &mut R) -> AnyGame {
        match game_type {
            GameType::Blokus2021 => {
                AnyGame::Blokus2021(Blokus::new(Blokus::random_start_piece(rng)))
            }
        }
    }

    /// The type of this game.
    pub fn game_type(&self) -> GameType {
        match self {
            AnyGame::Blokus2021(_) => GameType::Blokus2021,
        }
    }

    /// The Blokus 2021 game, if this is one.
    pub fn as_blokus(&self) -> Option<&Blokus> {
        match self {
            AnyGame::Blokus2021(game) => Some(game),
        }
    }
}

/// Forwards a [`Game`] method to the concrete game.
macro_rules! delegate {
    ($self:ident, $game:ident => $body:expr) => {
        match $self {
            AnyGame::Blokus2021($game) => $body,
        }
    };
}

impl Game for AnyGame {
    type Move = AnyMove;
    type Mistake = AnyMistake;

    fn player_count(&self) -> usize {
        delegate!(self, game => game.player_count())
    }

    fn turn(&self) -> u32 {
        delegate!(self, game => Game::turn(game))
    }

    fn player_to_move(&self) -> Option<usize> {
        delegate!(self, game => game.player_to_move())
    }

    fn play(&mut self, mv: &AnyMove) -> Result<(), AnyMistake> {
        match (self, mv) {
            (AnyGame::Blokus2021(game), AnyMove::Blokus2021(mv)) => Ok(Game::play(game, mv)?),
        }
    }

    fn is_over(&self) -> bool {
        delegate!(self, game => Game::is_over(game))
    }

    fn has_legal_move(&self) -> bool {
        delegate!(self, game => Game::has_legal_move(game))
    }

    fn for_each_legal_move(&self, mut f: impl FnMut(AnyMove)) {
        delegate!(self, game => game.for_each_legal_move(|mv| f(mv.into())))
    }

    fn points(&self, player: usize) -> u32 {
        delegate!(self, game => game.points(player))
    }

    fn winners(&self) -> PlayerSet {
        delegate!(self, game => game.winners())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::blokus::{Color, Move, PieceKind};

    #[test]
    fn game_type_ids_round_trip() {
        for game_type in GameType::ALL {
            assert_eq!(GameType::from_id(game_type.id()), Some(game_type));
        }
        assert_eq!(GameType::Blokus2021.id(), "swc_2021_blokus");
        assert_eq!(GameType::from_id("SWC_2021_BLOKUS"), None);
    }

    #[test]
    fn any_game_delegates_to_blokus() {
        let mut game = AnyGame::from(Blokus::new(PieceKind::PentoU));
        assert_eq!(game.game_type(), GameType::Blokus2021);
        assert_eq!((game.player_count(), game.player_to_move()), (2, Some(0)));
        assert!(game.has_legal_move());
        let mut first = None;
        let mut count = 0;
        game.for_each_legal_move(|mv| {
            first.get_or_insert(mv);
            count += 1;
        });
        // Every corner of every PENTO_U orientation is a cell: 4 corners × 4.
        assert_eq!(count, 16);
        let skip = AnyMove::from(Move::Skip(Color::Blue));
        assert_eq!(
            game.play(&skip),
            Err(AnyMistake::Blokus2021(
                crate::blokus::Mistake::SkipFirstTurn
            ))
        );
        let first = first.expect("BLUE has moves");
        assert_eq!(game.play(&first), Ok(()));
        assert_eq!((game.turn(), game.player_to_move()), (1, Some(1)));
        assert_eq!((game.points(0), game.points(1)), (5, 0));
        assert_eq!(game.winners(), PlayerSet::single(0));
    }

    #[test]
    fn player_sets() {
        let both: PlayerSet = [1, 0].into_iter().collect();
        assert_eq!(both.iter().collect::<Vec<_>>(), [0, 1]);
        assert_eq!(both.len(), 2);
        assert!(!both.contains(2) && !both.contains(100));
        assert!(PlayerSet::EMPTY.is_empty());
    }
}
