//! The `expert` bot: the same information-set MCTS as `mcts` (which stays unchanged as the
//! reference), with the game's expert knowledge — a belief that learns from how pieces
//! move, an evaluation with the lessons of the lost games, and root moves that leave out
//! known blunders (see `docs/ai.md`).

use std::cell::OnceCell;

use salpakan_engine::{GameRng, Seat};

use crate::mcts::{Hooks, MctsParams, SearchResult, search_with};
use crate::{AiGame, Knowledge};

/// The expert hooks for one move: the expert belief, and the context computed from the
/// sampled states when the root moves are chosen.
struct Expert<G: AiGame> {
    belief: G::Belief,
    ctx: OnceCell<G::ExpertContext>,
}

impl<G: AiGame> Hooks<G> for Expert<G> {
    const INDEXED: bool = true;
    const ROOT_PRIOR: f64 = G::EXPERT_ROOT_PRIOR;

    fn belief(&self, _k: &Knowledge<G>) -> G::Belief {
        self.belief.clone()
    }

    fn root_moves(&self, k: &Knowledge<G>, pool: &[G], legal: &[G::Move]) -> Vec<G::Move> {
        let ctx = self.ctx.get_or_init(|| G::expert_search_context(k, pool));
        G::expert_root_moves(k, pool, legal, ctx)
    }

    fn playout_move(&self, g: &G, rng: &mut GameRng) -> Option<G::Move> {
        G::playout_move(g, rng)
    }

    fn tree_moves(&self, g: &G, me: Seat, moves: &mut Vec<G::Move>, rng: &mut GameRng) {
        G::expert_tree_moves(g, me, moves, rng);
    }

    fn evaluate(&self, g: &G, seat: Seat) -> f64 {
        match self.ctx.get() {
            Some(ctx) => G::expert_evaluate(g, seat, ctx),
            None => G::search_evaluate(g, seat),
        }
    }
}

/// Searches from the seat's knowledge with the expert belief, root moves and evaluation.
///
/// # Panics
/// If the seat has no legal move.
pub fn search<G: AiGame>(
    k: &Knowledge<G>,
    params: &MctsParams,
    rng: &mut GameRng,
) -> SearchResult<G::Move> {
    let hooks = Expert::<G> {
        belief: G::expert_belief(k),
        ctx: OnceCell::new(),
    };
    search_with(k, params, rng, &hooks)
}
