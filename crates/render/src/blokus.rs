//! Pictures of the Blokus games: the board with every colour's fields, the
//! outlines of the pieces, the last placement marked, and per seat its
//! colours and points.

use spielleiter_rules::blokus::{Color, Move, SwcBlokus, SwcVariant, Team};

use crate::{
    Labels, Picture,
    scene::{Board, Ground, Scene, SeatLine, Swatch, move_note, seat_name, title},
};

/// The four colours in the rules' order (BLUE, YELLOW, RED, GREEN).
pub(crate) const FOUR_COLORS: [Swatch; 4] = [
    Swatch {
        name: "BLUE",
        label: "BLUE",
        fill: "#2f6fd6",
        letter: 'B',
        ansi_background: 44,
    },
    Swatch {
        name: "YELLOW",
        label: "YELLOW",
        fill: "#f0c02a",
        letter: 'Y',
        ansi_background: 43,
    },
    Swatch {
        name: "RED",
        label: "RED",
        fill: "#d8412b",
        letter: 'R',
        ansi_background: 41,
    },
    Swatch {
        name: "GREEN",
        label: "GREEN",
        fill: "#38a047",
        letter: 'G',
        ansi_background: 42,
    },
];

/// The side of a field of the 20×20 board, in pixels.
const FIELD_20: u32 = 24;

/// A square polyomino board of `size` fields: `color_at(x, y)` gives the
/// palette index on each field, `last_move` the fields of the last
/// placement (fields off the board are left out).
pub(crate) fn polyomino_board(
    size: usize,
    field_px: u32,
    palette: &'static [Swatch],
    color_at: impl Fn(i32, i32) -> Option<usize>,
    last_move: impl IntoIterator<Item = (i32, i32)>,
) -> Board {
    let mut board = Board::new(size, size, field_px, Ground::Grid, palette);
    board.tiles = (0..size as i32)
        .flat_map(|y| (0..size as i32).map(move |x| (x, y)))
        .map(|(x, y)| color_at(x, y))
        .collect();
    board.last_move = last_move
        .into_iter()
        .filter_map(|(x, y)| {
            let on_board = (0..size as i32).contains(&x) && (0..size as i32).contains(&y);
            on_board.then_some((x as usize, y as usize))
        })
        .collect();
    board
}

/// The text of a points total.
pub(crate) fn points(points: u32) -> String {
    match points {
        1 => "1 point".to_owned(),
        n => format!("{n} points"),
    }
}

/// A Software-Challenge Blokus game (2021 or 2027): seat ONE plays BLUE and
/// RED, seat TWO YELLOW and GREEN.
pub fn swc<V: SwcVariant>(
    game: &SwcBlokus<V>,
    name: &str,
    game_id: &'static str,
    labels: &Labels,
) -> Picture {
    let over = game.is_over();
    let last_move = game.last_move();
    let last_cells = match last_move {
        Some(Move::Set(placement)) => placement.cells().collect(),
        _ => Vec::new(),
    };
    let board = polyomino_board(
        20,
        FIELD_20,
        &FOUR_COLORS,
        |x, y| game.color_at(x, y).map(Color::index),
        last_cells,
    );
    let seats = Team::ALL
        .iter()
        .map(|&team| SeatLine {
            name: seat_name(&labels.names, team.index()),
            colors: team.colors().iter().map(|c| c.index()).collect(),
            score: points(game.team_points(team)),
            gems: 0,
            to_move: !over && game.current_team() == team,
        })
        .collect();
    let mut notes: Vec<String> = move_note(last_move, (!over).then(|| game.current_color()))
        .into_iter()
        .collect();
    notes.extend(labels.notes.iter().cloned());
    Picture(Scene {
        game_id,
        turn: game.turn(),
        title: title(name, game.turn(), game.round(), over),
        board,
        seats,
        notes,
    })
}
