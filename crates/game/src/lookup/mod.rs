//! Catalogue search: items, beasts, obstacles and special names by id, by
//! case-insensitive name, by `*` wildcard, or by a slug with specials ("demon-grasp-dragon",
//! "katana-of-power"); filters by kind, tier, type and slot; an exact limit; and up to five
//! suggestions on a miss. Every entry carries the combat facts an agent needs to use it.

use std::sync::LazyLock;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::boosts;
use super::catalogue::{
    self, ItemType, SPECIAL1_NAMES, SPECIAL2_NAMES, SPECIAL3_NAMES, Slot, Tier, fold_name,
    wildcard_match,
};
use super::combat::{Effectiveness, effectiveness};
use super::model::{SpecialPowers, Stats};
use super::rules;

/// Maximum number of suggestions on a miss.
pub const MAX_SUGGESTIONS: usize = 5;

/// What kind of catalogue entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// One of the 101 items.
    Item,
    /// One of the 75 beasts.
    Beast,
    /// One of the 75 obstacles.
    Obstacle,
    /// A special name: item suffix ("of Power"), name prefix ("Demon") or name suffix ("Grasp").
    Special,
}

/// Which list a special name belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SpecialGroup {
    /// Item suffix, `special1` 1..=16 ("of Power"): gives stats from greatness 15.
    Suffix,
    /// Name prefix, `special2` 1..=69 ("Demon"): ×8 damage when weapon and target share it.
    Prefix,
    /// Name suffix, `special3` 1..=18 ("Grasp"): ×2 damage when weapon and target share it.
    NameSuffix,
}

/// An item with its combat facts.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ItemEntry {
    /// Item id.
    pub id: u8,
    /// Name (with specials when the query named them).
    pub name: String,
    /// Tier (T1 strongest).
    pub tier: Tier,
    /// Combat type.
    #[serde(rename = "type")]
    pub item_type: ItemType,
    /// Equipment slot.
    pub slot: Slot,
    /// Market price before charisma.
    pub base_price: u16,
    /// One of the four starting weapons.
    pub starting_weapon: bool,
    /// Weapons: the armor (and beast) type this deals +50% against.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub strong_against: Option<ItemType>,
    /// Weapons: the armor (and beast) type this deals −50% against.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub weak_against: Option<ItemType>,
    /// Armor: the attack type (beasts, obstacles) it resists best (attacker −50%).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resists: Option<ItemType>,
    /// Armor: the attack type it is weakest against (attacker +50%).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vulnerable_to: Option<ItemType>,
    /// Jewelry: what it does.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub effect: Option<String>,
    /// Specials named in the query.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub specials: Option<SpecialPowers>,
}

/// A beast with its combat facts.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct BeastEntry {
    /// Beast id.
    pub id: u8,
    /// Name (with specials when the query named them).
    pub name: String,
    /// Tier (T1 strongest: attack and armor are level × 5 … × 1).
    pub tier: Tier,
    /// Combat type of both its attack and its armor.
    #[serde(rename = "type")]
    pub beast_type: ItemType,
    /// Weapon type that deals +50% to it.
    pub weak_to: ItemType,
    /// Weapon type that deals −50% to it.
    pub resists: ItemType,
    /// Armor type its attacks deal −50% to.
    pub best_armor: ItemType,
    /// Armor type its attacks deal +50% to.
    pub worst_armor: ItemType,
    /// Specials named in the query.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub specials: Option<SpecialPowers>,
}

/// An obstacle with its combat facts.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ObstacleEntry {
    /// Obstacle id.
    pub id: u8,
    /// Name.
    pub name: String,
    /// Tier (T1 strongest).
    pub tier: Tier,
    /// Combat type of its damage.
    #[serde(rename = "type")]
    pub obstacle_type: ItemType,
    /// Armor type its damage is −50% against.
    pub best_armor: ItemType,
    /// Armor type its damage is +50% against.
    pub worst_armor: ItemType,
}

/// A special name.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct SpecialEntry {
    /// Which list.
    pub group: SpecialGroup,
    /// Index in its list (the `special1`/`special2`/`special3` value).
    pub index: u8,
    /// The name.
    pub name: String,
    /// Suffixes: stats added while equipped (greatness 15+).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub equipped_boost: Option<Stats>,
    /// Suffixes: stats added while in the bag (greatness 15+).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bag_boost: Option<Stats>,
}

/// One search result, tagged by `kind`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Entry {
    /// An item.
    Item(ItemEntry),
    /// A beast.
    Beast(BeastEntry),
    /// An obstacle.
    Obstacle(ObstacleEntry),
    /// A special name.
    Special(SpecialEntry),
}

impl Entry {
    fn kind(&self) -> Kind {
        match self {
            Entry::Item(_) => Kind::Item,
            Entry::Beast(_) => Kind::Beast,
            Entry::Obstacle(_) => Kind::Obstacle,
            Entry::Special(_) => Kind::Special,
        }
    }
}

/// How the query was matched.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum MatchedBy {
    /// No query: everything the filters allow.
    Filters,
    /// A numeric id.
    Id,
    /// An exact name (case, spaces, hyphens, underscores and apostrophes ignored).
    Name,
    /// A `*` wildcard pattern.
    Wildcard,
    /// A slug or full name with specials ("demon-grasp-dragon", "katana-of-power").
    Specials,
    /// Nothing matched.
    None,
}

/// A search.
#[derive(Clone, Debug, Default)]
pub struct Query {
    /// Id, name, pattern or slug; `None` lists what the filters allow.
    pub text: Option<String>,
    /// Only this kind.
    pub kind: Option<Kind>,
    /// Only this tier (items, beasts, obstacles).
    pub tier: Option<Tier>,
    /// Only this combat type (items, beasts, obstacles).
    pub item_type: Option<ItemType>,
    /// Only this slot (items).
    pub slot: Option<Slot>,
    /// At most this many results.
    pub limit: usize,
}

/// The results of a search.
#[derive(Clone, Debug, PartialEq)]
pub struct Found {
    /// How the query matched.
    pub matched_by: MatchedBy,
    /// Number of matches before the limit.
    pub total: usize,
    /// The first `limit` matches.
    pub results: Vec<Entry>,
    /// Close names when nothing matched (at most five).
    pub suggestions: Vec<String>,
}

const COMBAT_TYPES: [ItemType; 3] = [
    ItemType::MagicOrCloth,
    ItemType::BladeOrHide,
    ItemType::BludgeonOrMetal,
];

/// The armor type a weapon type is `e` against.
fn target_where(weapon: ItemType, e: Effectiveness) -> Option<ItemType> {
    COMBAT_TYPES
        .into_iter()
        .find(|&a| effectiveness(weapon, a) == e)
}

/// The weapon type that is `e` against an armor type.
fn attacker_where(armor: ItemType, e: Effectiveness) -> Option<ItemType> {
    COMBAT_TYPES
        .into_iter()
        .find(|&w| effectiveness(w, armor) == e)
}

fn jewelry_effect(id: u8) -> Option<String> {
    let luck = "adds its greatness to luck (critical-hit chance), even from the bag";
    let text = match id {
        1 => format!("Protects Hide armor: +3% × greatness of its armor value; {luck}"),
        2 => format!("Protects Metal armor: +3% × greatness of its armor value; {luck}"),
        3 => format!("Protects Cloth armor: +3% × greatness of its armor value; {luck}"),
        4 => format!("Counts twice for luck while equipped; {luck}"),
        5 => format!("No other effect; {luck}"),
        6 => format!("+3% × greatness of your name-match damage bonus; {luck}"),
        7 => format!("+3% × greatness of your critical-hit bonus damage; {luck}"),
        8 => format!("+3% × greatness of the gold from beasts; {luck}"),
        _ => return None,
    };
    Some(text)
}

fn item_entry(id: u8, specials: Option<SpecialPowers>) -> Option<ItemEntry> {
    let i = catalogue::item(id)?;
    let is_weapon = i.slot == Slot::Weapon;
    let is_armor = !is_weapon && !matches!(i.slot, Slot::Neck | Slot::Ring);
    Some(ItemEntry {
        id,
        name: specials.map_or_else(|| i.name.to_string(), |s| s.full_name(i.name)),
        tier: i.tier,
        item_type: i.item_type,
        slot: i.slot,
        base_price: rules::tier_price(i.tier),
        starting_weapon: rules::STARTING_WEAPONS.contains(&id),
        strong_against: is_weapon
            .then(|| target_where(i.item_type, Effectiveness::Strong))
            .flatten(),
        weak_against: is_weapon
            .then(|| target_where(i.item_type, Effectiveness::Weak))
            .flatten(),
        resists: is_armor
            .then(|| attacker_where(i.item_type, Effectiveness::Weak))
            .flatten(),
        vulnerable_to: is_armor
            .then(|| attacker_where(i.item_type, Effectiveness::Strong))
            .flatten(),
        effect: jewelry_effect(id),
        specials,
    })
}

fn beast_entry(id: u8, specials: Option<SpecialPowers>) -> Option<BeastEntry> {
    let b = catalogue::beast(id)?;
    let t = b.beast_type;
    Some(BeastEntry {
        id,
        name: specials.map_or_else(|| b.name.to_string(), |s| s.full_name(b.name)),
        tier: b.tier,
        beast_type: t,
        weak_to: attacker_where(t, Effectiveness::Strong).unwrap_or_default(),
        resists: attacker_where(t, Effectiveness::Weak).unwrap_or_default(),
        best_armor: target_where(t, Effectiveness::Weak).unwrap_or_default(),
        worst_armor: target_where(t, Effectiveness::Strong).unwrap_or_default(),
        specials,
    })
}

fn obstacle_entry(id: u8) -> Option<ObstacleEntry> {
    let o = catalogue::obstacle(id)?;
    let t = o.obstacle_type;
    Some(ObstacleEntry {
        id,
        name: o.name.to_string(),
        tier: o.tier,
        obstacle_type: t,
        best_armor: target_where(t, Effectiveness::Weak).unwrap_or_default(),
        worst_armor: target_where(t, Effectiveness::Strong).unwrap_or_default(),
    })
}

fn special_entry(group: SpecialGroup, index: u8) -> Option<SpecialEntry> {
    let name = match group {
        SpecialGroup::Suffix => catalogue::special1_name(index),
        SpecialGroup::Prefix => catalogue::special2_name(index),
        SpecialGroup::NameSuffix => catalogue::special3_name(index),
    }?;
    let suffix = group == SpecialGroup::Suffix;
    Some(SpecialEntry {
        group,
        index,
        name: name.to_string(),
        equipped_boost: suffix.then(|| boosts::suffix_boost(index, true)),
        bag_boost: suffix.then(|| boosts::suffix_boost(index, false)),
    })
}

/// Every entry with its folded name, built once.
struct Index {
    entries: Vec<(String, &'static str, Entry)>,
}

static INDEX: LazyLock<Index> = LazyLock::new(|| {
    let mut entries = Vec::with_capacity(101 + 75 + 75 + 103);
    for i in catalogue::ITEMS.iter() {
        if let Some(e) = item_entry(i.id, None) {
            entries.push((fold_name(i.name), i.name, Entry::Item(e)));
        }
    }
    for b in catalogue::beasts() {
        if let Some(e) = beast_entry(b.id, None) {
            entries.push((fold_name(b.name), b.name, Entry::Beast(e)));
        }
    }
    for o in catalogue::obstacles() {
        if let Some(e) = obstacle_entry(o.id) {
            entries.push((fold_name(o.name), o.name, Entry::Obstacle(e)));
        }
    }
    let groups = [
        (SpecialGroup::Suffix, &SPECIAL1_NAMES[..]),
        (SpecialGroup::Prefix, &SPECIAL2_NAMES[..]),
        (SpecialGroup::NameSuffix, &SPECIAL3_NAMES[..]),
    ];
    for (group, names) in groups {
        for (i, name) in names.iter().enumerate() {
            if let Some(e) = special_entry(group, i as u8 + 1) {
                entries.push((fold_name(name), name, Entry::Special(e)));
            }
        }
    }
    Index { entries }
});

fn folded(names: &'static [&'static str]) -> Vec<(u8, String)> {
    names
        .iter()
        .enumerate()
        .map(|(i, n)| (i as u8 + 1, fold_name(n)))
        .collect()
}

static PREFIXES: LazyLock<Vec<(u8, String)>> = LazyLock::new(|| folded(&SPECIAL2_NAMES));
static NAME_SUFFIXES: LazyLock<Vec<(u8, String)>> = LazyLock::new(|| folded(&SPECIAL3_NAMES));
static SUFFIXES: LazyLock<Vec<(u8, String)>> = LazyLock::new(|| folded(&SPECIAL1_NAMES));

/// Strips an optional special from the front (or back) of `s`: the empty option first.
fn strip_options<'a>(
    s: &'a str,
    list: &'a [(u8, String)],
    front: bool,
) -> impl Iterator<Item = (u8, &'a str)> + 'a {
    std::iter::once((0u8, s)).chain(list.iter().filter_map(move |(i, name)| {
        let rest = if front {
            s.strip_prefix(name.as_str())
        } else {
            s.strip_suffix(name.as_str())
        }?;
        (!rest.is_empty()).then_some((*i, rest))
    }))
}

/// Parses "[prefix] [name suffix] base [of suffix]" into items or beasts with specials.
fn parse_with_specials(q: &str) -> Vec<Entry> {
    let mut out = Vec::new();
    for (p2, rest) in strip_options(q, &PREFIXES, true) {
        for (p3, rest) in strip_options(rest, &NAME_SUFFIXES, true) {
            for (p1, base) in strip_options(rest, &SUFFIXES, false) {
                if p1 == 0 && p2 == 0 && p3 == 0 {
                    continue;
                }
                let specials = SpecialPowers {
                    special1: p1,
                    special2: p2,
                    special3: p3,
                };
                for (key, _, entry) in &INDEX.entries {
                    if key != base {
                        continue;
                    }
                    match entry {
                        Entry::Item(i) => {
                            out.extend(item_entry(i.id, Some(specials)).map(Entry::Item))
                        }
                        Entry::Beast(b) if p1 == 0 => {
                            out.extend(beast_entry(b.id, Some(specials)).map(Entry::Beast))
                        }
                        _ => {}
                    }
                }
            }
        }
    }
    out
}

fn passes(entry: &Entry, q: &Query) -> bool {
    if q.kind.is_some_and(|k| k != entry.kind()) {
        return false;
    }
    let (tier, ty, slot) = match entry {
        Entry::Item(i) => (Some(i.tier), Some(i.item_type), Some(i.slot)),
        Entry::Beast(b) => (Some(b.tier), Some(b.beast_type), None),
        Entry::Obstacle(o) => (Some(o.tier), Some(o.obstacle_type), None),
        Entry::Special(_) => (None, None, None),
    };
    q.tier.is_none_or(|t| tier == Some(t))
        && q.item_type.is_none_or(|t| ty == Some(t))
        && q.slot.is_none_or(|s| slot == Some(s))
}

/// Up to five names closest to `text` among the entries the query's filters allow.
fn suggestions(text: &str, q: &Query) -> Vec<String> {
    let allowed = INDEX
        .entries
        .iter()
        .filter(|(_, _, e)| passes(e, q))
        .map(|(folded, name, _)| (folded.as_str(), *name));
    catalogue::closest_names(text, allowed, MAX_SUGGESTIONS)
        .into_iter()
        .map(str::to_string)
        .collect()
}

/// Runs a search.
pub fn search(q: &Query) -> Found {
    let text = q.text.as_deref().map(str::trim).filter(|t| !t.is_empty());
    let (matched_by, hits): (MatchedBy, Vec<Entry>) = match text {
        None => (
            MatchedBy::Filters,
            INDEX.entries.iter().map(|(_, _, e)| e.clone()).collect(),
        ),
        Some(t) => {
            if let Ok(id) = t.parse::<u8>() {
                let by_id = [
                    item_entry(id, None).map(Entry::Item),
                    beast_entry(id, None).map(Entry::Beast),
                    obstacle_entry(id).map(Entry::Obstacle),
                ];
                (MatchedBy::Id, by_id.into_iter().flatten().collect())
            } else if t.contains('*') {
                let parts: Vec<String> = t.split('*').map(fold_name).collect();
                let hits = INDEX
                    .entries
                    .iter()
                    .filter(|(key, _, _)| wildcard_match(&parts, key))
                    .map(|(_, _, e)| e.clone())
                    .collect();
                (MatchedBy::Wildcard, hits)
            } else {
                let key = fold_name(t);
                let exact: Vec<Entry> = INDEX
                    .entries
                    .iter()
                    .filter(|(k, _, _)| *k == key)
                    .map(|(_, _, e)| e.clone())
                    .collect();
                if exact.iter().any(|e| passes(e, q)) {
                    (MatchedBy::Name, exact)
                } else {
                    (MatchedBy::Specials, parse_with_specials(&key))
                }
            }
        }
    };
    let filtered: Vec<Entry> = hits.into_iter().filter(|e| passes(e, q)).collect();
    let total = filtered.len();
    let suggestions = match (total, text) {
        (0, Some(t)) => suggestions(t, q),
        _ => Vec::new(),
    };
    Found {
        matched_by: if total == 0 {
            MatchedBy::None
        } else {
            matched_by
        },
        total,
        results: filtered.into_iter().take(q.limit).collect(),
        suggestions,
    }
}

/// Parses a type filter: "magic", "cloth", "Magic_or_Cloth", "blade", "hide", "bludgeon",
/// "metal", "necklace", "ring" (case and separators ignored).
pub fn parse_type(s: &str) -> Option<ItemType> {
    match fold_name(s).as_str() {
        "magic" | "cloth" | "magicorcloth" => Some(ItemType::MagicOrCloth),
        "blade" | "hide" | "bladeorhide" | "hunter" => Some(ItemType::BladeOrHide),
        "bludgeon" | "metal" | "bludgeonormetal" | "brute" => Some(ItemType::BludgeonOrMetal),
        "necklace" => Some(ItemType::Necklace),
        "ring" => Some(ItemType::Ring),
        _ => None,
    }
}

/// Parses a slot filter: weapon, chest, head, waist, foot, hand, neck, ring.
pub fn parse_slot(s: &str) -> Option<Slot> {
    Slot::ALL
        .into_iter()
        .find(|slot| fold_name(&format!("{slot:?}")) == fold_name(s))
}

/// Parses a tier filter: 1–5 or "T1"–"T5".
pub fn parse_tier(s: &str) -> Option<Tier> {
    let f = fold_name(s);
    let digits = f.strip_prefix('t').unwrap_or(&f);
    match digits.parse::<u8>() {
        Ok(i @ 1..=5) => Tier::from_index(i),
        _ => None,
    }
}

#[cfg(test)]
mod tests;
