//! Argument types of the tools; field docs become the input schema an agent reads.

use game::AdventurerId;
use schemars::JsonSchema;
use serde::Deserialize;

use crate::error::ToolError;
use crate::present::compact::Detail;
use chain::Confirm;
use chain::entry::Entry;
use game::catalogue;

/// An item by catalogue id (1–101) or name ("Short Sword", "short_sword", "ShortSword").
#[derive(Debug, Clone, Deserialize, JsonSchema, PartialEq)]
#[serde(untagged)]
pub(crate) enum ItemRef {
    /// Catalogue id.
    Id(u64),
    /// Item name (case-insensitive; spaces, hyphens and underscores are ignored).
    Name(String),
}

impl ItemRef {
    /// Resolves to an item id in 1–101.
    pub(crate) fn resolve(&self, field: &str) -> Result<u8, ToolError> {
        match self {
            ItemRef::Id(id) => {
                if (1..=101).contains(id) {
                    Ok(*id as u8)
                } else {
                    Err(ToolError::validation(format!(
                        "{field}: item id must be between 1 and 101, got {id}"
                    ))
                    .with_detail("field", field))
                }
            }
            ItemRef::Name(name) => catalogue::resolve_item(name).map(|i| i.id).ok_or_else(|| {
                ToolError::validation(format!("{field}: no item named '{name}'"))
                    .with_detail("field", field)
                    .with_detail("suggestions", catalogue::suggest(name, 5))
            }),
        }
    }
}

impl ItemRef {
    /// Resolves to one of the four starting weapons (12 Wand, 16 Book, 46 Short Sword, 76 Club),
    /// so a wrong weapon is refused before `ls_new_game` mints anything.
    pub(crate) fn resolve_starting_weapon(&self, field: &str) -> Result<u8, ToolError> {
        let id = self.resolve(field)?;
        if game::rules::STARTING_WEAPONS.contains(&id) {
            return Ok(id);
        }
        Err(ToolError::validation(format!(
            "{field}: {} is not a starting weapon; choose Wand, Book, Short Sword or Club",
            catalogue::item_name(id)
        ))
        .with_detail("field", field)
        .with_detail("allowed", ["Wand", "Book", "Short Sword", "Club"])
        .with_hint("nothing was minted; call ls_new_game again with a starting weapon"))
    }
}

/// Options shared by every write tool (described once in the server instructions, not per tool).
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
pub(crate) struct WriteOpts {
    /// How far the transaction must get before the tool answers: `pre_confirmed`,
    /// `accepted` (ACCEPTED_ON_L2, default) or `finalized` (ACCEPTED_ON_L1).
    #[serde(default)]
    pub confirm: Option<Confirm>,
    /// How long to wait for that, in milliseconds (at most 600000). Without it the tool answers
    /// within 50 s (before typical client timeouts), with `TX_TIMEOUT` and the hash if still pending.
    #[serde(default)]
    pub timeout_ms: Option<u64>,
    /// The adventurer's `action_count` you acted on (from the last state you read). If the
    /// adventurer has moved on, the call is refused with `STALE_STATE` before anything is signed,
    /// unless this very action already landed, in which case its earlier result is returned.
    #[serde(default)]
    pub expected_action_count: Option<u16>,
    /// Result detail: `compact` (what changed since the last result) or `full` (the whole
    /// adventurer view, hashes and raw events). Default: the server's setting.
    #[serde(default)]
    pub detail: Option<Detail>,
}

/// `ls_get_tx` arguments.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
pub(crate) struct TxArgs {
    /// 0x-hex hash.
    pub tx_hash: String,
}

/// `ls_new_game` arguments.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
pub(crate) struct NewGameArgs {
    /// 12 Wand, 16 Book, 46 Short Sword or 76 Club (id or name).
    pub weapon: ItemRef,
    /// An adventurer you own but have not started; omit to obtain a new one.
    #[serde(default)]
    pub adventurer_id: Option<AdventurerId>,
    /// Name of a new adventurer (ASCII, ≤ 31 characters).
    #[serde(default)]
    pub player_name: Option<String>,
    /// `mint` (default; off the official leaderboard), or bought at the profile's dungeon:
    /// `ticket`, `golden_pass` (with golden_pass_id) or `free` (if offered).
    #[serde(default)]
    pub entry: EntryArg,
    /// Your golden pass's token id.
    #[serde(default)]
    pub golden_pass_id: Option<u64>,
    /// The shared write options.
    #[serde(flatten)]
    pub opts: WriteOpts,
}

/// `ls_new_game`'s `entry` argument.
#[derive(Debug, Clone, Copy, Default, Deserialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub(crate) enum EntryArg {
    /// Mint the game token directly.
    #[default]
    Mint,
    /// Buy the game at the dungeon with one ticket.
    Ticket,
    /// Buy the game at the dungeon with a golden pass.
    GoldenPass,
    /// Claim a free game at the dungeon.
    Free,
}

impl NewGameArgs {
    /// The entry asked for, checked against the other arguments (nothing is sent yet).
    pub(crate) fn entry(&self) -> Result<Entry, ToolError> {
        let entry = match (self.entry, self.golden_pass_id) {
            (EntryArg::GoldenPass, Some(token_id)) => Entry::GoldenPass {
                token_id: token_id.into(),
            },
            (EntryArg::GoldenPass, None) => {
                return Err(ToolError::validation(
                    "entry \"golden_pass\" needs golden_pass_id, the token id of a pass you own",
                )
                .with_detail("field", "golden_pass_id"));
            }
            (_, Some(_)) => {
                return Err(ToolError::validation(
                    "golden_pass_id only goes with entry \"golden_pass\"",
                )
                .with_detail("field", "golden_pass_id"));
            }
            (EntryArg::Mint, None) => Entry::Mint,
            (EntryArg::Ticket, None) => Entry::Ticket,
            (EntryArg::Free, None) => Entry::Free,
        };
        if entry != Entry::Mint && self.adventurer_id.is_some() {
            return Err(ToolError::validation(format!(
                "entry \"{}\" obtains a new adventurer; omit adventurer_id, or omit entry to start \
                 the adventurer you own",
                entry.name()
            ))
            .with_detail("field", "entry"));
        }
        Ok(entry)
    }
}

/// Arguments of tools that only need the adventurer.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
pub(crate) struct AdventurerArgs {
    pub adventurer_id: AdventurerId,
    /// Result detail: `compact` or `full`. Default: the server's setting.
    #[serde(default)]
    pub detail: Option<Detail>,
}

/// `ls_explore` arguments.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
pub(crate) struct ExploreArgs {
    pub adventurer_id: AdventurerId,
    /// Until a beast, a level-up or death.
    #[serde(default)]
    pub till_beast: bool,
    /// Step by step, potions to full first when health is below this % of max.
    #[serde(default)]
    #[schemars(range(max = 100))]
    pub heal_below: Option<u8>,
    /// The shared write options.
    #[serde(flatten)]
    pub opts: WriteOpts,
}

/// What a move goes on with after its first transaction, until the next decision (a new beast,
/// stat points, death), each step a transaction of its own.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
pub(crate) struct GoOn {
    /// Then explore on, until a new beast, stat points or death.
    #[serde(default)]
    pub explore: bool,
    /// Exploring on step by step, potions to full first when health is below this % of max.
    #[serde(default)]
    #[schemars(range(max = 100))]
    pub heal_below: Option<u8>,
}

/// `ls_attack` / `ls_flee` arguments.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
pub(crate) struct BattleArgs {
    pub adventurer_id: AdventurerId,
    /// Until the fight is decided, in one transaction.
    #[serde(default)]
    pub to_the_death: bool,
    /// Fight on, round by round: attack while the win chance is at least this %, else flee.
    #[serde(default)]
    #[schemars(range(max = 100))]
    pub flee_below: Option<u8>,
    /// After the fight.
    #[serde(flatten)]
    pub then: GoOn,
    /// The shared write options.
    #[serde(flatten)]
    pub opts: WriteOpts,
}

/// `ls_upgrade` arguments: points to add per stat; they must sum to the points available.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
pub(crate) struct UpgradeArgs {
    pub adventurer_id: AdventurerId,
    #[serde(default)]
    pub strength: u8,
    #[serde(default)]
    pub dexterity: u8,
    #[serde(default)]
    pub vitality: u8,
    #[serde(default)]
    pub intelligence: u8,
    #[serde(default)]
    pub wisdom: u8,
    #[serde(default)]
    pub charisma: u8,
    /// Then buy (as ls_buy_item).
    #[serde(default)]
    pub items: Vec<Purchase>,
    /// Then buy potions.
    #[serde(default)]
    pub potions: u8,
    /// After it (the first step in the same transaction).
    #[serde(flatten)]
    pub then: GoOn,
    /// The shared write options.
    #[serde(flatten)]
    pub opts: WriteOpts,
}

/// One purchase, given as `{item, equip}` or as a bare item id or name (then not equipped).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Purchase {
    /// Item id (1–101) or name; must be in the adventurer's market.
    pub item: ItemRef,
    /// Equip it at once (the replaced item goes to the bag).
    pub equip: bool,
}

/// The accepted shapes of a purchase (the schema an agent reads).
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(untagged)]
enum PurchaseArg {
    /// Just the item: bought into the bag.
    Bare(ItemRef),
    /// The item and whether to equip it.
    Full(PurchaseFields),
}

/// A purchase as an object (`equip`: at once).
#[derive(Debug, Clone, Deserialize, JsonSchema)]
struct PurchaseFields {
    /// Id or name.
    item: ItemRef,
    #[serde(default)]
    equip: bool,
}

impl<'de> Deserialize<'de> for Purchase {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(match PurchaseArg::deserialize(d)? {
            PurchaseArg::Bare(item) => Purchase { item, equip: false },
            PurchaseArg::Full(f) => Purchase {
                item: f.item,
                equip: f.equip,
            },
        })
    }
}

impl JsonSchema for Purchase {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Purchase".into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        PurchaseArg::json_schema(generator)
    }
}

/// `ls_buy_item` arguments.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
pub(crate) struct BuyArgs {
    pub adventurer_id: AdventurerId,
    /// Ids, names or `{item, equip}` objects.
    #[serde(default)]
    pub items: Vec<Purchase>,
    /// Health potions (10 HP each).
    #[serde(default)]
    pub potions: u8,
    /// After it (the first step in the same transaction).
    #[serde(flatten)]
    pub then: GoOn,
    /// The shared write options.
    #[serde(flatten)]
    pub opts: WriteOpts,
}

/// `ls_equip` / `ls_drop` arguments.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
pub(crate) struct ItemsArgs {
    pub adventurer_id: AdventurerId,
    /// 1 to 8 items, by id or name.
    pub items: Vec<ItemRef>,
    /// The shared write options.
    #[serde(flatten)]
    pub opts: WriteOpts,
}

/// `ls_surrender` arguments: the game ends only when the confirmation is set on purpose.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
pub(crate) struct SurrenderArgs {
    pub adventurer_id: AdventurerId,
    pub confirm_surrender: bool,
    /// The shared write options.
    #[serde(flatten)]
    pub opts: WriteOpts,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn item_refs_resolve_ids_and_names() {
        assert_eq!(ItemRef::Id(46).resolve("weapon").unwrap(), 46);
        assert_eq!(
            ItemRef::Name("short sword".into())
                .resolve("weapon")
                .unwrap(),
            46
        );
        assert!(ItemRef::Id(0).resolve("item").is_err());
        assert!(ItemRef::Id(102).resolve("item").is_err());
        let e = ItemRef::Name("excalibur".into())
            .resolve("item")
            .unwrap_err();
        assert!(e.message.contains("excalibur"));
    }

    #[test]
    fn purchases_take_bare_names_ids_and_objects() {
        let a: BuyArgs = serde_json::from_value(serde_json::json!({
            "adventurer_id": 1,
            "items": ["Katana", 9, {"item": "Silver Ring", "equip": true}, {"item": 20}]
        }))
        .unwrap();
        let got: Vec<(u8, bool)> = a
            .items
            .iter()
            .map(|p| (p.item.resolve("item").unwrap(), p.equip))
            .collect();
        assert_eq!(got, vec![(42, false), (9, false), (4, true), (20, false)]);
        let schema = serde_json::to_string(&schemars::schema_for!(BuyArgs)).unwrap();
        assert!(schema.contains("anyOf"), "{schema}");
        assert!(
            serde_json::from_value::<BuyArgs>(serde_json::json!({
                "adventurer_id": 1, "items": [true]
            }))
            .is_err()
        );
    }

    #[test]
    fn only_starting_weapons_start_a_game() {
        for (r, id) in [
            (ItemRef::Name("wand".into()), 12),
            (ItemRef::Name("Book".into()), 16),
            (ItemRef::Name("short_sword".into()), 46),
            (ItemRef::Id(76), 76),
        ] {
            assert_eq!(r.resolve_starting_weapon("weapon").unwrap(), id);
        }
        let e = ItemRef::Name("Katana".into())
            .resolve_starting_weapon("weapon")
            .unwrap_err();
        assert!(e.message.contains("Katana") && e.message.contains("starting weapon"));
        assert!(ItemRef::Id(42).resolve_starting_weapon("weapon").is_err());
    }

    #[test]
    fn write_options_parse_flattened() {
        let a: ExploreArgs = serde_json::from_value(serde_json::json!({
            "adventurer_id": 3, "till_beast": true, "confirm": "finalized", "timeout_ms": 5000
        }))
        .unwrap();
        assert_eq!(a.opts.confirm, Some(Confirm::Finalized));
        assert_eq!(a.opts.timeout_ms, Some(5000));
    }
}

/// What the arguments of every game-action tool carry: the adventurer acted on and the write
/// options.
pub(crate) trait ActionArgs {
    /// The adventurer (game token id).
    fn adventurer_id(&self) -> AdventurerId;
    /// The confirmation, timeout, stale-state and detail options.
    fn opts(&self) -> &WriteOpts;
}

macro_rules! action_args {
    ($($t:ty),*) => {$(
        impl ActionArgs for $t {
            fn adventurer_id(&self) -> AdventurerId {
                self.adventurer_id
            }
            fn opts(&self) -> &WriteOpts {
                &self.opts
            }
        }
    )*};
}

action_args!(
    ExploreArgs,
    BattleArgs,
    UpgradeArgs,
    BuyArgs,
    ItemsArgs,
    SurrenderArgs
);
