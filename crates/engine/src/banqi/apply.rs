//! Playing an action.

use crate::{EndReason, Outcome, Seat};

use super::*;

impl Banqi {
    #[inline]
    pub(super) fn put_up(&mut self, sq: usize, p: usize) {
        let b = 1u32 << sq;
        self.bb[p / 7][p % 7] |= b;
        self.up[p / 7] |= b;
        if self.track {
            self.hash ^= Z_PIECE[p][sq];
        }
    }

    #[inline]
    pub(super) fn take_up(&mut self, sq: usize, p: usize) {
        let b = 1u32 << sq;
        self.bb[p / 7][p % 7] &= !b;
        self.up[p / 7] &= !b;
        if self.track {
            self.hash ^= Z_PIECE[p][sq];
        }
    }

    /// Applies a legal action; returns the event. The heart of the rules.
    // Over 100 lines on purpose: this is the hot path of every playout and search, and one
    // body keeps the board, the bitboards and the event together; the rules of a ply read
    // top to bottom.
    pub(super) fn apply(&mut self, mv: Move) -> BanqiEvent {
        let seat = self.turn;
        self.ply += 1;
        let mut ev = BanqiEvent {
            ply: self.ply,
            seat,
            mv,
            action: Action::Move,
            piece: None,
            revealed: None,
            captured: None,
            colours_decided: None,
            chain_continues: false,
        };
        let mut irreversible = false;
        let mut chase_now = false;
        if self.track {
            if let Some(c) = self.chain {
                self.hash ^= Z_CHAIN[c.index()];
            }
        }
        let was_chain = self.chain.take();
        match mv {
            Move::Flip(sq) => {
                let s = sq.index();
                let p = self.cells[s] as usize - 1;
                self.down &= !sq.bit();
                self.unseen[p] -= 1;
                self.put_up(s, p);
                let piece = Piece::from_index(p);
                if self.first_color.is_none() {
                    let c = match seat {
                        Seat::First => piece.color,
                        Seat::Second => piece.color.other(),
                    };
                    self.first_color = Some(c);
                    ev.colours_decided = Some(c);
                }
                ev.action = Action::Flip;
                ev.revealed = Some(piece);
                irreversible = true;
            }
            Move::Step { from, to } => {
                let (f, t) = (from.index(), to.index());
                let p = self.cells[f] as usize - 1;
                let me = p / 7;
                ev.piece = Some(Piece::from_index(p));
                let tb = to.bit();
                let mut capture = None;
                if self.down & tb != 0 {
                    // An attempt on a face-down piece: it is turned up, and taken if it can be.
                    let v = self.cells[t] as usize - 1;
                    self.down &= !tb;
                    self.unseen[v] -= 1;
                    ev.action = Action::Attempt;
                    ev.revealed = Some(Piece::from_index(v));
                    irreversible = true;
                    let adj = adjacent(from.0) & tb != 0;
                    let ok = v / 7 != me
                        && if adj {
                            self.caps[p % 7] & (1 << (v % 7)) != 0
                        } else {
                            true // a Cannon's jump takes any piece
                        };
                    if ok {
                        capture = Some(v);
                    } else {
                        self.put_up(t, v);
                    }
                } else if self.occ & tb != 0 {
                    let v = self.cells[t] as usize - 1;
                    self.take_up(t, v);
                    ev.action = Action::Capture;
                    capture = Some(v);
                    irreversible = true;
                }
                if let Some(v) = capture {
                    self.remaining[v / 7] -= 1;
                    self.occ &= !tb;
                    let vp = Piece::from_index(v);
                    self.captured.push(vp);
                    ev.captured = Some(vp);
                }
                if ev.action != Action::Attempt || capture.is_some() {
                    self.cells[t] = self.cells[f];
                    self.cells[f] = 0;
                    self.occ = (self.occ & !from.bit()) | tb;
                    self.take_up(f, p);
                    self.put_up(t, p);
                    if capture.is_none() && self.options.chase_rule {
                        chase_now = self.attacks(me, p % 7, t) != 0;
                    }
                }
                if capture.is_some() && self.options.chain_captures && self.remaining[1 - me] > 0 {
                    let mut more = false;
                    self.gen_steps(me, Some(to), |_| more = true);
                    if more {
                        self.chain = Some(to);
                        ev.chain_continues = true;
                    }
                }
            }
            Move::EndChain => {
                ev.action = Action::EndChain;
                debug_assert!(was_chain.is_some());
            }
        }
        if irreversible {
            self.quiet = 0;
        } else if mv != Move::EndChain {
            self.quiet += 1;
        }
        self.chasing[seat.index()] = chase_now;
        if !ev.chain_continues {
            self.turn = seat.other();
            if self.track {
                self.hash ^= Z_SIDE;
            }
        } else if self.track {
            self.hash ^= Z_CHAIN[to_square(mv).index()];
        }
        if self.track {
            if irreversible {
                self.history.clear();
                self.recent.clear();
            } else {
                self.recent.push(mv);
            }
            self.history.push(self.hash);
        }
        // The end of the game.
        let enemy = self.colour_of(seat).map(|c| c.other() as usize);
        if enemy.is_some_and(|e| self.remaining[e] == 0) {
            self.outcome = Some(Outcome::win(seat, EndReason::NoPiecesLeft));
        } else if self
            .options
            .max_quiet_plies
            .is_some_and(|n| self.quiet >= n)
        {
            self.outcome = Some(Outcome::draw(EndReason::QuietPlies));
        } else if self.repeated() {
            self.outcome = Some(Outcome::draw(EndReason::Repetition));
        } else if !self.has_action() {
            self.outcome = Some(Outcome::win(self.turn.other(), EndReason::NoLegalMoves));
        }
        ev
    }

    pub(super) fn repeated(&self) -> bool {
        match self.options.repetition {
            Repetition::Off => false,
            Repetition::Threefold => self.history.iter().filter(|&&h| h == self.hash).count() >= 3,
            Repetition::Cycle => {
                let r = &self.recent;
                let n = r.len();
                (1..=n / 3).any(|k| {
                    r[n - k..] == r[n - 2 * k..n - k] && r[n - k..] == r[n - 3 * k..n - 2 * k]
                })
            }
        }
    }
}

/// The index of the `n`-th set bit of `b` (from the lowest).
#[inline]
pub(super) fn nth_bit(mut b: u32, mut n: u32) -> u8 {
    let mut base = 0;
    for width in [16u32, 8, 4] {
        let low = (b & ((1 << width) - 1)).count_ones();
        if n >= low {
            n -= low;
            b >>= width;
            base += width;
        }
    }
    for _ in 0..n {
        b &= b - 1;
    }
    (base + b.trailing_zeros()) as u8
}

pub(super) fn to_square(mv: Move) -> Square {
    match mv {
        Move::Flip(s) | Move::Step { to: s, .. } => s,
        Move::EndChain => Square::at(0),
    }
}
