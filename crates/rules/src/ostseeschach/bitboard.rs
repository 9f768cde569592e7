//! Fields as bits of a `u64` and the step tables of every piece kind.
//!
//! Field `(x, y)` is bit `8 x + y`: a line of constant x (a start line) is
//! one byte, so a step along x is a shift by 8 that needs no edge mask, and
//! a step along y is a shift by 1 that masks the fields it would wrap from.

use super::piece::PieceKind;
use crate::team::Team;

/// A set of fields.
pub(super) type Bits = u64;

/// The bit index of field `(x, y)`, both in `0..8`.
#[inline]
pub(super) const fn square(x: i32, y: i32) -> u32 {
    (8 * x + y) as u32
}

/// The x of a bit index.
#[inline]
pub(super) const fn x_of(square: u32) -> i32 {
    (square >> 3) as i32
}

/// The y of a bit index.
#[inline]
pub(super) const fn y_of(square: u32) -> i32 {
    (square & 7) as i32
}

/// Whether `(x, y)` is on the board.
#[inline]
pub(super) const fn on_board(x: i32, y: i32) -> bool {
    0 <= x && x < 8 && 0 <= y && y < 8
}

/// The fields with this x (a line parallel to the start lines).
#[inline]
pub(super) const fn line(x: i32) -> Bits {
    0xFF << (8 * x)
}

/// The fields with `lo <= y <= hi`.
const fn rows(lo: i32, hi: i32) -> Bits {
    let mut row: Bits = 0;
    let mut y = lo;
    while y <= hi {
        row |= 1 << y;
        y += 1;
    }
    row * 0x0101_0101_0101_0101
}

/// Every field of `bits` moved by `(dx, dy)`, `|dx|, |dy| <= 7`; fields
/// that would leave the board are dropped.
pub(super) const fn shift(bits: Bits, dx: i32, dy: i32) -> Bits {
    // Keep the fields whose y stays on the board; x needs no mask because
    // whole bytes shift out of the word.
    let kept = bits
        & rows(
            if dy < 0 { -dy } else { 0 },
            if dy > 0 { 7 - dy } else { 7 },
        );
    let by = 8 * dx + dy;
    if by >= 0 { kept << by } else { kept >> -by }
}

/// The fields a piece of `kind` owned by `team` on `square` may step to,
/// whatever stands there.
const fn steps_from(team: Team, kind: PieceKind, square: u32) -> Bits {
    let steps = kind.steps();
    let mut targets = 0;
    let mut i = 0;
    while i < steps.len() {
        let (dx, dy) = steps[i];
        targets |= shift(1 << square, dx * team.direction(), dy);
        i += 1;
    }
    targets
}

/// `STEPS[team][kind][square]`: the targets of every piece on every field.
pub(super) static STEPS: [[[Bits; 64]; 4]; 2] = {
    let mut table = [[[0; 64]; 4]; 2];
    let mut t = 0;
    while t < 2 {
        let mut k = 0;
        while k < 4 {
            let mut s = 0;
            while s < 64 {
                table[t][k][s] = steps_from(Team::ALL[t], PieceKind::ALL[k], s as u32);
                s += 1;
            }
            k += 1;
        }
        t += 1;
    }
    table
};

/// The fields a piece of `kind` owned by `team` on `square` may step to.
#[inline]
pub(super) fn steps(team: Team, kind: PieceKind, square: u32) -> Bits {
    STEPS[team.index()][kind.index()][square as usize]
}

/// Iterates over the bit indices of a set, lowest first.
#[derive(Clone, Copy, Debug)]
pub(super) struct Squares(pub(super) Bits);

impl Iterator for Squares {
    type Item = u32;

    #[inline]
    fn next(&mut self) -> Option<u32> {
        if self.0 == 0 {
            return None;
        }
        let square = self.0.trailing_zeros();
        self.0 &= self.0 - 1;
        Some(square)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_and_lines() {
        assert_eq!(square(0, 0), 0);
        assert_eq!(square(7, 7), 63);
        assert_eq!((x_of(square(3, 5)), y_of(square(3, 5))), (3, 5));
        assert_eq!(line(0), 0xFF);
        assert_eq!(line(7), 0xFF << 56);
    }

    #[test]
    fn shifts_drop_fields_that_leave_the_board() {
        let corner = 1 << square(0, 7);
        assert_eq!(shift(corner, 0, 1), 0);
        assert_eq!(shift(corner, 1, 0), 1 << square(1, 7));
        assert_eq!(shift(corner, -1, 0), 0);
        assert_eq!(shift(corner, 2, -1), 1 << square(2, 6));
        assert_eq!(shift(1 << square(7, 0), 1, 1), 0);
        assert_eq!(shift(1 << square(3, 1), -1, -2), 0);
    }

    #[test]
    fn step_tables_follow_the_team_direction() {
        let h = |team, x, y| steps(team, PieceKind::Herzmuschel, square(x, y));
        assert_eq!(h(Team::One, 0, 0), 1 << square(1, 1));
        assert_eq!(h(Team::Two, 7, 0), 1 << square(6, 1));
        assert_eq!(h(Team::One, 7, 3), 0);
        let robbe = steps(Team::One, PieceKind::Robbe, square(3, 3));
        assert_eq!(robbe.count_ones(), 8);
        let seestern = steps(Team::Two, PieceKind::Seestern, square(4, 0));
        let expected = [(3, 0), (3, 1), (5, 1)]
            .iter()
            .fold(0, |b, &(x, y)| b | 1 << square(x, y));
        assert_eq!(seestern, expected);
    }
}
