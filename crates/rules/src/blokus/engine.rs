//! [`Engine`]: the Blokus rules of every variant in one generic state —
//! bitboards per colour, the pieces in hand, the turn, the colours still in
//! the game — with placement checks, move application, turn order, move
//! generation, game end and points. A [`Variant`] fixes board size, colours,
//! piece set, start, pass and end rules and scoring at compile time.
//!
//! The engine knows colours and piece kinds by index and placements as
//! (fixed shape, top-left corner); each variant's public game type speaks
//! its own move and mistake types and maps colours to players.

use core::marker::PhantomData;

use super::variant::{EndRule, PassRule, Scoring, StartRule, Variant};
use crate::polyomino::{Bitboard, FixedShape, PlacementMasks, RunMasks, Shapes};

/// Points for placing every piece, on top of the cells.
const ALL_PLACED_BONUS: u32 = 15;
/// Extra points when the last piece placed was the one-cell piece.
const MONO_LAST_BONUS: u32 = 5;

/// The pieces a colour holds: bit `k` of `kinds` is set iff it holds at
/// least one piece of kind `k`, of `doubles` iff it holds two.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct Stock {
    kinds: u32,
    doubles: u32,
}

impl Stock {
    /// A whole set of `kinds` kinds, those of `doubles` twice.
    pub(crate) const fn full(kinds: usize, doubles: u32) -> Stock {
        Stock {
            kinds: (1 << kinds) - 1,
            doubles,
        }
    }

    /// The stock from its two masks (`doubles` a subset of `kinds`).
    pub(crate) const fn from_masks(kinds: u32, doubles: u32) -> Stock {
        Stock {
            kinds,
            doubles: doubles & kinds,
        }
    }

    /// Bit `k` set iff at least one piece of kind `k` is left.
    #[inline]
    pub(crate) const fn kinds(self) -> u32 {
        self.kinds
    }

    /// Bit `k` set iff two pieces of kind `k` are left.
    #[inline]
    pub(crate) const fn doubles(self) -> u32 {
        self.doubles
    }

    /// Whether no piece is left.
    #[inline]
    pub(crate) const fn is_empty(self) -> bool {
        self.kinds == 0
    }

    /// The number of pieces left.
    #[inline]
    pub(crate) const fn count(self) -> u32 {
        self.kinds.count_ones() + self.doubles.count_ones()
    }

    /// Takes one piece of kind `kind`, which must be left. `HAS_DOUBLES`
    /// false (a set without doubles) lets the compiler drop the second
    /// mask.
    #[inline]
    fn take<const HAS_DOUBLES: bool>(&mut self, kind: usize) {
        let bit = 1 << kind;
        if HAS_DOUBLES && self.doubles & bit != 0 {
            self.doubles &= !bit;
        } else {
            self.kinds &= !bit;
        }
    }
}

/// Why a placement's cells break the rules, in checking order: the first
/// three are reported for the first defective cell, the last after all
/// cells passed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Fault {
    /// A cell lies off the board.
    OffBoard,
    /// A cell is occupied.
    Occupied,
    /// A cell shares an edge with the colour's own pieces.
    EdgeContact,
    /// No cell covers an anchor: a start field before the first piece,
    /// else a field diagonal to the colour's own pieces.
    NoAnchor,
}

/// A position of a Blokus variant as plain parts, for building an
/// [`Engine`] from data the caller has validated.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Parts<const N: usize> {
    pub turn: u32,
    pub start_kind: usize,
    pub pieces: [Bitboard<N>; 4],
    pub stock: [Stock; 4],
    pub valid: u8,
    pub mono_last: [Option<bool>; 4],
    pub finish_round: Option<u32>,
}

/// A Blokus position of variant `V` on an `N`×`N` board: always consistent,
/// and whenever the game is not over the colour on turn can place a piece
/// (colours that cannot are removed when their turn comes, their turn
/// number consumed: `blokus-2021.md` §8.3, the same in every variant).
#[derive(Clone, PartialEq, Eq, Hash)]
pub(crate) struct Engine<V, const N: usize> {
    turn: u32,
    /// The fields of each colour.
    pieces: [Bitboard<N>; 4],
    /// The fields of all colours.
    occupied: Bitboard<N>,
    /// Per colour: the fields sharing an edge with it, which its pieces may
    /// never cover.
    edges: [Bitboard<N>; 4],
    /// Per colour: the fields diagonally adjacent to it, one of which every
    /// further piece must cover.
    corners: [Bitboard<N>; 4],
    stock: [Stock; 4],
    /// The colours still in the game, bit `c` for colour `c`.
    valid: u8,
    /// The kind every colour places first ([`StartRule::SharedStartPiece`]).
    start_kind: u8,
    /// For a colour that has placed everything: whether its last piece had
    /// one cell.
    mono_last: [Option<bool>; 4],
    /// The round in which the first colour placed its last piece
    /// ([`EndRule::TurnLimitOrFinishedRound`]).
    finish_round: Option<u32>,
    variant: PhantomData<V>,
}

impl<V: Variant<N>, const N: usize> Engine<V, N> {
    /// The colours of the variant, as bits.
    const ALL_COLORS: u8 = (1 << V::COLORS) - 1;

    /// A whole piece set of the variant.
    pub(crate) const FULL_STOCK: Stock = Stock::full(V::Table::KINDS, V::DOUBLES);

    /// The initial position: empty board, every colour with its whole set,
    /// the first colour on turn (or later ones, if it cannot move).
    /// `start_kind` is the shared start piece where the variant has one.
    pub(crate) fn new(start_kind: usize) -> Self {
        let mut stock = [Stock::default(); 4];
        stock[..V::COLORS].fill(Self::FULL_STOCK);
        let mut engine = Engine {
            turn: 0,
            pieces: [Bitboard::EMPTY; 4],
            occupied: Bitboard::EMPTY,
            edges: [Bitboard::EMPTY; 4],
            corners: [Bitboard::EMPTY; 4],
            stock,
            valid: Self::ALL_COLORS,
            start_kind: start_kind as u8,
            mono_last: [None; 4],
            finish_round: None,
            variant: PhantomData,
        };
        engine.drop_stuck_colors();
        engine
    }

    /// The position of `parts`; if the game is not over and the colour on
    /// turn cannot move, it is removed as after a move.
    pub(crate) fn from_parts(parts: &Parts<N>) -> Self {
        let pieces = parts.pieces;
        let mut engine = Engine {
            turn: parts.turn,
            pieces,
            occupied: pieces.iter().fold(Bitboard::EMPTY, |all, &p| all | p),
            edges: pieces.map(|p| p.edge_neighbours()),
            corners: pieces.map(|p| p.diagonal_neighbours()),
            stock: parts.stock,
            valid: parts.valid & Self::ALL_COLORS,
            start_kind: parts.start_kind as u8,
            mono_last: parts.mono_last,
            finish_round: parts.finish_round,
            variant: PhantomData,
        };
        if !engine.is_over() {
            engine.drop_stuck_colors();
        }
        engine
    }

    /// Colour turns elapsed, including those of removed colours.
    #[inline]
    pub(crate) fn turn(&self) -> u32 {
        self.turn
    }

    /// The round, `1 + turn / colours`.
    #[inline]
    pub(crate) fn round(&self) -> u32 {
        1 + self.turn / V::COLORS as u32
    }

    /// The colour whose turn number it is.
    #[inline]
    pub(crate) fn current_color(&self) -> usize {
        self.turn as usize % V::COLORS
    }

    /// The colours still in the game, bit `c` for colour `c`.
    #[inline]
    pub(crate) fn valid_colors(&self) -> u8 {
        self.valid
    }

    /// The pieces `color` holds.
    #[inline]
    pub(crate) fn stock(&self, color: usize) -> Stock {
        self.stock[color]
    }

    /// The fields of `color`.
    #[inline]
    pub(crate) fn fields(&self, color: usize) -> &Bitboard<N> {
        &self.pieces[color]
    }

    /// The fields of all colours.
    #[inline]
    pub(crate) fn occupied(&self) -> &Bitboard<N> {
        &self.occupied
    }

    /// The colour on field `(x, y)`; `None` for empty fields and fields off
    /// the board.
    pub(crate) fn color_at(&self, x: i32, y: i32) -> Option<usize> {
        (0..V::COLORS).find(|&c| self.pieces[c].contains(x, y))
    }

    /// The shared start piece's kind.
    #[inline]
    pub(crate) fn start_kind(&self) -> usize {
        self.start_kind.into()
    }

    /// For a colour that has placed everything: whether the last piece had
    /// one cell; `None` for the others.
    #[inline]
    pub(crate) fn mono_last(&self, color: usize) -> Option<bool> {
        self.mono_last[color]
    }

    /// Whether `color` has not placed a piece yet.
    #[inline]
    pub(crate) fn is_first_move(&self, color: usize) -> bool {
        // A set without doubles never has any: one mask decides.
        if V::DOUBLES == 0 {
            self.stock[color].kinds() == Self::FULL_STOCK.kinds()
        } else {
            self.stock[color] == Self::FULL_STOCK
        }
    }

    /// The number of pieces `color` has placed.
    #[inline]
    pub(crate) fn placed_pieces(&self, color: usize) -> u32 {
        Self::FULL_STOCK.count() - self.stock[color].count()
    }

    /// Whether the game is over by the variant's [`EndRule`].
    #[inline]
    pub(crate) fn is_over(&self) -> bool {
        self.valid == 0
            || match V::END {
                EndRule::NoColorLeft => false,
                EndRule::TurnLimit(limit) => self.turn >= limit,
                EndRule::TurnLimitOrFinishedRound(limit) => {
                    self.turn >= limit
                        || self
                            .finish_round
                            .is_some_and(|round| self.turn >= V::COLORS as u32 * round)
                }
            }
    }

    /// Whether `color` may pass now by the variant's [`PassRule`] (the
    /// caller checks that it is on turn).
    #[inline]
    pub(crate) fn may_pass(&self, color: usize) -> bool {
        match V::PASS {
            PassRule::AfterFirstPiece => !self.is_first_move(color),
            PassRule::Never => false,
        }
    }

    /// Whether `color` may place a piece of kind `kind` now, by its stock
    /// and the start rule.
    #[inline]
    pub(crate) fn may_place_kind(&self, color: usize, kind: usize) -> bool {
        self.placeable_kinds(color) >> kind & 1 != 0
    }

    /// Checks the cells of a placement for `color`, in the given order; the
    /// first defective cell decides ([`Fault`]).
    pub(crate) fn check_cells(
        &self,
        color: usize,
        cells: impl IntoIterator<Item = (i32, i32)>,
    ) -> Result<(), Fault> {
        let anchors = self.anchors(color);
        let mut touches_anchor = false;
        for (x, y) in cells {
            if !Bitboard::<N>::FULL.contains(x, y) {
                return Err(Fault::OffBoard);
            }
            if self.occupied.contains(x, y) {
                return Err(Fault::Occupied);
            }
            if self.edges[color].contains(x, y) {
                return Err(Fault::EdgeContact);
            }
            touches_anchor |= anchors.contains(x, y);
        }
        if touches_anchor {
            Ok(())
        } else {
            Err(Fault::NoAnchor)
        }
    }

    /// Places fixed shape `shape` with its top-left corner at `(x, y)` for
    /// the colour on turn, then advances the turn. The placement must be
    /// legal.
    #[inline]
    pub(crate) fn place(&mut self, shape: usize, x: usize, y: usize) {
        let color = self.current_color();
        let fixed = V::table().shape(shape);
        let kind = usize::from(fixed.kind);
        let piece = piece_board::<N>(fixed, x, y);
        self.pieces[color] |= piece;
        self.occupied |= piece;
        self.edges[color] |= piece.edge_neighbours();
        self.corners[color] |= piece.diagonal_neighbours();
        if V::DOUBLES == 0 {
            self.stock[color].take::<false>(kind);
        } else {
            self.stock[color].take::<true>(kind);
        }
        if self.stock[color].is_empty() {
            self.mono_last[color] = Some(fixed.shape.len() == 1);
            if let EndRule::TurnLimitOrFinishedRound(_) = V::END {
                self.finish_round.get_or_insert(self.round());
            }
        }
        self.advance();
    }

    /// Passes for the colour on turn, then advances the turn.
    #[inline]
    pub(crate) fn pass(&mut self) {
        self.advance();
    }

    /// Advances the turn after a move: to the next colour still in the
    /// game, then removes the colours on turn that cannot place
    /// (`blokus-2021.md` §8.3, `performMoveDirectly` of 27.0.4).
    #[inline]
    fn advance(&mut self) {
        self.next_turn();
        self.drop_stuck_colors();
    }

    /// Advances to the next colour still in the game.
    fn next_turn(&mut self) {
        if self.valid == 0 {
            return;
        }
        self.turn += 1;
        while self.valid >> self.current_color() & 1 == 0 {
            self.turn += 1;
        }
    }

    /// Removes the colours on turn that cannot place anything.
    fn drop_stuck_colors(&mut self) {
        while self.valid != 0 && !self.has_legal_move(self.current_color()) {
            self.valid &= !(1 << self.current_color());
            self.next_turn();
        }
    }

    /// The fields one of which the next piece of `color` must cover.
    #[inline]
    fn anchors(&self, color: usize) -> &Bitboard<N> {
        if self.is_first_move(color) {
            &V::START_FIELDS[color]
        } else {
            &self.corners[color]
        }
    }

    /// The masks of the fields `color` may cover and of its anchors.
    #[inline]
    fn placement_masks(&self, color: usize) -> PlacementMasks<N> {
        let free = !(self.occupied | self.edges[color]);
        PlacementMasks::new(&free, self.anchors(color))
    }

    /// The kinds `color` may place now, bit `k` for kind `k`.
    #[inline]
    fn placeable_kinds(&self, color: usize) -> u32 {
        match V::START {
            StartRule::SharedStartPiece if self.is_first_move(color) => 1 << self.start_kind,
            _ => self.stock[color].kinds(),
        }
    }

    /// Calls `f(shape index, top row, columns)` for every run of legal
    /// placements of `color`: the shape fits with its top-left corner at
    /// `(x, row)` for every bit `x` of `columns`.
    #[inline]
    pub(crate) fn for_each_fit(&self, color: usize, mut f: impl FnMut(usize, usize, u32)) {
        let masks = self.placement_masks(color);
        if !masks.has_anchor() {
            return;
        }
        let runs = RunMasks::new(&masks);
        let table = V::table();
        let mut kinds = self.placeable_kinds(color);
        while kinds != 0 {
            let kind = kinds.trailing_zeros() as usize;
            kinds &= kinds - 1;
            for index in table.shapes_of(kind) {
                let (columns, mut rows) = runs.fits_by_row(table.shape(index));
                while rows != 0 {
                    let y = rows.trailing_zeros() as usize;
                    rows &= rows - 1;
                    f(index, y, columns[y]);
                }
            }
        }
    }

    /// Calls `f(shape index, x, y)` for every legal placement of the colour
    /// on turn (none when the game is over): the shape fits with its
    /// top-left corner at `(x, y)`.
    #[inline]
    pub(crate) fn for_each_placement(&self, mut f: impl FnMut(usize, usize, usize)) {
        if self.is_over() {
            return;
        }
        self.for_each_fit(self.current_color(), |shape, y, mut columns| {
            while columns != 0 {
                let x = columns.trailing_zeros() as usize;
                columns &= columns - 1;
                f(shape, x, y);
            }
        });
    }

    /// Whether `color` could place a piece now (whether or not it is on
    /// turn).
    pub(crate) fn has_legal_move(&self, color: usize) -> bool {
        let masks = self.placement_masks(color);
        let table = V::table();
        // A small piece is the likeliest to fit, and asking row by row
        // stops at the first fit; the 21-piece set lists its kinds smallest
        // first.
        let mut kinds = self.placeable_kinds(color);
        if !masks.has_anchor() {
            return false;
        }
        while kinds != 0 {
            let kind = kinds.trailing_zeros() as usize;
            kinds &= kinds - 1;
            if table
                .shapes_of(kind)
                .any(|index| masks.fits_anywhere(table.shape(index)))
            {
                return true;
            }
        }
        false
    }

    /// The number of legal placements of the colour on turn (0 when the
    /// game is over), one per distinct (kind, cells).
    pub(crate) fn count_legal_moves(&self) -> usize {
        if self.is_over() {
            return 0;
        }
        let mut count = 0;
        self.for_each_fit(self.current_color(), |_, _, columns| {
            count += columns.count_ones() as usize;
        });
        count
    }

    /// The points of `color` by the variant's [`Scoring`].
    pub(crate) fn color_points(&self, color: usize) -> u32 {
        let cells = self.pieces[color].count();
        match V::SCORING {
            Scoring::Cells => cells,
            Scoring::CellsAndBonuses => match self.mono_last[color] {
                None => cells,
                Some(mono) => cells + ALL_PLACED_BONUS + if mono { MONO_LAST_BONUS } else { 0 },
            },
        }
    }
}

/// The fields a fixed shape covers with its top-left corner at `(x, y)`.
#[inline]
pub(crate) fn piece_board<const N: usize>(shape: &FixedShape, x: usize, y: usize) -> Bitboard<N> {
    let mut rows = [0; N];
    for (dy, &mask) in shape.rows[..shape.height as usize].iter().enumerate() {
        rows[y + dy] = mask << x;
    }
    Bitboard::from_rows(rows)
}
