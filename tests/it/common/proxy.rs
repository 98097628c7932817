//! A JSON-RPC proxy between the server and devnet that injects faults on chosen methods: delays,
//! dropped connections, 429 and 503 answers, and a connection cut after forwarding a request.
//! WebSocket upgrades (transaction subscriptions) are counted as `ws` and tunnelled untouched.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// One injected fault.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// Wait this long, then forward normally.
    Delay(Duration),
    /// Close the connection without forwarding or answering.
    Drop,
    /// Answer HTTP 429 with a text body, without forwarding.
    TooManyRequests,
    /// Answer HTTP 503 with a text body, without forwarding.
    Unavailable,
    /// Forward the request to devnet, then close the connection without answering.
    CutAfterForward,
    /// Answer with the last answer to an identical request (a lagging replica), if any.
    Stale,
}

/// Faults queued per JSON-RPC method, and a log of what was seen.
#[derive(Debug, Default)]
pub struct Faults {
    queue: Mutex<Vec<(String, VecDeque<Fault>)>>,
    answers: Mutex<std::collections::HashMap<Vec<u8>, Vec<u8>>>,
    /// (method, fault applied) for every request, in order.
    pub seen: Mutex<Vec<(String, Option<Fault>)>>,
    /// The body of every request, in order (benchmarks replay them raw).
    pub bodies: Mutex<Vec<Vec<u8>>>,
    /// Each forwarded request's method, when it was read whole and when its answer was written
    /// (benchmarks split a write's time into the client's own and the node's).
    pub timings: Mutex<Vec<(String, std::time::Instant, std::time::Instant)>>,
}

impl Faults {
    /// Queues faults for the next requests of `method`.
    pub fn inject(&self, method: &str, faults: &[Fault]) {
        let mut q = self.queue.lock().unwrap();
        match q.iter_mut().find(|(m, _)| m == method) {
            Some((_, v)) => v.extend(faults),
            None => q.push((method.to_string(), faults.iter().copied().collect())),
        }
    }

    fn take(&self, method: &str) -> Option<Fault> {
        let mut q = self.queue.lock().unwrap();
        q.iter_mut()
            .find(|(m, _)| m == method)
            .and_then(|(_, v)| v.pop_front())
    }

    /// How many requests of `method` reached the proxy.
    pub fn count(&self, method: &str) -> usize {
        self.seen
            .lock()
            .unwrap()
            .iter()
            .filter(|(m, _)| m == method)
            .count()
    }

    /// How many requests of `method` were forwarded to devnet.
    pub fn forwarded(&self, method: &str) -> usize {
        self.seen
            .lock()
            .unwrap()
            .iter()
            .filter(|(m, f)| {
                m == method
                    && matches!(
                        f,
                        None | Some(Fault::Delay(_)) | Some(Fault::CutAfterForward)
                    )
            })
            .count()
    }
}

/// Starts the proxy on 127.0.0.1; returns its URL and the fault controls.
pub async fn start(upstream: url::Url) -> (url::Url, Arc<Faults>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind proxy");
    let url: url::Url = format!("http://{}/", listener.local_addr().unwrap())
        .parse()
        .unwrap();
    let faults = Arc::new(Faults::default());
    let f = faults.clone();
    tokio::spawn(async move {
        loop {
            let Ok((sock, _)) = listener.accept().await else {
                return;
            };
            tokio::spawn(serve_connection(sock, upstream.clone(), f.clone()));
        }
    });
    (url, faults)
}

async fn serve_connection(mut sock: TcpStream, upstream: url::Url, faults: Arc<Faults>) {
    // Without TCP_NODELAY a small answer waits on the client's delayed ACK (~40 ms), which would
    // measure the proxy instead of the server. reqwest sets it on the upstream socket already.
    let _ = sock.set_nodelay(true);
    let http = reqwest::Client::builder()
        .tcp_nodelay(true)
        .build()
        .expect("proxy http client");
    let mut buf = Vec::new();
    loop {
        let Some((head_len, body_len)) = read_request(&mut sock, &mut buf).await else {
            return;
        };
        let head = String::from_utf8_lossy(&buf[..head_len]).to_lowercase();
        if head.contains("upgrade: websocket") {
            // A WebSocket (a transaction subscription): counted as `ws`, then tunnelled as is.
            faults.seen.lock().unwrap().push(("ws".into(), None));
            faults.bodies.lock().unwrap().push(Vec::new());
            let addr = format!(
                "{}:{}",
                upstream.host_str().unwrap_or("127.0.0.1"),
                upstream.port_or_known_default().unwrap_or(80)
            );
            let Ok(mut up) = TcpStream::connect(addr).await else {
                return;
            };
            let _ = up.set_nodelay(true);
            if up.write_all(&buf).await.is_err() {
                return;
            }
            let _ = tokio::io::copy_bidirectional(&mut sock, &mut up).await;
            return;
        }
        let body: Vec<u8> = buf[head_len..head_len + body_len].to_vec();
        buf.drain(..head_len + body_len);
        let method = serde_json::from_slice::<Value>(&body)
            .ok()
            .and_then(|v| v["method"].as_str().map(str::to_string))
            .unwrap_or_default();
        let read_at = std::time::Instant::now();
        let fault = faults.take(&method);
        faults.seen.lock().unwrap().push((method.clone(), fault));
        faults.bodies.lock().unwrap().push(body.clone());
        match fault {
            Some(Fault::Drop) => return,
            Some(Fault::TooManyRequests) => {
                let _ = respond(
                    &mut sock,
                    "429 Too Many Requests",
                    "text/plain",
                    b"rate limited",
                )
                .await;
                continue;
            }
            Some(Fault::Unavailable) => {
                let _ = respond(
                    &mut sock,
                    "503 Service Unavailable",
                    "text/plain",
                    b"upstream down",
                )
                .await;
                continue;
            }
            Some(Fault::Delay(d)) => tokio::time::sleep(d).await,
            Some(Fault::Stale) => {
                let old = faults
                    .answers
                    .lock()
                    .unwrap()
                    .get(&strip_id(&body))
                    .cloned();
                if let Some(old) = old {
                    let old = with_id(&old, &body);
                    if respond(&mut sock, "200 OK", "application/json", &old)
                        .await
                        .is_err()
                    {
                        return;
                    }
                    continue;
                }
            }
            _ => {}
        }
        let answer = http
            .post(upstream.clone())
            .header("content-type", "application/json")
            .body(body.clone())
            .send()
            .await;
        if fault == Some(Fault::CutAfterForward) {
            return;
        }
        let Ok(answer) = answer else { return };
        let Ok(bytes) = answer.bytes().await else {
            return;
        };
        faults
            .answers
            .lock()
            .unwrap()
            .insert(strip_id(&body), bytes.to_vec());
        if respond(&mut sock, "200 OK", "application/json", &bytes)
            .await
            .is_err()
        {
            return;
        }
        faults
            .timings
            .lock()
            .unwrap()
            .push((method, read_at, std::time::Instant::now()));
    }
}

/// The request without its JSON-RPC id, as a cache key.
fn strip_id(body: &[u8]) -> Vec<u8> {
    match serde_json::from_slice::<Value>(body) {
        Ok(mut v) => {
            v["id"] = Value::Null;
            serde_json::to_vec(&v).unwrap_or_default()
        }
        Err(_) => body.to_vec(),
    }
}

/// An old answer re-labelled with the id of the current request.
fn with_id(answer: &[u8], request: &[u8]) -> Vec<u8> {
    let id = serde_json::from_slice::<Value>(request)
        .map(|v| v["id"].clone())
        .unwrap_or(Value::Null);
    match serde_json::from_slice::<Value>(answer) {
        Ok(mut v) => {
            v["id"] = id;
            serde_json::to_vec(&v).unwrap_or_default()
        }
        Err(_) => answer.to_vec(),
    }
}

/// Reads one HTTP/1.1 request into `buf`; returns (head length, body length).
async fn read_request(sock: &mut TcpStream, buf: &mut Vec<u8>) -> Option<(usize, usize)> {
    let mut chunk = [0u8; 8192];
    loop {
        if let Some(end) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&buf[..end]).to_lowercase();
            let len = head
                .lines()
                .find_map(|l| l.strip_prefix("content-length:"))
                .and_then(|v| v.trim().parse::<usize>().ok())
                .unwrap_or(0);
            while buf.len() < end + 4 + len {
                let n = sock.read(&mut chunk).await.ok()?;
                if n == 0 {
                    return None;
                }
                buf.extend_from_slice(&chunk[..n]);
            }
            return Some((end + 4, len));
        }
        let n = sock.read(&mut chunk).await.ok()?;
        if n == 0 {
            return None;
        }
        buf.extend_from_slice(&chunk[..n]);
    }
}

async fn respond(
    sock: &mut TcpStream,
    status: &str,
    ctype: &str,
    body: &[u8],
) -> std::io::Result<()> {
    let mut answer = format!(
        "HTTP/1.1 {status}\r\ncontent-type: {ctype}\r\ncontent-length: {}\r\n\r\n",
        body.len()
    )
    .into_bytes();
    answer.extend_from_slice(body);
    sock.write_all(&answer).await?;
    sock.flush().await
}
