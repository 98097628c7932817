//! Entering the game at the dungeon, on a real devnet through the real binary over stdio:
//! `devnet deploy` puts the practice dungeon (Beast Mode's `buy_game` / `claim_free_game`
//! interface), its ticket ERC20 and its golden pass ERC721 beside the practice world; then
//! `ls_new_game` with `entry: "ticket"`, `"golden_pass"` and `"free"` each buys (or claims) a game
//! that the wallet owns and plays. A ticket entry spends exactly one ticket and leaves no
//! allowance behind; the dungeon's own refusals (a pass on cooldown, a pass not owned) come back
//! as reverts found at simulation. A profile without a dungeon refuses these entries before
//! signing, and the wallet policy built from the deployed addresses signs the entry calls but
//! refuses an approve above one ticket or to another spender.

use crate::common;

use std::sync::Arc;

use common::accounts::{dev_account, send, view};
use loot_survivor_mcp::chain::bindings::{golden_pass, ticket};
use loot_survivor_mcp::chain::entry::{Entry, ONE_TICKET, Player, entry_calls};
use loot_survivor_mcp::chain::manifest::{GameAddresses, read_manifest};
use loot_survivor_mcp::wallet::{PolicyGuard, PolicySettings};
use serde_json::{Value, json};
use starknet::core::types::{Call, Felt, U256};
use starknet::providers::Provider;
use starknet::providers::jsonrpc::{HttpTransport, JsonRpcClient};

const ACCOUNT_1: &str = "0x078662e7352d062084b0010068b99288486c2d8b914f6e2a55ce945f8792c8b1";
const KEY_1: &str = "0xe1406455b7d66b1690803be066cbe5e";

fn deployed(world: &common::World) -> GameAddresses {
    GameAddresses::from_map(&read_manifest(&world.manifest).unwrap()).unwrap()
}

async fn tickets(p: &JsonRpcClient<HttpTransport>, token: Felt, owner: Felt) -> u128 {
    let felts = view(p, ticket::balance_of(token, &owner)).await;
    let b = ticket::decode_balance_of(&felts).unwrap();
    assert_eq!(b.high(), 0);
    b.low()
}

/// Account #1 (not the server's wallet, so no nonce is shared) sends `calls` and waits.
async fn send_from_account_1(world: &common::World, calls: Vec<Call>) {
    let provider = Arc::new(JsonRpcClient::new(HttpTransport::new(
        world.devnet.url.clone(),
    )));
    let chain_id = provider.chain_id().await.unwrap();
    let account = dev_account(&provider, chain_id, ACCOUNT_1, KEY_1);
    send(&account, calls).await;
}

/// Who minted the game token of a transaction: `minted_by` (data[2]) of the game token's
/// metadata event (the one with 14 data felts), which the dungeon leaderboard filters on.
async fn minted_by(world: &common::World, tx_hash: &str) -> Felt {
    let r = common::rpc(
        &world.devnet.url,
        "starknet_getTransactionReceipt",
        json!({"transaction_hash": tx_hash}),
    )
    .await;
    let metadata = r["events"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["data"].as_array().unwrap().len() == 14)
        .expect("a token metadata event");
    Felt::from_hex(metadata["data"][2].as_str().unwrap()).unwrap()
}

/// Starts a game with `args`, checks it is this wallet's and in its first battle, and wins that
/// battle: the adventurer is playable.
async fn enter_and_play(
    client: &common::Client,
    world: &common::World,
    dungeon: Felt,
    args: Value,
) -> u64 {
    let started = client.ok("ls_new_game", args.clone()).await;
    let id = started["adventurer_id"].as_u64().expect("adventurer id");
    assert_eq!(started["adventurer"]["phase"], "in_battle", "{started}");
    let bought = started["mint_tx_hash"]
        .as_str()
        .expect("the entry's tx hash");
    assert_eq!(
        minted_by(world, bought).await,
        dungeon,
        "{args}: the game was minted by the dungeon"
    );
    let fought = client
        .ok(
            "ls_attack",
            json!({"adventurer_id": id, "to_the_death": true}),
        )
        .await;
    assert!(
        fought["adventurer"]["xp"].as_u64().unwrap() > 0,
        "{args}: the starter beast is beaten: {fought}"
    );
    id
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ticket_golden_pass_and_free_entries_buy_playable_games_at_the_dungeon() {
    let world = common::world().await;
    let a = deployed(&world);
    let (dungeon, ticket_token, pass) = (
        a.dungeon.expect("devnet deploy names the dungeon"),
        a.ticket.expect("and its ticket"),
        a.golden_pass.expect("and its golden pass"),
    );
    let ours = Felt::from_hex(common::ACCOUNT).unwrap();
    // The practice faucets: two tickets and golden pass #1 for the server's wallet.
    send_from_account_1(
        &world,
        vec![
            ticket::mint(ticket_token, &ours, &U256::from(2 * ONE_TICKET)),
            golden_pass::mint(pass, &ours),
        ],
    )
    .await;
    let provider = JsonRpcClient::new(HttpTransport::new(world.devnet.url.clone()));
    let client = world.client(&[]).await;

    // Ticket: exactly one ticket leaves the wallet, and no allowance is left behind.
    let with_ticket = enter_and_play(
        &client,
        &world,
        dungeon,
        json!({"weapon": "Short Sword", "entry": "ticket", "player_name": "ticket"}),
    )
    .await;
    assert_eq!(tickets(&provider, ticket_token, ours).await, ONE_TICKET);
    let allowance = view(&provider, ticket::allowance(ticket_token, &ours, &dungeon)).await;
    assert_eq!(allowance, vec![Felt::ZERO, Felt::ZERO]);

    // Golden pass: the pass buys a game and no ticket is spent.
    let with_pass = enter_and_play(
        &client,
        &world,
        dungeon,
        json!({"weapon": "Wand", "entry": "golden_pass", "golden_pass_id": 1}),
    )
    .await;
    assert_ne!(with_pass, with_ticket);
    assert_eq!(tickets(&provider, ticket_token, ours).await, ONE_TICKET);

    // Free: the practice dungeon offers free games to anyone.
    let free = enter_and_play(
        &client,
        &world,
        dungeon,
        json!({"weapon": "Book", "entry": "free"}),
    )
    .await;
    assert!(![with_ticket, with_pass].contains(&free));

    // The dungeon's own rules: the pass rests for its cooldown, and a pass not owned is refused;
    // both at simulation, so nothing is signed.
    let (nonce, _) = common::nonce_and_balance(&world.devnet.url, common::ACCOUNT).await;
    for (pass_id, reason, code) in [
        (1, "Golden pass on cooldown", "GOLDEN_PASS_COOLDOWN"),
        (2, "ERC721: invalid token ID", "UNKNOWN_REVERT"),
    ] {
        let r = client
            .call(
                "ls_new_game",
                json!({"weapon": "Club", "entry": "golden_pass", "golden_pass_id": pass_id}),
            )
            .await;
        assert_eq!(r.json["error"]["code"], "CONTRACT_REVERT", "{}", r.text);
        assert!(r.text.contains(reason), "{}", r.text);
        assert_eq!(
            r.json["error"]["details"]["reason_code"], code,
            "{}",
            r.text
        );
        assert_eq!(
            r.json["error"]["details"]["fee_charged"], false,
            "{}",
            r.text
        );
    }

    // Arguments that do not fit together are refused before anything is signed.
    for (args, field) in [
        (
            json!({"weapon": "Book", "entry": "golden_pass"}),
            "golden_pass_id",
        ),
        (
            json!({"weapon": "Book", "entry": "ticket", "golden_pass_id": 1}),
            "golden_pass_id",
        ),
        (
            json!({"weapon": "Book", "entry": "free", "adventurer_id": free}),
            "entry",
        ),
        (json!({"weapon": "Book", "entry": "coupon"}), "coupon"),
    ] {
        let r = client.call("ls_new_game", args.clone()).await;
        assert_eq!(
            r.json["error"]["code"], "VALIDATION_ERROR",
            "{args}: {}",
            r.text
        );
        assert!(r.text.contains(field), "{args}: {}", r.text);
    }
    let (after, _) = common::nonce_and_balance(&world.devnet.url, common::ACCOUNT).await;
    assert_eq!(after, nonce, "no refused entry was signed");

    // The last ticket buys one more game; with none left the dungeon refuses at simulation.
    enter_and_play(
        &client,
        &world,
        dungeon,
        json!({"weapon": "Club", "entry": "ticket"}),
    )
    .await;
    assert_eq!(tickets(&provider, ticket_token, ours).await, 0);
    let r = client
        .call("ls_new_game", json!({"weapon": "Club", "entry": "ticket"}))
        .await;
    assert_eq!(r.json["error"]["code"], "CONTRACT_REVERT", "{}", r.text);
    assert!(r.text.contains("insufficient"), "{}", r.text);
    assert_eq!(
        r.json["error"]["details"]["reason_code"], "NO_TICKET",
        "{}",
        r.text
    );
    client.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_a_dungeon_entries_are_refused_and_the_policy_bounds_the_ticket_approve() {
    let world = common::world().await;
    let a = deployed(&world);
    let ours = Felt::from_hex(common::ACCOUNT).unwrap();

    // The wallet policy exactly as `serve` builds it from the deployed manifest.
    let settings = PolicySettings {
        read_only: false,
        max_fee_per_tx: ONE_TICKET,
        session_fee_budget: ONE_TICKET,
        daily_fee_budget: ONE_TICKET,
        max_tx_per_minute: 60,
        allow_vrf: None,
    };
    let guard = PolicyGuard::new(&settings, false, a.signable_entrypoints())
        .with_ticket_approve(a.ticket_approve());
    let at = a.entry_addresses(0);
    let player = Player {
        address: ours,
        name: None,
    };
    for entry in [
        Entry::Mint,
        Entry::Ticket,
        Entry::GoldenPass { token_id: 1 },
        Entry::Free,
    ] {
        let calls = entry_calls(entry, &at, &player).unwrap();
        guard
            .check_calls(&calls)
            .unwrap_or_else(|d| panic!("{entry:?}: {d}"));
    }
    let honest = entry_calls(Entry::Ticket, &at, &player).unwrap();
    let dungeon = a.dungeon.unwrap();
    let ticket_token = a.ticket.unwrap();
    let other = Felt::from_hex(ACCOUNT_1).unwrap();
    for (approve, why) in [
        (
            ticket::approve(ticket_token, &dungeon, &U256::from(2 * ONE_TICKET)),
            "exactly one ticket",
        ),
        (
            ticket::approve(ticket_token, &dungeon, &U256::from_words(ONE_TICKET, 1)),
            "exactly one ticket",
        ),
        (
            ticket::approve(ticket_token, &other, &U256::from(ONE_TICKET)),
            "only be approved to the dungeon",
        ),
    ] {
        let denied = guard
            .check_calls(&[approve, honest[1].clone()])
            .unwrap_err();
        assert_eq!(denied.rule, "ticket_approve");
        assert!(denied.message.contains(why), "{}", denied.message);
    }
    let denied = guard.check_calls(&honest[..1]).unwrap_err();
    assert_eq!(
        denied.rule, "ticket_approve",
        "an approve without its purchase"
    );

    // A profile whose contracts name no dungeon: every dungeon entry is a VALIDATION_ERROR and
    // nothing is signed; a plain mint still works.
    let mut manifest: Value =
        serde_json::from_str(&std::fs::read_to_string(&world.manifest).unwrap()).unwrap();
    manifest["contracts"]
        .as_array_mut()
        .unwrap()
        .retain(|c| !c["tag"].as_str().unwrap().starts_with("practice-"));
    let dir = tempfile::tempdir().unwrap();
    let stripped = dir.path().join("no-dungeon.json");
    std::fs::write(&stripped, manifest.to_string()).unwrap();
    let client = world
        .client(&[("LS_MANIFEST", stripped.to_str().unwrap())])
        .await;
    let (nonce, _) = common::nonce_and_balance(&world.devnet.url, common::ACCOUNT).await;
    for args in [
        json!({"weapon": "Wand", "entry": "ticket"}),
        json!({"weapon": "Wand", "entry": "golden_pass", "golden_pass_id": 1}),
        json!({"weapon": "Wand", "entry": "free"}),
    ] {
        let r = client.call("ls_new_game", args.clone()).await;
        assert_eq!(
            r.json["error"]["code"], "VALIDATION_ERROR",
            "{args}: {}",
            r.text
        );
        assert!(
            r.text.contains("chain.contracts.dungeon"),
            "{args}: {}",
            r.text
        );
    }
    let (after, _) = common::nonce_and_balance(&world.devnet.url, common::ACCOUNT).await;
    assert_eq!(after, nonce);
    let minted = client
        .ok("ls_new_game", json!({"weapon": "Wand", "entry": "mint"}))
        .await;
    assert_eq!(minted["adventurer"]["phase"], "in_battle");
    client.shutdown().await;
}

/// The embedded sim chain has no dungeon: dungeon entries are refused, a mint still works.
#[tokio::test]
async fn the_sim_chain_refuses_dungeon_entries() {
    use common::mcp::{call, practice};
    let client = practice(true).await;
    for entry in ["ticket", "free"] {
        let r = call(
            &client,
            "ls_new_game",
            json!({"weapon": "Wand", "entry": entry}),
        )
        .await;
        assert_eq!(r.json["error"]["code"], "VALIDATION_ERROR", "{}", r.text);
        assert!(r.text.contains("dungeon"), "{}", r.text);
    }
    let r = call(
        &client,
        "ls_new_game",
        json!({"weapon": "Wand", "entry": "mint"}),
    )
    .await;
    assert!(!r.is_error, "{}", r.text);
    assert_eq!(
        r.json["adventurer_id"], 1,
        "the refused entries minted nothing"
    );
}
