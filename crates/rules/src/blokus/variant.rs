//! [`Variant`]: what distinguishes one Blokus variant from another, as the
//! constants of one type per variant, so that the one engine (the crate's
//! `blokus::engine`) is compiled once per variant with its rules folded in
//! (no run-time branching on the variant in the move generator).
//!
//! | | [`Swc2021`] | [`Swc2027`] | [`ClassicRules`] | [`BclRules`] |
//! | --- | --- | --- | --- | --- |
//! | board | 20×20 | 20×20 | 20×20 | 10×10 |
//! | colours | 4 | 4 | 4 | 2 |
//! | pieces | 21 kinds | 21 kinds | 21 kinds | 10 kinds, 12 blocks |
//! | first piece | the shared start piece | the shared start piece | any | any |
//! | first piece covers | a free corner | a border field | the colour's corner | the colour's corner |
//! | pass | after the first piece | after the first piece | never | never |
//! | end | no colour left, turn 100, or the round in which a colour finished | no colour left, or turn 96 | no colour left | no colour left |
//! | points | cells, +15 all placed, +5 monomino last | same | same | cells |
//!
//! Who plays which colour (teams, seats, the rotating GREEN of the
//! three-player classic game) is not the engine's business: each variant's
//! public game type maps colours to players.

use core::{fmt::Debug, hash::Hash};

use super::{
    bcl::pieces::{self, BCL_SHAPES},
    setup::ROUND_LIMIT,
    shapes::SHAPES,
};
use crate::polyomino::{Bitboard, ShapeTable, Shapes};

/// The rules of one Blokus variant on an `N`×`N` board. Implemented only by
/// the variants of this module.
pub trait Variant<const N: usize>:
    sealed::Sealed + Copy + Eq + Hash + Debug + Default + Send + Sync + 'static
{
    /// The number of colours (2 or 4); they move in index order.
    const COLORS: usize;
    /// The piece set: every kind's fixed shapes.
    type Table: Shapes;
    /// Kinds each colour holds twice, bit `k` for kind `k`; the other kinds
    /// once.
    const DOUBLES: u32;
    /// Which pieces a colour may place first.
    const START: StartRule;
    /// Per colour: the fields one of which its first piece must cover.
    const START_FIELDS: [Bitboard<N>; 4];
    /// When a colour may pass.
    const PASS: PassRule;
    /// When the game ends.
    const END: EndRule;
    /// How a colour's points are counted.
    const SCORING: Scoring;

    /// The piece set's table.
    fn table() -> &'static Self::Table;
}

/// Which pieces a colour may place first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StartRule {
    /// Only the game's start piece, one kind drawn for all colours.
    SharedStartPiece,
    /// Any piece of the colour's set.
    AnyPiece,
}

/// When a colour may pass instead of placing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PassRule {
    /// Whenever it has placed its first piece, also when it could place.
    AfterFirstPiece,
    /// Never by choice: a colour that cannot place is skipped by the rules.
    Never,
}

/// When the game ends. In every variant a colour that cannot place is
/// removed when its turn comes (its turn number consumed), and the game
/// ends when no colour is left.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndRule {
    /// Only when no colour is left.
    NoColorLeft,
    /// Also when the turn number reaches the limit.
    TurnLimit(u32),
    /// Also when the turn number reaches the limit, or when the round in
    /// which some colour placed its last piece is complete (the turn number
    /// reached the next multiple of the colour count; `decisions.md` §1).
    TurnLimitOrFinishedRound(u32),
}

/// How a colour's points are counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scoring {
    /// The cells it placed; when it placed all its pieces 15 more, and 5 on
    /// top if the last was the one-cell piece.
    CellsAndBonuses,
    /// The cells it placed.
    Cells,
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for super::Swc2021 {}
    impl Sealed for super::Swc2027 {}
    impl Sealed for super::ClassicRules {}
    impl Sealed for super::BclRules {}
}

/// The side of the 20×20 boards.
const SIDE: usize = 20;

/// Blokus of the Software-Challenge 2021 (`swc_2021_blokus`): the official
/// 21.4.0 rules with the end rule of `decisions.md` §1.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Swc2021;

impl Variant<SIDE> for Swc2021 {
    const COLORS: usize = 4;
    type Table = ShapeTable<21, { super::shapes::SHAPE_COUNT }>;
    const DOUBLES: u32 = 0;
    const START: StartRule = StartRule::SharedStartPiece;
    const START_FIELDS: [Bitboard<SIDE>; 4] = [Bitboard::CORNERS; 4];
    const PASS: PassRule = PassRule::AfterFirstPiece;
    const END: EndRule = EndRule::TurnLimitOrFinishedRound(4 * ROUND_LIMIT);
    const SCORING: Scoring = Scoring::CellsAndBonuses;

    #[inline]
    fn table() -> &'static Self::Table {
        &SHAPES
    }
}

/// Blokus of the Software-Challenge 2027 (`swc_2027_blokus`), as the
/// official 27.x code plays it (`blokus-2027.md` §3, `decisions.md` §24):
/// first pieces on the border, `PENTO_X` a possible start piece, the end at
/// turn 96, no end when a colour has placed everything.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Swc2027;

impl Variant<SIDE> for Swc2027 {
    const COLORS: usize = 4;
    type Table = ShapeTable<21, { super::shapes::SHAPE_COUNT }>;
    const DOUBLES: u32 = 0;
    const START: StartRule = StartRule::SharedStartPiece;
    const START_FIELDS: [Bitboard<SIDE>; 4] = [Bitboard::BORDER; 4];
    const PASS: PassRule = PassRule::AfterFirstPiece;
    const END: EndRule = EndRule::TurnLimit(96);
    const SCORING: Scoring = Scoring::CellsAndBonuses;

    #[inline]
    fn table() -> &'static Self::Table {
        &SHAPES
    }
}

/// Classic Blokus (`blokus_classic`, `_3`, `_2`; `decisions.md` §17–§18):
/// each colour starts in its own corner with any piece — BLUE (0,0),
/// YELLOW (19,0), RED (19,19), GREEN (0,19) — never passes by choice, and
/// the game ends when no colour can place.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ClassicRules;

impl Variant<SIDE> for ClassicRules {
    const COLORS: usize = 4;
    type Table = ShapeTable<21, { super::shapes::SHAPE_COUNT }>;
    const DOUBLES: u32 = 0;
    const START: StartRule = StartRule::AnyPiece;
    const START_FIELDS: [Bitboard<SIDE>; 4] = [
        Bitboard::single(0, 0),
        Bitboard::single(SIDE - 1, 0),
        Bitboard::single(SIDE - 1, SIDE - 1),
        Bitboard::single(0, SIDE - 1),
    ];
    const PASS: PassRule = PassRule::Never;
    const END: EndRule = EndRule::NoColorLeft;
    const SCORING: Scoring = Scoring::CellsAndBonuses;

    #[inline]
    fn table() -> &'static Self::Table {
        &SHAPES
    }
}

/// The side of the BLOKUS Champions League board.
pub(crate) const BCL_SIDE: usize = 10;

/// The 10×10 game of the BLOKUS Champions League (`blokus_bcl`;
/// `decisions.md` §20–§22): two colours, one per player, starting at (0,0)
/// and (9,9), with the league's own 12 blocks (SQUARE and WORM twice).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct BclRules;

impl Variant<BCL_SIDE> for BclRules {
    const COLORS: usize = 2;
    type Table = ShapeTable<{ pieces::KIND_COUNT }, { pieces::SHAPE_COUNT }>;
    const DOUBLES: u32 = pieces::DOUBLES;
    const START: StartRule = StartRule::AnyPiece;
    const START_FIELDS: [Bitboard<BCL_SIDE>; 4] = [
        Bitboard::single(0, 0),
        Bitboard::single(BCL_SIDE - 1, BCL_SIDE - 1),
        Bitboard::EMPTY,
        Bitboard::EMPTY,
    ];
    const PASS: PassRule = PassRule::Never;
    const END: EndRule = EndRule::NoColorLeft;
    const SCORING: Scoring = Scoring::Cells;

    #[inline]
    fn table() -> &'static Self::Table {
        &BCL_SHAPES
    }
}
