"""Follows an adventurer on the sim chain through the real binary with the official Python MCP SDK
(PyPI `mcp`), in one protocol era: `legacy` (the initialize handshake, `resources/subscribe`, the
updates through the message handler) or `modern` (`server/discover`, 2026-07-28,
`subscriptions/listen`). Plays `moves` writes, timing each update after its write; checks that
`resources/read` then equals `ls_get_adventurer`; stops following and plays once more; prints one
JSON line: the negotiated version, the update delays in ms, and the updates after stopping.

    python live_watch.py /path/to/loot-survivor-mcp legacy|modern [moves]
"""

import asyncio
import json
import os
import sys
import time

from mcp import Client, StdioServerParameters, types


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


async def main(server_bin: str, era: str, moves: int) -> dict:
    updates: asyncio.Queue[str] = asyncio.Queue()

    async def on_message(message) -> None:
        root = getattr(message, "root", message)
        if isinstance(root, types.ResourceUpdatedNotification):
            updates.put_nowait(root.params.uri)

    # The server's environment is the test's (its data directory above all), not the SDK's default.
    params = StdioServerParameters(command=server_bin, args=[], env=dict(os.environ))
    mode = "legacy" if era == "legacy" else "auto"
    delays: list[float] = []
    after_stop = 0
    async with Client(params, mode=mode, message_handler=on_message) as client:
        aid = (await call(client, "ls_new_game", {"weapon": "Wand"}))["adventurer_id"]
        uri = f"ls://adventurer/{aid}"

        async def play_and_wait(next_update) -> None:
            tool, args = next_move(aid, await adventurer(client, aid))
            started = time.monotonic()
            await call(client, tool, args)
            got = await asyncio.wait_for(next_update(), timeout=1.0)
            if got != uri:
                raise SystemExit(f"update for {got}, expected {uri}")
            delays.append((time.monotonic() - started) * 1000)
            if await resource(client, uri) != await adventurer(client, aid):
                raise SystemExit("resources/read differs from ls_get_adventurer")

        if era == "legacy":
            await client.session.subscribe_resource(uri)
            for _ in range(moves):
                await play_and_wait(updates.get)
            await client.session.unsubscribe_resource(uri)
        else:
            async with client.listen(resource_subscriptions=[uri]) as sub:
                if list(sub.honored.resource_subscriptions or []) != [uri]:
                    raise SystemExit(f"honored {sub.honored}")
                events = sub.__aiter__()

                async def next_event() -> str:
                    event = await events.__anext__()
                    return getattr(event, "uri", None) or event.params.uri

                for _ in range(moves):
                    await play_and_wait(next_event)
        # Released once the server has read the unsubscription or the cancellation.
        for _ in range(20):
            listed = (await call(client, "ls_subscriptions", {}))["subscriptions"]
            if not listed:
                break
            await asyncio.sleep(0.1)
        while not updates.empty():
            updates.get_nowait()
        tool, args = next_move(aid, await adventurer(client, aid))
        await call(client, tool, args)
        await asyncio.sleep(0.8)
        after_stop = updates.qsize()
        version = client.protocol_version
    return {"era": era, "protocol_version": version, "delays_ms": delays, "after_stop": after_stop, "left": len(listed)}


if __name__ == "__main__":
    moves = int(sys.argv[3]) if len(sys.argv) > 3 else 4
    print(json.dumps(asyncio.run(main(sys.argv[1], sys.argv[2], moves))))
