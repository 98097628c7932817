//! The GameEvent encoder: a decoded event back to the felts a contract emits, for the practice
//! chain and round-trip tests (the decoders are in the parent module).

use starknet_types_core::felt::Felt;

use super::{
    AttackEvent, Discovery, EVENT_EMITTED_SELECTOR, GAME_EVENT_SELECTOR, GameEvent,
    GameEventDetails, ItemRef,
};

/// Encodes an event into `(keys, data)` as the v1 world emits it (inverse of
/// [`super::decode_game_event`], which refuses v2's variants 17–19); used by the practice chain
/// and tests. `system` is the emitting system's address (keys[2]).
pub fn encode_game_event(event: &GameEvent, system: Felt) -> (Vec<Felt>, Vec<Felt>) {
    let mut values = vec![Felt::from(event.action_count)];
    encode_details(&event.details, &mut values);
    let mut data = vec![
        Felt::ONE,
        event.adventurer_id.felt(),
        Felt::from(values.len()),
    ];
    data.extend(values);
    (
        vec![EVENT_EMITTED_SELECTOR, GAME_EVENT_SELECTOR, system],
        data,
    )
}

fn encode_items(items: &[ItemRef], out: &mut Vec<Felt>) {
    out.push(Felt::from(items.len()));
    out.extend(items.iter().map(|i| Felt::from(i.id)));
}

fn encode_attack(a: &AttackEvent, out: &mut Vec<Felt>) {
    out.extend([
        Felt::from(a.damage),
        Felt::from(a.location.index()),
        Felt::from(a.critical_hit),
    ]);
}

/// Appends `[variant_index, ...payload]` (variants 17–19 as GameCore emits them).
pub(crate) fn encode_details(d: &GameEventDetails, out: &mut Vec<Felt>) {
    use GameEventDetails as D;
    let index: u8 = match d {
        D::Adventurer(_) => 0,
        D::Bag(_) => 1,
        D::Beast(_) => 2,
        D::Discovery { .. } => 3,
        D::Obstacle(_) => 4,
        D::DefeatedBeast { .. } => 5,
        D::FledBeast { .. } => 6,
        D::StatUpgrade { .. } => 7,
        D::BuyItems { .. } => 8,
        D::Equip { .. } => 9,
        D::Drop { .. } => 10,
        D::LevelUp { .. } => 11,
        D::MarketItems { .. } => 12,
        D::Ambush(_) => 13,
        D::Attack(_) => 14,
        D::BeastAttack(_) => 15,
        D::Flee { .. } => 16,
        D::Randomness(_) => 17,
        D::Collectable(_) => 18,
        D::CollectableStats(_) => 19,
    };
    out.push(Felt::from(index));
    match d {
        D::Adventurer(a) => a.encode_felts(out),
        D::Bag(b) => b.encode_felts(out),
        D::Beast(b) => b.to_beast_event().encode_felts(out),
        D::Discovery {
            discovery,
            xp_reward,
        } => {
            match discovery {
                Discovery::Gold { amount } => out.extend([Felt::ZERO, Felt::from(*amount)]),
                Discovery::Health { amount } => out.extend([Felt::ONE, Felt::from(*amount)]),
                Discovery::Loot { item } => out.extend([Felt::TWO, Felt::from(item.id)]),
            }
            out.push(Felt::from(*xp_reward));
        }
        D::Obstacle(o) => out.extend([
            Felt::from(o.obstacle_id),
            Felt::from(o.dodged),
            Felt::from(o.damage.max(o.avoided_damage)),
            Felt::from(o.location.index()),
            Felt::from(o.critical_hit),
            Felt::from(o.xp_reward),
        ]),
        D::DefeatedBeast {
            beast_id,
            gold_reward,
            xp_reward,
            ..
        } => out.extend([
            Felt::from(*beast_id),
            Felt::from(*gold_reward),
            Felt::from(*xp_reward),
        ]),
        D::FledBeast {
            beast_id,
            xp_reward,
            ..
        } => out.extend([Felt::from(*beast_id), Felt::from(*xp_reward)]),
        D::StatUpgrade { stats } => stats.encode_felts(out),
        D::BuyItems {
            potions,
            items_purchased,
        } => {
            out.push(Felt::from(*potions));
            out.push(Felt::from(items_purchased.len()));
            for p in items_purchased {
                out.extend([Felt::from(p.item_id), Felt::from(p.equip)]);
            }
        }
        D::Equip { items } | D::Drop { items } | D::MarketItems { items } => {
            encode_items(items, out)
        }
        D::LevelUp { level } => out.push(Felt::from(*level)),
        D::Ambush(a) | D::Attack(a) | D::BeastAttack(a) => encode_attack(a, out),
        D::Flee { success } => out.push(Felt::from(*success)),
        D::Randomness(p) | D::Collectable(p) => out.extend_from_slice(&p.felts),
        D::CollectableStats(c) => c.encode_felts(out),
    }
}
