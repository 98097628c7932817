//! One transaction as the journal keeps it.

use serde::{Deserialize, Deserializer, Serialize};
use starknet::core::types::Felt;

use crate::status::TxStatus;

/// What the server knows about one transaction it signed: the journal's row, an in-process
/// chain's history line (with its receipt beside it) and the transaction lookup's `record`. The
/// aliases and defaults read the history lines written before this type was shared.
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
pub struct TxRecord {
    /// The transaction hash (0x-hex).
    #[serde(alias = "hash")]
    #[schemars(with = "String")]
    pub tx_hash: Felt,
    /// The adventurer acted on, when the transaction was a game action.
    pub adventurer_id: Option<game::AdventurerId>,
    /// What was sent (`explore`, `attack`, `mint_game`, …).
    pub action: String,
    /// The account nonce used (0x-hex).
    #[serde(deserialize_with = "hex_or_number")]
    pub nonce: String,
    /// Seconds since the Unix epoch when it was signed.
    pub signed_at: u64,
    /// The fee bound signed into the transaction (smallest unit, decimal).
    #[serde(default = "no_fee")]
    pub max_fee: String,
    /// The last status seen (`SIGNED`, `SENT`, `ACCEPTED_ON_L2`, `REVERTED`, `SEND_FAILED`, …).
    #[serde(alias = "status")]
    pub last_status: TxStatus,
    /// True when it was signed for another chain than the node's (a devnet since restarted, or
    /// another network): kept for the record, never replayed.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub from_another_chain: bool,
}

fn no_fee() -> String {
    "0".into()
}

/// A nonce as written (`"0x3"`), or as a number (an in-process chain's older history lines).
fn hex_or_number<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Form {
        Hex(String),
        Number(u64),
    }
    Ok(match Form::deserialize(d)? {
        Form::Hex(s) => s,
        Form::Number(n) => format!("{:#x}", Felt::from(n)),
    })
}
