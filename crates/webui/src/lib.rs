//! salpakan's browser client, embedded at compile time.
//!
//! The client is plain ES modules, CSS and SVG under `web/` at the workspace root; no build
//! step runs on it. [`asset`] serves a file by path and [`page`] answers any GET the game
//! server does not handle itself: a file when one exists, else `index.html`, so client-side
//! routes such as `/game/<id>` load the app.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

include!(concat!(env!("OUT_DIR"), "/assets.rs"));

/// The embedded file at `path` (relative to `web/`, a leading `/` allowed): its bytes and
/// its content type.
pub fn asset(path: &str) -> Option<(&'static [u8], &'static str)> {
    let path = path.trim_start_matches('/');
    let path = if path.is_empty() { "index.html" } else { path };
    ASSETS
        .iter()
        .find(|(name, _, _)| *name == path)
        .map(|(_, bytes, kind)| (*bytes, *kind))
}

/// What to answer for a GET of `path`: the file when one exists; `None` for a missing file
/// under `/assets/` (a 404); else `index.html` (a client-side route).
pub fn page(path: &str) -> Option<(&'static [u8], &'static str)> {
    asset(path).or_else(|| {
        if path.trim_start_matches('/').starts_with("assets/") {
            None
        } else {
            asset("index.html")
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_and_routes_serve_the_app() {
        let (index, kind) = asset("/").expect("index.html is embedded");
        assert!(kind.starts_with("text/html"));
        assert_eq!(page("/game/abc123").map(|p| p.0), Some(index));
        assert!(page("/assets/missing.js").is_none());
    }

    #[test]
    fn development_files_stay_out() {
        for (name, _, _) in ASSETS {
            assert!(!name.starts_with("node_modules/"), "{name}");
            assert!(!name.starts_with("tests/"), "{name}");
            assert!(!name.starts_with("package"), "{name}");
            assert_ne!(*name, "tsconfig.json");
        }
    }

    #[test]
    fn scripts_have_a_javascript_type() {
        let (_, kind) = asset("assets/app.js").expect("app.js is embedded");
        assert!(kind.starts_with("text/javascript"));
    }
}
