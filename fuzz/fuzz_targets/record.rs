//! The salpakan record format: parsing, then replaying whatever game it names. Never a
//! panic; a parsed record writes back to text that parses to the same record, and a
//! replayed one writes a full record that replays to the same record again.
#![no_main]

use libfuzzer_sys::fuzz_target;
use salpakan_engine::{Copy, Record, replay_record};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let Ok(record) = Record::parse(&text) else {
        return;
    };
    let again = Record::parse(&record.to_text()).expect("a written record parses");
    assert_eq!(again, record);
    if let Ok(m) = replay_record(&record) {
        let _ = m.verify_record(&record);
        let full = m.record(Copy::Full);
        let replayed = replay_record(&full).expect("a written full record replays");
        assert_eq!(replayed.record(Copy::Full), full);
    }
});
