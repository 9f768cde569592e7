//! The interface to the organiser's steps on a contest's calendar
//! ([`ContestCalendar`]): making a matchday or the final, freezing and
//! scheduling a matchday or a knockout round now, publishing it, taking
//! the publication back, and setting its failed games waiting again — what
//! the organiser's pages ask, and what a store (the season store's SQLite
//! and PostgreSQL tables) does with the same transactions as its command
//! line (`contest matchday …`, `contest final …`).
//!
//! # Why a trait of its own
//!
//! [`ContestResults`](crate::ContestResults) only reads, and the results
//! pages serve everybody; these steps write, and only an organiser's page
//! takes them. A step is one value ([`CalendarStep`]), so the page's form
//! and the store agree on what a step is without one method per button.
//!
//! # What a store promises
//!
//! - **One step, one transaction**: a refused step changes nothing.
//! - **The command line's rules**: a store takes a step by the same
//!   function its `contest` command calls, so the page refuses what the
//!   command refuses, with the same reason ([`CalendarError::Refused`]).

use std::{fmt, future::Future, pin::Pin};

use crate::{BracketSize, Phase, Timestamp};

#[cfg(doc)]
use crate::KnockoutRound;

/// A step the organiser takes on the calendar.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CalendarStep {
    /// A new matchday of `phase` (not the final's: its rounds come with
    /// [`CalendarStep::NewFinal`]), with the deadline at which its active
    /// versions are frozen, and whether its games are played on the
    /// server's clock.
    NewMatchday {
        /// Its phase.
        phase: Phase,
        /// When the active versions are frozen, if at a set time.
        deadline: Option<Timestamp>,
        /// Whether the moves are timed.
        timed: bool,
    },
    /// The final's bracket from the standings (of the champions league
    /// once it was played, else of the championship); `None` for the
    /// contest's own setting.
    NewFinal {
        /// How many teams it seeds.
        size: Option<BracketSize>,
    },
    /// Freezes matchday `number` of `phase` (a knockout round: the
    /// final's matchday of [`KnockoutRound::number`]) now and schedules
    /// its games.
    Play {
        /// Its phase.
        phase: Phase,
        /// Its number (a round's number for the final).
        number: u32,
        /// Whether a knockout round's moves are timed (a matchday's were
        /// set when it was made, and this is not read for one).
        timed: bool,
    },
    /// Publishes a played matchday or round to everybody.
    Publish {
        /// Its phase.
        phase: Phase,
        /// Its number.
        number: u32,
    },
    /// Takes a publication back.
    Unpublish {
        /// Its phase.
        phase: Phase,
        /// Its number.
        number: u32,
    },
    /// Sets every game of the matchday or round that was given up as
    /// failed waiting again.
    RetryFailed {
        /// Its phase.
        phase: Phase,
        /// Its number.
        number: u32,
    },
}

/// What a step did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CalendarDone {
    /// The matchday's phase (the final for a round or the bracket).
    pub phase: Phase,
    /// The matchday's number (a round's number; for
    /// [`CalendarStep::NewFinal`] the first round to play).
    pub number: u32,
    /// The games it set waiting for the workers: those scheduled by
    /// [`CalendarStep::Play`], those retried by
    /// [`CalendarStep::RetryFailed`]; 0 for the other steps.
    pub games: u64,
    /// Whether the step changed anything: [`CalendarStep::Play`] of a
    /// knockout round scheduled before changes nothing and says so.
    pub changed: bool,
}

/// Why a step was not taken.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CalendarError {
    /// The contest's rules refuse it; nothing changed. The reason is one
    /// line for the organiser.
    #[error("{0}")]
    Refused(String),
    /// The store failed (a database, a disk).
    #[error("{store}: {cause}")]
    Backend {
        /// The store, for people (no password).
        store: String,
        /// What failed.
        cause: String,
    },
}

/// What a store's step returns: boxed, so that the trait is an object.
pub type CalendarFuture<'a> =
    Pin<Box<dyn Future<Output = Result<CalendarDone, CalendarError>> + Send + 'a>>;

/// The organiser's steps on a contest's calendar; see the module's
/// documentation.
pub trait ContestCalendar: Send + Sync + fmt::Debug {
    /// Takes `step` at `now` (a publication's time, a matchday's freeze).
    fn take(&self, step: CalendarStep, now: Timestamp) -> CalendarFuture<'_>;
}
