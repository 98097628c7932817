#!/usr/bin/env python3
"""Latency of hostile requests over stdio: for each case, the time until its answer and the time a
ping right after takes. Usage: scripts/bench-hostile.py [BINARY] [ROUNDS]
(default target/debug/loot-survivor-mcp, 5 rounds; prints the median and worst per case)."""

import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import queue

BIN = sys.argv[1] if len(sys.argv) > 1 else "target/debug/loot-survivor-mcp"
ROUNDS = int(sys.argv[2]) if len(sys.argv) > 2 else 5


def call(i, tool, args):
    return json.dumps({"jsonrpc": "2.0", "id": i, "method": "tools/call",
                       "params": {"name": tool, "arguments": args}}).encode()


MB = "w" * 1_000_000
CASES = [
    ("1 MB lookup query", lambda i: call(i, "ls_lookup", {"query": MB})),
    ("1 MB beast name", lambda i: call(i, "ls_battle_preview", {
        "adventurer_id": 1, "beast": {"beast": MB, "level": 1, "health": 1}})),
    ("10,000-item array", lambda i: call(i, "ls_equip", {"adventurer_id": 1, "items": ["Katana"] * 10_000})),
    ("32-char unknown name (full fuzzy search)", lambda i: call(i, "ls_lookup", {"query": "qz" * 16})),
    ("64-char unknown name", lambda i: call(i, "ls_lookup", {"query": "qz" * 32})),
    ("nesting depth 200", lambda i: ('{"jsonrpc":"2.0","id":%d,"method":"ping","params":{"x":%s1%s}}'
                                     % (i, "[" * 200, "]" * 200)).encode()),
    ("invalid UTF-8", lambda i: b'{"jsonrpc":"2.0","id":%d,"method":"ping","params":{"x":"\xff"}}' % i),
    ("NaN", lambda i: b'{"jsonrpc":"2.0","id":%d,"method":"ping","params":{"x":NaN}}' % i),
    ("2.5 MB line", lambda i: call(i, "ls_lookup", {"query": "z" * 2_500_000})),
    ("batch of 3", lambda i: json.dumps([{"jsonrpc": "2.0", "id": i, "method": "ping"}] * 3).encode()),
]


def main():
    home = tempfile.mkdtemp()
    p = subprocess.Popen([BIN], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                         env={**os.environ, "LS_HOME": home, "RUST_LOG": "warn"})
    out = queue.Queue()

    def reader():
        for line in p.stdout:
            out.put(json.loads(line))
    threading.Thread(target=reader, daemon=True).start()

    def send(b):
        p.stdin.write(b + b"\n")
        p.stdin.flush()

    def wait(i):
        while True:
            m = out.get(timeout=30)
            ms = m if isinstance(m, list) else [m]
            if any(x.get("id") == i for x in ms):
                return

    send(json.dumps({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}}).encode())
    wait(0)
    next_id = 1
    print(f"{BIN}, {ROUNDS} rounds; milliseconds (median / worst)")
    print(f"{'case':44} {'answer':>16} {'ping after':>16}")
    for name, make in CASES:
        answers, pings = [], []
        for _ in range(ROUNDS):
            i, next_id = next_id, next_id + 2
            msg = make(i)
            t = time.perf_counter()
            send(msg)
            wait(i)
            answers.append((time.perf_counter() - t) * 1000)
            t = time.perf_counter()
            send(json.dumps({"jsonrpc": "2.0", "id": i + 1, "method": "ping"}).encode())
            wait(i + 1)
            pings.append((time.perf_counter() - t) * 1000)
        fmt = lambda xs: f"{statistics.median(xs):7.2f} / {max(xs):7.2f}"
        print(f"{name:44} {fmt(answers):>16} {fmt(pings):>16}")
    p.stdin.close()
    p.wait(timeout=10)


if __name__ == "__main__":
    main()
