//! The setup screen: moving pieces, filling, saving and loading setups, and starting the game.

use std::path::PathBuf;

use ratatui::crossterm::event::{KeyCode, KeyEvent};
use salpakan_engine::wire;
use serde_json::Value;

use super::{App, Input, Screen, mix};
use crate::TuiError;
use crate::setup::{parse_setup_text, saved_setups, setup_path, setups_dir};

impl App {
    pub(super) fn setup_key(&mut self, k: KeyEvent) {
        let flipped = self.flipped();
        let Screen::Setup(s) = &mut self.screen else {
            return;
        };
        if Self::cursor_step(&self.pres, &mut s.cursor, k.code, flipped) {
            return;
        }
        match k.code {
            KeyCode::Tab | KeyCode::Char('+' | ']' | 'n') => s.cycle_pick(true),
            KeyCode::BackTab | KeyCode::Char('-' | '[' | 'p') => s.cycle_pick(false),
            KeyCode::Enter | KeyCode::Char(' ') => {
                let msg = s.act(&self.pres);
                self.say(msg);
            }
            KeyCode::Delete | KeyCode::Backspace | KeyCode::Char('x') => {
                let msg = s.remove(&self.pres);
                self.say(msg);
            }
            KeyCode::Esc => {
                s.held = None;
                self.message = None;
            }
            KeyCode::Char('c') => {
                s.clear();
                self.say("board cleared");
            }
            KeyCode::Char('r') => self.fill_setup(false),
            KeyCode::Char('b') => self.fill_setup(true),
            KeyCode::Char('s') => {
                self.input = Input::SaveSetup(String::new());
                self.say(
                    "save as (a name, or a path ending in .setup); Enter to save, Esc to cancel",
                );
            }
            KeyCode::Char('l') => {
                let dir = self.setups_dir();
                let names = saved_setups(&dir);
                self.input = Input::LoadSetup(String::new());
                if names.is_empty() {
                    self.say(format!(
                        "load: no saved setups in {}; type a path",
                        dir.display()
                    ));
                } else {
                    self.say(format!("load: {}", names.join(", ")));
                }
            }
            KeyCode::Char('g') => {
                if let Err(e) = self.begin_from_setup() {
                    self.warn(e.to_string());
                }
            }
            KeyCode::Char('?') => self.input = Input::Help,
            KeyCode::Char('q') | KeyCode::Char('Q') => self.leave(),
            _ => {}
        }
    }

    fn setups_dir(&self) -> PathBuf {
        setups_dir(
            &self.pres,
            self.cfg.as_ref().and_then(|c| c.setups_base.as_deref()),
        )
    }

    fn fill_setup(&mut self, by_bot: bool) {
        let Some(cfg) = &self.cfg else { return };
        self.games_played += 1;
        let seed = mix(cfg.seed, 1000 + self.games_played);
        let made = if by_bot {
            self.bot
                .as_ref()
                .expect("a bot")
                .choose_setup(&self.pres.spec, cfg.seat, seed)
        } else {
            self.pres
                .spec
                .random_setup(cfg.seat, seed)
                .map_err(|e| e.to_string())
        };
        let Screen::Setup(s) = &mut self.screen else {
            return;
        };
        match made
            .map_err(TuiError::Setup)
            .and_then(|v| s.set_from_json(&self.pres, &wire::setup_json(&v)))
        {
            Ok(()) => self.say(if by_bot {
                "the bot's setup for you: change it or press g to start"
            } else {
                "a random setup: change it or press g to start"
            }),
            Err(e) => self.warn(e.to_string()),
        }
    }

    pub(super) fn save_setup(&mut self, name: &str) {
        let Screen::Setup(s) = &self.screen else {
            return;
        };
        let result = (|| -> Result<PathBuf, TuiError> {
            s.validate(&self.pres)?;
            let path = setup_path(&self.setups_dir(), name)?;
            if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                std::fs::create_dir_all(dir).map_err(|e| TuiError::Io {
                    path: dir.to_path_buf(),
                    error: e.to_string(),
                })?;
            }
            std::fs::write(&path, format!("{}\n", s.to_text(&self.pres))).map_err(|e| {
                TuiError::Io {
                    path: path.clone(),
                    error: e.to_string(),
                }
            })?;
            Ok(path)
        })();
        match result {
            Ok(p) => self.say(format!("setup saved to {}", p.display())),
            Err(e) => self.warn(format!("not saved: {e}")),
        }
    }

    pub(super) fn load_setup(&mut self, name: &str) {
        let result = (|| -> Result<(PathBuf, Value), TuiError> {
            let path = setup_path(&self.setups_dir(), name)?;
            let text = std::fs::read_to_string(&path).map_err(|e| TuiError::Io {
                path: path.clone(),
                error: e.to_string(),
            })?;
            Ok((path, parse_setup_text(&text)?))
        })();
        let Screen::Setup(s) = &mut self.screen else {
            return;
        };
        match result.and_then(|(p, v)| s.set_from_json(&self.pres, &v).map(|()| p)) {
            Ok(p) => match s.validate(&self.pres) {
                Ok(_) => self.say(format!("loaded {}", p.display())),
                Err(e) => self.warn(format!("loaded {}, but: {e}", p.display())),
            },
            Err(e) => self.warn(format!("not loaded: {e}")),
        }
    }

    fn begin_from_setup(&mut self) -> Result<(), TuiError> {
        let Screen::Setup(s) = &self.screen else {
            return Ok(());
        };
        if s.left() > 0 {
            return Err(TuiError::Setup(format!(
                "{} piece(s) still to place (or press r for a random setup)",
                s.left()
            )));
        }
        let setup = s.validate(&self.pres)?;
        self.last_setup = Some(s.to_json(&self.pres));
        self.start_game(Some(setup))
    }
}
