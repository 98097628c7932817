//! Weapon upgrades. The starting weapons are tier 5 (attack = greatness), so by the middle levels
//! every fight is hopeless: each beast must be fled, for 1 xp and no gold. A higher-tier weapon
//! bought early gains greatness as the adventurer gains xp and soon hits several times harder.
//! This picks the market weapon with the greatest projected attack a few levels on, from the
//! market advice's `weapons_later`: public facts, no outcome.

use serde::Deserialize;

/// The equipped weapon a few levels on, as the market advice gives it.
#[derive(Debug, Clone, Deserialize, PartialEq)]
pub struct AttackLater {
    /// Base attack then (tier multiplier × greatness).
    pub attack: u16,
}

/// Market weapons of one tier a few levels on, as the market advice gives them.
#[derive(Debug, Clone, Deserialize, PartialEq)]
pub struct TierLater {
    /// Their ids.
    pub ids: Vec<u8>,
    /// Price after charisma.
    pub price: u16,
    /// Base attack then (tier multiplier × greatness).
    pub attack: u16,
}

/// The equipped weapon and the market's, a few levels on (`weapons_later`).
#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
pub struct WeaponsLater {
    /// The equipped weapon.
    #[serde(default)]
    pub yours: Option<AttackLater>,
    /// The market's weapons by tier.
    #[serde(default)]
    pub market: Vec<TierLater>,
}

/// The market weapon to buy (id, price): of the affordable tier with the greatest projected
/// attack (the last id of its tier: on average they hit alike), if that beats the equipped
/// weapon's by the factor `gain` and the bag has room for the old one.
pub fn upgrade(
    weapons: &WeaponsLater,
    budget: u16,
    bag_has_room: bool,
    gain: f64,
) -> Option<(u8, u16)> {
    let current = weapons.yours.as_ref().map_or(0, |w| w.attack);
    weapons
        .market
        .iter()
        .filter(|m| m.price <= budget && bag_has_room)
        .filter(|m| f64::from(m.attack) >= gain * f64::from(current.max(1)))
        .max_by_key(|m| (m.attack, std::cmp::Reverse(m.price)))
        .and_then(|m| Some((*m.ids.last()?, m.price)))
}
