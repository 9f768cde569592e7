//! The interface to a contest's friendly games in a store
//! ([`FriendlyGames`]): a team's challenges in and out with their games'
//! results, a new challenge (of one team or of all), an answer, and the
//! rate a team challenges at — what the teams' friendly page reads and
//! writes, and what the season store implements. The rules are the
//! model's ([`Challenge`], [`check_rate`](crate::check_rate)); a store
//! applies them in one transaction per call.

use crate::{Challenge, ChallengeAnswer, ChallengeId, GameResult, StoreFuture, TeamId, Timestamp};

/// Why a challenge is refused: the team used the challenges of the hour.
pub const RATE_LIMITED: &str = "the team has made as many friendly challenges as it may this hour";

/// Why a challenge is refused: a team without an active version.
pub const NO_ACTIVE_VERSION: &str = "both teams need an active version for a friendly encounter";

/// A challenge with its games, once it is accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChallengeEntry {
    /// The challenge.
    pub challenge: Challenge,
    /// Its games' results in order, the challenger home (`None`: not
    /// played yet); empty before it is accepted.
    pub games: Vec<Option<GameResult>>,
}

/// How many challenges a team made in the last hour, of how many.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChallengeRate {
    /// Made in the last hour.
    pub used: u32,
    /// The contest's limit an hour (0: friendly games are off).
    pub limit: u32,
}

/// A contest's friendly games in a store.
pub trait FriendlyGames: Send + Sync + std::fmt::Debug {
    /// The challenges `team` made or received, newest first (at most
    /// 100).
    fn challenges(&self, team: TeamId) -> StoreFuture<'_, Vec<ChallengeEntry>>;

    /// `from` challenges `to`, or every other enabled team with an active
    /// version (`None`); a team that accepts by itself has its encounter
    /// scheduled at once. `Refused` ([`RATE_LIMITED`],
    /// [`NO_ACTIVE_VERSION`], a team itself) with nothing stored.
    fn challenge(
        &self,
        from: TeamId,
        to: Option<TeamId>,
        now: Timestamp,
    ) -> StoreFuture<'_, Vec<ChallengeEntry>>;

    /// `team` answers challenge `challenge`: the challenged team accepts
    /// (its encounter is scheduled with both active versions) or
    /// declines, the challenger withdraws an open one. `NotFound` for a
    /// challenge that is not the team's; `Refused` for an answer the
    /// model refuses now.
    fn answer(
        &self,
        team: TeamId,
        challenge: ChallengeId,
        answer: ChallengeAnswer,
        now: Timestamp,
    ) -> StoreFuture<'_, ChallengeEntry>;

    /// How many challenges `team` made in the hour before `now`.
    fn rate(&self, team: TeamId, now: Timestamp) -> StoreFuture<'_, ChallengeRate>;

    /// The season of challenge `challenge`'s games, if `team` is one of
    /// its two and it was accepted; `NotFound` otherwise.
    fn friendly_season(&self, team: TeamId, challenge: ChallengeId) -> StoreFuture<'_, String>;
}
