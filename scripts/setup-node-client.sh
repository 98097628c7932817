#!/usr/bin/env bash
# Installs the MCP Inspector (npm `@modelcontextprotocol/inspector`, pinned) into the project
# cache, outside the repo, for tests/inspector_cli.rs, then prints the path of its launcher
# (run it with `node <path> --cli ...`). Idempotent: with the pinned version in place it only
# prints the path. Needs node and npm on PATH.
set -euo pipefail
INSPECTOR_VERSION=1.0.3
CACHE="${LS_CACHE_DIR:-$HOME/.cache/loot-survivor-mcp}"
PREFIX="$CACHE/node-inspector-$INSPECTOR_VERSION"
PKG="$PREFIX/node_modules/@modelcontextprotocol/inspector"
LAUNCHER="$PKG/cli/build/cli.js"

log() { printf 'setup-node-client: %s\n' "$*" >&2; }

command -v node >/dev/null || { log "node is not on PATH"; exit 1; }
command -v npm >/dev/null || { log "npm is not on PATH"; exit 1; }

mkdir -p "$CACHE"
exec 9>"$PREFIX.lock"
flock 9

installed_version() {
  [ -f "$PKG/package.json" ] || return 0
  node -e 'console.log(require(process.argv[1]).version)' "$PKG/package.json" 2>/dev/null || true
}

if [ "$(installed_version)" != "$INSPECTOR_VERSION" ] || [ ! -f "$LAUNCHER" ]; then
  log "installing @modelcontextprotocol/inspector@$INSPECTOR_VERSION into $PREFIX"
  mkdir -p "$PREFIX"
  [ -f "$PREFIX/package.json" ] || echo '{"private": true}' > "$PREFIX/package.json"
  npm install --prefix "$PREFIX" --no-audit --no-fund --loglevel=error \
    "@modelcontextprotocol/inspector@$INSPECTOR_VERSION" >&2
fi
got="$(installed_version)"
if [ "$got" != "$INSPECTOR_VERSION" ] || [ ! -f "$LAUNCHER" ]; then
  log "expected inspector $INSPECTOR_VERSION at $PKG, found '${got:-nothing}'"
  exit 1
fi
echo "$LAUNCHER"
