//! Fighting: `attack` and `flee` (one round or to the death), the beast's counter-attack, and the
//! rewards of a kill (docs/game-rules.md#randomness, #combat, #flee).

use super::turn::{Turn, world_key};
use super::{Revert, ensure};
use crate::beast_display;
use crate::catalogue;
use crate::combat::{self, ARMOR_SLOTS};
use crate::events::{AttackEvent, GameEventDetails};
use crate::model::BeastEvent;
use crate::random;
use crate::rules;

/// Gold Ring item id.
const GOLD_RING: u8 = 8;

impl Turn<'_> {
    /// The beast hits the armor at `location_rnd % 5`, critically per the adventurer's level.
    pub(super) fn beast_strikes(&mut self, beast: &BeastEvent, crit_rnd: u8, location_rnd: u8) {
        let adv = self.boosted();
        let slot = ARMOR_SLOTS[usize::from(location_rnd % 5)];
        let critical_hit =
            rules::is_critical_hit(rules::critical_hit_chance(adv.level()), crit_rnd);
        let jewelry = self.settings.rules.jewelry_bonuses;
        let damage = combat::beast_hit(&adv, beast, slot, critical_hit, jewelry);
        self.hurt(damage);
        self.emit(GameEventDetails::BeastAttack(AttackEvent {
            damage,
            location: slot,
            critical_hit,
        }));
    }

    /// `attack`: hit the beast (crit by luck); if it survives it strikes back. Round k uses
    /// battle counter `action_count + k`.
    pub(super) fn attack(&mut self, to_the_death: bool) -> Result<(), Revert> {
        ensure(self.adv.is_alive(), Revert::AdventurerDead)?;
        ensure(self.adv.in_battle(), Revert::NotInBattle)?;
        let start_level = self.level();
        let (level_seed, market_seed) = self.action_seeds();
        let (beast, beast_rnd) = self.beast();
        let jewelry = self.settings.rules.jewelry_bonuses;
        let mut round: u16 = 1;
        loop {
            let count = self.adv.action_count.wrapping_add(round);
            let [_, crit_rnd, beast_crit_rnd, location_rnd] =
                random::get_battle_randomness(self.adv.xp, count, level_seed);
            let adv = self.boosted();
            let critical_hit = rules::is_critical_hit(adv.stats.luck, crit_rnd);
            let damage = combat::adventurer_hit(&adv, &beast, critical_hit, jewelry);
            self.emit(GameEventDetails::Attack(AttackEvent {
                damage,
                location: catalogue::Slot::None,
                critical_hit,
            }));
            if damage >= self.adv.beast_health {
                self.defeat(&beast, level_seed, beast_rnd.r2_u16);
                break;
            }
            self.adv.beast_health -= damage;
            self.beast_strikes(&beast, beast_crit_rnd, location_rnd);
            if !to_the_death || !self.adv.is_alive() {
                break;
            }
            round = round.wrapping_add(1);
        }
        self.finish(start_level, market_seed);
        Ok(())
    }

    /// The beast dies: gold (plus the Gold Ring's 3% per greatness), xp, twice that xp to every
    /// equipped item, and on the very first kill the random starting stats.
    fn defeat(&mut self, beast: &BeastEvent, level_seed: u64, specials_rnd: u16) {
        self.adv.beast_health = 0;
        let tier = rules::beast_tier(beast.id);
        let mut gold = rules::gold_reward(tier, beast.level);
        let ring = self.adv.equipment.ring;
        if self.settings.rules.jewelry_bonuses && ring.id == GOLD_RING {
            gold += (u32::from(gold) * 3 * u32::from(ring.greatness()) / 100) as u16;
        }
        let xp = rules::xp_reward(tier, beast.level, self.level());
        self.add_gold(gold);
        let (previous, current) = self.add_xp(xp);
        self.add_item_xp(xp.saturating_mul(2), specials_rnd);
        if previous == 1 && current == 2 {
            let stats = random::starting_stats(level_seed);
            self.adv.stats = stats;
            self.adv.health += rules::max_health(stats.vitality) - rules::STARTING_HEALTH;
        }
        if self.settings.rules.collectables && beast.is_collectable {
            self.collected.push(world_key(beast));
        }
        self.emit(GameEventDetails::DefeatedBeast {
            beast_id: beast.id,
            beast_name: beast_display::name(beast.id),
            gold_reward: gold,
            xp_reward: xp,
        });
    }

    /// `flee`: escape with dexterity against the level; on failure the beast strikes.
    pub(super) fn flee(&mut self, to_the_death: bool) -> Result<(), Revert> {
        ensure(self.adv.is_alive(), Revert::AdventurerDead)?;
        ensure(self.adv.in_battle(), Revert::NotInBattle)?;
        let level = self.level();
        ensure(level > 1, Revert::CantFleeStarterBeast)?;
        ensure(self.boosted().stats.dexterity != 0, Revert::NoDexterity)?;
        let (flee_seed, market_seed) = self.action_seeds();
        let (beast, _) = self.beast();
        let mut round: u16 = 1;
        loop {
            let count = self.adv.action_count.wrapping_add(round);
            let [flee_rnd, _, beast_crit_rnd, location_rnd] =
                random::get_battle_randomness(self.adv.xp, count, flee_seed);
            let dexterity = self.boosted().stats.dexterity;
            let fled = combat::avoids_threat(level, dexterity, flee_rnd);
            self.emit(GameEventDetails::Flee { success: fled });
            if fled {
                self.adv.beast_health = 0;
                self.add_xp(1);
                self.emit(GameEventDetails::FledBeast {
                    beast_id: beast.id,
                    beast_name: beast_display::name(beast.id),
                    xp_reward: 1,
                });
                break;
            }
            self.beast_strikes(&beast, beast_crit_rnd, location_rnd);
            if !to_the_death || !self.adv.is_alive() {
                break;
            }
            round = round.wrapping_add(1);
        }
        self.finish(level, market_seed);
        Ok(())
    }
}
