//! Advice where decisions are hard, as odds over the engine's distributions (never a peek at the
//! hidden randomness): what each market item is worth for this adventurer, the best buys for the
//! gold, what a stat point does, and the fight with each weapon.

mod damage;
pub mod equip;
pub mod market;
pub mod outlook;
pub mod stats;
pub mod swap;
#[cfg(test)]
mod tests;

pub use market::{BestBuys, ItemValue, best_buys, market_values};
pub use outlook::{Outlook, OutlookMemo, outlook_at};
pub use stats::{Stat, StatEffect, stat_effects};
pub use swap::{WeaponOption, weapon_options};
