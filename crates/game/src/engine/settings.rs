//! What a world's rules are: the game settings of `ls_0_0_9` that change play (damage reduction,
//! market size, stats mode, a fixed game seed) and the rule set (full, or the devnet practice
//! world's simplifications).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use starknet_crypto::poseidon_hash_many;
use starknet_types_core::felt::Felt;

use crate::random;

/// How wisdom and intelligence protect (Cairo `StatsMode`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum StatsMode {
    /// Wisdom avoids ambushes and intelligence dodges obstacles outright (the default).
    #[default]
    Dodge,
    /// Never avoided, but the damage shrinks with the stat relative to the level.
    Reduction,
}

/// Which rules beyond the practice world's are in force.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Ruleset {
    /// Items unlock specials (suffix stat boosts, name-match damage) from greatness 15.
    pub item_specials: bool,
    /// Necklaces protect armor, the Gold Ring adds gold, Platinum and Titanium rings add damage.
    pub jewelry_bonuses: bool,
    /// Beasts of level 19+ are collectable until the first kill of that named beast.
    pub collectables: bool,
}

impl Ruleset {
    /// Every rule of the deployed game.
    pub const FULL: Self = Self {
        item_specials: true,
        jewelry_bonuses: true,
        collectables: true,
    };
    /// The rules of `contracts/practice_world.cairo` (no specials, jewelry only counts for luck,
    /// no collectables).
    pub const PRACTICE_WORLD: Self = Self {
        item_specials: false,
        jewelry_bonuses: false,
        collectables: false,
    };
}

/// The settings of one world (the playable subset of the game's `GameSettings`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct EngineSettings {
    /// Percent taken off ambush and obstacle damage (default 25).
    pub base_damage_reduction: u8,
    /// Market size (default 25; at most 31 bytes are drawn).
    pub market_size: u8,
    /// Dodge or reduction mode.
    pub stats_mode: StatsMode,
    /// A fixed game seed (0 = none): randomness is then `poseidon(xp, game_seed)`.
    pub game_seed: u64,
    /// The fixed seed applies while xp is below this (0 = always).
    pub game_seed_until_xp: u16,
    /// Rule set.
    pub rules: Ruleset,
}

impl Default for EngineSettings {
    /// The default `ls_0_0_9` settings (settings id 0) with every rule.
    fn default() -> Self {
        Self {
            base_damage_reduction: 25,
            market_size: 25,
            stats_mode: StatsMode::Dodge,
            game_seed: 0,
            game_seed_until_xp: 0,
            rules: Ruleset::FULL,
        }
    }
}

impl EngineSettings {
    /// The devnet practice world: default settings with its simplified rules.
    pub fn practice_world() -> Self {
        Self {
            rules: Ruleset::PRACTICE_WORLD,
            ..Self::default()
        }
    }

    /// The randomness of an action without VRF (docs/game-rules.md#randomness): `poseidon(xp,
    /// game_seed)` while the fixed seed applies, else `poseidon(xp, adventurer_id)`.
    pub fn seed_felt(&self, xp: u16, adventurer_id: impl Into<Felt>) -> Felt {
        let fixed =
            self.game_seed != 0 && (self.game_seed_until_xp == 0 || self.game_seed_until_xp > xp);
        let id = if fixed {
            Felt::from(self.game_seed)
        } else {
            adventurer_id.into()
        };
        random::local_seed(xp, id)
    }

    /// The action's two seeds: (explore / attack / flee / beast seed, market seed).
    pub fn action_seeds(&self, xp: u16, adventurer_id: impl Into<Felt>) -> (u64, u64) {
        random::felt_to_two_u64(self.seed_felt(xp, adventurer_id))
    }

    /// The randomness of an action in a game with a hidden seed, the embedded chain's stand-in for
    /// the VRF (docs/game-rules.md#randomness): `poseidon(hidden, entropy)` with the contract's
    /// entropy, `poseidon(xp, id, action_count)` in battle (`action_count` after the increment)
    /// else `poseidon(xp, id)`. A fixed game seed still wins, as on chain.
    pub fn hidden_seed_felt(
        &self,
        hidden: Felt,
        xp: u16,
        adventurer_id: impl Into<Felt>,
        action_count: u16,
        in_battle: bool,
    ) -> Felt {
        let adventurer_id = adventurer_id.into();
        if self.game_seed != 0 && (self.game_seed_until_xp == 0 || self.game_seed_until_xp > xp) {
            return self.seed_felt(xp, adventurer_id);
        }
        let entropy = if in_battle {
            random::battle_salt(adventurer_id.into(), xp, action_count.wrapping_sub(1))
        } else {
            random::explore_salt(adventurer_id.into(), xp)
        };
        poseidon_hash_many(&[hidden, entropy])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_follow_the_pipeline() {
        let s = EngineSettings::default();
        assert_eq!(
            s.action_seeds(4, 7),
            random::felt_to_two_u64(random::local_seed(4, 7))
        );
        let fixed = EngineSettings {
            game_seed: 99,
            game_seed_until_xp: 10,
            ..s
        };
        assert_eq!(fixed.seed_felt(9, 7), random::local_seed(9, 99));
        assert_eq!(
            fixed.seed_felt(10, 7),
            random::local_seed(10, 7),
            "until xp"
        );
        let always = EngineSettings { game_seed: 99, ..s };
        assert_eq!(always.seed_felt(5000, 7), random::local_seed(5000, 99));
    }

    #[test]
    fn hidden_seeds_hide_the_dungeon_and_follow_the_vrf_salts() {
        let s = EngineSettings::default();
        let (a, b) = (Felt::from(11u8), Felt::from(12u8));
        let explore = s.hidden_seed_felt(a, 4, 7, 3, false);
        assert_ne!(explore, s.seed_felt(4, 7), "not the public dungeon");
        assert_ne!(explore, s.hidden_seed_felt(b, 4, 7, 3, false), "per seed");
        assert_eq!(
            explore,
            s.hidden_seed_felt(a, 4, 7, 9, false),
            "explore ignores the count"
        );
        assert_eq!(
            s.hidden_seed_felt(a, 4, 7, 3, true),
            poseidon_hash_many(&[a, random::battle_salt(7.into(), 4, 2)])
        );
        assert_ne!(
            s.hidden_seed_felt(a, 4, 7, 3, true),
            s.hidden_seed_felt(a, 4, 7, 4, true),
            "each battle round draws anew"
        );
        let fixed = EngineSettings { game_seed: 99, ..s };
        assert_eq!(
            fixed.hidden_seed_felt(a, 4, 7, 3, true),
            random::local_seed(4, 99)
        );
    }
}
