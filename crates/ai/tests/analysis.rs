//! Analysis for players: deterministic, bounded, and built only from what each seat knew.

mod common;

use salpakan_ai::analysis::{
    AnalysisBudget, AnalysisError, analyse, analyse_seat, calibrated, turning_points,
};
use salpakan_ai::{BotSpec, choose_move};
use salpakan_engine::generals::GeneralsOptions;
use salpakan_engine::stratego::{Duel, Stratego, StrategoOptions};
use salpakan_engine::{
    AnyMatch, EndReason, Game, GameKind, GameSpec, Match, Outcome, Seat, Viewer, rng_from_seed,
};

const BUDGET: AnalysisBudget = AnalysisBudget {
    samples: 16,
    turning_points: 5,
};

/// A game of `kind` played by random bots for at most `plies` plies, then resigned by the
/// side to move if it is still going.
fn finished(kind: GameKind, plies: u32, seed: u64) -> AnyMatch {
    let random: BotSpec = "random".parse().unwrap();
    let mut m = GameSpec::default_for(kind)
        .new_match([None, None], seed)
        .unwrap();
    for i in 0..u64::from(plies) {
        let Some(s) = m.to_move() else { break };
        let mv = choose_move(&random, &m, s, seed * 1000 + i).unwrap();
        m.play(mv).unwrap();
    }
    if let Some(s) = m.to_move() {
        m.conclude(Outcome::win(s.other(), EndReason::Resignation))
            .unwrap();
    }
    m
}

#[test]
fn analysis_is_deterministic_for_a_seed_and_a_budget() {
    for kind in GameKind::ALL {
        let m = finished(kind, 40, 3);
        let a = serde_json::to_string(&analyse(&m, &BUDGET, 7).unwrap()).unwrap();
        let b = serde_json::to_string(&analyse(&m, &BUDGET, 7).unwrap()).unwrap();
        assert_eq!(a, b, "{kind:?}: two analyses with the same seed differ");
        let full = analyse(&m, &BUDGET, 7).unwrap();
        assert_eq!(full.seats.len(), 2);
        for s in &full.seats {
            assert_eq!(s.win.len(), full.plies + 1, "{kind:?}: one value a ply");
            assert_eq!(s.hidden.len(), full.plies + 1);
            assert!(s.win.iter().all(|w| (0.0..=1.0).contains(w)));
            assert!(s.turning_points.len() <= BUDGET.turning_points);
            assert!(s.turning_points.windows(2).all(|w| w[0].ply < w[1].ply));
        }
        // The resigning side lost.
        let loser = m.outcome().unwrap().winner.unwrap().other();
        assert_eq!(full.seats[loser.index()].result, 0.0);
    }
}

#[test]
fn analysis_refuses_a_game_still_being_played() {
    let m = GameSpec::default_for(GameKind::Generals)
        .new_match([None, None], 1)
        .unwrap();
    assert_eq!(
        analyse(&m, &BUDGET, 1).unwrap_err(),
        AnalysisError::NotFinished
    );
    let msg = AnalysisError::NotFinished.to_string();
    assert!(msg.contains("once it ends"), "{msg}");
}

/// Two Generals matches that differ only in Black's setup (the same squares, the pieces
/// shuffled among them), with the same moves, every ply looking the same to White
/// (challenges included), then Black resigns: White's analysis is byte-identical.
#[test]
fn seat_analysis_ignores_hidden_information_it_cannot_see() {
    let o = GeneralsOptions::default();
    let (mut a, mut b) = common::shuffled_black_pair(&o, 4);
    let mut rng = rng_from_seed(5);
    let white_view = Viewer::Player(Seat::First);
    let mut challenges = 0;
    'plies: for _ in 0..80 {
        let mut moves = Vec::new();
        a.game().legal_moves(&mut moves);
        // Challenges first (most of them look different to White in the two games).
        rand::seq::SliceRandom::shuffle(&mut moves[..], &mut rng);
        moves.sort_by_key(|m| a.game().at(m.to).is_none());
        for mv in moves {
            let (mut a2, mut b2) = (a.clone(), b.clone());
            let Ok(ea) = a2.play(mv).cloned() else {
                continue;
            };
            let Ok(eb) = b2.play(mv).cloned() else {
                continue;
            };
            let (va, vb) = (
                a2.game().view(&ea, white_view).to_string(),
                b2.game().view(&eb, white_view).to_string(),
            );
            if va == vb && a2.game().outcome().is_none() && b2.game().outcome().is_none() {
                challenges += usize::from(a.game().at(mv.to).is_some());
                (a, b) = (a2, b2);
                continue 'plies;
            }
        }
        break;
    }
    assert!(a.moves().len() >= 20, "only {} plies", a.moves().len());
    assert!(challenges > 0, "no challenge was played");
    let resign = Outcome::win(Seat::First, EndReason::Resignation);
    a.conclude(resign).unwrap();
    b.conclude(resign).unwrap();
    let (a, b) = (AnyMatch::from(a), AnyMatch::from(b));
    let ja = serde_json::to_string(&analyse_seat(&a, Seat::First, &BUDGET, 11).unwrap()).unwrap();
    let jb = serde_json::to_string(&analyse_seat(&b, Seat::First, &BUDGET, 11).unwrap()).unwrap();
    assert_eq!(
        ja, jb,
        "White's analysis changed with what White could not see"
    );
    // Black's own analysis does see its own setup: it may differ (a sanity check that the
    // two games really differ for Black).
    let ka = serde_json::to_string(&analyse_seat(&a, Seat::Second, &BUDGET, 11).unwrap());
    let kb = serde_json::to_string(&analyse_seat(&b, Seat::Second, &BUDGET, 11).unwrap());
    assert_ne!(ka.unwrap(), kb.unwrap());
}

#[test]
fn rank_marginals_sum_to_one_and_known_pieces_are_certain() {
    for kind in GameKind::ALL {
        let m = finished(kind, 120, 9);
        let full = analyse(&m, &BUDGET, 2).unwrap();
        for s in &full.seats {
            for (ply, pieces) in s.hidden.iter().enumerate() {
                for p in pieces {
                    let sum: f64 = p.ranks.iter().map(|r| r.1).sum();
                    assert!(
                        (sum - 1.0).abs() < 1e-3,
                        "{kind:?} {} ply {ply} {}: ranks sum to {sum}",
                        s.seat,
                        p.square
                    );
                    assert!(p.ranks.windows(2).all(|w| w[0].1 >= w[1].1));
                }
            }
        }
    }
    // Stratego shows both ranks of every attack: an enemy piece that won its attack stands
    // on the square it took, known exactly.
    let mut m = Match::<Stratego>::random(&StrategoOptions::default(), 21).unwrap();
    let mut rng = rng_from_seed(22);
    let mut checked = 0;
    for ply in 1..=400usize {
        if m.game().outcome().is_some() {
            break;
        }
        let Some(mv) = m.game().random_move(&mut rng) else {
            break;
        };
        let ev = m.play(mv).unwrap().clone();
        let v = m.game().view(&ev, Viewer::Player(Seat::First));
        let won = v
            .attack
            .as_ref()
            .filter(|a| a.result == Duel::AttackerWins && v.seat != "red")
            .map(|a| a.attacker);
        if let (Some(rank), true) = (won, checked == 0) {
            let mut done = m.clone();
            if done.game().outcome().is_none() {
                done.conclude(Outcome::win(Seat::First, EndReason::Resignation))
                    .unwrap();
            }
            let a = analyse_seat(&AnyMatch::from(done), Seat::First, &BUDGET, 3).unwrap();
            let piece = a.hidden[ply]
                .iter()
                .find(|p| p.square == v.to.to_string())
                .expect("the winning attacker is listed");
            assert_eq!(piece.ranks, vec![(rank.code().to_string(), 1.0)]);
            checked += 1;
        }
    }
    assert_eq!(checked, 1, "no enemy attack was won in 400 random plies");
    // Banqi: every face-down piece has the unseen pool's distribution.
    let m = finished(GameKind::Banqi, 10, 4);
    let a = analyse_seat(&m, Seat::First, &BUDGET, 1).unwrap();
    assert_eq!(a.hidden[0].len(), 32, "all 32 pieces start face down");
    assert!(a.hidden[0].iter().all(|p| p.ranks == a.hidden[0][0].ranks));
}

#[test]
fn turning_points_are_the_biggest_changes_in_ply_order() {
    let win = [0.5, 0.52, 0.2, 0.25, 0.9, 0.9, 1.0];
    let t = turning_points(&win, 2);
    assert_eq!(
        t.iter().map(|t| t.ply).collect::<Vec<_>>(),
        vec![2, 4],
        "{t:?}"
    );
    assert_eq!((t[1].before, t[1].after), (0.25, 0.9));
    assert!(turning_points(&[0.5], 5).is_empty());
}

#[test]
fn the_win_probability_reads_the_evaluation_through_a_slope_on_its_logit() {
    // Even stays even, decided stays decided, and the order of two values is kept.
    for slope in [0.3, 0.5, 1.0, 2.0] {
        assert!((calibrated(0.5, slope) - 0.5).abs() < 1e-12);
        assert_eq!(calibrated(0.0, slope), 0.0);
        assert_eq!(calibrated(1.0, slope), 1.0);
        let values = [0.001, 0.05, 0.2, 0.49, 0.51, 0.8, 0.95, 0.999];
        let out: Vec<f64> = values.iter().map(|&v| calibrated(v, slope)).collect();
        assert!(out.windows(2).all(|w| w[0] < w[1]), "{slope}: {out:?}");
        // Symmetric: one seat's chance is the other's complement.
        for &v in &values {
            assert!((calibrated(v, slope) + calibrated(1.0 - v, slope) - 1.0).abs() < 1e-12);
        }
    }
    // A slope below 1 draws a confident value in: 95% read as about 81% at 0.5.
    assert!((calibrated(0.95, 0.5) - 0.8135).abs() < 1e-3);
    assert_eq!(calibrated(0.8, 1.0), 0.8);
}

/// The log loss of a seat's win probabilities against its result, every ply but the last
/// of a game decided on the board; and the same for the values read back through `1/slope`
/// (the evaluation as it was before it was read as a chance).
fn log_losses(games: &[AnyMatch], slope: f64) -> (f64, f64) {
    let budget = AnalysisBudget {
        samples: 16,
        turning_points: 0,
    };
    let loss = |w: f64, r: f64| {
        let p = w.clamp(1e-6, 1.0 - 1e-6);
        -(r * p.ln() + (1.0 - r) * (1.0 - p).ln())
    };
    let (mut shown, mut raw, mut n) = (0.0, 0.0, 0.0);
    for m in games {
        for seat in Seat::BOTH {
            let a = analyse_seat(m, seat, &budget, 1).unwrap();
            for &w in &a.win[..a.win.len() - 1] {
                shown += loss(w, a.result);
                raw += loss(calibrated(w, 1.0 / slope), a.result);
                n += 1.0;
            }
        }
    }
    (shown / n, raw / n)
}

/// The arena records shipped for this test (`tests/records`, from the games the slopes were
/// fitted to: `expert` against `greedy` and `mcts` at fixed iterations, the first games of
/// each pairing; `docs/ai.md`, *How far the win probability can be trusted*).
fn shipped(prefix: &str) -> Vec<AnyMatch> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/records");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().unwrap().to_str().unwrap().starts_with(prefix))
        .collect();
    paths.sort();
    assert!(
        !paths.is_empty(),
        "no {prefix} records in {}",
        dir.display()
    );
    paths
        .iter()
        .map(|p| {
            let rec = salpakan_engine::Record::parse(&std::fs::read_to_string(p).unwrap()).unwrap();
            AnyMatch::replay(&rec).unwrap()
        })
        .collect()
}

#[test]
fn the_win_probability_predicts_results_better_than_the_raw_evaluation() {
    use salpakan_ai::AiGame;
    use salpakan_engine::banqi::Banqi;
    use salpakan_engine::generals::Generals;
    for (prefix, slope) in [
        ("generals", Generals::ANALYSIS_SLOPE),
        ("stratego", Stratego::ANALYSIS_SLOPE),
        ("banqi", Banqi::ANALYSIS_SLOPE),
    ] {
        assert!(slope < 1.0, "{prefix}: the evaluation is overconfident");
        let (shown, raw) = log_losses(&shipped(prefix), slope);
        assert!(
            shown < raw,
            "{prefix}: log loss {shown:.4} shown against {raw:.4} raw"
        );
    }
}

/// The time of one analysis at the default budget, of a game between two `greedy` bots
/// (stopped by resignation after 300 plies) (run by hand:
/// `cargo test -p salpakan-ai --test analysis -- --ignored --nocapture`).
#[test]
#[ignore = "a timing, not a check"]
fn analysis_time_at_the_default_budget() {
    let greedy: BotSpec = "greedy".parse().unwrap();
    for kind in GameKind::ALL {
        let mut m = GameSpec::default_for(kind)
            .new_match([None, None], 1)
            .unwrap();
        for i in 0..300u64 {
            let Some(s) = m.to_move() else { break };
            let mv = choose_move(&greedy, &m, s, i).unwrap();
            m.play(mv).unwrap();
        }
        if let Some(s) = m.to_move() {
            m.conclude(Outcome::win(s.other(), EndReason::Resignation))
                .unwrap();
        }
        let t = std::time::Instant::now();
        let a = analyse(&m, &AnalysisBudget::default(), 1).unwrap();
        let json = serde_json::to_string(&a).unwrap();
        println!(
            "{kind:?}: {} plies analysed in {:.2} s, {} bytes of JSON",
            a.plies,
            t.elapsed().as_secs_f64(),
            json.len()
        );
    }
}
