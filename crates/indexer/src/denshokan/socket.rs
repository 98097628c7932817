//! The Denshokan API's WebSocket as a change stream: one connection to `GET {url}/ws` (mounted
//! there by Provable-Games/denshokan `api/src/index.ts` at `aa8eb22`), made only while something
//! is followed, subscribed to one game's token changes (`messages`), closed when nothing is.
//! Bounded: messages past [`messages::MAX_MESSAGE`] or past [`MAX_PER_WINDOW`] a second are skipped (the
//! latter told as one change of the whole leaderboard); a dropped socket is connected again
//! after a backoff of at most [`MAX_BACKOFF`]. An API that does not speak the protocol at first
//! contact (an HTTP error on the upgrade, a first answer not as the source writes it) is said
//! once and given up: the chain's feed alone tells the followers then.

use std::sync::Arc;
use std::time::Duration;

use futures_util::{SinkExt as _, StreamExt as _};
use secrecy::{ExposeSecret as _, SecretString};
use tokio::net::TcpStream;
use tokio::time::Instant;
use tokio_tungstenite::tungstenite::client::IntoClientRequest as _;
use tokio_tungstenite::tungstenite::http::HeaderValue;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::{self, Message};
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};
use url::Url;

use super::API_KEY_HEADER;
use super::messages::{self, BadMessage, Parsed};
use crate::change_stream::{ChangeKind, ChangeSink, ChangeStream, IndexChange};
use crate::torii::endpoint;

/// The largest frame the socket reads at all; a bigger one drops the connection.
const MAX_FRAME: usize = 1 << 20;
/// Messages read in a second at most; past that they are skipped and told as one change.
const MAX_PER_WINDOW: u32 = 64;
/// The window [`MAX_PER_WINDOW`] counts in.
const WINDOW: Duration = Duration::from_secs(1);
/// How long connecting and the subscription's answer may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);
/// How often the stream asks whether anything is still followed.
const CHECK: Duration = Duration::from_millis(250);
/// Silence after which a connection is taken for dead (the API pings every 30 s).
const SILENCE: Duration = Duration::from_secs(90);
/// The wait before connecting again, doubled after each failure up to [`MAX_BACKOFF`].
const FIRST_BACKOFF: Duration = Duration::from_millis(500);
const MAX_BACKOFF: Duration = Duration::from_secs(30);

type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// Why a connection ended or was not made. Messages never contain the API's URL or key.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StreamError {
    /// Connecting failed, or the socket broke off, for a reason that may pass.
    #[error("the Denshokan API's WebSocket failed: {0}")]
    Dropped(String),
    /// The API does not speak the WebSocket protocol of its source (HTTP error on the upgrade,
    /// an answer not as the source writes it).
    #[error("the Denshokan API does not speak its WebSocket protocol: {0}")]
    Unsupported(String),
}

/// How following ended without a failure.
enum Ended {
    /// Nothing is followed: the connection was closed.
    Unwanted,
    /// The followers are gone for good.
    Gone,
}

/// The Denshokan API's change stream of one game.
pub struct DenshokanStream {
    url: Url,
    game_id: u32,
    api_key: Option<SecretString>,
}

impl std::fmt::Debug for DenshokanStream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DenshokanStream")
            .field("game_id", &self.game_id)
            .finish_non_exhaustive()
    }
}

impl DenshokanStream {
    /// The stream of game `game_id` at the API whose base URL is `base` (`http(s)://…`), sending
    /// `api_key` as the HTTP client does.
    pub fn new(base: &Url, game_id: u32, api_key: Option<SecretString>) -> Self {
        let mut url = endpoint(base, "ws");
        let scheme = if base.scheme() == "https" {
            "wss"
        } else {
            "ws"
        };
        // Both schemes are special ones, which `set_scheme` always allows between each other.
        let _ = url.set_scheme(scheme);
        Self {
            url,
            game_id,
            api_key,
        }
    }

    /// The socket's URL as logs show it (credentials hidden).
    fn shown(&self) -> String {
        base::redact::shown_url(&self.url)
    }

    /// Connects and subscribes; the socket once the API answered `subscribed`.
    async fn connect(&self) -> Result<Socket, StreamError> {
        let request = self.request()?;
        let config = WebSocketConfig::default()
            .max_message_size(Some(MAX_FRAME))
            .max_frame_size(Some(MAX_FRAME));
        let (mut socket, _) = tokio::time::timeout(
            CONNECT_TIMEOUT,
            tokio_tungstenite::connect_async_with_config(request, Some(config), true),
        )
        .await
        .map_err(|_| StreamError::Dropped("no answer to the upgrade in time".into()))?
        .map_err(|e| self.handshake_error(e))?;
        socket
            .send(Message::text(messages::subscribe(self.game_id)))
            .await
            .map_err(|e| self.dropped(&e))?;
        let deadline = Instant::now() + CONNECT_TIMEOUT;
        loop {
            let next = tokio::time::timeout_at(deadline, socket.next())
                .await
                .map_err(|_| StreamError::Unsupported("no answer to `subscribe` in time".into()))?;
            let text = match next {
                Some(Ok(Message::Text(text))) => text,
                Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                Some(Ok(other)) => {
                    return Err(StreamError::Unsupported(format!(
                        "answered `subscribe` with a {} frame",
                        frame_kind(&other)
                    )));
                }
                Some(Err(e)) => return Err(self.dropped(&e)),
                None => return Err(StreamError::Dropped("closed before answering".into())),
            };
            return match messages::parse(&text, self.game_id) {
                Ok(Parsed::Subscribed) => Ok(socket),
                Ok(Parsed::Refused(why)) => Err(StreamError::Unsupported(format!(
                    "refused `subscribe`: {why}"
                ))),
                Ok(Parsed::Change(_)) | Err(_) => Err(StreamError::Unsupported(
                    "answered `subscribe` with something else than `subscribed`".into(),
                )),
            };
        }
    }

    /// The upgrade request: the URL without its credentials, which go as a header (basic auth,
    /// as the HTTP client sends them), and the API key's header.
    fn request(&self) -> Result<tungstenite::handshake::client::Request, StreamError> {
        let mut url = self.url.clone();
        let basic = (!url.username().is_empty() || url.password().is_some()).then(|| {
            use base64::Engine as _;
            let pair = format!("{}:{}", url.username(), url.password().unwrap_or(""));
            format!(
                "Basic {}",
                base64::engine::general_purpose::STANDARD.encode(pair)
            )
        });
        let _ = url.set_username("");
        let _ = url.set_password(None);
        let mut request = url
            .as_str()
            .into_client_request()
            .map_err(|e| StreamError::Unsupported(format!("the URL cannot be asked: {e}")))?;
        let secret_header = |value: &str| {
            let mut v = HeaderValue::from_str(value.trim()).map_err(|_| {
                StreamError::Unsupported("a credential holds characters a header cannot".into())
            })?;
            v.set_sensitive(true);
            Ok::<_, StreamError>(v)
        };
        if let Some(basic) = basic {
            let value = secret_header(&basic)?;
            request.headers_mut().insert("authorization", value);
        }
        if let Some(key) = &self.api_key {
            let value = secret_header(key.expose_secret())?;
            request.headers_mut().insert(API_KEY_HEADER, value);
        }
        Ok(request)
    }

    /// A failed upgrade, classified: an HTTP error other than a passing one (408, 429, 5xx), a
    /// URL it cannot ask or an answer that is no upgrade mean the API does not speak this.
    fn handshake_error(&self, e: tungstenite::Error) -> StreamError {
        match &e {
            tungstenite::Error::Http(response) => {
                let status = response.status().as_u16();
                if status == 408 || status == 429 || status >= 500 {
                    StreamError::Dropped(format!("HTTP {status} on the upgrade"))
                } else {
                    StreamError::Unsupported(format!("HTTP {status} on the upgrade"))
                }
            }
            tungstenite::Error::Url(_)
            | tungstenite::Error::Protocol(_)
            | tungstenite::Error::HttpFormat(_) => StreamError::Unsupported(self.clean(&e)),
            _ => self.dropped(&e),
        }
    }

    fn dropped(&self, e: &dyn std::fmt::Display) -> StreamError {
        StreamError::Dropped(self.clean(e))
    }

    /// An error's text without URLs or the API key.
    fn clean(&self, e: &dyn std::fmt::Display) -> String {
        let text = base::redact::redact_urls(&e.to_string());
        match &self.api_key {
            Some(key) if !key.expose_secret().trim().is_empty() => {
                text.replace(key.expose_secret().trim(), base::redact::HIDDEN_CREDENTIAL)
            }
            _ => text,
        }
    }

    /// Tells `sink` of each change on `socket` until nothing is followed (the socket closed),
    /// the followers are gone or the socket fails.
    async fn follow(
        &self,
        mut socket: Socket,
        sink: &dyn ChangeSink,
    ) -> Result<Ended, StreamError> {
        let mut check = tokio::time::interval(CHECK);
        check.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut bound = Bound::new(Instant::now());
        let mut heard = Instant::now();
        loop {
            tokio::select! {
                next = socket.next() => {
                    heard = Instant::now();
                    match next {
                        Some(Ok(Message::Text(text))) => {
                            if bound.admit(heard) {
                                self.read(&text, sink);
                            }
                        }
                        Some(Ok(Message::Close(_))) | None => {
                            return Err(StreamError::Dropped("the API closed the socket".into()));
                        }
                        Some(Ok(Message::Binary(b))) => {
                            tracing::debug!(bytes = b.len(), "a binary message from the Denshokan API; skipped");
                        }
                        Some(Ok(_)) => {}
                        Some(Err(e)) => return Err(self.dropped(&e)),
                    }
                }
                _ = check.tick() => {
                    let ended = match sink.wanted() {
                        Some(true) => None,
                        Some(false) => Some(Ended::Unwanted),
                        None => Some(Ended::Gone),
                    };
                    if let Some(ended) = ended {
                        let _ = tokio::time::timeout(CHECK, socket.close(None)).await;
                        return Ok(ended);
                    }
                    if bound.roll(Instant::now()) {
                        sink.changed(IndexChange { kind: ChangeKind::Many, adventurer_id: None });
                    }
                    if heard.elapsed() > SILENCE {
                        return Err(StreamError::Dropped(format!("silent for {SILENCE:?}")));
                    }
                }
            }
        }
    }

    /// Reads one message and tells `sink` of the change it names, if any.
    fn read(&self, text: &str, sink: &dyn ChangeSink) {
        match messages::parse(text, self.game_id) {
            Ok(Parsed::Change(change)) => sink.changed(change),
            Ok(Parsed::Subscribed) => {}
            Ok(Parsed::Refused(why)) => {
                tracing::debug!(%why, "the Denshokan API said a message was not understood");
            }
            Err(
                e @ (BadMessage::TooLarge(_) | BadMessage::Malformed(_) | BadMessage::Other(_)),
            ) => {
                tracing::debug!("{e} from the Denshokan API; skipped");
            }
        }
    }
}

#[async_trait::async_trait]
impl ChangeStream for DenshokanStream {
    async fn run(&self, sink: Arc<dyn ChangeSink>) {
        let (mut backoff, mut spoke, mut quiet) = (FIRST_BACKOFF, false, false);
        loop {
            if !wait_until_wanted(&*sink).await {
                return;
            }
            let failed = match self.connect().await {
                Ok(socket) => {
                    (spoke, quiet, backoff) = (true, false, FIRST_BACKOFF);
                    tracing::info!(endpoint = %self.shown(), "following the Denshokan API's changes");
                    match self.follow(socket, &*sink).await {
                        Ok(Ended::Unwanted) => continue,
                        Ok(Ended::Gone) => return,
                        Err(e) => e,
                    }
                }
                Err(StreamError::Unsupported(why)) if !spoke => {
                    tracing::info!(
                        endpoint = %self.shown(),
                        "the Denshokan API does not speak the WebSocket of its source here ({why}; \
                         tried an upgrade and `subscribe` to `{}` of game {}): the leaderboard is \
                         told of changes by the chain's feed alone",
                        messages::CHANNEL,
                        self.game_id
                    );
                    return;
                }
                Err(e) => e,
            };
            if quiet {
                tracing::debug!(error = %failed, "connecting again in {backoff:?}");
            } else {
                tracing::info!(error = %failed, endpoint = %self.shown(), "connecting again in {backoff:?}");
                quiet = true;
            }
            tokio::time::sleep(backoff).await;
            backoff = (backoff * 2).min(MAX_BACKOFF);
        }
    }
}

/// Waits until something is followed (`true`) or the followers are gone (`false`).
async fn wait_until_wanted(sink: &dyn ChangeSink) -> bool {
    loop {
        match sink.wanted() {
            Some(true) => return true,
            None => return false,
            Some(false) => tokio::time::sleep(CHECK).await,
        }
    }
}

/// A frame's kind, for a message.
fn frame_kind(m: &Message) -> &'static str {
    match m {
        Message::Binary(_) => "binary",
        Message::Close(_) => "close",
        _ => "control",
    }
}

/// The count of messages in the current window, and whether any was skipped past the bound.
struct Bound {
    start: Instant,
    seen: u32,
    skipped: bool,
}

impl Bound {
    fn new(now: Instant) -> Self {
        Self {
            start: now,
            seen: 0,
            skipped: false,
        }
    }

    /// Whether a message arriving `now` is read (within the window's bound).
    fn admit(&mut self, now: Instant) -> bool {
        if now.duration_since(self.start) >= WINDOW && !self.skipped {
            *self = Self::new(now);
        }
        self.seen += 1;
        let admitted = self.seen <= MAX_PER_WINDOW;
        self.skipped |= !admitted;
        admitted
    }

    /// Starts a new window once this one is over; whether messages were skipped in it (to be
    /// told as one change).
    fn roll(&mut self, now: Instant) -> bool {
        if now.duration_since(self.start) < WINDOW {
            return false;
        }
        let skipped = self.skipped;
        *self = Self::new(now);
        skipped
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_socket_is_below_the_base_url_on_the_matching_scheme() {
        let s = DenshokanStream::new(&"https://h.example/api?x=1".parse().unwrap(), 1, None);
        assert_eq!(s.url.as_str(), "wss://h.example/api/ws?x=1");
        let s = DenshokanStream::new(&"http://127.0.0.1:3000/".parse().unwrap(), 1, None);
        assert_eq!(s.url.as_str(), "ws://127.0.0.1:3000/ws");
        assert!(!format!("{s:?}").contains("127.0.0.1"));
    }

    #[test]
    fn credentials_go_in_sensitive_headers_never_in_the_url() {
        let base: Url = "http://key:s3cret@127.0.0.1:3000/".parse().unwrap();
        let s = DenshokanStream::new(&base, 1, Some(SecretString::from("dk_live_1")));
        let r = s.request().unwrap();
        assert_eq!(r.uri().to_string(), "ws://127.0.0.1:3000/ws");
        let auth = &r.headers()["authorization"];
        assert!(auth.is_sensitive());
        assert_eq!(auth, "Basic a2V5OnMzY3JldA==");
        assert!(r.headers()[API_KEY_HEADER].is_sensitive());
        assert!(!s.shown().contains("s3cret"), "{}", s.shown());
        let e = s.dropped(&"refused by ws://key:s3cret@h/ws with dk_live_1");
        assert!(
            !e.to_string().contains("s3cret") && !e.to_string().contains("dk_live_1"),
            "{e}"
        );
    }

    #[test]
    fn messages_past_the_bound_in_a_window_are_skipped_and_told_once() {
        let t0 = Instant::now();
        let mut b = Bound::new(t0);
        for _ in 0..MAX_PER_WINDOW {
            assert!(b.admit(t0));
        }
        assert!(!b.admit(t0), "past the bound");
        assert!(!b.roll(t0 + WINDOW / 2), "the window is not over");
        assert!(!b.admit(t0 + WINDOW), "skipped until the window rolls");
        assert!(b.roll(t0 + WINDOW), "told once");
        assert!(!b.roll(t0 + WINDOW * 2), "and only once");
        assert!(b.admit(t0 + WINDOW * 2));
    }

    #[test]
    fn http_errors_on_the_upgrade_are_classified() {
        let s = DenshokanStream::new(&"http://127.0.0.1:1/".parse().unwrap(), 1, None);
        let answer = |status: u16| {
            let r = tungstenite::http::Response::builder()
                .status(status)
                .body(None)
                .unwrap();
            s.handshake_error(tungstenite::Error::Http(Box::new(r)))
        };
        assert!(matches!(answer(404), StreamError::Unsupported(_)));
        assert!(matches!(answer(400), StreamError::Unsupported(_)));
        for passing in [408, 429, 502, 503] {
            assert!(
                matches!(answer(passing), StreamError::Dropped(_)),
                "{passing}"
            );
        }
    }
}
