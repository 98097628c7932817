//! What a write reports while it runs, and what cancels its wait.

use starknet::core::types::Felt;

use crate::TxStatus;

/// A stage of a write, reported while it runs (for MCP progress notifications).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Progress {
    /// The simulation passed; the transaction is about to be signed and sent.
    Simulated {
        /// Estimated fee (before the safety multiplier).
        fee: u128,
    },
    /// The transaction was sent; from here on it is tracked by hash.
    Submitted {
        /// The transaction hash.
        tx_hash: Felt,
    },
    /// The node reported a new status.
    Status {
        /// The transaction hash.
        tx_hash: Felt,
        /// `RECEIVED`, `PRE_CONFIRMED`, `ACCEPTED_ON_L2`, …
        status: TxStatus,
    },
    /// The transaction is not at the level asked for yet: the write waits for a block. Not a
    /// stage of its own; it tells observers that the write is a slow one, worth showing.
    Waiting,
}

/// Observers of one write: where to report progress and what cancels the wait.
#[derive(Debug, Clone, Default)]
pub struct Hooks {
    /// Receives progress stages.
    pub progress: Option<tokio::sync::mpsc::UnboundedSender<Progress>>,
    /// Cancels the wait (never the sent transaction).
    pub cancel: Option<tokio_util::sync::CancellationToken>,
}

impl Hooks {
    /// Reports a stage; a closed receiver is ignored.
    pub fn report(&self, p: Progress) {
        if let Some(tx) = &self.progress {
            let _ = tx.send(p);
        }
    }

    /// Resolves when the wait is cancelled (never, without a token).
    pub(crate) async fn cancelled(&self) {
        match &self.cancel {
            Some(c) => c.cancelled().await,
            None => std::future::pending().await,
        }
    }
}
