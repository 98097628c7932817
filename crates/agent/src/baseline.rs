//! The first built-in agent, kept as a named baseline so that evaluations compare versions on the
//! same dungeons.
//! * In battle: at level 1 attack. Otherwise ask `ls_battle_preview`; attack if the win chance is
//!   at least 50%, or at least the chance of escaping alive by fleeing, or fleeing is impossible;
//!   else flee. Either goes to the death when its chance is at least 90%, else one round.
//! * Stat points go to charisma until twice charisma reaches the level (potions then cost 1 gold),
//!   then to dexterity until it reaches the level (fleeing always works), then to vitality.
//! * Out of battle: drop bagged non-jewelry when the bag is nearly full; buy, equipped, the market
//!   items that most raise a slot's attack or armor while keeping gold for potions; buy potions up
//!   to full health; explore (until a beast when at full health, else one step).

use game::AdventurerId;
use serde_json::{Value, json};

use super::{Agent, AgentError, Move, pct};
use game::catalogue::Slot;
use game::model::Stats;
use game::phase::Phase;
use game::view::AdventurerView;

/// Win chance from which the agent fights rather than flees.
const FIGHT_THRESHOLD: f64 = 0.5;
/// Win (or escape) chance from which the agent attacks (or flees) to the death in one call.
const TO_THE_DEATH_THRESHOLD: f64 = 0.9;
/// Bag fill from which bagged non-jewelry is dropped.
const BAG_DROP_AT: usize = 12;

/// Chooses the next tool call for this state.
pub async fn next_move(
    agent: &Agent,
    id: AdventurerId,
    view: &AdventurerView,
) -> Result<Move, AgentError> {
    Ok(match view.phase {
        Phase::InBattle => battle_move(agent, id, view).await?,
        Phase::StatUpgrade => Move::new(
            "ls_upgrade",
            upgrade_args(id, view.level, &view.stats, view.stat_upgrades_available),
            "charisma to half the level, dexterity to the level, then vitality",
        ),
        _ => {
            if let Some(drop) = drop_move(id, view) {
                return Ok(drop);
            }
            if let Some(buy) = shopping(id, view) {
                return Ok(buy);
            }
            let full = view.health >= view.max_health;
            Move::new(
                "ls_explore",
                json!({ "adventurer_id": id, "till_beast": full }),
                if full {
                    "full health: exploring until a beast"
                } else {
                    "exploring one step"
                },
            )
        }
    })
}

async fn battle_move(
    agent: &Agent,
    id: AdventurerId,
    view: &AdventurerView,
) -> Result<Move, AgentError> {
    if view.level <= 1 {
        return Ok(Move::new(
            "ls_attack",
            json!({ "adventurer_id": id }),
            "the starter beast: attacking",
        ));
    }
    let p = agent
        .call("ls_battle_preview", json!({ "adventurer_id": id }))
        .await?;
    let win = p["preview"]["win_probability"].as_f64().unwrap_or(0.0);
    let flee = p["preview"]["flee_to_the_death_probability"].as_f64();
    let fight = match flee {
        None => true,
        Some(escape) => win >= FIGHT_THRESHOLD || win >= escape,
    };
    let odds = format!(
        "win {}, flee {}",
        pct(win),
        flee.map_or("impossible".into(), pct)
    );
    Ok(if fight {
        Move::new(
            "ls_attack",
            json!({ "adventurer_id": id, "to_the_death": win >= TO_THE_DEATH_THRESHOLD }),
            format!("{odds}: attacking"),
        )
    } else {
        let escape = flee.unwrap_or(0.0);
        Move::new(
            "ls_flee",
            json!({ "adventurer_id": id, "to_the_death": escape >= TO_THE_DEATH_THRESHOLD }),
            format!("{odds}: fleeing"),
        )
    })
}

/// Stat points: charisma to half the level, dexterity to the level, then vitality (each stat
/// stays within 31).
pub fn upgrade_args(id: AdventurerId, level: u8, stats: &Stats, points: u8) -> Value {
    let mut s = *stats;
    let mut up = Stats::default();
    for _ in 0..points {
        if 2 * u16::from(s.charisma) < u16::from(level) && s.charisma < 31 {
            s.charisma += 1;
            up.charisma += 1;
        } else if s.dexterity < level && s.dexterity < 31 {
            s.dexterity += 1;
            up.dexterity += 1;
        } else if s.vitality < 31 {
            s.vitality += 1;
            up.vitality += 1;
        } else {
            s.strength = s.strength.saturating_add(1);
            up.strength += 1;
        }
    }
    json!({
        "adventurer_id": id,
        "strength": up.strength,
        "dexterity": up.dexterity,
        "vitality": up.vitality,
        "charisma": up.charisma,
    })
}

/// Drops every bagged item but jewelry when the bag is nearly full.
fn drop_move(id: AdventurerId, view: &AdventurerView) -> Option<Move> {
    if view.bag.len() < BAG_DROP_AT || view.level <= 1 {
        return None;
    }
    let items: Vec<u8> = view
        .bag
        .iter()
        .filter(|i| !matches!(i.slot, Slot::Neck | Slot::Ring))
        .map(|i| i.id)
        .take(8)
        .collect();
    (!items.is_empty()).then(|| {
        Move::new(
            "ls_drop",
            json!({ "adventurer_id": id, "items": items }),
            "the bag is nearly full: dropping spare gear",
        )
    })
}

/// Upgrades first (largest power gain first), keeping gold for potions to full health; then
/// potions. None when there is nothing worth buying.
fn shopping(id: AdventurerId, view: &AdventurerView) -> Option<Move> {
    let price = u32::from(view.potion_price.max(1));
    let potions_for = |health: u16| -> u32 {
        (u32::from(view.max_health) + 9).saturating_sub(u32::from(health)) / 10
    };
    let reserve = potions_for(view.health) * price;
    let mut gold = u32::from(view.gold);
    let mut candidates: Vec<_> = view
        .market
        .iter()
        .filter(|m| !m.owned && m.effect.power > m.effect.current_power)
        .collect();
    candidates.sort_by_key(|m| std::cmp::Reverse(m.effect.power - m.effect.current_power));
    let mut slots = Vec::new();
    let mut items = Vec::new();
    let free_bag = 15 - view.bag.len();
    for m in candidates {
        let cost = u32::from(m.price);
        let replaces = m.effect.replaces.is_some();
        if slots.contains(&m.slot) || cost + reserve > gold {
            continue;
        }
        if replaces && items.iter().filter(|(_, r)| *r).count() >= free_bag {
            continue;
        }
        gold -= cost;
        slots.push(m.slot);
        items.push((m.id, replaces));
    }
    let potions = potions_for(view.health).min(gold / price).min(255);
    if items.is_empty() && potions == 0 {
        return None;
    }
    let items: Vec<Value> = items
        .iter()
        .map(|(id, _)| json!({ "item": id, "equip": true }))
        .collect();
    Some(Move::new(
        "ls_buy_item",
        json!({ "adventurer_id": id, "items": items, "potions": potions }),
        "buying the biggest power gains, then potions to full health",
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn upgrades_follow_the_stated_priorities() {
        let stats = Stats {
            charisma: 1,
            dexterity: 2,
            ..Stats::default()
        };
        let v = upgrade_args(1.into(), 6, &stats, 3);
        assert_eq!(
            (v["charisma"].as_u64(), v["dexterity"].as_u64()),
            (Some(2), Some(1))
        );
        let stats = Stats {
            charisma: 5,
            dexterity: 9,
            vitality: 31,
            ..Stats::default()
        };
        let v = upgrade_args(1.into(), 9, &stats, 2);
        assert_eq!(v["strength"], 2, "vitality is full");
    }
}
