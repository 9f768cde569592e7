//! Moves in words, as the replay viewer lists them: one move of each game,
//! said as a person says it, never in the protocol's tokens.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test.

use spielleiter_render::last_move_in_words;
use spielleiter_rules::{
    AnyGame, Game,
    blokus::{Blokus, Blokus2027, Classic, ClassicPlayers, PieceKind, notation::parse_classic},
    ostseeschach::{Move as OstseeMove, Ostseeschach, StartLine},
};

/// The words of each move of `moves` played from `game`, in order.
fn said<G: Game>(mut game: G, moves: &[G::Move], any: fn(G) -> AnyGame) -> Vec<String> {
    let mut words = Vec::new();
    for mv in moves {
        let before = any(game.clone());
        game.play(mv).unwrap();
        words.push(last_move_in_words(&before, &any(game.clone())).unwrap());
    }
    words
}

/// No protocol token: no `BLUE`, `PENTO_L`, `NONE`, `false`.
fn plain(words: &str) {
    for token in [
        "BLUE", "YELLOW", "RED", "GREEN", "_", "NONE", "RIGHT", "MIRROR", "LEFT", "false", "true",
    ] {
        assert!(!words.contains(token), "{words:?} has {token}");
    }
}

#[test]
fn a_season_blokus_move_names_colour_piece_and_fields_as_the_board_counts_them() {
    let moves: Vec<_> = [
        "BLUE PENTO_L NONE true 0 16",
        "YELLOW PENTO_L RIGHT true 16 0",
    ]
    .iter()
    .map(|m| m.parse().unwrap())
    .collect();
    let words = said(Blokus::new(PieceKind::PentoL), &moves, AnyGame::Blokus2021);
    assert_eq!(
        words[0],
        "Blue places the L pentomino on (1,16) (1,17) (1,18) (0,19) (1,19)"
    );
    assert!(
        words[1].starts_with("Yellow places the L pentomino on "),
        "{words:?}"
    );
    words.iter().for_each(|w| plain(w));

    let moves: Vec<_> = ["BLUE PENTO_X NONE false 17 6"]
        .iter()
        .map(|m| m.parse().unwrap())
        .collect();
    let words = said(
        Blokus2027::new(PieceKind::PentoX),
        &moves,
        AnyGame::Blokus2027,
    );
    assert_eq!(
        words[0],
        "Blue places the X pentomino on (18,6) (17,7) (18,7) (19,7) (18,8)"
    );
}

#[test]
fn a_classic_move_is_in_pentobis_cell_notation() {
    let game = Classic::new(ClassicPlayers::Four);
    let words = said(
        game,
        &[parse_classic("BLUE a20,b20,c20").unwrap()],
        AnyGame::BlokusClassic,
    );
    assert_eq!(words, ["Blue places the I tromino on a20 b20 c20"]);
}

#[test]
fn an_ostseeschach_move_names_team_piece_fields_and_what_it_takes() {
    let line: StartLine = "HMSRHMSR".parse().unwrap();
    let moves: Vec<OstseeMove> = [
        "0,7-2,6", "7,4-5,3", "0,3-2,2", "5,3-3,4", "0,4-1,3", "7,0-6,2", "2,2-4,1", "3,4-5,3",
        "2,6-3,4", "7,5-6,6", "0,6-1,6", "5,3-4,5", "4,1-6,2",
    ]
    .iter()
    .map(|m| m.parse().unwrap())
    .collect();
    let words = said(Ostseeschach::new(line), &moves, AnyGame::Ostseeschach2022);
    assert_eq!(words[0], "Red moves the Robbe from (0,7) to (2,6)");
    assert!(words[1].starts_with("Blue moves the "), "{words:?}");
    assert!(
        words.iter().any(|w| w.contains(" and takes Blue's ")),
        "a capture among {words:?}"
    );
    words.iter().for_each(|w| plain(w));
}

#[test]
fn the_same_position_twice_is_no_move() {
    let game = AnyGame::Blokus2021(Blokus::new(PieceKind::PentoL));
    assert_eq!(last_move_in_words(&game, &game), None);
    let other = AnyGame::Ostseeschach2022(Ostseeschach::new("HMSRHMSR".parse().unwrap()));
    assert_eq!(last_move_in_words(&game, &other), None);
}

#[test]
fn every_games_moves_are_said_in_words() {
    use rand_core::SeedableRng;
    for &game_type in spielleiter_rules::GameType::ALL {
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(7);
        let mut game = AnyGame::new(game_type, &mut rng);
        for _ in 0..12 {
            if game.is_over() {
                break;
            }
            let mut first = None;
            game.for_each_legal_move(|mv| {
                first.get_or_insert(mv);
            });
            let before = game.clone();
            game.play(&first.unwrap()).unwrap();
            let words = last_move_in_words(&before, &game)
                .unwrap_or_else(|| panic!("{game_type}: no words for a move"));
            assert!(words.contains(' '), "{game_type}: {words:?}");
            plain(&words);
        }
    }
}
