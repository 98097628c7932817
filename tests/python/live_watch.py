"""Follows adventurers through the real binary with the official Python MCP SDK (PyPI `mcp`), in
one protocol era: `legacy` (the initialize handshake, `resources/subscribe`, the updates through
the message handler) or `modern` (`server/discover`, 2026-07-28, `subscriptions/listen`). First its
own game: `moves` writes of this session, timing each update after its write. Then another
process's game: a second server (the same data directory on sim; another account on a chain,
`LIVE_WATCH_WRITER_ENV`) plays `moves` writes, and each update must reach this session too. After
each, `resources/read` equals `ls_get_adventurer`; after stopping, one more write of each tells
nothing. Prints one JSON line: the negotiated version, the delays in ms of this session's writes
and of the other process's, and the updates after stopping.

    python live_watch.py /path/to/loot-survivor-mcp legacy|modern [moves] [server args...]

`LIVE_WATCH_WRITER_ENV`: a JSON object of environment variables for the other process.
"""

import asyncio
import json
import os
import sys
import time

from mcp import Client, StdioServerParameters, types
from mcp.shared.exceptions import MCPError


def next_move(aid: int, adv: dict) -> tuple[str, dict]:
    phase = adv["phase"]
    if phase == "in_battle":
        return "ls_attack", {"adventurer_id": aid}
    if phase == "stat_upgrade":
        return "ls_upgrade", {"adventurer_id": aid, "vitality": adv["stat_upgrades_available"]}
    return "ls_explore", {"adventurer_id": aid}


async def call(client: Client, tool: str, args: dict) -> dict:
    r = await client.call_tool(tool, args)
    if r.is_error:
        raise SystemExit(f"{tool} failed: {r.content}")
    return r.structured_content


async def adventurer(client: Client, aid: int) -> dict:
    return (await call(client, "ls_get_adventurer", {"adventurer_id": aid, "detail": "full"}))["adventurer"]


async def resource(client: Client, uri: str) -> dict:
    # The SDK may cache a read (2026-07-28 ttl hints); ask the server each time.
    r = await client.read_resource(uri, cache_mode="refresh")
    return json.loads(r.contents[0].text)


async def limit(client: Client, writer: Client) -> str:
    """Follows 100 things (the leaderboard and 99 games the writer starts) and asks for a 101st:
    the refusal's text. Everything is released before it returns."""
    ids = [(await call(writer, "ls_new_game", {"weapon": "Wand"}))["adventurer_id"] for _ in range(100)]
    uris = ["ls://leaderboard"] + [f"ls://adventurer/{i}" for i in ids[:99]]
    extra = f"ls://adventurer/{ids[99]}"
    if client.protocol_version == "2025-11-25":
        for uri in uris:
            await client.session.subscribe_resource(uri)
        try:
            await client.session.subscribe_resource(extra)
            raise SystemExit("the 101st subscription was accepted")
        except MCPError as e:
            refused = str(e)
        for uri in uris:
            await client.session.unsubscribe_resource(uri)
        return refused
    async with client.listen(resource_subscriptions=uris) as sub:
        if len(sub.honored.resource_subscriptions or []) != 100:
            raise SystemExit(f"honored {sub.honored}")
        r = await client.call_tool("ls_subscribe", {"adventurer_id": ids[99]})
        if not r.is_error:
            raise SystemExit("the 101st subscription was accepted")
        return r.content[0].text


async def main(server_bin: str, era: str, moves: int, server_args: list[str]) -> dict:
    updates: asyncio.Queue[str] = asyncio.Queue()

    async def on_message(message) -> None:
        root = getattr(message, "root", message)
        if isinstance(root, types.ResourceUpdatedNotification):
            updates.put_nowait(root.params.uri)

    # The servers' environment is the test's (its data directory above all), not the SDK's default.
    params = StdioServerParameters(command=server_bin, args=server_args, env=dict(os.environ))
    writer_env = dict(os.environ) | json.loads(os.environ.get("LIVE_WATCH_WRITER_ENV", "{}"))
    writer_params = StdioServerParameters(command=server_bin, args=server_args, env=writer_env)
    mode = "legacy" if era == "legacy" else "auto"
    delays: dict[str, list[float]] = {"own": [], "other": []}
    async with Client(params, mode=mode, message_handler=on_message) as client, Client(
        writer_params, mode="legacy"
    ) as writer:
        own = (await call(client, "ls_new_game", {"weapon": "Wand"}))["adventurer_id"]
        other = (await call(writer, "ls_new_game", {"weapon": "Book"}))["adventurer_id"]

        async def play_and_wait(who: str, player: Client, aid, next_update) -> None:
            uri = f"ls://adventurer/{aid}"
            tool, args = next_move(aid, await adventurer(player, aid))
            started = time.monotonic()
            await call(player, tool, args)
            got = await asyncio.wait_for(next_update(), timeout=10.0)
            if got != uri:
                raise SystemExit(f"update for {got}, expected {uri}")
            delays[who].append((time.monotonic() - started) * 1000)
            if await resource(client, uri) != await adventurer(client, aid):
                raise SystemExit("resources/read differs from ls_get_adventurer")

        async def follow(who: str, player: Client, aid) -> None:
            uri = f"ls://adventurer/{aid}"
            if era == "legacy":
                await client.session.subscribe_resource(uri)
                for _ in range(moves):
                    await play_and_wait(who, player, aid, updates.get)
                await client.session.unsubscribe_resource(uri)
                return
            async with client.listen(resource_subscriptions=[uri]) as sub:
                if list(sub.honored.resource_subscriptions or []) != [uri]:
                    raise SystemExit(f"honored {sub.honored}")
                events = sub.__aiter__()

                async def next_event() -> str:
                    event = await events.__anext__()
                    return getattr(event, "uri", None) or event.params.uri

                for _ in range(moves):
                    await play_and_wait(who, player, aid, next_event)

        await follow("own", client, own)
        await follow("other", writer, other)
        refused = await limit(client, writer) if os.environ.get("LIVE_WATCH_LIMIT") else None
        # Released once the server has read the unsubscription or the cancellation.
        for _ in range(20):
            listed = (await call(client, "ls_subscriptions", {}))["subscriptions"]
            if not listed:
                break
            await asyncio.sleep(0.1)
        while not updates.empty():
            updates.get_nowait()
        for player, aid in ((client, own), (writer, other)):
            tool, args = next_move(aid, await adventurer(player, aid))
            await call(player, tool, args)
        await asyncio.sleep(1.5)
        after_stop = updates.qsize()
        version = client.protocol_version
    return {
        "era": era,
        "protocol_version": version,
        "delays_ms": delays["own"],
        "other_delays_ms": delays["other"],
        "after_stop": after_stop,
        "left": len(listed),
        "limit": refused,
    }


if __name__ == "__main__":
    moves = int(sys.argv[3]) if len(sys.argv) > 3 else 4
    print(json.dumps(asyncio.run(main(sys.argv[1], sys.argv[2], moves, sys.argv[4:]))))
