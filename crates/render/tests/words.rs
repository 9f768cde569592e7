//! Moves in words, as the replay viewer lists them: one move of each game,
//! said as a person says it, never in the protocol's tokens.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test.

use spielleiter_render::{last_move_in_words, turns_in_words};
use spielleiter_rules::{
    AnyGame, Game,
    blokus::{
        Blokus, Blokus2027, Classic, ClassicPlayers, Move, PieceKind, notation::parse_classic,
    },
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

/// The numbers of every turn of a game that `play` plays to its end (or
/// for `moves` moves), with the words of the skipped ones.
fn numbered_turns(mut game: AnyGame, moves: usize) -> (Vec<u32>, Vec<String>, AnyGame) {
    let mut numbers = Vec::new();
    let mut skipped = Vec::new();
    for _ in 0..moves {
        if game.is_over() {
            break;
        }
        let mut first = None;
        game.for_each_legal_move(|mv| {
            first.get_or_insert(mv);
        });
        let before = game.clone();
        game.play(&first.unwrap()).unwrap();
        let turns = turns_in_words(&before, &game);
        assert!(!turns.is_empty() && !turns[0].skipped, "{turns:?}");
        for turn in turns {
            numbers.push(turn.turn);
            if turn.skipped {
                skipped.push(turn.words);
            }
        }
    }
    (numbers, skipped, game)
}

#[test]
fn the_turns_run_on_without_gaps_through_skipped_colours() {
    for players in [ClassicPlayers::Four, ClassicPlayers::Two] {
        let game = AnyGame::BlokusClassic(Classic::new(players));
        let (numbers, skipped, end) = numbered_turns(game, 500);
        assert!(end.is_over());
        let expected: Vec<u32> = (1..=end.turn()).collect();
        assert_eq!(numbers, expected, "{players:?}");
        assert!(!skipped.is_empty(), "a whole game skips colours at its end");
        for words in &skipped {
            assert!(words.ends_with(" is skipped: no piece fits"), "{words}");
            plain(words);
        }
    }
    // The seasons remove a colour that cannot place; its turns are numbered
    // and said too.
    let game = AnyGame::Blokus2027(Blokus2027::new(PieceKind::PentoX));
    let (numbers, skipped, end) = numbered_turns(game, 500);
    assert_eq!(numbers, (1..=end.turn()).collect::<Vec<_>>());
    assert!(!skipped.is_empty());
}

#[test]
fn a_pass_is_a_numbered_turn_of_its_own() {
    let mut game = Blokus::new(PieceKind::PentoL);
    for text in [
        "BLUE PENTO_L NONE true 0 16",
        "YELLOW PENTO_L RIGHT true 16 0",
        "RED PENTO_L LEFT true 16 18",
        "GREEN PENTO_L MIRROR true 0 0",
    ] {
        game.play(&text.parse().unwrap()).unwrap();
    }
    let before = AnyGame::Blokus2021(game.clone());
    game.play(&Move::Skip(spielleiter_rules::blokus::Color::Blue))
        .unwrap();
    let turns = turns_in_words(&before, &AnyGame::Blokus2021(game));
    assert_eq!(turns.len(), 1, "{turns:?}");
    assert_eq!((turns[0].turn, turns[0].words.as_str()), (5, "Blue passes"));
}

#[test]
fn the_move_that_wins_an_amber_says_so() {
    use rand_core::SeedableRng;
    let mut said_won = 0;
    for seed in 0..20 {
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(seed);
        let mut game = AnyGame::new(spielleiter_rules::GameType::Ostseeschach2022, &mut rng);
        while !game.is_over() {
            let mut moves = Vec::new();
            game.for_each_legal_move(|mv| moves.push(mv));
            let pick = moves[(rand_core::Rng::next_u32(&mut rng) as usize) % moves.len()];
            let before = game.clone();
            game.play(&pick).unwrap();
            let (AnyGame::Ostseeschach2022(b), AnyGame::Ostseeschach2022(a)) = (&before, &game)
            else {
                unreachable!()
            };
            let team = b.team_to_move();
            let won = a.score_parts(team)[0] > b.score_parts(team)[0];
            let words = last_move_in_words(&before, &game).unwrap();
            assert_eq!(words.contains(" and wins "), won, "{words}");
            if won {
                assert!(words.ends_with(" and wins an amber"), "{words}");
                said_won += 1;
            }
        }
    }
    assert!(said_won > 0, "no amber won in 20 random games");
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
