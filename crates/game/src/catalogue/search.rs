//! Finding catalogue entries by name: folded names (case, spaces and punctuation ignored),
//! wildcard patterns, and "did you mean" suggestions within a small edit distance.

use super::*;

/// Folds a name for matching: lowercase ASCII alphanumerics only, so case, spaces, underscores,
/// hyphens and apostrophes don't matter ("Dragon's Crown" = "dragons_crown" = "DragonsCrown").
pub fn fold_name(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// Looks up an item by name with [`fold_name`] folding.
pub fn item_by_name(name: &str) -> Option<&'static ItemInfo> {
    let key = fold_name(name);
    ITEMS.iter().find(|i| fold_name(i.name) == key)
}

/// Resolves an item given either its numeric id ("46") or its name ("short sword").
pub fn resolve_item(s: &str) -> Option<&'static ItemInfo> {
    match s.trim().parse::<u8>() {
        Ok(id) => item(id),
        Err(_) => item_by_name(s),
    }
}

/// Looks up a beast by name with [`fold_name`] folding.
pub fn beast_by_name(name: &str) -> Option<BeastInfo> {
    let key = fold_name(name);
    beasts().find(|b| fold_name(b.name) == key)
}

/// Looks up an obstacle by name with [`fold_name`] folding.
pub fn obstacle_by_name(name: &str) -> Option<ObstacleInfo> {
    let key = fold_name(name);
    obstacles().find(|o| fold_name(o.name) == key)
}

/// Wildcard match on folded names: `*` matches any run of characters, everything else is folded
/// as in [`fold_name`] ("*sword" matches "Long Sword" and "Short Sword").
pub fn name_matches(pattern: &str, name: &str) -> bool {
    let parts: Vec<String> = pattern.split('*').map(fold_name).collect();
    wildcard_match(&parts, &fold_name(name))
}

/// Whether a folded name matches a pattern split at `*` (parts folded): the first part is a
/// prefix, the last a suffix, the others appear in order in between.
pub(crate) fn wildcard_match(parts: &[String], key: &str) -> bool {
    let (first, last) = (&parts[0], &parts[parts.len() - 1]);
    if parts.len() == 1 {
        return key == first;
    }
    if key.len() < first.len() + last.len()
        || !key.starts_with(first.as_str())
        || !key.ends_with(last.as_str())
    {
        return false;
    }
    let mut rest = &key[first.len()..key.len() - last.len()];
    for mid in &parts[1..parts.len() - 1] {
        match rest.find(mid.as_str()) {
            Some(i) => rest = &rest[i + mid.len()..],
            None => return false,
        }
    }
    true
}

/// Items whose name matches `pattern` (see [`name_matches`]), in id order.
pub fn search_items(pattern: &str) -> Vec<&'static ItemInfo> {
    ITEMS
        .iter()
        .filter(|i| name_matches(pattern, i.name))
        .collect()
}

/// Beasts whose name matches `pattern`, in id order.
pub fn search_beasts(pattern: &str) -> Vec<BeastInfo> {
    beasts().filter(|b| name_matches(pattern, b.name)).collect()
}

/// Obstacles whose name matches `pattern`, in id order.
pub fn search_obstacles(pattern: &str) -> Vec<ObstacleInfo> {
    obstacles()
        .filter(|o| name_matches(pattern, o.name))
        .collect()
}

/// Longest folded input that "did you mean" suggestions are computed for: the longest folded
/// catalogue name (24 characters) plus a margin for typos. A longer input is no typo of any name,
/// and the cap keeps a suggestion search to microseconds whatever the input's size.
pub const MAX_FUZZY_CHARS: usize = 32;

/// Levenshtein distance between two folded (ASCII) names when it is at most `max`, else `None`,
/// for "did you mean" suggestions. Names whose lengths differ by more than `max` are skipped at
/// once and a row whose every entry exceeds `max` ends the search, so with inputs bounded by
/// [`MAX_FUZZY_CHARS`] one comparison is a few hundred steps at most.
pub(crate) fn edit_distance_within(a: &str, b: &str, max: usize) -> Option<usize> {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len().abs_diff(b.len()) > max {
        return None;
    }
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for (i, ca) in a.iter().enumerate() {
        cur[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != cb);
            cur[j + 1] = (prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        if cur.iter().all(|&d| d > max) {
            return None;
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    Some(prev[b.len()]).filter(|&d| d <= max)
}

/// The largest edit distance a suggestion may have from a folded input of `len` characters.
fn suggestion_distance(len: usize) -> usize {
    (len / 3).max(2)
}

/// The "did you mean" ranker: up to `limit` of the `(folded, name)` candidates closest to
/// `query`, names containing it (or contained in it) first, then small edit distances; none for
/// an empty input or one too long to be a typo of any name.
pub fn closest_names<F: AsRef<str>, N: Ord>(
    query: &str,
    candidates: impl IntoIterator<Item = (F, N)>,
    limit: usize,
) -> Vec<N> {
    if query.len() > 4 * MAX_FUZZY_CHARS {
        return Vec::new();
    }
    let key = fold_name(query);
    if key.is_empty() || key.len() > MAX_FUZZY_CHARS {
        return Vec::new();
    }
    let max = suggestion_distance(key.len());
    let mut scored: Vec<(usize, N)> = candidates
        .into_iter()
        .filter_map(|(folded, name)| {
            let folded = folded.as_ref();
            if folded.contains(&key) || key.contains(folded) {
                return Some((0, name));
            }
            edit_distance_within(&key, folded, max).map(|d| (d, name))
        })
        .collect();
    scored.sort();
    scored.dedup_by(|a, b| a.1 == b.1);
    scored.into_iter().take(limit).map(|(_, n)| n).collect()
}

/// Up to `limit` names from all catalogues (items, beasts, obstacles) closest to `query`, for
/// "did you mean" hints; substring matches first, then small edit distances.
pub fn suggest(query: &str, limit: usize) -> Vec<&'static str> {
    let names = ITEMS
        .iter()
        .map(|i| i.name)
        .chain(BEAST_NAMES.iter().copied())
        .chain(OBSTACLE_NAMES.iter().copied());
    closest_names(query, names.map(|n| (fold_name(n), n)), limit)
}
