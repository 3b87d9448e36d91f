//! Writes `web/assets/layout.js`, the web client's copy of every game's layout:
//! `cargo run -p salpakan-engine --example layout_js > web/assets/layout.js`.

fn main() {
    print!("{}", salpakan_engine::layout::layout_js());
}
