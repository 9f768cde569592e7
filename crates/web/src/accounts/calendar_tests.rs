//! The organiser's calendar page: each matchday with the step its stage
//! allows; each form's step handed to the calendar as the organiser chose
//! it, the store's refusal shown with its reason; bad fields, unknown
//! steps, other viewers and forged forms refused with nothing taken.

#![allow(clippy::unwrap_used)]

use axum::http::StatusCode;
use spielleiter_contest::{BracketSize, CalendarStep, Phase, TeamId, Timestamp};

use super::testing::{Browser, START, Site};

/// A site with teams T and U (U's teacher Ulla) and the organiser Grace;
/// championship matchday 1 published, 2 played.
async fn site() -> (Site, TeamId, TeamId) {
    let site = Site::new().await;
    let t = site.team("T").await;
    let u = site.team("U").await;
    site.organiser("Grace").await;
    site.teacher(u, "Ulla").await;
    site.results.add_matchday(1, true, &[(11, t, u)]);
    site.results.add_matchday(2, false, &[(21, t, u)]);
    (site, t, u)
}

async fn organiser(site: &Site) -> Browser<'_> {
    let mut grace = site.browser([198, 51, 100, 7]);
    grace.log_in("Grace").await;
    let page = grace.get("/contest/organiser/calendar").await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    grace
}

#[tokio::test]
async fn the_calendar_offers_each_matchday_the_step_its_stage_allows() {
    let (site, _, _) = site().await;
    let mut grace = organiser(&site).await;
    let page = grace.get("/contest/organiser/calendar").await;
    let published = page
        .body
        .find(r#"action="/contest/organiser/matchdays/championship/1/unpublish""#);
    let played = page
        .body
        .find(r#"action="/contest/organiser/matchdays/championship/2/publish""#);
    assert!(published.is_some() && played.is_some(), "{}", page.body);
    assert!(
        !page.body.contains("/championship/1/publish\"") && !page.body.contains("/2/unpublish"),
        "one step per stage: {}",
        page.body
    );
    // No final yet: its form is there.
    assert!(page.body.contains(r#"action="/contest/organiser/final""#));
    assert!(site.calendar.taken().is_empty(), "looking takes no step");
}

#[tokio::test]
async fn each_form_hands_its_step_to_the_calendar_as_chosen() {
    let (site, _, _) = site().await;
    let mut grace = organiser(&site).await;
    let made = grace
        .post(
            "/contest/organiser/matchdays",
            &[
                ("phase", "trial"),
                ("deadline", "2026-12-05T18:00"),
                ("untimed", "1"),
            ],
        )
        .await;
    assert_eq!(made.status, StatusCode::OK, "{}", made.body);
    assert!(
        made.body.contains("Trial matchdays, matchday 1 is made")
            && made.body.contains("2026-12-05 18:00 UTC"),
        "{}",
        made.body
    );
    grace.get("/contest/organiser/calendar").await;
    let made = grace
        .post(
            "/contest/organiser/matchdays",
            &[("phase", "champions-league"), ("deadline", "")],
        )
        .await;
    assert_eq!(made.status, StatusCode::OK, "{}", made.body);
    grace.get("/contest/organiser/calendar").await;
    let played = grace
        .post(
            "/contest/organiser/matchdays/final/2/play",
            &[("untimed", "1")],
        )
        .await;
    assert!(
        played
            .body
            .contains("The final: semi-final is frozen and scheduled: its 12 games wait"),
        "{}",
        played.body
    );
    for (step, _) in [("publish", 0), ("unpublish", 0), ("retry", 0), ("play", 0)] {
        grace.get("/contest/organiser/calendar").await;
        let done = grace
            .post(
                &format!("/contest/organiser/matchdays/championship/2/{step}"),
                &[],
            )
            .await;
        assert_eq!(done.status, StatusCode::OK, "{step}: {}", done.body);
    }
    grace.get("/contest/organiser/calendar").await;
    grace
        .post("/contest/organiser/final", &[("size", "8")])
        .await;
    let now = Timestamp(START);
    let championship = |number| (Phase::Championship, number);
    let (phase, number) = championship(2);
    assert_eq!(
        site.calendar.taken(),
        [
            (
                CalendarStep::NewMatchday {
                    phase: Phase::Trial,
                    deadline: Some(Timestamp(1_796_493_600)),
                    timed: false
                },
                now
            ),
            (
                CalendarStep::NewMatchday {
                    phase: Phase::ChampionsLeague,
                    deadline: None,
                    timed: true
                },
                now
            ),
            (
                CalendarStep::Play {
                    phase: Phase::Final,
                    number: 2,
                    timed: false
                },
                now
            ),
            (CalendarStep::Publish { phase, number }, now),
            (CalendarStep::Unpublish { phase, number }, now),
            (CalendarStep::RetryFailed { phase, number }, now),
            (
                CalendarStep::Play {
                    phase,
                    number,
                    timed: true
                },
                now
            ),
            (
                CalendarStep::NewFinal {
                    size: Some(BracketSize::Eight)
                },
                now
            ),
        ]
    );
}

#[tokio::test]
async fn a_refused_step_says_why_and_bad_fields_take_none() {
    let (site, _, _) = site().await;
    let mut grace = organiser(&site).await;
    site.calendar.refuse(Some(
        "matchday 2 of the championship is played already; a matchday is frozen once",
    ));
    let refused = grace
        .post("/contest/organiser/matchdays/championship/2/play", &[])
        .await;
    assert_eq!(refused.status, StatusCode::CONFLICT);
    assert!(
        refused.body.contains(
            "Matchday 2 of the championship is played already; a matchday is frozen once."
        ),
        "{}",
        refused.body
    );
    site.calendar.refuse(None);
    for (path, fields, status) in [
        (
            "/contest/organiser/matchdays",
            vec![("phase", "final")],
            StatusCode::BAD_REQUEST,
        ),
        (
            "/contest/organiser/matchdays",
            vec![("phase", "friendly")],
            StatusCode::BAD_REQUEST,
        ),
        (
            "/contest/organiser/matchdays",
            vec![("phase", "trial"), ("deadline", "next friday")],
            StatusCode::BAD_REQUEST,
        ),
        (
            "/contest/organiser/final",
            vec![("size", "16")],
            StatusCode::BAD_REQUEST,
        ),
        (
            "/contest/organiser/matchdays/final/9/play",
            vec![],
            StatusCode::NOT_FOUND,
        ),
        (
            "/contest/organiser/matchdays/championship/2/delete",
            vec![],
            StatusCode::NOT_FOUND,
        ),
        (
            "/contest/organiser/matchdays/friendly/2/play",
            vec![],
            StatusCode::NOT_FOUND,
        ),
    ] {
        grace.get("/contest/organiser/calendar").await;
        let reply = grace.post(path, &fields).await;
        assert_eq!(reply.status, status, "{path} {fields:?}: {}", reply.body);
    }
    assert!(
        site.calendar.taken().is_empty(),
        "{:?}",
        site.calendar.taken()
    );
}

#[tokio::test]
async fn only_an_organiser_takes_a_step_and_only_by_the_pages_own_form() {
    let (site, _, _) = site().await;
    let mut ulla = site.browser([192, 0, 2, 30]);
    ulla.log_in("Ulla").await;
    let page = ulla.get("/contest/organiser/calendar").await;
    assert_eq!(page.status, StatusCode::FORBIDDEN);
    ulla.get("/contest/account").await;
    let reply = ulla
        .post("/contest/organiser/matchdays/championship/2/publish", &[])
        .await;
    assert_eq!(reply.status, StatusCode::FORBIDDEN);
    let mut anonymous = site.browser([192, 0, 2, 31]);
    let reply = anonymous
        .post("/contest/organiser/matchdays/championship/2/publish", &[])
        .await;
    assert_eq!(reply.status, StatusCode::UNAUTHORIZED);
    // The organiser's session, but a form from elsewhere (no token).
    let grace = organiser(&site).await;
    let cookies = grace.cookie_header();
    let forged = site
        .send(
            "POST",
            "/contest/organiser/matchdays/championship/2/publish",
            &cookies,
            Some(String::new()),
            grace.peer,
        )
        .await;
    assert_eq!(forged.status, StatusCode::FORBIDDEN, "{}", forged.body);
    assert!(
        site.calendar.taken().is_empty(),
        "{:?}",
        site.calendar.taken()
    );
}
