//! The UCC 2012 Stratego agent protocol (`docs/legacy-protocols.md`).
//!
//! Coordinates: `x` 0..9 is the file (`a` + x), `y` 0..9 is the rank minus one, so Red (y 0..3,
//! "the top of the board" for the agent) stands on ranks 1–4. `UP` is y − 1. Piece tokens:
//! `1` Marshal … `9` Scout (token t ↔ rank 11 − t), `s` Spy, `B` Bomb, `F` Flag; the board
//! shows `#` for an enemy piece, `.` for empty and `+` for a lake.

use std::io::{BufRead, Write};
use std::time::{Duration, Instant};

use salpakan_engine::stratego::{Duel, Piece, Square, Stratego, StrategoView};
use salpakan_engine::{AnyMatch, Game, GameKind, Match, Seat, Viewer};
use serde_json::Value;

use super::Answer;
use super::process::Program;
use crate::protocol::BotFailure;

/// The protocol's token for a piece.
#[must_use]
pub fn token(p: Piece) -> char {
    match p {
        Piece::Flag => 'F',
        Piece::Bomb => 'B',
        Piece::Spy => 's',
        Piece::Marshal => '1',
        other => char::from(b'0' + (11 - other as u8)),
    }
}

/// The piece of a protocol token.
#[must_use]
pub fn piece(token: char) -> Option<Piece> {
    match token {
        'F' => Some(Piece::Flag),
        'B' => Some(Piece::Bomb),
        's' => Some(Piece::Spy),
        '1' => Some(Piece::Marshal),
        '2'..='9' => Some(Piece::ALL[11 - (token as usize - '0' as usize)]),
        _ => None,
    }
}

/// The protocol's seat name.
fn colour(seat: Seat) -> &'static str {
    match seat {
        Seat::First => "RED",
        Seat::Second => "BLUE",
    }
}

/// `x y` of a square.
fn xy(s: Square) -> (u8, u8) {
    (s.file(), s.rank())
}

/// The protocol's text of a move `from`-`to`: `X Y DIR [N]`.
#[must_use]
pub fn move_text(from: Square, to: Square) -> String {
    let (x, y) = xy(from);
    let (tx, ty) = xy(to);
    let (dir, n) = if tx > x {
        ("RIGHT", tx - x)
    } else if tx < x {
        ("LEFT", x - tx)
    } else if ty > y {
        ("DOWN", ty - y)
    } else {
        ("UP", y - ty)
    };
    if n > 1 {
        format!("{x} {y} {dir} {n}")
    } else {
        format!("{x} {y} {dir}")
    }
}

/// Parses `X Y DIR [N]` into `from`, `to`; `Err` says what is wrong. A move that leaves the
/// board is `Ok(None)` (a move the protocol's own rules refuse).
pub fn parse_move(line: &str) -> Result<Option<(Square, Square)>, String> {
    let w: Vec<&str> = line.split_whitespace().collect();
    if !(3..=4).contains(&w.len()) {
        return Err("expected X Y DIR [N]".into());
    }
    let num = |t: &str| {
        t.parse::<i32>()
            .map_err(|_| format!("{t:?} is not a number"))
    };
    let (x, y) = (num(w[0])?, num(w[1])?);
    let n = if w.len() == 4 { num(w[3])? } else { 1 };
    let (dx, dy) = match w[2] {
        "UP" => (0, -1),
        "DOWN" => (0, 1),
        "LEFT" => (-1, 0),
        "RIGHT" => (1, 0),
        d => return Err(format!("{d:?} is not UP, DOWN, LEFT or RIGHT")),
    };
    let sq = |x: i32, y: i32| {
        if (0..10).contains(&x) && (0..10).contains(&y) {
            Square::new(x as u8, y as u8)
        } else {
            None
        }
    };
    // Off-board numbers are no move (checked before the arithmetic, which they could
    // overflow); no line of ten squares takes more than nine steps.
    if !(1..=9).contains(&n) || sq(x, y).is_none() {
        return Ok(None);
    }
    Ok(sq(x, y).zip(sq(x + dx * n, y + dy * n)))
}

/// The outcome words after a move: `OK`, `KILLS a d`, `DIES a d`, `BOTHDIE a d`,
/// `VICTORY_FLAG`.
fn outcome_text(v: &StrategoView) -> String {
    match v.attack {
        None => "OK".into(),
        Some(a) if a.defender == Piece::Flag => "VICTORY_FLAG".into(),
        Some(a) => {
            let word = match a.result {
                Duel::AttackerWins => "KILLS",
                Duel::DefenderWins => "DIES",
                Duel::BothRemoved => "BOTHDIE",
            };
            format!("{word} {} {}", token(a.attacker), token(a.defender))
        }
    }
}

/// The line telling an agent of one ply, from its own view of the ply:
/// `X Y DIR [N] OUTCOME`.
pub(crate) fn result_line(v: &StrategoView) -> String {
    format!("{} {}", move_text(v.from, v.to), outcome_text(v))
}

/// The board as `seat` may see it: 10 rows (y 0..9) of 10 characters.
pub(crate) fn board_rows(m: &Match<Stratego>, seat: Seat) -> Vec<String> {
    let obs = m.game().observe(Viewer::Player(seat));
    let me = GameKind::Stratego.seat_name(seat);
    let mut rows = vec![['.'; 10]; 10];
    for s in Square::all() {
        if s.is_lake() {
            rows[s.rank() as usize][s.file() as usize] = '+';
        }
    }
    for (s, v) in obs.board.iter() {
        let c = match v.piece {
            Some(p) if v.owner == me => token(p),
            _ => '#',
        };
        rows[s.rank() as usize][s.file() as usize] = c;
    }
    rows.into_iter().map(|r| r.iter().collect()).collect()
}

/// The referee's side: an agent program in one seat.
pub(crate) struct Host {
    prog: Program,
    timeout_ms: u64,
    sent: usize,
    started: bool,
}

impl Host {
    pub(crate) fn spawn(command: &str, timeout_ms: u64) -> Result<Host, BotFailure> {
        Ok(Host {
            prog: Program::spawn(command)?,
            timeout_ms,
            sent: 0,
            started: false,
        })
    }

    fn line(&mut self) -> Result<String, BotFailure> {
        let deadline = Instant::now() + Duration::from_millis(self.timeout_ms);
        loop {
            let l = self.prog.recv_until(deadline, self.timeout_ms)?;
            if !l.trim().is_empty() {
                return Ok(l.trim().to_string());
            }
        }
    }

    /// Sends the colour line and reads the four setup rows.
    pub(crate) fn start(&mut self, seat: Seat, opponent: &str) -> Result<Value, BotFailure> {
        let name: String = opponent
            .chars()
            .map(|c| if c.is_whitespace() { '_' } else { c })
            .collect();
        self.prog.send(&format!("{} {name} 10 10", colour(seat)))?;
        let mut setup = serde_json::Map::new();
        for i in 0..4u8 {
            let row = self.line()?;
            let bad = |why: String| BotFailure::BadAnswer {
                answer: row.chars().take(200).collect(),
                why,
            };
            if row.chars().count() != 10 {
                return Err(bad(format!("setup row {} must have 10 tokens", i + 1)));
            }
            let y = match seat {
                Seat::First => i,
                Seat::Second => 6 + i,
            };
            for (x, c) in row.chars().enumerate() {
                if c == '.' {
                    continue;
                }
                let p = piece(c)
                    .ok_or_else(|| bad(format!("{c:?} is not a piece token (1-9, s, B, F)")))?;
                let sq = Square::new(x as u8, y).expect("on the board");
                setup.insert(sq.to_string(), Value::String(p.code().into()));
            }
        }
        Ok(Value::Object(setup))
    }

    /// Sends the result line of every ply the agent has not been told of yet.
    fn flush(&mut self, m: &Match<Stratego>, seat: Seat) -> Result<(), BotFailure> {
        let viewer = Viewer::Player(seat);
        let events = m.events();
        while self.sent < events.len() {
            let v = m.game().view(&events[self.sent], viewer);
            self.prog.send(&result_line(&v))?;
            self.sent += 1;
        }
        Ok(())
    }

    pub(crate) fn ask(&mut self, game: &AnyMatch, seat: Seat) -> Result<Answer, BotFailure> {
        let m = game.as_stratego().ok_or_else(|| BotFailure::Spawn {
            command: "ucc".into(),
            why: "not a Stratego match".into(),
        })?;
        if !self.started {
            self.started = true;
            if seat == Seat::First && m.events().is_empty() {
                self.prog.send("START")?;
            }
        }
        self.flush(m, seat)?;
        for row in board_rows(m, seat) {
            self.prog.send(&row)?;
        }
        let line = self.line()?;
        if line == "SURRENDER" || line == "NO_MOVE" {
            return Ok(Answer::Resign(line));
        }
        match parse_move(&line) {
            Ok(Some((from, to))) => Ok(Answer::Move(format!("{from}-{to}"))),
            Ok(None) => Err(BotFailure::Illegal {
                mv: line,
                why: "the move leaves the board or does not move".into(),
            }),
            Err(why) => Err(BotFailure::BadAnswer {
                answer: line.chars().take(200).collect(),
                why,
            }),
        }
    }

    pub(crate) fn finish(&mut self, game: &AnyMatch, seat: Seat) {
        if let Some(m) = game.as_stratego() {
            let _ = self.flush(m, seat);
        }
        let result = match game.outcome() {
            Some(o) => match o.winner {
                None => format!("DRAW {}", o.reason),
                Some(w) if w == seat => format!("VICTORY {}", o.reason),
                Some(_) => format!("DEFEAT {}", o.reason),
            },
            None => "ERROR".into(),
        };
        let _ = self.prog.send(&format!("QUIT {result}"));
        self.prog.close(Duration::from_millis(200));
    }
}

/// Plays `spec` as a UCC agent on `input`/`output` until `QUIT` or the end of the input.
/// Its knowledge comes only from what the protocol tells it: its colour, its own setup, each
/// move line with its outcome (the ranks of both pieces of an attack), and the boards.
///
/// # Errors
/// A line that is not the protocol, a move the manager reports that cannot be on this board,
/// or an output error; the message says which.
pub fn agent(
    spec: &crate::BotSpec,
    input: impl BufRead,
    mut output: impl Write,
    seed: u64,
) -> Result<(), String> {
    let mut lines = input.lines();
    let mut next = || -> Result<Option<String>, String> {
        loop {
            match lines.next() {
                None => return Ok(None),
                Some(Err(e)) => return Err(format!("cannot read the manager's line: {e}")),
                Some(Ok(l)) => {
                    let l = l.trim().to_string();
                    if !l.is_empty() {
                        return Ok(Some(l));
                    }
                }
            }
        }
    };
    let Some(first) = next()? else { return Ok(()) };
    let seat = match first.split_whitespace().next() {
        Some("RED") => Seat::First,
        Some("BLUE") => Seat::Second,
        _ => {
            return Err(format!(
                "expected \"RED|BLUE opponent 10 10\", got {first:?}"
            ));
        }
    };
    let mut tracker = super::proxy::StrategoTracker::new(spec, seat, seed)?;
    for row in tracker.setup_rows() {
        writeln!(output, "{row}").map_err(|e| e.to_string())?;
    }
    output.flush().map_err(|e| e.to_string())?;
    let mut board = 0;
    let mut turn = 0u64;
    while let Some(l) = next()? {
        if l.starts_with("QUIT") {
            break;
        }
        if l == "START" {
            continue;
        }
        if l.contains(' ') {
            tracker.apply_line(&l)?;
            board = 0;
            continue;
        }
        // A board row; the tenth asks for a move.
        board += 1;
        if board == 10 {
            board = 0;
            turn += 1;
            let text =
                match tracker.choose(spec, seed ^ turn.wrapping_mul(0x2545_F491_4F6C_DD1D))? {
                    Some((from, to)) => move_text(from, to),
                    None => "SURRENDER".into(),
                };
            writeln!(output, "{text}").map_err(|e| e.to_string())?;
            output.flush().map_err(|e| e.to_string())?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use salpakan_engine::stratego::StrategoOptions;

    #[test]
    fn ucc_moves_with_huge_numbers_are_off_the_board_not_a_panic() {
        for line in [
            "2147483647 0 RIGHT",
            "5 0 RIGHT 2147483647",
            "-2147483648 0 LEFT 9",
        ] {
            assert_eq!(parse_move(line), Ok(None), "{line}");
        }
        assert!(parse_move("5 0 RIGHT 2").unwrap().is_some());
    }

    #[test]
    fn ucc_tokens_map_to_ranks_eleven_minus_t() {
        for p in Piece::ALL {
            assert_eq!(piece(token(p)), Some(p), "{p:?}");
        }
        assert_eq!(token(Piece::Marshal), '1');
        assert_eq!(token(Piece::Scout), '9');
        assert_eq!(token(Piece::Miner), '8');
        assert_eq!(piece('#'), None);
    }

    #[test]
    fn ucc_moves_use_x_as_file_and_y_as_rank_minus_one_with_up_towards_red() {
        let sq = |t: &str| t.parse::<Square>().unwrap();
        assert_eq!(move_text(sq("a4"), sq("a5")), "0 3 DOWN");
        assert_eq!(move_text(sq("j7"), sq("j4")), "9 6 UP 3");
        assert_eq!(move_text(sq("c1"), sq("b1")), "2 0 LEFT");
        assert_eq!(parse_move("9 6 UP 3"), Ok(Some((sq("j7"), sq("j4")))));
        assert_eq!(parse_move("0 0 UP"), Ok(None));
        assert!(parse_move("0 0 NORTH").is_err());
        assert!(parse_move("HELLO").is_err());
    }

    #[test]
    fn ucc_board_shows_enemy_pieces_as_hashes_even_after_an_attack_showed_them() {
        let o = StrategoOptions::default();
        let mut m = Match::<Stratego>::random(&o, 4).unwrap();
        let mut rng = salpakan_engine::rng_from_seed(9);
        let mut attacked = false;
        while !attacked && m.game().to_move().is_some() {
            let mv = m.game().random_move(&mut rng).unwrap();
            attacked = m.play(mv).unwrap().attack.is_some();
        }
        assert!(attacked);
        for seat in Seat::BOTH {
            let rows = board_rows(&m, seat);
            let me = GameKind::Stratego.seat_name(seat);
            let all = m.game().observe(Viewer::Arbiter);
            for s in Square::all() {
                let c = rows[s.rank() as usize].as_bytes()[s.file() as usize] as char;
                match all.board.get(&s) {
                    Some(v) if v.owner == me => {
                        assert_eq!(Some(c), v.piece.map(token), "own piece on {s}");
                    }
                    Some(_) => assert_eq!(c, '#', "enemy piece on {s}"),
                    None if s.is_lake() => assert_eq!(c, '+', "lake {s}"),
                    None => assert_eq!(c, '.', "empty {s}"),
                }
            }
        }
    }
}
