//! The store's reads, on its reading connection: what changed since a point, one game, every
//! game's adventurer, a game's version, remembered transactions.

use rusqlite::OptionalExtension;
use starknet::core::types::Felt;

use super::super::cache::{Changes, Entry};
use super::super::ledger::SimTx;
use super::{Store, StoreError, i, lock, u, world_row};
use game::engine::BeastKey;
use game::model::Adventurer;

impl Store {
    /// What changed since the cache's `generation` and `seq` (everything when the generation is
    /// another), in one snapshot: the games of `wanted` (sorted ids) whole, the others' ids and
    /// versions only; `None` when no other connection committed since the last read (unless
    /// `force`).
    pub(crate) fn changes(
        &self,
        generation: u64,
        seq: u64,
        force: bool,
        wanted: &[u64],
    ) -> Result<Option<Changes>, StoreError> {
        let mut reader = lock(&self.reader);
        let version: i64 = reader
            .conn
            .query_row("PRAGMA data_version", [], |r| r.get(0))
            .map_err(self.sql())?;
        if !force && reader.seen == Some(version) {
            return Ok(None);
        }
        let tx = reader.conn.transaction().map_err(self.sql())?;
        let world = world_row(&tx, &self.path)?.ok_or_else(|| StoreError::Corrupt {
            path: self.path.clone(),
            reason: "no world row".into(),
        })?;
        let since = if world.generation == generation {
            seq
        } else {
            0
        };
        let (mut games, mut moved) = (Vec::new(), Vec::new());
        let mut stmt = tx
            .prepare_cached("SELECT id, version, owner, game FROM games WHERE seq > ?1")
            .map_err(self.sql())?;
        let mut rows = stmt.query([i(since)]).map_err(self.sql())?;
        while let Some(r) = rows.next().map_err(self.sql())? {
            let id = u(r.get(0).map_err(self.sql())?);
            let version = u(r.get(1).map_err(self.sql())?);
            if wanted.binary_search(&id).is_err() {
                moved.push((id, version));
                continue;
            }
            let owner: String = r.get(2).map_err(self.sql())?;
            let game: String = r.get(3).map_err(self.sql())?;
            games.push((
                id,
                Entry {
                    owner: self.felt(&owner)?,
                    game: self.json(&game)?,
                    version,
                },
            ));
        }
        drop(rows);
        drop(stmt);
        let collected = tx
            .prepare_cached("SELECT beast, special2, special3 FROM collection WHERE seq > ?1")
            .and_then(|mut s| {
                s.query_map([i(since)], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
                    .collect::<Result<Vec<BeastKey>, _>>()
            })
            .map_err(self.sql())?;
        tx.commit().map_err(self.sql())?;
        reader.seen = Some(version);
        Ok(Some(Changes {
            generation: world.generation,
            seq: world.seq,
            games,
            moved,
            collected,
        }))
    }

    /// The world's change counter now, and the ids of the games changed after `since` (every
    /// process's commits), without touching what the cache has read.
    pub(crate) fn changed_ids(&self, since: u64) -> Result<(u64, Vec<u64>), StoreError> {
        let mut reader = lock(&self.reader);
        let tx = reader.conn.transaction().map_err(self.sql())?;
        let seq: i64 = tx
            .query_row("SELECT seq FROM world WHERE id = 1", [], |r| r.get(0))
            .map_err(self.sql())?;
        let ids = tx
            .prepare_cached("SELECT id FROM games WHERE seq > ?1 ORDER BY id")
            .and_then(|mut s| {
                s.query_map([i(since)], |r| r.get::<_, i64>(0).map(u))?
                    .collect::<Result<Vec<u64>, _>>()
            })
            .map_err(self.sql())?;
        tx.commit().map_err(self.sql())?;
        Ok((u(seq), ids))
    }

    /// A game as committed, with the store's generation and change counter at the read; `None`
    /// if never minted.
    pub(crate) fn game(&self, id: u64) -> Result<Option<(u64, u64, Entry)>, StoreError> {
        let mut reader = lock(&self.reader);
        let tx = reader.conn.transaction().map_err(self.sql())?;
        let (generation, seq): (i64, i64) = tx
            .query_row("SELECT generation, seq FROM world WHERE id = 1", [], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })
            .map_err(self.sql())?;
        let row = tx
            .prepare_cached("SELECT owner, version, game FROM games WHERE id = ?1")
            .and_then(|mut s| {
                s.query_row([i(id)], |r| {
                    Ok((r.get::<_, String>(0)?, r.get(1)?, r.get::<_, String>(2)?))
                })
                .optional()
            })
            .map_err(self.sql())?;
        tx.commit().map_err(self.sql())?;
        let Some((owner, version, game)) = row else {
            return Ok(None);
        };
        let entry = Entry {
            owner: self.felt(&owner)?,
            game: self.json(&game)?,
            version: u(version),
        };
        Ok(Some((u(generation), u(seq), entry)))
    }

    /// Every game's id, owner and stored adventurer, in id order (only the adventurer of each
    /// stored game is decoded).
    pub(crate) fn games(&self) -> Result<Vec<(u64, Felt, Adventurer)>, StoreError> {
        let reader = lock(&self.reader);
        let rows = reader
            .conn
            .prepare_cached(
                "SELECT id, owner, json_extract(game, '$.adventurer') FROM games ORDER BY id",
            )
            .and_then(|mut s| {
                s.query_map([], |r| {
                    Ok((u(r.get(0)?), r.get::<_, String>(1)?, r.get::<_, String>(2)?))
                })?
                .collect::<Result<Vec<_>, _>>()
            })
            .map_err(self.sql())?;
        drop(reader);
        rows.into_iter()
            .map(|(id, owner, adventurer)| Ok((id, self.felt(&owner)?, self.json(&adventurer)?)))
            .collect()
    }

    /// The committed version of a game, `None` if never minted.
    pub(crate) fn version_of(&self, id: u64) -> Result<Option<u64>, StoreError> {
        lock(&self.reader)
            .conn
            .prepare_cached("SELECT version FROM games WHERE id = ?1")
            .and_then(|mut s| s.query_row([i(id)], |r| r.get::<_, i64>(0)).optional())
            .map(|v| v.map(u))
            .map_err(self.sql())
    }

    /// The remembered transactions of an adventurer, oldest first.
    pub(crate) fn txs_of(&self, adventurer_id: u64) -> Result<Vec<SimTx>, StoreError> {
        self.read_txs(
            "SELECT tx FROM txs WHERE adventurer_id = ?1 ORDER BY n",
            i(adventurer_id),
        )
    }

    /// The remembered transaction with this hash, if any.
    pub(crate) fn tx(&self, hash: Felt) -> Result<Vec<SimTx>, StoreError> {
        self.read_txs(
            "SELECT tx FROM txs WHERE hash = ?1 ORDER BY n DESC LIMIT 1",
            format!("{hash:#x}"),
        )
    }

    fn read_txs(&self, query: &str, arg: impl rusqlite::ToSql) -> Result<Vec<SimTx>, StoreError> {
        let reader = lock(&self.reader);
        let texts = reader
            .conn
            .prepare_cached(query)
            .and_then(|mut s| {
                s.query_map([arg], |r| r.get::<_, String>(0))?
                    .collect::<Result<Vec<_>, _>>()
            })
            .map_err(self.sql())?;
        texts.iter().map(|t| self.json(t)).collect()
    }
}
