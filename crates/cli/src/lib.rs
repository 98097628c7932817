//! The binary layer of loot-survivor-mcp: the settings composed from each layer's options
//! (`config`), the command line's arguments and its subcommands (`serve`, `play`, `devnet`,
//! `token`, `session`, `check`), one file each. The `loot-survivor-mcp` binary calls [`main`].

mod args;
mod check;
pub mod config;
mod devnet;
mod play;
mod serve;
mod servers;
mod session;
mod signing;
mod token;

use std::process::ExitCode;
use std::time::Duration;

use clap::Parser;

use args::{Cli, Command, DevnetCommand, ServeArgs, SessionCommand, TokenCommand};
use devnet::{deploy_generation, devnet_up};
use play::play;
use serve::serve;
use session::{session_new, session_revoke, session_status};
use token::new_token;

/// Parses the command line, starts logging and the runtime, and runs the command.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    // `play` prints the game on stdout; its in-process MCP traffic is not worth logging.
    let default_filter = match cli.command {
        Some(Command::Play(_)) => "warn",
        _ => "info",
    };
    mcp::logging::init(default_filter);
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
        Ok(code) => code,
        Err(e) => {
            let shown = base::redact::redact(&format!("{e:#}"));
            eprintln!("error: {}", base::redact::hide_credentials(&shown));
            ExitCode::FAILURE
        }
    }
}

/// Runs the command; its exit code is success unless it fails, but for `check`'s own codes.
async fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    let devnet_by_default = || {
        let mut s = cli.settings.clone();
        if s.profile.is_none() && std::env::var_os("LS_CHAIN").is_none() {
            s.profile = Some("devnet".into());
        }
        s
    };
    let done = match cli.command.unwrap_or(Command::Serve(ServeArgs::default())) {
        Command::Check(args) => return check::check(&cli.settings, &args).await,
        Command::Serve(args) if args.with_devnet => serve(&devnet_by_default(), args).await,
        Command::Serve(args) => serve(&cli.settings, args).await,
        Command::Devnet(DevnetCommand::Up { port }) => devnet_up(&devnet_by_default(), port).await,
        Command::Devnet(DevnetCommand::Deploy {
            out,
            generation,
            vrf,
            variant,
        }) => {
            let (settings, env) = devnet_by_default().load()?;
            let variant = variant.variant();
            deploy_generation(&settings, &env, out, generation, vrf, &variant).await
        }
        Command::Play(args) => play(&cli.settings, args).await,
        Command::Token(TokenCommand::New { identity }) => new_token(&identity),
        Command::Session(SessionCommand::New(args)) => session_new(&cli.settings, &args).await,
        Command::Session(SessionCommand::Status) => session_status(&cli.settings).await,
        Command::Session(SessionCommand::Revoke) => session_revoke(&cli.settings).await,
    };
    done.map(|()| ExitCode::SUCCESS)
}
