//! The identifiers of a contest's records and the instant type: one
//! newtype per kind of record, so that a team's id is never passed where a
//! version's is meant.
//!
//! Ids are assigned by the store (its row numbers) and carried as `i64`,
//! the integer both stores hold natively (SQLite's `INTEGER`, PostgreSQL's
//! `BIGINT`). Nothing that must be reproducible (a game's seed, a pairing)
//! derives from a store-assigned id except where the record is the only
//! name of the thing (a friendly challenge, a version's test, a team's lot).

use core::fmt;

use serde::{Deserialize, Serialize};

macro_rules! ids {
    ($($(#[doc = $doc:literal])* $name:ident,)*) => {
        $(
            $(#[doc = $doc])*
            #[derive(
                Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
            )]
            #[serde(transparent)]
            pub struct $name(pub i64);

            impl fmt::Display for $name {
                fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                    self.0.fmt(f)
                }
            }
        )*
    };
}

ids! {
    /// A contest: one game, its teams, phases and settings.
    ContestId,
    /// A team of a contest.
    TeamId,
    /// A person in a contest: a member of a team, or an organiser.
    MemberId,
    /// One uploaded program of a team (the team numbers its versions
    /// 1, 2, … as well, [`VersionNumber`](crate::VersionNumber)).
    VersionId,
    /// A group of a phase: the teams that play each other.
    GroupId,
    /// A matchday (or a knockout round) of a phase.
    MatchdayId,
    /// An encounter: two teams' games of one matchday.
    EncounterId,
    /// A friendly challenge from one team to another.
    ChallengeId,
    /// An invite or password-reset link (its secret token is the web
    /// side's; the store keeps the token's digest).
    InviteId,
    /// A signed-in session (its secret id is the cookie's; the store keeps
    /// the id's digest): what a member's list of sessions names.
    SessionId,
    /// A notice to a team; a later notice has a greater id, so a member's
    /// read mark is the greatest id they have seen.
    NoticeId,
}

/// An instant: whole seconds since 1970-01-01 00:00 UTC. Deadlines,
/// expiries and the rate limit compare these; the clock that reads them
/// belongs to the caller.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Timestamp(pub i64);

impl Timestamp {
    /// `seconds` later (earlier when negative), saturating at the ends of
    /// the range.
    pub const fn plus_seconds(self, seconds: i64) -> Timestamp {
        Timestamp(self.0.saturating_add(seconds))
    }

    /// The seconds from `earlier` to `self` (negative when `earlier` is
    /// later), saturating.
    pub const fn seconds_since(self, earlier: Timestamp) -> i64 {
        self.0.saturating_sub(earlier.0)
    }
}

impl fmt::Display for Timestamp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} s", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_serialise_as_bare_numbers() {
        assert_eq!(serde_json::to_string(&TeamId(7)).ok().as_deref(), Some("7"));
        assert_eq!(
            serde_json::from_str::<VersionId>("12").ok(),
            Some(VersionId(12))
        );
        assert_eq!(TeamId(3).to_string(), "3");
    }

    #[test]
    fn timestamps_saturate() {
        assert_eq!(Timestamp(10).plus_seconds(5), Timestamp(15));
        assert_eq!(Timestamp(i64::MAX).plus_seconds(1), Timestamp(i64::MAX));
        assert_eq!(Timestamp(10).seconds_since(Timestamp(4)), 6);
        assert_eq!(Timestamp(i64::MIN).seconds_since(Timestamp(1)), i64::MIN);
    }
}
