//! Standings over any results: places 1..n, ordered by ranking points then
//! the mean game points, the same table whatever the order of the group or
//! of the encounters, and the points of the table are the encounters'.

use proptest::prelude::*;
use spielleiter_contest::{
    AtDeadline, ContestSettings, GameResult, Phase, PlayedEncounter, Progress, Side, StandIn,
    Standings, TeamId, VersionId, schedule_matchday,
};

/// A group of `n` teams plays `matchdays` matchdays with the game results
/// `results` (cycled); teams with an id divisible by 5 have no version and
/// forfeit when `forfeit` is set.
fn season(
    n: usize,
    matchdays: u32,
    results: &[(u8, i64, i64)],
    forfeit: bool,
    seed: u64,
) -> (Vec<TeamId>, Vec<PlayedEncounter>) {
    let settings = ContestSettings {
        stand_in: if forfeit {
            StandIn::Forfeit
        } else {
            StandIn::RandomBot
        },
        ..ContestSettings::default()
    };
    let group: Vec<TeamId> = (1..=n as i64).map(TeamId).collect();
    let mut next = results.iter().cycle();
    let mut played = Vec::new();
    for matchday in 1..=matchdays {
        let schedule = schedule_matchday(
            seed,
            &settings,
            Phase::Championship,
            matchday,
            [(1, &group[..])],
            |team| AtDeadline {
                active: (team.0 % 5 != 0).then_some(VersionId(team.0)),
                enabled: true,
            },
        )
        .expect("schedule");
        for encounter in schedule.encounters {
            let mut games = Vec::new();
            let result = loop {
                match encounter
                    .progress(&settings, seed, &games)
                    .expect("progress")
                {
                    Progress::Play(range) => {
                        for _ in range {
                            let &(w, a, b) = next.next().expect("cycled");
                            games.push(Some(GameResult {
                                winner: [Some(Side::Home), Some(Side::Away), None]
                                    [usize::from(w % 3)],
                                points: [a, b],
                            }));
                        }
                    }
                    Progress::Waiting { .. } => unreachable!("all results given"),
                    Progress::Decided(result) => break result,
                }
            };
            played.push(PlayedEncounter {
                key: encounter.key,
                pairing: encounter.pairing,
                result,
            });
        }
    }
    (group, played)
}

proptest! {
    #[test]
    fn any_table_is_ordered_by_the_rules(
        n in 2usize..24,
        matchdays in 1u32..30,
        results in proptest::collection::vec((0u8..3, 0i64..90, 0i64..90), 1..40),
        forfeit: bool,
        seed: u64,
    ) {
        let (group, played) = season(n, matchdays, &results, forfeit, seed);
        let table = Standings::compute(seed, Phase::Championship, 1, &group, &played, matchdays)
            .expect("table");
        let ranks: Vec<u32> = table.rows.iter().map(|r| r.rank).collect();
        prop_assert_eq!(ranks, (1..=n as u32).collect::<Vec<_>>());
        for pair in table.rows.windows(2) {
            let (a, b) = (&pair[0], &pair[1]);
            prop_assert!(a.ranking_points >= b.ranking_points);
            if a.ranking_points == b.ranking_points {
                // Mean points, compared exactly: a.points/a.played ≥ b's.
                let mean = |r: &spielleiter_contest::StandingRow| {
                    if r.played == 0 { (0i128, 1i128) } else { (i128::from(r.points), i128::from(r.played)) }
                };
                let ((pa, da), (pb, db)) = (mean(a), mean(b));
                prop_assert!(pa * db >= pb * da);
            }
        }
        // The table's points are the encounters'.
        let total_ranking: u32 = played.iter().map(|e| e.result.ranking_points.iter().sum::<u32>()).sum();
        prop_assert_eq!(table.rows.iter().map(|r| r.ranking_points).sum::<u32>(), total_ranking);
        let encounters: u32 = table.rows.iter().map(|r| r.encounters).sum();
        prop_assert_eq!(encounters as usize, 2 * played.len());
        for row in &table.rows {
            prop_assert_eq!(row.encounters, row.encounters_won + row.encounters_drawn + row.encounters_lost);
            prop_assert!(row.games_won + row.games_drawn <= row.games);
        }
        // Neither the group's order nor the encounters' changes the table.
        let mut reversed_group = group.clone();
        reversed_group.reverse();
        let mut reversed_played = played.clone();
        reversed_played.reverse();
        let again = Standings::compute(seed, Phase::Championship, 1, &reversed_group, &reversed_played, matchdays)
            .expect("table");
        prop_assert_eq!(&again, &table);
        // The previous places are a table of their own: 1..n once each,
        // and exactly the places of the table after the previous matchday.
        if matchdays > 1 {
            let before = Standings::compute(seed, Phase::Championship, 1, &group, &played, matchdays - 1)
                .expect("table before");
            for row in &table.rows {
                let earlier = before.rows.iter().find(|r| r.team == row.team).map(|r| r.rank);
                prop_assert_eq!(row.previous_rank, earlier);
            }
        } else {
            prop_assert!(table.rows.iter().all(|r| r.previous_rank.is_none()));
        }
    }
}

#[test]
fn a_forfeiting_team_loses_its_encounters_and_plays_no_games() {
    let results = [(0, 10, 5), (1, 6, 12), (2, 8, 8)];
    let (group, played) = season(6, 5, &results, true, 3);
    let table = Standings::compute(3, Phase::Championship, 1, &group, &played, 5).expect("table");
    let five = table
        .rows
        .iter()
        .find(|r| r.team == TeamId(5))
        .expect("team 5");
    assert_eq!(five.ranking_points, 0);
    assert_eq!(five.encounters, five.encounters_lost);
    assert_eq!((five.played, five.points, five.games_won), (0, 0, 0));
    assert_eq!(five.games, 6 * five.encounters);
    assert_eq!(five.mean_points(), 0.0);
    assert_eq!(table.rows.last().map(|r| r.team), Some(TeamId(5)));
}
