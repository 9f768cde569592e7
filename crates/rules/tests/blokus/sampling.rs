//! `random_placement` of every variant: always a legal placement of the
//! player on turn, `None` exactly when the game is over, and every legal
//! placement equally likely (a chi-square test per position, with fixed
//! seeds).

use std::collections::BTreeMap;

use rand_pcg::Pcg64Mcg;
use spielleiter_rules::blokus::{
    Blokus, Blokus2027, Classic, ClassicPlayers, Move, MoveList, Placement,
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

/// What the checks need of a 20×20 game type.
trait Game20: Clone {
    fn legal(&self, moves: &mut MoveList);
    fn over(&self) -> bool;
    fn play_legal(&mut self, placement: Placement);
    fn sample(&self, rng: &mut Pcg64Mcg) -> Option<Placement>;
    fn accepts(&self, placement: Placement) -> bool;
}

/// Implements [`Game20`] by the game type's own methods of those names.
macro_rules! game20 {
    ($($ty:ty),*) => {$(
        impl Game20 for $ty {
            fn legal(&self, moves: &mut MoveList) {
                self.legal_moves(moves);
            }
            fn over(&self) -> bool {
                self.is_over()
            }
            fn play_legal(&mut self, placement: Placement) {
                self.play(&Move::Set(placement)).expect("legal");
            }
            fn sample(&self, rng: &mut Pcg64Mcg) -> Option<Placement> {
                self.random_placement(rng)
            }
            fn accepts(&self, placement: Placement) -> bool {
                self.is_legal(&Move::Set(placement)).is_ok()
            }
        }
    )*};
}
game20!(Blokus, Classic);

/// Checks the samples of every `step`-th position of a random game from
/// `game`: each is a legal placement labelled as the generator labels it,
/// they are uniform, and there are none at the end.
fn check_samples<G: Game20>(mut game: G, seed: u64, step: usize) {
    let mut rng = rng(seed);
    let mut sampler = crate::util::rng(seed + 1);
    let mut moves = MoveList::new();
    let mut checked = 0;
    for index in 0.. {
        game.legal(&mut moves);
        let Some(sample) = game.sample(&mut sampler) else {
            assert!(game.over() && moves.is_empty());
            break;
        };
        if index % step == 0 {
            assert!(game.accepts(sample));
            assert!(moves.iter().any(|p| p == sample), "{sample:?}");
            let legal: Vec<_> = moves.iter().map(|p| cell_key(&p)).collect();
            assert_uniform(&legal, 40, || {
                cell_key(&game.sample(&mut sampler).expect("a placement"))
            });
            checked += 1;
        }
        game.play_legal(moves.get(below(&mut rng, moves.len())).expect("a move"));
    }
    assert!(checked >= 5, "{checked}");
}

#[test]
fn classic_samples_are_legal_and_uniform() {
    check_samples(Classic::new(ClassicPlayers::Four), 70, 9);
}

#[test]
fn season_samples_are_legal_and_uniform() {
    let start = Blokus::random_start_piece(&mut rng(72));
    check_samples(Blokus::new(start), 72, 11);
    let mut moves = MoveList::new();
    let mut sampler = rng(74);
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
