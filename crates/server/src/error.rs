//! The one error type of the server, and the one place that maps it to HTTP statuses and
//! WebSocket error messages.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

/// Everything that can go wrong serving a request or a message. Every variant's message is
/// a sentence for the client saying what was wrong; none ever names hidden information.
/// A refused request changes nothing.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The request is malformed: bad JSON, a missing or wrong field.
    #[error("{0}")]
    BadRequest(String),
    /// The engine refused the game's options or a setup (the engine's sentence, naming
    /// the option, square or piece; never a hidden one).
    #[error("{0}")]
    Game(#[from] salpakan_engine::StartError),
    /// The engine refused a move: it does not parse, is illegal, or the game is over.
    #[error("{0}")]
    Move(#[from] salpakan_engine::PlayError),
    /// No game with that id.
    #[error("there is no game {0:?}")]
    UnknownGame(String),
    /// No open seek or challenge with that id.
    #[error("there is no open seek or challenge {0:?}; it may have been accepted or cancelled")]
    UnknownSeek(String),
    /// No arbiter table with that id.
    #[error("there is no table {0:?}")]
    UnknownTable(String),
    /// No table waits for a second phone with that room code.
    #[error(
        "no table waits with that room code; check the code on the other phone (it works once, until the second phone joins)"
    )]
    UnknownCode,
    /// The request needs a guest token, API token or session and has none, or an unknown
    /// one.
    #[error(
        "this needs a guest identity or an account: send \"Authorization: Bearer <token>\" with the token from POST /api/guest (or an API token), or log in (POST /api/session)"
    )]
    Unauthorized,
    /// A login with an unknown name or a wrong password (the same answer for both).
    #[error("wrong name or password")]
    WrongLogin,
    /// Nothing of that kind with that name or id (an account, an API token).
    #[error("{0}")]
    NotFound(String),
    /// The token is valid but not for this: another seat's token, someone else's seek.
    #[error("{0}")]
    Forbidden(String),
    /// The action is well-formed but not allowed now: out of turn, illegal, game over.
    #[error("{0}")]
    Rejected(String),
    /// Too many messages on this connection.
    #[error("too many messages: at most {0} a second on one connection; this one was dropped")]
    RateLimited(u32),
    /// A limit on what one address or player may do (a rate, or how many it may have open);
    /// the sentence says which and how to go on.
    #[error("{0}")]
    Limit(String),
    /// A message over the size limit.
    #[error("message too large: {0} bytes; at most {1} are accepted")]
    TooLarge(usize, usize),
    /// The store failed; the action was not taken.
    #[error("the server could not store this; nothing was changed, try again")]
    Storage(String),
    /// The server cannot start: a bad setting, a database it cannot open or write, an
    /// address it cannot bind. The sentence says what to fix.
    #[error("{0}")]
    Start(String),
    /// The server is shutting down or the game's task has stopped.
    #[error("the server is busy or shutting down; try again")]
    Unavailable,
}

impl Error {
    /// The HTTP status for this error.
    #[must_use]
    pub fn status(&self) -> StatusCode {
        match self {
            Error::BadRequest(_) | Error::Game(_) => StatusCode::BAD_REQUEST,
            Error::UnknownGame(_)
            | Error::UnknownSeek(_)
            | Error::UnknownTable(_)
            | Error::UnknownCode
            | Error::NotFound(_) => StatusCode::NOT_FOUND,
            Error::Unauthorized | Error::WrongLogin => StatusCode::UNAUTHORIZED,
            Error::Forbidden(_) => StatusCode::FORBIDDEN,
            Error::Rejected(_) | Error::Move(_) => StatusCode::CONFLICT,
            Error::RateLimited(_) | Error::Limit(_) => StatusCode::TOO_MANY_REQUESTS,
            Error::TooLarge(..) => StatusCode::PAYLOAD_TOO_LARGE,
            Error::Storage(_) | Error::Start(_) => StatusCode::INTERNAL_SERVER_ERROR,
            Error::Unavailable => StatusCode::SERVICE_UNAVAILABLE,
        }
    }

    /// The error as a WebSocket frame: `{"v":1,"t":"error","error":"..."}`, with the
    /// request's `id` when it had one.
    #[must_use]
    pub(crate) fn frame(&self, id: Option<&serde_json::Value>) -> crate::protocol::Frame {
        crate::protocol::error_frame(self, id)
    }
}

impl From<salpakan_engine::OptionError> for Error {
    fn from(e: salpakan_engine::OptionError) -> Error {
        Error::Game(e.into())
    }
}

impl IntoResponse for Error {
    fn into_response(self) -> Response {
        if let Error::Storage(detail) = &self {
            tracing::error!(%detail, "storage failure");
        }
        (
            self.status(),
            [(
                axum::http::header::CONTENT_TYPE,
                axum::http::HeaderValue::from_static("application/json"),
            )],
            self.frame(None).to_string(),
        )
            .into_response()
    }
}

/// The server's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;
