//! The MCP Inspector CLI's launcher for the tests that drive it (`inspector_cli`, `http_inspector`).

use std::path::{Path, PathBuf};
use std::process::Command;

/// The Inspector's launcher, installed on demand; `None` (with a message) without node.
pub fn inspector() -> Option<PathBuf> {
    if Command::new("node").arg("--version").output().is_err() {
        eprintln!(
            "SKIPPED: node is not on PATH; install Node.js to run the MCP Inspector CLI test"
        );
        return None;
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/setup-node-client.sh");
    let out = Command::new("bash")
        .arg(&script)
        .output()
        .expect("run scripts/setup-node-client.sh");
    assert!(
        out.status.success(),
        "setup-node-client.sh failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(PathBuf::from(
        String::from_utf8(out.stdout).unwrap().trim().to_string(),
    ))
}
