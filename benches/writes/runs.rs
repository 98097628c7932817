//! The write runs: four (client, path) runs playing the same games, one write of each in turn.

use std::sync::Arc;
use std::time::Instant;

use serde_json::json;
use starknet::accounts::Account;
use starknet::core::types::{Call, Felt};
use starknet::core::utils::get_selector_from_name;
use starknet::providers::jsonrpc::{HttpTransport, JsonRpcClient};

use crate::common;
use crate::plain::Plain;
use crate::policy::Rpc;
use crate::policy::{MAX_ACTIONS, Plan, WEAPONS, decide, game_state};
use crate::samples::{Samples, Seen, node_times, requests};
use crate::worlds::{predeployed_accounts, world_copies};

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

/// Plays `games` games per (client, path), one write of each run in turn, so that the four runs
/// see the same devnet (its state grows as blocks are added) at the same time.
pub(crate) async fn writes(
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
