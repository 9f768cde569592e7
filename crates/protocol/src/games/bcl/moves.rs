//! The BCL moves on the wire: the seed's `place_to` as
//! `<data class="bcl.PlaceTo"><block kind rotation flip/><start row col/></data>`
//! and the pass `<data class="bcl.Pass"/>`, with their descriptions in
//! texts.

use spielleiter_rules::blokus::bcl::{
    Bcl, BclFlip, BclKind, BclMove, BclPlayer, BclRotation, PlaceTo,
};

use crate::{
    error::{DecodeError, MoveError},
    xml::{ByteSink, Element, XmlReader, XmlWriter},
};

/// The `class` of a placement.
pub const PLACE_CLASS: &str = "bcl.PlaceTo";

/// The `class` of a pass.
pub const PASS_CLASS: &str = "bcl.Pass";

/// The seed's `place_to` arguments as the wire carries them: no player (the
/// server fills in the player on turn), coordinates as sent (off-board
/// ones are the rules' `OUT_OF_STAGE`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct WirePlace {
    /// The block kind.
    pub kind: BclKind,
    /// The clockwise rotation, applied first.
    pub rotation: BclRotation,
    /// The flip, applied after the rotation.
    pub flip: BclFlip,
    /// The row of the bounding box's bottom-left cell ((0,0) is top left).
    pub row: i32,
    /// The column of the bounding box's bottom-left cell.
    pub col: i32,
}

impl WirePlace {
    /// The placement by `player`.
    pub fn by(self, player: BclPlayer) -> PlaceTo {
        PlaceTo {
            player,
            kind: self.kind,
            rotation: self.rotation,
            flip: self.flip,
            row: self.row,
            col: self.col,
        }
    }
}

impl From<PlaceTo> for WirePlace {
    fn from(place: PlaceTo) -> WirePlace {
        WirePlace {
            kind: place.kind,
            rotation: place.rotation,
            flip: place.flip,
            row: place.row,
            col: place.col,
        }
    }
}

/// A BCL move as the wire carries it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WireMove {
    /// `bcl.PlaceTo`.
    Place(WirePlace),
    /// `bcl.Pass`: the rules allow it only when no block fits, and then
    /// the server passes by itself, so a pass sent by a player is always
    /// refused.
    Pass,
}

impl WireMove {
    /// The rules' move for the player on turn in `game`.
    pub fn resolve(&self, game: &Bcl) -> BclMove {
        let player = game.current_player();
        match self {
            WireMove::Place(place) => BclMove::Place(place.by(player)),
            WireMove::Pass => BclMove::Pass(player),
        }
    }
}

impl From<BclMove> for WireMove {
    fn from(mv: BclMove) -> WireMove {
        match mv {
            BclMove::Place(place) => WireMove::Place(place.into()),
            BclMove::Pass(_) => WireMove::Pass,
        }
    }
}

/// Whether `class` names a BCL move.
pub fn is_move_class(class: &str) -> bool {
    matches!(class, PLACE_CLASS | PASS_CLASS)
}

/// The `class` of `mv`.
pub fn move_class(mv: &WireMove) -> &'static str {
    match mv {
        WireMove::Place(_) => PLACE_CLASS,
        WireMove::Pass => PASS_CLASS,
    }
}

/// The move in texts: `place_to(SHOTGUN SINGLE NONE, row 3, col 0)` or
/// `pass`.
pub fn describe_move(mv: &WireMove) -> String {
    match mv {
        WireMove::Place(p) => format!(
            "place_to({} {} {}, row {}, col {})",
            p.kind, p.rotation, p.flip, p.row, p.col
        ),
        WireMove::Pass => "pass".to_owned(),
    }
}

/// Writes `<block kind rotation flip/>` and `<start row col/>`, the
/// children of a placement element (`<data>`, `<lastMove>`); a pass has
/// none.
pub(crate) fn write_move_content<S: ByteSink>(w: &mut XmlWriter<'_, S>, mv: &WireMove) {
    let WireMove::Place(place) = mv else {
        return;
    };
    w.start("block");
    w.attr_raw("kind", place.kind.name());
    w.attr_raw("rotation", place.rotation.name());
    w.attr_raw("flip", place.flip.name());
    w.end_empty();
    w.start("start");
    w.attr_int("row", i64::from(place.row));
    w.attr_int("col", i64::from(place.col));
    w.end_empty();
}

/// Reads a move element of class `class` (a move class): `<block>` and
/// `<start>` in any order for a placement, other children skipped.
///
/// # Errors
///
/// [`MoveError`] for a missing `<block>` or `<start>`, a missing
/// attribute, a name that is no kind, rotation or flip, or a coordinate
/// that is no integer.
pub(crate) fn read_move(
    r: &mut XmlReader<'_>,
    el: &Element<'_>,
    class: &str,
) -> Result<WireMove, DecodeError> {
    let (mut block, mut start) = (None, None);
    while let Some(child) = r.next_child(el)? {
        match child.name() {
            "block" => block = Some(read_block(&child)?),
            "start" => start = Some(read_start(&child)?),
            _ => {}
        }
        r.skip(child)?;
    }
    if class == PASS_CLASS {
        return Ok(WireMove::Pass);
    }
    let missing = |element| MoveError::MissingElement { element };
    let (kind, rotation, flip) = block.ok_or(missing("block"))?;
    let (row, col) = start.ok_or(missing("start"))?;
    Ok(WireMove::Place(WirePlace {
        kind,
        rotation,
        flip,
        row,
        col,
    }))
}

/// The value of attribute `attribute` of `el`, which must be there.
fn required<'e>(
    el: &'e Element<'_>,
    element: &'static str,
    attribute: &'static str,
) -> Result<std::borrow::Cow<'e, str>, DecodeError> {
    el.attribute(attribute)?
        .ok_or_else(|| MoveError::MissingAttribute { element, attribute }.into())
}

/// Parses a name of the rules (`kind`, `rotation`, `flip`).
fn name<T: std::str::FromStr>(value: &str, what: &'static str) -> Result<T, DecodeError> {
    value.parse().map_err(|_| {
        MoveError::UnknownName {
            what,
            value: value.to_owned(),
        }
        .into()
    })
}

/// Reads `<block kind rotation flip/>`.
fn read_block(el: &Element<'_>) -> Result<(BclKind, BclRotation, BclFlip), DecodeError> {
    Ok((
        name(&required(el, "block", "kind")?, "block kind")?,
        name(&required(el, "block", "rotation")?, "rotation")?,
        name(&required(el, "block", "flip")?, "flip")?,
    ))
}

/// Reads `<start row col/>`.
fn read_start(el: &Element<'_>) -> Result<(i32, i32), DecodeError> {
    let coordinate = |attribute| -> Result<i32, DecodeError> {
        let value = required(el, "start", attribute)?;
        value.parse().map_err(|_| {
            MoveError::InvalidCoordinate {
                value: value.into_owned(),
            }
            .into()
        })
    };
    Ok((coordinate("row")?, coordinate("col")?))
}
