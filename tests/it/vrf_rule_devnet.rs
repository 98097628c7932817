//! Reading a deployment's VRF rule off its own transactions (docs/vrf.md#finding-a-deployments-vrf-rule),
//! on a real starknet-devnet with the v2 practice world deployed in each VRF mode: the chain
//! client plays a few actions, then `check::vrf_rule::detect` reads GameCore's newest events,
//! the transactions behind them and the adventurer's history. Off: the attack drew randomness
//! without a request. Nonce: `Source::Nonce(player)` for GameCore, and the provider's nonce read
//! around the attack's block verifies the seed the world announced. Salt: the `adventurer_state`
//! recipe, both in a plain multicall and in a SNIP-9 v2 outside execution relayed by a second
//! account; and with that recipe left out of the candidates, "no match" with each candidate's
//! inputs and value.

use crate::common;

use std::time::{SystemTime, UNIX_EPOCH};

use common::v2::{ACCOUNT_0, SHORT_SWORD, opts};
use loot_survivor_mcp::chain::bindings::v2::game_core;
use loot_survivor_mcp::chain::outside::{ANY_CALLER, OutsideExecution};
use loot_survivor_mcp::chain::{ChainClient, SaltRecipe, TxReport, V2Contracts, VrfSource};
use loot_survivor_mcp::check::vrf_rule::calls::Route;
use loot_survivor_mcp::check::vrf_rule::classify::{Recipe, SeedCheck, Verdict};
use loot_survivor_mcp::check::vrf_rule::{
    Conclusion, DetectOptions, VrfRuleReport, detect, provider_nonces,
};
use loot_survivor_mcp::deploy::v2::VrfMode;
use loot_survivor_mcp::game::AdventurerId;
use loot_survivor_mcp::game::engine::Action;
use loot_survivor_mcp::game::events::GameEventDetails;
use loot_survivor_mcp::game::model::{Adventurer, Stats};
use loot_survivor_mcp::wallet::SecretSigner;
use starknet::core::types::Felt;
use starknet::providers::Provider;
use starknet::providers::jsonrpc::{HttpTransport, JsonRpcClient};
use starknet_types_core::felt::secret_felt::SecretFelt;

/// Devnet's predeployed account #1 (seed 0): the relayer of the outside execution.
const ACCOUNT_1: &str = "0x078662e7352d062084b0010068b99288486c2d8b914f6e2a55ce945f8792c8b1";
const KEY_1: &str = "0xe1406455b7d66b1690803be066cbe5e";

/// One mode's world with a started game of account #0.
struct Played {
    c: V2Contracts,
    client: ChainClient,
    id: AdventurerId,
}

async fn start(url: &url::Url, dir: &std::path::Path, mode: VrfMode) -> Played {
    let (c, client, _) = common::v2::deploy_and_connect(url, dir, mode).await;
    let game = client
        .mint_and_start(None, SHORT_SWORD, opts())
        .await
        .unwrap();
    Played {
        c,
        client,
        id: game.adventurer_id,
    }
}

impl Played {
    async fn act(&self, action: Action) -> TxReport {
        self.client
            .act(self.id, &action, None, opts())
            .await
            .unwrap_or_else(|e| panic!("{action:?}: {e}"))
    }
}

async fn read(
    p: &JsonRpcClient<HttpTransport>,
    c: &V2Contracts,
    o: &DetectOptions,
) -> VrfRuleReport {
    let chain_id = p.chain_id().await.unwrap();
    let r = detect(p, c, chain_id, o).await.unwrap();
    eprintln!("{}", r.summary());
    assert!(r.skipped.is_empty(), "every call readable: {:?}", r.skipped);
    r
}

fn account_0() -> Felt {
    Felt::from_hex(ACCOUNT_0).unwrap()
}

#[tokio::test(flavor = "multi_thread")]
async fn the_vrf_rule_is_read_off_each_modes_own_transactions() {
    // Historical state, for the provider's nonce before a block.
    let devnet = common::start_devnet(&["--state-archive-capacity", "full"]).await;
    let url = devnet.url.clone();
    let dir = tempfile::tempdir().unwrap();
    let provider = JsonRpcClient::new(HttpTransport::new(url.clone()));
    let defaults = DetectOptions::default();

    // Off: the attack drew randomness with no request_random.
    let off = start(&url, dir.path(), VrfMode::Off).await;
    let attack = off.act(Action::Attack { to_the_death: true }).await;
    let r = read(&provider, &off.c, &defaults).await;
    assert_eq!(
        r.conclusion,
        Conclusion::Found {
            source: "off",
            consumer: None,
            tx_hash: attack.tx_hash
        }
    );
    assert_eq!(r.findings.len(), 1, "start and mint draw nothing: {r:?}");
    let f = &r.findings[0];
    assert_eq!((f.action, f.request.is_none()), ("attack", true));
    assert_eq!(f.verdict, Verdict::NoRequest);
    assert!(r.summary().starts_with("VRF rule: off"), "{}", r.summary());
    assert!(r.transactions_seen >= 2, "start and attack: {r:?}");

    // Nonce: request_random(GameCore, Nonce(player)).
    let nonce = start(&url, dir.path(), VrfMode::Nonce).await;
    let attack = nonce.act(Action::Attack { to_the_death: true }).await;
    let r = read(&provider, &nonce.c, &defaults).await;
    assert_eq!(
        loot_survivor_mcp::check::read_vrf_rule(&nonce.client, &defaults)
            .await
            .unwrap(),
        r,
        "the client's reader reads the same"
    );
    assert_eq!(r.source(), Some(VrfSource::Nonce));
    assert_eq!(r.findings[0].tx_hash, attack.tx_hash);
    assert_eq!(
        r.findings[0].verdict,
        Verdict::Nonce {
            consumer: nonce.c.game_core,
            consumer_is_game: true,
            address: account_0(),
            address_is_player: true,
            seed: SeedCheck::NotSent,
        }
    );
    let request = r.findings[0].request.as_ref().unwrap();
    assert_eq!(request.provider, nonce.c.vrf_provider);
    assert_eq!(
        request.calldata,
        vec![nonce.c.game_core, Felt::ZERO, account_0()]
    );
    // The provider's nonce around the attack's block gives the seed the practice world announced
    // (its provider answers with the seed itself): poseidon([nonce, player, GameCore, chain]).
    let nonces = provider_nonces(
        &provider,
        nonce.c.vrf_provider,
        "nonces",
        account_0(),
        r.findings[0].block_number,
    )
    .await
    .unwrap();
    assert_eq!(nonces, Some((0, 1)), "the attack spent nonce 0");
    let announced = attack
        .events
        .iter()
        .find_map(|e| match &e.details {
            GameEventDetails::Randomness(p) => p.felts.first().copied(),
            _ => None,
        })
        .expect("the randomness event");
    let chain_id = provider.chain_id().await.unwrap();
    assert_eq!(
        SeedCheck::of(request, chain_id, Some(announced), nonces),
        SeedCheck::Verified {
            seed: announced,
            nonce: Some(0)
        }
    );

    // Salt: the first attack relayed as an outside execution, then an explore sent directly.
    let salt = start(&url, dir.path(), VrfMode::Salt).await;
    let before = salt.client.game_state(salt.id).await.unwrap().adventurer;
    let source = VrfSource::Salt(SaltRecipe::AdventurerState);
    let relayed_request = salt
        .c
        .vrf_request(source, account_0(), salt.id, &before)
        .unwrap();
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs();
    let execution = OutsideExecution {
        caller: ANY_CALLER,
        nonce: Felt::from(0x5eed_u64),
        execute_after: 0,
        execute_before: now + 3600,
        calls: vec![
            relayed_request.clone(),
            game_core::attack(salt.c.game_core, &salt.id.felt(), &true),
        ],
    };
    let key =
        SecretSigner::new(SecretFelt::from_hex_string(&mut common::v2::KEY_0.to_string()).unwrap());
    let chain_id = provider.chain_id().await.unwrap();
    let signed = execution.sign(&key, account_0(), chain_id).await.unwrap();
    let rpc = std::sync::Arc::new(JsonRpcClient::new(HttpTransport::new(url.clone())));
    let relayer = common::accounts::dev_account(&rpc, chain_id, ACCOUNT_1, KEY_1);
    let relayed = common::accounts::send(&relayer, vec![signed.execute_call()]).await;
    let relayed_hash = *relayed.transaction_hash();
    let s = salt.client.game_state(salt.id).await.unwrap();
    assert!(
        s.adventurer.xp > before.xp,
        "the relayed attack landed: {s:?}"
    );
    let points = s.adventurer.stat_upgrades_available;
    assert!(points > 0, "the starter beast's kill brings a level: {s:?}");
    // One multicall from the player: the upgrade, then the explore, whose salt is taken from the
    // state the upgrade leaves (each vitality point heals 15, up to 100 + 15 per vitality).
    let a = s.adventurer;
    let vitality = u16::from(a.stats.vitality + points);
    let upgraded = Adventurer {
        health: (a.health + 15 * u16::from(points)).min(100 + 15 * vitality),
        ..a
    };
    let explore_request = salt
        .c
        .vrf_request(source, account_0(), salt.id, &upgraded)
        .unwrap();
    let upgrade = Action::Upgrade {
        stats: Stats {
            vitality: points,
            ..Stats::default()
        },
    };
    let calls = vec![
        salt.client.action_call(salt.id, &upgrade).unwrap(),
        explore_request.clone(),
        game_core::explore(salt.c.game_core, &salt.id.felt(), &false),
    ];
    let player = common::accounts::dev_account(&rpc, chain_id, ACCOUNT_0, common::v2::KEY_0);
    let batched = *common::accounts::send(&player, calls)
        .await
        .transaction_hash();
    let r = read(&provider, &salt.c, &defaults).await;
    assert_eq!(
        r.conclusion,
        Conclusion::Found {
            source: "salt:adventurer_state",
            consumer: Some(salt.c.game_core),
            tx_hash: batched
        }
    );
    let hashes: Vec<Felt> = r.findings.iter().map(|f| f.tx_hash).collect();
    assert_eq!(hashes, vec![batched, relayed_hash], "newest first");
    assert_eq!(r.findings[0].route, Route::Direct);
    assert_eq!(
        r.findings[1].route,
        Route::Outside {
            account: account_0(),
            version: 2
        }
    );
    let Verdict::Salt { matched, seed, .. } = &r.findings[1].verdict else {
        panic!("{:?}", r.findings[1].verdict)
    };
    assert_eq!(matched.recipe, "adventurer_state");
    assert_eq!(
        matched.inputs,
        vec![
            salt.id.felt(),
            Felt::from(before.xp),
            Felt::from(before.health),
            Felt::from(before.beast_health)
        ]
    );
    assert_eq!(relayed_request.calldata[2], matched.value);
    assert_eq!(
        *seed,
        SeedCheck::NotSent,
        "devnet's provider takes no submit_random"
    );
    let Verdict::Salt { matched, .. } = &r.findings[0].verdict else {
        panic!("{:?}", r.findings[0].verdict)
    };
    assert_eq!(matched.value, explore_request.calldata[2]);
    assert_eq!(
        matched.inputs[2],
        Felt::from(upgraded.health),
        "the state after the multicall's upgrade"
    );

    // A candidate set without the world's recipe: no match, with the evidence.
    let v1_only = DetectOptions {
        candidates: vec![Recipe::V1Explore, Recipe::V1Battle],
        ..DetectOptions::default()
    };
    let r = read(&provider, &salt.c, &v1_only).await;
    assert_eq!(r.conclusion, Conclusion::NoMatch { tx_hash: batched });
    assert_eq!(r.source(), None);
    let Verdict::NoMatch {
        salt: asked,
        prior,
        candidates,
        ..
    } = &r.findings[0].verdict
    else {
        panic!("{:?}", r.findings[0].verdict)
    };
    let explore_request = r.findings[0].request.as_ref().unwrap();
    assert_eq!(explore_request.calldata[2], *asked);
    let prior = prior.expect("the state before the explore");
    assert_eq!(prior.adventurer_id, salt.id);
    assert_eq!(prior.actions, 2, "start and the relayed attack");
    assert_eq!(prior.health, upgraded.health);
    let names: Vec<_> = candidates.iter().map(|t| t.recipe).collect();
    assert_eq!(names, ["v1_explore", "v1_battle"]);
    assert!(candidates.iter().all(|t| t.value != *asked));
    assert!(r.summary().contains("no match"), "{}", r.summary());
    let json = serde_json::to_value(&r).unwrap();
    assert_eq!(json["conclusion"]["rule"], "no_match");
    assert_eq!(json["findings"][0]["verdict"]["verdict"], "no_match");
    assert_eq!(
        json["findings"][0]["verdict"]["candidates"][0]["formula"],
        "poseidon([xp, adventurer_id])"
    );
}
