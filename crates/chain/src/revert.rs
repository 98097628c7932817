//! Turns a contract failure (fee-estimation error or reverted receipt) into the game's reason
//! string and a stable code an agent can branch on (`NOT_IN_BATTLE`, `MARKET_CLOSED`, …).

/// The game's revert reasons (felt short strings) with their stable codes.
const REASONS: &[(&str, &str)] = &[
    ("Not in battle", "NOT_IN_BATTLE"),
    ("Action not allowed in battle", "IN_BATTLE"),
    ("Adventurer is dead", "ADVENTURER_DEAD"),
    ("Stat upgrade available", "STAT_UPGRADE_REQUIRED"),
    ("Market is closed", "MARKET_CLOSED"),
    ("Not enough gold", "NOT_ENOUGH_GOLD"),
    ("Item already owned", "ITEM_OWNED"),
    ("Market item does not exist", "ITEM_NOT_IN_MARKET"),
    ("Health already full", "HEALTH_FULL"),
    ("Bag is full", "BAG_FULL"),
    ("Cant flee starter beast", "CANT_FLEE_STARTER_BEAST"),
    ("Cant flee, no dexterity", "NO_DEXTERITY"),
    ("Cant drop during starter beast", "CANT_DROP_STARTER"),
    ("Too many items", "TOO_MANY_ITEMS"),
    ("Must provide item ids", "NO_ITEMS"),
    ("Item not in bag", "ITEM_NOT_IN_BAG"),
    ("Item not owned by adventurer", "ITEM_NOT_OWNED"),
    ("Invalid starting weapon", "INVALID_STARTING_WEAPON"),
    ("insufficient stat upgrades", "INSUFFICIENT_STAT_UPGRADES"),
    ("Must use all stats", "MUST_USE_ALL_STATS"),
    ("Luck must be zero", "LUCK_MUST_BE_ZERO"),
    ("invalid item id", "INVALID_ITEM_ID"),
    ("Not token owner", "NOT_OWNER"),
    ("Adventurer already started", "ALREADY_STARTED"),
    // The dungeon (its entries ticket, golden pass and free) and its ticket.
    ("ERC20: insufficient balance", "NO_TICKET"),
    ("Golden pass on cooldown", "GOLDEN_PASS_COOLDOWN"),
    ("Not owner of golden pass", "NOT_PASS_OWNER"),
    ("Not Allowed", "NO_FREE_GAME"),
];

/// Wrapper felts that frame the real reason in nested call failures.
const WRAPPERS: &[&str] = &[
    "ENTRYPOINT_FAILED",
    "ENTRYPOINT_NOT_FOUND",
    "argent/multicall-failed",
];

/// A decoded contract revert.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Revert {
    /// The game's reason string (or the raw message when none could be found).
    pub reason: String,
    /// The stable code (`UNKNOWN_REVERT` for reasons the server does not know); the tool surface
    /// words what to do instead from it.
    pub code: &'static str,
}

/// Extracts the game's reason from a node's error or revert text and classifies it.
pub fn classify(raw: &str) -> Revert {
    of_reason(reason_from_text(raw).unwrap_or_else(|| truncate(raw, 300)))
}

/// Classifies a reason already known as such (the embedded engine's typed refusal).
pub fn of_reason(reason: impl Into<String>) -> Revert {
    let reason = reason.into();
    match REASONS
        .iter()
        .find(|(r, _)| reason == *r || reason.contains(r))
    {
        Some((_, code)) => Revert { reason, code },
        None => Revert {
            reason,
            code: "UNKNOWN_REVERT",
        },
    }
}

/// Finds the innermost non-wrapper short string in a node message such as
/// `Failure reason: (0x4e6f…65 ('Not in battle'), 0x454e…44 ('ENTRYPOINT_FAILED'))`.
fn reason_from_text(raw: &str) -> Option<String> {
    let mut found = Vec::new();
    let mut rest = raw;
    while let Some(start) = rest.find("('") {
        let after = &rest[start + 2..];
        let Some(end) = after.find("')") else { break };
        found.push(after[..end].to_string());
        rest = &after[end + 2..];
    }
    if let Some(r) = found.iter().find(|s| !WRAPPERS.contains(&s.as_str())) {
        return Some(r.clone());
    }
    decode_hex_short_strings(raw)
        .into_iter()
        .find(|s| !WRAPPERS.contains(&s.as_str()))
}

/// Decodes bare `0x…` felts that are printable short strings (nodes that omit the ASCII form).
fn decode_hex_short_strings(raw: &str) -> Vec<String> {
    raw.split(|c: char| !c.is_ascii_alphanumeric())
        .filter_map(|tok| tok.strip_prefix("0x"))
        .filter(|h| h.len() >= 8 && h.len() <= 62 && h.len() % 2 == 0)
        .filter_map(|h| {
            let bytes: Option<Vec<u8>> = (0..h.len())
                .step_by(2)
                .map(|i| u8::from_str_radix(&h[i..i + 2], 16).ok())
                .collect();
            let bytes = bytes?;
            (bytes.iter().all(|b| (0x20..0x7f).contains(b))
                && bytes.iter().any(|b| b.is_ascii_alphabetic()))
            .then(|| String::from_utf8(bytes).ok())
            .flatten()
        })
        .collect()
}

fn truncate(s: &str, max: usize) -> String {
    if s.len() <= max {
        return s.to_string();
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &s[..end])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn devnet_estimate_message_yields_reason_and_code() {
        let raw = "Transaction execution has failed:\n0: Error in the called contract (contract address: 0x064b…):\nExecution failed. Failure reason:\nError in contract (contract address: 0x05…, class hash: 0x…, selector: 0x…):\n(0x4e6f7420696e20626174746c65 ('Not in battle'), 0x454e545259504f494e545f4641494c4544 ('ENTRYPOINT_FAILED'), 0x454e545259504f494e545f4641494c4544 ('ENTRYPOINT_FAILED')).\n";
        let r = classify(raw);
        assert_eq!(r.reason, "Not in battle");
        assert_eq!(r.code, "NOT_IN_BATTLE");
    }

    #[test]
    fn bare_hex_reason_is_decoded() {
        let r = classify("Execution failed: [0x4d61726b657420697320636c6f736564]");
        assert_eq!(r.reason, "Market is closed");
        assert_eq!(r.code, "MARKET_CLOSED");
    }

    #[test]
    fn wrapper_only_message_is_not_taken_as_reason() {
        let r = classify("(0x454e545259504f494e545f4641494c4544 ('ENTRYPOINT_FAILED'))");
        assert_eq!(r.code, "UNKNOWN_REVERT");
    }

    #[test]
    fn unknown_reason_keeps_text_and_is_bounded() {
        let long = "x".repeat(1000);
        let r = classify(&long);
        assert_eq!(r.code, "UNKNOWN_REVERT");
        assert!(r.reason.len() < 400);
    }

    #[test]
    fn every_known_reason_maps_to_its_code() {
        for (reason, code) in REASONS {
            assert_eq!(classify(&format!("(0x00 ('{reason}'))")).code, *code);
            assert_eq!(of_reason(*reason).code, *code);
        }
    }

    /// The reasons the embedded engine gives (its `ensure(…, "reason")` and `Revert("reason")`).
    fn engine_reasons() -> Vec<String> {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../game/src/engine");
        let mut found = Vec::new();
        for entry in std::fs::read_dir(dir).expect("the engine's sources") {
            let text = std::fs::read_to_string(entry.unwrap().path()).unwrap_or_default();
            for opener in ["ensure(", "Revert(\""] {
                for (at, _) in text.match_indices(opener) {
                    let call = &text[at..];
                    let call = &call[..call.find(';').unwrap_or(call.len())];
                    let call = &call[..call.find("\")").map_or(call.len(), |e| e + 1)];
                    if let Some(end) = call.rfind('"')
                        && let Some(start) = call[..end].rfind('"')
                    {
                        found.push(call[start + 1..end].to_string());
                    }
                }
            }
        }
        found
    }

    #[test]
    fn every_engine_refusal_has_a_code() {
        let reasons = engine_reasons();
        assert!(reasons.len() >= 20, "found {reasons:?}");
        for reason in reasons {
            let r = of_reason(reason.as_str());
            assert_ne!(r.code, "UNKNOWN_REVERT", "{reason}");
            assert_eq!(r.reason, reason);
        }
    }
}
