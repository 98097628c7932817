#!/usr/bin/env bash
# The main job: the MCP server on stdio against a local starknet-devnet with the practice world.
# Installs devnet if needed, starts it if nothing answers on 127.0.0.1:5050 (and stops it on exit),
# deploys the practice world if needed, then serves. Everything but MCP goes to stderr.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-devnet.sh >&2
cargo build --release --locked --quiet >&2
exec target/release/loot-survivor-mcp serve --profile devnet --with-devnet "$@"
