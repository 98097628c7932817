//! The conclusion over examined actions and its one-line summary.

use super::*;

fn finding(tx: u8, verdict: Verdict) -> Finding {
    Finding {
        tx_hash: Felt::from(tx),
        block_number: Some(7),
        action: "explore",
        adventurer_id: None,
        settings_id: None,
        route: Route::Direct,
        player: Felt::TWO,
        request: None,
        verdict,
    }
}

fn nonce() -> Verdict {
    Verdict::Nonce {
        consumer: Felt::ONE,
        consumer_is_game: true,
        address: Felt::TWO,
        address_is_player: true,
        seed: classify::SeedCheck::NotSent,
    }
}

#[test]
fn findings_conclude_only_when_they_agree() {
    assert_eq!(conclude(&[]), Conclusion::NoActions);
    let agree = [finding(1, nonce()), finding(2, nonce())];
    assert_eq!(
        conclude(&agree),
        Conclusion::Found {
            source: "nonce",
            consumer: Some(Felt::ONE),
            tx_hash: Felt::ONE
        }
    );
    let mixed = [finding(1, nonce()), finding(2, Verdict::NoRequest)];
    assert_eq!(
        conclude(&mixed),
        Conclusion::Conflicting {
            sources: vec![("nonce", Felt::ONE), ("off", Felt::TWO)]
        }
    );
    let unexplained = Verdict::NoMatch {
        consumer: Felt::ONE,
        salt: Felt::THREE,
        prior: None,
        candidates: vec![],
        seed: classify::SeedCheck::NotSent,
    };
    assert_eq!(
        conclude(&[finding(3, unexplained)]),
        Conclusion::NoMatch {
            tx_hash: Felt::THREE
        }
    );
}

#[test]
fn a_rule_keeps_its_consumer_and_differing_consumers_conflict() {
    let by = |tx: u8, consumer: u8| {
        let mut f = finding(tx, nonce());
        if let Verdict::Nonce {
            consumer: c,
            consumer_is_game,
            ..
        } = &mut f.verdict
        {
            *c = Felt::from(consumer);
            *consumer_is_game = consumer == 1;
        }
        f
    };
    assert_eq!(
        conclude(&[by(1, 0x5b), by(2, 0x5b)]),
        Conclusion::Found {
            source: "nonce",
            consumer: Some(Felt::from(0x5b_u8)),
            tx_hash: Felt::ONE
        }
    );
    assert!(matches!(
        conclude(&[by(1, 0x5b), by(2, 1)]),
        Conclusion::Conflicting { .. }
    ));
}

#[test]
fn only_the_wanted_settings_count_and_a_plain_id_counts_for_any() {
    let mut one = finding(1, nonce());
    one.settings_id = Some(1);
    let mut two = finding(2, Verdict::NoRequest);
    two.settings_id = Some(2);
    let plain = finding(3, nonce());
    assert!(wanted(Some(1), &one) && !wanted(Some(1), &two) && wanted(Some(1), &plain));
    assert!(wanted(None, &two));
    let opts = DetectOptions {
        max_actions: 1,
        settings_id: Some(1),
        ..DetectOptions::default()
    };
    assert!(!enough(std::slice::from_ref(&two), &opts));
    assert!(enough(&[two.clone(), one.clone()], &opts));
    assert!(enough(&[two.clone(), two.clone(), two.clone(), two], &opts));
}

#[test]
fn the_summary_says_why_nothing_settles() {
    let report = |verdict| {
        let findings = vec![finding(9, verdict)];
        VrfRuleReport {
            game_core: Felt::ONE,
            chain_id: Felt::TWO,
            blocks: (10, 20),
            transactions_seen: 4,
            settings_id: None,
            other_settings: vec![],
            conclusion: conclude(&findings),
            findings,
            skipped: vec![],
        }
    };
    let elsewhere = Verdict::Nonce {
        consumer: Felt::ONE,
        consumer_is_game: true,
        address: Felt::TWO,
        address_is_player: false,
        seed: classify::SeedCheck::NotSent,
    };
    assert_eq!(
        report(elsewhere).summary(),
        "VRF rule: no match: tx 0x9's request_random fits no known rule (a nonce of 0x2 for 0x1, \
         not the player's; the report has the evidence)"
    );
    let stateless = Verdict::NoMatch {
        consumer: Felt::ONE,
        salt: Felt::THREE,
        prior: None,
        candidates: vec![],
        seed: classify::SeedCheck::NotSent,
    };
    assert!(
        report(stateless)
            .summary()
            .contains("no adventurer state before it")
    );
    let r = report(nonce());
    assert_eq!(r.source(), Some(VrfSource::Nonce));
    assert_eq!(
        r.summary(),
        "VRF rule: nonce (from tx 0x9; 1 action(s) examined in blocks 10-20)"
    );
}
