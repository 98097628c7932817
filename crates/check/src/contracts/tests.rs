//! The ABI check against a class source that answers with the v2 practice world's own classes
//! (`abi/practice_v2.json`), one of them altered, counting the classes it is asked for.

use std::collections::BTreeMap;
use std::sync::Mutex;

use serde_json::Value;
use starknet::core::types::{
    CompressedLegacyContractClass, ContractClass, Felt, FlattenedSierraClass,
    LegacyEntryPointsByType,
};

use super::*;
use crate::cache;
use crate::classes::is_its_class;
use chain::ChainError;
use chain::V2Contracts;
use chain::bindings;
use starknet::core::types::contract::AbiEntry;

/// Classes by address, as the node would answer: each a tag (a legacy class's hash; a Sierra
/// class's program, so another tag is another class) and its ABI (`null`: a legacy class).
#[derive(Default)]
struct Classes {
    at: BTreeMap<Felt, (Felt, Value)>,
    /// Answer each class hash as the tag, not the hash of the class sent (a lying node).
    lies: bool,
    fetched: Mutex<usize>,
    /// What `supports_interface` answers, and the calls made.
    erc721: bool,
    calls: Mutex<Vec<(Felt, Felt, Vec<Felt>)>>,
}

#[async_trait::async_trait]
impl ClassSource for Classes {
    async fn class_hash_at(&self, address: Felt) -> Result<Felt, ClassError> {
        self.hash_of(address).ok_or(ClassError::NotDeployed)
    }

    async fn class_at(&self, address: Felt) -> Result<ContractClass, ClassError> {
        *self.fetched.lock().unwrap() += 1;
        let (tag, abi) = self.at.get(&address).ok_or(ClassError::NotDeployed)?;
        if abi.is_null() {
            return Ok(ContractClass::Legacy(CompressedLegacyContractClass {
                program: vec![],
                entry_points_by_type: LegacyEntryPointsByType {
                    constructor: vec![],
                    external: vec![],
                    l1_handler: vec![],
                },
                abi: None,
            }));
        }
        Ok(ContractClass::Sierra(sierra(*tag, abi)))
    }

    async fn chain_id(&self) -> Result<Felt, ClassError> {
        Ok(Felt::from_bytes_be_slice(b"SN_SEPOLIA"))
    }

    async fn call(
        &self,
        to: Felt,
        selector: Felt,
        data: Vec<Felt>,
    ) -> Result<Vec<Felt>, ClassError> {
        self.calls.lock().unwrap().push((to, selector, data));
        Ok(vec![Felt::from(self.erc721)])
    }
}

/// A Sierra class whose program is `tag` alone, with `abi`.
fn sierra(tag: Felt, abi: &Value) -> FlattenedSierraClass {
    FlattenedSierraClass {
        sierra_program: vec![tag],
        contract_class_version: "0.1.0".into(),
        entry_points_by_type: starknet::core::types::EntryPointsByType {
            constructor: vec![],
            external: vec![],
            l1_handler: vec![],
        },
        abi: abi.to_string(),
    }
}

impl Classes {
    /// The class hash the node gives for `address`.
    fn hash_of(&self, address: Felt) -> Option<Felt> {
        let (tag, abi) = self.at.get(&address)?;
        Some(if abi.is_null() || self.lies {
            *tag
        } else {
            sierra(*tag, abi).class_hash()
        })
    }
}

fn practice_abi(tag: &str) -> Value {
    let file: Value =
        serde_json::from_str(include_str!("../../../../abi/practice_v2.json")).unwrap();
    file["contracts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["tag"] == tag)
        .unwrap()["abi"]
        .clone()
}

fn deployment() -> Deployment {
    Deployment::V2(V2Contracts {
        game_core: Felt::from(0x6a_u8),
        game_token: Felt::from(0x70_u8),
        denshokan: Felt::from(0xde_u8),
        vrf_provider: Felt::from(0xf0_u8),
        dungeon: None,
        minter: None,
        vrf_source: None,
        vrf_consumer: None,
        vrf_settings: None,
        legacy_envelope_until: None,
    })
}

/// The practice world's classes at [`deployment`]'s addresses, GameCore's with `game`.
fn classes(game: Value, game_hash: u8) -> Classes {
    let mut c = Classes::default();
    c.at.insert(Felt::from(0x6a_u8), (Felt::from(game_hash), game));
    for (address, tag, hash) in [
        (0x70_u8, "practice_v2-token", 2_u8),
        (0xde, "practice_v2-denshokan", 3),
        (0xf0, "practice_v2-vrf", 4),
    ] {
        c.at.insert(Felt::from(address), (Felt::from(hash), practice_abi(tag)));
    }
    c
}

/// GameCore's ABI with `attack`'s `to_the_death` declared as a u8.
fn attack_takes_u8() -> Value {
    fn retype(v: &mut Value) {
        match v {
            Value::Array(items) => items.iter_mut().for_each(retype),
            Value::Object(o) if o.get("name") == Some(&Value::from("attack")) => {
                o["inputs"][1]["type"] = Value::from("core::integer::u8");
            }
            Value::Object(o) => o.values_mut().for_each(retype),
            _ => {}
        }
    }
    let mut abi = practice_abi("practice_v2-game");
    retype(&mut abi);
    abi
}

#[tokio::test]
async fn the_practice_world_matches_its_own_bindings() {
    let source = classes(practice_abi("practice_v2-game"), 1);
    let check = check_abi(&source, &deployment(), None).await;
    assert_eq!(check.differences().count(), 0, "{check:?}");
    assert_eq!(check.speaks, Some(Speaks::Generation(Generation::V2)));
    let compared: usize = check
        .contracts
        .iter()
        .map(|c| match c.outcome {
            Outcome::Compared { entrypoints, .. } => entrypoints,
            _ => panic!("{c:?}"),
        })
        .sum();
    assert_eq!(compared, bindings::v2::ENTRYPOINTS.len());
    assert!(check.gate("x").is_clear());
}

#[tokio::test]
async fn an_attack_of_another_type_is_found_and_its_writes_refused() {
    let source = classes(attack_takes_u8(), 1);
    let check = check_abi(&source, &deployment(), None).await;
    let diffs: Vec<_> = check.differences().collect();
    assert_eq!(diffs.len(), 1, "{diffs:?}");
    assert_eq!(diffs[0].entrypoint, "attack");
    assert!(
        diffs[0].ours.ends_with("to_the_death: bool)"),
        "{}",
        diffs[0].ours
    );
    let deployed = diffs[0].deployed.as_deref().unwrap();
    assert!(deployed.ends_with("to_the_death: u8)"), "{deployed}");
    let gate = check.gate("loot-survivor-mcp check --profile p");
    assert_eq!(gate.refused_count(), 1);
    let attack = bindings::v2::game_core::attack(Felt::from(0x6a_u8), &Felt::ONE, &true);
    let refused = gate.check_calls(std::slice::from_ref(&attack)).unwrap_err();
    match refused {
        ChainError::AbiMismatch(r) => {
            assert_eq!(
                (r.contract.as_str(), r.entrypoint.as_str()),
                ("game_core", "attack")
            );
            assert_eq!(r.check, "loot-survivor-mcp check --profile p");
        }
        other => panic!("{other:?}"),
    }
    // The same entrypoint on another contract, and GameCore's other writes, pass.
    let elsewhere = starknet::core::types::Call {
        to: Felt::from(0x70_u8),
        ..attack
    };
    let explore = bindings::v2::game_core::explore(Felt::from(0x6a_u8), &Felt::ONE, &false);
    assert!(gate.check_calls(&[elsewhere, explore]).is_ok());
    let section = check.section();
    assert_eq!(section.checks[0].status, Status::Mismatch);
    assert!(
        section.checks[0]
            .detail
            .starts_with("1 of 10 entrypoints differ (attack)")
    );
}

#[tokio::test]
async fn a_kept_class_is_not_fetched_again_until_its_hash_changes() {
    let dir = tempfile::tempdir().unwrap();
    let source = classes(practice_abi("practice_v2-game"), 1);
    let first = check_abi(&source, &deployment(), Some(dir.path())).await;
    assert_eq!(first.classes_fetched, 4);
    let second = check_abi(&source, &deployment(), Some(dir.path())).await;
    assert_eq!(second.classes_fetched, 0);
    assert!(second.contracts.iter().all(|c| c.cached));
    assert_eq!(*source.fetched.lock().unwrap(), 4);
    // GameCore is upgraded to a class with another hash: that one is fetched, and compared.
    let changed = classes(attack_takes_u8(), 9);
    let third = check_abi(&changed, &deployment(), Some(dir.path())).await;
    assert_eq!(third.classes_fetched, 1);
    assert_eq!(third.differences().count(), 1);
    let upgraded = changed.hash_of(Felt::from(0x6a_u8)).unwrap();
    assert!(cache::path(dir.path(), upgraded).exists());
}

#[tokio::test]
async fn the_node_section_compares_the_chain_id() {
    let source = Classes::default();
    let ok = node_section(&source, Felt::from_bytes_be_slice(b"SN_SEPOLIA")).await;
    assert_eq!(ok.checks[0].status, Status::Ok);
    assert_eq!(ok.checks[0].detail, "SN_SEPOLIA");
    let other = node_section(&source, Felt::from_bytes_be_slice(b"SN_MAIN")).await;
    assert_eq!(other.checks[0].status, Status::Mismatch);
    assert!(other.checks[0].detail.contains("expects SN_MAIN"));
}

#[tokio::test]
async fn missing_and_unanswered_contracts_are_reported_as_such() {
    let mut source = classes(practice_abi("practice_v2-game"), 1);
    source.at.remove(&Felt::from(0xf0_u8));
    let check = check_abi(&source, &deployment(), None).await;
    let vrf = check
        .contracts
        .iter()
        .find(|c| c.role == "vrf_provider")
        .unwrap();
    assert_eq!(vrf.outcome, Outcome::NotDeployed);
    assert_eq!(check.section().checks[3].status, Status::Mismatch);
}

/// A node that does not answer.
struct Silent(Mutex<usize>);

#[async_trait::async_trait]
impl ClassSource for Silent {
    async fn class_hash_at(&self, _: Felt) -> Result<Felt, ClassError> {
        *self.0.lock().unwrap() += 1;
        Err(ClassError::Unreachable("RPC error: timed out".into()))
    }

    async fn class_at(&self, _: Felt) -> Result<ContractClass, ClassError> {
        unreachable!("no class hash was read")
    }

    async fn chain_id(&self) -> Result<Felt, ClassError> {
        Err(ClassError::Unreachable("RPC error: timed out".into()))
    }

    async fn call(&self, _: Felt, _: Felt, _: Vec<Felt>) -> Result<Vec<Felt>, ClassError> {
        unreachable!("no class was read")
    }
}

#[tokio::test]
async fn a_silent_node_is_asked_once_and_every_contract_reported_unreachable() {
    let silent = Silent(Mutex::new(0));
    let check = check_abi(&silent, &deployment(), None).await;
    assert_eq!(*silent.0.lock().unwrap(), 1);
    let section = check.section();
    assert!(
        section
            .checks
            .iter()
            .all(|c| c.status == Status::Unreachable)
    );
    assert_eq!(section.checks[1].detail, "not asked: RPC error: timed out");
    assert_eq!(
        check.generation_section(&deployment()).checks[0].status,
        Status::Skipped
    );
    // Nothing was read, so nothing is refused as different, and every write waits for a check.
    let gate = check.gate("x");
    assert_eq!(gate.refused_count(), 0);
    assert_eq!(gate.unchecked().count(), 4);
    let explore = bindings::v2::game_core::explore(Felt::from(0x6a_u8), &Felt::ONE, &false);
    match gate.check_calls(&[explore]) {
        Err(ChainError::AbiUnchecked(u)) => {
            assert_eq!(u.contract, "game_core");
            assert!(u.why.contains("timed out"), "{}", u.why);
        }
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn denshokan_is_asked_for_ierc721_only_where_its_class_has_src5() {
    let plain = classes(practice_abi("practice_v2-game"), 1);
    let check = check_abi(&plain, &deployment(), None).await;
    assert_eq!(check.erc721, Some(probe::Src5::Absent));
    assert!(plain.calls.lock().unwrap().is_empty());
    let section = check.generation_section(&deployment());
    let names: Vec<(&str, Status)> = section
        .checks
        .iter()
        .map(|c| (c.name.as_str(), c.status))
        .collect();
    // The practice GameCore has no SRC5 either.
    assert_eq!(
        names[1..],
        [
            ("game address 0x6a SRC5", Status::Skipped),
            ("denshokan 0xde SRC5", Status::Skipped)
        ]
    );

    for supports in [true, false] {
        let mut src5 = classes(practice_abi("practice_v2-game"), 1);
        src5.erc721 = supports;
        let denshokan = src5.at.get_mut(&Felt::from(0xde_u8)).unwrap();
        denshokan.1.as_array_mut().unwrap().push(serde_json::json!({
            "type": "function", "name": "supports_interface",
            "inputs": [{"name": "interface_id", "type": "core::felt252"}],
            "outputs": [{"type": "core::bool"}], "state_mutability": "view"
        }));
        let check = check_abi(&src5, &deployment(), None).await;
        assert_eq!(check.erc721, Some(probe::Src5::Supports(supports)));
        let selector = starknet::macros::selector!("supports_interface");
        let asked = vec![(Felt::from(0xde_u8), selector, vec![probe::IERC721_ID])];
        assert_eq!(*src5.calls.lock().unwrap(), asked);
        let status = check.generation_section(&deployment()).checks[2].status;
        assert_eq!(
            status,
            if supports {
                Status::Ok
            } else {
                Status::Mismatch
            }
        );
    }
}

#[tokio::test]
async fn a_legacy_class_where_sierra_is_bound_is_kept_a_mismatch_and_its_writes_refused() {
    let dir = tempfile::tempdir().unwrap();
    let mut source = classes(practice_abi("practice_v2-game"), 1);
    source
        .at
        .insert(Felt::from(0xf0_u8), (Felt::from(4u8), Value::Null));
    for fetched in [4, 0] {
        let check = check_abi(&source, &deployment(), Some(dir.path())).await;
        assert_eq!(check.classes_fetched, fetched);
        let vrf = check.section().checks[3].clone();
        assert_eq!(vrf.status, Status::Mismatch);
        assert!(
            vrf.detail.contains("a legacy (Cairo 0) class"),
            "{}",
            vrf.detail
        );
        assert_eq!(check.gate("x").refused_count(), 1);
    }
}

/// A check of GameCore's class with `abi` in place of its ABI: the section's first check, and the
/// gate's refusal of `explore`.
async fn with_game_abi(source: &Classes, dir: &Path) -> (Check, Result<(), ChainError>) {
    let check = check_abi(source, &deployment(), Some(dir)).await;
    let explore = starknet::core::types::Call {
        to: Felt::from(0x6a_u8),
        selector: starknet::macros::selector!("explore"),
        calldata: vec![],
    };
    let gate = check.gate("loot-survivor-mcp check");
    (
        check.section().checks[0].clone(),
        gate.check_calls(&[explore]),
    )
}

#[tokio::test]
async fn an_abi_that_does_not_parse_or_a_class_not_of_its_hash_is_a_mismatch_never_kept() {
    // Sierra classes whose ABI is JSON but not an ABI (an object, a string).
    for abi in [serde_json::json!({}), serde_json::json!("[]")] {
        let dir = tempfile::tempdir().unwrap();
        let mut source = classes(practice_abi("practice_v2-game"), 1);
        source.at.get_mut(&Felt::from(0x6a_u8)).unwrap().1 = abi;
        let (game, refused) = with_game_abi(&source, dir.path()).await;
        assert_eq!(game.status, Status::Mismatch);
        assert!(
            game.detail.contains("the ABI is not a JSON array"),
            "{}",
            game.detail
        );
        assert!(
            matches!(refused, Err(ChainError::AbiMismatch(_))),
            "{refused:?}"
        );
        let hash = source.hash_of(Felt::from(0x6a_u8)).unwrap();
        assert!(!cache::path(dir.path(), hash).exists());
    }
    let dir = tempfile::tempdir().unwrap();
    let mut lying = classes(practice_abi("practice_v2-game"), 1);
    lying.lies = true;
    let (game, refused) = with_game_abi(&lying, dir.path()).await;
    assert_eq!(game.status, Status::Mismatch);
    assert!(
        game.detail.contains("not to the class hash it gave"),
        "{}",
        game.detail
    );
    assert!(matches!(refused, Err(ChainError::AbiMismatch(_))));
    assert_eq!(std::fs::read_dir(dir.path()).map_or(0, |d| d.count()), 0);
}

#[tokio::test]
async fn a_read_that_differs_is_reported_and_refused_before_its_answer_is_read() {
    let mut game = practice_abi("practice_v2-game");
    fn reanswer(v: &mut Value) {
        match v {
            Value::Array(items) => items.iter_mut().for_each(reanswer),
            Value::Object(o) if o.get("name") == Some(&Value::from("load_assets")) => {
                o["outputs"] = serde_json::json!([{"type": "core::felt252"}]);
            }
            Value::Object(o) => o.values_mut().for_each(reanswer),
            _ => {}
        }
    }
    reanswer(&mut game);
    let check = check_abi(&classes(game, 1), &deployment(), None).await;
    let diffs: Vec<_> = check.differences().collect();
    assert_eq!(diffs.len(), 1, "{diffs:?}");
    assert_eq!(
        (diffs[0].entrypoint.as_str(), diffs[0].write),
        ("load_assets", false)
    );
    assert!(
        diffs[0]
            .deployed
            .as_deref()
            .unwrap()
            .ends_with("-> felt252")
    );
    let gate = check.gate("x");
    let load = bindings::v2::game_core::load_assets(Felt::from(0x6a_u8), &Felt::ONE);
    match gate.check_call(&load) {
        Err(e @ ChainError::AbiMismatch(_)) => {
            assert!(
                e.to_string()
                    .starts_with("not read: game_core's load_assets"),
                "{e}"
            )
        }
        other => panic!("{other:?}"),
    }
    // Writes are not held by a read's difference.
    let explore = bindings::v2::game_core::explore(Felt::from(0x6a_u8), &Felt::ONE, &false);
    assert!(gate.check_calls(&[explore]).is_ok());
}

#[test]
fn a_class_whose_abi_the_node_sent_compact_is_still_the_class_its_hash_names() {
    let abi = practice_abi("practice_v2-vrf");
    let entries: Vec<AbiEntry> = serde_json::from_value(abi.clone()).unwrap();
    let declared = FlattenedSierraClass {
        abi: serde_json_pythonic::to_string_pythonic(&entries).unwrap(),
        ..sierra(Felt::ONE, &abi)
    };
    let hash = declared.class_hash();
    let compact = sierra(Felt::ONE, &abi);
    assert_ne!(
        compact.abi, declared.abi,
        "the stand-in sends the ABI compact"
    );
    assert!(is_its_class(&compact, hash).is_ok());
    assert!(is_its_class(&declared, hash).is_ok());
    // Another program under the same ABI is not that class, however its ABI is written.
    let other = sierra(Felt::TWO, &abi);
    assert!(matches!(
        is_its_class(&other, hash),
        Err(ClassError::NotItsHash { .. })
    ));
}
