//! `ls_advise`'s arguments and result: the pure game advice (crates/game/src/advice) rounded and trimmed
//! to what a decision needs (a few hundred bytes to about 1.5 KB).

use game::AdventurerId;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::error::{SCHEMA_VERSION, ToolError};
use game::advice::{self, Outlook, OutlookMemo};
use game::engine::EngineSettings;
use game::model::GameState;
use game::phase::{self, Phase};
use game::rules;

/// Default number of market items listed.
pub(crate) const ADVICE_DEFAULT_LIMIT: u64 = 6;

/// Which advice to give.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum AdviceTopic {
    /// Market items' value, best buys and downgrades (market open only).
    Market,
    /// What one more point in each stat does.
    Stats,
    /// The fight against the current beast with each of your weapons (in battle only).
    Weapons,
}

/// `ls_advise` arguments.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
pub struct AdviseArgs {
    /// The adventurer (game token id).
    pub adventurer_id: AdventurerId,
    /// Default: weapons in battle, stats with points unspent, else market.
    #[serde(default)]
    pub about: Option<AdviceTopic>,
    /// Gold to keep back (e.g. for potions) from the best buys.
    #[serde(default)]
    pub keep_gold: Option<u64>,
    /// Market items listed (1–25, default 6).
    #[serde(default)]
    pub limit: Option<u64>,
}

/// The odds of one explore step at your level and the next.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct OutlookView {
    /// Expected health lost per explore step (ambush, fight to the end, obstacle).
    pub health_per_explore: f64,
    /// Probability that the next explore step kills you at your current health.
    pub death_risk: f64,
    /// Probability that a beast ambushes you.
    pub ambush: f64,
    /// Probability of dodging an obstacle.
    pub dodge: f64,
    /// Probability that one flee attempt succeeds.
    pub flee: f64,
    /// Your expected damage per hit on the beasts you will meet.
    pub damage_per_hit: f64,
    /// Expected damage of one beast hit on you.
    pub beast_hit: f64,
}

/// One market item's value for you.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct ItemAdvice {
    /// Item id.
    pub id: u8,
    /// Item name.
    pub name: String,
    /// Price after charisma.
    pub price: u16,
    /// Health it saves over the next 20 explore steps (negative: it hurts).
    pub value: f64,
    /// `value` per gold; compare with `potion_health_per_gold`.
    pub per_gold: f64,
    /// Change of your expected damage per hit (weapons).
    pub damage_change: f64,
    /// Deaths avoided over 20 explore steps at full health (one-shot risk saved).
    pub risk_saved: f64,
    /// Worse than what your slot holds, now and in two levels.
    pub downgrade: bool,
}

/// The best buys for your gold.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct BestBuysView {
    /// Item ids to buy with `equip: true`, in order.
    pub items: Vec<u8>,
    /// Their names.
    pub names: Vec<String>,
    /// Total price.
    pub cost: u16,
    /// Health saved over 20 explore steps.
    pub value: f64,
}

/// Your weapon's figures a few levels on, after the item xp to come.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct AttackLater {
    /// Base attack then: tier multiplier × greatness.
    pub attack: u16,
    /// Expected damage per hit then, on the beasts of that level.
    pub damage: f64,
}

/// Market weapons of one tier a few levels on (bought at greatness 1; on average over the
/// beasts' types every weapon of a tier hits alike).
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct WeaponTierLater {
    /// Their item ids (buy any).
    pub ids: Vec<u8>,
    /// Price after charisma.
    pub price: u16,
    /// Base attack then: tier multiplier × greatness.
    pub attack: u16,
    /// Expected damage per hit then, on the beasts of that level.
    pub damage: f64,
}

/// Most market weapon tiers listed in `weapons_later`.
pub(crate) const WEAPONS_LATER_LIMIT: usize = 5;

/// Your weapon against the market's, three levels on (a bought weapon starts at greatness 1).
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct WeaponsLater {
    /// The level they are projected to.
    pub level: u8,
    /// Your equipped weapon then.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub yours: Option<AttackLater>,
    /// The market's weapons that will outhit yours then, by tier, greatest attack first.
    pub market: Vec<WeaponTierLater>,
}

/// Market advice.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct MarketAdvice {
    /// Health a potion gives per gold now (10 / potion price).
    pub potion_health_per_gold: f64,
    /// Items worth buying, best value per gold first (at most `limit`).
    pub items: Vec<ItemAdvice>,
    /// Ids of the market items that would make you weaker.
    pub downgrades: Vec<u8>,
    /// What to buy with your gold (less `keep_gold`).
    pub best_buys: BestBuysView,
    /// Weapons compared a few levels on (omitted when no market weapon will outhit yours).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub weapons_later: Option<WeaponsLater>,
}

/// One more point in a stat.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct StatAdvice {
    /// strength, dexterity, vitality, intelligence, wisdom or charisma.
    pub stat: String,
    /// Health-equivalent value over 20 explore steps (health saved; +15 for vitality; potions
    /// saved for charisma).
    pub value: f64,
    /// The odds with the point (death risk at full health: heal before exploring).
    pub with_point: OutlookView,
}

/// The fight with one weapon.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct WeaponAdvice {
    /// Weapon id.
    pub id: u8,
    /// Weapon name.
    pub name: String,
    /// The weapon equipped now.
    pub equipped: bool,
    /// strong, fair or weak against the beast.
    pub effectiveness: String,
    /// Damage per hit without a crit.
    pub damage: u16,
    /// Win probability attacking to the death (after the beast's free hit for a swap).
    pub win: f64,
}

/// The result of `ls_advise`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct AdviceResult {
    /// Always true (failures are tool errors).
    pub ok: bool,
    /// Version of this envelope.
    pub schema_version: String,
    /// The chain profile read from.
    pub chain: String,
    /// The adventurer.
    pub adventurer_id: AdventurerId,
    /// Level.
    pub level: u8,
    /// Odds over uniform randomness, never a peek at outcomes.
    pub basis: String,
    /// The odds now, as you are.
    pub now: OutlookView,
    /// Market advice (about market).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub market: Option<MarketAdvice>,
    /// One more point in each stat, best value first (about stats).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stats: Option<Vec<StatAdvice>>,
    /// Your weapons against the current beast (about weapons).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub weapons: Option<Vec<WeaponAdvice>>,
}

fn r3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

fn r1(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

fn outlook_view(o: &Outlook) -> OutlookView {
    OutlookView {
        health_per_explore: r1(o.health_per_explore),
        death_risk: r3(o.death_risk),
        ambush: r3(o.ambush_chance),
        dodge: r3(o.dodge_chance),
        flee: r3(o.flee_chance),
        damage_per_hit: r1(o.damage_dealt),
        beast_hit: r1(o.beast_hit),
    }
}

fn market_advice(
    state: &GameState,
    settings: &EngineSettings,
    memo: &mut OutlookMemo,
    keep_gold: u16,
    limit: usize,
) -> MarketAdvice {
    let adv = &state.adventurer;
    let values = advice::market_values(state, settings, memo);
    let buys = advice::best_buys(state, &values, adv.gold.saturating_sub(keep_gold));
    let price = rules::potion_price(adv.level(), adv.stats.charisma);
    let (equipped, mut market) = advice::market::weapon_projections(state, settings, memo);
    let mine = equipped.as_ref().map_or(0, |w| w.attack_later);
    market.retain(|w| w.attack_later > mine);
    market.sort_by(|a, b| {
        b.attack_later
            .cmp(&a.attack_later)
            .then(a.price.cmp(&b.price))
    });
    let mut tiers: Vec<WeaponTierLater> = Vec::new();
    for w in &market {
        match tiers.last_mut() {
            Some(t) if t.attack == w.attack_later && t.price == w.price => t.ids.push(w.id),
            _ => tiers.push(WeaponTierLater {
                ids: vec![w.id],
                price: w.price,
                attack: w.attack_later,
                damage: r1(w.damage_later),
            }),
        }
    }
    tiers.truncate(WEAPONS_LATER_LIMIT);
    let weapons_later = (!tiers.is_empty()).then(|| WeaponsLater {
        level: adv
            .level()
            .max(2)
            .saturating_add(advice::market::WEAPON_PROJECTION_LEVELS),
        yours: equipped.as_ref().map(|w| AttackLater {
            attack: w.attack_later,
            damage: r1(w.damage_later),
        }),
        market: tiers,
    });
    MarketAdvice {
        potion_health_per_gold: r3(f64::from(rules::POTION_HEALTH) / f64::from(price.max(1))),
        items: values
            .iter()
            .filter(|v| v.value > 0.0)
            .take(limit)
            .map(|v| ItemAdvice {
                id: v.id,
                name: v.name.clone(),
                price: v.price,
                value: r1(v.value),
                per_gold: r3(v.value_per_gold),
                damage_change: r1(v.damage_change),
                risk_saved: (v.risk_saved * 10_000.0).round() / 10_000.0,
                downgrade: v.downgrade,
            })
            .collect(),
        downgrades: values
            .iter()
            .filter(|v| v.downgrade)
            .map(|v| v.id)
            .collect(),
        best_buys: BestBuysView {
            names: buys
                .items
                .iter()
                .map(|&id| game::catalogue::item_name(id))
                .collect(),
            items: buys.items,
            cost: buys.cost,
            value: r1(buys.value),
        },
        weapons_later,
    }
}

/// Builds `ls_advise`'s answer from a state (pure; used by the tool, the agent and tests).
pub fn advice_result(
    chain: &str,
    adventurer_id: AdventurerId,
    state: &GameState,
    settings: &EngineSettings,
    args: &AdviseArgs,
) -> Result<AdviceResult, ToolError> {
    let adv = &state.adventurer;
    if adv.health == 0 {
        return Err(ToolError::validation(format!(
            "adventurer {adventurer_id} is dead or has not started"
        ))
        .with_detail("adventurer_id", adventurer_id)
        .with_hint("start a new game with ls_new_game"));
    }
    let limit = args.limit.unwrap_or(ADVICE_DEFAULT_LIMIT);
    super::args::in_range("limit", limit, 1, 25)?;
    let keep_gold = args.keep_gold.unwrap_or(0).min(u64::from(rules::MAX_GOLD)) as u16;
    let phase = phase::phase(adv);
    let topic = args.about.unwrap_or(match phase {
        Phase::InBattle => AdviceTopic::Weapons,
        _ if adv.stat_upgrades_available > 0 => AdviceTopic::Stats,
        _ => AdviceTopic::Market,
    });
    let closed = |what: &str, hint: &str| {
        ToolError::validation(format!("no {what} advice now: {hint}"))
            .with_detail("adventurer_id", adventurer_id)
    };
    let memo = &mut OutlookMemo::default();
    let (now, stats_advice) = if topic == AdviceTopic::Stats {
        let (base, effects) = advice::stat_effects(adv, settings, memo);
        let mut list: Vec<StatAdvice> = effects
            .iter()
            .map(|e| StatAdvice {
                stat: e.stat.name().to_string(),
                value: r1(e.value),
                with_point: outlook_view(&e.outlook),
            })
            .collect();
        list.sort_by(|a, b| b.value.total_cmp(&a.value));
        (base, Some(list))
    } else {
        (memo.over(adv, advice::market::LEVELS_AHEAD, settings), None)
    };
    let market = match topic {
        AdviceTopic::Market if !phase::market_open(adv) => {
            return Err(closed(
                "market",
                "the market is closed in battle and while stat points are unspent",
            ));
        }
        AdviceTopic::Market => Some(market_advice(
            state,
            settings,
            memo,
            keep_gold,
            limit as usize,
        )),
        _ => None,
    };
    let weapons = match topic {
        AdviceTopic::Weapons if !adv.in_battle() => {
            return Err(closed("weapons", "you are not in battle"));
        }
        AdviceTopic::Weapons => Some(
            advice::weapon_options(state, settings)
                .into_iter()
                .map(|w| WeaponAdvice {
                    id: w.id,
                    name: w.name,
                    equipped: w.equipped,
                    effectiveness: format!("{:?}", w.effectiveness).to_lowercase(),
                    damage: w.damage,
                    win: r3(w.win_probability),
                })
                .collect(),
        ),
        _ => None,
    };
    Ok(AdviceResult {
        ok: true,
        schema_version: SCHEMA_VERSION.into(),
        chain: chain.to_string(),
        adventurer_id,
        level: adv.level(),
        basis: "odds over uniform randomness for your level and the next; no outcome is known in advance".into(),
        now: outlook_view(&now),
        market,
        stats: stats_advice,
        weapons,
    })
}
