//! Time: an injectable time source, time controls and the two clocks of a game.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use salpakan_engine::{GameKind, Seat};
use serde::{Deserialize, Serialize};

/// Where the server reads the time, in milliseconds from an arbitrary start. Tests inject a
/// [`ManualTime`]; the server uses [`SystemTime`].
pub trait TimeSource: Send + Sync + 'static {
    /// Milliseconds since this source's start; never goes backwards.
    fn now_ms(&self) -> u64;
}

/// The monotonic system clock.
#[derive(Debug)]
pub struct SystemTime(Instant);

impl Default for SystemTime {
    fn default() -> Self {
        SystemTime(Instant::now())
    }
}

impl TimeSource for SystemTime {
    fn now_ms(&self) -> u64 {
        u64::try_from(self.0.elapsed().as_millis()).unwrap_or(u64::MAX)
    }
}

/// A clock that moves only when told to (tests).
#[derive(Debug, Default)]
pub struct ManualTime(AtomicU64);

impl ManualTime {
    /// Moves the time forward by `ms`.
    pub fn advance(&self, ms: u64) {
        self.0.fetch_add(ms, Ordering::SeqCst);
    }
}

impl TimeSource for ManualTime {
    fn now_ms(&self) -> u64 {
        self.0.load(Ordering::SeqCst)
    }
}

/// A time control: base time plus an increment per move, in seconds on the wire.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TimeControl {
    /// Base time per side, in seconds.
    pub base: u64,
    /// Added to a side's clock after each of its moves, in seconds.
    #[serde(default)]
    pub inc: u64,
}

impl TimeControl {
    /// Checks the bounds: 10 s to 3 h base, at most 3 min increment.
    ///
    /// # Errors
    /// A sentence naming the bound.
    pub fn check(&self) -> Result<(), String> {
        if !(10..=10_800).contains(&self.base) {
            return Err(format!(
                "clock base {} s is out of range: give 10 to 10800 seconds",
                self.base
            ));
        }
        if self.inc > 180 {
            return Err(format!(
                "clock increment {} s is out of range: give 0 to 180 seconds",
                self.inc
            ));
        }
        Ok(())
    }
}

/// Both clocks of a game: the remaining time of each seat and which one is running.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clocks {
    /// The time control, or `None` for an untimed game.
    pub control: Option<TimeControl>,
    /// Milliseconds left per seat at the moment the running clock last started.
    pub remaining: [u64; 2],
    /// The running clock's seat and since when (time source ms).
    pub running: Option<(Seat, u64)>,
}

/// The stored form of the clocks after an event: remaining ms and the running seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredClocks {
    /// Milliseconds left per seat.
    pub rem: [u64; 2],
    /// The running seat's index, if one runs.
    pub run: Option<usize>,
}

impl Clocks {
    /// Fresh clocks for a time control, stopped.
    #[must_use]
    pub fn new(control: Option<TimeControl>) -> Clocks {
        let base = control.map_or(0, |c| c.base * 1000);
        Clocks {
            control,
            remaining: [base; 2],
            running: None,
        }
    }

    /// The time `seat` has left at `now`.
    #[must_use]
    pub fn left(&self, seat: Seat, now: u64) -> u64 {
        let r = self.remaining[seat.index()];
        match self.running {
            Some((s, since)) if s == seat => r.saturating_sub(now.saturating_sub(since)),
            _ => r,
        }
    }

    /// The seat whose time has run out at `now`, if any.
    #[must_use]
    pub fn flagged(&self, now: u64) -> Option<Seat> {
        self.control?;
        let (s, _) = self.running?;
        (self.left(s, now) == 0).then_some(s)
    }

    /// When the running clock falls (time source ms).
    #[must_use]
    pub fn deadline(&self) -> Option<u64> {
        self.control?;
        let (s, since) = self.running?;
        Some(since + self.remaining[s.index()])
    }

    /// Starts `seat`'s clock at `now` (stopping the other).
    pub fn start(&mut self, seat: Seat, now: u64) {
        self.stop(now);
        if self.control.is_some() {
            self.running = Some((seat, now));
        }
    }

    /// Stops the running clock at `now`, charging its time.
    pub fn stop(&mut self, now: u64) {
        if let Some((s, _)) = self.running {
            self.remaining[s.index()] = self.left(s, now);
            self.running = None;
        }
    }

    /// `seat` has moved at `now`: charge, add the increment, start the other clock.
    pub fn press(&mut self, seat: Seat, now: u64) {
        self.stop(now);
        if let Some(c) = self.control {
            self.remaining[seat.index()] += c.inc * 1000;
            self.running = Some((seat.other(), now));
        }
    }

    /// The stored form at `now`.
    #[must_use]
    pub fn stored(&self, now: u64) -> StoredClocks {
        StoredClocks {
            rem: Seat::BOTH.map(|s| self.left(s, now)),
            run: self.running.map(|(s, _)| s.index()),
        }
    }

    /// Restores stored clocks, the running one resuming at `now` (time while the server was
    /// down is not charged).
    pub fn restore(&mut self, stored: StoredClocks, now: u64) {
        self.remaining = stored.rem;
        self.running = stored.run.map(|i| (Seat::from_index(i), now));
    }

    /// The clocks as JSON for clients: `{"white":ms,"black":ms,"running":"white"}`, or
    /// `null` for an untimed game.
    #[must_use]
    pub fn json(&self, kind: GameKind, now: u64) -> serde_json::Value {
        if self.control.is_none() {
            return serde_json::Value::Null;
        }
        let mut m = serde_json::Map::new();
        for s in Seat::BOTH {
            m.insert(kind.seat_name(s).into(), self.left(s, now).into());
        }
        m.insert(
            "running".into(),
            self.running
                .map_or(serde_json::Value::Null, |(s, _)| kind.seat_name(s).into()),
        );
        serde_json::Value::Object(m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn press_charges_and_adds_increment() {
        let mut c = Clocks::new(Some(TimeControl { base: 60, inc: 2 }));
        c.start(Seat::First, 1000);
        assert_eq!(c.left(Seat::First, 6000), 55_000);
        c.press(Seat::First, 6000);
        assert_eq!(c.left(Seat::First, 9000), 57_000);
        assert_eq!(c.left(Seat::Second, 9000), 57_000);
        assert_eq!(c.deadline(), Some(6000 + 60_000));
        assert_eq!(c.flagged(66_000), Some(Seat::Second));
        let s = c.stored(10_000);
        let mut d = Clocks::new(c.control);
        d.restore(s, 500_000);
        assert_eq!(d.left(Seat::Second, 500_000), 56_000);
    }
}
