//! The agent's MCP client: an rmcp client connected in-process to an [`LsServer`] over an
//! in-memory pipe. Every call to a tool that takes `detail` passes `"detail": "full"`, so
//! results keep the full shape the agent reads.

use std::time::Duration;

use rmcp::RoleClient;
use rmcp::model::{CallToolRequestParams, CallToolResult, Tool};
use rmcp::service::RunningService;
use serde_json::{Map, Value};

use chain::ChainError;
use mcp::LsServer;

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
    /// The sim chain refused an action the planner chose on the engine directly.
    #[error("the sim chain refused {action}: {source}")]
    Chain {
        /// The game-systems entrypoint.
        action: &'static str,
        /// The chain's answer.
        source: ChainError,
    },
    /// The weapon asked for is not one of the four starting weapons.
    #[error("'{0}' is not a starting weapon; choose Wand, Book, Short Sword or Club")]
    Weapon(String),
    /// The strategy plays only on the embedded sim chain's engine.
    #[error("the {0} strategy plays only on the embedded sim chain")]
    NeedsSim(&'static str),
}

/// An MCP client connected in-process to a server.
pub struct Agent {
    client: RunningService<RoleClient, ()>,
    /// The tools as `tools/list` gave them.
    tools: Vec<Tool>,
    /// Tools whose input schema has a `detail` argument.
    takes_detail: Vec<String>,
}

/// A tool result as a host hands it to the model: its text content, and whether it is an error.
pub(crate) struct TextResult {
    pub(crate) text: String,
    pub(crate) is_error: bool,
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
        let client = mcp::connect_in_memory(server, ())
            .await
            .map_err(|e| protocol("initialize", e))?;
        let tools = client
            .list_all_tools()
            .await
            .map_err(|e| protocol("tools/list", e))?;
        let takes_detail = tools
            .iter()
            .filter(|t| {
                t.input_schema
                    .get("properties")
                    .and_then(|p| p.get("detail"))
                    .is_some()
            })
            .map(|t| t.name.to_string())
            .collect();
        Ok(Self {
            client,
            tools,
            takes_detail,
        })
    }

    /// The tools as `tools/list` gave them at connection, what a host would offer its model.
    pub fn tools(&self) -> &[Tool] {
        &self.tools
    }

    /// Calls a tool (with `"detail": "full"` where the tool takes it); returns its structured
    /// result, or the error envelope as an error.
    pub async fn call(&self, tool: &str, args: Value) -> Result<Value, AgentError> {
        let Value::Object(mut map) = args else {
            return Err(protocol(tool, "arguments must be an object"));
        };
        if self.takes_detail.iter().any(|t| t == tool) {
            map.entry("detail").or_insert_with(|| "full".into());
        }
        self.exchange(tool, map).await
    }

    /// Calls a tool as a model would: the arguments as given (no `detail` added); returns the
    /// result's text content, error or not.
    pub(crate) async fn call_text(
        &self,
        tool: &str,
        args: Map<String, Value>,
    ) -> Result<TextResult, AgentError> {
        let r = self.raw_call(tool, args).await?;
        Ok(TextResult {
            text: text_of(&r),
            is_error: r.is_error == Some(true),
        })
    }

    /// One tool call: the structured content when present, else the text parsed as JSON; an
    /// error result is an error.
    async fn exchange(&self, tool: &str, args: Map<String, Value>) -> Result<Value, AgentError> {
        let mut r = self.raw_call(tool, args).await?;
        let value = match r.structured_content.take() {
            Some(v) => v,
            None => serde_json::from_str(&text_of(&r)).map_err(|e| protocol(tool, e))?,
        };
        if r.is_error == Some(true) {
            return Err(AgentError::Tool {
                tool: tool.to_string(),
                error: value,
            });
        }
        Ok(value)
    }

    /// One tool call, its result as it came.
    async fn raw_call(
        &self,
        tool: &str,
        args: Map<String, Value>,
    ) -> Result<CallToolResult, AgentError> {
        self.client
            .call_tool(CallToolRequestParams::new(tool.to_string()).with_arguments(args))
            .await
            .map_err(|e| protocol(tool, e))
    }

    /// Closes the connection.
    pub async fn close(self) {
        let client = self.client;
        let _ = tokio::time::timeout(Duration::from_secs(5), client.cancel()).await;
    }
}

/// A result's text content, its text parts joined.
fn text_of(r: &CallToolResult) -> String {
    r.content
        .iter()
        .filter_map(|c| c.as_text().map(|t| t.text.as_str()))
        .collect()
}
