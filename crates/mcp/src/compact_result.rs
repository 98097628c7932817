//! The compact result envelopes (the default `detail`) and the `compact | full` union every
//! adventurer-returning tool answers with. The rendering itself is pure, in
//! [`crate::present::compact`] (with the principle: only what changes the next move); this file
//! adds the envelope, leaves out what this adventurer was already shown, and adds the advice line.

use game::AdventurerId;
use std::borrow::Cow;

use game::token_fields::TokenInfo;
use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::Serialize;

use super::present::compact::{
    CompactMarket, CompactState, MARKET_LINES, compact_actions, compact_market, compact_state,
    market_ids,
};
use super::present::event_lines::compact_events;
use super::present::legal::{LegalAction, battle_odds, legal_actions};
use super::present::tool_call::{move_call, short_call};
use super::present::tools;
use super::present::view::AdventurerView;
use super::shown_memory::ShownMemory;
use game::engine::EngineSettings;
use game::events::GameEvent;
use game::model::GameState;
use game::phase::{Phase, phase};
use game::policy::{Params, Policy};

/// The nine write tools (each signs and sends game transactions), named where the tool calls
/// of the game's actions name them: the tools annotated as writes (a test in `server` holds it).
pub const WRITE_TOOLS: [&str; 9] = [
    tools::NEW_GAME,
    tools::EXPLORE,
    tools::ATTACK,
    tools::FLEE,
    tools::UPGRADE,
    tools::BUY_ITEM,
    tools::EQUIP,
    tools::DROP,
    tools::SURRENDER,
];

/// The tools that take `detail`: every write and `ls_get_adventurer`.
pub const DETAIL_TOOLS: [&str; 10] = {
    let mut tools = ["ls_get_adventurer"; 10];
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

/// A write's compact result: what changed and what the next decision needs. Constant facts
/// (the profile, the envelope version, a successful status) are left out, and so are the
/// transaction hashes on `sim`, where they are made up: `detail: "full"` has them all.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct CompactActionResult {
    /// The new adventurer, when `ls_new_game` obtained one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub adventurer_id: Option<AdventurerId>,
    /// Transaction hash (0x-hex); absent on `sim`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tx: Option<String>,
    /// The transactions a combined move sent before `tx`, in order; absent on `sim`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub earlier_txs: Vec<String>,
    /// The mint transaction when `ls_new_game` minted; absent on `sim`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mint_tx: Option<String>,
    /// PRE_CONFIRMED when the transaction is not yet accepted (absent once accepted).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
    /// True when this repeats the result of an identical earlier call that already landed.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub replayed: bool,
    /// What happened, one line per event (blows folded).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub events: Vec<String>,
    /// The adventurer now; stats, equipment and bag only when they changed.
    pub state: CompactState,
    /// The tools you may call now, with odds.
    pub actions: Vec<String>,
    /// The built-in planner's move and why, from the odds only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub advice: Option<String>,
    /// The open market (items you own and downgrades left out) when it opened or changed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub market: Option<CompactMarket>,
}

/// `ls_get_adventurer`'s compact result: everything, the market included while it is open.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct CompactAdventurerResult {
    /// The packed token id's dungeon, settings, start and expiry (second-generation ids only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub token: Option<TokenInfo>,
    /// The adventurer now.
    pub state: CompactState,
    /// The tools you may call now, with odds.
    pub actions: Vec<String>,
    /// The built-in planner's move and why, from the odds only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub advice: Option<String>,
    /// The open market (items you own and downgrades left out); absent when closed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub market: Option<CompactMarket>,
}

/// The server's side of a compact result: what was shown before, whether hashes are real, and
/// the advice's planner settings (`None`: no advice).
pub(crate) struct Rendering<'a> {
    /// Per adventurer, what was shown and the advising planner.
    pub memory: &'a ShownMemory,
    /// False on `sim`, whose hashes are made up.
    pub real_hashes: bool,
    /// The rules the planner assumes, when advice is on.
    pub advice: Option<EngineSettings>,
    /// Whether the advice names combined moves (one call per decision) or single steps.
    pub combined: bool,
}

/// What a write changed, for the compact result.
pub(crate) struct WriteOutcome<'a> {
    /// Adventurer.
    pub adventurer_id: AdventurerId,
    /// Transaction hash.
    pub tx_hash: &'a str,
    /// The hashes of a combined move's earlier transactions.
    pub earlier: Vec<&'a str>,
    /// Whether the transaction is only pre-confirmed.
    pub pre_confirmed: bool,
    /// Replayed result.
    pub replayed: bool,
    /// Mint transaction, if minted.
    pub mint_tx_hash: Option<String>,
    /// The transaction's events.
    pub events: &'a [GameEvent],
}

/// The compact result of a write: a market, stats, equipment or bag already shown to this
/// adventurer is left out. `view` is the adventurer view of `state` when the caller has it (the
/// full result's, whose legal tools, battle odds and game view are reused); built otherwise, once.
pub(crate) fn compact_action(
    w: WriteOutcome<'_>,
    state: &GameState,
    view: Option<&AdventurerView>,
    r: &Rendering<'_>,
) -> CompactActionResult {
    let (computed, built);
    let (legal, odds, view): (&[LegalAction], _, _) = match view {
        Some(v) => (&v.legal_actions, v.odds.as_ref(), Some(&v.view)),
        None => {
            computed = battle_odds(state);
            built = legal_actions(state, computed.as_ref());
            (&built, computed.as_ref(), None)
        }
    };
    let mut shown = compact_state(state);
    let mut market = compact_market(state, Some(MARKET_LINES));
    let policy = r.memory.with(w.adventurer_id, |recall| {
        recall.leave_out_shown(&mut shown, &mut market, market_ids(state));
        recall.policy.take()
    });
    let hash = |h: &str| r.real_hashes.then(|| h.to_string());
    CompactActionResult {
        adventurer_id: w.mint_tx_hash.is_some().then_some(w.adventurer_id),
        tx: hash(w.tx_hash),
        earlier_txs: w.earlier.iter().filter_map(|h| hash(h)).collect(),
        mint_tx: w.mint_tx_hash.as_deref().and_then(hash),
        status: w.pre_confirmed.then(|| "PRE_CONFIRMED".to_string()),
        replayed: w.replayed,
        events: compact_events(w.events),
        state: shown,
        actions: compact_actions(state, legal, odds),
        advice: advise(w.adventurer_id, policy, state, view, r),
        market,
    }
}

/// The compact read of an adventurer: everything, the open market included, remembered as shown.
pub(crate) fn compact_adventurer(
    adventurer_id: AdventurerId,
    state: &GameState,
    r: &Rendering<'_>,
) -> CompactAdventurerResult {
    let shown = compact_state(state);
    let market = compact_market(state, None);
    let ids = market.as_ref().map(|_| market_ids(state));
    let policy = r.memory.with(adventurer_id, |recall| {
        recall.shown_all(&shown, ids);
        recall.policy.take()
    });
    let odds = battle_odds(state);
    CompactAdventurerResult {
        token: TokenInfo::of(adventurer_id),
        state: shown,
        actions: compact_actions(state, &legal_actions(state, odds.as_ref()), odds.as_ref()),
        advice: advise(adventurer_id, policy, state, None, r),
        market,
    }
}

/// The planner's move as a call and its reason ("ls_flee {\"to_the_death\":true}: win 23 %,
/// flee 98 %: fleeing to the death"), by the adventurer's own planner (taken from the memory
/// and put back, so the decision runs outside its lock); none before the game starts, after
/// death, or with advice off. `view` is `state`'s game view, built here when not given.
fn advise(
    adventurer_id: AdventurerId,
    policy: Option<Policy>,
    state: &GameState,
    view: Option<&game::view::AdventurerView>,
    r: &Rendering<'_>,
) -> Option<String> {
    let settings = r.advice?;
    if matches!(phase(&state.adventurer), Phase::NotStarted | Phase::Dead) {
        return None;
    }
    let mut policy = policy.unwrap_or_else(|| Policy::new(Params::default(), settings));
    let built;
    let view = match view {
        Some(view) => view,
        None => {
            built = game::view::adventurer_view(adventurer_id, state);
            &built
        }
    };
    let (call, reason) = if r.combined {
        let d = policy.decide_move(adventurer_id, state, view);
        (move_call(&d.action, d.rule.as_ref()), d.reason)
    } else {
        let d = policy.decide(state, view);
        (short_call(&d.action), d.reason)
    };
    r.memory
        .with(adventurer_id, |recall| recall.policy = Some(policy));
    Some(format!("{call}: {reason}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::present::legal::previews_computed;
    use crate::present::view::adventurer_view;
    use game::sample::sample_state;

    #[test]
    fn a_battle_result_with_its_advice_previews_the_fight_once() {
        let mut state = sample_state();
        state.adventurer.beast_health = 17;
        let memory = ShownMemory::default();
        let r = Rendering {
            memory: &memory,
            real_hashes: false,
            advice: Some(EngineSettings::default()),
            combined: true,
        };
        let outcome = || WriteOutcome {
            adventurer_id: AdventurerId::from(1u64),
            tx_hash: "0x1",
            earlier: Vec::new(),
            pre_confirmed: false,
            replayed: false,
            mint_tx_hash: None,
            events: &[],
        };
        let before = previews_computed();
        let full = adventurer_view(AdventurerId::from(1u64), &state);
        let compact = compact_action(outcome(), &state, Some(&full), &r);
        assert_eq!(
            previews_computed() - before,
            1,
            "the full view's odds are reused"
        );
        assert!(compact.actions[0].starts_with("ls_attack: win "));
        assert!(compact.advice.is_some());

        let before = previews_computed();
        compact_action(outcome(), &state, None, &r);
        assert_eq!(
            previews_computed() - before,
            1,
            "a replayed write computes them once"
        );
    }
}
