//! The ledger of transactions this server run signed: every hash is recorded before it is sent,
//! so a timeout, a cancelled call or a lost connection never loses a transaction.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::SystemTime;

use serde::Serialize;
use starknet::core::types::Felt;

/// What the server knows about one transaction it signed.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct TxRecord {
    /// The transaction hash (0x-hex).
    pub tx_hash: String,
    /// The adventurer acted on, when the transaction was a game action.
    pub adventurer_id: Option<u64>,
    /// What was sent (`explore`, `attack`, `mint_game`, …).
    pub action: String,
    /// The account nonce used.
    pub nonce: String,
    /// Seconds since the Unix epoch when it was signed.
    pub signed_at: u64,
    /// The fee bound signed into the transaction (smallest unit, decimal).
    pub max_fee: String,
    /// The last status seen (`SIGNED`, `SENT`, `ACCEPTED_ON_L2`, `REVERTED`, `SEND_FAILED`, …).
    pub last_status: String,
}

/// Transactions signed by this server run, by hash.
#[derive(Debug, Default)]
pub struct TxLedger {
    records: Mutex<HashMap<Felt, TxRecord>>,
}

impl TxLedger {
    /// Records a transaction about to be sent.
    pub fn record(
        &self,
        hash: Felt,
        adventurer_id: Option<u64>,
        action: &str,
        nonce: Felt,
        max_fee: u128,
    ) {
        let signed_at = SystemTime::now()
            .duration_since(SystemTime::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        self.lock().insert(
            hash,
            TxRecord {
                tx_hash: format!("{hash:#x}"),
                adventurer_id,
                action: action.to_string(),
                nonce: format!("{nonce:#x}"),
                max_fee: max_fee.to_string(),
                signed_at,
                last_status: "SIGNED".into(),
            },
        );
    }

    /// Updates the last known status of a recorded transaction.
    pub fn set_status(&self, hash: Felt, status: &str) {
        if let Some(r) = self.lock().get_mut(&hash) {
            r.last_status = status.to_string();
        }
    }

    /// The record of a hash, if this server signed it.
    pub fn get(&self, hash: Felt) -> Option<TxRecord> {
        self.lock().get(&hash).cloned()
    }

    /// How many transactions were recorded.
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    /// Whether nothing was recorded.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<Felt, TxRecord>> {
        self.records.lock().unwrap_or_else(|p| p.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_and_updates_by_hash() {
        let l = TxLedger::default();
        assert!(l.is_empty());
        l.record(Felt::from(0xabcu32), Some(3), "explore", Felt::TWO, 10);
        l.set_status(Felt::from(0xabcu32), "ACCEPTED_ON_L2");
        let r = l.get(Felt::from(0xabcu32)).unwrap();
        assert_eq!(r.tx_hash, "0xabc");
        assert_eq!(r.adventurer_id, Some(3));
        assert_eq!(r.last_status, "ACCEPTED_ON_L2");
        assert_eq!(r.nonce, "0x2");
        assert!(l.get(Felt::ONE).is_none());
        assert_eq!(l.len(), 1);
    }
}
