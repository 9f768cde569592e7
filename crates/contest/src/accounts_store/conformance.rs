//! The cases every [`ContestAccounts`] store passes (feature
//! `test-support`): the in-memory store's here, SQLite's and PostgreSQL's
//! in the season store, so that they cannot drift apart. Each case takes a
//! new, empty store of a contest with the default settings, runs on any
//! executor, and panics with what differs.
//!
//! [`CASES`] lists them all, so that a store's test runs every case, and a
//! case added here runs there without a line more.

use std::{
    future::Future,
    pin::Pin,
    task::{Context, Poll},
};

use super::{ContestAccounts, NewAccount, SessionOrigin, StoreError, StoreFuture, TOO_MANY_LINKS};
use crate::{
    AccountKind, ContestSettings, Invite, InviteError, InviteKind, MemberId, Role, Team, Timestamp,
    TokenDigest,
    accounts::{MAX_OPEN_LINKS_PER_TEAM, MAX_SESSIONS_PER_ACCOUNT, SESSION_USE_STEP_SECONDS},
};

/// A case: a function of a new, empty store.
pub type Case = for<'a> fn(&'a dyn ContestAccounts) -> Pin<Box<dyn Future<Output = ()> + 'a>>;

/// Every case, by name.
pub const CASES: &[(&str, Case)] = &[
    ("teams_have_unique_names", |s| {
        Box::pin(teams_have_unique_names(s))
    }),
    ("an_invite_makes_one_member_once", |s| {
        Box::pin(an_invite_makes_one_member_once(s))
    }),
    ("a_refused_join_changes_nothing", |s| {
        Box::pin(a_refused_join_changes_nothing(s))
    }),
    ("an_invite_opened_twice_at_once_makes_one_member", |s| {
        Box::pin(an_invite_opened_twice_at_once_makes_one_member(s))
    }),
    ("sessions_expire_and_end", |s| {
        Box::pin(sessions_expire_and_end(s))
    }),
    ("a_password_change_ends_every_session", |s| {
        Box::pin(a_password_change_ends_every_session(s))
    }),
    ("disabling_ends_sessions_and_links", |s| {
        Box::pin(disabling_ends_sessions_and_links(s))
    }),
    ("a_removed_member_is_gone", |s| {
        Box::pin(a_removed_member_is_gone(s))
    }),
    ("organisers_and_members_share_the_names", |s| {
        Box::pin(organisers_and_members_share_the_names(s))
    }),
    ("a_link_works_no_more_once_its_maker_is_disabled", |s| {
        Box::pin(a_link_works_no_more_once_its_maker_is_disabled(s))
    }),
    ("a_session_records_its_use_by_the_step", |s| {
        Box::pin(a_session_records_its_use_by_the_step(s))
    }),
    (
        "a_newer_reset_link_or_a_new_password_ends_the_old_links",
        |s| Box::pin(a_newer_reset_link_or_a_new_password_ends_the_old_links(s)),
    ),
    ("sessions_per_account_are_capped", |s| {
        Box::pin(sessions_per_account_are_capped(s))
    }),
    ("open_links_per_team_are_capped", |s| {
        Box::pin(open_links_per_team_are_capped(s))
    }),
    ("a_rehash_replaces_only_the_hash_it_read", |s| {
        Box::pin(a_rehash_replaces_only_the_hash_it_read(s))
    }),
];

/// The instant the cases start at.
const T0: Timestamp = Timestamp(1_800_000_000);

/// A token's digest, distinct per `n`.
fn token(n: u8) -> TokenDigest {
    let mut bytes = [n; 32];
    bytes[31] = 0xA5;
    TokenDigest(bytes)
}

fn new_account(name: &str) -> NewAccount {
    NewAccount {
        display_name: name.to_owned(),
        password_hash: format!("$argon2id$v=19$m=8,t=1,p=1$c2FsdA$hash-of-{name}"),
    }
}

fn origin() -> SessionOrigin {
    SessionOrigin {
        user_agent: "Firefox".to_owned(),
        address: "192.0.2.1".to_owned(),
    }
}

async fn settings(store: &dyn ContestAccounts) -> ContestSettings {
    store.contest().await.expect("the contest").settings
}

async fn team(store: &dyn ContestAccounts, name: &str) -> Team {
    store.add_team(name, None).await.expect("a new team")
}

/// Stores an invite of `kind` for `team` made at `now` under `token(n)`.
async fn invite(
    store: &dyn ContestAccounts,
    team: &Team,
    kind: InviteKind,
    n: u8,
    now: Timestamp,
) -> Invite {
    let invite = Invite::new(team.id, kind, None, now, &settings(store).await);
    store
        .add_invite(&token(n), &invite)
        .await
        .expect("a new invite");
    invite
}

/// A team with its teacher (joined by `token(n)`): the team and the
/// teacher's id.
async fn team_with_teacher(store: &dyn ContestAccounts, name: &str, n: u8) -> (Team, MemberId) {
    let team = team(store, name).await;
    invite(store, &team, InviteKind::Teacher, n, T0).await;
    let teacher = store
        .join(&token(n), &new_account(&format!("{name} teacher")), T0)
        .await
        .expect("the teacher joins");
    (team, teacher.id)
}

fn describe<T: std::fmt::Debug>(store: &dyn ContestAccounts, what: &str, value: T) -> String {
    format!("{}: {what}: {value:?}", store.describe())
}

/// Team names are unique whatever their case; teams are listed by id and
/// start enabled, asking about friendly challenges.
pub async fn teams_have_unique_names(store: &dyn ContestAccounts) {
    let foxes = team(store, "Füchse").await;
    let owls = store.add_team("Owls", None).await.expect("owls");
    let taken = store.add_team("FÜCHSE", None).await;
    assert!(
        matches!(taken, Err(StoreError::Taken(_))),
        "{}",
        describe(store, "a second Füchse", &taken)
    );
    let teams = store.teams().await.expect("the teams");
    assert_eq!(teams, vec![foxes.clone(), owls], "{}", store.describe());
    assert!(foxes.enabled && !foxes.auto_accept_friendly);
    store.set_auto_accept(foxes.id, true).await.expect("set");
    assert!(
        store
            .team(foxes.id)
            .await
            .expect("foxes")
            .auto_accept_friendly
    );
    let unknown = crate::TeamId(foxes.id.0 + 1000);
    assert_eq!(
        store.team(unknown).await,
        Err(StoreError::NotFound("team")),
        "{}",
        store.describe()
    );
}

/// A teacher's link makes the team's teacher and a student's link a
/// student, each once: the second use is refused and makes nobody.
pub async fn an_invite_makes_one_member_once(store: &dyn ContestAccounts) {
    let (team, teacher) = team_with_teacher(store, "Owls", 1).await;
    let account = store.account(teacher).await.expect("the teacher");
    assert_eq!(
        account.kind,
        AccountKind::Member {
            team: team.id,
            role: Role::Teacher
        }
    );
    assert!(account.enabled);
    invite(store, &team, InviteKind::Student, 2, T0).await;
    let student = store
        .join(&token(2), &new_account("Ada"), T0.plus_seconds(5))
        .await
        .expect("the student joins");
    assert_eq!(
        student.kind,
        AccountKind::Member {
            team: team.id,
            role: Role::Student
        }
    );
    let again = store.join(&token(2), &new_account("Bob"), T0).await;
    assert_eq!(
        again,
        Err(StoreError::Invite(InviteError::Used)),
        "{}",
        store.describe()
    );
    let members = store.members(team.id).await.expect("the members");
    assert_eq!(
        members.iter().map(|m| m.id).collect::<Vec<_>>(),
        vec![teacher, student.id],
        "{}",
        store.describe()
    );
    let stored = store.invite(&token(2)).await.expect("read").expect("kept");
    assert_eq!(stored.invite.used_at, Some(T0.plus_seconds(5)));
    let listed = store.invites(team.id).await.expect("the invites");
    assert_eq!(listed.len(), 2);
    assert_eq!(listed[0].invite.kind, InviteKind::Student, "newest first");
    let credentials = store
        .credentials("ada")
        .await
        .expect("read")
        .expect("Ada signs in");
    assert_eq!(credentials.account, student);
    assert_eq!(credentials.password_hash, new_account("Ada").password_hash);
    assert_eq!(store.credentials("bob").await, Ok(None));
}

/// An unknown, expired, withdrawn or disabled team's link, a password
/// reset used to join, and a taken name are refused each with its reason,
/// and none of them changes anything: the link works afterwards.
pub async fn a_refused_join_changes_nothing(store: &dyn ContestAccounts) {
    let (team, _) = team_with_teacher(store, "Owls", 1).await;
    let valid = settings(store).await.invite_valid_seconds;
    let link = invite(store, &team, InviteKind::Student, 2, T0).await;
    let ada = new_account("Ada");
    let refusals = [
        (token(99), T0, StoreError::NotFound("invite")),
        (
            token(2),
            link.expires_at,
            StoreError::Invite(InviteError::Expired),
        ),
    ];
    for (digest, now, expected) in refusals {
        assert_eq!(
            store.join(&digest, &ada, now).await,
            Err(expected),
            "{}",
            store.describe()
        );
    }
    let taken = store
        .join(&token(2), &new_account("OWLS TEACHER"), T0)
        .await;
    assert!(
        matches!(taken, Err(StoreError::Taken(_))),
        "{}",
        describe(store, "the teacher's name again", &taken)
    );
    store.set_team_enabled(team.id, false).await.expect("off");
    assert_eq!(
        store.join(&token(2), &ada, T0).await,
        Err(StoreError::Invite(InviteError::Disabled))
    );
    store.set_team_enabled(team.id, true).await.expect("on");
    assert_eq!(store.members(team.id).await.expect("members").len(), 1);
    let unused = store.invite(&token(2)).await.expect("read").expect("kept");
    assert_eq!(unused.invite.used_at, None, "{}", store.describe());

    let members = store.members(team.id).await.expect("members");
    let reset = InviteKind::PasswordReset {
        member: members[0].id,
    };
    invite(store, &team, reset, 3, T0).await;
    assert_eq!(
        store.join(&token(3), &ada, T0).await,
        Err(StoreError::Refused("this link sets a password"))
    );
    let withdrawn = invite(store, &team, InviteKind::Student, 4, T0).await;
    let id = store
        .invite(&token(4))
        .await
        .expect("read")
        .expect("kept")
        .id;
    store.withdraw_invite(team.id, id).await.expect("withdrawn");
    assert_eq!(
        store.join(&token(4), &ada, T0).await,
        Err(StoreError::Invite(InviteError::Withdrawn))
    );
    assert!(withdrawn.expires_at.seconds_since(T0) == valid);
    // After all that, the student's link still works once.
    store.join(&token(2), &ada, T0).await.expect("Ada joins");
    assert_eq!(store.members(team.id).await.expect("members").len(), 2);
}

/// Two futures polled together until both are done, as two requests at
/// once are.
struct Both<'a, T> {
    futures: [StoreFuture<'a, T>; 2],
    done: [Option<Result<T, StoreError>>; 2],
}

impl<T: Unpin> Future for Both<'_, T> {
    type Output = [Result<T, StoreError>; 2];

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = &mut *self;
        for (future, done) in this.futures.iter_mut().zip(&mut this.done) {
            if done.is_none()
                && let Poll::Ready(answer) = future.as_mut().poll(cx)
            {
                *done = Some(answer);
            }
        }
        if this.done.iter().all(Option::is_some) {
            let [first, second] = std::mem::take(&mut this.done);
            if let (Some(first), Some(second)) = (first, second) {
                return Poll::Ready([first, second]);
            }
        }
        Poll::Pending
    }
}

/// One link used twice at once, for two different names: one member is
/// made, the other use is refused as used.
pub async fn an_invite_opened_twice_at_once_makes_one_member(store: &dyn ContestAccounts) {
    let (team, _) = team_with_teacher(store, "Owls", 1).await;
    invite(store, &team, InviteKind::Student, 2, T0).await;
    let (ada, bob) = (new_account("Ada"), new_account("Bob"));
    let digest = token(2);
    let [first, second] = Both {
        futures: [store.join(&digest, &ada, T0), store.join(&digest, &bob, T0)],
        done: [None, None],
    }
    .await;
    let made = [&first, &second].iter().filter(|a| a.is_ok()).count();
    assert_eq!(
        made,
        1,
        "{}",
        describe(store, "two joins", (&first, &second))
    );
    let refused = if first.is_ok() { second } else { first };
    assert_eq!(refused, Err(StoreError::Invite(InviteError::Used)));
    assert_eq!(store.members(team.id).await.expect("members").len(), 2);
}

/// A session is found by its digest and records its last use; it ends when
/// idle or too old (and is gone then), by its member (not by another), or
/// by logging out; a member's list holds their live sessions, newest
/// first.
pub async fn sessions_expire_and_end(store: &dyn ContestAccounts) {
    let settings = settings(store).await;
    let (_, teacher) = team_with_teacher(store, "Owls", 1).await;
    let (_, other) = team_with_teacher(store, "Foxes", 2).await;
    let first = store
        .open_session(&token(10), teacher, &origin(), T0)
        .await
        .expect("a session");
    assert_eq!(first.origin, origin());
    let later = T0.plus_seconds(settings.session_idle_seconds - 1);
    let signed_in = store
        .session(&token(10), later)
        .await
        .expect("read")
        .expect("live");
    assert_eq!(signed_in.account.id, teacher);
    assert!(signed_in.team_enabled);
    assert_eq!(signed_in.session.session.last_used_at, later);
    // Used at `later`, it lives an idle period from then.
    let idle_end = later.plus_seconds(settings.session_idle_seconds);
    assert!(
        store
            .session(&token(10), idle_end.plus_seconds(-1))
            .await
            .expect("read")
            .is_some(),
        "{}: the last use counts",
        store.describe()
    );
    let second = store
        .open_session(&token(11), teacher, &origin(), T0.plus_seconds(60))
        .await
        .expect("another session");
    let listed = store.sessions(teacher, T0.plus_seconds(120)).await;
    assert_eq!(
        listed.map(|l| l.iter().map(|s| s.id).collect::<Vec<_>>()),
        Ok(vec![second.id, first.id]),
        "{}",
        store.describe()
    );
    assert_eq!(
        store.end_session(other, first.id).await,
        Err(StoreError::NotFound("session of yours")),
        "{}: another member ends no session of mine",
        store.describe()
    );
    store.end_session(teacher, first.id).await.expect("ended");
    assert_eq!(store.session(&token(10), T0).await, Ok(None));
    store.end_session_of(&token(11)).await.expect("logged out");
    assert_eq!(store.session(&token(11), T0).await, Ok(None));

    // Idle: gone for good, also for a lookup that would be in time again.
    store
        .open_session(&token(12), teacher, &origin(), T0)
        .await
        .expect("a session");
    let idle = T0.plus_seconds(settings.session_idle_seconds);
    assert_eq!(store.session(&token(12), idle).await, Ok(None));
    assert_eq!(store.session(&token(12), T0).await, Ok(None));
    // Used every hour, it ends at the absolute limit all the same.
    store
        .open_session(&token(13), teacher, &origin(), T0)
        .await
        .expect("a session");
    let mut now = T0;
    let absolute = T0.plus_seconds(settings.session_absolute_seconds);
    while now.plus_seconds(3600) < absolute {
        now = now.plus_seconds(3600);
        assert!(
            store
                .session(&token(13), now)
                .await
                .expect("read")
                .is_some()
        );
    }
    assert_eq!(store.session(&token(13), absolute).await, Ok(None));
    assert_eq!(store.sessions(teacher, absolute).await, Ok(Vec::new()));
}

/// Setting a password, and a password-reset link, end every session of
/// the account and store the new hash; the link works once.
pub async fn a_password_change_ends_every_session(store: &dyn ContestAccounts) {
    let (team, teacher) = team_with_teacher(store, "Owls", 1).await;
    let (_, other) = team_with_teacher(store, "Foxes", 2).await;
    for n in [10, 11] {
        store
            .open_session(&token(n), teacher, &origin(), T0)
            .await
            .expect("a session");
    }
    store
        .open_session(&token(12), other, &origin(), T0)
        .await
        .expect("another member's session");
    store
        .set_password(teacher, "$argon2id$new")
        .await
        .expect("set");
    for n in [10, 11] {
        assert_eq!(
            store.session(&token(n), T0).await,
            Ok(None),
            "{}",
            store.describe()
        );
    }
    assert!(store.session(&token(12), T0).await.expect("read").is_some());
    let key = crate::login_key("Owls teacher");
    let hash = store.credentials(&key).await.expect("read").expect("known");
    assert_eq!(hash.password_hash, "$argon2id$new");

    store
        .open_session(&token(13), teacher, &origin(), T0)
        .await
        .expect("a session");
    let reset = InviteKind::PasswordReset { member: teacher };
    invite(store, &team, reset, 3, T0).await;
    let account = store
        .reset_password(&token(3), "$argon2id$reset", T0)
        .await
        .expect("reset");
    assert_eq!(account.id, teacher);
    assert_eq!(store.session(&token(13), T0).await, Ok(None));
    let hash = store.credentials(&key).await.expect("read").expect("known");
    assert_eq!(hash.password_hash, "$argon2id$reset");
    assert_eq!(
        store.reset_password(&token(3), "$argon2id$again", T0).await,
        Err(StoreError::Invite(InviteError::Used))
    );
    invite(store, &team, InviteKind::Student, 4, T0).await;
    assert_eq!(
        store.reset_password(&token(4), "$argon2id$x", T0).await,
        Err(StoreError::Refused("this link is no password reset"))
    );
    // A reset for another team's member is refused when it is made.
    let foreign = Invite::new(
        team.id,
        InviteKind::PasswordReset { member: other },
        None,
        T0,
        &settings(store).await,
    );
    assert!(
        matches!(
            store.add_invite(&token(5), &foreign).await,
            Err(StoreError::Refused(_))
        ),
        "{}",
        store.describe()
    );
}

/// A disabled account's sessions end and it opens none; a disabled team's
/// members' sessions end and its links stop working; a disabled member's
/// reset link too.
pub async fn disabling_ends_sessions_and_links(store: &dyn ContestAccounts) {
    let (team, teacher) = team_with_teacher(store, "Owls", 1).await;
    let (_, other) = team_with_teacher(store, "Foxes", 2).await;
    store
        .open_session(&token(10), teacher, &origin(), T0)
        .await
        .expect("a session");
    store
        .open_session(&token(11), other, &origin(), T0)
        .await
        .expect("a session");
    let reset = InviteKind::PasswordReset { member: teacher };
    invite(store, &team, reset, 3, T0).await;
    store
        .set_account_enabled(teacher, false)
        .await
        .expect("disabled");
    assert_eq!(
        store.sessions(teacher, T0).await,
        Ok(Vec::new()),
        "{}: disabling ends the sessions",
        store.describe()
    );
    assert_eq!(store.session(&token(10), T0).await, Ok(None));
    assert!(!store.account(teacher).await.expect("kept").enabled);
    assert!(
        store
            .open_session(&token(12), teacher, &origin(), T0)
            .await
            .is_err(),
        "{}: a disabled account opens no session",
        store.describe()
    );
    assert_eq!(
        store.reset_password(&token(3), "$argon2id$x", T0).await,
        Err(StoreError::Invite(InviteError::Disabled))
    );
    store
        .set_account_enabled(teacher, true)
        .await
        .expect("enabled");
    invite(store, &team, InviteKind::Student, 4, T0).await;
    store
        .open_session(&token(13), teacher, &origin(), T0)
        .await
        .expect("a session again");
    store.set_team_enabled(team.id, false).await.expect("off");
    assert_eq!(store.session(&token(13), T0).await, Ok(None));
    assert!(
        store
            .open_session(&token(14), teacher, &origin(), T0)
            .await
            .is_err(),
        "{}: a disabled team's member opens no session",
        store.describe()
    );
    assert!(
        store.session(&token(11), T0).await.expect("read").is_some(),
        "{}: another team's sessions stay",
        store.describe()
    );
    assert_eq!(
        store.join(&token(4), &new_account("Ada"), T0).await,
        Err(StoreError::Invite(InviteError::Disabled))
    );
}

/// A removed member's account, sessions and reset links are gone; a
/// member is removed only as a member of their own team.
pub async fn a_removed_member_is_gone(store: &dyn ContestAccounts) {
    let (team, teacher) = team_with_teacher(store, "Owls", 1).await;
    let (other_team, _) = team_with_teacher(store, "Foxes", 2).await;
    invite(store, &team, InviteKind::Student, 3, T0).await;
    let ada = store
        .join(&token(3), &new_account("Ada"), T0)
        .await
        .expect("Ada joins");
    store
        .open_session(&token(10), ada.id, &origin(), T0)
        .await
        .expect("a session");
    let reset = InviteKind::PasswordReset { member: ada.id };
    invite(store, &team, reset, 4, T0).await;
    assert_eq!(
        store.remove_member(other_team.id, ada.id).await,
        Err(StoreError::NotFound("member of this team")),
        "{}",
        store.describe()
    );
    store.remove_member(team.id, ada.id).await.expect("removed");
    assert_eq!(store.session(&token(10), T0).await, Ok(None));
    assert_eq!(store.credentials("ada").await, Ok(None));
    assert_eq!(
        store.account(ada.id).await,
        Err(StoreError::NotFound("account"))
    );
    assert_eq!(store.invite(&token(4)).await, Ok(None));
    let members = store.members(team.id).await.expect("members");
    assert_eq!(members.iter().map(|m| m.id).collect::<Vec<_>>(), [teacher]);
    // Her name is free again.
    invite(store, &team, InviteKind::Student, 5, T0).await;
    store
        .join(&token(5), &new_account("ADA"), T0)
        .await
        .expect("a new Ada");
}

/// Organisers' accounts belong to no team and share the names with the
/// members: one name, one person.
pub async fn organisers_and_members_share_the_names(store: &dyn ContestAccounts) {
    let organiser = store
        .add_organiser(&new_account("Grace"))
        .await
        .expect("an organiser");
    assert_eq!(organiser.kind, AccountKind::Organiser);
    let team = team(store, "Owls").await;
    invite(store, &team, InviteKind::Teacher, 1, T0).await;
    let taken = store.join(&token(1), &new_account("grace"), T0).await;
    assert!(
        matches!(taken, Err(StoreError::Taken(_))),
        "{}",
        describe(store, "an organiser's name", &taken)
    );
    assert!(matches!(
        store.add_organiser(&new_account("GRACE")).await,
        Err(StoreError::Taken(_))
    ));
    let session = store
        .open_session(&token(10), organiser.id, &origin(), T0)
        .await
        .expect("a session");
    let signed_in = store
        .session(&token(10), T0)
        .await
        .expect("read")
        .expect("live");
    assert_eq!(signed_in.session.id, session.id);
    assert!(
        signed_in.team_enabled,
        "an organiser has no team to disable"
    );
    assert_eq!(
        store.remove_member(team.id, organiser.id).await,
        Err(StoreError::NotFound("member of this team"))
    );
}

/// A link made by a teacher (or an organiser's account) works no more once
/// its maker is disabled or removed, so that a disabled teacher cannot come
/// back in by a student's link they kept; it works again when the maker is
/// enabled again. The administrator's links (no maker) are unaffected.
pub async fn a_link_works_no_more_once_its_maker_is_disabled(store: &dyn ContestAccounts) {
    let (team, teacher) = team_with_teacher(store, "Owls", 1).await;
    let settings = settings(store).await;
    let kept = Invite::new(team.id, InviteKind::Student, Some(teacher), T0, &settings);
    store.add_invite(&token(2), &kept).await.expect("a link");
    store
        .set_account_enabled(teacher, false)
        .await
        .expect("disabled");
    assert_eq!(
        store
            .join(&token(2), &new_account("Teacher again"), T0)
            .await,
        Err(StoreError::Invite(InviteError::Disabled)),
        "{}: a disabled teacher's link makes nobody",
        store.describe()
    );
    assert_eq!(store.members(team.id).await.expect("members").len(), 1);
    // The administrator's link for the team still works.
    invite(store, &team, InviteKind::Student, 3, T0).await;
    store
        .join(&token(3), &new_account("Ada"), T0)
        .await
        .expect("the administrator's link works");
    store.set_account_enabled(teacher, true).await.expect("on");
    store
        .join(&token(2), &new_account("Bob"), T0)
        .await
        .expect("enabled again, the link works");

    // A removed maker's links work no more either.
    let ada = store.credentials("ada").await.expect("read").expect("Ada");
    let by_ada = Invite::new(
        team.id,
        InviteKind::Student,
        Some(ada.account.id),
        T0,
        &settings,
    );
    store.add_invite(&token(4), &by_ada).await.expect("a link");
    store
        .remove_member(team.id, ada.account.id)
        .await
        .expect("removed");
    assert_eq!(
        store.join(&token(4), &new_account("Ada again"), T0).await,
        Err(StoreError::Invite(InviteError::Disabled)),
        "{}: a removed member's link makes nobody",
        store.describe()
    );
    // A password reset made by a disabled organiser's account neither.
    let grace = store
        .add_organiser(&new_account("Grace"))
        .await
        .expect("an organiser");
    let reset = Invite::new(
        team.id,
        InviteKind::PasswordReset { member: teacher },
        Some(grace.id),
        T0,
        &settings,
    );
    store.add_invite(&token(5), &reset).await.expect("a reset");
    store
        .set_account_enabled(grace.id, false)
        .await
        .expect("off");
    assert_eq!(
        store.reset_password(&token(5), "$argon2id$x", T0).await,
        Err(StoreError::Invite(InviteError::Disabled)),
        "{}",
        store.describe()
    );
}

/// A lookup records a session's use only when the recorded one is a step
/// old: reading pages within the step writes nothing; the idle expiry runs
/// from the use recorded.
pub async fn a_session_records_its_use_by_the_step(store: &dyn ContestAccounts) {
    let settings = settings(store).await;
    let (_, teacher) = team_with_teacher(store, "Owls", 1).await;
    store
        .open_session(&token(10), teacher, &origin(), T0)
        .await
        .expect("a session");
    let step = SESSION_USE_STEP_SECONDS;
    let within = store
        .session(&token(10), T0.plus_seconds(step - 1))
        .await
        .expect("read")
        .expect("live");
    assert_eq!(
        within.session.session.last_used_at,
        T0,
        "{}: a use within the step is not recorded",
        store.describe()
    );
    let stepped = store
        .session(&token(10), T0.plus_seconds(step))
        .await
        .expect("read")
        .expect("live");
    assert_eq!(
        stepped.session.session.last_used_at,
        T0.plus_seconds(step),
        "{}",
        store.describe()
    );
    // Used within the step again: the recorded use stays, and the session
    // is idle an idle period after it.
    let idle = T0.plus_seconds(step + settings.session_idle_seconds);
    assert!(
        store
            .session(&token(10), T0.plus_seconds(step + 30))
            .await
            .expect("read")
            .is_some()
    );
    assert_eq!(store.session(&token(10), idle).await, Ok(None));
}

/// A new password-reset link for a member withdraws their older open one;
/// a password set by the member, or by a reset link, withdraws every open
/// reset link of theirs.
pub async fn a_newer_reset_link_or_a_new_password_ends_the_old_links(store: &dyn ContestAccounts) {
    let (team, teacher) = team_with_teacher(store, "Owls", 1).await;
    invite(store, &team, InviteKind::Student, 2, T0).await;
    let ada = store
        .join(&token(2), &new_account("Ada"), T0)
        .await
        .expect("Ada");
    let reset = InviteKind::PasswordReset { member: teacher };
    invite(store, &team, reset, 3, T0).await;
    // Another member's reset link is not touched by the teacher's.
    let ada_reset = InviteKind::PasswordReset { member: ada.id };
    invite(store, &team, ada_reset, 4, T0).await;
    invite(store, &team, reset, 5, T0.plus_seconds(60)).await;
    assert_eq!(
        store.reset_password(&token(3), "$argon2id$old", T0).await,
        Err(StoreError::Invite(InviteError::Withdrawn)),
        "{}: the older reset link ends when a newer one is made",
        store.describe()
    );
    store
        .set_password(teacher, "$argon2id$changed")
        .await
        .expect("set");
    assert_eq!(
        store.reset_password(&token(5), "$argon2id$newer", T0).await,
        Err(StoreError::Invite(InviteError::Withdrawn)),
        "{}: a password change ends the open reset link",
        store.describe()
    );
    let key = crate::login_key("Owls teacher");
    let hash = store.credentials(&key).await.expect("read").expect("known");
    assert_eq!(hash.password_hash, "$argon2id$changed");
    // Two links for Ada, one used: the other one ends with it.
    invite(store, &team, ada_reset, 6, T0).await;
    assert_eq!(
        store.reset_password(&token(4), "$argon2id$x", T0).await,
        Err(StoreError::Invite(InviteError::Withdrawn))
    );
    store
        .reset_password(&token(6), "$argon2id$ada", T0)
        .await
        .expect("the newest link works");
    invite(store, &team, ada_reset, 7, T0.plus_seconds(1)).await;
    store
        .set_password(ada.id, "$argon2id$ada2")
        .await
        .expect("set");
    assert_eq!(
        store.reset_password(&token(7), "$argon2id$y", T0).await,
        Err(StoreError::Invite(InviteError::Withdrawn)),
        "{}",
        store.describe()
    );
}

/// An account has at most [`MAX_SESSIONS_PER_ACCOUNT`] live sessions: one
/// more ends the one signed in first; another account's stay.
pub async fn sessions_per_account_are_capped(store: &dyn ContestAccounts) {
    let (_, teacher) = team_with_teacher(store, "Owls", 1).await;
    let (_, other) = team_with_teacher(store, "Foxes", 2).await;
    store
        .open_session(&token(200), other, &origin(), T0)
        .await
        .expect("another's session");
    let cap = u8::try_from(MAX_SESSIONS_PER_ACCOUNT).expect("a small cap");
    for n in 0..cap {
        store
            .open_session(
                &token(10 + n),
                teacher,
                &origin(),
                T0.plus_seconds(i64::from(n)),
            )
            .await
            .expect("a session");
    }
    let now = T0.plus_seconds(100);
    assert_eq!(
        store.sessions(teacher, now).await.expect("read").len(),
        MAX_SESSIONS_PER_ACCOUNT
    );
    store
        .open_session(&token(10 + cap), teacher, &origin(), now)
        .await
        .expect("one more");
    let live = store.sessions(teacher, now).await.expect("read");
    assert_eq!(
        live.len(),
        MAX_SESSIONS_PER_ACCOUNT,
        "{}: the cap holds",
        store.describe()
    );
    assert_eq!(
        store.session(&token(10), now).await,
        Ok(None),
        "{}: the first signed in ended",
        store.describe()
    );
    for n in 1..=cap {
        assert!(
            store
                .session(&token(10 + n), now)
                .await
                .expect("read")
                .is_some(),
            "{}: session {n} stays",
            store.describe()
        );
    }
    assert!(
        store
            .session(&token(200), now)
            .await
            .expect("read")
            .is_some()
    );
}

/// A team has at most [`MAX_OPEN_LINKS_PER_TEAM`] open teacher's and
/// student's links: one more is refused, clearly, and stores nothing; a
/// used, withdrawn or expired one makes room; reset links do not count.
pub async fn open_links_per_team_are_capped(store: &dyn ContestAccounts) {
    let (team, teacher) = team_with_teacher(store, "Owls", 1).await;
    let (other_team, _) = team_with_teacher(store, "Foxes", 2).await;
    let cap = u8::try_from(MAX_OPEN_LINKS_PER_TEAM).expect("a small cap");
    for n in 0..cap {
        invite(store, &team, InviteKind::Student, 10 + n, T0).await;
    }
    let settings = settings(store).await;
    let one_more = Invite::new(team.id, InviteKind::Student, None, T0, &settings);
    assert_eq!(
        store.add_invite(&token(100), &one_more).await,
        Err(StoreError::Refused(TOO_MANY_LINKS)),
        "{}",
        store.describe()
    );
    assert_eq!(store.invite(&token(100)).await, Ok(None));
    let teacher_link = Invite::new(team.id, InviteKind::Teacher, None, T0, &settings);
    assert_eq!(
        store.add_invite(&token(101), &teacher_link).await,
        Err(StoreError::Refused(TOO_MANY_LINKS))
    );
    // Another team's links, and a reset link, are not counted.
    invite(store, &other_team, InviteKind::Student, 102, T0).await;
    invite(
        store,
        &team,
        InviteKind::PasswordReset { member: teacher },
        103,
        T0,
    )
    .await;
    // One used makes room for one.
    store
        .join(&token(10), &new_account("Ada"), T0)
        .await
        .expect("Ada");
    invite(store, &team, InviteKind::Student, 104, T0).await;
    assert!(store.add_invite(&token(105), &one_more).await.is_err());
    // Once they expire, there is room again.
    let later = T0.plus_seconds(settings.invite_valid_seconds);
    let fresh = Invite::new(team.id, InviteKind::Student, None, later, &settings);
    store
        .add_invite(&token(106), &fresh)
        .await
        .expect("room after the expiry");
}

/// A rehash replaces the stored hash only if it is still the one the login
/// read, and ends no session.
pub async fn a_rehash_replaces_only_the_hash_it_read(store: &dyn ContestAccounts) {
    let (_, teacher) = team_with_teacher(store, "Owls", 1).await;
    store
        .open_session(&token(10), teacher, &origin(), T0)
        .await
        .expect("a session");
    let key = crate::login_key("Owls teacher");
    let read = store.credentials(&key).await.expect("read").expect("known");
    assert_eq!(
        store
            .rehash_password(teacher, &read.password_hash, "$argon2id$stronger")
            .await,
        Ok(true),
        "{}",
        store.describe()
    );
    let now = store.credentials(&key).await.expect("read").expect("known");
    assert_eq!(now.password_hash, "$argon2id$stronger");
    assert!(
        store.session(&token(10), T0).await.expect("read").is_some(),
        "{}: a rehash ends no session",
        store.describe()
    );
    // The hash read before is stale now: nothing changes.
    assert_eq!(
        store
            .rehash_password(teacher, &read.password_hash, "$argon2id$stale")
            .await,
        Ok(false),
        "{}",
        store.describe()
    );
    let now = store.credentials(&key).await.expect("read").expect("known");
    assert_eq!(now.password_hash, "$argon2id$stronger");
    assert_eq!(
        store
            .rehash_password(MemberId(teacher.0 + 1000), "a", "b")
            .await,
        Err(StoreError::NotFound("account"))
    );
}
