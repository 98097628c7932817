//! The live page: `/watch` lists the games this server may show the caller, `/watch/{id}` is the
//! adventurer's sheet and `/watch/{id}/events` its server-sent events (one `state` model at
//! connect and after each change). Behind the same gate as `/mcp`, and an identity sees only the
//! adventurers the guard lets it read.

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::{Extension, Path, RawQuery, State};
use axum::http::{StatusCode, header};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::routing::get;
use futures_util::Stream;
use game::AdventurerId;
use serde_json::{Value, json};
use tokio::sync::broadcast::error::RecvError;
use tokio_util::sync::CancellationToken;

use super::guard::{Guarded, Shared};
use super::tokens::Identity;
use crate::LsServer;
use crate::live::{Target, Watcher};
use crate::sheet::{escape, live_page_html};

/// Events kept on a page's model: the sheet shows the last ten.
const EVENTS_KEPT: usize = 10;
/// How often an idle stream says it is alive.
const KEEP_ALIVE: Duration = Duration::from_secs(15);

/// What the watch routes share.
#[derive(Debug)]
pub(super) struct Watch {
    pub server: Arc<LsServer>,
    pub shared: Arc<Shared>,
    /// Cancelled when the server stops: open streams end then.
    pub stop: CancellationToken,
    /// MCP goes over stdio: no game is recorded as created here, so the list is empty.
    pub stdio: bool,
}

/// Why a watch request is not served; each is a status and a plain message (never a token).
#[derive(Debug, thiserror::Error)]
pub(super) enum WatchError {
    /// The path's id is not a number.
    #[error("'{0}' is not an adventurer id: use a decimal or 0x-hex number")]
    BadId(String),
    /// No such game in this world.
    #[error("adventurer {0} does not exist in this world")]
    Unknown(AdventurerId),
    /// Another identity's game.
    #[error("adventurer {0} does not belong to this identity")]
    NotYours(AdventurerId),
    /// The world could not be read.
    #[error("the game cannot be read now: {0}")]
    Read(String),
}

impl IntoResponse for WatchError {
    fn into_response(self) -> Response {
        let status = match self {
            Self::BadId(_) | Self::Unknown(_) => StatusCode::NOT_FOUND,
            Self::NotYours(_) => StatusCode::FORBIDDEN,
            Self::Read(_) => StatusCode::BAD_GATEWAY,
        };
        let body = format!("{self}\n");
        (
            status,
            [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
            body,
        )
            .into_response()
    }
}

/// The routes, to be put behind the gate.
pub(super) fn routes(watch: Arc<Watch>) -> Router {
    Router::new()
        .route("/watch", get(list))
        .route("/watch/{id}", get(page))
        .route("/watch/{id}/events", get(events))
        .with_state(watch)
}

impl Watch {
    fn guard(&self) -> Guarded {
        Guarded::new(self.server.clone(), self.shared.clone())
    }

    /// The adventurer's view, once the caller is known to be allowed to read it.
    async fn view(
        &self,
        identity: &Identity,
        raw: &str,
    ) -> Result<(AdventurerId, Value), WatchError> {
        let id = AdventurerId::parse(raw)
            .map_err(|_| WatchError::BadId(raw.chars().take(40).collect()))?;
        self.guard()
            .check(identity, id, "watch")
            .await
            .map_err(|e| match e.code {
                crate::error::ErrorCode::PolicyDenied => WatchError::NotYours(id),
                _ => WatchError::Read(e.message),
            })?;
        read(&self.server, id)
            .await?
            .map(|v| (id, v))
            .ok_or(WatchError::Unknown(id))
    }
}

async fn read(server: &LsServer, id: AdventurerId) -> Result<Option<Value>, WatchError> {
    server
        .adventurer_value(id)
        .await
        .map_err(|e| WatchError::Read(e.message))
}

/// `GET /watch`: the games created through this server that the caller may read, and a box to
/// open any id (`?id=`).
async fn list(
    State(w): State<Arc<Watch>>,
    Extension(identity): Extension<Identity>,
    RawQuery(query): RawQuery,
) -> Result<Response, WatchError> {
    let picked = query
        .as_deref()
        .and_then(|q| q.split('&').find_map(|kv| kv.strip_prefix("id=")))
        .map(|id| id.replace('+', " "))
        .filter(|id| !id.trim().is_empty());
    if let Some(id) = picked.as_deref().map(str::trim) {
        let id = AdventurerId::parse(id)
            .map_err(|_| WatchError::BadId(id.chars().take(40).collect()))?;
        return Ok(Redirect::to(&format!("/watch/{id}")).into_response());
    }
    let guard = w.guard();
    let world = guard
        .world()
        .await
        .map_err(|e| WatchError::Read(e.message))?;
    let judged = guard
        .ownership_world()
        .await
        .map_err(|e| WatchError::Read(e.message))?;
    let mut ids: Vec<AdventurerId> = w
        .shared
        .owners
        .games(&world)
        .into_iter()
        .map(|(id, _)| id)
        .chain(identity.granted.iter().copied())
        .filter(|id| guard.may_use(&identity, *id, judged.as_deref()))
        .collect();
    ids.sort();
    ids.dedup();
    let items: String = ids
        .iter()
        .map(|id| format!("<li><a href=\"/watch/{id}\">Adventurer #{id}</a></li>"))
        .collect();
    let items = if items.is_empty() {
        "<li class=\"none\">none yet</li>".to_string()
    } else {
        items
    };
    let whose = if w.stdio {
        "nothing: MCP is served on stdio, where no game is recorded as created through this page's \
         server"
            .to_string()
    } else if w.shared.open {
        "every game created through this server's MCP endpoint".to_string()
    } else {
        format!(
            "the games identity '{}' created through this server, and those granted to it",
            escape(&identity.name)
        )
    };
    Ok(Html(format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\
         <title>Loot Survivor games</title><style>body{{font:15px/1.4 system-ui,sans-serif;max-width:560px;\
         margin:16px auto;padding:0 12px}}.none{{color:#888}}</style></head><body><h1>Games to watch</h1>\
         <p>This list holds {whose} (ls_new_game over HTTP records who created each game). \
         Any other game this server may show: type its id.</p><ul>{items}</ul>\
         <form action=\"/watch\" method=\"get\"><input name=\"id\" placeholder=\"adventurer id\" size=\"12\"> \
         <button>Watch</button></form></body></html>"
    ))
    .into_response())
}

/// `GET /watch/{id}`: the sheet, rendered here; its script then follows `/watch/{id}/events`.
async fn page(
    State(w): State<Arc<Watch>>,
    Extension(identity): Extension<Identity>,
    Path(raw): Path<String>,
) -> Result<Html<String>, WatchError> {
    let (id, view) = w.view(&identity, &raw).await?;
    Ok(Html(live_page_html(
        &view,
        &[],
        &format!("/watch/{id}/events"),
    )))
}

/// `GET /watch/{id}/events`: `state` at connect and after each change of the adventurer; ends
/// when the client goes (the watcher is dropped with the stream) or the server stops.
async fn events(
    State(w): State<Arc<Watch>>,
    Extension(identity): Extension<Identity>,
    Path(raw): Path<String>,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, WatchError> {
    // Watch before the first read, so no change between the two is missed.
    let watcher = w.server.live().watch();
    w.server.watch_feed();
    let (id, view) = w.view(&identity, &raw).await?;
    let follow = Follow {
        server: w.server.clone(),
        stop: w.stop.clone(),
        watcher,
        id,
        last: Value::Null,
        events: Vec::new(),
        first: Some(view),
    };
    let stream = futures_util::stream::unfold(follow, |mut f| async move {
        let event = f.next().await?;
        Some((Ok(event), f))
    });
    Ok(Sse::new(stream).keep_alive(KeepAlive::new().interval(KEEP_ALIVE).text("alive")))
}

/// One open stream: the adventurer's last view and the lines of what changed.
struct Follow {
    server: Arc<LsServer>,
    stop: CancellationToken,
    watcher: Watcher,
    id: AdventurerId,
    last: Value,
    events: Vec<String>,
    first: Option<Value>,
}

impl Follow {
    /// The next `state` event, `None` when the stream should end.
    async fn next(&mut self) -> Option<Event> {
        if let Some(view) = self.first.take() {
            return Some(self.state(view));
        }
        loop {
            tokio::select! {
                _ = self.stop.cancelled() => return None,
                change = self.watcher.changes.recv() => match change {
                    Ok(Target::Adventurer(id)) if id == self.id => {}
                    Ok(_) => continue,
                    // Level triggers: having missed some, read again.
                    Err(RecvError::Lagged(_)) => {}
                    Err(RecvError::Closed) => return None,
                },
            }
            match read(&self.server, self.id).await {
                Ok(Some(view)) if view != self.last => return Some(self.state(view)),
                Ok(_) => {}
                Err(e) => {
                    tracing::debug!(adventurer_id = %self.id, error = %e, "watch: cannot read")
                }
            }
        }
    }

    fn state(&mut self, view: Value) -> Event {
        if let Some(line) = change_line(&self.last, &view) {
            self.events.push(line);
            let over = self.events.len().saturating_sub(EVENTS_KEPT);
            self.events.drain(..over);
        }
        let model = json!({ "adventurer": view, "events": self.events });
        self.last = view;
        Event::default().event("state").data(model.to_string())
    }
}

/// One line of what changed between two views (health, xp, level, gold, the beast, the phase);
/// `None` for the first view or when none of these changed.
fn change_line(old: &Value, new: &Value) -> Option<String> {
    if old.is_null() {
        return None;
    }
    let mut parts = Vec::new();
    for key in ["phase", "health", "xp", "level", "gold"] {
        if old[key] != new[key] {
            parts.push(format!("{key} {} → {}", plain(&old[key]), plain(&new[key])));
        }
    }
    let (ob, nb) = (&old["beast"], &new["beast"]);
    if ob["name"] != nb["name"] && nb.is_object() {
        parts.push(format!("beast {} appears", plain(&nb["name"])));
    } else if nb.is_object() && ob["health"] != nb["health"] {
        parts.push(format!(
            "beast health {} → {}",
            plain(&ob["health"]),
            plain(&nb["health"])
        ));
    }
    (!parts.is_empty()).then(|| parts.join(", "))
}

fn plain(v: &Value) -> String {
    match v {
        Value::String(s) => s.replace('_', " "),
        Value::Null => "–".into(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    /// A practice server with adventurer 1 started, its live page on a free loopback port.
    async fn served() -> (
        Arc<LsServer>,
        std::net::SocketAddr,
        tokio::sync::oneshot::Sender<()>,
    ) {
        let opts = chain::WriteOptions {
            confirm: chain::Confirm::Accepted,
            timeout: Duration::from_secs(1),
            hooks: chain::Hooks::default(),
        };
        let sim = sim::SimChain::new(game::engine::EngineSettings::default(), 1);
        let (id, _) = sim.mint_game(&opts).unwrap();
        let start = game::engine::Action::StartGame { weapon: 46 };
        sim.apply(id, &start, &opts).unwrap();
        let server = Arc::new(LsServer::on_sim(sim, true));
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let at = super::super::serve_watch(
            server.clone(),
            "127.0.0.1:0".parse().unwrap(),
            &Default::default(),
            async move {
                let _ = stopped.await;
            },
        )
        .await
        .unwrap();
        (server, at, stop)
    }

    /// Sends `GET path` and reads until `until` is seen (or 2 s pass); the open connection.
    async fn get(
        at: std::net::SocketAddr,
        path: &str,
        until: &str,
    ) -> (tokio::net::TcpStream, String) {
        let mut c = tokio::net::TcpStream::connect(at).await.unwrap();
        let req =
            format!("GET {path} HTTP/1.1\r\nHost: localhost\r\nAccept: text/event-stream\r\n\r\n");
        c.write_all(req.as_bytes()).await.unwrap();
        let mut seen = String::new();
        let mut buf = [0u8; 8192];
        while !seen.contains(until) {
            let read = tokio::time::timeout(Duration::from_secs(2), c.read(&mut buf)).await;
            let Ok(Ok(n @ 1..)) = read else { break };
            seen.push_str(&String::from_utf8_lossy(&buf[..n]));
        }
        (c, seen)
    }

    #[tokio::test]
    async fn a_stream_holds_one_watcher_until_its_client_goes() {
        let (server, at, stop) = served().await;
        let (_, refused) = get(at, "/watch/999/events", "\r\n\r\n").await;
        assert!(refused.starts_with("HTTP/1.1 404"), "{refused}");
        assert_eq!(
            server.live().watchers(),
            0,
            "a refused stream keeps no watcher"
        );
        let (client, seen) = get(at, "/watch/1/events", "event: state").await;
        assert!(
            seen.contains("text/event-stream") && seen.contains("event: state"),
            "{seen}"
        );
        assert_eq!(server.live().watchers(), 1);
        drop(client);
        let gone = async {
            while server.live().watchers() > 0 {
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
        };
        tokio::time::timeout(Duration::from_secs(2), gone)
            .await
            .expect("the watcher is dropped when the client goes");
        let _ = stop.send(());
    }

    #[test]
    fn a_change_is_one_line_of_what_moved() {
        let a = json!({"phase": "in_battle", "health": 100, "xp": 4, "beast": {"name": "Troll", "health": 30}});
        let b = json!({"phase": "in_battle", "health": 92, "xp": 4, "beast": {"name": "Troll", "health": 22}});
        assert_eq!(change_line(&Value::Null, &a), None);
        assert_eq!(change_line(&a, &a), None);
        assert_eq!(
            change_line(&a, &b).as_deref(),
            Some("health 100 → 92, beast health 30 → 22")
        );
        let c = json!({"phase": "exploring", "health": 92, "xp": 8, "beast": null});
        assert_eq!(
            change_line(&b, &c).as_deref(),
            Some("phase in battle → exploring, xp 4 → 8")
        );
    }
}
