//! `salpakan record ...`: check, verify and import records.

use std::path::{Path, PathBuf};

use salpakan_engine::{Record, replay_record};

fn read(path: &Path) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("{}: cannot read: {e}", path.display()))
}

/// Replays every file (and with `verify`, checks the commitments); prints one line per file.
/// Fails if any file fails.
pub fn check(files: &[PathBuf], verify: bool) -> Result<(), String> {
    let mut failed = 0;
    for f in files {
        match check_one(f, verify) {
            Ok(line) => println!("{}: {line}", f.display()),
            Err(e) => {
                failed += 1;
                println!("{}: FAILED: {e}", f.display());
            }
        }
    }
    if failed > 0 {
        return Err(format!("{failed} of {} record(s) failed", files.len()));
    }
    Ok(())
}

fn check_one(path: &Path, verify: bool) -> Result<String, String> {
    let text = read(path)?;
    let record = Record::parse(&text).map_err(|e| e.to_string())?;
    let m = replay_record(&record).map_err(|e| e.to_string())?;
    let result = match m.outcome() {
        Some(o) => format!("{} ({})", o.result_token(), o.reason),
        None => "* (game in progress)".to_string(),
    };
    let mut line = format!("ok: {} plies, {}, {result}", m.ply(), m.kind().name());
    if verify {
        m.verify_record(&record).map_err(|e| e.to_string())?;
        let names: Vec<String> = m.commitment_list().into_iter().map(|(n, _)| n).collect();
        line = format!(
            "{line}; {} commitment(s) verified ({})",
            names.len(),
            names.join(", ")
        );
    }
    Ok(line)
}

fn emit(records: Vec<(PathBuf, Result<Record, String>)>, out: Option<&Path>) -> Result<(), String> {
    if let Some(dir) = out {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("{}: cannot create: {e}", dir.display()))?;
    }
    let total = records.len();
    let mut failed = 0;
    for (src, r) in records {
        match (r, out) {
            (Ok(rec), Some(dir)) => {
                let stem = src
                    .file_stem()
                    .map_or_else(|| "game".into(), |s| s.to_string_lossy().into_owned());
                let dest = dir.join(format!("{stem}.rec"));
                std::fs::write(&dest, rec.to_text())
                    .map_err(|e| format!("{}: cannot write: {e}", dest.display()))?;
                println!("{} -> {}", src.display(), dest.display());
            }
            (Ok(rec), None) => println!("{}", rec.to_text()),
            (Err(e), _) => {
                failed += 1;
                eprintln!("{e}");
            }
        }
    }
    if failed > 0 {
        return Err(format!("{failed} of {total} file(s) could not be imported"));
    }
    Ok(())
}

/// Imports Gravon StraDoS2 XML files.
pub fn import_gravon(
    files: &[PathBuf],
    out: Option<&Path>,
    limit: Option<u32>,
) -> Result<(), String> {
    let recs = files
        .iter()
        .map(|f| {
            let name = f.file_name().map_or_else(
                || f.display().to_string(),
                |n| n.to_string_lossy().into_owned(),
            );
            let r = read(f).and_then(|xml| {
                salpakan_engine::gravon::import_gravon(&xml, &name, limit)
                    .map_err(|e| e.to_string())
            });
            (f.clone(), r)
        })
        .collect();
    emit(recs, out)
}

/// Imports computer Dark Chess records.
pub fn import_cdc(files: &[PathBuf], out: Option<&Path>, quiet_limit: u32) -> Result<(), String> {
    let recs = files
        .iter()
        .map(|f| {
            let name = f.file_name().map_or_else(
                || f.display().to_string(),
                |n| n.to_string_lossy().into_owned(),
            );
            let r = read(f).and_then(|text| {
                salpakan_engine::cdc::import_cdc(&text, &name, Some(quiet_limit))
                    .map_err(|e| e.to_string())
            });
            (f.clone(), r)
        })
        .collect();
    emit(recs, out)
}
