//! The tools the contract would accept next, as this surface offers them: each with what it does
//! here and now (odds, costs, risks) and an example of its arguments, so the agent is steered
//! away from certain reverts.

#[cfg(test)]
use std::cell::Cell;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::tools;
use game::catalogue;
use game::model::GameState;
use game::phase::{AffordableItem, Phase, affordable_items, affordable_potions, phase};
use game::preview::{BattlePreview, battle_preview};
use game::rules;
use game::verdict::purchase_plan;

/// A tool the contract would accept now, with a one-line description and an argument hint.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct LegalAction {
    /// MCP tool name, e.g. "ls_attack".
    pub tool: String,
    /// What the action does here and now (including costs and risks).
    pub description: String,
    /// Example arguments or the valid choices (object; shape depends on the tool).
    pub args_hint: Value,
}

fn action(tool: &str, description: impl Into<String>, args_hint: Value) -> LegalAction {
    LegalAction {
        tool: tool.to_string(),
        description: description.into(),
        args_hint,
    }
}

#[cfg(test)]
thread_local! {
    /// How many battle previews [`battle_odds`] computed on this thread (read by tests).
    static PREVIEWS: Cell<u64> = const { Cell::new(0) };
}

/// The battle previews computed on this thread so far.
#[cfg(test)]
pub(crate) fn previews_computed() -> u64 {
    PREVIEWS.with(Cell::get)
}

/// The fight's odds, in a battle past the starter beast (none otherwise): the one battle preview
/// a result computes, for its legal actions and its compact lines alike.
pub fn battle_odds(state: &GameState) -> Option<BattlePreview> {
    let adv = &state.adventurer;
    (phase(adv) == Phase::InBattle && adv.level() > 1)
        .then(|| {
            #[cfg(test)]
            PREVIEWS.with(|n| n.set(n.get() + 1));
            battle_preview(state)
        })
        .flatten()
}

/// The `ls_buy_item` arguments of the game's suggested purchase: items equipped, then potions.
fn purchase_hint(state: &GameState, items: &[AffordableItem]) -> Value {
    let plan = purchase_plan(state, items);
    let picks: Vec<Value> = plan
        .items
        .iter()
        .map(|id| json!({ "item": id, "equip": true }))
        .collect();
    json!({ "items": picks, "potions": plan.potions })
}

/// Names of items that can be equipped (those in the bag).
fn bag_names(state: &GameState) -> Vec<String> {
    state
        .bag
        .iter()
        .map(|i| catalogue::item_name(i.id))
        .collect()
}

/// Names of items that can be dropped (equipped or in the bag).
fn owned_names(state: &GameState) -> Vec<String> {
    state
        .adventurer
        .equipment
        .slots()
        .iter()
        .filter(|(_, i)| !i.is_empty())
        .map(|(_, i)| catalogue::item_name(i.id))
        .chain(bag_names(state))
        .collect()
}

fn equip_action(state: &GameState, in_battle: bool) -> Option<LegalAction> {
    let names = bag_names(state);
    if names.is_empty() {
        return None;
    }
    let desc = if in_battle {
        "Equip items from the bag (1-8). In battle the beast gets a free attack first."
    } else {
        "Equip items from the bag (1-8); a replaced item moves to the bag."
    };
    Some(action(tools::EQUIP, desc, json!({ "items": names })))
}

fn drop_action(state: &GameState) -> Option<LegalAction> {
    if state.adventurer.level() <= 1 {
        return None;
    }
    let names = owned_names(state);
    if names.is_empty() {
        return None;
    }
    Some(action(
        tools::DROP,
        "Drop equipped or bagged items permanently (frees bag space; boosts are lost).",
        json!({ "items": names }),
    ))
}

/// The tools that the contract would accept in this state, in a stable order (most useful first),
/// with the battle's `odds` ([`battle_odds`]) in their descriptions.
pub fn legal_actions(state: &GameState, odds: Option<&BattlePreview>) -> Vec<LegalAction> {
    let adv = &state.adventurer;
    let mut out = Vec::new();
    match phase(adv) {
        Phase::NotStarted => {
            let weapons: Vec<&str> = rules::STARTING_WEAPONS
                .iter()
                .filter_map(|&id| catalogue::item(id).map(|i| i.name))
                .collect();
            out.push(action(
                tools::NEW_GAME,
                "Start the game with one of the four starting weapons (Wand, Book: magic; Short Sword: blade; Club: bludgeon).",
                json!({ "weapon": weapons }),
            ));
        }
        Phase::Dead => {}
        Phase::InBattle => {
            let level = adv.level();
            if level <= 1 {
                out.push(action(
                    tools::ATTACK,
                    "Attack the starter beast (it dies in one hit; fleeing is not allowed at level 1).",
                    json!({ "to_the_death": false }),
                ));
                return out;
            }
            let attack_odds = odds.map_or(String::new(), |p| {
                format!(
                    " You deal {} ({} on a crit, {:.0}% chance) to its {} health; it hits back for {}-{}. Win chance if you attack to the death: {:.0}% (details: ls_battle_preview).",
                    p.damage,
                    p.critical_damage,
                    p.critical_chance * 100.0,
                    p.beast_health,
                    p.beast_min_damage,
                    p.beast_max_damage,
                    p.win_probability * 100.0
                )
            });
            out.push(action(
                tools::ATTACK,
                format!(
                    "Attack the beast; it counter-attacks if it survives. to_the_death repeats until one side dies.{attack_odds}"
                ),
                json!({ "to_the_death": false }),
            ));
            if adv.stats.dexterity > 0 {
                let flee_odds = odds
                    .and_then(|p| p.flee_chance.zip(p.flee_to_the_death_probability))
                    .map_or(String::new(), |(once, ttd)| {
                        format!(
                            " Chance per attempt {:.0}%; escaping alive when fleeing to the death {:.0}%.",
                            once * 100.0,
                            ttd * 100.0
                        )
                    });
                out.push(action(
                    tools::FLEE,
                    format!(
                        "Try to flee (chance grows with dexterity {} vs level {level}); a failed attempt lets the beast attack.{flee_odds}",
                        adv.stats.dexterity
                    ),
                    json!({ "to_the_death": false }),
                ));
            }
            out.extend(equip_action(state, true));
        }
        Phase::StatUpgrade => {
            let n = adv.stat_upgrades_available;
            out.push(action(
                tools::UPGRADE,
                format!(
                    "Spend exactly {n} stat point(s) across strength, dexterity, vitality, intelligence, wisdom, charisma (luck cannot be raised; each vitality point also heals 15)."
                ),
                json!({
                    "strength": 0, "dexterity": 0, "vitality": n, "intelligence": 0, "wisdom": 0, "charisma": 0
                }),
            ));
            out.extend(equip_action(state, false));
            out.extend(drop_action(state));
        }
        Phase::Exploring => {
            out.push(action(
                tools::EXPLORE,
                "Explore: meet a beast, an obstacle or a discovery. till_beast keeps exploring until a beast, a level-up or death.",
                json!({ "till_beast": false }),
            ));
            let items = affordable_items(state);
            let potions = affordable_potions(adv);
            if !items.is_empty() || potions > 0 {
                let price = rules::potion_price(adv.level(), adv.stats.charisma);
                let listed: Vec<String> = items
                    .iter()
                    .map(|i| format!("{} (id {}, {} gold)", i.name, i.id, i.price))
                    .collect();
                out.push(action(
                    tools::BUY_ITEM,
                    format!(
                        "Buy market items and/or potions with {} gold; the total must fit (the hint does: upgrades first, then potions). Affordable items: {}. Potions: {price} gold each, +10 health, up to {potions} now.",
                        adv.gold,
                        if listed.is_empty() { "none".to_string() } else { listed.join(", ") }
                    ),
                    purchase_hint(state, &items),
                ));
            }
            out.extend(equip_action(state, false));
            out.extend(drop_action(state));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use game::model::Item;
    use game::sample::sample_state;

    fn actions(s: &GameState) -> Vec<LegalAction> {
        legal_actions(s, battle_odds(s).as_ref())
    }

    fn tools_of(s: &GameState) -> Vec<String> {
        actions(s).into_iter().map(|a| a.tool).collect()
    }

    #[test]
    fn not_started_and_dead() {
        let s = GameState::default();
        let acts = actions(&s);
        assert_eq!(acts.len(), 1);
        assert_eq!(acts[0].tool, "ls_new_game");
        assert_eq!(
            acts[0].args_hint["weapon"],
            json!(["Wand", "Book", "Short Sword", "Club"])
        );
        let mut s = sample_state();
        s.adventurer.health = 0;
        assert!(actions(&s).is_empty());
    }

    #[test]
    fn starter_beast_only_attack() {
        let mut s = GameState::default();
        s.adventurer.health = 90;
        s.adventurer.beast_health = 3;
        s.adventurer.stats.dexterity = 3;
        s.adventurer.equipment.weapon = Item { id: 12, xp: 0 };
        s.bag.items[0] = Item { id: 46, xp: 0 };
        assert_eq!(tools_of(&s), vec!["ls_attack"]);
    }

    #[test]
    fn battle_actions() {
        let mut s = sample_state();
        s.adventurer.beast_health = 20;
        assert_eq!(tools_of(&s), vec!["ls_attack", "ls_flee", "ls_equip"]);
        s.adventurer.stats.dexterity = 0;
        s.bag = Default::default();
        assert_eq!(tools_of(&s), vec!["ls_attack"]);
    }

    #[test]
    fn battle_descriptions_carry_the_odds() {
        let mut s = sample_state();
        s.adventurer.beast_health = 20;
        let acts = actions(&s);
        assert!(
            acts[0].description.contains("Win chance"),
            "{}",
            acts[0].description
        );
        assert!(
            acts[1].description.contains("Chance per attempt"),
            "{}",
            acts[1].description
        );
    }

    #[test]
    fn stat_upgrade_actions() {
        let mut s = sample_state();
        s.adventurer.stat_upgrades_available = 2;
        let acts = actions(&s);
        assert_eq!(acts[0].tool, "ls_upgrade");
        assert_eq!(acts[0].args_hint["vitality"], 2);
        let spent: u64 = acts[0]
            .args_hint
            .as_object()
            .unwrap()
            .values()
            .map(|v| v.as_u64().unwrap())
            .sum();
        assert_eq!(spent, 2, "the hint is a valid ls_upgrade call");
        assert!(acts[0].description.contains("exactly 2"));
        let tools: Vec<_> = acts.iter().map(|a| a.tool.as_str()).collect();
        assert!(!tools.contains(&"ls_explore") && !tools.contains(&"ls_buy_item"));
    }

    #[test]
    fn exploring_actions_and_market() {
        let s = sample_state();
        let acts = actions(&s);
        let tools: Vec<_> = acts.iter().map(|a| a.tool.as_str()).collect();
        assert_eq!(
            tools,
            vec!["ls_explore", "ls_buy_item", "ls_equip", "ls_drop"]
        );
        let buy = &acts[1];
        // Market [42, 9, 9, 101, 4, 20]; 42 is owned (bag); charisma 2, gold 55.
        let ids: Vec<u64> = buy.args_hint["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v["item"].as_u64().unwrap())
            .collect();
        assert!(ids.contains(&4), "the empty ring slot first: {ids:?}");
        assert!(
            !ids.contains(&9),
            "Ghost Wand G1 is weaker than Short Sword G10"
        );
        assert!(purchase_plan(&s, &affordable_items(&s)).cost(&s) <= 55);
        assert!(
            buy.description.contains("Ghost Wand (id 9, 18 gold)"),
            "{}",
            buy.description
        ); // T1: 20 - 2
        // Health 120 / max 130 → 1 potion; price max(5 - 4, 1) = 1.
        assert!(buy.args_hint["potions"].as_u64().unwrap() <= 1);
        assert!(
            buy.description.contains("1 gold each"),
            "{}",
            buy.description
        );
        let drop = &acts[3];
        assert_eq!(
            drop.args_hint["items"],
            json!(["Short Sword", "Leather Armor", "Katana", "Gold Ring"])
        );
    }

    #[test]
    fn no_buy_when_nothing_affordable() {
        let mut s = sample_state();
        s.adventurer.gold = 0;
        s.adventurer.health = s.adventurer.max_health();
        assert!(!tools_of(&s).contains(&"ls_buy_item".to_string()));
        s.adventurer.gold = 1;
        s.market = vec![];
        s.adventurer.health = 10;
        assert!(
            tools_of(&s).contains(&"ls_buy_item".to_string()),
            "potions alone"
        );
    }

    #[test]
    fn level_one_cannot_drop() {
        let mut s = sample_state();
        s.adventurer.xp = 3;
        assert!(!tools_of(&s).contains(&"ls_drop".to_string()));
    }
}
