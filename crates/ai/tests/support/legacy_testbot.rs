//! Test programs for the legacy protocol adapters: a tiny UCC Stratego agent and a tiny NTU
//! Dark Chess engine, written from the protocol descriptions alone (no salpakan code), that
//! can also misbehave on purpose.
//!
//! `legacy-testbot <ucc|ntu> <mode> [seed] [after]`, where mode is
//! - `simple`: random legal moves (one-square steps; the NTU engine also flips);
//! - `shuffle` (ucc): moves the same piece back and forth whenever it can (trips the
//!   two-squares rule, which the UCC protocol does not know);
//! - `illegal`: after `after` moves, a move the protocol's own rules forbid (a Bomb moves; a
//!   face-down piece moves);
//! - `garbage`: after `after` moves, a line that is not the protocol;
//! - `crash`: after `after` moves, exits with status 3;
//! - `hang`: after `after` moves, stops answering (sleeps for ever);
//! - `badsetup` (ucc): a setup without its Flag;
//! - `surrender` (ucc): after `after` moves, answers `SURRENDER`.
//!
//! With `LEGACY_TESTBOT_PIDFILE` set, the program writes its process id there first.

use std::io::{BufRead, Write};

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Simple,
    Shuffle,
    Illegal,
    Garbage,
    Crash,
    Hang,
    BadSetup,
    Surrender,
}

fn misbehave(mode: Mode, out: &mut impl Write) -> bool {
    match mode {
        Mode::Crash => {
            eprintln!("legacy-testbot: crashing on purpose");
            std::process::exit(3);
        }
        Mode::Hang => loop {
            std::thread::sleep(std::time::Duration::from_secs(1000));
        },
        Mode::Garbage => {
            let _ = writeln!(out, "HELLO WORLD");
            let _ = out.flush();
            true
        }
        _ => false,
    }
}

const RED_SETUP: [&str; 4] = ["FB8sB479B8", "BB31555583", "6724898974", "967B669999"];

fn ucc(mode: Mode, mut rng: Rng, after: u32) {
    let stdin = std::io::stdin();
    let mut out = std::io::stdout();
    let mut lines = stdin.lock().lines();
    let Some(Ok(first)) = lines.next() else {
        return;
    };
    let red = first.starts_with("RED");
    let rows: Vec<&str> = if red {
        RED_SETUP.to_vec()
    } else {
        RED_SETUP.iter().rev().copied().collect()
    };
    for r in rows {
        // A bad setup leaves out the Flag, which every setup must hold.
        let r = if mode == Mode::BadSetup {
            r.replace('F', ".")
        } else {
            r.to_string()
        };
        let _ = writeln!(out, "{r}");
    }
    let _ = out.flush();
    let mut board: Vec<Vec<u8>> = Vec::new();
    let mut turns = 0u32;
    let mut last: Option<((i32, i32), (i32, i32))> = None;
    for line in lines {
        let Ok(line) = line else { return };
        let line = line.trim().to_string();
        if line.starts_with("QUIT") {
            return;
        }
        if line.is_empty() || line == "START" || line.contains(' ') {
            continue;
        }
        board.push(line.into_bytes());
        if board.len() < 10 {
            continue;
        }
        turns += 1;
        let b = std::mem::take(&mut board);
        let own = |c: u8| c.is_ascii_digit() || c == b's' || c == b'B' || c == b'F';
        let at = |x: i32, y: i32| -> Option<u8> {
            (0..10)
                .contains(&x)
                .then_some(())
                .and((0..10).contains(&y).then_some(()))
                .map(|()| b[y as usize][x as usize])
        };
        if turns > after && mode == Mode::Surrender {
            let _ = writeln!(out, "SURRENDER");
            let _ = out.flush();
            return wait_quit();
        }
        if turns > after && mode != Mode::Simple && mode != Mode::Shuffle {
            if misbehave(mode, &mut out) {
                continue;
            }
            // Illegal: move a Bomb.
            for (y, row) in b.iter().enumerate() {
                if let Some(x) = row.iter().position(|&c| c == b'B') {
                    let _ = writeln!(out, "{x} {y} {}", if red { "DOWN" } else { "UP" });
                    let _ = out.flush();
                    return wait_quit();
                }
            }
        }
        let dirs = [
            ("UP", 0, -1),
            ("DOWN", 0, 1),
            ("LEFT", -1, 0),
            ("RIGHT", 1, 0),
        ];
        let mut moves = Vec::new();
        for y in 0..10i32 {
            for x in 0..10i32 {
                let c = b[y as usize][x as usize];
                if !own(c) || c == b'B' || c == b'F' {
                    continue;
                }
                for (name, dx, dy) in dirs {
                    if at(x + dx, y + dy).is_some_and(|t| t != b'+' && !own(t)) {
                        moves.push(((x, y), (x + dx, y + dy), name));
                    }
                }
            }
        }
        if moves.is_empty() {
            let _ = writeln!(out, "SURRENDER");
            let _ = out.flush();
            continue;
        }
        let mut pick = moves[rng.below(moves.len())];
        if mode == Mode::Shuffle {
            if let Some((from, to)) = last {
                if let Some(&back) = moves.iter().find(|m| m.0 == to && m.1 == from) {
                    pick = back;
                }
            }
        }
        last = Some((pick.0, pick.1));
        let _ = writeln!(out, "{} {} {}", pick.0.0, pick.0.1, pick.2);
        let _ = out.flush();
    }
}

fn wait_quit() {
    for line in std::io::stdin().lock().lines() {
        match line {
            Ok(l) if l.starts_with("QUIT") => return,
            Ok(_) => {}
            Err(_) => return,
        }
    }
}

fn ntu(mode: Mode, mut rng: Rng, after: u32) {
    // Squares a1..d8 as index rank * 4 + file; None: empty; Some((piece, face_up)).
    let mut board: [Option<(u8, bool)>; 32] = [Some((b'?', false)); 32];
    let sq = |t: &str| -> Option<usize> {
        let b = t.as_bytes();
        if b.len() != 2 || !(b'a'..=b'd').contains(&b[0]) || !(b'1'..=b'8').contains(&b[1]) {
            return None;
        }
        Some(((b[1] - b'1') * 4 + (b[0] - b'a')) as usize)
    };
    let name = |i: usize| format!("{}{}", (b'a' + (i % 4) as u8) as char, i / 4 + 1);
    let stdin = std::io::stdin();
    let mut out = std::io::stdout();
    let mut turns = 0u32;
    for line in stdin.lock().lines() {
        let Ok(line) = line else { return };
        let w: Vec<&str> = line.split_whitespace().collect();
        let Some(id) = w.first().and_then(|t| t.parse::<u32>().ok()) else {
            continue;
        };
        // Engines print diagrams and notes on stdout; the platform skips them.
        let _ = writeln!(out, "# testbot read: {line}");
        let mut reply = String::new();
        match id {
            1 => reply = "legacy-testbot".into(),
            2 => reply = "1.0".into(),
            7 => board = [Some((b'?', false)); 32],
            10 => {
                if let (Some(a), Some(b)) =
                    (w.get(2).and_then(|t| sq(t)), w.get(3).and_then(|t| sq(t)))
                {
                    board[b] = board[a];
                    board[a] = None;
                }
            }
            11 => {
                if let (Some(a), Some(p)) = (w.get(2).and_then(|t| sq(t)), w.get(3)) {
                    board[a] = Some((p.as_bytes()[0], true));
                }
            }
            12 => {
                turns += 1;
                let colour = w.get(2).copied().unwrap_or("unknown");
                if turns > after && mode != Mode::Simple {
                    if mode == Mode::Garbage {
                        let _ = writeln!(out, "=12 HELLO WORLD");
                        let _ = out.flush();
                        continue;
                    }
                    misbehave(mode, &mut out);
                    // Illegal: move a face-down piece.
                    let i = (0..32).find(|&i| matches!(board[i], Some((_, false))));
                    let r = match i {
                        Some(i) => {
                            format!("{} {}", name(i), name(if i >= 4 { i - 4 } else { i + 4 }))
                        }
                        None => "a1 a2".into(),
                    };
                    let _ = writeln!(out, "=12 {r}");
                    let _ = out.flush();
                    continue;
                }
                let mut moves: Vec<(usize, usize)> = (0..32)
                    .filter(|&i| matches!(board[i], Some((_, false))))
                    .map(|i| (i, i))
                    .collect();
                if colour != "unknown" {
                    let mine = |c: u8| {
                        if colour == "red" {
                            c.is_ascii_uppercase()
                        } else {
                            c.is_ascii_lowercase()
                        }
                    };
                    for i in 0..32usize {
                        if board[i].is_some_and(|(p, up)| up && mine(p)) {
                            let (f, r) = ((i % 4) as i32, (i / 4) as i32);
                            let p = board[i].map_or(b'?', |x| x.0);
                            let rank = |c: u8| {
                                b"KGMRNCP".iter().position(|&k| k == c.to_ascii_uppercase())
                            };
                            for (df, dr) in [(0, 1), (0, -1), (1, 0), (-1, 0)] {
                                let (tf, tr) = (f + df, r + dr);
                                if (0..4).contains(&tf) && (0..8).contains(&tr) {
                                    let t = (tr * 4 + tf) as usize;
                                    match board[t] {
                                        None => moves.push((i, t)),
                                        // A step capture (Taiwan): not by a Cannon; the
                                        // General takes no Soldier; a Soldier takes the General.
                                        Some((q, true)) if !mine(q) => {
                                            let (a, v) = (rank(p), rank(q));
                                            let takes = match (a, v) {
                                                (Some(5), _) => false,
                                                (Some(0), Some(6)) => false,
                                                (Some(6), Some(0)) => true,
                                                (Some(a), Some(v)) => a <= v,
                                                _ => false,
                                            };
                                            if takes {
                                                moves.push((i, t));
                                            }
                                        }
                                        _ => {}
                                    }
                                    // A Cannon jumps exactly one piece to capture.
                                    if rank(p) == Some(5) {
                                        let (mut cf, mut cr, mut screens) = (tf, tr, 0);
                                        while (0..4).contains(&cf) && (0..8).contains(&cr) {
                                            let c = (cr * 4 + cf) as usize;
                                            if let Some((q, up)) = board[c] {
                                                if screens == 1 {
                                                    if up && !mine(q) {
                                                        moves.push((i, c));
                                                    }
                                                    break;
                                                }
                                                screens += 1;
                                            }
                                            cf += df;
                                            cr += dr;
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
                if moves.is_empty() {
                    let _ = writeln!(out, "?12");
                    let _ = out.flush();
                    continue;
                }
                let (a, b) = moves[rng.below(moves.len())];
                reply = format!("{} {}", name(a), name(b));
            }
            _ => {}
        }
        if reply.is_empty() {
            let _ = writeln!(out, "={id}");
        } else {
            let _ = writeln!(out, "={id} {reply}");
        }
        let _ = out.flush();
        if id == 5 {
            return;
        }
    }
}

fn main() {
    if let Ok(path) = std::env::var("LEGACY_TESTBOT_PIDFILE") {
        let _ = std::fs::write(path, std::process::id().to_string());
    }
    let args: Vec<String> = std::env::args().collect();
    let mode = match args.get(2).map(String::as_str) {
        Some("shuffle") => Mode::Shuffle,
        Some("illegal") => Mode::Illegal,
        Some("garbage") => Mode::Garbage,
        Some("crash") => Mode::Crash,
        Some("hang") => Mode::Hang,
        Some("badsetup") => Mode::BadSetup,
        Some("surrender") => Mode::Surrender,
        _ => Mode::Simple,
    };
    let seed = args.get(3).and_then(|s| s.parse::<u64>().ok()).unwrap_or(1);
    let after = args.get(4).and_then(|s| s.parse::<u32>().ok()).unwrap_or(5);
    let rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    match args.get(1).map(String::as_str) {
        Some("ucc") => ucc(mode, rng, after),
        Some("ntu") => ntu(mode, rng, after),
        _ => {
            eprintln!(
                "usage: legacy-testbot <ucc|ntu> <simple|shuffle|illegal|garbage|crash|hang|badsetup|surrender> [seed] [after]"
            );
            std::process::exit(2);
        }
    }
}
