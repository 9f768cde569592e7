//! Friendly games in memory for the pages' tests and the access matrix:
//! the model's rules ([`Challenge`], [`check_rate`]) over a list, every
//! team with an active version, nobody accepting by itself; an accepted
//! challenge's two games never played.

use std::sync::Mutex;

use spielleiter_contest::{
    Challenge, ChallengeAnswer, ChallengeEntry, ChallengeId, ChallengeRate, ChallengeState,
    ContestSettings, FriendlyGames, RATE_LIMITED, StoreError, StoreFuture, TeamId, Timestamp,
    check_rate,
};

/// The challenges made so far.
#[derive(Debug, Default)]
pub(crate) struct MemoryFriendly {
    challenges: Mutex<Vec<ChallengeEntry>>,
}

impl MemoryFriendly {
    fn with<T: Send + 'static>(
        &self,
        work: impl FnOnce(&mut Vec<ChallengeEntry>) -> Result<T, StoreError>,
    ) -> StoreFuture<'_, T> {
        let result = work(&mut self.challenges.lock().unwrap_or_else(|e| e.into_inner()));
        Box::pin(std::future::ready(result))
    }
}

fn started(all: &[ChallengeEntry], team: TeamId) -> Vec<Timestamp> {
    all.iter()
        .filter(|e| e.challenge.challenger == team)
        .map(|e| e.challenge.created_at)
        .collect()
}

impl FriendlyGames for MemoryFriendly {
    fn challenges(&self, team: TeamId) -> StoreFuture<'_, Vec<ChallengeEntry>> {
        self.with(move |all| {
            Ok(all
                .iter()
                .rev()
                .filter(|e| e.challenge.challenger == team || e.challenge.challenged == team)
                .cloned()
                .collect())
        })
    }

    fn challenge(
        &self,
        from: TeamId,
        to: Option<TeamId>,
        now: Timestamp,
    ) -> StoreFuture<'_, Vec<ChallengeEntry>> {
        self.with(move |all| {
            let to = to.ok_or(StoreError::Refused("the test store challenges one team"))?;
            check_rate(&started(all, from), now, 1, &ContestSettings::default())
                .map_err(|_| StoreError::Refused(RATE_LIMITED))?;
            let id = ChallengeId(i64::try_from(all.len()).unwrap_or(i64::MAX) + 1);
            let challenge = Challenge::new(id, from, to, false, now)
                .map_err(|_| StoreError::Refused("a team cannot challenge itself"))?;
            let entry = ChallengeEntry {
                challenge,
                games: Vec::new(),
            };
            all.push(entry.clone());
            Ok(vec![entry])
        })
    }

    fn answer(
        &self,
        team: TeamId,
        challenge: ChallengeId,
        answer: ChallengeAnswer,
        _now: Timestamp,
    ) -> StoreFuture<'_, ChallengeEntry> {
        self.with(move |all| {
            let entry = all
                .iter_mut()
                .find(|e| e.challenge.id == challenge)
                .ok_or(StoreError::NotFound("challenge"))?;
            let allowed = match answer {
                ChallengeAnswer::Accept | ChallengeAnswer::Decline => {
                    entry.challenge.challenged == team
                }
                ChallengeAnswer::Withdraw => entry.challenge.challenger == team,
                ChallengeAnswer::Played => false,
            };
            if !allowed {
                return Err(StoreError::NotFound("challenge"));
            }
            entry
                .challenge
                .answer(answer)
                .map_err(|_| StoreError::Refused("the challenge cannot be answered so now"))?;
            if entry.challenge.state == ChallengeState::Accepted {
                entry.games = vec![None, None];
            }
            Ok(entry.clone())
        })
    }

    fn rate(&self, team: TeamId, now: Timestamp) -> StoreFuture<'_, ChallengeRate> {
        self.with(move |all| {
            let used = started(all, team)
                .into_iter()
                .filter(|t| now.seconds_since(*t) < 3600)
                .count();
            Ok(ChallengeRate {
                used: u32::try_from(used).unwrap_or(u32::MAX),
                limit: ContestSettings::default().friendly_challenges_per_hour,
            })
        })
    }

    fn friendly_season(&self, team: TeamId, challenge: ChallengeId) -> StoreFuture<'_, String> {
        self.with(move |all| {
            all.iter()
                .find(|e| {
                    e.challenge.id == challenge
                        && (e.challenge.challenger == team || e.challenge.challenged == team)
                        && !e.games.is_empty()
                })
                .map(|e| format!("friendly-{}", e.challenge.id.0))
                .ok_or(StoreError::NotFound("challenge"))
        })
    }
}
