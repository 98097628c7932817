//! The planning strategy: each decision is taken on the advisors' distributions, never on an
//! exact outcome. In battle it swaps to a bagged weapon when `ls_advise` (weapons) shows a clearly
//! better win chance after the free hit, else fights or flees on `ls_battle_preview`'s odds
//! ([`fight`](super::fight)). Stat points follow `ls_advise` (stats) ([`stats`](super::stats)).
//! Out of battle it drops spare gear when the bag fills, heals with potions
//! ([`healing`](super::healing)), first buys a stronger weapon when the market has one that will
//! hit much harder a few levels on ([`weapon`](super::weapon)), then the items `ls_advise`
//! (market) values above a bar per gold, keeping ten potions' worth of gold for healing
//! ([`shopping`](super::shopping)), and explores. The market advice is asked once per market
//! (level, equipment and charisma), as an LLM agent would.

use serde_json::{Value, json};

use super::fight::{BattleChoice, FightOdds, FightPolicy, decide};
use super::healing::{self, HealPolicy};
use super::shopping::{self, ItemValue};
use super::weapon::WeaponsLater;
use super::{Agent, AgentError, Move, stats, weapon};
use crate::game::catalogue::Slot;
use crate::game::phase::Phase;
use crate::game::view::AdventurerView;

/// The planner's tunable parameters (tuned by self-play on sim; see the README).
#[derive(Debug, Clone, PartialEq)]
pub struct Params {
    /// Fight policy.
    pub fight: FightPolicy,
    /// Healing policy.
    pub heal: HealPolicy,
    /// Least health saved per gold for an item to be bought.
    pub min_item_per_gold: f64,
    /// Swap weapons in battle when another wins by at least this much more.
    pub swap_gain: f64,
    /// Health one death avoided is worth, when choosing items.
    pub risk_weight: f64,
    /// Health one unit of the risk that a step kills is worth, when choosing stats.
    pub stat_risk_weight: f64,
    /// Floors as fractions of the level, by stat (dexterity: flee; charisma: cheap potions;
    /// wisdom: ambushes; intelligence: obstacles); the stat furthest below its floor gets the
    /// points, and the advisor's ranking decides once all are met.
    pub floors: Floors,
    /// Bag fill from which spare gear is dropped.
    pub drop_at: usize,
    /// Projected attack factor over the equipped weapon's for a weapon to be bought.
    pub weapon_gain: f64,
}

impl Default for Params {
    fn default() -> Self {
        Self {
            fight: FightPolicy {
                fight_from: 0.6,
                flee_margin: 0.0,
                to_the_death_from: 0.97,
            },
            heal: HealPolicy {
                heal_below: 0.9,
                till_beast_from: 2.0,
                reserve_potions: 10,
            },
            min_item_per_gold: 1.0,
            swap_gain: 0.15,
            risk_weight: 10_000.0,
            stat_risk_weight: 10_000.0,
            floors: Floors {
                charisma: 0.35,
                ..Floors::default()
            },
            drop_at: 12,
            weapon_gain: 1.5,
        }
    }
}

impl Params {
    /// The planner before its last tuning (issue 14's second round): a risk weight of 2,000
    /// for items and stats and no charisma floor.
    pub fn previous() -> Self {
        Self {
            risk_weight: 2000.0,
            stat_risk_weight: 2000.0,
            floors: Floors::default(),
            ..Self::default()
        }
    }

    /// Sets one parameter by name (`play --param name=value`, for self-play tuning).
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
        let v: f64 = value
            .parse()
            .map_err(|_| format!("--param {name}: '{value}' is not a number"))?;
        match name {
            "fight_from" => self.fight.fight_from = v,
            "flee_margin" => self.fight.flee_margin = v,
            "to_the_death_from" => self.fight.to_the_death_from = v,
            "heal_below" => self.heal.heal_below = v,
            "till_beast_from" => self.heal.till_beast_from = v,
            "reserve_potions" => self.heal.reserve_potions = v as u32,
            "min_item_per_gold" => self.min_item_per_gold = v,
            "swap_gain" => self.swap_gain = v,
            "risk_weight" => self.risk_weight = v,
            "stat_risk_weight" => self.stat_risk_weight = v,
            "dex_ratio" => self.floors.dexterity = v,
            "cha_ratio" => self.floors.charisma = v,
            "wis_ratio" => self.floors.wisdom = v,
            "int_ratio" => self.floors.intelligence = v,
            "vit_ratio" => self.floors.vitality = v,
            "str_ratio" => self.floors.strength = v,
            "drop_at" => self.drop_at = v as usize,
            "weapon_gain" => self.weapon_gain = v,
            _ => return Err(format!("unknown --param '{name}'")),
        }
        Ok(())
    }
}

/// Stat floors as fractions of the level.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Floors {
    /// Strength.
    pub strength: f64,
    /// Dexterity.
    pub dexterity: f64,
    /// Vitality.
    pub vitality: f64,
    /// Intelligence.
    pub intelligence: f64,
    /// Wisdom.
    pub wisdom: f64,
    /// Charisma.
    pub charisma: f64,
}

impl Floors {
    /// The stat furthest below its floor at `level` (name, value, floor), if any.
    pub fn most_behind(
        &self,
        stats: &crate::game::model::Stats,
        level: u8,
    ) -> Option<(&'static str, u8, f64)> {
        let l = f64::from(level);
        [
            ("dexterity", stats.dexterity, self.dexterity),
            ("charisma", stats.charisma, self.charisma),
            ("wisdom", stats.wisdom, self.wisdom),
            ("intelligence", stats.intelligence, self.intelligence),
            ("vitality", stats.vitality, self.vitality),
            ("strength", stats.strength, self.strength),
        ]
        .into_iter()
        .filter(|(_, have, ratio)| *have < 31 && f64::from(*have) < ratio * l)
        .map(|(n, have, ratio)| (n, have, ratio * l))
        .max_by(|a, b| (a.2 - f64::from(a.1)).total_cmp(&(b.2 - f64::from(b.1))))
    }
}

/// What `ls_advise` (market) says about one market: item values and weapons a few levels on.
#[derive(Debug, Clone, Default)]
struct MarketView {
    values: Vec<ItemValue>,
    weapons: WeaponsLater,
}

/// The market advice seen for one market: (level, equipped ids and the weapon's xp, charisma)
/// and the advice.
type MarketMemo = ((u8, Vec<u8>, u16, u8), MarketView);

/// The planner for one game (it remembers the market advice).
pub struct Planner {
    params: Params,
    market: Option<MarketMemo>,
}

impl Planner {
    /// A planner with these parameters.
    pub fn new(params: Params) -> Self {
        Self {
            params,
            market: None,
        }
    }

    /// Chooses the next tool call for this state.
    pub async fn next_move(
        &mut self,
        agent: &Agent,
        id: u64,
        view: &AdventurerView,
    ) -> Result<Move, AgentError> {
        match view.phase {
            Phase::InBattle => self.battle(agent, id, view).await,
            Phase::StatUpgrade => self.upgrade(agent, id, view).await,
            _ => self.explore_or_shop(agent, id, view).await,
        }
    }

    async fn battle(
        &mut self,
        agent: &Agent,
        id: u64,
        view: &AdventurerView,
    ) -> Result<Move, AgentError> {
        if view.level <= 1 {
            return Ok(Move::new(
                "ls_attack",
                json!({ "adventurer_id": id }),
                "the starter beast: attacking",
            ));
        }
        let has_spare_weapon = view.bag.iter().any(|i| i.slot == Slot::Weapon);
        if has_spare_weapon && let Some(m) = self.swap(agent, id).await? {
            return Ok(m);
        }
        let p = agent
            .call("ls_battle_preview", json!({ "adventurer_id": id }))
            .await?;
        let odds = FightOdds {
            win: p["preview"]["win_probability"].as_f64().unwrap_or(0.0),
            flee_to_the_death: p["preview"]["flee_to_the_death_probability"].as_f64(),
        };
        let (choice, reason) = decide(odds, &self.params.fight);
        Ok(match choice {
            BattleChoice::Attack { to_the_death } => Move::new(
                "ls_attack",
                json!({ "adventurer_id": id, "to_the_death": to_the_death }),
                reason,
            ),
            BattleChoice::Flee { to_the_death } => Move::new(
                "ls_flee",
                json!({ "adventurer_id": id, "to_the_death": to_the_death }),
                reason,
            ),
        })
    }

    async fn swap(&self, agent: &Agent, id: u64) -> Result<Option<Move>, AgentError> {
        let a = agent
            .call(
                "ls_advise",
                json!({ "adventurer_id": id, "about": "weapons" }),
            )
            .await?;
        let weapons = a["weapons"].as_array().cloned().unwrap_or_default();
        let win = |w: &Value| w["win"].as_f64().unwrap_or(0.0);
        let current = weapons
            .iter()
            .find(|w| w["equipped"].as_bool() == Some(true))
            .map_or(0.0, win);
        let best = weapons
            .iter()
            .filter(|w| w["equipped"].as_bool() != Some(true))
            .max_by(|a, b| win(a).total_cmp(&win(b)));
        Ok(best
            .filter(|b| win(b) >= current + self.params.swap_gain)
            .map(|b| {
                Move::new(
                    "ls_equip",
                    json!({ "adventurer_id": id, "items": [b["id"]] }),
                    format!(
                        "win {} with the {} after its free hit, {} as armed: swapping",
                        super::pct(win(b)),
                        b["name"].as_str().unwrap_or("weapon"),
                        super::pct(current)
                    ),
                )
            }))
    }

    async fn upgrade(
        &mut self,
        agent: &Agent,
        id: u64,
        view: &AdventurerView,
    ) -> Result<Move, AgentError> {
        let a = agent
            .call(
                "ls_advise",
                json!({ "adventurer_id": id, "about": "stats" }),
            )
            .await?;
        let opts = stats::options(&a);
        let points = view.stat_upgrades_available;
        let behind =
            self.params
                .floors
                .most_behind(&view.stats, view.level)
                .map(|(stat, have, floor)| {
                    (
                        stat.to_string(),
                        format!(
                            "{points} stat point(s): {stat} {have} is below its floor {floor:.0}"
                        ),
                    )
                });
        let (stat, reason) = behind
            .unwrap_or_else(|| match stats::best(&opts, self.params.stat_risk_weight) {
                Some((o, _)) => (
                    o.stat.clone(),
                    format!(
                        "{points} stat point(s): {} is worth {:.0} health over 20 steps (death risk per step {:.1} %)",
                        o.stat,
                        o.value,
                        o.death_risk * 100.0
                    ),
                ),
                None => ("vitality".to_string(), "stat points: vitality".to_string()),
            });
        Ok(Move::new(
            "ls_upgrade",
            stats::upgrade_args(id, &stat, points),
            reason,
        ))
    }

    async fn market_advice(
        &mut self,
        agent: &Agent,
        id: u64,
        view: &AdventurerView,
    ) -> Result<MarketView, AgentError> {
        let key = (
            view.level,
            view.equipment.iter().map(|e| e.id).collect::<Vec<_>>(),
            view.equipment
                .iter()
                .find(|e| e.slot == Slot::Weapon)
                .map_or(0, |w| w.xp),
            view.stats.charisma,
        );
        if let Some((k, v)) = &self.market
            && *k == key
        {
            return Ok(v.clone());
        }
        let a = agent
            .call(
                "ls_advise",
                json!({ "adventurer_id": id, "about": "market", "limit": 25 }),
            )
            .await?;
        let advice = MarketView {
            values: serde_json::from_value(a["market"]["items"].clone()).unwrap_or_default(),
            weapons: serde_json::from_value(a["market"]["weapons_later"].clone())
                .unwrap_or_default(),
        };
        self.market = Some((key, advice.clone()));
        Ok(advice)
    }

    async fn explore_or_shop(
        &mut self,
        agent: &Agent,
        id: u64,
        view: &AdventurerView,
    ) -> Result<Move, AgentError> {
        let p = self.params.clone();
        if view.level > 1 {
            let spare = shopping::spare_items(view, p.drop_at);
            if !spare.is_empty() {
                return Ok(Move::new(
                    "ls_drop",
                    json!({ "adventurer_id": id, "items": spare }),
                    "the bag is nearly full: dropping spare gear",
                ));
            }
        }
        let price = view.potion_price.max(1);
        let potions =
            healing::potions_to_buy(view.health, view.max_health, view.gold, price, &p.heal);
        let gold = view
            .gold
            .saturating_sub((potions * u32::from(price)) as u16);
        let mut items = Vec::new();
        if !view.market.is_empty() && view.level > 1 {
            let mut taken = Vec::new();
            let mut gold = gold;
            let advice = self.market_advice(agent, id, view).await?;
            if let Some((w, cost)) =
                weapon::upgrade(&advice.weapons, gold, view.bag.len() < 15, p.weapon_gain)
            {
                items.push((w, crate::game::catalogue::item_name(w)));
                taken.push(Slot::Weapon);
                gold -= cost;
            }
            let budget = gold.saturating_sub(healing::reserve(price, &p.heal));
            items.extend(shopping::choose(
                view,
                &advice.values,
                budget,
                p.min_item_per_gold,
                p.risk_weight,
                &taken,
            ));
        }
        if potions > 0 || !items.is_empty() {
            let names: Vec<&str> = items.iter().map(|(_, n)| n.as_str()).collect();
            let reason = match (names.is_empty(), potions) {
                (true, n) => format!("health {}/{}: {n} potions", view.health, view.max_health),
                (false, 0) => format!("best buys for the gold: {}", names.join(", ")),
                (false, n) => format!("best buys for the gold: {}; {n} potions", names.join(", ")),
            };
            let items: Vec<Value> = items
                .iter()
                .map(|(i, _)| json!({ "item": i, "equip": true }))
                .collect();
            return Ok(Move::new(
                "ls_buy_item",
                json!({ "adventurer_id": id, "items": items, "potions": potions }),
                reason,
            ));
        }
        let till_beast =
            f64::from(view.health) >= p.heal.till_beast_from * f64::from(view.max_health);
        Ok(Move::new(
            "ls_explore",
            json!({ "adventurer_id": id, "till_beast": till_beast }),
            if till_beast {
                "exploring until a beast"
            } else {
                "exploring one step"
            },
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::model::Stats;

    #[test]
    fn params_are_set_by_name_and_previous_differs_from_the_default() {
        let mut p = Params::default();
        p.set("stat_risk_weight", "123").unwrap();
        p.set("cha_ratio", "0.25").unwrap();
        p.set("reserve_potions", "4").unwrap();
        assert_eq!(p.stat_risk_weight, 123.0);
        assert_eq!(p.floors.charisma, 0.25);
        assert_eq!(p.heal.reserve_potions, 4);
        assert!(p.set("nonsense", "1").is_err());
        assert!(p.set("risk_weight", "lots").is_err());
        assert_ne!(Params::previous(), Params::default());
        assert_eq!(Params::previous().floors, Floors::default());
    }

    #[test]
    fn the_stat_furthest_below_its_floor_gets_the_points() {
        let floors = Floors {
            charisma: 0.35,
            dexterity: 0.5,
            ..Floors::default()
        };
        let stats = Stats {
            dexterity: 3,
            charisma: 1,
            ..Stats::default()
        };
        // Level 10: dexterity floor 5 (2 behind), charisma floor 3.5 (2.5 behind).
        assert_eq!(
            floors.most_behind(&stats, 10).map(|b| b.0),
            Some("charisma")
        );
        // Level 4: only charisma (floor 1.4) is behind; level 2: both floors are met.
        assert_eq!(floors.most_behind(&stats, 4).map(|b| b.0), Some("charisma"));
        assert_eq!(floors.most_behind(&stats, 2), None);
    }
}
