//! The interface to a team's notices in a store ([`TeamNotices`]): what
//! its members are told — a build finished or failed, a test ended, a
//! challenge received, accepted or played, no active version before a
//! matchday's deadline ([`NoticeKind`]) — newest first. A store writes
//! each notice once, with the change it tells of (the same transaction),
//! so that a worker that retries writes no second one.

use crate::{NoticeKind, StoreFuture, TeamId, Timestamp};

/// The most notices [`TeamNotices::notices`] returns.
pub const MAX_NOTICES: usize = 100;

/// One notice.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Notice {
    /// What it tells of.
    pub kind: NoticeKind,
    /// The sentence for the team.
    pub text: String,
    /// When.
    pub at: Timestamp,
}

/// A team's notices in a store.
pub trait TeamNotices: Send + Sync + std::fmt::Debug {
    /// `team`'s notices, newest first, at most [`MAX_NOTICES`].
    fn notices(&self, team: TeamId) -> StoreFuture<'_, Vec<Notice>>;
}
