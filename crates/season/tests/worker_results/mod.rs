//! Results written into a season's store as a worker writes them (a
//! claim, then the record), for the store tests of matchdays and the
//! final.
#![allow(dead_code)] // each test file uses its own part.

use std::time::Duration;

use spielleiter_arena::{Cause, FinishedGame, GameRecord};
use spielleiter_season::{AnyStore, SeasonStore};

/// The record of game `table_game` of `season` with the win points and
/// points of (player 1, player 2) — home, away — as a worker sends it.
pub async fn finished(
    store: &AnyStore,
    season: &str,
    table_game: u32,
    win_points: [u32; 2],
    points: [u32; 2],
) -> FinishedGame {
    let definition = store.definition(season).await.unwrap();
    FinishedGame::of_record(GameRecord {
        game: table_game,
        game_type: definition.game.clone(),
        players: definition.names(),
        commands: definition.players.iter().map(|p| p.start.clone()).collect(),
        starter: 1 + ((table_game + 1) % 2) as u8,
        win_points: win_points.to_vec(),
        points: points.to_vec(),
        causes: vec![Cause::Regular; 2],
        reasons: vec![String::new(); 2],
        duration_ms: 1,
        room: "r".to_owned(),
        replay: None,
        think_times: Vec::new(),
    })
}

/// Records the next game of `season` with the win points and points of
/// (player 1, player 2) — home, away — through a claim, as a worker does.
pub async fn play(store: &AnyStore, season: &str, win_points: [u32; 2], points: [u32; 2]) {
    let claim = store
        .claim(season, "test", Duration::from_secs(60), 3, None)
        .await
        .unwrap()
        .expect("a game to claim");
    let game = finished(store, season, claim.game.table_game, win_points, points).await;
    assert!(store.record(&claim, &game).await.unwrap());
}
