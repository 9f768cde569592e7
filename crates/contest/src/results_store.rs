//! The interface to a contest's stored calendar and results
//! ([`ContestResults`]): its groups, matchdays with their encounters,
//! games and byes, the standings after each matchday, and the final's
//! bracket — what the contest's public pages read, and what a store (the
//! season store's SQLite and PostgreSQL tables) implements.
//!
//! # Why a trait of its own beside [`ContestAccounts`]
//!
//! [`ContestAccounts`] is the door: it reads *and writes* people's
//! records, and its promises (one transaction per call, secrets only as
//! digests, sessions ending for good) are about accounts. This interface
//! only reads, knows nothing of people, and its records are the
//! matchdays' (issue 37); a store may serve one without the other (a test
//! of the pages serves canned results beside the in-memory accounts), and
//! the other session's versions and uploads (issue 36) do not meet it.
//!
//! # What a store promises
//!
//! - **Each method is one read of one moment** (one transaction), so a
//!   matchday's encounters and their games never come from two states.
//! - **Publication is data, not a filter**: every method returns what is
//!   stored, published or not, with the flag that says so; who may see it
//!   is decided by the caller with [`may`](crate::may) over
//!   [`Resource::Encounter`](crate::Resource::Encounter) and
//!   [`Resource::Standings`](crate::Resource::Standings). The one
//!   exception is [`ContestResults::standings`] with
//!   [`Counted::Published`], which counts only the published matchdays
//!   (the public's table must not be computed from results it may not
//!   see).
//! - **One computation**: a store computes standings with
//!   [`Standings::compute`] and encounters' results with
//!   [`Encounter::progress`](crate::Encounter::progress), as its own
//!   commands do, so that a page and the command line never disagree.

use std::fmt;

use crate::{
    Bracket, Encounter, EncounterId, GameResult, GroupId, KnockoutRound, MatchdayId, Phase,
    Progress, Standings, StoreFuture, TeamId, Timestamp,
};

#[cfg(doc)]
use crate::ContestAccounts;

/// Where a matchday (or a knockout round) is on its way.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum MatchdayStage {
    /// Made; nothing frozen yet.
    Planned,
    /// Its entries are frozen and its games scheduled.
    Scheduled,
    /// Every encounter is decided.
    Played,
    /// Its line-up and results are everybody's.
    Published,
}

impl MatchdayStage {
    /// The stage for people.
    pub const fn title(self) -> &'static str {
        match self {
            MatchdayStage::Planned => "planned",
            MatchdayStage::Scheduled => "being played",
            MatchdayStage::Played => "played, not yet published",
            MatchdayStage::Published => "published",
        }
    }
}

/// A matchday of the calendar (a knockout round is a matchday of the
/// final, numbered as [`KnockoutRound::number`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MatchdayEntry {
    /// The store's id.
    pub id: MatchdayId,
    /// Its phase.
    pub phase: Phase,
    /// Its number in the phase, from 1.
    pub number: u32,
    /// Where it stands.
    pub stage: MatchdayStage,
    /// When the active versions are (or were) to be frozen, if set.
    pub deadline: Option<Timestamp>,
    /// When it was published; `None` while it is not.
    pub published_at: Option<Timestamp>,
}

impl MatchdayEntry {
    /// Whether its line-up and results are published.
    pub const fn published(&self) -> bool {
        matches!(self.stage, MatchdayStage::Published)
    }
}

/// One game of an encounter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EncounterGame {
    /// The game's number in its encounter's season, from 1 (what its
    /// replay is named by).
    pub number: u32,
    /// Its result, home first; `None` while it is not played.
    pub result: Option<GameResult>,
}

/// An encounter with its games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EncounterResults {
    /// The store's id (what its games' addresses name).
    pub id: EncounterId,
    /// Key, pairing, frozen entries and kind.
    pub encounter: Encounter,
    /// Its games in order (none for a forfeit).
    pub games: Vec<EncounterGame>,
    /// What it needs next, or its result.
    pub progress: Progress,
}

impl EncounterResults {
    /// Its result, once decided.
    pub fn result(&self) -> Option<&crate::EncounterResult> {
        match &self.progress {
            Progress::Decided(result) => Some(result),
            _ => None,
        }
    }
}

/// A team that sat a matchday out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ByeEntry {
    /// The group's number in the phase.
    pub group: u32,
    /// The team.
    pub team: TeamId,
}

/// A matchday with everything it holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchdayResults {
    /// The matchday.
    pub matchday: MatchdayEntry,
    /// Its encounters by group and slot.
    pub encounters: Vec<EncounterResults>,
    /// The teams that sat out.
    pub byes: Vec<ByeEntry>,
}

/// A group as the matchdays pair it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GroupEntry {
    /// Its number in a phase's encounter keys, from 1.
    pub number: u32,
    /// The store's id; `None` when no team has a group.
    pub id: Option<GroupId>,
    /// Its name (empty when no team has a group).
    pub name: String,
    /// Its teams, in the order they were added.
    pub teams: Vec<TeamId>,
}

/// Which matchdays a table counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Counted {
    /// Every matchday frozen so far (the organisers' table).
    All,
    /// The published matchdays only (everybody's table).
    Published,
}

/// One round of the final.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KnockoutRoundResults {
    /// Which.
    pub round: KnockoutRound,
    /// Its matchday once it is frozen; `None` before.
    pub results: Option<MatchdayResults>,
}

/// The final: its bracket and rounds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KnockoutResults {
    /// The phase whose places seeded it.
    pub seeded_from: Phase,
    /// Seeds (best first) and the winners every stored result makes —
    /// published or not: the caller shows a winner only with its round.
    pub bracket: Bracket,
    /// Every round of the bracket, in the order they are played.
    pub rounds: Vec<KnockoutRoundResults>,
}

/// Who an encounter is between and whether it may be shown to all: what
/// the access rule needs of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EncounterAccess {
    /// The two teams, home first.
    pub teams: [TeamId; 2],
    /// Whether its matchday or round is published.
    pub published: bool,
    /// Its matchday's phase and number (the page to go back to).
    pub phase: Phase,
    /// Its matchday's number.
    pub matchday: u32,
}

/// The most running games [`ContestResults::playing`] lists (every
/// matchday's counts are whole): a page of them, not a store's worth.
pub const MAX_PLAYING_GAMES: usize = 200;

/// A game of a matchday being played, as a worker holds it now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayingGame {
    /// Its encounter.
    pub encounter: EncounterId,
    /// The encounter's two teams, home first (what the access rule needs).
    pub teams: [TeamId; 2],
    /// The game's number in its encounter, from 1.
    pub number: u32,
    /// The worker that holds it.
    pub worker: String,
    /// When that worker began it (milliseconds since the epoch).
    pub started_ms: Option<i64>,
}

/// A matchday (or knockout round) whose games are being played: how far
/// they are, and those running now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayingMatchday {
    /// The matchday.
    pub matchday: MatchdayEntry,
    /// Its games played to the end.
    pub done: u32,
    /// Its games a worker holds now.
    pub running: u32,
    /// Its games no worker has taken yet.
    pub waiting: u32,
    /// Its games given up as failed.
    pub failed: u32,
    /// The running games, by encounter and number (at most
    /// [`MAX_PLAYING_GAMES`] over all matchdays).
    pub games: Vec<PlayingGame>,
}

/// A contest's stored calendar and results, read-only. Every method is
/// one read of one moment; see the module's documentation.
pub trait ContestResults: Send + Sync + fmt::Debug {
    /// The groups a matchday pairs now, numbered as its encounters' keys
    /// number them (one group of every team, named by the contest, when
    /// no team has a group).
    fn groups(&self) -> StoreFuture<'_, Vec<GroupEntry>>;

    /// Every matchday of every phase, by phase and number.
    fn matchdays(&self) -> StoreFuture<'_, Vec<MatchdayEntry>>;

    /// Matchday `number` of `phase` with its encounters, their games and
    /// its byes. [`StoreError::NotFound`](crate::StoreError::NotFound) if
    /// there is none.
    fn matchday(&self, phase: Phase, number: u32) -> StoreFuture<'_, MatchdayResults>;

    /// The tables of `phase` after each matchday it counts, oldest first
    /// and by group within one matchday (so a row's
    /// [`previous_rank`](crate::StandingRow::previous_rank) is its place
    /// in the table before); empty for a phase without a table.
    fn standings(&self, phase: Phase, counted: Counted) -> StoreFuture<'_, Vec<Standings>>;

    /// The final, if it was made.
    fn knockout(&self) -> StoreFuture<'_, Option<KnockoutResults>>;

    /// What the access rule needs of encounter `encounter`.
    /// [`StoreError::NotFound`](crate::StoreError::NotFound) if the
    /// contest has none of that id.
    fn encounter(&self, encounter: EncounterId) -> StoreFuture<'_, EncounterAccess>;

    /// The name of the season holding encounter `encounter`'s games
    /// (`None` for a forfeit), for its replays.
    fn encounter_season(&self, encounter: EncounterId) -> StoreFuture<'_, Option<String>>;

    /// Every matchday and knockout round being played (frozen, not yet
    /// marked played), oldest first, with its games' progress and the
    /// games running now — what the live page shows of the contest.
    fn playing(&self) -> StoreFuture<'_, Vec<PlayingMatchday>>;
}
