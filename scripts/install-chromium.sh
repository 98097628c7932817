#!/usr/bin/env bash
# Installs what the browser test (tests/it/sheet_browser.rs) needs: Debian's `chromium` package
# (apt, when missing) and a Python venv with PyPI `playwright` (pinned) in the project cache,
# outside the repo. Playwright drives the system chromium; it never downloads a browser.
# Idempotent: when both are there it only prints the venv's python.
#
#   PYTHON=/path/to/python3   interpreter to build the venv with (default python3)
set -euo pipefail
PLAYWRIGHT_VERSION=1.65.2
CACHE="${LS_CACHE_DIR:-$HOME/.cache/loot-survivor-mcp}"
VENV="$CACHE/py-playwright"
PY="$VENV/bin/python"
CHROMIUM=/usr/bin/chromium

log() { printf 'install-chromium: %s\n' "$*" >&2; }

mkdir -p "$CACHE"
exec 9>"$VENV.lock"
flock 9

if [ ! -x "$CHROMIUM" ]; then
  if [ "$(id -u)" = 0 ]; then SUDO=(); else SUDO=(sudo -n); fi
  log "installing Debian's chromium package"
  "${SUDO[@]}" apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive "${SUDO[@]}" apt-get install -y -qq --no-install-recommends \
    chromium fonts-dejavu-core >&2
fi
"$CHROMIUM" --version >&2

installed_version() {
  [ -x "$PY" ] || return 0
  "$PY" -c 'from importlib.metadata import version; print(version("playwright"))' 2>/dev/null || true
}

if [ "$(installed_version)" != "$PLAYWRIGHT_VERSION" ]; then
  if [ -e "$VENV" ] && ! "$PY" -c 'import sys' 2>/dev/null; then
    log "removing the broken virtualenv $VENV"
    rm -rf "$VENV"
  fi
  [ -x "$PY" ] || "${PYTHON:-python3}" -m venv "$VENV"
  log "installing playwright==$PLAYWRIGHT_VERSION from PyPI"
  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 "$PY" -m pip install --quiet --disable-pip-version-check \
    "playwright==$PLAYWRIGHT_VERSION" >&2
fi
got="$(installed_version)"
if [ "$got" != "$PLAYWRIGHT_VERSION" ]; then
  log "expected playwright $PLAYWRIGHT_VERSION in $VENV, found '${got:-nothing}'"
  exit 1
fi
echo "$PY"
