//! A matchday (Spieltag): the groups of a phase play one round of their
//! plans, every team in one encounter or sitting out; at the deadline each
//! team's entry is frozen ([`Entry::freeze`]) and the encounters are
//! scheduled ([`schedule_matchday`]). A matchday scheduled again (after a
//! crash, in a fresh store) gives the same encounters and the same games.

use serde::{Deserialize, Serialize};

use crate::{
    ContestSettings, Encounter, EncounterKey, EncounterKind, Entry, MatchdayId, PairingError,
    Phase, RoundRobin, TeamId, Timestamp, VersionId,
};

/// A matchday of a round-robin phase, or a round of the final.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Matchday {
    /// The store's id.
    pub id: MatchdayId,
    /// The phase.
    pub phase: Phase,
    /// Its number in the phase, from 1 (a knockout round's
    /// [`KnockoutRound::number`](crate::KnockoutRound::number)).
    pub number: u32,
    /// When the teams' active versions are frozen.
    pub deadline: Timestamp,
    /// Whether its line-up and results are public
    /// ([`Resource::Encounter`](crate::Resource::Encounter)).
    pub published: bool,
}

/// A group as a phase holds it: its number in the phase and its teams in
/// the group's order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Group {
    /// The store's id.
    pub id: crate::GroupId,
    /// Its phase.
    pub phase: Phase,
    /// Its number in the phase, from 1.
    pub number: u32,
    /// Its name for people (`A`, `North`).
    pub name: String,
    /// Its teams, in the group's order (the order its plan is made from).
    pub teams: Vec<TeamId>,
}

/// What a team brings to a deadline.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AtDeadline {
    /// Its active version, if any.
    pub active: Option<VersionId>,
    /// Whether the team is enabled.
    pub enabled: bool,
}

/// A matchday's encounters in every group, frozen.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchdaySchedule {
    /// The encounters, group by group, in slot order.
    pub encounters: Vec<Encounter>,
    /// The teams that sit out, one per group with an odd count.
    pub sitting_out: Vec<TeamId>,
}

/// Schedules matchday `number` of `phase` at its deadline: each group
/// (its number and teams in order) plays its plan's round, and each team's
/// entry is frozen from `at_deadline`.
///
/// # Errors
///
/// A group the plan refuses (fewer than 2 teams, a team twice), or
/// matchday 0.
pub fn schedule_matchday<'a>(
    contest_seed: u64,
    settings: &ContestSettings,
    phase: Phase,
    number: u32,
    groups: impl IntoIterator<Item = (u32, &'a [TeamId])>,
    at_deadline: impl Fn(TeamId) -> AtDeadline,
) -> Result<MatchdaySchedule, PairingError> {
    let freeze = |team| {
        let state = at_deadline(team);
        Entry::freeze(state.active, state.enabled, settings.stand_in)
    };
    let mut schedule = MatchdaySchedule {
        encounters: Vec::new(),
        sitting_out: Vec::new(),
    };
    for (group, teams) in groups {
        let line_up = RoundRobin::new(contest_seed, phase, group, teams)?.line_up(number)?;
        schedule.sitting_out.extend(line_up.sits_out);
        for (slot, pairing) in (1..).zip(line_up.pairings) {
            schedule.encounters.push(Encounter {
                key: EncounterKey {
                    phase,
                    matchday: number,
                    group,
                    slot,
                },
                pairing,
                entries: [freeze(pairing.home), freeze(pairing.away)],
                kind: EncounterKind::RoundRobin,
            });
        }
    }
    Ok(schedule)
}
