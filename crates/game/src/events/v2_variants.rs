//! The payloads only the second generation's GameCore emits (variants 17–19,
//! docs/game-v2.md#events): a kill record of a collectable beast, and the felts of the two
//! variants whose payload is not public, kept as read rather than guessed.

use schemars::JsonSchema;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use starknet_types_core::felt::Felt;

use crate::felt::{DecodeError, FeltReader, parse_felt};

/// A payload the decoder does not interpret: every felt after the variant index, in order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct UnknownPayload {
    /// The felts as emitted (`0x` hex in JSON).
    #[serde(with = "felt_hex")]
    #[schemars(with = "Vec<String>")]
    pub felts: Vec<Felt>,
}

impl UnknownPayload {
    /// Takes every felt left in `r`: the payload's length is not known, so it is the event's rest.
    pub fn read_rest(r: &mut FeltReader) -> Self {
        let mut felts = Vec::with_capacity(r.remaining());
        while let Ok(f) = r.felt("payload") {
            felts.push(f);
        }
        Self { felts }
    }
}

/// Variant 19: a collectable beast's record after it killed an adventurer (Beast Mode).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct CollectableStats {
    /// The collectable's id (a Poseidon hash; `0x` hex in JSON).
    #[serde(with = "felt_hex::one")]
    #[schemars(with = "String")]
    pub collectable_id: Felt,
    /// Beast id 1..=75.
    pub beast_id: u8,
    /// Beast name from the catalogue.
    pub beast_name: String,
    /// Name prefix index (as a beast's special2).
    pub prefix: u8,
    /// Name suffix index (as a beast's special3).
    pub suffix: u8,
    /// Adventurers this collectable has killed.
    pub adventurers_killed: u64,
    /// Unix seconds of its last kill.
    pub last_kill_timestamp: u64,
}

impl CollectableStats {
    /// Decodes `[collectable_id, beast_id, prefix, suffix, adventurers_killed,
    /// last_kill_timestamp]`.
    pub fn decode_felts(r: &mut FeltReader) -> Result<Self, DecodeError> {
        let collectable_id = r.felt("collectable_id")?;
        let beast_id = r.u8("beast_id")?;
        Ok(Self {
            collectable_id,
            beast_id,
            beast_name: crate::beast_display::name(beast_id),
            prefix: r.u8("prefix")?,
            suffix: r.u8("suffix")?,
            adventurers_killed: r.u64("adventurers_killed")?,
            last_kill_timestamp: r.u64("last_kill_timestamp")?,
        })
    }

    /// Appends the six payload felts.
    pub fn encode_felts(&self, out: &mut Vec<Felt>) {
        out.push(self.collectable_id);
        out.extend([self.beast_id, self.prefix, self.suffix].map(Felt::from));
        out.extend([self.adventurers_killed, self.last_kill_timestamp].map(Felt::from));
    }
}

/// Felts as `0x` hex strings in JSON, whatever features the felt crate was built with.
mod felt_hex {
    use super::*;

    /// Writes each felt as `0x` hex.
    pub(super) fn serialize<S: Serializer>(felts: &[Felt], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(felts.iter().map(|f| format!("{f:#x}")))
    }

    /// Reads `0x` hex or decimal strings.
    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Felt>, D::Error> {
        Vec::<String>::deserialize(d)?
            .iter()
            .map(|t| parse_felt(t).map_err(serde::de::Error::custom))
            .collect()
    }

    /// One felt as `0x` hex.
    pub(super) mod one {
        use super::*;

        /// Writes the felt as `0x` hex.
        pub(crate) fn serialize<S: Serializer>(f: &Felt, s: S) -> Result<S::Ok, S::Error> {
            s.collect_str(&format_args!("{f:#x}"))
        }

        /// Reads `0x` hex or decimal.
        pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Felt, D::Error> {
            parse_felt(&String::deserialize(d)?).map_err(serde::de::Error::custom)
        }
    }
}
