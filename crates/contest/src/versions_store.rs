//! The interface to a team's stored versions as its pages use them
//! ([`TeamVersions`]): the list, an upload queued for a build worker, a
//! version's build log, and activation by a member — what the web side
//! reads and writes, and what the season store implements (as
//! [`ContestAccounts`](crate::ContestAccounts), beside which it lives for
//! the same reasons: the web crate knows no database).
//!
//! Every method is one transaction and a refusal changes nothing. The web
//! side checks an upload before it calls [`TeamVersions::upload`] (its
//! size, its listing, the runtime's start file, the texts); the store
//! checks the texts again and keeps the upload so that any worker can
//! build it. Activation by a member follows the model's rule
//! ([`VersionState::may_activate`]): only a version that passed its test.

use crate::{MemberId, Runtime, StoreFuture, TeamId, Timestamp, VersionNumber, VersionState};

#[cfg(feature = "test-support")]
mod memory;
#[cfg(feature = "test-support")]
pub use memory::MemoryVersions;

/// Why an activation by a member is refused (`Refused`).
pub const NOT_ACTIVATABLE: &str =
    "only a version that passed its test can be activated; this one did not (or is active already)";

/// Why a test is refused (`Refused`).
pub const NOT_TESTABLE: &str =
    "only a built version that is not being tested and not active can be tested";

/// A team's upload, checked by the web side, as it is stored.
#[derive(Clone, PartialEq, Eq)]
pub struct Upload {
    /// What it runs on.
    pub runtime: Runtime,
    /// Its start parameters, one line
    /// ([`check_start_parameters`](crate::versions::check_start_parameters)),
    /// passed as arguments after splitting into words, never to a shell.
    pub start_parameters: String,
    /// The team's note.
    pub comment: String,
    /// The ZIP archive as sent.
    pub archive: Vec<u8>,
    /// Who uploaded it.
    pub by: MemberId,
}

impl std::fmt::Debug for Upload {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Upload")
            .field("runtime", &self.runtime)
            .field("start_parameters", &self.start_parameters)
            .field("comment", &self.comment)
            .field("archive_bytes", &self.archive.len())
            .field("by", &self.by)
            .finish()
    }
}

/// One of a team's versions, as its list shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VersionEntry {
    /// Its number in the team.
    pub number: VersionNumber,
    /// What it runs on; `None` for a player the organiser named on the
    /// command line.
    pub runtime: Option<Runtime>,
    /// Its start parameters (empty for the organiser's).
    pub start_parameters: String,
    /// How far its build and test went.
    pub state: VersionState,
    /// Whether it is the team's active version.
    pub active: bool,
    /// The team's or organiser's note.
    pub comment: String,
    /// When it was added.
    pub created_at: Timestamp,
}

/// A version's build as its log page shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BuildLog {
    /// The version.
    pub number: VersionNumber,
    /// Its state.
    pub state: VersionState,
    /// The build's log (capped by the worker that wrote it); empty while
    /// queued or building.
    pub log: String,
    /// The image it made, once built.
    pub image: Option<String>,
}

/// A team's versions in a store: one contest per store object.
pub trait TeamVersions: Send + Sync + std::fmt::Debug {
    /// `team`'s versions, by number. `NotFound` for no such
    /// team.
    fn team_versions(&self, team: TeamId) -> StoreFuture<'_, Vec<VersionEntry>>;

    /// Stores `upload` as `team`'s next version, `uploaded`, with its build
    /// queued — one transaction. `Refused` for start
    /// parameters or a comment the model refuses.
    fn upload<'a>(
        &'a self,
        team: TeamId,
        upload: &'a Upload,
        now: Timestamp,
    ) -> StoreFuture<'a, VersionEntry>;

    /// The build of `team`'s version `number`; `None` for a version that
    /// had nothing to build (the organiser's). `NotFound` for
    /// no such version of the team.
    fn build_log(&self, team: TeamId, number: VersionNumber) -> StoreFuture<'_, Option<BuildLog>>;

    /// Makes `team`'s version `number` its active one, recorded as done by
    /// `by` named `by_name` at `now`. `Refused`
    /// ([`NOT_ACTIVATABLE`]) unless the version passed its test; nothing is
    /// changed then.
    fn activate<'a>(
        &'a self,
        team: TeamId,
        number: VersionNumber,
        by: MemberId,
        by_name: &'a str,
        now: Timestamp,
    ) -> StoreFuture<'a, ()>;

    /// Starts the test of `team`'s version `number` (its games against the
    /// built-in `random` bot, played by the workers): the version is
    /// `testing` until they are judged. `Refused` ([`NOT_TESTABLE`]) for
    /// the active version or one the model does not test now (not built,
    /// or being tested); nothing is changed then.
    fn test(&self, team: TeamId, number: VersionNumber) -> StoreFuture<'_, ()>;

    /// The season of the newest test of `team`'s version `number` (its
    /// games' archive), `None` before its first. `NotFound` for no such
    /// version of the team.
    fn test_season(&self, team: TeamId, number: VersionNumber) -> StoreFuture<'_, Option<String>>;
}
