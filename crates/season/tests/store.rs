//! The season store's rules, each case one test body run on SQLite and on
//! PostgreSQL (`sqlite::…` and `postgres::…`, see `both_stores`): claims in
//! order, fencing by attempt and lease (a refused heartbeat or result
//! changes no row), expired leases claimed again and counted, given-up
//! games and their messages, concurrent claims that never take the same
//! game, idempotent creation, paging, schemas migrated and newer schemas
//! refused. Then what only the SQLite file has: a lock held by another
//! process, a missing file not made.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test.

#[macro_use]
mod both_stores;

use std::{collections::BTreeSet, sync::Arc, time::Duration};

use both_stores::TestStore;
use spielleiter_arena::{Cause, FinishedGame, GameRecord};
use spielleiter_season::{
    Created, GameState, GivenBack, SeasonDefinition, SeasonPlayer, SeasonStore, SqliteStore,
};

both_stores!(
    claims_are_fenced_by_attempt_and_lease,
    a_result_under_an_expired_lease_changes_no_row,
    a_result_under_a_superseded_attempt_changes_no_row,
    games_that_fail_too_often_are_given_up,
    a_game_given_up_after_its_lease_ran_out_names_its_failures,
    concurrent_claims_never_take_the_same_game,
    games_are_read_a_page_at_a_time_after_a_number,
    a_missing_season_names_the_seasons_there,
    a_store_of_the_first_schema_gains_the_log_tables_and_keeps_its_games,
    a_newer_schema_is_refused_and_left_alone,
);

fn definition(seed: u64) -> SeasonDefinition {
    definition_of(&["a", "b", "c"], 1, seed)
}

/// Every pair of `players` `games_per_table` times.
fn definition_of(players: &[&str], games_per_table: u32, seed: u64) -> SeasonDefinition {
    SeasonDefinition {
        game: "blokus_bcl".to_owned(),
        players: players
            .iter()
            .map(|name| SeasonPlayer {
                name: (*name).to_owned(),
                start: "builtin:random".to_owned(),
            })
            .collect(),
        games_per_table,
        seed,
        timed: false,
    }
}

/// Creates season `s` of `definition` in the store.
async fn create(store: &TestStore, definition: &SeasonDefinition) {
    let schedule = definition.schedule().unwrap();
    assert_eq!(
        store
            .store
            .create("s", definition, &schedule)
            .await
            .unwrap(),
        Created::New
    );
}

/// Game `game`'s record with `replay` (uncompressed), as a worker stores it.
fn finished(game: u32, replay: Option<&[u8]>) -> FinishedGame {
    let mut finished = FinishedGame::of_record(record(game));
    finished.replay = replay.map(<[u8]>::to_vec);
    finished
}

/// A finished game with everything a game leaves: a replay, both
/// players' logs and a wire log, so that a write that got through would
/// change rows in every table.
fn finished_whole(game: u32) -> FinishedGame {
    let mut finished = finished(game, Some(b"<protocol></protocol>"));
    finished.player_logs = vec![Some(b"a says hello".to_vec()), Some(b"b says hi".to_vec())];
    finished.wire_log = Some(b"# wire".to_vec());
    finished
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
/// Longer than a lease of zero needs to run out on either store's clock
/// (milliseconds).
const PAST_A_ZERO_LEASE: Duration = Duration::from_millis(20);

async fn claims_are_fenced_by_attempt_and_lease(test: TestStore) {
    let store = &test.store;
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
    tokio::time::sleep(PAST_A_ZERO_LEASE).await;
    let before = test.rows();
    assert!(!store.heartbeat(&second, LONG).await.unwrap());
    assert_eq!(test.rows(), before, "a refused heartbeat changes no row");
    let again = store
        .claim("s", "w3", LONG, 3, None)
        .await
        .unwrap()
        .unwrap();
    assert_eq!((again.game.number, again.attempt), (2, 2));
    assert!(!store.record(&second, &finished(1, None)).await.unwrap());
    assert!(store.heartbeat(&again, LONG).await.unwrap());
    assert!(
        store
            .record(&again, &finished(1, Some(b"gz")))
            .await
            .unwrap()
    );
    // One result, written once.
    assert!(!store.record(&again, &finished(1, None)).await.unwrap());
    assert!(store.record(&first, &finished(1, None)).await.unwrap());

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
        games[1].error, None,
        "a stored result clears the last failure's message"
    );
    // The replay is stored gzipped.
    let stored = store.replay("s", 2).await.unwrap().unwrap();
    let mut replay = Vec::new();
    std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(&stored[..]), &mut replay)
        .unwrap();
    assert_eq!(replay, b"gz");
    assert_eq!(store.replay("s", 1).await.unwrap(), None);
    // A worker that cannot play table 2 (game 3) leaves it to others.
    let elsewhere = store
        .claim("s", "w4", LONG, 3, Some(&[0, 1]))
        .await
        .unwrap();
    assert_eq!(elsewhere, None);
    assert_eq!(
        store.claim("s", "w4", LONG, 3, Some(&[])).await.unwrap(),
        None
    );
    let here = store
        .claim("s", "w5", LONG, 3, Some(&[2]))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(here.game.number, 3);
}

/// The rows a result that got through would have changed: the game's
/// own, and the logs it would have added.
fn game_and_logs(test: &TestStore, number: u32) -> String {
    test.sql(&format!(
        "SELECT state, attempt, worker, record IS NULL, replay IS NULL, finished_ms IS NULL, \
         (SELECT count(*) FROM game_player_logs WHERE season = 's' AND number = {number}), \
         (SELECT count(*) FROM game_wire_logs WHERE season = 's' AND number = {number}) \
         FROM games WHERE season = 's' AND number = {number}"
    ))
}

/// A result is refused under a lease that ran out, though no other worker
/// claimed the game: nothing of it is written, its logs neither.
async fn a_result_under_an_expired_lease_changes_no_row(test: TestStore) {
    let store = &test.store;
    create(&test, &definition(1)).await;
    let expired = store
        .claim("s", "w1", Duration::ZERO, 3, None)
        .await
        .unwrap()
        .unwrap();
    tokio::time::sleep(PAST_A_ZERO_LEASE).await;
    let before = test.rows();
    assert!(
        !store
            .record(&expired, &finished_whole(expired.game.number))
            .await
            .unwrap()
    );
    assert_eq!(test.rows(), before, "the refused result changed rows");
    let bools = if test.is_postgres() { "t|t|t" } else { "1|1|1" };
    assert_eq!(
        game_and_logs(&test, expired.game.number),
        format!("running|1|w1|{bools}|0|0")
    );
}

/// A result is refused under an attempt another worker's claim replaced,
/// though that claim's lease is valid: nothing of it is written; the
/// current attempt's result is.
async fn a_result_under_a_superseded_attempt_changes_no_row(test: TestStore) {
    let store = &test.store;
    create(&test, &definition(1)).await;
    let stale = store
        .claim("s", "w1", Duration::ZERO, 3, None)
        .await
        .unwrap()
        .unwrap();
    tokio::time::sleep(PAST_A_ZERO_LEASE).await;
    let current = store
        .claim("s", "w2", LONG, 3, None)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        (current.game.number, current.attempt),
        (stale.game.number, 2)
    );
    let before = test.rows();
    assert!(
        !store
            .record(&stale, &finished_whole(stale.game.number))
            .await
            .unwrap()
    );
    assert_eq!(test.rows(), before, "the refused result changed rows");
    assert!(
        store
            .record(&current, &finished_whole(current.game.number))
            .await
            .unwrap()
    );
    let bools = if test.is_postgres() { "f|f|f" } else { "0|0|0" };
    assert_eq!(
        game_and_logs(&test, current.game.number),
        format!("done|2|w2|{bools}|2|1")
    );
}

async fn games_that_fail_too_often_are_given_up(test: TestStore) {
    let store = &test.store;
    create(&test, &definition(1)).await;
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
    // A claim given back already is stale: nothing changes.
    let before = test.rows();
    assert_eq!(
        store.give_back(&claim, Some("late"), 3).await.unwrap(),
        GivenBack::Stale
    );
    assert_eq!(test.rows(), before, "a stale give-back changed rows");
    // Expired leases count too: with one failure allowed, the expired game
    // is given up at the next claim.
    let claim = store
        .claim("s", "w", Duration::ZERO, 1, None)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(claim.game.number, 2);
    tokio::time::sleep(PAST_A_ZERO_LEASE).await;
    let next = store.claim("s", "w", LONG, 1, None).await.unwrap().unwrap();
    assert_eq!(next.game.number, 3);
    let games = store.games("s").await.unwrap();
    assert_eq!(games[0].state, GameState::Failed);
    assert_eq!(games[0].failures, 3);
    assert_eq!(games[0].error.as_deref(), Some("server lost"));
    assert_eq!(games[1].state, GameState::Failed);
    assert_eq!(games[1].failures, 1);
    assert_eq!(
        games[1].error.as_deref(),
        Some("its worker stopped renewing the lease 1 times (crash, lost machine or database)")
    );
    assert!(
        store
            .claim("s", "w", LONG, 1, None)
            .await
            .unwrap()
            .is_none()
    );
}

/// A game whose lease ran out after two failures reported by workers is
/// given up at a claim allowing one failure: its message counts the
/// game's failures (three), not the failures the claim allows (one).
async fn a_game_given_up_after_its_lease_ran_out_names_its_failures(test: TestStore) {
    let store = &test.store;
    create(&test, &definition(1)).await;
    for _ in 0..2 {
        let claim = store.claim("s", "w", LONG, 5, None).await.unwrap().unwrap();
        assert_eq!(claim.game.number, 1);
        assert_eq!(
            store
                .give_back(&claim, Some("server lost"), 5)
                .await
                .unwrap(),
            GivenBack::Waiting
        );
    }
    let claim = store
        .claim("s", "w", Duration::ZERO, 5, None)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(claim.game.number, 1);
    tokio::time::sleep(PAST_A_ZERO_LEASE).await;
    let next = store.claim("s", "w", LONG, 1, None).await.unwrap().unwrap();
    assert_eq!(next.game.number, 2, "game 1 is given up, not claimed");
    let games = store.games("s").await.unwrap();
    assert_eq!(games[0].state, GameState::Failed);
    assert_eq!(games[0].failures, 3);
    assert_eq!(
        games[0].error.as_deref(),
        Some("its worker stopped renewing the lease 3 times (crash, lost machine or database)")
    );
}

/// Workers on connections of their own claim at the same time until no
/// game is left: every game is claimed exactly once.
async fn concurrent_claims_never_take_the_same_game(test: TestStore) {
    let season = definition_of(&["a", "b", "c", "d", "e", "f"], 4, 1);
    let games = season.schedule().unwrap().len();
    create(&test, &season).await;
    let mut workers = tokio::task::JoinSet::new();
    for worker in 0..4 {
        let store = Arc::new(test.open_again().await.unwrap());
        workers.spawn(async move {
            let mut claimed = Vec::new();
            while let Some(claim) = store
                .claim("s", &format!("w{worker}"), LONG, 3, None)
                .await
                .unwrap()
            {
                assert_eq!(claim.attempt, 1, "{claim:?}");
                claimed.push(claim.game.number);
            }
            claimed
        });
    }
    let mut claimed = Vec::new();
    while let Some(numbers) = workers.join_next().await {
        claimed.extend(numbers.unwrap());
    }
    let distinct: BTreeSet<u32> = claimed.iter().copied().collect();
    assert_eq!(claimed.len(), games, "{claimed:?}");
    assert_eq!(distinct, (1..=games as u32).collect(), "{claimed:?}");
    assert_eq!(
        test.sql("SELECT count(*) FROM games WHERE state = 'running' AND attempt = 1"),
        games.to_string()
    );
}

async fn games_are_read_a_page_at_a_time_after_a_number(test: TestStore) {
    let store = &test.store;
    create(&test, &definition(1)).await;
    let numbers = |rows: Vec<spielleiter_season::GameRow>| -> Vec<u32> {
        rows.iter().map(|row| row.game.number).collect()
    };
    assert_eq!(numbers(store.games_after("s", 0, 2).await.unwrap()), [1, 2]);
    assert_eq!(numbers(store.games_after("s", 2, 2).await.unwrap()), [3]);
    assert!(store.games_after("s", 3, 2).await.unwrap().is_empty());
    assert!(
        store
            .games_after("s", u32::MAX, 2)
            .await
            .unwrap()
            .is_empty()
    );
    assert!(store.games_after("other", 0, 2).await.unwrap().is_empty());
    // A page holds what the whole list holds.
    let claim = store
        .claim("s", "w1", LONG, 3, None)
        .await
        .unwrap()
        .unwrap();
    assert!(store.record(&claim, &finished_whole(1)).await.unwrap());
    let page = store.games_after("s", 0, 1).await.unwrap();
    let whole = store.games("s").await.unwrap();
    assert_eq!(page[0].state, GameState::Done);
    assert_eq!(page[0].record, whole[0].record);
    assert_eq!(page[0].worker.as_deref(), Some("w1"));
    assert!(page[0].started_ms.is_some() && page[0].finished_ms >= page[0].started_ms);
    // And what a game left reads back.
    assert_eq!(store.logs_of("s", 1).await.unwrap(), (vec![0, 1], true));
    assert_eq!(store.logs_of("s", 2).await.unwrap(), (vec![], false));
    assert_eq!(
        store.player_log("s", 1, 1).await.unwrap().as_deref(),
        Some(&b"b says hi"[..])
    );
    assert_eq!(store.player_log("s", 1, 2).await.unwrap(), None);
    assert!(store.wire_log("s", 1).await.unwrap().is_some());
    assert_eq!(store.wire_log("s", 2).await.unwrap(), None);
}

async fn a_missing_season_names_the_seasons_there(test: TestStore) {
    let store = &test.store;
    let error = store.definition("season").await.unwrap_err().to_string();
    assert!(
        error.contains("holds no season named `season` (it holds none)"),
        "{error}"
    );
    assert!(store.season_names().await.unwrap().is_empty());
    let season = definition(1);
    let schedule = season.schedule().unwrap();
    store
        .create("tournament", &season, &schedule)
        .await
        .unwrap();
    store.create("spring", &season, &schedule).await.unwrap();
    assert_eq!(
        store.season_names().await.unwrap(),
        ["spring", "tournament"]
    );
    assert_eq!(store.definition("spring").await.unwrap(), season);
    let error = store.definition("season").await.unwrap_err().to_string();
    assert!(
        error.contains("(it holds `spring`, `tournament`; name one with --name"),
        "{error}"
    );
}

async fn a_store_of_the_first_schema_gains_the_log_tables_and_keeps_its_games(test: TestStore) {
    let season = definition(1);
    create(&test, &season).await;
    // As the first version left it: schema 1, no log tables, no contest.
    test.drop_contest_tables();
    test.sql("DROP TABLE game_player_logs");
    test.sql("DROP TABLE game_wire_logs");
    test.sql("UPDATE spielleiter_schema SET version = 1");
    let store = test.open_again().await.unwrap();
    assert_eq!(
        store.games("s").await.unwrap().len(),
        season.schedule().unwrap().len()
    );
    assert_eq!(
        test.sql("SELECT version FROM spielleiter_schema"),
        spielleiter_season::SCHEMA_VERSION.to_string()
    );
    let claim = store.claim("s", "w", LONG, 3, None).await.unwrap().unwrap();
    assert!(store.record(&claim, &finished_whole(1)).await.unwrap());
    assert_eq!(store.logs_of("s", 1).await.unwrap(), (vec![0, 1], true));
}

async fn a_newer_schema_is_refused_and_left_alone(test: TestStore) {
    create(&test, &definition(1)).await;
    test.sql("UPDATE spielleiter_schema SET version = 99");
    let before = test.rows();
    let error = test.open_again().await.unwrap_err().to_string();
    assert!(
        error.contains(&format!(
            "schema version 99, newer than this program's {}",
            spielleiter_season::SCHEMA_VERSION
        )),
        "{error}"
    );
    assert_eq!(test.sql("SELECT version FROM spielleiter_schema"), "99");
    assert_eq!(test.rows(), before);
}

#[tokio::test(flavor = "current_thread")]
async fn a_sqlite_file_locked_by_another_process_does_not_stall_the_runtime() {
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
async fn a_missing_sqlite_file_is_not_made_where_a_season_must_exist() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("season.sqlite");
    drop(SqliteStore::open_async(&path).await.unwrap());
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
