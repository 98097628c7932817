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
use crate::ledger::TxRecord;
use crate::{Execution, TxLookup, TxReport, TxStatus, WriteOptions};
use game::events::GameEvent;

/// How many transactions the history keeps (older ones read as unknown and their events are
/// gone); bounds the state file at a few megabytes.
pub const REMEMBERED_TXS: usize = 4096;

/// One committed sim transaction: its record, as the journal keeps one on a real chain, and what
/// its receipt holds (its block and game events).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(super) struct SimTx {
    #[serde(flatten)]
    record: TxRecord,
    block: u64,
    events: Vec<GameEvent>,
}

/// The world's transaction counters and its transactions, oldest first. Only the counters are
/// serialized with the world: a saved world keeps its transactions in the history file.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub(super) struct Ledger {
    nonce: u64,
    block: u64,
    #[serde(skip)]
    txs: VecDeque<SimTx>,
}

impl SimTx {
    fn report(&self, raw_events: Vec<Event>) -> TxReport {
        TxReport {
            tx_hash: self.record.tx_hash,
            status: self.record.last_status,
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
    pub(super) fn commit(
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
            record: TxRecord {
                tx_hash: hash,
                adventurer_id,
                action: action.to_string(),
                nonce: format!("{:#x}", Felt::from(self.nonce)),
                max_fee: "0".into(),
                signed_at: SystemTime::now()
                    .duration_since(SystemTime::UNIX_EPOCH)
                    .map_or(0, |d| d.as_secs()),
                last_status: TxStatus::reached_by(opts.confirm),
                from_another_chain: false,
            },
            block: self.block,
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
    pub(super) fn take_new(&mut self) -> Vec<SimTx> {
        self.txs.drain(..).collect()
    }

    /// A ledger over transactions read back from a history file.
    pub(super) fn of_history(txs: Vec<SimTx>) -> Self {
        Self {
            nonce: 0,
            block: 0,
            txs: txs.into(),
        }
    }

    /// What is known about a transaction.
    pub(super) fn lookup(&self, tx_hash: Felt) -> TxLookup {
        match self.txs.iter().rev().find(|t| t.record.tx_hash == tx_hash) {
            Some(tx) => {
                let raw = raw_events(&tx.events);
                TxLookup {
                    record: Some(tx.record.clone()),
                    status: tx.record.last_status,
                    execution: Some(Execution::Succeeded),
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
    pub(super) fn events_of(&self, adventurer_id: u64) -> (Vec<GameEvent>, bool) {
        let mut txs = self
            .txs
            .iter()
            .filter(|t| t.record.adventurer_id == Some(adventurer_id))
            .peekable();
        let pruned = txs.peek().is_some_and(|t| t.record.action != "mint_game");
        (txs.flat_map(|t| t.events.iter().cloned()).collect(), pruned)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_history_line_of_the_earlier_form_is_read() {
        let line = r#"{"hash":"0x5a","adventurer_id":7,"action":"explore","nonce":3,"block":3,"signed_at":1700000000,"status":"ACCEPTED_ON_L2","events":[]}"#;
        let tx: SimTx = serde_json::from_str(line).unwrap();
        assert_eq!(tx.record.tx_hash, Felt::from(0x5au32));
        assert_eq!(tx.record.nonce, "0x3");
        assert_eq!(tx.record.max_fee, "0");
        assert_eq!(tx.record.last_status, TxStatus::AcceptedOnL2);
        let found = Ledger::of_history(vec![tx]).lookup(Felt::from(0x5au32));
        assert_eq!(found.record.unwrap().adventurer_id, Some(7));
        assert_eq!(found.report.unwrap().block_number, Some(3));
    }

    #[test]
    fn a_history_line_reads_back_as_written() {
        let mut ledger = Ledger::default();
        let opts = WriteOptions {
            confirm: crate::Confirm::Accepted,
            timeout: std::time::Duration::from_secs(1),
            hooks: Default::default(),
        };
        let sent = ledger.commit(Some(4), "attack", Vec::new(), Vec::new(), &opts);
        let line = serde_json::to_string(&ledger.take_new()[0]).unwrap();
        let back: SimTx = serde_json::from_str(&line).unwrap();
        assert_eq!(back.record.tx_hash, sent.tx_hash);
        assert_eq!(back.record.action, "attack");
        assert_eq!(back.record.nonce, "0x1");
    }
}
