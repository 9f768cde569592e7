//! [`Classic`]: classic Blokus for four, three or two players
//! (`blokus_classic`, `blokus_classic_3`, `blokus_classic_2`; seed:
//! Pentobi's classic rules, `decisions.md` §17–§18), on the engine with
//! [`ClassicRules`].
//!
//! Colours move BLUE, YELLOW, RED, GREEN on the 20×20 board; each starts
//! with any of its 21 pieces on its own corner — BLUE (0,0), YELLOW (19,0),
//! RED (19,19), GREEN (0,19) — and later pieces touch their colour at a
//! corner only. There is no voluntary pass: a colour that cannot place is
//! skipped (removed when its turn comes), and the game ends when no colour
//! can place. Points: the cells placed, 15 more when all 21 pieces are
//! placed and 5 on top when the monomino was the last.
//!
//! Moves, placements and move lists are those of the Software-Challenge
//! seasons ([`Move`], [`Placement`], [`MoveList`]); a
//! [`Move::Skip`] is always a mistake here, because the colour on turn can
//! always place.

use core::fmt;

use super::{
    color::{ByColor, Color, ColorSet},
    engine::{Engine, Fault, Parts, Stock},
    movelist::MoveList,
    moves::{Move, Placement},
    perft::Perft,
    piece::PieceSet,
    position::{Board, SetupError, check_position, draw_board, four_color_queries},
    setup::BOARD_SIZE,
    shapes::SHAPES,
    variant::{ClassicRules, Variant},
};
use crate::game::PlayerSet;

/// How many players share the four colours (`decisions.md` §17).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ClassicPlayers {
    /// `blokus_classic`: seats ONE..FOUR play BLUE, YELLOW, RED, GREEN.
    Four,
    /// `blokus_classic_3`: seats ONE..THREE play BLUE, YELLOW, RED; GREEN
    /// is played in turn — its k-th piece (k = 0, 1, 2, …) by seat k mod 3
    /// — and its points count for nobody.
    Three,
    /// `blokus_classic_2`: seat ONE plays BLUE and RED, seat TWO YELLOW and
    /// GREEN; a seat's points are its colours' sum.
    Two,
}

impl ClassicPlayers {
    /// All three player counts.
    pub const ALL: [ClassicPlayers; 3] = [
        ClassicPlayers::Four,
        ClassicPlayers::Three,
        ClassicPlayers::Two,
    ];

    /// The number of players (seats).
    pub const fn count(self) -> usize {
        match self {
            ClassicPlayers::Four => 4,
            ClassicPlayers::Three => 3,
            ClassicPlayers::Two => 2,
        }
    }

    /// The game type id of `decisions.md` §13.
    pub const fn game_id(self) -> &'static str {
        match self {
            ClassicPlayers::Four => "blokus_classic",
            ClassicPlayers::Three => "blokus_classic_3",
            ClassicPlayers::Two => "blokus_classic_2",
        }
    }

    /// The colours whose points count for `seat`, in move order.
    ///
    /// # Panics
    ///
    /// If `seat` is not below [`ClassicPlayers::count`].
    pub fn scoring_colors(self, seat: usize) -> &'static [Color] {
        assert!(seat < self.count(), "seat {seat} of {self:?}");
        match self {
            ClassicPlayers::Four | ClassicPlayers::Three => &Color::ALL[seat..=seat],
            ClassicPlayers::Two => {
                [&[Color::Blue, Color::Red], &[Color::Yellow, Color::Green]][seat]
            }
        }
    }
}

/// Why a move is illegal in classic Blokus. Names follow the 2021 mistakes
/// where the rule is the same.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ClassicMistake {
    /// The move's colour is not the colour on turn (or the game is over).
    WrongColor,
    /// The colour has already placed this kind.
    DuplicateShape,
    /// A cell lies outside the board.
    OutOfBounds,
    /// A cell is already occupied.
    Obstructed,
    /// A cell shares an edge with a cell of the same colour.
    TouchesSameColor,
    /// A colour's first piece does not cover the colour's own corner.
    NotInOwnCorner,
    /// The piece shares no corner with a piece of its colour.
    NoSharedCorner,
    /// A pass although the colour can place a piece (there is no voluntary
    /// pass in classic Blokus).
    PassWhilePlacementExists,
}

impl ClassicMistake {
    /// The mistake's name in the style of the official ones, e.g.
    /// `NOT_IN_OWN_CORNER`.
    pub const fn name(self) -> &'static str {
        match self {
            ClassicMistake::WrongColor => "WRONG_COLOR",
            ClassicMistake::DuplicateShape => "DUPLICATE_SHAPE",
            ClassicMistake::OutOfBounds => "OUT_OF_BOUNDS",
            ClassicMistake::Obstructed => "OBSTRUCTED",
            ClassicMistake::TouchesSameColor => "TOUCHES_SAME_COLOR",
            ClassicMistake::NotInOwnCorner => "NOT_IN_OWN_CORNER",
            ClassicMistake::NoSharedCorner => "NO_SHARED_CORNER",
            ClassicMistake::PassWhilePlacementExists => "PASS_WHILE_PLACEMENT_EXISTS",
        }
    }
}

impl fmt::Display for ClassicMistake {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ClassicMistake::WrongColor => "the move's colour is not on turn",
            ClassicMistake::DuplicateShape => "this piece was already placed",
            ClassicMistake::OutOfBounds => "the piece does not fit on the board",
            ClassicMistake::Obstructed => "the piece would cover an occupied field",
            ClassicMistake::TouchesSameColor => "the piece shares an edge with its own colour",
            ClassicMistake::NotInOwnCorner => {
                "a colour's first piece must cover the colour's own corner"
            }
            ClassicMistake::NoSharedCorner => "the piece must touch its own colour at a corner",
            ClassicMistake::PassWhilePlacementExists => {
                "there is no pass while a piece can be placed"
            }
        })
    }
}

impl core::error::Error for ClassicMistake {}

/// A classic Blokus position as plain data, the form in which positions
/// cross the crate boundary (to the wire and back): the fields of
/// [`Setup`](super::Setup) of the seasons, with the players instead of a
/// start piece. Not necessarily consistent; [`Classic::from_setup`]
/// validates it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ClassicSetup {
    /// How many players share the colours.
    pub players: ClassicPlayers,
    /// Colour turns elapsed, including those of skipped colours. The colour
    /// on turn is `Color::from_index(turn)`.
    pub turn: u32,
    /// The kinds each colour has not placed yet.
    pub remaining: ByColor<PieceSet>,
    /// The colours still in the game.
    pub valid_colors: ColorSet,
    /// The board, indexed `board[y][x]`; `(0, 0)` is the top-left corner.
    pub board: [[Option<Color>; BOARD_SIZE]; BOARD_SIZE],
    /// The last applied move; `None` before the first move.
    pub last_move: Option<Move>,
    /// For each colour that has placed all its pieces: whether its last
    /// piece was `MONO`. `None` for the others.
    pub last_move_mono: ByColor<Option<bool>>,
}

impl ClassicSetup {
    /// The initial position: turn 0, all pieces in hand, every colour in
    /// the game, an empty board.
    pub fn new(players: ClassicPlayers) -> ClassicSetup {
        ClassicSetup {
            players,
            turn: 0,
            remaining: ByColor([PieceSet::ALL; 4]),
            valid_colors: ColorSet::ALL,
            board: [[None; BOARD_SIZE]; BOARD_SIZE],
            last_move: None,
            last_move_mono: ByColor([None; 4]),
        }
    }
}

/// A classic Blokus game in progress (or over): always a consistent
/// position, and whenever the game is not over the colour on turn can
/// place a piece.
///
/// The turn number counts colour turns, those of skipped colours included,
/// as in the Software-Challenge seasons: the colour on turn is
/// `Color::from_index(turn)`.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Classic {
    engine: Engine<ClassicRules, BOARD_SIZE>,
    players: ClassicPlayers,
    last_move: Option<Move>,
}

impl Classic {
    four_color_queries!();

    /// A new game: empty board, every colour with all 21 pieces, BLUE to
    /// move.
    pub fn new(players: ClassicPlayers) -> Classic {
        Classic {
            engine: Engine::new(0),
            players,
            last_move: None,
        }
    }

    /// Validates a position given as plain data. If the game is not over
    /// and the colour on turn cannot place, it is skipped as after a move
    /// (so `to_setup` may differ from `setup`).
    ///
    /// # Errors
    ///
    /// [`SetupError`] names the first inconsistency found.
    pub fn from_setup(setup: &ClassicSetup) -> Result<Classic, SetupError> {
        let pieces = check_position(
            setup.turn,
            &setup.board,
            &setup.remaining,
            setup.valid_colors,
            setup.last_move,
            &setup.last_move_mono,
            |color, fields| {
                let (x, y) = Classic::start_corner(color);
                if fields.contains(x, y) {
                    Ok(())
                } else {
                    Err(SetupError::NotInOwnCorner(color))
                }
            },
        )?;
        let engine = Engine::from_parts(&Parts {
            turn: setup.turn,
            start_kind: 0,
            pieces: pieces.0,
            stock: setup.remaining.0.map(|r| Stock::from_masks(r.bits(), 0)),
            // Four colours: their bits fit the engine's byte.
            valid: setup.valid_colors.bits() as u8,
            mono_last: setup.last_move_mono.0,
            finish_round: None,
        });
        Ok(Classic {
            engine,
            players: setup.players,
            last_move: setup.last_move,
        })
    }

    /// The position as plain data.
    pub fn to_setup(&self) -> ClassicSetup {
        let mut setup = ClassicSetup::new(self.players);
        setup.turn = self.turn();
        setup.remaining = ByColor::from_fn(|c| self.remaining(c));
        setup.valid_colors = self.valid_colors();
        setup.last_move = self.last_move;
        setup.last_move_mono = ByColor::from_fn(|c| self.last_move_mono(c));
        setup.board = self.board_colors();
        setup
    }

    /// The corner field `(x, y)` the first piece of `color` covers.
    pub const fn start_corner(color: Color) -> (i32, i32) {
        const LAST: i32 = BOARD_SIZE as i32 - 1;
        match color {
            Color::Blue => (0, 0),
            Color::Yellow => (LAST, 0),
            Color::Red => (LAST, LAST),
            Color::Green => (0, LAST),
        }
    }

    /// How many players share the colours.
    #[inline]
    pub fn players(&self) -> ClassicPlayers {
        self.players
    }

    /// The number of players (seats).
    #[inline]
    pub fn player_count(&self) -> usize {
        self.players.count()
    }

    /// The seat that places the next piece of `color`: fixed per colour,
    /// except GREEN in the three-player game, whose k-th piece seat k mod 3
    /// places.
    pub fn seat_of(&self, color: Color) -> usize {
        match (self.players, color) {
            (ClassicPlayers::Four, _) => color.index(),
            (ClassicPlayers::Two, _) => color.index() % 2,
            (ClassicPlayers::Three, Color::Green) => {
                self.engine.placed_pieces(color.index()) as usize % 3
            }
            (ClassicPlayers::Three, _) => color.index(),
        }
    }

    /// The seat whose move it is; `None` iff the game is over.
    pub fn player_to_move(&self) -> Option<usize> {
        (!self.is_over()).then(|| self.seat_of(self.current_color()))
    }

    /// Whether the game is over: no colour can place.
    pub fn is_over(&self) -> bool {
        self.engine.is_over()
    }

    /// Checks `mv` against the rules: colour on turn, then the kind, then
    /// each cell row by row (on the board, free, no edge with the own
    /// colour), then the corner rule; the first failing check names the
    /// mistake. A pass is always [`ClassicMistake::PassWhilePlacementExists`]
    /// for the colour on turn.
    ///
    /// # Errors
    ///
    /// The [`ClassicMistake`]. After the game is over no colour is on turn,
    /// and every move is [`ClassicMistake::WrongColor`].
    pub fn is_legal(&self, mv: &Move) -> Result<(), ClassicMistake> {
        if self.is_over() || mv.color() != self.current_color() {
            return Err(ClassicMistake::WrongColor);
        }
        let placement = match mv {
            Move::Skip(_) => return Err(ClassicMistake::PassWhilePlacementExists),
            Move::Set(placement) => placement,
        };
        let color = placement.color.index();
        if !self.engine.may_place_kind(color, placement.kind.index()) {
            return Err(ClassicMistake::DuplicateShape);
        }
        let first = self.engine.is_first_move(color);
        self.engine
            .check_cells(color, placement.cells())
            .map_err(|fault| match fault {
                Fault::OffBoard => ClassicMistake::OutOfBounds,
                Fault::Occupied => ClassicMistake::Obstructed,
                Fault::EdgeContact => ClassicMistake::TouchesSameColor,
                Fault::NoAnchor if first => ClassicMistake::NotInOwnCorner,
                Fault::NoAnchor => ClassicMistake::NoSharedCorner,
            })
    }

    /// Plays `mv` if it is legal, then advances the turn (skipping the
    /// colours that cannot place).
    ///
    /// # Errors
    ///
    /// The [`ClassicMistake`] of [`Classic::is_legal`]; the state is then
    /// unchanged.
    pub fn play(&mut self, mv: &Move) -> Result<(), ClassicMistake> {
        self.is_legal(mv)?;
        self.play_unchecked(mv);
        Ok(())
    }

    /// Plays a move of a game record: as [`Classic::play`], except that a
    /// pass of a colour no longer in the game is accepted and changes
    /// nothing — the rules skipped that colour already, and records that
    /// write a pass for every stuck colour (turn by turn) replay as they
    /// are.
    ///
    /// # Errors
    ///
    /// As [`Classic::play`].
    pub fn play_recorded(&mut self, mv: &Move) -> Result<(), ClassicMistake> {
        match mv {
            Move::Skip(color) if !self.valid_colors().contains(*color) => Ok(()),
            _ => self.play(mv),
        }
    }

    /// Plays a legal placement without checking it: the fast path for
    /// search and bots that play moves from [`Classic::legal_moves`].
    ///
    /// # Panics
    ///
    /// May panic, or leave an inconsistent state, if `mv` is not a legal
    /// placement.
    pub fn play_unchecked(&mut self, mv: &Move) {
        if let Move::Set(placement) = mv {
            let shape = SHAPES.shape_index(
                placement.kind.index(),
                placement.rotation,
                placement.flipped,
            );
            self.engine
                .place(shape, placement.x as usize, placement.y as usize);
            self.last_move = Some(*mv);
        }
    }

    /// Fills `moves` with the legal placements of the colour on turn (none
    /// when the game is over), one per distinct set of cells, labelled as
    /// in [`SwcBlokus::legal_moves`](super::SwcBlokus::legal_moves).
    pub fn legal_moves(&self, moves: &mut MoveList) {
        if self.is_over() {
            moves.clear(self.current_color());
            return;
        }
        self.placements_of(self.current_color(), moves);
    }

    /// Fills `moves` with the placements `color` could make if it were on
    /// turn now (for evaluation: e.g. every colour's mobility).
    pub fn placements_of(&self, color: Color, moves: &mut MoveList) {
        moves.clear(color);
        self.engine
            .for_each_fit(color.index(), |shape, y, columns| {
                moves.push_run(shape, y, columns)
            });
    }

    /// The points of `color` so far: its cells on the board, 15 more when
    /// it has placed all 21 pieces, and 5 on top when the last was `MONO`.
    pub fn color_points(&self, color: Color) -> u32 {
        self.engine.color_points(color.index())
    }

    /// The points of `seat`: its colours' points
    /// ([`ClassicPlayers::scoring_colors`]; GREEN counts for nobody in the
    /// three-player game).
    ///
    /// # Panics
    ///
    /// If `seat` is not below [`Classic::player_count`].
    pub fn points(&self, seat: usize) -> u32 {
        self.players
            .scoring_colors(seat)
            .iter()
            .map(|&c| self.color_points(c))
            .sum()
    }

    /// The place of `seat` by points: 1 + the number of seats with more
    /// points (seats on equal points share a place).
    ///
    /// # Panics
    ///
    /// If `seat` is not below [`Classic::player_count`].
    pub fn place(&self, seat: usize) -> u32 {
        let points = self.points(seat);
        1 + (0..self.player_count())
            .filter(|&other| self.points(other) > points)
            .count() as u32
    }

    /// The winners: every seat with the highest points (several on a tie).
    pub fn winners(&self) -> PlayerSet {
        PlayerSet::best_by(self.player_count(), |seat| self.points(seat))
    }
}

impl Perft for Classic {
    fn count_placements(&self) -> u64 {
        self.engine.count_legal_moves() as u64
    }

    fn for_each_child(&self, mut f: impl FnMut(&Self)) {
        let color = self.current_color();
        self.engine.for_each_placement(|shape, x, y| {
            let mut child = self.clone();
            child.engine.place(shape, x, y);
            child.last_move = Some(Move::Set(Placement::of_fixed_shape(color, shape, x, y)));
            f(&child);
        });
    }
}

impl fmt::Debug for Classic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Classic")
            .field("players", &self.players)
            .field("turn", &self.turn())
            .field("remaining", &ByColor::from_fn(|c| self.remaining(c)))
            .field("valid_colors", &self.valid_colors())
            .field("last_move", &self.last_move)
            .finish_non_exhaustive()?;
        write!(f, "{self}")
    }
}

impl fmt::Display for Classic {
    /// Draws the board, one line per row: `B`, `Y`, `R`, `G` for the
    /// colours, `.` for empty fields.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        draw_board(f, |x, y| self.color_at(x, y))
    }
}

/// The start corners of the engine's variant are those of
/// [`Classic::start_corner`].
const _: () = {
    let mut color = 0;
    while color < 4 {
        let (x, y) = Classic::start_corner(Color::ALL[color]);
        assert!(ClassicRules::START_FIELDS[color].contains(x, y));
        color += 1;
    }
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seats_and_scoring_colours() {
        let two = ClassicPlayers::Two;
        assert_eq!(two.scoring_colors(1), [Color::Yellow, Color::Green]);
        assert_eq!(ClassicPlayers::Three.scoring_colors(2), [Color::Red]);
        let game = Classic::new(ClassicPlayers::Three);
        assert_eq!(game.seat_of(Color::Green), 0);
        assert_eq!(Classic::new(two).seat_of(Color::Red), 0);
        assert_eq!(ClassicPlayers::Four.game_id(), "blokus_classic");
    }

    #[test]
    fn every_colour_starts_in_its_own_corner() {
        let mut game = Classic::new(ClassicPlayers::Four);
        let mut moves = MoveList::new();
        for color in Color::ALL {
            let (cx, cy) = Classic::start_corner(color);
            game.legal_moves(&mut moves);
            assert_eq!(moves.color(), color);
            assert!(moves.iter().all(|p| p.cells().any(|c| c == (cx, cy))));
            game.play(&Move::Set(moves.get(0).expect("a move")))
                .expect("legal");
        }
    }
}
