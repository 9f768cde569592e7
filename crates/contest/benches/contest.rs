//! The contest model at the scale of a large season: 300 teams drawn into
//! 15 groups of 20, 30 championship matchdays (a cycle of 19 and 11 of the
//! second). Scheduling a matchday (every group's line-up, the frozen
//! entries, every game's plan) and computing every group's standings must
//! each stay far below the 100 ms a request may take with its store work.
//! Each benchmark checks its result, so a fast wrong answer fails. Figures:
//! `BENCHMARKS.md`.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use spielleiter_contest::{
    AtDeadline, ContestSettings, Encounter, GamePlan, GameResult, Phase, PlayedEncounter, Progress,
    Side, Standings, TeamId, VersionId, draw_groups, schedule_matchday,
};

const SEED: u64 = 2027;
const TEAMS: i64 = 300;
const GROUPS: u32 = 15;
const MATCHDAYS: u32 = 30;

/// Every team has an active version except every 25th, played by the
/// stand-in.
fn at_deadline(team: TeamId) -> AtDeadline {
    AtDeadline {
        active: (team.0 % 25 != 0).then_some(VersionId(team.0 * 7)),
        enabled: true,
    }
}

fn groups() -> Vec<Vec<TeamId>> {
    let teams: Vec<TeamId> = (1..=TEAMS).map(TeamId).collect();
    draw_groups(SEED, Phase::Championship, &teams, GROUPS).expect("draw")
}

/// One matchday's encounters and every game's plan.
fn schedule(
    settings: &ContestSettings,
    groups: &[Vec<TeamId>],
    matchday: u32,
) -> (Vec<Encounter>, Vec<GamePlan>) {
    let schedule = schedule_matchday(
        SEED,
        settings,
        Phase::Championship,
        matchday,
        (1..).zip(groups.iter().map(Vec::as_slice)),
        at_deadline,
    )
    .expect("schedule");
    let plans = schedule
        .encounters
        .iter()
        .flat_map(|e| (0..settings.games_per_encounter).map(|game| e.game(game, SEED)))
        .collect();
    (schedule.encounters, plans)
}

/// A game's result from its seed: home, away or a draw, and points.
fn result_of(plan: &GamePlan) -> GameResult {
    let winner = [Some(Side::Home), Some(Side::Away), None][(plan.seed % 3) as usize];
    GameResult {
        winner,
        points: [(plan.seed % 89) as i64, ((plan.seed >> 8) % 89) as i64],
    }
}

/// Every encounter of the 30 matchdays, decided.
fn season(settings: &ContestSettings, groups: &[Vec<TeamId>]) -> Vec<PlayedEncounter> {
    let mut played = Vec::new();
    for matchday in 1..=MATCHDAYS {
        let (encounters, _) = schedule(settings, groups, matchday);
        for encounter in encounters {
            let games: Vec<Option<GameResult>> = (0..settings.games_per_encounter)
                .map(|game| Some(result_of(&encounter.game(game, SEED))))
                .collect();
            let Ok(Progress::Decided(result)) = encounter.progress(settings, SEED, &games) else {
                panic!("six games decide an encounter");
            };
            played.push(PlayedEncounter {
                key: encounter.key,
                pairing: encounter.pairing,
                result,
            });
        }
    }
    played
}

fn all_standings(groups: &[Vec<TeamId>], played: &[PlayedEncounter]) -> Vec<Standings> {
    (1..)
        .zip(groups)
        .map(|(number, teams)| {
            Standings::compute(SEED, Phase::Championship, number, teams, played, MATCHDAYS)
                .expect("standings")
        })
        .collect()
}

fn scale(c: &mut Criterion) {
    let settings = ContestSettings::default();
    let groups = groups();
    assert!(groups.iter().all(|g| g.len() == 20));

    let (encounters, plans) = schedule(&settings, &groups, MATCHDAYS);
    assert_eq!(encounters.len(), 150);
    assert_eq!(plans.len(), 900);
    let mut bench = c.benchmark_group("contest_300_teams");
    bench.bench_function("schedule_matchday_30", |b| {
        b.iter(|| {
            let (encounters, plans) = schedule(&settings, black_box(&groups), MATCHDAYS);
            assert_eq!(encounters.len() + plans.len(), 1050);
            (encounters, plans)
        });
    });

    let played = season(&settings, &groups);
    assert_eq!(played.len(), 150 * MATCHDAYS as usize);
    let tables = all_standings(&groups, &played);
    assert!(tables.iter().all(|t| t.rows.len() == 20));
    // 30 matchdays of a group of 20: each team 30 encounters (one cycle of
    // 19 plus 11 of the second), sitting out none.
    assert!(
        tables
            .iter()
            .flat_map(|t| &t.rows)
            .all(|r| r.encounters == 30)
    );
    bench.bench_function("standings_15_groups_through_matchday_30", |b| {
        b.iter(|| {
            let tables = all_standings(black_box(&groups), black_box(&played));
            assert_eq!(tables.len(), 15);
            tables
        });
    });
    bench.bench_function("decide_150_encounters", |b| {
        let games: Vec<Vec<Option<GameResult>>> = encounters
            .iter()
            .map(|e| {
                (0..6)
                    .map(|game| Some(result_of(&e.game(game, SEED))))
                    .collect()
            })
            .collect();
        b.iter(|| {
            let decided = encounters
                .iter()
                .zip(&games)
                .filter(|(e, g)| matches!(e.progress(&settings, SEED, g), Ok(Progress::Decided(_))))
                .count();
            assert_eq!(decided, 150);
            decided
        });
    });
    bench.bench_function("draw_300_teams_into_15_groups", |b| {
        let teams: Vec<TeamId> = (1..=TEAMS).map(TeamId).collect();
        b.iter(|| draw_groups(SEED, Phase::Championship, black_box(&teams), GROUPS).expect("draw"));
    });
    bench.finish();
}

criterion_group!(benches, scale);
criterion_main!(benches);
