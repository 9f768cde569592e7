//! [`ResultsFile`]: the results file of a match or tournament, one JSON
//! object per finished game and line, appended as games end: what users
//! read, and what a match resumes from (a line cut short by an
//! interruption is dropped, a file of another match refused). The games
//! themselves are played and kept by a season's store
//! (`spielleiter_season`); the file is written beside it.

use std::{
    fs::{self, File, OpenOptions},
    io::{self, Write},
    path::{Path, PathBuf},
};

use crate::{
    error::ArenaError,
    record::{GameRecord, MatchKey},
};

/// The results file of a match or tournament: one JSON object per line,
/// one line per finished game, in the order the games ended.
#[derive(Debug)]
pub struct ResultsFile {
    path: PathBuf,
    /// Open for appending once the file has been loaded (or on the first
    /// append).
    file: Option<File>,
}

impl ResultsFile {
    /// The results file at `path`; nothing is read or created yet.
    pub fn new(path: impl Into<PathBuf>) -> ResultsFile {
        ResultsFile {
            path: path.into(),
            file: None,
        }
    }

    /// Opens (creating if needed) the results file of a match and reads the
    /// games it already holds, in the order they were appended; a last
    /// line cut short by an interruption is dropped from the file, so that
    /// game is played again.
    ///
    /// # Errors
    ///
    /// The file cannot be read or written, a complete line is not a game
    /// record, or the records are of another match than `key` (another
    /// game, other names, or other programs under the same names).
    pub fn open(path: &Path, key: &MatchKey) -> Result<(ResultsFile, Vec<GameRecord>), ArenaError> {
        let mut file = ResultsFile::new(path);
        let records = file.load()?;
        if let Some(other) = records.iter().find(|r| !MatchKey::of(r).fits(key)) {
            return Err(ArenaError::OtherMatch {
                path: path.to_owned(),
                found: MatchKey::of(other).to_string(),
                expected: key.to_string(),
            });
        }
        Ok((file, records))
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn io_error(&self, cause: io::Error) -> ArenaError {
        ArenaError::ResultsFile {
            path: self.path.clone(),
            cause,
        }
    }

    /// The file open for appending, its directory created if need be.
    fn appender(&mut self) -> Result<&mut File, ArenaError> {
        let file = match self.file.take() {
            Some(file) => file,
            None => {
                if let Some(dir) = self.path.parent().filter(|d| !d.as_os_str().is_empty()) {
                    fs::create_dir_all(dir).map_err(|e| self.io_error(e))?;
                }
                OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(&self.path)
                    .map_err(|e| self.io_error(e))?
            }
        };
        Ok(self.file.insert(file))
    }

    /// Reads the games the file holds (none if it does not exist), in the
    /// order they were appended, and opens it for appending. A last line
    /// cut short by an interruption is dropped from the file, so that game
    /// is played again.
    ///
    /// # Errors
    ///
    /// The file cannot be read or written, or a complete line is not a
    /// game record.
    fn load(&mut self) -> Result<Vec<GameRecord>, ArenaError> {
        let text = match fs::read_to_string(&self.path) {
            Ok(text) => text,
            Err(error) if error.kind() == io::ErrorKind::NotFound => String::new(),
            Err(error) => return Err(self.io_error(error)),
        };
        let (records, complete_len) = parse_records(&self.path, &text)?;
        if complete_len < text.len() {
            let file = OpenOptions::new()
                .write(true)
                .open(&self.path)
                .map_err(|e| self.io_error(e))?;
            file.set_len(complete_len as u64)
                .map_err(|e| self.io_error(e))?;
        }
        self.appender()?;
        Ok(records)
    }

    /// Appends one record as a line, written in one piece and flushed (a
    /// crash right after does not lose it).
    ///
    /// # Errors
    ///
    /// The file cannot be written.
    pub fn append(&mut self, record: &GameRecord) -> Result<(), ArenaError> {
        let mut line = serde_json::to_vec(record).map_err(|e| self.io_error(e.into()))?;
        line.push(b'\n');
        let file = self.appender()?;
        let written = file.write_all(&line).and_then(|()| file.flush());
        written.map_err(|e| self.io_error(e))
    }
}

/// Parses every complete line; returns the records and the length of the
/// text that holds them. A last line without line break (an interrupted
/// write) is left out.
fn parse_records(path: &Path, text: &str) -> Result<(Vec<GameRecord>, usize), ArenaError> {
    let mut records = Vec::new();
    let mut complete_len = 0;
    for (number, line) in text.split_inclusive('\n').enumerate() {
        let content = line.trim();
        if content.is_empty() {
            complete_len += line.len();
            continue;
        }
        if !line.ends_with('\n') {
            // Only the last line can lack its line break: a write cut short
            // by an interruption. That game is played again.
            break;
        }
        let record =
            serde_json::from_str::<GameRecord>(content).map_err(|error| ArenaError::BadRecord {
                path: path.to_owned(),
                line: number + 1,
                reason: error.to_string(),
            })?;
        records.push(record);
        complete_len += line.len();
    }
    Ok((records, complete_len))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use crate::record::{Cause, missing_games};

    fn record(game: u32, win_points: [u32; 2], causes: [Cause; 2]) -> GameRecord {
        GameRecord {
            game,
            game_type: "swc_2021_blokus".to_owned(),
            players: names().to_vec(),
            commands: commands().to_vec(),
            starter: if game % 2 == 1 { 1 } else { 2 },
            win_points: win_points.to_vec(),
            points: vec![50, 40],
            causes: causes.to_vec(),
            reasons: vec![String::new(), String::new()],
            duration_ms: 120,
            room: format!("room-{game}"),
            replay: None,
            think_times: Vec::new(),
        }
    }

    fn names() -> [String; 2] {
        ["alice".to_owned(), "bob".to_owned()]
    }

    fn commands() -> [String; 2] {
        ["./alice --fast".to_owned(), "builtin:greedy".to_owned()]
    }

    fn key() -> MatchKey {
        MatchKey {
            game_type: "swc_2021_blokus".to_owned(),
            players: names().to_vec(),
            commands: commands().to_vec(),
        }
    }

    #[test]
    fn records_survive_a_round_trip_through_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub/results.jsonl");
        let (mut file, old) = ResultsFile::open(&path, &key()).unwrap();
        assert!(old.is_empty());
        let games = [
            record(1, [2, 0], [Cause::Regular; 2]),
            record(3, [0, 2], [Cause::SoftTimeout, Cause::Regular]),
        ];
        for game in &games {
            file.append(game).unwrap();
        }
        drop(file);
        let (_, read) = ResultsFile::open(&path, &key()).unwrap();
        assert_eq!(read, games);
        assert_eq!(missing_games(&read, 4), [2, 4]);
        let text = fs::read_to_string(&path).unwrap();
        assert!(
            text.contains(r#""causes":["SOFT_TIMEOUT","REGULAR"]"#),
            "{text}"
        );
    }

    #[test]
    fn a_line_cut_short_is_dropped_and_the_file_continues_cleanly() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("results.jsonl");
        let whole = serde_json::to_string(&record(1, [1, 1], [Cause::Regular; 2])).unwrap();
        let cut = &serde_json::to_string(&record(2, [2, 0], [Cause::Regular; 2])).unwrap()[..40];
        fs::write(&path, format!("{whole}\n{cut}")).unwrap();
        let (mut file, read) = ResultsFile::open(&path, &key()).unwrap();
        assert_eq!(read.len(), 1);
        file.append(&record(2, [2, 0], [Cause::Regular; 2]))
            .unwrap();
        let (_, read) = ResultsFile::open(&path, &key()).unwrap();
        assert_eq!(read.iter().map(|r| r.game).collect::<Vec<_>>(), [1, 2]);
    }

    #[test]
    fn a_broken_line_in_the_middle_or_other_players_are_errors() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("results.jsonl");
        fs::write(&path, "{not json}\n\n").unwrap();
        assert!(matches!(
            ResultsFile::open(&path, &key()),
            Err(ArenaError::BadRecord { line: 1, .. })
        ));
        let line = serde_json::to_string(&record(1, [2, 0], [Cause::Regular; 2])).unwrap();
        fs::write(&path, format!("{line}\n")).unwrap();
        let others = MatchKey {
            players: vec!["carol".to_owned(), "bob".to_owned()],
            ..key()
        };
        assert!(matches!(
            ResultsFile::open(&path, &others),
            Err(ArenaError::OtherMatch { .. })
        ));
    }

    #[test]
    fn the_same_names_with_other_programs_or_another_game_are_another_match() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("results.jsonl");
        let line = serde_json::to_string(&record(1, [2, 0], [Cause::Regular; 2])).unwrap();
        fs::write(&path, format!("{line}\n")).unwrap();
        assert!(ResultsFile::open(&path, &key()).is_ok());
        let other_program = MatchKey {
            commands: vec!["./alice --slow".to_owned(), "builtin:greedy".to_owned()],
            ..key()
        };
        let error = ResultsFile::open(&path, &other_program).unwrap_err();
        let text = error.to_string();
        assert!(
            text.contains("alice (./alice --fast) vs bob (builtin:greedy)"),
            "{text}"
        );
        assert!(text.contains("alice (./alice --slow)"), "{text}");
        let other_game = MatchKey {
            game_type: "swc_2027_blokus".to_owned(),
            ..key()
        };
        assert!(ResultsFile::open(&path, &other_game).is_err());
        // A record of an older version (no game, no commands) still fits.
        let old = line
            .replace(r#""game_type":"swc_2021_blokus","#, "")
            .replace(r#""commands":["./alice --fast","builtin:greedy"],"#, "");
        assert!(!old.contains("commands"), "{old}");
        fs::write(&path, format!("{old}\n")).unwrap();
        assert!(ResultsFile::open(&path, &key()).is_ok());
    }
}
