//! A world saved by earlier versions (one JSON state file, `world.json`, with its JSON-lines
//! transaction history `world.json.history.jsonl` beside it) is read once into a new store, in
//! the store's first transaction, then both files are renamed aside (`.converted`), so an
//! existing player's games play on and nothing is read twice.

use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::REMEMBERED_TXS;
use super::cache::Entry;
use super::ledger::{Ledger, SimTx};
use super::store::{LAYOUT, StoreError, Tx, WorldRow};
use game::engine::World;

/// Layout version of the JSON state file the earlier versions wrote.
const JSON_VERSION: u32 = 1;

/// The earlier format's files beside a store.
#[derive(Debug)]
pub(super) struct Legacy {
    json: PathBuf,
    history: PathBuf,
}

/// What the earlier format's state file holds.
#[derive(Deserialize)]
struct State {
    version: u32,
    world: World,
    ledger: Ledger,
}

fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut p = path.as_os_str().to_owned();
    p.push(suffix);
    PathBuf::from(p)
}

impl Legacy {
    /// The earlier format's files for the store at `db` (`world.sqlite3` → `world.json` and
    /// `world.json.history.jsonl`).
    pub(super) fn beside(db: &Path) -> Self {
        let json = db.with_extension("json");
        Self {
            history: with_suffix(&json, ".history.jsonl"),
            json,
        }
    }

    /// Writes the earlier world, if there is one, into the store's first transaction: every
    /// game with its owner and hidden seed, the collection, the counters and the remembered
    /// transactions. Returns its world row, `None` when there is no such file.
    pub(super) fn import(&self, tx: &Tx<'_>) -> Result<Option<WorldRow>, StoreError> {
        let text = match std::fs::read_to_string(&self.json) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(source) => {
                return Err(StoreError::Io {
                    what: "read",
                    path: self.json.clone(),
                    source,
                });
            }
        };
        let corrupt = |reason: String| StoreError::Corrupt {
            path: self.json.clone(),
            reason,
        };
        let state: State = serde_json::from_str(&text).map_err(|e| corrupt(e.to_string()))?;
        if state.version != JSON_VERSION {
            return Err(corrupt(format!(
                "layout version {} (this server converts {JSON_VERSION})",
                state.version
            )));
        }
        let world = state.world;
        let seq = 1;
        let mut games = 0usize;
        for (id, owner) in world.tokens() {
            let game = world.game(id).cloned().unwrap_or_default();
            tx.put_game(id, &Entry::new(owner, game), seq)?;
            games += 1;
        }
        let collection: Vec<_> = world.collection().iter().copied().collect();
        let collected = tx.collect(&collection, seq)?;
        let txs = self.history()?;
        for t in &txs[txs.len().saturating_sub(REMEMBERED_TXS)..] {
            tx.push_tx(t, REMEMBERED_TXS)?;
        }
        let row = WorldRow {
            layout: LAYOUT,
            settings: *world.settings(),
            generation: 1,
            seq,
            next_id: world.next_id(),
            counters: state.ledger.counters(),
            collected,
        };
        tx.set_world(&row)?;
        tracing::info!(
            from = %self.json.display(),
            games,
            txs = txs.len(),
            "sim world converted from the JSON state file"
        );
        Ok(Some(row))
    }

    /// The history file's transactions, oldest first (a line cut short by a crash is skipped).
    fn history(&self) -> Result<Vec<SimTx>, StoreError> {
        match std::fs::read_to_string(&self.history) {
            Ok(text) => Ok(text
                .lines()
                .filter_map(|l| serde_json::from_str(l).ok())
                .collect()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
            Err(source) => Err(StoreError::Io {
                what: "read the history of",
                path: self.history.clone(),
                source,
            }),
        }
    }

    /// Renames the converted files aside (`.converted`), once the store holds their world.
    pub(super) fn move_aside(&self) -> Result<(), StoreError> {
        for path in [&self.json, &self.history] {
            match std::fs::rename(path, with_suffix(path, ".converted")) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(source) => {
                    return Err(StoreError::Io {
                        what: "move aside the converted file of",
                        path: path.clone(),
                        source,
                    });
                }
            }
        }
        Ok(())
    }
}
