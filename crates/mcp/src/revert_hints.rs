//! What to do instead of an action the game refused, by the revert's stable code
//! (`chain::revert`): the hints name this surface's tools, so they are worded here.

/// The hint of each known revert code.
const HINTS: &[(&str, &str)] = &[
    (
        "NOT_IN_BATTLE",
        "There is no beast to fight: spend any stat points with ls_upgrade (state.stat_points), then ls_explore.",
    ),
    (
        "IN_BATTLE",
        "A beast is in front of you: use ls_attack or ls_flee first.",
    ),
    (
        "ADVENTURER_DEAD",
        "This game is over: start a new one with ls_new_game.",
    ),
    (
        "STAT_UPGRADE_REQUIRED",
        "Spend your stat points with ls_upgrade before exploring.",
    ),
    (
        "MARKET_CLOSED",
        "Buying waits until the stat points are spent with ls_upgrade; upgrading needs stat points (state.stat_points above 0).",
    ),
    (
        "NOT_ENOUGH_GOLD",
        "Buy fewer or cheaper items: the ls_buy_item line of actions says how many potions the gold allows, and the market each item's price (ls_get_adventurer shows it again).",
    ),
    ("ITEM_OWNED", "You already carry that item."),
    (
        "ITEM_NOT_IN_MARKET",
        "Only items listed in the adventurer's market can be bought.",
    ),
    (
        "HEALTH_FULL",
        "Buy fewer potions: each heals 10 HP and health cannot pass max_health, so the ls_buy_item line of actions says how many fit.",
    ),
    ("BAG_FULL", "Drop an item with ls_drop first."),
    (
        "CANT_FLEE_STARTER_BEAST",
        "The starter beast must be fought: use ls_attack.",
    ),
    ("NO_DEXTERITY", "Fleeing needs dexterity: attack instead."),
    ("CANT_DROP_STARTER", "Items cannot be dropped at level 1."),
    ("TOO_MANY_ITEMS", "Send at most 8 items."),
    ("NO_ITEMS", "Name at least one item."),
    ("ITEM_NOT_IN_BAG", "Only bagged items can be equipped."),
    (
        "ITEM_NOT_OWNED",
        "Only equipped or bagged items can be dropped.",
    ),
    (
        "INVALID_STARTING_WEAPON",
        "Choose weapon 12 (Wand), 16 (Book), 46 (Short Sword) or 76 (Club).",
    ),
    (
        "INSUFFICIENT_STAT_UPGRADES",
        "Spend exactly the available stat points.",
    ),
    (
        "MUST_USE_ALL_STATS",
        "Spend exactly the available stat points.",
    ),
    ("LUCK_MUST_BE_ZERO", "Luck cannot be upgraded."),
    ("INVALID_ITEM_ID", "Item ids run from 1 to 101."),
    ("NOT_OWNER", "This wallet does not own that adventurer."),
    (
        "ALREADY_STARTED",
        "This adventurer is already playing: use ls_get_adventurer.",
    ),
    (
        "NO_TICKET",
        "This wallet holds no dungeon ticket: get one, or use another entry.",
    ),
    (
        "GOLDEN_PASS_COOLDOWN",
        "This golden pass was used recently: use another pass or another entry.",
    ),
    (
        "NOT_PASS_OWNER",
        "This wallet does not own that golden pass: check golden_pass_id.",
    ),
    (
        "NO_FREE_GAME",
        "The dungeon offers no free game to this wallet: use entry ticket or golden_pass.",
    ),
];

/// What to do instead after a revert with `code`, when the code is known.
pub(crate) fn revert_hint(code: &str) -> Option<&'static str> {
    HINTS.iter().find(|(c, _)| *c == code).map(|(_, h)| *h)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chain::revert::classify;

    #[test]
    fn known_codes_have_hints_that_name_the_tools() {
        let r = classify("Execution failed: [0x4e6f7420696e20626174746c65]");
        assert_eq!(r.code(), "NOT_IN_BATTLE");
        assert!(revert_hint(r.code()).unwrap().contains("ls_explore"));
        assert_eq!(revert_hint("UNKNOWN_REVERT"), None);
    }

    #[test]
    fn every_code_the_chain_decodes_has_a_hint() {
        let mut codes: Vec<&str> = game::engine::Revert::ALL
            .iter()
            .filter_map(|r| r.code())
            .chain(chain::revert::DungeonRefusal::ALL.map(|d| d.code()))
            .collect();
        codes.sort_unstable();
        codes.dedup();
        for code in &codes {
            assert!(revert_hint(code).is_some(), "{code} has no hint");
        }
        assert_eq!(HINTS.len(), codes.len(), "a hint for a code nobody decodes");
    }
}
