//! The names of the tools that act on the game.

/// Mint (if needed) and start a game.
pub const NEW_GAME: &str = "ls_new_game";
/// Explore.
pub const EXPLORE: &str = "ls_explore";
/// Attack the beast.
pub const ATTACK: &str = "ls_attack";
/// Flee the beast.
pub const FLEE: &str = "ls_flee";
/// Spend stat points.
pub const UPGRADE: &str = "ls_upgrade";
/// Buy items and potions.
pub const BUY_ITEM: &str = "ls_buy_item";
/// Equip items from the bag.
pub const EQUIP: &str = "ls_equip";
/// Drop items.
pub const DROP: &str = "ls_drop";
/// Give up the game (second-generation deployments).
pub const SURRENDER: &str = "ls_surrender";
