//! The engine's refusals: one variant per reason the game systems revert with, so callers match
//! on a variant while the sim still reports the contract's exact short string.

/// Declares [`Revert`] with each variant's reason (the contract's felt short string) and code.
macro_rules! refusals {
    ($($(#[doc = $doc:literal])* $name:ident => $reason:literal, $code:expr;)*) => {
        /// A refused action, one variant per revert reason of the game systems.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Revert {
            $($(#[doc = $doc])* $name,)*
        }

        impl Revert {
            /// Every refusal, in declaration order.
            pub const ALL: &[Revert] = &[$(Self::$name),*];

            /// The contract's revert reason, exactly as its felt short string.
            pub fn reason(self) -> &'static str {
                match self {
                    $(Self::$name => $reason,)*
                }
            }

            /// The stable code an agent branches on (`NOT_IN_BATTLE`, …); `None` for reasons
            /// no agent is expected to meet (a stat pack overflow).
            pub fn code(self) -> Option<&'static str> {
                match self {
                    $(Self::$name => $code,)*
                }
            }
        }
    };
}

refusals! {
    /// No beast to fight.
    NotInBattle => "Not in battle", Some("NOT_IN_BATTLE");
    /// A beast blocks the action.
    InBattle => "Action not allowed in battle", Some("IN_BATTLE");
    /// The adventurer has no health left.
    AdventurerDead => "Adventurer is dead", Some("ADVENTURER_DEAD");
    /// Stat points must be spent before exploring.
    StatUpgradeAvailable => "Stat upgrade available", Some("STAT_UPGRADE_REQUIRED");
    /// The market opens only while no stat points wait, and upgrades need stat points.
    MarketClosed => "Market is closed", Some("MARKET_CLOSED");
    /// The purchase costs more gold than the adventurer has.
    NotEnoughGold => "Not enough gold", Some("NOT_ENOUGH_GOLD");
    /// The item is already equipped or bagged.
    ItemOwned => "Item already owned", Some("ITEM_OWNED");
    /// The item is not in this market.
    ItemNotInMarket => "Market item does not exist", Some("ITEM_NOT_IN_MARKET");
    /// The potions would heal past the maximum.
    HealthFull => "Health already full", Some("HEALTH_FULL");
    /// No free bag slot.
    BagFull => "Bag is full", Some("BAG_FULL");
    /// The starter beast cannot be fled.
    CantFleeStarterBeast => "Cant flee starter beast", Some("CANT_FLEE_STARTER_BEAST");
    /// Fleeing needs dexterity.
    NoDexterity => "Cant flee, no dexterity", Some("NO_DEXTERITY");
    /// Nothing can be dropped while the starter beast is in front.
    CantDropStarter => "Cant drop during starter beast", Some("CANT_DROP_STARTER");
    /// More items than one equip call takes.
    TooManyItems => "Too many items", Some("TOO_MANY_ITEMS");
    /// No item named.
    NoItems => "Must provide item ids", Some("NO_ITEMS");
    /// The item to equip is not in the bag.
    ItemNotInBag => "Item not in bag", Some("ITEM_NOT_IN_BAG");
    /// The item to drop is neither equipped nor bagged.
    ItemNotOwned => "Item not owned by adventurer", Some("ITEM_NOT_OWNED");
    /// Not one of the four starting weapons.
    InvalidStartingWeapon => "Invalid starting weapon", Some("INVALID_STARTING_WEAPON");
    /// More stat points spent than available.
    InsufficientStatUpgrades => "insufficient stat upgrades", Some("INSUFFICIENT_STAT_UPGRADES");
    /// Fewer stat points spent than available.
    MustUseAllStats => "Must use all stats", Some("MUST_USE_ALL_STATS");
    /// Luck cannot be upgraded.
    LuckMustBeZero => "Luck must be zero", Some("LUCK_MUST_BE_ZERO");
    /// Item ids run from 1 to 101.
    InvalidItemId => "invalid item id", Some("INVALID_ITEM_ID");
    /// The caller does not own the adventurer token.
    NotOwner => "Not token owner", Some("NOT_OWNER");
    /// The game was already started.
    AlreadyStarted => "Adventurer already started", Some("ALREADY_STARTED");
    /// Strength would pass the maximum stat value.
    StrengthOverflow => "strength pack overflow", None;
    /// Dexterity would pass the maximum stat value.
    DexterityOverflow => "dexterity pack overflow", None;
    /// Vitality would pass the maximum stat value.
    VitalityOverflow => "vitality pack overflow", None;
    /// Intelligence would pass the maximum stat value.
    IntelligenceOverflow => "intelligence pack overflow", None;
    /// Wisdom would pass the maximum stat value.
    WisdomOverflow => "wisdom pack overflow", None;
    /// Charisma would pass the maximum stat value.
    CharismaOverflow => "charisma pack overflow", None;
}

impl Revert {
    /// The refusal whose reason is `reason` (the contract's short string), if the game has one.
    pub fn from_reason(reason: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|r| r.reason() == reason)
    }
}

impl std::fmt::Display for Revert {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.reason())
    }
}

impl std::error::Error for Revert {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reasons_are_distinct_short_strings_and_round_trip() {
        for r in Revert::ALL {
            assert!(r.reason().len() <= 31, "{r:?} is not a felt short string");
            assert_eq!(Revert::from_reason(r.reason()), Some(*r));
            assert_eq!(r.to_string(), r.reason());
        }
        assert_eq!(Revert::from_reason("Not in battle."), None);
    }
}
