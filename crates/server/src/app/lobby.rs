//! The lobby of a running server: open seeks and challenges, public games in progress and
//! recently ended, and the updates sent to lobby followers.

use super::*;

impl App {
    /// Lobby updates.
    #[must_use]
    pub fn lobby_updates(&self) -> broadcast::Receiver<Frame> {
        self.lobby_tx.subscribe()
    }

    /// The lobby now: open public seeks and public games in progress.
    #[must_use]
    pub fn lobby(&self) -> LobbyView {
        let seeks: Vec<Value> = self
            .seeks
            .lock()
            .expect("lock")
            .values()
            .filter(|s| s.public)
            .map(Seek::json)
            .collect();
        let games: Vec<Value> = self.live.lock().expect("lock").values().cloned().collect();
        LobbyView { seeks, games }
    }

    fn lobby_send(&self, msg: &ServerMsg<'_>) {
        let _ = self.lobby_tx.send(protocol::frame(msg, None));
    }

    /// A game's lobby entry changed: `Some` while it is public and in progress.
    pub fn lobby_game(&self, id: &str, summary: Option<Value>) {
        let mut live = self.live.lock().expect("lock");
        match summary {
            Some(s) => {
                let new = live.insert(id.to_string(), s.clone()).is_none();
                drop(live);
                if new {
                    self.lobby_send(&ServerMsg::GameAdded { game: &s });
                }
            }
            None => {
                if live.remove(id).is_some() {
                    drop(live);
                    self.lobby_send(&ServerMsg::GameRemoved { game: id });
                }
            }
        }
    }

    /// A public game has ended: it joins the list of recently finished games.
    pub fn game_ended(&self, summary: Value) {
        let mut e = self.ended.lock().expect("lock");
        e.retain(|g| g["game"] != summary["game"]);
        e.push_front(summary);
        e.truncate(RECENT_ENDED);
    }

    /// Recently finished public games, newest first (public facts only).
    #[must_use]
    pub fn recent_ended(&self) -> Vec<Value> {
        self.ended.lock().expect("lock").iter().cloned().collect()
    }

    /// Opens a seek (public) or a challenge (by link only).
    ///
    /// # Errors
    /// [`Error::Limit`] when its creator already has as many open as allowed.
    pub fn add_seek(&self, seek: Seek) -> Result<()> {
        let seeks = self.seeks.lock().expect("lock");
        let open = seeks.values().filter(|s| s.user.id == seek.user.id).count();
        if open >= self.config.max_open_seeks {
            drop(seeks);
            return Err(self.limited(format!(
                "you have {open} seeks and challenges open, the most one player may have; cancel one (DELETE /api/seeks/<id>) first"
            )));
        }
        self.seen(&seek.user.id);
        self.insert_seek(seeks, seek);
        Ok(())
    }

    /// Lists a seek in the (locked) open seeks, then tells the lobby when it is public.
    fn insert_seek(
        &self,
        mut seeks: std::sync::MutexGuard<'_, BTreeMap<String, Seek>>,
        seek: Seek,
    ) {
        let j = seek.public.then(|| seek.json());
        seeks.insert(seek.id.clone(), seek);
        drop(seeks);
        if let Some(j) = j {
            self.lobby_send(&ServerMsg::SeekAdded { seek: &j });
        }
    }

    /// A seek by id.
    #[must_use]
    pub fn seek(&self, id: &str) -> Option<Seek> {
        self.seeks.lock().expect("lock").get(id).cloned()
    }

    /// Removes a seek; it is returned when it was open.
    pub fn take_seek(&self, id: &str) -> Option<Seek> {
        let s = self.seeks.lock().expect("lock").remove(id)?;
        if s.public {
            self.lobby_send(&ServerMsg::SeekRemoved { seek: id });
        }
        Some(s)
    }

    /// Puts a seek back (its game could not be created).
    pub fn restore_seek(&self, seek: Seek) {
        self.insert_seek(self.seeks.lock().expect("lock"), seek);
    }
}
