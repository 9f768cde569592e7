//! The piece pictures of `protocol/README.md`, drawn from the rules crate's
//! shapes (the transform the server applies to every move), so the README
//! cannot show a shape or an orientation the server does not use.

use std::fmt::Write as _;

use spielleiter_rules::blokus::{PieceKind, Rotation, Shape};

use crate::util::yellow_pento_l;

/// Width of one picture's column: the longest name and two spaces.
const COLUMN: usize = 9;

/// A shape as rows of `#` (a cell) and `.` (a free field of its bounding
/// box); `(0, 0)` is the top-left character.
fn picture(shape: &Shape) -> Vec<String> {
    let (width, height) = shape.extent();
    (0..height)
        .map(|y| {
            (0..width)
                .map(|x| {
                    let cell = (
                        i8::try_from(x).expect("small"),
                        i8::try_from(y).expect("small"),
                    );
                    if shape.cells().contains(&cell) {
                        '#'
                    } else {
                        '.'
                    }
                })
                .collect()
        })
        .collect()
}

/// Labelled pictures side by side, in rows of `per_row`.
fn side_by_side(pictures: &[(String, Shape)], per_row: usize) -> String {
    let mut out = String::new();
    for row in pictures.chunks(per_row) {
        let drawn: Vec<Vec<String>> = row.iter().map(|(_, shape)| picture(shape)).collect();
        let height = drawn.iter().map(Vec::len).max().unwrap_or(0);
        let mut lines = vec![
            row.iter()
                .map(|(label, _)| format!("{label:COLUMN$}"))
                .collect(),
        ];
        for y in 0..height {
            lines.push(
                drawn
                    .iter()
                    .map(|rows| format!("{:COLUMN$}", rows.get(y).map_or("", String::as_str)))
                    .collect::<String>(),
            );
        }
        for line in lines {
            writeln!(out, "{}", line.trim_end()).expect("string");
        }
        out.push('\n');
    }
    out.trim_end().to_owned()
}

/// The 21 pieces unrotated and unflipped, in the order of the wire's enum.
pub fn all_pieces() -> String {
    let pictures: Vec<(String, Shape)> = PieceKind::ALL
        .iter()
        .map(|kind| (kind.name().to_owned(), kind.shape(Rotation::None, false)))
        .collect();
    format!("```text\n{}\n```", side_by_side(&pictures, 7))
}

/// `PENTO_L` in its eight orientations, and the fields the README's example
/// move covers.
pub fn orientations() -> String {
    let kind = PieceKind::PentoL;
    let mut pictures = Vec::new();
    for flipped in [false, true] {
        for rotation in Rotation::ALL {
            let label = if flipped {
                format!("{}+f", rotation.name())
            } else {
                rotation.name().to_owned()
            };
            pictures.push((label, kind.shape(rotation, flipped)));
        }
    }
    let spielleiter_protocol::games::blokus2021::WireMove::Set(example) = yellow_pento_l() else {
        unreachable!("the example move places a piece")
    };
    let shape = example.kind.shape(example.rotation, example.flipped);
    let fields: Vec<String> = shape
        .cells()
        .iter()
        .map(|&(dx, dy)| {
            format!(
                "({}, {})",
                example.x + i32::from(dx),
                example.y + i32::from(dy)
            )
        })
        .collect();
    format!(
        "```text\n{}\n```\n\nThe example move above (`{}`, `{}`, `isFlipped=\"{}\"`, position \
         x={} y={}) covers the fields {}.",
        side_by_side(&pictures, 4),
        example.kind.name(),
        example.rotation.name(),
        example.flipped,
        example.x,
        example.y,
        fields.join(", ")
    )
}
