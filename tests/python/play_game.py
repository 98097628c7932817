#!/usr/bin/env python3
"""Plays one whole Loot Survivor game through loot-survivor-mcp with the official Python MCP SDK.

This is what a new user of the server would write: spawn the server over stdio with the PyPI
`mcp` 2.x client, list its tools, start a game with a Wand and play it to the adventurer's death
(attack in battle, spend stat points on strength then charisma, explore otherwise). Every write's
adventurer is compared with a fresh `ls_get_adventurer`, and one illegal move must come back as a
typed tool error. The client validates each structured result against the tool's output schema.

    python play_game.py --server-bin target/debug/loot-survivor-mcp \
        --rpc-url http://127.0.0.1:5050 --manifest manifest.json

With `--generation v2 --manifest v2.json` (the file `devnet deploy --generation v2` writes) it
plays the second generation: the adventurer id is a decimal string, the mint and the start two
transactions.

On success prints one JSON line to stdout:
    {"adventurer_id": …, "level": …, "xp": …, "transactions": …, "phase": "dead"}
and exits 0. Any failed check exits 1 with the reason on stderr. The server's stderr (its logs)
is passed through to this script's stderr.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import traceback
from typing import Any

import anyio
import mcp.types as types
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

TOOLS = {
    "ls_new_game",
    "ls_explore",
    "ls_attack",
    "ls_flee",
    "ls_upgrade",
    "ls_buy_item",
    "ls_equip",
    "ls_drop",
    "ls_get_adventurer",
}
READ_ONLY = {"ls_get_adventurer"}
PHASES = {"not_started", "in_battle", "stat_upgrade", "exploring", "dead"}
STATS = ("strength", "dexterity", "vitality", "intelligence", "wisdom", "charisma")
MAX_STAT = 31
WAND = 12
MAX_ACTIONS = 600
CALL_TIMEOUT_S = 180.0


class CheckFailed(Exception):
    """A check on the server's behaviour failed."""


def check(cond: bool, msg: str) -> None:
    if not cond:
        raise CheckFailed(msg)


def short(value: Any, limit: int = 2000) -> str:
    s = json.dumps(value, sort_keys=True, default=str)
    return s if len(s) <= limit else s[:limit] + "…"


class Game:
    """A connected client session plus the checks every call goes through."""

    def __init__(self, session: ClientSession, chain: str) -> None:
        self.session = session
        self.chain = chain
        self.tx_hashes: set[str] = set()
        self.moves: list[dict[str, Any]] | None = None

    async def _call(self, tool: str, args: dict[str, Any]) -> tuple[Any, Any]:
        try:
            if tool in TOOLS:  # the full shape: this script checks every field of it
                args = {**args, "detail": "full"}
            result = await self.session.call_tool(tool, args, read_timeout_seconds=CALL_TIMEOUT_S)
        except Exception as e:  # the SDK's output-schema validation raises here
            raise CheckFailed(
                f"{tool} {short(args)}: the MCP client rejected the call's result: {type(e).__name__}: {e}"
            ) from e
        texts = [c.text for c in result.content if isinstance(c, types.TextContent)]
        check(len(texts) >= 1, f"{tool} {short(args)}: no text content in {result!r}")
        text = "".join(texts)
        try:
            payload = json.loads(text)
        except ValueError as e:
            raise CheckFailed(f"{tool} {short(args)}: result text is not JSON ({e}): {text[:2000]}") from e
        return result, payload

    async def ok(self, tool: str, args: dict[str, Any]) -> dict[str, Any]:
        """Calls a tool that must succeed; returns its structured content."""
        result, payload = await self._call(tool, args)
        check(not result.is_error, f"{tool} {short(args)} failed: {short(payload)}")
        sc = result.structured_content
        check(isinstance(sc, dict), f"{tool} {short(args)}: no structured content object: {sc!r}")
        check(sc == payload, f"{tool}: structured content and text differ:\n{short(sc)}\n{short(payload)}")
        check(sc.get("ok") is True, f"{tool}: ok is not true: {short(sc)}")
        check(isinstance(sc.get("schema_version"), str), f"{tool}: no schema_version: {short(sc)}")
        check(sc.get("chain") == self.chain, f"{tool}: chain {sc.get('chain')!r}, expected {self.chain!r}")
        adv = sc.get("adventurer")
        check(isinstance(adv, dict), f"{tool}: no adventurer object: {short(sc)}")
        check(adv.get("phase") in PHASES, f"{tool}: unknown phase {adv.get('phase')!r}")
        return sc

    async def error(self, tool: str, args: dict[str, Any]) -> dict[str, Any]:
        """Calls a tool that must fail with a typed tool error; returns the error object."""
        result, payload = await self._call(tool, args)
        check(result.is_error, f"{tool} {short(args)} should have failed but returned {short(payload)}")
        check(
            result.structured_content is None,
            f"{tool}: an error result carries structured content: {short(result.structured_content)}",
        )
        check(payload.get("ok") is False, f"{tool}: error payload without ok=false: {short(payload)}")
        err = payload.get("error")
        check(isinstance(err, dict), f"{tool}: error payload without an error object: {short(payload)}")
        check(isinstance(err.get("code"), str) and err["code"], f"{tool}: error without a code: {short(err)}")
        check(isinstance(err.get("message"), str) and err["message"], f"{tool}: error without a message: {short(err)}")
        check(isinstance(err.get("retryable"), bool), f"{tool}: error without retryable: {short(err)}")
        check(isinstance(err.get("details"), dict), f"{tool}: error without details: {short(err)}")
        return err

    async def read(self, adventurer_id: int | str) -> dict[str, Any]:
        sc = await self.ok("ls_get_adventurer", {"adventurer_id": adventurer_id})
        check(
            sc["adventurer"].get("adventurer_id") == adventurer_id,
            f"ls_get_adventurer returned adventurer {sc['adventurer'].get('adventurer_id')}, asked {adventurer_id}",
        )
        return sc["adventurer"]

    def record_tx(self, tool: str, tx_hash: Any) -> None:
        check(
            isinstance(tx_hash, str) and tx_hash.startswith("0x") and len(tx_hash) > 2,
            f"{tool}: bad transaction hash {tx_hash!r}",
        )
        check(tx_hash not in self.tx_hashes, f"{tool}: transaction hash {tx_hash} was already reported")
        self.tx_hashes.add(tx_hash)

    async def write(self, tool: str, args: dict[str, Any], adventurer_id: int | str, before: dict[str, Any]) -> dict[str, Any]:
        """Runs a write tool, checks its envelope, and that its adventurer matches a fresh read."""
        out = await self.ok(tool, args)
        check(out.get("adventurer_id") == adventurer_id, f"{tool}: adventurer_id {out.get('adventurer_id')!r}")
        self.record_tx(tool, out.get("tx_hash"))
        check(out.get("status") == "ACCEPTED_ON_L2", f"{tool}: status {out.get('status')!r}, expected ACCEPTED_ON_L2")
        events = out.get("events")
        check(isinstance(events, list) and events, f"{tool} {short(args)}: no game events: {short(out)}")
        adv = out["adventurer"]
        check(
            adv["action_count"] > before["action_count"],
            f"{tool}: action_count went from {before['action_count']} to {adv['action_count']}",
        )
        fresh = await self.read(adventurer_id)
        check(
            adv == fresh,
            f"{tool}: the adventurer in the write result differs from a fresh ls_get_adventurer:\n"
            f"write: {short(adv, 6000)}\nread:  {short(fresh, 6000)}",
        )
        if self.moves is not None:
            # For the engine's replay (tests/it/python_client.rs): the call, its transaction, the state after.
            self.moves.append({"tool": tool, "args": args, "tx_hash": out.get("tx_hash"), "after": fresh})
        return fresh


async def check_tools(session: ClientSession) -> None:
    tools = []
    cursor = None
    while True:
        params = None if cursor is None else types.PaginatedRequestParams(cursor=cursor)
        page = await session.list_tools(params=params)
        tools.extend(page.tools)
        cursor = page.next_cursor
        if cursor is None:
            break
    names = [t.name for t in tools]
    check(len(names) == len(set(names)), f"duplicate tool names: {names}")
    missing = TOOLS - set(names)
    check(not missing, f"missing tools {sorted(missing)}; the server lists {sorted(names)}")
    for t in tools:
        check(bool(t.description), f"{t.name}: no description")
        schema = t.input_schema
        check(isinstance(schema, dict) and schema.get("type") == "object", f"{t.name}: bad input schema {short(schema)}")
        if t.name in TOOLS:  # the game tools all take arguments (at least adventurer_id or weapon)
            check(isinstance(schema.get("properties"), dict), f"{t.name}: input schema without properties {short(schema)}")
        check(
            isinstance(t.output_schema, dict) and t.output_schema.get("type") == "object",
            f"{t.name}: bad output schema {short(t.output_schema)}",
        )
        check(t.annotations is not None, f"{t.name}: no annotations")
        if t.name in TOOLS:
            # Of the game tools only the adventurer read is read-only (the others sign transactions).
            check(
                (t.annotations.read_only_hint is True) == (t.name in READ_ONLY),
                f"{t.name}: readOnlyHint is {t.annotations.read_only_hint!r}",
            )
    by_name = {t.name: t for t in tools}
    read_schema = by_name["ls_get_adventurer"].input_schema
    check("adventurer_id" in read_schema["properties"], "ls_get_adventurer: no adventurer_id argument")
    check("adventurer_id" in read_schema.get("required", []), "ls_get_adventurer: adventurer_id not required")


def upgrade_args(adventurer_id: int | str, adv: dict[str, Any]) -> dict[str, Any]:
    """Puts every stat point into strength, then charisma, never above 31; any rest into intelligence."""
    points = adv["stat_upgrades_available"]
    check(isinstance(points, int) and points > 0, f"stat_upgrade phase with {points!r} points")
    stats = adv["stats"]
    add = dict.fromkeys(STATS, 0)
    for _ in range(points):
        for stat in ("strength", "charisma", "intelligence"):
            if stats[stat] + add[stat] < MAX_STAT:
                add[stat] += 1
                break
        else:
            raise CheckFailed(f"no stat left below {MAX_STAT} to spend a point on: {short(stats)}")
    return {"adventurer_id": adventurer_id, **add}


async def illegal_attack(game: Game, adventurer_id: int | str, phase: str) -> None:
    """Attacking outside battle is a typed contract revert, and nothing changes on chain."""
    before = await game.read(adventurer_id)
    err = await game.error("ls_attack", {"adventurer_id": adventurer_id})
    check(err["code"] == "CONTRACT_REVERT", f"ls_attack in {phase}: code {err['code']!r}, expected CONTRACT_REVERT")
    check(
        err["details"].get("reason") == "Not in battle",
        f"ls_attack in {phase}: details.reason {err['details'].get('reason')!r}, expected 'Not in battle': {short(err)}",
    )
    after = await game.read(adventurer_id)
    check(after == before, "the reverted ls_attack changed the adventurer")


async def play(args: argparse.Namespace) -> dict[str, Any]:
    env = {
        "LS_MANIFEST": os.path.abspath(args.manifest),
        "RUST_LOG": os.environ.get("RUST_LOG", "info"),
    }
    v2 = args.generation == "v2"
    if v2:
        # The second generation: GameCore, GameToken and Denshokan from the deployment file.
        env["LS_GENERATION"] = "v2"
        env["LS_DEPLOYMENT__DEPLOYMENT_FILE"] = os.path.abspath(args.manifest)
    for name in ("LS_CACHE_DIR", "LS_HOME"):
        if name in os.environ:
            env[name] = os.environ[name]
    server = StdioServerParameters(
        command=args.server_bin,
        args=["serve", "--profile", "devnet", "--rpc-url", args.rpc_url],
        env=env,
    )
    async with stdio_client(server, errlog=sys.stderr) as (read_stream, write_stream):
        async with ClientSession(read_stream, write_stream) as session:
            init = await session.initialize()
            check(init.server_info.name == "loot-survivor-mcp", f"server name {init.server_info.name!r}")
            check(init.capabilities.tools is not None, "the server does not advertise tools")
            check(bool(init.instructions), "the server gives no instructions")
            await check_tools(session)

            game = Game(session, chain="devnet")
            if v2:
                game.moves = []
            started = await game.ok("ls_new_game", {"weapon": "Wand", "player_name": "python-client"})
            adventurer_id = started.get("adventurer_id")
            if v2:
                # A packed Denshokan id is far above 2^53: a decimal string, with its fields decoded.
                check(
                    isinstance(adventurer_id, str) and adventurer_id.isdigit() and int(adventurer_id) > 2**64,
                    f"ls_new_game: a v2 adventurer_id is a decimal string above 2^64, got {adventurer_id!r}",
                )
                check(
                    started["adventurer"].get("token", {}).get("minted_at", 0) > 1_700_000_000,
                    f"ls_new_game: the packed id's fields: {short(started['adventurer'].get('token'))}",
                )
                # The id packs the mint's time and hash: mint, then start, two transactions.
                check(
                    started.get("mint_tx_hash") != started.get("tx_hash"),
                    f"ls_new_game: two transactions, got {started.get('tx_hash')!r} for both",
                )
            else:
                check(isinstance(adventurer_id, int) and adventurer_id >= 0, f"ls_new_game: adventurer_id {adventurer_id!r}")
                # On devnet the mint and the start are one transaction: both hashes name it.
                check(
                    started.get("mint_tx_hash") == started.get("tx_hash"),
                    f"ls_new_game: one transaction, got mint {started.get('mint_tx_hash')!r} and start {started.get('tx_hash')!r}",
                )
            game.record_tx("ls_new_game", started.get("tx_hash"))
            check(started.get("status") == "ACCEPTED_ON_L2", f"ls_new_game: status {started.get('status')!r}")
            adv = started["adventurer"]
            check(adv["phase"] == "in_battle", f"a new game starts in battle, got {adv['phase']!r}")
            check(adv["health"] == 90, f"a new game starts with 90 health, got {adv['health']!r}")
            weapon = adv["equipment"][0] if adv["equipment"] else {}
            check(
                weapon.get("slot") == "Weapon" and weapon.get("id") == WAND,
                f"the starting weapon is not the Wand: {short(adv['equipment'])}",
            )
            fresh = await game.read(adventurer_id)
            check(adv == fresh, f"ls_new_game's adventurer differs from a fresh read:\n{short(adv)}\n{short(fresh)}")

            checked_error = False
            actions = 0
            while adv["phase"] != "dead":
                check(actions < MAX_ACTIONS, f"the adventurer is still alive after {MAX_ACTIONS} actions")
                phase = adv["phase"]
                legal = {a.get("tool") for a in adv.get("legal_actions", [])}
                if phase == "in_battle":
                    tool, call_args = "ls_attack", {"adventurer_id": adventurer_id}
                elif phase == "stat_upgrade":
                    tool, call_args = "ls_upgrade", upgrade_args(adventurer_id, adv)
                elif phase == "exploring":
                    tool, call_args = "ls_explore", {"adventurer_id": adventurer_id}
                else:
                    raise CheckFailed(f"unexpected phase {phase!r} during the game")
                check(tool in legal, f"{tool} is not in legal_actions {sorted(legal)} in phase {phase}")
                if phase != "in_battle" and not checked_error:
                    await illegal_attack(game, adventurer_id, phase)
                    checked_error = True
                adv = await game.write(tool, call_args, adventurer_id, adv)
                actions += 1

            check(checked_error, "the game never left battle, so the typed error was not checked")
            end = await game.read(adventurer_id)
            check(end["phase"] == "dead" and end["health"] == 0, f"the adventurer is not dead: {short(end)}")
            dead = await game.error("ls_explore", {"adventurer_id": adventurer_id})
            check(
                dead["details"].get("reason_code") == "ADVENTURER_DEAD",
                f"ls_explore when dead: expected details.reason_code ADVENTURER_DEAD: {short(dead)}",
            )
            return {
                "adventurer_id": adventurer_id,
                "level": end["level"],
                "xp": end["xp"],
                "transactions": len(game.tx_hashes),
                "phase": end["phase"],
                **({"start": {"tx_hash": started.get("tx_hash"), "after": fresh}, "moves": game.moves} if v2 else {}),
            }


def leaf_exceptions(e: BaseException) -> list[BaseException]:
    if isinstance(e, BaseExceptionGroup):
        return [leaf for sub in e.exceptions for leaf in leaf_exceptions(sub)]
    return [e]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server-bin", required=True, help="path to the loot-survivor-mcp binary")
    parser.add_argument("--rpc-url", required=True, help="starknet-devnet JSON-RPC URL")
    parser.add_argument(
        "--manifest",
        required=True,
        help="manifest (v1) or deployment file (v2) written by `loot-survivor-mcp devnet deploy`",
    )
    parser.add_argument("--generation", choices=["v1", "v2"], default="v1", help="the deployment's generation")
    args = parser.parse_args()
    try:
        summary = anyio.run(play, args)
    except BaseException as e:  # noqa: BLE001 - report every failure, including grouped ones
        failures = leaf_exceptions(e)
        for f in failures:
            if isinstance(f, CheckFailed):
                print(f"play_game.py: CHECK FAILED: {f}", file=sys.stderr)
                if f.__cause__ is not None:
                    traceback.print_exception(f.__cause__, file=sys.stderr)
            else:
                print(f"play_game.py: ERROR: {type(f).__name__}: {f}", file=sys.stderr)
                traceback.print_exception(f, file=sys.stderr)
        return 1
    print(json.dumps(summary), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
