//! Counters and latency figures the server keeps about itself: how many
//! games and moves it has run, how games ended, and how long it takes from
//! reading a move to writing the next move request (the server-added
//! latency). Rooms update them with relaxed atomic operations; nothing waits
//! on them.

use std::{
    sync::{
        Arc,
        atomic::{AtomicU64, Ordering},
    },
    time::Duration,
};

use spielleiter_rules::GameType;

use crate::showroom::Showroom;

/// Sub-buckets per power of two: a recorded value is off by at most 1/32
/// (about 3 %).
const SUB_BUCKETS: u64 = 32;
/// Enough buckets for values up to 2^40 µs (12 days).
const BUCKETS: usize = 32 + 36 * SUB_BUCKETS as usize;

/// A histogram of durations with microsecond resolution and about 3 %
/// precision, safe to update from many tasks at once.
#[derive(Debug)]
pub struct LatencyHistogram {
    buckets: Box<[AtomicU64]>,
    /// The sum of the recorded values in microseconds.
    sum_micros: AtomicU64,
}

impl Default for LatencyHistogram {
    fn default() -> Self {
        LatencyHistogram {
            buckets: (0..BUCKETS).map(|_| AtomicU64::new(0)).collect(),
            sum_micros: AtomicU64::new(0),
        }
    }
}

fn bucket_of(micros: u64) -> usize {
    if micros < SUB_BUCKETS {
        return micros as usize;
    }
    let magnitude = 63 - u64::from(micros.leading_zeros());
    let shift = magnitude - 5;
    let index = SUB_BUCKETS + shift * SUB_BUCKETS + ((micros >> shift) - SUB_BUCKETS);
    (index as usize).min(BUCKETS - 1)
}

/// The smallest value that falls into bucket `index`.
fn lower_bound(index: usize) -> u64 {
    let index = index as u64;
    if index < SUB_BUCKETS {
        return index;
    }
    let shift = (index - SUB_BUCKETS) / SUB_BUCKETS;
    let sub = (index - SUB_BUCKETS) % SUB_BUCKETS;
    (SUB_BUCKETS + sub) << shift
}

impl LatencyHistogram {
    /// Counts one duration.
    pub fn record(&self, duration: Duration) {
        let micros = u64::try_from(duration.as_micros()).unwrap_or(u64::MAX);
        self.buckets[bucket_of(micros)].fetch_add(1, Ordering::Relaxed);
        self.sum_micros.fetch_add(micros, Ordering::Relaxed);
    }

    /// The sum of the recorded durations.
    pub fn sum(&self) -> Duration {
        Duration::from_micros(self.sum_micros.load(Ordering::Relaxed))
    }

    /// How many recorded durations fall into buckets below `limit` (exact
    /// when `limit` is a bucket boundary such as 50 µs × 2^k; otherwise
    /// within the buckets' 3 %).
    pub fn count_below(&self, limit: Duration) -> u64 {
        let micros = u64::try_from(limit.as_micros()).unwrap_or(u64::MAX);
        let end = bucket_of(micros);
        self.buckets[..end]
            .iter()
            .map(|b| b.load(Ordering::Relaxed))
            .sum()
    }

    /// How many durations were recorded.
    pub fn count(&self) -> u64 {
        self.buckets.iter().map(|b| b.load(Ordering::Relaxed)).sum()
    }

    /// The `q`-quantile (0.5 = median), as the lower bound of its bucket;
    /// `None` if nothing was recorded.
    pub fn quantile(&self, q: f64) -> Option<Duration> {
        let counts: Vec<u64> = self
            .buckets
            .iter()
            .map(|b| b.load(Ordering::Relaxed))
            .collect();
        let total: u64 = counts.iter().sum();
        if total == 0 {
            return None;
        }
        // The rank of the wanted value, 1-based, rounded up.
        let rank = ((q.clamp(0.0, 1.0) * total as f64).ceil() as u64).max(1);
        let mut seen = 0;
        for (index, count) in counts.iter().enumerate() {
            seen += count;
            if seen >= rank {
                return Some(Duration::from_micros(lower_bound(index)));
            }
        }
        None
    }
}

/// What the server tells about itself: counters, the server-added move
/// latency, and the rooms as they are now ([`Showroom`]).
#[derive(Debug, Default)]
pub struct ServerStats {
    /// The open rooms' snapshots and the last finished games.
    pub rooms: Arc<Showroom>,
    /// From reading a move to writing the next move request.
    pub move_latency: LatencyHistogram,
    /// Moves applied.
    pub moves: AtomicU64,
    /// Games that reached a result.
    pub games_finished: AtomicU64,
    /// Games that reached a result, by game and how they ended.
    pub finished_by_cause: FinishedGames,
    /// Games lost by a move after the soft limit.
    pub soft_timeouts: AtomicU64,
    /// Games lost by no move within the hard limit.
    pub hard_timeouts: AtomicU64,
    /// Rooms that did not answer the lobby in time and were taken out of
    /// the registry.
    pub rooms_unresponsive: AtomicU64,
    /// Games whose replay could not be written (their result was delivered).
    pub replays_lost: AtomicU64,
    /// `authenticate` requests with a wrong passphrase.
    pub failed_authentications: AtomicU64,
    /// Connections refused at once (a connection limit was reached).
    pub refused_connections: AtomicU64,
    /// Web connections refused at once (a cap of the web side's own
    /// connection budget was reached); counted by the web side's accept
    /// loop.
    pub web_refused_connections: AtomicU64,
    /// Times a connection's requests were left unread because it had not
    /// read enough of its answers (back-pressure).
    pub reads_paused: AtomicU64,
    /// Connections closed because they did not read what they were sent.
    pub slow_readers: AtomicU64,
    /// Connections closed because a message took too long, or was large
    /// and unfinished while the server held too many such bytes.
    pub slow_messages: AtomicU64,
    /// Connections accepted and served.
    pub connections_served: AtomicU64,
    /// Connections being served now.
    pub connections_open: AtomicU64,
    /// Packets that could not be read (malformed XML, unknown or broken
    /// messages, broken framing), fatal or answered with an error.
    pub protocol_errors: AtomicU64,
}

/// Counts one connection as open while it lives.
#[derive(Debug)]
pub(crate) struct OpenConnection(Arc<ServerStats>);

impl OpenConnection {
    pub(crate) fn new(stats: Arc<ServerStats>) -> OpenConnection {
        ServerStats::count(&stats.connections_served);
        ServerStats::count(&stats.connections_open);
        OpenConnection(stats)
    }
}

impl Drop for OpenConnection {
    fn drop(&mut self) {
        self.0.connections_open.fetch_sub(1, Ordering::Relaxed);
    }
}

/// How a game ended, as the metrics count it: one label per kind of
/// [`Ending`](crate::ending::Ending).
pub const END_CAUSES: [&str; 8] = [
    "regular",
    "rule_violation",
    "left",
    "soft_timeout",
    "hard_timeout",
    "cancelled",
    "expired",
    "shutdown",
];

/// Finished games per game type and end cause.
#[derive(Debug)]
pub struct FinishedGames {
    /// `GameType::ALL.len() × END_CAUSES.len()` counters, game by game.
    counts: Box<[AtomicU64]>,
}

impl Default for FinishedGames {
    fn default() -> Self {
        FinishedGames {
            counts: (0..GameType::ALL.len() * END_CAUSES.len())
                .map(|_| AtomicU64::new(0))
                .collect(),
        }
    }
}

impl FinishedGames {
    fn index(game: GameType, cause: usize) -> Option<usize> {
        let game = GameType::ALL.iter().position(|&g| g == game)?;
        Some(game * END_CAUSES.len() + cause)
    }

    /// Counts a game of `game` that ended by `END_CAUSES[cause]`.
    pub(crate) fn count(&self, game: GameType, cause: usize) {
        if let Some(counter) = Self::index(game, cause).and_then(|i| self.counts.get(i)) {
            counter.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// The games of `game` that ended by `END_CAUSES[cause]`.
    pub fn get(&self, game: GameType, cause: usize) -> u64 {
        Self::index(game, cause)
            .and_then(|i| self.counts.get(i))
            .map_or(0, |c| c.load(Ordering::Relaxed))
    }
}

impl ServerStats {
    pub(crate) fn count(counter: &AtomicU64) {
        counter.fetch_add(1, Ordering::Relaxed);
    }

    /// The current value of a counter.
    pub fn get(counter: &AtomicU64) -> u64 {
        counter.load(Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_are_monotonic_and_tight() {
        let mut last = 0;
        for micros in [
            0, 1, 31, 32, 33, 63, 64, 65, 100, 1000, 12_345, 2_000_000, 10_000_000,
        ] {
            let index = bucket_of(micros);
            assert!(index >= last, "{micros}");
            last = index;
            let low = lower_bound(index);
            assert!(low <= micros, "{micros}: {low}");
            assert!(micros - low <= micros / 32, "{micros}: {low}");
        }
        assert_eq!(bucket_of(u64::MAX), BUCKETS - 1);
    }

    #[test]
    fn quantiles_of_a_known_distribution() {
        let histogram = LatencyHistogram::default();
        assert_eq!(histogram.quantile(0.5), None);
        for micros in 1..=1000 {
            histogram.record(Duration::from_micros(micros));
        }
        assert_eq!(histogram.count(), 1000);
        let median = histogram.quantile(0.5).expect("recorded").as_micros();
        assert!((485..=500).contains(&median), "{median}");
        let p99 = histogram.quantile(0.99).expect("recorded").as_micros();
        assert!((960..=990).contains(&p99), "{p99}");
        assert_eq!(histogram.quantile(0.0), Some(Duration::from_micros(1)));
        assert_eq!(histogram.sum(), Duration::from_micros(500_500));
        assert_eq!(histogram.count_below(Duration::from_micros(50)), 49);
        assert_eq!(histogram.count_below(Duration::from_micros(800)), 799);
        assert_eq!(histogram.count_below(Duration::from_secs(1)), 1000);
    }
}

#[cfg(test)]
mod finished_tests {
    use super::*;

    #[test]
    fn finished_games_are_counted_per_game_and_cause() {
        let finished = FinishedGames::default();
        let game = GameType::ALL[0];
        finished.count(game, 1);
        finished.count(game, 1);
        assert_eq!(finished.get(game, 1), 2);
        assert_eq!(finished.get(game, 0), 0);
        // An index beyond the causes is not counted anywhere.
        finished.count(game, END_CAUSES.len() * GameType::ALL.len());
        let total: u64 = GameType::ALL
            .iter()
            .flat_map(|&g| (0..END_CAUSES.len()).map(move |c| (g, c)))
            .map(|(g, c)| finished.get(g, c))
            .sum();
        assert_eq!(total, 2);
    }
}
