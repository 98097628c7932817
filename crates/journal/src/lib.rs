//! The durable journal of one account on one profile: every transaction before it is sent, every
//! status change, the results a retried write replays, and the fees and send times the policy
//! counts. It lives in SQLite (`rusqlite`, bundled) under `home::profile_dir(profile)`, one file
//! per account, held by an OS file lock so a second server on the same account refuses to start
//! (two would race on the nonce). Memory-only journals (same code, SQLite `:memory:`) serve
//! in-process chains and tests, where nothing must outlive the process.
//!
//! Only the record made before a send is written while its caller waits: committed (it survives a
//! crash of the process from then on), then synced to the disk by the journal's writer thread
//! while the transaction is signed and sent, so that the disk's latency is not the send's. A
//! power loss in that millisecond could lose the record, not the transaction: it is on chain and
//! the nonce is read from the chain at start. Status changes, fees, replay results and intents
//! are queued on the writer thread ([`WriteBehind`]) and land right after the call that made
//! them; every read settles the queue first. The budgets read the spending mirror in memory,
//! which is updated at once.
//!
//! Every record names the chain it was made on ([`Journal::bind_chain`]: the chain id and block
//! 0's hash and timestamp, which change when a devnet or katana is started afresh). Replays, intents and
//! the transactions followed at start are those of the chain the server is connected to; a record
//! from another chain stays for the audit (the transaction lookup marks it) but never answers for this one.
//!
//! Beside it, what its records are made of and read through: a transaction's status
//! ([`TxStatus`], [`status`]) and the account's ledger ([`ledger::TxLedger`]).

use std::collections::HashMap;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

use rusqlite::{Connection, OptionalExtension, params};
use starknet::core::types::Felt;

use game::AdventurerId;
use id_column::IdColumn;

use spending::Spend;
use wallet::{day_start_ms, unix_ms};
use write_behind::WriteBehind;

pub mod ledger;
mod record;
pub mod status;
pub mod write_behind;

pub use record::TxRecord;
pub use status::{Confirm, Execution, TxStatus};

/// Replay results and intents kept (older rows are pruned).
const KEEP_ROWS: i64 = 10_000;

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS runs(id INTEGER PRIMARY KEY AUTOINCREMENT, started_ms INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS txs(
  hash TEXT PRIMARY KEY, adventurer_id INTEGER, action TEXT NOT NULL, nonce TEXT NOT NULL,
  max_fee TEXT NOT NULL, signed_ms INTEGER NOT NULL, last_status TEXT NOT NULL, run INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS txs_adventurer ON txs(adventurer_id, signed_ms);
CREATE TABLE IF NOT EXISTS statuses(hash TEXT NOT NULL, status TEXT NOT NULL, at_ms INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS spending(
  hash TEXT PRIMARY KEY, fee TEXT NOT NULL, at_ms INTEGER NOT NULL, run INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS spending_at ON spending(at_ms);
CREATE INDEX IF NOT EXISTS spending_run ON spending(run);
CREATE TABLE IF NOT EXISTS replays(
  adventurer_id INTEGER NOT NULL, action_count INTEGER NOT NULL, action TEXT NOT NULL,
  result TEXT NOT NULL, PRIMARY KEY(adventurer_id, action_count, action));
CREATE TABLE IF NOT EXISTS intents(
  adventurer_id INTEGER NOT NULL, action_count INTEGER NOT NULL, action TEXT NOT NULL,
  started_ms INTEGER NOT NULL, PRIMARY KEY(adventurer_id, action_count, action));
";

/// Tables whose rows name their chain (a `chain` column, added to journals made before it; their
/// older rows have none and so match no chain).
const CHAIN_TABLES: [&str; 3] = ["txs", "replays", "intents"];

/// Why the journal could not be used.
#[derive(Debug, thiserror::Error)]
pub enum JournalError {
    /// Another server holds this account's journal.
    #[error(
        "another loot-survivor-mcp server is already running for this account (journal {}): \
         stop it first; two servers on one account would race on the nonce",
        .0.display()
    )]
    Locked(PathBuf),
    /// The file or its lock could not be opened.
    #[error("cannot open the journal {path}: {1}", path = .0.display())]
    Open(PathBuf, #[source] std::io::Error),
    /// SQLite could not open the file or set it up.
    #[error("cannot open the journal {path}: {1}", path = .0.display())]
    OpenSql(PathBuf, #[source] rusqlite::Error),
    /// A read or write failed.
    #[error("journal: {0}")]
    Sql(#[from] rusqlite::Error),
}

/// The journal of one account (see the module doc).
#[derive(Debug)]
pub struct Journal {
    conn: Arc<Mutex<Connection>>,
    /// Writes nobody waits for, in order (see the module doc).
    behind: WriteBehind<Connection>,
    /// The spending rows of today and of this run, mirrored in memory: budgets are checked on
    /// every write, and this process is the only writer (the lock), so the file is written to
    /// and read back only at start.
    spending: Mutex<Vec<Spend>>,
    /// Transactions earlier runs signed whose spending was never written (the run stopped
    /// first), by hash, with the run that signed them.
    unspent: HashMap<String, i64>,
    /// The chain records are made on and looked up for (see the module doc); `None` until bound.
    chain: std::sync::RwLock<Option<String>>,
    run: i64,
    path: Option<PathBuf>,
    /// Held open for the lock's lifetime (released by the OS when the process ends, even on SIGKILL).
    _lock: Option<File>,
}

impl Journal {
    /// Opens (or creates) `dir/journal-<account>.sqlite3`, locked for this process.
    pub fn open(dir: &Path, account: Felt) -> Result<Self, JournalError> {
        let path = dir.join(format!("journal-{account:#066x}.sqlite3"));
        let lock_path = path.with_extension("sqlite3.lock");
        let open_err = |e: std::io::Error| JournalError::Open(path.clone(), e);
        let sql_err = |e: rusqlite::Error| JournalError::OpenSql(path.clone(), e);
        let lock = File::options()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&lock_path)
            .map_err(open_err)?;
        match lock.try_lock() {
            Ok(()) => {}
            Err(std::fs::TryLockError::WouldBlock) => return Err(JournalError::Locked(path)),
            Err(std::fs::TryLockError::Error(e)) => return Err(open_err(e)),
        }
        let conn = Connection::open(&path).map_err(sql_err)?;
        // WAL: every commit survives a crash of the process. A record made before a send is also
        // synced to the disk right after (`record_tx`), so it survives a power loss too.
        conn.pragma_update(None, "journal_mode", "WAL")
            .and_then(|_| conn.pragma_update(None, "synchronous", "NORMAL"))
            .map_err(sql_err)?;
        Self::init(conn, Some(path), Some(lock))
    }

    /// A journal in memory (in-process chains, tests): same behaviour, gone with the process.
    pub fn in_memory() -> Self {
        let conn = Connection::open_in_memory().expect("SQLite in memory");
        Self::init(conn, None, None).expect("in-memory journal schema")
    }

    fn init(
        conn: Connection,
        path: Option<PathBuf>,
        lock: Option<File>,
    ) -> Result<Self, JournalError> {
        conn.execute_batch(SCHEMA)?;
        for table in CHAIN_TABLES {
            add_chain_column(&conn, table)?;
        }
        conn.execute("INSERT INTO runs(started_ms) VALUES (?1)", [now_ms()])?;
        let run = conn.last_insert_rowid();
        let since = day_start_ms(SystemTime::now()) as i64 - 60_000;
        let spending = conn
            .prepare("SELECT hash, fee, at_ms, run FROM spending WHERE at_ms >= ?1")
            .and_then(|mut st| {
                st.query_map([since], |r| {
                    Ok(Spend {
                        key: r.get(0)?,
                        fee: r.get::<_, String>(1)?.parse().unwrap_or(0),
                        at_ms: r.get(2)?,
                        run: r.get(3)?,
                    })
                })?
                .collect::<Result<Vec<_>, _>>()
            })?;
        let unspent = conn
            .prepare(
                "SELECT hash, run FROM txs WHERE run <> ?1 AND signed_ms >= ?2 \
                 AND hash NOT IN (SELECT hash FROM spending)",
            )
            .and_then(|mut st| {
                st.query_map(params![run, since], |r| Ok((r.get(0)?, r.get(1)?)))?
                    .collect::<Result<HashMap<String, i64>, _>>()
            })?;
        let conn = Arc::new(Mutex::new(conn));
        Ok(Self {
            behind: WriteBehind::new(conn.clone()),
            conn,
            spending: Mutex::new(spending),
            unspent,
            chain: std::sync::RwLock::new(None),
            run,
            path,
            _lock: lock,
        })
    }

    /// The file, when durable.
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// Names the chain this server is connected to (its id and block 0): records made from
    /// now on carry it, and only records carrying it are replayed, resumed or followed.
    pub fn bind_chain(&self, chain: &str) {
        *self.chain.write().unwrap_or_else(|p| p.into_inner()) = Some(chain.to_string());
    }

    fn chain(&self) -> Option<String> {
        self.chain.read().unwrap_or_else(|p| p.into_inner()).clone()
    }

    fn db(&self) -> std::sync::MutexGuard<'_, Connection> {
        self.conn.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Records a transaction about to be sent (committed on return, synced to the disk right
    /// after: see the module doc); an error here means it must not be sent.
    pub fn record_tx(&self, r: &TxRecord, signed_ms: i64) -> Result<(), JournalError> {
        self.behind.settle();
        Self::insert_tx(&self.db(), r, signed_ms, self.run, self.chain())?;
        if let Some(path) = &self.path {
            let wal = wal_path(path);
            self.behind.push(move |_: &Connection| sync_file(&wal));
        }
        Ok(())
    }

    fn insert_tx(
        db: &Connection,
        r: &TxRecord,
        signed_ms: i64,
        run: i64,
        chain: Option<String>,
    ) -> Result<(), JournalError> {
        let tx = db.unchecked_transaction()?;
        exec(
            &tx,
            "INSERT OR REPLACE INTO txs(hash, adventurer_id, action, nonce, max_fee, signed_ms, \
             last_status, run, chain) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
            params![
                format!("{:#x}", r.tx_hash),
                r.adventurer_id.map(IdColumn),
                r.action,
                r.nonce,
                r.max_fee,
                signed_ms,
                r.last_status.as_str(),
                run,
                chain
            ],
        )?;
        exec(
            &tx,
            "INSERT INTO statuses(hash, status, at_ms) VALUES (?1, ?2, ?3)",
            params![
                format!("{:#x}", r.tx_hash),
                r.last_status.as_str(),
                signed_ms
            ],
        )?;
        tx.commit()?;
        Ok(())
    }

    /// Records a status change (no-op when unchanged or unknown).
    pub fn set_status(&self, hash: Felt, status: TxStatus) {
        let (h, status) = (hex(hash), status.as_str());
        self.behind
            .push(move |db: &Connection| Self::write_status(db, &h, status));
    }

    fn write_status(db: &Connection, h: &str, status: &str) {
        let r = db.unchecked_transaction().and_then(|tx| {
            let changed = exec(
                &tx,
                "UPDATE txs SET last_status = ?2 WHERE hash = ?1 AND last_status <> ?2",
                params![h, status],
            )?;
            if changed > 0 {
                exec(
                    &tx,
                    "INSERT INTO statuses(hash, status, at_ms) VALUES (?1, ?2, ?3)",
                    params![h, status, now_ms()],
                )?;
            }
            tx.commit()
        });
        if let Err(e) = r {
            tracing::error!(tx_hash = %h, status, "journal: cannot record a status: {e}");
        }
    }

    /// The record of a transaction this account's servers signed, on this chain or another.
    pub fn tx(&self, hash: Felt) -> Option<TxRecord> {
        self.query_txs("WHERE hash = ?1", params![hex(hash)])
            .into_iter()
            .next()
    }

    /// How many transactions the journal holds.
    pub fn tx_count(&self) -> usize {
        self.behind.settle();
        self.db()
            .query_row("SELECT COUNT(*) FROM txs", [], |r| r.get::<_, i64>(0))
            .map_or(0, |n| n as usize)
    }

    /// Transactions on this chain whose final status is not known yet (to follow at start).
    pub fn unsettled(&self) -> Vec<TxRecord> {
        self.query_txs(
            &format!(
                "WHERE chain IS ?1 AND last_status NOT IN ({}) ORDER BY signed_ms",
                sql_list(&TxStatus::SETTLED)
            ),
            params![self.chain()],
        )
    }

    /// The first transaction on this chain on `adventurer_id` for `action` signed at or after
    /// `since_ms` that may have landed (the transaction of an interrupted write).
    pub fn tx_after(
        &self,
        adventurer_id: AdventurerId,
        action: &str,
        since_ms: i64,
    ) -> Option<TxRecord> {
        let landed_not = [TxStatus::SendFailed, TxStatus::Dropped, TxStatus::Reverted];
        self.query_txs(
            &format!(
                "WHERE adventurer_id = ?1 AND action = ?2 AND signed_ms >= ?3 AND chain IS ?4 \
                 AND last_status NOT IN ({}) ORDER BY signed_ms LIMIT 1",
                sql_list(&landed_not)
            ),
            params![IdColumn(adventurer_id), action, since_ms, self.chain()],
        )
        .into_iter()
        .next()
    }

    /// The largest fee bound among the last 20 transactions, if any.
    pub fn recent_max_bound(&self) -> Option<u128> {
        self.behind.settle();
        let db = self.db();
        let mut st = db
            .prepare("SELECT max_fee FROM txs ORDER BY signed_ms DESC LIMIT 20")
            .ok()?;
        let fees = st
            .query_map([], |r| r.get::<_, String>(0))
            .ok()?
            .filter_map(|f| f.ok()?.parse::<u128>().ok());
        fees.max()
    }

    fn query_txs(&self, filter: &str, p: impl rusqlite::Params) -> Vec<TxRecord> {
        self.behind.settle();
        let db = self.db();
        let sql = format!(
            "SELECT hash, adventurer_id, action, nonce, max_fee, signed_ms, last_status, chain \
             FROM txs {filter}"
        );
        let current = self.chain();
        let rows = db.prepare(&sql).and_then(|mut st| {
            st.query_map(p, |r| {
                let hash: String = r.get(0)?;
                Ok(TxRecord {
                    tx_hash: Felt::from_hex(&hash).map_err(|e| {
                        rusqlite::Error::FromSqlConversionFailure(
                            0,
                            rusqlite::types::Type::Text,
                            Box::new(e),
                        )
                    })?,
                    adventurer_id: r.get::<_, Option<IdColumn>>(1)?.map(|c| c.0),
                    action: r.get(2)?,
                    nonce: r.get(3)?,
                    max_fee: r.get(4)?,
                    signed_at: (r.get::<_, i64>(5)? / 1000) as u64,
                    last_status: stored_status(&r.get::<_, String>(6)?),
                    from_another_chain: r.get::<_, Option<String>>(7)? != current,
                })
            })?
            .collect::<Result<Vec<_>, _>>()
        });
        rows.unwrap_or_else(|e| {
            tracing::error!("journal: cannot read transactions: {e}");
            Vec::new()
        })
    }

    /// The stored result of a write on this chain keyed by (adventurer, action_count, action key).
    pub fn replay(&self, id: AdventurerId, action_count: u16, action: &str) -> Option<String> {
        self.keyed("result", "replays", id, action_count, action)
    }

    /// One column of this chain's row keyed by (adventurer, action_count, action key) in a table
    /// of writes (`replays`, `intents`).
    fn keyed<T: rusqlite::types::FromSql>(
        &self,
        column: &str,
        table: &str,
        id: AdventurerId,
        action_count: u16,
        action: &str,
    ) -> Option<T> {
        self.behind.settle();
        first(
            &self.db(),
            &format!(
                "SELECT {column} FROM {table} WHERE adventurer_id = ?1 AND action_count = ?2 \
                 AND action = ?3 AND chain IS ?4"
            ),
            params![IdColumn(id), action_count, action, self.chain()],
        )
    }

    /// Stores the result of a write for replay.
    pub fn put_replay(&self, id: AdventurerId, action_count: u16, action: &str, result: &str) {
        let (action, result, chain) = (action.to_string(), result.to_string(), self.chain());
        self.behind.push(move |db: &Connection| {
            let r = insert_pruned(
                db,
                "replays",
                "INSERT OR REPLACE INTO replays(adventurer_id, action_count, action, result, \
                 chain) VALUES (?1, ?2, ?3, ?4, ?5)",
                params![IdColumn(id), action_count, action, result, chain],
            );
            if let Err(e) = r {
                tracing::error!("journal: cannot store a replay result: {e}");
            }
        });
    }

    /// Notes that a write keyed by (adventurer, action_count, action key) is starting now; the
    /// first start on this chain is kept, so a retry finds the transaction of the first attempt.
    /// The intent lands before the transaction's record, which settles the queue.
    pub fn begin_intent(&self, id: AdventurerId, action_count: u16, action: &str) {
        let (action, started, chain) = (action.to_string(), now_ms(), self.chain());
        self.behind.push(move |db: &Connection| {
            let r = insert_pruned(
                db,
                "intents",
                "INSERT INTO intents(adventurer_id, action_count, action, started_ms, chain) \
                 VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT(adventurer_id, action_count, action) \
                 DO UPDATE SET started_ms = excluded.started_ms, chain = excluded.chain \
                 WHERE intents.chain IS NOT excluded.chain",
                params![IdColumn(id), action_count, action, started, chain],
            );
            if let Err(e) = r {
                tracing::error!(%id, "journal: cannot note a write intent: {e}");
            }
        });
    }

    /// When a write on this chain keyed by (adventurer, action_count, action key) first started.
    pub fn intent(&self, id: AdventurerId, action_count: u16, action: &str) -> Option<i64> {
        self.keyed("started_ms", "intents", id, action_count, action)
    }

    /// Moves everything into the main database file (at a graceful stop).
    pub fn flush(&self) {
        self.behind.settle();
        if self.path.is_some()
            && let Err(e) = self.db().execute_batch("PRAGMA wal_checkpoint(TRUNCATE);")
        {
            tracing::warn!("journal: checkpoint failed: {e}");
        }
    }
}

/// Runs one statement, prepared once per connection (parsing SQL costs more than running it).
fn exec<P: rusqlite::Params>(db: &Connection, sql: &str, params: P) -> rusqlite::Result<usize> {
    db.prepare_cached(sql)?.execute(params)
}

/// The first column of the first row of a query, prepared once; none on no row or an error.
fn first<T: rusqlite::types::FromSql, P: rusqlite::Params>(
    db: &Connection,
    sql: &str,
    params: P,
) -> Option<T> {
    db.prepare_cached(sql)
        .and_then(|mut st| st.query_row(params, |r| r.get(0)))
        .optional()
        .unwrap_or(None)
}

/// Statuses as a SQL list of string literals (their strings are fixed identifiers).
fn sql_list(statuses: &[TxStatus]) -> String {
    statuses
        .iter()
        .map(|s| format!("'{s}'"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A status as the journal stored it; one this version does not know reads as `SENT` (it may
/// have landed: it is followed, never trusted as settled).
fn stored_status(text: &str) -> TxStatus {
    TxStatus::parse(text).unwrap_or_else(|| {
        tracing::warn!(
            status = text,
            "journal: unknown transaction status, read as SENT"
        );
        TxStatus::Sent
    })
}

/// Adds the `chain` column to a table of a journal made before it (a no-op when present).
fn add_chain_column(db: &Connection, table: &str) -> rusqlite::Result<()> {
    let has = db
        .prepare(&format!(
            "SELECT 1 FROM pragma_table_info('{table}') WHERE name = 'chain'"
        ))?
        .exists([])?;
    if !has {
        db.execute_batch(&format!("ALTER TABLE {table} ADD COLUMN chain TEXT;"))?;
    }
    Ok(())
}

/// One insert into a bounded table and the pruning of its oldest rows, in one commit.
fn insert_pruned<P: rusqlite::Params>(
    db: &Connection,
    table: &str,
    sql: &str,
    params: P,
) -> rusqlite::Result<()> {
    let tx = db.unchecked_transaction()?;
    exec(&tx, sql, params)?;
    prune(&tx, table)?;
    tx.commit()
}

fn prune(db: &Connection, table: &str) -> rusqlite::Result<()> {
    exec(
        db,
        &format!("DELETE FROM {table} WHERE rowid <= (SELECT MAX(rowid) FROM {table}) - ?1"),
        [KEEP_ROWS],
    )
    .map(|_| ())
}

/// SQLite's write-ahead log beside the database file.
fn wal_path(db: &Path) -> PathBuf {
    let mut name = db.as_os_str().to_owned();
    name.push("-wal");
    PathBuf::from(name)
}

/// Syncs a file's data to the disk (the WAL: every commit in it becomes durable).
fn sync_file(path: &Path) {
    let synced = File::options()
        .write(true)
        .open(path)
        .and_then(|f| f.sync_data());
    if let Err(e) = synced {
        tracing::error!("journal: cannot sync {}: {e}", path.display());
    }
}

fn hex(f: Felt) -> String {
    format!("{f:#x}")
}

/// Milliseconds since the Unix epoch, now.
pub fn now_ms() -> i64 {
    unix_ms(SystemTime::now()) as i64
}

mod id_column;
mod spending;
#[cfg(test)]
mod tests;
