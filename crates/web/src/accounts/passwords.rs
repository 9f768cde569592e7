//! Passwords as Argon2id hashes (the PHC string format, RustCrypto's
//! `argon2`), hashed and checked on the runtime's blocking threads, a few
//! at a time: a hash costs its memory setting and tens of milliseconds on
//! purpose, so a flood of logins waits for a permit instead of taking the
//! machine's memory or the runtime's threads.
//!
//! An unknown name is checked against a hash made at start with the same
//! parameters, so that it costs what a known name costs and the answer
//! cannot tell the two apart by its time.

use std::sync::Arc;

use argon2::{Argon2, Params, PasswordHasher, PasswordVerifier};
use tokio::sync::Semaphore;

/// The Argon2id parameters new hashes are made with (a stored hash is
/// checked with the parameters it names, so changing them keeps old
/// passwords working; the next login rehashes them with the new ones).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PasswordParams {
    /// Memory per hash, in KiB.
    pub memory_kib: u32,
    /// Passes over the memory.
    pub iterations: u32,
    /// Lanes.
    pub parallelism: u32,
}

impl Default for PasswordParams {
    /// OWASP's recommendation for Argon2id: 19 MiB, 2 passes, 1 lane.
    fn default() -> PasswordParams {
        PasswordParams {
            memory_kib: Params::DEFAULT_M_COST,
            iterations: Params::DEFAULT_T_COST,
            parallelism: Params::DEFAULT_P_COST,
        }
    }
}

impl PasswordParams {
    /// The smallest parameters Argon2 takes: for tests only, where a
    /// real hash's cost would only slow the tests.
    pub const FAST_FOR_TESTS: PasswordParams = PasswordParams {
        memory_kib: 8,
        iterations: 1,
        parallelism: 1,
    };
}

/// Hashes or checks being worked on at once.
pub const HASHES_AT_ONCE: usize = 2;

/// Why a password could not be hashed or checked.
#[derive(Debug, thiserror::Error)]
pub enum PasswordError {
    /// The parameters are out of Argon2's range.
    #[error("the password hashing parameters are not valid: {0}")]
    Params(String),
    /// The hash failed (no randomness for the salt, a blocking thread
    /// lost).
    #[error("a password could not be hashed: {0}")]
    Failed(String),
}

/// Makes and checks password hashes.
#[derive(Debug)]
pub struct Passwords {
    params: Params,
    permits: Arc<Semaphore>,
    /// A hash of no one's password, for unknown names.
    stand_in: String,
}

impl Passwords {
    /// Hashes with `params`; makes the stand-in hash at once.
    ///
    /// # Errors
    ///
    /// The parameters are out of Argon2's range.
    pub fn new(params: PasswordParams) -> Result<Passwords, PasswordError> {
        let params = Params::new(
            params.memory_kib,
            params.iterations,
            params.parallelism,
            None,
        )
        .map_err(|error| PasswordError::Params(error.to_string()))?;
        let stand_in = hash_with(&params, &super::secrets::new_token())?;
        Ok(Passwords {
            params,
            permits: Arc::new(Semaphore::new(HASHES_AT_ONCE)),
            stand_in,
        })
    }

    /// The hash of `password`, with a new random salt.
    ///
    /// # Errors
    ///
    /// The hash failed.
    pub async fn hash(&self, password: &str) -> Result<String, PasswordError> {
        let params = self.params.clone();
        let password = password.to_owned();
        self.blocking(move || hash_with(&params, &password)).await?
    }

    /// Whether `password` is the one of `hash` (`None`: an unknown name,
    /// checked against the stand-in and never right). A stored hash that
    /// cannot be read is no match.
    pub async fn check(&self, password: &str, hash: Option<&str>) -> Result<bool, PasswordError> {
        let known = hash.is_some();
        let hash = hash.unwrap_or(&self.stand_in).to_owned();
        let password = password.to_owned();
        let right = self
            .blocking(move || {
                Argon2::default()
                    .verify_password(password.as_bytes(), hash.as_str())
                    .is_ok()
            })
            .await?;
        Ok(known && right)
    }

    /// Whether `hash` (a stored one, whose password was just found right)
    /// should be made anew: it is of another algorithm or version, or of
    /// other parameters than the configured ones, which changed since.
    /// An unreadable hash is no match anyway, and is left as it is.
    pub fn needs_rehash(&self, hash: &str) -> bool {
        let Ok(parsed) = argon2::password_hash::phc::PasswordHash::new(hash) else {
            return false;
        };
        let Ok(params) = Params::try_from(&parsed) else {
            return false;
        };
        parsed.algorithm.as_str() != "argon2id"
            || parsed.version != Some(argon2::Version::V0x13 as u32)
            || params.m_cost() != self.params.m_cost()
            || params.t_cost() != self.params.t_cost()
            || params.p_cost() != self.params.p_cost()
    }

    async fn blocking<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, PasswordError> {
        let _permit = Arc::clone(&self.permits)
            .acquire_owned()
            .await
            .map_err(|error| PasswordError::Failed(error.to_string()))?;
        tokio::task::spawn_blocking(work)
            .await
            .map_err(|error| PasswordError::Failed(error.to_string()))
    }
}

fn hash_with(params: &Params, password: &str) -> Result<String, PasswordError> {
    let hasher = Argon2::new(
        argon2::Algorithm::Argon2id,
        argon2::Version::V0x13,
        params.clone(),
    );
    hasher
        .hash_password(password.as_bytes())
        .map(|hash| hash.to_string())
        .map_err(|error| PasswordError::Failed(error.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_hash_is_argon2id_and_checks_its_password_only() {
        let passwords = Passwords::new(PasswordParams::FAST_FOR_TESTS).expect("params");
        let hash = passwords.hash("correct horse").await.expect("a hash");
        assert!(hash.starts_with("$argon2id$v=19$m=8,t=1,p=1$"), "{hash}");
        assert!(!hash.contains("correct horse"));
        assert!(
            passwords
                .check("correct horse", Some(&hash))
                .await
                .expect("checked")
        );
        assert!(
            !passwords
                .check("correct hors", Some(&hash))
                .await
                .expect("checked")
        );
        assert!(
            !passwords
                .check("x", Some("not a hash"))
                .await
                .expect("checked")
        );
        // An unknown name is never right, whatever the password.
        assert!(
            !passwords
                .check("correct horse", None)
                .await
                .expect("checked")
        );
        let again = passwords.hash("correct horse").await.expect("a hash");
        assert_ne!(hash, again, "each hash has its own salt");
    }

    #[tokio::test]
    async fn a_hash_of_other_parameters_needs_a_rehash() {
        let fast = Passwords::new(PasswordParams::FAST_FOR_TESTS).expect("params");
        let stronger = Passwords::new(PasswordParams {
            memory_kib: 16,
            ..PasswordParams::FAST_FOR_TESTS
        })
        .expect("params");
        let hash = fast.hash("correct horse").await.expect("a hash");
        assert!(!fast.needs_rehash(&hash));
        assert!(stronger.needs_rehash(&hash));
        let argon2i = hash.replacen("$argon2id$", "$argon2i$", 1);
        assert!(fast.needs_rehash(&argon2i));
        assert!(!fast.needs_rehash("not a hash"));
    }

    #[test]
    fn parameters_out_of_range_are_refused() {
        let wrong = PasswordParams {
            memory_kib: 1,
            ..PasswordParams::FAST_FOR_TESTS
        };
        assert!(matches!(
            Passwords::new(wrong),
            Err(PasswordError::Params(_))
        ));
    }
}
