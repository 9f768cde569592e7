//! Replay files on disk: the finished replays of a directory, and one
//! replay loaded as positions of the rules (for the viewer, `render` and
//! `replay show`).
//!
//! Only finished replays are listed (`NAME.xml`, `NAME.xml.gz`); a game
//! still running writes `NAME.xml.partial`, which is never shown. A name
//! is looked up only if it is a plain file name of the directory.

use std::{
    fs::File,
    io::{BufReader, Read},
    path::{Path, PathBuf},
    time::SystemTime,
};

use flate2::read::GzDecoder;
use spielleiter_protocol::{GameState, ReplayError, read_replay, result::GameResult};
use spielleiter_rules::{AnyGame, GameType};

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

/// Why a replay cannot be loaded.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LoadError {
    /// The name is not a replay file's name.
    #[error("{0:?} is not the name of a finished replay")]
    BadName(String),
    /// The file cannot be opened.
    #[error("cannot open {path}: {cause}")]
    Open {
        /// The file.
        path: PathBuf,
        /// Why (in the message, so not also a `source`: an error chain
        /// prints every cause once).
        cause: std::io::Error,
    },
    /// The file is no replay of any hosted game.
    #[error("{path} is no replay of a hosted game: {cause}")]
    Read {
        /// The file.
        path: PathBuf,
        /// What went wrong reading it as a replay of the game its name
        /// names (or of the first game tried); in the message, not a
        /// `source`.
        cause: ReplayError,
    },
    /// A recorded state is not a consistent position.
    #[error("{path}: state {index} is not a consistent position: {reason}")]
    Position {
        /// The file.
        path: PathBuf,
        /// The state's index in the file.
        index: usize,
        /// What is wrong.
        reason: String,
    },
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
    /// The result, if the replay has one.
    pub result: Option<GameResult>,
    /// The texts of recorded room errors (a rule violation).
    pub errors: Vec<String>,
}

/// Whether `name` is the name of a finished replay file: a plain file name
/// ending in `.xml` or `.xml.gz`.
pub fn is_replay_name(name: &str) -> bool {
    let plain = !name.is_empty()
        && !name.starts_with('.')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'));
    plain && (name.ends_with(".xml") || name.ends_with(".xml.gz"))
}

/// The game a replay's file name names (`replay_<gameType>_…`).
pub fn game_of_name(name: &str) -> Option<GameType> {
    let rest = name.strip_prefix("replay_")?;
    // The longest id that fits: `blokus_classic` is a prefix of
    // `blokus_classic_3`, followed by `_` like any id.
    GameType::ALL
        .iter()
        .copied()
        .filter(|game| {
            rest.strip_prefix(game.id())
                .is_some_and(|after| after.starts_with('_') || after.starts_with('.'))
        })
        .max_by_key(|game| game.id().len())
}

/// The finished replays in `dir`, newest first, at most [`LIST_LIMIT`].
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

/// Loads the replay `name` of `dir`.
///
/// # Errors
///
/// [`LoadError::BadName`] unless `name` is a replay file name, else as
/// [`load`].
pub fn load_named(dir: &Path, name: &str) -> Result<LoadedReplay, LoadError> {
    if !is_replay_name(name) {
        // `NAME` without its ending, as a replay is named in the logs and
        // the README: the file it names, plain or compressed.
        let whole = [".xml", ".xml.gz"]
            .iter()
            .map(|ending| format!("{name}{ending}"))
            .find(|whole| is_replay_name(whole) && dir.join(whole).is_file());
        return match whole {
            Some(whole) => load(&dir.join(whole)),
            None => Err(LoadError::BadName(name.to_owned())),
        };
    }
    load(&dir.join(name))
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
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let candidates: Vec<GameType> = match game_of_name(&name) {
        Some(game) => vec![game],
        None => GameType::ALL.to_vec(),
    };
    let mut first_error = None;
    for game in candidates {
        match read(path, game) {
            Ok(replay) => return positions(path, game, replay),
            Err(LoadError::Read { cause, .. }) => {
                first_error.get_or_insert(cause);
            }
            Err(other) => return Err(other),
        }
    }
    Err(LoadError::Read {
        path: path.to_owned(),
        cause: first_error
            .unwrap_or_else(|| ReplayError::Io(std::io::Error::other("no hosted game to try"))),
    })
}

fn read(path: &Path, game: GameType) -> Result<spielleiter_protocol::Replay, LoadError> {
    let file = File::open(path).map_err(|cause| LoadError::Open {
        path: path.to_owned(),
        cause,
    })?;
    let input: Box<dyn Read> = if path.extension().is_some_and(|e| e == "gz") {
        Box::new(GzDecoder::new(BufReader::new(file)))
    } else {
        Box::new(file)
    };
    read_replay(input, game).map_err(|cause| LoadError::Read {
        path: path.to_owned(),
        cause,
    })
}

fn positions(
    path: &Path,
    game: GameType,
    replay: spielleiter_protocol::Replay,
) -> Result<LoadedReplay, LoadError> {
    let mut names = replay
        .states
        .first()
        .map(GameState::display_names)
        .unwrap_or_default();
    if let Some(result) = &replay.result {
        names.resize(names.len().max(result.scores.len()), String::new());
        for (name, score) in names.iter_mut().zip(&result.scores) {
            if name.is_empty() {
                name.clone_from(&score.display_name);
            }
        }
    }
    let positions = replay
        .states
        .iter()
        .enumerate()
        .map(|(index, state)| {
            state.to_game().map_err(|invalid| LoadError::Position {
                path: path.to_owned(),
                index,
                reason: invalid.reason,
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(LoadedReplay {
        game,
        room_id: replay.room_id,
        names,
        positions,
        result: replay.result,
        errors: replay.errors,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_plain_finished_replay_names_are_accepted() {
        assert!(is_replay_name("replay_swc_2021_blokus_2024-01-01_a_b.xml"));
        assert!(is_replay_name("x.xml.gz"));
        for bad in [
            "",
            "x.xml.partial",
            "../x.xml",
            "a/b.xml",
            ".hidden.xml",
            "x.txt",
            "x y.xml",
        ] {
            assert!(!is_replay_name(bad), "{bad:?}");
        }
    }

    #[test]
    fn the_game_comes_from_the_name() {
        assert_eq!(
            game_of_name("replay_swc_2021_blokus_2024-05-01T10-00-00_a_b.xml"),
            Some(GameType::Blokus2021)
        );
        assert_eq!(
            game_of_name("replay_blokus_classic_3_2026-11-25_a_b_c_r1.xml"),
            Some(GameType::BlokusClassic3)
        );
        assert_eq!(
            game_of_name("replay_blokus_classic_2026-11-25_a_b_c_d_r1.xml"),
            Some(GameType::BlokusClassic)
        );
        assert_eq!(game_of_name("replay_chess_x.xml"), None);
        assert_eq!(game_of_name("swc_2021_blokus.xml"), None);
    }
}
