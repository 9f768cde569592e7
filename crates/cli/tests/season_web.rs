//! The season page of `spielleiter serve --store`: a season on the SQLite
//! store is created and played by a worker process, then a server shows
//! it — standings, live rating, progress, its games a page at a time, and
//! a stored replay in the viewer's JSON, as stored and, for classic Blokus,
//! as Pentobi's record.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test.

use std::{
    io::{Read, Write},
    net::TcpStream,
    path::Path,
    time::Duration,
};

use spielleiter_test_support::{Program, succeeded};

/// The binary, without a store or season from the developer's environment.
const SPIELLEITER: Program = Program::new(env!("CARGO_BIN_EXE_spielleiter"))
    .without(&["SPIELLEITER_STORE", "SPIELLEITER_SEASON"]);

/// A season on a SQLite store in a test's directory: `game` between
/// `players` (`NAME=PROGRAM` each).
struct Season<'a> {
    store: &'a str,
    name: &'a str,
    game: &'a str,
    players: &'a [&'a str],
}

impl Season<'_> {
    /// `season create` with `options` after the definition; fails unless
    /// it succeeds.
    fn create(&self, dir: &Path, options: &[&str]) {
        let mut args = vec![
            "season", "create", "--store", self.store, "--name", self.name, "--game", self.game,
        ];
        args.extend(self.players.iter().flat_map(|player| ["--player", player]));
        args.extend(options);
        succeeded(&SPIELLEITER.run(dir, &args));
    }

    /// A worker `w1` (with `options`) plays every game, one at a time,
    /// and ends; fails unless it succeeds.
    fn play(&self, dir: &Path, options: &[&str]) {
        let mut args = vec![
            "worker",
            "--store",
            self.store,
            "--name",
            self.name,
            "--worker-name",
            "w1",
        ];
        args.extend(options);
        succeeded(&SPIELLEITER.run(dir, &args));
    }
}

/// `GET path`: the status and the body, which must be text.
fn get(address: &str, path: &str) -> (u16, String) {
    let (status, _head, body) = get_bytes(address, path);
    (status, String::from_utf8(body).unwrap())
}

/// `GET path`: the status, the head and the body's bytes.
fn get_bytes(address: &str, path: &str) -> (u16, String, Vec<u8>) {
    let mut stream = TcpStream::connect(address).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut response = Vec::new();
    stream.read_to_end(&mut response).unwrap();
    let body_at = response.windows(4).position(|w| w == b"\r\n\r\n").unwrap() + 4;
    let head = String::from_utf8_lossy(&response[..body_at]).into_owned();
    let status = head[9..12].parse().unwrap();
    (status, head, response[body_at..].to_vec())
}

fn json(address: &str, path: &str) -> serde_json::Value {
    let (status, body) = get(address, path);
    assert_eq!(status, 200, "{path}: {body}");
    serde_json::from_str(&body).unwrap()
}

#[test]
fn the_season_page_shows_standings_progress_games_and_stored_replays() {
    let dir = tempfile::tempdir().unwrap();
    let store = "league.sqlite";
    let autumn = Season {
        store,
        name: "autumn",
        game: "blokus_bcl",
        players: &[
            "alpha=builtin:greedy",
            "beta=builtin:random",
            "gamma=builtin:random",
        ],
    };
    autumn.create(
        dir.path(),
        &["--games-per-pair", "1", "--seed", "5", "--no-timeout"],
    );

    // Before any game is played: every game waits, nobody has a result.
    let served = SPIELLEITER.serve(dir.path(), &["--store", store, "--season", "autumn"]);
    let address = served.address.clone();
    let season = json(&address, "/api/season");
    assert_eq!(season["name"], "autumn");
    assert_eq!(season["game"], "blokus_bcl");
    assert_eq!(season["progress"]["total"], 3);
    assert_eq!(season["progress"]["waiting"], 3);
    assert_eq!(season["progress"]["done"], 0);
    let (status, body) = get(&address, "/api/season/games/1/replay");
    assert_eq!(status, 404, "{body}");
    drop(served);

    autumn.play(dir.path(), &["--replay-dir", "replays"]);

    let served = SPIELLEITER.serve(dir.path(), &["--store", store, "--season", "autumn"]);
    let address = served.address.clone();
    let season = json(&address, "/api/season");
    let progress = &season["progress"];
    assert_eq!(progress["done"], 3, "{season}");
    assert_eq!(progress["waiting"], 0);
    assert_eq!(progress["workers"][0]["worker"], "w1");
    assert_eq!(progress["workers"][0]["done"], 3);
    let standings = season["standings"].as_array().unwrap();
    assert_eq!(standings.len(), 3);
    // Every player played two games, and each game gave out its points.
    for row in standings {
        assert_eq!(row["games"], 2, "{row}");
        let rating = row["rating"].as_f64().unwrap();
        assert!(row["rating_low"].as_f64().unwrap() <= rating, "{row}");
        assert!(rating <= row["rating_high"].as_f64().unwrap(), "{row}");
    }
    let ratings = season["ratings"].as_array().unwrap();
    assert_eq!(ratings.len(), 3);
    assert!(
        ratings
            .iter()
            .all(|r| r["interval"].as_f64().unwrap() > 0.0)
    );

    // The games a page at a time: the limit is honoured, and capped.
    let page = json(&address, "/api/season/games?first=2&limit=1");
    assert_eq!(page["total"], 3);
    let games = page["games"].as_array().unwrap();
    assert_eq!(games.len(), 1);
    assert_eq!(games[0]["number"], 2);
    assert_eq!(games[0]["state"], "done");
    assert_eq!(games[0]["players"].as_array().unwrap().len(), 2);
    assert_eq!(games[0]["replay"], true);
    let page = json(&address, "/api/season/games?limit=100000");
    assert_eq!(page["games"].as_array().unwrap().len(), 3);

    // A stored replay in the viewer's form: the players, every position
    // drawn, the result.
    let replay = json(&address, "/api/season/games/2/replay");
    assert_eq!(replay["game"], "blokus_bcl");
    assert_eq!(replay["players"], games[0]["players"]);
    let frames = replay["frames"].as_array().unwrap();
    assert!(frames.len() > 2, "{} frames", frames.len());
    assert!(frames[0]["svg"].as_str().unwrap().starts_with("<svg"));
    assert!(replay["result"].is_object(), "{}", replay["result"]);
    // Every move in words, with the think times the worker's server
    // recorded, and the stored replay to download.
    assert!(
        frames[1..].iter().all(|f| f["words"].is_string()),
        "{:.400}",
        frames[1]
    );
    assert!(
        frames[1..].iter().any(|f| f["think_micros"].is_u64()),
        "{:.400}",
        frames[1]
    );
    let download = replay["downloads"][0]["href"].as_str().unwrap();
    assert_eq!(download, "/api/season/games/2/replay.xml.gz");
    let (_, head, body) = get_bytes(&address, download);
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    assert_eq!(&body[..2], &[0x1f, 0x8b], "a gzipped replay");
    let (status, body) = get(&address, "/api/season/games/99/replay");
    assert_eq!(status, 404, "{body}");
    assert!(body.contains("no replay is stored for game 99"), "{body}");
    // The BLOKUS Champions League is no classic Blokus: no Pentobi record
    // is offered, and asking for one says why.
    assert_eq!(replay["downloads"].as_array().unwrap().len(), 1);
    let (status, body) = get(&address, "/api/season/games/2/replay.blksgf");
    assert_eq!(status, 404, "{body}");
    assert!(
        body.contains("the blksgf format is for classic Blokus, not"),
        "{body}"
    );

    // The pages themselves.
    let (status, page) = get(&address, "/season");
    assert_eq!(status, 200);
    assert!(page.contains("sl.seasonPage()"), "{page}");
    let (status, page) = get(&address, "/season/games/2");
    assert_eq!(status, 200);
    assert!(page.contains("sl.replayPage()"), "{page}");
}

/// `serve` with `extra` arguments after the ports, to fail before it
/// listens: its one line on stderr.
fn refused_serve(dir: &Path, extra: &[&str]) -> String {
    let mut args = vec![
        "serve",
        "--port",
        "0",
        "--http-port",
        "0",
        "--replays",
        "false",
    ];
    args.extend(extra);
    let output = SPIELLEITER.run(dir, &args);
    let error = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(!output.status.success(), "{error}");
    assert!(!error.contains("listening"), "{error}");
    let errors: Vec<&str> = (error.lines())
        .filter(|line| line.starts_with("spielleiter:"))
        .collect();
    assert_eq!(errors.len(), 1, "{error}");
    errors[0].to_owned()
}

#[test]
fn a_classic_games_pentobi_record_is_what_replay_export_makes_of_its_replay() {
    let dir = tempfile::tempdir().unwrap();
    let store = "classic.sqlite";
    let duo = Season {
        store,
        name: "duo",
        game: "blokus_classic_2",
        players: &["alpha=builtin:greedy", "beta=builtin:random"],
    };
    duo.create(
        dir.path(),
        &["--games-per-pair", "1", "--seed", "11", "--no-timeout"],
    );
    duo.play(dir.path(), &[]);
    let served = SPIELLEITER.serve(dir.path(), &["--store", store, "--season", "duo"]);
    let address = served.address.clone();
    let replay = json(&address, "/api/season/games/1/replay");
    assert_eq!(replay["game"], "blokus_classic_2");
    assert_eq!(
        replay["downloads"][1]["href"], "/api/season/games/1/replay.blksgf",
        "{}",
        replay["downloads"]
    );

    let (status, head, record) = get_bytes(&address, "/api/season/games/1/replay.blksgf");
    assert_eq!(status, 200, "{head}");
    assert!(
        head.to_ascii_lowercase()
            .contains("content-type: application/x-blokus-sgf"),
        "{head}"
    );
    assert!(
        head.contains("season_game_1_blokus_classic_2.blksgf"),
        "{head}"
    );
    // The stored replay, exported on the command line: the same bytes.
    let (status, head, stored) = get_bytes(&address, "/api/season/games/1/replay.xml.gz");
    assert_eq!(status, 200, "{head}");
    std::fs::write(dir.path().join("game_1.xml.gz"), &stored).unwrap();
    let exported = succeeded(&SPIELLEITER.run(
        dir.path(),
        &[
            "replay",
            "export",
            "game_1.xml.gz",
            "--format",
            "blksgf",
            "--game",
            "blokus_classic_2",
        ],
    ));
    assert!(exported.starts_with("(;"), "{exported:.200}");
    assert!(
        exported.contains("\n;1["),
        "moves recorded: {exported:.400}"
    );
    assert_eq!(String::from_utf8(record).unwrap(), exported);
}

#[test]
fn serve_with_a_store_without_the_season_refuses_to_start_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    // A file that is not there is not made.
    let error = refused_serve(dir.path(), &["--store", "typo.sqlite"]);
    assert!(error.contains("typo.sqlite does not exist"), "{error}");
    assert!(!dir.path().join("typo.sqlite").exists());

    // A store of other seasons names them.
    let tournament = Season {
        store: "league.sqlite",
        name: "tournament",
        game: "blokus_bcl",
        players: &["a=builtin:random", "b=builtin:greedy"],
    };
    tournament.create(dir.path(), &[]);
    let error = refused_serve(
        dir.path(),
        &["--store", "league.sqlite", "--season", "nothing"],
    );
    assert!(error.contains("no season named `nothing`"), "{error}");
    assert!(error.contains("it holds `tournament`"), "{error}");

    // The same from the config file's keys; the flag wins over the file.
    std::fs::write(
        dir.path().join("spielleiter.toml"),
        "[season]\nstore = \"league.sqlite\"\nname = \"spring\"\n",
    )
    .unwrap();
    let error = refused_serve(dir.path(), &["--config", "spielleiter.toml"]);
    assert!(error.contains("no season named `spring`"), "{error}");
    let error = refused_serve(
        dir.path(),
        &["--config", "spielleiter.toml", "--season", "autumn"],
    );
    assert!(error.contains("no season named `autumn`"), "{error}");
}

#[test]
fn without_a_store_the_season_routes_say_so() {
    let dir = tempfile::tempdir().unwrap();
    let served = SPIELLEITER.serve(dir.path(), &[]);
    let address = served.address.clone();
    let (status, body) = get(&address, "/api/season");
    assert_eq!(status, 404, "{body}");
    assert!(body.contains("no season is served"), "{body}");
}

#[test]
fn a_season_without_a_name_is_named_after_its_game_and_day_and_found_alone() {
    let dir = tempfile::tempdir().unwrap();
    let create = |extra: &[&str]| {
        let mut args = vec![
            "season",
            "create",
            "--store",
            "named.sqlite",
            "--game",
            "blokus_bcl",
            "--player",
            "a=builtin:random",
            "--player",
            "b=builtin:greedy",
        ];
        args.extend(extra);
        SPIELLEITER.run(dir.path(), &args)
    };
    let created = succeeded(&create(&[]));
    let day = created
        .strip_prefix("season \"blokus_bcl-")
        .and_then(|rest| rest.split_once('"'))
        .map(|(day, _)| day.to_owned())
        .unwrap_or_else(|| panic!("not named after its game: {created}"));
    let digits: Vec<&str> = day.split('-').collect();
    assert!(
        digits.len() == 3 && digits.iter().all(|d| d.parse::<u32>().is_ok()),
        "not a day: {day}"
    );
    let name = format!("blokus_bcl-{day}");
    assert!(!created.contains("season season"), "{created}");
    // The other commands find the store's only season without a name.
    let status =
        succeeded(&SPIELLEITER.run(dir.path(), &["season", "status", "--store", "named.sqlite"]));
    assert!(
        status.starts_with(&format!("season \"{name}\" (blokus_bcl")),
        "{status}"
    );
    // With two, a name is needed, and the refusal names both.
    succeeded(&create(&["--name", "spring"]));
    let both = SPIELLEITER.run(dir.path(), &["season", "status", "--store", "named.sqlite"]);
    assert!(!both.status.success());
    let error = String::from_utf8_lossy(&both.stderr);
    assert!(
        error.contains(&format!(
            "holds 2 seasons ({name}, spring); name one with --name"
        )),
        "{error}"
    );
}

#[test]
fn a_worker_leaves_no_replays_directory_and_its_help_names_only_what_it_uses() {
    let dir = tempfile::tempdir().unwrap();
    let season = Season {
        store: "work.sqlite",
        name: "work",
        game: "blokus_bcl",
        players: &["a=builtin:random", "b=builtin:greedy"],
    };
    season.create(
        dir.path(),
        &["--games-per-pair", "1", "--seed", "3", "--no-timeout"],
    );
    season.play(dir.path(), &[]);
    // The replays went into the store, through a directory of the worker's
    // own: none is left in the working directory.
    assert!(!dir.path().join("replays").exists());
    let replay = SPIELLEITER.run(
        dir.path(),
        &[
            "season",
            "replay",
            "--store",
            "work.sqlite",
            "1",
            "-o",
            "one.xml.gz",
        ],
    );
    succeeded(&replay);
    assert!(dir.path().join("one.xml.gz").metadata().unwrap().len() > 100);

    let help = succeeded(&SPIELLEITER.run(dir.path(), &["worker", "--help"]));
    for used in [
        "--store",
        "--slots",
        "--log-dir",
        "--replay-dir",
        "--sandbox-cpus",
    ] {
        assert!(help.contains(used), "{used} missing: {help}");
    }
    // The season's seed makes each game's randomness, and the server is
    // the worker's own.
    for unused in ["--seed", "--server-connections", "--start-server"] {
        assert!(!help.contains(unused), "{unused} listed: {help}");
    }
}
