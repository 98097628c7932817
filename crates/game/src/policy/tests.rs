use starknet_types_core::felt::Felt;

use super::fight::{BattleChoice, FightOdds, FightPolicy, decide};
use super::healing::{HealPolicy, potions_to_buy, potions_to_full, reserve};
use super::shopping::{ItemValue, choose, spare_items};
use super::stats::{StatOption, best, points_in, stat_named};
use super::weapon::{AttackLater, TierLater, WeaponsLater, upgrade};
use super::*;
use crate::advice::{
    OutlookMemo, Stat, market::weapon_projections, market_values, outlook_at, stat_effects,
};
use crate::catalogue::{self, Slot};
use crate::engine::{Ruleset, StatsMode, World, new_adventurer};
use crate::model::{Adventurer, Item, Stats};
use crate::testing::Rng;
use crate::view::adventurer_view;

#[test]
fn params_are_set_by_name_and_previous_differs_from_the_default() {
    let mut p = Params::default();
    p.set("stat_risk_weight", "123").unwrap();
    p.set("cha_ratio", "0.25").unwrap();
    p.set("reserve_potions", "4").unwrap();
    assert_eq!(p.stat_risk_weight, 123.0);
    assert_eq!(p.floors.charisma, 0.25);
    assert_eq!(p.heal.reserve_potions, 4);
    assert_eq!(
        p.set("nonsense", "1"),
        Err(ParamError::Unknown("nonsense".into()))
    );
    assert_eq!(
        p.set("risk_weight", "lots").unwrap_err().to_string(),
        "--param risk_weight: 'lots' is not a number"
    );
    assert_ne!(Params::previous(), Params::default());
    assert_eq!(Params::previous().floors, Floors::default());
}

#[test]
fn the_stat_furthest_below_its_floor_gets_the_points() {
    let floors = Floors {
        charisma: 0.35,
        dexterity: 0.5,
        ..Floors::default()
    };
    let stats = Stats {
        dexterity: 3,
        charisma: 1,
        ..Stats::default()
    };
    // Level 10: dexterity floor 5 (2 behind), charisma floor 3.5 (2.5 behind).
    assert_eq!(
        floors.most_behind(&stats, 10).map(|b| b.0),
        Some(Stat::Charisma)
    );
    // Level 4: only charisma (floor 1.4) is behind; level 2: both floors are met.
    assert_eq!(
        floors.most_behind(&stats, 4).map(|b| b.0),
        Some(Stat::Charisma)
    );
    assert_eq!(floors.most_behind(&stats, 2), None);
}

const FIGHT: FightPolicy = FightPolicy {
    fight_from: 0.7,
    flee_margin: 0.05,
    to_the_death_from: 0.97,
};

#[test]
fn flees_a_losing_fight_and_fights_a_winning_one() {
    let odds = |win, flee| FightOdds {
        win,
        flee_to_the_death: flee,
    };
    let (c, why) = decide(odds(0.23, Some(0.98)), &FIGHT);
    assert_eq!(c, BattleChoice::Flee { to_the_death: true });
    assert_eq!(why, "win 23 %, flee 98 %: fleeing to the death");
    let (c, _) = decide(odds(0.75, Some(0.99)), &FIGHT);
    assert_eq!(
        c,
        BattleChoice::Attack {
            to_the_death: false
        }
    );
    let (c, _) = decide(odds(0.4, Some(0.42)), &FIGHT);
    assert!(
        matches!(c, BattleChoice::Attack { .. }),
        "fleeing no better"
    );
    let (c, why) = decide(odds(0.1, None), &FIGHT);
    assert!(matches!(c, BattleChoice::Attack { .. }) && why.contains("impossible"));
}

#[test]
fn heals_to_full_below_the_threshold_within_the_gold() {
    let p = HealPolicy {
        heal_below: 0.8,
        till_beast_from: 2.0,
        reserve_potions: 3,
    };
    assert_eq!(potions_to_full(95, 100), 1);
    assert_eq!(potions_to_full(100, 100), 0);
    assert_eq!(potions_to_buy(85, 100, 50, 2, &p), 0, "above 80 %");
    assert_eq!(potions_to_buy(41, 100, 50, 2, &p), 6);
    assert_eq!(potions_to_buy(41, 100, 5, 2, &p), 2, "gold limits");
    assert_eq!(reserve(4, &p), 12);
}

fn market_state() -> GameState {
    let mut s = GameState {
        adventurer: new_adventurer(46),
        ..Default::default()
    };
    s.adventurer.xp = 16;
    s.adventurer.health = 100;
    s.adventurer.gold = 40;
    s.adventurer.beast_health = 0;
    s.market = vec![47, 52, 62, 57];
    s
}

fn value(id: u8, price: u16, v: f64) -> ItemValue {
    ItemValue {
        id,
        name: format!("#{id}"),
        price,
        value: v,
        per_gold: v / f64::from(price),
        risk_saved: 0.0,
    }
}

#[test]
fn buys_best_value_per_gold_within_budget() {
    let view = adventurer_view(crate::AdventurerId::from(1), &market_state());
    let values = [
        value(47, 20, 30.0),
        value(62, 20, 50.0),
        value(52, 20, 10.0),
    ];
    let got = choose(&view, &values, 40, 0.0, 0.0, &[]);
    assert_eq!(got.iter().map(|g| g.0).collect::<Vec<_>>(), vec![62, 47]);
    let got = choose(&view, &values, 40, 2.0, 0.0, &[]);
    assert_eq!(got.len(), 1, "only items above the bar");
    assert!(choose(&view, &values, 19, 0.0, 0.0, &[]).is_empty());
}

#[test]
fn a_full_bag_drops_all_but_jewelry_and_one_weapon_per_type() {
    let mut s = market_state();
    // Katana (a blade, like the equipped Short Sword), Mace then Maul (bludgeons), a ring, armor.
    let ids = [42, 75, 74, 8, 51, 52, 53, 54, 55, 56, 57, 58];
    for (slot, id) in s.bag.items.iter_mut().zip(ids) {
        *slot = Item { id, xp: 0 };
    }
    let view = adventurer_view(crate::AdventurerId::from(1), &s);
    assert!(spare_items(&view, 13).is_empty(), "below the fill");
    let spare = spare_items(&view, 12);
    assert_eq!(spare.len(), 8, "at most eight at once");
    assert!(!spare.contains(&8), "jewelry is kept");
    assert!(!spare.contains(&75), "the first bludgeon is kept");
    assert!(spare.contains(&42) && spare.contains(&74));
}

#[test]
fn risk_weight_can_outrank_value() {
    let options = [
        StatOption {
            stat: Stat::Charisma,
            value: 40.0,
            death_risk: 0.02,
        },
        StatOption {
            stat: Stat::Vitality,
            value: 30.0,
            death_risk: 0.01,
        },
    ];
    assert_eq!(best(&options, 0.0).unwrap().0.stat, Stat::Charisma);
    assert_eq!(best(&options, 2000.0).unwrap().0.stat, Stat::Vitality);
    assert_eq!(points_in(Stat::Wisdom, 2).wisdom, 2);
    assert_eq!(points_in(Stat::Wisdom, 2).charisma, 0);
    assert_eq!(stat_named("intelligence"), Some(Stat::Intelligence));
    assert_eq!(stat_named("luck"), None);
}

#[test]
fn buys_the_strongest_affordable_weapon_that_clearly_beats_the_equipped_one() {
    let tier = |ids: &[u8], price, attack| TierLater {
        ids: ids.to_vec(),
        price,
        attack,
    };
    // A wand projected to attack 4; tier 1 (Katana, Warhammer) 30, tier 3 (Scimitar) 18,
    // tier 4 (Long Sword) 12 three levels on.
    let weapons = WeaponsLater {
        yours: Some(AttackLater { attack: 4 }),
        market: vec![
            tier(&[42, 72], 20, 30),
            tier(&[44], 12, 18),
            tier(&[45], 8, 12),
        ],
    };
    assert_eq!(upgrade(&weapons, 40, true, 1.5), Some((72, 20)));
    assert_eq!(
        upgrade(&weapons, 19, true, 1.5),
        Some((44, 12)),
        "tier 1 too dear"
    );
    assert_eq!(upgrade(&weapons, 40, true, 10.0), None, "not enough better");
    assert_eq!(
        upgrade(&weapons, 40, false, 1.5),
        None,
        "no room in the bag"
    );
    assert_eq!(upgrade(&WeaponsLater::default(), 40, true, 1.5), None);
}

#[test]
fn the_market_advice_is_rounded_and_valued_only_within_the_budget_as_first_seen() {
    let mut s = market_state();
    s.adventurer.xp = 36;
    s.adventurer.equipment.chest = Item { id: 51, xp: 1 };
    s.market = (1..=101).step_by(4).take(25).collect();
    let settings = EngineSettings::default();
    let table = tables::market_table(&s, &settings, &mut OutlookMemo::default());
    assert!(!table.values.is_empty());
    for v in &table.values {
        assert!(v.per_gold > 0.0, "only items of positive value: {v:?}");
        assert_eq!(v.value, (v.value * 10.0).round() / 10.0, "{v:?}");
        assert_eq!(v.per_gold, (v.per_gold * 1000.0).round() / 1000.0, "{v:?}");
    }
    let within = |budget: u16| -> Vec<ItemValue> {
        table
            .values
            .iter()
            .filter(|v| v.price <= budget)
            .cloned()
            .collect()
    };
    let mut cache = AdviceCache::default();
    assert!(
        cache.values_within(40, &settings).is_empty(),
        "no market seen yet"
    );
    cache.see(&s, &adventurer_view(crate::AdventurerId::from(1), &s));
    assert_eq!(cache.weapons(), table.weapons);
    // The same market (level, equipped ids, weapon xp, charisma) with a stronger chest.
    s.adventurer.equipment.chest.xp = 400;
    cache.see(&s, &adventurer_view(crate::AdventurerId::from(1), &s));
    let later = tables::market_table(&s, &settings, &mut OutlookMemo::default());
    assert_ne!(later, table, "the chest's greatness counts");
    assert_eq!(cache.values_within(0, &settings), within(0));
    assert_eq!(cache.valued(), 0, "nothing is that cheap");
    assert_eq!(cache.values_within(5, &settings), within(5));
    let cheap = cache.valued();
    assert!(
        cheap > 0 && (cheap as usize) < s.market.len(),
        "{cheap} valued"
    );
    assert_eq!(
        cache.values_within(500, &settings),
        within(500),
        "as first seen"
    );
    assert_eq!(cache.values_within(12, &settings), within(12));
    let all = cache.valued();
    assert_eq!(cache.values_within(500, &settings), within(500));
    assert_eq!(cache.valued(), all, "each item valued once per market");
    s.adventurer.xp = 49;
    cache.see(&s, &adventurer_view(crate::AdventurerId::from(1), &s));
    let next = tables::market_table(&s, &settings, &mut OutlookMemo::default());
    assert_eq!(
        cache.values_within(500, &settings),
        next.values,
        "a new level is a new market"
    );
}

/// A random loadout: an item or nothing in each slot, any xp, stats, luck, health, specials seed.
fn random_adventurer(rng: &mut Rng) -> Adventurer {
    let mut a = new_adventurer(46);
    for slot in Slot::ALL {
        let ids: Vec<u8> = (1..=101)
            .filter(|&id| catalogue::item(id).is_some_and(|i| i.slot == slot))
            .collect();
        let pick = rng.below(ids.len() as u64 + 1) as usize;
        let item = ids.get(pick).map_or(Item::default(), |&id| Item {
            id,
            xp: rng.below(450) as u16,
        });
        a.equipment.set(slot, item);
    }
    a.stats = Stats {
        luck: rng.below(14) as u8 * 3,
        ..Stats::default()
    };
    for stat in Stat::ALL {
        for _ in 0..rng.below(14) {
            a.stats = stat.raised(a.stats);
        }
    }
    a.health = 1 + rng.below(320) as u16;
    a.item_specials_seed = [0, 1234, 40_001][rng.below(3) as usize];
    a.xp = rng.below(900) as u16;
    a
}

/// An outlook from a memo kept across loadouts is a fresh one to the last bit, for any loadout,
/// level and rule set, whatever the memo already holds (loadouts that differ in one slot share
/// the hit tables of the rest).
#[test]
fn outlooks_from_a_kept_memo_are_fresh_outlooks() {
    let mut rng = Rng(27);
    let rule_sets = [
        EngineSettings::default(),
        EngineSettings {
            stats_mode: StatsMode::Reduction,
            base_damage_reduction: 40,
            ..EngineSettings::default()
        },
        EngineSettings {
            rules: Ruleset::PRACTICE_WORLD,
            ..EngineSettings::default()
        },
    ];
    for settings in rule_sets {
        let mut memo = OutlookMemo::default();
        let mut a = random_adventurer(&mut rng);
        for round in 0..16 {
            if round % 4 == 0 {
                a = random_adventurer(&mut rng);
            } else {
                a.equipment.chest = random_adventurer(&mut rng).equipment.chest;
                a.health = 1 + rng.below(320) as u16;
            }
            let level = 2 + rng.below(24) as u8;
            let got = memo.at(&a, level, &settings);
            let want = outlook_at(&a, level, &settings);
            assert_eq!(
                format!("{got:?}"),
                format!("{want:?}"),
                "{a:?} at level {level}"
            );
        }
    }
}

/// The figures from a kept memo are fresh ones, bit for bit, however the memo was filled before: over a
/// loadout whose items gain xp (the same greatness, then the next) and a level-up.
#[test]
fn remembered_outlooks_give_the_advice_figures_exactly() {
    let settings = EngineSettings::default();
    let mut memo = OutlookMemo::default();
    let mut s = market_state();
    s.market = vec![8, 42, 47, 52, 57, 62, 72, 3, 12, 90];
    s.adventurer.equipment.chest = Item { id: 51, xp: 3 };
    let (mut computed, mut weapons) = (Vec::new(), 0);
    for (xp, weapon_xp, chest_xp) in [(17, 4, 3), (17, 8, 3), (18, 9, 6), (26, 16, 9), (26, 17, 9)]
    {
        s.adventurer.xp = xp;
        s.adventurer.equipment.weapon.xp = weapon_xp;
        s.adventurer.equipment.chest.xp = chest_xp;
        let before = memo.computed();
        assert_eq!(
            market_values(&s, &settings, &mut memo),
            market_values(&s, &settings, &mut OutlookMemo::default()),
            "xp {xp}"
        );
        let (yours, market) = weapon_projections(&s, &settings, &mut OutlookMemo::default());
        let later = tables::weapons_later(&s);
        assert_eq!(later.yours.map(|y| y.attack), yours.map(|y| y.attack_later));
        for tier in &later.market {
            for id in &tier.ids {
                let w = market
                    .iter()
                    .find(|w| w.id == *id)
                    .expect("a market weapon");
                assert_eq!((w.price, w.attack_later), (tier.price, tier.attack));
                weapons += 1;
            }
        }
        assert_eq!(
            stat_effects(&s.adventurer, &settings, &mut memo),
            stat_effects(&s.adventurer, &settings, &mut OutlookMemo::default())
        );
        computed.push(memo.computed() - before);
    }
    assert!(weapons > 0, "market weapons compared");
    assert!(
        computed[1] < computed[0] / 2,
        "most outlooks remembered: {computed:?}"
    );
    let before = memo.computed();
    market_values(&s, &settings, &mut memo);
    assert_eq!(
        memo.computed(),
        before,
        "the same market: nothing to compute"
    );
}

#[test]
fn stat_points_all_go_to_the_chosen_stat() {
    let mut s = market_state();
    s.adventurer.stat_upgrades_available = 2;
    let view = adventurer_view(crate::AdventurerId::from(1), &s);
    let mut policy = Policy::new(Params::default(), EngineSettings::default());
    let d = policy.decide(&s, &view);
    // Level 4 with no charisma: its floor (1.4) is the one behind.
    assert_eq!(
        d.action,
        Action::Upgrade {
            stats: points_in(Stat::Charisma, 2)
        }
    );
    assert_eq!(d.reason, "2 stat point(s): charisma 0 is below its floor 1");
    let mut policy = Policy::new(
        Params {
            floors: Floors::default(),
            ..Params::default()
        },
        EngineSettings::default(),
    );
    let Action::Upgrade { stats } = policy.decide(&s, &view).action else {
        panic!("an upgrade");
    };
    let given = [
        stats.strength,
        stats.dexterity,
        stats.vitality,
        stats.intelligence,
        stats.wisdom,
        stats.charisma,
    ];
    assert_eq!(given.iter().filter(|&&v| v == 2).count(), 1, "{stats:?}");
}

/// Plays whole hidden-seed games on the engine with the policy: every move it makes is legal,
/// and each game ends in death or at the cap.
#[test]
fn every_move_of_whole_games_is_legal() {
    let settings = EngineSettings::default();
    let mut world = World::new(settings, 1);
    let owner = Felt::from(7u8);
    for (game, weapon) in [12u8, 76].into_iter().enumerate() {
        let id = world.mint_hidden(owner, Some(Felt::from(1000 + game as u64)));
        world
            .act(owner, id, &Action::StartGame { weapon })
            .expect("start");
        let mut policy = Policy::new(Params::default(), settings);
        let mut moves = 0;
        loop {
            let state = world.state(id);
            let view = adventurer_view(crate::AdventurerId::from(id), &state);
            if view.phase == Phase::Dead || moves == 120 {
                break;
            }
            let d = policy.decide(&state, &view);
            assert!(!d.reason.is_empty());
            if let Err(e) = world.act(owner, id, &d.action) {
                panic!(
                    "game {game}, move {moves}: {:?} ({}) refused: {e}",
                    d.action, d.reason
                );
            }
            moves += 1;
        }
        assert!(moves > 5, "game {game} played {moves} moves");
        assert!(world.state(id).adventurer.xp > 1);
    }
}
