//! A v2 action's calls: the GameCore call, after the VRF request its deployment's source asks
//! for when the action draws randomness (docs/generations.md#the-vrf-source).

use game::AdventurerId;
use game::token_fields::TokenFields;
use starknet::core::types::{Call, Felt};

use super::{V2Contracts, VrfSource};
use crate::ChainError;
use crate::vrf::{draws_randomness, may_need_randomness};
use game::engine::Action;
use game::model::Adventurer;

/// `[call]`, or `[request_random, call]` when the action draws randomness under a `nonce` or
/// `salt` source. Where the source is unset, or holds for other game settings than the game's, an
/// action that draws is refused before anything is signed or sent. `before` is the state before
/// the action when the source needs it (an equip: to know whether it is in battle); without it the
/// action is taken to draw.
pub(super) fn action_calls(
    c: &V2Contracts,
    account: Felt,
    adventurer_id: AdventurerId,
    action: &Action,
    before: Option<&Adventurer>,
    call: Call,
) -> Result<Vec<Call>, ChainError> {
    if !may_need_randomness(action) {
        return Ok(vec![call]);
    }
    let draws = before.is_none_or(|b| draws_randomness(action, b));
    if !draws {
        return Ok(vec![call]);
    }
    let fields = TokenFields::of(adventurer_id);
    if let Some(settled) = c.vrf_settings
        && fields.is_packed()
        && fields.settings_id != settled
    {
        return Err(ChainError::VrfSettingsDiffer {
            action: action.entrypoint(),
            adventurer_id,
            settings_id: fields.settings_id,
            settled,
        });
    }
    if matches!(c.vrf_source, Some(VrfSource::Off)) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SaltRecipe;

    /// A packed token id of settings `settings_id` (minted at a time, so it is packed).
    fn token(settings_id: u32) -> AdventurerId {
        let low = u128::from(settings_id) << 70 | 1;
        let high: u128 = 1_767_225_600;
        AdventurerId::from(Felt::from(low) + Felt::from(high) * Felt::TWO.pow(128_u32))
    }

    fn explore(c: &V2Contracts, id: AdventurerId) -> Result<Vec<Call>, ChainError> {
        let action = Action::Explore { till_beast: false };
        let call = super::super::calls::action_call(c.game_core, id, &action);
        action_calls(c, Felt::from(0xacc_u16), id, &action, None, call)
    }

    #[test]
    fn a_game_of_other_settings_is_refused_a_draw_and_the_consumer_is_the_caller() {
        let mut c = V2Contracts::numbered(Some(VrfSource::Salt(SaltRecipe::AdventurerState)));
        c.vrf_settings = Some(1);
        c.vrf_consumer = Some(Felt::from(0x5b5_u16));
        let calls = explore(&c, token(1)).unwrap();
        assert_eq!(calls.len(), 2);
        assert_eq!(
            calls[0].calldata[0],
            Felt::from(0x5b5_u16),
            "request_random's caller"
        );
        let e = explore(&c, token(2)).unwrap_err();
        assert!(
            matches!(
                e,
                ChainError::VrfSettingsDiffer {
                    settings_id: 2,
                    settled: 1,
                    ..
                }
            ),
            "{e}"
        );
        // An id that is not a packed token has no settings to hold against.
        assert_eq!(explore(&c, AdventurerId::from(7)).unwrap().len(), 2);
        // Off holds for its settings too.
        c.vrf_source = Some(VrfSource::Off);
        assert_eq!(explore(&c, token(1)).unwrap().len(), 1);
        assert!(explore(&c, token(2)).is_err());
        // Without a consumer, GameCore is the caller.
        let plain = V2Contracts::numbered(Some(VrfSource::Nonce));
        assert_eq!(
            explore(&plain, token(5)).unwrap()[0].calldata[0],
            plain.game_core
        );
    }

    #[test]
    fn a_batch_asks_first_for_the_salt_of_the_state_its_last_part_starts_from() {
        use crate::generation::{ActContext, GameGeneration};
        use game::model::{Item, Stats};
        use starknet::macros::selector;
        let c = V2Contracts::numbered(Some(VrfSource::Salt(SaltRecipe::AdventurerState)));
        let id = AdventurerId::from(7u64);
        let mut before = Adventurer {
            health: 50,
            xp: 30,
            gold: 100,
            stat_upgrades_available: 1,
            action_count: 9,
            ..Adventurer::default()
        };
        before.equipment.weapon = Item { id: 12, xp: 0 };
        let batch = Action::Batch(vec![
            Action::Upgrade {
                stats: Stats {
                    vitality: 1,
                    ..Stats::default()
                },
            },
            Action::BuyItems {
                potions: 2,
                items: Vec::new(),
            },
            Action::Explore { till_beast: false },
        ]);
        let ctx = ActContext {
            account: Felt::from(0xacc_u16),
            chain_vrf: false,
        };
        let calls = c.action_calls(ctx, id, &batch, Some(&before)).unwrap();
        let selectors: Vec<Felt> = calls.iter().map(|c| c.selector).collect();
        assert_eq!(
            selectors,
            [
                selector!("request_random"),
                selector!("select_stat_upgrades"),
                selector!("buy_items"),
                selector!("explore"),
            ]
        );
        // A vitality point heals 15 and two potions 20: the explore step starts at 85.
        let at_explore = Adventurer {
            health: 85,
            ..before
        };
        let salt = SaltRecipe::AdventurerState.salt(id, &at_explore);
        assert_eq!(calls[0].calldata.last(), Some(&salt));
        let e = c
            .action_calls(
                ctx,
                id,
                &Action::Batch(vec![
                    Action::Explore { till_beast: false },
                    Action::Explore { till_beast: false },
                ]),
                Some(&before),
            )
            .unwrap_err();
        assert!(e.to_string().contains("part 0 (explore)"), "{e}");
    }
}
