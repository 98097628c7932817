//! How each Torii version writes what the stand-in stores, cited from dojoengine/torii (and the
//! dojo-types crate it builds on). Every writer of the stand-in goes through these functions,
//! which spell each form out digit by digit (see [`hex_digits`]) instead of formatting a felt
//! with this project's starknet-types-core, whose `{:#064x}` differs from the one Torii links.

use starknet_types_core::felt::Felt;

/// The Torii versions the stand-in can imitate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ToriiVersion {
    /// v1.5–v1.6: unpadded keys and ids; u64 model columns as 64 hex digits (the issue's
    /// reading of dojo-types before rev 6daa3d0; dojoengine/dojo crates/dojo/types/src/primitive.rs
    /// `to_sql_value` writes `0x{:064x}` in the revisions stored for this work).
    V1_6,
    /// v1.7.0–v1.7.3: unpadded keys and ids (torii v1.7.3 crates/sqlite/sqlite/src/utils.rs
    /// `felt_to_sql_string` = `{:#x}`); u64 as 16 hex digits (dojo-types rev 6daa3d0, asserted by
    /// torii v1.7.0+ crates/graphql/src/object/inputs/where_input.rs tests).
    V1_7_3,
    /// v1.7.4–v1.7.5: keys and ids `{:#064x}` (torii v1.7.5 crates/sqlite/sqlite/src/utils.rs;
    /// "padded SQL felt", #315). Torii v1.7.3 through v1.8.16 lock starknet-types-core 0.2.0,
    /// whose `LowerHex` pads to that many digits after `0x` (starknet-io/types-rs core-v0.2.0,
    /// crates/starknet-types-core/src/felt/alloc_impls.rs): `0x` and 64 digits.
    V1_7_5,
    /// v1.8.0–v1.8.16: as v1.7.5, and ids scoped by world: `<world>:<id>`, both `0x` and 64
    /// digits (torii v1.8.16 crates/storage/src/utils.rs `format_world_scoped_id`), event ids
    /// with the transaction and emitter padded too.
    V1_8,
}

impl ToriiVersion {
    /// One felt of `keys`, an entity id or a model selector (`felt_to_sql_string`).
    pub fn felt_id(self, f: Felt) -> String {
        match self {
            Self::V1_6 | Self::V1_7_3 => unpadded(f),
            Self::V1_7_5 | Self::V1_8 => format!("0x{}", hex_digits(f)),
        }
    }

    /// The `keys` column: each key then `/` (`felts_to_sql_string`).
    pub fn keys(self, keys: &[Felt]) -> String {
        keys.iter()
            .map(|k| format!("{}/", self.felt_id(*k)))
            .collect()
    }

    /// An id scoped by world where the version does so (`event_messages_historical.id`,
    /// `model_id`; torii v1.8.0 crates/sqlite/sqlite/src/storage.rs `set_event_message`).
    pub fn scoped(self, world: Felt, id: Felt) -> String {
        match self {
            Self::V1_8 => format!("0x{}:0x{}", hex_digits(world), hex_digits(id)),
            _ => self.felt_id(id),
        }
    }

    /// `event_id`: block, transaction hash, emitter, index in the receipt (torii
    /// crates/storage/src/utils.rs `format_event_id`: `{:#064x}:{:#x}:{:#x}:{:#04x}` up to v1.7.5,
    /// `{:#064x}:{:#064x}:{:#064x}:{:#04x}` in v1.8). The block and the index are u64, whose
    /// width counts the `0x` (std): 62 digits and 2; the felts, 64 digits as above.
    pub fn event_id(self, block: u64, tx: Felt, emitter: Felt, index: u64) -> String {
        let (block, index) = (format!("0x{block:062x}"), format!("0x{index:02x}"));
        match self {
            Self::V1_8 => format!(
                "{block}:0x{}:0x{}:{index}",
                hex_digits(tx),
                hex_digits(emitter)
            ),
            _ => format!("{block}:{}:{}:{index}", unpadded(tx), unpadded(emitter)),
        }
    }

    /// A u64 model column (dojo-types `Primitive::to_sql_value`).
    pub fn u64_col(self, v: u64) -> String {
        match self {
            Self::V1_6 => format!("0x{v:064x}"),
            _ => format!("0x{v:016x}"),
        }
    }

    /// A felt252 / ContractAddress model column: `0x{:064x}` in every version.
    pub fn felt_col(self, f: Felt) -> String {
        format!("0x{}", hex_digits(f))
    }

    /// Whether `event_messages_historical` has the v1.8 columns (world_address, entity_id; torii
    /// v1.8.0 crates/migrations/20251007145139_add_world_address_to_entities.sql).
    pub fn has_world_columns(self) -> bool {
        self == Self::V1_8
    }
}

/// A felt's 64 hex digits, lowercase, one byte at a time.
pub fn hex_digits(f: Felt) -> String {
    f.to_bytes_be().iter().map(|b| format!("{b:02x}")).collect()
}

/// `{:#x}` of a felt: `0x` and its digits without leading zeros (`0x0` for zero).
fn unpadded(f: Felt) -> String {
    match hex_digits(f).trim_start_matches('0') {
        "" => "0x0".into(),
        digits => format!("0x{digits}"),
    }
}
