//! Turns a contract failure (fee-estimation error or reverted receipt) into the game's reason
//! string and a stable code an agent can branch on (`NOT_IN_BATTLE`, `MARKET_CLOSED`, …).

/// Wrapper felts that frame the real reason in nested call failures.
const WRAPPERS: &[&str] = &[
    "ENTRYPOINT_FAILED",
    "ENTRYPOINT_NOT_FOUND",
    "argent/multicall-failed",
];

/// A refusal of the practice dungeon or its ticket (`ls_new_game`'s entries).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DungeonRefusal {
    /// The wallet holds no dungeon ticket.
    NoTicket,
    /// The golden pass was used recently.
    PassCooldown,
    /// The wallet does not own the golden pass.
    NotPassOwner,
    /// The dungeon offers no free game to this wallet.
    NoFreeGame,
}

impl DungeonRefusal {
    /// Every dungeon refusal.
    pub const ALL: [Self; 4] = [
        Self::NoTicket,
        Self::PassCooldown,
        Self::NotPassOwner,
        Self::NoFreeGame,
    ];

    /// The contract's revert reason (felt short string).
    pub fn reason(self) -> &'static str {
        match self {
            Self::NoTicket => "ERC20: insufficient balance",
            Self::PassCooldown => "Golden pass on cooldown",
            Self::NotPassOwner => "Not owner of golden pass",
            Self::NoFreeGame => "Not Allowed",
        }
    }

    /// The stable code an agent branches on.
    pub fn code(self) -> &'static str {
        match self {
            Self::NoTicket => "NO_TICKET",
            Self::PassCooldown => "GOLDEN_PASS_COOLDOWN",
            Self::NotPassOwner => "NOT_PASS_OWNER",
            Self::NoFreeGame => "NO_FREE_GAME",
        }
    }
}

/// What the node or the account refused before the game ran the transaction: read from the
/// node's or the paymaster's answer where it is decoded, so callers match on it instead of
/// searching the message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NodeRefusal {
    /// The nonce is not the account's next one (another client of the account moved it on):
    /// re-read it and send again.
    StaleNonce,
    /// The Controller account refused the session (a `session/…` reason): its state is read
    /// again to say why.
    Session,
    /// The node expects a declared class's compiled class hash from the other hash function.
    ClassHashMismatch,
}

/// What a revert is, decoded once from its reason.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RevertKind {
    /// A refusal of the game systems (the embedded engine refuses with the same ones).
    Game(game::engine::Revert),
    /// A refusal of the dungeon or its ticket.
    Dungeon(DungeonRefusal),
    /// The node or the account refused the transaction before the game ran it.
    Refused(NodeRefusal),
    /// A reason the server does not know.
    Unknown,
}

/// A decoded contract revert.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Revert {
    /// The game's reason string (or the raw message when none could be found).
    pub reason: String,
    /// What the reason means, decoded once; the tool surface words what to do instead from its
    /// code.
    pub kind: RevertKind,
}

impl Revert {
    /// The stable code (`UNKNOWN_REVERT` for reasons the server has no code for).
    pub fn code(&self) -> &'static str {
        match self.kind {
            RevertKind::Game(r) => r.code().unwrap_or(UNKNOWN),
            RevertKind::Dungeon(d) => d.code(),
            RevertKind::Refused(_) | RevertKind::Unknown => UNKNOWN,
        }
    }

    /// Whether the server knows the reason (a game or dungeon refusal with a code).
    pub fn is_known(&self) -> bool {
        self.code() != UNKNOWN
    }

    /// What the node or the account refused, when this revert is such a refusal.
    pub fn node_refusal(&self) -> Option<NodeRefusal> {
        match self.kind {
            RevertKind::Refused(r) => Some(r),
            _ => None,
        }
    }

    /// The embedded engine's typed refusal, reported with the contract's reason string.
    pub fn from_engine(refusal: game::engine::Revert) -> Self {
        Self {
            reason: refusal.reason().to_string(),
            kind: RevertKind::Game(refusal),
        }
    }
}

/// The code of reasons the server does not know.
const UNKNOWN: &str = "UNKNOWN_REVERT";

/// Extracts the game's reason from a node's error or revert text and decodes it, once, where
/// the answer is read.
pub fn classify(raw: &str) -> Revert {
    let strings = short_strings(raw);
    let reason = strings
        .iter()
        .find(|s| !WRAPPERS.contains(&s.as_str()))
        .cloned()
        .unwrap_or_else(|| truncate(raw, 300));
    let mut revert = of_reason(reason);
    if revert.kind == RevertKind::Unknown
        && let Some(refusal) = strings
            .iter()
            .find_map(|s| node_refusal(s, true))
            .or_else(|| node_refusal(raw, true))
    {
        revert.kind = RevertKind::Refused(refusal);
    }
    revert
}

/// Decodes a reason already known as such (a receipt's revert reason, a short string).
pub fn of_reason(reason: impl Into<String>) -> Revert {
    let reason = reason.into();
    // A reason may come with the node's words around it (a receipt's trace).
    let within = |known: &str| reason == known || reason.contains(known);
    let kind = if let Some(r) = game::engine::Revert::ALL
        .iter()
        .find(|r| within(r.reason()))
    {
        RevertKind::Game(*r)
    } else if let Some(d) = DungeonRefusal::ALL.iter().find(|d| within(d.reason())) {
        RevertKind::Dungeon(*d)
    } else if let Some(refusal) = node_refusal(&reason, true) {
        RevertKind::Refused(refusal)
    } else {
        RevertKind::Unknown
    };
    Revert { reason, kind }
}

/// Reads what the node or the account refused from its message: a stale nonce (devnet:
/// "Account transaction nonce is invalid." at an estimate, "Invalid transaction nonce of
/// contract …" at a simulation; the game never speaks of nonces), a `session/…` reason (the
/// Controller's), a compiled-class-hash mismatch (devnet 0.10.1 at a declare's estimate).
/// `revert` asks for both words of a nonce refusal, as a revert reason must.
pub fn node_refusal(message: &str, revert: bool) -> Option<NodeRefusal> {
    let words = words(message);
    let nonce = words.iter().any(|w| w.contains("nonce"));
    let invalid = words.iter().any(|w| w.contains("invalid"));
    if nonce && (invalid || !revert) {
        Some(NodeRefusal::StaleNonce)
    } else if words.iter().any(|w| w.contains("session/")) {
        Some(NodeRefusal::Session)
    } else if has_phrase(&words, &["mismatch", "compiled", "class", "hash"]) {
        Some(NodeRefusal::ClassHashMismatch)
    } else {
        None
    }
}

/// The lowercase words of a message (`/`, `-` and `_` kept inside words: `session/expired`).
pub(crate) fn words(message: &str) -> Vec<String> {
    message
        .to_ascii_lowercase()
        .split(|c: char| !(c.is_ascii_alphanumeric() || "/-_".contains(c)))
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect()
}

/// Whether `words` hold `phrase`, word after word.
pub(crate) fn has_phrase(words: &[String], phrase: &[&str]) -> bool {
    words.windows(phrase.len()).any(|w| w == phrase)
}

/// The short strings in a node message such as
/// `Failure reason: (0x4e6f…65 ('Not in battle'), 0x454e…44 ('ENTRYPOINT_FAILED'))`, innermost
/// first; the bare `0x…` felts that decode to text when the message has no quoted one.
fn short_strings(raw: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut rest = raw;
    while let Some(start) = rest.find("('") {
        let after = &rest[start + 2..];
        let Some(end) = after.find("')") else { break };
        found.push(after[..end].to_string());
        rest = &after[end + 2..];
    }
    if found.iter().any(|s| !WRAPPERS.contains(&s.as_str())) {
        return found;
    }
    decode_hex_short_strings(raw)
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
    use game::engine::Revert as Refusal;

    #[test]
    fn devnet_estimate_message_yields_reason_and_code() {
        let raw = "Transaction execution has failed:\n0: Error in the called contract (contract address: 0x064b…):\nExecution failed. Failure reason:\nError in contract (contract address: 0x05…, class hash: 0x…, selector: 0x…):\n(0x4e6f7420696e20626174746c65 ('Not in battle'), 0x454e545259504f494e545f4641494c4544 ('ENTRYPOINT_FAILED'), 0x454e545259504f494e545f4641494c4544 ('ENTRYPOINT_FAILED')).\n";
        let r = classify(raw);
        assert_eq!(r.reason, "Not in battle");
        assert_eq!(r.kind, RevertKind::Game(Refusal::NotInBattle));
        assert_eq!(r.code(), "NOT_IN_BATTLE");
    }

    #[test]
    fn bare_hex_reason_is_decoded() {
        let r = classify("Execution failed: [0x4d61726b657420697320636c6f736564]");
        assert_eq!(r.reason, "Market is closed");
        assert_eq!(r.kind, RevertKind::Game(Refusal::MarketClosed));
    }

    #[test]
    fn wrapper_only_message_is_not_taken_as_reason() {
        let r = classify("(0x454e545259504f494e545f4641494c4544 ('ENTRYPOINT_FAILED'))");
        assert_eq!(r.kind, RevertKind::Unknown);
        assert_eq!(r.code(), "UNKNOWN_REVERT");
    }

    #[test]
    fn unknown_reason_keeps_text_and_is_bounded() {
        let long = "x".repeat(1000);
        let r = classify(&long);
        assert_eq!(r.code(), "UNKNOWN_REVERT");
        assert!(r.reason.len() < 400);
    }

    #[test]
    fn every_known_reason_maps_to_its_code() {
        for refusal in Refusal::ALL.iter().filter(|r| r.code().is_some()) {
            let r = classify(&format!("(0x00 ('{}'))", refusal.reason()));
            assert_eq!(r.kind, RevertKind::Game(*refusal));
            assert_eq!(Some(r.code()), refusal.code());
        }
        for d in DungeonRefusal::ALL {
            let r = classify(&format!("(0x00 ('{}'))", d.reason()));
            assert_eq!(r.kind, RevertKind::Dungeon(d));
            assert_eq!(r.code(), d.code());
            assert_eq!(of_reason(d.reason()).kind, RevertKind::Dungeon(d));
        }
    }

    #[test]
    fn every_engine_refusal_keeps_its_reason_and_code() {
        for refusal in Refusal::ALL {
            let r = Revert::from_engine(*refusal);
            assert_eq!(r.reason, refusal.reason());
            assert_eq!(of_reason(refusal.reason()), r);
            match refusal.code() {
                Some(code) => assert_eq!(r.code(), code),
                None => assert_eq!(r.code(), "UNKNOWN_REVERT"),
            }
        }
    }

    #[test]
    fn node_refusals_are_decoded_from_the_answer() {
        // devnet at a fee estimate and at a simulation.
        for raw in [
            "Account transaction nonce is invalid.",
            "Invalid transaction nonce of contract at address 0x1. Account nonce: 0x5; got: 0x4.",
        ] {
            assert_eq!(
                classify(raw).kind,
                RevertKind::Refused(NodeRefusal::StaleNonce),
                "{raw}"
            );
        }
        // The Controller's reason, as a short string among wrappers.
        let r = classify(
            "(0x73657373696f6e2f65787069726564 ('session/expired'), 0x454e545259504f494e545f4641494c4544 ('ENTRYPOINT_FAILED'))",
        );
        assert_eq!(r.kind, RevertKind::Refused(NodeRefusal::Session));
        assert_eq!(r.reason, "session/expired");
        assert_eq!(r.code(), "UNKNOWN_REVERT");
        // A node message (not a revert) needs only to name the nonce.
        assert_eq!(
            node_refusal("InvalidTransactionNonce", false),
            Some(NodeRefusal::StaleNonce)
        );
        assert_eq!(node_refusal("nonce too old", true), None);
        assert_eq!(classify("('Not in battle')").node_refusal(), None);
        assert_eq!(
            classify("Mismatch compiled class hash for class with hash 0x1.").kind,
            RevertKind::Refused(NodeRefusal::ClassHashMismatch)
        );
    }
}
