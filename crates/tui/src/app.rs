//! The application: screens, their state, and what every key, click and bot answer does.
//! No terminal here: [`App::handle`] takes events and [`crate::ui::draw`] renders, so tests
//! drive it all with ratatui's test backend.

use std::path::PathBuf;
use std::sync::mpsc::{Receiver, TryRecvError, channel};
use std::time::Instant;

use ratatui::crossterm::event::{
    Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use ratatui::layout::Rect;
use salpakan_engine::{
    AnyMatch, AnyMove, Copy, EndReason, GameKind, GameSpec, Outcome, Record, Seat, SeatSetup,
    Viewer, replay_record, wire,
};
use serde_json::Value;

use crate::TuiError;
use crate::bot::Bot;
use crate::presenter::{Pos, Presenter, capitalize, move_squares};
use crate::setup::{SetupState, parse_setup_text, saved_setups, setup_path, setups_dir};

/// How a game is to be played.
#[derive(Clone, Debug)]
pub struct PlayConfig {
    /// Which game, with its validated options.
    pub spec: GameSpec,
    /// The bot's spec (`random`, `mcts`, ...).
    pub bot: String,
    /// The player's seat.
    pub seat: Seat,
    /// The seed for the bot's setup, the deal, the salts and the bot's moves.
    pub seed: u64,
    /// Where to write the record; by default `salpakan-<game>-<timestamp>.rec` in `out_dir`.
    pub save: Option<PathBuf>,
    /// The folder for records written by default.
    pub out_dir: PathBuf,
    /// The folder under which named setups are kept (default: the user's data folder).
    pub setups_base: Option<PathBuf>,
}

/// Which screen is showing.
#[derive(Debug)]
pub enum Screen {
    /// Placing pieces (Game of the Generals, Stratego).
    Setup(SetupState),
    /// Playing, and once over the end screen.
    Play(Box<PlayState>),
    /// Stepping through a record.
    Replay(Box<ReplayState>),
}

/// A line of input being typed, a question asked, or the help.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// Keys act directly.
    Normal,
    /// Typing a move or command after `:`.
    Command(String),
    /// Typing a setup name to save under.
    SaveSetup(String),
    /// Typing a setup name (or path) to load.
    LoadSetup(String),
    /// Asked: resign? (y/n)
    ConfirmResign,
    /// Asked: quit? (y/n)
    ConfirmQuit,
    /// The help is showing.
    Help,
}

/// Whether a status message is news or a problem.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tone {
    /// News.
    Info,
    /// Something refused or gone wrong.
    Error,
}

/// What the bot is working on.
#[derive(Debug)]
pub enum Job {
    /// Choosing its move.
    Move(Receiver<Result<AnyMove, String>>),
    /// Deciding on a draw offer.
    Draw(Receiver<bool>),
}

/// A game in progress or over.
#[derive(Debug)]
pub struct PlayState {
    /// The match: the arbiter's state stays inside; the screens show only the player's
    /// observation until the end.
    pub m: AnyMatch,
    /// The cursor.
    pub cursor: Pos,
    /// The piece picked to move.
    pub selected: Option<Pos>,
    /// The bot's work in progress, and since when.
    pub job: Option<(Job, Instant)>,
    /// How far the log is scrolled back (0: the latest plies).
    pub log_scroll: usize,
    /// Where the record was written at the end (or why it could not be).
    pub saved: Option<Result<PathBuf, String>>,
    /// Plies in the match when a draw was last declined (one offer per ply).
    pub draw_declined_at: Option<u32>,
}

/// A record being stepped through.
#[derive(Debug)]
pub struct ReplayState {
    /// The file it came from.
    pub path: PathBuf,
    /// The record.
    pub record: Record,
    /// The game's presenter.
    pub pres: Presenter,
    /// The full replay (full records only).
    pub full: Option<AnyMatch>,
    /// For a seat's copy: whose.
    pub seat: Option<Seat>,
    /// Plies shown as played (0: the start).
    pub pos: usize,
    /// One line per ply.
    pub lines: Vec<String>,
    /// The arbiter's observation after `pos` plies (or the seat's setup for a seat copy).
    pub observation: Value,
}

/// The whole application.
#[derive(Debug)]
pub struct App {
    /// How the game is played (none for a replay).
    pub cfg: Option<PlayConfig>,
    /// The game's presentation.
    pub pres: Presenter,
    /// The bot.
    pub bot: Option<Bot>,
    /// The screen.
    pub screen: Screen,
    /// What keys do now.
    pub input: Input,
    /// The status message.
    pub message: Option<(String, Tone)>,
    /// Set when the user has asked to leave.
    pub quit: bool,
    /// Where the board was last drawn (for mouse clicks): its top-left cell, the cell size,
    /// and whether it was drawn flipped.
    pub board_geom: Option<BoardGeom>,
    /// The setup last used, so that a new game starts from it.
    last_setup: Option<Value>,
    games_played: u64,
    finished_games: u64,
    /// Every record written this session (or why it could not be), in order.
    pub records: Vec<Result<PathBuf, String>>,
}

/// Where the board's cells were drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardGeom {
    /// The area of the cells (without labels).
    pub cells: Rect,
    /// Columns per cell.
    pub cell_w: u16,
    /// Rows per cell.
    pub cell_h: u16,
    /// Drawn with the last rank at the bottom.
    pub flipped: bool,
}

impl BoardGeom {
    /// The square under the screen position, if any.
    #[must_use]
    pub fn pos_at(&self, p: &Presenter, x: u16, y: u16) -> Option<Pos> {
        let c = self.cells;
        if x < c.x || y < c.y || x >= c.x + c.width || y >= c.y + c.height {
            return None;
        }
        let col = u8::try_from((x - c.x) / self.cell_w).ok()?;
        let row = u8::try_from((y - c.y) / self.cell_h.max(1)).ok()?;
        if col >= p.files || row >= p.ranks {
            return None;
        }
        Some(if self.flipped {
            (p.files - 1 - col, row)
        } else {
            (col, p.ranks - 1 - row)
        })
    }
}

/// A seed from the operating system (or the clock if that fails).
#[must_use]
pub fn fresh_seed() -> u64 {
    getrandom::u64().unwrap_or_else(|_| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64)
    })
}

fn mix(seed: u64, n: u64) -> u64 {
    let mut z = seed ^ n.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl App {
    /// A new game: the setup screen (Game of the Generals, Stratego) or straight to play
    /// (Banqi).
    ///
    /// # Errors
    /// Bad options or an unknown bot.
    pub fn new(cfg: PlayConfig) -> Result<App, TuiError> {
        let pres = Presenter::new(&cfg.spec);
        let bot = Bot::new(&cfg.bot)?;
        let mut app = App {
            screen: Screen::Setup(SetupState::new(&pres, cfg.seat)),
            cfg: Some(cfg),
            pres,
            bot: Some(bot),
            input: Input::Normal,
            message: None,
            quit: false,
            board_geom: None,
            last_setup: None,
            games_played: 0,
            finished_games: 0,
            records: Vec::new(),
        };
        app.enter_first_screen()?;
        Ok(app)
    }

    fn enter_first_screen(&mut self) -> Result<(), TuiError> {
        let cfg = self.cfg.as_ref().expect("a game");
        if self.pres.kind.has_setups() {
            let mut s = SetupState::new(&self.pres, cfg.seat);
            if let Some(v) = &self.last_setup {
                s.set_from_json(&self.pres, v)?;
            }
            self.screen = Screen::Setup(s);
            self.say(
                "Place your pieces with Enter, or r random, b the bot's setup; g starts the game",
            );
        } else {
            self.start_game(None)?;
        }
        Ok(())
    }

    /// A replay of the record in `text` read from `path`.
    ///
    /// # Errors
    /// A record that does not parse or (a full record) does not replay.
    pub fn replay(path: PathBuf, text: &str) -> Result<App, TuiError> {
        let rs = ReplayState::new(path, text)?;
        Ok(App {
            cfg: None,
            pres: rs.pres.clone(),
            bot: None,
            screen: Screen::Replay(Box::new(rs)),
            input: Input::Normal,
            message: Some((
                "← → step, Home/End jump to the start/end, q quit".into(),
                Tone::Info,
            )),
            quit: false,
            board_geom: None,
            last_setup: None,
            games_played: 0,
            finished_games: 0,
            records: Vec::new(),
        })
    }

    /// The player's seat (none for a replay).
    #[must_use]
    pub fn me(&self) -> Option<Seat> {
        self.cfg.as_ref().map(|c| c.seat)
    }

    fn say(&mut self, text: impl Into<String>) {
        self.message = Some((text.into(), Tone::Info));
    }

    fn warn(&mut self, text: impl Into<String>) {
        self.message = Some((text.into(), Tone::Error));
    }

    /// Whether the bot is thinking.
    #[must_use]
    pub fn thinking(&self) -> bool {
        matches!(&self.screen, Screen::Play(p) if p.job.is_some())
    }

    // ---------------------------------------------------------------------------------
    // Events

    /// Handles one terminal event. Keys that mean nothing here are ignored.
    pub fn handle(&mut self, ev: &Event) {
        match ev {
            Event::Key(k) if k.kind != KeyEventKind::Release => self.key(*k),
            Event::Mouse(m) => self.mouse(*m),
            _ => {}
        }
    }

    /// Handles one key press.
    pub fn key(&mut self, k: KeyEvent) {
        if k.modifiers.contains(KeyModifiers::CONTROL) && matches!(k.code, KeyCode::Char('c' | 'q'))
        {
            self.leave();
            return;
        }
        match self.input.clone() {
            Input::Help => {
                self.input = Input::Normal;
            }
            Input::ConfirmResign => {
                self.input = Input::Normal;
                if matches!(k.code, KeyCode::Char('y' | 'Y')) {
                    self.resign();
                } else {
                    self.say("you play on");
                }
            }
            Input::ConfirmQuit => {
                self.input = Input::Normal;
                if matches!(k.code, KeyCode::Char('y' | 'Y')) {
                    self.leave();
                } else {
                    self.say("you play on");
                }
            }
            Input::Command(t) | Input::SaveSetup(t) | Input::LoadSetup(t) => self.line_key(k, t),
            Input::Normal => match &self.screen {
                Screen::Setup(_) => self.setup_key(k),
                Screen::Play(_) => self.play_key(k),
                Screen::Replay(_) => self.replay_key(k),
            },
        }
    }

    fn line_key(&mut self, k: KeyEvent, mut text: String) {
        let finish = |app: &mut App, t: String| {
            let input = std::mem::replace(&mut app.input, Input::Normal);
            match input {
                Input::Command(_) => app.command(&t),
                Input::SaveSetup(_) => app.save_setup(&t),
                Input::LoadSetup(_) => app.load_setup(&t),
                _ => {}
            }
        };
        match k.code {
            KeyCode::Esc => {
                self.input = Input::Normal;
                self.message = None;
                return;
            }
            KeyCode::Enter => return finish(self, text),
            KeyCode::Backspace => {
                if text.pop().is_none() {
                    self.input = Input::Normal;
                    return;
                }
            }
            KeyCode::Char(c) if !c.is_control() && text.chars().count() < 200 => text.push(c),
            _ => return,
        }
        self.input = match &self.input {
            Input::Command(_) => Input::Command(text),
            Input::SaveSetup(_) => Input::SaveSetup(text),
            Input::LoadSetup(_) => Input::LoadSetup(text),
            other => other.clone(),
        };
    }

    fn mouse(&mut self, m: MouseEvent) {
        if self.input != Input::Normal || !matches!(m.kind, MouseEventKind::Down(MouseButton::Left))
        {
            return;
        }
        let Some(pos) = self
            .board_geom
            .and_then(|g| g.pos_at(&self.pres, m.column, m.row))
        else {
            return;
        };
        match &mut self.screen {
            Screen::Setup(s) => {
                s.cursor = pos;
                let msg = s.act(&self.pres);
                self.say(msg);
            }
            Screen::Play(p) => {
                p.cursor = pos;
                self.act();
            }
            Screen::Replay(_) => {}
        }
    }

    fn cursor_step(pres: &Presenter, cursor: &mut Pos, code: KeyCode, flipped: bool) -> bool {
        let (df, dr): (i16, i16) = match code {
            KeyCode::Left => (-1, 0),
            KeyCode::Right => (1, 0),
            KeyCode::Up => (0, 1),
            KeyCode::Down => (0, -1),
            _ => return false,
        };
        let (df, dr) = if flipped { (-df, -dr) } else { (df, dr) };
        let f = (i16::from(cursor.0) + df).clamp(0, i16::from(pres.files) - 1);
        let r = (i16::from(cursor.1) + dr).clamp(0, i16::from(pres.ranks) - 1);
        *cursor = (f as u8, r as u8);
        true
    }

    fn flipped(&self) -> bool {
        self.me().is_some_and(|s| self.pres.flipped_for(s))
    }

    // ---------------------------------------------------------------------------------
    // Setup

    fn setup_key(&mut self, k: KeyEvent) {
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

    fn save_setup(&mut self, name: &str) {
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

    fn load_setup(&mut self, name: &str) {
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

    fn play_key(&mut self, k: KeyEvent) {
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
    fn act(&mut self) {
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

    fn command(&mut self, text: &str) {
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

    fn resign(&mut self) {
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

    /// The game is over: write the record and show the end screen.
    fn finish(&mut self) {
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

    fn new_game(&mut self) -> Result<(), TuiError> {
        self.finished_games += 1;
        self.games_played += 1;
        self.enter_first_screen()
    }

    /// Leaves: an unfinished game is saved first.
    fn leave(&mut self) {
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

    fn replay_key(&mut self, k: KeyEvent) {
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
