//! Who is who: guest identities now, accounts later, behind one interface.

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, RwLock};

use sha2::{Digest, Sha256};

use crate::error::{Error, Result};
use crate::store::{GuestRow, Op, Store};

/// A known user.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct User {
    /// Stable id.
    pub id: String,
    /// Display name.
    pub name: String,
}

/// A boxed future, for the dyn-compatible [`Identity`] trait.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// How users get and prove an identity. Guests today ([`GuestIdentity`]); accounts later
/// implement the same trait.
pub trait Identity: Send + Sync + 'static {
    /// Creates a guest with this name (or a generated one) and returns it with its secret
    /// token, which only the client keeps. Returns once the guest is stored.
    fn create_guest(&self, name: Option<String>) -> BoxFuture<'_, Result<(User, String)>>;
    /// The user a token belongs to.
    fn authenticate(&self, token: &str) -> Option<User>;
}

/// SHA-256 hex of a token: the only form in which tokens are stored.
#[must_use]
pub fn token_hash(token: &str) -> String {
    hex(&Sha256::digest(token.as_bytes()))
}

/// Lower-case hex.
#[must_use]
pub fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    bytes.iter().fold(String::new(), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

/// `n` random bytes from the operating system's secure source, as hex.
///
/// # Panics
/// If the operating system has no random source.
#[must_use]
pub fn random_hex(n: usize) -> String {
    let mut b = vec![0u8; n];
    getrandom::fill(&mut b).expect("the OS random source works");
    hex(&b)
}

/// Whether two strings are equal, in time that does not depend on where they differ.
#[must_use]
pub fn same_secret(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

/// Checks a display name: 1 to 24 letters, digits, spaces, `-` or `_`.
///
/// # Errors
/// A sentence saying what is allowed.
pub fn check_name(name: &str) -> Result<String> {
    let n = name.trim();
    let ok = !n.is_empty()
        && n.chars().count() <= 24
        && n.chars()
            .all(|c| c.is_alphanumeric() || c == ' ' || c == '-' || c == '_');
    if ok {
        Ok(n.to_string())
    } else {
        Err(Error::BadRequest(
            "a name has 1 to 24 letters, digits, spaces, '-' or '_'".into(),
        ))
    }
}

/// Guest identities: a name and a random token; the store keeps only the token's hash.
#[derive(Debug)]
pub struct GuestIdentity {
    store: Store,
    by_hash: RwLock<HashMap<String, User>>,
}

impl GuestIdentity {
    /// Guest identities over `store`, knowing the stored `guests`.
    #[must_use]
    pub fn new(store: Store, guests: Vec<GuestRow>) -> Arc<GuestIdentity> {
        let by_hash = guests
            .into_iter()
            .map(|g| {
                (
                    g.token_hash,
                    User {
                        id: g.id,
                        name: g.name,
                    },
                )
            })
            .collect();
        Arc::new(GuestIdentity {
            store,
            by_hash: RwLock::new(by_hash),
        })
    }
}

impl Identity for GuestIdentity {
    fn create_guest(&self, name: Option<String>) -> BoxFuture<'_, Result<(User, String)>> {
        Box::pin(async move {
            let id = random_hex(8);
            let name = match name {
                Some(n) => check_name(&n)?,
                None => format!("Guest-{}", &id[..6]),
            };
            let token = random_hex(24);
            let hash = token_hash(&token);
            let user = User {
                id: id.clone(),
                name: name.clone(),
            };
            self.store
                .write(vec![Op::Guest(GuestRow {
                    id,
                    name,
                    token_hash: hash.clone(),
                })])
                .await?;
            self.by_hash
                .write()
                .map_err(|_| Error::Unavailable)?
                .insert(hash, user.clone());
            Ok((user, token))
        })
    }

    fn authenticate(&self, token: &str) -> Option<User> {
        if token.len() > 128 {
            return None;
        }
        self.by_hash.read().ok()?.get(&token_hash(token)).cloned()
    }
}
