//! Friendly games in the store (issue 36), on SQLite and PostgreSQL: a
//! challenge answered under the model's rules, an accepted one's season of
//! both active versions played by the contest's workers after the
//! matchdays' and marked played; a team that accepts by itself; the hour's
//! limit; a team without an active version; who may answer what; each
//! member's read mark on the notices the challenges write, and their mail
//! (claimed once however many senders, fenced by its attempt, given up
//! after its attempts).
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test.

#[macro_use]
mod both_stores;
mod worker_results;
use worker_results::play;

use std::sync::Arc;

use both_stores::TestStore;
use spielleiter_contest::{
    Account, ChallengeAnswer, ChallengeState, ContestAccounts, ContestSettings, FriendlyGames,
    Invite, InviteKind, MAIL_ATTEMPTS, NewAccount, NoticeId, NoticeKind, Phase, RATE_LIMITED,
    StoreError, TeamId, TeamNotices, Timestamp, TokenDigest, VersionNumber,
};
use spielleiter_rules::GameType;
use spielleiter_season::{AnyStore, ContestStore, NewContest, SeasonStore, create_contest};

both_stores!(
    a_challenge_accepted_is_played_by_both_active_versions_and_never_counts,
    challenges_are_limited_by_the_hour_and_need_active_versions,
    each_member_keeps_a_read_mark_on_the_teams_notices,
    a_notice_is_mailed_once_to_each_member_with_an_address,
);

const NOW: Timestamp = Timestamp(1_800_000_000);

/// A contest of Owls, Foxes and Bats (Bats without an active version), a
/// friendly encounter of `games` games, `per_hour` challenges an hour.
async fn contest(test: &TestStore, per_hour: u32) -> (ContestStore<AnyStore>, [TeamId; 3]) {
    let opened = Arc::new(test.open_again().await.unwrap());
    let settings = ContestSettings {
        friendly_challenges_per_hour: per_hour,
        games_per_friendly: 2,
        ..ContestSettings::default()
    };
    let new = NewContest {
        name: "Cup".to_owned(),
        game: GameType::DEFAULT,
        seed: Some(5),
        settings,
    };
    create_contest(&*opened, &new, || 0).await.unwrap();
    let store = ContestStore::open(opened).await.unwrap();
    let mut teams = Vec::new();
    for (name, bot) in [("Owls", "greedy"), ("Foxes", "random"), ("Bats", "")] {
        let team = store.add_team(name, None).await.unwrap().id;
        if !bot.is_empty() {
            store
                .add_version(team, &format!("builtin:{bot}"), "", NOW)
                .await
                .unwrap();
            store
                .activate_version(team, VersionNumber(1), None, "admin", NOW)
                .await
                .unwrap();
        }
        teams.push(team);
    }
    (store, [teams[0], teams[1], teams[2]])
}

async fn a_challenge_accepted_is_played_by_both_active_versions_and_never_counts(test: TestStore) {
    let (store, [owls, foxes, _]) = contest(&test, 10).await;
    let made = FriendlyGames::challenge(&store, owls, Some(foxes), NOW)
        .await
        .unwrap();
    assert_eq!(made.len(), 1);
    let id = made[0].challenge.id;
    assert_eq!(made[0].challenge.state, ChallengeState::Open);
    // Only the challenged team accepts or declines, only the challenger
    // withdraws.
    for (team, answer) in [
        (owls, ChallengeAnswer::Accept),
        (foxes, ChallengeAnswer::Withdraw),
    ] {
        assert_eq!(
            FriendlyGames::answer(&store, team, id, answer, NOW).await,
            Err(StoreError::NotFound("challenge")),
            "{answer:?}"
        );
    }
    assert!(store.seasons_to_play().await.unwrap().is_empty());
    let accepted = FriendlyGames::answer(&store, foxes, id, ChallengeAnswer::Accept, NOW)
        .await
        .unwrap();
    assert_eq!(accepted.challenge.state, ChallengeState::Accepted);
    assert_eq!(accepted.games, [None, None]);
    assert!(matches!(
        FriendlyGames::answer(&store, foxes, id, ChallengeAnswer::Decline, NOW).await,
        Err(StoreError::Refused(_))
    ));
    let season = FriendlyGames::friendly_season(&store, owls, id)
        .await
        .unwrap();
    assert_eq!(season, format!("friendly-{}", id.0));
    let definition = test.store.definition(&season).await.unwrap();
    let starts: Vec<&str> = definition
        .players
        .iter()
        .map(|p| p.start.as_str())
        .collect();
    assert_eq!(
        starts,
        ["builtin:greedy", "builtin:random"],
        "the challenger first"
    );

    // A matchday's games come first, the friendly's after them.
    store
        .create_matchday(Phase::Championship, None, false)
        .await
        .unwrap();
    let report = store
        .play_matchday(Phase::Championship, 1, NOW)
        .await
        .unwrap();
    let encounter = report.encounters[0].0.season.clone().unwrap();
    assert_eq!(
        store.seasons_to_play().await.unwrap(),
        [encounter, season.clone()]
    );
    play(&test.store, &season, [2, 0], [50, 10]).await;
    assert_eq!(
        store.settle_friendlies().await.unwrap(),
        0,
        "a game is left"
    );
    play(&test.store, &season, [0, 2], [20, 30]).await;
    assert_eq!(store.keep_time(NOW).await.unwrap().friendlies_played, 1);
    assert_eq!(
        store.keep_time(NOW).await.unwrap().friendlies_played,
        0,
        "once"
    );
    let listed = FriendlyGames::challenges(&store, foxes).await.unwrap();
    assert_eq!(listed[0].challenge.state, ChallengeState::Played);
    // Each team was told what concerned it, once each.
    let kinds = |team| {
        let store = &store;
        async move {
            let mut kinds: Vec<NoticeKind> = TeamNotices::notices(store, team)
                .await
                .unwrap()
                .into_iter()
                .map(|n| n.kind)
                .collect();
            kinds.sort_by_key(|k| format!("{k:?}"));
            kinds
        }
    };
    assert_eq!(
        kinds(owls).await,
        [NoticeKind::ChallengeAccepted, NoticeKind::FriendlyPlayed]
    );
    assert_eq!(
        kinds(foxes).await,
        [NoticeKind::ChallengeReceived, NoticeKind::FriendlyPlayed]
    );
    assert_eq!(listed[0].games.iter().flatten().count(), 2);
    // Never counted: the standings know no game of it.
    assert!(
        store.standings(Phase::Championship).await.unwrap()[0]
            .rows
            .iter()
            .all(|row| row.games == 0)
    );
}

async fn challenges_are_limited_by_the_hour_and_need_active_versions(test: TestStore) {
    let (store, [owls, foxes, bats]) = contest(&test, 2).await;
    let refused = |result: Result<_, StoreError>| match result {
        Err(StoreError::Refused(why)) => why,
        other => panic!("expected a refusal, got {other:?}"),
    };
    assert!(
        refused(FriendlyGames::challenge(&store, owls, Some(bats), NOW).await)
            .contains("active version")
    );
    assert!(
        refused(FriendlyGames::challenge(&store, bats, Some(owls), NOW).await)
            .contains("active version")
    );
    assert!(
        refused(FriendlyGames::challenge(&store, owls, Some(owls), NOW).await).contains("itself")
    );
    // A team that accepts by itself: scheduled at once. "All" is every
    // other team with an active version (not Bats).
    store.set_auto_accept(foxes, true).await.unwrap();
    let made = FriendlyGames::challenge(&store, owls, None, NOW)
        .await
        .unwrap();
    assert_eq!(made.len(), 1);
    assert_eq!(
        (made[0].challenge.challenged, made[0].challenge.state),
        (foxes, ChallengeState::Accepted)
    );
    FriendlyGames::challenge(&store, owls, Some(foxes), Timestamp(NOW.0 + 60))
        .await
        .unwrap();
    let rate = FriendlyGames::rate(&store, owls, Timestamp(NOW.0 + 60))
        .await
        .unwrap();
    assert_eq!((rate.used, rate.limit), (2, 2));
    assert_eq!(
        refused(FriendlyGames::challenge(&store, owls, Some(foxes), Timestamp(NOW.0 + 120)).await),
        RATE_LIMITED
    );
    assert_eq!(
        FriendlyGames::challenges(&store, owls).await.unwrap().len(),
        2,
        "nothing stored"
    );
    // An hour after the first, one more.
    FriendlyGames::challenge(&store, owls, Some(foxes), Timestamp(NOW.0 + 3600))
        .await
        .unwrap();
    // Bats, without an active version, are told once when a deadline
    // is a day off or less; the others are not.
    store
        .create_matchday(
            Phase::Championship,
            Some(Timestamp(NOW.0 + 2 * 86_400)),
            false,
        )
        .await
        .unwrap();
    store.keep_time(NOW).await.unwrap();
    assert!(
        TeamNotices::notices(&store, bats).await.unwrap().is_empty(),
        "two days off"
    );
    store
        .keep_time(Timestamp(NOW.0 + 86_400 + 60))
        .await
        .unwrap();
    store
        .keep_time(Timestamp(NOW.0 + 86_400 + 120))
        .await
        .unwrap();
    let told = TeamNotices::notices(&store, bats).await.unwrap();
    assert_eq!(told.len(), 1, "{told:?}");
    assert_eq!(told[0].kind, NoticeKind::NoActiveVersion);
    assert!(
        told[0].text.contains("random bot plays for your team"),
        "{told:?}"
    );
    assert!(
        TeamNotices::notices(&store, owls)
            .await
            .unwrap()
            .iter()
            .all(|n| n.kind != NoticeKind::NoActiveVersion)
    );
    // Someone else's challenge's games are not Bats'.
    let id = made[0].challenge.id;
    assert_eq!(
        FriendlyGames::friendly_season(&store, bats, id).await,
        Err(StoreError::NotFound("challenge"))
    );
}

/// `name`, come in to `team` by a teacher's link of its own.
async fn teacher(store: &ContestStore<AnyStore>, team: TeamId, name: &str, n: u8) -> Account {
    let invite = Invite::new(
        team,
        InviteKind::Teacher,
        None,
        NOW,
        &store.record().settings,
    );
    let token = TokenDigest([n; 32]);
    store.add_invite(&token, &invite).await.unwrap();
    let account = NewAccount {
        display_name: name.to_owned(),
        password_hash: format!("$argon2id$v=19$m=8,t=1,p=1$c2FsdA$of-{name}"),
    };
    store.join(&token, &account, NOW).await.unwrap()
}

async fn each_member_keeps_a_read_mark_on_the_teams_notices(test: TestStore) {
    let (store, [owls, foxes, _]) = contest(&test, 10).await;
    let fay = teacher(&store, foxes, "Fay", 1).await.id;
    let gus = teacher(&store, foxes, "Gus", 2).await.id;
    let olga = teacher(&store, owls, "Olga", 3).await.id;
    let organiser = store
        .add_organiser(&NewAccount {
            display_name: "Orla".to_owned(),
            password_hash: "$argon2id$v=19$m=8,t=1,p=1$c2FsdA$of-Orla".to_owned(),
        })
        .await
        .unwrap()
        .id;
    FriendlyGames::challenge(&store, owls, Some(foxes), NOW)
        .await
        .unwrap();
    let notices = TeamNotices::notices(&store, foxes).await.unwrap();
    assert_eq!(notices.len(), 1, "{notices:?}");
    let first = notices[0].id;
    assert_eq!(store.last_read(foxes, fay).await.unwrap(), None);

    // A mark past the newest notice stops at it; it never moves back.
    store
        .mark_read(foxes, fay, NoticeId(i64::MAX))
        .await
        .unwrap();
    assert_eq!(store.last_read(foxes, fay).await.unwrap(), Some(first));
    store.mark_read(foxes, fay, NoticeId(0)).await.unwrap();
    assert_eq!(store.last_read(foxes, fay).await.unwrap(), Some(first));
    // Gus's mark is his own.
    assert_eq!(store.last_read(foxes, gus).await.unwrap(), None);

    // A later notice is newer than Fay's mark.
    FriendlyGames::challenge(&store, owls, Some(foxes), NOW.plus_seconds(1))
        .await
        .unwrap();
    let notices = TeamNotices::notices(&store, foxes).await.unwrap();
    assert_eq!(notices.len(), 2, "{notices:?}");
    assert!(notices[0].id > first, "{notices:?}");
    assert_eq!(store.last_read(foxes, fay).await.unwrap(), Some(first));

    // Nobody but the team's members keeps a mark on its notices: refused,
    // nothing written.
    let marks = || test.sql("SELECT member, up_to FROM contest_notice_reads ORDER BY member");
    let before = marks();
    for (who, what) in [
        (olga, "a member of another team"),
        (organiser, "an organiser"),
    ] {
        assert!(
            matches!(
                store.mark_read(foxes, who, NoticeId(i64::MAX)).await,
                Err(StoreError::Refused(_))
            ),
            "{what}"
        );
        assert_eq!(store.last_read(foxes, who).await.unwrap(), None, "{what}");
    }
    assert_eq!(store.last_read(owls, fay).await.unwrap(), None);
    assert_eq!(marks(), before);
}

async fn a_notice_is_mailed_once_to_each_member_with_an_address(test: TestStore) {
    let (store, [owls, foxes, _]) = contest(&test, 10).await;
    let fay = teacher(&store, foxes, "Fay", 1).await.id;
    let _gus = teacher(&store, foxes, "Gus", 2).await.id;
    let olga = teacher(&store, owls, "Olga", 3).await.id;
    // Told before Fay gave her address: never mailed to her.
    FriendlyGames::challenge(&store, owls, Some(foxes), NOW)
        .await
        .unwrap();
    test.sql("UPDATE contest_notices SET created_at = created_at - 60");
    for (member, address) in [(fay, "fay@foxes.example"), (olga, "olga@owls.example")] {
        store.set_mail_address(member, Some(address)).await.unwrap();
    }
    assert_eq!(
        store.mail_address(fay).await.unwrap().as_deref(),
        Some("fay@foxes.example")
    );
    let refused = store
        .set_mail_address(fay, Some("fay@foxes.example\r\nBcc: eve@example.org"))
        .await;
    assert!(
        matches!(refused, Err(StoreError::Refused(_))),
        "{refused:?}"
    );
    assert_eq!(
        store.mail_address(fay).await.unwrap().as_deref(),
        Some("fay@foxes.example")
    );
    assert!(store.claim_mail(60_000, 10).await.unwrap().is_empty());

    // A notice told now goes to Fay (Gus has no address, Olga is an Owl),
    // claimed by one of two senders asking at once.
    FriendlyGames::challenge(&store, owls, Some(foxes), NOW.plus_seconds(1))
        .await
        .unwrap();
    let second = ContestStore::open(Arc::new(test.open_again().await.unwrap()))
        .await
        .unwrap();
    let (a, b) = tokio::join!(store.claim_mail(60_000, 10), second.claim_mail(60_000, 10));
    let mut jobs: Vec<_> = a.unwrap().into_iter().chain(b.unwrap()).collect();
    assert_eq!(jobs.len(), 1, "{jobs:?}");
    let job = jobs.remove(0);
    assert_eq!(
        (
            job.member,
            job.address.as_str(),
            job.team,
            job.team_name.as_str(),
            job.attempt
        ),
        (fay, "fay@foxes.example", foxes, "Foxes", 1)
    );
    assert!(job.text.contains("Owls"), "{}", job.text);
    assert!(
        store.claim_mail(60_000, 10).await.unwrap().is_empty(),
        "leased"
    );

    // Failed, to be tried again at once: the second attempt; the first
    // attempt's late report changes nothing.
    store
        .mail_done(&job, Err("550 relay refused".to_owned()), -1)
        .await
        .unwrap();
    let again = store.claim_mail(60_000, 10).await.unwrap();
    assert_eq!(again.len(), 1, "{again:?}");
    assert_eq!(again[0].attempt, 2);
    let state = || test.sql("SELECT state, attempt, error FROM contest_notice_mail");
    let before = state();
    store.mail_done(&job, Ok(()), -1).await.unwrap();
    assert_eq!(state(), before, "a superseded attempt's report");
    store.mail_done(&again[0], Ok(()), -1).await.unwrap();
    assert!(state().starts_with("sent|2"), "{}", state());
    assert!(
        store.claim_mail(-1, 10).await.unwrap().is_empty(),
        "sent once"
    );

    // A mail that fails every attempt is given up, with why.
    FriendlyGames::challenge(&store, owls, Some(foxes), NOW.plus_seconds(2))
        .await
        .unwrap();
    for attempt in 1..=MAIL_ATTEMPTS {
        let jobs = store.claim_mail(60_000, 10).await.unwrap();
        assert_eq!(jobs.len(), 1, "attempt {attempt}: {jobs:?}");
        assert_eq!(jobs[0].attempt, attempt);
        store
            .mail_done(&jobs[0], Err(format!("timed out {attempt}")), -1)
            .await
            .unwrap();
    }
    assert!(store.claim_mail(60_000, 10).await.unwrap().is_empty());
    let given_up =
        test.sql("SELECT state, attempt, error FROM contest_notice_mail WHERE state <> 'sent'");
    assert_eq!(
        given_up,
        format!("failed|{MAIL_ATTEMPTS}|timed out {MAIL_ATTEMPTS}")
    );

    // No address, no mail.
    store.set_mail_address(fay, None).await.unwrap();
    assert_eq!(store.mail_address(fay).await.unwrap(), None);
    FriendlyGames::challenge(&store, owls, Some(foxes), NOW.plus_seconds(3))
        .await
        .unwrap();
    assert!(store.claim_mail(60_000, 10).await.unwrap().is_empty());
}
