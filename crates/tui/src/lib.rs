//! # salpakan-tui
//!
//! Play Game of the Generals, Stratego and Banqi against a bot in the terminal, with no
//! server and no network, and step through any record (`salpakan play`, `salpakan replay`).
//!
//! The [`App`] holds the screens' state and turns key presses, clicks and the bot's answers
//! into changes; [`ui::draw`] renders it with ratatui; [`run_play`] and [`run_replay`] drive
//! a real terminal. The player only ever sees their own seat's observation until the game
//! ends; the match (the arbiter's state) stays inside the [`App`].
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod app;
pub mod bot;
pub mod presenter;
pub mod setup;
mod term;
pub mod time;
pub mod ui;

pub use app::{App, PlayConfig};
pub use term::{run_play, run_replay};

use std::path::PathBuf;

/// What can go wrong, said so that the user knows what to do.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TuiError {
    /// An unknown bot.
    #[error("{0}")]
    Bot(String),
    /// A setup the engine refuses, or a setup file that cannot be read.
    #[error("{0}")]
    Setup(String),
    /// A record that cannot be read or replayed.
    #[error("{path}: {error}")]
    Record {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        error: String,
    },
    /// A file that cannot be read or written.
    #[error("{path}: {error}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        error: String,
    },
    /// The terminal could not be set up or drawn on.
    #[error("terminal: {0}")]
    Terminal(String),
}
