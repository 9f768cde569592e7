//! Wire logs (`--wire-log`): each seat's bytes as its connection read and
//! wrote them, with the instant of each, kept next to the game's replay as
//! `NAME.wire.txt` (`NAME.wire.txt.gz` beside a gzipped replay), so that a
//! student whose client lost with "malformed XML" or a timeout can see the
//! exchange as the server saw it.
//!
//! Three parts: the room's [`WireLog`] hands each seat a [`SeatTap`]; the
//! seat's connection feeds the tap what it reads, its outbox what it
//! writes. A tap never waits: it copies (or shares) the bytes into a job
//! for the replay thread, which formats them as text and owns the file
//! (`WireFiles`). Each seat is capped at [`ReplaySettings::wire_log_bytes`]
//! logged bytes (a "cut here" line marks the cap); bytes the thread has
//! not taken yet are bounded per seat as well, and what does not fit is
//! dropped and said so in the log, never waited for.
//!
//! The file follows its replay: it grows as `STEM.wire.txt.partial` beside
//! the replay's `STEM.xml.partial` once the game starts, and when the last
//! tap is gone (the room and the seats' connections have ended) it gets
//! the finished replay's name with [`WIRE_PLAIN`] or [`WIRE_GZIP`]; a
//! replay that could not be written takes its wire log with it, and a room
//! whose game never started leaves none.
//!
//! [`ReplaySettings::wire_log_bytes`]: super::ReplaySettings::wire_log_bytes

use std::{
    collections::HashMap,
    fmt::Write as _,
    io::Write as _,
    path::{Path, PathBuf},
    sync::{Arc, atomic::Ordering, mpsc},
    time::{Duration, SystemTime},
};

use bytes::Bytes;
use tracing::{debug, warn};

use super::{
    Finished, KeptReplays, Sink,
    job::{Entry, EntryKind, Job, ReplayFailure, SeatCounters, WireJob},
    names::{PARTIAL, WIRE_GZIP, WIRE_PARTIAL, WIRE_PARTIAL_GZIP, WIRE_PLAIN, finished_stem},
    partial::{LockedFile, compress, lock},
};

/// The default cap of one seat's log in bytes of the wire (a 2027 Blokus
/// game sends each seat about 0.5 MB of states, a 4-player classic game 0.6 MB).
pub const DEFAULT_WIRE_LOG_BYTES: usize = 4 << 20;

/// What each entry counts against a seat's cap and in-flight bound beyond
/// its bytes (its time and header in the text, its job): a client that
/// sends a byte at a time cannot make its log, or the memory holding it,
/// many times the cap.
const ENTRY_COST: usize = 64;

/// The most bytes of one seat the replay thread may have yet to take
/// (fewer when the cap is lower): a thread behind on a busy disk costs
/// bounded memory, and the seat's log says what was dropped.
pub(super) const IN_FLIGHT_PER_SEAT: usize = 1 << 20;

/// Sends the log's close when the room and every tap are gone.
#[derive(Debug)]
pub(super) struct Life {
    pub(super) id: u64,
    pub(super) jobs: mpsc::Sender<Job>,
    pub(super) seats: Arc<[SeatCounters]>,
    pub(super) cap: usize,
    pub(super) in_flight_limit: usize,
}

impl Drop for Life {
    fn drop(&mut self) {
        let _ = self.jobs.send(Job::Wire(WireJob::Close { id: self.id }));
    }
}

/// A room's wire log: hands out its seats' taps and ties the log to the
/// game's replay. The file is finished once this handle and every tap are
/// dropped.
#[derive(Debug)]
pub struct WireLog {
    pub(super) life: Arc<Life>,
}

/// One seat's end of a wire log, held by the seat's connection (what it
/// reads) and its outbox (what it writes). Cheap to clone; never blocks.
#[derive(Clone, Debug)]
pub struct SeatTap {
    life: Arc<Life>,
    seat: usize,
}

impl WireLog {
    /// The tap of seat `seat`.
    pub fn tap(&self, seat: usize) -> SeatTap {
        SeatTap {
            life: Arc::clone(&self.life),
            seat,
        }
    }
}

impl SeatTap {
    /// Bytes the connection read from the client, just now.
    pub fn received(&self, bytes: &[u8]) {
        self.received_before(bytes, Duration::ZERO);
    }

    /// Bytes the connection read from the client `ago` (the request that
    /// took the seat, logged once the seat is known).
    pub fn received_before(&self, bytes: &[u8], ago: Duration) {
        let at = SystemTime::now()
            .checked_sub(ago)
            .unwrap_or(SystemTime::UNIX_EPOCH);
        self.offer(EntryKind::Received, at, bytes.len(), |kept| {
            Bytes::copy_from_slice(&bytes[..kept])
        });
    }

    /// A packet's bytes, just handed whole to the client's socket.
    pub fn written(&self, bytes: &Bytes) {
        self.offer(EntryKind::Written, SystemTime::now(), bytes.len(), |kept| {
            bytes.slice(..kept)
        });
    }

    /// Sends the part of `len` bytes the cap leaves (taken by `take`) and,
    /// for the first byte past the cap, the cut marker.
    fn offer(
        &self,
        kind: EntryKind,
        at: SystemTime,
        len: usize,
        take: impl FnOnce(usize) -> Bytes,
    ) {
        if len == 0 {
            return;
        }
        let life = &*self.life;
        let Some(counters) = life.seats.get(self.seat) else {
            return;
        };
        let before = counters
            .offered
            .fetch_add(len + ENTRY_COST, Ordering::Relaxed);
        if before > life.cap {
            return;
        }
        let kept = len.min((life.cap - before).saturating_sub(ENTRY_COST));
        if kept > 0 {
            let cost = kept + ENTRY_COST;
            let in_flight = counters.in_flight.fetch_add(cost, Ordering::AcqRel);
            if in_flight + cost > life.in_flight_limit {
                counters.in_flight.fetch_sub(cost, Ordering::AcqRel);
                counters.dropped.fetch_add(kept, Ordering::Relaxed);
            } else {
                self.send(Entry {
                    seat: self.seat,
                    at,
                    kind,
                    bytes: take(kept),
                    dropped_before: counters.dropped.swap(0, Ordering::Relaxed),
                });
            }
        }
        if kept < len {
            self.send(Entry {
                seat: self.seat,
                at,
                kind: EntryKind::Cut(life.cap),
                bytes: Bytes::new(),
                dropped_before: counters.dropped.swap(0, Ordering::Relaxed),
            });
        }
    }

    fn send(&self, entry: Entry) {
        let _ = self.life.jobs.send(Job::Wire(WireJob::Entry {
            id: self.life.id,
            entry,
        }));
    }
}

/// The replay thread's wire logs.
pub(super) struct WireFiles {
    dir: PathBuf,
    gzip: bool,
    /// Where the logs of replays kept in memory go.
    kept: Option<KeptReplays>,
    logs: HashMap<u64, LogFile>,
    /// Logs whose close arrived this round: finished after the round's
    /// replays are published.
    closing: Vec<u64>,
}

/// One log as the thread keeps it.
struct LogFile {
    seats: Arc<[SeatCounters]>,
    cap: usize,
    names: Vec<String>,
    /// Entries not yet formatted: until the game starts (and names its
    /// players), else until the end of the round, which puts them in the
    /// order of their times (a seat's request is logged after the seat
    /// answered it).
    pending: Vec<Entry>,
    /// Text not yet written.
    text: Vec<u8>,
    state: FileState,
}

enum FileState {
    /// The game has not started: the entries are kept in memory.
    Waiting,
    /// The text goes to `path` (`STEM.wire.txt.partial`), locked while it
    /// is written; `replay` is the replay's recorder id.
    Writing {
        file: LockedFile,
        path: PathBuf,
        replay: u64,
        /// The finished replay's stem, once it is published.
        published: Option<String>,
    },
    /// The text is kept in memory for the server's runner, beside replay
    /// `replay`, which is kept in memory too (under the room's id).
    Kept {
        replay: u64,
        room: String,
        /// The text so far.
        kept: Vec<u8>,
        /// Whether the replay is finished.
        published: bool,
    },
    /// The replay (or this file) could not be written: the log is
    /// dropped.
    Lost,
}

impl WireFiles {
    pub(super) fn new(dir: &Path, gzip: bool, kept: Option<KeptReplays>) -> WireFiles {
        WireFiles {
            dir: dir.to_owned(),
            gzip,
            kept,
            logs: HashMap::new(),
            closing: Vec::new(),
        }
    }

    /// Handles a job; `replays` are the open replays, for a log to find
    /// its replay's file.
    pub(super) fn handle(
        &mut self,
        job: WireJob,
        replays: &HashMap<u64, Result<Sink, ReplayFailure>>,
    ) {
        match job {
            WireJob::Open { id, seats, cap } => {
                self.logs.insert(
                    id,
                    LogFile {
                        seats,
                        cap,
                        names: Vec::new(),
                        pending: Vec::new(),
                        text: Vec::new(),
                        state: FileState::Waiting,
                    },
                );
            }
            WireJob::Attach { id, replay, names } => {
                let Some(log) = self.logs.get_mut(&id) else {
                    return;
                };
                log.names = names;
                log.state = match replays.get(&replay) {
                    Some(Ok(Sink::Memory(memory))) => {
                        log.text = header(log.cap, &log.names);
                        FileState::Kept {
                            replay,
                            room: memory.room.clone(),
                            kept: Vec::new(),
                            published: false,
                        }
                    }
                    Some(Ok(Sink::File(partial))) => match create_partial(&partial.path) {
                        Ok((file, path)) => {
                            log.text = header(log.cap, &log.names);
                            FileState::Writing {
                                file,
                                path,
                                replay,
                                published: None,
                            }
                        }
                        Err(error) => {
                            warn!(%error, dir = %self.dir.display(), "cannot create a wire log; the game's exchange is not logged");
                            FileState::Lost
                        }
                    },
                    _ => FileState::Lost,
                };
            }
            WireJob::Entry { id, entry } => {
                let Some(log) = self.logs.get_mut(&id) else {
                    return;
                };
                if let Some(counters) = log.seats.get(entry.seat)
                    && !entry.bytes.is_empty()
                {
                    counters
                        .in_flight
                        .fetch_sub(entry.bytes.len() + ENTRY_COST, Ordering::AcqRel);
                }
                if !matches!(log.state, FileState::Lost) {
                    log.pending.push(entry);
                }
            }
            WireJob::Close { id } => self.closing.push(id),
        }
    }

    /// Replay `replay` was finished as `result` (its final path, or kept
    /// in memory): its wire log takes the same name when it is finished
    /// (or follows it into memory), or goes with a replay that failed.
    /// Returns whether a wire log of the replay is still to come.
    pub(super) fn replay_published(
        &mut self,
        replay: u64,
        result: &Result<Finished, ReplayFailure>,
    ) -> bool {
        let mut to_come = false;
        for log in self.logs.values_mut() {
            if let FileState::Kept {
                replay: of,
                published,
                ..
            } = &mut log.state
                && *of == replay
            {
                if matches!(result, Ok(Finished::Memory(_))) {
                    *published = true;
                    to_come = true;
                } else {
                    log.state = FileState::Lost;
                }
                continue;
            }
            let FileState::Writing {
                replay: of,
                published,
                path,
                ..
            } = &mut log.state
            else {
                continue;
            };
            if *of != replay {
                continue;
            }
            let stem = match result {
                Ok(Finished::File(path)) => path
                    .file_name()
                    .and_then(|name| name.to_str())
                    .and_then(finished_stem)
                    .map(str::to_owned),
                _ => None,
            };
            match stem {
                Some(stem) => *published = Some(stem),
                None => {
                    let _ = std::fs::remove_file(path);
                    log.state = FileState::Lost;
                }
            }
        }
        to_come
    }

    /// Writes what the round gathered and finishes the logs closed in it.
    pub(super) fn round(&mut self) {
        for log in self.logs.values_mut() {
            write_text(log);
        }
        for id in std::mem::take(&mut self.closing) {
            if let Some(log) = self.logs.remove(&id) {
                self.finish(log);
            }
        }
    }

    /// Writes a closed log's last lines and gives it its replay's name;
    /// a log whose replay is not finished stays a partial file (a crash's
    /// leftover, moved aside at the next start).
    fn finish(&self, mut log: LogFile) {
        // The last entries first, then what never reached them.
        write_text(&mut log);
        let dropped: Vec<(usize, usize)> = log
            .seats
            .iter()
            .enumerate()
            .map(|(seat, c)| (seat, c.dropped.swap(0, Ordering::Relaxed)))
            .filter(|&(_, dropped)| dropped > 0)
            .collect();
        for (seat, bytes) in dropped {
            let _ = writeln!(
                Text(&mut log.text),
                "{} not logged: the log writer fell behind",
                seat_bytes(seat, &log.names, bytes)
            );
        }
        write_text(&mut log);
        let (file, path, published) = match log.state {
            FileState::Writing {
                file,
                path,
                published,
                ..
            } => (file, path, published),
            FileState::Kept {
                room,
                kept,
                published,
                ..
            } => {
                match (&self.kept, published) {
                    (Some(to), true) => to.keep_wire_log(&room, Some(kept)),
                    _ => debug!(room, "wire log of an unfinished replay dropped"),
                }
                return;
            }
            FileState::Waiting | FileState::Lost => return,
        };
        let Some(stem) = published else {
            debug!(path = %path.display(), "wire log of an unfinished replay left as it is");
            return;
        };
        let finished = publish(&file, &path, &self.dir, &stem, self.gzip);
        drop(file);
        match finished {
            Ok(path) => debug!(path = %path.display(), "wire log written"),
            Err(error) => {
                let _ = std::fs::remove_file(&path);
                warn!(%error, path = %path.display(), "cannot finish a wire log");
            }
        }
    }
}

/// Formats the pending entries in the order of their times and appends
/// the text to the log's file; on failure (a full disk) the log is given
/// up.
fn write_text(log: &mut LogFile) {
    match &mut log.state {
        FileState::Lost => {
            log.pending = Vec::new();
            return;
        }
        FileState::Waiting => return,
        FileState::Writing { .. } | FileState::Kept { .. } => {}
    }
    log.pending.sort_by_key(|entry| entry.at);
    for entry in log.pending.drain(..) {
        format_entry(&mut log.text, &entry, &log.names);
    }
    if log.text.is_empty() {
        return;
    }
    let (file, path) = match &mut log.state {
        FileState::Writing { file, path, .. } => (file, path),
        FileState::Kept { kept, .. } => {
            // Bounded as the file is: by the seats' caps.
            kept.append(&mut log.text);
            return;
        }
        FileState::Waiting | FileState::Lost => return,
    };
    if let Err(error) = file.write_all(&log.text) {
        warn!(%error, path = %path.display(), "cannot write a wire log; it is given up");
        let _ = std::fs::remove_file(&*path);
        log.state = FileState::Lost;
    }
    log.text.clear();
    if log.text.capacity() > 256 * 1024 {
        log.text = Vec::new();
    }
}

/// `STEM.wire.txt.partial` beside the replay's `STEM.xml.partial`, locked.
fn create_partial(replay_partial: &Path) -> std::io::Result<(LockedFile, PathBuf)> {
    let name = replay_partial
        .file_name()
        .and_then(|n| n.to_str())
        .and_then(|n| n.strip_suffix(PARTIAL))
        .ok_or_else(|| std::io::Error::other("the replay's file has no partial name"))?;
    let path = replay_partial.with_file_name(format!("{name}{WIRE_PARTIAL}"));
    let file = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .open(&path)?;
    Ok((lock(file)?, path))
}

/// Moves the finished `partial` to `STEM.wire.txt` (or compresses it to
/// `STEM.wire.txt.gz`).
fn publish(
    file: &LockedFile,
    partial: &Path,
    dir: &Path,
    stem: &str,
    gzip: bool,
) -> std::io::Result<PathBuf> {
    file.sync_data()?;
    if gzip {
        let compressing = partial.with_file_name(format!(
            "{}{WIRE_PARTIAL_GZIP}",
            partial
                .file_name()
                .and_then(|n| n.to_str())
                .and_then(|n| n.strip_suffix(WIRE_PARTIAL))
                .unwrap_or(stem)
        ));
        compress(partial, &compressing)?;
        let target = dir.join(format!("{stem}{WIRE_GZIP}"));
        std::fs::rename(&compressing, &target)?;
        std::fs::remove_file(partial)?;
        Ok(target)
    } else {
        let target = dir.join(format!("{stem}{WIRE_PLAIN}"));
        std::fs::rename(partial, &target)?;
        Ok(target)
    }
}

/// The log's first lines: what it is and how to read it.
fn header(cap: usize, names: &[String]) -> Vec<u8> {
    let mut text = String::new();
    let _ = writeln!(
        text,
        "# Spielleiter wire log: each seat's bytes as the server read them from its client\n\
         # (\"received\") and handed them to its client's socket (\"written\"), in UTC.\n\
         # A seat's log starts with the request that took the seat and is cut at {cap} bytes\n\
         # (each entry counting {ENTRY_COST} more than the bytes it shows).\n\
         # Data lines start with \"  |\"; bytes that are no printable text are shown as \\xNN,\n\
         # a backslash as \\\\."
    );
    for (seat, name) in names.iter().enumerate() {
        let _ = writeln!(text, "# seat {seat}: {}", display_name(name));
    }
    text.push('\n');
    text.into_bytes()
}

fn display_name(name: &str) -> String {
    let mut shown = String::new();
    escape_into(&mut shown, name.as_bytes());
    if shown.is_empty() {
        "(no name)".to_owned()
    } else {
        shown
    }
}

/// `seat N (name) B bytes`.
fn seat_bytes(seat: usize, names: &[String], bytes: usize) -> String {
    match names.get(seat) {
        Some(name) if !name.is_empty() => {
            format!("seat {seat} ({}): {bytes} bytes", display_name(name))
        }
        _ => format!("seat {seat}: {bytes} bytes"),
    }
}

/// A `fmt::Write` into a byte buffer.
struct Text<'a>(&'a mut Vec<u8>);

impl std::fmt::Write for Text<'_> {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.0.extend_from_slice(s.as_bytes());
        Ok(())
    }
}

fn format_entry(text: &mut Vec<u8>, entry: &Entry, names: &[String]) {
    let at = time(entry.at);
    let mut out = Text(text);
    if entry.dropped_before > 0 {
        let _ = writeln!(
            out,
            "{at} {} not logged before this: the log writer fell behind",
            seat_bytes(entry.seat, names, entry.dropped_before)
        );
    }
    let what = match entry.kind {
        EntryKind::Received => "received",
        EntryKind::Written => "written",
        EntryKind::Cut(after) => {
            let _ = writeln!(
                out,
                "{at} ---- cut here: seat {}'s log reached its cap of {after} bytes; the rest of its exchange is not logged ----",
                entry.seat
            );
            return;
        }
    };
    let _ = writeln!(
        out,
        "{at} {} {what}",
        seat_bytes(entry.seat, names, entry.bytes.len())
    );
    // Appended as they are, not through `fmt`: a state is a hundred lines.
    let mut line = String::new();
    for part in entry.bytes.split(|&b| b == b'\n') {
        line.clear();
        escape_into(&mut line, part);
        out.0.extend_from_slice(b"  |");
        out.0.extend_from_slice(line.as_bytes());
        out.0.push(b'\n');
    }
}

/// The instant as `2026-11-27T11:40:01.123456Z`.
fn time(at: SystemTime) -> String {
    jiff::Timestamp::try_from(at)
        .map(|t| t.strftime("%Y-%m-%dT%H:%M:%S%.6fZ").to_string())
        .unwrap_or_else(|_| "(time unknown)".to_owned())
}

/// Appends `bytes` as readable text: printable UTF-8 and tabs as they are,
/// every other byte as `\xNN`, a backslash as `\\`.
fn escape_into(out: &mut String, bytes: &[u8]) {
    let mut rest = bytes;
    while !rest.is_empty() {
        // The wire is mostly printable ASCII: copied a run at a time.
        let plain = rest
            .iter()
            .position(|&b| !(b == b'\t' || (0x20..0x7f).contains(&b)) || b == b'\\')
            .unwrap_or(rest.len());
        if let Ok(run) = std::str::from_utf8(&rest[..plain]) {
            out.push_str(run);
        }
        rest = &rest[plain..];
        let Some(&first) = rest.first() else {
            break;
        };
        if first == b'\\' {
            out.push_str("\\\\");
            rest = &rest[1..];
            continue;
        }
        // Up to the next plain ASCII byte: other text, or bytes that are none.
        let other = rest
            .iter()
            .position(|&b| b.is_ascii() && (b == b'\t' || (0x20..0x7f).contains(&b)))
            .unwrap_or(rest.len());
        for chunk in rest[..other].utf8_chunks() {
            for c in chunk.valid().chars() {
                if c.is_control() {
                    let mut buffer = [0; 4];
                    for byte in c.encode_utf8(&mut buffer).bytes() {
                        let _ = write!(out, "\\x{byte:02X}");
                    }
                } else {
                    out.push(c);
                }
            }
            for byte in chunk.invalid() {
                let _ = write!(out, "\\x{byte:02X}");
            }
        }
        rest = &rest[other..];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_are_shown_as_text_with_escapes() {
        let mut out = String::new();
        escape_into(
            &mut out,
            b"<a b=\"\xC3\xA4\"/>\r\x00\xFF\\\t\xE2\x82 \xC2\x85x",
        );
        assert_eq!(
            out,
            "<a b=\"ä\"/>\\x0D\\x00\\xFF\\\\\t\\xE2\\x82 \\xC2\\x85x"
        );
    }

    #[test]
    fn an_entry_shows_each_line_of_its_bytes() {
        let mut text = Vec::new();
        let entry = Entry {
            seat: 1,
            at: SystemTime::UNIX_EPOCH + std::time::Duration::from_micros(1_500_001),
            kind: EntryKind::Written,
            bytes: Bytes::from_static(b"\n  <room>\n  </room>"),
            dropped_before: 7,
        };
        format_entry(&mut text, &entry, &["alice".to_owned(), "bob".to_owned()]);
        assert_eq!(
            String::from_utf8(text).expect("text"),
            "1970-01-01T00:00:01.500001Z seat 1 (bob): 7 bytes not logged before this: the log writer fell behind\n\
             1970-01-01T00:00:01.500001Z seat 1 (bob): 19 bytes written\n  |\n  |  <room>\n  |  </room>\n"
        );
    }

    /// A log whose jobs go to `jobs` instead of a thread.
    fn log_into(
        seats: usize,
        cap: usize,
        in_flight_limit: usize,
    ) -> (WireLog, mpsc::Receiver<Job>) {
        let (tx, rx) = mpsc::channel();
        let life = Life {
            id: 9,
            jobs: tx,
            seats: (0..seats).map(|_| SeatCounters::default()).collect(),
            cap,
            in_flight_limit,
        };
        (
            WireLog {
                life: Arc::new(life),
            },
            rx,
        )
    }

    fn entries(jobs: &mpsc::Receiver<Job>) -> Vec<(usize, EntryKind, Vec<u8>, usize)> {
        jobs.try_iter()
            .filter_map(|job| match job {
                Job::Wire(WireJob::Entry { entry, .. }) => Some((
                    entry.seat,
                    entry.kind,
                    entry.bytes.to_vec(),
                    entry.dropped_before,
                )),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn a_seat_is_cut_at_its_cap_with_one_marker() {
        // Room for two entries and 10 bytes.
        let cap = 2 * ENTRY_COST + 10;
        let (log, jobs) = log_into(2, cap, 1000);
        let (tap, other) = (log.tap(0), log.tap(1));
        tap.received(b"1234");
        tap.written(&Bytes::from_static(b"56789abc"));
        tap.received(b"more");
        other.received(b"xy");
        assert_eq!(
            entries(&jobs),
            vec![
                (0, EntryKind::Received, b"1234".to_vec(), 0),
                (0, EntryKind::Written, b"56789a".to_vec(), 0),
                (0, EntryKind::Cut(cap), Vec::new(), 0),
                (1, EntryKind::Received, b"xy".to_vec(), 0),
            ]
        );
    }

    #[test]
    fn a_client_sending_a_byte_at_a_time_is_cut_by_its_entries_too() {
        let cap = 10 * ENTRY_COST;
        let (log, jobs) = log_into(1, cap, cap);
        let tap = log.tap(0);
        for _ in 0..1000 {
            tap.received(b"x");
        }
        let entries = entries(&jobs);
        assert_eq!(entries.len(), 10, "9 bytes and the cut: {entries:?}");
        assert_eq!(entries[9].1, EntryKind::Cut(cap));
    }

    #[test]
    fn bytes_the_thread_has_not_taken_are_bounded_and_dropped_ones_reported() {
        let (log, jobs) = log_into(1, 1000, ENTRY_COST + 6);
        let tap = log.tap(0);
        tap.received(b"abcd");
        // Nobody has taken the first entry: another would exceed the bound.
        tap.received(b"efgh");
        let first = entries(&jobs);
        assert_eq!(first, vec![(0, EntryKind::Received, b"abcd".to_vec(), 0)]);
        // The thread takes it.
        log.life.seats[0]
            .in_flight
            .fetch_sub(ENTRY_COST + 4, Ordering::AcqRel);
        tap.received(b"ij");
        assert_eq!(
            entries(&jobs),
            vec![(0, EntryKind::Received, b"ij".to_vec(), 4)]
        );
    }

    #[test]
    fn the_log_closes_when_the_room_and_every_tap_are_gone() {
        let (log, jobs) = log_into(1, 1000, 1000);
        let tap = log.tap(0);
        drop(log);
        assert!(jobs.try_recv().is_err(), "a tap still holds the log");
        drop(tap);
        assert!(matches!(
            jobs.try_recv(),
            Ok(Job::Wire(WireJob::Close { id: 9 }))
        ));
    }
}
