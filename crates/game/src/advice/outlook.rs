//! The odds of the coming levels for one adventurer: expected damage dealt per hit and taken per
//! beast hit against the beasts an explore can meet, ambush, obstacle and flee chances, expected
//! obstacle and ambush damage, and from these the expected health lost per explore step, for an
//! adventurer who fights a beast when that costs fewer hits on average than fleeing. Random bytes
//! are modelled as uniform, beasts and obstacles as uniform over their 15 tier/type pairs and their
//! level range (docs/game-rules.md#beasts, #obstacles); beast name specials (level ≥ 19) are
//! ignored.

use std::collections::HashMap;

use super::damage::DamageTables;
use crate::catalogue::{ItemType, Tier};
use crate::engine::EngineSettings;
use crate::model::{Adventurer, BeastEvent, SpecialPowers, Stats};
use crate::random;

/// Probability that one explore step meets a beast (`rnd % 3 == 0` over a byte).
pub const P_BEAST: f64 = 86.0 / 256.0;
/// Probability that one explore step meets an obstacle (`rnd % 3 == 1`).
pub const P_OBSTACLE: f64 = 85.0 / 256.0;

/// What the next explore steps hold at one adventurer level, for one adventurer.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Outlook {
    /// Expected damage of one of your hits on a beast met at this level (crits included).
    pub damage_dealt: f64,
    /// Expected damage of one beast hit on you (random slot, crits included).
    pub beast_hit: f64,
    /// Expected beast hits you take per beast met here, attacking to the end or fleeing to the
    /// end, whichever costs fewer hits on average for that beast's tier, type and level.
    pub hits_taken_per_fight: f64,
    /// Probability that a beast ambushes you (before the fight).
    pub ambush_chance: f64,
    /// Expected ambush damage when ambushed.
    pub ambush_damage: f64,
    /// Probability of dodging an obstacle.
    pub dodge_chance: f64,
    /// Expected obstacle damage when not dodged.
    pub obstacle_damage: f64,
    /// Probability that one flee attempt succeeds (0 without dexterity).
    pub flee_chance: f64,
    /// Expected health lost per explore step (beast: ambush plus the fight; obstacle).
    pub health_per_explore: f64,
    /// Probability that the next explore step kills you at your current health (an ambush or
    /// an obstacle hit at least as large as your health).
    pub death_risk: f64,
}

/// A representative beast or obstacle id for a tier and type (ids come in blocks of five).
pub fn representative_id(tier: Tier, kind: ItemType) -> u8 {
    let block = match kind {
        ItemType::MagicOrCloth => 0,
        ItemType::BladeOrHide => 25,
        _ => 50,
    };
    let t = match tier {
        Tier::T1 => 0,
        Tier::T2 => 5,
        Tier::T3 => 10,
        Tier::T4 => 15,
        _ => 20,
    };
    block + t + 1
}

/// The 15 tier/type pairs as representative ids, each met with probability 1/15.
pub fn kinds() -> impl Iterator<Item = u8> {
    [
        ItemType::MagicOrCloth,
        ItemType::BladeOrHide,
        ItemType::BludgeonOrMetal,
    ]
    .into_iter()
    .flat_map(|k| {
        [Tier::T1, Tier::T2, Tier::T3, Tier::T4, Tier::T5]
            .into_iter()
            .map(move |t| representative_id(t, k))
    })
}

/// The beast or obstacle levels met by an adventurer of `level`, each equally likely.
pub fn levels(level: u8) -> std::ops::RangeInclusive<u16> {
    let lo = random::random_level(level, 0);
    lo..=lo + 3 * u16::from(level.max(1)) - 1
}

/// The beast healths met by an adventurer of `level`, each equally likely.
pub fn healths(level: u8) -> std::ops::RangeInclusive<u16> {
    let lo = random::beast_health(level, 0);
    let hi = random::beast_health(level, (20 * u32::from(level.max(1)) - 1) as u16);
    lo..=hi
}

/// A beast of this id and level (no specials).
pub fn beast(id: u8, level: u16) -> BeastEvent {
    BeastEvent {
        id,
        seed: 0,
        health: 1,
        level,
        specials: SpecialPowers::default(),
        is_collectable: false,
    }
}

/// Expected beast hits taken while fleeing to the end with flee chance `f` per attempt (each
/// failed attempt is a hit); infinite when fleeing is impossible.
pub fn flee_hits(f: f64) -> f64 {
    if f > 0.0 {
        (1.0 - f) / f
    } else {
        f64::INFINITY
    }
}

/// Expected hits needed to deal at least each health in `healths` with hits of `d0` (normal)
/// or `d1` (crit, probability `pc`), averaged over the healths.
pub fn expected_hits(healths: &std::ops::RangeInclusive<u16>, d0: u16, d1: u16, pc: f64) -> f64 {
    let (d0, d1) = (usize::from(d0.max(1)), usize::from(d1.max(1)));
    let top = usize::from(*healths.end());
    let mut f = vec![0.0f64; top + 1];
    for h in 1..=top {
        let a = f[h.saturating_sub(d0)];
        let b = f[h.saturating_sub(d1)];
        f[h] = 1.0 + (1.0 - pc) * a + pc * b;
    }
    let n = healths.clone().count().max(1) as f64;
    healths.clone().map(|h| f[usize::from(h)]).sum::<f64>() / n
}

/// Expected hits to kill, by (normal hit, crit hit, crit chance bits, lowest and highest health).
pub(super) type HitsCache = HashMap<(u16, u16, u64, u16, u16), f64>;

/// The outlook for `adv` (boosted stats, as in the game state) as if it were at `level`.
pub fn outlook_at(adv: &Adventurer, level: u8, settings: &EngineSettings) -> Outlook {
    OutlookMemo::default().at(adv, level, settings)
}

/// Everything an outlook reads of an adventurer: each equipped item's id and greatness, the
/// specials seed, the stats and health (its xp is replaced by the level looked at).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Loadout {
    items: [(u8, u8); 8],
    specials_seed: u16,
    stats: Stats,
    health: u16,
    level: u8,
}

impl Loadout {
    fn of(adv: &Adventurer, level: u8) -> Self {
        Self {
            items: adv
                .equipment
                .slots()
                .map(|(_, item)| (item.id, item.greatness())),
            specials_seed: adv.item_specials_seed,
            stats: adv.stats,
            health: adv.health,
            level,
        }
    }
}

/// Outlooks already computed in one world, and the hit tables behind them, kept between calls
/// (an outlook depends on an item's xp only through its greatness, so most recur from one market
/// to the next). The rules are not part of what is remembered: every call must pass the same
/// settings.
#[derive(Debug, Clone, Default)]
pub struct OutlookMemo {
    outlooks: HashMap<Loadout, Outlook>,
    damage: DamageTables,
    computed: u64,
}

impl OutlookMemo {
    /// Outlooks computed so far (the rest were remembered).
    pub fn computed(&self) -> u64 {
        self.computed
    }

    /// The outlook for `adv` as if it were at `level`.
    pub fn at(&mut self, adv: &Adventurer, level: u8, settings: &EngineSettings) -> Outlook {
        let key = Loadout::of(adv, level);
        if let Some(o) = self.outlooks.get(&key) {
            return *o;
        }
        self.computed += 1;
        let o = self.damage.outlook(adv, level, settings);
        self.outlooks.insert(key, o);
        o
    }

    /// The outlook averaged over `levels_ahead` consecutive adventurer levels from the current one.
    pub fn over(
        &mut self,
        adv: &Adventurer,
        levels_ahead: u8,
        settings: &EngineSettings,
    ) -> Outlook {
        let start = adv.level().max(2);
        let n = levels_ahead.max(1);
        let mut sum = Outlook::default();
        for k in 0..n {
            let o = self.at(adv, start.saturating_add(k), settings);
            sum.damage_dealt += o.damage_dealt;
            sum.beast_hit += o.beast_hit;
            sum.hits_taken_per_fight += o.hits_taken_per_fight;
            sum.ambush_chance += o.ambush_chance;
            sum.ambush_damage += o.ambush_damage;
            sum.dodge_chance += o.dodge_chance;
            sum.obstacle_damage += o.obstacle_damage;
            sum.flee_chance += o.flee_chance;
            sum.health_per_explore += o.health_per_explore;
            sum.death_risk += o.death_risk;
        }
        let k = f64::from(n);
        Outlook {
            damage_dealt: sum.damage_dealt / k,
            beast_hit: sum.beast_hit / k,
            hits_taken_per_fight: sum.hits_taken_per_fight / k,
            ambush_chance: sum.ambush_chance / k,
            ambush_damage: sum.ambush_damage / k,
            dodge_chance: sum.dodge_chance / k,
            obstacle_damage: sum.obstacle_damage / k,
            flee_chance: sum.flee_chance / k,
            health_per_explore: sum.health_per_explore / k,
            death_risk: sum.death_risk / k,
        }
    }
}
