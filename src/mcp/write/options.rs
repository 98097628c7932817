//! What a write call asks for (confirmation level, timeout) and how it is observed (progress
//! notifications, cancellation).

use std::time::Duration;

use rmcp::RoleServer;
use rmcp::model::ProgressNotificationParam;
use rmcp::service::RequestContext;

use super::super::args::in_range;
use super::super::params::WriteOpts;
use super::super::server::LsServer;
use crate::chain::{Hooks, Progress, WriteOptions};
use crate::error::ToolError;

/// The longest wait a caller may ask for.
const MAX_TIMEOUT_MS: u64 = 600_000;

/// The longest wait when the caller did not ask for one: answer before typical client timeouts (60 s).
const UNASKED_TIMEOUT_MS: u64 = 50_000;

impl LsServer {
    /// The write options of a call: its confirmation level, its bounded timeout and its hooks.
    pub(in crate::mcp) fn write_options(
        &self,
        o: &WriteOpts,
        ctx: &RequestContext<RoleServer>,
    ) -> Result<WriteOptions, ToolError> {
        let timeout = match o.timeout_ms {
            Some(ms) => {
                in_range("timeout_ms", ms, 1, MAX_TIMEOUT_MS)?;
                Duration::from_millis(ms)
            }
            None => self
                .opts
                .default_timeout
                .min(Duration::from_millis(UNASKED_TIMEOUT_MS)),
        };
        Ok(WriteOptions {
            confirm: o.confirm.unwrap_or_default(),
            timeout,
            hooks: progress_hooks(ctx),
        })
    }
}

/// Progress notifications (when the request carries a progress token) and cancellation for a write.
fn progress_hooks(ctx: &RequestContext<RoleServer>) -> Hooks {
    let progress = ctx.meta.get_progress_token().map(|token| {
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<Progress>();
        let peer = ctx.peer.clone();
        tokio::spawn(async move {
            let mut step = 0.0;
            while let Some(p) = rx.recv().await {
                step += 1.0;
                let message = match p {
                    Progress::Simulated { fee } => {
                        format!("simulated: the game accepts the action (estimated fee {fee})")
                    }
                    Progress::Submitted { tx_hash } => format!("submitted {tx_hash:#x}"),
                    Progress::Status { tx_hash, status } => format!("{status} {tx_hash:#x}"),
                };
                let param =
                    ProgressNotificationParam::new(token.clone(), step).with_message(message);
                if peer.notify_progress(param).await.is_err() {
                    break;
                }
            }
        });
        tx
    });
    Hooks {
        progress,
        cancel: Some(ctx.ct.clone()),
    }
}
