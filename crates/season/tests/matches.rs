//! Matches on an in-process server, each a season of one table played by
//! this process's worker: built-in bots, resuming, and player programs
//! that crash or never connect.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test.

use std::{
    os::unix::fs::PermissionsExt,
    path::{Path, PathBuf},
    time::Duration,
};

use spielleiter_arena::{Cause, GameRecord, MatchObserver, PlayerSpec, Program, Quiet, Summary};
use spielleiter_bots::BotKind;
use spielleiter_protocol::GameType;
use spielleiter_season::run_match;
use tokio_util::sync::CancellationToken;

/// Every match here ends long before this, or the test fails as a hang.
const LIMIT: Duration = Duration::from_secs(60);

mod support;
use support::{player, server, settings};

fn bots() -> [PlayerSpec; 2] {
    [
        player("greedy", Program::Builtin(BotKind::Greedy)),
        player("random", Program::Builtin(BotKind::Random)),
    ]
}

fn rows(path: &Path) -> Vec<GameRecord> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

#[tokio::test]
async fn builtin_bots_play_a_match_whose_summary_matches_its_rows() {
    let dir = tempfile::tempdir().unwrap();
    let server = server(dir.path()).await;
    let mut settings = settings(&server, dir.path(), bots());
    settings.games = 4;
    settings.parallel = 2;
    let names = settings.names();
    let results = settings.results.clone();
    let report = tokio::time::timeout(
        LIMIT,
        run_match(settings, CancellationToken::new(), &mut Quiet),
    )
    .await
    .unwrap()
    .unwrap();
    assert!(!report.interrupted);
    assert_eq!(report.resumed, 0);

    let mut rows = rows(&results);
    assert_eq!(rows, report.records, "the file holds what the run reported");
    assert_eq!(Summary::from_records(&names, &rows), report.summary);
    rows.sort_by_key(|r| r.game);
    assert_eq!(
        rows.iter().map(|r| r.game).collect::<Vec<_>>(),
        [1, 2, 3, 4]
    );
    let summary = &report.summary;
    assert_eq!(summary.games, 4);
    assert_eq!(summary.irregular_games, 0);
    let [a, b] = &summary.players[..] else {
        panic!("two players");
    };
    assert_eq!(a.wins + a.draws + a.losses, 4);
    assert_eq!((a.wins, a.draws, a.losses), (b.losses, b.draws, b.wins));
    let mean = rows.iter().map(|r| f64::from(r.points[0])).sum::<f64>() / 4.0;
    assert!((a.points_mean - mean).abs() < 1e-9);

    let mut replays: Vec<PathBuf> = Vec::new();
    for row in &rows {
        assert!(row.is_regular(), "{row:?}");
        // Player 1 starts the odd games, player 2 the even ones.
        assert_eq!(row.starter, if row.game % 2 == 1 { 1 } else { 2 });
        let winner_points = row.win_points.iter().sum::<u32>();
        assert_eq!(winner_points, 2, "a win is 2 + 0, a draw 1 + 1: {row:?}");
        let replay = row.replay.clone().expect("the replay was found");
        let text = std::fs::read_to_string(&replay).unwrap();
        assert!(text.contains(&format!("roomId=\"{}\"", row.room)));
        replays.push(replay);
    }
    replays.sort();
    replays.dedup();
    assert_eq!(replays.len(), 4, "one replay per game");
    server.stop().await;
}

/// Interrupts the match after its first recorded game.
struct StopAfterFirst(CancellationToken);

impl MatchObserver for StopAfterFirst {
    fn started(&mut self, _: u32, _: u32, _: &Summary) {}
    fn game_finished(&mut self, _: &GameRecord, _: &Summary) {
        self.0.cancel();
    }
}

#[tokio::test]
async fn an_interrupted_match_resumes_where_it_stopped() {
    let dir = tempfile::tempdir().unwrap();
    let server = server(dir.path()).await;
    let mut first = settings(&server, dir.path(), bots());
    first.games = 3;
    let second = first.clone();

    let stop = CancellationToken::new();
    let report = tokio::time::timeout(
        LIMIT,
        run_match(first, stop.clone(), &mut StopAfterFirst(stop)),
    )
    .await
    .unwrap()
    .unwrap();
    assert!(report.interrupted);
    assert_eq!(report.records.len(), 1);

    let report = tokio::time::timeout(
        LIMIT,
        run_match(second, CancellationToken::new(), &mut Quiet),
    )
    .await
    .unwrap()
    .unwrap();
    assert!(!report.interrupted);
    assert_eq!(report.resumed, 1);
    assert_eq!(report.summary.games, 3);
    let mut games: Vec<u32> = rows(&dir.path().join("results.jsonl"))
        .iter()
        .map(|r| r.game)
        .collect();
    games.sort();
    assert_eq!(games, [1, 2, 3]);
    server.stop().await;
}

fn script(dir: &Path, name: &str, body: &str) -> Program {
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    Program::executable(path)
}

/// Whether the process whose pid is in `pid_file` still runs (a killed
/// process may linger as a zombie until its new parent reaps it).
fn alive(pid_file: &Path) -> bool {
    let pid = std::fs::read_to_string(pid_file).unwrap();
    match std::fs::read_to_string(format!("/proc/{}/stat", pid.trim())) {
        Ok(stat) => {
            let state = stat.rsplit(')').next().unwrap_or("").trim_start();
            !(state.starts_with('Z') || state.starts_with('X'))
        }
        Err(_) => false,
    }
}

#[tokio::test]
async fn players_that_crash_or_never_connect_end_as_irregular_games() {
    let dir = tempfile::tempdir().unwrap();
    let server = server(dir.path()).await;

    // Player 2 ends at once with an error.
    let crash = script(dir.path(), "crash.sh", "echo 'cannot start' >&2; exit 3");
    let mut crashing = settings(
        &server,
        dir.path(),
        [
            player("bot", Program::Builtin(BotKind::Greedy)),
            player("crasher", crash),
        ],
    );
    crashing.games = 2;
    let report = tokio::time::timeout(
        LIMIT,
        run_match(crashing, CancellationToken::new(), &mut Quiet),
    )
    .await
    .expect("a crashing player does not hang the match")
    .unwrap();
    assert_eq!(report.records.len(), 2);
    for row in &report.records {
        assert_eq!(row.causes, [Cause::Regular, Cause::Crashed], "{row:?}");
        assert_eq!(row.win_points, [2, 0]);
        assert!(row.reasons[1].contains("exit status: 3"), "{row:?}");
        assert_eq!(row.replay, None, "the game never started");
    }
    let [bot, crasher] = &report.summary.players[..] else {
        panic!("two players");
    };
    assert_eq!(
        (bot.wins, crasher.losses, crasher.irregular.crashes),
        (2, 2, 2)
    );
    let log = std::fs::read_to_string(dir.path().join("log/crasher_game2.log")).unwrap();
    // A header line per run (logs are appended), then the program's output.
    let (header, output) = log.split_once('\n').unwrap();
    assert!(header.starts_with("[spielleiter] "), "{header}");
    assert!(
        header.contains(" game 2: ") && header.ends_with("crash.sh"),
        "{header}"
    );
    assert_eq!(output, "cannot start\n");

    // Player 1 never connects: it sleeps, and so does a child it started.
    let pids = dir.path().join("pids");
    std::fs::create_dir(&pids).unwrap();
    let body = format!(
        "echo $$ > {p}/$2; sleep 60 & echo $! > {p}/$2.child; wait",
        p = pids.display()
    );
    let sleeper = script(dir.path(), "sleeper.sh", &body);
    let mut silent = settings(
        &server,
        dir.path(),
        [
            player("sleeper", sleeper),
            player("bot", Program::Builtin(BotKind::Random)),
        ],
    );
    silent.results = dir.path().join("silent.jsonl");
    silent.games = 1;
    silent.connect_timeout = Duration::from_millis(300);
    let report = tokio::time::timeout(
        LIMIT,
        run_match(silent, CancellationToken::new(), &mut Quiet),
    )
    .await
    .expect("a silent player does not hang the match")
    .unwrap();
    let row = &report.records[0];
    assert_eq!(row.causes, [Cause::NoConnection, Cause::Regular], "{row:?}");
    assert_eq!(row.win_points, [0, 2]);
    // The script and the process it started were both killed.
    let code = std::fs::read_dir(&pids)
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .find(|name| !name.ends_with(".child"))
        .expect("the script wrote its pid");
    assert!(!alive(&pids.join(&code)));
    // SIGKILL reaches the rest of the group asynchronously.
    let child = pids.join(format!("{code}.child"));
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    while alive(&child) && std::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert!(!alive(&child), "the program's child survived");
    server.stop().await;
}

#[tokio::test]
async fn a_match_stops_once_one_player_is_significantly_better() {
    let dir = tempfile::tempdir().unwrap();
    let server = server(dir.path()).await;
    let mut settings = settings(&server, dir.path(), bots());
    settings.games = 40;
    settings.significance = Some(0.05);
    settings.min_tests = 5;
    let report = tokio::time::timeout(
        LIMIT,
        run_match(settings, CancellationToken::new(), &mut Quiet),
    )
    .await
    .unwrap()
    .unwrap();
    let found = report.significant.expect("greedy beats random clearly");
    assert_eq!(found.better, 0);
    assert!(found.p_value <= 0.05);
    assert!(!report.interrupted);
    // Five straight wins are already significant (1/32); a lost game
    // delays the stop a little, but far fewer than 40 games are played.
    let games = report.records.len();
    assert!((5..20).contains(&games), "{games} games");
    server.stop().await;
}

#[tokio::test]
async fn three_players_rotate_through_the_seats_of_a_three_seat_game() {
    let dir = tempfile::tempdir().unwrap();
    let server = server(dir.path()).await;
    let players = ["a", "b", "c"].map(|name| player(name, Program::Builtin(BotKind::Random)));
    let mut settings = settings(&server, dir.path(), players);
    settings.game = GameType::TestCounting;
    settings.games = 3;
    let report = tokio::time::timeout(
        LIMIT,
        run_match(settings, CancellationToken::new(), &mut Quiet),
    )
    .await
    .unwrap()
    .unwrap();
    assert_eq!(report.summary.games, 3);
    assert_eq!(report.summary.irregular_games, 0);
    assert_eq!(report.summary.players.len(), 3);
    assert_eq!(report.summary.elo, None);
    let mut records = report.records;
    records.sort_by_key(|r| r.game);
    // Each player had the first seat once.
    let starters: Vec<u8> = records.iter().map(|r| r.starter).collect();
    assert_eq!(starters, [1, 2, 3]);
    for record in &records {
        assert_eq!(record.players, ["a", "b", "c"]);
        assert!(record.is_regular(), "{record:?}");
        // Two rounds of 1..=3 each.
        assert!(
            record.points.iter().all(|p| (2..=6).contains(p)),
            "{record:?}"
        );
        assert!(record.win_points.iter().any(|&w| w > 0), "{record:?}");
    }
    server.stop().await;
}

#[tokio::test]
async fn a_match_needs_a_player_per_seat() {
    let dir = tempfile::tempdir().unwrap();
    let server = server(dir.path()).await;
    let mut settings = settings(&server, dir.path(), bots());
    settings.game = GameType::TestCounting;
    let refused = run_match(settings, CancellationToken::new(), &mut Quiet).await;
    assert!(
        matches!(&refused, Err(spielleiter_season::SeasonError::Arena(spielleiter_arena::ArenaError::Settings(text))) if text.contains("3 players")),
        "{refused:?}"
    );
    server.stop().await;
}

/// Issue 24: `--parallel 500` against a server with the default limits (32
/// connections per address, three per game) is refused before any game
/// starts, naming how many games fit, instead of abandoning the games the
/// server turns away.
#[tokio::test]
async fn more_parallel_games_than_the_server_admits_are_refused_before_the_first() {
    let dir = tempfile::tempdir().unwrap();
    let server = server(dir.path()).await;
    let mut settings = settings(&server, dir.path(), bots());
    settings.games = 500;
    settings.parallel = 500;
    let results = settings.results.clone();
    let refused = tokio::time::timeout(
        LIMIT,
        run_match(settings, CancellationToken::new(), &mut Quiet),
    )
    .await
    .unwrap()
    .expect_err("500 parallel games do not fit");
    let text = refused.to_string();
    assert!(
        text.contains("1500 connections") && text.contains("at most 10 games"),
        "{text}"
    );
    assert!(!results.exists(), "no game was played");
    server.stop().await;
}

/// A game that fails outside the players (no server where the match
/// expects one) ends the match with that failure: its store is the
/// match's own, so nobody would play the game again.
#[tokio::test]
async fn a_failure_outside_the_players_ends_the_match_with_it() {
    let dir = tempfile::tempdir().unwrap();
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = closed.local_addr().unwrap().port();
    drop(closed);
    let mut settings = spielleiter_arena::MatchSettings::new(
        bots().to_vec(),
        "127.0.0.1".to_owned(),
        port,
        "passphrase".to_owned(),
    );
    settings.results = dir.path().join("results.jsonl");
    settings.log_dir = dir.path().join("log");
    settings.games = 3;
    let failed = tokio::time::timeout(
        LIMIT,
        run_match(settings, CancellationToken::new(), &mut Quiet),
    )
    .await
    .unwrap();
    let error = failed.expect_err("no server, no match").to_string();
    assert!(error.contains(&format!("127.0.0.1:{port}")), "{error}");
    assert!(rows(&dir.path().join("results.jsonl")).is_empty());
}
