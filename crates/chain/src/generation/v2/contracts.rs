//! A second-generation deployment's contracts and the rule its VRF requests follow
//! (docs/generations.md).

use starknet::core::types::{Call, Felt};

use crate::bindings::v2::{Source, vrf_provider};
use game::AdventurerId;
use game::model::Adventurer;

/// A named recipe for a `Source::Salt` VRF request's salt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SaltRecipe {
    /// `poseidon([adventurer_id, xp, health, beast_health])` from `load_assets` before the action
    /// (the v2 practice world's recipe; mainnet's is not known).
    AdventurerState,
    /// V1's pair: `poseidon([xp, adventurer_id])` out of battle, `poseidon([xp, adventurer_id,
    /// action_count + 1])` in battle, the count being the adventurer's transactions so far.
    V1,
}

impl SaltRecipe {
    /// The salt for an action taken from `before` (the unboosted pre-action state).
    pub fn salt(self, adventurer_id: AdventurerId, before: &Adventurer) -> Felt {
        match self {
            SaltRecipe::AdventurerState => starknet_crypto::poseidon_hash_many(&[
                adventurer_id.felt(),
                Felt::from(before.xp),
                Felt::from(before.health),
                Felt::from(before.beast_health),
            ]),
            SaltRecipe::V1 if before.beast_health > 0 => {
                game::random::battle_salt(adventurer_id, before.xp, before.action_count)
            }
            SaltRecipe::V1 => game::random::explore_salt(adventurer_id, before.xp),
        }
    }
}

/// Where a v2 GameCore's randomness comes from, so the client knows what to request first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VrfSource {
    /// No VRF request: the game draws its own seed.
    Off,
    /// `request_random(game, Source::Nonce(account))`.
    Nonce,
    /// `request_random(game, Source::Salt(salt))` with the salt from this recipe.
    Salt(SaltRecipe),
}

impl VrfSource {
    /// Every source, for parsing and messages.
    pub const ALL: [VrfSource; 4] = [
        VrfSource::Off,
        VrfSource::Nonce,
        VrfSource::Salt(SaltRecipe::AdventurerState),
        VrfSource::Salt(SaltRecipe::V1),
    ];

    /// The profile's spelling: `off`, `nonce`, `salt:adventurer_state` or `salt:v1`.
    pub fn name(self) -> &'static str {
        match self {
            VrfSource::Off => "off",
            VrfSource::Nonce => "nonce",
            VrfSource::Salt(SaltRecipe::AdventurerState) => "salt:adventurer_state",
            VrfSource::Salt(SaltRecipe::V1) => "salt:v1",
        }
    }
}

impl std::str::FromStr for VrfSource {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        VrfSource::ALL
            .into_iter()
            .find(|v| v.name() == s)
            .ok_or_else(|| {
                format!("unknown VRF source {s:?}: off, nonce, salt:adventurer_state or salt:v1")
            })
    }
}

/// A second-generation deployment's contracts and VRF rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct V2Contracts {
    /// GameCore: every player entrypoint, `load_assets`, the `GameEvent`s.
    pub game_core: Felt,
    /// GameToken: `mint_game`.
    pub game_token: Felt,
    /// Denshokan: the ERC721 whose token ids are the adventurer ids.
    pub denshokan: Felt,
    /// The VRF provider `request_random` goes to.
    pub vrf_provider: Felt,
    /// A dungeon games may be bought at (its calldata is not known yet: unused).
    pub dungeon: Option<Felt>,
    /// The minter whose games count on a leaderboard (unused yet).
    pub minter: Option<Felt>,
    /// Where GameCore's randomness comes from; `None`: unknown, and actions that need randomness
    /// are refused before signing.
    pub vrf_source: Option<VrfSource>,
    /// The contract that calls `consume_random` (the request's `caller`, to which the provider
    /// binds the seed); `None`: GameCore itself.
    pub vrf_consumer: Option<Felt>,
    /// The game settings `vrf_source` holds for (a game's randomness follows its settings);
    /// `None`: every game's. A game of other settings is refused an action that draws.
    pub vrf_settings: Option<u32>,
    /// The last block whose GameCore events took the earlier envelope (the id in `data[0]`, not
    /// in the keys); `None`: none did, or the block is not known (such events are not read).
    pub legacy_envelope_until: Option<u64>,
}

impl V2Contracts {
    /// The (contract, selector) pairs the wallet may sign: GameCore's player entrypoints and
    /// GameToken's `mint_game` (the VRF request is a separate rule of the guard).
    pub fn signable_entrypoints(&self) -> Vec<(Felt, Felt)> {
        crate::bindings::v2::ENTRYPOINTS
            .iter()
            .filter(|e| !e.view)
            .filter_map(|e| match e.tag_suffix {
                "game" => Some((self.game_core, e.selector)),
                "token" => Some((self.game_token, e.selector)),
                _ => None,
            })
            .collect()
    }

    /// The VRF request for `action` under `source`, taken by `account` from `before`; `None` when
    /// the source asks for none.
    pub fn vrf_request(
        &self,
        source: VrfSource,
        account: Felt,
        adventurer_id: AdventurerId,
        before: &Adventurer,
    ) -> Option<Call> {
        let source = match source {
            VrfSource::Off => return None,
            VrfSource::Nonce => Source::Nonce(account),
            VrfSource::Salt(recipe) => Source::Salt(recipe.salt(adventurer_id, before)),
        };
        Some(vrf_provider::request_random(
            self.vrf_provider,
            &self.vrf_caller(),
            &source,
        ))
    }

    /// The `caller` a VRF request names: the contract that consumes the randomness.
    pub fn vrf_caller(&self) -> Felt {
        self.vrf_consumer.unwrap_or(self.game_core)
    }
}

#[cfg(test)]
impl V2Contracts {
    /// GameCore 0x6a, GameToken 0x70, Denshokan 0xde, the VRF provider 0xf0, no dungeon or
    /// minter, with `vrf_source`: for unit tests.
    pub(crate) fn numbered(vrf_source: Option<VrfSource>) -> Self {
        V2Contracts {
            game_core: Felt::from(0x6a_u8),
            game_token: Felt::from(0x70_u8),
            denshokan: Felt::from(0xde_u8),
            vrf_provider: Felt::from(0xf0_u8),
            dungeon: None,
            minter: None,
            vrf_source,
            vrf_consumer: None,
            vrf_settings: None,
            legacy_envelope_until: None,
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    #[test]
    fn vrf_sources_parse_by_their_profile_names() {
        for s in ["off", "nonce", "salt:adventurer_state", "salt:v1"] {
            assert_eq!(s.parse::<VrfSource>().unwrap().name(), s);
        }
        assert!("salt".parse::<VrfSource>().is_err());
    }

    /// A v2 deployment at short addresses: GameCore 0x6a, GameToken 0x70, Denshokan 0xde, the
    /// VRF provider 0xf0 (also the ABI check's tests').
    pub(crate) fn contracts() -> V2Contracts {
        V2Contracts::numbered(None)
    }

    #[test]
    fn vrf_requests_follow_the_source_with_the_game_as_caller() {
        let c = contracts();
        let before = Adventurer {
            health: 90,
            xp: 4,
            beast_health: 3,
            ..Adventurer::default()
        };
        let id = AdventurerId::from(7u64);
        let account = Felt::from(0xacc_u16);
        assert_eq!(c.vrf_request(VrfSource::Off, account, id, &before), None);
        let nonce = c
            .vrf_request(VrfSource::Nonce, account, id, &before)
            .unwrap();
        assert_eq!(nonce.to, Felt::from(0xf0_u8));
        assert_eq!(nonce.selector, wallet::REQUEST_RANDOM_SELECTOR);
        assert_eq!(
            nonce.calldata,
            vec![Felt::from(0x6a_u8), Felt::ZERO, account]
        );
        let salt = c
            .vrf_request(
                VrfSource::Salt(SaltRecipe::AdventurerState),
                account,
                id,
                &before,
            )
            .unwrap();
        let want = starknet_crypto::poseidon_hash_many(&[
            Felt::from(7u8),
            Felt::from(4u8),
            Felt::from(90u8),
            Felt::from(3u8),
        ]);
        assert_eq!(salt.calldata, vec![Felt::from(0x6a_u8), Felt::ONE, want]);
    }
}
