//! A season on PostgreSQL as organisers run it: `spielleiter season` and
//! `spielleiter worker` processes against a PostgreSQL server this test
//! starts itself (its own data directory in a temporary directory, its own
//! port, stopped at the end). A worker killed with SIGKILL mid-game, the
//! database restarted mid-season, a worker stopped (SIGSTOP) past its lease
//! and continued after its game was played by another, and bad input.
//! A season's finished games served whole from the store (record, replay,
//! players' logs, wire log) after its worker's directory is gone, on
//! SQLite and on PostgreSQL (the store's own cases, on both, are the season
//! crate's).
//!
//! The tests that need PostgreSQL's programs (`initdb`, `pg_ctl`) carry
//! `postgres` in their names and fail without them; `cargo test --workspace
//! -- --skip postgres` leaves them out.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test.

use std::{
    path::Path,
    process::{Child, Command, Output, Stdio},
    time::Duration,
};

use spielleiter_test_support::{
    POSTGRES_PASSWORD, Postgres, Program, free_port, script, succeeded, wait_until,
};

/// The binary, without a store from the developer's environment.
const SPIELLEITER: Program =
    Program::new(env!("CARGO_BIN_EXE_spielleiter")).without(&["SPIELLEITER_STORE"]);
const BINARY: &str = SPIELLEITER.path();
const PASSWORD: &str = POSTGRES_PASSWORD;
/// How often a test looks at the database while it waits (each look runs
/// `psql`).
const POLL: Duration = Duration::from_millis(50);

/// A worker process, killed when the test ends before it is finished.
fn worker(dir: &Path, store: &str, name: &str, extra: &[&str]) -> KillOnDrop {
    let child = SPIELLEITER
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
        .unwrap();
    KillOnDrop(Some(child))
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

/// Waits for the process to end; its outputs.
fn finish(mut process: KillOnDrop) -> Output {
    process.0.take().unwrap().wait_with_output().unwrap()
}

#[test]
fn a_postgres_season_survives_a_killed_worker_and_a_database_restart_and_matches_a_tournament() {
    let pg = Postgres::start();
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
    let workers: Vec<KillOnDrop> = ["w1", "w2", "w3"]
        .iter()
        .map(|name| worker(dir.path(), &store, name, &[]))
        .collect();
    let mut workers = workers.into_iter();
    let mut victim = workers.next().unwrap();
    // Killed while it holds a game: frozen first, so that the game it
    // holds is known for certain, then killed.
    let pid = victim.child().id().to_string();
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
    victim.child().kill().unwrap();
    victim.child().wait().unwrap();
    // The database restarted in the middle of the season: while a live
    // worker holds a game and games wait.
    let states = || {
        let counts = pg.sql(
            "season",
            "SELECT count(*) FILTER (WHERE state = 'done'), \
             count(*) FILTER (WHERE state = 'running'), \
             count(*) FILTER (WHERE state = 'waiting') FROM games",
        );
        let counts: Vec<u32> = counts.split('|').map(|n| n.parse().unwrap()).collect();
        (counts[0], counts[1], counts[2])
    };
    let mut at_restart = (0, 0, 0);
    wait_until(
        "more games done, one running",
        Duration::from_secs(120),
        POLL,
        || {
            at_restart = states();
            at_restart.0 >= 20 && at_restart.1 >= 1
        },
    );
    pg.pg_ctl("restart");
    let (done, running, waiting) = at_restart;
    assert!(
        running >= 1 && waiting >= 1,
        "open games at the restart: {running} running, {waiting} waiting"
    );
    let (done_after, _, _) = states();
    assert!(
        done_after < 60,
        "the season was over at the restart ({done} done before, {done_after} after)"
    );
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
    // Each claim raises a game's attempt: the killed worker's game was
    // claimed twice (by the killed worker, then by a live one), every
    // other game once, the restart notwithstanding.
    assert_eq!(
        pg.sql(
            "season",
            "SELECT number, attempt FROM games WHERE attempt <> 1 ORDER BY number"
        ),
        format!("{held}|2"),
        "games claimed other than once"
    );
    // The live workers' own logs say the same: no game claimed twice, and
    // every game claimed but those the killed worker played to the end.
    let mut claimed: Vec<u32> = outputs
        .iter()
        .flat_map(|output| {
            String::from_utf8_lossy(&output.stderr)
                .lines()
                .filter(|line| line.contains("game claimed"))
                .map(|line| {
                    let field = line
                        .split_whitespace()
                        .find_map(|field| field.strip_prefix("game="))
                        .unwrap_or_else(|| panic!("no game in {line}"));
                    field.parse().unwrap()
                })
                .collect::<Vec<u32>>()
        })
        .collect();
    let by_victim: Vec<u32> = pg
        .sql(
            "season",
            "SELECT number FROM games WHERE worker = 'w1' ORDER BY number",
        )
        .lines()
        .map(|n| n.parse().unwrap())
        .collect();
    assert!(
        !by_victim.is_empty(),
        "w1 played games before it was killed"
    );
    claimed.extend(&by_victim);
    claimed.sort_unstable();
    assert_eq!(
        claimed,
        (1..=60).collect::<Vec<u32>>(),
        "the live workers' claims and w1's results ({by_victim:?})"
    );

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

/// A worker stopped (SIGSTOP) past its lease and continued after another
/// played its game writes nothing, whichever fence it meets first: its
/// heartbeat (refused, the game abandoned) or its result's (refused). Which
/// one is a race; the result's fence alone is the store tests' (a result
/// under an expired lease, under a superseded attempt, on PostgreSQL too).
#[test]
fn a_postgres_worker_stopped_past_its_lease_writes_nothing() {
    let pg = Postgres::start();
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
    let mut stopped = worker(dir.path(), &store, "stopped", &[]);
    let pid = stopped.child().id().to_string();
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
fn bad_input_to_a_postgres_store_is_refused_in_one_line_and_writes_nothing() {
    let pg = Postgres::start();
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
            &format!(
                "postgres://spielleiter:wrong@127.0.0.1:{}/season",
                pg.port()
            ),
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
        &format!(
            "schema version 99, newer than this program's {}",
            spielleiter_season::SCHEMA_VERSION
        ),
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

/// `GET path` on the web side at `address`: the status and the body.
fn http_get(address: &str, path: &str) -> (u16, Vec<u8>) {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(address).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    // HTTP/1.0: a streamed body comes as it is, not in chunks.
    write!(stream, "GET {path} HTTP/1.0\r\nHost: test\r\n\r\n").unwrap();
    let mut response = Vec::new();
    stream.read_to_end(&mut response).unwrap();
    let body_at = response.windows(4).position(|w| w == b"\r\n\r\n").unwrap() + 4;
    let head = String::from_utf8_lossy(&response[..body_at]).into_owned();
    (head[9..12].parse().unwrap(), response[body_at..].to_vec())
}

/// Starts `serve --store STORE` on free ports: the server (killed when
/// dropped) and its web side's address, read from its log.
fn serve_season(dir: &Path, store: &str) -> (KillOnDrop, String) {
    use std::io::BufRead;
    let mut child = SPIELLEITER
        .command(dir)
        .args([
            "serve",
            "--port",
            "0",
            "--http-port",
            "0",
            "--replays",
            "false",
            "--store",
            store,
        ])
        .env("RUST_LOG", "info")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = std::io::BufReader::new(child.stderr.take().unwrap()).lines();
    let server = KillOnDrop(Some(child));
    loop {
        let line = lines
            .next()
            .expect("the server ended before serving")
            .unwrap();
        if let Some((_, rest)) = line.split_once("web pages on http://") {
            let address = rest.split('/').next().unwrap().to_owned();
            std::thread::spawn(move || for _ in lines {});
            return (server, address);
        }
    }
}

/// A child process killed when the test ends, however it ends, unless it
/// was finished ([`finish`]).
struct KillOnDrop(Option<Child>);

impl KillOnDrop {
    fn child(&mut self) -> &mut Child {
        self.0.as_mut().unwrap()
    }
}

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        if let Some(child) = &mut self.0 {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// Issue 34's first "done when": a season game played by a worker in a
/// directory deleted afterwards has its record, replay, both players' logs
/// and its wire log served from the store `store` by `season replay`,
/// `season log` and the web pages.
fn a_games_parts_are_served_from_the_store_after_its_worker_is_gone(store: &str) {
    let dir = tempfile::tempdir().unwrap();
    for name in ["alice", "bob"] {
        script(
            dir.path(),
            &format!("{name}.sh"),
            &format!(
                "echo \"{name} says hello\"\nexec {BINARY} play --game blokus_bcl --bot random \"$@\""
            ),
        );
    }
    let players: Vec<String> = ["alice", "bob"]
        .iter()
        .map(|name| format!("{name}={}", dir.path().join(format!("{name}.sh")).display()))
        .collect();
    let mut create = vec![
        "season",
        "create",
        "--store",
        store,
        "--game",
        "blokus_bcl",
        "--games-per-pair",
        "2",
        "--seed",
        "11",
    ];
    create.extend(players.iter().flat_map(|p| ["--player", p.as_str()]));
    succeeded(&SPIELLEITER.run(dir.path(), &create));
    // The worker's directory (its players' log files, anything it writes)
    // is deleted once it is done.
    let machine = dir.path().join("worker-machine");
    std::fs::create_dir(&machine).unwrap();
    let worker = SPIELLEITER.run(
        &machine,
        &[
            "worker",
            "--store",
            store,
            "--worker-name",
            "w1",
            "--wire-log",
        ],
    );
    succeeded(&worker);
    std::fs::remove_dir_all(&machine).unwrap();

    // `season replay`: the official document, gzipped.
    let out = dir.path().join("game1.xml.gz");
    succeeded(&SPIELLEITER.run(
        dir.path(),
        &[
            "season",
            "replay",
            "--store",
            store,
            "1",
            "-o",
            out.to_str().unwrap(),
        ],
    ));
    let mut replay = String::new();
    std::io::Read::read_to_string(
        &mut flate2::read::GzDecoder::new(std::fs::File::open(&out).unwrap()),
        &mut replay,
    )
    .unwrap();
    assert!(replay.starts_with("<protocol>\n<room roomId="), "{replay}");
    assert!(replay.ends_with("</protocol>"), "{replay}");
    assert!(replay.contains("thinkMicros="), "the room's think times");

    // `season log`: each player's output, and the wire log.
    for name in ["alice", "bob"] {
        let log = succeeded(&SPIELLEITER.run(
            dir.path(),
            &["season", "log", "--store", store, "1", "--player", name],
        ));
        assert!(log.contains(&format!("{name} says hello")), "{log}");
        assert!(log.contains("[spielleiter]"), "the runner's header: {log}");
    }
    let wire = succeeded(&SPIELLEITER.run(
        dir.path(),
        &["season", "log", "--store", store, "2", "--wire"],
    ));
    assert!(wire.starts_with("# Spielleiter wire log"), "{wire}");
    assert!(wire.contains("bytes received"), "{wire}");
    let nobody = SPIELLEITER.run(
        dir.path(),
        &["season", "log", "--store", store, "1", "--player", "carol"],
    );
    refused(&nobody, "carol");

    // The web pages: the record's players, the replay, the logs.
    let (_server, address) = serve_season(dir.path(), store);
    let (status, body) = http_get(&address, "/api/season/games?first=1&limit=2");
    assert_eq!(status, 200, "{}", String::from_utf8_lossy(&body));
    let page: serde_json::Value = serde_json::from_slice(&body).unwrap();
    let games = page["games"].as_array().unwrap();
    assert!(
        games
            .iter()
            .all(|g| g["state"] == "done" && g["replay"] == true),
        "{page}"
    );
    let mut players: Vec<&str> = games[0]["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap())
        .collect();
    players.sort_unstable();
    assert_eq!(players, ["alice", "bob"]);
    let (status, body) = http_get(&address, "/api/season/games/1/replay");
    assert_eq!(status, 200, "{}", String::from_utf8_lossy(&body));
    let view: serde_json::Value = serde_json::from_slice(&body).unwrap();
    assert!(view["frames"].as_array().unwrap().len() > 1, "{view}");
    let downloads: Vec<(String, String)> = view["downloads"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["label"].as_str().unwrap().to_owned(),
                d["href"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    for (label, text) in [
        ("log of alice", "alice says hello"),
        ("log of bob", "bob says hello"),
        ("wire log", "# Spielleiter wire log"),
    ] {
        let (_, href) = downloads
            .iter()
            .find(|(l, _)| l == label)
            .unwrap_or_else(|| panic!("no {label}: {downloads:?}"));
        let (status, body) = http_get(&address, href);
        let body = String::from_utf8_lossy(&body);
        assert_eq!(status, 200, "{href}: {body}");
        assert!(body.contains(text), "{href}: {body}");
    }
}

#[test]
fn a_sqlite_seasons_games_are_served_whole_from_the_store() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("league.sqlite");
    a_games_parts_are_served_from_the_store_after_its_worker_is_gone(store.to_str().unwrap());
}

#[test]
fn a_postgres_seasons_games_are_served_whole_from_the_store() {
    let pg = Postgres::start();
    a_games_parts_are_served_from_the_store_after_its_worker_is_gone(&pg.url("season"));
}

/// Runs `serve --store store` until it logs which season it shows; that
/// line.
fn served_season_line(dir: &Path, store: &str) -> String {
    use std::io::BufRead;
    let mut child = SPIELLEITER
        .command(dir)
        .args([
            "serve",
            "--port",
            "0",
            "--http-port",
            "0",
            "--replays",
            "false",
            "--store",
            store,
        ])
        .env("RUST_LOG", "info")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let lines = std::io::BufReader::new(child.stderr.take().unwrap()).lines();
    let mut found = None;
    let mut seen = String::new();
    for line in lines {
        let line = line.unwrap();
        seen.push_str(&line);
        seen.push('\n');
        if line.contains("the season page shows its season") {
            found = Some(line);
            break;
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    found.unwrap_or_else(|| panic!("serve never named its season:\n{seen}"))
}

#[test]
fn a_postgres_store_is_named_with_its_password_masked_in_every_form() {
    let pg = Postgres::start();
    let dir = tempfile::tempdir().unwrap();
    let port = pg.port();
    let forms = [
        format!("postgres://spielleiter@127.0.0.1:{port}/season?password={PASSWORD}"),
        format!("postgres://spielleiter:{PASSWORD}@127.0.0.1:{port}/season"),
        format!("host=127.0.0.1 port={port} user=spielleiter password='{PASSWORD}' dbname=season"),
    ];
    for store in &forms {
        let create = [
            "season",
            "create",
            "--store",
            store,
            "--seed",
            "4",
            "--player",
            "a=builtin:random",
            "--player",
            "b=builtin:random",
        ];
        let created = succeeded(&SPIELLEITER.run(dir.path(), &create));
        let status =
            succeeded(&SPIELLEITER.run(dir.path(), &["season", "status", "--store", store]));
        let served = served_season_line(dir.path(), store);
        for shown in [&created, &status, &served] {
            assert!(shown.contains("***"), "{store}: {shown}");
            assert!(!shown.contains(PASSWORD), "{store}: {shown}");
        }
        // Refused, also in one line without the password.
        let wrong = store.replace(PASSWORD, "wrong-secret");
        let refused_create = SPIELLEITER.run(
            dir.path(),
            &["season", "status", "--store", &wrong, "--name", "nothing"],
        );
        refused(&refused_create, "password authentication failed");
        assert!(
            !String::from_utf8_lossy(&refused_create.stderr).contains("wrong-secret"),
            "{refused_create:?}"
        );
        let missing = SPIELLEITER.run(
            dir.path(),
            &["season", "status", "--store", store, "--name", "nothing"],
        );
        refused(&missing, "no season named `nothing`");
    }
    // Every form named the same database: one season, created once.
    assert_eq!(pg.sql("season", "SELECT count(*) FROM seasons"), "1");
}
