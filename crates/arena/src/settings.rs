//! What a match is: the game, its players (a program or a built-in bot
//! each, one per seat), how many games, how many at once, where the server
//! is, and the limits that turn a crashed or hung player into a recorded
//! irregular game.

use std::{fmt, path::PathBuf, str::FromStr, time::Duration};

use spielleiter_bots::{BotKind, UnknownBot};
use spielleiter_rules::GameType;
use spielleiter_sandbox::{SandboxLimits, SandboxedProgram};
use spielleiter_server::in_process::InProcess;

use crate::error::ArenaError;

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

impl Program {
    /// Whether the program can be started at all: an executable file at its
    /// path, or on `PATH` for a bare name (a `.jar`: the file, and `java`
    /// on `PATH`). Found before the first game, so that a typo is one
    /// message rather than every game recorded as a crash.
    ///
    /// # Errors
    ///
    /// What is missing, for a person to read.
    pub fn check_startable(&self) -> Result<(), String> {
        let Program::Executable { path, .. } = self else {
            return Ok(());
        };
        if path.extension().is_some_and(|e| e == "jar") {
            if !path.is_file() {
                return Err(format!("{} does not exist", path.display()));
            }
            return match find_on_path(std::path::Path::new("java")) {
                Some(_) => Ok(()),
                None => Err(format!(
                    "java, which runs {}, is not found on PATH",
                    path.display()
                )),
            };
        }
        let found = if path.components().count() > 1 {
            path.exists().then(|| path.clone())
        } else {
            find_on_path(path)
        };
        let Some(found) = found else {
            return Err(if path.components().count() > 1 {
                format!("{} does not exist", path.display())
            } else {
                format!("{} is not found on PATH", path.display())
            });
        };
        if !found.is_file() {
            return Err(format!("{} is not a file", found.display()));
        }
        if !is_executable(&found) {
            return Err(format!(
                "{} is not executable (chmod +x {0})",
                found.display()
            ));
        }
        Ok(())
    }
}

/// The first executable file called `name` in a directory of `PATH`.
fn find_on_path(name: &std::path::Path) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|candidate| candidate.is_file() && is_executable(candidate))
}

#[cfg(unix)]
fn is_executable(path: &std::path::Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|meta| meta.permissions().mode() & 0o111 != 0)
}

#[cfg(not(unix))]
fn is_executable(_: &std::path::Path) -> bool {
    true
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
    /// The server's administrator passphrase (unused with
    /// [`in_process`](Self::in_process)).
    pub passphrase: String,
    /// The server of this process, when the match is played on one
    /// ([`LocalServer`](crate::LocalServer)): each game's administrator
    /// connects through it, without a passphrase, instead of over TCP.
    pub in_process: Option<InProcess>,
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
    /// Seeds every game's randomness: the room's start piece or start line
    /// ([`MatchSettings::room_seed`]) and the built-in bots
    /// ([`MatchSettings::bot_seed`]). Each game's seeds derive from this
    /// and the game's number alone, so a game is the same game whenever,
    /// wherever and in whatever order it is played.
    pub seed: u64,
    /// Stop early once one player is better at this significance level
    /// (the TestClient's `--significance`), see
    /// [`significantly_better`](crate::stats::significantly_better).
    pub significance: Option<f64>,
    /// Games recorded before significance is tested (`--min-tests`).
    pub min_tests: u32,
    /// How many connections the server admits from this machine at once,
    /// if known: a match whose parallel games need more is refused before
    /// it starts ([`MatchSettings::check_capacity`]) instead of losing the
    /// games the server turns away.
    pub server_connections: Option<usize>,
    /// The limits of `docker:` players whose program was read back from
    /// text (a season's players, stored as their command line): the
    /// limits the runner was given, not the defaults.
    pub sandbox_limits: SandboxLimits,
    /// Whether each game's room is prepared with a wire log
    /// (`wireLog="true"`): the server keeps each seat's bytes next to the
    /// replay.
    pub wire_log: bool,
    /// Where the server keeps each finished game's replay in memory for
    /// this process (an in-process server started to keep them, a season's
    /// worker): each game's replay, think times, wire log and the players'
    /// logs are then gathered in memory for the store, and `replay_dir` is
    /// not looked at.
    pub kept_replays: Option<spielleiter_server::replay::KeptReplays>,
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
            in_process: None,
            replay_dir: None,
            results: PathBuf::from("match-results.jsonl"),
            log_dir: PathBuf::from("log"),
            connect_timeout: Duration::from_secs(30),
            game_timeout: Duration::from_secs(20 * 60),
            exit_grace: Duration::from_secs(5),
            seed: 0,
            significance: None,
            min_tests: 20,
            server_connections: Some(DEFAULT_SERVER_CONNECTIONS),
            sandbox_limits: SandboxLimits::default(),
            wire_log: false,
            kept_replays: None,
        }
    }

    /// Connections one game holds at once: one per player and the
    /// administrator's, which prepares and watches the game.
    pub fn connections_per_game(&self) -> usize {
        // The game's seats, not the entrants: a tournament's or a season's
        // settings name every player, but a game seats only its own.
        self.game.player_count() + 1
    }

    /// Refuses parallel games the server cannot hold: `parallel` games need
    /// [`connections_per_game`](Self::connections_per_game) connections each,
    /// and a server admits at most
    /// [`server_connections`](Self::server_connections) from one address.
    ///
    /// # Errors
    ///
    /// [`ArenaError::Settings`], naming the
    /// most games that fit.
    pub fn check_capacity(&self) -> Result<(), ArenaError> {
        let Some(capacity) = self.server_connections else {
            return Ok(());
        };
        let per_game = self.connections_per_game();
        let needed = self.parallel.saturating_mul(per_game);
        if needed <= capacity {
            return Ok(());
        }
        Err(ArenaError::Settings(format!(
            "--parallel {} needs {needed} connections at once ({per_game} per game: {} players and the administrator), but the server admits {capacity} from this machine; play at most {} games at a time, or raise the server's max_connections_per_ip and pass it as --server-connections",
            self.parallel,
            self.game.player_count(),
            capacity / per_game,
        )))
    }

    /// Refuses what holds on any machine: no parallel games, more parallel
    /// games than the server holds, built-in bots that do not play the
    /// game. Whether a program can be started here is
    /// [`check_players`](Self::check_players)'s: a season's definition is
    /// checked on a machine that may not run its players.
    ///
    /// # Errors
    ///
    /// [`ArenaError::Settings`] naming the
    /// problem.
    pub fn check(&self) -> Result<(), ArenaError> {
        if self.parallel == 0 {
            return Err(ArenaError::Settings(
                "--parallel must be at least 1".to_owned(),
            ));
        }
        self.check_capacity()?;
        for player in &self.players {
            if let Program::Builtin(kind) = player.program {
                kind.build(self.game, 0)
                    .map_err(|e| ArenaError::Settings(format!("player {}: {e}", player.name)))?;
            }
        }
        Ok(())
    }

    /// Refuses, before a match plays, what [`check`](Self::check) refuses
    /// and programs that cannot be started here; with sandboxed players,
    /// refuses to start without Docker or their images and sweeps away
    /// what a killed runner left.
    ///
    /// # Errors
    ///
    /// [`ArenaError::Settings`] naming the
    /// player, or [`ArenaError::Sandbox`].
    pub async fn check_players(&self) -> Result<(), ArenaError> {
        self.check()?;
        for player in &self.players {
            player
                .program
                .check_startable()
                .map_err(|e| ArenaError::Settings(format!("player {}: {e}", player.name)))?;
        }
        let images: Vec<&str> = (self.players.iter())
            .filter_map(|p| match &p.program {
                Program::Docker(sandboxed) => Some(sandboxed.image.as_str()),
                _ => None,
            })
            .collect();
        if !images.is_empty() {
            spielleiter_sandbox::preflight(&images).await?;
        }
        Ok(())
    }

    /// Creates the players' log directory if any player is a program.
    ///
    /// # Errors
    ///
    /// [`ArenaError::LogDir`].
    pub fn create_log_dir(&self) -> Result<(), ArenaError> {
        if self
            .players
            .iter()
            .any(|p| matches!(p.program, Program::Executable { .. } | Program::Docker(_)))
        {
            std::fs::create_dir_all(&self.log_dir).map_err(|cause| ArenaError::LogDir {
                path: self.log_dir.clone(),
                cause,
            })?;
        }
        Ok(())
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

    /// The seed of game number `game`'s room (its start piece or start
    /// line), sent with `prepare`: it depends on the match's seed and the
    /// game's number only, not on which games ran before on the server.
    pub fn room_seed(&self, game: u32) -> u64 {
        split_mix(self.seed ^ split_mix(u64::from(game)))
    }

    /// The seed of the built-in bot of `player` (by its position in the
    /// match) in game number `game`.
    pub fn bot_seed(&self, game: u32, player: usize) -> u64 {
        self.seed
            .wrapping_mul(0x9e37_79b9_7f4a_7c15)
            .wrapping_add(u64::from(game) * 2 + player as u64)
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

/// How many connections a server with the default configuration admits
/// from one address (its `max_connections_per_ip`).
pub const DEFAULT_SERVER_CONNECTIONS: usize = 32;

/// SplitMix64's finaliser: neighbouring inputs (game 1, game 2) give
/// unrelated outputs.
fn split_mix(value: u64) -> u64 {
    let mut z = value.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
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
    fn a_program_that_cannot_start_is_named_before_any_game() {
        let missing = Program::executable("./does-not-exist");
        assert_eq!(
            missing.check_startable(),
            Err("./does-not-exist does not exist".to_owned())
        );
        let unknown = Program::executable("no-such-program-anywhere");
        assert!(
            unknown
                .check_startable()
                .is_err_and(|e| e.contains("not found on PATH"))
        );
        let directory = Program::executable(std::env::temp_dir());
        assert!(
            directory
                .check_startable()
                .is_err_and(|e| e.contains("not a file"))
        );
        assert_eq!(Program::executable("sh").check_startable(), Ok(()));
        assert_eq!(Program::Builtin(BotKind::Greedy).check_startable(), Ok(()));
    }

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
    fn parallel_games_must_fit_the_servers_connection_limit() {
        let player = |name: &str| PlayerSpec {
            name: name.to_owned(),
            program: Program::Builtin(BotKind::Random),
            timed: true,
        };
        let mut settings = MatchSettings::new(
            vec![player("a"), player("b")],
            "localhost".into(),
            1,
            String::new(),
        );
        // The server's default limit holds ten games of three connections.
        settings.parallel = 10;
        assert!(settings.check_capacity().is_ok());
        settings.parallel = 500;
        let refused = settings.check_capacity().expect_err("500 games do not fit");
        let text = refused.to_string();
        assert!(text.contains("1500 connections"), "{text}");
        assert!(text.contains("at most 10 games"), "{text}");
        // A server known to admit more takes more.
        settings.server_connections = Some(1500);
        assert!(settings.check_capacity().is_ok());
        settings.server_connections = None;
        assert!(settings.check_capacity().is_ok());
        // A tournament's settings name every entrant; a game seats two.
        settings.server_connections = Some(DEFAULT_SERVER_CONNECTIONS);
        settings.players = (0..100).map(|i| player(&format!("p{i}"))).collect();
        settings.parallel = 10;
        assert!(settings.check_capacity().is_ok());
    }

    #[test]
    fn the_default_capacity_is_the_servers_default_limit() {
        assert_eq!(
            DEFAULT_SERVER_CONNECTIONS,
            spielleiter_server::Config::default().max_connections_per_ip
        );
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
