//! The envelopes of the tools' results: what a write, the adventurer read, a transaction lookup
//! and the wallet answer, in full (`detail: "full"`) and as the compact shapes wrap them.

use game::AdventurerId;
use schemars::JsonSchema;
use serde::Serialize;

use super::compact_result::{CompactActionResult, CompactAdventurerResult, Detailed};
use super::present::view::AdventurerView;
use game::events::GameEvent;

/// The result of every write tool.
#[derive(Debug, Clone, Serialize, serde::Deserialize, JsonSchema)]
pub struct ActionResult {
    /// Always true (failures are tool errors).
    pub ok: bool,
    /// Version of this envelope.
    pub schema_version: String,
    /// The chain profile the action ran on.
    pub chain: String,
    /// The adventurer acted on.
    pub adventurer_id: AdventurerId,
    /// Hash of the transaction (0x-hex).
    pub tx_hash: String,
    /// Finality status reached: PRE_CONFIRMED, ACCEPTED_ON_L2 or ACCEPTED_ON_L1.
    pub status: chain::TxStatus,
    /// Block of the transaction, when in a block.
    pub block_number: Option<u64>,
    /// Fee paid, in the fee token's smallest unit (FRI for STRK), as a decimal string.
    pub fee_paid: String,
    /// True when this is the stored result of an earlier identical call that already landed
    /// (a client retry), not a new transaction.
    pub replayed: bool,
    /// Hash of the mint transaction when `ls_new_game` minted a new adventurer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mint_tx_hash: Option<String>,
    /// The game events of the transaction, in order.
    pub events: Vec<GameEvent>,
    /// The adventurer after the transaction (same shape as `ls_get_adventurer`).
    pub adventurer: AdventurerView,
    /// The transactions a combined move sent before this one, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub earlier: Vec<EarlierTx>,
}

/// A transaction a combined move sent before its last.
#[derive(Debug, Clone, Serialize, serde::Deserialize, JsonSchema)]
pub struct EarlierTx {
    /// Hash (0x-hex).
    pub tx_hash: String,
    /// Finality status reached.
    pub status: chain::TxStatus,
    /// Fee paid, as `fee_paid`.
    pub fee_paid: String,
    /// Its game events, in order.
    pub events: Vec<GameEvent>,
}

impl EarlierTx {
    /// The part of a result kept for a step of a longer move.
    pub(crate) fn of(r: ActionResult) -> Self {
        Self {
            tx_hash: r.tx_hash,
            status: r.status,
            fee_paid: r.fee_paid,
            events: r.events,
        }
    }
}

/// What a write tool returns: compact by default, the full [`ActionResult`] with `detail: "full"`.
pub(crate) type WriteResult = Detailed<CompactActionResult, ActionResult>;

/// What `ls_get_adventurer` returns: compact by default, the full [`AdventurerResult`] with
/// `detail: "full"`.
pub(crate) type ReadResult = Detailed<CompactAdventurerResult, AdventurerResult>;

/// The result of `ls_get_tx`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct TxResult {
    /// Always true (failures are tool errors).
    pub ok: bool,
    /// Version of this envelope.
    pub schema_version: String,
    /// The chain profile read from.
    pub chain: String,
    /// The transaction hash (0x-hex).
    pub tx_hash: String,
    /// NOT_RECEIVED, RECEIVED, CANDIDATE, PRE_CONFIRMED, ACCEPTED_ON_L2 or ACCEPTED_ON_L1.
    pub status: chain::TxStatus,
    /// SUCCEEDED or REVERTED once executed.
    pub execution: Option<String>,
    /// The game's reason when reverted.
    pub revert_reason: Option<String>,
    /// Whether this account's servers signed it, in this run or an earlier one (the journal;
    /// then `record` says what it was).
    pub sent_by_this_server: bool,
    /// What this server recorded when it signed the transaction.
    pub record: Option<chain::ledger::TxRecord>,
    /// Block of the transaction, once in a block.
    pub block_number: Option<u64>,
    /// Fee paid once executed, as a decimal string.
    pub fee_paid: Option<String>,
    /// The decoded game events once executed.
    pub events: Vec<GameEvent>,
}

/// The result of `ls_wallet`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct WalletResult {
    /// Always true (failures are tool errors).
    pub ok: bool,
    /// Version of this envelope.
    pub schema_version: String,
    /// The chain profile.
    pub chain: String,
    /// The signing account, balances, policy and spending; absent on chains without a wallet.
    pub wallet: Option<chain::WalletReport>,
    /// Why there is no wallet, when there is none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// `ls_wallet` takes no arguments.
#[derive(Debug, Clone, serde::Deserialize, JsonSchema)]
pub(crate) struct NoArgs {}

/// The result of `ls_get_adventurer`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct AdventurerResult {
    /// Always true (failures are tool errors).
    pub ok: bool,
    /// Version of this envelope.
    pub schema_version: String,
    /// The chain profile read from.
    pub chain: String,
    /// The adventurer's state, phase, legal actions and market.
    pub adventurer: AdventurerView,
}
