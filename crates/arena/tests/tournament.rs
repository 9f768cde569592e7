//! Tournaments on an in-process server: every table plays, the standings
//! agree with the stored games, a player that crashes is recorded so, and a
//! tournament stopped mid-way resumes to the standings of an uninterrupted
//! one.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test.

use std::{collections::BTreeMap, os::unix::fs::PermissionsExt, path::Path, time::Duration};

use spielleiter_arena::{
    Cause, GameRecord, GameStore, LocalServer, MemoryStore, PlayerSpec, Program, Quiet,
    ResultsFile, Standings, TournamentObserver, TournamentSettings, run_tournament,
};
use spielleiter_bots::BotKind;
use spielleiter_protocol::GameType;
use spielleiter_rules::Ranking;
use tokio_util::sync::CancellationToken;

/// Every tournament here ends long before this, or the test fails as a hang.
const LIMIT: Duration = Duration::from_secs(120);

mod support;
use support::{player, server, settings};

fn tournament(
    server: &LocalServer,
    dir: &Path,
    game: GameType,
    players: Vec<PlayerSpec>,
) -> TournamentSettings {
    let mut template = settings(server, dir, []);
    template.game = game;
    template.parallel = 2;
    TournamentSettings::new(players, template)
}

/// Four random bots in a tournament of the three-seat counting game.
fn counting_league(server: &LocalServer, dir: &Path) -> TournamentSettings {
    let players = ["a", "b", "c", "d"]
        .map(|name| player(name, Program::Builtin(BotKind::Random)))
        .to_vec();
    tournament(server, dir, GameType::TestCounting, players)
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

#[tokio::test]
async fn every_pair_plays_with_seats_alternating_and_a_crasher_ranks_last() {
    let dir = tempfile::tempdir().unwrap();
    let server = server(dir.path()).await;
    let crash = dir.path().join("crash.sh");
    std::fs::write(&crash, "#!/bin/sh\necho 'no luck' >&2\nexit 3\n").unwrap();
    std::fs::set_permissions(&crash, std::fs::Permissions::from_mode(0o755)).unwrap();
    let players = vec![
        player("greedy", Program::Builtin(BotKind::Greedy)),
        player("random", Program::Builtin(BotKind::Random)),
        player("crasher", Program::executable(&crash)),
    ];
    let settings = tournament(&server, dir.path(), GameType::Blokus2021, players);
    let names = settings.names();
    let path = dir.path().join("league.jsonl");
    let mut store = ResultsFile::new(&path);
    let report = tokio::time::timeout(
        LIMIT,
        run_tournament(settings, &mut store, CancellationToken::new(), &mut Quiet),
    )
    .await
    .unwrap()
    .unwrap();
    assert!(!report.interrupted);
    assert_eq!(
        (report.scheduled, report.resumed, report.ignored),
        (6, 0, 0)
    );

    // Three pairs, two games each, each player of a pair starting one.
    let stored = ResultsFile::new(&path).load().unwrap();
    assert_eq!(
        stored, report.records,
        "the file holds what the run reported"
    );
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

    let standings = &report.standings;
    assert_eq!(
        *standings,
        Standings::from_records(&names, Ranking::WinPoints, &stored)
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
    let settings = counting_league(&server, dir.path());
    let mut store = MemoryStore::default();
    let report = tokio::time::timeout(
        LIMIT,
        run_tournament(settings, &mut store, CancellationToken::new(), &mut Quiet),
    )
    .await
    .unwrap()
    .unwrap();
    assert_eq!(report.scheduled, 12, "4 tables of 3, 3 games each");
    assert_eq!(store.records, report.records);
    let games = table_games(&report.records);
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
    for row in &report.standings.rows {
        assert_eq!(row.stats.games(), 9, "{row:?}");
    }
    server.stop().await;
}

/// Stops the tournament once it has stored `after` games.
struct StopAfter {
    after: u32,
    stored: u32,
    stop: CancellationToken,
}

impl TournamentObserver for StopAfter {
    fn started(&mut self, _: u32, _: u32, _: &Standings) {}
    fn game_finished(&mut self, _: &GameRecord, _: &Standings) {
        self.stored += 1;
        if self.stored == self.after {
            self.stop.cancel();
        }
    }
}

/// What of two standings must agree: everything but the last bits of the
/// sums (games recorded in another order add up in another order).
fn assert_same_standings(a: &Standings, b: &Standings) {
    assert_eq!((a.games, a.irregular_games), (b.games, b.irregular_games));
    assert_eq!(a.rows.len(), b.rows.len());
    for (x, y) in a.rows.iter().zip(&b.rows) {
        assert_eq!(
            (
                &x.stats.name,
                x.rank,
                x.win_points,
                x.stats.wins,
                x.stats.draws,
                x.stats.losses
            ),
            (
                &y.stats.name,
                y.rank,
                y.win_points,
                y.stats.wins,
                y.stats.draws,
                y.stats.losses
            )
        );
        assert!((x.stats.points_mean - y.stats.points_mean).abs() < 1e-9);
        assert!((x.rating.estimate - y.rating.estimate).abs() < 1e-6);
        assert!((x.rating.low - y.rating.low).abs() < 1e-6);
    }
}

#[tokio::test]
async fn a_stopped_tournament_resumes_to_the_standings_of_an_uninterrupted_one() {
    // The counting game deals nothing at random and the random bots are
    // seeded per table and game, so both runs play the same games.
    let dir = tempfile::tempdir().unwrap();
    let server = server(dir.path()).await;
    let settings = counting_league(&server, dir.path());

    let mut whole = MemoryStore::default();
    let uninterrupted = tokio::time::timeout(
        LIMIT,
        run_tournament(
            settings.clone(),
            &mut whole,
            CancellationToken::new(),
            &mut Quiet,
        ),
    )
    .await
    .unwrap()
    .unwrap();

    // Stopped after 5 games (with two at a time, the one running then is
    // abandoned), then run again from the same file.
    let path = dir.path().join("stopped.jsonl");
    let stop = CancellationToken::new();
    let mut observer = StopAfter {
        after: 5,
        stored: 0,
        stop: stop.clone(),
    };
    let first = tokio::time::timeout(
        LIMIT,
        run_tournament(
            settings.clone(),
            &mut ResultsFile::new(&path),
            stop,
            &mut observer,
        ),
    )
    .await
    .unwrap()
    .unwrap();
    assert!(first.interrupted);
    assert!(
        (5..12).contains(&first.records.len()),
        "{}",
        first.records.len()
    );
    let resumed = tokio::time::timeout(
        LIMIT,
        run_tournament(
            settings,
            &mut ResultsFile::new(&path),
            CancellationToken::new(),
            &mut Quiet,
        ),
    )
    .await
    .unwrap()
    .unwrap();
    assert!(!resumed.interrupted);
    assert_eq!(resumed.resumed as usize, first.records.len());
    assert_eq!(resumed.records.len(), 12);
    // Every game once, and the same games as the uninterrupted run.
    let game = |r: &GameRecord| {
        (
            r.players.clone(),
            r.game,
            r.win_points.clone(),
            r.points.clone(),
        )
    };
    let mut played: Vec<_> = resumed.records.iter().map(game).collect();
    let mut expected: Vec<_> = uninterrupted.records.iter().map(game).collect();
    played.sort();
    expected.sort();
    assert_eq!(played, expected);
    assert_same_standings(&resumed.standings, &uninterrupted.standings);
    server.stop().await;
}

#[tokio::test]
async fn a_store_of_another_tournament_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let server = server(dir.path()).await;
    let players = ["a", "b", "c"]
        .map(|name| player(name, Program::Builtin(BotKind::Random)))
        .to_vec();
    let settings = tournament(&server, dir.path(), GameType::TestCounting, players);
    let mut store = MemoryStore::default();
    run_tournament(
        settings.clone(),
        &mut store,
        CancellationToken::new(),
        &mut Quiet,
    )
    .await
    .unwrap();
    // Another command under the same name (one that can be started: a
    // program that cannot is refused before the store is looked at).
    let mut other = settings;
    other.players[1].program = Program::executable("sh");
    let error = run_tournament(other, &mut store, CancellationToken::new(), &mut Quiet)
        .await
        .unwrap_err()
        .to_string();
    assert!(error.contains("not of this tournament"), "{error}");
    server.stop().await;
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
async fn blokus_games_are_the_same_games_whatever_the_parallelism_or_interruptions() {
    // Blokus draws its start piece at random: each room's seed comes from
    // the tournament's seed and the game's number, so one game at a time,
    // four at a time, and a stopped and resumed run (on a server that drew
    // other rooms in between) all play the same games.
    let dir = tempfile::tempdir().unwrap();
    let server = server(dir.path()).await;
    let players = ["a", "b", "c", "d"]
        .map(|name| player(name, Program::Builtin(BotKind::Random)))
        .to_vec();
    let mut settings = tournament(&server, dir.path(), GameType::Blokus2021, players);
    settings.template.parallel = 1;
    let mut one = MemoryStore::default();
    let one_at_a_time = tokio::time::timeout(
        LIMIT,
        run_tournament(
            settings.clone(),
            &mut one,
            CancellationToken::new(),
            &mut Quiet,
        ),
    )
    .await
    .unwrap()
    .unwrap();
    assert_eq!(one_at_a_time.records.len(), 12);

    settings.template.parallel = 4;
    let mut four = MemoryStore::default();
    let four_at_a_time = tokio::time::timeout(
        LIMIT,
        run_tournament(
            settings.clone(),
            &mut four,
            CancellationToken::new(),
            &mut Quiet,
        ),
    )
    .await
    .unwrap()
    .unwrap();
    assert_eq!(
        games_played(&four_at_a_time.records),
        games_played(&one_at_a_time.records)
    );

    let stop = CancellationToken::new();
    let mut stopped = MemoryStore::default();
    let mut observer = StopAfter {
        after: 3,
        stored: 0,
        stop: stop.clone(),
    };
    let first = tokio::time::timeout(
        LIMIT,
        run_tournament(settings.clone(), &mut stopped, stop, &mut observer),
    )
    .await
    .unwrap()
    .unwrap();
    assert!(first.interrupted);
    let resumed = tokio::time::timeout(
        LIMIT,
        run_tournament(settings, &mut stopped, CancellationToken::new(), &mut Quiet),
    )
    .await
    .unwrap()
    .unwrap();
    assert_eq!(
        games_played(&resumed.records),
        games_played(&one_at_a_time.records)
    );
    // Not all alike: the start pieces differ from game to game.
    let scores: std::collections::BTreeSet<_> = one_at_a_time
        .records
        .iter()
        .map(|r| r.points.clone())
        .collect();
    assert!(scores.len() > 1, "{scores:?}");
    server.stop().await;
}
