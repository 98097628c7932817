//! The saved sim world: one SQLite database under the user's data directory (`rusqlite`,
//! bundled), a row per game (its owner, version and stored game with its hidden seed, as JSON), a
//! row per collected beast, a row per remembered transaction, and one row of world counters. A
//! write touches only the rows it changes, so it costs the same in an empty world and in one of a
//! hundred thousand games (docs/sim-store.md has the reasons and the numbers).
//!
//! Several processes share the world (a long-running host and one-shot clients): SQLite's own
//! locks order the writes (`BEGIN IMMEDIATE`, waiting up to `BUSY_WAIT` for another process's),
//! WAL lets reads run beside a write, and every committed change carries the world's change
//! counter (`seq`), so a process reads only what changed since it last looked (checked with
//! `PRAGMA data_version`, which moves when another connection commits). A write commits before
//! it answers: WAL with `synchronous = NORMAL` survives the process being killed (`kill -9`); a
//! power loss may lose the last writes, not the database (a practice world: FULL would cost a
//! disk sync, some 4 ms, per write).

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

use rusqlite::{Connection, ErrorCode, OptionalExtension, TransactionBehavior, params};
use starknet::core::types::Felt;

use super::cache::Entry;
use super::ledger::{Counters, SimTx};
use game::engine::{BeastKey, EngineSettings, Game};

mod read;

/// How long a write waits for another process's write to finish.
const BUSY_WAIT: Duration = Duration::from_secs(10);

/// SQLite's `synchronous` in WAL mode: a commit is in the log (the OS's cache) before a write
/// answers, so it survives `kill -9`; the log is synced at checkpoints (docs/sim-store.md).
const SYNC: &str = "NORMAL";

/// Version of the database's layout.
pub(super) const LAYOUT: i64 = 2;

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS world(
  id INTEGER PRIMARY KEY CHECK (id = 1), layout INTEGER NOT NULL, settings TEXT NOT NULL,
  generation INTEGER NOT NULL, seq INTEGER NOT NULL, next_id INTEGER NOT NULL,
  nonce INTEGER NOT NULL, block INTEGER NOT NULL, collected INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS games(
  id INTEGER PRIMARY KEY, owner TEXT NOT NULL, version INTEGER NOT NULL, seq INTEGER NOT NULL,
  game TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS games_seq ON games(seq);
CREATE TABLE IF NOT EXISTS collection(
  beast INTEGER NOT NULL, special2 INTEGER NOT NULL, special3 INTEGER NOT NULL,
  seq INTEGER NOT NULL, PRIMARY KEY(beast, special2, special3)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS collection_seq ON collection(seq);
CREATE TABLE IF NOT EXISTS txs(
  n INTEGER PRIMARY KEY, hash TEXT NOT NULL, adventurer_id INTEGER, tx TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS txs_hash ON txs(hash);
CREATE INDEX IF NOT EXISTS txs_adventurer ON txs(adventurer_id, n);
";

/// Why the saved world could not be used.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// Another process held the world for longer than `BUSY_WAIT`.
    #[error(
        "the sim world at {0} is locked by another process that did not finish within 10 s; retry"
    )]
    Busy(PathBuf),
    /// Creating its folder, or moving a converted world aside, failed.
    #[error("cannot {what} the sim world at {path}: {source}")]
    Io {
        /// What was attempted.
        what: &'static str,
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// The database failed.
    #[error("the sim world at {path}: {source}")]
    Sql {
        /// The database.
        path: PathBuf,
        /// The cause.
        source: rusqlite::Error,
    },
    /// Every adventurer id the world can store is taken.
    #[error(
        "the sim world has no adventurer id left (ids go up to {}, what SQLite stores); start over with `serve --fresh` (or sim.fresh = true)",
        crate::MAX_ADVENTURER_ID
    )]
    IdsExhausted,
    /// The file is not a sim world this version can read.
    #[error(
        "the sim world at {path} cannot be read ({reason}); start over with `serve --fresh` (or sim.fresh = true)"
    )]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// The file is a sim world of another layout version than this server reads.
    #[error(
        "the sim world at {path} has layout version {layout} (this server reads {reads}); start over with `serve --fresh` (or sim.fresh = true)"
    )]
    OtherLayout {
        /// The file.
        path: PathBuf,
        /// Its layout version.
        layout: i64,
        /// The version this server reads.
        reads: i64,
    },
    /// The file is a sim world made with other `[sim]` rules than the settings ask for.
    #[error(
        "the sim world at {path} was made with other [sim] rules than the settings now ask for; start over with `serve --fresh` (or sim.fresh = true), or restore the old rules"
    )]
    OtherRules {
        /// The file.
        path: PathBuf,
    },
}

/// The world's row: its rules, layout, counters and where its changes are.
#[derive(Clone, Debug)]
pub(super) struct WorldRow {
    pub(super) layout: i64,
    pub(super) settings: EngineSettings,
    /// Bumped by each fresh start, so another process's cache starts over.
    pub(super) generation: u64,
    /// The change counter: bumped by every write, stored on each row it writes.
    pub(super) seq: u64,
    pub(super) next_id: u64,
    pub(super) counters: Counters,
    /// How many beasts the collection holds.
    pub(super) collected: u64,
}

/// The reading connection and the `data_version` it last read at.
#[derive(Debug)]
struct Reader {
    conn: Connection,
    seen: Option<i64>,
}

/// The saved world (see the module doc).
#[derive(Debug)]
pub(super) struct Store {
    path: PathBuf,
    /// The connection writes commit on; its lock orders this process's commits.
    writer: Mutex<Connection>,
    reader: Mutex<Reader>,
}

/// One write in progress (`BEGIN IMMEDIATE`): nothing is visible until it commits.
pub(super) struct Tx<'a> {
    tx: rusqlite::Transaction<'a>,
    store: &'a Store,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

fn u(v: i64) -> u64 {
    u64::try_from(v).unwrap_or(0)
}

fn i(v: u64) -> i64 {
    i64::try_from(v).unwrap_or(i64::MAX)
}

impl Store {
    /// Opens (or creates) the database at `path`; `fresh` empties it first, an unreadable one
    /// included. A new database takes in the world of the earlier file format beside it, if any
    /// (`convert`). Returns the store and its world row.
    pub(super) fn open(
        path: PathBuf,
        settings: EngineSettings,
        first_id: u64,
        fresh: bool,
    ) -> Result<(Self, WorldRow), StoreError> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|source| StoreError::Io {
                what: "create the folder of",
                path: path.clone(),
                source,
            })?;
        }
        match Self::open_waiting(&path, settings, first_id, fresh) {
            Err(StoreError::Corrupt { .. }) if fresh => {
                tracing::warn!(path = %path.display(), "unreadable sim world discarded (fresh)");
                for suffix in ["", "-wal", "-shm"] {
                    let mut p = path.clone().into_os_string();
                    p.push(suffix);
                    let _ = std::fs::remove_file(PathBuf::from(p));
                }
                Self::open_at(&path, settings, first_id, fresh)
            }
            r => r,
        }
    }

    /// [`Self::open_at`], again while another process holds the file for up to `BUSY_WAIT`:
    /// SQLite answers `SQLITE_BUSY` at once, without its busy handler, when two connections race
    /// to turn a new database to WAL (each holds the lock the other waits for). Opening is
    /// idempotent (one write transaction, then moving a converted file aside).
    fn open_waiting(
        path: &Path,
        settings: EngineSettings,
        first_id: u64,
        fresh: bool,
    ) -> Result<(Self, WorldRow), StoreError> {
        let deadline = std::time::Instant::now() + BUSY_WAIT;
        loop {
            match Self::open_at(path, settings, first_id, fresh) {
                Err(StoreError::Busy(_)) if std::time::Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(20));
                }
                r => return r,
            }
        }
    }

    fn open_at(
        path: &Path,
        settings: EngineSettings,
        first_id: u64,
        fresh: bool,
    ) -> Result<(Self, WorldRow), StoreError> {
        let connect = || -> Result<Connection, StoreError> {
            let conn = Connection::open(path).map_err(|e| sql_error(path, e))?;
            conn.busy_timeout(BUSY_WAIT)
                .and_then(|()| conn.pragma_update(None, "journal_mode", "WAL"))
                .and_then(|()| conn.pragma_update(None, "synchronous", SYNC))
                .map_err(|e| sql_error(path, e))?;
            Ok(conn)
        };
        let store = Self {
            path: path.to_path_buf(),
            writer: Mutex::new(connect()?),
            reader: Mutex::new(Reader {
                conn: connect()?,
                seen: None,
            }),
        };
        let legacy = super::convert::Legacy::beside(path);
        let row = store.write(|tx| {
            tx.tx
                .execute_batch(SCHEMA)
                .map_err(|e| sql_error(path, e))?;
            let existing = tx.world_row()?;
            if fresh {
                let generation = existing.as_ref().map_or(0, |w| w.generation) + 1;
                let seq = existing.as_ref().map_or(0, |w| w.seq) + 1;
                tx.tx
                    .execute_batch("DELETE FROM games; DELETE FROM collection; DELETE FROM txs;")
                    .map_err(|e| sql_error(path, e))?;
                let row = WorldRow::empty(settings, first_id, generation, seq);
                tx.set_world(&row)?;
                return Ok(row);
            }
            if let Some(row) = existing {
                return Ok(row);
            }
            match legacy.import(tx)? {
                Some(row) => Ok(row),
                None => {
                    let row = WorldRow::empty(settings, first_id, 1, 1);
                    tx.set_world(&row)?;
                    Ok(row)
                }
            }
        })?;
        // Also after a crash between the conversion's commit and this, or a fresh start.
        legacy.move_aside()?;
        Ok((store, row))
    }

    /// The database file.
    pub(super) fn path(&self) -> &Path {
        &self.path
    }

    fn sql(&self) -> impl Fn(rusqlite::Error) -> StoreError + '_ {
        |e| sql_error(&self.path, e)
    }

    /// Runs `f` in one write transaction, committed (surviving `kill -9`) when it returns `Ok`,
    /// rolled back otherwise. Waits up to `BUSY_WAIT` for another process's write.
    pub(super) fn write<T, E: From<StoreError>>(
        &self,
        f: impl FnOnce(&Tx<'_>) -> Result<T, E>,
    ) -> Result<T, E> {
        let mut conn = lock(&self.writer);
        let tx = conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(self.sql())?;
        let tx = Tx { tx, store: self };
        let out = f(&tx)?;
        tx.tx.commit().map_err(self.sql())?;
        Ok(out)
    }

    fn json<T: serde::de::DeserializeOwned>(&self, text: &str) -> Result<T, StoreError> {
        serde_json::from_str(text).map_err(|e| StoreError::Corrupt {
            path: self.path.clone(),
            reason: e.to_string(),
        })
    }

    fn felt(&self, hex: &str) -> Result<Felt, StoreError> {
        Felt::from_hex(hex).map_err(|e| StoreError::Corrupt {
            path: self.path.clone(),
            reason: e.to_string(),
        })
    }
}

impl WorldRow {
    /// The row of an empty world.
    pub(super) fn empty(
        settings: EngineSettings,
        first_id: u64,
        generation: u64,
        seq: u64,
    ) -> Self {
        Self {
            layout: LAYOUT,
            settings,
            generation,
            seq,
            next_id: first_id.max(1),
            counters: Counters::default(),
            collected: 0,
        }
    }
}

fn sql_error(path: &Path, e: rusqlite::Error) -> StoreError {
    let path = path.to_path_buf();
    match e.sqlite_error_code() {
        Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked) => StoreError::Busy(path),
        Some(ErrorCode::NotADatabase | ErrorCode::DatabaseCorrupt) => StoreError::Corrupt {
            path,
            reason: e.to_string(),
        },
        _ => StoreError::Sql { path, source: e },
    }
}

fn world_row(conn: &Connection, path: &Path) -> Result<Option<WorldRow>, StoreError> {
    let row = conn
        .query_row(
            "SELECT layout, settings, generation, seq, next_id, nonce, block, collected
             FROM world WHERE id = 1",
            [],
            |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, String>(1)?,
                    [
                        r.get(2)?,
                        r.get(3)?,
                        r.get(4)?,
                        r.get(5)?,
                        r.get(6)?,
                        r.get(7)?,
                    ],
                ))
            },
        )
        .optional()
        .map_err(|e| sql_error(path, e))?;
    let Some((layout, settings, [generation, seq, next_id, nonce, block, collected])) = row else {
        return Ok(None);
    };
    let settings = serde_json::from_str(&settings).map_err(|e| StoreError::Corrupt {
        path: path.to_path_buf(),
        reason: format!("its rules: {e}"),
    })?;
    Ok(Some(WorldRow {
        layout,
        settings,
        generation: u(generation),
        seq: u(seq),
        next_id: u(next_id),
        counters: Counters {
            nonce: u(nonce),
            block: u(block),
        },
        collected: u(collected),
    }))
}

impl Tx<'_> {
    fn sql(&self) -> impl Fn(rusqlite::Error) -> StoreError + '_ {
        self.store.sql()
    }

    /// The world's row, `None` in a new database.
    pub(super) fn world_row(&self) -> Result<Option<WorldRow>, StoreError> {
        world_row(&self.tx, &self.store.path)
    }

    /// The world's row, which every opened store has.
    pub(super) fn world(&self) -> Result<WorldRow, StoreError> {
        self.world_row()?.ok_or_else(|| StoreError::Corrupt {
            path: self.store.path.clone(),
            reason: "no world row".into(),
        })
    }

    /// Replaces the world's row.
    pub(super) fn set_world(&self, w: &WorldRow) -> Result<(), StoreError> {
        let settings = serde_json::to_string(&w.settings).expect("settings serialize");
        self.tx
            .prepare_cached(
                "INSERT OR REPLACE INTO world
                 (id, layout, settings, generation, seq, next_id, nonce, block, collected)
                 VALUES (1, ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
            )
            .and_then(|mut s| {
                s.execute(params![
                    w.layout,
                    settings,
                    i(w.generation),
                    i(w.seq),
                    i(w.next_id),
                    i(w.counters.nonce),
                    i(w.counters.block),
                    i(w.collected),
                ])
            })
            .map_err(self.sql())?;
        Ok(())
    }

    /// The stored version of a game, `None` if never minted.
    pub(super) fn version(&self, id: u64) -> Result<Option<u64>, StoreError> {
        self.tx
            .prepare_cached("SELECT version FROM games WHERE id = ?1")
            .and_then(|mut s| s.query_row([i(id)], |r| r.get::<_, i64>(0)).optional())
            .map(|v| v.map(u))
            .map_err(self.sql())
    }

    /// Writes a game at `version`, changed in write `seq`.
    pub(super) fn put_game(&self, id: u64, e: &Entry, seq: u64) -> Result<(), StoreError> {
        let game = serde_json::to_string(&e.game).expect("a game serializes");
        self.tx
            .prepare_cached(
                "INSERT OR REPLACE INTO games (id, owner, version, seq, game)
                 VALUES (?1, ?2, ?3, ?4, ?5)",
            )
            .and_then(|mut s| {
                s.execute(params![
                    i(id),
                    format!("{:#x}", e.owner),
                    i(e.version),
                    i(seq),
                    game
                ])
            })
            .map_err(self.sql())?;
        Ok(())
    }

    /// Adds named beasts to the collection in write `seq`; returns how many were new.
    pub(super) fn collect(&self, keys: &[BeastKey], seq: u64) -> Result<u64, StoreError> {
        let mut added = 0;
        for &(beast, special2, special3) in keys {
            added += self
                .tx
                .prepare_cached(
                    "INSERT OR IGNORE INTO collection (beast, special2, special3, seq)
                     VALUES (?1, ?2, ?3, ?4)",
                )
                .and_then(|mut s| s.execute(params![beast, special2, special3, i(seq)]))
                .map_err(self.sql())? as u64;
        }
        Ok(added)
    }

    /// Remembers a transaction, forgetting the oldest past `keep`.
    pub(super) fn push_tx(&self, tx: &SimTx, keep: usize) -> Result<(), StoreError> {
        let text = serde_json::to_string(tx).expect("a transaction serializes");
        self.tx
            .prepare_cached("INSERT INTO txs (hash, adventurer_id, tx) VALUES (?1, ?2, ?3)")
            .and_then(|mut s| {
                s.execute(params![
                    format!("{:#x}", tx.hash()),
                    tx.adventurer_id().map(i),
                    text
                ])
            })
            .map_err(self.sql())?;
        let n = self.tx.last_insert_rowid();
        self.tx
            .prepare_cached("DELETE FROM txs WHERE n <= ?1")
            .and_then(|mut s| s.execute([n - keep as i64]))
            .map_err(self.sql())?;
        Ok(())
    }

    /// The first id from `from` on that no game holds (the next mint's).
    /// Bounded by the games stored and by [`crate::MAX_ADVENTURER_ID`].
    pub(super) fn next_free_id(&self, from: u64) -> Result<u64, StoreError> {
        let mut id = from.max(1);
        loop {
            if id > crate::MAX_ADVENTURER_ID {
                return Err(StoreError::IdsExhausted);
            }
            if self.version(id)?.is_none() {
                return Ok(id);
            }
            id += 1;
        }
    }
}

impl Entry {
    /// A game just minted (version 1) or copied in.
    pub(super) fn new(owner: Felt, game: Game) -> Self {
        Self {
            owner,
            game,
            version: 1,
        }
    }
}
