//! Draws a [`Scene`] as text for a terminal: the heading, the board with
//! coordinates as the game names them, one line per seat, and how many
//! pieces each colour has left; with `color` the fields get ANSI
//! background colours.
//!
//! Blokus boards use one letter per field (`B`, `Y`, `R`, `G`; `.` empty)
//! and lower-case letters for the last move's fields; with colour two
//! blanks per field and `()` on the last move. Ostseeschach fields are the
//! official two characters (`MM`, `r2`; lower case for team TWO) with `>`
//! before the fields of the last move.

use std::fmt::Write;

use crate::scene::{Board, Scene};

/// ANSI: back to normal.
const RESET: &str = "\x1b[0m";
/// ANSI: the background of the last move's fields on a board of pieces.
const LAST_MOVE_BACKGROUND: u8 = 43;

/// The terminal picture of `scene`.
pub(crate) fn draw(scene: &Scene, color: bool) -> String {
    let board = &scene.board;
    let width = field_width(board, color);
    let mut out = String::with_capacity(2048);
    out.push_str(&scene.title);
    out.push('\n');
    draw_header(&mut out, &board.column_names, width);
    for (y, name) in board.row_names.iter().enumerate().take(board.rows) {
        let _ = write!(out, "{name:>2} ");
        for x in 0..board.columns {
            draw_field(&mut out, board, x, y, color);
        }
        out.push('\n');
    }
    for seat in &scene.seats {
        let marker = if seat.to_move { "> " } else { "  " };
        let colors: Vec<&str> = seat
            .colors
            .iter()
            .map(|&c| board.palette[c].label)
            .collect();
        let _ = writeln!(
            out,
            "{marker}{} ({}): {}",
            seat.name,
            colors.join(", "),
            seat.score
        );
    }
    if !scene.stock.is_empty() {
        let left: Vec<String> = scene
            .stock
            .iter()
            .filter_map(|stock| {
                let swatch = board.palette.get(stock.color)?;
                Some(format!("{} {}", swatch.label, stock.left()))
            })
            .collect();
        let _ = writeln!(out, "pieces left: {}", left.join(", "));
    }
    for note in scene
        .letters_key
        .iter()
        .copied()
        .chain(scene.notes.iter().map(String::as_str))
    {
        out.push_str(note);
        out.push('\n');
    }
    out
}

/// Characters per field.
fn field_width(board: &Board, color: bool) -> usize {
    match (board.tiles.is_empty(), color) {
        (true, _) => 3,
        (false, false) => 1,
        (false, true) => 2,
    }
}

/// The columns' names: for one-character fields and names longer than one
/// character (the numbers of a wide board), two lines (tens, ones); else
/// one line with each name right-aligned in its field.
fn draw_header(out: &mut String, names: &[String], width: usize) {
    let last = |name: &String, from_end: usize| name.chars().rev().nth(from_end);
    if width == 1 {
        if names.iter().any(|name| name.chars().count() > 1) {
            out.push_str("   ");
            for name in names {
                out.push(last(name, 1).unwrap_or('0'));
            }
            out.push('\n');
        }
        out.push_str("   ");
        for name in names {
            out.push(last(name, 0).unwrap_or(' '));
        }
    } else {
        out.push_str("   ");
        for name in names {
            let _ = write!(out, "{name:>width$}");
        }
    }
    out.push('\n');
}

fn draw_field(out: &mut String, board: &Board, x: usize, y: usize, color: bool) {
    let last = board.in_last_move(x, y);
    if board.tiles.is_empty() {
        let token = board.tokens.iter().find(|t| (t.x, t.y) == (x, y));
        let text = token.map_or("..", |t| t.label.as_str());
        let mark = if last { '>' } else { ' ' };
        match (color, token) {
            (true, Some(token)) => {
                let background = board.palette[token.color].ansi_background;
                let _ = write!(out, "{mark}\x1b[1;97;{background}m{text}{RESET}");
            }
            (true, None) if last => {
                let _ = write!(out, "{mark}\x1b[{LAST_MOVE_BACKGROUND}m{text}{RESET}");
            }
            _ => {
                out.push(mark);
                out.push_str(text);
            }
        }
        return;
    }
    match (board.tile(x, y), color) {
        (Some(tile), false) => {
            let letter = board.palette[tile].letter;
            out.push(if last {
                letter.to_ascii_lowercase()
            } else {
                letter
            });
        }
        (None, false) => out.push('.'),
        (Some(tile), true) => {
            let background = board.palette[tile].ansi_background;
            let text = if last { "()" } else { "  " };
            let _ = write!(out, "\x1b[1;30;{background}m{text}{RESET}");
        }
        (None, true) => {
            let _ = write!(out, "\x1b[2m· {RESET}");
        }
    }
}
