//! `loot-survivor-mcp`: the command line (arguments, logging, dispatch); each subcommand (`serve`,
//! `play`, `devnet`, `token`) lives in its own file under `cli/`.

use std::collections::HashMap;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context as _;
use clap::{Args as ClapArgs, Parser, Subcommand};
use loot_survivor_mcp::chain::sim::{SimChain, SimOptions};
use loot_survivor_mcp::config::{LoadOptions, Settings};
use loot_survivor_mcp::mcp::{LsServer, ServerOptions};

mod cli;

use cli::devnet::{deploy, devnet_up};
use cli::play::play;
use cli::serve::serve;
use cli::token::new_token;

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
            let shown = loot_survivor_mcp::redact::redact(&format!("{e:#}"));
            eprintln!(
                "error: {}",
                loot_survivor_mcp::redact::hide_credentials(&shown)
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

/// The server options the settings give (profile name, strict mode, write timeout).
fn server_options(settings: &Settings) -> ServerOptions {
    ServerOptions {
        chain: settings.profile.clone(),
        strict: settings.server.strict,
        default_timeout: Duration::from_millis(settings.tx.timeout_ms),
    }
}

/// The MCP server over a sim chain.
fn server_over(sim: SimChain, settings: &Settings) -> LsServer {
    let account = sim.account_address();
    LsServer::new(Arc::new(sim), server_options(settings))
        .with_detail(settings.server.detail)
        .with_wallet(account)
}
