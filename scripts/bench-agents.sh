#!/usr/bin/env bash
# Compares the built-in agent's versions on the same hidden-seed sim dungeons and prints each
# one's summary (median/p10/p90/max level and xp, actions, causes of death): the baseline, the
# previous planner (`--strategy previous`: the planner before its last tuning) and the planner.
# Usage: scripts/bench-agents.sh [GAMES] [SEED] [extra play args, e.g. --param fight_from=0.7]
set -euo pipefail
cd "$(dirname "$0")/.."
games="${1:-1000}"
seed="${2:-2026}"
shift $(( $# > 2 ? 2 : $# ))
cargo build --release --quiet --bin loot-survivor-mcp
LS_HOME="$(mktemp -d)" ./target/release/loot-survivor-mcp play --games "$games" --seed "$seed" \
  --weapon all --quiet --strategy all "$@" | grep -v '^adventurer '
