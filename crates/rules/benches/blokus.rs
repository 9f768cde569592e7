//! Benchmarks of the Blokus 2021 rules: legal-move generation on mid-game
//! positions, `has_legal_move`, perft(3), and random complete games. Every
//! benchmark first asserts its counts against the cross-checked perft data,
//! so a fast but wrong generator fails here too. Figures: `BENCHMARKS.md`.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rand_pcg::{
    Pcg64Mcg,
    rand_core::{Rng, SeedableRng},
};
use spielleiter_rules::blokus::{Blokus, Color, Move, MoveList, PieceKind, perft::perft};

#[path = "../tests/blokus/perft_file.rs"]
mod perft_file;

const PERFT_DATA: &str = include_str!("../tests/data/blokus.perft");

/// The positions of the perft data with these ids, with their perft lines.
fn positions(ids: &[&str]) -> Vec<(Blokus, Vec<(u32, u64)>)> {
    let blocks = perft_file::parse(PERFT_DATA).blocks;
    ids.iter()
        .map(|id| {
            let block = blocks
                .iter()
                .find(|b| b.id == *id)
                .expect("id in the perft data");
            (block.swc(), block.expected.clone())
        })
        .collect()
}

const MIDGAME: [&str; 3] = ["midgame-turn-16", "midgame-turn-24", "midgame-turn-32"];

fn movegen(c: &mut Criterion) {
    let games: Vec<Blokus> = positions(&MIDGAME).into_iter().map(|(g, _)| g).collect();
    let expected: u64 = positions(&MIDGAME).iter().map(|(_, e)| e[0].1).sum();
    let mut moves = MoveList::new();
    let total: u64 = games
        .iter()
        .map(|g| {
            g.legal_moves(&mut moves);
            moves.len() as u64
        })
        .sum();
    assert_eq!(total, expected);

    let mut group = c.benchmark_group("movegen");
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
                for p in &moves {
                    sum += p.x + p.y;
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

    let mut group = c.benchmark_group("has_legal_move");
    group.throughput(Throughput::Elements(4 * games.len() as u64));
    group.bench_function("midgame_4_colours", |b| {
        b.iter(|| {
            games
                .iter()
                .flat_map(|g| Color::ALL.map(|c| black_box(g).has_legal_move(c)))
                .filter(|&has| has)
                .count()
        })
    });
    group.finish();
}

fn perft3(c: &mut Criterion) {
    let (game, expected) = positions(&["midgame-turn-32"]).remove(0);
    let nodes = expected
        .iter()
        .find(|(d, _)| *d == 3)
        .expect("perft 3 in the data")
        .1;
    assert_eq!(perft(&game, 3), nodes);
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    group.throughput(Throughput::Elements(nodes));
    group.bench_function("perft3_midgame_turn_32", |b| {
        b.iter(|| perft(black_box(&game), 3))
    });
    group.finish();
}

/// Plays one random game with the checked `play`, skipping never.
fn random_game(rng: &mut Pcg64Mcg, moves: &mut MoveList) -> Blokus {
    let start = Blokus::random_start_piece(rng);
    let mut game = Blokus::new(start);
    while !game.is_over() {
        game.legal_moves(moves);
        let index = (rng.next_u64() % moves.len() as u64) as usize;
        let placement = moves.get(index).expect("a colour on turn can move");
        game.play_unchecked(&Move::Set(placement));
    }
    game
}

fn random_games(c: &mut Criterion) {
    let mut rng = Pcg64Mcg::seed_from_u64(5000);
    let mut moves = MoveList::new();
    for _ in 0..100 {
        let game = random_game(&mut rng, &mut moves);
        assert!(game.is_over() && game.round() <= 26);
        assert!(
            Color::ALL
                .iter()
                .any(|&c| game.remaining(c) != PieceKind::ALL.into_iter().collect())
        );
    }
    let mut group = c.benchmark_group("games");
    group.throughput(Throughput::Elements(1));
    group.bench_function("random_complete_game", |b| {
        b.iter(|| random_game(&mut rng, &mut moves))
    });
    group.finish();
}

criterion_group!(benches, movegen, perft3, random_games);
criterion_main!(benches);
