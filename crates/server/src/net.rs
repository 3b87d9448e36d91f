//! Accepting connections: a cap on connections per address and in all, and a time limit on
//! reading a request's headers (which also closes a kept-alive connection that sends no
//! next request in time). HTTP/1.1 through hyper, with upgrades for `/ws` (where the
//! WebSocket's own pings and idle limit take over, see `ws.rs`).

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::extract::ConnectInfo;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::{TcpListener, TcpStream};
use tower::ServiceExt;

use crate::app::App;

/// Open connections per address.
#[derive(Debug, Default)]
pub(crate) struct Counts {
    by_ip: Mutex<HashMap<IpAddr, usize>>,
}

/// Holds one connection's place in [`Counts`] until dropped (an upgraded WebSocket keeps
/// it for its life: it travels in the request's extensions).
#[derive(Debug)]
pub(crate) struct Place {
    app: Arc<App>,
    ip: IpAddr,
}

impl Drop for Place {
    fn drop(&mut self) {
        let mut m = self.app.conns.by_ip.lock().expect("lock");
        if let Some(n) = m.get_mut(&self.ip) {
            *n -= 1;
            if *n == 0 {
                m.remove(&self.ip);
            }
        }
        drop(m);
        self.app
            .metrics
            .connections_open
            .fetch_sub(1, Ordering::Relaxed);
    }
}

/// Takes a place for a connection from `ip`, or none when its address (or the server) is at
/// its cap.
fn admit(app: &Arc<App>, ip: IpAddr) -> Option<Place> {
    let c = &app.config;
    let mut m = app.conns.by_ip.lock().expect("lock");
    let open = app.metrics.connections_open.load(Ordering::Relaxed);
    let n = m.entry(ip).or_insert(0);
    if *n >= c.max_conns_per_ip || open >= c.max_conns as u64 {
        if *n == 0 {
            m.remove(&ip);
        }
        return None;
    }
    *n += 1;
    app.metrics.connections_open.fetch_add(1, Ordering::Relaxed);
    Some(Place {
        app: app.clone(),
        ip,
    })
}

/// Serves `router` on `listener` until the task is aborted.
pub(crate) async fn serve(app: Arc<App>, listener: TcpListener, router: Router) {
    loop {
        let (stream, peer) = match listener.accept().await {
            Ok(x) => x,
            Err(e) => {
                // Out of file descriptors, mostly: wait a little rather than spin.
                tracing::warn!(error = %e, "cannot accept a connection");
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let Some(place) = admit(&app, peer.ip()) else {
            app.metrics
                .connections_refused
                .fetch_add(1, Ordering::Relaxed);
            // A short answer if the socket takes it now, then close.
            let _ = stream.try_write(
                b"HTTP/1.1 503 Service Unavailable\r\nconnection: close\r\ncontent-length: 0\r\n\r\n",
            );
            drop(stream);
            continue;
        };
        tokio::spawn(connection(app.clone(), stream, peer, router.clone(), place));
    }
}

async fn connection(
    app: Arc<App>,
    stream: TcpStream,
    peer: SocketAddr,
    router: Router,
    place: Place,
) {
    let _ = stream.set_nodelay(true);
    let c = &app.config;
    let io = TokioIo::new(stream);
    let place = Arc::new(place);
    let held = place.clone();
    let svc = hyper::service::service_fn(move |mut req: hyper::Request<hyper::body::Incoming>| {
        req.extensions_mut().insert(ConnectInfo(peer));
        req.extensions_mut().insert(held.clone());
        router.clone().oneshot(req)
    });
    let conn = hyper::server::conn::http1::Builder::new()
        .timer(TokioTimer::new())
        .header_read_timeout(Duration::from_millis(c.header_timeout_ms))
        .max_buf_size(64 * 1024)
        .serve_connection(io, svc)
        .with_upgrades();
    if let Err(e) = conn.await {
        tracing::debug!(%peer, error = %e, "connection closed");
    }
    drop(place);
}
