//! Playing a move: the board, the attack, the repetition bookkeeping.

use crate::{EndReason, Outcome, Seat, Viewer};

use super::*;

impl Stratego {
    pub(super) fn put(&mut self, sq: usize, c: Cell) {
        let (seat, p) = (cell_seat(c).index(), cell_piece::<Piece>(c));
        let b = 1u128 << sq;
        self.cells[sq] = c;
        self.occ[seat] |= b;
        if p.is_movable() {
            self.movable[seat] |= b;
        }
        if p == Piece::Scout {
            self.scouts[seat] |= b;
        }
        self.hash ^= ZOBRIST[sq][c as usize];
    }

    pub(super) fn take(&mut self, sq: usize) -> Cell {
        let c = self.cells[sq];
        let seat = cell_seat(c).index();
        let nb = !(1u128 << sq);
        self.cells[sq] = 0;
        self.occ[seat] &= nb;
        self.movable[seat] &= nb;
        self.scouts[seat] &= nb;
        self.known &= nb;
        self.rescuers &= nb;
        self.moved &= nb;
        self.hash ^= ZOBRIST[sq][c as usize];
        c
    }

    /// Applies a legal move; returns the event. The heart of the rules.
    pub(super) fn apply(&mut self, mv: Move) -> StrategoEvent {
        let me = self.turn;
        let them = me.other();
        let (from, to) = (mv.from.index(), mv.to.index());
        let tb = 1u128 << to;
        let before = self.hash;
        let was_known = self.known & (1u128 << from) != 0;
        let was_rescuer = self.rescuers & (1u128 << from) != 0;
        let seg = covered(from as u8, to as u8);
        let mover = self.take(from);
        let piece = cell_piece(mover);
        let long = self.move_shows_rank(piece, mv);
        self.ply += 1;
        let mut attack = None;
        let stands = if self.cells[to] == 0 {
            self.put(to, mover);
            self.quiet += 1;
            true
        } else {
            self.quiet = 0;
            let target = self.cells[to];
            let defender = cell_piece(target);
            let result = self.options.battle(piece, defender);
            attack = Some(Attack {
                attacker: piece,
                defender,
                result,
            });
            match result {
                Duel::AttackerWins => {
                    self.take(to);
                    self.put(to, mover);
                    self.lost[them.index()][defender as usize] += 1;
                    if defender == Piece::Flag {
                        self.outcome = Some(Outcome::win(me, EndReason::FlagCaptured));
                    }
                    true
                }
                Duel::DefenderWins => {
                    self.known |= tb;
                    self.lost[me.index()][piece as usize] += 1;
                    false
                }
                Duel::BothRemoved => {
                    self.take(to);
                    self.lost[me.index()][piece as usize] += 1;
                    self.lost[them.index()][defender as usize] += 1;
                    false
                }
            }
        };
        let piece_public = was_known || long || attack.is_some();
        let mut rescue = None;
        if stands {
            self.moved |= tb;
            if piece_public {
                self.known |= tb;
            }
            if was_rescuer {
                self.rescuers |= tb;
            }
            if let Some(r) = mv.rescue {
                self.make_rescue(me, to, r);
                rescue = Some(r);
            }
        }
        self.track_two_squares(me, from as u8, to as u8, seg, stands);
        self.track_chase(me, from as u8, to as u8, attack.is_some(), before);
        self.turn = them;
        if self.outcome.is_none() {
            if self
                .options
                .max_quiet_plies
                .is_some_and(|n| self.quiet >= n)
            {
                self.outcome = Some(Outcome::draw(EndReason::QuietPlies));
            } else {
                // Both sides under the same legality as move generation (the repetition
                // rules included): a side left without a legal move loses at once.
                let them_can = self.has_legal_move(them);
                let me_can = self.has_legal_move(me);
                self.outcome = match (me_can, them_can) {
                    (true, true) => None,
                    (true, false) => Some(Outcome::win(me, EndReason::NoLegalMoves)),
                    (false, true) => Some(Outcome::win(them, EndReason::NoLegalMoves)),
                    (false, false) => Some(Outcome::draw(EndReason::NeitherCanMove)),
                };
            }
        }
        StrategoEvent {
            ply: self.ply,
            seat: me,
            mv,
            piece,
            piece_public,
            attack,
            rescue,
        }
    }

    pub(super) fn track_two_squares(
        &mut self,
        me: Seat,
        from: u8,
        to: u8,
        seg: u128,
        stands: bool,
    ) {
        let Some(limit) = self.options.two_square_limit else {
            self.two[me.index()].last = (from, to);
            return;
        };
        let limit = limit as usize;
        let two = &mut self.two[me.index()];
        two.run = if two.at == from {
            (two.run + 1).min(limit as u8)
        } else {
            1
        };
        two.covered.copy_within(0..limit - 1, 1);
        two.covered[0] = seg;
        two.at = if stands { to } else { NO_SQUARE };
        two.last = (from, to);
        two.forbidden = if stands && two.run as usize >= limit {
            let and = two.covered[..limit].iter().fold(BOARD, |a, &m| a & m);
            if and.count_ones() >= 2 { and } else { 0 }
        } else {
            0
        };
    }

    pub(super) fn track_chase(&mut self, me: Seat, from: u8, to: u8, attack: bool, before: u64) {
        if !self.options.chase_rule {
            return;
        }
        let them = me.other();
        let threatened_before = self.threatened;
        let now = self.hash;
        match self.chase.chaser {
            Some(c) if c == me => {
                if !attack && ADJACENT[to as usize] & (1u128 << self.chase.chased) != 0 {
                    self.chase.positions.push(now);
                } else {
                    self.chase.chaser = None;
                }
            }
            Some(_) => {
                if !attack && from == self.chase.chased {
                    self.chase.chased = to;
                    self.chase.positions.push(now);
                } else {
                    self.chase.chaser = None;
                }
            }
            None => {}
        }
        if self.chase.chaser.is_none() && !attack && threatened_before & (1u128 << from) != 0 {
            // An evasion of the piece the opponent just moved next to: a chase begins.
            self.chase.chaser = Some(them);
            self.chase.chased = to;
            self.chase.positions.clear();
            self.chase
                .positions
                .extend_from_slice(&[self.hash_before, before, now]);
        }
        self.hash_before = before;
        self.threatened = if attack {
            0
        } else {
            ADJACENT[to as usize] & self.occ[them.index()]
        };
    }

    /// Whether `viewer` may see the rank of `seat`'s piece whose rank is public or not.
    pub(super) fn sees(viewer: Viewer, seat: Seat, public: bool) -> bool {
        viewer.sees_own(seat) || public
    }
}
