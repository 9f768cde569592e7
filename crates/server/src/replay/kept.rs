//! [`KeptReplays`]: the finished games a server keeps in memory for the
//! process that runs it, instead of writing them to files: a season's
//! worker stores each game in its season's store, so its server hands it
//! the replay as the replay thread serialised it (once, never written to a
//! file and read back), the seats' think times as the room measured them,
//! and the wire log when the room kept one.
//!
//! What is kept is bounded: one replay in memory at most
//! [`KEPT_REPLAY_BYTES`] while it is written (a larger one is lost, like a
//! replay on a full disk), and the games nobody has taken yet at most
//! [`KEPT_BYTES`] together; past that, or after [`KEPT_FOR`], the oldest
//! are dropped (a game whose runner is gone, or a room someone opened on
//! the worker's port by hand, is never taken).

use std::{
    collections::{HashMap, VecDeque},
    sync::{
        Arc, Mutex, MutexGuard,
        atomic::{AtomicU64, Ordering},
    },
    time::Duration,
};

use spielleiter_archive::ThinkTimes;
use tokio::{sync::Notify, time::Instant};
use tracing::{debug, warn};

/// The most bytes one replay may take in memory while it is written: far
/// above a real game's (a 2027 game's replay is about 1 MB).
pub const KEPT_REPLAY_BYTES: usize = 64 << 20;

/// The most bytes of finished games kept for their runners together.
pub const KEPT_BYTES: usize = 256 << 20;

/// How long a finished game waits for its runner before it is dropped.
pub const KEPT_FOR: Duration = Duration::from_secs(10 * 60);

/// A finished game as its server kept it.
#[derive(Debug)]
pub struct KeptGame {
    /// The replay document, in the official format (uncompressed).
    pub replay: Vec<u8>,
    /// Each seat's think times, as the room measured them (the figures the
    /// replay records).
    pub think_times: Vec<ThinkTimes>,
    /// The wire log's text, when the room kept one and it was finished.
    pub wire_log: Option<Vec<u8>>,
    /// Whether a wire log is still to come.
    wire_pending: bool,
    /// When the replay was kept.
    kept_at: Instant,
}

impl KeptGame {
    fn bytes(&self) -> usize {
        self.replay.len() + self.wire_log.as_ref().map_or(0, Vec::len)
    }
}

/// The finished games a server keeps for its runner, by room id. Cheap to
/// clone; shared by the server's replay thread and the runner.
#[derive(Clone, Debug)]
pub struct KeptReplays {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    state: Mutex<State>,
    /// Woken whenever a game or a wire log is kept.
    changed: Notify,
    /// [`KEPT_BYTES`], lower in tests.
    limit: usize,
    /// Replays serialised into memory (finished documents).
    serialised: AtomicU64,
    /// Games dropped before their runner took them.
    dropped: AtomicU64,
}

#[derive(Debug, Default)]
struct State {
    games: HashMap<String, KeptGame>,
    /// Rooms in the order their games were kept (some taken already).
    order: VecDeque<String>,
    bytes: usize,
}

impl Default for KeptReplays {
    fn default() -> Self {
        KeptReplays::with_limit(KEPT_BYTES)
    }
}

impl KeptReplays {
    /// Keeps at most `limit` bytes of games not taken yet.
    pub fn with_limit(limit: usize) -> KeptReplays {
        KeptReplays {
            inner: Arc::new(Inner {
                state: Mutex::default(),
                changed: Notify::new(),
                limit,
                serialised: AtomicU64::new(0),
                dropped: AtomicU64::new(0),
            }),
        }
    }

    fn state(&self) -> MutexGuard<'_, State> {
        // Nothing is left half-changed under the lock.
        self.inner
            .state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// How many replays the replay thread has serialised into memory so
    /// far: one per finished game, none read from a file.
    pub fn serialised(&self) -> u64 {
        self.inner.serialised.load(Ordering::Relaxed)
    }

    /// How many finished games were dropped before anyone took them.
    pub fn dropped(&self) -> u64 {
        self.inner.dropped.load(Ordering::Relaxed)
    }

    /// The replay thread finished room `room`'s replay; `wire_pending`: its
    /// wire log is still being written.
    pub(super) fn keep_replay(
        &self,
        room: &str,
        replay: Vec<u8>,
        think_times: Vec<ThinkTimes>,
        wire_pending: bool,
    ) {
        self.inner.serialised.fetch_add(1, Ordering::Relaxed);
        let game = KeptGame {
            replay,
            think_times,
            wire_log: None,
            wire_pending,
            kept_at: Instant::now(),
        };
        {
            let mut state = self.state();
            state.bytes += game.bytes();
            if let Some(earlier) = state.games.insert(room.to_owned(), game) {
                // Room ids are unique; a second game of one room replaces
                // the first rather than leaking it.
                state.bytes -= earlier.bytes();
            }
            state.order.retain(|r| r != room);
            state.order.push_back(room.to_owned());
            self.shrink(&mut state);
        }
        self.inner.changed.notify_waiters();
    }

    /// Room `room`'s wire log is finished (`None`: it was lost).
    pub(super) fn keep_wire_log(&self, room: &str, log: Option<Vec<u8>>) {
        {
            let mut state = self.state();
            let Some(game) = state.games.get_mut(room) else {
                debug!(room, "a wire log whose game was taken or dropped already");
                return;
            };
            game.wire_pending = false;
            let added = log.as_ref().map_or(0, Vec::len);
            game.wire_log = log;
            state.bytes += added;
            self.shrink(&mut state);
        }
        self.inner.changed.notify_waiters();
    }

    /// Drops the oldest games while more than the limit is kept, and games
    /// older than [`KEPT_FOR`].
    fn shrink(&self, state: &mut State) {
        while let Some(oldest) = state.order.front().cloned() {
            let Some(game) = state.games.get(&oldest) else {
                state.order.pop_front();
                continue;
            };
            if state.bytes <= self.inner.limit && game.kept_at.elapsed() < KEPT_FOR {
                break;
            }
            state.order.pop_front();
            if let Some(game) = state.games.remove(&oldest) {
                state.bytes -= game.bytes();
                self.inner.dropped.fetch_add(1, Ordering::Relaxed);
                warn!(room = %oldest, bytes = game.bytes(), "a finished game kept in memory was never taken; dropped");
            }
        }
    }

    /// Takes room `room`'s finished game once its replay is kept and its
    /// wire log (if the room kept one) is finished, waiting at most
    /// `patience`; past it, takes what is there (a game without its wire
    /// log), or `None` when no replay of the room was kept.
    pub async fn take(&self, room: &str, patience: Duration) -> Option<KeptGame> {
        let deadline = Instant::now() + patience;
        loop {
            let changed = self.inner.changed.notified();
            tokio::pin!(changed);
            // Registered before the look, so that a keep in between wakes it.
            changed.as_mut().enable();
            {
                let mut state = self.state();
                let ready = state
                    .games
                    .get(room)
                    .map(|game| !game.wire_pending || Instant::now() >= deadline);
                match ready {
                    Some(true) => {
                        state.order.retain(|r| r != room);
                        let game = state.games.remove(room)?;
                        state.bytes -= game.bytes();
                        return Some(game);
                    }
                    None if Instant::now() >= deadline => return None,
                    _ => {}
                }
            }
            let _ = tokio::time::timeout_at(deadline, changed).await;
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[tokio::test(start_paused = true)]
    async fn a_game_is_taken_once_its_wire_log_is_there() {
        let kept = KeptReplays::default();
        let waiting = tokio::spawn({
            let kept = kept.clone();
            async move { kept.take("r", Duration::from_secs(5)).await }
        });
        tokio::task::yield_now().await;
        kept.keep_replay("r", b"<protocol>\n</protocol>".to_vec(), Vec::new(), true);
        tokio::time::sleep(Duration::from_millis(100)).await;
        assert!(!waiting.is_finished(), "the wire log is still to come");
        kept.keep_wire_log("r", Some(b"log".to_vec()));
        let game = waiting.await.unwrap().unwrap();
        assert_eq!(game.replay, b"<protocol>\n</protocol>");
        assert_eq!(game.wire_log.as_deref(), Some(&b"log"[..]));
        assert_eq!(kept.serialised(), 1);
        // Taken: gone.
        assert!(kept.take("r", Duration::ZERO).await.is_none());
    }

    #[tokio::test(start_paused = true)]
    async fn a_wire_log_that_never_comes_costs_only_the_patience() {
        let kept = KeptReplays::default();
        kept.keep_replay("r", b"x".to_vec(), Vec::new(), true);
        let started = Instant::now();
        let game = kept.take("r", Duration::from_secs(2)).await.unwrap();
        assert_eq!(started.elapsed(), Duration::from_secs(2));
        assert!(game.wire_log.is_none());
        let started = Instant::now();
        assert!(kept.take("unknown", Duration::from_secs(3)).await.is_none());
        assert_eq!(started.elapsed(), Duration::from_secs(3));
    }

    #[tokio::test(start_paused = true)]
    async fn games_nobody_takes_are_dropped_oldest_first_past_the_limit() {
        let kept = KeptReplays::with_limit(10);
        kept.keep_replay("a", vec![0; 6], Vec::new(), false);
        kept.keep_replay("b", vec![0; 6], Vec::new(), false);
        assert_eq!(kept.dropped(), 1);
        assert!(kept.take("a", Duration::ZERO).await.is_none());
        assert_eq!(
            kept.take("b", Duration::ZERO).await.unwrap().replay.len(),
            6
        );
        // Past their time, too.
        kept.keep_replay("c", vec![0; 1], Vec::new(), false);
        tokio::time::advance(KEPT_FOR + Duration::from_secs(1)).await;
        kept.keep_replay("d", vec![0; 1], Vec::new(), false);
        assert!(kept.take("c", Duration::ZERO).await.is_none());
        assert!(kept.take("d", Duration::ZERO).await.is_some());
        assert_eq!(kept.state().bytes, 0);
    }
}
