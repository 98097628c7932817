//! The planner as an outside MCP client plays it: every figure asked of the tools (`ls_advise`
//! about weapons, stats and market, `ls_battle_preview`) and read back from their JSON, then the
//! pure policy's own rules ([`game::policy::steps`]). This was the built-in agent's only
//! path; it stays as the reference the direct path is checked and benchmarked against
//! ([`Agent::play_over_mcp`]). The market advice is asked once per market (level, equipment and
//! charisma), as an LLM agent would.

use game::AdventurerId;
use serde_json::{Value, json};

use super::client::protocol;
use super::{Agent, AgentError, Move, tool_call};
use game::phase::Phase;
use game::policy::cache::MarketKey;
use game::policy::fight::FightOdds;
use game::policy::shopping::ItemValue;
use game::policy::stats::{self, StatOption};
use game::policy::tables::WeaponWin;
use game::policy::weapon::WeaponsLater;
use game::policy::{Decision, Params, steps};
use game::view::AdventurerView;

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

/// Reads the weapons out of an `ls_advise` (weapons) result.
fn weapon_wins(advice: &Value) -> Vec<WeaponWin> {
    let weapons = advice["weapons"].as_array().cloned().unwrap_or_default();
    weapons
        .iter()
        .map(|w| WeaponWin {
            id: w["id"]
                .as_u64()
                .and_then(|id| u8::try_from(id).ok())
                .unwrap_or(0),
            name: w["name"].as_str().unwrap_or("weapon").to_string(),
            equipped: w["equipped"].as_bool() == Some(true),
            win: w["win"].as_f64().unwrap_or(0.0),
        })
        .collect()
}

/// The tool call that makes `decision`, with its reason.
fn to_move(id: AdventurerId, decision: Decision) -> Move {
    let (tool, args) = tool_call(id, &decision.action);
    Move::new(tool, args, decision.reason)
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
        id: AdventurerId,
        view: &AdventurerView,
    ) -> Result<Move, AgentError> {
        let decision = match view.phase {
            Phase::InBattle => self.battle(agent, id, view).await?,
            Phase::StatUpgrade => {
                let a = agent
                    .call(
                        "ls_advise",
                        json!({ "adventurer_id": id, "about": "stats" }),
                    )
                    .await?;
                let options = stat_options(&a)?;
                steps::upgrade(view, &self.params, || options)
            }
            _ => self.explore_or_shop(agent, id, view).await?,
        };
        Ok(to_move(id, decision))
    }

    async fn battle(
        &self,
        agent: &Agent,
        id: AdventurerId,
        view: &AdventurerView,
    ) -> Result<Decision, AgentError> {
        if view.level <= 1 {
            return Ok(steps::starter_attack());
        }
        if steps::has_spare_weapon(view) {
            let a = agent
                .call(
                    "ls_advise",
                    json!({ "adventurer_id": id, "about": "weapons" }),
                )
                .await?;
            if let Some(d) = steps::swap(&weapon_wins(&a), &self.params) {
                return Ok(d);
            }
        }
        let p = agent
            .call("ls_battle_preview", json!({ "adventurer_id": id }))
            .await?;
        let odds = FightOdds {
            win: p["preview"]["win_probability"].as_f64().unwrap_or(0.0),
            flee_to_the_death: p["preview"]["flee_to_the_death_probability"].as_f64(),
        };
        Ok(steps::fight(odds, &self.params))
    }

    async fn market_advice(
        &mut self,
        agent: &Agent,
        id: AdventurerId,
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
        id: AdventurerId,
        view: &AdventurerView,
    ) -> Result<Decision, AgentError> {
        let (potions, gold) = match steps::drop_or_potions(view, &self.params) {
            Ok(shop) => shop,
            Err(drop) => return Ok(drop),
        };
        let mut items = Vec::new();
        if steps::shops(view) {
            let advice = self.market_advice(agent, id, view).await?;
            items = steps::purchases(view, &self.params, gold, &advice.weapons, |_| advice.values);
        }
        Ok(steps::buy_or_explore(view, &self.params, potions, &items))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use game::engine::Action;

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
        let stats = stats::points_in(game::advice::Stat::Wisdom, 2);
        let (tool, args) = tool_call(game::AdventurerId::from(3u64), &Action::Upgrade { stats });
        assert_eq!(tool, "ls_upgrade");
        assert_eq!(
            (args["wisdom"].as_u64(), args["charisma"].as_u64()),
            (Some(2), Some(0))
        );
    }
}
