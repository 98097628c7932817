//! Each advice figure against a Monte Carlo over the engine's own functions: random bytes drawn
//! uniformly, beasts from `random::generate_beast`, obstacles from `random::obstacle_id` and
//! `random::random_level`, hits from `combat`, crits and threats from `rules`/`combat`. Common
//! random numbers make purchase and stat deltas precise. Tolerance: 3 % of the figure plus a small
//! absolute slack (stated per assertion).

use super::equip::{aged, imagine_equipped};
use super::market::{
    WEAPON_PROJECTION_LEVELS, best_buys, item_xp_gain, market_values, weapon_projections,
};
use super::outlook::{OutlookMemo, P_BEAST, P_OBSTACLE, outlook_at};
use super::stats::{Stat, stat_effects, with_point};
use super::swap::weapon_options;
use crate::boosts;
use crate::catalogue::{self, ItemType};
use crate::combat::{self, ARMOR_SLOTS};
use crate::engine::EngineSettings;
use crate::model::{Adventurer, Bag, BeastEvent, GameState, Item, Stats};
use crate::random::{self, ExploreOutcome, Randomness};
use crate::rules;
use crate::testing::Rng;

const SAMPLES: usize = 120_000;

fn state() -> GameState {
    let mut stored = crate::engine::new_adventurer(46);
    stored.xp = 25;
    stored.health = 130;
    stored.gold = 90;
    stored.stats = Stats {
        strength: 2,
        dexterity: 3,
        vitality: 2,
        intelligence: 2,
        wisdom: 2,
        charisma: 1,
        luck: 0,
    };
    stored.equipment.weapon.xp = 30;
    stored.equipment.chest = Item { id: 51, xp: 16 };
    stored.equipment.head = Item { id: 86, xp: 9 };
    let bag = Bag::default();
    GameState {
        adventurer: boosts::boosted(&stored, &bag),
        bag,
        beast: BeastEvent::default(),
        market: vec![42, 47, 52, 62, 67, 77, 82, 20, 25, 95, 8],
    }
}

fn randomness(rng: &mut Rng) -> Randomness {
    let a = rng.next();
    let b = rng.next();
    Randomness {
        r1_u32: (a >> 32) as u32,
        r2_u32: a as u32,
        r1_u16: (b >> 48) as u16,
        r2_u16: (b >> 32) as u16,
        r1_u8: (b >> 24) as u8,
        r2_u8: (b >> 16) as u8,
        r3_u8: (b >> 8) as u8,
        r4_u8: b as u8,
    }
}

/// Sampled figures of one explore step.
#[derive(Default)]
struct Sampled {
    damage_dealt: f64,
    beast_hit: f64,
    health_lost: f64,
    deaths: f64,
}

/// Simulates `SAMPLES` explore steps (and the fights they start: attacking to the end, or
/// fleeing to the end when the beast's tier, type and level make that cheaper on average, the
/// policy the outlook assumes) with the engine's functions; the seed fixes the random numbers.
fn sample(adv: &Adventurer, seed: u64) -> Sampled {
    let settings = EngineSettings::default();
    let level = adv.level();
    let weapon_type =
        catalogue::item(adv.equipment.weapon.id).map_or(ItemType::None, |i| i.item_type);
    let mut rng = Rng(seed);
    let mut s = Sampled::default();
    let (mut beasts, mut hits_seen) = (0.0, 0.0);
    let chance = rules::critical_hit_chance(level);
    let reduce = |d| combat::apply_damage_reduction(d, settings.base_damage_reduction);
    for _ in 0..SAMPLES {
        let r = randomness(&mut rng);
        let mut fight = Rng(rng.next());
        let mut lost = 0u32;
        match random::explore_outcome(r.r4_u8) {
            ExploreOutcome::Beast => {
                let mut b = random::generate_beast(level, weapon_type, &r, 0);
                b.specials = Default::default();
                if !combat::avoids_threat(level, adv.stats.wisdom, r.r3_u8) {
                    let slot = ARMOR_SLOTS[usize::from(r.r1_u8 % 5)];
                    let crit = rules::is_critical_hit(chance, r.r2_u8);
                    let d = reduce(combat::beast_hit(adv, &b, slot, crit, true));
                    lost += u32::from(d);
                    if d >= adv.health {
                        s.deaths += 1.0;
                    }
                }
                let probe = fight.next();
                let slot = ARMOR_SLOTS[usize::from(probe as u8 % 5)];
                let bcrit = rules::is_critical_hit(chance, (probe >> 8) as u8);
                s.beast_hit += f64::from(combat::beast_hit(adv, &b, slot, bcrit, true));
                hits_seen += 1.0;
                let hits = super::outlook::expected_hits(
                    &super::outlook::healths(level),
                    combat::adventurer_hit(adv, &b, false, true),
                    combat::adventurer_hit(adv, &b, true, true),
                    combat::critical_hit_probability(adv.stats.luck),
                );
                let f = combat::avoid_threat_probability(level, adv.stats.dexterity);
                let flee = adv.stats.dexterity > 0 && hits - 1.0 > super::outlook::flee_hits(f);
                let mut health = i32::from(b.health);
                if flee {
                    loop {
                        let bytes = fight.next();
                        if combat::avoids_threat(level, adv.stats.dexterity, bytes as u8) {
                            break;
                        }
                        let slot = ARMOR_SLOTS[usize::from((bytes >> 8) as u8 % 5)];
                        let bcrit = rules::is_critical_hit(chance, (bytes >> 16) as u8);
                        lost += u32::from(combat::beast_hit(adv, &b, slot, bcrit, true));
                    }
                } else {
                    loop {
                        let bytes = fight.next();
                        let crit = rules::is_critical_hit(adv.stats.luck, bytes as u8);
                        let d = combat::adventurer_hit(adv, &b, crit, true);
                        s.damage_dealt += f64::from(d);
                        beasts += 1.0;
                        health -= i32::from(d);
                        if health <= 0 {
                            break;
                        }
                        let slot = ARMOR_SLOTS[usize::from((bytes >> 8) as u8 % 5)];
                        let bcrit = rules::is_critical_hit(chance, (bytes >> 16) as u8);
                        let h = combat::beast_hit(adv, &b, slot, bcrit, true);
                        lost += u32::from(h);
                    }
                }
            }
            ExploreOutcome::Obstacle => {
                let id = random::obstacle_id(r.r1_u32);
                let lvl = random::random_level(level, r.r2_u16);
                let slot = ARMOR_SLOTS[usize::from(r.r1_u8 % 5)];
                let crit = rules::is_critical_hit(chance, r.r2_u8);
                let d = reduce(combat::obstacle_hit(adv, id, lvl, slot, crit, true));
                if !combat::avoids_threat(level, adv.stats.intelligence, r.r3_u8) {
                    lost += u32::from(d);
                    if d >= adv.health {
                        s.deaths += 1.0;
                    }
                }
            }
            ExploreOutcome::Discovery => {}
        }
        s.health_lost += f64::from(lost);
    }
    let n = SAMPLES as f64;
    s.damage_dealt /= beasts;
    s.beast_hit /= hits_seen;
    s.health_lost /= n;
    s.deaths /= n;
    s
}

/// The mean damage of a first blow on the beasts of the adventurer's level, over uniform bytes.
fn first_blow(adv: &Adventurer, seed: u64) -> f64 {
    let mut rng = Rng(seed);
    let mut sum = 0.0;
    for _ in 0..SAMPLES {
        let r = randomness(&mut rng);
        let mut b = random::generate_beast(adv.level(), ItemType::BladeOrHide, &r, 0);
        b.specials = Default::default();
        let crit = rules::is_critical_hit(adv.stats.luck, r.r3_u8);
        sum += f64::from(combat::adventurer_hit(adv, &b, crit, true));
    }
    sum / SAMPLES as f64
}

fn close(what: &str, predicted: f64, sampled: f64, slack: f64) {
    let tol = 0.03 * sampled.abs() + slack;
    assert!(
        (predicted - sampled).abs() <= tol,
        "{what}: predicted {predicted:.4}, sampled {sampled:.4} (tolerance {tol:.4})"
    );
}

#[test]
fn outlook_matches_sampled_explores() {
    let s = state();
    let adv = s.adventurer;
    let o = outlook_at(&adv, adv.level(), &EngineSettings::default());
    let m = sample(&adv, 7);
    close(
        "health lost per explore",
        o.health_per_explore,
        m.health_lost,
        0.1,
    );
    close("beast hit", o.beast_hit, m.beast_hit, 0.1);
    close("death risk", o.death_risk, m.deaths, 0.002);
    // Damage per hit is weighted by fight length in the sample, so compare it on one-hit
    // figures: the expected hit of the first blow over uniform beasts.
    close(
        "damage dealt per hit",
        o.damage_dealt,
        first_blow(&adv, 3),
        0.05,
    );
    assert!((P_BEAST + P_OBSTACLE - 171.0 / 256.0).abs() < 1e-12);
}

#[test]
fn purchase_effect_matches_sampled_difference() {
    let s = state();
    let settings = EngineSettings::default();
    let level = s.adventurer.level();
    for id in [47u8, 62, 42, 25] {
        let with = imagine_equipped(&s, &[id]);
        let predicted = outlook_at(&s.adventurer, level, &settings).health_per_explore
            - outlook_at(&with.adventurer, level, &settings).health_per_explore;
        let sampled =
            sample(&s.adventurer, 11).health_lost - sample(&with.adventurer, 11).health_lost;
        close(
            &format!("health saved per explore by item {id}"),
            predicted,
            sampled,
            0.12,
        );
    }
}

#[test]
fn stat_effects_match_sampled_difference() {
    let s = state();
    let settings = EngineSettings::default();
    let level = s.adventurer.level();
    for stat in [
        Stat::Wisdom,
        Stat::Intelligence,
        Stat::Strength,
        Stat::Vitality,
        Stat::Dexterity,
    ] {
        let a = with_point(&s.adventurer, stat);
        let base = outlook_at(&s.adventurer, level, &settings);
        let up = outlook_at(&a, level, &settings);
        let m0 = sample(&s.adventurer, 5);
        let m1 = sample(&a, 5);
        close(
            &format!("{stat:?}: health saved per explore"),
            base.health_per_explore - up.health_per_explore,
            m0.health_lost - m1.health_lost,
            0.12,
        );
        close(
            &format!("{stat:?}: death risk"),
            up.death_risk,
            m1.deaths,
            0.002,
        );
    }
    let (_, effects) = stat_effects(&s.adventurer, &settings, &mut OutlookMemo::default());
    let wis = effects.iter().find(|e| e.stat == Stat::Wisdom).unwrap();
    assert!(wis.outlook.ambush_chance < 1.0 - combat::avoid_threat_probability(level, 2));
    let cha = effects.iter().find(|e| e.stat == Stat::Charisma).unwrap();
    assert_eq!(cha.potion_price, rules::potion_price(level, 2));
}

#[test]
fn market_values_rank_and_fit_the_gold() {
    let s = state();
    let settings = EngineSettings::default();
    let values = market_values(&s, &settings, &mut OutlookMemo::default());
    assert!(
        values
            .windows(2)
            .all(|w| w[0].value_per_gold >= w[1].value_per_gold)
    );
    let foot = values.iter().find(|v| v.id == 62).unwrap();
    assert!(
        foot.value > 0.0 && !foot.downgrade,
        "filling an empty slot helps"
    );
    let buys = best_buys(&s, &values, 30);
    assert!(buys.cost <= 30 && !buys.items.is_empty());
    let slots: Vec<_> = buys
        .items
        .iter()
        .map(|&id| catalogue::item(id).unwrap().slot)
        .collect();
    let mut dedup = slots.clone();
    dedup.dedup();
    assert_eq!(slots.len(), dedup.len(), "one item per slot");
    // A Linen Hood (T4 cloth, greatness 1) replacing a Helm at greatness 3: a downgrade now.
    let hood = values.iter().find(|v| v.id == 25).unwrap();
    assert!(hood.saved_now < 0.0, "{hood:?}");
}

#[test]
fn weapon_swap_counts_the_free_hit() {
    let mut s = state();
    let settings = EngineSettings::default();
    s.beast = crate::advice::outlook::beast(23, 6);
    s.adventurer.beast_health = 30;
    s.bag.items[0] = Item { id: 72, xp: 0 };
    let opts = weapon_options(&s, &settings);
    assert_eq!(opts.len(), 2);
    assert!(opts[0].equipped && !opts[1].equipped);
    let with = imagine_equipped(&s, &[72]);
    let no_free_hit =
        crate::preview::battle_preview_with(&with.adventurer, &s.beast, 30, &settings)
            .win_probability;
    assert!(opts[1].win_probability <= no_free_hit + 1e-9);
    assert!(opts[1].win_probability > 0.0);
}

/// The engine itself (`Game::apply`, one hidden seed per game) decides the swap: equip the
/// bagged weapon in battle (the beast's free hit), then attack to the death. The advised win
/// chance must match the share of games won within 0.03 (4,000 games: about four standard
/// errors).
#[test]
fn weapon_swap_win_matches_the_engine() {
    use crate::engine::{Action, Collection, Game};
    use starknet_types_core::felt::Felt;
    let settings = EngineSettings::default();
    let collection = Collection::new();
    let mut s = state();
    s.bag.items[0] = Item { id: 72, xp: 0 };
    let (game, advised) = (1..400u64)
        .find_map(|seed| {
            s.beast.seed = seed;
            let mut g = Game::from_state(&s);
            let beast = g.beast(&settings, &collection);
            g.adventurer.beast_health = beast.health;
            let opts = weapon_options(&g.state(1, &settings, &collection), &settings);
            let win = opts.iter().find(|o| o.id == 72)?.win_probability;
            (0.2..0.8).contains(&win).then_some((g, win))
        })
        .expect("a beast the swap may or may not beat");
    let games = 4000u64;
    let won = (0..games)
        .filter(|&h| {
            let mut g = game.clone();
            g.hidden_seed = Some(Felt::from(h + 1));
            let swap = Action::Equip { items: vec![72] };
            let fight = Action::Attack { to_the_death: true };
            g.apply(1, &swap, &settings, &collection).is_ok()
                && g.apply(1, &fight, &settings, &collection).is_ok()
                && g.adventurer.health > 0
        })
        .count();
    let share = won as f64 / games as f64;
    assert!(
        (advised - share).abs() <= 0.03,
        "advised win {advised:.3}, engine {share:.3} over {games} games"
    );
}

/// A purchase's one-shot risk (`risk_saved` per step) against sampled deaths with and without
/// the item, on common random numbers: within 3 % plus 0.002 per step.
#[test]
fn purchase_death_risk_matches_sampled_deaths() {
    let s = state();
    let settings = EngineSettings::default();
    let level = s.adventurer.level();
    let base = outlook_at(&s.adventurer, level, &settings);
    let m0 = sample(&s.adventurer, 13);
    for id in [47u8, 62, 82] {
        let with = imagine_equipped(&s, &[id]);
        let o = outlook_at(&with.adventurer, level, &settings);
        let m1 = sample(&with.adventurer, 13);
        close(
            &format!("death risk saved per step by item {id}"),
            base.death_risk - o.death_risk,
            m0.deaths - m1.deaths,
            0.002,
        );
        assert_eq!(
            o.damage_dealt, base.damage_dealt,
            "armor {id} leaves your damage per hit unchanged"
        );
    }
}

#[test]
fn weapon_projection_matches_the_engine_levels_on() {
    let s = state();
    let settings = EngineSettings::default();
    let level = s.adventurer.level();
    let gain = item_xp_gain(level, WEAPON_PROJECTION_LEVELS);
    let later = level.max(2) + WEAPON_PROJECTION_LEVELS;
    let (current, market) = weapon_projections(&s, &settings, &mut OutlookMemo::default());
    let current = current.expect("a sword is equipped");
    assert_eq!(current.id, 46);
    assert!(!market.is_empty() && market.iter().all(|m| m.id != 46 && m.price > 0));
    for p in std::iter::once(&current).chain(&market) {
        let info = catalogue::item(p.id).unwrap();
        assert_eq!(info.slot, catalogue::Slot::Weapon);
        let held = if p.id == 46 { 30 } else { 0 };
        let xp = (held + gain).min(rules::MAX_ITEM_XP);
        assert_eq!(
            p.attack_later,
            rules::tier_multiplier(info.tier) * u16::from(rules::greatness(xp)),
            "{}",
            p.name
        );
        let mut then = aged(&imagine_equipped(&s, &[p.id]), gain).adventurer;
        then.xp = u16::from(later).pow(2);
        close(
            &format!("{}: damage per hit {later} levels on", p.name),
            p.damage_later,
            first_blow(&then, 13),
            0.05,
        );
    }
    let katana = market.iter().find(|m| m.id == 42).unwrap();
    assert!(
        katana.attack_later > current.attack_later && katana.damage_later > current.damage_later,
        "a tier-1 Katana outgrows a tier-5 sword with a head start"
    );
}
