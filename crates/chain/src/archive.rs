//! A deployment its makers archived: its games stay readable, and entering a new one (a mint, a
//! dungeon purchase) is refused before signing unless the profile allows it (docs/mainnet.md).

/// What the profile says about an archived deployment (`[deployment] archived = "YYYY-MM-DD"`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Archive {
    /// The deployment in words: "the Dojo world ls_0_0_9".
    pub what: String,
    /// When it was archived (`YYYY-MM-DD`, as the profile says).
    pub date: String,
    /// The public record of the archival, if the profile names one.
    pub source: Option<String>,
    /// The profile that plays the live game instead, if any.
    pub successor: Option<String>,
    /// `deployment.allow_archived_entry`: new games may be entered anyway.
    pub allow_entry: bool,
}

/// A new game refused on an archived deployment; nothing was signed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "{} was archived on {}{}; a new game there (entry \"{entry}\") was refused before anything \
     was signed: {}",
    archive.what,
    archive.date,
    archive.source.as_deref().map(|s| format!(" ({s})")).unwrap_or_default(),
    archive.instead()
)]
pub struct ArchivedEntry {
    /// The entry asked for (`mint`, `ticket`, `golden_pass`, `free`).
    pub entry: &'static str,
    /// The archive that refused it.
    pub archive: Box<Archive>,
}

impl Archive {
    /// Refuses entering a new game by `entry` (`mint`, `ticket`, …) unless allowed.
    pub fn check_entry(&self, entry: &'static str) -> Result<(), ArchivedEntry> {
        if self.allow_entry {
            return Ok(());
        }
        Err(ArchivedEntry {
            entry,
            archive: Box::new(self.clone()),
        })
    }

    /// What to do instead: the live profile, or the setting that allows entering anyway.
    fn instead(&self) -> String {
        let allow = "deployment.allow_archived_entry = true (LS_ALLOW_ARCHIVED_ENTRY=1) enters \
                     anyway; reading its games still works";
        match &self.successor {
            Some(p) => format!("play the live game with --profile {p}; {allow}"),
            None => allow.to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn archive() -> Archive {
        Archive {
            what: "the Dojo world ls_0_0_9".into(),
            date: "2026-05-11".into(),
            source: Some("Provable-Games/docs contracts.mdx @a9a07a8".into()),
            successor: Some("mainnet".into()),
            allow_entry: false,
        }
    }

    #[test]
    fn entry_is_refused_with_the_date_the_source_and_the_live_profile() {
        let e = archive().check_entry("ticket").unwrap_err();
        let text = e.to_string();
        assert!(
            text.starts_with(
                "the Dojo world ls_0_0_9 was archived on 2026-05-11 (Provable-Games/docs \
                 contracts.mdx @a9a07a8); a new game there (entry \"ticket\") was refused"
            ),
            "{text}"
        );
        assert!(
            text.contains("play the live game with --profile mainnet"),
            "{text}"
        );
        assert!(text.contains("LS_ALLOW_ARCHIVED_ENTRY=1"), "{text}");
    }

    #[test]
    fn allowing_entry_lets_it_through_and_no_successor_names_none() {
        let mut a = archive();
        a.allow_entry = true;
        assert_eq!(a.check_entry("mint"), Ok(()));
        a.allow_entry = false;
        a.successor = None;
        let text = a.check_entry("mint").unwrap_err().to_string();
        assert!(!text.contains("--profile"), "{text}");
    }
}
