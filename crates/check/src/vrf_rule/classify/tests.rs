use super::*;
use crate::vrf_rule::calls::routed_calls;

/// V1's game_systems on mainnet, the consumer of the regression vector (reference: a real
/// mainnet explore, Nov 2025).
const V1_GAME: Felt =
    Felt::from_hex_unchecked("0x6f7c4350d6d5ee926b3ac4fa0c9c351055456e75c92227468d84232fc493a9c");
/// `poseidon([692, 0x15c1f])`, the explore's salt.
const V1_SALT: Felt =
    Felt::from_hex_unchecked("0x043a71862489cf1dc5cbe0fcb31197a85283426aeaf91c8aac8fc73a45833174");
/// The seed `submit_random` carried: `poseidon([salt, game_systems, 'SN_MAIN'])`.
const V1_SEED: Felt =
    Felt::from_hex_unchecked("0x063275168425ac2fb3b20e2b88086796ffbbf3021aed8813c3ac383e812fb895");
/// `'SN_MAIN'`.
const SN_MAIN: Felt = Felt::from_hex_unchecked("0x534e5f4d41494e");
const PROVIDER: Felt =
    Felt::from_hex_unchecked("0x051fea4450da9d6aee758bdeba88b2f665bcbf549d2c61421aa724e9ac0ced8f");

fn v1_prior() -> PriorState {
    PriorState {
        adventurer_id: AdventurerId::from(0x15c1f_u64),
        xp: 692,
        health: 100,
        beast_health: 0,
        actions: 300,
    }
}

fn request(calldata: Vec<Felt>) -> VrfRequest {
    VrfRequest::read(&RoutedCall {
        to: PROVIDER,
        selector: wallet::REQUEST_RANDOM_SELECTOR,
        calldata,
        route: Route::Direct,
    })
    .unwrap()
}

fn cx(game: Felt, seed: Option<Felt>, prior: Option<&PriorState>) -> Context<'_> {
    Context {
        game,
        player: Felt::from(0xacc_u16),
        chain_id: SN_MAIN,
        submitted_seed: seed,
        nonces: None,
        prior,
    }
}

#[test]
fn the_v1_mainnet_explore_is_v1s_explore_salt_with_its_seed_verified() {
    let r = request(vec![V1_GAME, Felt::ONE, V1_SALT]);
    assert_eq!(r.source, RequestedSource::Salt { salt: V1_SALT });
    let prior = v1_prior();
    let v = classify(
        Some(&r),
        cx(V1_GAME, Some(V1_SEED), Some(&prior)),
        &Recipe::KNOWN,
    );
    let Verdict::Salt {
        matched,
        source,
        seed,
        consumer_is_game,
        ..
    } = &v
    else {
        panic!("{v:?}")
    };
    assert_eq!(matched.recipe, "v1_explore");
    assert_eq!(
        matched.inputs,
        vec![Felt::from(692u16), Felt::from(0x15c1f_u64)]
    );
    assert_eq!(*source, Some("salt:v1"));
    assert_eq!(
        *seed,
        SeedCheck::Verified {
            seed: V1_SEED,
            nonce: None
        }
    );
    assert!(consumer_is_game);
    assert_eq!(v.source(), Some("salt:v1"));
}

#[test]
fn a_seed_for_another_chain_or_caller_differs() {
    let r = request(vec![V1_GAME, Felt::ONE, V1_SALT]);
    let sepolia = Felt::from_hex_unchecked("0x534e5f5345504f4c4941");
    let mut c = cx(V1_GAME, Some(V1_SEED), None);
    c.chain_id = sepolia;
    let SeedCheck::Differs { seed, expected } =
        SeedCheck::of(&r, c.chain_id, c.submitted_seed, None)
    else {
        panic!("a Sepolia seed cannot be the mainnet one")
    };
    assert_eq!(seed, V1_SEED);
    assert_ne!(expected, V1_SEED);
}

#[test]
fn a_salt_no_recipe_gives_lists_every_candidate_with_its_inputs() {
    let prior = v1_prior();
    let r = request(vec![V1_GAME, Felt::ONE, V1_SALT]);
    let v = classify(
        Some(&r),
        cx(V1_GAME, None, Some(&prior)),
        &[Recipe::AdventurerState, Recipe::V1Battle],
    );
    let Verdict::NoMatch {
        salt,
        candidates,
        prior: shown,
        seed,
        ..
    } = &v
    else {
        panic!("{v:?}")
    };
    assert_eq!(*salt, V1_SALT);
    assert_eq!(*shown, Some(prior));
    assert_eq!(*seed, SeedCheck::NotSent);
    let names: Vec<_> = candidates.iter().map(|t| t.recipe).collect();
    assert_eq!(names, ["adventurer_state", "v1_battle"]);
    assert_eq!(candidates[1].inputs[2], Felt::from(301u16));
    assert!(candidates.iter().all(|t| t.value != V1_SALT));
    assert_eq!(v.source(), None);
    let json = serde_json::to_value(&v).unwrap();
    assert_eq!(json["verdict"], "no_match");
    assert_eq!(
        json["candidates"][0]["formula"],
        Recipe::AdventurerState.formula()
    );
}

#[test]
fn each_recipe_hashes_the_inputs_it_shows() {
    let p = PriorState {
        beast_health: 12,
        ..v1_prior()
    };
    for r in Recipe::KNOWN {
        assert_eq!(
            r.salt(&p),
            poseidon_hash_many(&r.inputs(&p)),
            "{}",
            r.name()
        );
    }
    assert_eq!(
        Recipe::V1Battle.source(&p),
        Some(VrfSource::Salt(SaltRecipe::V1))
    );
    assert_eq!(
        Recipe::V1Explore.source(&p),
        None,
        "v1 salts battles by the count"
    );
    assert_eq!(
        SaltRecipe::V1.salt(p.adventurer_id, &p.adventurer()),
        Recipe::V1Battle.salt(&p)
    );
}

#[test]
fn a_nonce_request_names_its_consumer_and_address() {
    let player = Felt::from(0xacc_u16);
    let r = request(vec![V1_GAME, Felt::ZERO, player]);
    let v = classify(Some(&r), cx(V1_GAME, Some(V1_SEED), None), &Recipe::KNOWN);
    assert_eq!(
        v,
        Verdict::Nonce {
            consumer: V1_GAME,
            consumer_is_game: true,
            address: player,
            address_is_player: true,
            seed: SeedCheck::Unchecked {
                seed: V1_SEED,
                nonces: None
            },
        }
    );
    assert_eq!(v.source(), Some("nonce"));
    let elsewhere = classify(Some(&r), cx(PROVIDER, None, None), &Recipe::KNOWN);
    // Another consumer (a subsystem that calls consume_random) settles the source and is kept.
    assert!(matches!(
        elsewhere,
        Verdict::Nonce {
            consumer_is_game: false,
            ..
        }
    ));
    assert_eq!(
        (elsewhere.source(), elsewhere.consumer()),
        (Some("nonce"), Some(V1_GAME))
    );
    assert_eq!(
        classify(None, cx(V1_GAME, None, None), &[]).source(),
        Some("off")
    );
}

#[test]
fn a_request_of_another_shape_is_refused() {
    let call = |calldata: Vec<Felt>| RoutedCall {
        to: PROVIDER,
        selector: wallet::REQUEST_RANDOM_SELECTOR,
        calldata,
        route: Route::Direct,
    };
    assert!(VrfRequest::read(&call(vec![V1_GAME, Felt::TWO, V1_SALT])).is_err());
    assert!(VrfRequest::read(&call(vec![V1_GAME, Felt::ONE])).is_err());
    assert!(VrfRequest::read(&call(vec![V1_GAME, Felt::ONE, V1_SALT, Felt::ONE])).is_err());
}

#[test]
fn the_vector_reads_the_same_from_a_wrapped_transaction() {
    // The paymaster's multicall: submit_random(seed, proof…), the player's
    // execute_from_outside_v3(…[request_random, explore]…), assert_consumed(seed).
    let explore = starknet::macros::selector!("explore");
    let outside = chain::controller::outside_v3::OutsideExecutionV3 {
        caller: chain::outside::ANY_CALLER,
        nonce: (Felt::from(9u8), 1),
        execute_after: 0,
        execute_before: 1_800_000_000,
        calls: vec![
            starknet::core::types::Call {
                to: PROVIDER,
                selector: wallet::REQUEST_RANDOM_SELECTOR,
                calldata: vec![V1_GAME, Felt::ONE, V1_SALT],
            },
            starknet::core::types::Call {
                to: V1_GAME,
                selector: explore,
                calldata: vec![Felt::from(0x15c1f_u64), Felt::ZERO],
            },
        ],
    };
    let player = Felt::from(0xacc_u16);
    let submit = starknet::core::types::Call {
        to: PROVIDER,
        selector: starknet::macros::selector!("submit_random"),
        calldata: vec![
            V1_SEED,
            Felt::ONE,
            Felt::TWO,
            Felt::THREE,
            Felt::ONE,
            Felt::TWO,
        ],
    };
    let mut outer = Vec::new();
    chain::outside::push_calls(
        &mut outer,
        &[
            submit,
            outside.execute_call(player, &[Felt::ONE, Felt::TWO]),
        ],
    );
    let routed = routed_calls(&outer).unwrap();
    let found = routed
        .iter()
        .find(|c| c.selector == wallet::REQUEST_RANDOM_SELECTOR)
        .unwrap();
    let r = VrfRequest::read(found).unwrap();
    assert_eq!(
        r.route,
        Route::Outside {
            account: player,
            version: 3
        }
    );
    let prior = v1_prior();
    let v = classify(
        Some(&r),
        cx(V1_GAME, Some(routed[0].calldata[0]), Some(&prior)),
        &Recipe::KNOWN,
    );
    assert_eq!(v.source(), Some("salt:v1"));
}

#[test]
fn a_nonce_seed_is_verified_with_the_provider_nonce_that_gives_it() {
    let player = Felt::from(0xacc_u16);
    let r = request(vec![V1_GAME, Felt::ZERO, player]);
    let seed = poseidon_hash_many(&[Felt::from(5u8), player, V1_GAME, SN_MAIN]);
    assert_eq!(
        SeedCheck::of(&r, SN_MAIN, Some(seed), Some((3, 6))),
        SeedCheck::Verified {
            seed,
            nonce: Some(5)
        }
    );
    assert_eq!(
        SeedCheck::of(&r, SN_MAIN, Some(seed), Some((0, 4))),
        SeedCheck::Unchecked {
            seed,
            nonces: Some((0, 4))
        }
    );
    let json = serde_json::to_value(SeedCheck::of(&r, SN_MAIN, Some(seed), Some((5, 5)))).unwrap();
    assert_eq!(json["check"], "verified");
    assert_eq!(json["nonce"], 5);
}
