//! The size rule (docs/layout.md#size-rule): no Rust file of the project is over 600 lines, so each
//! file keeps to one job; the only exemptions are files that are mostly data tables, listed below.

use std::path::{Path, PathBuf};

/// The most lines a Rust file may have.
const MAX_LINES: usize = 600;

/// Files allowed over [`MAX_LINES`], relative to the root, each with why: only data tables.
const EXEMPT: &[(&str, &str)] = &[(
    "crates/game/src/catalogue/mod.rs",
    // About 1,030 of its 1,340 lines are the tables copied from the game's contracts (ITEMS,
    // BEAST_NAMES, OBSTACLE_NAMES, the discovery loot lists, the special-name lists); the rest are
    // the tier, type and slot enums and the lookups by id over those tables.
    "the game's item, beast, obstacle and special-name tables",
)];

/// Where the rule applies: every `.rs` file under `src/`, `crates/*/src/`, `crates/*/tests/`,
/// `tests/` and `benches/`, and each `crates/*/build.rs`.
fn rust_files(root: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for dir in ["src", "tests", "benches"] {
        walk(&root.join(dir), &mut files);
    }
    if let Ok(crates) = std::fs::read_dir(root.join("crates")) {
        for krate in crates {
            let krate = krate.unwrap().path();
            walk(&krate.join("src"), &mut files);
            walk(&krate.join("tests"), &mut files);
            let build = krate.join("build.rs");
            if build.is_file() {
                files.push(build);
            }
        }
    }
    files.sort();
    files
}

/// Adds every `.rs` file under `dir` (at any depth) to `files`; a missing `dir` adds none.
fn walk(dir: &Path, files: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries {
        let path = entry.unwrap().path();
        if path.is_dir() {
            walk(&path, files);
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
}

/// The path of `file` relative to `root`, with `/` between its parts.
fn relative(root: &Path, file: &Path) -> String {
    let parts: Vec<String> = file
        .strip_prefix(root)
        .unwrap()
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    parts.join("/")
}

/// Every file the rule covers under `root` that is over `max` lines and not in `exempt`, with its
/// line count, in path order.
fn over_long(root: &Path, max: usize, exempt: &[&str]) -> Vec<(String, usize)> {
    rust_files(root)
        .iter()
        .map(|f| {
            let text = std::fs::read_to_string(f).unwrap();
            (relative(root, f), text.lines().count())
        })
        .filter(|(path, lines)| *lines > max && !exempt.contains(&path.as_str()))
        .collect()
}

#[test]
fn no_rust_file_is_over_600_lines_but_the_data_tables() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for (path, why) in EXEMPT {
        assert!(
            root.join(path).is_file(),
            "exempt file {path} ({why}) is gone"
        );
    }
    let exempt: Vec<&str> = EXEMPT.iter().map(|(path, _)| *path).collect();
    let covered: Vec<String> = rust_files(root).iter().map(|f| relative(root, f)).collect();
    for expected in [
        "src/lib.rs",
        "crates/game/src/lib.rs",
        "crates/chain/build.rs",
        "tests/it/file_sizes.rs",
        "tests/it/torii_support/mod.rs",
        "crates/indexer/tests/it/main.rs",
        "crates/indexer/tests/it/torii_client.rs",
        "benches/writes/main.rs",
    ] {
        assert!(
            covered.iter().any(|c| c == expected),
            "{expected} not checked"
        );
    }
    let long = over_long(root, MAX_LINES, &exempt);
    let named: Vec<String> = long
        .iter()
        .map(|(path, lines)| format!("{path} ({lines} lines)"))
        .collect();
    assert!(
        long.is_empty(),
        "over {MAX_LINES} lines, split by concern: {}",
        named.join(", ")
    );
}

#[test]
fn a_planted_long_file_is_named_wherever_the_rule_applies() {
    let root = tempfile::tempdir().unwrap();
    let plant = |path: &str, lines: usize| {
        let file = root.path().join(path);
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(file, "// line\n".repeat(lines)).unwrap();
    };
    plant("src/lib.rs", MAX_LINES);
    plant("src/deep/long.rs", MAX_LINES + 1);
    plant("crates/game/src/tables.rs", 900);
    plant("crates/game/src/rules.rs", 700);
    plant("crates/chain/build.rs", MAX_LINES + 1);
    plant("crates/chain/notes.rs", 900);
    plant("crates/indexer/tests/it/torii.rs", 640);
    plant("crates/indexer/tests/it/fixtures/data.json", 5000);
    plant("tests/it/torii.rs", 1046);
    plant("tests/it/torii_support/mod.rs", 631);
    plant("tests/fixtures/data.json", 5000);
    plant("benches/writes.rs", 925);
    plant("docs/long.rs", 900);
    assert_eq!(
        over_long(root.path(), MAX_LINES, &["crates/game/src/tables.rs"]),
        [
            ("benches/writes.rs".to_string(), 925),
            ("crates/chain/build.rs".to_string(), MAX_LINES + 1),
            ("crates/game/src/rules.rs".to_string(), 700),
            ("crates/indexer/tests/it/torii.rs".to_string(), 640),
            ("src/deep/long.rs".to_string(), MAX_LINES + 1),
            ("tests/it/torii.rs".to_string(), 1046),
            ("tests/it/torii_support/mod.rs".to_string(), 631),
        ]
    );
}
