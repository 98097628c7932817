//! Nothing outside the generation seam names a generation's variant: every decision a generation
//! makes goes through `chain::generation` (`Deployment::game`), so a third generation is one folder
//! there, its profile key and its practice deployer, and the compiler walks it through the rest.

use std::path::Path;

use super::source::{non_test_files, plant};

/// Where a generation may be named, each with why.
const SEAM: &[(&str, &str)] = &[
    (
        "crates/chain/src/generation/",
        "the seam: one folder per generation",
    ),
    (
        "crates/cli/src/config/",
        "the profile keys that name a deployment's generation",
    ),
    (
        "crates/cli/src/devnet.rs",
        "the practice deployers, one per generation",
    ),
];

/// The variants of a generation, as code names them.
const VARIANTS: &[&str] = &["Deployment::V", "Generation::V"];

/// `file:line: text` for every line of `root`'s crates outside the seam that names a variant.
fn named_outside_the_seam(root: &Path) -> Vec<String> {
    let mut files = Vec::new();
    for dir in std::fs::read_dir(root.join("crates")).unwrap().flatten() {
        let crate_dir = dir
            .path()
            .strip_prefix(root)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        files.extend(
            non_test_files(&dir.path().join("src"))
                .into_iter()
                .map(|f| (format!("{crate_dir}/src/{}", f.rel), f.code)),
        );
    }
    files.extend(
        non_test_files(&root.join("src"))
            .into_iter()
            .map(|f| (format!("src/{}", f.rel), f.code)),
    );
    let mut found = Vec::new();
    for (rel, code) in files {
        let rel = rel.replace('\\', "/");
        if SEAM.iter().any(|(p, _)| rel.starts_with(p)) {
            continue;
        }
        for (i, line) in code.lines().enumerate() {
            let named = VARIANTS.iter().any(|v| {
                line.match_indices(v).any(|(at, _)| {
                    // A whole name: `Deployment::V1`, not `DeployGeneration::V1`.
                    !line[..at]
                        .chars()
                        .next_back()
                        .is_some_and(|c| c.is_alphanumeric() || c == '_')
                })
            });
            if named {
                found.push(format!("{rel}:{}: {}", i + 1, line.trim()));
            }
        }
    }
    found
}

#[test]
fn no_generation_is_named_outside_the_seam() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let found = named_outside_the_seam(root);
    assert!(
        found.is_empty(),
        "a generation is decided outside chain::generation (add a GameGeneration method \
         instead):\n{}",
        found.join("\n")
    );
}

#[test]
fn a_generation_named_outside_the_seam_is_found() {
    let root = tempfile::tempdir().unwrap();
    let write = |rel: &str, text: &str| plant(root.path(), rel, text);
    write(
        "crates/mcp/src/finish.rs",
        "fn f(d: &Deployment) -> bool {\n    matches!(d, chain::Deployment::V2(_))\n}\n",
    );
    write(
        "crates/chain/src/generation/v2/mod.rs",
        "const G: Generation = Generation::V2;\n",
    );
    write(
        "crates/chain/src/reader.rs",
        "fn g() {}\n#[cfg(test)]\nmod tests {\n    const G: Generation = Generation::V1;\n}\n",
    );
    write("crates/cli/src/args.rs", "let g = DeployGeneration::V1;\n");
    write("src/lib.rs", "// Generation::V1 in a comment\n");
    let found = named_outside_the_seam(root.path());
    assert_eq!(
        found,
        vec!["crates/mcp/src/finish.rs:2: matches!(d, chain::Deployment::V2(_))"]
    );
}
