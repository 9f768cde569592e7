//! [`Bot`]: what every built-in bot is, a player of one game type that
//! chooses its moves without I/O.

use spielleiter_rules::Game;

/// A player of games of type `G` that chooses moves without I/O.
pub trait Bot<G: Game> {
    /// The bot's short name, e.g. `greedy`.
    fn name(&self) -> &'static str;

    /// A legal move for the player to move in `game`, which is not over.
    fn choose_move(&mut self, game: &G) -> G::Move;
}

impl<G: Game, B: Bot<G> + ?Sized> Bot<G> for Box<B> {
    fn name(&self) -> &'static str {
        (**self).name()
    }

    fn choose_move(&mut self, game: &G) -> G::Move {
        (**self).choose_move(game)
    }
}
