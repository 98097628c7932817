//! A retry of a write whose answer was lost (the server stopped between send and receipt): its
//! transaction is found in the journal and followed to its receipt instead of acting again.

use game::AdventurerId;
use std::time::Duration;

use super::super::envelopes::ActionResult;
use super::super::errors::from_chain;
use super::super::server::LsServer;
use crate::error::ToolError;
use chain::{Execution, WriteOptions};
use game::engine::Action;

impl LsServer {
    /// The result of an earlier attempt of this write, if one was interrupted after its send.
    pub(super) async fn resume(
        &self,
        id: AdventurerId,
        expected: u16,
        action: &Action,
        opts: &WriteOptions,
    ) -> Result<Option<ActionResult>, ToolError> {
        let Some(record) = self.replays.interrupted(id, expected, action) else {
            return Ok(None);
        };
        let hash = record.tx_hash;
        tracing::info!(tx_hash = %format!("{hash:#x}"), %id, "a retry finds the transaction of an interrupted write");
        let deadline = tokio::time::Instant::now() + opts.timeout;
        let report = loop {
            let found = self.backend.tx(hash).await.map_err(from_chain)?;
            match (found.execution, found.report) {
                (Some(Execution::Succeeded), Some(report)) => break report,
                (Some(_), _) => return Ok(None),
                _ if tokio::time::Instant::now() >= deadline => {
                    return Err(from_chain(chain::ChainError::Timeout {
                        tx_hash: hash,
                        last_status: found.status,
                    }));
                }
                _ => tokio::time::sleep(Duration::from_millis(250)).await,
            }
        };
        let (mut result, _) = self.finish(id, report, action).await?;
        self.replays.put(id, expected, action, &result);
        result.replayed = true;
        Ok(Some(result))
    }
}
