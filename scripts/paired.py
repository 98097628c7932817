#!/usr/bin/env python3
"""Pairs the JSON lines of `play --json` by game (the same dungeon under every strategy) and prints,
per strategy, the level median, p10, p90 and mean, then each strategy's paired difference in final
level against the first one, with its standard error (sd / sqrt(n)).

    loot-survivor-mcp play --games 1000 --seed 2026 --weapon all --strategy planner,lookahead --json \
        | scripts/paired.py
"""
import json
import math
import sys


def at(v, p):
    """The percentile as `play`'s summary takes it (nearest rank on the sorted values)."""
    v = sorted(v)
    return v[round((len(v) - 1) * p)]


levels = {}
for line in sys.stdin:
    row = json.loads(line)
    if "summary" in row:
        continue
    levels.setdefault(row["strategy"], {})[row["game"]] = row["level"]

names = list(levels)
print("| strategy | games | level median | p10 | p90 | mean |")
print("|---|---|---|---|---|---|")
for name in names:
    v = list(levels[name].values())
    print(f"| {name} | {len(v)} | {at(v, 0.5)} | {at(v, 0.1)} | {at(v, 0.9)} | {sum(v) / len(v):.2f} |")
base = names[0]
for name in names[1:]:
    games = sorted(set(levels[base]) & set(levels[name]))
    d = [levels[name][g] - levels[base][g] for g in games]
    n = len(d)
    if n < 2:
        continue
    m = sum(d) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in d) / (n - 1))
    better = sum(1 for x in d if x > 0)
    worse = sum(1 for x in d if x < 0)
    print(
        f"{name} - {base} over the same {n} dungeons: {m:+.2f} levels ± {sd / math.sqrt(n):.2f} (SE), "
        f"sd {sd:.2f}; higher in {better}, lower in {worse}, equal in {n - better - worse}"
    )
