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
    let status: u16 = head.split_whitespace().nth(1).ok_or("no status")?.parse()?;
    let body = if head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        dechunk(rest)
    } else {
        rest.to_string()
    };
    let v = serde_json::from_str(&body).unwrap_or(Value::String(body));
    Ok((status, v))
}

/// A TCP connection to `addr` from the local address `from`.
///
/// # Errors
/// Connection failures.
pub async fn tcp_from(from: std::net::IpAddr, addr: SocketAddr) -> std::io::Result<TcpStream> {
    let sock = if from.is_ipv4() {
        tokio::net::TcpSocket::new_v4()?
    } else {
        tokio::net::TcpSocket::new_v6()?
    };
    sock.bind(SocketAddr::new(from, 0))?;
    sock.connect(addr).await
}

/// A kept-alive HTTP/1.1 connection for many requests in a row (the load generator).
#[derive(Debug)]
pub struct HttpConn {
    addr: SocketAddr,
    reader: tokio::io::BufReader<TcpStream>,
}

impl HttpConn {
    /// Connects.
    ///
    /// # Errors
    /// Connection failures.
    pub async fn connect(addr: SocketAddr) -> Result<HttpConn, ClientError> {
        let s = TcpStream::connect(addr).await?;
        Self::over(addr, s)
    }

    /// Connects from the local address `from` (another loopback address, such as
    /// 127.0.0.2, to act as another client address).
    ///
    /// # Errors
    /// Connection failures.
    pub async fn connect_from(
        from: std::net::IpAddr,
        addr: SocketAddr,
    ) -> Result<HttpConn, ClientError> {
        Self::over(addr, tcp_from(from, addr).await?)
    }

    fn over(addr: SocketAddr, s: TcpStream) -> Result<HttpConn, ClientError> {
        s.set_nodelay(true)?;
        Ok(HttpConn {
            addr,
            reader: tokio::io::BufReader::new(s),
        })
    }

    /// One request on this connection: the status and the JSON body.
    ///
    /// # Errors
    /// Connection failures or a malformed answer.
    pub async fn request(
        &mut self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<&Value>,
    ) -> Result<(u16, Value), ClientError> {
        use tokio::io::AsyncBufReadExt;
        let body = body.map(Value::to_string).unwrap_or_default();
        let auth = token
            .map(|t| format!("Authorization: Bearer {t}\r\n"))
            .unwrap_or_default();
        let req = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\n{auth}Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            self.addr,
            body.len()
        );
        self.reader.get_mut().write_all(req.as_bytes()).await?;
        let mut line = String::new();
        self.reader.read_line(&mut line).await?;
        let status: u16 = line.split_whitespace().nth(1).ok_or("no status")?.parse()?;
        let mut len = 0usize;
        loop {
            line.clear();
            if self.reader.read_line(&mut line).await? == 0 {
                return Err("connection closed".into());
            }
            let l = line.trim_end();
            if l.is_empty() {
                break;
            }
            if let Some((k, v)) = l.split_once(':') {
                if k.eq_ignore_ascii_case("content-length") {
                    len = v.trim().parse()?;
                }
            }
        }
        let mut buf = vec![0u8; len];
        self.reader.read_exact(&mut buf).await?;
        let text = String::from_utf8_lossy(&buf).to_string();
        Ok((
            status,
            serde_json::from_str(&text).unwrap_or(Value::String(text)),
        ))
    }
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
    /// Messages received but passed over by [`Ws::until_with`], oldest first.
    backlog: std::collections::VecDeque<Value>,
}

impl std::fmt::Debug for Ws {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Ws")
            .field("frames", &self.frames.len())
            .finish()
    }
}

impl Ws {
    /// Connects to `ws://addr/ws`.
    ///
    /// # Errors
    /// Connection failures.
    pub async fn connect(addr: SocketAddr) -> Result<Ws, ClientError> {
        Self::over(addr, TcpStream::connect(addr).await?).await
    }

    /// Connects from the local address `from` (another loopback address).
    ///
    /// # Errors
    /// Connection failures.
    pub async fn connect_from(from: std::net::IpAddr, addr: SocketAddr) -> Result<Ws, ClientError> {
        Self::over(addr, tcp_from(from, addr).await?).await
    }

    async fn over(addr: SocketAddr, s: TcpStream) -> Result<Ws, ClientError> {
        s.set_nodelay(true)?;
        // Frames are small: a small read buffer (the default is zero-filled before every read).
        let config = tokio_tungstenite::tungstenite::protocol::WebSocketConfig::default()
            .read_buffer_size(8192);
        let (inner, _) = tokio_tungstenite::client_async_with_config(
            format!("ws://{addr}/ws"),
            tokio_tungstenite::MaybeTlsStream::Plain(s),
            Some(config),
        )
        .await?;
        Ok(Ws {
            inner,
            frames: Vec::new(),
            backlog: std::collections::VecDeque::new(),
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

    /// The next message: the oldest passed-over one, else the next from the network.
    ///
    /// # Errors
    /// As [`Ws::recv_within`].
    pub async fn next(&mut self) -> Result<Value, ClientError> {
        match self.backlog.pop_front() {
            Some(v) => Ok(v),
            None => self.recv().await,
        }
    }

    /// The next text message from the network, parsed, within `timeout`.
    ///
    /// # Errors
    /// Timeout, a closed connection, or a frame that is not JSON.
    pub async fn recv_within(&mut self, timeout: Duration) -> Result<Value, ClientError> {
        let t = self.recv_text_within(timeout).await?;
        let v = serde_json::from_str(&t);
        self.frames.push(t);
        Ok(v?)
    }

    /// The next text frame from the network within `timeout`, as it came: not parsed and
    /// not kept in [`Ws::frames`] (the load generator reads frames this way).
    ///
    /// # Errors
    /// Timeout or a closed connection.
    pub async fn recv_text_within(&mut self, timeout: Duration) -> Result<String, ClientError> {
        Ok(self.recv_frame_within(timeout).await?.as_str().to_owned())
    }

    /// The next text frame within `timeout`, as received (not copied): what the load
    /// generator reads.
    pub(crate) async fn recv_frame_within(
        &mut self,
        timeout: Duration,
    ) -> Result<tokio_tungstenite::tungstenite::Utf8Bytes, ClientError> {
        loop {
            let m = tokio::time::timeout(timeout, self.inner.next())
                .await
                .map_err(|_| "timed out waiting for a message")?
                .ok_or("connection closed")??;
            match m {
                Message::Text(t) => return Ok(t),
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

    /// The first message of type `t`, passed over or new; the others stay in the backlog.
    ///
    /// # Errors
    /// As [`Ws::recv_within`].
    pub async fn until(&mut self, t: &str) -> Result<Value, ClientError> {
        self.until_with(|v| v["t"] == t).await
    }

    /// The newest message of type `t` among those passed over (dropping older ones of that
    /// type), or the next new one.
    ///
    /// # Errors
    /// As [`Ws::recv_within`].
    pub async fn latest(&mut self, t: &str) -> Result<Value, ClientError> {
        let mut found = None;
        self.backlog.retain(|v| {
            if v["t"] == t {
                found = Some(v.clone());
                false
            } else {
                true
            }
        });
        match found {
            Some(v) => Ok(v),
            None => self.until(t).await,
        }
    }

    /// The first message for which `pred` holds, passed over or new; the others stay in
    /// the backlog.
    ///
    /// # Errors
    /// As [`Ws::recv_within`].
    pub async fn until_with(
        &mut self,
        mut pred: impl FnMut(&Value) -> bool,
    ) -> Result<Value, ClientError> {
        if let Some(i) = self.backlog.iter().position(&mut pred) {
            return Ok(self.backlog.remove(i).expect("found"));
        }
        loop {
            let v = self.recv().await?;
            if pred(&v) {
                return Ok(v);
            }
            self.backlog.push_back(v);
        }
    }

    /// Closes the connection.
    pub async fn close(mut self) {
        let _ = self.inner.close(None).await;
    }
}
