//! Friendly games and notices (issue 36): a team challenges one team or all
//! ([`Challenge`]), the other accepts or declines (or accepts by itself,
//! [`Team::auto_accept_friendly`](crate::Team::auto_accept_friendly)); an
//! accepted challenge is played as one encounter of
//! `games_per_friendly` games between both teams' active versions and never
//! counts. A team starts at most `friendly_challenges_per_hour` of them in
//! any hour ([`check_rate`]). [`NoticeKind`] lists what members are told.

use serde::{Deserialize, Serialize};

use crate::{
    ChallengeId, ContestSettings, EncounterResult, Entry, GamePlan, GameResult, Side, TeamId,
    Timestamp, friendly_game_seed,
};

/// Where a challenge stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChallengeState {
    /// Waiting for the challenged team.
    Open,
    /// Accepted (or accepted by itself); waiting for a worker.
    Accepted,
    /// The challenged team said no.
    Declined,
    /// The challenging team took it back before an answer.
    Withdrawn,
    /// Played; its games are the challenge's.
    Played,
}

/// A challenge of one team by another (a challenge of all is one per
/// team).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Challenge {
    /// The store's id; its games' seeds derive from it
    /// ([`friendly_game_seed`]).
    pub id: ChallengeId,
    /// Who challenges (moves first in the first game).
    pub challenger: TeamId,
    /// Who is challenged.
    pub challenged: TeamId,
    /// When.
    pub created_at: Timestamp,
    /// Where it stands.
    pub state: ChallengeState,
}

/// Something a team does to a challenge.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ChallengeAnswer {
    /// The challenged team accepts.
    Accept,
    /// The challenged team declines.
    Decline,
    /// The challenger takes it back.
    Withdraw,
    /// A worker played it.
    Played,
}

/// Why a challenge is refused or cannot change.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ChallengeError {
    /// A team cannot challenge itself.
    #[error("a team cannot challenge itself")]
    Itself,
    /// The rate limit: this many more challenges would exceed it.
    #[error("at most {limit} friendly challenges an hour; {remaining} left now")]
    RateLimited {
        /// The setting.
        limit: u32,
        /// How many more would fit now.
        remaining: u32,
        /// Seconds until as many as asked fit; `None` when they never do
        /// (more than the limit at once).
        retry_after_seconds: Option<i64>,
    },
    /// Friendly games are switched off (a limit of 0).
    #[error("friendly games are switched off in this contest")]
    SwitchedOff,
    /// The answer does not fit the challenge's state.
    #[error("a challenge that is {state:?} cannot be answered so")]
    NotNow {
        /// The challenge's state.
        state: ChallengeState,
    },
}

/// The length of the rate limit's window, in seconds.
pub const RATE_WINDOW_SECONDS: i64 = 3600;

/// Whether a team that started challenges at `started` (any order, at
/// least those of the last hour) may start `new` more at `now`: each
/// challenged team counts one, so a challenge of all counts as many as
/// it reaches.
///
/// # Errors
///
/// [`ChallengeError::SwitchedOff`] with a limit of 0;
/// [`ChallengeError::RateLimited`] when the hour has no room for `new`.
pub fn check_rate(
    started: &[Timestamp],
    now: Timestamp,
    new: u32,
    settings: &ContestSettings,
) -> Result<(), ChallengeError> {
    let limit = settings.friendly_challenges_per_hour;
    if limit == 0 {
        return Err(ChallengeError::SwitchedOff);
    }
    let mut recent: Vec<Timestamp> = started
        .iter()
        .copied()
        .filter(|t| now.seconds_since(*t) < RATE_WINDOW_SECONDS)
        .collect();
    let used = u32::try_from(recent.len()).unwrap_or(u32::MAX);
    if used.saturating_add(new) <= limit {
        return Ok(());
    }
    recent.sort_unstable();
    // Room for `new` comes when all but `limit - new` of the recent ones
    // have left the window.
    let must_leave = (used + new).saturating_sub(limit) as usize;
    let retry_after_seconds = match recent.get(must_leave.saturating_sub(1)) {
        Some(t) if new <= limit => Some(RATE_WINDOW_SECONDS - now.seconds_since(*t)),
        _ => None,
    };
    Err(ChallengeError::RateLimited {
        limit,
        remaining: limit.saturating_sub(used),
        retry_after_seconds,
    })
}

impl Challenge {
    /// A new challenge, accepted at once when the challenged team accepts
    /// by itself.
    ///
    /// # Errors
    ///
    /// [`ChallengeError::Itself`].
    pub fn new(
        id: ChallengeId,
        challenger: TeamId,
        challenged: TeamId,
        auto_accept: bool,
        now: Timestamp,
    ) -> Result<Challenge, ChallengeError> {
        if challenger == challenged {
            return Err(ChallengeError::Itself);
        }
        Ok(Challenge {
            id,
            challenger,
            challenged,
            created_at: now,
            state: if auto_accept {
                ChallengeState::Accepted
            } else {
                ChallengeState::Open
            },
        })
    }

    /// The state after `answer`. Who may answer (the challenged team
    /// accepts or declines, the challenger withdraws) is the access rule's
    /// ([`may`](crate::may)) together with the caller's check of which
    /// side the viewer is on.
    ///
    /// # Errors
    ///
    /// The answer does not fit the state.
    pub fn answer(&mut self, answer: ChallengeAnswer) -> Result<(), ChallengeError> {
        use ChallengeState as S;
        self.state = match (self.state, answer) {
            (S::Open, ChallengeAnswer::Accept) => S::Accepted,
            (S::Open, ChallengeAnswer::Decline) => S::Declined,
            (S::Open, ChallengeAnswer::Withdraw) => S::Withdrawn,
            (S::Accepted, ChallengeAnswer::Played) => S::Played,
            (state, _) => return Err(ChallengeError::NotNow { state }),
        };
        Ok(())
    }

    /// Game `index` (from 0) of the friendly encounter, between `entries`
    /// (the challenger's active version first, the challenged's second,
    /// as they were when it was accepted): the challenger moves first in
    /// the even-numbered games, the seed is the challenge's own.
    pub fn game(&self, index: u32, contest_seed: u64, entries: [Entry; 2]) -> GamePlan {
        let first = Side::first_in(index);
        GamePlan {
            index,
            first,
            seats: [entries[first.index()], entries[first.other().index()]],
            seed: friendly_game_seed(contest_seed, self.id, index),
        }
    }

    /// The friendly encounter's result once all its `games_per_friendly`
    /// games have results (challenger home); `None` before. It has no
    /// ranking points: a friendly never counts.
    pub fn result(
        &self,
        settings: &ContestSettings,
        games: &[Option<GameResult>],
    ) -> Option<EncounterResult> {
        let results: Vec<GameResult> = games.iter().flatten().copied().collect();
        let complete = results.len() == games.len()
            && u32::try_from(results.len()).ok() == Some(settings.games_per_friendly);
        complete.then(|| crate::encounter::friendly_result(&results, settings))
    }
}

/// What a member is told (on their pages, and by mail where an SMTP server
/// is configured).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NoticeKind {
    /// A version of the team was built.
    BuildFinished,
    /// A version's build failed.
    BuildFailed,
    /// A version's test ended (passed or failed).
    TestFinished,
    /// Another team challenged the team.
    ChallengeReceived,
    /// A challenge of the team was accepted.
    ChallengeAccepted,
    /// A friendly encounter of the team was played.
    FriendlyPlayed,
    /// The team has no active version and the next matchday's deadline is
    /// near.
    NoActiveVersion,
    /// A matchday the team played in was published.
    MatchdayPublished,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(limit: u32) -> ContestSettings {
        ContestSettings {
            friendly_challenges_per_hour: limit,
            ..ContestSettings::default()
        }
    }

    #[test]
    fn ten_an_hour_in_a_sliding_window() {
        let limit = settings(10);
        let now = Timestamp(10_000);
        // Nine in the last hour, one older.
        let mut started: Vec<Timestamp> = (0..9).map(|i| Timestamp(7_000 + i * 100)).collect();
        started.push(Timestamp(now.0 - RATE_WINDOW_SECONDS));
        assert_eq!(check_rate(&started, now, 1, &limit), Ok(()));
        started.push(now);
        // Ten in the window: the next frees when the one of 7 000 leaves,
        // at 10 600.
        assert_eq!(
            check_rate(&started, now, 1, &limit),
            Err(ChallengeError::RateLimited {
                limit: 10,
                remaining: 0,
                retry_after_seconds: Some(600)
            })
        );
        // Three more need the three oldest gone: 7 200 leaves at 10 800.
        assert_eq!(
            check_rate(&started, now, 3, &limit),
            Err(ChallengeError::RateLimited {
                limit: 10,
                remaining: 0,
                retry_after_seconds: Some(800)
            })
        );
        assert_eq!(check_rate(&started, Timestamp(10_800), 3, &limit), Ok(()));
    }

    #[test]
    fn a_challenge_of_all_counts_every_team_it_reaches() {
        let limit = settings(10);
        let error = check_rate(&[], Timestamp(0), 19, &limit).expect_err("19 > 10");
        assert_eq!(
            error,
            ChallengeError::RateLimited {
                limit: 10,
                remaining: 10,
                retry_after_seconds: None
            }
        );
        assert_eq!(check_rate(&[], Timestamp(0), 10, &limit), Ok(()));
        assert_eq!(
            check_rate(&[], Timestamp(0), 1, &settings(0)),
            Err(ChallengeError::SwitchedOff)
        );
    }

    #[test]
    fn a_friendly_alternates_the_first_move_and_never_gives_ranking_points() {
        let settings = ContestSettings::default();
        let challenge =
            Challenge::new(ChallengeId(4), TeamId(1), TeamId(2), true, Timestamp(0)).expect("ok");
        let entries = [
            Entry::Version(crate::VersionId(1)),
            Entry::Version(crate::VersionId(2)),
        ];
        let plans: Vec<GamePlan> = (0..6).map(|i| challenge.game(i, 9, entries)).collect();
        for plan in &plans {
            let challenger_first = plan.index % 2 == 0;
            assert_eq!(plan.seats[0] == entries[0], challenger_first);
            assert_eq!(plan.seed, friendly_game_seed(9, ChallengeId(4), plan.index));
        }
        let won = GameResult {
            winner: Some(Side::Away),
            points: [3, 5],
        };
        let mut games = vec![Some(won); 6];
        games[5] = None;
        assert_eq!(challenge.result(&settings, &games), None);
        games[5] = Some(won);
        let result = challenge.result(&settings, &games).expect("complete");
        assert_eq!(result.outcome, crate::EncounterOutcome::Won(Side::Away));
        assert_eq!((result.wins, result.win_points), ([0, 6], [0, 12]));
        assert_eq!(result.ranking_points, [0, 0]);
        assert_eq!(challenge.result(&settings, &[Some(won); 7]), None);
    }

    #[test]
    fn a_challenge_is_answered_once() {
        let mut challenge =
            Challenge::new(ChallengeId(1), TeamId(1), TeamId(2), false, Timestamp(0)).expect("ok");
        assert_eq!(challenge.state, ChallengeState::Open);
        assert_eq!(challenge.answer(ChallengeAnswer::Accept), Ok(()));
        assert_eq!(
            challenge.answer(ChallengeAnswer::Decline),
            Err(ChallengeError::NotNow {
                state: ChallengeState::Accepted
            })
        );
        assert_eq!(challenge.answer(ChallengeAnswer::Played), Ok(()));
        assert_eq!(challenge.state, ChallengeState::Played);
        let auto =
            Challenge::new(ChallengeId(2), TeamId(1), TeamId(3), true, Timestamp(0)).expect("ok");
        assert_eq!(auto.state, ChallengeState::Accepted);
        assert_eq!(
            Challenge::new(ChallengeId(3), TeamId(1), TeamId(1), false, Timestamp(0)),
            Err(ChallengeError::Itself)
        );
    }
}
