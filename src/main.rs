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
use loot_survivor_mcp::chain::journal::Journal;
use loot_survivor_mcp::chain::manifest::{GameAddresses, read_manifest};
use loot_survivor_mcp::chain::sim::{SimChain, SimOptions, SimRandomness};
use loot_survivor_mcp::chain::{ChainClient, ConnectOptions};
use loot_survivor_mcp::config::{LoadOptions, Settings, parse_felt};
use loot_survivor_mcp::devnet::{Devnet, is_alive};
use loot_survivor_mcp::home;
use loot_survivor_mcp::mcp::http::{self, HttpOptions, ServedBy, TokenTable};
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
    /// Bearer tokens for `serve --http`.
    #[command(subcommand)]
    Token(TokenCommand),
}

#[derive(Subcommand, Debug)]
enum TokenCommand {
    /// Make a new random token: prints the token (give it to the agent's host) and the token-file
    /// entry holding only its SHA-256 (add it to http.tokens_file).
    New {
        /// The agent identity the token names (letters, digits, '-', '_', '.').
        #[arg(long)]
        identity: String,
    },
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
    /// planner (the default), baseline (the first agent), previous (the planner before its last
    /// tuning), both (baseline and planner) or all three, one after the other on the same seeds,
    /// summaries side by side.
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
    /// On the sim profile, discard the saved world and start over (same as sim.fresh = true).
    #[arg(long)]
    fresh: bool,
    /// Serve MCP over streamable HTTP at ADDR (default 127.0.0.1:8080) instead of stdio, for many
    /// agents at once; any address but loopback needs bearer tokens ([http] settings).
    #[arg(long, value_name = "ADDR", num_args = 0..=1, default_missing_value = "127.0.0.1:8080")]
    http: Option<std::net::SocketAddr>,
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
            let (k, v) = kv.split_once('=').context(
                "--set expects KEY=VALUE (an argument had no '='; its value is not shown)",
            )?;
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
    loot_survivor_mcp::mcp::logging::init(default_filter);
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: cannot start the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    let result = runtime.block_on(run(cli));
    // A blocking read of stdin may still be pending: do not wait for it.
    runtime.shutdown_timeout(Duration::from_millis(500));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!(
                "error: {}",
                loot_survivor_mcp::redact::redact(&format!("{e:#}"))
            );
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
        Command::Token(TokenCommand::New { identity }) => new_token(&identity),
    }
}

/// The server over the embedded practice chain: no network, no key. With `saved`, the world is
/// the one in the data directory (unless `sim.persist` is false); otherwise it lives in memory.
fn sim_server(settings: &Settings, saved: bool) -> anyhow::Result<LsServer> {
    let randomness = settings.sim.randomness();
    let state_file = if saved && settings.sim.persist {
        let dir = loot_survivor_mcp::home::profile_dir("sim")
            .context("cannot create the sim folder in the data directory (set LS_HOME)")?;
        Some(SimOptions::state_path(&dir, randomness))
    } else {
        None
    };
    let sim = SimChain::open(SimOptions {
        settings: settings.sim.engine_settings(),
        first_adventurer_id: settings.sim.first_adventurer_id,
        randomness,
        state_file,
        fresh: settings.sim.fresh,
    })?;
    if let Some(path) = sim.state_file() {
        tracing::info!(state_file = %path.display(), ?randomness, "sim world");
    }
    Ok(server_over(sim, settings))
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
    .with_detail(settings.server.detail)
    .with_wallet(account)
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
        "previous" => vec![Strategy::Previous],
        "both" => vec![Strategy::Baseline, Strategy::Planner(params)],
        "all" => vec![
            Strategy::Baseline,
            Strategy::Previous,
            Strategy::Planner(params),
        ],
        other => {
            anyhow::bail!("--strategy '{other}': use planner, baseline, previous, both or all")
        }
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
    let target = settings.deploy_target()?;
    let d =
        deploy_practice_world(rpc, address, signer, &Artifacts::embedded(), target, &out).await?;
    eprintln!(
        "practice world at {:#x} (class {:#x}; declared now: {}, deployed now: {}; UDC {:#x}, {} \
         compiled class hash); manifest: {}",
        d.address,
        d.class_hash,
        d.declared_now,
        d.deployed_now,
        d.target.udc,
        d.target.casm_hash.name(),
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
    let (mut settings, env) = args.load()?;
    if serve.http.is_none() && std::io::IsTerminal::is_terminal(&std::io::stdin()) {
        let exe = std::env::current_exe().unwrap_or_else(|_| "loot-survivor-mcp".into());
        eprint!(
            "{}",
            loot_survivor_mcp::terminal_note::terminal_note(&exe, &settings.profile)
        );
    }
    if settings.is_sim() {
        settings.sim.fresh |= serve.fresh;
        anyhow::ensure!(!serve.with_devnet, "--with-devnet needs the devnet profile");
        let owners = sim_owners_path(&settings)?;
        let limits = owners
            .as_ref()
            .map(|p| p.with_extension("").with_extension("limits.json"));
        let http = http_options(&settings, &serve, None, owners, limits, 0)?;
        tracing::info!(
            profile = %settings.profile,
            transport = if serve.http.is_some() { "http" } else { "stdio" },
            "serving MCP on the embedded practice chain (no network, no key)"
        );
        let server = sim_server(&settings, true)?;
        return match http {
            Some(http) => serve_http(server, http).await,
            None => serve_until_stopped(server, &settings).await,
        };
    }
    let devnet = if serve.with_devnet {
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
    let profile_dir = home::profile_dir(&settings.profile).context("the data directory")?;
    let http = http_options(
        &settings,
        &serve,
        Some(account_address),
        Some(profile_dir.join("http-owners.json")),
        Some(profile_dir.join("http-limits.json")),
        settings.policy.max_fee_per_tx,
    )?;
    let journal = Arc::new(Journal::open(
        &home::profile_dir(&settings.profile).context("the data directory")?,
        account_address,
    )?);
    if let Some(p) = journal.path() {
        tracing::info!(journal = %p.display(), "journal opened");
    }
    let mut tags = match settings.manifest_path() {
        Some(p) => read_manifest(&p)?,
        None => Default::default(),
    };
    for (tag, addr) in &settings.chain.contracts {
        tags.insert(tag.clone(), parse_felt(addr).map_err(anyhow::Error::msg)?);
    }
    let addresses = GameAddresses::from_map(&tags)?;
    let policy = Arc::new(
        PolicyGuard::for_settings(&settings, addresses.signable_entrypoints())
            .with_ticket_approve(addresses.ticket_approve())
            .with_log(journal.clone()),
    );
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
    .await?
    .with_journal(journal.clone())
    .with_fee_tokens(settings.fee_tokens()?)
    .with_follow(settings.tx.follow, settings.tx.ws_url.as_ref())
    .with_token_count_storage(&settings.chain.token_count_storage)?;
    let client = Arc::new(client);
    tokio::spawn({
        let client = client.clone();
        async move {
            let n = client.follow_pending().await;
            if n > 0 {
                tracing::info!(
                    n,
                    "followed the transactions left pending by an earlier run"
                );
            }
        }
    });
    tracing::info!(
        profile = %settings.profile,
        account = %format!("{:#x}", client.account_address()),
        transport = if http.is_some() { "http" } else { "stdio" },
        "serving MCP"
    );
    let account = client.account_address();
    let torii = ToriiOptions::from_settings(&settings, client.addresses())
        .and_then(|o| o.map(ToriiClient::new).transpose())
        .map_err(anyhow::Error::msg)?;
    let mut server = LsServer::new(
        client,
        ServerOptions {
            chain: settings.profile.clone(),
            strict: settings.server.strict,
            default_timeout: Duration::from_millis(settings.tx.timeout_ms),
        },
    )
    .with_detail(settings.server.detail)
    .with_wallet(account)
    .with_journal(journal.clone());
    if let Some(torii) = torii {
        tracing::info!(
            namespace = torii.short_namespace(),
            "Torii indexer configured"
        );
        server = server.with_torii(Arc::new(torii));
    }
    let served = match http {
        Some(http) => serve_http(server, http).await,
        None => serve_until_stopped(server, &settings).await,
    };
    journal.flush();
    if let Some(devnet) = devnet {
        devnet.stop().await;
        tracing::info!("stopped starknet-devnet");
    }
    served
}

/// The HTTP options of `serve --http`, checked before anything else starts: a non-loopback
/// address without tokens is refused here.
fn http_options(
    settings: &Settings,
    serve: &ServeArgs,
    account: Option<starknet::core::types::Felt>,
    owners: Option<PathBuf>,
    limits: Option<PathBuf>,
    max_fee_per_tx: u128,
) -> anyhow::Result<Option<HttpOptions>> {
    let Some(addr) = serve.http else {
        return Ok(None);
    };
    let file = settings
        .http
        .tokens_file
        .as_deref()
        .map(loot_survivor_mcp::config::resolve_home);
    let env = std::env::var(http::TOKENS_ENV).ok();
    let tokens = TokenTable::load(
        file.as_deref(),
        env.as_deref(),
        &ServedBy {
            profile: &settings.profile,
            account,
        },
        &settings.http,
    )?;
    http::check_exposure(addr, &tokens)?;
    Ok(Some(HttpOptions {
        addr,
        settings: settings.http.clone(),
        tokens,
        owners,
        limits,
        max_fee_per_tx,
        grace: Duration::from_millis(settings.server.shutdown_grace_ms),
    }))
}

/// Where `serve --http` keeps adventurer owners on sim: beside the world file (none for a world
/// kept in memory).
fn sim_owners_path(settings: &Settings) -> anyhow::Result<Option<PathBuf>> {
    if !settings.sim.persist {
        return Ok(None);
    }
    let dir = loot_survivor_mcp::home::profile_dir("sim")
        .context("cannot create the sim folder in the data directory (set LS_HOME)")?;
    let world = SimOptions::state_path(&dir, settings.sim.randomness());
    Ok(Some(world.with_extension("owners.json")))
}

/// Serves MCP over streamable HTTP until SIGTERM/SIGINT.
async fn serve_http(server: LsServer, opts: HttpOptions) -> anyhow::Result<()> {
    let signals = StopSignals::new()?;
    http::serve(server, opts, async move {
        let signal = signals.recv().await;
        tracing::info!(signal, "stop signal");
    })
    .await?;
    Ok(())
}

/// `token new`: a random 256-bit token and its token-file entry.
fn new_token(identity: &str) -> anyhow::Result<()> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).map_err(|e| anyhow::anyhow!("no randomness: {e}"))?;
    let token: String = std::iter::once("lsmcp_".to_string())
        .chain(bytes.iter().map(|b| format!("{b:02x}")))
        .collect();
    // Validated the same way the server will read it.
    TokenTable::load(
        None,
        Some(&format!("{identity}={}", http::hash_hex(&token))),
        &ServedBy {
            profile: "sim",
            account: None,
        },
        &Default::default(),
    )?;
    println!(
        "token (give it to the agent host as `Authorization: Bearer <token>`; it is not stored):"
    );
    println!("{token}");
    println!();
    println!("token-file entry (add it to the file named by http.tokens_file):");
    println!("[[token]]");
    println!("identity = \"{identity}\"");
    println!("sha256 = \"{}\"", http::hash_hex(&token));
    Ok(())
}

/// Serves MCP on stdio until stdin closes or SIGTERM/SIGINT arrives. On a signal no new write is
/// taken, and the writes in flight get `server.shutdown_grace_ms` to reach their answer.
async fn serve_until_stopped(server: LsServer, settings: &Settings) -> anyhow::Result<()> {
    let grace = Duration::from_millis(settings.server.shutdown_grace_ms);
    let drain = server.drain();
    // Registered before the handshake, so no signal falls between serving and listening.
    let signals = StopSignals::new()?;
    let running = server
        .serve(loot_survivor_mcp::mcp::transport::stdio())
        .await?;
    let cancel = running.cancellation_token();
    let stopper = tokio::spawn(async move {
        let signal = signals.recv().await;
        tracing::info!(
            signal,
            "stopping: no new writes; waiting for the writes in flight"
        );
        let left = drain.stop(grace).await;
        if left > 0 {
            tracing::warn!(
                left,
                "writes still in flight at the end of the grace period"
            );
        }
        // Let the last answers reach stdout before the transport closes.
        tokio::time::sleep(Duration::from_millis(200)).await;
        cancel.cancel();
    });
    let quit = running.waiting().await;
    stopper.abort();
    tracing::info!("MCP service stopped");
    quit?;
    Ok(())
}

/// SIGTERM and SIGINT (Ctrl-C elsewhere), listened to from creation on.
struct StopSignals {
    #[cfg(unix)]
    term: tokio::signal::unix::Signal,
    #[cfg(unix)]
    int: tokio::signal::unix::Signal,
}

impl StopSignals {
    fn new() -> std::io::Result<Self> {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{SignalKind, signal};
            Ok(Self {
                term: signal(SignalKind::terminate())?,
                int: signal(SignalKind::interrupt())?,
            })
        }
        #[cfg(not(unix))]
        Ok(Self {})
    }

    /// The name of the first stop signal received.
    async fn recv(mut self) -> &'static str {
        #[cfg(unix)]
        {
            tokio::select! {
                _ = self.int.recv() => "SIGINT",
                _ = self.term.recv() => "SIGTERM",
            }
        }
        #[cfg(not(unix))]
        {
            let _ = tokio::signal::ctrl_c().await;
            "Ctrl-C"
        }
    }
}
