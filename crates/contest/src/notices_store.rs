//! The interface to a team's notices in a store ([`TeamNotices`]): what
//! its members are told — a build finished or failed, a test ended, a
//! challenge received, accepted or played, no active version before a
//! matchday's deadline ([`NoticeKind`]) — newest first, each member's
//! read mark, and their mail: a member may give an address, and each
//! notice told after that is mailed to it once ([`MailJob`], claimed and
//! fenced as a game is, so that two servers never both send it). A store
//! writes each notice once, with the change it tells of (the same
//! transaction), so that a worker that retries writes no second one.

use crate::{MemberId, NoticeId, NoticeKind, StoreFuture, TeamId, Timestamp};

/// The most notices [`TeamNotices::notices`] returns.
pub const MAX_NOTICES: usize = 100;

/// How often a notice's mail to one member is tried before it is given up
/// as failed.
pub const MAIL_ATTEMPTS: u32 = 3;

/// One notice's mail to one member, claimed by a sender.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MailJob {
    /// The notice.
    pub notice: NoticeId,
    /// To whom.
    pub member: MemberId,
    /// The member's address ([`check_mail_address`](crate::check_mail_address)).
    pub address: String,
    /// The notice's team.
    pub team: TeamId,
    /// Its name.
    pub team_name: String,
    /// The notice's sentence.
    pub text: String,
    /// When it was told.
    pub at: Timestamp,
    /// This claim's attempt (1 for the first): what [`TeamNotices::mail_done`]
    /// is fenced by.
    pub attempt: u32,
}

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

    /// The address `member` gets their notices mailed to, if any.
    fn mail_address(&self, member: MemberId) -> StoreFuture<'_, Option<String>>;

    /// Sets (or, `None`, removes) `member`'s address for notices, checked
    /// by [`check_mail_address`](crate::check_mail_address) (refused
    /// otherwise, nothing changed). Only notices told after it is set are
    /// mailed to it.
    fn set_mail_address<'a>(
        &'a self,
        member: MemberId,
        address: Option<&'a str>,
    ) -> StoreFuture<'a, ()>;

    /// Claims up to `max` notices' mails not sent yet (oldest first): each
    /// for `lease_ms` milliseconds of the store's clock, after which
    /// another sender may claim it again, up to [`MAIL_ATTEMPTS`] times.
    /// Only members of the notice's team with an address set before the
    /// notice was told, and enabled, are mailed.
    fn claim_mail(&self, lease_ms: i64, max: usize) -> StoreFuture<'_, Vec<MailJob>>;

    /// Records how `job`'s sending went: sent, or failed with why (tried
    /// again after `retry_ms` while attempts are left, else given up).
    /// Fenced by the job's attempt: a sender whose claim was taken over
    /// changes nothing.
    fn mail_done<'a>(
        &'a self,
        job: &'a MailJob,
        outcome: Result<(), String>,
        retry_ms: i64,
    ) -> StoreFuture<'a, ()>;
}
