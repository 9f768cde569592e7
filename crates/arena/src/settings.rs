//! What a match is: the game, its players (a program or a built-in bot
//! each, one per seat), how many games, how many at once, where the server
//! is, and the limits that turn a crashed or hung player into a recorded
//! irregular game.

use std::{fmt, path::PathBuf, str::FromStr, time::Duration};

use spielleiter_bots::{BotKind, UnknownBot};
use spielleiter_rules::GameType;

/// How a player is run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Program {
    /// A built-in bot, played in this process over TCP.
    Builtin(BotKind),
    /// A program started as `EXE --reservation CODE --host H --port P`
    /// (a `.jar` as `java -jar JAR -r CODE -h H -p P`, as the official
    /// TestClient does).
    Executable(PathBuf),
}

impl FromStr for Program {
    type Err = UnknownBot;

    /// `builtin:NAME` names a built-in bot; anything else is a path.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.strip_prefix("builtin:") {
            Some(name) => name.parse().map(Program::Builtin),
            None => Ok(Program::Executable(PathBuf::from(s))),
        }
    }
}

impl fmt::Display for Program {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Program::Builtin(kind) => write!(f, "builtin:{kind}"),
            Program::Executable(path) => write!(f, "{}", path.display()),
        }
    }
}

/// One of the players.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerSpec {
    /// The display name, also used for log file names.
    pub name: String,
    /// What plays.
    pub program: Program,
    /// Whether the server times the player (prepared with `canTimeout`).
    pub timed: bool,
}

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct MatchSettings {
    /// The game played.
    pub game: GameType,
    /// Player 1, player 2, …: as many as the game has seats. The seats
    /// rotate from game to game ([`MatchSettings::seat_players`]), so each
    /// player sits in every seat, and starts, equally often.
    pub players: Vec<PlayerSpec>,
    /// Games in the whole match, including those already in the results.
    pub games: u32,
    /// Games played at the same time.
    pub parallel: usize,
    /// The server's host, as the players are told.
    pub host: String,
    /// The server's port.
    pub port: u16,
    /// The server's administrator passphrase.
    pub passphrase: String,
    /// Where the server writes replays, if the match runner can look there.
    pub replay_dir: Option<PathBuf>,
    /// The results file (JSON lines), appended and resumed from.
    pub results: PathBuf,
    /// Where players' output goes: `<log_dir>/<name>_game<N>.log`.
    pub log_dir: PathBuf,
    /// How long a player's program may take to join its game.
    pub connect_timeout: Duration,
    /// How long a whole game may take; past it, the player on turn is taken
    /// to hang and the game ends irregularly.
    pub game_timeout: Duration,
    /// How long a program may keep running after its game has ended before
    /// it is killed.
    pub exit_grace: Duration,
    /// Seeds the random built-in bots (each game gets its own seed).
    pub seed: u64,
    /// Stop early once one player is better at this significance level
    /// (the TestClient's `--significance`), see
    /// [`significantly_better`](crate::stats::significantly_better).
    pub significance: Option<f64>,
    /// Games recorded before significance is tested (`--min-tests`).
    pub min_tests: u32,
}

impl MatchSettings {
    /// The TestClient's defaults for everything but the players and the
    /// server: the default game, 100 games one at a time, `match-results.jsonl`, `log/`,
    /// 30 s to connect, 20 minutes per game, 5 s to exit, no early stop
    /// (20 games before testing significance when it is asked for).
    pub fn new(players: Vec<PlayerSpec>, host: String, port: u16, passphrase: String) -> Self {
        MatchSettings {
            game: GameType::DEFAULT,
            players,
            games: 100,
            parallel: 1,
            host,
            port,
            passphrase,
            replay_dir: None,
            results: PathBuf::from("match-results.jsonl"),
            log_dir: PathBuf::from("log"),
            connect_timeout: Duration::from_secs(30),
            game_timeout: Duration::from_secs(20 * 60),
            exit_grace: Duration::from_secs(5),
            seed: 0,
            significance: None,
            min_tests: 20,
        }
    }

    /// The display names, player 1 first.
    pub fn names(&self) -> Vec<String> {
        self.players.iter().map(|p| p.name.clone()).collect()
    }

    /// Which player sits in each seat in game number `game` (from 1): the
    /// seats rotate by one player per game, so player 1 has the first seat
    /// (and the first move) in game 1, player 2 in game 2, and so on; over
    /// any run of as many games as there are players, every player sits in
    /// every seat once.
    pub fn seat_players(&self, game: u32) -> Vec<usize> {
        let players = self.players.len().max(1);
        let shift = (game.saturating_sub(1) as usize) % players;
        (0..players).map(|seat| (seat + shift) % players).collect()
    }
}

/// Makes equal display names distinct by suffixing each that occurs more
/// than once with its player number (`-1`, `-2`, …), as the official
/// TestClient does for its two players (the server names replays and the
/// match runner names logs after them).
pub fn distinct_names(names: Vec<String>) -> Vec<String> {
    let repeated = |name: &String| names.iter().filter(|other| *other == name).count() > 1;
    names
        .iter()
        .enumerate()
        .map(|(i, name)| {
            if repeated(name) {
                format!("{name}-{}", i + 1)
            } else {
                name.clone()
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn programs_parse_as_builtins_or_paths() {
        assert_eq!(
            "builtin:greedy".parse::<Program>(),
            Ok(Program::Builtin(BotKind::Greedy))
        );
        assert_eq!(
            "./client.sh".parse::<Program>(),
            Ok(Program::Executable(PathBuf::from("./client.sh")))
        );
        assert!("builtin:clever".parse::<Program>().is_err());
        assert_eq!(
            Program::Builtin(BotKind::Random).to_string(),
            "builtin:random"
        );
    }

    #[test]
    fn seats_rotate_over_every_player() {
        let player = |name: &str| PlayerSpec {
            name: name.to_owned(),
            program: Program::Builtin(BotKind::Random),
            timed: true,
        };
        let two = MatchSettings::new(
            vec![player("a"), player("b")],
            "localhost".into(),
            1,
            String::new(),
        );
        // Player 1 starts the odd games, player 2 the even ones.
        assert_eq!(two.seat_players(1), [0, 1]);
        assert_eq!(two.seat_players(2), [1, 0]);
        assert_eq!(two.seat_players(3), [0, 1]);
        let three = MatchSettings {
            players: vec![player("a"), player("b"), player("c")],
            ..two
        };
        let mut seats_of_player = [[0; 3]; 3];
        for game in 1..=6 {
            for (seat, player) in three.seat_players(game).into_iter().enumerate() {
                seats_of_player[player][seat] += 1;
            }
        }
        assert_eq!(seats_of_player, [[2; 3]; 3]);
    }

    #[test]
    fn equal_names_get_suffixes() {
        assert_eq!(
            distinct_names(vec!["x".into(), "x".into()]),
            ["x-1".to_owned(), "x-2".to_owned()]
        );
        assert_eq!(
            distinct_names(vec!["a".into(), "b".into()]),
            ["a".to_owned(), "b".to_owned()]
        );
        assert_eq!(
            distinct_names(vec!["x".into(), "y".into(), "x".into()]),
            ["x-1".to_owned(), "y".to_owned(), "x-3".to_owned()]
        );
    }
}
