//! [`DirArchive`]: the archive of a replay directory, as `serve` and
//! `match` write it. A game's key is its replay's file name; its parts are
//! files named after the replay's stem: the replay (`STEM.xml` or
//! `STEM.xml.gz`, the official format, which the official readers open),
//! the wire log (`STEM.wire.txt[.gz]`), and, for a game stored through
//! [`GameArchive::store`], the record (`STEM.record.json`) and each
//! player's log (`STEM.player1.log`, …). Files are only ever opened by a
//! name of this form, never through a symbolic link.
//!
//! The server's replay thread writes a running game's replay and wire log
//! straight into the directory (the hot path stays in the server); what it
//! publishes is read here like a game stored through the interface.

use std::{
    io::Read,
    path::{Path, PathBuf},
};

use crate::{
    directory::{
        self, LoadError, is_symlink_refusal, open_named_file, open_no_follow, open_wire_log,
        resolve_name,
    },
    game_archive::{
        ArchiveError, ArchiveFuture, ArchivedGame, Body, Contents, Fence, FinishedGame,
        GameArchive, Stored, StoredBytes, StoredReplay,
    },
    names::{
        GZIP, PLAIN, WIRE_GZIP, WIRE_PLAIN, file_stem, finished_stem, game_of_name, is_gzip_name,
    },
    publish::{gzipped, write_new},
    record::GameRecord,
};

/// The suffix of a game's record stored beside its replay.
pub const RECORD: &str = ".record.json";

/// The most players a game has whose logs are looked for beside its
/// replay (the hosted games seat at most four).
const MAX_PLAYERS: usize = 16;

/// The most bytes of a record file read (a record is a few hundred bytes;
/// a huge file put in its place is refused, not read).
const MAX_RECORD_BYTES: u64 = 1 << 20;

/// The name of player `player`'s log (an index of the record's players,
/// from 0) beside the replay whose stem is `stem`.
pub fn player_log_name(stem: &str, player: usize) -> String {
    format!("{stem}.player{}.log", player + 1)
}

/// The finished games of one replay directory.
#[derive(Clone, Debug)]
pub struct DirArchive {
    dir: PathBuf,
    gzip: bool,
}

impl DirArchive {
    /// The archive of `dir`; games stored through it are gzip-compressed
    /// when `gzip` (as the server's `replay_gzip`).
    pub fn new(dir: impl Into<PathBuf>, gzip: bool) -> DirArchive {
        DirArchive {
            dir: dir.into(),
            gzip,
        }
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Runs `work` on the runtime's blocking threads: file calls may wait on
    /// a slow disk.
    fn blocking<'a, T: Send + 'static>(
        &'a self,
        work: impl FnOnce(&Path) -> Result<T, ArchiveError> + Send + 'static,
    ) -> ArchiveFuture<'a, T> {
        let dir = self.dir.clone();
        Box::pin(async move {
            tokio::task::spawn_blocking(move || work(&dir))
                .await
                .map_err(|e| ArchiveError::Backend {
                    store: format!("replay directory {}", self.dir.display()),
                    cause: format!("the reading thread failed: {e}"),
                })?
        })
    }

    /// Stores `game` in the directory now (blocking).
    fn store_now(dir: &Path, gzip: bool, game: &FinishedGame) -> Result<Stored, ArchiveError> {
        let Some(replay) = &game.replay else {
            return Err(ArchiveError::Unstorable(
                "a replay directory keeps a game by its replay, and this game has none".to_owned(),
            ));
        };
        let record = &game.record;
        let names: Vec<&str> = record.players.iter().map(String::as_str).collect();
        let stem = file_stem(&record.game_type, &record.room, &names);
        let fail = |what: &str, error: std::io::Error| ArchiveError::Backend {
            store: format!("replay directory {}", dir.display()),
            cause: format!("cannot write {what}: {error}"),
        };
        std::fs::create_dir_all(dir).map_err(|e| fail("the directory", e))?;
        let (suffix, wire_suffix) = if gzip {
            (GZIP, WIRE_GZIP)
        } else {
            (PLAIN, WIRE_PLAIN)
        };
        let pack = |bytes: &[u8]| {
            if gzip { gzipped(bytes) } else { bytes.to_vec() }
        };
        let published =
            write_new(dir, &stem, suffix, &pack(replay)).map_err(|e| fail("the replay", e))?;
        let name = published
            .file_name()
            .and_then(|n| n.to_str())
            .map(str::to_owned)
            .ok_or_else(|| fail("the replay", std::io::Error::other("no file name")))?;
        // The replay's stem as published (numbered when the first was taken).
        let stem = finished_stem(&name).unwrap_or(&stem).to_owned();
        if let Some(wire) = &game.wire_log {
            write_new(dir, &stem, wire_suffix, &pack(wire)).map_err(|e| fail("the wire log", e))?;
        }
        for (player, log) in game.player_logs.iter().enumerate() {
            if let Some(log) = log {
                let log_name = player_log_name(&stem, player);
                let log_stem = log_name.strip_suffix(".log").unwrap_or(&log_name);
                write_new(dir, log_stem, ".log", log).map_err(|e| fail("a player's log", e))?;
            }
        }
        let text =
            serde_json::to_vec(record).map_err(|e| fail("the record", std::io::Error::other(e)))?;
        write_new(dir, &stem, RECORD, &text).map_err(|e| fail("the record", e))?;
        Ok(Stored::Kept(name))
    }
}

/// Opens the file `name` of `dir` beside replay `key` without following a
/// link; not found is [`ArchiveError::NotFound`] saying `missing`.
fn open_beside(dir: &Path, name: &str, missing: &str) -> Result<std::fs::File, ArchiveError> {
    match open_no_follow(&dir.join(name)) {
        Ok(file) if file.metadata().is_ok_and(|m| m.is_file()) => Ok(file),
        Ok(_) => Err(LoadError::NotAFile(name.to_owned()).into()),
        Err(cause) if is_symlink_refusal(&cause) => {
            Err(LoadError::NotAFile(name.to_owned()).into())
        }
        Err(cause) if cause.kind() == std::io::ErrorKind::NotFound => {
            Err(ArchiveError::NotFound(missing.to_owned()))
        }
        Err(cause) => Err(LoadError::Open {
            file: name.to_owned(),
            cause,
        }
        .into()),
    }
}

/// The stem of the finished replay `key` names in `dir`.
fn stem_of(dir: &Path, key: &str) -> Result<String, ArchiveError> {
    let name = resolve_name(dir, key)?;
    finished_stem(&name)
        .map(str::to_owned)
        .ok_or_else(|| LoadError::BadName(key.to_owned()).into())
}

impl GameArchive for DirArchive {
    fn describe(&self) -> String {
        format!("replay directory {}", self.dir.display())
    }

    fn store<'a>(
        &'a self,
        game: &'a FinishedGame,
        _fence: Option<Fence>,
    ) -> ArchiveFuture<'a, Stored> {
        let gzip = self.gzip;
        let game = game.clone();
        self.blocking(move |dir| DirArchive::store_now(dir, gzip, &game))
    }

    fn list(&self) -> ArchiveFuture<'_, Vec<ArchivedGame>> {
        self.blocking(|dir| {
            let files = directory::list(dir).map_err(|e| ArchiveError::Backend {
                store: format!("replay directory {}", dir.display()),
                cause: format!("cannot be read: {e}"),
            })?;
            Ok(files
                .into_iter()
                .map(|file| ArchivedGame {
                    key: file.name,
                    game: file.game,
                    bytes: file.bytes,
                    modified: file.modified,
                })
                .collect())
        })
    }

    fn record<'a>(&'a self, key: &'a str) -> ArchiveFuture<'a, GameRecord> {
        let key = key.to_owned();
        self.blocking(move |dir| {
            let stem = stem_of(dir, &key)?;
            let name = format!("{stem}{RECORD}");
            let file = open_beside(dir, &name, &format!("no record of {key} is kept"))?;
            let mut text = Vec::new();
            file.take(MAX_RECORD_BYTES)
                .read_to_end(&mut text)
                .map_err(|cause| LoadError::Open {
                    file: name.clone(),
                    cause,
                })?;
            serde_json::from_slice(&text).map_err(|e| ArchiveError::Backend {
                store: format!("replay directory {}", dir.display()),
                cause: format!("{name} is no game record: {e}"),
            })
        })
    }

    fn replay<'a>(&'a self, key: &'a str) -> ArchiveFuture<'a, StoredReplay> {
        let key = key.to_owned();
        self.blocking(move |dir| {
            let name = resolve_name(dir, &key)?;
            let file = open_named_file(dir, &name)?;
            Ok(StoredReplay {
                game: game_of_name(&name),
                bytes: StoredBytes {
                    gzip: is_gzip_name(&name),
                    name,
                    body: Body::File(file),
                },
            })
        })
    }

    fn player_log<'a>(&'a self, key: &'a str, player: usize) -> ArchiveFuture<'a, StoredBytes> {
        let key = key.to_owned();
        self.blocking(move |dir| {
            let stem = stem_of(dir, &key)?;
            let name = player_log_name(&stem, player);
            let file = open_beside(
                dir,
                &name,
                &format!("no log of player {} of {key} is kept", player + 1),
            )?;
            Ok(StoredBytes {
                name,
                gzip: false,
                body: Body::File(file),
            })
        })
    }

    fn wire_log<'a>(&'a self, key: &'a str) -> ArchiveFuture<'a, StoredBytes> {
        let key = key.to_owned();
        self.blocking(move |dir| {
            let name = resolve_name(dir, &key)?;
            match open_wire_log(dir, &name) {
                Ok((file, gzip)) => {
                    let stem = finished_stem(&name).unwrap_or(&name);
                    let ending = if gzip { WIRE_GZIP } else { WIRE_PLAIN };
                    Ok(StoredBytes {
                        name: format!("{stem}{ending}"),
                        gzip,
                        body: Body::File(file),
                    })
                }
                Err(error) if error.is_not_found() => Err(ArchiveError::NotFound(format!(
                    "no wire log of {key} is kept (the server keeps them with --wire-log)"
                ))),
                Err(error) => Err(error.into()),
            }
        })
    }

    fn contents<'a>(&'a self, key: &'a str) -> ArchiveFuture<'a, Contents> {
        let key = key.to_owned();
        self.blocking(move |dir| {
            let name = resolve_name(dir, &key)?;
            let stem = stem_of(dir, &name)?;
            // Regular files only: a link is no part of the game.
            let is_file =
                |name: &str| std::fs::symlink_metadata(dir.join(name)).is_ok_and(|m| m.is_file());
            let player_logs = (0..MAX_PLAYERS)
                .filter(|&player| is_file(&player_log_name(&stem, player)))
                .collect();
            let wire_log = [WIRE_PLAIN, WIRE_GZIP]
                .iter()
                .any(|ending| is_file(&format!("{stem}{ending}")));
            Ok(Contents {
                player_logs,
                wire_log,
            })
        })
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use crate::conformance::{sample_game, stored_game_reads_back};

    #[tokio::test]
    async fn a_game_stored_in_a_directory_reads_back_plain_and_gzipped() {
        for gzip in [false, true] {
            let dir = tempfile::tempdir().unwrap();
            let archive = DirArchive::new(dir.path(), gzip);
            let game = sample_game(&["alice", "bob"]);
            let key = stored_game_reads_back(&archive, &game, None).await;
            // The replay and the wire log have the server's names.
            let ending = if gzip { ".xml.gz" } else { ".xml" };
            assert!(key.starts_with("replay_swc_2021_blokus_"), "{key}");
            assert!(
                key.ends_with(&format!("_alice_bob_{}{ending}", game.record.room)),
                "{key}"
            );
            let stem = finished_stem(&key).unwrap();
            let wire = if gzip { WIRE_GZIP } else { WIRE_PLAIN };
            assert!(dir.path().join(format!("{stem}{wire}")).is_file());
            // The same game again gets a name of its own.
            let Stored::Kept(again) = archive.store(&game, None).await.unwrap() else {
                panic!("refused");
            };
            assert_ne!(again, key);
        }
    }

    #[tokio::test]
    async fn a_game_without_a_replay_is_refused_by_a_directory() {
        let dir = tempfile::tempdir().unwrap();
        let archive = DirArchive::new(dir.path(), false);
        let mut game = sample_game(&["a", "b"]);
        game.replay = None;
        let error = archive.store(&game, None).await.unwrap_err();
        assert!(matches!(error, ArchiveError::Unstorable(_)), "{error:?}");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    #[cfg(unix)]
    #[tokio::test]
    async fn parts_beside_a_replay_are_never_read_through_a_link() {
        let dir = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        let secret = outside.path().join("secret");
        std::fs::write(&secret, "secret").unwrap();
        std::fs::write(
            dir.path().join("replay_x_a_b_r.xml"),
            "<protocol>\n</protocol>",
        )
        .unwrap();
        for name in ["replay_x_a_b_r.record.json", "replay_x_a_b_r.player1.log"] {
            std::os::unix::fs::symlink(&secret, dir.path().join(name)).unwrap();
        }
        let archive = DirArchive::new(dir.path(), false);
        let record = archive.record("replay_x_a_b_r.xml").await.unwrap_err();
        assert!(
            matches!(record, ArchiveError::Load(LoadError::NotAFile(_))),
            "{record:?}"
        );
        let log = archive.player_log("replay_x_a_b_r", 0).await.unwrap_err();
        assert!(
            matches!(log, ArchiveError::Load(LoadError::NotAFile(_))),
            "{log:?}"
        );
        assert!(!log.to_string().contains("secret"), "{log}");
    }
}
