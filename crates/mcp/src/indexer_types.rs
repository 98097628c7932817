//! The results and arguments of the indexer tools (`ls_get_leaderboard`, `ls_list_adventurers`,
//! `ls_get_game_events`), shared by their Torii and sim answers.

use game::AdventurerId;
use game::token_fields::TokenInfo;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use game::events::GameEvent;
use game::phase::Phase;
use indexer::torii::{IndexerHead, LeaderboardRow, Scope};

/// Arguments of `ls_get_leaderboard` (the default: the first page as the profile ranks it).
#[derive(Debug, Default, Deserialize, JsonSchema)]
pub(crate) struct LeaderboardArgs {
    /// Rows per page (default 50, at most 200).
    #[serde(default)]
    pub limit: Option<u64>,
    /// The previous page's `next_cursor` (with its filters).
    #[serde(default)]
    pub cursor: Option<String>,
    /// Only games not over.
    #[serde(default)]
    pub live_only: Option<bool>,
    /// Only this wallet's games.
    #[serde(default)]
    pub mine: Option<bool>,
    /// `dungeon`: the profile's dungeon, as the official leaderboard (default where it names
    /// one); `all`: every game.
    #[serde(default)]
    pub scope: Option<Scope>,
}

/// Arguments of `ls_list_adventurers`.
#[derive(Debug, Deserialize, JsonSchema)]
pub(crate) struct ListAdventurersArgs {
    /// Owner address (0x-hex); default: this wallet.
    #[serde(default)]
    pub owner: Option<String>,
    /// Games per page (default 50, at most 200).
    #[serde(default)]
    pub limit: Option<u64>,
    /// The previous page's `next_cursor`.
    #[serde(default)]
    pub cursor: Option<String>,
}

/// Arguments of `ls_get_game_events`.
#[derive(Debug, Deserialize, JsonSchema)]
pub(crate) struct GameEventsArgs {
    pub adventurer_id: AdventurerId,
    /// Events per page (default 50, at most 200).
    #[serde(default)]
    pub limit: Option<u64>,
    /// The previous page's `next_cursor`.
    #[serde(default)]
    pub cursor: Option<String>,
}

/// Where an answer came from and how fresh it is.
#[derive(Debug, Clone, Default, Serialize, JsonSchema)]
pub struct IndexerInfo {
    /// `torii` (just read), `cache` (a recent Torii answer), `stale_cache` (Torii failed; an older
    /// Torii answer), `chain` (Torii unavailable; read from the chain) or `torii+chain` (Torii rows
    /// completed or corrected from the chain) or `sim` (the embedded chain's own games and history).
    pub source: String,
    /// Highest block Torii has indexed, when Torii reports it.
    pub indexed_block: Option<u64>,
    /// Unix time (seconds) of that block: how current Torii's data is.
    pub indexed_at: Option<u64>,
    /// Seconds between `indexed_at` and now.
    pub lag_seconds: Option<u64>,
    /// Age of a cached answer, in milliseconds.
    pub cache_age_ms: Option<u64>,
    /// True when part of the answer is known to be behind the chain.
    pub behind: bool,
    /// Why Torii could not be used, when it could not.
    pub error: Option<String>,
}

impl IndexerInfo {
    /// An answer of `source`, as fresh as the index's `head` says.
    pub(super) fn from_index(source: &str, head: Option<IndexerHead>) -> Self {
        Self {
            source: source.into(),
            indexed_block: head.and_then(|h| h.block),
            indexed_at: head.and_then(|h| h.timestamp),
            lag_seconds: head.and_then(|h| h.lag_seconds()),
            ..Self::default()
        }
    }
}

/// How far Torii is behind the chain for one adventurer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct ActionLag {
    /// The adventurer.
    pub adventurer_id: AdventurerId,
    /// Last action Torii has indexed.
    pub indexed_action_count: u64,
    /// The adventurer's action count on the chain.
    pub chain_action_count: u64,
    /// Actions the chain has that Torii has not indexed yet.
    pub actions_behind: u64,
}

/// Which filters a leaderboard page applies.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct LeaderboardFilters {
    /// Only games not over.
    pub live_only: bool,
    /// Only this wallet's games.
    pub mine: bool,
    /// `dungeon` (games minted by the profile's dungeon) or `all`.
    pub scope: Scope,
}

/// The result of `ls_get_leaderboard`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct LeaderboardResult {
    /// Always true (failures are tool errors).
    pub ok: bool,
    /// Version of this envelope.
    pub schema_version: String,
    /// The chain profile.
    pub chain: String,
    /// Ranked games, best first.
    pub rows: Vec<LeaderboardRow>,
    /// The page size used (default 50, cap 200).
    pub limit: u32,
    /// Games matching the filters, over all pages.
    pub total: Option<u64>,
    /// Pass as `cursor` to get the next page; null on the last page.
    pub next_cursor: Option<String>,
    /// The filters in force.
    pub filters: LeaderboardFilters,
    /// Source and freshness.
    pub indexer: IndexerInfo,
    /// Parts that could not be read.
    pub warnings: Vec<String>,
}

/// One of an owner's games.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct AdventurerSummary {
    /// Adventurer (game token) id.
    pub adventurer_id: AdventurerId,
    /// The packed token id's dungeon, settings, start and expiry (second-generation ids only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub token: Option<TokenInfo>,
    /// Phase in the game loop (null when the adventurer state could not be read).
    pub phase: Option<Phase>,
    /// Level.
    pub level: u8,
    /// Experience.
    pub xp: u16,
    /// Health, when known.
    pub health: Option<u16>,
    /// Gold, when known.
    pub gold: Option<u16>,
    /// Actions taken, when known.
    pub action_count: Option<u16>,
    /// Player name, when indexed.
    pub player_name: Option<String>,
    /// Whether the game is over.
    pub game_over: bool,
    /// `torii` or `chain`: where this row was read.
    pub source: String,
}

/// The result of `ls_list_adventurers`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct AdventurerListResult {
    /// Always true (failures are tool errors).
    pub ok: bool,
    /// Version of this envelope.
    pub schema_version: String,
    /// The chain profile.
    pub chain: String,
    /// The owner listed (0x hex).
    pub owner: String,
    /// Games, newest first.
    pub adventurers: Vec<AdventurerSummary>,
    /// The page size used (default 50, cap 200).
    pub limit: u32,
    /// The owner's games over all pages, when Torii counts them.
    pub total: Option<u64>,
    /// Pass as `cursor` to get older games; null on the last page.
    pub next_cursor: Option<String>,
    /// Source and freshness.
    pub indexer: IndexerInfo,
    /// Adventurers whose indexed state is behind the chain (their rows come from the chain).
    pub lag: Vec<ActionLag>,
    /// Parts that could not be read.
    pub warnings: Vec<String>,
}

/// The result of `ls_get_game_events`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct GameEventsResult {
    /// Always true (failures are tool errors).
    pub ok: bool,
    /// Version of this envelope.
    pub schema_version: String,
    /// The chain profile.
    pub chain: String,
    /// The adventurer.
    pub adventurer_id: AdventurerId,
    /// Events in chain order, in the same shape the write tools return.
    pub events: Vec<GameEvent>,
    /// The page size used (default 50, cap 200).
    pub limit: u32,
    /// Events Torii holds for this adventurer.
    pub total: Option<u64>,
    /// Pass as `cursor` to get later events; null on the last page.
    pub next_cursor: Option<String>,
    /// Source and freshness.
    pub indexer: IndexerInfo,
    /// Set when Torii has not indexed the adventurer's latest actions yet.
    pub lag: Option<ActionLag>,
    /// Events that could not be decoded (skipped).
    pub warnings: Vec<String>,
}
