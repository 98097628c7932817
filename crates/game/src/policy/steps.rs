//! The policy's rules, one step at a time, from the advisors' figures however they were read:
//! computed on the engine ([`super::Policy`]) or asked of the MCP tools (the agent's reference
//! planner), so both decide by the same code.

use super::fight::{self, BattleChoice, FightOdds};
use super::shopping::{self, ItemValue};
use super::stats::{self, StatOption};
use super::tables::WeaponWin;
use super::weapon::{self, WeaponsLater};
use super::{Decision, Params, healing, pct};
use crate::advice::Stat;
use crate::catalogue::{self, Slot};
use crate::engine::Action;
use crate::model::ItemPurchase;
use crate::view::AdventurerView;

/// The first fight, against the starter beast: one attack.
pub fn starter_attack() -> Decision {
    Decision::new(
        Action::Attack {
            to_the_death: false,
        },
        "the starter beast: attacking",
    )
}

/// Whether the adventurer has a bagged weapon to swap to.
pub fn has_spare_weapon(view: &AdventurerView) -> bool {
    view.bag.iter().any(|i| i.slot == Slot::Weapon)
}

/// A swap to the bagged weapon with the best win chance, when it beats the equipped one by the
/// policy's margin.
pub fn swap(weapons: &[WeaponWin], p: &Params) -> Option<Decision> {
    let current = weapons.iter().find(|w| w.equipped).map_or(0.0, |w| w.win);
    weapons
        .iter()
        .filter(|w| !w.equipped)
        .max_by(|a, b| a.win.total_cmp(&b.win))
        .filter(|b| b.win >= current + p.swap_gain)
        .map(|b| {
            Decision::new(
                Action::Equip { items: vec![b.id] },
                format!(
                    "win {} with the {} after its free hit, {} as armed: swapping",
                    pct(b.win),
                    b.name,
                    pct(current)
                ),
            )
        })
}

/// Fight or flee on the battle preview's odds.
pub fn fight(odds: FightOdds, p: &Params) -> Decision {
    let (choice, reason) = fight::decide(odds, &p.fight);
    let action = match choice {
        BattleChoice::Attack { to_the_death } => Action::Attack { to_the_death },
        BattleChoice::Flee { to_the_death } => Action::Flee { to_the_death },
    };
    Decision::new(action, reason)
}

/// Every stat point into the stat furthest below its floor, else the advisor's best (`options`
/// is asked only then).
pub fn upgrade(
    view: &AdventurerView,
    p: &Params,
    options: impl FnOnce() -> Vec<StatOption>,
) -> Decision {
    let points = view.stat_upgrades_available;
    let behind = p
        .floors
        .most_behind(&view.stats, view.level)
        .map(|(stat, have, floor)| {
            (
                stat,
                format!(
                    "{points} stat point(s): {} {have} is below its floor {floor:.0}",
                    stat.name()
                ),
            )
        });
    let (stat, reason) = behind.unwrap_or_else(|| match stats::best(&options(), p.stat_risk_weight) {
        Some((o, _)) => (
            o.stat,
            format!(
                "{points} stat point(s): {} is worth {:.0} health over 20 steps (death risk per step {:.1} %)",
                o.stat.name(),
                o.value,
                o.death_risk * 100.0
            ),
        ),
        None => (Stat::Vitality, "stat points: vitality".to_string()),
    });
    Decision::new(
        Action::Upgrade {
            stats: stats::points_in(stat, points),
        },
        reason,
    )
}

/// Out of battle, before the market is read: spare gear to drop when the bag is nearly full
/// (`Err`), else the potions to buy and the gold left for items.
pub fn drop_or_potions(view: &AdventurerView, p: &Params) -> Result<(u32, u16), Decision> {
    if view.level > 1 {
        let spare = shopping::spare_items(view, p.drop_at);
        if !spare.is_empty() {
            return Err(Decision::new(
                Action::Drop { items: spare },
                "the bag is nearly full: dropping spare gear",
            ));
        }
    }
    let price = view.potion_price.max(1);
    let potions = healing::potions_to_buy(view.health, view.max_health, view.gold, price, &p.heal);
    let gold = view
        .gold
        .saturating_sub((potions * u32::from(price)) as u16);
    Ok((potions, gold))
}

/// Whether the market is worth reading (open, and past the first level).
pub fn shops(view: &AdventurerView) -> bool {
    !view.market.is_empty() && view.level > 1
}

/// The items to buy with `gold`: a stronger weapon first, then the market advice's best values
/// within the budget left after the potion reserve (`values` gives them for a budget).
pub fn purchases(
    view: &AdventurerView,
    p: &Params,
    mut gold: u16,
    weapons: &WeaponsLater,
    values: impl FnOnce(u16) -> Vec<ItemValue>,
) -> Vec<(u8, String)> {
    let mut items = Vec::new();
    let mut taken = Vec::new();
    if let Some((w, cost)) = weapon::upgrade(weapons, gold, view.bag.len() < 15, p.weapon_gain) {
        items.push((w, catalogue::item_name(w)));
        taken.push(Slot::Weapon);
        gold -= cost;
    }
    let budget = gold.saturating_sub(healing::reserve(view.potion_price.max(1), &p.heal));
    items.extend(shopping::choose(
        view,
        &values(budget),
        budget,
        p.min_item_per_gold,
        p.risk_weight,
        &taken,
    ));
    items
}

/// Buys the potions and items chosen, or explores when there are none.
pub fn buy_or_explore(
    view: &AdventurerView,
    p: &Params,
    potions: u32,
    items: &[(u8, String)],
) -> Decision {
    if potions > 0 || !items.is_empty() {
        let names: Vec<&str> = items.iter().map(|(_, n)| n.as_str()).collect();
        let reason = match (names.is_empty(), potions) {
            (true, n) => format!("health {}/{}: {n} potions", view.health, view.max_health),
            (false, 0) => format!("best buys for the gold: {}", names.join(", ")),
            (false, n) => format!("best buys for the gold: {}; {n} potions", names.join(", ")),
        };
        return Decision::new(
            Action::BuyItems {
                potions: u8::try_from(potions).unwrap_or(u8::MAX),
                items: items
                    .iter()
                    .map(|&(item_id, _)| ItemPurchase {
                        item_id,
                        equip: true,
                    })
                    .collect(),
            },
            reason,
        );
    }
    let till_beast = f64::from(view.health) >= p.heal.till_beast_from * f64::from(view.max_health);
    Decision::new(
        Action::Explore { till_beast },
        if till_beast {
            "exploring until a beast"
        } else {
            "exploring one step"
        },
    )
}
