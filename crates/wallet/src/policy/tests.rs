//! Tests of `policy`.

use super::*;
use std::time::Duration;

const GAME: Felt = Felt::from_hex_unchecked("0x6f7c");
const TOKEN: Felt = Felt::from_hex_unchecked("0x5e2d");
const STRK: u128 = super::super::policy_settings::FRI_PER_STRK;

fn explore() -> Felt {
    starknet::macros::selector!("explore")
}

fn mint() -> Felt {
    starknet::macros::selector!("mint_game")
}

fn settings() -> PolicySettings {
    PolicySettings {
        read_only: false,
        max_fee_per_tx: STRK,
        session_fee_budget: 3 * STRK,
        daily_fee_budget: 10 * STRK,
        max_tx_per_minute: 3,
        allow_vrf: None,
    }
}

fn guard(s: &PolicySettings, vrf: bool) -> PolicyGuard {
    PolicyGuard::new(s, vrf, [(GAME, explore()), (TOKEN, mint())])
}

fn call(to: Felt, selector: Felt) -> Call {
    Call {
        to,
        selector,
        calldata: vec![Felt::ONE],
    }
}

fn vrf_call() -> Call {
    Call {
        to: CARTRIDGE_VRF_PROVIDER,
        selector: REQUEST_RANDOM_SELECTOR,
        calldata: vec![GAME, Felt::ONE, Felt::from(0x5a17u32)],
    }
}

#[test]
fn selector_constant_matches_the_reference() {
    assert_eq!(
        REQUEST_RANDOM_SELECTOR,
        Felt::from_hex("0x12a5a2e008479001f8f1a5f6c61ab6536d5ce46571fcdc0c9300dca0a9e532f")
            .unwrap()
    );
}

#[test]
fn allowed_calls_pass() {
    let g = guard(&settings(), false);
    g.check_calls(&[call(GAME, explore()), call(TOKEN, mint())])
        .unwrap();
}

#[test]
fn unknown_contract_is_denied() {
    let g = guard(&settings(), false);
    let e = g
        .check_calls(&[call(GAME, explore()), call(Felt::from(0xbadu32), explore())])
        .unwrap_err();
    assert_eq!(e.rule, "allowed_calls");
    assert!(e.message.contains("0xbad"), "{e}");
    assert_eq!(e.setting, "chain.contracts / chain.manifest");
}

#[test]
fn unknown_selector_on_a_game_contract_is_denied() {
    let g = guard(&settings(), false);
    let transfer = starknet::macros::selector!("transfer");
    let e = g.check_calls(&[call(GAME, transfer)]).unwrap_err();
    assert_eq!(e.rule, "allowed_calls");
    assert!(e.message.contains(&format!("{transfer:#x}")), "{e}");
    // An allowed selector on the wrong contract is refused too.
    assert!(g.check_calls(&[call(TOKEN, explore())]).is_err());
}

#[test]
fn empty_multicall_is_denied() {
    assert_eq!(
        guard(&settings(), false).check_calls(&[]).unwrap_err().rule,
        "allowed_calls"
    );
}

#[test]
fn only_exact_vrf_bundles_are_signed() {
    let g = guard(&settings(), true);
    let game = call(GAME, explore());
    g.check_calls(&[vrf_call(), game.clone()]).unwrap();
    for bad in [
        vec![vrf_call()],
        vec![game.clone(), vrf_call()],
        vec![vrf_call(), vrf_call(), game.clone()],
        vec![
            Call {
                calldata: vec![Felt::from(0xbadu32), Felt::ONE, Felt::from(7)],
                ..vrf_call()
            },
            game.clone(),
        ],
        vec![
            Call {
                calldata: vec![GAME, Felt::ZERO, Felt::from(7)],
                ..vrf_call()
            },
            game.clone(),
        ],
    ] {
        let e = g.check_calls(&bad).unwrap_err();
        assert_eq!(e.rule, "allow_vrf", "{bad:?}");
    }
}

#[test]
fn vrf_is_allowed_only_when_enabled() {
    let calls = [vrf_call(), call(GAME, explore())];
    let off = guard(&settings(), false);
    let e = off.check_calls(&calls).unwrap_err();
    assert_eq!((e.rule, e.setting), ("allow_vrf", "policy.allow_vrf"));
    guard(&settings(), true).check_calls(&calls).unwrap();
    // Only request_random on the provider, nothing else there.
    let other = call(
        CARTRIDGE_VRF_PROVIDER,
        starknet::macros::selector!("submit_random"),
    );
    let e = guard(&settings(), true).check_calls(&[other]).unwrap_err();
    assert_eq!(e.rule, "allowed_calls");
}

#[test]
fn a_configured_vrf_accepts_exactly_its_provider_and_form() {
    let provider = Felt::from_hex_unchecked("0xf00");
    let account = Felt::from_hex_unchecked("0xacc");
    let request = |to: Felt, calldata: Vec<Felt>| Call {
        to,
        selector: REQUEST_RANDOM_SELECTOR,
        calldata,
    };
    let nonce = request(provider, vec![GAME, Felt::ZERO, account]);
    let salt = request(provider, vec![GAME, Felt::ONE, Felt::from(9u8)]);
    let g = guard(&settings(), true).with_vrf(provider, VrfForm::Nonce(account), None);
    g.check_calls(&[nonce.clone(), call(GAME, explore())])
        .unwrap();
    let e = g
        .check_calls(&[salt.clone(), call(GAME, explore())])
        .unwrap_err();
    assert_eq!(
        e.message,
        "request_random must ask for Source::Nonce of the signing account on behalf of a game contract"
    );
    let other_account = request(provider, vec![GAME, Felt::ZERO, Felt::from(1u8)]);
    assert_eq!(
        g.check_calls(&[other_account, call(GAME, explore())])
            .unwrap_err()
            .rule,
        "allow_vrf"
    );
    let e = g
        .check_calls(&[vrf_call(), call(GAME, explore())])
        .unwrap_err();
    assert_eq!(
        e.rule, "allowed_calls",
        "Cartridge's provider is not this profile's"
    );
    let s = guard(&settings(), true).with_vrf(provider, VrfForm::Salt, None);
    s.check_calls(&[salt, call(GAME, explore())]).unwrap();
    assert_eq!(
        s.check_calls(&[nonce.clone(), call(GAME, explore())])
            .unwrap_err()
            .message,
        "request_random must ask for Source::Salt on behalf of a game contract"
    );
    let off = guard(&settings(), false).with_vrf(provider, VrfForm::Salt, None);
    let e = off
        .check_calls(&[nonce, call(GAME, explore())])
        .unwrap_err();
    assert_eq!((e.rule, e.setting), ("allow_vrf", "policy.allow_vrf"));
}

#[test]
fn a_named_vrf_consumer_is_the_only_caller_a_request_may_name() {
    let provider = Felt::from_hex_unchecked("0xf00");
    let subsystem = Felt::from_hex_unchecked("0x5b5");
    let salt = |caller: Felt| Call {
        to: provider,
        selector: REQUEST_RANDOM_SELECTOR,
        calldata: vec![caller, Felt::ONE, Felt::from(9u8)],
    };
    let g = guard(&settings(), true).with_vrf(provider, VrfForm::Salt, Some(subsystem));
    g.check_calls(&[salt(subsystem), call(GAME, explore())])
        .unwrap();
    let e = g
        .check_calls(&[salt(GAME), call(GAME, explore())])
        .unwrap_err();
    assert_eq!(
        e.message,
        "request_random must ask for Source::Salt on behalf of the deployment's VRF consumer 0x5b5"
    );
}

#[test]
fn per_transaction_fee_cap() {
    let g = guard(&settings(), false);
    g.check_fee(STRK).unwrap();
    let e = g.check_fee(STRK + 1).unwrap_err();
    assert_eq!(
        (e.rule, e.setting),
        ("max_fee_per_tx", "policy.max_fee_per_tx")
    );
    assert!(e.message.contains("1.000000000000000001 STRK"), "{e}");
}

#[test]
fn budget_is_exhausted_across_transactions() {
    let g = guard(&settings(), false);
    let t = SystemTime::now();
    for i in 0..2u8 {
        g.check_fee(STRK).unwrap();
        g.record_sent(Felt::from(i), STRK, t);
    }
    g.check_fee(STRK).unwrap();
    // Recorded at its bound, then corrected to what it paid.
    g.record_sent(Felt::from(2u8), STRK, t);
    g.record_sent(Felt::from(2u8), STRK / 2, t);
    let e = g.check_fee(STRK).unwrap_err();
    assert_eq!(
        (e.rule, e.setting),
        ("session_fee_budget", "policy.session_fee_budget")
    );
    assert!(e.message.contains("0.5 STRK"), "{e}");
    g.check_fee(STRK / 2).unwrap();
    g.record_sent(Felt::from(3u8), STRK, t);
    assert_eq!(g.check_fee(1).unwrap_err().rule, "session_fee_budget");
    let snap = g.snapshot_at(t);
    assert_eq!(snap.remaining_budget.fri, "0");
    assert_eq!(snap.spent.strk, "3.5");
    assert_eq!(snap.tx_count, 4);
}

#[test]
fn rate_window_slides() {
    let g = guard(&settings(), false);
    let t0 = SystemTime::now();
    for i in 0..3 {
        g.check_rate(t0 + Duration::from_secs(i * 10)).unwrap();
        g.record_sent(Felt::from(i), 0, t0 + Duration::from_secs(i * 10));
    }
    let e = g.check_rate(t0 + Duration::from_secs(30)).unwrap_err();
    assert_eq!(
        (e.rule, e.setting),
        ("max_tx_per_minute", "policy.max_tx_per_minute")
    );
    assert!(e.message.contains("retry in 30.0 s"), "{e}");
    // The first send leaves the window at t0 + 60 s; the second at t0 + 70 s.
    assert!(g.check_rate(t0 + Duration::from_millis(59_999)).is_err());
    g.check_rate(t0 + Duration::from_secs(60)).unwrap();
    g.record_sent(Felt::from(9u8), 0, t0 + Duration::from_secs(60));
    assert!(g.check_rate(t0 + Duration::from_secs(65)).is_err());
    g.check_rate(t0 + Duration::from_secs(70)).unwrap();
    assert_eq!(
        g.snapshot_at(t0 + Duration::from_secs(70)).tx_last_minute,
        2
    );
}

#[test]
fn the_daily_budget_counts_every_run_of_the_day() {
    let mut s = settings();
    s.session_fee_budget = 100 * STRK;
    s.daily_fee_budget = 2 * STRK;
    let log: Arc<dyn SpendingLog> = Arc::new(MemorySpending::default());
    let g = guard(&s, false).with_log(log.clone());
    g.record_sent(Felt::ONE, STRK + STRK / 2, SystemTime::now());
    // A second guard over the same log (a restarted server) sees the day's spending.
    let again = guard(&s, false).with_log(log);
    let e = again.check_fee(STRK).unwrap_err();
    assert_eq!(
        (e.rule, e.setting),
        ("daily_fee_budget", "policy.daily_fee_budget")
    );
    assert!(e.message.contains("0.5 STRK"), "{e}");
    let snap = again.snapshot();
    assert_eq!(snap.spent_today.strk, "1.5");
    assert_eq!(snap.remaining_budget.strk, "0.5");
}

#[test]
fn a_batch_needs_room_for_all_its_transactions() {
    let g = guard(&settings(), false);
    let t = SystemTime::now();
    g.check_batch(2, 2 * STRK, t).unwrap();
    g.record_sent(Felt::ONE, STRK + STRK / 2, t);
    // Budget: 1.5 STRK left, 2 STRK reserved for mint + start.
    assert_eq!(
        g.check_batch(2, 2 * STRK, t).unwrap_err().rule,
        "session_fee_budget"
    );
    g.check_batch(2, STRK, t).unwrap();
    // Rate: 3 a minute, 1 sent: 2 more fit, 3 do not.
    let e = g.check_batch(3, 0, t).unwrap_err();
    assert_eq!(e.rule, "max_tx_per_minute");
    assert!(e.message.contains("3 are needed"), "{e}");
    g.record_sent(Felt::TWO, 0, t);
    assert_eq!(
        g.check_batch(2, 0, t).unwrap_err().rule,
        "max_tx_per_minute"
    );
    g.check_rate(t).unwrap();
}

#[test]
fn read_only_refuses_every_write() {
    let mut s = settings();
    s.read_only = true;
    let g = guard(&s, true);
    for e in [
        g.check_calls(&[call(GAME, explore())]).unwrap_err(),
        g.check_fee(0).unwrap_err(),
        g.check_rate(SystemTime::now()).unwrap_err(),
    ] {
        assert_eq!((e.rule, e.setting), ("read_only", "policy.read_only"));
    }
    assert!(g.snapshot().read_only);
}

#[test]
fn snapshot_reports_limits_and_spending() {
    let g = guard(&settings(), true);
    g.record_sent(Felt::ONE, 250_000_000_000_000_000, SystemTime::now());
    let snap = g.snapshot();
    assert_eq!(snap.max_fee_per_tx.strk, "1");
    assert_eq!(snap.session_fee_budget.fri, (3 * STRK).to_string());
    assert_eq!(snap.spent.strk, "0.25");
    assert_eq!(snap.remaining_budget.strk, "2.75");
    assert_eq!((snap.tx_count, snap.tx_last_minute), (1, 1));
    assert_eq!(snap.allowed_entrypoints, 3);
    let json = serde_json::to_value(&snap).unwrap();
    assert_eq!(json["spent"]["fri"], "250000000000000000");
    let schema = serde_json::to_string(&schemars::schema_for!(PolicySnapshot)).unwrap();
    assert!(schema.contains("remaining_budget"), "{schema}");
}

#[test]
fn denial_display_names_rule_and_setting() {
    let e = guard(&settings(), false).check_fee(10 * STRK).unwrap_err();
    let text = e.to_string();
    assert!(text.starts_with("policy denied (max_fee_per_tx)"), "{text}");
    assert!(
        text.ends_with("controlled by policy.max_fee_per_tx"),
        "{text}"
    );
    let _: &dyn std::error::Error = &e;
}

#[test]
fn the_guard_is_shareable_across_threads() {
    fn assert_sync<T: Send + Sync>() {}
    assert_sync::<PolicyGuard>();
    let g = std::sync::Arc::new(guard(&settings(), false));
    let t = SystemTime::now();
    std::thread::scope(|s| {
        for i in 0..4u8 {
            let g = g.clone();
            s.spawn(move || g.record_sent(Felt::from(i), 1, t));
        }
    });
    assert_eq!(g.snapshot_at(t).tx_count, 4);
}

#[test]
fn debug_output_has_no_secrets() {
    let dbg = format!("{:?}", guard(&settings(), true));
    assert!(dbg.contains("PolicyGuard"), "{dbg}");
    assert!(!dbg.to_lowercase().contains("private"), "{dbg}");
}
