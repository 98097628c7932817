//! Growth: adventurer xp and levels, stat points, item xp with its specials unlocks, and the
//! `select_stat_upgrades` action (docs/game-rules.md#levels-and-xp, #stats, #item-specials).

use super::turn::Turn;
use super::{Revert, ensure};
use crate::boosts;
use crate::catalogue::Slot;
use crate::events::GameEventDetails;
use crate::model::{Item, Stats};
use crate::rules;

impl Turn<'_> {
    /// Adds stat points, capped at 15.
    pub(super) fn add_stat_points(&mut self, points: u8) {
        self.adv.stat_upgrades_available = self
            .adv
            .stat_upgrades_available
            .saturating_add(points)
            .min(rules::MAX_STAT_UPGRADES);
    }

    /// Adds xp (cap 32 767) and a stat point per level gained; returns (previous, new) level.
    pub(super) fn add_xp(&mut self, amount: u16) -> (u8, u8) {
        let previous = self.level();
        self.adv.xp = self.adv.xp.saturating_add(amount).min(rules::MAX_XP);
        let current = self.level();
        if current > previous {
            self.add_stat_points(current - previous);
        }
        (previous, current)
    }

    /// Gives every equipped item `amount` xp (cap 400). Crossing greatness 15 or 19 sets the
    /// item-specials seed to `specials_rnd` if it is still 0; crossing 15 unlocks the suffix (a
    /// vitality suffix heals 15 per point once); reaching 20 gives a stat point.
    pub(super) fn add_item_xp(&mut self, amount: u16, specials_rnd: u16) {
        let specials = self.settings.rules.item_specials;
        for slot in Slot::ALL {
            let item = self.adv.equipment.get(slot);
            if item.is_empty() {
                continue;
            }
            let before = item.greatness();
            let grown = Item {
                id: item.id,
                xp: item.xp.saturating_add(amount).min(rules::MAX_ITEM_XP),
            };
            self.adv.equipment.set(slot, grown);
            let after = grown.greatness();
            let crossed = |g: u8| before < g && after >= g;
            if specials {
                let unlock = crossed(rules::SUFFIX_UNLOCK_GREATNESS)
                    || crossed(rules::PREFIX_UNLOCK_GREATNESS);
                if unlock && self.adv.item_specials_seed == 0 {
                    self.adv.item_specials_seed = specials_rnd;
                }
                if crossed(rules::SUFFIX_UNLOCK_GREATNESS) {
                    let vitality = boosts::vitality_boost(&grown, self.adv.item_specials_seed);
                    self.heal(rules::VITALITY_HEALTH * u16::from(vitality));
                }
            }
            if crossed(rules::MAX_GREATNESS) {
                self.add_stat_points(1);
            }
        }
    }

    /// `select_stat_upgrades`: spends exactly the available points (each stored stat stays at
    /// most 31); vitality heals 15 per point.
    pub(super) fn upgrade(&mut self, up: &Stats) -> Result<(), Revert> {
        ensure(self.adv.is_alive(), Revert::AdventurerDead)?;
        ensure(!self.adv.in_battle(), Revert::InBattle)?;
        let available = u16::from(self.adv.stat_upgrades_available);
        ensure(available != 0, Revert::MarketClosed)?;
        let total = up.upgrade_points();
        ensure(total <= available, Revert::InsufficientStatUpgrades)?;
        ensure(total == available, Revert::MustUseAllStats)?;
        ensure(up.luck == 0, Revert::LuckMustBeZero)?;
        let s = &mut self.adv.stats;
        for (stat, add, reason) in [
            (&mut s.strength, up.strength, Revert::StrengthOverflow),
            (&mut s.dexterity, up.dexterity, Revert::DexterityOverflow),
            (&mut s.vitality, up.vitality, Revert::VitalityOverflow),
            (
                &mut s.intelligence,
                up.intelligence,
                Revert::IntelligenceOverflow,
            ),
            (&mut s.wisdom, up.wisdom, Revert::WisdomOverflow),
            (&mut s.charisma, up.charisma, Revert::CharismaOverflow),
        ] {
            let sum = u16::from(*stat) + u16::from(add);
            ensure(sum <= u16::from(rules::MAX_STAT_VALUE), reason)?;
            *stat = sum as u8;
        }
        self.adv.stat_upgrades_available = 0;
        self.heal(rules::VITALITY_HEALTH * u16::from(up.vitality));
        self.emit(GameEventDetails::StatUpgrade { stats: *up });
        let level = self.level();
        self.finish(level, 0);
        Ok(())
    }
}
