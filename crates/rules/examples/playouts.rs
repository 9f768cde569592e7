//! Random playouts of a Blokus variant or of Ostseeschach, for measuring
//! moves per second outside criterion: with the process's CPU time
//! (`/usr/bin/time -f %U`) the figure holds on a loaded machine too (see
//! BENCHMARKS.md).
//!
//! ```sh
//! cargo build --release -p spielleiter-rules --example playouts
//! /usr/bin/time -f '%U s user' target/release/examples/playouts classic 8000
//! ```
//!
//! Arguments: the variant (`swc2021`, `swc2027`, `classic`, `bcl`,
//! `ostseeschach`) and the number of games. Every Blokus game starts from
//! the empty board and plays uniformly random placements drawn by
//! `random_placement` until the game is over; an Ostseeschach game starts
//! from a random start line and plays a uniformly random move of the listed
//! legal moves until the game is over (as the criterion bench's random
//! complete games). The random source is seeded, so runs are repeatable.

use std::{process::ExitCode, time::Instant};

use rand_pcg::rand_core::Rng;
use rand_pcg::{Pcg64Mcg, rand_core::SeedableRng};
use spielleiter_rules::{
    blokus::{
        Blokus, Blokus2027, Classic, ClassicPlayers, Move,
        bcl::{Bcl, BclMove},
    },
    ostseeschach::{MoveList, Ostseeschach},
};

/// Plays `games` playouts of the variant, returning the moves made.
fn playouts(variant: &str, games: u64, rng: &mut Pcg64Mcg) -> Option<u64> {
    let mut placements = 0;
    let mut moves = MoveList::new();
    for _ in 0..games {
        match variant {
            "swc2021" => {
                let mut game = Blokus::new(Blokus::random_start_piece(rng));
                while let Some(p) = game.random_placement(rng) {
                    game.play_unchecked(&Move::Set(p));
                    placements += 1;
                }
            }
            "swc2027" => {
                let mut game = Blokus2027::new(Blokus2027::random_start_piece(rng));
                while let Some(p) = game.random_placement(rng) {
                    game.play_unchecked(&Move::Set(p));
                    placements += 1;
                }
            }
            "classic" => {
                let mut game = Classic::new(ClassicPlayers::Four);
                while let Some(p) = game.random_placement(rng) {
                    game.play_unchecked(&Move::Set(p));
                    placements += 1;
                }
            }
            "bcl" => {
                let mut game = Bcl::new();
                while let Some(p) = game.random_placement(rng) {
                    game.play_unchecked(&BclMove::Place(p));
                    placements += 1;
                }
            }
            "ostseeschach" => {
                let mut game = Ostseeschach::random(rng);
                loop {
                    // No moves exactly when the game is over.
                    game.legal_moves(&mut moves);
                    if moves.is_empty() {
                        break;
                    }
                    let index = (rng.next_u64() % moves.len() as u64) as usize;
                    let mv = moves.get(index).expect("index below the length");
                    game.play_unchecked(&mv);
                    placements += 1;
                }
            }
            _ => return None,
        }
    }
    Some(placements)
}

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let variant = args.next().unwrap_or_else(|| "classic".to_owned());
    let Some(games) = args.next().map_or(Some(1000), |n| n.parse().ok()) else {
        eprintln!("usage: playouts [swc2021|swc2027|classic|bcl|ostseeschach] [GAMES]");
        return ExitCode::FAILURE;
    };
    let mut rng = Pcg64Mcg::seed_from_u64(1);
    let start = Instant::now();
    let Some(placements) = playouts(&variant, games, &mut rng) else {
        eprintln!("unknown variant `{variant}` (swc2021, swc2027, classic, bcl, ostseeschach)");
        return ExitCode::FAILURE;
    };
    let seconds = start.elapsed().as_secs_f64();
    let unit = if variant == "ostseeschach" {
        "moves"
    } else {
        "placements"
    };
    println!(
        "{variant}: {games} playouts, {placements} {unit} in {seconds:.3} s wall: {:.0} {unit}/s",
        placements as f64 / seconds
    );
    ExitCode::SUCCESS
}
