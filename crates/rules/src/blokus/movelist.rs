//! [`MoveList`]: the legal placements of one colour, stored without
//! allocation as runs of columns per (fixed shape, row); and [`Runs`], the
//! storage behind the move lists of every Blokus variant.

use core::{fmt, iter::FusedIterator};

use super::{color::Color, moves::Placement, setup::BOARD_SIZE, shapes::SHAPE_COUNT};

/// At most one run per (fixed shape, top row) pair, so this bounds every
/// position: move generation can never overflow the list.
const MAX_RUNS: usize = SHAPE_COUNT * BOARD_SIZE;

/// The placements of one fixed shape with its top row at `y`, one per set
/// bit `x` of `columns`.
#[derive(Clone, Copy, Debug, Default)]
struct Run {
    shape: u8,
    y: u8,
    columns: u32,
}

/// Placements as up to `MAX` runs (fixed shape, row, columns), the form in
/// which move generation finds them; read back as (shape, x, y).
#[derive(Clone)]
pub(crate) struct Runs<const MAX: usize> {
    runs: [Run; MAX],
    run_count: usize,
    len: usize,
}

impl<const MAX: usize> Runs<MAX> {
    /// No runs.
    pub(crate) fn new() -> Self {
        Runs {
            runs: [Run::default(); MAX],
            run_count: 0,
            len: 0,
        }
    }

    /// The number of placements.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Removes every run.
    #[inline]
    pub(crate) fn clear(&mut self) {
        self.run_count = 0;
        self.len = 0;
    }

    /// Appends the placements of fixed shape `shape` at row `y` and each
    /// column in `columns`. At most one run per (shape, row) fits.
    #[inline]
    pub(crate) fn push(&mut self, shape: usize, y: usize, columns: u32) {
        self.runs[self.run_count] = Run {
            shape: shape as u8,
            y: y as u8,
            columns,
        };
        self.run_count += 1;
        self.len += columns.count_ones() as usize;
    }

    /// The placement at `index` in list order as (shape, x, y), found in
    /// time proportional to the number of runs (not of placements).
    pub(crate) fn get(&self, index: usize) -> Option<(usize, usize, usize)> {
        let mut rest = index;
        for run in &self.runs[..self.run_count] {
            let count = run.columns.count_ones() as usize;
            if rest < count {
                let mut columns = run.columns;
                for _ in 0..rest {
                    columns &= columns - 1;
                }
                let x = columns.trailing_zeros() as usize;
                return Some((run.shape.into(), x, run.y.into()));
            }
            rest -= count;
        }
        None
    }

    /// The placements in list order as (shape, x, y).
    #[inline]
    pub(crate) fn iter(&self) -> RunIter<'_> {
        RunIter {
            runs: &self.runs[..self.run_count],
            run: Run::default(),
            left: self.len,
        }
    }
}

/// The placements of [`Runs`] as (shape, x, y), in list order.
#[derive(Clone, Debug)]
pub(crate) struct RunIter<'a> {
    runs: &'a [Run],
    /// The current run; its `columns` holds the columns not yet yielded.
    run: Run,
    left: usize,
}

impl Iterator for RunIter<'_> {
    type Item = (usize, usize, usize);

    #[inline]
    fn next(&mut self) -> Option<(usize, usize, usize)> {
        while self.run.columns == 0 {
            let (first, rest) = self.runs.split_first()?;
            self.run = *first;
            self.runs = rest;
        }
        let x = self.run.columns.trailing_zeros() as usize;
        self.run.columns &= self.run.columns - 1;
        self.left -= 1;
        Some((self.run.shape.into(), x, self.run.y.into()))
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

impl ExactSizeIterator for RunIter<'_> {}

impl FusedIterator for RunIter<'_> {}

/// The legal placements of a position, filled by
/// [`SwcBlokus::legal_moves`](super::SwcBlokus::legal_moves) (2021, 2027)
/// and [`Classic::legal_moves`](super::Classic::legal_moves).
///
/// Placements are kept as bit runs (fixed shape, row, columns), the form in
/// which move generation finds them, and expanded to [`Placement`]s when
/// read. The list lives on the stack (about 15 KB) and never allocates;
/// reuse one list across calls to avoid re-initialising it.
///
/// Order: by piece kind, then by fixed shape in canonical-label order, then
/// row by row and left to right.
#[derive(Clone)]
pub struct MoveList {
    color: Color,
    runs: Runs<MAX_RUNS>,
}

impl MoveList {
    /// An empty list.
    pub fn new() -> MoveList {
        MoveList {
            color: Color::Blue,
            runs: Runs::new(),
        }
    }

    /// The number of placements.
    #[inline]
    pub fn len(&self) -> usize {
        self.runs.len()
    }

    /// Whether there is no placement.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.runs.len() == 0
    }

    /// The colour the placements are for.
    #[inline]
    pub fn color(&self) -> Color {
        self.color
    }

    /// The placement at `index` in list order, found in time proportional
    /// to the number of runs (not of placements).
    pub fn get(&self, index: usize) -> Option<Placement> {
        let (shape, x, y) = self.runs.get(index)?;
        Some(Placement::of_fixed_shape(self.color, shape, x, y))
    }

    /// The placements in list order.
    pub fn iter(&self) -> Iter<'_> {
        Iter {
            color: self.color,
            runs: self.runs.iter(),
        }
    }

    /// Empties the list for placements of `color`.
    #[inline]
    pub(super) fn clear(&mut self, color: Color) {
        self.color = color;
        self.runs.clear();
    }

    /// Appends the placements of fixed shape `shape` at row `y` and each
    /// column in `columns`. A list holds at most one run per (shape, row).
    #[inline]
    pub(super) fn push_run(&mut self, shape: usize, y: usize, columns: u32) {
        self.runs.push(shape, y, columns);
    }
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = Placement;
    type IntoIter = Iter<'a>;

    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

/// The placements of a [`MoveList`], in list order.
#[derive(Clone, Debug)]
pub struct Iter<'a> {
    color: Color,
    runs: RunIter<'a>,
}

impl Iterator for Iter<'_> {
    type Item = Placement;

    #[inline]
    fn next(&mut self) -> Option<Placement> {
        let (shape, x, y) = self.runs.next()?;
        Some(Placement::of_fixed_shape(self.color, shape, x, y))
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.runs.size_hint()
    }
}

impl ExactSizeIterator for Iter<'_> {}

impl FusedIterator for Iter<'_> {}
