#!/usr/bin/env bash
# Installs one pinned npm package into the project cache, outside the repo, and prints its
# directory (or FILE inside it). Usage: npm-cache.sh DIR PACKAGE VERSION [FILE], DIR naming the
# cache folder. Idempotent: with the pinned version in place it only prints the path; concurrent
# callers wait on a lock. Needs node and npm on PATH.
set -euo pipefail
DIR="$1" PACKAGE="$2" VERSION="$3" FILE="${4:-}"
CACHE="${LS_CACHE_DIR:-$HOME/.cache/loot-survivor-mcp}"
PREFIX="$CACHE/$DIR"
PKG="$PREFIX/node_modules/$PACKAGE"
TARGET="$PKG${FILE:+/$FILE}"

log() { printf 'npm-cache: %s\n' "$*" >&2; }

command -v node >/dev/null || { log "node is not on PATH"; exit 1; }
command -v npm >/dev/null || { log "npm is not on PATH"; exit 1; }

mkdir -p "$CACHE"
exec 9>"$PREFIX.lock"
flock 9

installed_version() {
  [ -f "$PKG/package.json" ] || return 0
  node -e 'console.log(require(process.argv[1]).version)' "$PKG/package.json" 2>/dev/null || true
}

if [ "$(installed_version)" != "$VERSION" ] || [ ! -e "$TARGET" ]; then
  log "installing $PACKAGE@$VERSION into $PREFIX"
  mkdir -p "$PREFIX"
  [ -f "$PREFIX/package.json" ] || echo '{"private": true}' > "$PREFIX/package.json"
  npm install --prefix "$PREFIX" --no-audit --no-fund --loglevel=error "$PACKAGE@$VERSION" >&2
fi
got="$(installed_version)"
if [ "$got" != "$VERSION" ] || [ ! -e "$TARGET" ]; then
  log "expected $PACKAGE $VERSION at $PKG, found '${got:-nothing}'"
  exit 1
fi
echo "$TARGET"
