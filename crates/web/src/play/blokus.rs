//! The Blokus games' boards and moves for a person's page: the 20×20
//! games of four colours (the seasons 2021 and 2027, classic Blokus for
//! four, three and two players) and the 10×10 BLOKUS Champions League.

use spielleiter_protocol::seats::seat_label;
use spielleiter_rules::{
    blokus::{
        Classic, Color, Move, PieceKind, PieceSet, Placement, SwcBlokus, SwcVariant,
        bcl::{Bcl, BclKind, BclMove, PlaceTo},
    },
    entry,
    team::Team,
};

use super::board::{Board, Cell, Choice, GamePlay, Piece};

/// The page's colour of each Blokus colour.
fn fill(color: Color) -> &'static str {
    match color {
        Color::Blue => "blue",
        Color::Yellow => "yellow",
        Color::Red => "red",
        Color::Green => "green",
    }
}

/// The board of a 20×20 game: each field's colour, and the pieces the
/// colour to move has.
fn four_color_board(
    size: usize,
    color_at: impl Fn(i32, i32) -> Option<Color>,
    to_move: Color,
    remaining: PieceSet,
    key: String,
) -> Board {
    let mut board = Board::empty(size, size);
    for y in 0..size as i32 {
        for x in 0..size as i32 {
            if let Some(cell) = board.cell_mut(x, y) {
                cell.fill = color_at(x, y).map(fill);
            }
        }
    }
    board.color = Some(fill(to_move));
    board.pieces = PieceKind::ALL
        .iter()
        .map(|&kind| Piece {
            name: kind.name().to_owned(),
            cells: kind
                .canonical_cells()
                .iter()
                .map(|&(x, y)| [i32::from(x), i32::from(y)])
                .collect(),
            left: u32::from(remaining.contains(kind)),
        })
        .collect();
    board.key = key;
    board
}

/// A 20×20 move as the page offers it.
fn four_color_choice(mv: &Move) -> Choice {
    match mv {
        Move::Set(placement) => placement_choice(placement),
        Move::Skip(color) => Choice {
            label: format!("{} passes", color.name()),
            ..Choice::default()
        },
    }
}

fn placement_choice(placement: &Placement) -> Choice {
    Choice {
        label: format!(
            "{} at {},{}",
            placement.kind.name(),
            placement.x,
            placement.y
        ),
        piece: Some(placement.kind.name().to_owned()),
        from: None,
        cells: placement.cells().map(|(x, y)| [x, y]).collect(),
    }
}

/// The board of a season's game.
fn swc_board<V: SwcVariant>(game: &SwcBlokus<V>) -> Board {
    let color = game.current_color();
    four_color_board(
        spielleiter_rules::blokus::BOARD_SIZE,
        |x, y| game.color_at(x, y),
        color,
        game.remaining(color),
        "ONE plays blue and red, TWO yellow and green".to_owned(),
    )
}

/// `GamePlay` for the 20×20 games (the seasons and classic Blokus): the
/// board drawn by `$board`, the moves all alike.
macro_rules! four_color_play {
    ($board:ident: $($entry:ident),+) => {
        $(
            impl GamePlay for entry::$entry {
                fn board(game: &Self::Game) -> Board {
                    $board(game)
                }

                fn choice(_game: &Self::Game, mv: &Move) -> Choice {
                    four_color_choice(mv)
                }
            }
        )+
    };
}

four_color_play!(swc_board: Blokus2021, Blokus2027);

/// The board of a classic game.
fn classic_board(game: &Classic) -> Board {
    let color = game.current_color();
    let players = game.players();
    let seats: Vec<String> = (0..players.count())
        .map(|seat| {
            let colors: Vec<&str> = players
                .scoring_colors(seat)
                .iter()
                .map(|&c| fill(c))
                .collect();
            format!("{} plays {}", seat_label(seat), colors.join(" and "))
        })
        .collect();
    four_color_board(
        spielleiter_rules::blokus::BOARD_SIZE,
        |x, y| game.color_at(x, y),
        color,
        game.remaining(color),
        seats.join(", "),
    )
}

four_color_play!(classic_board: BlokusClassic, BlokusClassic3, BlokusClassic2);

/// The page's colour of a BCL player.
fn bcl_fill(team: Team) -> &'static str {
    match team {
        Team::One => "blue",
        Team::Two => "yellow",
    }
}

impl GamePlay for entry::BlokusBcl {
    fn board(game: &Bcl) -> Board {
        let side = spielleiter_rules::blokus::bcl::BCL_BOARD_SIZE;
        let mut board = Board::empty(side, side);
        // The BCL game counts (row, col); the page (x, y) = (col, row).
        for row in 0..side as i32 {
            for col in 0..side as i32 {
                if let Some(cell) = board.cell_mut(col, row) {
                    *cell = Cell {
                        fill: game.player_at(row, col).map(bcl_fill),
                        text: None,
                    };
                }
            }
        }
        let player = game.current_player();
        board.color = Some(bcl_fill(player));
        board.pieces = BclKind::ALL
            .iter()
            .map(|&kind| Piece {
                name: kind.name().to_owned(),
                cells: kind
                    .canonical_cells()
                    .iter()
                    .map(|&(x, y)| [i32::from(x), i32::from(y)])
                    .collect(),
                left: game.remaining(player, kind),
            })
            .collect();
        board.key = "ONE plays blue, TWO yellow".to_owned();
        board
    }

    fn choice(_game: &Bcl, mv: &BclMove) -> Choice {
        match mv {
            BclMove::Place(place) => bcl_choice(place),
            BclMove::Pass(player) => Choice {
                label: format!("{} passes", player.name()),
                ..Choice::default()
            },
        }
    }
}

fn bcl_choice(place: &PlaceTo) -> Choice {
    let cells: Vec<[i32; 2]> = place.cells().map(|(row, col)| [col, row]).collect();
    Choice {
        label: format!(
            "{} at row {}, column {}",
            place.kind.name(),
            place.row,
            place.col
        ),
        piece: Some(place.kind.name().to_owned()),
        from: None,
        cells,
    }
}
