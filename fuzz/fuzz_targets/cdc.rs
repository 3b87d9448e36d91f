//! The computer Dark Chess (Banqi) importer: never a panic; an imported record replays.
#![no_main]

use libfuzzer_sys::fuzz_target;
use salpakan_engine::cdc::import_cdc;
use salpakan_engine::replay_record;

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    let limit = (first != 0).then_some(u32::from(first));
    if let Ok(record) = import_cdc(&text, "g001.txt", limit) {
        replay_record(&record).expect("an imported record replays");
    }
});
