//! The contest's calendar and results as its pages read them
//! (`ContestResults`), on SQLite and PostgreSQL: matchdays with their
//! stages and publication, a matchday's encounters with each game's
//! result and the encounter's, its byes; the tables after every matchday
//! (all of them for the organisers, the published ones only for the
//! public) equal to the command line's; an encounter's teams and
//! publication for the access rule; the final's bracket and rounds.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test.

#[macro_use]
mod both_stores;
mod worker_results;
use worker_results::play;

use std::sync::Arc;

use both_stores::TestStore;
use spielleiter_contest::{
    BracketSize, ContestAccounts, ContestResults, ContestSettings, Counted, KnockoutRound,
    MatchdayStage, Phase, Side, StoreError, TeamId, Timestamp, VersionNumber,
};
use spielleiter_rules::GameType;
use spielleiter_season::{AnyStore, ContestStore, NewContest, create_contest};

both_stores!(
    the_pages_read_matchdays_tables_and_the_final_as_stored,
    the_games_being_played_are_counted_and_listed_by_matchday,
);

const NOW: Timestamp = Timestamp(1_800_000_000);

async fn contest(test: &TestStore) -> ContestStore<AnyStore> {
    let opened = Arc::new(test.open_again().await.unwrap());
    let new = NewContest {
        name: "Cup".to_owned(),
        game: GameType::DEFAULT,
        seed: Some(5),
        settings: ContestSettings::default(),
    };
    create_contest(&*opened, &new, || 0).await.unwrap();
    ContestStore::open(opened).await.unwrap()
}

/// Plays every encounter of matchday `number`: home wins each game with
/// points that grow with the home team's id.
async fn play_matchday(test: &TestStore, store: &ContestStore<AnyStore>, phase: Phase, n: u32) {
    let report = if phase == Phase::Final {
        store
            .play_round(KnockoutRound::of_number(n).unwrap(), false, NOW)
            .await
            .unwrap()
            .report
    } else {
        store.play_matchday(phase, n, NOW).await.unwrap()
    };
    for (stored, _) in &report.encounters {
        let season = stored.season.clone().unwrap();
        let home = stored.encounter.pairing.home.0 as u32;
        for game in 0..6u32 {
            play(&test.store, &season, [2, 0], [40 + home + game, 10]).await;
        }
    }
}

async fn the_pages_read_matchdays_tables_and_the_final_as_stored(test: TestStore) {
    let store = contest(&test).await;
    let mut ids = Vec::new();
    for name in ["A", "B", "C", "D", "E"] {
        let team = store.add_team(name, None).await.unwrap().id;
        store
            .add_version(team, "builtin:greedy", "", NOW)
            .await
            .unwrap();
        store
            .activate_version(team, VersionNumber(1), None, "admin", NOW)
            .await
            .unwrap();
        ids.push(team);
    }
    assert!(ContestResults::knockout(&store).await.unwrap().is_none());
    let groups = ContestResults::groups(&store).await.unwrap();
    assert_eq!(groups.len(), 1);
    assert_eq!((groups[0].number, groups[0].id), (1, None));
    assert_eq!(groups[0].teams, ids);
    for _ in 0..3 {
        store
            .create_matchday(Phase::Championship, None, false)
            .await
            .unwrap();
    }
    play_matchday(&test, &store, Phase::Championship, 1).await;
    play_matchday(&test, &store, Phase::Championship, 2).await;
    store
        .publish_matchday(Phase::Championship, 1, NOW)
        .await
        .unwrap();

    let calendar = ContestResults::matchdays(&store).await.unwrap();
    let stages: Vec<(u32, MatchdayStage, bool)> = calendar
        .iter()
        .map(|m| (m.number, m.stage, m.published()))
        .collect();
    assert_eq!(
        stages,
        [
            (1, MatchdayStage::Published, true),
            // Played to the end, but marked so only once a report reads it.
            (2, MatchdayStage::Scheduled, false),
            (3, MatchdayStage::Planned, false),
        ]
    );

    // A matchday: 2 encounters of 6 games each, one team sitting out, the
    // games' results as stored and the encounter's as the report's.
    let day = ContestResults::matchday(&store, Phase::Championship, 2)
        .await
        .unwrap();
    let report = store.matchday_report(Phase::Championship, 2).await.unwrap();
    assert_eq!(day.matchday.stage, MatchdayStage::Played);
    assert_eq!(day.encounters.len(), 2);
    assert_eq!(day.byes.len(), 1);
    for (shown, (stored, progress)) in day.encounters.iter().zip(&report.encounters) {
        assert_eq!(shown.id, stored.id);
        assert_eq!(&shown.progress, progress);
        let numbers: Vec<u32> = shown.games.iter().map(|g| g.number).collect();
        assert_eq!(numbers, [1, 2, 3, 4, 5, 6]);
        let home = stored.encounter.pairing.home.0;
        for (i, game) in shown.games.iter().enumerate() {
            let result = game.result.unwrap();
            assert_eq!(result.winner, Some(Side::Home));
            assert_eq!(result.points, [40 + home + i as i64, 10]);
        }
        assert_eq!(shown.result().unwrap().wins, [6, 0]);
    }
    let missing = ContestResults::matchday(&store, Phase::Championship, 9).await;
    assert_eq!(missing.unwrap_err(), StoreError::NotFound("matchday"));

    // The tables: after each matchday for the organisers, the last equal
    // to `contest standings`; the public's counts matchday 1 alone.
    let all = ContestResults::standings(&store, Phase::Championship, Counted::All)
        .await
        .unwrap();
    let throughs: Vec<u32> = all.iter().map(|t| t.through).collect();
    assert_eq!(throughs, [1, 2]);
    assert_eq!(
        all[1..],
        store.standings(Phase::Championship).await.unwrap()[..]
    );
    assert!(all[1].rows.iter().any(|r| r.previous_rank.is_some()));
    let public = ContestResults::standings(&store, Phase::Championship, Counted::Published)
        .await
        .unwrap();
    assert_eq!(public.len(), 1);
    assert_eq!(public[0].through, 1);
    let counted: u32 = public[0].rows.iter().map(|r| r.encounters).sum();
    assert_eq!(counted, 4, "matchday 1's two encounters, two teams each");
    assert_eq!(public[0].rows, all[0].rows);
    assert!(
        ContestResults::standings(&store, Phase::Trial, Counted::All)
            .await
            .unwrap()
            .is_empty()
    );

    // An encounter as the access rule needs it.
    let first = ContestResults::matchday(&store, Phase::Championship, 1)
        .await
        .unwrap();
    let shown = &first.encounters[0];
    let access = ContestResults::encounter(&store, shown.id).await.unwrap();
    assert_eq!(access.teams, shown.encounter.pairing.teams());
    assert!(access.published);
    assert_eq!((access.phase, access.matchday), (Phase::Championship, 1));
    let unpublished = ContestResults::encounter(&store, day.encounters[0].id)
        .await
        .unwrap();
    assert!(!unpublished.published);
    let season = ContestResults::encounter_season(&store, shown.id)
        .await
        .unwrap();
    assert!(season.unwrap().starts_with("championship-1-"));
    let unknown = ContestResults::encounter(&store, spielleiter_contest::EncounterId(99_999)).await;
    assert_eq!(unknown.unwrap_err(), StoreError::NotFound("encounter"));

    // The final of 4: seeds from the table, the semi-finals' winners.
    play_matchday(&test, &store, Phase::Championship, 3).await;
    store.create_final(BracketSize::Four, NOW).await.unwrap();
    play_matchday(
        &test,
        &store,
        Phase::Final,
        KnockoutRound::SemiFinal.number(),
    )
    .await;
    let knockout = ContestResults::knockout(&store).await.unwrap().unwrap();
    let shown = store.final_report().await.unwrap();
    assert_eq!(knockout.bracket, shown.bracket);
    assert_eq!(knockout.bracket.decided.len(), 2);
    let rounds: Vec<(KnockoutRound, bool)> = knockout
        .rounds
        .iter()
        .map(|r| (r.round, r.results.is_some()))
        .collect();
    assert_eq!(
        rounds,
        [
            (KnockoutRound::SemiFinal, true),
            (KnockoutRound::ThirdPlace, false),
            (KnockoutRound::Final, false),
        ]
    );
    let semis = knockout.rounds[0].results.as_ref().unwrap();
    assert_eq!(semis.encounters.len(), 2);
    assert!(semis.encounters.iter().all(|e| e.games.len() == 6));
    let teams: Vec<TeamId> = semis
        .encounters
        .iter()
        .flat_map(|e| e.encounter.pairing.teams())
        .collect();
    assert_eq!(teams.len(), 4);
}

async fn the_games_being_played_are_counted_and_listed_by_matchday(test: TestStore) {
    use spielleiter_contest::PlayingGame;
    use spielleiter_season::{GivenBack, SeasonStore};
    use std::time::Duration;

    let store = contest(&test).await;
    for name in ["A", "B", "C", "D"] {
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
    assert!(ContestResults::playing(&store).await.unwrap().is_empty());
    for _ in 0..2 {
        store
            .create_matchday(Phase::Championship, None, false)
            .await
            .unwrap();
    }
    assert!(
        ContestResults::playing(&store).await.unwrap().is_empty(),
        "planned matchdays are not being played"
    );
    let report = store
        .play_matchday(Phase::Championship, 1, NOW)
        .await
        .unwrap();
    let encounters: Vec<(spielleiter_contest::EncounterId, [TeamId; 2], String)> = report
        .encounters
        .iter()
        .map(|(e, _)| (e.id, e.encounter.pairing.teams(), e.season.clone().unwrap()))
        .collect();
    let db = &test.store;
    // Encounter 1: game 1 held by w1, game 2 played; encounter 2: game 1
    // given up as failed, game 2 held by w2.
    let held = db
        .claim(&encounters[0].2, "w1", Duration::from_secs(60), 3, None)
        .await
        .unwrap()
        .unwrap();
    play(db, &encounters[0].2, [2, 0], [30, 10]).await;
    let failing = db
        .claim(
            &encounters[1].2,
            "crashing",
            Duration::from_secs(60),
            1,
            None,
        )
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        db.give_back(&failing, Some("burnt"), 1).await.unwrap(),
        GivenBack::Failed
    );
    let second = db
        .claim(&encounters[1].2, "w2", Duration::from_secs(60), 3, None)
        .await
        .unwrap()
        .unwrap();

    let playing = ContestResults::playing(&store).await.unwrap();
    assert_eq!(playing.len(), 1, "{playing:?}");
    let day = &playing[0];
    assert_eq!(
        (day.matchday.phase, day.matchday.number),
        (Phase::Championship, 1)
    );
    assert_eq!(
        (day.done, day.running, day.waiting, day.failed),
        (1, 2, 8, 1)
    );
    let games: Vec<(PlayingGame, bool)> = day
        .games
        .iter()
        .map(|g| {
            (
                PlayingGame {
                    started_ms: None,
                    ..g.clone()
                },
                g.started_ms.is_some(),
            )
        })
        .collect();
    assert_eq!(
        games,
        [
            (
                PlayingGame {
                    encounter: encounters[0].0,
                    teams: encounters[0].1,
                    number: held.game.number,
                    worker: "w1".to_owned(),
                    started_ms: None,
                },
                true
            ),
            (
                PlayingGame {
                    encounter: encounters[1].0,
                    teams: encounters[1].1,
                    number: second.game.number,
                    worker: "w2".to_owned(),
                    started_ms: None,
                },
                true
            ),
        ]
    );

    // Once every game is played and a report marks it so, it is no longer
    // being played.
    let finished =
        worker_results::finished(db, &encounters[0].2, held.game.table_game, [2, 0], [30, 10])
            .await;
    assert!(db.record(&held, &finished).await.unwrap());
    let finished = worker_results::finished(
        db,
        &encounters[1].2,
        second.game.table_game,
        [2, 0],
        [30, 10],
    )
    .await;
    assert!(db.record(&second, &finished).await.unwrap());
    store
        .retry_failed_games(Phase::Championship, 1)
        .await
        .unwrap();
    for _ in 0..4 {
        play(db, &encounters[0].2, [2, 0], [30, 10]).await;
    }
    for _ in 0..5 {
        play(db, &encounters[1].2, [2, 0], [30, 10]).await;
    }
    let report = store.matchday_report(Phase::Championship, 1).await.unwrap();
    assert_eq!(report.games, (12, 12));
    assert!(ContestResults::playing(&store).await.unwrap().is_empty());
}
