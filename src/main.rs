//! `loot-survivor-mcp`: the command line's entry (logging, runtime, dispatch); the arguments and
//! each subcommand (`serve`, `play`, `devnet`, `token`, `session`) live in their own files under `cli/`.

use std::process::ExitCode;
use std::time::Duration;

use clap::Parser;

mod cli;

use cli::args::{Cli, Command, DevnetCommand, ServeArgs, SessionCommand, TokenCommand};
use cli::devnet::{deploy, devnet_up};
use cli::play::play;
use cli::serve::serve;
use cli::session::{session_new, session_revoke, session_status};
use cli::token::new_token;

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
        Command::Session(SessionCommand::New(args)) => session_new(&cli.settings, &args).await,
        Command::Session(SessionCommand::Status) => session_status(&cli.settings).await,
        Command::Session(SessionCommand::Revoke) => session_revoke(&cli.settings).await,
    }
}
