//! Reads a v2 deployment's VRF rule off its own transactions (docs/vrf.md#finding-a-deployments-vrf-rule):
//! GameCore's newest `GameEvent`s give transaction hashes; each transaction's calls (its multicall,
//! and the calls of any outside execution in it) give the action, the `request_random` and the
//! `submit_random` seed; the adventurer's events before it give the state a salt recipe is
//! tried on. The report says which `vrf_source` the profile should name, with the evidence.

pub mod calls;
pub mod classify;
mod reads;
mod settle;

use serde::Serialize;
use starknet::core::types::{Felt, Transaction};
use starknet::providers::Provider;

use chain::generation::{ChainReads, VrfRule};
use chain::{ChainError, ChainReader};

use crate::CheckError;
use calls::{Route, routed_calls};
use chain::bindings::entrypoint_name;
use chain::generation::{V2Contracts, VrfSource};
use chain::retry::read_with_retries;
use classify::{Context, Recipe, Verdict, VrfRequest, classify};
use game::AdventurerId;
pub use reads::provider_nonces;
use reads::{gamecore_transactions, prior_state};
pub use settle::{NotSettled, SETTLE_MIN_ACTIONS, SETTLE_MIN_PLAYERS, Seeds, SettledRule};

/// Cartridge's provider keeps each address's nonce in `VrfProvider_nonces: Map<ContractAddress,
/// felt252>` (cartridge-gg/vrf `src/vrf_provider/vrf_provider_component.cairo` @ `1a43153b`).
pub const NONCES_STORAGE: &str = "VrfProvider_nonces";

/// The GameCore entrypoints that may draw randomness (an equip only in battle).
const DRAWING: [&str; 4] = ["explore", "attack", "flee", "equip"];

/// How far back to look and what to try.
#[derive(Debug, Clone)]
pub struct DetectOptions {
    /// Blocks per `starknet_getEvents` window, read newest window first.
    pub window_blocks: u64,
    /// Windows read at most.
    pub max_windows: u32,
    /// Actions that drew randomness to examine before concluding.
    pub max_actions: usize,
    /// The salt recipes tried, in order.
    pub candidates: Vec<Recipe>,
    /// The provider's storage map of `Nonce` sources' nonces, read to check a nonce seed.
    pub nonce_storage: String,
    /// The game settings whose rule is wanted (a game's randomness follows its settings, bits
    /// 70-99 of its id); actions of games with other settings are reported apart. `None`: all.
    pub settings_id: Option<u32>,
}

impl Default for DetectOptions {
    fn default() -> Self {
        Self {
            window_blocks: 200,
            max_windows: 25,
            max_actions: 6,
            candidates: Recipe::KNOWN.to_vec(),
            nonce_storage: NONCES_STORAGE.into(),
            settings_id: None,
        }
    }
}

impl DetectOptions {
    /// The defaults, reading the rule of games of `settings_id` (the settings a profile mints with).
    pub fn for_settings(settings_id: u32) -> Self {
        Self {
            settings_id: Some(settings_id),
            ..Self::default()
        }
    }
}

/// One examined action.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Finding {
    /// The transaction.
    pub tx_hash: Felt,
    /// Its block (`None`: not in a block yet).
    pub block_number: Option<u64>,
    /// The GameCore entrypoint it called.
    pub action: &'static str,
    /// The adventurer (the call's first argument).
    pub adventurer_id: Option<AdventurerId>,
    /// The game settings its token was minted with (`None`: not a packed token id).
    pub settings_id: Option<u32>,
    /// Who called GameCore: the sender, or an account through an outside execution.
    pub route: Route,
    /// The account that played it (the sender, or the account of the outside execution).
    pub player: Felt,
    /// The `request_random` call, when the transaction has one.
    pub request: Option<VrfRequest>,
    /// What it shows.
    pub verdict: Verdict,
}

/// A GameCore transaction whose calls could not be read (left out of the conclusion).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Skipped {
    /// The transaction.
    pub tx_hash: Felt,
    /// What could not be read.
    pub reason: String,
}

/// What one transaction gave.
enum Examined {
    /// An action that draws randomness.
    Action(Box<Finding>),
    /// Unreadable calls.
    Skipped(Skipped),
    /// Anything else (a start, a purchase, an equip out of battle…).
    Other,
}

/// The conclusion over the examined actions.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "rule", rename_all = "snake_case")]
pub enum Conclusion {
    /// Every action that settles a source agrees on this one, and on the contract that consumes.
    Found {
        /// The profile's `vrf_source` spelling.
        source: &'static str,
        /// The contract the requests name as the consumer (`None`: no request, VRF off).
        consumer: Option<Felt>,
        /// The first transaction showing it.
        tx_hash: Felt,
    },
    /// The actions settle different sources.
    Conflicting {
        /// Each source seen, with a transaction showing it.
        sources: Vec<(&'static str, Felt)>,
    },
    /// Requests were found but no known rule explains them (see the findings' evidence).
    NoMatch {
        /// The first such transaction.
        tx_hash: Felt,
    },
    /// No action that draws randomness was found in the blocks read.
    NoActions,
}

impl Conclusion {
    /// A few words for a list of settings.
    fn short(&self) -> String {
        match self {
            Conclusion::Found { source, .. } => (*source).to_string(),
            Conclusion::Conflicting { sources } => {
                let names: Vec<&str> = sources.iter().map(|(s, _)| *s).collect();
                format!("conflicting ({})", names.join(", "))
            }
            Conclusion::NoMatch { .. } => "no known rule".into(),
            Conclusion::NoActions => "nothing drawn".into(),
        }
    }
}

/// What the detection read and concluded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct VrfRuleReport {
    /// The GameCore read.
    pub game_core: Felt,
    /// The chain id the seeds were checked with.
    pub chain_id: Felt,
    /// The blocks whose events were read, oldest and newest.
    pub blocks: (u64, u64),
    /// GameCore transactions seen in them.
    pub transactions_seen: usize,
    /// The settings whose rule was wanted (`None`: all).
    pub settings_id: Option<u32>,
    /// The actions examined, newest first (of every settings).
    pub findings: Vec<Finding>,
    /// What the actions of games with other settings show, by settings id.
    pub other_settings: Vec<(u32, Conclusion)>,
    /// Transactions whose calls could not be read.
    pub skipped: Vec<Skipped>,
    /// The conclusion.
    pub conclusion: Conclusion,
}

impl VrfRuleReport {
    /// The source found, for `--settle-vrf` (`None` unless every settling action agrees).
    pub fn source(&self) -> Option<VrfSource> {
        match &self.conclusion {
            Conclusion::Found { source, .. } => source.parse().ok(),
            _ => None,
        }
    }

    /// The consumer the agreeing requests name (`None`: none found, or no request).
    pub fn consumer(&self) -> Option<Felt> {
        match &self.conclusion {
            Conclusion::Found { consumer, .. } => *consumer,
            _ => None,
        }
    }

    /// Whether `f` is an action of the settings whose rule is wanted.
    fn wanted(&self, f: &Finding) -> bool {
        wanted(self.settings_id, f)
    }

    /// One line for a terminal.
    pub fn summary(&self) -> String {
        let mut line = self.rule_summary();
        if !self.other_settings.is_empty() {
            let others: Vec<String> = self
                .other_settings
                .iter()
                .map(|(id, c)| format!("settings {id}: {}", c.short()))
                .collect();
            line.push_str(&format!(
                " [other games' settings, not used: {}]",
                others.join("; ")
            ));
        }
        line
    }

    /// The conclusion for the wanted settings, in one line.
    fn rule_summary(&self) -> String {
        let n = self.findings.iter().filter(|f| self.wanted(f)).count();
        let (from, to) = self.blocks;
        let of = match self.settings_id {
            Some(id) => format!(" for settings {id}"),
            None => String::new(),
        };
        match &self.conclusion {
            Conclusion::Found {
                source,
                consumer,
                tx_hash,
            } => {
                let by = match consumer {
                    Some(c) if *c != self.game_core => {
                        format!(", consumed by {c:#x}, not GameCore")
                    }
                    _ => String::new(),
                };
                format!(
                    "VRF rule{of}: {source}{by} (from tx {tx_hash:#x}; {n} action(s) examined in blocks {from}-{to})"
                )
            }
            Conclusion::Conflicting { sources } => {
                let list: Vec<String> = sources
                    .iter()
                    .map(|(s, tx)| format!("{s} in tx {tx:#x}"))
                    .collect();
                format!("VRF rule{of}: conflicting: {}", list.join(", "))
            }
            Conclusion::NoMatch { tx_hash } => format!(
                "VRF rule{of}: no match: tx {tx_hash:#x}'s request_random fits no known rule ({}; the report has the evidence)",
                self.unexplained(*tx_hash)
            ),
            Conclusion::NoActions => format!(
                "VRF rule{of}: unknown: no action{} drew randomness in blocks {from}-{to} ({} GameCore transaction(s) seen)",
                if of.is_empty() { "" } else { " of such a game" },
                self.transactions_seen
            ),
        }
    }

    /// Why the finding of `tx_hash` settles nothing, in a few words.
    fn unexplained(&self, tx_hash: Felt) -> String {
        let verdict = self
            .findings
            .iter()
            .find(|f| f.tx_hash == tx_hash)
            .map(|f| &f.verdict);
        match verdict {
            Some(Verdict::NoMatch { candidates, .. }) if candidates.is_empty() => {
                "no adventurer state before it to try recipes on".into()
            }
            Some(Verdict::NoMatch { candidates, .. }) => {
                let names: Vec<&str> = candidates.iter().map(|t| t.recipe).collect();
                format!("tried {}", names.join(", "))
            }
            Some(Verdict::Nonce {
                consumer, address, ..
            }) => {
                format!("a nonce of {address:#x} for {consumer:#x}, not the player's")
            }
            Some(Verdict::Salt { matched, .. }) => {
                format!("recipe {} matched outside v1's choice", matched.recipe)
            }
            _ => "not examined".into(),
        }
    }
}

/// The VRF rule of the deployment `reader` plays, read off its newest actions where its
/// generation reads it per deployment; [`CheckError::FixedVrfRule`] where the game fixes it.
pub async fn read_vrf_rule(
    reader: &ChainReader,
    opts: &DetectOptions,
) -> Result<VrfRuleReport, CheckError> {
    match reader.deployment().game().vrf_rule() {
        VrfRule::Fixed(why) => Err(CheckError::FixedVrfRule(why)),
        VrfRule::Read(c) => detect(&**reader.provider(), c, reader.chain_id(), opts).await,
    }
}

/// Reads the rule of `c`'s GameCore off its newest actions (see the module doc).
pub async fn detect<P: Provider + Sync>(
    provider: &P,
    c: &V2Contracts,
    chain_id: Felt,
    opts: &DetectOptions,
) -> Result<VrfRuleReport, CheckError> {
    let latest = read_with_retries(|| provider.block_number())
        .await
        .map_err(ChainError::from_provider)?;
    let window = opts.window_blocks.max(1);
    let (mut oldest, mut seen, mut findings, mut skipped) = (latest, 0, Vec::new(), Vec::new());
    for w in 0..u64::from(opts.max_windows) {
        let Some(to) = latest.checked_sub(w * window) else {
            break;
        };
        let from = to.saturating_sub(window - 1);
        oldest = from;
        let txs = gamecore_transactions(provider, c.game_core, from, to).await?;
        seen += txs.len();
        for (tx_hash, block) in txs.into_iter().rev() {
            match examine(provider, c, chain_id, tx_hash, block, opts).await? {
                Examined::Action(f) => findings.push(*f),
                Examined::Skipped(s) => skipped.push(s),
                Examined::Other => {}
            }
            if enough(&findings, opts) {
                break;
            }
        }
        if enough(&findings, opts) || from == 0 {
            break;
        }
    }
    let mine: Vec<Finding> = findings
        .iter()
        .filter(|f| wanted(opts.settings_id, f))
        .cloned()
        .collect();
    let mut others: std::collections::BTreeMap<u32, Vec<Finding>> = Default::default();
    for f in findings.iter().filter(|f| !wanted(opts.settings_id, f)) {
        if let Some(id) = f.settings_id {
            others.entry(id).or_default().push(f.clone());
        }
    }
    Ok(VrfRuleReport {
        game_core: c.game_core,
        chain_id,
        blocks: (oldest, latest),
        transactions_seen: seen,
        settings_id: opts.settings_id,
        conclusion: conclude(&mine),
        other_settings: others
            .into_iter()
            .map(|(id, f)| (id, conclude(&f)))
            .collect(),
        findings,
        skipped,
    })
}

/// Whether `f` is an action of `settings` (an id that is not a packed token counts for any).
fn wanted(settings: Option<u32>, f: &Finding) -> bool {
    match (settings, f.settings_id) {
        (Some(want), Some(has)) => want == has,
        _ => true,
    }
}

/// Whether enough actions were examined: `max_actions` of the wanted settings, or four times
/// as many of any (so games of other settings cannot keep the reading going).
fn enough(findings: &[Finding], opts: &DetectOptions) -> bool {
    let mine = findings
        .iter()
        .filter(|f| wanted(opts.settings_id, f))
        .count();
    mine >= opts.max_actions || findings.len() >= opts.max_actions.saturating_mul(4)
}

/// The conclusion: the settled source when all settling findings agree on it and on the
/// consumer; else the conflict, the first unexplained request, or nothing found.
fn conclude(findings: &[Finding]) -> Conclusion {
    let mut seen: Vec<(&'static str, Option<Felt>, Felt)> = Vec::new();
    for f in findings {
        if let Some(s) = f.verdict.source() {
            let consumer = f.verdict.consumer();
            if !seen.iter().any(|(src, c, _)| *src == s && *c == consumer) {
                seen.push((s, consumer, f.tx_hash));
            }
        }
    }
    let sources: Vec<(&'static str, Felt)> = seen.iter().map(|(s, _, tx)| (*s, *tx)).collect();
    match seen.as_slice() {
        [(source, consumer, tx_hash)] => Conclusion::Found {
            source,
            consumer: *consumer,
            tx_hash: *tx_hash,
        },
        [] => match findings.first() {
            Some(f) => Conclusion::NoMatch { tx_hash: f.tx_hash },
            None => Conclusion::NoActions,
        },
        _ => Conclusion::Conflicting { sources },
    }
}

/// What one transaction shows: an action that draws randomness, unreadable calls, or nothing of
/// interest (no drawing GameCore entrypoint, or an equip without a request: out of battle, it
/// draws none).
async fn examine<P: Provider + Sync>(
    provider: &P,
    c: &V2Contracts,
    chain_id: Felt,
    tx_hash: Felt,
    block_number: Option<u64>,
    opts: &DetectOptions,
) -> Result<Examined, CheckError> {
    let skip = |reason: String| Ok(Examined::Skipped(Skipped { tx_hash, reason }));
    let tx = read_with_retries(|| provider.get_transaction_by_hash(tx_hash))
        .await
        .map_err(ChainError::from_provider)?;
    let (sender, calldata) = match &tx {
        Transaction::Invoke(starknet::core::types::InvokeTransaction::V3(t)) => {
            (t.sender_address, &t.calldata)
        }
        Transaction::Invoke(starknet::core::types::InvokeTransaction::V1(t)) => {
            (t.sender_address, &t.calldata)
        }
        _ => return Ok(Examined::Other),
    };
    let routed = match routed_calls(calldata) {
        Ok(routed) => routed,
        Err(e) => return skip(e.to_string()),
    };
    let Some((at, game_call, action)) = routed.iter().enumerate().find_map(|(at, call)| {
        let name = entrypoint_name(call.selector)?;
        (call.to == c.game_core && DRAWING.contains(&name)).then_some((at, call, name))
    }) else {
        return Ok(Examined::Other);
    };
    let request = routed
        .iter()
        .filter(|call| call.selector == wallet::REQUEST_RANDOM_SELECTOR)
        .map(VrfRequest::read)
        .collect::<Result<Vec<_>, _>>();
    let request = match request {
        Ok(requests) => requests,
        Err(e) => return skip(format!("request_random: {e}")),
    };
    let request = request
        .iter()
        .find(|r| r.consumer == c.game_core)
        .or(request.first())
        .cloned();
    if request.is_none() && action == "equip" {
        return Ok(Examined::Other);
    }
    let adventurer_id = game_call.calldata.first().map(|&f| AdventurerId::from(f));
    let settings_id = adventurer_id
        .map(game::token_fields::TokenFields::of)
        .filter(|t| t.is_packed())
        .map(|t| t.settings_id);
    let player = match game_call.route {
        Route::Outside { account, .. } => account,
        Route::Direct => sender,
    };
    let submitted_seed = routed
        .iter()
        .find(|call| call.selector == starknet::macros::selector!("submit_random"))
        .and_then(|call| call.calldata.first().copied());
    let wants_state = matches!(
        request.as_ref().map(|r| r.source),
        Some(classify::RequestedSource::Salt { .. })
    );
    let prior = match adventurer_id {
        Some(id) if wants_state => {
            let earlier = routed[..at]
                .iter()
                .filter(|call| call.to == c.game_core && call.calldata.first() == Some(&id.felt()))
                .count();
            prior_state(provider, c.game_core, id, tx_hash, earlier, block_number).await?
        }
        _ => None,
    };
    let nonces = match request.as_ref().map(|r| (r.provider, r.source)) {
        Some((vrf, classify::RequestedSource::Nonce { address })) if submitted_seed.is_some() => {
            // Optional evidence: a node without historical state leaves the seed unchecked.
            provider_nonces(provider, vrf, &opts.nonce_storage, address, block_number)
                .await
                .unwrap_or_else(|e| {
                    tracing::warn!(error = %e, "the provider's nonces could not be read");
                    None
                })
        }
        _ => None,
    };
    let cx = Context {
        game: c.game_core,
        player,
        chain_id,
        submitted_seed,
        nonces,
        prior: prior.as_ref(),
    };
    let verdict = classify(request.as_ref(), cx, &opts.candidates);
    Ok(Examined::Action(Box::new(Finding {
        tx_hash,
        block_number,
        action,
        adventurer_id,
        settings_id,
        route: game_call.route,
        player,
        request,
        verdict,
    })))
}

#[cfg(test)]
mod tests;
