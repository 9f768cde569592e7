//! A version's test in the store (issue 36), on SQLite and PostgreSQL:
//! its season of the contest's test games against the built-in `random`
//! bot, the version first in the definition, played by the contest's
//! workers before any matchday's games, judged once its games are over —
//! passed when the version ended each regularly, failed when it did not
//! or a game was given up — and tested again in a season of its own;
//! every test the model refuses refused with nothing changed.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test.

#[macro_use]
mod both_stores;
mod worker_results;

use std::{sync::Arc, time::Duration};

use both_stores::TestStore;
use spielleiter_arena::Cause;
use spielleiter_contest::{
    ContestAccounts, ContestSettings, NoticeKind, Phase, TeamId, TeamNotices, Timestamp,
    VersionNumber, VersionState,
};
use spielleiter_rules::GameType;
use spielleiter_season::{
    AnyStore, ContestStore, GivenBack, NewContest, SeasonError, SeasonStore, create_contest,
};

both_stores!(
    a_test_plays_its_games_against_random_first_and_is_judged_once,
    a_version_that_crashed_or_lost_a_game_fails_its_test,
);

const NOW: Timestamp = Timestamp(1_800_000_000);

async fn contest(test: &TestStore) -> (ContestStore<AnyStore>, TeamId) {
    let opened = Arc::new(test.open_again().await.unwrap());
    let new = NewContest {
        name: "Cup".to_owned(),
        game: GameType::DEFAULT,
        seed: Some(5),
        settings: ContestSettings::default(),
    };
    create_contest(&*opened, &new, || 0).await.unwrap();
    let store = ContestStore::open(opened).await.unwrap();
    let team = store.add_team("Owls", None).await.unwrap().id;
    store
        .add_version(team, "builtin:greedy", "", NOW)
        .await
        .unwrap();
    (store, team)
}

fn refused(result: Result<impl std::fmt::Debug, SeasonError>) -> String {
    match result {
        Err(SeasonError::Refused(why)) => why,
        other => panic!("expected a refusal, got {other:?}"),
    }
}

async fn state(store: &ContestStore<AnyStore>, team: TeamId) -> VersionState {
    store.versions(team).await.unwrap()[0].state
}

/// Records the next game of `season` with the version (player 1) ending
/// by `cause`.
async fn play(store: &AnyStore, season: &str, cause: Cause) {
    let claim = store
        .claim(season, "test", Duration::from_secs(60), 3, None)
        .await
        .unwrap()
        .expect("a game to claim");
    let mut game =
        worker_results::finished(store, season, claim.game.table_game, [0, 2], [10, 40]).await;
    game.record.causes = vec![cause, Cause::Regular];
    assert!(store.record(&claim, &game).await.unwrap());
}

async fn a_test_plays_its_games_against_random_first_and_is_judged_once(test: TestStore) {
    let (store, team) = contest(&test).await;
    let db = &test.store;
    assert!(
        refused(store.start_test(team, VersionNumber(2), false).await).contains("no version 2")
    );
    assert!(
        refused(store.start_test(TeamId(99), VersionNumber(1), false).await).contains("no team")
    );

    assert_eq!(
        store
            .newest_test_season(team, VersionNumber(1))
            .await
            .unwrap(),
        None
    );
    // A matchday's games are waiting too: the test's come first.
    store
        .create_matchday(Phase::Trial, None, false)
        .await
        .unwrap();
    let started = store
        .start_test(team, VersionNumber(1), false)
        .await
        .unwrap();
    assert_eq!(started.season, format!("test-v{}-1", started.version.0));
    assert_eq!(started.games, 2);
    assert_eq!(state(&store, team).await, VersionState::Testing);
    assert!(
        refused(store.start_test(team, VersionNumber(1), false).await)
            .contains("cannot be tested now"),
        "one test at a time"
    );
    let definition = db.definition(&started.season).await.unwrap();
    let starts: Vec<&str> = definition
        .players
        .iter()
        .map(|p| p.start.as_str())
        .collect();
    assert_eq!(starts, ["builtin:greedy", "builtin:random"]);
    assert!(!definition.timed);
    assert_eq!(
        store.seasons_to_play().await.unwrap(),
        [started.season.as_str()]
    );

    // Lost both, but regularly: passed. Judged once, however often asked.
    play(db, &started.season, Cause::Regular).await;
    assert!(
        store.judge_tests().await.unwrap().is_empty(),
        "a game is left"
    );
    play(db, &started.season, Cause::Regular).await;
    let judged = store.keep_time(NOW).await.unwrap().judged;
    assert_eq!(judged.len(), 1);
    assert_eq!(
        (judged[0].team, judged[0].state),
        (team, VersionState::Tested)
    );
    assert!(store.judge_tests().await.unwrap().is_empty());
    assert_eq!(state(&store, team).await, VersionState::Tested);
    let notices = TeamNotices::notices(&store, team).await.unwrap();
    assert_eq!(notices.len(), 1, "told once: {notices:?}");
    assert_eq!(notices[0].kind, NoticeKind::TestFinished);
    assert!(notices[0].text.contains("passed its test"), "{notices:?}");
    assert!(store.seasons_to_play().await.unwrap().is_empty());

    // Tested again, in a season of its own; the active version is not.
    let again = store
        .start_test(team, VersionNumber(1), false)
        .await
        .unwrap();
    assert_eq!(again.season, format!("test-v{}-2", started.version.0));
    assert_eq!(
        store.tests_to_play().await.unwrap(),
        [again.season.as_str()]
    );
    assert_eq!(
        store
            .newest_test_season(team, VersionNumber(1))
            .await
            .unwrap(),
        Some(again.season.clone()),
        "the newest run's"
    );
    play(db, &again.season, Cause::Regular).await;
    play(db, &again.season, Cause::Regular).await;
    store.judge_tests().await.unwrap();
    store
        .activate_version(team, VersionNumber(1), None, "admin", NOW)
        .await
        .unwrap();
    assert!(
        refused(store.start_test(team, VersionNumber(1), false).await).contains("active version")
    );
}

async fn a_version_that_crashed_or_lost_a_game_fails_its_test(test: TestStore) {
    let (store, team) = contest(&test).await;
    let db = &test.store;
    let started = store
        .start_test(team, VersionNumber(1), true)
        .await
        .unwrap();
    play(db, &started.season, Cause::Regular).await;
    play(db, &started.season, Cause::HardTimeout).await;
    let judged = store.judge_tests().await.unwrap();
    assert_eq!(judged[0].state, VersionState::TestFailed);
    assert!(
        refused(
            store
                .activate_version(team, VersionNumber(1), None, "admin", NOW)
                .await
        )
        .contains("test"),
        "a failed version is not activated"
    );

    // A game given up as failed fails the test too.
    let again = store
        .start_test(team, VersionNumber(1), true)
        .await
        .unwrap();
    play(db, &again.season, Cause::Regular).await;
    let claim = db
        .claim(&again.season, "crashing", Duration::from_secs(60), 1, None)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        db.give_back(&claim, Some("burnt"), 1).await.unwrap(),
        GivenBack::Failed
    );
    assert_eq!(
        store.judge_tests().await.unwrap()[0].state,
        VersionState::TestFailed
    );
}
