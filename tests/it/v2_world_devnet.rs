//! The v2 practice world on a real starknet-devnet: `devnet deploy --generation v2` in each VRF
//! mode (one node, so each GameToken is the next Denshokan game id), then plain starknet-rs account
//! calls mint a game through GameToken (its id read from Denshokan's `Transfer`), start it, kill the
//! starter beast and explore (with `request_random` first where the mode needs it), decode
//! `load_assets`, check the `GameEvent` keys and the `randomness` seed against what a client can
//! compute, replay the drawn seeds with the engine's randomness (starting stats, explore outcome),
//! see the VRF stand-in and the ownership check refuse, and surrender.

use crate::common;

use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use common::accounts::{self, DevAccount, Rpc, dev_account, send};
use loot_survivor_mcp::deploy::v2::{V2Deployment, VrfMode};
use loot_survivor_mcp::game::model::Stats;
use loot_survivor_mcp::game::random::{
    ExploreOutcome, explore_outcome, felt_to_two_u64, get_randomness, starting_stats,
};
use serde_json::Value;
use starknet::accounts::Account;
use starknet::core::types::{Call, Event, Felt, TransactionReceipt};
use starknet::core::utils::get_selector_from_name;
use starknet::providers::Provider;
use starknet::providers::jsonrpc::{HttpTransport, JsonRpcClient};
use starknet_crypto::poseidon_hash_many;

/// Devnet's predeployed accounts #0 (the deployer) and #1 (the player), seed 0.
const ACCOUNT_0: &str = "0x064b48806902a367c8598f4f95c305e8c1a1acba5f082d294a43793113115691";
const KEY_0: &str = "0x71d7bb07b9a64f6f78ac4c816aff4da9";
const ACCOUNT_1: &str = "0x078662e7352d062084b0010068b99288486c2d8b914f6e2a55ce945f8792c8b1";
const KEY_1: &str = "0xe1406455b7d66b1690803be066cbe5e";

/// `sn_keccak("GameEvent")`, keys[0] of every game event GameCore emits.
const GAME_EVENT: &str = "0x03e037e958ba3b5c1cc99ac16aaf9896423eebd03183c41fbb26548a12336e5f";
/// 2^250: an id with metadata bit 12 (bit 250) set is at least this.
const TWO_POW_250: &str = "0x0400000000000000000000000000000000000000000000000000000000000000";
const SHORT_SWORD: u64 = 46;
const METADATA: u128 = 0x1fff;
const MINT_SALT: u128 = 5;

type Player = DevAccount;

/// One deployment in one mode, its player, and the game being played.
struct Game {
    d: V2Deployment,
    provider: Rpc,
    player: Player,
    chain_id: Felt,
    id: Felt,
}

fn felt(hex: &str) -> Felt {
    Felt::from_hex(hex).unwrap()
}

fn call(to: Felt, name: &str, calldata: Vec<Felt>) -> Call {
    Call {
        to,
        selector: get_selector_from_name(name).unwrap(),
        calldata,
    }
}

async fn view(provider: &Rpc, to: Felt, name: &str, calldata: Vec<Felt>) -> Vec<Felt> {
    accounts::view(provider, call(to, name, calldata)).await
}

/// Checks that `calls` from `from` fail at fee estimation, with `reason` in the error.
async fn refused(from: &Player, calls: Vec<Call>, reason: &str) {
    let e = from.execute_v3(calls).estimate_fee().await.unwrap_err();
    let text = format!("{e:?}");
    assert!(text.contains(reason), "expected {reason:?} in {text}");
}

/// The `GameEvent`s of `receipt` as (variant, payload), checking each one's keys name `id`.
fn game_events(receipt: &TransactionReceipt, game: Felt, id: Felt) -> Vec<(u64, Vec<Felt>)> {
    receipt
        .events()
        .iter()
        .filter(|e| e.from_address == game)
        .map(|e| {
            assert_eq!(e.keys, vec![felt(GAME_EVENT), id], "GameEvent keys");
            (u(e.data[0]), e.data[1..].to_vec())
        })
        .collect()
}

fn u(f: Felt) -> u64 {
    u64::try_from(f).unwrap()
}

fn u128_of(f: Felt) -> u128 {
    u128::try_from(f).unwrap()
}

fn payload(events: &[(u64, Vec<Felt>)], variant: u64) -> Vec<Felt> {
    events
        .iter()
        .rev()
        .find(|(v, _)| *v == variant)
        .unwrap_or_else(|| panic!("no event {variant} in {events:?}"))
        .1
        .clone()
}

impl Game {
    /// `load_assets`: the 31-felt v2 Adventurer, then the Bag (15 items and `mutated`).
    async fn assets(&self) -> Vec<Felt> {
        let out = view(&self.provider, self.d.game, "load_assets", vec![self.id]).await;
        assert_eq!(out.len(), 31 + 31, "{out:?}");
        out
    }

    /// The salt recipe of salt mode, from what `load_assets` shows:
    /// poseidon([adventurer_id, xp, health, beast_health]).
    fn salt(&self, assets: &[Felt]) -> Felt {
        poseidon_hash_many(&[self.id, assets[1], assets[0], assets[3]])
    }

    /// The calls of one action that draws randomness: `request_random(game, source)` first, as
    /// Cartridge's flow does, unless the mode is off.
    async fn with_randomness(&self, action: Call) -> Vec<Call> {
        let source = match self.d.vrf_mode {
            VrfMode::Off => return vec![action],
            VrfMode::Nonce => vec![Felt::ZERO, self.player.address()],
            VrfMode::Salt => vec![Felt::ONE, self.salt(&self.assets().await)],
        };
        let request = [vec![self.d.game], source].concat();
        vec![call(self.d.vrf, "request_random", request), action]
    }

    /// The seed the next action will draw, computed as a client can.
    async fn expected_seed(&self) -> Felt {
        let assets = self.assets().await;
        match self.d.vrf_mode {
            VrfMode::Off => poseidon_hash_many(&[assets[1], self.id]),
            VrfMode::Nonce => {
                let account = self.player.address();
                let nonce = view(&self.provider, self.d.vrf, "get_nonce", vec![account]).await[0];
                poseidon_hash_many(&[nonce, account, self.d.game, self.chain_id])
            }
            VrfMode::Salt => poseidon_hash_many(&[self.salt(&assets), self.d.game, self.chain_id]),
        }
    }

    /// Plays `name(id, flag)` with its randomness; checks the `randomness` event's seed and
    /// battle counter, and returns the action's events.
    async fn random_action(&self, name: &str, flag: bool, counter: u64) -> Vec<(u64, Vec<Felt>)> {
        let seed = self.expected_seed().await;
        let action = call(self.d.game, name, vec![self.id, Felt::from(flag)]);
        let receipt = send(&self.player, self.with_randomness(action).await).await;
        let events = game_events(&receipt, self.d.game, self.id);
        assert_eq!(events[0].0, 17, "randomness comes first: {events:?}");
        assert_eq!(events[0].1, vec![seed, Felt::from(counter)], "{name} seed");
        events
    }
}

/// The minted token's id, from Denshokan's `Transfer` (keys [selector, from, to, low, high]).
fn minted_id(receipt: &TransactionReceipt, denshokan: Felt, to: Felt) -> (u128, u128) {
    let from_denshokan: Vec<&Event> = receipt
        .events()
        .iter()
        .filter(|e| e.from_address == denshokan)
        .collect();
    let transfer = from_denshokan
        .iter()
        .find(|e| e.keys[0] == get_selector_from_name("Transfer").unwrap())
        .expect("a Transfer");
    assert_eq!(transfer.keys[1], Felt::ZERO, "minted from the zero address");
    assert_eq!(transfer.keys[2], to);
    let (low, high) = (u128_of(transfer.keys[3]), u128_of(transfer.keys[4]));
    let update = from_denshokan
        .iter()
        .find(|e| e.keys[0] == get_selector_from_name("MetadataUpdate").unwrap())
        .expect("an ERC-4906 MetadataUpdate");
    assert_eq!(update.data, vec![transfer.keys[3], transfer.keys[4]]);
    (low, high)
}

/// Mints through GameToken with metadata 0x1fff and salt 5, and checks the packed id's fields.
async fn mint(provider: &Rpc, d: &V2Deployment, player: &Player, game_number: u128) -> Felt {
    let none = Felt::ONE;
    let mut calldata = vec![Felt::ZERO, Felt::from_hex("0x7632").unwrap()]; // Some('v2')
    calldata.extend([none; 8]); // settings, start, end, objective, context, url, renderer, skills
    calldata.extend([player.address(), Felt::ZERO, Felt::ZERO]); // to, soulbound, paymaster
    calldata.extend([Felt::from(MINT_SALT), Felt::from(METADATA)]);
    let before = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs() as u128;
    let receipt = send(player, vec![call(d.token, "mint_game", calldata)]).await;
    let after = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs() as u128;
    let (low, high) = minted_id(&receipt, d.denshokan, player.address());
    assert_eq!(low & 0x3fff_ffff, game_number, "game_id");
    assert_eq!(
        (low >> 30) & 0xff_ffff_ffff,
        1,
        "minted_by: the first minter"
    );
    assert_eq!((low >> 70) & 0x3fff_ffff, 0, "settings_id");
    assert_eq!(low >> 125, 0, "soulbound, has_context, paymaster");
    let minted_at = high & 0x7_ffff_ffff;
    assert!(
        minted_at + 5 >= before && minted_at <= after + 5,
        "minted_at {minted_at} not in [{before}, {after}]"
    );
    assert_eq!((high >> 100) & 0x3ff, MINT_SALT, "salt");
    assert_eq!(high >> 110, METADATA, "metadata");
    let id = Felt::from(low) + Felt::from(high) * Felt::from(1u128 << 64) * Felt::from(1u128 << 64);
    assert!(id >= felt(TWO_POW_250), "the id {id:#x} is above 2^250");
    let owner = view(
        provider,
        d.denshokan,
        "owner_of",
        vec![Felt::from(low), Felt::from(high)],
    );
    assert_eq!(owner.await, vec![player.address()]);
    id
}

/// Deploys in `mode`, then plays one game through to its surrender.
async fn play_in_mode(url: &url::Url, dir: &std::path::Path, mode: VrfMode, game_number: u128) {
    let out = dir.join(format!("v2-{}.json", mode.name()));
    common::devnet_deploy(url, &["--generation", "v2", "--vrf", mode.name()], &out).await;
    let file: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(file["vrf_mode"], mode.name());
    let d = V2Deployment::load(&out).unwrap();
    assert_eq!(d.vrf_mode, mode);

    let provider: Rpc = Arc::new(JsonRpcClient::new(HttpTransport::new(url.clone())));
    let chain_id = provider.chain_id().await.unwrap();
    let player = dev_account(&provider, chain_id, ACCOUNT_1, KEY_1);
    let stranger = dev_account(&provider, chain_id, ACCOUNT_0, KEY_0);
    let id = mint(&provider, &d, &player, game_number).await;
    let g = Game {
        d,
        provider,
        player,
        chain_id,
        id,
    };

    // start_game draws no randomness: the seedless starter beast, then the 31-felt adventurer.
    let start = call(g.d.game, "start_game", vec![id, Felt::from(SHORT_SWORD)]);
    let receipt = send(&g.player, vec![start.clone()]).await;
    let events = game_events(&receipt, g.d.game, id);
    assert_eq!(events.iter().map(|e| e.0).collect::<Vec<_>>(), [2, 0]);
    assert_eq!(events[0].1.len(), 6, "beast [id, health, level, specials]");
    assert_eq!(
        events[0].1[1],
        Felt::from(3u8),
        "the starter beast's health"
    );
    let assets = g.assets().await;
    assert_eq!(
        events[1].1,
        assets[..31],
        "the adventurer event is load_assets' Adventurer"
    );
    assert_eq!(
        (assets[0], assets[3], assets[12]),
        (Felt::from(90u8), Felt::from(3u8), Felt::from(SHORT_SWORD))
    );
    refused(&g.player, vec![start], "Adventurer already started").await;

    let attack = call(g.d.game, "attack", vec![id, Felt::ZERO]);
    if mode != VrfMode::Off {
        refused(
            &g.player,
            vec![attack.clone()],
            "VrfProvider: not requested",
        )
        .await;
        let wrong = call(
            g.d.vrf,
            "request_random",
            vec![g.d.game, Felt::ONE, Felt::from(12345u16)],
        );
        refused(
            &g.player,
            vec![wrong, attack.clone()],
            "VrfProvider: not requested",
        )
        .await;
    }
    refused(
        &stranger,
        g.with_randomness(attack).await,
        "Not token owner",
    )
    .await;

    // The starter beast (3 health) dies to the first blow: level 2 and stat points.
    let events = g.random_action("attack", false, 2).await;
    let kinds: Vec<u64> = events.iter().map(|e| e.0).collect();
    assert!(
        kinds.contains(&14) && kinds.contains(&5) && kinds.contains(&11),
        "{kinds:?}"
    );
    let assets = g.assets().await;
    assert_eq!(assets[3], Felt::ZERO, "the beast is dead");
    // Replayed with the engine: the first kill's starting stats come from the drawn seed.
    let (level_seed, _) = felt_to_two_u64(events[0].1[0]);
    let luck = u8::try_from(assets[11]).unwrap();
    let mut expected = Vec::new();
    Stats {
        luck,
        ..starting_stats(level_seed)
    }
    .encode_felts(&mut expected);
    assert_eq!(
        assets[5..12],
        expected,
        "starting stats (luck from the jewelry)"
    );
    let points = assets[4];
    assert_ne!(points, Felt::ZERO, "a level-up gives stat points");
    let upgrade = [
        vec![id],
        vec![Felt::ZERO, Felt::ZERO, points],
        vec![Felt::ZERO; 4],
    ]
    .concat();
    send(
        &g.player,
        vec![call(g.d.game, "select_stat_upgrades", upgrade)],
    )
    .await;

    // One explore step meets a beast, an obstacle or a discovery.
    let xp = u16::try_from(g.assets().await[1]).unwrap();
    let events = g.random_action("explore", false, 4).await;
    let (explore_seed, _) = felt_to_two_u64(events[0].1[0]);
    let expected = match explore_outcome(get_randomness(xp, explore_seed).r4_u8) {
        ExploreOutcome::Beast => 2,
        ExploreOutcome::Obstacle => 4,
        ExploreOutcome::Discovery => 3,
    };
    assert_eq!(events[1].0, expected, "the engine's outcome: {events:?}");
    assert_eq!(payload(&events, 0), g.assets().await[..31]);

    // Surrender ends the game; the token reports it over with its score.
    let receipt = send(&g.player, vec![call(g.d.game, "surrender", vec![id])]).await;
    let adventurer = payload(&game_events(&receipt, g.d.game, id), 0);
    assert_eq!(adventurer[0], Felt::ZERO, "health 0");
    assert_eq!(
        view(&g.provider, g.d.token, "game_over", vec![id]).await,
        [Felt::ONE]
    );
    let score = view(&g.provider, g.d.token, "score", vec![id]).await;
    assert_eq!(score, [adventurer[1]], "score is xp");
    refused(
        &g.player,
        vec![call(g.d.game, "surrender", vec![id])],
        "Adventurer is dead",
    )
    .await;
}

#[tokio::test(flavor = "multi_thread")]
async fn the_v2_world_plays_a_game_in_each_vrf_mode() {
    assert_eq!(
        get_selector_from_name("GameEvent").unwrap(),
        felt(GAME_EVENT)
    );
    let devnet = common::start_devnet(&[]).await;
    let dir = tempfile::tempdir().unwrap();
    for (n, mode) in VrfMode::ALL.into_iter().enumerate() {
        play_in_mode(&devnet.url, dir.path(), mode, n as u128 + 1).await;
    }
}
