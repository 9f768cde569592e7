//! A group's table (decisions.md §31): ranking points, then the game's
//! second criterion — the mean of the game's first score part per played
//! game (points in the Blokus games, ambers in Ostseeschach;
//! [`GameType::points_name`](spielleiter_rules::GameType::points_name)) —
//! then the lot, drawn from the contest's seed once per phase, group and
//! team, so that teams level on everything keep one order. Every row says
//! how far the team moved since the previous matchday. Trial matchdays
//! make no table; the final is ranked by its bracket.

use core::cmp::Ordering;

use serde::{Deserialize, Serialize};

use crate::{
    EncounterKey, EncounterResult, Outcome, Pairing, Phase, Side, TeamId, seed::standings_lot,
};

/// An encounter the standings count: where it was played (phase,
/// matchday, group), who met, and its result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayedEncounter {
    /// Its name: phase, matchday, group and slot.
    pub key: EncounterKey,
    /// The teams, home first.
    pub pairing: Pairing,
    /// The result, home first.
    pub result: EncounterResult,
}

/// One team's row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StandingRow {
    /// Place in the table, from 1 (every place is one team's: the lot
    /// separates the level).
    pub rank: u32,
    /// The team.
    pub team: TeamId,
    /// The place after the previous matchday; `None` on the first.
    pub previous_rank: Option<u32>,
    /// Ranking points.
    pub ranking_points: u32,
    /// Encounters counted.
    pub encounters: u32,
    /// Encounters won.
    pub encounters_won: u32,
    /// Encounters drawn.
    pub encounters_drawn: u32,
    /// Encounters lost.
    pub encounters_lost: u32,
    /// Games counted (played, or lost or won unplayed by a forfeit).
    pub games: u32,
    /// Games won.
    pub games_won: u32,
    /// Games drawn.
    pub games_drawn: u32,
    /// Win points over the games.
    pub win_points: u32,
    /// Games played (the second criterion's divisor).
    pub played: u32,
    /// Game points over the played games (the second criterion's sum).
    pub points: i64,
}

impl StandingRow {
    fn new(team: TeamId) -> StandingRow {
        StandingRow {
            rank: 0,
            team,
            previous_rank: None,
            ranking_points: 0,
            encounters: 0,
            encounters_won: 0,
            encounters_drawn: 0,
            encounters_lost: 0,
            games: 0,
            games_won: 0,
            games_drawn: 0,
            win_points: 0,
            played: 0,
            points: 0,
        }
    }

    /// The second criterion: game points per played game (0 without
    /// games), for showing; the table compares it exactly.
    pub fn mean_points(&self) -> f64 {
        if self.played == 0 {
            0.0
        } else {
            self.points as f64 / f64::from(self.played)
        }
    }

    /// Places gained since the previous matchday (negative: lost); `None`
    /// on the first.
    pub fn movement(&self) -> Option<i64> {
        self.previous_rank
            .map(|previous| i64::from(previous) - i64::from(self.rank))
    }

    fn count(&mut self, side: Side, result: &EncounterResult) {
        let i = side.index();
        self.encounters += 1;
        match result.outcome(side) {
            Outcome::Win => self.encounters_won += 1,
            Outcome::Draw => self.encounters_drawn += 1,
            Outcome::Loss => self.encounters_lost += 1,
        }
        self.ranking_points += result.ranking_points[i];
        self.games += result.games;
        self.games_won += result.wins[i];
        self.games_drawn += result.draws;
        self.win_points += result.win_points[i];
        self.played += result.played;
        self.points = self.points.saturating_add(result.points[i]);
    }

    /// The mean points as a fraction, compared without rounding.
    fn mean_cmp(&self, other: &StandingRow) -> Ordering {
        let fraction = |row: &StandingRow| match row.played {
            0 => (0, 1),
            played => (i128::from(row.points), i128::from(played)),
        };
        let ((a, da), (b, db)) = (fraction(self), fraction(other));
        (a * db).cmp(&(b * da))
    }
}

/// A group's table after a matchday.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Standings {
    /// The phase.
    pub phase: Phase,
    /// The group's number in the phase.
    pub group: u32,
    /// The matchdays counted: 1 to this.
    pub through: u32,
    /// The rows, best first.
    pub rows: Vec<StandingRow>,
}

/// Encounters that make no table.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StandingsError {
    /// Trial matchdays and the final make no table.
    #[error("no table is kept for the {0}")]
    NoTable(Phase),
    /// An encounter names a team that is not in the group.
    #[error("team {0} is not in this group")]
    NotInGroup(TeamId),
    /// A team is listed twice, or meets itself.
    #[error("team {0} is listed twice")]
    DuplicateTeam(TeamId),
}

impl Standings {
    /// The table of group `group` (its number in `phase`) over its `teams`
    /// after matchday `through`, from `encounters`: those of this phase and
    /// group and of matchdays 1 to `through` count, any others (another
    /// group's or phase's, a trial matchday's, a later matchday's) are left
    /// out. `rows` are best
    /// first; each with its place after matchday `through − 1`.
    ///
    /// # Errors
    ///
    /// A phase without a table, a team listed twice, or a counted
    /// encounter with a team outside `teams`.
    pub fn compute(
        contest_seed: u64,
        phase: Phase,
        group: u32,
        teams: &[TeamId],
        encounters: &[PlayedEncounter],
        through: u32,
    ) -> Result<Standings, StandingsError> {
        if !phase.has_standings() {
            return Err(StandingsError::NoTable(phase));
        }
        let mut by_id: Vec<(TeamId, usize)> = teams.iter().copied().zip(0..).collect();
        by_id.sort_unstable();
        if let Some(pair) = by_id.windows(2).find(|pair| pair[0].0 == pair[1].0) {
            return Err(StandingsError::DuplicateTeam(pair[0].0));
        }
        let index_of = |team: TeamId| {
            by_id
                .binary_search_by_key(&team, |&(id, _)| id)
                .map(|k| by_id[k].1)
                .map_err(|_| StandingsError::NotInGroup(team))
        };
        let lots: Vec<u64> = teams
            .iter()
            .map(|&team| standings_lot(contest_seed, phase, group, team))
            .collect();
        // Rows in the group's order while counting.
        let mut now: Vec<StandingRow> = teams.iter().map(|&t| StandingRow::new(t)).collect();
        let mut before = now.clone();
        for encounter in encounters {
            let key = encounter.key;
            if key.phase != phase
                || key.group != group
                || key.matchday == 0
                || key.matchday > through
            {
                continue;
            }
            let [home, away] = encounter.pairing.teams();
            if home == away {
                return Err(StandingsError::DuplicateTeam(home));
            }
            for (side, team) in [(Side::Home, home), (Side::Away, away)] {
                let i = index_of(team)?;
                now[i].count(side, &encounter.result);
                if key.matchday < through {
                    before[i].count(side, &encounter.result);
                }
            }
        }
        // Ranking points, then the mean points, then the lot (then, should
        // two lots ever be equal, the group's order).
        let order = |rows: &[StandingRow]| {
            let mut ranked: Vec<usize> = (0..rows.len()).collect();
            ranked.sort_by(|&a, &b| {
                rows[b]
                    .ranking_points
                    .cmp(&rows[a].ranking_points)
                    .then_with(|| rows[b].mean_cmp(&rows[a]))
                    .then_with(|| lots[b].cmp(&lots[a]))
                    .then_with(|| a.cmp(&b))
            });
            ranked
        };
        if through > 1 {
            for (rank, i) in (1..).zip(order(&before)) {
                now[i].previous_rank = Some(rank);
            }
        }
        let rows = (1..)
            .zip(order(&now))
            .map(|(rank, i)| StandingRow { rank, ..now[i] })
            .collect();
        Ok(Standings {
            phase,
            group,
            through,
            rows,
        })
    }

    /// The teams at places 1 to `k`, best first.
    pub fn top(&self, k: u32) -> impl Iterator<Item = TeamId> + '_ {
        self.rows.iter().take(k as usize).map(|row| row.team)
    }
}

/// The teams that reach the next phase: places 1 to `k` of every table,
/// ordered by place, then by group number (all winners first, then all
/// runners-up, …).
pub fn qualifiers(tables: &[Standings], k: u32) -> Vec<TeamId> {
    let mut ordered: Vec<&Standings> = tables.iter().collect();
    ordered.sort_by_key(|table| table.group);
    (0..k as usize)
        .flat_map(|place| {
            ordered
                .iter()
                .filter_map(move |table| table.rows.get(place).map(|row| row.team))
        })
        .collect()
}
