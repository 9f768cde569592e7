//! A contest's matchdays as an organiser runs them, with real processes:
//! `contest version …` and `contest matchday …` refusing bad input in one
//! line with nothing changed; and seven teams in one group (one without a
//! version, played by the `random` stand-in; the others built-in bots)
//! playing three championship matchdays of six games per encounter, played
//! by three `spielleiter worker --contest` processes started before the
//! first, one of them killed (SIGKILL) on matchday 2 while it holds a game,
//! on SQLite and on PostgreSQL (`postgres` in the test's name). Every
//! matchday has three encounters and one team sitting out, no pair meets
//! twice, every game has one result and was claimed once (the killed
//! worker's twice), and `contest standings
//! --json` equals the official rules worked out here by hand from the
//! stored results.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test.

use std::{
    collections::{BTreeMap, BTreeSet},
    path::Path,
    process::{Child, Output, Stdio},
    sync::Arc,
    time::{Duration, Instant},
};

use spielleiter_contest::{ContestAccounts, Entry, Phase, TeamId};
use spielleiter_season::{ContestStore, GameState, SeasonStore, StoredEncounter};
use spielleiter_test_support::{Postgres, Program, succeeded, wait_until};

/// The binary, without settings from the developer's environment.
const SPIELLEITER: Program = Program::new(env!("CARGO_BIN_EXE_spielleiter")).without(&[
    "SPIELLEITER_STORE",
    "SPIELLEITER_ADMIN_PASSPHRASE",
    "RUST_LOG",
]);

/// Runs `contest ARGS… --store STORE` in `dir`.
fn contest(dir: &Path, store: &str, args: &[&str]) -> Output {
    let mut all = vec!["contest"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--store", store]);
    SPIELLEITER.run(dir, &all)
}

/// Fails unless the run failed with one line naming `naming`.
fn refused(output: &Output, naming: &str) {
    assert!(!output.status.success(), "{output:?}");
    let error = String::from_utf8_lossy(&output.stderr);
    assert!(error.contains(naming), "{naming}: {error}");
    assert_eq!(error.trim().lines().count(), 1, "one line: {error}");
    assert!(output.stdout.is_empty(), "{output:?}");
}

/// What the organiser sees of the contest: its status, every team's
/// versions, every matchday.
fn everything(dir: &Path, store: &str, teams: &[&str]) -> String {
    let mut seen = succeeded(&contest(dir, store, &["status"]));
    for team in teams {
        seen.push_str(&succeeded(&contest(dir, store, &["version", "list", team])));
    }
    for matchday in ["1", "2"] {
        let shown = contest(dir, store, &["matchday", "show", matchday]);
        seen.push_str(&String::from_utf8_lossy(&shown.stdout));
        seen.push_str(&String::from_utf8_lossy(&shown.stderr));
    }
    seen
}

#[test]
fn version_and_matchday_commands_refuse_bad_input_in_one_line_and_change_nothing() {
    let dir = tempfile_dir("refusals");
    let store = dir.join("contest.sqlite");
    let store = store.to_str().unwrap();
    succeeded(&contest(
        &dir,
        store,
        &[
            "create",
            "--game",
            "swc_2027_blokus",
            "--name",
            "Cup",
            "--seed",
            "1",
        ],
    ));
    for team in ["Owls", "Foxes"] {
        succeeded(&contest(&dir, store, &["team", "add", team]));
    }
    succeeded(&contest(
        &dir,
        store,
        &[
            "version",
            "add",
            "Owls",
            "--player",
            "builtin:greedy",
            "--activate",
        ],
    ));
    succeeded(&contest(
        &dir,
        store,
        &["matchday", "create", "--phase", "trial"],
    ));
    succeeded(&contest(&dir, store, &["matchday", "play", "1"]));
    let before = everything(&dir, store, &["Owls", "Foxes"]);
    let long = "x".repeat(3000);
    let cases: [(&[&str], &str); 12] = [
        (
            &["version", "add", "Owls", "--player", "builtin:chess"],
            "unknown bot `chess`",
        ),
        (
            &["version", "add", "Owls", "--player", " "],
            "the player is empty",
        ),
        (
            &[
                "version",
                "add",
                "Owls",
                "--player",
                "builtin:random",
                "--comment",
                &long,
            ],
            "the comment has 3000 bytes",
        ),
        (
            &["version", "add", "Nobody", "--player", "builtin:random"],
            "no team named \"Nobody\"",
        ),
        (
            &["version", "activate", "Owls", "1"],
            "is its active version already",
        ),
        (&["version", "activate", "Owls", "7"], "has no version 7"),
        (
            &["version", "activate", "Foxes", "1"],
            "has no version 1 (it has none)",
        ),
        (
            &["version", "list", "'; DROP TABLE contests; --"],
            "no team named",
        ),
        (
            &[
                "matchday",
                "create",
                "--phase",
                "trial",
                "--deadline",
                "tomorrow",
            ],
            "--deadline `tomorrow` is no time",
        ),
        (&["matchday", "play", "1"], "is scheduled already"),
        (&["matchday", "play", "9"], "has no matchday 9"),
        (
            &["matchday", "publish", "1"],
            "is still being played (0 of 6 games done)",
        ),
    ];
    for (args, naming) in cases {
        refused(&contest(&dir, store, args), naming);
    }
    refused(
        &contest(&dir, store, &["standings", "--phase", "trial"]),
        "no table is kept for the trial matchdays",
    );
    assert_eq!(everything(&dir, store, &["Owls", "Foxes"]), before);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A directory of the test's own below the target directory.
fn tempfile_dir(test: &str) -> std::path::PathBuf {
    let base = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let dir = base.join(format!("contest-matchdays-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A worker process, killed when the test ends before it is finished.
struct KillOnDrop(Option<Child>);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        if let Some(mut child) = self.0.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// One team's row as worked out by hand.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Hand {
    ranking_points: u64,
    encounters: [u64; 3],
    games: u64,
    games_won: u64,
    games_drawn: u64,
    played: u64,
    points: i64,
}

#[test]
fn seven_teams_play_three_championship_matchdays_on_workers() {
    let dir = tempfile_dir("seven-teams");
    let path = dir.join("contest.sqlite");
    seven_teams(&dir, path.to_str().unwrap());
}

#[test]
fn seven_teams_play_three_championship_matchdays_on_workers_postgres() {
    let dir = tempfile_dir("seven-teams-postgres");
    let server = Postgres::shared();
    let database = server.fresh_database();
    seven_teams(&dir, &server.url(&database));
}

/// The seven teams' three matchdays on `store`, the test's files in `dir`
/// (removed at the end). On matchday 2 one of the three contest workers is
/// killed (SIGKILL) while it holds a game: another plays that game once
/// its lease runs out.
fn seven_teams(dir: &Path, store: &str) {
    let dir = dir.to_path_buf();
    succeeded(&contest(
        &dir,
        store,
        &[
            "create",
            "--game",
            "swc_2027_blokus",
            "--name",
            "Cup",
            "--seed",
            "37",
        ],
    ));
    let names = ["Owls", "Foxes", "Bears", "Wolves", "Hawks", "Lynx", "Moles"];
    for name in names {
        succeeded(&contest(
            &dir,
            store,
            &["team", "add", name, "--group", "A"],
        ));
    }
    // Owls have no version: the stand-in plays. Foxes' second version is
    // the active one.
    for (i, name) in names.iter().enumerate().skip(1) {
        let bot = if i % 2 == 0 {
            "builtin:greedy"
        } else {
            "builtin:random"
        };
        succeeded(&contest(
            &dir,
            store,
            &["version", "add", name, "--player", bot, "--activate"],
        ));
    }
    succeeded(&contest(
        &dir,
        store,
        &[
            "version",
            "add",
            "Foxes",
            "--player",
            "builtin:greedy",
            "--comment",
            "v2",
        ],
    ));
    succeeded(&contest(
        &dir,
        store,
        &["version", "activate", "Foxes", "2"],
    ));

    let runtime = tokio::runtime::Runtime::new().unwrap();
    let opened = runtime.block_on(spielleiter_season::open(store)).unwrap();
    let opened = Arc::new(opened);
    let accounts = runtime
        .block_on(ContestStore::open(Arc::clone(&opened)))
        .unwrap();
    let team_ids: BTreeMap<String, TeamId> = runtime
        .block_on(accounts.teams())
        .unwrap()
        .into_iter()
        .map(|t| (t.name, t.id))
        .collect();

    let mut met = BTreeSet::new();
    let mut sat_out = BTreeSet::new();
    let mut encounters: Vec<StoredEncounter> = Vec::new();
    // Three workers of the contest, started before anything is scheduled,
    // play every matchday as it comes; one is killed on matchday 2.
    let mut workers: Vec<KillOnDrop> = ["w1", "w2", "w3"]
        .into_iter()
        // A killed worker's game is claimed again soon.
        .map(|name| {
            contest_worker(
                &dir,
                store,
                name,
                &["--lease-ms", "3000", "--heartbeat-ms", "500"],
            )
        })
        .collect();
    let mut killed_holding = None;
    let started = Instant::now();
    for matchday in 1..=3 {
        let number = matchday.to_string();
        succeeded(&contest(
            &dir,
            store,
            &["matchday", "create", "--phase", "championship", "--untimed"],
        ));
        let played = succeeded(&contest(&dir, store, &["matchday", "play", &number]));
        assert!(played.contains("3 encounters"), "{played}");
        let report = runtime
            .block_on(accounts.matchday_report(Phase::Championship, matchday))
            .unwrap();
        assert_eq!(report.encounters.len(), 3, "matchday {matchday}");
        assert_eq!(report.byes.len(), 1, "matchday {matchday}");
        assert!(sat_out.insert(report.byes[0].team), "a team sat out twice");
        let mut teams: BTreeSet<TeamId> = report.byes.iter().map(|b| b.team).collect();
        let mut seasons = Vec::new();
        for (stored, _) in &report.encounters {
            let pairing = stored.encounter.pairing;
            assert!(teams.insert(pairing.home) && teams.insert(pairing.away));
            let pair = (
                pairing.home.min(pairing.away),
                pairing.home.max(pairing.away),
            );
            assert!(met.insert(pair), "{pair:?} met twice");
            for (team, entry) in pairing.teams().into_iter().zip(stored.encounter.entries) {
                if team == team_ids["Owls"] {
                    assert_eq!(entry, Entry::StandIn);
                } else {
                    assert!(matches!(entry, Entry::Version(_)), "{entry:?}");
                }
            }
            seasons.push(stored.season.clone().unwrap());
            encounters.push(stored.clone());
        }
        assert_eq!(teams.len(), 7);
        let games_of = |seasons: &[String]| -> Vec<(String, spielleiter_season::GameRow)> {
            seasons
                .iter()
                .flat_map(|season| {
                    runtime
                        .block_on(opened.games(season))
                        .unwrap()
                        .into_iter()
                        .map(|game| (season.clone(), game))
                })
                .collect()
        };
        if matchday == 2 {
            // A worker dies (SIGKILL) while it holds a game: the first seen
            // holding one.
            let mut held = None;
            wait_until(
                "a worker to hold a game",
                Duration::from_secs(60),
                Duration::from_millis(2),
                || {
                    held = games_of(&seasons).into_iter().find_map(|(season, g)| {
                        let worker = g.worker.clone()?;
                        (g.state == GameState::Running).then_some((season, g.game.number, worker))
                    });
                    held.is_some()
                },
            );
            let (season, number, worker) = held.unwrap();
            let index = ["w1", "w2", "w3"]
                .iter()
                .position(|w| *w == worker)
                .unwrap();
            let mut child = workers[index].0.take().unwrap();
            child.kill().unwrap();
            child.wait().unwrap();
            eprintln!("killed {worker} holding game {number} of {season}");
            killed_holding = Some((season, number, worker));
        }
        wait_until(
            "the contest's workers to play the matchday",
            Duration::from_secs(300),
            Duration::from_millis(50),
            || {
                games_of(&seasons)
                    .iter()
                    .all(|(_, g)| g.state == GameState::Done)
            },
        );
        let shown = succeeded(&contest(&dir, store, &["matchday", "show", &number]));
        assert!(
            shown.contains("played, 3 encounters, 18 of 18 games done"),
            "{shown}"
        );
        succeeded(&contest(&dir, store, &["matchday", "publish", &number]));
    }
    eprintln!("three matchdays played in {:?}", started.elapsed());

    // The standings by hand from the stored games: game win points decide
    // each game, more games won the encounter, 2/1/0 ranking points.
    let mut hand: BTreeMap<TeamId, Hand> =
        team_ids.values().map(|t| (*t, Hand::default())).collect();
    for stored in &encounters {
        let season = stored.season.as_deref().unwrap();
        let games = runtime.block_on(opened.games(season)).unwrap();
        assert_eq!(games.len(), 6, "{season}");
        let [home, away] = stored.encounter.pairing.teams();
        let (mut wins, mut draws, mut points) = ([0u64; 2], 0u64, [0i64; 2]);
        for game in &games {
            assert_eq!(
                game.state,
                GameState::Done,
                "{season} game {}",
                game.game.number
            );
            let record = game.record.as_ref().unwrap();
            assert_eq!(record.players.len(), 2);
            match record.win_points[0].cmp(&record.win_points[1]) {
                std::cmp::Ordering::Greater => wins[0] += 1,
                std::cmp::Ordering::Less => wins[1] += 1,
                std::cmp::Ordering::Equal => draws += 1,
            }
            points[0] += i64::from(record.points[0]);
            points[1] += i64::from(record.points[1]);
        }
        // The home side moved first in games 1, 3, 5.
        let starters: Vec<u8> = games
            .iter()
            .map(|g| g.record.as_ref().unwrap().starter)
            .collect();
        assert_eq!(starters, [1, 2, 1, 2, 1, 2], "{season}");
        for (side, team) in [(0, home), (1, away)] {
            let row = hand.get_mut(&team).unwrap();
            let (mine, theirs) = (wins[side], wins[1 - side]);
            let outcome = match mine.cmp(&theirs) {
                std::cmp::Ordering::Greater => 0,
                std::cmp::Ordering::Equal => 1,
                std::cmp::Ordering::Less => 2,
            };
            row.encounters[outcome] += 1;
            row.ranking_points += [2, 1, 0][outcome];
            row.games += 6;
            row.games_won += mine;
            row.games_drawn += draws;
            row.played += 6;
            row.points += points[side];
        }
    }
    // Every game has exactly one result: one row each, done, in the store.
    let total: usize = encounters
        .iter()
        .map(|e| {
            runtime
                .block_on(opened.games(e.season.as_deref().unwrap()))
                .unwrap()
                .len()
        })
        .sum();
    assert_eq!(total, 9 * 6);
    // No game claimed twice by live workers: each was claimed once, but
    // the one the killed worker held, claimed again after its lease.
    let killed_holding = killed_holding.unwrap();
    for stored in &encounters {
        let season = stored.season.as_deref().unwrap();
        for game in runtime.block_on(opened.games(season)).unwrap() {
            let was_held =
                (season, game.game.number) == (killed_holding.0.as_str(), killed_holding.1);
            if was_held {
                assert_ne!(
                    game.worker,
                    Some(killed_holding.2.clone()),
                    "played on by another"
                );
            }
            let expected = if was_held { 2 } else { 1 };
            assert_eq!(game.attempt, expected, "{season} game {}", game.game.number);
        }
    }
    drop(workers);

    let json_path = dir.join("standings.json");
    let csv_path = dir.join("standings.csv");
    let printed = succeeded(&contest(
        &dir,
        store,
        &[
            "standings",
            "--json",
            json_path.to_str().unwrap(),
            "--csv",
            csv_path.to_str().unwrap(),
        ],
    ));
    eprintln!("{printed}");
    assert!(printed.contains("after matchday 3"), "{printed}");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json_path).unwrap()).unwrap();
    let groups = json["groups"].as_array().unwrap();
    assert_eq!(groups.len(), 1);
    let rows = groups[0]["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 7);
    let mut previous: Option<(u64, i64, u64)> = None;
    for (place, row) in rows.iter().enumerate() {
        let team = TeamId(row["team"].as_i64().unwrap());
        let expected = &hand[&team];
        let stored = Hand {
            ranking_points: row["ranking_points"].as_u64().unwrap(),
            encounters: [
                row["encounters_won"].as_u64().unwrap(),
                row["encounters_drawn"].as_u64().unwrap(),
                row["encounters_lost"].as_u64().unwrap(),
            ],
            games: row["games"].as_u64().unwrap(),
            games_won: row["games_won"].as_u64().unwrap(),
            games_drawn: row["games_drawn"].as_u64().unwrap(),
            played: row["played"].as_u64().unwrap(),
            points: row["points"].as_i64().unwrap(),
        };
        assert_eq!(&stored, expected, "{}", row["team_name"]);
        assert_eq!(row["rank"].as_u64().unwrap(), place as u64 + 1);
        // Ranked by ranking points, then mean points (compared exactly);
        // the lot only between teams level on both.
        let key = (
            expected.ranking_points,
            expected.points,
            expected.played.max(1),
        );
        if let Some((rp, points, played)) = previous {
            assert!(
                rp > key.0
                    || (rp == key.0
                        && i128::from(points) * i128::from(key.2)
                            >= i128::from(key.1) * i128::from(played)),
                "{} is out of order: {printed}",
                row["team_name"]
            );
        }
        previous = Some(key);
    }
    // The CSV holds the JSON's rows, in its order, column by column (no
    // team name of this test has a comma).
    let csv = std::fs::read_to_string(&csv_path).unwrap();
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let csv_rows: Vec<Vec<&str>> = lines.map(|line| line.split(',').collect()).collect();
    assert_eq!(csv_rows.len(), rows.len(), "{csv}");
    for (fields, row) in csv_rows.iter().zip(rows) {
        assert_eq!(fields.len(), header.len(), "{csv}");
        for (column, field) in header.iter().zip(fields) {
            let expected = match (*column, &row[*column]) {
                ("group", _) => "1".to_owned(),
                ("through", _) => "3".to_owned(),
                ("mean_points", _) => continue,
                (_, serde_json::Value::String(text)) => format!("\"{text}\""),
                (_, serde_json::Value::Null) => String::new(),
                (_, value) => value.to_string(),
            };
            assert_eq!(*field, expected, "column {column} of {fields:?}");
        }
    }
    // Matchday 1 taken back and published again.
    let taken_back = succeeded(&contest(&dir, store, &["matchday", "unpublish", "1"]));
    assert!(taken_back.contains("no longer published"), "{taken_back}");
    let status = succeeded(&contest(&dir, store, &["status"]));
    assert_eq!(
        status
            .matches("published, 3 encounters, 18 of 18 games done")
            .count(),
        2,
        "{status}"
    );
    refused(
        &contest(&dir, store, &["matchday", "unpublish", "1"]),
        "is not published",
    );
    succeeded(&contest(&dir, store, &["matchday", "publish", "1"]));
    let status = succeeded(&contest(&dir, store, &["status"]));
    assert!(status.contains("3 matchdays"), "{status}");
    assert_eq!(
        status
            .matches("published, 3 encounters, 18 of 18 games done")
            .count(),
        3,
        "{status}"
    );
    drop(accounts);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A worker of the contest (`worker --contest`), not of one season, with
/// `more` options.
fn contest_worker(dir: &Path, store: &str, name: &str, more: &[&str]) -> KillOnDrop {
    let child = SPIELLEITER
        .command(dir)
        .args([
            "worker",
            "--store",
            store,
            "--contest",
            "--worker-name",
            name,
            "--log-dir",
            &format!("log-{name}"),
        ])
        .args(more)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    KillOnDrop(Some(child))
}

/// Two `worker --contest` processes, started before anything is scheduled,
/// play every encounter of two matchdays as the organiser plays them —
/// the second while they wait — each game once; a worker with
/// `--until-idle` then finds nothing and ends; `--contest` with `--name`,
/// and `--until-idle` without `--contest`, are refused.
#[test]
fn contest_workers_play_every_encounter_as_matchdays_come() {
    let dir = tempfile_dir("contest-workers");
    let store = "cup.sqlite";
    succeeded(&contest(
        &dir,
        store,
        &["create", "--game", "blokus_classic_2", "--name", "Cup"],
    ));
    for name in ["Owls", "Foxes", "Bears", "Wolves", "Hawks"] {
        succeeded(&contest(&dir, store, &["team", "add", name]));
        succeeded(&contest(
            &dir,
            store,
            &[
                "version",
                "add",
                name,
                "--player",
                "builtin:random",
                "--activate",
            ],
        ));
    }
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let opened = std::sync::Arc::new(
        runtime
            .block_on(spielleiter_season::open_existing(
                dir.join(store).to_str().unwrap(),
            ))
            .unwrap(),
    );
    let accounts = runtime
        .block_on(ContestStore::open(std::sync::Arc::clone(&opened)))
        .unwrap();
    let _workers = [
        contest_worker(&dir, store, "w1", &[]),
        contest_worker(&dir, store, "w2", &[]),
    ];
    let games_of = |seasons: &BTreeSet<String>| -> Vec<spielleiter_season::GameRow> {
        seasons
            .iter()
            .flat_map(|season| runtime.block_on(opened.games(season)).unwrap())
            .collect()
    };
    for matchday in 1..=2 {
        succeeded(&contest(
            &dir,
            store,
            &["matchday", "create", "--phase", "championship", "--untimed"],
        ));
        succeeded(&contest(
            &dir,
            store,
            &["matchday", "play", &matchday.to_string()],
        ));
        let seasons = runtime.block_on(accounts.encounter_seasons()).unwrap();
        assert_eq!(seasons.len(), 2 * matchday, "{seasons:?}");
        wait_until(
            "the contest's workers to play every game",
            Duration::from_secs(120),
            Duration::from_millis(50),
            || {
                games_of(&seasons)
                    .iter()
                    .all(|g| g.state == GameState::Done)
            },
        );
        let games = games_of(&seasons);
        assert_eq!(games.len(), 12 * matchday);
        for game in &games {
            assert_eq!(game.attempt, 1, "claimed once: {game:?}");
            assert!(game.record.is_some());
        }
    }
    assert!(
        runtime
            .block_on(accounts.seasons_to_play())
            .unwrap()
            .is_empty()
    );
    let idle = succeeded(&SPIELLEITER.run(
        &dir,
        &["worker", "--store", store, "--contest", "--until-idle"],
    ));
    assert!(idle.contains("0 results stored"), "{idle}");
    for bad in [
        &[
            "worker",
            "--store",
            store,
            "--contest",
            "--name",
            "championship-1-g1-e1",
        ][..],
        &["worker", "--store", store, "--until-idle"][..],
    ] {
        let output = SPIELLEITER.run(&dir, bad);
        assert!(!output.status.success(), "{bad:?}");
        let error = String::from_utf8_lossy(&output.stderr);
        assert!(error.contains("--contest"), "{bad:?}: {error}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A matchday whose deadline has passed is frozen and played by a
/// `worker --contest` alone, and published at once by a contest that
/// publishes automatically; with no failed game, `contest matchday retry`
/// and `contest final retry` are refused in one line.
#[test]
fn a_contest_worker_freezes_a_matchday_at_its_deadline_and_publishes_it_when_told_to() {
    let dir = tempfile_dir("deadline");
    let store = "cup.sqlite";
    succeeded(&contest(
        &dir,
        store,
        &[
            "create",
            "--game",
            "blokus_classic_2",
            "--name",
            "Cup",
            "--games-per-encounter",
            "2",
            "--publication",
            "automatic",
        ],
    ));
    for name in ["Owls", "Foxes"] {
        succeeded(&contest(&dir, store, &["team", "add", name]));
    }
    let made = succeeded(&contest(
        &dir,
        store,
        &[
            "matchday",
            "create",
            "--phase",
            "championship",
            "--untimed",
            "--deadline",
            "2020-01-01T00:00:00Z",
        ],
    ));
    assert!(made.contains("worker --store … --contest"), "{made}");
    let planned = succeeded(&contest(&dir, store, &["matchday", "show", "1"]));
    assert!(planned.contains("planned"), "{planned}");
    let worked = succeeded(&SPIELLEITER.run(
        &dir,
        &["worker", "--store", store, "--contest", "--until-idle"],
    ));
    assert!(worked.contains("2 results stored"), "{worked}");
    let shown = succeeded(&contest(&dir, store, &["matchday", "show", "1"]));
    assert!(
        shown.starts_with(
            "matchday 1 of the championship: published, 1 encounter, 2 of 2 games done\n"
        ),
        "{shown}"
    );
    refused(
        &contest(&dir, store, &["matchday", "retry", "1"]),
        "matchday 1 of the championship has no failed game to play again",
    );
    refused(
        &contest(&dir, store, &["matchday", "retry", "2"]),
        "no matchday 2",
    );
    refused(
        &contest(&dir, store, &["final", "retry", "semi"]),
        "the semi-final is not scheduled yet",
    );
    let _ = std::fs::remove_dir_all(&dir);
}
