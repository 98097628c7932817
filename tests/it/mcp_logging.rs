//! The MCP `logging` capability through a real rmcp client: nothing before `logging/setLevel`,
//! then the server's log messages at or above the level arrive as `notifications/message`.
//! The server is the real binary on sim over stdio, a process of its own: log forwarding is
//! process-wide (every subscribed client gets the process's events), so an in-process server
//! here would forward the other tests' in-process servers' logs too, and its `tracing`
//! subscriber would be installed for the whole test binary.
#![allow(deprecated)]

use std::time::Duration;

use crate::common;

use common::BIN;
use common::mcp::{read_text, sim_server_with};
use rmcp::ClientHandler;
use rmcp::model::{
    ClientConfig, LoggingLevel, LoggingMessageNotificationParam, SetLevelRequestParams,
};
use rmcp::service::{NotificationContext, RoleClient, RunningService};
use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender, unbounded_channel};

/// A client that keeps every log message it receives.
struct Collector(UnboundedSender<LoggingMessageNotificationParam>);

impl ClientHandler for Collector {
    fn get_info(&self) -> ClientConfig {
        ClientConfig::default()
    }

    async fn on_logging_message(
        &self,
        params: LoggingMessageNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        let _ = self.0.send(params);
    }
}

type Client = RunningService<RoleClient, Collector>;

async fn connect(
    home: &std::path::Path,
) -> (Client, UnboundedReceiver<LoggingMessageNotificationParam>) {
    let (tx, rx) = unbounded_channel();
    let (client, _) = sim_server_with(BIN, home, &[], &[], Collector(tx)).await;
    (client, rx)
}

async fn next(
    rx: &mut UnboundedReceiver<LoggingMessageNotificationParam>,
) -> LoggingMessageNotificationParam {
    tokio::time::timeout(Duration::from_secs(10), rx.recv())
        .await
        .expect("a log message within 10 s")
        .expect("channel open")
}

#[tokio::test]
async fn set_level_then_messages_arrive_filtered_by_level() {
    let home = tempfile::tempdir().unwrap();
    let (c, mut rx) = connect(home.path()).await;
    assert!(c.peer_info().unwrap().capabilities.logging.is_some());
    assert!(rx.try_recv().is_err(), "nothing before the client asks");

    c.set_level(SetLevelRequestParams::new(LoggingLevel::Debug))
        .await
        .unwrap();
    let m = next(&mut rx).await;
    assert_eq!(m.level, LoggingLevel::Info);
    assert!(
        m.data["message"]
            .as_str()
            .unwrap()
            .contains("log level set"),
        "{m:?}"
    );
    assert!(
        m.logger
            .as_deref()
            .unwrap()
            .starts_with("loot_survivor_mcp")
    );

    read_text(&c, "ls://rules").await.unwrap();
    let m = next(&mut rx).await;
    assert_eq!(m.level, LoggingLevel::Debug);
    assert_eq!(m.data["uri"], "ls://rules", "{m:?}");

    // At warning, neither the info confirmation nor the debug read is sent.
    c.set_level(SetLevelRequestParams::new(LoggingLevel::Warning))
        .await
        .unwrap();
    read_text(&c, "ls://rules").await.unwrap();
    c.set_level(SetLevelRequestParams::new(LoggingLevel::Info))
        .await
        .unwrap();
    let m = next(&mut rx).await;
    assert_eq!(
        m.level,
        LoggingLevel::Info,
        "the debug read was filtered: {m:?}"
    );
    assert!(
        m.data["message"]
            .as_str()
            .unwrap()
            .contains("log level set")
    );
    c.cancel().await.ok();
}
