//! The planner's moves as a player decides them, at once: what it would do next, with the moves
//! that follow without new information folded in. At a level-up that is the stat points, then
//! the purchases, then the first explore step, in one transaction; in a fight, the choice with
//! the fight's rule; and every move goes on exploring by the healing rule until the next beast
//! or level-up.

use starknet_types_core::felt::Felt;

use super::rollout::Replica;
use super::{Decision, Policy};
use crate::AdventurerId;
use crate::engine::{Action, MAX_BATCH};
use crate::model::GameState;
use crate::moves::StandingRule;
use crate::view::{AdventurerView, adventurer_view};

/// A combined move: its first transaction and the rule it goes on with.
#[derive(Debug, Clone, PartialEq)]
pub struct MoveDecision {
    /// The first transaction's action (a batch when it carries several).
    pub action: Action,
    /// The rule after it; `None`: one transaction.
    pub rule: Option<StandingRule>,
    /// Why, for the advice line.
    pub reason: String,
}

impl Policy {
    /// The planner's next move as one decision (see the module's description).
    pub fn decide_move(
        &mut self,
        id: AdventurerId,
        state: &GameState,
        view: &AdventurerView,
    ) -> MoveDecision {
        let on = StandingRule {
            flee_below: None,
            explore: true,
            heal_below: Some(self.params.heal.heal_below),
        };
        let first = self.decide(state, view);
        match first.action {
            Action::Attack { .. } | Action::Flee { .. } => MoveDecision {
                rule: Some(StandingRule {
                    flee_below: Some(self.params.fight.fight_from),
                    ..on
                }),
                action: first.action,
                reason: first.reason,
            },
            Action::Upgrade { .. } | Action::BuyItems { .. } => self.fold(id, state, first, on),
            Action::Explore { .. } => MoveDecision {
                action: Action::Explore { till_beast: true },
                rule: Some(on),
                reason: first.reason.replace("one step", "on"),
            },
            _ => MoveDecision {
                action: first.action,
                rule: None,
                reason: first.reason,
            },
        }
    }

    /// `first` and what the planner decides after it on a copy of the state, as long as those
    /// draw nothing; ending with an explore step, the move goes on by `on`.
    fn fold(
        &mut self,
        id: AdventurerId,
        state: &GameState,
        first: Decision,
        on: StandingRule,
    ) -> MoveDecision {
        let settings = self.settings;
        let single = first.clone();
        let mut copy = Replica::of_state(state, id.low_u64(), Felt::ZERO);
        let mut parts = Vec::new();
        let mut reasons = Vec::new();
        let mut next = first;
        loop {
            let explores = matches!(next.action, Action::Explore { .. });
            let foldable = matches!(
                next.action,
                Action::Upgrade { .. } | Action::BuyItems { .. }
            );
            if explores {
                parts.push(Action::Explore { till_beast: false });
            } else if foldable
                && parts.len() + 1 < MAX_BATCH
                && copy.apply(&next.action, &settings).is_ok()
            {
                parts.push(next.action);
                reasons.push(next.reason);
                let s = copy.state(&settings);
                next = self.decide(&s, &adventurer_view(id, &s));
                continue;
            }
            break;
        }
        let explores = matches!(parts.last(), Some(Action::Explore { .. }));
        match Action::batch(parts) {
            Ok(action) if !reasons.is_empty() => MoveDecision {
                action,
                rule: explores.then_some(on),
                reason: reasons.join("; "),
            },
            _ => MoveDecision {
                action: single.action,
                rule: None,
                reason: single.reason,
            },
        }
    }
}
