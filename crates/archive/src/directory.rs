//! The finished replays of a directory: listing them, opening one by its
//! name (never through a symbolic link), finding a room's replay, and
//! loading one as positions of the rules (for the viewer, `render`,
//! `replay show` and `replay export`). Gzip-compressed replays are read
//! through the same calls as plain ones.

use std::{
    fs::File,
    io::{BufReader, Read},
    path::{Path, PathBuf},
    time::{Duration, SystemTime},
};

use flate2::read::GzDecoder;
use spielleiter_protocol::{
    GameState, Replay, ReplayError, read_replay,
    replay::{ReplayOutline, read_replay_outline},
    result::GameResult,
};
use spielleiter_rules::{AnyGame, GameType};

use crate::names::{self, game_of_name, is_gzip_name, is_replay_name};

/// The most entries [`list`] returns (the newest ones).
pub const LIST_LIMIT: usize = 500;

/// One finished replay in the directory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayFile {
    /// The file name, e.g. `replay_swc_2021_blokus_….xml`.
    pub name: String,
    /// The game, as the server's file names say.
    pub game: Option<GameType>,
    /// The size in bytes.
    pub bytes: u64,
    /// When the file was last written.
    pub modified: SystemTime,
}

/// Why a replay cannot be loaded. The messages name the file as given
/// (a path, or a name in the replay directory) and never repeat the cause,
/// which is the error's source.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LoadError {
    /// The name is not a finished replay's name.
    #[error("{0:?} is not the name of a finished replay")]
    BadName(String),
    /// The name is a symbolic link (or no regular file) in the replay
    /// directory: not followed.
    #[error("{0} is not a regular file")]
    NotAFile(String),
    /// The file cannot be opened.
    #[error("cannot open {file}")]
    Open {
        /// The file.
        file: String,
        /// Why.
        #[source]
        cause: std::io::Error,
    },
    /// The file is no replay of any hosted game.
    #[error("{file} is no replay of a hosted game")]
    Read {
        /// The file.
        file: String,
        /// What went wrong reading it as a replay of the game its name
        /// names (or of the first game tried).
        #[source]
        cause: ReplayError,
    },
    /// A recorded state is not a consistent position.
    #[error("{file}: state {index} is not a consistent position: {reason}")]
    Position {
        /// The file.
        file: String,
        /// The state's index in the file.
        index: usize,
        /// What is wrong.
        reason: String,
    },
}

impl LoadError {
    /// Whether the file does not exist.
    pub fn is_not_found(&self) -> bool {
        matches!(self, LoadError::Open { cause, .. } if cause.kind() == std::io::ErrorKind::NotFound)
    }
}

/// A replay as positions of the rules.
#[derive(Clone, Debug)]
pub struct LoadedReplay {
    /// The game.
    pub game: GameType,
    /// The room the game was played in.
    pub room_id: Option<String>,
    /// The players' display names in seat order: as the states carry them,
    /// else (the states of 2022 and 2027 name nobody) as the result does;
    /// blank when neither names a seat.
    pub names: Vec<String>,
    /// Every recorded position, in order.
    pub positions: Vec<AnyGame>,
    /// For each position (same index): the think time of the move that led
    /// to it, where the server recorded one (Spielleiter's extension,
    /// [`THINK_TIME_ATTRIBUTE`](spielleiter_protocol::replay::THINK_TIME_ATTRIBUTE)).
    pub think_times: Vec<Option<Duration>>,
    /// The result, if the replay has one.
    pub result: Option<GameResult>,
    /// The texts of recorded room errors (a rule violation).
    pub errors: Vec<String>,
}

impl LoadedReplay {
    /// The seat that made the move leading to position `index`: the seat
    /// to move in the position before it. `None` for the first position
    /// and where the position before had nobody to move.
    pub fn mover(&self, index: usize) -> Option<usize> {
        let before = self.positions.get(index.checked_sub(1)?)?;
        spielleiter_rules::Game::player_to_move(before)
    }

    /// Each recorded think time with the seat whose move it was, in the
    /// order of the moves.
    pub fn seat_think_times(&self) -> impl Iterator<Item = (usize, Duration)> + '_ {
        self.think_times
            .iter()
            .enumerate()
            .filter_map(|(index, think)| Some((self.mover(index)?, (*think)?)))
    }
}

/// The finished replays in `dir`, newest first, at most [`LIST_LIMIT`].
/// Symbolic links are not listed.
///
/// # Errors
///
/// The directory cannot be read.
pub fn list(dir: &Path) -> std::io::Result<Vec<ReplayFile>> {
    let mut files: Vec<ReplayFile> = std::fs::read_dir(dir)?
        .filter_map(Result::ok)
        .filter_map(|entry| {
            let name = entry.file_name().into_string().ok()?;
            if !is_replay_name(&name) {
                return None;
            }
            // The entry's own metadata: a symbolic link is no file here.
            let metadata = entry.metadata().ok().filter(|m| m.is_file())?;
            Some(ReplayFile {
                game: game_of_name(&name),
                bytes: metadata.len(),
                modified: metadata.modified().unwrap_or(SystemTime::UNIX_EPOCH),
                name,
            })
        })
        .collect();
    files.sort_unstable_by(|a, b| b.modified.cmp(&a.modified).then(a.name.cmp(&b.name)));
    files.truncate(LIST_LIMIT);
    Ok(files)
}

/// Opens the finished replay `name` of `dir` for reading, decompressed:
/// only a finished replay's name ([`is_replay_name`]), and only a regular
/// file: a symbolic link is refused, not followed (on Unix it is not even
/// opened), so that a link placed in the directory shows nothing outside.
///
/// # Errors
///
/// [`LoadError::BadName`], [`LoadError::NotAFile`], or
/// [`LoadError::Open`].
pub fn open_named(dir: &Path, name: &str) -> Result<Box<dyn Read + Send>, LoadError> {
    let file = open_named_file(dir, name)?;
    Ok(decompressed(file, is_gzip_name(name)))
}

/// Opens the finished replay `name` of `dir` as it is stored (compressed
/// if its name ends in `.gz`), for a download: the same checks as
/// [`open_named`].
///
/// # Errors
///
/// [`LoadError::BadName`], [`LoadError::NotAFile`], or
/// [`LoadError::Open`].
pub fn open_named_file(dir: &Path, name: &str) -> Result<File, LoadError> {
    if !is_replay_name(name) {
        return Err(LoadError::BadName(name.to_owned()));
    }
    let file = open_no_follow(&dir.join(name)).map_err(|cause| {
        if is_symlink_refusal(&cause) {
            LoadError::NotAFile(name.to_owned())
        } else {
            LoadError::Open {
                file: name.to_owned(),
                cause,
            }
        }
    })?;
    let is_file = file.metadata().is_ok_and(|m| m.is_file());
    if !is_file {
        return Err(LoadError::NotAFile(name.to_owned()));
    }
    Ok(file)
}

/// Opens the wire log of the finished replay `name` of `dir`
/// (`--wire-log`), as stored: the file and whether it is gzip-compressed.
/// Only for a finished replay's name, and only a regular file, never
/// through a symbolic link (as [`open_named`]).
///
/// # Errors
///
/// [`LoadError::BadName`], [`LoadError::NotAFile`], or [`LoadError::Open`]
/// (not found when the game kept no wire log).
pub fn open_wire_log(dir: &Path, name: &str) -> Result<(File, bool), LoadError> {
    let candidates =
        names::wire_log_names(name).ok_or_else(|| LoadError::BadName(name.to_owned()))?;
    let mut missing = None;
    for candidate in candidates {
        match open_no_follow(&dir.join(&candidate)) {
            Ok(file) => {
                if !file.metadata().is_ok_and(|m| m.is_file()) {
                    return Err(LoadError::NotAFile(candidate));
                }
                return Ok((file, is_gzip_name(&candidate)));
            }
            Err(cause) if is_symlink_refusal(&cause) => return Err(LoadError::NotAFile(candidate)),
            Err(cause) if cause.kind() == std::io::ErrorKind::NotFound => {
                missing.get_or_insert(LoadError::Open {
                    file: candidate,
                    cause,
                });
            }
            Err(cause) => {
                return Err(LoadError::Open {
                    file: candidate,
                    cause,
                });
            }
        }
    }
    Err(missing.unwrap_or_else(|| LoadError::BadName(name.to_owned())))
}

/// Opens `path` for reading without following a symbolic link at its last
/// component, and without waiting: a named pipe put there opens at once
/// (and is then refused as no regular file) instead of blocking the reader
/// until someone writes to it. Reads of a regular file ignore the flag.
#[cfg(unix)]
pub(crate) fn open_no_follow(path: &Path) -> std::io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;

    use nix::fcntl::OFlag;
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags((OFlag::O_NOFOLLOW | OFlag::O_NONBLOCK).bits())
        .open(path)
}

#[cfg(not(unix))]
fn open_no_follow(path: &Path) -> std::io::Result<File> {
    if std::fs::symlink_metadata(path)?.file_type().is_symlink() {
        return Err(std::io::Error::from_raw_os_error(SYMLINK_REFUSED));
    }
    File::open(path)
}

/// The error `open` gives for a symbolic link with `O_NOFOLLOW` (ELOOP).
#[cfg(unix)]
const SYMLINK_REFUSED: i32 = nix::errno::Errno::ELOOP as i32;
#[cfg(not(unix))]
const SYMLINK_REFUSED: i32 = -1;

pub(crate) fn is_symlink_refusal(error: &std::io::Error) -> bool {
    error.raw_os_error() == Some(SYMLINK_REFUSED)
}

fn decompressed(file: File, gzip: bool) -> Box<dyn Read + Send> {
    decompressed_at_most(file, gzip, MAX_UNPACKED_REPLAY_BYTES)
}

/// `file` decompressed when `gzip`, failing once it gives more than
/// `bound` bytes: a few megabytes of gzip that unpack to many gigabytes
/// (or a huge file put in the directory) cost a reader of the list or the
/// viewer at most `bound` bytes of work, and say why they stopped instead
/// of passing for a replay that ends early.
pub(crate) fn decompressed_at_most(
    file: impl Read + Send + 'static,
    gzip: bool,
    bound: u64,
) -> Box<dyn Read + Send> {
    let reader: Box<dyn Read + Send> = if gzip {
        Box::new(GzDecoder::new(BufReader::new(file)))
    } else {
        Box::new(BufReader::new(file))
    };
    Box::new(Bounded {
        inner: reader,
        left: bound,
        bound,
    })
}

/// A reader that fails with [`std::io::ErrorKind::InvalidData`] once its
/// inner reader has more than `bound` bytes.
struct Bounded<R> {
    inner: R,
    left: u64,
    bound: u64,
}

impl<R: Read> Read for Bounded<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        if self.left == 0 {
            // One byte more tells a file of exactly `bound` bytes from a
            // longer one.
            let mut probe = [0u8; 1];
            return match self.inner.read(&mut probe)? {
                0 => Ok(0),
                _ => Err(std::io::Error::new(
                    std::io::ErrorKind::InvalidData,
                    format!("the replay unpacks to more than {} bytes", self.bound),
                )),
            };
        }
        let most = usize::try_from(self.left)
            .unwrap_or(usize::MAX)
            .min(buf.len());
        let n = self.inner.read(&mut buf[..most])?;
        self.left -= n as u64;
        Ok(n)
    }
}

/// Opens the replay file at `path` (a path a user gave: followed like any
/// other), decompressed when its name ends in `.gz`.
///
/// # Errors
///
/// The file cannot be opened.
pub fn open_path(path: &Path) -> std::io::Result<Box<dyn Read + Send>> {
    let file = File::open(path)?;
    Ok(decompressed(
        file,
        path.extension().is_some_and(|e| e == "gz"),
    ))
}

/// Reads the replay file at `path` as a replay of `game`.
///
/// # Errors
///
/// [`LoadError::Open`] or [`LoadError::Read`].
pub fn read_path(path: &Path, game: GameType) -> Result<Replay, LoadError> {
    let file = path.display().to_string();
    let input = open_path(path).map_err(|cause| LoadError::Open {
        file: file.clone(),
        cause,
    })?;
    read_replay(input, game).map_err(|cause| LoadError::Read { file, cause })
}

/// Loads the replay `name` of `dir` ([`open_named`]: never through a
/// symbolic link). Errors name the file by `name`, not by its path.
///
/// # Errors
///
/// As [`open_named`], or the file is no replay of a hosted game, or
/// records an inconsistent position.
pub fn load_named(dir: &Path, name: &str) -> Result<LoadedReplay, LoadError> {
    let name = resolve_name(dir, name)?;
    load_from(&name, || open_named(dir, &name))
}

/// The file name of the finished replay `name` names: `name` itself, or
/// (`NAME` without its ending, as the logs and the README name a replay)
/// the plain or compressed file of that name that is a regular file of
/// `dir`.
pub(crate) fn resolve_name(dir: &Path, name: &str) -> Result<String, LoadError> {
    if is_replay_name(name) {
        return Ok(name.to_owned());
    }
    [".xml", ".xml.gz"]
        .iter()
        .map(|ending| format!("{name}{ending}"))
        .find(|whole| {
            is_replay_name(whole)
                && std::fs::symlink_metadata(dir.join(whole)).is_ok_and(|m| m.is_file())
        })
        .ok_or_else(|| LoadError::BadName(name.to_owned()))
}

/// Reads the finished replay `name` of `dir` ([`open_named`]) as a replay
/// of the game its name names (each hosted game in turn for a name that
/// names none), without making positions of its states: what a summary
/// or an export needs. Errors name the file by `name`.
///
/// # Errors
///
/// As [`open_named`], or the file is no replay of a hosted game.
pub fn read_named(dir: &Path, name: &str) -> Result<(GameType, Replay), LoadError> {
    let name = resolve_name(dir, name)?;
    read_as_its_game(&name, &name, |game| {
        Ok(read_replay(open_named(dir, &name)?, game))
    })
}

/// Reads a gzipped replay held in memory (a season store's) as a replay
/// of `game`, at most [`MAX_UNPACKED_REPLAY_BYTES`] unpacked; `label`
/// names it in errors.
///
/// # Errors
///
/// The bytes are no gzipped replay of `game`.
pub fn read_gzipped(label: &str, game: GameType, gzipped: &[u8]) -> Result<Replay, LoadError> {
    let input = Bounded {
        inner: GzDecoder::new(gzipped),
        left: MAX_UNPACKED_REPLAY_BYTES,
        bound: MAX_UNPACKED_REPLAY_BYTES,
    };
    read_replay(input, game).map_err(|cause| LoadError::Read {
        file: label.to_owned(),
        cause,
    })
}

/// What the list of replays shows of one: read from the whole file, but
/// without making positions of its states.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplaySummary {
    /// The game.
    pub game: GameType,
    /// The players' display names in seat order (see
    /// [`LoadedReplay::names`]).
    pub names: Vec<String>,
    /// The winners' seats (none without a result or a winner).
    pub winners: Vec<usize>,
    /// Whether the replay has a result.
    pub finished: bool,
    /// The last recorded state's turn.
    pub turns: u32,
}

impl ReplaySummary {
    /// The summary of a replay of `game` from its outline.
    pub fn of(game: GameType, outline: &ReplayOutline) -> ReplaySummary {
        ReplaySummary {
            game,
            names: display_names(outline.first.as_ref(), outline.result.as_ref()),
            winners: outline
                .result
                .as_ref()
                .map(|r| r.winners.iter().map(|w| w.seat).collect())
                .unwrap_or_default(),
            finished: outline.result.is_some(),
            turns: outline.last.as_ref().map_or(0, GameState::turn),
        }
    }
}

/// The summary of the finished replay `name` of `dir` ([`open_named`]),
/// read as a replay of the game its name names (each hosted game in turn
/// for a name that names none), decoding only its first and last state and
/// its result ([`read_replay_outline`]). Errors name the file by `name`.
///
/// # Errors
///
/// As [`open_named`], or the file is no replay of a hosted game.
pub fn summary_named(dir: &Path, name: &str) -> Result<ReplaySummary, LoadError> {
    let name = resolve_name(dir, name)?;
    let (game, outline) = read_as_its_game(&name, &name, |game| {
        Ok(read_replay_outline(open_named(dir, &name)?, game))
    })?;
    Ok(ReplaySummary::of(game, &outline))
}

/// The players' display names in seat order: as the first state carries
/// them, else (the states of 2022 and 2027 name nobody) as the result
/// does; blank when neither names a seat.
fn display_names(first: Option<&GameState>, result: Option<&GameResult>) -> Vec<String> {
    let mut names = first.map(GameState::display_names).unwrap_or_default();
    if let Some(result) = result {
        names.resize(names.len().max(result.scores.len()), String::new());
        for (name, score) in names.iter_mut().zip(&result.scores) {
            if name.is_empty() {
                name.clone_from(&score.display_name);
            }
        }
    }
    names
}

/// The most bytes a replay may unpack to, held in memory ([`load_gzipped`])
/// or read from a file ([`open_named`], [`open_path`]): far above a real
/// game's, so that a corrupt or hostile file cannot fill the memory or keep
/// a reader busy without end.
pub const MAX_UNPACKED_REPLAY_BYTES: u64 = 256 << 20;

/// Loads a gzipped replay held in memory (a season store's) as a replay of
/// `game`; `label` names it in errors. At most
/// [`MAX_UNPACKED_REPLAY_BYTES`] are unpacked.
///
/// # Errors
///
/// The bytes are no gzipped replay of `game`, or record an inconsistent
/// position.
pub fn load_gzipped(
    label: &str,
    game: GameType,
    gzipped: &[u8],
) -> Result<LoadedReplay, LoadError> {
    let replay = read_gzipped(label, game, gzipped)?;
    positions(label, game, replay)
}

/// Loads the replay at `path` (plain, or gzip-compressed when the name ends
/// in `.gz`). The game is the one the file name names; a file named
/// otherwise is tried as a replay of each hosted game in turn.
///
/// # Errors
///
/// [`LoadError`]: the file cannot be opened, is no replay of a hosted game,
/// or records an inconsistent position.
pub fn load(path: &Path) -> Result<LoadedReplay, LoadError> {
    let file = path.display().to_string();
    load_from(&file, || {
        open_path(path).map_err(|cause| LoadError::Open {
            file: file.clone(),
            cause,
        })
    })
}

/// Loads a replay read from what `open` opens (once per game tried);
/// `file` names it in errors and says its game.
fn load_from(
    file: &str,
    open: impl Fn() -> Result<Box<dyn Read + Send>, LoadError>,
) -> Result<LoadedReplay, LoadError> {
    let name = Path::new(file)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let (game, replay) = read_as_its_game(file, &name, |game| Ok(read_replay(open()?, game)))?;
    positions(file, game, replay)
}

/// Reads a replay with `read` as one of the game the file name `name`
/// names, or (a name that names none) of each hosted game in turn until
/// one fits; `file` names it in errors, which are the first game's.
pub(crate) fn read_as_its_game<T>(
    file: &str,
    name: &str,
    mut read: impl FnMut(GameType) -> Result<Result<T, ReplayError>, LoadError>,
) -> Result<(GameType, T), LoadError> {
    let candidates: Vec<GameType> = match game_of_name(name) {
        Some(game) => vec![game],
        None => GameType::ALL.to_vec(),
    };
    let mut first_error = None;
    for game in candidates {
        match read(game)? {
            Ok(read) => return Ok((game, read)),
            Err(cause) => {
                first_error.get_or_insert(cause);
            }
        }
    }
    Err(LoadError::Read {
        file: file.to_owned(),
        cause: first_error
            .unwrap_or_else(|| ReplayError::Io(std::io::Error::other("no hosted game to try"))),
    })
}

pub(crate) fn positions(
    file: &str,
    game: GameType,
    replay: Replay,
) -> Result<LoadedReplay, LoadError> {
    let names = display_names(replay.states.first(), replay.result.as_ref());
    let positions = replay
        .states
        .iter()
        .enumerate()
        .map(|(index, state)| {
            state.to_game().map_err(|invalid| LoadError::Position {
                file: file.to_owned(),
                index,
                reason: invalid.reason,
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    let mut think_times = replay.think_times;
    think_times.resize(positions.len(), None);
    Ok(LoadedReplay {
        game,
        room_id: replay.room_id,
        names,
        positions,
        think_times,
        result: replay.result,
        errors: replay.errors,
    })
}

/// How long after a game's end its replay may take to appear (the server
/// publishes it after sending the result, syncing it first: milliseconds
/// as a rule, 23 ms at most in the Swarm test's workers); a replay that
/// comes later than this is stored nowhere, so the wait is generous. It is
/// only ever spent in full on a game whose replay never comes.
pub const PUBLISH_PATIENCE: Duration = Duration::from_secs(10);
/// How often the directory is looked at meanwhile.
const POLL_INTERVAL: Duration = Duration::from_millis(20);
/// The first packet starts within this many bytes of the file.
const HEAD_BYTES: u64 = 256;

/// Waits for the finished replay of room `room` in `dir`; `None` if none
/// appears in time. The file named after the room is the game's, or else
/// (a replay named otherwise) the file modified since `since` whose first
/// packet names the room ([`find_room`]).
pub async fn find_published(dir: &Path, room: &str, since: SystemTime) -> Option<PathBuf> {
    let started = tokio::time::Instant::now();
    let deadline = started + PUBLISH_PATIENCE;
    loop {
        let (dir_owned, room_owned) = (dir.to_owned(), room.to_owned());
        let found = tokio::task::spawn_blocking(move || find_room(&dir_owned, &room_owned, since))
            .await
            .ok()
            .flatten();
        if let Some(path) = found {
            tracing::debug!(room, path = %path.display(), waited_ms = started.elapsed().as_millis() as u64, "the room's replay is published");
            return Some(path);
        }
        if tokio::time::Instant::now() >= deadline {
            let (dir_owned, room_owned) = (dir.to_owned(), room.to_owned());
            let seen = tokio::task::spawn_blocking(move || room_files(&dir_owned, &room_owned))
                .await
                .unwrap_or_else(|error| Err(error.to_string()));
            tracing::warn!(
                room,
                dir = %dir.display(),
                waited_ms = started.elapsed().as_millis() as u64,
                since_ms = millis_since_epoch(since),
                files = %describe(&seen, since),
                "the room's replay did not appear"
            );
            return None;
        }
        tokio::time::sleep(POLL_INTERVAL).await;
    }
}

/// A file of `dir` whose name names a room (finished or not), with its
/// modification time: what [`find_published`] reports when it gives up.
#[derive(Clone, Debug, PartialEq, Eq)]
struct RoomFile {
    name: String,
    modified: Option<SystemTime>,
}

/// The files of `dir` whose names contain `room` (its replay at any step
/// of its life: partial, finished, unfinished), or the error reading it.
fn room_files(dir: &Path, room: &str) -> Result<Vec<RoomFile>, String> {
    let room = names::sanitize(room);
    let entries = std::fs::read_dir(dir).map_err(|error| error.to_string())?;
    Ok(entries
        .filter_map(Result::ok)
        .filter_map(|entry| {
            let name = entry.file_name().into_string().ok()?;
            name.contains(&room).then(|| RoomFile {
                modified: entry.metadata().ok().and_then(|m| m.modified().ok()),
                name,
            })
        })
        .collect())
}

/// `files` as one line: each name with its modification time relative to
/// `since`, the game's start (negative: stamped before it), or why there
/// are none.
fn describe(files: &Result<Vec<RoomFile>, String>, since: SystemTime) -> String {
    match files {
        Err(error) => format!("cannot read the directory: {error}"),
        Ok(files) if files.is_empty() => "none names the room".to_owned(),
        Ok(files) => files
            .iter()
            .map(|file| match file.modified {
                Some(modified) => {
                    let after = match modified.duration_since(since) {
                        Ok(later) => later.as_secs_f64() * 1e3,
                        Err(earlier) => -earlier.duration().as_secs_f64() * 1e3,
                    };
                    format!("{} (modified {after:+.3} ms after the start)", file.name)
                }
                None => format!("{} (no modification time)", file.name),
            })
            .collect::<Vec<_>>()
            .join(", "),
    }
}

fn millis_since_epoch(time: SystemTime) -> u64 {
    time.duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

/// How far a file's modification time may lie before the moment it was
/// written, as the clock `since` is read with sees it: file systems stamp
/// files with a coarse clock (the last scheduler tick, up to 10 ms behind;
/// whole seconds on some), and a game between two built-in bots lasts a
/// few milliseconds, so its replay can be "modified" before the game began.
const TIMESTAMP_SLACK: Duration = Duration::from_secs(2);

/// The finished replay of room `room` in `dir`, if there is one now (see
/// [`find_published`]): the file named after the room whatever its time
/// (room ids are unique: the name is proof, and a file's time is not
/// exact), else a file named otherwise, modified since `since` (less
/// `TIMESTAMP_SLACK`), whose first packet names the room.
pub fn find_room(dir: &Path, room: &str, since: SystemTime) -> Option<PathBuf> {
    let since = since.checked_sub(TIMESTAMP_SLACK).unwrap_or(since);
    let mut others = Vec::new();
    for entry in std::fs::read_dir(dir).ok()?.filter_map(Result::ok) {
        let Ok(name) = entry.file_name().into_string() else {
            continue;
        };
        if !(name.starts_with("replay_") && is_replay_name(&name)) {
            continue;
        }
        let Some(metadata) = entry.metadata().ok().filter(|m| m.is_file()) else {
            continue;
        };
        if names::names_room(&name, room) {
            return Some(dir.join(name));
        }
        if metadata.modified().is_ok_and(|modified| modified >= since) {
            others.push(name);
        }
    }
    let needle = format!("roomId=\"{room}\"");
    others
        .into_iter()
        .find(|name| head(dir, name).contains(&needle))
        .map(|name| dir.join(name))
}

/// The first bytes of a finished replay, decompressed.
fn head(dir: &Path, name: &str) -> String {
    let mut buf = Vec::new();
    if let Ok(reader) = open_named(dir, name) {
        let _ = reader.take(HEAD_BYTES).read_to_end(&mut buf);
    }
    String::from_utf8_lossy(&buf).into_owned()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use std::io::Write;

    use super::*;

    fn temp_dir(name: &str) -> PathBuf {
        tempfile::Builder::new()
            .prefix(&format!("spielleiter-archive-{name}-"))
            .tempdir()
            .unwrap()
            .keep()
    }

    fn gzip(path: &Path, text: &str) {
        let mut encoder = flate2::write::GzEncoder::new(
            File::create(path).unwrap(),
            flate2::Compression::default(),
        );
        encoder.write_all(text.as_bytes()).unwrap();
        encoder.finish().unwrap();
    }

    #[test]
    fn a_replay_that_unpacks_beyond_the_bound_is_refused_not_read_to_its_end() {
        let dir = temp_dir("bomb");
        // A gzipped file whose few bytes unpack to far more than the
        // bound: its reader stops at the bound with an error instead of
        // reading (and summarising) it whole.
        let mut text = String::from("<protocol>\n");
        text.push_str(&" ".repeat(64 * 1024));
        let name = "replay_swc_2021_blokus_big.xml.gz";
        gzip(&dir.join(name), &text);
        let file = open_named_file(&dir, name).unwrap();
        let mut reader = decompressed_at_most(file, true, 4096);
        let mut read = Vec::new();
        let error = reader.read_to_end(&mut read).unwrap_err();
        assert_eq!(error.kind(), std::io::ErrorKind::InvalidData);
        assert!(error.to_string().contains("4096 bytes"), "{error}");
        assert!(read.len() <= 4096, "{} bytes read", read.len());
        // Within the bound the same file reads to its end.
        let file = open_named_file(&dir, name).unwrap();
        let mut read = Vec::new();
        decompressed_at_most(file, true, 1 << 20)
            .read_to_end(&mut read)
            .unwrap();
        assert_eq!(read, text.as_bytes());
        std::fs::remove_dir_all(dir).ok();
    }

    #[tokio::test]
    async fn the_replay_naming_the_room_is_found_also_gzipped() {
        let dir = temp_dir("find");
        let since = SystemTime::now() - Duration::from_secs(5);
        let replay = |room: &str| format!("<protocol>\n<room roomId=\"{room}\">\n</protocol>");
        std::fs::write(dir.join("replay_x_a_b.xml"), replay("one")).unwrap();
        std::fs::write(dir.join("other.xml"), replay("two")).unwrap();
        let gz = dir.join("replay_x_a_b_2.xml.gz");
        gzip(&gz, &replay("three"));

        assert_eq!(
            find_published(&dir, "one", since).await,
            Some(dir.join("replay_x_a_b.xml"))
        );
        assert_eq!(find_published(&dir, "three", since).await, Some(gz));
        // Not a replay file name, and too old: not found.
        assert_eq!(find_room(&dir, "two", since), None);
        let later = SystemTime::now() + Duration::from_secs(60);
        assert_eq!(find_room(&dir, "one", later), None);
        // The server's names end with the room id: found by the name alone.
        let named = dir.join("replay_x_c_d_four.xml.gz");
        std::fs::write(&named, "not read").unwrap();
        assert_eq!(find_published(&dir, "four", since).await, Some(named));
        std::fs::remove_dir_all(dir).ok();
    }

    #[test]
    fn a_replay_stamped_before_its_game_began_is_found_all_the_same() {
        let dir = temp_dir("coarse");
        // The game began now; the file system's coarse clock stamped its
        // replay a few milliseconds earlier (a game of two built-in bots).
        let began = SystemTime::now();
        let stamped = began - Duration::from_millis(3);
        let stamp = |path: &Path, time: SystemTime| {
            File::options()
                .write(true)
                .open(path)
                .unwrap()
                .set_modified(time)
                .unwrap();
        };
        let named = dir.join("replay_x_t_a_b_room-5.xml");
        std::fs::write(&named, "<protocol>\n</protocol>").unwrap();
        stamp(&named, stamped);
        assert_eq!(find_room(&dir, "room-5", began), Some(named.clone()));
        // The name is proof, whatever the time says.
        stamp(&named, began - Duration::from_secs(3600));
        assert_eq!(find_room(&dir, "room-5", began), Some(named));
        // A replay named otherwise is read when its time is about the
        // game's, not when it is older.
        let other = dir.join("replay_x_t_c_d.xml");
        std::fs::write(&other, "<protocol>\n<room roomId=\"room-6\">\n</protocol>").unwrap();
        stamp(&other, stamped);
        assert_eq!(find_room(&dir, "room-6", began), Some(other.clone()));
        stamp(&other, began - Duration::from_secs(3600));
        assert_eq!(find_room(&dir, "room-6", began), None);
        std::fs::remove_dir_all(dir).ok();
    }

    #[cfg(unix)]
    #[test]
    fn a_symbolic_link_in_the_directory_is_neither_listed_nor_opened() {
        let dir = temp_dir("links");
        let outside = temp_dir("outside");
        let secret = outside.join("secret.xml");
        std::fs::write(&secret, "<protocol>\n<room roomId=\"s\">\n</protocol>").unwrap();
        std::os::unix::fs::symlink(&secret, dir.join("replay_link.xml")).unwrap();
        std::fs::write(dir.join("replay_real.xml"), "<protocol>\n</protocol>").unwrap();

        let names: Vec<String> = list(&dir).unwrap().into_iter().map(|f| f.name).collect();
        assert_eq!(names, ["replay_real.xml"]);
        let refused = open_named(&dir, "replay_link.xml").err().expect("refused");
        assert!(matches!(refused, LoadError::NotAFile(_)), "{refused:?}");
        let refused = load_named(&dir, "replay_link.xml").expect_err("refused");
        assert!(matches!(refused, LoadError::NotAFile(_)), "{refused:?}");
        assert!(!refused.to_string().contains(&*outside.to_string_lossy()));
        assert_eq!(find_room(&dir, "s", SystemTime::UNIX_EPOCH), None);
        // Nor is a named pipe waited on.
        nix::unistd::mkfifo(
            &dir.join("replay_pipe.xml"),
            nix::sys::stat::Mode::S_IRUSR | nix::sys::stat::Mode::S_IWUSR,
        )
        .unwrap();
        let refused = open_named(&dir, "replay_pipe.xml").err().expect("refused");
        assert!(matches!(refused, LoadError::NotAFile(_)), "{refused:?}");
        // The real file opens.
        let mut text = String::new();
        let Ok(mut real) = open_named(&dir, "replay_real.xml") else {
            panic!("a regular replay file opens");
        };
        real.read_to_string(&mut text).unwrap();
        assert_eq!(text, "<protocol>\n</protocol>");
        std::fs::remove_dir_all(dir).ok();
        std::fs::remove_dir_all(outside).ok();
    }

    #[test]
    fn errors_of_a_named_replay_name_it_not_the_directory() {
        let dir = temp_dir("errors");
        std::fs::write(dir.join("replay_swc_2021_blokus_x.xml"), "<protocol><room").unwrap();
        for name in [
            "replay_swc_2021_blokus_x.xml",
            "replay_missing.xml",
            "../x.xml",
        ] {
            let error = load_named(&dir, name).expect_err("no replay");
            let mut text = error.to_string();
            let mut source = std::error::Error::source(&error);
            while let Some(cause) = source {
                text.push_str(&format!(": {cause}"));
                source = cause.source();
            }
            assert!(!text.contains(&*dir.to_string_lossy()), "{text}");
            assert!(text.contains(name.trim_start_matches("../")), "{text}");
        }
        assert!(
            load_named(&dir, "replay_missing.xml")
                .expect_err("missing")
                .is_not_found()
        );
        std::fs::remove_dir_all(dir).ok();
    }

    #[test]
    fn the_cause_is_not_repeated_in_the_message() {
        let error = load(Path::new("/nonexistent/replay.xml")).expect_err("missing");
        assert_eq!(error.to_string(), "cannot open /nonexistent/replay.xml");
        assert!(error.is_not_found());
    }
}
