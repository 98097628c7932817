//! Tests of `advisor_tools`.

use super::*;
use crate::error::ErrorCode;
use game::engine::{Action, World};
use starknet_types_core::felt::Felt;

fn battle_state() -> (u64, GameState, EngineSettings) {
    let settings = EngineSettings::default();
    let mut w = World::new(settings, 1);
    let id = w.mint(Felt::ONE);
    w.act(Felt::ONE, id, &Action::StartGame { weapon: 76 })
        .unwrap();
    (id, w.state(id), settings)
}

#[test]
fn exact_outcome_on_deterministic_worlds() {
    let (id, s, settings) = battle_state();
    let r = preview_result("sim", id.into(), &s, Some(settings), &[], None).unwrap();
    assert!(r.current_battle);
    assert_eq!(r.exactness, Exactness::Exact);
    let exact = r.exact.expect("exact on sim");
    assert_eq!(exact.attack.end, game::engine::PredictedEnd::BeastKilled);
    assert!(exact.flee.is_none(), "no fleeing the starter beast");
    let r = preview_result("devnet", id.into(), &s, None, &[], None).unwrap();
    assert!(r.exact.is_none() && r.method.contains("no exact"));
    assert_eq!(r.exactness, Exactness::Odds);
}

#[test]
fn hypothetical_fights_and_swaps() {
    let (id, mut s, settings) = battle_state();
    s.adventurer.beast_health = 0;
    let e = preview_result("sim", id.into(), &s, Some(settings), &[], None).unwrap_err();
    assert_eq!(e.code, ErrorCode::ValidationError);
    let dragon = resolve_beast(&BeastArgs {
        beast: BeastRef::Name("demon-grasp-dragon".into()),
        level: 20,
        health: 80,
    })
    .unwrap();
    assert_eq!((dragon.id, dragon.specials.special2), (29, 18));
    let base = preview_result("sim", id.into(), &s, Some(settings), &[], Some(dragon)).unwrap();
    assert!(!base.current_battle && base.exact.is_none());
    let gnome = resolve_beast(&BeastArgs {
        beast: BeastRef::Name("gnome".into()),
        level: 1,
        health: 10,
    })
    .unwrap();
    let club = preview_result("sim", id.into(), &s, Some(settings), &[], Some(gnome)).unwrap();
    let katana = preview_result("sim", id.into(), &s, Some(settings), &[42], Some(gnome)).unwrap();
    assert!(
        katana.preview.damage > club.preview.damage,
        "a katana cuts cloth better than a club"
    );
    assert_eq!(katana.imagined_equipment[0].name, "Katana");
    assert!(
        resolve_beast(&BeastArgs {
            beast: BeastRef::Id(76),
            level: 1,
            health: 1
        })
        .is_err()
    );
}

#[test]
fn a_wildcard_beast_is_refused_with_its_matches() {
    let named = |name: &str| BeastArgs {
        beast: BeastRef::Name(name.into()),
        level: 5,
        health: 20,
    };
    let e = resolve_beast(&named("*")).unwrap_err();
    assert_eq!(e.code, ErrorCode::ValidationError);
    assert_eq!(e.details["total"], 75);
    let listed = e.details["matches"].as_array().unwrap();
    assert_eq!(listed.len(), MAX_BEAST_MATCHES);
    let e = resolve_beast(&named("*wolf")).unwrap_err();
    assert!(e.message.contains("matches 3 beasts"), "{}", e.message);
    assert_eq!(
        e.details["matches"],
        serde_json::json!(["Werewolf", "Dire Wolf", "Wolf"])
    );
    assert_eq!(resolve_beast(&named("drag*n")).unwrap().id, 29);
}

#[test]
fn lookup_validates_filters() {
    let a = |v: serde_json::Value| -> LookupArgs { serde_json::from_value(v).unwrap() };
    let r = lookup_result(
        "sim",
        &a(serde_json::json!({"query": "*sword", "limit": 1})),
    )
    .unwrap();
    assert_eq!((r.total, r.returned, r.limit), (2, 1, 1));
    for bad in [
        serde_json::json!({"limit": 0}),
        serde_json::json!({"limit": 201}),
        serde_json::json!({"tier": 6}),
        serde_json::json!({"tier": "T9"}),
        serde_json::json!({"type": "wood"}),
        serde_json::json!({"slot": "feet"}),
    ] {
        let e = lookup_result("sim", &a(bad.clone())).unwrap_err();
        assert_eq!(e.code, ErrorCode::ValidationError, "{bad}");
    }
    let r = lookup_result(
        "sim",
        &a(serde_json::json!({"tier": "t1", "slot": "weapon"})),
    )
    .unwrap();
    assert_eq!(r.total, 4);
}
