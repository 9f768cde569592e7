//! `spielleiter worker` (and `match` and `tournament` beside it) against
//! servers and stores that do not answer as they should, run as an
//! organiser runs them: a game server that refuses `prepare` with a bare
//! `<errorpacket/>` or says nothing at all (a stand-in on a free port), a
//! store that is not there yet or never answers, a player name the server
//! refuses. Every command ends in one line instead of waiting for ever; a
//! worker waits for its store and season, renews its lease while a game is
//! stuck, and SIGTERM ends it in every state it can wait in, its claimed
//! game given back. Its games' replays reach the store from its server's
//! memory, through no file.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test.

use std::{
    io::{BufRead, BufReader, Read, Write},
    net::{TcpListener, TcpStream},
    path::{Path, PathBuf},
    process::{Child, Command, ExitStatus, Stdio},
    sync::{
        Arc, Mutex,
        atomic::{AtomicUsize, Ordering},
    },
    time::{Duration, Instant},
};

use spielleiter_season::{
    GameRow, GameState, ScheduledGame, SeasonDefinition, SeasonPlayer, SeasonStore, SqliteStore,
};
use spielleiter_test_support::{Program, script, succeeded, wait_until};

/// The binary, without settings from the developer's environment.
const SPIELLEITER: Program = Program::new(env!("CARGO_BIN_EXE_spielleiter")).without(&[
    "SPIELLEITER_STORE",
    "SPIELLEITER_ADMIN_PASSPHRASE",
    "RUST_LOG",
]);
const POLL: Duration = Duration::from_millis(20);
/// How long a command may take to end once it has what ends it (a
/// refusal, a signal): far more than it takes (see the report printed),
/// so a loaded machine does not fail the test, and far less than a wait
/// for ever.
const PROMPTLY: Duration = Duration::from_secs(8);

/// A stand-in for a game server on a free port. Each connection's
/// `observe` (the passphrase check before a match) is refused as an
/// unknown room; each `prepare` gets `answer`, or nothing at all when it
/// is `None` (a stuck server). The connection then stays open and silent.
struct StubServer {
    port: u16,
    /// `prepare` requests seen.
    prepares: Arc<AtomicUsize>,
}

fn stub_server(answer: Option<&'static str>) -> StubServer {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let prepares = Arc::new(AtomicUsize::new(0));
    let seen = Arc::clone(&prepares);
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(stream) = stream else { return };
            let seen = Arc::clone(&seen);
            std::thread::spawn(move || serve_stub_connection(stream, answer, &seen));
        }
    });
    StubServer { port, prepares }
}

fn serve_stub_connection(mut stream: TcpStream, answer: Option<&str>, prepares: &AtomicUsize) {
    let mut read = String::new();
    let mut opened = false;
    let (mut observes_answered, mut prepares_seen) = (0, 0);
    let mut chunk = [0; 4096];
    loop {
        let n = match stream.read(&mut chunk) {
            Ok(0) | Err(_) => return,
            Ok(n) => n,
        };
        read.push_str(&String::from_utf8_lossy(&chunk[..n]));
        let mut out = String::new();
        while observes_answered < read.matches("<observe").count() {
            observes_answered += 1;
            out.push_str("\n  <errorpacket message=\"no such room\"/>");
        }
        while prepares_seen < read.matches("<prepare").count() {
            prepares_seen += 1;
            prepares.fetch_add(1, Ordering::SeqCst);
            if let Some(answer) = answer {
                out.push_str("\n  ");
                out.push_str(answer);
            }
        }
        if !out.is_empty() {
            if !opened {
                opened = true;
                out.insert_str(0, "<protocol>");
            }
            if stream.write_all(out.as_bytes()).is_err() {
                return;
            }
        }
    }
}

/// A running command whose standard error is collected as it comes.
struct Running {
    child: Child,
    stderr: Arc<Mutex<String>>,
}

impl Running {
    fn start(mut command: Command) -> Running {
        let mut child = command
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stderr = Arc::new(Mutex::new(String::new()));
        let collected = Arc::clone(&stderr);
        let pipe = child.stderr.take().unwrap();
        std::thread::spawn(move || {
            for line in BufReader::new(pipe).lines() {
                let Ok(line) = line else { return };
                let mut text = collected.lock().unwrap();
                text.push_str(&line);
                text.push('\n');
            }
        });
        Running { child, stderr }
    }

    fn stderr(&self) -> String {
        self.stderr.lock().unwrap().clone()
    }

    fn wait_for_log(&self, what: &str, text: &str) {
        wait_until(what, Duration::from_secs(60), POLL, || {
            self.stderr().contains(text)
        });
    }

    /// Sends SIGTERM; the exit status and how long the end took.
    fn terminate(mut self) -> (ExitStatus, Duration, String) {
        let sent = Instant::now();
        let killed = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .unwrap();
        assert!(killed.success());
        let status = self.wait_at_most(PROMPTLY, "after SIGTERM");
        let took = sent.elapsed();
        // The rest of standard error, once the pipe is closed.
        std::thread::sleep(Duration::from_millis(50));
        (status, took, self.stderr())
    }

    /// Waits for the end; kills the command and fails if it does not come
    /// within `limit`.
    fn wait_at_most(&mut self, limit: Duration, what: &str) -> ExitStatus {
        let deadline = Instant::now() + limit;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                let _ = self.child.wait();
                panic!(
                    "still running {limit:?} {what}; its log:\n{}",
                    self.stderr()
                );
            }
            std::thread::sleep(POLL);
        }
    }
}

fn worker(dir: &Path, store: &str, name: &str, extra: &[&str]) -> Command {
    let mut command = SPIELLEITER.command(dir);
    command
        .args([
            "worker",
            "--store",
            store,
            "--worker-name",
            name,
            // Every season these tests create is named so; without a name
            // a worker would take the store's only season, which may be
            // another one.
            "--name",
            "season",
            "--lease-ms",
            "1000",
            "--heartbeat-ms",
            "200",
            "--replay-dir",
            &format!("replays-{name}"),
            "--log-dir",
            &format!("log-{name}"),
        ])
        .args(extra);
    command
}

fn create_season(dir: &Path, store: &str, name: &str, players: &[&str]) {
    let mut args = vec![
        "season",
        "create",
        "--store",
        store,
        "--name",
        name,
        "--game",
        "blokus_bcl",
        "--games-per-pair",
        "1",
        "--seed",
        "3",
        "--no-timeout",
    ];
    for player in players {
        args.extend(["--player", player]);
    }
    succeeded(&SPIELLEITER.run(dir, &args));
}

fn block_on<T>(future: impl Future<Output = T>) -> T {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(future)
}

/// The season's games as the store holds them.
fn games(path: &Path, season: &str) -> Vec<GameRow> {
    let store = SqliteStore::open(path).unwrap();
    block_on(store.games(season)).unwrap()
}

/// A game that is open for the next worker: waiting, its claims given
/// back without a failure counted.
fn open_again(row: &GameRow) -> bool {
    row.state == GameState::Waiting && row.failures == 0
}

/// One line on standard error, the failure status.
fn one_line_failure(command: &str, status: ExitStatus, stderr: &str, naming: &str) {
    assert!(!status.success(), "{command}: {stderr}");
    assert_eq!(
        stderr.trim().lines().count(),
        1,
        "{command}: one line: {stderr}"
    );
    assert!(stderr.contains(naming), "{command}: {naming}: {stderr}");
}

#[test]
fn a_bare_error_packet_to_prepare_ends_match_tournament_and_worker_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let server = stub_server(Some("<errorpacket/>"));
    let port = server.port.to_string();
    let refusal = "the server refused `prepare` without giving a reason";
    let timed = |args: &[&str]| {
        let started = Instant::now();
        let mut running = Running::start({
            let mut command = SPIELLEITER.command(dir.path());
            command.args(args);
            command
        });
        let status = running.wait_at_most(PROMPTLY, "after the refusal");
        std::thread::sleep(Duration::from_millis(50));
        (status, running.stderr(), started.elapsed())
    };
    let running_server = ["--admin-passphrase", "pass"];

    let mut args = vec!["match", "-h", "127.0.0.1", "-p", &port, "-t", "3"];
    args.extend(["--player1", "builtin:random", "--player2", "builtin:random"]);
    args.extend(running_server);
    let (status, stderr, took) = timed(&args);
    one_line_failure("match", status, &stderr, refusal);
    eprintln!("match ended {took:?} after it started");

    let mut args = vec!["tournament", "-h", "127.0.0.1", "-p", &port];
    args.extend([
        "--player",
        "a=builtin:random",
        "--player",
        "b=builtin:random",
    ]);
    args.extend(["--results", "league.jsonl"]);
    args.extend(running_server);
    let (status, stderr, took) = timed(&args);
    one_line_failure("tournament", status, &stderr, refusal);
    eprintln!("tournament ended {took:?} after it started");

    // A worker logs as it goes; its last line is why it ended, and the
    // game it claimed is open again (this failure counted).
    let store = dir.path().join("season.sqlite");
    let store_text = store.to_str().unwrap();
    create_season(
        dir.path(),
        store_text,
        "season",
        &["a=builtin:random", "b=builtin:random"],
    );
    let mut args = vec!["worker", "--store", store_text, "--host", "127.0.0.1"];
    args.extend(["--port", &port]);
    args.extend(running_server);
    let (status, stderr, took) = timed(&args);
    assert!(!status.success(), "{stderr}");
    let last = stderr.trim().lines().last().unwrap_or_default();
    assert!(
        last.starts_with("spielleiter: ") && last.contains(refusal),
        "{stderr}"
    );
    eprintln!("worker ended {took:?} after it started");
    let rows = games(&store, "season");
    assert_eq!(rows[0].state, GameState::Waiting);
    assert_eq!(rows[0].failures, 1);
    assert!(server.prepares.load(Ordering::SeqCst) >= 3);
}

#[test]
fn a_worker_waits_for_its_store_and_its_season() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("later.sqlite");
    let store_text = store.to_str().unwrap();
    let waiting = Running::start(worker(dir.path(), store_text, "early", &[]));
    waiting.wait_for_log(
        "the worker waits for the store",
        "the store cannot be opened yet",
    );
    // Another season first: the store is there, the worker's season not.
    create_season(
        dir.path(),
        store_text,
        "other",
        &["a=builtin:random", "b=builtin:random"],
    );
    waiting.wait_for_log(
        "the worker waits for its season",
        "waiting for the season to be created",
    );
    create_season(
        dir.path(),
        store_text,
        "season",
        &["a=builtin:random", "b=builtin:greedy"],
    );
    let mut waiting = waiting;
    let status = waiting.wait_at_most(Duration::from_secs(60), "after its season was created");
    assert!(status.success(), "{}", waiting.stderr());
    assert!(
        games(&store, "season")
            .iter()
            .all(|g| g.state == GameState::Done)
    );
}

#[test]
fn sigterm_ends_a_worker_waiting_for_its_store_or_season_at_once() {
    let dir = tempfile::tempdir().unwrap();
    // A store that takes the connection and never says a word.
    let silent = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!(
        "postgres://season:stuck-secret@127.0.0.1:{}/season?password=other-secret",
        silent.local_addr().unwrap().port()
    );
    let stuck = Running::start(worker(dir.path(), &url, "w", &[]));
    let (_connection, _) = silent.accept().unwrap();
    std::thread::sleep(Duration::from_millis(200));
    let (status, took, stderr) = stuck.terminate();
    assert!(!status.success());
    assert!(
        stderr.contains("stopped before the season was over"),
        "{stderr}"
    );
    assert!(!stderr.contains("secret"), "{stderr}");
    eprintln!("waiting on a stuck store: ended {took:?} after SIGTERM");

    // A store without the worker's season.
    let store = dir.path().join("season.sqlite");
    let store_text = store.to_str().unwrap();
    create_season(
        dir.path(),
        store_text,
        "other",
        &["a=builtin:random", "b=builtin:random"],
    );
    let waiting = Running::start(worker(dir.path(), store_text, "w", &[]));
    waiting.wait_for_log(
        "the worker waits for its season",
        "waiting for the season to be created",
    );
    let (status, took, stderr) = waiting.terminate();
    assert!(!status.success());
    assert!(
        stderr.contains("stopped before the season was over"),
        "{stderr}"
    );
    eprintln!("waiting for its season: ended {took:?} after SIGTERM");
}

/// A season of one game between two players who think 150 ms a move: it
/// lasts seconds.
fn slow_season(dir: &Path) -> PathBuf {
    script(
        dir,
        "slow.sh",
        &format!(
            "exec {} play --game blokus_bcl --bot greedy --think-ms 150 \"$@\"",
            SPIELLEITER.path()
        ),
    );
    let store = dir.join("season.sqlite");
    create_season(
        dir,
        store.to_str().unwrap(),
        "season",
        &["slow=./slow.sh", "slower=./slow.sh"],
    );
    store
}

#[test]
fn sigterm_ends_a_worker_waiting_for_work_or_playing_and_its_game_is_open_again() {
    let dir = tempfile::tempdir().unwrap();
    let store = slow_season(dir.path());
    let store_text = store.to_str().unwrap();
    let playing = Running::start(worker(dir.path(), store_text, "playing", &[]));
    wait_until(
        "the first worker holds the game",
        Duration::from_secs(60),
        POLL,
        || games(&store, "season")[0].worker.as_deref() == Some("playing"),
    );
    // The second finds nothing to claim and waits for work.
    let idle = Running::start(worker(dir.path(), store_text, "idle", &[]));
    idle.wait_for_log("the second worker starts", "worker starts");
    std::thread::sleep(Duration::from_millis(300));
    let (status, took, stderr) = idle.terminate();
    assert!(!status.success());
    assert!(
        stderr.contains("stopped before the season was over"),
        "{stderr}"
    );
    eprintln!("waiting for work: ended {took:?} after SIGTERM");

    // The first is in the middle of its game.
    std::thread::sleep(Duration::from_millis(500));
    let row = &games(&store, "season")[0];
    assert_eq!(
        (row.state, row.worker.as_deref()),
        (GameState::Running, Some("playing"))
    );
    let (status, took, stderr) = playing.terminate();
    assert!(!status.success());
    assert!(
        stderr.contains("stopped before the season was over"),
        "{stderr}"
    );
    eprintln!("playing a game: ended {took:?} after SIGTERM");
    let row = &games(&store, "season")[0];
    assert!(open_again(row), "{row:?}");
}

#[test]
fn a_worker_on_a_stuck_server_keeps_its_lease_and_sigterm_gives_the_game_back() {
    let dir = tempfile::tempdir().unwrap();
    let server = stub_server(None);
    let store = dir.path().join("season.sqlite");
    let store_text = store.to_str().unwrap();
    create_season(
        dir.path(),
        store_text,
        "season",
        &["a=builtin:random", "b=builtin:random"],
    );
    let port = server.port.to_string();
    let stuck = Running::start(worker(
        dir.path(),
        store_text,
        "stuck",
        &[
            "--host",
            "127.0.0.1",
            "--port",
            &port,
            "--admin-passphrase",
            "pass",
        ],
    ));
    wait_until(
        "the worker prepares its game",
        Duration::from_secs(60),
        POLL,
        || server.prepares.load(Ordering::SeqCst) == 1,
    );
    // Well past its 1 s lease, the game is still the worker's: another
    // worker cannot claim it.
    std::thread::sleep(Duration::from_millis(2500));
    let intruder = SqliteStore::open(&store).unwrap();
    let claimed =
        block_on(intruder.claim("season", "intruder", Duration::from_secs(60), 3, None)).unwrap();
    assert_eq!(claimed, None, "the stuck worker's lease ran out");
    let (status, took, stderr) = stuck.terminate();
    assert!(!status.success());
    assert!(
        stderr.contains("stopped before the season was over"),
        "{stderr}"
    );
    eprintln!("waiting on a stuck server: ended {took:?} after SIGTERM");
    let row = &games(&store, "season")[0];
    assert!(open_again(row), "{row:?}");
}

#[test]
fn a_name_the_server_refuses_is_refused_in_one_line_where_it_is_defined() {
    let dir = tempfile::tempdir().unwrap();
    let long = "n".repeat(10_000);
    let player = format!("{long}=builtin:random");
    let refusal = "has 10000 characters; the game server takes at most 100";
    let commands: [(&str, Vec<&str>); 3] = [
        (
            "season create",
            vec![
                "season",
                "create",
                "--store",
                "season.sqlite",
                "--player",
                &player,
                "--player",
                "b=builtin:random",
            ],
        ),
        (
            "tournament",
            vec![
                "tournament",
                "--player",
                &player,
                "--player",
                "b=builtin:random",
            ],
        ),
        (
            "match",
            vec![
                "match",
                "--start-server",
                "--name1",
                &long,
                "--player1",
                "builtin:random",
                "--player2",
                "builtin:random",
            ],
        ),
    ];
    for (command, args) in commands {
        let output = SPIELLEITER.run(dir.path(), &args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        one_line_failure(command, output.status, &stderr, refusal);
        assert!(
            stderr.len() < 300,
            "{command}: the name is not repeated: {stderr}"
        );
    }
    // Nothing was written or started.
    let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert!(left.is_empty(), "{left:?}");

    // A season stored with such a name (by a version that did not check)
    // is refused by its worker at once, not game after game.
    let store = dir.path().join("old.sqlite");
    let definition = SeasonDefinition {
        game: "blokus_bcl".to_owned(),
        players: [long.as_str(), "b"]
            .map(|name| SeasonPlayer {
                name: name.to_owned(),
                start: "builtin:random".to_owned(),
            })
            .to_vec(),
        games_per_table: 1,
        seed: 1,
        timed: false,
    };
    let schedule = [ScheduledGame {
        number: 1,
        table: 0,
        table_game: 1,
    }];
    let written = SqliteStore::open(&store).unwrap();
    block_on(written.create("season", &definition, &schedule)).unwrap();
    let mut running = Running::start(worker(dir.path(), store.to_str().unwrap(), "w", &[]));
    let status = running.wait_at_most(PROMPTLY, "with a season it cannot play");
    std::thread::sleep(Duration::from_millis(50));
    one_line_failure("worker", status, &running.stderr(), refusal);
    assert_eq!(games(&store, "season")[0].attempt, 0, "no game was claimed");
}

/// Issue 34: a season game's replay goes into the store from the memory of
/// the worker's server, written to no file and read back from none. The
/// worker runs in a directory of its own, told to write replays and
/// temporary files beneath a regular file (where no file can be made,
/// even by root): every game's replay is in the store all the same, and
/// the worker's directory is as empty as it was, so no replay was written
/// there either.
#[test]
fn a_workers_replays_go_into_the_store_without_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("season.sqlite");
    let store = path.to_str().unwrap();
    create_season(
        dir.path(),
        store,
        "season",
        &["a=builtin:greedy", "b=builtin:random", "c=builtin:random"],
    );
    std::fs::write(dir.path().join("a-file"), "not a directory").unwrap();
    let nowhere = dir.path().join("a-file");
    let machine = dir.path().join("worker-machine");
    std::fs::create_dir(&machine).unwrap();
    let output = SPIELLEITER
        .command(&machine)
        .args([
            "worker",
            "--store",
            store,
            "--name",
            "season",
            "--worker-name",
            "w",
            "--replay-dir",
            nowhere.join("replays").to_str().unwrap(),
        ])
        .env("TMPDIR", nowhere.join("tmp"))
        .output()
        .unwrap();
    succeeded(&output);
    let rows = games(&path, "season");
    assert_eq!(rows.len(), 3);
    let read = SqliteStore::open(&path).unwrap();
    for row in &rows {
        assert_eq!(row.state, GameState::Done, "{row:?}");
        let record = row.record.as_ref().unwrap();
        assert_eq!(record.replay, None, "the record names no file: {record:?}");
        let gzipped = block_on(read.replay("season", row.game.number))
            .unwrap()
            .unwrap();
        let mut replay = String::new();
        flate2::read::GzDecoder::new(gzipped.as_slice())
            .read_to_string(&mut replay)
            .unwrap();
        // The whole document the server serialised, with the room's think
        // times: a move each.
        assert!(replay.starts_with("<protocol>\n"), "{replay}");
        assert!(replay.ends_with("</protocol>"), "{replay}");
        assert!(replay.contains(&format!("roomId=\"{}\"", record.room)));
        let moves: u32 = record.think_times.iter().map(|t| t.moves).sum();
        assert!(moves > 0, "{record:?}");
        assert_eq!(moves as usize, replay.matches("thinkMicros=\"").count());
    }
    let left: Vec<_> = std::fs::read_dir(&machine)
        .unwrap()
        .map(|entry| entry.unwrap().file_name())
        .collect();
    assert!(left.is_empty(), "the worker wrote {left:?}");
}
