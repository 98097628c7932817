//! Generates typed Starknet bindings from the practice world's Dojo manifest (`abi/practice_world.json`)
//! and, by the same generator, from the v2 practice world's ABI file (`abi/practice_v2.json`).
//!
//! For every contract tag and entrypoint the server calls, it emits a selector constant, a `Call`
//! builder whose arguments are typed after the ABI, and (for entrypoints with outputs) a decoder.
//! Cairo structs and enums reachable from those entrypoints become Rust types deriving starknet's
//! `Encode`/`Decode`, so the Serde layout comes from the ABI, never from hand-written felt lists.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::PathBuf;

use serde_json::Value;

/// The entrypoints the server calls, per Dojo tag suffix; the single source of truth for bindings.
/// All of them belong to the official `ls_0_0_9` interface except those in [`TOKEN_ENTRYPOINTS`].
const WANTED: &[(&str, &str, &[&str])] = &[
    (
        "game_systems",
        "GameSystems",
        &[
            "start_game",
            "explore",
            "attack",
            "flee",
            "equip",
            "drop",
            "buy_items",
            "select_stat_upgrades",
            "get_game_state",
        ],
    ),
    (
        "adventurer_systems",
        "AdventurerSystems",
        &["get_adventurer", "get_bag"],
    ),
    (
        "game_token_systems",
        "GameTokenSystems",
        &["mint_game", "token_address"],
    ),
    ("settings_systems", "SettingsSystems", &["game_settings"]),
    ("erc20", "Erc20", &["balance_of"]),
    ("dungeon", "Dungeon", &["buy_game", "claim_free_game"]),
    (
        "ticket",
        "Ticket",
        &["approve", "allowance", "balance_of", "mint"],
    ),
    ("golden_pass", "GoldenPass", &["owner_of", "mint"]),
];

/// Tag suffixes outside the official `ls_0_0_9` world: the fee tokens, and the dungeon with its
/// ticket and golden pass (Beast Mode's interface; their bindings come from the practice dungeon).
const NOT_OFFICIAL: &[&str] = &["erc20", "dungeon", "ticket", "golden_pass"];

/// ERC721 entrypoints of the adventurer token, called on `token_address()` (the Denshokan token on
/// mainnet, the practice world itself on devnet); not part of the game systems' interface.
const TOKEN_ENTRYPOINTS: &[&str] = &["owner_of"];

/// The v2 entrypoints the server calls, per tag suffix in `abi/practice_v2.json`, with the module
/// they land in (GameCore's player surface and `load_assets`, GameToken's `mint_game`, Denshokan's
/// `owner_of`, the VRF provider's `request_random`).
const V2_WANTED: &[(&str, &str, &str, &[&str])] = &[
    (
        "game",
        "game_core",
        "GameCore",
        &[
            "start_game",
            "explore",
            "attack",
            "flee",
            "equip",
            "drop_items",
            "buy_items",
            "select_stat_upgrades",
            "surrender",
            "load_assets",
        ],
    ),
    ("token", "game_token", "GameToken", &["mint_game"]),
    ("denshokan", "denshokan", "Denshokan", &["owner_of"]),
    ("vrf", "vrf_provider", "VrfProvider", &["request_random"]),
];

/// The v2 practice world's ABIs by tag (written by `scripts/build-contracts.sh`).
const V2_ABI: &str = "../../abi/practice_v2.json";

/// The manifest bindings are generated from; `LS_BINDINGS_MANIFEST` points elsewhere (for example
/// at the official mainnet manifest, to check that the server's calls compile against it too).
const MANIFEST: &str = "../../abi/practice_world.json";

/// The fee tokens' ERC20 interface (our own minimal manifest), for wallet balances.
const ERC20_MANIFEST: &str = "../../abi/erc20.json";

/// The practice dungeon, its ticket and golden pass (written by `scripts/build-contracts.sh`).
const DUNGEON_MANIFEST: &str = "../../abi/practice_dungeon.json";

fn main() {
    println!("cargo:rerun-if-env-changed=LS_BINDINGS_MANIFEST");
    println!("cargo:rerun-if-changed=src/type_syntax.rs");
    let manifest_path = std::env::var("LS_BINDINGS_MANIFEST").unwrap_or_else(|_| MANIFEST.into());
    println!("cargo:rerun-if-changed={manifest_path}");
    println!("cargo:rerun-if-changed=build.rs");
    let text = std::fs::read_to_string(&manifest_path).unwrap_or_else(|e| {
        panic!("cannot read {manifest_path}: {e} (run scripts/build-contracts.sh)")
    });
    let manifest: Value = serde_json::from_str(&text).expect("manifest is not JSON");
    println!("cargo:rerun-if-changed={ERC20_MANIFEST}");
    let erc20: Value = serde_json::from_str(
        &std::fs::read_to_string(ERC20_MANIFEST).expect("read abi/erc20.json"),
    )
    .expect("abi/erc20.json is not JSON");
    println!("cargo:rerun-if-changed={DUNGEON_MANIFEST}");
    let dungeon: Value = serde_json::from_str(
        &std::fs::read_to_string(DUNGEON_MANIFEST).expect("read abi/practice_dungeon.json"),
    )
    .expect("abi/practice_dungeon.json is not JSON");
    let mut extra = erc20["contracts"].as_array().cloned().unwrap_or_default();
    extra.extend(dungeon["contracts"].as_array().cloned().unwrap_or_default());
    let extra = serde_json::json!({ "contracts": extra });
    let mut contracts = manifest["contracts"]
        .as_array()
        .expect("manifest has no contracts[]")
        .clone();
    contracts.extend(extra["contracts"].as_array().cloned().unwrap_or_default());
    let v1: Vec<Spec> = WANTED
        .iter()
        .map(|(suffix, contract, names)| Spec {
            suffix,
            module: suffix,
            contract,
            names,
            extra: if *suffix == "game_token_systems" {
                TOKEN_ENTRYPOINTS
            } else {
                &[]
            },
            official: !NOT_OFFICIAL.contains(suffix),
        })
        .collect();
    let code = generate(&contracts, &v1, "abi/practice_world.json")
        .unwrap_or_else(|e| panic!("bindings from {manifest_path}: {e}"));
    let out_dir = PathBuf::from(std::env::var("OUT_DIR").expect("OUT_DIR"));
    std::fs::write(out_dir.join("bindings.rs"), code).expect("write bindings.rs");
    write_abis(&contracts, &v1, &out_dir.join("abi_v1.json"));
    println!("cargo:rerun-if-changed={V2_ABI}");
    let v2: Value =
        serde_json::from_str(&std::fs::read_to_string(V2_ABI).expect("read abi/practice_v2.json"))
            .expect("abi/practice_v2.json is not JSON");
    let v2_specs: Vec<Spec> = V2_WANTED
        .iter()
        .map(|(suffix, module, contract, names)| Spec {
            suffix,
            module,
            contract,
            names,
            extra: &[],
            official: true,
        })
        .collect();
    let contracts = v2["contracts"].as_array().cloned().unwrap_or_default();
    let code = generate(&contracts, &v2_specs, "abi/practice_v2.json")
        .unwrap_or_else(|e| panic!("bindings from {V2_ABI}: {e}"));
    std::fs::write(out_dir.join("bindings_v2.rs"), code).expect("write bindings_v2.rs");
    write_abis(&contracts, &v2_specs, &out_dir.join("abi_v2.json"));
}

/// Writes `{tag suffix: ABI}` of the contracts the bindings were generated from, so the ABI check
/// compares a deployed class with exactly these.
fn write_abis(contracts: &[Value], specs: &[Spec], path: &std::path::Path) {
    let mut abis = serde_json::Map::new();
    for spec in specs {
        let abi = contracts
            .iter()
            .find(|c| {
                c["tag"]
                    .as_str()
                    .is_some_and(|t| t.ends_with(&format!("-{}", spec.suffix)))
            })
            .map_or(Value::Null, |c| c["abi"].clone());
        abis.insert(spec.suffix.to_string(), abi);
    }
    std::fs::write(path, Value::Object(abis).to_string()).expect("write the bindings' ABIs");
}

/// One contract's bindings: its tag suffix, the module they land in, its type name, the
/// entrypoints wanted, extra ones outside its official interface, and whether it is official.
struct Spec<'a> {
    suffix: &'a str,
    module: &'a str,
    contract: &'a str,
    names: &'a [&'a str],
    extra: &'a [&'a str],
    official: bool,
}

/// One ABI function, as found in top-level entries or inside interfaces.
struct Function {
    name: String,
    inputs: Vec<(String, String)>,
    outputs: Vec<String>,
    view: bool,
}

fn generate(contracts: &[Value], specs: &[Spec], source: &str) -> Result<String, String> {
    let mut defs: BTreeMap<String, Value> = BTreeMap::new();
    let mut modules = String::new();
    let mut used_types: BTreeSet<String> = BTreeSet::new();
    let mut catalogue = String::new();

    for spec in specs {
        let (suffix, type_name, module) = (spec.suffix, spec.contract, spec.module);
        let contract = contracts
            .iter()
            .find(|c| {
                c["tag"]
                    .as_str()
                    .is_some_and(|t| t.ends_with(&format!("-{suffix}")))
            })
            .ok_or_else(|| format!("no contract tagged *-{suffix}"))?;
        let tag = contract["tag"].as_str().unwrap_or_default();
        let abi = contract["abi"]
            .as_array()
            .ok_or_else(|| format!("{tag}: abi is not an array"))?;
        collect_defs(abi, &mut defs);
        let functions = collect_functions(abi);
        let mut body = String::new();
        writeln!(
            body,
            "    /// The Dojo tag these bindings were generated from."
        )
        .unwrap();
        writeln!(body, "    pub const TAG: &str = {tag:?};").unwrap();
        let (extra, official) = (spec.extra, spec.official);
        for name in spec.names.iter().chain(extra) {
            let f = functions
                .iter()
                .find(|f| f.name == *name)
                .ok_or_else(|| format!("{tag}: no function {name}"))?;
            body.push_str(&emit_function(f, &defs, &mut used_types)?);
            writeln!(
                catalogue,
                "    Entrypoint {{ tag_suffix: {suffix:?}, contract: {type_name:?}, name: {name:?}, selector: {module}::{}_SELECTOR, view: {}, official: {} }},",
                name.to_uppercase(),
                f.view,
                official && !extra.contains(name)
            )
            .unwrap();
        }
        writeln!(
            modules,
            "/// Bindings for `{tag}`.\npub mod {module} {{\n    #[allow(unused_imports)]\n    use super::*;\n{body}}}\n"
        )
        .unwrap();
    }

    let mut types = String::new();
    let mut done = BTreeSet::new();
    let mut queue: Vec<String> = used_types.into_iter().collect();
    while let Some(full) = queue.pop() {
        if !done.insert(full.clone()) {
            continue;
        }
        let def = defs
            .get(&full)
            .ok_or_else(|| format!("type {full} not defined in the ABI"))?;
        let mut deps = BTreeSet::new();
        types.push_str(&emit_type(&full, def, &defs, &mut deps)?);
        queue.extend(deps);
    }

    let mut code = String::new();
    writeln!(code, "// Generated by build.rs from {source}. Do not edit.").unwrap();
    code.push_str(
        "use starknet::core::codec::{Decode, Encode};\nuse starknet::core::types::{Call, Felt};\n\n",
    );
    code.push_str(&types);
    code.push_str(&modules);
    code.push_str(
        "/// Every entrypoint the server may call, for policy checks and interface tests.\n",
    );
    code.push_str("pub const ENTRYPOINTS: &[Entrypoint] = &[\n");
    code.push_str(&catalogue);
    code.push_str("];\n");
    Ok(code)
}

fn collect_defs(abi: &[Value], defs: &mut BTreeMap<String, Value>) {
    for entry in abi {
        if matches!(entry["type"].as_str(), Some("struct" | "enum"))
            && let Some(name) = entry["name"].as_str()
        {
            defs.entry(name.to_string())
                .or_insert_with(|| entry.clone());
        }
    }
}

fn collect_functions(abi: &[Value]) -> Vec<Function> {
    let mut out = Vec::new();
    for entry in abi {
        match entry["type"].as_str() {
            Some("function") => out.extend(parse_function(entry)),
            Some("interface") => {
                for item in entry["items"].as_array().into_iter().flatten() {
                    out.extend(parse_function(item));
                }
            }
            _ => {}
        }
    }
    out
}

fn parse_function(v: &Value) -> Option<Function> {
    if v["type"].as_str() != Some("function") {
        return None;
    }
    let inputs = v["inputs"]
        .as_array()?
        .iter()
        .map(|i| {
            (
                i["name"].as_str().unwrap_or("arg").to_string(),
                i["type"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect();
    let outputs = v["outputs"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|o| o["type"].as_str().unwrap_or_default().to_string())
        .collect();
    Some(Function {
        name: v["name"].as_str()?.to_string(),
        inputs,
        outputs,
        view: v["state_mutability"].as_str() == Some("view"),
    })
}

// `split_generic` and `tuple_parts`, shared with the ABI check.
include!("src/type_syntax.rs");

/// Maps a Cairo ABI type to a Rust type, recording user types that must be generated.
fn rust_type(
    ty: &str,
    defs: &BTreeMap<String, Value>,
    used: &mut BTreeSet<String>,
) -> Result<String, String> {
    let ty = ty.trim_start_matches('@');
    let (base, arg) = split_generic(ty);
    Ok(match (base, arg) {
        ("core::felt252", None)
        | ("core::starknet::contract_address::ContractAddress", None)
        | ("core::starknet::class_hash::ClassHash", None)
        | ("core::bytes_31::bytes31", None) => "Felt".into(),
        ("core::bool", None) => "bool".into(),
        ("core::integer::u8", None) => "u8".into(),
        ("core::integer::u16", None) => "u16".into(),
        ("core::integer::u32", None) => "u32".into(),
        ("core::integer::u64", None) => "u64".into(),
        ("core::integer::u128", None) => "u128".into(),
        ("core::integer::u256", None) => "starknet::core::types::U256".into(),
        ("core::array::Array" | "core::array::Span", Some(inner)) => {
            format!("Vec<{}>", rust_type(inner, defs, used)?)
        }
        ("core::option::Option", Some(inner)) => {
            format!("Option<{}>", rust_type(inner, defs, used)?)
        }
        (_, None) if defs.contains_key(base) => {
            used.insert(base.to_string());
            type_ident(base)
        }
        _ => return Err(format!("unsupported ABI type {ty}")),
    })
}

/// The Rust identifier of a user type: the last path segment (`death_mountain::models::Stats` → `Stats`).
fn type_ident(full: &str) -> String {
    full.rsplit("::").next().unwrap_or(full).to_string()
}

fn emit_type(
    full: &str,
    def: &Value,
    defs: &BTreeMap<String, Value>,
    deps: &mut BTreeSet<String>,
) -> Result<String, String> {
    let ident = type_ident(full);
    let mut s = format!(
        "/// Cairo `{full}`.\n#[derive(Debug, Clone, PartialEq, Eq, Encode, Decode)]\n#[starknet(core = \"starknet::core\")]\n"
    );
    match def["type"].as_str() {
        Some("struct") => {
            writeln!(s, "pub struct {ident} {{").unwrap();
            for m in def["members"].as_array().ok_or("struct without members")? {
                let name = m["name"].as_str().ok_or("member without name")?;
                let ty = rust_type(m["type"].as_str().unwrap_or_default(), defs, deps)?;
                writeln!(
                    s,
                    "    #[allow(missing_docs)]\n    pub {}: {ty},",
                    field_ident(name)
                )
                .unwrap();
            }
        }
        Some("enum") => {
            writeln!(s, "pub enum {ident} {{").unwrap();
            for v in def["variants"].as_array().ok_or("enum without variants")? {
                let name = v["name"].as_str().ok_or("variant without name")?;
                let ty = v["type"].as_str().unwrap_or("()");
                if ty == "()" {
                    writeln!(s, "    #[allow(missing_docs)]\n    {name},").unwrap();
                } else {
                    let t = rust_type(ty, defs, deps)?;
                    writeln!(s, "    #[allow(missing_docs)]\n    {name}({t}),").unwrap();
                }
            }
        }
        other => return Err(format!("{full}: unexpected definition kind {other:?}")),
    }
    s.push_str("}\n\n");
    Ok(s)
}

fn field_ident(name: &str) -> String {
    match name {
        "type" | "ref" | "mod" | "fn" | "match" | "loop" | "move" | "self" | "where" => {
            format!("r#{name}")
        }
        _ => name.to_string(),
    }
}

/// The Rust name of a function argument; `contract` is reserved for the target address.
fn arg_ident(name: &str) -> String {
    if name == "contract" {
        return "contract_".into();
    }
    field_ident(name)
}

fn emit_function(
    f: &Function,
    defs: &BTreeMap<String, Value>,
    used: &mut BTreeSet<String>,
) -> Result<String, String> {
    let upper = f.name.to_uppercase();
    let mut s = String::new();
    writeln!(
        s,
        "    /// Selector of `{}`.\n    pub const {upper}_SELECTOR: Felt = starknet::macros::selector!({:?});",
        f.name, f.name
    )
    .unwrap();
    let mut params = Vec::new();
    let mut encodes = String::new();
    for (name, ty) in &f.inputs {
        let rt = rust_type(ty, defs, used)?;
        let id = arg_ident(name);
        params.push(format!("{id}: &{rt}"));
        writeln!(
            encodes,
            "        Encode::encode({id}, &mut calldata).expect(\"encoding into a Vec cannot fail\");"
        )
        .unwrap();
    }
    let params = params.join(", ");
    let sep = if params.is_empty() { "" } else { ", " };
    writeln!(
        s,
        "    /// Calldata of `{}` in the ABI's Serde layout.\n    pub fn {}_calldata({params}) -> Vec<Felt> {{\n        #[allow(unused_mut)]\n        let mut calldata: Vec<Felt> = Vec::new();\n{encodes}        calldata\n    }}",
        f.name, f.name
    )
    .unwrap();
    let args: Vec<String> = f
        .inputs
        .iter()
        .map(|(n, _)| arg_ident(n))
        .collect::<Vec<_>>();
    writeln!(
        s,
        "    /// A `{}` call on `contract` (for invokes, and for views through `starknet_call`).\n    pub fn {}(contract: Felt{sep}{params}) -> Call {{\n        Call {{ to: contract, selector: {upper}_SELECTOR, calldata: {}_calldata({}) }}\n    }}",
        f.name,
        f.name,
        f.name,
        args.join(", ")
    )
    .unwrap();
    if let Some(out) = f.outputs.first()
        && let Some(parts) = tuple_parts(out)
    {
        let types = parts
            .iter()
            .map(|p| rust_type(p, defs, used))
            .collect::<Result<Vec<_>, _>>()?;
        let reads: String = types
            .iter()
            .map(|t| format!("<{t} as Decode>::decode_iter(&mut it)?, "))
            .collect();
        writeln!(
            s,
            "    /// Decodes the return value of `{}`.\n    pub fn decode_{}(felts: &[Felt]) -> Result<({}), starknet::core::codec::Error> {{\n        let mut it = felts.iter();\n        Ok(({reads}))\n    }}",
            f.name,
            f.name,
            types.join(", ")
        )
        .unwrap();
    } else if let Some(out) = f.outputs.first() {
        let rt = rust_type(out, defs, used)?;
        writeln!(
            s,
            "    /// Decodes the return value of `{}`.\n    pub fn decode_{}(felts: &[Felt]) -> Result<{rt}, starknet::core::codec::Error> {{\n        <{rt} as Decode>::decode(felts)\n    }}",
            f.name, f.name
        )
        .unwrap();
    }
    Ok(s)
}
