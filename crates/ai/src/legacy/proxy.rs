//! A salpakan bot inside an old manager: its knowledge rebuilt from the protocol's lines only.
//!
//! The tracker keeps what the protocol said (the moves, and each enemy piece the manager
//! showed), and before every move builds a *proxy* match: our own setup, and for the hidden
//! enemy pieces any identities that agree with everything said (a piece that moved is no Bomb
//! or Flag, a piece that moved several squares is a Scout, a piece shown in an attack is what
//! was shown). Replaying the moves on it gives this seat exactly the views the manager's game
//! gives it, so [`Knowledge::of`] on the proxy holds what the protocol told and nothing more;
//! the invented identities stay hidden from the seat like real ones.
//!
//! The proxy plays without the rules old managers do not enforce (two-squares, chase,
//! quiet-move and repetition draws), so the bot never refuses a move the manager reports.

use std::collections::btree_map::Entry;
use std::collections::{BTreeMap, BTreeSet};

use salpakan_engine::banqi::{self, Banqi, BanqiOptions, Deal};
use salpakan_engine::stratego::{
    Piece, Setup, SetupArea, Setups, Square, Stratego, StrategoOptions,
};
use salpakan_engine::{Game, GameSpec, Match, Seat, rng_from_seed};

use crate::{BotSpec, Knowledge, bots, choose_setup};

/// The Stratego rules of the UCC manager, as salpakan options.
fn ucc_options() -> StrategoOptions {
    StrategoOptions {
        two_square_limit: None,
        chase_rule: false,
        max_quiet_plies: None,
        ..StrategoOptions::default()
    }
}

/// What a UCC agent knows.
pub(crate) struct StrategoTracker {
    seat: Seat,
    options: StrategoOptions,
    setup: Setup,
    moves: Vec<(Square, Square)>,
    own: [bool; 100],
    /// The enemy token (its starting square) on each square.
    enemy: [Option<u8>; 100],
    shown: BTreeMap<u8, Piece>,
    moved: BTreeSet<u8>,
    scouts: BTreeSet<u8>,
    over: bool,
}

impl StrategoTracker {
    pub(crate) fn new(spec: &BotSpec, seat: Seat, seed: u64) -> Result<Self, String> {
        let options = ucc_options();
        let chosen = choose_setup(spec, &GameSpec::Stratego(options.clone()), seat, seed)
            .map_err(|e| e.to_string())?;
        let setup = Setup::parse(seat, &options, chosen.text()).map_err(|e| e.to_string())?;
        let mut own = [false; 100];
        for (s, _) in setup.placements() {
            own[s.index()] = true;
        }
        let mut enemy = [None; 100];
        let area = SetupArea::Standard.mask(seat.other());
        for s in Square::all() {
            if area & (1u128 << s.index()) != 0 {
                enemy[s.index()] = Some(s.index() as u8);
            }
        }
        Ok(StrategoTracker {
            seat,
            options,
            setup,
            moves: Vec::new(),
            own,
            enemy,
            shown: BTreeMap::new(),
            moved: BTreeSet::new(),
            scouts: BTreeSet::new(),
            over: false,
        })
    }

    /// The four setup rows in board order (y ascending).
    pub(crate) fn setup_rows(&self) -> Vec<String> {
        let mut rows = vec![['.'; 10]; 4];
        let base = match self.seat {
            Seat::First => 0,
            Seat::Second => 6,
        };
        for &(s, p) in self.setup.placements() {
            rows[(s.rank() - base) as usize][s.file() as usize] = super::ucc::token(p);
        }
        rows.into_iter().map(|r| r.iter().collect()).collect()
    }

    /// Applies one `X Y DIR [N] OUTCOME` line.
    pub(crate) fn apply_line(&mut self, line: &str) -> Result<(), String> {
        let w: Vec<&str> = line.split_whitespace().collect();
        let n_move = if w.len() > 3 && w[3].parse::<u32>().is_ok() {
            4
        } else {
            3
        };
        let (from, to) = match super::ucc::parse_move(&w[..n_move.min(w.len())].join(" ")) {
            Ok(Some(ft)) => ft,
            _ => {
                return Err(format!(
                    "the manager's line {line:?} is not a move on the board"
                ));
            }
        };
        let outcome = w.get(n_move).copied().unwrap_or("OK");
        let tok = |i: usize| {
            w.get(i)
                .and_then(|t| t.chars().next())
                .and_then(super::ucc::piece)
        };
        let (f, t) = (from.index(), to.index());
        let mine = self.own[f];
        if !mine && self.enemy[f].is_none() {
            return Err(format!(
                "the manager's line {line:?} moves from an empty square"
            ));
        }
        match outcome {
            "ILLEGAL" => return Ok(()),
            "VICTORY_FLAG" | "VICTORY_ATTRITION" => {
                self.over = true;
                return Ok(());
            }
            _ => {}
        }
        if !mine {
            let id = self.enemy[f].expect("checked");
            self.moved.insert(id);
            if from.file().abs_diff(to.file()) + from.rank().abs_diff(to.rank()) > 1 {
                self.scouts.insert(id);
            }
        }
        let (a, d) = (tok(n_move + 1), tok(n_move + 2));
        // Who is shown: the enemy piece of the attack.
        if matches!(outcome, "KILLS" | "DIES" | "BOTHDIE") {
            let (Some(a), Some(d)) = (a, d) else {
                return Err(format!("the manager's line {line:?} lacks the two ranks"));
            };
            if mine {
                let id = self.enemy[t].ok_or_else(|| format!("{line:?} attacks no enemy piece"))?;
                self.shown.insert(id, d);
            } else {
                let id = self.enemy[f].expect("checked");
                self.shown.insert(id, a);
            }
        }
        let attacker_stays = matches!(outcome, "OK" | "KILLS");
        let defender_dies = matches!(outcome, "KILLS" | "BOTHDIE");
        if defender_dies || outcome == "OK" {
            self.own[t] = false;
            self.enemy[t] = None;
        }
        let moving_enemy = self.enemy[f];
        self.own[f] = false;
        self.enemy[f] = None;
        if attacker_stays {
            if mine {
                self.own[t] = true;
            } else {
                self.enemy[t] = moving_enemy;
            }
        }
        self.moves.push((from, to));
        Ok(())
    }

    /// An enemy setup that agrees with everything shown.
    fn enemy_setup(&self) -> Result<Setup, String> {
        let other = self.seat.other();
        let mut pool = self.options.army.pieces();
        let take = |pool: &mut Vec<Piece>, want: &dyn Fn(Piece) -> bool| -> Option<Piece> {
            let i = pool.iter().position(|&p| want(p))?;
            Some(pool.swap_remove(i))
        };
        let tokens: Vec<u8> = Square::all()
            .filter(|s| SetupArea::Standard.mask(other) & (1u128 << s.index()) != 0)
            .map(|s| s.index() as u8)
            .collect();
        let mut given: BTreeMap<u8, Piece> = BTreeMap::new();
        for (&id, &p) in &self.shown {
            let got = take(&mut pool, &|x| x == p)
                .ok_or_else(|| format!("the manager showed more {}s than an army has", p.name()))?;
            given.insert(id, got);
        }
        for &id in &self.scouts {
            if let Entry::Vacant(e) = given.entry(id) {
                let p = take(&mut pool, &|x| x == Piece::Scout)
                    .ok_or("more pieces moved like Scouts than an army has Scouts")?;
                e.insert(p);
            }
        }
        for &id in &self.moved {
            if let Entry::Vacant(e) = given.entry(id) {
                let p = take(&mut pool, &Piece::is_movable)
                    .ok_or("more pieces moved than an army has movable pieces")?;
                e.insert(p);
            }
        }
        for &id in &tokens {
            if let Entry::Vacant(e) = given.entry(id) {
                let p = pool.pop().ok_or("the enemy army is short of pieces")?;
                e.insert(p);
            }
        }
        let placements: Vec<(Square, Piece)> = given
            .iter()
            .map(|(&id, &p)| (Square::all().nth(id as usize).expect("on the board"), p))
            .collect();
        Setup::new(other, &self.options, &placements).map_err(|e| e.to_string())
    }

    /// The bot's move, or `None` when the game is over for it.
    pub(crate) fn choose(
        &mut self,
        spec: &BotSpec,
        seed: u64,
    ) -> Result<Option<(Square, Square)>, String> {
        if self.over {
            return Ok(None);
        }
        let m = self.proxy(seed)?;
        if m.game().to_move() != Some(self.seat) {
            return Ok(None);
        }
        let k = Knowledge::of(&m, self.seat);
        let mv = bots::choose(spec, &k, seed);
        Ok(Some((mv.from, mv.to)))
    }

    /// The proxy match: our setup, an enemy setup that agrees with everything shown, and
    /// every move so far.
    pub(crate) fn proxy(&self, seed: u64) -> Result<Match<Stratego>, String> {
        let enemy = self.enemy_setup()?;
        let setups = match self.seat {
            Seat::First => [self.setup.clone(), enemy],
            Seat::Second => [enemy, self.setup.clone()],
        };
        let mut rng = rng_from_seed(seed);
        let mut m = Match::<Stratego>::start(&self.options, Setups(setups), &mut rng)
            .map_err(|e| e.to_string())?;
        for &(from, to) in &self.moves {
            let mv = salpakan_engine::stratego::Move::new(from, to);
            m.play(mv)
                .map_err(|e| format!("cannot follow the manager's move {mv}: {e}"))?;
        }
        Ok(m)
    }
}

/// The Banqi rules as an NTU engine plays them, without the draws (the platform decides).
fn ntu_options() -> BanqiOptions {
    BanqiOptions {
        max_quiet_plies: None,
        ..BanqiOptions::default()
    }
}

/// What an NTU engine knows: every ply (all public).
pub(crate) struct BanqiTracker {
    moves: Vec<banqi::Move>,
    shown: BTreeMap<banqi::Square, banqi::Piece>,
}

impl BanqiTracker {
    pub(crate) fn new() -> Self {
        BanqiTracker {
            moves: Vec::new(),
            shown: BTreeMap::new(),
        }
    }

    pub(crate) fn apply(&mut self, mv: &str) -> Result<(), String> {
        let m: banqi::Move = mv.parse().map_err(|e| format!("{e}"))?;
        self.moves.push(m);
        Ok(())
    }

    pub(crate) fn flip(&mut self, sq: &str, piece: &str) -> Result<(), String> {
        let s: banqi::Square = sq.parse()?;
        let p = banqi::Piece::from_code_str(piece)
            .ok_or_else(|| format!("{piece:?} is not a piece letter (K G M R N C P, k..p)"))?;
        self.shown.insert(s, p);
        self.moves.push(banqi::Move::Flip(s));
        Ok(())
    }

    /// The move for the side to move, as `from to` (a flip: the square twice).
    pub(crate) fn choose(&self, spec: &BotSpec, seed: u64) -> Result<Option<String>, String> {
        let m = self.proxy(seed)?;
        let Some(seat) = m.game().to_move() else {
            return Ok(None);
        };
        let k = Knowledge::of(&m, seat);
        Ok(Some(match bots::choose(spec, &k, seed) {
            banqi::Move::Flip(s) => format!("{s} {s}"),
            banqi::Move::Step { from, to } => format!("{from} {to}"),
            banqi::Move::EndChain => return Ok(None),
        }))
    }

    /// The proxy match: the flipped pieces where they were shown, the rest of the sets face
    /// down anywhere else, and every ply so far.
    pub(crate) fn proxy(&self, seed: u64) -> Result<Match<Banqi>, String> {
        let mut pool: Vec<banqi::Piece> = Deal::sorted_pieces().to_vec();
        for p in self.shown.values() {
            let i = pool
                .iter()
                .position(|x| x == p)
                .ok_or_else(|| format!("more {p}s were flipped than the sets have"))?;
            pool.remove(i);
        }
        let mut pieces = [banqi::Piece::new(banqi::Color::Red, banqi::Kind::General); 32];
        for s in banqi::Square::all() {
            pieces[s.index()] = match self.shown.get(&s) {
                Some(&p) => p,
                None => pool.pop().ok_or("the sets are short of pieces")?,
            };
        }
        let deal = Deal::new(pieces).map_err(|e| e.to_string())?;
        let mut rng = rng_from_seed(seed);
        let mut m =
            Match::<Banqi>::start(&ntu_options(), deal, &mut rng).map_err(|e| e.to_string())?;
        for &mv in &self.moves {
            m.play(mv)
                .map_err(|e| format!("cannot follow the platform's move {mv}: {e}"))?;
        }
        Ok(m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use salpakan_engine::Viewer;

    /// The tracker's proxy shows the seat exactly what the real game shows it, at every one
    /// of its turns, though it only ever read the protocol's lines.
    #[test]
    fn ucc_agent_proxy_shows_the_seat_exactly_its_real_observation_and_history() {
        let spec: BotSpec = "random".parse().unwrap();
        let mut checked = 0;
        for seed in 1..4u64 {
            for seat in Seat::BOTH {
                let mut t = StrategoTracker::new(&spec, seat, seed).unwrap();
                let mut rng = rng_from_seed(seed);
                let enemy = Setup::random(seat.other(), &t.options, &mut rng);
                let setups = match seat {
                    Seat::First => [t.setup.clone(), enemy],
                    Seat::Second => [enemy, t.setup.clone()],
                };
                let mut real =
                    Match::<Stratego>::start(&t.options, Setups(setups), &mut rng).unwrap();
                while real.game().to_move().is_some() && real.game().ply() < 400 {
                    if real.game().to_move() == Some(seat) {
                        let proxy = t.proxy(seed + 7).unwrap();
                        let (p, r) = (Knowledge::of(&proxy, seat), Knowledge::of(&real, seat));
                        assert_eq!(
                            p.observation(),
                            r.observation(),
                            "ply {}",
                            real.game().ply()
                        );
                        assert_eq!(p.history(), r.history());
                        assert_eq!(p.legal_moves(), r.legal_moves());
                        checked += 1;
                    }
                    let mv = real.game().random_move(&mut rng).unwrap();
                    let e = real.play(mv).unwrap().clone();
                    let v = real.game().view(&e, Viewer::Player(seat));
                    t.apply_line(&super::super::ucc::result_line(&v)).unwrap();
                }
            }
        }
        assert!(checked > 300, "{checked} turns checked");
    }

    #[test]
    fn ntu_agent_proxy_shows_exactly_the_real_observation_and_history() {
        for seed in 1..4u64 {
            let mut real = Match::<Banqi>::random(&ntu_options(), seed).unwrap();
            let mut rng = rng_from_seed(seed);
            let mut t = BanqiTracker::new();
            let mut checked = 0;
            while let Some(seat) = real.game().to_move() {
                let proxy = t.proxy(seed + 7).unwrap();
                let (p, r) = (Knowledge::of(&proxy, seat), Knowledge::of(&real, seat));
                assert_eq!(
                    p.observation(),
                    r.observation(),
                    "ply {}",
                    real.game().ply()
                );
                assert_eq!(p.history(), r.history());
                assert_eq!(p.legal_moves(), r.legal_moves());
                checked += 1;
                if real.game().ply() > 300 {
                    break;
                }
                let mv = real.game().random_move(&mut rng).unwrap();
                let e = real.play(mv).unwrap().clone();
                match (e.mv, e.revealed) {
                    (banqi::Move::Flip(s), Some(p)) => {
                        t.flip(&s.to_string(), &p.to_string()).unwrap()
                    }
                    (mv, _) => t.apply(&mv.to_string()).unwrap(),
                }
            }
            assert!(checked > 20);
        }
    }
}
