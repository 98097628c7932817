//! What the planner costs: the pure policy's time per decision (median, p90) and the wall time of
//! whole games as `play` plays them on the sim chain, on one thread, beside the planner over the
//! MCP tools (every decision through `ls_advise` and `ls_battle_preview`, as before the policy
//! was pure) on the first games of the same dungeons, which must end the same way. A benchmark,
//! not a test: `cargo bench --bench planner` (environment: `PLANNER_BENCH_GAMES`, default 1000;
//! `PLANNER_BENCH_MCP_GAMES`, default 20; `PLANNER_BENCH_SEED`, default 2026). The lookahead's
//! time per decision is printed too, over `LOOKAHEAD_BENCH_GAMES` games (default 20).

use std::time::{Duration, Instant};

use loot_survivor_mcp::agent::direct::play_on_sim;
use loot_survivor_mcp::agent::report::Spread;
use loot_survivor_mcp::agent::{Agent, AgentOptions, Budget, GameSummary, Params, Strategy};
use loot_survivor_mcp::mcp::LsServer;

mod support;

use support::{env, options, sim};

/// `games` games with the lookahead (its default budget), as `play --strategy lookahead` plays
/// them.
fn lookahead(seed: u64, games: u64) -> Run {
    let sim = sim(seed);
    let clock = Instant::now();
    let games = (0..games)
        .map(|i| {
            let opts = AgentOptions {
                strategy: Strategy::Lookahead(Params::default(), Budget::default()),
                ..options(i)
            };
            play_on_sim(&sim, &opts, Params::default(), &mut |_| {}).expect("a game")
        })
        .collect();
    Run {
        games,
        wall: clock.elapsed(),
    }
}

/// Whole games, their wall time, their decisions' times.
struct Run {
    games: Vec<GameSummary>,
    wall: Duration,
}

impl Run {
    fn actions(&self) -> u64 {
        self.games.iter().map(|g| u64::from(g.actions)).sum()
    }

    fn decisions(&self) -> Spread {
        let all: Vec<f64> = self
            .games
            .iter()
            .flat_map(|g| g.decision_us.iter().copied())
            .collect();
        Spread::of(&all)
    }

    fn print(&self, name: &str) {
        let d = self.decisions();
        let n = self.games.len() as f64;
        let levels: Vec<f64> = self.games.iter().map(|g| f64::from(g.level)).collect();
        println!(
            "{name}: {} games, {} actions, level median {}, in {:.2} s: {:.2} ms a game, {:.1} µs an action; decision median {:.1} µs, p90 {:.1} µs, mean {:.1} µs, max {:.0} µs",
            self.games.len(),
            self.actions(),
            Spread::of(&levels).median,
            self.wall.as_secs_f64(),
            self.wall.as_secs_f64() * 1e3 / n,
            self.wall.as_secs_f64() * 1e6 / self.actions() as f64,
            d.median,
            d.p90,
            d.mean,
            d.max
        );
    }
}

/// `games` games with the pure policy on the engine, as `play` plays them.
fn direct(seed: u64, games: u64) -> Run {
    let sim = sim(seed);
    let clock = Instant::now();
    let games = (0..games)
        .map(|i| play_on_sim(&sim, &options(i), Params::default(), &mut |_| {}).expect("a game"))
        .collect();
    Run {
        games,
        wall: clock.elapsed(),
    }
}

/// `games` games with the planner over the MCP tools, on one thread.
fn over_mcp(seed: u64, games: u64) -> Run {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    rt.block_on(async {
        let agent = Agent::connect(LsServer::on_sim(sim(seed), false))
            .await
            .expect("connect");
        let clock = Instant::now();
        let mut out = Vec::new();
        for i in 0..games {
            out.push(
                agent
                    .play_over_mcp(&options(i), &mut |_| {})
                    .await
                    .expect("a game"),
            );
        }
        let wall = clock.elapsed();
        agent.close().await;
        Run { games: out, wall }
    })
}

fn main() {
    let games = env("PLANNER_BENCH_GAMES", 1000);
    let mcp_games = env("PLANNER_BENCH_MCP_GAMES", 20).min(games);
    let seed = env("PLANNER_BENCH_SEED", 2026);
    println!(
        "PLANNER_BENCH_GAMES={games} PLANNER_BENCH_MCP_GAMES={mcp_games} PLANNER_BENCH_SEED={seed} LOOKAHEAD_BENCH_GAMES={} cargo bench --bench planner",
        env("LOOKAHEAD_BENCH_GAMES", 20)
    );
    let look_games = env("LOOKAHEAD_BENCH_GAMES", 20);
    let policy = direct(seed, games);
    policy.print("pure policy on the engine (play)");
    if look_games > 0 {
        let look = lookahead(seed, look_games);
        look.print("lookahead on the engine (play --strategy lookahead)");
        println!(
            "lookahead: {:.1} s a game, so about {:.0} min for 1,000 games on one core",
            look.wall.as_secs_f64() / look_games as f64,
            look.wall.as_secs_f64() / look_games as f64 * 1000.0 / 60.0
        );
    }
    let old = over_mcp(seed, mcp_games);
    old.print("planner over MCP (before)");
    let first = direct(seed, mcp_games);
    let same = first.games.iter().zip(&old.games).all(|(a, b)| {
        (a.adventurer_id, a.level, a.xp, a.gold, a.actions)
            == (b.adventurer_id, b.level, b.xp, b.gold, b.actions)
    });
    assert!(same, "the first games must end the same way both ways");
    let per_action = |r: &Run| r.wall.as_secs_f64() * 1e6 / r.actions() as f64;
    println!(
        "the same {mcp_games} games: decision median {:.1} µs on the engine against {:.1} µs over MCP; {:.1} µs an action against {:.1} µs ({:.0}x); {games} games over MCP would take about {:.0} s",
        first.decisions().median,
        old.decisions().median,
        per_action(&first),
        per_action(&old),
        per_action(&old) / per_action(&first),
        old.wall.as_secs_f64() / mcp_games as f64 * games as f64
    );
}
