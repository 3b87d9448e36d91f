//! One side of a game on its own WebSocket connection, and the frames it reads.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use rand::{Rng, SeedableRng};

use crate::client::Ws;

use super::Stats;

#[allow(clippy::too_many_arguments)]
// Over 100 lines: one loop over one connection's frames, whose cases (start, moves, acks,
// errors, the end and the rematch) share the socket, the game, the token and the pace.
pub(super) async fn side(
    addr: SocketAddr,
    mut game: String,
    seat: usize,
    mut token: String,
    rate: f64,
    stats: Arc<Stats>,
    guests: Arc<Vec<String>>,
    measuring: Arc<std::sync::atomic::AtomicBool>,
    go: Arc<std::sync::atomic::AtomicBool>,
    stop_at: Arc<std::sync::Mutex<Option<Instant>>>,
    give_up: Instant,
) {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(
        seat as u64
            ^ game
                .bytes()
                .fold(0u64, |h, b| h.wrapping_mul(31).wrapping_add(u64::from(b))),
    );
    let Ok(mut ws) = Ws::connect(addr).await else {
        stats.errors.fetch_add(1, Ordering::Relaxed);
        return;
    };
    let period = Duration::from_secs_f64(1.0 / rate);
    let mut next = Instant::now() + period.mul_f64(rng.random::<f64>());
    let mut playing = false;
    let mut n = 0u64;
    let wait = Duration::from_secs(30);
    'games: loop {
        let join = format!(r#"{{"v":1,"t":"join","game":"{game}","seat_token":"{token}"}}"#);
        if ws.send_text(join).await.is_err() {
            break;
        }
        let setup = format!(r#"{{"v":1,"t":"setup","game":"{game}","random":true}}"#);
        let _ = ws.send_text(setup).await;
        loop {
            if Instant::now() > give_up {
                break 'games;
            }
            if let Some(t) = *stop_at.lock().expect("lock") {
                if Instant::now() > t {
                    break 'games;
                }
            }
            let Ok(text) = ws.recv_frame_within(wait).await else {
                stats.errors.fetch_add(1, Ordering::Relaxed);
                break 'games;
            };
            match Frame::of(&text) {
                Frame::Start if !playing => {
                    playing = true;
                    stats.playing.fetch_add(1, Ordering::Relaxed);
                }
                Frame::End => {
                    stats.finished.fetch_add(1, Ordering::Relaxed);
                    // Both ask for a rematch: the second request creates the next game.
                    let _ = ws.send_text(rematch(&game)).await;
                }
                Frame::Seat => {
                    let leave = format!(r#"{{"v":1,"t":"leave","game":"{game}"}}"#);
                    let _ = ws.send_text(leave).await;
                    (game, token) = seat_frame(&text);
                    continue 'games;
                }
                Frame::Legal(moves) => {
                    let count = moves.split(',').count();
                    if moves.is_empty() {
                        continue;
                    }
                    let k = rng.random_range(0..count);
                    let mv = moves
                        .split(',')
                        .nth(k)
                        .unwrap_or_default()
                        .trim_matches('"')
                        .to_string();
                    while !go.load(Ordering::Relaxed) {
                        tokio::time::sleep(Duration::from_millis(100)).await;
                        next = Instant::now() + period.mul_f64(rng.random::<f64>());
                    }
                    let now = Instant::now();
                    if next > now {
                        tokio::time::sleep_until(next.into()).await;
                    }
                    next = next.max(now) + period;
                    n += 1;
                    let sent = Instant::now();
                    let m =
                        format!(r#"{{"v":1,"t":"move","game":"{game}","move":"{mv}","id":{n}}}"#);
                    if ws.send_text(m).await.is_err() {
                        break 'games;
                    }
                    // Wait for this move's ack (events may come first).
                    loop {
                        let Ok(text) = ws.recv_frame_within(wait).await else {
                            stats.errors.fetch_add(1, Ordering::Relaxed);
                            break 'games;
                        };
                        match Frame::of(&text) {
                            Frame::Ack(Some(id)) if id == n => {
                                stats.moves.fetch_add(1, Ordering::Relaxed);
                                if measuring.load(Ordering::Relaxed) {
                                    let us = u32::try_from(sent.elapsed().as_micros())
                                        .unwrap_or(u32::MAX);
                                    stats.lat.lock().expect("lock").push(us);
                                }
                                break;
                            }
                            Frame::Error(Some(id)) if id == n => {
                                stats.errors.fetch_add(1, Ordering::Relaxed);
                                break;
                            }
                            Frame::End => {
                                stats.finished.fetch_add(1, Ordering::Relaxed);
                                let _ = ws.send_text(rematch(&game)).await;
                            }
                            Frame::Seat => {
                                (game, token) = seat_frame(&text);
                                continue 'games;
                            }
                            _ => {}
                        }
                    }
                }
                Frame::Error(_) => {
                    stats.errors.fetch_add(1, Ordering::Relaxed);
                }
                _ => {}
            }
        }
    }
    let _ = guests;
    if playing {
        stats.playing.fetch_sub(1, Ordering::Relaxed);
    }
    ws.close().await;
}

fn rematch(game: &str) -> String {
    format!(r#"{{"v":1,"t":"rematch","game":"{game}"}}"#)
}

/// A `seat` message's game and seat token (rare: parsed in full).
fn seat_frame(text: &str) -> (String, String) {
    let v: serde_json::Value = serde_json::from_str(text).unwrap_or_default();
    let s = |k: &str| v[k].as_str().unwrap_or_default().to_string();
    (s("game"), s("seat_token"))
}

/// What the load generator needs of a server frame, read without parsing the whole frame
/// (the server writes `"t"` before the other fields, and an event's `"type"` first in it).
#[derive(Debug, PartialEq, Eq)]
enum Frame<'a> {
    /// An event that starts a game.
    Start,
    /// An event that ends one.
    End,
    /// A new game's seat token.
    Seat,
    /// The legal moves: the inside of the JSON array (`"a1-a2","b1-b2"`).
    Legal(&'a str),
    /// An ack, with its id.
    Ack(Option<u64>),
    /// An error, with its id.
    Error(Option<u64>),
    /// Anything else.
    Other,
}

impl<'a> Frame<'a> {
    fn of(text: &'a str) -> Frame<'a> {
        let after = |key: &str| text.find(key).map(|i| &text[i + key.len()..]);
        let id = || {
            after(r#""id":"#).and_then(|r| {
                let end = r.find(|c: char| !c.is_ascii_digit()).unwrap_or(r.len());
                r[..end].parse().ok()
            })
        };
        let t = after(r#""t":""#).and_then(|r| r.split('"').next());
        match t {
            // The envelope's `"e"` comes before the event's own fields: the first one found
            // is the event's type, found without scanning the whole frame.
            Some("event") => match after(r#""e":{"type":""#).and_then(|r| r.split('"').next()) {
                Some("start") => Frame::Start,
                Some("end") => Frame::End,
                _ => Frame::Other,
            },
            Some("legal") => after(r#""moves":["#)
                .and_then(|r| r.split(']').next())
                .map_or(Frame::Other, Frame::Legal),
            Some("seat") => Frame::Seat,
            Some("ack") => Frame::Ack(id()),
            Some("error") => Frame::Error(id()),
            _ => Frame::Other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Frame;

    #[test]
    fn frames_are_read_without_parsing() {
        assert_eq!(
            Frame::of(r#"{"v":1,"t":"ack","game":"ab","ver":7,"id":12}"#),
            Frame::Ack(Some(12))
        );
        assert_eq!(
            Frame::of(r#"{"v":1,"t":"error","error":"no \"t\":\"ack\"","id":3}"#),
            Frame::Error(Some(3))
        );
        assert_eq!(
            Frame::of(r#"{"v":1,"t":"legal","game":"ab","ver":3,"moves":["a1-a2","b1-b2"]}"#),
            Frame::Legal(r#""a1-a2","b1-b2""#)
        );
        assert_eq!(
            Frame::of(r#"{"v":1,"t":"event","game":"ab","ver":3,"e":{"type":"start","x":1}}"#),
            Frame::Start
        );
        assert_eq!(
            Frame::of(r#"{"v":1,"t":"event","game":"ab","ver":9,"e":{"type":"end"}}"#),
            Frame::End
        );
        assert_eq!(
            Frame::of(r#"{"v":1,"t":"event","game":"ab","ver":4,"e":{"type":"move"}}"#),
            Frame::Other
        );
        assert_eq!(
            Frame::of(r#"{"v":1,"t":"seat","game":"cd","seat":"black","seat_token":"x"}"#),
            Frame::Seat
        );
    }
}
