//! `spielleiter tournament` run as a user runs it: a league of built-in
//! bots and a program that never joins, stopped by a real Ctrl-C (SIGINT to
//! the process) while a game runs, and resumed by the same command.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test.

use std::{
    os::unix::fs::PermissionsExt,
    path::Path,
    process::{Command, Stdio},
    time::{Duration, Instant},
};

const BINARY: &str = env!("CARGO_BIN_EXE_spielleiter");

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
    let mut command = Command::new(BINARY);
    command
        .args([
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
        ])
        .current_dir(dir);
    command
}

#[test]
fn ctrl_c_stops_a_tournament_cleanly_and_the_same_command_resumes_it() {
    let dir = tempfile::tempdir().unwrap();
    let sleeper = dir.path().join("sleeper.sh");
    std::fs::write(&sleeper, "#!/bin/sh\necho \"$$\" >> pids\nexec sleep 60\n").unwrap();
    std::fs::set_permissions(&sleeper, std::fs::Permissions::from_mode(0o755)).unwrap();
    let results = dir.path().join("league.jsonl");

    // The first game (greedy against random) ends; the second is the
    // sleeper's, which waits for it to join (a minute) until Ctrl-C.
    let child = tournament(dir.path(), "60000")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    while !(complete_lines(&results) == 1 && dir.path().join("pids").exists()) {
        assert!(Instant::now() < deadline, "the first game did not end");
        std::thread::sleep(Duration::from_millis(50));
    }
    let interrupted = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(interrupted.success());
    let output = child.wait_with_output().unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr),
    );
    assert_eq!(output.status.code(), Some(1), "{stdout}\n{stderr}");
    assert!(
        stderr.contains("interrupted after 1 of 6 games; run the same command again"),
        "{stderr}"
    );
    // The standings so far were printed and written.
    assert!(stdout.contains("1 games, 0 irregular"), "{stdout}");
    assert_eq!(
        lines(&results).len(),
        1,
        "the abandoned game is not recorded"
    );
    // The sleeper was killed with the abandoned game.
    let pid = std::fs::read_to_string(dir.path().join("pids")).unwrap();
    let stat = std::fs::read_to_string(format!("/proc/{}/stat", pid.trim()));
    assert!(
        stat.is_err()
            || stat
                .unwrap()
                .rsplit(')')
                .next()
                .unwrap()
                .trim_start()
                .starts_with('Z'),
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
        stdout.contains("resuming: 1 games recorded, 5 to play"),
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
    assert!(sleeper_row.ends_with(",0,0,4,0"), "4 crashes: {csv}");
    let json: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(dir.path().join("league-standings.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(json["games"], 6);
    assert_eq!(json["standings"][2]["irregular"]["crashes"], 4);
}
