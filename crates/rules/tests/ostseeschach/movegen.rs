//! The bitboard move generator, the move checker and move application
//! against the reference implementation, on thousands of positions: from
//! random games and random consistent setups.

use std::collections::BTreeSet;

use spielleiter_rules::ostseeschach::{Move, MoveList, Ostseeschach, Team};

use crate::{
    reference::Board,
    util::{random_game, random_setup, rng},
};

/// The generated moves as `(fx, fy, tx, ty)`, checked to be listed once each.
fn generated(game: &Ostseeschach, moves: &mut MoveList) -> BTreeSet<(i32, i32, i32, i32)> {
    game.legal_moves(moves);
    let list: Vec<Move> = moves.iter().collect();
    assert_eq!(list.len(), moves.len());
    for (index, mv) in list.iter().enumerate() {
        assert_eq!(moves.get(index), Some(*mv));
    }
    assert_eq!(moves.get(list.len()), None);
    let set: BTreeSet<_> = list
        .iter()
        .map(|m| (m.from.x, m.from.y, m.to.x, m.to.y))
        .collect();
    assert_eq!(set.len(), list.len(), "each move once");
    set
}

/// Compares everything the engine says about `game` with the reference;
/// with `sweep`, also the checker on every move between fields of
/// `-1..=8 × -1..=8`.
fn check_position(game: &Ostseeschach, moves: &mut MoveList, sweep: bool) {
    let setup = game.to_setup();
    let reference = Board::from_setup(&setup);
    let expected: BTreeSet<_> = reference.moves().into_iter().collect();
    assert_eq!(generated(game, moves), expected, "legal moves in {game:?}");
    assert_eq!(game.count_legal_moves(), expected.len());
    assert_eq!(game.has_legal_move(), !expected.is_empty());
    assert_eq!(game.is_over(), expected.is_empty());
    if game.is_over() {
        let winner = game.winner().map(Team::index);
        assert_eq!(winner, reference.winner(), "winner of {game:?}");
    } else {
        assert_eq!(game.outcome(), None);
    }

    // Every legal move, played, gives the reference's position.
    for &(fx, fy, tx, ty) in &expected {
        let mv = Move::new(fx, fy, tx, ty);
        assert_eq!(game.is_legal(&mv), Ok(()));
        let mut child = game.clone();
        child.play(&mv).expect("legal");
        let mut unchecked = game.clone();
        unchecked.play_unchecked(&mv);
        assert_eq!(child, unchecked);
        let mut reference_child = reference.clone();
        reference_child.play((fx, fy, tx, ty));
        let child_setup = child.to_setup();
        assert_eq!(
            Board::from_setup(&child_setup).fields,
            reference_child.fields,
            "{mv} in {game:?}"
        );
        assert_eq!(child_setup.ambers.0, reference_child.ambers);
        assert_eq!(child.turn(), reference_child.turn);
        assert_eq!(child.last_move(), Some(mv));
        // The position reached is a valid setup again.
        assert_eq!(Ostseeschach::from_setup(&child_setup), Ok(child));
    }

    if sweep {
        for fx in -1..=8 {
            for fy in -1..=8 {
                for tx in -1..=8 {
                    for ty in -1..=8 {
                        let mv = Move::new(fx, fy, tx, ty);
                        let verdict = game.is_legal(&mv);
                        assert_eq!(verdict, reference.check(&mv), "{mv} in {game:?}");
                        if verdict.is_err() {
                            let mut copy = game.clone();
                            assert_eq!(copy.play(&mv), verdict);
                            assert_eq!(&copy, game);
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn generated_moves_equal_the_reference_in_random_games() {
    let mut rng = rng(2022);
    let mut moves = MoveList::new();
    let mut positions = 0;
    let mut total_moves = 0;
    while positions < 5000 {
        random_game(Ostseeschach::random(&mut rng), &mut rng, |game| {
            check_position(game, &mut moves, positions % 50 == 0);
            positions += 1;
            total_moves += game.count_legal_moves();
        });
    }
    // Real positions, not just openings.
    assert!(
        total_moves > 10 * positions,
        "{total_moves} moves in {positions} positions"
    );
}

#[test]
fn generated_moves_equal_the_reference_on_random_setups() {
    let mut rng = rng(8);
    let mut moves = MoveList::new();
    let (mut over, mut stuck, mut towers) = (0, 0, 0);
    for index in 0..5000 {
        let setup = random_setup(&mut rng);
        let game = Ostseeschach::from_setup(&setup)
            .unwrap_or_else(|e| panic!("a consistent setup is accepted: {e}: {setup:?}"));
        assert_eq!(game.to_setup(), setup);
        check_position(&game, &mut moves, index % 50 == 0);
        over += usize::from(game.is_over());
        stuck += usize::from(
            game.is_over()
                && game
                    .outcome()
                    .is_some_and(|o| o.end == spielleiter_rules::ostseeschach::EndReason::NoMove),
        );
        towers += setup.pieces().filter(|(_, p)| p.count == 2).count();
    }
    // The sample covers finished games, stuck teams and towers.
    assert!(
        over > 100 && stuck > 50 && towers > 1000,
        "{over} {stuck} {towers}"
    );
}
