//! Replay files: one writer task per game streams the recorded packets to
//! `NAME.xml.partial` and, when the game ends, renames (or compresses) it to
//! `NAME.xml` / `NAME.xml.gz`, so a crash leaves a readable prefix and a
//! finished replay is never half-written.
//!
//! The file layout is the official one (`replay.md`): `<protocol>` and a line
//! break, each recorded packet at column 0 followed by a line break, and a
//! final `</protocol>` without line break. The room encodes the packets; this
//! module only owns files.

use std::{
    io::Write,
    path::{Path, PathBuf},
};

use bytes::Bytes;
use tokio::{
    fs::{self, File},
    io::AsyncWriteExt,
    sync::{mpsc, oneshot},
};
use tracing::{Instrument, warn};

/// What the room tells its replay writer.
#[derive(Debug)]
enum Event {
    /// A packet in replay form (column 0, no trailing line break).
    Packet(Bytes),
    /// The game is over: close the document and publish the file.
    Finish(oneshot::Sender<Option<PathBuf>>),
}

/// The room's end of a replay writer. Recording never blocks and never fails
/// the game: I/O errors are logged and the replay is given up.
#[derive(Debug)]
pub struct ReplayRecorder {
    events: mpsc::UnboundedSender<Event>,
}

/// Where and how replays are written.
#[derive(Clone, Debug)]
pub struct ReplaySettings {
    /// The directory, created if missing.
    pub dir: PathBuf,
    /// Whether finished replays are gzip-compressed.
    pub gzip: bool,
}

impl ReplayRecorder {
    /// Starts a writer task for a new game. The file is named after the game
    /// type, the local time and the players' display names.
    pub fn start(settings: ReplaySettings, game_type: &str, names: &[&str]) -> ReplayRecorder {
        let stem = file_stem(game_type, names);
        let (events, rx) = mpsc::unbounded_channel();
        let span = tracing::info_span!("replay", file = %stem);
        tokio::spawn(write_replay(settings, stem, rx).instrument(span));
        ReplayRecorder { events }
    }

    /// Appends a packet (replay form: column 0, no trailing line break).
    pub fn record(&self, packet: Bytes) {
        // A closed channel means the writer already gave up after an I/O
        // error, which it has logged.
        let _ = self.events.send(Event::Packet(packet));
    }

    /// Ends the document and waits until the file is in its final place.
    /// Returns the final path, or `None` if the replay could not be written.
    pub async fn finish(self) -> Option<PathBuf> {
        let (tx, rx) = oneshot::channel();
        self.events.send(Event::Finish(tx)).ok()?;
        rx.await.ok().flatten()
    }
}

/// `replay_<gameType>_<local time>_<name1>_<name2>`, with every character
/// that is not safe in a file name replaced by `_`.
fn file_stem(game_type: &str, names: &[&str]) -> String {
    let time = jiff::Zoned::now().strftime("%Y-%m-%d_%H-%M-%S");
    let mut stem = format!("replay_{}_{time}", sanitize(game_type));
    for name in names {
        stem.push('_');
        stem.push_str(&sanitize(name));
    }
    stem
}

/// Keeps letters, digits, `-` and `.`; everything else (spaces, slashes,
/// control characters) becomes `_`. Long names are cut so the file name
/// stays within common file-system limits.
fn sanitize(name: &str) -> String {
    name.chars()
        .take(40)
        .map(|c| {
            if c.is_alphanumeric() || c == '-' || c == '.' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

async fn write_replay(
    settings: ReplaySettings,
    stem: String,
    mut events: mpsc::UnboundedReceiver<Event>,
) {
    let mut writer = match PartialFile::create(&settings.dir, &stem).await {
        Ok(writer) => Some(writer),
        Err(error) => {
            warn!(%error, dir = %settings.dir.display(), "cannot create replay file; this game is not recorded");
            None
        }
    };
    // Everything queued since the last write goes out in one write: a busy
    // server makes fewer, larger writes instead of falling behind.
    let mut batch = Vec::new();
    let mut pending = Vec::with_capacity(64);
    while events.recv_many(&mut batch, 256).await > 0 {
        let mut finish = None;
        for event in batch.drain(..) {
            match event {
                Event::Packet(packet) => {
                    pending.extend_from_slice(&packet);
                    pending.push(b'\n');
                }
                Event::Finish(done) => finish = Some(done),
            }
        }
        if let Some(w) = writer.as_mut()
            && !pending.is_empty()
            && let Err(error) = w.append(&pending).await
        {
            warn!(%error, path = %w.path.display(), "replay write failed; giving up this replay");
            writer = None;
        }
        pending.clear();
        if let Some(done) = finish {
            let published = match writer.take() {
                Some(w) => {
                    let path = w.path.clone();
                    match w.publish(settings.gzip).await {
                        Ok(path) => Some(path),
                        Err(error) => {
                            warn!(%error, path = %path.display(), "cannot finish replay");
                            None
                        }
                    }
                }
                None => None,
            };
            let _ = done.send(published);
            return;
        }
    }
    // The room went away without finishing (it panicked or was aborted):
    // the `.partial` file stays as a readable prefix.
}

/// A replay being written: `dir/STEM.xml.partial` (numbered if taken).
struct PartialFile {
    file: File,
    path: PathBuf,
    dir: PathBuf,
    stem: String,
}

impl PartialFile {
    async fn create(dir: &Path, stem: &str) -> std::io::Result<PartialFile> {
        fs::create_dir_all(dir).await?;
        for attempt in 1u32.. {
            let path = dir.join(format!("{}.xml.partial", numbered(stem, attempt)));
            match fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&path)
                .await
            {
                Ok(mut file) => {
                    file.write_all(b"<protocol>\n").await?;
                    return Ok(PartialFile {
                        file,
                        path,
                        dir: dir.to_owned(),
                        stem: stem.to_owned(),
                    });
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(e),
            }
        }
        unreachable!("u32 attempts exhausted")
    }

    /// Writes packets, each already followed by its line break. They reach
    /// the operating system before the next events are handled, so a crash
    /// of the server leaves every recorded packet in the file.
    async fn append(&mut self, packets: &[u8]) -> std::io::Result<()> {
        self.file.write_all(packets).await?;
        self.file.flush().await
    }

    /// Closes the document, syncs it, and moves it to its final name.
    async fn publish(mut self, gzip: bool) -> std::io::Result<PathBuf> {
        self.file.write_all(b"</protocol>").await?;
        self.file.flush().await?;
        self.file.sync_all().await?;
        drop(self.file);
        let (finished, extension) = if gzip {
            let compressed = self.path.with_extension("partial.gz");
            let (source, target) = (self.path.clone(), compressed.clone());
            tokio::task::spawn_blocking(move || compress(&source, &target))
                .await
                .map_err(std::io::Error::other)??;
            fs::remove_file(&self.path).await?;
            (compressed, "xml.gz")
        } else {
            (self.path, "xml")
        };
        let dir = self.dir;
        let stem = self.stem;
        tokio::task::spawn_blocking(move || {
            publish_without_clobbering(&finished, &dir, &stem, extension)
        })
        .await
        .map_err(std::io::Error::other)?
    }
}

fn numbered(stem: &str, attempt: u32) -> String {
    if attempt == 1 {
        stem.to_owned()
    } else {
        format!("{stem}_{attempt}")
    }
}

/// Gives `finished` the first free name `STEM[_N].EXT` in `dir`. Two games
/// with the same players can end in the same second; the later one gets a
/// number instead of overwriting the earlier replay. A hard link claims the
/// name atomically; where the file system has no hard links, a checked
/// rename is the fallback.
fn publish_without_clobbering(
    finished: &Path,
    dir: &Path,
    stem: &str,
    extension: &str,
) -> std::io::Result<PathBuf> {
    for attempt in 1u32.. {
        let target = dir.join(format!("{}.{extension}", numbered(stem, attempt)));
        match std::fs::hard_link(finished, &target) {
            Ok(()) => {
                std::fs::remove_file(finished)?;
                return Ok(target);
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(_) if !target.exists() => {
                std::fs::rename(finished, &target)?;
                return Ok(target);
            }
            Err(e) => return Err(e),
        }
    }
    unreachable!("u32 attempts exhausted")
}

fn compress(source: &Path, target: &Path) -> std::io::Result<()> {
    let text = std::fs::read(source)?;
    let file = std::fs::File::create(target)?;
    let mut encoder = flate2::write::GzEncoder::new(file, flate2::Compression::default());
    encoder.write_all(&text)?;
    encoder.finish()?.sync_all()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "spielleiter-replay-{name}-{}",
            uuid::Uuid::new_v4()
        ));
        std::fs::create_dir_all(&dir).expect("temp dir");
        dir
    }

    #[test]
    fn names_cannot_escape_the_directory() {
        assert_eq!(sanitize("../../etc/passwd"), ".._.._etc_passwd");
        assert_eq!(sanitize("Häschen Schule"), "Häschen_Schule");
        assert_eq!(sanitize("a\nb"), "a_b");
        assert!(!file_stem("swc_2021_blokus", &["a/b", "c"]).contains('/'));
    }

    #[tokio::test]
    async fn a_finished_replay_has_the_official_layout() {
        let dir = temp_dir("layout");
        let settings = ReplaySettings {
            dir: dir.clone(),
            gzip: false,
        };
        let recorder = ReplayRecorder::start(settings, "swc_2021_blokus", &["alice", "bob"]);
        recorder.record(Bytes::from_static(
            b"<room roomId=\"r\">\n  <data class=\"x\"/>\n</room>",
        ));
        recorder.record(Bytes::from_static(
            b"<room roomId=\"r\">\n  <data class=\"y\"/>\n</room>",
        ));
        let path = recorder.finish().await.expect("replay written");
        assert!(
            path.to_string_lossy().ends_with("_alice_bob.xml"),
            "{path:?}"
        );
        let text = std::fs::read_to_string(&path).expect("readable");
        assert_eq!(
            text,
            "<protocol>\n<room roomId=\"r\">\n  <data class=\"x\"/>\n</room>\n<room roomId=\"r\">\n  <data class=\"y\"/>\n</room>\n</protocol>"
        );
        let leftovers: Vec<_> = std::fs::read_dir(&dir)
            .expect("dir")
            .filter_map(Result::ok)
            .filter(|e| e.file_name().to_string_lossy().ends_with(".partial"))
            .collect();
        assert!(leftovers.is_empty(), "{leftovers:?}");
        std::fs::remove_dir_all(dir).ok();
    }

    #[tokio::test]
    async fn a_running_game_is_a_readable_partial_file() {
        let dir = temp_dir("partial");
        let settings = ReplaySettings {
            dir: dir.clone(),
            gzip: false,
        };
        let recorder = ReplayRecorder::start(settings, "swc_2021_blokus", &["", ""]);
        recorder.record(Bytes::from_static(b"<room roomId=\"r\"/>"));
        // Wait until the writer task has written the packet.
        let mut partial = None;
        for _ in 0..200 {
            partial = std::fs::read_dir(&dir)
                .expect("dir")
                .filter_map(Result::ok)
                .map(|e| e.path())
                .find(|p| p.to_string_lossy().ends_with(".xml.partial"));
            if let Some(p) = &partial
                && std::fs::read_to_string(p).is_ok_and(|t| t.ends_with("/>\n"))
            {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(5)).await;
        }
        let partial = partial.expect("a .partial file exists while the game runs");
        assert_eq!(
            std::fs::read_to_string(&partial).expect("readable"),
            "<protocol>\n<room roomId=\"r\"/>\n"
        );
        let done = recorder.finish().await.expect("published");
        assert!(!partial.exists());
        assert!(done.exists());
        std::fs::remove_dir_all(dir).ok();
    }

    #[tokio::test]
    async fn gzip_replays_decompress_to_the_document() {
        let dir = temp_dir("gzip");
        let settings = ReplaySettings {
            dir: dir.clone(),
            gzip: true,
        };
        let recorder = ReplayRecorder::start(settings, "swc_2021_blokus", &["a", "b"]);
        recorder.record(Bytes::from_static(b"<room roomId=\"r\"/>"));
        let path = recorder.finish().await.expect("published");
        assert!(path.to_string_lossy().ends_with(".xml.gz"), "{path:?}");
        let mut text = String::new();
        std::io::Read::read_to_string(
            &mut flate2::read::GzDecoder::new(std::fs::File::open(&path).expect("open")),
            &mut text,
        )
        .expect("valid gzip");
        assert_eq!(text, "<protocol>\n<room roomId=\"r\"/>\n</protocol>");
        let names: Vec<_> = std::fs::read_dir(&dir)
            .expect("dir")
            .filter_map(Result::ok)
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names.len(), 1, "{names:?}");
        std::fs::remove_dir_all(dir).ok();
    }

    #[tokio::test]
    async fn same_names_in_the_same_second_get_distinct_files() {
        let dir = temp_dir("collide");
        let settings = ReplaySettings {
            dir: dir.clone(),
            gzip: false,
        };
        let first = ReplayRecorder::start(settings.clone(), "g", &["a", "b"]);
        let second = ReplayRecorder::start(settings, "g", &["a", "b"]);
        let (p1, p2) = (first.finish().await, second.finish().await);
        let (p1, p2) = (p1.expect("first"), p2.expect("second"));
        assert_ne!(p1, p2);
        std::fs::remove_dir_all(dir).ok();
    }
}
