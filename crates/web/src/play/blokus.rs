//! The Blokus games' boards and moves for a person's page: the 20×20
//! games of four colours (the seasons 2021 and 2027, classic Blokus for
//! four, three and two players) and the 10×10 BLOKUS Champions League.

use spielleiter_protocol::seats::seat_label;
use spielleiter_render::blokus::piece_noun;
use spielleiter_rules::{
    blokus::{
        Classic, ClassicMistake, Color, Mistake, Move, PieceKind, PieceSet, Placement, SwcBlokus,
        SwcVariant,
        bcl::{Bcl, BclKind, BclMistake, BclMove, PlaceTo},
    },
    entry,
    team::Team,
};

use super::board::{Attempt, Board, Cell, Choice, GamePlay, LEGAL_AFTER_ALL, Piece};

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
            words: piece_noun(kind.name()),
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
/// board drawn by `$board`, a refused click explained by `$refusal`, the
/// moves all alike.
macro_rules! four_color_play {
    ($board:ident, $refusal:ident: $($entry:ident),+) => {
        $(
            impl GamePlay for entry::$entry {
                fn board(game: &Self::Game) -> Board {
                    $board(game)
                }

                fn choice(_game: &Self::Game, mv: &Move) -> Choice {
                    four_color_choice(mv)
                }

                fn refusal(game: &Self::Game, attempt: &Attempt) -> String {
                    $refusal(game, attempt)
                }
            }
        )+
    };
}

four_color_play!(swc_board, swc_refusal: Blokus2021, Blokus2027);

/// Why the placement an attempt names is refused: `place` makes it from
/// the fields `(x, y)` (with the kind of its shape), `is_legal` is the
/// game's check, `words` its mistake in words. An attempt that names no
/// piece, or fields that are not that piece's shape, is told so.
fn placement_refusal<K: std::str::FromStr + PartialEq, P, M>(
    attempt: &Attempt,
    place: impl FnOnce(&[(i32, i32)]) -> Option<(K, P)>,
    is_legal: impl FnOnce(P) -> Result<(), M>,
    words: impl FnOnce(M) -> String,
) -> String {
    let Some(name) = attempt.piece.as_deref() else {
        return "Choose a piece first.".to_owned();
    };
    let Ok(kind) = name.parse::<K>() else {
        return format!("There is no piece called {name} in this game.");
    };
    let piece = piece_noun(name);
    let cells: Vec<(i32, i32)> = attempt.cells.iter().map(|&[x, y]| (x, y)).collect();
    match place(&cells) {
        Some((shape, placement)) if shape == kind => match is_legal(placement) {
            Ok(()) => LEGAL_AFTER_ALL.to_owned(),
            Err(mistake) => format!("The {piece} cannot go there: {}.", words(mistake)),
        },
        _ => format!("Those fields are not the shape of the {piece}."),
    }
}

/// A 20×20 game's placement of `color` on the fields, with its kind.
fn four_color_place(color: Color) -> impl FnOnce(&[(i32, i32)]) -> Option<(PieceKind, Placement)> {
    move |cells| Placement::from_cells(color, cells).map(|placement| (placement.kind, placement))
}

/// A corner of a square board of `side` fields as a person names it.
fn corner_words(x: i32, y: i32, side: i32) -> &'static str {
    match (x == 0, y == 0, x == side - 1, y == side - 1) {
        (true, true, _, _) => "the top left corner",
        (_, true, true, _) => "the top right corner",
        (true, _, _, true) => "the bottom left corner",
        (_, _, true, true) => "the bottom right corner",
        _ => "its start field",
    }
}

/// Why a placement in a season's game is refused, from the season's
/// [`Mistake`].
fn swc_refusal<V: SwcVariant>(game: &SwcBlokus<V>, attempt: &Attempt) -> String {
    let color = game.current_color();
    let own = fill(color);
    let is_legal = |placement| game.is_legal(&Move::Set(placement));
    placement_refusal(
        attempt,
        four_color_place(color),
        is_legal,
        |mistake| match mistake {
            Mistake::WrongColor => format!("it is not {own}'s turn"),
            Mistake::WrongShape => format!(
                "each colour's first piece must be the {}",
                game.start_piece().name()
            ),
            Mistake::DuplicateShape => format!("that piece is already placed ({own})"),
            Mistake::OutOfBounds => "part of it would be off the board".to_owned(),
            Mistake::Obstructed => "it would cover a field that is taken".to_owned(),
            Mistake::TouchesSameColor => {
                format!("it may not share an edge with your own {own} pieces")
            }
            Mistake::NotInCorner => {
                format!("your first {own} piece must cover a corner of the board")
            }
            Mistake::NotOnBorder => {
                format!("your first {own} piece must touch the edge of the board")
            }
            Mistake::NoSharedCorner => format!("it must touch a corner of your own {own} pieces"),
            Mistake::SkipFirstTurn => "a colour cannot pass before its first piece".to_owned(),
        },
    )
}

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

four_color_play!(classic_board, classic_refusal: BlokusClassic, BlokusClassic3, BlokusClassic2);

/// Why a placement in a classic game is refused, from its
/// [`ClassicMistake`].
fn classic_refusal(game: &Classic, attempt: &Attempt) -> String {
    let color = game.current_color();
    let own = fill(color);
    let is_legal = |placement| game.is_legal(&Move::Set(placement));
    placement_refusal(
        attempt,
        four_color_place(color),
        is_legal,
        |mistake| match mistake {
            ClassicMistake::WrongColor => format!("it is not {own}'s turn"),
            ClassicMistake::DuplicateShape => format!("that piece is already placed ({own})"),
            ClassicMistake::OutOfBounds => "part of it would be off the board".to_owned(),
            ClassicMistake::Obstructed => "it would cover a field that is taken".to_owned(),
            ClassicMistake::TouchesSameColor => {
                format!("it may not share an edge with your own {own} pieces")
            }
            ClassicMistake::NotInOwnCorner => {
                let (x, y) = Classic::start_corner(color);
                let side = spielleiter_rules::blokus::BOARD_SIZE as i32;
                format!(
                    "your first {own} piece must cover your start corner, {}",
                    corner_words(x, y, side)
                )
            }
            ClassicMistake::NoSharedCorner => {
                format!("it must touch a corner of your own {own} pieces")
            }
            ClassicMistake::PassWhilePlacementExists => {
                "there is no passing while a piece fits".to_owned()
            }
        },
    )
}

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
                words: piece_noun(kind.name()),
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

    fn refusal(game: &Bcl, attempt: &Attempt) -> String {
        let player = game.current_player();
        // The page's (x, y) is the BCL game's (col, row).
        let place = |cells: &[(i32, i32)]| {
            let fields: Vec<(i32, i32)> = cells.iter().map(|&(x, y)| (y, x)).collect();
            PlaceTo::from_cells(player, &fields).map(|place| (place.kind, place))
        };
        let is_legal = |place| game.is_legal(&BclMove::Place(place));
        placement_refusal(attempt, place, is_legal, |mistake| match mistake {
            BclMistake::NotYourTurn => "it is not your turn".to_owned(),
            BclMistake::BlockUsed => "that piece is already placed".to_owned(),
            BclMistake::OutOfStage => "part of it would be off the board".to_owned(),
            BclMistake::Overlap => "it would cover a field that is taken".to_owned(),
            BclMistake::NotOnStartCorner => {
                let (row, col) = player.start_corner();
                let side = spielleiter_rules::blokus::bcl::BCL_BOARD_SIZE as i32;
                format!(
                    "your first piece must cover your start corner, {}",
                    corner_words(col, row, side)
                )
            }
            BclMistake::EdgeContact => "it may not share an edge with your own pieces".to_owned(),
            BclMistake::NoCornerContact => "it must touch a corner of your own pieces".to_owned(),
            BclMistake::PassWhilePlacementExists => {
                "there is no passing while a piece fits".to_owned()
            }
        })
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
