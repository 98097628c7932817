//! The agent's MCP client: an rmcp client connected in-process to an [`LsServer`] over an
//! in-memory pipe. Every call that returns adventurer state passes `"detail": "full"`, so
//! results keep the full shape.

use std::time::Duration;

use rmcp::model::CallToolRequestParams;
use rmcp::service::RunningService;
use rmcp::{RoleClient, ServiceExt};
use serde_json::Value;

use crate::mcp::LsServer;

/// Tools that return no adventurer state (and so take no `detail`).
const ADVISORS: [&str; 3] = ["ls_advise", "ls_battle_preview", "ls_lookup"];

/// A failed tool call (the agent stops on the first one: its moves should always be legal).
#[derive(Debug, thiserror::Error)]
pub enum AgentError {
    /// The MCP exchange itself failed.
    #[error("MCP error calling {tool}: {message}")]
    Protocol {
        /// Tool called.
        tool: String,
        /// What went wrong.
        message: String,
    },
    /// The tool answered with an error envelope.
    #[error("{tool} failed: {error}")]
    Tool {
        /// Tool called.
        tool: String,
        /// The error envelope.
        error: Value,
    },
}

/// An MCP client connected in-process to a server.
pub struct Agent {
    client: RunningService<RoleClient, ()>,
}

pub(crate) fn protocol(tool: &str, e: impl std::fmt::Display) -> AgentError {
    AgentError::Protocol {
        tool: tool.to_string(),
        message: e.to_string(),
    }
}

impl Agent {
    /// Serves `server` on one end of an in-memory pipe and connects a client to the other.
    pub async fn connect(server: LsServer) -> Result<Self, AgentError> {
        let (client_io, server_io) = tokio::io::duplex(1 << 20);
        tokio::spawn(async move {
            if let Ok(running) = server.serve(server_io).await {
                let _ = running.waiting().await;
            }
        });
        let client = ().serve(client_io).await.map_err(|e| protocol("initialize", e))?;
        Ok(Self { client })
    }

    /// Calls a tool (with `"detail": "full"`); returns its structured result, or the error
    /// envelope as an error.
    pub async fn call(&self, tool: &str, args: Value) -> Result<Value, AgentError> {
        let Value::Object(mut map) = args else {
            return Err(protocol(tool, "arguments must be an object"));
        };
        if !ADVISORS.contains(&tool) {
            map.entry("detail").or_insert_with(|| "full".into());
        }
        let r = self
            .client
            .call_tool(CallToolRequestParams::new(tool.to_string()).with_arguments(map))
            .await
            .map_err(|e| protocol(tool, e))?;
        let text: String = r
            .content
            .iter()
            .filter_map(|c| c.as_text().map(|t| t.text.clone()))
            .collect();
        let value = match r.structured_content {
            Some(v) => v,
            None => serde_json::from_str(&text).map_err(|e| protocol(tool, e))?,
        };
        if r.is_error == Some(true) {
            return Err(AgentError::Tool {
                tool: tool.to_string(),
                error: value,
            });
        }
        Ok(value)
    }

    /// Closes the connection.
    pub async fn close(self) {
        let client = self.client;
        let _ = tokio::time::timeout(Duration::from_secs(5), client.cancel()).await;
    }
}
