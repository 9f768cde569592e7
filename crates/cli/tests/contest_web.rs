//! A contest's door over real HTTP, on a SQLite file and on PostgreSQL
//! (`postgres` in the test's name: it starts the server): the organiser
//! makes the contest and, while `serve --store` runs, adds a team on the
//! command line; its link registers the teacher, who sees the team's
//! page, logs out — the old cookie is refused from then on — and signs in
//! again; the organiser disables the teacher on the command line and the
//! session ends; a password-reset link sets a new password; an organiser's
//! account added on the command line sees the organiser's page. The cookies
//! are `HttpOnly`, `SameSite=Lax`, and `Secure` with
//! `--http-secure-cookies`; new passwords are hashed with the config
//! file's Argon2id parameters.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test.

use std::{
    collections::BTreeMap,
    io::{Read, Write},
    net::TcpStream,
    path::Path,
    process::Stdio,
    time::Duration,
};

use spielleiter_test_support::{POSTGRES_PASSWORD, Postgres, Program, succeeded};

/// The binary, without a store or season from the developer's environment.
const SPIELLEITER: Program = Program::new(env!("CARGO_BIN_EXE_spielleiter"))
    .without(&["SPIELLEITER_STORE", "SPIELLEITER_SEASON"]);

/// The teacher's password, and the one a reset sets.
const PASSWORD: &str = "correct horse battery";
const NEW_PASSWORD: &str = "another long password";

/// An answer.
#[derive(Debug)]
struct Reply {
    status: u16,
    head: String,
    body: String,
}

impl Reply {
    /// The values of its `Set-Cookie` headers.
    fn set_cookies(&self) -> Vec<&str> {
        self.head
            .lines()
            .filter_map(|line| {
                let (name, value) = line.split_once(':')?;
                name.eq_ignore_ascii_case("set-cookie")
                    .then(|| value.trim())
            })
            .collect()
    }

    /// Its `Location`.
    fn location(&self) -> String {
        self.head
            .lines()
            .find_map(|line| {
                let (name, value) = line.split_once(':')?;
                name.eq_ignore_ascii_case("location")
                    .then(|| value.trim().to_owned())
            })
            .unwrap_or_else(|| panic!("no Location: {self:?}"))
    }
}

/// A browser: its cookies and the CSRF token of the last page with a form.
#[derive(Clone, Debug)]
struct Browser {
    address: String,
    cookies: BTreeMap<String, String>,
    csrf: String,
}

/// `text` as a form's value.
fn form_encoded(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                char::from(b).to_string()
            }
            b' ' => "+".to_owned(),
            other => format!("%{other:02X}"),
        })
        .collect()
}

/// A chunked body decoded.
fn unchunked(mut body: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let line_end = body.windows(2).position(|w| w == b"\r\n").unwrap();
        let size_text = String::from_utf8_lossy(&body[..line_end]);
        let size = usize::from_str_radix(size_text.split(';').next().unwrap().trim(), 16).unwrap();
        if size == 0 {
            return out;
        }
        let start = line_end + 2;
        out.extend_from_slice(&body[start..start + size]);
        body = &body[start + size + 2..];
    }
}

impl Browser {
    fn new(address: &str) -> Browser {
        Browser {
            address: address.to_owned(),
            cookies: BTreeMap::new(),
            csrf: String::new(),
        }
    }

    fn send(&mut self, method: &str, path: &str, body: Option<&str>) -> Reply {
        let mut stream = TcpStream::connect(&self.address).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(30)))
            .unwrap();
        let cookies = self
            .cookies
            .iter()
            .map(|(name, value)| format!("{name}={value}"))
            .collect::<Vec<_>>()
            .join("; ");
        let mut request = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\nUser-Agent: contest-test\r\n",
            self.address
        );
        if !cookies.is_empty() {
            request.push_str(&format!("Cookie: {cookies}\r\n"));
        }
        if let Some(body) = body {
            request.push_str(&format!(
                "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\n",
                body.len()
            ));
        }
        request.push_str("\r\n");
        request.push_str(body.unwrap_or(""));
        stream.write_all(request.as_bytes()).unwrap();
        let mut response = Vec::new();
        stream.read_to_end(&mut response).unwrap();
        let body_at = response.windows(4).position(|w| w == b"\r\n\r\n").unwrap() + 4;
        let head = String::from_utf8_lossy(&response[..body_at]).into_owned();
        let raw = &response[body_at..];
        let body = if head
            .to_ascii_lowercase()
            .contains("transfer-encoding: chunked")
        {
            unchunked(raw)
        } else {
            raw.to_vec()
        };
        let reply = Reply {
            status: head[9..12].parse().unwrap(),
            head,
            body: String::from_utf8(body).unwrap(),
        };
        for cookie in reply.set_cookies() {
            let pair = cookie.split(';').next().unwrap();
            let (name, value) = pair.split_once('=').unwrap();
            if value.is_empty() || cookie.contains("Max-Age=0") {
                self.cookies.remove(name);
            } else {
                self.cookies.insert(name.to_owned(), value.to_owned());
            }
        }
        let field = r#"name="csrf" value=""#;
        if let Some(at) = reply.body.find(field) {
            let rest = &reply.body[at + field.len()..];
            self.csrf = rest.split('"').next().unwrap().to_owned();
        }
        reply
    }

    fn get(&mut self, path: &str) -> Reply {
        self.send("GET", path, None)
    }

    /// `POST path` with `fields` and the CSRF token of the last form.
    fn post(&mut self, path: &str, fields: &[(&str, &str)]) -> Reply {
        let mut all = vec![("csrf", self.csrf.clone())];
        all.extend(fields.iter().map(|(k, v)| (*k, (*v).to_owned())));
        let body = all
            .iter()
            .map(|(k, v)| format!("{k}={}", form_encoded(v)))
            .collect::<Vec<_>>()
            .join("&");
        self.send("POST", path, Some(&body))
    }
}

/// Runs `contest ARGS… --store STORE`; fails unless it succeeds; its
/// output.
fn contest(dir: &Path, store: &str, args: &[&str]) -> String {
    let mut all = vec!["contest"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--store", store]);
    succeeded(&SPIELLEITER.run(dir, &all))
}

/// Runs `contest organiser add NAME` with `password` on standard input.
fn add_organiser(dir: &Path, store: &str, name: &str, password: &str) -> std::process::Output {
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
        .write_all(format!("{password}\n").as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

/// The path of the link a command printed on its last line, checked to
/// point at `address`.
fn link_path(printed: &str, address: &str) -> String {
    let link = printed.lines().last().unwrap();
    let path = link
        .strip_prefix(&format!("http://{address}"))
        .unwrap_or_else(|| panic!("a link to {address}: {printed}"));
    assert!(path.starts_with("/contest/invite/"), "{printed}");
    path.to_owned()
}

/// The session cookie's `Set-Cookie`, checked: `HttpOnly`, `SameSite=Lax`,
/// `Secure` as `secure` says.
fn check_session_cookie(reply: &Reply, secure: bool) {
    let cookie = reply
        .set_cookies()
        .into_iter()
        .find(|c| c.starts_with("spielleiter_account="))
        .unwrap_or_else(|| panic!("no session cookie: {reply:?}"));
    assert!(cookie.contains("HttpOnly"), "{cookie}");
    assert!(cookie.contains("SameSite=Lax"), "{cookie}");
    assert_eq!(cookie.contains("Secure"), secure, "{cookie}");
}

/// The whole flow on `store`; `raw` reads the store's bytes or rows.
fn a_team_comes_in(store: &str, secure: bool, raw: &dyn Fn() -> String) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("contest.toml"),
        "[contest]\npassword_memory_kib = 64\npassword_passes = 1\npassword_lanes = 1\n",
    )
    .unwrap();
    contest(
        dir.path(),
        store,
        &[
            "create",
            "--game",
            "swc_2027_blokus",
            "--name",
            "Cup",
            "--seed",
            "1",
        ],
    );
    let mut args = vec!["--config", "contest.toml", "--store", store];
    if secure {
        args.push("--http-secure-cookies");
    }
    let served = SPIELLEITER.serve(dir.path(), &args);
    let (address, log) = (served.address.clone(), served.log.clone());
    let log = log.join("\n");
    assert!(log.contains("the contest's pages"), "{log}");
    assert!(!log.contains(POSTGRES_PASSWORD), "{log}");
    let web_url = format!("http://{address}");

    // The organiser adds a team while the server runs.
    let added = contest(
        dir.path(),
        store,
        &["team", "add", "Owls", "--web-url", &web_url],
    );
    let invite = link_path(&added, &address);

    // The link registers the teacher, signed in at once.
    let mut teacher = Browser::new(&address);
    let form = teacher.get(&invite);
    assert_eq!(form.status, 200, "{form:?}");
    assert!(form.body.contains("Owls"), "{}", form.body);
    let joined = teacher.post(
        &invite,
        &[
            ("name", "Ada Teacher"),
            ("password", PASSWORD),
            ("repeat", PASSWORD),
        ],
    );
    assert_eq!(joined.status, 303, "{joined:?}");
    check_session_cookie(&joined, secure);
    let home = joined.location();
    let page = teacher.get(&home);
    assert_eq!(page.status, 200, "{page:?}");
    assert!(
        page.body.contains("Owls") && page.body.contains("Ada Teacher"),
        "{}",
        page.body
    );
    assert!(home.starts_with("/contest/teams/"), "{home}");
    let held = raw();
    assert!(
        held.contains("$argon2id$v=19$m=64,t=1,p=1$"),
        "the config's parameters: {held}"
    );
    assert!(!held.contains(PASSWORD), "no password in the store");
    // The link worked once.
    let mut late = Browser::new(&address);
    assert_ne!(late.get(&invite).status, 200);

    // Logging out ends the session for good: the old cookie is refused.
    let mut stolen = teacher.clone();
    let out = teacher.post("/contest/logout", &[]);
    assert_eq!(out.status, 303, "{out:?}");
    let anonymous = Browser::new(&address).get(&home);
    assert_ne!(anonymous.status, 200);
    let refused = stolen.get(&home);
    assert_eq!(refused.status, anonymous.status, "{refused:?}");
    assert!(!refused.body.contains("Ada Teacher"), "{}", refused.body);
    assert_eq!(teacher.get(&home).status, anonymous.status);

    // Signing in again, by name whatever its case.
    assert_eq!(teacher.get("/contest/login").status, 200);
    let signed_in = teacher.post(
        "/contest/login",
        &[("name", "ada teacher"), ("password", PASSWORD)],
    );
    assert_eq!(signed_in.status, 303, "{signed_in:?}");
    check_session_cookie(&signed_in, secure);
    let page = teacher.get(&home);
    assert_eq!(page.status, 200, "{page:?}");
    assert!(page.body.contains("Ada Teacher"));

    // The organiser disables the teacher: the session ends at once.
    contest(dir.path(), store, &["member", "disable", "Ada Teacher"]);
    assert_eq!(teacher.get(&home).status, anonymous.status);
    contest(dir.path(), store, &["member", "enable", "Ada Teacher"]);

    // A password-reset link sets a new password; the old one no longer
    // signs in.
    let reset = contest(
        dir.path(),
        store,
        &["reset", "Ada Teacher", "--web-url", &web_url],
    );
    let reset = link_path(&reset, &address);
    let mut fresh = Browser::new(&address);
    assert_eq!(fresh.get(&reset).status, 200);
    let done = fresh.post(
        &reset,
        &[("password", NEW_PASSWORD), ("repeat", NEW_PASSWORD)],
    );
    assert_eq!(done.status, 303, "{done:?}");
    let mut again = Browser::new(&address);
    again.get("/contest/login");
    let old = again.post(
        "/contest/login",
        &[("name", "Ada Teacher"), ("password", PASSWORD)],
    );
    assert_ne!(old.status, 303, "the old password: {old:?}");
    let mut again = Browser::new(&address);
    again.get("/contest/login");
    let new = again.post(
        "/contest/login",
        &[("name", "Ada Teacher"), ("password", NEW_PASSWORD)],
    );
    assert_eq!(new.status, 303, "the new password: {new:?}");
    assert_eq!(again.get(&home).status, 200);

    let status = contest(dir.path(), store, &["status"]);
    assert!(
        status.contains("\"Owls\": 1 members: Ada Teacher (teacher)"),
        "{status}"
    );

    // An organiser's account from the command line sees every team.
    let short = add_organiser(dir.path(), store, "Grace", "short");
    assert!(!short.status.success());
    let error = String::from_utf8_lossy(&short.stderr);
    assert!(
        error.contains("the password has 5 characters; at least 10"),
        "{error}"
    );
    let taken = add_organiser(dir.path(), store, "ADA TEACHER", PASSWORD);
    assert!(!taken.status.success());
    let error = String::from_utf8_lossy(&taken.stderr);
    assert!(
        error.contains("has somebody named \"ADA TEACHER\" already"),
        "{error}"
    );
    assert_eq!(error.trim().lines().count(), 1, "{error}");
    succeeded(&add_organiser(dir.path(), store, "Grace", PASSWORD));
    assert!(raw().contains("Grace"));
    let mut organiser = Browser::new(&address);
    organiser.get("/contest/login");
    let signed_in = organiser.post(
        "/contest/login",
        &[("name", "grace"), ("password", PASSWORD)],
    );
    assert_eq!(signed_in.status, 303, "{signed_in:?}");
    let page = organiser.get("/contest/organiser");
    assert_eq!(page.status, 200, "{page:?}");
    assert!(page.body.contains("Owls"), "{}", page.body);
    assert_eq!(
        organiser.get(&home).status,
        200,
        "an organiser sees every team"
    );
    // A teacher, signed in, does not.
    assert_eq!(again.get(&home).status, 200);
    assert_ne!(again.get("/contest/organiser").status, 200);
}

#[test]
fn a_team_comes_in_through_the_door_of_a_sqlite_store() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("contest.sqlite");
    let store = path.to_str().unwrap().to_owned();
    a_team_comes_in(&store, false, &|| {
        String::from_utf8_lossy(&std::fs::read(&path).unwrap()).into_owned()
    });
}

#[test]
fn a_team_comes_in_through_the_door_of_a_postgres_store() {
    let pg = Postgres::shared();
    let database = pg.fresh_database();
    let store = pg.url(&database);
    a_team_comes_in(&store, true, &|| {
        pg.sql(
            &database,
            "SELECT display_name, password_hash FROM contest_accounts",
        )
    });
}

#[test]
fn a_season_that_is_not_there_or_bad_password_parameters_stop_the_start() {
    let dir = tempfile::tempdir().unwrap();
    contest(
        dir.path(),
        "empty.sqlite",
        &["create", "--game", "swc_2027_blokus", "--name", "Cup"],
    );
    // A season named that the store does not hold stops the start.
    let output = SPIELLEITER.run(
        dir.path(),
        &[
            "serve",
            "--port",
            "0",
            "--http-port",
            "0",
            "--store",
            "empty.sqlite",
            "--season",
            "spring",
        ],
    );
    assert!(!output.status.success());
    let error = String::from_utf8_lossy(&output.stderr);
    assert!(error.contains("no season named `spring`"), "{error}");
    // Bad password parameters stop it too.
    std::fs::write(
        dir.path().join("bad.toml"),
        "[contest]\npassword_memory_kib = 1\n",
    )
    .unwrap();
    let output = SPIELLEITER.run(
        dir.path(),
        &[
            "serve",
            "--config",
            "bad.toml",
            "--port",
            "0",
            "--http-port",
            "0",
            "--store",
            "empty.sqlite",
        ],
    );
    assert!(!output.status.success());
    let error = String::from_utf8_lossy(&output.stderr);
    assert!(error.contains("contest.password_memory_kib"), "{error}");
}

/// The season page is everyone's; an encounter's games are seen by others
/// only once its matchday is published. So `serve --store` of a contest
/// whose matchdays are played never shows an encounter's season there —
/// neither as the store's only season nor named with `--season` — and
/// still starts (two played matchdays are two seasons in the store).
#[test]
fn an_encounters_season_is_never_the_season_page() {
    let dir = tempfile::tempdir().unwrap();
    let store = "cup.sqlite";
    contest(
        dir.path(),
        store,
        &["create", "--game", "blokus_classic_2", "--name", "Cup"],
    );
    for team in ["Owls", "Foxes", "Bears"] {
        contest(dir.path(), store, &["team", "add", team]);
        contest(
            dir.path(),
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
    // Three teams: one encounter and one team sitting out a matchday.
    contest(
        dir.path(),
        store,
        &["matchday", "create", "--phase", "championship"],
    );
    let played = contest(dir.path(), store, &["matchday", "play", "1"]);
    assert!(played.contains("championship-1-g1-e1"), "{played}");

    // The encounter's season is the store's only season: not shown.
    {
        let served = SPIELLEITER.serve(dir.path(), &["--store", store]);
        let log = served.log.join("\n");
        assert!(log.contains("the contest's pages"), "{log}");
        assert!(!log.contains("the season page shows"), "{log}");
        let mut browser = Browser::new(&served.address);
        for path in [
            "/api/season",
            "/api/season/games",
            "/api/season/games/1/replay",
        ] {
            let reply = browser.get(path);
            assert_eq!(reply.status, 404, "{path}: {reply:?}");
        }
        assert_eq!(browser.get("/contest").status, 200);
    }

    // A second matchday: two encounters' seasons, and still a start.
    contest(
        dir.path(),
        store,
        &["matchday", "create", "--phase", "championship"],
    );
    contest(dir.path(), store, &["matchday", "play", "2"]);
    {
        let served = SPIELLEITER.serve(dir.path(), &["--store", store]);
        let log = served.log.join("\n");
        assert!(!log.contains("the season page shows"), "{log}");
    }

    // Named, it is refused in one line, and the server does not start.
    let output = SPIELLEITER.run(
        dir.path(),
        &[
            "serve",
            "--port",
            "0",
            "--http-port",
            "0",
            "--store",
            store,
            "--season",
            "championship-1-g1-e1",
        ],
    );
    assert!(!output.status.success());
    let error = String::from_utf8_lossy(&output.stderr);
    assert!(
        error.contains("season `championship-1-g1-e1` is an encounter of the contest \"Cup\""),
        "{error}"
    );
}
