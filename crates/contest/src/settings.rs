//! A contest's settings ([`ContestSettings`]) with the official defaults,
//! all of them in [`defaults`] (decisions.md §31–§34; the references are in
//! `contest-references.md`).

use serde::{Deserialize, Serialize};

/// The official rules as the defaults of a contest's settings: the one
/// place they are written down.
pub mod defaults {
    use super::{BracketSize, PointScale, Publication, StandIn};

    /// Games of an encounter (official: 6), the first move alternating.
    pub const GAMES_PER_ENCOUNTER: u32 = 6;
    /// Win points of one game: 2 for a win, 1 for a draw, 0 for a loss.
    pub const GAME_POINTS: PointScale = PointScale {
        win: 2,
        draw: 1,
        loss: 0,
    };
    /// Ranking points of one encounter: 2 / 1 / 0.
    pub const RANKING_POINTS: PointScale = PointScale {
        win: 2,
        draw: 1,
        loss: 0,
    };
    /// Who plays for a team without an active version at a deadline: the
    /// built-in `random` bot (the official site's statement; the other,
    /// that its games count as lost, is [`StandIn::Forfeit`]).
    pub const STAND_IN: StandIn = StandIn::RandomBot;
    /// The best K of each championship group go on to the champions
    /// league.
    pub const CHAMPIONS_LEAGUE_SIZE: u32 = 8;
    /// Teams in the final's bracket.
    pub const BRACKET: BracketSize = BracketSize::Eight;
    /// A knockout encounter tied after its games goes on this many games
    /// at a time, the first move alternating…
    pub const KNOCKOUT_EXTENSION_GAMES: u32 = 2;
    /// …up to this many games in all; then the game points decide, then
    /// the lot.
    pub const KNOCKOUT_MAX_GAMES: u32 = 20;
    /// Matchdays and knockout rounds are published by the organiser.
    pub const PUBLICATION: Publication = Publication::Manual;
    /// Friendly encounters a team may start per hour (each challenged
    /// team counts one).
    pub const FRIENDLY_CHALLENGES_PER_HOUR: u32 = 10;
    /// Games of a friendly encounter: as many as a matchday's.
    pub const GAMES_PER_FRIENDLY: u32 = GAMES_PER_ENCOUNTER;
    /// Games of a version's test against the `random` bot, seats swapped.
    pub const TEST_GAMES: u32 = 2;
    /// The size of a championship group the draw aims at.
    pub const GROUP_SIZE: u32 = 20;
    /// How long an invite link stays valid: 7 days.
    pub const INVITE_VALID_SECONDS: i64 = 7 * 24 * 3600;
    /// A session unused this long ends: 8 hours.
    pub const SESSION_IDLE_SECONDS: i64 = 8 * 3600;
    /// A session ends this long after its sign-in, however much it is
    /// used: 30 days.
    pub const SESSION_ABSOLUTE_SECONDS: i64 = 30 * 24 * 3600;
}

/// The most games an encounter, a friendly or a test may have, and a
/// knockout encounter's cap: a bound on the work one setting can order.
pub const MAX_GAMES: u32 = 100;

/// Points for a win, a draw and a loss.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PointScale {
    /// Points for a win.
    pub win: u32,
    /// Points for a draw.
    pub draw: u32,
    /// Points for a loss.
    pub loss: u32,
}

impl PointScale {
    /// The points of an outcome.
    pub const fn of(&self, outcome: Outcome) -> u32 {
        match outcome {
            Outcome::Win => self.win,
            Outcome::Draw => self.draw,
            Outcome::Loss => self.loss,
        }
    }
}

/// One side's outcome of a game or an encounter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// Won.
    Win,
    /// Drawn.
    Draw,
    /// Lost.
    Loss,
}

/// Who plays for a team that has no active version at a matchday's
/// deadline.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StandIn {
    /// The built-in `random` bot plays the team's games (they count).
    RandomBot,
    /// The team forfeits: every game of its encounter is lost unplayed.
    Forfeit,
}

/// The size of the final's bracket.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BracketSize {
    /// Semi-finals, third place and final.
    Four,
    /// Quarter-finals first.
    Eight,
}

impl BracketSize {
    /// The number of teams.
    pub const fn teams(self) -> usize {
        match self {
            BracketSize::Four => 4,
            BracketSize::Eight => 8,
        }
    }
}

/// When a matchday's or knockout round's line-up and results become
/// public (the two teams of an encounter and the organisers see theirs at
/// once).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Publication {
    /// When an organiser publishes them.
    Manual,
    /// As soon as every game of the matchday or round has its result; an
    /// organiser may still unpublish.
    Automatic,
}

/// A contest's settings. Stored as JSON with the contest; a field missing
/// from a stored object takes its default, so settings added later keep
/// older contests readable.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ContestSettings {
    /// Games of an encounter (even: each side moves first in half).
    pub games_per_encounter: u32,
    /// Win points of one game.
    pub game_points: PointScale,
    /// Ranking points of one encounter.
    pub ranking_points: PointScale,
    /// Who plays for a team without an active version.
    pub stand_in: StandIn,
    /// The best K of each championship group reach the champions league.
    pub champions_league_size: u32,
    /// Teams in the final's bracket.
    pub bracket: BracketSize,
    /// Games added at a time to a tied knockout encounter (even).
    pub knockout_extension_games: u32,
    /// The most games of a knockout encounter.
    pub knockout_max_games: u32,
    /// When results become public.
    pub publication: Publication,
    /// Friendly encounters a team may start per hour (0: none).
    pub friendly_challenges_per_hour: u32,
    /// Games of a friendly encounter (even).
    pub games_per_friendly: u32,
    /// Games of a version's test (even).
    pub test_games: u32,
    /// The group size a draw aims at.
    pub group_size: u32,
    /// How long an invite link is valid, in seconds.
    pub invite_valid_seconds: i64,
    /// How long an unused session lives, in seconds.
    pub session_idle_seconds: i64,
    /// How long any session lives, in seconds.
    pub session_absolute_seconds: i64,
}

impl Default for ContestSettings {
    fn default() -> ContestSettings {
        ContestSettings {
            games_per_encounter: defaults::GAMES_PER_ENCOUNTER,
            game_points: defaults::GAME_POINTS,
            ranking_points: defaults::RANKING_POINTS,
            stand_in: defaults::STAND_IN,
            champions_league_size: defaults::CHAMPIONS_LEAGUE_SIZE,
            bracket: defaults::BRACKET,
            knockout_extension_games: defaults::KNOCKOUT_EXTENSION_GAMES,
            knockout_max_games: defaults::KNOCKOUT_MAX_GAMES,
            publication: defaults::PUBLICATION,
            friendly_challenges_per_hour: defaults::FRIENDLY_CHALLENGES_PER_HOUR,
            games_per_friendly: defaults::GAMES_PER_FRIENDLY,
            test_games: defaults::TEST_GAMES,
            group_size: defaults::GROUP_SIZE,
            invite_valid_seconds: defaults::INVITE_VALID_SECONDS,
            session_idle_seconds: defaults::SESSION_IDLE_SECONDS,
            session_absolute_seconds: defaults::SESSION_ABSOLUTE_SECONDS,
        }
    }
}

/// A setting out of its range: which, and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("contest setting {field}: {problem}")]
pub struct SettingsError {
    /// The setting's name, as in the stored JSON.
    pub field: &'static str,
    /// What is wrong with its value.
    pub problem: String,
}

impl ContestSettings {
    /// Whether every setting is in its range: the store refuses settings
    /// that fail this, so the rest of the model may rely on them.
    ///
    /// # Errors
    ///
    /// The first setting out of its range.
    pub fn check(&self) -> Result<(), SettingsError> {
        let fail = |field, problem: String| Err(SettingsError { field, problem });
        for (field, games) in [
            ("games_per_encounter", self.games_per_encounter),
            ("games_per_friendly", self.games_per_friendly),
            ("test_games", self.test_games),
            ("knockout_extension_games", self.knockout_extension_games),
        ] {
            if games == 0 || !games.is_multiple_of(2) || games > MAX_GAMES {
                return fail(
                    field,
                    format!(
                        "{games} games; an even number from 2 to {MAX_GAMES}, so that each side moves first as often"
                    ),
                );
            }
        }
        if self.knockout_max_games < self.games_per_encounter || self.knockout_max_games > MAX_GAMES
        {
            return fail(
                "knockout_max_games",
                format!(
                    "{} games; from games_per_encounter ({}) to {MAX_GAMES}",
                    self.knockout_max_games, self.games_per_encounter
                ),
            );
        }
        if !(self.knockout_max_games - self.games_per_encounter)
            .is_multiple_of(self.knockout_extension_games)
        {
            return fail(
                "knockout_max_games",
                format!(
                    "{} games; games_per_encounter ({}) plus a whole number of knockout_extension_games ({})",
                    self.knockout_max_games,
                    self.games_per_encounter,
                    self.knockout_extension_games
                ),
            );
        }
        for (field, scale) in [
            ("game_points", self.game_points),
            ("ranking_points", self.ranking_points),
        ] {
            if !(scale.win > scale.draw && scale.draw >= scale.loss) || scale.win > 1000 {
                return fail(
                    field,
                    format!(
                        "{}/{}/{}; a win must give more than a draw, a draw at least a loss, at most 1000",
                        scale.win, scale.draw, scale.loss
                    ),
                );
            }
        }
        if self.champions_league_size == 0 || self.champions_league_size > 1000 {
            return fail(
                "champions_league_size",
                format!("{}; from 1 to 1000", self.champions_league_size),
            );
        }
        if self.friendly_challenges_per_hour > 1000 {
            return fail(
                "friendly_challenges_per_hour",
                format!("{}; at most 1000", self.friendly_challenges_per_hour),
            );
        }
        if self.group_size < 2 || self.group_size > 1000 {
            return fail("group_size", format!("{}; from 2 to 1000", self.group_size));
        }
        for (field, seconds) in [
            ("invite_valid_seconds", self.invite_valid_seconds),
            ("session_idle_seconds", self.session_idle_seconds),
            ("session_absolute_seconds", self.session_absolute_seconds),
        ] {
            if seconds <= 0 {
                return fail(field, format!("{seconds}; more than 0"));
            }
        }
        if self.session_idle_seconds > self.session_absolute_seconds {
            return fail(
                "session_idle_seconds",
                format!(
                    "{}; at most session_absolute_seconds ({})",
                    self.session_idle_seconds, self.session_absolute_seconds
                ),
            );
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_defaults_are_the_official_rules_and_valid() {
        let settings = ContestSettings::default();
        assert_eq!(settings.check(), Ok(()));
        assert_eq!(settings.games_per_encounter, 6);
        assert_eq!(
            (
                settings.game_points.win,
                settings.game_points.draw,
                settings.game_points.loss
            ),
            (2, 1, 0)
        );
        assert_eq!(settings.ranking_points, settings.game_points);
        assert_eq!(settings.stand_in, StandIn::RandomBot);
        assert_eq!(settings.champions_league_size, 8);
        assert_eq!(settings.bracket.teams(), 8);
        assert_eq!(
            (
                settings.knockout_extension_games,
                settings.knockout_max_games
            ),
            (2, 20)
        );
        assert_eq!(settings.publication, Publication::Manual);
        assert_eq!(settings.friendly_challenges_per_hour, 10);
        assert_eq!(settings.test_games, 2);
    }

    #[test]
    fn settings_out_of_range_are_named() {
        type BreakIt = fn(&mut ContestSettings);
        let cases: [(&str, BreakIt); 10] = [
            ("knockout_max_games", |s| s.knockout_extension_games = 4),
            ("games_per_encounter", |s| s.games_per_encounter = 5),
            ("games_per_encounter", |s| s.games_per_encounter = 0),
            ("test_games", |s| s.test_games = 102),
            ("knockout_max_games", |s| s.knockout_max_games = 4),
            ("game_points", |s| s.game_points.draw = 2),
            ("ranking_points", |s| s.ranking_points.loss = 2),
            ("champions_league_size", |s| s.champions_league_size = 0),
            ("session_idle_seconds", |s| {
                s.session_idle_seconds = s.session_absolute_seconds + 1;
            }),
            ("invite_valid_seconds", |s| s.invite_valid_seconds = 0),
        ];
        for (field, break_it) in cases {
            let mut settings = ContestSettings::default();
            break_it(&mut settings);
            let error = settings.check().expect_err(field);
            assert_eq!(error.field, field);
            assert!(error.to_string().starts_with("contest setting "), "{error}");
        }
    }

    #[test]
    fn stored_settings_missing_a_field_take_its_default() {
        let stored = r#"{"games_per_encounter": 4, "stand_in": "forfeit"}"#;
        let settings: ContestSettings = serde_json::from_str(stored).expect("settings");
        assert_eq!(settings.games_per_encounter, 4);
        assert_eq!(settings.stand_in, StandIn::Forfeit);
        assert_eq!(settings.knockout_max_games, defaults::KNOCKOUT_MAX_GAMES);
        let round_trip: ContestSettings =
            serde_json::from_str(&serde_json::to_string(&settings).expect("json")).expect("back");
        assert_eq!(round_trip, settings);
        assert!(serde_json::from_str::<ContestSettings>(r#"{"games": 4}"#).is_err());
    }
}
