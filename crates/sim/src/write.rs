//! The sim chain's writes: a mint, an action, copied games. An action is computed on the cache
//! under the world's mutex, committed to the store outside it (the store refuses a step computed
//! on a game or a collection that moved on, and the action is computed again), then the cache
//! takes the change in and the result is rendered, with no lock held.

use starknet::core::types::{Event, Felt};

use super::cache::{Entry, Step};
use super::ledger::{SimTx, for_agent};
use super::store::Store;
use super::{REMEMBERED_TXS, SimChain, StoreError, sim_account, sim_game_systems};
use chain::revert::Revert;
use chain::{ChainError, TxReport, WriteOptions};
use game::engine::{Action, Game};

/// How many times an action is computed again after the store refused it (its game changed in
/// another process or thread meanwhile) before the write gives up as busy.
const STEP_ATTEMPTS: usize = 16;

/// The `Transfer` event of a mint, as the game token contract emits it.
fn transfer(id: u64) -> Event {
    Event {
        from_address: sim_game_systems(),
        keys: vec![
            starknet::macros::selector!("Transfer"),
            Felt::ZERO,
            sim_account(),
            Felt::from(id),
            Felt::ZERO,
        ],
        data: vec![],
    }
}

fn revert(r: game::engine::Revert) -> ChainError {
    ChainError::Revert {
        revert: Revert::from_engine(r),
        tx_hash: None,
    }
}

impl SimChain {
    /// Mints an adventurer token to the sim account; its game draws a hidden seed unless the
    /// world is deterministic.
    pub fn mint_game(&self, opts: &WriteOptions) -> Result<(u64, TxReport), ChainError> {
        let seed = |id| self.randomness.hidden_seed(id).map_err(ChainError::from);
        let new_game = |hidden_seed| Game {
            hidden_seed,
            ..Game::default()
        };
        let (id, tx) = match &self.store {
            None => {
                let mut inner = self.lock();
                let id = inner.cache.next_id()?;
                let entry = Entry::new(sim_account(), new_game(seed(id)?));
                inner.cache.mint(id, entry);
                let tx = inner.ledger.commit(Some(id), "mint_game", Vec::new(), opts);
                (id, tx)
            }
            Some(store) => {
                let (id, tx, generation, seq, entry) = store.write(|tx| {
                    let mut row = tx.world()?;
                    let id = tx.next_free_id(row.next_id)?;
                    let entry = Entry::new(sim_account(), new_game(seed(id)?));
                    row.next_id = id + 1;
                    row.seq += 1;
                    tx.put_game(id, &entry, row.seq)?;
                    let sent =
                        SimTx::next(&mut row.counters, Some(id), "mint_game", Vec::new(), opts);
                    tx.push_tx(&sent, REMEMBERED_TXS)?;
                    tx.set_world(&row)?;
                    Ok::<_, ChainError>((id, sent, row.generation, row.seq, entry))
                })?;
                self.lock().cache.put(generation, seq, id, entry, &[]);
                (id, tx)
            }
        };
        Ok((id, tx.report(&[], vec![transfer(id)])))
    }

    /// Applies an action; a refused action is a simulation-time revert (no transaction). The sim
    /// plays the Dojo world (v1), which has no `surrender`: that is refused before anything runs.
    pub fn apply(
        &self,
        adventurer_id: u64,
        action: &Action,
        opts: &WriteOptions,
    ) -> Result<TxReport, ChainError> {
        if matches!(action, Action::Surrender) {
            return Err(ChainError::Unsupported {
                action: action.entrypoint(),
                generation: chain::generation::v1::GENERATION,
            });
        }
        let Some(store) = &self.store else {
            let mut inner = self.lock();
            let cache = &inner.cache;
            let step = cache
                .step(
                    sim_account(),
                    adventurer_id,
                    cache.peek(adventurer_id),
                    action,
                )
                .map_err(revert)?;
            let entry = Entry {
                owner: step.owner,
                game: step.game.clone(),
                version: step.base_version + 1,
            };
            let (generation, seq) = (inner.cache.generation, inner.cache.seq);
            inner
                .cache
                .put(generation, seq, adventurer_id, entry, &step.collected);
            let tx = inner.ledger.commit(
                Some(adventurer_id),
                action.entrypoint(),
                for_agent(&step.events),
                opts,
            );
            drop(inner);
            return Ok(tx.report(&step.events, Vec::new()));
        };
        let mut force = false;
        for _ in 0..STEP_ATTEMPTS {
            self.refresh(force)?;
            force = true;
            let entry = self.load(adventurer_id)?;
            let step = self
                .lock()
                .cache
                .step(sim_account(), adventurer_id, entry.as_ref(), action);
            let step = match step {
                Ok(step) => step,
                Err(r) => {
                    // Refused on the game read: final unless it moved on meanwhile.
                    let cached = entry.map(|e| e.version);
                    if store.version_of(adventurer_id)? == cached {
                        return Err(revert(r));
                    }
                    continue;
                }
            };
            if let Some(tx) = self.commit_step(store, adventurer_id, action, &step, opts)? {
                return Ok(tx.report(&step.events, Vec::new()));
            }
            tracing::debug!(
                adventurer_id,
                "sim action computed on a game that changed meanwhile; computing it again"
            );
        }
        Err(StoreError::Busy(store.path().to_path_buf()).into())
    }

    /// Commits a step computed on the cache, unless its game or the collection changed in the
    /// store since (`None`); then the cache takes it in.
    pub(super) fn commit_step(
        &self,
        store: &Store,
        adventurer_id: u64,
        action: &Action,
        step: &Step,
        opts: &WriteOptions,
    ) -> Result<Option<SimTx>, ChainError> {
        let events = for_agent(&step.events);
        let committed = store.write(|tx| {
            let mut row = tx.world()?;
            if tx.version(adventurer_id)? != Some(step.base_version)
                || row.collected != step.collection_len
            {
                return Ok::<_, ChainError>(None);
            }
            row.seq += 1;
            let entry = Entry {
                owner: step.owner,
                game: step.game.clone(),
                version: step.base_version + 1,
            };
            tx.put_game(adventurer_id, &entry, row.seq)?;
            row.collected += tx.collect(&step.collected, row.seq)?;
            let sent = SimTx::next(
                &mut row.counters,
                Some(adventurer_id),
                action.entrypoint(),
                events,
                opts,
            );
            tx.push_tx(&sent, REMEMBERED_TXS)?;
            tx.set_world(&row)?;
            Ok(Some((sent, row.generation, row.seq, entry)))
        })?;
        Ok(committed.map(|(sent, generation, seq, entry)| {
            self.lock()
                .cache
                .put(generation, seq, adventurer_id, entry, &step.collected);
            sent
        }))
    }

    /// Adds copies of games (e.g. finished games of another world) to the world as new tokens of
    /// the sim account, in one transaction and with no transaction records; returns their ids.
    /// For benchmarks and tools that need a large world quickly, not for play.
    pub fn import_games(
        &self,
        games: impl IntoIterator<Item = Game>,
    ) -> Result<Vec<u64>, ChainError> {
        let Some(store) = &self.store else {
            let mut inner = self.lock();
            return games
                .into_iter()
                .map(|game| {
                    let id = inner.cache.next_id()?;
                    inner.cache.mint(id, Entry::new(sim_account(), game));
                    Ok(id)
                })
                .collect();
        };
        let ids = store.write(|tx| {
            let mut row = tx.world()?;
            row.seq += 1;
            let mut ids = Vec::new();
            for game in games {
                let id = tx.next_free_id(row.next_id)?;
                tx.put_game(id, &Entry::new(sim_account(), game), row.seq)?;
                row.next_id = id + 1;
                ids.push(id);
            }
            tx.set_world(&row)?;
            Ok::<_, StoreError>(ids)
        })?;
        self.refresh(true)?;
        Ok(ids)
    }
}
