//! Accounts: a name and an argon2id-hashed password, login sessions (the
//! `salpakan_session` cookie), named API tokens, moderators, closed and deleted accounts.
//! [`Accounts`] is the server's [`Identity`]: guests go on as before through the
//! [`GuestIdentity`] it wraps, and a guest who registers becomes an account with the same
//! id (its games, history and seat tokens stay its own).
//!
//! Secrets (session cookies, API tokens, guest tokens) are stored as SHA-256 hashes only;
//! passwords as argon2id PHC strings. None is ever logged.

pub mod admin;
pub(crate) mod http;
pub mod names;
pub(crate) mod password;

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

/// Accounts and guests: the server's [`Identity`].
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

/// A session cookie as a `Set-Cookie` value (`Secure` when the server is behind TLS).
#[must_use]
pub fn set_cookie(value: &str, secure: bool) -> String {
    format!(
        "{COOKIE}={value}; Path=/; HttpOnly; SameSite=Lax; Max-Age={}{}",
        SESSION_TTL_MS / 1000,
        if secure { "; Secure" } else { "" }
    )
}

/// The `Set-Cookie` value that removes the session cookie.
#[must_use]
pub fn clear_cookie(secure: bool) -> String {
    format!(
        "{COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0{}",
        if secure { "; Secure" } else { "" }
    )
}

/// The session cookie's value in a request's `Cookie` headers.
#[must_use]
pub fn cookie_of(headers: &axum::http::HeaderMap) -> Option<&str> {
    headers
        .get_all(axum::http::header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|kv| kv.trim().split_once('='))
        .find(|(k, _)| *k == COOKIE)
        .map(|(_, v)| v.trim())
        .filter(|v| !v.is_empty() && v.len() <= 128)
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

    /// The account of a session cookie (it is used now).
    #[must_use]
    pub fn session_user(&self, cookie: &str) -> Option<User> {
        if cookie.len() > 128 {
            return None;
        }
        let hash = token_hash(cookie);
        let now = unix_ms();
        let mut st = self.state();
        let s = st.sessions.get_mut(&hash)?;
        if now.saturating_sub(s.seen) > SESSION_TTL_MS {
            return None;
        }
        s.seen = now;
        let id = s.account.clone();
        let a = st.accounts.get_mut(&id).filter(|a| !a.row.closed)?;
        a.row.seen = now;
        Some(a.user())
    }

    /// Whether the session of `cookie` should have its cookie sent again (renewing its
    /// `Max-Age`); marks it renewed.
    #[must_use]
    pub fn renew(&self, cookie: &str) -> bool {
        let now = unix_ms();
        let mut st = self.state();
        match st.sessions.get_mut(&token_hash(cookie)) {
            Some(s) if now.saturating_sub(s.renewed) >= RENEW_MS => {
                s.renewed = now;
                true
            }
            _ => false,
        }
    }

    /// Logs this device out: the session of `cookie` ends.
    ///
    /// # Errors
    /// A storage failure.
    pub async fn logout(&self, cookie: &str) -> Result<()> {
        let hash = token_hash(cookie);
        let Some(account) = self.state().sessions.get(&hash).map(|s| s.account.clone()) else {
            return Ok(());
        };
        self.store
            .write(vec![Op::Account(AccountOp::EndSessions {
                account,
                only: Some(hash.clone()),
                except: None,
            })])
            .await?;
        self.state().sessions.remove(&hash);
        Ok(())
    }

    /// Ends every session of `account` (and its seat tokens: its key changes). API tokens
    /// stay.
    async fn end_sessions(&self, account: &str) -> Result<()> {
        let key = random_hex(24);
        self.store
            .write(vec![
                Op::Account(AccountOp::EndSessions {
                    account: account.to_string(),
                    only: None,
                    except: None,
                }),
                Op::Account(AccountOp::Key {
                    account: account.to_string(),
                    key: key.clone(),
                }),
            ])
            .await?;
        let mut st = self.state();
        st.sessions.retain(|_, s| s.account != account);
        if let Some(a) = st.accounts.get_mut(account) {
            a.row.key = key;
        }
        Ok(())
    }

    /// The PHC string of a live account's password.
    fn phc(&self, account: &str) -> Option<String> {
        self.state()
            .accounts
            .get(account)
            .map(|a| a.row.password.clone())
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

    /// `account`'s API tokens (never the tokens themselves), oldest first.
    #[must_use]
    pub fn tokens(&self, account: &str) -> Vec<Value> {
        let st = self.state();
        let mut list: Vec<&TokenRow> = st
            .tokens
            .values()
            .map(|t| &t.row)
            .filter(|t| t.account == account)
            .collect();
        list.sort_by(|a, b| a.created.cmp(&b.created).then(a.id.cmp(&b.id)));
        list.iter()
            .map(|t| json!({"id": t.id, "name": t.name, "created": t.created, "last_used": t.last_used}))
            .collect()
    }

    /// A new API token for `account` named `name`: its id and the token (shown once).
    ///
    /// # Errors
    /// A bad name (400), too many tokens (409), a storage failure.
    pub async fn create_token(&self, account: &str, name: &str) -> Result<(String, String)> {
        let name = name.trim();
        if name.is_empty() || name.chars().count() > 40 || name.chars().any(char::is_control) {
            return Err(Error::BadRequest(
                "a token's name has 1 to 40 characters".into(),
            ));
        }
        let held = self
            .state()
            .tokens
            .values()
            .filter(|t| t.row.account == account)
            .count();
        if held >= MAX_TOKENS {
            return Err(Error::Rejected(format!(
                "an account holds at most {MAX_TOKENS} API tokens; revoke one first"
            )));
        }
        let token = random_hex(24);
        let row = TokenRow {
            id: random_hex(8),
            account: account.to_string(),
            name: name.to_string(),
            hash: token_hash(&token),
            created: unix_ms(),
            last_used: None,
        };
        self.store
            .write(vec![Op::Account(AccountOp::Token(row.clone()))])
            .await?;
        let id = row.id.clone();
        self.state().tokens.insert(
            row.hash.clone(),
            Tok {
                row,
                stored_used: None,
            },
        );
        Ok((id, token))
    }

    /// Revokes `account`'s API token `id`.
    ///
    /// # Errors
    /// No such token of this account (404), a storage failure.
    pub async fn revoke_token(&self, account: &str, id: &str) -> Result<()> {
        let hash = self
            .state()
            .tokens
            .iter()
            .find(|(_, t)| t.row.id == id && t.row.account == account)
            .map(|(h, _)| h.clone())
            .ok_or_else(|| Error::NotFound("you have no API token with that id".into()))?;
        self.store
            .write(vec![Op::Account(AccountOp::Revoke {
                account: account.to_string(),
                id: id.to_string(),
            })])
            .await?;
        self.state().tokens.remove(&hash);
        Ok(())
    }

    /// The account of `id`, when it is a live account.
    #[must_use]
    pub fn info(&self, id: &str) -> Option<AccountInfo> {
        self.state().accounts.get(id).map(Acct::info)
    }

    /// The live account named `name` (case and look-alikes ignored, as names are unique so).
    #[must_use]
    pub fn by_name(&self, name: &str) -> Option<AccountInfo> {
        let st = self.state();
        st.by_key
            .get(&name_key(name))
            .and_then(|id| st.accounts.get(id))
            .map(Acct::info)
    }

    /// Whether user `id` is a moderator.
    #[must_use]
    pub fn is_moderator(&self, id: &str) -> bool {
        self.state()
            .accounts
            .get(id)
            .is_some_and(|a| a.row.moderator && !a.row.closed)
    }

    /// The account of the built-in bot named `name` (`mcts:ms=300`...), created on first
    /// use: a bot account has no password (nobody logs in to it) and its name needs not
    /// follow the rule for people's names, but it takes its name's key like any account.
    ///
    /// # Errors
    /// The name is taken by a person's account (409), a storage failure.
    pub async fn bot_account(&self, name: &str) -> Result<User> {
        let key = name_key(name);
        {
            let st = self.state();
            if let Some(a) = st.by_key.get(&key).and_then(|id| st.accounts.get(id)) {
                return if a.row.bot {
                    Ok(a.user())
                } else {
                    Err(Error::Rejected(format!(
                        "the bot name {name:?} is taken by an account"
                    )))
                };
            }
        }
        let now = unix_ms();
        let row = AccountRow {
            id: random_hex(8),
            name: name.to_string(),
            name_key: key.clone(),
            password: String::new(),
            key: random_hex(24),
            created: now,
            seen: now,
            moderator: false,
            bot: true,
            closed: false,
            mark: None,
        };
        self.store
            .write(vec![Op::Account(AccountOp::Create {
                row: row.clone(),
                from_guest: false,
            })])
            .await?;
        let mut st = self.state();
        if let Some(a) = st.by_key.get(&key).and_then(|id| st.accounts.get(id)) {
            return Ok(a.user());
        }
        st.by_key.insert(key, row.id.clone());
        let id = row.id.clone();
        st.accounts.insert(
            id.clone(),
            Acct {
                row,
                stored_seen: now,
            },
        );
        Ok(st.accounts[&id].user())
    }

    fn id_by_name(&self, name: &str) -> Result<String> {
        self.by_name(name)
            .map(|a| a.id)
            .ok_or_else(|| Error::NotFound(format!("there is no account named {name:?}")))
    }

    /// Closes the account named `name` (a moderator's decision): it cannot log in, its
    /// sessions and API tokens end, its seat tokens change. Returns its id (the server
    /// then closes its connections: use [`crate::App::close_account`]).
    ///
    /// # Errors
    /// No such account (404), a storage failure.
    pub async fn close_account(&self, name: &str) -> Result<String> {
        let id = self.id_by_name(name)?;
        let key = random_hex(24);
        self.store
            .write(vec![
                Op::Account(AccountOp::Close(id.clone())),
                Op::Account(AccountOp::Key {
                    account: id.clone(),
                    key: key.clone(),
                }),
            ])
            .await?;
        let mut st = self.state();
        st.sessions.retain(|_, s| s.account != id);
        st.tokens.retain(|_, t| t.row.account != id);
        if let Some(a) = st.accounts.get_mut(&id) {
            a.row.closed = true;
            a.row.key = key;
        }
        drop(st);
        tracing::info!(user = %id, "account closed");
        Ok(id)
    }

    /// Sets a moderator's note on the account named `name` (replacing the last one).
    ///
    /// # Errors
    /// No such account (404), a note over 500 characters (400), a storage failure.
    pub async fn set_mark(&self, name: &str, note: &str) -> Result<()> {
        if note.chars().count() > 500 {
            return Err(Error::BadRequest(
                "a note has at most 500 characters".into(),
            ));
        }
        let id = self.id_by_name(name)?;
        self.store
            .write(vec![Op::Account(AccountOp::Mark {
                account: id.clone(),
                note: note.to_string(),
            })])
            .await?;
        if let Some(a) = self.state().accounts.get_mut(&id) {
            a.row.mark = Some(note.to_string());
        }
        Ok(())
    }

    /// Sets or clears the moderator flag of the account named `name`.
    ///
    /// # Errors
    /// No such account (404), a storage failure.
    pub async fn set_moderator(&self, name: &str, on: bool) -> Result<()> {
        let id = self.id_by_name(name)?;
        self.store
            .write(vec![Op::Account(AccountOp::Moderator {
                account: id.clone(),
                on,
            })])
            .await?;
        if let Some(a) = self.state().accounts.get_mut(&id) {
            a.row.moderator = on;
        }
        Ok(())
    }

    /// Picks up what `salpakan admin` changed in the database since the last time.
    async fn pick_up_admin_changes(&self) {
        let seq = self.state().admin_seq;
        let (rows, last) = match self.store.admin_changes(seq).await {
            Ok(x) => x,
            Err(e) => {
                tracing::warn!(error = %e, "cannot read the changes of salpakan admin; will try again");
                return;
            }
        };
        let mut st = self.state();
        st.admin_seq = last;
        for row in rows {
            let id = row.id.clone();
            if row.closed {
                st.sessions.retain(|_, s| s.account != id);
                st.tokens.retain(|_, t| t.row.account != id);
                if st.accounts.get(&id).is_some_and(|a| !a.row.closed) {
                    st.closed_by_admin.push(id.clone());
                }
            }
            if let Some(a) = st.accounts.get_mut(&id) {
                a.row.moderator = row.moderator;
                a.row.closed = row.closed;
                a.row.mark = row.mark;
                a.row.key = row.key;
                tracing::info!(user = %id, "picked up a change made by salpakan admin");
            }
        }
    }

    /// Accounts `salpakan admin` closed since the last call (their connections are to be
    /// closed).
    pub fn take_closed_by_admin(&self) -> Vec<String> {
        std::mem::take(&mut self.state().closed_by_admin)
    }

    /// Forgets the rate limits of addresses and names gone quiet.
    pub fn sweep(&self) {
        self.login_by_ip.retain_recent();
        self.login_by_name.retain_recent();
        self.register_by_ip.retain_recent();
        self.login_by_ip.shrink_to_fit();
        self.login_by_name.shrink_to_fit();
        self.register_by_ip.shrink_to_fit();
    }

    /// Stores when accounts, sessions and tokens were last used (at most about once an
    /// hour each) and ends the sessions unused for [`SESSION_TTL_MS`].
    async fn store_seen(&self) -> Result<()> {
        let now = unix_ms();
        let (accounts, sessions, tokens, ended) = {
            let st = self.state();
            let due = |seen: u64, stored: u64| seen >= stored.saturating_add(SEEN_WRITE_MS);
            let accounts: Vec<(String, u64)> = st
                .accounts
                .values()
                .filter(|a| due(a.row.seen, a.stored_seen))
                .map(|a| (a.row.id.clone(), a.row.seen))
                .collect();
            let sessions: Vec<(String, u64)> = st
                .sessions
                .iter()
                .filter(|(_, s)| due(s.seen, s.stored_seen))
                .map(|(h, s)| (h.clone(), s.seen))
                .collect();
            let tokens: Vec<(String, u64)> = st
                .tokens
                .values()
                .filter_map(|t| {
                    let used = t.row.last_used?;
                    due(used, t.stored_used.unwrap_or(0)).then(|| (t.row.id.clone(), used))
                })
                .collect();
            let ended: Vec<(String, String)> = st
                .sessions
                .iter()
                .filter(|(_, s)| now.saturating_sub(s.seen) > SESSION_TTL_MS)
                .map(|(h, s)| (h.clone(), s.account.clone()))
                .collect();
            (accounts, sessions, tokens, ended)
        };
        if accounts.is_empty() && sessions.is_empty() && tokens.is_empty() && ended.is_empty() {
            return Ok(());
        }
        let mut ops: Vec<Op> = ended
            .iter()
            .map(|(h, a)| {
                Op::Account(AccountOp::EndSessions {
                    account: a.clone(),
                    only: Some(h.clone()),
                    except: None,
                })
            })
            .collect();
        ops.push(Op::Account(AccountOp::Seen {
            accounts: accounts.clone(),
            sessions: sessions.clone(),
            tokens: tokens.clone(),
        }));
        self.store.write(ops).await?;
        let mut st = self.state();
        for (h, _) in &ended {
            st.sessions.remove(h);
        }
        for (id, at) in accounts {
            if let Some(a) = st.accounts.get_mut(&id) {
                a.stored_seen = at;
            }
        }
        for (h, at) in sessions {
            if let Some(s) = st.sessions.get_mut(&h) {
                s.stored_seen = at;
            }
        }
        for t in st.tokens.values_mut() {
            if let Some((_, at)) = tokens.iter().find(|(id, _)| *id == t.row.id) {
                t.stored_used = Some(*at);
            }
        }
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
