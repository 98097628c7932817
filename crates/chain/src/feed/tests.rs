//! The feed's cursor, floor and decoding against a node scripted in process: polling by block,
//! pages bounded, events of both generations read through their receipt decoding.

use std::sync::{Arc, Mutex};

use serde_json::{Value, json};
use starknet::core::types::{Event, Felt};
use starknet::providers::jsonrpc::JsonRpcClient;

use super::*;
use crate::GameAddresses;
use crate::V2Contracts;
use crate::node::{NodeTransport, RpcNode};
use game::events::{GameEvent, GameEventDetails, encode_game_event};
use game::v2::GAME_CORE_EVENT_SELECTOR;

/// A node with a block number and emitted events, counting the requests by method.
#[derive(Default)]
struct Node {
    latest: Mutex<u64>,
    /// (block, tx hash, event).
    events: Mutex<Vec<(u64, u64, Event)>>,
    asked: Mutex<Vec<String>>,
    /// Events per page it serves.
    page: usize,
}

#[async_trait::async_trait]
impl RpcNode for Node {
    async fn answer(&self, id: u64, method: &str, params: Value) -> Value {
        self.asked.lock().unwrap().push(method.to_string());
        let result = match method {
            "starknet_blockNumber" => json!(*self.latest.lock().unwrap()),
            "starknet_getEvents" => {
                let f = &params["filter"];
                let from = f["from_block"]["block_number"].as_u64().unwrap();
                let to = f["to_block"]["block_number"].as_u64().unwrap();
                let skip: usize = f["continuation_token"]
                    .as_str()
                    .map_or(0, |t| t.parse().unwrap());
                let all: Vec<Value> = self
                    .events
                    .lock()
                    .unwrap()
                    .iter()
                    .filter(|(b, _, _)| (from..=to).contains(b))
                    .map(|(b, tx, e)| {
                        json!({"from_address": format!("{:#x}", e.from_address),
                        "keys": e.keys.iter().map(|k| format!("{k:#x}")).collect::<Vec<_>>(),
                        "data": e.data.iter().map(|k| format!("{k:#x}")).collect::<Vec<_>>(),
                        "block_number": b, "block_hash": "0x1",
                        "transaction_hash": format!("{tx:#x}")})
                    })
                    .collect();
                let page: Vec<Value> = all.iter().skip(skip).take(self.page).cloned().collect();
                let token = (skip + self.page < all.len()).then(|| (skip + self.page).to_string());
                json!({"events": page, "continuation_token": token})
            }
            other => panic!("unexpected {other}"),
        };
        json!({"jsonrpc": "2.0", "id": id, "result": result})
    }
}

fn level_up(id: u64) -> GameEvent {
    GameEvent {
        adventurer_id: id.into(),
        action_count: 2,
        details: GameEventDetails::LevelUp { level: 3 },
    }
}

/// A v1 game event from the world at `world`.
fn v1_event(world: Felt, id: u64) -> Event {
    let (keys, data) = encode_game_event(&level_up(id), Felt::ONE);
    Event {
        from_address: world,
        keys,
        data,
    }
}

fn feed(node: &Arc<Node>, deployment: Deployment) -> ChangeFeed {
    let provider = Arc::new(JsonRpcClient::new(NodeTransport::InProcess(node.clone())));
    ChangeFeed::new(provider, deployment, None)
}

fn v1() -> (Deployment, Felt) {
    let mut a = GameAddresses::numbered();
    a.world = Some(Felt::from(0x77u8));
    (Deployment::V1(a), Felt::from(0x77u8))
}

fn change(id: u64, tx: u64) -> Change {
    Change {
        adventurer_id: id.into(),
        tx_hash: Some(Felt::from(tx)),
    }
}

#[tokio::test]
async fn polling_names_each_change_after_the_start_once_by_block() {
    let node = Arc::new(Node {
        page: 1024,
        ..Node::default()
    });
    let (deployment, world) = v1();
    *node.latest.lock().unwrap() = 10;
    node.events
        .lock()
        .unwrap()
        .push((10, 0xa, v1_event(world, 5)));
    let feed = feed(&node, deployment);
    let (start, none) = feed.changed_since(None).await.unwrap();
    assert_eq!((start, none), (11, vec![]), "starts after the latest block");

    // Two writes in new blocks, one of them emitting two events for the same adventurer.
    node.events.lock().unwrap().extend([
        (11, 0xb, v1_event(world, 7)),
        (11, 0xb, v1_event(world, 7)),
        (12, 0xc, v1_event(world, 8)),
    ]);
    *node.latest.lock().unwrap() = 12;
    let (next, changed) = feed.changed_since(Some(start)).await.unwrap();
    assert_eq!(next, 13);
    assert_eq!(changed, vec![change(7, 0xb), change(8, 0xc)]);

    // Nothing new: no poll before POLL_EVERY, and then one cheap request.
    node.asked.lock().unwrap().clear();
    assert_eq!(feed.changed_since(Some(next)).await.unwrap(), (13, vec![]));
    assert!(node.asked.lock().unwrap().is_empty(), "polled too soon");
    tokio::time::sleep(POLL_EVERY).await;
    assert_eq!(feed.changed_since(Some(next)).await.unwrap(), (13, vec![]));
    assert_eq!(*node.asked.lock().unwrap(), vec!["starknet_blockNumber"]);

    // Stopped, the node is not asked; started again, from the latest block.
    feed.stop().await;
    node.events
        .lock()
        .unwrap()
        .push((13, 0xd, v1_event(world, 9)));
    *node.latest.lock().unwrap() = 13;
    assert_eq!(feed.changed_since(Some(13)).await.unwrap(), (14, vec![]));
}

#[tokio::test]
async fn a_long_gap_is_read_page_by_page_up_to_the_bound_then_resumed() {
    let node = Arc::new(Node {
        page: 2,
        ..Node::default()
    });
    let (deployment, world) = v1();
    let feed = feed(&node, deployment);
    let (start, _) = feed.changed_since(None).await.unwrap();
    assert_eq!(start, 1);
    let writes = 2 * poll::MAX_PAGES as u64 + 3;
    for i in 0..writes {
        node.events
            .lock()
            .unwrap()
            .push((1 + i, 0x100 + i, v1_event(world, 1 + i)));
    }
    *node.latest.lock().unwrap() = writes;
    let (next, first) = feed.changed_since(Some(start)).await.unwrap();
    assert_eq!(
        first.len(),
        2 * poll::MAX_PAGES,
        "bounded to MAX_PAGES pages"
    );
    assert_eq!(
        next,
        2 * poll::MAX_PAGES as u64,
        "resumes at the last block read"
    );
    tokio::time::sleep(POLL_EVERY).await;
    let (end, rest) = feed.changed_since(Some(next)).await.unwrap();
    assert_eq!(end, writes + 1);
    let ids: Vec<u64> = rest
        .iter()
        .map(|c| u64::try_from(c.adventurer_id.felt()).unwrap())
        .collect();
    // The resumed block is read again (its change repeats), then the rest.
    assert_eq!(
        ids,
        ((2 * poll::MAX_PAGES as u64)..=writes).collect::<Vec<_>>()
    );
}

#[tokio::test]
async fn v2_events_of_either_envelope_name_their_adventurer_and_others_are_skipped() {
    let node = Arc::new(Node::default());
    let c = V2Contracts::numbered(None);
    let feed = feed(&node, Deployment::V2(c.clone()));
    let id = Felt::from(0x1234u16);
    let at = |from: Felt, keys: Vec<Felt>, data: Vec<Felt>, tx: u64| Emitted {
        block: Some(3),
        tx_hash: Felt::from(tx),
        event: Event {
            from_address: from,
            keys,
            data,
        },
    };
    let level = vec![Felt::from(11u8), Felt::from(3u8)];
    let events = [
        at(
            c.game_core,
            vec![GAME_CORE_EVENT_SELECTOR, id],
            level.clone(),
            1,
        ),
        at(
            Felt::from(0x6bu8),
            vec![GAME_CORE_EVENT_SELECTOR, id],
            level.clone(),
            2,
        ),
        at(
            c.game_core,
            vec![GAME_CORE_EVENT_SELECTOR],
            [vec![id], level].concat(),
            3,
        ),
        // Malformed: a variant the decoder does not know.
        at(
            c.game_core,
            vec![GAME_CORE_EVENT_SELECTOR, id],
            vec![Felt::from(99u8)],
            4,
        ),
    ];
    let changes = feed.changes(&events);
    let want = |tx: u64| Change {
        adventurer_id: id.into(),
        tx_hash: Some(Felt::from(tx)),
    };
    assert_eq!(changes, vec![want(1), want(3)]);
}

/// An empty event of transaction 0x1 in `block` (`None`: pre-confirmed).
pub(super) fn at(block: Option<u64>) -> Emitted {
    Emitted {
        block,
        tx_hash: Felt::ONE,
        event: Event {
            from_address: Felt::ONE,
            keys: vec![],
            data: vec![],
        },
    }
}

#[test]
fn the_socket_keeps_events_from_the_floor_and_raises_it() {
    let mut floor = 5;
    let kept = accept(
        &mut floor,
        vec![at(Some(4)), at(Some(5)), at(Some(5)), at(None), at(Some(7))],
    );
    assert_eq!(kept, vec![at(Some(5)), at(Some(5)), at(None), at(Some(7))]);
    assert_eq!(floor, 7, "block 7 may still have events to come");
}

#[test]
fn each_generation_names_its_event_source() {
    let (deployment, world) = v1();
    let source = deployment.game().event_source();
    assert_eq!(source.address, world, "v1: the world");
    assert_eq!(source.keys.len(), 2);
    let c = V2Contracts::numbered(None);
    let source = Deployment::V2(c.clone()).game().event_source();
    assert_eq!(source.address, c.game_core, "v2: GameCore");
    assert_eq!(source.keys, vec![vec![GAME_CORE_EVENT_SELECTOR]]);
}
