//! The final's knockout in the season store (schema version 5), on SQLite
//! and PostgreSQL, its results written as a worker writes them (a claim,
//! then the record): a bracket of 4 seeded from the championship's
//! places; a semi-final won on its games; a semi-final tied after its 6
//! games that gets games 7 and 8 (from a worker's `more_games`, in one
//! transaction) and is then won; a match for third place tied at every
//! step up to the cap of 20 games (extended by the organiser's
//! `advance_round`) and decided by game points; a final tied at the cap
//! with equal points, decided by lot; the placings; publication and its
//! withdrawal; refusals that change nothing; a store of schema version 4
//! gaining the bracket's tables.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test.

#[macro_use]
mod both_stores;
mod worker_results;
use worker_results::play;

use std::sync::Arc;

use both_stores::TestStore;
use spielleiter_contest::{
    BracketSize, ContestAccounts, ContestSettings, DecidedBy, EncounterOutcome, KnockoutRound,
    Phase, Progress, Side, TeamId, Timestamp,
};
use spielleiter_rules::GameType;
use spielleiter_season::{
    AnyStore, ContestStore, GameState, MatchdayReport, MatchdayState, NewContest, SeasonError,
    SeasonStore, StoredEncounter, create_contest,
};

both_stores!(
    a_bracket_of_four_is_played_to_its_placings_with_ties_extended_to_the_cap,
    a_store_of_schema_version_4_gains_the_bracket_tables,
);

const NOW: Timestamp = Timestamp(1_800_000_000);

async fn contest(test: &TestStore) -> ContestStore<AnyStore> {
    let opened = Arc::new(test.open_again().await.unwrap());
    let new = NewContest {
        name: "Cup".to_owned(),
        game: GameType::DEFAULT,
        seed: Some(23),
        settings: ContestSettings::default(),
    };
    create_contest(&*opened, &new, || 0).await.unwrap();
    ContestStore::open(opened).await.unwrap()
}

fn refused(result: Result<impl std::fmt::Debug, SeasonError>) -> String {
    match result {
        Err(SeasonError::Refused(why)) => why,
        other => panic!("expected a refusal, got {other:?}"),
    }
}

const HOME: [u32; 2] = [2, 0];
const AWAY: [u32; 2] = [0, 2];

/// Plays `results` (home's view) as the next games of `season`.
async fn play_all(store: &AnyStore, season: &str, results: &[([u32; 2], [u32; 2])]) {
    for (win_points, points) in results {
        play(store, season, *win_points, *points).await;
    }
}

fn season(stored: &StoredEncounter) -> String {
    stored.season.clone().expect("a played encounter's season")
}

/// The games of `season` by number: (number, table game) of each.
async fn numbers(store: &AnyStore, season: &str) -> Vec<(u32, u32)> {
    store
        .games(season)
        .await
        .unwrap()
        .iter()
        .map(|g| (g.game.number, g.game.table_game))
        .collect()
}

fn decided(report: &MatchdayReport, slot: usize) -> (TeamId, DecidedBy, [u32; 2]) {
    let (stored, progress) = &report.encounters[slot];
    let Progress::Decided(result) = progress else {
        panic!("encounter {slot} is not decided: {progress:?}");
    };
    let winner = match result.outcome {
        EncounterOutcome::Won(Side::Home) => stored.encounter.pairing.home,
        EncounterOutcome::Won(Side::Away) => stored.encounter.pairing.away,
        other => panic!("a knockout encounter ended {other:?}"),
    };
    (winner, result.decided_by, result.wins)
}

async fn a_bracket_of_four_is_played_to_its_placings_with_ties_extended_to_the_cap(
    test: TestStore,
) {
    let store = contest(&test).await;
    let db = &test.store;
    let mut ids = Vec::new();
    for name in ["A", "B", "C", "D"] {
        let team = store.add_team(name, None).await.unwrap().id;
        store
            .add_version(team, "builtin:greedy", "", NOW)
            .await
            .unwrap();
        store
            .activate_version(
                team,
                spielleiter_contest::VersionNumber(1),
                None,
                "admin",
                NOW,
            )
            .await
            .unwrap();
        ids.push(team);
    }
    let why = refused(store.play_round(KnockoutRound::SemiFinal, false, NOW).await);
    assert!(why.contains("no final yet"), "{why}");
    let why = refused(store.create_final(BracketSize::Four, NOW).await);
    assert!(why.contains("needs 4 ranked teams; there are 0"), "{why}");

    // The championship: one matchday, home wins every game, and the
    // points tell the two winners and the two losers apart.
    store
        .create_matchday(Phase::Championship, None, false)
        .await
        .unwrap();
    let report = store
        .play_matchday(Phase::Championship, 1, NOW)
        .await
        .unwrap();
    for (stored, _) in &report.encounters {
        let home = stored.encounter.pairing.home.0 as u32;
        let games = vec![(HOME, [50 + home, 10]); 6];
        play_all(db, &season(stored), &games).await;
        // A round-robin encounter's season never grows.
        assert!(!db.more_games(&season(stored)).await.unwrap());
    }
    let tables = store.standings(Phase::Championship).await.unwrap();
    let places: Vec<TeamId> = tables[0].rows.iter().map(|r| r.team).collect();
    let why = refused(store.create_final(BracketSize::Eight, NOW).await);
    assert!(why.contains("needs 8 ranked teams; there are 4"), "{why}");
    let made = store.create_final(BracketSize::Four, NOW).await.unwrap();
    assert_eq!(made.bracket.seeds, places);
    assert_eq!(made.seeded_from, Phase::Championship);
    let why = refused(store.create_final(BracketSize::Four, NOW).await);
    assert!(why.contains("has a final already"), "{why}");
    let why = refused(store.play_round(KnockoutRound::Final, false, NOW).await);
    assert_eq!(why, "the final waits for the semi-final");
    let why = refused(
        store
            .play_round(KnockoutRound::QuarterFinal, false, NOW)
            .await,
    );
    assert!(why.contains("no quarter-final"), "{why}");
    let why = refused(store.publish_round(KnockoutRound::SemiFinal, NOW).await);
    assert!(why.contains("not played yet"), "{why}");

    // Semi-finals: 1st vs 4th, 2nd vs 3rd, the better seed home.
    let played = store
        .play_round(KnockoutRound::SemiFinal, false, NOW)
        .await
        .unwrap();
    assert!(played.scheduled_now);
    let semis = played.report;
    let pairs: Vec<(TeamId, TeamId)> = semis
        .encounters
        .iter()
        .map(|(e, _)| (e.encounter.pairing.home, e.encounter.pairing.away))
        .collect();
    assert_eq!(
        pairs,
        [(places[0], places[3]), (places[1], places[2])],
        "seeds 1–4, 2–3"
    );
    let [first, second] = [
        season(&semis.encounters[0].0),
        season(&semis.encounters[1].0),
    ];
    // Played again: nothing new.
    let again = store
        .play_round(KnockoutRound::SemiFinal, false, NOW)
        .await
        .unwrap();
    assert!(!again.scheduled_now);
    assert_eq!(numbers(db, &first).await.len(), 6);
    // Semi-final 1: away wins 4:2 in its 6 games.
    play_all(
        db,
        &first,
        &[
            (AWAY, [1, 5]),
            (HOME, [5, 1]),
            (AWAY, [1, 5]),
            (AWAY, [1, 5]),
            (HOME, [5, 1]),
            (AWAY, [1, 5]),
        ],
    )
    .await;
    assert!(!db.more_games(&first).await.unwrap());
    assert_eq!(numbers(db, &first).await.len(), 6, "no extension");
    // Semi-final 2: 3:3 after 6 games, a worker asks, gets games 7 and 8
    // at once; while they wait it asks again and gets nothing new.
    let alternate: Vec<_> = (0..6)
        .map(|i| {
            if i % 2 == 0 {
                (HOME, [4, 4])
            } else {
                (AWAY, [4, 4])
            }
        })
        .collect();
    play_all(db, &second, &alternate).await;
    assert!(db.more_games(&second).await.unwrap(), "games to play");
    // The organiser's look finds them appended: nothing twice.
    let (report, extended) = store.advance_round(KnockoutRound::SemiFinal).await.unwrap();
    assert!(extended.is_empty(), "{extended:?}");
    assert!(matches!(
        report.encounters[1].1,
        Progress::Waiting { missing: 2 }
    ));
    assert!(db.more_games(&second).await.unwrap(), "games still to play");
    assert_eq!(
        numbers(db, &second).await,
        (1..=8).map(|n| (n, n)).collect::<Vec<_>>()
    );
    play_all(db, &second, &[(HOME, [4, 4]), (HOME, [4, 4])]).await;
    assert!(!db.more_games(&second).await.unwrap());
    assert_eq!(numbers(db, &second).await.len(), 8);
    let semis = store
        .matchday_report(Phase::Final, KnockoutRound::SemiFinal.number())
        .await
        .unwrap();
    assert_eq!(semis.matchday.state, MatchdayState::Played);
    assert_eq!(decided(&semis, 0), (places[3], DecidedBy::Games, [2, 4]));
    assert_eq!(decided(&semis, 1), (places[1], DecidedBy::Games, [5, 3]));

    // Publication, and its withdrawal.
    store
        .publish_round(KnockoutRound::SemiFinal, NOW)
        .await
        .unwrap();
    let why = refused(store.publish_round(KnockoutRound::SemiFinal, NOW).await);
    assert!(why.contains("published already"), "{why}");
    let back = store
        .unpublish_round(KnockoutRound::SemiFinal)
        .await
        .unwrap();
    assert_eq!(back.matchday.state, MatchdayState::Played);
    assert_eq!(back.matchday.published_at, None);
    let why = refused(store.unpublish_round(KnockoutRound::SemiFinal).await);
    assert!(why.contains("not published"), "{why}");

    // Third place, the semi-finals' losers: the first mover wins every
    // game, so every step is tied up to the cap; home has more points.
    let third = store
        .play_round(KnockoutRound::ThirdPlace, false, NOW)
        .await
        .unwrap()
        .report;
    let pairing = third.encounters[0].0.encounter.pairing;
    assert_eq!((pairing.home, pairing.away), (places[0], places[2]));
    let third_season = season(&third.encounters[0].0);
    let mut index = 0;
    loop {
        let scheduled = numbers(db, &third_season).await.len();
        while index < scheduled {
            let result = if index % 2 == 0 { HOME } else { AWAY };
            play(db, &third_season, result, [3, 2]).await;
            index += 1;
        }
        let (report, extended) = store
            .advance_round(KnockoutRound::ThirdPlace)
            .await
            .unwrap();
        if extended.is_empty() {
            assert!(matches!(report.encounters[0].1, Progress::Decided(_)));
            break;
        }
        assert_eq!(extended, [(1, index as u32..index as u32 + 2)]);
    }
    assert_eq!(index, 20, "the cap");
    let third = store
        .matchday_report(Phase::Final, KnockoutRound::ThirdPlace.number())
        .await
        .unwrap();
    assert_eq!(
        decided(&third, 0),
        (places[0], DecidedBy::GamePoints, [10, 10])
    );
    assert!(!db.more_games(&third_season).await.unwrap());

    // The final, the winners: tied at the cap with equal points, the lot;
    // its extensions come from the worker's side.
    let the_final = store
        .play_round(KnockoutRound::Final, false, NOW)
        .await
        .unwrap()
        .report;
    let pairing = the_final.encounters[0].0.encounter.pairing;
    assert_eq!((pairing.home, pairing.away), (places[1], places[3]));
    let final_season = season(&the_final.encounters[0].0);
    let mut index = 0;
    loop {
        let games = db.games(&final_season).await.unwrap();
        let open = games
            .iter()
            .filter(|g| g.state == GameState::Waiting)
            .count();
        for _ in 0..open {
            let result = if index % 2 == 0 { HOME } else { AWAY };
            play(db, &final_season, result, [3, 3]).await;
            index += 1;
        }
        if !db.more_games(&final_season).await.unwrap() {
            break;
        }
    }
    assert_eq!(index, 20);
    let report = store.final_report().await.unwrap();
    let the_final = report.round(KnockoutRound::Final).unwrap();
    let (champion, by, wins) = decided(the_final, 0);
    assert_eq!((by, wins), (DecidedBy::Lot, [10, 10]));
    assert!(champion == places[1] || champion == places[3]);
    let runner_up = if champion == places[1] {
        places[3]
    } else {
        places[1]
    };
    assert_eq!(
        report.bracket.placings(),
        Some([champion, runner_up, places[0], places[2]])
    );
    assert_eq!(report.bracket.decided.len(), 4);
}

async fn a_store_of_schema_version_4_gains_the_bracket_tables(test: TestStore) {
    let store = contest(&test).await;
    store.add_team("Owls", None).await.unwrap();
    // Version 6's tables came after; a store of version 4 has none.
    test.sql("DROP TABLE contest_notice_mail");
    test.sql("DROP TABLE contest_mail_addresses");
    test.sql("DROP TABLE contest_notice_reads");
    test.sql("DROP TABLE contest_notices");
    test.sql("DROP TABLE contest_challenges");
    test.sql("DROP TABLE contest_builds");
    test.sql("DROP TABLE contest_uploads");
    test.sql("DROP TABLE contest_bracket_seeds");
    test.sql("DROP TABLE contest_brackets");
    test.sql("ALTER TABLE contest_encounters DROP COLUMN result");
    test.sql("UPDATE spielleiter_schema SET version = 4");
    let store = ContestStore::open(Arc::new(test.open_again().await.unwrap()))
        .await
        .unwrap();
    assert_eq!(
        test.sql("SELECT version FROM spielleiter_schema"),
        spielleiter_season::SCHEMA_VERSION.to_string()
    );
    let why = refused(store.final_report().await);
    assert!(why.contains("no final yet"), "{why}");
    assert_eq!(test.sql("SELECT COUNT(*) FROM contest_brackets"), "0");
}
