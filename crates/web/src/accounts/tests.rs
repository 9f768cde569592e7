//! The teams' door at the web level, against the in-memory store: the
//! whole flow (an organiser adds two teams, each teacher joins by the link
//! and invites a student, each member sees their own team only, logout
//! ends the cookie), and bad input, each with one clear answer and nothing
//! changed.

#![allow(clippy::unwrap_used)]

use std::time::Duration;

use axum::http::StatusCode;
use spielleiter_contest::{ContestAccounts, ContestSettings, login_key};
use tokio::time::Instant;

use super::testing::{Browser, PASSWORD, Site, encode, token_of};

const ORGANISER: [u8; 4] = [192, 0, 2, 1];
const TEACHER: [u8; 4] = [192, 0, 2, 2];
const STUDENT: [u8; 4] = [192, 0, 2, 3];
const OTHER: [u8; 4] = [192, 0, 2, 4];

/// A team added by the organiser's page, with its teacher's link.
async fn add_team(organiser: &mut Browser<'_>, name: &str) -> (String, String) {
    let page = organiser
        .post("/contest/organiser/teams", &[("name", name)])
        .await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    let token = token_of(&page.body);
    organiser.get("/contest/organiser").await;
    let team = organiser
        .site_team_link(name)
        .await
        .expect("the team is listed");
    (team, token)
}

impl Browser<'_> {
    /// The path of team `name`'s page on the organiser's page.
    async fn site_team_link(&mut self, name: &str) -> Option<String> {
        let page = self.get("/contest/organiser").await;
        let at = page.body.find(&format!(">{name}</a>"))?;
        let start = page.body[..at].rfind("href=\"")? + 6;
        Some(page.body[start..at - 1].to_owned())
    }
}

#[tokio::test]
async fn two_teams_come_in_and_each_sees_only_its_own() {
    let site = Site::new().await;
    site.organiser("Grace").await;
    let mut organiser = site.browser(ORGANISER);
    organiser.log_in("Grace").await;
    let (owls, owls_link) = add_team(&mut organiser, "Owls").await;
    let (foxes, foxes_link) = add_team(&mut organiser, "Foxes").await;

    let mut owl_teacher = site.browser(TEACHER);
    let joined = owl_teacher.join(&owls_link, "Olive").await;
    assert_eq!(joined.location.as_deref(), Some(owls.as_str()));
    let mut fox_teacher = site.browser(OTHER);
    fox_teacher.join(&foxes_link, "Felix").await;

    // The teacher invites a student, who joins.
    let link = owl_teacher.post(&format!("{owls}/invites"), &[]).await;
    assert_eq!(link.status, StatusCode::OK, "{}", link.body);
    assert!(link.body.contains("http://contest.test/contest/invite/"));
    let mut student = site.browser(STUDENT);
    student.join(&token_of(&link.body), "Sam").await;

    let page = student.get(&owls).await;
    assert_eq!(page.status, StatusCode::OK);
    for name in ["Olive", "Sam", "teacher", "student"] {
        assert!(page.body.contains(name), "{name}: {}", page.body);
    }
    // A student sees the team, but neither its links nor its settings.
    assert!(!page.body.contains("Invite links"), "{}", page.body);
    assert_eq!(
        student.post(&format!("{owls}/invites"), &[]).await.status,
        StatusCode::FORBIDDEN
    );
    // Neither the student nor the teacher of one team opens the other's.
    let refused = student.get(&foxes).await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN);
    // Refused under the header of who is signed in.
    assert!(
        refused.body.contains("Signed in as Sam"),
        "{}",
        refused.body
    );
    assert_eq!(owl_teacher.get(&foxes).await.status, StatusCode::FORBIDDEN);
    assert_eq!(fox_teacher.get(&owls).await.status, StatusCode::FORBIDDEN);
    assert_eq!(
        fox_teacher
            .post(&format!("{owls}/invites"), &[])
            .await
            .status,
        StatusCode::FORBIDDEN
    );
    // The organiser sees both.
    assert_eq!(organiser.get(&owls).await.status, StatusCode::OK);
    assert_eq!(organiser.get(&foxes).await.status, StatusCode::OK);

    // Logging out ends the session: the old cookie is refused.
    let old = student.cookies.clone();
    let out = student.post("/contest/logout", &[]).await;
    assert_eq!(out.status, StatusCode::SEE_OTHER, "{}", out.body);
    assert!(!student.cookies.contains_key(super::secrets::ACCOUNT_COOKIE));
    student.cookies = old;
    assert_eq!(student.get(&owls).await.status, StatusCode::UNAUTHORIZED);
    assert_eq!(
        student.get("/contest/account").await.status,
        StatusCode::UNAUTHORIZED
    );
}

/// A team with its teacher signed in, through the store's link.
async fn team_with_teacher<'s>(site: &'s Site, name: &str) -> (String, Browser<'s>) {
    let team = site.team(name).await;
    let token = teacher_link(site, team).await;
    let mut teacher = site.browser(TEACHER);
    teacher.join(&token, &format!("{name} teacher")).await;
    (format!("/contest/teams/{team}"), teacher)
}

/// A new teacher's link for `team`, straight in the store.
async fn teacher_link(site: &Site, team: spielleiter_contest::TeamId) -> String {
    let token = super::secrets::new_token();
    let invite = spielleiter_contest::Invite::new(
        team,
        spielleiter_contest::InviteKind::Teacher,
        None,
        spielleiter_contest::Timestamp(super::testing::START),
        &ContestSettings::default(),
    );
    site.store
        .add_invite(&super::secrets::digest(&token), &invite)
        .await
        .unwrap();
    token
}

/// The team of a team page's path.
fn team_id(team: &str) -> spielleiter_contest::TeamId {
    spielleiter_contest::TeamId(team.rsplit('/').next().unwrap().parse().unwrap())
}

async fn member_count(site: &Site, team: &str) -> usize {
    site.store.members(team_id(team)).await.unwrap().len()
}

#[tokio::test]
async fn an_expired_or_used_link_is_refused_and_makes_nobody() {
    let site = Site::new().await;
    let (team, mut teacher) = team_with_teacher(&site, "Owls").await;
    let link = teacher.post(&format!("{team}/invites"), &[]).await;
    let token = token_of(&link.body);
    let path = format!("/contest/invite/{token}");

    // Used: the teacher's own link, opened again.
    let mut late = site.browser(STUDENT);
    let used_link = teacher_link(&site, team_id(&team)).await;
    late.join(&used_link, "First").await;
    let again = late.get(&format!("/contest/invite/{used_link}")).await;
    assert_eq!(again.status, StatusCode::GONE, "{}", again.body);
    assert!(
        again.body.contains("This link was used already"),
        "{}",
        again.body
    );
    let before = member_count(&site, &team).await;

    // Expired: a week and a second later.
    let mut student = site.browser(STUDENT);
    assert_eq!(student.get(&path).await.status, StatusCode::OK);
    site.wait(ContestSettings::default().invite_valid_seconds);
    let expired = student
        .post(
            &path,
            &[
                ("name", "Sam"),
                ("password", PASSWORD),
                ("repeat", PASSWORD),
            ],
        )
        .await;
    assert_eq!(expired.status, StatusCode::GONE, "{}", expired.body);
    assert!(
        expired.body.contains("This link expired"),
        "{}",
        expired.body
    );
    assert_eq!(member_count(&site, &team).await, before);
    // An unknown or malformed token: not found.
    for token in ["0".repeat(64), "not-a-token".to_owned()] {
        let reply = student.get(&format!("/contest/invite/{token}")).await;
        assert_eq!(reply.status, StatusCode::NOT_FOUND, "{}", reply.body);
    }
}

fn metric(page: &str, line_start: &str) -> u64 {
    page.lines()
        .find_map(|line| line.strip_prefix(line_start))
        .map(|value| value.trim().parse().unwrap())
        .unwrap_or_else(|| panic!("no {line_start} in the metrics"))
}

/// The login page's answer without its CSRF token (each form has its own).
fn without_token(page: &str) -> String {
    match super::testing::csrf_of(page) {
        Some(token) => page.replace(&token, "TOKEN"),
        None => page.to_owned(),
    }
}

#[tokio::test(start_paused = true)]
async fn a_wrong_password_backs_off_is_counted_and_reads_as_an_unknown_name() {
    let site = Site::new().await;
    team_with_teacher(&site, "Owls").await;
    let known = "Owls teacher";
    let mut guesser = site.browser(OTHER);
    guesser.get("/contest/login").await;
    let start = Instant::now();
    let mut answers = Vec::new();
    for name in [known, "Nobody", known, "nobody at all"] {
        let reply = guesser
            .post(
                "/contest/login",
                &[("name", name), ("password", "wrong password")],
            )
            .await;
        assert_eq!(reply.status, StatusCode::UNAUTHORIZED, "{}", reply.body);
        assert!(
            reply
                .body
                .contains("That name and password do not match an account.")
        );
        answers.push(without_token(&reply.body).replace(name, "NAME"));
    }
    // The same page for a known and an unknown name.
    assert!(
        answers.windows(2).all(|pair| pair[0] == pair[1]),
        "{answers:#?}"
    );
    // From one address: 0, 100, 300, 700 ms, the game port's back-off.
    assert_eq!(start.elapsed(), Duration::from_millis(700));

    // From three other addresses one after another, the known name's own
    // back-off from anywhere slows each guess (it failed twice: 200 ms,
    // then 400 and 800 ms), up to its ceiling.
    let phase = Instant::now();
    for n in 0..3 {
        let mut elsewhere = site.browser([198, 51, 100, n]);
        elsewhere.get("/contest/login").await;
        let reply = elsewhere
            .post(
                "/contest/login",
                &[("name", known), ("password", "wrong again!")],
            )
            .await;
        assert_eq!(reply.status, StatusCode::UNAUTHORIZED);
    }
    assert_eq!(phase.elapsed(), Duration::from_millis(1400));
    let name_key = super::secrets::name_key(&login_key(known));
    let door = site.door.clone();
    assert_eq!(door.by_name.failures(name_key), 5);

    let metrics = guesser.get("/metrics").await.body;
    assert_eq!(
        metric(
            &metrics,
            r#"spielleiter_contest_logins_total{outcome="failed"}"#
        ),
        7
    );
    // The right password gets in, and is counted.
    let mut teacher = site.browser(TEACHER);
    teacher.log_in(known).await;
    let metrics = teacher.get("/metrics").await.body;
    assert_eq!(
        metric(
            &metrics,
            r#"spielleiter_contest_logins_total{outcome="succeeded"}"#
        ),
        1
    );
    assert_eq!(door.by_name.failures(name_key), 0);
}

#[tokio::test(start_paused = true)]
async fn too_many_guesses_at_a_name_are_refused_unchecked() {
    let site = Site::new().await;
    team_with_teacher(&site, "Owls").await;
    let mut guesser = site.browser(OTHER);
    guesser.get("/contest/login").await;
    let form = encode(&[
        ("csrf", guesser.csrf.as_deref().unwrap()),
        ("name", "Owls teacher"),
        ("password", "wrong password"),
    ]);
    for _ in 0..6 {
        let reply = guesser.post_raw("/contest/login", form.clone()).await;
        assert_eq!(reply.status, StatusCode::UNAUTHORIZED);
    }
    // Many at once: the turns further off than the longest delay are
    // refused at once, counted as throttled.
    let cookies = format!(
        "{}={}",
        super::secrets::FORM_COOKIE,
        guesser.cookies[super::secrets::FORM_COOKIE]
    );
    let replies = futures_util::future::join_all((0..7).map(|_| {
        site.send(
            "POST",
            "/contest/login",
            &cookies,
            Some(form.clone()),
            guesser.peer,
        )
    }))
    .await;
    let throttled = replies
        .iter()
        .filter(|r| r.status == StatusCode::TOO_MANY_REQUESTS)
        .count();
    assert!(
        throttled > 0,
        "{:?}",
        replies.iter().map(|r| r.status).collect::<Vec<_>>()
    );
    assert!(replies.iter().all(|r| matches!(
        r.status,
        StatusCode::TOO_MANY_REQUESTS | StatusCode::UNAUTHORIZED
    )));
    let metrics = guesser.get("/metrics").await.body;
    assert_eq!(
        metric(
            &metrics,
            r#"spielleiter_contest_logins_total{outcome="throttled"}"#
        ),
        throttled as u64
    );
}

#[tokio::test]
async fn a_form_without_its_sessions_token_changes_nothing() {
    let site = Site::new().await;
    let (team, mut teacher) = team_with_teacher(&site, "Owls").await;
    let ((), other) = {
        let foxes = site.team("Foxes").await;
        let token = teacher_link(&site, foxes).await;
        let mut other = site.browser(OTHER);
        other.join(&token, "Felix").await;
        ((), other)
    };
    let other_token = other.csrf.clone().unwrap();
    let own_token = teacher.csrf.clone().unwrap();
    assert_ne!(own_token, other_token);
    let owls = team_id(&team);
    let before = site.store.invites(owls).await.unwrap().len();
    for body in [
        String::new(),
        encode(&[("csrf", "")]),
        encode(&[("csrf", &other_token)]),
        encode(&[("csrf", &own_token[..63])]),
    ] {
        let reply = teacher.post_raw(&format!("{team}/invites"), body).await;
        assert_eq!(reply.status, StatusCode::FORBIDDEN, "{}", reply.body);
        assert!(
            reply.body.contains("The form is out of date"),
            "{}",
            reply.body
        );
    }
    assert_eq!(site.store.invites(owls).await.unwrap().len(), before);
    // Logout needs the token too: another site cannot log a person out.
    let reply = teacher.post_raw("/contest/logout", String::new()).await;
    assert_eq!(reply.status, StatusCode::FORBIDDEN);
    assert_eq!(teacher.get(&team).await.status, StatusCode::OK);
    // A login form without its form cookie's token signs nobody in.
    let mut stranger = site.browser(STUDENT);
    let reply = stranger
        .post_raw(
            "/contest/login",
            encode(&[("name", "Owls teacher"), ("password", PASSWORD)]),
        )
        .await;
    assert_eq!(reply.status, StatusCode::FORBIDDEN, "{}", reply.body);
}

#[tokio::test]
async fn a_password_change_ends_every_other_session() {
    let site = Site::new().await;
    let (team, mut teacher) = team_with_teacher(&site, "Owls").await;
    let mut laptop = site.browser(OTHER);
    laptop.log_in("Owls teacher").await;
    let sessions = teacher.get("/contest/account").await;
    assert_eq!(
        sessions.body.matches("<tr><td>").count(),
        2,
        "{}",
        sessions.body
    );

    let new = "another long password";
    let wrong = teacher
        .post(
            "/contest/account/password",
            &[
                ("current", "not it at all"),
                ("password", new),
                ("repeat", new),
            ],
        )
        .await;
    assert_eq!(wrong.status, StatusCode::UNAUTHORIZED, "{}", wrong.body);
    assert_eq!(laptop.get(&team).await.status, StatusCode::OK);

    let old_cookies = teacher.cookies.clone();
    let changed = teacher
        .post(
            "/contest/account/password",
            &[("current", PASSWORD), ("password", new), ("repeat", new)],
        )
        .await;
    assert_eq!(changed.status, StatusCode::SEE_OTHER, "{}", changed.body);
    // This browser has a new session; the laptop's and the old cookie end.
    assert_eq!(teacher.get(&team).await.status, StatusCode::OK);
    assert_eq!(laptop.get(&team).await.status, StatusCode::UNAUTHORIZED);
    let mut old = site.browser(TEACHER);
    old.cookies = old_cookies;
    assert_eq!(old.get(&team).await.status, StatusCode::UNAUTHORIZED);
    // The old password no more, the new one yes.
    let mut again = site.browser(OTHER);
    again.get("/contest/login").await;
    let reply = again
        .post(
            "/contest/login",
            &[("name", "Owls teacher"), ("password", PASSWORD)],
        )
        .await;
    assert_eq!(reply.status, StatusCode::UNAUTHORIZED);
    let reply = again
        .post(
            "/contest/login",
            &[("name", "owls TEACHER"), ("password", new)],
        )
        .await;
    assert_eq!(reply.status, StatusCode::SEE_OTHER, "{}", reply.body);
}

#[tokio::test]
async fn an_idle_session_ends() {
    let site = Site::new().await;
    let (team, mut teacher) = team_with_teacher(&site, "Owls").await;
    site.wait(ContestSettings::default().session_idle_seconds - 1);
    assert_eq!(teacher.get(&team).await.status, StatusCode::OK);
    site.wait(ContestSettings::default().session_idle_seconds);
    assert_eq!(teacher.get(&team).await.status, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn a_ten_megabyte_name_is_refused_before_it_is_read() {
    let site = Site::new().await;
    let (team, mut teacher) = team_with_teacher(&site, "Owls").await;
    let link = teacher.post(&format!("{team}/invites"), &[]).await;
    let token = token_of(&link.body);
    let huge = "x".repeat(10 << 20);
    let mut student = site.browser(STUDENT);
    student.get(&format!("/contest/invite/{token}")).await;
    let csrf = student.csrf.clone().unwrap();
    let before = member_count(&site, &team).await;
    for path in [
        format!("/contest/invite/{token}"),
        "/contest/login".to_owned(),
    ] {
        let body = encode(&[
            ("csrf", &csrf),
            ("name", &huge),
            ("password", PASSWORD),
            ("repeat", PASSWORD),
        ]);
        let reply = student.post_raw(&path, body).await;
        assert_eq!(reply.status, StatusCode::PAYLOAD_TOO_LARGE, "{path}");
        assert!(reply.body.contains("nothing was changed"), "{}", reply.body);
    }
    let reply = teacher
        .post(&format!("{team}/settings"), &[("auto_accept", &huge)])
        .await;
    assert_eq!(reply.status, StatusCode::PAYLOAD_TOO_LARGE);
    assert_eq!(member_count(&site, &team).await, before);
    // A name just too long for a person is refused by the rule, readably.
    let reply = student
        .post(
            &format!("/contest/invite/{token}"),
            &[
                ("name", &"y".repeat(41)),
                ("password", PASSWORD),
                ("repeat", PASSWORD),
            ],
        )
        .await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{}", reply.body);
    assert!(reply.body.contains("at most 40"), "{}", reply.body);
    assert_eq!(member_count(&site, &team).await, before);
}

#[tokio::test]
async fn sql_and_html_in_every_field_are_kept_as_text_and_escaped() {
    let site = Site::new().await;
    site.organiser("Grace").await;
    let mut organiser = site.browser(ORGANISER);
    organiser.log_in("Grace").await;
    let evil = r#"<script>alert(1)</script>'); DROP TABLE teams; --"#;
    let team_name = &evil[..evil.len().min(60)];
    let page = organiser
        .post("/contest/organiser/teams", &[("name", team_name)])
        .await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    let token = token_of(&page.body);
    let person = r#"<b onclick="x">Bo'b"; --</b>"#;
    let mut teacher = site.browser(TEACHER);
    teacher.join(&token, person).await;
    let team = site.store.teams().await.unwrap()[0].clone();
    assert_eq!(team.name, team_name, "stored as typed");
    let team_page = format!("/contest/teams/{}", team.id);
    for (teachers, path) in [
        (true, team_page.as_str()),
        (false, "/contest/organiser"),
        (false, "/contest"),
        (false, team_page.as_str()),
    ] {
        let browser = if teachers {
            &mut teacher
        } else {
            &mut organiser
        };
        let page = browser.get(path).await;
        assert_eq!(page.status, StatusCode::OK, "{path}");
        assert!(
            !page.body.contains("<script>alert"),
            "{path}: {}",
            page.body
        );
        assert!(!page.body.contains("<b onclick"), "{path}");
        assert!(
            page.body
                .contains("&#60;script&#62;alert(1)&#60;/script&#62;"),
            "{path}: {}",
            page.body
        );
    }
    // The login form shows a typed name back escaped.
    let mut stranger = site.browser(OTHER);
    stranger.get("/contest/login").await;
    let reply = stranger
        .post(
            "/contest/login",
            &[("name", r#""><script>x</script>"#), ("password", "p")],
        )
        .await;
    assert_eq!(reply.status, StatusCode::UNAUTHORIZED);
    assert!(!reply.body.contains("<script>x"), "{}", reply.body);
    // The HTML name signs in as typed.
    let mut again = site.browser(STUDENT);
    again.log_in(person).await;
}

/// Guessing wrong at a member's name, from one address or many, cannot
/// lock the member out: from a fresh address the owner gets in within the
/// name's ceiling, while the guesser's own attempts stay slowed.
#[tokio::test(start_paused = true)]
async fn guessing_at_a_name_does_not_lock_its_owner_out() {
    let site = Site::new().await;
    team_with_teacher(&site, "Owls").await;
    let known = "Owls teacher";
    let wrong = [("name", known), ("password", "wrong password")];
    // From twenty addresses, three guesses each.
    for n in 0..20 {
        let mut elsewhere = site.browser([198, 51, 100, n]);
        elsewhere.get("/contest/login").await;
        for _ in 0..3 {
            let reply = elsewhere.post("/contest/login", &wrong).await;
            assert_eq!(reply.status, StatusCode::UNAUTHORIZED);
        }
    }
    // And thirty from one.
    let mut guesser = site.browser(OTHER);
    guesser.get("/contest/login").await;
    for _ in 0..30 {
        let reply = guesser.post("/contest/login", &wrong).await;
        assert_eq!(reply.status, StatusCode::UNAUTHORIZED);
    }
    // The owner, from a fresh address, gets in at once but for the name's
    // ceiling.
    let mut owner = site.browser([203, 0, 113, 9]);
    owner.get("/contest/login").await;
    let start = Instant::now();
    let reply = owner
        .post("/contest/login", &[("name", known), ("password", PASSWORD)])
        .await;
    assert_eq!(reply.status, StatusCode::SEE_OTHER, "{}", reply.body);
    assert!(
        start.elapsed() <= Duration::from_secs(2),
        "{:?}",
        start.elapsed()
    );
    // The guesser's address is as slow as ever: its next turn is seconds
    // off.
    let start = Instant::now();
    let reply = guesser.post("/contest/login", &wrong).await;
    assert!(
        reply.status == StatusCode::TOO_MANY_REQUESTS || start.elapsed() >= Duration::from_secs(5),
        "{} after {:?}",
        reply.status,
        start.elapsed()
    );
}

/// A school behind one address: a typo every two minutes for two hours is
/// forgiven as it goes, so the school's logins afterwards wait no longer
/// than anyone's.
#[tokio::test(start_paused = true)]
async fn occasional_typos_from_one_address_are_forgiven() {
    let site = Site::new().await;
    let school = [192, 0, 2, 77];
    for n in 0..5 {
        site.organiser(&format!("Pupil {n}")).await;
    }
    let mut typist = site.browser(school);
    typist.get("/contest/login").await;
    for n in 0..60 {
        let name = format!("Pupil {}", n % 5);
        let reply = typist
            .post(
                "/contest/login",
                &[("name", &name), ("password", "a typo in it")],
            )
            .await;
        assert_eq!(reply.status, StatusCode::UNAUTHORIZED, "{}", reply.body);
        tokio::time::advance(Duration::from_secs(120)).await;
    }
    // Now five pupils log in, one after another, from the school.
    let start = Instant::now();
    for n in 0..5 {
        let mut pupil = site.browser(school);
        pupil.log_in(&format!("Pupil {n}")).await;
    }
    assert!(
        start.elapsed() < Duration::from_secs(1),
        "the school waits {:?}",
        start.elapsed()
    );
}

/// Opening unknown invite links is a guess like a wrong password: it backs
/// off per address; a name that is someone's already is refused with one
/// answer that does not say whose, counted as a guess too.
#[tokio::test(start_paused = true)]
async fn invite_links_and_registrations_are_throttled_and_say_one_thing() {
    let site = Site::new().await;
    let (team, mut teacher) = team_with_teacher(&site, "Owls").await;
    let mut prober = site.browser(OTHER);
    let start = Instant::now();
    for n in 0..6 {
        let reply = prober.get(&format!("/contest/invite/{:064x}", n + 1)).await;
        assert_eq!(reply.status, StatusCode::NOT_FOUND, "{}", reply.body);
    }
    // 0, 100, 300, 700, 1500, 3100 ms.
    assert!(
        start.elapsed() >= Duration::from_millis(3100),
        "unknown links are not slowed: {:?}",
        start.elapsed()
    );
    // Many at once: the turns too far off are refused at once.
    let paths: Vec<String> = (0..8)
        .map(|n| format!("/contest/invite/{n:064x}"))
        .collect();
    let replies = futures_util::future::join_all(
        paths
            .iter()
            .map(|path| site.send("GET", path, "", None, prober.peer)),
    )
    .await;
    assert!(
        replies
            .iter()
            .any(|r| r.status == StatusCode::TOO_MANY_REQUESTS),
        "{:?}",
        replies.iter().map(|r| r.status).collect::<Vec<_>>()
    );

    // A taken name: one answer, the link unused, and the next try slowed.
    let link = teacher.post(&format!("{team}/invites"), &[]).await;
    let path = format!("/contest/invite/{}", token_of(&link.body));
    let mut student = site.browser(STUDENT);
    student.get(&path).await;
    let fields =
        |name: &'static str| [("name", name), ("password", PASSWORD), ("repeat", PASSWORD)];
    let taken = student.post(&path, &fields("OWLS TEACHER")).await;
    assert_eq!(taken.status, StatusCode::BAD_REQUEST, "{}", taken.body);
    assert!(
        taken.body.contains("This name cannot be chosen"),
        "{}",
        taken.body
    );
    assert!(
        !taken.body.to_lowercase().contains("taken"),
        "{}",
        taken.body
    );
    let before = member_count(&site, &team).await;
    let start = Instant::now();
    let again = student.post(&path, &fields("Owls Teacher")).await;
    assert_eq!(again.status, StatusCode::BAD_REQUEST);
    let slowed = start.elapsed();
    assert!(slowed >= Duration::from_millis(100), "{slowed:?}");
    assert_eq!(member_count(&site, &team).await, before);
    student.join(&token_of(&link.body), "Sam").await;
}

/// A disabled teacher gets back in by no path: not by the session they
/// had, nor a login, nor a student's link they kept, nor a reset link; a
/// disabled team's members neither.
#[tokio::test]
async fn a_disabled_teacher_gets_back_in_by_no_path() {
    let site = Site::new().await;
    let (team, mut teacher) = team_with_teacher(&site, "Owls").await;
    let kept = teacher.post(&format!("{team}/invites"), &[]).await;
    let kept = format!("/contest/invite/{}", token_of(&kept.body));
    let members = site.store.members(team_id(&team)).await.unwrap();
    let teacher_id = members[0].id;
    site.store
        .set_account_enabled(teacher_id, false)
        .await
        .unwrap();
    assert_eq!(teacher.get(&team).await.status, StatusCode::UNAUTHORIZED);
    let mut again = site.browser(OTHER);
    again.get("/contest/login").await;
    let login = again
        .post(
            "/contest/login",
            &[("name", "Owls teacher"), ("password", PASSWORD)],
        )
        .await;
    assert_eq!(login.status, StatusCode::FORBIDDEN, "{}", login.body);
    let mut comeback = site.browser(OTHER);
    let opened = comeback.get(&kept).await;
    assert_eq!(opened.status, StatusCode::FORBIDDEN, "{}", opened.body);
    let before = member_count(&site, &team).await;
    let joined = comeback
        .post(
            &kept,
            &[
                ("name", "Not the teacher"),
                ("password", PASSWORD),
                ("repeat", PASSWORD),
            ],
        )
        .await;
    assert_ne!(joined.status, StatusCode::SEE_OTHER, "{}", joined.body);
    assert_eq!(member_count(&site, &team).await, before);
    // A reset link for the disabled teacher works no more.
    let mut administrator = site.browser(STUDENT);
    administrator.log_in_as_administrator().await;
    let reset = administrator
        .post(
            &format!("/contest/organiser/members/{teacher_id}/reset"),
            &[],
        )
        .await;
    assert_eq!(reset.status, StatusCode::OK, "{}", reset.body);
    let reset = format!("/contest/invite/{}", token_of(&reset.body));
    assert_eq!(comeback.get(&reset).await.status, StatusCode::FORBIDDEN);

    // Enabled again, the teacher is in; their team disabled, out again by
    // every path.
    site.store
        .set_account_enabled(teacher_id, true)
        .await
        .unwrap();
    let mut teacher = site.browser(TEACHER);
    teacher.log_in("Owls teacher").await;
    let student_link = teacher.post(&format!("{team}/invites"), &[]).await;
    let student_link = format!("/contest/invite/{}", token_of(&student_link.body));
    site.store
        .set_team_enabled(team_id(&team), false)
        .await
        .unwrap();
    assert_eq!(teacher.get(&team).await.status, StatusCode::UNAUTHORIZED);
    assert_eq!(
        comeback.get(&student_link).await.status,
        StatusCode::FORBIDDEN
    );
    assert_eq!(comeback.get(&reset).await.status, StatusCode::FORBIDDEN);
    let login = again
        .post(
            "/contest/login",
            &[("name", "Owls teacher"), ("password", PASSWORD)],
        )
        .await;
    assert_eq!(login.status, StatusCode::FORBIDDEN, "{}", login.body);
}

/// The door's pages are kept by no cache, send no referrer (invite tokens
/// are in their addresses), are not sniffed and are framed by no site —
/// refusals included.
#[tokio::test]
async fn the_doors_pages_carry_their_protective_headers() {
    let site = Site::new().await;
    let (team, mut teacher) = team_with_teacher(&site, "Owls").await;
    let link = teacher.post(&format!("{team}/invites"), &[]).await;
    let mut stranger = site.browser(OTHER);
    let invite = format!("/contest/invite/{}", token_of(&link.body));
    let pages = [
        teacher.get(&team).await,
        teacher.get("/contest/account").await,
        link,
        stranger.get("/contest/login").await,
        stranger.get(&invite).await,
        stranger.get(&team).await,
        stranger
            .get(&format!("/contest/invite/{}", "0".repeat(64)))
            .await,
        stranger.post_raw("/contest/logout", String::new()).await,
    ];
    for page in &pages {
        let header = |name: &str| {
            page.headers
                .get(name)
                .and_then(|v| v.to_str().ok())
                .unwrap_or("")
                .to_owned()
        };
        assert_eq!(header("cache-control"), "no-store", "{}", page.status);
        assert_eq!(header("referrer-policy"), "no-referrer");
        assert_eq!(header("x-content-type-options"), "nosniff");
        assert_eq!(header("x-frame-options"), "DENY");
        assert!(
            header("content-security-policy").contains("frame-ancestors 'none'"),
            "{}",
            header("content-security-policy")
        );
    }
}

/// A login with a password hashed under older parameters rehashes it with
/// the configured ones, ending no session; the password still works.
#[tokio::test]
async fn a_login_rehashes_a_password_of_older_parameters() {
    let stronger = super::PasswordParams {
        memory_kib: 16,
        iterations: 2,
        parallelism: 1,
    };
    let site = Site::hashing_with(|settings| settings, None, stronger).await;
    // Made with the tests' fast parameters (m=8, t=1).
    site.organiser("Grace").await;
    let hash = |site: &Site| {
        let store = std::sync::Arc::clone(&site.store);
        async move {
            store
                .credentials("grace")
                .await
                .unwrap()
                .unwrap()
                .password_hash
        }
    };
    assert!(hash(&site).await.contains("m=8,t=1,p=1"));
    let mut first = site.browser(ORGANISER);
    first.log_in("Grace").await;
    let rehashed = hash(&site).await;
    assert!(
        rehashed.starts_with("$argon2id$v=19$m=16,t=2,p=1$"),
        "{rehashed}"
    );
    assert_eq!(first.get("/contest/organiser").await.status, StatusCode::OK);
    // Logging in again changes nothing more; the password works.
    let mut second = site.browser(OTHER);
    second.log_in("Grace").await;
    assert_eq!(hash(&site).await, rehashed);
    assert_eq!(first.get("/contest/organiser").await.status, StatusCode::OK);
}

/// The administrator's login cookie is a new random secret per login, not
/// one value per process: two logins get two cookies, logging out ends the
/// one logged out with on the server (a copy of it is refused afterwards),
/// and the other stays.
#[tokio::test]
async fn each_administrator_login_has_its_own_cookie_and_logout_ends_it() {
    let site = Site::new().await;
    let cookie = crate::access::SESSION_COOKIE;
    let mut first = site.browser(ORGANISER);
    first.log_in_as_administrator().await;
    let mut second = site.browser(OTHER);
    second.log_in_as_administrator().await;
    assert_ne!(
        first.cookies.get(cookie),
        second.cookies.get(cookie),
        "two logins, one cookie"
    );
    let kept = first.cookies.clone();
    let out = first.post("/contest/logout", &[]).await;
    assert_eq!(out.status, StatusCode::SEE_OTHER, "{}", out.body);
    let mut copy = site.browser(ORGANISER);
    copy.cookies = kept;
    assert_eq!(
        copy.get("/contest/organiser").await.status,
        StatusCode::UNAUTHORIZED,
        "a logged-out administrator's cookie still works"
    );
    assert_eq!(
        second.get("/contest/organiser").await.status,
        StatusCode::OK
    );
}

/// Names with direction-changing or invisible characters are refused with
/// the rule's one answer, and never shown back; a team's open links and a
/// member's sessions are capped, the link's refusal said plainly.
#[tokio::test]
async fn bad_names_and_too_many_links_or_sessions_get_one_clear_answer() {
    let site = Site::new().await;
    let (team, mut teacher) = team_with_teacher(&site, "Owls").await;
    let mut links = Vec::new();
    for _ in 0..spielleiter_contest::accounts::MAX_OPEN_LINKS_PER_TEAM {
        let link = teacher.post(&format!("{team}/invites"), &[]).await;
        assert_eq!(link.status, StatusCode::OK, "{}", link.body);
        links.push(token_of(&link.body));
    }
    let before = site.store.invites(team_id(&team)).await.unwrap().len();
    let refused = teacher.post(&format!("{team}/invites"), &[]).await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN, "{}", refused.body);
    assert!(
        refused
            .body
            .contains("This team has as many open invite links as allowed (20)"),
        "{}",
        refused.body
    );
    assert_eq!(
        site.store.invites(team_id(&team)).await.unwrap().len(),
        before
    );

    let path = format!("/contest/invite/{}", links[0]);
    let mut student = site.browser(STUDENT);
    student.get(&path).await;
    for name in ["Ada\u{202E}ecalevol", "A\u{200B}da", "Ada\u{00A0}L"] {
        let reply = student
            .post(
                &path,
                &[("name", name), ("password", PASSWORD), ("repeat", PASSWORD)],
            )
            .await;
        assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{}", reply.body);
        assert!(
            reply.body.contains("invisible or direction-changing"),
            "{}",
            reply.body
        );
    }
    // A login shows the typed name back without them.
    let mut stranger = site.browser(OTHER);
    stranger.get("/contest/login").await;
    let reply = stranger
        .post(
            "/contest/login",
            &[("name", "Ada\u{202E}live"), ("password", "wrong password")],
        )
        .await;
    assert_eq!(reply.status, StatusCode::UNAUTHORIZED);
    assert!(!reply.body.contains('\u{202E}'), "{}", reply.body);
    assert!(reply.body.contains("Adalive"), "{}", reply.body);

    // Eleven logins: ten sessions live, the first one ended.
    let first = teacher.cookies.clone();
    for n in 0..spielleiter_contest::accounts::MAX_SESSIONS_PER_ACCOUNT {
        let mut laptop = site.browser([198, 51, 100, u8::try_from(n).unwrap()]);
        laptop.log_in("Owls teacher").await;
    }
    let mut old = site.browser(TEACHER);
    old.cookies = first;
    assert_eq!(old.get(&team).await.status, StatusCode::UNAUTHORIZED);
}
