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

use super::search::{anchor_sides, below, bits_iter, fit, pair};
use super::variant::{EndRule, PassRule, Scoring, StartRule, Variant};
use crate::polyomino::{Bitboard, PlacementMasks, RunMasks, Shapes};

/// Draws per [`Engine::random_placement`] before it falls back to the full
/// generation. Mid-game positions need a handful; the fallback costs about
/// as much as 40 draws.
const SAMPLING_TRIALS: usize = 48;
/// The most anchor fields the sampler lists; more (never in a real game)
/// fall back to the full generation.
const MAX_SAMPLED_ANCHORS: usize = 128;
/// Candidate placements [`Engine::has_legal_move`] tests around the
/// anchors before it searches all rows at once.
const LOCAL_SEARCH_TESTS: usize = 32;

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
        let height = usize::from(fixed.height);
        let rows = &fixed.rows[..height];
        self.pieces[color].insert_rows(rows, x, y, 0);
        self.occupied.insert_rows(rows, x, y, 0);
        // Only the rows around the piece change: its halo is what
        // `edge_neighbours` and `diagonal_neighbours` of the piece give.
        self.edges[color].insert_rows(&fixed.halo_edges[..height + 2], x, y, 1);
        self.corners[color].insert_rows(&fixed.halo_corners[..height + 2], x, y, 1);
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
        let mut columns = [0; N];
        while kinds != 0 {
            let kind = kinds.trailing_zeros() as usize;
            kinds &= kinds - 1;
            for index in table.shapes_of(kind) {
                let mut rows = runs.fits_by_row(table.shape(index), &mut columns);
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

    /// A uniformly random legal placement of the colour on turn as (shape
    /// index, x, y), or `None` when the game is over.
    ///
    /// Rejection sampling instead of generating every placement. A
    /// proposal is a triple (anchor field, fixed shape, one of its cells),
    /// the cell to lie on the anchor, drawn uniformly among the triples
    /// where the cell's neighbours within the shape (its sides) are free
    /// around the anchor — a necessary condition, so most proposals fit. A
    /// legal placement covering `k` anchors arises from exactly `k` such
    /// triples, so accepting a fitting proposal with probability `1/k`
    /// makes every legal placement equally likely. After
    /// [`SAMPLING_TRIALS`] misses (crowded late positions) one placement
    /// is picked from the full generation instead, which is uniform as
    /// well. Draws use a multiply-shift on 32 random bits: uniform up to a
    /// relative error below 2^-15.
    pub(crate) fn random_placement<R: rand_core::Rng + ?Sized>(
        &self,
        rng: &mut R,
    ) -> Option<(usize, usize, usize)> {
        if self.is_over() {
            return None;
        }
        let color = self.current_color();
        let free = !(self.occupied | self.edges[color]);
        let anchors = *self.anchors(color) & free;
        let table = V::table();
        let kinds = self.placeable_kinds(color);

        // Per set of free sides: the (shape, cell) pairs of the placeable
        // kinds that may lie on an anchor with those sides free; computed
        // for the sets that occur.
        let mut pairs_within = [u32::MAX; 16];
        // The anchors, their free sides, and the running total of pairs.
        let mut anchor_cells = [(0u8, 0u8, 0u8); MAX_SAMPLED_ANCHORS];
        let mut ends = [0u32; MAX_SAMPLED_ANCHORS];
        let mut anchor_count = 0;
        let mut total = 0;
        for (x, y, sides) in anchor_sides(&free, &anchors) {
            if anchor_count == MAX_SAMPLED_ANCHORS {
                return self.placement_by_index(rng);
            }
            if pairs_within[sides] == u32::MAX {
                pairs_within[sides] = bits_iter(kinds)
                    .map(|kind| u32::from(table.kind_cells_within(kind)[sides]))
                    .sum();
            }
            total += pairs_within[sides];
            anchor_cells[anchor_count] = (x as u8, y as u8, sides as u8);
            ends[anchor_count] = total;
            anchor_count += 1;
        }
        if total == 0 {
            return None;
        }

        for _ in 0..SAMPLING_TRIALS {
            // One draw picks the anchor, the kind, the shape and the cell.
            let mut pick = below(rng.next_u32(), total as usize) as u32;
            let anchor = ends[..anchor_count].partition_point(|&end| end <= pick);
            if anchor > 0 {
                pick -= ends[anchor - 1];
            }
            let (ax, ay, sides) = anchor_cells[anchor];
            let sides = usize::from(sides);
            let (index, cell) = pair(table, kinds, sides, pick);
            let Some((x, y, covered)) = fit(
                &free,
                &anchors,
                table.shape(index),
                (ax.into(), ay.into()),
                cell,
            ) else {
                continue;
            };
            if covered == 1 || below(rng.next_u32(), covered as usize) == 0 {
                return Some((index, x, y));
            }
        }
        self.placement_by_index(rng)
    }

    /// A uniformly random legal placement of the colour on turn, picked
    /// from the full generation in one pass (weighted reservoir sampling:
    /// a run of `c` placements replaces the pick so far with probability
    /// `c / placements seen`), or `None` if it has none.
    fn placement_by_index<R: rand_core::Rng + ?Sized>(
        &self,
        rng: &mut R,
    ) -> Option<(usize, usize, usize)> {
        let mut seen = 0;
        let mut found = None;
        self.for_each_fit(self.current_color(), |shape, y, mut columns| {
            let count = columns.count_ones() as usize;
            seen += count;
            let pick = below(rng.next_u32(), seen);
            if pick < count {
                for _ in 0..pick {
                    columns &= columns - 1;
                }
                found = Some((shape, columns.trailing_zeros() as usize, y));
            }
        });
        found
    }

    /// Whether `color` could place a piece now (whether or not it is on
    /// turn).
    pub(crate) fn has_legal_move(&self, color: usize) -> bool {
        let free = !(self.occupied | self.edges[color]);
        let anchors = *self.anchors(color) & free;
        if anchors.is_empty() {
            return false;
        }
        let table = V::table();
        let kinds = self.placeable_kinds(color);
        // A single cell fits on any free anchor.
        if kinds & table.single_cell_kinds() != 0 {
            return true;
        }
        // Search around the anchors, smallest kinds first: a colour that
        // can move usually fits a small piece at its first anchor. Every
        // legal placement lays a cell, with its shape's sides free, on an
        // anchor, so a search that runs out of candidates proves there is
        // none; a long one hands over to the search of all rows at once.
        let mut budget = LOCAL_SEARCH_TESTS;
        for (ax, ay, sides) in anchor_sides(&free, &anchors) {
            for kind in bits_iter(kinds) {
                if table.kind_cells_within(kind)[sides] == 0 {
                    continue;
                }
                for index in table.shapes_of(kind) {
                    let fixed = table.shape(index);
                    for (cell, &cell_sides) in
                        fixed.cell_sides[..fixed.shape.len()].iter().enumerate()
                    {
                        if usize::from(cell_sides) & !sides != 0 {
                            continue;
                        }
                        if fit(&free, &anchors, fixed, (ax, ay), cell).is_some() {
                            return true;
                        }
                        budget -= 1;
                        if budget == 0 {
                            return self.fits_anywhere(&free, &anchors, kinds);
                        }
                    }
                }
            }
        }
        false
    }

    /// Whether a shape of `kinds` fits anywhere on `free` covering one of
    /// `anchors`, all rows of a shape at once.
    fn fits_anywhere(&self, free: &Bitboard<N>, anchors: &Bitboard<N>, kinds: u32) -> bool {
        let runs = RunMasks::new(&PlacementMasks::new(free, anchors));
        let table = V::table();
        let mut columns = [0; N];
        bits_iter(kinds).any(|kind| {
            table
                .shapes_of(kind)
                .any(|index| runs.fits_by_row(table.shape(index), &mut columns) != 0)
        })
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
