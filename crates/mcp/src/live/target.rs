//! What can be followed, and the resource URIs that name it.

use game::AdventurerId;

/// The leaderboard's resource.
pub const LEADERBOARD_URI: &str = "ls://leaderboard";

/// A followed thing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Target {
    /// An adventurer's state (`ls://adventurer/{id}`).
    Adventurer(AdventurerId),
    /// The ranked games (`ls://leaderboard`).
    Leaderboard,
}

impl Target {
    /// The target a resource URI names, or why it names none.
    pub fn from_uri(uri: &str) -> Result<Self, String> {
        if uri == LEADERBOARD_URI {
            return Ok(Target::Leaderboard);
        }
        match uri.strip_prefix("ls://adventurer/") {
            Some(id) => AdventurerId::parse(id)
                .map(Target::Adventurer)
                .map_err(|_| {
                    format!("{uri}: the adventurer id must be a decimal or 0x-hex number")
                }),
            None => Err(format!(
                "{uri} cannot be followed: ls://adventurer/{{id}} or {LEADERBOARD_URI}"
            )),
        }
    }

    /// Its URI, the id in decimal.
    pub fn uri(&self) -> String {
        match self {
            Target::Adventurer(id) => format!("ls://adventurer/{id}"),
            Target::Leaderboard => LEADERBOARD_URI.to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris_name_an_adventurer_or_the_leaderboard() {
        let id = AdventurerId::from(42);
        assert_eq!(
            Target::from_uri("ls://adventurer/42"),
            Ok(Target::Adventurer(id))
        );
        assert_eq!(
            Target::from_uri("ls://adventurer/0x2a"),
            Ok(Target::Adventurer(id))
        );
        assert_eq!(Target::Adventurer(id).uri(), "ls://adventurer/42");
        assert_eq!(Target::from_uri(LEADERBOARD_URI), Ok(Target::Leaderboard));
        for bad in [
            "ls://adventurer/",
            "ls://adventurer/x",
            "ls://rules",
            "http://x",
        ] {
            assert!(Target::from_uri(bad).is_err(), "{bad}");
        }
    }
}
