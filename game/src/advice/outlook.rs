//! The odds of the coming levels for one adventurer: expected damage dealt per hit and taken per
//! beast hit against the beasts an explore can meet, ambush, obstacle and flee chances, expected
//! obstacle and ambush damage, and from these the expected health lost per explore step, for an
//! adventurer who fights a beast when that costs fewer hits on average than fleeing. Random bytes
//! are modelled as uniform, beasts and obstacles as uniform over their 15 tier/type pairs and their
//! level range (docs/game-rules.md#beasts, #obstacles); beast name specials (level ≥ 19) are
//! ignored.

use std::collections::HashMap;

use crate::catalogue::{ItemType, Tier};
use crate::combat::{self, ARMOR_SLOTS};
use crate::engine::{EngineSettings, StatsMode};
use crate::model::{Adventurer, BeastEvent, SpecialPowers};
use crate::random;
use crate::rules;

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

/// `(probability, crit)` of a hit by an attacker with crit `chance` (percent).
fn crit_split(chance: u8) -> [(f64, bool); 2] {
    let p = combat::critical_hit_probability(chance);
    [(1.0 - p, false), (p, true)]
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

/// Expected hits to kill, by (normal hit, crit hit, crit chance bits, lowest and highest health):
/// shared between outlooks of one adventurer whose weapon does not change.
pub type HitsCache = HashMap<(u16, u16, u64, u16, u16), f64>;

/// The outlook for `adv` (boosted stats, as in the game state) as if it were at `level`.
pub fn outlook_at(adv: &Adventurer, level: u8, settings: &EngineSettings) -> Outlook {
    outlook_cached(adv, level, settings, &mut HitsCache::new())
}

/// [`outlook_at`] with a cache of expected hits to kill.
pub fn outlook_cached(
    adv: &Adventurer,
    level: u8,
    settings: &EngineSettings,
    memo: &mut HitsCache,
) -> Outlook {
    let jewelry = settings.rules.jewelry_bonuses;
    let reduction = settings.base_damage_reduction;
    let mut a = *adv;
    a.xp = u16::from(level).pow(2).max(1);
    let beast_crit = crit_split(rules::critical_hit_chance(level));
    let adv_crit = combat::critical_hit_probability(a.stats.luck);
    let level_range = levels(level);
    let health_range = healths(level);
    let n_levels = level_range.clone().count() as f64;
    let per_kind = 1.0 / 15.0 / n_levels;
    let slots: Vec<(f64, crate::catalogue::Slot)> = ARMOR_SLOTS
        .iter()
        .enumerate()
        .map(|(i, s)| (combat::slot_probability(i), *s))
        .collect();
    let (wis_cut, int_cut) = match settings.stats_mode {
        StatsMode::Dodge => (0, 0),
        StatsMode::Reduction => (
            combat::ability_damage_reduction(level, a.stats.wisdom),
            combat::ability_damage_reduction(level, a.stats.intelligence),
        ),
    };
    let (ambush_chance, dodge_chance) = match settings.stats_mode {
        StatsMode::Dodge => (
            1.0 - combat::avoid_threat_probability(level, a.stats.wisdom),
            combat::avoid_threat_probability(level, a.stats.intelligence),
        ),
        StatsMode::Reduction => (1.0, 0.0),
    };
    let health = a.health.max(1);
    let mut o = Outlook {
        ambush_chance,
        dodge_chance,
        flee_chance: if a.stats.dexterity == 0 {
            0.0
        } else {
            combat::avoid_threat_probability(level, a.stats.dexterity)
        },
        ..Outlook::default()
    };
    let (mut ambush_kills, mut obstacle_kills, mut fight_loss) = (0.0, 0.0, 0.0);
    let flee_cost = flee_hits(if a.level() > 1 { o.flee_chance } else { 0.0 });
    for id in kinds() {
        for lvl in level_range.clone() {
            let b = beast(id, lvl);
            let d0 = combat::adventurer_hit(&a, &b, false, jewelry);
            let d1 = combat::adventurer_hit(&a, &b, true, jewelry);
            o.damage_dealt +=
                per_kind * ((1.0 - adv_crit) * f64::from(d0) + adv_crit * f64::from(d1));
            let hits = *memo
                .entry((
                    d0,
                    d1,
                    adv_crit.to_bits(),
                    *health_range.start(),
                    *health_range.end(),
                ))
                .or_insert_with(|| expected_hits(&health_range, d0, d1, adv_crit));
            let mut hit = 0.0;
            for &(ps, slot) in &slots {
                for (pc, crit) in beast_crit {
                    let p = per_kind * ps * pc;
                    let d = combat::beast_hit(&a, &b, slot, crit, jewelry);
                    hit += ps * pc * f64::from(d);
                    let amb = combat::apply_damage_reduction(
                        combat::apply_damage_reduction(d, reduction),
                        wis_cut,
                    );
                    o.ambush_damage += p * f64::from(amb);
                    if amb >= health {
                        ambush_kills += p;
                    }
                    let od = combat::obstacle_hit(&a, id, lvl, slot, crit, jewelry);
                    let od = combat::apply_damage_reduction(
                        combat::apply_damage_reduction(od, reduction),
                        int_cut,
                    );
                    o.obstacle_damage += p * f64::from(od);
                    if od >= health {
                        obstacle_kills += p;
                    }
                }
            }
            o.beast_hit += per_kind * hit;
            let taken = (hits - 1.0).max(0.0).min(flee_cost);
            o.hits_taken_per_fight += per_kind * taken;
            fight_loss += per_kind * taken * hit;
        }
    }
    o.health_per_explore = P_BEAST * (o.ambush_chance * o.ambush_damage + fight_loss)
        + P_OBSTACLE * (1.0 - o.dodge_chance) * o.obstacle_damage;
    o.death_risk = P_BEAST * o.ambush_chance * ambush_kills
        + P_OBSTACLE * (1.0 - o.dodge_chance) * obstacle_kills;
    o
}

/// The outlook averaged over `levels_ahead` consecutive adventurer levels from the current one.
pub fn outlook(adv: &Adventurer, levels_ahead: u8, settings: &EngineSettings) -> Outlook {
    outlook_over(adv, levels_ahead, settings, &mut HitsCache::new())
}

/// [`outlook`] with a cache of expected hits to kill.
pub fn outlook_over(
    adv: &Adventurer,
    levels_ahead: u8,
    settings: &EngineSettings,
    memo: &mut HitsCache,
) -> Outlook {
    let start = adv.level().max(2);
    let n = levels_ahead.max(1);
    let mut sum = Outlook::default();
    for k in 0..n {
        let o = outlook_cached(adv, start.saturating_add(k), settings, memo);
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
