//! A small client for the server's protocol: plain HTTP/1.1 requests and a WebSocket
//! wrapper. Used by the tests and the load generator; loopback only.

use std::net::SocketAddr;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;

/// A client-side failure.
pub type ClientError = Box<dyn std::error::Error + Send + Sync>;

/// One HTTP request (`Connection: close`): the status and the body (JSON when it parses,
/// else a JSON string).
///
/// # Errors
/// Connection failures or a malformed answer.
pub async fn http(
    addr: SocketAddr,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<&Value>,
) -> Result<(u16, Value), ClientError> {
    let mut s = TcpStream::connect(addr).await?;
    let body = body.map(Value::to_string).unwrap_or_default();
    let auth = token
        .map(|t| format!("Authorization: Bearer {t}\r\n"))
        .unwrap_or_default();
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n{auth}Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).await?;
    let mut buf = Vec::new();
    tokio::time::timeout(Duration::from_secs(30), s.read_to_end(&mut buf)).await??;
    let text = String::from_utf8_lossy(&buf);
    let (head, rest) = text.split_once("\r\n\r\n").ok_or("no HTTP header")?;
    let status: u16 = head
        .split_whitespace()
        .nth(1)
        .ok_or("no status")?
        .parse()?;
    let body = if head.to_ascii_lowercase().contains("transfer-encoding: chunked") {
        dechunk(rest)
    } else {
        rest.to_string()
    };
    let v = serde_json::from_str(&body).unwrap_or(Value::String(body));
    Ok((status, v))
}

fn dechunk(mut s: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = s.split_once("\r\n") {
        let Ok(n) = usize::from_str_radix(size.trim(), 16) else {
            break;
        };
        if n == 0 || rest.len() < n {
            break;
        }
        out.push_str(&rest[..n]);
        s = rest[n..].trim_start_matches("\r\n");
    }
    out
}

/// A WebSocket client speaking the server's JSON messages.
pub struct Ws {
    inner: tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>,
    /// Every text frame received, in order (kept for tests that compare frames).
    pub frames: Vec<String>,
}

impl std::fmt::Debug for Ws {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Ws").field("frames", &self.frames.len()).finish()
    }
}

impl Ws {
    /// Connects to `ws://addr/ws`.
    ///
    /// # Errors
    /// Connection failures.
    pub async fn connect(addr: SocketAddr) -> Result<Ws, ClientError> {
        let (inner, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/ws")).await?;
        Ok(Ws {
            inner,
            frames: Vec::new(),
        })
    }

    /// Sends a message.
    ///
    /// # Errors
    /// The connection is gone.
    pub async fn send(&mut self, v: &Value) -> Result<(), ClientError> {
        self.send_text(v.to_string()).await
    }

    /// Sends raw text.
    ///
    /// # Errors
    /// The connection is gone.
    pub async fn send_text(&mut self, t: String) -> Result<(), ClientError> {
        self.inner.send(Message::Text(t.into())).await?;
        Ok(())
    }

    /// The next text message, parsed, within `timeout`.
    ///
    /// # Errors
    /// Timeout, a closed connection, or a frame that is not JSON.
    pub async fn recv_within(&mut self, timeout: Duration) -> Result<Value, ClientError> {
        loop {
            let m = tokio::time::timeout(timeout, self.inner.next())
                .await
                .map_err(|_| "timed out waiting for a message")?
                .ok_or("connection closed")??;
            match m {
                Message::Text(t) => {
                    self.frames.push(t.to_string());
                    return Ok(serde_json::from_str(t.as_str())?);
                }
                Message::Close(_) => return Err("connection closed".into()),
                _ => {}
            }
        }
    }

    /// The next message within 10 s.
    ///
    /// # Errors
    /// As [`Ws::recv_within`].
    pub async fn recv(&mut self) -> Result<Value, ClientError> {
        self.recv_within(Duration::from_secs(10)).await
    }

    /// Receives until a message of type `t` (returning it); the others are kept in
    /// [`Ws::frames`].
    ///
    /// # Errors
    /// As [`Ws::recv_within`].
    pub async fn until(&mut self, t: &str) -> Result<Value, ClientError> {
        loop {
            let v = self.recv().await?;
            if v["t"] == t {
                return Ok(v);
            }
        }
    }

    /// Receives until `pred` holds.
    ///
    /// # Errors
    /// As [`Ws::recv_within`].
    pub async fn until_with(
        &mut self,
        mut pred: impl FnMut(&Value) -> bool,
    ) -> Result<Value, ClientError> {
        loop {
            let v = self.recv().await?;
            if pred(&v) {
                return Ok(v);
            }
        }
    }

    /// Closes the connection.
    pub async fn close(mut self) {
        let _ = self.inner.close(None).await;
    }
}
