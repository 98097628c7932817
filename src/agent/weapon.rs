//! Weapon upgrades. The starting weapons are tier 5 (attack = greatness), so by the middle levels
//! every fight is hopeless: each beast must be fled, for 1 xp and no gold. A higher-tier weapon
//! bought early gains greatness as the adventurer gains xp and soon hits several times harder.
//! This piece picks the market weapon with the greatest projected attack a few levels on, from
//! `ls_advise` (market)'s `weapons_later`: public facts, no outcome.

use serde::Deserialize;

/// The equipped weapon a few levels on, as `ls_advise` gives it.
#[derive(Debug, Clone, Deserialize, PartialEq)]
pub struct AttackLater {
    /// Base attack then (tier multiplier × greatness).
    pub attack: u16,
}

/// Market weapons of one tier a few levels on, as `ls_advise` gives them.
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

#[cfg(test)]
mod tests {
    use super::*;

    fn tier(ids: &[u8], price: u16, attack: u16) -> TierLater {
        TierLater {
            ids: ids.to_vec(),
            price,
            attack,
        }
    }

    #[test]
    fn buys_the_strongest_affordable_weapon_that_clearly_beats_the_equipped_one() {
        // A wand projected to attack 4; tier 1 (Katana, Warhammer) 30, tier 3 (Scimitar) 18,
        // tier 4 (Long Sword) 12 three levels on.
        let weapons = WeaponsLater {
            yours: Some(AttackLater { attack: 4 }),
            market: vec![
                tier(&[42, 72], 20, 30),
                tier(&[44], 12, 18),
                tier(&[45], 8, 12),
            ],
        };
        assert_eq!(upgrade(&weapons, 40, true, 1.5), Some((72, 20)));
        assert_eq!(
            upgrade(&weapons, 19, true, 1.5),
            Some((44, 12)),
            "tier 1 too dear"
        );
        assert_eq!(upgrade(&weapons, 40, true, 10.0), None, "not enough better");
        assert_eq!(
            upgrade(&weapons, 40, false, 1.5),
            None,
            "no room in the bag"
        );
        assert_eq!(upgrade(&WeaponsLater::default(), 40, true, 1.5), None);
    }
}
