//! Shopping from the advisor's item values: the items whose health value plus weighted deaths
//! avoided, per gold, clear the policy's bar, best value per gold first, one per slot, within the
//! gold left after potions and the reserve, each replacement needing room in the bag. And the
//! spare gear to drop when the bag fills.

use serde::Deserialize;

use crate::catalogue::Slot;
use crate::view::AdventurerView;

/// One market item's value, as the market advice gives it.
#[derive(Debug, Clone, Deserialize, PartialEq)]
pub struct ItemValue {
    /// Item id.
    pub id: u8,
    /// Item name.
    pub name: String,
    /// Price after charisma.
    pub price: u16,
    /// Health saved over the advisor's horizon.
    pub value: f64,
    /// `value` per gold.
    pub per_gold: f64,
    /// Deaths avoided over the advisor's horizon.
    #[serde(default)]
    pub risk_saved: f64,
}

impl ItemValue {
    /// Health value plus `risk_weight` health per death avoided, per gold.
    pub fn score_per_gold(&self, risk_weight: f64) -> f64 {
        (self.value + risk_weight * self.risk_saved) / f64::from(self.price.max(1))
    }
}

/// The items to buy (id, name), best first, leaving alone the `taken` slots (already being
/// bought for, each using a bag place).
pub fn choose(
    view: &AdventurerView,
    values: &[ItemValue],
    budget: u16,
    min_per_gold: f64,
    risk_weight: f64,
    taken: &[Slot],
) -> Vec<(u8, String)> {
    let mut left = budget;
    let mut free_bag = 15usize.saturating_sub(view.bag.len() + taken.len());
    let mut slots: Vec<Slot> = taken.to_vec();
    let mut out = Vec::new();
    let mut ranked: Vec<&ItemValue> = values
        .iter()
        .filter(|v| v.score_per_gold(risk_weight) > 0.0)
        .collect();
    ranked.sort_by(|a, b| {
        b.score_per_gold(risk_weight)
            .total_cmp(&a.score_per_gold(risk_weight))
    });
    for v in ranked {
        if v.score_per_gold(risk_weight) < min_per_gold {
            break;
        }
        let Some(m) = view.market.iter().find(|m| m.id == v.id && !m.owned) else {
            continue;
        };
        if m.price > left || slots.contains(&m.slot) {
            continue;
        }
        if m.effect.replaces.is_some() {
            if free_bag == 0 {
                continue;
            }
            free_bag -= 1;
        }
        left -= m.price;
        slots.push(m.slot);
        out.push((v.id, v.name.clone()));
    }
    out
}

/// Bagged items to drop when the bag is nearly full: everything but jewelry and one weapon of
/// each type (kept for swaps).
pub fn spare_items(view: &AdventurerView, drop_at: usize) -> Vec<u8> {
    if view.bag.len() < drop_at {
        return Vec::new();
    }
    let mut kept_types = Vec::new();
    if let Some(w) = view.equipment.iter().find(|e| e.slot == Slot::Weapon) {
        kept_types.push(w.item_type);
    }
    let mut out = Vec::new();
    for i in &view.bag {
        match i.slot {
            Slot::Neck | Slot::Ring => {}
            Slot::Weapon if !kept_types.contains(&i.item_type) => kept_types.push(i.item_type),
            _ => out.push(i.id),
        }
    }
    out.truncate(8);
    out
}
