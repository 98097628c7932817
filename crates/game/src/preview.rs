//! The battle preview: damage both ways with and without a critical
//! hit, both crit chances, flee and ambush odds, rounds to kill and to die, and the probability of
//! winning when attacking to the death. Random bytes are modelled as uniform and independent; the
//! win probability is then computed exactly, or by a bounded simulation for very long fights.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::beast_display::BeastDisplay;
use super::catalogue::{ItemType, Slot, Tier};
use super::combat::{self, ARMOR_SLOTS, CombatSpec, Effectiveness};
use super::engine::{EngineSettings, StatsMode};
use super::model::{Adventurer, BeastEvent, GameState};
use super::rules;

/// Above this many steps (rounds × health × outcomes) the win probability is simulated.
const EXACT_BUDGET: usize = 1_500_000;
/// Fights simulated when the exact computation is too long.
const SIMULATED_FIGHTS: u32 = 1000;

/// A beast's hit on one armor slot.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct SlotHitPreview {
    /// Armor slot hit.
    pub slot: Slot,
    /// Damage without a crit.
    pub damage: u16,
    /// Damage with a crit.
    pub critical_damage: u16,
}

/// A range of rounds: with the luckiest and the unluckiest rolls.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Rounds {
    /// Fewest rounds possible.
    pub fewest: u16,
    /// Most rounds possible.
    pub most: u16,
}

/// How the win probability was obtained.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum WinMethod {
    /// Exact over the hit distributions.
    Exact,
    /// Estimated from simulated fights (`simulated_fights`, fixed seed).
    Simulation,
}

/// What fighting (or fleeing) a beast looks like.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct BattlePreview {
    /// Beast id.
    pub beast_id: u8,
    /// Beast name with specials.
    pub beast_name: String,
    /// Beast tier.
    pub beast_tier: Tier,
    /// Beast type.
    pub beast_type: ItemType,
    /// Beast level.
    pub beast_level: u16,
    /// Beast's remaining health.
    pub beast_health: u16,
    /// Your weapon's effectiveness against the beast.
    pub effectiveness: Effectiveness,
    /// Your damage per hit without a crit.
    pub damage: u16,
    /// Your damage per hit with a crit.
    pub critical_damage: u16,
    /// Your crit probability per hit (from luck).
    pub critical_chance: f64,
    /// Your hits needed: all crits (fewest) to no crit (most).
    pub rounds_to_kill: Rounds,
    /// The beast's damage by armor slot (each slot is hit with probability about 1/5).
    pub beast_damage: Vec<SlotHitPreview>,
    /// The beast's crit probability per hit (your level, in percent, capped at 100).
    pub beast_critical_chance: f64,
    /// Smallest damage of one beast hit.
    pub beast_min_damage: u16,
    /// Largest damage of one beast hit (a crit on your weakest slot).
    pub beast_max_damage: u16,
    /// Expected damage of one beast hit.
    pub beast_expected_damage: f64,
    /// Your health.
    pub health: u16,
    /// Beast hits you survive before dying: with its biggest hits (fewest) to its smallest (most).
    pub rounds_to_die: Rounds,
    /// Probability of killing the beast before dying when attacking to the death.
    pub win_probability: f64,
    /// How `win_probability` was computed.
    pub win_method: WinMethod,
    /// Number of simulated fights when `win_method` is `simulation`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub simulated_fights: Option<u32>,
    /// Probability that one flee attempt succeeds (None when fleeing is not allowed).
    pub flee_chance: Option<f64>,
    /// Probability of escaping alive when fleeing to the death (None when not allowed).
    pub flee_to_the_death_probability: Option<f64>,
    /// Probability that the next beast you meet ambushes you (wisdom against level).
    pub next_ambush_chance: f64,
    /// Probability of dodging the next obstacle (intelligence against level).
    pub next_obstacle_dodge_chance: f64,
}

fn round4(x: f64) -> f64 {
    (x * 10_000.0).round() / 10_000.0
}

/// The distribution of one beast hit as (probability, damage), equal damages merged.
fn beast_hit_distribution(adv: &Adventurer, beast: &BeastEvent, jewelry: bool) -> Vec<(f64, u16)> {
    let p_crit = combat::critical_hit_probability(rules::critical_hit_chance(adv.level()));
    let mut out: Vec<(f64, u16)> = Vec::with_capacity(10);
    for (i, slot) in ARMOR_SLOTS.iter().enumerate() {
        let ps = combat::slot_probability(i);
        for (p, crit) in [(ps * (1.0 - p_crit), false), (ps * p_crit, true)] {
            if p <= 0.0 {
                continue;
            }
            let d = combat::beast_hit(adv, beast, *slot, crit, jewelry);
            match out.iter_mut().find(|(_, e)| *e == d) {
                Some(entry) => entry.0 += p,
                None => out.push((p, d)),
            }
        }
    }
    out
}

/// P(Binomial(n, p) ≥ k) from a distribution of crit counts after n hits.
fn tail(crits: &[f64], k: usize) -> f64 {
    crits.iter().skip(k).sum()
}

/// Exact win probability: the adventurer needs N hits (normal `d0` or crit `d1` with probability
/// `pc`), the beast lands one hit after each of the first N − 1; the adventurer wins iff those
/// hits sum below `adv_hp`. Returns None when the computation would exceed the budget.
fn win_probability_exact(
    beast_hp: u16,
    adv_hp: u16,
    (d0, d1, pc): (u16, u16, f64),
    beast_hits: &[(f64, u16)],
) -> Option<f64> {
    if beast_hp == 0 {
        return Some(1.0);
    }
    if adv_hp == 0 {
        return Some(0.0);
    }
    let d0 = usize::from(d0.max(1));
    let d1 = usize::from(d1).max(d0);
    let (b, h) = (usize::from(beast_hp), usize::from(adv_hp));
    let n_max = b.div_ceil(d0);
    if n_max * h * beast_hits.len() > EXACT_BUDGET {
        return None;
    }
    let min_k = |n: usize| -> Option<usize> {
        if n * d0 >= b {
            return Some(0);
        }
        if d1 == d0 {
            return None;
        }
        let k = (b - n * d0).div_ceil(d1 - d0);
        (k <= n).then_some(k)
    };
    let mut crits = vec![1.0f64];
    let mut sums = vec![0.0f64; h];
    sums[0] = 1.0;
    let (mut lo, mut alive, mut prev_cdf, mut win) = (0usize, 1.0f64, 0.0f64, 0.0f64);
    for n in 1..=n_max {
        let mut next = vec![0.0f64; n + 1];
        for (k, p) in crits.iter().enumerate() {
            next[k] += p * (1.0 - pc);
            next[k + 1] += p * pc;
        }
        crits = next;
        let cdf = min_k(n).map_or(0.0, |k| tail(&crits, k));
        win += (cdf - prev_cdf).max(0.0) * alive;
        prev_cdf = cdf;
        if cdf >= 1.0 - 1e-12 || alive <= 1e-15 {
            break;
        }
        let mut grown = vec![0.0f64; h];
        let mut new_lo = h;
        for (s, &m) in sums.iter().enumerate().skip(lo) {
            if m == 0.0 {
                continue;
            }
            for &(p, d) in beast_hits {
                let t = s + usize::from(d.max(1));
                if t < h {
                    grown[t] += m * p;
                    new_lo = new_lo.min(t);
                }
            }
        }
        sums = grown;
        lo = new_lo;
        alive = sums.iter().skip(lo).sum();
    }
    Some(win.clamp(0.0, 1.0))
}

/// Win probability by simulating `SIMULATED_FIGHTS` fights with a fixed seed.
fn win_probability_simulated(
    beast_hp: u16,
    adv_hp: u16,
    (d0, d1, pc): (u16, u16, f64),
    beast_hits: &[(f64, u16)],
) -> f64 {
    let mut state = 0x5EED_u64;
    let mut uniform = move || {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64
    };
    let mut wins = 0u32;
    for _ in 0..SIMULATED_FIGHTS {
        let (mut b, mut h) = (i32::from(beast_hp), i32::from(adv_hp));
        loop {
            b -= i32::from(if uniform() < pc { d1 } else { d0 }.max(1));
            if b <= 0 {
                wins += 1;
                break;
            }
            let mut u = uniform();
            let mut hit = beast_hits.last().map_or(1, |x| x.1);
            for &(p, d) in beast_hits {
                if u < p {
                    hit = d;
                    break;
                }
                u -= p;
            }
            h -= i32::from(hit.max(1));
            if h <= 0 {
                break;
            }
        }
    }
    f64::from(wins) / f64::from(SIMULATED_FIGHTS)
}

/// Probability of escaping alive when fleeing to the death with `adv_hp` health.
fn flee_probability(adv_hp: u16, p_flee: f64, beast_hits: &[(f64, u16)]) -> f64 {
    let ah = usize::from(adv_hp);
    let mut g = vec![0.0f64; ah + 1];
    for a in 1..=ah {
        let mut p = p_flee;
        for &(pb, db) in beast_hits {
            let db = usize::from(db.max(1));
            if db < a {
                p += (1.0 - p_flee) * pb * g[a - db];
            }
        }
        g[a] = p;
    }
    g[ah]
}

/// Previews a fight between `adv` (boosted, as in `get_game_state`) and `beast` with
/// `beast_health` left, under a world's settings (jewelry bonuses, stats mode).
pub fn battle_preview_with(
    adv: &Adventurer,
    beast: &BeastEvent,
    beast_health: u16,
    settings: &EngineSettings,
) -> BattlePreview {
    let jewelry = settings.rules.jewelry_bonuses;
    let level = adv.level();
    let weapon = CombatSpec::of_item(adv.equipment.weapon, adv.item_specials_seed);
    let beast_spec = CombatSpec::of_beast(beast);
    let damage = combat::adventurer_hit(adv, beast, false, jewelry);
    let critical_damage = combat::adventurer_hit(adv, beast, true, jewelry);
    let p_crit = combat::critical_hit_probability(adv.stats.luck);
    let beast_hits = beast_hit_distribution(adv, beast, jewelry);
    let beast_damage: Vec<SlotHitPreview> = ARMOR_SLOTS
        .iter()
        .map(|&slot| SlotHitPreview {
            slot,
            damage: combat::beast_hit(adv, beast, slot, false, jewelry),
            critical_damage: combat::beast_hit(adv, beast, slot, true, jewelry),
        })
        .collect();
    let min_hit = beast_hits.iter().map(|h| h.1).min().unwrap_or(1).max(1);
    let max_hit = beast_hits.iter().map(|h| h.1).max().unwrap_or(1).max(1);
    let expected: f64 = beast_hits.iter().map(|(p, d)| p * f64::from(*d)).sum();
    let adv_hits = (damage, critical_damage, p_crit);
    let (win, method) = match win_probability_exact(beast_health, adv.health, adv_hits, &beast_hits)
    {
        Some(w) => (w, WinMethod::Exact),
        None => (
            win_probability_simulated(beast_health, adv.health, adv_hits, &beast_hits),
            WinMethod::Simulation,
        ),
    };
    let can_flee = level > 1 && adv.stats.dexterity > 0;
    let p_flee = combat::avoid_threat_probability(level, adv.stats.dexterity);
    let (ambush, dodge) = match settings.stats_mode {
        StatsMode::Dodge => (
            1.0 - combat::avoid_threat_probability(level, adv.stats.wisdom),
            combat::avoid_threat_probability(level, adv.stats.intelligence),
        ),
        StatsMode::Reduction => (1.0, 0.0),
    };
    let shown = BeastDisplay::of(beast);
    BattlePreview {
        beast_id: beast.id,
        beast_name: shown.name,
        beast_tier: shown.tier,
        beast_type: shown.beast_type,
        beast_level: beast.level,
        beast_health,
        effectiveness: combat::effectiveness(weapon.item_type, beast_spec.item_type),
        damage,
        critical_damage,
        critical_chance: round4(p_crit),
        rounds_to_kill: Rounds {
            fewest: beast_health.div_ceil(critical_damage.max(1)),
            most: beast_health.div_ceil(damage.max(1)),
        },
        beast_damage,
        beast_critical_chance: round4(combat::critical_hit_probability(
            rules::critical_hit_chance(level),
        )),
        beast_min_damage: min_hit,
        beast_max_damage: max_hit,
        beast_expected_damage: round4(expected),
        health: adv.health,
        rounds_to_die: Rounds {
            fewest: adv.health.div_ceil(max_hit),
            most: adv.health.div_ceil(min_hit),
        },
        win_probability: round4(win),
        win_method: method,
        simulated_fights: (method == WinMethod::Simulation).then_some(SIMULATED_FIGHTS),
        flee_chance: can_flee.then(|| round4(p_flee)),
        flee_to_the_death_probability: can_flee
            .then(|| round4(flee_probability(adv.health, p_flee, &beast_hits))),
        next_ambush_chance: round4(ambush),
        next_obstacle_dodge_chance: round4(dodge),
    }
}

/// Previews the current fight under the default `ls_0_0_9` settings; `None` when the adventurer
/// is not in battle.
pub fn battle_preview(state: &GameState) -> Option<BattlePreview> {
    let adv = &state.adventurer;
    (adv.health > 0 && adv.beast_health > 0).then(|| {
        battle_preview_with(
            adv,
            &state.beast,
            adv.beast_health,
            &EngineSettings::default(),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::tests::sample_state;
    use crate::model::{Equipment, Item};

    #[test]
    fn starter_beast_dies_in_one_hit() {
        let adv = Adventurer {
            health: 90,
            beast_health: 3,
            equipment: Equipment {
                weapon: Item { id: 12, xp: 0 },
                ..Default::default()
            },
            ..Default::default()
        };
        let troll = BeastEvent {
            id: 71,
            health: 3,
            level: 1,
            ..Default::default()
        };
        let p = battle_preview_with(&adv, &troll, 3, &EngineSettings::default());
        assert_eq!(p.damage, 4);
        assert_eq!(p.win_probability, 1.0);
        assert_eq!(p.win_method, WinMethod::Exact);
        assert_eq!(p.rounds_to_kill, Rounds { fewest: 1, most: 1 });
        assert_eq!(p.flee_chance, None, "level 1 cannot flee");
        assert_eq!(p.effectiveness, Effectiveness::Strong);
    }

    #[test]
    fn preview_of_a_hard_fight() {
        let mut s = sample_state();
        s.adventurer.beast_health = 40;
        let p = battle_preview(&s).unwrap();
        assert_eq!(p.beast_name, "Demon Grasp Dragon");
        assert_eq!(
            (p.beast_tier, p.beast_type),
            (Tier::T1, ItemType::BladeOrHide)
        );
        assert_eq!(p.damage, 4);
        assert_eq!(p.rounds_to_kill.most, 10);
        assert_eq!(p.beast_damage.len(), 5);
        assert_eq!(p.beast_min_damage, 97);
        assert_eq!(
            p.win_probability, 0.0,
            "120 health cannot take 9 hits of 97+"
        );
        assert_eq!(p.rounds_to_die.fewest, 1);
        let f = p.flee_chance.unwrap();
        assert!(f > 0.0 && f < 1.0);
        let ftd = p.flee_to_the_death_probability.unwrap();
        assert!(ftd >= f && ftd < 1.0, "{ftd} vs {f}");
        assert!(p.next_ambush_chance > 0.0 && p.next_obstacle_dodge_chance < 1.0);
        s.adventurer.beast_health = 0;
        assert!(battle_preview(&s).is_none());
    }

    #[test]
    fn exact_win_probability_on_small_cases() {
        let always = |d| (d, d, 0.0);
        // Deals 5, takes 3: the 10-hp beast dies on hit 2 after one counter-attack.
        assert_eq!(
            win_probability_exact(10, 4, always(5), &[(1.0, 3)]),
            Some(1.0)
        );
        assert_eq!(
            win_probability_exact(10, 3, always(5), &[(1.0, 3)]),
            Some(0.0)
        );
        // A coin-flip crit one-shots the beast.
        let w = win_probability_exact(10, 3, (5, 10, 0.5), &[(1.0, 3)]).unwrap();
        assert!((w - 0.5).abs() < 1e-12, "{w}");
        // Two beast outcomes: 4 hp survives one hit of 3 (p .5) but not 4.
        let w = win_probability_exact(10, 4, always(5), &[(0.5, 3), (0.5, 4)]).unwrap();
        assert!((w - 0.5).abs() < 1e-12, "{w}");
        let g = flee_probability(7, 0.5, &[(1.0, 3)]);
        assert!((g - 0.875).abs() < 1e-12, "{g}");
    }

    #[test]
    fn exact_matches_simulation_and_huge_fights_are_simulated() {
        let hits = [(0.3, 7), (0.5, 11), (0.2, 30)];
        for (b, h) in [(60u16, 80u16), (100, 60), (45, 200)] {
            let e = win_probability_exact(b, h, (9, 18, 0.2), &hits).unwrap();
            let s = win_probability_simulated(b, h, (9, 18, 0.2), &hits);
            assert!(
                (e - s).abs() < 0.06,
                "b {b} h {h}: exact {e} vs simulated {s}"
            );
        }
        assert_eq!(
            win_probability_exact(1023, 1023, (1, 2, 0.1), &[(0.5, 2), (0.5, 3)]),
            None
        );
    }

    #[test]
    fn win_probability_is_monotone() {
        let hits = [(0.25, 6), (0.5, 9), (0.25, 14)];
        let mut last = 0.0;
        for h in (10..200u16).step_by(7) {
            let w = win_probability_exact(70, h, (8, 16, 0.1), &hits).unwrap();
            assert!(w + 1e-12 >= last, "more health never hurts");
            last = w;
        }
        let mut last = 1.0;
        for b in (5..200u16).step_by(9) {
            let w = win_probability_exact(b, 90, (8, 16, 0.1), &hits).unwrap();
            assert!(w <= last + 1e-12, "a tougher beast never helps");
            last = w;
        }
    }

    #[test]
    fn reduction_mode_always_ambushes() {
        let s = sample_state();
        let settings = EngineSettings {
            stats_mode: StatsMode::Reduction,
            ..EngineSettings::default()
        };
        let p = battle_preview_with(&s.adventurer, &s.beast, 10, &settings);
        assert_eq!(
            (p.next_ambush_chance, p.next_obstacle_dodge_chance),
            (1.0, 0.0)
        );
    }
}
