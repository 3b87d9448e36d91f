//! # salpakan-client
//!
//! A small client for the salpakan server's protocol (`docs/protocol.md`): plain HTTP/1.1
//! requests and a WebSocket wrapper, used by the server's and the command's tests, and the
//! load generator behind `salpakan loadtest` (with its `--abuse` floods). It speaks only the
//! documented protocol: it links neither the server nor the engine. Loopback only.
//!
//! ```no_run
//! # async fn demo() -> Result<(), salpakan_client::ClientError> {
//! let addr = "127.0.0.1:8080".parse()?;
//! let (status, guest) = salpakan_client::http(
//!     addr,
//!     "POST",
//!     "/api/guest",
//!     None,
//!     Some(&serde_json::json!({"name": "ana"})),
//! )
//! .await?;
//! assert_eq!(status, 200);
//! println!("guest token: {}", guest["token"]);
//! let mut ws = salpakan_client::Ws::connect(addr).await?;
//! ws.send(&serde_json::json!({"v": 1, "t": "join", "game": "a1b2c3d4e5f6a1b2c3d4e5f6"}))
//!     .await?;
//! println!("{}", ws.recv().await?);
//! # Ok(()) }
//! ```
#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod abuse;
mod client;
pub mod loadtest;

pub use client::{ClientError, HttpConn, Ws, http, tcp_from};
