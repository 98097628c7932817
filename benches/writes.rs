//! Writes and reads on devnet, measured against what they cannot beat. A benchmark, not a test:
//! run `scripts/bench-writes.sh` (release build).
//!
//! Writes: whole games played by one scripted policy (explore, attack, flee, buy, equip, drop,
//! upgrade, new game) through our server (the real binary over MCP stdio) and through a plain
//! starknet-rs client making the same game calls (fee estimate, send, receipt polling), each
//! once straight to devnet and once through the counting proxy: p50/p95 latency per write tool,
//! and JSON-RPC requests per confirmed write per method (mean over the games). Decisions are made
//! from a direct, untimed `get_game_state` read, so both sides play by the same rule. Each run
//! plays in its own copy of the practice world (same class, another salt) whose randomness
//! depends only on the adventurer id and xp, so the four runs mint the same ids and play the very
//! same games, write for write: the node does the same work for each, and the difference is the
//! client's.
//!
//! Following: on a devnet closing a block every second, our writes with `tx.follow = subscribe`
//! (WebSocket push) and `poll` (status polling), latency and requests per write.
//!
//! Reads: `ls_get_adventurer` and `ls_battle_preview` through the server next to replaying the
//! very requests the tool sent (captured at the proxy) raw to devnet, plus the MCP round trip of
//! a `ping` to the same server (the floor of any tool): ratio = tool / (raw replay + floor).

#[path = "../tests/common/mod.rs"]
mod common;

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use loot_survivor_mcp::game::model::GameState;
use loot_survivor_mcp::game::phase::affordable_items;
use rmcp::model::{ClientRequest, PingRequest};
use serde_json::{Value, json};
use starknet::accounts::{Account, ExecutionEncoding, SingleOwnerAccount};
use starknet::contract::{ContractFactory, UdcSelector};
use starknet::core::types::{
    BlockId, BlockTag, Call, ExecutionResult, Felt, FunctionCall, TransactionReceiptWithBlockInfo,
};
use starknet::core::utils::get_selector_from_name;
use starknet::providers::jsonrpc::{HttpTransport, JsonRpcClient};
use starknet::providers::{Provider, ProviderError};
use starknet::signers::{LocalWallet, SigningKey};

/// The starting weapons, in turn.
const WEAPONS: [&str; 4] = ["Wand", "Book", "Short Sword", "Club"];
/// Actions per game at most (the policy's games end sooner).
const MAX_ACTIONS: usize = 150;

type Rpc = Arc<JsonRpcClient<HttpTransport>>;

/// One write the policy chose.
#[derive(Debug, Clone, Copy)]
enum Act {
    Explore,
    Attack,
    Flee,
    Upgrade { strength: u8, vitality: u8 },
    Buy(u8),
    Equip(u8),
    Drop(u8),
}

impl Act {
    fn tool(self) -> &'static str {
        match self {
            Act::Explore => "ls_explore",
            Act::Attack => "ls_attack",
            Act::Flee => "ls_flee",
            Act::Upgrade { .. } => "ls_upgrade",
            Act::Buy(_) => "ls_buy_item",
            Act::Equip(_) => "ls_equip",
            Act::Drop(_) => "ls_drop",
        }
    }

    fn args(self, id: u64) -> Value {
        let mut args = match self {
            Act::Upgrade { strength, vitality } => {
                json!({"strength": strength, "vitality": vitality})
            }
            Act::Buy(item) => json!({"items": [{"item": item, "equip": false}]}),
            Act::Equip(item) | Act::Drop(item) => json!({"items": [item]}),
            _ => json!({}),
        };
        args["adventurer_id"] = json!(id);
        args["detail"] = json!("compact");
        args
    }

    fn call(self, game: Felt, id: u64) -> Call {
        let id = Felt::from(id);
        let (name, calldata) = match self {
            Act::Explore => ("explore", vec![id, Felt::ZERO]),
            Act::Attack => ("attack", vec![id, Felt::ZERO]),
            Act::Flee => ("flee", vec![id, Felt::ZERO]),
            Act::Upgrade { strength, vitality } => (
                "select_stat_upgrades",
                [strength, 0, vitality, 0, 0, 0, 0]
                    .into_iter()
                    .map(Felt::from)
                    .fold(vec![id], |mut v, f| {
                        v.push(f);
                        v
                    }),
            ),
            Act::Buy(item) => (
                "buy_items",
                vec![id, Felt::ZERO, Felt::ONE, Felt::from(item), Felt::ZERO],
            ),
            Act::Equip(item) => ("equip", vec![id, Felt::ONE, Felt::from(item)]),
            Act::Drop(item) => ("drop", vec![id, Felt::ONE, Felt::from(item)]),
        };
        Call {
            to: game,
            selector: get_selector_from_name(name).unwrap(),
            calldata,
        }
    }
}

/// What the policy did this level, so each level tries buy, equip and drop once.
#[derive(Default)]
struct Plan {
    level: u8,
    bought: Option<u8>,
    equipped: bool,
    dropped: bool,
    battles: u32,
    fled_this_battle: bool,
}

/// The scripted policy: flee (once) every other battle from level 2 when dexterity allows, else attack; spend points on
/// strength and vitality; each level buy the cheapest affordable item into the bag, equip it,
/// drop what it replaced; else explore.
fn decide(s: &GameState, p: &mut Plan) -> Option<Act> {
    let a = &s.adventurer;
    if a.health == 0 {
        return None;
    }
    if a.level() != p.level {
        *p = Plan {
            level: a.level(),
            battles: p.battles,
            ..Plan::default()
        };
    }
    if a.beast_health > 0 {
        // The game refuses to flee without dexterity (the policy's points go elsewhere).
        if !p.fled_this_battle && a.level() > 1 && p.battles % 2 == 1 && a.stats.dexterity > 0 {
            p.fled_this_battle = true;
            return Some(Act::Flee);
        }
        return Some(Act::Attack);
    }
    p.fled_this_battle = false;
    if a.stat_upgrades_available > 0 {
        let n = a.stat_upgrades_available;
        return Some(Act::Upgrade {
            strength: n.div_ceil(2),
            vitality: n / 2,
        });
    }
    let bag: Vec<u8> = s.bag.iter().map(|i| i.id).collect();
    if p.bought.is_none() && a.level() > 1 && bag.len() < 14 {
        let mut items = affordable_items(s);
        items.sort_by_key(|i| i.price);
        if let Some(item) = items.first() {
            p.bought = Some(item.id);
            return Some(Act::Buy(item.id));
        }
    }
    if let Some(item) = p.bought
        && !p.equipped
        && bag.contains(&item)
    {
        p.equipped = true;
        return Some(Act::Equip(item));
    }
    if p.equipped && !p.dropped && a.level() > 1 {
        p.dropped = true;
        if let Some(&item) = bag.first() {
            return Some(Act::Drop(item));
        }
    }
    p.battles += 1;
    Some(Act::Explore)
}

async fn game_state(provider: &Rpc, game: Felt, id: u64) -> GameState {
    let felts = provider
        .call(
            FunctionCall {
                contract_address: game,
                entry_point_selector: get_selector_from_name("get_game_state").unwrap(),
                calldata: vec![Felt::from(id)],
            },
            BlockId::Tag(BlockTag::PreConfirmed),
        )
        .await
        .expect("get_game_state");
    GameState::decode_felts(&felts).expect("decode game state")
}

/// Latencies and request counts per write tool.
#[derive(Default)]
struct Samples {
    latency: BTreeMap<&'static str, Vec<Duration>>,
    requests: BTreeMap<&'static str, Vec<usize>>,
    /// Through the proxy: the write's time less the node's answers (the client's own time).
    own: BTreeMap<&'static str, Vec<Duration>>,
    /// Every write in order, to check that the runs played the same games.
    order: Vec<&'static str>,
    /// The node's time per request of the game actions (not new games), by method.
    node: BTreeMap<String, Vec<Duration>>,
}

/// What the counting proxy saw of one write: requests and the time the node took on them.
struct Seen {
    requests: usize,
    node: Duration,
    /// The node's time on each request, by method.
    methods: Vec<(String, Duration)>,
}

impl Samples {
    fn add(&mut self, tool: &'static str, d: Duration, seen: Option<Seen>) {
        self.latency.entry(tool).or_default().push(d);
        self.order.push(tool);
        if let Some(seen) = seen {
            if tool != "ls_new_game" {
                for (method, d) in &seen.methods {
                    self.node.entry(method.clone()).or_default().push(*d);
                }
            }
            self.requests.entry(tool).or_default().push(seen.requests);
            self.own
                .entry(tool)
                .or_default()
                .push(d.saturating_sub(seen.node));
        }
    }
}

fn percentile(v: &[Duration], p: f64) -> Duration {
    let mut v = v.to_vec();
    v.sort();
    v[((v.len() as f64 - 1.0) * p).round() as usize]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn requests(f: &common::proxy::Faults) -> usize {
    f.seen.lock().unwrap().len()
}

/// The node's time on each request the proxy answered from the `from`-th on, by method.
fn node_times(f: &common::proxy::Faults, from: usize) -> Vec<(String, Duration)> {
    f.timings.lock().unwrap()[from..]
        .iter()
        .map(|(method, read, answered)| (method.clone(), *answered - *read))
        .collect()
}

fn world_address(world: &common::World) -> Felt {
    let manifest: Value =
        serde_json::from_str(&std::fs::read_to_string(&world.manifest).unwrap()).unwrap();
    Felt::from_hex(manifest["world"]["address"].as_str().unwrap()).unwrap()
}

/// Deploys `n` more instances of the practice world's class (other salts, deployed by `account`)
/// and writes a manifest for each (the original's, every address swapped); returns (world
/// address, manifest) for the original and the copies.
async fn world_copies(
    world: &common::World,
    account: (Felt, Felt),
    n: usize,
    dir: &std::path::Path,
) -> Vec<(Felt, std::path::PathBuf)> {
    let text = std::fs::read_to_string(&world.manifest).unwrap();
    let manifest: Value = serde_json::from_str(&text).unwrap();
    let original = world_address(world);
    let class_hash = Felt::from_hex(manifest["world"]["class_hash"].as_str().unwrap()).unwrap();
    let deployer = Plain::new(&world.devnet.url, account).await;
    let factory = ContractFactory::new_with_udc(
        class_hash,
        &deployer.account,
        UdcSelector::Custom(loot_survivor_mcp::chain::deploy_target::NEW_UDC),
    );
    let mut worlds = vec![(original, world.manifest.clone())];
    for i in 1..=n {
        let deployment = factory
            .deploy_v3(vec![], Felt::from(0xbe_ac00 + i as u64), false)
            .nonce(deployer.nonce + Felt::from(i as u64 - 1));
        let address = deployment.deployed_address();
        let hash = deployment.send().await.unwrap().transaction_hash;
        deployer.receipt(hash).await;
        let copy = text.replace(
            &original.to_fixed_hex_string(),
            &address.to_fixed_hex_string(),
        );
        let path = dir.join(format!("manifest-{i}.json"));
        std::fs::write(&path, copy).unwrap();
        worlds.push((address, path));
    }
    worlds
}

/// A plain starknet-rs client: a local nonce, the fee estimate inside `send()` (zero tip, as
/// ours), then `getTransactionReceipt` until it is there (100 ms apart).
struct Plain {
    provider: Rpc,
    account: SingleOwnerAccount<Rpc, LocalWallet>,
    nonce: Felt,
}

impl Plain {
    async fn new(rpc: &url::Url, (address, key): (Felt, Felt)) -> Self {
        let provider: Rpc = Arc::new(JsonRpcClient::new(HttpTransport::new(rpc.clone())));
        let signer = LocalWallet::from(SigningKey::from_secret_scalar(key));
        let chain_id = provider.chain_id().await.unwrap();
        let account = SingleOwnerAccount::new(
            provider.clone(),
            signer,
            address,
            chain_id,
            ExecutionEncoding::New,
        );
        let nonce = provider
            .get_nonce(BlockId::Tag(BlockTag::PreConfirmed), address)
            .await
            .unwrap();
        Self {
            provider,
            account,
            nonce,
        }
    }

    async fn send(&mut self, calls: Vec<Call>) -> TransactionReceiptWithBlockInfo {
        let hash = self
            .account
            .execute_v3(calls)
            .nonce(self.nonce)
            .tip(0)
            .send()
            .await
            .unwrap()
            .transaction_hash;
        self.nonce += Felt::ONE;
        self.receipt(hash).await
    }

    /// Polls `getTransactionReceipt` until the transaction is there; it must have succeeded.
    async fn receipt(&self, hash: Felt) -> TransactionReceiptWithBlockInfo {
        loop {
            match self.provider.get_transaction_receipt(hash).await {
                Ok(r) => {
                    assert!(matches!(
                        r.receipt.execution_result(),
                        ExecutionResult::Succeeded
                    ));
                    return r;
                }
                Err(ProviderError::StarknetError(_)) => {}
                Err(e) => panic!("receipt: {e}"),
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
}

/// The client side of one run: our server over MCP, or the plain starknet-rs client.
enum Side {
    Ours(common::Client),
    Plain(Plain),
}

/// One (client, path) run: its adventurer in play, the policy's plan and its samples.
struct Runner {
    who: &'static str,
    via: &'static str,
    side: Side,
    counted: Option<Arc<common::proxy::Faults>>,
    /// This run's own copy of the practice world.
    game: Felt,
    id: Option<u64>,
    plan: Plan,
    actions: usize,
    games: usize,
    samples: Samples,
}

impl Runner {
    async fn new(
        who: &'static str,
        via: &'static str,
        rpc: &url::Url,
        counted: Option<Arc<common::proxy::Faults>>,
        account: (Felt, Felt),
        (game, manifest): (Felt, std::path::PathBuf),
    ) -> Self {
        let side = match who {
            "ours" => {
                let (address, key) = (
                    account.0.to_fixed_hex_string(),
                    account.1.to_fixed_hex_string(),
                );
                let env = [
                    ("RUST_LOG", "warn"),
                    ("LS_ACCOUNT_ADDRESS", address.as_str()),
                    ("LS_PRIVATE_KEY", key.as_str()),
                ];
                Side::Ours(common::serve_profile("devnet", rpc, &manifest, (), &env).await)
            }
            _ => Side::Plain(Plain::new(rpc, account).await),
        };
        let mut runner = Self {
            who,
            via,
            side,
            counted,
            game,
            id: None,
            plan: Plan::default(),
            actions: 0,
            games: 0,
            samples: Samples::default(),
        };
        // Warm-up, untimed: the first write of a process reads the nonce and the token contract
        // and opens its connections.
        runner.new_game(0).await;
        runner
    }

    /// Where the proxy's logs stand (requests seen, answers timed).
    fn mark(&self) -> Option<(usize, usize)> {
        self.counted
            .as_deref()
            .map(|f| (requests(f), f.timings.lock().unwrap().len()))
    }

    /// What the proxy saw since `mark`.
    fn seen_since(&self, mark: Option<(usize, usize)>) -> Option<Seen> {
        let (f, (requests_before, timed_before)) = (self.counted.as_deref()?, mark?);
        let methods = node_times(f, timed_before);
        Some(Seen {
            requests: requests(f) - requests_before,
            node: methods.iter().map(|(_, d)| *d).sum(),
            methods,
        })
    }

    /// Starts a game; returns its id. Ours is `ls_new_game`; the plain client mints, reads the
    /// id from the receipt, then calls `start_game` (what a client without an id prediction does).
    async fn new_game(&mut self, g: usize) -> u64 {
        let game = self.game;
        match &mut self.side {
            Side::Ours(client) => client
                .ok(
                    "ls_new_game",
                    json!({"weapon": WEAPONS[g % 4], "detail": "compact"}),
                )
                .await["adventurer_id"]
                .as_u64()
                .unwrap(),
            Side::Plain(client) => {
                let me = client.account.address();
                let mint = client
                    .send(vec![Call {
                        to: game,
                        selector: get_selector_from_name("mint_game").unwrap(),
                        calldata: [1u8, 0, 0, 1, 1, 1, 1, 1, 1]
                            .into_iter()
                            .map(Felt::from)
                            .chain([me, Felt::ZERO])
                            .collect(),
                    }])
                    .await;
                let transfer = get_selector_from_name("Transfer").unwrap();
                let id = mint
                    .receipt
                    .events()
                    .iter()
                    .find(|e| e.keys.first() == Some(&transfer))
                    .map(|e| u64::try_from(e.keys[3]).unwrap())
                    .unwrap();
                let weapon = [12u8, 16, 46, 76][g % 4];
                client
                    .send(vec![Call {
                        to: game,
                        selector: get_selector_from_name("start_game").unwrap(),
                        calldata: vec![Felt::from(id), Felt::from(weapon)],
                    }])
                    .await;
                id
            }
        }
    }

    /// Takes one timed write (a new game when none is in play); false once `games` are over.
    async fn step(&mut self, direct: &Rpc, games: usize) -> bool {
        let game = self.game;
        loop {
            if self.games == games {
                return false;
            }
            let Some(id) = self.id else {
                let mark = self.mark();
                let t = Instant::now();
                let id = self.new_game(self.games).await;
                let took = t.elapsed();
                let seen = self.seen_since(mark);
                self.samples.add("ls_new_game", took, seen);
                self.id = Some(id);
                self.plan = Plan::default();
                self.actions = 0;
                return true;
            };
            let state = game_state(direct, game, id).await;
            let act = match decide(&state, &mut self.plan) {
                Some(act) if self.actions < MAX_ACTIONS => act,
                _ => {
                    self.id = None;
                    self.games += 1;
                    continue;
                }
            };
            self.actions += 1;
            let mark = self.mark();
            let t = Instant::now();
            match &mut self.side {
                Side::Ours(client) => {
                    client.ok(act.tool(), act.args(id)).await;
                }
                Side::Plain(client) => {
                    client.send(vec![act.call(game, id)]).await;
                }
            }
            let took = t.elapsed();
            let seen = self.seen_since(mark);
            self.samples.add(act.tool(), took, seen);
            return true;
        }
    }

    async fn shutdown(self) -> (&'static str, &'static str, Samples) {
        if let Side::Ours(client) = self.side {
            client.shutdown().await;
        }
        (self.who, self.via, self.samples)
    }
}

/// Every order of `0..n`.
fn permutations(n: usize) -> Vec<Vec<usize>> {
    if n == 0 {
        return vec![Vec::new()];
    }
    let mut all = Vec::new();
    for shorter in permutations(n - 1) {
        for at in 0..n {
            let mut p = shorter.clone();
            p.insert(at, n - 1);
            all.push(p);
        }
    }
    all
}

/// Devnet's predeployed accounts (address, public development key), one per run so that no two
/// runs share a nonce.
async fn predeployed_accounts(rpc: &url::Url) -> Vec<(Felt, Felt)> {
    common::rpc(rpc, "devnet_getPredeployedAccounts", json!({}))
        .await
        .as_array()
        .expect("predeployed accounts")
        .iter()
        .map(|a| {
            let felt = |k: &str| Felt::from_hex(a[k].as_str().unwrap()).unwrap();
            (felt("address"), felt("private_key"))
        })
        .collect()
}

/// Plays `games` games per (client, path), one write of each run in turn, so that the four runs
/// see the same devnet (its state grows as blocks are added) at the same time.
async fn writes(
    world: &common::World,
    proxy: &url::Url,
    faults: &Arc<common::proxy::Faults>,
    games: usize,
) -> Vec<(&'static str, &'static str, Samples)> {
    let direct_url = world.devnet.url.clone();
    let direct: Rpc = Arc::new(JsonRpcClient::new(HttpTransport::new(direct_url.clone())));
    let accounts = predeployed_accounts(&direct_url).await;
    let dir = tempfile::tempdir().unwrap();
    let worlds = world_copies(world, accounts[4], 3, dir.path()).await;
    let mut runners = Vec::new();
    for (i, (who, via)) in [
        ("ours", "direct"),
        ("starknet-rs", "direct"),
        ("ours", "proxy"),
        ("starknet-rs", "proxy"),
    ]
    .into_iter()
    .enumerate()
    {
        let (url, counted) = match via {
            "direct" => (&direct_url, None),
            _ => (proxy, Some(faults.clone())),
        };
        runners.push(Runner::new(who, via, url, counted, accounts[i], worlds[i].clone()).await);
    }
    eprintln!("playing {games} games per client and path, one write of each in turn");
    // Each round takes the runs in another order (all 24 in turn), so that each run follows each
    // other equally often: whatever a client or the node still does after a write weighs on the
    // next write, whoever makes it.
    let orders = permutations(runners.len());
    for round in 0.. {
        let mut any = false;
        for &k in &orders[round % orders.len()] {
            any |= runners[k].step(&direct, games).await;
        }
        if !any {
            break;
        }
    }
    let mut runs = Vec::new();
    for r in runners {
        runs.push(r.shutdown().await);
    }
    runs
}

/// p50 of a read tool through the server, of replaying its requests raw, and of a ping. The
/// requests are captured once through the counting proxy; the timed server talks to devnet
/// directly, as the raw replay does, and the three are timed in turn in every round.
/// p50s of one read tool (ms).
struct ReadRow {
    tool: String,
    /// Through a server talking to devnet directly.
    through: f64,
    /// Its captured requests replayed raw.
    raw: f64,
    /// An MCP ping to the same server.
    floor: f64,
    /// Through a second server behind the counting proxy.
    proxied: f64,
    /// That, less the node's answers (the server's and client's own time).
    own: f64,
}

async fn reads(world: &common::World, rounds: usize) -> Vec<ReadRow> {
    let (proxy_url, faults) = common::proxy::start(world.devnet.url.clone()).await;
    let capture = world
        .client_at(&proxy_url, (), &[("RUST_LOG", "warn")])
        .await;
    let started = capture
        .ok(
            "ls_new_game",
            json!({"weapon": "Wand", "detail": "compact"}),
        )
        .await;
    let id = started["adventurer_id"].as_u64().unwrap();
    let tools = [
        (
            "ls_get_adventurer",
            json!({"adventurer_id": id, "detail": "compact"}),
        ),
        ("ls_battle_preview", json!({"adventurer_id": id})),
    ];
    let mut captured = Vec::new();
    for (tool, args) in &tools {
        let from = faults.bodies.lock().unwrap().len();
        capture.ok(tool, args.clone()).await;
        captured.push(faults.bodies.lock().unwrap()[from..].to_vec());
    }
    let client = world.client_with((), &[("RUST_LOG", "warn")]).await;
    let http = reqwest::Client::builder()
        .tcp_nodelay(true)
        .build()
        .unwrap();
    let mut rows = Vec::new();
    for ((tool, args), bodies) in tools.iter().zip(&captured) {
        client.ok(tool, args.clone()).await;
        let (mut through, mut raw, mut floor) = (Vec::new(), Vec::new(), Vec::new());
        let (mut proxied, mut own) = (Vec::new(), Vec::new());
        capture.ok(tool, args.clone()).await;
        for _ in 0..rounds {
            let t = Instant::now();
            client.ok(tool, args.clone()).await;
            through.push(t.elapsed());
            let t = Instant::now();
            for body in bodies {
                let r = http
                    .post(world.devnet.url.clone())
                    .header("content-type", "application/json")
                    .body(body.clone())
                    .send()
                    .await
                    .unwrap();
                r.bytes().await.unwrap();
            }
            raw.push(t.elapsed());
            let t = Instant::now();
            client
                .service
                .send_request(ClientRequest::PingRequest(PingRequest::default()))
                .await
                .expect("ping");
            floor.push(t.elapsed());
            let timed = faults.timings.lock().unwrap().len();
            let t = Instant::now();
            capture.ok(tool, args.clone()).await;
            let took = t.elapsed();
            let node: Duration = node_times(&faults, timed).iter().map(|(_, d)| *d).sum();
            proxied.push(took);
            own.push(took.saturating_sub(node));
        }
        rows.push(ReadRow {
            tool: format!("{tool} ({} requests)", bodies.len()),
            through: ms(percentile(&through, 0.5)),
            raw: ms(percentile(&raw, 0.5)),
            floor: ms(percentile(&floor, 0.5)),
            proxied: ms(percentile(&proxied, 0.5)),
            own: ms(percentile(&own, 0.5)),
        });
    }
    client.shutdown().await;
    capture.shutdown().await;
    rows
}

/// On devnet closing a block every second: our writes with `tx.follow` = subscribe and = poll
/// (100 ms), through the proxy: p50/p95 latency and requests per write (`ws` = one subscription).
async fn follow_modes(writes: usize) -> Vec<(String, Duration, Duration, f64, f64)> {
    let world = common::world_with(&["--block-generation-on", "1"]).await;
    let direct: Rpc = Arc::new(JsonRpcClient::new(HttpTransport::new(
        world.devnet.url.clone(),
    )));
    let game = world_address(&world);
    let (proxy_url, faults) = common::proxy::start(world.devnet.url.clone()).await;
    let mut rows = Vec::new();
    for follow in ["subscribe", "poll"] {
        let client = world
            .client_at(
                &proxy_url,
                (),
                &[("RUST_LOG", "warn"), ("LS_TX__FOLLOW", follow)],
            )
            .await;
        let mut latency = Vec::new();
        let (mut http, mut ws) = (0usize, 0usize);
        let mut id = None;
        let mut plan = Plan::default();
        while latency.len() < writes {
            let current = match id {
                Some(id) => id,
                None => {
                    let started = client
                        .ok(
                            "ls_new_game",
                            json!({"weapon": "Wand", "detail": "compact"}),
                        )
                        .await;
                    plan = Plan::default();
                    *id.insert(started["adventurer_id"].as_u64().unwrap())
                }
            };
            let state = game_state(&direct, game, current).await;
            let Some(act) = decide(&state, &mut plan) else {
                id = None;
                continue;
            };
            let from = requests(&faults);
            let t = Instant::now();
            client.ok(act.tool(), act.args(current)).await;
            latency.push(t.elapsed());
            for (m, _) in &faults.seen.lock().unwrap()[from..] {
                if m == "ws" {
                    ws += 1;
                } else {
                    http += 1;
                }
            }
        }
        client.shutdown().await;
        rows.push((
            follow.to_string(),
            percentile(&latency, 0.5),
            percentile(&latency, 0.95),
            http as f64 / writes as f64,
            ws as f64 / writes as f64,
        ));
    }
    rows
}

/// A run size from the environment, else its default.
fn size(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let games: usize = size("BENCH_GAMES", 8);
    let world = common::world().await;
    let direct = world.devnet.url.clone();
    let (proxy_url, faults) = common::proxy::start(direct.clone()).await;

    let runs = writes(&world, &proxy_url, &faults, games).await;

    println!(
        "Writes on starknet-devnet 0.10.1 (one block per transaction), {games} games per run; \
         the first receipt request finds every transaction in its block, so neither side polls \
         or subscribes (ws subscriptions counted: {})",
        faults.count("ws")
    );
    let same = runs.iter().all(|(_, _, s)| s.order == runs[0].2.order);
    println!(
        "Each run in its own copy of the world: the four played the same {} writes in the same order: {}",
        runs[0].2.order.len(),
        if same { "yes" } else { "NO" }
    );
    println!(
        "{:<14} {:<12} {:<7} {:>5} {:>9} {:>9} {:>10} {:>11}",
        "tool", "client", "via", "n", "p50 ms", "p95 ms", "req/write", "own p50 ms"
    );
    let tools: Vec<&str> = {
        let mut t: Vec<&str> = runs
            .iter()
            .flat_map(|(_, _, s)| s.latency.keys().copied())
            .collect();
        t.sort();
        t.dedup();
        t
    };
    let mut ratios = Vec::new();
    for tool in &tools {
        let mut p50 = BTreeMap::new();
        for (who, via, s) in &runs {
            let Some(l) = s.latency.get(tool) else {
                continue;
            };
            let req = s.requests.get(tool).map_or(String::from("-"), |r| {
                format!("{:.2}", r.iter().sum::<usize>() as f64 / r.len() as f64)
            });
            let own = s.own.get(tool).map_or(String::from("-"), |o| {
                format!("{:.2}", ms(percentile(o, 0.5)))
            });
            println!(
                "{:<14} {:<12} {:<7} {:>5} {:>9.1} {:>9.1} {:>10} {:>11}",
                tool,
                who,
                via,
                l.len(),
                ms(percentile(l, 0.5)),
                ms(percentile(l, 0.95)),
                req,
                own
            );
            p50.insert((*who, *via), ms(percentile(l, 0.5)));
        }
        for via in ["direct", "proxy"] {
            if let (Some(o), Some(p)) = (p50.get(&("ours", via)), p50.get(&("starknet-rs", via))) {
                ratios.push(format!("{tool} {via} {:.2}", o / p));
            }
        }
    }
    println!("write p50 ours / starknet-rs: {}", ratios.join(", "));
    let node_of = |who: &str| {
        runs.iter()
            .find(|(w, via, _)| *w == who && *via == "proxy")
            .map(|(_, _, s)| &s.node)
    };
    if let (Some(ours), Some(plain)) = (node_of("ours"), node_of("starknet-rs")) {
        let per_method: Vec<String> = ours
            .iter()
            .filter_map(|(method, o)| {
                let p = plain.get(method)?;
                Some(format!(
                    "{method} {:.2} / {:.2}",
                    ms(percentile(o, 0.5)),
                    ms(percentile(p, 0.5))
                ))
            })
            .collect();
        println!(
            "node time per request of the game actions, p50 ms, ours / starknet-rs (via proxy): {}",
            per_method.join(", ")
        );
    }

    let rounds: usize = size("BENCH_READS", 300);
    let follow_writes: usize = size("BENCH_FOLLOW_WRITES", 30);
    println!(
        "Following pending transactions: ours on devnet with 1 s blocks, {follow_writes} writes per mode, through the proxy"
    );
    for (follow, p50, p95, http, ws) in follow_modes(follow_writes).await {
        println!(
            "tx.follow = {follow:<9} p50 {:>7.1} ms  p95 {:>7.1} ms  HTTP requests/write {http:.2}  subscriptions/write {ws:.2}",
            ms(p50),
            ms(p95)
        );
    }
    println!(
        "Reads, p50 of {rounds}: the tool through the server, its captured requests replayed raw, an MCP ping (floor)"
    );
    for r in reads(&world, rounds).await {
        println!(
            "{:<34} tool {:>6.2} ms  raw {:>6.2} ms  ping {:>6.2} ms  ratio {:.2}  (via proxy: {:>6.2} ms, own {:>5.2} ms)",
            r.tool,
            r.through,
            r.raw,
            r.floor,
            r.through / (r.raw + r.floor),
            r.proxied,
            r.own
        );
    }
}
