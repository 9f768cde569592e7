//! The accounts' secrets: random tokens (invite links, session ids, the
//! login forms' cookie), their digests (all the store keeps), the CSRF
//! token each form carries, and the cookies that hold them.
//!
//! A form's CSRF token is derived from the secret of the cookie it is
//! bound to (the session's, or before a login the form cookie's) with a
//! domain-separated SHA-256: only a page the cookie's holder was served
//! can carry it, another session's token is another value, and a token
//! shown in a page tells nothing about the session id it came from.

use sha2::{Digest, Sha256};
use spielleiter_contest::TokenDigest;

/// The cookie of a contest session.
pub const ACCOUNT_COOKIE: &str = "spielleiter_account";

/// The cookie the login and invite forms are bound to before there is a
/// session (a login-CSRF guard: another site cannot sign a visitor in to
/// its own account).
pub const FORM_COOKIE: &str = "spielleiter_form";

/// The form field that carries the CSRF token.
pub const CSRF_FIELD: &str = "csrf";

/// A new random secret of 256 bits, as 64 hex digits.
pub fn new_token() -> String {
    hex(&rand::random::<[u8; 32]>())
}

/// The digest of a token, as the store keeps it.
pub fn digest(token: &str) -> TokenDigest {
    TokenDigest(Sha256::digest(token.as_bytes()).into())
}

/// The CSRF token of forms bound to the cookie whose secret is `secret`.
pub fn csrf_token(secret: &str) -> String {
    let mut hasher = Sha256::new();
    hasher.update(b"spielleiter csrf token\0");
    hasher.update(secret.as_bytes());
    hex(&hasher.finalize())
}

/// A short number of a name, for the per-name back-off (collisions only
/// share a back-off).
pub fn name_key(login_key: &str) -> u64 {
    let mut hasher = Sha256::new();
    hasher.update(b"spielleiter login name\0");
    hasher.update(login_key.as_bytes());
    let digest = hasher.finalize();
    let mut first = [0u8; 8];
    first.copy_from_slice(&digest[..8]);
    u64::from_be_bytes(first)
}

/// Whether `token` looks like one of [`new_token`]'s (64 hex digits): a
/// cookie or link of any other shape is nobody's, without a store lookup.
pub fn well_formed(token: &str) -> bool {
    token.len() == 64 && token.bytes().all(|b| b.is_ascii_hexdigit())
}

fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    bytes.iter().fold(String::with_capacity(64), |mut out, b| {
        let _ = write!(out, "{b:02x}");
        out
    })
}

/// A `Set-Cookie` value for `name`: `HttpOnly`, for `path`, `SameSite`
/// `same_site`, `Secure` when `secure`, living `max_age` seconds (0 ends
/// it).
pub fn cookie(
    name: &str,
    value: &str,
    path: &str,
    same_site: &str,
    max_age: i64,
    secure: bool,
) -> String {
    let secure = if secure { "; Secure" } else { "" };
    format!(
        "{name}={value}; Path={path}; Max-Age={max_age}; HttpOnly; SameSite={same_site}{secure}"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_random_and_only_their_digests_are_kept() {
        let (a, b) = (new_token(), new_token());
        assert_ne!(a, b);
        assert!(well_formed(&a) && well_formed(&b));
        assert!(!well_formed("abc") && !well_formed(&"g".repeat(64)));
        assert_eq!(digest(&a), digest(&a));
        assert_ne!(digest(&a), digest(&b));
        // The CSRF token is neither the secret nor its stored digest.
        assert_ne!(csrf_token(&a), a);
        assert_ne!(csrf_token(&a), csrf_token(&b));
        assert_ne!(csrf_token(&a).as_bytes(), &digest(&a).0[..]);
    }

    #[test]
    fn cookies_are_http_only_and_secure_when_asked() {
        let plain = cookie("c", "v", "/", "Lax", 60, false);
        assert_eq!(plain, "c=v; Path=/; Max-Age=60; HttpOnly; SameSite=Lax");
        assert!(cookie("c", "v", "/", "Lax", 60, true).ends_with("; Secure"));
    }
}
