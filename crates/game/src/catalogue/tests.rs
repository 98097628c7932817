//! Tests of the catalogue: the tables against the game's data, and the name search.

use super::*;

#[test]
fn bounded_edit_distance() {
    assert_eq!(edit_distance_within("katana", "katana", 2), Some(0));
    assert_eq!(edit_distance_within("katnna", "katana", 2), Some(1));
    assert_eq!(edit_distance_within("kitten", "sitting", 3), Some(3));
    assert_eq!(edit_distance_within("kitten", "sitting", 2), None);
    assert_eq!(edit_distance_within("a", "abcdef", 3), None);
    assert_eq!(edit_distance_within("", "ab", 2), Some(2));
}

#[test]
fn fuzzy_cap_leaves_a_margin_over_every_name() {
    let longest = ITEMS
        .iter()
        .map(|i| i.name)
        .chain(BEAST_NAMES.iter().copied())
        .chain(OBSTACLE_NAMES.iter().copied())
        .chain(SPECIAL1_NAMES.iter().copied())
        .chain(SPECIAL2_NAMES.iter().copied())
        .chain(SPECIAL3_NAMES.iter().copied())
        .map(|n| fold_name(n).len())
        .max()
        .unwrap();
    assert!(
        MAX_FUZZY_CHARS >= longest + 6,
        "longest folded name: {longest}"
    );
    assert_eq!(suggest("katanna", 5), vec!["Katana"]);
    assert!(suggest(&format!("katana{}", "x".repeat(MAX_FUZZY_CHARS)), 5).is_empty());
    assert!(suggest(&"katana".repeat(200_000), 5).is_empty());
}

#[test]
fn table_ids_are_dense() {
    for (i, it) in ITEMS.iter().enumerate() {
        assert_eq!(usize::from(it.id), i + 1);
        assert_ne!(it.tier, Tier::None);
        assert_ne!(it.slot, Slot::None);
    }
    assert_eq!(beasts().count(), 75);
    assert_eq!(obstacles().count(), 75);
    assert!(item(0).is_none() && item(102).is_none());
    assert!(beast(0).is_none() && beast(76).is_none());
}

#[test]
fn item_spot_checks() {
    let ss = item(46).unwrap();
    assert_eq!(
        (ss.name, ss.tier, ss.item_type, ss.slot, ss.slot_index),
        (
            "Short Sword",
            Tier::T5,
            ItemType::BladeOrHide,
            Slot::Weapon,
            9
        )
    );
    let k = item(42).unwrap();
    assert_eq!((k.name, k.tier), ("Katana", Tier::T1));
    assert_eq!(item(1).unwrap().slot, Slot::Neck);
    assert_eq!(item(8).unwrap().name, "Gold Ring");
    assert_eq!(item(8).unwrap().item_type, ItemType::Ring);
    assert_eq!(item(12).unwrap().name, "Wand");
    assert_eq!(item(16).unwrap().name, "Book");
    assert_eq!(item(76).unwrap().name, "Club");
    assert_eq!(item(101).unwrap().name, "Heavy Gloves");
    assert_eq!(item(53).unwrap().name, "Dragon's Crown");
    assert_eq!(item(80).unwrap().tier, Tier::T4);
    // Discovery lists hold the right tiers and never jewelry.
    for (list, t) in [
        (&LOOT_T1[..], Tier::T1),
        (&LOOT_T2[..], Tier::T2),
        (&LOOT_T3[..], Tier::T3),
        (&LOOT_T4[..], Tier::T4),
        (&LOOT_T5[..], Tier::T5),
    ] {
        for id in list {
            let it = item(*id).unwrap();
            assert_eq!(it.tier, t, "{}", it.name);
            assert!(!matches!(it.slot, Slot::Neck | Slot::Ring));
        }
    }
}

#[test]
fn beast_and_obstacle_spot_checks() {
    let b = beast(29).unwrap();
    assert_eq!(
        (b.name, b.tier, b.beast_type),
        ("Dragon", Tier::T1, ItemType::BladeOrHide)
    );
    assert_eq!(beast(45).unwrap().name, "Dire Wolf");
    assert_eq!(beast(71).unwrap().name, "Troll");
    assert_eq!(beast(21).unwrap().name, "Fairy");
    assert_eq!(beast(46).unwrap().name, "Bear");
    let o = obstacle(22).unwrap();
    assert_eq!(
        (o.name, o.tier, o.obstacle_type),
        ("Curse", Tier::T5, ItemType::MagicOrCloth)
    );
    assert_eq!(obstacle(75).unwrap().name, "Rolling Boulder");
    assert_eq!(obstacle(1).unwrap().name, "Demonic Alter");
}

#[test]
fn name_lookup_folds() {
    for q in [
        "short sword",
        "ShortSword",
        "short-sword",
        "SHORT_SWORD",
        " Short  Sword ",
    ] {
        assert_eq!(item_by_name(q).map(|i| i.id), Some(46), "{q}");
    }
    assert_eq!(item_by_name("dragons crown").map(|i| i.id), Some(53));
    assert_eq!(item_by_name("excalibur"), None);
    assert_eq!(resolve_item("46").map(|i| i.name), Some("Short Sword"));
    assert_eq!(resolve_item("wand").map(|i| i.id), Some(12));
    assert_eq!(resolve_item("0"), None);
    assert_eq!(beast_by_name("direwolf").map(|b| b.id), Some(45));
    assert_eq!(beast_by_name("Nemean-Lion").map(|b| b.id), Some(66));
    assert_eq!(obstacle_by_name("demonic_alter").map(|o| o.id), Some(1));
}

#[test]
fn wildcards_and_suggestions() {
    let swords: Vec<u8> = search_items("*sword").iter().map(|i| i.id).collect();
    assert_eq!(swords, vec![45, 46]);
    assert_eq!(search_items("demon*").len(), 5);
    assert!(name_matches("*leather*gloves", "Studded Leather Gloves"));
    assert!(!name_matches("*leather*gloves", "Leather Boots"));
    assert!(name_matches("*", "Anything"));
    assert_eq!(search_beasts("dragon").len(), 1);
    assert!(search_obstacles("*boulder*").len() >= 2);
    assert!(suggest("katanna", 3).contains(&"Katana"));
    assert!(suggest("sword", 5).contains(&"Long Sword"));
    assert!(suggest("", 5).is_empty());
}

#[test]
fn special_names() {
    assert_eq!(special1_name(1), Some("of Power"));
    assert_eq!(special1_name(13), Some("of the Fox"));
    assert_eq!(special1_name(17), None);
    assert_eq!(special2_name(18), Some("Demon"));
    assert_eq!(special2_name(69), Some("Shimmering"));
    assert_eq!(special3_name(6), Some("Grasp"));
    assert_eq!(special3_name(0), None);
}

/// Cross-checks the tables against the game's JSON data files (items, beasts, obstacles) in the
/// optional data directory beside the workspace root (named below; this crate sits one level
/// under that root), when it exists; skipped otherwise.
#[test]
fn matches_shared_data_files() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/game");
    if !dir.is_dir() {
        eprintln!(
            "skipping: {} not found (shared data is optional)",
            dir.display()
        );
        return;
    }
    let load = |f: &str| -> Vec<serde_json::Value> {
        serde_json::from_str(&std::fs::read_to_string(dir.join(f)).unwrap()).unwrap()
    };
    let items = load("items.json");
    assert_eq!(items.len(), 101);
    for v in &items {
        let it = item(v["id"].as_u64().unwrap() as u8).unwrap();
        assert_eq!(
            fold_name(it.name),
            fold_name(v["name"].as_str().unwrap()),
            "item {}",
            it.id
        );
        assert_eq!(
            serde_json::to_value(it.tier).unwrap(),
            v["tier"],
            "item {}",
            it.id
        );
        assert_eq!(
            serde_json::to_value(it.item_type).unwrap(),
            v["type"],
            "item {}",
            it.id
        );
        assert_eq!(
            serde_json::to_value(it.slot).unwrap(),
            v["slot"],
            "item {}",
            it.id
        );
        assert_eq!(
            u64::from(it.slot_index),
            v["slot_index"].as_u64().unwrap(),
            "item {}",
            it.id
        );
        assert_eq!(
            u64::from(rules::tier_price(it.tier)),
            v["base_price"].as_u64().unwrap()
        );
    }
    for (file, is_beast) in [("beasts.json", true), ("obstacles.json", false)] {
        let rows = load(file);
        assert_eq!(rows.len(), 75);
        for v in &rows {
            let id = v["id"].as_u64().unwrap() as u8;
            let (name, tier, ty) = if is_beast {
                let b = beast(id).unwrap();
                (b.name, b.tier, b.beast_type)
            } else {
                let o = obstacle(id).unwrap();
                (o.name, o.tier, o.obstacle_type)
            };
            assert_eq!(
                fold_name(name),
                fold_name(v["name"].as_str().unwrap()),
                "{file} {id}"
            );
            assert_eq!(
                serde_json::to_value(tier).unwrap(),
                v["tier"],
                "{file} {id}"
            );
            assert_eq!(serde_json::to_value(ty).unwrap(), v["type"], "{file} {id}");
        }
    }
    let specials: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(dir.join("item_specials_names.json")).unwrap(),
    )
    .unwrap();
    for (key, f) in [
        ("suffix", special1_name as fn(u8) -> Option<&'static str>),
        ("prefix1", special2_name),
        ("prefix2", special3_name),
    ] {
        for pair in specials[key].as_array().unwrap() {
            let i = pair[0].as_u64().unwrap() as u8;
            assert_eq!(
                fold_name(f(i).unwrap()),
                fold_name(pair[1].as_str().unwrap()),
                "{key} {i}"
            );
        }
    }
}
