//! Which rule a `request_random` call follows: its `Source` variant and, for a salt, which known
//! recipe over the adventurer's state before the action gives it; the seed `submit_random` carries
//! is checked against the provider's arithmetic (cartridge-gg/vrf `src/vrf_provider/
//! vrf_provider_component.cairo` @ `1a43153b`, `consume_random`: `poseidon([salt, caller,
//! chain_id])`).

use game::AdventurerId;
use game::felt::{DecodeError, FeltReader};
use game::model::Adventurer;
use game::random::{battle_salt, explore_salt};
use serde::Serialize;
use starknet::core::types::Felt;
use starknet_crypto::poseidon_hash_many;

use super::calls::{Route, RoutedCall};
use chain::generation::{SaltRecipe, VrfSource};

/// The adventurer as its events showed it just before the transaction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct PriorState {
    /// The adventurer (the game call's first argument).
    pub adventurer_id: AdventurerId,
    /// Experience.
    pub xp: u16,
    /// Health.
    pub health: u16,
    /// The beast's health (0: out of battle).
    pub beast_health: u16,
    /// How many of the adventurer's transactions came before (start included): v1's
    /// `action_count` before the action.
    pub actions: u16,
}

impl PriorState {
    /// The state in the shape the salts of [`SaltRecipe`] read.
    fn adventurer(&self) -> Adventurer {
        Adventurer {
            xp: self.xp,
            health: self.health,
            beast_health: self.beast_health,
            action_count: self.actions,
            ..Adventurer::default()
        }
    }
}

/// A salt recipe the detection tries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Recipe {
    /// The v2 practice world's: `poseidon([adventurer_id, xp, health, beast_health])`.
    AdventurerState,
    /// V1's out of battle (Provable-Games/death-mountain `get_simple_entropy`, the client's
    /// `generateSalt`): `poseidon([xp, adventurer_id])`.
    V1Explore,
    /// V1's in battle (`get_battle_entropy`, the client's `generateBattleSalt`): `poseidon([xp,
    /// adventurer_id, action_count + 1])`, v2's count being the adventurer's transactions.
    V1Battle,
}

impl Recipe {
    /// Every recipe known, tried in this order.
    pub const KNOWN: [Recipe; 3] = [Recipe::AdventurerState, Recipe::V1Explore, Recipe::V1Battle];

    /// The recipe's name in reports.
    pub fn name(self) -> &'static str {
        match self {
            Recipe::AdventurerState => "adventurer_state",
            Recipe::V1Explore => "v1_explore",
            Recipe::V1Battle => "v1_battle",
        }
    }

    /// What it hashes, for reports.
    pub fn formula(self) -> &'static str {
        match self {
            Recipe::AdventurerState => "poseidon([adventurer_id, xp, health, beast_health])",
            Recipe::V1Explore => "poseidon([xp, adventurer_id])",
            Recipe::V1Battle => "poseidon([xp, adventurer_id, actions + 1])",
        }
    }

    /// The felts it hashes from `s`, in order.
    pub fn inputs(self, s: &PriorState) -> Vec<Felt> {
        let id = s.adventurer_id.felt();
        match self {
            Recipe::AdventurerState => vec![
                id,
                Felt::from(s.xp),
                Felt::from(s.health),
                Felt::from(s.beast_health),
            ],
            Recipe::V1Explore => vec![Felt::from(s.xp), id],
            Recipe::V1Battle => vec![Felt::from(s.xp), id, Felt::from(s.actions.wrapping_add(1))],
        }
    }

    /// The salt it gives for `s`, by the functions the client signs with.
    pub fn salt(self, s: &PriorState) -> Felt {
        match self {
            Recipe::AdventurerState => {
                SaltRecipe::AdventurerState.salt(s.adventurer_id, &s.adventurer())
            }
            Recipe::V1Explore => explore_salt(s.adventurer_id, s.xp),
            Recipe::V1Battle => battle_salt(s.adventurer_id, s.xp, s.actions),
        }
    }

    /// The profile's source this recipe's match settles, when the client can play it from `s`:
    /// v1's two recipes only as v1 chose them (battle salt in battle, explore salt out of it).
    pub fn source(self, s: &PriorState) -> Option<VrfSource> {
        match (self, s.beast_health > 0) {
            (Recipe::AdventurerState, _) => Some(VrfSource::Salt(SaltRecipe::AdventurerState)),
            (Recipe::V1Explore, false) | (Recipe::V1Battle, true) => {
                Some(VrfSource::Salt(SaltRecipe::V1))
            }
            _ => None,
        }
    }
}

/// The `Source` a `request_random` asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "variant", rename_all = "snake_case")]
pub enum RequestedSource {
    /// `Source::Nonce(address)` (variant 0).
    Nonce {
        /// The address whose provider nonce is spent.
        address: Felt,
    },
    /// `Source::Salt(salt)` (variant 1).
    Salt {
        /// The salt.
        salt: Felt,
    },
}

/// A `request_random(caller, source)` call as sent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct VrfRequest {
    /// The provider it went to.
    pub provider: Felt,
    /// `caller`: the contract that will consume the randomness.
    pub consumer: Felt,
    /// The source asked for.
    pub source: RequestedSource,
    /// Who sent it.
    pub route: Route,
    /// The calldata as sent.
    pub calldata: Vec<Felt>,
}

impl VrfRequest {
    /// Reads `[caller, variant, value]`; any other shape is an error naming the field.
    pub fn read(call: &RoutedCall) -> Result<Self, DecodeError> {
        let mut r = FeltReader::new(&call.calldata);
        let consumer = r.felt("caller")?;
        let source = match r.variant("source", 2)? {
            0 => RequestedSource::Nonce {
                address: r.felt("address")?,
            },
            _ => RequestedSource::Salt {
                salt: r.felt("salt")?,
            },
        };
        r.finish()?;
        Ok(Self {
            provider: call.to,
            consumer,
            source,
            route: call.route,
            calldata: call.calldata.clone(),
        })
    }
}

/// Provider nonces tried at most for one nonce seed.
pub const MAX_NONCES: usize = 256;

/// The seed `submit_random` carried, held against the one the request gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "check", rename_all = "snake_case")]
pub enum SeedCheck {
    /// The transaction has no `submit_random` (a plain multicall, or a node without VRF).
    NotSent,
    /// The request's seed equals the submitted one: `poseidon([salt, caller, chain_id])`, or
    /// `poseidon([nonce, address, caller, chain_id])` for a provider nonce read around the block.
    Verified {
        /// The seed.
        seed: Felt,
        /// The provider nonce that gives it (nonce sources).
        #[serde(skip_serializing_if = "Option::is_none")]
        nonce: Option<u64>,
    },
    /// The submitted seed is not the one the salt gives.
    Differs {
        /// The seed submitted.
        seed: Felt,
        /// `poseidon([salt, caller, chain_id])`.
        expected: Felt,
    },
    /// A nonce seed no provider nonce read explains: the nonces of the address before and after
    /// the transaction's block (`None`: they could not be read), none of which gives the seed.
    Unchecked {
        /// The seed submitted.
        seed: Felt,
        /// The nonces tried, first and last.
        nonces: Option<(u64, u64)>,
    },
}

impl SeedCheck {
    /// The check of a submitted seed (if any) against the request; a nonce source's seed is
    /// tried with each provider nonce in `nonces` (at most [`MAX_NONCES`] of them).
    pub fn of(
        request: &VrfRequest,
        chain_id: Felt,
        submitted: Option<Felt>,
        nonces: Option<(u64, u64)>,
    ) -> Self {
        let Some(seed) = submitted else {
            return SeedCheck::NotSent;
        };
        match request.source {
            RequestedSource::Salt { salt } => {
                let expected = poseidon_hash_many(&[salt, request.consumer, chain_id]);
                if expected == seed {
                    SeedCheck::Verified { seed, nonce: None }
                } else {
                    SeedCheck::Differs { seed, expected }
                }
            }
            RequestedSource::Nonce { address } => {
                let found = nonces.and_then(|(first, last)| {
                    (first..=last).take(MAX_NONCES).find(|&n| {
                        poseidon_hash_many(&[Felt::from(n), address, request.consumer, chain_id])
                            == seed
                    })
                });
                match found {
                    Some(n) => SeedCheck::Verified {
                        seed,
                        nonce: Some(n),
                    },
                    None => SeedCheck::Unchecked { seed, nonces },
                }
            }
        }
    }
}

/// One recipe tried, with what it hashed and what it gave.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Tried {
    /// The recipe's name.
    pub recipe: &'static str,
    /// What it hashes.
    pub formula: &'static str,
    /// The felts hashed.
    pub inputs: Vec<Felt>,
    /// The salt it gives.
    pub value: Felt,
}

/// What one action's randomness request shows.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "verdict", rename_all = "snake_case")]
pub enum Verdict {
    /// The action drew randomness without any `request_random` (VRF off).
    NoRequest,
    /// `Source::Nonce(address)`.
    Nonce {
        /// The consumer named by the request.
        consumer: Felt,
        /// Whether the consumer is the deployment's game contract.
        consumer_is_game: bool,
        /// The address whose nonce is spent.
        address: Felt,
        /// Whether that is the account that played the action.
        address_is_player: bool,
        /// The seed check.
        seed: SeedCheck,
    },
    /// A salt one known recipe gives.
    Salt {
        /// The consumer named by the request.
        consumer: Felt,
        /// Whether the consumer is the deployment's game contract.
        consumer_is_game: bool,
        /// The recipe and its values.
        matched: Tried,
        /// The profile source it settles (`None`: a v1 recipe used outside v1's choice).
        source: Option<&'static str>,
        /// The seed check.
        seed: SeedCheck,
    },
    /// A salt no recipe gives: every candidate with its inputs and value.
    NoMatch {
        /// The consumer named by the request.
        consumer: Felt,
        /// The salt requested.
        salt: Felt,
        /// The state the recipes were computed from (`None`: no adventurer event came before).
        prior: Option<PriorState>,
        /// Each candidate tried.
        candidates: Vec<Tried>,
        /// The seed check.
        seed: SeedCheck,
    },
}

impl Verdict {
    /// The profile's `vrf_source` this verdict settles, if any. The consumer may be GameCore or
    /// another contract (a subsystem that calls `consume_random`): the settled rule keeps it.
    pub fn source(&self) -> Option<&'static str> {
        match self {
            Verdict::NoRequest => Some(VrfSource::Off.name()),
            Verdict::Nonce {
                address_is_player: true,
                ..
            } => Some(VrfSource::Nonce.name()),
            Verdict::Salt { source, .. } => *source,
            _ => None,
        }
    }

    /// The contract the request names as the consumer (`None`: no request).
    pub fn consumer(&self) -> Option<Felt> {
        match self {
            Verdict::NoRequest => None,
            Verdict::Nonce { consumer, .. }
            | Verdict::Salt { consumer, .. }
            | Verdict::NoMatch { consumer, .. } => Some(*consumer),
        }
    }
}

/// What the rest of a transaction says about its request.
#[derive(Debug, Clone, Copy)]
pub struct Context<'a> {
    /// The deployment's game contract (GameCore, or v1's game systems).
    pub game: Felt,
    /// The account that played the action.
    pub player: Felt,
    /// The chain's id, as the provider hashes it.
    pub chain_id: Felt,
    /// The seed of the transaction's `submit_random`, when it has one.
    pub submitted_seed: Option<Felt>,
    /// For a nonce source, the provider's nonces of its address before and after the block.
    pub nonces: Option<(u64, u64)>,
    /// The adventurer before the action, when its events show it.
    pub prior: Option<&'a PriorState>,
}

/// The verdict on `request` (`None`: the action drew randomness without one), trying `candidates`
/// in order for a salt.
pub fn classify(request: Option<&VrfRequest>, cx: Context<'_>, candidates: &[Recipe]) -> Verdict {
    let Some(request) = request else {
        return Verdict::NoRequest;
    };
    let seed = SeedCheck::of(request, cx.chain_id, cx.submitted_seed, cx.nonces);
    let consumer = request.consumer;
    let consumer_is_game = consumer == cx.game;
    let salt = match request.source {
        RequestedSource::Nonce { address } => {
            return Verdict::Nonce {
                consumer,
                consumer_is_game,
                address,
                address_is_player: address == cx.player,
                seed,
            };
        }
        RequestedSource::Salt { salt } => salt,
    };
    let tried: Vec<(Recipe, Tried)> = cx
        .prior
        .map(|p| {
            candidates
                .iter()
                .map(|&r| {
                    let t = Tried {
                        recipe: r.name(),
                        formula: r.formula(),
                        inputs: r.inputs(p),
                        value: r.salt(p),
                    };
                    (r, t)
                })
                .collect()
        })
        .unwrap_or_default();
    match (cx.prior, tried.iter().find(|(_, t)| t.value == salt)) {
        (Some(p), Some((recipe, matched))) => Verdict::Salt {
            consumer,
            consumer_is_game,
            matched: matched.clone(),
            source: recipe.source(p).map(VrfSource::name),
            seed,
        },
        _ => Verdict::NoMatch {
            consumer,
            salt,
            prior: cx.prior.copied(),
            candidates: tried.into_iter().map(|(_, t)| t).collect(),
            seed,
        },
    }
}

#[cfg(test)]
mod tests;
