//! Users of a running server: seat tokens, signing out, deleting and closing accounts, and
//! per-user notifications and presence.

use super::*;

impl App {
    /// The token that lets its holder play `seat` of game `game`. Derived from the server's
    /// secret and the seat's player's key, so that it is never stored and dies with the
    /// player's guest token (signing out, expiry).
    #[must_use]
    pub fn seat_token(&self, game: &str, seat: Seat) -> String {
        self.seat_key(game, seat).map_or_else(
            || random_hex(24),
            |k| self.derive_seat_token(game, seat, &k),
        )
    }

    /// The key a seat's token derives from: its player's key, or none when its player has
    /// signed out or expired (bot seats have the empty key: their tokens are never given).
    fn seat_key(&self, game: &str, seat: Seat) -> Option<String> {
        let user = self
            .game_users
            .lock()
            .expect("lock")
            .get(game)
            .and_then(|u| u[seat.index()].clone());
        match user {
            Some(u) => self.identity.key(&u),
            None => Some(String::new()),
        }
    }

    fn derive_seat_token(&self, game: &str, seat: Seat, key: &str) -> String {
        let mut h = Sha256::new();
        h.update(b"salpakan seat token\0");
        h.update(&self.secret);
        h.update(game.as_bytes());
        h.update([0, seat.index() as u8]);
        h.update(key.as_bytes());
        hex(&h.finalize()[..24])
    }

    /// The seat a seat token is for, in game `game`.
    #[must_use]
    pub fn check_seat_token(&self, game: &str, token: &str) -> Option<Seat> {
        Seat::BOTH.into_iter().find(|&s| {
            self.seat_key(game, s)
                .is_some_and(|k| same_secret(&self.derive_seat_token(game, s, &k), token))
        })
    }

    /// Signs `user` out everywhere: their guest token and seat tokens stop working and
    /// their connections that said `hello` are closed.
    ///
    /// # Errors
    /// A storage failure (nothing changed).
    pub async fn sign_out(&self, user: &str) -> Result<()> {
        self.identity.sign_out(user).await?;
        self.close_connections(user);
        Ok(())
    }

    /// Deletes account `user`: its games in progress are resigned, its sessions and tokens
    /// end, its connections close, its name is free again, and every game it played shows
    /// it as "deleted player" (stored games, running ones, the lists of games).
    ///
    /// # Errors
    /// A storage failure (the account stays; games already resigned stay resigned).
    pub async fn delete_account(&self, user: &str) -> Result<()> {
        let games = self.games_of(user);
        for (game, seat) in &games {
            let tx = self.games.lock().expect("lock").get(game).cloned();
            if let Some(tx) = tx {
                let (rtx, rrx) = oneshot::channel();
                let act = Cmd::Act {
                    seat: *seat,
                    act: crate::game::Act::Resign,
                    reply: Some(crate::game::Reply::Wait(rtx)),
                };
                // A finished game refuses: nothing to do there.
                if tx.send(act).await.is_ok() {
                    let _ = rrx.await;
                }
            }
        }
        self.accounts.delete(user).await?;
        let name = crate::account::DELETED_NAME;
        for (game, seat) in &games {
            let tx = self.games.lock().expect("lock").get(game).cloned();
            if let Some(tx) = tx {
                let _ = tx
                    .send(Cmd::Rename {
                        user: user.to_string(),
                        name: name.to_string(),
                    })
                    .await;
            }
            let rename = |summary: &mut Value| {
                let Ok(kind) = summary["kind"].as_str().unwrap_or("").parse::<GameKind>() else {
                    return;
                };
                let p = &mut summary["players"][kind.seat_name(*seat)];
                if p.is_object() {
                    p["name"] = name.into();
                }
            };
            if let Some(s) = self.live.lock().expect("lock").get_mut(game) {
                rename(s);
            }
            for s in self.ended.lock().expect("lock").iter_mut() {
                if s["game"] == game.as_str() {
                    rename(s);
                }
            }
        }
        self.close_connections(user);
        Ok(())
    }

    /// Closes the account named `name` (a moderator's decision): it cannot log in, its
    /// sessions and API tokens end, its seat tokens change and its connections close. Its
    /// games in progress go on without it (they end as abandoned or on time).
    ///
    /// # Errors
    /// No such account (404), a storage failure.
    pub async fn close_account(&self, name: &str) -> Result<()> {
        let id = self.accounts.close_account(name).await?;
        self.close_connections(&id);
        Ok(())
    }

    /// Sets a moderator's note on the account named `name`.
    ///
    /// # Errors
    /// No such account (404), a note over 500 characters (400), a storage failure.
    pub async fn set_mark(&self, name: &str, note: &str) -> Result<()> {
        self.accounts.set_mark(name, note).await
    }

    /// Closes `user`'s connections that said `hello` (signed out, closed or deleted).
    pub(super) fn close_connections(&self, user: &str) {
        if let Some(outs) = self.users.lock().expect("lock").remove(user) {
            for o in outs {
                o.close_signed_out();
            }
        }
    }

    /// The games `user` sits in, with their seats.
    #[must_use]
    pub fn games_of(&self, user: &str) -> Vec<(String, Seat)> {
        self.user_games
            .lock()
            .expect("lock")
            .get(user)
            .cloned()
            .unwrap_or_default()
    }

    /// Registers a connection for `user`'s notifications.
    pub fn subscribe_user(&self, user: &str, out: Outbox) {
        self.users
            .lock()
            .expect("lock")
            .entry(user.to_string())
            .or_default()
            .push(out);
    }

    /// Unregisters a connection from `user`'s notifications.
    pub fn unsubscribe_user(&self, user: &str, out: &Outbox) {
        let mut users = self.users.lock().expect("lock");
        if let Some(outs) = users.get_mut(user) {
            outs.retain(|o| !o.same(out));
            if outs.is_empty() {
                users.remove(user);
            }
        }
    }

    pub(super) fn notify_user(&self, user: &str, f: Frame) {
        let mut users = self.users.lock().expect("lock");
        if let Some(outs) = users.get_mut(user) {
            outs.retain(|o| o.send(f.clone()));
            if outs.is_empty() {
                users.remove(user);
            }
        }
    }

    /// `user` was seen now (a request, a connection opened or closed).
    pub fn seen(&self, user: &str) {
        let now = self.now();
        self.identity.touch(user, now);
        let mut s = self.seen.lock().expect("lock");
        if let Some(t) = s.get_mut(user) {
            *t = now;
        } else {
            s.insert(user.to_string(), now);
        }
    }

    /// Whether `user` has a connection open (said `hello`).
    pub(super) fn online(&self, user: &str) -> bool {
        self.users
            .lock()
            .expect("lock")
            .get(user)
            .is_some_and(|outs| outs.iter().any(|o| !o.tx.is_closed()))
    }
}
