//! Who plays whom: a group's round-robin plan by the circle method
//! ([`RoundRobin`]) and the seeded draw of a phase's groups
//! ([`draw_groups`]).
//!
//! The plan is deterministic from the contest's seed and the group's team
//! order: the teams take their places in the circle in a seeded shuffle of
//! that order, so team ids (store order) decide nothing, and a plan made
//! again is the same plan. With an odd count one place in the circle is
//! empty and the team paired with it sits out. Each cycle of `n − 1`
//! matchdays (`n` for an odd count) pairs every two teams exactly once;
//! in every second cycle the same pairs meet with home and away swapped
//! (home moves first in the encounter's first game).

use serde::{Deserialize, Serialize};

use crate::{
    Phase, TeamId,
    seed::{Purpose, Stream, derive},
};

/// Two teams that meet; `home` moves first in the encounter's first game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Pairing {
    /// Moves first in game 1 (and every odd-numbered game).
    pub home: TeamId,
    /// Moves first in game 2 (and every even-numbered game).
    pub away: TeamId,
}

impl Pairing {
    /// The two teams, home first.
    pub const fn teams(&self) -> [TeamId; 2] {
        [self.home, self.away]
    }

    /// Whether `team` is one of the two.
    pub fn has(&self, team: TeamId) -> bool {
        self.home == team || self.away == team
    }
}

/// One group's line-up of a matchday.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GroupLineUp {
    /// The encounters in slot order (slot 1 first).
    pub pairings: Vec<Pairing>,
    /// The team that sits out (odd count).
    pub sits_out: Option<TeamId>,
}

/// Why a plan or a draw cannot be made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PairingError {
    /// A group needs two teams.
    #[error("a group needs at least 2 teams; it has {0}")]
    TooFewTeams(usize),
    /// A team is listed twice.
    #[error("team {0} is listed twice")]
    DuplicateTeam(TeamId),
    /// Matchdays count from 1.
    #[error("matchdays count from 1")]
    MatchdayZero,
    /// A draw needs at least one group and no more groups than teams.
    #[error("cannot draw {teams} teams into {groups} groups")]
    BadGroupCount {
        /// Teams to draw.
        teams: usize,
        /// Groups asked for.
        groups: u32,
    },
}

/// A group's round-robin plan for one phase.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoundRobin {
    /// The circle's places after the seeded shuffle; `None` is the empty
    /// place of an odd count. Place 0 stays fixed, the others turn.
    places: Vec<Option<TeamId>>,
}

fn check_distinct(teams: &[TeamId]) -> Result<(), PairingError> {
    let mut sorted = teams.to_vec();
    sorted.sort_unstable();
    match sorted.windows(2).find(|pair| pair[0] == pair[1]) {
        Some(pair) => Err(PairingError::DuplicateTeam(pair[0])),
        None => Ok(()),
    }
}

impl RoundRobin {
    /// The plan of group `group` (its number in the phase, from 1) of
    /// `phase` over `teams` in the group's order.
    ///
    /// # Errors
    ///
    /// Fewer than 2 teams, or a team listed twice.
    pub fn new(
        contest_seed: u64,
        phase: Phase,
        group: u32,
        teams: &[TeamId],
    ) -> Result<RoundRobin, PairingError> {
        if teams.len() < 2 {
            return Err(PairingError::TooFewTeams(teams.len()));
        }
        check_distinct(teams)?;
        let mut places: Vec<Option<TeamId>> = teams.iter().copied().map(Some).collect();
        Stream::new(derive(
            contest_seed,
            Purpose::RoundRobin,
            &[phase.number(), u64::from(group)],
        ))
        .shuffle(&mut places);
        if places.len() % 2 == 1 {
            places.push(None);
        }
        Ok(RoundRobin { places })
    }

    /// Matchdays in a cycle: after these, every two teams have met once.
    pub fn matchdays_per_cycle(&self) -> u32 {
        (self.places.len() - 1) as u32
    }

    /// The line-up of matchday `number` (from 1) of the phase.
    ///
    /// # Errors
    ///
    /// [`PairingError::MatchdayZero`].
    pub fn line_up(&self, number: u32) -> Result<GroupLineUp, PairingError> {
        let index = number.checked_sub(1).ok_or(PairingError::MatchdayZero)?;
        let per_cycle = self.matchdays_per_cycle();
        let round = (index % per_cycle) as usize;
        let swapped_cycle = (index / per_cycle) % 2 == 1;
        let ring = &self.places[1..];
        let turned = |i: usize| ring[(i + round) % ring.len()];
        let half = self.places.len() / 2;
        let mut pairings = Vec::with_capacity(half);
        let mut sits_out = None;
        for i in 0..half {
            let (first, second) = if i == 0 {
                (self.places[0], turned(0))
            } else {
                (turned(i), turned(ring.len() - i))
            };
            // Home alternates with the round (and flips in every second
            // cycle), so a team is not at home on every matchday.
            let (home, away) = if (round % 2 == 1) != swapped_cycle {
                (second, first)
            } else {
                (first, second)
            };
            match (home, away) {
                (Some(home), Some(away)) => pairings.push(Pairing { home, away }),
                (Some(team), None) | (None, Some(team)) => sits_out = Some(team),
                (None, None) => {}
            }
        }
        Ok(GroupLineUp { pairings, sits_out })
    }
}

/// How many groups a draw of `teams` teams makes when groups should have
/// about `group_size` teams: the fewest groups of at most `group_size`
/// (at least 1).
pub fn group_count(teams: usize, group_size: u32) -> u32 {
    let size = group_size.max(1) as usize;
    teams.div_ceil(size).max(1) as u32
}

/// Draws `teams` into `groups` groups (seeded by the contest's seed and
/// the phase): a seeded shuffle dealt out one team per group in turn, so
/// the groups' sizes differ by at most one. Each group's list is its team
/// order (the order its [`RoundRobin`] is made from).
///
/// # Errors
///
/// No groups, more groups than teams, or a team listed twice.
pub fn draw_groups(
    contest_seed: u64,
    phase: Phase,
    teams: &[TeamId],
    groups: u32,
) -> Result<Vec<Vec<TeamId>>, PairingError> {
    if groups == 0 || groups as usize > teams.len() {
        return Err(PairingError::BadGroupCount {
            teams: teams.len(),
            groups,
        });
    }
    check_distinct(teams)?;
    let mut shuffled = teams.to_vec();
    Stream::new(derive(contest_seed, Purpose::GroupDraw, &[phase.number()])).shuffle(&mut shuffled);
    let mut drawn: Vec<Vec<TeamId>> = vec![Vec::new(); groups as usize];
    for (i, team) in shuffled.into_iter().enumerate() {
        drawn[i % groups as usize].push(team);
    }
    Ok(drawn)
}

#[cfg(test)]
mod tests {
    use std::collections::{BTreeMap, BTreeSet};

    use proptest::prelude::*;

    use super::*;

    fn teams(n: usize) -> Vec<TeamId> {
        (1..=n as i64).map(|i| TeamId(i * 10)).collect()
    }

    fn unordered(p: &Pairing) -> (TeamId, TeamId) {
        (p.home.min(p.away), p.home.max(p.away))
    }

    #[test]
    fn seven_teams_one_bye_each_matchday_and_every_pair_once_per_cycle() {
        let group = teams(7);
        let plan = RoundRobin::new(5, Phase::Championship, 1, &group).expect("plan");
        assert_eq!(plan.matchdays_per_cycle(), 7);
        let mut met = BTreeSet::new();
        let mut sat_out = BTreeSet::new();
        for day in 1..=7 {
            let line_up = plan.line_up(day).expect("line-up");
            assert_eq!(line_up.pairings.len(), 3);
            let out = line_up.sits_out.expect("odd count");
            assert!(sat_out.insert(out), "{out} sits out twice in a cycle");
            for pairing in &line_up.pairings {
                assert!(met.insert(unordered(pairing)), "{pairing:?} twice");
            }
        }
        assert_eq!(met.len(), 21);
        assert_eq!(sat_out.len(), 7);
        // The second cycle: the same pairs, home and away swapped.
        for day in 1..=7 {
            let first = plan.line_up(day).expect("first cycle");
            let second = plan.line_up(day + 7).expect("second cycle");
            let swapped: Vec<Pairing> = first
                .pairings
                .iter()
                .map(|p| Pairing {
                    home: p.away,
                    away: p.home,
                })
                .collect();
            assert_eq!(second.pairings, swapped);
            assert_eq!(second.sits_out, first.sits_out);
        }
        assert_eq!(plan.line_up(0), Err(PairingError::MatchdayZero));
    }

    #[test]
    fn the_plan_depends_on_the_seed_and_the_order_and_nothing_else() {
        let group = teams(8);
        let plan = |seed, phase, number, teams: &[TeamId]| {
            RoundRobin::new(seed, phase, number, teams)
                .expect("plan")
                .line_up(1)
                .expect("line-up")
        };
        let base = plan(1, Phase::Championship, 1, &group);
        assert_eq!(base, plan(1, Phase::Championship, 1, &group));
        assert_ne!(base, plan(2, Phase::Championship, 1, &group));
        assert_ne!(base, plan(1, Phase::Championship, 2, &group));
        assert_ne!(base, plan(1, Phase::ChampionsLeague, 1, &group));
        let mut reversed = group.clone();
        reversed.reverse();
        assert_ne!(base, plan(1, Phase::Championship, 1, &reversed));
    }

    #[test]
    fn bad_groups_are_refused() {
        assert_eq!(
            RoundRobin::new(1, Phase::Trial, 1, &teams(1)),
            Err(PairingError::TooFewTeams(1))
        );
        assert_eq!(
            RoundRobin::new(1, Phase::Trial, 1, &[TeamId(1), TeamId(2), TeamId(1)]),
            Err(PairingError::DuplicateTeam(TeamId(1)))
        );
        assert_eq!(
            draw_groups(1, Phase::Championship, &teams(3), 4),
            Err(PairingError::BadGroupCount {
                teams: 3,
                groups: 4
            })
        );
        assert!(draw_groups(1, Phase::Championship, &teams(3), 0).is_err());
    }

    #[test]
    fn three_hundred_teams_in_fifteen_groups_of_twenty() {
        let all = teams(300);
        assert_eq!(group_count(300, 20), 15);
        assert_eq!(group_count(301, 20), 16);
        assert_eq!(group_count(0, 20), 1);
        let drawn = draw_groups(9, Phase::Championship, &all, 15).expect("draw");
        assert!(drawn.iter().all(|g| g.len() == 20));
        let mut everyone: Vec<TeamId> = drawn.concat();
        everyone.sort_unstable();
        assert_eq!(everyone, all);
        assert_eq!(
            drawn,
            draw_groups(9, Phase::Championship, &all, 15).expect("again")
        );
        assert_ne!(
            drawn,
            draw_groups(10, Phase::Championship, &all, 15).expect("other")
        );
    }

    proptest! {
        #[test]
        fn any_group_plays_a_proper_round_robin(n in 2usize..40, seed: u64, cycles in 1u32..3) {
            let group = teams(n);
            let plan = RoundRobin::new(seed, Phase::Championship, 1, &group).expect("plan");
            let per_cycle = plan.matchdays_per_cycle();
            prop_assert_eq!(per_cycle as usize, if n % 2 == 0 { n - 1 } else { n });
            let mut met: BTreeMap<(TeamId, TeamId), u32> = BTreeMap::new();
            let mut home_games: BTreeMap<TeamId, u32> = BTreeMap::new();
            for day in 1..=per_cycle * cycles {
                let line_up = plan.line_up(day).expect("line-up");
                // Every team exactly once: in one encounter or sitting out.
                let mut seen: Vec<TeamId> =
                    line_up.pairings.iter().flat_map(|p| p.teams()).collect();
                seen.extend(line_up.sits_out);
                seen.sort_unstable();
                prop_assert_eq!(&seen, &group);
                prop_assert_eq!(line_up.sits_out.is_some(), n % 2 == 1);
                for pairing in &line_up.pairings {
                    *met.entry(unordered(pairing)).or_default() += 1;
                    *home_games.entry(pairing.home).or_default() += 1;
                }
            }
            // Every pair exactly once per cycle.
            prop_assert_eq!(met.len(), n * (n - 1) / 2);
            prop_assert!(met.values().all(|&count| count == cycles));
            // Over two cycles every team is at home as often as away.
            if cycles == 2 {
                for team in &group {
                    let home = home_games.get(team).copied().unwrap_or(0);
                    prop_assert_eq!(home, n as u32 - 1);
                }
            }
        }
    }
}
