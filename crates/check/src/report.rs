//! The report of `loot-survivor-mcp check`: sections of named checks, each ok, a mismatch,
//! unreachable or skipped, printed as a table or JSON; its exit code says the worst of them.

use serde::Serialize;

/// How one check came out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// What the server expects is what it found.
    Ok,
    /// The chain or service differs from what the server expects.
    Mismatch,
    /// The chain or service did not answer.
    Unreachable,
    /// Not checked (nothing to compare, or not configured).
    Skipped,
}

impl Status {
    /// The word the table prints.
    pub fn word(self) -> &'static str {
        match self {
            Status::Ok => "ok",
            Status::Mismatch => "mismatch",
            Status::Unreachable => "unreachable",
            Status::Skipped => "skipped",
        }
    }
}

/// One difference between a deployed entrypoint and this server's bindings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Difference {
    /// The contract's role in the deployment (`game_core`, `game_systems`, …).
    pub contract: String,
    /// Its address.
    pub address: String,
    /// The entrypoint.
    pub entrypoint: String,
    /// Whether the server signs calls to it (a write) rather than reading it.
    pub write: bool,
    /// The signature the bindings use.
    pub ours: String,
    /// The deployed class's signature; `None`: the class has no such entrypoint.
    pub deployed: Option<String>,
}

impl Difference {
    /// `attack: ours attack(…: bool), deployed attack(…: u8)`.
    pub fn describe(&self) -> String {
        format!(
            "{}: ours {}, deployed {}",
            self.entrypoint,
            self.ours,
            self.deployed
                .as_deref()
                .unwrap_or("none (no such entrypoint)")
        )
    }
}

/// One named check.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Check {
    /// What was checked (`game_core 0x23f8…`, `health`).
    pub name: String,
    /// How it came out.
    pub status: Status,
    /// What was found, in a line.
    pub detail: String,
    /// The entrypoints that differ, for an ABI check.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub differences: Vec<Difference>,
}

impl Check {
    /// A check without differences.
    pub fn new(name: impl Into<String>, status: Status, detail: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            status,
            detail: detail.into(),
            differences: Vec::new(),
        }
    }
}

/// A group of checks (`abi`, `generation`, `indexer`, …).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Section {
    /// The section's name.
    pub name: String,
    /// Its checks, in order.
    pub checks: Vec<Check>,
}

/// Every section of one `check` run.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Report {
    /// The profile checked.
    pub profile: String,
    /// Its generation (`v1`, `v2`).
    pub generation: String,
    /// The worst status of any check.
    pub status: Option<Status>,
    /// The sections, in order.
    pub sections: Vec<Section>,
    /// The VRF rule's evidence (v2): every action examined, with the candidates tried.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vrf_rule: Option<crate::vrf_rule::VrfRuleReport>,
}

impl Report {
    /// Appends a section and updates the overall status.
    pub fn push(&mut self, section: Section) {
        self.sections.push(section);
        self.status = Some(self.worst());
    }

    /// The worst status: a mismatch, else unreachable, else ok (skipped checks count as ok).
    pub fn worst(&self) -> Status {
        let all = || self.sections.iter().flat_map(|s| &s.checks);
        if all().any(|c| c.status == Status::Mismatch) {
            Status::Mismatch
        } else if all().any(|c| c.status == Status::Unreachable) {
            Status::Unreachable
        } else {
            Status::Ok
        }
    }

    /// The process exit code: 1 on a mismatch, else 2 when something was unreachable, else 0.
    pub fn exit_code(&self) -> u8 {
        match self.worst() {
            Status::Mismatch => 1,
            Status::Unreachable => 2,
            _ => 0,
        }
    }

    /// One line per check (`section  name  status  detail`), with one indented line per
    /// difference under its check.
    pub fn table(&self) -> String {
        let rows: Vec<(String, &Check)> = self
            .sections
            .iter()
            .flat_map(|s| {
                s.checks
                    .iter()
                    .map(move |c| (format!("{}/{}", s.name, c.name), c))
            })
            .collect();
        let width = rows
            .iter()
            .map(|(n, _)| n.chars().count())
            .max()
            .unwrap_or(0);
        let mut out = format!("{:width$}  {:11}  detail\n", "check", "status");
        for (name, c) in rows {
            out.push_str(&format!(
                "{name:width$}  {:11}  {}\n",
                c.status.word(),
                c.detail
            ));
            for d in &c.differences {
                out.push_str(&format!("{:width$}    - {}\n", "", d.describe()));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn section(statuses: &[Status]) -> Section {
        Section {
            name: "abi".into(),
            checks: statuses
                .iter()
                .enumerate()
                .map(|(i, s)| Check::new(format!("c{i}"), *s, "…"))
                .collect(),
        }
    }

    #[test]
    fn the_exit_code_is_the_worst_status() {
        let code = |s: &[Status]| {
            let mut r = Report::default();
            r.push(section(s));
            r.exit_code()
        };
        assert_eq!(code(&[Status::Ok, Status::Skipped]), 0);
        assert_eq!(code(&[Status::Ok, Status::Unreachable]), 2);
        assert_eq!(code(&[Status::Unreachable, Status::Mismatch]), 1);
    }

    #[test]
    fn the_table_has_a_line_per_check_and_per_difference() {
        let mut r = Report::default();
        let mut s = section(&[Status::Ok, Status::Mismatch]);
        s.checks[1].differences.push(Difference {
            contract: "game_core".into(),
            address: "0x1".into(),
            entrypoint: "attack".into(),
            write: true,
            ours: "attack(a: bool)".into(),
            deployed: Some("attack(a: u8)".into()),
        });
        r.push(s);
        let t = r.table();
        let lines: Vec<&str> = t.lines().collect();
        assert_eq!(lines.len(), 4, "{t}");
        assert!(lines[2].starts_with("abi/c1") && lines[2].contains("mismatch"));
        assert!(lines[3].ends_with("attack: ours attack(a: bool), deployed attack(a: u8)"));
    }
}
