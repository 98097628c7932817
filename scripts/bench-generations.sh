#!/usr/bin/env bash
# Tokens of second-generation (v2) results next to the Dojo world's (v1), same player, same game
# length: starts a fresh starknet-devnet (seed 0) on a free port, deploys the v1 practice world
# and the v2 one (VRF off), and runs scripts/bench_generations.py with the PyPI `mcp` client and
# tiktoken's cl100k_base (the venv of scripts/bench-tokens.sh, in the cache).
#
#   scripts/bench-generations.sh [ACTIONS]     default 30
set -euo pipefail
ACTIONS="${1:-30}"
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
DEVNET="$(scripts/install-devnet.sh)"
PY="$(scripts/py-bench.sh)"
cargo build --release --locked --quiet >&2
BIN="$ROOT/target/release/loot-survivor-mcp"
WORK="$(mktemp -d)"
PORT="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
"$DEVNET" --seed 0 --host 127.0.0.1 --port "$PORT" >"$WORK/devnet.log" 2>&1 &
DEVNET_PID=$!
trap 'kill $DEVNET_PID 2>/dev/null; rm -rf "$WORK"' EXIT
RPC="http://127.0.0.1:$PORT"
for _ in $(seq 100); do
  curl -sf "$RPC/is_alive" >/dev/null && break
  sleep 0.1
done
export LS_HOME="$WORK/home"
"$BIN" devnet deploy --profile devnet --rpc "$RPC" --out "$WORK/manifest.json" >&2
"$BIN" devnet deploy --profile devnet --rpc "$RPC" --generation v2 --vrf off --out "$WORK/v2.json" >&2
"$PY" scripts/bench_generations.py --server-bin "$BIN" --rpc-url "$RPC" \
  --v1 "$WORK/manifest.json" --v2 "$WORK/v2.json" --actions "$ACTIONS"
