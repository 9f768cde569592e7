//! [`Blokus`]: the validated Blokus 2021 game state, with move validation,
//! move application, turn order, move generation, game end and scoring.

use core::fmt;

use super::{
    check_order::checking_order,
    color::{ByColor, Color, ColorSet, Team},
    movelist::MoveList,
    moves::{Mistake, Move, Placement},
    piece::{PieceKind, PieceSet},
    setup::{BOARD_SIZE, ROUND_LIMIT, Setup},
    shapes::SHAPES,
};
use crate::polyomino::{Bitboard, FixedShape, PlacementMasks, RunMasks};

/// A set of fields of the Blokus 2021 board.
pub type Board = Bitboard<BOARD_SIZE>;

/// Points for placing all 21 pieces, on top of the 89 cells.
const ALL_PLACED_BONUS: u32 = 15;
/// Extra points when the last piece placed was `MONO`.
const MONO_LAST_BONUS: u32 = 5;
/// The cells of a complete set of pieces.
const ALL_CELLS: u32 = 89;

/// A Blokus 2021 game in progress (or over): always a consistent position.
///
/// Built with [`Blokus::new`] or validated from plain data with
/// [`Blokus::from_setup`]. Moves are checked by [`Blokus::is_legal`] and
/// applied by [`Blokus::play`], which leaves the state unchanged when the move
/// is illegal.
///
/// # Turn order and the colours that cannot move
///
/// After each move the turn advances to the next colour still in the game;
/// a colour without any legal placement is removed from the game when its
/// turn comes, its turn number consumed (`blokus-2021.md` §8.3). Hence,
/// whenever the game is not over, the colour on turn has at least one legal
/// placement.
///
/// # Game end
///
/// The game is over when no colour is left, after round 25 (turn 100), or —
/// following the published rules, `decisions.md` §1 — when the round in
/// which some colour placed its last piece is complete (the turn number
/// reached the next multiple of 4).
///
/// # Equality
///
/// Two states are equal iff all their fields (board, pieces, turn, colours
/// in the game, last move and the end-of-game bookkeeping) are equal.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Blokus {
    start_piece: PieceKind,
    turn: u32,
    /// The fields of each colour.
    pieces: ByColor<Board>,
    /// The fields of all colours.
    occupied: Board,
    /// Per colour: the fields sharing an edge with that colour, which its
    /// pieces may never cover.
    edges: ByColor<Board>,
    /// Per colour: the fields diagonally adjacent to that colour, one of
    /// which every further piece must cover.
    corners: ByColor<Board>,
    remaining: ByColor<PieceSet>,
    valid_colors: ColorSet,
    last_move: Option<Move>,
    last_move_mono: ByColor<Option<bool>>,
    /// The round in which the first colour placed its last piece; the game
    /// ends when that round is complete.
    finish_round: Option<u32>,
}

/// Why a [`Setup`] is not a consistent Blokus 2021 position.
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
    /// first piece must have done.
    NoCorner(Color),
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

impl Blokus {
    /// A new game: empty board, every colour with all 21 pieces, BLUE to
    /// move, `start_piece` the first piece of every colour.
    ///
    /// With a start piece that cannot cover a corner (`PENTO_X`, never drawn
    /// by [`Blokus::random_start_piece`]) no colour can move, and the game is
    /// over at once.
    pub fn new(start_piece: PieceKind) -> Blokus {
        let mut game = Blokus {
            start_piece,
            turn: 0,
            pieces: ByColor([Board::EMPTY; 4]),
            occupied: Board::EMPTY,
            edges: ByColor([Board::EMPTY; 4]),
            corners: ByColor([Board::EMPTY; 4]),
            remaining: ByColor([PieceSet::ALL; 4]),
            valid_colors: ColorSet::ALL,
            last_move: None,
            last_move_mono: ByColor([None; 4]),
            finish_round: None,
        };
        game.drop_stuck_colors();
        game
    }

    /// Draws a start piece uniformly from [`PieceKind::START_PIECES`]
    /// (`decisions.md` §2), without modulo bias.
    pub fn random_start_piece<R: rand_core::Rng + ?Sized>(rng: &mut R) -> PieceKind {
        const N: u32 = PieceKind::START_PIECES.len() as u32;
        // Draws 0..=LAST are a whole multiple of N values; rejecting the
        // few above makes every residue equally likely.
        const LAST: u32 = u32::MAX - (u32::MAX % N + 1) % N;
        loop {
            let draw = rng.next_u32();
            if draw <= LAST {
                return PieceKind::START_PIECES[(draw % N) as usize];
            }
        }
    }

    /// Validates a position given as plain data.
    ///
    /// A `Setup` does not record when a colour placed its last piece, which
    /// the end rule of `decisions.md` §1 needs: a colour that has placed all
    /// its pieces is taken to have finished in the current round (the only
    /// way a game with a finished colour can still be running), and at a
    /// round boundary (`turn` a multiple of 4) such a game is over.
    ///
    /// If the colour on turn cannot move, it is removed and the turn
    /// advances, as after a move (so `to_setup` may differ from `setup`).
    ///
    /// # Errors
    ///
    /// [`SetupError`] names the first inconsistency found.
    pub fn from_setup(setup: &Setup) -> Result<Blokus, SetupError> {
        let mut pieces = ByColor([Board::EMPTY; 4]);
        for (x, y, color) in setup.occupied_fields() {
            pieces[color].insert(x, y);
        }
        for color in Color::ALL {
            let remaining = setup.remaining[color];
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
                if remaining.contains(setup.start_piece) {
                    return Err(SetupError::StartPieceNotPlaced(color));
                }
                if !pieces[color].intersects(&Board::CORNERS) {
                    return Err(SetupError::NoCorner(color));
                }
            }
            if setup.last_move_mono[color].is_some() != remaining.is_empty() {
                return Err(SetupError::MonoFlag(color));
            }
        }
        let current = setup.current_color();
        if !setup.valid_colors.is_empty() && !setup.valid_colors.contains(current) {
            return Err(SetupError::ColorOnTurnRemoved(current));
        }
        if let Some(Move::Set(placement)) = setup.last_move {
            let on_board = placement
                .cells()
                .all(|(x, y)| pieces[placement.color].contains(x, y));
            if !on_board || setup.remaining[placement.color].contains(placement.kind) {
                return Err(SetupError::LastMoveNotOnBoard);
            }
        }

        let finished = Color::ALL.iter().any(|&c| setup.remaining[c].is_empty());
        let finish_round = finished.then(|| {
            if setup.turn.is_multiple_of(4) {
                setup.turn / 4
            } else {
                setup.round()
            }
        });
        let mut game = Blokus {
            start_piece: setup.start_piece,
            turn: setup.turn,
            pieces,
            occupied: pieces.0.iter().fold(Board::EMPTY, |all, &p| all | p),
            edges: ByColor::from_fn(|c| pieces[c].edge_neighbours()),
            corners: ByColor::from_fn(|c| pieces[c].diagonal_neighbours()),
            remaining: setup.remaining,
            valid_colors: setup.valid_colors,
            last_move: setup.last_move,
            last_move_mono: setup.last_move_mono,
            finish_round,
        };
        if !game.is_over() {
            game.drop_stuck_colors();
        }
        Ok(game)
    }

    /// The position as plain data.
    pub fn to_setup(&self) -> Setup {
        let mut setup = Setup::new(self.start_piece);
        setup.turn = self.turn;
        setup.remaining = self.remaining;
        setup.valid_colors = self.valid_colors;
        setup.last_move = self.last_move;
        setup.last_move_mono = self.last_move_mono;
        for color in Color::ALL {
            for (x, y) in self.pieces[color].iter() {
                setup.board[y][x] = Some(color);
            }
        }
        setup
    }

    /// The kind every colour places first.
    #[inline]
    pub fn start_piece(&self) -> PieceKind {
        self.start_piece
    }

    /// Colour turns elapsed, including those of removed colours.
    #[inline]
    pub fn turn(&self) -> u32 {
        self.turn
    }

    /// The round, `1 + turn / 4`.
    #[inline]
    pub fn round(&self) -> u32 {
        1 + self.turn / 4
    }

    /// The colour whose turn number it is.
    #[inline]
    pub fn current_color(&self) -> Color {
        Color::from_index(self.turn as usize)
    }

    /// The team of the colour on turn.
    #[inline]
    pub fn current_team(&self) -> Team {
        self.current_color().team()
    }

    /// The kinds `color` has not placed yet.
    #[inline]
    pub fn remaining(&self, color: Color) -> PieceSet {
        self.remaining[color]
    }

    /// The colours still in the game.
    #[inline]
    pub fn valid_colors(&self) -> ColorSet {
        self.valid_colors
    }

    /// The last applied move; `None` before the first.
    #[inline]
    pub fn last_move(&self) -> Option<Move> {
        self.last_move
    }

    /// For a colour that has placed all its pieces: whether the last was
    /// `MONO`. `None` for the others.
    #[inline]
    pub fn last_move_mono(&self, color: Color) -> Option<bool> {
        self.last_move_mono[color]
    }

    /// The colour on field `(x, y)`; `None` for empty fields and fields off
    /// the board.
    pub fn color_at(&self, x: i32, y: i32) -> Option<Color> {
        Color::ALL
            .into_iter()
            .find(|&c| self.pieces[c].contains(x, y))
    }

    /// The fields of `color`.
    #[inline]
    pub fn fields(&self, color: Color) -> &Board {
        &self.pieces[color]
    }

    /// The fields of all colours.
    #[inline]
    pub fn occupied(&self) -> &Board {
        &self.occupied
    }

    /// Whether `color` has not placed a piece yet.
    #[inline]
    pub fn is_first_move(&self, color: Color) -> bool {
        self.remaining[color] == PieceSet::ALL
    }

    /// Whether the game is over (see the type's documentation).
    pub fn is_over(&self) -> bool {
        self.valid_colors.is_empty()
            || self.turn >= 4 * ROUND_LIMIT
            || self
                .finish_round
                .is_some_and(|round| self.turn >= 4 * round)
    }

    /// Checks `mv` against the rules, in the official order of
    /// `blokus-2021.md` §8.2; the first failing check names the mistake.
    /// The cells of a piece are visited in the official server's order
    /// (Appendix B), so that a piece with several defective cells (one off
    /// the board, another obstructed) is reported with the same mistake.
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
                return if self.is_first_move(*color) {
                    Err(Mistake::SkipFirstTurn)
                } else {
                    Ok(())
                };
            }
            Move::Set(placement) => placement,
        };
        let color = placement.color;
        let first = self.is_first_move(color);
        if first {
            if placement.kind != self.start_piece {
                return Err(Mistake::WrongShape);
            }
        } else if !self.remaining[color].contains(placement.kind) {
            return Err(Mistake::DuplicateShape);
        }
        let on_board = Board::FULL;
        let mut touches_anchor = false;
        let anchors = if first {
            &Board::CORNERS
        } else {
            &self.corners[color]
        };
        for (x, y) in checking_order(placement) {
            if !on_board.contains(x, y) {
                return Err(Mistake::OutOfBounds);
            }
            if self.occupied.contains(x, y) {
                return Err(Mistake::Obstructed);
            }
            if self.edges[color].contains(x, y) {
                return Err(Mistake::TouchesSameColor);
            }
            touches_anchor |= anchors.contains(x, y);
        }
        match (touches_anchor, first) {
            (true, _) => Ok(()),
            (false, true) => Err(Mistake::NotInCorner),
            (false, false) => Err(Mistake::NoSharedCorner),
        }
    }

    /// Plays `mv` if it is legal, then advances the turn (removing colours
    /// that cannot move when their turn comes).
    ///
    /// # Errors
    ///
    /// The [`Mistake`] of [`Blokus::is_legal`]; the state is then unchanged.
    pub fn play(&mut self, mv: &Move) -> Result<(), Mistake> {
        self.is_legal(mv)?;
        self.play_unchecked(mv);
        Ok(())
    }

    /// Plays `mv` without checking it: the fast path for search and bots
    /// that play moves from [`Blokus::legal_moves`] (or a legal skip).
    ///
    /// # Panics
    ///
    /// May panic, or leave an inconsistent state, if `mv` is not legal.
    pub fn play_unchecked(&mut self, mv: &Move) {
        if let Move::Set(placement) = mv {
            let color = placement.color;
            let kind = placement.kind;
            let shape = SHAPES.shape(SHAPES.shape_index(
                kind.index(),
                placement.rotation,
                placement.flipped,
            ));
            let piece = piece_board(shape, placement.x as usize, placement.y as usize);
            self.pieces[color] |= piece;
            self.occupied |= piece;
            self.edges[color] |= piece.edge_neighbours();
            self.corners[color] |= piece.diagonal_neighbours();
            self.remaining[color].remove(kind);
            if self.remaining[color].is_empty() {
                self.last_move_mono[color] = Some(kind == PieceKind::Mono);
                self.finish_round.get_or_insert(self.round());
            }
        }
        self.last_move = Some(*mv);
        self.next_turn();
        self.drop_stuck_colors();
    }

    /// Advances to the next colour still in the game (§8.3 step 2).
    fn next_turn(&mut self) {
        if self.valid_colors.is_empty() {
            return;
        }
        self.turn += 1;
        while !self.valid_colors.contains(self.current_color()) {
            self.turn += 1;
        }
    }

    /// Removes the colours on turn that cannot place anything (§8.3 step 4).
    fn drop_stuck_colors(&mut self) {
        while !self.valid_colors.is_empty() && !self.has_legal_move(self.current_color()) {
            self.valid_colors.remove(self.current_color());
            self.next_turn();
        }
    }

    /// The masks of the fields `color` may cover and of its anchors.
    #[inline]
    fn placement_masks(&self, color: Color) -> PlacementMasks<BOARD_SIZE> {
        let free = !(self.occupied | self.edges[color]);
        let anchors = if self.is_first_move(color) {
            &Board::CORNERS
        } else {
            &self.corners[color]
        };
        PlacementMasks::new(&free, anchors)
    }

    /// The kinds `color` may place now: only the start piece at first.
    #[inline]
    fn placeable_kinds(&self, color: Color) -> PieceSet {
        if self.is_first_move(color) {
            [self.start_piece].into_iter().collect()
        } else {
            self.remaining[color]
        }
    }

    /// Calls `f(shape index, top row, columns)` for every run of legal
    /// placements of `color`: the shape fits with its top-left corner at
    /// `(x, row)` for every bit `x` of `columns`.
    #[inline]
    fn for_each_fit(&self, color: Color, mut f: impl FnMut(usize, usize, u32)) {
        let masks = self.placement_masks(color);
        if !masks.has_anchor() {
            return;
        }
        let runs = RunMasks::new(&masks);
        for kind in self.placeable_kinds(color).iter() {
            for index in SHAPES.shapes_of(kind.index()) {
                let (columns, mut rows) = runs.fits_by_row(SHAPES.shape(index));
                while rows != 0 {
                    let y = rows.trailing_zeros() as usize;
                    rows &= rows - 1;
                    f(index, y, columns[y]);
                }
            }
        }
    }

    /// Whether `color` could place a piece now (whether or not it is on
    /// turn): a free corner for the start piece before its first move,
    /// otherwise some remaining kind anywhere.
    pub fn has_legal_move(&self, color: Color) -> bool {
        let masks = self.placement_masks(color);
        // Kinds come smallest first; a small piece is the likeliest to fit,
        // and asking row by row stops at the first fit.
        masks.has_anchor()
            && self.placeable_kinds(color).iter().any(|kind| {
                SHAPES
                    .shapes_of(kind.index())
                    .any(|index| masks.fits_anywhere(SHAPES.shape(index)))
            })
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
        self.for_each_fit(color, |shape, y, columns| moves.push_run(shape, y, columns));
    }

    /// The number of placements [`Blokus::legal_moves`] would list.
    pub fn count_legal_moves(&self) -> usize {
        if self.is_over() {
            return 0;
        }
        let mut count = 0;
        self.for_each_fit(self.current_color(), |_, _, columns| {
            count += columns.count_ones() as usize;
        });
        count
    }

    /// Whether the colour on turn may skip now (not before its first piece).
    pub fn can_skip(&self) -> bool {
        !self.is_over() && !self.is_first_move(self.current_color())
    }

    /// The points of `color` (`blokus-2021.md` §9.1): the cells it has
    /// placed, or 104 when it has placed all pieces, 109 if `MONO` was last.
    pub fn color_points(&self, color: Color) -> u32 {
        let remaining = self.remaining[color];
        if remaining.is_empty() {
            let mono = self.last_move_mono[color] == Some(true);
            ALL_CELLS + ALL_PLACED_BONUS + if mono { MONO_LAST_BONUS } else { 0 }
        } else {
            ALL_CELLS - remaining.cells()
        }
    }

    /// The points of `team`: the sum of its two colours.
    pub fn team_points(&self, team: Team) -> u32 {
        team.colors().iter().map(|&c| self.color_points(c)).sum()
    }
}

/// The fields a fixed shape covers with its top-left corner at `(x, y)`.
#[inline]
fn piece_board(shape: &FixedShape, x: usize, y: usize) -> Board {
    let mut rows = [0; BOARD_SIZE];
    for (dy, &mask) in shape.rows[..shape.height as usize].iter().enumerate() {
        rows[y + dy] = mask << x;
    }
    Board::from_rows(rows)
}

impl fmt::Debug for Blokus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Blokus")
            .field("start_piece", &self.start_piece)
            .field("turn", &self.turn)
            .field("remaining", &self.remaining)
            .field("valid_colors", &self.valid_colors)
            .field("last_move", &self.last_move)
            .field("last_move_mono", &self.last_move_mono)
            .field("finish_round", &self.finish_round)
            .finish_non_exhaustive()?;
        write!(f, "{self}")
    }
}

impl fmt::Display for Blokus {
    /// Draws the board, one line per row: `B`, `Y`, `R`, `G` for the
    /// colours, `.` for empty fields.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for y in 0..BOARD_SIZE as i32 {
            f.write_str("\n")?;
            for x in 0..BOARD_SIZE as i32 {
                f.write_str(match self.color_at(x, y) {
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
}

/// A legal placement for the colour on turn, from the fitting runs.
pub(super) fn placement(color: Color, shape: usize, x: usize, y: usize) -> Placement {
    let fixed = SHAPES.shape(shape);
    Placement {
        color,
        kind: PieceKind::ALL[fixed.kind as usize],
        rotation: fixed.rotation,
        flipped: fixed.flipped,
        x: x as i32,
        y: y as i32,
    }
}
