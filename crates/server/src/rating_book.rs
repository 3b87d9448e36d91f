//! The ratings kept by a running server: every account's (and built-in bot's) Glicko-2
//! rating per board and each player's finished and abandoned games, in memory for the
//! lobby and the game ends, stored in the tables of migration 2. A game's end yields the
//! rows to store with its result, in the same transaction.

use std::collections::HashMap;
use std::sync::Mutex;

use rusqlite::{Connection, params};
use salpakan_engine::{EndReason, GameKind, Seat};
use serde_json::{Value, json};

use crate::game::Player;
use crate::rating::{self, Glicko};
use crate::store::Op;

/// Migration 2: ratings per board with their history, every finished game of each human
/// player (the history pages, the W/D/L counts and the completion rate), kudos and
/// reports.
pub(crate) const MIGRATION_2: &str = "
CREATE TABLE ratings (
  user TEXT NOT NULL, board TEXT NOT NULL,
  rating REAL NOT NULL, rd REAL NOT NULL, vol REAL NOT NULL,
  games INTEGER NOT NULL, wins INTEGER NOT NULL, draws INTEGER NOT NULL, losses INTEGER NOT NULL,
  -- when its last rated game ended (Unix ms)
  last INTEGER NOT NULL,
  PRIMARY KEY (user, board)
);
CREATE TABLE rating_history (
  user TEXT NOT NULL, board TEXT NOT NULL, at INTEGER NOT NULL, rating REAL NOT NULL,
  game TEXT NOT NULL,
  PRIMARY KEY (user, board, at, game)
);
CREATE TABLE played (
  user TEXT NOT NULL, game TEXT NOT NULL, seat INTEGER NOT NULL, kind TEXT NOT NULL,
  board TEXT, rated INTEGER NOT NULL,
  opponent TEXT, opponent_name TEXT NOT NULL, opponent_account INTEGER NOT NULL,
  -- win, loss or draw; the end's reason
  result TEXT NOT NULL, reason TEXT NOT NULL,
  abandoned INTEGER NOT NULL,
  rating_diff INTEGER,
  ended INTEGER NOT NULL,
  PRIMARY KEY (user, game)
);
CREATE INDEX played_user_ended ON played (user, ended);
CREATE TABLE kudos (
  game TEXT NOT NULL, giver TEXT NOT NULL, receiver TEXT NOT NULL, at INTEGER NOT NULL,
  PRIMARY KEY (game, giver)
);
CREATE INDEX kudos_receiver ON kudos (receiver);
CREATE TABLE reports (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  at INTEGER NOT NULL,
  reporter TEXT NOT NULL, reporter_name TEXT NOT NULL,
  target TEXT NOT NULL, target_name TEXT NOT NULL,
  game TEXT, reason TEXT NOT NULL, text TEXT NOT NULL
);
";

/// One player's rating on one board with its counts (a new player's by default).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Entry {
    /// The Glicko-2 rating.
    pub g: Glicko,
    /// Rated games.
    pub games: u64,
    /// Rated wins.
    pub wins: u64,
    /// Rated draws.
    pub draws: u64,
    /// Rated losses.
    pub losses: u64,
    /// When its last rated game ended (ms; 0 for none).
    pub last: u64,
}

/// A finished game of one human player.
#[derive(Clone, Debug)]
pub struct PlayedRow {
    /// The player.
    pub user: String,
    /// The game.
    pub game: String,
    /// The player's seat index.
    pub seat: usize,
    /// The game's kind.
    pub kind: String,
    /// Its board, none for casual-only options.
    pub board: Option<&'static str>,
    /// Whether the player's rating moved.
    pub rated: bool,
    /// The opponent's user id (none for a bot).
    pub opponent: Option<String>,
    /// The opponent's name then.
    pub opponent_name: String,
    /// Whether the opponent was an account (or a built-in bot's).
    pub opponent_account: bool,
    /// `win`, `loss` or `draw`.
    pub result: &'static str,
    /// The end's reason.
    pub reason: String,
    /// Whether it counts as abandoned by the player.
    pub abandoned: bool,
    /// The player's rating change, for a rated game.
    pub rating_diff: Option<i64>,
    /// When it ended (ms).
    pub ended: u64,
}

/// A write of ratings and reputation.
#[derive(Clone, Debug)]
pub enum RatingOp {
    /// A player's rating on a board, after a game.
    Rating {
        /// The player (account or bot account id).
        user: String,
        /// The board.
        board: &'static str,
        /// The new entry.
        entry: Entry,
        /// The game that moved it.
        game: String,
    },
    /// A human player's finished game.
    Played(PlayedRow),
    /// A "good game".
    Kudos {
        /// The game.
        game: String,
        /// Who gives it.
        giver: String,
        /// Who gets it.
        receiver: String,
        /// When (ms).
        at: u64,
    },
    /// A report for moderators.
    Report {
        /// When (ms).
        at: u64,
        /// Who reports (id, name).
        reporter: (String, String),
        /// Who is reported (id, name).
        target: (String, String),
        /// The game it is about.
        game: Option<String>,
        /// `cheating`, `abuse`, `stalling` or `other`.
        reason: String,
        /// The reporter's words.
        text: String,
    },
}

fn ms(v: u64) -> i64 {
    i64::try_from(v).unwrap_or(i64::MAX)
}

fn count(v: i64) -> u64 {
    u64::try_from(v).unwrap_or(0)
}

/// Applies one write (inside the store's transaction).
pub(crate) fn apply(c: &Connection, op: &RatingOp) -> rusqlite::Result<()> {
    match op {
        RatingOp::Rating {
            user,
            board,
            entry: e,
            game,
        } => {
            c.prepare_cached(
                "INSERT OR REPLACE INTO ratings (user, board, rating, rd, vol, games, wins, draws, losses, last)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
            )?
            .execute(params![
                user,
                board,
                e.g.rating,
                e.g.rd,
                e.g.vol,
                ms(e.games),
                ms(e.wins),
                ms(e.draws),
                ms(e.losses),
                ms(e.last)
            ])?;
            c.prepare_cached(
                "INSERT OR REPLACE INTO rating_history (user, board, at, rating, game) VALUES (?1, ?2, ?3, ?4, ?5)",
            )?
            .execute(params![user, board, ms(e.last), e.g.rating, game])?;
        }
        RatingOp::Played(p) => {
            c.prepare_cached(
                "INSERT OR REPLACE INTO played (user, game, seat, kind, board, rated, opponent, opponent_name,
                   opponent_account, result, reason, abandoned, rating_diff, ended)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)",
            )?
            .execute(params![
                p.user,
                p.game,
                ms(p.seat as u64),
                p.kind,
                p.board,
                p.rated,
                p.opponent,
                p.opponent_name,
                p.opponent_account,
                p.result,
                p.reason,
                p.abandoned,
                p.rating_diff,
                ms(p.ended)
            ])?;
        }
        RatingOp::Kudos {
            game,
            giver,
            receiver,
            at,
        } => {
            c.prepare_cached(
                "INSERT INTO kudos (game, giver, receiver, at) VALUES (?1, ?2, ?3, ?4)",
            )?
            .execute(params![game, giver, receiver, ms(*at)])?;
        }
        RatingOp::Report {
            at,
            reporter,
            target,
            game,
            reason,
            text,
        } => {
            c.prepare_cached(
                "INSERT INTO reports (at, reporter, reporter_name, target, target_name, game, reason, text)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
            )?
            .execute(params![
                ms(*at),
                reporter.0,
                reporter.1,
                target.0,
                target.1,
                game,
                reason,
                text
            ])?;
        }
    }
    Ok(())
}

/// What a starting server reads of the ratings tables.
#[derive(Debug, Default)]
pub struct BookRows {
    ratings: Vec<(String, String, Entry)>,
    rep: Vec<(String, u64, u64)>,
}

/// Reads the ratings and each player's finished and abandoned games.
pub(crate) fn load(c: &Connection) -> rusqlite::Result<BookRows> {
    let ratings = c
        .prepare(
            "SELECT user, board, rating, rd, vol, games, wins, draws, losses, last FROM ratings",
        )?
        .query_map([], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?,
                Entry {
                    g: Glicko {
                        rating: r.get(2)?,
                        rd: r.get(3)?,
                        vol: r.get(4)?,
                    },
                    games: count(r.get(5)?),
                    wins: count(r.get(6)?),
                    draws: count(r.get(7)?),
                    losses: count(r.get(8)?),
                    last: count(r.get(9)?),
                },
            ))
        })?
        .collect::<rusqlite::Result<_>>()?;
    let rep = c
        .prepare("SELECT user, SUM(abandoned = 0), SUM(abandoned) FROM played GROUP BY user")?
        .query_map([], |r| {
            Ok((r.get::<_, String>(0)?, count(r.get(1)?), count(r.get(2)?)))
        })?
        .collect::<rusqlite::Result<_>>()?;
    Ok(BookRows { ratings, rep })
}

/// A game's end, as the ratings need it.
#[derive(Debug)]
pub struct GameEnd<'a> {
    /// The game.
    pub game: &'a str,
    /// Its kind.
    pub kind: GameKind,
    /// Its board, none for casual-only options.
    pub board: Option<&'static str>,
    /// Its seats.
    pub players: &'a [Player; 2],
    /// The winner, none for a draw.
    pub winner: Option<Seat>,
    /// Why it ended.
    pub reason: EndReason,
    /// The seat whose clock ran when it ended and the time it had left when its turn
    /// began (ms): all spent without a move when it lost on time.
    pub turn: Option<(Seat, u64)>,
}

/// What a game's end changes: the rows to store with its result, the rating changes for
/// the `end` event, and how to take the change back if the store refuses it.
#[derive(Debug, Default)]
pub struct Finished {
    /// The rows to store in the same transaction as the result.
    pub ops: Vec<Op>,
    /// `{"<seat>":{"before","after","diff","provisional"}}` for the rated seats; none when
    /// no rating moved.
    pub ratings: Option<Value>,
    /// The entries as they were before (none where there was none).
    undo: Vec<((String, &'static str), Option<Entry>)>,
    /// The finished and abandoned counts before.
    undo_rep: Vec<(String, (u64, u64))>,
}

/// The ratings and completion counts of every player, in memory.
#[derive(Debug)]
pub struct Book {
    entries: Mutex<HashMap<(String, &'static str), Entry>>,
    rep: Mutex<HashMap<String, (u64, u64)>>,
    provisional_rd: f64,
    /// Held while a kudos is checked and stored (once per game and giver).
    pub(crate) kudos_lock: tokio::sync::Mutex<()>,
}

/// A board name as the `'static` one of [`rating::BOARDS`].
#[must_use]
pub fn board_name(b: &str) -> Option<&'static str> {
    rating::BOARDS.iter().find(|x| **x == b).copied()
}

impl Book {
    /// The book of the stored rows.
    #[must_use]
    pub fn new(rows: BookRows, provisional_rd: f64) -> Book {
        let entries = rows
            .ratings
            .into_iter()
            .filter_map(|(u, b, e)| Some(((u, board_name(&b)?), e)))
            .collect();
        let rep = rows.rep.into_iter().map(|(u, f, a)| (u, (f, a))).collect();
        Book {
            entries: Mutex::new(entries),
            rep: Mutex::new(rep),
            provisional_rd,
            kudos_lock: tokio::sync::Mutex::new(()),
        }
    }

    /// The RD above which a rating is provisional.
    #[must_use]
    pub fn provisional_rd(&self) -> f64 {
        self.provisional_rd
    }

    /// `user`'s entry on `board` (a new player's when it has none).
    #[must_use]
    pub fn entry(&self, user: &str, board: &'static str) -> Entry {
        self.entries
            .lock()
            .expect("lock")
            .get(&(user.to_string(), board))
            .copied()
            .unwrap_or_default()
    }

    /// `user`'s shown rating on `board` and whether it is provisional.
    #[must_use]
    pub fn shown(&self, user: &str, board: &'static str) -> (i64, bool) {
        let e = self.entry(user, board);
        (rating::shown(e.g.rating), e.g.rd > self.provisional_rd)
    }

    /// `user`'s games finished by play and abandoned.
    #[must_use]
    pub fn reputation(&self, user: &str) -> (u64, u64) {
        self.rep
            .lock()
            .expect("lock")
            .get(user)
            .copied()
            .unwrap_or((0, 0))
    }

    /// `user`'s completion rate in percent, none before 5 games.
    #[must_use]
    pub fn completion(&self, user: &str) -> Option<i64> {
        let (f, a) = self.reputation(user);
        rating::completion(f, a)
    }

    /// Fills a seat's shown rating for a game on `board` (accounts and rated bots only).
    pub fn fill(&self, p: &mut Player, board: Option<&'static str>) {
        p.rating = None;
        p.provisional = false;
        if let (Some(b), Some(id)) = (board, p.rating_id()) {
            if p.account {
                let (r, prov) = self.shown(id, b);
                p.rating = Some(r);
                p.provisional = prov;
            }
        }
    }

    /// A game's end at `now` (Unix ms): new ratings for its rated seats, each human's
    /// finished game and completion count. Memory changes at once; the caller stores
    /// [`Finished::ops`] with the result and calls [`Book::undo`] if that fails.
    #[must_use]
    pub fn game_over(&self, end: &GameEnd<'_>, now: u64) -> Finished {
        let mut f = Finished::default();
        let score = |s: Seat| match end.winner {
            Some(w) if w == s => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        };
        let mut diffs: [Option<i64>; 2] = [None, None];
        if let Some(board) = end.board {
            let rated = Seat::BOTH.map(|s| {
                let p = &end.players[s.index()];
                p.rated && p.account && p.rating_id().is_some()
            });
            if rated.iter().any(|r| *r) {
                let mut entries = self.entries.lock().expect("lock");
                let ids = Seat::BOTH.map(|s| {
                    end.players[s.index()]
                        .rating_id()
                        .unwrap_or_default()
                        .to_string()
                });
                let before = Seat::BOTH.map(|s| {
                    entries
                        .get(&(ids[s.index()].clone(), board))
                        .copied()
                        .unwrap_or_default()
                });
                let mut out = serde_json::Map::new();
                for s in Seat::BOTH {
                    let i = s.index();
                    if !rated[i] {
                        continue;
                    }
                    let b = before[i];
                    let o = before[1 - i];
                    let g = rating::rate_period(
                        b.g,
                        &[rating::Game {
                            opponent: o.g,
                            score: score(s),
                        }],
                        rating::periods_since(b.last, now),
                        rating::TAU,
                        true,
                    );
                    let mut e = Entry {
                        g,
                        games: b.games + 1,
                        last: now,
                        ..b
                    };
                    match end.winner {
                        Some(w) if w == s => e.wins += 1,
                        Some(_) => e.losses += 1,
                        None => e.draws += 1,
                    }
                    let key = (ids[i].clone(), board);
                    f.undo.push((key.clone(), entries.get(&key).copied()));
                    entries.insert(key, e);
                    let (before_r, after_r) = (rating::shown(b.g.rating), rating::shown(g.rating));
                    diffs[i] = Some(after_r - before_r);
                    out.insert(
                        end.kind.seat_name(s).into(),
                        json!({"before": before_r, "after": after_r, "diff": after_r - before_r,
                               "provisional": g.rd > self.provisional_rd}),
                    );
                    f.ops.push(Op::Rating(RatingOp::Rating {
                        user: ids[i].clone(),
                        board,
                        entry: e,
                        game: end.game.to_string(),
                    }));
                }
                f.ratings = Some(Value::Object(out));
            }
        }
        let mut rep = self.rep.lock().expect("lock");
        for s in Seat::BOTH {
            let i = s.index();
            let p = &end.players[i];
            let Some(user) = &p.user else { continue };
            let o = &end.players[1 - i];
            let won = end.winner.map(|w| w == s);
            let turn = end.turn.and_then(|(t, ms)| (t == s).then_some(ms));
            let abandoned = rating::abandoned(end.reason, won, turn);
            let r = rep.entry(user.clone()).or_insert((0, 0));
            f.undo_rep.push((user.clone(), *r));
            if abandoned {
                r.1 += 1;
            } else {
                r.0 += 1;
            }
            f.ops.push(Op::Rating(RatingOp::Played(PlayedRow {
                user: user.clone(),
                game: end.game.to_string(),
                seat: i,
                kind: end.kind.name().to_string(),
                board: end.board,
                rated: diffs[i].is_some(),
                opponent: o.user.clone().or_else(|| o.rating_id().map(str::to_string)),
                opponent_name: o.name.clone(),
                opponent_account: o.account,
                result: match won {
                    Some(true) => "win",
                    Some(false) => "loss",
                    None => "draw",
                },
                reason: serde_json::to_value(end.reason)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_string))
                    .unwrap_or_default(),
                abandoned,
                rating_diff: diffs[i],
                ended: now,
            })));
        }
        f
    }

    /// Takes back what [`Book::game_over`] changed in memory (its rows were not stored).
    pub fn undo(&self, f: Finished) {
        let mut entries = self.entries.lock().expect("lock");
        for (k, e) in f.undo.into_iter().rev() {
            match e {
                Some(e) => entries.insert(k, e),
                None => entries.remove(&k),
            };
        }
        drop(entries);
        let mut rep = self.rep.lock().expect("lock");
        for (u, r) in f.undo_rep.into_iter().rev() {
            rep.insert(u, r);
        }
    }
}
