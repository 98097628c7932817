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
use crate::present::compact::Detail;

/// The name the server gives in `initialize`: the product's, whichever crate builds it.
const SERVER_NAME: &str = "loot-survivor-mcp";

/// What the model reads once, at initialize: the game loop, how compact results read, and the
/// options every write tool shares (their input schemas do not describe them again).
const INSTRUCTIONS: &str = "Play Loot Survivor 2 (Death Mountain) on Starknet with this \
server's wallet. Loop: ls_new_game (keep the adventurer_id) → ls_attack the starter beast → \
ls_upgrade your stat points → ls_buy_item (optional) → ls_explore → fight (ls_attack / ls_flee), \
upgrading after level-ups, until you die. One call can carry a whole decision: ls_upgrade takes \
items and potions too (one transaction), and ls_upgrade, ls_buy_item, ls_attack and ls_flee take \
explore: true (then explore on until a new beast, stat points or death; the first step in the same \
transaction) with heal_below (explore step by step, buying potions to full first when health is \
below that % of max; ls_explore takes it too); ls_attack and ls_flee take flee_below (fight on \
round by round: attack while the win chance is at least that %, else flee). Each later step is a \
transaction of its own; the result lists every step's events.
Write results are compact: events (what happened, one line each); state (phase, health, \
max_health, gold, xp, level, action_count, stat_points when > 0, the beast in battle; stats, \
equipment and bag only when changed); actions (the tools you may call now, with odds); advice \
(the built-in planner's move and why); market (when it opens or changes); tx (the transaction \
hash; none on sim); adventurer_id (ls_new_game only). A field that is absent is unchanged since \
your last result; ls_get_adventurer shows everything.
adventurer_id (every tool acting on a game): your game token id, a number or a decimal or 0x \
string (ids above 2^53 only as strings, as results write them).
Options of every write tool: expected_action_count: the action_count you acted on; if the \
adventurer has moved on, the call is refused with STALE_STATE before signing (a retried action \
that already landed returns its result). confirm: how final the transaction must be before the \
answer: pre_confirmed, accepted (default) or finalized. timeout_ms: how long to wait, at most \
600000 (without it, at most 50 s); then TX_TIMEOUT gives the hash: follow it with ls_get_tx, do \
not resend. detail: compact (the usual default) or full (the whole shape with hashes, raw events \
and the full adventurer; ls_get_adventurer takes it too).
Failures are tool errors with error {code, message, hint, details}. Rules: the resource ls://rules.";

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
    /// Whether the advice line names combined moves (one call per decision).
    combined_moves: bool,
    pub(super) known: Arc<super::write::KnownStates>,
    pub(super) detail: Detail,
    /// Every session's subscriptions (shared by the sessions of one server).
    pub(crate) live: Arc<super::live::Live>,
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
    pub fn with_journal(mut self, journal: Arc<chain::journal::Journal>) -> Self {
        self.replays = Arc::new(ReplayCache::new(journal));
        self
    }

    /// Every session's subscriptions and the changes published to them (watchers included).
    pub fn live(&self) -> &Arc<super::live::Live> {
        &self.live
    }

    /// The graceful-stop control of this server (and its clones).
    pub fn drain(&self) -> Arc<super::drain::Drain> {
        self.drain.clone()
    }

    /// A server over a game backend.
    pub fn new(backend: Arc<dyn GameBackend>, opts: ServerOptions) -> Self {
        let tool_router = Self::all_tools(opts.strict);
        Self {
            backend,
            opts,
            replays: Arc::new(ReplayCache::default()),
            drain: Arc::default(),
            client_log: Default::default(),
            shown: Arc::default(),
            advice: true,
            combined_moves: true,
            known: Arc::default(),
            detail: Detail::default(),
            indexer: Default::default(),
            live: Arc::default(),
            tool_router,
        }
    }

    /// Every tool, with the schema settings of [`super::schema`] applied, those that return a
    /// state linked to the adventurer card; in strict mode its input schema says that unknown keys
    /// are refused.
    fn all_tools(strict: bool) -> ToolRouter<Self> {
        let mut tools = Self::game_tool_router()
            + Self::tx_tool_router()
            + Self::torii_tool_router()
            + Self::advisor_tool_router()
            + Self::live_tool_router();
        for route in tools.map.values_mut() {
            super::schema::tidy_tool(&mut route.attr);
            if super::DETAIL_TOOLS.contains(&route.attr.name.as_ref()) {
                crate::sheet::link_card(&mut route.attr);
            }
            if strict {
                super::schema::close_input(&mut route.attr);
            }
        }
        tools
    }

    /// Whether `tool` is one of this server's write tools: its annotations do not say it only
    /// reads. The HTTP guard counts these against an identity's transactions and fees.
    pub(crate) fn is_write_tool(&self, tool: &str) -> bool {
        self.tool_router.get(tool).is_some_and(writes)
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

    /// Whether the advice line names combined moves, one call per decision (default), or the
    /// single steps (setting `server.combined_moves`; off to compare).
    pub fn with_combined_moves(mut self, on: bool) -> Self {
        self.combined_moves = on;
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
            combined: self.combined_moves,
        }
    }
}

/// Whether `tool` writes: its annotations do not say `read_only_hint: true` (MCP's default is
/// false, so a tool without annotations counts as a write).
fn writes(tool: &rmcp::model::Tool) -> bool {
    !tool
        .annotations
        .as_ref()
        .and_then(|a| a.read_only_hint)
        .unwrap_or(false)
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for LsServer {
    fn get_info(&self) -> ServerConfig {
        #[allow(deprecated)]
        let capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_resources()
            .enable_resources_subscribe()
            .enable_prompts()
            .enable_logging()
            .build();
        // MCP Apps (SEP-1865): the card the state tools link is an app a host may draw.
        let mut apps = rmcp::model::JsonObject::new();
        apps.insert(
            "mimeTypes".into(),
            serde_json::json!([super::sheet::APP_MIME]),
        );
        let mut capabilities = capabilities;
        capabilities.extensions = Some([(super::sheet::UI_EXTENSION.to_string(), apps)].into());
        ServerConfig::new(capabilities)
            .with_server_info(Implementation::new(SERVER_NAME, env!("CARGO_PKG_VERSION")))
            .with_instructions(INSTRUCTIONS)
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

    #[allow(deprecated)]
    async fn subscribe(
        &self,
        request: rmcp::model::SubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), rmcp::ErrorData> {
        self.subscribe_uri(&request.uri, &context).await
    }

    #[allow(deprecated)]
    async fn unsubscribe(
        &self,
        request: rmcp::model::UnsubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), rmcp::ErrorData> {
        self.unsubscribe_uri(&request.uri, &context)
    }

    fn accepted_subscription_filter(
        &self,
        requested: &rmcp::model::SubscriptionFilter,
    ) -> Option<rmcp::model::SubscriptionFilter> {
        Some(self.accepted_filter(requested))
    }

    async fn listen(
        &self,
        context: rmcp::service::SubscriptionContext,
    ) -> Result<(), rmcp::ErrorData> {
        self.run_listen(context).await
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
        let tools = LsServer::all_tools(true).list_all();
        assert_eq!(tools.len(), 21);
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
                || t.name == "ls_advise"
                || t.name.contains("subscri");
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

    /// `WRITE_TOOLS` (and `DETAIL_TOOLS` built from it) names exactly the tools whose annotations
    /// make them writes, the tools the HTTP guard counts.
    #[test]
    fn write_tools_are_the_tools_annotated_as_writes() {
        use std::collections::BTreeSet;
        let tools = LsServer::all_tools(true).list_all();
        let annotated: BTreeSet<&str> = tools
            .iter()
            .filter(|t| writes(t))
            .map(|t| t.name.as_ref())
            .collect();
        let listed: BTreeSet<&str> = crate::WRITE_TOOLS.into_iter().collect();
        let missing: Vec<_> = annotated.difference(&listed).collect();
        let extra: Vec<_> = listed.difference(&annotated).collect();
        assert!(
            missing.is_empty() && extra.is_empty(),
            "WRITE_TOOLS misses the write tools {missing:?} and names tools not annotated as \
             writes {extra:?}"
        );
        assert_eq!(listed.len(), crate::WRITE_TOOLS.len(), "a tool named twice");
        let server = LsServer::practice(true);
        for t in &tools {
            assert_eq!(
                server.is_write_tool(&t.name),
                listed.contains(t.name.as_ref())
            );
        }
        assert!(!server.is_write_tool("ls_no_such_tool"));
    }

    #[test]
    fn strict_schemas_say_unknown_keys_are_refused_and_lax_ones_do_not() {
        let closed = |t: &rmcp::model::Tool| t.input_schema.get("additionalProperties").cloned();
        for t in LsServer::all_tools(true).list_all() {
            if t.input_schema.contains_key("properties") {
                assert_eq!(closed(&t), Some(serde_json::json!(false)), "{}", t.name);
            }
        }
        for t in LsServer::all_tools(false).list_all() {
            assert_eq!(closed(&t), None, "{}", t.name);
        }
        let buy = LsServer::all_tools(true)
            .list_all()
            .into_iter()
            .find(|t| t.name == "ls_buy_item")
            .unwrap();
        let purchase = buy.input_schema["properties"]["items"]["items"]["anyOf"]
            .as_array()
            .unwrap()
            .iter()
            .find(|a| a.get("properties").is_some())
            .unwrap()
            .clone();
        assert_eq!(purchase["additionalProperties"], false, "{purchase}");
    }

    /// Most bytes of the whole `tools/list` answer (issue 28; it was 50.5 KB).
    const TOOLS_LIST_BUDGET: usize = 30 * 1024;
    /// Most bytes of all definitions (name, description, input schema): the 4,500-token budget at
    /// about 4 bytes a token (`benches/tokens.rs` counts the tokens; it was 27 KB).
    const DEFINITIONS_BUDGET: usize = 18_000;
    /// Most bytes of one write tool's definition (1.6 to 2.8 KB with the options in each).
    const WRITE_DEFINITION_BUDGET: usize = 1_500;

    #[test]
    fn tool_definitions_fit_their_budget_and_say_the_shared_options_once() {
        let tools = LsServer::all_tools(true).list_all();
        let list = serde_json::to_string(&serde_json::json!({ "tools": tools })).unwrap();
        assert!(
            list.len() <= TOOLS_LIST_BUDGET,
            "tools/list is {} bytes, over {TOOLS_LIST_BUDGET}",
            list.len()
        );
        let mut writes = 0;
        let mut definitions = 0;
        for t in &tools {
            let bytes = super::super::schema::tool_definition(t).to_string().len();
            definitions += bytes;
            let props = t.input_schema.get("properties").and_then(|p| p.as_object());
            for name in super::super::schema::SHARED_OPTIONS {
                let Some(p) = props.and_then(|p| p.get(name)) else {
                    continue;
                };
                assert!(p.get("type").is_some(), "{}.{name} untyped: {p}", t.name);
                assert!(
                    p.get("description").is_none(),
                    "{}.{name} is described again: {p}",
                    t.name
                );
            }
            if props.is_some_and(|p| p.contains_key("expected_action_count")) {
                writes += 1;
                assert!(
                    bytes <= WRITE_DEFINITION_BUDGET,
                    "{} definition is {bytes} bytes",
                    t.name
                );
            }
        }
        assert!(
            definitions <= DEFINITIONS_BUDGET,
            "the definitions are {definitions} bytes, over {DEFINITIONS_BUDGET}"
        );
        assert_eq!(writes, 9, "the nine write tools take the shared options");
        for name in super::super::schema::SHARED_OPTIONS {
            assert!(INSTRUCTIONS.contains(name), "instructions omit {name}");
        }
        for stale in [
            "legal_actions",
            "args_hint",
            "stat_upgrades_available",
            "schema_version",
        ] {
            assert!(!INSTRUCTIONS.contains(stale), "instructions name {stale}");
        }
    }
}
