#!/usr/bin/env bash
# Times what an MCP client waits for when it starts the server as the README's Claude config does
# (the binary, no arguments, stdio): spawn → `initialize` answered, and → `tools/list` answered.
# Runs from a temporary working directory with a temporary LS_HOME. Prints milliseconds.
#   scripts/bench-startup.sh [BINARY] [RUNS]     (default: target/release/loot-survivor-mcp, 20 runs)
set -euo pipefail
cd "$(dirname "$0")/.."
BIN="${1:-target/release/loot-survivor-mcp}"
RUNS="${2:-20}"
if [ ! -x "$BIN" ]; then
  echo "building $BIN (release)" >&2
  cargo build --release --locked --quiet --bin loot-survivor-mcp >&2
fi
BIN="$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")"
python3 - "$BIN" "$RUNS" <<'PY'
import json, os, statistics, subprocess, sys, tempfile, time

binary, runs = sys.argv[1], int(sys.argv[2])
init = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {},
    "clientInfo": {"name": "bench-startup", "version": "0"}}}
initialized = {"jsonrpc": "2.0", "method": "notifications/initialized"}
tools = {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}

def once():
    with tempfile.TemporaryDirectory() as home, tempfile.TemporaryDirectory() as cwd:
        env = {k: v for k, v in os.environ.items() if k not in ("RUST_LOG", "LS_CHAIN")}
        env["LS_HOME"] = home
        t0 = time.perf_counter()
        p = subprocess.Popen([binary], cwd=cwd, env=env, stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        p.stdin.write(json.dumps(init) + "\n"); p.stdin.flush()
        answer = json.loads(p.stdout.readline())
        t_init = time.perf_counter() - t0
        assert answer.get("id") == 1 and "result" in answer, answer
        p.stdin.write(json.dumps(initialized) + "\n" + json.dumps(tools) + "\n"); p.stdin.flush()
        listed = json.loads(p.stdout.readline())
        t_tools = time.perf_counter() - t0
        assert listed.get("id") == 2 and listed["result"]["tools"], listed
        p.stdin.close(); p.wait(timeout=10)
        return t_init * 1000, t_tools * 1000

samples = [once() for _ in range(runs)]
for i, name in enumerate(["initialize", "initialize + tools/list"]):
    xs = sorted(s[i] for s in samples)
    print(f"{name}: median {statistics.median(xs):.1f} ms, max {xs[-1]:.1f} ms over {runs} runs")
print(f"binary: {binary}")
PY
