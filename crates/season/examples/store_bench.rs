//! Measures the season store (BENCHMARKS.md, issue 26): the overhead a
//! game costs the store (a claim plus a result with a replay), and the
//! latency of a claim with 100 and with 10,000 games waiting, and what
//! the season page's read costs: every game, or the open tail after the
//! leading finished games, a page of 500.
//!
//! `cargo run --release -p spielleiter-season --example store_bench -- URL`
//! with URL a store (`postgres://…` or a SQLite file); it creates seasons
//! named `bench-…` in it.
#![allow(clippy::unwrap_used)] // a benchmark: a failed unwrap is a failed run.

use std::time::{Duration, Instant};

use spielleiter_arena::{Cause, FinishedGame, GameRecord};
use spielleiter_season::{SeasonDefinition, SeasonPlayer, SeasonStore};

fn definition(games: u32, seed: u64) -> SeasonDefinition {
    SeasonDefinition {
        game: "blokus_bcl".to_owned(),
        players: ["a", "b"]
            .map(|name| SeasonPlayer {
                name: name.to_owned(),
                start: "builtin:random".to_owned(),
            })
            .to_vec(),
        games_per_table: games,
        seed,
        timed: false,
    }
}

fn record() -> GameRecord {
    GameRecord {
        game: 1,
        game_type: "blokus_bcl".to_owned(),
        players: vec!["a".to_owned(), "b".to_owned()],
        commands: vec!["builtin:random".to_owned(); 2],
        starter: 1,
        win_points: vec![2, 0],
        points: vec![40, 31],
        causes: vec![Cause::Regular; 2],
        reasons: vec![String::new(); 2],
        duration_ms: 120,
        room: "00000000-0000-0000-0000-000000000000".to_owned(),
        replay: None,
        think_times: Vec::new(),
    }
}

fn summary(name: &str, mut times: Vec<Duration>) {
    times.sort();
    let at = |q: f64| times[((times.len() - 1) as f64 * q) as usize];
    println!(
        "{name}: n = {}, median {:.2} ms, p99 {:.2} ms",
        times.len(),
        at(0.5).as_secs_f64() * 1e3,
        at(0.99).as_secs_f64() * 1e3
    );
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let url = std::env::args().nth(1).expect("a store URL");
    let store = spielleiter_season::open(&url).await.unwrap();
    let run = std::process::id();
    let lease = Duration::from_secs(15);
    // A replay of a typical BCL game, gzipped: about 3 KB.
    // (It starts as gzip does, so the store keeps it as it is.)
    let mut replay = vec![0x1f_u8; 3 * 1024];
    replay[1] = 0x8b;
    let game = FinishedGame {
        replay: Some(replay),
        ..FinishedGame::of_record(record())
    };

    // Claim + record per game: 1,000 of 2,000 games.
    let season = format!("bench-{run}-overhead");
    let def = definition(2000, 1);
    store
        .create(&season, &def, &def.schedule().unwrap())
        .await
        .unwrap();
    let mut per_game = Vec::new();
    for _ in 0..1000 {
        let start = Instant::now();
        let claim = store
            .claim(&season, "bench", lease, 3, None)
            .await
            .unwrap()
            .unwrap();
        assert!(store.record(&claim, &game).await.unwrap());
        per_game.push(start.elapsed());
    }
    summary("claim + record with a 3 KB replay", per_game);

    // The season page's read of that season: every game (the first
    // 1,000 with their results), or only what follows the finished ones,
    // a page at a time.
    let mut whole = Vec::new();
    let mut tail = Vec::new();
    for _ in 0..50 {
        let start = Instant::now();
        assert_eq!(store.games(&season).await.unwrap().len(), 2000);
        whole.push(start.elapsed());
        let start = Instant::now();
        assert_eq!(
            store.games_after(&season, 1000, 500).await.unwrap().len(),
            500
        );
        tail.push(start.elapsed());
    }
    summary("read every game (2,000, 1,000 done)", whole);
    summary("read a page of 500 after the 1,000 done", tail);

    // Claim latency by queue length; every claimed game is given back, so
    // the queue keeps its length.
    for waiting in [100, 10_000] {
        let season = format!("bench-{run}-queue-{waiting}");
        let def = definition(waiting, 2);
        store
            .create(&season, &def, &def.schedule().unwrap())
            .await
            .unwrap();
        let mut claims = Vec::new();
        for _ in 0..1000 {
            let start = Instant::now();
            let claim = store
                .claim(&season, "bench", lease, 3, None)
                .await
                .unwrap()
                .unwrap();
            claims.push(start.elapsed());
            store.give_back(&claim, None, 3).await.unwrap();
        }
        summary(&format!("claim with {waiting} games waiting"), claims);
    }
}
