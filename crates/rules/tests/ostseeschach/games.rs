//! Properties of random complete games: pieces are conserved as stack
//! heights, towers never exceed two, ambers account for every removed
//! stack, and the game ends by the rules.

use spielleiter_rules::ostseeschach::{
    EndReason, MoveList, Ostseeschach, Piece, ROUND_LIMIT, StartLine, Team, WinReason,
};

use crate::{
    reference::Board,
    util::{below, rng},
};

/// The sum of the stack heights on the board.
fn pieces_on_board(game: &Ostseeschach) -> u32 {
    game.pieces().map(|(_, p)| u32::from(p.count)).sum()
}

#[test]
fn random_games_conserve_pieces_and_count_ambers() {
    let mut rng = rng(30);
    let mut moves = MoveList::new();
    let mut ends = [0; 3];
    let mut reasons = [0; 4];
    let mut ambers_by_height = 0;
    let mut ambers_by_line = 0;
    for _ in 0..2000 {
        let line = StartLine::random(&mut rng);
        let mut game = Ostseeschach::new(line);
        let mut reference = Board::new(&line.to_string());
        // Pieces that left the board, as the ambers explain them.
        let mut removed = 0;
        while !game.is_over() {
            assert!(game.turn() < 2 * ROUND_LIMIT);
            game.legal_moves(&mut moves);
            let mv = moves.get(below(&mut rng, moves.len())).expect("a move");
            let team = game.team_to_move();
            let mover = game.piece_at(mv.from).expect("a mover");
            let target = game.piece_at(mv.to);
            let before = (pieces_on_board(&game), game.ambers(team));
            game.play(&mv).expect("legal");
            reference.play((mv.from.x, mv.from.y, mv.to.x, mv.to.y));

            let height = u32::from(mover.count) + target.map_or(0, |t| u32::from(t.count));
            let on_line = mover.kind.is_light() && mv.to.x == team.opponent().start_line();
            let gain = u32::from(height >= 3) + u32::from(on_line);
            ambers_by_height += usize::from(height >= 3);
            ambers_by_line += usize::from(on_line);
            assert_eq!(game.ambers(team), before.1 + gain, "{mv}");
            match game.piece_at(mv.to) {
                // A stack that scored is gone with all its pieces.
                None => {
                    assert!(gain > 0);
                    assert_eq!(pieces_on_board(&game), before.0 - height);
                    removed += height;
                }
                // Otherwise the capture (if any) built a tower of two with
                // the mover's kind and owner on top.
                Some(stack) => {
                    assert_eq!(gain, 0);
                    assert!(height <= 2);
                    let expected = Piece {
                        count: height as u8,
                        ..mover
                    };
                    assert_eq!(stack, expected);
                    assert_eq!(pieces_on_board(&game), before.0);
                }
            }
            assert!(game.pieces().all(|(_, p)| (1..=2).contains(&p.count)));
            assert_eq!(pieces_on_board(&game) + removed, 16);
            assert_eq!(
                game.piece_count(Team::One) + game.piece_count(Team::Two),
                pieces_on_board(&game)
            );
            assert_eq!(
                reference.ambers,
                [game.ambers(Team::One), game.ambers(Team::Two)]
            );
        }
        let outcome = game.outcome().expect("over");
        ends[outcome.end as usize] += 1;
        reasons[outcome.reason as usize] += 1;
        match outcome.end {
            EndReason::Ambers => {
                assert_eq!(game.turn() % 2, 0);
                assert!(game.ambers(Team::One) >= 2 || game.ambers(Team::Two) >= 2);
            }
            EndReason::RoundLimit => assert_eq!(game.turn(), 2 * ROUND_LIMIT),
            EndReason::NoMove => assert_eq!(game.count_legal_moves(), 0),
        }
        assert_eq!(outcome.winner.map(Team::index), reference.winner());
        for team in Team::ALL {
            let [ambers, lead] = game.score_parts(team);
            assert_eq!(ambers, game.ambers(team));
            let light = game
                .pieces()
                .filter(|(_, p)| p.team == team && p.kind.is_light());
            let expected = light.map(|(f, _)| f.x.abs_diff(team.start_line())).max();
            assert_eq!(lead, expected.unwrap_or(0));
        }
        if outcome.reason == WinReason::MoreAmbers {
            assert_ne!(game.ambers(Team::One), game.ambers(Team::Two));
        }
    }
    // The games reach every regular end and every decision.
    assert!(ends[EndReason::Ambers as usize] > 100, "{ends:?}");
    assert!(ends[EndReason::RoundLimit as usize] > 100, "{ends:?}");
    assert!(reasons.iter().take(3).all(|&n| n > 10), "{reasons:?}");
    assert!(ambers_by_height > 100 && ambers_by_line > 100);
}
