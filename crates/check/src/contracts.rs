//! The ABI check of a deployment's contracts (docs/check.md): every contract is asked for its
//! class (`starknet_getClassHashAt`, then `starknet_getClassAt` unless the class is kept in the
//! data directory), and each entrypoint the bindings call is compared with the deployed one by
//! argument count and shape ([`crate::abi`]). The result is a report section, the generation
//! probe of the game address ([`crate::probe`]), and the gate that refuses writes whose
//! entrypoint differs ([`AbiCheck::gate`]).

use std::collections::BTreeMap;
use std::collections::btree_map::Entry;
use std::path::Path;

use starknet::core::types::Felt;

use chain::bindings::Entrypoint;
use chain::generation::{CheckTarget, Deployment, GameGeneration, Generation};
use chain::{AbiGate, AbiRefusal, AbiUnchecked};

use crate::abi::{Abi, compare};
use crate::classes::{ClassError, ClassSource, DeployedAbi, deployed_abi};
use crate::probe::{self, Speaks, short_address};
use crate::report::{Check, Difference, Section, Status};
use crate::short_string;

/// The report's `node` section: whether the node answers, with the chain id the profile expects.
pub async fn node_section(source: &dyn ClassSource, expected: Felt) -> Section {
    let name = "chain id";
    let check = match source.chain_id().await {
        Ok(id) if id == expected => Check::new(name, Status::Ok, short_string(id)),
        Ok(id) => Check::new(
            name,
            Status::Mismatch,
            format!(
                "the node's chain id is {} but the profile expects {}",
                short_string(id),
                short_string(expected)
            ),
        ),
        Err(e) => Check::new(name, Status::Unreachable, e.to_string()),
    };
    Section {
        name: "node".into(),
        checks: vec![check],
    }
}

/// What was found for one contract of the deployment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Its class was compared: the entrypoints compared and those that differ.
    Compared {
        /// How many entrypoints were compared.
        entrypoints: usize,
        /// Those that differ.
        differences: Vec<Difference>,
    },
    /// A legacy (Cairo 0) class where nothing is bound: not compared.
    Legacy,
    /// The class could not be compared with the bindings (a legacy class where Sierra is bound,
    /// an ABI that does not parse, a class that is not the one the node names): every entrypoint
    /// the bindings call there counts as different, so its writes are refused.
    Unreadable {
        /// Why.
        why: String,
        /// One per entrypoint the bindings call there.
        differences: Vec<Difference>,
    },
    /// The server calls no entrypoint of it through bindings (the world, a v2 dungeon).
    NoBindings,
    /// No contract at the address.
    NotDeployed,
    /// The node did not answer.
    Unreachable(String),
}

impl Outcome {
    /// The entrypoints found different (compared, or not comparable).
    pub fn differences(&self) -> &[Difference] {
        match self {
            Outcome::Compared { differences, .. } | Outcome::Unreadable { differences, .. } => {
                differences
            }
            _ => &[],
        }
    }
}

/// One contract's result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContractCheck {
    /// Its role (`game_core`, `game_systems`, …).
    pub role: &'static str,
    /// Its address.
    pub address: Felt,
    /// Its class hash, once read.
    pub class_hash: Option<Felt>,
    /// Whether its class came from the data directory rather than the node.
    pub cached: bool,
    /// What was found.
    pub outcome: Outcome,
}

/// The ABI check of one deployment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AbiCheck {
    /// The profile's generation.
    pub generation: Generation,
    /// One result per contract, in the deployment's order.
    pub contracts: Vec<ContractCheck>,
    /// What the game address's class says it is (`None`: its class was not read).
    pub speaks: Option<Speaks>,
    /// How many classes were fetched with `starknet_getClassAt` (not from the data directory).
    pub classes_fetched: usize,
    /// v2: what Denshokan's SRC5 says of IERC721 (`None`: its class was not read).
    pub erc721: Option<probe::Src5>,
    /// Whether the game address's class has `settings_exist` (`None`: its class was not read).
    pub settings_view: Option<bool>,
    /// v2: whether the game address's SRC5 says it is a game token itself (`None`: its class was
    /// not read).
    pub game_token_src5: Option<probe::GameSrc5>,
}

/// The entrypoints of `suffix` the server calls on that contract (those the generation checks).
fn entrypoints(game: &dyn GameGeneration, suffix: &str) -> Vec<&'static Entrypoint> {
    game.entrypoints()
        .iter()
        .filter(|e| e.tag_suffix == suffix && !game.unchecked(suffix, e.name))
        .collect()
}

/// Our ABIs by tag suffix, for a generation.
fn our_abis(game: &dyn GameGeneration) -> BTreeMap<String, Abi> {
    let v: serde_json::Value =
        serde_json::from_str(game.abis()).expect("the bindings' ABIs are JSON");
    v.as_object()
        .into_iter()
        .flatten()
        .filter_map(|(k, abi)| Some((k.clone(), Abi::parse(abi).ok()?)))
        .collect()
}

/// Runs the ABI check of `deployment` against `source`, keeping compared classes in `cache`
/// (the data directory's `checks/`; `None`: keep nothing).
pub async fn check_abi(
    source: &dyn ClassSource,
    deployment: &Deployment,
    cache: Option<&Path>,
) -> AbiCheck {
    let game = deployment.game();
    let generation = game.generation();
    let ours = our_abis(game);
    let mut read: BTreeMap<Felt, (DeployedAbi, bool)> = BTreeMap::new();
    let mut out = AbiCheck {
        generation,
        contracts: Vec::new(),
        speaks: None,
        classes_fetched: 0,
        erc721: None,
        settings_view: None,
        game_token_src5: None,
    };
    for target in game.check_targets() {
        let mut result = ContractCheck {
            role: target.role,
            address: target.address,
            class_hash: None,
            cached: false,
            outcome: Outcome::NoBindings,
        };
        if let Some(why) = out.unreachable() {
            result.outcome = Outcome::Unreachable(format!("not asked: {why}"));
            out.contracts.push(result);
            continue;
        }
        let class = match source.class_hash_at(target.address).await {
            Ok(class_hash) => {
                result.class_hash = Some(class_hash);
                match read.entry(class_hash) {
                    Entry::Occupied(kept) => Ok(&*kept.into_mut()),
                    Entry::Vacant(slot) => {
                        let abi = deployed_abi(source, target.address, class_hash, cache).await;
                        abi.map(|(abi, cached)| {
                            out.classes_fetched += usize::from(!cached);
                            &*slot.insert((abi, cached))
                        })
                    }
                }
            }
            Err(e) => Err(e),
        };
        let mine = target.suffix.and_then(|s| Some((s, ours.get(s)?)));
        match class {
            Ok((deployed, cached)) => {
                result.cached = *cached;
                if target.address == deployment.game_address() {
                    let abi = deployed.as_ref().ok().and_then(Option::as_ref);
                    out.speaks = abi.map(probe::speaks);
                    out.settings_view = abi.map(|a| a.function("settings_exist").is_some());
                }
                result.outcome = match (deployed, mine) {
                    (_, None) => Outcome::NoBindings,
                    (Ok(None), Some((suffix, mine))) => unreadable(
                        &target,
                        game,
                        suffix,
                        mine,
                        "a legacy (Cairo 0) class, where the bindings call a Sierra one",
                    ),
                    (Err(why), Some((suffix, mine))) => {
                        unreadable(&target, game, suffix, mine, why)
                    }
                    (Ok(Some(deployed)), Some((suffix, mine))) => {
                        compared(&target, game, suffix, mine, deployed)
                    }
                };
            }
            Err(ClassError::NotDeployed) => result.outcome = Outcome::NotDeployed,
            Err(ClassError::Unreachable(m)) => result.outcome = Outcome::Unreachable(m),
            Err(e @ (ClassError::NotItsHash { .. } | ClassError::Unreadable(_))) => {
                result.outcome = match mine {
                    Some((suffix, mine)) => unreadable(&target, game, suffix, mine, &e.to_string()),
                    None => Outcome::Unreadable {
                        why: e.to_string(),
                        differences: Vec::new(),
                    },
                }
            }
        }
        out.contracts.push(result);
    }
    if let Some(token) = game.src5_token() {
        let found = out.contracts.iter().find(|x| x.address == token);
        let abi = found.and_then(|x| read.get(&x.class_hash?)?.0.as_ref().ok()?.as_ref());
        if let Some(abi) = abi {
            out.erc721 = Some(probe::erc721(source, token, abi).await);
        }
        // The game address of another design may be its own token, and say so by its interface.
        let game_address = deployment.game_address();
        let found = out.contracts.iter().find(|x| x.address == game_address);
        let abi = found.and_then(|x| read.get(&x.class_hash?)?.0.as_ref().ok()?.as_ref());
        if let Some(abi) = abi {
            out.game_token_src5 = Some(probe::game_token_src5(source, game_address, abi).await);
        }
    }
    out
}

/// `target`'s entrypoints, each counted as different because its class cannot be compared.
fn unreadable(
    target: &CheckTarget,
    game: &dyn GameGeneration,
    suffix: &str,
    mine: &Abi,
    why: &str,
) -> Outcome {
    let differences = entrypoints(game, suffix)
        .iter()
        .filter_map(|e| {
            let f = mine.function(e.name)?;
            Some(Difference {
                contract: target.role.to_string(),
                address: format!("{:#x}", target.address),
                entrypoint: e.name.to_string(),
                write: !e.view,
                ours: mine.signature(f, e.view, false),
                deployed: Some(format!("not comparable: {why}")),
            })
        })
        .collect();
    Outcome::Unreadable {
        why: why.to_string(),
        differences,
    }
}

/// `target`'s entrypoints compared: ours (`mine`, tag `suffix`) with the deployed class's.
fn compared(
    target: &CheckTarget,
    game: &dyn GameGeneration,
    suffix: &str,
    mine: &Abi,
    deployed: &Abi,
) -> Outcome {
    let wanted = entrypoints(game, suffix);
    let differences = wanted
        .iter()
        .filter_map(|e| {
            let (ours, theirs) = compare(mine, deployed, e.name, e.view)?;
            Some(Difference {
                contract: target.role.to_string(),
                address: format!("{:#x}", target.address),
                entrypoint: e.name.to_string(),
                write: !e.view,
                ours,
                deployed: theirs,
            })
        })
        .collect();
    Outcome::Compared {
        entrypoints: wanted.len(),
        differences,
    }
}

impl AbiCheck {
    /// The gate refusing the calls whose entrypoint differs (writes before signing, views before
    /// their answer is read) and holding writes to the contracts not read; `check_command` (the
    /// command that shows the differences) is named in each refusal.
    pub fn gate(&self, check_command: &str) -> AbiGate {
        let refused = self
            .contracts
            .iter()
            .flat_map(|c| c.outcome.differences().iter().map(move |d| (c.address, d)))
            .map(|(address, d)| {
                let refusal = AbiRefusal {
                    contract: d.contract.clone(),
                    entrypoint: d.entrypoint.clone(),
                    write: d.write,
                    ours: d.ours.clone(),
                    deployed: d
                        .deployed
                        .clone()
                        .unwrap_or_else(|| "none (no such entrypoint)".into()),
                    check: check_command.to_owned(),
                };
                (address, refusal)
            });
        let unchecked = self.contracts.iter().filter_map(|c| match &c.outcome {
            Outcome::Unreachable(why) => Some((
                c.address,
                AbiUnchecked {
                    contract: c.role.to_owned(),
                    why: why.clone(),
                    check: check_command.to_owned(),
                },
            )),
            _ => None,
        });
        AbiGate::new(refused, unchecked)
    }

    /// Every difference found, writes and reads.
    pub fn differences(&self) -> impl Iterator<Item = &Difference> {
        self.contracts.iter().flat_map(|c| c.outcome.differences())
    }

    /// Why the node did not answer, when it did not (the contracts after the first it did not
    /// answer for are not asked).
    pub fn unreachable(&self) -> Option<&str> {
        self.contracts.iter().find_map(|c| match &c.outcome {
            Outcome::Unreachable(m) => Some(m.as_str()),
            _ => None,
        })
    }

    /// The report's `abi` section: one check per contract.
    pub fn section(&self) -> Section {
        let checks = self.contracts.iter().map(contract_check).collect();
        Section {
            name: "abi".into(),
            checks,
        }
    }

    /// The report's `generation` section: what the game address's class says it is, and on v2
    /// whether Denshokan's SRC5 says it is an ERC721 (where its class has SRC5).
    pub fn generation_section(&self, deployment: &Deployment) -> Section {
        let game_address = deployment.game_address();
        let check = match self.speaks {
            Some(found) => probe::generation_check(self.generation, game_address, found),
            None => Check::new(
                format!("game address {}", short_address(game_address)),
                Status::Skipped,
                "its class was not read (see the abi section)",
            ),
        };
        let mut checks = vec![check];
        if let Some(found) = &self.game_token_src5 {
            checks.push(probe::game_src5_check(game_address, found));
        }
        if let (Some(found), Some(token)) = (&self.erc721, deployment.game().src5_token()) {
            checks.push(probe::src5_check("denshokan", token, found));
        }
        Section {
            name: "generation".into(),
            checks,
        }
    }
}

fn contract_check(c: &ContractCheck) -> Check {
    let name = format!("{} {}", c.role, short_address(c.address));
    let class = c.class_hash.map_or(String::new(), |h| {
        format!(
            "class {}{}",
            short_address(h),
            if c.cached { " (kept)" } else { "" }
        )
    });
    let (status, detail) = match &c.outcome {
        Outcome::Compared {
            entrypoints,
            differences,
        } if differences.is_empty() => (
            Status::Ok,
            match entrypoints {
                1 => format!("1 entrypoint matches; {class}"),
                n => format!("{n} entrypoints match; {class}"),
            },
        ),
        Outcome::Compared {
            entrypoints,
            differences,
        } => (
            Status::Mismatch,
            format!(
                "{} of {entrypoints} entrypoints differ ({}); {class}",
                differences.len(),
                differences
                    .iter()
                    .map(|d| d.entrypoint.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ),
        Outcome::Legacy => (
            Status::Skipped,
            format!("legacy class, not checked; {class}"),
        ),
        Outcome::NoBindings => (
            Status::Skipped,
            format!("no entrypoint called through bindings; {class}"),
        ),
        Outcome::NotDeployed => (
            Status::Mismatch,
            "no contract is deployed at this address".into(),
        ),
        Outcome::Unreachable(m) => (Status::Unreachable, m.clone()),
        Outcome::Unreadable { why, differences } => (
            Status::Mismatch,
            format!(
                "not comparable ({why}): its {} bound entrypoints count as different; {class}",
                differences.len()
            ),
        ),
    };
    let mut check = Check::new(name, status, detail);
    check.differences = c.outcome.differences().to_vec();
    check
}

#[cfg(test)]
mod tests;
