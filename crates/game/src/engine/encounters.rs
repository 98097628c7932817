//! `explore` (docs/game-rules.md#randomness, #beasts, #ambush, #obstacles, #discoveries): each step
//! meets a beast (which may ambush), an obstacle (dodged or taken) or a discovery (gold, health or
//! loot); `till_beast` repeats the step with the same seed while the adventurer can explore.

use super::settings::StatsMode;
use super::turn::{Turn, beast_of};
use super::{Revert, ensure};
use crate::catalogue;
use crate::combat::{self, ARMOR_SLOTS};
use crate::events::{AttackEvent, Discovery, GameEventDetails, ObstacleEncounter};
use crate::model::Item;
use crate::random::{self, ExploreOutcome, Randomness};
use crate::rules;

/// Safety bound on `till_beast` steps: xp grows every step, so the loop only stalls at the xp cap.
const MAX_EXPLORE_STEPS: usize = 4096;

impl Turn<'_> {
    /// `explore(till_beast)`.
    pub(super) fn explore(&mut self, till_beast: bool) -> Result<(), Revert> {
        ensure(self.adv.is_alive(), Revert::AdventurerDead)?;
        ensure(
            self.adv.stat_upgrades_available == 0,
            Revert::StatUpgradeAvailable,
        )?;
        ensure(!self.adv.in_battle(), Revert::InBattle)?;
        let start_level = self.level();
        let (explore_seed, market_seed) = self.action_seeds();
        let mut bag_changed = false;
        for _ in 0..MAX_EXPLORE_STEPS {
            let xp = self.adv.xp;
            bag_changed |= self.explore_step(explore_seed);
            let can_explore = self.adv.is_alive()
                && !self.adv.in_battle()
                && self.adv.stat_upgrades_available == 0;
            if !till_beast || !can_explore || self.adv.xp == xp {
                break;
            }
        }
        if self.adv.in_battle() {
            self.beast_seed = explore_seed;
        }
        if bag_changed {
            let bag = self.bag;
            self.emit(GameEventDetails::Bag(bag));
        }
        self.finish(start_level, market_seed);
        Ok(())
    }

    /// One step; returns whether the bag changed.
    fn explore_step(&mut self, seed: u64) -> bool {
        let r = random::get_randomness(self.adv.xp, seed);
        match random::explore_outcome(r.r4_u8) {
            ExploreOutcome::Beast => {
                self.beast_encounter(seed);
                false
            }
            ExploreOutcome::Obstacle => {
                self.obstacle(&r);
                false
            }
            ExploreOutcome::Discovery => self.discovery(&r),
        }
    }

    /// A beast appears; unless wisdom avoids it (dodge mode), it ambushes first, the damage
    /// reduced by the base reduction (and by wisdom in reduction mode).
    fn beast_encounter(&mut self, seed: u64) {
        let (beast, r) = beast_of(&self.adv, seed, self.settings, self.collection);
        self.adv.beast_health = beast.health;
        self.emit(GameEventDetails::Beast(beast.into()));
        let adv = self.boosted();
        let level = adv.level();
        let ambushed = match self.settings.stats_mode {
            StatsMode::Dodge => !combat::avoids_threat(level, adv.stats.wisdom, r.r3_u8),
            StatsMode::Reduction => true,
        };
        if !ambushed {
            return;
        }
        let slot = ARMOR_SLOTS[usize::from(r.r1_u8 % 5)];
        let critical_hit = rules::is_critical_hit(rules::critical_hit_chance(level), r.r2_u8);
        let raw = combat::beast_hit(
            &adv,
            &beast,
            slot,
            critical_hit,
            self.settings.rules.jewelry_bonuses,
        );
        let mut damage = combat::apply_damage_reduction(raw, self.settings.base_damage_reduction);
        if self.settings.stats_mode == StatsMode::Reduction {
            let pct = combat::ability_damage_reduction(level, adv.stats.wisdom);
            damage = combat::apply_damage_reduction(damage, pct);
        }
        if damage > 0 {
            self.hurt(damage);
            self.emit(GameEventDetails::Ambush(AttackEvent {
                damage,
                location: slot,
                critical_hit,
            }));
        }
    }

    /// An obstacle: dodged with intelligence (dodge mode) or reduced by it (reduction mode);
    /// xp (and as much item xp) only if the adventurer survives.
    fn obstacle(&mut self, r: &Randomness) {
        let adv = self.boosted();
        let level = adv.level();
        let id = random::obstacle_id(r.r1_u32);
        let obstacle_level = random::random_level(level, r.r2_u16);
        let slot = ARMOR_SLOTS[usize::from(r.r1_u8 % 5)];
        let critical_hit = rules::is_critical_hit(rules::critical_hit_chance(level), r.r2_u8);
        let raw = combat::obstacle_hit(
            &adv,
            id,
            obstacle_level,
            slot,
            critical_hit,
            self.settings.rules.jewelry_bonuses,
        );
        let mut damage = combat::apply_damage_reduction(raw, self.settings.base_damage_reduction);
        let dodged = match self.settings.stats_mode {
            StatsMode::Dodge => combat::avoids_threat(level, adv.stats.intelligence, r.r3_u8),
            StatsMode::Reduction => {
                let pct = combat::ability_damage_reduction(level, adv.stats.intelligence);
                damage = combat::apply_damage_reduction(damage, pct);
                false
            }
        };
        if !dodged {
            self.hurt(damage);
        }
        let mut xp_reward = 0;
        if self.adv.is_alive() {
            xp_reward = rules::xp_reward(rules::obstacle_tier(id), obstacle_level, level);
            self.add_xp(xp_reward);
            self.add_item_xp(xp_reward, r.r1_u16);
        }
        let info = catalogue::obstacle(id);
        self.emit(GameEventDetails::Obstacle(ObstacleEncounter {
            obstacle_id: id,
            name: info.map_or_else(|| format!("Unknown obstacle #{id}"), |o| o.name.to_string()),
            tier: rules::obstacle_tier(id),
            obstacle_type: rules::obstacle_type(id),
            dodged,
            damage,
            avoided_damage: 0,
            location: slot,
            critical_hit,
            xp_reward,
        }));
    }

    /// Gold, health or an item, plus 1 xp. An item already owned, or whose slot is taken while
    /// the bag is full, becomes gold (its tier price); else it is equipped into an empty slot or
    /// bagged. Returns whether the bag changed.
    fn discovery(&mut self, r: &Randomness) -> bool {
        let found = random::discovery(self.level(), r.r1_u8, r.r2_u8, r.r3_u8);
        let mut bag_changed = false;
        let found = match found {
            Discovery::Gold { amount } => {
                self.add_gold(amount);
                Discovery::Gold { amount }
            }
            Discovery::Health { amount } => {
                self.heal(amount);
                Discovery::Health { amount }
            }
            Discovery::Loot { item } => {
                let info = catalogue::item(item.id);
                let slot = info.map_or(catalogue::Slot::None, |i| i.slot);
                let slot_taken = !self.adv.equipment.get(slot).is_empty();
                let owned = self.adv.equipment.contains(item.id) || self.bag.contains(item.id);
                if owned || (slot_taken && self.bag.is_full()) {
                    let amount = rules::tier_price(info.map_or(catalogue::Tier::None, |i| i.tier));
                    self.add_gold(amount);
                    Discovery::Gold { amount }
                } else {
                    let new = Item { id: item.id, xp: 0 };
                    if slot_taken {
                        bag_changed = super::inventory::bag_add(&mut self.bag, new).is_ok();
                    } else {
                        self.adv.equipment.set(slot, new);
                    }
                    Discovery::Loot { item }
                }
            }
        };
        self.add_xp(1);
        self.emit(GameEventDetails::Discovery {
            discovery: found,
            xp_reward: 1,
        });
        bag_changed
    }
}
