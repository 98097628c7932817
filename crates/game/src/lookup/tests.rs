//! Tests of `lookup`.

use super::*;

fn q(text: &str) -> Query {
    Query {
        text: Some(text.into()),
        limit: 20,
        ..Query::default()
    }
}

fn names(f: &Found) -> Vec<String> {
    f.results
        .iter()
        .map(|e| match e {
            Entry::Item(i) => i.name.clone(),
            Entry::Beast(b) => b.name.clone(),
            Entry::Obstacle(o) => o.name.clone(),
            Entry::Special(s) => s.name.clone(),
        })
        .collect()
}

#[test]
fn names_are_case_insensitive_and_slugs_fold() {
    for t in ["katana", "KATANA", "Katana", " katana "] {
        let f = search(&q(t));
        assert_eq!(f.matched_by, MatchedBy::Name);
        assert_eq!(names(&f), ["Katana"]);
    }
    assert_eq!(names(&search(&q("dragons-crown"))), ["Dragon's Crown"]);
    assert_eq!(names(&search(&q("dire_wolf"))), ["Dire Wolf"]);
    assert_eq!(names(&search(&q("of-power"))), ["of Power"]);
}

#[test]
fn wildcards() {
    let f = search(&q("*sword"));
    assert_eq!(f.matched_by, MatchedBy::Wildcard);
    assert_eq!(names(&f), ["Long Sword", "Short Sword"]);
    let f = search(&Query {
        kind: Some(Kind::Beast),
        ..q("*wolf")
    });
    assert_eq!(names(&f), ["Werewolf", "Dire Wolf", "Wolf"]);
    assert_eq!(
        search(&q("demon*")).total,
        5 + 1 + 1,
        "5 items, Demonic Alter and the Demon prefix"
    );
}

#[test]
fn wildcard_matching_agrees_with_the_catalogue() {
    for pattern in [
        "*sword",
        "demon*",
        "*leather*gloves",
        "*",
        "*a*e*",
        "katana*",
        "x*",
    ] {
        let parts: Vec<String> = pattern.split('*').map(fold_name).collect();
        for (key, name, _) in &INDEX.entries {
            assert_eq!(
                wildcard_match(&parts, key),
                catalogue::name_matches(pattern, name),
                "{pattern} vs {name}"
            );
        }
    }
}

#[test]
fn slugs_with_specials() {
    let f = search(&q("demon-grasp-dragon"));
    assert_eq!(f.matched_by, MatchedBy::Specials);
    let Entry::Beast(b) = &f.results[0] else {
        panic!("{f:?}")
    };
    assert_eq!((b.id, b.name.as_str()), (29, "Demon Grasp Dragon"));
    assert_eq!(
        b.specials,
        Some(SpecialPowers {
            special1: 0,
            special2: 18,
            special3: 6
        })
    );
    let f = search(&q("katana-of-power"));
    let Entry::Item(i) = &f.results[0] else {
        panic!("{f:?}")
    };
    assert_eq!((i.id, i.name.as_str()), (42, "Katana of Power"));
    assert_eq!(i.specials.unwrap().special1, 1);
}

#[test]
fn ids_filters_and_limit() {
    let f = search(&q("42"));
    assert_eq!(f.matched_by, MatchedBy::Id);
    assert_eq!(f.total, 3, "item, beast and obstacle 42");
    let f = search(&Query {
        kind: Some(Kind::Item),
        tier: Some(Tier::T1),
        slot: Some(Slot::Weapon),
        limit: 3,
        ..Query::default()
    });
    assert_eq!(f.total, 4, "Ghost Wand, Grimoire, Katana, Warhammer");
    assert_eq!(f.results.len(), 3, "the limit is exact");
    let f = search(&Query {
        kind: Some(Kind::Special),
        limit: 200,
        ..Query::default()
    });
    assert_eq!(f.total, 16 + 69 + 18);
    let f = search(&Query {
        item_type: Some(ItemType::BladeOrHide),
        kind: Some(Kind::Beast),
        limit: 200,
        ..Query::default()
    });
    assert_eq!(f.total, 25);
}

#[test]
fn combat_facts() {
    let Entry::Item(w) = &search(&q("wand")).results[0] else {
        panic!()
    };
    assert_eq!(w.strong_against, Some(ItemType::BludgeonOrMetal));
    assert_eq!(w.weak_against, Some(ItemType::BladeOrHide));
    assert!(w.starting_weapon && w.resists.is_none());
    let Entry::Item(a) = &search(&q("leather armor")).results[0] else {
        panic!()
    };
    assert_eq!(a.resists, Some(ItemType::MagicOrCloth));
    assert_eq!(a.vulnerable_to, Some(ItemType::BludgeonOrMetal));
    let Entry::Beast(t) = &search(&q("troll")).results[0] else {
        panic!()
    };
    assert_eq!(t.weak_to, ItemType::MagicOrCloth);
    assert_eq!(t.best_armor, ItemType::MagicOrCloth);
    let Entry::Item(p) = &search(&q("pendant")).results[0] else {
        panic!()
    };
    assert!(p.effect.as_deref().unwrap().contains("Hide"));
    let Entry::Special(s) = &search(&q("of the twins")).results[0] else {
        panic!()
    };
    assert_eq!(s.equipped_boost.unwrap().charisma, 3);
}

#[test]
fn misses_suggest_up_to_five() {
    let f = search(&q("katanna"));
    assert_eq!((f.total, f.matched_by), (0, MatchedBy::None));
    assert!(f.suggestions.contains(&"Katana".to_string()), "{f:?}");
    let f = search(&q("sword"));
    assert!(f.suggestions.len() <= MAX_SUGGESTIONS);
    assert!(f.suggestions.contains(&"Long Sword".to_string()));
    assert!(search(&q("zzzzzzzzzzzzzzzz")).suggestions.is_empty());
    let huge = format!("katana{}", "q".repeat(1_000_000));
    assert!(search(&q(&huge)).suggestions.is_empty());
    let f = search(&Query {
        kind: Some(Kind::Beast),
        ..q("katana")
    });
    assert_eq!(f.total, 0, "a name of another kind is a miss");
}

#[test]
fn filter_parsers() {
    assert_eq!(parse_type("cloth"), Some(ItemType::MagicOrCloth));
    assert_eq!(
        parse_type("Bludgeon_or_Metal"),
        Some(ItemType::BludgeonOrMetal)
    );
    assert_eq!(parse_type("wood"), None);
    assert_eq!(parse_slot("Foot"), Some(Slot::Foot));
    assert_eq!(parse_slot("feet"), None);
    assert_eq!(parse_tier("T2"), Some(Tier::T2));
    assert_eq!(parse_tier("3"), Some(Tier::T3));
    assert_eq!(parse_tier("6"), None);
}
