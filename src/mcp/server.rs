//! The MCP server: its state, how it is built, and the handler that routes MCP requests (tools,
//! resources, prompts, logging). The tools live by kind: `game_tools` (new game, the game actions,
//! the adventurer read), `tx_tools` (transactions, wallet), `torii_tools`, `advisor_tools`; their
//! results' envelopes in `envelopes`.

use std::sync::Arc;
use std::time::Duration;

use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::model::{Implementation, ServerCapabilities, ServerConfig};
use rmcp::service::RequestContext;
use rmcp::{RoleServer, ServerHandler, tool_handler};

use super::backend::GameBackend;
use super::compact_result::Rendering;
use super::replay::ReplayCache;
use super::shown_memory::ShownMemory;
use crate::game::compact::Detail;

/// Server-wide settings the tools need.
#[derive(Debug, Clone)]
pub struct ServerOptions {
    /// Profile name, reported as `chain` in every result.
    pub chain: String,
    /// Reject unknown argument keys.
    pub strict: bool,
    /// Default write timeout.
    pub default_timeout: Duration,
}

/// The Loot Survivor MCP server.
#[derive(Clone)]
pub struct LsServer {
    pub(super) backend: Arc<dyn GameBackend>,
    pub(super) opts: ServerOptions,
    pub(super) indexer: super::torii_tools::Indexer,
    pub(super) replays: Arc<ReplayCache>,
    client_log: super::logging::ClientLog,
    pub(super) drain: Arc<super::drain::Drain>,
    pub(super) shown: Arc<ShownMemory>,
    advice: bool,
    pub(super) known: Arc<super::write::KnownStates>,
    pub(super) detail: Detail,
    tool_router: ToolRouter<Self>,
}

impl std::fmt::Debug for LsServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LsServer")
            .field("opts", &self.opts)
            .finish_non_exhaustive()
    }
}

impl LsServer {
    /// Keeps replay results and write intents in `journal` (durable on real chains).
    pub fn with_journal(mut self, journal: Arc<crate::chain::journal::Journal>) -> Self {
        self.replays = Arc::new(ReplayCache::new(journal));
        self
    }

    /// The graceful-stop control of this server (and its clones).
    pub fn drain(&self) -> Arc<super::drain::Drain> {
        self.drain.clone()
    }

    /// A server over a game backend.
    pub fn new(backend: Arc<dyn GameBackend>, opts: ServerOptions) -> Self {
        let tool_router = Self::all_tools();
        Self {
            backend,
            opts,
            replays: Arc::new(ReplayCache::default()),
            drain: Arc::default(),
            client_log: Default::default(),
            shown: Arc::default(),
            advice: true,
            known: Arc::default(),
            detail: Detail::default(),
            indexer: Default::default(),
            tool_router,
        }
    }

    /// Every tool, with the schema settings of [`super::schema`] applied.
    fn all_tools() -> ToolRouter<Self> {
        let mut tools = Self::game_tool_router()
            + Self::tx_tool_router()
            + Self::torii_tool_router()
            + Self::advisor_tool_router();
        for route in tools.map.values_mut() {
            super::schema::tidy_tool(&mut route.attr);
        }
        tools
    }

    /// Sets the result detail used when a call does not pass `detail` (setting `server.detail`).
    pub fn with_detail(mut self, detail: Detail) -> Self {
        self.detail = detail;
        self
    }

    /// Turns the compact results' advice line on or off (setting `server.advice`; off to measure
    /// a model's own play).
    pub fn with_advice(mut self, advice: bool) -> Self {
        self.advice = advice;
        self
    }

    /// What a compact result is rendered with on this server.
    pub(super) fn rendering(&self) -> Rendering<'_> {
        Rendering {
            memory: &self.shown,
            real_hashes: !self.backend.simulated(),
            advice: self
                .advice
                .then(|| self.backend.deterministic_rules().unwrap_or_default()),
        }
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for LsServer {
    fn get_info(&self) -> ServerConfig {
        #[allow(deprecated)]
        let capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_resources()
            .enable_prompts()
            .enable_logging()
            .build();
        ServerConfig::new(capabilities)
            .with_server_info(Implementation::new(env!("CARGO_PKG_NAME"), env!("CARGO_PKG_VERSION")))
            .with_instructions(
                "Play Loot Survivor 2 (Death Mountain) on Starknet with this server's wallet. \
                 Loop: ls_new_game (mints and starts; keep the adventurer_id) → ls_attack the starter \
                 beast → ls_upgrade your stat points → ls_buy_item (optional) → ls_explore → fight \
                 (ls_attack / ls_flee) or upgrade after level-ups, until you die. Before each move, \
                 ls_get_adventurer shows phase and legal actions. Results are compact; pass \
                 detail \"full\" for the whole shape. Writes are signed transactions; \
                 failures come back as {ok:false, error:{code, message, hint, details}}. \
                 The rules guide is the resource ls://rules.",
            )
    }

    async fn on_custom_request(
        &self,
        request: rmcp::model::CustomRequest,
        _context: RequestContext<RoleServer>,
    ) -> Result<rmcp::model::CustomResult, rmcp::ErrorData> {
        Err(super::malformed::answer(&request))
    }

    #[allow(deprecated)]
    async fn set_level(
        &self,
        request: rmcp::model::SetLevelRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), rmcp::ErrorData> {
        self.client_log
            .set_level(request.level, context.peer.clone());
        tracing::info!(level = ?request.level, "client log level set");
        Ok(())
    }

    async fn list_resources(
        &self,
        _request: Option<rmcp::model::PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<rmcp::model::ListResourcesResult, rmcp::ErrorData> {
        Ok(super::resources::list())
    }

    async fn list_resource_templates(
        &self,
        _request: Option<rmcp::model::PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<rmcp::model::ListResourceTemplatesResult, rmcp::ErrorData> {
        Ok(super::resources::templates())
    }

    async fn read_resource(
        &self,
        request: rmcp::model::ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<rmcp::model::ReadResourceResponse, rmcp::ErrorData> {
        Ok(self.read_resource_uri(&request.uri).await?.into())
    }

    async fn list_prompts(
        &self,
        _request: Option<rmcp::model::PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<rmcp::model::ListPromptsResult, rmcp::ErrorData> {
        Ok(super::prompts::list())
    }

    async fn get_prompt(
        &self,
        request: rmcp::model::GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<rmcp::model::GetPromptResponse, rmcp::ErrorData> {
        Ok(super::prompts::get(&request.name, request.arguments.as_ref())?.into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tool_has_schemas_and_annotations() {
        let tools = LsServer::all_tools().list_all();
        assert_eq!(tools.len(), 17);
        for t in tools {
            let title = t.title.as_deref().unwrap_or_default();
            assert!(!title.is_empty(), "{} has no top-level title", t.name);
            let input = serde_json::to_string(&t.input_schema).unwrap();
            assert!(!input.contains("\"format\""), "{}: {input}", t.name);
            assert!(!input.contains("\"null\""), "{}: {input}", t.name);
            assert!(!input.contains("$ref"), "{}: {input}", t.name);
            let output = serde_json::to_string(t.output_schema.as_ref().unwrap()).unwrap();
            assert!(!output.contains("\"format\""), "{}: {output}", t.name);
            assert!(!output.contains("$ref"), "{}: {output}", t.name);
            assert!(
                t.description.as_ref().is_some_and(|d| d.len() > 40),
                "{}",
                t.name
            );
            assert!(t.output_schema.is_some(), "{} has no output schema", t.name);
            let ann = t.annotations.as_ref().expect("annotations");
            let read_only = ann.read_only_hint == Some(true);
            let is_read = t.name.starts_with("ls_get_")
                || t.name.starts_with("ls_list_")
                || t.name == "ls_lookup"
                || t.name == "ls_wallet"
                || t.name == "ls_battle_preview"
                || t.name == "ls_advise";
            assert_eq!(read_only, is_read, "{}", t.name);
            assert_eq!(
                t.input_schema.get("type"),
                Some(&serde_json::json!("object")),
                "{}",
                t.name
            );
            if t.name != "ls_wallet" {
                assert!(t.input_schema.contains_key("properties"), "{}", t.name);
            }
        }
    }
}
