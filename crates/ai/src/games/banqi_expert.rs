//! Banqi knowledge of the `expert` bot (`docs/ai.md`): converting a won endgame before the
//! quiet-ply draw. The side ahead hunts the enemy's last pieces (the distance of its
//! nearest piece that can take each one, the squares each one can still flee to), and a
//! position counts the more as a draw the closer the quiet-ply count is to its limit, so
//! that the side ahead prefers captures and flips (which reset the count) in time.

use salpakan_engine::banqi::{Banqi, Kind, Square};
use salpakan_engine::{Game, Seat};

use super::banqi::{search_evaluate, value};
use super::{logit, squash, terminal};
use crate::Knowledge;

/// At most this many enemy pieces left (face up or down) and the hunt is on.
pub const ENDGAME_PIECES: u32 = 4;

/// What the expert evaluation knows of the root.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Context {
    /// Quiet plies (neither a flip nor a capture) at the root.
    pub quiet: u32,
    /// Plies played at the root.
    pub ply: u32,
    /// The quiet-ply limit of the options (a draw when reached), if any.
    pub limit: Option<u32>,
    /// Pieces on the board at the root (face up and down).
    pub pieces: u32,
    /// Face-down pieces at the root.
    pub face_down: u32,
}

fn counts(g: &Banqi) -> (u32, u32) {
    let mut pieces = 0;
    let mut down = 0;
    for s in Square::all() {
        if let Some((_, face_down)) = g.at(s) {
            pieces += 1;
            down += u32::from(face_down);
        }
    }
    (pieces, down)
}

/// The context for one move (the counts are public, the same in every sample).
#[must_use]
pub fn context(k: &Knowledge<Banqi>, pool: &[Banqi]) -> Context {
    let (pieces, face_down) = pool.first().map_or((32, 32), counts);
    Context {
        quiet: k.observation().quiet_plies,
        ply: k.observation().ply,
        limit: k.options().max_quiet_plies,
        pieces,
        face_down,
    }
}

fn dist(a: Square, b: Square) -> u32 {
    u32::from(a.file().abs_diff(b.file()) + a.rank().abs_diff(b.rank()))
}

/// The quiet plies at a leaf: 0 if a piece was captured or flipped since the root, else
/// the root's count plus the plies since.
#[must_use]
pub fn quiet_at(g: &Banqi, ctx: &Context) -> u32 {
    let (pieces, down) = counts(g);
    if pieces < ctx.pieces || down < ctx.face_down {
        0
    } else {
        ctx.quiet + g.ply().saturating_sub(ctx.ply)
    }
}

/// The hunt for `colour` (0 red, 1 black) against the other colour's last pieces, averaged
/// over the enemy's face-up pieces: 0.06 for each square by which the nearest of our
/// face-up pieces that takes it by a step is closer than 10, and 0.04 for each of its four
/// neighbours that is not an empty square it could flee to.
pub(crate) fn hunt(g: &Banqi, colour: usize) -> f64 {
    let o = g.options();
    let mut ours: Vec<(Square, Kind)> = Vec::new();
    let mut theirs: Vec<(Square, Kind)> = Vec::new();
    for s in Square::all() {
        if let Some((p, false)) = g.at(s) {
            if p.color as usize == colour {
                ours.push((s, p.kind));
            } else {
                theirs.push((s, p.kind));
            }
        }
    }
    if theirs.is_empty() {
        return 0.0;
    }
    let mut x = 0.0;
    for &(t, v) in &theirs {
        let nearest = ours
            .iter()
            .filter(|&&(_, a)| a != Kind::Cannon && o.takes_by_step(a, v))
            .map(|&(s, _)| dist(s, t))
            .min();
        if let Some(d) = nearest {
            x += 0.06 * f64::from(10u32.saturating_sub(d));
        }
        let (f, r) = (t.file() as i8, t.rank() as i8);
        let free = [(0i8, 1i8), (0, -1), (1, 0), (-1, 0)]
            .into_iter()
            .filter_map(|(df, dr)| Square::new((f + df) as u8, (r + dr) as u8))
            .filter(|&s| g.at(s).is_none())
            .count();
        x += 0.04 * (4 - free) as f64;
    }
    x / theirs.len() as f64
}

/// The expert evaluation for `seat`: the search evaluation's logit, plus, for a side ahead
/// in material (by more than 1.5) whose enemy has at most [`ENDGAME_PIECES`] pieces left,
/// its hunt of them; then the logit is shrunk towards the draw by (quiet ÷ limit)², so a
/// won position is worth less the nearer the quiet-ply draw.
#[must_use]
pub fn evaluate(g: &Banqi, seat: Seat, ctx: &Context) -> f64 {
    if let Some(v) = terminal(g, seat) {
        return v;
    }
    let base = search_evaluate(g, seat);
    let Some(mine) = g.colour_of(seat) else {
        return base;
    };
    let me = mine as usize;
    let mut x = logit(base);
    let mut material = [0.0f64; 2];
    let mut left = [0u32; 2];
    for s in Square::all() {
        if let Some((p, _)) = g.at(s) {
            material[p.color as usize] += value(p.kind);
            left[p.color as usize] += 1;
        }
    }
    for (c, sign) in [(me, 1.0), (1 - me, -1.0)] {
        if material[c] - material[1 - c] > 1.5 && left[1 - c] <= ENDGAME_PIECES {
            x += sign * hunt(g, c);
        }
    }
    if let Some(limit) = ctx.limit.filter(|&l| l > 0) {
        let q = f64::from(quiet_at(g, ctx).min(limit)) / f64::from(limit);
        x *= 1.0 - q * q;
    }
    squash(x)
}
