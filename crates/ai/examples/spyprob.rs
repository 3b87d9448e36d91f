//! Diagnostic: how well the expert's Generals belief knows the enemy's Spies. Over the
//! records given, at every fourth ply from the 20th where the seat of the bot named by
//! `BOT` (default `expert`) is to move, the belief's chance that each enemy piece on the
//! board is a Spy (400 samples) is set beside what the piece was, in three classes: the
//! piece that made the enemy's last move, a plain move ending next to one of the seat's
//! pieces; other pieces that have moved and stand next to one of the seat's pieces; and
//! the rest: `spyprob <record>...` (`docs/ai.md`, *The enemy's own pieces, at the leaf
//! and in the tree*).
mod common;

use salpakan_ai::Knowledge;
use salpakan_ai::games::generals::expert_belief;
use salpakan_engine::generals::{Piece, Square};
use salpakan_engine::{Game, Record, Seat, rng_from_seed};

fn main() {
    let bot = std::env::var("BOT").unwrap_or_else(|_| "expert".into());
    // [class] = (positions, belief sum, Spies)
    let mut by_class = [(0u32, 0.0f64, 0u32); 3];
    let mut rng = rng_from_seed(1);
    for path in std::env::args().skip(1) {
        let text = std::fs::read_to_string(&path).expect("a record");
        let full = Record::parse(&text).expect("a record");
        let tag = |k: &str| full.tags.iter().find(|t| t.0 == k).map(|t| t.1.clone());
        let seat = if tag("White").is_some_and(|w| w.starts_with(&bot)) {
            Seat::First
        } else {
            Seat::Second
        };
        for ply in (20..full.plies.len()).step_by(4) {
            let Ok(m) = common::match_at_ply(&full, ply) else {
                continue;
            };
            if m.game().to_move() != Some(seat) {
                continue;
            }
            let k = Knowledge::of(&m, seat);
            let b = expert_belief(&k);
            let n = 400;
            let mut spy = vec![0u32; b.tokens().len()];
            for _ in 0..n {
                let a = b.sample(&mut rng).expect("a sample");
                for (t, &p) in a.iter().enumerate() {
                    spy[t] += u32::from(p == Piece::Spy as u8);
                }
            }
            for (t, tok) in b.tokens().iter().enumerate() {
                let Some(s) = tok.square.map(common::square) else {
                    continue;
                };
                let near = tok.moves > 0
                    && Square::all().any(|o| {
                        o.steps_to(s) == 1 && matches!(m.game().at(o), Some((w, _)) if w == seat)
                    });
                let just = near
                    && k.history()
                        .last()
                        .is_some_and(|v| v.to == s && v.challenge.is_none());
                let c = &mut by_class[usize::from(near) + usize::from(just)];
                c.0 += 1;
                c.1 += f64::from(spy[t]) / f64::from(n);
                c.2 += u32::from(m.game().at(s) == Some((seat.other(), Piece::Spy)));
            }
        }
    }
    for (name, (count, belief, spies)) in ["other", "moved, next to ours", "just came next to ours"]
        .iter()
        .zip(by_class)
    {
        println!(
            "{name:>20}: {count} pieces, belief {:.3}, Spies {:.3}",
            belief / f64::from(count.max(1)),
            f64::from(spies) / f64::from(count.max(1))
        );
    }
}
