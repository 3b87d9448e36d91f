//! The external bot protocol: a program speaking JSON Lines on stdin/stdout
//! (`docs/bot-protocol.md`).
//!
//! The arbiter side writes one JSON object per line and reads one per line:
//!
//! 1. `{"type":"start","game":"generals","seat":"white","options":{..},"timeout_ms":5000}`
//!    — the bot answers `{"setup":{"a1":"FLG",..}}` (games with setups; `{"setup":null}`
//!    asks for a random one) or `{}` (Banqi).
//! 2. `{"type":"turn","ply":12,"observation":{..},"new_plies":[..],"legal_moves":[..]}` —
//!    the bot answers `{"move":"e3-e4"}`. `new_plies` holds the seat's view of every ply
//!    since its previous turn (from ply 1 on its first turn).
//! 3. `{"type":"end","result":{"winner":"white","reason":"flag_captured"},"observation":{..}}`
//!    — no answer; stdin is closed afterwards.
//!
//! A bot that does not answer in time, exits, or answers something that is not the
//! expected JSON fails with a [`BotFailure`] that says so.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use salpakan_engine::{AnyMatch, GameKind, GameSpec, Seat, Viewer, wire};
use serde_json::{Value, json};

/// Why an external bot lost its game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BotFailure {
    /// The program could not be started.
    #[error("could not start {command:?}: {why}")]
    Spawn {
        /// The command line.
        command: String,
        /// The system's reason.
        why: String,
    },
    /// No answer within the time limit.
    #[error("no answer within {0} ms")]
    Timeout(u64),
    /// The program exited or closed its output.
    #[error("the program exited without answering{0}")]
    Crashed(String),
    /// An answer that is not the expected JSON.
    #[error("bad answer {answer:?}: {why}")]
    BadAnswer {
        /// The line received (shortened).
        answer: String,
        /// What was expected.
        why: String,
    },
    /// A move the rules refuse.
    #[error("illegal move {mv:?}: {why}")]
    Illegal {
        /// The move.
        mv: String,
        /// The arbiter's reason.
        why: String,
    },
}

/// A running external bot, for one game.
pub struct ExternalBot {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    stderr: Arc<Mutex<String>>,
    timeout_ms: u64,
    seen: usize,
}

impl std::fmt::Debug for ExternalBot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ExternalBot")
            .field("pid", &self.child.id())
            .finish_non_exhaustive()
    }
}

impl ExternalBot {
    /// Starts `command` (run by `sh -c`) with a per-answer limit of `timeout_ms`.
    ///
    /// # Errors
    /// [`BotFailure::Spawn`] if it cannot be started.
    pub fn spawn(command: &str, timeout_ms: u64) -> Result<ExternalBot, BotFailure> {
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| BotFailure::Spawn {
                command: command.to_string(),
                why: e.to_string(),
            })?;
        let stdout = child.stdout.take().expect("piped");
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if line.trim().is_empty() {
                    continue;
                }
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stderr = Arc::new(Mutex::new(String::new()));
        let err_pipe = child.stderr.take().expect("piped");
        let keep = Arc::clone(&stderr);
        std::thread::spawn(move || {
            for line in BufReader::new(err_pipe).lines() {
                let Ok(line) = line else { break };
                let mut s = keep.lock().expect("stderr buffer");
                s.push_str(&line);
                s.push('\n');
                if s.len() > 2000 {
                    let cut = s.len() - 1000;
                    let cut = (cut..s.len()).find(|&i| s.is_char_boundary(i)).unwrap_or(0);
                    *s = s[cut..].to_string();
                }
            }
        });
        let stdin = child.stdin.take();
        Ok(ExternalBot {
            child,
            stdin,
            lines: rx,
            stderr,
            timeout_ms,
            seen: 0,
        })
    }

    fn send(&mut self, msg: &Value) -> Result<(), BotFailure> {
        let Some(stdin) = self.stdin.as_mut() else {
            return Err(self.crashed());
        };
        let mut line = msg.to_string();
        line.push('\n');
        if stdin
            .write_all(line.as_bytes())
            .and_then(|()| stdin.flush())
            .is_err()
        {
            return Err(self.crashed());
        }
        Ok(())
    }

    fn crashed(&mut self) -> BotFailure {
        // Give the reader threads a moment to collect what the program left.
        std::thread::sleep(Duration::from_millis(20));
        let status = match self.child.try_wait() {
            Ok(Some(s)) => format!(" ({s})"),
            _ => String::new(),
        };
        let err = self.stderr.lock().map(|s| s.clone()).unwrap_or_default();
        let last = err.lines().last().unwrap_or("").trim().to_string();
        BotFailure::Crashed(if last.is_empty() {
            status
        } else {
            format!("{status}; its last error line: {last}")
        })
    }

    fn answer(&mut self) -> Result<serde_json::Map<String, Value>, BotFailure> {
        match self
            .lines
            .recv_timeout(Duration::from_millis(self.timeout_ms))
        {
            Ok(line) => parse_answer(&line),
            Err(RecvTimeoutError::Timeout) => Err(BotFailure::Timeout(self.timeout_ms)),
            Err(RecvTimeoutError::Disconnected) => Err(self.crashed()),
        }
    }

    /// Sends the start message; returns the bot's setup as it answered it, a JSON object
    /// for [`wire::setup_from_json`] to check
    /// (`None`: it asked for a random one, or the game has no setups).
    ///
    /// # Errors
    /// A failure of the program.
    pub fn start(&mut self, spec: &GameSpec, seat: Seat) -> Result<Option<Value>, BotFailure> {
        let kind = spec.kind();
        self.send(&json!({
            "type": "start",
            "game": kind.name(),
            "seat": kind.seat_name(seat),
            "options": wire::options_json(spec),
            "timeout_ms": self.timeout_ms,
        }))?;
        let a = self.answer()?;
        setup_from_answer(kind, &a)
    }

    /// Sends the seat's turn (observation, the plies since its last turn, legal moves) and
    /// returns the move it answers, as written (for [`AnyMatch::parse_move`]).
    ///
    /// # Errors
    /// A failure of the program.
    pub fn choose(&mut self, game: &AnyMatch, seat: Seat) -> Result<String, BotFailure> {
        let viewer = Viewer::Player(seat);
        let history = game.history_json(viewer);
        let new: Vec<Value> = history[self.seen.min(history.len())..].to_vec();
        self.seen = history.len();
        self.send(&json!({
            "type": "turn",
            "ply": game.ply(),
            "observation": game.observe_json(viewer),
            "new_plies": new,
            "legal_moves": game.legal_moves(),
        }))?;
        let a = self.answer()?;
        move_from_answer(a)
    }

    /// Tells the bot the game is over and closes its input; the program is then waited for
    /// briefly and killed if still running.
    pub fn finish(&mut self, game: &AnyMatch, seat: Seat) {
        let result = game.outcome().map(|o| o.view(game.kind()));
        let _ = self.send(&json!({
            "type": "end",
            "result": result,
            "observation": game.observe_json(Viewer::Player(seat)),
        }));
        self.stdin = None;
        for _ in 0..20 {
            if matches!(self.child.try_wait(), Ok(Some(_))) {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Reads one line a bot wrote: one JSON object.
///
/// # Errors
/// [`BotFailure::BadAnswer`] (quoting at most 200 characters of the line) for anything else.
pub fn parse_answer(line: &str) -> Result<serde_json::Map<String, Value>, BotFailure> {
    match serde_json::from_str::<Value>(line) {
        Ok(Value::Object(m)) => Ok(m),
        _ => Err(BotFailure::BadAnswer {
            answer: line.chars().take(200).collect(),
            why: "expected one JSON object per line".into(),
        }),
    }
}

/// The setup in a bot's answer to `start`: `None` when it asks for a random one (no
/// `setup`, or `null`) or the game has none; the object is checked later by the arbiter.
///
/// # Errors
/// [`BotFailure::BadAnswer`] for a setup that is not an object or `null`, or one sent for
/// a game without setups.
pub fn setup_from_answer(
    kind: GameKind,
    answer: &serde_json::Map<String, Value>,
) -> Result<Option<Value>, BotFailure> {
    match answer.get("setup") {
        None | Some(Value::Null) => Ok(None),
        Some(v @ Value::Object(_)) if kind.has_setups() => Ok(Some(v.clone())),
        Some(v) => Err(BotFailure::BadAnswer {
            answer: v.to_string().chars().take(200).collect(),
            why: "a setup is an object of square to piece code, or null".into(),
        }),
    }
}

/// The move text in a bot's answer to `turn` (parsed and judged later by the arbiter).
///
/// # Errors
/// [`BotFailure::BadAnswer`] unless the answer is `{"move":"..."}`.
pub fn move_from_answer(answer: serde_json::Map<String, Value>) -> Result<String, BotFailure> {
    match answer.get("move") {
        Some(Value::String(m)) => Ok(m.clone()),
        _ => Err(BotFailure::BadAnswer {
            answer: Value::Object(answer)
                .to_string()
                .chars()
                .take(200)
                .collect(),
            why: "expected {\"move\":\"...\"}".into(),
        }),
    }
}

impl Drop for ExternalBot {
    fn drop(&mut self) {
        self.stdin = None;
        if !matches!(self.child.try_wait(), Ok(Some(_))) {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}
