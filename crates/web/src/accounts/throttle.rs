//! The door's back-off on guesses (logins, invite links, registrations):
//! a failure count per key that *decays* — one failure is forgiven per
//! [`FORGIVE_EVERY`] — so that a school's occasional typos behind one
//! address never add up to a lock-out, while a guesser, who fails faster
//! than that, still climbs to the longest delay and stays there.
//!
//! Three keys slow a login ([`Door`](super::Door) holds one of each):
//! - the address (an IPv6 address by its /64, as the game port counts it):
//!   each attempt waits its turn, the turns spaced by the address's delay;
//! - the name *and* the address: a guesser at one name from one address
//!   is slowed as the address is, without slowing the name's owner
//!   elsewhere;
//! - the name alone, from anywhere: this one only slows, by at most
//!   [`NAME_CEILING`], and never refuses or queues, so that nobody can lock
//!   a known member out by guessing wrong at their name — the owner, from
//!   a fresh address, gets in within the ceiling.
//!
//! A turn further off than the longest delay is refused at once, counted
//! as throttled, instead of holding the connection.

use std::{
    collections::HashMap,
    hash::Hash,
    sync::{Mutex, PoisonError},
    time::Duration,
};

use tokio::time::Instant;

/// One failure is forgiven per this much time, whatever happens meanwhile.
pub const FORGIVE_EVERY: Duration = Duration::from_secs(60);

/// The longest the name's own back-off slows a login.
pub const NAME_CEILING: Duration = Duration::from_secs(2);

/// More keys than this: the ones whose failures are all forgiven and whose
/// turn has passed are forgotten.
const PRUNE_AT: usize = 10_000;

/// More keys than this even after pruning (a flood from many addresses):
/// every key not waiting for a turn is forgotten; the table stays bounded.
const HARD_CAP: usize = 100_000;

/// A decaying back-off per key.
#[derive(Debug)]
pub struct Throttle<K> {
    initial: Duration,
    max: Duration,
    entries: Mutex<HashMap<K, Entry>>,
}

#[derive(Clone, Copy, Debug)]
struct Entry {
    /// Failures not forgiven as of `counted_at`.
    failures: u32,
    /// When `failures` was last brought up to date.
    counted_at: Instant,
    /// When the next attempt may be checked.
    next: Instant,
}

impl Entry {
    fn new(now: Instant) -> Entry {
        Entry {
            failures: 0,
            counted_at: now,
            next: now,
        }
    }

    /// Forgives what the time since `counted_at` forgives.
    fn decay(&mut self, now: Instant) {
        let elapsed = now.saturating_duration_since(self.counted_at);
        let forgiven = elapsed.as_secs() / FORGIVE_EVERY.as_secs().max(1);
        if forgiven == 0 {
            return;
        }
        let forgiven32 = u32::try_from(forgiven).unwrap_or(u32::MAX);
        self.failures = self.failures.saturating_sub(forgiven32);
        self.counted_at = if self.failures == 0 {
            now
        } else {
            self.counted_at + FORGIVE_EVERY * forgiven32
        };
    }
}

impl<K: Copy + Eq + Hash> Throttle<K> {
    /// A back-off from `initial`, doubling per failure not forgiven, up to
    /// `max`.
    pub fn new(initial: Duration, max: Duration) -> Throttle<K> {
        Throttle {
            initial,
            max: max.max(initial),
            entries: Mutex::default(),
        }
    }

    /// The longest delay.
    pub fn max_delay(&self) -> Duration {
        self.max
    }

    fn delay(&self, failures: u32) -> Duration {
        match failures {
            0 => Duration::ZERO,
            n => self
                .initial
                .saturating_mul(1 << (n - 1).min(30))
                .min(self.max),
        }
    }

    fn with<T>(&self, key: K, work: impl FnOnce(&mut Entry, Instant) -> T) -> T {
        let now = Instant::now();
        let mut entries = self.entries.lock().unwrap_or_else(PoisonError::into_inner);
        if entries.len() >= PRUNE_AT {
            entries.retain(|_, entry| {
                entry.decay(now);
                entry.failures > 0 || entry.next > now
            });
            if entries.len() >= HARD_CAP {
                entries.retain(|_, entry| entry.next > now);
            }
        }
        let entry = entries.entry(key).or_insert_with(|| Entry::new(now));
        entry.decay(now);
        work(entry, now)
    }

    /// When an attempt under `key` may be checked, if that is within
    /// `wait`; the attempt after it waits its turn behind this one (at
    /// least the initial delay, also before any failure, so that many
    /// connections at once are no faster than one after another). `None`,
    /// and nothing reserved, if the turn is further off.
    pub fn reserve_within(&self, key: K, wait: Duration) -> Option<Instant> {
        self.with(key, |entry, now| {
            let at = entry.next.max(now);
            if at.duration_since(now) > wait {
                return None;
            }
            entry.next = at + self.delay(entry.failures.max(1));
            Some(at)
        })
    }

    /// How long an attempt under `key` is slowed now, at most `ceiling`,
    /// reserving nothing: a delay that cannot refuse or queue anyone.
    pub fn slowing(&self, key: K, ceiling: Duration) -> Duration {
        self.with(key, |entry, _| self.delay(entry.failures).min(ceiling))
    }

    /// An attempt under `key` failed.
    pub fn failed(&self, key: K) {
        self.with(key, |entry, now| {
            entry.failures = entry.failures.saturating_add(1);
            entry.next = entry.next.max(now + self.delay(entry.failures));
        });
    }

    /// An attempt under `key` succeeded: its back-off is over.
    pub fn succeeded(&self, key: K) {
        self.entries
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&key);
    }

    /// The failures under `key` not forgiven yet.
    pub fn failures(&self, key: K) -> u32 {
        self.with(key, |entry, _| entry.failures)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn failures_are_forgiven_over_time_and_a_guesser_still_climbs() {
        let throttle = Throttle::new(Duration::from_millis(100), Duration::from_secs(10));
        // A typo every two minutes for two hours: never more than one
        // failure counts, and no attempt waits for more than the initial
        // delay.
        for _ in 0..60 {
            let turn = throttle.reserve_within(1, Duration::from_secs(10));
            assert!(turn.is_some_and(|t| t <= Instant::now() + Duration::from_millis(100)));
            throttle.failed(1);
            assert!(throttle.failures(1) <= 1, "{}", throttle.failures(1));
            tokio::time::advance(Duration::from_secs(120)).await;
        }
        // A guesser at one try per second climbs to the longest delay.
        for _ in 0..20 {
            throttle.failed(2);
            tokio::time::advance(Duration::from_secs(1)).await;
        }
        assert_eq!(throttle.failures(2), 20);
        let turn = throttle.reserve_within(2, Duration::from_secs(10));
        assert!(turn.is_some_and(|t| t >= Instant::now() + Duration::from_secs(9)));
        // Half an hour of quiet forgives thirty failures.
        tokio::time::advance(Duration::from_secs(30 * 60)).await;
        assert_eq!(throttle.failures(2), 0);
    }

    #[tokio::test(start_paused = true)]
    async fn slowing_never_exceeds_its_ceiling_nor_reserves() {
        let throttle = Throttle::new(Duration::from_millis(100), Duration::from_secs(10));
        for _ in 0..30 {
            throttle.failed(7);
        }
        for _ in 0..100 {
            assert_eq!(throttle.slowing(7, NAME_CEILING), NAME_CEILING);
        }
        assert_eq!(throttle.slowing(8, NAME_CEILING), Duration::ZERO);
    }
}
