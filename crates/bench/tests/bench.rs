//! The `spielleiter-bench` binary, run as a user runs it: each game's
//! benchmark with the players in the same process, a sweep with the
//! players in a child process, and the ways a run is refused or ended
//! early (no such bot, nothing to measure, a child process that died).
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test.

use std::{
    io::{BufRead, BufReader},
    process::{Command, Stdio},
    time::{Duration, Instant},
};

use spielleiter_test_support::{Program, stdout, wait_until};

const BENCH: Program = Program::new(env!("CARGO_BIN_EXE_spielleiter-bench"));

/// Runs the benchmark with `args` in a directory of its own; fails unless
/// it succeeds, else returns its standard output.
fn succeeding(args: &[&str]) -> String {
    let dir = tempfile::tempdir().unwrap();
    BENCH.succeeding(dir.path(), args)
}

/// The games the players saw end regularly, from the report's
/// `as the players saw it:` line. At least the games asked for, never
/// exactly: the bench looks every 50 ms while the players go on, so a
/// short game begun in that interval may end in it too.
fn regular_games(text: &str) -> u64 {
    text.lines()
        .find_map(|l| l.strip_prefix("as the players saw it:"))
        .and_then(|rest| rest.split(", ").nth(1))
        .and_then(|part| part.strip_suffix(" regular games"))
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or_else(|| panic!("a line of the players' games: {text}"))
}

#[test]
fn a_2027_bench_reports_cpu_and_memory_with_the_players() {
    let text = succeeding(&[
        "--game",
        "swc_2027_blokus",
        "--games",
        "2",
        "--concurrency",
        "2",
        "--same-process",
    ]);
    assert!(text.contains("of swc_2027_blokus between"), "{text}");
    assert!(regular_games(&text) >= 2, "{text}");
    let cpu = text
        .lines()
        .find_map(|l| l.strip_prefix("server CPU (user+sys):"))
        .expect("a CPU line");
    assert!(
        cpu.contains(" µs per move, ") && cpu.contains(" µs per game, "),
        "{text}"
    );
    assert!(cpu.ends_with(" in all (with the players)"), "{text}");
    let rss = text
        .lines()
        .find_map(|l| l.strip_prefix("server RSS:"))
        .expect("an RSS line");
    assert!(
        rss.contains(" MiB at the end, ") && rss.contains(" MiB peak"),
        "{text}"
    );
}

#[test]
fn a_bench_sweep_prints_one_table() {
    let dir = tempfile::tempdir().unwrap();
    let text = BENCH.succeeding(
        dir.path(),
        &["--sweep", "1,3", "--games", "2", "--bot", "random"],
    );
    // Each run is reported, the players in a child process (not counted);
    // one game is one game.
    assert!(text.contains("bench: 1 concurrent game of"), "{text}");
    assert!(text.contains("bench: 3 concurrent games of"), "{text}");
    assert!(
        text.contains(", 0 web observers, until 2 games or "),
        "{text}"
    );
    assert!(text.contains(" in all (players not counted)"), "{text}");
    // Then one table, a row per concurrency in the order given.
    let table: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.starts_with("concurrency "))
        .collect();
    assert_eq!(table.len(), 3, "{text}");
    for column in [
        "games/min",
        "CPU/move",
        "CPU/game",
        "p99",
        "RSS end",
        "RSS peak",
    ] {
        assert!(table[0].contains(column), "{column}: {text}");
    }
    let concurrencies: Vec<&str> = table[1..]
        .iter()
        .filter_map(|row| row.split_whitespace().next())
        .collect();
    assert_eq!(concurrencies, ["1", "3"], "{text}");
    assert!(table[1].contains(" MiB"), "{text}");
    // A sweep replaces --concurrency.
    let output = BENCH.run(dir.path(), &["--sweep", "1,2", "--concurrency", "4"]);
    assert!(!output.status.success());
    let output = BENCH.run(dir.path(), &["--sweep", "2,0"]);
    assert!(!output.status.success());
}

#[test]
fn ostseeschach_is_benched() {
    let text = succeeding(&[
        "--game",
        "swc_2022_ostseeschach",
        "--concurrency",
        "2",
        "--games",
        "4",
        "--same-process",
    ]);
    assert!(
        text.contains("of swc_2022_ostseeschach between `random` bots"),
        "{text}"
    );
    // At least the 4 games asked for. No upper bound: the bench looks
    // every 50 ms while the players start game after game, and on a quiet
    // machine a random Ostseeschach game takes about 15 ms, so how many
    // more end within one look depends on the machine's speed.
    let complete: u64 = text
        .lines()
        .find_map(|l| l.strip_prefix("complete games:"))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("a complete games line: {text}"));
    assert!(complete >= 4, "{text}");
    assert!(
        text.contains("games lost on time:       0 soft, 0 hard"),
        "{text}"
    );
}

#[test]
fn three_player_classic_blokus_is_benched() {
    let text = succeeding(&[
        "--game",
        "blokus_classic_3",
        "--games",
        "2",
        "--concurrency",
        "2",
        "--same-process",
    ]);
    assert!(regular_games(&text) >= 2, "{text}");
}

#[test]
fn blokus_bcl_is_benched() {
    let text = succeeding(&[
        "--game",
        "blokus_bcl",
        "--games",
        "2",
        "--concurrency",
        "2",
        "--same-process",
    ]);
    assert!(text.contains("of blokus_bcl between"), "{text}");
    assert!(
        text.contains("0 soft and 0 hard timeouts, 0 violations or leaves, 0 client errors"),
        "{text}"
    );
}

#[test]
fn nothing_to_measure_is_refused_in_words() {
    let dir = tempfile::tempdir().unwrap();
    for zero in [["--concurrency", "0"], ["--games", "0"], ["--sweep", "0"]] {
        let output = BENCH.run(dir.path(), &zero);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success(), "{zero:?}");
        assert!(stderr.contains("must be at least 1"), "{stderr}");
        assert!(!stderr.contains("18446744073709551615"), "{stderr}");
    }
    // The help names values as the other commands do.
    let help = stdout(&BENCH.run(dir.path(), &["--help"]));
    for value in ["--concurrency <N>", "--think-ms <MS>", "--games <N>"] {
        assert!(help.contains(value), "{value}: {help}");
    }
}

#[test]
fn a_bot_the_game_lacks_is_refused_before_anything_starts() {
    let dir = tempfile::tempdir().unwrap();
    let started = Instant::now();
    let output = BENCH.run(
        dir.path(),
        &[
            "--game",
            "blokus_classic",
            "--bot",
            "illegal",
            "--games",
            "2",
            "--concurrency",
            "1",
        ],
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success());
    assert!(
        stderr.contains("there is no illegal bot for blokus_classic"),
        "{stderr}"
    );
    // Refused before the run: no header, no games counted.
    assert!(stdout(&output).is_empty(), "{}", stdout(&output));
    assert!(started.elapsed() < Duration::from_secs(30));
}

/// The pids of `pid`'s child processes (Linux).
fn children(pid: u32) -> Vec<u32> {
    std::fs::read_to_string(format!("/proc/{pid}/task/{pid}/children"))
        .unwrap_or_default()
        .split_whitespace()
        .filter_map(|p| p.parse().ok())
        .collect()
}

#[cfg(target_os = "linux")]
#[test]
fn a_dead_players_process_ends_the_run_at_once_with_its_reason() {
    let dir = tempfile::tempdir().unwrap();
    let mut bench = BENCH
        .command(dir.path())
        .args([
            "--games",
            "1000000",
            "--duration-secs",
            "300",
            "--concurrency",
            "1",
            "--think-ms",
            "50",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The header comes before the players start; then wait for them.
    let mut out = BufReader::new(bench.stdout.take().unwrap());
    let mut header = String::new();
    out.read_line(&mut header).unwrap();
    assert!(
        header.starts_with("bench: 1 concurrent game of"),
        "{header}"
    );
    let mut players = None;
    wait_until(
        "the players' process",
        Duration::from_secs(30),
        Duration::from_millis(20),
        || {
            players = children(bench.id()).first().copied();
            players.is_some()
        },
    );
    let players = players.unwrap();
    let killed = Command::new("kill")
        .args(["-KILL", &players.to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let mut status = None;
    wait_until(
        "the run ends without its players",
        Duration::from_secs(20),
        Duration::from_millis(20),
        || {
            status = bench.try_wait().unwrap();
            status.is_some()
        },
    );
    let status = status.unwrap();
    assert!(!status.success());
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut bench.stderr.take().unwrap(), &mut stderr).unwrap();
    assert!(
        stderr.contains("the players' process ended (signal: 9"),
        "{stderr}"
    );
}
