//! The interface to a team's notices in a store ([`TeamNotices`]): what
//! its members are told — a build finished or failed, a test ended, a
//! challenge received, accepted or played, no active version before a
//! matchday's deadline ([`NoticeKind`]) — newest first, and each member's
//! read mark. A store writes each notice once, with the change it tells of
//! (the same transaction), so that a worker that retries writes no second
//! one.

use crate::{MemberId, NoticeId, NoticeKind, StoreFuture, TeamId, Timestamp};

/// The most notices [`TeamNotices::notices`] returns.
pub const MAX_NOTICES: usize = 100;

/// One notice.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Notice {
    /// The store's id: later notices have greater ids.
    pub id: NoticeId,
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

    /// The greatest notice `member` has marked as read among `team`'s
    /// (`None`: none yet); `Some` only for a member of `team`, `None` for
    /// anybody else (an organiser reads a team's notices without a mark).
    fn last_read(&self, team: TeamId, member: MemberId) -> StoreFuture<'_, Option<NoticeId>>;

    /// Marks `team`'s notices up to `up_to` as read by `member`, a member
    /// of `team`: a mark never moves back, and never past the team's
    /// newest notice (a notice that came after the page was shown stays
    /// unread). Refused (`StoreError::Refused`) for anybody else.
    fn mark_read(&self, team: TeamId, member: MemberId, up_to: NoticeId) -> StoreFuture<'_, ()>;
}
