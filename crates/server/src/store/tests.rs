//! The store's tests: group commits, failed writes, crash images, WAL restarts and
//! migrations of the events' layout.

use super::*;

/// A fresh, empty folder for one test (named after it and this process) and the database
/// path in it.
fn fresh_db(name: &str) -> (std::path::PathBuf, std::path::PathBuf) {
    let dir = std::env::temp_dir().join(format!("{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("s.db");
    (dir, db)
}

fn event(game: &str, ver: u64) -> Op {
    // Rows of a few KiB (long chat lines), so that the WAL grows fast.
    Op::Event {
        game: game.to_string(),
        row: EventRow {
            ver,
            arb: format!(
                r#"{{"a":"chat","seat":0,"text":"{ver} {}"}}"#,
                "x".repeat(6000)
            ),
            clocks: "null".into(),
        },
    }
}

/// What a process killed by SIGKILL leaves: the files as they are now (the page cache
/// survives the process), copied while the store keeps running.
fn crash_image(db: &Path, to: &Path) {
    for ext in ["-wal", ""] {
        let from = format!("{}{ext}", db.display());
        if std::path::Path::new(&from).exists() {
            std::fs::copy(&from, format!("{}{ext}", to.display())).unwrap();
        }
    }
}

/// A write that fails (here a second event with the same version) is refused alone:
/// writes committed in the same group commit are kept, and nothing of the failed one is.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_write_is_refused_alone_even_when_committed_with_others() {
    let (dir, db) = fresh_db("salpakan-store-fail");
    let (store, _) = Store::open(&db).unwrap();
    store.write(vec![event("g", 1)]).await.unwrap();
    // Queued back to back, so that the writer usually takes them in one group commit
    // (the outcome must be the same either way).
    let mut answers = Vec::new();
    for (game, vers) in [("a", vec![1, 2]), ("g", vec![2, 1]), ("b", vec![1])] {
        let ops = vers.into_iter().map(|v| event(game, v)).collect();
        let (tx, rx) = oneshot::channel();
        store.tx.send(Job::Write(ops, tx)).unwrap();
        answers.push(rx);
    }
    let mut results = Vec::new();
    for rx in answers {
        results.push(rx.await.unwrap().is_ok());
    }
    assert_eq!(results, [true, false, true]);
    let c = Connection::open(&db).unwrap();
    assert_eq!(events(&c, "a").unwrap().len(), 2);
    assert_eq!(events(&c, "b").unwrap().len(), 1);
    // Of the failed write's two events, not even the first (version 2) was kept.
    let g: Vec<u64> = events(&c, "g").unwrap().iter().map(|e| e.ver).collect();
    assert_eq!(g, [1]);
    drop(store);
    let _ = std::fs::remove_dir_all(&dir);
}

fn game(id: &str) -> Op {
    Op::Game(GameRow {
        id: id.to_string(),
        kind: "generals".into(),
        options: "{}".into(),
        seed: salpakan_engine::MatchSeed::Short(7),
        clock: "null".into(),
        players: "[]".into(),
        public: true,
        result: None,
    })
}

fn result(id: &str) -> Op {
    Op::Result {
        game: id.to_string(),
        result: r#"{"winner":null,"reason":"draw"}"#.into(),
    }
}

fn vers(ev: &[EventRow]) -> Vec<u64> {
    ev.iter().map(|e| e.ver).collect()
}

/// A killed server restarts with every acknowledged event of its unfinished games
/// (most of them not indexed yet) and of its finished ones (indexed), and a live game
/// reads back whole through the writer meanwhile.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_server_restarts_with_every_event_of_its_unfinished_and_finished_games() {
    let (dir, db) = fresh_db("salpakan-store-live");
    let (store, _) = Store::open(&db).unwrap();
    for g in ["a", "b", "c"] {
        store.write(vec![game(g), event(g, 1)]).await.unwrap();
    }
    for v in 2..=9 {
        for g in ["a", "b", "c"] {
            store.write(vec![event(g, v)]).await.unwrap();
        }
    }
    store
        .write(vec![event("b", 10), result("b")])
        .await
        .unwrap();
    // A write that fails leaves the live game as it was.
    assert!(
        store
            .write(vec![event("a", 10), event("a", 10)])
            .await
            .is_err()
    );
    store.write(vec![event("a", 10)]).await.unwrap();
    assert_eq!(
        vers(&store.load_game("a").await.unwrap().1),
        (1..=10).collect::<Vec<_>>()
    );
    assert_eq!(
        vers(&store.load_game("b").await.unwrap().1),
        (1..=10).collect::<Vec<_>>()
    );
    let image = dir.join("image.db");
    crash_image(&db, &image);
    drop(store);
    let (store, loaded) = Store::open(&image).unwrap();
    let mut unfinished: Vec<(String, Vec<u64>)> = loaded
        .unfinished
        .iter()
        .map(|(g, ev)| (g.id.clone(), vers(ev)))
        .collect();
    unfinished.sort();
    assert_eq!(
        unfinished,
        [
            ("a".to_string(), (1..=10).collect::<Vec<_>>()),
            ("c".to_string(), (1..=9).collect::<Vec<_>>())
        ]
    );
    assert_eq!(
        loaded
            .finished
            .iter()
            .map(|g| g.id.as_str())
            .collect::<Vec<_>>(),
        ["b"]
    );
    // The restarted writer carries on: a repeated version is refused, the next is
    // kept, and ending the game indexes all of them.
    assert!(store.write(vec![event("c", 9)]).await.is_err());
    store
        .write(vec![event("c", 10), result("c")])
        .await
        .unwrap();
    let c = Connection::open(&image).unwrap();
    assert_eq!(
        vers(&events(&c, "c").unwrap()),
        (1..=10).collect::<Vec<_>>()
    );
    drop(store);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A database of schema version 3 (events in a rowid table with a unique index on
/// (game, ver)) keeps every event: finished games' read from the index, unfinished
/// games' loaded at start-up.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_version_3_database_keeps_every_event() {
    let (dir, db) = fresh_db("salpakan-store-v3");
    {
        let c = Connection::open(&db).unwrap();
        c.execute_batch(SCHEMA).unwrap();
        c.execute_batch("CREATE UNIQUE INDEX events_game_ver ON events (game, ver)")
            .unwrap();
        for m in &migrate::MIGRATIONS[..3] {
            let t = c.unchecked_transaction().unwrap();
            (m.apply)(&t).unwrap();
            t.commit().unwrap();
        }
        c.pragma_update(None, "user_version", 3).unwrap();
        c.execute_batch(
            "INSERT INTO games (id, kind, options, seed, clock, players, public, result) VALUES
               ('old', 'generals', '{}', '7', 'null', '[]', 1, '{}'),
               ('new', 'generals', '{}', '7', 'null', '[]', 1, NULL);",
        )
        .unwrap();
        for v in 1..=4 {
            for g in ["old", "new"] {
                c.execute(
                    "INSERT INTO events (game, ver, arb, clocks) VALUES (?1, ?2, '{}', 'null')",
                    rusqlite::params![g, v],
                )
                .unwrap();
            }
        }
    }
    let (store, loaded) = Store::open(&db).unwrap();
    assert_eq!(loaded.unfinished.len(), 1);
    assert_eq!(vers(&loaded.unfinished[0].1), [1, 2, 3, 4]);
    assert_eq!(vers(&store.load_game("old").await.unwrap().1), [1, 2, 3, 4]);
    assert_eq!(vers(&store.load_game("new").await.unwrap().1), [1, 2, 3, 4]);
    let c = Connection::open(&db).unwrap();
    let index: i64 = c
        .query_row(
            "SELECT COUNT(*) FROM sqlite_master WHERE name='events_game_ver'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(index, 0, "the per-move index is gone");
    drop(store);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Checkpoints run off the commit path and the WAL starts over many times; every
/// acknowledged write is in the files at every moment, whatever the checkpointer is
/// doing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_acknowledged_write_survives_checkpoints_and_wal_restarts() {
    let (dir, db) = fresh_db("salpakan-store");
    let (store, _) = Store::open_with(&db, 64).unwrap();
    let games: Vec<String> = (0..8).map(|g| format!("game{g}")).collect();
    let mut acked = 0u64;
    for round in 0..12u64 {
        // Eight games write concurrently (group commits), 25 events each per round.
        let mut tasks = Vec::new();
        for g in &games {
            let (store, g) = (store.clone(), g.clone());
            tasks.push(tokio::spawn(async move {
                for k in 0..25 {
                    store
                        .write(vec![event(&g, round * 25 + k + 1)])
                        .await
                        .unwrap();
                }
            }));
        }
        for t in tasks {
            t.await.unwrap();
        }
        acked += 8 * 25;
        let image = dir.join(format!("image{round}.db"));
        crash_image(&db, &image);
        let c = Connection::open(&image).unwrap();
        let n: i64 = c
            .query_row("SELECT COUNT(*) FROM events", [], |r| r.get(0))
            .unwrap();
        assert_eq!(u64::try_from(n).unwrap(), acked, "round {round}");
        for g in &games {
            assert_eq!(events(&c, g).unwrap().len() as u64, acked / 8);
        }
        tokio::time::sleep(std::time::Duration::from_millis(30)).await;
    }
    // The WAL was started over (it holds far fewer frames than were written).
    let wal = std::fs::metadata(format!("{}-wal", db.display()))
        .unwrap()
        .len();
    let written = acked * 6000;
    assert!(
        wal < written / 2,
        "WAL of {wal} bytes for {written} bytes written"
    );
    drop(store);
    let _ = std::fs::remove_dir_all(&dir);
}
