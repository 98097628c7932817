#!/usr/bin/env python3
"""Many agent sessions at once against one loot-survivor-mcp over streamable HTTP (PyPI `mcp` 2.x).

Each session opens its own streamable HTTP connection with its own bearer token, starts a game and
plays it to the adventurer's death (or --max-actions): attack to the death in battle, spend stat
points (read with detail "full"), explore until a beast otherwise. With --cross-check, once every
session has its adventurer, each one tries to read and to act on the next session's adventurer
(both must fail with POLICY_DENIED, unless the two sessions share an identity) and checks that
ls_list_adventurers shows it only its own games.

    python http_fleet.py --url http://127.0.0.1:8080/mcp --tokens tokens.json --sessions 50

tokens.json: [{"identity": "agent-0", "token": "..."}, ...]; session i uses entry i % len.

With --stdio BIN instead of --url, each session starts its own server process over stdio
(`BIN <--stdio-args>`, the environment passed on), for comparing N stdio processes with one HTTP
server (scripts/bench-fleet.sh); --accounts gives session i the account i of a JSON list of
{address, private_key} (LS_ACCOUNT_ADDRESS / LS_PRIVATE_KEY): one journal per account, one
process per journal.
With --duration S, each session plays games until S seconds have passed (stopping between two
calls) instead of --games.
Prints one JSON line: games, deaths, actions, calls, calls_per_second, elapsed_s,
games_per_minute, latency_ms {p50, p95, p99} per tool call, cross-identity refusals, and failures
(session errors). The clients run on the server's machine: they share its cores. Exits 1 if any session
failed or a cross-identity attempt was not refused.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import sys
import time
from typing import Any

import anyio
import mcp.types as types
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

STATS = ("strength", "vitality", "dexterity", "charisma", "intelligence", "wisdom")
MAX_STAT = 31
CALL_TIMEOUT_S = 120.0


class Failed(Exception):
    """A check on the server's behaviour failed."""


class Fleet:
    """State shared by the sessions: latencies, adventurers, the cross-check rendezvous."""

    def __init__(self, n: int) -> None:
        self.latencies: list[float] = []
        self.adventurers: dict[int, tuple[str, int]] = {}
        self.ready = anyio.Event()
        self.n = n
        self.games = 0
        self.deaths = 0
        self.actions = 0
        self.refusals = 0
        self.failures: list[str] = []
        self.deadline: float | None = None

    def over(self) -> bool:
        """Whether a --duration run has reached its end."""
        return self.deadline is not None and time.perf_counter() >= self.deadline

    def arrived(self, i: int, identity: str, adventurer_id: int) -> None:
        self.adventurers[i] = (identity, adventurer_id)
        if len(self.adventurers) + len(self.failures) >= self.n:
            self.ready.set()


async def call(session: ClientSession, fleet: Fleet, tool: str, args: dict[str, Any]) -> tuple[bool, dict[str, Any]]:
    t0 = time.perf_counter()
    result = await session.call_tool(tool, args, read_timeout_seconds=CALL_TIMEOUT_S)
    fleet.latencies.append((time.perf_counter() - t0) * 1000.0)
    texts = [c.text for c in result.content if isinstance(c, types.TextContent)]
    payload = json.loads("".join(texts)) if texts else {}
    return bool(result.is_error), payload


async def ok(session: ClientSession, fleet: Fleet, tool: str, args: dict[str, Any]) -> dict[str, Any]:
    err, payload = await call(session, fleet, tool, args)
    if err:
        raise Failed(f"{tool} {args}: {json.dumps(payload)[:600]}")
    return payload


async def upgrade(session: ClientSession, fleet: Fleet, adventurer_id: int) -> None:
    full = await ok(session, fleet, "ls_get_adventurer", {"adventurer_id": adventurer_id, "detail": "full"})
    adv = full["adventurer"]
    stats, points = dict(adv["stats"]), adv["stat_upgrades_available"]
    add = dict.fromkeys(STATS, 0)
    for k in range(points):
        for stat in STATS[k % 2 :] + STATS[: k % 2]:
            if stats.get(stat, 0) + add[stat] < MAX_STAT:
                add[stat] += 1
                break
    await ok(session, fleet, "ls_upgrade", {"adventurer_id": adventurer_id, **add})


async def play(session: ClientSession, fleet: Fleet, max_actions: int) -> int:
    out = await ok(session, fleet, "ls_new_game", {"weapon": "Short Sword"})
    adventurer_id = out["adventurer_id"]
    state = out["state"]
    actions = 0
    while state["phase"] != "dead" and actions < max_actions and not fleet.over():
        phase = state["phase"]
        if phase == "in_battle":
            out = await ok(session, fleet, "ls_attack", {"adventurer_id": adventurer_id, "to_the_death": True})
        elif phase == "stat_upgrade":
            await upgrade(session, fleet, adventurer_id)
            out = await ok(session, fleet, "ls_get_adventurer", {"adventurer_id": adventurer_id})
        elif phase == "exploring":
            out = await ok(session, fleet, "ls_explore", {"adventurer_id": adventurer_id, "till_beast": True})
        else:
            raise Failed(f"adventurer {adventurer_id}: unexpected phase {phase!r}")
        state = out["state"]
        actions += 1
    fleet.games += 1
    fleet.actions += actions
    fleet.deaths += state["phase"] == "dead"
    return adventurer_id


async def cross_check(session: ClientSession, fleet: Fleet, i: int, identity: str, own: int) -> None:
    with anyio.fail_after(600):
        await fleet.ready.wait()
    others = [k for k in sorted(fleet.adventurers) if k != i]
    if not others:
        return
    other_identity, other = fleet.adventurers[min(others, key=lambda k: (k - i) % fleet.n)]
    if other_identity != identity:
        for tool, args in (
            ("ls_get_adventurer", {"adventurer_id": other}),
            ("ls_explore", {"adventurer_id": other}),
        ):
            err, payload = await call(session, fleet, tool, args)
            code = payload.get("error", {}).get("code")
            if not err or code != "POLICY_DENIED":
                raise Failed(f"{identity} {tool} on {other_identity}'s adventurer {other}: not refused: {json.dumps(payload)[:400]}")
            fleet.refusals += 1
    listed = await ok(session, fleet, "ls_list_adventurers", {})
    ids = {a["adventurer_id"] for a in listed.get("adventurers", [])}
    if own not in ids:
        raise Failed(f"{identity}: ls_list_adventurers misses its own adventurer {own}: {sorted(ids)}")
    foreign = [a for k, (who, a) in fleet.adventurers.items() if who != identity and a in ids]
    if foreign:
        raise Failed(f"{identity}: ls_list_adventurers shows other identities' adventurers {foreign}")


async def run_session(session: ClientSession, i: int, identity: str, fleet: Fleet, args: argparse.Namespace) -> int:
    await session.initialize()
    own = -1
    played = 0
    while (played < args.games) if fleet.deadline is None else not fleet.over():
        own = await play(session, fleet, args.max_actions)
        played += 1
    fleet.arrived(i, identity, own)
    if args.cross_check:
        await cross_check(session, fleet, i, identity, own)
    return own


async def session_run(i: int, url: str, entry: dict[str, str], fleet: Fleet, args: argparse.Namespace) -> None:
    identity = entry["identity"]
    own = None
    try:
        if args.stdio:
            env = dict(os.environ)
            if args.accounts:
                account = args.accounts[i % len(args.accounts)]
                env["LS_ACCOUNT_ADDRESS"] = account["address"]
                env["LS_PRIVATE_KEY"] = account["private_key"]
            server = StdioServerParameters(command=args.stdio, args=shlex.split(args.stdio_args), env=env)
            with open(os.devnull, "w") as devnull:
                async with stdio_client(server, errlog=devnull) as (read, write):
                    async with ClientSession(read, write) as session:
                        own = await run_session(session, i, identity, fleet, args)
        else:
            client = create_mcp_http_client(headers={"Authorization": f"Bearer {entry['token']}"})
            async with client, streamable_http_client(url, http_client=client) as (read, write):
                async with ClientSession(read, write) as session:
                    own = await run_session(session, i, identity, fleet, args)
    except Exception as e:  # noqa: BLE001 - every failure is reported, not raised
        while isinstance(e, BaseExceptionGroup) and len(e.exceptions) == 1:
            e = e.exceptions[0]
        fleet.failures.append(f"session {i} ({identity}): {type(e).__name__}: {e}")
        if own is None and len(fleet.adventurers) + len(fleet.failures) >= fleet.n:
            fleet.ready.set()


def percentile(values: list[float], p: float) -> float:
    if not values:
        return 0.0
    s = sorted(values)
    return round(s[min(len(s) - 1, int(p / 100.0 * len(s)))], 1)


async def main(args: argparse.Namespace) -> int:
    tokens = [{"identity": "stdio", "token": ""}]
    if args.tokens:
        with open(args.tokens) as f:
            tokens = json.load(f)
    if args.accounts:
        with open(args.accounts) as f:
            args.accounts = json.load(f)
    fleet = Fleet(args.sessions)
    start = time.perf_counter()
    if args.duration:
        fleet.deadline = start + args.duration
    async with anyio.create_task_group() as tg:
        for i in range(args.sessions):
            tg.start_soon(session_run, i, args.url, tokens[i % len(tokens)], fleet, args)
    elapsed = time.perf_counter() - start
    summary = {
        "sessions": args.sessions,
        "games": fleet.games,
        "deaths": fleet.deaths,
        "actions": fleet.actions,
        "calls": len(fleet.latencies),
        "calls_per_second": round(len(fleet.latencies) / elapsed, 1) if elapsed > 0 else 0.0,
        "elapsed_s": round(elapsed, 2),
        "games_per_minute": round(fleet.games / elapsed * 60.0, 1) if elapsed > 0 else 0.0,
        "latency_ms": {"p50": percentile(fleet.latencies, 50), "p95": percentile(fleet.latencies, 95),
                       "p99": percentile(fleet.latencies, 99)},
        "cross_identity_refusals": fleet.refusals,
        "adventurers": {str(k): v[1] for k, v in sorted(fleet.adventurers.items())},
        "failures": fleet.failures[:20],
    }
    print(json.dumps(summary), flush=True)
    return 1 if fleet.failures else 0


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--url", help="the server's /mcp URL (HTTP mode)")
    p.add_argument("--tokens", help="JSON list of {identity, token} (HTTP mode)")
    p.add_argument("--stdio", help="server binary: one stdio process per session instead of HTTP")
    p.add_argument("--stdio-args", default="serve", help="the server's arguments in --stdio mode")
    p.add_argument("--accounts", help="JSON list of {address, private_key}, one per stdio session")
    p.add_argument("--sessions", type=int, default=1)
    p.add_argument("--games", type=int, default=1, help="games per session")
    p.add_argument("--max-actions", type=int, default=400)
    p.add_argument("--duration", type=float, default=0, help="play for this many seconds instead of --games")
    p.add_argument("--cross-check", action="store_true")
    sys.exit(anyio.run(main, p.parse_args()))
