//! The application: screens, their state, and what every key, click and bot answer does.
//! No terminal here: [`App::handle`] takes events and [`crate::ui::draw`] renders, so tests
//! drive it all with ratatui's test backend.

mod play;
mod records;
mod setup_phase;

pub use records::reason_text;

use std::path::PathBuf;
use std::sync::mpsc::Receiver;
use std::time::Instant;

use ratatui::crossterm::event::{
    Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use ratatui::layout::Rect;
use salpakan_engine::{AnyMatch, AnyMove, GameSpec, Record, Seat};
use serde_json::Value;

use crate::TuiError;
use crate::bot::Bot;
use crate::presenter::{Pos, Presenter};
use crate::setup::SetupState;

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
}
