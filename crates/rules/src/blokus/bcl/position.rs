//! [`Bcl`]: a validated game of the 10×10 BLOKUS Champions League, with its
//! `place_to` moves ([`PlaceTo`]), mistakes ([`BclMistake`]) and move list
//! ([`BclMoveList`]), on the engine with [`BclRules`].

use core::fmt;

use super::pieces::{
    BCL_SHAPES, BclFlip, BclKind, BclRotation, KIND_COUNT, SHAPE_COUNT, bcl_label, label,
};
use crate::{
    blokus::{
        engine::{Engine, Fault, Parts, Stock},
        movelist::{RunIter, Runs},
        perft::Perft,
        variant::{BCL_SIDE, BclRules},
    },
    game::PlayerSet,
    polyomino::{Bitboard, MAX_CELLS, Shape},
    team::Team,
};

/// The side of the board.
pub const BCL_BOARD_SIZE: usize = BCL_SIDE;

/// A set of fields of the 10×10 board: bit `col` of row `row`.
pub type BclBoard = Bitboard<BCL_SIDE>;

/// One of the two players (a [`Team`]); each plays one colour. ONE moves
/// first.
pub type BclPlayer = Team;

/// What a team is in the BCL game: where its first block goes.
impl Team {
    /// The field `(row, col)` the player's first block covers: ONE at
    /// (0,0), TWO at (9,9).
    pub const fn start_corner(self) -> (i32, i32) {
        const LAST: i32 = BCL_SIDE as i32 - 1;
        match self {
            Team::One => (0, 0),
            Team::Two => (LAST, LAST),
        }
    }
}

/// The seed's `place_to`: a block kind, turned clockwise, then flipped, put
/// with the bottom-left cell of its bounding box on `(row, col)`; (0,0) is
/// the top-left field. Coordinates may lie off the board (the move is then
/// [`BclMistake::OutOfStage`]).
///
/// `==` compares the labels; several labels give the same cells (a SQUARE
/// in any orientation), see [`PlaceTo::same_cells`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PlaceTo {
    /// The player placing the block.
    pub player: BclPlayer,
    /// The block kind.
    pub kind: BclKind,
    /// The clockwise rotation, applied first.
    pub rotation: BclRotation,
    /// The flip, applied after the rotation.
    pub flip: BclFlip,
    /// The row of the bounding box's bottom-left cell.
    pub row: i32,
    /// The column of the bounding box's bottom-left cell.
    pub col: i32,
}

impl PlaceTo {
    /// The fields `(row, col)` the block covers, row by row, left to right.
    /// Coordinates saturate at the `i32` limits, which keeps such fields
    /// off the board.
    pub fn cells(&self) -> impl Iterator<Item = (i32, i32)> + use<> {
        let shape = self.kind.shape(self.rotation, self.flip);
        let (_, height) = shape.extent();
        let top = self.row.saturating_sub(i32::from(height) - 1);
        let left = self.col;
        (0..shape.len()).map(move |i| {
            let (dx, dy) = shape.cells()[i];
            (
                top.saturating_add(i32::from(dy)),
                left.saturating_add(i32::from(dx)),
            )
        })
    }

    /// Whether both placements put the same player's block of the same
    /// kind on the same fields.
    pub fn same_cells(&self, other: &PlaceTo) -> bool {
        self.player == other.player && self.kind == other.kind && self.cells().eq(other.cells())
    }

    /// The placement of `player` covering exactly the fields `(row, col)`
    /// (in any order), with its shape's canonical label (the one move
    /// generation gives it); `None` if the fields are no block's shape.
    pub fn from_cells(player: BclPlayer, cells: &[(i32, i32)]) -> Option<PlaceTo> {
        // (row, col) to (x, y).
        let mut fields = [(0, 0); MAX_CELLS];
        let fields = fields.get_mut(..cells.len())?;
        for (to, &(row, col)) in fields.iter_mut().zip(cells) {
            *to = (col, row);
        }
        let (shape, left, top) = Shape::of_cells(fields)?;
        let index = BCL_SHAPES.find(&shape)?;
        Some(place_to(player, index, left, top))
    }
}

/// A move of the BCL game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BclMove {
    /// Place a block.
    Place(PlaceTo),
    /// Pass: only when the player cannot place (the rules do it by
    /// themselves; never asked of a player).
    Pass(BclPlayer),
}

impl BclMove {
    /// The player the move is for.
    pub fn player(&self) -> BclPlayer {
        match self {
            BclMove::Place(p) => p.player,
            BclMove::Pass(player) => *player,
        }
    }
}

/// Why a BCL move is illegal. The cell checks go block-wide in this order:
/// off the board, on an occupied field, then the corner rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BclMistake {
    /// The move is for the player not on turn (or the game is over).
    NotYourTurn,
    /// The player has no block of this kind left.
    BlockUsed,
    /// A field of the block lies off the board (the seed's `OUT_OF_STAGE`).
    OutOfStage,
    /// A field of the block is occupied (the seed's `OVERLAP`).
    Overlap,
    /// Corner rule: the first block does not cover the player's start
    /// corner.
    NotOnStartCorner,
    /// Corner rule: the block shares an edge with the player's own blocks.
    EdgeContact,
    /// Corner rule: the block touches none of the player's own blocks at a
    /// corner.
    NoCornerContact,
    /// A pass although the player can place a block.
    PassWhilePlacementExists,
}

impl BclMistake {
    /// The mistake's code: `OUT_OF_STAGE` and `OVERLAP` as the seed names
    /// them, the others in the same style.
    pub const fn name(self) -> &'static str {
        match self {
            BclMistake::NotYourTurn => "NOT_YOUR_TURN",
            BclMistake::BlockUsed => "BLOCK_USED",
            BclMistake::OutOfStage => "OUT_OF_STAGE",
            BclMistake::Overlap => "OVERLAP",
            BclMistake::NotOnStartCorner => "NOT_ON_START_CORNER",
            BclMistake::EdgeContact => "EDGE_CONTACT",
            BclMistake::NoCornerContact => "NO_CORNER_CONTACT",
            BclMistake::PassWhilePlacementExists => "PASS_WHILE_PLACEMENT_EXISTS",
        }
    }

    /// Whether the mistake breaks the corner rule (start corner, no edge
    /// with the own blocks, a corner contact).
    pub const fn breaks_corner_rule(self) -> bool {
        matches!(
            self,
            BclMistake::NotOnStartCorner | BclMistake::EdgeContact | BclMistake::NoCornerContact
        )
    }
}

impl fmt::Display for BclMistake {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            BclMistake::NotYourTurn => "it is not this player's turn",
            BclMistake::BlockUsed => "the player has no block of this kind left",
            BclMistake::OutOfStage => "the block does not fit on the board",
            BclMistake::Overlap => "the block would cover an occupied field",
            BclMistake::NotOnStartCorner => "a player's first block must cover its start corner",
            BclMistake::EdgeContact => "the block shares an edge with the player's own blocks",
            BclMistake::NoCornerContact => {
                "the block must touch the player's own blocks at a corner"
            }
            BclMistake::PassWhilePlacementExists => "there is no pass while a block can be placed",
        })
    }
}

impl core::error::Error for BclMistake {}

/// Why a player is out of the game (the seed's terms).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OutReason {
    /// All its blocks are placed (`OUT_OF_BLOCK`).
    OutOfBlock,
    /// Blocks are left but none fits (`OUT_OF_SPACE`).
    OutOfSpace,
}

impl OutReason {
    /// The seed's code.
    pub const fn name(self) -> &'static str {
        match self {
            OutReason::OutOfBlock => "OUT_OF_BLOCK",
            OutReason::OutOfSpace => "OUT_OF_SPACE",
        }
    }
}

/// A BCL position as plain data, the form in which positions cross the
/// crate boundary (to the wire and back). Not necessarily consistent;
/// [`Bcl::from_setup`] validates it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct BclSetup {
    /// Player turns elapsed, including those of a skipped player. The
    /// player on turn is ONE on even turns.
    pub turn: u32,
    /// The blocks each player has left, indexed `[player][kind]` (0, 1 or
    /// 2).
    pub remaining: [[u8; KIND_COUNT]; 2],
    /// Whether each player is still in the game.
    pub in_game: [bool; 2],
    /// The board, indexed `board[row][col]`; (0,0) is the top-left field.
    pub board: [[Option<BclPlayer>; BCL_SIDE]; BCL_SIDE],
    /// The last applied move; `None` before the first.
    pub last_move: Option<BclMove>,
}

impl BclSetup {
    /// The initial position: turn 0, all blocks in hand, both players in
    /// the game, an empty board.
    pub fn new() -> BclSetup {
        BclSetup {
            turn: 0,
            remaining: [BclKind::ALL.map(|k| k.count() as u8); 2],
            in_game: [true; 2],
            board: [[None; BCL_SIDE]; BCL_SIDE],
            last_move: None,
        }
    }
}

impl Default for BclSetup {
    fn default() -> Self {
        BclSetup::new()
    }
}

/// Why a [`BclSetup`] is not a consistent BCL position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BclSetupError {
    /// A player holds more blocks of a kind than the set has.
    TooManyBlocks {
        /// The player.
        player: BclPlayer,
        /// The kind.
        kind: BclKind,
    },
    /// The number of fields of a player differs from the cells of the
    /// blocks it has placed.
    CellCount {
        /// The player.
        player: BclPlayer,
        /// Its fields on the board.
        on_board: u32,
        /// The cells of its placed blocks.
        placed: u32,
    },
    /// A player has placed blocks but does not cover its start corner.
    NotOnStartCorner(BclPlayer),
    /// The player on turn is out of the game although the other is in.
    PlayerOnTurnOut(BclPlayer),
    /// The last move's block is not on the board.
    LastMoveNotOnBoard,
}

impl fmt::Display for BclSetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BclSetupError::TooManyBlocks { player, kind } => {
                write!(f, "{player} holds more {kind} blocks than the set has")
            }
            BclSetupError::CellCount {
                player,
                on_board,
                placed,
            } => write!(
                f,
                "{player} has {on_board} fields on the board but its placed blocks have {placed} cells"
            ),
            BclSetupError::NotOnStartCorner(player) => {
                write!(
                    f,
                    "{player} has placed blocks but does not cover its start corner"
                )
            }
            BclSetupError::PlayerOnTurnOut(player) => {
                write!(f, "{player} is on turn but out of the game")
            }
            BclSetupError::LastMoveNotOnBoard => {
                f.write_str("the last move's block is not on the board")
            }
        }
    }
}

impl core::error::Error for BclSetupError {}

/// A BLOKUS Champions League game in progress (or over): always a
/// consistent position, and whenever the game is not over the player on
/// turn can place a block.
///
/// ONE moves first; then the players alternate, except that a player who
/// cannot place passes (is skipped, never asked) until the game ends when
/// neither can place. More cells wins; equal cells is a draw.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Bcl {
    engine: Engine<BclRules, BCL_SIDE>,
    last_move: Option<BclMove>,
}

impl Default for Bcl {
    fn default() -> Self {
        Bcl::new()
    }
}

impl Bcl {
    /// A new game: empty board, both players with all 12 blocks, ONE to
    /// move.
    pub fn new() -> Bcl {
        Bcl {
            engine: Engine::new(0),
            last_move: None,
        }
    }

    /// Validates a position given as plain data. If the game is not over
    /// and the player on turn cannot place, it is skipped as after a move
    /// (so `to_setup` may differ from `setup`).
    ///
    /// # Errors
    ///
    /// [`BclSetupError`] names the first inconsistency found.
    pub fn from_setup(setup: &BclSetup) -> Result<Bcl, BclSetupError> {
        let mut pieces = [BclBoard::EMPTY; 4];
        for (row, fields) in setup.board.iter().enumerate() {
            for (col, field) in fields.iter().enumerate() {
                if let Some(player) = field {
                    pieces[player.index()].insert(col, row);
                }
            }
        }
        let mut stock = [Stock::default(); 4];
        for player in BclPlayer::ALL {
            let held = setup.remaining[player.index()];
            let (mut kinds, mut doubles, mut placed) = (0u32, 0u32, 0u32);
            for (kind, &held) in BclKind::ALL.iter().zip(&held) {
                let (held, full) = (u32::from(held), kind.count());
                let Some(used) = full.checked_sub(held) else {
                    return Err(BclSetupError::TooManyBlocks {
                        player,
                        kind: *kind,
                    });
                };
                let bit = 1 << kind.index();
                if held > 0 {
                    kinds |= bit;
                }
                if held > 1 {
                    doubles |= bit;
                }
                placed += used * kind.size();
            }
            let on_board = pieces[player.index()].count();
            if on_board != placed {
                return Err(BclSetupError::CellCount {
                    player,
                    on_board,
                    placed,
                });
            }
            let (row, col) = player.start_corner();
            if placed > 0 && !pieces[player.index()].contains(col, row) {
                return Err(BclSetupError::NotOnStartCorner(player));
            }
            stock[player.index()] = Stock::from_masks(kinds, doubles);
        }
        let current = BclPlayer::ALL[setup.turn as usize % 2];
        if setup.in_game.contains(&true) && !setup.in_game[current.index()] {
            return Err(BclSetupError::PlayerOnTurnOut(current));
        }
        if let Some(BclMove::Place(place)) = setup.last_move {
            let fields = &pieces[place.player.index()];
            if !place.cells().all(|(row, col)| fields.contains(col, row)) {
                return Err(BclSetupError::LastMoveNotOnBoard);
            }
        }
        let valid = setup
            .in_game
            .iter()
            .enumerate()
            .fold(0, |bits, (index, &in_game)| {
                bits | u8::from(in_game) << index
            });
        Ok(Bcl {
            engine: Engine::from_parts(&Parts {
                turn: setup.turn,
                start_kind: 0,
                pieces,
                stock,
                valid,
                mono_last: [None; 4],
                finish_round: None,
            }),
            last_move: setup.last_move,
        })
    }

    /// The position as plain data.
    pub fn to_setup(&self) -> BclSetup {
        let mut setup = BclSetup::new();
        setup.turn = self.turn();
        for player in BclPlayer::ALL {
            for kind in BclKind::ALL {
                setup.remaining[player.index()][kind.index()] = self.remaining(player, kind) as u8;
            }
            setup.in_game[player.index()] = self.in_game(player);
            for (col, row) in self.fields(player).iter() {
                setup.board[row][col] = Some(player);
            }
        }
        setup.last_move = self.last_move;
        setup
    }

    /// Player turns elapsed, including those of a player who was skipped.
    #[inline]
    pub fn turn(&self) -> u32 {
        self.engine.turn()
    }

    /// The player whose turn number it is (`ONE` on even turns).
    #[inline]
    pub fn current_player(&self) -> BclPlayer {
        BclPlayer::ALL[self.engine.current_color()]
    }

    /// The seat whose move it is; `None` iff the game is over.
    pub fn player_to_move(&self) -> Option<usize> {
        (!self.is_over()).then(|| self.current_player().index())
    }

    /// Whether the game is over: neither player can place.
    pub fn is_over(&self) -> bool {
        self.engine.is_over()
    }

    /// Whether `player` is still in the game (a player who cannot place is
    /// out once its turn comes).
    pub fn in_game(&self, player: BclPlayer) -> bool {
        self.engine.valid_colors() >> player.index() & 1 != 0
    }

    /// Why `player` is out of the game; `None` while it is in.
    pub fn out_reason(&self, player: BclPlayer) -> Option<OutReason> {
        if self.in_game(player) {
            None
        } else if self.engine.stock(player.index()).is_empty() {
            Some(OutReason::OutOfBlock)
        } else {
            Some(OutReason::OutOfSpace)
        }
    }

    /// How many blocks of `kind` `player` has left (0, 1 or 2).
    pub fn remaining(&self, player: BclPlayer, kind: BclKind) -> u32 {
        let stock = self.engine.stock(player.index());
        let bit = 1 << kind.index();
        u32::from(stock.kinds() & bit != 0) + u32::from(stock.doubles() & bit != 0)
    }

    /// The blocks `player` has left, in kind order, a kind held twice
    /// twice.
    pub fn remaining_blocks(&self, player: BclPlayer) -> impl Iterator<Item = BclKind> + '_ {
        BclKind::ALL
            .into_iter()
            .flat_map(move |kind| core::iter::repeat_n(kind, self.remaining(player, kind) as usize))
    }

    /// Whether `player` has not placed a block yet.
    pub fn is_first_move(&self, player: BclPlayer) -> bool {
        self.engine.is_first_move(player.index())
    }

    /// The player on field `(row, col)`; `None` for empty fields and fields
    /// off the board.
    pub fn player_at(&self, row: i32, col: i32) -> Option<BclPlayer> {
        self.engine.color_at(col, row).map(|c| BclPlayer::ALL[c])
    }

    /// The fields of `player`.
    pub fn fields(&self, player: BclPlayer) -> &BclBoard {
        self.engine.fields(player.index())
    }

    /// The last applied move; `None` before the first.
    pub fn last_move(&self) -> Option<BclMove> {
        self.last_move
    }

    /// Checks `mv` against the rules: player on turn, a block of the kind
    /// left, then block-wide: off the board (`OUT_OF_STAGE`), on an
    /// occupied field (`OVERLAP`), the corner rule. A pass is a mistake for
    /// the player on turn, who can always place.
    ///
    /// # Errors
    ///
    /// The [`BclMistake`]; after the game is over every move is
    /// [`BclMistake::NotYourTurn`].
    pub fn is_legal(&self, mv: &BclMove) -> Result<(), BclMistake> {
        if self.is_over() || mv.player() != self.current_player() {
            return Err(BclMistake::NotYourTurn);
        }
        let place = match mv {
            BclMove::Pass(_) => return Err(BclMistake::PassWhilePlacementExists),
            BclMove::Place(place) => place,
        };
        let player = place.player.index();
        if !self.engine.may_place_kind(player, place.kind.index()) {
            return Err(BclMistake::BlockUsed);
        }
        // (row, col) to the engine's (x, y).
        let cells = || place.cells().map(|(row, col)| (col, row));
        if cells().any(|(x, y)| !BclBoard::FULL.contains(x, y)) {
            return Err(BclMistake::OutOfStage);
        }
        if cells().any(|(x, y)| self.engine.occupied().contains(x, y)) {
            return Err(BclMistake::Overlap);
        }
        let first = self.engine.is_first_move(player);
        self.engine
            .check_cells(player, cells())
            .map_err(|fault| match fault {
                Fault::OffBoard => BclMistake::OutOfStage,
                Fault::Occupied => BclMistake::Overlap,
                Fault::EdgeContact => BclMistake::EdgeContact,
                Fault::NoAnchor if first => BclMistake::NotOnStartCorner,
                Fault::NoAnchor => BclMistake::NoCornerContact,
            })
    }

    /// Plays `mv` if it is legal, then advances the turn (skipping a
    /// player who cannot place).
    ///
    /// # Errors
    ///
    /// The [`BclMistake`] of [`Bcl::is_legal`]; the state is then
    /// unchanged.
    pub fn play(&mut self, mv: &BclMove) -> Result<(), BclMistake> {
        self.is_legal(mv)?;
        self.play_unchecked(mv);
        Ok(())
    }

    /// Plays a move of a game record: as [`Bcl::play`], except that a pass
    /// of a player no longer in the game is accepted and changes nothing
    /// (the rules skipped that player already).
    ///
    /// # Errors
    ///
    /// As [`Bcl::play`].
    pub fn play_recorded(&mut self, mv: &BclMove) -> Result<(), BclMistake> {
        match mv {
            BclMove::Pass(player) if !self.in_game(*player) => Ok(()),
            _ => self.play(mv),
        }
    }

    /// Plays a legal placement without checking it: the fast path for
    /// search and bots that play moves from [`Bcl::legal_moves`].
    ///
    /// # Panics
    ///
    /// May panic, or leave an inconsistent state, if `mv` is not a legal
    /// placement.
    pub fn play_unchecked(&mut self, mv: &BclMove) {
        if let BclMove::Place(place) = mv {
            let (rotation, flipped) = label(place.rotation, place.flip);
            let shape = BCL_SHAPES.shape_index(place.kind.index(), rotation, flipped);
            let height = i32::from(BCL_SHAPES.shape(shape).height);
            let top = place.row - (height - 1);
            self.engine.place(shape, place.col as usize, top as usize);
            self.last_move = Some(*mv);
        }
    }

    /// Whether `player` could place a block now (whether or not it is on
    /// turn).
    pub fn has_legal_move(&self, player: BclPlayer) -> bool {
        self.engine.has_legal_move(player.index())
    }

    /// Fills `moves` with the legal placements of the player on turn (none
    /// when the game is over), one per distinct (kind, fields): a second
    /// block of a kind is the same move, and of the labels giving the same
    /// fields the list carries the first in the order rotation `NONE`,
    /// `SINGLE`, `DOUBLE`, `TRIPLE` without flip, then the same with
    /// `HORIZONTAL`.
    pub fn legal_moves(&self, moves: &mut BclMoveList) {
        if self.is_over() {
            moves.player = self.current_player();
            moves.runs.clear();
            return;
        }
        self.placements_of(self.current_player(), moves);
    }

    /// Fills `moves` with the placements `player` could make if it were on
    /// turn now (for evaluation: e.g. both players' mobility).
    pub fn placements_of(&self, player: BclPlayer, moves: &mut BclMoveList) {
        moves.player = player;
        moves.runs.clear();
        self.engine
            .for_each_fit(player.index(), |shape, y, columns| {
                moves.runs.push(shape, y, columns)
            });
    }

    /// A uniformly random legal placement of the player on turn, found
    /// without listing them all (random playouts, random bots); `None` when
    /// the game is over. Every placement [`Bcl::legal_moves`] lists is
    /// equally likely.
    pub fn random_placement<R: rand_core::Rng + ?Sized>(&self, rng: &mut R) -> Option<PlaceTo> {
        let player = self.current_player();
        let (shape, x, y) = self.engine.random_placement(rng)?;
        Some(place_to(player, shape, x as i32, y as i32))
    }

    /// The number of placements [`Bcl::legal_moves`] would list.
    pub fn count_legal_moves(&self) -> usize {
        self.engine.count_legal_moves()
    }

    /// The points of `player`: the cells of its blocks on the board.
    pub fn points(&self, player: BclPlayer) -> u32 {
        self.engine.color_points(player.index())
    }

    /// The winners: the player with more cells; both on equal cells.
    pub fn winners(&self) -> PlayerSet {
        PlayerSet::best_by(BclPlayer::ALL.len(), |seat| {
            self.points(BclPlayer::ALL[seat])
        })
    }
}

impl Perft for Bcl {
    fn count_placements(&self) -> u64 {
        self.engine.count_legal_moves() as u64
    }

    fn for_each_child(&self, mut f: impl FnMut(&Self)) {
        let player = self.current_player();
        self.engine.for_each_placement(|shape, x, y| {
            let mut child = self.clone();
            child.engine.place(shape, x, y);
            child.last_move = Some(BclMove::Place(place_to(player, shape, x as i32, y as i32)));
            f(&child);
        });
    }
}

impl fmt::Debug for Bcl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Bcl")
            .field("turn", &self.turn())
            .field("in_game", &BclPlayer::ALL.map(|p| self.in_game(p)))
            .field("last_move", &self.last_move)
            .finish_non_exhaustive()?;
        write!(f, "{self}")
    }
}

impl fmt::Display for Bcl {
    /// Draws the board, one line per row from row 0: `1` and `2` for the
    /// players' blocks, `.` for empty fields.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in 0..BCL_SIDE as i32 {
            f.write_str("\n")?;
            for col in 0..BCL_SIDE as i32 {
                f.write_str(match self.player_at(row, col) {
                    Some(BclPlayer::One) => "1",
                    Some(BclPlayer::Two) => "2",
                    None => ".",
                })?;
            }
        }
        Ok(())
    }
}

/// The placement of fixed shape `shape` with its bounding box's top-left
/// corner on column `x`, row `y`, as a `place_to` with the shape's
/// canonical label.
fn place_to(player: BclPlayer, shape: usize, x: i32, y: i32) -> PlaceTo {
    let fixed = BCL_SHAPES.shape(shape);
    let (rotation, flip) = bcl_label(fixed.rotation, fixed.flipped);
    PlaceTo {
        player,
        kind: BclKind::ALL[usize::from(fixed.kind)],
        rotation,
        flip,
        row: y.saturating_add(i32::from(fixed.height) - 1),
        col: x,
    }
}

/// At most one run per (fixed shape, top row).
const MAX_RUNS: usize = SHAPE_COUNT * BCL_SIDE;

/// The legal placements of a BCL position, filled by [`Bcl::legal_moves`];
/// stored as runs like [`MoveList`](crate::blokus::MoveList), never
/// allocating.
#[derive(Clone)]
pub struct BclMoveList {
    player: BclPlayer,
    runs: Runs<MAX_RUNS>,
}

impl BclMoveList {
    /// An empty list.
    pub fn new() -> BclMoveList {
        BclMoveList {
            player: BclPlayer::One,
            runs: Runs::new(),
        }
    }

    /// The number of placements.
    pub fn len(&self) -> usize {
        self.runs.len()
    }

    /// Whether there is no placement.
    pub fn is_empty(&self) -> bool {
        self.runs.len() == 0
    }

    /// The player the placements are for.
    pub fn player(&self) -> BclPlayer {
        self.player
    }

    /// The placement at `index` in list order.
    pub fn get(&self, index: usize) -> Option<PlaceTo> {
        let (shape, x, y) = self.runs.get(index)?;
        Some(place_to(self.player, shape, x as i32, y as i32))
    }

    /// The placements in list order: by kind, then fixed shape, then row by
    /// row and left to right.
    pub fn iter(&self) -> BclMoveListIter<'_> {
        BclMoveListIter {
            player: self.player,
            runs: self.runs.iter(),
        }
    }
}

impl Default for BclMoveList {
    fn default() -> Self {
        BclMoveList::new()
    }
}

impl fmt::Debug for BclMoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<'a> IntoIterator for &'a BclMoveList {
    type Item = PlaceTo;
    type IntoIter = BclMoveListIter<'a>;

    fn into_iter(self) -> BclMoveListIter<'a> {
        self.iter()
    }
}

/// The placements of a [`BclMoveList`], in list order.
#[derive(Clone, Debug)]
pub struct BclMoveListIter<'a> {
    player: BclPlayer,
    runs: RunIter<'a>,
}

impl Iterator for BclMoveListIter<'_> {
    type Item = PlaceTo;

    fn next(&mut self) -> Option<PlaceTo> {
        let (shape, x, y) = self.runs.next()?;
        Some(place_to(self.player, shape, x as i32, y as i32))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.runs.size_hint()
    }
}

impl ExactSizeIterator for BclMoveListIter<'_> {}

impl core::iter::FusedIterator for BclMoveListIter<'_> {}

/// The kinds of the table are the ten kinds.
const _: () = assert!(KIND_COUNT == BclKind::ALL.len());
