//! The state after a landed write and the write's result.
//!
//! The state comes from the transaction's own game events applied to the state known just
//! before it ([`game::after`]): no read, so a lagging node cannot show an older state. It
//! is read only when the events do not determine it (this server did not know the state before,
//! say after a restart, or the embedded chain, whose reads cost nothing), and then read until the
//! node's state shows the transaction (`action_count` equal to the events'): a load-balanced
//! node behind the one that answered the receipt is waited for.

use game::AdventurerId;
use std::time::Duration;

use super::super::envelopes::ActionResult;
use super::super::errors::from_chain;
use super::super::server::LsServer;
use crate::error::{SCHEMA_VERSION, ToolError};
use crate::present::view::adventurer_view;
use chain::{ChainError, TxReport};
use game::after::state_after_events;
use game::engine::Action;
use game::model::GameState;

/// How long a write waits for the node's state to show its transaction (load-balanced nodes lag).
const READ_AFTER_WRITE: Duration = Duration::from_secs(10);

impl LsServer {
    /// The result of a landed write and the state after it.
    pub(crate) async fn finish(
        &self,
        id: AdventurerId,
        report: TxReport,
        action: &Action,
    ) -> Result<(ActionResult, GameState), ToolError> {
        self.indexer.remember(id);
        // A receipt whose generation's events carry no action count: the state, whose count the
        // chain's history gives, is read as the node has it rather than derived from the receipt
        // or waited for at a count.
        let counted = report.counts_actions;
        let derived = if self.backend.reads_are_local() || !counted {
            None
        } else {
            state_after_events(self.known.get(id).as_ref(), &report.events, action)
        };
        let state = match derived {
            Some(state) => state,
            None => {
                let target = report
                    .events
                    .last()
                    .map(|e| e.action_count)
                    .filter(|_| counted);
                self.read_after_write(id, target).await.map_err(|e| {
                    self.known.forget(id);
                    e.with_detail("tx_hash", format!("{:#x}", report.tx_hash))
                        .with_hint("the action landed; read ls_get_adventurer again")
                })?
            }
        };
        self.remember(id, &state);
        if !self.backend.has_change_feed() {
            // The write tells its followers at once; the chain's feed, naming the same
            // transaction later, is then dropped (a backend with a feed tells of every write).
            self.live.publish_tx(Some(report.tx_hash), &[id]);
        }
        Ok((self.action_result(id, report, &state), state))
    }

    /// Reads the state until it shows `action_count == target` (a lagging node catches up).
    async fn read_after_write(
        &self,
        id: AdventurerId,
        target: Option<u16>,
    ) -> Result<GameState, ToolError> {
        let deadline = tokio::time::Instant::now() + READ_AFTER_WRITE;
        loop {
            let state = self.backend.state(id).await.map_err(from_chain)?;
            let caught_up = target.is_none_or(|t| state.adventurer.action_count == t);
            if caught_up || tokio::time::Instant::now() >= deadline {
                if !caught_up {
                    tracing::warn!(%id, "the node's state still lags behind the transaction");
                }
                return Ok(state);
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// Reads an adventurer's state from the chain and remembers it.
    pub(crate) async fn read_state(&self, id: AdventurerId) -> Result<GameState, ToolError> {
        let state = self.backend.state(id).await.map_err(from_chain)?;
        self.remember(id, &state);
        Ok(state)
    }

    /// The state a write validates against: the one this server knows, else a read.
    pub(super) async fn state_before(&self, id: AdventurerId) -> Result<GameState, ToolError> {
        if !self.backend.reads_are_local()
            && let Some(state) = self.known.get(id)
        {
            return Ok(state);
        }
        self.read_state(id).await
    }

    fn remember(&self, id: AdventurerId, state: &GameState) {
        if !self.backend.reads_are_local() {
            self.known.put(id, state);
        }
    }

    /// A refused action on a token that was never minted is `NOT_FOUND` (the contract only says
    /// 'Not token owner'); anything else maps as usual. The known state is forgotten either way.
    pub(super) async fn missing_or(&self, id: AdventurerId, e: ChainError) -> ToolError {
        self.known.forget(id);
        if matches!(&e, ChainError::Revert { .. })
            && matches!(self.backend.owner(id).await, Ok(None))
        {
            return super::super::errors::missing_adventurer(id);
        }
        from_chain(e)
    }

    fn action_result(&self, id: AdventurerId, report: TxReport, state: &GameState) -> ActionResult {
        ActionResult {
            ok: true,
            schema_version: SCHEMA_VERSION.into(),
            chain: self.opts.chain.clone(),
            adventurer_id: id,
            tx_hash: format!("{:#x}", report.tx_hash),
            status: report.status,
            block_number: report.block_number,
            fee_paid: report.actual_fee.to_string(),
            replayed: false,
            mint_tx_hash: None,
            events: report.events,
            adventurer: adventurer_view(id, state),
            earlier: Vec::new(),
        }
    }
}
