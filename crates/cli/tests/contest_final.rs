//! The final's knockout as an organiser runs it, with real processes, on
//! SQLite and on PostgreSQL (`postgres` in the test's name): four teams of
//! the BLOKUS Champions League game (clock off) play one championship
//! matchday, `contest final create --top 4` seeds the bracket from its
//! places, and the semi-finals, the match for third place and the final
//! are each played by `spielleiter worker` processes, one per encounter's
//! season (two on one of them), while `contest final play ROUND` waits.
//!
//! The tie is certain, not lucky: two teams play the built-in `illegal`
//! bot, which is disqualified in its second move in every game, so
//! whoever moves first loses; they lose their semi-finals to the `greedy`
//! teams and meet for third place, where the first move alternates and
//! every pair of games is split: tied after 6, 8, … up to the cap of 20,
//! then game points, then the lot. (With this seed the final between the
//! two `greedy` teams goes the same way: the same deterministic bot in
//! both seats wins whenever it moves first.) Every round's winners are
//! worked out here from the stored games by the contest's rules and
//! compared with `contest final show --json`.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test.

use std::{
    path::Path,
    process::{Child, Output, Stdio},
    time::{Duration, Instant},
};

use spielleiter_season::{GameState, SeasonStore};
use spielleiter_test_support::{Postgres, Program, succeeded, wait_until};

/// The binary, without settings from the developer's environment.
const SPIELLEITER: Program = Program::new(env!("CARGO_BIN_EXE_spielleiter")).without(&[
    "SPIELLEITER_STORE",
    "SPIELLEITER_ADMIN_PASSPHRASE",
    "RUST_LOG",
]);

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
}

fn tempfile_dir(test: &str) -> std::path::PathBuf {
    let base = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let dir = base.join(format!("contest-final-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A child process, killed when the test ends before it is finished.
struct KillOnDrop(Option<Child>);

impl KillOnDrop {
    /// Waits for it; fails unless it succeeded. Its standard output.
    fn succeeded(mut self) -> String {
        let output = self.0.take().unwrap().wait_with_output().unwrap();
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        String::from_utf8_lossy(&output.stdout).into_owned()
    }
}

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        if let Some(mut child) = self.0.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

fn worker(dir: &Path, store: &str, season: &str, name: &str) -> KillOnDrop {
    let child = SPIELLEITER
        .command(dir)
        .args([
            "worker",
            "--store",
            store,
            "--name",
            season,
            "--worker-name",
            name,
            "--log-dir",
            &format!("log-{name}"),
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    KillOnDrop(Some(child))
}

/// `contest final play ROUND` waiting, as a child.
fn waiting_play(dir: &Path, store: &str, round: &str) -> KillOnDrop {
    let child = SPIELLEITER
        .command(dir)
        .args([
            "contest",
            "final",
            "play",
            round,
            "--untimed",
            "--poll-ms",
            "100",
            "--wait-s",
            "100",
            "--store",
            store,
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    KillOnDrop(Some(child))
}

#[test]
fn a_knockout_of_four_is_played_on_workers_with_a_tie_extended() {
    let dir = tempfile_dir("four");
    let path = dir.join("contest.sqlite");
    knockout(&dir, path.to_str().unwrap());
}

#[test]
fn a_knockout_of_four_is_played_on_workers_with_a_tie_extended_postgres() {
    let dir = tempfile_dir("four-postgres");
    let server = Postgres::shared();
    let database = server.fresh_database();
    knockout(&dir, &server.url(&database));
}

/// An encounter worked out by hand from its stored games.
#[derive(Debug)]
struct Hand {
    games: usize,
    wins: [u32; 2],
    points: [i64; 2],
    /// The winner, or `None` when the lot decides.
    winner: Option<i64>,
}

/// The contest's rules (6 games, then two at a time up to 20, then game
/// points, then the lot) applied to the games of `season` as stored.
fn by_hand(
    runtime: &tokio::runtime::Runtime,
    store: &spielleiter_season::AnyStore,
    season: &str,
    teams: [i64; 2],
) -> Hand {
    let games = runtime.block_on(store.games(season)).unwrap();
    let mut hand = Hand {
        games: games.len(),
        wins: [0; 2],
        points: [0; 2],
        winner: None,
    };
    let mut ended_at = None;
    for (i, game) in games.iter().enumerate() {
        assert_eq!(game.state, GameState::Done, "{season} game {}", i + 1);
        let record = game.record.as_ref().unwrap();
        assert_eq!(game.game.number as usize, i + 1);
        // The first move alternates, home first, extra games included.
        assert_eq!(record.starter, [1, 2][i % 2], "{season} game {}", i + 1);
        match record.win_points[0].cmp(&record.win_points[1]) {
            std::cmp::Ordering::Greater => hand.wins[0] += 1,
            std::cmp::Ordering::Less => hand.wins[1] += 1,
            std::cmp::Ordering::Equal => {}
        }
        hand.points[0] += i64::from(record.points[0]);
        hand.points[1] += i64::from(record.points[1]);
        let played = i + 1;
        let checkpoint = played >= 6 && (played - 6) % 2 == 0;
        if checkpoint && ended_at.is_none() && (hand.wins[0] != hand.wins[1] || played == 20) {
            ended_at = Some(played);
        }
    }
    // No game after the one that decided it.
    assert_eq!(ended_at, Some(hand.games), "{season}: {hand:?}");
    hand.winner = match (
        hand.wins[0].cmp(&hand.wins[1]),
        hand.points[0].cmp(&hand.points[1]),
    ) {
        (std::cmp::Ordering::Greater, _) => Some(teams[0]),
        (std::cmp::Ordering::Less, _) => Some(teams[1]),
        (_, std::cmp::Ordering::Greater) => Some(teams[0]),
        (_, std::cmp::Ordering::Less) => Some(teams[1]),
        _ => None,
    };
    hand
}

fn seasons_of(show: &serde_json::Value, round: &str) -> Vec<String> {
    show["rounds"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["round"] == round)
        .flat_map(|r| r["encounters"].as_array().unwrap().clone())
        .map(|e| e["season"].as_str().unwrap().to_owned())
        .collect()
}

fn show(dir: &Path, store: &str) -> serde_json::Value {
    serde_json::from_str(&succeeded(&contest(
        dir,
        store,
        &["final", "show", "--json"],
    )))
    .unwrap()
}

fn knockout(dir: &Path, store: &str) {
    let started = Instant::now();
    succeeded(&contest(
        dir,
        store,
        &[
            "create",
            "--game",
            "blokus_bcl",
            "--name",
            "Cup",
            "--seed",
            "37",
        ],
    ));
    for (name, bot) in [
        ("Owls", "greedy"),
        ("Foxes", "greedy"),
        ("Bears", "illegal"),
        ("Wolves", "illegal"),
    ] {
        succeeded(&contest(dir, store, &["team", "add", name]));
        succeeded(&contest(
            dir,
            store,
            &[
                "version",
                "add",
                name,
                "--player",
                &format!("builtin:{bot}"),
                "--activate",
            ],
        ));
    }
    refused(
        &contest(dir, store, &["final", "create", "--top", "4"]),
        "a bracket of 4 needs 4 ranked teams; there are 0",
    );
    succeeded(&contest(
        dir,
        store,
        &["matchday", "create", "--phase", "championship", "--untimed"],
    ));
    succeeded(&contest(dir, store, &["matchday", "play", "1"]));
    let workers: Vec<KillOnDrop> = ["championship-1-g1-e1", "championship-1-g1-e2"]
        .iter()
        .map(|season| worker(dir, store, season, season))
        .collect();
    for worker in workers {
        worker.succeeded();
    }
    let standings_path = dir.join("standings.json");
    succeeded(&contest(
        dir,
        store,
        &["standings", "--json", standings_path.to_str().unwrap()],
    ));
    let standings: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&standings_path).unwrap()).unwrap();
    let places: Vec<i64> = standings["groups"][0]["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| row["team"].as_i64().unwrap())
        .collect();
    assert_eq!(places.len(), 4);

    refused(
        &contest(dir, store, &["final", "create", "--top", "8"]),
        "needs 8 ranked teams; there are 4",
    );
    let made = succeeded(&contest(dir, store, &["final", "create", "--top", "4"]));
    assert!(made.contains("its rounds: semi, third, final"), "{made}");
    refused(
        &contest(dir, store, &["final", "create", "--top", "4"]),
        "has a final already",
    );
    refused(
        &contest(dir, store, &["final", "play", "final"]),
        "the final waits for the semi-final",
    );
    refused(
        &contest(dir, store, &["final", "play", "quarter"]),
        "this bracket has no quarter-final",
    );
    let seeds: Vec<i64> = show(dir, store)["seeds"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["team"].as_i64().unwrap())
        .collect();
    assert_eq!(seeds, places, "seeded by the championship's places");

    let runtime = tokio::runtime::Runtime::new().unwrap();
    let opened = runtime.block_on(spielleiter_season::open(store)).unwrap();

    // Semi-finals: scheduled without waiting, played by three workers,
    // waited for by `final play semi` run again.
    succeeded(&contest(
        dir,
        store,
        &["final", "play", "semi", "--untimed", "--no-wait"],
    ));
    let semis = seasons_of(&show(dir, store), "semi");
    assert_eq!(semis.len(), 2);
    let mut workers = vec![worker(dir, store, &semis[0], "s1-a")];
    workers.push(worker(dir, store, &semis[0], "s1-b"));
    workers.push(worker(dir, store, &semis[1], "s2"));
    let waited = succeeded(&contest(
        dir,
        store,
        &[
            "final",
            "play",
            "semi",
            "--poll-ms",
            "100",
            "--wait-s",
            "100",
        ],
    ));
    assert!(waited.contains("scheduled before; waiting on"), "{waited}");
    for worker in workers {
        worker.succeeded();
    }

    // Third place and final: `final play ROUND` schedules and waits while
    // the workers, started once the seasons are there, play them.
    for round in ["third", "final"] {
        let organiser = waiting_play(dir, store, round);
        let mut seasons = Vec::new();
        wait_until(
            "the round's seasons",
            Duration::from_secs(30),
            Duration::from_millis(20),
            || {
                seasons = seasons_of(&show(dir, store), round);
                !seasons.is_empty()
            },
        );
        let workers: Vec<KillOnDrop> = seasons
            .iter()
            .map(|season| worker(dir, store, season, &format!("{round}-{season}")))
            .collect();
        let printed = organiser.succeeded();
        eprintln!("{printed}");
        assert!(printed.contains("frozen and scheduled"), "{printed}");
        for worker in workers {
            worker.succeeded();
        }
    }

    // Every round's winners by hand from the stored games.
    let bracket = show(dir, store);
    let mut winners = std::collections::BTreeMap::new();
    let mut losers = std::collections::BTreeMap::new();
    let mut extended = 0;
    for round in bracket["rounds"].as_array().unwrap() {
        assert_eq!(round["state"], "played", "{round}");
        for encounter in round["encounters"].as_array().unwrap() {
            let teams = [
                encounter["home"].as_i64().unwrap(),
                encounter["away"].as_i64().unwrap(),
            ];
            let season = encounter["season"].as_str().unwrap();
            let hand = by_hand(&runtime, &opened, season, teams);
            eprintln!("{season}: {hand:?}, shown {encounter}");
            assert_eq!(
                encounter["games_scheduled"].as_u64().unwrap(),
                hand.games as u64
            );
            assert_eq!(encounter["wins"], serde_json::json!(hand.wins));
            let winner = encounter["winner"].as_i64().unwrap();
            match hand.winner {
                Some(expected) => assert_eq!(winner, expected, "{season}"),
                None => {
                    assert_eq!(encounter["decided_by"], "lot", "{season}");
                    assert!(teams.contains(&winner));
                }
            }
            if hand.games > 6 {
                extended += 1;
                assert_eq!(encounter["extended"], true);
            }
            let loser = if winner == teams[0] {
                teams[1]
            } else {
                teams[0]
            };
            let key = (
                round["round"].as_str().unwrap().to_owned(),
                encounter["slot"].as_u64().unwrap(),
            );
            winners.insert(key.clone(), winner);
            losers.insert(key, loser);
        }
    }
    assert!(extended >= 1, "no encounter was extended");
    let semi = |map: &std::collections::BTreeMap<(String, u64), i64>, slot| {
        map[&("semi".to_owned(), slot)]
    };
    // Semi-finals 1–4 and 2–3; third place between their losers, the
    // final between their winners, the better seed home.
    let pair = |round: &str| {
        let e = &bracket["rounds"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["round"] == round)
            .unwrap()["encounters"];
        (0..e.as_array().unwrap().len())
            .map(|i| {
                (
                    e[i]["home"].as_i64().unwrap(),
                    e[i]["away"].as_i64().unwrap(),
                )
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(pair("semi"), [(seeds[0], seeds[3]), (seeds[1], seeds[2])]);
    let ordered = |a: i64, b: i64| {
        let seed = |t| seeds.iter().position(|&s| s == t).unwrap();
        if seed(a) < seed(b) { (a, b) } else { (b, a) }
    };
    assert_eq!(pair("third"), [ordered(semi(&losers, 1), semi(&losers, 2))]);
    assert_eq!(
        pair("final"),
        [ordered(semi(&winners, 1), semi(&winners, 2))]
    );
    let placings: Vec<i64> = bracket["placings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["team"].as_i64().unwrap())
        .collect();
    assert_eq!(
        placings,
        [
            winners[&("final".to_owned(), 1)],
            losers[&("final".to_owned(), 1)],
            winners[&("third".to_owned(), 1)],
            losers[&("third".to_owned(), 1)],
        ]
    );

    // Publication.
    succeeded(&contest(dir, store, &["final", "publish", "semi"]));
    refused(
        &contest(dir, store, &["final", "publish", "semi"]),
        "published already",
    );
    succeeded(&contest(dir, store, &["final", "unpublish", "semi"]));
    let text = succeeded(&contest(dir, store, &["final", "show"]));
    assert!(text.contains("placings: 1."), "{text}");
    eprintln!("knockout played in {:?}", started.elapsed());
    let _ = std::fs::remove_dir_all(dir);
}
