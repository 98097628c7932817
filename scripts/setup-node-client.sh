#!/usr/bin/env bash
# Installs the MCP Inspector (npm `@modelcontextprotocol/inspector`, pinned) into the project
# cache, outside the repo, for tests/it/inspector_cli.rs, then prints the path of its launcher
# (run it with `node <path> --cli ...`). Needs node and npm on PATH.
set -euo pipefail
VERSION=1.0.3
exec "$(dirname "$0")/npm-cache.sh" "node-inspector-$VERSION" @modelcontextprotocol/inspector \
  "$VERSION" cli/build/cli.js
