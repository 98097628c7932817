//! Where each new sim game's hidden seed comes from: none (the public deterministic dungeon), a
//! master seed (reproducible runs that stay hidden from advisors), or the operating system, the
//! embedded chain's stand-in for the VRF. Drawing from the OS happens here, never in `game/`.

use serde::{Deserialize, Serialize};
use starknet::core::types::Felt;
use starknet::core::utils::cairo_short_string_to_felt;
use starknet_crypto::poseidon_hash_many;

/// How the games of a sim world draw their randomness.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SimRandomness {
    /// No hidden seed: `poseidon(xp, adventurer_id)` as on chains without VRF, so advisors can
    /// predict exact outcomes (tests, reproducible runs).
    Deterministic,
    /// Each game's hidden seed is `poseidon('sim_hidden_seed', master, adventurer_id)`.
    Master(u64),
    /// Each game's hidden seed is drawn from the operating system.
    Os,
}

/// Why a hidden seed could not be drawn.
#[derive(Debug, thiserror::Error)]
#[error("the operating system's random source failed: {0}")]
pub struct SeedError(String);

impl SimRandomness {
    /// From the `[sim]` settings: `deterministic` wins, else `seed` if set, else the OS.
    pub fn from_settings(deterministic: bool, seed: Option<u64>) -> Self {
        match (deterministic, seed) {
            (true, _) => Self::Deterministic,
            (false, Some(m)) => Self::Master(m),
            (false, None) => Self::Os,
        }
    }

    /// True when advisors can know every outcome in advance.
    pub fn is_deterministic(self) -> bool {
        self == Self::Deterministic
    }

    /// The hidden seed of the game minted as `adventurer_id` (`None` when deterministic).
    pub fn hidden_seed(self, adventurer_id: u64) -> Result<Option<Felt>, SeedError> {
        match self {
            Self::Deterministic => Ok(None),
            Self::Master(master) => Ok(Some(poseidon_hash_many(&[
                cairo_short_string_to_felt("sim_hidden_seed").expect("short ASCII constant"),
                Felt::from(master),
                Felt::from(adventurer_id),
            ]))),
            Self::Os => {
                // 31 bytes always fit below the field prime.
                let mut bytes = [0u8; 31];
                getrandom::fill(&mut bytes).map_err(|e| SeedError(e.to_string()))?;
                Ok(Some(Felt::from_bytes_be_slice(&bytes)))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_pick_the_source_and_seeds_are_hidden_per_game() {
        assert_eq!(
            SimRandomness::from_settings(true, Some(3)),
            SimRandomness::Deterministic
        );
        assert_eq!(
            SimRandomness::from_settings(false, Some(3)),
            SimRandomness::Master(3)
        );
        assert_eq!(SimRandomness::from_settings(false, None), SimRandomness::Os);
        assert_eq!(SimRandomness::Deterministic.hidden_seed(1).unwrap(), None);
        let m = SimRandomness::Master(3);
        assert_eq!(m.hidden_seed(1).unwrap(), m.hidden_seed(1).unwrap());
        assert_ne!(m.hidden_seed(1).unwrap(), m.hidden_seed(2).unwrap());
        assert_ne!(
            m.hidden_seed(1).unwrap(),
            SimRandomness::Master(4).hidden_seed(1).unwrap()
        );
        let os = SimRandomness::Os;
        assert_ne!(os.hidden_seed(1).unwrap(), os.hidden_seed(1).unwrap());
    }
}
