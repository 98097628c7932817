//! What a write call asks for (confirmation level, timeout) and how it is observed (progress
//! notifications, cancellation).

use std::time::Duration;

use rmcp::RoleServer;
use rmcp::model::ProgressNotificationParam;
use rmcp::service::RequestContext;

use super::super::args::in_range;
use super::super::params::WriteOpts;
use super::super::server::LsServer;
use crate::error::ToolError;
use chain::{Hooks, Progress, WriteOptions};

/// The longest wait a caller may ask for.
const MAX_TIMEOUT_MS: u64 = 600_000;

/// The longest wait when the caller did not ask for one: answer before typical client timeouts (60 s).
const UNASKED_TIMEOUT_MS: u64 = 50_000;

impl LsServer {
    /// The write options of a call: its confirmation level, its bounded timeout and its hooks.
    pub(crate) fn write_options(
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
///
/// The stages are held back until the write waits for a block ([`Progress::Waiting`]), then sent
/// in order and live from there on. A write whose transaction is in a block at the first receipt
/// (devnet, katana: tens of milliseconds) sends none: its result says it all, and notifications
/// the client must read while the node works would only slow the write.
fn progress_hooks(ctx: &RequestContext<RoleServer>) -> Hooks {
    let progress = ctx.meta.get_progress_token().map(|token| {
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<Progress>();
        let peer = ctx.peer.clone();
        tokio::spawn(async move {
            let mut held = Held::default();
            let mut step = 0.0;
            while let Some(p) = rx.recv().await {
                for p in held.pass(p) {
                    step += 1.0;
                    let param = ProgressNotificationParam::new(token.clone(), step)
                        .with_message(progress_message(&p));
                    if peer.notify_progress(param).await.is_err() {
                        return;
                    }
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

/// The stages of a write held back until it waits for a block.
#[derive(Debug)]
struct Held(Option<Vec<Progress>>);

impl Default for Held {
    fn default() -> Self {
        Self(Some(Vec::new()))
    }
}

impl Held {
    /// The stages to send now that `p` is reported: none while held, all of them (in order) at
    /// the first [`Progress::Waiting`], then each as it comes.
    fn pass(&mut self, p: Progress) -> Vec<Progress> {
        match (&mut self.0, p) {
            (Some(held), Progress::Waiting) => {
                let due = std::mem::take(held);
                self.0 = None;
                due
            }
            (Some(held), p) => {
                held.push(p);
                Vec::new()
            }
            (None, Progress::Waiting) => Vec::new(),
            (None, p) => vec![p],
        }
    }
}

/// What a progress notification says of a stage.
fn progress_message(p: &Progress) -> String {
    match p {
        Progress::Simulated { fee } => {
            format!("simulated: the game accepts the action (estimated fee {fee})")
        }
        Progress::Submitted { tx_hash } => format!("submitted {tx_hash:#x}"),
        Progress::Status { tx_hash, status } => format!("{status} {tx_hash:#x}"),
        Progress::Waiting => "waiting for a block".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use starknet::core::types::Felt;

    #[test]
    fn stages_wait_for_a_block_wait_then_go_in_order() {
        let hash = Felt::from(7u8);
        let status = |s| Progress::Status {
            tx_hash: hash,
            status: s,
        };
        let mut fast = Held::default();
        for p in [
            Progress::Simulated { fee: 1 },
            Progress::Submitted { tx_hash: hash },
            status(chain::TxStatus::AcceptedOnL2),
        ] {
            assert!(
                fast.pass(p).is_empty(),
                "a write landed at once sends nothing"
            );
        }

        let mut slow = Held::default();
        assert!(slow.pass(Progress::Simulated { fee: 1 }).is_empty());
        assert!(slow.pass(Progress::Submitted { tx_hash: hash }).is_empty());
        assert_eq!(
            slow.pass(Progress::Waiting),
            vec![
                Progress::Simulated { fee: 1 },
                Progress::Submitted { tx_hash: hash }
            ]
        );
        assert_eq!(
            slow.pass(status(chain::TxStatus::Received)),
            vec![status(chain::TxStatus::Received)]
        );
        assert!(slow.pass(Progress::Waiting).is_empty(), "never sent itself");
        assert_eq!(
            slow.pass(status(chain::TxStatus::AcceptedOnL2)),
            vec![status(chain::TxStatus::AcceptedOnL2)]
        );
    }
}
