//! The Banqi `expert` search (`salpakan_ai::games::banqi_search`): expectiminimax with
//! alpha-beta over the public position.

use salpakan_ai::games::banqi_search::{
    Found, best_move, best_move_to_depth, evaluate_public, leaf_value,
};
use salpakan_ai::mcts::Budget;
use salpakan_engine::banqi::{Banqi, BanqiOptions, Color, Move};
use salpakan_engine::{Game, Seat};

fn banqi(rows: &str) -> Banqi {
    Banqi::from_diagram(&BanqiOptions::default(), rows, Color::Red, Seat::First).unwrap()
}

fn mv(text: &str) -> Move {
    text.parse().unwrap()
}

fn search(g: &Banqi, nodes: u64) -> Found {
    best_move(g, Seat::First, Budget::Iterations(nodes))
}

#[test]
fn banqi_expert_takes_a_piece_that_cannot_be_taken_back() {
    // The red Chariot on b4 takes the black Horse on b5; nothing black can answer.
    let g = banqi(". . . k\n. . . .\n. . . .\n. n . .\n. R . .\n. . . .\n. . . .\nK . . .");
    let found = search(&g, 20_000);
    assert_eq!(found.best, mv("b4-b5"), "{found:?}");
    // A Horse up: worth half its plain 1.6 here, since it takes nothing red has left.
    assert!(found.score > 0.5, "a Horse up: {found:?}");
}

#[test]
fn banqi_expert_does_not_take_a_piece_guarded_by_a_stronger_one() {
    // Red's Horse could take the Soldier on b5, but the black Advisor on b6 would take it
    // back (a Horse for a Soldier); red's General takes a lone Soldier on d2 instead.
    let g = banqi(". . . .\n. . . k\n. g . .\n. p . .\n. N . .\n. . . .\n. . K p\n. . . .");
    let found = search(&g, 50_000);
    assert_ne!(found.best, mv("b4-b5"), "{found:?}");
}

#[test]
fn banqi_expert_moves_its_general_away_from_a_soldier() {
    // The black Soldier next to red's General takes it unless it steps away; a Soldier is
    // the one piece that takes a General by a step.
    let g = banqi(". . . .\n. . . .\n. . . .\n. . . .\n. . . .\n. p . .\n. K . .\n. . . k");
    let found = search(&g, 50_000);
    let after = {
        let mut h = g.clone();
        h.play(found.best).unwrap();
        h
    };
    let mut replies = Vec::new();
    after.legal_moves(&mut replies);
    let threatened = replies
        .iter()
        .any(|&r| matches!(r, Move::Step { to, .. } if after.at(to).is_some_and(|(p, up)| !up && p.kind == salpakan_engine::banqi::Kind::General)));
    assert!(
        !threatened,
        "the General still hangs after {:?}",
        found.best
    );
}

#[test]
fn banqi_expert_search_reads_no_face_down_piece() {
    // The same public position (the same face-up pieces, the same face-down squares, the
    // same unseen pool) with the face-down pieces arranged two ways: the search must give
    // the same move, value and node count.
    let a = banqi("?k ?p . .\n?g . . .\n. . . .\n. n . .\n. R . .\n. . . .\n. . . ?P\n. . . K");
    let b = banqi("?P ?g . .\n?p . . .\n. . . .\n. n . .\n. R . .\n. . . .\n. . . ?k\n. . . K");
    assert_eq!(a.unseen_pool(), b.unseen_pool());
    let (fa, fb) = (search(&a, 30_000), search(&b, 30_000));
    assert_eq!(format!("{fa:?}"), format!("{fb:?}"));
}

/// The analysis evaluates one determinization a ply in Banqi
/// (`EXPERT_EVALUATION_IS_PUBLIC`): the leaf value must not depend on how the face-down
/// pieces lie.
#[test]
fn banqi_expert_leaf_value_reads_no_face_down_piece() {
    use salpakan_ai::AiGame;
    const { assert!(Banqi::EXPERT_EVALUATION_IS_PUBLIC) };
    let a = banqi("?k ?p . .\n?g . . .\n. . . .\n. n . .\n. R . .\n. . . .\n. . . ?P\n. . . K");
    let b = banqi("?P ?g . .\n?p . . .\n. . . .\n. n . .\n. R . .\n. . . .\n. . . ?k\n. . . K");
    for seat in Seat::BOTH {
        let (va, vb) = (leaf_value(&a, seat), leaf_value(&b, seat));
        assert_eq!(va.to_bits(), vb.to_bits(), "{seat:?}: {va} vs {vb}");
    }
    // Red to move takes the Horse: the value counts it, unlike with the Horse out of reach.
    let out = banqi("?k ?p . .\n?g . . .\nn . . .\n. . . .\n. R . .\n. . . .\n. . . ?P\n. . . K");
    assert!(leaf_value(&a, Seat::First) > leaf_value(&out, Seat::First) + 0.05);
}

#[test]
fn banqi_expert_search_is_deterministic_for_a_node_budget() {
    let g = banqi("?k ?p . .\n?g . . .\n. . . .\n. n . .\n. R . .\n. . . .\n. . . ?P\n. . . K");
    assert_eq!(
        format!("{:?}", search(&g, 10_000)),
        format!("{:?}", search(&g, 10_000))
    );
}

#[test]
fn banqi_expert_evaluation_counts_the_unseen_pool_by_colour() {
    // One black Soldier face down is worth the same to red as one face up.
    let down = banqi(". . . .\n. . . .\n. . . .\n. . . .\n. . . .\n. . ?p .\n. . . .\nK . . k");
    let up = banqi(". . . .\n. . . .\n. . . .\n. . . .\n. . . .\n. . p .\n. . . .\nK . . k");
    let (d, u) = (
        evaluate_public(&down, Seat::First, None),
        evaluate_public(&up, Seat::First, None),
    );
    assert!((d - u).abs() < 0.5, "face down {d}, face up {u}");
}

/// A second flip on a line is searched a ply shallower than the first
/// (`NESTED_FLIP_REDUCTION`), so that one more ply costs a few times the last, not some 60
/// times: in the opening (every piece face down), depth 7 within ten times the positions
/// of depth 6.
#[test]
fn banqi_a_second_flip_on_a_line_is_searched_shallower_so_each_ply_costs_a_few_times_the_last() {
    let g = banqi(
        "?k ?p ?c ?r\n?g ?P ?G ?m\n?M ?C ?n ?R\n?N ?p ?p ?P\n?P ?p ?g ?P\n?m ?n ?c ?p\n?P ?N ?R ?r\n?K ?G ?C ?M",
    );
    let six = best_move_to_depth(&g, Seat::First, Budget::Iterations(u64::MAX), 6);
    assert_eq!(six.depth, 6);
    let seven = best_move_to_depth(&g, Seat::First, Budget::Iterations(10 * six.nodes), 7);
    assert_eq!(
        seven.depth, 7,
        "depth 7 not reached in {} positions (depth 6 took {})",
        seven.nodes, six.nodes
    );
}

#[test]
#[ignore = "prints the search's depth and speed; run with --ignored --nocapture"]
fn banqi_expert_search_depth_at_100_ms() {
    for rows in [
        "?k ?p ?c ?r\n?g ?P ?G ?m\n?M ?C ?n ?R\n?N ?p ?p ?P\n?P ?p ?g ?P\n?m ?n ?c ?p\n?P ?N ?R ?r\n?K ?G ?C ?M",
        "?k . c ?r\n?g P ?G .\n. ?C n ?R\n?N . p ?P\nP ?p g .\n?m . ?c ?p\n. N R ?r\n?K ?G . M",
        ". . . k\n. . . .\n. g . .\n. . . .\n. . R .\n. G . .\n. . . .\nK . . .",
    ] {
        let g = banqi(rows);
        let f = best_move(&g, Seat::First, Budget::Millis(100));
        println!(
            "depth {} nodes {} best {} score {:.2}",
            f.depth, f.nodes, f.best, f.score
        );
    }
}

/// Two Banqi matches dealt the same except for two pieces on squares nobody has turned up,
/// with the same flips and moves: the expert bot (through `choose_move`, as the server and
/// the arena call it) must choose the same move in both.
#[test]
fn banqi_expert_choice_ignores_the_face_down_pieces() {
    use salpakan_ai::{BotSpec, choose_move};
    use salpakan_engine::banqi::Deal;
    use salpakan_engine::{AnyMatch, Match, rng_from_seed};

    let o = BanqiOptions::default();
    let a_deal = Deal::random(&mut rng_from_seed(21));
    let mut a = Match::<Banqi>::start(&o, a_deal.clone(), &mut rng_from_seed(22)).unwrap();
    // Six flips of the first squares, then look for two unflipped squares with different
    // pieces to swap.
    let flips = ["a1", "b1", "c1", "d1", "a2", "b2"];
    let mut pieces = Deal::sorted_pieces();
    for sq in salpakan_engine::banqi::Square::all() {
        pieces[sq.index()] = a_deal.at(sq);
    }
    let (x, y) = (30, 31);
    assert_ne!(
        pieces[x], pieces[y],
        "the test deal swaps two different pieces"
    );
    pieces.swap(x, y);
    let mut b =
        Match::<Banqi>::start(&o, Deal::new(pieces).unwrap(), &mut rng_from_seed(23)).unwrap();
    for f in flips {
        if a.game().outcome().is_some() {
            break;
        }
        a.play(mv(f)).unwrap();
        b.play(mv(f)).unwrap();
    }
    let (a, b) = (AnyMatch::from(a), AnyMatch::from(b));
    let seat = a.to_move().unwrap();
    for s in ["expert:iters=20000", "expert:iters=3000,seed=4"] {
        let bot: BotSpec = s.parse().unwrap();
        assert_eq!(
            choose_move(&bot, &a, seat, 9).unwrap(),
            choose_move(&bot, &b, seat, 9).unwrap(),
            "{s} changed its move when only face-down pieces changed"
        );
    }
}

#[test]
fn banqi_winning_side_closes_in_on_the_last_enemy_piece() {
    // Red, far ahead (General and Advisor), against a lone black Advisor: red's Advisor on
    // the other side of the board, or next to it. The Advisors take each other, and the
    // General stays where it is, so the pressure term (safe captures only, by distance) is
    // the same in both; the hunt is not. (With an Elephant for the General, red is not far
    // ahead: an Elephant takes nothing a lone Advisor has, and is worth half its value.)
    let far = banqi("g . . .\n. . . .\n. . . .\n. . . .\n. . . .\n. . . .\n. . . .\nK . . G");
    let near = banqi("g . . .\n. G . .\n. . . .\n. . . .\n. . . .\n. . . .\n. . . .\nK . . .");
    let e = |g: &Banqi| evaluate_public(g, Seat::First, Some(50));
    assert!(e(&near) > e(&far), "near {} far {}", e(&near), e(&far));
    // A cornered Advisor (fewer squares to flee to) counts for the hunter too.
    let open = banqi(". . . .\n. g . .\n. . . .\n. G . .\n. . . .\n. . . .\n. . . .\nK . . .");
    let corner = banqi("g . . .\n. . . .\nG . . .\n. . . .\n. . . .\n. . . .\n. . . .\nK . . .");
    assert!(
        e(&corner) > e(&open),
        "corner {} open {}",
        e(&corner),
        e(&open)
    );
}

#[test]
fn banqi_a_won_position_counts_less_as_the_quiet_draw_nears() {
    let fresh = banqi("g . . .\n. . . .\n. . . .\n. . . .\n. . . .\n. . . .\n. . . .\nM . . G");
    // The same position after 44 quiet plies (the red Elephant and the black Advisor
    // stepping back and forth).
    let mut late = fresh.clone();
    for i in 0..44 {
        let m = ["a1-b1", "a8-b8", "b1-a1", "b8-a8"][i % 4];
        late.play(mv(m)).unwrap();
    }
    assert_eq!(late.quiet_plies(), 44);
    assert_eq!(late.to_move(), Some(Seat::First));
    let f = evaluate_public(&fresh, Seat::First, Some(50));
    let l = evaluate_public(&late, Seat::First, Some(50));
    assert!(f > l && l > 0.0, "fresh {f:.3}, late {l:.3}");
    // The losing side's view mirrors it: nearer the draw, it loses less.
    let lf = evaluate_public(&fresh, Seat::Second, Some(50));
    let ll = evaluate_public(&late, Seat::Second, Some(50));
    assert!(ll > lf, "fresh {lf:.3}, late {ll:.3}");
    // And the search prefers the capture that resets the count when one is there: with
    // the black Advisor next to red's, red takes it at once.
    let take = banqi(". . . .\n. . . .\n. . . .\n. . . .\n. . . .\n. . . .\ng . . .\nG M . .");
    assert_eq!(search(&take, 20_000).best, mv("a1-a2"));
}

#[test]
fn banqi_expert_plays_on_rather_than_let_a_level_game_be_drawn() {
    // A Cannon each, and neither can take the other with no piece between: a level game.
    let rows = ". . . c\n. . . .\n. . . .\n. . . .\n. . . .\n. . . .\n. . . .\nC . . .";
    // The Cannons stepping back and forth, `plies` times.
    let after = |g: &Banqi, plies: usize| {
        let mut g = g.clone();
        let (red, black) = (["a1-b1", "b1-a1"], ["d8-c8", "c8-d8"]);
        for _ in 0..plies {
            let pair = if g.to_move() == Some(Seat::First) {
                red
            } else {
                black
            };
            g.play(mv(pair[usize::from(g.quiet_plies() % 4 >= 2)]))
                .unwrap();
        }
        g
    };
    let level = banqi(rows);
    // The search counts the quiet-ply draw below the level game it would end.
    let near_draw = after(&level, 48);
    assert_eq!(near_draw.quiet_plies(), 48);
    let (l, d) = (
        search(&level, 20_000).score,
        search(&near_draw, 20_000).score,
    );
    assert!(d < l - 0.5, "near the draw {d:.3}, level {l:.3}");
    // So, one quiet ply from the draw, red turns up a face-down piece (which resets the
    // count) though it can only be black's Soldier, rather than take the draw.
    let with_flip = ". . . c\n. . . .\n. . . .\n. . . .\n. ?p . .\n. . . .\n. . . .\nC . . .";
    let black_first = Banqi::from_diagram(
        &BanqiOptions::default(),
        with_flip,
        Color::Red,
        Seat::Second,
    )
    .unwrap();
    let last = after(&black_first, 49);
    assert_eq!(
        (last.quiet_plies(), last.to_move()),
        (49, Some(Seat::First))
    );
    let found = search(&last, 50_000);
    assert_eq!(found.best, mv("b4"), "{found:?}");
    // The analysis counts a draw as half a game: a level game near it stays level.
    let v = leaf_value(&near_draw, Seat::First);
    assert!((v - 0.5).abs() < 1e-9, "{v}");
}

/// Replays a record (`RECORD`) to a ply (`PLY`) and prints what the expert searches there.
#[test]
#[ignore = "a tool for reading lost games: RECORD=path PLY=n, with --ignored --nocapture"]
fn banqi_expert_search_at_a_recorded_ply() {
    use salpakan_engine::Match;
    use salpakan_engine::record::Record;
    let (Ok(path), Ok(ply)) = (std::env::var("RECORD"), std::env::var("PLY")) else {
        return;
    };
    let record = Record::parse(&std::fs::read_to_string(path).unwrap()).unwrap();
    let m = Match::<Banqi>::replay(&record).unwrap();
    let m = m.rewound(ply.parse().unwrap()).unwrap();
    let g = m.game();
    let seat = g.to_move().unwrap();
    for rank in (0..8).rev() {
        let row: Vec<String> = (0..4)
            .map(|file| {
                let sq = salpakan_engine::banqi::Square::new(file, rank).unwrap();
                match g.at(sq) {
                    None => ".".into(),
                    Some((_, true)) => "#".into(),
                    Some((p, false)) => p.to_string(),
                }
            })
            .collect();
        println!("  {}", row.join(" "));
    }
    println!("{seat:?} to move, quiet {}", g.quiet_plies());
    for ms in [100, 1000] {
        let f = best_move(g, seat, Budget::Millis(ms));
        println!(
            "{ms} ms: depth {} nodes {} best {} score {:.2}",
            f.depth, f.nodes, f.best, f.score
        );
        for (mv, v) in f.root.iter().take(8) {
            println!("  {mv} {v:.2}");
        }
    }
}

/// The files in `dir`, sorted by name (the measuring tools' records).
fn files_in(dir: &str) -> Vec<std::path::PathBuf> {
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    paths.sort();
    paths
}

/// Searches positions taken from records (every record in `RECORDS`, at plies 20, 50 and
/// 80) with a fixed budget and prints the mean depth reached: a deterministic measure of
/// the search's efficiency, for comparing changes (and the time to depth 5, its speed).
#[test]
#[ignore = "a tool for measuring the search: RECORDS=dir, with --ignored --nocapture"]
fn banqi_expert_depth_on_recorded_positions() {
    use salpakan_engine::Match;
    use salpakan_engine::record::Record;
    let Ok(dir) = std::env::var("RECORDS") else {
        return;
    };
    let nodes: u64 = std::env::var("NODES").map_or(200_000, |n| n.parse().unwrap());
    let paths = files_in(&dir);
    let (mut n, mut depth, mut total) = (0u32, 0i64, 0u64);
    let mut spent = std::time::Duration::ZERO;
    for path in paths {
        let record = Record::parse(&std::fs::read_to_string(path).unwrap()).unwrap();
        let m = Match::<Banqi>::replay(&record).unwrap();
        for ply in [20, 50, 80] {
            let Some(r) = m.rewound(ply) else { continue };
            let Some(seat) = r.game().to_move() else {
                continue;
            };
            if ply > m.moves().len() {
                continue;
            }
            let f = best_move(r.game(), seat, Budget::Iterations(nodes));
            n += 1;
            depth += i64::from(f.depth);
            let start = std::time::Instant::now();
            let to5 = best_move_to_depth(r.game(), seat, Budget::Iterations(u64::MAX), 5);
            spent += start.elapsed();
            total += to5.nodes;
        }
    }
    println!(
        "{n} positions, mean depth {:.2} at {nodes} nodes; {total} nodes to depth 5 in all, \
         in {:.2} s ({:.0} nodes/s)",
        depth as f64 / f64::from(n),
        spent.as_secs_f64(),
        total as f64 / spent.as_secs_f64()
    );
}

/// Reads every record in `RECORDS` from the seat of the bot named `BOT` (the `First` or
/// `Second` tag) and prints, for each, the first ply at which [`evaluate_public`] stood
/// beyond ±`SWING` points (4 unless told) for that seat, the face-down pieces left then and
/// the result; then the results split by who was ahead first. A tool for reading where
/// games between two searches are decided (`docs/ai.md`, *Where the games are decided*).
#[test]
#[ignore = "a tool for reading games: RECORDS=dir BOT=name, with --ignored --nocapture"]
fn banqi_first_swing_in_records() {
    use salpakan_engine::Match;
    use salpakan_engine::record::Record;
    let (Ok(dir), Ok(bot)) = (std::env::var("RECORDS"), std::env::var("BOT")) else {
        return;
    };
    let swing: f64 = std::env::var("SWING").map_or(4.0, |n| n.parse().unwrap());
    let paths = files_in(&dir);
    // [ahead first, behind first, never beyond the swing] × [won, drawn, lost]
    let mut table = [[0u32; 3]; 3];
    for path in paths {
        let record = Record::parse(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let seat = if record.tag("First") == Some(bot.as_str()) {
            Seat::First
        } else if record.tag("Second") == Some(bot.as_str()) {
            Seat::Second
        } else {
            continue;
        };
        let m = Match::<Banqi>::replay(&record).unwrap();
        let result = match m.game().outcome().and_then(|o| o.winner) {
            Some(winner) if winner == seat => 0,
            Some(_) => 2,
            None => 1,
        };
        let mut first = None;
        for ply in 0..m.moves().len() {
            let r = m.rewound(ply).unwrap();
            if r.game().to_move() != Some(seat) {
                continue;
            }
            let limit = r.game().options().max_quiet_plies.filter(|&l| l > 0);
            let ev = evaluate_public(r.game(), seat, limit);
            if ev.abs() > swing {
                let down: u32 = r.game().unseen_pool().iter().map(|&n| u32::from(n)).sum();
                first = Some((ply, ev, down));
                break;
            }
        }
        let row = match first {
            Some((_, ev, _)) if ev > 0.0 => 0,
            Some(_) => 1,
            None => 2,
        };
        table[row][result] += 1;
        println!(
            "{}: {} {:?}",
            path.file_name().unwrap().to_string_lossy(),
            ["won", "drawn", "lost"][result],
            first.map(|(ply, ev, down)| format!("ply {ply}, {ev:+.2}, {down} face down"))
        );
    }
    for (name, row) in ["ahead first", "behind first", "never beyond"]
        .iter()
        .zip(table)
    {
        println!("{name}: {}-{}-{}", row[0], row[1], row[2]);
    }
}
