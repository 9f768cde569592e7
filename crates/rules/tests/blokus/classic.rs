//! Classic Blokus for 4, 3 and 2 players (`decisions.md` §17–§18): own
//! start corners, any first piece, no voluntary pass, skipped colours, the
//! end when no colour can place, points with bonuses, the rotating GREEN of
//! the three-player game.

use std::collections::BTreeSet;

use spielleiter_rules::{
    PlayerSet,
    blokus::{
        Classic, ClassicMistake, ClassicPlayers, ClassicSetup, Color, Move, MoveList, PieceKind,
        Placement, Rotation, SetupError, notation::parse_classic,
    },
};

use crate::util::{CellKey, below, cell_key, check_random_placements, reference_20, rng, set};

/// The legal placements of `color` in `game` by brute force.
pub fn reference(game: &Classic, color: Color) -> BTreeSet<CellKey> {
    let remaining = game.remaining(color);
    let first = remaining.len() == 21;
    reference_20(
        |x, y| game.color_at(x, y),
        color,
        remaining.iter(),
        first,
        &[Classic::start_corner(color)],
    )
    .iter()
    .map(cell_key)
    .collect()
}

/// The engine's placements of `color`, checked to be one per cell set.
pub fn generated(game: &Classic, color: Color, moves: &mut MoveList) -> BTreeSet<CellKey> {
    game.placements_of(color, moves);
    let keys: BTreeSet<_> = moves.iter().map(|p| cell_key(&p)).collect();
    assert_eq!(keys.len(), moves.len(), "one placement per cell set");
    keys
}

/// Plays a random game, calling `visit` before every move and at the end.
fn random_game(
    players: ClassicPlayers,
    rng: &mut rand_pcg::Pcg64Mcg,
    mut visit: impl FnMut(&Classic),
) -> Classic {
    let mut game = Classic::new(players);
    let mut moves = MoveList::new();
    while !game.is_over() {
        visit(&game);
        game.legal_moves(&mut moves);
        let placement = moves.get(below(rng, moves.len())).expect("a move");
        game.play(&Move::Set(placement))
            .expect("generated moves are legal");
    }
    visit(&game);
    game
}

#[test]
fn generated_moves_equal_the_reference_on_random_positions() {
    let mut rng = rng(17);
    let mut moves = MoveList::new();
    let mut positions = 0;
    let mut total = 0;
    for players in ClassicPlayers::ALL.into_iter().cycle() {
        if positions >= 500 {
            break;
        }
        random_game(players, &mut rng, |game| {
            for color in Color::ALL {
                let reference = reference(game, color);
                assert_eq!(game.has_legal_move(color), !reference.is_empty());
                assert_eq!(
                    generated(game, color, &mut moves),
                    reference,
                    "{color} {game:?}"
                );
            }
            if !game.is_over() {
                game.legal_moves(&mut moves);
                assert_eq!(moves.color(), game.current_color());
                assert_eq!(game.count_legal_moves(), moves.len());
                for placement in &moves {
                    assert_eq!(game.is_legal(&Move::Set(placement)), Ok(()));
                }
                total += moves.len();
            }
            positions += 1;
        });
    }
    assert!(
        total > 50 * positions,
        "{total} moves in {positions} positions"
    );
}

#[test]
fn is_legal_agrees_with_the_reference_on_arbitrary_placements() {
    let mut rng = rng(33);
    let mut mistakes = BTreeSet::new();
    let mut legal = 0;
    for _ in 0..10 {
        let mut positions = Vec::new();
        random_game(ClassicPlayers::Four, &mut rng, |g| {
            positions.push(g.clone())
        });
        for game in positions.iter().filter(|g| !g.is_over()).step_by(3) {
            let color = game.current_color();
            let reference = reference(game, color);
            legal += check_random_placements(
                &mut rng,
                color,
                1500,
                &reference,
                |mv| game.is_legal(mv),
                |m| m.name(),
                &mut mistakes,
            );
        }
    }
    assert!(legal > 100, "{legal}");
    for name in [
        "DUPLICATE_SHAPE",
        "OUT_OF_BOUNDS",
        "OBSTRUCTED",
        "TOUCHES_SAME_COLOR",
        "NOT_IN_OWN_CORNER",
        "NO_SHARED_CORNER",
    ] {
        assert!(mistakes.contains(name), "{name} never seen: {mistakes:?}");
    }
}

/// Picks a random placement, in half of the games only among the largest
/// pieces (which, unlike uniform play, now and then places all 21).
fn pick(moves: &MoveList, largest_first: bool, rng: &mut rand_pcg::Pcg64Mcg) -> Placement {
    let largest = moves.iter().map(|p| p.kind.size()).max().unwrap_or(0);
    let candidates: Vec<Placement> = moves
        .iter()
        .filter(|p| !largest_first || p.kind.size() == largest)
        .collect();
    candidates[below(rng, candidates.len())]
}

#[test]
fn random_games_end_when_no_colour_can_place_with_the_right_points() {
    let mut rng = rng(18);
    let mut moves = MoveList::new();
    // Colours that placed everything, with and without MONO last.
    let mut finished = [0; 2];
    let mut games = 0;
    while games < 150 || finished.contains(&0) {
        assert!(
            games < 5000,
            "no colour finished often enough: {finished:?}"
        );
        let players = ClassicPlayers::ALL[games % 3];
        let largest_first = games % 2 == 1;
        games += 1;
        let mut game = Classic::new(players);
        let mut last_kind = [None; 4];
        while !game.is_over() {
            assert!(game.has_legal_move(game.current_color()));
            game.legal_moves(&mut moves);
            let p = pick(&moves, largest_first, &mut rng);
            last_kind[p.color.index()] = Some(p.kind);
            game.play(&Move::Set(p)).expect("legal");
        }
        assert!(Color::ALL.iter().all(|&c| !game.has_legal_move(c)));
        assert_eq!(game.player_to_move(), None);
        for color in Color::ALL {
            let cells = game.fields(color).count();
            let expected = if game.remaining(color).is_empty() {
                let mono = last_kind[color.index()] == Some(PieceKind::Mono);
                finished[usize::from(mono)] += 1;
                assert_eq!(game.last_move_mono(color), Some(mono));
                89 + 15 + if mono { 5 } else { 0 }
            } else {
                cells
            };
            assert_eq!(game.color_points(color), expected);
        }
        let colour_points = |colors: &[Color]| colors.iter().map(|&c| game.color_points(c)).sum();
        let seats: Vec<u32> = match players {
            ClassicPlayers::Four => Color::ALL.iter().map(|&c| game.color_points(c)).collect(),
            ClassicPlayers::Three => Color::ALL[..3]
                .iter()
                .map(|&c| game.color_points(c))
                .collect(),
            ClassicPlayers::Two => vec![
                colour_points(&[Color::Blue, Color::Red]),
                colour_points(&[Color::Yellow, Color::Green]),
            ],
        };
        assert_eq!(
            (0..seats.len()).map(|s| game.points(s)).collect::<Vec<_>>(),
            seats
        );
        let best = *seats.iter().max().expect("seats");
        let winners: PlayerSet = (0..seats.len()).filter(|&s| seats[s] == best).collect();
        assert_eq!(game.winners(), winners);
    }
}

#[test]
fn green_rotates_through_the_three_seats() {
    let mut rng = rng(3);
    let mut green_moves = 0;
    for _ in 0..20 {
        let mut placed_by = Vec::new();
        let mut game = Classic::new(ClassicPlayers::Three);
        let mut moves = MoveList::new();
        while !game.is_over() {
            let seat = game.player_to_move().expect("a seat on turn");
            let color = game.current_color();
            match color {
                Color::Green => placed_by.push(seat),
                other => assert_eq!(seat, other.index()),
            }
            game.legal_moves(&mut moves);
            let p = moves.get(below(&mut rng, moves.len())).expect("a move");
            game.play(&Move::Set(p)).expect("legal");
        }
        for (k, &seat) in placed_by.iter().enumerate() {
            assert_eq!(seat, k % 3, "GREEN's piece {k}");
        }
        green_moves += placed_by.len();
        // GREEN's points count for nobody.
        let seats: u32 = (0..3).map(|s| game.points(s)).sum();
        let colours: u32 = Color::ALL.iter().map(|&c| game.color_points(c)).sum();
        assert_eq!(seats + game.color_points(Color::Green), colours);
    }
    assert!(green_moves > 100);
}

#[test]
fn no_pass_while_a_placement_exists() {
    let mut game = Classic::new(ClassicPlayers::Four);
    assert_eq!(
        game.play(&Move::Skip(Color::Blue)),
        Err(ClassicMistake::PassWhilePlacementExists)
    );
    assert_eq!(
        game.play(&Move::Skip(Color::Red)),
        Err(ClassicMistake::WrongColor)
    );
    let mut moves = MoveList::new();
    game.legal_moves(&mut moves);
    game.play(&Move::Set(moves.get(0).expect("a move")))
        .expect("legal");
    assert_eq!(
        game.play(&Move::Skip(Color::Yellow)),
        Err(ClassicMistake::PassWhilePlacementExists)
    );
    assert_eq!(
        ClassicMistake::PassWhilePlacementExists.name(),
        "PASS_WHILE_PLACEMENT_EXISTS"
    );
}

#[test]
fn a_first_piece_covers_the_own_corner_only() {
    let mut game = Classic::new(ClassicPlayers::Four);
    // BLUE may start with any piece in (0,0), but not in another corner.
    let mono = |color, x, y| set(color, PieceKind::Mono, Rotation::None, false, x, y);
    assert_eq!(
        game.is_legal(&mono(Color::Blue, 19, 0)),
        Err(ClassicMistake::NotInOwnCorner)
    );
    assert_eq!(
        game.is_legal(&mono(Color::Blue, 5, 5)),
        Err(ClassicMistake::NotInOwnCorner)
    );
    assert_eq!(
        game.is_legal(&mono(Color::Blue, 20, 0)),
        Err(ClassicMistake::OutOfBounds)
    );
    for kind in PieceKind::ALL {
        let shape = kind.shape(Rotation::None, false);
        let covers_origin = shape.cells().contains(&(0, 0));
        let verdict = game.is_legal(&set(Color::Blue, kind, Rotation::None, false, 0, 0));
        assert_eq!(verdict.is_ok(), covers_origin, "{kind}");
    }
    game.play(&mono(Color::Blue, 0, 0)).expect("legal");
    // YELLOW's corner is (19,0); BLUE's is taken anyway.
    assert_eq!(
        game.is_legal(&mono(Color::Yellow, 0, 19)),
        Err(ClassicMistake::NotInOwnCorner)
    );
    assert_eq!(game.is_legal(&mono(Color::Yellow, 19, 0)), Ok(()));
    game.play(&mono(Color::Yellow, 19, 0)).expect("legal");
    assert_eq!(game.is_legal(&mono(Color::Red, 19, 19)), Ok(()));
    assert_eq!(
        game.is_legal(&set(
            Color::Red,
            PieceKind::Mono,
            Rotation::None,
            false,
            19,
            19
        )),
        Ok(())
    );
}

#[test]
fn stuck_colours_are_skipped_and_a_record_may_name_their_passes() {
    // A random game to its end, replayed as a record with a pass line for
    // every skipped turn, reaches the same position; so does the record
    // written in Pentobi's notation.
    let mut rng = rng(21);
    let mut record = Vec::new();
    let game = {
        let mut game = Classic::new(ClassicPlayers::Two);
        let mut moves = MoveList::new();
        while !game.is_over() {
            let turn = game.turn();
            game.legal_moves(&mut moves);
            let p = moves.get(below(&mut rng, moves.len())).expect("a move");
            game.play(&Move::Set(p)).expect("legal");
            record.push(Move::Set(p));
            // Passes for the colours skipped after this move.
            let next = if game.is_over() {
                (turn / 4 + 2) * 4
            } else {
                game.turn()
            };
            for skipped in turn + 1..next {
                record.push(Move::Skip(Color::from_index(skipped as usize)));
            }
        }
        game
    };
    assert!(record.iter().any(|m| matches!(m, Move::Skip(_))));
    let mut replayed = Classic::new(ClassicPlayers::Two);
    for mv in &record {
        replayed
            .play_recorded(mv)
            .expect("a record of a legal game");
    }
    assert_eq!(replayed, game);
    // Written and read back in Pentobi's notation.
    let mut again = Classic::new(ClassicPlayers::Two);
    for mv in &record {
        let line = match mv {
            Move::Set(p) => format!(
                "{} {}",
                p.color,
                spielleiter_rules::blokus::notation::PentobiCells(p)
            ),
            Move::Skip(color) => format!("{color} pass"),
        };
        again
            .play_recorded(&parse_classic(&line).expect("a valid line"))
            .expect("legal");
    }
    assert_eq!(again, game);
}

#[test]
fn setups_round_trip_and_are_checked() {
    let mut rng = rng(40);
    for players in ClassicPlayers::ALL {
        random_game(players, &mut rng, |game| {
            let setup = game.to_setup();
            let rebuilt = Classic::from_setup(&setup).expect("a reachable position is consistent");
            assert_eq!(&rebuilt, game);
        });
    }
    // BLUE's first piece in YELLOW's corner.
    let mut setup = ClassicSetup::new(ClassicPlayers::Four);
    setup.board[0][19] = Some(Color::Blue);
    setup.remaining[Color::Blue].remove(PieceKind::Mono);
    assert_eq!(
        Classic::from_setup(&setup),
        Err(SetupError::NotInOwnCorner(Color::Blue))
    );
    setup.board[0][19] = None;
    assert_eq!(
        Classic::from_setup(&setup),
        Err(SetupError::CellCount {
            color: Color::Blue,
            on_board: 0,
            placed: 1
        })
    );
}
