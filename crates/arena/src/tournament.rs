//! [`TournamentSettings`]: a round-robin league of any hosted game. The
//! entrants are split into tables — every pair in a game of two, every
//! set of as many players as the game has seats otherwise — and each table
//! plays a short match of its own (seats rotating from game to game, see
//! [`MatchSettings::seat_players`]); [`TournamentSettings::schedule`]
//! numbers its games. A league is played as a season (`spielleiter_season`:
//! `tournament` on its embedded store, `worker` on a shared one), one game
//! at a time through [`play_table_game`], as is a match (a season of one
//! table); its table is [`Standings`](crate::standings::Standings), ranked
//! by the game's rule ([`GameType::league`]).

use std::collections::HashSet;

use spielleiter_archive::FinishedGame;
use spielleiter_rules::GameType;
use tokio_util::sync::CancellationToken;

use crate::{
    error::ArenaError,
    game::file_name_safe,
    settings::{MatchSettings, PlayerSpec},
};

/// Everything a tournament needs besides its store.
#[derive(Clone, Debug)]
pub struct TournamentSettings {
    /// The entrants, in the order entered; names must be distinct. At
    /// least as many as the game has seats.
    pub players: Vec<PlayerSpec>,
    /// Games each table plays (the game's league gives the default:
    /// [`TournamentSettings::new`]).
    pub games_per_table: u32,
    /// How every game is played: the game, the server, the limits, the log
    /// directory (each table logs into a directory of its own below it),
    /// the seed, and how many games run at once in the whole tournament
    /// (`parallel`). Its players, games, results file and significance are
    /// not used: each table is a match of its own players.
    pub template: MatchSettings,
}

/// A table: the entrants who play each other in one short match, by their
/// position in [`TournamentSettings::players`], player 1 first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    /// The entrants, in the order of their match (player 1 sits first in
    /// the table's first game).
    pub players: Vec<usize>,
}

impl TournamentSettings {
    /// A tournament of `players` playing as `template` says, with the
    /// game's games per table.
    pub fn new(players: Vec<PlayerSpec>, template: MatchSettings) -> TournamentSettings {
        TournamentSettings {
            games_per_table: template.game.league().games_per_table,
            players,
            template,
        }
    }

    /// The game played.
    pub fn game(&self) -> GameType {
        self.template.game
    }

    /// The entrants' names, in the order entered.
    pub fn names(&self) -> Vec<String> {
        self.players.iter().map(|p| p.name.clone()).collect()
    }

    /// The tables: every set of as many entrants as the game has seats, in
    /// lexicographic order. In a game of two, a pair `i < j` sits as
    /// `(i, j)` when `i + j` is odd and as `(j, i)` otherwise, so that
    /// every entrant is player 1 (and starts more games) at about half its
    /// tables.
    pub fn tables(&self) -> Vec<Table> {
        let seats = self.game().player_count();
        let mut tables = Vec::new();
        let mut chosen = Vec::with_capacity(seats);
        combinations(self.players.len(), seats, 0, &mut chosen, &mut tables);
        if seats == 2 {
            for table in &mut tables {
                if (table.players[0] + table.players[1]) % 2 == 0 {
                    table.players.reverse();
                }
            }
        }
        tables
    }

    /// Every game of the schedule as (table index, game number within the
    /// table), round by round: every table's first game, then every
    /// table's second, and so on. A season numbers its games in this order
    /// from 1.
    pub fn schedule(&self) -> Vec<(usize, u32)> {
        let tables = self.tables().len();
        (1..=self.games_per_table)
            .flat_map(|game| (0..tables).map(move |table| (table, game)))
            .collect()
    }

    /// The match the table with index `index` plays (its players, its log
    /// directory, its seed), or `None` past the last table.
    pub fn match_of_table(&self, index: usize) -> Option<MatchSettings> {
        let tables = self.tables();
        let table = tables.get(index)?;
        Some(self.table_match(index, table))
    }

    /// The match a table plays.
    fn table_match(&self, index: usize, table: &Table) -> MatchSettings {
        let players: Vec<PlayerSpec> = table
            .players
            .iter()
            .map(|&p| self.players[p].clone())
            .collect();
        let names: Vec<&str> = players.iter().map(|p| p.name.as_str()).collect();
        let log_dir = self
            .template
            .log_dir
            .join(file_name_safe(&names.join("-vs-")));
        MatchSettings {
            players,
            games: self.games_per_table,
            log_dir,
            // The random bots of every table draw differently.
            seed: self
                .template
                .seed
                .wrapping_add((index as u64 + 1).wrapping_mul(0x2545_f491_4f6c_dd1d)),
            significance: None,
            ..self.template.clone()
        }
    }

    /// Refuses too few players, a name given twice, no games per table, no
    /// parallel games, and built-in bots that do not play the game.
    ///
    /// # Errors
    ///
    /// [`ArenaError::Settings`] naming the problem.
    pub fn check(&self) -> Result<(), ArenaError> {
        let seats = self.game().player_count();
        if self.players.len() < seats {
            return Err(ArenaError::Settings(format!(
                "{} is a game of {seats} players; a tournament needs at least {seats} (--player NAME=COMMAND), not {}",
                self.game(),
                self.players.len()
            )));
        }
        let mut seen = HashSet::new();
        if let Some(twice) = self.players.iter().find(|p| !seen.insert(&p.name)) {
            return Err(ArenaError::Settings(format!(
                "two players are named {}; every player needs a name of its own",
                twice.name
            )));
        }
        if self.games_per_table == 0 {
            return Err(ArenaError::Settings(
                "--games-per-pair must be at least 1".to_owned(),
            ));
        }
        MatchSettings {
            players: self.players.clone(),
            ..self.template.clone()
        }
        .check()
    }
}

/// Adds every increasing choice of `size` numbers below `n` that extends
/// `chosen` to `tables`.
fn combinations(
    n: usize,
    size: usize,
    from: usize,
    chosen: &mut Vec<usize>,
    tables: &mut Vec<Table>,
) {
    if chosen.len() == size {
        tables.push(Table {
            players: chosen.clone(),
        });
        return;
    }
    for next in from..n {
        chosen.push(next);
        combinations(n, size, next + 1, chosen, tables);
        chosen.pop();
    }
}

/// Plays game number `game` (from 1) of the match `settings` of one table
/// once, for a worker of a season: the game with what it left, or `None`
/// if `shutdown` stopped it (its players are killed and its room
/// cancelled; nothing is recorded). The log directory is created when a
/// player is a program.
///
/// # Errors
///
/// The log directory cannot be made, or the server cannot be administered;
/// a player's trouble is a recorded game, not an error.
pub async fn play_table_game(
    settings: &MatchSettings,
    game: u32,
    shutdown: &CancellationToken,
) -> Result<Option<FinishedGame>, ArenaError> {
    settings.create_log_dir()?;
    match crate::game::play_game(settings, game, shutdown).await? {
        crate::game::GameOutcome::Finished(finished) => Ok(Some(*finished)),
        crate::game::GameOutcome::Interrupted => Ok(None),
    }
}

#[cfg(test)]
mod tests {
    use spielleiter_bots::BotKind;

    use super::*;
    use crate::settings::Program;

    fn entrants(n: usize) -> Vec<PlayerSpec> {
        (0..n)
            .map(|i| PlayerSpec {
                name: format!("p{i}"),
                program: Program::Builtin(BotKind::Random),
                timed: true,
            })
            .collect()
    }

    fn tournament(game: GameType, n: usize) -> TournamentSettings {
        let mut template = MatchSettings::new(Vec::new(), "localhost".into(), 1, String::new());
        template.game = game;
        TournamentSettings::new(entrants(n), template)
    }

    #[test]
    fn pairs_alternate_who_sits_first() {
        let settings = tournament(GameType::Blokus2021, 4);
        assert_eq!(settings.games_per_table, 2);
        let tables: Vec<Vec<usize>> = settings.tables().into_iter().map(|t| t.players).collect();
        assert_eq!(
            tables,
            [[0, 1], [2, 0], [0, 3], [1, 2], [3, 1], [2, 3]].map(Vec::from)
        );
        // With three games per pair, player 1 of a table starts two.
        let mut starts = [0; 4];
        for table in &tables {
            starts[table[0]] += 2;
            starts[table[1]] += 1;
        }
        assert_eq!(starts, [5, 4, 5, 4]);
    }

    #[test]
    fn games_of_more_seats_seat_every_combination() {
        let settings = tournament(GameType::TestCounting, 4);
        assert_eq!(settings.games_per_table, 3, "one game per seat");
        let tables: Vec<Vec<usize>> = settings.tables().into_iter().map(|t| t.players).collect();
        assert_eq!(
            tables,
            [[0, 1, 2], [0, 1, 3], [0, 2, 3], [1, 2, 3]].map(Vec::from)
        );
        assert_eq!(tournament(GameType::TestCounting, 3).tables().len(), 1);
    }

    #[test]
    fn too_few_or_twice_named_players_are_refused() {
        assert!(tournament(GameType::TestCounting, 2).check().is_err());
        assert!(tournament(GameType::Blokus2021, 2).check().is_ok());
        let mut twice = tournament(GameType::Blokus2021, 3);
        twice.players[2].name = "p0".to_owned();
        let error = twice.check().expect_err("a name twice").to_string();
        assert!(error.contains("two players are named p0"), "{error}");
    }
}
