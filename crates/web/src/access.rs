//! Who may watch running games.
//!
//! On a loopback listen address every page is open. When the server
//! listens on other interfaces, running games are shown only to a browser
//! that has logged in with the administrator passphrase (the login form
//! sets a session cookie) or a request that carries the passphrase as a
//! bearer token (`Authorization: Bearer …`), unless the pages are declared
//! public (`--http-public`). Without a passphrase and without public pages,
//! only the replays of finished games are shown. Watching never lets anyone
//! send a move: the web side has no way to reach a room's commands.

use std::net::IpAddr;

use axum::http::{HeaderMap, header};

/// The name of the session cookie.
pub const SESSION_COOKIE: &str = "spielleiter_session";

/// The access rules of one web side.
#[derive(Clone)]
pub struct Access {
    /// Whether running games are shown to everyone.
    open: bool,
    /// The administrator passphrase, if administration is on.
    passphrase: Option<String>,
    /// The session cookie's value after a login; random per process.
    session: String,
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
    /// The rules for pages served on `listen`: open on a loopback address
    /// or when `public`; otherwise running games need `passphrase`.
    pub fn new(listen: IpAddr, public: bool, passphrase: Option<String>) -> Access {
        Access {
            open: public || is_loopback(listen),
            passphrase: passphrase.filter(|p| !p.is_empty()),
            session: uuid::Uuid::new_v4().simple().to_string(),
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

    /// Whether the request may watch running games.
    pub fn may_watch(&self, headers: &HeaderMap) -> bool {
        self.open || self.is_logged_in(headers)
    }

    /// Whether the request carries the session cookie or the passphrase.
    pub fn is_logged_in(&self, headers: &HeaderMap) -> bool {
        let Some(passphrase) = &self.passphrase else {
            return false;
        };
        let bearer = headers
            .get_all(header::AUTHORIZATION)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .filter_map(|v| v.strip_prefix("Bearer "))
            .any(|token| same(token.trim(), passphrase));
        bearer
            || cookies(headers)
                .any(|(name, value)| name == SESSION_COOKIE && same(value, &self.session))
    }

    /// The session cookie's value if `passphrase` is the administrator's.
    pub fn log_in(&self, passphrase: &str) -> Option<&str> {
        let expected = self.passphrase.as_deref()?;
        same(passphrase, expected).then_some(self.session.as_str())
    }
}

/// The `name=value` pairs of the request's cookies.
fn cookies(headers: &HeaderMap) -> impl Iterator<Item = (&str, &str)> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
}

/// Compares two secrets in time independent of where they differ.
fn same(given: &str, expected: &str) -> bool {
    let (given, expected) = (given.as_bytes(), expected.as_bytes());
    let mut difference = u8::from(given.len() != expected.len());
    for (i, &e) in expected.iter().enumerate() {
        difference |= e ^ given.get(i).copied().unwrap_or(!e);
    }
    difference == 0
}

#[cfg(test)]
mod tests {
    use std::net::{Ipv4Addr, Ipv6Addr};

    use axum::http::HeaderValue;

    use super::*;

    const OUTSIDE: IpAddr = IpAddr::V4(Ipv4Addr::UNSPECIFIED);

    fn headers(name: header::HeaderName, value: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(name, HeaderValue::from_str(value).expect("a header value"));
        headers
    }

    #[test]
    fn loopback_addresses_are_open() {
        for listen in [
            IpAddr::V4(Ipv4Addr::LOCALHOST),
            IpAddr::V4(Ipv4Addr::new(127, 0, 0, 2)),
            IpAddr::V6(Ipv6Addr::LOCALHOST),
            IpAddr::V6(Ipv4Addr::LOCALHOST.to_ipv6_mapped()),
        ] {
            assert!(Access::new(listen, false, None).may_watch(&HeaderMap::new()));
        }
        for listen in [
            OUTSIDE,
            IpAddr::V6(Ipv6Addr::UNSPECIFIED),
            IpAddr::V4(Ipv4Addr::new(192, 0, 2, 7)),
        ] {
            assert!(!Access::new(listen, false, None).may_watch(&HeaderMap::new()));
            assert!(Access::new(listen, true, None).may_watch(&HeaderMap::new()));
        }
    }

    #[test]
    fn other_interfaces_need_the_passphrase_or_the_session() {
        let access = Access::new(OUTSIDE, false, Some("secret words".into()));
        assert!(!access.may_watch(&HeaderMap::new()));
        assert!(access.may_watch(&headers(header::AUTHORIZATION, "Bearer secret words")));
        assert!(!access.may_watch(&headers(header::AUTHORIZATION, "Bearer secret")));
        assert!(!access.may_watch(&headers(header::AUTHORIZATION, "secret words")));

        assert_eq!(access.log_in("wrong"), None);
        let session = access
            .log_in("secret words")
            .expect("the passphrase")
            .to_owned();
        let cookie = format!("theme=dark; {SESSION_COOKIE}={session}");
        assert!(access.may_watch(&headers(header::COOKIE, &cookie)));
        // One character changed (a session that starts with 0 gets a 1).
        let changed = if session.starts_with('0') { '1' } else { '0' };
        let forged = format!("{SESSION_COOKIE}={changed}{}", &session[1..]);
        assert!(!access.may_watch(&headers(header::COOKIE, &forged)));
        // Another process has another session.
        let other = Access::new(OUTSIDE, false, Some("secret words".into()));
        assert!(!other.may_watch(&headers(header::COOKIE, &cookie)));
    }

    #[test]
    fn without_a_passphrase_nobody_logs_in() {
        let access = Access::new(OUTSIDE, false, None);
        assert!(!access.can_log_in());
        assert_eq!(access.log_in(""), None);
        assert!(!access.may_watch(&headers(header::AUTHORIZATION, "Bearer ")));
        let empty = Access::new(OUTSIDE, false, Some(String::new()));
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
