//! The `spielleiter` binary's tools, run as a user runs them: `demo` and
//! the pictures of its replay (`render`, `replay show`), `play` against a
//! server, `match` with the binary itself as a player program, and
//! `health`.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test.

use std::{
    path::{Path, PathBuf},
    process::{Command, Output},
    sync::Arc,
    time::Duration,
};

use spielleiter_arena::{LocalServer, LocalServerSettings};
use spielleiter_server::{Config, config::HttpPublic, limits::AuthBackoff, stats::ServerStats};
use spielleiter_test_support::{Program, script, stdout, succeeded};
use spielleiter_web::{Access, EmbeddedWeb, WebLimits, WebSettings};

const SPIELLEITER: Program = Program::new(env!("CARGO_BIN_EXE_spielleiter"));
const BINARY: &str = SPIELLEITER.path();

/// The replay path a `demo` printed (its `Replay: ` line).
fn replay_line(text: &str) -> String {
    text.lines()
        .find_map(|l| l.strip_prefix("Replay: "))
        .expect("a replay line")
        .to_owned()
}

#[test]
fn demo_plays_a_game_and_prints_board_result_and_replay() {
    let dir = tempfile::tempdir().unwrap();
    // Paced as by default, without the pauses: each position as it comes.
    let output = SPIELLEITER.run(
        dir.path(),
        &[
            "demo",
            "--seed",
            "4",
            "--pace-ms",
            "0",
            "--replay-dir",
            "out",
        ],
    );
    let text = succeeded(&output);
    assert!(text.contains("greedy (team ONE: BLUE, RED): "), "{text}");
    assert!(
        text.contains("random (team TWO: YELLOW, GREEN): "),
        "{text}"
    );
    assert!(
        ["Winner: ", "Draw.", "No winner."]
            .iter()
            .any(|w| text.contains(w)),
        "{text}"
    );
    assert!(text.contains("   01234567890123456789\n"), "{text}");
    // The live page's address, then every position as it came, ending
    // with the last.
    assert!(
        text.lines()
            .nth(1)
            .is_some_and(|l| l.starts_with("Live page: http://127.0.0.1:") && l.contains("/rooms/")),
        "{text}"
    );
    let positions: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("position "))
        .collect();
    assert!(positions.len() > 20, "{text}");
    assert!(
        positions[0].starts_with("position   0 (turn 0): greedy 0 : random 0"),
        "{text}"
    );
    for (index, line) in positions.iter().enumerate() {
        assert!(line.starts_with(&format!("position {index:>3} ")), "{line}");
    }
    assert!(
        positions.last().is_some_and(|l| l.ends_with(", over")),
        "{text}"
    );
    // The final board is the last position, the one the result scores (a
    // player of the paused room never gets it).
    let points_after = |prefix: &str| {
        text.lines()
            .find_map(|l| l.trim_start().strip_prefix(prefix))
            .and_then(|rest| rest.split(' ').next())
            .unwrap_or_else(|| panic!("no line {prefix:?}:\n{text}"))
            .to_owned()
    };
    assert_eq!(
        points_after("greedy (BLUE, RED): "),
        points_after("greedy (team ONE: BLUE, RED): "),
        "{text}"
    );
    assert_eq!(
        points_after("random (YELLOW, GREEN): "),
        points_after("random (team TWO: YELLOW, GREEN): "),
        "{text}"
    );
    let replay = replay_line(&text);
    let replay = replay.as_str();
    assert!(Path::new(replay).is_file(), "{replay}");
    assert!(Path::new(replay).starts_with(dir.path().join("out")));

    // The replay's pictures: one position as SVG and PNG, and every move in
    // the terminal.
    let svg = SPIELLEITER.run(
        dir.path(),
        &["render", replay, "--turn", "8", "-o", "eight.svg"],
    );
    assert!(svg.status.success(), "{svg:?}");
    let eight = std::fs::read_to_string(dir.path().join("eight.svg")).unwrap();
    assert!(eight.starts_with("<svg"), "{eight}");
    assert!(eight.contains(r#"data-turn="8""#), "{eight}");
    assert!(eight.contains("greedy") && eight.contains("random"));
    let png = SPIELLEITER.run(
        dir.path(),
        &["render", replay, "-o", "last.png", "--scale", "0.5"],
    );
    assert!(png.status.success(), "{png:?}");
    let last = std::fs::read(dir.path().join("last.png")).unwrap();
    assert!(last.starts_with(b"\x89PNG\r\n\x1a\n"));
    let wrong = SPIELLEITER.run(dir.path(), &["render", replay, "-o", "board.gif"]);
    assert!(!wrong.status.success());
    let beyond = SPIELLEITER.run(
        dir.path(),
        &["render", replay, "--turn", "999", "-o", "x.svg"],
    );
    assert!(String::from_utf8_lossy(&beyond.stderr).contains("the replay ends at turn"));

    let shown = SPIELLEITER.run(dir.path(), &["replay", "show", replay, "--color", "never"]);
    assert!(shown.status.success(), "{shown:?}");
    let shown = stdout(&shown);
    let positions = shown.matches("Blokus 2027 · turn ").count();
    assert!(positions > 20, "{shown}");
    assert_eq!(
        shown.matches("last move: ").count(),
        positions - 1,
        "{shown}"
    );
    assert!(!shown.contains('\x1b'), "no colours: {shown}");
    assert!(
        shown.contains("Winner: ") || shown.contains("Draw."),
        "{shown}"
    );
    let one = SPIELLEITER.run(
        dir.path(),
        &["replay", "show", replay, "--turn", "8", "--color", "always"],
    );
    let one = stdout(&one);
    assert_eq!(one.matches("Blokus 2027 · turn ").count(), 1, "{one}");
    assert!(one.contains("\x1b["), "colours: {one}");
}

#[test]
fn perft_demo_and_match_take_the_game() {
    let dir = tempfile::tempdir().unwrap();
    let success = |args: &[&str]| SPIELLEITER.succeeding(dir.path(), args);
    // 2027: PENTO_X on the border (the rules' perft data).
    let text = success(&[
        "perft",
        "--game",
        "swc_2027_blokus",
        "--start-piece",
        "PENTO_X",
        "--depth",
        "2",
    ]);
    assert!(text.contains("\nperft 1 68 ("), "{text}");
    assert!(text.contains("\nperft 2 4284 ("), "{text}");
    for game in ["swc_2021_blokus", "swc_2027_blokus"] {
        let out = format!("out-{game}");
        let text = success(&[
            "demo",
            "--fast",
            "--game",
            game,
            "--seed",
            "4",
            "--replay-dir",
            &out,
        ]);
        assert!(text.contains("greedy (team ONE: BLUE, RED): "), "{text}");
        assert!(
            text.contains("every colour's first piece is the "),
            "{text}"
        );
    }
    // The default game is 2027's; a match of 2021 says so.
    let text = success(&[
        "match",
        "--start-server",
        "--game",
        "swc_2021_blokus",
        "--player1",
        "builtin:greedy",
        "--player2",
        "builtin:random",
        "-t",
        "2",
        "--results",
        "2021.jsonl",
    ]);
    assert!(text.contains("2 games, 0 irregular"), "{text}");
}

/// A server in this process on a free loopback port.
fn start_server(runtime: &tokio::runtime::Runtime, replay_dir: Option<PathBuf>) -> LocalServer {
    runtime
        .block_on(LocalServer::start(LocalServerSettings {
            port: 0,
            replay_dir,
            seed: Some(1),
            // The tests administer it from other processes.
            admin_over_tcp: true,
            ..LocalServerSettings::default()
        }))
        .unwrap()
}

/// Two `play` processes (`greedy` and seeded `random`, with `game_args`)
/// join a server started here; returns what each printed, after checking
/// that both ended well and played one team each.
fn play_pair(game_args: &[&str]) -> (String, String) {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let server = start_server(&runtime, Some(dir.path().join("replays")));
    let port = server.addr().port().to_string();
    // The first `join` opens a room, the second fills it; the long options
    // and the contest's short ones (`-h`, `-p`) both work.
    let mut one = Command::new(BINARY)
        .args(["play", "--bot", "greedy", "-h", "127.0.0.1", "-p", &port])
        .args(game_args)
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let two = Command::new(BINARY)
        .args([
            "play",
            "--bot",
            "random",
            "--seed",
            "2",
            "--host",
            "127.0.0.1",
            "--port",
            &port,
        ])
        .args(game_args)
        .output()
        .unwrap();
    let mut first = String::new();
    std::io::Read::read_to_string(one.stdout.as_mut().unwrap(), &mut first).unwrap();
    assert!(one.wait().unwrap().success(), "{first}");
    let second = stdout(&two);
    assert!(two.status.success(), "{second}");
    // Whichever joined first plays team ONE.
    let teams: Vec<bool> = [&first, &second]
        .iter()
        .map(|text| text.contains("played team ONE"))
        .collect();
    assert!(
        teams[0] != teams[1],
        "one player per team:\n{first}\n{second}"
    );
    runtime.block_on(server.stop());
    (first, second)
}

/// The lines of a `play` output that contain `word` (the result's lines).
fn lines_with<'a>(text: &'a str, word: &str) -> Vec<&'a str> {
    text.lines().filter(|l| l.contains(word)).collect()
}

#[test]
fn two_play_processes_complete_a_game_on_a_server() {
    let (first, second) = play_pair(&[]);
    for text in [&first, &second] {
        assert!(text.contains("team ONE (BLUE, RED): "), "{text}");
        assert!(text.contains(", REGULAR\n"), "{text}");
    }
    assert_eq!(
        lines_with(&first, "points"),
        lines_with(&second, "points"),
        "both saw the same result"
    );
}

#[test]
fn two_play_processes_complete_an_ostseeschach_game() {
    let (first, second) = play_pair(&["--game", "swc_2022_ostseeschach"]);
    for text in [&first, &second] {
        assert!(text.contains("team ONE (red, from x = 0): "), "{text}");
        assert!(text.contains(", light piece ahead: "), "{text}");
        assert!(text.contains(", REGULAR\n"), "{text}");
    }
    assert_eq!(
        lines_with(&first, "light piece ahead"),
        lines_with(&second, "light piece ahead"),
        "both saw the same result"
    );
}

#[test]
fn demo_plays_ostseeschach() {
    let dir = tempfile::tempdir().unwrap();
    let output = SPIELLEITER.run(
        dir.path(),
        &[
            "demo",
            "--fast",
            "--game",
            "swc_2022_ostseeschach",
            "--seed",
            "4",
            "--replay-dir",
            "out",
        ],
    );
    let text = succeeded(&output);
    assert!(
        text.contains("greedy (team ONE: red, from x = 0): "),
        "{text}"
    );
    assert!(text.contains("    0  1  2  3  4  5  6  7\n"), "{text}");
    assert!(text.contains(", light piece ahead: "), "{text}");
    assert!(
        ["Winner: ", "Draw.", "No winner."]
            .iter()
            .any(|w| text.contains(w)),
        "{text}"
    );
    let replay = replay_line(&text);
    let replay = replay.as_str();
    assert!(replay.contains("swc_2022_ostseeschach"), "{replay}");
    assert!(Path::new(replay).is_file(), "{replay}");
}

#[test]
fn match_plays_ostseeschach() {
    let dir = tempfile::tempdir().unwrap();
    let output = SPIELLEITER.run(
        dir.path(),
        &[
            "match",
            "--start-server",
            "--game",
            "swc_2022_ostseeschach",
            "--player1",
            "builtin:greedy",
            "--player2",
            "builtin:random",
            "--seed",
            "3",
            "--tests",
            "2",
        ],
    );
    let text = stdout(&output);
    assert!(output.status.success(), "{text}");
    assert!(text.contains("2 games, 0 irregular"), "{text}");
    let rows = result_rows(&dir.path().join("match-results.jsonl"));
    assert_eq!(rows.len(), 2);
    for row in &rows {
        assert_eq!(row["causes"], serde_json::json!(["REGULAR", "REGULAR"]));
    }
}

/// `spielleiter perft --game swc_2022_ostseeschach` with `args`.
fn ostseeschach_perft(dir: &Path, args: &[&str]) -> Output {
    SPIELLEITER.run(
        dir,
        &[&["perft", "--game", "swc_2022_ostseeschach"], args].concat(),
    )
}

/// The counts of the `perft N COUNT (…)` lines.
fn perft_counts(text: &str) -> Vec<(u32, u64)> {
    text.lines()
        .filter_map(|line| {
            let mut words = line.strip_prefix("perft ")?.split(' ');
            Some((words.next()?.parse().ok()?, words.next()?.parse().ok()?))
        })
        .collect()
}

#[test]
fn perft_counts_ostseeschach_from_a_start_line_and_a_move_file() {
    let dir = tempfile::tempdir().unwrap();
    // The counts of the rules crate's perft file (`opening-hmsrhmsr`,
    // `towers-turn-19`), which a reference implementation confirms.
    let output = ostseeschach_perft(
        dir.path(),
        &["--start-line", "HMSRHMSR", "--depth", "3", "--by-kind"],
    );
    let text = stdout(&output);
    assert!(output.status.success(), "{text}");
    assert!(
        text.starts_with("start line HMSRHMSR, turn 0, ONE to move, ambers 0:0\n"),
        "{text}"
    );
    assert_eq!(perft_counts(&text), [(1, 17), (2, 289), (3, 4879)]);
    assert!(
        text.ends_with("Herzmuschel 3\nMoewe 2\nSeestern 6\nRobbe 6\n"),
        "{text}"
    );

    std::fs::write(
        dir.path().join("towers.txt"),
        "# a random game, TWO to move, three towers\n\
         0,1-1,3 7,7-6,5 1,3-2,5 6,5-4,6 0,0-2,1 4,6-2,7 2,5-3,7 2,7-0,6 2,1-4,0 7,4-6,5\n\
         0,4-1,5 6,5-5,6 0,5-0,4 5,6-4,6 1,5-2,6 7,0-6,1 0,3-1,2 4,6-3,7 4,0-6,1 # turn 19\n",
    )
    .unwrap();
    let output = ostseeschach_perft(
        dir.path(),
        &[
            "--start-line",
            "RRMSHMSH",
            "--moves",
            "towers.txt",
            "--depth",
            "3",
        ],
    );
    let text = stdout(&output);
    assert!(output.status.success(), "{text}");
    assert!(
        text.starts_with("start line RRMSHMSH, turn 19, TWO to move"),
        "{text}"
    );
    assert_eq!(perft_counts(&text), [(1, 17), (2, 283), (3, 5041)]);

    // A finished game ends a line: five moves before the end of round 30
    // (the perft file's `round-limit-turn-55`) the fifth ply still counts,
    // the sixth has nothing to count.
    let perft_file = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../rules/tests/data/ostseeschach/ostseeschach.perft"),
    )
    .unwrap();
    let block = perft_file
        .split("\n\n")
        .find(|block| block.starts_with("id round-limit-turn-55\n"))
        .expect("the perft file has the block");
    let moves: Vec<&str> = block
        .lines()
        .filter_map(|line| line.strip_prefix("moves "))
        .collect();
    std::fs::write(dir.path().join("late.txt"), moves.join("\n")).unwrap();
    let output = ostseeschach_perft(
        dir.path(),
        &[
            "--start-line",
            "MHMSRSRH",
            "--moves",
            "late.txt",
            "--depth",
            "6",
        ],
    );
    let text = stdout(&output);
    assert!(output.status.success(), "{text}");
    assert!(
        text.starts_with("start line MHMSRSRH, turn 55, TWO to move"),
        "{text}"
    );
    assert_eq!(
        perft_counts(&text),
        [
            (1, 16),
            (2, 336),
            (3, 4991),
            (4, 99406),
            (5, 1_423_477),
            (6, 0)
        ]
    );

    // Errors name the problem: a bad start line, an illegal move by line.
    let output = ostseeschach_perft(dir.path(), &["--start-line", "HMSRHMSX", "--depth", "1"]);
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("`X` is no piece letter"));
    std::fs::write(dir.path().join("bad.txt"), "0,1-1,3\n7,7-7,5\n").unwrap();
    let output = ostseeschach_perft(
        dir.path(),
        &[
            "--start-line",
            "RRMSHMSH",
            "--moves",
            "bad.txt",
            "--depth",
            "1",
        ],
    );
    assert!(!output.status.success());
    let error = String::from_utf8_lossy(&output.stderr);
    assert!(
        error.contains("line 2: `7,7-7,5` is illegal at turn 1: the piece cannot move that way (INVALID_MOVEMENT)"),
        "{error}"
    );
    let output = ostseeschach_perft(dir.path(), &["--start-piece", "PENTO_L", "--depth", "1"]);
    assert!(!output.status.success());
}

fn result_rows(path: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

#[test]
fn match_runs_programs_resumes_and_records_a_hanging_player() {
    let dir = tempfile::tempdir().unwrap();
    let player = script(
        dir.path(),
        "random.sh",
        &format!("exec {BINARY} play --bot random --seed 9 \"$@\""),
    );
    let player = player.to_str().unwrap();
    let base = [
        "match",
        "--start-server",
        "--player1",
        player,
        "--player2",
        "builtin:greedy",
        "--name1",
        "script",
        "--name2",
        "greedy",
        "--seed",
        "5",
    ];
    let first = SPIELLEITER.run(dir.path(), &[&base[..], &["--tests", "1"]].concat());
    assert!(first.status.success(), "{}", stdout(&first));
    let second = SPIELLEITER.run(
        dir.path(),
        &[&base[..], &["-t", "3", "--parallel", "2"]].concat(),
    );
    let text = stdout(&second);
    assert!(second.status.success(), "{text}");
    assert!(
        text.contains("resuming: 1 game recorded, 2 to play"),
        "{text}"
    );
    assert!(text.contains("3 games, 0 irregular"), "{text}");
    assert!(text.contains("Elo difference script − greedy: "), "{text}");
    let rows = result_rows(&dir.path().join("match-results.jsonl"));
    let mut games: Vec<u64> = rows.iter().map(|r| r["game"].as_u64().unwrap()).collect();
    games.sort();
    assert_eq!(games, [1, 2, 3]);
    // The summary's win count is the rows' count.
    let script_wins = rows
        .iter()
        .filter(|r| r["win_points"][0].as_u64() > r["win_points"][1].as_u64())
        .count();
    let line = text
        .lines()
        .find(|l| l.starts_with("script ") && !l.contains(" vs "))
        .expect("a summary line for the script");
    let wins: usize = line.split_whitespace().nth(1).unwrap().parse().unwrap();
    assert_eq!(wins, script_wins, "{text}");
    for game in 1..=3 {
        let log =
            std::fs::read_to_string(dir.path().join(format!("log/script_game{game}.log"))).unwrap();
        assert!(log.contains("random joined room"), "{log}");
    }

    // A program that never answers, untimed: the game limit ends it.
    let slow = script(
        dir.path(),
        "slow.sh",
        &format!("exec {BINARY} play --bot random --think-ms 60000 \"$@\""),
    );
    let hung = SPIELLEITER.run(
        dir.path(),
        &[
            "match",
            "--start-server",
            "--player1",
            slow.to_str().unwrap(),
            "--player2",
            "builtin:random",
            "--no-timeout1",
            "--game-timeout-ms",
            "500",
            "-t",
            "1",
            "--results",
            "hung.jsonl",
        ],
    );
    assert!(hung.status.success(), "{}", stdout(&hung));
    let rows = result_rows(&dir.path().join("hung.jsonl"));
    assert_eq!(rows[0]["causes"], serde_json::json!(["HUNG", "REGULAR"]));
    assert!(stdout(&hung).contains("1 game, 1 irregular"));
}

#[test]
fn serve_and_match_refuse_an_unusable_replay_directory_at_start() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a-file"), "not a directory").unwrap();
    let unusable = "a-file/replays";
    for args in [
        &["serve", "--port", "0", "--replay-dir", unusable][..],
        &[
            "match",
            "--start-server",
            "--player1",
            "builtin:random",
            "--player2",
            "builtin:random",
            "--replay-dir",
            unusable,
        ][..],
    ] {
        let output = SPIELLEITER.run(dir.path(), args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success(), "{} started: {stderr}", args[0]);
        assert!(
            stderr.contains("a-file/replays is not usable: cannot create it: "),
            "{stderr}"
        );
        // The cause once, not repeated by every layer.
        assert_eq!(stderr.matches("os error").count(), 1, "{stderr}");
        assert!(!dir.path().join("match-results.jsonl").exists());
    }
}

#[test]
fn health_answers_for_a_running_server_and_fails_without_one() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let server = start_server(&runtime, None);
    let port = server.addr().port().to_string();
    // The port from the server's own setting, on loopback although the
    // server's setting says all interfaces (as in the container image).
    // A web side of its own (its /healthz does not depend on the server).
    let web = runtime
        .block_on(EmbeddedWeb::start(
            "127.0.0.1:0".parse().unwrap(),
            Arc::new(ServerStats::default()),
            WebSettings {
                access: Access::new("127.0.0.1".parse().unwrap(), HttpPublic::Auto, None),
                replay_dir: None,
                limits: WebLimits::default(),
                auth: Arc::new(AuthBackoff::for_config(&Config::default())),
            },
        ))
        .unwrap();
    let web_port = web.addr().port().to_string();
    let health = || {
        Command::new(BINARY)
            .arg("health")
            .env("SPIELLEITER_LISTEN", "0.0.0.0")
            .env("SPIELLEITER_PORT", &port)
            .env("SPIELLEITER_HTTP_PORT", &web_port)
            .current_dir(dir.path())
            .output()
            .unwrap()
    };
    let healthy = health();
    assert!(healthy.status.success(), "{healthy:?}");
    assert!(
        stdout(&healthy).contains(&format!(
            "healthy: 127.0.0.1:{port} answers, and http://127.0.0.1:{web_port}/healthz"
        )),
        "{healthy:?}"
    );
    // Without its web side the server is not healthy, unless the web side
    // is off.
    drop(web);
    let no_web = health();
    assert_eq!(no_web.status.code(), Some(1), "{no_web:?}");
    assert!(
        String::from_utf8_lossy(&no_web.stderr).contains("/healthz"),
        "{no_web:?}"
    );
    let web_off = Command::new(BINARY)
        .arg("health")
        .env("SPIELLEITER_PORT", &port)
        .env("SPIELLEITER_HTTP", "false")
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(web_off.status.success(), "{web_off:?}");
    runtime.block_on(server.stop());

    let unhealthy = SPIELLEITER.run(
        dir.path(),
        &["health", "--addr", &format!("127.0.0.1:{port}")],
    );
    assert_eq!(unhealthy.status.code(), Some(1), "{unhealthy:?}");
    let error = String::from_utf8_lossy(&unhealthy.stderr);
    assert!(error.contains("unhealthy: 127.0.0.1:"), "{error}");
    assert!(error.contains("cannot connect"), "{error}");
}

/// Runs `spielleiter ARGS` with `variables` set and expects it to fail at
/// start; a server that starts anyway is killed and fails the test.
fn failed_start(args: &[&str], variables: &[(&str, &str)]) -> (Option<i32>, String) {
    let dir = tempfile::tempdir().unwrap();
    let mut child = Command::new(BINARY)
        .args(args)
        .envs(variables.iter().copied())
        .current_dir(dir.path())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if std::time::Instant::now() > deadline {
            child.kill().unwrap();
            panic!("{args:?} with {variables:?} did not fail at start");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    let mut stderr = String::new();
    std::io::Read::read_to_string(child.stderr.as_mut().unwrap(), &mut stderr).unwrap();
    (status.code(), stderr)
}

#[test]
fn serve_refuses_to_start_when_the_open_file_limit_cannot_hold_the_connection_caps() {
    let (code, error) = failed_start(
        &["serve", "--port", "0", "--http-port", "0"],
        &[("SPIELLEITER_HTTP_MAX_CONNECTIONS", "100000000")],
    );
    assert_eq!(code, Some(1), "{error}");
    // The limit was raised and logged first, each number once.
    assert!(error.contains("open-file limit: "), "{error}");
    let line = error
        .lines()
        .find(|line| line.contains("open-file limit: "))
        .unwrap();
    for repeated in ["before=", "now=", "hard="] {
        assert!(!line.contains(repeated), "{line}");
    }
    assert!(
        error.contains("but the configured connection caps need 200001664 = 1024 game connections")
            && error.contains("(2 × http.max_connections)")
            && error.contains("raise the hard limit"),
        "{error}"
    );
}

#[test]
fn invalid_environment_values_are_reported_under_the_variable() {
    let (code, error) = failed_start(&["serve"], &[("SPIELLEITER_PORT", "high")]);
    assert_eq!(code, Some(2), "{error}");
    assert!(
        error.contains("`high` in the environment variable SPIELLEITER_PORT"),
        "{error}"
    );
    let (code, error) = failed_start(&[], &[("SPIELLEITER_REPLAY_GZIP", "yes")]);
    assert_eq!(code, Some(2), "{error}");
    assert!(error.contains("SPIELLEITER_REPLAY_GZIP"), "{error}");
    assert!(error.contains("true, false"), "{error}");
    // Parsed fine, out of range: the variable is named next to the key.
    let (code, error) = failed_start(
        &["serve", "--port", "0"],
        &[("SPIELLEITER_MAX_CONNECTIONS", "0")],
    );
    assert_eq!(code, Some(1), "{error}");
    assert!(
        error.contains("`server.max_connections`")
            && error.contains("SPIELLEITER_MAX_CONNECTIONS")
            && error.contains("must be at least 1"),
        "{error}"
    );
    // A flag wins over its variable, and its bad value is reported as the
    // flag's.
    let (code, error) = failed_start(&["serve", "--port", "x"], &[("SPIELLEITER_PORT", "13050")]);
    assert_eq!(code, Some(2), "{error}");
    assert!(error.contains("'--port <PORT>'"), "{error}");
}

#[test]
fn output_into_a_closed_pipe_ends_quietly() {
    let dir = tempfile::tempdir().unwrap();
    // The reader is gone before anything is printed, as after `| head -0`.
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let output = Command::new(BINARY)
        .args([
            "perft",
            "--start-piece",
            "PENTO_L",
            "--depth",
            "1",
            "--by-kind",
        ])
        .current_dir(dir.path())
        .stdout(writer)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.is_empty(), "{stderr}");
    assert_eq!(output.status.code(), Some(141));
}

#[test]
fn every_command_that_prints_ends_quietly_into_a_closed_pipe() {
    let dir = tempfile::tempdir().unwrap();
    let text = SPIELLEITER.succeeding(
        dir.path(),
        &[
            "demo",
            "--fast",
            "--game",
            "blokus_classic_2",
            "--seed",
            "3",
        ],
    );
    let replay = replay_line(&text);
    let commands: [&[&str]; 7] = [
        &["replay", "show", &replay],
        &["replay", "show", &replay, "--turn", "3"],
        &["replay", "export", &replay, "--format", "blksgf"],
        &["render", &replay, "-o", "x.svg"],
        &["perft", "--game", "blokus_bcl", "--depth", "1"],
        &[
            "demo",
            "--fast",
            "--game",
            "swc_2022_ostseeschach",
            "--seed",
            "1",
        ],
        &["--version"],
    ];
    for args in commands {
        // The reader is gone before anything is printed, as after `| head -0`.
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let output = Command::new(BINARY)
            .args(args)
            .current_dir(dir.path())
            .stdout(writer)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!stderr.contains("Broken pipe"), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert!(
            matches!(output.status.code(), Some(141 | 0)),
            "{args:?}: {:?} {stderr}",
            output.status
        );
    }
}

#[test]
fn mistakes_are_blamed_on_what_the_user_gave_and_named_once() {
    let dir = tempfile::tempdir().unwrap();
    let failing = |args: &[&str]| {
        let output = SPIELLEITER.run(dir.path(), args);
        assert!(!output.status.success(), "{args:?}");
        String::from_utf8_lossy(&output.stderr).into_owned()
    };
    let error = failing(&["serve", "--move-time", "swc_2021_blokus=5000/1000"]);
    assert!(
        error.contains("--move-time swc_2021_blokus=5000/1000") && !error.contains("hard-timeout"),
        "{error}"
    );
    let error = failing(&["render", "nonexistent.xml", "-o", "x.png"]);
    assert_eq!(error.matches("No such file").count(), 1, "{error}");
    let error = failing(&["replay", "show", "/etc/passwd"]);
    assert_eq!(error.matches("not well-formed").count(), 1, "{error}");
    let error = failing(&["play", "-p", "1"]);
    assert!(error.contains("cannot connect to localhost:1:"), "{error}");
    let error = failing(&["serve", "--port", "-1"]);
    assert!(error.contains("-1 is not in 0..=65535"), "{error}");
    // Nothing is started or printed before the mistake is found.
    let output = SPIELLEITER.run(dir.path(), &["demo", "--one", "illegal"]);
    assert!(!output.status.success());
    assert_eq!(stdout(&output), "");
    let output = SPIELLEITER.run(
        dir.path(),
        &[
            "match",
            "--start-server",
            "--player1",
            "./does-not-exist",
            "--player2",
            "builtin:random",
        ],
    );
    assert_eq!(stdout(&output), "");
    let error = String::from_utf8_lossy(&output.stderr);
    assert!(error.contains("./does-not-exist does not exist"), "{error}");
    assert!(!dir.path().join("match-results.jsonl").exists());
    let error = failing(&[
        "match",
        "--player1",
        "builtin:greedy",
        "--player2",
        "builtin:random",
    ]);
    assert!(error.contains("--start-server"), "{error}");
    assert!(!error.contains("Usage:"), "{error}");
}

#[test]
fn a_wrong_passphrase_is_named_and_a_match_whose_player_never_joins_fails() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let server = start_server(&runtime, None);
    let port = server.addr().port().to_string();
    let base = ["match", "-h", "127.0.0.1", "-p", &port, "--tests", "2"];
    let output = SPIELLEITER.run(
        dir.path(),
        &[
            &base[..],
            &[
                "--admin-passphrase",
                "wrong",
                "--player1",
                "builtin:greedy",
                "--player2",
                "builtin:random",
            ],
        ]
        .concat(),
    );
    assert_eq!(stdout(&output), "");
    let error = String::from_utf8_lossy(&output.stderr);
    assert!(error.contains("wrong administrator passphrase"), "{error}");

    let quitter = script(dir.path(), "quitter", "exit 0");
    let output = SPIELLEITER.run(
        dir.path(),
        &[
            &base[..],
            &[
                "--admin-passphrase",
                server.passphrase().unwrap(),
                "--player1",
                quitter.to_str().unwrap(),
                "--player2",
                "builtin:random",
                "--name1",
                "quitter",
            ],
        ]
        .concat(),
    );
    let error = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{error}");
    assert!(error.contains("every game of quitter"), "{error}");
    assert_eq!(
        result_rows(&dir.path().join("match-results.jsonl")).len(),
        2
    );
    runtime.block_on(server.stop());
}

#[test]
fn play_learns_the_game_of_a_prepared_room() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let server = start_server(&runtime, None);
    let port = server.addr().port().to_string();
    // `play` without --game as both players of a tournament of another
    // season than the default.
    let player = format!("{BINARY} play --bot greedy");
    let output = SPIELLEITER.run(
        dir.path(),
        &[
            "tournament",
            "--game",
            "swc_2022_ostseeschach",
            "-h",
            "127.0.0.1",
            "-p",
            &port,
            "--admin-passphrase",
            server.passphrase().unwrap(),
            "--games-per-pair",
            "1",
            "--player",
            &format!("one={player}"),
            "--player",
            &format!("two={player} --seed 5"),
        ],
    );
    succeeded(&output);
    let rows = result_rows(&dir.path().join("tournament-results.jsonl"));
    assert_eq!(rows.len(), 1);
    assert!(
        rows[0]["causes"]
            .as_array()
            .unwrap()
            .iter()
            .all(|cause| cause == "REGULAR"),
        "{rows:?}"
    );
    runtime.block_on(server.stop());
}

#[test]
fn the_cause_of_an_error_is_printed_once() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("bad.toml"), "[server]\nport = \"high\"\n").unwrap();
    let output = SPIELLEITER.run(dir.path(), &["serve", "--config", "bad.toml"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success());
    assert!(stderr.contains("invalid config file bad.toml"), "{stderr}");
    assert_eq!(stderr.matches("TOML parse error").count(), 1, "{stderr}");
}

#[test]
fn command_line_mistakes_are_refused_with_the_valid_choices() {
    let dir = tempfile::tempdir().unwrap();
    // A log level that would silently switch logging off.
    let output = SPIELLEITER.run(
        dir.path(),
        &["serve", "--port", "0", "--log-level", "verbose"],
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success());
    assert!(stderr.contains("`verbose` is not a log level"), "{stderr}");
    assert!(
        stderr.contains("trace, debug, info, warn, error, off"),
        "{stderr}"
    );
}

#[test]
fn bench_points_to_its_own_binary() {
    let dir = tempfile::tempdir().unwrap();
    let output = SPIELLEITER.run(dir.path(), &["bench", "--concurrency", "2"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success());
    assert!(
        stderr.contains("`spielleiter-bench --concurrency 2`"),
        "{stderr}"
    );
    // Not among the commands a user is shown.
    let help = stdout(&SPIELLEITER.run(dir.path(), &["--help"]));
    assert!(
        !help.lines().any(|l| l.trim_start().starts_with("bench")),
        "{help}"
    );
}

#[test]
fn a_bare_dash_h_prints_help_and_the_help_says_dash_h_is_the_host() {
    let dir = tempfile::tempdir().unwrap();
    for command in ["play", "match", "tournament"] {
        for args in [
            vec![command, "-h"],
            vec![command, "--help"],
            vec![command, "-h", "--seed", "1"],
        ] {
            let text = succeeded(&SPIELLEITER.run(dir.path(), &args));
            assert!(
                text.starts_with("Note: -h is --host here"),
                "{args:?}: {text}"
            );
            assert!(text.contains("-h, --host <HOST>"), "{args:?}: {text}");
        }
    }
    // With a value after it, -h is the host.
    let output = SPIELLEITER.run(dir.path(), &["play", "-h", "127.0.0.1", "-p", "1"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success());
    assert!(stderr.contains("127.0.0.1:1"), "{stderr}");
}

#[test]
fn serve_listens_on_a_host_name_and_a_flag_beats_the_environment() {
    let dir = tempfile::tempdir().unwrap();
    // `localhost` resolves; --no-timeout beats SPIELLEITER_TIMEOUTS=true.
    let mut child = Command::new(BINARY)
        .args([
            "serve",
            "--port",
            "0",
            "--listen",
            "localhost",
            "--no-timeout",
        ])
        .env("SPIELLEITER_TIMEOUTS", "true")
        .current_dir(dir.path())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = std::io::BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    let mut log = String::new();
    while std::io::BufRead::read_line(&mut stderr, &mut line).unwrap() > 0 {
        log.push_str(&line);
        if line.contains("listening on") {
            break;
        }
        line.clear();
    }
    let _ = child.kill();
    let output = child.wait_with_output().unwrap();
    assert!(log.contains("Spielleiter listening on 127.0.0.1:"), "{log}");
    assert!(log.contains("timeouts=false"), "{log}");
    // Logs go to standard error, nothing to standard output.
    assert!(
        output.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&output.stdout)
    );
}

#[test]
fn match_takes_the_server_settings_from_the_environment_and_does_not_wait_for_a_hung_player() {
    let dir = tempfile::tempdir().unwrap();
    // Player 1 takes its own arguments and never answers in time.
    let slow = script(dir.path(), "slow.sh", &format!("exec {BINARY} \"$@\""));
    let player1 = format!(
        "{} play --bot random --think-ms 60000",
        slow.to_str().unwrap()
    );
    let started = std::time::Instant::now();
    let output = Command::new(BINARY)
        .args([
            "match",
            "--start-server",
            "--player1",
            &player1,
            "--player2",
            "builtin:random",
            "-t",
            "1",
            "--exit-grace-ms",
            "30000",
        ])
        // The server's hard limit from the environment: 1 s, not 10 s.
        .env("SPIELLEITER_SOFT_TIMEOUT_MS", "500")
        .env("SPIELLEITER_HARD_TIMEOUT_MS", "1000")
        .current_dir(dir.path())
        .output()
        .unwrap();
    let took = started.elapsed();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let rows = result_rows(&dir.path().join("match-results.jsonl"));
    assert_eq!(
        rows[0]["causes"],
        serde_json::json!(["HARD_TIMEOUT", "REGULAR"])
    );
    assert_eq!(
        rows[0]["commands"][0],
        serde_json::json!(format!(
            "{} play --bot random --think-ms 60000",
            slow.display()
        ))
    );
    // A second run with other programs under the same names is refused.
    let other = SPIELLEITER.run(
        dir.path(),
        &[
            "match",
            "--start-server",
            "--player1",
            "builtin:greedy",
            "--player2",
            "builtin:random",
            "-t",
            "2",
        ],
    );
    assert!(!other.status.success());
    let stderr = String::from_utf8_lossy(&other.stderr);
    assert!(stderr.contains("not of this match"), "{stderr}");
    // 1 s of hard limit, not 10 s, and no 30 s grace for the hung player.
    assert!(took < Duration::from_secs(8), "{took:?}");
}

#[test]
fn the_tools_play_classic_blokus_for_four_three_and_two() {
    let dir = tempfile::tempdir().unwrap();
    let success = |args: &[&str]| SPIELLEITER.succeeding(dir.path(), args);
    // perft: 58 first pieces per colour; a move file in both notations
    // (the rules' perft data) and the points it leaves.
    let text = success(&["perft", "--game", "blokus_classic", "--depth", "2"]);
    assert!(
        text.starts_with(
            "blokus_classic, turn 0, round 1, BLUE to move (seat ONE)\n\
             points BLUE 0 YELLOW 0 RED 0 GREEN 0\nperft 1 58 ("
        ),
        "{text}"
    );
    assert!(text.contains("\nperft 2 3364 ("), "{text}");
    std::fs::write(
        dir.path().join("moves.txt"),
        "# the first pieces\nBLUE b18,b19,a20,b20\nYELLOW TETRO_Z RIGHT false 18 0\n\
         RED r1,s1,t1,r2,t2\nGREEN PENTO_P MIRROR true 0 17\n",
    )
    .unwrap();
    let text = success(&[
        "perft",
        "--game",
        "blokus_classic_3",
        "--moves",
        "moves.txt",
        "--depth",
        "2",
    ]);
    assert!(
        text.starts_with(
            "blokus_classic_3, turn 4, round 2, BLUE to move (seat ONE)\n\
             points BLUE 4 YELLOW 4 RED 5 GREEN 5\n"
        ),
        "{text}"
    );
    assert_eq!(perft_counts(&text), [(1, 135), (2, 21735)]);
    let refused = SPIELLEITER.run(
        dir.path(),
        &[
            "perft",
            "--game",
            "blokus_classic",
            "--start-piece",
            "PENTO_L",
            "--depth",
            "1",
        ],
    );
    assert!(!refused.status.success());

    // demo: every seat named with its colours, points and place.
    for (game, seats) in [
        ("blokus_classic", 4),
        ("blokus_classic_3", 3),
        ("blokus_classic_2", 2),
    ] {
        let out = format!("out-{game}");
        let text = success(&[
            "demo",
            "--fast",
            "--game",
            game,
            "--seed",
            "4",
            "--replay-dir",
            &out,
        ]);
        assert_eq!(text.matches(", REGULAR\n").count(), seats, "{text}");
        assert!(text.contains(" points, place 1, REGULAR"), "{text}");
        assert!(text.contains("points by colour: BLUE "), "{text}");
        let first = if seats == 2 {
            "greedy (seat ONE: BLUE, RED): "
        } else {
            "greedy (seat ONE: BLUE): "
        };
        assert!(text.contains(first), "{text}");
    }
    // match: four players rotate through the seats; places in the summary.
    let text = success(&[
        "match",
        "--start-server",
        "--game",
        "blokus_classic",
        "--player1",
        "builtin:greedy",
        "--player2",
        "builtin:random",
        "--player3",
        "builtin:random",
        "--player4",
        "builtin:random",
        "--seed",
        "5",
        "-t",
        "4",
        "--parallel",
        "2",
        "--results",
        "classic.jsonl",
    ]);
    assert!(text.contains("4 games, 0 irregular"), "{text}");
    assert!(
        text.contains("player   wins shared losses  places 1st/2nd/3rd/4th  place"),
        "{text}"
    );
    let rows = result_rows(&dir.path().join("classic.jsonl"));
    let starters: Vec<_> = rows.iter().map(|r| r["starter"].clone()).collect();
    assert_eq!(starters.len(), 4);
    for starter in 1..=4 {
        assert!(
            starters.contains(&serde_json::json!(starter)),
            "{starters:?}"
        );
    }
}

#[test]
fn two_play_processes_complete_a_two_player_classic_game() {
    let (first, second) = play_pair(&["--game", "blokus_classic_2"]);
    for text in [&first, &second] {
        assert!(text.contains("seat ONE (BLUE, RED): "), "{text}");
        assert!(text.contains(", REGULAR\n"), "{text}");
    }
    assert_eq!(lines_with(&first, "points"), lines_with(&second, "points"));
}

/// The nodes of a `.blksgf` game: each node's properties as (identifier,
/// values), values unescaped. A small SGF reader, enough for one game
/// without variations.
fn sgf_nodes(text: &str) -> Vec<Vec<(String, Vec<String>)>> {
    let body = text.trim();
    let body = body
        .strip_prefix('(')
        .and_then(|b| b.strip_suffix(')'))
        .expect("one game tree");
    let mut nodes: Vec<Vec<(String, Vec<String>)>> = Vec::new();
    let mut chars = body.chars().peekable();
    let mut identifier = String::new();
    while let Some(c) = chars.next() {
        match c {
            ';' => nodes.push(Vec::new()),
            '[' => {
                let mut value = String::new();
                loop {
                    match chars.next().expect("a closed value") {
                        '\\' => value.push(chars.next().expect("an escaped character")),
                        ']' => break,
                        other => value.push(other),
                    }
                }
                let node = nodes.last_mut().expect("a node");
                if identifier.is_empty() {
                    node.last_mut().expect("a property").1.push(value);
                } else {
                    node.push((std::mem::take(&mut identifier), vec![value]));
                }
            }
            c if c.is_ascii_alphanumeric() => identifier.push(c),
            c if c.is_whitespace() => {}
            other => panic!("unexpected {other:?} in {text}"),
        }
    }
    nodes
}

#[test]
fn a_classic_replay_exports_to_blksgf_and_replays_to_the_same_end() {
    use spielleiter_protocol::{GameState, read_replay};
    use spielleiter_rules::{
        GameType,
        blokus::{Classic, ClassicPlayers, Color, Move, Placement, notation::parse_pentobi_field},
    };

    let dir = tempfile::tempdir().unwrap();
    for (game, players, gm) in [
        (GameType::BlokusClassic, ClassicPlayers::Four, "Blokus"),
        (
            GameType::BlokusClassic3,
            ClassicPlayers::Three,
            "Blokus Three-Player",
        ),
        (
            GameType::BlokusClassic2,
            ClassicPlayers::Two,
            "Blokus Two-Player",
        ),
    ] {
        let out = format!("out-{game}");
        let demo = SPIELLEITER.run(
            dir.path(),
            &[
                "demo",
                "--fast",
                "--game",
                game.id(),
                "--seed",
                "7",
                "--replay-dir",
                &out,
            ],
        );
        let text = stdout(&demo);
        assert!(demo.status.success(), "{text}");
        let replay_path = replay_line(&text);
        let sgf_path = dir.path().join(format!("{game}.blksgf"));
        let export = SPIELLEITER.run(
            dir.path(),
            &[
                "replay",
                "export",
                &replay_path,
                "--format",
                "blksgf",
                "-o",
                sgf_path.to_str().unwrap(),
            ],
        );
        assert!(
            export.status.success(),
            "{}",
            String::from_utf8_lossy(&export.stderr)
        );
        let sgf = std::fs::read_to_string(&sgf_path).unwrap();

        // Parse it back and replay it by the rules.
        let nodes = sgf_nodes(&sgf);
        let root = &nodes[0];
        assert_eq!(root[0], ("GM".to_owned(), vec![gm.to_owned()]), "{sgf}");
        assert!(root.contains(&("CA".to_owned(), vec!["UTF-8".to_owned()])));
        let mut position = Classic::new(players);
        for node in &nodes[1..] {
            let [(property, values)] = &node[..] else {
                panic!("one move per node: {node:?}");
            };
            let color = Color::ALL["1234".find(property.as_str()).expect("a colour 1-4")];
            assert_eq!(values.len(), 1);
            let cells: Vec<(i32, i32)> = values[0]
                .split(',')
                .map(|f| parse_pentobi_field(f).expect("a field"))
                .collect();
            // Pentobi's order: a1, b1, …, a2, …
            let mut ordered = cells.clone();
            ordered.sort_unstable_by_key(|&(x, y)| (-y, x));
            assert_eq!(cells, ordered);
            let placement = Placement::from_cells(color, &cells).expect("a piece");
            position
                .play(&Move::Set(placement))
                .expect("legal in order");
        }
        assert!(position.is_over());

        // The same final position and points as the replay.
        let replay = read_replay(std::fs::File::open(&replay_path).unwrap(), game).unwrap();
        let (GameState::BlokusClassic(last)
        | GameState::BlokusClassic3(last)
        | GameState::BlokusClassic2(last)) = replay.states.last().expect("states")
        else {
            panic!("a classic state");
        };
        assert_eq!(position, Classic::from_setup(&last.setup).unwrap());
        let result = replay.result.expect("a result");
        for (seat, score) in result.scores.iter().enumerate() {
            assert_eq!(
                score.parts[1].as_integer(),
                Some(i64::from(position.points(seat)))
            );
        }
        for color in Color::ALL {
            let line = format!("{} {}", color.name(), position.color_points(color));
            assert!(sgf.contains(&line), "{sgf}");
        }
    }
    // Other games have no blksgf form.
    let demo = SPIELLEITER.run(
        dir.path(),
        &[
            "demo",
            "--fast",
            "--game",
            "swc_2021_blokus",
            "--seed",
            "7",
            "--replay-dir",
            "out",
        ],
    );
    let replay = replay_line(&stdout(&demo));
    let refused = SPIELLEITER.run(
        dir.path(),
        &["replay", "export", &replay, "--format", "blksgf"],
    );
    assert!(!refused.status.success());
    let error = String::from_utf8_lossy(&refused.stderr);
    assert!(
        error.contains("the blksgf format is for classic Blokus, not swc_2021_blokus"),
        "{error}"
    );
}

#[test]
fn two_play_processes_complete_a_bcl_game() {
    let (first, second) = play_pair(&["--game", "blokus_bcl"]);
    for text in [&first, &second] {
        assert!(text.contains("ONE (from (0,0)): "), "{text}");
        // A regular end names the seed's reason of each player.
        assert!(
            text.contains(" cells, REGULAR (OUT_OF_SPACE)")
                || text.contains(" cells, REGULAR (OUT_OF_BLOCK)"),
            "{text}"
        );
    }
    assert_eq!(
        lines_with(&first, "cells"),
        lines_with(&second, "cells"),
        "both saw the same result"
    );
}

#[test]
fn demo_match_and_perft_take_blokus_bcl() {
    let dir = tempfile::tempdir().unwrap();
    let success = |args: &[&str]| SPIELLEITER.succeeding(dir.path(), args);
    let text = success(&[
        "demo",
        "--fast",
        "--game",
        "blokus_bcl",
        "--seed",
        "4",
        "--replay-dir",
        "out",
    ]);
    assert!(text.contains("greedy (ONE, from (0,0)): "), "{text}");
    assert!(text.contains("\n   0123456789\n 0 "), "{text}");
    assert!(text.contains("O: ONE · V: TWO"), "{text}");

    // The illegal bot loses every game, in either seat.
    let text = success(&[
        "match",
        "--start-server",
        "--game",
        "blokus_bcl",
        "--player1",
        "builtin:greedy",
        "--player2",
        "builtin:illegal",
        "-t",
        "2",
        "--results",
        "bcl.jsonl",
    ]);
    assert!(text.contains("2 games, 2 irregular"), "{text}");
    for row in result_rows(&dir.path().join("bcl.jsonl")) {
        let causes = row["causes"].as_array().unwrap().clone();
        assert!(
            causes.contains(&serde_json::json!("RULE_VIOLATION")),
            "{row}"
        );
        assert!(row.to_string().contains("OVERLAP"), "{row}");
    }

    // The rules' perft data: the empty board, and after six blocks given
    // in both move forms.
    let text = success(&["perft", "--game", "blokus_bcl", "--depth", "3"]);
    assert!(text.starts_with("turn 0, ONE to move\n"), "{text}");
    assert_eq!(perft_counts(&text), [(1, 30), (2, 900), (3, 49440)]);
    std::fs::write(
        dir.path().join("moves.txt"),
        "# a random game\nONE BOOMERANG SINGLE NONE 2 0\nTWO 9,9\nONE CROWBAR DOUBLE HORIZONTAL 4 1\n\
         TWO 5,8 5,9 6,8 6,9 7,8 8,8\nONE HANDGUN DOUBLE HORIZONTAL 6 0\nTWO 7,6 8,6 9,6 9,7\n",
    )
    .unwrap();
    let text = success(&[
        "perft",
        "--game",
        "blokus_bcl",
        "--moves",
        "moves.txt",
        "--depth",
        "2",
    ]);
    assert_eq!(perft_counts(&text), [(1, 44), (2, 764)]);
    let output = SPIELLEITER.run(
        dir.path(),
        &[
            "perft",
            "--game",
            "blokus_bcl",
            "--start-piece",
            "PENTO_L",
            "--depth",
            "1",
        ],
    );
    assert!(!output.status.success());
}

#[test]
fn replay_show_lists_the_moves_in_words_with_their_think_times() {
    let dir = tempfile::tempdir().unwrap();
    let text = SPIELLEITER.succeeding(
        dir.path(),
        &[
            "demo",
            "--fast",
            "--game",
            "swc_2022_ostseeschach",
            "--seed",
            "4",
        ],
    );
    let replay = replay_line(&text);

    // The boards' last-move lines, in words.
    let boards =
        SPIELLEITER.succeeding(dir.path(), &["replay", "show", &replay, "--color", "never"]);
    let last_moves: Vec<&str> = boards
        .lines()
        .filter_map(|l| l.strip_prefix("last move: "))
        .map(|l| l.split(" · ").next().unwrap())
        .collect();
    assert!(last_moves.len() > 4, "{boards}");
    assert!(
        last_moves.iter().all(|m| m.contains(" moves ")),
        "{last_moves:?}"
    );
    // Seed 4's game has a piece taken, which only the position before the
    // move shows: the board's line names it all the same.
    assert!(
        last_moves.iter().any(|m| m.contains(" and takes ")),
        "{last_moves:?}"
    );

    // The list: one line per move, the same words, who moved and a think
    // time (the demo's server recorded every one), then the totals.
    let listed = SPIELLEITER.succeeding(dir.path(), &["replay", "show", &replay, "--moves"]);
    assert!(!listed.contains("last move: "), "no boards: {listed}");
    let moves: Vec<&str> = listed.lines().filter(|l| l.starts_with("turn ")).collect();
    assert_eq!(moves.len(), last_moves.len(), "{listed}");
    for (index, (line, words)) in moves.iter().zip(&last_moves).enumerate() {
        assert!(line.ends_with(words), "{line} / {words}");
        assert!(
            line.starts_with(&format!("turn {:>3}  ", index + 1)),
            "{line}"
        );
        let mover = if index % 2 == 0 { "greedy" } else { "random" };
        assert!(line.contains(mover), "{line}");
        assert!(line.contains(" µs  ") || line.contains(" ms  "), "{line}");
    }
    let totals = listed
        .lines()
        .find_map(|l| l.strip_prefix("think time in all: "))
        .expect("the totals");
    assert!(
        totals.contains(&format!("over {} moves", moves.len().div_ceil(2))),
        "{totals}"
    );
    assert!(
        listed.contains("Winner: ") || listed.contains("Draw."),
        "{listed}"
    );

    // A replay without think times (another server's): `-`, no totals.
    let stored = std::fs::read_to_string(&replay).unwrap();
    let plain = regex_free_strip(&stored, " thinkMicros=\"");
    assert_ne!(plain, stored, "the demo's replay records think times");
    let other = dir.path().join("replay_swc_2022_ostseeschach_other.xml");
    std::fs::write(&other, plain).unwrap();
    let listed = SPIELLEITER.succeeding(
        dir.path(),
        &["replay", "show", other.to_str().unwrap(), "--moves"],
    );
    let moves: Vec<&str> = listed.lines().filter(|l| l.starts_with("turn ")).collect();
    assert_eq!(moves.len(), last_moves.len(), "{listed}");
    assert!(moves.iter().all(|l| l.contains("  -  ")), "{listed}");
    assert!(!listed.contains("think time in all"), "{listed}");

    // One position or the list, not both.
    let both = SPIELLEITER.run(
        dir.path(),
        &["replay", "show", &replay, "--moves", "--turn", "3"],
    );
    assert!(!both.status.success());
}

/// `text` without any attribute that starts with `start` (up to its
/// closing quote).
fn regex_free_strip(text: &str, start: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(start) {
        out.push_str(&rest[..at]);
        let value = &rest[at + start.len()..];
        let end = value.find('"').map_or(value.len(), |e| e + 1);
        rest = &value[end..];
    }
    out.push_str(rest);
    out
}
