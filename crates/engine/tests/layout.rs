//! The game layout: one description for the terminal and web clients.

use salpakan_engine::{GameKind, GameSpec, Seat, layout};

#[test]
fn the_web_clients_layout_file_is_generated_from_the_engine() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../web/assets/layout.js");
    let committed = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        committed == layout::layout_js(),
        "web/assets/layout.js differs from the engine's layouts; regenerate it with\n  \
         cargo run -p salpakan-engine --example layout_js > web/assets/layout.js"
    );
}

#[test]
fn layouts_list_every_piece_once_in_tray_order_and_name_each() {
    for kind in GameKind::ALL {
        let l = kind.layout();
        let mut codes = l.order.clone();
        codes.sort();
        codes.dedup();
        assert_eq!(codes.len(), l.order.len(), "{kind}: each code once");
        assert_eq!(
            l.names.0.len(),
            l.order.len(),
            "{kind}: a name for each piece"
        );
        for code in &l.order {
            assert!(l.names.get(code).is_some(), "{kind}: {code} has a name");
        }
        for (name, army) in &l.armies.0 {
            for (code, n) in &army.0 {
                assert!(l.order.contains(code) && *n > 0, "{kind} {name}: {code}");
            }
        }
        assert_eq!(l.has_setup, kind.has_setups());
        assert_eq!(l.seats, Seat::BOTH.map(|s| kind.seat_name(s)));
    }
    let s = GameKind::Stratego.layout();
    assert_eq!(s.order.first().map(String::as_str), Some("10"));
    assert_eq!(s.order.last().map(String::as_str), Some("F"));
}

#[test]
fn setup_areas_and_armies_follow_the_options() {
    let g = GameKind::Generals.layout();
    assert_eq!(g.setup_areas[0].len(), 27);
    assert!(
        g.setup_areas[1]
            .iter()
            .all(|s| s.ends_with('6') || s.ends_with('7') || s.ends_with('8'))
    );
    assert_eq!(g.army.0.iter().map(|(_, n)| n).sum::<u32>(), 21);
    assert_eq!(
        g.armies
            .get("reduced")
            .map(|a| a.0.iter().map(|(_, n)| n).sum::<u32>()),
        Some(11)
    );
    let s = GameKind::Stratego.layout();
    assert_eq!(s.setup_areas.each_ref().map(Vec::len), [40, 40]);
    assert!(
        s.setup_areas
            .iter()
            .flatten()
            .all(|sq| !s.lakes.contains(sq))
    );
    let half = GameSpec::from_text(GameKind::Stratego, "setup_area=half")
        .unwrap()
        .layout();
    assert_eq!(half.setup_areas[0].len(), 46);
    let b = GameKind::Banqi.layout();
    assert!(b.army.0.is_empty() && b.setup_areas.iter().all(Vec::is_empty));
    assert_eq!((b.files, b.ranks, b.order.len()), (4, 8, 14));
}
