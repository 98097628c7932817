//! `token new`: a bearer token for `serve --http` and its token-file entry.

use mcp::http::{self, ServedBy, TokenTable};

/// `token new`: a random 256-bit token and its token-file entry.
pub(crate) fn new_token(identity: &str) -> anyhow::Result<()> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).map_err(|e| anyhow::anyhow!("no randomness: {e}"))?;
    let token: String = std::iter::once("lsmcp_".to_string())
        .chain(bytes.iter().map(|b| format!("{b:02x}")))
        .collect();
    // Validated the same way the server will read it.
    TokenTable::load(
        None,
        Some(&format!("{identity}={}", http::hash_hex(&token))),
        &ServedBy {
            profile: "sim",
            account: None,
        },
        &Default::default(),
    )?;
    println!(
        "token (give it to the agent host as `Authorization: Bearer <token>`; it is not stored):"
    );
    println!("{token}");
    println!();
    println!("token-file entry (add it to the file named by http.tokens_file):");
    println!("[[token]]");
    println!("identity = \"{identity}\"");
    println!("sha256 = \"{}\"", http::hash_hex(&token));
    Ok(())
}
