//! The contest's calendar at scale (issue 37, BENCHMARKS.md "A contest of
//! 300 teams"): 300 teams in 15 groups of 20, 30 championship matchdays.
//! Each matchday is made and played (frozen and scheduled: one season of 6
//! games per encounter, 150 encounters), its 900 games recorded as a
//! worker records them (a claim, then the record), and the standings
//! computed twice (the first time also keeps the new matchday's decided
//! results). Prints the time of each matchday's scheduling and of the
//! standings after it, then their medians and largest; last, the reads of
//! the results pages (the tables after every matchday, the last matchday
//! with its games).
//!
//! ```sh
//! cargo run --release -p spielleiter-season --example contest_scale -- postgres
//! cargo run --release -p spielleiter-season --example contest_scale -- sqlite
//! ```
//!
//! PostgreSQL is a server of the example's own (Debian's `postgresql`
//! programs, as the tests start it). Optional second and third
//! arguments: matchdays (default 30) and teams (default 300, in groups of
//! 20).
#![allow(clippy::unwrap_used, clippy::print_stdout)] // a measuring harness, not product code

use std::{
    sync::Arc,
    time::{Duration, Instant},
};

use spielleiter_arena::{Cause, FinishedGame, GameRecord};
use spielleiter_contest::{
    ContestAccounts, ContestResults, ContestSettings, Counted, Phase, Timestamp, VersionNumber,
};
use spielleiter_rules::GameType;
use spielleiter_season::{
    AnyStore, ContestStore, NewContest, SeasonStore, create_contest, open as open_store,
};
use spielleiter_test_support::Postgres;

const NOW: Timestamp = Timestamp(1_800_000_000);
const GROUP_SIZE: usize = 20;

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let kind = args.first().map_or("postgres", String::as_str);
    let matchdays: u32 = args.get(1).map_or(30, |a| a.parse().unwrap());
    let teams: usize = args.get(2).map_or(300, |a| a.parse().unwrap());
    let dir = tempfile::tempdir().unwrap();
    let (_server, url) = match kind {
        "sqlite" => (
            None,
            dir.path().join("contest.sqlite").display().to_string(),
        ),
        "postgres" => {
            let server = tokio::task::spawn_blocking(Postgres::start).await.unwrap();
            let database = server.fresh_database();
            let url = server.url(&database);
            (Some(server), url)
        }
        other => panic!("sqlite or postgres, not {other}"),
    };
    let store = Arc::new(open_store(&url).await.unwrap());
    let new = NewContest {
        name: "Scale".to_owned(),
        game: GameType::DEFAULT,
        seed: Some(7),
        settings: ContestSettings::default(),
    };
    create_contest(&*store, &new, || 0).await.unwrap();
    let contest = ContestStore::open(Arc::clone(&store)).await.unwrap();
    let set_up = Instant::now();
    for team in 0..teams {
        let group = contest
            .group(&format!("Group {}", team / GROUP_SIZE + 1))
            .await
            .unwrap();
        let added = contest
            .add_team(&format!("Team {team}"), Some(group))
            .await
            .unwrap();
        contest
            .add_version(added.id, "builtin:random", "", NOW)
            .await
            .unwrap();
        contest
            .activate_version(added.id, VersionNumber(1), None, "organiser", NOW)
            .await
            .unwrap();
    }
    println!(
        "{kind}: {teams} teams in {} groups added in {:?}",
        teams.div_ceil(GROUP_SIZE),
        set_up.elapsed()
    );
    let (mut schedule, mut standings, mut standings_again) = (Vec::new(), Vec::new(), Vec::new());
    for number in 1..=matchdays {
        contest
            .create_matchday(Phase::Championship, None, false)
            .await
            .unwrap();
        let started = Instant::now();
        let report = contest
            .play_matchday(Phase::Championship, number, NOW)
            .await
            .unwrap();
        schedule.push(started.elapsed());
        let recording = Instant::now();
        let mut games = 0;
        for (encounter, _) in &report.encounters {
            let season = encounter.season.as_deref().unwrap();
            games += record_every_game(&store, season, number).await;
        }
        let recorded = recording.elapsed();
        // The first table after a matchday also finds its encounters
        // decided (and keeps their results); the second only reads.
        let started = Instant::now();
        let tables = contest.standings(Phase::Championship).await.unwrap();
        standings.push(started.elapsed());
        assert_eq!(tables.len(), teams.div_ceil(GROUP_SIZE));
        let started = Instant::now();
        let again = contest.standings(Phase::Championship).await.unwrap();
        standings_again.push(started.elapsed());
        assert_eq!(again, tables);
        println!(
            "matchday {number:>2}: {} encounters scheduled in {:>8.2?}, {games} games recorded in {recorded:.2?}, standings in {:>8.2?} (again {:>8.2?})",
            report.encounters.len(),
            schedule.last().unwrap(),
            standings.last().unwrap(),
            standings_again.last().unwrap(),
        );
    }
    println!(
        "{kind}, {teams} teams, {matchdays} matchdays: scheduling median {:.2?} (largest {:.2?}); standings median {:.2?} (largest {:.2?}, after the last matchday {:.2?}); again median {:.2?} (largest {:.2?})",
        median(&schedule),
        schedule.iter().max().unwrap(),
        median(&standings),
        standings.iter().max().unwrap(),
        standings.last().unwrap(),
        median(&standings_again),
        standings_again.iter().max().unwrap(),
    );
    // What the results pages read (`ContestResults`): the tables after
    // every matchday (the standings page, organisers' count) and the last
    // matchday with its games (a matchday's page); the median of 5 reads.
    let mut history = Vec::new();
    let mut day = Vec::new();
    for _ in 0..5 {
        let started = Instant::now();
        let tables = ContestResults::standings(&contest, Phase::Championship, Counted::All)
            .await
            .unwrap();
        history.push(started.elapsed());
        assert_eq!(
            tables.len(),
            matchdays as usize * teams.div_ceil(GROUP_SIZE)
        );
        let started = Instant::now();
        let shown = ContestResults::matchday(&contest, Phase::Championship, matchdays)
            .await
            .unwrap();
        day.push(started.elapsed());
        assert!(!shown.encounters.is_empty());
    }
    println!(
        "{kind}, the results pages' reads: the tables after each of {matchdays} matchdays median {:.2?}, the last matchday with its games median {:.2?}",
        median(&history),
        median(&day),
    );
}

/// Claims and records every game of `season` as a worker would, with
/// results that vary by game and matchday; how many.
async fn record_every_game(store: &AnyStore, season: &str, matchday: u32) -> u32 {
    let definition = store.definition(season).await.unwrap();
    let mut count = 0;
    while let Some(claim) = store
        .claim(season, "bench", Duration::from_secs(60), 3, None)
        .await
        .unwrap()
    {
        let game = claim.game.table_game;
        let home_wins = !(game + matchday).is_multiple_of(3);
        let record = GameRecord {
            game,
            game_type: definition.game.clone(),
            players: definition.names(),
            commands: definition.players.iter().map(|p| p.start.clone()).collect(),
            starter: 1 + ((game + 1) % 2) as u8,
            win_points: if home_wins { vec![2, 0] } else { vec![0, 2] },
            points: vec![40 + game, 30 + matchday],
            causes: vec![Cause::Regular; 2],
            reasons: vec![String::new(); 2],
            duration_ms: 1,
            room: "bench".to_owned(),
            replay: None,
            think_times: Vec::new(),
        };
        assert!(
            store
                .record(&claim, &FinishedGame::of_record(record))
                .await
                .unwrap()
        );
        count += 1;
    }
    count
}

fn median(times: &[Duration]) -> Duration {
    let mut sorted = times.to_vec();
    sorted.sort();
    sorted[sorted.len() / 2]
}
