//! The interface to a contest's stored accounts ([`ContestAccounts`]):
//! teams, members and organisers, their password hashes, invite links and
//! sessions — what the web side's pages read and write, and what a store
//! (the season store's SQLite and PostgreSQL tables) implements.
//!
//! # Why here, and why so
//!
//! The web crate may not depend on the season store (which sits above it)
//! nor on a database driver, and the binary should not hold an adapter of
//! substance between the two. The records this interface moves are this
//! crate's own ([`Team`], [`Account`], [`Invite`], [`Session`]), and both
//! the web crate and the season store already build on it; so the
//! interface lives beside them. It stays pure: it only *declares* boxed
//! futures (as the archive's `GameArchive` does) and needs no runtime, no
//! I/O and no clock — every method that depends on the time is handed
//! `now` by its caller.
//!
//! # What a store promises
//!
//! - **Each method is one transaction**: it happens whole or not at all,
//!   and a refused call changes nothing. A method that checks and then
//!   writes ([`ContestAccounts::join`], [`ContestAccounts::reset_password`])
//!   does both in the same transaction, so that a one-time link opened
//!   twice at once makes one member (an `UPDATE … WHERE used_at IS NULL`
//!   that must touch one row, or a unique constraint).
//! - **Unique**: a team's name and a person's [`login_key`] within the
//!   contest ([`StoreError::Taken`]); an invite's and a session's
//!   [`TokenDigest`].
//! - **Secrets only as digests**: invite tokens and session ids are kept as
//!   the SHA-256 digests the web side computes, passwords as the Argon2id
//!   hashes it computes; the store never sees a secret.
//! - **Sessions end for good**: a session past its idle or absolute expiry
//!   ([`Session::state`]) is deleted when it is next looked up; disabling or
//!   removing an account, disabling its team and setting its password end
//!   all of its sessions in the same transaction.
//! - **Reading costs no write**: a session's lookup records its use only
//!   when it moved by [`SESSION_USE_STEP_SECONDS`] ([`Session::records_use_at`]).
//! - **Bounded**: an account has at most [`MAX_SESSIONS_PER_ACCOUNT`] live
//!   sessions (opening one more ends the one signed in first, and its
//!   expired ones go); a team at most [`MAX_OPEN_LINKS_PER_TEAM`] open
//!   teacher's and student's links (one more is refused); a member at most
//!   one open password-reset link (a new one withdraws the old one, and a
//!   password set any way withdraws them all).
//! - **Nobody disabled gets in**: a link works only while its team, the
//!   member it resets, and the account that made it are enabled (a link
//!   made by a removed account works no more), so that a disabled teacher
//!   cannot come back by a link they kept.
//!
//! The cases every store passes are in `conformance` (feature
//! `test-support`), run against the in-memory store of the tests
//! (`MemoryAccounts`, the same feature) and, in the season store, against
//! SQLite and PostgreSQL.

use std::{fmt, future::Future, pin::Pin};

#[cfg(doc)]
use crate::accounts::{
    MAX_OPEN_LINKS_PER_TEAM, MAX_SESSIONS_PER_ACCOUNT, SESSION_USE_STEP_SECONDS,
};
use crate::{
    Account, Contest, GroupId, Invite, InviteError, InviteId, MemberId, Session, SessionId, Team,
    TeamId, Timestamp, TokenDigest, accounts::login_key,
};

#[cfg(feature = "test-support")]
pub mod conformance;
#[cfg(feature = "test-support")]
mod memory;
#[cfg(feature = "test-support")]
pub use memory::MemoryAccounts;

/// Why [`ContestAccounts::add_invite`] refuses one more open link of a
/// team ([`StoreError::Refused`]); the number is [`MAX_OPEN_LINKS_PER_TEAM`].
pub const TOO_MANY_LINKS: &str = "this team has as many open invite links as allowed (20); withdraw one, or wait until one is used or expires";

/// A future a [`ContestAccounts`] store returns.
pub type StoreFuture<'a, T> = Pin<Box<dyn Future<Output = Result<T, StoreError>> + Send + 'a>>;

/// Why a store refused or failed. The messages are one line for a person:
/// no password, no path, no secret.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StoreError {
    /// No such record (team, account, invite, session) in the contest.
    #[error("no such {0}")]
    NotFound(&'static str),
    /// The name is another team's or person's already (names are compared
    /// by [`login_key`]).
    #[error("the name {0:?} is taken")]
    Taken(String),
    /// The invite link does not work (expired, used, withdrawn, disabled).
    #[error(transparent)]
    Invite(#[from] InviteError),
    /// The change is not allowed as asked (e.g. an invite of one team for a
    /// member of another).
    #[error("{0}")]
    Refused(&'static str),
    /// The store failed (a database, a disk).
    #[error("{store}: {cause}")]
    Backend {
        /// The store, for people (no password).
        store: String,
        /// What failed.
        cause: String,
    },
}

/// A new account: its display name (its [`login_key`] is derived by the
/// store) and its password's Argon2id hash in the PHC string format.
#[derive(Clone, PartialEq, Eq)]
pub struct NewAccount {
    /// The name shown and signed in by ([`check_display_name`](crate::check_display_name)).
    pub display_name: String,
    /// The password's hash (`$argon2id$v=19$…`).
    pub password_hash: String,
}

impl fmt::Debug for NewAccount {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("NewAccount")
            .field("display_name", &self.display_name)
            .finish_non_exhaustive()
    }
}

impl NewAccount {
    /// The key the account signs in by.
    pub fn login_key(&self) -> String {
        login_key(&self.display_name)
    }
}

/// An account with its password's hash, as a login checks it.
#[derive(Clone, PartialEq, Eq)]
pub struct Credentials {
    /// The account.
    pub account: Account,
    /// Its password's hash.
    pub password_hash: String,
}

impl fmt::Debug for Credentials {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Credentials")
            .field("account", &self.account)
            .finish_non_exhaustive()
    }
}

/// A stored invite link.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StoredInvite {
    /// The store's id (what a page names when withdrawing it).
    pub id: InviteId,
    /// The link.
    pub invite: Invite,
}

/// What a session records besides its times, for its member's list: where
/// it was signed in from. Both bounded by the web side.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SessionOrigin {
    /// The browser's `User-Agent`, at most [`MAX_USER_AGENT`] characters.
    pub user_agent: String,
    /// The address it signed in from.
    pub address: String,
}

/// The most characters of a `User-Agent` a session keeps.
pub const MAX_USER_AGENT: usize = 200;

/// A stored session.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredSession {
    /// The store's id (what the member's list names when ending it).
    pub id: SessionId,
    /// Whose, and its times.
    pub session: Session,
    /// Where it was signed in from.
    pub origin: SessionOrigin,
}

/// A live session with its account, as a request is made by.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SignedIn {
    /// The session (its last use is the lookup's `now`).
    pub session: StoredSession,
    /// Its account.
    pub account: Account,
    /// Whether the account's team is enabled (an organiser's: `true`).
    pub team_enabled: bool,
}

/// A contest's stored accounts: one contest per store object (the web side
/// serves one contest). Every method is one transaction; see the module's
/// documentation for what a store promises.
pub trait ContestAccounts: Send + Sync + fmt::Debug {
    /// Names the store for people (no password).
    fn describe(&self) -> String;

    /// The contest: its name, game, seed and settings.
    fn contest(&self) -> StoreFuture<'_, Contest>;

    /// Adds a team, enabled, with friendly challenges asked about.
    ///
    /// [`StoreError::Taken`] if another team has the name (by
    /// [`login_key`]).
    fn add_team<'a>(&'a self, name: &'a str, group: Option<GroupId>) -> StoreFuture<'a, Team>;

    /// Every team, by id.
    fn teams(&self) -> StoreFuture<'_, Vec<Team>>;

    /// One team.
    fn team(&self, team: TeamId) -> StoreFuture<'_, Team>;

    /// Enables or disables a team; disabling ends every session of its
    /// members.
    fn set_team_enabled(&self, team: TeamId, enabled: bool) -> StoreFuture<'_, ()>;

    /// Whether friendly challenges to the team are accepted without asking.
    fn set_auto_accept(&self, team: TeamId, auto_accept: bool) -> StoreFuture<'_, ()>;

    /// A team's members, by id.
    fn members(&self, team: TeamId) -> StoreFuture<'_, Vec<Account>>;

    /// One account (a member or an organiser).
    fn account(&self, member: MemberId) -> StoreFuture<'_, Account>;

    /// Adds an organiser's account (the command line does, in phase 2).
    ///
    /// [`StoreError::Taken`] if the name is a person's already.
    fn add_organiser<'a>(&'a self, account: &'a NewAccount) -> StoreFuture<'a, Account>;

    /// The account that signs in by `login_key` and its password's hash,
    /// if there is one (disabled ones too: the caller says so only to whom
    /// gave the right password).
    fn credentials<'a>(&'a self, login_key: &'a str) -> StoreFuture<'a, Option<Credentials>>;

    /// Enables or disables an account; disabling ends its sessions.
    fn set_account_enabled(&self, member: MemberId, enabled: bool) -> StoreFuture<'_, ()>;

    /// Removes a member of `team` (not an organiser): the account, its
    /// sessions and the password-reset links for it go; the links it made
    /// stay until they expire (they name who made them).
    ///
    /// [`StoreError::NotFound`] if `member` is not of `team`.
    fn remove_member(&self, team: TeamId, member: MemberId) -> StoreFuture<'_, ()>;

    /// Stores a new invite link under its token's digest. A password reset
    /// must name a member of the invite's team, and withdraws the member's
    /// other open reset links. [`StoreError::Refused`] for a teacher's or
    /// student's link when the team has [`MAX_OPEN_LINKS_PER_TEAM`] open
    /// ones at the invite's `created_at`.
    fn add_invite<'a>(
        &'a self,
        token: &'a TokenDigest,
        invite: &'a Invite,
    ) -> StoreFuture<'a, StoredInvite>;

    /// The invite link of a token, whatever its state (the page tells why
    /// it does not work), if there is one.
    fn invite<'a>(&'a self, token: &'a TokenDigest) -> StoreFuture<'a, Option<StoredInvite>>;

    /// A team's invite links, newest first (used and expired ones too).
    fn invites(&self, team: TeamId) -> StoreFuture<'_, Vec<StoredInvite>>;

    /// Withdraws a team's unused link.
    ///
    /// [`StoreError::NotFound`] if it is not the team's.
    fn withdraw_invite(&self, team: TeamId, invite: InviteId) -> StoreFuture<'_, ()>;

    /// Uses a teacher's or student's invite link at `now`: checks it
    /// ([`Invite::check`], the team and the link's maker enabled), marks it used and makes the
    /// member it grants — one transaction, so the link makes one member
    /// however often it is opened at once.
    ///
    /// [`StoreError::NotFound`] for an unknown token,
    /// [`StoreError::Invite`] if the link does not work,
    /// [`StoreError::Refused`] for a password-reset link,
    /// [`StoreError::Taken`] if the name is a person's already; then the
    /// link stays unused.
    fn join<'a>(
        &'a self,
        token: &'a TokenDigest,
        account: &'a NewAccount,
        now: Timestamp,
    ) -> StoreFuture<'a, Account>;

    /// Uses a password-reset link at `now`: checks it (the member enabled
    /// too), marks it used, sets the member's password hash and ends all of
    /// the member's sessions and withdraws their other reset links — one
    /// transaction. [`StoreError::Refused`] for a link that is no password
    /// reset.
    fn reset_password<'a>(
        &'a self,
        token: &'a TokenDigest,
        password_hash: &'a str,
        now: Timestamp,
    ) -> StoreFuture<'a, Account>;

    /// Sets an account's password hash, ends all of its sessions and
    /// withdraws its open password-reset links.
    fn set_password<'a>(&'a self, member: MemberId, password_hash: &'a str) -> StoreFuture<'a, ()>;

    /// Replaces an account's password hash `old` by `new` — the same
    /// password hashed anew after a login, when the configured Argon2
    /// parameters changed — and ends no session: `Ok(true)` if the stored
    /// hash was `old`, `Ok(false)` and nothing changed if it is another by
    /// now (the password was set meanwhile, which must win).
    fn rehash_password<'a>(
        &'a self,
        member: MemberId,
        old: &'a str,
        new: &'a str,
    ) -> StoreFuture<'a, bool>;

    /// Opens a session for an enabled account (of an enabled team) under its
    /// id's digest; the account's expired sessions go, and if it has
    /// [`MAX_SESSIONS_PER_ACCOUNT`] live ones, the one signed in first ends.
    fn open_session<'a>(
        &'a self,
        token: &'a TokenDigest,
        member: MemberId,
        origin: &'a SessionOrigin,
        now: Timestamp,
    ) -> StoreFuture<'a, StoredSession>;

    /// The live session of a cookie's digest, with its account, recording
    /// `now` as its last use if that moved by [`SESSION_USE_STEP_SECONDS`]
    /// (otherwise it writes nothing); `None` if there is none, or it expired
    /// (then it is deleted), or its account is disabled.
    fn session<'a>(
        &'a self,
        token: &'a TokenDigest,
        now: Timestamp,
    ) -> StoreFuture<'a, Option<SignedIn>>;

    /// An account's sessions that are live at `now`, newest sign-in first.
    fn sessions(&self, member: MemberId, now: Timestamp) -> StoreFuture<'_, Vec<StoredSession>>;

    /// Ends one of `member`'s sessions.
    ///
    /// [`StoreError::NotFound`] if it is not theirs.
    fn end_session(&self, member: MemberId, session: SessionId) -> StoreFuture<'_, ()>;

    /// Ends the session of a cookie's digest (logging out), if there is one.
    fn end_session_of<'a>(&'a self, token: &'a TokenDigest) -> StoreFuture<'a, ()>;
}
