//! The practice world speaks the official `ls_0_0_9` interface: every entrypoint the server calls
//! exists in the mainnet manifest with the same selector and the same input layout (types
//! resolved down to felts, struct member names and enum variants).
//!
//! The mainnet manifest is outside the repo; `.ci/run` sets `LS_MAINNET_MANIFEST`. Without it the
//! cross-check is skipped with a message (the crate must build and test without `../shared`).

use std::collections::HashMap;

use chain::bindings::ENTRYPOINTS;
use serde_json::Value;
use starknet::core::utils::get_selector_from_name;

type Defs = HashMap<String, Value>;

fn load(path: &str) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn contract<'a>(manifest: &'a Value, suffix: &str) -> &'a Value {
    manifest["contracts"]
        .as_array()
        .expect("contracts[]")
        .iter()
        .find(|c| {
            c["tag"]
                .as_str()
                .unwrap_or("")
                .ends_with(&format!("-{suffix}"))
        })
        .unwrap_or_else(|| panic!("no contract tagged *-{suffix}"))
}

fn defs(abi: &[Value]) -> Defs {
    abi.iter()
        .filter(|e| matches!(e["type"].as_str(), Some("struct" | "enum")))
        .map(|e| (e["name"].as_str().unwrap().to_string(), e.clone()))
        .collect()
}

fn function<'a>(abi: &'a [Value], name: &str) -> Option<&'a Value> {
    abi.iter()
        .flat_map(|e| match e["type"].as_str() {
            Some("interface") => e["items"]
                .as_array()
                .map(|v| v.iter().collect())
                .unwrap_or_default(),
            Some("function") => vec![e],
            _ => vec![],
        })
        .find(|f| f["type"] == "function" && f["name"] == name)
}

/// The felt layout of a Cairo type, independent of module paths.
fn layout(ty: &str, defs: &Defs) -> String {
    let ty = ty.trim_start_matches('@');
    let (base, arg) = match ty.find("::<") {
        Some(i) if ty.ends_with('>') => (&ty[..i], Some(&ty[i + 3..ty.len() - 1])),
        _ => (ty, None),
    };
    match (base, arg) {
        ("core::felt252" | "core::bytes_31::bytes31", None)
        | ("core::starknet::contract_address::ContractAddress", None)
        | ("core::starknet::class_hash::ClassHash", None) => "felt".into(),
        ("core::bool", None) => "bool".into(),
        (b, None) if b.starts_with("core::integer::") => b["core::integer::".len()..].to_string(),
        ("core::array::Array" | "core::array::Span", Some(t)) => format!("[{}]", layout(t, defs)),
        ("core::option::Option", Some(t)) => format!("option({})", layout(t, defs)),
        _ => {
            let def = defs
                .get(ty)
                .unwrap_or_else(|| panic!("type {ty} is not defined"));
            match def["type"].as_str() {
                Some("struct") => format!(
                    "{{{}}}",
                    def["members"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|m| format!(
                            "{}:{}",
                            m["name"].as_str().unwrap(),
                            layout(m["type"].as_str().unwrap(), defs)
                        ))
                        .collect::<Vec<_>>()
                        .join(",")
                ),
                _ => format!(
                    "enum({})",
                    def["variants"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|v| {
                            let t = v["type"].as_str().unwrap_or("()");
                            let l = if t == "()" {
                                "()".to_string()
                            } else {
                                layout(t, defs)
                            };
                            format!("{}:{l}", v["name"].as_str().unwrap())
                        })
                        .collect::<Vec<_>>()
                        .join(",")
                ),
            }
        }
    }
}

fn inputs(f: &Value, defs: &Defs) -> Vec<(String, String)> {
    f["inputs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            (
                i["name"].as_str().unwrap().to_string(),
                layout(i["type"].as_str().unwrap(), defs),
            )
        })
        .collect()
}

fn outputs(f: &Value, defs: &Defs) -> Vec<String> {
    f["outputs"]
        .as_array()
        .map(|o| {
            o.iter()
                .map(|t| layout(t["type"].as_str().unwrap(), defs))
                .collect()
        })
        .unwrap_or_default()
}

const OURS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../abi/practice_world.json");
const ERC20: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../abi/erc20.json");
const DUNGEON: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../abi/practice_dungeon.json"
);

#[test]
fn practice_world_declares_every_entrypoint_the_server_calls() {
    let ours = load(OURS);
    let tokens = load(ERC20);
    let dungeon = load(DUNGEON);
    for ep in ENTRYPOINTS {
        let manifest = match ep.tag_suffix {
            "erc20" => &tokens,
            "dungeon" | "ticket" | "golden_pass" => &dungeon,
            _ => &ours,
        };
        let c = contract(manifest, ep.tag_suffix);
        let abi = c["abi"].as_array().unwrap();
        let f =
            function(abi, ep.name).unwrap_or_else(|| panic!("{} lacks {}", ep.tag_suffix, ep.name));
        assert_eq!(get_selector_from_name(ep.name).unwrap(), ep.selector);
        let d = defs(abi);
        assert!(!inputs(f, &d).is_empty() || ep.name == "token_address");
    }
}

#[test]
fn token_entrypoints_follow_erc721() {
    let ours = load(OURS);
    let token: Vec<_> = ENTRYPOINTS
        .iter()
        .filter(|e| !e.official && e.tag_suffix == "game_token_systems")
        .collect();
    assert_eq!(
        token.iter().map(|e| e.name).collect::<Vec<_>>(),
        ["owner_of"]
    );
    let c = contract(&ours, "game_token_systems");
    let abi = c["abi"].as_array().unwrap();
    let f = function(abi, "owner_of").unwrap();
    let d = defs(abi);
    assert_eq!(
        inputs(f, &d),
        [("token_id".to_string(), "u256".to_string())]
    );
    assert_eq!(outputs(f, &d), ["felt"]);
}

#[test]
fn practice_world_matches_the_mainnet_interface() {
    let Ok(mainnet_path) = std::env::var("LS_MAINNET_MANIFEST") else {
        eprintln!(
            "SKIPPED: set LS_MAINNET_MANIFEST to the official ls_0_0_9 manifest_mainnet.json to cross-check the interface (.ci/run does)"
        );
        return;
    };
    let ours = load(OURS);
    let theirs = load(&mainnet_path);
    let mut checked = 0;
    for ep in ENTRYPOINTS.iter().filter(|e| e.official) {
        let (oc, tc) = (
            contract(&ours, ep.tag_suffix),
            contract(&theirs, ep.tag_suffix),
        );
        let (oabi, tabi) = (oc["abi"].as_array().unwrap(), tc["abi"].as_array().unwrap());
        let (od, td) = (defs(oabi), defs(tabi));
        let of = function(oabi, ep.name).unwrap();
        let tf = function(tabi, ep.name)
            .unwrap_or_else(|| panic!("mainnet {} has no {}", ep.tag_suffix, ep.name));
        assert_eq!(
            get_selector_from_name(tf["name"].as_str().unwrap()).unwrap(),
            ep.selector,
            "selector of {}",
            ep.name
        );
        assert_eq!(
            inputs(of, &od),
            inputs(tf, &td),
            "inputs of {}::{}",
            ep.tag_suffix,
            ep.name
        );
        assert_eq!(
            outputs(of, &od),
            outputs(tf, &td),
            "outputs of {}::{}",
            ep.tag_suffix,
            ep.name
        );
        checked += 1;
    }
    assert_eq!(checked, ENTRYPOINTS.iter().filter(|e| e.official).count());
    eprintln!("checked {checked} entrypoints against {mainnet_path}");
}

#[test]
fn layouts_resolve_structs_options_and_arrays() {
    let abi: Vec<Value> = serde_json::from_str(
        r#"[{"type":"struct","name":"m::ItemPurchase","members":[{"name":"item_id","type":"core::integer::u8"},{"name":"equip","type":"core::bool"}]},
            {"type":"enum","name":"core::bool","variants":[{"name":"False","type":"()"},{"name":"True","type":"()"}]}]"#,
    )
    .unwrap();
    let d = defs(&abi);
    assert_eq!(
        layout("core::array::Array::<m::ItemPurchase>", &d),
        "[{item_id:u8,equip:bool}]"
    );
    assert_eq!(
        layout("core::option::Option::<core::felt252>", &d),
        "option(felt)"
    );
    assert_ne!(
        layout("core::integer::u16", &d),
        layout("core::integer::u8", &d)
    );
}
