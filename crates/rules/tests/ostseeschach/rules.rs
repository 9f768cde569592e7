//! The rules of `ostseeschach-2022.md` one by one, with the examples of the
//! official unit tests (`BoardTest`, `GameTest`, `GameStateTest`) where
//! they exist.

use std::collections::BTreeSet;

use spielleiter_rules::ostseeschach::{
    ByTeam, Coordinates, EndReason, Mistake, Move, MoveList, Ostseeschach, Outcome, Piece,
    PieceKind, Setup, SetupError, StartLine, Team, WinReason,
};

use crate::util::{piece, position, setup};

/// The targets of the stack on `(x, y)` among the legal moves.
fn targets(game: &Ostseeschach, x: i32, y: i32) -> BTreeSet<(i32, i32)> {
    let mut moves = MoveList::new();
    game.legal_moves(&mut moves);
    moves
        .iter()
        .filter(|mv| mv.from == Coordinates::new(x, y))
        .map(|mv| (mv.to.x, mv.to.y))
        .collect()
}

fn set(fields: &[(i32, i32)]) -> BTreeSet<(i32, i32)> {
    fields.iter().copied().collect()
}

fn at(game: &Ostseeschach, x: i32, y: i32) -> Option<Piece> {
    game.piece_at(Coordinates::new(x, y))
}

#[test]
fn the_initial_board_rotates_ones_line_for_two() {
    let line: StartLine = "RSHMMHSR".parse().expect("valid");
    let game = Ostseeschach::new(line);
    assert_eq!(game.pieces().count(), 16);
    for y in 0..8 {
        let kind = line.kind_at(y as usize);
        assert_eq!(at(&game, 0, y), Some(Piece::new(kind, Team::One)));
        assert_eq!(at(&game, 7, 7 - y), Some(Piece::new(kind, Team::Two)));
    }
    assert_eq!((game.turn(), game.team_to_move()), (0, Team::One));
    assert_eq!((game.ambers(Team::One), game.ambers(Team::Two)), (0, 0));
    assert_eq!(game.last_move(), None);
    assert_eq!(game.end_reason(), None);
    assert_eq!(game.piece_count(Team::Two), 8);
    // The official drawing: y down, x along the line, TWO in lower case.
    let drawing = game.to_string();
    let lines: Vec<&str> = drawing.lines().collect();
    assert_eq!(lines.len(), 8);
    assert_eq!(lines[0], "RR------------rr");
    assert_eq!(lines[1], "SS------------ss");
    assert_eq!(lines[3], "MM------------mm");
    assert_eq!(Setup::new(line), game.to_setup());
}

#[test]
fn every_kind_steps_as_the_table_says_for_both_teams() {
    // Alone in the middle of the board: every step of §4 is open.
    let jumps = [
        (1, 2),
        (1, 4),
        (5, 2),
        (5, 4),
        (2, 1),
        (4, 1),
        (2, 5),
        (4, 5),
    ];
    let cases: [(&str, &[(i32, i32)]); 8] = [
        ("H", &[(4, 4), (4, 2)]),
        ("h", &[(2, 4), (2, 2)]),
        ("M", &[(2, 3), (4, 3), (3, 2), (3, 4)]),
        ("m", &[(2, 3), (4, 3), (3, 2), (3, 4)]),
        ("S", &[(2, 2), (2, 4), (4, 2), (4, 4), (4, 3)]),
        ("s", &[(2, 2), (2, 4), (4, 2), (4, 4), (2, 3)]),
        ("R", &jumps),
        ("r", &jumps),
    ];
    for (text, expected) in cases {
        let team = piece(text).team;
        // The opponent needs a piece somewhere harmless.
        let other = if team == Team::One { "r" } else { "R" };
        let turn = team.index() as u32;
        let game = position(turn, [0, 0], &[((3, 3), text), ((0, 7), other)]);
        assert_eq!(targets(&game, 3, 3), set(expected), "{text}");
        for &(x, y) in expected {
            assert_eq!(game.is_legal(&Move::new(3, 3, x, y)), Ok(()), "{text}");
        }
    }
}

#[test]
fn steps_off_the_board_and_onto_own_pieces_are_not_moves() {
    // A Robbe in the corner has two jumps; one lands on an own piece.
    let game = position(0, [0, 0], &[((0, 0), "R"), ((1, 2), "M"), ((7, 7), "r")]);
    assert_eq!(targets(&game, 0, 0), set(&[(2, 1)]));
    // The Möwe beside it has all four steps.
    assert_eq!(targets(&game, 1, 2), set(&[(0, 2), (2, 2), (1, 1), (1, 3)]));
    // A Herzmuschel on the side edge has one forward step.
    let game = position(1, [0, 0], &[((5, 0), "h"), ((0, 0), "R")]);
    assert_eq!(targets(&game, 5, 0), set(&[(4, 1)]));
}

#[test]
fn light_pieces_cannot_move_backwards_or_sideways() {
    // BoardTest "can't move backwards or off the fields": Seesterne and
    // Herzmuscheln of both teams on (0..4, 4) cannot step along y.
    let fields = [((0, 4), "S"), ((1, 4), "s"), ((2, 4), "H"), ((3, 4), "h")];
    for ((x, y), text) in fields {
        let team = piece(text).team;
        let game = position(team.index() as u32, [0, 0], &fields);
        let sideways = if team == Team::One { y - 1 } else { y + 1 };
        let mv = Move::new(x as i32, y as i32, x as i32, sideways as i32);
        assert_eq!(game.is_legal(&mv), Err(Mistake::InvalidMovement), "{text}");
    }
    // Nor backwards, in their own team's sense.
    let game = position(0, [0, 0], &[((3, 3), "H"), ((5, 5), "h")]);
    assert_eq!(
        game.is_legal(&Move::new(3, 3, 2, 2)),
        Err(Mistake::InvalidMovement)
    );
    let game = position(1, [0, 0], &[((3, 3), "H"), ((5, 5), "s")]);
    assert_eq!(
        game.is_legal(&Move::new(5, 5, 6, 5)),
        Err(Mistake::InvalidMovement)
    );
    assert_eq!(game.is_legal(&Move::new(5, 5, 4, 5)), Ok(()));
    assert_eq!(game.is_legal(&Move::new(5, 5, 6, 6)), Ok(()));
}

#[test]
fn mistakes_come_in_the_official_order() {
    // ONE: Robbe (1, 1), Möwe (2, 3); TWO: Herzmuschel (4, 4).
    let game = position(0, [0, 0], &[((1, 1), "R"), ((2, 3), "M"), ((4, 4), "h")]);
    let cases = [
        // 1. The start field must hold an own stack; this comes before
        //    everything else, even a target off the board.
        (Move::new(5, 5, 5, 6), Mistake::WrongColor),
        (Move::new(5, 5, 99, 6), Mistake::WrongColor),
        (Move::new(-1, 0, 0, 0), Mistake::WrongColor),
        (Move::new(i32::MIN, i32::MAX, 0, 0), Mistake::WrongColor),
        (Move::new(4, 4, 3, 3), Mistake::WrongColor),
        // 2. The target must be on the board, before the step is judged.
        (Move::new(1, 1, 1, 8), Mistake::OutOfBounds),
        (Move::new(1, 1, -1, 0), Mistake::OutOfBounds),
        (Move::new(1, 1, i32::MIN, i32::MIN), Mistake::OutOfBounds),
        // 3. The step must be one of the top piece's, before the target's
        //    owner is looked at.
        (Move::new(1, 1, 2, 2), Mistake::InvalidMovement),
        (Move::new(2, 3, 1, 1), Mistake::InvalidMovement),
        (Move::new(1, 1, 1, 1), Mistake::InvalidMovement),
        // 4. The target must not hold an own stack.
        (Move::new(1, 1, 2, 3), Mistake::DestinationBlocked),
    ];
    for (mv, mistake) in cases {
        assert_eq!(game.is_legal(&mv), Err(mistake), "{mv}");
        let mut copy = game.clone();
        assert_eq!(copy.play(&mv), Err(mistake), "{mv}");
        assert_eq!(copy, game, "a mistake leaves the position unchanged");
    }
    assert_eq!(game.is_legal(&Move::new(1, 1, 3, 2)), Ok(()));
    // BoardTest "can't move onto own piece".
    let game = position(0, [0, 0], &[((0, 0), "R"), ((1, 2), "R"), ((7, 7), "r")]);
    assert_eq!(
        game.is_legal(&Move::new(0, 0, 1, 2)),
        Err(Mistake::DestinationBlocked)
    );
    // The official names.
    let names: Vec<&str> = Mistake::ALL.iter().map(|m| m.name()).collect();
    assert_eq!(
        names,
        [
            "WRONG_COLOR",
            "START_EMPTY",
            "DESTINATION_BLOCKED",
            "OUT_OF_BOUNDS",
            "INVALID_MOVEMENT",
            "INVALID_MOVE",
            "INVALID_FORMAT"
        ]
    );
}

#[test]
fn a_capture_builds_a_tower_of_the_movers_kind_and_team() {
    // BoardTest "clones well": R on (0, 0) takes m on (1, 2).
    let mut game = position(0, [0, 0], &[((0, 0), "R"), ((1, 2), "m"), ((7, 7), "r")]);
    game.play(&Move::new(0, 0, 1, 2)).expect("legal");
    assert_eq!(at(&game, 0, 0), None);
    assert_eq!(at(&game, 1, 2), Some(piece("R2")));
    assert_eq!(game.ambers(Team::One), 0);
    assert_eq!(game.last_move(), Some(Move::new(0, 0, 1, 2)));
    assert_eq!(game.piece_count(Team::One), 1);
    assert_eq!(game.piece_count(Team::Two), 2);
    // TWO's Robbe takes the tower: height 3, an amber for TWO, the stack
    // is gone.
    let mut game = position(1, [0, 0], &[((1, 2), "R2"), ((3, 3), "r"), ((6, 6), "M")]);
    game.play(&Move::new(3, 3, 1, 2)).expect("legal");
    assert_eq!(at(&game, 1, 2), None);
    assert_eq!(at(&game, 3, 3), None);
    assert_eq!((game.ambers(Team::One), game.ambers(Team::Two)), (0, 1));
}

#[test]
fn a_tower_moves_like_its_top_piece_in_its_owners_direction() {
    // TWO owns a tower topped by a Herzmuschel: it steps towards −x.
    let game = position(1, [0, 0], &[((4, 4), "h2"), ((0, 0), "R")]);
    assert_eq!(targets(&game, 4, 4), set(&[(3, 3), (3, 5)]));
    // Moving without a capture keeps the tower whole.
    let mut moved = game.clone();
    moved.play(&Move::new(4, 4, 3, 5)).expect("legal");
    assert_eq!(at(&moved, 3, 5), Some(piece("h2")));
    // A Robbe tower jumps.
    let game = position(0, [0, 0], &[((3, 3), "R2"), ((7, 7), "r")]);
    assert_eq!(targets(&game, 3, 3).len(), 8);
}

#[test]
fn high_towers_and_the_opponents_line_turn_into_ambers() {
    // BoardTest "from tower" (which puts TWO's Möwe on x = 0, where no
    // light TWO piece can stand; here it stands on (1, 0)).
    let fields = [((0, 0), "S2"), ((1, 0), "m"), ((1, 1), "r"), ((5, 5), "M")];
    let game = position(0, [0, 0], &fields);
    // Not onto an own piece.
    let blocked = position(0, [0, 0], &[((0, 0), "S2"), ((1, 0), "M"), ((1, 1), "r")]);
    assert_eq!(
        blocked.is_legal(&Move::new(0, 0, 1, 0)),
        Err(Mistake::DestinationBlocked)
    );
    // The tower takes the Robbe: height 3, one amber, the stack is gone.
    let mut tower = game.clone();
    tower.play(&Move::new(0, 0, 1, 1)).expect("legal");
    assert_eq!(tower.ambers(Team::One), 1);
    assert_eq!((at(&tower, 1, 1), at(&tower, 0, 0)), (None, None));
    // TWO's Möwe takes the tower on ONE's start line: height 3 and a light
    // piece on its opponent's line at once, two ambers, removed once.
    let mut both = position(1, [0, 0], &fields);
    both.play(&Move::new(1, 0, 0, 0)).expect("legal");
    assert_eq!(both.ambers(Team::Two), 2);
    assert_eq!((at(&both, 0, 0), at(&both, 1, 0)), (None, None));
    assert_eq!(both.pieces().count(), 2);
    // Two towers: height 4, still one amber.
    let mut four = position(0, [0, 0], &[((2, 2), "M2"), ((3, 2), "h2"), ((6, 6), "r")]);
    four.play(&Move::new(2, 2, 3, 2)).expect("legal");
    assert_eq!(four.ambers(Team::One), 1);
    assert_eq!(at(&four, 3, 2), None);
}

#[test]
fn light_pieces_score_on_the_opponents_start_line_only() {
    // BoardTest "amber from position".
    // ONE's Möwe reaches x = 7: an amber, removed.
    let mut game = position(0, [0, 0], &[((6, 0), "M"), ((0, 7), "r")]);
    game.play(&Move::new(6, 0, 7, 0)).expect("legal");
    assert_eq!((game.ambers(Team::One), at(&game, 7, 0)), (1, None));
    // TWO's Möwe on x = 7 is on its own line: nothing.
    let mut game = position(1, [0, 0], &[((6, 0), "m"), ((0, 7), "R")]);
    game.play(&Move::new(6, 0, 7, 0)).expect("legal");
    assert_eq!(
        (game.ambers(Team::Two), at(&game, 7, 0)),
        (0, Some(piece("m")))
    );
    // A Robbe scores nothing there and stays.
    let mut game = position(0, [0, 0], &[((6, 0), "R"), ((0, 7), "r")]);
    game.play(&Move::new(6, 0, 7, 2)).expect("legal");
    assert_eq!(
        (game.ambers(Team::One), at(&game, 7, 2)),
        (0, Some(piece("R")))
    );
    // Also not when it captures there: a Robbe tower stands on x = 7.
    let mut game = position(0, [0, 0], &[((5, 1), "R"), ((7, 2), "r"), ((0, 7), "r")]);
    game.play(&Move::new(5, 1, 7, 2)).expect("legal");
    assert_eq!(
        (game.ambers(Team::One), at(&game, 7, 2)),
        (0, Some(piece("R2")))
    );
    // A light piece capturing a single piece on the line: one amber, both
    // pieces gone.
    let mut game = position(1, [0, 0], &[((1, 3), "s"), ((0, 4), "R"), ((0, 7), "R")]);
    game.play(&Move::new(1, 3, 0, 4)).expect("legal");
    assert_eq!((game.ambers(Team::Two), at(&game, 0, 4)), (1, None));
    assert_eq!(game.piece_count(Team::One), 1);
    // The amber goes to the mover whatever was buried: ONE's tower over a
    // TWO piece, taken by TWO.
    let mut game = position(1, [0, 0], &[((3, 3), "S2"), ((4, 4), "s"), ((0, 0), "R")]);
    game.play(&Move::new(4, 4, 3, 3)).expect("legal");
    assert_eq!((game.ambers(Team::One), game.ambers(Team::Two)), (0, 1));
}

#[test]
fn the_game_ends_after_the_round_in_which_a_team_has_two_ambers() {
    // ONE has one amber and scores its second; TWO still answers.
    let fields = [((6, 3), "M"), ((2, 2), "h"), ((0, 0), "R"), ((7, 7), "r")];
    let mut game = position(10, [1, 0], &fields);
    game.play(&Move::new(6, 3, 7, 3)).expect("legal");
    assert_eq!(game.ambers(Team::One), 2);
    assert_eq!((game.is_over(), game.end_reason()), (false, None));
    assert!(game.has_legal_move());
    game.play(&Move::new(2, 2, 1, 1)).expect("legal");
    assert_eq!(game.end_reason(), Some(EndReason::Ambers));
    assert!(game.is_over() && !game.has_legal_move());
    assert_eq!(
        game.outcome(),
        Some(Outcome {
            end: EndReason::Ambers,
            winner: Some(Team::One),
            reason: WinReason::MoreAmbers,
        })
    );
    // No team is on turn any more.
    let mut moves = MoveList::new();
    game.legal_moves(&mut moves);
    assert!(moves.is_empty() && game.count_legal_moves() == 0);
    let after = game.clone();
    assert_eq!(game.play(&Move::new(0, 0, 1, 2)), Err(Mistake::WrongColor));
    assert_eq!(game, after);
    // TWO's answer can equalise: both have two, the positions decide.
    let mut game = position(10, [1, 1], &[((6, 3), "M"), ((1, 2), "h"), ((3, 0), "H")]);
    game.play(&Move::new(6, 3, 7, 3)).expect("legal");
    game.play(&Move::new(1, 2, 0, 1)).expect("legal");
    assert_eq!((game.ambers(Team::One), game.ambers(Team::Two)), (2, 2));
    // ONE's Herzmuschel is 3 from x = 0; TWO has no light piece: a draw.
    assert_eq!(game.winner(), None);
    assert_eq!(game.outcome().map(|o| o.reason), Some(WinReason::Equal));
}

#[test]
fn the_game_ends_after_round_30() {
    // GameStateTest "isOver": turn 58 and 59 run, turn 60 is over.
    let fields = [((3, 3), "M"), ((5, 5), "m")];
    let mut game = position(58, [0, 0], &fields);
    assert!(!game.is_over());
    game.play(&Move::new(3, 3, 3, 4)).expect("legal");
    assert_eq!((game.turn(), game.is_over()), (59, false));
    game.play(&Move::new(5, 5, 5, 4)).expect("legal");
    assert_eq!(
        (game.turn(), game.end_reason()),
        (60, Some(EndReason::RoundLimit))
    );
    // Equal ambers: ONE's Möwe on x = 3 is 3 from its line, TWO's on
    // x = 5 only 2.
    assert_eq!(game.winner(), Some(Team::One));
    assert_eq!(
        game.outcome().map(|o| o.reason),
        Some(WinReason::LightPiecesAhead)
    );
}

#[test]
fn equal_ambers_are_decided_by_the_light_pieces_positions() {
    // GameTest "WinConditions", with reachable turns: H (6, 6) is 6 from
    // ONE's line, s (2, 1) is 5 from TWO's.
    let game = position(2, [2, 2], &[((6, 6), "H"), ((2, 1), "s")]);
    assert_eq!(
        game.outcome(),
        Some(Outcome {
            end: EndReason::Ambers,
            winner: Some(Team::One),
            reason: WinReason::LightPiecesAhead,
        })
    );
    assert_eq!(game.score_parts(Team::One), [2, 6]);
    assert_eq!(game.score_parts(Team::Two), [2, 5]);
    // With the Seestern on (1, 1) both lead by 6: a draw.
    let game = position(4, [2, 2], &[((6, 6), "H"), ((1, 1), "s")]);
    assert_eq!(game.winner(), None);
    assert_eq!(game.score_parts(Team::One), [2, 6]);
    assert_eq!(game.score_parts(Team::Two), [2, 6]);
    // GameTest's last board: ONE [6, 5], TWO [6]: only the first position
    // is compared, equal: a draw.
    let fields = [((6, 0), "H"), ((1, 0), "m"), ((5, 0), "S"), ((4, 0), "r")];
    let game = position(2, [2, 2], &fields);
    assert_eq!(
        game.outcome().map(|o| (o.winner, o.reason)),
        Some((None, WinReason::Equal))
    );
    // The second position decides when the first is equal.
    let fields = [((6, 0), "H"), ((5, 2), "S"), ((1, 0), "m"), ((3, 1), "s")];
    let game = position(60, [1, 1], &fields);
    assert_eq!(game.winner(), Some(Team::One));
    // Buried pieces and Robben do not count; a tower counts for its top.
    let fields = [((1, 1), "H"), ((6, 6), "R"), ((5, 5), "m2")];
    let game = position(60, [0, 0], &fields);
    assert_eq!(game.winner(), Some(Team::Two));
    // More ambers win whatever the positions.
    let game = position(60, [0, 1], &[((6, 6), "H"), ((6, 1), "s")]);
    assert_eq!(
        game.outcome().map(|o| (o.winner, o.reason)),
        Some((Some(Team::Two), WinReason::MoreAmbers))
    );
    // A team without light pieces: a draw, and 0 for its lead.
    let game = position(60, [0, 0], &[((6, 6), "H"), ((6, 1), "r")]);
    assert_eq!(game.winner(), None);
    assert_eq!(game.score_parts(Team::Two), [0, 0]);
}

#[test]
fn a_team_that_cannot_move_loses() {
    // ONE has lost all its pieces and is to move.
    let game = position(2, [0, 1], &[((3, 3), "m"), ((4, 4), "r2")]);
    assert_eq!(game.end_reason(), Some(EndReason::NoMove));
    assert!(game.is_over() && !game.has_legal_move());
    assert_eq!(
        game.outcome(),
        Some(Outcome {
            end: EndReason::NoMove,
            winner: Some(Team::Two),
            reason: WinReason::OpponentCannotMove,
        })
    );
    assert_eq!(game.score_parts(Team::One), [0, 0]);
    assert_eq!(game.score_parts(Team::Two), [1, 4]);
    // Every move fails an official check.
    assert_eq!(
        game.is_legal(&Move::new(3, 3, 2, 3)),
        Err(Mistake::WrongColor)
    );
    // The round rules come first: at the end of the round the ambers
    // decide, whoever could move.
    let game = position(2, [0, 2], &[((3, 3), "m")]);
    assert_eq!(game.end_reason(), Some(EndReason::Ambers));
    // While the game runs there is no outcome; the parts are as they stand.
    let game = position(3, [1, 0], &[((3, 3), "m"), ((1, 1), "H")]);
    assert_eq!((game.outcome(), game.winner()), (None, None));
    assert_eq!(game.score_parts(Team::One), [1, 1]);
}

#[test]
fn setups_round_trip_and_bad_ones_are_named() {
    let mut good = setup(5, &[((3, 3), "R2"), ((4, 5), "s"), ((0, 0), "M")]);
    good.ambers = ByTeam([1, 1]);
    good.last_move = Some(Move::new(5, 4, 3, 3));
    let game = Ostseeschach::from_setup(&good).expect("consistent");
    assert_eq!(game.to_setup(), good);
    assert_eq!(game.last_move(), good.last_move);

    let bad = |mut edit: Box<dyn FnMut(&mut Setup)>| {
        let mut s = good.clone();
        edit(&mut s);
        Ostseeschach::from_setup(&s).expect_err("inconsistent")
    };
    assert_eq!(bad(Box::new(|s| s.turn = 61)), SetupError::TurnLimit(61));
    assert_eq!(
        bad(Box::new(|s| s.set(1, 1, Some(piece("m3"))))),
        SetupError::Height {
            field: Coordinates::new(1, 1),
            count: 3
        }
    );
    assert_eq!(
        bad(Box::new(|s| s.set(
            1,
            1,
            Some(Piece {
                count: 0,
                ..piece("m")
            })
        ))),
        SetupError::Height {
            field: Coordinates::new(1, 1),
            count: 0
        }
    );
    assert_eq!(
        bad(Box::new(|s| s.set(0, 6, Some(piece("h"))))),
        SetupError::LightPieceOnGoalLine(Coordinates::new(0, 6))
    );
    assert_eq!(
        bad(Box::new(|s| s.set(7, 6, Some(piece("H2"))))),
        SetupError::LightPieceOnGoalLine(Coordinates::new(7, 6))
    );
    // TWO's own line is fine for its light pieces, any line for a Robbe.
    assert!(
        Ostseeschach::from_setup(&{
            let mut s = good.clone();
            s.set(7, 6, Some(piece("h")));
            s.set(7, 5, Some(piece("R")));
            s
        })
        .is_ok()
    );
    assert_eq!(
        bad(Box::new(|s| {
            s.set(1, 1, Some(piece("R")));
            s.set(1, 2, Some(piece("R")));
        })),
        SetupError::KindCount {
            team: Team::One,
            kind: PieceKind::Robbe,
            stacks: 3
        }
    );
    assert_eq!(
        bad(Box::new(|s| {
            // Seven ONE pieces buried under TWO's towers, plus its two.
            for (i, text) in ["h2", "h2", "m2", "m2", "r2", "r2", "s2"]
                .iter()
                .enumerate()
            {
                s.set(6, i, Some(piece(text)));
            }
        })),
        SetupError::PieceCount {
            team: Team::One,
            pieces: 9
        }
    );
    assert_eq!(
        bad(Box::new(|s| s.ambers = ByTeam([1, 2]))),
        SetupError::Ambers {
            team: Team::Two,
            ambers: 2
        }
    );
    assert_eq!(
        bad(Box::new(|s| s.ambers = ByTeam([4, 0]))),
        SetupError::Ambers {
            team: Team::One,
            ambers: 4
        }
    );
    assert_eq!(
        bad(Box::new(|s| {
            s.turn = 1;
            s.ambers = ByTeam([0, 1]);
            s.last_move = None;
        })),
        SetupError::Ambers {
            team: Team::Two,
            ambers: 1
        }
    );
    for mv in [
        // Onto a field that TWO (to move) occupies.
        Move::new(3, 4, 4, 5),
        // The start field is occupied.
        Move::new(4, 5, 3, 3),
        // ONE's Robbe cannot have jumped like that.
        Move::new(2, 2, 3, 3),
        // Off the board.
        Move::new(3, 8, 3, 7),
    ] {
        let mv_for = mv;
        assert_eq!(
            bad(Box::new(move |s| s.last_move = Some(mv_for))),
            SetupError::LastMove(mv),
            "{mv}"
        );
    }
    // ONE's Robbe tower can have jumped there; an empty target field fits
    // any move (the stack scored an amber).
    for mv in [Move::new(1, 2, 3, 3), Move::new(6, 6, 7, 7)] {
        let mut s = good.clone();
        s.last_move = Some(mv);
        assert!(Ostseeschach::from_setup(&s).is_ok(), "{mv}");
    }
    assert_eq!(
        bad(Box::new(|s| {
            s.turn = 0;
            s.ambers = ByTeam([0, 0]);
        })),
        SetupError::LastMove(Move::new(5, 4, 3, 3))
    );
    // Every error has a message.
    assert!(SetupError::TurnLimit(61).to_string().contains("61"));
}
