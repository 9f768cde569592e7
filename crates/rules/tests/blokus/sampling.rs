//! `random_placement` of every variant: always a legal placement of the
//! player on turn, `None` exactly when the game is over, and every legal
//! placement equally likely (a chi-square test per position, with fixed
//! seeds).

use std::collections::BTreeMap;

use rand_pcg::Pcg64Mcg;
use spielleiter_rules::blokus::{
    Blokus, Blokus2027, Classic, ClassicPlayers, Move, MoveList,
    bcl::{Bcl, BclMove, BclMoveList},
};

use crate::util::{below, cell_key, rng};

/// Draws `rounds` placements per legal placement of the position and
/// checks the counts against the uniform distribution: the chi-square
/// statistic must stay below its mean plus six standard deviations.
fn assert_uniform<K: Ord + std::fmt::Debug>(
    legal: &[K],
    rounds: usize,
    mut draw: impl FnMut() -> K,
) {
    let mut counts: BTreeMap<&K, usize> = legal.iter().map(|k| (k, 0)).collect();
    let draws = rounds * legal.len();
    for _ in 0..draws {
        let key = draw();
        *counts
            .get_mut(&key)
            .unwrap_or_else(|| panic!("{key:?} is not a legal placement")) += 1;
    }
    let expected = rounds as f64;
    let chi2: f64 = counts
        .values()
        .map(|&c| (c as f64 - expected).powi(2) / expected)
        .sum();
    let df = (legal.len() - 1) as f64;
    assert!(
        chi2 < df + 6.0 * (2.0 * df).sqrt() + 10.0,
        "chi-square {chi2:.1} with {df} degrees of freedom"
    );
}

/// Positions along a random game of a 20×20 variant: every `step`-th.
fn positions_20<G: Clone>(
    mut game: G,
    rng: &mut Pcg64Mcg,
    step: usize,
    legal: impl Fn(&G, &mut MoveList),
    is_over: impl Fn(&G) -> bool,
    play: impl Fn(&mut G, &Move),
) -> Vec<G> {
    let mut moves = MoveList::new();
    let mut out = Vec::new();
    let mut index = 0;
    while !is_over(&game) {
        if index % step == 0 {
            out.push(game.clone());
        }
        index += 1;
        legal(&game, &mut moves);
        let p = moves.get(below(rng, moves.len())).expect("a move");
        play(&mut game, &Move::Set(p));
    }
    out.push(game);
    out
}

#[test]
fn classic_samples_are_legal_and_uniform() {
    let mut rng = rng(70);
    let mut sampler = crate::util::rng(71);
    let mut moves = MoveList::new();
    let positions = positions_20(
        Classic::new(ClassicPlayers::Four),
        &mut rng,
        9,
        |g, m| g.legal_moves(m),
        Classic::is_over,
        |g, m| g.play(m).expect("legal"),
    );
    for game in &positions {
        game.legal_moves(&mut moves);
        let legal: Vec<_> = moves.iter().map(|p| cell_key(&p)).collect();
        match game.random_placement(&mut sampler) {
            None => assert!(game.is_over()),
            Some(p) => {
                assert!(!game.is_over());
                assert_eq!(game.is_legal(&Move::Set(p)), Ok(()));
                let p_in_list = moves.iter().any(|q| q == p);
                assert!(p_in_list, "labelled as the generator labels it");
                assert_uniform(&legal, 40, || {
                    cell_key(&game.random_placement(&mut sampler).expect("a placement"))
                });
            }
        }
    }
    assert!(positions.len() >= 6);
}

#[test]
fn season_samples_are_legal_and_uniform() {
    let mut rng = rng(72);
    let mut sampler = crate::util::rng(73);
    let mut moves = MoveList::new();
    let positions = positions_20(
        Blokus::new(Blokus::random_start_piece(&mut rng)),
        &mut rng,
        11,
        |g, m| g.legal_moves(m),
        Blokus::is_over,
        |g, m| g.play(m).expect("legal"),
    );
    for game in &positions {
        game.legal_moves(&mut moves);
        let legal: Vec<_> = moves.iter().map(|p| cell_key(&p)).collect();
        match game.random_placement(&mut sampler) {
            None => assert!(game.is_over()),
            Some(p) => {
                assert_eq!(game.is_legal(&Move::Set(p)), Ok(()));
                assert_uniform(&legal, 40, || {
                    cell_key(&game.random_placement(&mut sampler).expect("a placement"))
                });
            }
        }
    }
    // The 2027 border start: 68 PENTO_X placements, equally likely.
    let game = Blokus2027::new(spielleiter_rules::blokus::PieceKind::PentoX);
    game.legal_moves(&mut moves);
    let legal: Vec<_> = moves.iter().map(|p| cell_key(&p)).collect();
    assert_eq!(legal.len(), 68);
    assert_uniform(&legal, 100, || {
        cell_key(&game.random_placement(&mut sampler).expect("a placement"))
    });
}

#[test]
fn bcl_samples_are_legal_and_uniform() {
    let mut rng = rng(74);
    let mut sampler = crate::util::rng(75);
    let mut moves = BclMoveList::new();
    let mut checked = 0;
    for _ in 0..3 {
        let mut game = Bcl::new();
        while !game.is_over() {
            game.legal_moves(&mut moves);
            let legal: Vec<_> = moves.iter().map(|p| crate::bcl::key(&p)).collect();
            let p = game.random_placement(&mut sampler).expect("a placement");
            assert_eq!(game.is_legal(&BclMove::Place(p)), Ok(()));
            assert!(moves.iter().any(|q| q == p));
            if legal.len() > 1 {
                assert_uniform(&legal, 30, || {
                    crate::bcl::key(&game.random_placement(&mut sampler).expect("a placement"))
                });
                checked += 1;
            }
            let next = moves.get(below(&mut rng, moves.len())).expect("a move");
            game.play(&BclMove::Place(next)).expect("legal");
        }
        assert_eq!(game.random_placement(&mut sampler), None);
    }
    assert!(checked > 20);
}

#[test]
fn random_playouts_end_like_generated_games() {
    // Playouts by sampling alone reach the end by the same rules: over
    // exactly when no placement is left.
    let mut sampler = rng(76);
    for players in ClassicPlayers::ALL {
        let mut game = Classic::new(players);
        while let Some(p) = game.random_placement(&mut sampler) {
            game.play(&Move::Set(p))
                .expect("sampled placements are legal");
        }
        assert!(game.is_over());
    }
    let mut game = Bcl::new();
    while let Some(p) = game.random_placement(&mut sampler) {
        game.play(&BclMove::Place(p))
            .expect("sampled placements are legal");
    }
    assert!(game.is_over());
}
