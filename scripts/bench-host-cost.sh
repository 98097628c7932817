#!/usr/bin/env bash
# What a host pays per game for a client that follows the advice line, for the two variants of
# the server side by side: "single-step" (today's advice, one step a call) and "combined" (the
# advice names combined moves, one call per decision).
#
# Method: `cargo bench --bench host_cost` plays HOST_BENCH_GAMES hidden-seed dungeons
# (HOST_BENCH_SEED, the four starting weapons in turn) on each variant, in process over MCP, with
# a client that reads only each compact result's text and calls what its `advice` names; it prints
# the tool definitions and every call's request and result text. scripts/bench_host_cost.py
# counts them with tiktoken's cl100k_base (offline, as scripts/bench-tokens.sh installs it) and
# prints calls, result tokens and host input tokens per game (the tool definitions and the whole
# history before each model turn, summed over the turns), the level and the error results.
#
#   scripts/bench-host-cost.sh             HOST_BENCH_GAMES (default 40), HOST_BENCH_SEED (7919)
#   CARGO_TARGET_DIR=...                   reuse a warm release build
#   BENCH_PROFILE=dev                      build the bench in the dev profile (the numbers are the same)
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
PY="$("$ROOT/scripts/py-bench.sh")"
cd "$ROOT"
"$PY" -m doctest scripts/bench_host_cost.py
export LS_HOME="$(mktemp -d)"
trap 'rm -rf "$LS_HOME"' EXIT
cargo bench --profile "${BENCH_PROFILE:-bench}" --bench host_cost | "$PY" scripts/bench_host_cost.py
