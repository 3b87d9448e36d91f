//! The screens, rendered with ratatui's test backend and driven through the app's event
//! handler as a user would, without a terminal.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{
    Event, KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use salpakan_engine::{Copy, EndReason, GameKind, GameSpec, Record, Seat, replay_record};
use salpakan_tui::app::{Input, Screen};
use salpakan_tui::presenter::{BACK, LAKE};
use salpakan_tui::{App, PlayConfig};

/// A temporary folder, removed when dropped.
struct TempDir(PathBuf);

impl std::ops::Deref for TempDir {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn temp_dir(name: &str) -> TempDir {
    static N: AtomicU32 = AtomicU32::new(0);
    let d = std::env::temp_dir().join(format!(
        "salpakan-tui-test-{}-{name}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    TempDir(d)
}

fn config(kind: GameKind, seat: Seat, options: &[&str], dir: &Path) -> PlayConfig {
    PlayConfig {
        spec: GameSpec::from_key_values(kind, options.iter().copied()).unwrap(),
        bot: "random".into(),
        seat,
        seed: 11,
        save: None,
        out_dir: dir.to_path_buf(),
        setups_base: Some(dir.join("setups")),
    }
}

fn app(kind: GameKind, seat: Seat) -> (App, TempDir) {
    let dir = temp_dir(kind.name());
    let a = App::new(config(kind, seat, &[], &dir)).unwrap();
    (a, dir)
}

fn press(app: &mut App, code: KeyCode) {
    app.handle(&Event::Key(KeyEvent::new(code, KeyModifiers::NONE)));
}

fn typed(app: &mut App, text: &str) {
    for c in text.chars() {
        press(app, KeyCode::Char(c));
    }
}

fn screen(app: &mut App, w: u16, h: u16) -> String {
    let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
    t.draw(|f| salpakan_tui::ui::draw(app, f)).unwrap();
    let buf = t.backend().buffer().clone();
    let mut out = String::new();
    for y in 0..h {
        for x in 0..w {
            out.push_str(buf[(x, y)].symbol());
        }
        out.push('\n');
    }
    out
}

/// Plays the game through typed moves (`:` then the move) until it ends or `max` plies.
fn play_out(app: &mut App, max: u32) {
    let mut n = 0u64;
    loop {
        app.wait_for_bot();
        let Some(p) = app.play_state() else { return };
        if p.m.outcome().is_some() || p.m.ply() >= max {
            return;
        }
        let legal = app.my_legal_moves();
        assert!(
            !legal.is_empty(),
            "the player has a move when it is their turn"
        );
        n += 1;
        let mv = legal[(n as usize * 7919) % legal.len()].clone();
        press(app, KeyCode::Char(':'));
        typed(app, &mv);
        press(app, KeyCode::Enter);
    }
}

#[test]
fn setup_screen_shows_the_army_the_area_and_the_keys() {
    let (mut a, _dir) = app(GameKind::Generals, Seat::First);
    let s = screen(&mut a, 100, 30);
    assert!(s.contains("setup · you play White"), "{s}");
    assert!(s.contains("General of the Army"), "{s}");
    assert!(s.contains("PVT  Private                6/6"), "{s}");
    assert!(s.contains("placed 0 of 21"), "{s}");
    assert!(s.contains("g start"), "{s}");
}

#[test]
fn setup_keys_place_pick_up_swap_remove_and_start() {
    let (mut a, _dir) = app(GameKind::Generals, Seat::First);
    press(&mut a, KeyCode::Enter); // 5G on a1
    press(&mut a, KeyCode::Right);
    press(&mut a, KeyCode::Enter); // 4G on b1
    let Screen::Setup(s) = &a.screen else {
        panic!()
    };
    assert_eq!(s.placed.get(&(0, 0)).map(String::as_str), Some("5G"));
    assert_eq!(s.placed.get(&(1, 0)).map(String::as_str), Some("4G"));
    press(&mut a, KeyCode::Enter); // pick up 4G
    press(&mut a, KeyCode::Left);
    press(&mut a, KeyCode::Enter); // swap with 5G
    let Screen::Setup(s) = &a.screen else {
        panic!()
    };
    assert_eq!(s.placed.get(&(0, 0)).map(String::as_str), Some("4G"));
    assert_eq!(s.placed.get(&(1, 0)).map(String::as_str), Some("5G"));
    press(&mut a, KeyCode::Char('x'));
    let Screen::Setup(s) = &a.screen else {
        panic!()
    };
    assert_eq!(s.placed.len(), 1);
    // Outside the area nothing is placed.
    for _ in 0..5 {
        press(&mut a, KeyCode::Up);
    }
    press(&mut a, KeyCode::Enter);
    assert!(
        a.message
            .as_ref()
            .unwrap()
            .0
            .contains("outside your setup area")
    );
    // Starting early is refused with a reason.
    press(&mut a, KeyCode::Char('g'));
    assert!(a.message.as_ref().unwrap().0.contains("still to place"));
    assert!(matches!(a.screen, Screen::Setup(_)));
    press(&mut a, KeyCode::Char('r'));
    press(&mut a, KeyCode::Char('g'));
    assert!(matches!(a.screen, Screen::Play(_)), "{:?}", a.message);
}

#[test]
fn setups_save_to_files_and_load_back() {
    let (mut a, dir) = app(GameKind::Generals, Seat::First);
    press(&mut a, KeyCode::Char('b'));
    let Screen::Setup(s) = &a.screen else {
        panic!()
    };
    let made = s.placed.clone();
    assert_eq!(made.len(), 21);
    press(&mut a, KeyCode::Char('s'));
    typed(&mut a, "wall");
    press(&mut a, KeyCode::Enter);
    let file = dir.join("setups/generals-full/wall.setup");
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.starts_with("a1:") || text.contains(" "), "{text}");
    assert_eq!(text.split_whitespace().count(), 21);
    press(&mut a, KeyCode::Char('c'));
    press(&mut a, KeyCode::Char('l'));
    assert!(
        a.message.as_ref().unwrap().0.contains("wall"),
        "{:?}",
        a.message
    );
    typed(&mut a, "wall");
    press(&mut a, KeyCode::Enter);
    let Screen::Setup(s) = &a.screen else {
        panic!()
    };
    assert_eq!(s.placed, made);
    // A path works too, and a bad file is refused naming the problem.
    let bad = dir.join("bad.setup");
    std::fs::write(&bad, "a5:FLG").unwrap();
    press(&mut a, KeyCode::Char('l'));
    typed(&mut a, bad.to_str().unwrap());
    press(&mut a, KeyCode::Enter);
    let (msg, _) = a.message.clone().unwrap();
    assert!(msg.contains("outside the setup area"), "{msg}");
}

#[test]
fn play_screen_shows_own_pieces_and_enemy_backs_only() {
    let (mut a, _dir) = app(GameKind::Generals, Seat::First);
    press(&mut a, KeyCode::Char('r'));
    press(&mut a, KeyCode::Char('g'));
    let s = screen(&mut a, 100, 30);
    assert_eq!(s.matches(BACK).count(), 21, "{s}");
    assert!(s.contains("FLG"), "{s}");
    assert!(s.contains("your move"), "{s}");
    assert!(s.contains("d offer draw"), "{s}");
}

#[test]
fn the_log_shows_what_a_challenge_did() {
    let dir = temp_dir("challenge");
    let mut a = App::new(config(
        GameKind::Generals,
        Seat::First,
        &["max_quiet_plies=300"],
        &dir,
    ))
    .unwrap();
    press(&mut a, KeyCode::Char('r'));
    press(&mut a, KeyCode::Char('g'));
    let mut seen = false;
    for _ in 0..400 {
        let next = a.play_state().unwrap().m.ply() + 1;
        play_out(&mut a, next);
        let p = a.play_state().unwrap();
        let h =
            p.m.history_json(salpakan_engine::Viewer::Player(Seat::First));
        if h.last().is_some_and(|v| v.get("challenge").is_some()) || p.m.outcome().is_some() {
            seen = h.iter().any(|v| v.get("challenge").is_some());
            break;
        }
    }
    assert!(seen, "a challenge happened");
    let s = screen(&mut a, 110, 40);
    assert!(s.contains("challenge: "), "{s}");
    assert!(
        s.contains(" beats ") || s.contains(" loses to ") || s.contains(" both out"),
        "{s}"
    );
}

#[test]
fn a_full_game_against_the_random_bot_ends_revealed_with_a_record_that_replays() {
    let dir = temp_dir("full");
    let mut a = App::new(config(
        GameKind::Generals,
        Seat::First,
        &["max_quiet_plies=40"],
        &dir,
    ))
    .unwrap();
    press(&mut a, KeyCode::Char('r'));
    press(&mut a, KeyCode::Char('g'));
    play_out(&mut a, 5000);
    let p = a.play_state().unwrap();
    let outcome = p.m.outcome().expect("the game ended");
    let path = a.saved_record().unwrap().clone().unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    let record = Record::parse(&text).unwrap();
    let replayed = replay_record(&record).unwrap();
    assert_eq!(replayed.outcome(), Some(outcome));
    assert_eq!(record.tag("White"), Some("You"));
    assert_eq!(record.tag("Black"), Some("bot: random"));
    let s = screen(&mut a, 110, 40);
    assert!(s.contains("everything revealed"), "{s}");
    assert_eq!(s.matches(BACK).count(), 0, "{s}");
    assert!(s.contains("Record saved to"), "{s}");
    assert!(s.contains("n new game"), "{s}");
    // Keys after the end do nothing harmful; n starts a new game from the same setup.
    press(&mut a, KeyCode::Enter);
    press(&mut a, KeyCode::Char('d'));
    press(&mut a, KeyCode::Char('n'));
    let Screen::Setup(s) = &a.screen else {
        panic!("setup again")
    };
    assert_eq!(s.left(), 0);
}

#[test]
fn resigning_asks_first_and_the_bot_wins() {
    let (mut a, _dir) = app(GameKind::Stratego, Seat::First);
    press(&mut a, KeyCode::Char('r'));
    press(&mut a, KeyCode::Char('g'));
    press(&mut a, KeyCode::Char('R'));
    assert_eq!(a.input, Input::ConfirmResign);
    press(&mut a, KeyCode::Char('n'));
    assert!(a.play_state().unwrap().m.outcome().is_none());
    press(&mut a, KeyCode::Char('R'));
    press(&mut a, KeyCode::Char('y'));
    let o = a.play_state().unwrap().m.outcome().unwrap();
    assert_eq!(o.winner, Some(Seat::Second));
    assert_eq!(o.reason, EndReason::Resignation);
    let path = a.saved_record().unwrap().clone().unwrap();
    let r = Record::parse(&std::fs::read_to_string(path).unwrap()).unwrap();
    assert_eq!(replay_record(&r).unwrap().outcome(), Some(o));
    let s = screen(&mut a, 100, 30);
    assert!(s.contains("The bot wins."), "{s}");
    assert!(s.contains("0-1 the bot wins: resignation"), "{s}");
}

#[test]
fn a_draw_offer_gets_the_bots_answer() {
    let (mut a, _dir) = app(GameKind::Generals, Seat::First);
    press(&mut a, KeyCode::Char('r'));
    press(&mut a, KeyCode::Char('g'));
    press(&mut a, KeyCode::Char('d'));
    a.wait_for_bot();
    let p = a.play_state().unwrap();
    match p.m.outcome() {
        Some(o) => assert_eq!(o.reason, EndReason::Agreement),
        None => {
            assert!(a.message.as_ref().unwrap().0.contains("declines"));
            // A second offer before a move is refused without asking the bot.
            press(&mut a, KeyCode::Char('d'));
            assert!(!a.thinking());
        }
    }
}

#[test]
fn stratego_draws_lakes_and_moves_with_cursor_keys() {
    let (mut a, _dir) = app(GameKind::Stratego, Seat::First);
    press(&mut a, KeyCode::Char('r'));
    press(&mut a, KeyCode::Char('g'));
    let s = screen(&mut a, 100, 30);
    assert_eq!(s.matches(LAKE).count(), 8, "{s}");
    assert_eq!(s.matches(BACK).count(), 40, "{s}");
    // Select a piece that can move with the cursor, then move it with Enter.
    let legal = a.my_legal_moves();
    let mv = legal[0].clone();
    let (from, to) = mv.split_once('-').unwrap();
    let sq = |t: &str| (t.as_bytes()[0] - b'a', t[1..].parse::<u8>().unwrap() - 1);
    let (f, t) = (sq(from), sq(to));
    let go = |a: &mut App, target: (u8, u8)| {
        let cur = a.play_state().unwrap().cursor;
        for _ in cur.0..target.0 {
            press(a, KeyCode::Right);
        }
        for _ in target.0..cur.0 {
            press(a, KeyCode::Left);
        }
        for _ in cur.1..target.1 {
            press(a, KeyCode::Up);
        }
        for _ in target.1..cur.1 {
            press(a, KeyCode::Down);
        }
    };
    go(&mut a, f);
    press(&mut a, KeyCode::Enter);
    assert_eq!(a.play_state().unwrap().selected, Some(f));
    assert!(a.targets().contains(&t));
    let s = screen(&mut a, 100, 30);
    assert!(s.contains("•"), "legal destinations are marked: {s}");
    go(&mut a, t);
    press(&mut a, KeyCode::Enter);
    assert!(a.play_state().unwrap().m.ply() >= 1);
    a.wait_for_bot();
    assert_eq!(a.play_state().unwrap().m.ply(), 2);
}

#[test]
fn banqi_starts_without_a_setup_and_enter_flips() {
    let (mut a, _dir) = app(GameKind::Banqi, Seat::First);
    assert!(matches!(a.screen, Screen::Play(_)));
    let s = screen(&mut a, 100, 30);
    assert_eq!(s.matches(BACK).count(), 32, "{s}");
    press(&mut a, KeyCode::Enter);
    a.wait_for_bot();
    let s = screen(&mut a, 100, 30);
    assert!(s.contains("  1. You flip a1: "), "{s}");
    assert!(s.contains("you play"), "{s}");
    assert!(s.contains("2. Bot"), "{s}");
}

#[test]
fn playing_second_the_bot_moves_first_and_the_board_is_turned() {
    let (mut a, _dir) = app(GameKind::Generals, Seat::Second);
    press(&mut a, KeyCode::Char('r'));
    press(&mut a, KeyCode::Char('g'));
    a.wait_for_bot();
    assert_eq!(a.play_state().unwrap().m.ply(), 1);
    let s = screen(&mut a, 100, 30);
    let rows: Vec<&str> = s.lines().collect();
    let r1 = rows.iter().position(|l| l.contains(" 1 ")).unwrap();
    let r8 = rows.iter().position(|l| l.contains(" 8 ")).unwrap();
    assert!(r1 < r8, "rank 1 is at the top for Black: {s}");
}

#[test]
fn a_click_selects_the_square_under_the_mouse_at_every_board_size() {
    for (w, h) in [(80, 24), (100, 30), (130, 45)] {
        let (mut a, _dir) = app(GameKind::Generals, Seat::First);
        press(&mut a, KeyCode::Char('r'));
        press(&mut a, KeyCode::Char('g'));
        let _ = screen(&mut a, w, h);
        let geom = a.board_geom.unwrap();
        let from = a.my_legal_moves()[0].split_once('-').unwrap().0.to_string();
        let pos = a.pres.parse_square(&from).unwrap();
        let x = geom.cells.x + u16::from(pos.0) * geom.cell_w + 1;
        let y = geom.cells.y + u16::from(a.pres.ranks - 1 - pos.1) * geom.cell_h;
        a.handle(&Event::Mouse(MouseEvent {
            kind: MouseEventKind::Down(MouseButton::Left),
            column: x,
            row: y,
            modifiers: KeyModifiers::NONE,
        }));
        assert_eq!(a.play_state().unwrap().selected, Some(pos), "{w}x{h}");
    }
}

#[test]
fn a_terminal_too_small_gets_a_clear_message() {
    let (mut a, _dir) = app(GameKind::Stratego, Seat::First);
    let s = screen(&mut a, 60, 20);
    assert!(s.contains("The terminal is too small"), "{s}");
    assert!(s.contains("at least 80×24"), "{s}");
    assert!(s.contains("60×20"), "{s}");
    // It still works at the minimum size.
    let s = screen(&mut a, 80, 24);
    assert!(s.contains("Army"), "{s}");
}

#[test]
fn bad_and_random_keystrokes_never_crash_any_screen() {
    let keys = [
        KeyCode::Char('z'),
        KeyCode::Char('é'),
        KeyCode::Char('\u{1F600}'),
        KeyCode::F(5),
        KeyCode::Insert,
        KeyCode::Null,
        KeyCode::Tab,
        KeyCode::BackTab,
        KeyCode::Home,
        KeyCode::End,
        KeyCode::PageUp,
        KeyCode::PageDown,
        KeyCode::Backspace,
        KeyCode::Delete,
        KeyCode::Esc,
        KeyCode::Enter,
        KeyCode::Char(' '),
        KeyCode::Char(':'),
        KeyCode::Char('-'),
        KeyCode::Char('a'),
        KeyCode::Char('9'),
        KeyCode::Left,
        KeyCode::Right,
        KeyCode::Up,
        KeyCode::Down,
        KeyCode::Char('x'),
        KeyCode::Char('s'),
        KeyCode::Char('l'),
        KeyCode::Char('?'),
        KeyCode::Char('r'),
        KeyCode::Char('b'),
        KeyCode::Char('d'),
        KeyCode::Char('g'),
        KeyCode::Char('n'),
    ];
    for kind in GameKind::ALL {
        for seat in Seat::BOTH {
            let (mut a, _dir) = app(kind, seat);
            let mut x: u64 = 0x9E37_79B9 ^ kind as u64;
            for i in 0..1500 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let code = keys[(x % keys.len() as u64) as usize];
                press(&mut a, code);
                if i % 50 == 0 {
                    a.tick();
                    let _ = screen(&mut a, 90, 28);
                }
            }
            a.wait_for_bot();
            let _ = screen(&mut a, 90, 28);
            assert!(!a.quit, "no quit key was pressed");
        }
    }
}

#[test]
fn replay_steps_through_a_full_record_and_shows_a_seat_copy_as_text() {
    let dir = temp_dir("replay");
    let m = salpakan_engine::Match::<salpakan_engine::generals::Generals>::random(
        &Default::default(),
        5,
    )
    .unwrap();
    let mut m = salpakan_engine::AnyMatch::from(m);
    for _ in 0..6 {
        let mv = m.legal_moves()[0];
        m.play(mv).unwrap();
    }
    let full = dir.join("g.rec");
    std::fs::write(&full, m.record(Copy::Full).to_text()).unwrap();
    let mut a = App::replay(full.clone(), &std::fs::read_to_string(&full).unwrap()).unwrap();
    let s = screen(&mut a, 100, 30);
    assert!(s.contains("ply 0 of 6"), "{s}");
    assert!(
        !s.contains(BACK),
        "the arbiter's view shows every piece: {s}"
    );
    press(&mut a, KeyCode::Right);
    press(&mut a, KeyCode::Right);
    let s = screen(&mut a, 100, 30);
    assert!(s.contains("ply 2 of 6"), "{s}");
    press(&mut a, KeyCode::End);
    press(&mut a, KeyCode::Right);
    let s = screen(&mut a, 100, 30);
    assert!(s.contains("ply 6 of 6"), "{s}");
    press(&mut a, KeyCode::Home);
    press(&mut a, KeyCode::Left);
    assert!(screen(&mut a, 100, 30).contains("ply 0 of 6"));

    let seat = dir.join("black.rec");
    std::fs::write(&seat, m.record(Copy::Seat(Seat::Second)).to_text()).unwrap();
    let mut a = App::replay(seat.clone(), &std::fs::read_to_string(&seat).unwrap()).unwrap();
    let s = screen(&mut a, 100, 30);
    assert!(s.contains("Black's copy"), "{s}");
    assert!(s.contains("  1. "), "{s}");
    press(&mut a, KeyCode::Right);
    assert!(screen(&mut a, 100, 30).contains("ply 1 of 6"));
    press(&mut a, KeyCode::Char('q'));
    assert!(a.quit);

    let broken = dir.join("broken.rec");
    std::fs::write(&broken, "[Game \"generals\"]\n\nzz\n*\n").unwrap();
    let err = App::replay(broken.clone(), "[Game \"generals\"]\n\nzz\n*\n").unwrap_err();
    assert!(err.to_string().contains("broken.rec"), "{err}");
}

#[test]
fn replay_of_a_seat_copy_refuses_options_the_engine_refuses() {
    // A seat's copy is not replayed by the engine, so its [Options] are checked by the same
    // parser that reads them everywhere else (they used to be read leniently here).
    let m = salpakan_engine::Match::<salpakan_engine::generals::Generals>::random(
        &Default::default(),
        5,
    )
    .unwrap();
    let good = m.record(Copy::Seat(Seat::First)).to_text();
    let path = PathBuf::from("white.rec");
    assert!(App::replay(path.clone(), &good).is_ok());
    let bad = good.replacen("[Options \"", "[Options \"reveal=sometimes ", 1);
    assert_ne!(bad, good, "the record has an Options tag");
    let err = App::replay(path, &bad).unwrap_err().to_string();
    assert!(err.contains("[Options]") && err.contains("reveal"), "{err}");
}

#[test]
fn play_config_carries_typed_options_to_the_game() {
    let dir = temp_dir("typed-options");
    let a = App::new(config(
        GameKind::Stratego,
        Seat::First,
        &["army=barrage", "setup_area=half"],
        &dir,
    ))
    .unwrap();
    let spec = &a.pres.spec;
    assert_eq!(spec.kind(), GameKind::Stratego);
    assert!(
        spec.to_text().contains("army=barrage"),
        "{}",
        spec.to_text()
    );
    assert_eq!(a.pres.army_name(), "barrage");
}
