//! The embedded practice chain (`sim` profile): an in-process world run by the game engine, with
//! no network and no key. Every action is applied at once, as one "transaction" with a
//! well-formed but fake hash, its own block, no fee, and the engine's game events encoded exactly
//! as the world contract emits them (and decoded back, like a real receipt). Each new game draws a
//! hidden seed, as the VRF does on mainnet, so advisors can only give odds (`seeds`); a
//! deterministic world plays `poseidon(xp, adventurer_id)`, as on chains without VRF.

mod seeds;

pub use seeds::{SeedError, SimRandomness};

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;
use std::time::SystemTime;

use starknet::core::types::{Event, Felt};
use starknet::core::utils::cairo_short_string_to_felt;
use starknet_crypto::poseidon_hash_many;

use super::ledger::TxRecord;
use super::revert::classify;
use super::submit::Confirm;
use super::{ChainError, GameAction, TxLookup, TxReport, WriteOptions, action_name};
use crate::game::engine::{Action, EngineSettings, World};
use crate::game::events::{decode_game_event, encode_game_event};
use crate::game::model::{GameState, ItemPurchase};

/// How many transactions `tx` lookups remember (older ones read as unknown).
const REMEMBERED_TXS: usize = 4096;

fn short(s: &str) -> Felt {
    cairo_short_string_to_felt(s).expect("short ASCII constant")
}

/// The sim account (the only player of the embedded chain): the short string `sim_player`.
pub fn sim_account() -> Felt {
    short("sim_player")
}

/// The address the sim's game events come from: the short string `sim_game_systems`.
pub fn sim_game_systems() -> Felt {
    short("sim_game_systems")
}

/// Converts a chain action into the engine's.
pub fn engine_action(action: &GameAction) -> Action {
    match action {
        GameAction::StartGame { weapon } => Action::StartGame { weapon: *weapon },
        GameAction::Explore { till_beast } => Action::Explore {
            till_beast: *till_beast,
        },
        GameAction::Attack { to_the_death } => Action::Attack {
            to_the_death: *to_the_death,
        },
        GameAction::Flee { to_the_death } => Action::Flee {
            to_the_death: *to_the_death,
        },
        GameAction::Equip { items } => Action::Equip {
            items: items.clone(),
        },
        GameAction::Drop { items } => Action::Drop {
            items: items.clone(),
        },
        GameAction::BuyItems { potions, items } => Action::BuyItems {
            potions: *potions,
            items: items
                .iter()
                .map(|&(item_id, equip)| ItemPurchase { item_id, equip })
                .collect(),
        },
        GameAction::Upgrade { stats } => Action::Upgrade { stats: *stats },
    }
}

struct Ledger {
    nonce: u64,
    block: u64,
    order: VecDeque<Felt>,
    txs: HashMap<Felt, (TxRecord, TxReport)>,
}

struct Inner {
    world: World,
    ledger: Ledger,
}

/// The in-process chain behind the `sim` profile.
pub struct SimChain {
    inner: Mutex<Inner>,
    randomness: SimRandomness,
}

impl std::fmt::Debug for SimChain {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SimChain").finish_non_exhaustive()
    }
}

fn status_of(confirm: Confirm) -> &'static str {
    match confirm {
        Confirm::PreConfirmed => "PRE_CONFIRMED",
        Confirm::Accepted => "ACCEPTED_ON_L2",
        Confirm::Finalized => "ACCEPTED_ON_L1",
    }
}

impl SimChain {
    /// A fresh deterministic world with these rules; the first adventurer minted gets
    /// `first_adventurer_id`.
    pub fn new(settings: EngineSettings, first_adventurer_id: u64) -> Self {
        Self::with_randomness(settings, first_adventurer_id, SimRandomness::Deterministic)
    }

    /// A fresh in-memory world whose games draw their randomness from `randomness`.
    pub fn with_randomness(
        settings: EngineSettings,
        first_adventurer_id: u64,
        randomness: SimRandomness,
    ) -> Self {
        Self {
            randomness,
            inner: Mutex::new(Inner {
                world: World::new(settings, first_adventurer_id),
                ledger: Ledger {
                    nonce: 0,
                    block: 0,
                    order: VecDeque::new(),
                    txs: HashMap::new(),
                },
            }),
        }
    }

    /// The world's rules.
    pub fn settings(&self) -> EngineSettings {
        *self.lock().world.settings()
    }

    /// Where the world's games draw their randomness from.
    pub fn randomness(&self) -> SimRandomness {
        self.randomness
    }

    /// The player's account address.
    pub fn account_address(&self) -> Felt {
        sim_account()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The game state, as `get_game_state` would return it.
    pub fn game_state(&self, adventurer_id: u64) -> GameState {
        self.lock().world.state(adventurer_id)
    }

    /// The owner of a token, `None` if never minted.
    pub fn owner_of(&self, adventurer_id: u64) -> Option<Felt> {
        self.lock().world.owner(adventurer_id)
    }

    /// Mints an adventurer token to the sim account; its game draws a hidden seed unless the
    /// world is deterministic.
    pub fn mint_game(&self, opts: &WriteOptions) -> Result<(u64, TxReport), ChainError> {
        let mut inner = self.lock();
        let next = inner.world.next_id();
        let hidden = self
            .randomness
            .hidden_seed(next)
            .map_err(|e| ChainError::Rpc(e.to_string()))?;
        let id = inner.world.mint_hidden(sim_account(), hidden);
        let transfer = Event {
            from_address: sim_game_systems(),
            keys: vec![
                starknet::macros::selector!("Transfer"),
                Felt::ZERO,
                sim_account(),
                Felt::from(id),
                Felt::ZERO,
            ],
            data: vec![],
        };
        let report = inner
            .ledger
            .commit(Some(id), "mint_game", vec![transfer], opts);
        Ok((id, report))
    }

    /// Applies an action; a refused action is a simulation-time revert (no transaction).
    pub fn apply(
        &self,
        adventurer_id: u64,
        action: &GameAction,
        opts: &WriteOptions,
    ) -> Result<TxReport, ChainError> {
        let mut inner = self.lock();
        let events = inner
            .world
            .act(sim_account(), adventurer_id, &engine_action(action))
            .map_err(|r| ChainError::Revert {
                revert: classify(&format!("('{}')", r.0)),
                tx_hash: None,
            })?;
        let raw = events
            .iter()
            .map(|e| {
                let (keys, data) = encode_game_event(e, sim_game_systems());
                Event {
                    from_address: sim_game_systems(),
                    keys,
                    data,
                }
            })
            .collect();
        Ok(inner
            .ledger
            .commit(Some(adventurer_id), action_name(action), raw, opts))
    }

    /// What is known about a transaction of this run.
    pub fn lookup(&self, tx_hash: Felt) -> TxLookup {
        match self.lock().ledger.txs.get(&tx_hash) {
            Some((record, report)) => TxLookup {
                record: Some(record.clone()),
                status: report.status.to_string(),
                execution: Some("SUCCEEDED".into()),
                revert_reason: None,
                report: Some(report.clone()),
            },
            None => TxLookup {
                record: None,
                status: "NOT_RECEIVED".into(),
                execution: None,
                revert_reason: None,
                report: None,
            },
        }
    }
}

impl Ledger {
    /// Records one transaction in its own block. It is final at once, so no progress is reported.
    fn commit(
        &mut self,
        adventurer_id: Option<u64>,
        action: &str,
        raw_events: Vec<Event>,
        opts: &WriteOptions,
    ) -> TxReport {
        self.nonce += 1;
        self.block += 1;
        let nonce = Felt::from(self.nonce);
        let tx_hash = poseidon_hash_many(&[
            short("sim_tx"),
            nonce,
            Felt::from(adventurer_id.unwrap_or(0)),
        ]);
        let events = raw_events
            .iter()
            .filter_map(|e| decode_game_event(&e.keys, &e.data).ok().flatten())
            .collect();
        let status = status_of(opts.confirm);
        let report = TxReport {
            tx_hash,
            status,
            block_number: Some(self.block),
            actual_fee: 0,
            events,
            raw_events,
        };
        let record = TxRecord {
            tx_hash: format!("{tx_hash:#x}"),
            adventurer_id,
            action: action.to_string(),
            nonce: format!("{nonce:#x}"),
            max_fee: "0".into(),
            signed_at: SystemTime::now()
                .duration_since(SystemTime::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs()),
            last_status: status.to_string(),
        };
        self.txs.insert(tx_hash, (record, report.clone()));
        self.order.push_back(tx_hash);
        while self.order.len() > REMEMBERED_TXS {
            if let Some(old) = self.order.pop_front() {
                self.txs.remove(&old);
            }
        }
        report
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chain::Hooks;
    use crate::game::events::GameEventDetails;
    use std::time::Duration;

    fn opts() -> WriteOptions {
        WriteOptions {
            confirm: Confirm::Accepted,
            timeout: Duration::from_secs(1),
            hooks: Hooks::default(),
        }
    }

    #[test]
    fn plays_and_reports_like_a_chain() {
        let sim = SimChain::new(EngineSettings::default(), 7);
        let (id, mint) = sim.mint_game(&opts()).unwrap();
        assert_eq!(id, 7);
        assert_eq!(sim.owner_of(7), Some(sim_account()));
        assert_eq!(sim.owner_of(8), None);
        let r = sim
            .apply(id, &GameAction::StartGame { weapon: 46 }, &opts())
            .unwrap();
        assert_ne!(r.tx_hash, mint.tx_hash);
        assert_eq!(r.status, "ACCEPTED_ON_L2");
        assert_eq!(r.block_number, Some(2));
        assert_eq!(r.events.len(), r.raw_events.len());
        assert!(matches!(r.events[0].details, GameEventDetails::Beast(_)));
        assert_eq!(sim.game_state(id).adventurer.health, 90);
        let e = sim
            .apply(id, &GameAction::Explore { till_beast: false }, &opts())
            .unwrap_err();
        let ChainError::Revert { revert, tx_hash } = e else {
            panic!("{e:?}")
        };
        assert_eq!((revert.code, tx_hash), ("IN_BATTLE", None));
        let found = sim.lookup(r.tx_hash);
        assert_eq!(found.status, "ACCEPTED_ON_L2");
        assert_eq!(found.record.unwrap().action, "start_game");
        assert_eq!(sim.lookup(Felt::ONE).status, "NOT_RECEIVED");
    }

    /// Plays the same choices on adventurer 1 of a fresh world: start, the starter beast, all
    /// points in vitality, then explore/attack until 40 actions or death. Returns every event.
    fn same_choices(randomness: SimRandomness) -> Vec<GameEventDetails> {
        let sim = SimChain::with_randomness(EngineSettings::default(), 1, randomness);
        let (id, _) = sim.mint_game(&opts()).unwrap();
        let mut events = Vec::new();
        let mut act = |a: GameAction| {
            if let Ok(r) = sim.apply(id, &a, &opts()) {
                events.extend(r.events.into_iter().map(|e| e.details));
            }
        };
        act(GameAction::StartGame { weapon: 46 });
        for _ in 0..40 {
            let adv = sim.game_state(id).adventurer;
            if adv.health == 0 {
                break;
            }
            act(if adv.stat_upgrades_available > 0 {
                GameAction::Upgrade {
                    stats: crate::game::model::Stats {
                        vitality: adv.stat_upgrades_available,
                        ..Default::default()
                    },
                }
            } else if adv.beast_health > 0 {
                GameAction::Attack {
                    to_the_death: false,
                }
            } else {
                GameAction::Explore { till_beast: false }
            });
        }
        events
    }

    #[test]
    fn hidden_seeds_make_each_fresh_world_a_new_dungeon() {
        let det = same_choices(SimRandomness::Deterministic);
        assert!(det.len() > 10, "the game went somewhere: {}", det.len());
        assert_eq!(det, same_choices(SimRandomness::Deterministic));
        let (a, b) = (
            same_choices(SimRandomness::Os),
            same_choices(SimRandomness::Os),
        );
        assert_ne!(a, b, "two OS-seeded games with the same id and choices");
        assert_ne!(a, det);
        let m = same_choices(SimRandomness::Master(9));
        assert_eq!(
            m,
            same_choices(SimRandomness::Master(9)),
            "a master seed replays"
        );
        assert_ne!(m, same_choices(SimRandomness::Master(10)));
        assert_ne!(m, det);
    }
}
