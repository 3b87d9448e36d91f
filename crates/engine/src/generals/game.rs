//! The [`Game`] implementation.

use rand::Rng;
use std::collections::BTreeMap;

use crate::{Game, GameKind, GameRng, HiddenPart, Outcome, PlayError, Seat, SetupError, Viewer};

use super::*;

impl Game for Generals {
    const KIND: GameKind = GameKind::Generals;
    type Options = GeneralsOptions;
    type Move = Move;
    type Hidden = Setups;
    type Event = GeneralsEvent;
    type View = GeneralsView;
    type Observation = GeneralsObservation;

    fn start(options: &GeneralsOptions, hidden: Setups) -> Result<Self, SetupError> {
        let mut g = Generals {
            options: options.clone(),
            cells: [0; SQUARES],
            occ: [0; 2],
            known: 0,
            turn: options.first,
            ply: 0,
            quiet: 0,
            pending_flag: None,
            outcome: None,
            lost: [[0; 15]; 2],
            lost_known: [[0; 15]; 2],
        };
        for (i, setup) in hidden.0.iter().enumerate() {
            let seat = Seat::from_index(i);
            // Re-validate against these options: a setup made for another army is refused.
            let setup = Setup::new(seat, &options.army, &setup.placements)?;
            for &(sq, p) in &setup.placements {
                g.cells[sq.index()] = cell(seat, p);
                g.occ[i] |= 1u128 << sq.0;
                if p == Piece::Flag && options.open_flag {
                    g.known |= 1u128 << sq.0;
                }
            }
        }
        Ok(g)
    }

    fn random_hidden(options: &GeneralsOptions, rng: &mut GameRng) -> Setups {
        Setups(Seat::BOTH.map(|s| Setup::random(s, &options.army, rng)))
    }

    fn hidden_from_json(
        options: &GeneralsOptions,
        request: &serde_json::Map<String, serde_json::Value>,
        rng: &mut GameRng,
    ) -> Result<Setups, SetupError> {
        let given = match request.get("setups") {
            None | Some(serde_json::Value::Null) => serde_json::Map::new(),
            Some(serde_json::Value::Object(m)) => m.clone(),
            Some(_) => {
                return Err(SetupError::Invalid(
                    "setups must be an object {\"white\":{...},\"black\":{...}}".into(),
                ));
            }
        };
        if let Some(k) = given
            .keys()
            .find(|k| GameKind::Generals.parse_seat(k).is_none())
        {
            return Err(SetupError::Invalid(format!(
                "setups: {k:?} is not a seat; use white and black"
            )));
        }
        let mut out = Vec::with_capacity(2);
        for seat in Seat::BOTH {
            let setup = match given.get(GameKind::Generals.seat_name(seat)) {
                Some(v) => Setup::from_json(seat, &options.army, v)?,
                None => Setup::random(seat, &options.army, rng),
            };
            out.push(setup);
        }
        let [w, b]: [Setup; 2] = out.try_into().expect("two seats");
        Ok(Setups([w, b]))
    }

    fn hidden_part_names(_: &GeneralsOptions) -> &'static [&'static str] {
        &PART_NAMES
    }

    fn hidden_parts(hidden: &Setups) -> Vec<HiddenPart> {
        board::setup_parts(&hidden.0, &PART_NAMES)
    }

    fn hidden_from_parts(
        options: &GeneralsOptions,
        parts: &BTreeMap<String, String>,
    ) -> Result<Setups, SetupError> {
        board::setups_from_parts(parts, &PART_NAMES, |seat, text| {
            Setup::parse(seat, &options.army, text)
        })
        .map(Setups)
    }

    fn options(&self) -> &GeneralsOptions {
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
        let t = Self::targets(self.occ[self.turn.index()]);
        for (dir, mut bits) in t.into_iter().enumerate() {
            let d = Self::DELTAS[dir];
            while bits != 0 {
                let to = bits.trailing_zeros() as u8;
                bits &= bits - 1;
                out.push(Move {
                    from: Square::at((to as i8 - d) as u8),
                    to: Square::at(to),
                });
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
        let t = Self::targets(self.occ[self.turn.index()]);
        let counts = t.map(|b| b.count_ones());
        let total: u32 = counts.iter().sum();
        if total == 0 {
            return None;
        }
        let mut r = rng.random_range(0..total);
        for dir in 0..4 {
            if r < counts[dir] {
                let mut bits = t[dir];
                for _ in 0..r {
                    bits &= bits - 1;
                }
                let to = bits.trailing_zeros() as u8;
                return Some(Move {
                    from: Square::at((to as i8 - Self::DELTAS[dir]) as u8),
                    to: Square::at(to),
                });
            }
            r -= counts[dir];
        }
        unreachable!("r < total")
    }

    fn play(&mut self, mv: Move) -> Result<GeneralsEvent, PlayError> {
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
        self.pending_flag = None;
        Ok(())
    }

    fn view(&self, e: &GeneralsEvent, viewer: Viewer) -> GeneralsView {
        let all = viewer == Viewer::Arbiter;
        let them = e.seat.other();
        GeneralsView {
            ply: e.ply,
            seat: GameKind::Generals.seat_name(e.seat),
            from: e.mv.from,
            to: e.mv.to,
            piece: (all || viewer.sees_own(e.seat) || e.piece_public).then_some(e.piece),
            challenge: e.challenge.map(|c| ChallengeView {
                result: c.result,
                emptied: match c.result {
                    Duel::AttackerWins | Duel::DefenderWins => vec![e.mv.from],
                    Duel::BothEliminated => vec![e.mv.from, e.mv.to],
                },
                defender: (all || viewer.sees_own(them) || c.defender_public).then_some(c.defender),
            }),
        }
    }

    fn write_observation_json(obs: &GeneralsObservation, out: &mut String) {
        obs.write_json(out);
    }

    fn observe(&self, viewer: Viewer) -> GeneralsObservation {
        let kind = GameKind::Generals;
        let board = board::occupied(&self.cells, |sq, seat, p| {
            let public = self.known & (1u128 << sq.0) != 0;
            SquareView {
                owner: kind.seat_name(seat),
                piece: self.sees(viewer, seat, public).then_some(p),
            }
        });
        let eliminated = Seat::BOTH
            .iter()
            .map(|&seat| {
                let (lost, known) = (&self.lost[seat.index()], &self.lost_known[seat.index()]);
                let mut codes = Vec::new();
                let mut hidden = 0;
                for p in Piece::ALL {
                    let i = p as usize;
                    let shown = if self.sees(viewer, seat, false) {
                        lost[i]
                    } else {
                        known[i]
                    };
                    codes.extend(std::iter::repeat_n(p.code(), shown as usize));
                    hidden += lost[i] - shown;
                }
                codes.extend(std::iter::repeat_n("?", hidden as usize));
                (kind.seat_name(seat), codes)
            })
            .collect();
        GeneralsObservation {
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
