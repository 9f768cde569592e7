//! The access matrix: every route the router serves (listed from the
//! router itself), asked as each kind of viewer, against the answer
//! `ACCESS.md` documents. A route without a row in `ACCESS.md` or in
//! [`ROUTES`] fails, and so does a documented row the router does not
//! serve. Each cell is asked on a site of its own, so that a change one
//! viewer makes (removing a member, logging out) cannot change another
//! cell's answer.

#![allow(clippy::unwrap_used)]

use std::{collections::BTreeSet, time::SystemTime};

use spielleiter_contest::{ContestAccounts, InviteKind, TeamVersions, Timestamp};
use spielleiter_rules::{
    AnyGame,
    blokus::{Blokus, PieceKind},
};
use spielleiter_server::showroom::{RoomPhase, RoomSnapshot};

use crate::accounts::{
    secrets::{self, ACCOUNT_COOKIE, FORM_COOKIE},
    testing::{Browser, START, Site, encode, token_of},
};
use crate::route_access::ROUTES;

/// The documented matrix.
const DOC: &str = include_str!("../../../ACCESS.md");

/// The viewers of the matrix's columns, in its order.
const VIEWERS: [&str; 6] = [
    "anonymous",
    "T's student",
    "T's teacher",
    "U's teacher",
    "organiser",
    "administrator",
];

/// One documented row: method, route, an answer per viewer.
#[derive(Debug)]
struct Row {
    method: String,
    route: String,
    answers: Vec<u16>,
}

fn documented() -> Vec<Row> {
    DOC.lines()
        .filter(|line| line.starts_with("| GET") || line.starts_with("| POST"))
        .map(|line| {
            let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
            assert_eq!(cells.len(), 2 + VIEWERS.len() + 1, "{line}");
            Row {
                method: cells[0].to_owned(),
                route: cells[1].trim_matches('`').to_owned(),
                answers: cells[2..2 + VIEWERS.len()]
                    .iter()
                    .map(|cell| cell.parse().unwrap_or_else(|_| panic!("{line}")))
                    .collect(),
            }
        })
        .collect()
}

/// The routes of the router, from its own description (axum lists each
/// route's path as `RouteId(n): "path"`).
fn router_paths(router: &axum::Router) -> BTreeSet<String> {
    let text = format!("{router:?}");
    let mut paths = BTreeSet::new();
    let mut rest = text.as_str();
    while let Some(at) = rest.find("RouteId(") {
        rest = &rest[at + "RouteId(".len()..];
        let Some(quote) = rest.find(": \"") else {
            break;
        };
        let after = &rest[quote + 3..];
        let end = after.find('"').unwrap();
        let path = &after[..end];
        // axum's own route of the fallback (the page of an unknown address).
        if !path.contains("__private__axum_fallback") {
            paths.insert(path.to_owned());
        }
        rest = &after[end..];
    }
    paths
}

/// A site with two teams (T with a teacher and a student, U with a
/// teacher), an organiser, an open student link of T and a running room;
/// and the browser of `viewer` signed in on it.
struct Fixture {
    site: Site,
    team_t: i64,
    student: i64,
    invite: i64,
    token: String,
    session: i64,
}

async fn fixture() -> Fixture {
    let site = Site::new().await;
    let team_t = site.team("T").await;
    let team_u = site.team("U").await;
    site.organiser("Grace").await;
    let link = |team| {
        let site = &site;
        async move {
            let token = secrets::new_token();
            let invite = spielleiter_contest::Invite::new(
                team,
                InviteKind::Teacher,
                None,
                Timestamp(START),
                &spielleiter_contest::ContestSettings::default(),
            );
            site.store
                .add_invite(&secrets::digest(&token), &invite)
                .await
                .unwrap();
            token
        }
    };
    // Version 1 of T, uploaded (for its build log and activation).
    site.versions
        .upload(
            team_t,
            &spielleiter_contest::Upload {
                runtime: spielleiter_contest::Runtime::Native,
                start_parameters: String::new(),
                comment: String::new(),
                archive: b"PK".to_vec(),
                by: spielleiter_contest::MemberId(1),
            },
            Timestamp(START),
        )
        .await
        .unwrap();
    let t_link = link(team_t).await;
    let u_link = link(team_u).await;
    let mut t_teacher = site.browser([192, 0, 2, 10]);
    t_teacher.join(&t_link, "Tess").await;
    site.browser([192, 0, 2, 11]).join(&u_link, "Ulla").await;
    let page = t_teacher
        .post(&format!("/contest/teams/{team_t}/invites"), &[])
        .await;
    let student_link = token_of(&page.body);
    let mut student = site.browser([192, 0, 2, 12]);
    student.join(&student_link, "Stu").await;
    let page = t_teacher
        .post(&format!("/contest/teams/{team_t}/invites"), &[])
        .await;
    let token = token_of(&page.body);
    let stored = site
        .store
        .invite(&secrets::digest(&token))
        .await
        .unwrap()
        .unwrap();
    let student_id = site
        .store
        .credentials("stu")
        .await
        .unwrap()
        .unwrap()
        .account
        .id;
    let session = site
        .store
        .sessions(student_id, Timestamp(START))
        .await
        .unwrap()[0]
        .id;
    // Championship matchday 1 published, 2 played but not published: T
    // against U on both (the encounters' ids 11 and 21).
    site.results.add_matchday(1, true, &[(11, team_t, team_u)]);
    site.results.add_matchday(2, false, &[(21, team_t, team_u)]);
    std::mem::forget(site.stats.rooms.open(RoomSnapshot {
        id: "live".into(),
        names: std::sync::Arc::from(vec!["alice".to_owned(), "bob".to_owned()]),
        seated: vec![true, true],
        phase: RoomPhase::Running,
        game: AnyGame::Blokus2021(Blokus::new(PieceKind::PentoL)),
        pending: None,
        result: None,
        opened: SystemTime::UNIX_EPOCH,
        version: 0,
    }));
    Fixture {
        site,
        team_t: team_t.0,
        student: student_id.0,
        invite: stored.id.0,
        token,
        session: session.0,
    }
}

/// The browser of `viewer` on `site`, signed in, with a form cookie.
async fn browser_of<'s>(site: &'s Site, viewer: &str) -> Browser<'s> {
    let mut browser = site.browser([198, 51, 100, 1]);
    match viewer {
        "anonymous" => {}
        "T's student" => drop(browser.log_in("Stu").await),
        "T's teacher" => drop(browser.log_in("Tess").await),
        "U's teacher" => drop(browser.log_in("Ulla").await),
        "organiser" => drop(browser.log_in("Grace").await),
        "administrator" => browser.log_in_as_administrator().await,
        other => panic!("no viewer {other}"),
    }
    browser.get("/contest/login").await;
    browser
}

impl Fixture {
    /// The route with its parameters filled in.
    fn path(&self, route: &str) -> String {
        route
            .replace("{team}", &self.team_t.to_string())
            .replace("{member}", &self.student.to_string())
            .replace("{invite}", &self.invite.to_string())
            .replace("{session}", &self.session.to_string())
            .replace("{token}", &self.token)
            .replace("{id}", "live")
            .replace("{name}", "replay_swc_2021_blokus_x.xml")
            .replace("{number}", "1")
            .replace("{player}", "1")
            .replace("{file}", "app.css")
            .replace("{phase}", "championship")
            .replace("{step}", "publish")
            .replace("{game}", "1")
            .replace("{challenge}", "1")
            .replace("{answer}", "accept")
            // T against U, not published.
            .replace("{encounter}", "21")
    }
}

/// The status of `method route` asked by `viewer` on a site of its own;
/// a POST carries the CSRF token its form would (the session's, or the
/// form cookie's for the login and invite forms), and nothing else.
async fn answer(method: &str, route: &str, viewer: &str) -> u16 {
    let fixture = fixture().await;
    let mut browser = browser_of(&fixture.site, viewer).await;
    let path = fixture.path(route);
    let cookies = browser
        .cookies
        .iter()
        .map(|(name, value)| format!("{name}={value}"))
        .collect::<Vec<_>>()
        .join("; ");
    let form = (method == "POST").then(|| {
        let secret = if route == "/contest/login" || route.starts_with("/contest/invite/") {
            browser.cookies.get(FORM_COOKIE)
        } else {
            (browser.cookies.get(ACCOUNT_COOKIE))
                .or_else(|| browser.cookies.get(crate::access::SESSION_COOKIE))
        };
        let token = secret.map(|s| secrets::csrf_token(s)).unwrap_or_default();
        encode(&[("csrf", &token)])
    });
    // The upload form is multipart: the token as its only field.
    let upload = method == "POST" && route == "/contest/teams/{team}/versions";
    let status = if upload {
        let secret = browser.cookies.get(ACCOUNT_COOKIE);
        let token = secret.map(|s| secrets::csrf_token(s)).unwrap_or_default();
        let body = format!(
            "--b\r\ncontent-disposition: form-data; name=\"csrf\"\r\n\r\n{token}\r\n--b--\r\n"
        );
        fixture
            .site
            .send_body(
                &path,
                &cookies,
                "multipart/form-data; boundary=b",
                axum::body::Body::from(body),
                browser.peer,
            )
            .await
            .status
    } else {
        fixture
            .site
            .status(method, &path, &cookies, form, browser.peer)
            .await
    };
    browser.cookies.clear();
    status.as_u16()
}

#[tokio::test]
async fn every_route_answers_each_viewer_as_documented() {
    let doc = documented();
    let router = fixture().await.site.router;
    let paths = router_paths(&router);
    assert!(paths.len() >= 50 && paths.contains("/healthz"), "{paths:?}");
    let mut wrong = Vec::new();
    for path in &paths {
        if !doc.iter().any(|row| &row.route == path) {
            wrong.push(format!("{path}: served, but not in ACCESS.md"));
        }
        if !ROUTES.iter().any(|row| row.path == path) {
            wrong.push(format!("{path}: served, but without a row in ROUTES"));
        }
    }
    for row in &doc {
        if !paths.contains(&row.route) {
            wrong.push(format!("{}: in ACCESS.md, but not served", row.route));
        }
        if !ROUTES
            .iter()
            .any(|rule| rule.path == row.route && rule.method == row.method)
        {
            wrong.push(format!(
                "{} {}: in ACCESS.md, but not in ROUTES",
                row.method, row.route
            ));
        }
    }
    // Every method a route serves is documented: the administrator is
    // answered 405 for the others.
    for path in &paths {
        for method in ["GET", "POST"] {
            let documented = doc.iter().any(|r| &r.route == path && r.method == method);
            if !documented && answer(method, path, "administrator").await != 405 {
                wrong.push(format!("{method} {path}: served, but not in ACCESS.md"));
            }
        }
    }
    let mut actual = String::new();
    for row in &doc {
        let mut answers = Vec::new();
        for viewer in VIEWERS {
            answers.push(answer(&row.method, &row.route, viewer).await);
        }
        if answers != row.answers {
            wrong.push(format!(
                "{} {}: {answers:?}, ACCESS.md says {:?}",
                row.method, row.route, row.answers
            ));
        }
        actual.push_str(&format!(
            "| {} | `{}` | {} |\n",
            row.method,
            row.route,
            answers
                .iter()
                .map(u16::to_string)
                .collect::<Vec<_>>()
                .join(" | ")
        ));
    }
    assert!(
        wrong.is_empty(),
        "{}\n\nthe answers:\n{actual}",
        wrong.join("\n")
    );
}

#[tokio::test]
async fn a_route_without_a_rule_is_refused() {
    use tower_service::Service;
    let (app, _) = crate::app::app_state(
        std::sync::Arc::default(),
        crate::WebSettings::new(
            crate::Access::new(
                [127, 0, 0, 1].into(),
                spielleiter_server::config::HttpPublic::Everyone,
                None,
            ),
            None,
        ),
        None,
    );
    let mut router = axum::Router::new()
        .route("/unruled", axum::routing::get(|| async { "served" }))
        .route("/healthz", axum::routing::get(|| async { "ok" }))
        .layer(axum::middleware::from_fn_with_state(
            std::sync::Arc::clone(&app),
            super::decide,
        ))
        .with_state(app);
    for (path, expected) in [("/unruled", 500), ("/healthz", 200)] {
        let request = axum::http::Request::get(path)
            .body(axum::body::Body::empty())
            .unwrap();
        let response = router.call(request).await.unwrap();
        assert_eq!(response.status().as_u16(), expected, "{path}");
    }
}

/// A site of three teams — T against U on championship matchday 1
/// (published, encounter 11) and 2 (played, not published, encounter
/// 21), V sitting both out — with a teacher each and an organiser; and each
/// viewer's browser, signed in.
async fn publication_site() -> Site {
    let site = Site::new().await;
    site.organiser("Grace").await;
    let mut teams = Vec::new();
    for (team, teacher) in [("T", "Tess"), ("U", "Ulla"), ("V", "Vera")] {
        let id = site.team(team).await;
        let token = secrets::new_token();
        let invite = spielleiter_contest::Invite::new(
            id,
            InviteKind::Teacher,
            None,
            Timestamp(START),
            &spielleiter_contest::ContestSettings::default(),
        );
        site.store
            .add_invite(&secrets::digest(&token), &invite)
            .await
            .unwrap();
        site.browser([192, 0, 2, 20]).join(&token, teacher).await;
        teams.push(id);
    }
    site.results
        .add_matchday(1, true, &[(11, teams[0], teams[1])]);
    site.results
        .add_matchday(2, false, &[(21, teams[0], teams[1])]);
    // V sits out both.
    site.results.add_bye(1, teams[2]);
    site.results.add_bye(2, teams[2]);
    site
}

/// The viewers of the publication test: nobody, a member of each of the
/// two teams that met, one of a team that did not, an organiser.
const PUBLICATION_VIEWERS: [(&str, Option<&str>); 5] = [
    ("anonymous", None),
    ("T's teacher (home)", Some("Tess")),
    ("U's teacher (away)", Some("Ulla")),
    ("V's teacher (uninvolved)", Some("Vera")),
    ("organiser", Some("Grace")),
];

/// An encounter's line-up, results and replays are the organisers' and
/// its two teams' until its matchday is published, then everybody's: the
/// replay's page and data by the access layer, the matchday's page, the
/// standings and a team's results by what they show.
#[tokio::test]
async fn an_encounter_is_its_teams_and_the_organisers_until_published() {
    let site = publication_site().await;
    let team_t = site
        .store
        .credentials("tess")
        .await
        .unwrap()
        .unwrap()
        .account;
    let team_t = match team_t.kind {
        spielleiter_contest::AccountKind::Member { team, .. } => team,
        other => panic!("{other:?}"),
    };
    let mut wrong = Vec::new();
    for (viewer, name) in PUBLICATION_VIEWERS {
        let mut browser = site.browser([198, 51, 100, 7]);
        if let Some(name) = name {
            browser.log_in(name).await;
        }
        let sees_unpublished = matches!(
            viewer,
            "T's teacher (home)" | "U's teacher (away)" | "organiser"
        );
        let organiser = viewer == "organiser";
        // The replay viewer's page and its data (the test's archive holds
        // no game: 404 once allowed).
        for (encounter, published) in [(11, true), (21, false)] {
            let allowed = published || sees_unpublished;
            let refused = if name.is_none() { 401 } else { 403 };
            for (path, ok) in [
                (format!("/contest/encounters/{encounter}/games/1"), 200),
                (
                    format!("/contest/encounters/{encounter}/games/1/replay"),
                    404,
                ),
            ] {
                let status = browser.get(&path).await.status.as_u16();
                let expected = if allowed { ok } else { refused };
                if status != expected {
                    wrong.push(format!(
                        "{viewer}: {path} answered {status}, not {expected}"
                    ));
                }
            }
        }
        // The matchdays' pages: the published one shows T – U to all,
        // the other only to whom it may.
        for (number, published) in [(1, true), (2, false)] {
            let page = browser
                .get(&format!("/contest/matchdays/championship/{number}"))
                .await;
            let shown = page.body.contains("Encounter 1: T – U");
            let hidden_note = page.body.contains("1 encounter is not published yet");
            let expected = published || sees_unpublished;
            // Who sat out is line-up too: the organisers' until published.
            let bye = page.body.contains("Sat out: V.");
            if bye != (published || organiser) {
                wrong.push(format!("{viewer}: matchday {number} shows the bye: {bye}"));
            }
            if page.status != 200 || shown != expected || hidden_note == expected {
                wrong.push(format!(
                    "{viewer}: matchday {number} ({}) shows the encounter: {shown}",
                    page.status
                ));
            }
        }
        // The standings: the organisers' count matchday 2, everybody
        // else's the published matchday 1 alone.
        let page = browser.get("/contest/standings").await;
        let counts_two = page.body.contains("After matchday 2");
        if page.status != 200 || counts_two != organiser || !page.body.contains("After matchday") {
            wrong.push(format!(
                "{viewer}: the standings count matchday 2: {counts_two}"
            ));
        }
        // T's results: matchday 2's encounter only to whom it may.
        let page = browser
            .get(&format!("/contest/teams/{team_t}/results"))
            .await;
        let first = page.body.contains("Championship, matchday 1");
        let second = page.body.contains("Championship, matchday 2");
        if page.status != 200 || !first || second != sees_unpublished {
            wrong.push(format!(
                "{viewer}: T's results show matchday 1: {first}, matchday 2: {second}"
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
