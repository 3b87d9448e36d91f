//! Who is who: the [`Identity`] interface and guest identities. Accounts
//! ([`crate::account::Accounts`]) implement the same interface and wrap the guests.

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
    /// Whether this is an account (or a bot's account); false for a guest.
    pub account: bool,
}

/// A boxed future, for the dyn-compatible [`Identity`] trait.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// How users get and prove an identity: guests ([`GuestIdentity`]) and accounts
/// ([`crate::account::Accounts`], which wraps the guests) implement it.
pub trait Identity: Send + Sync + 'static {
    /// Creates a guest with this name (or a generated one) and returns it with its secret
    /// token, which only the client keeps. Returns once the guest is stored.
    fn create_guest(&self, name: Option<String>) -> BoxFuture<'_, Result<(User, String)>>;
    /// The user a token belongs to.
    fn authenticate(&self, token: &str) -> Option<User>;
    /// The user's current secret key (seat tokens derive from it, so that they die with
    /// the user's token); none once the user signed out or expired.
    fn key(&self, user: &str) -> Option<String>;
    /// The user was seen at `now` (ms).
    fn touch(&self, user: &str, now: u64);
    /// Forgets the user's token everywhere (signing out): it and every seat token derived
    /// from it stop working. Returns once stored.
    fn sign_out(&self, user: &str) -> BoxFuture<'_, Result<()>>;
    /// Forgets every user not seen since `before` (ms), and stores when the others were
    /// last seen. Returns how many were forgotten.
    fn expire(&self, before: u64) -> BoxFuture<'_, Result<usize>>;
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
    /// By id: the token's hash, when last seen, and the last-seen time stored.
    by_id: RwLock<HashMap<String, (String, u64, u64)>>,
}

impl GuestIdentity {
    /// Guest identities over `store`, knowing the stored `guests` (those never seen count
    /// as seen at `now`).
    #[must_use]
    pub fn new(store: Store, guests: Vec<GuestRow>, now: u64) -> Arc<GuestIdentity> {
        let by_id = guests
            .iter()
            .map(|g| {
                let seen = if g.seen == 0 { now } else { g.seen };
                (g.id.clone(), (g.token_hash.clone(), seen, g.seen))
            })
            .collect();
        let by_hash = guests
            .into_iter()
            .map(|g| {
                (
                    g.token_hash,
                    User {
                        id: g.id,
                        name: g.name,
                        account: false,
                    },
                )
            })
            .collect();
        Arc::new(GuestIdentity {
            store,
            by_hash: RwLock::new(by_hash),
            by_id: RwLock::new(by_id),
        })
    }

    /// Forgets a guest in memory (its token no longer works); the caller stores that.
    pub(crate) fn forget(&self, user: &str) {
        let Ok(mut ids) = self.by_id.write() else {
            return;
        };
        if let Some((hash, ..)) = ids.remove(user) {
            drop(ids);
            if let Ok(mut h) = self.by_hash.write() {
                h.remove(&hash);
            }
        }
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
                account: false,
            };
            self.store
                .write(vec![Op::Guest(GuestRow {
                    id: id.clone(),
                    name,
                    token_hash: hash.clone(),
                    seen: 0,
                })])
                .await?;
            self.by_hash
                .write()
                .map_err(|_| Error::Unavailable)?
                .insert(hash.clone(), user.clone());
            // Never expired until the caller marks it seen (at once: see `touch`).
            self.by_id
                .write()
                .map_err(|_| Error::Unavailable)?
                .insert(id, (hash, u64::MAX, 0));
            Ok((user, token))
        })
    }

    fn authenticate(&self, token: &str) -> Option<User> {
        if token.len() > 128 {
            return None;
        }
        self.by_hash.read().ok()?.get(&token_hash(token)).cloned()
    }

    fn key(&self, user: &str) -> Option<String> {
        self.by_id.read().ok()?.get(user).map(|v| v.0.clone())
    }

    fn touch(&self, user: &str, now: u64) {
        if let Ok(mut ids) = self.by_id.write() {
            if let Some(v) = ids.get_mut(user) {
                v.1 = now;
            }
        }
    }

    fn sign_out(&self, user: &str) -> BoxFuture<'_, Result<()>> {
        let user = user.to_string();
        Box::pin(async move {
            self.store
                .write(vec![Op::ForgetGuest(user.clone())])
                .await?;
            self.forget(&user);
            Ok(())
        })
    }

    fn expire(&self, before: u64) -> BoxFuture<'_, Result<usize>> {
        Box::pin(async move {
            let (gone, seen): (Vec<String>, Vec<(String, u64)>) = {
                let ids = self.by_id.read().map_err(|_| Error::Unavailable)?;
                let gone = ids
                    .iter()
                    .filter(|(_, v)| v.1 < before)
                    .map(|(k, _)| k.clone())
                    .collect();
                // Stored at most about once an hour per guest.
                let seen = ids
                    .iter()
                    .filter(|(_, v)| v.1 >= before && v.1 != u64::MAX && v.1 >= v.2 + 3_600_000)
                    .map(|(k, v)| (k.clone(), v.1))
                    .collect();
                (gone, seen)
            };
            let mut ops: Vec<Op> = gone.iter().cloned().map(Op::ForgetGuest).collect();
            if !seen.is_empty() {
                ops.push(Op::Seen(seen.clone()));
            }
            if ops.is_empty() {
                return Ok(0);
            }
            self.store.write(ops).await?;
            for g in &gone {
                self.forget(g);
            }
            if let Ok(mut ids) = self.by_id.write() {
                for (k, at) in seen {
                    if let Some(v) = ids.get_mut(&k) {
                        v.2 = at;
                    }
                }
            }
            Ok(gone.len())
        })
    }
}
