//! Seasons played on an in-process server by one worker on the embedded
//! store — what `spielleiter tournament` is: every table plays with seats
//! rotating, the standings agree with the stored games, a player that
//! crashes is recorded so, a season stopped mid-way resumes to the same
//! games and standings as an uninterrupted one, whatever the number of
//! slots, and a store holding another season under the name is refused.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test.

use std::{
    collections::BTreeMap,
    os::unix::fs::PermissionsExt,
    path::Path,
    sync::{
        Arc,
        atomic::{AtomicU32, Ordering},
    },
    time::Duration,
};

use spielleiter_arena::{
    Cause, GameRecord, LocalServer, LocalServerSettings, MatchSettings, Standings,
};
use spielleiter_rules::{GameType, Ranking};
use spielleiter_season::{
    GameState, SeasonDefinition, SeasonPlayer, SeasonStore, SqliteStore, WorkerEvent,
    WorkerObserver, WorkerReport, WorkerSettings, report, run_worker,
};
use tokio_util::sync::CancellationToken;

/// Every season here ends long before this, or the test fails as a hang.
const LIMIT: Duration = Duration::from_secs(120);
/// The season's name in each test's store.
const SEASON: &str = "league";
/// The worker's name: one process owns the store, as in a tournament.
const WORKER: &str = "tournament";

/// A server in this process writing replays below `dir`.
async fn server(dir: &Path) -> LocalServer {
    LocalServer::start(LocalServerSettings {
        port: 0,
        replay_dir: Some(dir.join("replays")),
        seed: Some(17),
        ..LocalServerSettings::default()
    })
    .await
    .unwrap()
}

/// How the worker plays on `server`, its logs below `dir`.
fn template(server: &LocalServer, dir: &Path) -> MatchSettings {
    let mut template = MatchSettings::new(
        Vec::new(),
        "127.0.0.1".to_owned(),
        server.addr().port(),
        String::new(),
    );
    template.in_process = Some(server.in_process().clone());
    template.replay_dir = server.replay_dir().cloned();
    template.log_dir = dir.join("log");
    template
}

/// A season of `game` between `players` (name, how to start it), with the
/// game's league's games per table.
fn season(game: GameType, players: &[(&str, &str)]) -> SeasonDefinition {
    SeasonDefinition {
        game: game.id().to_owned(),
        players: players
            .iter()
            .map(|(name, start)| SeasonPlayer {
                name: (*name).to_owned(),
                start: (*start).to_owned(),
            })
            .collect(),
        games_per_table: game.league().games_per_table,
        seed: 3,
        timed: true,
    }
}

/// Four random bots in a season of the three-seat counting game.
fn counting_league() -> SeasonDefinition {
    season(
        GameType::TestCounting,
        &[
            ("a", "builtin:random"),
            ("b", "builtin:random"),
            ("c", "builtin:random"),
            ("d", "builtin:random"),
        ],
    )
}

/// A new store in `dir` holding `definition` as [`SEASON`].
async fn store_with(dir: &Path, file: &str, definition: &SeasonDefinition) -> Arc<SqliteStore> {
    let store = SqliteStore::open(&dir.join(file)).unwrap();
    store
        .create(SEASON, definition, &definition.schedule().unwrap())
        .await
        .unwrap();
    Arc::new(store)
}

/// Plays the season in `store` with one worker of `slots` slots, as
/// `tournament --parallel SLOTS` does; with `stop_after`, the worker is
/// stopped once it has stored that many results.
async fn play(
    store: &Arc<SqliteStore>,
    template: &MatchSettings,
    slots: usize,
    stop_after: Option<u32>,
) -> WorkerReport {
    let shutdown = CancellationToken::new();
    let observer = stop_after.map(|after| {
        let stored = AtomicU32::new(0);
        let stop = shutdown.clone();
        Arc::new(move |event: &WorkerEvent| {
            if matches!(event, WorkerEvent::Recorded(_))
                && stored.fetch_add(1, Ordering::SeqCst) + 1 == after
            {
                stop.cancel();
            }
        }) as WorkerObserver
    });
    let mut settings = WorkerSettings::new(WORKER.to_owned());
    settings.slots = slots;
    settings.poll = Duration::from_millis(50);
    settings.leave_unstartable = false;
    // As a tournament does at its start: what a killed run held is free.
    store.release_worker(SEASON, WORKER).await.unwrap();
    tokio::time::timeout(
        LIMIT,
        run_worker(
            Arc::clone(store),
            SEASON,
            template,
            &settings,
            shutdown,
            observer,
        ),
    )
    .await
    .unwrap()
    .unwrap()
}

/// The stored results, in the order of the schedule.
async fn records(store: &SqliteStore) -> Vec<GameRecord> {
    let games = store.games(SEASON).await.unwrap();
    games.into_iter().filter_map(|g| g.record).collect()
}

/// How often each table (its players in order) played, by who started.
fn table_games(records: &[GameRecord]) -> BTreeMap<(Vec<String>, u32), u8> {
    let mut games = BTreeMap::new();
    for record in records {
        let previous = games.insert((record.players.clone(), record.game), record.starter);
        assert_eq!(previous, None, "a game counted twice: {record:?}");
    }
    games
}

/// A game's table, number, win points and game points.
type PlayedGame = (Vec<String>, u32, Vec<u32>, Vec<u32>);

/// Each game's results, by table and number, in a comparable order.
fn games_played(records: &[GameRecord]) -> Vec<PlayedGame> {
    let mut games: Vec<_> = records
        .iter()
        .map(|r| {
            (
                r.players.clone(),
                r.game,
                r.win_points.clone(),
                r.points.clone(),
            )
        })
        .collect();
    games.sort();
    games
}

#[tokio::test]
async fn every_pair_plays_with_seats_alternating_and_a_crasher_ranks_last() {
    let dir = tempfile::tempdir().unwrap();
    let server = server(dir.path()).await;
    let crash = dir.path().join("crash.sh");
    std::fs::write(&crash, "#!/bin/sh\necho 'no luck' >&2\nexit 3\n").unwrap();
    std::fs::set_permissions(&crash, std::fs::Permissions::from_mode(0o755)).unwrap();
    let definition = season(
        GameType::Blokus2021,
        &[
            ("greedy", "builtin:greedy"),
            ("random", "builtin:random"),
            ("crasher", crash.to_str().unwrap()),
        ],
    );
    let store = store_with(dir.path(), "league.sqlite", &definition).await;
    let report = play(&store, &template(&server, dir.path()), 2, None).await;
    assert!(!report.interrupted);
    assert_eq!(
        (report.recorded, report.discarded, report.given_back),
        (6, 0, 0)
    );

    // Three pairs, two games each, each player of a pair starting one.
    let stored = records(&store).await;
    let games = table_games(&stored);
    let tables: Vec<(Vec<String>, u32, u8)> = games
        .iter()
        .map(|((players, game), starter)| (players.clone(), *game, *starter))
        .collect();
    let pair = |a: &str, b: &str| vec![a.to_owned(), b.to_owned()];
    assert_eq!(
        tables,
        [
            (pair("crasher", "greedy"), 1, 1),
            (pair("crasher", "greedy"), 2, 2),
            (pair("greedy", "random"), 1, 1),
            (pair("greedy", "random"), 2, 2),
            (pair("random", "crasher"), 1, 1),
            (pair("random", "crasher"), 2, 2),
        ]
    );
    for record in &stored {
        assert_eq!(record.game_type, "swc_2021_blokus");
        let crasher = record.players.iter().position(|p| p == "crasher");
        if let Some(crasher) = crasher {
            assert_eq!(record.causes[crasher], Cause::Crashed, "{record:?}");
            assert_eq!(record.win_points[crasher], 0);
        } else {
            assert!(record.is_regular(), "{record:?}");
        }
    }
    // A crash is the player's own result, not a failure of the worker.
    let rows = store.games(SEASON).await.unwrap();
    assert!(
        rows.iter()
            .all(|g| g.state == GameState::Done && g.attempt == 1 && g.failures == 0),
        "{rows:?}"
    );

    let standings = report::standings(&definition, &rows).unwrap();
    assert_eq!(
        standings,
        Standings::from_records(&definition.names(), Ranking::WinPoints, &stored)
    );
    assert_eq!(standings.ranking, Ranking::WinPoints);
    assert_eq!((standings.games, standings.irregular_games), (6, 4));
    let last = &standings.rows[2];
    assert_eq!(last.stats.name, "crasher");
    assert_eq!(
        (last.rank, last.win_points, last.stats.irregular.crashes),
        (3, 0, 4)
    );
    for row in &standings.rows {
        assert_eq!(row.stats.games(), 4, "{row:?}");
    }
    // The bots beat the crasher every time: both are ahead of it, by
    // rating too.
    assert!(standings.rows[1].rating.estimate > last.rating.estimate);
    let text = standings.to_string();
    let crasher_row = text.lines().last().unwrap();
    assert!(crasher_row.starts_with("crasher "), "{text}");
    // The crasher's log is in its table's directory.
    let log = dir.path().join("log/crasher-vs-greedy/crasher_game1.log");
    assert!(std::fs::read_to_string(&log).unwrap().contains("no luck"));
    server.stop().await;
}

#[tokio::test]
async fn four_players_of_a_three_seat_game_meet_at_every_table_in_every_seat() {
    let dir = tempfile::tempdir().unwrap();
    let server = server(dir.path()).await;
    let definition = counting_league();
    assert_eq!(
        definition.schedule().unwrap().len(),
        12,
        "4 tables of 3, 3 games each"
    );
    let store = store_with(dir.path(), "league.sqlite", &definition).await;
    let report = play(&store, &template(&server, dir.path()), 2, None).await;
    assert_eq!(report.recorded, 12);
    let stored = records(&store).await;
    let games = table_games(&stored);
    assert_eq!(games.len(), 12);
    // At every table each player starts once.
    let mut starts: BTreeMap<Vec<String>, Vec<u8>> = BTreeMap::new();
    for ((players, _), starter) in games {
        starts.entry(players).or_default().push(starter);
    }
    assert_eq!(starts.len(), 4);
    for (table, mut starters) in starts {
        starters.sort();
        assert_eq!(starters, [1, 2, 3], "{table:?}");
    }
    let standings = report::standings(&definition, &store.games(SEASON).await.unwrap()).unwrap();
    for row in &standings.rows {
        assert_eq!(row.stats.games(), 9, "{row:?}");
    }
    server.stop().await;
}

#[tokio::test]
async fn a_stopped_season_resumes_to_the_standings_of_an_uninterrupted_one() {
    let dir = tempfile::tempdir().unwrap();
    let server = server(dir.path()).await;
    let template = template(&server, dir.path());
    let definition = counting_league();

    let whole = store_with(dir.path(), "whole.sqlite", &definition).await;
    play(&whole, &template, 2, None).await;

    // Stopped after 5 results (with two at a time, the game running then
    // is given back unplayed), then played on from the same file.
    let stopped = store_with(dir.path(), "stopped.sqlite", &definition).await;
    let first = play(&stopped, &template, 2, Some(5)).await;
    assert!(first.interrupted);
    let after_stop = records(&stopped).await.len();
    assert!((5..12).contains(&after_stop), "{after_stop}");
    let rows = stopped.games(SEASON).await.unwrap();
    assert!(
        rows.iter()
            .all(|g| matches!(g.state, GameState::Done | GameState::Waiting) && g.failures == 0),
        "a stopped worker gives its games back, uncounted: {rows:?}"
    );
    let resumed = play(&stopped, &template, 2, None).await;
    assert!(!resumed.interrupted);
    assert_eq!(resumed.recorded as usize, 12 - after_stop);

    // Every game once, the same games as the uninterrupted run, and the
    // same table to the last bit (it adds the games in schedule order).
    let played = records(&stopped).await;
    assert_eq!(table_games(&played).len(), 12);
    assert_eq!(games_played(&played), games_played(&records(&whole).await));
    assert_eq!(
        without_think_times(
            report::standings(&definition, &stopped.games(SEASON).await.unwrap()).unwrap()
        ),
        without_think_times(
            report::standings(&definition, &whole.games(SEASON).await.unwrap()).unwrap()
        )
    );
    server.stop().await;
}

/// `standings` with each player's think times in microseconds left out
/// (the moves they count are kept): the clock's figures differ from run to
/// run, the games do not.
fn without_think_times(mut standings: Standings) -> Standings {
    for row in &mut standings.rows {
        row.stats.think.total_micros = 0;
        row.stats.think.max_micros = 0;
    }
    standings
}

#[tokio::test]
async fn a_store_of_another_season_under_the_name_is_refused_and_left_alone() {
    let dir = tempfile::tempdir().unwrap();
    let server = server(dir.path()).await;
    let definition = season(
        GameType::TestCounting,
        &[
            ("a", "builtin:random"),
            ("b", "builtin:random"),
            ("c", "builtin:random"),
        ],
    );
    let store = store_with(dir.path(), "league.sqlite", &definition).await;
    play(&store, &template(&server, dir.path()), 1, None).await;
    let before = games_played(&records(&store).await);
    assert_eq!(before.len(), 3);
    // Another command under the same name.
    let mut other = definition.clone();
    other.players[1].start = "sh".to_owned();
    let error = store
        .create(SEASON, &other, &other.schedule().unwrap())
        .await
        .unwrap_err()
        .to_string();
    assert!(error.contains("players a=builtin:random b=sh"), "{error}");
    assert_eq!(store.definition(SEASON).await.unwrap(), definition);
    assert_eq!(games_played(&records(&store).await), before);
    server.stop().await;
}

#[tokio::test]
async fn blokus_games_are_the_same_games_whatever_the_slots_or_interruptions() {
    // Blokus draws its start piece at random: each room's seed comes from
    // the season's seed and the game's number, so one game at a time,
    // four at a time, and a stopped and resumed run (on a server that drew
    // other rooms in between) all play the same games.
    let dir = tempfile::tempdir().unwrap();
    let server = server(dir.path()).await;
    let template = template(&server, dir.path());
    let definition = season(
        GameType::Blokus2021,
        &[
            ("a", "builtin:random"),
            ("b", "builtin:random"),
            ("c", "builtin:random"),
            ("d", "builtin:random"),
        ],
    );
    let one = store_with(dir.path(), "one.sqlite", &definition).await;
    play(&one, &template, 1, None).await;
    let one_at_a_time = records(&one).await;
    assert_eq!(one_at_a_time.len(), 12);

    let four = store_with(dir.path(), "four.sqlite", &definition).await;
    play(&four, &template, 4, None).await;
    assert_eq!(
        games_played(&records(&four).await),
        games_played(&one_at_a_time)
    );

    let stopped = store_with(dir.path(), "stopped.sqlite", &definition).await;
    assert!(play(&stopped, &template, 4, Some(3)).await.interrupted);
    play(&stopped, &template, 4, None).await;
    assert_eq!(
        games_played(&records(&stopped).await),
        games_played(&one_at_a_time)
    );
    // Not all alike: the start pieces differ from game to game.
    let scores: std::collections::BTreeSet<_> =
        one_at_a_time.iter().map(|r| r.points.clone()).collect();
    assert!(scores.len() > 1, "{scores:?}");
    server.stop().await;
}
