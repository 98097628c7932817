//! Game events in the JSON shape Torii stores in `event_messages_historical.data`: the event's
//! `Ty::to_json_value` (dojoengine/torii v1.8.0 crates/sqlite/sqlite/src/executor/mod.rs, which
//! serializes `em_query.ty.to_json_value()`; dojoengine/dojo crates/dojo/types/src/schema.rs):
//! structs as objects, every enum as `{"Variant": payload}` with `[]` for a unit variant, u8/u16/
//! u32 as JSON numbers, bool as JSON booleans, u64/u128/felt252 as decimal strings, arrays as JSON
//! arrays. Written independently of the client's decoder so the two check each other.

use game::catalogue::Slot;
use game::events::{Discovery, GameEvent, GameEventDetails};
use game::model::{Adventurer, Bag, Item, Stats};
use serde_json::{Value, json};

/// A u64 as `to_json_value` writes it: a decimal string.
pub fn u64_json(v: u64) -> Value {
    Value::String(v.to_string())
}

/// A unit enum variant: `{"Name": []}` (the variant's type is the empty tuple).
fn unit(name: &str) -> Value {
    json!({ name: [] })
}

fn slot(s: Slot) -> Value {
    unit(
        [
            "None", "Weapon", "Chest", "Head", "Waist", "Foot", "Hand", "Neck", "Ring",
        ][s.index() as usize],
    )
}

fn item(i: &Item) -> Value {
    json!({"id": i.id, "xp": i.xp})
}

fn stats(s: &Stats) -> Value {
    json!({"strength": s.strength, "dexterity": s.dexterity, "vitality": s.vitality,
        "intelligence": s.intelligence, "wisdom": s.wisdom, "charisma": s.charisma, "luck": s.luck})
}

pub fn adventurer(a: &Adventurer) -> Value {
    let e = &a.equipment;
    json!({
        "health": a.health, "xp": a.xp, "gold": a.gold, "beast_health": a.beast_health,
        "stat_upgrades_available": a.stat_upgrades_available, "stats": stats(&a.stats),
        "equipment": {"weapon": item(&e.weapon), "chest": item(&e.chest), "head": item(&e.head),
            "waist": item(&e.waist), "foot": item(&e.foot), "hand": item(&e.hand),
            "neck": item(&e.neck), "ring": item(&e.ring)},
        "item_specials_seed": a.item_specials_seed, "action_count": a.action_count,
    })
}

fn bag(b: &Bag) -> Value {
    let mut m = serde_json::Map::new();
    for (i, it) in b.items.iter().enumerate() {
        m.insert(format!("item_{}", i + 1), item(it));
    }
    m.insert("mutated".into(), json!(b.mutated));
    Value::Object(m)
}

fn attack(damage: u16, location: Slot, critical_hit: bool) -> Value {
    json!({"damage": damage, "location": slot(location), "critical_hit": critical_hit})
}

fn ids(items: &[game::events::ItemRef]) -> Value {
    json!({"items": items.iter().map(|i| i.id).collect::<Vec<_>>()})
}

/// The `details` enum of a game event.
pub fn details(d: &GameEventDetails) -> Value {
    use GameEventDetails as D;
    let payload = match d {
        D::Adventurer(a) => adventurer(a),
        D::Bag(b) => bag(b),
        D::Beast(b) => json!({"id": b.id, "seed": u64_json(b.seed), "health": b.health,
            "level": b.level, "specials": {"special1": b.specials.special1,
            "special2": b.specials.special2, "special3": b.specials.special3},
            "is_collectable": b.is_collectable}),
        D::Discovery {
            discovery,
            xp_reward,
        } => {
            let t = match discovery {
                Discovery::Gold { amount } => json!({"Gold": amount}),
                Discovery::Health { amount } => json!({"Health": amount}),
                Discovery::Loot { item } => json!({"Loot": item.id}),
            };
            json!({"discovery_type": t, "xp_reward": xp_reward})
        }
        D::Obstacle(o) => json!({"obstacle_id": o.obstacle_id, "dodged": o.dodged,
            "damage": o.damage.max(o.avoided_damage), "location": slot(o.location), "critical_hit": o.critical_hit,
            "xp_reward": o.xp_reward}),
        D::DefeatedBeast {
            beast_id,
            gold_reward,
            xp_reward,
            ..
        } => json!({"beast_id": beast_id, "gold_reward": gold_reward, "xp_reward": xp_reward}),
        D::FledBeast {
            beast_id,
            xp_reward,
            ..
        } => json!({"beast_id": beast_id, "xp_reward": xp_reward}),
        D::StatUpgrade { stats: s } => json!({"stats": stats(s)}),
        D::BuyItems {
            potions,
            items_purchased,
        } => json!({"potions": potions, "items_purchased": items_purchased.iter()
            .map(|p| json!({"item_id": p.item_id, "equip": p.equip})).collect::<Vec<_>>()}),
        D::Equip { items } | D::Drop { items } | D::MarketItems { items } => ids(items),
        D::LevelUp { level } => json!({"level": level}),
        D::Ambush(a) | D::Attack(a) | D::BeastAttack(a) => {
            attack(a.damage, a.location, a.critical_hit)
        }
        D::Flee { success } => json!(success),
        D::Randomness(_) | D::Collectable(_) | D::CollectableStats(_) => {
            unreachable!("Torii serves the Dojo world's events, which have no variant 17-19")
        }
    };
    json!({ d.kind(): payload })
}

/// The `data` of an `event_messages_historical` row for a game event.
pub fn event_data(e: &GameEvent) -> Value {
    json!({
        "adventurer_id": u64_json(e.adventurer_id.to_u64().expect("a v1 id")),
        "action_count": e.action_count,
        "details": details(&e.details),
    })
}
