#!/usr/bin/env bash
# What hosts pay for our schemas, in one run: the TypeScript MCP SDK client (npm
# @modelcontextprotocol/sdk, what Claude Code and Claude Desktop use) and the Python MCP SDK (PyPI
# mcp) each start the server binary on sim and report listTools time (median of RUNS), warnings
# printed (Ajv's "unknown format" warnings counted apart), and the time to validate one write
# result (ls_explore, compact and full) against its output schema with the client's own validator.
# Targets: listTools <= 100 ms with no warnings, validation <= 2 ms. Both clients are installed
# into the cache (~/.cache/loot-survivor-mcp), never into the repo.
#
#   scripts/bench-schemas.sh [RUNS]     default 20; builds the release binary
#   LS_BIN=path                         use this server binary instead
set -euo pipefail
RUNS="${1:-20}"
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
CACHE="${LS_CACHE_DIR:-$HOME/.cache/loot-survivor-mcp}"
NODE_DIR="$CACHE/node-bench"
mkdir -p "$NODE_DIR"
(
  flock 9
  if [ ! -d "$NODE_DIR/node_modules/@modelcontextprotocol/sdk" ]; then
    [ -f "$NODE_DIR/package.json" ] || echo '{"name":"ls-bench","private":true}' > "$NODE_DIR/package.json"
    npm install --prefix "$NODE_DIR" --silent --no-audit --no-fund @modelcontextprotocol/sdk@1.32.2 >&2
  fi
) 9>"$NODE_DIR.lock"
PY="$("$ROOT/scripts/py-bench.sh")"
cd "$ROOT"
if [ -z "${LS_BIN:-}" ]; then
  cargo build --release --bin loot-survivor-mcp >&2
  LS_BIN="${CARGO_TARGET_DIR:-$ROOT/target}/release/loot-survivor-mcp"
fi
export LS_HOME="$(mktemp -d)" RUST_LOG=warn
trap 'rm -rf "$LS_HOME"' EXIT
NODE_PATH="$NODE_DIR/node_modules" node scripts/bench_schemas.cjs "$LS_BIN" "$RUNS"
"$PY" scripts/bench_schemas.py "$LS_BIN" "$RUNS"
