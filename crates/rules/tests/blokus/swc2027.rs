//! Blokus 2027 (`blokus-2027.md` §3, `decisions.md` §24–§25): first pieces
//! on the border, `PENTO_X` as a start piece, no pass as a first move, the
//! end at turn 96 and not when a colour has placed everything, and the
//! elimination of stuck colours before the end test.

use std::collections::BTreeSet;

use spielleiter_rules::blokus::{
    Blokus2027, Color, ColorSet, Mistake, Move, MoveList, PieceKind, PieceSet, Rotation, Setup,
    SetupError, Team,
};

use crate::util::{below, random_game, random_start_2027, reference_placements_2027, rng, set};

/// Compares every colour's generated placements with the reference.
fn check_position(game: &Blokus2027, moves: &mut MoveList) {
    crate::util::check_position(game, moves, reference_placements_2027);
}

#[test]
fn generated_moves_equal_the_reference_on_random_positions() {
    let mut rng = rng(2027);
    let mut moves = MoveList::new();
    let mut positions = 0;
    let mut total_moves = 0;
    let mut starts = BTreeSet::new();
    while positions < 800 {
        let start = random_start_2027(&mut rng);
        starts.insert(start);
        random_game(Blokus2027::new(start), &mut rng, 30, |game| {
            check_position(game, &mut moves);
            positions += 1;
            total_moves += game.count_legal_moves();
        });
    }
    assert!(starts.contains(&PieceKind::PentoX), "{starts:?}");
    assert!(
        total_moves > 100 * positions,
        "{total_moves} moves in {positions} positions"
    );
}

#[test]
fn the_start_piece_is_any_pentomino() {
    let mut rng = rng(12);
    let drawn: BTreeSet<PieceKind> = (0..500).map(|_| random_start_2027(&mut rng)).collect();
    let pentominoes: BTreeSet<PieceKind> = PieceKind::PENTOMINOES.into_iter().collect();
    assert_eq!(drawn, pentominoes);
}

#[test]
fn a_first_piece_must_touch_the_border() {
    let game = Blokus2027::new(PieceKind::PentoX);
    let x = |x, y| set(Color::Blue, PieceKind::PentoX, Rotation::None, false, x, y);
    // X's cells are (1,0) (0,1) (1,1) (2,1) (1,2) from its box corner.
    assert_eq!(game.is_legal(&x(5, 5)), Err(Mistake::NotOnBorder));
    assert_eq!(game.is_legal(&x(1, 1)), Err(Mistake::NotOnBorder));
    assert_eq!(game.is_legal(&x(8, 0)), Ok(()));
    assert_eq!(game.is_legal(&x(0, 8)), Ok(()));
    assert_eq!(game.is_legal(&x(17, 9)), Ok(()));
    assert_eq!(game.is_legal(&x(9, 17)), Ok(()));
    assert_eq!(game.is_legal(&x(-1, 8)), Err(Mistake::OutOfBounds));
    // The start piece is still checked before the cells.
    let mono = set(Color::Blue, PieceKind::Mono, Rotation::None, false, 0, 0);
    assert_eq!(game.is_legal(&mono), Err(Mistake::WrongShape));
    // Colours may start side by side (sharing an edge with another colour).
    let mut game = game;
    game.play(&x(8, 0)).expect("legal");
    let yellow = set(
        Color::Yellow,
        PieceKind::PentoX,
        Rotation::None,
        false,
        11,
        0,
    );
    assert_eq!(game.play(&yellow), Ok(()));
    // A later piece needs a corner contact, not the border.
    for color in [Color::Red, Color::Green] {
        let mut moves = MoveList::new();
        game.legal_moves(&mut moves);
        game.play(&Move::Set(moves.get(0).expect("a move")))
            .unwrap_or_else(|m| panic!("{color}: {m}"));
    }
    let far = set(Color::Blue, PieceKind::Mono, Rotation::None, false, 0, 19);
    assert_eq!(game.is_legal(&far), Err(Mistake::NoSharedCorner));
}

#[test]
fn no_pass_before_the_first_piece() {
    let mut game = Blokus2027::new(PieceKind::PentoL);
    assert!(!game.can_skip());
    assert_eq!(
        game.play(&Move::Skip(Color::Blue)),
        Err(Mistake::SkipFirstTurn)
    );
    assert_eq!(
        game.play(&Move::Skip(Color::Yellow)),
        Err(Mistake::WrongColor)
    );
    let mut moves = MoveList::new();
    game.legal_moves(&mut moves);
    game.play(&Move::Set(moves.get(0).expect("a move")))
        .expect("legal");
    // YELLOW has not placed yet; BLUE may pass once its turn comes again.
    assert_eq!(
        game.play(&Move::Skip(Color::Yellow)),
        Err(Mistake::SkipFirstTurn)
    );
    for _ in 0..3 {
        game.legal_moves(&mut moves);
        game.play(&Move::Set(moves.get(0).expect("a move")))
            .expect("legal");
    }
    assert!(game.can_skip());
    assert_eq!(game.play(&Move::Skip(Color::Blue)), Ok(()));
}

/// The game after the four start pieces, then passes up to `turn`.
fn start_pieces_then_passes(turn: u32) -> Blokus2027 {
    let mut game = Blokus2027::new(PieceKind::PentoI);
    let mut moves = MoveList::new();
    for _ in 0..4 {
        game.legal_moves(&mut moves);
        game.play(&Move::Set(moves.get(0).expect("a move")))
            .expect("legal");
    }
    while game.turn() < turn {
        game.play(&Move::Skip(game.current_color())).expect("legal");
    }
    game
}

#[test]
fn the_game_ends_at_turn_96() {
    let mut game = start_pieces_then_passes(95);
    assert!(!game.is_over());
    assert_eq!((game.round(), game.current_color()), (24, Color::Green));
    let mut moves = MoveList::new();
    game.legal_moves(&mut moves);
    game.play(&Move::Set(moves.get(0).expect("a move")))
        .expect("legal");
    assert_eq!(game.turn(), 96);
    assert!(game.is_over());
    assert_eq!(game.valid_colors(), ColorSet::ALL);
    assert_eq!(
        game.play(&Move::Skip(Color::Blue)),
        Err(Mistake::WrongColor)
    );
    assert_eq!(game.count_legal_moves(), 0);
}

/// BLUE on turn `turn` with only MONO left (`util::blue_one_piece_short`).
fn blue_one_piece_short(turn: u32) -> Blokus2027 {
    Blokus2027::from_setup(&crate::util::blue_one_piece_short(turn)).expect("consistent setup")
}

#[test]
fn placing_everything_does_not_end_the_game() {
    let mut game = blue_one_piece_short(4);
    game.play(&set(
        Color::Blue,
        PieceKind::Mono,
        Rotation::None,
        false,
        16,
        5,
    ))
    .expect("legal");
    assert_eq!(game.color_points(Color::Blue), 109);
    let mut moves = MoveList::new();
    for expected in [Color::Yellow, Color::Red, Color::Green] {
        assert_eq!(game.current_color(), expected);
        game.legal_moves(&mut moves);
        game.play(&Move::Set(moves.get(0).expect("a move")))
            .expect("legal");
    }
    // BLUE, with nothing left, is removed at turn 8; the others play on.
    assert!(!game.is_over());
    assert_eq!((game.turn(), game.current_color()), (9, Color::Yellow));
    assert!(!game.valid_colors().contains(Color::Blue));
}

#[test]
fn stuck_colours_are_removed_before_the_end_test() {
    // GREEN moves at turn 95. BLUE, whose turn 96 is next, has placed
    // everything: it is removed (turn 97, YELLOW) before the end test
    // finds the limit reached, so the final state no longer lists BLUE.
    let mut setup = Setup::new(PieceKind::PentoI);
    setup.turn = 95;
    for i in 0..89 {
        setup.board[i / 20][i % 20] = Some(Color::Blue);
    }
    setup.remaining[Color::Blue] = PieceSet::EMPTY;
    setup.last_move_mono[Color::Blue] = Some(true);
    for (color, cells) in [
        (Color::Yellow, [(0, 19), (1, 19), (2, 19), (3, 19), (4, 19)]),
        (
            Color::Red,
            [(10, 19), (11, 19), (12, 19), (13, 19), (14, 19)],
        ),
        (
            Color::Green,
            [(19, 10), (19, 11), (19, 12), (19, 13), (19, 14)],
        ),
    ] {
        for (x, y) in cells {
            setup.board[y][x] = Some(color);
        }
        setup.remaining[color].remove(PieceKind::PentoI);
    }
    let mut game = Blokus2027::from_setup(&setup).expect("consistent setup");
    assert_eq!((game.turn(), game.current_color()), (95, Color::Green));
    assert!(game.valid_colors().contains(Color::Blue));
    game.play(&Move::Skip(Color::Green)).expect("legal");
    assert!(game.is_over());
    assert_eq!(game.turn(), 97);
    assert!(!game.valid_colors().contains(Color::Blue));
    assert_eq!(game.valid_colors().len(), 3);
}

#[test]
fn random_games_end_by_the_2027_rule_with_consistent_points() {
    let mut rng = rng(96);
    let mut moves = MoveList::new();
    let mut turn_limit_reached = 0;
    for game_index in 0..150 {
        let mut game = Blokus2027::new(random_start_2027(&mut rng));
        let mut last_kind = [None; 4];
        let skip_per_mille = [0, 20, 600][game_index % 3];
        while !game.is_over() {
            assert!(game.turn() < 96);
            assert!(game.valid_colors().contains(game.current_color()));
            game.legal_moves(&mut moves);
            assert!(!moves.is_empty(), "the colour on turn can place");
            let mv = if game.can_skip() && below(&mut rng, 1000) < skip_per_mille {
                Move::Skip(game.current_color())
            } else {
                let p = moves.get(below(&mut rng, moves.len())).expect("a move");
                last_kind[p.color.index()] = Some(p.kind);
                Move::Set(p)
            };
            game.play(&mv).expect("legal");
        }
        assert!(game.turn() >= 96 || game.valid_colors().is_empty());
        turn_limit_reached += usize::from(game.turn() >= 96);
        for color in Color::ALL {
            let cells = game.fields(color).count();
            let expected = if game.remaining(color).is_empty() {
                cells
                    + 15
                    + if last_kind[color.index()] == Some(PieceKind::Mono) {
                        5
                    } else {
                        0
                    }
            } else {
                cells
            };
            assert_eq!(game.color_points(color), expected);
        }
        let one = game.team_points(Team::One);
        assert_eq!(
            one,
            game.color_points(Color::Blue) + game.color_points(Color::Red)
        );
    }
    assert!(turn_limit_reached >= 40, "{turn_limit_reached}");
}

#[test]
fn setups_round_trip_and_are_checked_against_the_border_rule() {
    let mut rng = rng(27);
    for _ in 0..10 {
        random_game(
            Blokus2027::new(random_start_2027(&mut rng)),
            &mut rng,
            50,
            |game| {
                let setup = game.to_setup();
                let rebuilt = Blokus2027::from_setup(&setup).expect("reachable is consistent");
                assert_eq!(&rebuilt, game);
            },
        );
    }
    let mut setup = Setup::new(PieceKind::PentoX);
    for (x, y) in [(6, 5), (5, 6), (6, 6), (7, 6), (6, 7)] {
        setup.board[y][x] = Some(Color::Blue);
    }
    setup.remaining[Color::Blue].remove(PieceKind::PentoX);
    assert_eq!(
        Blokus2027::from_setup(&setup),
        Err(SetupError::NotOnBorder(Color::Blue))
    );
}
