//! Embeds every file of the browser client (`web/` at the workspace root) into the crate.
//!
//! Development-only files stay out: `node_modules`, `tests`, `package*.json`, `tsconfig.json`
//! and dot-files. The generated table maps each file's path relative to `web/` to its bytes
//! and its content type.

use std::env;
use std::fs;
use std::path::{Path, PathBuf};

fn main() {
    let manifest = PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR"));
    let web = manifest.join("../../web");
    let web = web.canonicalize().unwrap_or(web);
    println!("cargo:rerun-if-changed={}", web.display());

    let mut files = Vec::new();
    if web.is_dir() {
        collect(&web, &web, &mut files);
    }
    files.sort();

    let mut code = String::from(
        "/// Every embedded file: (path relative to `web/`, bytes, content type).\n\
         pub static ASSETS: &[(&str, &[u8], &str)] = &[\n",
    );
    for (rel, abs) in &files {
        println!("cargo:rerun-if-changed={}", abs.display());
        code.push_str(&format!(
            "    ({:?}, include_bytes!({:?}), {:?}),\n",
            rel,
            abs.display().to_string(),
            content_type(rel)
        ));
    }
    code.push_str("];\n");
    let out = PathBuf::from(env::var("OUT_DIR").expect("OUT_DIR")).join("assets.rs");
    fs::write(out, code).expect("write assets.rs");
}

fn collect(root: &Path, dir: &Path, files: &mut Vec<(String, PathBuf)>) {
    println!("cargo:rerun-if-changed={}", dir.display());
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') {
            continue;
        }
        let top = dir == root;
        if path.is_dir() {
            if name == "node_modules" || (top && (name == "tests" || name == "out")) {
                continue;
            }
            collect(root, &path, files);
        } else {
            if top
                && (name.starts_with("package") && name.ends_with(".json")
                    || name == "tsconfig.json")
            {
                continue;
            }
            let rel = path
                .strip_prefix(root)
                .expect("inside web/")
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect::<Vec<_>>()
                .join("/");
            files.push((rel, path));
        }
    }
}

fn content_type(path: &str) -> &'static str {
    match path.rsplit('.').next().unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "svg" => "image/svg+xml",
        "json" | "webmanifest" => "application/json",
        "png" => "image/png",
        "ico" => "image/x-icon",
        "woff2" => "font/woff2",
        "txt" | "md" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}
