//! Arbiter tables for a physical board (`docs/arbiter-board.md`): two phones (or one phone
//! passed between the players) paired by a short room code.
//!
//! - **Challenge arbiter** (`mode: challenge`): for each challenge each seat enters the rank
//!   of its own piece and whether it attacked; once both are in, the engine's
//!   [`challenge::decide`] rules and the table announces only what the rules let it
//!   announce. The eliminated ranks are kept per seat and shown to both at the end.
//! - **Full arbiter** (`mode: full`): the table creates a private game of the server whose
//!   two seats are held by the two phones (or both by the one passed phone); setups, moves,
//!   records and replays are the game's own.
//!
//! Every change is stored (`store.rs`) before it is acknowledged; tables are rebuilt from
//! their stored events on start-up.

pub(crate) mod http;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use salpakan_engine::challenge::{self, Ruling, Side};
use salpakan_engine::{GameKind, GameSpec, Seat};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tokio::sync::watch;

use crate::error::{Error, Result};

/// The letters of a room code: no 0/O, 1/I/L, 5/S, 2/Z, 8/B to misread.
const CODE_ALPHABET: &[u8] = b"ACDEFGHJKMNPQRTUVWXY34679";
/// Characters in a room code (25^6, about 2.4e8 codes).
pub const CODE_LEN: usize = 6;
/// Joins by code per address a minute (and the burst): guessing a code is hopeless.
const JOINS_PER_MINUTE: u32 = 10;
/// Tables one player may have waiting for a second phone at once.
const WAITING_PER_PLAYER: usize = 5;

/// How a table arbitrates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// Each challenge is decided from the two ranks the players enter.
    Challenge,
    /// A private game of the server holds the true position.
    Full,
}

/// How a table was created (stored).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct TableInit {
    /// The game's name.
    pub kind: String,
    /// Canonical options JSON.
    pub options: Value,
    /// How it arbitrates.
    pub mode: Mode,
    /// One phone holds both seats.
    pub pass: bool,
    /// The room code the second phone joins with.
    pub code: String,
    /// The creator (seat 0): user id and name.
    pub creator: (String, String),
}

/// Why a table ended without a captured Flag.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Finish {
    /// The seat gives up.
    Resign,
    /// The seat's Flag reached the far rank and won by the game's `flag_rule` (Game of
    /// the Generals; the players check the rule on their board).
    FlagHome,
}

/// The table's own account of one change: stored, applied again on restart. Holds
/// secrets (the entered ranks); never sent to anyone.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "a", rename_all = "snake_case")]
pub enum TableArb {
    /// The second phone joined with the code.
    Join {
        /// User id.
        user: String,
        /// Name.
        name: String,
    },
    /// The full arbiter's game was created.
    Game {
        /// Its id.
        game: String,
    },
    /// A seat's entry for the current challenge.
    Entry {
        /// 0 or 1.
        seat: u8,
        /// Whether this seat's piece attacked.
        attacks: bool,
        /// Its rank code.
        rank: String,
    },
    /// A seat ended the table.
    Finish {
        /// 0 or 1.
        seat: u8,
        /// How.
        how: Finish,
    },
}

#[derive(Clone, Debug)]
struct Entry {
    attacks: bool,
    rank: &'static str,
}

#[derive(Clone, Debug)]
struct Announced {
    attacker: Seat,
    ruling: Ruling,
}

#[derive(Clone, Debug)]
struct TableResult {
    winner: Seat,
    reason: &'static str,
}

/// One table.
#[derive(Debug)]
pub struct Table {
    id: String,
    init: TableInit,
    spec: GameSpec,
    seats: [Option<(String, String)>; 2],
    game: Option<String>,
    n: u64,
    pending: [Option<Entry>; 2],
    announced: Vec<Announced>,
    lost: [Vec<&'static str>; 2],
    result: Option<TableResult>,
    ver: watch::Sender<u64>,
}

impl Table {
    fn new(id: String, init: TableInit) -> Result<Table> {
        let kind: GameKind = init.kind.parse().map_err(Error::BadRequest)?;
        let spec = GameSpec::from_json(kind, &init.options)
            .map_err(|e| Error::BadRequest(e.to_string()))?;
        let mut seats = [Some(init.creator.clone()), None];
        if init.pass {
            seats[1] = Some(init.creator.clone());
        }
        Ok(Table {
            id,
            init,
            spec,
            seats,
            game: None,
            n: 0,
            pending: [None, None],
            announced: Vec::new(),
            lost: [Vec::new(), Vec::new()],
            result: None,
            ver: watch::channel(0).0,
        })
    }

    fn kind(&self) -> GameKind {
        self.spec.kind()
    }

    fn paired(&self) -> bool {
        self.seats[1].is_some()
    }

    /// The seats `user` holds.
    fn seats_of(&self, user: &str) -> Vec<Seat> {
        Seat::BOTH
            .into_iter()
            .filter(|s| {
                self.seats[s.index()]
                    .as_ref()
                    .is_some_and(|(u, _)| u == user)
            })
            .collect()
    }

    /// Which seat `user` acts as: the one they hold, or (holding both on a passed phone)
    /// the one they name.
    fn seat_for(&self, user: &str, named: Option<&str>) -> Result<Seat> {
        let held = self.seats_of(user);
        let named = match named {
            Some(n) => Some(
                Seat::BOTH
                    .into_iter()
                    .find(|&s| self.kind().seat_name(s) == n)
                    .ok_or_else(|| {
                        Error::BadRequest(format!(
                            "{:?} is not a seat of {}; use {} or {}",
                            n.chars().take(12).collect::<String>(),
                            self.kind().name(),
                            self.kind().seat_name(Seat::First),
                            self.kind().seat_name(Seat::Second)
                        ))
                    })?,
            ),
            None => None,
        };
        match (held.as_slice(), named) {
            ([], _) => Err(Error::Forbidden(
                "you hold no seat at this table; join it with its room code".into(),
            )),
            (_, Some(s)) if held.contains(&s) => Ok(s),
            (_, Some(_)) => Err(Error::Forbidden(
                "that seat is not yours; act only for your own seat".into(),
            )),
            ([s], None) => Ok(*s),
            (_, None) => Err(Error::BadRequest(
                "this phone holds both seats: say which seat enters (\"seat\")".into(),
            )),
        }
    }

    /// Checks `arb` against the table as it stands: `Ok` means [`Table::apply`] will take it.
    fn check(&self, arb: &TableArb) -> Result<()> {
        match arb {
            TableArb::Join { user, .. } => {
                if self.paired() {
                    return Err(Error::Rejected(
                        "this table already has two players; ask for a new room code".into(),
                    ));
                }
                if self.init.creator.0 == *user {
                    return Err(Error::Rejected(
                        "you created this table; the other player joins with its code (to use one phone for both, create a table with \"pass\": true)".into(),
                    ));
                }
                Ok(())
            }
            TableArb::Game { .. } => Ok(()),
            TableArb::Entry {
                seat,
                attacks,
                rank,
            } => {
                self.playing_check()?;
                if self.init.mode != Mode::Challenge {
                    return Err(Error::Rejected(
                        "this table keeps the whole board: enter the moves in its game instead of ranks".into(),
                    ));
                }
                let rank = self.rank(rank)?;
                if *attacks {
                    // The rank must be able to attack (a Stratego Bomb or Flag never moves).
                    challenge::decide(&self.spec, rank, rank)
                        .map_err(|e| Error::BadRequest(e.to_string()))?;
                }
                let other = 1 - usize::from(*seat);
                if let Some(o) = &self.pending[other] {
                    if o.attacks == *attacks {
                        return Err(Error::Rejected(if *attacks {
                            "both sides say they attacked: the piece that moved onto the other attacked; agree on it and enter again".into()
                        } else {
                            "both sides say they were challenged: the piece that moved onto the other attacked; agree on it and enter again".into()
                        }));
                    }
                }
                Ok(())
            }
            TableArb::Finish { how, .. } => {
                self.playing_check()?;
                if self.init.mode != Mode::Challenge {
                    return Err(Error::Rejected(
                        "this table's game ends by its own rules: resign in the game".into(),
                    ));
                }
                if *how == Finish::FlagHome && self.kind() != GameKind::Generals {
                    return Err(Error::BadRequest(
                        "only Game of the Generals wins by bringing the Flag home".into(),
                    ));
                }
                Ok(())
            }
        }
    }

    fn playing_check(&self) -> Result<()> {
        if !self.paired() {
            return Err(Error::Rejected(
                "the other player has not joined yet: show them the room code".into(),
            ));
        }
        if self.result.is_some() {
            return Err(Error::Rejected(
                "this table's game is over; create a new table to play again".into(),
            ));
        }
        Ok(())
    }

    /// The game's own rank code for `code` (any case), or a sentence listing the ranks.
    fn rank(&self, code: &str) -> Result<&'static str> {
        challenge::ranks(&self.spec)
            .into_iter()
            .find(|r| r.eq_ignore_ascii_case(code.trim()))
            .ok_or_else(|| match challenge::decide(&self.spec, code, code) {
                Err(e) => Error::BadRequest(e.to_string()),
                Ok(_) => Error::BadRequest(format!(
                    "enter one of the ranks {}",
                    challenge::ranks(&self.spec).join(" ")
                )),
            })
    }

    /// Applies a checked change.
    fn apply(&mut self, arb: &TableArb) {
        self.n += 1;
        match arb {
            TableArb::Join { user, name } => self.seats[1] = Some((user.clone(), name.clone())),
            TableArb::Game { game } => self.game = Some(game.clone()),
            TableArb::Entry {
                seat,
                attacks,
                rank,
            } => {
                let Ok(rank) = self.rank(rank) else {
                    return;
                };
                let seat = usize::from(*seat).min(1);
                self.pending[seat] = Some(Entry {
                    attacks: *attacks,
                    rank,
                });
                if let [Some(a), Some(b)] = &self.pending {
                    let (att_seat, att, def) = if a.attacks {
                        (Seat::First, a.rank, b.rank)
                    } else {
                        (Seat::Second, b.rank, a.rank)
                    };
                    self.pending = [None, None];
                    let Ok(ruling) = challenge::decide(&self.spec, att, def) else {
                        return;
                    };
                    let def_seat = att_seat.other();
                    use challenge::Removed;
                    if matches!(ruling.removed, Removed::Attacker | Removed::Both) {
                        self.lost[att_seat.index()].push(att);
                    }
                    if matches!(ruling.removed, Removed::Defender | Removed::Both) {
                        self.lost[def_seat.index()].push(def);
                    }
                    if let Some(side) = ruling.flag_captured_by {
                        self.result = Some(TableResult {
                            winner: if side == Side::Attacker {
                                att_seat
                            } else {
                                def_seat
                            },
                            reason: "flag_captured",
                        });
                    }
                    self.announced.push(Announced {
                        attacker: att_seat,
                        ruling,
                    });
                }
            }
            TableArb::Finish { seat, how } => {
                let seat = if *seat == 0 {
                    Seat::First
                } else {
                    Seat::Second
                };
                self.pending = [None, None];
                self.result = Some(match how {
                    Finish::Resign => TableResult {
                        winner: seat.other(),
                        reason: "resignation",
                    },
                    Finish::FlagHome => TableResult {
                        winner: seat,
                        reason: "flag_reached_back_rank",
                    },
                });
            }
        }
        self.ver.send_replace(self.n);
    }

    /// What `seat` may see of the table: public facts, and that seat's own entries and
    /// eliminated ranks. Nothing of the other seat's entries until the end.
    fn view(&self, seat: Seat) -> Value {
        let kind = self.kind();
        let name = |s: Seat| kind.seat_name(s);
        let side = |s: Side, att: Seat| match s {
            Side::Attacker => name(att),
            Side::Defender => name(att.other()),
        };
        let challenges: Vec<Value> = self
            .announced
            .iter()
            .enumerate()
            .map(|(i, a)| {
                json!({
                    "n": i + 1,
                    "attacker": name(a.attacker),
                    "removed": a.ruling.removed,
                    "attacker_shown": a.ruling.attacker_shown,
                    "defender_shown": a.ruling.defender_shown,
                    "flag_captured_by": a.ruling.flag_captured_by.map(|s| side(s, a.attacker)),
                })
            })
            .collect();
        let players: serde_json::Map<String, Value> = Seat::BOTH
            .into_iter()
            .map(|s| {
                (
                    name(s).to_string(),
                    self.seats[s.index()]
                        .as_ref()
                        .map_or(Value::Null, |(_, n)| Value::String(n.clone())),
                )
            })
            .collect();
        let entered: serde_json::Map<String, Value> = Seat::BOTH
            .into_iter()
            .map(|s| {
                (
                    name(s).to_string(),
                    Value::Bool(self.pending[s.index()].is_some()),
                )
            })
            .collect();
        let lost_count: serde_json::Map<String, Value> = Seat::BOTH
            .into_iter()
            .map(|s| (name(s).to_string(), json!(self.lost[s.index()].len())))
            .collect();
        let status = if self.result.is_some() {
            "ended"
        } else if self.paired() {
            "playing"
        } else {
            "waiting"
        };
        let reveal = self.result.as_ref().map(|_| {
            Seat::BOTH
                .into_iter()
                .map(|s| (name(s).to_string(), json!(self.lost[s.index()])))
                .collect::<serde_json::Map<String, Value>>()
        });
        json!({
            "v": 1,
            "table": self.id,
            "code": (!self.paired()).then_some(&self.init.code),
            "kind": kind.name(),
            "options": self.init.options,
            "mode": self.init.mode,
            "pass": self.init.pass,
            "seat": name(seat),
            "players": players,
            "status": status,
            "ver": self.n,
            "game": self.game,
            "ranks": challenge::ranks(&self.spec),
            "challenges": challenges,
            "entered": entered,
            "your_entry": self.pending[seat.index()].as_ref().map(|e| json!({"attacks": e.attacks, "rank": e.rank})),
            "your_lost": self.lost[seat.index()],
            "lost_count": lost_count,
            "result": self.result.as_ref().map(|r| json!({"winner": name(r.winner), "reason": r.reason})),
            "reveal": reveal,
        })
    }
}

/// Every table of the server, and the room codes of those waiting for a second phone.
pub struct Tables {
    map: Mutex<HashMap<String, Arc<tokio::sync::Mutex<Table>>>>,
    /// Room code → (table id, creator's user id), while the table waits.
    codes: Mutex<HashMap<String, (String, String)>>,
    join_limit: governor::DefaultKeyedRateLimiter<std::net::IpAddr>,
}

impl std::fmt::Debug for Tables {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tables").finish_non_exhaustive()
    }
}

impl Tables {
    /// The tables rebuilt from the store's rows (a table that does not rebuild is logged
    /// and left out).
    pub fn restore(rows: Vec<(crate::store::TableRow, Vec<String>)>) -> Tables {
        let quota = governor::Quota::per_minute(
            std::num::NonZeroU32::new(JOINS_PER_MINUTE).expect("nonzero"),
        );
        let t = Tables {
            map: Mutex::new(HashMap::new()),
            codes: Mutex::new(HashMap::new()),
            join_limit: governor::RateLimiter::keyed(quota),
        };
        for (row, events) in rows {
            let table = serde_json::from_str::<TableInit>(&row.init)
                .map_err(|e| Error::Storage(e.to_string()))
                .and_then(|init| Table::new(row.id.clone(), init))
                .and_then(|mut table| {
                    for e in &events {
                        let arb: TableArb =
                            serde_json::from_str(e).map_err(|e| Error::Storage(e.to_string()))?;
                        table.apply(&arb);
                    }
                    Ok(table)
                });
            match table {
                Ok(table) => t.insert(table),
                Err(_) => {
                    // Only the id: the reason could quote a stored entry (a secret rank), as a
                    // stored game's reason could quote its seed.
                    tracing::error!(table = %row.id, "a stored table does not rebuild; it is left as it is");
                }
            }
        }
        t
    }

    fn insert(&self, table: Table) {
        if !table.paired() {
            self.codes.lock().expect("lock").insert(
                table.init.code.clone(),
                (table.id.clone(), table.init.creator.0.clone()),
            );
        }
        self.map
            .lock()
            .expect("lock")
            .insert(table.id.clone(), Arc::new(tokio::sync::Mutex::new(table)));
    }

    fn get(&self, id: &str) -> Result<Arc<tokio::sync::Mutex<Table>>> {
        self.map
            .lock()
            .expect("lock")
            .get(id)
            .cloned()
            .ok_or_else(|| Error::UnknownTable(id.chars().take(32).collect()))
    }

    /// A fresh room code, not in use.
    fn new_code(&self) -> String {
        let codes = self.codes.lock().expect("lock");
        loop {
            // Bytes of 250 and more are drawn again: every letter equally likely.
            let mut code = String::with_capacity(CODE_LEN);
            while code.len() < CODE_LEN {
                let mut b = [0u8; 1];
                getrandom::fill(&mut b).expect("the operating system gives random bytes");
                if usize::from(b[0]) < 250 {
                    code.push(CODE_ALPHABET[usize::from(b[0]) % CODE_ALPHABET.len()] as char);
                }
            }
            if !codes.contains_key(&code) {
                return code;
            }
        }
    }

    /// The table waiting with `code` (any case, spaces and dashes ignored), after the
    /// address's join limit.
    fn by_code(&self, code: &str, ip: std::net::IpAddr) -> Result<String> {
        self.join_limit.check_key(&ip).map_err(|_| {
            Error::Limit(format!(
                "too many room codes tried from your address: at most {JOINS_PER_MINUTE} a minute; check the code and try again in a minute"
            ))
        })?;
        let code: String = code
            .chars()
            .filter(|c| !c.is_whitespace() && *c != '-')
            .take(16)
            .collect::<String>()
            .to_ascii_uppercase();
        self.codes
            .lock()
            .expect("lock")
            .get(&code)
            .map(|(id, _)| id.clone())
            .ok_or(Error::UnknownCode)
    }

    /// Whether `user` may start another table that waits for a second phone.
    fn check_waiting(&self, user: &str) -> Result<()> {
        let n = self
            .codes
            .lock()
            .expect("lock")
            .values()
            .filter(|(_, by)| by == user)
            .count();
        if n >= WAITING_PER_PLAYER {
            return Err(Error::Limit(format!(
                "you have {n} tables waiting for a second phone, the most allowed: use one of their codes, or wait until one is joined"
            )));
        }
        Ok(())
    }

    fn paired(&self, code: &str) {
        self.codes.lock().expect("lock").remove(code);
    }
}
