//! Torii's JSON form of `ls_0_0_9-GameEvent` (a row of `event_messages_historical`) decoded into the
//! same [`GameEvent`] the write tools return. The JSON is flattened into the Cairo-Serde felt layout
//! (docs/game-rules.md#encoding, #events) with a small type description, then decoded by the game
//! layer's own decoder, so both paths share one set of range checks and names.
//!
//! Accepted encodings: integers as numbers or hex/decimal strings; enums as `{"option": "Variant",
//! "Variant": payload}`, `{"Variant": payload}` or a bare `"Variant"` (unit variants); variant
//! names compared case-insensitively.

use serde_json::Value;
use starknet_types_core::felt::Felt;

use super::values;
use game::events::{GameEvent, GameEventDetails};
use game::felt::FeltReader;

/// A Cairo type, as far as its Serde layout goes.
enum Ty {
    /// Any integer type: one felt.
    Int,
    /// `bool`: one felt, 0 or 1.
    Bool,
    /// No payload (unit enum variant).
    Unit,
    /// Members in declaration order.
    Struct(&'static [(&'static str, Ty)]),
    /// Variants in index order.
    Enum(&'static [(&'static str, Ty)]),
    /// `Span<T>` / `Array<T>`: length then elements.
    Array(&'static Ty),
}

const ITEM: Ty = Ty::Struct(&[("id", Ty::Int), ("xp", Ty::Int)]);

const STATS: Ty = Ty::Struct(&[
    ("strength", Ty::Int),
    ("dexterity", Ty::Int),
    ("vitality", Ty::Int),
    ("intelligence", Ty::Int),
    ("wisdom", Ty::Int),
    ("charisma", Ty::Int),
    ("luck", Ty::Int),
]);

const SLOT: Ty = Ty::Enum(&[
    ("None", Ty::Unit),
    ("Weapon", Ty::Unit),
    ("Chest", Ty::Unit),
    ("Head", Ty::Unit),
    ("Waist", Ty::Unit),
    ("Foot", Ty::Unit),
    ("Hand", Ty::Unit),
    ("Neck", Ty::Unit),
    ("Ring", Ty::Unit),
]);

const ADVENTURER: Ty = Ty::Struct(&[
    ("health", Ty::Int),
    ("xp", Ty::Int),
    ("gold", Ty::Int),
    ("beast_health", Ty::Int),
    ("stat_upgrades_available", Ty::Int),
    ("stats", STATS),
    (
        "equipment",
        Ty::Struct(&[
            ("weapon", ITEM),
            ("chest", ITEM),
            ("head", ITEM),
            ("waist", ITEM),
            ("foot", ITEM),
            ("hand", ITEM),
            ("neck", ITEM),
            ("ring", ITEM),
        ]),
    ),
    ("item_specials_seed", Ty::Int),
    ("action_count", Ty::Int),
]);

const BAG: Ty = Ty::Struct(&[
    ("item_1", ITEM),
    ("item_2", ITEM),
    ("item_3", ITEM),
    ("item_4", ITEM),
    ("item_5", ITEM),
    ("item_6", ITEM),
    ("item_7", ITEM),
    ("item_8", ITEM),
    ("item_9", ITEM),
    ("item_10", ITEM),
    ("item_11", ITEM),
    ("item_12", ITEM),
    ("item_13", ITEM),
    ("item_14", ITEM),
    ("item_15", ITEM),
    ("mutated", Ty::Bool),
]);

const ATTACK: Ty = Ty::Struct(&[
    ("damage", Ty::Int),
    ("location", SLOT),
    ("critical_hit", Ty::Bool),
]);

const ITEMS: Ty = Ty::Struct(&[("items", Ty::Array(&Ty::Int))]);

/// `GameEventDetails`, variants in index order (docs/game-rules.md#events).
const DETAILS: Ty = Ty::Enum(&[
    ("adventurer", ADVENTURER),
    ("bag", BAG),
    (
        "beast",
        Ty::Struct(&[
            ("id", Ty::Int),
            ("seed", Ty::Int),
            ("health", Ty::Int),
            ("level", Ty::Int),
            (
                "specials",
                Ty::Struct(&[
                    ("special1", Ty::Int),
                    ("special2", Ty::Int),
                    ("special3", Ty::Int),
                ]),
            ),
            ("is_collectable", Ty::Bool),
        ]),
    ),
    (
        "discovery",
        Ty::Struct(&[
            (
                "discovery_type",
                Ty::Enum(&[("Gold", Ty::Int), ("Health", Ty::Int), ("Loot", Ty::Int)]),
            ),
            ("xp_reward", Ty::Int),
        ]),
    ),
    (
        "obstacle",
        Ty::Struct(&[
            ("obstacle_id", Ty::Int),
            ("dodged", Ty::Bool),
            ("damage", Ty::Int),
            ("location", SLOT),
            ("critical_hit", Ty::Bool),
            ("xp_reward", Ty::Int),
        ]),
    ),
    (
        "defeated_beast",
        Ty::Struct(&[
            ("beast_id", Ty::Int),
            ("gold_reward", Ty::Int),
            ("xp_reward", Ty::Int),
        ]),
    ),
    (
        "fled_beast",
        Ty::Struct(&[("beast_id", Ty::Int), ("xp_reward", Ty::Int)]),
    ),
    ("stat_upgrade", Ty::Struct(&[("stats", STATS)])),
    (
        "buy_items",
        Ty::Struct(&[
            ("potions", Ty::Int),
            (
                "items_purchased",
                Ty::Array(&Ty::Struct(&[("item_id", Ty::Int), ("equip", Ty::Bool)])),
            ),
        ]),
    ),
    ("equip", ITEMS),
    ("drop", ITEMS),
    ("level_up", Ty::Struct(&[("level", Ty::Int)])),
    ("market_items", ITEMS),
    ("ambush", ATTACK),
    ("attack", ATTACK),
    ("beast_attack", ATTACK),
    ("flee", Ty::Bool),
]);

/// Decodes one event row's `data` (a JSON object, or a string holding one).
pub fn decode_event(data: &Value) -> Result<GameEvent, String> {
    let parsed;
    let data = match data {
        Value::String(s) => {
            parsed = serde_json::from_str::<Value>(s)
                .map_err(|e| format!("event data is not JSON: {e}"))?;
            &parsed
        }
        v => v,
    };
    let adventurer_id = data
        .get("adventurer_id")
        .and_then(values::u64_of)
        .ok_or("event has no valid adventurer_id")?;
    let action_count = data
        .get("action_count")
        .and_then(values::u64_of)
        .and_then(|v| u16::try_from(v).ok())
        .ok_or("event has no valid action_count")?;
    let details = data.get("details").ok_or("event has no details")?;
    let mut felts = Vec::new();
    flatten(details, &DETAILS, "details", &mut felts)?;
    let mut r = FeltReader::new(&felts);
    let details = GameEventDetails::decode_felts(&mut r).map_err(|e| e.to_string())?;
    r.finish().map_err(|e| e.to_string())?;
    Ok(GameEvent {
        adventurer_id: adventurer_id.into(),
        action_count,
        details,
    })
}

fn flatten(v: &Value, ty: &Ty, path: &str, out: &mut Vec<Felt>) -> Result<(), String> {
    match ty {
        Ty::Int => out.push(values::felt(v).ok_or_else(|| format!("`{path}`: not an integer"))?),
        Ty::Bool => {
            let b = values::bool_of(v).ok_or_else(|| format!("`{path}`: not a boolean"))?;
            out.push(Felt::from(b));
        }
        Ty::Unit => {}
        Ty::Struct(members) => {
            let obj = v
                .as_object()
                .ok_or_else(|| format!("`{path}`: not an object"))?;
            for (name, mty) in *members {
                let member = obj
                    .get(*name)
                    .ok_or_else(|| format!("`{path}`: missing `{name}`"))?;
                flatten(member, mty, &format!("{path}.{name}"), out)?;
            }
        }
        Ty::Enum(variants) => {
            let (name, payload) = variant_of(v).ok_or_else(|| format!("`{path}`: not an enum"))?;
            let index = variants
                .iter()
                .position(|(n, _)| n.eq_ignore_ascii_case(name))
                .ok_or_else(|| format!("`{path}`: unknown variant `{name}`"))?;
            out.push(Felt::from(index));
            let (vname, vty) = &variants[index];
            match (vty, payload) {
                (Ty::Unit, _) => {}
                (_, Some(p)) => flatten(p, vty, &format!("{path}.{vname}"), out)?,
                (_, None) => return Err(format!("`{path}`: variant `{vname}` has no payload")),
            }
        }
        Ty::Array(elem) => {
            let items = v
                .as_array()
                .ok_or_else(|| format!("`{path}`: not an array"))?;
            out.push(Felt::from(items.len()));
            for (i, item) in items.iter().enumerate() {
                flatten(item, elem, &format!("{path}[{i}]"), out)?;
            }
        }
    }
    Ok(())
}

/// The variant name and payload of an enum value in any of Torii's encodings.
fn variant_of(v: &Value) -> Option<(&str, Option<&Value>)> {
    match v {
        Value::String(name) => Some((name, None)),
        Value::Object(obj) => {
            if let Some(name) = obj.get("option").and_then(Value::as_str) {
                let payload = obj
                    .iter()
                    .find(|(k, _)| k.eq_ignore_ascii_case(name))
                    .map(|(_, p)| p);
                return Some((name, payload));
            }
            let mut entries = obj.iter();
            match (entries.next(), entries.next()) {
                (Some((name, payload)), None) => Some((name, Some(payload))),
                _ => None,
            }
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use game::catalogue::Slot;
    use game::events::{AttackEvent, Discovery};
    use serde_json::json;

    #[test]
    fn attack_event_with_option_encoding() {
        let e = decode_event(&json!({
            "adventurer_id": "0x00000000000001ef",
            "action_count": 7,
            "details": {"option": "beast_attack", "beast_attack": {
                "damage": "0xc", "location": "Chest", "critical_hit": false}}
        }))
        .unwrap();
        assert_eq!(e.adventurer_id, 0x1ef);
        assert_eq!(e.action_count, 7);
        assert_eq!(
            e.details,
            GameEventDetails::BeastAttack(AttackEvent {
                damage: 12,
                location: Slot::Chest,
                critical_hit: false
            })
        );
    }

    #[test]
    fn externally_tagged_enums_and_string_data_decode_too() {
        let data = json!({
            "adventurer_id": 3,
            "action_count": "0x2",
            "details": {"discovery": {"discovery_type": {"Loot": 12}, "xp_reward": 1}}
        })
        .to_string();
        let e = decode_event(&Value::String(data)).unwrap();
        match e.details {
            GameEventDetails::Discovery {
                discovery: Discovery::Loot { item },
                xp_reward,
            } => {
                assert_eq!(item.id, 12);
                assert_eq!(item.name, "Wand");
                assert_eq!(xp_reward, 1);
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn arrays_and_bool_payloads() {
        let e = decode_event(&json!({"adventurer_id": 1, "action_count": 1,
            "details": {"option": "market_items", "market_items": {"items": [1, "0x2"]}}}))
        .unwrap();
        assert!(
            matches!(e.details, GameEventDetails::MarketItems { ref items } if items.len() == 2)
        );
        let e = decode_event(&json!({"adventurer_id": 1, "action_count": 1,
            "details": {"option": "flee", "flee": true}}))
        .unwrap();
        assert_eq!(e.details, GameEventDetails::Flee { success: true });
    }

    #[test]
    fn malformed_events_are_errors_naming_the_field() {
        let base =
            |details: Value| json!({"adventurer_id": 1, "action_count": 1, "details": details});
        let e = decode_event(&base(json!({"option": "teleport", "teleport": {}}))).unwrap_err();
        assert!(e.contains("teleport"), "{e}");
        let e =
            decode_event(&base(json!({"option": "attack", "attack": {"damage": 1}}))).unwrap_err();
        assert!(e.contains("location"), "{e}");
        let e = decode_event(&base(
            json!({"option": "level_up", "level_up": {"level": 300}}),
        ))
        .unwrap_err();
        assert!(e.contains("level"), "{e}");
        assert!(decode_event(&json!({"action_count": 1, "details": "flee"})).is_err());
        assert!(decode_event(&Value::String("{not json".into())).is_err());
    }
}
