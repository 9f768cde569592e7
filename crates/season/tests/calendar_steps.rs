//! The organiser's steps on the calendar as the organiser's pages take
//! them (`ContestCalendar`), on SQLite and PostgreSQL: a matchday made,
//! played, published, taken back, its failed games retried; the final
//! made and its rounds played and published; every step the rules refuse
//! refused with the command line's reason and nothing changed.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test.

#[macro_use]
mod both_stores;
mod worker_results;
use worker_results::play;

use std::{sync::Arc, time::Duration};

use both_stores::TestStore;
use spielleiter_contest::{
    BracketSize, CalendarDone, CalendarError, CalendarStep, ContestAccounts, ContestCalendar,
    ContestResults, ContestSettings, MatchdayStage, Phase, Timestamp, VersionNumber,
};
use spielleiter_rules::GameType;
use spielleiter_season::{
    AnyStore, ContestStore, GivenBack, NewContest, SeasonStore, create_contest,
};

both_stores!(
    the_organisers_steps_are_the_commands_with_their_refusals,
    the_finals_rounds_are_played_and_published_by_step,
);

const NOW: Timestamp = Timestamp(1_800_000_000);

async fn contest(test: &TestStore, teams: &[&str]) -> ContestStore<AnyStore> {
    let opened = Arc::new(test.open_again().await.unwrap());
    let new = NewContest {
        name: "Cup".to_owned(),
        game: GameType::DEFAULT,
        seed: Some(5),
        settings: ContestSettings::default(),
    };
    create_contest(&*opened, &new, || 0).await.unwrap();
    let store = ContestStore::open(opened).await.unwrap();
    for name in teams {
        let team = store.add_team(name, None).await.unwrap().id;
        store
            .add_version(team, "builtin:greedy", "", NOW)
            .await
            .unwrap();
        store
            .activate_version(team, VersionNumber(1), None, "admin", NOW)
            .await
            .unwrap();
    }
    store
}

async fn take(store: &ContestStore<AnyStore>, step: CalendarStep) -> CalendarDone {
    store.take(step, NOW).await.unwrap()
}

/// Takes `step`, which must be refused with a reason that says `because`.
async fn refused(store: &ContestStore<AnyStore>, step: CalendarStep, because: &str) {
    match store.take(step, NOW).await {
        Err(CalendarError::Refused(why)) => assert!(
            why.contains(because),
            "{step:?} refused with {why:?}, not for {because:?}"
        ),
        other => panic!("expected {step:?} refused, got {other:?}"),
    }
}

async fn stages(store: &ContestStore<AnyStore>) -> Vec<(Phase, u32, MatchdayStage)> {
    ContestResults::matchdays(store)
        .await
        .unwrap()
        .iter()
        .map(|m| (m.phase, m.number, m.stage))
        .collect()
}

/// Plays every waiting game of `season`, home winning.
async fn play_all(store: &AnyStore, season: &str, games: u32) {
    for _ in 0..games {
        play(store, season, [2, 0], [50, 10]).await;
    }
}

async fn the_organisers_steps_are_the_commands_with_their_refusals(test: TestStore) {
    let store = contest(&test, &["A", "B", "C", "D"]).await;
    let championship = |number| CalendarStep::Play {
        phase: Phase::Championship,
        number,
        timed: true,
    };
    let made = take(
        &store,
        CalendarStep::NewMatchday {
            phase: Phase::Championship,
            deadline: Some(Timestamp(NOW.0 + 3600)),
            timed: false,
        },
    )
    .await;
    assert_eq!(
        made,
        CalendarDone {
            phase: Phase::Championship,
            number: 1,
            games: 0,
            changed: true
        }
    );
    let stored = store.matchdays().await.unwrap();
    assert_eq!(stored[0].deadline, Some(Timestamp(NOW.0 + 3600)));
    assert!(!stored[0].timed, "the step's clock setting is stored");
    refused(
        &store,
        CalendarStep::NewMatchday {
            phase: Phase::Final,
            deadline: None,
            timed: true,
        },
        "`contest final create`",
    )
    .await;
    refused(&store, championship(2), "no matchday 2").await;
    refused(
        &store,
        CalendarStep::Publish {
            phase: Phase::Championship,
            number: 1,
        },
        "is not played yet",
    )
    .await;

    // Four teams: two encounters of six games.
    let played = take(&store, championship(1)).await;
    assert_eq!((played.number, played.games), (1, 12));
    assert_eq!(
        stages(&store).await,
        [(Phase::Championship, 1, MatchdayStage::Scheduled)]
    );
    refused(&store, championship(1), "a matchday is frozen once").await;
    let retry = CalendarStep::RetryFailed {
        phase: Phase::Championship,
        number: 1,
    };
    refused(&store, retry, "no failed game").await;

    // One game given up as failed, then retried by the step.
    let report = store.matchday_report(Phase::Championship, 1).await.unwrap();
    let seasons: Vec<String> = report
        .encounters
        .iter()
        .map(|(e, _)| e.season.clone().unwrap())
        .collect();
    let db = store.database();
    let claim = db
        .claim(&seasons[0], "crashing", Duration::from_secs(60), 1, None)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        db.give_back(&claim, Some("burnt"), 1).await.unwrap(),
        GivenBack::Failed
    );
    assert_eq!(take(&store, retry).await.games, 1);
    refused(&store, retry, "no failed game").await;

    for season in &seasons {
        play_all(db, season, 6).await;
    }
    let publish = CalendarStep::Publish {
        phase: Phase::Championship,
        number: 1,
    };
    let unpublish = CalendarStep::Unpublish {
        phase: Phase::Championship,
        number: 1,
    };
    refused(&store, unpublish, "not published").await;
    take(&store, publish).await;
    assert_eq!(
        stages(&store).await,
        [(Phase::Championship, 1, MatchdayStage::Published)]
    );
    refused(&store, publish, "published already").await;
    take(&store, unpublish).await;
    assert_eq!(
        stages(&store).await,
        [(Phase::Championship, 1, MatchdayStage::Played)]
    );
}

async fn the_finals_rounds_are_played_and_published_by_step(test: TestStore) {
    let store = contest(&test, &["A", "B", "C", "D"]).await;
    let semi = |timed| CalendarStep::Play {
        phase: Phase::Final,
        number: 2,
        timed,
    };
    refused(&store, semi(true), "contest final create").await;
    // No table yet: nothing to seed the final from.
    refused(
        &store,
        CalendarStep::NewFinal {
            size: Some(BracketSize::Four),
        },
        "needs 4 ranked teams; there are 0",
    )
    .await;
    take(
        &store,
        CalendarStep::NewMatchday {
            phase: Phase::Championship,
            deadline: None,
            timed: false,
        },
    )
    .await;
    take(
        &store,
        CalendarStep::Play {
            phase: Phase::Championship,
            number: 1,
            timed: true,
        },
    )
    .await;
    for (encounter, _) in store
        .matchday_report(Phase::Championship, 1)
        .await
        .unwrap()
        .encounters
    {
        play_all(store.database(), &encounter.season.unwrap(), 6).await;
    }
    let made = take(
        &store,
        CalendarStep::NewFinal {
            size: Some(BracketSize::Four),
        },
    )
    .await;
    assert_eq!(
        (made.phase, made.number),
        (Phase::Final, 2),
        "semi-finals first"
    );
    refused(
        &store,
        CalendarStep::NewFinal {
            size: Some(BracketSize::Four),
        },
        "already",
    )
    .await;
    refused(
        &store,
        CalendarStep::Play {
            phase: Phase::Final,
            number: 9,
            timed: true,
        },
        "no round 9",
    )
    .await;
    let played = take(&store, semi(false)).await;
    assert_eq!((played.games, played.changed), (12, true));
    let again = take(&store, semi(false)).await;
    assert_eq!(
        (again.games, again.changed),
        (12, false),
        "looked, not scheduled"
    );
    let round = store.final_report().await.unwrap();
    let semi_finals = round
        .rounds
        .iter()
        .find(|r| r.round.number() == 2)
        .and_then(|r| r.report.as_ref())
        .unwrap();
    assert!(
        !semi_finals.matchday.timed,
        "the step's clock setting is the round's"
    );
    let publish = CalendarStep::Publish {
        phase: Phase::Final,
        number: 2,
    };
    refused(&store, publish, "being played").await;
    for (encounter, _) in &semi_finals.encounters {
        play_all(store.database(), encounter.season.as_ref().unwrap(), 6).await;
    }
    take(&store, publish).await;
    let final_stage = stages(&store)
        .await
        .into_iter()
        .find(|(phase, number, _)| (*phase, *number) == (Phase::Final, 2))
        .map(|(_, _, stage)| stage);
    assert_eq!(final_stage, Some(MatchdayStage::Published));
    take(
        &store,
        CalendarStep::Unpublish {
            phase: Phase::Final,
            number: 2,
        },
    )
    .await;
}
