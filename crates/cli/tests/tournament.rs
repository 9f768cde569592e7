//! `spielleiter tournament` and `match` run as a user runs them: a league
//! of built-in bots and a program that never joins, stopped by a real Ctrl-C (SIGINT to
//! the process) while a game runs, and resumed by the same command; a
//! BLOKUS Champions League of four built-in bots, one disqualified in every
//! game, killed (SIGKILL) mid-way and resumed to the standings of an
//! uninterrupted run; a sandboxed player checked before the first game. A
//! match stopped by Ctrl-C likewise and resumed by the same command, which
//! fails because a player joined none of its games.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test.

use std::{
    path::Path,
    process::{Command, Stdio},
    time::Duration,
};

use spielleiter_test_support::{Program, script, succeeded, wait_until};

const BINARY: &str = env!("CARGO_BIN_EXE_spielleiter");
const SPIELLEITER: Program = Program::new(BINARY);

fn lines(path: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

/// How many complete lines the results file has (a line being written is
/// not one yet).
fn complete_lines(path: &Path) -> usize {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .matches('\n')
        .count()
}

/// The same command both times; only the join limit differs (it is no
/// part of what makes the tournament the same).
fn tournament(dir: &Path, connect_timeout_ms: &str) -> Command {
    let mut command = SPIELLEITER.command(dir);
    command.args([
        "tournament",
        "--game",
        "swc_2022_ostseeschach",
        "--player",
        "greedy=builtin:greedy",
        "--player",
        "random=builtin:random",
        "--player",
        "sleeper=./sleeper.sh --slowly",
        "--seed",
        "5",
        "--results",
        "league.jsonl",
        "--connect-timeout-ms",
        connect_timeout_ms,
    ]);
    command
}

/// Starts `command`, waits until `ready` (the first game ended and the
/// next waits) and stops it with a real Ctrl-C (SIGINT to the process);
/// checks that it ended with status 130, as a shell reports a command
/// ended by Ctrl-C, saying it was interrupted after `done` ("1 of 6")
/// games; returns its standard output.
fn interrupted_once(mut command: Command, done: &str, ready: impl FnMut() -> bool) -> String {
    let child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    wait_until(
        "the first game ended",
        Duration::from_secs(60),
        Duration::from_millis(50),
        ready,
    );
    let interrupted = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(interrupted.success());
    let output = child.wait_with_output().unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr),
    );
    assert_eq!(output.status.code(), Some(130), "{stdout}\n{stderr}");
    assert!(
        stderr.contains(&format!(
            "interrupted after {done} games; run the same command again"
        )),
        "{stderr}"
    );
    stdout
}

/// Whether the process whose pid `pids` names still runs (a zombie, ended
/// but not yet reaped, does not).
fn still_runs(pids: &Path) -> bool {
    let pid = std::fs::read_to_string(pids).unwrap();
    match std::fs::read_to_string(format!("/proc/{}/stat", pid.trim())) {
        Ok(stat) => !stat
            .rsplit(')')
            .next()
            .unwrap()
            .trim_start()
            .starts_with('Z'),
        Err(_) => false,
    }
}

#[test]
fn ctrl_c_stops_a_tournament_cleanly_and_the_same_command_resumes_it() {
    let dir = tempfile::tempdir().unwrap();
    script(
        dir.path(),
        "sleeper.sh",
        "echo \"$$\" >> pids\nexec sleep 60",
    );
    let results = dir.path().join("league.jsonl");

    // The first game (greedy against random) ends; the second is the
    // sleeper's, which waits for it to join (a minute) until Ctrl-C.
    let stdout = interrupted_once(tournament(dir.path(), "60000"), "1 of 6", || {
        complete_lines(&results) == 1 && dir.path().join("pids").exists()
    });
    // The standings so far were printed and written.
    assert!(stdout.contains("1 game, 0 irregular"), "{stdout}");
    assert_eq!(
        lines(&results).len(),
        1,
        "the abandoned game is not recorded"
    );
    // The sleeper was killed with the abandoned game.
    assert!(
        !still_runs(&dir.path().join("pids")),
        "the sleeper still runs"
    );

    // The same command (with a short join limit) plays the five games left.
    let output = tournament(dir.path(), "300").output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        stdout.contains("resuming: 1 game recorded, 5 to play"),
        "{stdout}"
    );
    let rows = lines(&results);
    assert_eq!(rows.len(), 6);
    let mut games: Vec<(String, u64)> = rows
        .iter()
        .map(|r| (r["players"].to_string(), r["game"].as_u64().unwrap()))
        .collect();
    games.sort();
    games.dedup();
    assert_eq!(games.len(), 6, "every game once: {games:?}");
    // The standings, best first, each row starting with the name; the
    // sleeper never connected (4 games) and is last.
    let table: Vec<&str> = stdout
        .lines()
        .skip_while(|l| !l.starts_with("player "))
        .skip(1)
        .take_while(|l| !l.is_empty() && !l.starts_with("Results: "))
        .collect();
    assert_eq!(table.len(), 3, "{stdout}");
    assert!(table[2].starts_with("sleeper "), "{stdout}");
    let csv = std::fs::read_to_string(dir.path().join("league-standings.csv")).unwrap();
    let sleeper_row = csv.lines().nth(3).unwrap();
    assert!(sleeper_row.starts_with("sleeper,3,4,0,0,4,0,"), "{csv}");
    // Four crashes, and no think time: it never moved.
    assert!(sleeper_row.ends_with(",0,0,4,0,,"), "4 crashes: {csv}");
    let json: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(dir.path().join("league-standings.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(json["games"], 6);
    assert_eq!(json["standings"][2]["irregular"]["crashes"], 4);
}

/// A league of the BLOKUS Champions League game between four built-in
/// bots, one of which places illegally on purpose, in `dir`.
fn bcl_league(dir: &Path) -> Command {
    let mut command = SPIELLEITER.command(dir);
    command
        .args([
            "tournament",
            "--game",
            "blokus_bcl",
            "--player",
            "greedy=builtin:greedy",
            "--player",
            "random=builtin:random",
            "--player",
            "cheat=builtin:illegal",
            "--player",
            "random2=builtin:random",
            "--seed",
            "7",
            "--parallel",
            "2",
            "--results",
            "bcl.jsonl",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    command
}

/// The standings CSV without its last two columns, the think times, which
/// differ from run to run.
fn without_think_times(csv: &str) -> String {
    csv.lines()
        .map(|line| {
            let cells: Vec<&str> = line.split(',').collect();
            cells[..cells.len().saturating_sub(2)].join(",") + "\n"
        })
        .collect()
}

#[test]
fn a_bcl_league_disqualifies_the_illegal_bot_and_resumes_after_a_kill() {
    // Uninterrupted.
    let whole = tempfile::tempdir().unwrap();
    let stdout = succeeded(&bcl_league(whole.path()).output().unwrap());
    // Six pairs, three games each (the league's default), seats alternating.
    assert!(
        stdout.contains("blokus_bcl tournament: 4 players, 6 tables of 2, 3 games each"),
        "{stdout}"
    );
    assert!(
        stdout.contains("18 games, 9 irregular; ranked by win rate"),
        "{stdout}"
    );
    let rows = lines(&whole.path().join("bcl.jsonl"));
    assert_eq!(rows.len(), 18);
    for row in &rows {
        let players: Vec<&str> = row["players"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p.as_str().unwrap())
            .collect();
        let Some(cheat) = players.iter().position(|p| *p == "cheat") else {
            assert_eq!(
                row["causes"],
                serde_json::json!(["REGULAR", "REGULAR"]),
                "{row}"
            );
            continue;
        };
        // Disqualified by the seed's rules, the reason naming its code.
        assert_eq!(row["causes"][cheat], "RULE_VIOLATION", "{row}");
        assert_eq!(row["causes"][1 - cheat], "REGULAR", "{row}");
        assert_eq!(row["win_points"][cheat], 0, "{row}");
        assert_eq!(row["win_points"][1 - cheat], 2, "{row}");
        let reason = row["reasons"][cheat].as_str().unwrap();
        assert!(
            ["OVERLAP", "OUT_OF_STAGE", "CORNER", "corner"]
                .iter()
                .any(|code| reason.contains(code)),
            "{reason}"
        );
    }
    // The cheat is last: 9 games, 9 losses, 9 violations, rate 0.
    let csv = std::fs::read_to_string(whole.path().join("bcl-standings.csv")).unwrap();
    let table: Vec<&str> = csv.lines().collect();
    assert_eq!(table.len(), 5, "{csv}");
    assert!(table[4].starts_with("cheat,4,9,0,0,9,0,0.0000,"), "{csv}");
    let header: Vec<&str> = table[0].split(',').collect();
    assert_eq!(
        header[header.len() - 2..],
        ["think_mean_ms", "think_max_ms"]
    );
    assert!(
        without_think_times(table[4]).ends_with(",0,9,0,0\n"),
        "{csv}"
    );
    // The fair players' think times, from the replays the server wrote:
    // the mean at most the longest.
    for row in &table[1..4] {
        let cells: Vec<&str> = row.split(',').collect();
        let mean: f64 = cells[cells.len() - 2].parse().unwrap();
        let max: f64 = cells[cells.len() - 1].parse().unwrap();
        assert!(mean >= 0.0 && mean <= max && max > 0.0, "{csv}");
    }
    for row in &rows {
        let think = row["think_times"].as_array().unwrap();
        assert_eq!(think.len(), 2, "{row}");
        assert!(
            think.iter().any(|t| t["moves"].as_u64().unwrap() > 0),
            "{row}"
        );
    }
    assert!(stdout.contains("think ms (mean/max)"), "{stdout}");
    for row in &table[1..4] {
        // Nine games each, three of them won against the cheat.
        let cells: Vec<&str> = row.split(',').collect();
        assert_eq!(cells[2], "9", "{csv}");
        assert!(cells[3].parse::<u32>().unwrap() >= 3, "{csv}");
    }
    let printed: Vec<&str> = stdout
        .lines()
        .skip_while(|l| !l.starts_with("player "))
        .skip(1)
        .take(4)
        .collect();
    assert!(printed[3].starts_with("cheat "), "{stdout}");

    // Killed (SIGKILL: no chance to clean up) once a game is recorded,
    // then the same command again.
    let killed = tempfile::tempdir().unwrap();
    let results = killed.path().join("bcl.jsonl");
    let mut child = bcl_league(killed.path()).spawn().unwrap();
    wait_until(
        "a game ended",
        Duration::from_secs(60),
        Duration::from_millis(5),
        || complete_lines(&results) > 0,
    );
    child.kill().unwrap();
    child.wait().unwrap();
    let recorded = complete_lines(&results);
    eprintln!("killed after {recorded} of 18 games");
    assert!(recorded < 18, "killed mid-way, not at the end");
    let stdout = succeeded(&bcl_league(killed.path()).output().unwrap());
    // The store records a game before the results file gets its line, so
    // a kill between the two leaves the store one or more games ahead of
    // the lines read above: the resume counts from the store.
    let (stored, to_play) = stdout
        .lines()
        .find_map(|l| l.strip_prefix("resuming: "))
        .and_then(|rest| {
            let (stored, rest) = rest.split_once(' ')?;
            let to_play = rest.split_once(" recorded, ")?.1.strip_suffix(" to play")?;
            Some((
                stored.parse::<usize>().ok()?,
                to_play.parse::<usize>().ok()?,
            ))
        })
        .unwrap_or_else(|| panic!("a resuming line: {stdout}"));
    assert!(
        (recorded..18).contains(&stored) && stored + to_play == 18,
        "{stdout}"
    );
    assert!(
        stdout.contains(&format!(
            "resuming: {stored} {} recorded",
            if stored == 1 { "game" } else { "games" }
        )),
        "{stdout}"
    );
    assert_eq!(lines(&results).len(), 18);
    let resumed = std::fs::read_to_string(killed.path().join("bcl-standings.csv")).unwrap();
    assert_eq!(
        without_think_times(&resumed),
        without_think_times(&csv),
        "the same final standings"
    );
}

/// A sandboxed player is checked before the first game, as `match` checks
/// it: without Docker (or without its image) the tournament refuses to
/// begin in one line instead of recording every game of the player as a
/// crash.
#[test]
fn a_tournament_of_a_docker_player_checks_docker_before_the_first_game() {
    let dir = tempfile::tempdir().unwrap();
    let output = SPIELLEITER.run(
        dir.path(),
        &[
            "tournament",
            "--game",
            "blokus_bcl",
            "--player",
            "boxed=docker:spielleiter-test-no-such-image",
            "--player",
            "random=builtin:random",
        ],
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    // Where Docker runs, its image is missing; elsewhere Docker is.
    assert!(
        stderr.contains("players need Docker, which does not answer here")
            || stderr.contains("docker:spielleiter-test-no-such-image: no such image"),
        "{stderr}"
    );
    assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
    let results = dir.path().join("tournament-results.jsonl");
    assert!(lines(&results).is_empty(), "no game was played");
}

/// The same match both times; only the join limit differs (it is no part
/// of what makes the match the same).
fn a_match(dir: &Path, connect_timeout_ms: &str) -> Command {
    let mut command = SPIELLEITER.command(dir);
    command.args([
        "match",
        "--start-server",
        "--game",
        "swc_2022_ostseeschach",
        "--player1",
        "builtin:greedy",
        "--player2",
        "./once.sh",
        "--name2",
        "once",
        "--seed",
        "5",
        "-t",
        "3",
        "--connect-timeout-ms",
        connect_timeout_ms,
    ]);
    command
}

#[test]
fn ctrl_c_stops_a_match_cleanly_and_the_same_command_plays_the_missing_games() {
    let dir = tempfile::tempdir().unwrap();
    // Player 2 plays its first game; every later one it never joins.
    script(
        dir.path(),
        "once.sh",
        &format!(
            "if [ -e played ]; then echo \"$$\" >> pids; exec sleep 60; fi\n\
             touch played\nexec {BINARY} play --bot random \"$@\""
        ),
    );
    let results = dir.path().join("match-results.jsonl");

    let stdout = interrupted_once(a_match(dir.path(), "60000"), "1 of 3", || {
        complete_lines(&results) == 1 && dir.path().join("pids").exists()
    });
    assert!(stdout.contains("1 game, 0 irregular"), "{stdout}");
    assert!(stdout.contains("Results: match-results.jsonl"), "{stdout}");
    let rows = lines(&results);
    assert_eq!(rows.len(), 1, "the abandoned game is not recorded");
    assert_eq!(rows[0]["game"], 1);
    // The sleeping player was killed with the abandoned game.
    assert!(
        !still_runs(&dir.path().join("pids")),
        "the sleeper still runs"
    );

    // The same command (with a short join limit) plays the two games left;
    // player 2 joins neither, so the run fails with status 1 and says why.
    let output = a_match(dir.path(), "300").output().unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr),
    );
    assert_eq!(output.status.code(), Some(1), "{stdout}\n{stderr}");
    assert!(
        stdout.contains("resuming: 1 game recorded, 2 to play"),
        "{stdout}"
    );
    assert!(stdout.contains("3 games, 2 irregular"), "{stdout}");
    assert!(
        stderr.contains("every game of once this run ended before it joined"),
        "{stderr}"
    );
    let rows = lines(&results);
    let mut games: Vec<u64> = rows.iter().map(|r| r["game"].as_u64().unwrap()).collect();
    games.sort_unstable();
    assert_eq!(games, [1, 2, 3], "every game once");
    for row in &rows[1..] {
        assert_eq!(
            row["causes"],
            serde_json::json!(["REGULAR", "NO_CONNECTION"]),
            "{row}"
        );
    }
}
