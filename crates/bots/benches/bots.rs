//! How long the built-in bots take to choose a move (BENCHMARKS.md): they
//! drive the server benchmark's games, so they must not be the bottleneck.
//! Each benchmark checks that the chosen move is legal.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use rand_pcg::Pcg64;
use spielleiter_bots::{
    Bot,
    blokus::{GreedyBot, RandomBot},
};
use spielleiter_rules::blokus::{Blokus, PieceKind, Team};

/// The position after `turns` turns of a seeded random game.
fn position(turns: u32) -> Blokus {
    let mut game = Blokus::new(PieceKind::PentoL);
    let mut random = RandomBot::new(Pcg64::new(41, 5));
    while game.turn() < turns {
        let mv = random.choose_move(&game);
        game.play(&mv).expect("legal");
    }
    game
}

fn choose(c: &mut Criterion, name: &str, bot: &mut dyn Bot<Blokus>, game: &Blokus) {
    let mv = bot.choose_move(game);
    assert_eq!(game.is_legal(&mv), Ok(()));
    c.bench_function(name, |b| b.iter(|| bot.choose_move(black_box(game))));
}

fn bots(c: &mut Criterion) {
    let midgame = position(16);
    let endgame = position(60);
    assert!(!endgame.is_over());
    let mut greedy = GreedyBot::new();
    let mut random = RandomBot::new(Pcg64::new(7, 9));
    choose(c, "greedy: move at turn 16", &mut greedy, &midgame);
    choose(c, "greedy: move at turn 60", &mut greedy, &endgame);
    choose(c, "random: move at turn 16", &mut random, &midgame);
    c.bench_function("greedy vs random: a whole game", |b| {
        b.iter(|| {
            let mut game = Blokus::new(PieceKind::PentoL);
            let mut random = RandomBot::new(Pcg64::new(3, 3));
            while !game.is_over() {
                let mv = if game.current_team() == Team::One {
                    greedy.choose_move(&game)
                } else {
                    random.choose_move(&game)
                };
                game.play(&mv).expect("legal");
            }
            game.turn()
        })
    });
}

criterion_group!(benches, bots);
criterion_main!(benches);
