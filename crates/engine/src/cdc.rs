//! Import of computer Dark Chess (CDC) text records into full Banqi records.
//!
//! The format, as written by the common program-versus-program platforms:
//!
//! ```text
//! INITIAL
//! * 4:21pm Jan 17, 2022
//! * PlayerA vs PlayerB                  (first mover first)
//! * 1 2 2 2 2 2 5 1 2 2 2 2 2 5         piece counts K G M R N C P then k g m r n c p
//! * X X X X                             8 lines of 4 squares (X = face down)
//! * first 0                             colour of the first mover: 0 red, 1 black
//! * time 900
//! * 1. b5(G) d5(R)                      a flip is square(piece); a move or capture a8-b8
//! * NoMove PlayerB wins 0,1             the result line; scores are first mover, second
//! * Comment 0 0
//! ```
//!
//! A CDC record shows only what each flip revealed, so [`import_cdc`] builds a deal that
//! agrees with every revealed piece: the squares never flipped get the remaining pieces in
//! the fixed order `K G M R N C P k g m r n c p`, in square order `a1 b1 c1 d1 a2 …`. The
//! record says so with `[DealSource "reconstructed"]`. The salt of the commitment is drawn
//! from a generator seeded with the SHA-256 of the file's content, so the same file always
//! gives the same record, and `record verify` passes.
//!
//! The games are played by [`BanqiOptions::cdc`]: Taiwan rules, the no-progress limit given
//! (60 plies by default) and the platforms' repetition rule (a cycle of plies played three
//! times in a row draws). Every ply is played by the engine, which must reach the recorded
//! result on its own (`NoMove`, `NoEatFlipDraw`, `PositionRepetitionDraw`); only a loss on
//! time (`TimeOut`) or a resignation is concluded from outside the board.

use rand::SeedableRng;
use sha2::{Digest, Sha256};

use crate::banqi::{Banqi, BanqiOptions, Deal, Move, Piece, Square};
use crate::{Copy, EndReason, Game, GameRng, Match, Outcome, PlayError, Record, Seat};

/// The no-progress limit of the CDC platforms, in plies.
pub const DEFAULT_QUIET_LIMIT: u32 = 60;

/// Why a CDC record could not be imported. Every message names the file and the line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ImportError {
    /// A line that is not what the format allows there.
    #[error("{file}:{line}: {message}")]
    Syntax {
        /// The file name.
        file: String,
        /// 1-based line number.
        line: usize,
        /// What is wrong, and what was expected.
        message: String,
    },
    /// A valid record of something this importer does not support (another piece set, a
    /// game that does not start with all pieces face down).
    #[error("{file}:{line}: not supported: {message}")]
    Unsupported {
        /// The file name.
        file: String,
        /// 1-based line number.
        line: usize,
        /// What is not supported.
        message: String,
    },
    /// The flips reveal pieces that no deal can hold (too many of a piece, a square flipped
    /// twice, the first flip's colour disagreeing with the `first` line).
    #[error("{file}:{line}: inconsistent record: {message}")]
    Inconsistent {
        /// The file name.
        file: String,
        /// 1-based line number.
        line: usize,
        /// What disagrees.
        message: String,
    },
    /// A ply the rules refuse.
    #[error("{file}:{line}: ply {ply} ({token}): {error}")]
    Illegal {
        /// The file name.
        file: String,
        /// 1-based line number.
        line: usize,
        /// 1-based ply number.
        ply: usize,
        /// The ply as written in the file.
        token: String,
        /// Why the engine refused it.
        error: PlayError,
    },
    /// The recorded result disagrees with what the engine found.
    #[error("{file}:{line}: the record says {recorded}, but the engine finds {engine}")]
    ResultMismatch {
        /// The file name.
        file: String,
        /// 1-based line number of the result line.
        line: usize,
        /// What the record says.
        recorded: String,
        /// What the engine found.
        engine: String,
    },
}

/// One ply as read from the file.
struct Ply {
    line: usize,
    token: String,
    mv: Move,
    revealed: Option<Piece>,
}

/// The result line.
struct ResultLine {
    line: usize,
    text: String,
    kind: String,
    winner: Option<Seat>,
}

/// Converts one CDC record to a full Banqi [`Record`] (see the module docs).
///
/// `quiet_limit` is the platform's no-progress limit in plies (`None`: 60).
///
/// # Errors
/// An [`ImportError`] naming the file and the line: bad syntax, an unsupported piece set or
/// start position, revealed pieces no deal can hold, a ply the rules refuse, or a result the
/// engine does not reach.
// Over 100 lines: one pass over the file's lines (header, moves, result line) and then the
// deal from what the flips revealed; each part reads the state the previous one built.
#[allow(clippy::too_many_lines)]
pub fn import_cdc(
    text: &str,
    file_name: &str,
    quiet_limit: Option<u32>,
) -> Result<Record, ImportError> {
    let file = file_name.to_string();
    let syntax = |line: usize, message: String| ImportError::Syntax {
        file: file.clone(),
        line,
        message,
    };
    let mut date = None;
    let mut players: Option<(String, String)> = None;
    let mut rows = 0;
    let mut first_color: Option<(usize, u8)> = None;
    let mut time = None;
    let mut plies: Vec<Ply> = Vec::new();
    let mut result: Option<ResultLine> = None;
    let mut header = true;
    let mut seen_initial = false;
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let line = raw.trim();
        if line.is_empty() {
            continue;
        }
        if !seen_initial && line.eq_ignore_ascii_case("INITIAL") {
            seen_initial = true;
            continue;
        }
        let Some(body) = line.strip_prefix('*') else {
            return Err(syntax(
                n,
                format!("{line:?}: every line after INITIAL starts with \"* \""),
            ));
        };
        let body = body.trim();
        let words: Vec<&str> = body.split_whitespace().collect();
        if words.is_empty() {
            continue;
        }
        if result.is_some() {
            if words[0].eq_ignore_ascii_case("Comment") {
                continue;
            }
            return Err(syntax(
                n,
                format!("{body:?} after the result line; only a Comment line may follow it"),
            ));
        }
        if words[0].eq_ignore_ascii_case("Comment") {
            continue;
        }
        // A move line: "12. a8(r) b3-b4".
        if let Some(num) = words[0].strip_suffix('.') {
            if let Ok(k) = num.parse::<usize>() {
                header = false;
                if k != plies.len() / 2 + 1 || plies.len() % 2 != 0 {
                    return Err(syntax(
                        n,
                        format!(
                            "move number {k}: expected {} (one line per move number, the first \
                             mover's ply then the second mover's)",
                            plies.len() / 2 + 1
                        ),
                    ));
                }
                if words.len() < 2 || words.len() > 3 {
                    return Err(syntax(
                        n,
                        format!("{body:?}: a move line holds the number and one or two plies"),
                    ));
                }
                for w in &words[1..] {
                    let (mv, revealed) = parse_ply(w).map_err(|m| syntax(n, m))?;
                    plies.push(Ply {
                        line: n,
                        token: (*w).to_string(),
                        mv,
                        revealed,
                    });
                }
                continue;
            }
        }
        if header {
            if words.len() == 14 && words.iter().all(|w| w.parse::<u8>().is_ok()) {
                let counts: Vec<u8> = words.iter().map(|w| w.parse().expect("checked")).collect();
                let standard: Vec<u8> = Piece::ALL.iter().map(|p| p.count()).collect();
                if counts != standard {
                    return Err(ImportError::Unsupported {
                        file: file.clone(),
                        line: n,
                        message: format!(
                            "piece counts {body}: only the full set 1 2 2 2 2 2 5 1 2 2 2 2 2 5 \
                             can be imported"
                        ),
                    });
                }
                continue;
            }
            if words.len() == 4
                && words
                    .iter()
                    .all(|w| *w == "X" || *w == "-" || Piece::from_code_str(w).is_some())
            {
                if words.iter().any(|w| *w != "X") {
                    return Err(ImportError::Unsupported {
                        file: file.clone(),
                        line: n,
                        message: format!(
                            "board row {body:?}: only games that start with all 32 pieces face \
                             down (X X X X) can be imported"
                        ),
                    });
                }
                rows += 1;
                if rows > 8 {
                    return Err(syntax(n, "more than 8 board rows".into()));
                }
                continue;
            }
            if words[0] == "first" {
                let c = words
                    .get(1)
                    .and_then(|w| w.parse::<u8>().ok())
                    .filter(|&c| c <= 1 && words.len() == 2)
                    .ok_or_else(|| {
                        syntax(
                            n,
                            format!("{body:?}: write first 0 (red moves first) or first 1 (black)"),
                        )
                    })?;
                first_color = Some((n, c));
                continue;
            }
            if words[0] == "time" {
                time = words.get(1).map(|s| (*s).to_string());
                continue;
            }
            if words.len() >= 3 && words[1] == "vs" && players.is_none() {
                // The first word, then `vs` after any white space (not only a space).
                let rest = body.trim_start()[words[0].len()..].trim_start();
                let b = rest.strip_prefix(words[1]).unwrap_or(rest);
                players = Some((words[0].to_string(), b.trim().to_string()));
                continue;
            }
            if date.is_none() && players.is_none() {
                date = Some(body.to_string());
                continue;
            }
        }
        // The result line: "NoMove PlayerB Wins 0.000000,1.000000".
        let kind = words[0].split(',').next().unwrap_or("").to_string();
        let known = [
            "NoMove",
            "NoEatFlipDraw",
            "PositionRepetitionDraw",
            "TimeOut",
            "Resign",
        ];
        if known.contains(&kind.as_str()) {
            let scores = words.last().expect("non-empty");
            let (a, b) = scores
                .split_once(',')
                .and_then(|(a, b)| Some((a.parse::<f64>().ok()?, b.parse::<f64>().ok()?)))
                .ok_or_else(|| {
                    syntax(
                        n,
                        format!(
                            "result line {body:?}: it must end with the scores of the first and \
                             second mover, e.g. 1,0 or 0.5,0.5"
                        ),
                    )
                })?;
            let winner = if a > b {
                Some(Seat::First)
            } else if b > a {
                Some(Seat::Second)
            } else {
                None
            };
            result = Some(ResultLine {
                line: n,
                text: body.to_string(),
                kind,
                winner,
            });
            continue;
        }
        return Err(syntax(
            n,
            format!(
                "{body:?} is not a CDC record line (expected a date, \"A vs B\", piece counts, a \
                 board row, first, time, a numbered move line or a result such as NoMove, \
                 NoEatFlipDraw, PositionRepetitionDraw or TimeOut)"
            ),
        ));
    }
    let last = text.lines().count().max(1);
    if !seen_initial {
        return Err(syntax(
            1,
            "a CDC record starts with the line INITIAL".into(),
        ));
    }
    if rows != 8 && rows != 0 {
        return Err(syntax(
            last,
            format!("the board has {rows} rows; a CDC board has 8 rows of 4 squares"),
        ));
    }

    // The deal: every flip reveals the piece on its square (face-down pieces never move).
    let mut cells: [Option<Piece>; 32] = [None; 32];
    let mut flipped_at = [0usize; 32];
    let mut counts = [0u8; 14];
    let inconsistent = |line: usize, message: String| ImportError::Inconsistent {
        file: file.clone(),
        line,
        message,
    };
    for p in &plies {
        if let (Move::Flip(sq), Some(piece)) = (p.mv, p.revealed) {
            if flipped_at[sq.index()] != 0 {
                return Err(inconsistent(
                    p.line,
                    format!(
                        "{} flips {sq}, which was already flipped on line {}",
                        p.token,
                        flipped_at[sq.index()]
                    ),
                ));
            }
            flipped_at[sq.index()] = p.line;
            counts[piece.index()] += 1;
            if counts[piece.index()] > piece.count() {
                return Err(inconsistent(
                    p.line,
                    format!(
                        "{} reveals a {} {piece}, but a set has only {}",
                        p.token,
                        ordinal(counts[piece.index()]),
                        piece.count()
                    ),
                ));
            }
            cells[sq.index()] = Some(piece);
        }
    }
    if let (Some((line, c)), Some(first)) = (first_color, plies.iter().find_map(|p| p.revealed)) {
        if first.color as u8 != c {
            return Err(inconsistent(
                line,
                format!(
                    "first {c} says the first mover plays {}, but its first flip reveals {first} ({})",
                    if c == 0 { "red" } else { "black" },
                    first.color.name()
                ),
            ));
        }
    }
    let mut rest = Piece::ALL
        .iter()
        .flat_map(|&p| std::iter::repeat_n(p, usize::from(p.count() - counts[p.index()])));
    let mut pieces = [Piece::ALL[0]; 32];
    for s in Square::all() {
        pieces[s.index()] = match cells[s.index()] {
            Some(p) => p,
            None => rest.next().expect("32 pieces in all"),
        };
    }
    let deal = Deal::new(pieces).expect("a full set by construction");

    let options = BanqiOptions::cdc(quiet_limit.unwrap_or(DEFAULT_QUIET_LIMIT));
    let digest: [u8; 32] = Sha256::digest(text.as_bytes()).into();
    let mut rng = GameRng::from_seed(digest);
    let mut m = Match::<Banqi>::start(&options, deal, &mut rng)
        .map_err(|e| inconsistent(1, format!("the reconstructed deal was refused: {e}")))?;
    if let Some((a, b)) = &players {
        m.set_tag("First", a.clone());
        m.set_tag("Second", b.clone());
    }
    m.set_tag("Event", "computer Dark Chess game");
    if let Some(d) = &date {
        m.set_tag("Date", d.clone());
    }
    if let Some(t) = &time {
        m.set_tag("TimeControl", t.clone());
    }
    m.set_tag("Source", file_name);
    m.set_tag("DealSource", "reconstructed");
    for (i, p) in plies.iter().enumerate() {
        m.play(p.mv).map_err(|error| ImportError::Illegal {
            file: file.clone(),
            line: p.line,
            ply: i + 1,
            token: p.token.clone(),
            error,
        })?;
    }

    let engine = m.game().outcome();
    let describe = |o: Option<Outcome>| match o {
        None => "a game still in progress".to_string(),
        Some(o) => format!(
            "{} by {}",
            match o.winner {
                Some(Seat::First) => "a win for the first mover",
                Some(Seat::Second) => "a win for the second mover",
                None => "a draw",
            },
            o.reason
        ),
    };
    if let Some(r) = &result {
        let mismatch = |engine: Option<Outcome>| ImportError::ResultMismatch {
            file: file.clone(),
            line: r.line,
            recorded: format!("{:?}", r.text),
            engine: describe(engine),
        };
        let expected: &[EndReason] = match r.kind.as_str() {
            "NoMove" => &[EndReason::NoLegalMoves, EndReason::NoPiecesLeft],
            "NoEatFlipDraw" => &[EndReason::QuietPlies],
            "PositionRepetitionDraw" => &[EndReason::Repetition],
            _ => &[],
        };
        if expected.is_empty() {
            // Decided off the board: time or resignation.
            if engine.is_some() {
                return Err(mismatch(engine));
            }
            let reason = if r.kind == "TimeOut" {
                EndReason::Time
            } else {
                EndReason::Resignation
            };
            let winner = r.winner.ok_or_else(|| mismatch(engine))?;
            m.conclude(Outcome::win(winner, reason))
                .map_err(|_| mismatch(engine))?;
        } else {
            match engine {
                Some(o) if expected.contains(&o.reason) && o.winner == r.winner => {}
                _ => return Err(mismatch(engine)),
            }
        }
    } else if engine.is_some() {
        return Err(ImportError::ResultMismatch {
            file: file.clone(),
            line: last,
            recorded: "no result (a game in progress)".into(),
            engine: describe(engine),
        });
    }
    Ok(m.record(Copy::Full))
}

fn ordinal(n: u8) -> String {
    match n {
        1 => "1st".into(),
        2 => "2nd".into(),
        3 => "3rd".into(),
        n => format!("{n}th"),
    }
}

/// Parses `b5(G)` (a flip) or `a8-b8` (a move or capture).
fn parse_ply(w: &str) -> Result<(Move, Option<Piece>), String> {
    if let Some((sq, rest)) = w.split_once('(') {
        let code = rest
            .strip_suffix(')')
            .ok_or_else(|| format!("{w:?}: a flip is written square(piece), e.g. b5(G)"))?;
        let piece = Piece::from_code_str(code).ok_or_else(|| {
            format!("{w:?}: {code:?} is not a piece code (K G M R N C P red, k g m r n c p black)")
        })?;
        let sq: Square = sq.parse().map_err(|e| format!("{w:?}: {e}"))?;
        return Ok((Move::Flip(sq), Some(piece)));
    }
    if w.contains('-') {
        let mv: Move = w.parse().map_err(|e: PlayError| e.to_string())?;
        return Ok((mv, None));
    }
    Err(format!(
        "{w:?} is not a CDC ply: a flip is square(piece), e.g. b5(G); a move or capture is \
         from-to, e.g. a8-b8"
    ))
}
