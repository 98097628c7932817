//! Healing: how many potions to buy and how far to explore. Potions are the agent's health; it
//! heals to a target fraction of max health whenever it is below a threshold, keeping a gold
//! reserve for the potions of the next fights when items compete for the gold.

/// The thresholds of the healing policy.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HealPolicy {
    /// Heal when health is below this fraction of max health.
    pub heal_below: f64,
    /// Explore until a beast (one call) only at or above this fraction; else one step.
    pub till_beast_from: f64,
    /// Potions' worth of gold kept back when buying items.
    pub reserve_potions: u32,
}

/// Potions needed to bring `health` to full (the market refuses more).
pub fn potions_to_full(health: u16, max_health: u16) -> u32 {
    (u32::from(max_health) + 9).saturating_sub(u32::from(health)) / 10
}

/// Potions to buy now with `gold` at `price` each: to full health when below the threshold.
pub fn potions_to_buy(
    health: u16,
    max_health: u16,
    gold: u16,
    price: u16,
    policy: &HealPolicy,
) -> u32 {
    if f64::from(health) >= policy.heal_below * f64::from(max_health) {
        return 0;
    }
    potions_to_full(health, max_health)
        .min(u32::from(gold) / u32::from(price.max(1)))
        .min(255)
}

/// Gold to keep back from item purchases for potions.
pub fn reserve(price: u16, policy: &HealPolicy) -> u16 {
    (u32::from(price) * policy.reserve_potions).min(511) as u16
}
