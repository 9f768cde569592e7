//! The rules behaviours of the official test suite tagged [L] in
//! `official-tests.md` (BoardTest, ComparisonTest, GameRuleLogicTest,
//! GameStateTest, GameTest), in Spielleiter's terms.

use spielleiter_rules::blokus::{
    Blokus, Color, ColorSet, Mistake, Move, MoveList, PieceKind, PieceSet, Placement, Rotation,
    Setup, Team,
};

use crate::util::{random_game, rng, set};

fn legal_placements(game: &Blokus) -> Vec<(Rotation, bool, i32, i32)> {
    let mut moves = MoveList::new();
    game.legal_moves(&mut moves);
    let mut found: Vec<_> = moves
        .iter()
        .map(|p| (p.rotation, p.flipped, p.x, p.y))
        .collect();
    found.sort_unstable();
    found
}

/// Puts `count` fields of `color` on the board, filling rows from `(0, y0)`.
fn fill(setup: &mut Setup, color: Color, y0: usize, count: usize) {
    for i in 0..count {
        setup.board[y0 + i / 20][i % 20] = Some(color);
    }
}

#[test]
fn pieces_are_equal_iff_colour_and_cells_are() {
    let tetro_o = |rotation, flipped| Placement {
        color: Color::Red,
        kind: PieceKind::TetroO,
        rotation,
        flipped,
        x: 5,
        y: 5,
    };
    for rotation in Rotation::ALL {
        for flipped in [false, true] {
            assert!(tetro_o(rotation, flipped).same_cells(&tetro_o(Rotation::None, false)));
        }
    }
}

#[test]
fn first_move_validation_with_pento_u() {
    let game = Blokus::new(PieceKind::PentoU);
    let u = |color, x, y| set(color, PieceKind::PentoU, Rotation::None, false, x, y);
    assert_eq!(
        game.is_legal(&u(Color::Red, 0, 0)),
        Err(Mistake::WrongColor)
    );
    assert_eq!(game.is_legal(&u(Color::Blue, 0, 0)), Ok(()));
    assert_eq!(
        game.is_legal(&set(
            Color::Blue,
            PieceKind::Mono,
            Rotation::None,
            false,
            -1,
            2
        )),
        Err(Mistake::WrongShape),
        "the start piece is checked before the cells"
    );
    assert_eq!(
        game.is_legal(&u(Color::Blue, -1, 2)),
        Err(Mistake::OutOfBounds)
    );
    assert_eq!(
        game.is_legal(&Move::Skip(Color::Blue)),
        Err(Mistake::SkipFirstTurn)
    );
    assert_eq!(
        game.is_legal(&set(
            Color::Blue,
            PieceKind::PentoS,
            Rotation::None,
            false,
            0,
            0
        )),
        Err(Mistake::WrongShape)
    );
    assert_eq!(
        game.is_legal(&u(Color::Blue, -1, -1)),
        Err(Mistake::OutOfBounds)
    );
    assert_eq!(
        game.is_legal(&u(Color::Blue, 10, 10)),
        Err(Mistake::NotInCorner)
    );
}

/// The official test's first moves: BLUE PENTO_U at (17,0), YELLOW RIGHT at
/// (18,17), RED at (0,18), GREEN flipped at (0,0), each in its own corner.
fn pento_u_openings() -> [Move; 4] {
    let u = |color, rotation, flipped, x, y| set(color, PieceKind::PentoU, rotation, flipped, x, y);
    [
        u(Color::Blue, Rotation::None, false, 17, 0),
        u(Color::Yellow, Rotation::Right, false, 18, 17),
        u(Color::Red, Rotation::None, false, 0, 18),
        u(Color::Green, Rotation::None, true, 0, 0),
    ]
}

#[test]
fn a_mono_off_the_board_is_out_of_bounds() {
    // Past the first move, so that the shape check passes.
    let mut game = Blokus::new(PieceKind::PentoU);
    for mv in pento_u_openings() {
        assert_eq!(game.play(&mv), Ok(()), "{mv}");
    }
    let mono = set(Color::Blue, PieceKind::Mono, Rotation::None, false, -1, 2);
    assert_eq!(game.is_legal(&mono), Err(Mistake::OutOfBounds));
    assert_eq!(
        (game.turn(), game.round(), game.current_color()),
        (4, 2, Color::Blue)
    );
    // Each colour placed only its pentomino: 10 points per team.
    assert_eq!(
        (game.team_points(Team::One), game.team_points(Team::Two)),
        (10, 10)
    );
}

#[test]
fn first_moves_with_pento_w_take_the_free_corners() {
    use Rotation::{Left, Mirror, None, Right};
    let mut game = Blokus::new(PieceKind::PentoW);
    let mut expected = vec![
        (None, false, 0, 0),
        (Mirror, false, 0, 0),
        (Right, false, 17, 0),
        (Left, false, 17, 0),
        (None, false, 17, 17),
        (Mirror, false, 17, 17),
        (Right, false, 0, 17),
        (Left, false, 0, 17),
    ];
    expected.sort_unstable();
    assert_eq!(legal_placements(&game), expected);

    let w = |color, rotation, x, y| set(color, PieceKind::PentoW, rotation, false, x, y);
    game.play(&w(Color::Blue, None, 0, 0)).expect("legal");
    expected.retain(|&(_, _, x, y)| (x, y) != (0, 0));
    assert_eq!(legal_placements(&game), expected, "YELLOW: three corners");
    game.play(&w(Color::Yellow, Right, 17, 0)).expect("legal");
    expected.retain(|&(_, _, x, y)| (x, y) != (17, 0));
    assert_eq!(legal_placements(&game), expected, "RED: two corners");
    game.play(&w(Color::Red, None, 17, 17)).expect("legal");
    assert_eq!(
        legal_placements(&game),
        [(Right, false, 0, 17), (Left, false, 0, 17)]
    );
}

#[test]
fn every_generated_move_is_valid() {
    let mut rng = rng(1);
    let mut moves = MoveList::new();
    random_game(Blokus::new(PieceKind::PentoR), &mut rng, 0, |game| {
        game.legal_moves(&mut moves);
        for p in &moves {
            assert_eq!(game.is_legal(&Move::Set(p)), Ok(()));
        }
    });
}

#[test]
fn points_count_cells_and_the_bonuses() {
    let mut setup = Setup::new(PieceKind::PentoL);
    setup.turn = 8;
    setup.last_move = None;
    // BLUE: everything placed, MONO last (rows 0-3 and 9 fields of row 4);
    // YELLOW: everything, MONO not last (rows 15-18 and the right end of
    // row 19); RED: start piece and MONO (6 fields from (0,19)).
    fill(&mut setup, Color::Blue, 0, 89);
    setup.remaining[Color::Blue] = PieceSet::EMPTY;
    setup.last_move_mono[Color::Blue] = Some(true);
    fill(&mut setup, Color::Yellow, 15, 80);
    for x in 11..20 {
        setup.board[19][x] = Some(Color::Yellow);
    }
    setup.remaining[Color::Yellow] = PieceSet::EMPTY;
    setup.last_move_mono[Color::Yellow] = Some(false);
    setup.remaining[Color::Red].remove(PieceKind::PentoL);
    setup.remaining[Color::Red].remove(PieceKind::Mono);
    for x in 0..6 {
        setup.board[19][x] = Some(Color::Red);
    }
    setup.valid_colors = ColorSet::ALL;
    let game = Blokus::from_setup(&setup).expect("consistent setup");
    assert_eq!(game.color_points(Color::Blue), 109);
    assert_eq!(game.color_points(Color::Yellow), 104);
    assert_eq!(game.color_points(Color::Red), 6);
    assert_eq!(game.color_points(Color::Green), 0);
    assert_eq!(game.team_points(Team::One), 115);
    assert_eq!(game.team_points(Team::Two), 104);
    assert!(
        game.is_over(),
        "turn 8 is past the round in which BLUE finished"
    );
}

#[test]
fn a_fresh_state() {
    let game = Blokus::new(PieceKind::PentoI);
    assert!(game.occupied().is_empty());
    for color in Color::ALL {
        assert_eq!(game.remaining(color), PieceSet::ALL);
        assert!(game.is_first_move(color));
    }
    assert_eq!(
        (game.team_points(Team::One), game.team_points(Team::Two)),
        (0, 0)
    );
    assert_eq!(
        (game.turn(), game.round(), game.current_color()),
        (0, 1, Color::Blue)
    );
    assert_eq!(game.last_move(), None);
}

#[test]
fn turns_rounds_and_colours_advance_together() {
    let mut game = Blokus::new(PieceKind::PentoU);
    let firsts = pento_u_openings();
    for (turn, mv) in firsts.iter().enumerate() {
        assert_eq!(
            (game.turn(), game.round(), game.current_color()),
            (turn as u32, 1, Color::ALL[turn])
        );
        game.play(mv).expect("legal");
    }
    assert_eq!(
        (game.turn(), game.round(), game.current_color()),
        (4, 2, Color::Blue)
    );
    for _ in 0..7 {
        game.play(&Move::Skip(game.current_color()))
            .expect("skips are legal now");
    }
    assert_eq!(
        (game.turn(), game.round(), game.current_color()),
        (11, 3, Color::Green)
    );
    assert_eq!(game.last_move(), Some(Move::Skip(Color::Red)));
}

/// A setup in which every board corner is taken, so a colour that has not
/// moved yet is stuck: RED has PENTO_U at (0,0) and MONO at (0,19), GREEN
/// PENTO_U at (17,0) and MONO at (19,19).
fn corners_taken(turn: u32) -> Setup {
    let mut setup = Setup::new(PieceKind::PentoU);
    setup.turn = turn;
    for (x, y) in [(0, 0), (2, 0), (0, 1), (1, 1), (2, 1), (0, 19)] {
        setup.board[y][x] = Some(Color::Red);
    }
    for (x, y) in [(17, 0), (19, 0), (17, 1), (18, 1), (19, 1), (19, 19)] {
        setup.board[y][x] = Some(Color::Green);
    }
    for color in [Color::Red, Color::Green] {
        setup.remaining[color].remove(PieceKind::PentoU);
        setup.remaining[color].remove(PieceKind::Mono);
    }
    setup
}

#[test]
fn a_stuck_colour_on_turn_is_removed_and_its_turn_consumed() {
    // GREEN can move, so make BLUE (turn 12) and YELLOW stuck, and GREEN
    // already out: only RED is left to move, as in the official test.
    let mut setup = corners_taken(12);
    setup.valid_colors.remove(Color::Green);
    let mut game = Blokus::from_setup(&setup).expect("consistent setup");
    assert_eq!(
        (game.turn(), game.round(), game.current_color()),
        (14, 4, Color::Red)
    );
    assert_eq!(game.valid_colors(), [Color::Red].into_iter().collect());
    game.play(&Move::Skip(Color::Red)).expect("legal");
    assert_eq!(
        (game.turn(), game.round(), game.current_color()),
        (18, 5, Color::Red)
    );
    game.play(&Move::Skip(Color::Red)).expect("legal");
    assert_eq!(
        (game.turn(), game.round(), game.current_color()),
        (22, 6, Color::Red)
    );

    // GREEN, stuck at turn 11 (all corners taken before its first piece),
    // is removed and BLUE moves at turn 12.
    let mut setup = Setup::new(PieceKind::PentoU);
    setup.turn = 11;
    let u_cells = [(0, 0), (2, 0), (0, 1), (1, 1), (2, 1)];
    for (color, (dx, dy)) in [
        (Color::Blue, (0, 0)),
        (Color::Yellow, (17, 0)),
        (Color::Red, (0, 18)),
    ] {
        for (x, y) in u_cells {
            setup.board[y + dy][x + dx] = Some(color);
        }
        setup.remaining[color].remove(PieceKind::PentoU);
    }
    setup.board[19][19] = Some(Color::Red);
    setup.remaining[Color::Red].remove(PieceKind::Mono);
    let game = Blokus::from_setup(&setup).expect("consistent setup");
    assert_eq!(
        (game.turn(), game.round(), game.current_color()),
        (12, 4, Color::Blue)
    );
    assert!(!game.valid_colors().contains(Color::Green));
}

#[test]
fn placing_removes_the_kind_and_placing_it_again_is_a_duplicate() {
    let mut game = Blokus::new(PieceKind::PentoL);
    let mut moves = MoveList::new();
    for _ in 0..4 {
        game.legal_moves(&mut moves);
        game.play(&Move::Set(moves.get(0).expect("a move")))
            .expect("legal");
    }
    assert_eq!(game.remaining(Color::Blue).len(), 20);
    assert!(!game.remaining(Color::Blue).contains(PieceKind::PentoL));
    let before = game.clone();
    let again = set(Color::Blue, PieceKind::PentoL, Rotation::None, false, 5, 5);
    assert_eq!(game.play(&again), Err(Mistake::DuplicateShape));
    assert_eq!(game, before);

    // A skip after the first move is legal and becomes the last move.
    game.play(&Move::Skip(Color::Blue)).expect("legal");
    assert_eq!(game.last_move(), Some(Move::Skip(Color::Blue)));
    assert_eq!(game.to_setup().last_move, Some(Move::Skip(Color::Blue)));
}

#[test]
fn a_game_of_start_pieces_and_skips_runs_to_the_round_limit() {
    let mut game = Blokus::new(PieceKind::PentoY);
    let mut moves = MoveList::new();
    for _ in 0..4 {
        game.legal_moves(&mut moves);
        game.play(&Move::Set(moves.get(0).expect("a move")))
            .expect("legal");
    }
    let mut skips = 0;
    while !game.is_over() {
        game.play(&Move::Skip(game.current_color())).expect("legal");
        skips += 1;
    }
    assert_eq!(skips, 96);
    assert_eq!((game.turn(), game.round()), (100, 26));
    assert!(matches!(game.last_move(), Some(Move::Skip(_))));
    assert_eq!(
        game.play(&Move::Skip(game.current_color())),
        Err(Mistake::WrongColor)
    );
    assert_eq!(
        (game.team_points(Team::One), game.team_points(Team::Two)),
        (10, 10)
    );
}

#[test]
fn random_games_end_and_always_offer_a_move() {
    let mut rng = rng(3);
    for _ in 0..20 {
        let start = crate::util::random_start(&mut rng);
        let end = random_game(Blokus::new(start), &mut rng, 20, |game| {
            if !game.is_over() {
                assert!(game.valid_colors().contains(game.current_color()));
                assert!(game.has_legal_move(game.current_color()));
                assert!(game.count_legal_moves() > 0);
            }
        });
        assert!(end.is_over());
    }
}

#[test]
fn multi_defect_pieces_report_the_first_defect_in_official_order() {
    // Every colour has its PENTO_U in a corner; RED also has MONO at
    // (19,5), GREEN MONO at (0,5). BLUE is on turn (turn 4).
    let mut setup = Setup::new(PieceKind::PentoU);
    setup.turn = 4;
    let u_cells = [(0, 0), (2, 0), (0, 1), (1, 1), (2, 1)];
    let corners = [
        (Color::Blue, (0, 0)),
        (Color::Yellow, (17, 0)),
        (Color::Red, (0, 18)),
        (Color::Green, (17, 18)),
    ];
    for (color, (dx, dy)) in corners {
        for (x, y) in u_cells {
            setup.board[y + dy][x + dx] = Some(color);
        }
        setup.remaining[color].remove(PieceKind::PentoU);
    }
    setup.board[5][19] = Some(Color::Red);
    setup.board[5][0] = Some(Color::Green);
    setup.remaining[Color::Red].remove(PieceKind::Mono);
    setup.remaining[Color::Green].remove(PieceKind::Mono);
    let game = Blokus::from_setup(&setup).expect("consistent setup");
    let domino = |x, y| set(Color::Blue, PieceKind::Domino, Rotation::None, false, x, y);
    // (19,5) is obstructed and (20,5) off the board: the official server
    // visits (20,5) first (check_order.rs has the hash computation).
    assert_eq!(game.is_legal(&domino(19, 5)), Err(Mistake::OutOfBounds));
    // (-1,5) is off the board and (0,5) obstructed: (0,5) comes first.
    assert_eq!(game.is_legal(&domino(-1, 5)), Err(Mistake::Obstructed));
}
