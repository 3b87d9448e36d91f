//! The [`Game`] implementation.

use rand::Rng;
use std::collections::BTreeMap;

use crate::{
    EndReason, Game, GameKind, GameOptions, GameRng, HiddenPart, Outcome, PlayError, Seat,
    SetupError, Viewer,
};

use super::*;

impl Game for Stratego {
    const KIND: GameKind = GameKind::Stratego;
    type Options = StrategoOptions;
    type Move = Move;
    type Hidden = Setups;
    type Event = StrategoEvent;
    type View = StrategoView;
    type Observation = StrategoObservation;

    fn start(options: &StrategoOptions, hidden: Setups) -> Result<Self, SetupError> {
        // The fields are public: options built by hand are checked here too.
        options
            .validate()
            .map_err(|e| SetupError::Invalid(format!("the options are not valid: {e}")))?;
        let mut g = Stratego {
            options: options.clone(),
            cells: [0; SQUARES],
            occ: [0; 2],
            movable: [0; 2],
            scouts: [0; 2],
            known: 0,
            moved: 0,
            turn: Seat::First,
            ply: 0,
            quiet: 0,
            outcome: None,
            lost: [[0; 12]; 2],
            hash: 0,
            hash_before: 0,
            threatened: 0,
            two: [TwoSquares::new(), TwoSquares::new()],
            chase: Chase {
                chaser: None,
                chased: NO_SQUARE,
                positions: Vec::new(),
            },
            rescuers: 0,
            rescued: [0; 2],
        };
        for (i, setup) in hidden.0.iter().enumerate() {
            let seat = Seat::from_index(i);
            // Re-validate against these options: a setup made for another army is refused.
            let setup = Setup::new(seat, options, &setup.placements)?;
            for &(sq, p) in &setup.placements {
                if g.cells[sq.index()] != 0 {
                    return Err(SetupError::Invalid(format!(
                        "{sq} holds a piece of each side; the setups overlap"
                    )));
                }
                g.put(sq.index(), cell(seat, p));
            }
        }
        g.hash_before = g.hash;
        // A side that cannot move at the start loses at once (both: a draw).
        let (r, b) = (
            g.has_pseudo_move(Seat::First),
            g.has_pseudo_move(Seat::Second),
        );
        g.outcome = match (r, b) {
            (true, true) => None,
            (true, false) => Some(Outcome::win(Seat::First, EndReason::NoLegalMoves)),
            (false, true) => Some(Outcome::win(Seat::Second, EndReason::NoLegalMoves)),
            (false, false) => Some(Outcome::draw(EndReason::NeitherCanMove)),
        };
        Ok(g)
    }

    fn random_hidden(options: &StrategoOptions, rng: &mut GameRng) -> Setups {
        Setups(Seat::BOTH.map(|s| Setup::random(s, options, rng)))
    }

    fn hidden_from_json(
        options: &StrategoOptions,
        request: &serde_json::Map<String, serde_json::Value>,
        rng: &mut GameRng,
    ) -> Result<Setups, SetupError> {
        let given = match request.get("setups") {
            None | Some(serde_json::Value::Null) => serde_json::Map::new(),
            Some(serde_json::Value::Object(m)) => m.clone(),
            Some(_) => {
                return Err(SetupError::Invalid(
                    "setups must be an object {\"red\":{...},\"blue\":{...}}".into(),
                ));
            }
        };
        if let Some(k) = given
            .keys()
            .find(|k| GameKind::Stratego.parse_seat(k).is_none())
        {
            return Err(SetupError::Invalid(format!(
                "setups: {k:?} is not a seat; use red and blue"
            )));
        }
        let mut out = Vec::with_capacity(2);
        for seat in Seat::BOTH {
            let setup = match given.get(GameKind::Stratego.seat_name(seat)) {
                Some(v) => Setup::from_json(seat, options, v)?,
                None => Setup::random(seat, options, rng),
            };
            out.push(setup);
        }
        let [r, b]: [Setup; 2] = out.try_into().expect("two seats");
        Ok(Setups([r, b]))
    }

    fn hidden_part_names(_: &StrategoOptions) -> &'static [&'static str] {
        &PART_NAMES
    }

    fn hidden_parts(hidden: &Setups) -> Vec<HiddenPart> {
        board::setup_parts(&hidden.0, &PART_NAMES)
    }

    fn hidden_from_parts(
        options: &StrategoOptions,
        parts: &BTreeMap<String, String>,
    ) -> Result<Setups, SetupError> {
        board::setups_from_parts(parts, &PART_NAMES, |seat, text| {
            Setup::parse(seat, options, text)
        })
        .map(Setups)
    }

    fn options(&self) -> &StrategoOptions {
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
        let me = self.turn;
        let t = self.targets(me);
        for &(set, d) in &t.sets[..t.n] {
            let mut bits = set;
            while bits != 0 {
                let to = bits.trailing_zeros() as u8;
                bits &= bits - 1;
                let from = (to as i8 - d) as u8;
                if self.repetition_ok(me, from, to) {
                    self.push_move(me, from, to, out);
                }
            }
        }
        for (from, to) in self.two_steps(me) {
            if self.repetition_ok(me, from, to) {
                self.push_move(me, from, to, out);
            }
        }
    }

    fn is_legal(&self, mv: Move) -> bool {
        self.outcome.is_none() && self.illegal(mv).is_none()
    }

    fn random_move(&self, rng: &mut GameRng) -> Option<Move> {
        if self.outcome.is_some() {
            return None;
        }
        let me = self.turn;
        if self.options.captain_steps > 1 || self.options.rescues > 0 {
            // Two-square Captains and rescues: uniform over the full list.
            let mut v = Vec::new();
            self.legal_moves(&mut v);
            return (!v.is_empty()).then(|| v[rng.random_range(0..v.len())]);
        }
        let t = self.targets(me);
        let sets = &t.sets[..t.n];
        let total: u32 = sets.iter().map(|(b, _)| b.count_ones()).sum();
        if total == 0 {
            return None;
        }
        // Uniform over the pseudo-legal moves, redrawn while the repetition rules refuse
        // one: uniform over the legal moves. Few moves are ever refused; after a few
        // refusals, draw from the full list instead.
        for _ in 0..8 {
            let mut r = rng.random_range(0..total);
            for &(set, d) in sets {
                let n = set.count_ones();
                if r < n {
                    let mut bits = set;
                    for _ in 0..r {
                        bits &= bits - 1;
                    }
                    let to = bits.trailing_zeros() as u8;
                    let from = (to as i8 - d) as u8;
                    if self.repetition_ok(me, from, to) {
                        return Some(Move::new(Square::at(from), Square::at(to)));
                    }
                    break;
                }
                r -= n;
            }
        }
        let mut v = Vec::new();
        self.legal_moves(&mut v);
        (!v.is_empty()).then(|| v[rng.random_range(0..v.len())])
    }

    fn play(&mut self, mv: Move) -> Result<StrategoEvent, PlayError> {
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

    /// A record token with its attack part (`{7>3}`) left out: `b2-b1{7>5}+9@f7` is the
    /// move `b2-b1+9@f7`.
    fn parse_token(token: &str) -> Result<Move, PlayError> {
        match (token.find('{'), token.find('}')) {
            (Some(i), Some(j)) if i < j => format!("{}{}", &token[..i], &token[j + 1..]).parse(),
            _ => token.parse(),
        }
    }

    fn conclude(&mut self, outcome: Outcome) -> Result<(), PlayError> {
        if let Some(o) = self.outcome {
            return Err(PlayError::game_over(o));
        }
        self.outcome = Some(outcome);
        Ok(())
    }

    fn view(&self, e: &StrategoEvent, viewer: Viewer) -> StrategoView {
        StrategoView {
            ply: e.ply,
            seat: GameKind::Stratego.seat_name(e.seat),
            from: e.mv.from,
            to: e.mv.to,
            piece: Self::sees(viewer, e.seat, e.piece_public).then_some(e.piece),
            attack: e.attack,
            rescue: e.rescue,
        }
    }

    fn observe(&self, viewer: Viewer) -> StrategoObservation {
        let kind = GameKind::Stratego;
        let board = board::occupied(&self.cells, |sq, seat, p| {
            let known = self.known & sq.bit() != 0;
            SquareView {
                owner: kind.seat_name(seat),
                piece: Self::sees(viewer, seat, known).then_some(p),
                known,
                moved: self.moved & sq.bit() != 0,
            }
        });
        let eliminated = Seat::BOTH
            .iter()
            .map(|&seat| {
                let codes = Piece::ALL
                    .iter()
                    .flat_map(|&p| {
                        std::iter::repeat_n(p.code(), self.lost[seat.index()][p as usize] as usize)
                    })
                    .collect();
                (kind.seat_name(seat), codes)
            })
            .collect();
        StrategoObservation {
            game: kind.name(),
            viewer: kind.viewer_name(viewer),
            to_move: self.to_move().map(|s| kind.seat_name(s)),
            ply: self.ply,
            quiet_plies: self.quiet,
            board,
            eliminated,
            result: self.outcome.map(|o| o.view(kind)),
        }
    }
}
