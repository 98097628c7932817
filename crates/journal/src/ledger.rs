//! The ledger of transactions this account signed: every hash is recorded in the journal before
//! it is sent, so a timeout, a cancelled call, a lost connection or a crash never loses one.

use std::sync::Arc;

use starknet::core::types::Felt;

pub use crate::TxRecord;
use crate::{Journal, JournalError, TxStatus, now_ms};

/// Transactions signed by this account, by hash, kept in the journal (durable on real chains).
#[derive(Debug, Clone)]
pub struct TxLedger {
    journal: Arc<Journal>,
}

impl Default for TxLedger {
    fn default() -> Self {
        Self::new(Arc::new(Journal::in_memory()))
    }
}

impl TxLedger {
    /// A ledger kept in `journal`.
    pub fn new(journal: Arc<Journal>) -> Self {
        Self { journal }
    }

    /// The journal behind it.
    pub fn journal(&self) -> &Arc<Journal> {
        &self.journal
    }

    /// Records a transaction about to be sent; on error it must not be sent.
    pub fn record(
        &self,
        hash: Felt,
        adventurer_id: Option<game::AdventurerId>,
        action: &str,
        nonce: Felt,
        max_fee: u128,
    ) -> Result<(), JournalError> {
        let signed_ms = now_ms();
        self.journal.record_tx(
            &TxRecord {
                tx_hash: hash,
                adventurer_id,
                action: action.to_string(),
                nonce: format!("{nonce:#x}"),
                max_fee: max_fee.to_string(),
                signed_at: u64::try_from(signed_ms / 1000).unwrap_or(0),
                last_status: TxStatus::Signed,
                from_another_chain: false,
            },
            signed_ms,
        )
    }

    /// Updates the last known status of a recorded transaction.
    pub fn set_status(&self, hash: Felt, status: TxStatus) {
        self.journal.set_status(hash, status);
    }

    /// The record of a hash, if this account's servers signed it.
    pub fn get(&self, hash: Felt) -> Option<TxRecord> {
        self.journal.tx(hash)
    }

    /// How many transactions were recorded.
    pub fn len(&self) -> usize {
        self.journal.tx_count()
    }

    /// Whether nothing was recorded.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_and_updates_by_hash() {
        let l = TxLedger::default();
        assert!(l.is_empty());
        l.record(
            Felt::from(0xabcu32),
            Some(3.into()),
            "explore",
            Felt::TWO,
            10,
        )
        .unwrap();
        l.set_status(Felt::from(0xabcu32), TxStatus::AcceptedOnL2);
        let r = l.get(Felt::from(0xabcu32)).unwrap();
        assert_eq!(r.tx_hash, Felt::from(0xabcu32));
        assert_eq!(r.adventurer_id, Some(3.into()));
        assert_eq!(r.last_status, TxStatus::AcceptedOnL2);
        assert_eq!(r.nonce, "0x2");
        assert!(l.get(Felt::ONE).is_none());
        assert_eq!(l.len(), 1);
    }
}
