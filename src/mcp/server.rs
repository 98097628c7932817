//! The MCP tool surface: one tool per game action plus the adventurer read, each with an input
//! schema, an output schema, annotations and typed errors.

use std::sync::Arc;
use std::time::Duration;

use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::{Json, Parameters};
use rmcp::model::{Implementation, ServerCapabilities, ServerConfig};
use rmcp::service::RequestContext;
use rmcp::{RoleServer, ServerHandler, tool, tool_handler, tool_router};
use schemars::JsonSchema;
use serde::Serialize;

use super::args::Args;
use super::backend::GameBackend;
use super::compact_result::{
    CompactActionResult, CompactAdventurerResult, Detailed, compact_adventurer,
};
use super::errors::from_chain;
use super::market_memory::MarketMemory;
use super::params::TxArgs;
use super::params::{
    AdventurerArgs, BattleArgs, BuyArgs, ExploreArgs, ItemsArgs, NewGameArgs, UpgradeArgs,
};
use super::replay::ReplayCache;
use crate::chain::GameAction;
use crate::error::{ErrorCode, SCHEMA_VERSION, ToolError};
use crate::game::compact::Detail;
use crate::game::events::GameEvent;
use crate::game::model::Stats;
use crate::game::view::{AdventurerView, adventurer_view};

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

/// The result of every write tool.
#[derive(Debug, Clone, Serialize, serde::Deserialize, JsonSchema)]
pub struct ActionResult {
    /// Always true (failures are tool errors).
    pub ok: bool,
    /// Version of this envelope.
    pub schema_version: String,
    /// The chain profile the action ran on.
    pub chain: String,
    /// The adventurer acted on.
    pub adventurer_id: u64,
    /// Hash of the transaction (0x-hex).
    pub tx_hash: String,
    /// Finality status reached: PRE_CONFIRMED, ACCEPTED_ON_L2 or ACCEPTED_ON_L1.
    pub status: String,
    /// Block of the transaction, when in a block.
    pub block_number: Option<u64>,
    /// Fee paid, in the fee token's smallest unit (FRI for STRK), as a decimal string.
    pub fee_paid: String,
    /// True when this is the stored result of an earlier identical call that already landed
    /// (a client retry), not a new transaction.
    pub replayed: bool,
    /// Hash of the mint transaction when `ls_new_game` minted a new adventurer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mint_tx_hash: Option<String>,
    /// The game events of the transaction, in order.
    pub events: Vec<GameEvent>,
    /// The adventurer after the transaction (same shape as `ls_get_adventurer`).
    pub adventurer: AdventurerView,
}

/// What a write tool returns: compact by default, the full [`ActionResult`] with `detail: "full"`.
pub type WriteResult = Detailed<CompactActionResult, ActionResult>;

/// What `ls_get_adventurer` returns: compact by default, the full [`AdventurerResult`] with
/// `detail: "full"`.
pub type ReadResult = Detailed<CompactAdventurerResult, AdventurerResult>;

/// The result of `ls_get_tx`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct TxResult {
    /// Always true (failures are tool errors).
    pub ok: bool,
    /// Version of this envelope.
    pub schema_version: String,
    /// The chain profile read from.
    pub chain: String,
    /// The transaction hash (0x-hex).
    pub tx_hash: String,
    /// NOT_RECEIVED, RECEIVED, CANDIDATE, PRE_CONFIRMED, ACCEPTED_ON_L2 or ACCEPTED_ON_L1.
    pub status: String,
    /// SUCCEEDED or REVERTED once executed.
    pub execution: Option<String>,
    /// The game's reason when reverted.
    pub revert_reason: Option<String>,
    /// Whether this account's servers signed it, in this run or an earlier one (the journal;
    /// then `record` says what it was).
    pub sent_by_this_server: bool,
    /// What this server recorded when it signed the transaction.
    pub record: Option<crate::chain::ledger::TxRecord>,
    /// Block of the transaction, once in a block.
    pub block_number: Option<u64>,
    /// Fee paid once executed, as a decimal string.
    pub fee_paid: Option<String>,
    /// The decoded game events once executed.
    pub events: Vec<GameEvent>,
}

/// The result of `ls_wallet`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct WalletResult {
    /// Always true (failures are tool errors).
    pub ok: bool,
    /// Version of this envelope.
    pub schema_version: String,
    /// The chain profile.
    pub chain: String,
    /// The signing account, balances, policy and spending; absent on chains without a wallet.
    pub wallet: Option<crate::chain::WalletReport>,
    /// Why there is no wallet, when there is none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// `ls_wallet` takes no arguments.
#[derive(Debug, Clone, serde::Deserialize, JsonSchema)]
pub struct NoArgs {}

/// The result of `ls_get_adventurer`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct AdventurerResult {
    /// Always true (failures are tool errors).
    pub ok: bool,
    /// Version of this envelope.
    pub schema_version: String,
    /// The chain profile read from.
    pub chain: String,
    /// The adventurer's state, phase, legal actions and market.
    pub adventurer: AdventurerView,
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
    pub(super) markets: Arc<MarketMemory>,
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

#[tool_router]
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
            markets: Arc::new(MarketMemory::default()),
            known: Arc::default(),
            detail: Detail::default(),
            indexer: Default::default(),
            tool_router,
        }
    }

    /// Every tool, with the schema settings of [`super::schema`] applied.
    fn all_tools() -> ToolRouter<Self> {
        let mut tools = Self::tool_router()
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

    #[tool(
        description = "Start a new Loot Survivor game. Without adventurer_id it obtains a new adventurer (game token) for this wallet, minted directly or with `entry` bought at the dungeon (ticket, golden_pass, free), and reads its id from the receipt, then calls start_game with the chosen starting weapon (12 Wand, 16 Book, 46 Short Sword, 76 Club; id or name). Returns the adventurer id, transaction hashes, game events and the new state: you start at 90 HP facing a weak starter beast that you must attack.",
        annotations(
            title = "New game",
            read_only_hint = false,
            destructive_hint = false,
            idempotent_hint = false,
            open_world_hint = true
        )
    )]
    async fn ls_new_game(
        &self,
        Parameters(args): Parameters<Args<NewGameArgs>>,
        ctx: RequestContext<RoleServer>,
    ) -> Result<Json<WriteResult>, ToolError> {
        let a = args.parse(self.opts.strict)?;
        let _busy = self.drain.enter()?;
        let weapon = a.weapon.resolve_starting_weapon("weapon")?;
        let entry = a.entry()?;
        let player_name = a.player_name.as_deref().map(player_name_felt).transpose()?;
        let opts = self.write_options(&a.opts, &ctx)?;
        let game = super::write::NewGame {
            detail: a.opts.detail,
            expected_action_count: a.opts.expected_action_count,
            adventurer_id: a.adventurer_id,
            weapon,
            player_name,
            entry,
        };
        self.new_game(game, opts).await
    }

    #[tool(
        description = "Explore the dungeon (only when no beast is in front of you and no stat points are pending). Each step meets a beast, an obstacle or a discovery (gold, health or loot). With till_beast = true it keeps exploring until a beast appears, a level is gained or you die. Returns the transaction, the decoded game events and the new state.",
        annotations(
            title = "Explore",
            read_only_hint = false,
            destructive_hint = true,
            idempotent_hint = false,
            open_world_hint = true
        )
    )]
    async fn ls_explore(
        &self,
        Parameters(args): Parameters<Args<ExploreArgs>>,
        ctx: RequestContext<RoleServer>,
    ) -> Result<Json<WriteResult>, ToolError> {
        let a = args.parse(self.opts.strict)?;
        let opts = self.write_options(&a.opts, &ctx)?;
        self.write(
            a.opts.detail,
            a.opts.expected_action_count,
            a.adventurer_id,
            GameAction::Explore {
                till_beast: a.till_beast,
            },
            opts,
            None,
        )
        .await
    }

    #[tool(
        description = "Attack the beast you are fighting (only in battle). The beast strikes back unless it dies. With to_the_death = true the fight repeats until the beast or you die, in one transaction. Returns the events (attack, beast_attack, defeated_beast, level_up, …) and the new state.",
        annotations(
            title = "Attack",
            read_only_hint = false,
            destructive_hint = true,
            idempotent_hint = false,
            open_world_hint = true
        )
    )]
    async fn ls_attack(
        &self,
        Parameters(args): Parameters<Args<BattleArgs>>,
        ctx: RequestContext<RoleServer>,
    ) -> Result<Json<WriteResult>, ToolError> {
        let a = args.parse(self.opts.strict)?;
        let opts = self.write_options(&a.opts, &ctx)?;
        self.write(
            a.opts.detail,
            a.opts.expected_action_count,
            a.adventurer_id,
            GameAction::Attack {
                to_the_death: a.to_the_death,
            },
            opts,
            None,
        )
        .await
    }

    #[tool(
        description = "Try to flee the beast you are fighting (only in battle, not at level 1, needs dexterity). On failure the beast attacks. With to_the_death = true it retries until you escape or die.",
        annotations(
            title = "Flee",
            read_only_hint = false,
            destructive_hint = true,
            idempotent_hint = false,
            open_world_hint = true
        )
    )]
    async fn ls_flee(
        &self,
        Parameters(args): Parameters<Args<BattleArgs>>,
        ctx: RequestContext<RoleServer>,
    ) -> Result<Json<WriteResult>, ToolError> {
        let a = args.parse(self.opts.strict)?;
        let opts = self.write_options(&a.opts, &ctx)?;
        self.write(
            a.opts.detail,
            a.opts.expected_action_count,
            a.adventurer_id,
            GameAction::Flee {
                to_the_death: a.to_the_death,
            },
            opts,
            None,
        )
        .await
    }

    #[tool(
        description = "Spend stat points after a level up (phase stat_upgrade). Give points per stat (strength, dexterity, vitality, intelligence, wisdom, charisma); they must add up to exactly stat_upgrades_available. Vitality also heals 15 HP per point.",
        annotations(
            title = "Upgrade stats",
            read_only_hint = false,
            destructive_hint = false,
            idempotent_hint = false,
            open_world_hint = true
        )
    )]
    async fn ls_upgrade(
        &self,
        Parameters(args): Parameters<Args<UpgradeArgs>>,
        ctx: RequestContext<RoleServer>,
    ) -> Result<Json<WriteResult>, ToolError> {
        let a = args.parse(self.opts.strict)?;
        let opts = self.write_options(&a.opts, &ctx)?;
        let stats = Stats {
            strength: a.strength,
            dexterity: a.dexterity,
            vitality: a.vitality,
            intelligence: a.intelligence,
            wisdom: a.wisdom,
            charisma: a.charisma,
            luck: 0,
        };
        let sum: u32 = [
            a.strength,
            a.dexterity,
            a.vitality,
            a.intelligence,
            a.wisdom,
            a.charisma,
        ]
        .iter()
        .map(|&v| u32::from(v))
        .sum();
        // Checked after the replay lookup: a retry of an upgrade that landed has no points left.
        let points_add_up = move |state: &crate::game::model::GameState| {
            let available = u32::from(state.adventurer.stat_upgrades_available);
            if sum == available {
                return Ok(());
            }
            Err(ToolError::validation(format!(
                "the stat points must add up to {available} (the points available), got {sum}"
            ))
            .with_detail("available", available)
            .with_detail("given", sum)
            .with_hint(
                "read ls_get_adventurer: stat_upgrades_available says how many points to spend",
            ))
        };
        self.write(
            a.opts.detail,
            a.opts.expected_action_count,
            a.adventurer_id,
            GameAction::Upgrade { stats },
            opts,
            Some(&points_add_up),
        )
        .await
    }

    #[tool(
        description = "Buy items from the adventurer's market and/or health potions (only out of battle with no stat points pending). items: list of item names or ids, or {item, equip: bool}; potions: how many (10 HP each). Prices and each item's verdict (upgrade/downgrade) are in the market; the ls_buy_item legal action's args_hint is a purchase the gold covers.",
        annotations(
            title = "Buy",
            read_only_hint = false,
            destructive_hint = false,
            idempotent_hint = false,
            open_world_hint = true
        )
    )]
    async fn ls_buy_item(
        &self,
        Parameters(args): Parameters<Args<BuyArgs>>,
        ctx: RequestContext<RoleServer>,
    ) -> Result<Json<WriteResult>, ToolError> {
        let a = args.parse(self.opts.strict)?;
        let opts = self.write_options(&a.opts, &ctx)?;
        if a.items.is_empty() && a.potions == 0 {
            return Err(ToolError::validation("buy at least one item or potion"));
        }
        let items = a
            .items
            .iter()
            .enumerate()
            .map(|(i, p)| {
                p.item
                    .resolve(&format!("items[{i}].item"))
                    .map(|id| (id, p.equip))
            })
            .collect::<Result<Vec<_>, _>>()?;
        self.write(
            a.opts.detail,
            a.opts.expected_action_count,
            a.adventurer_id,
            GameAction::BuyItems {
                potions: a.potions,
                items,
            },
            opts,
            None,
        )
        .await
    }

    #[tool(
        description = "Equip items from the bag (1 to 8, by id or name); each replaces the item in its slot, which goes to the bag. In battle the beast gets one free attack.",
        annotations(
            title = "Equip",
            read_only_hint = false,
            destructive_hint = false,
            idempotent_hint = false,
            open_world_hint = true
        )
    )]
    async fn ls_equip(
        &self,
        Parameters(args): Parameters<Args<ItemsArgs>>,
        ctx: RequestContext<RoleServer>,
    ) -> Result<Json<WriteResult>, ToolError> {
        let a = args.parse(self.opts.strict)?;
        let opts = self.write_options(&a.opts, &ctx)?;
        let items = resolve_items(&a.items)?;
        self.write(
            a.opts.detail,
            a.opts.expected_action_count,
            a.adventurer_id,
            GameAction::Equip { items },
            opts,
            None,
        )
        .await
    }

    #[tool(
        description = "Drop equipped or bagged items for good (1 to 8, by id or name; not in battle, not at level 1).",
        annotations(
            title = "Drop",
            read_only_hint = false,
            destructive_hint = true,
            idempotent_hint = false,
            open_world_hint = true
        )
    )]
    async fn ls_drop(
        &self,
        Parameters(args): Parameters<Args<ItemsArgs>>,
        ctx: RequestContext<RoleServer>,
    ) -> Result<Json<WriteResult>, ToolError> {
        let a = args.parse(self.opts.strict)?;
        let opts = self.write_options(&a.opts, &ctx)?;
        let items = resolve_items(&a.items)?;
        self.write(
            a.opts.detail,
            a.opts.expected_action_count,
            a.adventurer_id,
            GameAction::Drop { items },
            opts,
            None,
        )
        .await
    }

    #[tool(
        description = "Read an adventurer. Compact (default): phase (not_started, in_battle, stat_upgrade, exploring, dead), health, gold, xp, level, stat points, stats, the beast in battle, equipment and bag, the tools you may call now with their odds, and the open market without the items you own. detail \"full\": item-boosted stats, items with tier/type/greatness/specials, the market with charisma-adjusted prices and what each item would change if bought and equipped, the potion price, and legal_actions with argument hints. Read this before acting.",
        annotations(
            title = "Get adventurer",
            read_only_hint = true,
            open_world_hint = true
        )
    )]
    async fn ls_get_adventurer(
        &self,
        Parameters(args): Parameters<Args<AdventurerArgs>>,
    ) -> Result<Json<ReadResult>, ToolError> {
        let a = args.parse(self.opts.strict)?;
        let state = self.read_state(a.adventurer_id).await?;
        let adv = &state.adventurer;
        let untouched = adv.health == 0 && adv.xp == 0 && adv.action_count == 0;
        if untouched
            && self
                .backend
                .owner(a.adventurer_id)
                .await
                .map_err(from_chain)?
                .is_none()
        {
            return Err(ToolError::new(
                ErrorCode::NotFound,
                format!("adventurer {} does not exist", a.adventurer_id),
            )
            .with_detail("adventurer_id", a.adventurer_id)
            .with_hint("start a game with ls_new_game, which returns the new adventurer_id"));
        }
        Ok(Json(match a.detail.unwrap_or(self.detail) {
            Detail::Full => Detailed::Full(AdventurerResult {
                ok: true,
                schema_version: SCHEMA_VERSION.into(),
                chain: self.opts.chain.clone(),
                adventurer: adventurer_view(a.adventurer_id, &state),
            }),
            Detail::Compact => Detailed::Compact(compact_adventurer(
                &self.opts.chain,
                a.adventurer_id,
                &state,
                &self.markets,
            )),
        }))
    }
}

#[tool_router(router = tx_tool_router)]
impl LsServer {
    #[tool(
        description = "Look up a transaction this server sent (or any transaction) by hash: status (NOT_RECEIVED, RECEIVED, PRE_CONFIRMED, ACCEPTED_ON_L2, ACCEPTED_ON_L1), execution (SUCCEEDED / REVERTED with the game's reason), fee, and the decoded game events. Use it after a TX_TIMEOUT or a cancelled call instead of resending.",
        annotations(
            title = "Get transaction",
            read_only_hint = true,
            open_world_hint = true
        )
    )]
    async fn ls_get_tx(
        &self,
        Parameters(args): Parameters<Args<TxArgs>>,
    ) -> Result<Json<TxResult>, ToolError> {
        let a = args.parse(self.opts.strict)?;
        let hash = crate::game::felt::parse_felt(&a.tx_hash).map_err(|e| {
            ToolError::validation(format!("tx_hash: {e}")).with_detail("field", "tx_hash")
        })?;
        let found = self.backend.tx(hash).await.map_err(from_chain)?;
        if found.record.is_none() && found.status == "NOT_RECEIVED" {
            return Err(ToolError::new(
                ErrorCode::NotFound,
                format!(
                    "transaction {hash:#x} is unknown to the node and was not sent by this server"
                ),
            )
            .with_detail("tx_hash", format!("{hash:#x}")));
        }
        let (block_number, fee_paid, events) = match found.report {
            Some(r) => (r.block_number, Some(r.actual_fee.to_string()), r.events),
            None => (None, None, Vec::new()),
        };
        Ok(Json(TxResult {
            ok: true,
            schema_version: SCHEMA_VERSION.into(),
            chain: self.opts.chain.clone(),
            tx_hash: format!("{hash:#x}"),
            status: found.status,
            execution: found.execution,
            revert_reason: found.revert_reason,
            sent_by_this_server: found.record.is_some(),
            record: found.record,
            block_number,
            fee_paid,
            events,
        }))
    }
    #[tool(
        description = "The server's signing wallet: account address, chain id, STRK and ETH balances, the policy in force (read-only mode, per-transaction fee cap, fee budgets for this run and for today, transactions per minute) and what this run and today's runs have spent and signed. The key itself is never shown.",
        annotations(title = "Wallet", read_only_hint = true, open_world_hint = true)
    )]
    async fn ls_wallet(
        &self,
        Parameters(args): Parameters<Args<NoArgs>>,
    ) -> Result<Json<WalletResult>, ToolError> {
        args.parse(self.opts.strict)?;
        let wallet = self.backend.wallet().await.map_err(from_chain)?;
        let note = wallet.is_none().then(|| {
            format!(
                "the {} chain signs nothing and needs no wallet",
                self.opts.chain
            )
        });
        Ok(Json(WalletResult {
            ok: true,
            schema_version: SCHEMA_VERSION.into(),
            chain: self.opts.chain.clone(),
            wallet,
            note,
        }))
    }
}

fn resolve_items(items: &[super::params::ItemRef]) -> Result<Vec<u8>, ToolError> {
    if items.is_empty() || items.len() > 8 {
        return Err(ToolError::validation(format!(
            "give between 1 and 8 items, got {}",
            items.len()
        )));
    }
    items
        .iter()
        .enumerate()
        .map(|(i, r)| r.resolve(&format!("items[{i}]")))
        .collect()
}

fn player_name_felt(name: &str) -> Result<starknet::core::types::Felt, ToolError> {
    if name.is_empty() || name.len() > 31 || !name.chars().all(|c| c.is_ascii_graphic() || c == ' ')
    {
        return Err(ToolError::validation(
            "player_name must be 1 to 31 printable ASCII characters",
        )
        .with_detail("field", "player_name"));
    }
    starknet::core::utils::cairo_short_string_to_felt(name)
        .map_err(|_| ToolError::validation("player_name is not a valid short string"))
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
    fn player_names_are_checked() {
        assert!(player_name_felt("Ada").is_ok());
        assert!(player_name_felt("").is_err());
        assert!(player_name_felt(&"x".repeat(32)).is_err());
        assert!(player_name_felt("héros").is_err());
    }

    #[test]
    fn item_lists_are_bounded() {
        use super::super::params::ItemRef;
        assert!(resolve_items(&[]).is_err());
        assert!(resolve_items(&vec![ItemRef::Id(1); 9]).is_err());
        assert_eq!(resolve_items(&[ItemRef::Id(5)]).unwrap(), vec![5]);
    }

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
