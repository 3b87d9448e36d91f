//! What a game's task is told ([`Cmd`], a seat's [`Act`]), how it answers ([`Reply`]) and
//! what it stores of each event ([`Arb`]).

use salpakan_engine::{AnyMatch, AnyMove, Copy, EndReason, Seat, Viewer};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use tokio::sync::oneshot;

use super::Outbox;
use crate::error::Result;

/// The server's own account of one event: what is stored and applied again on restart.
/// Holds secrets (setups); never sent to anyone.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "a", rename_all = "snake_case")]
pub enum Arb {
    /// A seat's setup.
    Setup {
        /// Seat index.
        seat: usize,
        /// The setup (square → code).
        setup: Value,
    },
    /// Both setups are in (or the pieces are dealt): the match starts.
    Start,
    /// A move.
    Move {
        /// Seat index.
        seat: usize,
        /// The move as text (what is stored).
        mv: String,
        /// The move as parsed when it arrived (not stored: a replay parses `mv`).
        #[serde(skip)]
        typed: Option<AnyMove>,
    },
    /// A draw offer.
    DrawOffer {
        /// Seat index.
        seat: usize,
    },
    /// A draw offer declined.
    DrawDecline {
        /// Seat index.
        seat: usize,
    },
    /// A rematch offer.
    RematchOffer {
        /// Seat index.
        seat: usize,
    },
    /// The rematch was agreed: its game.
    Rematch {
        /// The new game's id.
        game: String,
    },
    /// A chat line between the players.
    Chat {
        /// Seat index.
        seat: usize,
        /// The text.
        text: String,
    },
    /// The end.
    End {
        /// Winner's seat index, none for a draw.
        winner: Option<usize>,
        /// Why.
        reason: EndReason,
    },
}

/// How a seat sets up.
#[derive(Clone, Debug)]
pub enum SetupChoice {
    /// This setup (square → code).
    Given(Value),
    /// A random one.
    Random,
    /// One made by this bot.
    Bot(String),
}

/// What a seat may do.
#[derive(Clone, Debug)]
pub enum Act {
    /// Submit a setup.
    Setup(SetupChoice),
    /// Play a move.
    Move(String),
    /// Resign.
    Resign,
    /// Offer a draw.
    DrawOffer,
    /// Accept the opponent's draw offer.
    DrawAccept,
    /// Decline it.
    DrawDecline,
    /// Offer (or accept) a rematch once the game is over.
    Rematch,
    /// Say something to the opponent.
    Chat(String),
    /// Claim the win: the opponent has been away past the grace period.
    Claim,
}

/// Where the answer to a seat's action goes: the version of the last event it made, or
/// why it was refused.
#[derive(Debug)]
pub enum Reply {
    /// To a task waiting for it.
    Wait(oneshot::Sender<Result<u64>>),
    /// Straight to the acting connection (one that follows the game) as its `ack` or
    /// `error` frame, with the request's `id`, queued right after the events the action
    /// made: the connection's reader goes on without waiting for it.
    Conn {
        /// The connection.
        conn: u64,
        /// The request's `id`.
        id: Option<Value>,
    },
}

/// A message to a game's task.
#[derive(Debug)]
pub enum Cmd {
    /// Subscribe a connection as a seat or a spectator; it gets the events after `since`
    /// (or the full current view).
    Join {
        /// Who is looking.
        viewer: Viewer,
        /// The connection.
        conn: u64,
        /// Its outbox.
        out: Outbox,
        /// The last version it saw.
        since: Option<u64>,
    },
    /// Unsubscribe a connection.
    Leave {
        /// The connection.
        conn: u64,
    },
    /// A seat acts.
    Act {
        /// The seat.
        seat: Seat,
        /// What it does.
        act: Act,
        /// Where the answer goes (none for a bot's own move).
        reply: Option<Reply>,
    },
    /// A record copy (full only once over).
    Record {
        /// Which copy.
        copy: Copy,
        /// The record text.
        reply: oneshot::Sender<Result<String>>,
    },
    /// The finished match, with its result, for its analysis (`crate::analysis`).
    Finished {
        /// The match, or why there is none to analyse.
        reply: oneshot::Sender<Result<AnyMatch>>,
    },
    /// Public facts for the lobby and the HTTP API.
    Summary {
        /// The summary.
        reply: oneshot::Sender<Value>,
    },
    /// A player's account was deleted: its seat shows `name` from now on.
    Rename {
        /// The player's user id.
        user: String,
        /// The name shown.
        name: String,
    },
}
