//! The sim chain's transaction history: every transaction in its own block, its decoded game
//! events, and lookups by hash and by adventurer (the embedded chain's own indexer). Serializable,
//! so it persists with the world.

use std::collections::VecDeque;
use std::time::SystemTime;

use serde::{Deserialize, Serialize};
use starknet::core::types::{Event, Felt};
use starknet::core::utils::cairo_short_string_to_felt;
use starknet_crypto::poseidon_hash_many;

use super::raw_events;
use crate::chain::ledger::TxRecord;
use crate::chain::{TxLookup, TxReport, TxStatus, WriteOptions};
use crate::game::events::GameEvent;

/// How many transactions the history keeps (older ones read as unknown and their events are
/// gone); bounds the state file at a few megabytes.
pub const REMEMBERED_TXS: usize = 4096;

/// One committed sim transaction.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SimTx {
    hash: Felt,
    adventurer_id: Option<u64>,
    action: String,
    nonce: u64,
    block: u64,
    signed_at: u64,
    status: TxStatus,
    events: Vec<GameEvent>,
}

/// The world's transaction counters and its transactions, oldest first. Only the counters are
/// serialized with the world: a saved world keeps its transactions in the history file.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Ledger {
    nonce: u64,
    block: u64,
    #[serde(skip)]
    txs: VecDeque<SimTx>,
}

impl SimTx {
    fn record(&self) -> TxRecord {
        TxRecord {
            tx_hash: format!("{:#x}", self.hash),
            adventurer_id: self.adventurer_id,
            action: self.action.clone(),
            nonce: format!("{:#x}", Felt::from(self.nonce)),
            max_fee: "0".into(),
            signed_at: self.signed_at,
            last_status: self.status,
            from_another_chain: false,
        }
    }

    fn report(&self, raw_events: Vec<Event>) -> TxReport {
        TxReport {
            tx_hash: self.hash,
            status: self.status,
            block_number: Some(self.block),
            actual_fee: 0,
            events: self.events.clone(),
            raw_events,
        }
    }
}

impl Ledger {
    /// Records one transaction in its own block: its game events as the engine emitted them,
    /// read as an agent reads a receipt's (`GameEventDetails::for_agent`), and its receipt's raw
    /// events (those, encoded as the contract emits them, then `other_events`, such as a mint's
    /// `Transfer`). It is final at once, so no progress is reported.
    pub fn commit(
        &mut self,
        adventurer_id: Option<u64>,
        action: &str,
        events: Vec<GameEvent>,
        other_events: Vec<Event>,
        opts: &WriteOptions,
    ) -> TxReport {
        let mut raw_events = raw_events(&events);
        raw_events.extend(other_events);
        // What the agent reads, as a receipt's events decode on a real chain.
        let events: Vec<GameEvent> = events
            .into_iter()
            .map(|mut e| {
                e.details = e.details.for_agent();
                e
            })
            .collect();
        self.nonce += 1;
        self.block += 1;
        let hash = poseidon_hash_many(&[
            cairo_short_string_to_felt("sim_tx").expect("short ASCII constant"),
            Felt::from(self.nonce),
            Felt::from(adventurer_id.unwrap_or(0)),
        ]);
        let tx = SimTx {
            hash,
            adventurer_id,
            action: action.to_string(),
            nonce: self.nonce,
            block: self.block,
            signed_at: SystemTime::now()
                .duration_since(SystemTime::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs()),
            status: TxStatus::reached_by(opts.confirm),
            events,
        };
        let report = tx.report(raw_events);
        self.txs.push_back(tx);
        while self.txs.len() > REMEMBERED_TXS {
            self.txs.pop_front();
        }
        report
    }

    /// The transactions committed since the last call (to append to a history file).
    pub fn take_new(&mut self) -> Vec<SimTx> {
        self.txs.drain(..).collect()
    }

    /// A ledger over transactions read back from a history file.
    pub fn of_history(txs: Vec<SimTx>) -> Self {
        Self {
            nonce: 0,
            block: 0,
            txs: txs.into(),
        }
    }

    /// What is known about a transaction.
    pub fn lookup(&self, tx_hash: Felt) -> TxLookup {
        match self.txs.iter().rev().find(|t| t.hash == tx_hash) {
            Some(tx) => {
                let raw = raw_events(&tx.events);
                TxLookup {
                    record: Some(tx.record()),
                    status: tx.status,
                    execution: Some("SUCCEEDED".into()),
                    revert_reason: None,
                    report: Some(tx.report(raw)),
                }
            }
            None => TxLookup {
                record: None,
                status: TxStatus::NotReceived,
                execution: None,
                revert_reason: None,
                report: None,
            },
        }
    }

    /// The game events of one adventurer in chain order, and whether older ones were pruned
    /// (the adventurer's first remembered transaction is not its mint).
    pub fn events_of(&self, adventurer_id: u64) -> (Vec<GameEvent>, bool) {
        let mut txs = self
            .txs
            .iter()
            .filter(|t| t.adventurer_id == Some(adventurer_id))
            .peekable();
        let pruned = txs.peek().is_some_and(|t| t.action != "mint_game");
        (txs.flat_map(|t| t.events.iter().cloned()).collect(), pruned)
    }
}
