#!/usr/bin/env bash
# Benchmark (not a test), release build: on devnet, whole games through our server and through a
# plain starknet-rs client making the same calls, straight and through the counting proxy (p50/p95
# per write tool, requests per write per method); transaction following by subscription against
# polling on 1 s blocks; reads against their captured requests replayed raw plus an MCP ping.
# Sizes: BENCH_GAMES (8), BENCH_READS (300), BENCH_FOLLOW_WRITES (30).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-devnet.sh >/dev/null
cargo bench --locked --bench writes
