//! Draws a [`Scene`] as an SVG document: the heading, the board with
//! coordinates as the game names them, the last move marked, each colour's
//! pieces beside the board, and one line per seat; or the board and its
//! pieces alone, for a page that shows the rest itself.
//!
//! The output is deterministic (golden tests compare it byte for byte) and
//! machine-readable where it matters: the root carries `data-game`,
//! `data-turn` and `data-board` (where the fields lie), each colour's tiles
//! are one `<path data-color="…">` in field units (`M x y h1v1h-1z` per
//! field), each piece a `<g data-field="x,y" data-piece="…" data-team="…"
//! data-height="…">`, the last move's marks are inside `data-last-move`, and
//! a colour's pieces beside the board are a `<g data-stock="…"
//! data-left="N">` with a `<path data-placed>` of the placed pieces' cells
//! and a `<path data-pieces-left>` of the others' (`M x y h3v3h-3z` per
//! cell, in units of half a cell).

use std::fmt::Write;

use crate::scene::{Board, Ground, Scene, SeatLine, Stock, Token};

/// Space around everything.
const PAD: u32 = 16;
/// The heading's line.
const TITLE_HEIGHT: u32 = 28;
/// Room for the coordinates left of and above the board.
const LABEL: u32 = 18;
/// One seat's line.
const SEAT_HEIGHT: u32 = 24;
/// One note's line.
const NOTE_HEIGHT: u32 = 18;
/// The narrowest picture, so that the seat lines fit.
const MIN_WIDTH: u32 = 400;
/// Longer names are cut (the picture does not measure text).
const MAX_NAME_CHARS: usize = 28;

const BACKGROUND: &str = "#fbfaf6";
const INK: &str = "#222222";
const MUTED: &str = "#6b6b6b";
const GRID_GROUND: &str = "#eeeae0";
const GRID_LINE: &str = "#d2cbbb";
const LIGHT_FIELD: &str = "#e6f0f4";
const DARK_FIELD: &str = "#bcd6e0";
const BOARD_EDGE: &str = "#8a8273";
const LAST_MOVE_FIELD: &str = "#f3cf3d";
const AMBER: &str = "#e89a1c";

/// The SVG document of `scene`: heading, board, pieces, seats and notes.
pub(crate) fn draw(scene: &Scene) -> String {
    draw_picture(scene, true)
}

/// The SVG document of `scene`'s board alone: its coordinates, fields and
/// pieces, and each colour's pieces beside it, without heading, seats or
/// notes (a page that lists those itself).
pub(crate) fn draw_board(scene: &Scene) -> String {
    draw_picture(scene, false)
}

/// The picture, `whole` or the board alone. The root carries where the
/// board's fields lie, `data-board="X Y FIELD COLUMNS ROWS"` in the
/// picture's pixels, so that a page can lay its own marks over them.
fn draw_picture(scene: &Scene, whole: bool) -> String {
    let board = &scene.board;
    let board_width = board.columns as u32 * board.field_px;
    let board_height = board.rows as u32 * board.field_px;
    let stock_width = if scene.stock.is_empty() {
        0
    } else {
        STOCK_GAP + STOCK_WIDTH
    };
    let stock_layouts: Vec<StockLayout> = scene.stock.iter().map(StockLayout::of).collect();
    let stock_height = stock_layouts
        .iter()
        .map(|layout| layout.height + STOCK_BLOCK_GAP)
        .sum::<u32>()
        .saturating_sub(STOCK_BLOCK_GAP);
    let content_width = PAD + LABEL + board_width + stock_width + PAD;
    let width = if whole {
        content_width.max(MIN_WIDTH)
    } else {
        content_width
    };
    let board_x = PAD + LABEL;
    let board_y = if whole {
        PAD + TITLE_HEIGHT + LABEL
    } else {
        PAD + LABEL
    };
    let seats_y = board_y + board_height.max(stock_height) + 14;
    let notes_y = seats_y + scene.seats.len() as u32 * SEAT_HEIGHT;
    // A long note (a move in words, a result) goes on as many lines as it
    // needs within the picture's width, rather than being cut at its edge.
    let note_chars = ((width - 2 * PAD) as f32 / (NOTE_SIZE * NOTE_EM_PER_CHAR)) as usize;
    let notes: Vec<&str> = if whole {
        scene
            .notes
            .iter()
            .flat_map(|note| wrapped(note, note_chars))
            .collect()
    } else {
        Vec::new()
    };
    let height = if whole {
        notes_y + notes.len() as u32 * NOTE_HEIGHT + PAD
    } else {
        board_y + board_height.max(stock_height) + PAD
    };

    let mut out = String::with_capacity(8 * 1024);
    let _ = write!(
        out,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" data-game="{}" data-turn="{}" data-board="{board_x} {board_y} {} {} {}" font-family="DejaVu Sans, Verdana, Arial, sans-serif">"##,
        scene.game_id, scene.turn, board.field_px, board.columns, board.rows
    );
    let _ = write!(
        out,
        r##"<rect width="{width}" height="{height}" fill="{BACKGROUND}"/>"##
    );
    if whole {
        let _ = write!(
            out,
            r##"<text x="{PAD}" y="{}" font-size="{}" font-weight="bold" fill="{INK}">{}</text>"##,
            PAD + 18,
            title_size(&scene.title, width - 2 * PAD),
            escape(&scene.title)
        );
    }
    draw_coordinates(&mut out, board, board_x, board_y);
    let _ = write!(out, r#"<g transform="translate({board_x} {board_y})">"#);
    draw_ground(&mut out, board);
    draw_tiles(&mut out, board);
    draw_tokens(&mut out, board);
    let _ = write!(
        out,
        r##"<rect width="{board_width}" height="{board_height}" fill="none" stroke="{BOARD_EDGE}" stroke-width="1.5"/>"##
    );
    out.push_str("</g>");
    let mut stock_y = board_y;
    for (stock, layout) in scene.stock.iter().zip(&stock_layouts) {
        draw_stock(
            &mut out,
            board,
            stock,
            layout,
            board_x + board_width + STOCK_GAP,
            stock_y,
        );
        stock_y += layout.height + STOCK_BLOCK_GAP;
    }
    if whole {
        for (index, seat) in scene.seats.iter().enumerate() {
            draw_seat(
                &mut out,
                board,
                seat,
                seats_y + index as u32 * SEAT_HEIGHT,
                width,
            );
        }
        for (index, note) in notes.iter().enumerate() {
            let _ = write!(
                out,
                r##"<text x="{PAD}" y="{}" font-size="12" fill="{MUTED}">{}</text>"##,
                notes_y + index as u32 * NOTE_HEIGHT + 13,
                escape(note)
            );
        }
    }
    out.push_str("</svg>");
    out
}

/// Room between the board and the pieces beside it.
const STOCK_GAP: u32 = 16;
/// The widest row of a colour's pieces beside the board.
const STOCK_WIDTH: u32 = 168;
/// The side of a piece's cell beside the board.
const STOCK_CELL: u32 = 6;
/// Room between two pieces, and between two rows of pieces.
const STOCK_SPACE: u32 = 4;
/// The line above a colour's pieces: its swatch and how many are left.
const STOCK_HEADING: u32 = 16;
/// Room between two colours' pieces.
const STOCK_BLOCK_GAP: u32 = 10;
/// A placed piece beside the board: a pale shape, so that the set keeps
/// its places and the pieces left stand out.
const PLACED_PIECE: &str = "#e2ddd1";

/// A piece's place beside the board: its top left in pixels from its
/// colour's block, and its cells as drawn.
struct StockPlace {
    x: u32,
    y: u32,
    cells: Vec<(u8, u8)>,
}

/// Where each of a colour's pieces goes beside the board: in rows of at
/// most [`STOCK_WIDTH`] pixels, each piece lying flat (wider than high).
struct StockLayout {
    /// Each piece's place, in the stock's order.
    places: Vec<StockPlace>,
    /// The block's height with its heading.
    height: u32,
}

impl StockLayout {
    fn of(stock: &Stock) -> StockLayout {
        let mut places = Vec::with_capacity(stock.pieces.len());
        let (mut x, mut y, mut row_height) = (0, STOCK_HEADING, 0);
        for piece in &stock.pieces {
            let width = piece.cells.iter().map(|c| c.0).max().unwrap_or(0);
            let height = piece.cells.iter().map(|c| c.1).max().unwrap_or(0);
            // A piece is the same piece turned or mirrored: lying flat, the
            // rows stay low.
            let cells: Vec<(u8, u8)> = if height > width {
                piece.cells.iter().map(|&(cx, cy)| (cy, cx)).collect()
            } else {
                piece.cells.clone()
            };
            let columns = u32::from(width.max(height)) + 1;
            let rows = u32::from(width.min(height)) + 1;
            let (piece_width, piece_height) = (columns * STOCK_CELL, rows * STOCK_CELL);
            if x > 0 && x + piece_width > STOCK_WIDTH {
                x = 0;
                y += row_height + STOCK_SPACE;
                row_height = 0;
            }
            places.push(StockPlace { x, y, cells });
            x += piece_width + STOCK_SPACE;
            row_height = row_height.max(piece_height);
        }
        StockLayout {
            places,
            height: y + row_height,
        }
    }
}

/// A colour's pieces beside the board, at `(left, top)`: a heading with
/// its swatch and the number left, then each piece of its set, those left
/// in the colour and those placed pale.
fn draw_stock(
    out: &mut String,
    board: &Board,
    stock: &Stock,
    layout: &StockLayout,
    left: u32,
    top: u32,
) {
    let Some(swatch) = board.palette.get(stock.color) else {
        return;
    };
    let count = stock.left();
    let _ = write!(
        out,
        r##"<g data-stock="{}" data-left="{count}" transform="translate({left} {top})"><rect width="10" height="10" y="1" rx="2" fill="{}" stroke="{INK}" stroke-opacity="0.5"/><text x="15" y="10" font-size="11" fill="{MUTED}">{count} {} left</text>"##,
        swatch.name,
        swatch.fill,
        if count == 1 { "piece" } else { "pieces" }
    );
    // Two paths, the placed pieces and those left, in units of half a
    // cell's side (places and cells fall on even pixels): a board's event
    // on the live pages stays small.
    const UNIT: u32 = 2;
    for (left, fill, mark) in [
        (false, PLACED_PIECE, "data-placed"),
        (true, swatch.fill, "data-pieces-left"),
    ] {
        let mut d = String::new();
        for (piece, StockPlace { x, y, cells }) in stock.pieces.iter().zip(&layout.places) {
            if piece.left != left {
                continue;
            }
            for &(cx, cy) in cells {
                let side = STOCK_CELL / UNIT;
                d.push('M');
                push_number(&mut d, x / UNIT + u32::from(cx) * side);
                d.push(' ');
                push_number(&mut d, y / UNIT + u32::from(cy) * side);
                d.push('h');
                push_number(&mut d, side);
                d.push('v');
                push_number(&mut d, side);
                d.push_str("h-");
                push_number(&mut d, side);
                d.push('z');
            }
        }
        if !d.is_empty() {
            let _ = write!(
                out,
                r#"<path {mark}="" fill="{fill}" transform="scale({UNIT})" d="{d}"/>"#
            );
        }
    }
    out.push_str("</g>");
}

/// The heading's font size: 16, or smaller for a heading that would not
/// fit into `room` pixels (`Classic Blokus, 4 players · turn 80 · round 21
/// · game over` on a 530-pixel picture). Estimated from the number of
/// characters: bold DejaVu Sans averages under 0.66 em per character, so
/// the estimate errs on the side of room to spare.
/// The notes' font size in pixels.
const NOTE_SIZE: f32 = 12.0;
/// A generous mean width of a note's characters, in em.
const NOTE_EM_PER_CHAR: f32 = 0.6;

/// `text` in lines of at most `chars` characters, broken at spaces (a
/// word longer than a line stands alone on its line).
fn wrapped(text: &str, chars: usize) -> Vec<&str> {
    let mut lines = Vec::new();
    let mut rest = text.trim();
    while rest.chars().count() > chars.max(1) {
        let cut = rest
            .char_indices()
            .take_while(|&(index, _)| rest[..index].chars().count() <= chars)
            .filter(|&(_, c)| c == ' ')
            .map(|(index, _)| index)
            .last();
        // A first word longer than a line: the line ends after it.
        let Some(cut) = cut.filter(|&cut| cut > 0).or_else(|| rest.find(' ')) else {
            break;
        };
        lines.push(&rest[..cut]);
        rest = rest[cut..].trim_start();
    }
    lines.push(rest);
    lines
}

fn title_size(title: &str, room: u32) -> f32 {
    const LARGEST: f32 = 16.0;
    const EM_PER_CHAR: f32 = 0.66;
    let chars = title.chars().count().max(1) as f32;
    let fitting = room as f32 / (chars * EM_PER_CHAR);
    // Halves, so that the SVG stays short and stable.
    (fitting.min(LARGEST) * 2.0).floor() / 2.0
}

/// The columns' names above the board, the rows' left of it, as the game
/// names them.
fn draw_coordinates(out: &mut String, board: &Board, board_x: u32, board_y: u32) {
    let field = board.field_px;
    let _ = write!(
        out,
        r##"<g font-size="10" fill="{MUTED}" text-anchor="middle">"##
    );
    let mut label = |x: u32, y: u32, name: &str| {
        out.push_str(r#"<text x=""#);
        push_number(out, x);
        out.push_str(r#"" y=""#);
        push_number(out, y);
        out.push_str(r#"">"#);
        out.push_str(&escape(name));
        out.push_str("</text>");
    };
    for (x, name) in board.column_names.iter().enumerate() {
        label(board_x + x as u32 * field + field / 2, board_y - 6, name);
    }
    for (y, name) in board.row_names.iter().enumerate() {
        label(
            board_x - LABEL / 2,
            board_y + y as u32 * field + field / 2 + 4,
            name,
        );
    }
    out.push_str("</g>");
}

/// The empty board, and on a checkered board the last move's fields (a
/// grid board marks them on top of the tiles instead).
fn draw_ground(out: &mut String, board: &Board) {
    let field = board.field_px;
    let (width, height) = (board.columns as u32 * field, board.rows as u32 * field);
    match board.ground {
        Ground::Grid => {
            let _ = write!(
                out,
                r##"<rect width="{width}" height="{height}" fill="{GRID_GROUND}"/><path fill="none" stroke="{GRID_LINE}" stroke-width="1" d=""##
            );
            for x in 1..board.columns as u32 {
                out.push('M');
                push_number(out, x * field);
                out.push_str(" 0V");
                push_number(out, height);
            }
            for y in 1..board.rows as u32 {
                out.push_str("M0 ");
                push_number(out, y * field);
                out.push('H');
                push_number(out, width);
            }
            out.push_str(r#""/>"#);
        }
        Ground::Checkered => {
            let _ = write!(
                out,
                r##"<rect width="{width}" height="{height}" fill="{LIGHT_FIELD}"/><path fill="{DARK_FIELD}" transform="scale({field})" d=""##
            );
            for y in 0..board.rows {
                for x in 0..board.columns {
                    if (x + y) % 2 == 1 {
                        push_field(out, x, y);
                    }
                }
            }
            out.push_str(r#""/>"#);
            if !board.last_move.is_empty() {
                let _ = write!(
                    out,
                    r##"<path data-last-move="" fill="{LAST_MOVE_FIELD}" fill-opacity="0.75" transform="scale({field})" d=""##
                );
                for &(x, y) in &board.last_move {
                    push_field(out, x, y);
                }
                out.push_str(r#""/>"#);
            }
        }
    }
}

/// One path per colour (its fields in field units), the outlines where
/// fields of different colours or a tile and an empty field meet (on a
/// Blokus board: exactly the outlines of the pieces, since pieces of one
/// colour never share an edge), and a dot on every field of the last move.
fn draw_tiles(out: &mut String, board: &Board) {
    if board.tiles.is_empty() {
        return;
    }
    let field = board.field_px;
    for (color, swatch) in board.palette.iter().enumerate() {
        let mut fields = (0..board.rows)
            .flat_map(|y| (0..board.columns).map(move |x| (x, y)))
            .filter(|&(x, y)| board.tile(x, y) == Some(color))
            .peekable();
        if fields.peek().is_none() {
            continue;
        }
        let _ = write!(
            out,
            r#"<path data-color="{}" fill="{}" transform="scale({field})" d=""#,
            swatch.name, swatch.fill
        );
        for (x, y) in fields {
            push_field(out, x, y);
        }
        out.push_str(r#""/>"#);
    }
    draw_outlines(out, board);
    if !board.last_move.is_empty() {
        let radius = field as f32 * 0.17;
        out.push_str(r#"<g data-last-move="">"#);
        for &(x, y) in &board.last_move {
            let _ = write!(
                out,
                r##"<circle cx="{}" cy="{}" r="{}" fill="#ffffff" stroke="{INK}" stroke-width="1.2"/>"##,
                number(field as f32 * (x as f32 + 0.5)),
                number(field as f32 * (y as f32 + 0.5)),
                number(radius)
            );
        }
        out.push_str("</g>");
    }
}

/// Lines between differing fields, joined into runs along each grid line.
fn draw_outlines(out: &mut String, board: &Board) {
    let field = board.field_px;
    let (columns, rows) = (board.columns, board.rows);
    // Outside the board counts as empty.
    let at = |x: isize, y: isize| -> Option<usize> {
        if x < 0 || y < 0 || x as usize >= columns || y as usize >= rows {
            None
        } else {
            board.tile(x as usize, y as usize)
        }
    };
    let mut d = String::new();
    // Horizontal lines: between row y-1 and row y.
    for y in 0..=rows as isize {
        let mut run: Option<isize> = None;
        for x in 0..=columns as isize {
            let edge = x < columns as isize && {
                let (above, below) = (at(x, y - 1), at(x, y));
                above != below
            };
            match (edge, run) {
                (true, None) => run = Some(x),
                (false, Some(start)) => {
                    push_line(
                        &mut d,
                        [start as u32 * field, y as u32 * field],
                        'h',
                        (x - start) as u32 * field,
                    );
                    run = None;
                }
                _ => {}
            }
        }
    }
    // Vertical lines: between column x-1 and column x.
    for x in 0..=columns as isize {
        let mut run: Option<isize> = None;
        for y in 0..=rows as isize {
            let edge = y < rows as isize && at(x - 1, y) != at(x, y);
            match (edge, run) {
                (true, None) => run = Some(y),
                (false, Some(start)) => {
                    push_line(
                        &mut d,
                        [x as u32 * field, start as u32 * field],
                        'v',
                        (y - start) as u32 * field,
                    );
                    run = None;
                }
                _ => {}
            }
        }
    }
    if !d.is_empty() {
        let _ = write!(
            out,
            r##"<path fill="none" stroke="{INK}" stroke-opacity="0.6" stroke-width="1.5" stroke-linecap="square" d="{d}"/>"##
        );
    }
}

/// Each piece as a disc of its owner's colour with its letter; a tower
/// shows the buried piece's disc under it and its height in a badge.
fn draw_tokens(out: &mut String, board: &Board) {
    let field = board.field_px as f32;
    let radius = field * 0.38;
    for token in &board.tokens {
        let Token {
            x,
            y,
            color,
            under,
            letter,
            height,
            ..
        } = token;
        let swatch = &board.palette[*color];
        let (cx, cy) = (field * (*x as f32 + 0.5), field * (*y as f32 + 0.5));
        let _ = write!(
            out,
            r#"<g data-field="{x},{y}" data-piece="{letter}" data-team="{}" data-height="{height}">"#,
            swatch.name
        );
        let offset = field * 0.06;
        if let Some(under) = under {
            let _ = write!(
                out,
                r##"<circle cx="{}" cy="{}" r="{}" fill="{}" stroke="{INK}" stroke-width="1.5"/>"##,
                number(cx + offset),
                number(cy + offset),
                number(radius),
                board.palette[*under].fill
            );
        }
        let (top_x, top_y) = match under {
            Some(_) => (cx - offset, cy - offset),
            None => (cx, cy),
        };
        let _ = write!(
            out,
            r##"<circle cx="{}" cy="{}" r="{}" fill="{}" stroke="{INK}" stroke-width="1.5"/>"##,
            number(top_x),
            number(top_y),
            number(radius),
            swatch.fill
        );
        let _ = write!(
            out,
            r##"<text x="{}" y="{}" font-size="{}" font-weight="bold" fill="#ffffff" text-anchor="middle">{letter}</text>"##,
            number(top_x),
            number(top_y + field * 0.15),
            number(field * 0.42)
        );
        if *height > 1 {
            let (bx, by) = (cx + radius * 0.8, cy - radius * 0.8);
            let _ = write!(
                out,
                r##"<circle cx="{}" cy="{}" r="{}" fill="#ffffff" stroke="{INK}" stroke-width="1.2"/><text x="{}" y="{}" font-size="{}" font-weight="bold" fill="{INK}" text-anchor="middle">{height}</text>"##,
                number(bx),
                number(by),
                number(field * 0.16),
                number(bx),
                number(by + field * 0.07),
                number(field * 0.2)
            );
        }
        out.push_str("</g>");
    }
}

/// A seat's line: a marker if it is to move, its colours, its name, gems,
/// and its score at the right edge.
fn draw_seat(out: &mut String, board: &Board, seat: &SeatLine, top: u32, width: u32) {
    let baseline = top + 16;
    if seat.to_move {
        let _ = write!(
            out,
            r##"<path data-to-move="" d="M{PAD} {}l9 6-9 6z" fill="{INK}"/>"##,
            top + 5
        );
    }
    let mut x = PAD + 14;
    for &color in &seat.colors {
        let _ = write!(
            out,
            r##"<rect x="{x}" y="{}" width="14" height="14" rx="2" fill="{}" stroke="{INK}" stroke-opacity="0.5"/>"##,
            top + 4,
            board.palette[color].fill
        );
        x += 18;
    }
    let name: String = if seat.name.chars().count() > MAX_NAME_CHARS {
        seat.name
            .chars()
            .take(MAX_NAME_CHARS - 1)
            .chain(['…'])
            .collect()
    } else {
        seat.name.clone()
    };
    let weight = if seat.to_move { "bold" } else { "normal" };
    let _ = write!(
        out,
        r##"<text x="{}" y="{baseline}" font-size="13" font-weight="{weight}" fill="{INK}">{}</text>"##,
        x + 4,
        escape(&name)
    );
    // Left of the score; its width estimated from an average glyph (the
    // picture does not measure text).
    let score_width = (seat.score.chars().count() as f32 * 13.0 * 0.56) as u32;
    let gems_end = (width - PAD).saturating_sub(score_width + 10);
    for gem in 0..seat.gems {
        let gx = gems_end.saturating_sub(gem * 14 + 5);
        let _ = write!(
            out,
            r##"<path data-gem="" d="M{gx} {}l5 6-5 6-5-6z" fill="{AMBER}" stroke="{INK}" stroke-width="0.8"/>"##,
            top + 5
        );
    }
    let _ = write!(
        out,
        r##"<text x="{}" y="{baseline}" font-size="13" fill="{INK}" text-anchor="end">{}</text>"##,
        width - PAD,
        escape(&seat.score)
    );
}

/// Appends `n` in decimal. The board's many numbers are written this way:
/// through `write!` each costs a formatter call, and a page's live board is
/// drawn several times a second.
fn push_number(out: &mut String, n: u32) {
    let mut digits = [0u8; 10];
    let mut start = digits.len();
    let mut rest = n;
    loop {
        start -= 1;
        digits[start] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    for &digit in &digits[start..] {
        out.push(char::from(digit));
    }
}

/// Appends the path of field `(x, y)` in field units: `M x y h1v1h-1z`.
fn push_field(out: &mut String, x: usize, y: usize) {
    out.push('M');
    push_number(out, x as u32);
    out.push(' ');
    push_number(out, y as u32);
    out.push_str("h1v1h-1z");
}

/// Appends a line from `start` along `direction` (`h` or `v`), `length`
/// long: `M x y h length`.
fn push_line(out: &mut String, [x, y]: [u32; 2], direction: char, length: u32) {
    out.push('M');
    push_number(out, x);
    out.push(' ');
    push_number(out, y);
    out.push(direction);
    push_number(out, length);
}

/// A coordinate with at most one decimal, without a trailing `.0`.
fn number(value: f32) -> String {
    if value < 0.0 {
        return format!("-{}", number(-value));
    }
    let tenths = (value * 10.0).round() as i64;
    if tenths % 10 == 0 {
        (tenths / 10).to_string()
    } else {
        format!("{}.{}", tenths / 10, tenths % 10)
    }
}

/// `text` with the characters XML gives a meaning escaped.
pub(crate) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            // Control characters are not allowed in XML 1.0.
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_note_is_broken_at_spaces_within_the_width() {
        let note = "last move: Green places the T pentomino on (16,6) (16,7) (15,8)";
        let lines = wrapped(note, 30);
        assert_eq!(
            lines,
            [
                "last move: Green places the T",
                "pentomino on (16,6) (16,7)",
                "(15,8)"
            ]
        );
        assert!(lines.iter().all(|l| l.chars().count() <= 30));
        assert_eq!(wrapped("short", 30), ["short"]);
        assert_eq!(
            wrapped("averyveryverylongword and more", 10),
            ["averyveryverylongword", "and more"]
        );
    }

    #[test]
    fn numbers_are_written_as_write_writes_them() {
        for n in [0, 1, 9, 10, 99, 100, 479, 1000, 65_535, u32::MAX] {
            let mut out = "x".to_owned();
            push_number(&mut out, n);
            assert_eq!(out, format!("x{n}"));
        }
        let mut path = String::new();
        push_field(&mut path, 3, 19);
        push_line(&mut path, [24, 0], 'v', 480);
        assert_eq!(path, "M3 19h1v1h-1zM24 0v480");
    }

    #[test]
    fn numbers_have_at_most_one_decimal() {
        assert_eq!(number(12.0), "12");
        assert_eq!(number(4.08), "4.1");
        assert_eq!(number(0.5), "0.5");
        assert_eq!(number(-1.25), "-1.3");
    }

    #[test]
    fn text_is_escaped() {
        assert_eq!(
            escape(r#"<a & "b">'"#),
            "&lt;a &amp; &quot;b&quot;&gt;&#39;"
        );
        assert_eq!(escape("a\u{0}b"), "a b");
    }
}
