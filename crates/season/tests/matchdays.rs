//! A contest's versions and matchdays in the season store (schema version
//! 4), on SQLite and PostgreSQL: versions numbered per team with one
//! active, every activation recorded; a matchday frozen and scheduled as
//! one season per played encounter (its two entries, the contest's games
//! per encounter, seeds from the encounter's key), the same games in a
//! fresh store; results from the stored games deciding each encounter; a
//! forfeit without games; refusals that leave every row as it was; a
//! store of schema version 3 gaining the tables; versions added and
//! activated at once through two connections numbered apart, with one
//! active version and one activation record per activation.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test.

#[macro_use]
mod both_stores;
mod worker_results;
use worker_results::play;

use std::{collections::BTreeSet, sync::Arc};

use both_stores::TestStore;
use spielleiter_contest::{
    ContestAccounts, ContestSettings, EncounterOutcome, Entry, Phase, Progress, StandIn, TeamId,
    Timestamp, VersionNumber, VersionState,
};
use spielleiter_rules::GameType;
use spielleiter_season::{
    AnyStore, ContestStore, MatchdayState, NewContest, SeasonError, SeasonStore, create_contest,
};

both_stores!(
    versions_are_numbered_per_team_with_one_active_and_every_activation_kept,
    a_matchday_is_frozen_into_one_season_per_encounter_and_decided_by_its_games,
    a_matchday_scheduled_again_in_a_fresh_store_is_the_same_games,
    a_team_without_a_version_forfeits_when_the_settings_say_so,
    a_refused_change_leaves_every_row_as_it_was,
    a_store_of_schema_version_3_gains_the_matchday_tables,
    versions_added_and_activated_at_once_through_two_connections_stay_one_per_number_and_one_active,
);

const NOW: Timestamp = Timestamp(1_800_000_000);

async fn contest(test: &TestStore, settings: ContestSettings) -> ContestStore<AnyStore> {
    let opened = Arc::new(test.open_again().await.unwrap());
    let new = NewContest {
        name: "Cup".to_owned(),
        game: GameType::DEFAULT,
        seed: Some(11),
        settings,
    };
    create_contest(&*opened, &new, || 0).await.unwrap();
    ContestStore::open(opened).await.unwrap()
}

/// Teams `names` in the contest, in order.
async fn teams(store: &ContestStore<AnyStore>, names: &[&str]) -> Vec<TeamId> {
    let mut ids = Vec::new();
    for name in names {
        ids.push(store.add_team(name, None).await.unwrap().id);
    }
    ids
}

fn refused(result: Result<impl std::fmt::Debug, SeasonError>) -> String {
    match result {
        Err(SeasonError::Refused(why)) => why,
        other => panic!("expected a refusal, got {other:?}"),
    }
}

async fn versions_are_numbered_per_team_with_one_active_and_every_activation_kept(test: TestStore) {
    let store = contest(&test, ContestSettings::default()).await;
    let [owls, foxes] = teams(&store, &["Owls", "Foxes"]).await[..] else {
        unreachable!()
    };
    let first = store
        .add_version(owls, "builtin:greedy", "first try", NOW)
        .await
        .unwrap();
    let other = store
        .add_version(foxes, "builtin:random", "", NOW)
        .await
        .unwrap();
    let second = store
        .add_version(owls, "docker:owls:2 --depth 3", "", NOW.plus_seconds(5))
        .await
        .unwrap();
    assert_eq!(
        [first.number, other.number, second.number],
        [VersionNumber(1), VersionNumber(1), VersionNumber(2)]
    );
    assert_eq!(first.state, VersionState::Built);
    assert!(!first.active);
    store
        .activate_version(owls, VersionNumber(1), None, "administrator", NOW)
        .await
        .unwrap();
    let record = store
        .activate_version(
            owls,
            VersionNumber(2),
            None,
            "administrator",
            NOW.plus_seconds(9),
        )
        .await
        .unwrap();
    assert_eq!(record.version, second.id);
    assert_eq!(record.replaced, Some(first.id));
    let listed = store.versions(owls).await.unwrap();
    let active: Vec<u32> = listed
        .iter()
        .filter(|v| v.active)
        .map(|v| v.number.0)
        .collect();
    assert_eq!(active, [2]);
    assert_eq!(listed[1].player, "docker:owls:2 --depth 3");
    assert_eq!(listed[0].comment, "first try");
    let history = store.activations(owls).await.unwrap();
    let made: Vec<_> = history
        .iter()
        .map(|a| (a.version, a.replaced, a.at))
        .collect();
    assert_eq!(
        made,
        [
            (first.id, None, NOW),
            (second.id, Some(first.id), NOW.plus_seconds(9))
        ]
    );
    assert!(
        history
            .iter()
            .all(|a| a.by.is_none() && a.by_name == "administrator")
    );
    // The index, not only the code, keeps one active version per team.
    let twice = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        test.sql(&format!(
            "UPDATE contest_versions SET active = 1 WHERE id = {}",
            first.id
        ))
    }));
    assert!(twice.is_err(), "a second active version was stored");
    // A failed build cannot be activated.
    test.sql(&format!(
        "UPDATE contest_versions SET state = 'build_failed' WHERE id = {}",
        first.id
    ));
    let why = refused(
        store
            .activate_version(owls, VersionNumber(1), None, "administrator", NOW)
            .await,
    );
    assert!(why.contains("build failed"), "{why}");
    assert_eq!(store.activations(owls).await.unwrap().len(), 2);
}

async fn a_matchday_is_frozen_into_one_season_per_encounter_and_decided_by_its_games(
    test: TestStore,
) {
    let store = contest(&test, ContestSettings::default()).await;
    let ids = teams(&store, &["A", "B", "C", "D", "E"]).await;
    // A to D have versions (D's is not active); E has none.
    for (i, team) in ids.iter().take(4).enumerate() {
        store
            .add_version(*team, ["builtin:greedy", "builtin:random"][i % 2], "", NOW)
            .await
            .unwrap_or_else(|_| panic!("version of team {i}"));
    }
    for team in &ids[..3] {
        store
            .activate_version(*team, VersionNumber(1), None, "admin", NOW)
            .await
            .unwrap();
    }
    let made = store
        .create_matchday(Phase::Championship, Some(NOW.plus_seconds(60)), false)
        .await
        .unwrap();
    assert_eq!((made.number, made.state), (1, MatchdayState::Planned));
    let report = store
        .play_matchday(Phase::Championship, 1, NOW.plus_seconds(60))
        .await
        .unwrap();
    assert_eq!(report.matchday.state, MatchdayState::Scheduled);
    assert_eq!(report.matchday.frozen_at, Some(NOW.plus_seconds(60)));
    assert_eq!(report.encounters.len(), 2);
    assert_eq!(report.byes.len(), 1);
    let mut seen: BTreeSet<TeamId> = report.byes.iter().map(|b| b.team).collect();
    let versions: Vec<_> = {
        let mut all = Vec::new();
        for team in &ids {
            all.extend(store.versions(*team).await.unwrap());
        }
        all
    };
    let settings = &store.record().settings;
    for (stored, progress) in &report.encounters {
        let encounter = stored.encounter;
        for (team, entry) in encounter.pairing.teams().into_iter().zip(encounter.entries) {
            assert!(seen.insert(team), "team {team} twice");
            let active = versions.iter().find(|v| v.team == team && v.active);
            match active {
                Some(version) => assert_eq!(entry, Entry::Version(version.id)),
                None => assert_eq!(entry, Entry::StandIn, "team {team}"),
            }
        }
        assert_eq!(
            progress,
            &Progress::Waiting {
                missing: settings.games_per_encounter
            }
        );
        let season = stored
            .season
            .as_deref()
            .expect("a played encounter's season");
        let definition = test.store.definition(season).await.unwrap();
        let names: Vec<String> = encounter
            .pairing
            .teams()
            .iter()
            .map(|t| ["A", "B", "C", "D", "E"][ids.iter().position(|i| i == t).unwrap()].to_owned())
            .collect();
        assert_eq!(definition.names(), names, "home first");
        for (player, entry) in definition.players.iter().zip(encounter.entries) {
            let expected = match entry {
                Entry::Version(id) => versions.iter().find(|v| v.id == id).unwrap().player.clone(),
                _ => "builtin:random".to_owned(),
            };
            assert_eq!(player.start, expected);
        }
        assert_eq!(definition.seed, encounter.key.game_seed(11, 0));
        assert!(!definition.timed);
        assert_eq!(
            test.store.games(season).await.unwrap().len() as u32,
            settings.games_per_encounter
        );
    }
    assert_eq!(seen.len(), 5, "every team once");
    assert_eq!(
        refused(store.publish_matchday(Phase::Championship, 1, NOW).await),
        "matchday 1 of the championship is still being played (0 of 12 games done)"
    );
    // The first encounter: home wins 4, away 1, one draw; the second: 3 each.
    let first = report.encounters[0].0.season.clone().unwrap();
    let second = report.encounters[1].0.season.clone().unwrap();
    let results = [[2, 0], [2, 0], [0, 2], [2, 0], [1, 1], [2, 0]];
    for (i, win_points) in results.iter().enumerate() {
        play(&test.store, &first, *win_points, [10 + i as u32, 3]).await;
        let even = if i % 2 == 0 { [2, 0] } else { [0, 2] };
        play(&test.store, &second, even, [5, 5]).await;
    }
    let report = store.matchday_report(Phase::Championship, 1).await.unwrap();
    assert_eq!(report.matchday.state, MatchdayState::Played);
    assert_eq!(report.games, (12, 12));
    let Progress::Decided(result) = report.encounters[0].1 else {
        panic!("decided: {:?}", report.encounters[0].1)
    };
    assert_eq!(
        result.outcome,
        EncounterOutcome::Won(spielleiter_contest::Side::Home)
    );
    assert_eq!(result.wins, [4, 1]);
    assert_eq!(result.points, [10 + 11 + 12 + 13 + 14 + 15, 18]);
    assert_eq!(result.ranking_points, [2, 0]);
    let Progress::Decided(result) = report.encounters[1].1 else {
        panic!("decided")
    };
    assert_eq!(result.outcome, EncounterOutcome::Drawn);
    let tables = store.standings(Phase::Championship).await.unwrap();
    assert_eq!(tables.len(), 1);
    let winner = report.encounters[0].0.encounter.pairing.home;
    assert_eq!(tables[0].rows[0].team, winner);
    assert_eq!(tables[0].rows.len(), 5);
    let published = store
        .publish_matchday(Phase::Championship, 1, NOW.plus_seconds(99))
        .await
        .unwrap();
    assert_eq!(published.matchday.state, MatchdayState::Published);
    assert_eq!(
        refused(store.publish_matchday(Phase::Championship, 1, NOW).await),
        "matchday 1 of the championship is published already"
    );
    // Taken back, it is played and unpublished, and can be published again.
    let taken_back = store
        .unpublish_matchday(Phase::Championship, 1)
        .await
        .unwrap();
    assert_eq!(taken_back.matchday.state, MatchdayState::Played);
    assert_eq!(taken_back.matchday.published_at, None);
    let stored = store.matchdays().await.unwrap();
    assert_eq!(stored[0].state, MatchdayState::Played);
    assert_eq!(stored[0].published_at, None);
    assert_eq!(
        refused(store.unpublish_matchday(Phase::Championship, 1).await),
        "matchday 1 of the championship is not published"
    );
    let again = store
        .publish_matchday(Phase::Championship, 1, NOW.plus_seconds(120))
        .await
        .unwrap();
    assert_eq!(again.matchday.published_at, Some(NOW.plus_seconds(120)));
    assert!(
        refused(store.standings(Phase::Trial).await)
            .contains("no table is kept for the trial matchdays")
    );
}

/// The seasons (name, definition) a new store's first matchday makes.
async fn first_matchday(test: &TestStore) -> Vec<String> {
    let store = contest(test, ContestSettings::default()).await;
    let ids = teams(&store, &["A", "B", "C", "D", "E", "F", "G"]).await;
    for team in &ids[1..] {
        store
            .add_version(*team, "builtin:greedy", "", NOW)
            .await
            .unwrap();
        store
            .activate_version(*team, VersionNumber(1), None, "admin", NOW)
            .await
            .unwrap();
    }
    store
        .create_matchday(Phase::Championship, None, true)
        .await
        .unwrap();
    store
        .play_matchday(Phase::Championship, 1, NOW)
        .await
        .unwrap();
    test.sql("SELECT name, definition FROM seasons ORDER BY name")
        .lines()
        .map(str::to_owned)
        .collect()
}

async fn a_matchday_scheduled_again_in_a_fresh_store_is_the_same_games(test: TestStore) {
    let fresh = if test.is_postgres() {
        TestStore::postgres().await
    } else {
        TestStore::sqlite().await
    };
    let here = first_matchday(&test).await;
    assert_eq!(here.len(), 3, "{here:?}");
    assert_eq!(here, first_matchday(&fresh).await);
}

async fn a_team_without_a_version_forfeits_when_the_settings_say_so(test: TestStore) {
    let settings = ContestSettings {
        stand_in: StandIn::Forfeit,
        ..ContestSettings::default()
    };
    let store = contest(&test, settings).await;
    let ids = teams(&store, &["A", "B"]).await;
    store
        .add_version(ids[0], "builtin:greedy", "", NOW)
        .await
        .unwrap();
    store
        .activate_version(ids[0], VersionNumber(1), None, "admin", NOW)
        .await
        .unwrap();
    store
        .create_matchday(Phase::Trial, None, true)
        .await
        .unwrap();
    let report = store.play_matchday(Phase::Trial, 1, NOW).await.unwrap();
    assert_eq!(report.encounters.len(), 1);
    let (stored, progress) = &report.encounters[0];
    assert_eq!(stored.season, None, "a forfeit has no games");
    assert!(stored.encounter.entries.contains(&Entry::Forfeit));
    let Progress::Decided(result) = progress else {
        panic!("{progress:?}")
    };
    assert_eq!(result.played, 0);
    assert_eq!(report.matchday.state, MatchdayState::Played);
    assert_eq!(test.sql("SELECT count(*) FROM seasons"), "0");
}

/// Every row of the tables a contest's versions and matchdays touch.
fn rows(test: &TestStore) -> String {
    [
        "SELECT * FROM contest_versions ORDER BY id",
        "SELECT * FROM contest_activations ORDER BY id",
        "SELECT * FROM contest_matchdays ORDER BY id",
        "SELECT * FROM contest_encounters ORDER BY id",
        "SELECT * FROM contest_byes ORDER BY matchday, team",
        "SELECT name, definition FROM seasons ORDER BY name",
        "SELECT count(*) FROM games",
    ]
    .map(|query| test.sql(query))
    .join("\n--\n")
}

async fn a_refused_change_leaves_every_row_as_it_was(test: TestStore) {
    let store = contest(&test, ContestSettings::default()).await;
    let ids = teams(&store, &["A", "B", "C"]).await;
    store
        .add_version(ids[0], "builtin:greedy", "", NOW)
        .await
        .unwrap();
    store
        .activate_version(ids[0], VersionNumber(1), None, "admin", NOW)
        .await
        .unwrap();
    store
        .create_matchday(Phase::Championship, None, true)
        .await
        .unwrap();
    store
        .play_matchday(Phase::Championship, 1, NOW)
        .await
        .unwrap();
    store
        .create_matchday(Phase::Championship, None, true)
        .await
        .unwrap();
    // Matchday 2's first encounter's season is taken by somebody else.
    let plan = spielleiter_contest::RoundRobin::new(11, Phase::Championship, 1, &ids)
        .unwrap()
        .line_up(2)
        .unwrap();
    assert_eq!(plan.pairings.len(), 1);
    let definition = test.store.definition("championship-1-g1-e1").await.unwrap();
    test.store
        .create(
            "championship-2-g1-e1",
            &definition,
            &definition.schedule().unwrap(),
        )
        .await
        .unwrap();
    let before = rows(&test);
    let sql = "'; DROP TABLE contest_versions; --";
    let long = "x".repeat(3000);
    let refusals = [
        refused(
            store
                .add_version(ids[0], "builtin:no-such-bot", "", NOW)
                .await,
        ),
        refused(store.add_version(ids[0], "  ", "", NOW).await),
        refused(
            store
                .add_version(ids[0], "builtin:greedy", &long, NOW)
                .await,
        ),
        refused(
            store
                .add_version(TeamId(99), "builtin:greedy", sql, NOW)
                .await,
        ),
        refused(
            store
                .activate_version(ids[0], VersionNumber(1), None, sql, NOW)
                .await,
        ),
        refused(
            store
                .activate_version(ids[1], VersionNumber(1), None, sql, NOW)
                .await,
        ),
        refused(store.play_matchday(Phase::Championship, 1, NOW).await),
        refused(store.play_matchday(Phase::Championship, 2, NOW).await),
        refused(store.play_matchday(Phase::Championship, 3, NOW).await),
        refused(store.play_matchday(Phase::Trial, 1, NOW).await),
        refused(store.publish_matchday(Phase::Championship, 2, NOW).await),
        refused(store.create_matchday(Phase::Final, None, true).await),
        refused(store.play_matchday(Phase::ChampionsLeague, 1, NOW).await),
    ];
    for why in &refusals {
        assert!(!why.contains('\n') && !why.is_empty(), "{why:?}");
    }
    assert!(
        refusals[7].contains("championship-2-g1-e1"),
        "{}",
        refusals[7]
    );
    assert_eq!(rows(&test), before, "{}", store.describe());
    // Two teams with a group and one without cannot be paired.
    let group = store.group("North").await.unwrap();
    store.add_team("D", Some(group)).await.unwrap();
    test.sql("DELETE FROM games WHERE season = 'championship-2-g1-e1'");
    test.sql("DELETE FROM seasons WHERE name = 'championship-2-g1-e1'");
    let before = rows(&test);
    let why = refused(store.play_matchday(Phase::Championship, 2, NOW).await);
    assert!(why.contains("has no group"), "{why}");
    assert_eq!(rows(&test), before);
}

async fn a_store_of_schema_version_3_gains_the_matchday_tables(test: TestStore) {
    let store = contest(&test, ContestSettings::default()).await;
    let team = store.add_team("Owls", None).await.unwrap();
    for table in [
        // Version 5's refer to version 3's only, but go with the newer ones;
        // version 6's refer to version 4's, version 8's to version 3's.
        "contest_notice_mail",
        "contest_mail_addresses",
        "contest_notice_reads",
        "contest_notices",
        "contest_challenges",
        "contest_builds",
        "contest_uploads",
        "contest_bracket_seeds",
        "contest_brackets",
        "contest_byes",
        "contest_encounters",
        "contest_matchdays",
        "contest_activations",
        "contest_versions",
    ] {
        test.sql(&format!("DROP TABLE {table}"));
    }
    test.sql("UPDATE spielleiter_schema SET version = 3");
    let store = ContestStore::open(Arc::new(test.open_again().await.unwrap()))
        .await
        .unwrap();
    assert_eq!(
        test.sql("SELECT version FROM spielleiter_schema"),
        spielleiter_season::SCHEMA_VERSION.to_string()
    );
    let version = store
        .add_version(team.id, "builtin:random", "", NOW)
        .await
        .unwrap();
    assert_eq!(version.number, VersionNumber(1));
    assert_eq!(store.team(team.id).await.unwrap().name, "Owls");
}

async fn versions_added_and_activated_at_once_through_two_connections_stay_one_per_number_and_one_active(
    test: TestStore,
) {
    let first = contest(&test, ContestSettings::default()).await;
    let second = ContestStore::open(Arc::new(test.open_again().await.unwrap()))
        .await
        .unwrap();
    let team = teams(&first, &["Owls"]).await[0];
    for round in 0..5 {
        let (a, b) = tokio::join!(
            first.add_version(team, "builtin:greedy", "a", NOW),
            second.add_version(team, "builtin:random", "b", NOW),
        );
        let (a, b) = (a.unwrap(), b.unwrap());
        assert_ne!(a.number, b.number, "round {round}");
        let (x, y) = tokio::join!(
            first.activate_version(team, a.number, None, "first", NOW),
            second.activate_version(team, b.number, None, "second", NOW),
        );
        // Both take turns: each is recorded, and the later one replaced the
        // earlier.
        let (x, y) = (x.unwrap(), y.unwrap());
        assert!(
            x.replaced == Some(y.version) || y.replaced == Some(x.version),
            "{x:?} {y:?}"
        );
    }
    let versions = first.versions(team).await.unwrap();
    let numbers: Vec<u32> = versions.iter().map(|v| v.number.0).collect();
    assert_eq!(numbers, (1..=10).collect::<Vec<u32>>());
    assert_eq!(versions.iter().filter(|v| v.active).count(), 1);
    let history = first.activations(team).await.unwrap();
    assert_eq!(history.len(), 10);
    // Each activation replaced the one recorded before it.
    for pair in history.windows(2) {
        assert_eq!(pair[1].replaced, Some(pair[0].version));
    }
    let active = versions.iter().find(|v| v.active).unwrap();
    assert_eq!(history.last().unwrap().version, active.id);
}
