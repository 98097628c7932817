//! The sim chain's transaction history: every transaction in its own block, its decoded game
//! events, and lookups by hash and by adventurer (the embedded chain's own indexer). A world in
//! memory keeps it here; a saved world keeps the same transactions in its store.

use std::collections::VecDeque;
use std::time::SystemTime;

use serde::{Deserialize, Serialize};
use starknet::core::types::{Event, Felt};
use starknet::core::utils::cairo_short_string_to_felt;
use starknet_crypto::poseidon_hash_many;

use super::raw_events;
use chain::ledger::TxRecord;
use chain::{Execution, TxLookup, TxReport, TxStatus, WriteOptions};
use game::events::GameEvent;

/// How many transactions the history keeps (older ones read as unknown and their events are
/// gone); bounds the history of a long-lived world.
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

/// The world's transaction counters: the last nonce and block given out.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(super) struct Counters {
    pub(super) nonce: u64,
    pub(super) block: u64,
}

/// A world in memory's counters and transactions, oldest first. Its serialized form (the
/// counters) is the one the JSON world files of earlier versions hold.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub(super) struct Ledger {
    #[serde(flatten)]
    counters: Counters,
    #[serde(skip)]
    txs: VecDeque<SimTx>,
}

/// The game events as an agent reads a receipt's (`GameEventDetails::for_agent`): what a
/// transaction stores and reports.
pub(super) fn for_agent(events: &[GameEvent]) -> Vec<GameEvent> {
    events
        .iter()
        .map(|e| GameEvent {
            details: e.details.clone().for_agent(),
            ..e.clone()
        })
        .collect()
}

impl SimTx {
    /// The next transaction after `counters` (which it advances), in its own block, carrying
    /// `events` (already read as an agent reads them, see [`for_agent`]). It is final at once.
    pub(super) fn next(
        counters: &mut Counters,
        adventurer_id: Option<u64>,
        action: &str,
        events: Vec<GameEvent>,
        opts: &WriteOptions,
    ) -> Self {
        counters.nonce += 1;
        counters.block += 1;
        let hash = poseidon_hash_many(&[
            cairo_short_string_to_felt("sim_tx").expect("short ASCII constant"),
            Felt::from(counters.nonce),
            Felt::from(adventurer_id.unwrap_or(0)),
        ]);
        Self {
            record: TxRecord {
                tx_hash: hash,
                adventurer_id: adventurer_id.map(game::AdventurerId::from),
                action: action.to_string(),
                nonce: format!("{:#x}", Felt::from(counters.nonce)),
                max_fee: "0".into(),
                signed_at: SystemTime::now()
                    .duration_since(SystemTime::UNIX_EPOCH)
                    .map_or(0, |d| d.as_secs()),
                last_status: TxStatus::reached_by(opts.confirm),
                from_another_chain: false,
            },
            block: counters.block,
            events,
        }
    }

    /// The transaction's hash.
    pub(super) fn hash(&self) -> Felt {
        self.record.tx_hash
    }

    /// The adventurer it acted on (`None` for none).
    pub(super) fn adventurer_id(&self) -> Option<u64> {
        self.record.adventurer_id.and_then(|id| id.to_u64())
    }

    /// Its receipt: the game events the engine emitted (`engine_events`, encoded as the contract
    /// emits them), then `other_events` (such as a mint's `Transfer`), as raw events; the stored
    /// events as the decoded ones. No progress is reported: it is final at once.
    pub(super) fn report(&self, engine_events: &[GameEvent], other_events: Vec<Event>) -> TxReport {
        let mut raw = raw_events(engine_events);
        raw.extend(other_events);
        self.receipt(raw)
    }

    fn receipt(&self, raw_events: Vec<Event>) -> TxReport {
        TxReport {
            tx_hash: self.record.tx_hash,
            status: self.record.last_status,
            block_number: Some(self.block),
            actual_fee: 0,
            events: self.events.clone(),
            // The sim plays the Dojo world, whose events carry the count.
            counts_actions: true,
            raw_events,
        }
    }
}

impl Ledger {
    /// The counters (to carry a world of the earlier file format over).
    pub(super) fn counters(&self) -> Counters {
        self.counters
    }

    /// Records the next transaction (see [`SimTx::next`]), forgetting the oldest past
    /// [`REMEMBERED_TXS`]; returns it.
    pub(super) fn commit(
        &mut self,
        adventurer_id: Option<u64>,
        action: &str,
        events: Vec<GameEvent>,
        opts: &WriteOptions,
    ) -> SimTx {
        let tx = SimTx::next(&mut self.counters, adventurer_id, action, events, opts);
        self.txs.push_back(tx.clone());
        while self.txs.len() > REMEMBERED_TXS {
            self.txs.pop_front();
        }
        tx
    }

    /// A ledger over transactions read back from a store.
    pub(super) fn of_history(txs: Vec<SimTx>) -> Self {
        Self {
            counters: Counters::default(),
            txs: txs.into(),
        }
    }

    /// What is known about a transaction.
    pub(super) fn lookup(&self, tx_hash: Felt) -> TxLookup {
        match self.txs.iter().rev().find(|t| t.record.tx_hash == tx_hash) {
            Some(tx) => TxLookup {
                record: Some(tx.record.clone()),
                status: tx.record.last_status,
                execution: Some(Execution::Succeeded),
                revert_reason: None,
                report: Some(tx.receipt(raw_events(&tx.events))),
            },
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
            .filter(|t| t.record.adventurer_id == Some(adventurer_id.into()))
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
        assert_eq!(found.record.unwrap().adventurer_id, Some(7.into()));
        assert_eq!(found.report.unwrap().block_number, Some(3));
    }

    #[test]
    fn a_history_line_reads_back_as_written() {
        let mut ledger = Ledger::default();
        let opts = WriteOptions {
            confirm: chain::Confirm::Accepted,
            timeout: std::time::Duration::from_secs(1),
            hooks: Default::default(),
        };
        let sent = ledger.commit(Some(4), "attack", Vec::new(), &opts);
        let line = serde_json::to_string(&sent).unwrap();
        let back: SimTx = serde_json::from_str(&line).unwrap();
        assert_eq!(back.record.tx_hash, sent.hash());
        assert_eq!(back.record.action, "attack");
        assert_eq!(back.record.nonce, "0x1");
    }
}
