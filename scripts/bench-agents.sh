#!/usr/bin/env bash
# Compares the built-in agent's versions on the same hidden-seed sim dungeons and prints each
# one's summary (median/p10/p90/max level and xp, actions, causes of death): the planner and the
# baseline, then the previous planner (no weapon upgrades, 3-potion reserve, no per-gold bar,
# no risk weight).
# Usage: scripts/bench-agents.sh [GAMES] [SEED] [extra play args, e.g. --param fight_from=0.7]
set -euo pipefail
cd "$(dirname "$0")/.."
games="${1:-1000}"
seed="${2:-2026}"
shift $(( $# > 2 ? 2 : $# ))
cargo build --release --quiet --bin loot-survivor-mcp
play() {
  LS_HOME="$(mktemp -d)" ./target/release/loot-survivor-mcp play --games "$games" --seed "$seed" \
    --weapon all --quiet "$@" | grep -v '^adventurer '
}
play --strategy both "$@"
echo "previous planner:"
play --strategy planner --param weapon_gain=1000 --param reserve_potions=3 \
  --param min_item_per_gold=0 --param risk_weight=0 "$@"
