//! A crate's source as the layer tests read it: its files by module path, each without comments
//! and without unit tests (a `tests.rs` or `*_tests.rs` file, a file declared under
//! `#[cfg(test)] mod name;`, and an inline `#[cfg(test)] mod name { … }` with what follows it).

use std::path::Path;

/// One file of a crate: its module path (`["client", "reader"]`; the root is `[]`), its path
/// from the crate's `src`, and its code.
pub(crate) struct SourceFile {
    pub(crate) module: Vec<String>,
    pub(crate) rel: String,
    pub(crate) code: String,
}

/// The files of the crate whose sources are in `src` that are not unit tests.
pub(crate) fn non_test_files(src: &Path) -> Vec<SourceFile> {
    let mut out = Vec::new();
    let mut stack = vec![src.to_path_buf()];
    let mut test_modules: Vec<Vec<String>> = Vec::new();
    let mut all = Vec::new();
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for path in entries.flatten().map(|e| e.path()) {
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                all.push(path);
            }
        }
    }
    all.sort();
    for path in all {
        let rel = path
            .strip_prefix(src)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        let mut module: Vec<String> = rel
            .trim_end_matches(".rs")
            .split('/')
            .map(String::from)
            .collect();
        if matches!(
            module.last().map(String::as_str),
            Some("mod" | "lib" | "main")
        ) {
            module.pop();
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let (code, declared) = code(&text);
        test_modules.extend(declared.into_iter().map(|name| {
            let mut m = module.clone();
            m.push(name);
            m
        }));
        let name = rel.rsplit('/').next().unwrap_or_default();
        if name == "tests.rs" || name.ends_with("_tests.rs") {
            continue;
        }
        out.push(SourceFile { module, rel, code });
    }
    out.retain(|f| !test_modules.iter().any(|t| f.module.starts_with(t)));
    out
}

/// A file's code without comments and unit tests, and the names of the test modules it declares
/// in files of their own.
fn code(text: &str) -> (String, Vec<String>) {
    let lines: Vec<&str> = text
        .lines()
        .map(|l| l.split("//").next().unwrap_or_default())
        .collect();
    let mut kept = Vec::new();
    let mut declared = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let next = lines.get(i + 1).map(|l| l.trim()).unwrap_or_default();
        if lines[i].trim() == "#[cfg(test)]" && next.starts_with("mod ") {
            match next.strip_prefix("mod ").and_then(|m| m.strip_suffix(';')) {
                Some(name) => declared.push(name.trim().to_string()),
                None => break,
            }
            // Kept as blank lines, so the lines after keep their numbers.
            kept.extend(["", ""]);
            i += 2;
            continue;
        }
        kept.push(lines[i]);
        i += 1;
    }
    (kept.join("\n"), declared)
}

/// Writes `text` at `rel` below `root`, making its folders: a planted file for a test of the
/// tests.
pub(crate) fn plant(root: &Path, rel: &str, text: &str) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}
