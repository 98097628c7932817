//! A v2 action's calls: the GameCore call, after the VRF request its deployment's source asks
//! for when the action draws randomness (docs/generations.md#the-vrf-source).

use game::AdventurerId;
use starknet::core::types::Call;

use super::ChainClient;
use crate::ChainError;
use crate::deployment::{V2Contracts, VrfSource};
use crate::vrf::{draws_randomness, v2_needs_state};
use game::engine::Action;
use game::model::Adventurer;

impl ChainClient {
    /// The calls of a v2 action: `[call]`, or `[request_random, call]` when it draws randomness
    /// under a `nonce` or `salt` source. Where the source is unset, an action that draws is
    /// refused before anything is read, signed or sent (an equip is read first, to know whether
    /// it is in battle).
    pub(super) async fn v2_calls(
        &self,
        c: &V2Contracts,
        adventurer_id: AdventurerId,
        action: &Action,
        before: Option<&Adventurer>,
        call: Call,
    ) -> Result<Vec<Call>, ChainError> {
        if matches!(c.vrf_source, Some(VrfSource::Off)) || !crate::vrf::may_need_randomness(action)
        {
            return Ok(vec![call]);
        }
        let read;
        let before = match before {
            Some(b) => Some(b),
            None if v2_needs_state(c.vrf_source, action) => {
                read = self.game_state(adventurer_id).await?.adventurer;
                Some(&read)
            }
            None => None,
        };
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
        let request = c.vrf_request(source, self.account_address(), adventurer_id, state);
        Ok(request.into_iter().chain([call]).collect())
    }
}
