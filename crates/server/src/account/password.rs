//! Password hashing: argon2id with OWASP's parameters (19 MiB, 2 passes, 1 lane), PHC
//! strings in the store. Hashing takes tens of milliseconds of CPU: callers run it on a
//! blocking thread ([`hash`] and [`verify`] are async and do that).

use std::sync::OnceLock;

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};

use crate::error::{Error, Result};
use crate::identity::random_hex;

/// OWASP's argon2id minimum: m = 19 MiB, t = 2, p = 1.
fn argon() -> Argon2<'static> {
    Argon2::new(
        Algorithm::Argon2id,
        Version::V0x13,
        Params::new(19 * 1024, 2, 1, None).expect("OWASP's parameters are valid"),
    )
}

fn hash_now(password: &str) -> Result<String> {
    let mut salt = [0u8; 16];
    getrandom::fill(&mut salt).map_err(|e| Error::Storage(e.to_string()))?;
    let salt = SaltString::encode_b64(&salt).map_err(|e| Error::Storage(e.to_string()))?;
    argon()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| Error::Storage(e.to_string()))
}

fn verify_now(phc: &str, password: &str) -> bool {
    PasswordHash::new(phc).is_ok_and(|h| argon().verify_password(password.as_bytes(), &h).is_ok())
}

/// A hash of a random password, checked against when a name is unknown, so that an unknown
/// name costs as much time as a known one.
fn dummy() -> &'static str {
    static DUMMY: OnceLock<String> = OnceLock::new();
    DUMMY.get_or_init(|| hash_now(&random_hex(16)).unwrap_or_default())
}

/// The PHC string of `password`'s argon2id hash with a fresh random salt.
///
/// # Errors
/// When no random salt can be had or the thread pool is gone.
pub async fn hash(password: String) -> Result<String> {
    tokio::task::spawn_blocking(move || hash_now(&password))
        .await
        .map_err(|_| Error::Unavailable)?
}

/// Whether `password` matches the PHC string `phc`; with none (an unknown name), checks it
/// against a dummy hash all the same (the same time) and answers false.
pub async fn verify(phc: Option<String>, password: String) -> bool {
    tokio::task::spawn_blocking(move || match phc {
        Some(phc) => verify_now(&phc, &password),
        None => {
            let _ = verify_now(dummy(), &password);
            false
        }
    })
    .await
    .unwrap_or(false)
}

/// Computes the dummy hash now (at start-up), so that the first unknown name is not faster
/// or slower than the others.
pub fn warm_up() {
    let _ = dummy();
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A hash verifies its own password only, and is argon2id with OWASP's parameters.
    #[test]
    fn a_hash_is_argon2id_with_owasp_parameters_and_verifies_its_password_only() {
        let h = hash_now("correct horse").unwrap();
        assert!(h.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{h}");
        assert!(verify_now(&h, "correct horse"));
        assert!(!verify_now(&h, "correct horsf"));
        assert!(!verify_now("not a hash", "correct horse"));
        assert_ne!(h, hash_now("correct horse").unwrap(), "salts differ");
    }
}
