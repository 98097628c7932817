//! A v2 game replayed in the engine: each action applied with the seed the chain announced for
//! it, so what GameCore stores can be checked against the rules the engine plays.

use starknet_types_core::felt::Felt;

use crate::AdventurerId;
use crate::engine::{Action, Collection, EngineSettings, Game, Outcome, Revert};
use crate::events::GameEventDetails;
use crate::model::GameState;

/// One v2 game in the engine, fed the actions that landed and their announced seeds.
#[derive(Clone, Debug)]
pub struct Replay {
    id: Felt,
    game: Game,
    settings: EngineSettings,
    collection: Collection,
}

impl Replay {
    /// A game not started yet, for the packed token id `id`, under `settings`.
    pub fn new(id: AdventurerId, settings: EngineSettings) -> Self {
        Self {
            id: id.felt(),
            game: Game::default(),
            settings,
            collection: Collection::new(),
        }
    }

    /// Applies one action; `drawn` is the seed its `randomness` event announced (`None` for an
    /// action that drew none). A revert leaves the game as it was.
    pub fn apply(&mut self, action: &Action, drawn: Option<Felt>) -> Result<Outcome, Revert> {
        let outcome =
            self.game
                .apply_drawn(self.id, action, drawn, &self.settings, &self.collection)?;
        self.collection.extend(outcome.collected.iter().copied());
        Ok(outcome)
    }

    /// The state `get_game_state` would show: the boosted adventurer, bag, beast and market.
    pub fn state(&self) -> GameState {
        self.game.state(self.id, &self.settings, &self.collection)
    }
}

/// The seed a transaction's `randomness` event announced, in the form the v2 practice world
/// emits (`[seed, action_count]`; mainnet's payload is not public): its first felt.
pub fn announced_seed(events: &[GameEventDetails]) -> Option<Felt> {
    events.iter().find_map(|e| match e {
        GameEventDetails::Randomness(p) => p.felts.first().copied(),
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Action;
    use crate::events::UnknownPayload;

    fn settings() -> EngineSettings {
        EngineSettings::practice_world()
    }

    #[test]
    fn a_small_id_replays_as_the_engine_plays_it() {
        let mut engine = Game::default();
        let mut replay = Replay::new(AdventurerId::from(9u64), settings());
        let collection = Collection::new();
        let start = Action::StartGame { weapon: 12 };
        let attack = Action::Attack {
            to_the_death: false,
        };
        for action in [&start, &attack] {
            let expected = engine.apply(9u64, action, &settings(), &collection);
            let got = replay.apply(action, None);
            assert_eq!(got, expected);
        }
        assert_eq!(replay.state(), engine.state(9u64, &settings(), &collection));
    }

    #[test]
    fn a_packed_id_starts_on_its_low_64_bits_and_draws_the_announced_seed() {
        let id = AdventurerId::parse(
            "0x70000000000000000000000000000000000000000000000abcdef0123456789",
        )
        .unwrap();
        let mut replay = Replay::new(id, settings());
        let started = replay
            .apply(&Action::StartGame { weapon: 12 }, None)
            .unwrap();
        let low = AdventurerId::from(0xabcdef0123456789u64);
        let mut small = Replay::new(low, settings());
        assert_eq!(
            small
                .apply(&Action::StartGame { weapon: 12 }, None)
                .unwrap(),
            started,
            "the starter beast comes from the low 64 bits"
        );
        let attack = Action::Attack { to_the_death: true };
        replay.apply(&attack, Some(Felt::from(5u8))).unwrap();
        let points = replay.game.adventurer.stat_upgrades_available;
        let stats = crate::model::Stats {
            vitality: points,
            ..Default::default()
        };
        replay.apply(&Action::Upgrade { stats }, None).unwrap();
        let explore = Action::Explore { till_beast: false };
        // The action seed is bits 64..128 of the announced felt.
        let one = replay
            .clone()
            .apply(&explore, Some(Felt::from(1u128 << 64)))
            .unwrap();
        let other = replay
            .clone()
            .apply(&explore, Some(Felt::from(0x1234_5678u128 << 64)))
            .unwrap();
        assert_ne!(one.events, other.events, "the announced seed decides");
        assert_ne!(
            replay.state().market,
            small.state().market,
            "the market hashes the whole id"
        );
    }

    #[test]
    fn the_announced_seed_is_the_randomness_events_first_felt() {
        let events = [GameEventDetails::Randomness(UnknownPayload {
            felts: vec![Felt::from(77u8), Felt::from(3u8)],
        })];
        assert_eq!(announced_seed(&events), Some(Felt::from(77u8)));
        assert_eq!(announced_seed(&[]), None);
    }
}
