//! The chain client on the v2 practice world (docs/generations.md), on a real starknet-devnet: in
//! each VRF mode (off, nonce, salt) a `ChainClient` whose deployment and policy come from the
//! devnet profile with `LS_GENERATION=v2` plays through its own methods only: mint and start (two
//! transactions), the starter beast, the stat upgrade, a purchase, equip and drop, exploring to a
//! beast, a flee, and the surrender. Each write lands and is in the journal; each `game_state`
//! equals `load_assets` plus the newest beast and market events; explore carries the VRF request
//! the mode asks for (none when off). Connect refuses a v1 profile on GameCore and a v2 profile on
//! the v1 world, and a deployment whose VRF source is unset refuses an explore before anything
//! is sent (the node sees no request).

use crate::common;

use common::proxy;
use common::v2::{SHORT_SWORD, connect, opts, v2_settings};
use loot_survivor_mcp::chain::manifest::{GameAddresses, read_manifest};
use loot_survivor_mcp::chain::{ChainClient, ChainError, Deployment, TxReport, V2Contracts};
use loot_survivor_mcp::deploy::v2::{V2Deployment, VrfMode};
use loot_survivor_mcp::game::AdventurerId;
use loot_survivor_mcp::game::engine::Action;
use loot_survivor_mcp::game::events::GameEventDetails;
use loot_survivor_mcp::game::model::{GameState, ItemPurchase, Stats};
use loot_survivor_mcp::game::{catalogue, rules, v2};
use starknet::core::types::{Felt, Transaction};
use starknet::providers::Provider;
use starknet::providers::jsonrpc::{HttpTransport, JsonRpcClient};

/// One mode's world, its client and the game being played.
struct Play {
    c: V2Contracts,
    mode: VrfMode,
    client: ChainClient,
    provider: JsonRpcClient<HttpTransport>,
    id: AdventurerId,
    /// Transactions of this game that landed with game events: start, then each action.
    landed: std::sync::atomic::AtomicU16,
}

impl Play {
    /// `load_assets` read independently of the client.
    async fn assets(&self) -> v2::Assets {
        let call = loot_survivor_mcp::chain::bindings::v2::game_core::load_assets(
            self.c.game_core,
            &self.id.felt(),
        );
        let felts = common::accounts::view(&self.provider, call).await;
        v2::Assets::from_felts(&felts).unwrap()
    }

    /// The client's state, checked against `load_assets` and the newest beast and market the
    /// game's reports showed.
    async fn state(&self, beast: Option<(u8, u16)>, market: Option<&[u8]>) -> GameState {
        let s = self.client.game_state(self.id).await.unwrap();
        let mut a = self.assets().await;
        let landed = self.landed.load(std::sync::atomic::Ordering::SeqCst);
        assert_eq!(
            a.adventurer.action_count, 0,
            "load_assets carries no action count"
        );
        assert_eq!(
            s.adventurer.action_count, landed,
            "the count of the game's transactions ({:?})",
            self.mode
        );
        a.adventurer.action_count = landed;
        assert_eq!(s.adventurer, a.adventurer, "{:?}", self.mode);
        assert_eq!(s.bag, a.bag);
        if let Some((id, health)) = beast {
            assert_eq!((s.beast.id, s.beast.health), (id, health));
        }
        if let Some(m) = market {
            assert_eq!(s.market, m);
        }
        s
    }

    /// Sends one action and checks that it landed and that the journal recorded it.
    async fn act(&self, action: Action) -> TxReport {
        let r = self
            .client
            .act(self.id, &action, None, opts())
            .await
            .unwrap_or_else(|e| panic!("{action:?} in {:?}: {e}", self.mode));
        self.landed
            .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        let record = self.client.ledger().get(r.tx_hash).expect("journaled");
        assert_eq!(record.action, action.entrypoint());
        assert_eq!(record.adventurer_id, Some(self.id));
        r
    }

    /// How many calls the transaction `hash` made, and the first call's target.
    async fn calls_of(&self, hash: Felt) -> (u64, Felt) {
        let Transaction::Invoke(starknet::core::types::InvokeTransaction::V3(tx)) =
            self.provider.get_transaction_by_hash(hash).await.unwrap()
        else {
            panic!("not an invoke v3")
        };
        (u64::try_from(tx.calldata[0]).unwrap(), tx.calldata[1])
    }
}

fn beast_of(r: &TxReport) -> Option<(u8, u16)> {
    r.events.iter().rev().find_map(|e| match &e.details {
        GameEventDetails::Beast(b) => Some((b.id, b.health)),
        _ => None,
    })
}

fn market_of(r: &TxReport) -> Option<Vec<u8>> {
    r.events.iter().rev().find_map(|e| match &e.details {
        GameEventDetails::MarketItems { items } => Some(items.iter().map(|i| i.id).collect()),
        _ => None,
    })
}

/// Deploys in `mode` and plays a game through the client to its surrender.
async fn play_in_mode(url: &url::Url, dir: &std::path::Path, mode: VrfMode) {
    let (c, client, out) = common::v2::deploy_and_connect(url, dir, mode).await;
    assert_eq!(c, V2Contracts::from(&V2Deployment::load(&out).unwrap()));
    let provider = JsonRpcClient::new(HttpTransport::new(url.clone()));

    let game = client
        .mint_and_start(None, SHORT_SWORD, opts())
        .await
        .unwrap();
    assert_ne!(game.mint_tx_hash, game.report.tx_hash, "mint, then start");
    assert!(
        game.adventurer_id.to_u64().is_none(),
        "a packed id above 2^64"
    );
    let mint = client.ledger().get(game.mint_tx_hash).unwrap();
    assert_eq!(mint.action, "mint_game");
    assert_eq!(
        client.owner_of(game.adventurer_id).await.unwrap(),
        Some(client.account_address())
    );
    let p = Play {
        c,
        mode,
        client,
        provider,
        id: game.adventurer_id,
        landed: 1.into(),
    };
    let starter = beast_of(&game.report);
    assert_eq!(starter.map(|b| b.1), Some(3), "the starter beast");
    let s = p.state(starter, Some(&[])).await;
    assert_eq!((s.adventurer.health, s.adventurer.beast_health), (90, 3));

    // The starter beast dies at the first blows: level 2, stat points, the market.
    let kill = p.act(Action::Attack { to_the_death: true }).await;
    let (n, first) = p.calls_of(kill.tx_hash).await;
    assert_eq!(
        (n, first == p.c.vrf_provider),
        if mode == VrfMode::Off {
            (1, false)
        } else {
            (2, true)
        },
        "the attack's VRF request in {mode:?}"
    );
    let market = market_of(&kill).expect("a level-up market");
    let s = p.state(starter, Some(&market)).await;
    let points = s.adventurer.stat_upgrades_available;
    assert!(points > 0, "{s:?}");
    // One point of dexterity, so that the flee below is allowed whatever the starting stats.
    p.act(Action::Upgrade {
        stats: Stats {
            dexterity: 1,
            vitality: points - 1,
            ..Stats::default()
        },
    })
    .await;

    // Buy the cheapest item of an empty slot into the bag, equip it, then drop it.
    let s = p.state(None, Some(&market)).await;
    let pick = market
        .iter()
        .copied()
        .filter(|&id| {
            let info = catalogue::item(id).unwrap();
            s.adventurer.equipment.get(info.slot).id == 0
        })
        .min_by_key(|&id| rules::item_price(catalogue::item(id).unwrap().tier, 0))
        .expect("an item for an empty slot");
    assert!(rules::item_price(catalogue::item(pick).unwrap().tier, 0) <= s.adventurer.gold);
    let bought = p
        .act(Action::BuyItems {
            potions: 0,
            items: vec![ItemPurchase {
                item_id: pick,
                equip: false,
            }],
        })
        .await;
    assert!(
        bought
            .events
            .iter()
            .any(|e| matches!(e.details, GameEventDetails::BuyItems { .. }))
    );
    let equip = p.act(Action::Equip { items: vec![pick] }).await;
    assert_eq!(p.calls_of(equip.tx_hash).await.0, 1, "no VRF out of battle");
    p.act(Action::Drop { items: vec![pick] }).await;
    let s = p.state(None, Some(&market)).await;
    assert!(
        !s.bag.contains(pick)
            && s.adventurer
                .equipment
                .get(catalogue::item(pick).unwrap().slot)
                .id
                == 0
    );

    // Explore until a beast (spending any points a level brings), then flee once.
    let mut met = None;
    for _ in 0..12 {
        let s = p.state(None, None).await;
        if s.adventurer.health == 0 || s.adventurer.beast_health > 0 {
            break;
        }
        if s.adventurer.stat_upgrades_available > 0 {
            let points = s.adventurer.stat_upgrades_available;
            p.act(Action::Upgrade {
                stats: Stats {
                    vitality: points,
                    ..Stats::default()
                },
            })
            .await;
            continue;
        }
        let r = p.act(Action::Explore { till_beast: true }).await;
        let (n, _) = p.calls_of(r.tx_hash).await;
        assert_eq!(n, if mode == VrfMode::Off { 1 } else { 2 });
        met = beast_of(&r).or(met);
    }
    let s = p.state(met, None).await;
    if s.adventurer.beast_health > 0 {
        let fled = p
            .act(Action::Flee {
                to_the_death: false,
            })
            .await;
        assert!(
            fled.events.iter().any(|e| matches!(
                e.details,
                GameEventDetails::Flee { .. } | GameEventDetails::FledBeast { .. }
            )),
            "{:?}",
            fled.events
        );
    }
    let s = p.state(met, None).await;
    if s.adventurer.health > 0 {
        let r = p.act(Action::Surrender).await;
        assert!(
            r.events
                .iter()
                .any(|e| matches!(&e.details, GameEventDetails::Adventurer(a) if a.health == 0))
        );
        assert_eq!(p.assets().await.adventurer.health, 0);
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_chain_client_plays_the_v2_world_in_each_vrf_mode() {
    let devnet = common::start_devnet(&[]).await;
    let dir = tempfile::tempdir().unwrap();
    for mode in VrfMode::ALL {
        play_in_mode(&devnet.url, dir.path(), mode).await;
    }

    // Connect checks the generation on chain, both ways.
    let salt = dir.path().join("v2-salt.json");
    let settings = v2_settings(&salt);
    let c = V2Contracts::from(&V2Deployment::load(&salt).unwrap());
    let manifest = dir.path().join("manifest.json");
    common::devnet_deploy(&devnet.url, &[], &manifest).await;
    let v1 = GameAddresses::from_map(&read_manifest(&manifest).unwrap()).unwrap();
    let v1_on_core = GameAddresses {
        game_systems: c.game_core,
        ..v1.clone()
    };
    let e = connect(&devnet.url, &settings, Deployment::V1(v1_on_core))
        .await
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "the profile says v1 but {:#x} answers as a v2 GameCore",
            c.game_core
        )
    );
    let v2_on_world = V2Contracts {
        game_core: v1.game_systems,
        ..c.clone()
    };
    let e = connect(&devnet.url, &settings, Deployment::V2(v2_on_world))
        .await
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "the profile says v2 but {:#x} answers as a v1 Dojo world",
            v1.game_systems
        )
    );
    connect(&devnet.url, &settings, Deployment::V1(v1))
        .await
        .expect("the v1 world still connects as v1");

    // An unset VRF source: the explore is refused before anything reaches the node.
    let (proxied, seen) = proxy::start(devnet.url.clone()).await;
    let unset = V2Contracts {
        vrf_source: None,
        ..c
    };
    let client = connect(&proxied, &settings, Deployment::V2(unset))
        .await
        .unwrap();
    let game = client
        .mint_and_start(None, SHORT_SWORD, opts())
        .await
        .unwrap();
    let before = seen.seen.lock().unwrap().len();
    let e = client
        .act(
            game.adventurer_id,
            &Action::Attack {
                to_the_death: false,
            },
            None,
            opts(),
        )
        .await
        .unwrap_err();
    assert!(
        matches!(e, ChainError::VrfSourceUnset { action: "attack" }),
        "{e:?}"
    );
    assert_eq!(seen.seen.lock().unwrap().len(), before, "no request at all");
    assert_eq!(client.ledger().len(), 2, "the mint and the start only");

    // A state read is bounded: load_assets and one page of events.
    let before = seen.seen.lock().unwrap().len();
    client.game_state(game.adventurer_id).await.unwrap();
    let asked: Vec<String> = seen.seen.lock().unwrap()[before..]
        .iter()
        .map(|(m, _)| m.clone())
        .collect();
    assert_eq!(asked, ["starknet_call", "starknet_getEvents"]);
}
