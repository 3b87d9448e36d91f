//! The [`Game`] implementation.

use rand::Rng;
use std::collections::BTreeMap;

use crate::{Game, GameKind, GameRng, HiddenPart, Outcome, PlayError, Seat, SetupError, Viewer};

use super::*;

impl Game for Banqi {
    const KIND: GameKind = GameKind::Banqi;

    fn seat_colours(&self) -> Option<[&'static str; 2]> {
        self.first_color.map(|c| [c.name(), c.other().name()])
    }
    type Options = BanqiOptions;
    type Move = Move;
    type Hidden = Deal;
    type Event = BanqiEvent;
    type View = BanqiView;
    type Observation = BanqiObservation;

    fn start(options: &BanqiOptions, hidden: Deal) -> Result<Self, SetupError> {
        let deal = Deal::new(hidden.0)?;
        let mut cells = [0; SQUARES];
        let mut unseen = [0u8; 14];
        for s in Square::all() {
            let p = deal.at(s);
            cells[s.index()] = p.index() as u8 + 1;
            unseen[p.index()] += 1;
        }
        let track = options.repetition != Repetition::Off || options.chase_rule;
        let mut g = Banqi {
            options: options.clone(),
            caps: adjacent_captures(options),
            capm: adjacent_captures(options)
                .map(|c| std::array::from_fn(|v| if c & (1 << v) != 0 { u32::MAX } else { 0 })),
            jump: options.ruleset == Ruleset::Taiwan,
            track,
            cells,
            down: u32::MAX,
            occ: u32::MAX,
            bb: [[0; 8]; 2],
            up: [0; 2],
            remaining: [16, 16],
            first_color: None,
            turn: Seat::First,
            ply: 0,
            quiet: 0,
            chain: None,
            outcome: None,
            unseen,
            captured: Vec::new(),
            hash: 0,
            history: Vec::new(),
            recent: Vec::new(),
            chasing: [false; 2],
        };
        if track {
            g.history.push(0);
        }
        Ok(g)
    }

    fn random_hidden(_: &BanqiOptions, rng: &mut GameRng) -> Deal {
        Deal::random(rng)
    }

    fn hidden_from_json(
        _: &BanqiOptions,
        request: &serde_json::Map<String, serde_json::Value>,
        rng: &mut GameRng,
    ) -> Result<Deal, SetupError> {
        match request.get("deal") {
            None | Some(serde_json::Value::Null) => Ok(Deal::random(rng)),
            Some(v) => Deal::from_json(v),
        }
    }

    fn hidden_part_names(_: &BanqiOptions) -> &'static [&'static str] {
        &PART_NAMES
    }

    fn hidden_parts(hidden: &Deal) -> Vec<HiddenPart> {
        vec![HiddenPart {
            name: PART_NAMES[0],
            owner: None,
            text: hidden.text(),
        }]
    }

    fn hidden_from_parts(
        _: &BanqiOptions,
        parts: &BTreeMap<String, String>,
    ) -> Result<Deal, SetupError> {
        let text = parts
            .get(PART_NAMES[0])
            .ok_or_else(|| SetupError::Invalid("the Deal is missing".into()))?;
        Deal::parse(text)
    }

    fn options(&self) -> &BanqiOptions {
        &self.options
    }

    fn to_move(&self) -> Option<Seat> {
        self.outcome.is_none().then_some(self.turn)
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    fn ply(&self) -> u32 {
        self.ply
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        if self.outcome.is_some() {
            return;
        }
        if self.options.chase_rule {
            self.gen_all(|m| {
                if !self.chase_forbidden(m) {
                    out.push(m);
                }
            });
        } else {
            self.gen_all(|m| out.push(m));
        }
    }

    fn is_legal(&self, mv: Move) -> bool {
        self.outcome.is_none() && self.illegal(mv).is_none()
    }

    fn random_move(&self, rng: &mut GameRng) -> Option<Move> {
        if self.outcome.is_some() {
            return None;
        }
        if self.options.chase_rule || self.chain.is_some() {
            let mut v = Vec::new();
            self.legal_moves(&mut v);
            return (!v.is_empty()).then(|| v[rng.random_range(0..v.len())]);
        }
        let flips = self.down.count_ones();
        let mut t = [0u32; 4];
        let mut jumps = [Move::EndChain; 8];
        let mut nj = 0;
        if let Some(me) = self.my_color() {
            t = self.step_targets(me, u32::MAX, true);
            self.gen_jumps(me, u32::MAX, |m| {
                jumps[nj] = m;
                nj += 1;
            });
        }
        let counts = t.map(u32::count_ones);
        let total = flips + counts.iter().sum::<u32>() + nj as u32;
        if total == 0 {
            return None;
        }
        let mut r = rng.random_range(0..total);
        if r < flips {
            return Some(Move::Flip(Square::at(nth_bit(self.down, r))));
        }
        r -= flips;
        for dir in 0..4 {
            if r < counts[dir] {
                let to = nth_bit(t[dir], r);
                return Some(Move::Step {
                    from: Square::at((to as i8 - DELTAS[dir]) as u8),
                    to: Square::at(to),
                });
            }
            r -= counts[dir];
        }
        Some(jumps[r as usize])
    }

    fn play(&mut self, mv: Move) -> Result<BanqiEvent, PlayError> {
        if let Some(o) = self.outcome {
            return Err(PlayError::game_over(o));
        }
        if let Some(reason) = self.illegal(mv) {
            return Err(PlayError::Illegal {
                mv: mv.to_string(),
                reason,
            });
        }
        Ok(self.apply(mv))
    }

    fn play_unchecked(&mut self, mv: Move) {
        self.apply(mv);
    }

    fn conclude(&mut self, outcome: Outcome) -> Result<(), PlayError> {
        if let Some(o) = self.outcome {
            return Err(PlayError::game_over(o));
        }
        self.outcome = Some(outcome);
        Ok(())
    }

    fn view(&self, e: &BanqiEvent, _viewer: Viewer) -> BanqiView {
        let kind = GameKind::Banqi;
        BanqiView {
            ply: e.ply,
            seat: kind.seat_name(e.seat),
            action: e.action,
            mv: e.mv.to_string(),
            piece: e.piece,
            revealed: e.revealed,
            captured: e.captured,
            colours: e.colours_decided.map(|c| {
                BTreeMap::from([
                    (kind.seat_name(Seat::First), c),
                    (kind.seat_name(Seat::Second), c.other()),
                ])
            }),
            chain_continues: e.chain_continues,
        }
    }

    fn observe(&self, viewer: Viewer) -> BanqiObservation {
        let kind = GameKind::Banqi;
        let all = viewer == Viewer::Arbiter;
        let board = Square::all()
            .filter_map(|sq| {
                let (p, down) = self.at(sq)?;
                Some((
                    sq,
                    SquareView {
                        face_down: down,
                        piece: (!down || all).then_some(p),
                    },
                ))
            })
            .collect();
        let mut captured: BTreeMap<&'static str, Vec<Piece>> =
            BTreeMap::from([("red", Vec::new()), ("black", Vec::new())]);
        for p in &self.captured {
            captured
                .get_mut(p.color.name())
                .expect("both colours")
                .push(*p);
        }
        BanqiObservation {
            game: kind.name(),
            viewer: kind.viewer_name(viewer),
            to_move: self.to_move().map(|s| kind.seat_name(s)),
            ply: self.ply,
            quiet_plies: self.quiet,
            colours: Seat::BOTH
                .iter()
                .filter_map(|&s| Some((kind.seat_name(s), self.colour_of(s)?)))
                .collect(),
            board,
            face_down_pool: Piece::ALL
                .iter()
                .filter(|p| self.unseen[p.index()] > 0)
                .map(|p| (p.code().to_string(), self.unseen[p.index()]))
                .collect(),
            captured,
            chain_from: self.chain,
            result: self.outcome.map(|o| o.view(kind)),
        }
    }
}
