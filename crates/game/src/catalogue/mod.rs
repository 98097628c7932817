//! The game's static catalogue: 101 items, 75 beasts, 75 obstacles and the special-name lists
//! (docs/game-rules.md#catalogue), with lookup by id and by forgiving name, so tools accept "short
//! sword" or 46.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::rules;

mod search;

pub use search::*;

/// Item / beast / obstacle tier (Cairo `Tier`, variant index 0..=5); T1 is the strongest.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    JsonSchema,
)]
pub enum Tier {
    /// No tier (empty slot, unknown id).
    #[default]
    None,
    /// Tier 1 (strongest, most expensive).
    T1,
    /// Tier 2.
    T2,
    /// Tier 3.
    T3,
    /// Tier 4.
    T4,
    /// Tier 5 (weakest, cheapest).
    T5,
}

impl Tier {
    /// Decodes the Cairo variant index (0 None, 1 T1 … 5 T5).
    pub fn from_index(i: u8) -> Option<Self> {
        Some(match i {
            0 => Tier::None,
            1 => Tier::T1,
            2 => Tier::T2,
            3 => Tier::T3,
            4 => Tier::T4,
            5 => Tier::T5,
            _ => return None,
        })
    }

    /// The Cairo variant index (0 None, 1 T1 … 5 T5).
    pub fn index(self) -> u8 {
        self as u8
    }
}

/// Combat type of an item, beast or obstacle (Cairo `Type`, variant index 0..=5).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
pub enum ItemType {
    /// No type (empty slot, unknown id).
    #[default]
    None,
    /// Magic weapons / cloth armor; magical beasts and obstacles.
    #[serde(rename = "Magic_or_Cloth")]
    MagicOrCloth,
    /// Blade weapons / hide armor; hunter beasts and blade obstacles.
    #[serde(rename = "Blade_or_Hide")]
    BladeOrHide,
    /// Bludgeon weapons / metal armor; brute beasts and bludgeon obstacles.
    #[serde(rename = "Bludgeon_or_Metal")]
    BludgeonOrMetal,
    /// Neck jewelry.
    Necklace,
    /// Ring jewelry.
    Ring,
}

impl ItemType {
    /// Decodes the Cairo variant index.
    pub fn from_index(i: u8) -> Option<Self> {
        Some(match i {
            0 => ItemType::None,
            1 => ItemType::MagicOrCloth,
            2 => ItemType::BladeOrHide,
            3 => ItemType::BludgeonOrMetal,
            4 => ItemType::Necklace,
            5 => ItemType::Ring,
            _ => return None,
        })
    }

    /// The game's spelling of the type (as in the data files and events).
    pub fn as_str(self) -> &'static str {
        match self {
            ItemType::None => "None",
            ItemType::MagicOrCloth => "Magic_or_Cloth",
            ItemType::BladeOrHide => "Blade_or_Hide",
            ItemType::BludgeonOrMetal => "Bludgeon_or_Metal",
            ItemType::Necklace => "Necklace",
            ItemType::Ring => "Ring",
        }
    }
}

/// Equipment slot (Cairo `Slot`, variant index 0..=8); also the hit location of attacks.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    JsonSchema,
)]
pub enum Slot {
    /// No slot.
    #[default]
    None,
    /// Weapon slot.
    Weapon,
    /// Chest armor.
    Chest,
    /// Head armor.
    Head,
    /// Waist armor.
    Waist,
    /// Foot armor.
    Foot,
    /// Hand armor.
    Hand,
    /// Necklace.
    Neck,
    /// Ring.
    Ring,
}

impl Slot {
    /// Decodes the Cairo variant index.
    pub fn from_index(i: u8) -> Option<Self> {
        Some(match i {
            0 => Slot::None,
            1 => Slot::Weapon,
            2 => Slot::Chest,
            3 => Slot::Head,
            4 => Slot::Waist,
            5 => Slot::Foot,
            6 => Slot::Hand,
            7 => Slot::Neck,
            8 => Slot::Ring,
            _ => return None,
        })
    }

    /// The Cairo variant index.
    pub fn index(self) -> u8 {
        self as u8
    }

    /// The eight real slots in equipment order (weapon, chest, head, waist, foot, hand, neck, ring).
    pub const ALL: [Slot; 8] = [
        Slot::Weapon,
        Slot::Chest,
        Slot::Head,
        Slot::Waist,
        Slot::Foot,
        Slot::Hand,
        Slot::Neck,
        Slot::Ring,
    ];
}

/// One catalogue item (docs/game-rules.md#catalogue): static facts that never change during a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct ItemInfo {
    /// Item id, 1..=101.
    pub id: u8,
    /// Display name, e.g. "Short Sword".
    pub name: &'static str,
    /// Tier T1..T5.
    pub tier: Tier,
    /// Combat type.
    #[serde(rename = "type")]
    pub item_type: ItemType,
    /// Slot the item is equipped in.
    pub slot: Slot,
    /// Index of the item within its slot, used to derive its special names
    /// (docs/game-rules.md#item-specials).
    pub slot_index: u8,
}

const fn info(
    id: u8,
    name: &'static str,
    tier: Tier,
    item_type: ItemType,
    slot: Slot,
    slot_index: u8,
) -> ItemInfo {
    ItemInfo {
        id,
        name,
        tier,
        item_type,
        slot,
        slot_index,
    }
}

/// One beast (docs/game-rules.md#beasts): id, name and the tier/type derived from the id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct BeastInfo {
    /// Beast id, 1..=75.
    pub id: u8,
    /// Display name, e.g. "Dire Wolf".
    pub name: &'static str,
    /// Tier T1..T5.
    pub tier: Tier,
    /// Combat type (Magic, Blade/hunter, Bludgeon/brute).
    #[serde(rename = "type")]
    pub beast_type: ItemType,
}

/// One obstacle (docs/game-rules.md#obstacles): id, name and the tier/type derived from the id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct ObstacleInfo {
    /// Obstacle id, 1..=75.
    pub id: u8,
    /// Display name, e.g. "Demonic Alter" (the game's spelling).
    pub name: &'static str,
    /// Tier T1..T5.
    pub tier: Tier,
    /// Combat type.
    #[serde(rename = "type")]
    pub obstacle_type: ItemType,
}

/// The 101 items, indexed by `id - 1` (upstream `contracts/src/utils/loot.cairo`).
pub static ITEMS: [ItemInfo; 101] = [
    info(1, "Pendant", Tier::T1, ItemType::Necklace, Slot::Neck, 2),
    info(2, "Necklace", Tier::T1, ItemType::Necklace, Slot::Neck, 0),
    info(3, "Amulet", Tier::T1, ItemType::Necklace, Slot::Neck, 1),
    info(4, "Silver Ring", Tier::T2, ItemType::Ring, Slot::Ring, 1),
    info(5, "Bronze Ring", Tier::T3, ItemType::Ring, Slot::Ring, 2),
    info(6, "Platinum Ring", Tier::T1, ItemType::Ring, Slot::Ring, 3),
    info(7, "Titanium Ring", Tier::T1, ItemType::Ring, Slot::Ring, 4),
    info(8, "Gold Ring", Tier::T1, ItemType::Ring, Slot::Ring, 0),
    info(
        9,
        "Ghost Wand",
        Tier::T1,
        ItemType::MagicOrCloth,
        Slot::Weapon,
        10,
    ),
    info(
        10,
        "Grave Wand",
        Tier::T2,
        ItemType::MagicOrCloth,
        Slot::Weapon,
        11,
    ),
    info(
        11,
        "Bone Wand",
        Tier::T3,
        ItemType::MagicOrCloth,
        Slot::Weapon,
        12,
    ),
    info(
        12,
        "Wand",
        Tier::T5,
        ItemType::MagicOrCloth,
        Slot::Weapon,
        13,
    ),
    info(
        13,
        "Grimoire",
        Tier::T1,
        ItemType::MagicOrCloth,
        Slot::Weapon,
        14,
    ),
    info(
        14,
        "Chronicle",
        Tier::T2,
        ItemType::MagicOrCloth,
        Slot::Weapon,
        15,
    ),
    info(
        15,
        "Tome",
        Tier::T3,
        ItemType::MagicOrCloth,
        Slot::Weapon,
        16,
    ),
    info(
        16,
        "Book",
        Tier::T5,
        ItemType::MagicOrCloth,
        Slot::Weapon,
        17,
    ),
    info(
        17,
        "Divine Robe",
        Tier::T1,
        ItemType::MagicOrCloth,
        Slot::Chest,
        0,
    ),
    info(
        18,
        "Silk Robe",
        Tier::T2,
        ItemType::MagicOrCloth,
        Slot::Chest,
        1,
    ),
    info(
        19,
        "Linen Robe",
        Tier::T3,
        ItemType::MagicOrCloth,
        Slot::Chest,
        2,
    ),
    info(20, "Robe", Tier::T4, ItemType::MagicOrCloth, Slot::Chest, 3),
    info(
        21,
        "Shirt",
        Tier::T5,
        ItemType::MagicOrCloth,
        Slot::Chest,
        4,
    ),
    info(
        22,
        "Crown",
        Tier::T1,
        ItemType::MagicOrCloth,
        Slot::Head,
        10,
    ),
    info(
        23,
        "Divine Hood",
        Tier::T2,
        ItemType::MagicOrCloth,
        Slot::Head,
        11,
    ),
    info(
        24,
        "Silk Hood",
        Tier::T3,
        ItemType::MagicOrCloth,
        Slot::Head,
        12,
    ),
    info(
        25,
        "Linen Hood",
        Tier::T4,
        ItemType::MagicOrCloth,
        Slot::Head,
        13,
    ),
    info(26, "Hood", Tier::T5, ItemType::MagicOrCloth, Slot::Head, 14),
    info(
        27,
        "Brightsilk Sash",
        Tier::T1,
        ItemType::MagicOrCloth,
        Slot::Waist,
        10,
    ),
    info(
        28,
        "Silk Sash",
        Tier::T2,
        ItemType::MagicOrCloth,
        Slot::Waist,
        11,
    ),
    info(
        29,
        "Wool Sash",
        Tier::T3,
        ItemType::MagicOrCloth,
        Slot::Waist,
        12,
    ),
    info(
        30,
        "Linen Sash",
        Tier::T4,
        ItemType::MagicOrCloth,
        Slot::Waist,
        13,
    ),
    info(
        31,
        "Sash",
        Tier::T5,
        ItemType::MagicOrCloth,
        Slot::Waist,
        14,
    ),
    info(
        32,
        "Divine Slippers",
        Tier::T1,
        ItemType::MagicOrCloth,
        Slot::Foot,
        10,
    ),
    info(
        33,
        "Silk Slippers",
        Tier::T2,
        ItemType::MagicOrCloth,
        Slot::Foot,
        11,
    ),
    info(
        34,
        "Wool Shoes",
        Tier::T3,
        ItemType::MagicOrCloth,
        Slot::Foot,
        12,
    ),
    info(
        35,
        "Linen Shoes",
        Tier::T4,
        ItemType::MagicOrCloth,
        Slot::Foot,
        13,
    ),
    info(
        36,
        "Shoes",
        Tier::T5,
        ItemType::MagicOrCloth,
        Slot::Foot,
        14,
    ),
    info(
        37,
        "Divine Gloves",
        Tier::T1,
        ItemType::MagicOrCloth,
        Slot::Hand,
        10,
    ),
    info(
        38,
        "Silk Gloves",
        Tier::T2,
        ItemType::MagicOrCloth,
        Slot::Hand,
        11,
    ),
    info(
        39,
        "Wool Gloves",
        Tier::T3,
        ItemType::MagicOrCloth,
        Slot::Hand,
        12,
    ),
    info(
        40,
        "Linen Gloves",
        Tier::T4,
        ItemType::MagicOrCloth,
        Slot::Hand,
        13,
    ),
    info(
        41,
        "Gloves",
        Tier::T5,
        ItemType::MagicOrCloth,
        Slot::Hand,
        14,
    ),
    info(
        42,
        "Katana",
        Tier::T1,
        ItemType::BladeOrHide,
        Slot::Weapon,
        5,
    ),
    info(
        43,
        "Falchion",
        Tier::T2,
        ItemType::BladeOrHide,
        Slot::Weapon,
        6,
    ),
    info(
        44,
        "Scimitar",
        Tier::T3,
        ItemType::BladeOrHide,
        Slot::Weapon,
        7,
    ),
    info(
        45,
        "Long Sword",
        Tier::T4,
        ItemType::BladeOrHide,
        Slot::Weapon,
        8,
    ),
    info(
        46,
        "Short Sword",
        Tier::T5,
        ItemType::BladeOrHide,
        Slot::Weapon,
        9,
    ),
    info(
        47,
        "Demon Husk",
        Tier::T1,
        ItemType::BladeOrHide,
        Slot::Chest,
        5,
    ),
    info(
        48,
        "Dragonskin Armor",
        Tier::T2,
        ItemType::BladeOrHide,
        Slot::Chest,
        6,
    ),
    info(
        49,
        "Studded Leather Armor",
        Tier::T3,
        ItemType::BladeOrHide,
        Slot::Chest,
        7,
    ),
    info(
        50,
        "Hard Leather Armor",
        Tier::T4,
        ItemType::BladeOrHide,
        Slot::Chest,
        8,
    ),
    info(
        51,
        "Leather Armor",
        Tier::T5,
        ItemType::BladeOrHide,
        Slot::Chest,
        9,
    ),
    info(
        52,
        "Demon Crown",
        Tier::T1,
        ItemType::BladeOrHide,
        Slot::Head,
        5,
    ),
    info(
        53,
        "Dragon's Crown",
        Tier::T2,
        ItemType::BladeOrHide,
        Slot::Head,
        6,
    ),
    info(
        54,
        "War Cap",
        Tier::T3,
        ItemType::BladeOrHide,
        Slot::Head,
        7,
    ),
    info(
        55,
        "Leather Cap",
        Tier::T4,
        ItemType::BladeOrHide,
        Slot::Head,
        8,
    ),
    info(56, "Cap", Tier::T5, ItemType::BladeOrHide, Slot::Head, 9),
    info(
        57,
        "Demonhide Belt",
        Tier::T1,
        ItemType::BladeOrHide,
        Slot::Waist,
        5,
    ),
    info(
        58,
        "Dragonskin Belt",
        Tier::T2,
        ItemType::BladeOrHide,
        Slot::Waist,
        6,
    ),
    info(
        59,
        "Studded Leather Belt",
        Tier::T3,
        ItemType::BladeOrHide,
        Slot::Waist,
        7,
    ),
    info(
        60,
        "Hard Leather Belt",
        Tier::T4,
        ItemType::BladeOrHide,
        Slot::Waist,
        8,
    ),
    info(
        61,
        "Leather Belt",
        Tier::T5,
        ItemType::BladeOrHide,
        Slot::Waist,
        9,
    ),
    info(
        62,
        "Demonhide Boots",
        Tier::T1,
        ItemType::BladeOrHide,
        Slot::Foot,
        5,
    ),
    info(
        63,
        "Dragonskin Boots",
        Tier::T2,
        ItemType::BladeOrHide,
        Slot::Foot,
        6,
    ),
    info(
        64,
        "Studded Leather Boots",
        Tier::T3,
        ItemType::BladeOrHide,
        Slot::Foot,
        7,
    ),
    info(
        65,
        "Hard Leather Boots",
        Tier::T4,
        ItemType::BladeOrHide,
        Slot::Foot,
        8,
    ),
    info(
        66,
        "Leather Boots",
        Tier::T5,
        ItemType::BladeOrHide,
        Slot::Foot,
        9,
    ),
    info(
        67,
        "Demon's Hands",
        Tier::T1,
        ItemType::BladeOrHide,
        Slot::Hand,
        5,
    ),
    info(
        68,
        "Dragonskin Gloves",
        Tier::T2,
        ItemType::BladeOrHide,
        Slot::Hand,
        6,
    ),
    info(
        69,
        "Studded Leather Gloves",
        Tier::T3,
        ItemType::BladeOrHide,
        Slot::Hand,
        7,
    ),
    info(
        70,
        "Hard Leather Gloves",
        Tier::T4,
        ItemType::BladeOrHide,
        Slot::Hand,
        8,
    ),
    info(
        71,
        "Leather Gloves",
        Tier::T5,
        ItemType::BladeOrHide,
        Slot::Hand,
        9,
    ),
    info(
        72,
        "Warhammer",
        Tier::T1,
        ItemType::BludgeonOrMetal,
        Slot::Weapon,
        0,
    ),
    info(
        73,
        "Quarterstaff",
        Tier::T2,
        ItemType::BludgeonOrMetal,
        Slot::Weapon,
        1,
    ),
    info(
        74,
        "Maul",
        Tier::T3,
        ItemType::BludgeonOrMetal,
        Slot::Weapon,
        2,
    ),
    info(
        75,
        "Mace",
        Tier::T4,
        ItemType::BludgeonOrMetal,
        Slot::Weapon,
        3,
    ),
    info(
        76,
        "Club",
        Tier::T5,
        ItemType::BludgeonOrMetal,
        Slot::Weapon,
        4,
    ),
    info(
        77,
        "Holy Chestplate",
        Tier::T1,
        ItemType::BludgeonOrMetal,
        Slot::Chest,
        10,
    ),
    info(
        78,
        "Ornate Chestplate",
        Tier::T2,
        ItemType::BludgeonOrMetal,
        Slot::Chest,
        11,
    ),
    info(
        79,
        "Plate Mail",
        Tier::T3,
        ItemType::BludgeonOrMetal,
        Slot::Chest,
        12,
    ),
    info(
        80,
        "Chain Mail",
        Tier::T4,
        ItemType::BludgeonOrMetal,
        Slot::Chest,
        13,
    ),
    info(
        81,
        "Ring Mail",
        Tier::T5,
        ItemType::BludgeonOrMetal,
        Slot::Chest,
        14,
    ),
    info(
        82,
        "Ancient Helm",
        Tier::T1,
        ItemType::BludgeonOrMetal,
        Slot::Head,
        0,
    ),
    info(
        83,
        "Ornate Helm",
        Tier::T2,
        ItemType::BludgeonOrMetal,
        Slot::Head,
        1,
    ),
    info(
        84,
        "Great Helm",
        Tier::T3,
        ItemType::BludgeonOrMetal,
        Slot::Head,
        2,
    ),
    info(
        85,
        "Full Helm",
        Tier::T4,
        ItemType::BludgeonOrMetal,
        Slot::Head,
        3,
    ),
    info(
        86,
        "Helm",
        Tier::T5,
        ItemType::BludgeonOrMetal,
        Slot::Head,
        4,
    ),
    info(
        87,
        "Ornate Belt",
        Tier::T1,
        ItemType::BludgeonOrMetal,
        Slot::Waist,
        0,
    ),
    info(
        88,
        "War Belt",
        Tier::T2,
        ItemType::BludgeonOrMetal,
        Slot::Waist,
        1,
    ),
    info(
        89,
        "Plated Belt",
        Tier::T3,
        ItemType::BludgeonOrMetal,
        Slot::Waist,
        2,
    ),
    info(
        90,
        "Mesh Belt",
        Tier::T4,
        ItemType::BludgeonOrMetal,
        Slot::Waist,
        3,
    ),
    info(
        91,
        "Heavy Belt",
        Tier::T5,
        ItemType::BludgeonOrMetal,
        Slot::Waist,
        4,
    ),
    info(
        92,
        "Holy Greaves",
        Tier::T1,
        ItemType::BludgeonOrMetal,
        Slot::Foot,
        0,
    ),
    info(
        93,
        "Ornate Greaves",
        Tier::T2,
        ItemType::BludgeonOrMetal,
        Slot::Foot,
        1,
    ),
    info(
        94,
        "Greaves",
        Tier::T3,
        ItemType::BludgeonOrMetal,
        Slot::Foot,
        2,
    ),
    info(
        95,
        "Chain Boots",
        Tier::T4,
        ItemType::BludgeonOrMetal,
        Slot::Foot,
        3,
    ),
    info(
        96,
        "Heavy Boots",
        Tier::T5,
        ItemType::BludgeonOrMetal,
        Slot::Foot,
        4,
    ),
    info(
        97,
        "Holy Gauntlets",
        Tier::T1,
        ItemType::BludgeonOrMetal,
        Slot::Hand,
        0,
    ),
    info(
        98,
        "Ornate Gauntlets",
        Tier::T2,
        ItemType::BludgeonOrMetal,
        Slot::Hand,
        1,
    ),
    info(
        99,
        "Gauntlets",
        Tier::T3,
        ItemType::BludgeonOrMetal,
        Slot::Hand,
        2,
    ),
    info(
        100,
        "Chain Gloves",
        Tier::T4,
        ItemType::BludgeonOrMetal,
        Slot::Hand,
        3,
    ),
    info(
        101,
        "Heavy Gloves",
        Tier::T5,
        ItemType::BludgeonOrMetal,
        Slot::Hand,
        4,
    ),
];

/// Beast names, indexed by `id - 1` (upstream `contracts/src/constants/beast.cairo`).
pub static BEAST_NAMES: [&str; 75] = [
    "Warlock",
    "Typhon",
    "Jiangshi",
    "Anansi",
    "Basilisk",
    "Gorgon",
    "Kitsune",
    "Lich",
    "Chimera",
    "Wendigo",
    "Rakshasa",
    "Werewolf",
    "Banshee",
    "Draugr",
    "Vampire",
    "Goblin",
    "Ghoul",
    "Wraith",
    "Sprite",
    "Kappa",
    "Fairy",
    "Leprechaun",
    "Kelpie",
    "Pixie",
    "Gnome",
    "Griffin",
    "Manticore",
    "Phoenix",
    "Dragon",
    "Minotaur",
    "Qilin",
    "Ammit",
    "Nue",
    "Skinwalker",
    "Chupacabra",
    "Weretiger",
    "Wyvern",
    "Roc",
    "Harpy",
    "Pegasus",
    "Hippogriff",
    "Fenrir",
    "Jaguar",
    "Satori",
    "Dire Wolf",
    "Bear",
    "Wolf",
    "Mantis",
    "Spider",
    "Rat",
    "Kraken",
    "Colossus",
    "Balrog",
    "Leviathan",
    "Tarrasque",
    "Titan",
    "Nephilim",
    "Behemoth",
    "Hydra",
    "Juggernaut",
    "Oni",
    "Jotunn",
    "Ettin",
    "Cyclops",
    "Giant",
    "Nemean Lion",
    "Berserker",
    "Yeti",
    "Golem",
    "Ent",
    "Troll",
    "Bigfoot",
    "Ogre",
    "Orc",
    "Skeleton",
];

/// Obstacle names, indexed by `id - 1` (upstream `contracts/src/constants/obstacle.cairo`).
pub static OBSTACLE_NAMES: [&str; 75] = [
    "Demonic Alter",
    "Vortex Of Despair",
    "Eldritch Barrier",
    "Soul Trap",
    "Phantom Vortex",
    "Ectoplasmic Web",
    "Spectral Chains",
    "Infernal Pact",
    "Arcane Explosion",
    "Hypnotic Essence",
    "Mischievous Sprites",
    "Soul Draining Statue",
    "Petrifying Gaze",
    "Summoning Circle",
    "Ethereal Void",
    "Magic Lock",
    "Bewitching Fog",
    "Illusionary Maze",
    "Spellbound Mirror",
    "Ensnaring Shadow",
    "Dark Mist",
    "Curse",
    "Haunting Echo",
    "Hex",
    "Ghostly Whispers",
    "Pendulum Blades",
    "Icy Razor Winds",
    "Acidic Thorns",
    "Dragons Breath",
    "Pendulum Scythe",
    "Flame Jet",
    "Piercing Ice Darts",
    "Glass Sand Storm",
    "Poisoned Dart Wall",
    "Spinning Blade Wheel",
    "Poison Dart",
    "Spiked Tumbleweed",
    "Thunderbolt",
    "Giant Bear Trap",
    "Steel Needle Rain",
    "Spiked Pit",
    "Diamond Dust Storm",
    "Trapdoor Scorpion Pit",
    "Bladed Fan",
    "Bear Trap",
    "Porcupine Quill",
    "Hidden Arrow",
    "Glass Shard",
    "Thorn Bush",
    "Jagged Rocks",
    "Collapsing Ceiling",
    "Rockslide",
    "Flash Flood",
    "Clinging Roots",
    "Collapsing Cavern",
    "Crushing Walls",
    "Smashing Pillars",
    "Rumbling Catacomb",
    "Whirling Cyclone",
    "Erupting Earth",
    "Subterranean Tremor",
    "Falling Chandelier",
    "Collapsing Bridge",
    "Raging Sandstorm",
    "Avalanching Rocks",
    "Tumbling Boulders",
    "Slamming Iron Gate",
    "Shifting Sandtrap",
    "Erupting Mud Geyser",
    "Crumbling Staircase",
    "Swinging Logs",
    "Unstable Cliff",
    "Toppling Statue",
    "Tumbling Barrels",
    "Rolling Boulder",
];

/// Discovery loot list for tier T5, in the game's order (docs/game-rules.md#discoveries).
pub static LOOT_T5: [u8; 19] = [
    16, 12, 26, 31, 21, 36, 41, 76, 86, 81, 96, 91, 101, 46, 61, 66, 51, 71, 56,
];
/// Discovery loot list for tier T4, in the game's order (docs/game-rules.md#discoveries).
pub static LOOT_T4: [u8; 17] = [
    45, 60, 65, 50, 55, 70, 75, 80, 85, 95, 100, 90, 20, 25, 30, 35, 40,
];
/// Discovery loot list for tier T3, in the game's order (docs/game-rules.md#discoveries).
pub static LOOT_T3: [u8; 19] = [
    15, 11, 19, 24, 29, 34, 39, 44, 49, 64, 59, 69, 54, 74, 94, 99, 79, 84, 89,
];
/// Discovery loot list for tier T2, in the game's order (docs/game-rules.md#discoveries).
pub static LOOT_T2: [u8; 19] = [
    10, 14, 18, 23, 28, 33, 38, 43, 53, 58, 63, 48, 68, 73, 78, 88, 83, 93, 98,
];
/// Discovery loot list for tier T1, in the game's order (docs/game-rules.md#discoveries).
pub static LOOT_T1: [u8; 19] = [
    9, 13, 17, 22, 27, 32, 37, 42, 47, 52, 57, 67, 62, 72, 77, 82, 92, 97, 87,
];

/// Item suffix names (`special1`, 1..=16), indexed by `special1 - 1`
/// (docs/game-rules.md#item-specials).
pub static SPECIAL1_NAMES: [&str; 16] = [
    "of Power",
    "of Giant",
    "of Titans",
    "of Skill",
    "of Perfection",
    "of Brilliance",
    "of Enlightenment",
    "of Protection",
    "of Anger",
    "of Rage",
    "of Fury",
    "of Vitriol",
    "of the Fox",
    "of Detection",
    "of Reflection",
    "of the Twins",
];
/// Name prefixes (`special2`, 1..=69), indexed by `special2 - 1`
/// (docs/game-rules.md#item-specials).
pub static SPECIAL2_NAMES: [&str; 69] = [
    "Agony",
    "Apocalypse",
    "Armageddon",
    "Beast",
    "Behemoth",
    "Blight",
    "Blood",
    "Bramble",
    "Brimstone",
    "Brood",
    "Carrion",
    "Cataclysm",
    "Chimeric",
    "Corpse",
    "Corruption",
    "Damnation",
    "Death",
    "Demon",
    "Dire",
    "Dragon",
    "Dread",
    "Doom",
    "Dusk",
    "Eagle",
    "Empyrean",
    "Fate",
    "Foe",
    "Gale",
    "Ghoul",
    "Gloom",
    "Glyph",
    "Golem",
    "Grim",
    "Hate",
    "Havoc",
    "Honour",
    "Horror",
    "Hypnotic",
    "Kraken",
    "Loath",
    "Maelstrom",
    "Mind",
    "Miracle",
    "Morbid",
    "Oblivion",
    "Onslaught",
    "Pain",
    "Pandemonium",
    "Phoenix",
    "Plague",
    "Rage",
    "Rapture",
    "Rune",
    "Skull",
    "Sol",
    "Soul",
    "Sorrow",
    "Spirit",
    "Storm",
    "Tempest",
    "Torment",
    "Vengeance",
    "Victory",
    "Viper",
    "Vortex",
    "Woe",
    "Wrath",
    "Lights",
    "Shimmering",
];
/// Name suffixes (`special3`, 1..=18), indexed by `special3 - 1`
/// (docs/game-rules.md#item-specials).
pub static SPECIAL3_NAMES: [&str; 18] = [
    "Bane",
    "Root",
    "Bite",
    "Song",
    "Roar",
    "Grasp",
    "Instrument",
    "Glow",
    "Bender",
    "Shadow",
    "Whisper",
    "Shout",
    "Growl",
    "Tear",
    "Peak",
    "Form",
    "Sun",
    "Moon",
];

/// Looks up an item by id (1..=101).
pub fn item(id: u8) -> Option<&'static ItemInfo> {
    ITEMS.get(usize::from(id).checked_sub(1)?)
}

/// Display name of an item id, or "Unknown item #id" so views never fail on odd data.
pub fn item_name(id: u8) -> String {
    match item(id) {
        Some(i) => i.name.to_string(),
        None => format!("Unknown item #{id}"),
    }
}

/// Looks up a beast by id (1..=75).
pub fn beast(id: u8) -> Option<BeastInfo> {
    let name = BEAST_NAMES.get(usize::from(id).checked_sub(1)?)?;
    Some(BeastInfo {
        id,
        name,
        tier: rules::beast_tier(id),
        beast_type: rules::beast_type(id),
    })
}

/// Looks up an obstacle by id (1..=75).
pub fn obstacle(id: u8) -> Option<ObstacleInfo> {
    let name = OBSTACLE_NAMES.get(usize::from(id).checked_sub(1)?)?;
    Some(ObstacleInfo {
        id,
        name,
        tier: rules::obstacle_tier(id),
        obstacle_type: rules::obstacle_type(id),
    })
}

/// All 75 beasts in id order.
pub fn beasts() -> impl Iterator<Item = BeastInfo> {
    (1..=75).filter_map(beast)
}

/// All 75 obstacles in id order.
pub fn obstacles() -> impl Iterator<Item = ObstacleInfo> {
    (1..=75).filter_map(obstacle)
}

/// Name of item suffix `special1` (1..=16), e.g. "of Power".
pub fn special1_name(i: u8) -> Option<&'static str> {
    SPECIAL1_NAMES.get(usize::from(i).checked_sub(1)?).copied()
}

/// Name prefix `special2` (1..=69), e.g. "Demon".
pub fn special2_name(i: u8) -> Option<&'static str> {
    SPECIAL2_NAMES.get(usize::from(i).checked_sub(1)?).copied()
}

/// Name suffix `special3` (1..=18), e.g. "Grasp".
pub fn special3_name(i: u8) -> Option<&'static str> {
    SPECIAL3_NAMES.get(usize::from(i).checked_sub(1)?).copied()
}

#[cfg(test)]
mod tests;
