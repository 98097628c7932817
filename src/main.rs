//! `loot-survivor-mcp`: the MCP server (stdio) and the devnet helpers.

use std::collections::HashMap;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context as _;
use clap::{Args as ClapArgs, Parser, Subcommand};
use loot_survivor_mcp::agent::{Agent, AgentOptions, Params, Strategy, Summary};
use loot_survivor_mcp::chain::deploy::{Artifacts, deploy_practice_world};
use loot_survivor_mcp::chain::manifest::{GameAddresses, read_manifest};
use loot_survivor_mcp::chain::sim::{SimChain, SimRandomness};
use loot_survivor_mcp::chain::{ChainClient, ConnectOptions};
use loot_survivor_mcp::config::{self, LoadOptions, Settings, parse_felt};
use loot_survivor_mcp::devnet::{Devnet, is_alive};
use loot_survivor_mcp::mcp::{LsServer, ServerOptions};
use loot_survivor_mcp::torii::{ToriiClient, ToriiOptions};
use loot_survivor_mcp::wallet::{PolicyGuard, SecretSigner, load_signer};
use rmcp::ServiceExt;

#[derive(Parser, Debug)]
#[command(
    name = "loot-survivor-mcp",
    version,
    about = "Play Loot Survivor 2 on Starknet through MCP"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    settings: SettingsArgs,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Serve MCP over stdio (the default).
    Serve(ServeArgs),
    /// Local devnet helpers.
    #[command(subcommand)]
    Devnet(DevnetCommand),
    /// Let the built-in agent play through the MCP tools and narrate (sim profile by default).
    Play(PlayArgs),
}

#[derive(ClapArgs, Debug)]
struct PlayArgs {
    /// How many games to play (per strategy).
    #[arg(long, default_value_t = 1)]
    games: u32,
    /// Starting weapon: Wand, Book, Short Sword or Club (or its id), or `all` to rotate them.
    #[arg(long, default_value = "Short Sword")]
    weapon: String,
    /// Most game actions per game before stopping.
    #[arg(long, default_value_t = 3000)]
    max_actions: u32,
    /// Master seed of the games' hidden randomness (default: random, printed): the same seed
    /// gives every strategy the same dungeons.
    #[arg(long)]
    seed: Option<u64>,
    /// planner (the default), baseline (the first agent), or both (one after the other on the
    /// same seeds, summaries side by side).
    #[arg(long, default_value = "planner")]
    strategy: String,
    /// Print JSON lines (one per game, then one summary per strategy) instead of the story.
    #[arg(long)]
    json: bool,
    /// Print only each game's result.
    #[arg(long)]
    quiet: bool,
    /// A planner parameter as name=value (self-play tuning), e.g. --param fight_from=0.7.
    #[arg(long = "param", value_name = "NAME=VALUE")]
    params: Vec<String>,
}

#[derive(ClapArgs, Debug, Default)]
struct ServeArgs {
    /// Before serving, start starknet-devnet on the profile's port if it is not running
    /// (stopped when the server exits) and deploy the practice world if needed.
    #[arg(long)]
    with_devnet: bool,
}

#[derive(Subcommand, Debug)]
enum DevnetCommand {
    /// Start starknet-devnet (seed 0) if none answers, deploy the practice world, and keep
    /// running until Ctrl-C.
    Up {
        /// Port on 127.0.0.1.
        #[arg(long, default_value_t = 5050)]
        port: u16,
    },
    /// Declare and deploy the practice world on any Starknet RPC (devnet, katana, testnet) and
    /// write its Dojo manifest.
    Deploy {
        /// The node's JSON-RPC URL.
        #[arg(long)]
        rpc: url::Url,
        /// Where to write the manifest (default: the profile's `chain.manifest`).
        #[arg(long)]
        out: Option<PathBuf>,
    },
}

#[derive(ClapArgs, Debug, Default, Clone)]
struct SettingsArgs {
    /// Chain profile: sim (the default), devnet, katana, sepolia or mainnet (or LS_CHAIN).
    #[arg(long, global = true)]
    profile: Option<String>,
    /// Override the node URL (or STARKNET_RPC_URL).
    #[arg(long, global = true)]
    rpc_url: Option<String>,
    /// Directory with default.toml / <profile>.toml layered over the built-in profiles.
    #[arg(long, global = true)]
    config_dir: Option<PathBuf>,
    /// Reject unknown tool argument keys.
    #[arg(long, global = true)]
    strict: bool,
    /// Any setting as key=value (e.g. --set tx.timeout_ms=60000).
    #[arg(long = "set", value_name = "KEY=VALUE", global = true)]
    set: Vec<String>,
}

impl SettingsArgs {
    fn load(&self) -> anyhow::Result<(Settings, HashMap<String, String>)> {
        let mut opts = LoadOptions::from_process_env();
        opts.profile = self.profile.clone();
        opts.config_dir = self.config_dir.clone();
        for kv in &self.set {
            let (k, v) = kv
                .split_once('=')
                .with_context(|| format!("--set expects KEY=VALUE, got '{kv}'"))?;
            opts.overrides
                .push((k.trim().to_string(), v.trim().to_string()));
        }
        if let Some(url) = &self.rpc_url {
            opts.overrides.push(("chain.rpc_url".into(), url.clone()));
        }
        if self.strict {
            opts.overrides.push(("server.strict".into(), "true".into()));
        }
        let settings = Settings::load(&opts)?;
        Ok((settings, opts.env))
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    // `play` prints the game on stdout; its in-process MCP traffic is not worth logging.
    let default_filter = match cli.command {
        Some(Command::Play(_)) => "warn",
        _ => "info",
    };
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(default_filter)),
        )
        .init();
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: cannot start the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(run(cli)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

async fn run(cli: Cli) -> anyhow::Result<()> {
    let devnet_by_default = || {
        let mut s = cli.settings.clone();
        if s.profile.is_none() && std::env::var_os("LS_CHAIN").is_none() {
            s.profile = Some("devnet".into());
        }
        s
    };
    match cli.command.unwrap_or(Command::Serve(ServeArgs::default())) {
        Command::Serve(args) if args.with_devnet => serve(&devnet_by_default(), args).await,
        Command::Serve(args) => serve(&cli.settings, args).await,
        Command::Devnet(DevnetCommand::Up { port }) => devnet_up(&devnet_by_default(), port).await,
        Command::Devnet(DevnetCommand::Deploy { rpc, out }) => {
            let (settings, env) = devnet_by_default().load()?;
            deploy(&settings, &env, rpc, out).await
        }
        Command::Play(args) => play(&cli.settings, args).await,
    }
}

/// The MCP server over a sim chain.
fn server_over(sim: SimChain, settings: &Settings) -> LsServer {
    let account = sim.account_address();
    LsServer::new(
        Arc::new(sim),
        ServerOptions {
            chain: settings.profile.clone(),
            strict: settings.server.strict,
            default_timeout: Duration::from_millis(settings.tx.timeout_ms),
        },
    )
    .with_wallet(account)
}

/// The server over the embedded practice chain: no network, no key.
fn sim_server(settings: &Settings) -> LsServer {
    let sim = SimChain::with_randomness(
        settings.sim.engine_settings(),
        settings.sim.first_adventurer_id,
        settings.sim.randomness(),
    );
    server_over(sim, settings)
}

/// The strategies `play --strategy` names.
fn strategies(play: &PlayArgs) -> anyhow::Result<Vec<Strategy>> {
    let mut params = Params::default();
    for kv in &play.params {
        let (k, v) = kv
            .split_once('=')
            .with_context(|| format!("--param expects NAME=VALUE, got '{kv}'"))?;
        params.set(k.trim(), v.trim()).map_err(anyhow::Error::msg)?;
    }
    Ok(match play.strategy.as_str() {
        "planner" => vec![Strategy::Planner(params)],
        "baseline" => vec![Strategy::Baseline],
        "both" => vec![Strategy::Baseline, Strategy::Planner(params)],
        other => anyhow::bail!("--strategy '{other}': use planner, baseline or both"),
    })
}

/// The weapon of game `i`: the one asked for, or the four starting weapons in turn.
fn weapon_of(play: &PlayArgs, i: u32) -> String {
    const ALL: [&str; 4] = ["Wand", "Book", "Short Sword", "Club"];
    if play.weapon.eq_ignore_ascii_case("all") {
        ALL[(i % 4) as usize].to_string()
    } else {
        play.weapon.clone()
    }
}

async fn play(args: &SettingsArgs, play: PlayArgs) -> anyhow::Result<()> {
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
        let sim = SimChain::with_randomness(
            settings.sim.engine_settings(),
            settings.sim.first_adventurer_id,
            SimRandomness::Master(seed),
        );
        let agent = Agent::connect(server_over(sim, &settings)).await?;
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
            let s = agent.play(&opts, &mut narrate).await?;
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
            println!("{line}");
        } else if s.games > 1 {
            println!("{}", s.line());
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
fn rand_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    nanos ^ (u64::from(std::process::id()) << 32)
}

fn account_and_signer(
    settings: &Settings,
    env: &HashMap<String, String>,
) -> anyhow::Result<(starknet::core::types::Felt, Arc<SecretSigner>)> {
    let address = settings
        .wallet
        .account_address
        .as_deref()
        .context("no account address: set LS_ACCOUNT_ADDRESS or wallet.account_address")?;
    let address = parse_felt(address).map_err(anyhow::Error::msg)?;
    let signer = load_signer(settings, env)?;
    Ok((address, Arc::new(signer)))
}

async fn deploy(
    settings: &Settings,
    env: &HashMap<String, String>,
    rpc: url::Url,
    out: Option<PathBuf>,
) -> anyhow::Result<()> {
    let (address, signer) = account_and_signer(settings, env)?;
    let out = out
        .or_else(|| settings.manifest_path())
        .context("no manifest path: pass --out")?;
    let artifacts = Artifacts::in_home(&config::project_home());
    let d = deploy_practice_world(rpc, address, signer, &artifacts, &out).await?;
    eprintln!(
        "practice world at {:#x} (class {:#x}; declared now: {}, deployed now: {}); manifest: {}",
        d.address,
        d.class_hash,
        d.declared_now,
        d.deployed_now,
        out.display()
    );
    Ok(())
}

/// Starts devnet on `port` unless one answers there; returns the child when started here.
async fn ensure_devnet(port: u16) -> anyhow::Result<(Option<Devnet>, url::Url)> {
    let url: url::Url = format!("http://127.0.0.1:{port}/").parse()?;
    if is_alive(&url).await {
        tracing::info!(%url, "using the devnet already running");
        return Ok((None, url));
    }
    let devnet = Devnet::start(port).await?;
    tracing::info!(%url, "started starknet-devnet");
    Ok((Some(devnet), url))
}

async fn devnet_up(args: &SettingsArgs, port: u16) -> anyhow::Result<()> {
    let (settings, env) = args.load()?;
    let (devnet, url) = ensure_devnet(port).await?;
    deploy(&settings, &env, url.clone(), None).await?;
    match devnet {
        Some(mut d) => {
            eprintln!("devnet running at {url}; Ctrl-C to stop");
            tokio::select! {
                _ = tokio::signal::ctrl_c() => d.stop().await,
                _ = d.wait() => anyhow::bail!("starknet-devnet exited"),
            }
        }
        None => eprintln!("devnet already running at {url}"),
    }
    Ok(())
}

async fn serve(args: &SettingsArgs, serve: ServeArgs) -> anyhow::Result<()> {
    let (settings, env) = args.load()?;
    if settings.is_sim() {
        anyhow::ensure!(!serve.with_devnet, "--with-devnet needs the devnet profile");
        tracing::info!(
            profile = %settings.profile,
            "serving MCP on stdio on the embedded practice chain (no network, no key)"
        );
        let running = sim_server(&settings)
            .serve(rmcp::transport::stdio())
            .await?;
        running.waiting().await?;
        return Ok(());
    }
    let _devnet = if serve.with_devnet {
        anyhow::ensure!(
            settings.profile == "devnet",
            "--with-devnet needs the devnet profile"
        );
        let port = settings.chain.rpc_url.port().unwrap_or(5050);
        let (devnet, url) = ensure_devnet(port).await?;
        deploy(&settings, &env, url, None).await?;
        devnet
    } else {
        None
    };
    let (account_address, signer) = account_and_signer(&settings, &env)?;
    let mut tags = match settings.manifest_path() {
        Some(p) => read_manifest(&p)?,
        None => Default::default(),
    };
    for (tag, addr) in &settings.chain.contracts {
        tags.insert(tag.clone(), parse_felt(addr).map_err(anyhow::Error::msg)?);
    }
    let addresses = GameAddresses::from_map(&tags)?;
    let policy = Arc::new(PolicyGuard::for_settings(
        &settings,
        addresses.signable_entrypoints(),
    ));
    let client = ChainClient::connect(ConnectOptions {
        rpc_url: settings.chain.rpc_url.clone(),
        request_timeout: Duration::from_millis(settings.chain.request_timeout_ms),
        chain_id: settings.expected_chain_id()?,
        spec_versions: settings.chain.spec_versions.clone(),
        addresses,
        account_address,
        signer,
        settings_id: settings.chain.settings_id,
        poll: Duration::from_millis(settings.tx.poll_interval_ms),
        fee_multiplier: settings.tx.fee_multiplier,
        policy,
        vrf: settings.chain.vrf,
    })
    .await?;
    tracing::info!(
        profile = %settings.profile,
        account = %format!("{:#x}", client.account_address()),
        "serving MCP on stdio"
    );
    let account = client.account_address();
    let torii = ToriiOptions::from_settings(&settings, client.addresses().game_token_systems)
        .and_then(|o| o.map(ToriiClient::new).transpose())
        .map_err(anyhow::Error::msg)?;
    let mut server = LsServer::new(
        Arc::new(client),
        ServerOptions {
            chain: settings.profile.clone(),
            strict: settings.server.strict,
            default_timeout: Duration::from_millis(settings.tx.timeout_ms),
        },
    )
    .with_wallet(account);
    if let Some(torii) = torii {
        tracing::info!(
            namespace = torii.short_namespace(),
            "Torii indexer configured"
        );
        server = server.with_torii(Arc::new(torii));
    }
    let running = server.serve(rmcp::transport::stdio()).await?;
    running.waiting().await?;
    Ok(())
}
