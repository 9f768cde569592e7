//! The friendly page: a challenge made by one team's member, answered by
//! the other's, withdrawn by its maker; the hour's limit shown; bad fields
//! and other teams refused with nothing changed.

#![allow(clippy::unwrap_used)]

use axum::http::StatusCode;
use spielleiter_contest::{ChallengeState, FriendlyGames, TeamId};

use super::testing::{Browser, Site};

/// A site with teams T (its teacher Tess), U (Ulla) and V (Vera).
async fn site() -> (Site, [TeamId; 3]) {
    let site = Site::new().await;
    let mut teams = Vec::new();
    for (team, name) in [("T", "Tess"), ("U", "Ulla"), ("V", "Vera")] {
        let id = site.team(team).await;
        site.teacher(id, name).await;
        teams.push(id);
    }
    (site, [teams[0], teams[1], teams[2]])
}

async fn member<'s>(site: &'s Site, name: &str, team: TeamId) -> Browser<'s> {
    let mut browser = site.browser([198, 51, 100, 7]);
    browser.log_in(name).await;
    browser
        .get(&format!("/contest/teams/{team}/friendly"))
        .await;
    browser
}

#[tokio::test]
async fn a_challenge_is_made_answered_and_shown_to_both_teams_only() {
    let (site, [t, u, v]) = site().await;
    let mut tess = member(&site, "Tess", t).await;
    let page = tess.get(&format!("/contest/teams/{t}/friendly")).await;
    assert!(
        page.body.contains("10 of 10 challenges left this hour"),
        "{}",
        page.body
    );
    for bad in ["", "x", "99999999999999999999"] {
        tess.get(&format!("/contest/teams/{t}/friendly")).await;
        let reply = tess
            .post(&format!("/contest/teams/{t}/friendly"), &[("to", bad)])
            .await;
        assert_eq!(
            reply.status,
            StatusCode::BAD_REQUEST,
            "{bad:?}: {}",
            reply.body
        );
    }
    tess.get(&format!("/contest/teams/{t}/friendly")).await;
    let made = tess
        .post(
            &format!("/contest/teams/{t}/friendly"),
            &[("to", &u.to_string())],
        )
        .await;
    assert_eq!(made.status, StatusCode::SEE_OTHER, "{}", made.body);
    let page = tess.get(&format!("/contest/teams/{t}/friendly")).await;
    assert!(
        page.body.contains("to U") && page.body.contains("9 of 10 challenges left"),
        "{}",
        page.body
    );
    assert!(
        page.body.contains("Withdraw the challenge to U"),
        "{}",
        page.body
    );
    assert!(!page.body.contains("Accept the challenge"), "{}", page.body);

    // Vera of V sees neither team's page, nor answers for U.
    let mut vera = member(&site, "Vera", v).await;
    assert_eq!(
        vera.get(&format!("/contest/teams/{t}/friendly"))
            .await
            .status,
        StatusCode::FORBIDDEN
    );
    vera.get(&format!("/contest/teams/{v}/friendly")).await;
    let reply = vera
        .post(&format!("/contest/teams/{v}/friendly/1/accept"), &[])
        .await;
    assert_eq!(
        reply.status,
        StatusCode::NOT_FOUND,
        "not V's: {}",
        reply.body
    );
    let reply = vera
        .post(&format!("/contest/teams/{u}/friendly/1/accept"), &[])
        .await;
    assert_eq!(reply.status, StatusCode::FORBIDDEN, "{}", reply.body);

    let mut ulla = member(&site, "Ulla", u).await;
    let page = ulla.get(&format!("/contest/teams/{u}/friendly")).await;
    assert!(
        page.body.contains("from T") && page.body.contains("Accept the challenge from T"),
        "{}",
        page.body
    );
    let accepted = ulla
        .post(&format!("/contest/teams/{u}/friendly/1/accept"), &[])
        .await;
    assert_eq!(accepted.status, StatusCode::SEE_OTHER, "{}", accepted.body);
    ulla.get(&format!("/contest/teams/{u}/friendly")).await;
    let again = ulla
        .post(&format!("/contest/teams/{u}/friendly/1/decline"), &[])
        .await;
    assert_eq!(again.status, StatusCode::CONFLICT, "{}", again.body);
    let listed = site.friendly.challenges(t).await.unwrap();
    assert_eq!(listed[0].challenge.state, ChallengeState::Accepted);
    let page = tess.get(&format!("/contest/teams/{t}/friendly")).await;
    assert!(
        page.body.contains("accepted: its games wait"),
        "{}",
        page.body
    );
    assert!(
        page.body.contains("0–0 in games won (0 of 2 played)"),
        "{}",
        page.body
    );
}

#[tokio::test]
async fn a_teams_notices_are_shown_to_its_members_only() {
    let (site, [t, u, _]) = site().await;
    site.notices.add(
        t,
        spielleiter_contest::Notice {
            id: spielleiter_contest::NoticeId(1),
            kind: spielleiter_contest::NoticeKind::ChallengeReceived,
            text: "U challenges you to a friendly encounter <script>".to_owned(),
            at: spielleiter_contest::Timestamp(super::testing::START),
        },
    );
    let mut tess = member(&site, "Tess", t).await;
    let page = tess.get(&format!("/contest/teams/{t}/notices")).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(
        page.body
            .contains("U challenges you to a friendly encounter &#60;script&#62;")
            || page
                .body
                .contains("U challenges you to a friendly encounter &lt;script&gt;"),
        "escaped: {}",
        page.body
    );
    let mut ulla = member(&site, "Ulla", u).await;
    assert_eq!(
        ulla.get(&format!("/contest/teams/{t}/notices"))
            .await
            .status,
        StatusCode::FORBIDDEN
    );
    let own = ulla.get(&format!("/contest/teams/{u}/notices")).await;
    assert!(own.body.contains("Nothing yet"), "{}", own.body);
}

fn notice(id: i64, text: &str) -> spielleiter_contest::Notice {
    spielleiter_contest::Notice {
        id: spielleiter_contest::NoticeId(id),
        kind: spielleiter_contest::NoticeKind::BuildFinished,
        text: text.to_owned(),
        at: spielleiter_contest::Timestamp(super::testing::START),
    }
}

#[tokio::test]
async fn each_member_marks_the_teams_notices_read_for_themself() {
    let (site, [t, u, _]) = site().await;
    site.teacher(t, "Theo").await;
    site.notices.add(t, notice(1, "Version 1 is built."));
    site.notices.add(t, notice(2, "Version 2 is built."));
    let mut tess = member(&site, "Tess", t).await;
    let mut theo = member(&site, "Theo", t).await;
    let path = format!("/contest/teams/{t}/notices");
    let page = tess.get(&path).await;
    assert!(page.body.contains("2 new for you"), "{}", page.body);
    assert_eq!(page.body.matches("<strong>new</strong>").count(), 2);
    assert!(
        page.body.contains(r#"name="up_to" value="2""#),
        "{}",
        page.body
    );

    // Marked up to the first only (a page shown before the second came).
    let reply = tess.post(&format!("{path}/read"), &[("up_to", "1")]).await;
    assert_eq!(reply.status, StatusCode::SEE_OTHER, "{}", reply.body);
    let tess_id = who_is(&site, t, "Tess").await;
    assert_eq!(
        site.notices.mark(t, tess_id),
        Some(spielleiter_contest::NoticeId(1))
    );
    let page = tess.get(&path).await;
    assert!(page.body.contains("1 new for you"), "{}", page.body);
    assert_eq!(page.body.matches("<strong>new</strong>").count(), 1);

    // A mark never moves back.
    tess.post(&format!("{path}/read"), &[("up_to", "0")]).await;
    assert!(tess.get(&path).await.body.contains("1 new for you"));
    tess.post(&format!("{path}/read"), &[("up_to", "2")]).await;
    let page = tess.get(&path).await;
    assert!(!page.body.contains("new for you"), "{}", page.body);
    assert!(!page.body.contains("<strong>new</strong>"), "{}", page.body);

    // Theo's mark is his own.
    let page = theo.get(&path).await;
    assert!(page.body.contains("2 new for you"), "{}", page.body);

    // Bad fields and another team's notices change nothing.
    for bad in ["", "two", "1; DROP TABLE"] {
        let reply = theo.post(&format!("{path}/read"), &[("up_to", bad)]).await;
        assert_eq!(
            reply.status,
            StatusCode::BAD_REQUEST,
            "{bad:?}: {}",
            reply.body
        );
    }
    let mut ulla = member(&site, "Ulla", u).await;
    let reply = ulla.post(&format!("{path}/read"), &[("up_to", "2")]).await;
    assert_eq!(reply.status, StatusCode::FORBIDDEN, "{}", reply.body);
    assert!(theo.get(&path).await.body.contains("2 new for you"));
}

#[tokio::test]
async fn a_member_sets_their_own_address_for_notices_and_nothing_else() {
    let (site, [t, _, _]) = site().await;
    let mut tess = member(&site, "Tess", t).await;
    let page = tess.get("/contest/account").await;
    assert!(page.body.contains("Notices by mail"), "{}", page.body);
    let reply = tess
        .post(
            "/contest/account/mail",
            &[("address", " tess@school.example ")],
        )
        .await;
    assert_eq!(reply.status, StatusCode::SEE_OTHER, "{}", reply.body);
    let tess_id = who_is(&site, t, "Tess").await;
    let saved = || site.notices.mail_address_of(tess_id);
    assert_eq!(saved().as_deref(), Some("tess@school.example"));
    let page = tess.get("/contest/account?mail").await;
    assert!(
        page.body.contains(r#"value="tess@school.example""#),
        "{}",
        page.body
    );
    assert!(page.body.contains("Your address for notices is saved."));

    // More than one plain address is refused, with nothing changed.
    for bad in [
        "tess@school.example\r\nBcc: eve@example.org",
        "Tess <tess@school.example>",
        "tess@school.example, eve@example.org",
        "no-at-sign",
    ] {
        let reply = tess
            .post("/contest/account/mail", &[("address", bad)])
            .await;
        assert_eq!(
            reply.status,
            StatusCode::BAD_REQUEST,
            "{bad:?}: {}",
            reply.body
        );
        assert_eq!(saved().as_deref(), Some("tess@school.example"), "{bad:?}");
    }
    // Empty: no more mail.
    let reply = tess.post("/contest/account/mail", &[("address", "")]).await;
    assert_eq!(reply.status, StatusCode::SEE_OTHER, "{}", reply.body);
    assert_eq!(saved(), None);

    // An organiser gets no team's notices.
    site.organiser("Olga").await;
    let mut olga = site.browser([198, 51, 100, 9]);
    olga.log_in("Olga").await;
    assert!(
        !olga
            .get("/contest/account")
            .await
            .body
            .contains("Notices by mail")
    );
    let reply = olga
        .post("/contest/account/mail", &[("address", "olga@example.org")])
        .await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{}", reply.body);
}

async fn who_is(site: &Site, team: TeamId, name: &str) -> spielleiter_contest::MemberId {
    spielleiter_contest::ContestAccounts::members(&*site.store, team)
        .await
        .unwrap()
        .iter()
        .find(|m| m.display_name == name)
        .unwrap()
        .id
}
