#!/usr/bin/env bash
# The project's test command: installs what the tests need (starknet-devnet, the Python MCP
# client, the MCP Inspector, chromium and playwright) into the cache outside the repo, then runs every test: unit tests,
# the interface check, the games played on a real devnet by rmcp's client and by the Python `mcp` client, and a sim
# game through the MCP Inspector CLI (when node is installed).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-devnet.sh >/dev/null
scripts/setup-python-client.sh >/dev/null
scripts/install-chromium.sh >/dev/null ||
  echo "test.sh: chromium or playwright could not be installed; the browser test will say SKIPPED" >&2
if command -v node >/dev/null; then
  scripts/setup-node-client.sh >/dev/null
fi
if [ -z "${LS_MAINNET_MANIFEST:-}" ] && [ -f ../shared/data/manifests/manifest_mainnet.json ]; then
  LS_MAINNET_MANIFEST="$(cd ../shared/data/manifests && pwd)/manifest_mainnet.json"
  export LS_MAINNET_MANIFEST
fi
cargo test --locked --no-fail-fast "$@"
