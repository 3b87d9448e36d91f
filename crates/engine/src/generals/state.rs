//! The arbiter's state and the rules that change it.

use crate::{EndReason, GameKind, Outcome, Seat, Viewer};

use super::*;

/// A Game of the Generals game: the arbiter's full state.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Generals {
    pub(super) options: GeneralsOptions,
    pub(super) cells: [Cell; SQUARES],
    pub(super) occ: [u128; 2],
    /// Squares whose piece's rank is public (revealed by a challenge, or an open Flag).
    pub(super) known: u128,
    pub(super) turn: Seat,
    pub(super) ply: u32,
    pub(super) quiet: u32,
    /// A Flag on the far rank waiting for the opponent's one turn: its seat and square.
    pub(super) pending_flag: Option<(Seat, Square)>,
    pub(super) outcome: Option<Outcome>,
    /// Eliminated pieces per seat, by piece.
    pub(super) lost: [[u8; 15]; 2],
    /// Of those, how many were publicly revealed.
    pub(super) lost_known: [[u8; 15]; 2],
}

impl Generals {
    pub(super) fn piece_at(&self, sq: Square) -> Option<(Seat, Piece)> {
        board::cell_at(&self.cells, sq.index())
    }

    /// The piece on `sq`, as the arbiter sees it.
    #[must_use]
    pub fn at(&self, sq: Square) -> Option<(Seat, Piece)> {
        self.piece_at(sq)
    }

    /// The squares holding `seat`'s pieces, as bits (`a1` = bit 0, rank by rank): a
    /// position's pieces found without a look at each square.
    #[must_use]
    pub fn occupied(&self, seat: Seat) -> u128 {
        self.occ[seat.index()]
    }

    /// The far rank for `seat`'s Flag (rank 8 for White, rank 1 for Black).
    pub(super) const fn far_rank(seat: Seat) -> u8 {
        match seat {
            Seat::First => RANKS - 1,
            Seat::Second => 0,
        }
    }

    pub(super) fn targets(own: u128) -> [u128; 4] {
        let free = !own & BOARD;
        [
            (own << FILES) & free,         // north (+9)
            (own >> FILES) & free,         // south (-9)
            ((own & !FILE_I) << 1) & free, // east (+1)
            ((own & !FILE_A) >> 1) & free, // west (-1)
        ]
    }

    pub(super) const DELTAS: [i8; 4] = [FILES as i8, -(FILES as i8), 1, -1];

    pub(super) fn adjacent_mask(sq: Square) -> u128 {
        let b = 1u128 << sq.0;
        ((b << FILES) | (b >> FILES) | ((b & !FILE_I) << 1) | ((b & !FILE_A) >> 1)) & BOARD
    }

    pub(super) fn illegal(&self, mv: Move) -> Option<String> {
        let me = self.turn;
        let name = |s: Seat| GameKind::Generals.seat_name(s);
        match self.piece_at(mv.from) {
            None => return Some(format!("there is no piece on {}", mv.from)),
            Some((s, _)) if s != me => {
                return Some(format!(
                    "{} holds a {} piece; it is {}'s turn",
                    mv.from,
                    name(s),
                    name(me)
                ));
            }
            _ => {}
        }
        let (df, dr) = (
            (i16::from(mv.from.file()) - i16::from(mv.to.file())).abs(),
            (i16::from(mv.from.rank()) - i16::from(mv.to.rank())).abs(),
        );
        if df + dr != 1 {
            return Some(
                "a piece moves one square forward, backward or sideways, never diagonally".into(),
            );
        }
        if matches!(self.piece_at(mv.to), Some((s, _)) if s == me) {
            return Some(format!("{} holds one of your own pieces", mv.to));
        }
        None
    }

    /// Applies a legal move; returns the event. The heart of the rules.
    // Over 100 lines on purpose: this is the hot path of every playout and search, and one
    // body keeps the board, the bitboards and the event together; the rules of a ply read
    // top to bottom.
    pub(super) fn apply(&mut self, mv: Move) -> GeneralsEvent {
        let me = self.turn;
        let them = me.other();
        let (from, to) = (mv.from.index(), mv.to.index());
        let (fb, tb) = (1u128 << from, 1u128 << to);
        let mover = self.cells[from];
        let piece = cell_piece(mover);
        let target = self.cells[to];
        self.ply += 1;
        let mover_known = self.known & fb != 0;
        self.known &= !fb;
        // The one turn the opponent had against a Flag that reached the far rank.
        let pending = self.pending_flag.take();
        let mut challenge = None;
        let mut piece_public = mover_known;
        if target == 0 {
            self.cells[to] = mover;
            self.cells[from] = 0;
            self.occ[me.index()] ^= fb | tb;
            if mover_known {
                self.known |= tb;
            }
            self.quiet += 1;
        } else {
            let defender = cell_piece(target);
            let result = duel(piece, defender);
            let target_known = self.known & tb != 0;
            let reveal = self.options.reveal;
            self.cells[from] = 0;
            self.occ[me.index()] &= !fb;
            self.quiet = 0;
            let defender_public;
            match result {
                Duel::AttackerWins => {
                    self.cells[to] = mover;
                    self.occ[them.index()] &= !tb;
                    self.occ[me.index()] |= tb;
                    piece_public = mover_known || reveal != Reveal::None;
                    defender_public = target_known || reveal == Reveal::Both;
                    self.known &= !tb;
                    if piece_public {
                        self.known |= tb;
                    }
                    self.lose(them, defender, defender_public);
                }
                Duel::DefenderWins => {
                    piece_public = mover_known || reveal == Reveal::Both;
                    defender_public = target_known || reveal != Reveal::None;
                    if defender_public {
                        self.known |= tb;
                    }
                    self.lose(me, piece, piece_public);
                }
                Duel::BothEliminated => {
                    self.cells[to] = 0;
                    self.occ[them.index()] &= !tb;
                    self.known &= !tb;
                    piece_public = mover_known || reveal == Reveal::Both;
                    defender_public = target_known || reveal == Reveal::Both;
                    self.lose(me, piece, piece_public);
                    self.lose(them, defender, defender_public);
                }
            }
            challenge = Some(Challenge {
                defender,
                defender_public,
                result,
            });
            if defender == Piece::Flag && result != Duel::DefenderWins {
                self.outcome = Some(Outcome::win(me, EndReason::FlagCaptured));
            } else if piece == Piece::Flag && result != Duel::AttackerWins {
                self.outcome = Some(Outcome::win(them, EndReason::FlagCaptured));
            }
        }
        self.turn = them;
        if self.outcome.is_none() {
            if let Some((flag_seat, _)) = pending {
                // The opponent's one turn did not capture the Flag: it wins, even if this
                // very move brought the opponent's own Flag home (the earlier arrival first).
                self.outcome = Some(Outcome::win(flag_seat, EndReason::FlagReachedBackRank));
            } else if piece == Piece::Flag
                && self.cells[to] == mover
                && mv.to.rank() == Self::far_rank(me)
            {
                let enemy_adjacent = Self::adjacent_mask(mv.to) & self.occ[them.index()] != 0;
                let wins_now = match self.options.flag_rule {
                    FlagRule::Electronic => true,
                    FlagRule::Adjacent => !enemy_adjacent,
                    FlagRule::OneTurn => false,
                };
                if wins_now {
                    self.outcome = Some(Outcome::win(me, EndReason::FlagReachedBackRank));
                } else {
                    self.pending_flag = Some((me, mv.to));
                }
            }
        }
        if self.outcome.is_none() {
            if self.max_quiet_reached() {
                self.outcome = Some(Outcome::draw(EndReason::QuietPlies));
            } else if self.occ[them.index()] == 0
                || Self::targets(self.occ[them.index()])
                    .iter()
                    .all(|&t| t == 0)
            {
                self.outcome = Some(Outcome::win(me, EndReason::NoLegalMoves));
            }
        }
        GeneralsEvent {
            ply: self.ply,
            seat: me,
            mv,
            piece,
            piece_public,
            challenge,
        }
    }

    pub(super) fn max_quiet_reached(&self) -> bool {
        self.options
            .max_quiet_plies
            .is_some_and(|n| self.quiet >= n)
    }

    pub(super) fn lose(&mut self, seat: Seat, p: Piece, public: bool) {
        self.lost[seat.index()][p as usize] += 1;
        if public {
            self.lost_known[seat.index()][p as usize] += 1;
        }
    }

    /// Whether `viewer` may see the rank of `seat`'s piece that is (or was) public or not.
    pub(super) fn sees(&self, viewer: Viewer, seat: Seat, public: bool) -> bool {
        viewer.sees_own(seat) || public || (self.outcome.is_some() && self.options.reveal_at_end)
    }
}
