//! The adventurer snapshot a player decides from: derived values (level, max health, prices,
//! phase, market verdicts) with names, deterministic JSON. The tool surface adds its legal tools.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::beast_display::BeastDisplay;
use super::catalogue::{self, ItemType, Slot, Tier};
use super::id::AdventurerId;
use super::model::{GameState, Item, SpecialPowers, Stats};
use super::phase::{self, Phase};
use super::rules;
use super::token_fields::TokenInfo;

/// An equipped item with its catalogue facts and derived greatness.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct EquippedItemView {
    /// Slot it is equipped in.
    pub slot: Slot,
    /// Item id.
    pub id: u8,
    /// Item name with its specials when unlocked (e.g. "Katana of Power").
    pub name: String,
    /// Tier.
    pub tier: Tier,
    /// Combat type.
    #[serde(rename = "type")]
    pub item_type: ItemType,
    /// Item xp.
    pub xp: u16,
    /// Greatness (item level, 1..=20).
    pub greatness: u8,
    /// Specials (all 0 below greatness 15 or before the specials seed is set).
    pub specials: SpecialPowers,
}

/// A bagged item with its catalogue facts and derived greatness.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ItemView {
    /// Item id.
    pub id: u8,
    /// Item name with its specials when unlocked.
    pub name: String,
    /// Tier.
    pub tier: Tier,
    /// Slot it would be equipped in.
    pub slot: Slot,
    /// Combat type.
    #[serde(rename = "type")]
    pub item_type: ItemType,
    /// Item xp.
    pub xp: u16,
    /// Greatness.
    pub greatness: u8,
}

/// The beast currently being fought.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct BeastView {
    /// Beast id.
    pub id: u8,
    /// Name with specials (e.g. "Demon Grasp Dragon").
    pub name: String,
    /// Tier.
    pub tier: Tier,
    /// Combat type.
    #[serde(rename = "type")]
    pub beast_type: ItemType,
    /// Beast level.
    pub level: u16,
    /// Current health (the adventurer's `beast_health`).
    pub health: u16,
    /// Health at the start of the fight.
    pub starting_health: u16,
    /// Name specials.
    pub specials: SpecialPowers,
    /// Whether killing it mints a collectable.
    pub is_collectable: bool,
}

/// An item on sale, with the price after charisma.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct MarketItemView {
    /// Item id.
    pub id: u8,
    /// Item name.
    pub name: String,
    /// Tier.
    pub tier: Tier,
    /// Slot.
    pub slot: Slot,
    /// Combat type.
    #[serde(rename = "type")]
    pub item_type: ItemType,
    /// Price in gold after charisma.
    pub price: u16,
    /// True if already equipped or bagged (buying it would revert).
    pub owned: bool,
    /// True if the gold pays for it now.
    pub affordable: bool,
    /// Upgrade, downgrade, same or empty_slot for its slot (weapons and armor by power, jewelry
    /// by luck), if bought and equipped.
    pub verdict: super::verdict::Verdict,
    /// What buying it with `equip: true` would change.
    pub effect: ItemEffect,
}

/// What equipping a newly bought item (greatness 1) would change.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ItemEffect {
    /// The item now in that slot, which would move to the bag.
    pub replaces: Option<String>,
    /// Base power of the new item: attack for a weapon, armor for armor (tier multiplier ×
    /// greatness 1); 0 for jewelry.
    pub power: u16,
    /// Base power of the item now in the slot (0 if the slot is empty).
    pub current_power: u16,
    /// Change of luck (critical-hit chance) if equipped; a replaced jewel still counts from the bag.
    pub luck_change: i16,
    /// One line for humans and agents.
    pub summary: String,
}

/// Everything an agent needs to decide its next move, derived from one `GameState`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct AdventurerView {
    /// Adventurer (game token) id.
    pub adventurer_id: AdventurerId,
    /// The packed token id's dungeon, settings, start and expiry (second-generation ids only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token: Option<TokenInfo>,
    /// Phase in the game loop.
    pub phase: Phase,
    /// Level (isqrt of xp, 1 at 0).
    pub level: u8,
    /// Current health.
    pub health: u16,
    /// Max health from vitality.
    pub max_health: u16,
    /// Experience.
    pub xp: u16,
    /// Gold.
    pub gold: u16,
    /// Unspent stat points.
    pub stat_upgrades_available: u8,
    /// Stats including item boosts and luck.
    pub stats: Stats,
    /// Equipped items in slot order; empty slots omitted.
    pub equipment: Vec<EquippedItemView>,
    /// Bag items in bag order.
    pub bag: Vec<ItemView>,
    /// The beast, only while in battle.
    pub beast: Option<BeastView>,
    /// Market (deduplicated, sorted by id); empty when the market is closed.
    pub market: Vec<MarketItemView>,
    /// Price of one potion (+10 health) now.
    pub potion_price: u16,
    /// How many potions the market would sell now (health limit and gold; 0 when closed).
    pub max_potions: u8,
    /// Action counter (increments once per transaction).
    pub action_count: u16,
}

/// What buying `id` and equipping it would change for this adventurer.
pub fn item_effect(state: &GameState, id: u8) -> ItemEffect {
    let adv = &state.adventurer;
    let Some(info) = catalogue::item(id) else {
        return ItemEffect {
            replaces: None,
            power: 0,
            current_power: 0,
            luck_change: 0,
            summary: format!("unknown item #{id}"),
        };
    };
    let current = adv.equipment.get(info.slot);
    let current_info = catalogue::item(current.id);
    let jewelry = matches!(info.slot, Slot::Neck | Slot::Ring);
    let power_of = |tier: Tier, greatness: u8| {
        if jewelry {
            0
        } else {
            rules::attack_hp(tier, greatness.into())
        }
    };
    let power = power_of(info.tier, 1);
    let current_power = current_info.map_or(0, |c| power_of(c.tier, current.greatness()));
    let mut equipment = adv.equipment;
    let mut bag = state.bag;
    equipment.set(info.slot, Item { id, xp: 0 });
    if let Some(free) = bag.items.iter_mut().find(|i| i.is_empty())
        && !current.is_empty()
    {
        *free = current;
    }
    let luck_change = i16::from(rules::luck(&equipment, &bag))
        - i16::from(rules::luck(&adv.equipment, &state.bag));
    let what = match info.slot {
        Slot::Weapon => "attack",
        _ => "armor",
    };
    let summary = match (current_info, jewelry) {
        (_, true) => format!(
            "{:?}: luck {luck_change:+} if equipped (+1 if kept in the bag){}",
            info.slot,
            current_info.map_or(String::new(), |c| format!("; replaces {}", c.name))
        ),
        (None, false) => format!(
            "fills your empty {:?} slot: {what} {power} ({:?}, greatness 1)",
            info.slot, info.tier
        ),
        (Some(c), false) => format!(
            "{:?}: {what} {power} ({:?}, greatness 1) instead of {} {current_power} ({:?}, greatness {})",
            info.slot,
            info.tier,
            c.name,
            c.tier,
            current.greatness()
        ),
    };
    ItemEffect {
        replaces: current_info.map(|c| c.name.to_string()),
        power,
        current_power,
        luck_change,
        summary,
    }
}

/// The item's name with its specials once they are unlocked, and the specials.
pub fn item_display_name(item: &Item, seed: u16) -> (String, SpecialPowers) {
    let base = catalogue::item_name(item.id);
    if seed == 0 {
        return (base, SpecialPowers::default());
    }
    let specials = rules::item_specials(item.id, item.greatness(), seed);
    (specials.full_name(&base), specials)
}

/// The beast being fought, while in battle: the full view's beast and the compact state's.
pub fn beast_view(state: &GameState) -> Option<BeastView> {
    let adv = &state.adventurer;
    let b = &state.beast;
    (phase::phase(adv) == Phase::InBattle).then(|| {
        let shown = BeastDisplay::of(b);
        BeastView {
            id: b.id,
            name: shown.name,
            tier: shown.tier,
            beast_type: shown.beast_type,
            level: b.level,
            health: adv.beast_health,
            starting_health: b.health,
            specials: b.specials,
            is_collectable: b.is_collectable,
        }
    })
}

/// Builds the view of `state` for `adventurer_id`. Pure and deterministic: the same state always
/// yields the same JSON.
pub fn adventurer_view(adventurer_id: AdventurerId, state: &GameState) -> AdventurerView {
    let adv = &state.adventurer;
    let phase = phase::phase(adv);
    let seed = adv.item_specials_seed;

    let equipment = adv
        .equipment
        .worn()
        .map(|(slot, it)| {
            let info = catalogue::item(it.id);
            let (name, specials) = item_display_name(&it, seed);
            EquippedItemView {
                slot,
                id: it.id,
                name,
                tier: info.map_or(Tier::None, |i| i.tier),
                item_type: info.map_or(ItemType::None, |i| i.item_type),
                xp: it.xp,
                greatness: it.greatness(),
                specials,
            }
        })
        .collect();

    let bag = state
        .bag
        .iter()
        .map(|it| {
            let info = catalogue::item(it.id);
            ItemView {
                id: it.id,
                name: item_display_name(it, seed).0,
                tier: info.map_or(Tier::None, |i| i.tier),
                slot: info.map_or(Slot::None, |i| i.slot),
                item_type: info.map_or(ItemType::None, |i| i.item_type),
                xp: it.xp,
                greatness: it.greatness(),
            }
        })
        .collect();

    let market = if phase::market_open(adv) {
        let mut ids = state.market.clone();
        ids.sort_unstable();
        ids.dedup();
        ids.into_iter()
            .filter_map(|id| {
                let info = catalogue::item(id)?;
                let effect = item_effect(state, id);
                Some(MarketItemView {
                    id,
                    name: info.name.to_string(),
                    tier: info.tier,
                    slot: info.slot,
                    item_type: info.item_type,
                    price: rules::item_price(info.tier, adv.stats.charisma),
                    owned: state.owns(id),
                    affordable: rules::item_price(info.tier, adv.stats.charisma) <= adv.gold,
                    verdict: super::verdict::Verdict::of(info.slot, &effect),
                    effect,
                })
            })
            .collect()
    } else {
        Vec::new()
    };

    AdventurerView {
        adventurer_id,
        token: TokenInfo::of(adventurer_id),
        phase,
        level: adv.level(),
        health: adv.health,
        max_health: adv.max_health(),
        xp: adv.xp,
        gold: adv.gold,
        stat_upgrades_available: adv.stat_upgrades_available,
        stats: adv.stats,
        equipment,
        bag,
        beast: beast_view(state),
        market,
        potion_price: rules::potion_price(adv.level(), adv.stats.charisma),
        max_potions: if phase::market_open(adv) {
            phase::affordable_potions(adv)
        } else {
            0
        },
        action_count: adv.action_count,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::tests::sample_state;

    #[test]
    fn exploring_view() {
        let s = sample_state();
        let v = adventurer_view(crate::AdventurerId::from(123), &s);
        assert_eq!(v.phase, Phase::Exploring);
        assert_eq!((v.level, v.health, v.max_health, v.gold), (5, 120, 130, 55));
        assert_eq!(v.equipment.len(), 2, "empty slots omitted");
        assert_eq!(v.equipment[0].slot, Slot::Weapon);
        assert_eq!(v.equipment[0].name, "Short Sword");
        assert_eq!(v.equipment[0].greatness, 10);
        assert_eq!(v.equipment[1].name, "Leather Armor");
        assert_eq!(v.bag.iter().map(|b| b.id).collect::<Vec<_>>(), vec![42, 8]);
        assert_eq!(v.bag[1].greatness, 2);
        assert!(v.beast.is_none(), "beast only in battle");
        let ids: Vec<u8> = v.market.iter().map(|m| m.id).collect();
        assert_eq!(ids, vec![4, 9, 20, 42, 101], "dedup + sorted");
        assert!(v.market.iter().find(|m| m.id == 42).unwrap().owned);
        assert_eq!(v.market[0].price, 16 - 2); // Silver Ring T2
        assert_eq!(v.potion_price, 1);
        assert_eq!(v.max_potions, 1, "120/130 health");
        let ghost = v.market.iter().find(|m| m.id == 9).unwrap();
        assert!(ghost.affordable);
        assert_eq!(ghost.verdict, crate::verdict::Verdict::Downgrade);
        assert_eq!(
            v.market.iter().find(|m| m.id == 4).unwrap().verdict,
            crate::verdict::Verdict::EmptySlot
        );
        assert_eq!(ghost.effect.replaces.as_deref(), Some("Short Sword"));
        assert_eq!((ghost.effect.power, ghost.effect.current_power), (5, 10));
        assert!(
            ghost.effect.summary.contains("instead of Short Sword"),
            "{}",
            ghost.effect.summary
        );
        let robe = v.market.iter().find(|m| m.id == 20).unwrap();
        assert_eq!(robe.effect.replaces.as_deref(), Some("Leather Armor"));
        let ring = v.market.iter().find(|m| m.id == 4).unwrap();
        assert_eq!(
            ring.effect.luck_change, 1,
            "silver ring G1 counts twice vs an empty ring's 1"
        );
        assert_eq!(ring.effect.power, 0);
        assert_eq!(v.action_count, 9);
    }

    #[test]
    fn battle_view_and_closed_market() {
        let mut s = sample_state();
        s.adventurer.beast_health = 17;
        let v = adventurer_view(crate::AdventurerId::from(1), &s);
        assert_eq!(v.phase, Phase::InBattle);
        assert!(v.market.is_empty());
        let b = v.beast.unwrap();
        assert_eq!(
            (b.id, b.health, b.starting_health, b.level),
            (29, 17, 40, 20)
        );
        assert_eq!(b.name, "Demon Grasp Dragon");
        assert_eq!((b.tier, b.beast_type), (Tier::T1, ItemType::BladeOrHide));
        s.adventurer.beast_health = 0;
        s.adventurer.stat_upgrades_available = 1;
        assert!(
            adventurer_view(crate::AdventurerId::from(1), &s)
                .market
                .is_empty(),
            "closed with stat points"
        );
    }

    #[test]
    fn specials_show_in_names_once_seeded() {
        let mut s = sample_state();
        s.adventurer.equipment.weapon.xp = 400; // G20
        let v = adventurer_view(crate::AdventurerId::from(1), &s);
        assert_eq!(v.equipment[0].name, "Short Sword", "no seed yet");
        s.adventurer.item_specials_seed = 1000;
        let v = adventurer_view(crate::AdventurerId::from(1), &s);
        let sp = v.equipment[0].specials;
        assert!(sp.special1 > 0 && sp.special2 > 0 && sp.special3 > 0);
        assert!(
            v.equipment[0].name.contains("Short Sword of "),
            "{}",
            v.equipment[0].name
        );
        assert_eq!(
            v.equipment[1].specials,
            SpecialPowers::default(),
            "G3 armor has none"
        );
    }

    #[test]
    fn json_is_deterministic_and_shaped() {
        let s = sample_state();
        let a = serde_json::to_string(&adventurer_view(crate::AdventurerId::from(u64::MAX), &s))
            .unwrap();
        let b = serde_json::to_string(&adventurer_view(
            crate::AdventurerId::from(u64::MAX),
            &s.clone(),
        ))
        .unwrap();
        assert_eq!(a, b);
        let v: serde_json::Value = serde_json::from_str(&a).unwrap();
        assert_eq!(
            v["adventurer_id"], "18446744073709551615",
            "above 2^53: a string"
        );
        assert_eq!(v["phase"], "exploring");
        assert_eq!(v["equipment"][0]["type"], "Blade_or_Hide");
        assert_eq!(v["equipment"][0]["slot"], "Weapon");
        assert!(v["beast"].is_null());
        let schema = schemars::schema_for!(AdventurerView);
        assert!(
            serde_json::to_string(&schema)
                .unwrap()
                .contains("max_potions")
        );
    }

    /// Pins a beast's shown facts where the view, the beast event and the battle preview give
    /// them: a catalogued beast with specials, and ids the catalogue lacks, with and without.
    #[test]
    fn a_beast_reads_alike_in_the_view_the_event_and_the_preview() {
        use crate::events::BeastEncounter;
        use crate::model::BeastEvent;
        use serde_json::json;
        let known = sample_state().beast;
        let cases = [
            (known, "Demon Grasp Dragon", "T1", "Blade_or_Hide"),
            (
                BeastEvent { id: 0, ..known },
                "Demon Grasp Unknown beast #0",
                "None",
                "None",
            ),
            (
                BeastEvent {
                    id: 76,
                    specials: SpecialPowers::default(),
                    ..known
                },
                "Unknown beast #76",
                "None",
                "None",
            ),
        ];
        for (beast, name, tier, kind) in cases {
            let mut s = sample_state();
            s.beast = beast;
            s.adventurer.beast_health = 17;
            let view = adventurer_view(crate::AdventurerId::from(1), &s).beast;
            assert_eq!(
                serde_json::to_value(view).unwrap(),
                json!({
                    "id": beast.id, "name": name, "tier": tier, "type": kind, "level": 20,
                    "health": 17, "starting_health": 40,
                    "specials": serde_json::to_value(beast.specials).unwrap(),
                    "is_collectable": beast.is_collectable,
                })
            );
            let event = serde_json::to_value(BeastEncounter::from(beast)).unwrap();
            assert_eq!(
                (&event["name"], &event["tier"], &event["beast_type"]),
                (&json!(name), &json!(tier), &json!(kind))
            );
            assert_eq!(
                (&event["level"], &event["health"]),
                (&json!(20), &json!(40))
            );
            let p = crate::preview::battle_preview(&s).unwrap();
            let p = serde_json::to_value(p).unwrap();
            assert_eq!(
                (&p["beast_name"], &p["beast_tier"], &p["beast_type"]),
                (&json!(name), &json!(tier), &json!(kind))
            );
            assert_eq!(
                (&p["beast_level"], &p["beast_health"]),
                (&json!(20), &json!(17))
            );
        }
    }

    #[test]
    fn not_started_view() {
        let v = adventurer_view(crate::AdventurerId::from(5), &GameState::default());
        assert_eq!(v.phase, Phase::NotStarted);
        assert_eq!(v.level, 1);
        assert!(v.equipment.is_empty() && v.bag.is_empty() && v.market.is_empty());
    }
}
