//! [`SwcBlokus`]: a validated Blokus game of the Software-Challenge seasons
//! — [`Blokus`] for 2021, [`Blokus2027`] for 2027 — with move validation,
//! move application, turn order, move generation, game end and scoring.
//! Both seasons share moves, mistakes, the state's plain data ([`Setup`])
//! and everything else; their rules differ only in the [`SwcVariant`].

use core::fmt;

use super::{
    check_order::checking_order,
    color::{ByColor, Color, ColorSet},
    engine::{Engine, Fault, Parts, Stock},
    movelist::MoveList,
    moves::{Mistake, Move, Placement},
    perft::{ListPlacements, Perft},
    piece::{PieceKind, PieceSet},
    setup::{BOARD_SIZE, Setup},
    shapes::SHAPES,
    variant::{EndRule, Swc2021, Swc2027, Variant},
};
use crate::{polyomino::Bitboard, team::Team};

/// A set of fields of the 20×20 board.
pub type Board = Bitboard<BOARD_SIZE>;

/// The cells of a complete set of pieces.
const ALL_CELLS: u32 = 89;

/// A Software-Challenge Blokus season: what its game type needs beyond the
/// engine's [`Variant`]. Implemented by [`Swc2021`] and [`Swc2027`] only.
pub trait SwcVariant: Variant<BOARD_SIZE> {
    /// The kinds the start piece is drawn from.
    const START_PIECES: &'static [PieceKind];
    /// The mistake of a first piece that covers no start field.
    const NOT_ON_START_FIELD: Mistake;
    /// The setup error of a colour whose pieces cover no start field.
    const NO_START_FIELD: fn(Color) -> SetupError;
}

impl SwcVariant for Swc2021 {
    const START_PIECES: &'static [PieceKind] = &PieceKind::START_PIECES;
    const NOT_ON_START_FIELD: Mistake = Mistake::NotInCorner;
    const NO_START_FIELD: fn(Color) -> SetupError = SetupError::NoCorner;
}

impl SwcVariant for Swc2027 {
    const START_PIECES: &'static [PieceKind] = &PieceKind::PENTOMINOES;
    const NOT_ON_START_FIELD: Mistake = Mistake::NotOnBorder;
    const NO_START_FIELD: fn(Color) -> SetupError = SetupError::NotOnBorder;
}

/// A Blokus 2021 game (`swc_2021_blokus`): see [`SwcBlokus`].
pub type Blokus = SwcBlokus<Swc2021>;

/// A Blokus 2027 game (`swc_2027_blokus`): see [`SwcBlokus`].
pub type Blokus2027 = SwcBlokus<Swc2027>;

/// A Blokus game of a Software-Challenge season in progress (or over):
/// always a consistent position.
///
/// Built with [`SwcBlokus::new`] or validated from plain data with
/// [`SwcBlokus::from_setup`]. Moves are checked by [`SwcBlokus::is_legal`]
/// and applied by [`SwcBlokus::play`], which leaves the state unchanged
/// when the move is illegal.
///
/// # Turn order and the colours that cannot move
///
/// After each move the turn advances to the next colour still in the game;
/// a colour without any legal placement is removed from the game when its
/// turn comes, its turn number consumed (`blokus-2021.md` §8.3; the same in
/// 2027). Hence, whenever the game is not over, the colour on turn has at
/// least one legal placement.
///
/// # The seasons
///
/// - 2021 ([`Blokus`]): the start piece is one of the 11 pentominoes other
///   than `PENTO_X` and covers a free corner. The game is over when no
///   colour is left, after round 25 (turn 100), or — following the
///   published rules, `decisions.md` §1 — when the round in which some
///   colour placed its last piece is complete (the turn number reached the
///   next multiple of 4).
/// - 2027 ([`Blokus2027`], `blokus-2027.md` §3): the start piece is any of
///   the 12 pentominoes and covers a border field; the game is over when no
///   colour is left or at turn 96 (`decisions.md` §24).
///
/// # Equality
///
/// Two states are equal iff all their fields (board, pieces, turn, colours
/// in the game, last move and the end-of-game bookkeeping) are equal.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct SwcBlokus<V> {
    engine: Engine<V, BOARD_SIZE>,
    last_move: Option<Move>,
}

/// Why a [`Setup`] (or a [`ClassicSetup`](super::ClassicSetup)) is not a
/// consistent Blokus position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SetupError {
    /// The number of fields of a colour differs from the cells of the
    /// pieces it has placed.
    CellCount {
        /// The colour.
        color: Color,
        /// Its fields on the board.
        on_board: u32,
        /// The cells of its placed pieces.
        placed: u32,
    },
    /// A colour has placed pieces but not the start piece, which every
    /// colour places first.
    StartPieceNotPlaced(Color),
    /// A colour has placed pieces but covers no board corner, which its
    /// first piece must have done (2021).
    NoCorner(Color),
    /// A colour has placed pieces but covers no border field, which its
    /// first piece must have done (2027).
    NotOnBorder(Color),
    /// A colour has placed pieces but does not cover its own corner, which
    /// its first piece must have done (classic Blokus).
    NotInOwnCorner(Color),
    /// The `MONO` flag of a colour is set although the colour still has
    /// pieces, or missing although it has placed them all.
    MonoFlag(Color),
    /// The colour on turn is no longer in the game although others are.
    ColorOnTurnRemoved(Color),
    /// The last move places a piece that is not on the board.
    LastMoveNotOnBoard,
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::CellCount {
                color,
                on_board,
                placed,
            } => write!(
                f,
                "{color} has {on_board} fields on the board but its placed pieces have {placed} cells"
            ),
            SetupError::StartPieceNotPlaced(color) => {
                write!(f, "{color} has placed pieces but not the start piece")
            }
            SetupError::NoCorner(color) => {
                write!(f, "{color} has placed pieces but covers no board corner")
            }
            SetupError::NotOnBorder(color) => {
                write!(f, "{color} has placed pieces but covers no border field")
            }
            SetupError::NotInOwnCorner(color) => {
                write!(
                    f,
                    "{color} has placed pieces but does not cover its own corner"
                )
            }
            SetupError::MonoFlag(color) => write!(
                f,
                "the MONO flag of {color} must be present exactly when all its pieces are placed"
            ),
            SetupError::ColorOnTurnRemoved(color) => {
                write!(f, "{color} is on turn but no longer in the game")
            }
            SetupError::LastMoveNotOnBoard => {
                f.write_str("the last move's piece is not on the board")
            }
        }
    }
}

impl core::error::Error for SetupError {}

/// The queries every game type of the 20×20 four-colour variants answers
/// the same way from its engine (field `engine`) and its `last_move`:
/// turn, colours, pieces, board and move counts.
macro_rules! four_color_queries {
    () => {
        /// Colour turns elapsed, including those of colours that were
        /// removed (skipped) because they could not place.
        #[inline]
        pub fn turn(&self) -> u32 {
            self.engine.turn()
        }

        /// The round, `1 + turn / 4`.
        #[inline]
        pub fn round(&self) -> u32 {
            self.engine.round()
        }

        /// The colour whose turn number it is.
        #[inline]
        pub fn current_color(&self) -> Color {
            Color::from_index(self.engine.current_color())
        }

        /// The kinds `color` has not placed yet.
        #[inline]
        pub fn remaining(&self, color: Color) -> PieceSet {
            PieceSet::from_bits(self.engine.stock(color.index()).kinds())
        }

        /// The colours still in the game (a colour that cannot place is
        /// removed when its turn comes).
        #[inline]
        pub fn valid_colors(&self) -> ColorSet {
            ColorSet::from_bits(u32::from(self.engine.valid_colors()))
        }

        /// The last applied move; `None` before the first.
        #[inline]
        pub fn last_move(&self) -> Option<Move> {
            self.last_move
        }

        /// For a colour that has placed all its pieces: whether the last
        /// was `MONO`. `None` for the others.
        #[inline]
        pub fn last_move_mono(&self, color: Color) -> Option<bool> {
            self.engine.mono_last(color.index())
        }

        /// The colour on field `(x, y)`; `None` for empty fields and fields
        /// off the board.
        pub fn color_at(&self, x: i32, y: i32) -> Option<Color> {
            self.engine.color_at(x, y).map(Color::from_index)
        }

        /// The fields of `color`.
        #[inline]
        pub fn fields(&self, color: Color) -> &Board {
            self.engine.fields(color.index())
        }

        /// The fields of all colours.
        #[inline]
        pub fn occupied(&self) -> &Board {
            self.engine.occupied()
        }

        /// Whether `color` has not placed a piece yet.
        #[inline]
        pub fn is_first_move(&self, color: Color) -> bool {
            self.engine.is_first_move(color.index())
        }

        /// Whether `color` could place a piece now (whether or not it is
        /// on turn): a piece the start rule allows on a start field before
        /// its first move, otherwise some remaining kind anywhere.
        pub fn has_legal_move(&self, color: Color) -> bool {
            self.engine.has_legal_move(color.index())
        }

        /// The number of placements `legal_moves` would list.
        pub fn count_legal_moves(&self) -> usize {
            self.engine.count_legal_moves()
        }

        /// The board as plain data, `[y][x]`, for `to_setup`.
        fn board_colors(&self) -> [[Option<Color>; BOARD_SIZE]; BOARD_SIZE] {
            let mut board = [[None; BOARD_SIZE]; BOARD_SIZE];
            for color in Color::ALL {
                for (x, y) in self.fields(color).iter() {
                    board[y][x] = Some(color);
                }
            }
            board
        }

        /// A uniformly random legal placement of the colour on turn, found
        /// without listing them all (random playouts, random bots); `None`
        /// when the game is over. Every placement `legal_moves` lists is
        /// equally likely.
        pub fn random_placement<R: rand_core::Rng + ?Sized>(
            &self,
            rng: &mut R,
        ) -> Option<Placement> {
            let color = self.current_color();
            let (shape, x, y) = self.engine.random_placement(rng)?;
            Some(Placement::of_fixed_shape(color, shape, x, y))
        }
    };
}
pub(super) use four_color_queries;

impl<V: SwcVariant> SwcBlokus<V> {
    four_color_queries!();

    /// A new game: empty board, every colour with all 21 pieces, BLUE to
    /// move, `start_piece` the first piece of every colour.
    ///
    /// With a start piece that cannot cover a start field (in 2021
    /// `PENTO_X`, never drawn by [`SwcBlokus::random_start_piece`], covers
    /// no corner) no colour can move, and the game is over at once.
    pub fn new(start_piece: PieceKind) -> Self {
        SwcBlokus {
            engine: Engine::new(start_piece.index()),
            last_move: None,
        }
    }

    /// Draws a start piece uniformly from the season's candidates
    /// (`decisions.md` §2 for 2021: every pentomino but `PENTO_X`;
    /// `blokus-2027.md` §3.2: all twelve), without modulo bias.
    pub fn random_start_piece<R: rand_core::Rng + ?Sized>(rng: &mut R) -> PieceKind {
        let candidates = V::START_PIECES;
        let n = candidates.len() as u32;
        // Draws 0..=last are a whole multiple of n values; rejecting the
        // few above makes every residue equally likely.
        let last = u32::MAX - (u32::MAX % n + 1) % n;
        loop {
            let draw = rng.next_u32();
            if draw <= last {
                return candidates[(draw % n) as usize];
            }
        }
    }

    /// Validates a position given as plain data.
    ///
    /// For 2021, a `Setup` does not record when a colour placed its last
    /// piece, which the end rule of `decisions.md` §1 needs: a colour that
    /// has placed all its pieces is taken to have finished in the current
    /// round (the only way a game with a finished colour can still be
    /// running), and at a round boundary (`turn` a multiple of 4) such a
    /// game is over.
    ///
    /// If the colour on turn cannot move, it is removed and the turn
    /// advances, as after a move (so `to_setup` may differ from `setup`).
    ///
    /// # Errors
    ///
    /// [`SetupError`] names the first inconsistency found.
    pub fn from_setup(setup: &Setup) -> Result<Self, SetupError> {
        let pieces = check_position(
            setup.turn,
            &setup.board,
            &setup.remaining,
            setup.valid_colors,
            setup.last_move,
            &setup.last_move_mono,
            |color, fields| {
                if setup.remaining[color].contains(setup.start_piece) {
                    Err(SetupError::StartPieceNotPlaced(color))
                } else if !fields.intersects(&V::START_FIELDS[color.index()]) {
                    Err((V::NO_START_FIELD)(color))
                } else {
                    Ok(())
                }
            },
        )?;
        let finished = Color::ALL.iter().any(|&c| setup.remaining[c].is_empty());
        let finish_round = match V::END {
            EndRule::TurnLimitOrFinishedRound(_) if finished => {
                Some(if setup.turn.is_multiple_of(4) {
                    setup.turn / 4
                } else {
                    setup.round()
                })
            }
            _ => None,
        };
        let engine = Engine::from_parts(&Parts {
            turn: setup.turn,
            start_kind: setup.start_piece.index(),
            pieces: pieces.0,
            stock: setup.remaining.0.map(|r| Stock::from_masks(r.bits(), 0)),
            // Four colours: their bits fit the engine's byte.
            valid: setup.valid_colors.bits() as u8,
            mono_last: setup.last_move_mono.0,
            finish_round,
        });
        Ok(SwcBlokus {
            engine,
            last_move: setup.last_move,
        })
    }

    /// The position as plain data.
    pub fn to_setup(&self) -> Setup {
        let mut setup = Setup::new(self.start_piece());
        setup.turn = self.turn();
        setup.remaining = ByColor::from_fn(|c| self.remaining(c));
        setup.valid_colors = self.valid_colors();
        setup.last_move = self.last_move;
        setup.last_move_mono = ByColor::from_fn(|c| self.last_move_mono(c));
        setup.board = self.board_colors();
        setup
    }

    /// The kind every colour places first.
    #[inline]
    pub fn start_piece(&self) -> PieceKind {
        PieceKind::ALL[self.engine.start_kind()]
    }

    /// The team of the colour on turn.
    #[inline]
    pub fn current_team(&self) -> Team {
        self.current_color().team()
    }

    /// Whether the game is over (see the type's documentation).
    pub fn is_over(&self) -> bool {
        self.engine.is_over()
    }

    /// Checks `mv` against the rules, in the official order of
    /// `blokus-2021.md` §8.2 (unchanged in 2027, `blokus-2027.md` §3.6);
    /// the first failing check names the mistake. The cells of a piece are
    /// visited in the official server's order (Appendix B), so that a
    /// piece with several defective cells (one off the board, another
    /// obstructed) is reported with the same mistake.
    ///
    /// # Errors
    ///
    /// The [`Mistake`]. After the game is over no colour is on turn, and
    /// every move is [`Mistake::WrongColor`].
    pub fn is_legal(&self, mv: &Move) -> Result<(), Mistake> {
        if self.is_over() || mv.color() != self.current_color() {
            return Err(Mistake::WrongColor);
        }
        let placement = match mv {
            Move::Skip(color) => {
                return if self.engine.may_pass(color.index()) {
                    Ok(())
                } else {
                    Err(Mistake::SkipFirstTurn)
                };
            }
            Move::Set(placement) => placement,
        };
        let color = placement.color;
        let first = self.is_first_move(color);
        if !self
            .engine
            .may_place_kind(color.index(), placement.kind.index())
        {
            return Err(if first {
                Mistake::WrongShape
            } else {
                Mistake::DuplicateShape
            });
        }
        self.engine
            .check_cells(color.index(), checking_order(placement))
            .map_err(|fault| match fault {
                Fault::OffBoard => Mistake::OutOfBounds,
                Fault::Occupied => Mistake::Obstructed,
                Fault::EdgeContact => Mistake::TouchesSameColor,
                Fault::NoAnchor if first => V::NOT_ON_START_FIELD,
                Fault::NoAnchor => Mistake::NoSharedCorner,
            })
    }

    /// Plays `mv` if it is legal, then advances the turn (removing colours
    /// that cannot move when their turn comes).
    ///
    /// # Errors
    ///
    /// The [`Mistake`] of [`SwcBlokus::is_legal`]; the state is then
    /// unchanged.
    pub fn play(&mut self, mv: &Move) -> Result<(), Mistake> {
        self.is_legal(mv)?;
        self.play_unchecked(mv);
        Ok(())
    }

    /// Plays `mv` without checking it: the fast path for search and bots
    /// that play moves from [`SwcBlokus::legal_moves`] (or a legal skip).
    ///
    /// # Panics
    ///
    /// May panic, or leave an inconsistent state, if `mv` is not legal.
    pub fn play_unchecked(&mut self, mv: &Move) {
        match mv {
            Move::Set(placement) => {
                let shape = SHAPES.shape_index(
                    placement.kind.index(),
                    placement.rotation,
                    placement.flipped,
                );
                self.engine
                    .place(shape, placement.x as usize, placement.y as usize);
            }
            Move::Skip(_) => self.engine.pass(),
        }
        self.last_move = Some(*mv);
    }

    /// Fills `moves` with the legal placements of the colour on turn (none
    /// when the game is over), one per distinct set of cells.
    ///
    /// Each placement carries the canonical label of its cells: the first
    /// (rotation, flipped) in the order `NONE`, `RIGHT`, `MIRROR`, `LEFT`
    /// unflipped, then flipped (the "same as" convention of
    /// `blokus-2021.md` Appendix A). Skipping, legal after a colour's first
    /// move, is not listed.
    pub fn legal_moves(&self, moves: &mut MoveList) {
        let color = self.current_color();
        moves.clear(color);
        if self.is_over() {
            return;
        }
        self.engine
            .for_each_fit(color.index(), |shape, y, columns| {
                moves.push_run(shape, y, columns)
            });
    }

    /// Whether the colour on turn may skip now (not before its first piece).
    pub fn can_skip(&self) -> bool {
        !self.is_over() && self.engine.may_pass(self.engine.current_color())
    }

    /// The points of `color` (`blokus-2021.md` §9.1): the cells it has
    /// placed, or 104 when it has placed all pieces, 109 if `MONO` was last.
    pub fn color_points(&self, color: Color) -> u32 {
        self.engine.color_points(color.index())
    }

    /// The points of `team`: the sum of its two colours.
    pub fn team_points(&self, team: Team) -> u32 {
        team.colors().iter().map(|&c| self.color_points(c)).sum()
    }
}

impl<V: SwcVariant> ListPlacements for SwcBlokus<V> {
    fn legal_moves(&self, moves: &mut MoveList) {
        SwcBlokus::legal_moves(self, moves);
    }
}

impl<V: SwcVariant> Perft for SwcBlokus<V> {
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

/// Checks a 20×20 position given as plain data and returns each colour's
/// fields: every colour's fields match the cells of the pieces it has
/// placed, `first_piece` accepts each colour that has placed pieces (with
/// its fields), the `MONO` flags are set exactly for the colours that
/// placed everything, the colour on turn is in the game (unless none is),
/// and the last move's piece is on the board.
pub(super) fn check_position(
    turn: u32,
    board: &[[Option<Color>; BOARD_SIZE]; BOARD_SIZE],
    remaining: &ByColor<PieceSet>,
    valid_colors: ColorSet,
    last_move: Option<Move>,
    last_move_mono: &ByColor<Option<bool>>,
    first_piece: impl Fn(Color, &Board) -> Result<(), SetupError>,
) -> Result<ByColor<Board>, SetupError> {
    let mut pieces = ByColor([Board::EMPTY; 4]);
    for (y, row) in board.iter().enumerate() {
        for (x, field) in row.iter().enumerate() {
            if let Some(color) = field {
                pieces[*color].insert(x, y);
            }
        }
    }
    for color in Color::ALL {
        let remaining = remaining[color];
        let placed = ALL_CELLS - remaining.cells();
        let on_board = pieces[color].count();
        if on_board != placed {
            return Err(SetupError::CellCount {
                color,
                on_board,
                placed,
            });
        }
        if remaining != PieceSet::ALL {
            first_piece(color, &pieces[color])?;
        }
        if last_move_mono[color].is_some() != remaining.is_empty() {
            return Err(SetupError::MonoFlag(color));
        }
    }
    let current = Color::from_index(turn as usize);
    if !valid_colors.is_empty() && !valid_colors.contains(current) {
        return Err(SetupError::ColorOnTurnRemoved(current));
    }
    if let Some(Move::Set(placement)) = last_move {
        let on_board = placement
            .cells()
            .all(|(x, y)| pieces[placement.color].contains(x, y));
        if !on_board || remaining[placement.color].contains(placement.kind) {
            return Err(SetupError::LastMoveNotOnBoard);
        }
    }
    Ok(pieces)
}

impl<V: SwcVariant> fmt::Debug for SwcBlokus<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SwcBlokus")
            .field("variant", &V::default())
            .field("start_piece", &self.start_piece())
            .field("turn", &self.turn())
            .field("remaining", &ByColor::from_fn(|c| self.remaining(c)))
            .field("valid_colors", &self.valid_colors())
            .field("last_move", &self.last_move)
            .field(
                "last_move_mono",
                &ByColor::from_fn(|c| self.last_move_mono(c)),
            )
            .finish_non_exhaustive()?;
        write!(f, "{self}")
    }
}

impl<V: SwcVariant> fmt::Display for SwcBlokus<V> {
    /// Draws the board, one line per row: `B`, `Y`, `R`, `G` for the
    /// colours, `.` for empty fields.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        draw_board(f, |x, y| self.color_at(x, y))
    }
}

/// Draws a 20×20 board of the four colours, one line per row: `B`, `Y`,
/// `R`, `G` for the colours, `.` for empty fields.
pub(super) fn draw_board(
    f: &mut fmt::Formatter<'_>,
    color_at: impl Fn(i32, i32) -> Option<Color>,
) -> fmt::Result {
    for y in 0..BOARD_SIZE as i32 {
        f.write_str("\n")?;
        for x in 0..BOARD_SIZE as i32 {
            f.write_str(match color_at(x, y) {
                Some(Color::Blue) => "B",
                Some(Color::Yellow) => "Y",
                Some(Color::Red) => "R",
                Some(Color::Green) => "G",
                None => ".",
            })?;
        }
    }
    Ok(())
}
