//! Exact predictions for worlds whose randomness is deterministic (`poseidon(xp, adventurer_id)`,
//! no VRF): replay an action on a copy of the game and summarise what would happen.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::game::Game;
use super::settings::EngineSettings;
use super::world::Collection;
use super::{Action, Revert};
use crate::events::GameEventDetails;
use crate::model::GameState;

/// How a predicted action ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum PredictedEnd {
    /// The beast dies.
    BeastKilled,
    /// The adventurer escapes.
    Fled,
    /// The adventurer dies.
    Died,
    /// Both still stand (a single round that decided nothing).
    FightContinues,
}

/// The exact result of one action.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Prediction {
    /// How it ends.
    pub end: PredictedEnd,
    /// Your attacks (attack) or flee attempts (flee).
    pub rounds: u16,
    /// Damage you deal.
    pub damage_dealt: u16,
    /// Your critical hits.
    pub critical_hits: u16,
    /// Damage the beast deals.
    pub damage_taken: u16,
    /// Your health afterwards.
    pub health_after: u16,
    /// The beast's health afterwards.
    pub beast_health_after: u16,
    /// Xp gained.
    pub xp_gained: u16,
    /// Gold gained.
    pub gold_gained: u16,
    /// Your level afterwards.
    pub level_after: u8,
}

/// Replays `action` for adventurer `id` on a copy of `state` under `settings`.
pub fn predict(
    id: u64,
    state: &GameState,
    action: &Action,
    settings: &EngineSettings,
) -> Result<Prediction, Revert> {
    let mut game = Game::from_state(state);
    let out = game.apply(id, action, settings, &Collection::new())?;
    let (mut rounds, mut dealt, mut crits, mut taken) = (0u16, 0u16, 0u16, 0u16);
    let (mut killed, mut fled) = (false, false);
    for e in &out.events {
        match &e {
            GameEventDetails::Attack(a) => {
                rounds += 1;
                dealt = dealt.saturating_add(a.damage);
                crits += u16::from(a.critical_hit);
            }
            GameEventDetails::Flee { success } => {
                rounds += 1;
                fled |= *success;
            }
            GameEventDetails::BeastAttack(a) => taken = taken.saturating_add(a.damage),
            GameEventDetails::DefeatedBeast { .. } => killed = true,
            _ => {}
        }
    }
    let before = &state.adventurer;
    let after = &game.adventurer;
    let end = if !after.is_alive() {
        PredictedEnd::Died
    } else if killed {
        PredictedEnd::BeastKilled
    } else if fled {
        PredictedEnd::Fled
    } else {
        PredictedEnd::FightContinues
    };
    Ok(Prediction {
        end,
        rounds,
        damage_dealt: dealt,
        critical_hits: crits,
        damage_taken: taken,
        health_after: after.health,
        beast_health_after: after.beast_health,
        xp_gained: after.xp.saturating_sub(before.xp),
        gold_gained: after.gold.saturating_sub(before.gold),
        level_after: after.level(),
    })
}
