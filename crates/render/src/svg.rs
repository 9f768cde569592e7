//! Draws a [`Scene`] as an SVG document: the heading, the board with
//! coordinates, the last move marked, and one line per seat.
//!
//! The output is deterministic (golden tests compare it byte for byte) and
//! machine-readable where it matters: the root carries `data-game` and
//! `data-turn`, each colour's tiles are one `<path data-color="…">` in
//! field units (`M x y h1v1h-1z` per field), each piece a `<g
//! data-field="x,y" data-piece="…" data-team="…" data-height="…">`, and the
//! last move's marks are inside `data-last-move`.

use std::fmt::Write;

use crate::scene::{Board, Ground, Scene, SeatLine, Token};

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

/// The SVG document of `scene`.
pub(crate) fn draw(scene: &Scene) -> String {
    let board = &scene.board;
    let board_width = board.columns as u32 * board.field_px;
    let board_height = board.rows as u32 * board.field_px;
    let width = (PAD + LABEL + board_width + PAD).max(MIN_WIDTH);
    let board_x = PAD + LABEL;
    let board_y = PAD + TITLE_HEIGHT + LABEL;
    let seats_y = board_y + board_height + 14;
    let notes_y = seats_y + scene.seats.len() as u32 * SEAT_HEIGHT;
    // A long note (a move in words, a result) goes on as many lines as it
    // needs within the picture's width, rather than being cut at its edge.
    let note_chars = ((width - 2 * PAD) as f32 / (NOTE_SIZE * NOTE_EM_PER_CHAR)) as usize;
    let notes: Vec<&str> = scene
        .notes
        .iter()
        .flat_map(|note| wrapped(note, note_chars))
        .collect();
    let height = notes_y + notes.len() as u32 * NOTE_HEIGHT + PAD;

    let mut out = String::with_capacity(8 * 1024);
    let _ = write!(
        out,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" data-game="{}" data-turn="{}" font-family="DejaVu Sans, Verdana, Arial, sans-serif">"##,
        scene.game_id, scene.turn
    );
    let _ = write!(
        out,
        r##"<rect width="{width}" height="{height}" fill="{BACKGROUND}"/>"##
    );
    let _ = write!(
        out,
        r##"<text x="{PAD}" y="{}" font-size="{}" font-weight="bold" fill="{INK}">{}</text>"##,
        PAD + 18,
        title_size(&scene.title, width - 2 * PAD),
        escape(&scene.title)
    );
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
    out.push_str("</svg>");
    out
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

/// Column numbers above the board, row numbers left of it.
fn draw_coordinates(out: &mut String, board: &Board, board_x: u32, board_y: u32) {
    let field = board.field_px;
    let _ = write!(
        out,
        r##"<g font-size="10" fill="{MUTED}" text-anchor="middle">"##
    );
    let mut label = |x: u32, y: u32, number: u32| {
        out.push_str(r#"<text x=""#);
        push_number(out, x);
        out.push_str(r#"" y=""#);
        push_number(out, y);
        out.push_str(r#"">"#);
        push_number(out, number);
        out.push_str("</text>");
    };
    for x in 0..board.columns as u32 {
        label(board_x + x * field + field / 2, board_y - 6, x);
    }
    for y in 0..board.rows as u32 {
        label(board_x - LABEL / 2, board_y + y * field + field / 2 + 4, y);
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
