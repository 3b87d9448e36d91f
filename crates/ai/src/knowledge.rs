//! What one seat knows: the only thing a bot ever receives.
//!
//! [`Knowledge`] is built by trusted code from a [`Match`] and holds nothing the seat could
//! not see at the table: its own setup, the options, what it observed at the start and now,
//! its view of every ply, and its legal moves. It has no field of the game's state type `G`,
//! and its fields are private, so bot code cannot reach the arbiter's state through it.

use salpakan_engine::{Game, Match, Seat, Viewer};

/// Everything one seat knows of a game in progress.
#[derive(Clone, Debug)]
pub struct Knowledge<G: Game> {
    seat: Seat,
    options: G::Options,
    own_setup: Option<String>,
    initial: G::Observation,
    observation: G::Observation,
    history: Vec<G::View>,
    legal: Vec<G::Move>,
    to_move: Option<Seat>,
}

impl<G: Game> Knowledge<G> {
    /// What `seat` knows of `m`: built from the seat's own hidden part, its observations and
    /// its view of every ply, never from the hidden state of the other seat.
    #[must_use]
    pub fn of(m: &Match<G>, seat: Seat) -> Knowledge<G> {
        let viewer = Viewer::Player(seat);
        let options = m.game().options().clone();
        let own_setup = G::hidden_parts(m.hidden())
            .into_iter()
            .find(|p| p.owner == Some(seat))
            .map(|p| p.text);
        // The observation at ply 0, as the seat saw it when the game began.
        let initial = G::start(&options, m.hidden().clone())
            .expect("a running match's hidden state is valid")
            .observe(viewer);
        let game = m.game();
        let history = m.events().iter().map(|e| game.view(e, viewer)).collect();
        let mut legal = Vec::new();
        if game.to_move() == Some(seat) {
            game.legal_moves(&mut legal);
        }
        Knowledge {
            seat,
            options,
            own_setup,
            initial,
            observation: game.observe(viewer),
            history,
            legal,
            to_move: game.to_move(),
        }
    }

    /// The seat this knowledge belongs to.
    #[must_use]
    pub fn seat(&self) -> Seat {
        self.seat
    }

    /// The game's options (public).
    #[must_use]
    pub fn options(&self) -> &G::Options {
        &self.options
    }

    /// The seat's own setup as canonical text (`a1:FLG ...`), in games with setups.
    #[must_use]
    pub fn own_setup(&self) -> Option<&str> {
        self.own_setup.as_deref()
    }

    /// What the seat observed when the game began.
    #[must_use]
    pub fn initial(&self) -> &G::Observation {
        &self.initial
    }

    /// What the seat observes now.
    #[must_use]
    pub fn observation(&self) -> &G::Observation {
        &self.observation
    }

    /// The seat's view of every ply so far.
    #[must_use]
    pub fn history(&self) -> &[G::View] {
        &self.history
    }

    /// The seat's legal moves (empty unless it is the seat's turn).
    #[must_use]
    pub fn legal_moves(&self) -> &[G::Move] {
        &self.legal
    }

    /// The seat to move, `None` once the game is over.
    #[must_use]
    pub fn to_move(&self) -> Option<Seat> {
        self.to_move
    }
}
