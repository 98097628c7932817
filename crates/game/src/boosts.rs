//! Item suffix stat boosts (docs/game-rules.md#item-specials): equipped items of greatness 15+ add
//! their suffix's stats, bagged ones only the vitality/charisma part; plus the boosted
//! ("load_assets") view of a stored adventurer and its inverse.

use super::catalogue;
use super::model::{Adventurer, Bag, Equipment, Item, Stats};
use super::rules;

fn stats(
    strength: u8,
    dexterity: u8,
    vitality: u8,
    intelligence: u8,
    wisdom: u8,
    charisma: u8,
) -> Stats {
    Stats {
        strength,
        dexterity,
        vitality,
        intelligence,
        wisdom,
        charisma,
        luck: 0,
    }
}

/// The stats a suffix (special1, 1..=16) adds to an equipped item (`equipped`) or a bagged one.
pub fn suffix_boost(special1: u8, equipped: bool) -> Stats {
    let (eq, bag) = match special1 {
        1 => (stats(3, 0, 0, 0, 0, 0), stats(0, 0, 0, 0, 0, 0)),
        2 => (stats(0, 0, 3, 0, 0, 0), stats(0, 0, 3, 0, 0, 0)),
        3 => (stats(2, 0, 0, 0, 0, 1), stats(0, 0, 0, 0, 0, 1)),
        4 => (stats(0, 3, 0, 0, 0, 0), stats(0, 0, 0, 0, 0, 0)),
        5 => (stats(1, 1, 1, 0, 0, 0), stats(0, 0, 1, 0, 0, 0)),
        6 => (stats(0, 0, 0, 3, 0, 0), stats(0, 0, 0, 0, 0, 0)),
        7 => (stats(0, 0, 0, 0, 3, 0), stats(0, 0, 0, 0, 0, 0)),
        8 => (stats(0, 1, 2, 0, 0, 0), stats(0, 0, 2, 0, 0, 0)),
        9 => (stats(2, 1, 0, 0, 0, 0), stats(0, 0, 0, 0, 0, 0)),
        10 => (stats(1, 0, 0, 0, 1, 1), stats(0, 0, 0, 0, 0, 1)),
        11 => (stats(0, 0, 1, 1, 0, 1), stats(0, 0, 1, 0, 0, 1)),
        12 => (stats(0, 0, 0, 2, 1, 0), stats(0, 0, 0, 0, 0, 0)),
        13 => (stats(0, 2, 0, 0, 0, 1), stats(0, 0, 0, 0, 0, 1)),
        14 => (stats(0, 1, 0, 0, 2, 0), stats(0, 0, 0, 0, 0, 0)),
        15 => (stats(0, 0, 0, 1, 2, 0), stats(0, 0, 0, 0, 0, 0)),
        16 => (stats(0, 0, 0, 0, 0, 3), stats(0, 0, 0, 0, 0, 3)),
        _ => (Stats::default(), Stats::default()),
    };
    if equipped { eq } else { bag }
}

/// The boost one item gives: none without an item-specials seed or below greatness 15.
pub fn item_boost(item: &Item, specials_seed: u16, equipped: bool) -> Stats {
    if item.is_empty() || specials_seed == 0 {
        return Stats::default();
    }
    let specials = rules::item_specials(item.id, item.greatness(), specials_seed);
    suffix_boost(specials.special1, equipped)
}

fn add(a: Stats, b: Stats) -> Stats {
    Stats {
        strength: a.strength.saturating_add(b.strength),
        dexterity: a.dexterity.saturating_add(b.dexterity),
        vitality: a.vitality.saturating_add(b.vitality),
        intelligence: a.intelligence.saturating_add(b.intelligence),
        wisdom: a.wisdom.saturating_add(b.wisdom),
        charisma: a.charisma.saturating_add(b.charisma),
        luck: a.luck.saturating_add(b.luck),
    }
}

fn sub(a: Stats, b: Stats) -> Stats {
    Stats {
        strength: a.strength.saturating_sub(b.strength),
        dexterity: a.dexterity.saturating_sub(b.dexterity),
        vitality: a.vitality.saturating_sub(b.vitality),
        intelligence: a.intelligence.saturating_sub(b.intelligence),
        wisdom: a.wisdom.saturating_sub(b.wisdom),
        charisma: a.charisma.saturating_sub(b.charisma),
        luck: a.luck.saturating_sub(b.luck),
    }
}

/// Sum of the boosts of every equipped and bagged item (luck not included).
pub fn stat_boosts(equipment: &Equipment, bag: &Bag, specials_seed: u16) -> Stats {
    let equipped = equipment
        .slots()
        .iter()
        .map(|(_, it)| item_boost(it, specials_seed, true))
        .fold(Stats::default(), add);
    bag.iter()
        .map(|it| item_boost(it, specials_seed, false))
        .fold(equipped, add)
}

/// The adventurer as the game loads it for an action and shows it in events and
/// `get_game_state`: stored stats plus item boosts, and luck from jewelry.
pub fn boosted(stored: &Adventurer, bag: &Bag) -> Adventurer {
    let mut a = *stored;
    a.stats = add(
        Stats {
            luck: 0,
            ..stored.stats
        },
        stat_boosts(&stored.equipment, bag, stored.item_specials_seed),
    );
    a.stats.luck = rules::luck(&stored.equipment, bag);
    a
}

/// The inverse of [`boosted`]: the stored stats (boosts removed, luck 0) of a boosted adventurer.
pub fn unboosted(boosted: &Adventurer, bag: &Bag) -> Adventurer {
    let mut a = *boosted;
    a.stats = sub(
        boosted.stats,
        stat_boosts(&boosted.equipment, bag, boosted.item_specials_seed),
    );
    a.stats.luck = 0;
    a
}

/// Vitality an item's suffix gives when equipped (healed once, ×15, when the suffix unlocks).
pub fn vitality_boost(item: &Item, specials_seed: u16) -> u8 {
    item_boost(item, specials_seed, true).vitality
}

/// The items in `bag` that are jewelry (they add their greatness to luck even when bagged).
pub fn bagged_jewelry(bag: &Bag) -> impl Iterator<Item = &Item> {
    bag.iter().filter(|it| {
        catalogue::item(it.id)
            .is_some_and(|i| matches!(i.slot, catalogue::Slot::Neck | catalogue::Slot::Ring))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::tests::sample_state;

    #[test]
    fn bag_boosts_keep_only_vitality_and_charisma() {
        for s in 1..=16u8 {
            let eq = suffix_boost(s, true);
            let bag = suffix_boost(s, false);
            assert_eq!(eq.upgrade_points(), 3, "suffix {s} gives 3 points");
            assert_eq!(bag.vitality, eq.vitality, "suffix {s}");
            assert_eq!(bag.charisma, eq.charisma, "suffix {s}");
            assert_eq!(
                bag.upgrade_points(),
                u16::from(eq.vitality + eq.charisma),
                "suffix {s}"
            );
        }
        assert_eq!(suffix_boost(0, true), Stats::default());
        assert_eq!(suffix_boost(17, true), Stats::default());
    }

    #[test]
    fn table_spot_checks() {
        assert_eq!(suffix_boost(1, true).strength, 3);
        assert_eq!(suffix_boost(2, false).vitality, 3);
        let t = suffix_boost(3, true);
        assert_eq!((t.strength, t.charisma), (2, 1));
        let f = suffix_boost(11, true);
        assert_eq!((f.intelligence, f.vitality, f.charisma), (1, 1, 1));
        let d = suffix_boost(14, true);
        assert_eq!((d.wisdom, d.dexterity), (2, 1));
        assert_eq!(suffix_boost(16, false).charisma, 3);
    }

    #[test]
    fn boosts_need_seed_and_greatness() {
        let item = Item { id: 42, xp: 400 };
        assert_eq!(item_boost(&item, 0, true), Stats::default(), "no seed");
        let low = Item { id: 42, xp: 196 }; // G14
        assert_eq!(item_boost(&low, 1234, true), Stats::default());
        let s = rules::item_specials(42, 20, 1234).special1;
        assert_eq!(item_boost(&item, 1234, true), suffix_boost(s, true));
    }

    #[test]
    fn boosted_and_unboosted_round_trip() {
        let mut s = sample_state();
        s.adventurer.item_specials_seed = 777;
        s.adventurer.equipment.weapon.xp = 400;
        s.adventurer.equipment.chest.xp = 300;
        s.bag.items[0].xp = 250;
        s.adventurer.stats = stats(10, 10, 10, 10, 10, 10);
        let stored = unboosted(&s.adventurer, &s.bag);
        assert_eq!(stored.stats.luck, 0);
        let b = boosted(&stored, &s.bag);
        assert_eq!(b.stats.luck, rules::luck(&s.adventurer.equipment, &s.bag));
        assert_eq!(
            Stats { luck: 0, ..b.stats },
            Stats {
                luck: 0,
                ..s.adventurer.stats
            }
        );
        let boost = stat_boosts(&s.adventurer.equipment, &s.bag, 777);
        assert_eq!(
            b.stats.upgrade_points(),
            stored.stats.upgrade_points() + boost.upgrade_points()
        );
        assert!(boost.upgrade_points() >= 6, "two equipped G15+ items");
        assert_eq!(bagged_jewelry(&s.bag).count(), 1, "the Gold Ring");
    }
}
