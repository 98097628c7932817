//! The compact result envelopes (the default `detail`) and the `compact | full` union every
//! adventurer-returning tool answers with. The rendering itself is pure, in
//! [`crate::game::compact`]; this file adds the envelope and the once-per-market rule.

use std::borrow::Cow;

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::Serialize;

use super::market_memory::MarketMemory;
use crate::error::SCHEMA_VERSION;
use crate::game::compact::{
    CompactState, MarketSection, compact_actions, compact_events, compact_market, compact_state,
    market_ids,
};
use crate::game::events::GameEvent;
use crate::game::model::GameState;
use crate::game::phase::tools;

/// Said instead of a market that was already shown.
pub const MARKET_UNCHANGED: &str = "same market as shown before; ls_get_adventurer shows it (detail \"full\" adds each item's facts)";

/// The eight write tools (each signs and sends game transactions), named where the game names
/// its actions' tools.
pub const WRITE_TOOLS: [&str; 8] = [
    tools::NEW_GAME,
    tools::EXPLORE,
    tools::ATTACK,
    tools::FLEE,
    tools::UPGRADE,
    tools::BUY_ITEM,
    tools::EQUIP,
    tools::DROP,
];

/// The tools that take `detail`: every write and `ls_get_adventurer`.
pub const DETAIL_TOOLS: [&str; 9] = {
    let mut tools = ["ls_get_adventurer"; 9];
    let mut i = 0;
    while i < WRITE_TOOLS.len() {
        tools[i] = WRITE_TOOLS[i];
        i += 1;
    }
    tools
};

/// A result in one of the two shapes, chosen by `detail`.
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub enum Detailed<C, F> {
    /// `detail: "compact"`.
    Compact(C),
    /// `detail: "full"`.
    Full(F),
}

impl<C: JsonSchema, F: JsonSchema> JsonSchema for Detailed<C, F> {
    fn schema_name() -> Cow<'static, str> {
        format!("{}Or{}", C::schema_name(), F::schema_name()).into()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let compact = generator.subschema_for::<C>();
        let full = generator.subschema_for::<F>();
        json_schema!({ "type": "object", "anyOf": [compact, full] })
    }
}

/// A write's compact result: what changed and what the next decision needs.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct CompactActionResult {
    /// Always true (failures are tool errors).
    pub ok: bool,
    /// Version of this envelope.
    pub schema_version: String,
    /// The chain profile.
    pub chain: String,
    /// The adventurer acted on.
    pub adventurer_id: u64,
    /// Transaction hash (0x-hex).
    pub tx_hash: String,
    /// PRE_CONFIRMED, ACCEPTED_ON_L2 or ACCEPTED_ON_L1.
    pub status: String,
    /// True when this repeats the result of an identical earlier call that already landed.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub replayed: bool,
    /// The mint transaction when `ls_new_game` minted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mint_tx_hash: Option<String>,
    /// What happened, one line per event (blows folded).
    pub events: Vec<String>,
    /// The adventurer now.
    pub state: CompactState,
    /// The tools you may call now, with odds.
    pub actions: Vec<String>,
    /// The open market (items you own left out), or a note that it is unchanged.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub market: Option<MarketSection>,
}

/// `ls_get_adventurer`'s compact result.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct CompactAdventurerResult {
    /// Always true (failures are tool errors).
    pub ok: bool,
    /// Version of this envelope.
    pub schema_version: String,
    /// The chain profile.
    pub chain: String,
    /// The adventurer.
    pub adventurer_id: u64,
    /// The adventurer now.
    pub state: CompactState,
    /// The tools you may call now, with odds.
    pub actions: Vec<String>,
    /// The open market (items you own left out); absent when closed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub market: Option<MarketSection>,
}

/// What a write changed, for the compact result.
pub struct WriteOutcome<'a> {
    /// Chain profile.
    pub chain: &'a str,
    /// Adventurer.
    pub adventurer_id: u64,
    /// Transaction hash.
    pub tx_hash: &'a str,
    /// Finality status.
    pub status: &'a str,
    /// Replayed result.
    pub replayed: bool,
    /// Mint transaction, if minted.
    pub mint_tx_hash: Option<String>,
    /// The transaction's events.
    pub events: &'a [GameEvent],
}

/// The compact result of a write; a market already shown to this adventurer is replaced by a note.
pub fn compact_action(
    w: WriteOutcome<'_>,
    state: &GameState,
    memory: &MarketMemory,
) -> CompactActionResult {
    CompactActionResult {
        ok: true,
        schema_version: SCHEMA_VERSION.into(),
        chain: w.chain.into(),
        adventurer_id: w.adventurer_id,
        tx_hash: w.tx_hash.into(),
        status: w.status.into(),
        replayed: w.replayed,
        mint_tx_hash: w.mint_tx_hash,
        events: compact_events(w.events),
        state: compact_state(state),
        actions: compact_actions(state),
        market: market_once(w.adventurer_id, state, memory),
    }
}

/// The compact read of an adventurer: the open market is always shown (this is how to see it
/// again) and remembered as shown.
pub fn compact_adventurer(
    chain: &str,
    adventurer_id: u64,
    state: &GameState,
    memory: &MarketMemory,
) -> CompactAdventurerResult {
    let market = compact_market(state).map(|m| {
        memory.seen_before(adventurer_id, &market_ids(state));
        MarketSection::Shown(m)
    });
    CompactAdventurerResult {
        ok: true,
        schema_version: SCHEMA_VERSION.into(),
        chain: chain.into(),
        adventurer_id,
        state: compact_state(state),
        actions: compact_actions(state),
        market,
    }
}

fn market_once(id: u64, state: &GameState, memory: &MarketMemory) -> Option<MarketSection> {
    let market = compact_market(state)?;
    Some(if memory.seen_before(id, &market_ids(state)) {
        MarketSection::Unchanged {
            unchanged: MARKET_UNCHANGED.into(),
        }
    } else {
        MarketSection::Shown(market)
    })
}
