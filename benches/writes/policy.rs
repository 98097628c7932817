//! The scripted policy both clients play by, and the untimed state read it decides from.

use std::sync::Arc;

use loot_survivor_mcp::game::model::GameState;
use loot_survivor_mcp::game::phase::affordable_items;
use serde_json::{Value, json};
use starknet::core::types::{BlockId, BlockTag, Call, Felt, FunctionCall};
use starknet::core::utils::get_selector_from_name;
use starknet::providers::Provider;
use starknet::providers::jsonrpc::{HttpTransport, JsonRpcClient};

/// The starting weapons, in turn.
pub(crate) const WEAPONS: [&str; 4] = ["Wand", "Book", "Short Sword", "Club"];
/// Actions per game at most (the policy's games end sooner).
pub(crate) const MAX_ACTIONS: usize = 150;

/// A JSON-RPC client of devnet.
pub(crate) type Rpc = Arc<JsonRpcClient<HttpTransport>>;

/// One write the policy chose.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Act {
    Explore,
    Attack,
    Flee,
    Upgrade { strength: u8, vitality: u8 },
    Buy(u8),
    Equip(u8),
    Drop(u8),
}

impl Act {
    pub(crate) fn tool(self) -> &'static str {
        match self {
            Act::Explore => "ls_explore",
            Act::Attack => "ls_attack",
            Act::Flee => "ls_flee",
            Act::Upgrade { .. } => "ls_upgrade",
            Act::Buy(_) => "ls_buy_item",
            Act::Equip(_) => "ls_equip",
            Act::Drop(_) => "ls_drop",
        }
    }

    pub(crate) fn args(self, id: u64) -> Value {
        let mut args = match self {
            Act::Upgrade { strength, vitality } => {
                json!({"strength": strength, "vitality": vitality})
            }
            Act::Buy(item) => json!({"items": [{"item": item, "equip": false}]}),
            Act::Equip(item) | Act::Drop(item) => json!({"items": [item]}),
            _ => json!({}),
        };
        args["adventurer_id"] = json!(id);
        args["detail"] = json!("compact");
        args
    }

    pub(crate) fn call(self, game: Felt, id: u64) -> Call {
        let id = Felt::from(id);
        let (name, calldata) = match self {
            Act::Explore => ("explore", vec![id, Felt::ZERO]),
            Act::Attack => ("attack", vec![id, Felt::ZERO]),
            Act::Flee => ("flee", vec![id, Felt::ZERO]),
            Act::Upgrade { strength, vitality } => (
                "select_stat_upgrades",
                [strength, 0, vitality, 0, 0, 0, 0]
                    .into_iter()
                    .map(Felt::from)
                    .fold(vec![id], |mut v, f| {
                        v.push(f);
                        v
                    }),
            ),
            Act::Buy(item) => (
                "buy_items",
                vec![id, Felt::ZERO, Felt::ONE, Felt::from(item), Felt::ZERO],
            ),
            Act::Equip(item) => ("equip", vec![id, Felt::ONE, Felt::from(item)]),
            Act::Drop(item) => ("drop", vec![id, Felt::ONE, Felt::from(item)]),
        };
        Call {
            to: game,
            selector: get_selector_from_name(name).unwrap(),
            calldata,
        }
    }
}

/// What the policy did this level, so each level tries buy, equip and drop once.
#[derive(Default)]
pub(crate) struct Plan {
    level: u8,
    bought: Option<u8>,
    equipped: bool,
    dropped: bool,
    battles: u32,
    fled_this_battle: bool,
}

/// The scripted policy: flee (once) every other battle from level 2 when dexterity allows, else attack; spend points on
/// strength and vitality; each level buy the cheapest affordable item into the bag, equip it,
/// drop what it replaced; else explore.
pub(crate) fn decide(s: &GameState, p: &mut Plan) -> Option<Act> {
    let a = &s.adventurer;
    if a.health == 0 {
        return None;
    }
    if a.level() != p.level {
        *p = Plan {
            level: a.level(),
            battles: p.battles,
            ..Plan::default()
        };
    }
    if a.beast_health > 0 {
        // The game refuses to flee without dexterity (the policy's points go elsewhere).
        if !p.fled_this_battle && a.level() > 1 && p.battles % 2 == 1 && a.stats.dexterity > 0 {
            p.fled_this_battle = true;
            return Some(Act::Flee);
        }
        return Some(Act::Attack);
    }
    p.fled_this_battle = false;
    if a.stat_upgrades_available > 0 {
        let n = a.stat_upgrades_available;
        return Some(Act::Upgrade {
            strength: n.div_ceil(2),
            vitality: n / 2,
        });
    }
    let bag: Vec<u8> = s.bag.iter().map(|i| i.id).collect();
    if p.bought.is_none() && a.level() > 1 && bag.len() < 14 {
        let mut items = affordable_items(s);
        items.sort_by_key(|i| i.price);
        if let Some(item) = items.first() {
            p.bought = Some(item.id);
            return Some(Act::Buy(item.id));
        }
    }
    if let Some(item) = p.bought
        && !p.equipped
        && bag.contains(&item)
    {
        p.equipped = true;
        return Some(Act::Equip(item));
    }
    if p.equipped && !p.dropped && a.level() > 1 {
        p.dropped = true;
        if let Some(&item) = bag.first() {
            return Some(Act::Drop(item));
        }
    }
    p.battles += 1;
    Some(Act::Explore)
}

pub(crate) async fn game_state(provider: &Rpc, game: Felt, id: u64) -> GameState {
    let felts = provider
        .call(
            FunctionCall {
                contract_address: game,
                entry_point_selector: get_selector_from_name("get_game_state").unwrap(),
                calldata: vec![Felt::from(id)],
            },
            BlockId::Tag(BlockTag::PreConfirmed),
        )
        .await
        .expect("get_game_state");
    GameState::decode_felts(&felts).expect("decode game state")
}
