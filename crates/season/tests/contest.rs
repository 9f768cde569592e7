//! A contest in the season store: every case every accounts' store passes
//! (`spielleiter_contest::accounts_store::conformance::CASES`, each on a
//! new store) against SQLite and PostgreSQL; then what only a store with
//! connections of its own shows — one invite link used at once through two
//! connections makes one member, one name taken at once one team or
//! person, links made at once keep the team's cap, on both databases — every refused call leaving every row as it
//! was (SQL and HTML kept as text), the contest made once per store, and a
//! store of schema version 2 gaining the contest's tables.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test.

#[macro_use]
mod both_stores;

use std::sync::Arc;

use both_stores::TestStore;
use spielleiter_contest::{
    ContestAccounts, ContestSettings, Invite, InviteError, InviteId, InviteKind, MemberId,
    NewAccount, SessionId, StoreError, TeamId, Timestamp, TokenDigest,
    accounts_store::conformance::CASES,
};
use spielleiter_rules::GameType;
use spielleiter_season::{
    AnyStore, ContestStore, Created, NewContest, SeasonError, create_contest,
};

both_stores!(
    one_link_used_at_once_through_two_connections_makes_one_member,
    links_made_at_once_through_two_connections_keep_the_cap,
    one_name_taken_at_once_through_two_connections_makes_one_team_and_one_person,
    a_refused_call_leaves_every_row_as_it_was,
    a_store_holds_one_contest,
    a_store_of_schema_version_2_gains_the_contest_tables,
);

fn new_contest(name: &str, seed: Option<u64>) -> NewContest {
    NewContest {
        name: name.to_owned(),
        game: GameType::DEFAULT,
        seed,
        settings: ContestSettings::default(),
    }
}

/// The accounts of a new contest in `test`'s store, through a connection
/// of their own (the store opened, and so migrated, anew).
async fn accounts(test: &TestStore) -> ContestStore<AnyStore> {
    let opened = Arc::new(test.open_again().await.unwrap());
    let (contest, created) = create_contest(&*opened, &new_contest("Cup", Some(7)), || 0)
        .await
        .unwrap();
    assert_eq!(created, Created::New);
    assert_eq!(contest.seed, 7);
    let store = ContestStore::open(opened).await.unwrap();
    assert_eq!(store.record(), &contest);
    store
}

/// Runs every case on a new store of the kind `fresh` makes.
async fn every_case<F, Fut>(fresh: F)
where
    F: Fn() -> Fut,
    Fut: std::future::Future<Output = TestStore>,
{
    for (name, case) in CASES {
        let test = fresh().await;
        let store = accounts(&test).await;
        eprintln!("case {name} on {}", store.describe());
        case(&store).await;
    }
}

#[tokio::test]
async fn sqlite_passes_every_case_of_an_accounts_store() {
    every_case(TestStore::sqlite).await;
}

#[tokio::test]
async fn postgres_passes_every_case_of_an_accounts_store() {
    every_case(TestStore::postgres).await;
}

fn token(n: u8) -> TokenDigest {
    TokenDigest([n; 32])
}

fn account(name: &str) -> NewAccount {
    NewAccount {
        display_name: name.to_owned(),
        password_hash: format!("$argon2id$v=19$m=8,t=1,p=1$c2FsdA$of-{name}"),
    }
}

async fn one_link_used_at_once_through_two_connections_makes_one_member(test: TestStore) {
    let first = accounts(&test).await;
    let second = ContestStore::open(Arc::new(test.open_again().await.unwrap()))
        .await
        .unwrap();
    let now = Timestamp(1_800_000_000);
    let settings = first.record().settings.clone();
    for round in 0..8u8 {
        let team = first
            .add_team(&format!("Team {round}"), None)
            .await
            .unwrap();
        let invite = Invite::new(team.id, InviteKind::Teacher, None, now, &settings);
        first.add_invite(&token(round), &invite).await.unwrap();
        let (ada, bob) = (
            account(&format!("Ada {round}")),
            account(&format!("Bob {round}")),
        );
        let link = token(round);
        let (a, b) = tokio::join!(first.join(&link, &ada, now), second.join(&link, &bob, now));
        assert_eq!(
            usize::from(a.is_ok()) + usize::from(b.is_ok()),
            1,
            "round {round} on {}: {a:?} {b:?}",
            first.describe()
        );
        let refused = if a.is_ok() { b } else { a };
        assert_eq!(refused, Err(StoreError::Invite(InviteError::Used)));
        assert_eq!(first.members(team.id).await.unwrap().len(), 1);
    }
    let members = test.sql("SELECT count(*) FROM contest_accounts");
    assert_eq!(members, "8");
}

async fn links_made_at_once_through_two_connections_keep_the_cap(test: TestStore) {
    let first = accounts(&test).await;
    let second = ContestStore::open(Arc::new(test.open_again().await.unwrap()))
        .await
        .unwrap();
    let now = Timestamp(1_800_000_000);
    let settings = first.record().settings.clone();
    let cap = spielleiter_contest::accounts::MAX_OPEN_LINKS_PER_TEAM;
    for round in 0..4u8 {
        let team = first
            .add_team(&format!("Team {round}"), None)
            .await
            .unwrap();
        let link = Invite::new(team.id, InviteKind::Student, None, now, &settings);
        for n in 0..cap - 1 {
            let token = TokenDigest([round * 64 + u8::try_from(n).unwrap(); 32]);
            first.add_invite(&token, &link).await.unwrap();
        }
        let (a, b) = (
            TokenDigest([round * 64 + 40; 32]),
            TokenDigest([round * 64 + 41; 32]),
        );
        let (a, b) = tokio::join!(first.add_invite(&a, &link), second.add_invite(&b, &link));
        assert_eq!(
            usize::from(a.is_ok()) + usize::from(b.is_ok()),
            1,
            "round {round} on {}: {a:?} {b:?}",
            first.describe()
        );
        assert_eq!(first.invites(team.id).await.unwrap().len(), cap);
    }
}

async fn one_name_taken_at_once_through_two_connections_makes_one_team_and_one_person(
    test: TestStore,
) {
    let first = accounts(&test).await;
    let second = ContestStore::open(Arc::new(test.open_again().await.unwrap()))
        .await
        .unwrap();
    for round in 0..4 {
        let (name, other_case) = (format!("Owls {round}"), format!("OWLS {round}"));
        let (a, b) = tokio::join!(
            first.add_team(&name, None),
            second.add_team(&other_case, None)
        );
        assert_eq!(
            usize::from(a.is_ok()) + usize::from(b.is_ok()),
            1,
            "{a:?} {b:?}"
        );
        let refused = if a.is_ok() { b } else { a };
        assert!(matches!(refused, Err(StoreError::Taken(_))), "{refused:?}");
        let (ada, other_ada) = (
            account(&format!("Ada {round}")),
            account(&format!("ADA {round}")),
        );
        let (a, b) = tokio::join!(first.add_organiser(&ada), second.add_organiser(&other_ada));
        let refused = if a.is_ok() { b } else { a };
        assert!(matches!(refused, Err(StoreError::Taken(_))), "{refused:?}");
    }
    assert_eq!(test.sql("SELECT count(*) FROM contest_teams"), "4");
    assert_eq!(test.sql("SELECT count(*) FROM contest_accounts"), "4");
}

/// Every row of the contest's tables, in order.
fn contest_rows(test: &TestStore) -> String {
    [
        "SELECT * FROM contests",
        "SELECT * FROM contest_groups ORDER BY id",
        "SELECT * FROM contest_teams ORDER BY id",
        "SELECT * FROM contest_accounts ORDER BY id",
        "SELECT * FROM contest_invites ORDER BY id",
        "SELECT * FROM contest_sessions ORDER BY id",
    ]
    .map(|query| test.sql(query))
    .join("\n--\n")
}

async fn a_refused_call_leaves_every_row_as_it_was(test: TestStore) {
    let store = accounts(&test).await;
    let now = Timestamp(1_800_000_000);
    let settings = store.record().settings.clone();
    let owls = store.add_team("Owls", None).await.unwrap();
    let foxes = store.add_team("Foxes", None).await.unwrap();
    for (n, team) in [(1, &owls), (2, &foxes)] {
        let invite = Invite::new(team.id, InviteKind::Teacher, None, now, &settings);
        store.add_invite(&token(n), &invite).await.unwrap();
    }
    let teacher = store.join(&token(1), &account("Ada"), now).await.unwrap();
    let student = Invite::new(owls.id, InviteKind::Student, None, now, &settings);
    store.add_invite(&token(3), &student).await.unwrap();
    store
        .open_session(&token(10), teacher.id, &Default::default(), now)
        .await
        .unwrap();
    let before = contest_rows(&test);
    let sql = "'; DROP TABLE contest_teams; --";
    let html = "<script>alert(1)</script>";
    let refusals = [
        store.add_team("OWLS", None).await.map(drop),
        store
            .add_team(sql, Some(spielleiter_contest::GroupId(99)))
            .await
            .map(drop),
        store.join(&token(3), &account("ADA"), now).await.map(drop),
        store.join(&token(1), &account(html), now).await.map(drop),
        store.join(&token(99), &account(sql), now).await.map(drop),
        store
            .join(
                &token(3),
                &account(html),
                now.plus_seconds(settings.invite_valid_seconds),
            )
            .await
            .map(drop),
        store.reset_password(&token(3), sql, now).await.map(drop),
        store.add_organiser(&account("ada")).await.map(drop),
        store.remove_member(foxes.id, teacher.id).await.map(drop),
        store.add_invite(&token(1), &student).await.map(drop),
        store
            .open_session(&token(10), teacher.id, &Default::default(), now)
            .await
            .map(drop),
        store
            .end_session(MemberId(teacher.id.0 + 1), SessionId(1))
            .await,
        store.set_team_enabled(TeamId(99), false).await,
        store.set_account_enabled(MemberId(99), false).await,
        store.set_password(MemberId(99), sql).await,
        store.withdraw_invite(foxes.id, InviteId(1)).await,
    ];
    for (index, refusal) in refusals.iter().enumerate() {
        assert!(
            matches!(
                refusal,
                Err(StoreError::Taken(_)
                    | StoreError::NotFound(_)
                    | StoreError::Invite(_)
                    | StoreError::Refused(_))
            ),
            "call {index}: {refusal:?}"
        );
    }
    assert_eq!(contest_rows(&test), before, "{}", store.describe());
    // The names with SQL and HTML in them are kept as they are.
    let stored = store.add_team(sql, None).await.unwrap();
    assert_eq!(store.team(stored.id).await.unwrap().name, sql);
    let made = store.join(&token(3), &account(html), now).await.unwrap();
    assert_eq!(store.account(made.id).await.unwrap().display_name, html);
    assert_eq!(test.sql("SELECT count(*) FROM contest_teams"), "3");
}

async fn a_store_holds_one_contest(test: TestStore) {
    let error = ContestStore::open(Arc::new(test.open_again().await.unwrap()))
        .await
        .unwrap_err();
    assert!(matches!(error, SeasonError::NoContest { .. }), "{error}");
    assert!(
        error.to_string().contains("`spielleiter contest create"),
        "{error}"
    );
    let (made, created) = create_contest(&test.store, &new_contest("Cup", None), || 42)
        .await
        .unwrap();
    assert_eq!((made.seed, created), (42, Created::New));
    // Again without a seed, or with its seed: the same contest.
    for seed in [None, Some(42)] {
        let (again, created) = create_contest(&test.store, &new_contest("Cup", seed), || 1)
            .await
            .unwrap();
        assert_eq!((again, created), (made.clone(), Created::Existing));
    }
    let before = test.sql("SELECT id, name, game, seed, settings FROM contests");
    for other in [new_contest("Other", None), new_contest("Cup", Some(43))] {
        let error = create_contest(&test.store, &other, || 1).await.unwrap_err();
        assert!(
            matches!(&error, SeasonError::OtherContest { name, .. } if name == "Cup"),
            "{error}"
        );
    }
    let mut bad = new_contest("Cup", None);
    bad.settings.games_per_encounter = 0;
    assert!(matches!(
        create_contest(&test.store, &bad, || 1).await,
        Err(SeasonError::Definition(_))
    ));
    assert_eq!(
        test.sql("SELECT id, name, game, seed, settings FROM contests"),
        before
    );
}

async fn a_store_of_schema_version_2_gains_the_contest_tables(test: TestStore) {
    // As the previous version left it: schema 2, no contest tables.
    test.drop_contest_tables();
    test.sql("UPDATE spielleiter_schema SET version = 2");
    let store = accounts(&test).await;
    assert_eq!(
        test.sql("SELECT version FROM spielleiter_schema"),
        spielleiter_season::SCHEMA_VERSION.to_string()
    );
    let group = store.group("North").await.unwrap();
    assert_eq!(
        store.group("NORTH").await.unwrap(),
        group,
        "one group by name"
    );
    let team = store.add_team("Owls", Some(group)).await.unwrap();
    assert_eq!(store.team(team.id).await.unwrap().group, Some(group));
    assert_eq!(
        store.group_name(group).await.unwrap().as_deref(),
        Some("North")
    );
}
