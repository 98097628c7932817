//! Credentials in URLs. Hosted RPC providers and indexers take their API keys in the URL: in the
//! query (`?apikey=…`), as user info (`https://user:key@host/`) or as a path segment
//! (`/v2/<key>`). A URL is shown with those parts hidden ([`shown_url`]); the credentials of the
//! configured URLs are also registered ([`register_url_credentials`]) so that the log writer
//! hides them in every line, whichever crate wrote it ([`hide_credentials`]).

use std::borrow::Cow;
use std::sync::RwLock;

use url::Url;

/// What replaces a credential taken out of a URL or a log line.
pub const HIDDEN_CREDENTIAL: &str = "<hidden>";

/// Shortest credential registered for hiding in log lines (shorter values are too common in
/// ordinary text to replace everywhere; [`shown_url`] still hides them).
const MIN_REGISTERED_LEN: usize = 6;

/// Credentials of the configured URLs, hidden in every log line.
static REGISTERED: RwLock<Vec<String>> = RwLock::new(Vec::new());

/// Whether a path segment may be an API key: long, or long enough and holding a digit (version
/// segments such as `v0_9`, `rpc`, `ws`, `mainnet` or `starknet` stay readable).
fn key_like_segment(segment: &str) -> bool {
    segment.len() >= 24 || (segment.len() >= 16 && segment.bytes().any(|b| b.is_ascii_digit()))
}

/// The parts of `url` that may be credentials: user name, password, query values and key-like
/// path segments (percent-decoded forms as well as the encoded ones).
fn credentials(url: &Url) -> Vec<String> {
    let mut out = Vec::new();
    let mut push = |s: &str| {
        if !s.is_empty() && !out.iter().any(|o: &String| o == s) {
            out.push(s.to_string());
        }
    };
    push(url.username());
    if let Some(p) = url.password() {
        push(p);
    }
    if let Some(query) = url.query() {
        for pair in query.split('&') {
            push(pair.split_once('=').map_or("", |(_, v)| v));
        }
    }
    for (_, value) in url.query_pairs() {
        push(&value);
    }
    for segment in url.path_segments().into_iter().flatten() {
        if key_like_segment(segment) {
            push(segment);
        }
    }
    out
}

/// Whether `url` carries anything that may be a credential (user info, a query value, a key-like
/// path segment): such a URL must not leave the machine.
pub fn has_credentials(url: &Url) -> bool {
    !credentials(url).is_empty()
}

/// `url` as it may be logged or shown: user info, every query value and key-like path segments
/// replaced by [`HIDDEN_CREDENTIAL`]; scheme, host, port, query names and short path segments kept.
pub fn shown_url(url: &Url) -> String {
    let mut out = format!("{}://", url.scheme());
    if !url.username().is_empty() || url.password().is_some() {
        out.push_str(HIDDEN_CREDENTIAL);
        out.push('@');
    }
    out.push_str(url.host_str().unwrap_or(""));
    if let Some(port) = url.port() {
        out.push_str(&format!(":{port}"));
    }
    match url.path_segments() {
        Some(segments) => {
            for segment in segments {
                out.push('/');
                out.push_str(if key_like_segment(segment) {
                    HIDDEN_CREDENTIAL
                } else {
                    segment
                });
            }
        }
        None => out.push_str(url.path()),
    }
    if let Some(query) = url.query() {
        let names: Vec<String> = query
            .split('&')
            .map(|pair| match pair.split_once('=') {
                Some((name, _)) => format!("{name}={HIDDEN_CREDENTIAL}"),
                None => HIDDEN_CREDENTIAL.to_string(),
            })
            .collect();
        out.push('?');
        out.push_str(&names.join("&"));
    }
    out
}

/// `text` with every URL in it (`http`, `https`, `ws`, `wss`) shown as [`shown_url`] shows it
/// (one already shown is kept, so redacting twice changes nothing); one that does not parse is
/// replaced whole.
pub fn redact_urls(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = find_url(rest) {
        out.push_str(&rest[..start]);
        let tail = &rest[start..];
        let end = tail
            .find(|c: char| c.is_whitespace() || matches!(c, ')' | '"' | '\'' | ',' | '`'))
            .unwrap_or(tail.len());
        let candidate = &tail[..end];
        if candidate.contains(HIDDEN_CREDENTIAL) {
            out.push_str(candidate);
        } else {
            match Url::parse(candidate) {
                Ok(url) => out.push_str(&shown_url(&url)),
                Err(_) => out.push_str("<url>"),
            }
        }
        rest = &tail[end..];
    }
    out.push_str(rest);
    out
}

/// Where the next URL with a scheme this module redacts starts.
fn find_url(text: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(i) = text[from..].find("://") {
        let at = from + i;
        let scheme_start = text[..at]
            .rfind(|c: char| !c.is_ascii_alphanumeric())
            .map_or(0, |j| j + 1);
        if matches!(
            text[scheme_start..at].to_ascii_lowercase().as_str(),
            "http" | "https" | "ws" | "wss"
        ) {
            return Some(scheme_start);
        }
        from = at + 3;
    }
    None
}

/// Registers the credentials in a configured URL (RPC, WebSocket, indexer), so that
/// [`hide_credentials`] hides them in every log line from now on.
pub fn register_url_credentials(url: &Url) {
    register(credentials(url));
}

/// Registers a configured secret that is not in a URL (an API key sent in a header), so that
/// [`hide_credentials`] hides it in every log line and tool error from now on.
pub fn register_credential(secret: &str) {
    register(vec![secret.trim().to_string()]);
}

/// Adds `found` (but values too short to hide safely) to the registered credentials.
fn register(found: Vec<String>) {
    let found: Vec<String> = found
        .into_iter()
        .filter(|c| c.len() >= MIN_REGISTERED_LEN)
        .collect();
    if found.is_empty() {
        return;
    }
    let mut registered = REGISTERED.write().unwrap_or_else(|p| p.into_inner());
    for c in found {
        if !registered.contains(&c) {
            registered.push(c);
        }
    }
    // Longest first, so a credential containing another is hidden whole.
    registered.sort_by_key(|c| std::cmp::Reverse(c.len()));
}

/// `text` with every URL's credentials and every registered credential hidden (the log writer's
/// filter: cheap when the text holds neither).
pub fn hide_credentials(text: &str) -> Cow<'_, str> {
    let registered = REGISTERED.read().unwrap_or_else(|p| p.into_inner());
    let mut out = if text.contains("://") {
        Cow::Owned(redact_urls(text))
    } else {
        Cow::Borrowed(text)
    };
    for c in registered.iter() {
        if out.contains(c.as_str()) {
            out = Cow::Owned(out.replace(c.as_str(), HIDDEN_CREDENTIAL));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn url(s: &str) -> Url {
        s.parse().unwrap()
    }

    #[test]
    fn query_keys_user_info_and_key_paths_are_hidden() {
        assert_eq!(
            shown_url(&url("ws://127.0.0.1:5050/ws?apikey=SECRET&x=1")),
            "ws://127.0.0.1:5050/ws?apikey=<hidden>&x=<hidden>"
        );
        assert_eq!(
            shown_url(&url("https://user:KEY@rpc.example/rpc/v0_9")),
            "https://<hidden>@rpc.example/rpc/v0_9"
        );
        assert_eq!(
            shown_url(&url(
                "https://starknet-mainnet.g.alchemy.com/starknet/version/rpc/v0_9/Zx81kQ3abcDEF7g2"
            )),
            "https://starknet-mainnet.g.alchemy.com/starknet/version/rpc/v0_9/<hidden>"
        );
        assert_eq!(
            shown_url(&url("https://api.cartridge.gg/x/starknet/mainnet")),
            "https://api.cartridge.gg/x/starknet/mainnet"
        );
    }

    #[test]
    fn urls_in_messages_are_redacted() {
        let s = redact_urls(
            "error sending request for url (https://rpc.example/v0_9/?apikey=SECRETKEY): \
             timeout; ws://u:pw@h:1/ws failed; http",
        );
        assert!(!s.contains("SECRETKEY") && !s.contains("pw@"), "{s}");
        assert!(
            s.contains("(https://rpc.example/v0_9/?apikey=<hidden>)"),
            "{s}"
        );
        assert!(s.contains("ws://<hidden>@h:1/ws failed"), "{s}");
        assert!(s.ends_with("http"), "{s}");
        assert_eq!(redact_urls(&s), s, "redacting twice changes nothing");
        assert_eq!(redact_urls("no url here"), "no url here");
    }

    #[test]
    fn registered_credentials_are_hidden_in_any_text() {
        register_url_credentials(&url(
            "http://agent:s3cr3t-pass@127.0.0.1:9/rpc?apikey=QUERY-SECRET-1",
        ));
        let line = "GET /rpc?apikey=QUERY-SECRET-1 HTTP/1.1 authorization for s3cr3t-pass";
        let hidden = hide_credentials(line);
        assert!(
            !hidden.contains("QUERY-SECRET-1") && !hidden.contains("s3cr3t-pass"),
            "{hidden}"
        );
        assert!(matches!(hide_credentials("plain text"), Cow::Borrowed(_)));
        register_credential(" header-key-7Q9 ");
        register_credential("abc");
        assert_eq!(
            hide_credentials("invalid key header-key-7Q9, abc"),
            "invalid key <hidden>, abc"
        );
    }
}
