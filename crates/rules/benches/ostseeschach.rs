//! Benchmarks of the Ostseeschach 2022 rules: legal-move generation on
//! mid-game positions, `has_legal_move`, perft, and random complete games.
//! Every benchmark first asserts its counts against the cross-checked perft
//! data, so a fast but wrong generator fails here too. Figures:
//! `BENCHMARKS.md`.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rand_pcg::{
    Pcg64Mcg,
    rand_core::{Rng, SeedableRng},
};
use spielleiter_rules::ostseeschach::{MoveList, Ostseeschach, ROUND_LIMIT, Team, perft::perft};

#[path = "../tests/ostseeschach/perft_file.rs"]
mod perft_file;

const PERFT_DATA: &str = include_str!("../tests/data/ostseeschach/ostseeschach.perft");

/// The positions of the perft data with these ids, with their perft lines.
fn positions(ids: &[&str]) -> Vec<(Ostseeschach, Vec<(u32, u64)>)> {
    let blocks = perft_file::parse(PERFT_DATA);
    ids.iter()
        .map(|id| {
            let block = blocks
                .iter()
                .find(|b| b.id == *id)
                .expect("id in the perft data");
            (
                block.game.clone().expect("a start line"),
                block.expected.clone(),
            )
        })
        .collect()
}

/// The perft count of `depth` in a block's lines.
fn expected(lines: &[(u32, u64)], depth: u32) -> u64 {
    lines
        .iter()
        .find(|(d, _)| *d == depth)
        .expect("the depth in the perft data")
        .1
}

const MIDGAME: [&str; 4] = [
    "towers-turn-19",
    "amber-one-turn-28",
    "ambers-1-1-turn-38",
    "round-limit-turn-55",
];

fn movegen(c: &mut Criterion) {
    let data = positions(&MIDGAME);
    let games: Vec<Ostseeschach> = data.iter().map(|(g, _)| g.clone()).collect();
    let total: u64 = data.iter().map(|(_, lines)| expected(lines, 1)).sum();
    let mut moves = MoveList::new();
    let generated: u64 = games
        .iter()
        .map(|g| {
            g.legal_moves(&mut moves);
            moves.len() as u64
        })
        .sum();
    assert_eq!(generated, total);

    let mut group = c.benchmark_group("ostseeschach_movegen");
    group.throughput(Throughput::Elements(total));
    group.bench_function("legal_moves_midgame", |b| {
        b.iter(|| {
            let mut n = 0;
            for game in &games {
                black_box(game).legal_moves(&mut moves);
                n += moves.len();
            }
            n
        })
    });
    group.bench_function("legal_moves_midgame_read_all", |b| {
        b.iter(|| {
            let mut sum = 0;
            for game in &games {
                black_box(game).legal_moves(&mut moves);
                for mv in &moves {
                    sum += mv.to.x + mv.to.y;
                }
            }
            sum
        })
    });
    group.bench_function("count_legal_moves_midgame", |b| {
        b.iter(|| {
            games
                .iter()
                .map(|g| black_box(g).count_legal_moves())
                .sum::<usize>()
        })
    });
    group.finish();

    let mut group = c.benchmark_group("ostseeschach_has_legal_move");
    group.throughput(Throughput::Elements(games.len() as u64));
    group.bench_function("midgame", |b| {
        b.iter(|| {
            games
                .iter()
                .filter(|g| black_box(g).has_legal_move())
                .count()
        })
    });
    group.finish();
}

fn perfts(c: &mut Criterion) {
    let mut group = c.benchmark_group("ostseeschach_perft");
    group.sample_size(10);
    for (id, depth) in [("opening-hmsrhmsr", 6), ("towers-turn-19", 5)] {
        let (game, lines) = positions(&[id]).remove(0);
        let nodes = expected(&lines, depth);
        assert_eq!(perft(&game, depth), nodes);
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(format!("perft{depth}_{id}"), |b| {
            b.iter(|| perft(black_box(&game), depth))
        });
    }
    group.finish();
}

/// Plays one game with uniformly random moves (`play_unchecked`) from a
/// random start line.
fn random_game(rng: &mut Pcg64Mcg, moves: &mut MoveList) -> Ostseeschach {
    let mut game = Ostseeschach::random(rng);
    loop {
        // No moves exactly when the game is over.
        game.legal_moves(moves);
        if moves.is_empty() {
            return game;
        }
        let index = (rng.next_u64() % moves.len() as u64) as usize;
        let mv = moves.get(index).expect("index below the length");
        game.play_unchecked(&mv);
    }
}

fn random_games(c: &mut Criterion) {
    let mut rng = Pcg64Mcg::seed_from_u64(2022);
    let mut moves = MoveList::new();
    let mut turns = 0;
    for _ in 0..1000 {
        let game = random_game(&mut rng, &mut moves);
        assert!(game.is_over() && game.outcome().is_some());
        assert!(game.turn() <= 2 * ROUND_LIMIT);
        assert!(game.piece_count(Team::One) + game.piece_count(Team::Two) <= 16);
        turns += game.turn();
    }
    // Uniform random play mostly runs into the round limit.
    assert!(turns > 1000 * 50, "{turns} turns in 1000 games");
    let mut group = c.benchmark_group("ostseeschach_games");
    group.throughput(Throughput::Elements(1));
    group.bench_function("random_complete_game", |b| {
        b.iter(|| random_game(&mut rng, &mut moves))
    });
    group.finish();
}

criterion_group!(benches, movegen, perfts, random_games);
criterion_main!(benches);
