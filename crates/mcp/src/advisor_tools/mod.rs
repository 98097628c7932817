//! The advisor tools, both read-only and answered by the pure game layer: `ls_lookup` (the
//! catalogue of items, beasts, obstacles and special names) and `ls_battle_preview` (damage, odds
//! and, on worlds with deterministic randomness, the exact outcome of a fight).

use game::AdventurerId;
use rmcp::handler::server::wrapper::{Json, Parameters};
use rmcp::{tool, tool_router};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::advice_result::{AdviceResult, AdviseArgs, advice_result};
use super::args::{Args, in_range, shown};
use super::errors::from_chain;
use super::params::ItemRef;
use super::server::LsServer;
use crate::error::{SCHEMA_VERSION, ToolError};
use game::advice::equip::imagine_equipped;
use game::engine::{Action, EngineSettings, Prediction, predict};
use game::events::ItemRef as NamedItem;
use game::lookup::{self, Entry, Kind, MatchedBy, Query};
use game::model::{BeastEvent, GameState};
use game::preview::{BattlePreview, battle_preview_with};

/// Default number of `ls_lookup` results.
pub(crate) const LOOKUP_DEFAULT_LIMIT: u32 = 20;
/// Most `ls_lookup` results in one call.
pub(crate) const LOOKUP_MAX_LIMIT: u32 = 200;

/// A tier given as 1–5 or "T1"–"T5" (the field describes the forms).
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum TierArg {
    /// 1 (strongest) to 5.
    Number(u64),
    /// "T1" to "T5".
    Name(String),
}

/// `ls_lookup` arguments.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
pub struct LookupArgs {
    /// An id, a name, a `*` pattern ("*sword") or a name with specials ("Katana of Power");
    /// omit to list by the filters.
    #[serde(default)]
    pub query: Option<String>,
    /// Only this kind.
    #[serde(default)]
    pub kind: Option<Kind>,
    /// 1–5 or "T1"–"T5" (T1 is the strongest).
    #[serde(default)]
    pub tier: Option<TierArg>,
    /// magic (cloth), blade (hide), bludgeon (metal), necklace or ring.
    #[serde(default, rename = "type")]
    pub item_type: Option<String>,
    /// weapon, chest, head, waist, foot, hand, neck or ring.
    #[serde(default)]
    pub slot: Option<String>,
    /// At most this many results (1–200, default 20).
    #[serde(default)]
    pub limit: Option<u64>,
}

/// The result of `ls_lookup`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct LookupResult {
    /// Always true (failures are tool errors; a miss is an empty result with suggestions).
    pub ok: bool,
    /// Version of this envelope.
    pub schema_version: String,
    /// The chain profile of this server.
    pub chain: String,
    /// How the query matched: filters, id, name, wildcard, specials or none.
    pub matched_by: MatchedBy,
    /// Number of matches.
    pub total: u32,
    /// Number of results returned (at most `limit`).
    pub returned: u32,
    /// The limit applied.
    pub limit: u32,
    /// The matches, each tagged with `kind` (item, beast, obstacle, special).
    pub results: Vec<Entry>,
    /// Up to five close names when nothing matched.
    pub suggestions: Vec<String>,
}

/// A beast given by id (1–75) or name.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(untagged)]
pub(crate) enum BeastRef {
    /// Beast id.
    Id(u64),
    /// Beast name, optionally with its specials ("Dragon", "demon-grasp-dragon").
    Name(String),
}

/// A hypothetical opponent.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
pub(crate) struct BeastArgs {
    /// Id or name, with specials if any ("demon-grasp-dragon").
    pub beast: BeastRef,
    /// Its level (1–1023).
    pub level: u64,
    /// Its health (1–1023).
    pub health: u64,
}

/// `ls_battle_preview` arguments.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
pub(crate) struct PreviewArgs {
    pub adventurer_id: AdventurerId,
    /// Items to imagine equipped (at most 8; not owned: greatness 1).
    #[serde(default)]
    pub equip: Vec<ItemRef>,
    /// A beast to fight instead of the current one.
    #[serde(default)]
    pub beast: Option<BeastArgs>,
}

/// The exact outcomes of the fight's options (deterministic worlds only).
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct ExactOutcomes {
    /// One `ls_attack` (to_the_death false).
    pub attack: Prediction,
    /// `ls_attack` with to_the_death true.
    pub attack_to_the_death: Prediction,
    /// One `ls_flee` (None when fleeing is not allowed).
    pub flee: Option<Prediction>,
    /// `ls_flee` with to_the_death true (None when not allowed).
    pub flee_to_the_death: Option<Prediction>,
}

/// Whether an advisor's answer is what will happen or a probability.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Exactness {
    /// The world's randomness is known to the server: `exact` says what each option will do.
    Exact,
    /// The randomness is hidden (a VRF, or the sim chain's hidden seeds): odds only.
    Odds,
}

/// The result of `ls_battle_preview`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct BattlePreviewResult {
    /// Always true (failures are tool errors).
    pub ok: bool,
    /// Version of this envelope.
    pub schema_version: String,
    /// The chain profile read from.
    pub chain: String,
    /// The adventurer.
    pub adventurer_id: AdventurerId,
    /// `exact` when `exact` below says what each option will do, `odds` when only
    /// probabilities can be known (hidden randomness, or a hypothetical fight).
    pub exactness: Exactness,
    /// True when previewing the current fight as it stands (no hypothetical beast or items).
    pub current_battle: bool,
    /// Items imagined equipped.
    pub imagined_equipment: Vec<NamedItem>,
    /// Damage, odds and rounds.
    pub preview: BattlePreview,
    /// On worlds with deterministic randomness (the `sim` chain), what each option will do,
    /// exactly; None elsewhere or for hypothetical fights.
    pub exact: Option<ExactOutcomes>,
    /// How the numbers were obtained.
    pub method: String,
}

fn parse_filters(a: &LookupArgs) -> Result<Query, ToolError> {
    let limit = a.limit.unwrap_or(LOOKUP_DEFAULT_LIMIT.into());
    in_range("limit", limit, 1, LOOKUP_MAX_LIMIT.into())?;
    let tier = match &a.tier {
        None => None,
        Some(TierArg::Number(n)) => Some(
            lookup::parse_tier(&n.to_string())
                .ok_or_else(|| bad_filter("tier", &n.to_string(), "1-5 or T1-T5"))?,
        ),
        Some(TierArg::Name(s)) => {
            Some(lookup::parse_tier(s).ok_or_else(|| bad_filter("tier", s, "1-5 or T1-T5"))?)
        }
    };
    let item_type = a
        .item_type
        .as_deref()
        .map(|s| {
            lookup::parse_type(s)
                .ok_or_else(|| bad_filter("type", s, "magic, blade, bludgeon, necklace or ring"))
        })
        .transpose()?;
    let slot = a
        .slot
        .as_deref()
        .map(|s| {
            lookup::parse_slot(s).ok_or_else(|| {
                bad_filter(
                    "slot",
                    s,
                    "weapon, chest, head, waist, foot, hand, neck or ring",
                )
            })
        })
        .transpose()?;
    Ok(Query {
        text: a.query.clone(),
        kind: a.kind,
        tier,
        item_type,
        slot,
        limit: limit as usize,
    })
}

fn bad_filter(field: &str, value: &str, allowed: &str) -> ToolError {
    ToolError::validation(format!("{field} '{value}' is not one of: {allowed}"))
        .with_detail("field", field)
        .with_detail("allowed", allowed)
}

/// Runs `ls_lookup`'s search (pure; used by the tool and the benchmark).
pub fn lookup_result(chain: &str, a: &LookupArgs) -> Result<LookupResult, ToolError> {
    let q = parse_filters(a)?;
    let found = lookup::search(&q);
    Ok(LookupResult {
        ok: true,
        schema_version: SCHEMA_VERSION.into(),
        chain: chain.to_string(),
        matched_by: found.matched_by,
        total: found.total as u32,
        returned: found.results.len() as u32,
        limit: q.limit as u32,
        results: found.results,
        suggestions: found.suggestions,
    })
}

/// Most beasts listed when a name or pattern matches several.
const MAX_BEAST_MATCHES: usize = 10;

fn resolve_beast(b: &BeastArgs) -> Result<BeastEvent, ToolError> {
    in_range("beast.level", b.level, 1, 1023)?;
    in_range("beast.health", b.health, 1, 1023)?;
    let (id, specials) = match &b.beast {
        BeastRef::Id(id) => {
            in_range("beast.beast", *id, 1, 75)?;
            (*id as u8, Default::default())
        }
        BeastRef::Name(name) => {
            let found = lookup::search(&Query {
                text: Some(name.clone()),
                kind: Some(Kind::Beast),
                limit: MAX_BEAST_MATCHES,
                ..Query::default()
            });
            match found.results.as_slice() {
                [Entry::Beast(e)] => (e.id, e.specials.unwrap_or_default()),
                [] | [_] => {
                    return Err(
                        ToolError::validation(format!("no beast named '{}'", shown(name)))
                            .with_detail("field", "beast.beast")
                            .with_detail("suggestions", found.suggestions),
                    );
                }
                many => {
                    let matches: Vec<&str> = many
                        .iter()
                        .filter_map(|e| match e {
                            Entry::Beast(b) => Some(b.name.as_str()),
                            _ => None,
                        })
                        .collect();
                    return Err(ToolError::validation(format!(
                        "'{}' matches {} beasts; name exactly one",
                        shown(name),
                        found.total
                    ))
                    .with_detail("field", "beast.beast")
                    .with_detail("total", found.total)
                    .with_detail("matches", matches)
                    .with_hint("pass one beast's name or id (ls_lookup lists them)"));
                }
            }
        }
    };
    Ok(BeastEvent {
        id,
        seed: 0,
        health: b.health as u16,
        level: b.level as u16,
        specials,
        is_collectable: false,
    })
}

fn exact_outcomes(
    id: AdventurerId,
    state: &GameState,
    settings: &EngineSettings,
) -> Option<ExactOutcomes> {
    let id = id.to_u64()?;
    let p = |action: Action| predict(id, state, &action, settings);
    Some(ExactOutcomes {
        attack: p(Action::Attack {
            to_the_death: false,
        })
        .ok()?,
        attack_to_the_death: p(Action::Attack { to_the_death: true }).ok()?,
        flee: p(Action::Flee {
            to_the_death: false,
        })
        .ok(),
        flee_to_the_death: p(Action::Flee { to_the_death: true }).ok(),
    })
}

/// Builds `ls_battle_preview`'s answer from a state (pure; used by the tool and the benchmark).
pub fn preview_result(
    chain: &str,
    adventurer_id: AdventurerId,
    state: &GameState,
    deterministic: Option<EngineSettings>,
    equip: &[u8],
    beast: Option<BeastEvent>,
) -> Result<BattlePreviewResult, ToolError> {
    let adv = &state.adventurer;
    if adv.health == 0 {
        let started = adv.xp > 0;
        return Err(ToolError::validation(if started {
            format!("adventurer {adventurer_id} is dead")
        } else {
            format!("adventurer {adventurer_id} has not started a game")
        })
        .with_detail("adventurer_id", adventurer_id)
        .with_hint("start a new game with ls_new_game"));
    }
    let current_battle = beast.is_none() && equip.is_empty();
    let (beast, beast_health) = match beast {
        Some(b) => (b, b.health),
        None if adv.in_battle() => (state.beast, adv.beast_health),
        None => {
            return Err(ToolError::validation(format!(
                "adventurer {adventurer_id} is not in battle"
            ))
            .with_detail("adventurer_id", adventurer_id)
            .with_hint(
                "pass `beast` (id or name, level, health) to preview a hypothetical fight, or ls_explore to meet one",
            ));
        }
    };
    let imagined = imagine_equipped(state, equip);
    let settings = deterministic.unwrap_or_default();
    let preview = battle_preview_with(&imagined.adventurer, &beast, beast_health, &settings);
    let exact = match deterministic {
        Some(s) if current_battle => exact_outcomes(adventurer_id, state, &s),
        _ => None,
    };
    let odds = match preview.win_method {
        game::preview::WinMethod::Exact => "computed exactly",
        game::preview::WinMethod::Simulation => "estimated from 1000 simulated fights",
    };
    let method = format!(
        "Damage from the game's formulas; probabilities treat each random byte as uniform and {odds}. {}",
        if exact.is_some() {
            "This world's randomness is deterministic, so `exact` is what each action will do."
        } else if deterministic.is_some() {
            "Exact outcomes are only given for the current fight as it stands."
        } else {
            "This world's randomness is hidden (a VRF, or the sim chain's per-game hidden seed): odds only, no exact outcome."
        }
    );
    let exactness = if exact.is_some() {
        Exactness::Exact
    } else {
        Exactness::Odds
    };
    Ok(BattlePreviewResult {
        ok: true,
        schema_version: SCHEMA_VERSION.into(),
        chain: chain.to_string(),
        adventurer_id,
        exactness,
        current_battle,
        imagined_equipment: equip.iter().map(|&id| NamedItem::new(id)).collect(),
        preview,
        exact,
        method,
    })
}

#[tool_router(router = advisor_tool_router, vis = "pub(crate)")]
impl LsServer {
    #[tool(
        description = "Search the catalogue (items, beasts, obstacles, special names): tier, type, slot, price, strengths, weaknesses, the best armor against a beast; a miss suggests names.",
        annotations(
            title = "Look up items, beasts, obstacles",
            read_only_hint = true,
            open_world_hint = false
        )
    )]
    async fn ls_lookup(
        &self,
        Parameters(args): Parameters<Args<LookupArgs>>,
    ) -> Result<Json<LookupResult>, ToolError> {
        let a = args.parse(self.opts.strict)?;
        lookup_result(&self.opts.chain, &a).map(Json)
    }

    #[tool(
        description = "Preview your fight (or with another beast or items): damage both ways, crit, flee, ambush and dodge odds, rounds to kill and die, win chance; exact on a deterministic world. Changes nothing.",
        annotations(
            title = "Battle preview",
            read_only_hint = true,
            open_world_hint = true
        )
    )]
    async fn ls_battle_preview(
        &self,
        Parameters(args): Parameters<Args<PreviewArgs>>,
    ) -> Result<Json<BattlePreviewResult>, ToolError> {
        let a = args.parse(self.opts.strict)?;
        if a.equip.len() > 8 {
            return Err(ToolError::validation(format!(
                "equip at most 8 items, got {}",
                a.equip.len()
            )));
        }
        let equip = a
            .equip
            .iter()
            .enumerate()
            .map(|(i, r)| r.resolve(&format!("equip[{i}]")))
            .collect::<Result<Vec<_>, _>>()?;
        let beast = a.beast.as_ref().map(resolve_beast).transpose()?;
        let state = self
            .backend
            .state(a.adventurer_id)
            .await
            .map_err(from_chain)?;
        self.ensure_minted(a.adventurer_id, &state).await?;
        preview_result(
            &self.opts.chain,
            a.adventurer_id,
            &state,
            self.backend.deterministic_rules(),
            &equip,
            beast,
        )
        .map(Json)
    }

    #[tool(
        description = "Advice as odds; changes nothing. market: each item's health saved per gold over 20 explore steps (vs potion_health_per_gold), downgrades, best_buys for your gold less keep_gold, weapons that will outhit yours later. stats: each stat's next point, best first. weapons (in battle): your win chance with each bagged weapon after the swap's free hit.",
        annotations(
            title = "Advise: item values, best buys, stat points, weapon swaps",
            read_only_hint = true,
            open_world_hint = false
        )
    )]
    async fn ls_advise(
        &self,
        Parameters(args): Parameters<Args<AdviseArgs>>,
    ) -> Result<Json<AdviceResult>, ToolError> {
        let a = args.parse(self.opts.strict)?;
        let state = self.existing_state(a.adventurer_id).await?;
        let settings = self.backend.deterministic_rules().unwrap_or_default();
        advice_result(&self.opts.chain, a.adventurer_id, &state, &settings, &a).map(Json)
    }
}

impl LsServer {
    /// The state of an adventurer that exists, else `NOT_FOUND`.
    async fn existing_state(&self, adventurer_id: AdventurerId) -> Result<GameState, ToolError> {
        let state = self
            .backend
            .state(adventurer_id)
            .await
            .map_err(from_chain)?;
        self.ensure_minted(adventurer_id, &state).await?;
        Ok(state)
    }
}

#[cfg(test)]
mod tests;
