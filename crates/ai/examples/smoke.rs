//! Plays a few quick games between two bots and prints the results.
use salpakan_ai::{BotSpec, choose_move, choose_setup};
use salpakan_engine::{GameKind, Seat};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let kind: GameKind = args
        .get(1)
        .map_or("generals", String::as_str)
        .parse()
        .unwrap();
    let a: BotSpec = args
        .get(2)
        .map_or("random", String::as_str)
        .parse()
        .unwrap();
    let b: BotSpec = args
        .get(3)
        .map_or("random", String::as_str)
        .parse()
        .unwrap();
    let games: u64 = args.get(4).map_or(4, |s| s.parse().unwrap());
    let game = salpakan_ai::arena::default_spec(kind);
    let mut score = 0.0;
    for g in 0..games {
        let specs = if g % 2 == 0 { [&a, &b] } else { [&b, &a] };
        let setups =
            Seat::BOTH.map(|s| choose_setup(specs[s.index()], &game, s, g * 2 + s as u64).ok());
        let [white, black] = &setups;
        let mut m = game.new_match([white.as_ref(), black.as_ref()], g).unwrap();
        let t = std::time::Instant::now();
        while let Some(s) = m.to_move() {
            let mv = choose_move(specs[s.index()], &m, s, g * 1000 + u64::from(m.ply())).unwrap();
            m.play(mv).unwrap();
            if m.ply() > 3000 {
                break;
            }
        }
        let o = m.outcome();
        let a_seat = if g % 2 == 0 {
            Seat::First
        } else {
            Seat::Second
        };
        let sc = o.map_or(0.5, |o| o.score(a_seat));
        score += sc;
        println!(
            "game {g}: {:?} plies {} a-score {sc} ({:.1}s)",
            o,
            m.ply(),
            t.elapsed().as_secs_f64()
        );
    }
    println!("{a} vs {b}: {score}/{games}");
}
