//! The planner as an outside MCP client plays it: every figure asked of the tools (`ls_advise`
//! about weapons, stats and market, `ls_battle_preview`) and read back from their JSON, then the
//! same rules as the pure policy ([`crate::game::policy`]). This was the built-in agent's only
//! path; it stays as the reference the direct path is checked and benchmarked against
//! ([`Agent::play_over_mcp`]). The market advice is asked once per market (level, equipment and
//! charisma), as an LLM agent would.

use serde_json::{Value, json};

use super::client::protocol;
use super::{Agent, AgentError, Move, pct};
use crate::game::catalogue::Slot;
use crate::game::phase::Phase;
use crate::game::policy::cache::MarketKey;
use crate::game::policy::fight::{BattleChoice, FightOdds, decide};
use crate::game::policy::shopping::{self, ItemValue};
use crate::game::policy::stats::{self, StatOption};
use crate::game::policy::weapon::{self, WeaponsLater};
use crate::game::policy::{Params, healing};
use crate::game::view::AdventurerView;

/// What `ls_advise` (market) says about one market: item values and weapons a few levels on.
#[derive(Debug, Clone, Default)]
struct MarketView {
    values: Vec<ItemValue>,
    weapons: WeaponsLater,
}

/// The planner over MCP for one game (it remembers the market advice).
pub struct McpPlanner {
    params: Params,
    market: Option<(MarketKey, MarketView)>,
}

/// Reads the options out of an `ls_advise` (stats) result.
fn stat_options(advice: &Value) -> Result<Vec<StatOption>, AgentError> {
    let bad = || protocol("ls_advise", "malformed stats advice");
    advice["stats"]
        .as_array()
        .ok_or_else(bad)?
        .iter()
        .map(|s| {
            let read = || {
                Some(StatOption {
                    stat: stats::stat_named(s["stat"].as_str()?)?,
                    value: s["value"].as_f64()?,
                    death_risk: s["with_point"]["death_risk"].as_f64()?,
                })
            };
            read().ok_or_else(bad)
        })
        .collect()
}

/// `ls_upgrade` arguments putting all `points` into `stat`.
fn upgrade_args(id: u64, stat: &str, points: u8) -> Value {
    let mut args = json!({
        "adventurer_id": id,
        "strength": 0, "dexterity": 0, "vitality": 0,
        "intelligence": 0, "wisdom": 0, "charisma": 0,
    });
    args[stat] = points.into();
    args
}

impl McpPlanner {
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
                        pct(win(b)),
                        b["name"].as_str().unwrap_or("weapon"),
                        pct(current)
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
        let opts = stat_options(&a)?;
        let points = view.stat_upgrades_available;
        let behind =
            self.params
                .floors
                .most_behind(&view.stats, view.level)
                .map(|(stat, have, floor)| {
                    (
                        stat.name(),
                        format!(
                            "{points} stat point(s): {} {have} is below its floor {floor:.0}",
                            stat.name()
                        ),
                    )
                });
        let (stat, reason) = behind
            .unwrap_or_else(|| match stats::best(&opts, self.params.stat_risk_weight) {
                Some((o, _)) => (
                    o.stat.name(),
                    format!(
                        "{points} stat point(s): {} is worth {:.0} health over 20 steps (death risk per step {:.1} %)",
                        o.stat.name(),
                        o.value,
                        o.death_risk * 100.0
                    ),
                ),
                None => ("vitality", "stat points: vitality".to_string()),
            });
        Ok(Move::new(
            "ls_upgrade",
            upgrade_args(id, stat, points),
            reason,
        ))
    }

    async fn market_advice(
        &mut self,
        agent: &Agent,
        id: u64,
        view: &AdventurerView,
    ) -> Result<MarketView, AgentError> {
        let key = MarketKey::of(view);
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
            values: serde_json::from_value(a["market"]["items"].clone())
                .map_err(|e| protocol("ls_advise", e))?,
            weapons: match a["market"].get("weapons_later") {
                Some(w) => {
                    serde_json::from_value(w.clone()).map_err(|e| protocol("ls_advise", e))?
                }
                None => WeaponsLater::default(),
            },
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

    #[test]
    fn stat_advice_is_read_and_upgrades_put_every_point_in_one_stat() {
        let advice = json!({"stats": [
            {"stat": "charisma", "value": 40.0, "with_point": {"death_risk": 0.02}},
            {"stat": "vitality", "value": 30.0, "with_point": {"death_risk": 0.01}},
        ]});
        let opts = stat_options(&advice).unwrap();
        assert_eq!(opts.len(), 2);
        assert_eq!(opts[1].death_risk, 0.01);
        assert!(stat_options(&json!({"stats": [{"stat": "luck"}]})).is_err());
        let args = upgrade_args(3, "wisdom", 2);
        assert_eq!(
            (args["wisdom"].as_u64(), args["charisma"].as_u64()),
            (Some(2), Some(0))
        );
    }
}
