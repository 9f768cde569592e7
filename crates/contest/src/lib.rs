//! The model of a contest for teams — the words, records and rules that the
//! season store's tables, the workers and the contest's pages share
//! (issues 35 accounts, 36 programs, 37 matchdays; decisions.md §27,
//! §30–§34). Pure: no I/O, no clock, no async, no SQL, no XML; the caller
//! reads the clock and the store and passes what they hold.
//!
//! # The vocabulary of a contest
//!
//! - **Contest** ([`Contest`]): one game of the catalogue, a seed and its
//!   [`ContestSettings`] (official defaults in [`defaults`]). Every random
//!   choice — a game's seed, a group draw, a round-robin plan, a lot —
//!   derives from the seed and the choice's name alone (§27).
//! - **Team** ([`Team`]): comes in by the organiser's invite; a team can
//!   be disabled (it signs in no more and forfeits).
//! - **Member** ([`Account`] with [`AccountKind::Member`]): a person of a
//!   team with a [`Role`]: its **teacher** (the first member, who came in
//!   by the organiser's invite and invites and removes students) or a
//!   **student**. An **organiser** ([`AccountKind::Organiser`]) runs the
//!   contest and belongs to no team. Ids: [`TeamId`], [`MemberId`].
//! - **Invite** ([`Invite`]): a one-time, expiring link — the organiser's
//!   for a team's teacher or a password reset, a teacher's for a student.
//!   Its secret token and the passwords' hashes are the web side's.
//! - **Session** ([`Session`]): a signed-in person, server-side, ended when
//!   idle or too old ([`SessionState`]).
//! - **Version** ([`Version`], [`VersionId`], [`VersionNumber`]): one
//!   uploaded program of a team, numbered per team and kept; built, then
//!   tested (two games against the `random` bot, seats swapped, never
//!   counted: [`test_games`]), then activated ([`VersionState`],
//!   [`activate`]). A team has at most one
//!   **active** version; every activation is recorded ([`Activation`]).
//! - **Friendly game** ([`Challenge`]): one team challenges another (or
//!   all, one challenge each); accepted, it is played as an encounter of
//!   both active versions that never counts ([`Challenge::game`],
//!   [`Challenge::result`]); rate-limited per team ([`check_rate`]). Members get **notices** ([`NoticeKind`]).
//! - **Phase** ([`Phase`]): trial matchdays (played, shown, not counted),
//!   the championship (groups of about 20), the champions league (the best
//!   K of each group), the final (a knockout).
//! - **Group** ([`Group`], [`GroupId`]): the teams of a phase that play each
//!   other, in an order the organiser sets or a seeded draw makes
//!   ([`draw_groups`]).
//! - **Matchday** ([`Matchday`], [`MatchdayId`]): one round of every group's
//!   round-robin plan ([`RoundRobin`], the circle method: each pair at most
//!   once per cycle, one team sitting out of an odd group). At its
//!   **deadline** each team's active version is frozen into an [`Entry`]
//!   (the `random` stand-in or a forfeit without one); then its encounters
//!   are scheduled ([`schedule_matchday`]). A knockout **round**
//!   ([`KnockoutRound`]) is a matchday of the final.
//! - **Encounter** ([`Encounter`], [`EncounterId`], named for seeds by its
//!   [`EncounterKey`]): two teams' games of one matchday — 6 by default,
//!   the first move alternating, home first; game win points 2/1/0, more
//!   wins win the encounter (equal: a draw), ranking points 2/1/0
//!   ([`EncounterResult`]). A knockout encounter goes on two games at a
//!   time until one side leads, up to 20, then game points, then lot
//!   ([`Encounter::progress`]).
//! - **Game** ([`GamePlan`], [`GameResult`]): one game of an encounter,
//!   with its seed from the contest's seed and the encounter's key and
//!   index alone, so a game played again is the same game.
//! - **Standings** ([`Standings`]): a group's table by ranking points, then
//!   the game's second criterion (the mean of its first score part: points
//!   in the Blokus games, ambers in Ostseeschach), then lot; each row with
//!   its movement since the previous matchday.
//! - **Bracket** ([`Bracket`]): the final's knockout of 8 (or 4) from the
//!   previous phase's places (1–8, 4–5, 2–7, 3–6), semi-finals, third
//!   place, final.
//! - **Publication** ([`Publication`]): a matchday's or round's line-up and
//!   results are the organisers' and the two teams' at once, everybody's
//!   once published.
//! - **Who sees what** ([`may`]): one rule over [`Viewer`], [`Action`] and
//!   [`Resource`] that every route asks.
//!
//! # Layout
//!
//! [`ids`] (ids, [`Timestamp`]), [`settings`], [`phase`], [`accounts`],
//! [`versions`], [`friendly`], [`pairing`], [`matchday`], [`encounter`],
//! [`standings`], [`knockout`], [`access`], [`accounts_store`],
//! [`results_store`] (what the public pages read of matchdays and results); `seed` holds the derivations
//! ([`EncounterKey::game_seed`], [`friendly_game_seed`],
//! [`test_game_seed`]).
#![deny(missing_docs)]

pub mod access;
pub mod accounts;
pub mod accounts_store;
pub mod calendar_store;
pub mod encounter;
pub mod friendly;
pub mod friendly_store;
pub mod ids;
pub mod knockout;
pub mod mail_address;
pub mod matchday;
pub mod notices_store;
pub mod pairing;
pub mod phase;
pub mod results_store;
mod seed;
pub mod settings;
pub mod standings;
pub mod versions;
pub mod versions_store;

pub use access::{Action, Resource, ResourceKind, Viewer, may};
pub use accounts::{
    Account, AccountKind, Contest, Invite, InviteError, InviteKind, NameError, Role, Session,
    SessionState, Team, TokenDigest, check_display_name, check_password, check_team_name,
    login_key,
};
pub use accounts_store::{
    ContestAccounts, Credentials, NewAccount, SessionOrigin, SignedIn, StoreError, StoreFuture,
    StoredInvite, StoredSession,
};
pub use calendar_store::{
    CalendarDone, CalendarError, CalendarFuture, CalendarStep, ContestCalendar,
};
pub use encounter::{
    DecidedBy, Encounter, EncounterError, EncounterKind, EncounterOutcome, EncounterResult, Entry,
    GamePlan, GameResult, Progress, Side,
};
pub use friendly::{
    Challenge, ChallengeAnswer, ChallengeError, ChallengeState, NoticeKind, check_rate,
};
pub use friendly_store::{
    ChallengeEntry, ChallengeRate, FriendlyGames, NO_ACTIVE_VERSION, RATE_LIMITED,
};
pub use ids::{
    ChallengeId, ContestId, EncounterId, GroupId, InviteId, MatchdayId, MemberId, NoticeId,
    SessionId, TeamId, Timestamp, VersionId,
};
pub use knockout::{Bracket, KnockoutError, KnockoutWinner};
pub use mail_address::{MAX_MAIL_ADDRESS, MailAddressError, check_mail_address};
pub use matchday::{AtDeadline, Group, Matchday, MatchdaySchedule, schedule_matchday};
pub use notices_store::{MAIL_ATTEMPTS, MAX_NOTICES, MailJob, Notice, TeamNotices};
pub use pairing::{GroupLineUp, Pairing, PairingError, RoundRobin, draw_groups, group_count};
pub use phase::{KnockoutRound, Phase};
pub use results_store::{
    ByeEntry, ContestResults, Counted, EncounterAccess, EncounterGame, EncounterResults,
    GroupEntry, KnockoutResults, KnockoutRoundResults, MAX_PLAYING_GAMES, MatchdayEntry,
    MatchdayResults, MatchdayStage, PlayingGame, PlayingMatchday,
};
pub use seed::{EncounterKey, friendly_game_seed, test_game_seed};
pub use settings::{
    BracketSize, ContestSettings, Outcome, PointScale, Publication, SettingsError, StandIn,
    defaults,
};
pub use standings::{PlayedEncounter, StandingRow, Standings, StandingsError, qualifiers};
pub use versions::{
    Activation, ActivationError, Runtime, TestGamePlan, TransitionError, Version, VersionEvent,
    VersionNumber, VersionState, activate, check_comment, check_start_parameters, test_games,
    test_verdict,
};
pub use versions_store::{BuildLog, NOT_TESTABLE, TeamVersions, Upload, VersionEntry};
