//! A combined move's standing rule run after its first transaction: each next step (a fight
//! round, an explore step with its potions) is one more write through the same path, until the
//! decision is the player's again. The answer is the last write's, with every earlier
//! transaction's hash and events before it.

use game::AdventurerId;
use game::engine::Action;
use game::model::GameState;
use game::moves::{RuleRun, StandingRule};

use super::super::envelopes::{ActionResult, EarlierTx};
use super::super::server::LsServer;
use crate::error::ToolError;
use chain::WriteOptions;

/// Most transactions one move sends after its first (a call must end in reasonable time).
pub(crate) const MAX_STEPS: usize = 40;

impl LsServer {
    /// Runs `rule` from the state `first` left, one write per step, and folds the writes into
    /// one result (the state after the last). A refusal mid-way names the step and keeps the
    /// hashes of what was sent.
    pub(super) async fn go_on(
        &self,
        id: AdventurerId,
        rule: StandingRule,
        mut last: ActionResult,
        mut state: GameState,
        opts: &WriteOptions,
    ) -> Result<(ActionResult, GameState), ToolError> {
        let settings = self.backend.deterministic_rules().unwrap_or_default();
        let mut run = RuleRun::new(rule, &last.adventurer.view);
        let mut earlier = Vec::new();
        for _ in 0..MAX_STEPS {
            let Some(next) = run.next(&state, &last.adventurer.view, &settings) else {
                break;
            };
            let step = earlier.len() + 2;
            let (result, after) = self
                .write_full(None, id, next.clone(), opts.clone(), None)
                .await
                .map_err(|e| stopped(e, step, &next, &earlier, &last))?;
            earlier.push(EarlierTx::of(last));
            last = result;
            state = match after {
                Some(s) => s,
                None => self.read_state(id).await?,
            };
        }
        last.earlier = earlier;
        Ok((last, state))
    }
}

/// A step's refusal, saying which step it was and what the move had already sent.
fn stopped(
    e: ToolError,
    step: usize,
    action: &Action,
    earlier: &[EarlierTx],
    last: &ActionResult,
) -> ToolError {
    let sent: Vec<&str> = earlier
        .iter()
        .map(|t| t.tx_hash.as_str())
        .chain([last.tx_hash.as_str()])
        .collect();
    let message = format!(
        "{} (step {step} of the move, {}: not sent; the {} transaction(s) before it landed)",
        e.message,
        action.entrypoint(),
        sent.len()
    );
    ToolError {
        message,
        retryable: false,
        ..e
    }
    .with_detail("step", step)
    .with_detail("sent_tx_hashes", sent)
    .with_hint("ls_get_adventurer shows where the move stopped; decide from there")
}
