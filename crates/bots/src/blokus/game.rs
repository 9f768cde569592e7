//! The interface the Blokus bots play through: the [`BlokusGame`] trait,
//! its impls for the Software-Challenge and classic games, and the free
//! corners the greedy bots of every board size rate placements by.

use spielleiter_rules::{
    Game,
    blokus::{
        Board, Classic, ClassicPlayers, Color, ColorSet, Move, MoveList, SwcBlokus, SwcVariant,
    },
    polyomino::Bitboard,
};

/// What the Blokus bots ask of a 20×20 game.
pub trait BlokusGame: Game<Move = Move> {
    /// The colour on turn.
    fn current_color(&self) -> Color;
    /// The legal placements of the colour on turn.
    fn legal_moves(&self, moves: &mut MoveList);
    /// The fields of `color`.
    fn fields(&self, color: Color) -> &Board;
    /// The fields of all colours.
    fn occupied(&self) -> &Board;
    /// The colours whose pieces count against the player of `color`.
    fn opponents(&self, color: Color) -> ColorSet;
}

impl<V: SwcVariant> BlokusGame for SwcBlokus<V> {
    fn current_color(&self) -> Color {
        SwcBlokus::current_color(self)
    }
    fn legal_moves(&self, moves: &mut MoveList) {
        SwcBlokus::legal_moves(self, moves);
    }
    fn fields(&self, color: Color) -> &Board {
        SwcBlokus::fields(self, color)
    }
    fn occupied(&self) -> &Board {
        SwcBlokus::occupied(self)
    }
    fn opponents(&self, color: Color) -> ColorSet {
        color.team().opponent().colors().into_iter().collect()
    }
}

impl BlokusGame for Classic {
    fn current_color(&self) -> Color {
        Classic::current_color(self)
    }
    fn legal_moves(&self, moves: &mut MoveList) {
        Classic::legal_moves(self, moves);
    }
    fn fields(&self, color: Color) -> &Board {
        Classic::fields(self, color)
    }
    fn occupied(&self) -> &Board {
        Classic::occupied(self)
    }
    /// Four and three players: every other colour (in the three-player
    /// game GREEN too, which scores for nobody but takes room from
    /// everybody); two players: the other seat's colours.
    fn opponents(&self, color: Color) -> ColorSet {
        let own: ColorSet = match self.players() {
            ClassicPlayers::Two => color.team().colors().into_iter().collect(),
            ClassicPlayers::Four | ClassicPlayers::Three => [color].into_iter().collect(),
        };
        Color::ALL
            .into_iter()
            .filter(|&c| !own.contains(c))
            .collect()
    }
}

/// The free corners of a player with fields `own` on a board where
/// `occupied` is taken: empty fields diagonally next to its pieces that
/// share no edge with them, where its next pieces can start. The greedy
/// bots of every Blokus board size rate placements by them.
pub(crate) fn free_corners<const N: usize>(
    own: &Bitboard<N>,
    occupied: &Bitboard<N>,
) -> Bitboard<N> {
    own.diagonal_neighbours() & !(*occupied | own.edge_neighbours())
}
