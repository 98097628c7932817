//! GameCore's `GameEvent` (docs/game-v2.md#events): a plain Starknet event, in either of its two
//! envelopes, decoded into the crate's [`GameEventDetails`] with the adventurer's token id.
//! Envelopes after Provable-Games/summit `indexer/src/lib/decoder.ts` (@ `134fb93`).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use starknet_types_core::felt::Felt;

use super::{Salts, decode_adventurer};
use crate::events::{CollectableStats, GameEventDetails, UnknownPayload, decode_matching};
use crate::felt::{DecodeError, FeltReader};
use crate::id::AdventurerId;
use crate::model::{BeastEvent, SpecialPowers};

/// `starknet_keccak("GameEvent")`: keys[0] of every GameCore game event.
pub const GAME_CORE_EVENT_SELECTOR: Felt =
    Felt::from_hex_unchecked("0x3e037e958ba3b5c1cc99ac16aaf9896423eebd03183c41fbb26548a12336e5f");

/// Number of `GameEvent` variants GameCore defines (0–19).
pub const V2_EVENT_VARIANTS: u8 = 20;

/// One decoded GameCore event. It has no action count (v2 keeps none): events are ordered by
/// (block, index in the block), and a v1 `GameEvent` built from one gets `action_count` 0.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct GameCoreEvent {
    /// The adventurer's token id (a packed Denshokan id, far above 2^64 on mainnet).
    pub adventurer_id: AdventurerId,
    /// The event, in the shape v1 events have (variants 17–19 are v2's own).
    pub details: GameEventDetails,
    /// The adventurer's salts, for variant 0 (the adventurer) only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub salts: Option<Salts>,
}

/// Decodes one event. `Ok(None)` when keys[0] is not the `GameEvent` selector; `Err` when it is
/// but the keys or data are malformed. Both envelopes: the current `keys = [selector,
/// adventurer_id]`, `data = [variant, ...payload]`, and the earlier `keys = [selector]`,
/// `data = [adventurer_id, variant, ...payload]`. The caller checks the emitting address.
pub fn decode_game_core_event(
    keys: &[Felt],
    data: &[Felt],
) -> Result<Option<GameCoreEvent>, DecodeError> {
    if keys.first() != Some(&GAME_CORE_EVENT_SELECTOR) {
        return Ok(None);
    }
    let mut r = FeltReader::new(data);
    let adventurer_id = match keys {
        [_, id] => AdventurerId::from(*id),
        [_] => AdventurerId::from(r.felt("adventurer_id")?),
        _ => {
            return Err(DecodeError::Invalid {
                field: "keys".into(),
                reason: format!(
                    "expected [selector, adventurer_id] or [selector], got {} keys",
                    keys.len()
                ),
            });
        }
    };
    let (details, salts) = decode_details(&mut r).map_err(|e| e.within("details"))?;
    r.finish()?;
    Ok(Some(GameCoreEvent {
        adventurer_id,
        details,
        salts,
    }))
}

/// Decodes every GameCore `GameEvent` among `(keys, data)` pairs (a receipt's events from the
/// GameCore address), skipping other events and failing on the first malformed one.
pub fn decode_game_core_events<'a>(
    events: impl IntoIterator<Item = (&'a [Felt], &'a [Felt])>,
) -> Result<Vec<GameCoreEvent>, DecodeError> {
    decode_matching(events, decode_game_core_event)
}

/// Decodes `[variant, ...payload]`: 0 and 2 in their v2 layouts, 17–19 v2's own, the rest as v1.
fn decode_details(r: &mut FeltReader) -> Result<(GameEventDetails, Option<Salts>), DecodeError> {
    let variant = r.variant("variant", V2_EVENT_VARIANTS)?;
    let details = match variant {
        0 => {
            let (adventurer, salts) = decode_adventurer(r)?;
            return Ok((GameEventDetails::Adventurer(adventurer), Some(salts)));
        }
        2 => GameEventDetails::Beast(decode_beast(r)?.into()),
        17 => GameEventDetails::Randomness(UnknownPayload::read_rest(r)),
        18 => GameEventDetails::Collectable(UnknownPayload::read_rest(r)),
        19 => GameEventDetails::CollectableStats(
            CollectableStats::decode_felts(r).map_err(|e| e.within("collectable_stats"))?,
        ),
        shared => GameEventDetails::decode_payload(shared, r)?,
    };
    Ok((details, None))
}

/// Decodes v2's beast `[id, health, level, special1, special2, special3]`: v1's seed and
/// `is_collectable` are not emitted, so they read 0 and false.
fn decode_beast(r: &mut FeltReader) -> Result<BeastEvent, DecodeError> {
    let inner = |r: &mut FeltReader| -> Result<BeastEvent, DecodeError> {
        Ok(BeastEvent {
            id: r.u8("id")?,
            seed: 0,
            health: r.u16("health")?,
            level: r.u16("level")?,
            specials: SpecialPowers::decode_felts(r).map_err(|e| e.within("specials"))?,
            is_collectable: false,
        })
    };
    inner(r).map_err(|e| e.within("beast"))
}

#[cfg(test)]
mod tests;
