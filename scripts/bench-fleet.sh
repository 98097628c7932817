#!/usr/bin/env bash
# Fleet benchmark (a benchmark, not a test): N agent sessions at once through one
# `serve --http` server versus N stdio server processes (one per session), on sim and on a local
# starknet-devnet. Each session is a PyPI `mcp` client (tests/python/http_fleet.py) playing games:
# whole games on sim; on devnet games capped at DEVNET_ACTIONS actions (the cap keeps the run
# bounded on a shared machine). Prints a markdown table: games per minute, tool calls, p50/p95
# tool latency, and peak resident memory of the server process(es), in total and per session.
#
# On devnet one HTTP server signs for all sessions with one account (one nonce queue, one
# journal); the stdio processes each need their own account (a journal is locked by one process),
# so devnet is started with 21 predeployed accounts and stdio session i uses account i.
#
#   scripts/bench-fleet.sh                      # release build, sim 1 10 50, devnet 1 5 20
#   SIM_SIZES="1 10" DEVNET_SIZES="" scripts/bench-fleet.sh
#   SIM_SIZES=20 DEVNET_SIZES="" TRANSPORTS=http DURATION=60 scripts/bench-fleet.sh   # load
#
# With DURATION (seconds) each session plays games until it has passed instead of SIM_GAMES; the
# HTTP server's RSS is also read once it is ready (start) and before it is stopped (end), and the
# per-identity transaction limits are lifted. The Python clients run on the same cores as the
# server.
#
# Env: LS_BENCH_BIN (default target/release/loot-survivor-mcp, built if missing), SIM_SIZES,
# DEVNET_SIZES, DEVNET_ACTIONS (default 8), SIM_GAMES (games per sim session, default 1),
# TRANSPORTS (default "http stdio"), DURATION (seconds, default none).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BIN="${LS_BENCH_BIN:-$ROOT/target/release/loot-survivor-mcp}"
SIM_SIZES="${SIM_SIZES-1 10 50}"
DEVNET_SIZES="${DEVNET_SIZES-1 5 20}"
DEVNET_ACTIONS="${DEVNET_ACTIONS:-8}"
SIM_GAMES="${SIM_GAMES:-1}"
TRANSPORTS="${TRANSPORTS:-http stdio}"
DURATION="${DURATION:-}"
# A load run measures the server, not the per-identity rate limits (120 transactions a minute).
LIMITS=(env)
[ -n "$DURATION" ] && LIMITS=(env LS_HTTP__MAX_TX_PER_MINUTE=1000000 LS_HTTP__MAX_TX_PER_DAY=100000000)
CACHE="${LS_CACHE_DIR:-$HOME/.cache/loot-survivor-mcp}"
DEVNET_BIN="$CACHE/devnet-0.10.1/bin/starknet-devnet"
FLEET="$ROOT/tests/python/http_fleet.py"

log() { printf 'bench-fleet: %s\n' "$*" >&2; }

[ -x "$BIN" ] || (cd "$ROOT" && cargo build --release --bin loot-survivor-mcp)
PY="$("$ROOT/scripts/setup-python-client.sh")"
WORK="$(mktemp -d)"
# A copy under a unique path, so the memory sampler counts only this run's servers.
EXE="$WORK/lsmcp-bench"
cp "$BIN" "$EXE"
PIDS=()
cleanup() {
  for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
  rm -rf "$WORK"
}
trap cleanup EXIT

free_port() { "$PY" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# Tokens for 10 identities: hashes in tokens.toml, tokens in tokens.json (for the client).
"$PY" - "$EXE" "$WORK" <<'PYEOF'
import json, subprocess, sys
exe, work = sys.argv[1], sys.argv[2]
toml, toks = [], []
for i in range(10):
    out = subprocess.run([exe, "token", "new", "--identity", f"agent-{i}"], check=True, capture_output=True, text=True).stdout.splitlines()
    toks.append({"identity": f"agent-{i}", "token": out[1].strip()})
    toml += out[4:7]
open(f"{work}/tokens.toml", "w").write("\n".join(toml) + "\n")
json.dump(toks, open(f"{work}/tokens.json", "w"))
PYEOF

# Sums the RSS of every process running $EXE every 200 ms; writes the peak (KiB) to $1 when killed.
sample_rss() {
  local out="$1" peak=0
  trap 'echo "$peak" > "$out"; exit 0' TERM
  while :; do
    local sum=0
    for p in $(pgrep -f "^$EXE serve" || true); do
      local kb; kb=$(awk '/^VmRSS:/ {print $2}' "/proc/$p/status" 2>/dev/null || echo 0)
      sum=$((sum + ${kb:-0}))
    done
    [ "$sum" -gt "$peak" ] && peak=$sum
    sleep 0.2
  done
}

# The RSS of one process in MB (rounded), "-" if it is gone.
rss_mb() { awk '/^VmRSS:/ {printf "%.0f\n", $2 / 1024}' "/proc/$1/status" 2>/dev/null | grep . || echo "-"; }

wait_ready() {
  for _ in $(seq 1 300); do
    curl -fs "$1/readyz" >/dev/null 2>&1 && return 0
    sleep 0.1
  done
  log "server at $1 did not become ready"; return 1
}

ROWS=()
# run_case PROFILE TRANSPORT N [server args...]
run_case() {
  local profile="$1" transport="$2" n="$3"; shift 3
  local home="$WORK/home-$profile-$transport-$n" rssfile="$WORK/rss-$profile-$transport-$n"
  mkdir -p "$home"
  local extra=(--max-actions 400 --games "$SIM_GAMES")
  [ "$profile" = devnet ] && extra=(--max-actions "$DEVNET_ACTIONS")
  [ -n "$DURATION" ] && extra+=(--duration "$DURATION")
  local summary server_pid="" rss_start="-" rss_end="-"
  if [ "$transport" = http ]; then
    local port; port=$(free_port)
    LS_HOME="$home" LS_HTTP__TOKENS_FILE="$WORK/tokens.toml" RUST_LOG=warn "${LIMITS[@]}" \
      "$EXE" serve --http "127.0.0.1:$port" "$@" 2>"$home/server.log" &
    server_pid=$!; PIDS+=("$server_pid")
    wait_ready "http://127.0.0.1:$port"
    rss_start=$(rss_mb "$server_pid")
    sample_rss "$rssfile" & local sampler=$!
    summary=$("$PY" "$FLEET" --url "http://127.0.0.1:$port/mcp" --tokens "$WORK/tokens.json" \
      --sessions "$n" "${extra[@]}" 2>>"$home/client.log" || true)
    rss_end=$(rss_mb "$server_pid")
  else
    local accounts=()
    [ "$profile" = devnet ] && accounts=(--accounts "$WORK/accounts.json")
    sample_rss "$rssfile" & local sampler=$!
    summary=$(LS_HOME="$home" RUST_LOG=warn "$PY" "$FLEET" --stdio "$EXE" --stdio-args "serve $*" \
      --sessions "$n" "${accounts[@]}" "${extra[@]}" 2>>"$home/client.log" || true)
  fi
  kill "$sampler"; wait "$sampler" 2>/dev/null || true
  [ -n "$server_pid" ] && { kill "$server_pid"; wait "$server_pid" 2>/dev/null || true; }
  local peak; peak=$(cat "$rssfile" 2>/dev/null || echo 0)
  [ -n "$summary" ] || { log "$profile $transport $n: no summary (see $home/client.log)"; summary='{}'; }
  "$PY" -c 'import json, sys; [print("bench-fleet: failed:", f, file=sys.stderr) for f in json.loads(sys.argv[1]).get("failures", [])[:3]]' "$summary"
  ROWS+=("$("$PY" -c '
import json, sys
s = json.loads(sys.argv[1]); profile, transport, n, peak = sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
lat = s.get("latency_ms", {})
cells = [profile, transport, n, s.get("games", 0), s.get("games_per_minute", 0), s.get("calls", 0),
         s.get("calls_per_second", "-"), lat.get("p50", "-"), lat.get("p95", "-"), lat.get("p99", "-"),
         round(peak / 1024), round(peak / 1024 / n, 1), sys.argv[6], sys.argv[7],
         len(s.get("failures", []))]
print("| " + " | ".join(str(c) for c in cells) + " |")
'  "$summary" "$profile" "$transport" "$n" "$peak" "$rss_start" "$rss_end")")
  log "${ROWS[-1]}"
}

for n in $SIM_SIZES; do
  for t in $TRANSPORTS; do run_case sim "$t" "$n"; done
done

if [ -n "$DEVNET_SIZES" ]; then
  [ -x "$DEVNET_BIN" ] || { log "no devnet at $DEVNET_BIN: run scripts/install-devnet.sh"; exit 1; }
  DPORT=$(free_port)
  DURL="http://127.0.0.1:$DPORT/"
  "$DEVNET_BIN" --seed 0 --accounts 21 --host 127.0.0.1 --port "$DPORT" >/dev/null 2>&1 &
  PIDS+=($!)
  for _ in $(seq 1 100); do curl -fs "${DURL}is_alive" >/dev/null 2>&1 && break; sleep 0.2; done
  RUST_LOG=warn "$EXE" devnet deploy --profile devnet --rpc "$DURL" --out "$WORK/manifest.json" >/dev/null 2>&1
  curl -fs "$DURL" -H 'content-type: application/json' \
    -d '{"jsonrpc":"2.0","id":1,"method":"devnet_getPredeployedAccounts","params":{}}' |
    "$PY" -c 'import json,sys; a=json.load(sys.stdin)["result"]; json.dump([{"address":x["address"],"private_key":x["private_key"]} for x in a[1:]], open(sys.argv[1],"w"))' "$WORK/accounts.json"
  export LS_MANIFEST="$WORK/manifest.json"
  for n in $DEVNET_SIZES; do
    for t in $TRANSPORTS; do run_case devnet "$t" "$n" --profile devnet --rpc-url "$DURL"; done
  done
fi

echo "| profile | transport | sessions | games | games/min | tool calls | calls/s | p50 ms | p95 ms | p99 ms | peak RSS MB | RSS/session MB | RSS start MB | RSS end MB | failed sessions |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
printf '%s\n' "${ROWS[@]}"
echo
SIM_RUN="whole games ($SIM_GAMES per session)"
[ -n "$DURATION" ] && SIM_RUN="games for $DURATION s per session"
echo "sim: $SIM_RUN; devnet: games capped at $DEVNET_ACTIONS actions; server $BIN; Python clients on the same $(nproc) cores; $(date -u +%Y-%m-%d)"
