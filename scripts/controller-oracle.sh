#!/usr/bin/env bash
# Installs npm `@cartridge/controller-wasm` (pinned) into the project cache, outside the repo, and
# prints the directory of the installed package. tests/session_oracle.rs runs it, then signs fixed
# session vectors with the package (tests/oracle/session-sign.mjs) to compare with our signer.
# Idempotent: with the pinned version in place it only prints the path. Needs node and npm.
set -euo pipefail
VERSION=0.10.0
CACHE="${LS_CACHE_DIR:-$HOME/.cache/loot-survivor-mcp}"
PREFIX="$CACHE/controller-wasm-$VERSION"
PKG="$PREFIX/node_modules/@cartridge/controller-wasm"

log() { printf 'controller-oracle: %s\n' "$*" >&2; }

command -v node >/dev/null || { log "node is not on PATH"; exit 1; }
command -v npm >/dev/null || { log "npm is not on PATH"; exit 1; }

mkdir -p "$CACHE"
exec 9>"$PREFIX.lock"
flock 9

installed_version() {
  [ -f "$PKG/package.json" ] || return 0
  node -e 'console.log(require(process.argv[1]).version)' "$PKG/package.json" 2>/dev/null || true
}

if [ "$(installed_version)" != "$VERSION" ]; then
  log "installing @cartridge/controller-wasm@$VERSION into $PREFIX"
  mkdir -p "$PREFIX"
  [ -f "$PREFIX/package.json" ] || echo '{"private": true}' > "$PREFIX/package.json"
  npm install --prefix "$PREFIX" --no-audit --no-fund --loglevel=error \
    "@cartridge/controller-wasm@$VERSION" >&2
fi
got="$(installed_version)"
if [ "$got" != "$VERSION" ]; then
  log "expected controller-wasm $VERSION at $PKG, found '${got:-nothing}'"
  exit 1
fi
echo "$PKG"
