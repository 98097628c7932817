#!/usr/bin/env bash
# Benchmark (not a test): per-action latency p50/p95 and JSON-RPC requests per write on devnet,
# for our server next to a plain starknet-rs client doing the same calls, in one run.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-devnet.sh >/dev/null
cargo bench --locked --bench writes
