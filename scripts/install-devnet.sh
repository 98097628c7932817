#!/usr/bin/env bash
# Installs starknet-devnet (pinned) once into the project cache, outside the repo, and prints the
# binary's path. About 28 minutes on 2 cores the first time; instant afterwards.
set -euo pipefail
VERSION=0.10.1
CACHE="${LS_CACHE_DIR:-$HOME/.cache/loot-survivor-mcp}"
ROOT="$CACHE/devnet-$VERSION"
BIN="$ROOT/bin/starknet-devnet"
mkdir -p "$ROOT"
exec 9>"$ROOT.lock"
flock 9
if [ -x "$BIN" ] && "$BIN" --version 2>/dev/null | grep -q "$VERSION"; then
  echo "$BIN"
  exit 0
fi
echo "installing starknet-devnet $VERSION into $ROOT (about 30 minutes on 2 cores)..." >&2
cargo install starknet-devnet --version "$VERSION" --locked --root "$ROOT" >&2
"$BIN" --version >&2
echo "$BIN"
