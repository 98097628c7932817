//! The second generation of Death Mountain (mainnet's GameCore, no Dojo world;
//! docs/game-v2.md): its 31-felt adventurer, the `load_assets` view and the `GameEvent` it
//! emits, decoded into the crate's v1 types so views, phase, previews and advice work unchanged.
//!
//! Layouts after Provable-Games/metagame_extensions `packages/adventurer_oracle/src/types.cairo`
//! (@ `04a0ed9`), which mirrors GameCore's structs field for field.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use starknet_types_core::felt::Felt;

use crate::felt::{DecodeError, FeltReader};
use crate::model::{Adventurer, Bag};

mod events;
mod replay;

pub use events::{
    GAME_CORE_EVENT_SELECTOR, GameCoreEvent, V2_EVENT_VARIANTS, decode_game_core_event,
    decode_game_core_events,
};
pub use replay::{Replay, announced_seed};

/// Number of felts in a serialized v2 adventurer (v1's 30 less two u16s, plus three salts).
pub const ADVENTURER_FELTS: usize = 31;

/// The three salts that replace v1's `item_specials_seed` and `action_count`; how the game
/// derives specials, beasts and markets from them is not public, so they are kept as read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Salts {
    /// `item_specials_salt` (u16), where v1 had `item_specials_seed`.
    pub item_specials_salt: u16,
    /// `beast_salt` (u32).
    pub beast_salt: u32,
    /// `level_salt` (u16).
    pub level_salt: u16,
}

/// The `load_assets(adventurer_id)` result: the live, stat-boosted adventurer, its salts and bag.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Assets {
    /// The adventurer in the v1 shape (`item_specials_seed` and `action_count` 0).
    pub adventurer: Adventurer,
    /// The adventurer's three v2 salts.
    pub salts: Salts,
    /// The bag (same layout as v1).
    pub bag: Bag,
}

/// Decodes the 31-felt v2 adventurer into the v1 shape plus its salts. v1's `item_specials_seed`
/// is 0 (the crate reads 0 as "no specials yet": the v2 derivation is unknown, so no special is
/// invented) and `action_count` is 0 (v2 has no counter; state chaining by count never matches).
pub fn decode_adventurer(r: &mut FeltReader) -> Result<(Adventurer, Salts), DecodeError> {
    let inner = |r: &mut FeltReader| -> Result<(Adventurer, Salts), DecodeError> {
        let adventurer = Adventurer::decode_shared(r)?;
        let salts = Salts {
            item_specials_salt: r.u16("item_specials_salt")?,
            beast_salt: r.u32("beast_salt")?,
            level_salt: r.u16("level_salt")?,
        };
        Ok((adventurer, salts))
    };
    inner(r).map_err(|e| e.within("adventurer"))
}

/// Decodes exactly one 31-felt v2 adventurer.
pub fn adventurer_from_felts(felts: &[Felt]) -> Result<(Adventurer, Salts), DecodeError> {
    let mut r = FeltReader::new(felts);
    let decoded = decode_adventurer(&mut r)?;
    r.finish()?;
    Ok(decoded)
}

/// Appends the 31-felt v2 form (inverse of [`decode_adventurer`]; the v1-only fields are dropped).
pub fn encode_adventurer(adventurer: &Adventurer, salts: &Salts, out: &mut Vec<Felt>) {
    adventurer.encode_shared(out);
    out.push(Felt::from(salts.item_specials_salt));
    out.push(Felt::from(salts.beast_salt));
    out.push(Felt::from(salts.level_salt));
}

impl Assets {
    /// Decodes a complete `load_assets` result: 31 + 31 felts; trailing felts are an error.
    pub fn from_felts(felts: &[Felt]) -> Result<Self, DecodeError> {
        let mut r = FeltReader::new(felts);
        let (adventurer, salts) = decode_adventurer(&mut r)?;
        let bag = Bag::decode_felts(&mut r)?;
        r.finish()?;
        Ok(Self {
            adventurer,
            salts,
            bag,
        })
    }

    /// Encodes to the `load_assets` felt layout (inverse of [`Assets::from_felts`]).
    pub fn to_felts(&self) -> Vec<Felt> {
        let mut out = Vec::with_capacity(ADVENTURER_FELTS + crate::model::BAG_FELTS);
        encode_adventurer(&self.adventurer, &self.salts, &mut out);
        self.bag.encode_felts(&mut out);
        out
    }
}

#[cfg(test)]
mod tests;
