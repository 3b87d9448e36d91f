//! The server's settings ([`Config`], checked once at start-up) and its counters for
//! operators ([`Metrics`]).

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use serde_json::{Value, json};

use crate::clock::TimeSource;
use crate::error::{Error, Result};

/// Server settings.
#[derive(Clone)]
pub struct Config {
    /// Where the time comes from (tests inject a manual clock).
    pub time: Arc<dyn TimeSource>,
    /// How long a player may stay disconnected before the opponent may claim the win (ms).
    pub grace_ms: u64,
    /// How long a seat may stay away during the setup phase before it loses (ms).
    pub setup_grace_ms: u64,
    /// Messages a connection may send per second, on average.
    pub rate_per_s: u32,
    /// Messages a connection may send in a burst.
    pub burst: u32,
    /// The largest message accepted, in bytes.
    pub max_message: usize,
    /// Open connections allowed from one IP address (`--max-conns-per-ip`).
    pub max_conns_per_ip: usize,
    /// Open connections allowed in all (`--max-conns`).
    pub max_conns: usize,
    /// How long a client may take to send a request's headers, and how long a kept-alive
    /// HTTP connection may wait for its next request (ms).
    pub header_timeout_ms: u64,
    /// How long a WebSocket peer may stay silent (no message, no answer to the server's
    /// pings) before its connection is closed (ms).
    pub idle_timeout_ms: u64,
    /// How long one HTTP request (body included) may take (ms).
    pub request_timeout_ms: u64,
    /// How often the server pings each WebSocket (ms).
    pub ping_ms: u64,
    /// The most bytes queued for one connection; a connection that lets more pile up is
    /// closed as too slow.
    pub max_queue_bytes: usize,
    /// Guests one address may create per minute (sustained; `guest_burst` at once).
    pub guests_per_minute: u32,
    /// Guests one address may create at once.
    pub guest_burst: u32,
    /// Seeks and challenges one player may have open at once.
    pub max_open_seeks: usize,
    /// Unfinished bot games one player may have at once.
    pub max_bot_games: usize,
    /// How long a seek or challenge stays open once its creator is gone (no connection,
    /// no request) (ms).
    pub seek_idle_ms: u64,
    /// How long the human of a bot game may stay away before the game ends (ms).
    pub bot_game_away_ms: u64,
    /// Chat lines one seat may send per minute (sustained; `chat_burst` at once).
    pub chat_per_minute: u32,
    /// Chat lines one seat may send at once.
    pub chat_burst: u32,
    /// Chat lines one game keeps (older ones are dropped from memory and from `sync`).
    pub chat_keep: usize,
    /// Chat lines one game accepts in all.
    pub chat_max: usize,
    /// How long a guest may stay unseen before its token (and its seat tokens) expire (ms).
    pub guest_ttl_ms: u64,
    /// How often the housekeeping task runs: expiring seeks and guests, forgetting rate
    /// limits of addresses gone quiet, logging refusals (ms).
    pub sweep_ms: u64,
    /// Logins (and registrations) per minute from one address, and to one name.
    pub logins_per_minute: u32,
    /// Accounts one address may register per hour.
    pub accounts_per_hour: u32,
    /// The server is reached over HTTPS (behind a TLS proxy): the session cookie is
    /// `Secure`.
    pub secure_cookies: bool,
    /// Take the client's address for per-address rate limits from the last
    /// `X-Forwarded-For` entry (behind a reverse proxy on the same host).
    pub trust_forwarded_for: bool,
    /// Rated games a player needs to be listed on a leaderboard (`--leaderboard-min-games`).
    pub leaderboard_min_games: u64,
    /// The rating deviation above which a rating is provisional (shown with `?`) and kept
    /// off the leaderboards (`--provisional-rd`).
    pub provisional_rd: f64,
    /// Hidden states an analysis draws at every ply (`--analysis-samples`): its CPU per
    /// ply, see `docs/ai.md`.
    pub analysis_samples: u32,
    /// Analyses that may wait or run at once (`--analysis-queue`); one runs at a time.
    pub analysis_queue: usize,
}

impl std::fmt::Debug for Config {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Config")
            .field("grace_ms", &self.grace_ms)
            .field("setup_grace_ms", &self.setup_grace_ms)
            .field("rate_per_s", &self.rate_per_s)
            .field("burst", &self.burst)
            .field("max_message", &self.max_message)
            .field("max_conns_per_ip", &self.max_conns_per_ip)
            .field("max_conns", &self.max_conns)
            .field("idle_timeout_ms", &self.idle_timeout_ms)
            .finish_non_exhaustive()
    }
}

impl Default for Config {
    fn default() -> Self {
        Config {
            time: Arc::new(crate::clock::SystemTime::default()),
            grace_ms: 60_000,
            setup_grace_ms: 180_000,
            rate_per_s: 20,
            burst: 40,
            max_message: 16 * 1024,
            max_conns_per_ip: 64,
            max_conns: 20_000,
            header_timeout_ms: 10_000,
            idle_timeout_ms: 60_000,
            request_timeout_ms: 30_000,
            ping_ms: 20_000,
            max_queue_bytes: 4 << 20,
            guests_per_minute: 10,
            guest_burst: 20,
            max_open_seeks: 5,
            max_bot_games: 10,
            seek_idle_ms: 600_000,
            bot_game_away_ms: 600_000,
            chat_per_minute: 20,
            chat_burst: 10,
            chat_keep: 100,
            chat_max: 1000,
            guest_ttl_ms: 90 * 24 * 3_600_000,
            sweep_ms: 10_000,
            logins_per_minute: 10,
            accounts_per_hour: 10,
            secure_cookies: false,
            trust_forwarded_for: false,
            leaderboard_min_games: 5,
            provisional_rd: 110.0,
            analysis_samples: 64,
            analysis_queue: 8,
        }
    }
}

impl Config {
    /// Checks every limit (each must be at least 1 where 0 would refuse everything).
    ///
    /// # Errors
    /// A sentence naming the setting by its `salpakan serve` flag, and its range.
    pub fn check(&self) -> Result<()> {
        let positive = [
            ("max-conns-per-ip", self.max_conns_per_ip as u64),
            ("max-conns", self.max_conns as u64),
            ("header-timeout", self.header_timeout_ms),
            ("idle-timeout", self.idle_timeout_ms),
            ("request-timeout", self.request_timeout_ms),
            ("ping", self.ping_ms),
            ("guests-per-minute", u64::from(self.guests_per_minute)),
            ("guest-burst", u64::from(self.guest_burst)),
            ("max-open-seeks", self.max_open_seeks as u64),
            ("max-bot-games", self.max_bot_games as u64),
            ("chat-per-minute", u64::from(self.chat_per_minute)),
            ("chat-burst", u64::from(self.chat_burst)),
            ("ws-rate", u64::from(self.rate_per_s)),
            ("ws-burst", u64::from(self.burst)),
            ("sweep", self.sweep_ms),
            ("logins-per-minute", u64::from(self.logins_per_minute)),
            ("accounts-per-hour", u64::from(self.accounts_per_hour)),
            ("analysis-samples", u64::from(self.analysis_samples)),
            ("analysis-queue", self.analysis_queue as u64),
        ];
        for (name, v) in positive {
            if v == 0 {
                return Err(Error::Start(format!("--{name} must be at least 1")));
            }
        }
        if self.ping_ms >= self.idle_timeout_ms {
            return Err(Error::Start(
                "--ping must be shorter than --idle-timeout (pings keep live connections open)"
                    .into(),
            ));
        }
        if self.max_queue_bytes < 64 * 1024 {
            return Err(Error::Start(
                "--max-queue-kib must be at least 64 KiB".into(),
            ));
        }
        if !(self.provisional_rd > 0.0 && self.provisional_rd <= crate::rating::START_RD) {
            return Err(Error::Start(format!(
                "--provisional-rd is a rating deviation above 0 and at most {}",
                crate::rating::START_RD
            )));
        }
        if self.analysis_samples > 4096 {
            return Err(Error::Start(
                "--analysis-samples is 1 to 4096 (hidden states drawn a ply)".into(),
            ));
        }
        if self.chat_keep == 0 || self.chat_keep > self.chat_max {
            return Err(Error::Start("--chat-keep is 1 to --chat-max".into()));
        }
        Ok(())
    }
}

/// Counters for operators (and the abuse test): what was refused and why.
#[derive(Debug, Default)]
pub struct Metrics {
    /// Connections open now.
    pub connections_open: AtomicU64,
    /// Connections refused at accept (per-address or total cap).
    pub connections_refused: AtomicU64,
    /// Requests and messages refused by a rate limit or a cap on what one player may open.
    pub rate_limited: AtomicU64,
    /// Connections closed for falling behind (send queue over its byte limit).
    pub slow_closed: AtomicU64,
}

impl Metrics {
    /// The counters as JSON.
    #[must_use]
    pub fn json(&self) -> Value {
        let g = |a: &AtomicU64| a.load(Ordering::Relaxed);
        json!({"connections_open": g(&self.connections_open),
               "connections_refused": g(&self.connections_refused),
               "rate_limited": g(&self.rate_limited), "slow_closed": g(&self.slow_closed)})
    }
}
