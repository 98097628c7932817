//! A beast as every result shows it, built in one place: its name (the specials around the
//! catalogue's name, or "Unknown beast #id"), tier and type. The adventurer view (and the compact
//! state built from it), the beast event and the battle preview all take theirs from here.

use crate::catalogue::{self, ItemType, Tier};
use crate::model::BeastEvent;

/// A beast's shown facts; an id the catalogue lacks has tier and type `None`.
pub(crate) struct BeastDisplay {
    /// Name with specials (e.g. "Demon Grasp Dragon").
    pub(crate) name: String,
    /// Catalogue tier.
    pub(crate) tier: Tier,
    /// Catalogue combat type.
    pub(crate) beast_type: ItemType,
}

impl BeastDisplay {
    /// The display of `beast`, its name specials included.
    pub(crate) fn of(beast: &BeastEvent) -> Self {
        let info = catalogue::beast(beast.id);
        Self {
            name: beast.specials.full_name(&name(beast.id)),
            tier: info.map_or(Tier::None, |i| i.tier),
            beast_type: info.map_or(ItemType::None, |i| i.beast_type),
        }
    }
}

/// Beast `id`'s name without specials (as the kill, flee and collectable events give it), or
/// "Unknown beast #id".
pub(crate) fn name(id: u8) -> String {
    catalogue::beast(id).map_or_else(|| format!("Unknown beast #{id}"), |b| b.name.to_string())
}
