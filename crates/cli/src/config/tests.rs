//! Settings: layering, profiles, validation and the errors that name what is wrong.

use super::*;

/// The settings of `profile` (the default when `None`) with `env` as the environment.
pub(crate) fn load(profile: Option<&str>, env: &[(&str, &str)]) -> Result<Settings, ConfigError> {
    Settings::load(&LoadOptions {
        profile: profile.map(String::from),
        env: env
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
        ..LoadOptions::default()
    })
}

#[test]
fn devnet_profile_loads_without_edits() {
    let s = load(Some("devnet"), &[]).unwrap();
    assert_eq!(s.profile, "devnet");
    assert_eq!(s.chain.rpc_url.as_str(), "http://127.0.0.1:5050/");
    assert!(s.wallet.account_address.is_some());
    assert!(s.manifest_path().unwrap().ends_with("devnet/manifest.json"));
}

#[test]
fn sim_is_the_default_and_needs_no_key_manifest_or_rpc() {
    let s = load(None, &[]).unwrap();
    assert_eq!(s.profile, "sim");
    assert!(s.is_sim());
    assert!(s.chain.manifest.is_none() && s.chain.contracts.is_empty());
    assert!(s.wallet.account_address.is_none());
    let e = s.sim.engine_settings();
    assert_eq!((e.base_damage_reduction, e.market_size), (25, 25));
    assert_eq!(e.rules, game::engine::Ruleset::FULL);
    let p = load(
        Some("sim"),
        &[
            ("LS_SIM__RULES", "practice_world"),
            ("LS_SIM__FIRST_ADVENTURER_ID", "500"),
        ],
    )
    .unwrap();
    assert_eq!(p.sim.first_adventurer_id, 500);
    assert_eq!(
        p.sim.engine_settings().rules,
        game::engine::Ruleset::PRACTICE_WORLD
    );
    let bad = load(Some("sim"), &[("LS_SIM__MARKET_SIZE", "40")]).unwrap_err();
    assert!(bad.to_string().contains("market_size"), "{bad}");
    let bad = load(Some("sim"), &[("LS_SIM__SEEDS", "4")]).unwrap_err();
    assert!(bad.to_string().contains("seeds"), "{bad}");
    assert_eq!(
        s.sim.randomness(),
        sim::SimRandomness::Os,
        "hidden by default"
    );
    assert!(s.sim.persist && !s.sim.fresh);
    let d = load(
        Some("sim"),
        &[("LS_SIM__DETERMINISTIC", "true"), ("LS_SIM__SEED", "42")],
    )
    .unwrap();
    assert_eq!(d.sim.randomness(), sim::SimRandomness::Deterministic);
    let m = load(Some("sim"), &[("LS_SIM__SEED", "42")]).unwrap();
    assert_eq!(m.sim.randomness(), sim::SimRandomness::Master(42));
}

#[test]
fn every_profile_loads() {
    for (name, _) in PROFILES {
        let s = load(Some(name), &[]).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(s.profile, *name);
    }
}

#[test]
fn mainnet_v1_has_reference_addresses_and_vrf() {
    let s = load(Some("mainnet-v1"), &[]).unwrap();
    assert!(s.chain.vrf);
    assert_eq!(
        parse_felt(&s.chain.contracts["game_systems"]).unwrap(),
        Felt::from_hex("0x6f7c4350d6d5ee926b3ac4fa0c9c351055456e75c92227468d84232fc493a9c")
            .unwrap()
    );
    assert_eq!(
        s.expected_chain_id().unwrap(),
        starknet::core::chain_id::MAINNET
    );
}

#[test]
fn katana_deploys_through_the_legacy_udc_with_poseidon_hashes() {
    use deploy::target::{CasmHash, LEGACY_UDC, NEW_UDC};
    let k = load(Some("katana"), &[]).unwrap();
    let t = k.deploy_target().unwrap();
    assert_eq!((t.udc, t.casm_hash), (LEGACY_UDC, CasmHash::Poseidon));
    let d = load(Some("devnet"), &[]).unwrap().deploy_target().unwrap();
    assert_eq!((d.udc, d.casm_hash), (NEW_UDC, CasmHash::Blake2s));
    let o = load(Some("katana"), &[("LS_CHAIN__CASM_HASH", "blake2s")]).unwrap();
    assert_eq!(o.deploy_target().unwrap().casm_hash, CasmHash::Blake2s);
    let e = load(Some("katana"), &[("LS_CHAIN__CASM_HASH", "sha256")]).unwrap_err();
    assert!(e.to_string().contains("sha256"), "{e}");
    let e = load(Some("katana"), &[("LS_CHAIN__UDC", "0xnope")]).unwrap_err();
    assert!(e.to_string().contains("chain.udc"), "{e}");
}

#[test]
fn fee_tokens_list_strk_first_and_drop_empty_ones() {
    let strk = Felt::from_hex("0x04718f5a0fc34cc1af16a1cdee98ffb20c31f5cd61d6ab07201858f4287c938d")
        .unwrap();
    let k = load(Some("katana"), &[]).unwrap();
    let symbols: Vec<String> = k.fee_tokens().unwrap().into_iter().map(|t| t.0).collect();
    assert_eq!(symbols, ["STRK", "ETH"]);
    let rollup = load(
        Some("katana"),
        &[
            ("LS_CHAIN__FEE_TOKENS__ETH", ""),
            ("LS_CHAIN__FEE_TOKENS__LORDS", "0x124"),
        ],
    )
    .unwrap();
    assert_eq!(
        rollup.fee_tokens().unwrap(),
        vec![
            ("STRK".into(), strk),
            ("LORDS".into(), Felt::from(0x124u32))
        ]
    );
    let e = load(Some("katana"), &[("LS_CHAIN__FEE_TOKENS__ETH", "eth")]).unwrap_err();
    assert!(e.to_string().contains("chain.fee_tokens.eth"), "{e}");
}

#[test]
fn ls_chain_selects_the_profile_and_cli_wins() {
    assert_eq!(
        load(None, &[("LS_CHAIN", "katana")]).unwrap().profile,
        "katana"
    );
    assert_eq!(
        load(Some("devnet"), &[("LS_CHAIN", "katana")])
            .unwrap()
            .profile,
        "devnet"
    );
}

#[test]
fn unknown_profile_is_an_error() {
    let e = load(Some("moonnet"), &[]).unwrap_err();
    assert!(matches!(e, ConfigError::UnknownProfile(_)), "{e}");
}

#[test]
fn env_overrides_nested_keys_and_aliases() {
    let s = load(
        Some("devnet"),
        &[
            ("LS_TX__TIMEOUT_MS", "5000"),
            ("STARKNET_RPC_URL", "http://127.0.0.1:6000"),
            ("LS_SERVER__STRICT", "true"),
        ],
    )
    .unwrap();
    assert_eq!(s.tx.timeout_ms, 5000);
    assert_eq!(s.chain.rpc_url.port(), Some(6000));
    assert!(s.server.strict);
}

#[test]
fn the_advice_line_is_on_by_default_and_a_setting_turns_it_off() {
    assert!(load(Some("sim"), &[]).unwrap().server.advice);
    let off = load(Some("sim"), &[("LS_SERVER__ADVICE", "false")]).unwrap();
    assert!(!off.server.advice);
}

#[test]
fn unknown_keys_are_rejected() {
    let e = load(Some("devnet"), &[("LS_TX__TIMEOUT_SECONDS", "5")]).unwrap_err();
    assert!(e.to_string().contains("timeout_seconds"), "{e}");
}

#[test]
fn bad_values_are_rejected() {
    let e = load(Some("devnet"), &[("LS_TX__TIMEOUT_MS", "soon")]).unwrap_err();
    assert!(e.to_string().contains("timeout_ms"), "{e}");
    let e = load(Some("devnet"), &[("STARKNET_RPC_URL", "not a url")]).unwrap_err();
    assert!(e.to_string().contains("rpc_url"), "{e}");
    let e = load(Some("devnet"), &[("LS_ACCOUNT_ADDRESS", "0xZZ")]).unwrap_err();
    assert!(e.to_string().contains("account_address"), "{e}");
}

#[test]
fn dev_keys_are_refused_on_public_networks() {
    let e = load(Some("sepolia"), &[("LS_WALLET__DEV_PRIVATE_KEY", "0x1234")]).unwrap_err();
    assert!(e.to_string().contains("dev_private_key"), "{e}");
    assert!(!e.to_string().contains("0x1234"), "the key leaked: {e}");
}

#[test]
fn the_policy_guard_follows_chain_vrf_and_the_override() {
    let load = |profile: &str, env: &[(&str, &str)]| load(Some(profile), env).unwrap();
    let game = Felt::from_hex_unchecked("0x6f7c");
    let allowed = || [(game, starknet::macros::selector!("explore"))];
    assert!(
        load("mainnet", &[])
            .policy_guard(allowed())
            .snapshot()
            .vrf_allowed
    );
    assert!(
        !load("devnet", &[])
            .policy_guard(allowed())
            .snapshot()
            .vrf_allowed
    );
    let off = load("mainnet", &[("LS_POLICY__ALLOW_VRF", "false")]);
    assert!(!off.policy_guard(allowed()).snapshot().vrf_allowed);
}

#[test]
fn profiles_carry_policies_and_env_overrides_them() {
    let load = |profile: &str, env: &[(&str, &str)]| load(Some(profile), env);
    let devnet = load("devnet", &[]).unwrap().policy;
    assert_eq!(devnet.max_fee_per_tx, wallet::FRI_PER_STRK);
    assert!(!devnet.read_only && devnet.max_tx_per_minute >= 60);
    for (name, _) in PROFILES {
        let p = load(name, &[]).unwrap().policy;
        assert!(p.max_fee_per_tx <= devnet.max_fee_per_tx, "{name}");
        assert!(p.session_fee_budget <= devnet.session_fee_budget, "{name}");
    }
    let main = load("mainnet", &[]).unwrap().policy;
    assert!(main.max_fee_per_tx < devnet.max_fee_per_tx);
    assert!(main.max_tx_per_minute < devnet.max_tx_per_minute);

    let p = load(
        "mainnet",
        &[
            ("LS_POLICY__SESSION_FEE_BUDGET", "123"),
            ("LS_POLICY__READ_ONLY", "true"),
            ("LS_POLICY__MAX_TX_PER_MINUTE", "5"),
        ],
    )
    .unwrap()
    .policy;
    assert_eq!(p.session_fee_budget, 123);
    assert!(p.read_only);
    assert_eq!(p.max_tx_per_minute, 5);
    let e = load("devnet", &[("LS_POLICY__MAX_FEE_PER_TX", "0")]).unwrap_err();
    assert!(e.to_string().contains("policy.max_fee_per_tx"), "{e}");
    let e = load("devnet", &[("LS_POLICY__MAX_FEE_PER_TX", "lots")]).unwrap_err();
    assert!(e.to_string().contains("FRI"), "{e}");
}
