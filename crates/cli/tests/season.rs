//! A season on PostgreSQL as organisers run it: `spielleiter season` and
//! `spielleiter worker` processes against a PostgreSQL server this test
//! starts itself (its own data directory in a temporary directory, its own
//! port, stopped at the end). A worker killed with SIGKILL mid-game, the
//! database restarted mid-season, a worker stopped (SIGSTOP) past its lease
//! and continued after its game was played by another, and bad input.
//!
//! Without PostgreSQL's programs (`initdb`, `pg_ctl`) the tests say so and
//! pass; with `SPIELLEITER_REQUIRE_POSTGRES=1` (as `.ci/run` sets) a missing
//! PostgreSQL fails them.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test.

use std::{
    os::unix::fs::PermissionsExt,
    path::{Path, PathBuf},
    process::{Child, Command, Output, Stdio},
    time::Duration,
};

use spielleiter_test_support::{Program, free_port, script, succeeded, wait_until};

/// The binary, without a store from the developer's environment.
const SPIELLEITER: Program =
    Program::new(env!("CARGO_BIN_EXE_spielleiter")).without(&["SPIELLEITER_STORE"]);
const BINARY: &str = SPIELLEITER.path();
const PASSWORD: &str = "season-test-password";
/// How often a test looks at the database while it waits (each look runs
/// `psql`).
const POLL: Duration = Duration::from_millis(50);

/// A PostgreSQL server of this test's own.
struct Postgres {
    dir: tempfile::TempDir,
    bin: PathBuf,
    port: u16,
    /// As root, the server runs as the `postgres` user (it refuses root).
    as_user: Option<&'static str>,
}

fn postgres_bin() -> Option<PathBuf> {
    let mut candidates: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .map(|entry| entry.path().join("bin"))
        .collect();
    candidates.sort();
    candidates.reverse();
    if let Some(path) = std::env::var_os("PATH") {
        candidates.extend(std::env::split_paths(&path));
    }
    candidates
        .into_iter()
        .find(|dir| dir.join("initdb").is_file() && dir.join("pg_ctl").is_file())
}

/// The server, or `None` (and a printed reason) when PostgreSQL is not
/// installed and not required.
fn postgres() -> Option<Postgres> {
    let Some(bin) = postgres_bin() else {
        let required = std::env::var("SPIELLEITER_REQUIRE_POSTGRES").is_ok_and(|v| v == "1");
        assert!(
            !required,
            "SPIELLEITER_REQUIRE_POSTGRES=1, but no PostgreSQL programs (initdb, pg_ctl) are installed"
        );
        eprintln!(
            "SKIPPED: no PostgreSQL programs (initdb, pg_ctl) in /usr/lib/postgresql/*/bin or on PATH; \
             install PostgreSQL (Debian: apt-get install postgresql) to run the season tests"
        );
        return None;
    };
    let root = Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0");
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let port = free_port();
    let server = Postgres {
        dir,
        bin,
        port,
        as_user: root.then_some("postgres"),
    };
    let data = server.data();
    std::fs::create_dir(&data).unwrap();
    std::fs::write(server.dir.path().join("pw"), PASSWORD).unwrap();
    if let Some(user) = server.as_user {
        let chown = Command::new("chown")
            .args(["-R", user])
            .arg(server.dir.path())
            .status()
            .unwrap();
        assert!(chown.success());
    }
    let pwfile = format!("--pwfile={}", server.dir.path().join("pw").display());
    server.run(
        "initdb",
        &[
            "-D",
            data.to_str().unwrap(),
            "-U",
            "spielleiter",
            &pwfile,
            "--auth=scram-sha-256",
            "-E",
            "UTF8",
            "--no-sync",
        ],
    );
    server.start();
    server.sql("postgres", "CREATE DATABASE season");
    Some(server)
}

impl Postgres {
    fn data(&self) -> PathBuf {
        self.dir.path().join("data")
    }

    /// A command for one of PostgreSQL's programs, as the server's user.
    fn command(&self, program: &str) -> Command {
        let exe = self.bin.join(program);
        match self.as_user {
            Some(user) => {
                let mut command = Command::new("runuser");
                command.args(["-u", user, "--"]).arg(&exe);
                command
            }
            None => Command::new(&exe),
        }
    }

    fn run(&self, program: &str, args: &[&str]) {
        let output = self.command(program).args(args).output().unwrap();
        assert!(
            output.status.success(),
            "{program} failed: {}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
    }

    fn pg_ctl(&self, action: &str) {
        let data = self.data();
        let log = self.dir.path().join("postgres.log");
        let options = format!(
            "-p {} -k {} -c listen_addresses=127.0.0.1 -c fsync=off",
            self.port,
            data.display()
        );
        self.run(
            "pg_ctl",
            &[
                "-D",
                data.to_str().unwrap(),
                "-l",
                log.to_str().unwrap(),
                "-o",
                &options,
                "-m",
                "fast",
                "-w",
                action,
            ],
        );
    }

    fn start(&self) {
        self.pg_ctl("start");
    }

    fn url(&self, database: &str) -> String {
        format!(
            "postgres://spielleiter:{PASSWORD}@127.0.0.1:{}/{database}",
            self.port
        )
    }

    /// Runs `sql` in `database`; its output, unaligned.
    fn sql(&self, database: &str, sql: &str) -> String {
        let output = Command::new(self.bin.join("psql"))
            .args(["-X", "-tA", "-v", "ON_ERROR_STOP=1", "-d"])
            .arg(self.url(database))
            .args(["-c", sql])
            .output()
            .unwrap();
        assert!(
            output.status.success(),
            "psql {sql}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        String::from_utf8_lossy(&output.stdout).trim().to_owned()
    }
}

impl Drop for Postgres {
    fn drop(&mut self) {
        let data = self.data();
        let _ = self
            .command("pg_ctl")
            .args([
                "-D",
                data.to_str().unwrap_or_default(),
                "-m",
                "immediate",
                "stop",
            ])
            .output();
    }
}

fn worker(dir: &Path, store: &str, name: &str, extra: &[&str]) -> Child {
    SPIELLEITER
        .command(dir)
        .args([
            "worker",
            "--store",
            store,
            "--worker-name",
            name,
            "--lease-ms",
            "3000",
            "--heartbeat-ms",
            "500",
            "--replay-dir",
            &format!("replays-{name}"),
        ])
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Six built-in bots, every pair four times: 60 games.
const PLAYERS: [&str; 6] = [
    "a=builtin:random",
    "b=builtin:greedy",
    "c=builtin:random",
    "d=builtin:greedy",
    "e=builtin:random",
    "f=builtin:random",
];

fn player_args() -> Vec<&'static str> {
    PLAYERS.iter().flat_map(|p| ["--player", p]).collect()
}

fn finish(child: Child) -> Output {
    child.wait_with_output().unwrap()
}

#[test]
fn a_season_survives_a_killed_worker_and_a_database_restart_and_matches_a_tournament() {
    let Some(pg) = postgres() else { return };
    let dir = tempfile::tempdir().unwrap();
    let store = pg.url("season");
    let mut create = vec![
        "season",
        "create",
        "--store",
        &store,
        "--game",
        "blokus_bcl",
        "--games-per-pair",
        "4",
        "--seed",
        "7",
        "--no-timeout",
    ];
    create.extend(player_args());
    let created = succeeded(&SPIELLEITER.run(dir.path(), &create));
    assert!(created.contains("60 games"), "{created}");
    // The same definition again changes nothing.
    let again = succeeded(&SPIELLEITER.run(dir.path(), &create));
    assert!(again.contains("nothing changed"), "{again}");

    let count = |state: &str| -> u32 {
        pg.sql(
            "season",
            &format!("SELECT count(*) FROM games WHERE state = '{state}'"),
        )
        .parse()
        .unwrap()
    };
    let workers: Vec<Child> = ["w1", "w2", "w3"]
        .iter()
        .map(|name| worker(dir.path(), &store, name, &[]))
        .collect();
    let mut workers = workers.into_iter();
    let mut victim = workers.next().unwrap();
    // Killed while it holds a game: frozen first, so that the game it
    // holds is known for certain, then killed.
    let pid = victim.id().to_string();
    let signal = |name: &str| {
        assert!(
            Command::new("kill")
                .args([name, &pid])
                .status()
                .unwrap()
                .success()
        );
    };
    let held = loop {
        wait_until("w1 holds a game", Duration::from_secs(120), POLL, || {
            count("done") >= 3
                && pg.sql(
                    "season",
                    "SELECT count(*) FROM games WHERE state = 'running' AND worker = 'w1'",
                ) == "1"
        });
        signal("-STOP");
        let held = pg.sql(
            "season",
            "SELECT number FROM games WHERE state = 'running' AND worker = 'w1'",
        );
        if !held.is_empty() {
            break held;
        }
        signal("-CONT");
    };
    victim.kill().unwrap();
    victim.wait().unwrap();
    // The database restarted in the middle of the season.
    wait_until("more games done", Duration::from_secs(120), POLL, || {
        count("done") >= 20
    });
    pg.pg_ctl("restart");
    let outputs: Vec<Output> = workers.map(finish).collect();
    for output in &outputs {
        succeeded(output);
    }
    assert_eq!(count("done"), 60);
    assert_eq!(
        pg.sql(
            "season",
            "SELECT count(*) FROM games WHERE record IS NOT NULL AND replay IS NOT NULL"
        ),
        "60"
    );
    // The killed worker's game was claimed again and played once.
    let attempts: u32 = pg
        .sql(
            "season",
            &format!("SELECT attempt FROM games WHERE number = {held}"),
        )
        .parse()
        .unwrap();
    assert!(attempts >= 2, "game {held}: attempt {attempts}");
    // Every other game was claimed once, but for the few in flight when
    // the database restarted.
    let again: u32 = pg
        .sql("season", "SELECT count(*) FROM games WHERE attempt > 1")
        .parse()
        .unwrap();
    assert!(again <= 5, "{again} games claimed more than once");

    let standings = succeeded(&SPIELLEITER.run(
        dir.path(),
        &[
            "season",
            "standings",
            "--store",
            &store,
            "--csv",
            "season.csv",
        ],
    ));
    assert!(standings.contains("60 games"), "{standings}");
    let status = succeeded(&SPIELLEITER.run(dir.path(), &["season", "status", "--store", &store]));
    assert!(status.contains("60 of 60 games done"), "{status}");
    let replay = SPIELLEITER.run(
        dir.path(),
        &[
            "season",
            "replay",
            "--store",
            &store,
            &held,
            "-o",
            "held.xml.gz",
        ],
    );
    succeeded(&replay);
    let bytes = std::fs::read(dir.path().join("held.xml.gz")).unwrap();
    assert_eq!(&bytes[..2], &[0x1f, 0x8b], "a gzipped replay");

    // The same season in one process, one game and four at a time.
    for parallel in ["1", "4"] {
        let mut tournament = vec![
            "tournament",
            "--game",
            "blokus_bcl",
            "--games-per-pair",
            "4",
            "--seed",
            "7",
            "--no-timeout",
            "--parallel",
            parallel,
        ];
        let results = format!("tournament-{parallel}.jsonl");
        let csv = format!("tournament-{parallel}.csv");
        tournament.extend(["--results", &results, "--csv", &csv]);
        tournament.extend(player_args());
        succeeded(&SPIELLEITER.run(dir.path(), &tournament));
        // The think times (the last two columns) differ from run to run.
        let standings = |file: &str| -> Vec<String> {
            let text = std::fs::read_to_string(dir.path().join(file)).unwrap();
            text.lines()
                .map(|line| line.rsplitn(3, ',').last().unwrap_or_default().to_owned())
                .collect()
        };
        assert_eq!(
            standings(&csv),
            standings("season.csv"),
            "the tournament with --parallel {parallel} and the season agree"
        );
    }
}

#[test]
fn a_worker_stopped_past_its_lease_cannot_write_its_result() {
    let Some(pg) = postgres() else { return };
    let dir = tempfile::tempdir().unwrap();
    // A slow player: each move after 150 ms, so the game lasts seconds.
    script(
        dir.path(),
        "slow.sh",
        &format!("exec {BINARY} play --game blokus_bcl --bot greedy --think-ms 150 \"$@\""),
    );
    let store = pg.url("season");
    succeeded(&SPIELLEITER.run(
        dir.path(),
        &[
            "season",
            "create",
            "--store",
            &store,
            "--game",
            "blokus_bcl",
            "--games-per-pair",
            "1",
            "--seed",
            "3",
            "--no-timeout",
            "--player",
            "slow=./slow.sh",
            "--player",
            "quick=builtin:random",
        ],
    ));
    let stopped = worker(dir.path(), &store, "stopped", &[]);
    let pid = stopped.id().to_string();
    wait_until(
        "the first worker holds the game",
        Duration::from_secs(60),
        POLL,
        || pg.sql("season", "SELECT worker FROM games WHERE state = 'running'") == "stopped",
    );
    std::thread::sleep(Duration::from_millis(300));
    assert!(
        Command::new("kill")
            .args(["-STOP", &pid])
            .status()
            .unwrap()
            .success()
    );
    // Past the lease, another worker claims the game and plays it.
    std::thread::sleep(Duration::from_millis(3500));
    let other = finish(worker(dir.path(), &store, "other", &[]));
    succeeded(&other);
    assert_eq!(
        pg.sql("season", "SELECT state, worker, attempt FROM games"),
        "done|other|2"
    );
    let stored = pg.sql("season", "SELECT record FROM games");
    assert!(
        Command::new("kill")
            .args(["-CONT", &pid])
            .status()
            .unwrap()
            .success()
    );
    let stopped = finish(stopped);
    let log = String::from_utf8_lossy(&stopped.stderr);
    assert!(log.contains("lease of this game was lost"), "{log}");
    assert!(!log.contains("result stored"), "{log}");
    // The one result stays.
    assert_eq!(
        pg.sql("season", "SELECT state, worker, attempt FROM games"),
        "done|other|2"
    );
    assert_eq!(pg.sql("season", "SELECT record FROM games"), stored);
}

/// One line on standard error naming the problem, a failure status.
fn refused(output: &Output, naming: &str) {
    assert!(!output.status.success(), "{output:?}");
    let error = String::from_utf8_lossy(&output.stderr);
    assert!(error.contains(naming), "{naming}: {error}");
    assert_eq!(error.trim().lines().count(), 1, "one line: {error}");
    assert!(!error.contains(PASSWORD), "{error}");
}

#[test]
fn bad_input_is_refused_in_one_line_and_writes_nothing() {
    let Some(pg) = postgres() else { return };
    let dir = tempfile::tempdir().unwrap();
    let store = pg.url("season");
    let create = |store: &str, game: &str, player: &str| {
        SPIELLEITER.run(
            dir.path(),
            &[
                "season",
                "create",
                "--store",
                store,
                "--game",
                game,
                "--player",
                "a=builtin:random",
                "--player",
                player,
            ],
        )
    };
    let tables = || {
        pg.sql(
            "season",
            "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'",
        )
    };
    refused(
        &create(&store, "blokus_bcl", "b=no-such-client --fast"),
        "`no-such-client` is not found",
    );
    let unknown = create(&store, "chess", "b=builtin:random");
    assert!(!unknown.status.success());
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("chess"));
    assert_eq!(tables(), "0", "nothing written");

    let free_port = free_port();
    refused(
        &create(
            &format!("postgres://spielleiter:{PASSWORD}@127.0.0.1:{free_port}/season"),
            "blokus_bcl",
            "b=builtin:random",
        ),
        "cannot connect",
    );
    refused(
        &create(
            "postgres://spielleiter@127.0.0.1:notaport/season",
            "blokus_bcl",
            "b=builtin:random",
        ),
        "is no store",
    );
    refused(
        &create(
            &format!("postgres://spielleiter:wrong@127.0.0.1:{}/season", pg.port),
            "blokus_bcl",
            "b=builtin:random",
        ),
        "password authentication failed",
    );
    refused(
        &create(&pg.url("nonexistent"), "blokus_bcl", "b=builtin:random"),
        "\"nonexistent\" does not exist",
    );
    assert_eq!(tables(), "0", "nothing written");

    // A schema from a newer version is refused and left as it is.
    succeeded(&create(&store, "blokus_bcl", "b=builtin:random"));
    pg.sql("season", "UPDATE spielleiter_schema SET version = 99");
    let before = pg.sql("season", "SELECT count(*) FROM seasons");
    refused(
        &SPIELLEITER.run(dir.path(), &["season", "status", "--store", &store]),
        "schema version 99, newer than this program's 1",
    );
    refused(
        &SPIELLEITER.run(dir.path(), &["worker", "--store", &store]),
        "schema version 99",
    );
    assert_eq!(
        pg.sql("season", "SELECT version FROM spielleiter_schema"),
        "99"
    );
    assert_eq!(pg.sql("season", "SELECT count(*) FROM seasons"), before);
}
