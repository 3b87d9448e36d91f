//! Login sessions: the `salpakan_session` cookie, finding a session's user, renewing and
//! ending sessions.

use super::*;

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

impl Accounts {
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
    pub(super) async fn end_sessions(&self, account: &str) -> Result<()> {
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
    pub(super) fn phc(&self, account: &str) -> Option<String> {
        self.state()
            .accounts
            .get(account)
            .map(|a| a.row.password.clone())
    }
}
