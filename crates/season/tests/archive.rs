//! A season's games go into its store from memory: a worker's in-process
//! server keeps each finished game's replay (serialised once by its replay
//! thread, never written to a file) and the worker stores it with the
//! result, think times as the room measured them; and a season of either
//! store passes the archive's cases.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test.

#[macro_use]
mod both_stores;

use std::{io::Read, path::Path, sync::Arc, time::Duration};

use spielleiter_arena::{LocalServer, LocalServerSettings, MatchSettings};
use spielleiter_rules::GameType;
use spielleiter_season::{
    GameState, SeasonDefinition, SeasonPlayer, SeasonStore, SqliteStore, WorkerSettings, run_worker,
};
use tokio_util::sync::CancellationToken;

/// Every season here ends long before this, or the test fails as a hang.
const LIMIT: Duration = Duration::from_secs(120);
const SEASON: &str = "league";

both_stores!(a_season_is_an_archive_of_its_games);

/// Four random bots in a season of the three-seat counting game.
fn counting_league() -> SeasonDefinition {
    SeasonDefinition {
        game: GameType::TestCounting.id().to_owned(),
        players: ["a", "b", "c", "d"]
            .map(|name| SeasonPlayer {
                name: name.to_owned(),
                start: "builtin:random".to_owned(),
            })
            .to_vec(),
        games_per_table: GameType::TestCounting.league().games_per_table,
        seed: 5,
        timed: true,
    }
}

/// A worker's server in this process: it keeps replays in memory, and
/// would write files below `dir` if it did not.
async fn worker_server(dir: &Path, keep_replays: bool) -> LocalServer {
    LocalServer::start(LocalServerSettings {
        port: 0,
        replay_dir: Some(dir.join("replays")),
        keep_replays,
        seed: Some(17),
        ..LocalServerSettings::default()
    })
    .await
    .unwrap()
}

fn template(server: &LocalServer, dir: &Path) -> MatchSettings {
    let mut template = MatchSettings::new(
        Vec::new(),
        "127.0.0.1".to_owned(),
        server.addr().port(),
        String::new(),
    );
    template.in_process = Some(server.in_process().clone());
    template.replay_dir = server.replay_dir().cloned();
    template.kept_replays = server.kept_replays().cloned();
    template.log_dir = dir.join("log");
    template
}

async fn play(store: &Arc<SqliteStore>, template: &MatchSettings) {
    let mut settings = WorkerSettings::new("w".to_owned());
    settings.slots = 2;
    settings.poll = Duration::from_millis(50);
    let report = tokio::time::timeout(
        LIMIT,
        run_worker(
            Arc::clone(store),
            SEASON,
            template,
            &settings,
            CancellationToken::new(),
            None,
        ),
    )
    .await
    .unwrap()
    .unwrap();
    assert!(!report.interrupted);
}

fn gunzip(bytes: &[u8]) -> String {
    let mut text = String::new();
    flate2::read::GzDecoder::new(bytes)
        .read_to_string(&mut text)
        .unwrap();
    text
}

#[tokio::test]
async fn each_games_replay_is_serialised_once_in_memory_and_stored_without_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let server = worker_server(dir.path(), true).await;
    let kept = server.kept_replays().cloned().unwrap();
    let definition = counting_league();
    let store = Arc::new(SqliteStore::open(&dir.path().join("league.sqlite")).unwrap());
    let schedule = definition.schedule().unwrap();
    store.create(SEASON, &definition, &schedule).await.unwrap();
    play(&store, &template(&server, dir.path())).await;

    let games = store.games(SEASON).await.unwrap();
    assert!(games.iter().all(|g| g.state == GameState::Done));
    // One serialisation per game, every one taken by its runner, and no
    // replay file anywhere: none was written, so none was read back.
    assert_eq!(kept.serialised(), schedule.len() as u64);
    assert_eq!(kept.dropped(), 0);
    assert!(!dir.path().join("replays").exists());
    for game in &games {
        let record = game.record.as_ref().unwrap();
        assert_eq!(record.replay, None, "the record names no file");
        let replay = store
            .replay(SEASON, game.game.number)
            .await
            .unwrap()
            .unwrap();
        let text = gunzip(&replay);
        assert!(text.starts_with("<protocol>\n"), "{text}");
        assert!(text.ends_with("</protocol>"), "{text}");
        assert!(
            text.contains(&format!("roomId=\"{}\"", record.room)),
            "{text}"
        );
        // The think times are the room's: every player moved, and the
        // moves counted are the replay's.
        let moves: u32 = record.think_times.iter().map(|t| t.moves).sum();
        assert!(moves > 0, "{record:?}");
        assert_eq!(
            moves as usize,
            text.matches("thinkMicros=\"").count(),
            "{record:?}"
        );
    }
    server.stop().await;
}

#[tokio::test]
async fn a_server_that_writes_files_is_not_read_back_into_the_store() {
    // The guard of the test above: a server writing files counts no
    // serialisation in memory, and its worker does not read the files to
    // store them (the results are stored without replays, and say so).
    let dir = tempfile::tempdir().unwrap();
    let server = worker_server(dir.path(), false).await;
    assert!(server.kept_replays().is_none());
    let definition = counting_league();
    let store = Arc::new(SqliteStore::open(&dir.path().join("league.sqlite")).unwrap());
    let schedule = definition.schedule().unwrap();
    store.create(SEASON, &definition, &schedule).await.unwrap();
    play(&store, &template(&server, dir.path())).await;
    for game in store.games(SEASON).await.unwrap() {
        assert_eq!(store.replay(SEASON, game.game.number).await.unwrap(), None);
    }
    let files = std::fs::read_dir(dir.path().join("replays"))
        .unwrap()
        .count();
    assert_eq!(files, schedule.len(), "the server wrote its files");
    server.stop().await;
}

/// The archive's cases on a season of either store.
async fn a_season_is_an_archive_of_its_games(test: both_stores::TestStore) {
    spielleiter_season::conformance::season_archive_cases(Arc::new(test.store), "s").await;
}
