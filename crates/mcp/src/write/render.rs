//! A write's answer in the detail asked for: the full [`ActionResult`], or the compact shape
//! built from the state after the action.

use rmcp::handler::server::wrapper::Json;

use super::super::compact_result::{Detailed, WriteOutcome, compact_action};
use super::super::envelopes::{ActionResult, WriteResult};
use super::super::server::LsServer;
use crate::error::ToolError;
use crate::present::compact::Detail;
use chain::TxStatus;
use game::model::GameState;

impl LsServer {
    /// The result in the detail asked for. The compact shape needs the state after the action
    /// (its view is the full result's); a replayed result has no state stored, so the current
    /// state is read.
    pub(crate) async fn render(
        &self,
        detail: Option<Detail>,
        full: ActionResult,
        state: Option<GameState>,
    ) -> Result<Json<WriteResult>, ToolError> {
        if detail.unwrap_or(self.detail) == Detail::Full {
            return Ok(Json(Detailed::Full(full)));
        }
        let (state, view) = match state {
            Some(s) => (s, Some(full.adventurer)),
            None => (self.read_state(full.adventurer_id).await?, None),
        };
        // A combined move's earlier transactions: their hashes, and their events before the last's.
        let events: Vec<_> = full
            .earlier
            .iter()
            .flat_map(|t| &t.events)
            .chain(&full.events)
            .cloned()
            .collect();
        let outcome = WriteOutcome {
            adventurer_id: full.adventurer_id,
            tx_hash: &full.tx_hash,
            earlier: full.earlier.iter().map(|t| t.tx_hash.as_str()).collect(),
            pre_confirmed: full.status == TxStatus::PreConfirmed,
            replayed: full.replayed,
            mint_tx_hash: full.mint_tx_hash.clone(),
            events: &events,
        };
        Ok(Json(Detailed::Compact(compact_action(
            outcome,
            &state,
            view.as_ref(),
            &self.rendering(),
        ))))
    }
}
