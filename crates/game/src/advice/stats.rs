//! What one more point in each stat does over the coming levels: ambush, obstacle-dodge and flee
//! chances, damage dealt, health lost per explore step, the risk that the next step kills, and
//! (charisma) the potion price; plus a health-equivalent value to rank them.

use super::market::{HORIZON_EXPLORES, LEVELS_AHEAD};
use super::outlook::{Outlook, OutlookMemo};
use crate::engine::EngineSettings;
use crate::model::{Adventurer, Stats};
use crate::rules;

/// A stat that can be raised.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stat {
    /// +10 % damage per point.
    Strength,
    /// Flee chance.
    Dexterity,
    /// +15 max health (and +15 health now).
    Vitality,
    /// Obstacle dodge chance.
    Intelligence,
    /// Ambush avoidance.
    Wisdom,
    /// Cheaper potions (2 gold) and items (1 gold).
    Charisma,
}

impl Stat {
    /// All six, in the order of the upgrade arguments.
    pub const ALL: [Stat; 6] = [
        Stat::Strength,
        Stat::Dexterity,
        Stat::Vitality,
        Stat::Intelligence,
        Stat::Wisdom,
        Stat::Charisma,
    ];

    /// The stat's name, as the upgrade's arguments spell it.
    pub fn name(self) -> &'static str {
        match self {
            Stat::Strength => "strength",
            Stat::Dexterity => "dexterity",
            Stat::Vitality => "vitality",
            Stat::Intelligence => "intelligence",
            Stat::Wisdom => "wisdom",
            Stat::Charisma => "charisma",
        }
    }

    /// The stat's value in `s`.
    pub fn get(self, s: &Stats) -> u8 {
        match self {
            Stat::Strength => s.strength,
            Stat::Dexterity => s.dexterity,
            Stat::Vitality => s.vitality,
            Stat::Intelligence => s.intelligence,
            Stat::Wisdom => s.wisdom,
            Stat::Charisma => s.charisma,
        }
    }

    /// `s` with this stat raised by one.
    pub fn raised(self, mut s: Stats) -> Stats {
        let v = match self {
            Stat::Strength => &mut s.strength,
            Stat::Dexterity => &mut s.dexterity,
            Stat::Vitality => &mut s.vitality,
            Stat::Intelligence => &mut s.intelligence,
            Stat::Wisdom => &mut s.wisdom,
            Stat::Charisma => &mut s.charisma,
        };
        *v = v.saturating_add(1);
        s
    }
}

/// The effect of one more point in a stat.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StatEffect {
    /// The stat.
    pub stat: Stat,
    /// The outlook with the point.
    pub outlook: Outlook,
    /// Max health with the point.
    pub max_health: u16,
    /// Potion price now with the point.
    pub potion_price: u16,
    /// Health-equivalent value over [`HORIZON_EXPLORES`] steps: health saved, plus 15 for
    /// vitality, plus for charisma the health the gold saved on potions buys (at most the health lost).
    pub value: f64,
}

/// The adventurer with `stat` raised by one point (vitality also heals 15).
pub fn with_point(adv: &Adventurer, stat: Stat) -> Adventurer {
    let mut a = *adv;
    a.stats = stat.raised(a.stats);
    if stat == Stat::Vitality {
        a.health = (a.health + rules::VITALITY_HEALTH).min(a.max_health());
    }
    a
}

/// The effect of one more point in each stat that is below the cap, with the outlook without;
/// death risks are at full health (you heal before exploring).
pub fn stat_effects(
    adv: &Adventurer,
    settings: &EngineSettings,
    memo: &mut OutlookMemo,
) -> (Outlook, Vec<StatEffect>) {
    let mut adv = *adv;
    adv.health = adv.max_health();
    let adv = &adv;
    let base = memo.over(adv, LEVELS_AHEAD, settings);
    let price = rules::potion_price(adv.level(), adv.stats.charisma);
    let effects = Stat::ALL
        .into_iter()
        .filter(|s| s.get(&adv.stats) < rules::MAX_STAT_VALUE)
        .map(|stat| {
            let a = with_point(adv, stat);
            let o = memo.over(&a, LEVELS_AHEAD, settings);
            let potion_price = rules::potion_price(a.level(), a.stats.charisma);
            let mut value = HORIZON_EXPLORES * (base.health_per_explore - o.health_per_explore);
            if stat == Stat::Vitality {
                value += f64::from(rules::VITALITY_HEALTH);
            }
            if potion_price < price {
                let needed = HORIZON_EXPLORES * base.health_per_explore;
                let saved_gold =
                    needed / f64::from(rules::POTION_HEALTH) * f64::from(price - potion_price);
                let bought = saved_gold * f64::from(rules::POTION_HEALTH) / f64::from(potion_price);
                value += bought.min(needed);
            }
            StatEffect {
                stat,
                outlook: o,
                max_health: a.max_health(),
                potion_price,
                value,
            }
        })
        .collect();
    (base, effects)
}
