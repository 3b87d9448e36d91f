//! The end of a game, its record on disk, leaving, and stepping through a record.

use std::path::PathBuf;

use ratatui::crossterm::event::{KeyCode, KeyEvent};
use salpakan_engine::{
    AnyMatch, Copy, EndReason, GameKind, GameSpec, Record, Seat, Viewer, replay_record,
};
use serde_json::Value;

use super::{App, Input, ReplayState, Screen};
use crate::TuiError;
use crate::presenter::Presenter;

impl App {
    /// The game is over: write the record and show the end screen.
    pub(super) fn finish(&mut self) {
        let path = self.record_path();
        let Screen::Play(p) = &mut self.screen else {
            return;
        };
        p.selected = None;
        p.job = None;
        if p.saved.is_none() {
            let r = write_record(&p.m, &path);
            self.records.push(r.clone());
            p.saved = Some(r);
        }
        let o = p.m.outcome();
        let me = self.me();
        let text = match (o, me) {
            (Some(o), Some(me)) => match o.winner {
                Some(w) if w == me => format!("You win ({})", reason_text(o.reason)),
                Some(_) => format!("The bot wins ({})", reason_text(o.reason)),
                None => format!("Draw ({})", reason_text(o.reason)),
            },
            _ => "Game over".into(),
        };
        self.say(format!("{text}. n new game, q quit"));
    }

    fn record_path(&self) -> PathBuf {
        let cfg = self.cfg.as_ref().expect("a game");
        if let Some(p) = &cfg.save {
            if self.games_played_in_session() == 0 {
                return p.clone();
            }
            let stem = p
                .file_stem()
                .map_or_else(|| "game".into(), |s| s.to_string_lossy().into_owned());
            let ext = p
                .extension()
                .map_or_else(|| "rec".into(), |s| s.to_string_lossy().into_owned());
            return p.with_file_name(format!(
                "{stem}-{}.{ext}",
                self.games_played_in_session() + 1
            ));
        }
        cfg.out_dir.join(format!(
            "salpakan-{}-{}.rec",
            cfg.spec.kind().name(),
            crate::time::file_stamp()
        ))
    }

    fn games_played_in_session(&self) -> u64 {
        self.finished_games
    }

    pub(super) fn new_game(&mut self) -> Result<(), TuiError> {
        self.finished_games += 1;
        self.games_played += 1;
        self.enter_first_screen()
    }

    /// Leaves: an unfinished game is saved first.
    pub(super) fn leave(&mut self) {
        if self.me().is_some() {
            let path = self.record_path();
            if let Screen::Play(p) = &mut self.screen {
                if p.m.outcome().is_none() && p.m.ply() > 0 && p.saved.is_none() {
                    let r = write_record(&p.m, &path);
                    self.records.push(r.clone());
                    p.saved = Some(r);
                }
            }
        }
        self.quit = true;
    }

    /// Where the record was saved, if it was.
    #[must_use]
    pub fn saved_record(&self) -> Option<&Result<PathBuf, String>> {
        self.play_state().and_then(|p| p.saved.as_ref())
    }

    // ---------------------------------------------------------------------------------
    // Replay

    pub(super) fn replay_key(&mut self, k: KeyEvent) {
        let Screen::Replay(r) = &mut self.screen else {
            return;
        };
        let n = r.record.plies.len();
        let to = match k.code {
            KeyCode::Right
            | KeyCode::Char('l' | ' ' | 'n')
            | KeyCode::Down
            | KeyCode::Char('j') => (r.pos + 1).min(n),
            KeyCode::Left | KeyCode::Char('h' | 'p') | KeyCode::Up | KeyCode::Char('k') => {
                r.pos.saturating_sub(1)
            }
            KeyCode::PageDown => (r.pos + 10).min(n),
            KeyCode::PageUp => r.pos.saturating_sub(10),
            KeyCode::Home | KeyCode::Char('g') => 0,
            KeyCode::End | KeyCode::Char('G') => n,
            KeyCode::Char('?') => {
                self.input = Input::Help;
                return;
            }
            KeyCode::Char('q' | 'Q') | KeyCode::Esc => {
                self.quit = true;
                return;
            }
            _ => return,
        };
        if let Err(e) = r.goto(to) {
            self.warn(e.to_string());
        }
    }
}

/// Writes the full record of `m` to `path`.
fn write_record(m: &AnyMatch, path: &std::path::Path) -> Result<PathBuf, String> {
    let text = m.record(Copy::Full).to_text();
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(path.to_path_buf())
}

/// A reason for the end, in words.
#[must_use]
pub fn reason_text(r: EndReason) -> &'static str {
    match r {
        EndReason::FlagCaptured => "the flag was captured",
        EndReason::FlagReachedBackRank => "the flag reached the far rank",
        EndReason::NoLegalMoves => "no legal moves left",
        EndReason::NeitherCanMove => "neither side can move",
        EndReason::NoPiecesLeft => "no pieces left",
        EndReason::QuietPlies => "too many plies without a capture",
        EndReason::Repetition => "repetition",
        EndReason::Resignation => "resignation",
        EndReason::Agreement => "agreed draw",
        EndReason::Time => "time",
        EndReason::Abandonment => "abandonment",
        EndReason::Forfeit => "forfeit",
    }
}

impl ReplayState {
    /// Reads a record for stepping through.
    ///
    /// # Errors
    /// A record that does not parse, or a full record that does not replay.
    pub fn new(path: PathBuf, text: &str) -> Result<ReplayState, TuiError> {
        let bad = |e: String| TuiError::Record {
            path: path.clone(),
            error: e,
        };
        let record = Record::parse(text).map_err(|e| bad(e.to_string()))?;
        let kind: GameKind = record
            .require("Game")
            .map_err(|e| bad(e.to_string()))?
            .parse()
            .map_err(bad)?;
        let spec = GameSpec::from_text(kind, record.tag("Options").unwrap_or(""))
            .map_err(|e| bad(format!("tag [Options]: {e}")))?;
        let pres = Presenter::new(&spec);
        let copy = record.tag("Copy").unwrap_or("full");
        let (full, seat) = if copy == "full" {
            let m = replay_record(&record).map_err(|e| bad(e.to_string()))?;
            (Some(m), None)
        } else {
            let seat = kind
                .parse_seat(copy)
                .ok_or_else(|| bad(format!("unknown copy {copy:?}")))?;
            (None, Some(seat))
        };
        let lines = match &full {
            Some(m) => m
                .history_json(Viewer::Arbiter)
                .iter()
                .map(|v| pres.describe_ply(v, None))
                .collect(),
            None => record
                .plies
                .iter()
                .enumerate()
                .map(|(i, t)| format!("{:>3}. {t}", i + 1))
                .collect(),
        };
        let mut rs = ReplayState {
            path: path.clone(),
            record,
            pres,
            full,
            seat,
            pos: 0,
            lines,
            observation: Value::Null,
        };
        rs.goto(0).map_err(|e| bad(e.to_string()))?;
        Ok(rs)
    }

    /// Shows the position after `pos` plies.
    ///
    /// # Errors
    /// A record that does not replay that far.
    pub fn goto(&mut self, pos: usize) -> Result<(), TuiError> {
        let pos = pos.min(self.record.plies.len());
        self.pos = pos;
        if let Some(seat) = self.seat {
            let kind = self.pres.kind;
            let part = match (kind, seat) {
                (GameKind::Generals, Seat::First) => "WhiteSetup",
                (GameKind::Generals, Seat::Second) => "BlackSetup",
                (GameKind::Stratego, Seat::First) => "RedSetup",
                (GameKind::Stratego, Seat::Second) => "BlueSetup",
                (GameKind::Banqi, _) => "",
            };
            let mut board = serde_json::Map::new();
            for item in self.record.tag(part).unwrap_or("").split_whitespace() {
                if let Some((sq, code)) = item.split_once(':') {
                    board.insert(
                        sq.into(),
                        serde_json::json!({"owner": kind.seat_name(seat), "piece": code}),
                    );
                }
            }
            self.observation = serde_json::json!({ "board": board });
            return Ok(());
        }
        let m = if pos == self.record.plies.len() {
            self.full.as_ref().expect("full record").clone()
        } else {
            let mut r = self.record.clone();
            r.plies.truncate(pos);
            r.result = "*".into();
            r.tags
                .retain(|(k, _)| !matches!(k.as_str(), "Result" | "Reason" | "Plies"));
            replay_record(&r).map_err(|e| TuiError::Record {
                path: self.path.clone(),
                error: e.to_string(),
            })?
        };
        self.observation = m.observe_json(Viewer::Arbiter);
        Ok(())
    }
}
