//! `salpakan serve` and `salpakan loadtest`: thin wrappers over `salpakan-server` and
//! `salpakan-client`.

use std::net::SocketAddr;
use std::path::Path;

use salpakan_server::Config;

/// The server's limits as flags (each documented in docs/operations.md). The defaults are
/// those of [`Config::default`].
#[derive(clap::Args, Debug, Clone)]
pub struct Limits {
    /// Open connections allowed from one IP address (behind a reverse proxy on the same
    /// host every client has the proxy's address: raise it there).
    #[arg(long, default_value_t = 64)]
    pub max_conns_per_ip: usize,
    /// Open connections allowed in all.
    #[arg(long, default_value_t = 20_000)]
    pub max_conns: usize,
    /// Seconds a client may take to send a request's headers (and a kept-alive HTTP
    /// connection may wait for its next request).
    #[arg(long, default_value_t = 10)]
    pub header_timeout: u64,
    /// Seconds a WebSocket peer may stay silent before its connection is closed (the
    /// server pings more often than this; live peers answer).
    #[arg(long, default_value_t = 60)]
    pub idle_timeout: u64,
    /// Seconds one HTTP request may take, body included.
    #[arg(long, default_value_t = 30)]
    pub request_timeout: u64,
    /// Seconds between the server's WebSocket pings.
    #[arg(long, default_value_t = 20)]
    pub ping: u64,
    /// KiB that may be queued for one slow connection before it is closed.
    #[arg(long, default_value_t = 4096)]
    pub max_queue_kib: usize,
    /// WebSocket messages one connection may send per second (sustained).
    #[arg(long, default_value_t = 20)]
    pub ws_rate: u32,
    /// WebSocket messages one connection may send at once.
    #[arg(long, default_value_t = 40)]
    pub ws_burst: u32,
    /// Largest WebSocket message accepted, in bytes (1024 to 1048576).
    #[arg(long, default_value_t = 16_384)]
    pub max_message: usize,
    /// Guests one address may create per minute.
    #[arg(long, default_value_t = 10)]
    pub guests_per_minute: u32,
    /// Guests one address may create at once.
    #[arg(long, default_value_t = 20)]
    pub guest_burst: u32,
    /// Seeks and challenges one player may have open.
    #[arg(long, default_value_t = 5)]
    pub max_open_seeks: usize,
    /// Unfinished bot games one player may have.
    #[arg(long, default_value_t = 10)]
    pub max_bot_games: usize,
    /// Hidden states a finished game's analysis draws at every ply (1 to 4096; its CPU).
    #[arg(long, default_value_t = 64)]
    pub analysis_samples: u32,
    /// Analyses that may wait or run at once (one runs at a time).
    #[arg(long, default_value_t = 8)]
    pub analysis_queue: usize,
    /// Seconds a seek or challenge stays open once its creator is gone.
    #[arg(long, default_value_t = 600)]
    pub seek_idle: u64,
    /// Seconds the human of a bot game may stay away before the game ends.
    #[arg(long, default_value_t = 600)]
    pub bot_game_away: u64,
    /// Chat lines one player may send per minute in a game.
    #[arg(long, default_value_t = 20)]
    pub chat_per_minute: u32,
    /// Chat lines one player may send at once.
    #[arg(long, default_value_t = 10)]
    pub chat_burst: u32,
    /// Chat lines a game keeps and sends on (re)joining.
    #[arg(long, default_value_t = 100)]
    pub chat_keep: usize,
    /// Chat lines a game accepts in all.
    #[arg(long, default_value_t = 1000)]
    pub chat_max: usize,
    /// Days a guest may stay unseen before its token and seat tokens expire.
    #[arg(long, default_value_t = 90)]
    pub guest_ttl_days: u64,
    /// Seconds a disconnected player has before the opponent may claim the win.
    #[arg(long, default_value_t = 60)]
    pub grace: u64,
    /// Seconds a player may stay away during the setup phase before losing.
    #[arg(long, default_value_t = 180)]
    pub setup_grace: u64,
    /// Take the client's address for per-address rate limits from the last
    /// X-Forwarded-For entry (only behind a reverse proxy that sets it).
    #[arg(long)]
    pub trust_forwarded_for: bool,
    /// Rated games a player needs before being listed on a leaderboard.
    #[arg(long, default_value_t = 5)]
    pub leaderboard_min_games: u64,
    /// The rating deviation above which a rating is provisional (shown with "?") and kept
    /// off the leaderboards.
    #[arg(long, default_value_t = 110.0)]
    pub provisional_rd: f64,
    /// Logins (and registrations) per minute from one address, and to one account name.
    #[arg(long, default_value_t = 10)]
    pub logins_per_minute: u32,
    /// Accounts one address may register per hour.
    #[arg(long, default_value_t = 10)]
    pub accounts_per_hour: u32,
    /// The server is reached over HTTPS (behind a TLS proxy): the session cookie is sent
    /// with `Secure`.
    #[arg(long)]
    pub secure_cookies: bool,
}

impl Limits {
    /// The server's configuration with these limits, checked.
    ///
    /// # Errors
    /// A limit out of its range, named with its flag.
    pub fn config(&self) -> Result<Config, String> {
        let s = |secs: u64, flag: &str| {
            secs.checked_mul(1000)
                .filter(|&ms| ms > 0 && ms <= 30 * 24 * 3_600_000)
                .ok_or_else(|| format!("--{flag} is 1 to 2592000 seconds"))
        };
        if !(1024..=1 << 20).contains(&self.max_message) {
            return Err("--max-message is 1024 to 1048576 bytes".into());
        }
        if !(1..=3650).contains(&self.guest_ttl_days) {
            return Err("--guest-ttl-days is 1 to 3650".into());
        }
        let c = Config {
            max_conns_per_ip: self.max_conns_per_ip,
            max_conns: self.max_conns,
            header_timeout_ms: s(self.header_timeout, "header-timeout")?,
            idle_timeout_ms: s(self.idle_timeout, "idle-timeout")?,
            request_timeout_ms: s(self.request_timeout, "request-timeout")?,
            ping_ms: s(self.ping, "ping")?,
            max_queue_bytes: self
                .max_queue_kib
                .checked_mul(1024)
                .ok_or("--max-queue-kib is too large")?,
            rate_per_s: self.ws_rate,
            burst: self.ws_burst,
            max_message: self.max_message,
            guests_per_minute: self.guests_per_minute,
            guest_burst: self.guest_burst,
            max_open_seeks: self.max_open_seeks,
            max_bot_games: self.max_bot_games,
            analysis_samples: self.analysis_samples,
            analysis_queue: self.analysis_queue,
            seek_idle_ms: s(self.seek_idle, "seek-idle")?,
            bot_game_away_ms: s(self.bot_game_away, "bot-game-away")?,
            chat_per_minute: self.chat_per_minute,
            chat_burst: self.chat_burst,
            chat_keep: self.chat_keep,
            chat_max: self.chat_max,
            guest_ttl_ms: self.guest_ttl_days * 24 * 3_600_000,
            grace_ms: s(self.grace, "grace")?,
            setup_grace_ms: s(self.setup_grace, "setup-grace")?,
            trust_forwarded_for: self.trust_forwarded_for,
            leaderboard_min_games: self.leaderboard_min_games,
            provisional_rd: self.provisional_rd,
            logins_per_minute: self.logins_per_minute,
            accounts_per_hour: self.accounts_per_hour,
            secure_cookies: self.secure_cookies,
            ..Config::default()
        };
        // Config names its settings by their flags.
        c.check().map_err(|e| e.to_string())?;
        Ok(c)
    }
}

/// Runs the game server until Ctrl-C.
pub fn serve(addr: &str, db: &Path, limits: &Limits) -> Result<(), String> {
    let addr: SocketAddr = addr
        .parse()
        .map_err(|_| format!("--addr {addr:?} is not an address such as 127.0.0.1:8080"))?;
    let config = limits.config()?;
    init_logging();
    salpakan_server::serve_blocking(addr, db, config).map_err(|e| format!("serve: {e}"))
}

/// Runs the load generator and prints its report.
pub fn loadtest(
    games: usize,
    rate: f64,
    seconds: f64,
    url: Option<String>,
    abuse: bool,
) -> Result<(), String> {
    let opts = salpakan_client::loadtest::Options {
        games,
        rate,
        seconds,
        url,
        abuse,
    };
    let report = salpakan_client::loadtest::run(&opts, &InProcess)?;
    print!("{report}");
    Ok(())
}

/// The load generator's own server (no `--url`): this program's server, in this process.
struct InProcess;

impl salpakan_client::loadtest::Host for InProcess {
    fn start(&self, db: &Path) -> Result<salpakan_client::loadtest::Started, String> {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .map_err(|e| e.to_string())?;
        // Every client comes from 127.0.0.1: the per-address limits are lifted.
        let config = Config {
            rate_per_s: 1000,
            burst: 1000,
            max_conns_per_ip: 100_000,
            max_conns: 100_000,
            guest_burst: 1000,
            ..Config::default()
        };
        let server = rt
            .block_on(salpakan_server::Server::start(
                SocketAddr::from(([127, 0, 0, 1], 0)),
                db,
                config,
            ))
            .map_err(|e| e.to_string())?;
        let addr = server.addr;
        rt.spawn(server.wait());
        Ok(salpakan_client::loadtest::Started {
            addr,
            stop: Box::new(move || rt.shutdown_timeout(std::time::Duration::from_secs(1))),
        })
    }

    fn stored_moves(&self, db: &Path) -> Option<u64> {
        salpakan_server::stored_moves(db)
    }
}

fn init_logging() {
    let filter = std::env::var("SALPAKAN_LOG").unwrap_or_else(|_| "info".into());
    let level = match filter.as_str() {
        "error" => tracing::Level::ERROR,
        "warn" => tracing::Level::WARN,
        "debug" => tracing::Level::DEBUG,
        "trace" => tracing::Level::TRACE,
        _ => tracing::Level::INFO,
    };
    let _ = tracing_subscriber::fmt()
        .with_max_level(level)
        .with_writer(std::io::stderr)
        .try_init();
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct T {
        #[command(flatten)]
        limits: Limits,
    }

    /// The flags' defaults are the server's defaults (they cannot drift apart).
    #[test]
    fn serve_flag_defaults_are_the_server_defaults() {
        let c = T::parse_from(["t"]).limits.config().unwrap();
        assert_eq!(format!("{c:?}"), format!("{:?}", Config::default()));
        let d = Config::default();
        assert_eq!(
            (
                c.max_queue_bytes,
                c.guest_ttl_ms,
                c.chat_keep,
                c.seek_idle_ms,
                c.header_timeout_ms
            ),
            (
                d.max_queue_bytes,
                d.guest_ttl_ms,
                d.chat_keep,
                d.seek_idle_ms,
                d.header_timeout_ms
            )
        );
    }

    /// A limit of 0 (or one out of its range) is refused with the flag's name.
    #[test]
    fn a_serve_flag_out_of_range_is_refused_with_its_name() {
        for (args, flag) in [
            (vec!["t", "--max-conns-per-ip", "0"], "--max-conns-per-ip"),
            (vec!["t", "--idle-timeout", "0"], "--idle-timeout"),
            (vec!["t", "--ping", "90"], "--ping"),
            (vec!["t", "--max-message", "10"], "--max-message"),
            (vec!["t", "--provisional-rd", "0"], "--provisional-rd"),
            (vec!["t", "--chat-keep", "5000"], "--chat-keep"),
            (vec!["t", "--guests-per-minute", "0"], "--guests-per-minute"),
            (vec!["t", "--max-queue-kib", "1"], "--max-queue-kib"),
        ] {
            let e = T::parse_from(&args).limits.config().unwrap_err();
            assert!(e.contains(flag), "{args:?}: {e}");
        }
    }
}
