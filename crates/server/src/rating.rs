//! Glicko-2 ratings (Glickman, "Example of the Glicko-2 system"), one rating period per
//! game as lichess rates, with the deviation growing with the time since a player's last
//! rated game; the boards (which options are rated, under which rating); and the
//! completion rule (which endings count as abandoned).
//!
//! The `skillratings` crate was considered: its Glicko-2 grows a deviation by whole rating
//! periods only (`decay_deviation` adds one period), and lichess grows it by the fraction
//! of periods elapsed since the last game, so the few formulas live here, checked against
//! the paper's worked example.

use salpakan_engine::{EndReason, GameKind, GameSpec};

/// Glicko-2's scale factor between the Glicko scale and the Glicko-2 scale.
const SCALE: f64 = 173.7178;
/// The system constant τ: how much a volatility may change in one period. 0.75, as
/// lichess uses (Glickman suggests 0.3 to 1.2; the paper's example uses 0.5).
pub const TAU: f64 = 0.75;
/// A new player's rating.
pub const START_RATING: f64 = 1500.0;
/// A new player's (and the largest) rating deviation.
pub const START_RD: f64 = 350.0;
/// A new player's volatility.
pub const START_VOL: f64 = 0.06;
/// The smallest rating deviation (as lichess: a rating never freezes).
pub const MIN_RD: f64 = 45.0;
/// Rating periods per day of inactivity (lichess's constant): the deviation grows as if a
/// period without games passed every 4.7 days.
pub const PERIODS_PER_DAY: f64 = 0.21436;
/// Convergence tolerance of the volatility iteration (the paper's ε).
const EPSILON: f64 = 0.000_001;

/// One player's Glicko-2 rating on the Glicko scale.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Glicko {
    /// The rating (1500 for a new player).
    pub rating: f64,
    /// The rating deviation (350 for a new player).
    pub rd: f64,
    /// The volatility σ (0.06 for a new player).
    pub vol: f64,
}

impl Default for Glicko {
    fn default() -> Self {
        Glicko {
            rating: START_RATING,
            rd: START_RD,
            vol: START_VOL,
        }
    }
}

/// One game's result for the player rated: the opponent's rating before the game and the
/// player's score (1 win, 0.5 draw, 0 loss).
#[derive(Clone, Copy, Debug)]
pub struct Game {
    /// The opponent's rating before the game.
    pub opponent: Glicko,
    /// 1, 0.5 or 0.
    pub score: f64,
}

fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (std::f64::consts::PI * std::f64::consts::PI)).sqrt()
}

fn expected(mu: f64, mu_j: f64, phi_j: f64) -> f64 {
    1.0 / (1.0 + (-g(phi_j) * (mu - mu_j)).exp())
}

/// The new volatility σ' (step 5 of the paper, the Illinois algorithm).
fn new_volatility(phi: f64, vol: f64, v: f64, delta: f64, tau: f64) -> f64 {
    let a = (vol * vol).ln();
    let f = |x: f64| {
        let ex = x.exp();
        ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex).powi(2))
            - (x - a) / (tau * tau)
    };
    let mut big_a = a;
    let mut big_b = if delta * delta > phi * phi + v {
        (delta * delta - phi * phi - v).ln()
    } else {
        let mut k = 1.0;
        while f(a - k * tau) < 0.0 {
            k += 1.0;
        }
        a - k * tau
    };
    let mut fa = f(big_a);
    let mut fb = f(big_b);
    while (big_b - big_a).abs() > EPSILON {
        let c = big_a + (big_a - big_b) * fa / (fb - fa);
        let fc = f(c);
        if fc * fb <= 0.0 {
            big_a = big_b;
            fa = fb;
        } else {
            fa /= 2.0;
        }
        big_b = c;
        fb = fc;
    }
    (big_a / 2.0).exp()
}

/// The player's rating after one rating period holding `games`, `periods` rating periods
/// after its previous one (1 in the paper; lichess passes the fraction of periods elapsed
/// since the player's last game, so that the deviation grows with inactivity), with system
/// constant `tau`. Without games only the deviation grows. The deviation is kept within
/// [`MIN_RD`] and [`START_RD`] when `clamp` is set (the paper's example is computed
/// without).
#[must_use]
pub fn rate_period(player: Glicko, games: &[Game], periods: f64, tau: f64, clamp: bool) -> Glicko {
    let mu = (player.rating - START_RATING) / SCALE;
    let phi = player.rd / SCALE;
    let periods = periods.max(0.0);
    let clamp_rd = |rd: f64| {
        if clamp {
            rd.clamp(MIN_RD, START_RD)
        } else {
            rd
        }
    };
    if games.is_empty() {
        let phi_star = (phi * phi + periods * player.vol * player.vol).sqrt();
        return Glicko {
            rd: clamp_rd(phi_star * SCALE),
            ..player
        };
    }
    let mut inv_v = 0.0;
    let mut sum = 0.0;
    for gm in games {
        let mu_j = (gm.opponent.rating - START_RATING) / SCALE;
        let phi_j = gm.opponent.rd / SCALE;
        let e = expected(mu, mu_j, phi_j);
        inv_v += g(phi_j).powi(2) * e * (1.0 - e);
        sum += g(phi_j) * (gm.score - e);
    }
    let v = 1.0 / inv_v;
    let delta = v * sum;
    let vol = new_volatility(phi, player.vol, v, delta, tau);
    let phi_star = (phi * phi + periods * vol * vol).sqrt();
    let new_phi = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
    let new_mu = mu + new_phi * new_phi * sum;
    Glicko {
        rating: new_mu * SCALE + START_RATING,
        rd: clamp_rd(new_phi * SCALE),
        vol,
    }
}

/// The rating periods elapsed between a player's last rated game at `last` (ms, 0 for
/// none) and `now` (ms): at least one for a new player (the first game is a period of its
/// own), the fraction of [`PERIODS_PER_DAY`] periods a day otherwise.
#[must_use]
pub fn periods_since(last: u64, now: u64) -> f64 {
    if last == 0 {
        return 1.0;
    }
    now.saturating_sub(last) as f64 / 86_400_000.0 * PERIODS_PER_DAY
}

/// A rating shown to people: rounded to a whole number.
#[must_use]
pub fn shown(r: f64) -> i64 {
    // Ratings stay within a few thousand: the cast cannot truncate.
    #[allow(clippy::cast_possible_truncation)]
    let n = r.round() as i64;
    n
}

/// A rated board: its name and the options it rates (see `docs/ratings.md`).
pub const BOARDS: [&str; 5] = [
    "generals",
    "stratego",
    "stratego-barrage",
    "stratego-ultimate-lightning",
    "banqi",
];

/// The board a game's options are rated on, or none when they are casual only: the
/// default options of Game of the Generals (with or without `reveal_at_end`, which changes
/// what is shown after the end, not the game), of Stratego with the classic, Barrage or
/// Ultimate Lightning army, and of Banqi (Taiwan rules). Any other option changes the game
/// too much to share a rating.
#[must_use]
pub fn board_of(spec: &GameSpec) -> Option<&'static str> {
    let kind = spec.kind();
    let mut opts = spec.to_json();
    if kind == GameKind::Generals {
        if let Some(o) = opts.as_object_mut() {
            o.remove("reveal_at_end");
        }
    }
    let candidates: &[(&str, serde_json::Value)] = match kind {
        GameKind::Generals => &[("generals", serde_json::Value::Null)],
        GameKind::Stratego => &[
            ("stratego", serde_json::Value::Null),
            ("stratego-barrage", serde_json::json!({"army": "barrage"})),
            (
                "stratego-ultimate-lightning",
                serde_json::json!({"army": "ultimate_lightning"}),
            ),
        ],
        GameKind::Banqi => &[("banqi", serde_json::Value::Null)],
    };
    candidates.iter().find_map(|(name, o)| {
        let mut want = GameSpec::from_json(kind, o).ok()?.to_json();
        if let Some(w) = want.as_object_mut() {
            w.remove("reveal_at_end");
        }
        (want == opts).then_some(*name)
    })
}

/// How long a seat that runs out of time may have gone without a move of its own (its
/// own clock's time) and still count the game as finished by play.
pub const STALLING_MS: u64 = 60_000;

/// Whether a seat's game counts as abandoned by it: it lost by abandonment (left during
/// setup, or disconnected past the grace period), lost as a failed program (forfeit), or
/// lost on time after `turn_ms` of its own clock without moving, at least
/// [`STALLING_MS`]. Every other ending (a win, a draw, a resignation, a loss on the board
/// or on time while playing) is finished by play. `won` is none for a draw.
#[must_use]
pub fn abandoned(reason: EndReason, won: Option<bool>, turn_ms: Option<u64>) -> bool {
    if won == Some(true) {
        return false;
    }
    match reason {
        // A draw by abandonment: both left during setup.
        EndReason::Abandonment | EndReason::Forfeit => true,
        EndReason::Time => turn_ms.is_some_and(|t| t >= STALLING_MS),
        _ => false,
    }
}

/// The completion rate in percent, none before 5 games.
#[must_use]
pub fn completion(finished: u64, abandoned: u64) -> Option<i64> {
    let n = finished + abandoned;
    #[allow(clippy::cast_possible_wrap)]
    (n >= 5).then(|| ((finished * 100 + n / 2) / n) as i64)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Glickman's worked example: 1500/200/0.06 beats 1400/30, loses to 1550/100 and to
    /// 1700/300, τ = 0.5: 1464.06 / 151.52 / 0.05999.
    #[test]
    fn glicko2_matches_the_papers_worked_example() {
        let p = Glicko {
            rating: 1500.0,
            rd: 200.0,
            vol: 0.06,
        };
        let opp = |rating, rd| Glicko {
            rating,
            rd,
            vol: 0.06,
        };
        let games = [
            Game {
                opponent: opp(1400.0, 30.0),
                score: 1.0,
            },
            Game {
                opponent: opp(1550.0, 100.0),
                score: 0.0,
            },
            Game {
                opponent: opp(1700.0, 300.0),
                score: 0.0,
            },
        ];
        let r = rate_period(p, &games, 1.0, 0.5, false);
        // The paper works on the Glicko-2 scale to 4 decimals (μ' = -0.2069, φ' = 0.8722)
        // and converts those back: 1464.06 and 151.52.
        let mu = (r.rating - 1500.0) / SCALE;
        let phi = r.rd / SCALE;
        assert_eq!(format!("{mu:.4}"), "-0.2069");
        assert_eq!(format!("{phi:.4}"), "0.8722");
        let mu4: f64 = format!("{mu:.4}").parse().unwrap();
        let phi4: f64 = format!("{phi:.4}").parse().unwrap();
        assert_eq!(format!("{:.2}", mu4 * SCALE + 1500.0), "1464.06");
        assert_eq!(format!("{:.2}", phi4 * SCALE), "151.52");
        // And unrounded, within the printed precision.
        assert!((r.rating - 1464.06).abs() < 0.01, "{r:?}");
        assert!((r.rd - 151.52).abs() < 0.01, "{r:?}");
        // σ' = 0.05999 as printed (five decimals, cut).
        assert_eq!(format!("{:.5}", (r.vol * 1e5).trunc() / 1e5), "0.05999");
    }

    /// Without games a deviation grows by σ² per period, never past 350.
    #[test]
    fn deviation_grows_with_inactivity_up_to_the_start_deviation() {
        let p = Glicko {
            rating: 1600.0,
            rd: 60.0,
            vol: 0.06,
        };
        let a = rate_period(p, &[], periods_since(1, 1 + 30 * 86_400_000), TAU, true);
        let b = rate_period(p, &[], periods_since(1, 1 + 300 * 86_400_000), TAU, true);
        assert!(a.rd > 60.0 && b.rd > a.rd, "{a:?} {b:?}");
        assert!((a.rating - 1600.0).abs() < f64::EPSILON);
        let c = rate_period(p, &[], 1e9, TAU, true);
        assert!((c.rd - START_RD).abs() < 1e-9);
    }

    /// One rated game between two players: both ratings after it. `score` is the first
    /// player's (1 win, 0.5 draw, 0 loss); each player's deviation first grows by the periods
    /// since its own last game.
    pub fn rate_game(a: (Glicko, f64), b: (Glicko, f64), score: f64) -> (Glicko, Glicko) {
        let na = rate_period(
            a.0,
            &[Game {
                opponent: b.0,
                score,
            }],
            a.1,
            TAU,
            true,
        );
        let nb = rate_period(
            b.0,
            &[Game {
                opponent: a.0,
                score: 1.0 - score,
            }],
            b.1,
            TAU,
            true,
        );
        (na, nb)
    }

    /// Two new players: the winner gains what the loser loses, and both deviations shrink.
    #[test]
    fn a_win_between_new_players_is_symmetric() {
        let (a, b) = rate_game((Glicko::default(), 1.0), (Glicko::default(), 1.0), 1.0);
        assert!(a.rating > 1500.0 && b.rating < 1500.0);
        assert!((a.rating - 1500.0 - (1500.0 - b.rating)).abs() < 1e-9);
        assert!(a.rd < 350.0 && b.rd < 350.0);
    }

    #[test]
    fn boards_are_the_default_options_and_the_named_armies() {
        let spec = |k, o: serde_json::Value| GameSpec::from_json(k, &o).unwrap();
        use serde_json::json;
        assert_eq!(
            board_of(&spec(GameKind::Generals, json!(null))),
            Some("generals")
        );
        assert_eq!(
            board_of(&spec(GameKind::Generals, json!({"reveal_at_end": false}))),
            Some("generals")
        );
        assert_eq!(
            board_of(&spec(GameKind::Stratego, json!({}))),
            Some("stratego")
        );
        assert_eq!(
            board_of(&spec(GameKind::Stratego, json!({"army": "barrage"}))),
            Some("stratego-barrage")
        );
        assert_eq!(
            board_of(&spec(GameKind::Stratego, json!({"army": "ul"}))),
            Some("stratego-ultimate-lightning")
        );
        assert_eq!(board_of(&spec(GameKind::Banqi, json!(null))), Some("banqi"));
        assert_eq!(
            board_of(&spec(GameKind::Stratego, json!({"army": "duel"}))),
            None
        );
        assert_eq!(
            board_of(&spec(GameKind::Banqi, json!({"chain_captures": true}))),
            None
        );
        assert_eq!(
            board_of(&spec(GameKind::Stratego, json!({"max_quiet_plies": 10}))),
            None
        );
    }

    #[test]
    fn completion_counts_leaving_and_stalling_out_the_clock_as_abandoned() {
        use EndReason::*;
        assert!(abandoned(Abandonment, Some(false), None));
        assert!(abandoned(Abandonment, None, None));
        assert!(!abandoned(Abandonment, Some(true), None));
        assert!(!abandoned(Resignation, Some(false), None));
        assert!(abandoned(Time, Some(false), Some(60_000)));
        assert!(!abandoned(Time, Some(false), Some(59_999)));
        assert!(!abandoned(FlagCaptured, Some(false), None));
        assert_eq!(completion(3, 1), None);
        assert_eq!(completion(4, 1), Some(80));
        assert_eq!(completion(2, 1), None);
        assert_eq!(completion(5, 0), Some(100));
    }
}
