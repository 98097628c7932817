"""Plays on the sim chain through the real binary with the official Python MCP SDK (PyPI `mcp`),
asking for compact and full results in turn. The SDK validates every structuredContent against
the tool's outputSchema itself and raises on a mismatch, so a schema that does not describe our
results fails here. Prints one JSON line: how many results were validated.

    python validate_sim.py /path/to/loot-survivor-mcp
"""

import asyncio
import json
import sys

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client


async def main(server_bin: str) -> dict:
    params = StdioServerParameters(command=server_bin, args=[])
    validated = 0
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            tools = (await session.list_tools()).tools
            with_schema = sum(1 for t in tools if t.output_schema)

            async def call(tool: str, args: dict, detail: str) -> dict:
                nonlocal validated
                r = await session.call_tool(tool, {**args, "detail": detail})
                if r.is_error:
                    raise SystemExit(f"{tool} failed: {r.content}")
                validated += 1
                return r.structured_content

            out = await call("ls_new_game", {"weapon": "Wand"}, "compact")
            aid = out["adventurer_id"]
            for i in range(60):
                detail = "compact" if i % 2 == 0 else "full"
                full = await call("ls_get_adventurer", {"adventurer_id": aid}, "full")
                await call("ls_get_adventurer", {"adventurer_id": aid}, "compact")
                adv = full["adventurer"]
                phase = adv["phase"]
                if phase == "dead":
                    break
                if phase == "in_battle":
                    await call("ls_attack", {"adventurer_id": aid}, detail)
                elif phase == "stat_upgrade":
                    n = adv["stat_upgrades_available"]
                    await call("ls_upgrade", {"adventurer_id": aid, "vitality": n}, detail)
                else:
                    await call("ls_explore", {"adventurer_id": aid}, detail)
            preview = await session.call_tool("ls_battle_preview", {"adventurer_id": aid})
            validated += 0 if preview.is_error else 1
    return {"validated": validated, "tools": len(tools), "with_output_schema": with_schema}


if __name__ == "__main__":
    print(json.dumps(asyncio.run(main(sys.argv[1]))))
