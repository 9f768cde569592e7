//! Benchmarks of the Blokus rules. Blokus 2021: legal-move generation on
//! mid-game positions, `has_legal_move`, perft(3), and random complete
//! games. Every variant (2021, 2027, classic, BCL): legal-move generation
//! on a mid-game position of its perft data, random complete games (every
//! placement generated, one picked uniformly) and random playouts (one
//! uniform placement drawn by `random_placement` without listing them).
//! Every benchmark first asserts its counts against the cross-checked perft
//! data or the rules, so a fast but wrong generator fails here too.
//! Figures: `BENCHMARKS.md`.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rand_pcg::{
    Pcg64Mcg,
    rand_core::{Rng, SeedableRng},
};
use spielleiter_rules::blokus::{
    Blokus, Blokus2027, Classic, ClassicPlayers, Color, Move, MoveList, PieceKind,
    bcl::{Bcl, BclMove, BclMoveList},
    perft::perft,
};

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

/// The block `id` of a perft data file, and its perft(1).
fn perft_block(data: &str, id: &str) -> (perft_file::Block, u64) {
    let block = perft_file::parse(data)
        .blocks
        .into_iter()
        .find(|b| b.id == id)
        .expect("id in the perft data");
    let perft1 = block.expected[0];
    assert_eq!(perft1.0, 1, "perft 1 first");
    (block, perft1.1)
}

/// A seeded random source.
fn rng(seed: u64) -> Pcg64Mcg {
    Pcg64Mcg::seed_from_u64(seed)
}

/// A uniform index below `n`.
fn below(rng: &mut Pcg64Mcg, n: usize) -> usize {
    (rng.next_u64() % n as u64) as usize
}

/// Playouts per iteration of a `random_playouts` benchmark; the same
/// seeded playouts every iteration, so that the throughput, placements per
/// second, is exact.
const PLAYOUTS: usize = 20;

/// The three benchmarks of a variant, given how it generates, plays a
/// generated placement, and plays a sampled placement (`false` at the
/// end).
struct Variant<'a, G, L> {
    name: &'a str,
    /// A mid-game position and its number of legal placements.
    midgame: (G, u64),
    new_game: &'a dyn Fn(&mut Pcg64Mcg) -> G,
    /// Generates the legal placements into the list, returning their
    /// number.
    generate: &'a dyn Fn(&G, &mut L) -> usize,
    /// Plays one placement picked uniformly from the generated ones;
    /// `false` when the game is over.
    play_generated: &'a dyn Fn(&mut G, &mut Pcg64Mcg, &mut L) -> bool,
    /// Plays one placement from `random_placement`; `false` when the game
    /// is over.
    play_sampled: &'a dyn Fn(&mut G, &mut Pcg64Mcg) -> bool,
}

fn bench_variant<G, L: Default>(c: &mut Criterion, v: &Variant<'_, G, L>) {
    let (game, count) = &v.midgame;
    let mut moves = L::default();
    assert_eq!((v.generate)(game, &mut moves) as u64, *count);
    let mut group = c.benchmark_group(v.name);
    group.throughput(Throughput::Elements(*count));
    group.bench_function("legal_moves_midgame", |b| {
        b.iter(|| (v.generate)(black_box(game), &mut moves))
    });

    let mut random = rng(5000);
    for _ in 0..20 {
        let mut game = (v.new_game)(&mut random);
        let mut placements = 0;
        while (v.play_generated)(&mut game, &mut random, &mut moves) {
            placements += 1;
        }
        assert!(placements >= 2, "a game of {placements} placements");
    }
    group.throughput(Throughput::Elements(1));
    group.bench_function("random_complete_game", |b| {
        b.iter(|| {
            let mut game = (v.new_game)(&mut random);
            while (v.play_generated)(&mut game, &mut random, &mut moves) {}
            game
        })
    });

    // The same playouts every iteration: count their placements once.
    let playouts = |count: &mut u64| {
        let mut random = rng(6000);
        for _ in 0..PLAYOUTS {
            let mut game = (v.new_game)(&mut random);
            while (v.play_sampled)(&mut game, &mut random) {
                *count += 1;
            }
        }
    };
    let mut placements = 0;
    playouts(&mut placements);
    assert!(placements > 2 * PLAYOUTS as u64);
    group.throughput(Throughput::Elements(placements));
    group.bench_function("random_playouts_20", |b| {
        b.iter(|| {
            let mut count = 0;
            playouts(&mut count);
            assert_eq!(count, placements);
        })
    });
    group.finish();
}

/// Plays a uniformly picked generated placement of a 20×20 game.
fn play_generated_20<G>(
    game: &mut G,
    rng: &mut Pcg64Mcg,
    moves: &mut MoveList,
    legal_moves: impl Fn(&G, &mut MoveList),
    play: impl Fn(&mut G, &Move),
) -> bool {
    legal_moves(game, moves);
    if moves.is_empty() {
        return false;
    }
    let placement = moves.get(below(rng, moves.len())).expect("a move");
    play(game, &Move::Set(placement));
    true
}

fn variants(c: &mut Criterion) {
    let (block, count) = perft_block(PERFT_DATA, "midgame-turn-24");
    bench_variant(
        c,
        &Variant {
            name: "swc2021",
            midgame: (block.swc::<spielleiter_rules::blokus::Swc2021>(), count),
            new_game: &|rng| Blokus::new(Blokus::random_start_piece(rng)),
            generate: &|g, moves| {
                g.legal_moves(moves);
                moves.len()
            },
            play_generated: &|g, rng, moves| {
                play_generated_20(g, rng, moves, Blokus::legal_moves, Blokus::play_unchecked)
            },
            play_sampled: &|g, rng| {
                g.random_placement(rng)
                    .map(|p| g.play_unchecked(&Move::Set(p)))
                    .is_some()
            },
        },
    );

    let (block, count) = perft_block(
        include_str!("../tests/data/swc2027.perft"),
        "midgame-turn-16",
    );
    bench_variant(
        c,
        &Variant {
            name: "swc2027",
            midgame: (block.swc::<spielleiter_rules::blokus::Swc2027>(), count),
            new_game: &|rng| Blokus2027::new(Blokus2027::random_start_piece(rng)),
            generate: &|g, moves| {
                g.legal_moves(moves);
                moves.len()
            },
            play_generated: &|g, rng, moves| {
                play_generated_20(
                    g,
                    rng,
                    moves,
                    Blokus2027::legal_moves,
                    Blokus2027::play_unchecked,
                )
            },
            play_sampled: &|g, rng| {
                g.random_placement(rng)
                    .map(|p| g.play_unchecked(&Move::Set(p)))
                    .is_some()
            },
        },
    );

    let (block, count) = perft_block(
        include_str!("../tests/data/classic.perft"),
        "midgame-turn-24",
    );
    bench_variant(
        c,
        &Variant {
            name: "classic",
            midgame: (block.classic(), count),
            new_game: &|_| Classic::new(ClassicPlayers::Four),
            generate: &|g, moves| {
                g.legal_moves(moves);
                moves.len()
            },
            play_generated: &|g, rng, moves| {
                play_generated_20(g, rng, moves, Classic::legal_moves, Classic::play_unchecked)
            },
            play_sampled: &|g, rng| {
                g.random_placement(rng)
                    .map(|p| g.play_unchecked(&Move::Set(p)))
                    .is_some()
            },
        },
    );

    let (block, count) = perft_block(include_str!("../tests/data/bcl.perft"), "midgame-turn-6");
    bench_variant(
        c,
        &Variant {
            name: "bcl",
            midgame: (block.bcl(), count),
            new_game: &|_| Bcl::new(),
            generate: &|g, moves: &mut BclMoveList| {
                g.legal_moves(moves);
                moves.len()
            },
            play_generated: &|g, rng, moves| {
                g.legal_moves(moves);
                if moves.is_empty() {
                    return false;
                }
                let place = moves.get(below(rng, moves.len())).expect("a move");
                g.play_unchecked(&BclMove::Place(place));
                true
            },
            play_sampled: &|g, rng| {
                g.random_placement(rng)
                    .map(|p| g.play_unchecked(&BclMove::Place(p)))
                    .is_some()
            },
        },
    );
}

criterion_group!(benches, movegen, perft3, random_games, variants);
criterion_main!(benches);
