//! The NTU computer Dark Chess engine protocol (`docs/legacy-protocols.md`).
//!
//! A command is `<id> <name> <args>` (the id selects it): `1 name`, `2 version`, `5 quit`,
//! `7 reset_board`, `10 move a8 b8`, `11 flip b5 G`, `12 genmove red|black|unknown`,
//! `14 ready`, `15 time_settings <ms>`, `16 time_left <red|black> <ms>`. The engine answers
//! `=<id> [reply]` or `?<id>`, and may print anything else on other lines (board diagrams),
//! which the reader skips. Squares and piece letters are salpakan's (`a1`..`d8`,
//! `K G M R N C P`, black in lower case). The engine does not apply its own move: it waits
//! for the `move`/`flip` of every ply, its own included.

use std::io::{BufRead, Write};
use std::time::{Duration, Instant};

use salpakan_engine::banqi::{Action, Banqi, Square};
use salpakan_engine::{AnyMatch, Game, Match, Seat, Viewer};

use super::Answer;
use super::process::Program;
use crate::protocol::BotFailure;

/// The referee's side: an engine in one seat.
pub(crate) struct Host {
    prog: Program,
    timeout_ms: u64,
    /// Milliseconds left on each seat's game clock (the engine's own is enforced).
    clock: [u64; 2],
    clock_total: u64,
    sent: usize,
    /// When the engine last answered a `genmove` (the opponent's time runs from there).
    last_answer: Option<Instant>,
}

fn colour_name(m: &Match<Banqi>, seat: Seat) -> &'static str {
    m.game().colour_of(seat).map_or("unknown", |c| c.name())
}

impl Host {
    pub(crate) fn spawn(command: &str, timeout_ms: u64, clock: u64) -> Result<Host, BotFailure> {
        Ok(Host {
            prog: Program::spawn(command)?,
            timeout_ms,
            clock: [clock; 2],
            clock_total: clock,
            sent: 0,
            last_answer: None,
        })
    }

    /// Sends command `id` and waits for its answer (other lines are skipped); `Ok` holds the
    /// reply after `=<id>`.
    fn command(&mut self, id: u32, text: &str, limit_ms: u64) -> Result<String, BotFailure> {
        self.prog.send(&format!("{id} {text}"))?;
        let deadline = Instant::now() + Duration::from_millis(limit_ms);
        let ok = format!("={id}");
        let failed = format!("?{id}");
        loop {
            let l = self.prog.recv_until(deadline, limit_ms)?;
            let l = l.trim();
            let after = |p: &str| {
                l.strip_prefix(p)
                    .filter(|r| r.is_empty() || r.starts_with(char::is_whitespace))
                    .map(str::trim)
            };
            if let Some(reply) = after(&ok) {
                return Ok(reply.to_string());
            }
            if let Some(reply) = after(&failed) {
                return Err(BotFailure::BadAnswer {
                    answer: l.chars().take(200).collect(),
                    why: format!(
                        "the engine failed command {id} ({text}){}",
                        if reply.is_empty() {
                            String::new()
                        } else {
                            format!(": {reply}")
                        }
                    ),
                });
            }
        }
    }

    pub(crate) fn start(&mut self) -> Result<(), BotFailure> {
        let t = self.timeout_ms;
        self.command(1, "name", t)?;
        self.command(2, "version", t)?;
        self.command(7, "reset_board", t)?;
        let total = self.clock_total;
        self.command(15, &format!("time_settings {total}"), t)?;
        self.command(14, "ready", t)?;
        Ok(())
    }

    /// Sends `move`/`flip` and `time_left` for every ply the engine has not been told of.
    fn flush(&mut self, m: &Match<Banqi>) -> Result<(), BotFailure> {
        let events = m.events();
        while self.sent < events.len() {
            let e = &events[self.sent];
            // Every ply of Banqi is public: the spectators' view is every seat's.
            let v = m.game().view(e, Viewer::Spectator);
            let line = match v.action {
                Action::Flip => {
                    format!("11 flip {} {}", v.mv, v.revealed.map_or('?', |p| p.code()))
                }
                _ => format!("10 move {}", v.mv.replace('-', " ")),
            };
            self.prog.send(&line)?;
            let mover = colour_name(m, e.seat);
            if mover != "unknown" {
                self.prog.send(&format!(
                    "16 time_left {mover} {}",
                    self.clock[e.seat.index()]
                ))?;
            }
            self.sent += 1;
        }
        Ok(())
    }

    pub(crate) fn ask(&mut self, game: &AnyMatch, seat: Seat) -> Result<Answer, BotFailure> {
        let m = game.as_banqi().ok_or_else(|| BotFailure::Spawn {
            command: "ntu".into(),
            why: "not a Banqi match".into(),
        })?;
        if let Some(t) = self.last_answer {
            let other = seat.other().index();
            let spent = t.elapsed().as_millis() as u64;
            self.clock[other] = self.clock[other].saturating_sub(spent);
        }
        self.flush(m)?;
        let mine = self.clock[seat.index()];
        let limit = self.timeout_ms.min(mine.max(1));
        let asked = Instant::now();
        let reply = self.command(12, &format!("genmove {}", colour_name(m, seat)), limit)?;
        let spent = asked.elapsed().as_millis() as u64;
        self.clock[seat.index()] = mine.saturating_sub(spent);
        self.last_answer = Some(Instant::now());
        let bad = |why: &str| BotFailure::BadAnswer {
            answer: format!("=12 {reply}").chars().take(200).collect(),
            why: why.into(),
        };
        let w: Vec<&str> = reply.split_whitespace().collect();
        if w.len() != 2 {
            return Err(bad("expected two squares: =12 c8 a8, or =12 b8 b8 to flip"));
        }
        let (a, b) = (
            w[0].parse::<Square>().map_err(|e| bad(&e))?,
            w[1].parse::<Square>().map_err(|e| bad(&e))?,
        );
        Ok(Answer::Move(if a == b {
            a.to_string()
        } else {
            format!("{a}-{b}")
        }))
    }

    pub(crate) fn finish(&mut self, game: &AnyMatch, _seat: Seat) {
        if let Some(m) = game.as_banqi() {
            let _ = self.flush(m);
        }
        let _ = self.command(5, "quit", 200);
        self.prog.close(Duration::from_millis(200));
    }
}

/// Plays `spec` as an NTU engine on `input`/`output` until `quit` or the end of the input.
/// Its knowledge comes only from the commands: every `move` and `flip` (all of Banqi's plies
/// are public), and the colour `genmove` asks for.
///
/// # Errors
/// A `move` or `flip` that cannot be played here, or an output error; the message says which.
pub fn agent(
    spec: &crate::BotSpec,
    input: impl BufRead,
    mut output: impl Write,
    seed: u64,
) -> Result<(), String> {
    let mut tracker = super::proxy::BanqiTracker::new();
    let mut turn = 0u64;
    for line in input.lines() {
        let line = line.map_err(|e| format!("cannot read the platform's line: {e}"))?;
        let w: Vec<&str> = line.split_whitespace().collect();
        let Some(id) = w.first().and_then(|t| t.parse::<u32>().ok()) else {
            continue;
        };
        let args = w.get(2..).unwrap_or(&[]);
        let mut reply = String::new();
        let mut ok = true;
        match id {
            1 => reply = format!("salpakan-{spec}"),
            2 => reply = env!("CARGO_PKG_VERSION").to_string(),
            0 => reply = "1.0.0".to_string(),
            7 => tracker = super::proxy::BanqiTracker::new(),
            10 => match args {
                [a, b, ..] => {
                    if let Err(e) = tracker.apply(&format!("{a}-{b}")) {
                        eprintln!("salpakan bot: {e}");
                        ok = false;
                    }
                }
                _ => ok = false,
            },
            11 => match args {
                [sq, p, ..] => {
                    if let Err(e) = tracker.flip(sq, p) {
                        eprintln!("salpakan bot: {e}");
                        ok = false;
                    }
                }
                _ => ok = false,
            },
            12 => {
                turn += 1;
                match tracker.choose(spec, seed ^ turn.wrapping_mul(0x2545_F491_4F6C_DD1D)) {
                    Ok(Some(text)) => reply = text,
                    Ok(None) => ok = false,
                    Err(e) => {
                        eprintln!("salpakan bot: {e}");
                        ok = false;
                    }
                }
            }
            _ => {}
        }
        let sign = if ok { '=' } else { '?' };
        if reply.is_empty() {
            writeln!(output, "{sign}{id}")
        } else {
            writeln!(output, "{sign}{id} {reply}")
        }
        .and_then(|()| output.flush())
        .map_err(|e| e.to_string())?;
        if id == 5 {
            break;
        }
    }
    Ok(())
}
