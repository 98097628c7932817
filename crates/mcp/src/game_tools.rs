//! The game tools: a new game, the seven game actions (each one call of the write path,
//! [`LsServer::act`]) and the adventurer read.

use rmcp::handler::server::wrapper::{Json, Parameters};
use rmcp::service::RequestContext;
use rmcp::{RoleServer, tool, tool_router};

use super::args::Args;
use super::compact_result::{Detailed, compact_adventurer};
use super::envelopes::{AdventurerResult, ReadResult, WriteResult};
use super::params::{
    AdventurerArgs, BattleArgs, BuyArgs, ExploreArgs, GoOn, ItemsArgs, NewGameArgs, Purchase,
    SurrenderArgs, UpgradeArgs,
};
use super::server::LsServer;
use super::write::Asked;
use crate::error::{SCHEMA_VERSION, ToolError};
use crate::present::compact::Detail;
use crate::present::view::adventurer_view;
use game::engine::Action;
use game::model::ItemPurchase;
use game::model::Stats;
use game::moves::StandingRule;

#[tool_router(router = game_tool_router, vis = "pub(crate)")]
impl LsServer {
    #[tool(
        description = "Start a game with a starting weapon; without adventurer_id it first obtains a new adventurer (see entry). Keep the adventurer_id: you start at 90 HP facing a weak starter beast to attack.",
        annotations(
            title = "New game",
            read_only_hint = false,
            destructive_hint = false,
            idempotent_hint = false,
            open_world_hint = true
        )
    )]
    async fn ls_new_game(
        &self,
        Parameters(args): Parameters<Args<NewGameArgs>>,
        ctx: RequestContext<RoleServer>,
    ) -> Result<Json<WriteResult>, ToolError> {
        let a = args.parse(self.opts.strict)?;
        let _busy = self.drain.enter()?;
        let weapon = a.weapon.resolve_starting_weapon("weapon")?;
        let entry = a.entry()?;
        let player_name = a.player_name.as_deref().map(player_name_felt).transpose()?;
        let opts = self.write_options(&a.opts, &ctx)?;
        let game = super::write::NewGame {
            detail: a.opts.detail,
            expected_action_count: a.opts.expected_action_count,
            adventurer_id: a.adventurer_id,
            weapon,
            player_name,
            entry,
        };
        self.new_game(game, opts).await
    }

    #[tool(
        description = "Explore (no beast in front, no stat points pending): each step meets a beast, an obstacle or a discovery.",
        annotations(
            title = "Explore",
            read_only_hint = false,
            destructive_hint = true,
            idempotent_hint = false,
            open_world_hint = true
        )
    )]
    async fn ls_explore(
        &self,
        Parameters(args): Parameters<Args<ExploreArgs>>,
        ctx: RequestContext<RoleServer>,
    ) -> Result<Json<WriteResult>, ToolError> {
        self.act(args, &ctx, |a: &ExploreArgs| {
            let explore = Action::Explore {
                till_beast: a.till_beast,
            };
            let Some(heal_below) = percent("heal_below", a.heal_below)? else {
                return Ok(explore.into());
            };
            let rule = StandingRule {
                explore: true,
                heal_below: Some(heal_below),
                flee_below: None,
            };
            Ok(Asked {
                rule: a.till_beast.then_some(rule),
                heal_first: Some(heal_below),
                ..explore.into()
            })
        })
        .await
    }

    #[tool(
        description = "End this game for good: your adventurer dies (second-generation deployments only; confirm_surrender: true).",
        annotations(
            title = "Surrender",
            read_only_hint = false,
            destructive_hint = true,
            idempotent_hint = false,
            open_world_hint = true
        )
    )]
    async fn ls_surrender(
        &self,
        Parameters(args): Parameters<Args<SurrenderArgs>>,
        ctx: RequestContext<RoleServer>,
    ) -> Result<Json<WriteResult>, ToolError> {
        self.act(args, &ctx, |a: &SurrenderArgs| {
            if !a.confirm_surrender {
                return Err(ToolError::validation(
                    "confirm_surrender is false: surrender ends the game for good",
                )
                .with_detail("field", "confirm_surrender")
                .with_hint(
                    "to give up this game, call ls_surrender again with confirm_surrender: true",
                ));
            }
            Ok(Action::Surrender.into())
        })
        .await
    }

    #[tool(
        description = "Attack the beast (in battle); it strikes back unless it dies.",
        annotations(
            title = "Attack",
            read_only_hint = false,
            destructive_hint = true,
            idempotent_hint = false,
            open_world_hint = true
        )
    )]
    async fn ls_attack(
        &self,
        Parameters(args): Parameters<Args<BattleArgs>>,
        ctx: RequestContext<RoleServer>,
    ) -> Result<Json<WriteResult>, ToolError> {
        self.act(args, &ctx, |a: &BattleArgs| {
            fight(
                Action::Attack {
                    to_the_death: a.to_the_death,
                },
                a,
            )
        })
        .await
    }

    #[tool(
        description = "Flee the beast (in battle, not at level 1, needs dexterity); on failure it attacks.",
        annotations(
            title = "Flee",
            read_only_hint = false,
            destructive_hint = true,
            idempotent_hint = false,
            open_world_hint = true
        )
    )]
    async fn ls_flee(
        &self,
        Parameters(args): Parameters<Args<BattleArgs>>,
        ctx: RequestContext<RoleServer>,
    ) -> Result<Json<WriteResult>, ToolError> {
        self.act(args, &ctx, |a: &BattleArgs| {
            fight(
                Action::Flee {
                    to_the_death: a.to_the_death,
                },
                a,
            )
        })
        .await
    }

    #[tool(
        description = "Spend stat points (phase stat_upgrade), exactly stat_points: strength (damage), dexterity (flee), vitality (+15 max and current health), intelligence (obstacles), wisdom (ambushes), charisma (prices); then buy and explore on, one transaction.",
        annotations(
            title = "Upgrade stats",
            read_only_hint = false,
            destructive_hint = false,
            idempotent_hint = false,
            open_world_hint = true
        )
    )]
    async fn ls_upgrade(
        &self,
        Parameters(args): Parameters<Args<UpgradeArgs>>,
        ctx: RequestContext<RoleServer>,
    ) -> Result<Json<WriteResult>, ToolError> {
        self.act(args, &ctx, |a: &UpgradeArgs| {
            let stats = Stats {
                strength: a.strength,
                dexterity: a.dexterity,
                vitality: a.vitality,
                intelligence: a.intelligence,
                wisdom: a.wisdom,
                charisma: a.charisma,
                luck: 0,
            };
            let sum: u32 = [
                a.strength,
                a.dexterity,
                a.vitality,
                a.intelligence,
                a.wisdom,
                a.charisma,
            ]
            .iter()
            .map(|&v| u32::from(v))
            .sum();
            // Checked after the replay lookup: a retry of an upgrade that landed has no points left.
            let points_add_up = move |state: &game::model::GameState| {
                let available = u32::from(state.adventurer.stat_upgrades_available);
                if sum == available {
                    return Ok(());
                }
                Err(ToolError::validation(format!(
                    "the stat points must add up to {available} (the points available), got {sum}"
                ))
                .with_detail("available", available)
                .with_detail("given", sum)
                .with_hint("state.stat_points (ls_get_adventurer) says how many points to spend"))
            };
            let mut parts = vec![Action::Upgrade { stats }];
            parts.extend(purchase(&a.items, a.potions)?);
            let (then, rule) = go_on(&a.then)?;
            parts.extend(then);
            Ok(Asked {
                action: batch(parts)?,
                check: Some(Box::new(points_add_up)),
                rule,
                heal_first: None,
            })
        })
        .await
    }

    #[tool(
        description = "Buy market items and/or potions (out of battle, no stat points pending); the ls_buy_item line of actions gives the potion price and how many fit.",
        annotations(
            title = "Buy",
            read_only_hint = false,
            destructive_hint = false,
            idempotent_hint = false,
            open_world_hint = true
        )
    )]
    async fn ls_buy_item(
        &self,
        Parameters(args): Parameters<Args<BuyArgs>>,
        ctx: RequestContext<RoleServer>,
    ) -> Result<Json<WriteResult>, ToolError> {
        self.act(args, &ctx, |a: &BuyArgs| {
            let Some(buy) = purchase(&a.items, a.potions)? else {
                return Err(ToolError::validation("buy at least one item or potion"));
            };
            let (then, rule) = go_on(&a.then)?;
            Ok(Asked {
                rule,
                ..batch([buy].into_iter().chain(then).collect())?.into()
            })
        })
        .await
    }

    #[tool(
        description = "Equip items from the bag (the replaced ones go to the bag); in battle the beast gets a free attack.",
        annotations(
            title = "Equip",
            read_only_hint = false,
            destructive_hint = false,
            idempotent_hint = false,
            open_world_hint = true
        )
    )]
    async fn ls_equip(
        &self,
        Parameters(args): Parameters<Args<ItemsArgs>>,
        ctx: RequestContext<RoleServer>,
    ) -> Result<Json<WriteResult>, ToolError> {
        self.act(args, &ctx, |a: &ItemsArgs| {
            Ok(Action::Equip {
                items: resolve_items(&a.items)?,
            }
            .into())
        })
        .await
    }

    #[tool(
        description = "Drop equipped or bagged items for good (not in battle, not at level 1).",
        annotations(
            title = "Drop",
            read_only_hint = false,
            destructive_hint = true,
            idempotent_hint = false,
            open_world_hint = true
        )
    )]
    async fn ls_drop(
        &self,
        Parameters(args): Parameters<Args<ItemsArgs>>,
        ctx: RequestContext<RoleServer>,
    ) -> Result<Json<WriteResult>, ToolError> {
        self.act(args, &ctx, |a: &ItemsArgs| {
            Ok(Action::Drop {
                items: resolve_items(&a.items)?,
            }
            .into())
        })
        .await
    }

    #[tool(
        description = "An adventurer's whole state: phase, stats, gear, bag, beast, the tools you may call now with odds, the advice, the open market; detail \"full\" adds boosted stats, item details and market effects.",
        annotations(
            title = "Get adventurer",
            read_only_hint = true,
            open_world_hint = true
        )
    )]
    async fn ls_get_adventurer(
        &self,
        Parameters(args): Parameters<Args<AdventurerArgs>>,
    ) -> Result<Json<ReadResult>, ToolError> {
        let a = args.parse(self.opts.strict)?;
        let state = self.read_state(a.adventurer_id).await?;
        self.ensure_minted(a.adventurer_id, &state).await?;
        Ok(Json(match a.detail.unwrap_or(self.detail) {
            Detail::Full => Detailed::Full(AdventurerResult {
                ok: true,
                schema_version: SCHEMA_VERSION.into(),
                chain: self.opts.chain.clone(),
                adventurer: adventurer_view(a.adventurer_id, &state),
            }),
            Detail::Compact => Detailed::Compact(compact_adventurer(
                a.adventurer_id,
                &state,
                &self.rendering(),
            )),
        }))
    }
}

/// A percentage argument as a fraction; above 100 is refused.
fn percent(field: &str, value: Option<u8>) -> Result<Option<f64>, ToolError> {
    match value {
        Some(v) if v > 100 => Err(ToolError::validation(format!(
            "{field} is a percentage from 0 to 100, got {v}"
        ))
        .with_detail("field", field)),
        v => Ok(v.map(|v| f64::from(v) / 100.0)),
    }
}

/// The purchase of `items` and `potions`, if anything is bought.
fn purchase(items: &[Purchase], potions: u8) -> Result<Option<Action>, ToolError> {
    if items.is_empty() && potions == 0 {
        return Ok(None);
    }
    let items = items
        .iter()
        .enumerate()
        .map(|(i, p)| {
            p.item
                .resolve(&format!("items[{i}].item"))
                .map(|item_id| ItemPurchase {
                    item_id,
                    equip: p.equip,
                })
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Some(Action::BuyItems { potions, items }))
}

/// The explore a move ends its first transaction with, and the rule it goes on with: one step
/// then more when it heals between steps, else the game's own loop until a beast.
fn go_on(then: &GoOn) -> Result<(Option<Action>, Option<StandingRule>), ToolError> {
    let heal_below = heal_below(then)?;
    if !then.explore {
        return Ok((None, None));
    }
    let rule = StandingRule {
        explore: true,
        heal_below,
        flee_below: None,
    };
    let till_beast = heal_below.is_none();
    Ok((
        Some(Action::Explore { till_beast }),
        heal_below.is_some().then_some(rule),
    ))
}

/// `heal_below` as a fraction, refused without `explore` (it is a rule for exploring on).
fn heal_below(then: &GoOn) -> Result<Option<f64>, ToolError> {
    let heal_below = percent("heal_below", then.heal_below)?;
    if heal_below.is_some() && !then.explore {
        return Err(
            ToolError::validation("heal_below applies when exploring on")
                .with_detail("field", "heal_below")
                .with_hint("add explore: true, or leave heal_below out"),
        );
    }
    Ok(heal_below)
}

/// A fight move: the first round as asked, then its rule (fight on, explore on).
fn fight(first: Action, a: &BattleArgs) -> Result<Asked, ToolError> {
    let flee_below = percent("flee_below", a.flee_below)?;
    let heal_below = heal_below(&a.then)?;
    let rule = StandingRule {
        flee_below,
        explore: a.then.explore,
        heal_below,
    };
    Ok(Asked {
        rule: (flee_below.is_some() || a.then.explore).then_some(rule),
        ..first.into()
    })
}

/// One transaction of these parts (a batch when there are several).
fn batch(parts: Vec<Action>) -> Result<Action, ToolError> {
    Action::batch(parts).map_err(|e| ToolError::validation(e.to_string()))
}

fn resolve_items(items: &[super::params::ItemRef]) -> Result<Vec<u8>, ToolError> {
    if items.is_empty() || items.len() > 8 {
        return Err(ToolError::validation(format!(
            "give between 1 and 8 items, got {}",
            items.len()
        )));
    }
    items
        .iter()
        .enumerate()
        .map(|(i, r)| r.resolve(&format!("items[{i}]")))
        .collect()
}

fn player_name_felt(name: &str) -> Result<starknet::core::types::Felt, ToolError> {
    if name.is_empty() || name.len() > 31 || !name.chars().all(|c| c.is_ascii_graphic() || c == ' ')
    {
        return Err(ToolError::validation(
            "player_name must be 1 to 31 printable ASCII characters",
        )
        .with_detail("field", "player_name"));
    }
    starknet::core::utils::cairo_short_string_to_felt(name)
        .map_err(|_| ToolError::validation("player_name is not a valid short string"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn player_names_are_checked() {
        assert!(player_name_felt("Ada").is_ok());
        assert!(player_name_felt("").is_err());
        assert!(player_name_felt(&"x".repeat(32)).is_err());
        assert!(player_name_felt("héros").is_err());
    }

    #[test]
    fn item_lists_are_bounded() {
        use super::super::params::ItemRef;
        assert!(resolve_items(&[]).is_err());
        assert!(resolve_items(&vec![ItemRef::Id(1); 9]).is_err());
        assert_eq!(resolve_items(&[ItemRef::Id(5)]).unwrap(), vec![5]);
    }
}
