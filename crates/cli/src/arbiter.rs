//! The arbiter protocol: JSON Lines in, one JSON line out per request (`docs/arbiter-protocol.md`).
//!
//! [`Arbiter::handle`] is pure: it takes one request line and returns one answer, and a bad
//! request changes nothing. [`serve`] wires it to standard input and output.

use std::io::{BufRead, Write};

use salpakan_engine::{
    AnyMatch, Copy, EndReason, GameKind, Outcome, Record, Seat, Viewer, reason_ends_off_board,
    replay_record, wire,
};
use serde_json::{Map, Value, json};

/// The longest request line accepted, in bytes.
pub const MAX_LINE: usize = 1 << 20;

const OPS: &str =
    "new, legal, play, observe, history, record, resign, draw, end, load, status, help";

/// The arbiter: at most one game at a time, replaced by `new` or `load`.
#[derive(Debug, Default)]
pub struct Arbiter {
    game: Option<AnyMatch>,
}

/// A protocol error: becomes `{"ok":false,"error":...}`.
struct Refusal(String);

impl<T: std::fmt::Display> From<T> for Refusal {
    fn from(e: T) -> Self {
        Refusal(e.to_string())
    }
}

type Answer = Result<Map<String, Value>, Refusal>;

impl Arbiter {
    /// A new arbiter with no game.
    #[must_use]
    pub fn new() -> Self {
        Arbiter::default()
    }

    /// Answers one request line. Never panics on input; a refused request changes nothing.
    pub fn handle(&mut self, line: &str) -> Value {
        let parsed: Result<Value, _> = if line.len() > MAX_LINE {
            Err(format!(
                "the request is {} bytes; the limit is {MAX_LINE}",
                line.len()
            ))
        } else {
            serde_json::from_str(line).map_err(|e| format!("the request is not valid JSON: {e}"))
        };
        let (id, answer) = match parsed {
            Err(e) => (None, Err(Refusal(e))),
            Ok(Value::Object(req)) => (req.get("id").cloned(), self.dispatch(&req)),
            Ok(_) => (
                None,
                Err(Refusal(
                    "a request is a JSON object such as {\"op\":\"legal\"}".into(),
                )),
            ),
        };
        let mut out = match answer {
            Ok(mut m) => {
                m.insert("ok".into(), Value::Bool(true));
                m
            }
            Err(Refusal(e)) => {
                let mut m = Map::new();
                m.insert("ok".into(), Value::Bool(false));
                m.insert("error".into(), Value::String(e));
                m
            }
        };
        if let Some(id) = id {
            out.insert("id".into(), id);
        }
        // `ok` first for readability: rebuild with a stable key order.
        let mut ordered = Map::new();
        if let Some(ok) = out.remove("ok") {
            ordered.insert("ok".into(), ok);
        }
        ordered.extend(out);
        Value::Object(ordered)
    }

    fn dispatch(&mut self, req: &Map<String, Value>) -> Answer {
        let op = match req.get("op") {
            Some(Value::String(s)) => s.as_str(),
            Some(_) => return Err(Refusal("\"op\" must be a string".into())),
            None => {
                return Err(Refusal(format!(
                    "the request has no \"op\"; expected one of {OPS}"
                )));
            }
        };
        match op {
            "new" => self.op_new(req),
            "load" => self.op_load(req),
            "help" => Ok(obj(json!({ "ops": OPS.split(", ").collect::<Vec<_>>() }))),
            "legal" => {
                let g = self.game()?;
                Ok(obj(
                    json!({ "to_move": seat_name(g, g.to_move()), "moves": g.legal_moves() }),
                ))
            }
            "play" => self.op_play(req),
            "observe" => {
                let g = self.game()?;
                let viewer = viewer_arg(g, req)?.unwrap_or(Viewer::Arbiter);
                Ok(obj(json!({ "observation": g.observe_json(viewer) })))
            }
            "history" => {
                let g = self.game()?;
                let viewer = viewer_arg(g, req)?.unwrap_or(Viewer::Arbiter);
                Ok(obj(json!({ "plies": g.history_json(viewer) })))
            }
            "record" => {
                let g = self.game()?;
                let copy = match viewer_arg(g, req)? {
                    None | Some(Viewer::Arbiter) => Copy::Full,
                    Some(Viewer::Player(s)) => Copy::Seat(s),
                    Some(Viewer::Spectator) => {
                        return Err(Refusal(
                            "records are written for a seat or in full; ask for a seat or none"
                                .into(),
                        ));
                    }
                };
                Ok(obj(json!({ "record": g.record(copy).to_text() })))
            }
            "status" => {
                let g = self.game()?;
                Ok(self.status(g))
            }
            "resign" => {
                let seat = self.seat_arg(req)?;
                let g = self.game_mut()?;
                g.conclude(Outcome::win(seat.other(), EndReason::Resignation))?;
                Ok(result_answer(&*g))
            }
            "draw" => {
                let g = self.game_mut()?;
                g.conclude(Outcome::draw(EndReason::Agreement))?;
                Ok(result_answer(&*g))
            }
            "end" => self.op_end(req),
            other => Err(Refusal(format!(
                "unknown op {other:?}; expected one of {OPS}"
            ))),
        }
    }

    fn game(&self) -> Result<&AnyMatch, Refusal> {
        self.game.as_ref().ok_or_else(no_game)
    }

    fn game_mut(&mut self) -> Result<&mut AnyMatch, Refusal> {
        self.game.as_mut().ok_or_else(no_game)
    }

    fn seat_arg(&self, req: &Map<String, Value>) -> Result<Seat, Refusal> {
        let g = self.game()?;
        match viewer_arg(g, req)? {
            Some(Viewer::Player(s)) => Ok(s),
            _ => Err(Refusal(format!(
                "this op needs \"seat\": {:?} or {:?}",
                g.kind().seat_name(Seat::First),
                g.kind().seat_name(Seat::Second)
            ))),
        }
    }

    fn status(&self, g: &AnyMatch) -> Map<String, Value> {
        let kind = g.kind();
        let mut m = obj(json!({
            "game": kind.name(),
            "options": wire::options_json(&g.spec()),
            "seats": [kind.seat_name(Seat::First), kind.seat_name(Seat::Second)],
            "to_move": seat_name(g, g.to_move()),
            "ply": g.ply(),
            "commitments": g.commitment_list().into_iter().map(|(k, v)| (k, Value::String(v))).collect::<Map<String, Value>>(),
            "result": result_json(g),
        }));
        if let Some(c) = g.seat_colours() {
            m.insert(
                "colours".into(),
                json!({ kind.seat_name(Seat::First): c[0], kind.seat_name(Seat::Second): c[1] }),
            );
        }
        m
    }

    fn op_new(&mut self, req: &Map<String, Value>) -> Answer {
        let kind: GameKind = match req.get("game") {
            Some(Value::String(s)) => s.parse()?,
            _ => {
                return Err(Refusal(
                    "new needs \"game\": \"generals\", \"stratego\" or \"banqi\"".into(),
                ));
            }
        };
        let seed = match req.get("seed") {
            None | Some(Value::Null) => os_seed()?,
            Some(v) => v.as_u64().ok_or_else(|| {
                Refusal("\"seed\" must be a whole number from 0 to 2^64-1".into())
            })?,
        };
        let spec = wire::spec_from_json(kind, req.get("options").unwrap_or(&Value::Null))?;
        let mut g = wire::new_match(&spec, req, seed)?;
        for (tag, key) in [("Event", "event"), ("Date", "date")] {
            if let Some(Value::String(v)) = req.get(key) {
                g.set_record_tag(tag, v.clone());
            }
        }
        if let Some(Value::Object(players)) = req.get("players") {
            for seat in Seat::BOTH {
                let name = kind.seat_name(seat);
                if let Some(Value::String(p)) = players.get(name) {
                    g.set_record_tag(&capitalise(name), p.clone());
                }
            }
        }
        let answer = self.status(&g);
        self.game = Some(g);
        Ok(answer)
    }

    fn op_load(&mut self, req: &Map<String, Value>) -> Answer {
        let text = req
            .get("record")
            .and_then(Value::as_str)
            .ok_or_else(|| Refusal("load needs \"record\": the text of a full record".into()))?;
        let record = Record::parse(text)?;
        let g = replay_record(&record)?;
        let answer = self.status(&g);
        self.game = Some(g);
        Ok(answer)
    }

    fn op_play(&mut self, req: &Map<String, Value>) -> Answer {
        let mv = req
            .get("move")
            .and_then(Value::as_str)
            .ok_or_else(|| {
                Refusal("play needs \"move\", e.g. {\"op\":\"play\",\"move\":\"e3-e4\"}".into())
            })?
            .to_string();
        let claimed = match self.game()?.to_move() {
            None => None,
            Some(_) => match viewer_arg(self.game()?, req)? {
                Some(Viewer::Player(s)) => Some(s),
                None => None,
                Some(_) => return Err(Refusal("\"seat\" must be a seat of this game".into())),
            },
        };
        let g = self.game_mut()?;
        if let (Some(claimed), Some(turn)) = (claimed, g.to_move()) {
            if claimed != turn {
                let k = g.kind();
                return Err(Refusal(format!(
                    "it is {}'s turn, not {}'s",
                    k.seat_name(turn),
                    k.seat_name(claimed)
                )));
            }
        }
        let mv = g.parse_move(&mv)?;
        let views = g.play_views(mv)?;
        let kind = g.kind();
        let [first, second] = views.players;
        let mut m = obj(json!({
            "ply": g.ply(),
            "views": { kind.seat_name(Seat::First): first, kind.seat_name(Seat::Second): second },
            "spectator": views.spectator,
            "to_move": seat_name(&*g, g.to_move()),
            "result": result_json(&*g),
        }));
        if let Some(c) = g.seat_colours() {
            m.insert(
                "colours".into(),
                json!({ kind.seat_name(Seat::First): c[0], kind.seat_name(Seat::Second): c[1] }),
            );
        }
        Ok(m)
    }

    fn op_end(&mut self, req: &Map<String, Value>) -> Answer {
        let reason: EndReason = req
            .get("reason")
            .and_then(Value::as_str)
            .ok_or_else(|| {
                Refusal(
                    "end needs \"reason\": time, abandonment, forfeit, resignation or agreement"
                        .into(),
                )
            })?
            .parse()?;
        if !reason_ends_off_board(reason) {
            return Err(Refusal(format!(
                "{reason} is decided on the board by the arbiter; it cannot be declared"
            )));
        }
        let kind = self.game()?.kind();
        let winner = match req.get("winner") {
            None | Some(Value::Null) => None,
            Some(Value::String(w)) => Some(kind.parse_seat(w).ok_or_else(|| {
                Refusal(format!("\"winner\" {w:?} is not a seat of {}", kind.name()))
            })?),
            Some(_) => return Err(Refusal("\"winner\" must be a seat name or null".into())),
        };
        if winner.is_none() && reason != EndReason::Agreement {
            return Err(Refusal(format!(
                "end with reason {reason} needs \"winner\""
            )));
        }
        let g = self.game_mut()?;
        g.conclude(Outcome { winner, reason })?;
        Ok(result_answer(&*g))
    }
}

fn no_game() -> Refusal {
    Refusal("no game yet: start one with {\"op\":\"new\",\"game\":\"generals\"}".into())
}

fn obj(v: Value) -> Map<String, Value> {
    match v {
        Value::Object(m) => m,
        _ => Map::new(),
    }
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
        .unwrap_or_default()
}

fn seat_name(g: &AnyMatch, s: Option<Seat>) -> Value {
    s.map_or(Value::Null, |s| Value::String(g.kind().seat_name(s).into()))
}

fn result_json(g: &AnyMatch) -> Value {
    g.outcome().map_or(Value::Null, |o| {
        serde_json::to_value(o.view(g.kind())).unwrap_or(Value::Null)
    })
}

fn result_answer(g: &AnyMatch) -> Map<String, Value> {
    obj(json!({ "result": result_json(g) }))
}

/// Reads `"seat"`: a seat name of the game, `spectator` or `arbiter`.
fn viewer_arg(g: &AnyMatch, req: &Map<String, Value>) -> Result<Option<Viewer>, Refusal> {
    let kind = g.kind();
    match req.get("seat") {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) if s == "spectator" => Ok(Some(Viewer::Spectator)),
        Some(Value::String(s)) if s == "arbiter" => Ok(Some(Viewer::Arbiter)),
        Some(Value::String(s)) => kind
            .parse_seat(s)
            .map(|s| Some(Viewer::Player(s)))
            .ok_or_else(|| {
                Refusal(format!(
                    "{s:?} is not a seat of {}; use {:?}, {:?}, \"spectator\" or \"arbiter\"",
                    kind.name(),
                    kind.seat_name(Seat::First),
                    kind.seat_name(Seat::Second)
                ))
            }),
        Some(_) => Err(Refusal("\"seat\" must be a string".into())),
    }
}

/// A seed from the operating system's secure random source.
///
/// # Errors
/// If the OS has no random source to offer.
pub fn os_seed() -> Result<u64, String> {
    let mut b = [0u8; 8];
    getrandom::fill(&mut b).map_err(|e| format!("the OS random source failed: {e}"))?;
    Ok(u64::from_le_bytes(b))
}

/// Serves the protocol on standard input and output until end of input.
///
/// # Errors
/// Only on I/O errors of stdin or stdout.
pub fn serve() -> std::io::Result<()> {
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    let mut arbiter = Arbiter::new();
    let mut line = String::new();
    let mut input = stdin.lock();
    loop {
        line.clear();
        let n = read_bounded_line(&mut input, &mut line)?;
        if n == 0 {
            return Ok(());
        }
        let trimmed = line.trim();
        if trimmed.is_empty() {
            continue;
        }
        let answer = if n > MAX_LINE {
            json!({ "ok": false, "error": format!("the request is longer than {MAX_LINE} bytes") })
        } else {
            arbiter.handle(trimmed)
        };
        writeln!(out, "{answer}")?;
        out.flush()?;
    }
}

/// Reads one line, keeping at most [`MAX_LINE`] bytes of it; returns the bytes read in all.
/// Invalid UTF-8 is replaced, so that it gets a JSON error rather than ending the session.
fn read_bounded_line(input: &mut impl BufRead, line: &mut String) -> std::io::Result<usize> {
    let mut total = 0;
    let mut kept = Vec::new();
    loop {
        let buf = input.fill_buf()?;
        if buf.is_empty() {
            break;
        }
        let (chunk, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..=i], true),
            None => (buf, false),
        };
        let len = chunk.len();
        if kept.len() < MAX_LINE + 1 {
            kept.extend_from_slice(&chunk[..len.min(MAX_LINE + 1 - kept.len())]);
        }
        input.consume(len);
        total += len;
        if done {
            break;
        }
    }
    line.push_str(&String::from_utf8_lossy(&kept));
    Ok(total)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(128))]

        /// Any sequence of request lines gets one answer each, an object with a boolean
        /// `ok` (and an `error` sentence when refused), and never a panic.
        #[test]
        fn robust_arbiter_answers_every_line_with_ok_or_an_error(
            lines in proptest::collection::vec(prop_oneof![
                any::<String>(),
                "\\{\"op\": ?\"(new|legal|play|observe|history|record|resign|draw|end|load|status|help|x)\"(, ?\"(game|move|seat|viewer|seed|options|record|copy|reason|winner)\": ?(\"[a-z0-9 -]{0,10}\"|[0-9]{1,20}|-1|null|true|\\{\\}))?(, ?\"id\": ?[0-9])?\\}",
            ], 1..8)
        ) {
            let mut a = Arbiter::new();
            for line in &lines {
                let answer = a.handle(line);
                let ok = answer.get("ok").and_then(Value::as_bool);
                prop_assert!(ok.is_some(), "{answer}");
                if ok == Some(false) {
                    prop_assert!(answer.get("error").and_then(Value::as_str).is_some_and(|e| !e.is_empty()));
                }
            }
        }
    }
}
