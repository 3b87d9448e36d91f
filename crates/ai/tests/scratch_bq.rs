//! scratch: not committed
use salpakan_ai::games::banqi_search::best_move_to_depth;
use salpakan_ai::mcts::Budget;
use salpakan_engine::banqi::Banqi;
use salpakan_engine::record::Record;
use salpakan_engine::{Game, Match};

#[test]
#[ignore = "scratch"]
fn scratch_cost() {
    let dir = std::env::var("RECORDS").unwrap();
    let maxd: i32 = std::env::var("MAXD").unwrap().parse().unwrap();
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    paths.sort();
    for path in paths.iter().take(3) {
        let record = Record::parse(&std::fs::read_to_string(path).unwrap()).unwrap();
        let m = Match::<Banqi>::replay(&record).unwrap();
        let mut line = String::new();
        for ply in [0usize, 8, 16, 24, 40] {
            let r = m.rewound(ply).unwrap();
            let g = r.game();
            let Some(seat) = g.to_move() else { continue };
            let f = best_move_to_depth(g, seat, Budget::Iterations(40_000_000), maxd);
            line += &format!(" {ply}:d{} {}k {}", f.depth, f.nodes / 1000, f.best);
        }
        println!("{line}");
    }
}
