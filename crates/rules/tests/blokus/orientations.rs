//! The orientation table of `blokus-2021.md` Appendix A, and the algebra of
//! the official transform (PieceTest of the official suite).

use spielleiter_rules::blokus::{Color, PieceKind, Placement, Rotation, SHAPES, Shape};

const APPENDIX_A: &str = include_str!("../data/orientations.txt");

fn parse_cells(text: &str) -> Vec<(i8, i8)> {
    text.split_whitespace()
        .map(|cell| {
            let (x, y) = cell
                .trim_matches(|c| c == '(' || c == ')')
                .split_once(',')
                .expect("cell is (x,y)");
            (x.parse().expect("x"), y.parse().expect("y"))
        })
        .collect()
}

#[test]
fn every_kind_in_every_label_matches_appendix_a() {
    let mut rows = 0;
    for line in APPENDIX_A.lines().filter(|l| !l.starts_with('#')) {
        let (label, cells) = line.split_once(" | ").expect("`label | cells`");
        let fields: Vec<&str> = label.split_whitespace().collect();
        let kind: PieceKind = fields[0].parse().expect("kind");
        let rotation: Rotation = fields[1].parse().expect("rotation");
        let flipped: bool = fields[2].parse().expect("flipped");
        let shape = kind.shape(rotation, flipped);
        assert_eq!(shape.cells(), parse_cells(cells), "{line}");

        // The canonical label of the shape table is the "same as" label.
        let fixed = SHAPES.shape(SHAPES.shape_index(kind.index(), rotation, flipped));
        let expected = match fields[3] {
            "-" => (rotation, flipped),
            same => (
                same.parse().expect("rotation"),
                fields[4].parse().expect("flipped"),
            ),
        };
        assert_eq!((fixed.rotation, fixed.flipped), expected, "{line}");
        rows += 1;
    }
    assert_eq!(rows, 21 * 8);
}

#[test]
fn untransformed_pieces_have_the_canonical_cells() {
    for kind in PieceKind::ALL {
        assert_eq!(
            kind.shape(Rotation::None, false),
            Shape::from_cells(kind.canonical_cells())
        );
    }
}

#[test]
fn rotations_compose_like_the_official_ones() {
    let turn = |shape: Shape, rotation: Rotation, flipped: bool| {
        Shape::oriented(shape.cells(), rotation, flipped)
    };
    for kind in PieceKind::ALL {
        let base = kind.shape(Rotation::None, false);
        let right = kind.shape(Rotation::Right, false);
        let mirror = kind.shape(Rotation::Mirror, false);
        assert_eq!(
            base,
            Shape::from_cells(kind.canonical_cells()),
            "{kind}: NONE is the identity"
        );
        assert_eq!(
            turn(right, Rotation::Right, false),
            mirror,
            "{kind}: RIGHT twice"
        );
        assert_eq!(
            turn(mirror, Rotation::Mirror, false),
            base,
            "{kind}: MIRROR twice"
        );
        assert_eq!(
            turn(mirror, Rotation::Right, false),
            kind.shape(Rotation::Left, false),
            "{kind}: LEFT"
        );
        let flipped = kind.shape(Rotation::None, true);
        assert_eq!(
            turn(flipped, Rotation::None, true),
            base,
            "{kind}: flipping twice"
        );
    }
}

#[test]
fn building_from_a_variants_cells_gives_that_variant() {
    for kind in PieceKind::ALL {
        for rotation in Rotation::ALL {
            for flipped in [false, true] {
                let shape = kind.shape(rotation, flipped);
                assert_eq!(Shape::from_cells(shape.cells()), shape);
            }
        }
    }
}

#[test]
fn trio_l_flipped_at_2_2() {
    let piece = Placement {
        color: Color::Blue,
        kind: PieceKind::TrioL,
        rotation: Rotation::None,
        flipped: true,
        x: 2,
        y: 2,
    };
    let mut cells: Vec<_> = piece.cells().collect();
    cells.sort_unstable();
    assert_eq!(cells, [(2, 3), (3, 2), (3, 3)]);
}

#[test]
fn variant_tables_map_to_the_first_label() {
    let variants = |kind: PieceKind| SHAPES.shapes_of(kind.index()).len();
    assert_eq!(
        [
            PieceKind::Mono,
            PieceKind::Domino,
            PieceKind::TrioL,
            PieceKind::TetroO
        ]
        .map(variants),
        [1, 2, 4, 1]
    );
    for kind in PieceKind::ALL {
        let first = SHAPES.shape(SHAPES.shapes_of(kind.index()).start);
        assert_eq!((first.rotation, first.flipped), (Rotation::None, false));
        assert_eq!(first.shape, Shape::from_cells(kind.canonical_cells()));
    }
    assert_eq!(SHAPES.shapes().len(), 91);
}

#[test]
fn normalising_moves_cells_to_the_origin() {
    assert_eq!(
        Shape::from_cells(&[(1, 2), (3, 2)]).cells(),
        [(0, 0), (2, 0)]
    );
}
