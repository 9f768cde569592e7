//! A contest's results pages over real HTTP, with real processes, on a
//! SQLite file and on PostgreSQL (`postgres` in the test's name): four
//! teams with built-in bots play a championship matchday on a
//! `worker --contest`; while `serve --store` runs, its pages are asked as
//! nobody, as the teacher of a team of the encounter, as the teacher of a
//! team of the other encounter and as an organiser — before
//! `contest matchday publish 1` an encounter, its games' replays and the
//! table are the organiser's and its two teams' only, after it everybody's.
//! The organiser makes, plays and publishes the matchday on the calendar's
//! page. A team's teacher tests a version on its page: a worker plays its
//! two games against the random bot, the page shows them with their
//! replays, only to that team, and the version can be activated; a member
//! who gave an address on their account page gets their team's notices
//! mailed through a relay (a fake one in this test), once each.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test.

use std::{
    collections::BTreeMap,
    io::{BufRead, BufReader, Read, Write},
    net::{TcpListener, TcpStream},
    path::Path,
    process::Stdio,
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

use spielleiter_contest::{ContestAccounts, Phase, TeamId};
use spielleiter_season::ContestStore;
use spielleiter_test_support::{Postgres, Program, succeeded};

/// The binary, without settings from the developer's environment.
const SPIELLEITER: Program = Program::new(env!("CARGO_BIN_EXE_spielleiter")).without(&[
    "SPIELLEITER_STORE",
    "SPIELLEITER_SEASON",
    "SPIELLEITER_ADMIN_PASSPHRASE",
    "RUST_LOG",
]);

const PASSWORD: &str = "correct horse battery";

/// An answer: status and body.
#[derive(Debug)]
struct Reply {
    status: u16,
    body: String,
}

/// A browser keeping its cookies and the CSRF token of its last form.
struct Browser {
    address: String,
    cookies: BTreeMap<String, String>,
    csrf: String,
}

/// A chunked body, decoded.
fn unchunked(mut body: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let end = body.windows(2).position(|w| w == b"\r\n").unwrap();
        let size = String::from_utf8_lossy(&body[..end]);
        let size = usize::from_str_radix(size.split(';').next().unwrap().trim(), 16).unwrap();
        if size == 0 {
            return out;
        }
        out.extend_from_slice(&body[end + 2..end + 2 + size]);
        body = &body[end + 2 + size + 2..];
    }
}

fn encoded(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' => {
                char::from(b).to_string()
            }
            other => format!("%{other:02X}"),
        })
        .collect()
}

impl Browser {
    fn new(address: &str) -> Browser {
        Browser {
            address: address.to_owned(),
            cookies: BTreeMap::new(),
            csrf: String::new(),
        }
    }

    fn send(&mut self, method: &str, path: &str, form: Option<&[(&str, &str)]>) -> Reply {
        let mut stream = TcpStream::connect(&self.address).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(30)))
            .unwrap();
        let mut request = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n",
            self.address
        );
        if !self.cookies.is_empty() {
            let cookies: Vec<String> = self
                .cookies
                .iter()
                .map(|(name, value)| format!("{name}={value}"))
                .collect();
            request.push_str(&format!("Cookie: {}\r\n", cookies.join("; ")));
        }
        let body = form.map(|fields| {
            let mut all = vec![format!("csrf={}", self.csrf)];
            all.extend(fields.iter().map(|(k, v)| format!("{k}={}", encoded(v))));
            all.join("&")
        });
        if let Some(body) = &body {
            request.push_str(&format!(
                "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\n",
                body.len()
            ));
        }
        request.push_str("\r\n");
        request.push_str(body.as_deref().unwrap_or(""));
        stream.write_all(request.as_bytes()).unwrap();
        let mut response = Vec::new();
        stream.read_to_end(&mut response).unwrap();
        let at = response.windows(4).position(|w| w == b"\r\n\r\n").unwrap() + 4;
        let head = String::from_utf8_lossy(&response[..at]).into_owned();
        let body = if head
            .to_ascii_lowercase()
            .contains("transfer-encoding: chunked")
        {
            unchunked(&response[at..])
        } else {
            response[at..].to_vec()
        };
        for line in head.lines() {
            let Some((name, value)) = line.split_once(':') else {
                continue;
            };
            if name.eq_ignore_ascii_case("set-cookie") {
                let pair = value.trim().split(';').next().unwrap();
                let (name, value) = pair.split_once('=').unwrap();
                if value.is_empty() || line.contains("Max-Age=0") {
                    self.cookies.remove(name);
                } else {
                    self.cookies.insert(name.to_owned(), value.to_owned());
                }
            }
        }
        let body = String::from_utf8(body).unwrap();
        let field = r#"name="csrf" value=""#;
        if let Some(at) = body.find(field) {
            self.csrf = body[at + field.len()..]
                .split('"')
                .next()
                .unwrap()
                .to_owned();
        }
        Reply {
            status: head[9..12].parse().unwrap(),
            body,
        }
    }

    fn get(&mut self, path: &str) -> Reply {
        self.send("GET", path, None)
    }

    fn post(&mut self, path: &str, fields: &[(&str, &str)]) -> Reply {
        self.send("POST", path, Some(fields))
    }

    /// Signs in as `name`.
    fn log_in(&mut self, name: &str) {
        self.get("/contest/login");
        let reply = self.post("/contest/login", &[("name", name), ("password", PASSWORD)]);
        assert_eq!(reply.status, 303, "{name}: {reply:?}");
    }
}

fn contest(dir: &Path, store: &str, args: &[&str]) -> String {
    let mut all = vec!["contest"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--store", store]);
    succeeded(&SPIELLEITER.run(dir, &all))
}

/// Adds the organiser `name` (the password on standard input).
fn add_organiser(dir: &Path, store: &str, name: &str) {
    let mut child = SPIELLEITER
        .command(dir)
        .args([
            "contest",
            "organiser",
            "add",
            name,
            "--config",
            "contest.toml",
            "--store",
            store,
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(format!("{PASSWORD}\n").as_bytes())
        .unwrap();
    succeeded(&child.wait_with_output().unwrap());
}

/// A team's teacher, come in by the link `contest team add` printed.
fn teacher(address: &str, printed: &str, name: &str) -> Browser {
    let link = printed.lines().last().unwrap();
    let path = link
        .strip_prefix(&format!("http://{address}"))
        .unwrap_or_else(|| panic!("a link: {printed}"));
    let mut browser = Browser::new(address);
    assert_eq!(browser.get(path).status, 200);
    let joined = browser.post(
        path,
        &[("name", name), ("password", PASSWORD), ("repeat", PASSWORD)],
    );
    assert_eq!(joined.status, 303, "{joined:?}");
    browser
}

/// What a viewer sees of the matchday: the matchday page shows the
/// encounter, the replay of its game 1 answers, and the table counts the
/// matchday.
#[derive(Debug, PartialEq, Eq)]
struct Seen {
    encounter_shown: bool,
    replay_status: u16,
    table_shown: bool,
}

fn seen(browser: &mut Browser, encounter: i64, heading: &str) -> Seen {
    let page = browser.get("/contest/matchdays/championship/1");
    assert_eq!(page.status, 200, "{page:?}");
    let replay = browser.get(&format!("/contest/encounters/{encounter}/games/1/replay"));
    if replay.status == 200 {
        let view: serde_json::Value = serde_json::from_str(&replay.body).unwrap();
        assert!(view["frames"].as_array().unwrap().len() > 1, "{view}");
    }
    let table = browser.get("/contest/standings");
    assert_eq!(table.status, 200, "{table:?}");
    Seen {
        encounter_shown: page.body.contains(heading),
        replay_status: replay.status,
        table_shown: table.body.contains("After matchday 1"),
    }
}

/// A contest "Cup" of `swc_2027_blokus` (seed 3, `more` settings) in
/// `store`, served with quick password hashing from `dir` (and the
/// `[contest]` settings `config`).
fn served_contest(
    dir: &Path,
    store: &str,
    more: &[&str],
    config: &str,
) -> spielleiter_test_support::Served {
    std::fs::write(
        dir.join("contest.toml"),
        format!(
            "[contest]\npassword_memory_kib = 64\npassword_passes = 1\npassword_lanes = 1\n{config}"
        ),
    )
    .unwrap();
    let mut create = vec![
        "create",
        "--game",
        "swc_2027_blokus",
        "--name",
        "Cup",
        "--seed",
        "3",
    ];
    create.extend_from_slice(more);
    contest(dir, store, &create);
    SPIELLEITER.serve(dir, &["--config", "contest.toml", "--store", store])
}

fn a_matchday_is_shown_as_published(store: &str) {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    let served = served_contest(dir, store, &["--games-per-encounter", "2"], "");
    let address = served.address.clone();
    let web_url = format!("http://{address}");
    let mut printed = BTreeMap::new();
    for team in ["Owls", "Foxes", "Bats", "Moles"] {
        printed.insert(
            team,
            contest(dir, store, &["team", "add", team, "--web-url", &web_url]),
        );
        contest(
            dir,
            store,
            &[
                "version",
                "add",
                team,
                "--player",
                "builtin:random",
                "--activate",
            ],
        );
    }
    add_organiser(dir, store, "Grace");
    // The organiser makes and plays the matchday on the calendar's page.
    let mut grace = Browser::new(&address);
    grace.log_in("grace");
    grace.get("/contest/organiser/calendar");
    let made = grace.post(
        "/contest/organiser/matchdays",
        &[("phase", "championship"), ("untimed", "1")],
    );
    assert_eq!(made.status, 200, "{made:?}");
    grace.get("/contest/organiser/calendar");
    let early = grace.post("/contest/organiser/matchdays/championship/1/publish", &[]);
    assert_eq!(early.status, 409, "not played yet: {early:?}");
    grace.get("/contest/organiser/calendar");
    let played = grace.post("/contest/organiser/matchdays/championship/1/play", &[]);
    assert!(
        played.status == 200 && played.body.contains("its 4 games wait"),
        "{played:?}"
    );
    let calendar = grace.get("/contest/organiser/calendar");
    assert!(
        calendar
            .body
            .contains("/contest/organiser/matchdays/championship/1/retry"),
        "{calendar:?}"
    );
    succeeded(&SPIELLEITER.run(
        dir,
        &["worker", "--store", store, "--contest", "--until-idle"],
    ));

    // The first encounter and who plays it, from the store.
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let opened = Arc::new(runtime.block_on(spielleiter_season::open(store)).unwrap());
    let accounts = runtime.block_on(ContestStore::open(opened)).unwrap();
    let names: BTreeMap<TeamId, String> = runtime
        .block_on(accounts.teams())
        .unwrap()
        .into_iter()
        .map(|t| (t.id, t.name))
        .collect();
    let report = runtime
        .block_on(accounts.matchday_report(Phase::Championship, 1))
        .unwrap();
    assert_eq!(report.encounters.len(), 2);
    let (first, _) = &report.encounters[0];
    let (second, _) = &report.encounters[1];
    let (home, away) = (
        &names[&first.encounter.pairing.home],
        &names[&first.encounter.pairing.away],
    );
    let other = &names[&second.encounter.pairing.home];
    let heading = format!("Encounter 1: {home} – {away}");

    let mut viewers = [
        ("anonymous", Browser::new(&address)),
        (
            "home's teacher",
            teacher(&address, &printed[home.as_str()], "Hella"),
        ),
        (
            "other encounter's teacher",
            teacher(&address, &printed[other.as_str()], "Otto"),
        ),
        ("organiser", grace),
    ];
    let before: Vec<(&str, Seen)> = viewers
        .iter_mut()
        .map(|(who, browser)| (*who, seen(browser, first.id.0, &heading)))
        .collect();
    let expect = |encounter_shown, replay_status, table_shown| Seen {
        encounter_shown,
        replay_status,
        table_shown,
    };
    assert_eq!(
        before,
        [
            ("anonymous", expect(false, 401, false)),
            ("home's teacher", expect(true, 200, false)),
            ("other encounter's teacher", expect(false, 403, false)),
            ("organiser", expect(true, 200, true)),
        ]
    );
    // The season page never shows an encounter's games.
    assert_ne!(viewers[0].1.get("/api/season/games").status, 200);

    let organiser = &mut viewers[3].1;
    organiser.get("/contest/organiser/calendar");
    let published = organiser.post("/contest/organiser/matchdays/championship/1/publish", &[]);
    assert_eq!(published.status, 200, "{published:?}");
    assert!(
        contest(dir, store, &["status"])
            .contains("matchday 1 of the championship: published, 2 encounters"),
        "the store says so too"
    );
    let after: Vec<(&str, Seen)> = viewers
        .iter_mut()
        .map(|(who, browser)| (*who, seen(browser, first.id.0, &heading)))
        .collect();
    for (who, seen) in &after {
        assert_eq!(seen, &expect(true, 200, true), "{who}");
    }
    // The replay viewer's page of the game, and the team's results.
    let anonymous = &mut viewers[0].1;
    assert_eq!(
        anonymous
            .get(&format!("/contest/encounters/{}/games/1", first.id))
            .status,
        200
    );
    let results = anonymous.get(&format!(
        "/contest/teams/{}/results",
        first.encounter.pairing.home
    ));
    assert!(
        results.body.contains("Championship, matchday 1"),
        "{results:?}"
    );
    assert_eq!(anonymous.get("/contest/final").status, 200);
}

/// One mail a relay took: to whom, and the message.
#[derive(Clone, Debug)]
struct Mail {
    to: String,
    message: String,
}

/// An SMTP relay on loopback that takes every mail and keeps it.
struct FakeRelay {
    port: u16,
    mails: Arc<Mutex<Vec<Mail>>>,
}

impl FakeRelay {
    fn start() -> FakeRelay {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let mails = Arc::new(Mutex::new(Vec::new()));
        let kept = Arc::clone(&mails);
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(stream) = stream else { return };
                let kept = Arc::clone(&kept);
                std::thread::spawn(move || FakeRelay::serve(stream, &kept));
            }
        });
        FakeRelay { port, mails }
    }

    /// One connection: the greeting, then commands until QUIT.
    fn serve(stream: TcpStream, kept: &Mutex<Vec<Mail>>) {
        let mut out = stream.try_clone().unwrap();
        let mut lines = BufReader::new(stream);
        let mut say = |text: &str| out.write_all(format!("{text}\r\n").as_bytes());
        let _ = say("220 relay.test ESMTP");
        let mut to = String::new();
        let mut line = String::new();
        loop {
            line.clear();
            if lines.read_line(&mut line).unwrap_or(0) == 0 {
                return;
            }
            let command = line.trim_end().to_ascii_uppercase();
            let answer = if command.starts_with("EHLO") || command.starts_with("HELO") {
                "250 relay.test"
            } else if command.starts_with("RCPT TO:") {
                to = line.trim_end()["RCPT TO:".len()..].to_owned();
                "250 OK"
            } else if command == "DATA" {
                let _ = say("354 go on");
                let mut message = String::new();
                loop {
                    line.clear();
                    if lines.read_line(&mut line).unwrap_or(0) == 0 {
                        return;
                    }
                    if line == ".\r\n" {
                        break;
                    }
                    message.push_str(&line);
                }
                kept.lock().unwrap().push(Mail {
                    to: to.clone(),
                    message,
                });
                "250 queued"
            } else if command == "QUIT" {
                let _ = say("221 bye");
                return;
            } else {
                "250 OK"
            };
            let _ = say(answer);
        }
    }

    fn mails(&self) -> Vec<Mail> {
        self.mails.lock().unwrap().clone()
    }

    /// Waits (up to a minute: the server looks every few seconds) until
    /// a mail holds `text`.
    fn wait_for(&self, text: &str) -> Vec<Mail> {
        let start = Instant::now();
        loop {
            let mails = self.mails();
            if mails.iter().any(|m| m.message.contains(text)) {
                return mails;
            }
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "no mail with {text:?}: {mails:?}"
            );
            std::thread::sleep(Duration::from_millis(200));
        }
    }
}

fn a_version_is_tested_and_its_games_shown_to_its_team(store: &str) {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    let relay = FakeRelay::start();
    let served = served_contest(
        dir,
        store,
        &[],
        &format!(
            "mail_smtp = \"127.0.0.1:{}\"\nmail_from = \"Cup <cup@contest.example>\"\n",
            relay.port
        ),
    );
    let address = served.address.clone();
    let web_url = format!("http://{address}");
    let owls = contest(dir, store, &["team", "add", "Owls", "--web-url", &web_url]);
    let foxes = contest(dir, store, &["team", "add", "Foxes", "--web-url", &web_url]);
    contest(
        dir,
        store,
        &["version", "add", "Owls", "--player", "builtin:greedy"],
    );
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let opened = Arc::new(runtime.block_on(spielleiter_season::open(store)).unwrap());
    let accounts = runtime.block_on(ContestStore::open(opened)).unwrap();
    let team = runtime
        .block_on(accounts.teams())
        .unwrap()
        .into_iter()
        .find(|t| t.name == "Owls")
        .unwrap()
        .id;
    let mut olga = teacher(&address, &owls, "Olga");
    let mut fritz = teacher(&address, &foxes, "Fritz");
    let versions = format!("/contest/teams/{team}/versions");
    let page = olga.get(&versions);
    assert!(page.body.contains("Test version 1"), "{page:?}");
    let tested = olga.post(&format!("{versions}/1/test"), &[]);
    assert_eq!(tested.status, 303, "{tested:?}");
    succeeded(&SPIELLEITER.run(
        dir,
        &["worker", "--store", store, "--contest", "--until-idle"],
    ));

    let page = olga.get(&format!("{versions}/1/test"));
    assert!(
        page.body.contains("2 of 2 games played")
            && page.body.matches("ended by the rules").count() == 2
            && page.body.contains("State: tested"),
        "{page:?}"
    );
    let replay = olga.get(&format!("{versions}/1/test/1/replay"));
    assert_eq!(replay.status, 200, "{replay:?}");
    let view: serde_json::Value = serde_json::from_str(&replay.body).unwrap();
    assert!(view["frames"].as_array().unwrap().len() > 1, "{view}");
    // Another team sees nothing of it.
    for path in [
        format!("{versions}/1/test"),
        format!("{versions}/1/test/1/replay"),
        format!("{versions}/1/test/1/wire"),
    ] {
        assert_eq!(fritz.get(&path).status, 403, "{path}");
    }
    // Passed: activated.
    olga.get(&versions);
    let activated = olga.post(&format!("{versions}/1/activate"), &[]);
    assert_eq!(activated.status, 303, "{activated:?}");
    assert!(olga.get(&versions).body.contains("<td>active</td>"));

    // A friendly encounter: Owls challenge Foxes, Foxes accept, a worker
    // plays it with both active versions; both teams see its games.
    contest(
        dir,
        store,
        &[
            "version",
            "add",
            "Foxes",
            "--player",
            "builtin:random",
            "--activate",
        ],
    );
    let foxes_id = runtime
        .block_on(accounts.teams())
        .unwrap()
        .into_iter()
        .find(|t| t.name == "Foxes")
        .unwrap()
        .id;
    // Fritz has his team's notices mailed from now on; Olga does not.
    let page = fritz.get("/contest/account");
    assert!(page.body.contains("Notices by mail"), "{page:?}");
    let saved = fritz.post(
        "/contest/account/mail",
        &[("address", "fritz@foxes.example")],
    );
    assert_eq!(saved.status, 303, "{saved:?}");
    let friendly = format!("/contest/teams/{team}/friendly");
    olga.get(&friendly);
    let challenged = olga.post(&friendly, &[("to", &foxes_id.to_string())]);
    assert_eq!(challenged.status, 303, "{challenged:?}");
    let theirs = format!("/contest/teams/{foxes_id}/friendly");
    let page = fritz.get(&theirs);
    assert!(page.body.contains("from Owls"), "{page:?}");
    let accepted = fritz.post(&format!("{theirs}/1/accept"), &[]);
    assert_eq!(accepted.status, 303, "{accepted:?}");
    succeeded(&SPIELLEITER.run(
        dir,
        &["worker", "--store", store, "--contest", "--until-idle"],
    ));
    // The worker's last look marked it played.
    let page = olga.get(&friendly);
    assert!(
        page.body.contains("to Foxes") && page.body.contains(">played<"),
        "{page:?}"
    );
    // The contest's default: as many games as an encounter's, 6.
    assert!(page.body.contains("6 of 6 played"), "{page:?}");
    let replay = olga.get(&format!("{friendly}/1/games/1/replay"));
    assert_eq!(replay.status, 200, "{replay:?}");
    let replay = fritz.get(&format!("{theirs}/1/games/6/replay"));
    assert_eq!(replay.status, 200, "{replay:?}");
    assert_eq!(fritz.get(&friendly).status, 403, "the other team's page");
    // What each team was told, on its notices page.
    let told = olga.get(&format!("/contest/teams/{team}/notices"));
    for said in [
        "Version 1 passed its test",
        "Foxes accepted your friendly challenge",
        "The friendly encounter with Foxes is played",
    ] {
        assert!(told.body.contains(said), "{said}: {told:?}");
    }
    let told = fritz.get(&format!("/contest/teams/{foxes_id}/notices"));
    assert!(told.body.contains("Owls challenges you"), "{told:?}");

    // Fritz's notices came by mail too, each once, to him only, and none
    // of the Owls' (Olga gave no address).
    relay.wait_for("Owls challenges you");
    let mails = relay.wait_for("The friendly encounter with Owls is played");
    // A few more of the mailer's rounds: nothing is sent twice.
    std::thread::sleep(Duration::from_secs(6));
    let mails_later = relay.mails();
    assert_eq!(mails_later.len(), mails.len(), "{mails_later:?}");
    assert_eq!(mails.len(), 2, "{mails:?}");
    for mail in &mails {
        assert_eq!(mail.to, "<fritz@foxes.example>", "{mail:?}");
        assert!(
            mail.message.contains("Subject: Cup: a notice for Foxes"),
            "{mail:?}"
        );
        assert!(
            mail.message.contains("From: Cup <cup@contest.example>"),
            "{mail:?}"
        );
        // No public address is configured: no link to the pages.
        assert!(
            !mail.message.contains("All of your team's notices"),
            "{mail:?}"
        );
    }
}

#[test]
fn a_version_is_tested_and_its_games_shown_to_its_team_on_a_sqlite_store() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("contest.sqlite");
    a_version_is_tested_and_its_games_shown_to_its_team(path.to_str().unwrap());
}

#[test]
fn a_version_is_tested_and_its_games_shown_to_its_team_on_a_postgres_store() {
    let pg = Postgres::shared();
    let database = pg.fresh_database();
    a_version_is_tested_and_its_games_shown_to_its_team(&pg.url(&database));
}

#[test]
fn a_matchday_is_shown_as_published_on_a_sqlite_store() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("contest.sqlite");
    a_matchday_is_shown_as_published(path.to_str().unwrap());
}

#[test]
fn a_matchday_is_shown_as_published_on_a_postgres_store() {
    let pg = Postgres::shared();
    let database = pg.fresh_database();
    a_matchday_is_shown_as_published(&pg.url(&database));
}
