//! `salpakan serve` and `salpakan loadtest`: thin wrappers over `salpakan-server`.

use std::net::SocketAddr;
use std::path::Path;

/// Runs the game server until Ctrl-C.
pub fn serve(addr: &str, db: &Path) -> Result<(), String> {
    let addr: SocketAddr = addr
        .parse()
        .map_err(|_| format!("--addr {addr:?} is not an address such as 127.0.0.1:8080"))?;
    init_logging();
    salpakan_server::serve_blocking(addr, db).map_err(|e| format!("serve: {e}"))
}

/// Runs the load generator and prints its report.
pub fn loadtest(games: usize, rate: f64, seconds: f64, url: Option<String>) -> Result<(), String> {
    let opts = salpakan_server::loadtest::Options {
        games,
        rate,
        seconds,
        url,
    };
    let report = salpakan_server::loadtest::run(&opts)?;
    print!("{report}");
    Ok(())
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
