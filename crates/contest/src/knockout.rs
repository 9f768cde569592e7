//! The final (decisions.md §32): a [`Bracket`] of 8 (or 4) seeded by the
//! previous phase's places — quarter-finals 1–8, 4–5, 2–7, 3–6, so that
//! first and second can meet only in the final — then semi-finals, the
//! match for third place and the final. Each encounter is a knockout one
//! ([`EncounterKind::Knockout`]): it always has a winner, and the better
//! seed is home.

use serde::{Deserialize, Serialize};

use crate::{
    AtDeadline, BracketSize, ContestSettings, Encounter, EncounterKey, EncounterKind, Entry,
    KnockoutRound, Pairing, Phase, TeamId,
};

/// The winner of one knockout encounter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct KnockoutWinner {
    /// The round.
    pub round: KnockoutRound,
    /// The encounter's slot in the round, from 1.
    pub slot: u32,
    /// Who won it.
    pub winner: TeamId,
}

/// The final's bracket: its seeds and the winners so far.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bracket {
    /// The teams by their place in the previous phase, best first: 4 or 8.
    pub seeds: Vec<TeamId>,
    /// The encounters decided so far.
    pub decided: Vec<KnockoutWinner>,
}

/// Why a bracket cannot be made or asked so.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum KnockoutError {
    /// Fewer ranked teams than the bracket has places.
    #[error("a bracket of {needed} needs {needed} ranked teams; there are {given}")]
    TooFewTeams {
        /// The bracket's size.
        needed: usize,
        /// Teams given.
        given: usize,
    },
    /// A team is ranked twice.
    #[error("team {0} is ranked twice")]
    DuplicateTeam(TeamId),
    /// A bracket of 4 has no quarter-finals.
    #[error("this bracket has no {0}")]
    NoSuchRound(KnockoutRound),
    /// The round's teams are not known until an earlier round is decided.
    #[error("the {round} waits for the {waits_for}")]
    NotReady {
        /// The round asked for.
        round: KnockoutRound,
        /// The round not yet decided.
        waits_for: KnockoutRound,
    },
    /// No such encounter in the round.
    #[error("the {round} has no encounter {slot}")]
    NoSuchSlot {
        /// The round.
        round: KnockoutRound,
        /// The slot asked for.
        slot: u32,
    },
    /// The winner is not one of the encounter's two teams.
    #[error("team {winner} did not play encounter {slot} of the {round}")]
    NotAPlayer {
        /// The round.
        round: KnockoutRound,
        /// The slot.
        slot: u32,
        /// The team given as winner.
        winner: TeamId,
    },
    /// The encounter has a winner already.
    #[error("encounter {slot} of the {round} is decided already")]
    AlreadyDecided {
        /// The round.
        round: KnockoutRound,
        /// The slot.
        slot: u32,
    },
}

impl Bracket {
    /// The bracket of `size` from `ranked` (the previous phase's places,
    /// best first; teams beyond the bracket's size are left out).
    ///
    /// # Errors
    ///
    /// Too few teams, or a team twice.
    pub fn new(ranked: &[TeamId], size: BracketSize) -> Result<Bracket, KnockoutError> {
        let needed = size.teams();
        let Some(seeds) = ranked.get(..needed) else {
            return Err(KnockoutError::TooFewTeams {
                needed,
                given: ranked.len(),
            });
        };
        let mut sorted = seeds.to_vec();
        sorted.sort_unstable();
        if let Some(pair) = sorted.windows(2).find(|pair| pair[0] == pair[1]) {
            return Err(KnockoutError::DuplicateTeam(pair[0]));
        }
        Ok(Bracket {
            seeds: seeds.to_vec(),
            decided: Vec::new(),
        })
    }

    /// The rounds, in the order they are played.
    pub fn rounds(&self) -> &'static [KnockoutRound] {
        if self.seeds.len() == 8 {
            &KnockoutRound::ALL
        } else {
            &[
                KnockoutRound::SemiFinal,
                KnockoutRound::ThirdPlace,
                KnockoutRound::Final,
            ]
        }
    }

    /// A team's seed (0 = best).
    fn seed_of(&self, team: TeamId) -> usize {
        self.seeds
            .iter()
            .position(|&t| t == team)
            .unwrap_or(usize::MAX)
    }

    /// The better seed home.
    fn pairing(&self, a: TeamId, b: TeamId) -> Pairing {
        if self.seed_of(a) <= self.seed_of(b) {
            Pairing { home: a, away: b }
        } else {
            Pairing { home: b, away: a }
        }
    }

    fn winner(&self, round: KnockoutRound, slot: u32) -> Option<TeamId> {
        self.decided
            .iter()
            .find(|w| w.round == round && w.slot == slot)
            .map(|w| w.winner)
    }

    /// The winner and loser of an encounter of an earlier round.
    fn decided_pair(
        &self,
        asked: KnockoutRound,
        round: KnockoutRound,
        slot: u32,
    ) -> Result<(TeamId, TeamId), KnockoutError> {
        let not_ready = KnockoutError::NotReady {
            round: asked,
            waits_for: round,
        };
        let pairing = self
            .pairings(round)?
            .get(slot as usize - 1)
            .copied()
            .ok_or(not_ready.clone())?;
        let winner = self.winner(round, slot).ok_or(not_ready)?;
        let loser = if winner == pairing.home {
            pairing.away
        } else {
            pairing.home
        };
        Ok((winner, loser))
    }

    /// The encounters of `round` in slot order, once the rounds before it
    /// that decide its teams are decided.
    ///
    /// # Errors
    ///
    /// The bracket has no such round, or it waits for an earlier round.
    pub fn pairings(&self, round: KnockoutRound) -> Result<Vec<Pairing>, KnockoutError> {
        let s = &self.seeds;
        match (round, s.len()) {
            (KnockoutRound::QuarterFinal, 8) => Ok([(0, 7), (3, 4), (1, 6), (2, 5)]
                .iter()
                .map(|&(a, b)| self.pairing(s[a], s[b]))
                .collect()),
            (KnockoutRound::QuarterFinal, _) => Err(KnockoutError::NoSuchRound(round)),
            (KnockoutRound::SemiFinal, 8) => {
                let quarter = |slot| {
                    self.decided_pair(round, KnockoutRound::QuarterFinal, slot)
                        .map(|(winner, _)| winner)
                };
                Ok(vec![
                    self.pairing(quarter(1)?, quarter(2)?),
                    self.pairing(quarter(3)?, quarter(4)?),
                ])
            }
            (KnockoutRound::SemiFinal, _) => {
                Ok(vec![self.pairing(s[0], s[3]), self.pairing(s[1], s[2])])
            }
            (KnockoutRound::ThirdPlace | KnockoutRound::Final, _) => {
                let (w1, l1) = self.decided_pair(round, KnockoutRound::SemiFinal, 1)?;
                let (w2, l2) = self.decided_pair(round, KnockoutRound::SemiFinal, 2)?;
                Ok(vec![if round == KnockoutRound::Final {
                    self.pairing(w1, w2)
                } else {
                    self.pairing(l1, l2)
                }])
            }
        }
    }

    /// Records `winner` of encounter `slot` of `round`.
    ///
    /// # Errors
    ///
    /// The round is not ready, the slot does not exist, the winner did not
    /// play it, or it was decided before.
    pub fn record(
        &mut self,
        round: KnockoutRound,
        slot: u32,
        winner: TeamId,
    ) -> Result<(), KnockoutError> {
        let pairings = self.pairings(round)?;
        let pairing = slot
            .checked_sub(1)
            .and_then(|i| pairings.get(i as usize))
            .ok_or(KnockoutError::NoSuchSlot { round, slot })?;
        if !pairing.has(winner) {
            return Err(KnockoutError::NotAPlayer {
                round,
                slot,
                winner,
            });
        }
        if self.winner(round, slot).is_some() {
            return Err(KnockoutError::AlreadyDecided { round, slot });
        }
        self.decided.push(KnockoutWinner {
            round,
            slot,
            winner,
        });
        Ok(())
    }

    /// The knockout encounters of `round`, frozen at its deadline.
    ///
    /// # Errors
    ///
    /// As [`Bracket::pairings`].
    pub fn schedule_round(
        &self,
        round: KnockoutRound,
        settings: &ContestSettings,
        at_deadline: impl Fn(TeamId) -> AtDeadline,
    ) -> Result<Vec<Encounter>, KnockoutError> {
        let freeze = |team| {
            let state = at_deadline(team);
            Entry::freeze(state.active, state.enabled, settings.stand_in)
        };
        Ok((1..)
            .zip(self.pairings(round)?)
            .map(|(slot, pairing)| Encounter {
                key: EncounterKey {
                    phase: Phase::Final,
                    matchday: round.number(),
                    group: 1,
                    slot,
                },
                pairing,
                entries: [freeze(pairing.home), freeze(pairing.away)],
                kind: EncounterKind::Knockout,
            })
            .collect())
    }

    /// First to fourth place, once the final and the match for third place
    /// are decided.
    pub fn placings(&self) -> Option<[TeamId; 4]> {
        let final_pairing = *self.pairings(KnockoutRound::Final).ok()?.first()?;
        let third_pairing = *self.pairings(KnockoutRound::ThirdPlace).ok()?.first()?;
        let other = |p: Pairing, w: TeamId| if p.home == w { p.away } else { p.home };
        let champion = self.winner(KnockoutRound::Final, 1)?;
        let third = self.winner(KnockoutRound::ThirdPlace, 1)?;
        Some([
            champion,
            other(final_pairing, champion),
            third,
            other(third_pairing, third),
        ])
    }
}
