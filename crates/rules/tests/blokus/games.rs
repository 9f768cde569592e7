//! Properties of random complete games, and the end of the game after the
//! round in which a colour placed its last piece (`decisions.md` §1).

use spielleiter_rules::{
    Game,
    blokus::{
        Blokus, Color, ColorSet, Mistake, Move, MoveList, PieceKind, PieceSet, Placement, Rotation,
        Team,
    },
};

use crate::util::{below, random_game, random_placement, random_start, rng};

/// The score of `color` recomputed from the board and the last piece.
fn expected_points(game: &Blokus, color: Color, last_kind: Option<PieceKind>) -> u32 {
    let placed = game.fields(color).count();
    if game.remaining(color).is_empty() {
        placed
            + 15
            + if last_kind == Some(PieceKind::Mono) {
                5
            } else {
                0
            }
    } else {
        placed
    }
}

#[test]
fn random_games_end_within_25_rounds_with_consistent_scores() {
    let mut rng = rng(25);
    let mut moves = MoveList::new();
    for game_index in 0..200 {
        let mut game = Blokus::new(random_start(&mut rng));
        let mut last_kind = [None; 4];
        let skip_per_mille = [0, 20, 300][game_index % 3];
        while !game.is_over() {
            assert!(game.round() <= 25, "a move in round {}", game.round());
            game.legal_moves(&mut moves);
            let mv = if game.can_skip() && below(&mut rng, 1000) < skip_per_mille {
                Move::Skip(game.current_color())
            } else {
                let p = moves.get(below(&mut rng, moves.len())).expect("a move");
                last_kind[p.color.index()] = Some(p.kind);
                Move::Set(p)
            };
            game.play(&mv).expect("legal");
        }
        for color in Color::ALL {
            assert_eq!(
                game.color_points(color),
                expected_points(&game, color, last_kind[color.index()])
            );
        }
        for team in Team::ALL {
            let [a, b] = team.colors();
            assert_eq!(
                game.team_points(team),
                game.color_points(a) + game.color_points(b)
            );
        }
        let winners = game.winners();
        let (one, two) = (game.score(0).as_slice()[0], game.score(1).as_slice()[0]);
        assert_eq!(winners.contains(0), one >= two);
        assert_eq!(winners.contains(1), two >= one);
        assert_eq!(game.player_to_move(), None);
    }
}

#[test]
fn an_illegal_move_leaves_the_state_unchanged() {
    let mut rng = rng(404);
    let mut rejected = 0;
    for _ in 0..20 {
        let mut positions = Vec::new();
        random_game(
            Blokus::new(random_start(&mut rng)),
            &mut crate::util::rng(rejected),
            50,
            |g| {
                positions.push(g.clone());
            },
        );
        for game in &positions {
            for _ in 0..50 {
                let color = Color::ALL[below(&mut rng, 4)];
                let mv = if below(&mut rng, 10) == 0 {
                    Move::Skip(color)
                } else {
                    Move::Set(random_placement(&mut rng, color, 3))
                };
                let mut copy = game.clone();
                match copy.play(&mv) {
                    Ok(()) => assert_eq!(game.is_legal(&mv), Ok(())),
                    Err(mistake) => {
                        assert_eq!(game.is_legal(&mv), Err(mistake));
                        assert_eq!(&copy, game, "{mv} was rejected with {mistake:?}");
                        rejected += 1;
                    }
                }
            }
        }
    }
    assert!(rejected > 10_000);
}

#[test]
fn setups_round_trip() {
    let mut rng = rng(5);
    for _ in 0..10 {
        random_game(Blokus::new(random_start(&mut rng)), &mut rng, 50, |game| {
            let setup = game.to_setup();
            let rebuilt = Blokus::from_setup(&setup).expect("a reachable position is consistent");
            assert_eq!(rebuilt.to_setup(), setup);
            assert_eq!(rebuilt.is_over(), game.is_over());
            if !game.remaining_all_placed() {
                assert_eq!(&rebuilt, game);
            }
        });
    }
}

/// Lets tests ask whether any colour has placed all its pieces.
trait AllPlaced {
    fn remaining_all_placed(&self) -> bool;
}

impl AllPlaced for Blokus {
    fn remaining_all_placed(&self) -> bool {
        Color::ALL.iter().any(|&c| self.remaining(c).is_empty())
    }
}

/// BLUE on turn `turn` with only MONO left (`util::blue_one_piece_short`).
fn blue_one_piece_short(turn: u32) -> Blokus {
    Blokus::from_setup(&crate::util::blue_one_piece_short(turn)).expect("consistent setup")
}

#[test]
fn the_game_ends_after_the_round_in_which_a_colour_placed_everything() {
    let mono = Move::Set(Placement {
        color: Color::Blue,
        kind: PieceKind::Mono,
        rotation: Rotation::None,
        flipped: false,
        x: 16,
        y: 5,
    });
    // BLUE finishes at turn 4, the first turn of round 2: YELLOW, RED and
    // GREEN still play round 2, then the game is over.
    let mut game = blue_one_piece_short(4);
    game.play(&mono).expect("legal");
    assert_eq!(game.color_points(Color::Blue), 109);
    let mut moves = MoveList::new();
    for color in [Color::Yellow, Color::Red, Color::Green] {
        assert!(!game.is_over());
        assert_eq!(game.current_color(), color);
        game.legal_moves(&mut moves);
        game.play(&Move::Set(moves.get(0).expect("a move")))
            .expect("legal");
    }
    // As after every move, the colours that cannot move are dropped before
    // the end is checked: BLUE, with no pieces, loses turn 8.
    assert!(game.is_over());
    assert_eq!(game.turn(), 9);
    assert!(!game.valid_colors().contains(Color::Blue));
    assert_eq!(
        game.play(&Move::Skip(Color::Yellow)),
        Err(Mistake::WrongColor)
    );

    // Finishing in the last turn of a round ends the game at once.
    let mut setup = blue_one_piece_short(4).to_setup();
    setup.turn = 7;
    let (blue, green) = (setup.remaining[Color::Blue], setup.remaining[Color::Green]);
    setup.remaining[Color::Green] = blue;
    setup.remaining[Color::Blue] = green;
    for row in setup.board.iter_mut() {
        for field in row.iter_mut().filter(|f| f.is_some()) {
            *field = Some(Color::Green);
        }
    }
    let mut game = Blokus::from_setup(&setup).expect("consistent setup");
    assert_eq!(game.current_color(), Color::Green);
    game.play(&Move::Set(Placement {
        color: Color::Green,
        ..match mono {
            Move::Set(p) => p,
            Move::Skip(_) => unreachable!(),
        }
    }))
    .expect("legal");
    assert!(game.is_over());
    assert_eq!(game.round(), 3);
}

#[test]
fn a_finished_colour_in_a_setup_ends_the_game_at_the_round_boundary() {
    let mut setup = blue_one_piece_short(4).to_setup();
    setup.board[5][16] = Some(Color::Blue);
    setup.remaining[Color::Blue] = PieceSet::EMPTY;
    setup.last_move_mono[Color::Blue] = Some(true);
    setup.turn = 5;
    assert!(!Blokus::from_setup(&setup).expect("consistent").is_over());
    setup.turn = 8;
    setup.valid_colors = ColorSet::ALL;
    assert!(Blokus::from_setup(&setup).expect("consistent").is_over());
}
