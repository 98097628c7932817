//! Where the adventurer is in the game loop and which tools the contract would accept next
//! (preconditions in docs/game-rules.md#actions), so the agent is steered away from certain
//! reverts.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::catalogue;
use super::model::{Adventurer, GameState};
use super::rules;

/// The adventurer's phase in the game loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Token minted but `start_game` not called (health 0, xp 0).
    NotStarted,
    /// Fighting a beast (`beast_health > 0`).
    InBattle,
    /// Stat points must be spent before exploring or shopping.
    StatUpgrade,
    /// Free to explore, shop, equip and drop.
    Exploring,
    /// Health reached 0: game over.
    Dead,
}

/// Classifies an adventurer: not started (health 0, xp 0), dead (health 0), in battle, stat upgrade,
/// else exploring.
pub fn phase(adv: &Adventurer) -> Phase {
    if adv.health == 0 {
        if adv.xp == 0 {
            Phase::NotStarted
        } else {
            Phase::Dead
        }
    } else if adv.beast_health > 0 {
        Phase::InBattle
    } else if adv.stat_upgrades_available > 0 {
        Phase::StatUpgrade
    } else {
        Phase::Exploring
    }
}

/// Tool names of the MCP surface that act on the game.
pub mod tools {
    /// Mint (if needed) and start a game.
    pub const NEW_GAME: &str = "ls_new_game";
    /// Explore.
    pub const EXPLORE: &str = "ls_explore";
    /// Attack the beast.
    pub const ATTACK: &str = "ls_attack";
    /// Flee the beast.
    pub const FLEE: &str = "ls_flee";
    /// Spend stat points.
    pub const UPGRADE: &str = "ls_upgrade";
    /// Buy items and potions.
    pub const BUY_ITEM: &str = "ls_buy_item";
    /// Equip items from the bag.
    pub const EQUIP: &str = "ls_equip";
    /// Drop items.
    pub const DROP: &str = "ls_drop";
}

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

/// True when the market accepts purchases: alive, not in battle, no stat points pending.
pub fn market_open(adv: &Adventurer) -> bool {
    phase(adv) == Phase::Exploring
}

/// A market item the adventurer can buy now (not owned, affordable), with its price.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct AffordableItem {
    /// Item id.
    pub id: u8,
    /// Item name.
    pub name: String,
    /// Price after charisma.
    pub price: u16,
}

/// Market items (deduplicated, by id) that are not already owned and that the gold pays for.
pub fn affordable_items(state: &GameState) -> Vec<AffordableItem> {
    let adv = &state.adventurer;
    let mut ids = state.market.clone();
    ids.sort_unstable();
    ids.dedup();
    ids.into_iter()
        .filter(|&id| !state.owns(id))
        .filter_map(|id| {
            let info = catalogue::item(id)?;
            let price = rules::item_price(info.tier, adv.stats.charisma);
            (price <= adv.gold).then(|| AffordableItem {
                id,
                name: info.name.to_string(),
                price,
            })
        })
        .collect()
}

/// How many potions can be bought now (health limit and gold).
pub fn affordable_potions(adv: &Adventurer) -> u8 {
    let price = rules::potion_price(adv.level(), adv.stats.charisma);
    rules::max_potions(adv.health, adv.max_health(), adv.gold, price)
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

/// The tools that the contract would accept in this state, in a stable order (most useful first).
pub fn legal_actions(state: &GameState) -> Vec<LegalAction> {
    legal_actions_with(state, || super::preview::battle_preview(state))
}

/// [`legal_actions`] with the battle's odds from `odds` (asked only in a battle past level 1), for
/// a caller that has computed them already.
pub fn legal_actions_with(
    state: &GameState,
    odds: impl FnOnce() -> Option<super::preview::BattlePreview>,
) -> Vec<LegalAction> {
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
            let odds = odds();
            let attack_odds = odds.as_ref().map_or(String::new(), |p| {
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
                    .as_ref()
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
                    super::verdict::purchase_hint(state, &items),
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
    use crate::model::tests::sample_state;
    use crate::model::{Adventurer, GameState, Item};

    fn tools_of(s: &GameState) -> Vec<String> {
        legal_actions(s).into_iter().map(|a| a.tool).collect()
    }

    #[test]
    fn phases() {
        let mut a = Adventurer::default();
        assert_eq!(phase(&a), Phase::NotStarted);
        a.xp = 5;
        assert_eq!(phase(&a), Phase::Dead);
        a.health = 10;
        a.beast_health = 3;
        a.stat_upgrades_available = 1;
        assert_eq!(phase(&a), Phase::InBattle, "battle wins over stat points");
        a.beast_health = 0;
        assert_eq!(phase(&a), Phase::StatUpgrade);
        a.stat_upgrades_available = 0;
        assert_eq!(phase(&a), Phase::Exploring);
        assert_eq!(
            serde_json::to_value(Phase::NotStarted).unwrap(),
            "not_started"
        );
        assert_eq!(
            serde_json::to_value(Phase::StatUpgrade).unwrap(),
            "stat_upgrade"
        );
        assert_eq!(serde_json::to_value(Phase::InBattle).unwrap(), "in_battle");
    }

    #[test]
    fn not_started_and_dead() {
        let s = GameState::default();
        let acts = legal_actions(&s);
        assert_eq!(acts.len(), 1);
        assert_eq!(acts[0].tool, "ls_new_game");
        assert_eq!(
            acts[0].args_hint["weapon"],
            json!(["Wand", "Book", "Short Sword", "Club"])
        );
        let mut s = sample_state();
        s.adventurer.health = 0;
        assert!(legal_actions(&s).is_empty());
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
        let acts = legal_actions(&s);
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
        let acts = legal_actions(&s);
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
        let acts = legal_actions(&s);
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
        assert!(super::super::verdict::hint_cost(&s, &buy.args_hint) <= 55);
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
