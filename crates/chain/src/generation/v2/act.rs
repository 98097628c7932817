//! A v2 action's calls: the GameCore call, after the VRF request its deployment's source asks
//! for when the action draws randomness (docs/generations.md#the-vrf-source).

use game::AdventurerId;
use starknet::core::types::{Call, Felt};

use super::{V2Contracts, VrfSource};
use crate::ChainError;
use crate::vrf::{draws_randomness, may_need_randomness};
use game::engine::Action;
use game::model::Adventurer;

/// `[call]`, or `[request_random, call]` when the action draws randomness under a `nonce` or
/// `salt` source. Where the source is unset, an action that draws is refused before anything is
/// signed or sent. `before` is the state before the action when the source needs it (an equip:
/// to know whether it is in battle); without it the action is taken to draw.
pub(super) fn action_calls(
    c: &V2Contracts,
    account: Felt,
    adventurer_id: AdventurerId,
    action: &Action,
    before: Option<&Adventurer>,
    call: Call,
) -> Result<Vec<Call>, ChainError> {
    if matches!(c.vrf_source, Some(VrfSource::Off)) || !may_need_randomness(action) {
        return Ok(vec![call]);
    }
    let draws = before.is_none_or(|b| draws_randomness(action, b));
    if !draws {
        return Ok(vec![call]);
    }
    let Some(source) = c.vrf_source else {
        return Err(ChainError::VrfSourceUnset {
            action: action.entrypoint(),
        });
    };
    let empty = Adventurer::default();
    let state = before.unwrap_or(&empty);
    let request = c.vrf_request(source, account, adventurer_id, state);
    Ok(request.into_iter().chain([call]).collect())
}
