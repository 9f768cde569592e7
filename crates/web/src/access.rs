//! Who may watch running games, and the guard on passphrase guesses over
//! HTTP.
//!
//! By default (`--http-public auto`) every page is open on a loopback
//! listen address. When the server listens on other interfaces, or always
//! with `--http-public false`, running games are shown only to a browser
//! that has logged in with the administrator passphrase (the login form
//! sets a session cookie) or a request that carries the passphrase as a
//! bearer token (`Authorization: Bearer …`); `--http-public true` shows
//! them to everyone. Without a passphrase and without open pages, only the
//! replays of finished games are shown. Watching never lets anyone send a
//! move: the web side has no way to reach a room's commands.
//!
//! A login and a bearer token are guesses at the passphrase the game port
//! protects, so they share its back-off per address ([`AuthBackoff`]):
//! each waits its turn, a wrong one is counted in
//! `spielleiter_failed_authentications_total` and logged at WARN (within
//! the back-off's log budget).

use std::{
    net::IpAddr,
    sync::{Arc, Mutex, PoisonError},
    time::Duration,
};

use axum::http::{HeaderMap, header};
use spielleiter_contest::TokenDigest;
use spielleiter_server::{config::HttpPublic, limits::AuthBackoff, stats::ServerStats};
use tokio::time::Instant;
use tracing::warn;

use crate::accounts::secrets;

/// The name of the session cookie.
pub const SESSION_COOKIE: &str = "spielleiter_session";

/// How long an administrator's login lasts, however used.
pub const ADMIN_SESSION: Duration = Duration::from_secs(12 * 3600);

/// The most administrator logins live at once; one more ends the oldest.
pub const MAX_ADMIN_SESSIONS: usize = 16;

/// The access rules of one web side.
#[derive(Clone)]
pub struct Access {
    /// Whether running games are shown to everyone.
    open: bool,
    /// The administrator passphrase, if administration is on.
    passphrase: Option<String>,
    /// The administrator's live logins: the digest of each login's own
    /// random cookie (256 bits, drawn at the login) and when it was made.
    /// Nothing about them is constant or derived: logging out ends one,
    /// and all end with the process.
    sessions: Arc<Mutex<Vec<(TokenDigest, Instant)>>>,
}

impl std::fmt::Debug for Access {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Access")
            .field("open", &self.open)
            .field("passphrase", &self.passphrase.as_ref().map(|_| "…"))
            .finish_non_exhaustive()
    }
}

/// Whether `listen` reaches only this machine.
pub fn is_loopback(listen: IpAddr) -> bool {
    listen.to_canonical().is_loopback()
}

impl Access {
    /// The rules for pages served on `listen`: open when `public` says so
    /// (for [`HttpPublic::Auto`], on a loopback address); otherwise running
    /// games need `passphrase`.
    pub fn new(listen: IpAddr, public: HttpPublic, passphrase: Option<String>) -> Access {
        let open = match public {
            HttpPublic::Auto => is_loopback(listen),
            HttpPublic::Everyone => true,
            HttpPublic::LoginOnly => false,
        };
        Access {
            open,
            passphrase: passphrase.filter(|p| !p.is_empty()),
            sessions: Arc::default(),
        }
    }

    /// Whether running games are shown to everyone.
    pub fn is_open(&self) -> bool {
        self.open
    }

    /// Whether a login is possible (a passphrase is configured).
    pub fn can_log_in(&self) -> bool {
        self.passphrase.is_some()
    }

    /// Whether the request from `peer` may watch running games: the pages
    /// are open, or it carries the session cookie, or its bearer token is
    /// the passphrase (a guess, checked by `guard`).
    ///
    /// # Errors
    ///
    /// The address has guessed wrong so often that its turn is too far off.
    pub async fn may_watch(
        &self,
        headers: &HeaderMap,
        peer: IpAddr,
        guard: &Guard,
    ) -> Result<bool, TooSoon> {
        if self.open || self.has_session(headers) {
            return Ok(true);
        }
        // One guess per request, whatever the number of headers.
        self.bearer_is_passphrase(headers, peer, guard).await
    }

    /// Whether the request carries a live administrator's login cookie
    /// (random, not a guess at the passphrase).
    pub fn has_session(&self, headers: &HeaderMap) -> bool {
        self.session_of(headers).is_some()
    }

    /// The administrator's login cookie the request carries, if it does and
    /// the login is live.
    pub fn session_of<'h>(&self, headers: &'h HeaderMap) -> Option<&'h str> {
        // Without a passphrase nobody has logged in.
        self.passphrase.as_ref()?;
        let mut sessions = self.sessions.lock().unwrap_or_else(PoisonError::into_inner);
        let now = Instant::now();
        sessions.retain(|(_, made)| now.duration_since(*made) < ADMIN_SESSION);
        cookies(headers).find_map(|(name, value)| {
            let live = name == SESSION_COOKIE
                && secrets::well_formed(value)
                && sessions
                    .iter()
                    .any(|(digest, _)| *digest == secrets::digest(value));
            live.then_some(value)
        })
    }

    /// Ends the administrator's login of `cookie`, if it is one.
    pub fn end_session(&self, cookie: &str) {
        let digest = secrets::digest(cookie);
        self.sessions
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .retain(|(d, _)| *d != digest);
    }

    /// A new login: its own random cookie, of which only the digest is kept.
    fn new_session(&self) -> String {
        let secret = secrets::new_token();
        let mut sessions = self.sessions.lock().unwrap_or_else(PoisonError::into_inner);
        let now = Instant::now();
        sessions.retain(|(_, made)| now.duration_since(*made) < ADMIN_SESSION);
        if sessions.len() >= MAX_ADMIN_SESSIONS {
            // Oldest first: they were pushed in order.
            sessions.remove(0);
        }
        sessions.push((secrets::digest(&secret), now));
        secret
    }

    /// Whether the request's bearer token, from `peer`, is the
    /// passphrase (a guess, checked by `guard`; no token, no guess).
    ///
    /// # Errors
    ///
    /// The address has guessed wrong so often that its turn is too far off.
    pub async fn bearer_is_passphrase(
        &self,
        headers: &HeaderMap,
        peer: IpAddr,
        guard: &Guard,
    ) -> Result<bool, TooSoon> {
        let (Some(passphrase), Some(token)) = (&self.passphrase, bearer(headers)) else {
            return Ok(false);
        };
        guard.check(peer, token, passphrase, "bearer token").await
    }

    /// A new login's cookie value if `passphrase`, given from `peer`, is
    /// the administrator's (a guess, checked by `guard`).
    ///
    /// # Errors
    ///
    /// The address has guessed wrong so often that its turn is too far off.
    pub async fn log_in(
        &self,
        passphrase: &str,
        peer: IpAddr,
        guard: &Guard,
    ) -> Result<Option<String>, TooSoon> {
        let Some(expected) = self.passphrase.as_deref() else {
            return Ok(None);
        };
        let right = guard.check(peer, passphrase, expected, "login").await?;
        Ok(right.then(|| self.new_session()))
    }
}

/// The first bearer token of the request's `Authorization` headers.
fn bearer(headers: &HeaderMap) -> Option<&str> {
    headers
        .get_all(header::AUTHORIZATION)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find_map(|v| v.strip_prefix("Bearer "))
        .map(str::trim)
}

/// Checks passphrase guesses over HTTP with the game port's back-off per
/// address, counting and logging the wrong ones.
#[derive(Clone, Debug)]
pub struct Guard {
    backoff: Arc<AuthBackoff>,
    stats: Arc<ServerStats>,
}

impl Guard {
    /// Checks with `backoff` (the game port's), counting into `stats`.
    pub fn new(backoff: Arc<AuthBackoff>, stats: Arc<ServerStats>) -> Guard {
        Guard { backoff, stats }
    }

    /// The game port's back-off per address, which every guess at the
    /// passphrase over HTTP shares (the contest's door keeps its own counts,
    /// and shares only its log budget).
    pub(crate) fn backoff(&self) -> &AuthBackoff {
        &self.backoff
    }

    /// Whether `given`, from `peer`, is `expected`; first waits the
    /// address's turn. `what` names the way it came for the log.
    async fn check(
        &self,
        peer: IpAddr,
        given: &str,
        expected: &str,
        what: &str,
    ) -> Result<bool, TooSoon> {
        // Guessing is not free: after a failure, attempts from this address
        // (here and on the game port) wait their turn, longer with every
        // failure, so that many connections guess no faster than one. A
        // request whose turn is further off than the longest delay is
        // answered at once instead of holding its connection meanwhile.
        let turn = self
            .backoff
            .reserve_within(peer, self.backoff.max_delay())
            .ok_or(TooSoon)?;
        tokio::time::sleep_until(turn).await;
        if same(given, expected) {
            self.backoff.succeeded(peer);
            return Ok(true);
        }
        self.backoff.failed(peer);
        self.stats
            .failed_authentications
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        if let Some(suppressed) = self.backoff.log_allowed() {
            warn!(
                %peer,
                failures = self.backoff.failures(peer),
                suppressed,
                "wrong administrator passphrase ({what}, web side)"
            );
        }
        Ok(false)
    }
}

/// A guess at the passphrase that was not checked: its address has guessed
/// wrong so often that its turn is further off than the longest delay.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("too many wrong passphrases from this address; try again later")]
pub struct TooSoon;

/// The `name=value` pairs of the request's cookies.
fn cookies(headers: &HeaderMap) -> impl Iterator<Item = (&str, &str)> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
}

/// The value of the request's cookie `name`, if it has one.
pub(crate) fn cookie<'h>(headers: &'h HeaderMap, name: &str) -> Option<&'h str> {
    cookies(headers).find_map(|(key, value)| (key == name).then_some(value))
}

/// Compares two secrets in time independent of where they differ.
pub(crate) fn same(given: &str, expected: &str) -> bool {
    let (given, expected) = (given.as_bytes(), expected.as_bytes());
    let mut difference = u8::from(given.len() != expected.len());
    for (i, &e) in expected.iter().enumerate() {
        difference |= e ^ given.get(i).copied().unwrap_or(!e);
    }
    difference == 0
}

#[cfg(test)]
mod tests {
    use std::{
        net::{Ipv4Addr, Ipv6Addr},
        time::Duration,
    };

    use axum::http::HeaderValue;
    use tokio::time::Instant;

    use super::*;

    const OUTSIDE: IpAddr = IpAddr::V4(Ipv4Addr::UNSPECIFIED);

    fn headers(name: header::HeaderName, value: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(name, HeaderValue::from_str(value).expect("a header value"));
        headers
    }

    const GUESSER: IpAddr = IpAddr::V4(Ipv4Addr::new(192, 0, 2, 1));
    const ADMIN: IpAddr = IpAddr::V4(Ipv4Addr::new(192, 0, 2, 2));

    fn guard() -> (Guard, Arc<ServerStats>) {
        let stats = Arc::new(ServerStats::default());
        let backoff = AuthBackoff::new(Duration::from_millis(100), Duration::from_secs(10));
        (Guard::new(Arc::new(backoff), Arc::clone(&stats)), stats)
    }

    fn failures(stats: &ServerStats) -> u64 {
        ServerStats::get(&stats.failed_authentications)
    }

    #[tokio::test]
    async fn who_sees_running_games_by_listen_address_and_setting() {
        let (guard, _) = guard();
        let none = HeaderMap::new();
        for listen in [
            IpAddr::V4(Ipv4Addr::LOCALHOST),
            IpAddr::V4(Ipv4Addr::new(127, 0, 0, 2)),
            IpAddr::V6(Ipv6Addr::LOCALHOST),
            IpAddr::V6(Ipv4Addr::LOCALHOST.to_ipv6_mapped()),
        ] {
            let auto = Access::new(listen, HttpPublic::Auto, None);
            assert!(
                auto.may_watch(&none, GUESSER, &guard)
                    .await
                    .expect("checked")
            );
            // Behind a reverse proxy: loopback, yet a login is asked for.
            let login = Access::new(listen, HttpPublic::LoginOnly, None);
            assert!(
                !login
                    .may_watch(&none, GUESSER, &guard)
                    .await
                    .expect("checked")
            );
        }
        for listen in [
            OUTSIDE,
            IpAddr::V6(Ipv6Addr::UNSPECIFIED),
            IpAddr::V4(Ipv4Addr::new(192, 0, 2, 7)),
        ] {
            let auto = Access::new(listen, HttpPublic::Auto, None);
            assert!(
                !auto
                    .may_watch(&none, GUESSER, &guard)
                    .await
                    .expect("checked")
            );
            let login = Access::new(listen, HttpPublic::LoginOnly, None);
            assert!(
                !login
                    .may_watch(&none, GUESSER, &guard)
                    .await
                    .expect("checked")
            );
            let everyone = Access::new(listen, HttpPublic::Everyone, None);
            assert!(
                everyone
                    .may_watch(&none, GUESSER, &guard)
                    .await
                    .expect("checked")
            );
        }
    }

    #[tokio::test(start_paused = true)]
    async fn other_interfaces_need_the_passphrase_or_the_session() {
        let (guard, stats) = guard();
        let access = Access::new(OUTSIDE, HttpPublic::Auto, Some("secret words".into()));
        let watch = |headers: HeaderMap| {
            let (access, guard) = (&access, &guard);
            async move {
                access
                    .may_watch(&headers, ADMIN, guard)
                    .await
                    .expect("checked")
            }
        };
        assert!(!watch(HeaderMap::new()).await);
        assert!(watch(headers(header::AUTHORIZATION, "Bearer secret words")).await);
        assert!(!watch(headers(header::AUTHORIZATION, "Bearer secret")).await);
        assert_eq!(failures(&stats), 1);
        // Not a bearer token: no guess.
        assert!(!watch(headers(header::AUTHORIZATION, "secret words")).await);
        assert_eq!(failures(&stats), 1);

        assert_eq!(access.log_in("wrong", ADMIN, &guard).await, Ok(None));
        assert_eq!(failures(&stats), 2);
        let session = access
            .log_in("secret words", ADMIN, &guard)
            .await
            .expect("checked")
            .expect("the passphrase")
            .to_owned();
        let cookie = format!("theme=dark; {SESSION_COOKIE}={session}");
        assert!(watch(headers(header::COOKIE, &cookie)).await);
        // One character changed (a session that starts with 0 gets a 1).
        let changed = if session.starts_with('0') { '1' } else { '0' };
        let forged = format!("{SESSION_COOKIE}={changed}{}", &session[1..]);
        assert!(!watch(headers(header::COOKIE, &forged)).await);
        // Another process has another session.
        let other = Access::new(OUTSIDE, HttpPublic::Auto, Some("secret words".into()));
        assert!(!other.has_session(&headers(header::COOKIE, &cookie)));
        // Each login has its own cookie; a login ends when logged out, and
        // after ADMIN_SESSION however used.
        let again = access
            .log_in("secret words", ADMIN, &guard)
            .await
            .expect("checked")
            .expect("the passphrase");
        assert_ne!(again, session);
        let again = format!("{SESSION_COOKIE}={again}");
        access.end_session(&session);
        assert!(!watch(headers(header::COOKIE, &cookie)).await);
        assert!(watch(headers(header::COOKIE, &again)).await);
        tokio::time::advance(ADMIN_SESSION).await;
        assert!(!watch(headers(header::COOKIE, &again)).await);
    }

    #[tokio::test(start_paused = true)]
    async fn guesses_wait_their_turn_per_address_and_are_counted() {
        let (guard, stats) = guard();
        let access = Access::new(OUTSIDE, HttpPublic::Auto, Some("secret words".into()));
        let start = Instant::now();
        for _ in 0..5 {
            assert_eq!(access.log_in("wrong", GUESSER, &guard).await, Ok(None));
        }
        // 0, 100, 300, 700, 1500 ms: the back-off of the game port.
        assert_eq!(start.elapsed(), Duration::from_millis(1500));
        let wrong = headers(header::AUTHORIZATION, "Bearer wrong");
        assert!(
            !access
                .may_watch(&wrong, GUESSER, &guard)
                .await
                .expect("checked")
        );
        assert_eq!(start.elapsed(), Duration::from_millis(3100));
        assert_eq!(failures(&stats), 6);
        // Seven waiting at once: the turns further off than the longest
        // delay (10 s) are refused at once, unchecked and uncounted.
        let waiting: Vec<_> = (0..7)
            .map(|_| access.log_in("wrong", GUESSER, &guard))
            .collect();
        let answers = futures_util::future::join_all(waiting).await;
        let refused = answers.iter().filter(|a| **a == Err(TooSoon)).count();
        // Turns 3.2, 6.4 and 9.6 s off (the 6th failure's delay each).
        assert_eq!(refused, 4, "{answers:?}");
        assert_eq!(failures(&stats), 9);
        // Another address is not slowed down.
        let admin_start = Instant::now();
        assert!(
            access
                .log_in("secret words", ADMIN, &guard)
                .await
                .expect("checked")
                .is_some()
        );
        assert_eq!(admin_start.elapsed(), Duration::ZERO);
        assert_eq!(failures(&stats), 9);
    }

    #[tokio::test]
    async fn without_a_passphrase_nobody_logs_in() {
        let (guard, stats) = guard();
        let access = Access::new(OUTSIDE, HttpPublic::Auto, None);
        assert!(!access.can_log_in());
        assert_eq!(access.log_in("", GUESSER, &guard).await, Ok(None));
        let empty_bearer = headers(header::AUTHORIZATION, "Bearer ");
        assert!(
            !access
                .may_watch(&empty_bearer, GUESSER, &guard)
                .await
                .expect("checked")
        );
        // Nothing to guess: nothing counted.
        assert_eq!(failures(&stats), 0);
        let empty = Access::new(OUTSIDE, HttpPublic::Auto, Some(String::new()));
        assert!(!empty.can_log_in());
    }

    #[test]
    fn secrets_compare_exactly() {
        assert!(same("abc", "abc"));
        assert!(!same("abd", "abc"));
        assert!(!same("ab", "abc"));
        assert!(!same("abcd", "abc"));
        assert!(!same("", "a"));
    }
}
