#!/usr/bin/env bash
# Creates the Python virtualenv used by tests/it/python_client.rs: the official MCP Python SDK
# (PyPI `mcp`, pinned) in the project cache, outside the repo, then prints the venv's python.
# Idempotent: when the venv already has exactly the pinned version it only prints the path.
#
#   PYTHON=/path/to/python3.x   interpreter to build the venv with (default python3, needs >= 3.10)
set -euo pipefail
MCP_VERSION=2.3.0
CACHE="${LS_CACHE_DIR:-$HOME/.cache/loot-survivor-mcp}"
VENV="$CACHE/py-mcp"
PY="$VENV/bin/python"

log() { printf 'setup-python-client: %s\n' "$*" >&2; }

installed_version() {
  [ -x "$PY" ] || return 0
  "$PY" - <<'EOF' 2>/dev/null || true
from importlib.metadata import PackageNotFoundError, version
try:
    print(version("mcp"))
except PackageNotFoundError:
    pass
EOF
}

mkdir -p "$CACHE"
exec 9>"$VENV.lock"
flock 9

if [ "$(installed_version)" = "$MCP_VERSION" ]; then
  echo "$PY"
  exit 0
fi

BASE_PY="${PYTHON:-python3}"
if ! "$BASE_PY" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 10) else 1)' 2>/dev/null; then
  log "mcp $MCP_VERSION needs Python >= 3.10; set PYTHON to such an interpreter (got: $BASE_PY)"
  exit 1
fi

# A venv that is broken (no working python) is rebuilt from scratch; a working one is reused.
if [ -e "$VENV" ] && ! "$PY" -c 'import sys' 2>/dev/null; then
  log "removing the broken virtualenv $VENV"
  rm -rf "$VENV"
fi
if [ ! -x "$PY" ]; then
  log "creating the virtualenv $VENV"
  "$BASE_PY" -m venv "$VENV"
fi
log "installing mcp==$MCP_VERSION from PyPI"
"$PY" -m pip install --quiet --disable-pip-version-check "mcp==$MCP_VERSION" >&2

got="$(installed_version)"
if [ "$got" != "$MCP_VERSION" ]; then
  log "expected mcp $MCP_VERSION in $VENV, found '${got:-nothing}'"
  exit 1
fi
echo "$PY"
