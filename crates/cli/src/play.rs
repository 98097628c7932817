//! `play`: the built-in agent over an in-memory sim world, game after game, with the summary.

use std::sync::Arc;

use agent::{Agent, AgentOptions, Budget, ParamError, Params, Strategy, Summary};
use anyhow::Context as _;
use game::policy::ceiling;
use sim::{SimChain, SimRandomness};

use super::args::{PlayArgs, SettingsArgs};
use super::servers::server_over;

/// The strategies `play --strategy` names.
pub(crate) fn strategies(play: &PlayArgs) -> anyhow::Result<Vec<Strategy>> {
    let mut params = Params::default();
    let mut budget = Budget::default();
    let mut exact = ceiling::EXACT;
    for kv in &play.params {
        let (k, v) = kv
            .split_once('=')
            .with_context(|| format!("--param expects NAME=VALUE, got '{kv}'"))?;
        let (k, v) = (k.trim(), v.trim());
        match params.set(k, v) {
            Err(ParamError::Unknown(_)) if k.starts_with("ceil_") => {
                ceiling::set(&mut exact, k, v).map_err(anyhow::Error::msg)?
            }
            Err(ParamError::Unknown(_)) => budget.set(k, v).map_err(anyhow::Error::msg)?,
            other => other.map_err(anyhow::Error::msg)?,
        }
    }
    let mut out = Vec::new();
    for name in play.strategy.split(',').map(str::trim) {
        out.extend(match name {
            "planner" => vec![Strategy::Planner(params.clone())],
            "baseline" => vec![Strategy::Baseline],
            "previous" => vec![Strategy::Previous],
            "lookahead" => vec![Strategy::Lookahead(params.clone(), budget)],
            "ceiling" => vec![Strategy::Ceiling(params.clone(), exact)],
            "both" => vec![Strategy::Baseline, Strategy::Planner(params.clone())],
            "all" => vec![
                Strategy::Baseline,
                Strategy::Previous,
                Strategy::Planner(params.clone()),
            ],
            other => anyhow::bail!(
                "--strategy '{other}': use planner, baseline, previous, lookahead, ceiling, both or all, or a comma-separated list"
            ),
        });
    }
    Ok(out)
}

/// The weapon of game `i`: the one asked for, or the four starting weapons in turn.
pub(crate) fn weapon_of(play: &PlayArgs, i: u32) -> String {
    const ALL: [&str; 4] = ["Wand", "Book", "Short Sword", "Club"];
    if play.weapon.eq_ignore_ascii_case("all") {
        ALL[(i % 4) as usize].to_string()
    } else {
        play.weapon.clone()
    }
}

/// `play`: the chosen strategies game after game on an in-memory sim world, with the narration
/// (or JSON lines) and the summary.
pub(crate) async fn play(args: &SettingsArgs, play: PlayArgs) -> anyhow::Result<()> {
    let (settings, _) = args.load()?;
    anyhow::ensure!(
        settings.is_sim(),
        "play runs the built-in agent on the embedded sim chain; use --profile sim (the default)"
    );
    let seed = play.seed.unwrap_or_else(rand_seed);
    let strategies = strategies(&play)?;
    if !play.json {
        println!("seed {seed} (replay with --seed {seed})");
    }
    let mut summaries = Vec::new();
    for strategy in strategies {
        // A fresh in-memory world per strategy (never the user's state file): the same master
        // seed gives game i the same hidden seed under every strategy.
        let sim = Arc::new(SimChain::with_randomness(
            settings.sim.engine_settings(),
            settings.sim.first_adventurer_id,
            SimRandomness::Master(seed),
        ));
        let agent = Agent::connect(server_over(sim.clone(), &settings)).await?;
        let mut games = Vec::new();
        for i in 0..play.games {
            let opts = AgentOptions {
                weapon: weapon_of(&play, i),
                max_actions: play.max_actions,
                strategy: strategy.clone(),
            };
            let story = !play.quiet && !play.json;
            let mut narrate = |line: String| {
                if story {
                    println!("{line}");
                }
            };
            let s = agent.play(Some(&sim), &opts, &mut narrate).await?;
            if play.json {
                let mut line = serde_json::to_value(&s)?;
                line["strategy"] = strategy.name().into();
                line["game"] = i.into();
                line["weapon"] = opts.weapon.clone().into();
                line["seed"] = seed.into();
                println!("{line}");
            } else if play.quiet {
                println!(
                    "adventurer {} ({}): level {}, {} xp, {}",
                    s.adventurer_id,
                    opts.weapon,
                    s.level,
                    s.xp,
                    s.killed_by
                        .as_deref()
                        .unwrap_or("stopped at the action cap")
                );
            }
            games.push(s);
        }
        agent.close().await;
        summaries.push(Summary::of(strategy.name(), &games));
    }
    for s in &summaries {
        if play.json {
            let mut line = serde_json::json!({ "summary": s });
            line["summary"]["seed"] = seed.into();
            if play.decision_cost {
                line["summary"]["decision_us"] = serde_json::to_value(s.decision_us)?;
            }
            println!("{line}");
        } else if s.games > 1 {
            if play.decision_cost {
                println!("{}; {}", s.line(), s.decision_cost());
            } else {
                println!("{}", s.line());
            }
            println!("levels reached ({}):", s.strategy);
            for bar in s.histogram() {
                println!("{bar}");
            }
        }
    }
    Ok(())
}

/// A master seed from the clock and the process id, for runs without `--seed` (printed so they
/// can be replayed).
pub(crate) fn rand_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    nanos ^ (u64::from(std::process::id()) << 32)
}
