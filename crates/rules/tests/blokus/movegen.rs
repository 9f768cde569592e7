//! The bitboard move generator against the brute-force reference of
//! `util::reference_placements`, on thousands of positions of random games.

use std::collections::BTreeSet;

use spielleiter_rules::blokus::{Blokus, MoveList, Rotation};

use crate::util::{
    below, check_random_placements, random_game, random_start, reference_placements, rng,
};

/// Compares every colour's generated placements with the reference.
fn check_position(game: &Blokus, moves: &mut MoveList) {
    crate::util::check_position(game, moves, reference_placements);
}

#[test]
fn generated_moves_equal_the_reference_on_random_positions() {
    let mut rng = rng(2021);
    let mut moves = MoveList::new();
    let mut positions = 0;
    let mut total_moves = 0;
    while positions < 2000 {
        let start = random_start(&mut rng);
        random_game(Blokus::new(start), &mut rng, 30, |game| {
            check_position(game, &mut moves);
            positions += 1;
            total_moves += game.count_legal_moves();
        });
    }
    // The sample must include real mid-game positions, not just openings.
    assert!(
        total_moves > 100 * positions,
        "{total_moves} moves in {positions} positions"
    );
}

#[test]
fn canonical_labels_are_the_first_label_producing_the_cells() {
    let mut rng = rng(7);
    let mut moves = MoveList::new();
    random_game(Blokus::new(random_start(&mut rng)), &mut rng, 0, |game| {
        game.legal_moves(&mut moves);
        for placement in &moves {
            let labels = Rotation::ALL
                .iter()
                .map(|&r| (r, false))
                .chain(Rotation::ALL.iter().map(|&r| (r, true)));
            let first = labels
                .map(|(rotation, flipped)| {
                    (rotation, flipped, placement.kind.shape(rotation, flipped))
                })
                .find(|&(_, _, shape)| {
                    shape == placement.kind.shape(placement.rotation, placement.flipped)
                })
                .expect("the placement's own label produces its cells");
            assert_eq!((first.0, first.1), (placement.rotation, placement.flipped));
        }
    });
}

#[test]
fn is_legal_agrees_with_the_reference_on_arbitrary_placements() {
    let mut rng = rng(99);
    let mut checked = 0;
    let mut legal = 0;
    let mut mistakes = BTreeSet::new();
    while checked < 200_000 {
        let start = random_start(&mut rng);
        let mut snapshots = Vec::new();
        let mut pick = crate::util::rng(checked as u64);
        random_game(Blokus::new(start), &mut rng, 50, |game| {
            if below(&mut pick, 4) == 0 {
                snapshots.push(game.clone());
            }
        });
        for game in snapshots.iter().filter(|g| !g.is_over()) {
            let color = game.current_color();
            let reference = reference_placements(&game.to_setup(), color);
            legal += check_random_placements(
                &mut rng,
                color,
                2000,
                &reference,
                |mv| game.is_legal(mv),
                |m| m.name(),
                &mut mistakes,
            );
            checked += 2000;
        }
    }
    // Sanity of the sample: some legal placements and every kind of cell
    // defect.
    assert!(
        legal > 300,
        "only {legal} of {checked} random placements were legal"
    );
    for mistake in [
        "DUPLICATE_SHAPE",
        "OUT_OF_BOUNDS",
        "OBSTRUCTED",
        "TOUCHES_SAME_COLOR",
        "NO_SHARED_CORNER",
    ] {
        assert!(
            mistakes.contains(mistake),
            "{mistake} never seen: {mistakes:?}"
        );
    }
}
