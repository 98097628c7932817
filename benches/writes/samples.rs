//! What a run measures (latency, requests and the node's time per write) and the percentiles.

use std::collections::BTreeMap;
use std::time::Duration;

use crate::common;

/// Latencies and request counts per write tool.
#[derive(Default)]
pub(crate) struct Samples {
    pub(crate) latency: BTreeMap<&'static str, Vec<Duration>>,
    pub(crate) requests: BTreeMap<&'static str, Vec<usize>>,
    /// Through the proxy: the write's time less the node's answers (the client's own time).
    pub(crate) own: BTreeMap<&'static str, Vec<Duration>>,
    /// Every write in order, to check that the runs played the same games.
    pub(crate) order: Vec<&'static str>,
    /// The node's time per request of the game actions (not new games), by method.
    pub(crate) node: BTreeMap<String, Vec<Duration>>,
}

/// What the counting proxy saw of one write: requests and the time the node took on them.
pub(crate) struct Seen {
    pub(crate) requests: usize,
    pub(crate) node: Duration,
    /// The node's time on each request, by method.
    pub(crate) methods: Vec<(String, Duration)>,
}

impl Samples {
    pub(crate) fn add(&mut self, tool: &'static str, d: Duration, seen: Option<Seen>) {
        self.latency.entry(tool).or_default().push(d);
        self.order.push(tool);
        if let Some(seen) = seen {
            if tool != "ls_new_game" {
                for (method, d) in &seen.methods {
                    self.node.entry(method.clone()).or_default().push(*d);
                }
            }
            self.requests.entry(tool).or_default().push(seen.requests);
            self.own
                .entry(tool)
                .or_default()
                .push(d.saturating_sub(seen.node));
        }
    }
}

pub(crate) fn percentile(v: &[Duration], p: f64) -> Duration {
    let mut v = v.to_vec();
    v.sort();
    v[((v.len() as f64 - 1.0) * p).round() as usize]
}

pub(crate) fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

pub(crate) fn requests(f: &common::proxy::Faults) -> usize {
    f.seen.lock().unwrap().len()
}

/// The node's time on each request the proxy answered from the `from`-th on, by method.
pub(crate) fn node_times(f: &common::proxy::Faults, from: usize) -> Vec<(String, Duration)> {
    f.timings.lock().unwrap()[from..]
        .iter()
        .map(|(method, read, answered)| (method.clone(), *answered - *read))
        .collect()
}
