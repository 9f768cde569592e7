//! [`SeasonDefinition`]: what a season is (its game, its players and how
//! each is started, games per table, seed, clock) and its schedule, derived
//! from the definition alone so that every worker agrees on it.

use std::str::FromStr;

use serde::{Deserialize, Serialize};
use spielleiter_arena::{MatchSettings, PlayerSpec, Program, TournamentSettings};
use spielleiter_rules::GameType;

use crate::error::SeasonError;

/// How a player is started: whatever every worker can start. Today a
/// command line present on each worker host, or `builtin:BOT`; a container
/// image (`docker:IMAGE`, issue 27) becomes one more kind here and in the
/// match runner's launcher, and the workers do not change: they only hand
/// this text to the runner.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeasonPlayer {
    /// The player's display name, distinct within the season.
    pub name: String,
    /// How to start it, as written after `NAME=` (`builtin:greedy`,
    /// `./client --depth 3`).
    pub start: String,
}

impl SeasonPlayer {
    /// The program the match runner starts.
    ///
    /// # Errors
    ///
    /// The text is no program (an unknown built-in bot, an open quote).
    pub fn program(&self) -> Result<Program, SeasonError> {
        Program::from_str(&self.start)
            .map_err(|e| SeasonError::Definition(format!("player {}: {e}", self.name)))
    }
}

/// The longest player name, in characters: the game server refuses a
/// `prepare` with a longer display name.
pub const MAX_NAME_CHARS: usize = spielleiter_server::lobby::MAX_DISPLAY_NAME_CHARS;

/// How much of a refused name a message shows, in characters.
const SHOWN_NAME_CHARS: usize = 24;

/// Why a name cannot be a player's.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum InvalidName {
    /// Nothing but white space.
    #[error("a player's name is empty")]
    Empty,
    /// Longer than the game server takes ([`MAX_NAME_CHARS`]).
    #[error(
        "the player name `{shown}` has {length} characters; the game server takes at most {MAX_NAME_CHARS}"
    )]
    TooLong {
        /// The name's beginning, as a message shows it.
        shown: String,
        /// Its length in characters.
        length: usize,
    },
    /// A control character (a line break, a tab): the protocol's XML
    /// cannot carry most of them, and the others would not come back as
    /// they were written; results, pages and log lines would break.
    #[error("the player name `{shown}` holds a control character")]
    ControlCharacter {
        /// The name with its control characters escaped, as a message
        /// shows it.
        shown: String,
    },
}

/// Refuses a name the game server would refuse or could not carry
/// faithfully: empty, longer than [`MAX_NAME_CHARS`], or holding a control
/// character. Wherever a player's name is defined (a season's players, a
/// match's or tournament's, a contest's team), it is checked here, so that
/// the mistake is one line at once and not a failed game later.
///
/// # Errors
///
/// Why the name cannot be used; the message shows at most its first
/// characters.
pub fn check_player_name(name: &str) -> Result<(), InvalidName> {
    let shown = |name: &str| -> String {
        let escaped: String = name.escape_debug().collect();
        match escaped.char_indices().nth(SHOWN_NAME_CHARS) {
            Some((cut, _)) => format!("{}…", &escaped[..cut]),
            None => escaped,
        }
    };
    if name.trim().is_empty() {
        return Err(InvalidName::Empty);
    }
    let length = name.chars().count();
    if length > MAX_NAME_CHARS {
        return Err(InvalidName::TooLong {
            shown: shown(name),
            length,
        });
    }
    if name.chars().any(char::is_control) {
        return Err(InvalidName::ControlCharacter { shown: shown(name) });
    }
    Ok(())
}

/// A season: everything that decides which games are played and how.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeasonDefinition {
    /// The game's id.
    pub game: String,
    /// The entrants, in the order entered.
    pub players: Vec<SeasonPlayer>,
    /// Games each table (each pair, in a game of two) plays.
    pub games_per_table: u32,
    /// The season's seed: every game's start piece and bots' seeds derive
    /// from it and the game's place in the schedule.
    pub seed: u64,
    /// Whether the server times the players.
    pub timed: bool,
}

/// One game of a season's schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScheduledGame {
    /// The game's number in the season, from 1.
    pub number: u32,
    /// Its table, by index in [`TournamentSettings::tables`].
    pub table: u32,
    /// Its number within the table's match, from 1.
    pub table_game: u32,
}

impl SeasonDefinition {
    /// The game played.
    ///
    /// # Errors
    ///
    /// The id names no hosted game.
    pub fn game_type(&self) -> Result<GameType, SeasonError> {
        GameType::from_id(&self.game)
            .ok_or_else(|| SeasonError::Definition(format!("unknown game `{}`", self.game)))
    }

    /// The entrants' names.
    pub fn names(&self) -> Vec<String> {
        self.players.iter().map(|p| p.name.clone()).collect()
    }

    /// The tournament this season is, played as `template` says (server,
    /// limits, log directory, parallel games); the game, seed and players
    /// come from the definition.
    ///
    /// # Errors
    ///
    /// The game or a player is unusable (too few players, a name twice or
    /// one the game server refuses, an unknown bot or one that does not
    /// play the game).
    pub fn tournament(&self, template: &MatchSettings) -> Result<TournamentSettings, SeasonError> {
        let players = self
            .players
            .iter()
            .map(|p| {
                check_player_name(&p.name).map_err(|e| SeasonError::Definition(e.to_string()))?;
                Ok(PlayerSpec {
                    name: p.name.clone(),
                    program: match p.program()? {
                        // The runner's limits: a stored command line names
                        // the image, not what its container may use.
                        Program::Docker(mut sandboxed) => {
                            sandboxed.limits = template.sandbox_limits.clone();
                            Program::Docker(sandboxed)
                        }
                        other => other,
                    },
                    timed: self.timed,
                })
            })
            .collect::<Result<Vec<_>, SeasonError>>()?;
        let mut template = template.clone();
        template.game = self.game_type()?;
        template.seed = self.seed;
        let mut settings = TournamentSettings::new(players, template);
        settings.games_per_table = self.games_per_table;
        settings
            .check()
            .map_err(|e| SeasonError::Definition(e.to_string()))?;
        Ok(settings)
    }

    /// Refuses an unusable definition before anything is written: an
    /// unknown game, too few or twice-named players, a name the game
    /// server refuses, an unknown bot, a command that is not found on this
    /// machine.
    ///
    /// # Errors
    ///
    /// [`SeasonError::Definition`] naming the first problem.
    pub fn check(&self) -> Result<(), SeasonError> {
        let template = MatchSettings::new(Vec::new(), "localhost".into(), 1, String::new());
        let settings = self.tournament(&template)?;
        for player in &settings.players {
            if let Program::Executable { path, .. } = &player.program
                && !command_exists(path)
            {
                return Err(SeasonError::Definition(format!(
                    "player {}: the command `{}` is not found (neither a file nor on PATH)",
                    player.name,
                    path.display()
                )));
            }
        }
        Ok(())
    }

    /// The schedule: every table's first game, then every table's second,
    /// numbered from 1.
    ///
    /// # Errors
    ///
    /// The definition is unusable.
    pub fn schedule(&self) -> Result<Vec<ScheduledGame>, SeasonError> {
        let template = MatchSettings::new(Vec::new(), "localhost".into(), 1, String::new());
        let settings = self.tournament(&template)?;
        Ok(settings
            .schedule()
            .into_iter()
            .enumerate()
            .map(|(i, (table, table_game))| ScheduledGame {
                number: i as u32 + 1,
                table: table as u32,
                table_game,
            })
            .collect())
    }

    /// What differs from `other`, for a refusal; `None` if they agree.
    pub fn difference(&self, other: &SeasonDefinition) -> Option<String> {
        if self.game != other.game {
            return Some(format!("game {} here, {} there", self.game, other.game));
        }
        if self.players != other.players {
            let show = |d: &SeasonDefinition| {
                d.players
                    .iter()
                    .map(|p| format!("{}={}", p.name, p.start))
                    .collect::<Vec<_>>()
                    .join(" ")
            };
            return Some(format!(
                "players {} here, {} there",
                show(self),
                show(other)
            ));
        }
        if self.games_per_table != other.games_per_table {
            return Some(format!(
                "{} games per pair here, {} there",
                self.games_per_table, other.games_per_table
            ));
        }
        if self.seed != other.seed {
            return Some(format!("seed {} here, {} there", self.seed, other.seed));
        }
        if self.timed != other.timed {
            return Some("the clock differs".to_owned());
        }
        None
    }
}

/// Whether `path` is a file, or a bare name found in a directory of PATH.
pub(crate) fn command_exists(path: &std::path::Path) -> bool {
    if path.components().count() > 1 {
        return path.is_file();
    }
    std::env::var_os("PATH")
        .is_some_and(|dirs| std::env::split_paths(&dirs).any(|dir| dir.join(path).is_file()))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test.
mod tests {
    use super::*;

    fn definition(players: &[(&str, &str)]) -> SeasonDefinition {
        SeasonDefinition {
            game: GameType::Blokus2021.id().to_owned(),
            players: players
                .iter()
                .map(|(name, start)| SeasonPlayer {
                    name: (*name).to_owned(),
                    start: (*start).to_owned(),
                })
                .collect(),
            games_per_table: 2,
            seed: 5,
            timed: false,
        }
    }

    #[test]
    fn the_schedule_numbers_every_tables_games_round_by_round() {
        let season = definition(&[
            ("a", "builtin:random"),
            ("b", "builtin:random"),
            ("c", "builtin:greedy"),
        ]);
        let schedule = season.schedule().expect("a schedule");
        let places: Vec<(u32, u32, u32)> = schedule
            .iter()
            .map(|g| (g.number, g.table, g.table_game))
            .collect();
        assert_eq!(
            places,
            [
                (1, 0, 1),
                (2, 1, 1),
                (3, 2, 1),
                (4, 0, 2),
                (5, 1, 2),
                (6, 2, 2)
            ]
        );
    }

    #[test]
    fn unusable_definitions_are_refused_by_name() {
        let unknown = SeasonDefinition {
            game: "chess".to_owned(),
            ..definition(&[("a", "builtin:random"), ("b", "builtin:random")])
        };
        assert!(
            unknown
                .check()
                .unwrap_err()
                .to_string()
                .contains("unknown game `chess`")
        );
        let missing = definition(&[("a", "builtin:random"), ("b", "no-such-client-xyz --x")]);
        let error = missing.check().unwrap_err().to_string();
        assert!(
            error.contains("no-such-client-xyz` is not found"),
            "{error}"
        );
        let alone = definition(&[("a", "builtin:random")]);
        assert!(alone.check().is_err());
        assert!(
            definition(&[("a", "builtin:random"), ("b", "sh -c true")])
                .check()
                .is_ok()
        );
    }

    #[test]
    fn names_the_server_refuses_are_refused_where_they_are_defined() {
        assert_eq!(check_player_name(&"é".repeat(MAX_NAME_CHARS)), Ok(()));
        let long = "x".repeat(10_000);
        let error = check_player_name(&long).unwrap_err();
        assert_eq!(
            error,
            InvalidName::TooLong {
                shown: format!("{}…", "x".repeat(SHOWN_NAME_CHARS)),
                length: 10_000
            }
        );
        let message = error.to_string();
        assert!(message.len() < 200, "{message}");
        assert!(message.contains("at most 100"), "{message}");
        assert_eq!(
            check_player_name(&"x".repeat(MAX_NAME_CHARS + 1)),
            Err(InvalidName::TooLong {
                shown: format!("{}…", "x".repeat(SHOWN_NAME_CHARS)),
                length: MAX_NAME_CHARS + 1
            })
        );
        assert_eq!(check_player_name(" \t"), Err(InvalidName::Empty));
        assert_eq!(
            check_player_name("two\nlines"),
            Err(InvalidName::ControlCharacter {
                shown: "two\\nlines".to_owned()
            })
        );
        // A season with such a name is refused by name, in one line.
        let season = definition(&[(&long, "builtin:random"), ("b", "builtin:random")]);
        let refused = season.check().unwrap_err().to_string();
        assert!(refused.contains("has 10000 characters"), "{refused}");
        assert!(!refused.contains('\n') && refused.len() < 200, "{refused}");
        assert!(season.schedule().is_err());
    }

    #[test]
    fn docker_players_get_the_runners_limits() {
        let season = definition(&[("a", "docker:team-a:3"), ("b", "builtin:random")]);
        let mut template =
            MatchSettings::new(Vec::new(), "localhost".to_owned(), 13050, String::new());
        template.sandbox_limits.pids = 7;
        template.sandbox_limits.tmp_bytes = 1 << 20;
        let tournament = season.tournament(&template).expect("a tournament");
        let Program::Docker(sandboxed) = &tournament.players[0].program else {
            panic!("a docker player, got {:?}", tournament.players[0].program);
        };
        assert_eq!(sandboxed.image, "team-a:3");
        assert_eq!(sandboxed.limits, template.sandbox_limits);
    }

    #[test]
    fn differences_are_named() {
        let a = definition(&[("a", "builtin:random"), ("b", "builtin:random")]);
        assert_eq!(a.difference(&a.clone()), None);
        let b = SeasonDefinition {
            seed: 6,
            ..a.clone()
        };
        assert_eq!(a.difference(&b).as_deref(), Some("seed 5 here, 6 there"));
    }
}
