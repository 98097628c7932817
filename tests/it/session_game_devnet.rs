//! A whole game played through MCP by the real binary signing only with a Cartridge Controller
//! session key, on starknet-devnet with the real Controller v1.0.9 class: the owner registers the
//! session (no browser), the server finds it in its data directory, and every write is either an
//! outside execution v3 relayed by a local stand-in of Cartridge's paymaster or, where the
//! stand-in answers that it does not sponsor the calls, a session-signed `__execute__` of the
//! Controller itself. A few calls by the advice line's combined moves follow through the same
//! session (a level-up's points and first step as one relayed execution). Then: a call outside the
//! session's policies is `POLICY_DENIED` before signing; the owner revokes the session and the
//! next write is `SESSION_INVALID` (revoked) with the renew command; a new session approved while
//! the server runs is picked up; once it expires the write is `SESSION_INVALID` (expired). The
//! session key appears in no output or log.
//!
//! Skipped, with a message, without the Controller class fixture. Needs starknet-devnet.

use crate::common;

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use common::advice_game::follow;
use common::controller::{class_dir, deploy_controller, stored_session_key};
use common::paymaster::{self, Relayer};
use loot_survivor_mcp::chain::Deployment;
use loot_survivor_mcp::chain::controller::policies::session_policy_pairs;
use loot_survivor_mcp::chain::manifest::{GameAddresses, read_manifest};
use loot_survivor_mcp::wallet::ScryptCost;
use loot_survivor_mcp::wallet::session::SessionStore;
use serde_json::{Value, json};
use starknet::core::types::Felt;
use starknet::macros::selector;

const PASSWORD: &str = "correct horse battery staple";
/// Most actions before giving up on the game ending.
const MAX_ACTIONS: usize = 600;

fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs()
}

/// Stores a session for `pairs` in the profile's data directory, has the owner register it on
/// chain, and returns its session hash and the key's spellings that must never be printed.
async fn approve_session(
    store: &SessionStore,
    controller: &common::controller::DeployedController,
    pairs: &[(Felt, &str)],
    expires_at: u64,
) -> (Felt, Vec<String>) {
    let signer = controller
        .store_session(store, pairs, expires_at, PASSWORD)
        .await;
    (signer.session_hash(), spellings(store))
}

/// Every spelling of the stored session key that could leak (hex with and without prefix or
/// padding, upper case, decimal), decrypted independently with the `eth-keystore` crate.
fn spellings(store: &SessionStore) -> Vec<String> {
    let key = stored_session_key(&store.key_path(), PASSWORD);
    let padded = format!("{key:064x}");
    vec![
        padded.trim_start_matches('0').to_string(),
        padded.clone(),
        padded.to_uppercase(),
        key.to_string(),
    ]
}

/// Spends all stat points on strength (never survival stats, so the game ends).
fn upgrade_args(id: u64, adv: &Value) -> Value {
    let points = adv["stat_upgrades_available"].as_u64().unwrap();
    json!({"adventurer_id": id, "strength": points})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_game_signed_only_by_a_controller_session() {
    let Some(dir) = class_dir() else {
        return;
    };
    let world = common::world().await;
    let controller = deploy_controller(&dir, &world.devnet.url, 11).await;
    let addresses = GameAddresses::from_map(&read_manifest(&world.manifest).unwrap()).unwrap();
    // The game's calls, without `drop`: the refusal below shows a call outside the session.
    let pairs: Vec<(Felt, &str)> = session_policy_pairs(&Deployment::V1(addresses.clone()), false)
        .into_iter()
        .filter(|(_, name)| *name != "drop")
        .collect();
    let home = tempfile::tempdir().unwrap();
    let store = SessionStore::at(home.path().join("devnet")).with_cost(ScryptCost { log_n: 4 });
    let (session_hash, mut secrets) =
        approve_session(&store, &controller, &pairs, now() + 3600).await;

    let (rpc, stand_in) =
        paymaster::start(world.devnet.url.clone(), Relayer::devnet_account_1()).await;
    // The stand-in sponsors everything but `start_game` (and so the new game's mint+start).
    stand_in.refuse(addresses.game_systems, selector!("start_game"));
    let address = format!("{:#x}", controller.address);
    let client = controller
        .session_client(
            &world,
            &rpc,
            home.path(),
            PASSWORD,
            &[("RUST_LOG", "trace")],
        )
        .await;
    let mut seen = String::new();

    let wallet = client.ok("ls_wallet", json!({})).await["wallet"].clone();
    seen.push_str(&wallet.to_string());
    assert_eq!(wallet["account_address"], address.as_str());
    let allowed = wallet["session"]["allowed"]
        .as_array()
        .expect("session shown");
    assert!(allowed.iter().any(|a| a == "explore"), "{wallet}");
    assert!(!allowed.iter().any(|a| a == "drop"), "{wallet}");
    assert!(wallet["session"].get("problem").is_none(), "{wallet}");

    // The new game: the stand-in does not sponsor it, so the session signs an __execute__.
    let nonce_before = controller_nonce(&world.devnet.url, &address).await;
    let started = client
        .ok("ls_new_game", json!({"weapon": "Short Sword"}))
        .await;
    seen.push_str(&started.to_string());
    let id = started["adventurer_id"].as_u64().expect("adventurer id");
    assert_eq!(
        controller_nonce(&world.devnet.url, &address).await,
        nonce_before + 1,
        "the new game was sent from the Controller itself"
    );
    stand_in.sponsor_all();

    let mut relayed_writes = 0;
    let mut denied_drop = false;
    for _ in 0..MAX_ACTIONS {
        let current = client
            .ok("ls_get_adventurer", json!({"adventurer_id": id}))
            .await;
        let adv = &current["adventurer"];
        let (tool, args) = match adv["phase"].as_str().unwrap() {
            "dead" => break,
            "in_battle" => ("ls_attack", json!({"adventurer_id": id})),
            "stat_upgrade" => ("ls_upgrade", upgrade_args(id, adv)),
            "exploring" => ("ls_explore", json!({"adventurer_id": id})),
            other => panic!("unexpected phase {other}"),
        };
        if tool == "ls_explore" && !denied_drop {
            denied_drop = true;
            // A call outside the session: refused before anything is signed or sent.
            let requests = stand_in.requests().len();
            let denied = client
                .err(
                    "ls_drop",
                    json!({"adventurer_id": id, "items": ["Short Sword"]}),
                    "POLICY_DENIED",
                )
                .await;
            seen.push_str(&denied.to_string());
            assert!(
                denied["message"].as_str().unwrap().contains("`drop`"),
                "{denied}"
            );
            assert_eq!(stand_in.requests().len(), requests);
        }
        let requests = stand_in.requests().len();
        let out = client.ok(tool, args).await;
        seen.push_str(&out.to_string());
        assert_eq!(out["status"], "ACCEPTED_ON_L2");
        assert_eq!(
            stand_in.requests().len(),
            requests + 1,
            "{tool} went through the paymaster"
        );
        relayed_writes += 1;
    }
    let end = client
        .ok("ls_get_adventurer", json!({"adventurer_id": id}))
        .await;
    assert_eq!(end["adventurer"]["phase"], "dead", "the game ended");
    assert!(relayed_writes >= 5, "{relayed_writes} relayed writes");
    assert!(denied_drop, "never out of battle");
    // Every relayed execution carried a session signature of this account.
    for r in stand_in.requests() {
        assert_eq!(r["params"]["address"], address.as_str());
        assert_eq!(r["params"]["signature"][0], "0x73657373696f6e2d746f6b656e");
    }
    assert_eq!(
        controller_nonce(&world.devnet.url, &address).await,
        nonce_before + 1,
        "only the new game was sent directly"
    );

    // A few calls by the advice line's combined moves through the same session: a level-up's
    // points and first explore step go as one relayed execution.
    let relayed_before = stand_in.requests().len();
    let started = client
        .ok(
            "ls_new_game",
            json!({"weapon": "Wand", "detail": "compact"}),
        )
        .await;
    let combined = follow(&client, started, 6).await;
    seen.push_str(&combined.last.to_string());
    let level_ups = stand_in.requests()[relayed_before..]
        .iter()
        .filter_map(|r| paymaster::execution_v3(&r["params"]))
        .filter(|(_, exec, _)| {
            let sels: Vec<Felt> = exec.calls.iter().map(|c| c.selector).collect();
            sels.contains(&selector!("select_stat_upgrades"))
                && sels.last() == Some(&selector!("explore"))
        })
        .count();
    assert!(level_ups > 0, "{}", combined.summary("combined moves"));
    eprintln!(
        "{}",
        combined.summary("combined moves through the v1 session")
    );

    // The owner revokes the session: the next write is refused, typed, with the renew command.
    controller.revoke_session(session_hash).await;
    let revoked = client
        .err("ls_new_game", json!({"weapon": "Book"}), "SESSION_INVALID")
        .await;
    seen.push_str(&revoked.to_string());
    assert_eq!(revoked["details"]["problem"], "revoked", "{revoked}");
    assert!(
        revoked["hint"].as_str().unwrap().contains("session new"),
        "{revoked}"
    );
    let wallet = client.ok("ls_wallet", json!({})).await["wallet"].clone();
    assert_eq!(wallet["session"]["problem"], "revoked", "{wallet}");
    assert!(
        wallet["session"]["renew"]
            .as_str()
            .unwrap()
            .contains("session new")
    );

    // A new session approved while the server runs is used by the next write; it expires soon.
    let expires_at = now() + 25;
    let (_, more) = approve_session(&store, &controller, &pairs, expires_at).await;
    secrets.extend(more);
    let again = client.ok("ls_new_game", json!({"weapon": "Book"})).await;
    seen.push_str(&again.to_string());
    assert!(again["adventurer_id"].as_u64().unwrap() > id);
    while now() <= expires_at {
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    let expired = client
        .err("ls_new_game", json!({"weapon": "Wand"}), "SESSION_INVALID")
        .await;
    seen.push_str(&expired.to_string());
    assert_eq!(expired["details"]["problem"], "expired", "{expired}");

    eprintln!(
        "session game: adventurer {id} to level {}, {relayed_writes} writes relayed by the paymaster \
         stand-in, 1 sent directly",
        end["adventurer"]["level"]
    );
    let stderr = client.shutdown().await;
    for s in &secrets {
        assert!(
            !seen.contains(s.as_str()),
            "the session key is in a tool result"
        );
        assert!(
            !stderr.contains(s.as_str()),
            "the session key is in the log"
        );
    }
    assert!(stderr.contains("transaction sent"), "logs reached stderr");
}

async fn controller_nonce(url: &url::Url, address: &str) -> u64 {
    let (nonce, _) = common::nonce_and_balance(url, address).await;
    u64::from_str_radix(nonce.as_str().unwrap().trim_start_matches("0x"), 16).unwrap()
}
