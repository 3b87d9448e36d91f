//! What a run measured, and how it is printed.

/// What was measured.
#[derive(Clone, Debug)]
pub struct Report {
    /// Games with both players connected and playing at the end of the measurement.
    pub games_held: usize,
    /// Moves acknowledged during the measurement.
    pub moves: u64,
    /// Moves per second during the measurement.
    pub moves_per_s: f64,
    /// Acknowledgement latency percentiles in milliseconds: p50, p90, p99, max.
    pub ack_ms: [f64; 4],
    /// Refused or failed requests.
    pub errors: u64,
    /// Games that ended (and were replaced by new ones).
    pub games_finished: u64,
    /// Moves found in the database afterwards (in-process server only).
    pub stored_moves: Option<u64>,
    /// With `--abuse`: what the floods met, and the server's memory.
    pub abuse: Option<AbuseReport>,
}

/// What `--abuse` measured.
#[derive(Clone, Debug, Default)]
pub struct AbuseReport {
    /// The server's resident memory (KiB): when it started, at the most, at the end.
    pub rss_kib: [u64; 3],
    /// Seconds the floods ran.
    pub seconds: f64,
    /// Requests, messages and connections the floods sent or opened.
    pub sent: u64,
    /// Connections refused, as the floods saw it / as the server logged it.
    pub refused: [u64; 2],
    /// Requests rate-limited, as the floods saw it / as the server logged it.
    pub rate_limited: [u64; 2],
    /// Requests refused as bad (bot parameters out of range, oversized frames).
    pub bad: u64,
    /// Connections the server closed (slow headers, readers that do not read, oversized
    /// frames, idle sockets).
    pub cut_off: u64,
}

impl std::fmt::Display for Report {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "games held:      {}", self.games_held)?;
        writeln!(
            f,
            "games finished:  {} (each replaced by a new game)",
            self.games_finished
        )?;
        writeln!(f, "moves acked:     {}", self.moves)?;
        writeln!(f, "moves/s:         {:.0}", self.moves_per_s)?;
        writeln!(
            f,
            "ack latency ms:  p50 {:.1}  p90 {:.1}  p99 {:.1}  max {:.1}",
            self.ack_ms[0], self.ack_ms[1], self.ack_ms[2], self.ack_ms[3]
        )?;
        writeln!(f, "errors:          {}", self.errors)?;
        if let Some(n) = self.stored_moves {
            writeln!(f, "moves in the db: {n} (every acked move is durable)")?;
        }
        if let Some(a) = &self.abuse {
            writeln!(
                f,
                "abuse: floods ran {:.0} s alongside, {} requests/messages/connections sent",
                a.seconds, a.sent
            )?;
            writeln!(
                f,
                "  server memory:        {:.1} MB at start, {:.1} MB at most, {:.1} MB at the end",
                a.rss_kib[0] as f64 / 1024.0,
                a.rss_kib[1] as f64 / 1024.0,
                a.rss_kib[2] as f64 / 1024.0
            )?;
            writeln!(
                f,
                "  connections refused:  {} seen by the floods, {} logged by the server",
                a.refused[0], a.refused[1]
            )?;
            writeln!(
                f,
                "  requests rate-limited: {} seen by the floods, {} logged by the server",
                a.rate_limited[0], a.rate_limited[1]
            )?;
            writeln!(f, "  refused as bad (400): {}", a.bad)?;
            writeln!(f, "  connections cut off:  {}", a.cut_off)?;
        }
        Ok(())
    }
}
