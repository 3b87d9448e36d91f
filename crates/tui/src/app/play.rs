//! The play screen: keys, moves, the bot's turn, draw offers and resigning.

use std::sync::mpsc::{TryRecvError, channel};
use std::time::Instant;

use ratatui::crossterm::event::{KeyCode, KeyEvent};
use salpakan_engine::{AnyMove, EndReason, GameKind, Outcome, Seat, SeatSetup, Viewer};
use serde_json::Value;

use super::{App, Input, Job, PlayState, Screen, mix};
use crate::TuiError;
use crate::presenter::{Pos, capitalize, move_squares};

impl App {
    /// Starts the game with the player's setup (`None` for Banqi, or to draw one at random).
    ///
    /// # Errors
    /// A setup or options the engine refuses.
    pub fn start_game(&mut self, my_setup: Option<SeatSetup>) -> Result<(), TuiError> {
        let cfg = self.cfg.as_ref().expect("a game");
        let bot = self.bot.as_ref().expect("a bot");
        let seed = mix(cfg.seed, self.games_played);
        let mut setups: [Option<SeatSetup>; 2] = [None, None];
        let kind = self.pres.kind;
        if kind.has_setups() {
            let mine = match my_setup {
                Some(v) => v,
                None => self
                    .pres
                    .spec
                    .random_setup(cfg.seat, mix(seed, 1))
                    .map_err(|e| TuiError::Setup(e.to_string()))?,
            };
            let theirs = bot
                .choose_setup(&self.pres.spec, cfg.seat.other(), mix(seed, 2))
                .map_err(TuiError::Setup)?;
            setups[cfg.seat.index()] = Some(mine);
            setups[cfg.seat.other().index()] = Some(theirs);
        }
        let [first, second] = &setups;
        let mut m = self
            .pres
            .spec
            .new_match([first.as_ref(), second.as_ref()], seed)
            .map_err(|e| TuiError::Setup(e.to_string()))?;
        m.set_record_tag("Event", "salpakan play".into());
        m.set_record_tag("Date", crate::time::date_tag());
        m.set_record_tag(&capitalize(kind.seat_name(cfg.seat)), "You".into());
        m.set_record_tag(
            &capitalize(kind.seat_name(cfg.seat.other())),
            format!("bot: {}", bot.name()),
        );
        let cursor = match cfg.seat {
            Seat::First => (self.pres.files / 2, 0),
            Seat::Second => (self.pres.files / 2, self.pres.ranks - 1),
        };
        let cursor = if kind == GameKind::Banqi {
            (0, 0)
        } else {
            cursor
        };
        self.screen = Screen::Play(Box::new(PlayState {
            m,
            cursor,
            selected: None,
            job: None,
            log_scroll: 0,
            saved: None,
            draw_declined_at: None,
        }));
        self.input = Input::Normal;
        self.say("The game begins. Arrows and Enter to move, or : to type a move; ? for help");
        self.after_ply();
        Ok(())
    }

    // ---------------------------------------------------------------------------------
    // Play

    /// The play state, if playing.
    #[must_use]
    pub fn play_state(&self) -> Option<&PlayState> {
        match &self.screen {
            Screen::Play(p) => Some(p),
            _ => None,
        }
    }

    pub(super) fn play_key(&mut self, k: KeyEvent) {
        let flipped = self.flipped();
        let Screen::Play(p) = &mut self.screen else {
            return;
        };
        if Self::cursor_step(&self.pres, &mut p.cursor, k.code, flipped) {
            return;
        }
        let over = p.m.outcome().is_some();
        match k.code {
            KeyCode::Enter | KeyCode::Char(' ') if !over => self.act(),
            KeyCode::Esc => {
                p.selected = None;
                self.message = None;
            }
            KeyCode::Char(':' | '/' | 'm') if !over => {
                self.input = Input::Command(String::new());
                self.say(
                    "type a move (e3-e4, or a square to flip in Banqi), or resign, draw, help",
                );
            }
            KeyCode::PageUp => p.log_scroll = p.log_scroll.saturating_add(5),
            KeyCode::PageDown => p.log_scroll = p.log_scroll.saturating_sub(5),
            KeyCode::Char('d') if !over => self.offer_draw(),
            KeyCode::Char('R') if !over => {
                self.input = Input::ConfirmResign;
                self.say("Resign this game? y to resign, any other key to play on");
            }
            KeyCode::Char('?') => self.input = Input::Help,
            KeyCode::Char('n') if over => {
                if let Err(e) = self.new_game() {
                    self.warn(e.to_string());
                }
            }
            KeyCode::Char('q' | 'Q') => {
                if over {
                    self.quit = true;
                } else {
                    self.input = Input::ConfirmQuit;
                    self.say("Quit? The unfinished game is saved as a record. y to quit, any other key to stay");
                }
            }
            _ => {}
        }
    }

    /// Legal moves of the player now (empty when it is not their turn).
    #[must_use]
    pub fn my_legal_moves(&self) -> Vec<String> {
        match (&self.screen, self.me()) {
            (Screen::Play(p), Some(me)) if p.m.to_move() == Some(me) && p.job.is_none() => {
                p.m.legal_moves().iter().map(ToString::to_string).collect()
            }
            _ => Vec::new(),
        }
    }

    /// The squares the selected piece may go to.
    #[must_use]
    pub fn targets(&self) -> Vec<Pos> {
        let Screen::Play(p) = &self.screen else {
            return Vec::new();
        };
        let Some(sel) = p.selected else {
            return Vec::new();
        };
        self.my_legal_moves()
            .iter()
            .filter(|m| m.contains('-'))
            .filter_map(|m| move_squares(&self.pres, m))
            .filter(|(f, _)| *f == sel)
            .map(|(_, t)| t)
            .collect()
    }

    /// Enter on the cursor square: select a piece, move the selected piece there, or flip.
    pub(super) fn act(&mut self) {
        let legal = self.my_legal_moves();
        let Some(me) = self.me() else { return };
        let Screen::Play(p) = &mut self.screen else {
            return;
        };
        if p.m.outcome().is_some() {
            return;
        }
        if p.job.is_some() {
            self.say("the bot is thinking…");
            return;
        }
        if legal.is_empty() {
            self.warn("it is not your turn");
            return;
        }
        let at = p.cursor;
        let name = self.pres.square_name(at);
        if let Some(sel) = p.selected {
            if sel == at {
                p.selected = None;
                self.say("deselected");
                return;
            }
            let mv = format!("{}-{name}", self.pres.square_name(sel));
            if legal.contains(&mv) {
                self.play_move(&mv);
                return;
            }
        }
        let from_here = legal
            .iter()
            .filter_map(|m| move_squares(&self.pres, m).filter(|_| m.contains('-')))
            .any(|(f, _)| f == at);
        if from_here {
            p.selected = Some(at);
            self.say(format!(
                "{} selected: choose where it goes (highlighted), Esc to cancel",
                name
            ));
            return;
        }
        if legal.contains(&name) {
            self.play_move(&name);
            return;
        }
        let obs = p.m.observe_json(Viewer::Player(me));
        let what = self.pres.describe(&obs, at, Some(me));
        if p.selected.is_some() {
            self.warn(format!("the selected piece cannot go to {name} ({what})"));
        } else {
            self.warn(format!("no move from {what}"));
        }
    }

    pub(super) fn command(&mut self, text: &str) {
        let t = text.trim();
        match t.to_ascii_lowercase().as_str() {
            "" => {}
            "resign" => {
                self.input = Input::ConfirmResign;
                self.say("Resign this game? y to resign, any other key to play on");
            }
            "draw" => self.offer_draw(),
            "help" | "?" => self.input = Input::Help,
            "quit" | "q" => {
                self.input = Input::ConfirmQuit;
                self.say("Quit? y to quit, any other key to stay");
            }
            _ => {
                if self.my_legal_moves().is_empty() {
                    self.warn("it is not your turn");
                } else {
                    self.play_move(&t.to_ascii_lowercase());
                }
            }
        }
    }

    fn play_move(&mut self, mv: &str) {
        let Screen::Play(p) = &mut self.screen else {
            return;
        };
        match p.m.parse_move(mv).and_then(|mv| p.m.play(mv)) {
            Ok(()) => {
                p.selected = None;
                p.log_scroll = 0;
                self.message = None;
                self.after_ply();
            }
            Err(e) => self.warn(e.to_string()),
        }
    }

    /// After a ply: the end, or the bot's turn, or the player's.
    fn after_ply(&mut self) {
        let Some(me) = self.me() else { return };
        let Screen::Play(p) = &mut self.screen else {
            return;
        };
        if p.m.outcome().is_some() {
            self.finish();
            return;
        }
        if p.m.to_move() == Some(me.other()) {
            let bot = self.bot.clone().expect("a bot");
            let m = p.m.clone();
            let seed = mix(
                self.cfg.as_ref().expect("a game").seed,
                7_000 + u64::from(m.ply()),
            );
            let (tx, rx) = channel();
            std::thread::spawn(move || {
                let _ = tx.send(bot.choose_move(&m, me.other(), seed));
            });
            p.job = Some((Job::Move(rx), Instant::now()));
        } else if let Some(last) = p.m.history_json(Viewer::Player(me)).last() {
            if last.get("chain_continues").and_then(Value::as_bool) == Some(true) {
                self.say("you may capture again with the same piece, or type :end to stop");
            }
        }
    }

    /// Takes the bot's answer if it is ready. Returns whether anything changed.
    pub fn tick(&mut self) -> bool {
        let Screen::Play(p) = &mut self.screen else {
            return false;
        };
        let Some((job, _)) = &p.job else {
            return false;
        };
        match job {
            Job::Move(rx) => match rx.try_recv() {
                Ok(r) => {
                    p.job = None;
                    self.bot_moved(r);
                    true
                }
                Err(TryRecvError::Empty) => false,
                Err(TryRecvError::Disconnected) => {
                    p.job = None;
                    self.bot_moved(Err("the bot stopped without a move".into()));
                    true
                }
            },
            Job::Draw(rx) => match rx.try_recv() {
                Ok(yes) => {
                    p.job = None;
                    self.draw_answer(yes);
                    true
                }
                Err(TryRecvError::Empty) => false,
                Err(TryRecvError::Disconnected) => {
                    p.job = None;
                    self.draw_answer(false);
                    true
                }
            },
        }
    }

    /// Waits for the bot to answer (tests and scripted play).
    pub fn wait_for_bot(&mut self) {
        while self.thinking() {
            if !self.tick() {
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
        }
    }

    fn bot_moved(&mut self, r: Result<AnyMove, String>) {
        let Screen::Play(p) = &mut self.screen else {
            return;
        };
        let played = match r {
            Ok(mv) => p.m.play(mv).map_err(|e| e.to_string()),
            Err(e) => Err(e),
        };
        if let Err(e) = played {
            // A bot that fails must not hang the game: it plays a legal move instead.
            let legal = p.m.legal_moves();
            match legal.first() {
                Some(&mv) => {
                    let _ = p.m.play(mv);
                    self.warn(format!("the bot failed ({e}); it played {mv}"));
                }
                None => {
                    self.warn(format!("the bot failed: {e}"));
                    return;
                }
            }
        }
        self.after_ply();
    }

    fn offer_draw(&mut self) {
        let Some(me) = self.me() else { return };
        let Screen::Play(p) = &mut self.screen else {
            return;
        };
        if p.m.outcome().is_some() {
            return;
        }
        if p.job.is_some() {
            self.say("wait for the bot's move, then offer a draw");
            return;
        }
        if p.draw_declined_at == Some(p.m.ply()) {
            self.warn("the bot has just declined; play a move before offering again");
            return;
        }
        let bot = self.bot.clone().expect("a bot");
        let m = p.m.clone();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let _ = tx.send(bot.accepts_draw(&m, me.other()));
        });
        p.job = Some((Job::Draw(rx), Instant::now()));
        self.say("you offer a draw…");
    }

    fn draw_answer(&mut self, yes: bool) {
        let Screen::Play(p) = &mut self.screen else {
            return;
        };
        if yes {
            let _ = p.m.conclude(Outcome::draw(EndReason::Agreement));
            self.finish();
        } else {
            p.draw_declined_at = Some(p.m.ply());
            self.say("the bot declines the draw; play on");
        }
    }

    pub(super) fn resign(&mut self) {
        let Some(me) = self.me() else { return };
        let Screen::Play(p) = &mut self.screen else {
            return;
        };
        if p.m.outcome().is_some() {
            return;
        }
        // A move the bot is thinking about is dropped.
        p.job = None;
        let _ =
            p.m.conclude(Outcome::win(me.other(), EndReason::Resignation));
        self.finish();
    }
}
