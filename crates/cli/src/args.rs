//! The command line's arguments: subcommands, their options, and the settings options every
//! subcommand shares (profile, RPC URL, config folder, overrides).

use std::collections::HashMap;
use std::path::PathBuf;

use crate::config::{LoadOptions, Settings};
use anyhow::Context as _;
use clap::{Args as ClapArgs, Parser, Subcommand};

#[derive(Parser, Debug)]
#[command(
    name = "loot-survivor-mcp",
    version,
    about = "Play Loot Survivor 2 on Starknet through MCP"
)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Option<Command>,
    #[command(flatten)]
    pub(crate) settings: SettingsArgs,
}

#[derive(Subcommand, Debug)]
pub(crate) enum Command {
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
    /// A Cartridge Controller session: the player's own account, signed for with a session key
    /// the player approves in the Cartridge keychain.
    #[command(subcommand)]
    Session(SessionCommand),
    /// Check the profile's chain against the server's bindings: the node, every contract's
    /// entrypoints, the generation the game address speaks and (v2) the Denshokan API. Exit
    /// code 1 when something differs, 2 when something did not answer. Needs no wallet.
    Check(CheckArgs),
}

#[derive(ClapArgs, Debug, Default)]
pub(crate) struct CheckArgs {
    /// Print the report as JSON instead of a table.
    #[arg(long)]
    pub(crate) json: bool,
    /// Keep the VRF rule found (v2) as the profile's `deployment.vrf_source`, in the data
    /// directory's `settled/<profile>.toml`.
    #[arg(long)]
    pub(crate) settle_vrf: bool,
}

#[derive(Subcommand, Debug)]
pub(crate) enum SessionCommand {
    /// Make a session key, print the keychain URL that approves it, wait for the approval and
    /// check it on chain. The key is stored encrypted (password: LS_KEYSTORE_PASSWORD or
    /// wallet.keystore_password_file).
    New(Box<SessionNewArgs>),
    /// Show the stored session and what the chain says about it.
    Status,
    /// Destroy the stored session key (and print how the owner revokes it on chain).
    Revoke,
}

#[derive(ClapArgs, Debug)]
pub(crate) struct SessionNewArgs {
    /// How long the session lasts: 90s, 10m, 2h, 7d, 1w (1 minute to 365 days).
    #[arg(long, default_value = "7d")]
    pub(crate) expires: String,
    /// The Cartridge keychain.
    #[arg(long, default_value = wallet::session::approval::DEFAULT_KEYCHAIN_URL)]
    pub(crate) keychain_url: url::Url,
    /// Cartridge's GraphQL API, polled for the approval.
    #[arg(long, default_value = wallet::session::approval::DEFAULT_API_URL)]
    pub(crate) api_url: url::Url,
    /// Do not try to open a browser (print the URL only).
    #[arg(long)]
    pub(crate) no_browser: bool,
    /// How long to wait for the approval.
    #[arg(long, default_value = "10m")]
    pub(crate) wait: String,
    /// After the approval, how long to wait for the chain to show the session registered.
    #[arg(long, default_value = "90s")]
    pub(crate) chain_wait: String,
}

#[derive(Subcommand, Debug)]
pub(crate) enum TokenCommand {
    /// Make a new random token: prints the token (give it to the agent's host) and the token-file
    /// entry holding only its SHA-256 (add it to http.tokens_file).
    New {
        /// The agent identity the token names (letters, digits, '-', '_', '.').
        #[arg(long)]
        identity: String,
    },
}

#[derive(ClapArgs, Debug)]
pub(crate) struct PlayArgs {
    /// How many games to play (per strategy).
    #[arg(long, default_value_t = 1)]
    pub(crate) games: u32,
    /// Starting weapon: Wand, Book, Short Sword or Club (or its id), or `all` to rotate them.
    #[arg(long, default_value = "Short Sword")]
    pub(crate) weapon: String,
    /// Most game actions per game before stopping.
    #[arg(long, default_value_t = 3000)]
    pub(crate) max_actions: u32,
    /// Master seed of the games' hidden randomness (default: random, printed): the same seed
    /// gives every strategy the same dungeons.
    #[arg(long)]
    pub(crate) seed: Option<u64>,
    /// planner (the default), baseline (the first agent), previous (the planner before its last
    /// tuning), lookahead (the planner with rollouts), ceiling (research only: cheats with the
    /// hidden seed), both (baseline and planner) or all three, or a comma-separated list
    /// (`planner,lookahead`), one after the other on the same seeds, summaries side by side.
    #[arg(long, default_value = "planner")]
    pub(crate) strategy: String,
    /// Print JSON lines (one per game, then one summary per strategy) instead of the story.
    #[arg(long)]
    pub(crate) json: bool,
    /// Print only each game's result.
    #[arg(long)]
    pub(crate) quiet: bool,
    /// Also print the time each decision took (median and p90; in the JSON summary as
    /// `decision_us`), which varies from run to run.
    #[arg(long)]
    pub(crate) decision_cost: bool,
    /// A planner parameter as name=value (self-play tuning), e.g. --param fight_from=0.7, or a
    /// lookahead budget figure (look_min, look_max, look_z, look_levels, look_steps, look_death,
    /// look_sure; look_battle, look_stats, look_gold at 0 or 1), or the ceiling's horizon
    /// (ceil_levels, ceil_steps, ceil_death; ceil_battle, ceil_stats, ceil_gold).
    #[arg(long = "param", value_name = "NAME=VALUE")]
    pub(crate) params: Vec<String>,
}

#[derive(ClapArgs, Debug, Default)]
pub(crate) struct ServeArgs {
    /// Before serving, start starknet-devnet on the profile's port if it is not running
    /// (stopped when the server exits) and deploy the practice world if needed.
    #[arg(long)]
    pub(crate) with_devnet: bool,
    /// On the sim profile, discard the saved world and start over (same as sim.fresh = true).
    #[arg(long)]
    pub(crate) fresh: bool,
    /// Serve MCP over streamable HTTP at ADDR (default 127.0.0.1:8080) instead of stdio, for many
    /// agents at once; any address but loopback needs bearer tokens ([http] settings).
    #[arg(long, value_name = "ADDR", num_args = 0..=1, default_missing_value = "127.0.0.1:8080")]
    pub(crate) http: Option<std::net::SocketAddr>,
    /// While serving MCP on stdio, also serve the live page (`/watch`) at ADDR (default
    /// 127.0.0.1:8081, loopback only); its URL is printed on stderr.
    #[arg(long, value_name = "ADDR", num_args = 0..=1, default_missing_value = "127.0.0.1:8081", conflicts_with = "http")]
    pub(crate) watch: Option<std::net::SocketAddr>,
}

#[derive(Subcommand, Debug)]
pub(crate) enum DevnetCommand {
    /// Start starknet-devnet (seed 0) if none answers, deploy the practice world, and keep
    /// running until Ctrl-C.
    Up {
        /// Port on 127.0.0.1.
        #[arg(long, default_value_t = 5050)]
        port: u16,
    },
    /// Declare and deploy the practice world on the profile's node (`--rpc-url`, or the
    /// profile's chain.rpc_url: devnet, katana, testnet) and write its Dojo manifest.
    Deploy {
        /// Where to write the manifest (default: the profile's `chain.manifest`; for v2, the
        /// deployment file `devnet/v2.json` in the data directory).
        #[arg(long)]
        out: Option<PathBuf>,
        /// Which game generation: v1 (the practice world, the default) or v2 (the v2 practice
        /// world: GameCore, GameToken, Denshokan and a VRF stand-in).
        #[arg(long, value_enum, default_value_t = DeployGeneration::V1)]
        generation: DeployGeneration,
        /// The v2 GameCore's randomness: off (the default), nonce or salt (v2 only).
        #[arg(long, value_name = "MODE")]
        vrf: Option<deploy::v2::VrfMode>,
        /// A v2 world shaped like what only a live read settles on mainnet.
        #[command(flatten)]
        variant: VariantArgs,
    },
}

/// How `devnet deploy --generation v2` shapes a variant world.
#[derive(ClapArgs, Debug, Default, Clone)]
pub(crate) struct VariantArgs {
    /// The game settings that exist, each with its randomness, as ID:MODE pairs (e.g.
    /// `1:salt,2:off`); settings 0 exists only when listed. Default: settings 0 in --vrf's mode.
    #[arg(long, value_name = "ID:MODE", value_delimiter = ',')]
    pub(crate) settings: Vec<deploy::v2::SettingsMode>,
    /// Which contract calls the VRF's consume_random: game (GameCore, the default) or
    /// subsystem (a randomness subsystem contract deployed beside it).
    #[arg(long, value_enum, value_name = "WHO", default_value_t = VrfConsumer::Game)]
    pub(crate) vrf_consumer: VrfConsumer,
}

/// Which contract consumes a v2 practice world's randomness.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum VrfConsumer {
    /// GameCore itself.
    #[default]
    Game,
    /// A randomness subsystem contract.
    Subsystem,
}

impl VariantArgs {
    /// The variant these flags describe.
    pub(crate) fn variant(&self) -> deploy::v2::V2Variant {
        deploy::v2::V2Variant {
            settings: self.settings.clone(),
            subsystem_consumer: self.vrf_consumer == VrfConsumer::Subsystem,
        }
    }
}

/// The game generation `devnet deploy` deploys.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum DeployGeneration {
    /// The practice world (Death Mountain V1's interface).
    V1,
    /// The v2 practice world (docs/practice-v2.md).
    V2,
}

#[derive(ClapArgs, Debug, Default, Clone)]
pub(crate) struct SettingsArgs {
    /// Chain profile: sim (the default), devnet, katana, sepolia, mainnet or mainnet-v1 (or
    /// LS_CHAIN).
    #[arg(long, global = true)]
    pub(crate) profile: Option<String>,
    /// Override the node URL (or STARKNET_RPC_URL); `--rpc` is the same option.
    #[arg(long, global = true, visible_alias = "rpc")]
    pub(crate) rpc_url: Option<String>,
    /// Directory with default.toml / <profile>.toml layered over the built-in profiles.
    #[arg(long, global = true)]
    pub(crate) config_dir: Option<PathBuf>,
    /// Reject unknown tool argument keys.
    #[arg(long, global = true)]
    pub(crate) strict: bool,
    /// Any setting as key=value (e.g. --set tx.timeout_ms=60000).
    #[arg(long = "set", value_name = "KEY=VALUE", global = true)]
    pub(crate) set: Vec<String>,
}

impl SettingsArgs {
    pub(crate) fn load(&self) -> anyhow::Result<(Settings, HashMap<String, String>)> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;
    use deploy::v2::VrfMode;

    fn deploy_args(extra: &[&str]) -> Result<(DeployGeneration, Option<VrfMode>), clap::Error> {
        let base = ["loot-survivor-mcp", "devnet", "deploy"];
        let cli = Cli::try_parse_from(base.iter().chain(extra))?;
        match cli.command {
            Some(Command::Devnet(DevnetCommand::Deploy {
                generation, vrf, ..
            })) => Ok((generation, vrf)),
            other => panic!("not devnet deploy: {other:?}"),
        }
    }

    #[test]
    fn devnet_deploy_takes_a_generation_and_a_vrf_mode() {
        assert_eq!(deploy_args(&[]).unwrap(), (DeployGeneration::V1, None));
        let v2 = deploy_args(&["--generation", "v2", "--vrf", "salt"]).unwrap();
        assert_eq!(v2, (DeployGeneration::V2, Some(VrfMode::Salt)));
        assert!(deploy_args(&["--vrf", "cartridge"]).is_err());
        assert!(deploy_args(&["--generation", "v3"]).is_err());
    }

    #[test]
    fn devnet_deploy_takes_the_node_from_the_shared_rpc_url_or_its_alias() {
        let url = |args: &[&str]| {
            let cli = Cli::try_parse_from(args).unwrap();
            assert!(matches!(
                cli.command,
                Some(Command::Devnet(DevnetCommand::Deploy { .. }))
            ));
            cli.settings.rpc_url
        };
        let at = Some("http://127.0.0.1:6060/".to_string());
        let deploy = ["loot-survivor-mcp", "devnet", "deploy"];
        for flag in ["--rpc-url", "--rpc"] {
            let after = [&deploy[..], &[flag, "http://127.0.0.1:6060/"]].concat();
            assert_eq!(url(&after), at, "{flag} after the subcommand");
            let before = [
                &["loot-survivor-mcp", flag, "http://127.0.0.1:6060/"],
                &deploy[1..],
            ]
            .concat();
            assert_eq!(url(&before), at, "{flag} before the subcommand");
        }
        assert_eq!(url(&deploy), None, "the profile's chain.rpc_url then");
    }

    #[test]
    fn check_takes_json_and_the_shared_profile() {
        let cli = Cli::try_parse_from([
            "loot-survivor-mcp",
            "check",
            "--json",
            "--profile",
            "mainnet",
        ])
        .unwrap();
        assert_eq!(cli.settings.profile.as_deref(), Some("mainnet"));
        assert!(matches!(
            cli.command,
            Some(Command::Check(CheckArgs { json: true, .. }))
        ));
        assert!(Cli::try_parse_from(["loot-survivor-mcp", "check", "--wallet"]).is_err());
    }
}
