//! A retry of a write whose answer was lost (the server stopped between send and receipt): its
//! transaction is found in the journal and followed to its receipt instead of acting again.

use std::time::Duration;

use super::super::envelopes::ActionResult;
use super::super::errors::from_chain;
use super::super::server::LsServer;
use crate::chain::{GameAction, WriteOptions};
use crate::error::ToolError;

impl LsServer {
    /// The result of an earlier attempt of this write, if one was interrupted after its send.
    pub(super) async fn resume(
        &self,
        id: u64,
        expected: u16,
        action: &GameAction,
        opts: &WriteOptions,
    ) -> Result<Option<ActionResult>, ToolError> {
        let Some(record) = self.replays.interrupted(id, expected, action) else {
            return Ok(None);
        };
        let hash = crate::game::felt::parse_felt(&record.tx_hash).map_err(ToolError::validation)?;
        tracing::info!(tx_hash = %record.tx_hash, id, "a retry finds the transaction of an interrupted write");
        let deadline = tokio::time::Instant::now() + opts.timeout;
        let report = loop {
            let found = self.backend.tx(hash).await.map_err(from_chain)?;
            match (found.execution.as_deref(), found.report) {
                (Some("SUCCEEDED"), Some(report)) => break report,
                (Some(_), _) => return Ok(None),
                _ if tokio::time::Instant::now() >= deadline => {
                    return Err(from_chain(crate::chain::ChainError::Timeout {
                        tx_hash: hash,
                        last_status: found.status,
                    }));
                }
                _ => tokio::time::sleep(Duration::from_millis(250)).await,
            }
        };
        let starts_game = matches!(action, GameAction::StartGame { .. });
        let (mut result, _) = self.finish(id, report, starts_game).await?;
        self.replays.put(id, expected, action, &result);
        result.replayed = true;
        Ok(Some(result))
    }
}
