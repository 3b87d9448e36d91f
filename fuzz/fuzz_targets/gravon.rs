//! The Gravon (StraDoS2 XML) importer, with and without a two-squares limit given: never a
//! panic; an imported record replays.
#![no_main]

use libfuzzer_sys::fuzz_target;
use salpakan_engine::gravon::import_gravon;
use salpakan_engine::replay_record;

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let xml = String::from_utf8_lossy(rest);
    // The limits the command line accepts (1 to 16), or the one the file name implies.
    let limit = (first % 17 != 0).then_some(u32::from(first % 17));
    if let Ok(record) = import_gravon(&xml, "classic-2014.3-1.xml", limit) {
        replay_record(&record).expect("an imported record replays");
    }
});
