//! The picture of a position, independent of the game and of the output
//! format: a board of fields (coloured tiles for the Blokus games, pieces
//! with letters for Ostseeschach), the fields of the last move, and one line
//! per seat. Each game's module builds a [`Scene`]; [`svg`](crate::svg) and
//! [`text`](crate::text) draw it.

/// A colour of a board: its name for people and machines, its fill, and
/// the letter and ANSI background colour of the terminal picture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Swatch {
    /// The name as the game calls it, e.g. `BLUE` (written into the SVG as
    /// `data-color`, so tests and scripts can read the board).
    pub name: &'static str,
    /// The colour's name for people, e.g. `red` for team ONE.
    pub label: &'static str,
    /// The fill, `#rrggbb`.
    pub fill: &'static str,
    /// The letter of a field of this colour in the terminal picture.
    pub letter: char,
    /// The ANSI SGR code of the background in the terminal picture.
    pub ansi_background: u8,
}

/// How the empty board looks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ground {
    /// One colour with grid lines (the Blokus boards).
    Grid,
    /// Alternating light and dark fields (Ostseeschach).
    Checkered,
}

/// One piece of a colour's set, beside the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct StockPiece {
    /// Its cells `(x, y)`, top left at (0, 0).
    pub cells: Vec<(u8, u8)>,
    /// Whether the colour still has it (else it is on the board).
    pub left: bool,
}

/// A colour's pieces, those left and those placed, in a fixed order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Stock {
    /// The colour (index into the palette).
    pub color: usize,
    /// Every piece of its set.
    pub pieces: Vec<StockPiece>,
}

impl Stock {
    /// How many pieces the colour has left.
    pub fn left(&self) -> usize {
        self.pieces.iter().filter(|piece| piece.left).count()
    }
}

/// A piece standing on a field (Ostseeschach): a disc of its owner's
/// colour with a letter, and for a tower the buried piece's colour under it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Token {
    /// Column, 0 = left.
    pub x: usize,
    /// Row, 0 = top.
    pub y: usize,
    /// The owner's colour (index into the palette).
    pub color: usize,
    /// The colour of the piece under the top one, for a tower.
    pub under: Option<usize>,
    /// The letter of the top piece's kind.
    pub letter: char,
    /// The number of pieces in the stack.
    pub height: u8,
    /// The field in the terminal picture: two characters.
    pub label: String,
}

/// A rectangular board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Board {
    /// Fields per row.
    pub columns: usize,
    /// Rows.
    pub rows: usize,
    /// The side of a field in pixels in the SVG.
    pub field_px: u32,
    /// The empty board.
    pub ground: Ground,
    /// The colours of the game; tiles and tokens refer to them by index.
    pub palette: &'static [Swatch],
    /// Row by row, the colour covering each field (Blokus); empty for games
    /// with tokens.
    pub tiles: Vec<Option<usize>>,
    /// The pieces on the board (Ostseeschach).
    pub tokens: Vec<Token>,
    /// The fields the last move covered or touched, `(x, y)`.
    pub last_move: Vec<(usize, usize)>,
    /// The names of the columns along the top edge, left to right, as the
    /// game writes its fields (numbers from 0 unless the game says
    /// otherwise).
    pub column_names: Vec<String>,
    /// The names of the rows along the left edge, top to bottom.
    pub row_names: Vec<String>,
}

impl Board {
    /// A board without tiles, tokens or last move.
    pub fn new(
        columns: usize,
        rows: usize,
        field_px: u32,
        ground: Ground,
        palette: &'static [Swatch],
    ) -> Board {
        Board {
            columns,
            rows,
            field_px,
            ground,
            palette,
            tiles: Vec::new(),
            tokens: Vec::new(),
            last_move: Vec::new(),
            column_names: (0..columns).map(|x| x.to_string()).collect(),
            row_names: (0..rows).map(|y| y.to_string()).collect(),
        }
    }

    /// The tile on `(x, y)`.
    pub fn tile(&self, x: usize, y: usize) -> Option<usize> {
        self.tiles.get(y * self.columns + x).copied().flatten()
    }

    /// Whether the last move covered or touched `(x, y)`.
    pub fn in_last_move(&self, x: usize, y: usize) -> bool {
        self.last_move.contains(&(x, y))
    }
}

/// One seat of the game under the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct SeatLine {
    /// The player's display name, or the seat's label when it has none.
    pub name: String,
    /// The colours the seat plays (indices into the palette).
    pub colors: Vec<usize>,
    /// The score as the game counts it, e.g. `87 points`.
    pub score: String,
    /// Gems drawn after the score (Ostseeschach's ambers).
    pub gems: u32,
    /// Whether the seat is to move.
    pub to_move: bool,
}

/// Everything a picture shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Scene {
    /// The protocol id of the game (written into the SVG).
    pub game_id: &'static str,
    /// The turn counter (written into the SVG).
    pub turn: u32,
    /// The heading, e.g. `Blokus 2021 · turn 17 · round 5`.
    pub title: String,
    /// The board.
    pub board: Board,
    /// One line per seat, in seat order.
    pub seats: Vec<SeatLine>,
    /// Lines of text under the seats (how to read the board, a result).
    pub notes: Vec<String>,
    /// The key to the board's letters, which only the terminal picture
    /// uses (`O: ONE · V: TWO`); the drawn picture shows colours instead.
    pub letters_key: Option<&'static str>,
    /// Each colour's pieces beside the board (placement games; empty
    /// otherwise).
    pub stock: Vec<Stock>,
}

/// The display name of `seat` among `names`, or the seat's label (`ONE`,
/// `TWO`, …) when the name is blank or missing.
pub fn seat_name(names: &[String], seat: usize) -> String {
    const LABELS: [&str; 8] = [
        "ONE", "TWO", "THREE", "FOUR", "FIVE", "SIX", "SEVEN", "EIGHT",
    ];
    match names.get(seat).map(|n| n.trim()) {
        Some(name) if !name.is_empty() => name.to_owned(),
        _ => LABELS
            .get(seat)
            .map_or_else(|| seat.to_string(), |l| (*l).to_owned()),
    }
}

/// The heading: the game's name, the turn and round, and whether the game
/// is over.
pub(crate) fn title(name: &str, turn: u32, round: u32, over: bool) -> String {
    let mut title = format!("{name} · turn {turn} · round {round}");
    if over {
        title.push_str(" · game over");
    }
    title
}

/// The note naming the last move and who is to move, if either is known.
pub(crate) fn move_note(
    last_move: Option<impl std::fmt::Display>,
    to_move: Option<impl std::fmt::Display>,
) -> Option<String> {
    let last = last_move.map(|mv| format!("last move: {mv}"));
    let next = to_move.map(|who| format!("{who} to move"));
    match (last, next) {
        (Some(last), Some(next)) => Some(format!("{last} · {next}")),
        (last, next) => last.or(next),
    }
}
