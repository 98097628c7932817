#!/usr/bin/env bash
# Installs npm `@cartridge/controller-wasm` (pinned) into the project cache, outside the repo, and
# prints the directory of the installed package. crates/wallet/tests/it/session_oracle.rs runs
# it, then signs fixed session vectors with the package (oracle/session-sign.mjs beside it) to
# compare with our signer.
# Needs node and npm on PATH.
set -euo pipefail
VERSION=0.10.0
exec "$(dirname "$0")/npm-cache.sh" "controller-wasm-$VERSION" @cartridge/controller-wasm "$VERSION"
