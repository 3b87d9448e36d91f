//! Accounts: a name and an argon2id-hashed password, login sessions (the
//! `salpakan_session` cookie), named API tokens, moderators, closed and deleted accounts.
//! [`Accounts`] is the server's `Identity`: guests go on as before through the
//! `GuestIdentity` it wraps, and a guest who registers becomes an account with the same
//! id (its games, history and seat tokens stay its own).
//!
//! Secrets (session cookies, API tokens, guest tokens) are stored as SHA-256 hashes only;
//! passwords as argon2id PHC strings. None is ever logged.

pub mod admin;
pub(crate) mod http;
mod moderation;
pub mod names;
pub(crate) mod password;
mod sessions;
mod tokens;

use std::collections::{HashMap, HashSet};
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::{Arc, Mutex};

use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use serde_json::{Value, json};

use crate::config::Config;
use crate::error::{Error, Result};
use crate::identity::{BoxFuture, GuestIdentity, Identity, User, random_hex, token_hash};
use crate::store::{AccountOp, AccountRow, AccountsLoaded, Op, SessionRow, Store, TokenRow};

pub use names::{check_account_name, check_password, name_key};
pub use sessions::{clear_cookie, cookie_of, set_cookie};

/// The name a deleted account's games show.
pub const DELETED_NAME: &str = "deleted player";
/// The session cookie's name.
pub const COOKIE: &str = "salpakan_session";
/// How long a session lasts unused (and the cookie's `Max-Age`): 180 days.
pub const SESSION_TTL_MS: u64 = 180 * 24 * 3_600_000;
/// How often a session's cookie is sent again (its `Max-Age` renewed) while in use.
const RENEW_MS: u64 = 24 * 3_600_000;
/// The most API tokens one account may hold.
pub const MAX_TOKENS: usize = 20;
/// How often, at most, when an account or token was last seen is written (ms).
const SEEN_WRITE_MS: u64 = 3_600_000;

/// Now, as Unix milliseconds (what accounts, sessions and tokens store).
#[must_use]
pub fn unix_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

/// What the server knows of an account (public facts, its flags and its moderator's note;
/// never its password or secrets).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AccountInfo {
    /// Its user id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// When it was created (Unix ms).
    pub created: u64,
    /// When it was last seen (Unix ms).
    pub seen: u64,
    /// A moderator.
    pub moderator: bool,
    /// A built-in bot's account.
    pub bot: bool,
    /// Closed by a moderator.
    pub closed: bool,
    /// A moderator's note.
    pub mark: Option<String>,
}

struct Acct {
    row: AccountRow,
    /// `seen` as last stored.
    stored_seen: u64,
}

impl Acct {
    fn user(&self) -> User {
        User {
            id: self.row.id.clone(),
            name: self.row.name.clone(),
            account: true,
        }
    }

    fn info(&self) -> AccountInfo {
        let r = &self.row;
        AccountInfo {
            id: r.id.clone(),
            name: r.name.clone(),
            created: r.created,
            seen: r.seen,
            moderator: r.moderator,
            bot: r.bot,
            closed: r.closed,
            mark: r.mark.clone(),
        }
    }
}

struct Sess {
    account: String,
    seen: u64,
    stored_seen: u64,
    /// When its cookie was last sent (0: not since the server started).
    renewed: u64,
}

struct Tok {
    row: TokenRow,
    stored_used: Option<u64>,
}

#[derive(Default)]
struct State {
    /// Live accounts by id.
    accounts: HashMap<String, Acct>,
    /// Account ids by name key.
    by_key: HashMap<String, String>,
    /// Name keys being registered now.
    reserved: HashSet<String>,
    /// Sessions by the cookie's hash.
    sessions: HashMap<String, Sess>,
    /// API tokens by hash.
    tokens: HashMap<String, Tok>,
    /// Accounts closed by `salpakan admin`, whose connections the server has yet to close.
    closed_by_admin: Vec<String>,
    /// The last `salpakan admin` change picked up.
    admin_seq: i64,
}

/// Accounts and guests: the server's `Identity`.
pub struct Accounts {
    store: Store,
    guests: Arc<GuestIdentity>,
    config: Arc<Config>,
    state: Mutex<State>,
    login_by_ip: DefaultKeyedRateLimiter<IpAddr>,
    login_by_name: DefaultKeyedRateLimiter<String>,
    register_by_ip: DefaultKeyedRateLimiter<IpAddr>,
}

impl std::fmt::Debug for Accounts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Accounts").finish_non_exhaustive()
    }
}

fn quota(per: Quota, n: u32) -> Quota {
    per.allow_burst(NonZeroU32::new(n).unwrap_or(NonZeroU32::MIN))
}

fn wrong_login() -> Error {
    Error::WrongLogin
}

impl Accounts {
    /// Accounts over `store`, knowing the stored accounts, sessions and tokens, with the
    /// guests of `guests`.
    #[must_use]
    pub(crate) fn new(
        store: Store,
        guests: Arc<GuestIdentity>,
        loaded: AccountsLoaded,
        config: Arc<Config>,
    ) -> Arc<Accounts> {
        let mut st = State {
            admin_seq: loaded.admin_seq,
            ..State::default()
        };
        for row in loaded.accounts {
            st.by_key.insert(row.name_key.clone(), row.id.clone());
            st.accounts.insert(
                row.id.clone(),
                Acct {
                    stored_seen: row.seen,
                    row,
                },
            );
        }
        for s in loaded.sessions {
            st.sessions.insert(
                s.hash,
                Sess {
                    account: s.account,
                    seen: s.seen,
                    stored_seen: s.seen,
                    renewed: 0,
                },
            );
        }
        for t in loaded.tokens {
            st.tokens.insert(
                t.hash.clone(),
                Tok {
                    stored_used: t.last_used,
                    row: t,
                },
            );
        }
        let per_minute = NonZeroU32::new(config.logins_per_minute).unwrap_or(NonZeroU32::MIN);
        let per_hour = NonZeroU32::new(config.accounts_per_hour).unwrap_or(NonZeroU32::MIN);
        let login = quota(Quota::per_minute(per_minute), config.logins_per_minute);
        let register = quota(Quota::per_hour(per_hour), config.accounts_per_hour);
        // The dummy hash for unknown names, computed now rather than on the first one.
        std::thread::spawn(password::warm_up);
        Arc::new(Accounts {
            store,
            guests,
            config,
            state: Mutex::new(st),
            login_by_ip: RateLimiter::keyed(login),
            login_by_name: RateLimiter::keyed(login),
            register_by_ip: RateLimiter::keyed(register),
        })
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state
            .lock()
            .expect("the accounts' lock is never poisoned")
    }

    fn limited(&self, what: &str) -> Error {
        Error::Limit(what.to_string())
    }

    /// The per-address and per-name limits on logging in and registering.
    fn check_login_rate(&self, ip: IpAddr, key: &str) -> Result<()> {
        let n = self.config.logins_per_minute;
        if self.login_by_ip.check_key(&ip).is_err() {
            return Err(self.limited(&format!(
                "too many logins from your address: at most {n} a minute; wait a minute and try again"
            )));
        }
        if self.login_by_name.check_key(&key.to_string()).is_err() {
            return Err(self.limited(&format!(
                "too many logins to this name: at most {n} a minute; wait a minute and try again"
            )));
        }
        Ok(())
    }

    /// Registers an account named `name`: `guest` (when the request came from a guest)
    /// becomes it, keeping its id. Returns the account and a new session's cookie value.
    ///
    /// # Errors
    /// A name or password against the rules (400), a name taken (409), a limit (429), a
    /// storage failure.
    pub async fn register(
        &self,
        name: &str,
        password: &str,
        guest: Option<&User>,
        ip: IpAddr,
    ) -> Result<(User, String)> {
        // The cheap checks first: only a registration that could succeed counts against
        // the limits (and costs a hash).
        check_account_name(name)?;
        check_password(password)?;
        let key = name_key(name);
        let taken = || Error::Rejected("that name is taken".into());
        {
            let st = self.state();
            if st.by_key.contains_key(&key) || st.reserved.contains(&key) {
                return Err(taken());
            }
        }
        if self.register_by_ip.check_key(&ip).is_err() {
            return Err(self.limited(&format!(
                "too many new accounts from your address: at most {} an hour; try again later",
                self.config.accounts_per_hour
            )));
        }
        self.check_login_rate(ip, &key)?;
        let phc = password::hash(password.to_string()).await?;
        {
            let mut st = self.state();
            if st.by_key.contains_key(&key) || !st.reserved.insert(key.clone()) {
                return Err(taken());
            }
        }
        let result = self.create(name, &key, phc, guest).await;
        self.state().reserved.remove(&key);
        result
    }

    async fn create(
        &self,
        name: &str,
        key: &str,
        phc: String,
        guest: Option<&User>,
    ) -> Result<(User, String)> {
        let now = unix_ms();
        let guest = guest.filter(|g| !g.account);
        let (id, seat_key) = match guest {
            // A guest keeps its seat-token key: its seat tokens keep working.
            Some(g) => (
                g.id.clone(),
                self.guests.key(&g.id).unwrap_or_else(|| random_hex(24)),
            ),
            None => (random_hex(8), random_hex(24)),
        };
        let row = AccountRow {
            id: id.clone(),
            name: name.to_string(),
            name_key: key.to_string(),
            password: phc,
            key: seat_key,
            created: now,
            seen: now,
            moderator: false,
            bot: false,
            closed: false,
            mark: None,
        };
        let cookie = random_hex(32);
        let session = SessionRow {
            hash: token_hash(&cookie),
            account: id.clone(),
            seen: now,
        };
        self.store
            .write(vec![
                Op::Account(AccountOp::Create {
                    row: row.clone(),
                    from_guest: guest.is_some(),
                }),
                Op::Account(AccountOp::Session(session.clone())),
            ])
            .await?;
        if guest.is_some() {
            self.guests.forget(&id);
        }
        let mut st = self.state();
        st.by_key.insert(key.to_string(), id.clone());
        st.accounts.insert(
            id.clone(),
            Acct {
                row,
                stored_seen: now,
            },
        );
        st.sessions.insert(
            session.hash,
            Sess {
                account: id.clone(),
                seen: now,
                stored_seen: now,
                renewed: now,
            },
        );
        let user = st.accounts[&id].user();
        drop(st);
        tracing::info!(user = %id, upgraded_guest = guest.is_some(), "account registered");
        Ok((user, cookie))
    }

    /// Logs in: the account and a new session's cookie value. A wrong password and an
    /// unknown name get the same answer in the same time.
    ///
    /// # Errors
    /// A limit (429), [`Error::WrongLogin`] (401), a closed account (403, only to whoever
    /// knows its password), a storage failure.
    pub async fn login(&self, name: &str, password: &str, ip: IpAddr) -> Result<(User, String)> {
        let key = name_key(name);
        self.check_login_rate(ip, &key)?;
        let found = {
            let st = self.state();
            st.by_key
                .get(&key)
                .and_then(|id| st.accounts.get(id))
                .map(|a| (a.row.id.clone(), a.row.password.clone()))
        };
        let (id, phc) = match found {
            Some((id, phc)) => (Some(id), Some(phc)),
            None => (None, None),
        };
        if !password::verify(phc, password.to_string()).await {
            return Err(wrong_login());
        }
        let id = id.ok_or_else(wrong_login)?;
        if self.state().accounts.get(&id).is_none_or(|a| a.row.closed) {
            return Err(Error::Forbidden(
                "this account was closed by a moderator".into(),
            ));
        }
        let cookie = self.new_session(&id).await?;
        let user = self
            .state()
            .accounts
            .get(&id)
            .map(Acct::user)
            .ok_or_else(wrong_login)?;
        tracing::info!(user = %id, "logged in");
        Ok((user, cookie))
    }

    async fn new_session(&self, account: &str) -> Result<String> {
        let now = unix_ms();
        let cookie = random_hex(32);
        let hash = token_hash(&cookie);
        self.store
            .write(vec![Op::Account(AccountOp::Session(SessionRow {
                hash: hash.clone(),
                account: account.to_string(),
                seen: now,
            }))])
            .await?;
        self.state().sessions.insert(
            hash,
            Sess {
                account: account.to_string(),
                seen: now,
                stored_seen: now,
                renewed: now,
            },
        );
        Ok(cookie)
    }

    /// Changes `account`'s password after checking the old one; every other session ends
    /// (the one of `keep`, this device's cookie, stays) and seat tokens change.
    ///
    /// # Errors
    /// A wrong old password (403), a new one against the rules (400), a storage failure.
    pub async fn change_password(
        &self,
        account: &str,
        old: &str,
        new: &str,
        keep: Option<&str>,
    ) -> Result<()> {
        check_password(new)?;
        if !password::verify(self.phc(account), old.to_string()).await {
            return Err(Error::Forbidden(
                "that is not your current password; nothing was changed".into(),
            ));
        }
        let phc = password::hash(new.to_string()).await?;
        let key = random_hex(24);
        let keep = keep.map(token_hash);
        self.store
            .write(vec![
                Op::Account(AccountOp::Password {
                    account: account.to_string(),
                    password: phc.clone(),
                    key: key.clone(),
                }),
                Op::Account(AccountOp::EndSessions {
                    account: account.to_string(),
                    only: None,
                    except: keep.clone(),
                }),
            ])
            .await?;
        let mut st = self.state();
        st.sessions
            .retain(|h, s| s.account != account || Some(h) == keep.as_ref());
        if let Some(a) = st.accounts.get_mut(account) {
            a.row.password = phc;
            a.row.key = key;
        }
        tracing::info!(user = %account, "password changed");
        Ok(())
    }

    /// Checks `account`'s password (deleting an account asks for it).
    ///
    /// # Errors
    /// A wrong password (403).
    pub async fn check_own_password(&self, account: &str, password: &str) -> Result<()> {
        if password::verify(self.phc(account), password.to_string()).await {
            Ok(())
        } else {
            Err(Error::Forbidden(
                "that is not your password; nothing was changed".into(),
            ))
        }
    }

    /// Deletes `account`: its sessions and tokens end, its name is free again, its stored
    /// games show [`DELETED_NAME`]. (The server also resigns its games in progress and
    /// renames it in running games: [`crate::App::delete_account`].)
    ///
    /// # Errors
    /// A storage failure (nothing changed).
    pub(crate) async fn delete(&self, account: &str) -> Result<()> {
        self.store
            .write(vec![Op::Account(AccountOp::Delete {
                account: account.to_string(),
                name: DELETED_NAME.into(),
            })])
            .await?;
        let mut st = self.state();
        if let Some(a) = st.accounts.remove(account) {
            st.by_key.remove(&a.row.name_key);
        }
        st.sessions.retain(|_, s| s.account != account);
        st.tokens.retain(|_, t| t.row.account != account);
        drop(st);
        tracing::info!(user = %account, "account deleted");
        Ok(())
    }
}

impl Identity for Accounts {
    fn create_guest(&self, name: Option<String>) -> BoxFuture<'_, Result<(User, String)>> {
        self.guests.create_guest(name)
    }

    /// A guest token or an API token.
    fn authenticate(&self, token: &str) -> Option<User> {
        if let Some(u) = self.guests.authenticate(token) {
            return Some(u);
        }
        if token.len() > 128 {
            return None;
        }
        let now = unix_ms();
        let mut st = self.state();
        let t = st.tokens.get_mut(&token_hash(token))?;
        t.row.last_used = Some(now);
        let id = t.row.account.clone();
        let a = st.accounts.get_mut(&id).filter(|a| !a.row.closed)?;
        a.row.seen = now;
        Some(a.user())
    }

    fn key(&self, user: &str) -> Option<String> {
        if let Some(k) = self.guests.key(user) {
            return Some(k);
        }
        self.state()
            .accounts
            .get(user)
            .filter(|a| !a.row.closed)
            .map(|a| a.row.key.clone())
    }

    fn touch(&self, user: &str, now: u64) {
        self.guests.touch(user, now);
        if let Some(a) = self.state().accounts.get_mut(user) {
            a.row.seen = unix_ms();
        }
    }

    /// A guest is forgotten; an account's sessions end (its API tokens stay) and its seat
    /// tokens change.
    fn sign_out(&self, user: &str) -> BoxFuture<'_, Result<()>> {
        let user = user.to_string();
        Box::pin(async move {
            if self.state().accounts.contains_key(&user) {
                self.end_sessions(&user).await
            } else {
                self.guests.sign_out(&user).await
            }
        })
    }

    /// Guests expire; accounts never do (but their sessions do, unused for
    /// [`SESSION_TTL_MS`]). Also stores when accounts were last seen and picks up what
    /// `salpakan admin` changed.
    fn expire(&self, before: u64) -> BoxFuture<'_, Result<usize>> {
        Box::pin(async move {
            let n = self.guests.expire(before).await?;
            self.store_seen().await?;
            self.pick_up_admin_changes().await;
            Ok(n)
        })
    }
}
