//! The fields packed into a Denshokan token id (the second generation's adventurer id): which
//! game, which minter (the dungeon), which settings, when it was minted and when it expires.
//! Bit layout from Provable-Games/denshokan-sdk `src/utils/token-id.ts` (@ `3aa32fa`): the low
//! u128 holds game_id 0–29, minted_by 30–69, settings_id 70–99, start_delay 100–124 and the flags
//! 125–127; the high u128 minted_at 128–162, end_delay 163–187, objective_id 188–217, tx_hash
//! 218–227, salt 228–237, metadata 238–250.

use serde::Serialize;

use crate::id::AdventurerId;

/// Death Mountain's game id in the Denshokan registry.
pub const DEATH_MOUNTAIN_GAME_ID: u32 = 1;

/// The decoded fields of a packed token id.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct TokenFields {
    /// The game (1: Death Mountain).
    pub game_id: u32,
    /// The minter's registry id (the dungeon that sold the game; a direct mint is the player's).
    pub minted_by: u64,
    /// The game settings id.
    pub settings_id: u32,
    /// Unix seconds of the mint.
    pub minted_at: u64,
    /// Seconds after the mint before the game may start (0: at once).
    pub start_delay: u32,
    /// Seconds after the mint when the game expires (0: never).
    pub end_delay: u32,
    /// The objective id (0: none).
    pub objective_id: u32,
    /// Whether the token cannot be transferred.
    pub soulbound: bool,
    /// Whether the mint carried a game context.
    pub has_context: bool,
    /// Whether a paymaster paid the mint.
    pub paymaster: bool,
    /// Ten bits of the mint transaction's hash.
    pub tx_hash: u16,
    /// The mint's salt (10 bits).
    pub salt: u16,
    /// Free metadata (13 bits).
    pub metadata: u16,
}

impl TokenFields {
    /// Unpacks an id. Every felt decodes: a small v1 id reads as game 0 minted at 0.
    pub fn of(id: AdventurerId) -> Self {
        let (low, high) = id.u256_words();
        let bits = |word: u128, at: u32, width: u32| (word >> at) & ((1u128 << width) - 1);
        Self {
            game_id: bits(low, 0, 30) as u32,
            minted_by: bits(low, 30, 40) as u64,
            settings_id: bits(low, 70, 30) as u32,
            start_delay: bits(low, 100, 25) as u32,
            soulbound: bits(low, 125, 1) == 1,
            has_context: bits(low, 126, 1) == 1,
            paymaster: bits(low, 127, 1) == 1,
            minted_at: bits(high, 0, 35) as u64,
            end_delay: bits(high, 35, 25) as u32,
            objective_id: bits(high, 60, 30) as u32,
            tx_hash: bits(high, 90, 10) as u16,
            salt: bits(high, 100, 10) as u16,
            metadata: bits(high, 110, 13) as u16,
        }
    }

    /// Whether the id is a packed token (minted at some time), not a small v1 id: every v1 id
    /// is below 2^64, and a packed one has its mint time at bits 128–162.
    pub fn is_packed(&self) -> bool {
        self.minted_at > 0
    }

    /// Whether these fields describe a packed Death Mountain token of Provable's registry.
    pub fn is_death_mountain(&self) -> bool {
        self.game_id == DEATH_MOUNTAIN_GAME_ID && self.is_packed()
    }

    /// Unix seconds when the game expires, if it does: its end counts from its start (the mint
    /// time plus `start_delay`), as mainnet's playable check counts it.
    pub fn expires_at(&self) -> Option<u64> {
        (self.end_delay > 0).then(|| self.starts_at() + u64::from(self.end_delay))
    }

    /// Why a game cannot be played at unix second `now`: not started yet, or expired.
    pub fn unplayable_at(&self, now: u64) -> Option<Unplayable> {
        if !self.is_packed() {
            return None;
        }
        if now < self.starts_at() {
            return Some(Unplayable::NotStarted {
                starts_at: self.starts_at(),
            });
        }
        match self.expires_at() {
            Some(at) if now >= at => Some(Unplayable::Expired { expired_at: at }),
            _ => None,
        }
    }

    /// Unix seconds when the game may start (the mint time when there is no delay).
    pub fn starts_at(&self) -> u64 {
        self.minted_at + u64::from(self.start_delay)
    }
}

/// Why a game's token does not let it be played now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unplayable {
    /// Its start delay has not passed.
    NotStarted {
        /// Unix seconds when it may start.
        starts_at: u64,
    },
    /// Its end has passed.
    Expired {
        /// Unix seconds when it ended.
        expired_at: u64,
    },
}

/// What a player decides with, of a packed token id: which dungeon minted the game, its settings,
/// and when it starts and expires (unix seconds). Only packed ids have one.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize, schemars::JsonSchema,
)]
pub struct TokenInfo {
    /// The minter's registry id: the dungeon that sold the game (a direct mint: the player's).
    pub minted_by: u64,
    /// The game settings id.
    pub settings_id: u32,
    /// Unix seconds of the mint.
    pub minted_at: u64,
    /// Unix seconds before which the game cannot start, when delayed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub starts_at: Option<u64>,
    /// Unix seconds when the game expires, when it does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expires_at: Option<u64>,
}

impl TokenInfo {
    /// The packed fields of `id` a player decides with; `None` for an id that is not a packed
    /// token (every v1 id).
    pub fn of(id: AdventurerId) -> Option<Self> {
        let f = TokenFields::of(id);
        f.is_packed().then(|| Self {
            minted_by: f.minted_by,
            settings_id: f.settings_id,
            minted_at: f.minted_at,
            starts_at: (f.start_delay > 0).then(|| f.starts_at()),
            expires_at: f.expires_at(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Packs fields with big-integer arithmetic written independently of the decoder: each field
    /// shifted to its bit offset from the SDK's table and summed as a decimal string.
    fn packed(fields: &[(u32, u128)]) -> AdventurerId {
        let mut low: u128 = 0;
        let mut high: u128 = 0;
        for &(offset, value) in fields {
            if offset < 128 {
                low |= value << offset;
            } else {
                high |= value << (offset - 128);
            }
        }
        let hex = format!("0x{high:032x}{low:032x}");
        AdventurerId::parse(&hex).unwrap()
    }

    #[test]
    fn every_field_comes_back_from_its_offset() {
        let id = packed(&[
            (0, 1),
            (30, 19),
            (70, 3),
            (100, 60),
            (125, 1),
            (127, 1),
            (128, 1_767_225_600),
            (163, 86_400),
            (188, 5),
            (218, 0x3ff),
            (228, 0x155),
            (238, 0x1abc),
        ]);
        let f = TokenFields::of(id);
        assert_eq!(
            f,
            TokenFields {
                game_id: 1,
                minted_by: 19,
                settings_id: 3,
                start_delay: 60,
                soulbound: true,
                has_context: false,
                paymaster: true,
                minted_at: 1_767_225_600,
                end_delay: 86_400,
                objective_id: 5,
                tx_hash: 0x3ff,
                salt: 0x155,
                metadata: 0x1abc,
            }
        );
        assert!(f.is_death_mountain());
        // The end counts from the start: the mint, the start delay, then the end delay.
        assert_eq!(f.expires_at(), Some(1_767_225_600 + 60 + 86_400));
        assert_eq!(f.starts_at(), 1_767_225_660);
        assert_eq!(
            f.unplayable_at(1_767_225_659),
            Some(Unplayable::NotStarted {
                starts_at: 1_767_225_660
            })
        );
        assert_eq!(f.unplayable_at(1_767_225_660), None);
        assert_eq!(f.unplayable_at(1_767_225_600 + 60 + 86_399), None);
        assert_eq!(
            f.unplayable_at(1_767_225_600 + 60 + 86_400),
            Some(Unplayable::Expired {
                expired_at: 1_767_225_600 + 60 + 86_400
            })
        );
        assert_eq!(
            TokenFields::of(AdventurerId::from(42)).unplayable_at(0),
            None
        );
        assert!(id.to_u64().is_none());
    }

    #[test]
    fn a_metadata_field_lifts_the_id_above_two_to_the_250() {
        let id = packed(&[(0, 1), (30, 9), (128, 1_700_000_000), (238, 0x1000)]);
        let two_250 = AdventurerId::parse(&format!("0x4{}", "0".repeat(62))).unwrap();
        assert!(id > two_250);
        let f = TokenFields::of(id);
        assert_eq!((f.metadata, f.minted_by, f.expires_at()), (0x1000, 9, None));
    }

    #[test]
    fn a_v1_id_is_not_a_packed_token() {
        let f = TokenFields::of(AdventurerId::from(42));
        assert_eq!(f.game_id, 42);
        assert!(!f.is_death_mountain() && !f.is_packed());
        assert_eq!(TokenInfo::of(AdventurerId::from(42)), None);
    }

    #[test]
    fn token_info_keeps_what_a_player_decides_with() {
        let id = packed(&[
            (0, 1),
            (30, 19),
            (70, 2),
            (128, 1_767_225_600),
            (163, 3_600),
        ]);
        let info = TokenInfo::of(id).unwrap();
        let other_game = packed(&[(0, 2), (30, 19), (128, 1_767_225_600)]);
        assert!(
            TokenInfo::of(other_game).is_some() && !TokenFields::of(other_game).is_death_mountain()
        );
        assert_eq!(
            serde_json::to_value(info).unwrap(),
            serde_json::json!({"minted_by": 19, "settings_id": 2, "minted_at": 1_767_225_600u64,
                "expires_at": 1_767_229_200u64})
        );
    }
}
