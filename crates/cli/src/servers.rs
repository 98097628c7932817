//! The MCP server as the settings make it over the embedded practice chain (sim), and the server
//! options every profile shares.

use std::sync::Arc;
use std::time::Duration;

use crate::config::Settings;
use anyhow::Context as _;
use mcp::{LsServer, ServerOptions};
use sim::{SimChain, SimOptions};

/// The server over the embedded practice chain: no network, no key. With `saved`, the world is
/// the one in the data directory (unless `sim.persist` is false); otherwise it lives in memory.
pub(crate) fn sim_server(settings: &Settings, saved: bool) -> anyhow::Result<LsServer> {
    let randomness = settings.sim.randomness();
    let state_file = if saved && settings.sim.persist {
        let dir = base::home::profile_dir("sim")
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
    Ok(server_over(Arc::new(sim), settings))
}

/// The server options the settings give (profile name, strict mode, write timeout).
pub(crate) fn server_options(settings: &Settings) -> ServerOptions {
    ServerOptions {
        chain: settings.profile.clone(),
        strict: settings.server.strict,
        default_timeout: Duration::from_millis(settings.tx.timeout_ms),
    }
}

/// The MCP server over a sim chain.
pub(crate) fn server_over(sim: Arc<SimChain>, settings: &Settings) -> LsServer {
    let account = sim.account_address();
    LsServer::new(sim, server_options(settings))
        .with_detail(settings.server.detail)
        .with_advice(settings.server.advice)
        .with_combined_moves(settings.server.combined_moves)
        .with_wallet(account)
}
