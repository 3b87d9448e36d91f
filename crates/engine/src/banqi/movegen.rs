//! Move generation and the legality of one action.

use crate::Seat;

use super::*;

impl Banqi {
    #[inline]
    pub(super) fn my_color(&self) -> Option<usize> {
        self.first_color.map(|c| {
            (c as usize)
                ^ match self.turn {
                    Seat::First => 0,
                    Seat::Second => 1,
                }
        })
    }

    /// Victims of an enemy of colour `en` that attacker kind `k` captures adjacently.
    #[inline]
    pub(super) fn victims(&self, k: usize, en: usize) -> u32 {
        let m = &self.capm[k];
        let e = &self.bb[en];
        e.iter().zip(m).fold(0, |v, (a, b)| v | (a & b))
    }

    /// The target of a Cannon jump from `from` in `dir`: the first piece after exactly one
    /// screen, if any.
    #[inline]
    pub(super) fn jump_target(&self, from: usize, dir: usize) -> Option<usize> {
        let mut b = RAY_MASKS[from][dir] & self.occ;
        if b.count_ones() < 2 {
            return None;
        }
        if DELTAS[dir] > 0 {
            b &= b - 1;
            Some(b.trailing_zeros() as usize)
        } else {
            b &= !(1 << (31 - b.leading_zeros()));
            Some(31 - b.leading_zeros() as usize)
        }
    }

    /// The destinations of one-square moves and captures of colour `me`'s face-up pieces
    /// (only from `restrict`), one bitboard per direction: the source of a destination `t`
    /// in direction `dir` is `t - DELTAS[dir]` (pieces of different kinds stand on
    /// different squares, so the directions' sets never mix them up). Without `with_empty`
    /// only captures (and attempts on face-down pieces) are included.
    #[inline(always)]
    pub(super) fn step_targets(&self, me: usize, restrict: u32, with_empty: bool) -> [u32; 4] {
        let en = 1 - me;
        let empty = if with_empty { !self.occ } else { 0 };
        let fd = if self.options.capture_face_down {
            self.down
        } else {
            0
        };
        let mut out = [0u32; 4];
        for k in 0..7 {
            let pcs = self.bb[me][k] & restrict;
            if pcs == 0 {
                continue;
            }
            let mut tgt = empty | self.victims(k, en);
            if self.caps[k] != 0 {
                tgt |= fd;
            }
            for (dir, o) in out.iter_mut().enumerate() {
                *o |= shift(pcs, dir) & tgt;
            }
        }
        out
    }

    /// Cannon jumps of colour `me` (Taiwan rules), only from `restrict`.
    #[inline]
    pub(super) fn gen_jumps(&self, me: usize, restrict: u32, mut push: impl FnMut(Move)) {
        if !self.jump {
            return;
        }
        let mut c = self.bb[me][Kind::Cannon as usize] & restrict;
        if c == 0 {
            return;
        }
        let fd = if self.options.capture_face_down {
            self.down
        } else {
            0
        };
        let jt = self.up[1 - me] | fd;
        while c != 0 {
            let from = c.trailing_zeros() as usize;
            c &= c - 1;
            for dir in 0..4 {
                if let Some(t) = self.jump_target(from, dir) {
                    if jt & (1 << t) != 0 {
                        push(Move::Step {
                            from: Square::at(from as u8),
                            to: Square::at(t as u8),
                        });
                    }
                }
            }
        }
    }

    /// Generates every capture and move of colour `me`'s face-up pieces (chain: only
    /// captures from the chain square).
    #[inline]
    pub(super) fn gen_steps(
        &self,
        me: usize,
        only_from: Option<Square>,
        mut push: impl FnMut(Move),
    ) {
        let restrict = only_from.map_or(u32::MAX, Square::bit);
        let t = self.step_targets(me, restrict, only_from.is_none());
        for (dir, &bits) in t.iter().enumerate() {
            let mut d = bits;
            while d != 0 {
                let to = d.trailing_zeros() as u8;
                d &= d - 1;
                push(Move::Step {
                    from: Square::at((to as i8 - DELTAS[dir]) as u8),
                    to: Square::at(to),
                });
            }
        }
        self.gen_jumps(me, restrict, push);
    }

    /// The legal captures of face-up enemy pieces by the side to move (steps and Cannon
    /// jumps), in the order [`Game::legal_moves`](crate::Game::legal_moves) lists them:
    /// without flips, moves to empty squares, attempts on face-down pieces or ending a
    /// chain. For a search's capture sequences: cheaper than filtering every action.
    pub fn legal_captures(&self, out: &mut Vec<Move>) {
        if self.outcome.is_some() {
            return;
        }
        let Some(me) = self.my_color() else {
            return;
        };
        let restrict = self.chain.map_or(u32::MAX, Square::bit);
        let up = self.up[1 - me];
        let t = self.step_targets(me, restrict, false);
        for (dir, &bits) in t.iter().enumerate() {
            let mut d = bits & up;
            while d != 0 {
                let to = d.trailing_zeros() as u8;
                d &= d - 1;
                out.push(Move::Step {
                    from: Square::at((to as i8 - DELTAS[dir]) as u8),
                    to: Square::at(to),
                });
            }
        }
        self.gen_jumps(me, restrict, |m| {
            if let Move::Step { to, .. } = m
                && up & to.bit() != 0
            {
                out.push(m);
            }
        });
    }

    /// Every legal action of the side to move, before the chase filter.
    pub(super) fn gen_all(&self, mut push: impl FnMut(Move)) {
        if let Some(sq) = self.chain {
            let me = self.my_color().expect("colours known in a chain");
            self.gen_steps(me, Some(sq), &mut push);
            push(Move::EndChain);
            return;
        }
        let mut d = self.down;
        while d != 0 {
            let s = d.trailing_zeros() as u8;
            d &= d - 1;
            push(Move::Flip(Square::at(s)));
        }
        if let Some(me) = self.my_color() {
            self.gen_steps(me, None, push);
        }
    }

    /// The squares the piece of kind `k` and colour `me` on `sq` attacks (could capture
    /// next), face-up enemies only.
    pub(super) fn attacks(&self, me: usize, k: usize, sq: usize) -> u32 {
        let en = 1 - me;
        let mut a = adjacent(sq as u8) & self.victims(k, en);
        if self.jump && k == Kind::Cannon as usize {
            for dir in 0..4 {
                if let Some(t) = self.jump_target(sq, dir) {
                    a |= (1 << t) & self.up[en];
                }
            }
        }
        a
    }

    /// Whether a move to an empty square is a chase, and the hash after it.
    pub(super) fn chase_info(&self, from: Square, to: Square) -> (bool, u64) {
        let mut g = self.clone();
        let me = g.my_color().expect("moves need colours");
        let p = g.cells[from.index()] as usize - 1;
        g.cells[to.index()] = g.cells[from.index()];
        g.cells[from.index()] = 0;
        let fb = from.bit() | to.bit();
        g.bb[me][p % 7] ^= fb;
        g.up[me] ^= fb;
        g.occ ^= fb;
        let chase = g.attacks(me, p % 7, to.index()) != 0;
        let h = self.hash ^ Z_PIECE[p][from.index()] ^ Z_PIECE[p][to.index()] ^ Z_SIDE;
        (chase, h)
    }

    /// Whether the chase rule forbids `mv`: a chasing move by a side whose previous move
    /// was also a chase, leading to a position that already occurred since the last flip or
    /// capture.
    pub(super) fn chase_forbidden(&self, mv: Move) -> bool {
        if !self.options.chase_rule || self.chain.is_some() {
            return false;
        }
        let Move::Step { from, to } = mv else {
            return false;
        };
        if self.occ & to.bit() != 0 || !self.chasing[self.turn.index()] {
            return false;
        }
        let (chase, h) = self.chase_info(from, to);
        chase && self.history.contains(&h)
    }

    pub(super) fn has_action(&self) -> bool {
        if self.chain.is_some() {
            return true;
        }
        if self.down != 0 {
            return true;
        }
        let Some(me) = self.my_color() else {
            return false;
        };
        let own = self.up[me];
        if (shift(own, 0) | shift(own, 1) | shift(own, 2) | shift(own, 3)) & !self.occ != 0
            && !self.options.chase_rule
        {
            return true;
        }
        if !self.options.chase_rule {
            let t = self.step_targets(me, u32::MAX, true);
            if t.iter().any(|&b| b != 0) {
                return true;
            }
        }
        let mut any = false;
        self.gen_steps(me, None, |mv| {
            if !any && !self.chase_forbidden(mv) {
                any = true;
            }
        });
        any
    }

    /// Why `mv` is illegal now, in the mover's terms (never naming a face-down piece).
    pub(super) fn illegal(&self, mv: Move) -> Option<String> {
        let mut legal = false;
        self.gen_all(|m| legal |= m == mv);
        if legal {
            return if self.chase_forbidden(mv) {
                Some(
                    "the chase rule forbids continuing an endless chase into a position that \
                     already occurred"
                        .into(),
                )
            } else {
                None
            };
        }
        if let Some(sq) = self.chain {
            return Some(format!(
                "you are in a capture chain: capture again with the piece on {sq}, or write end"
            ));
        }
        Some(match mv {
            Move::EndChain => "there is no capture chain to end".into(),
            Move::Flip(sq) => match self.at(sq) {
                None => format!("{sq} is empty; only a face-down piece can be flipped"),
                Some(_) => format!("{sq} is already face up"),
            },
            Move::Step { from, to } => self.why_step(from, to),
        })
    }

    pub(super) fn why_step(&self, from: Square, to: Square) -> String {
        let Some(me) = self.my_color() else {
            return "no piece is face up yet: the first action must flip a piece".into();
        };
        let me_c = Color::from_index(me);
        let Some((p, down)) = self.at(from) else {
            return format!("there is no piece on {from}");
        };
        if down {
            return format!("{from} is face down; only your own face-up pieces move");
        }
        if p.color != me_c {
            return format!(
                "{from} holds a {} piece; you play {}",
                p.color.name(),
                me_c.name()
            );
        }
        let adj = adjacent(from.0) & to.bit() != 0;
        let target = self.at(to);
        match target {
            None if adj => "this move is not allowed now".into(),
            None => "a piece moves one square forward, backward or sideways, never diagonally or further"
                .into(),
            Some((_, true)) => {
                if self.options.capture_face_down {
                    format!("the {} on {from} cannot attack {to} this way", p.kind.name())
                } else {
                    format!("{to} is face down; only face-up enemy pieces can be captured (flip it instead)")
                }
            }
            Some((q, false)) if q.color == me_c => format!("{to} holds one of your own pieces"),
            Some((q, false)) => {
                if p.kind == Kind::Cannon && self.jump {
                    if adj && self.caps[Kind::Cannon as usize] & (1 << q.kind as u8) == 0 {
                        format!(
                            "a Cannon cannot capture an adjacent {}; it captures by jumping over exactly one piece",
                            q.kind.name()
                        )
                    } else {
                        format!(
                            "a Cannon captures along a rank or file over exactly one piece, with only empty squares otherwise between; that is not so from {from} to {to}"
                        )
                    }
                } else if !adj {
                    "a piece moves and captures one square forward, backward or sideways".into()
                } else {
                    format!(
                        "a {} cannot capture a {} under {} rules",
                        p.kind.name(),
                        q.kind.name(),
                        RULESETS
                            .iter()
                            .find(|(_, r)| *r == self.options.ruleset)
                            .map_or("these", |(n, _)| *n)
                    )
                }
            }
        }
    }
}
