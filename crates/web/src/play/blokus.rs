//! The Blokus games' boards and moves for a person's page: the 20×20
//! games of four colours (the seasons 2021 and 2027, classic Blokus for
//! four, three and two players) and the 10×10 BLOKUS Champions League.
//! Fields are named as each game's pictures name them: Pentobi's notation
//! for classic Blokus, the wire's `(x,y)` for the seasons.

use spielleiter_protocol::seats::seat_label;
use spielleiter_render::blokus::{piece_noun, piece_words};
use spielleiter_rules::{
    blokus::{
        Classic, ClassicMistake, Color, Mistake, Move, PieceKind, PieceSet, Placement, SwcBlokus,
        SwcVariant,
        bcl::{Bcl, BclKind, BclMistake, BclMove, PlaceTo},
        notation::{PentobiCells, pentobi_field},
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

/// The board of a 20×20 game: each field's colour, the pieces the colour
/// to move has, and each seat's colours (`seat_colors`).
fn four_color_board(
    size: usize,
    color_at: impl Fn(i32, i32) -> Option<Color>,
    to_move: Color,
    remaining: PieceSet,
    key: String,
    seat_colors: impl Fn(usize) -> Vec<Color>,
    seats: usize,
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
    board.seat_colors = (0..seats)
        .map(|seat| seat_colors(seat).into_iter().map(fill).collect())
        .collect();
    board
}

/// How a 20×20 game writes a placement's fields.
#[derive(Clone, Copy)]
enum Fields {
    /// `(x,y)`, (0,0) top left, as the seasons' wire counts them.
    Swc,
    /// Pentobi's notation (classic Blokus): `a20 b20 c20`.
    Pentobi,
}

/// A 20×20 move as the page offers it: a placement named by its piece and
/// fields in the game's notation (`the I tromino on a20 b20 c20`), or a
/// pass.
fn four_color_choice(mv: &Move, fields: Fields) -> Choice {
    match mv {
        Move::Set(placement) => Choice {
            label: format!(
                "{} on {}",
                piece_words(placement.kind),
                placement_fields(placement, fields)
            ),
            piece: Some(placement.kind.name().to_owned()),
            from: None,
            cells: placement.cells().map(|(x, y)| [x, y]).collect(),
        },
        Move::Skip(color) => Choice {
            label: format!("Pass ({})", fill(*color)),
            ..Choice::default()
        },
    }
}

/// A placement's fields in the game's notation, separated by spaces.
fn placement_fields(placement: &Placement, fields: Fields) -> String {
    match fields {
        Fields::Pentobi => PentobiCells(placement).to_string().replace(',', " "),
        Fields::Swc => {
            let mut cells: Vec<(i32, i32)> = placement.cells().collect();
            cells.sort_unstable_by_key(|&(x, y)| (y, x));
            let cells: Vec<String> = cells.iter().map(|(x, y)| format!("({x},{y})")).collect();
            cells.join(" ")
        }
    }
}

/// The board of a season's game, with its one first piece said in words
/// (and asked for while the colour to move has placed nothing).
fn swc_board<V: SwcVariant>(game: &SwcBlokus<V>) -> Board {
    let color = game.current_color();
    let remaining = game.remaining(color);
    let mut board = four_color_board(
        spielleiter_rules::blokus::BOARD_SIZE,
        |x, y| game.color_at(x, y),
        color,
        remaining,
        "ONE plays blue and red, TWO yellow and green · fields (x,y), (0,0) top left".to_owned(),
        |seat| {
            Team::ALL
                .get(seat)
                .map_or_else(Vec::new, |team| team.colors().to_vec())
        },
        Team::ALL.len(),
    );
    let start = game.start_piece();
    board.note = Some(format!(
        "Every colour's first piece is {}.",
        piece_words(start)
    ));
    let placed_none = PieceKind::ALL.iter().all(|&kind| remaining.contains(kind));
    board.first_piece = (placed_none && !game.is_over()).then(|| start.name().to_owned());
    board
}

/// `GamePlay` for the 20×20 games (the seasons and classic Blokus): the
/// board drawn by `$board`, a refused click explained by `$refusal`, the
/// moves all alike, their fields written as `$fields`.
macro_rules! four_color_play {
    ($board:ident, $refusal:ident, $fields:expr; $($entry:ident),+) => {
        $(
            impl GamePlay for entry::$entry {
                fn board(game: &Self::Game) -> Board {
                    $board(game)
                }

                fn choice(_game: &Self::Game, mv: &Move) -> Choice {
                    four_color_choice(mv, $fields)
                }

                fn refusal(game: &Self::Game, attempt: &Attempt) -> String {
                    $refusal(game, attempt)
                }
            }
        )+
    };
}

four_color_play!(swc_board, swc_refusal, Fields::Swc; Blokus2021, Blokus2027);

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
                "each colour's first piece must be {}",
                piece_words(game.start_piece())
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

/// The board of a classic game, with each colour's start corner said in
/// Pentobi's notation.
fn classic_board(game: &Classic) -> Board {
    let color = game.current_color();
    let players = game.players();
    let mut seats: Vec<String> = (0..players.count())
        .map(|seat| {
            let colors: Vec<&str> = players
                .scoring_colors(seat)
                .iter()
                .map(|&c| fill(c))
                .collect();
            format!("{} plays {}", seat_label(seat), colors.join(" and "))
        })
        .collect();
    seats.push("fields as in Pentobi: a–t from the left, 1–20 from the bottom".to_owned());
    let mut board = four_color_board(
        spielleiter_rules::blokus::BOARD_SIZE,
        |x, y| game.color_at(x, y),
        color,
        game.remaining(color),
        seats.join(" · "),
        |seat| players.scoring_colors(seat).to_vec(),
        players.count(),
    );
    let corners: Vec<String> = Color::ALL
        .iter()
        .map(|&color| {
            let (x, y) = Classic::start_corner(color);
            let corner = pentobi_field(x, y).map_or_else(String::new, |f| f.to_string());
            format!("{} {corner}", fill(color))
        })
        .collect();
    board.note = Some(format!(
        "Each colour's first piece, any of its 21, covers its own corner: {}.",
        corners.join(", ")
    ));
    board
}

four_color_play!(classic_board, classic_refusal, Fields::Pentobi; BlokusClassic, BlokusClassic3, BlokusClassic2);

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
                let field = pentobi_field(x, y).map_or_else(String::new, |f| format!(" ({f})"));
                format!(
                    "your first {own} piece must cover your start corner, {}{field}",
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

/// The page's colour of a BCL player, as the pictures draw it.
fn bcl_fill(team: Team) -> &'static str {
    match team {
        Team::One => "orange",
        Team::Two => "violet",
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
        board.key = "ONE plays orange, TWO violet · fields (row, col), (0,0) top left".to_owned();
        board.seat_colors = vec![vec![bcl_fill(Team::One)], vec![bcl_fill(Team::Two)]];
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
                label: format!("Pass ({})", bcl_fill(*player)),
                ..Choice::default()
            },
        }
    }
}

fn bcl_choice(place: &PlaceTo) -> Choice {
    let cells: Vec<[i32; 2]> = place.cells().map(|(row, col)| [col, row]).collect();
    Choice {
        label: format!(
            "the {} at row {}, column {}",
            piece_noun(place.kind.name()),
            place.row,
            place.col
        ),
        piece: Some(place.kind.name().to_owned()),
        from: None,
        cells,
    }
}

#[cfg(test)]
mod tests {
    use spielleiter_rules::{
        AnyGame, Game,
        blokus::{Blokus2027, ClassicPlayers},
    };

    use super::{super::board, *};

    #[test]
    fn classic_fields_are_named_in_pentobis_notation_on_the_play_page() {
        let game = AnyGame::BlokusClassic(Classic::new(ClassicPlayers::Four));
        let board = board::board(&game);
        for label in [">a</text>", ">t</text>", ">20</text>", ">1</text>"] {
            assert!(board.svg.contains(label), "{label}: {}", board.svg);
        }
        assert!(board.key.contains("fields as in Pentobi"), "{}", board.key);
        assert_eq!(
            board.note.as_deref(),
            Some(
                "Each colour's first piece, any of its 21, covers its own corner: \
                 blue a20, yellow t20, red t1, green a1."
            )
        );
        let choices = board::choices(&game);
        // BLUE's first piece covers its corner, the top-left field a20.
        assert!(!choices.is_empty());
        for (_, choice) in &choices {
            assert!(choice.label.contains("a20"), "{}", choice.label);
            assert!(!choice.label.contains('('), "{}", choice.label);
        }
        let mono = choices
            .iter()
            .find(|(_, c)| c.piece.as_deref() == Some("MONO"))
            .expect("the monomino fits");
        assert_eq!(mono.1.label, "the monomino on a20");
        assert_eq!(
            board.seat_colors,
            [["blue"], ["yellow"], ["red"], ["green"]]
        );
        assert_eq!(board.first_piece, None, "any piece may come first");
        let two = board::board(&AnyGame::BlokusClassic2(Classic::new(ClassicPlayers::Two)));
        assert_eq!(two.seat_colors, [["blue", "red"], ["yellow", "green"]]);
    }

    #[test]
    fn a_seasons_fields_are_its_wires_and_its_first_piece_is_said_in_words() {
        let mut game = AnyGame::Blokus2027(Blokus2027::new(PieceKind::PentoX));
        let board = board::board(&game);
        assert_eq!(
            board.note.as_deref(),
            Some("Every colour's first piece is the X pentomino.")
        );
        assert_eq!(board.first_piece.as_deref(), Some("PENTO_X"));
        assert!(
            board.key.contains("fields (x,y), (0,0) top left"),
            "{}",
            board.key
        );
        assert!(board.svg.contains(">19</text>") && board.svg.contains(">0</text>"));
        assert_eq!(board.seat_colors, [["blue", "red"], ["yellow", "green"]]);
        let choices = board::choices(&game);
        let label = &choices[0].1.label;
        assert!(
            label.starts_with("the X pentomino on (") && label.ends_with(')'),
            "{label}"
        );
        // Once every colour has placed its first piece, none is asked for;
        // the rule is still said.
        for _ in 0..4 {
            let (mv, _) = board::choices(&game).into_iter().next().expect("a move");
            game.play(&mv).expect("legal");
        }
        let later = board::board(&game);
        assert_eq!(later.first_piece, None);
        assert_eq!(later.note, board.note);
        // The refusal of another first piece names the X as people do.
        let first = AnyGame::Blokus2027(Blokus2027::new(PieceKind::PentoX));
        let refusal = board::refusal(
            &first,
            &board::Attempt {
                piece: Some("MONO".to_owned()),
                cells: vec![[0, 0]],
                from: None,
            },
        );
        assert_eq!(
            refusal,
            "The monomino cannot go there: each colour's first piece must be the X pentomino."
        );
    }
}
