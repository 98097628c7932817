"""Python half of scripts/bench-schemas.sh: the official Python MCP SDK (PyPI `mcp`) against the
server binary. Prints one JSON line: list_tools median (ms) over N calls, warnings logged, and the
time to validate one write result (compact and full) the way the SDK does (a jsonschema validator
for the tool's output schema, iter_errors + best_match), compiled once and compile+validate."""

import asyncio
import json
import logging
import os
import statistics
import sys
import time
import warnings

from jsonschema import exceptions
from jsonschema.validators import validator_for
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from referencing import Registry


class Counter(logging.Handler):
    count = 0

    def emit(self, record):
        if record.levelno >= logging.WARNING:
            Counter.count += 1


def ms(f, n=500):
    xs = []
    for _ in range(n):
        t = time.perf_counter()
        f()
        xs.append((time.perf_counter() - t) * 1000)
    return statistics.median(xs)


async def main(server_bin: str, runs: int) -> dict:
    logging.getLogger().addHandler(Counter())
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        async with stdio_client(StdioServerParameters(
            command=server_bin, args=[], env={**os.environ, "LS_SIM__SEED": "1"}
        )) as (r, w):
            async with ClientSession(r, w) as s:
                await s.initialize()
                times = []
                for _ in range(runs):
                    t = time.perf_counter()
                    tools = (await s.list_tools()).tools
                    times.append((time.perf_counter() - t) * 1000)
                schema = next(t for t in tools if t.name == "ls_explore").output_schema
                started = await s.call_tool("ls_new_game", {"weapon": "Wand"})
                aid = started.structured_content["adventurer_id"]
                hit = await s.call_tool("ls_attack", {"adventurer_id": aid, "to_the_death": True})
                points = hit.structured_content["state"]["stat_points"]
                await s.call_tool("ls_upgrade", {"adventurer_id": aid, "vitality": points})
                compact = (await s.call_tool("ls_explore", {"adventurer_id": aid})).structured_content
                full_args = {"adventurer_id": aid, "detail": "full"}
                full = await s.call_tool("ls_explore", full_args)
                if full.is_error:  # the first explore met a beast: a write result all the same
                    full = await s.call_tool("ls_attack", full_args)
                full = full.structured_content
    cls = validator_for(schema)
    compiled = cls(schema, registry=Registry())

    def validate(v, compile_each=False):
        val = cls(schema, registry=Registry()) if compile_each else compiled
        if compile_each:
            cls.check_schema(schema)
        err = exceptions.best_match(val.iter_errors(v))
        if err is not None:
            raise SystemExit(f"invalid: {err}")

    return {
        "client": "python-sdk",
        "list_tools_ms_median": statistics.median(times),
        "list_tools_ms_first": times[0],
        "warnings": Counter.count + len(caught),
        "validate_write_ms_compact": ms(lambda: validate(compact)),
        "validate_write_ms_full": ms(lambda: validate(full)),
        "compile_and_validate_ms_full": ms(lambda: validate(full, True), 100),
    }


if __name__ == "__main__":
    print(json.dumps(asyncio.run(main(sys.argv[1], int(sys.argv[2])))))
