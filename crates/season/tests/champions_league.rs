//! The champions league's matchdays in the season store, on SQLite and
//! PostgreSQL: one group of the best K of every championship group (all
//! winners first, then all runners-up), read from the championship's
//! table; refused before the championship has a played matchday and while
//! one is still being played; the same teams on every champions league
//! matchday, no pair twice; the championship closed once the champions
//! league has begun; the champions league's own table.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test.

#[macro_use]
mod both_stores;
mod worker_results;
use worker_results::play;

use std::{collections::BTreeSet, sync::Arc};

use both_stores::TestStore;
use spielleiter_contest::{ContestAccounts, ContestSettings, Phase, TeamId, Timestamp};
use spielleiter_rules::GameType;
use spielleiter_season::{
    AnyStore, ContestStore, MatchdayReport, MatchdayState, NewContest, SeasonError, SeasonStore,
    create_contest,
};

both_stores!(the_champions_league_is_the_best_of_each_championship_group);

const NOW: Timestamp = Timestamp(1_800_000_000);

fn refused(result: Result<impl std::fmt::Debug, SeasonError>) -> String {
    match result {
        Err(SeasonError::Refused(why)) => why,
        other => panic!("expected a refusal, got {other:?}"),
    }
}

/// Plays every game of the matchday's encounters, the team with the lower
/// id winning each: a table that is worked out here without the store.
async fn play_out(store: &AnyStore, report: &MatchdayReport) {
    for (stored, _) in &report.encounters {
        let [home, away] = stored.encounter.pairing.teams();
        let season = stored.season.as_deref().unwrap();
        let games = store.games(season).await.unwrap().len();
        for _ in 0..games {
            if home < away {
                play(store, season, [2, 0], [20, 5]).await;
            } else {
                play(store, season, [0, 2], [5, 20]).await;
            }
        }
    }
}

/// The teams a matchday's encounters pair or sit out.
fn teams_of(report: &MatchdayReport) -> BTreeSet<TeamId> {
    let mut teams: BTreeSet<TeamId> = report.byes.iter().map(|b| b.team).collect();
    for (stored, _) in &report.encounters {
        teams.extend(stored.encounter.pairing.teams());
    }
    teams
}

fn pairs(report: &MatchdayReport) -> BTreeSet<[TeamId; 2]> {
    report
        .encounters
        .iter()
        .map(|(stored, _)| {
            let mut pair = stored.encounter.pairing.teams();
            pair.sort();
            pair
        })
        .collect()
}

async fn the_champions_league_is_the_best_of_each_championship_group(test: TestStore) {
    let opened = Arc::new(test.open_again().await.unwrap());
    let settings = ContestSettings {
        champions_league_size: 2,
        games_per_encounter: 2,
        ..ContestSettings::default()
    };
    let new = NewContest {
        name: "Cup".to_owned(),
        game: GameType::DEFAULT,
        seed: Some(3),
        settings,
    };
    create_contest(&*opened, &new, || 0).await.unwrap();
    let store = ContestStore::open(opened).await.unwrap();
    let mut groups = Vec::new();
    for (group, names) in [("North", ["A", "B", "C"]), ("South", ["D", "E", "F"])] {
        let id = store.group(group).await.unwrap();
        let mut teams = Vec::new();
        for name in names {
            teams.push(store.add_team(name, Some(id)).await.unwrap().id);
        }
        groups.push(teams);
    }
    for phase in [
        Phase::Championship,
        Phase::Championship,
        Phase::ChampionsLeague,
    ] {
        store.create_matchday(phase, None, false).await.unwrap();
    }
    assert!(
        refused(store.create_matchday(Phase::Final, None, false).await)
            .contains("contest final play")
    );
    assert!(
        refused(store.play_matchday(Phase::ChampionsLeague, 1, NOW).await)
            .contains("no championship matchday is played yet")
    );
    let first = store
        .play_matchday(Phase::Championship, 1, NOW)
        .await
        .unwrap();
    assert!(
        refused(store.play_matchday(Phase::ChampionsLeague, 1, NOW).await)
            .contains("matchday 1 of the championship is still being played (0 of 4 games done)")
    );
    play_out(store.database(), &first).await;

    let tables = store.standings(Phase::Championship).await.unwrap();
    assert_eq!(tables.len(), 2);
    // Worked out without the store: the lower id wins every game, and in a
    // group of three the one that sat out has played nothing.
    let expected: Vec<TeamId> = {
        let by_place: Vec<Vec<TeamId>> =
            tables.iter().map(|table| table.top(2).collect()).collect();
        for (table, teams) in tables.iter().zip(&groups) {
            let sat_out: Vec<TeamId> = first
                .byes
                .iter()
                .filter(|b| teams.contains(&b.team))
                .map(|b| b.team)
                .collect();
            let mut playing: Vec<TeamId> = teams
                .iter()
                .copied()
                .filter(|t| !sat_out.contains(t))
                .collect();
            playing.sort();
            assert_eq!(table.rows[0].team, playing[0], "the winner tops its group");
        }
        vec![
            by_place[0][0],
            by_place[1][0],
            by_place[0][1],
            by_place[1][1],
        ]
    };
    let league = store
        .play_matchday(Phase::ChampionsLeague, 1, NOW)
        .await
        .unwrap();
    assert_eq!(league.matchday.state, MatchdayState::Scheduled);
    assert_eq!(
        teams_of(&league),
        expected.iter().copied().collect::<BTreeSet<_>>()
    );
    assert_eq!(league.encounters.len(), 2);
    assert!(league.byes.is_empty());
    for (stored, _) in &league.encounters {
        assert_eq!(stored.group, None);
        assert_eq!(stored.encounter.key.group, 1);
        assert!(
            stored
                .season
                .as_deref()
                .unwrap()
                .starts_with("champions-league-1-g1-e")
        );
    }

    assert!(
        refused(store.play_matchday(Phase::Championship, 2, NOW).await)
            .contains("the champions league has begun")
    );
    play_out(store.database(), &league).await;
    store
        .create_matchday(Phase::ChampionsLeague, None, false)
        .await
        .unwrap();
    let second = store
        .play_matchday(Phase::ChampionsLeague, 2, NOW)
        .await
        .unwrap();
    assert_eq!(teams_of(&second), teams_of(&league), "the same teams");
    assert!(
        pairs(&second).is_disjoint(&pairs(&league)),
        "no pair twice: {:?} then {:?}",
        pairs(&league),
        pairs(&second)
    );
    play_out(store.database(), &second).await;
    let table = store.standings(Phase::ChampionsLeague).await.unwrap();
    let [table] = &table[..] else {
        panic!("one table: {table:?}")
    };
    assert_eq!(table.through, 2);
    assert_eq!(table.rows.len(), 4);
    assert!(table.rows.iter().all(|row| row.encounters == 2));
}
