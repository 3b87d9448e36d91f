//! Move generation and the legality of one move (the two repetition rules included).

use crate::{GameKind, Seat};

use super::*;

/// Up to 4 directions × 9 distances of target sets, each with its source offset.
pub(super) struct Targets {
    pub(super) sets: [(u128, i8); 40],
    pub(super) n: usize,
}

impl Stratego {
    pub(super) fn piece_at(&self, sq: Square) -> Option<(Seat, Piece)> {
        board::cell_at(&self.cells, sq.index())
    }

    /// The piece on `sq`, as the arbiter sees it.
    #[must_use]
    pub fn at(&self, sq: Square) -> Option<(Seat, Piece)> {
        self.piece_at(sq)
    }

    /// The Zobrist hash of the board (pieces, ranks and owners).
    #[must_use]
    pub fn board_hash(&self) -> u64 {
        self.hash
    }

    /// Whether a chase is on, and who is chasing whose piece on which square.
    #[must_use]
    pub fn chase(&self) -> Option<(Seat, Square)> {
        self.chase
            .chaser
            .map(|s| (s, Square::at(self.chase.chased)))
    }

    pub(super) fn empty(&self) -> u128 {
        LAND & !(self.occ[0] | self.occ[1])
    }

    /// The squares `seat`'s pieces stand on, as bits (bit [`Square::index`]), for code that
    /// reads the board faster than square by square.
    #[must_use]
    pub fn occupied(&self, seat: Seat) -> u128 {
        self.occ[seat.index()]
    }

    /// Consecutive plies without an attack (the quiet-ply count that `max_quiet_plies`
    /// limits): public knowledge.
    #[must_use]
    pub fn quiet_plies(&self) -> u32 {
        self.quiet
    }

    /// The empty squares (the lakes are not squares a piece can stand on), as bits.
    #[must_use]
    pub fn empty_land(&self) -> u128 {
        self.empty()
    }

    /// Every pseudo-legal move of `me` (repetition rules not applied), as target sets.
    pub(super) fn targets(&self, me: Seat) -> Targets {
        let mut t = Targets {
            sets: [(0, 0); 40],
            n: 0,
        };
        let empty = self.empty();
        let enemy = self.occ[me.other().index()];
        let far_enemy = if self.options.scout_strike { enemy } else { 0 };
        for (dir, &d) in DELTAS.iter().enumerate() {
            let step = shift(self.movable[me.index()], dir) & (empty | enemy);
            if step != 0 {
                t.sets[t.n] = (step, d);
                t.n += 1;
            }
            let mut run = shift(self.scouts[me.index()], dir) & empty;
            let mut k = 2i8;
            while run != 0 {
                let next = shift(run, dir);
                let to = next & (empty | far_enemy);
                if to != 0 {
                    t.sets[t.n] = (to, d * k);
                    t.n += 1;
                }
                run = next & empty;
                k += 1;
            }
        }
        t
    }

    pub(super) fn has_pseudo_move(&self, me: Seat) -> bool {
        let open = self.empty() | self.occ[me.other().index()];
        let m = self.movable[me.index()];
        (shift(m, 0) | shift(m, 1) | shift(m, 2) | shift(m, 3)) & open != 0
    }

    /// Whether the repetition rules allow `me` the pseudo-legal move `from`-`to`.
    #[inline]
    pub(super) fn repetition_ok(&self, me: Seat, from: u8, to: u8) -> bool {
        let two = &self.two[me.index()];
        if two.forbidden != 0
            && from == two.at
            && (two.forbidden & covered(from, to)).count_ones() >= 2
        {
            return false;
        }
        !self.chase_forbids(me, from, to)
    }

    /// The more-squares rule: whether `from`-`to` is a chasing move of `me` that would
    /// repeat a position of the chase (and is not the move straight back).
    pub(super) fn chase_forbids(&self, me: Seat, from: u8, to: u8) -> bool {
        if self.chase.chaser != Some(me)
            || self.cells[to as usize] != 0
            || ADJACENT[to as usize] & (1u128 << self.chase.chased) == 0
        {
            return false;
        }
        let (lf, lt) = self.two[me.index()].last;
        if from == lt && to == lf {
            return false;
        }
        let c = self.cells[from as usize] as usize;
        let after = self.hash ^ ZOBRIST[from as usize][c] ^ ZOBRIST[to as usize][c];
        self.chase.positions.contains(&after)
    }

    pub(super) fn has_legal_move(&self, me: Seat) -> bool {
        if self.two[me.index()].forbidden == 0 && self.chase.chaser != Some(me) {
            // Neither repetition rule restricts `me` now: every pseudo-legal move is legal.
            return self.has_pseudo_move(me);
        }
        // One-square moves first: almost always one of them is legal.
        let open = self.empty() | self.occ[me.other().index()];
        for (dir, &d) in DELTAS.iter().enumerate() {
            let mut bits = shift(self.movable[me.index()], dir) & open;
            while bits != 0 {
                let to = bits.trailing_zeros() as u8;
                bits &= bits - 1;
                if self.repetition_ok(me, (to as i8 - d) as u8, to) {
                    return true;
                }
            }
        }
        let t = self.targets(me);
        for &(set, d) in &t.sets[..t.n] {
            let mut bits = set;
            while bits != 0 {
                let to = bits.trailing_zeros() as u8;
                bits &= bits - 1;
                if self.repetition_ok(me, (to as i8 - d) as u8, to) {
                    return true;
                }
            }
        }
        self.two_steps(me)
            .into_iter()
            .any(|(from, to)| self.repetition_ok(me, from, to))
    }

    /// Why `mv` is illegal for the side to move, in the mover's terms; `None` if legal.
    pub(super) fn illegal(&self, mv: Move) -> Option<String> {
        let me = self.turn;
        let name = |s: Seat| GameKind::Stratego.seat_name(s);
        let piece = match self.piece_at(mv.from) {
            None => return Some(format!("there is no piece on {}", mv.from)),
            Some((s, _)) if s != me => {
                return Some(format!(
                    "{} holds a {} piece; it is {}'s turn",
                    mv.from,
                    name(s),
                    name(me)
                ));
            }
            Some((_, p)) => p,
        };
        if !piece.is_movable() {
            return Some(format!("your {} on {} cannot move", piece.name(), mv.from));
        }
        if mv.to.is_lake() {
            return Some(format!("{} is a lake", mv.to));
        }
        if mv.from == mv.to {
            return Some("a move must leave its square".into());
        }
        let two_step = self.is_two_step(piece, mv.from, mv.to);
        let seg = covered(mv.from.0, mv.to.0);
        let dist = seg.count_ones() - 1;
        if two_step {
            if let Some(why) = self.two_step_error(mv.from, mv.to) {
                return Some(why);
            }
        } else {
            if mv.from.file() != mv.to.file() && mv.from.rank() != mv.to.rank() {
                return Some("pieces move in straight lines, never diagonally".into());
            }
            let between = seg & !mv.from.bit() & !mv.to.bit();
            if dist > 1 && piece != Piece::Scout {
                return Some(format!(
                    "only a Scout moves more than one square; your {} moves one{}",
                    piece.name(),
                    if self.options.captain_steps > 1 {
                        " (a Captain two)"
                    } else {
                        ""
                    }
                ));
            }
            if between & LAKES != 0 {
                return Some("a Scout cannot cross a lake".into());
            }
            if between & (self.occ[0] | self.occ[1]) != 0 {
                return Some("a Scout cannot jump over pieces".into());
            }
        }
        let target = self.piece_at(mv.to);
        match target {
            Some((s, _)) if s == me => {
                return Some(format!("{} holds one of your own pieces", mv.to));
            }
            Some(_) if !two_step && dist > 1 && !self.options.scout_strike => {
                return Some(
                    "a Scout may not move and attack in one move in this game (scout_strike is off)"
                        .into(),
                );
            }
            _ => {}
        }
        let two = &self.two[me.index()];
        if two.forbidden != 0 && mv.from.0 == two.at && (two.forbidden & seg).count_ones() >= 2 {
            return Some(format!(
                "the two-squares rule: this piece has already moved {} times in a row between the same two squares",
                self.options.two_square_limit.unwrap_or(0)
            ));
        }
        if self.chase_forbids(me, mv.from.0, mv.to.0) {
            return Some(
                "the more-squares rule: as the continuous chaser you may not repeat a position of this chase"
                    .into(),
            );
        }
        if let Some(r) = mv.rescue {
            return self.rescue_error(me, mv, piece, r);
        }
        None
    }
}
