//! A team's programs (issue 36): [`Version`]s numbered per team, what
//! state each can be in ([`VersionState`]) and which transitions are legal
//! ([`VersionEvent`]), and activation: one active version per team, each
//! activation recorded ([`Activation`]).
//!
//! | state | event | next state |
//! | --- | --- | --- |
//! | uploaded | build started | building |
//! | building | build succeeded / failed | built / build failed (final) |
//! | built, tested, test failed | test started | testing |
//! | testing | test passed / failed | tested / test failed |
//! | tested | activated | active |
//! | active | another version activated | tested |
//!
//! Only a version that passed its test may be activated: a failed build
//! or test is refused, and so is a version not yet tested, so that nothing
//! that never finished two games against the `random` bot is frozen into a
//! matchday. A build or test whose worker vanished is retried by its job
//! (claimed and fenced like a game) without a change of state.

use core::fmt;

use serde::{Deserialize, Serialize};

use crate::{ContestSettings, MemberId, TeamId, Timestamp, VersionId, test_game_seed};

/// A version's number within its team: 1, 2, …, in upload order, never
/// reused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct VersionNumber(pub u32);

impl fmt::Display for VersionNumber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "version {}", self.0)
    }
}

/// What a version runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Runtime {
    /// A Linux x86-64 executable (or a `start.sh`).
    Native,
    /// A Python program.
    Python,
    /// A Java program (a jar).
    Java,
}

impl Runtime {
    /// Every runtime.
    pub const ALL: [Runtime; 3] = [Runtime::Native, Runtime::Python, Runtime::Java];

    /// Its name in forms, the store and on the command line.
    pub const fn name(self) -> &'static str {
        match self {
            Runtime::Native => "native",
            Runtime::Python => "python",
            Runtime::Java => "java",
        }
    }

    /// The runtime named `name`, if there is one.
    pub fn named(name: &str) -> Option<Runtime> {
        Runtime::ALL.into_iter().find(|r| r.name() == name)
    }
}

impl fmt::Display for Runtime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Where a version is on its way from upload to matchdays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum VersionState {
    /// Stored, waiting for a build worker.
    Uploaded,
    /// A worker builds it.
    Building,
    /// Built; not tested yet.
    Built,
    /// The build failed (its log says why). Final.
    BuildFailed,
    /// Its test games (against the `random` bot) are being played.
    Testing,
    /// The test games ended regularly.
    Tested,
    /// A test game ended irregularly for the version (crash, timeout,
    /// rule violation); it may be tested again.
    TestFailed,
    /// The team's active version: frozen into each matchday at its
    /// deadline, played in friendly games.
    Active,
}

impl VersionState {
    /// Every state.
    pub const ALL: [VersionState; 8] = [
        VersionState::Uploaded,
        VersionState::Building,
        VersionState::Built,
        VersionState::BuildFailed,
        VersionState::Testing,
        VersionState::Tested,
        VersionState::TestFailed,
        VersionState::Active,
    ];

    /// Whether the version may become its team's active version.
    pub const fn may_activate(self) -> bool {
        matches!(self, VersionState::Tested)
    }

    /// The state after `event`.
    ///
    /// # Errors
    ///
    /// The event is not legal in this state.
    pub fn after(self, event: VersionEvent) -> Result<VersionState, TransitionError> {
        use VersionEvent as E;
        use VersionState as S;
        let next = match (self, event) {
            (S::Uploaded, E::BuildStarted) => S::Building,
            (S::Building, E::BuildSucceeded) => S::Built,
            (S::Building, E::BuildFailed) => S::BuildFailed,
            (S::Built | S::Tested | S::TestFailed, E::TestStarted) => S::Testing,
            (S::Testing, E::TestPassed) => S::Tested,
            (S::Testing, E::TestFailed) => S::TestFailed,
            (S::Tested, E::Activated) => S::Active,
            (S::Active, E::Deactivated) => S::Tested,
            (state, event) => return Err(TransitionError { state, event }),
        };
        Ok(next)
    }
}

/// Something that happens to a version.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum VersionEvent {
    /// A worker claimed its build.
    BuildStarted,
    /// The build succeeded.
    BuildSucceeded,
    /// The build failed.
    BuildFailed,
    /// A member asked for its test and a worker claimed it.
    TestStarted,
    /// Both test games ended regularly.
    TestPassed,
    /// A test game ended irregularly for the version.
    TestFailed,
    /// A member made it the team's active version.
    Activated,
    /// Another version of the team was activated.
    Deactivated,
}

impl VersionEvent {
    /// Every event.
    pub const ALL: [VersionEvent; 8] = [
        VersionEvent::BuildStarted,
        VersionEvent::BuildSucceeded,
        VersionEvent::BuildFailed,
        VersionEvent::TestStarted,
        VersionEvent::TestPassed,
        VersionEvent::TestFailed,
        VersionEvent::Activated,
        VersionEvent::Deactivated,
    ];
}

/// An event that is not legal in a version's state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("a version that is {state:?} cannot take {event:?}")]
pub struct TransitionError {
    /// The version's state.
    pub state: VersionState,
    /// The refused event.
    pub event: VersionEvent,
}

/// An uploaded program of a team. Kept for the whole contest.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Version {
    /// The store's id.
    pub id: VersionId,
    /// Whose.
    pub team: TeamId,
    /// Its number in the team.
    pub number: VersionNumber,
    /// What it runs on.
    pub runtime: Runtime,
    /// The arguments it is started with, after the host, port and
    /// reservation ([`check_start_parameters`]).
    pub start_parameters: String,
    /// The team's note ([`check_comment`]).
    pub comment: String,
    /// Who uploaded it.
    pub uploaded_by: MemberId,
    /// When.
    pub uploaded_at: Timestamp,
    /// Where it is now.
    pub state: VersionState,
}

/// The longest start parameters, in bytes.
pub const MAX_START_PARAMETERS: usize = 1000;
/// The longest comment, in bytes.
pub const MAX_COMMENT: usize = 2000;

/// Why start parameters or a comment are refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum VersionTextError {
    /// Start parameters longer than [`MAX_START_PARAMETERS`].
    #[error("start parameters have {0} bytes; at most {MAX_START_PARAMETERS}")]
    StartParametersTooLong(usize),
    /// Start parameters on several lines or with a control character.
    #[error("start parameters must be one line without control characters")]
    StartParametersNotOneLine,
    /// A comment longer than [`MAX_COMMENT`].
    #[error("the comment has {0} bytes; at most {MAX_COMMENT}")]
    CommentTooLong(usize),
}

/// Whether `parameters` may be a version's start parameters: one line of
/// at most 1000 bytes.
///
/// # Errors
///
/// Why not.
pub fn check_start_parameters(parameters: &str) -> Result<(), VersionTextError> {
    if parameters.len() > MAX_START_PARAMETERS {
        Err(VersionTextError::StartParametersTooLong(parameters.len()))
    } else if parameters.chars().any(char::is_control) {
        Err(VersionTextError::StartParametersNotOneLine)
    } else {
        Ok(())
    }
}

/// Whether `comment` may be a version's comment: at most 2000 bytes.
///
/// # Errors
///
/// Why not.
pub fn check_comment(comment: &str) -> Result<(), VersionTextError> {
    if comment.len() > MAX_COMMENT {
        Err(VersionTextError::CommentTooLong(comment.len()))
    } else {
        Ok(())
    }
}

/// One test game of a version against the built-in `random` bot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TestGamePlan {
    /// The game's index in the test, from 0.
    pub index: u32,
    /// The version's seat: 0 (moves first) in the even-numbered games, 1
    /// in the others; the `random` bot has the other.
    pub version_seat: usize,
    /// The game's seed (and the bot's): the same test run again plays the
    /// same games.
    pub seed: u64,
}

/// The `test_games` games (default 2, seats swapped) of `version`'s test.
pub fn test_games(
    version: VersionId,
    contest_seed: u64,
    settings: &ContestSettings,
) -> Vec<TestGamePlan> {
    (0..settings.test_games)
        .map(|index| TestGamePlan {
            index,
            version_seat: (index % 2) as usize,
            seed: test_game_seed(contest_seed, version, index),
        })
        .collect()
}

/// How a test ended: passed when the version ended every test game
/// regularly (winning or losing does not matter), failed when it crashed,
/// timed out, broke a rule or left in any of them (`irregular`: one entry
/// per game, whether the version's end was irregular).
pub fn test_verdict(irregular: &[bool]) -> VersionEvent {
    if irregular.iter().any(|&bad| bad) {
        VersionEvent::TestFailed
    } else {
        VersionEvent::TestPassed
    }
}

/// A record of one activation: who made which version active, when.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Activation {
    /// The team.
    pub team: TeamId,
    /// The version made active.
    pub version: VersionId,
    /// The version that was active before, now tested again.
    pub replaced: Option<VersionId>,
    /// Who.
    pub by: MemberId,
    /// When.
    pub at: Timestamp,
}

/// Why an activation is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ActivationError {
    /// The version is another team's.
    #[error("version {version} is not this team's")]
    NotTheTeams {
        /// The version asked for.
        version: VersionId,
    },
    /// The version is in a state that may not be activated.
    #[error("version {version} is {state:?}; only a version that passed its test can be activated")]
    NotTested {
        /// The version asked for.
        version: VersionId,
        /// Its state.
        state: VersionState,
    },
}

/// Activates `target` among `versions` (the team's versions) for `by` at
/// `at`: the version that was active becomes tested again, `target`
/// active, and the returned record says so. Activating the active version
/// changes nothing and is refused as not tested, so a double click records
/// one activation.
///
/// # Errors
///
/// `target` is another team's, or not tested; nothing is changed.
pub fn activate(
    team: TeamId,
    versions: &mut [Version],
    target: VersionId,
    by: MemberId,
    at: Timestamp,
) -> Result<Activation, ActivationError> {
    let Some(index) = versions
        .iter()
        .position(|v| v.id == target && v.team == team)
    else {
        return Err(ActivationError::NotTheTeams { version: target });
    };
    let state = versions[index].state;
    if !state.may_activate() {
        return Err(ActivationError::NotTested {
            version: target,
            state,
        });
    }
    let mut replaced = None;
    for version in versions.iter_mut().filter(|v| v.team == team) {
        if version.state == VersionState::Active {
            version.state = VersionState::Tested;
            replaced = Some(version.id);
        }
    }
    versions[index].state = VersionState::Active;
    Ok(Activation {
        team,
        version: target,
        replaced,
        by,
        at,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_transition_table() {
        use VersionEvent as E;
        use VersionState as S;
        // Every legal (state, event) pair with its result; every other pair
        // is refused.
        let legal = [
            (S::Uploaded, E::BuildStarted, S::Building),
            (S::Building, E::BuildSucceeded, S::Built),
            (S::Building, E::BuildFailed, S::BuildFailed),
            (S::Built, E::TestStarted, S::Testing),
            (S::Tested, E::TestStarted, S::Testing),
            (S::TestFailed, E::TestStarted, S::Testing),
            (S::Testing, E::TestPassed, S::Tested),
            (S::Testing, E::TestFailed, S::TestFailed),
            (S::Tested, E::Activated, S::Active),
            (S::Active, E::Deactivated, S::Tested),
        ];
        for state in S::ALL {
            for event in E::ALL {
                let expected = legal
                    .iter()
                    .find(|(s, e, _)| *s == state && *e == event)
                    .map(|(_, _, next)| *next);
                match expected {
                    Some(next) => assert_eq!(state.after(event), Ok(next)),
                    None => assert_eq!(
                        state.after(event),
                        Err(TransitionError { state, event }),
                        "{state:?} + {event:?}"
                    ),
                }
            }
        }
        let activatable: Vec<S> = S::ALL.into_iter().filter(|s| s.may_activate()).collect();
        assert_eq!(activatable, [S::Tested]);
    }

    fn version(id: i64, team: i64, state: VersionState) -> Version {
        Version {
            id: VersionId(id),
            team: TeamId(team),
            number: VersionNumber(id as u32),
            runtime: Runtime::Python,
            start_parameters: String::new(),
            comment: String::new(),
            uploaded_by: MemberId(1),
            uploaded_at: Timestamp(0),
            state,
        }
    }

    #[test]
    fn one_active_version_per_team_and_failed_ones_are_refused() {
        use VersionState as S;
        let mut versions = vec![
            version(1, 1, S::Active),
            version(2, 1, S::Tested),
            version(3, 1, S::BuildFailed),
            version(4, 1, S::TestFailed),
            version(5, 1, S::Built),
            version(6, 2, S::Active),
            version(7, 2, S::Tested),
        ];
        let record = activate(
            TeamId(1),
            &mut versions,
            VersionId(2),
            MemberId(5),
            Timestamp(9),
        );
        assert_eq!(
            record,
            Ok(Activation {
                team: TeamId(1),
                version: VersionId(2),
                replaced: Some(VersionId(1)),
                by: MemberId(5),
                at: Timestamp(9),
            })
        );
        let states: Vec<S> = versions.iter().map(|v| v.state).collect();
        assert_eq!(
            states,
            [
                S::Tested,
                S::Active,
                S::BuildFailed,
                S::TestFailed,
                S::Built,
                S::Active,
                S::Tested
            ]
        );
        for (refused, state) in [
            (3, S::BuildFailed),
            (4, S::TestFailed),
            (5, S::Built),
            (2, S::Active),
        ] {
            let before = versions.clone();
            assert_eq!(
                activate(
                    TeamId(1),
                    &mut versions,
                    VersionId(refused),
                    MemberId(5),
                    Timestamp(10)
                ),
                Err(ActivationError::NotTested {
                    version: VersionId(refused),
                    state
                })
            );
            assert_eq!(versions, before);
        }
        assert_eq!(
            activate(
                TeamId(1),
                &mut versions,
                VersionId(7),
                MemberId(5),
                Timestamp(10)
            ),
            Err(ActivationError::NotTheTeams {
                version: VersionId(7)
            })
        );
    }

    #[test]
    fn a_test_is_two_games_with_the_seats_swapped() {
        let plans = test_games(VersionId(8), 3, &ContestSettings::default());
        let seats: Vec<usize> = plans.iter().map(|p| p.version_seat).collect();
        assert_eq!(seats, [0, 1]);
        assert_ne!(plans[0].seed, plans[1].seed);
        assert_eq!(
            plans,
            test_games(VersionId(8), 3, &ContestSettings::default())
        );
        assert_ne!(
            plans,
            test_games(VersionId(9), 3, &ContestSettings::default())
        );
        assert_eq!(test_verdict(&[false, false]), VersionEvent::TestPassed);
        assert_eq!(test_verdict(&[false, true]), VersionEvent::TestFailed);
    }

    #[test]
    fn start_parameters_are_one_bounded_line() {
        assert_eq!(check_start_parameters("--depth 3 --verbose"), Ok(()));
        assert_eq!(
            check_start_parameters("a\nb"),
            Err(VersionTextError::StartParametersNotOneLine)
        );
        assert_eq!(
            check_start_parameters(&"x".repeat(1001)),
            Err(VersionTextError::StartParametersTooLong(1001))
        );
        assert_eq!(check_comment("multi\nline is fine"), Ok(()));
        assert_eq!(
            check_comment(&"x".repeat(2001)),
            Err(VersionTextError::CommentTooLong(2001))
        );
    }
}
