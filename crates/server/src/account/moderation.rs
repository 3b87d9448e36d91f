//! Looking accounts up, bot accounts, and what moderators and `salpakan admin` change:
//! closing, marking, the moderator flag, and the housekeeping that applies admin changes.

use super::*;

impl Accounts {
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
    pub(super) async fn pick_up_admin_changes(&self) {
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
    pub(super) async fn store_seen(&self) -> Result<()> {
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
