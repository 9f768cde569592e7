//! The replay store: writing replays while games run. This file writes
//! them, and [`wire_log`] keeps a game's wire log next to its replay (`--wire-log`)
//! through the same thread; `job` holds what the thread is sent and
//! `partial` a replay's file while it is written. How a replay is named
//! ([`names`]) and how finished ones are read ([`archive`]: listing,
//! opening by name, finding a room's, loading; gzip included) are the
//! archive crate's (`spielleiter_archive`), through which the web side, the
//! match runner and the command line read them.
//!
//! Writing: one thread owns every open replay file; rooms hand it their
//! packets through a channel and never wait for the disk. Each game streams
//! to `NAME.xml.partial` and, when it ends, is renamed (or compressed) to
//! `NAME.xml` / `NAME.xml.gz`, so a crash leaves a readable prefix and a
//! finished replay is never half-written. `NAME` ends with the room id, so
//! it is unique without looking at the directory: a game costs one create,
//! one write per round of writing, and one rename.
//!
//! A season's worker keeps its replays in memory instead
//! ([`ReplaySettings::kept`], [`kept`]): the same thread serialises each
//! game's document once, in the same layout, with the seats' think times as
//! the room measured them and the wire log beside it, and hands it to the
//! worker, which stores it in the season's store; no file is written or
//! read.
//!
//! The file layout is the official one (`replay.md`): `<protocol>` and a line
//! break, each recorded packet at column 0 followed by a line break, and a
//! final `</protocol>` without line break. The room encodes the packets; this
//! module only owns files.
//!
//! A replay that cannot be written (the disk is full, the directory was
//! removed) never costs the game: its partial file is removed, and the room
//! learns of the failure when the game ends ([`ReplayFailure`]) and reports
//! it. Each partial file is locked while it is written; at start, partial
//! files nobody holds (left by a crash) are moved aside as
//! `NAME.xml.unfinished` ([`recover_unfinished`]).
//!
//! Why a thread and not async file I/O: tokio's file operations each go to
//! the blocking pool, and a busy server with hundreds of games would pay a
//! thread hand-off per packet. One thread that drains everything queued and
//! writes it in a batch costs a fraction of that and keeps the rooms' path
//! free of disk work.

mod job;
pub mod kept;
mod partial;
pub mod wire_log;

/// The finished replays of a directory, now the archive's
/// ([`spielleiter_archive::directory`]); the path stays for the server's
/// readers.
pub use spielleiter_archive::directory as archive;
/// Replay file names, now the archive's ([`spielleiter_archive::names`]).
pub use spielleiter_archive::names;

use std::{
    collections::HashMap,
    fs::File,
    io::Write,
    path::{Path, PathBuf},
    sync::{Arc, atomic::Ordering, mpsc},
    thread,
};

use bytes::Bytes;
use tokio::sync::oneshot;
use tracing::{debug, info};

pub use self::{
    job::{Published, ReplayFailure},
    kept::KeptReplays,
};
use spielleiter_archive::{ThinkTimes, publish::lock};

use self::{
    job::{Job, SeatCounters, WireJob},
    kept::KEPT_REPLAY_BYTES,
    names::{PARTIAL, UNFINISHED, WIRE_PARTIAL, WIRE_UNFINISHED, compressing, file_stem},
    partial::PartialFile,
    wire_log::{IN_FLIGHT_PER_SEAT, Life, WireFiles, WireLog},
};

/// How long the replay thread lets packets gather between rounds of
/// writing: at most this much of a running game is missing from its file
/// if the server crashes.
const GATHER: std::time::Duration = std::time::Duration::from_millis(20);

/// Where and how replays are written.
#[derive(Clone, Debug)]
pub struct ReplaySettings {
    /// The directory, created if missing (unused when the replays are
    /// kept in memory).
    pub dir: PathBuf,
    /// Whether finished replays are gzip-compressed.
    pub gzip: bool,
    /// The most bytes of one seat a wire log keeps (`--wire-log`); a "cut
    /// here" line marks where it stopped.
    pub wire_log_bytes: usize,
    /// Keep finished replays (and wire logs) in memory for the process that
    /// runs the server instead of writing files: a season's worker, which
    /// stores each game in its season's store.
    pub kept: Option<KeptReplays>,
}

/// Why the replay directory cannot take replays.
#[derive(Debug, thiserror::Error)]
#[error("the replay directory {} is not usable: cannot {action}", dir.display())]
pub struct ReplayDirError {
    /// The directory as configured.
    pub dir: PathBuf,
    /// What failed (`create it`, `write a file in it`, …).
    pub action: &'static str,
    /// The operating system's error.
    #[source]
    pub source: std::io::Error,
}

impl From<ReplayDirError> for std::io::Error {
    fn from(error: ReplayDirError) -> Self {
        std::io::Error::new(error.source.kind(), error)
    }
}

/// Makes sure replays can be written to `dir` before the first game needs
/// it: creates the directory if missing and writes, syncs and removes a
/// probe file. `serve` and `match` call it at start so that a wrong path or
/// missing permission stops them with a clear message instead of losing
/// every game's replay later.
///
/// # Errors
///
/// The directory cannot be created, or a file in it cannot be written.
pub fn check_dir(dir: &Path) -> Result<(), ReplayDirError> {
    let fail = |action, source| ReplayDirError {
        dir: dir.to_owned(),
        action,
        source,
    };
    std::fs::create_dir_all(dir).map_err(|e| fail("create it", e))?;
    let probe = dir.join(format!(".spielleiter-probe-{}", std::process::id()));
    let written = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .open(&probe)
        .and_then(|mut file| {
            file.write_all(b"<protocol/>")?;
            file.sync_data()
        });
    let removed = std::fs::remove_file(&probe);
    written.map_err(|e| fail("write a file in it", e))?;
    removed.map_err(|e| fail("remove a file from it", e))
}

/// The handle to the replay thread; cheap to clone. The thread ends when
/// the last handle (and every recorder) is gone, after finishing its work.
#[derive(Clone, Debug)]
pub struct ReplayStore {
    jobs: mpsc::Sender<Job>,
    next_id: std::sync::Arc<std::sync::atomic::AtomicU64>,
    /// See [`ReplaySettings::wire_log_bytes`].
    wire_log_bytes: usize,
}

impl ReplayStore {
    /// Checks the directory ([`check_dir`]) and starts the replay thread.
    ///
    /// # Errors
    ///
    /// The directory is not usable ([`ReplayDirError`] inside the I/O
    /// error), or the thread cannot be started.
    pub fn start(settings: ReplaySettings) -> std::io::Result<ReplayStore> {
        if settings.kept.is_some() {
            // No file is written: the directory is not looked at.
            return ReplayStore::spawn(Writer::new(settings));
        }
        check_dir(&settings.dir)?;
        match recover_unfinished(&settings.dir) {
            Ok(0) => {}
            Ok(moved) => tracing::warn!(
                moved,
                dir = %settings.dir.display(),
                "replays left unfinished by an earlier run (a crash) moved aside as *.xml.unfinished"
            ),
            Err(error) => {
                tracing::warn!(%error, dir = %settings.dir.display(), "cannot look for unfinished replays")
            }
        }
        ReplayStore::spawn(Writer::new(settings))
    }

    fn spawn(writer: Writer) -> std::io::Result<ReplayStore> {
        let wire_log_bytes = writer.settings.wire_log_bytes;
        let (jobs, rx) = mpsc::channel();
        thread::Builder::new()
            .name("replays".to_owned())
            .spawn(move || writer.run(&rx))?;
        Ok(ReplayStore {
            jobs,
            next_id: std::sync::Arc::default(),
            wire_log_bytes,
        })
    }

    /// Waits until everything handed to the replay thread so far is
    /// written: a server shutting down calls it once its connections are
    /// closed, so that their games' wire logs get their final names before
    /// the process ends.
    pub async fn flush(&self) {
        let (done, written) = oneshot::channel();
        if self.jobs.send(Job::Flush(done)).is_ok() {
            let _ = written.await;
        }
    }

    /// A recorder for a new game, named after the game type, the local time,
    /// the players' display names and the room.
    pub fn open(&self, game_type: &str, room: &str, names: &[&str]) -> ReplayRecorder {
        let id = self
            .next_id
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let stem = file_stem(game_type, room, names);
        // A closed channel means the thread is gone; recording is then a
        // no-op, which the recorder reports when the game finishes.
        let _ = self.jobs.send(Job::Open {
            id,
            stem,
            room: room.to_owned(),
        });
        ReplayRecorder {
            id,
            jobs: self.jobs.clone(),
        }
    }
}

/// The room's end of one replay. Recording never blocks and never fails the
/// game: on an I/O error the replay thread gives up that replay, and
/// [`ReplayRecorder::finish`] says why.
#[derive(Debug)]
pub struct ReplayRecorder {
    id: u64,
    jobs: mpsc::Sender<Job>,
}

impl ReplayRecorder {
    /// Appends a packet (replay form: column 0, no trailing line break).
    pub fn record(&self, packet: Bytes) {
        let _ = self.jobs.send(Job::Append {
            id: self.id,
            packet,
        });
    }

    /// The move that led to the state recorded next took seat `seat`
    /// `think_time` (the figure the state's packet records): a replay kept
    /// in memory hands its seats' think times to its runner without the
    /// document being read again.
    pub fn think_time(&self, seat: usize, think_time: std::time::Duration) {
        let _ = self.jobs.send(Job::Think {
            id: self.id,
            seat,
            think_time,
        });
    }

    /// Ends the document and waits until the file is in its final place
    /// (or the replay is kept in memory).
    ///
    /// # Errors
    ///
    /// The replay could not be written (its partial file has been
    /// removed), or the replay thread is gone.
    pub async fn finish(self) -> Result<Published, ReplayFailure> {
        let gone = || {
            ReplayFailure::new(
                Path::new(""),
                std::io::Error::other("the replay thread has stopped"),
            )
        };
        let (done, result) = oneshot::channel();
        self.jobs
            .send(Job::Finish { id: self.id, done })
            .map_err(|_| gone())?;
        result.await.unwrap_or_else(|_| Err(gone()))
    }
}

/// Where an open replay goes.
enum Sink {
    /// A file in the replay directory.
    File(PartialFile),
    /// Memory, for the runner ([`ReplaySettings::kept`]).
    Memory(MemoryReplay),
}

/// A replay kept in memory while its game runs: the document so far and the
/// seats' think times, at most [`KEPT_REPLAY_BYTES`].
struct MemoryReplay {
    room: String,
    document: Vec<u8>,
    think_times: Vec<ThinkTimes>,
    /// [`KEPT_REPLAY_BYTES`] (lower in tests).
    limit: usize,
}

impl MemoryReplay {
    fn new(room: String, limit: usize) -> MemoryReplay {
        MemoryReplay {
            room,
            document: b"<protocol>\n".to_vec(),
            think_times: Vec::new(),
            limit,
        }
    }

    /// Appends a packet in the file's layout; refuses one that would take
    /// the document past the bound (room for its end kept).
    fn append(&mut self, packet: &[u8]) -> std::io::Result<()> {
        if self.document.len() + packet.len() + 1 + END.len() > self.limit {
            return Err(std::io::Error::other(format!(
                "the replay is larger than the {} bytes kept in memory",
                self.limit
            )));
        }
        self.document.extend_from_slice(packet);
        self.document.push(b'\n');
        Ok(())
    }

    fn think(&mut self, seat: usize, think_time: std::time::Duration) {
        if seat >= self.think_times.len() {
            // Seats are a game's few; a seat number beyond any game's is
            // not worth a vector.
            if seat >= 64 {
                return;
            }
            self.think_times.resize(seat + 1, ThinkTimes::default());
        }
        self.think_times[seat].add(think_time);
    }

    /// The finished document.
    fn finish(mut self) -> (String, Vec<u8>, Vec<ThinkTimes>) {
        self.document.extend_from_slice(END);
        (self.room, self.document, self.think_times)
    }
}

/// The document's end.
const END: &[u8] = b"</protocol>";

/// A replay the thread has finished, before the game's room is told.
enum Finished {
    File(PathBuf),
    Memory(MemoryReplay),
}

/// The replay thread's state: every open replay.
struct Writer {
    settings: ReplaySettings,
    /// Open replays, or why one failed (reported when its game ends).
    open: HashMap<u64, Result<Sink, ReplayFailure>>,
    /// Replays with packets queued since the last round of writing.
    dirty: Vec<u64>,
    /// The wire logs, which follow their replays.
    wire: WireFiles,
    /// For tests: writes fail once a file would hold more than this many
    /// bytes, as on a full disk.
    #[cfg(test)]
    disk_space: Option<u64>,
}

impl Writer {
    fn new(settings: ReplaySettings) -> Writer {
        Writer {
            wire: WireFiles::new(&settings.dir, settings.gzip, settings.kept.clone()),
            settings,
            open: HashMap::new(),
            dirty: Vec::new(),
            #[cfg(test)]
            disk_space: None,
        }
    }

    /// Handles jobs until every sender is gone. Everything queued is taken
    /// at once and each file gets one write per round.
    fn run(mut self, jobs: &mpsc::Receiver<Job>) {
        let mut finishing = Vec::new();
        let mut flushes = Vec::new();
        while let Ok(first) = jobs.recv() {
            let mut job = Some(first);
            while let Some(current) = job.take() {
                match current {
                    Job::Open { id, stem, room } => {
                        let sink = if self.settings.kept.is_some() {
                            Ok(Sink::Memory(MemoryReplay::new(room, KEPT_REPLAY_BYTES)))
                        } else {
                            let file = PartialFile::create(&self.settings.dir, &stem)
                                .map_err(|cause| ReplayFailure::new(&self.settings.dir, cause));
                            if file.is_ok() {
                                // The document's start goes out with the first packets.
                                self.dirty.push(id);
                            }
                            file.map(Sink::File)
                        };
                        self.open.insert(id, sink);
                    }
                    Job::Append { id, packet } => match self.open.get_mut(&id) {
                        Some(Ok(Sink::File(file))) => {
                            if file.queued.is_empty() {
                                self.dirty.push(id);
                            }
                            file.queued.push(packet);
                        }
                        Some(slot @ Ok(Sink::Memory(_))) => {
                            if let Ok(Sink::Memory(memory)) = slot
                                && let Err(cause) = memory.append(&packet)
                            {
                                *slot = Err(ReplayFailure::new(Path::new("memory"), cause));
                            }
                        }
                        _ => {}
                    },
                    Job::Think {
                        id,
                        seat,
                        think_time,
                    } => {
                        if let Some(Ok(Sink::Memory(memory))) = self.open.get_mut(&id) {
                            memory.think(seat, think_time);
                        }
                    }
                    Job::Finish { id, done } => finishing.push((id, done)),
                    Job::Wire(job) => self.wire.handle(job, &self.open),
                    Job::Flush(done) => flushes.push(done),
                }
                job = jobs.try_recv().ok();
            }
            // A finishing game's last packets and the document's end go out
            // in its last write.
            for (id, done) in finishing.drain(..) {
                let _ = done.send(self.publish(id));
            }
            for id in std::mem::take(&mut self.dirty) {
                self.append(id, false);
            }
            self.wire.round();
            for done in flushes.drain(..) {
                let _ = done.send(());
            }
            // Let packets gather: waking for every packet of every game
            // would cost the server more than the writing itself.
            thread::sleep(GATHER);
        }
        // Games that never finished (the server is gone) stay as readable
        // `.partial` prefixes.
        debug!(unfinished = self.open.len(), "replay thread done");
    }

    /// Writes a replay's queued packets (and, if `last`, the document's
    /// end) in one write; on failure (a full disk) the partial file is
    /// removed rather than left cut in the middle of an element, and the
    /// failure kept for the game's end.
    fn append(&mut self, id: u64, last: bool) {
        #[cfg(test)]
        let disk_space = self.disk_space;
        let Some(slot) = self.open.get_mut(&id) else {
            return;
        };
        let Ok(Sink::File(file)) = slot else {
            return;
        };
        if file.queued.is_empty() && file.written > 0 && !last {
            return;
        }
        let written = file.write_queued(last);
        #[cfg(test)]
        let written = written.and_then(|()| match disk_space {
            Some(space) if file.written > space => Err(std::io::Error::from_raw_os_error(28)),
            _ => Ok(()),
        });
        if let Err(cause) = written {
            let path = file.path.clone();
            let _ = std::fs::remove_file(&path);
            *slot = Err(ReplayFailure::new(&path, cause));
        }
    }

    /// Finishes replay `id` and tells its wire log; a replay kept in
    /// memory goes to [`ReplaySettings::kept`].
    fn publish(&mut self, id: u64) -> Result<Published, ReplayFailure> {
        let finished = self.finish_replay(id);
        let wire_pending = self.wire.replay_published(id, &finished);
        match finished {
            Ok(Finished::File(path)) => Ok(Published::File(path)),
            Ok(Finished::Memory(memory)) => {
                let (room, document, think_times) = memory.finish();
                let bytes = document.len();
                if let Some(kept) = &self.settings.kept {
                    kept.keep_replay(&room, document, think_times, wire_pending);
                }
                debug!(room, bytes, "replay kept in memory");
                Ok(Published::Kept { room })
            }
            Err(failure) => Err(failure),
        }
    }

    fn finish_replay(&mut self, id: u64) -> Result<Finished, ReplayFailure> {
        self.append(id, true);
        let sink = self.open.remove(&id).ok_or_else(|| {
            ReplayFailure::new(
                &self.settings.dir,
                std::io::Error::other("the replay was never opened"),
            )
        })??;
        let file = match sink {
            Sink::File(file) => file,
            Sink::Memory(memory) => return Ok(Finished::Memory(memory)),
        };
        let partial = file.path.clone();
        let started = std::time::Instant::now();
        let published = file.publish(self.settings.gzip);
        match &published {
            // How long the sync and rename took (milliseconds as a rule):
            // what to look at first when a runner waits for a replay.
            Ok(path) => {
                info!(path = %path.display(), publish_ms = started.elapsed().as_millis() as u64, "replay written")
            }
            Err(_) => {
                // Whatever is left of it is no replay.
                let _ = std::fs::remove_file(&partial);
                let _ = std::fs::remove_file(compressing(&partial));
            }
        }
        published
            .map(Finished::File)
            .map_err(|cause| ReplayFailure::new(&partial, cause))
    }
}

/// Moves every `*.xml.partial` file in `dir` that no running server writes
/// (nobody holds its lock) aside as `*.xml.unfinished`: the readable prefix
/// of a game a crash interrupted, and its wire log's `*.wire.txt.partial`
/// as `*.wire.txt.unfinished`. Returns how many replays were moved. On systems
/// without file locks nothing is moved.
///
/// # Errors
///
/// The directory cannot be read.
pub fn recover_unfinished(dir: &Path) -> std::io::Result<usize> {
    let mut moved = 0;
    if !cfg!(unix) {
        return Ok(moved);
    }
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
            continue;
        };
        // A wire log left behind goes aside with its replay, but is no
        // replay to count.
        let (stem, unfinished, replay) = match name.strip_suffix(PARTIAL) {
            Some(stem) => (stem, UNFINISHED, true),
            None => match name.strip_suffix(WIRE_PARTIAL) {
                Some(stem) => (stem, WIRE_UNFINISHED, false),
                None => continue,
            },
        };
        let Ok(file) = File::open(&path) else {
            continue;
        };
        // Held by a running server: not ours to touch.
        let Ok(_held) = lock(file) else {
            continue;
        };
        let target = dir.join(format!("{stem}{unfinished}"));
        if !target.exists() && std::fs::rename(&path, &target).is_ok() && replay {
            moved += 1;
        }
    }
    Ok(moved)
}

impl ReplayStore {
    /// A wire log for a room of `seats` seats, capped per seat at the
    /// store's [`wire_log_bytes`](ReplaySettings::wire_log_bytes).
    pub fn wire_log(&self, seats: usize) -> WireLog {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let seats: Arc<[SeatCounters]> = (0..seats).map(|_| SeatCounters::default()).collect();
        let cap = self.wire_log_bytes;
        let _ = self.jobs.send(Job::Wire(WireJob::Open {
            id,
            seats: Arc::clone(&seats),
            cap,
        }));
        WireLog {
            life: Arc::new(Life {
                id,
                jobs: self.jobs.clone(),
                seats,
                cap,
                in_flight_limit: IN_FLIGHT_PER_SEAT.min(cap.max(1)),
            }),
        }
    }
}

impl WireLog {
    /// The game has started and is recorded by `replay`: the log is kept
    /// next to it. `names` are the players' names in seat order, for the
    /// log's lines.
    pub fn attach(&self, replay: &ReplayRecorder, names: Vec<String>) {
        let _ = self.life.jobs.send(Job::Wire(WireJob::Attach {
            id: self.life.id,
            replay: replay.id,
            names,
        }));
    }
}

#[cfg(test)]
mod tests {
    use std::io::Read;

    use super::*;

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "spielleiter-replay-{name}-{}",
            uuid::Uuid::new_v4()
        ));
        std::fs::create_dir_all(&dir).expect("temp dir");
        dir
    }

    /// The file a replay was published as.
    fn file(published: Published) -> PathBuf {
        match published {
            Published::File(path) => path,
            other => panic!("no file: {other:?}"),
        }
    }

    fn store(dir: &Path, gzip: bool) -> ReplayStore {
        ReplayStore::start(ReplaySettings {
            dir: dir.to_owned(),
            gzip,
            wire_log_bytes: wire_log::DEFAULT_WIRE_LOG_BYTES,
            kept: None,
        })
        .expect("thread")
    }

    #[tokio::test]
    async fn a_finished_replay_has_the_official_layout() {
        let dir = temp_dir("layout");
        let recorder = store(&dir, false).open("swc_2021_blokus", "r", &["alice", "bob"]);
        recorder.record(Bytes::from_static(
            b"<room roomId=\"r\">\n  <data class=\"x\"/>\n</room>",
        ));
        recorder.record(Bytes::from_static(
            b"<room roomId=\"r\">\n  <data class=\"y\"/>\n</room>",
        ));
        let path = recorder.finish().await.map(file).expect("replay written");
        assert!(
            path.to_string_lossy().ends_with("_alice_bob_r.xml"),
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
    async fn a_burst_of_more_packets_than_one_write_takes_is_written_in_order() {
        let dir = temp_dir("burst");
        let recorder = store(&dir, false).open("swc_2021_blokus", "r", &["a", "b"]);
        // Two slices per packet: more than one call takes.
        let count = 775;
        for n in 0..count {
            recorder.record(Bytes::from(format!("<p n=\"{n}\"/>")));
        }
        let path = recorder.finish().await.map(file).expect("replay written");
        let text = std::fs::read_to_string(&path).expect("readable");
        let expected: String = (0..count).map(|n| format!("<p n=\"{n}\"/>\n")).collect();
        assert_eq!(text, format!("<protocol>\n{expected}</protocol>"));
        std::fs::remove_dir_all(dir).ok();
    }

    #[tokio::test]
    async fn a_running_game_is_a_readable_partial_file() {
        let dir = temp_dir("partial");
        let recorder = store(&dir, false).open("swc_2021_blokus", "r", &["", ""]);
        recorder.record(Bytes::from_static(b"<room roomId=\"r\"/>"));
        // Wait until the replay thread has written the packet.
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
        let done = recorder.finish().await.map(file).expect("published");
        assert!(!partial.exists());
        assert!(done.exists());
        std::fs::remove_dir_all(dir).ok();
    }

    #[tokio::test]
    async fn a_wire_log_takes_its_replays_name_once_every_tap_is_gone() {
        for gzip in [false, true] {
            let dir = temp_dir("wire");
            let store = store(&dir, gzip);
            let log = store.wire_log(2);
            let tap = log.tap(1);
            // Before the game starts, the log is kept in memory.
            tap.received(b"<protocol><join/>");
            let recorder = store.open("swc_2021_blokus", "r", &["a", "b"]);
            log.attach(&recorder, vec!["a".to_owned(), "b".to_owned()]);
            tap.written(&Bytes::from_static(b"\n  <joined roomId=\"r\"/>"));
            let replay = recorder.finish().await.map(file).expect("replay written");
            drop(log);
            let name = replay.file_name().and_then(|n| n.to_str()).expect("name");
            let [wire_name, _] = names::wire_log_names(name).expect("a replay name");
            let wire = dir.join(&wire_name);
            store.flush().await;
            assert!(!wire.exists(), "the seat's connection still holds the log");
            drop(tap);
            store.flush().await;
            assert!(wire.exists(), "{wire:?} (gzip {gzip})");
            let mut text = String::new();
            archive::open_path(&wire)
                .expect("open")
                .read_to_string(&mut text)
                .expect("text");
            assert!(text.starts_with("# Spielleiter wire log"), "{text}");
            assert!(text.contains("# seat 1: b\n"), "{text}");
            assert!(
                text.contains("seat 1 (b): 17 bytes received\n  |<protocol><join/>\n"),
                "{text}"
            );
            assert!(
                text.contains("seat 1 (b): 23 bytes written\n  |\n  |  <joined roomId=\"r\"/>\n"),
                "{text}"
            );
            // Only the replay is a replay.
            let listed: Vec<String> = archive::list(&dir)
                .expect("list")
                .into_iter()
                .map(|f| f.name)
                .collect();
            assert_eq!(listed, vec![name.to_owned()]);
            let leftovers: Vec<_> = std::fs::read_dir(&dir)
                .expect("dir")
                .filter_map(Result::ok)
                .filter(|e| e.file_name().to_string_lossy().contains(".partial"))
                .collect();
            assert!(leftovers.is_empty(), "{leftovers:?}");
            std::fs::remove_dir_all(dir).ok();
        }
    }

    #[tokio::test]
    async fn a_room_whose_game_never_started_leaves_no_wire_log() {
        let dir = temp_dir("wire-unstarted");
        let store = store(&dir, false);
        let log = store.wire_log(2);
        log.tap(0).received(b"<protocol><join/>");
        drop(log);
        store.flush().await;
        let files: Vec<_> = std::fs::read_dir(&dir).expect("dir").collect();
        assert!(files.is_empty(), "{files:?}");
        std::fs::remove_dir_all(dir).ok();
    }

    #[test]
    fn a_crashed_games_wire_log_goes_aside_with_its_replay() {
        let dir = temp_dir("wire-recover");
        std::fs::write(dir.join("replay_g_t_a_b_r.xml.partial"), "<protocol>\n").expect("write");
        std::fs::write(dir.join("replay_g_t_a_b_r.wire.txt.partial"), "# x\n").expect("write");
        let moved = recover_unfinished(&dir).expect("recovered");
        if cfg!(unix) {
            assert_eq!(moved, 1, "one replay");
            assert!(dir.join("replay_g_t_a_b_r.xml.unfinished").exists());
            assert!(dir.join("replay_g_t_a_b_r.wire.txt.unfinished").exists());
        }
        std::fs::remove_dir_all(dir).ok();
    }

    #[tokio::test]
    async fn gzip_replays_decompress_to_the_document() {
        let dir = temp_dir("gzip");
        let recorder = store(&dir, true).open("swc_2021_blokus", "r", &["a", "b"]);
        recorder.record(Bytes::from_static(b"<room roomId=\"r\"/>"));
        let path = recorder.finish().await.map(file).expect("published");
        assert!(path.to_string_lossy().ends_with(".xml.gz"), "{path:?}");
        let mut text = String::new();
        std::io::Read::read_to_string(
            &mut flate2::read::GzDecoder::new(File::open(&path).expect("open")),
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
        let store = store(&dir, false);
        let first = store.open("g", "room-1", &["a", "b"]);
        let second = store.open("g", "room-2", &["a", "b"]);
        // The same room twice (not done by the server) is numbered, not lost.
        let third = store.open("g", "room-1", &["a", "b"]);
        let p1 = first.finish().await.map(file).expect("first");
        let p2 = second.finish().await.map(file).expect("second");
        let p3 = third.finish().await.map(file).expect("third");
        assert!(p1.to_string_lossy().ends_with("_a_b_room-1.xml"), "{p1:?}");
        assert!(p2.to_string_lossy().ends_with("_a_b_room-2.xml"), "{p2:?}");
        assert!(
            p3.to_string_lossy().ends_with("_a_b_room-1_2.xml"),
            "{p3:?}"
        );
        std::fs::remove_dir_all(dir).ok();
    }

    #[test]
    fn an_unusable_directory_is_refused_at_start() {
        let file =
            std::env::temp_dir().join(format!("spielleiter-not-a-dir-{}", uuid::Uuid::new_v4()));
        std::fs::write(&file, b"x").expect("file");
        let error = check_dir(&file.join("sub")).expect_err("a file is no directory");
        assert_eq!(error.action, "create it");
        let message = error.to_string();
        assert!(message.contains(&*file.to_string_lossy()), "{message}");
        // The cause is the source, not repeated in the message.
        assert!(!message.contains("os error"), "{message}");
        let started = ReplayStore::start(ReplaySettings {
            dir: file.join("sub"),
            gzip: false,
            wire_log_bytes: wire_log::DEFAULT_WIRE_LOG_BYTES,
            kept: None,
        });
        assert!(started.is_err());
        std::fs::remove_file(file).ok();
    }

    #[test]
    fn a_usable_directory_is_created_and_left_empty() {
        let dir = temp_dir("check").join("new");
        check_dir(&dir).expect("usable");
        assert_eq!(std::fs::read_dir(&dir).expect("created").count(), 0);
        std::fs::remove_dir_all(dir.parent().expect("parent")).ok();
    }

    #[tokio::test]
    async fn a_directory_removed_while_games_run_loses_the_replay_not_the_game() {
        let dir = temp_dir("vanishing");
        let store = store(&dir, false);
        std::fs::remove_dir_all(&dir).expect("removed");
        std::fs::write(&dir, b"now a file").expect("file");
        let recorder = store.open("g", "r", &["a", "b"]);
        recorder.record(Bytes::from_static(b"<room/>"));
        let failure = recorder.finish().await.expect_err("no replay");
        assert!(failure.path.starts_with(&dir), "{failure:?}");
        std::fs::remove_file(dir).ok();
    }

    #[tokio::test]
    async fn a_full_disk_loses_the_replay_without_leaving_a_cut_file() {
        let dir = temp_dir("full");
        let mut writer = Writer::new(ReplaySettings {
            dir: dir.clone(),
            gzip: false,
            wire_log_bytes: wire_log::DEFAULT_WIRE_LOG_BYTES,
            kept: None,
        });
        writer.disk_space = Some(100);
        let store = ReplayStore::spawn(writer).expect("thread");
        let log = store.wire_log(2);
        let recorder = store.open("g", "r", &["a", "b"]);
        log.attach(&recorder, vec!["a".to_owned(), "b".to_owned()]);
        log.tap(0).received(b"<join/>");
        recorder.record(Bytes::from_static(b"<room roomId=\"r\"/>"));
        recorder.record(Bytes::from(vec![b'x'; 200]));
        let failure = recorder.finish().await.expect_err("the disk is full");
        // The wire log goes with its replay.
        drop(log);
        store.flush().await;
        assert_eq!(failure.cause.raw_os_error(), Some(28), "{failure:?}");
        assert!(
            failure
                .path
                .to_string_lossy()
                .ends_with("_a_b_r.xml.partial"),
            "{failure:?}"
        );
        let left: Vec<_> = std::fs::read_dir(&dir).expect("dir").collect();
        assert!(left.is_empty(), "nothing cut is left: {left:?}");
        // The next game is recorded (the disk has room again).
        let recorder = store.open("g", "r2", &["c", "d"]);
        assert!(recorder.finish().await.is_ok());
        std::fs::remove_dir_all(dir).ok();
    }

    #[cfg(unix)]
    #[tokio::test]
    async fn partial_files_of_a_crash_are_moved_aside_but_not_those_being_written() {
        let dir = temp_dir("recover");
        std::fs::write(dir.join("replay_old.xml.partial"), "<protocol>\n<room/>\n")
            .expect("a crash's leftover");
        // Another server is writing this one.
        let live = store(&dir, false).open("g", "r", &["live", "game"]);
        live.record(Bytes::from_static(b"<room/>"));
        let mut live_partial = None;
        for _ in 0..200 {
            live_partial = std::fs::read_dir(&dir)
                .expect("dir")
                .filter_map(Result::ok)
                .map(|e| e.path())
                .find(|p| p.to_string_lossy().ends_with("_live_game_r.xml.partial"));
            if live_partial.is_some() {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(5)).await;
        }
        let live_partial = live_partial.expect("the live partial file");
        // The store's start moved the leftover aside.
        assert!(dir.join("replay_old.xml.unfinished").exists());
        assert!(!dir.join("replay_old.xml.partial").exists());
        // Another start meanwhile: only the leftover of another crash moves.
        std::fs::write(dir.join("replay_older.xml.partial"), "<protocol>\n")
            .expect("another leftover");
        assert_eq!(recover_unfinished(&dir).expect("readable"), 1);
        assert!(dir.join("replay_older.xml.unfinished").exists());
        assert!(live_partial.exists(), "a file being written stays");
        assert!(live.finish().await.is_ok());
        std::fs::remove_dir_all(dir).ok();
    }

    fn kept_store(kept: &KeptReplays) -> ReplayStore {
        ReplayStore::start(ReplaySettings {
            // Never made: nothing is written when replays are kept.
            dir: std::env::temp_dir().join(format!("spielleiter-never-{}", uuid::Uuid::new_v4())),
            gzip: true,
            wire_log_bytes: wire_log::DEFAULT_WIRE_LOG_BYTES,
            kept: Some(kept.clone()),
        })
        .expect("thread")
    }

    #[tokio::test]
    async fn a_kept_replay_is_the_official_document_with_the_rooms_think_times() {
        let kept = KeptReplays::default();
        let store = kept_store(&kept);
        let recorder = store.open("swc_2021_blokus", "room-7", &["a", "b"]);
        recorder.record(Bytes::from_static(
            b"<room roomId=\"room-7\">\n  <data class=\"x\"/>\n</room>",
        ));
        recorder.think_time(1, std::time::Duration::from_micros(1500));
        recorder.record(Bytes::from_static(b"<room roomId=\"room-7\"/>"));
        recorder.think_time(0, std::time::Duration::from_micros(700));
        recorder.think_time(1, std::time::Duration::from_micros(2500));
        let published = recorder.finish().await.expect("kept");
        assert_eq!(
            published,
            Published::Kept {
                room: "room-7".to_owned()
            }
        );
        assert_eq!(published.path(), None);
        let game = kept
            .take("room-7", std::time::Duration::from_secs(5))
            .await
            .expect("the kept game");
        assert_eq!(
            String::from_utf8(game.replay).expect("text"),
            "<protocol>\n<room roomId=\"room-7\">\n  <data class=\"x\"/>\n</room>\n<room roomId=\"room-7\"/>\n</protocol>"
        );
        assert_eq!(
            game.think_times,
            [
                ThinkTimes {
                    moves: 1,
                    total_micros: 700,
                    max_micros: 700
                },
                ThinkTimes {
                    moves: 2,
                    total_micros: 4000,
                    max_micros: 2500
                }
            ]
        );
        assert!(game.wire_log.is_none());
        assert_eq!(kept.serialised(), 1);
    }

    #[tokio::test]
    async fn a_kept_replays_wire_log_follows_it_into_memory() {
        let kept = KeptReplays::default();
        let store = kept_store(&kept);
        let log = store.wire_log(2);
        let tap = log.tap(0);
        tap.received(b"<protocol><join/>");
        let recorder = store.open("swc_2021_blokus", "r", &["a", "b"]);
        log.attach(&recorder, vec!["a".to_owned(), "b".to_owned()]);
        tap.written(&Bytes::from_static(b"<joined roomId=\"r\"/>"));
        recorder.record(Bytes::from_static(b"<room roomId=\"r\"/>"));
        recorder.finish().await.expect("kept");
        let waiting = tokio::spawn({
            let kept = kept.clone();
            async move { kept.take("r", std::time::Duration::from_secs(10)).await }
        });
        drop(log);
        drop(tap);
        let game = waiting.await.expect("task").expect("the kept game");
        let text = String::from_utf8(game.wire_log.expect("the wire log")).expect("text");
        assert!(text.starts_with("# Spielleiter wire log"), "{text}");
        assert!(
            text.contains("seat 0 (a): 17 bytes received\n  |<protocol><join/>\n"),
            "{text}"
        );
        assert!(text.contains("<joined roomId=\"r\"/>"), "{text}");
    }

    #[test]
    fn a_replay_past_the_memory_bound_is_refused_not_grown() {
        let mut memory = MemoryReplay::new("r".to_owned(), 64);
        memory.append(&[b'x'; 20]).expect("within the bound");
        let error = memory.append(&[b'x'; 40]).expect_err("past the bound");
        assert!(error.to_string().contains("64 bytes"), "{error}");
        let (_, document, _) = memory.finish();
        assert!(document.len() <= 64, "{}", document.len());
    }
}
