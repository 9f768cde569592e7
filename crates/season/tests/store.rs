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

#[tokio::test(flavor = "current_thread")]
async fn a_file_locked_by_another_process_does_not_stall_the_runtime() {
    // Another connection holds the file's lock until a task on this
    // (single-threaded) runtime has run while a claim waits for the lock.
    // A claim that blocked the runtime's thread would keep that task from
    // running: the lock would be held until SQLite's busy timeout failed
    // the claim.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("season.sqlite");
    let store = SqliteStore::open_async(&path).await.unwrap();
    let season = definition(1);
    store
        .create("s", &season, &season.schedule().unwrap())
        .await
        .unwrap();
    let holder = rusqlite::Connection::open(&path).unwrap();
    holder.execute_batch("BEGIN EXCLUSIVE").unwrap();
    let (ran, told) = std::sync::mpsc::channel::<()>();
    let releaser = std::thread::spawn(move || {
        let in_time = told.recv_timeout(Duration::from_secs(30)).is_ok();
        holder.execute_batch("COMMIT").unwrap();
        in_time
    });
    let (claim, ()) = tokio::join!(store.claim("s", "w1", LONG, 3, None), async {
        tokio::task::yield_now().await;
        ran.send(()).unwrap();
    });
    assert!(
        releaser.join().unwrap(),
        "the other task did not run while the claim waited"
    );
    assert_eq!(claim.unwrap().unwrap().game.number, 1);
}

#[tokio::test]
async fn games_are_read_a_page_at_a_time_after_a_number() {
    let dir = tempfile::tempdir().unwrap();
    let store = SqliteStore::open_async(&dir.path().join("season.sqlite"))
        .await
        .unwrap();
    let season = definition(1);
    store
        .create("s", &season, &season.schedule().unwrap())
        .await
        .unwrap();
    let numbers = |rows: Vec<spielleiter_season::GameRow>| -> Vec<u32> {
        rows.iter().map(|row| row.game.number).collect()
    };
    assert_eq!(numbers(store.games_after("s", 0, 2).await.unwrap()), [1, 2]);
    assert_eq!(numbers(store.games_after("s", 2, 2).await.unwrap()), [3]);
    assert!(store.games_after("s", 3, 2).await.unwrap().is_empty());
    assert!(store.games_after("other", 0, 2).await.unwrap().is_empty());
    // A page holds what the whole list holds.
    let claim = store
        .claim("s", "w1", LONG, 3, None)
        .await
        .unwrap()
        .unwrap();
    assert!(store.record(&claim, &record(1), Some(b"x")).await.unwrap());
    let page = store.games_after("s", 0, 1).await.unwrap();
    let whole = store.games("s").await.unwrap();
    assert_eq!(page[0].state, GameState::Done);
    assert_eq!(page[0].record, whole[0].record);
}

#[tokio::test]
async fn a_missing_season_names_the_seasons_there_and_a_missing_file_is_not_made() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("season.sqlite");
    let store = SqliteStore::open_async(&path).await.unwrap();
    let error = store.definition("season").await.unwrap_err().to_string();
    assert!(
        error.contains("holds no season named `season` (it holds none)"),
        "{error}"
    );
    let season = definition(1);
    let schedule = season.schedule().unwrap();
    store
        .create("tournament", &season, &schedule)
        .await
        .unwrap();
    store.create("spring", &season, &schedule).await.unwrap();
    let error = store.definition("season").await.unwrap_err().to_string();
    assert!(
        error.contains("(it holds `spring`, `tournament`; name one with --name"),
        "{error}"
    );

    let missing = dir.path().join("typo.sqlite");
    let error = spielleiter_season::open_existing(missing.to_str().unwrap())
        .await
        .unwrap_err()
        .to_string();
    assert!(error.contains("typo.sqlite does not exist"), "{error}");
    assert!(!missing.exists());
    assert!(
        spielleiter_season::open_existing(path.to_str().unwrap())
            .await
            .is_ok()
    );
}
