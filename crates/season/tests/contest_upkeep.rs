//! A contest kept going between the organiser's commands, on SQLite and
//! PostgreSQL (`upkeep_sql`): a matchday's games given up as failed
//! played again, deciding their encounter, with a claim from before the
//! retry still refused its record; a season's the same way; matchdays
//! frozen when their deadline passes (once, however many callers keep the
//! time at once), those that cannot be frozen reported and left planned;
//! a played matchday marked played, or published at once where the
//! contest publishes automatically — and not published again after an
//! organiser took it back; a decided encounter's result kept with it
//! once (and read from there), a store of schema version 5 gaining the
//! column.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test.

#[macro_use]
mod both_stores;
mod worker_results;
use worker_results::{finished, play};

use std::{sync::Arc, time::Duration};

use both_stores::TestStore;
use spielleiter_contest::{
    ContestAccounts, ContestSettings, Phase, Progress, Publication, Timestamp,
};
use spielleiter_rules::GameType;
use spielleiter_season::{
    AnyStore, ContestStore, GameState, GivenBack, MatchdayState, NewContest, SeasonDefinition,
    SeasonError, SeasonPlayer, SeasonStore, create_contest,
};

both_stores!(
    a_matchdays_failed_games_are_played_again_and_decide_their_encounter,
    a_seasons_failed_games_are_played_again,
    a_matchday_is_frozen_when_its_deadline_passes_once_for_all_callers,
    a_matchday_that_cannot_be_frozen_is_reported_and_stays_planned,
    a_played_matchday_is_published_at_once_when_the_contest_says_so_and_stays_taken_back,
    a_decided_encounters_result_is_kept_and_a_store_of_schema_version_5_gains_the_column,
);

const NOW: Timestamp = Timestamp(1_800_000_000);

async fn contest(test: &TestStore, settings: ContestSettings) -> ContestStore<AnyStore> {
    let opened = Arc::new(test.open_again().await.unwrap());
    let new = NewContest {
        name: "Cup".to_owned(),
        game: GameType::DEFAULT,
        seed: Some(5),
        settings,
    };
    create_contest(&*opened, &new, || 0).await.unwrap();
    ContestStore::open(opened).await.unwrap()
}

/// A second handle on the same contest, through a connection of its own.
async fn same_contest(test: &TestStore) -> ContestStore<AnyStore> {
    ContestStore::open(Arc::new(test.open_again().await.unwrap()))
        .await
        .unwrap()
}

fn refused(result: Result<impl std::fmt::Debug, SeasonError>) -> String {
    match result {
        Err(SeasonError::Refused(why)) => why,
        other => panic!("expected a refusal, got {other:?}"),
    }
}

/// Claims the next game of `season` and gives it up as failed (one
/// failure is too many).
async fn fail_next(store: &AnyStore, season: &str) -> spielleiter_season::Claim {
    let claim = store
        .claim(season, "crashing", Duration::from_secs(60), 1, None)
        .await
        .unwrap()
        .expect("a game to claim");
    let given = store
        .give_back(&claim, Some("the worker's machine burnt"), 1)
        .await
        .unwrap();
    assert_eq!(given, GivenBack::Failed);
    claim
}

async fn a_matchdays_failed_games_are_played_again_and_decide_their_encounter(test: TestStore) {
    let store = contest(&test, ContestSettings::default()).await;
    store.add_team("Owls", None).await.unwrap();
    store.add_team("Foxes", None).await.unwrap();
    store
        .create_matchday(Phase::Championship, None, false)
        .await
        .unwrap();
    assert!(
        refused(store.retry_failed_games(Phase::Championship, 1).await).contains("no failed game"),
        "a planned matchday has none"
    );
    let report = store
        .play_matchday(Phase::Championship, 1, NOW)
        .await
        .unwrap();
    let season = report.encounters[0].0.season.clone().unwrap();
    let db = store.database();
    let first = fail_next(db, &season).await;
    for _ in 1..6 {
        play(db, &season, [2, 0], [10, 5]).await;
    }
    let report = store.matchday_report(Phase::Championship, 1).await.unwrap();
    assert_eq!(report.failed, 1);
    assert_eq!(report.games, (5, 6));
    assert_eq!(report.encounters[0].1, Progress::Waiting { missing: 1 });
    assert_eq!(report.matchday.state, MatchdayState::Scheduled);
    assert!(
        refused(store.retry_failed_games(Phase::Championship, 2).await)
            .contains("has no matchday 2")
    );

    assert_eq!(
        store
            .retry_failed_games(Phase::Championship, 1)
            .await
            .unwrap(),
        1
    );
    let row = test.sql(&format!(
        "SELECT state, failures, coalesce(error, '-'), coalesce(worker, '-') FROM games \
         WHERE season = '{season}' AND number = {}",
        first.game.number
    ));
    assert_eq!(row.trim(), "waiting|0|-|-", "{row}");
    assert!(
        refused(store.retry_failed_games(Phase::Championship, 1).await)
            .contains("matchday 1 of the championship has no failed game"),
        "retried once"
    );
    // The retried game's next claim is a new attempt: the old claim's
    // record is refused, before and after it.
    let late = finished(db, &season, first.game.table_game, [2, 0], [10, 5]).await;
    assert!(!db.record(&first, &late).await.unwrap(), "no claim at all");
    let again = db
        .claim(&season, "healthy", Duration::from_secs(60), 3, None)
        .await
        .unwrap()
        .expect("the retried game");
    assert_eq!(again.game.number, first.game.number);
    assert!(again.attempt > first.attempt, "{again:?} after {first:?}");
    assert!(!db.record(&first, &late).await.unwrap(), "an old attempt");
    assert!(db.record(&again, &late).await.unwrap());

    let report = store.matchday_report(Phase::Championship, 1).await.unwrap();
    assert_eq!((report.failed, report.games), (0, (6, 6)));
    assert!(matches!(report.encounters[0].1, Progress::Decided(_)));
    assert_eq!(report.matchday.state, MatchdayState::Played);
}

async fn a_seasons_failed_games_are_played_again(test: TestStore) {
    let store = &test.store;
    let definition = SeasonDefinition {
        game: "blokus_bcl".to_owned(),
        players: ["a", "b"]
            .iter()
            .map(|name| SeasonPlayer {
                name: (*name).to_owned(),
                start: "builtin:random".to_owned(),
            })
            .collect(),
        games_per_table: 4,
        seed: 3,
        timed: false,
    };
    let schedule = definition.schedule().unwrap();
    store.create("s", &definition, &schedule).await.unwrap();
    assert_eq!(store.retry_failed("s").await.unwrap(), 0);
    fail_next(store, "s").await;
    fail_next(store, "s").await;
    let failed = |games: &[spielleiter_season::GameRow]| {
        games
            .iter()
            .filter(|g| g.state == GameState::Failed)
            .count()
    };
    assert_eq!(failed(&store.games("s").await.unwrap()), 2);
    assert_eq!(store.retry_failed("s").await.unwrap(), 2);
    let games = store.games("s").await.unwrap();
    assert_eq!(failed(&games), 0);
    assert!(games.iter().all(|g| g.state == GameState::Waiting));
}

async fn a_matchday_is_frozen_when_its_deadline_passes_once_for_all_callers(test: TestStore) {
    let store = contest(&test, ContestSettings::default()).await;
    for name in ["A", "B", "C", "D"] {
        store.add_team(name, None).await.unwrap();
    }
    let deadline = NOW.plus_seconds(3600);
    store
        .create_matchday(Phase::Championship, Some(deadline), false)
        .await
        .unwrap();
    store
        .create_matchday(Phase::Trial, None, false)
        .await
        .unwrap();
    let before = store.keep_time(NOW).await.unwrap();
    assert!(before.frozen.is_empty() && before.refused.is_empty());
    assert_eq!(
        test.sql("SELECT count(*) FROM contest_matchdays WHERE state = 'planned'")
            .trim(),
        "2"
    );

    // Four callers keep the time at once, each through its own connection.
    let mut callers = Vec::new();
    for _ in 0..4 {
        let other = same_contest(&test).await;
        callers.push(tokio::spawn(async move {
            other.keep_time(deadline).await.unwrap()
        }));
    }
    let mut frozen = Vec::new();
    for caller in callers {
        let upkeep = caller.await.unwrap();
        assert!(upkeep.refused.is_empty(), "{:?}", upkeep.refused);
        frozen.extend(upkeep.frozen);
    }
    assert_eq!(frozen.len(), 1, "frozen once");
    assert_eq!(frozen[0].matchday.frozen_at, Some(deadline));
    assert_eq!(frozen[0].encounters.len(), 2);
    assert_eq!(
        test.sql("SELECT phase, state FROM contest_matchdays ORDER BY id")
            .trim(),
        "championship|scheduled\ntrial|planned",
        "the matchday without a deadline waits for the organiser"
    );
    assert_eq!(
        test.sql("SELECT count(*) FROM contest_encounters").trim(),
        "2"
    );
    assert_eq!(test.sql("SELECT count(*) FROM games").trim(), "12");
}

async fn a_matchday_that_cannot_be_frozen_is_reported_and_stays_planned(test: TestStore) {
    let store = contest(&test, ContestSettings::default()).await;
    store.add_team("Alone", None).await.unwrap();
    store
        .create_matchday(Phase::Championship, Some(NOW), false)
        .await
        .unwrap();
    let upkeep = store.keep_time(NOW).await.unwrap();
    assert!(upkeep.frozen.is_empty());
    let [(phase, number, why)] = &upkeep.refused[..] else {
        panic!("{:?}", upkeep.refused)
    };
    assert_eq!((*phase, *number), (Phase::Championship, 1));
    assert!(why.contains("cannot pair"), "{why}");
    assert_eq!(
        test.sql("SELECT state FROM contest_matchdays").trim(),
        "planned"
    );
}

async fn a_played_matchday_is_published_at_once_when_the_contest_says_so_and_stays_taken_back(
    test: TestStore,
) {
    let automatic = ContestSettings {
        publication: Publication::Automatic,
        ..ContestSettings::default()
    };
    let store = contest(&test, automatic).await;
    store.add_team("Owls", None).await.unwrap();
    store.add_team("Foxes", None).await.unwrap();
    store
        .create_matchday(Phase::Championship, Some(NOW), false)
        .await
        .unwrap();
    let upkeep = store.keep_time(NOW).await.unwrap();
    assert_eq!(upkeep.frozen.len(), 1);
    assert!(upkeep.finished.is_empty(), "nothing played yet");
    let season = upkeep.frozen[0].encounters[0].0.season.clone().unwrap();
    for _ in 0..5 {
        play(store.database(), &season, [0, 2], [1, 9]).await;
    }
    assert!(store.keep_time(NOW).await.unwrap().finished.is_empty());
    assert_eq!(
        test.sql("SELECT state FROM contest_matchdays").trim(),
        "scheduled",
        "one game to go"
    );
    play(store.database(), &season, [0, 2], [1, 9]).await;
    let upkeep = store.keep_time(NOW).await.unwrap();
    let [report] = &upkeep.finished[..] else {
        panic!("{:?}", upkeep.finished)
    };
    assert_eq!(report.matchday.state, MatchdayState::Published);
    let published_at = report.matchday.published_at.expect("published at");
    assert!(published_at.0 > 1_700_000_000, "by the database's clock");
    assert_eq!(
        test.sql(
            "SELECT state, CASE WHEN published_at IS NULL THEN 0 ELSE 1 END FROM contest_matchdays"
        )
        .trim(),
        "published|1"
    );

    store
        .unpublish_matchday(Phase::Championship, 1)
        .await
        .unwrap();
    assert!(store.keep_time(NOW).await.unwrap().finished.is_empty());
    let report = store.matchday_report(Phase::Championship, 1).await.unwrap();
    assert_eq!(
        report.matchday.state,
        MatchdayState::Played,
        "taken back for good"
    );
    store
        .publish_matchday(Phase::Championship, 1, NOW)
        .await
        .unwrap();
}

async fn a_decided_encounters_result_is_kept_and_a_store_of_schema_version_5_gains_the_column(
    test: TestStore,
) {
    let store = contest(&test, ContestSettings::default()).await;
    store.add_team("Owls", None).await.unwrap();
    store.add_team("Foxes", None).await.unwrap();
    store
        .create_matchday(Phase::Championship, None, false)
        .await
        .unwrap();
    let report = store
        .play_matchday(Phase::Championship, 1, NOW)
        .await
        .unwrap();
    let season = report.encounters[0].0.season.clone().unwrap();
    let kept = || test.sql("SELECT coalesce(result, '-') FROM contest_encounters");
    for game in 0..6 {
        assert_eq!(kept().trim(), "-", "undecided after {game} games");
        store.matchday_report(Phase::Championship, 1).await.unwrap();
        let wins = if game % 3 == 0 { [0, 2] } else { [2, 0] };
        play(store.database(), &season, wins, [7, 3]).await;
    }
    let standings = store.standings(Phase::Championship).await.unwrap();
    let result = kept();
    assert!(result.contains("\"wins\":[4,2]"), "{result}");

    // A store of schema version 5 has no such column (nor version 7's
    // tables, nor version 8's): it gains it, and the result is worked out
    // from the games again and kept.
    test.sql("DROP TABLE contest_notice_mail");
    test.sql("DROP TABLE contest_mail_addresses");
    test.sql("DROP TABLE contest_notice_reads");
    test.sql("DROP TABLE contest_notices");
    test.sql("DROP TABLE contest_challenges");
    test.sql("DROP TABLE contest_builds");
    test.sql("DROP TABLE contest_uploads");
    test.sql("ALTER TABLE contest_encounters DROP COLUMN result");
    test.sql("UPDATE spielleiter_schema SET version = 5");
    let store = same_contest(&test).await;
    assert_eq!(
        test.sql("SELECT version FROM spielleiter_schema").trim(),
        spielleiter_season::SCHEMA_VERSION.to_string()
    );
    assert_eq!(kept().trim(), "-");
    assert_eq!(
        store.standings(Phase::Championship).await.unwrap(),
        standings
    );
    assert_eq!(kept(), result);

    // Read from there: the game records are not read again.
    test.sql(&format!(
        "UPDATE games SET record = NULL, state = 'waiting' WHERE season = '{season}'"
    ));
    assert_eq!(
        store.standings(Phase::Championship).await.unwrap(),
        standings
    );
    let report = store.matchday_report(Phase::Championship, 1).await.unwrap();
    assert!(matches!(report.encounters[0].1, Progress::Decided(_)));
    assert_eq!(report.games, (6, 6));
}
