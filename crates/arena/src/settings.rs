//! What a match is: the game, its players (a program or a built-in bot
//! each, one per seat), how many games, how many at once, where the server
//! is, and the limits that turn a crashed or hung player into a recorded
//! irregular game.

use std::{fmt, path::PathBuf, str::FromStr, time::Duration};

use spielleiter_bots::{BotKind, UnknownBot};
use spielleiter_rules::GameType;
use spielleiter_sandbox::SandboxedProgram;

/// How a player is run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Program {
    /// A built-in bot, played in this process over TCP.
    Builtin(BotKind),
    /// A program started as `EXE [ARGS…] --reservation CODE --host H --port
    /// P` (a `.jar` as `java -jar JAR [ARGS…] -r CODE -h H -p P`, as the
    /// official TestClient does).
    Executable {
        /// The program.
        path: PathBuf,
        /// Its own arguments, before the match's.
        args: Vec<String>,
    },
    /// A container of a sandbox image (`docker:IMAGE [ARGS…]`), started as
    /// `/player/start [ARGS…] --host H --port P --reservation CODE`, that
    /// reaches its game and nothing else (`spielleiter-sandbox`).
    Docker(SandboxedProgram),
}

impl Program {
    /// A program without arguments of its own.
    pub fn executable(path: impl Into<PathBuf>) -> Program {
        Program::Executable {
            path: path.into(),
            args: Vec::new(),
        }
    }
}

/// Why a player description is not a program.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ProgramError {
    /// `builtin:NAME` with an unknown name.
    #[error("{0}")]
    UnknownBot(#[from] UnknownBot),
    /// Nothing but white space.
    #[error("no program given")]
    Empty,
    /// A quote that does not end.
    #[error("a quote in `{0}` is not closed")]
    UnclosedQuote(String),
}

impl FromStr for Program {
    type Err = ProgramError;

    /// `builtin:NAME` names a built-in bot, `docker:IMAGE [ARGS…]` a
    /// sandboxed player (with the default limits). A path to an existing file is
    /// the program (spaces and all); anything else is a command line: the
    /// program and its own arguments, separated by white space, with `'…'`
    /// or `"…"` around words that contain white space (`./client --depth 3`,
    /// `java -Xmx1g -jar client.jar`).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if let Some(name) = s.strip_prefix("builtin:") {
            return Ok(Program::Builtin(name.parse()?));
        }
        if let Some(line) = s.strip_prefix("docker:") {
            let mut words = split_words(line)?.into_iter();
            let image = words.next().ok_or(ProgramError::Empty)?;
            return Ok(Program::Docker(SandboxedProgram {
                args: words.collect(),
                ..SandboxedProgram::new(image)
            }));
        }
        if std::path::Path::new(s).is_file() {
            return Ok(Program::executable(s));
        }
        let mut words = split_words(s)?.into_iter();
        let path = words.next().ok_or(ProgramError::Empty)?;
        Ok(Program::Executable {
            path: PathBuf::from(path),
            args: words.collect(),
        })
    }
}

/// Splits a command line into words as a shell would for simple cases:
/// white space separates, quotes group (and are removed), a backslash
/// outside single quotes takes the next character as it is.
fn split_words(line: &str) -> Result<Vec<String>, ProgramError> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => words.extend(word.take()),
            '\'' | '"' => {
                let text = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some(end) if end == c => break,
                        Some('\\') if c == '"' => text.extend(chars.next()),
                        Some(other) => text.push(other),
                        None => return Err(ProgramError::UnclosedQuote(line.to_owned())),
                    }
                }
            }
            '\\' => word.get_or_insert_with(String::new).extend(chars.next()),
            other => word.get_or_insert_with(String::new).push(other),
        }
    }
    words.extend(word);
    Ok(words)
}

impl fmt::Display for Program {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Program::Builtin(kind) => write!(f, "builtin:{kind}"),
            Program::Docker(program) => {
                write!(f, "docker:{}", quoted(&program.image))?;
                for arg in &program.args {
                    write!(f, " {}", quoted(arg))?;
                }
                Ok(())
            }
            Program::Executable { path, args } => {
                write!(f, "{}", quoted(&path.to_string_lossy()))?;
                for arg in args {
                    write!(f, " {}", quoted(arg))?;
                }
                Ok(())
            }
        }
    }
}

/// A word as it would have to be written for [`Program::from_str`].
fn quoted(word: &str) -> String {
    if !word.is_empty() && !word.contains(|c: char| c.is_whitespace() || "'\"\\".contains(c)) {
        return word.to_owned();
    }
    format!("'{}'", word.replace('\'', "'\\''"))
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

    /// What a results file must hold to be resumed by this match.
    pub fn key(&self) -> crate::record::MatchKey {
        crate::record::MatchKey {
            game_type: self.game.id().to_owned(),
            players: self.names(),
            commands: self.players.iter().map(|p| p.program.to_string()).collect(),
        }
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
            Ok(Program::executable("./client.sh"))
        );
        assert!("builtin:clever".parse::<Program>().is_err());
        assert_eq!(
            Program::Builtin(BotKind::Random).to_string(),
            "builtin:random"
        );
    }

    #[test]
    fn programs_take_arguments() {
        let program: Program = "./client --depth 3 --name 'my bot' \"a \\\"b\\\"\""
            .parse()
            .expect("a command line");
        assert_eq!(
            program,
            Program::Executable {
                path: PathBuf::from("./client"),
                args: ["--depth", "3", "--name", "my bot", "a \"b\""]
                    .map(str::to_owned)
                    .to_vec(),
            }
        );
        // Shown so that it reads back the same.
        assert_eq!(program.to_string().parse::<Program>(), Ok(program));
        assert_eq!(
            "java -jar 'x y.jar'".parse::<Program>(),
            Ok(Program::Executable {
                path: PathBuf::from("java"),
                args: vec!["-jar".to_owned(), "x y.jar".to_owned()],
            })
        );
        assert_eq!("  ".parse::<Program>(), Err(ProgramError::Empty));
        assert!(matches!(
            "./x 'open".parse::<Program>(),
            Err(ProgramError::UnclosedQuote(_))
        ));
        // An existing file is a path, spaces and all.
        let dir = std::env::temp_dir().join(format!("spielleiter arena {}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        let file = dir.join("my client");
        std::fs::write(&file, "").expect("file");
        assert_eq!(
            file.to_str().expect("utf-8").parse::<Program>(),
            Ok(Program::executable(&file))
        );
        std::fs::remove_dir_all(dir).ok();
    }

    #[test]
    fn docker_players_name_an_image_and_arguments() {
        let program: Program = "docker:team-a:3 --game blokus_bcl"
            .parse()
            .expect("a docker player");
        let Program::Docker(sandboxed) = &program else {
            panic!("not a docker player: {program:?}");
        };
        assert_eq!(sandboxed.image, "team-a:3");
        assert_eq!(sandboxed.args, ["--game", "blokus_bcl"]);
        assert_eq!(program.to_string(), "docker:team-a:3 --game blokus_bcl");
        assert_eq!(program.to_string().parse::<Program>(), Ok(program));
        assert_eq!("docker:".parse::<Program>(), Err(ProgramError::Empty));
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
