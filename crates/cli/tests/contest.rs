//! `spielleiter contest …` as an organiser runs it, on a SQLite file and
//! on a PostgreSQL database (`postgres` in the test's name: it starts the
//! server, see `spielleiter_test_support::Postgres`): the contest made
//! once, teams added with a one-time link each (the store keeps only the
//! token's digest), teams and members disabled and enabled, a teacher's
//! new link; and bad input, each refused in one line that names no
//! password, with nothing changed.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test.

use std::{path::Path, process::Output};

use spielleiter_test_support::{POSTGRES_PASSWORD, Postgres, Program, succeeded};

/// The binary, without a store from the developer's environment.
const SPIELLEITER: Program =
    Program::new(env!("CARGO_BIN_EXE_spielleiter")).without(&["SPIELLEITER_STORE"]);

/// Runs `contest ARGS… --store STORE` in `dir`.
fn contest(dir: &Path, store: &str, args: &[&str]) -> Output {
    let mut all = vec!["contest"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--store", store]);
    SPIELLEITER.run(dir, &all)
}

/// Fails unless the run failed with one line naming `naming`, without the
/// database's password.
fn refused(output: &Output, naming: &str) {
    assert!(!output.status.success(), "{output:?}");
    let error = String::from_utf8_lossy(&output.stderr);
    assert!(error.contains(naming), "{naming}: {error}");
    assert_eq!(error.trim().lines().count(), 1, "one line: {error}");
    assert!(!error.contains(POSTGRES_PASSWORD), "{error}");
    assert!(output.stdout.is_empty(), "{output:?}");
}

/// The link a `team add`, `invite` or `reset` printed, checked to start
/// with `web_url`; its token.
fn link_token(printed: &str, web_url: &str) -> String {
    let line = printed.lines().last().unwrap();
    let token = line
        .strip_prefix(&format!("{web_url}/contest/invite/"))
        .unwrap_or_else(|| panic!("no link of {web_url}: {printed}"));
    assert_eq!(token.len(), 64, "{printed}");
    assert!(token.bytes().all(|b| b.is_ascii_hexdigit()), "{printed}");
    token.to_owned()
}

/// The organiser's commands on `store`; `raw` reads the store's bytes or
/// rows as they are (to find what it must not hold).
fn organiser_commands(dir: &Path, store: &str, raw: &dyn Fn() -> String) {
    let created = succeeded(&contest(
        dir,
        store,
        &[
            "create",
            "--game",
            "swc_2027_blokus",
            "--name",
            "Cup",
            "--seed",
            "7",
            "--test-games",
            "4",
            "--games-per-friendly",
            "2",
            "--friendly-challenges-per-hour",
            "3",
        ],
    ));
    assert!(created.contains("contest \"Cup\" created"), "{created}");
    assert!(created.contains("seed 7"), "{created}");
    assert!(!created.contains(POSTGRES_PASSWORD), "{created}");
    let again = succeeded(&contest(
        dir,
        store,
        &["create", "--game", "swc_2027_blokus", "--name", "Cup"],
    ));
    assert!(again.contains("nothing changed"), "{again}");

    let owls = succeeded(&contest(
        dir,
        store,
        &["team", "add", "Owls", "--group", "North"],
    ));
    assert!(owls.contains("team \"Owls\" added"), "{owls}");
    let owls_token = link_token(&owls, "http://localhost:13080");
    let foxes = succeeded(&contest(
        dir,
        store,
        &[
            "team",
            "add",
            "Foxes",
            "--web-url",
            "https://contest.example.org/",
        ],
    ));
    let foxes_token = link_token(&foxes, "https://contest.example.org");
    assert_ne!(owls_token, foxes_token);
    let held = raw();
    assert!(held.contains("Owls") && held.contains("Foxes"), "{held}");
    for token in [&owls_token, &foxes_token] {
        assert!(
            !held.contains(token.as_str()),
            "the store holds only digests"
        );
    }

    let status = succeeded(&contest(dir, store, &["status"]));
    assert!(status.contains("game swc_2027_blokus, seed 7"), "{status}");
    assert!(
        status.contains(
            "games: 6 an encounter, 4 a version's test, 2 a friendly encounter \
             (at most 3 friendly challenges a team an hour)"
        ),
        "{status}"
    );
    assert!(status.contains("2 teams (0 disabled)"), "{status}");
    assert!(
        status.contains("\"Owls\", group North: no members yet"),
        "{status}"
    );
    assert!(!status.contains(POSTGRES_PASSWORD), "{status}");

    let disabled = succeeded(&contest(dir, store, &["team", "disable", "foxes"]));
    assert!(disabled.contains("team \"Foxes\" disabled"), "{disabled}");
    let status = succeeded(&contest(dir, store, &["status"]));
    assert!(status.contains("2 teams (1 disabled)"), "{status}");
    assert!(status.contains("\"Foxes\", disabled"), "{status}");
    succeeded(&contest(dir, store, &["team", "enable", "Foxes"]));
    let invite = succeeded(&contest(dir, store, &["invite", "Owls"]));
    assert!(invite.contains("a teacher of \"Owls\""), "{invite}");
    assert_ne!(link_token(&invite, "http://localhost:13080"), owls_token);

    // Bad input: one line each, and nothing changed.
    let before = raw();
    let long = "x".repeat(61);
    let huge = "y".repeat(100_000);
    // `create` of the store's contest again, with one option changed.
    let cup_again = |changed: &[&'static str]| {
        let mut args = vec!["create", "--game", "swc_2027_blokus", "--name", "Cup"];
        args.extend_from_slice(changed);
        args
    };
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["team", "add", "OWLS"],
            "has a team named \"OWLS\" already",
        ),
        (vec!["team", "add", ""], "the team name is empty"),
        (vec!["team", "add", &long], "at most 60"),
        (vec!["team", "add", &huge], "far too long; at most 60"),
        (
            vec!["team", "add", "Tab\there"],
            "the team name has a control",
        ),
        (
            vec!["team", "add", "Owls\u{202E}slwO"],
            "direction-changing character",
        ),
        (
            vec!["team", "add", "Elks", "--group", ""],
            "the group's name is refused",
        ),
        (
            vec!["team", "add", "Elks", "--web-url", "contest.example.org"],
            "--web-url",
        ),
        (
            vec!["team", "add", "Elks", "--web-url", "https://x/?a=1"],
            "no web address",
        ),
        (
            vec!["team", "disable", "Nobody"],
            "has no team named \"Nobody\" (it has \"Owls\", \"Foxes\")",
        ),
        (
            vec!["team", "enable", "'; DROP TABLE contest_teams; --"],
            "has no team named",
        ),
        (
            vec!["member", "disable", "Nobody"],
            "has nobody named \"Nobody\"",
        ),
        (vec!["member", "enable", "<b>x</b>"], "has nobody named"),
        (vec!["reset", "Nobody"], "has nobody named"),
        (vec!["invite", "Nobody"], "has no team named"),
        (
            vec!["create", "--game", "swc_2027_blokus", "--name", "Other"],
            "holds the contest `Cup` already, not `Other`",
        ),
        (
            vec!["create", "--game", "blokus_bcl", "--name", "Cup"],
            "of the game swc_2027_blokus, not blokus_bcl",
        ),
        (cup_again(&["--seed", "8"]), "with seed 7, not 8"),
        (
            cup_again(&["--test-games", "3"]),
            "contest setting test_games: 3 games; an even number",
        ),
        (
            cup_again(&["--games-per-friendly", "0"]),
            "contest setting games_per_friendly: 0 games",
        ),
    ];
    for (args, naming) in &cases {
        refused(&contest(dir, store, args), naming);
    }
    assert_eq!(raw(), before, "a refused command changes nothing");

    // Clap's own refusals (an unknown game, a missing name) fail too.
    for args in [
        &["create", "--game", "chess"][..],
        &["team", "add"][..],
        &["team", "rename", "Owls"][..],
    ] {
        let output = contest(dir, store, args);
        assert!(!output.status.success(), "{args:?}");
        let error = String::from_utf8_lossy(&output.stderr);
        assert!(error.starts_with("error: "), "{error}");
    }
    assert_eq!(raw(), before);
}

#[test]
fn an_organiser_runs_a_contest_on_a_sqlite_file() {
    let dir = tempfile::tempdir().unwrap();
    let store = "contest.sqlite";
    // A store that is not there is not made by the commands that read it.
    refused(
        &contest(dir.path(), store, &["status"]),
        "does not exist; `spielleiter contest create --store …` makes one",
    );
    refused(
        &contest(dir.path(), store, &["team", "add", "Owls"]),
        "does not exist",
    );
    assert!(!dir.path().join(store).exists());
    let path = dir.path().join(store);
    organiser_commands(dir.path(), store, &|| {
        String::from_utf8_lossy(&std::fs::read(&path).unwrap()).into_owned()
    });
}

#[test]
fn an_organiser_runs_a_contest_on_postgres() {
    let pg = Postgres::shared();
    let dir = tempfile::tempdir().unwrap();
    let database = pg.fresh_database();
    let store = pg.url(&database);
    refused(
        &contest(dir.path(), &store, &["status"]),
        "holds no contest; `spielleiter contest create --store …` makes one",
    );
    let wrong = store.replace(POSTGRES_PASSWORD, "wrong-password");
    refused(
        &contest(dir.path(), &wrong, &["status"]),
        "password authentication failed",
    );
    organiser_commands(dir.path(), &store, &|| {
        [
            "SELECT * FROM contests",
            "SELECT * FROM contest_groups ORDER BY id",
            "SELECT * FROM contest_teams ORDER BY id",
            "SELECT * FROM contest_accounts ORDER BY id",
            "SELECT id, encode(token, 'hex'), team, kind, reset_member, created_by, \
             expires_at - created_at, used_at, withdrawn FROM contest_invites ORDER BY id",
            "SELECT * FROM contest_sessions ORDER BY id",
        ]
        .map(|query| pg.sql(&database, query))
        .join("\n--\n")
    });
}
