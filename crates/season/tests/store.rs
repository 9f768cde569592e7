//! The season store's rules on the embedded store (the PostgreSQL store
//! obeys the same, tested end to end in tests/e2e/season.rs): claims in
//! order, fencing by attempt and lease, expired leases claimed again and
//! counted, given-up games, idempotent creation, newer schemas refused.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test.

use std::time::Duration;

use spielleiter_arena::{Cause, GameRecord};
use spielleiter_season::{
    Created, GameState, GivenBack, SeasonDefinition, SeasonPlayer, SeasonStore, SqliteStore,
};

fn definition(seed: u64) -> SeasonDefinition {
    SeasonDefinition {
        game: "blokus_bcl".to_owned(),
        players: ["a", "b", "c"]
            .map(|name| SeasonPlayer {
                name: name.to_owned(),
                start: "builtin:random".to_owned(),
            })
            .to_vec(),
        games_per_table: 1,
        seed,
        timed: false,
    }
}

fn record(game: u32) -> GameRecord {
    GameRecord {
        game,
        game_type: "blokus_bcl".to_owned(),
        players: vec!["a".to_owned(), "b".to_owned()],
        commands: vec!["builtin:random".to_owned(); 2],
        starter: 1,
        win_points: vec![2, 0],
        points: vec![10, 5],
        causes: vec![Cause::Regular; 2],
        reasons: vec![String::new(); 2],
        duration_ms: 1,
        room: "r".to_owned(),
        replay: None,
        think_times: Vec::new(),
    }
}

const LONG: Duration = Duration::from_secs(60);

#[tokio::test]
async fn claims_are_fenced_by_attempt_and_lease() {
    let dir = tempfile::tempdir().unwrap();
    let store = SqliteStore::open(&dir.path().join("season.sqlite")).unwrap();
    let season = definition(1);
    let schedule = season.schedule().unwrap();
    assert_eq!(schedule.len(), 3);
    assert_eq!(
        store.create("s", &season, &schedule).await.unwrap(),
        Created::New
    );
    assert_eq!(
        store.create("s", &season, &schedule).await.unwrap(),
        Created::Existing
    );
    let other = store
        .create("s", &definition(2), &schedule)
        .await
        .unwrap_err()
        .to_string();
    assert!(other.contains("seed 2 here, 1 there"), "{other}");

    // Claims come in the schedule's order.
    let first = store
        .claim("s", "w1", LONG, 3, None)
        .await
        .unwrap()
        .unwrap();
    assert_eq!((first.game.number, first.attempt), (1, 1));
    // A lease that has run out: the game is claimed again, and the first
    // claim can neither renew nor write.
    let second = store
        .claim("s", "w2", Duration::ZERO, 3, None)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(second.game.number, 2);
    tokio::time::sleep(Duration::from_millis(5)).await;
    assert!(!store.heartbeat(&second, LONG).await.unwrap());
    let again = store
        .claim("s", "w3", LONG, 3, None)
        .await
        .unwrap()
        .unwrap();
    assert_eq!((again.game.number, again.attempt), (2, 2));
    assert!(!store.record(&second, &record(1), None).await.unwrap());
    assert!(store.heartbeat(&again, LONG).await.unwrap());
    assert!(store.record(&again, &record(1), Some(b"gz")).await.unwrap());
    // One result, written once.
    assert!(!store.record(&again, &record(1), None).await.unwrap());
    assert!(store.record(&first, &record(1), None).await.unwrap());

    let games = store.games("s").await.unwrap();
    let states: Vec<GameState> = games.iter().map(|g| g.state).collect();
    assert_eq!(
        states,
        [GameState::Done, GameState::Done, GameState::Waiting]
    );
    assert_eq!(
        games[1].failures, 1,
        "the expired lease counts as a failure"
    );
    assert_eq!(
        store.replay("s", 2).await.unwrap().as_deref(),
        Some(&b"gz"[..])
    );
    assert_eq!(store.replay("s", 1).await.unwrap(), None);
    // A worker that cannot play table 2 (game 3) leaves it to others.
    let elsewhere = store
        .claim("s", "w4", LONG, 3, Some(&[0, 1]))
        .await
        .unwrap();
    assert_eq!(elsewhere, None);
    let here = store
        .claim("s", "w5", LONG, 3, Some(&[2]))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(here.game.number, 3);
}

#[tokio::test]
async fn games_that_fail_too_often_are_given_up() {
    let dir = tempfile::tempdir().unwrap();
    let store = SqliteStore::open(&dir.path().join("season.sqlite")).unwrap();
    let season = definition(1);
    store
        .create("s", &season, &season.schedule().unwrap())
        .await
        .unwrap();
    // Two failures reported by workers, then a third: given up.
    for round in 1..=3 {
        let claim = store.claim("s", "w", LONG, 3, None).await.unwrap().unwrap();
        assert_eq!(claim.game.number, 1);
        let given = store
            .give_back(&claim, Some("server lost"), 3)
            .await
            .unwrap();
        let expected = if round < 3 {
            GivenBack::Waiting
        } else {
            GivenBack::Failed
        };
        assert_eq!(given, expected);
    }
    // A shutdown gives a game back without counting.
    let claim = store.claim("s", "w", LONG, 3, None).await.unwrap().unwrap();
    assert_eq!(claim.game.number, 2);
    assert_eq!(
        store.give_back(&claim, None, 3).await.unwrap(),
        GivenBack::Waiting
    );
    // Expired leases count too: with one failure allowed, the expired game
    // is given up at the next claim.
    let claim = store
        .claim("s", "w", Duration::ZERO, 1, None)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(claim.game.number, 2);
    tokio::time::sleep(Duration::from_millis(5)).await;
    let next = store.claim("s", "w", LONG, 1, None).await.unwrap().unwrap();
    assert_eq!(next.game.number, 3);
    let games = store.games("s").await.unwrap();
    assert_eq!(games[0].state, GameState::Failed);
    assert_eq!(games[0].error.as_deref(), Some("server lost"));
    assert_eq!(games[1].state, GameState::Failed);
    assert_eq!(games[1].failures, 1);
    assert!(
        store
            .claim("s", "w", LONG, 1, None)
            .await
            .unwrap()
            .is_none()
    );
}

#[tokio::test]
async fn a_newer_schema_is_refused_and_left_alone() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("season.sqlite");
    drop(SqliteStore::open(&path).unwrap());
    let raw = rusqlite::Connection::open(&path).unwrap();
    raw.execute("UPDATE spielleiter_schema SET version = 99", [])
        .unwrap();
    drop(raw);
    let error = SqliteStore::open(&path).unwrap_err().to_string();
    assert!(
        error.contains("schema version 99, newer than this program's 1"),
        "{error}"
    );
    let raw = rusqlite::Connection::open(&path).unwrap();
    let version: i64 = raw
        .query_row("SELECT version FROM spielleiter_schema", [], |row| {
            row.get(0)
        })
        .unwrap();
    assert_eq!(version, 99);
}
