//! Reading and setting up positions (diagrams, the unseen pool, flips' odds).

use crate::{EndReason, Game, Outcome, Seat, SetupError};

use super::*;

impl Banqi {
    /// The piece on `sq` (face up or down), as the arbiter sees it, and whether it is face
    /// down.
    #[must_use]
    pub fn at(&self, sq: Square) -> Option<(Piece, bool)> {
        let c = self.cells[sq.index()];
        (c != 0).then(|| (Piece::from_index(c as usize - 1), self.down & sq.bit() != 0))
    }

    /// A position from a diagram, for puzzles, tests and analysis: 8 rows, rank 8 first,
    /// of 4 space-separated cells each: a piece code (`K`, `p`: face up), `?` and a code
    /// (`?K`: face down), or `.` (empty). Pieces missing from the diagram count as
    /// captured. `first` is the first seat's colour, `to_move` the seat to move. Such a
    /// position has no record of how it arose, so it cannot be written as a replayable
    /// record; play it with [`Game::play`].
    ///
    /// # Errors
    /// A malformed diagram or more pieces than a set holds; the message names the rank or
    /// the square.
    // About 100 lines: reading the diagram and checking the position it describes are one
    // pass over its cells, with one error per rank or square.
    pub fn from_diagram(
        options: &BanqiOptions,
        diagram: &str,
        first: Color,
        to_move: Seat,
    ) -> Result<Banqi, SetupError> {
        let rows: Vec<&str> = diagram
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect();
        if rows.len() != RANKS as usize {
            return Err(SetupError::Invalid(format!(
                "a diagram has 8 rows (rank 8 first), not {}",
                rows.len()
            )));
        }
        let mut g = Banqi::start(options, Deal(Deal::sorted_pieces()))?;
        g.cells = [0; SQUARES];
        g.down = 0;
        g.occ = 0;
        g.remaining = [0; 2];
        let mut present = [0u8; 14];
        let mut unseen = [0u8; 14];
        for (i, row) in rows.iter().enumerate() {
            let rank = RANKS - 1 - i as u8;
            let cells: Vec<&str> = row.split_whitespace().collect();
            if cells.len() != FILES as usize {
                return Err(SetupError::Invalid(format!(
                    "diagram rank {}: {row:?} must have 4 cells",
                    rank + 1
                )));
            }
            for (f, cell) in cells.iter().enumerate() {
                let sq = Square::new(f as u8, rank).expect("on the board");
                if *cell == "." {
                    continue;
                }
                let (down, code) = match cell.strip_prefix('?') {
                    Some(c) => (true, c),
                    None => (false, *cell),
                };
                let p = Piece::from_code_str(code).ok_or_else(|| SetupError::UnknownPiece {
                    seat: "diagram".into(),
                    square: sq.to_string(),
                    code: (*cell).into(),
                    known: format!("{CODES_TEXT}, ? before a code for face down, . for empty"),
                })?;
                present[p.index()] += 1;
                if present[p.index()] > p.count() {
                    return Err(SetupError::WrongCount {
                        seat: "diagram".into(),
                        piece: p.code().to_string(),
                        expected: u32::from(p.count()),
                        found: u32::from(present[p.index()]),
                    });
                }
                g.cells[sq.index()] = p.index() as u8 + 1;
                g.occ |= sq.bit();
                g.remaining[p.color as usize] += 1;
                if down {
                    g.down |= sq.bit();
                    unseen[p.index()] += 1;
                } else {
                    g.bb[p.color as usize][p.kind as usize] |= sq.bit();
                    g.up[p.color as usize] |= sq.bit();
                }
            }
        }
        g.unseen = unseen;
        for p in Piece::ALL {
            for _ in present[p.index()]..p.count() {
                g.captured.push(p);
            }
        }
        g.first_color = Some(first);
        g.turn = to_move;
        g.hash = 0;
        for s in Square::all() {
            if let Some((p, false)) = g.at(s) {
                g.hash ^= Z_PIECE[p.index()][s.index()];
            }
        }
        if to_move == Seat::Second {
            g.hash ^= Z_SIDE;
        }
        g.history.clear();
        if g.track {
            g.history.push(g.hash);
        }
        for seat in Seat::BOTH {
            let c = g.colour_of(seat).expect("colours given") as usize;
            if g.remaining[c] == 0 {
                g.outcome = Some(Outcome::win(seat.other(), EndReason::NoPiecesLeft));
                return Ok(g);
            }
        }
        if !g.has_action() {
            g.outcome = Some(Outcome::win(to_move.other(), EndReason::NoLegalMoves));
        }
        Ok(g)
    }

    /// The colour `seat` plays, once the first flip decided it.
    #[must_use]
    pub fn colour_of(&self, seat: Seat) -> Option<Color> {
        self.first_color.map(|c| match seat {
            Seat::First => c,
            Seat::Second => c.other(),
        })
    }

    /// A key of the public position for a search's transposition table: the face-up
    /// pieces, the face-down squares, the side to move, which colour each seat plays, a
    /// capture chain and the quiet-ply count. Never the face-down pieces' identities.
    /// (Computed from the board, whatever the repetition options: the repetition key is
    /// kept only when a rule needs it.) The colours count: the same board is reached with
    /// the seats' colours either way round when the first two flips are made in the other
    /// order and turn up pieces of the other colours.
    #[must_use]
    pub fn search_key(&self) -> u64 {
        let chain = self.chain.map_or(0, |c| c.index() as u64 + 1);
        let colours = self.first_color.map_or(0, |c| c as u64 + 1);
        let mut h = splitmix(
            u64::from(self.down)
                | (self.turn.index() as u64) << 32
                | chain << 33
                | u64::from(self.quiet) << 40
                | colours << 60,
        );
        for (c, kinds) in self.bb.iter().enumerate() {
            for (k, &b) in kinds.iter().take(7).enumerate() {
                if b != 0 {
                    h = splitmix(h ^ u64::from(b) ^ ((c * 7 + k) as u64) << 32);
                }
            }
        }
        h
    }

    /// The face-up pieces with their squares, `a1` first, rank by rank (the order of
    /// [`Square::all`]): public knowledge, read without visiting empty or face-down squares.
    pub fn face_up(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        let mut bits = self.up[0] | self.up[1];
        std::iter::from_fn(move || {
            (bits != 0).then(|| {
                let i = bits.trailing_zeros() as u8;
                bits &= bits - 1;
                let piece = Piece::from_index(self.cells[usize::from(i)] as usize - 1);
                (Square::at(i), piece)
            })
        })
    }

    /// The kinds each kind takes by a one-square step under these options, as a bit per
    /// victim [`Kind`] (`1 << kind as u8`), indexed by the attacker's kind: the table
    /// [`BanqiOptions::takes_by_step`] gives, computed once per game.
    #[must_use]
    pub fn step_captures(&self) -> [u8; 7] {
        self.caps
    }

    /// Consecutive plies with neither a flip nor a capture (the quiet-ply count that
    /// `max_quiet_plies` limits): public knowledge.
    #[must_use]
    pub fn quiet_plies(&self) -> u32 {
        self.quiet
    }

    /// The pieces still face down, by [`Piece::index`]: public knowledge (every flip and
    /// capture is public).
    #[must_use]
    pub fn unseen_pool(&self) -> [u8; 14] {
        self.unseen
    }

    /// The chance event of flipping `sq`: each piece it may turn out to be, with its
    /// probability given everything revealed so far (every face-down square is equally
    /// likely to hold any unseen piece). `None` unless `sq` is face down.
    ///
    /// This uses only public knowledge; the arbiter's deal decides what a real flip reveals.
    #[must_use]
    pub fn flip_distribution(&self, sq: Square) -> Option<Vec<(Piece, f64)>> {
        if self.down & sq.bit() == 0 {
            return None;
        }
        let total: u32 = self.unseen.iter().map(|&n| u32::from(n)).sum();
        Some(
            Piece::ALL
                .iter()
                .filter(|p| self.unseen[p.index()] > 0)
                .map(|&p| (p, f64::from(self.unseen[p.index()]) / f64::from(total)))
                .collect(),
        )
    }

    /// Makes the face-down piece on `sq` be `piece` by swapping it with another face-down
    /// square holding `piece`: a determinization for AI search (a chance outcome chosen
    /// before playing the flip). Returns `false`, changing nothing, if `sq` is not face down
    /// or no face-down square holds `piece`. Never use this on the arbiter's game.
    pub fn set_face_down(&mut self, sq: Square, piece: Piece) -> bool {
        if self.down & sq.bit() == 0 {
            return false;
        }
        let want = piece.index() as u8 + 1;
        if self.cells[sq.index()] == want {
            return true;
        }
        let mut d = self.down;
        while d != 0 {
            let s = d.trailing_zeros() as usize;
            d &= d - 1;
            if self.cells[s] == want {
                self.cells.swap(s, sq.index());
                return true;
            }
        }
        false
    }
}
