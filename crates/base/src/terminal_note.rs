//! The note printed on stderr when someone starts the server by hand in a terminal: what it is,
//! how to connect an MCP client to this very binary, and `play` to watch a game at once.

use std::path::Path;

/// The note for the binary at `exe` serving `profile`.
pub fn terminal_note(exe: &Path, profile: &str) -> String {
    let exe = exe.display();
    let chain = if profile == "sim" {
        "the embedded practice chain (no node, no key, no fee)".to_string()
    } else {
        format!("the {profile} profile")
    };
    format!(
        "loot-survivor-mcp {version}: an MCP server through which an AI agent plays Loot Survivor 2\n\
         (here on {chain}).\n\
         It speaks MCP on stdin/stdout and waits for a client: typing here does nothing.\n\
         \n\
         Claude Code:     claude mcp add loot-survivor -- {exe}\n\
         Claude Desktop:  \"mcpServers\": {{\"loot-survivor\": {{\"command\": \"{exe}\"}}}}\n\
         Watch a game:    {exe} play\n\
         Ctrl-C quits.\n",
        version = env!("CARGO_PKG_VERSION"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_note_names_this_binary_and_the_next_steps() {
        let n = terminal_note(Path::new("/opt/ls/loot-survivor-mcp"), "sim");
        assert!(n.contains("claude mcp add loot-survivor -- /opt/ls/loot-survivor-mcp\n"));
        assert!(n.contains("/opt/ls/loot-survivor-mcp play"));
        assert!(n.contains("embedded practice chain"));
        assert!(n.lines().count() <= 12, "short: {n}");
        assert!(terminal_note(Path::new("x"), "devnet").contains("devnet profile"));
    }
}
