//! The write path behind every write tool: replay a retry that already landed, refuse stale
//! calls, validate against the state, act on the chain, and answer with the state after the
//! action. One file per job: the known states (`known`), the call's options and progress
//! (`options`), a retry of an interrupted write (`resume`), the state after a write and its
//! result (`finish`), the answer's detail (`render`) and `ls_new_game`'s flow (`new_game`).
//!
//! In steady state a write on a chain costs three JSON-RPC requests: the fee estimate
//! (simulation), the send, and one receipt; the state after it comes from the receipt's events.

mod finish;
mod go_on;
mod known;
mod new_game;
mod options;
mod parts;
mod render;
mod resume;

use game::AdventurerId;
use rmcp::RoleServer;
use rmcp::handler::server::wrapper::Json;
use rmcp::service::RequestContext;
use schemars::JsonSchema;
use serde::de::DeserializeOwned;

pub(super) use known::KnownStates;
pub(super) use new_game::NewGame;

use super::args::Args;
use super::envelopes::{ActionResult, WriteResult};
use super::params::ActionArgs;
use super::server::LsServer;
use crate::error::{ErrorCode, ToolError};
use crate::present::compact::Detail;
use chain::WriteOptions;
use game::engine::Action;
use game::model::GameState;
use game::moves::StandingRule;
use game::phase::{Phase, phase};

/// A check of the adventurer's state that a write must pass (after the replay lookup).
pub(super) type Check = dyn Fn(&GameState) -> Result<(), ToolError> + Send + Sync;

/// A borrowed [`Check`].
pub(super) type StateCheck<'a> = &'a Check;

/// The game action a tool's arguments ask for, the check of the state it must pass, if any, and
/// for a combined move the rule it goes on with.
pub(super) struct Asked {
    pub action: Action,
    pub check: Option<Box<Check>>,
    /// What the move goes on with after its first transaction.
    pub rule: Option<StandingRule>,
    /// The first transaction is an explore step built from the state: potions first when health
    /// is below this fraction of the maximum (`ls_explore`'s `heal_below`).
    pub heal_first: Option<f64>,
}

impl From<Action> for Asked {
    fn from(action: Action) -> Self {
        Self {
            action,
            check: None,
            rule: None,
            heal_first: None,
        }
    }
}

/// `VALIDATION_ERROR` for an action on an adventurer whose state (as this server read or
/// derived it last) says dead: nothing is built, simulated or sent.
fn refuse_if_dead(id: AdventurerId, state: &GameState) -> Result<(), ToolError> {
    if phase(&state.adventurer) != Phase::Dead {
        return Ok(());
    }
    Err(ToolError::validation(format!(
        "adventurer {id} is dead (health 0 at action_count {}): its game is over, so nothing was sent",
        state.adventurer.action_count
    ))
    .with_detail("adventurer_id", id)
    .with_detail("phase", "dead")
    .with_detail("reason_code", "ADVENTURER_DEAD")
    .with_hint("start a new game with ls_new_game; ls_get_adventurer still reads this one"))
}

impl LsServer {
    /// The one path of every game-action tool: the arguments parsed, the write options read
    /// (and checked) before the action, then [`Self::write`].
    pub(super) async fn act<A: ActionArgs + DeserializeOwned + JsonSchema + 'static>(
        &self,
        args: Args<A>,
        ctx: &RequestContext<RoleServer>,
        ask: impl FnOnce(&A) -> Result<Asked, ToolError>,
    ) -> Result<Json<WriteResult>, ToolError> {
        let a = args.parse(self.opts.strict)?;
        let opts = self.write_options(a.opts(), ctx)?;
        let Asked {
            mut action,
            check,
            rule,
            heal_first,
        } = ask(&a)?;
        let (o, id) = (a.opts(), a.adventurer_id());
        if let Some(heal_below) = heal_first {
            let state = self.state_before(id).await?;
            let view = game::view::adventurer_view(id, &state);
            action = game::moves::explore_step(&view, Some(heal_below));
        }
        let (full, state) = self
            .write_full(
                o.expected_action_count,
                id,
                action,
                opts.clone(),
                check.as_deref(),
            )
            .await?;
        let (full, state) = match (rule, state) {
            (Some(rule), Some(state)) => {
                let (full, state) = self.go_on(id, rule, full, state, &opts).await?;
                (full, Some(state))
            }
            (_, state) => (full, state),
        };
        self.render(o.detail, full, state).await
    }

    /// Runs one game action and answers in the detail asked for.
    pub(super) async fn write(
        &self,
        detail: Option<Detail>,
        expected_action_count: Option<u16>,
        id: AdventurerId,
        action: Action,
        opts: WriteOptions,
        check: Option<StateCheck<'_>>,
    ) -> Result<Json<WriteResult>, ToolError> {
        let (full, state) = self
            .write_full(expected_action_count, id, action, opts, check)
            .await?;
        self.render(detail, full, state).await
    }

    /// Runs one game action: replays a retry of an action that already landed on this chain
    /// (before any other check, and only while the node knows its transaction), refuses stale calls, runs `check` on the state this server knows (read when
    /// it knows none), and returns the full result and the state after the transaction (no
    /// state for a replay).
    pub(super) async fn write_full(
        &self,
        expected_action_count: Option<u16>,
        id: AdventurerId,
        action: Action,
        opts: WriteOptions,
        check: Option<StateCheck<'_>>,
    ) -> Result<(ActionResult, Option<GameState>), ToolError> {
        let _busy = self.drain.enter()?;
        let _adventurer = self.replays.lock_adventurer(id).await;
        if let Some(expected) = expected_action_count {
            if let Some(mut earlier) = self.replays.get(id, expected, &action)
                && self.node_knows(&earlier.tx_hash).await?
            {
                earlier.replayed = true;
                return Ok((earlier, None));
            }
            if let Some(earlier) = self.resume(id, expected, &action, &opts).await? {
                return Ok((earlier, None));
            }
        }
        // A game this server last saw end is refused before anything is built or simulated.
        if let Some(known) = self.known.get(id) {
            refuse_if_dead(id, &known)?;
        }
        let mut before = None;
        let batch = matches!(action, Action::Batch(_));
        if expected_action_count.is_some() || check.is_some() || batch {
            let state = self.state_before(id).await?;
            refuse_if_dead(id, &state)?;
            let actual = state.adventurer.action_count;
            if let Some(expected) = expected_action_count
                && actual != expected
            {
                return Err(ToolError::new(
                    ErrorCode::StaleState,
                    format!(
                        "adventurer {id} is at action_count {actual}, not {expected}: it moved on since you looked"
                    ),
                )
                .with_detail("expected_action_count", expected)
                .with_detail("action_count", actual)
                .with_hint("read ls_get_adventurer and decide again"));
            }
            if let Some(check) = check {
                if matches!(self.minted(id, &state).await, Ok(false)) {
                    return Err(super::errors::missing_adventurer(id));
                }
                check(&state)?;
            }
            let settings = self.backend.deterministic_rules().unwrap_or_default();
            parts::check_parts(id, &action, &state, &settings)?;
            before = Some(state);
        }
        if before.is_none() && self.backend.needs_state_to_act(&action) {
            let state = self.state_before(id).await?;
            refuse_if_dead(id, &state)?;
            before = Some(state);
        }
        if let Some(expected) = expected_action_count {
            self.replays.begin(id, expected, &action);
        }
        let held = before.as_ref().map(|s| &s.adventurer);
        let report = match self.backend.act(id, &action, held, opts).await {
            Ok(r) => r,
            Err(e) => return Err(self.missing_or(id, e).await),
        };
        let (result, state) = self.finish(id, report, &action).await?;
        if let Some(expected) = expected_action_count {
            self.replays.put(id, expected, &action, &result);
        }
        Ok((result, Some(state)))
    }

    /// Whether the node knows the transaction of a stored result: one it has never received
    /// belongs to a chain since replaced (a devnet restarted with the same chain id and block
    /// 0), so the write is made afresh instead of replayed.
    async fn node_knows(&self, tx_hash: &str) -> Result<bool, ToolError> {
        let hash = game::felt::parse_felt(tx_hash).map_err(ToolError::validation)?;
        let found = self
            .backend
            .tx(hash)
            .await
            .map_err(super::errors::from_chain)?;
        let known = found.status != chain::TxStatus::NotReceived;
        if !known {
            tracing::warn!(
                tx_hash,
                "a stored result's transaction is unknown to the node: not replayed"
            );
        }
        Ok(known)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_game_that_ended_is_refused() {
        let id = AdventurerId::from(7u64);
        let mut s = GameState::default();
        assert!(
            refuse_if_dead(id, &s).is_ok(),
            "not started: health 0, no weapon"
        );
        s.adventurer.equipment.weapon.id = 46;
        s.adventurer.health = 3;
        s.adventurer.action_count = 9;
        assert!(refuse_if_dead(id, &s).is_ok(), "alive");
        s.adventurer.health = 0;
        let e = refuse_if_dead(id, &s).unwrap_err();
        assert_eq!((e.code, e.retryable), (ErrorCode::ValidationError, false));
        assert!(
            e.message.starts_with("adventurer 7 is dead"),
            "{}",
            e.message
        );
        assert_eq!(e.details["reason_code"], "ADVENTURER_DEAD");
        assert!(e.hint.unwrap().contains("ls_new_game"));
    }
}
