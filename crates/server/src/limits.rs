//! Limits per peer address: how many connections one address holds
//! ([`AddressSlots`]), how fast it may guess the administrator passphrase
//! ([`AuthBackoff`]), the address ranges of trusted proxies whose word on a
//! client's address counts ([`AddressRange`]), and [`LogBudget`], which
//! keeps a flood of refusals from
//! flooding the log; and the process's open-file limit, raised at start
//! ([`raise_open_file_limit`]) so that the connection caps, not a default
//! of 1,024, decide how many connections the server holds.
//!
//! An IPv6 address counts as its /64 network: one host usually has a whole
//! /64 to pick addresses from.

use std::{
    collections::HashMap,
    net::{IpAddr, Ipv6Addr},
    sync::{Arc, Mutex, PoisonError},
    time::Duration,
};

use tokio::time::Instant;

/// Refused game connections told why at once (the rest are closed without
/// a word): part of what the open-file limit must hold.
pub const GAME_REFUSALS_AT_ONCE: usize = 64;

/// The address a limit is kept for: an IPv4 address written as IPv6
/// (`::ffff:1.2.3.4`) counts as the IPv4 address, an IPv6 address as its
/// /64 network.
fn key(ip: IpAddr) -> IpAddr {
    match ip.to_canonical() {
        IpAddr::V6(v6) if !v6.is_loopback() => {
            IpAddr::V6(Ipv6Addr::from_bits(v6.to_bits() & !u128::from(u64::MAX)))
        }
        other => other,
    }
}

/// An address, or a network of them (`10.0.0.0/8`, `fd00::/8`), as a
/// setting names trusted proxies. An IPv4 address written as IPv6
/// (`::ffff:1.2.3.4`) is the IPv4 address.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AddressRange {
    network: IpAddr,
    prefix: u8,
}

impl AddressRange {
    /// Whether `ip` is in the range.
    pub fn contains(&self, ip: IpAddr) -> bool {
        let ip = ip.to_canonical();
        ip.is_ipv4() == self.network.is_ipv4() && masked(ip, self.prefix) == self.network
    }
}

/// `ip` with every bit after the first `prefix` cleared.
fn masked(ip: IpAddr, prefix: u8) -> IpAddr {
    match ip {
        IpAddr::V4(v4) => {
            let mask = u32::MAX.checked_shl(32 - u32::from(prefix)).unwrap_or(0);
            IpAddr::V4((v4.to_bits() & mask).into())
        }
        IpAddr::V6(v6) => {
            let mask = u128::MAX.checked_shl(128 - u32::from(prefix)).unwrap_or(0);
            IpAddr::V6((v6.to_bits() & mask).into())
        }
    }
}

impl std::str::FromStr for AddressRange {
    type Err = String;

    /// `ADDRESS` or `ADDRESS/PREFIX` (the prefix at most 32 for IPv4, 128
    /// for IPv6).
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let text = text.trim();
        let (address, prefix) = match text.split_once('/') {
            Some((address, prefix)) => (address, Some(prefix)),
            None => (text, None),
        };
        let network = address
            .parse::<IpAddr>()
            .map_err(|_| format!("`{text}` is no IP address or ADDRESS/PREFIX network"))?
            .to_canonical();
        let bits = if network.is_ipv4() { 32 } else { 128 };
        let prefix = match prefix {
            Some(prefix) => prefix
                .parse::<u8>()
                .ok()
                .filter(|&p| p <= bits)
                .ok_or_else(|| format!("`{text}`: the prefix must be a number from 0 to {bits}"))?,
            None => bits,
        };
        Ok(AddressRange {
            network: masked(network, prefix),
            prefix,
        })
    }
}

impl std::fmt::Display for AddressRange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.network, self.prefix)
    }
}

/// Connections held per address.
#[derive(Clone, Debug)]
pub struct AddressSlots {
    limit: usize,
    loopback_exempt: bool,
    held: Arc<Mutex<HashMap<IpAddr, usize>>>,
}

/// One connection's slot; given back when dropped.
#[derive(Debug)]
pub struct AddressSlot {
    ip: IpAddr,
    held: Option<Arc<Mutex<HashMap<IpAddr, usize>>>>,
}

impl AddressSlots {
    /// At most `limit` connections per address; loopback addresses are
    /// unlimited if `loopback_exempt`.
    pub fn new(limit: usize, loopback_exempt: bool) -> AddressSlots {
        AddressSlots {
            limit,
            loopback_exempt,
            held: Arc::default(),
        }
    }

    /// A slot for a connection from `ip`, or `None` if the address holds
    /// the limit already.
    pub fn take(&self, ip: IpAddr) -> Option<AddressSlot> {
        let ip = key(ip);
        if self.loopback_exempt && ip.is_loopback() {
            return Some(AddressSlot { ip, held: None });
        }
        let mut held = self.held.lock().unwrap_or_else(PoisonError::into_inner);
        let count = held.entry(ip).or_insert(0);
        if *count >= self.limit {
            return None;
        }
        *count += 1;
        Some(AddressSlot {
            ip,
            held: Some(Arc::clone(&self.held)),
        })
    }

    /// Connections `ip` holds now.
    pub fn held_by(&self, ip: IpAddr) -> usize {
        let held = self.held.lock().unwrap_or_else(PoisonError::into_inner);
        held.get(&key(ip)).copied().unwrap_or(0)
    }
}

impl Drop for AddressSlot {
    fn drop(&mut self) {
        if let Some(held) = &self.held {
            let mut held = held.lock().unwrap_or_else(PoisonError::into_inner);
            if let Some(count) = held.get_mut(&self.ip) {
                *count -= 1;
                if *count == 0 {
                    held.remove(&self.ip);
                }
            }
        }
    }
}

/// The passphrase back-off: after a failed `authenticate`, further
/// attempts from the same address are spaced out, from
/// [`Config::auth_backoff_initial`](crate::Config::auth_backoff_initial)
/// doubling with every failure up to
/// [`Config::auth_backoff_max`](crate::Config::auth_backoff_max). Attempts
/// on many connections at once are spaced too: each reserves its turn, at
/// least the initial delay after the one before, also before any failure
/// (a burst on many connections is no faster than one after another). A
/// success resets the address.
///
/// The count *decays*: one failure is forgiven per [`FORGIVE_EVERY`],
/// whatever happens meanwhile, so that an organiser's occasional typos (or
/// a school's, behind one address) never add up to the longest delay for
/// good, while a guesser, who fails faster than that, still climbs to it
/// and stays there.
///
/// The same back-off keeps other keys than addresses where guesses are
/// counted per something else ([`BackoffKey`]): the web side's logins per
/// account name, and per name and address.
#[derive(Debug)]
pub struct AuthBackoff<K = IpAddr> {
    initial: Duration,
    max: Duration,
    entries: Mutex<HashMap<K, Failures>>,
    log: Mutex<LogBudget>,
}

/// One failure is forgiven per this much time, whatever happens meanwhile.
pub const FORGIVE_EVERY: Duration = Duration::from_secs(60);

/// More keys than this in the table: the ones whose failures are all
/// forgiven and whose turn has passed are forgotten.
const BACKOFF_TABLE_PRUNE: usize = 10_000;

/// More keys than this even after pruning (a flood from many addresses):
/// every key not waiting for a turn is forgotten; the table stays bounded.
const BACKOFF_TABLE_CAP: usize = 100_000;

#[derive(Clone, Copy, Debug)]
struct Failures {
    /// Failures not forgiven as of `counted_at`.
    count: u32,
    /// When `count` was last brought up to date.
    counted_at: Instant,
    /// When the next attempt may be checked.
    next: Instant,
}

impl Failures {
    fn new(now: Instant) -> Failures {
        Failures {
            count: 0,
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
        let forgiven = u32::try_from(forgiven).unwrap_or(u32::MAX);
        self.count = self.count.saturating_sub(forgiven);
        self.counted_at = if self.count == 0 {
            now
        } else {
            self.counted_at + FORGIVE_EVERY * forgiven
        };
    }
}

impl AuthBackoff {
    /// A back-off per address from `initial` to `max`.
    pub fn new(initial: Duration, max: Duration) -> AuthBackoff {
        AuthBackoff::keyed(initial, max)
    }
}

/// What an [`AuthBackoff`] counts failures per: an address (as its limits
/// count it), or another key.
pub trait BackoffKey: Copy + Eq + std::hash::Hash {
    /// The key failures are counted under (an IPv6 address's /64).
    fn counted_as(self) -> Self;
}

impl BackoffKey for IpAddr {
    fn counted_as(self) -> IpAddr {
        key(self)
    }
}

/// A digest of a name (the web side's logins count failures per account
/// name, known or not).
impl BackoffKey for u64 {
    fn counted_as(self) -> u64 {
        self
    }
}

/// A name's digest and an address, counted as each is alone.
impl BackoffKey for (u64, IpAddr) {
    fn counted_as(self) -> (u64, IpAddr) {
        (self.0, key(self.1))
    }
}

impl<K: BackoffKey> AuthBackoff<K> {
    /// A back-off per key from `initial` to `max` (at least `initial`).
    pub fn keyed(initial: Duration, max: Duration) -> AuthBackoff<K> {
        AuthBackoff {
            initial,
            max: max.max(initial),
            entries: Mutex::default(),
            log: Mutex::new(LogBudget::new(10, Duration::from_secs(10))),
        }
    }

    /// The delay after the first failure.
    pub fn initial_delay(&self) -> Duration {
        self.initial
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

    /// Runs `work` on the entry of `key`, brought up to date; keeps the
    /// table bounded.
    fn with<T>(&self, key: K, work: impl FnOnce(&mut Failures, Instant) -> T) -> T {
        let now = Instant::now();
        let mut entries = self.entries.lock().unwrap_or_else(PoisonError::into_inner);
        if entries.len() >= BACKOFF_TABLE_PRUNE {
            entries.retain(|_, entry| {
                entry.decay(now);
                entry.count > 0 || entry.next > now
            });
            if entries.len() >= BACKOFF_TABLE_CAP {
                entries.retain(|_, entry| entry.next > now);
            }
        }
        let entry = entries
            .entry(key.counted_as())
            .or_insert_with(|| Failures::new(now));
        entry.decay(now);
        work(entry, now)
    }

    /// When an attempt from `ip` may be checked; the attempt after it has
    /// to wait its turn behind this one.
    pub fn reserve(&self, ip: K) -> Instant {
        self.reserve_within(ip, Duration::MAX)
            .unwrap_or_else(Instant::now)
    }

    /// [`AuthBackoff::reserve`] if the turn comes within `wait`; `None`
    /// (and nothing reserved) if it comes later.
    pub fn reserve_within(&self, ip: K, wait: Duration) -> Option<Instant> {
        self.with(ip, |entry, now| {
            let at = entry.next.max(now);
            if at.duration_since(now) > wait {
                return None;
            }
            entry.next = at + self.delay(entry.count.max(1));
            Some(at)
        })
    }

    /// How long an attempt under `key` is slowed now, at most `ceiling`,
    /// reserving nothing: a delay that can neither refuse nor queue anyone.
    pub fn slowing(&self, key: K, ceiling: Duration) -> Duration {
        self.with(key, |entry, _| self.delay(entry.count).min(ceiling))
    }

    /// The longest delay between two attempts from one address.
    pub fn max_delay(&self) -> Duration {
        self.max
    }

    /// An attempt from `ip` failed.
    pub fn failed(&self, ip: K) {
        self.with(ip, |entry, now| {
            entry.count = entry.count.saturating_add(1);
            entry.next = entry.next.max(now + self.delay(entry.count));
        });
    }

    /// An attempt from `ip` succeeded: its back-off is over.
    pub fn succeeded(&self, ip: K) {
        self.entries
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&ip.counted_as());
    }

    /// The failures recorded for `ip` and not forgiven yet.
    pub fn failures(&self, ip: K) -> u32 {
        self.with(ip, |entry, _| entry.count)
    }

    /// Whether a failure may be logged now; see [`LogBudget::allow`].
    pub fn log_allowed(&self) -> Option<u64> {
        self.log
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .allow()
    }
}

/// A budget of log lines: at most `lines` per `window`; what is over budget
/// is counted and reported with the next line that is logged.
#[derive(Debug)]
pub struct LogBudget {
    lines: u32,
    window: Duration,
    window_start: Option<Instant>,
    logged: u32,
    suppressed: u64,
}

impl LogBudget {
    /// At most `lines` lines per `window`.
    pub fn new(lines: u32, window: Duration) -> LogBudget {
        LogBudget {
            lines,
            window,
            window_start: None,
            logged: 0,
            suppressed: 0,
        }
    }

    /// `Some(n)` if a line may be logged now (`n` lines were suppressed
    /// since the last one), `None` if this one is suppressed.
    pub fn allow(&mut self) -> Option<u64> {
        let now = Instant::now();
        if self
            .window_start
            .is_none_or(|start| now >= start + self.window)
        {
            self.window_start = Some(now);
            self.logged = 0;
        }
        if self.logged < self.lines {
            self.logged += 1;
            Some(std::mem::take(&mut self.suppressed))
        } else {
            self.suppressed += 1;
            None
        }
    }
}

/// The open-file limit before and after raising it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpenFileLimit {
    /// The soft limit the process started with.
    pub before: u64,
    /// The soft limit now.
    pub now: u64,
    /// The hard limit: the most an unprivileged process can raise to.
    pub hard: u64,
}

/// Raises the soft open-file limit to the hard limit; `None` where the
/// limit cannot be read (or outside Unix). A hard limit the kernel will
/// not grant as a soft one (unlimited) leaves the soft limit as it was.
#[cfg(unix)]
pub fn raise_open_file_limit() -> Option<OpenFileLimit> {
    use nix::sys::resource::{Resource, getrlimit, setrlimit};
    let (before, hard) = getrlimit(Resource::RLIMIT_NOFILE).ok()?;
    let now = if before < hard && setrlimit(Resource::RLIMIT_NOFILE, hard, hard).is_ok() {
        hard
    } else {
        before
    };
    Some(OpenFileLimit { before, now, hard })
}

/// Raises the soft open-file limit to the hard limit; `None` where the
/// limit cannot be read (or outside Unix).
#[cfg(not(unix))]
pub fn raise_open_file_limit() -> Option<OpenFileLimit> {
    None
}

#[cfg(test)]
mod tests {
    use std::net::{Ipv4Addr, Ipv6Addr};

    use super::*;

    #[test]
    fn an_address_gets_its_limit_and_slots_come_back() {
        let slots = AddressSlots::new(2, false);
        let ip = IpAddr::V4(Ipv4Addr::new(10, 0, 0, 1));
        let mapped = IpAddr::V6(Ipv4Addr::new(10, 0, 0, 1).to_ipv6_mapped());
        let first = slots.take(ip).expect("first");
        let _second = slots
            .take(mapped)
            .expect("the same address, written as IPv6");
        assert!(slots.take(ip).is_none());
        // Another address is not affected.
        assert!(slots.take(IpAddr::V4(Ipv4Addr::new(10, 0, 0, 2))).is_some());
        drop(first);
        assert_eq!(slots.held_by(ip), 1);
        assert!(slots.take(ip).is_some());
    }

    #[test]
    fn loopback_is_limited_unless_exempt() {
        let local = IpAddr::V6(Ipv6Addr::LOCALHOST);
        let limited = AddressSlots::new(1, false);
        let _one = limited.take(local).expect("one");
        assert!(limited.take(local).is_none());
        let exempt = AddressSlots::new(1, true);
        let held: Vec<_> = (0..10).map(|_| exempt.take(local)).collect();
        assert!(held.iter().all(Option::is_some));
    }

    #[test]
    fn ipv6_addresses_count_per_64_network() {
        let slots = AddressSlots::new(1, false);
        let one: IpAddr = "2001:db8:1:2::1".parse().expect("address");
        let same_net: IpAddr = "2001:db8:1:2:ffff::9".parse().expect("address");
        let other_net: IpAddr = "2001:db8:1:3::1".parse().expect("address");
        let _held = slots.take(one).expect("first");
        assert!(slots.take(same_net).is_none());
        assert!(slots.take(other_net).is_some());
    }

    #[tokio::test(start_paused = true)]
    async fn failed_attempts_are_spaced_out_exponentially_per_address() {
        let backoff = AuthBackoff::new(Duration::from_millis(100), Duration::from_secs(10));
        let guesser = IpAddr::V4(Ipv4Addr::new(10, 0, 0, 1));
        let start = Instant::now();
        // Attempts one after the other, each failing.
        let mut waits = Vec::new();
        for _ in 0..10 {
            let at = backoff.reserve(guesser);
            tokio::time::sleep_until(at).await;
            waits.push(at - start);
            backoff.failed(guesser);
        }
        let millis: Vec<u128> = waits
            .windows(2)
            .map(|w| (w[1] - w[0]).as_millis())
            .collect();
        assert_eq!(
            millis,
            [100, 200, 400, 800, 1600, 3200, 6400, 10_000, 10_000]
        );
        // Many attempts at once each wait their turn.
        let turns: Vec<Instant> = (0..3).map(|_| backoff.reserve(guesser)).collect();
        assert!(
            turns
                .windows(2)
                .all(|w| w[1] - w[0] == Duration::from_secs(10))
        );
        // Another address is not slowed down; a success resets.
        let admin = IpAddr::V4(Ipv4Addr::new(10, 0, 0, 2));
        assert_eq!(backoff.reserve(admin), Instant::now());
        backoff.succeeded(guesser);
        assert_eq!(backoff.reserve(guesser), Instant::now());
    }

    #[tokio::test(start_paused = true)]
    async fn a_burst_before_any_failure_is_spaced_by_the_initial_delay() {
        let backoff = AuthBackoff::new(Duration::from_millis(100), Duration::from_secs(10));
        let fresh = IpAddr::V4(Ipv4Addr::new(10, 0, 0, 3));
        let now = Instant::now();
        let turns: Vec<Duration> = (0..5).map(|_| backoff.reserve(fresh) - now).collect();
        assert_eq!(
            turns,
            [0, 100, 200, 300, 400].map(Duration::from_millis).to_vec()
        );
        // A turn further away than asked for is not reserved.
        assert_eq!(
            backoff.reserve_within(fresh, Duration::from_millis(499)),
            None
        );
        let at = backoff.reserve_within(fresh, Duration::from_millis(500));
        assert_eq!(at, Some(now + Duration::from_millis(500)));
        // A success forgets the address: the next attempt goes at once.
        backoff.succeeded(fresh);
        assert_eq!(backoff.reserve(fresh), Instant::now());
    }

    #[tokio::test(start_paused = true)]
    async fn failures_are_forgiven_over_time_and_a_guesser_still_climbs() {
        let backoff = AuthBackoff::new(Duration::from_millis(100), Duration::from_secs(10));
        let organiser = IpAddr::V4(Ipv4Addr::new(10, 0, 0, 4));
        // A typo every two minutes for two hours: never more than one
        // failure counts, and no attempt waits longer than the initial
        // delay.
        for _ in 0..60 {
            let turn = backoff.reserve(organiser);
            assert!(turn <= Instant::now() + Duration::from_millis(100));
            backoff.failed(organiser);
            assert!(backoff.failures(organiser) <= 1);
            tokio::time::advance(Duration::from_secs(120)).await;
        }
        // A guesser at one try per second climbs to the longest delay.
        let guesser = IpAddr::V4(Ipv4Addr::new(10, 0, 0, 5));
        for _ in 0..20 {
            backoff.failed(guesser);
            tokio::time::advance(Duration::from_secs(1)).await;
        }
        assert_eq!(backoff.failures(guesser), 20);
        assert!(backoff.reserve(guesser) >= Instant::now() + Duration::from_secs(9));
        // Half an hour of quiet forgives thirty failures: the address is
        // as good as new, not held at the longest delay for good.
        tokio::time::advance(Duration::from_secs(30 * 60)).await;
        assert_eq!(backoff.failures(guesser), 0);
        let now = Instant::now();
        assert_eq!(backoff.reserve(guesser), now);
        assert_eq!(backoff.reserve(guesser), now + Duration::from_millis(100));
    }

    #[tokio::test(start_paused = true)]
    async fn slowing_never_exceeds_its_ceiling_nor_reserves() {
        let backoff: AuthBackoff<u64> =
            AuthBackoff::keyed(Duration::from_millis(100), Duration::from_secs(10));
        for _ in 0..30 {
            backoff.failed(7);
        }
        let ceiling = Duration::from_secs(2);
        for _ in 0..100 {
            assert_eq!(backoff.slowing(7, ceiling), ceiling);
        }
        assert_eq!(backoff.slowing(8, ceiling), Duration::ZERO);
    }

    #[test]
    fn address_ranges_hold_their_addresses_and_nothing_else() {
        let range = |text: &str| text.parse::<AddressRange>().expect(text);
        let ip = |text: &str| text.parse::<IpAddr>().expect(text);
        let loopback = range("127.0.0.1");
        assert!(loopback.contains(ip("127.0.0.1")));
        assert!(loopback.contains(ip("::ffff:127.0.0.1")));
        assert!(!loopback.contains(ip("127.0.0.2")));
        assert!(!loopback.contains(ip("::1")));
        let private = range("10.0.0.0/8");
        assert!(private.contains(ip("10.255.3.4")));
        assert!(!private.contains(ip("11.0.0.1")));
        let v6 = range("fd00::/8");
        assert!(v6.contains(ip("fd12::1")));
        assert!(!v6.contains(ip("fe80::1")));
        assert!(!v6.contains(ip("10.0.0.1")));
        let everyone = range("0.0.0.0/0");
        assert!(everyone.contains(ip("192.0.2.1")));
        assert_eq!(range(" ::ffff:10.1.2.3/16 "), range("10.1.0.0/16"));
        assert_eq!(range("10.1.2.3/16").to_string(), "10.1.0.0/16");
        for bad in [
            "",
            "10.0.0.0/33",
            "::/129",
            "10.0.0/8",
            "proxy",
            "10.0.0.1/x",
        ] {
            assert!(bad.parse::<AddressRange>().is_err(), "{bad}");
        }
    }

    #[tokio::test(start_paused = true)]
    async fn the_log_budget_counts_what_it_suppresses() {
        let mut budget = LogBudget::new(2, Duration::from_secs(10));
        assert_eq!(budget.allow(), Some(0));
        assert_eq!(budget.allow(), Some(0));
        assert_eq!(budget.allow(), None);
        assert_eq!(budget.allow(), None);
        tokio::time::sleep(Duration::from_secs(10)).await;
        assert_eq!(budget.allow(), Some(2));
    }
}
