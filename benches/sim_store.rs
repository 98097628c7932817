//! What a sim write costs as the saved world grows: worlds already holding 0, 1,000, 10,000 and
//! 100,000 finished games (copies of real finished games of the engine, imported in transactions
//! of 10,000), each's size on disk, then the same count of writes on each (new games played
//! upgrade / attack / explore by one step, at most 60 writes a game): p50 and p99 per write, and
//! the largest world's over the empty one's. A benchmark, not a test:
//! `cargo bench --bench sim_store` (`BENCH_SIZES=0,1000` to choose the sizes).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use loot_survivor_mcp::chain::{Confirm, Hooks, WriteOptions};
use loot_survivor_mcp::game::engine::{Action, EngineSettings, Game};
use loot_survivor_mcp::game::model::Stats;
use loot_survivor_mcp::sim::{SimChain, SimOptions, SimRandomness};

/// Writes timed on each world.
const WRITES: usize = 400;
/// Writes at most on one new game before the next is minted.
const PER_GAME: usize = 60;
/// Games imported per transaction.
const CHUNK: usize = 10_000;

fn opts() -> WriteOptions {
    WriteOptions {
        confirm: Confirm::Accepted,
        timeout: Duration::from_secs(1),
        hooks: Hooks::default(),
    }
}

/// The policy of every game here: points to vitality, attack a beast, else explore; `None` once
/// dead.
fn next_action(sim: &SimChain, id: u64) -> Option<Action> {
    let adv = sim.game_state(id).unwrap().adventurer;
    if adv.health == 0 {
        return None;
    }
    Some(if adv.stat_upgrades_available > 0 {
        Action::Upgrade {
            stats: Stats {
                vitality: adv.stat_upgrades_available,
                ..Stats::default()
            },
        }
    } else if adv.beast_health > 0 {
        Action::Attack {
            to_the_death: false,
        }
    } else {
        Action::Explore { till_beast: false }
    })
}

/// `k` games played to death on a world in memory, as stored (hidden seeds included).
fn finished_games(k: usize) -> Vec<Game> {
    let sim = SimChain::with_randomness(EngineSettings::default(), 1, SimRandomness::Master(7));
    (0..k)
        .map(|_| {
            let (id, _) = sim.mint_game(&opts()).unwrap();
            sim.apply(id, &Action::StartGame { weapon: 46 }, &opts())
                .unwrap();
            while let Some(a) = next_action(&sim, id) {
                if sim.apply(id, &a, &opts()).is_err() {
                    break;
                }
            }
            sim.stored_game(id).unwrap().unwrap()
        })
        .collect()
}

/// A saved world in `dir` holding `n` finished games (`games` in turn).
fn build(dir: &Path, n: usize, games: &[Game]) -> (SimChain, PathBuf) {
    let path = dir.join("world.sqlite3");
    let sim = SimChain::open(SimOptions {
        settings: EngineSettings::default(),
        first_adventurer_id: 1,
        randomness: SimRandomness::Master(1),
        state_file: Some(path.clone()),
        fresh: false,
    })
    .unwrap();
    let mut done = 0;
    while done < n {
        let k = CHUNK.min(n - done);
        sim.import_games((done..done + k).map(|i| games[i % games.len()].clone()))
            .unwrap();
        done += k;
    }
    (sim, path)
}

/// The database and its write-ahead log, in MB.
fn size(path: &Path) -> f64 {
    let len = |p: PathBuf| std::fs::metadata(p).map_or(0, |m| m.len());
    let mut wal = path.as_os_str().to_owned();
    wal.push("-wal");
    (len(path.to_path_buf()) + len(PathBuf::from(wal))) as f64 / 1e6
}

/// Times `WRITES` writes: mints, starts and actions of new games.
fn writes(sim: &SimChain) -> Vec<Duration> {
    let mut times = Vec::new();
    while times.len() < WRITES {
        let t = Instant::now();
        let (id, _) = sim.mint_game(&opts()).unwrap();
        times.push(t.elapsed());
        let t = Instant::now();
        sim.apply(id, &Action::StartGame { weapon: 46 }, &opts())
            .unwrap();
        times.push(t.elapsed());
        for _ in 0..PER_GAME {
            let Some(a) = next_action(sim, id) else { break };
            let t = Instant::now();
            let r = sim.apply(id, &a, &opts());
            times.push(t.elapsed());
            if r.is_err() || times.len() >= WRITES {
                break;
            }
        }
    }
    times
}

/// Percentile `p` of sorted times, in ms.
fn at(t: &[Duration], p: f64) -> f64 {
    t[((t.len() - 1) as f64 * p).round() as usize].as_secs_f64() * 1e3
}

fn main() {
    let sizes: Vec<usize> = std::env::var("BENCH_SIZES")
        .ok()
        .map(|s| s.split(',').map(|x| x.parse().unwrap()).collect())
        .unwrap_or(vec![0, 1_000, 10_000, 100_000]);
    println!(
        "cargo bench --bench sim_store   (BENCH_SIZES={})",
        sizes
            .iter()
            .map(|n| n.to_string())
            .collect::<Vec<_>>()
            .join(",")
    );
    let games = finished_games(16);
    let mut rows = Vec::new();
    for &n in &sizes {
        let dir = tempfile::tempdir().unwrap();
        let t = Instant::now();
        let (sim, path) = build(dir.path(), n, &games);
        let built = t.elapsed();
        let size = size(&path);
        // What another process pays to open this world (it reads every game).
        let t = Instant::now();
        drop(build(dir.path(), 0, &games));
        let opened = t.elapsed();
        let mut t = writes(&sim);
        t.sort();
        println!(
            "{n:>7} games: {size:>7.2} MB  built in {:>6.2} s  opened in {:>7.1} ms  write p50 {:>6.2} ms  p99 {:>6.2} ms  ({} writes)",
            built.as_secs_f64(),
            opened.as_secs_f64() * 1e3,
            at(&t, 0.5),
            at(&t, 0.99),
            t.len()
        );
        rows.push((n, at(&t, 0.5), at(&t, 0.99)));
    }
    let (first, last) = (rows[0], rows[rows.len() - 1]);
    println!(
        "largest/empty: p50 {:.2}x  p99 {:.2}x",
        last.1 / first.1,
        last.2 / first.2
    );
}
