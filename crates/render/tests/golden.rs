//! Golden pictures: the SVG and the terminal text of a fixed position of
//! each game, byte for byte against the files in `tests/golden/`.
//!
//! After an intended change of the pictures, rewrite the files with
//! `SPIELLEITER_BLESS=1 cargo test -p spielleiter-render --test golden`,
//! look at them (an SVG opens in any browser; with the feature `png` the
//! test also writes PNGs to `target/render-golden/`), and commit them.

use std::path::{Path, PathBuf};

use spielleiter_render::{Labels, Picture, blokus, ostseeschach, picture};
use spielleiter_rules::{
    AnyGame, Game,
    blokus::bcl::{Bcl, BclMove},
    blokus::{Blokus, Blokus2027, Classic, ClassicPlayers, Move, PieceKind},
    ostseeschach::{Move as OstseeMove, Ostseeschach, StartLine},
};

/// Compares `actual` with the golden file `name`, or writes it when
/// blessing.
fn golden(name: &str, actual: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(name);
    if std::env::var_os("SPIELLEITER_BLESS").is_some() {
        std::fs::write(&path, actual).expect("golden file written");
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_else(|error| {
        panic!(
            "{}: {error}; write it with SPIELLEITER_BLESS=1",
            path.display()
        )
    });
    assert!(
        expected == actual,
        "{name} differs from {}; if the change is intended, rewrite it with SPIELLEITER_BLESS=1 and look at it\n--- expected\n{expected}\n--- actual\n{actual}",
        path.display()
    );
}

/// Checks all three forms of a picture: SVG and text against their files,
/// and (with the feature `png`) that the SVG rasterises.
fn check(name: &str, picture: &Picture) {
    let svg = picture.svg();
    golden(&format!("{name}.svg"), &svg);
    golden(&format!("{name}.txt"), &picture.text(false));
    write_png(name, &svg);
}

#[cfg(feature = "png")]
fn write_png(name: &str, svg: &str) {
    let png = spielleiter_render::png(svg, 1.0).expect("the SVG rasterises");
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"), "{name}: a PNG");
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/render-golden");
    std::fs::create_dir_all(&dir).expect("target/render-golden");
    std::fs::write(dir.join(format!("{name}.png")), png).expect("PNG written");
}

#[cfg(not(feature = "png"))]
fn write_png(_: &str, _: &str) {
    let _ = PathBuf::new();
}

fn names() -> Labels {
    Labels {
        names: vec!["Alice & <Bob>".to_owned(), String::new()],
        notes: vec!["a note from the caller".to_owned()],
        ended: false,
        last_move: None,
    }
}

fn blokus_moves(moves: &[&str]) -> Vec<Move> {
    moves
        .iter()
        .map(|text| text.parse().expect("a move in the text form"))
        .collect()
}

#[test]
fn blokus_2021() {
    let mut game = Blokus::new(PieceKind::PentoL);
    for mv in blokus_moves(&[
        "BLUE PENTO_L NONE true 0 16",
        "YELLOW PENTO_L RIGHT true 16 0",
        "RED PENTO_L LEFT true 16 18",
        "GREEN PENTO_L MIRROR true 0 0",
        "BLUE MONO NONE false 2 15",
        "YELLOW PENTO_P LEFT false 17 2",
        "RED TETRO_L MIRROR true 14 17",
        "GREEN PENTO_P RIGHT true 1 4",
        "BLUE DOMINO RIGHT false 0 14",
        "YELLOW PENTO_V MIRROR false 14 4",
        "RED PENTO_S NONE false 12 15",
        "GREEN PENTO_S NONE true 2 2",
        "BLUE TRIO_L NONE false 3 13",
        "YELLOW TETRO_Z NONE false 11 4",
    ]) {
        game.play(&mv).expect("legal");
    }
    check(
        "blokus-2021",
        &picture(&AnyGame::Blokus2021(game), &names()),
    );
}

#[test]
fn blokus_2027() {
    let mut game = Blokus2027::new(PieceKind::PentoX);
    for mv in blokus_moves(&[
        "BLUE PENTO_X NONE false 17 6",
        "YELLOW PENTO_X NONE false 10 0",
        "RED PENTO_X NONE false 17 13",
        "GREEN PENTO_X NONE false 7 17",
        "BLUE DOMINO RIGHT false 17 9",
        "YELLOW PENTO_U NONE false 13 2",
        "RED PENTO_U MIRROR false 15 16",
        "GREEN TETRO_L LEFT true 4 18",
        "BLUE PENTO_S LEFT true 17 2",
        "YELLOW PENTO_W LEFT false 10 4",
    ]) {
        game.play(&mv).expect("legal");
    }
    let labels = names();
    let drawn = picture(&AnyGame::Blokus2027(game.clone()), &labels);
    assert_eq!(
        drawn,
        blokus::swc(&game, "Blokus 2027", "swc_2027_blokus", &labels),
        "the catalogue's Blokus 2027 is drawn as a Blokus season"
    );
    check("blokus-2027", &drawn);
}

#[test]
fn ostseeschach() {
    let line: StartLine = "HMSRHMSR".parse().expect("a start line");
    let mut game = Ostseeschach::new(line);
    for text in [
        "0,7-2,6", "7,4-5,3", "0,3-2,2", "5,3-3,4", "0,4-1,3", "7,0-6,2", "2,2-4,1", "3,4-5,3",
        "2,6-3,4", "7,5-6,6", "0,6-1,6", "5,3-4,5", "4,1-6,2", "4,5-2,6", "0,1-1,1", "6,6-5,6",
        "3,4-4,6", "2,6-4,5", "1,6-2,5", "5,6-4,6", "1,1-2,1", "7,3-6,2", "1,3-2,2", "4,5-2,6",
    ] {
        let mv: OstseeMove = text.parse().expect("a move");
        game.play(&mv).expect("legal");
    }
    let picture = ostseeschach::picture(&game, &names());
    let svg = picture.svg();
    // The position has a tower and an amber; the picture shows both.
    assert!(svg.contains(r#"data-height="2""#), "{svg}");
    assert!(svg.contains("data-gem"), "{svg}");
    check("ostseeschach", &picture);
}

#[test]
fn the_start_of_a_game_has_no_last_move() {
    let game = AnyGame::Blokus2021(Blokus::new(PieceKind::PentoW));
    let svg = picture(&game, &Labels::default()).svg();
    assert!(!svg.contains("data-last-move"), "{svg}");
    assert!(svg.contains(r#"data-turn="0""#));
    assert!(!svg.contains("data-color"), "an empty board: {svg}");
    let start = Ostseeschach::new("HMSRHMSR".parse().expect("a start line"));
    let svg = ostseeschach::picture(&start, &Labels::default()).svg();
    assert_eq!(svg.matches("data-piece=").count(), 16);
    assert!(!svg.contains("data-last-move"), "{svg}");
    // The catalogue's Ostseeschach is drawn by its own module.
    let labels = names();
    assert_eq!(
        picture(&AnyGame::Ostseeschach2022(start.clone()), &labels),
        ostseeschach::picture(&start, &labels)
    );
}

/// The board rows of a terminal picture (after the heading and the column
/// numbers) without their row numbers.
fn board_rows(text: &str, header_lines: usize, rows: usize) -> Vec<String> {
    text.lines()
        .skip(1 + header_lines)
        .take(rows)
        .map(|line| line[3..].to_owned())
        .collect()
}

#[test]
fn the_blokus_boards_show_pieces_by_colour_with_coordinates() {
    for mut game in [
        AnyGame::Blokus2021(Blokus::new(PieceKind::PentoI)),
        AnyGame::Blokus2027(Blokus2027::new(PieceKind::PentoI)),
    ] {
        let mut first = None;
        game.for_each_legal_move(|mv| {
            first.get_or_insert(mv);
        });
        game.play(&first.expect("a first move")).expect("legal");
        let text = picture(&game, &Labels::default()).text(false);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[1], "   00000000001111111111", "{text}");
        assert_eq!(lines[2], "   01234567890123456789", "{text}");
        let board = board_rows(&text, 2, 20);
        assert!(board.iter().all(|row| row.len() == 20), "{text}");
        let fields: String = board.concat();
        // The last move's fields in lower case, BLUE's first piece.
        assert_eq!(fields.matches('b').count(), 5, "{text}");
        assert_eq!(fields.matches('.').count(), 400 - 5, "{text}");
        assert!(lines[22].starts_with("19 "), "{text}");
        assert!(
            text.contains("every colour's first piece is the I pentomino"),
            "{text}"
        );
        assert!(
            text.contains("fields (x,y) as the wire counts them"),
            "{text}"
        );
        assert!(
            text.contains("pieces left: BLUE 20, YELLOW 21, RED 21, GREEN 21"),
            "{text}"
        );
    }
}

/// Classic Blokus names its columns a–t and its rows 20 (top) to 1
/// (bottom), as Pentobi and its moves do, in the terminal and in the SVG.
#[test]
fn the_classic_board_is_labelled_in_pentobis_notation() {
    let mut game = Classic::new(ClassicPlayers::Four);
    // BLUE's corner, the top-left field: a20 in Pentobi's notation.
    game.play(&blokus_moves(&["BLUE MONO NONE false 0 0"])[0])
        .expect("legal");
    let drawn = picture(&AnyGame::BlokusClassic(game), &Labels::default());
    let text = drawn.text(false);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[1], "   abcdefghijklmnopqrst", "{text}");
    assert_eq!(lines[2], "20 b...................", "{text}");
    assert_eq!(lines[21], " 1 ....................", "{text}");
    assert!(
        text.contains("last move: Blue places the monomino on a20"),
        "{text}"
    );
    assert!(text.contains("rows 1–20 from the bottom"), "{text}");
    for svg in [drawn.svg(), drawn.board_svg()] {
        for label in [">a</text>", ">t</text>", ">20</text>", ">1</text>"] {
            assert!(svg.contains(label), "{label} missing: {svg}");
        }
        // No field numbered from 0 as the seasons number them.
        assert!(!svg.contains(">0</text>"), "{svg}");
    }
}

/// Each colour's pieces beside the board: those left in its colour, the
/// placed ones pale, and how many are left; the board alone (for the play
/// page) has them too, with no heading, seats or notes.
#[test]
fn each_colours_pieces_are_shown_beside_the_board() {
    let mut game = Classic::new(ClassicPlayers::Four);
    for mv in blokus_moves(&["BLUE TETRO_L NONE false 0 0", "YELLOW MONO NONE false 19 0"]) {
        game.play(&mv).expect("legal");
    }
    let labels = Labels {
        names: vec!["alice".to_owned()],
        ..Labels::default()
    };
    let drawn = picture(&AnyGame::BlokusClassic(game), &labels);
    for svg in [drawn.svg(), drawn.board_svg()] {
        assert!(
            svg.contains(r#"<g data-stock="BLUE" data-left="20""#),
            "{svg}"
        );
        assert!(
            svg.contains(r#"<g data-stock="GREEN" data-left="21""#),
            "{svg}"
        );
        assert!(svg.contains("20 pieces left"), "{svg}");
        // The placed pieces' cells, pale: BLUE's L tetromino, YELLOW's
        // monomino; the others' cells in their colours.
        let cells = |mark: &str, color: &str| -> usize {
            let group = svg
                .split(&format!(r#"<g data-stock="{color}""#))
                .nth(1)
                .and_then(|rest| rest.split("</g>").next())
                .unwrap_or_default();
            group
                .split(&format!("<path {mark}="))
                .nth(1)
                .map_or(0, |path| {
                    path.split("/>")
                        .next()
                        .unwrap_or_default()
                        .matches("z")
                        .count()
                })
        };
        assert_eq!(cells("data-placed", "BLUE"), 4, "{svg}");
        assert_eq!(cells("data-placed", "YELLOW"), 1, "{svg}");
        assert_eq!(cells("data-placed", "GREEN"), 0, "{svg}");
        assert_eq!(cells("data-pieces-left", "BLUE"), 89 - 4, "{svg}");
        assert_eq!(cells("data-pieces-left", "GREEN"), 89, "{svg}");
        assert!(svg.contains(r#"data-board="34 "#), "{svg}");
    }
    let board = drawn.board_svg();
    assert!(
        !board.contains("alice") && !board.contains("turn 2"),
        "{board}"
    );
    assert!(drawn.svg().contains("alice"));
    let bcl = picture(&AnyGame::BlokusBcl(Bcl::new()), &Labels::default()).svg();
    assert!(
        bcl.contains(r#"<g data-stock="ONE" data-left="12""#),
        "{bcl}"
    );
}

#[test]
fn the_ostseeschach_board_shows_pieces_and_towers_with_coordinates() {
    let mut game = Ostseeschach::new("RHSMHRMS".parse::<StartLine>().expect("a line"));
    for text in ["0,5-2,4", "7,2-5,3", "2,4-4,5"] {
        let mv: OstseeMove = text.parse().expect("a move");
        game.play(&mv).expect("legal");
    }
    game.play(&"5,3-4,5".parse::<OstseeMove>().expect("a move"))
        .expect("TWO's Robbe captures");
    let text = ostseeschach::picture(&game, &Labels::default()).text(false);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[1], "     0  1  2  3  4  5  6  7", "{text}");
    assert_eq!(lines[2], " 0  RR .. .. .. .. .. .. ss", "{text}");
    // Row 5: the tower of TWO with its Robbe on top, height 2, where the
    // last move ended (marked `>`).
    assert_eq!(&lines[7][4..], ".. .. .. ..>r2 .. .. ss", "{text}");
    let board = board_rows(&text, 1, 8).concat();
    assert_eq!(board.matches("..").count(), 64 - 15, "{text}");
}

/// Classic Blokus for four, three and two players: the same placements,
/// each game's seats (`blokus_classic_3`: GREEN for nobody).
#[test]
fn classic_blokus() {
    let moves = blokus_moves(&[
        "BLUE TETRO_L NONE false 0 0",
        "YELLOW PENTO_P RIGHT true 17 0",
        "RED TETRO_L RIGHT true 17 18",
        "GREEN PENTO_U NONE false 0 18",
        "BLUE PENTO_P NONE true 2 3",
        "YELLOW PENTO_L LEFT true 13 1",
        "RED TRIO_L RIGHT false 16 16",
        "GREEN PENTO_S RIGHT true 3 14",
        "BLUE PENTO_Z NONE false 4 6",
        "YELLOW TRIO_L LEFT false 16 3",
        "RED PENTO_R LEFT true 17 13",
        "GREEN TRIO_L LEFT false 2 12",
    ]);
    let four_names = Labels {
        names: vec![
            "Alice & <Bob>".to_owned(),
            String::new(),
            "carol".to_owned(),
        ],
        notes: vec!["a note from the caller".to_owned()],
        ended: false,
        last_move: None,
    };
    for (players, wrap, turns, name) in [
        (
            ClassicPlayers::Four,
            AnyGame::BlokusClassic as fn(Classic) -> AnyGame,
            12,
            "blokus-classic-4",
        ),
        (
            ClassicPlayers::Three,
            AnyGame::BlokusClassic3,
            11,
            "blokus-classic-3",
        ),
        (
            ClassicPlayers::Two,
            AnyGame::BlokusClassic2,
            10,
            "blokus-classic-2",
        ),
    ] {
        let mut game = Classic::new(players);
        for mv in &moves[..turns] {
            game.play(mv).expect("legal");
        }
        let drawn = picture(&wrap(game.clone()), &four_names);
        assert_eq!(drawn, blokus::classic(&game, &four_names));
        let svg = drawn.svg();
        assert!(svg.contains(&format!(r#"data-game="{}""#, players.game_id())));
        assert_eq!(
            svg.matches("data-to-move").count(),
            1,
            "one seat to move: {svg}"
        );
        check(name, &drawn);
    }
}

#[test]
fn the_bcl_board_shows_blocks_with_row_and_column_numbers() {
    let mut game = Bcl::new();
    let shotgun: BclMove = "ONE SHOTGUN SINGLE NONE 3 0".parse().expect("a move");
    game.play(&shotgun).expect("legal");
    let text = picture(&AnyGame::BlokusBcl(game.clone()), &Labels::default()).text(false);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[1], "   0123456789", "{text}");
    // The last move's fields in lower case: rows 0..=3, (row, col).
    assert_eq!(lines[2], " 0 oo........", "{text}");
    assert_eq!(lines[5], " 3 .o........", "{text}");
    assert_eq!(board_rows(&text, 1, 10).concat().matches('o').count(), 6);
    assert!(text.contains("ONE (orange): 6 cells"), "{text}");
    assert_eq!(
        picture(&AnyGame::BlokusBcl(game.clone()), &names()),
        blokus::bcl(&game, &names())
    );
}

#[test]
fn blokus_bcl() {
    let mut game = Bcl::new();
    for text in [
        "ONE CROWBAR NONE NONE 1 0",
        "TWO CROWBAR SINGLE NONE 9 8",
        "ONE SHOTGUN DOUBLE HORIZONTAL 3 1",
        "TWO SHOTGUN DOUBLE HORIZONTAL 6 4",
        "ONE CHAIR SINGLE NONE 5 5",
        "TWO CHAIR SINGLE NONE 8 2",
        "ONE WORM NONE NONE 2 5",
        "TWO CROSS NONE NONE 6 0",
    ] {
        let mv: BclMove = text.parse().expect("a move");
        game.play(&mv).expect("legal");
    }
    check("blokus-bcl", &picture(&AnyGame::BlokusBcl(game), &names()));
}
