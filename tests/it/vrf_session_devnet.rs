//! The chain client's VRF path when the wallet is a Cartridge Controller session, end to end on
//! starknet-devnet with the real Controller v1.0.9 class, behind the paymaster stand-in
//! (`tests/it/common/paymaster.rs`). The owner registers a session whose policies are the game's plus
//! the VRF provider's `request_random`; the client, built with `vrf = true` and that session as its
//! signer, mints and starts a game with session-signed `__execute__`s (the stand-in does not
//! sponsor `mint_game` and `start_game`), then attacks: it bundles `request_random` (caller = game
//! systems, source = the battle salt of the pre-action state) before `attack`, signs both as a
//! SNIP-9 v3 outside execution with the session and submits it with
//! `cartridge_addExecuteOutsideTransaction`. The stand-in checks the request (the calls, the
//! salt from the adventurer as the chain has it before the action, the `(channel, mask)` nonce, a
//! `session-token` signature over the hash the deployed account itself computes with
//! `get_outside_execution_message_hash_rev_2`, equal to what the session key signs for it), then
//! stands in for the VRF wrapping: it signs the game call alone with the session key as a new v3
//! execution that devnet account #1 submits through `execute_from_outside_v3`. The client tracks
//! that transaction and reports its game events, and the adventurer is the one the engine
//! computes for the same actions. A client whose session lacks `request_random` refuses the same
//! attack as a `session_policies` policy denial naming it, and nothing reaches the stand-in.
//!
//! What devnet cannot show: the real paymaster's VRF wrapping (`submit_random` before and
//! `assert_consumed` after the execution, by the Cartridge VRF provider, which devnet does not
//! have) and so the randomness the contract would consume from it; the practice world draws its
//! own. Skipped, with a message, without the Controller class fixture. Needs starknet-devnet.

use crate::common;

use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use common::controller::{
    DeployedController, class_dir, deploy_controller, stored_session_key, view,
};
use common::paymaster::{self, ACCOUNT_1, Relayer, execution_v3};
use loot_survivor_mcp::chain::Deployment;
use loot_survivor_mcp::chain::controller::outside_v3::{OutsideExecutionV3, fresh_nonce};
use loot_survivor_mcp::chain::controller::policies::session_policy_pairs;
use loot_survivor_mcp::chain::controller::slot::SessionSlot;
use loot_survivor_mcp::chain::manifest::{GameAddresses, read_manifest};
use loot_survivor_mcp::chain::wallet_account::{AccountSigner, SESSION_POLICIES};
use loot_survivor_mcp::chain::{ChainClient, ChainError, Confirm, Hooks, WriteOptions};
use loot_survivor_mcp::game::engine::{Action, EngineSettings, World};
use loot_survivor_mcp::game::random::{battle_salt, explore_salt};
use loot_survivor_mcp::wallet::session::{SessionPolicies, SessionSigner, SessionStore};
use loot_survivor_mcp::wallet::{
    CARTRIDGE_VRF_PROVIDER, FRI_PER_STRK, PolicySettings, REQUEST_RANDOM_SELECTOR, ScryptCost,
    SecretSigner,
};
use serde_json::Value;
use starknet::core::types::{Call, Felt};
use starknet::core::utils::cairo_short_string_to_felt;
use starknet::macros::selector;
use starknet_types_core::felt::secret_felt::SecretFelt;

const PASSWORD: &str = "correct horse battery staple";
const RENEW: &str = "loot-survivor-mcp session new";

fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs()
}

fn opts() -> WriteOptions {
    WriteOptions {
        confirm: Confirm::Accepted,
        timeout: Duration::from_secs(60),
        hooks: Hooks::default(),
    }
}

/// A chain client on `rpc` with `vrf = true`, signing as the Controller session `slot` holds.
async fn session_client(
    rpc: &url::Url,
    addresses: &GameAddresses,
    account: Felt,
    slot: SessionSlot,
) -> ChainClient {
    let policy = PolicySettings {
        read_only: false,
        max_fee_per_tx: 5 * FRI_PER_STRK,
        session_fee_budget: 10 * FRI_PER_STRK,
        daily_fee_budget: 10 * FRI_PER_STRK,
        max_tx_per_minute: 100,
        allow_vrf: None,
    };
    common::vrf_client(
        rpc,
        addresses,
        account,
        AccountSigner::Session(Arc::new(slot)),
        &policy,
    )
    .await
}

/// The session key as the stand-in holds it: read from the stored keystore with the `eth-keystore`
/// crate, not through `SessionStore`.
fn session_key(store: &SessionStore) -> SecretSigner {
    let mut key = stored_session_key(&store.key_path(), PASSWORD);
    SecretSigner::new(SecretFelt::from_felt(&mut key))
}

/// What the stand-in saw of one VRF request it relayed.
#[derive(Debug, Clone, PartialEq)]
struct Checked {
    game_call: Felt,
    salt: Felt,
    nonce: (Felt, u128),
}

/// Everything the stand-in needs to check a VRF request and play the VRF wrapping's part.
struct StandIn {
    controller: Arc<DeployedController>,
    session: Arc<SessionSigner>,
    client: Arc<ChainClient>,
    game_systems: Felt,
    checked: Arc<Mutex<Vec<Checked>>>,
}

impl StandIn {
    /// Checks a request; for a VRF-bundled one, the `execute_from_outside_v3` call of the game
    /// call alone, signed by the session key, that account #1 relays instead.
    async fn rewrite(&self, params: Value) -> Result<Option<Call>, String> {
        let (account, received, signature) =
            execution_v3(&params).ok_or("not a v3 outside execution")?;
        if account != self.controller.address {
            return Err(format!("account {account:#x} is not the Controller"));
        }
        let calls = &received.calls;
        if !calls.iter().any(|c| c.to == CARTRIDGE_VRF_PROVIDER) {
            return Ok(None);
        }
        let [vrf, game] = calls.as_slice() else {
            return Err(format!("{} calls, not request_random + game", calls.len()));
        };
        if (vrf.to, vrf.selector) != (CARTRIDGE_VRF_PROVIDER, REQUEST_RANDOM_SELECTOR) {
            return Err("calls[0] is not request_random on the VRF provider".into());
        }
        if game.to != self.game_systems {
            return Err("calls[1] is not a game systems call".into());
        }
        // The salt the game will consume, from the adventurer as the chain has it now (before).
        let id = game
            .calldata
            .first()
            .and_then(|f| u64::try_from(f.to_biguint()).ok())
            .ok_or("no adventurer id")?;
        let before = self
            .client
            .game_state(id.into())
            .await
            .map_err(|e| e.to_string())?
            .adventurer;
        let salt = if game.selector == selector!("explore") {
            explore_salt(id.into(), before.xp)
        } else if [selector!("attack"), selector!("flee")].contains(&game.selector) {
            battle_salt(id.into(), before.xp, before.action_count)
        } else {
            return Err(format!("unexpected VRF game call {:#x}", game.selector));
        };
        if vrf.calldata != [self.game_systems, Felt::ONE, salt] {
            return Err(format!(
                "request_random({:?}), salt {salt:#x}",
                vrf.calldata
            ));
        }
        if received.nonce.1 == 0 || !params["outside_execution"]["nonce"].is_array() {
            return Err("the nonce is not [channel, mask]".into());
        }
        if signature.first() != Some(&cairo_short_string_to_felt("session-token").unwrap()) {
            return Err("not a session signature".into());
        }
        // Our hash is the deployed account's own; the signature is the session key's over it.
        let (chain_id, provider) = (self.controller.chain_id, &self.controller.owner.provider);
        let onchain = view(
            provider,
            account,
            selector!("get_outside_execution_message_hash_rev_2"),
            received.serialize(),
        )
        .await;
        if onchain != [received.message_hash(chain_id, account)] {
            return Err("the message hash differs from the account's".into());
        }
        let expected = self
            .session
            .sign(onchain[0], calls)
            .await
            .map_err(|e| e.to_string())?;
        if signature != expected {
            return Err("the signature is not the session key's over the account's hash".into());
        }
        self.checked.lock().unwrap().push(Checked {
            game_call: game.selector,
            salt,
            nonce: received.nonce,
        });
        // Devnet has no VRF provider: the game call alone, signed with the session key.
        let game_only = OutsideExecutionV3 {
            caller: ACCOUNT_1,
            nonce: fresh_nonce().map_err(|e| e.to_string())?,
            calls: vec![game.clone()],
            ..received
        };
        let signed = self
            .session
            .sign(game_only.message_hash(chain_id, account), &game_only.calls)
            .await
            .map_err(|e| e.to_string())?;
        Ok(Some(game_only.execute_call(account, &signed)))
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn vrf_actions_of_a_controller_session_go_as_outside_execution_v3() {
    let Some(dir) = class_dir() else {
        return;
    };
    let world = common::world().await;
    let devnet = world.devnet.url.clone();
    let controller = Arc::new(deploy_controller(&dir, &devnet, 0x5e55).await);
    let addresses = GameAddresses::from_map(&read_manifest(&world.manifest).unwrap()).unwrap();
    let chain_id = controller.chain_id;

    // The session: the game's calls and `request_random`, stored, approved and registered.
    let pairs = session_policy_pairs(&Deployment::V1(addresses.clone()), true);
    assert!(pairs.contains(&(CARTRIDGE_VRF_PROVIDER, "request_random")));
    let policies = SessionPolicies::new(pairs.iter().copied()).unwrap();
    let expires_at = now() + 3600;
    let home = tempfile::tempdir().unwrap();
    let store = SessionStore::at(home.path().join("devnet")).with_cost(ScryptCost { log_n: 4 });
    let stored = controller
        .store_session(&store, &pairs, expires_at, PASSWORD)
        .await;
    assert!(controller.is_registered(stored.session_hash()).await);
    // The stand-in's copy of the session, from the key read back independently.
    let session = Arc::new(SessionSigner::new_as_registered(
        session_key(&store),
        controller.address,
        controller.owner_guid,
        chain_id,
        policies,
        expires_at,
    ));
    assert_eq!(session.session_hash(), stored.session_hash());

    let (rpc, stand_in) = paymaster::start(devnet.clone(), Relayer::devnet_account_1()).await;
    // Not sponsored: the new game goes as the session's own `__execute__`s.
    stand_in.refuse(addresses.game_token_systems, selector!("mint_game"));
    stand_in.refuse(addresses.game_systems, selector!("start_game"));
    let loader = store.clone();
    let slot = SessionSlot::new(
        Box::new(move || {
            loader
                .load_signer(chain_id, PASSWORD.as_bytes())
                .map(Some)
                .map_err(|e| e.to_string())
        }),
        RENEW,
    );
    let client = Arc::new(session_client(&rpc, &addresses, controller.address, slot).await);
    let checked: Arc<Mutex<Vec<Checked>>> = Arc::default();
    let hook = Arc::new(StandIn {
        controller: controller.clone(),
        session: session.clone(),
        client: client.clone(),
        game_systems: addresses.game_systems,
        checked: checked.clone(),
    });
    stand_in.rewrite_with(paymaster::rewrite(move |params| {
        let hook = hook.clone();
        async move { hook.rewrite(params).await }
    }));

    let account = format!("{:#x}", controller.address);
    let nonce_before = controller_nonce(&devnet, &account).await;
    let (id, _) = client.mint_game(None, opts()).await.unwrap();
    client
        .act(id, &Action::StartGame { weapon: 46 }, None, opts())
        .await
        .unwrap();
    assert_eq!(
        controller_nonce(&devnet, &account).await,
        nonce_before + 2,
        "mint and start were sent from the Controller itself"
    );
    let refused = stand_in.requests();
    assert_eq!(refused.len(), 2, "both were offered to the paymaster first");
    assert!(refused.iter().all(|r| {
        r["params"]["outside_execution"]["calls"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c["to"].as_str().unwrap() != format!("{CARTRIDGE_VRF_PROVIDER:#x}"))
    }));
    // The engine plays the same game on the practice world's rules.
    let mut engine = World::new(EngineSettings::practice_world(), 1);
    assert!(engine.mint_id(id.to_u64().unwrap(), controller.address));
    engine
        .act(
            controller.address,
            id.to_u64().unwrap(),
            &Action::StartGame { weapon: 46 },
        )
        .unwrap();
    let before = client.game_state(id).await.unwrap();
    assert_eq!(
        before.adventurer,
        engine.state(id.to_u64().unwrap()).adventurer
    );
    assert!(before.adventurer.beast_health > 0, "the starter beast");

    // A session without `request_random` refuses the VRF action before anything is signed.
    let keystore = store.clone();
    let (address, owner_guid) = (controller.address, controller.owner_guid);
    let game_policies = SessionPolicies::new(session_policy_pairs(
        &Deployment::V1(addresses.clone()),
        false,
    ))
    .unwrap();
    let no_vrf_slot = SessionSlot::new(
        Box::new(move || {
            Ok(Some(SessionSigner::new_as_registered(
                session_key(&keystore),
                address,
                owner_guid,
                chain_id,
                game_policies.clone(),
                expires_at,
            )))
        }),
        RENEW,
    );
    let no_vrf = session_client(&rpc, &addresses, controller.address, no_vrf_slot).await;
    let attack = Action::Attack {
        to_the_death: false,
    };
    match no_vrf.act(id, &attack, None, opts()).await {
        Err(ChainError::Policy(denied)) => {
            assert_eq!(denied.rule, SESSION_POLICIES);
            assert!(
                denied.message.contains("`request_random`"),
                "{}",
                denied.message
            );
        }
        other => panic!("expected a session policy denial, got {other:?}"),
    }
    assert_eq!(stand_in.requests().len(), 2, "nothing reached the stand-in");
    assert_eq!(controller_nonce(&devnet, &account).await, nonce_before + 2);

    // The attack: request_random + attack, one session-signed v3 outside execution.
    let started = std::time::Instant::now();
    let report = client.act(id, &attack, None, opts()).await.unwrap();
    eprintln!("VRF attack through the stand-in: {:?}", started.elapsed());
    assert_eq!(report.status.as_str(), "ACCEPTED_ON_L2");
    assert!(
        !report.events.is_empty(),
        "the attack's game events are reported"
    );
    let requests = stand_in.requests();
    assert_eq!(requests.len(), 3);
    let body = &requests[2];
    assert_eq!(body["method"], "cartridge_addExecuteOutsideTransaction");
    let (_, sent, signature) = execution_v3(&body["params"]).unwrap();
    assert_eq!(
        signature[0],
        cairo_short_string_to_felt("session-token").unwrap()
    );
    let salt = battle_salt(id, before.adventurer.xp, before.adventurer.action_count);
    assert_eq!(
        sent.calls[0].calldata,
        [addresses.game_systems, Felt::ONE, salt]
    );
    assert_eq!(
        *checked.lock().unwrap(),
        [Checked {
            game_call: selector!("attack"),
            salt,
            nonce: sent.nonce,
        }],
        "the stand-in checked and relayed it"
    );
    engine
        .act(controller.address, id.to_u64().unwrap(), &attack)
        .unwrap();
    let after = client.game_state(id).await.unwrap().adventurer;
    assert_eq!(
        after,
        engine.state(id.to_u64().unwrap()).adventurer,
        "as the engine says"
    );
    assert!(
        after.beast_health == 0 && after.xp > before.adventurer.xp,
        "{after:?}"
    );
    assert_eq!(
        controller_nonce(&devnet, &account).await,
        nonce_before + 2,
        "the outside execution did not use the account's nonce"
    );
}

async fn controller_nonce(url: &url::Url, address: &str) -> u64 {
    let (nonce, _) = common::nonce_and_balance(url, address).await;
    u64::from_str_radix(nonce.as_str().unwrap().trim_start_matches("0x"), 16).unwrap()
}
