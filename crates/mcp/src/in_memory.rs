//! The MCP protocol without a process: a server over a fresh practice world, served on one end of
//! an in-memory pipe with a client on the other. The built-in agent, benchmarks and tests use it,
//! so they all speak real MCP to the real tool surface.

use std::sync::Arc;
use std::time::Duration;

use rmcp::service::{ClientInitializeError, RoleClient, RunningService};
use rmcp::{ClientHandler, ServiceExt};

use super::server::{LsServer, ServerOptions};
use game::engine::EngineSettings;
use sim::SimChain;

impl LsServer {
    /// A server over a fresh in-memory practice world (deterministic, default rules, first
    /// adventurer 1), labelled chain `sim`; `strict` rejects unknown argument keys.
    pub fn practice(strict: bool) -> Self {
        Self::on_sim(SimChain::new(EngineSettings::default(), 1), strict)
    }

    /// A server over `sim` (for instance a world with hidden seeds), labelled chain `sim`.
    pub fn on_sim(sim: SimChain, strict: bool) -> Self {
        LsServer::new(
            Arc::new(sim),
            ServerOptions {
                chain: "sim".into(),
                strict,
                default_timeout: Duration::from_secs(5),
            },
        )
    }
}

/// Serves `server` on one end of an in-memory pipe and connects `handler` as the client on the
/// other; the server runs until the client goes away.
pub async fn connect_in_memory<H: ClientHandler>(
    server: LsServer,
    handler: H,
) -> Result<RunningService<RoleClient, H>, ClientInitializeError> {
    let (client_io, server_io) = tokio::io::duplex(1 << 20);
    tokio::spawn(async move {
        if let Ok(running) = server.serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    handler.serve(client_io).await
}
