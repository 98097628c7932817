#!/usr/bin/env bash
# Build the practice-world contract and its manifest template, the practice dungeon (with its
# ticket and golden pass) and theirs, and the v2 practice world (docs/practice-v2.md) and its ABI file.
#
#   contracts/practice_world.cairo  ──starknet-compile 2.1.0──▶  abi/practice_world.sierra.json
#                                   ──tools/casm-hash──────────▶  abi/practice_world.compiled_class_hash (Blake2s)
#                                   ──casm-hash --hash poseidon─▶  abi/practice_world.compiled_class_hash.poseidon
#                                   ──python3──────────────────▶  abi/practice_world.json (Dojo-style manifest)
#
# The Cairo 2.1.0 compiler comes from the PyPI sdist cairo-lang==0.12.3 (the only registry package that
# ships a static starknet-compile together with a complete core library). It is cached outside the repo
# in ${LS_CACHE_DIR:-$HOME/.cache/loot-survivor-mcp}/cairo-2.1.0 and never committed. Idempotent: every
# step is skipped when its result is already present.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CACHE_DIR="${LS_CACHE_DIR:-$HOME/.cache/loot-survivor-mcp}"
TOOLS="$CACHE_DIR/cairo-2.1.0"
SDIST_SHA256="651abdaa5f911d1d8f5605749e3540e7fc4efb7fb625925e5a499c4ca04fcc85"
SDIST_NAME="cairo-lang-0.12.3.zip"
COMPILER_DIR_IN_SDIST="cairo-lang-0.12.3/starkware/starknet/compiler/v1/sierra-compiler-major-1"

SHARED="$ROOT/contracts/shared"
SOURCE="$ROOT/contracts/practice_world.cairo"
FRAGMENTS=("$SHARED/prelude.cairo" "$SHARED/rules.cairo" "$SHARED/actions.cairo")
OUT_DIR="$ROOT/abi"
SIERRA="$OUT_DIR/practice_world.sierra.json"
HASH_FILE="$OUT_DIR/practice_world.compiled_class_hash"
POSEIDON_HASH_FILE="$HASH_FILE.poseidon"
MANIFEST="$OUT_DIR/practice_world.json"
CASM_HASH_MANIFEST="$ROOT/tools/casm-hash/Cargo.toml"
CASM_HASH_BIN="$ROOT/tools/casm-hash/target/release/casm-hash"

log() { printf 'build-contracts: %s\n' "$*" >&2; }

# 1. Fetch and unpack the Cairo 2.1.0 compiler (once). The sdist is kept next to bin/ and corelib/.
install_compiler() {
    if [[ -x "$TOOLS/bin/starknet-compile" && -d "$TOOLS/corelib/src" ]]; then
        return
    fi
    mkdir -p "$TOOLS"
    local sdist="$TOOLS/$SDIST_NAME"
    if [[ ! -f "$sdist" ]]; then
        log "downloading cairo-lang==0.12.3 sdist from PyPI"
        python3 -m pip download --no-deps --no-binary :all: cairo-lang==0.12.3 -d "$TOOLS" -q
    fi
    local actual
    actual="$(sha256sum "$sdist" | cut -d' ' -f1)"
    if [[ "$actual" != "$SDIST_SHA256" ]]; then
        log "sha256 mismatch for $sdist: got $actual, want $SDIST_SHA256"
        rm -f "$sdist"
        exit 1
    fi
    log "extracting the Cairo 2.1.0 compiler into $TOOLS"
    local tmp
    tmp="$(mktemp -d)"
    python3 - "$sdist" "$tmp" "$COMPILER_DIR_IN_SDIST" <<'PY'
import sys, zipfile
sdist, dest, prefix = sys.argv[1], sys.argv[2], sys.argv[3] + "/"
with zipfile.ZipFile(sdist) as z:
    members = [n for n in z.namelist()
               if n.startswith(prefix + "bin/") or n.startswith(prefix + "corelib/")]
    if not members:
        sys.exit("compiler not found in " + sdist)
    z.extractall(dest, members)
PY
    rm -rf "$TOOLS/bin" "$TOOLS/corelib"
    mv "$tmp/$COMPILER_DIR_IN_SDIST/bin" "$TOOLS/bin"
    mv "$tmp/$COMPILER_DIR_IN_SDIST/corelib" "$TOOLS/corelib"
    rm -rf "$tmp"
    chmod +x "$TOOLS"/bin/*
}

# 2. Compile the contract to Sierra (only when a source is newer than the output). A contract is
#    SOURCE followed by the shared fragments in FRAGMENTS (contracts/shared/*.cairo), concatenated into
#    one file named after SOURCE: a single-file crate names its ABI types after the file, so the
#    practice world keeps its ABI while its rules are shared with the v2 game.
compile_sierra() {
    mkdir -p "$OUT_DIR"
    local part stale=0
    for part in "$SOURCE" "${FRAGMENTS[@]}"; do
        if [[ ! -f "$SIERRA" || "$part" -nt "$SIERRA" ]]; then
            stale=1
        fi
    done
    if [[ $stale == 0 ]]; then
        return
    fi
    log "compiling ${SOURCE#"$ROOT"/}${FRAGMENTS[*]:+ with ${FRAGMENTS[*]#"$ROOT"/}}"
    local dir
    dir="$(mktemp -d)"
    cat "$SOURCE" "${FRAGMENTS[@]}" > "$dir/$(basename "$SOURCE")"
    "$TOOLS/bin/starknet-compile" --single-file "$dir/$(basename "$SOURCE")" "$SIERRA.tmp"
    rm -rf "$dir"
    python3 - "$SIERRA.tmp" <<'PY'
import json, sys
cls = json.load(open(sys.argv[1]))
if not cls["entry_points_by_type"]["EXTERNAL"]:
    sys.exit("no external entry points: use #[external(v0)]")
PY
    mv "$SIERRA.tmp" "$SIERRA"
}

# 3. Compiled class hashes of the CASM that starknet-devnet 0.10.1 (cairo-lang 2.19.4) compiles:
#    Blake2s (Starknet >= 0.14.1, devnet) and Poseidon (Starknet < 0.14.1, katana 1.7 and 1.8).
#    The deploy path picks one per profile (chain.casm_hash).
compute_class_hashes() {
    if [[ -f "$HASH_FILE" && "$HASH_FILE" -nt "$SIERRA" \
          && -f "$POSEIDON_HASH_FILE" && "$POSEIDON_HASH_FILE" -nt "$SIERRA" ]]; then
        return
    fi
    if [[ ! -x "$CASM_HASH_BIN" || "$CASM_HASH_BIN" -ot "$ROOT/tools/casm-hash/src/main.rs" ]]; then
        log "building tools/casm-hash (a few minutes the first time)"
        cargo build --release --quiet --manifest-path "$CASM_HASH_MANIFEST"
    fi
    log "computing the compiled class hashes (Blake2s and Poseidon)"
    "$CASM_HASH_BIN" --hash blake2s "$SIERRA" > "$HASH_FILE.tmp"
    "$CASM_HASH_BIN" --hash poseidon "$SIERRA" > "$POSEIDON_HASH_FILE.tmp"
    mv "$HASH_FILE.tmp" "$HASH_FILE"
    mv "$POSEIDON_HASH_FILE.tmp" "$POSEIDON_HASH_FILE"
}

# 4. Dojo-format manifest template: the four ls_0_0_9 tags all point at this one contract.
write_manifest() {
    python3 - "$SIERRA" "$MANIFEST" <<'PY'
import json, sys
sierra_path, out_path = sys.argv[1], sys.argv[2]
abi = json.load(open(sierra_path))["abi"]
if isinstance(abi, str):
    abi = json.loads(abi)

# Which functions each Dojo tag serves (names as in the mainnet ls_0_0_9 manifest).
TAGS = {
    "ls_0_0_9-game_systems": ["start_game", "explore", "attack", "flee", "equip", "drop",
                              "buy_items", "select_stat_upgrades", "get_game_state"],
    "ls_0_0_9-adventurer_systems": ["get_adventurer", "get_bag"],
    "ls_0_0_9-game_token_systems": ["mint_game", "token_address", "owner_of"],
    "ls_0_0_9-settings_systems": ["game_settings"],
}

def functions(entries):
    for entry in entries:
        if entry["type"] == "function":
            yield entry["name"]
        elif entry["type"] == "interface":
            yield from functions(entry["items"])

available = set(functions(abi))
for tag, names in TAGS.items():
    missing = [n for n in names if n not in available]
    if missing:
        sys.exit(f"{tag}: functions missing from the ABI: {missing}")

manifest = {
    "world": {
        "name": "Loot Survivor practice world",
        "namespace": "ls_0_0_9",
        "class_hash": None,
        "address": None,
        "abi": abi,
    },
    "contracts": [
        {"tag": tag, "address": None, "class_hash": None, "abi": abi, "systems": names}
        for tag, names in TAGS.items()
    ],
    "events": [
        {"tag": "ls_0_0_9-GameEvent",
         "selector": "0x53f716bb3e8a7730e612809aa0416ce2cbf4aff462e4784d5f2f29d5e96605c"},
    ],
}
with open(out_path + ".tmp", "w") as f:
    json.dump(manifest, f, indent=2)
    f.write("\n")
PY
    mv "$MANIFEST.tmp" "$MANIFEST"
}

# Compiles and hashes contracts/NAME.cairo like the world, followed by the shared fragments given
# after NAME.
build_contract() {
    local name="$1"
    shift
    local SOURCE="$ROOT/contracts/$name.cairo"
    local SIERRA="$OUT_DIR/$name.sierra.json"
    local HASH_FILE="$OUT_DIR/$name.compiled_class_hash"
    local POSEIDON_HASH_FILE="$OUT_DIR/$name.compiled_class_hash.poseidon"
    local FRAGMENTS=("$@")
    compile_sierra
    compute_class_hashes
}

# Writes abi/FILE: {"contracts": [{tag, address: null, class_hash: null, abi}]} for TAGS, a JSON
# object {tag: [contract name, [functions its ABI must have]]}, in its order.
write_abi_file() {
    python3 - "$OUT_DIR" "$1" "$2" <<'PY'
import json, os, sys
out_dir, file_name, tags = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
contracts = []
for tag, (name, needed) in tags.items():
    abi = json.load(open(os.path.join(out_dir, name + ".sierra.json")))["abi"]
    if isinstance(abi, str):
        abi = json.loads(abi)
    names = {e["name"] for e in abi if e["type"] == "function"}
    missing = [n for n in needed if n not in names]
    if missing:
        sys.exit(f"{tag}: functions missing from the ABI: {missing}")
    contracts.append({"tag": tag, "address": None, "class_hash": None, "abi": abi})
path = os.path.join(out_dir, file_name)
with open(path + ".tmp", "w") as f:
    json.dump({"contracts": contracts}, f, indent=2)
    f.write("\n")
os.replace(path + ".tmp", path)
PY
}

# 5. The practice dungeon (Beast Mode's ticket booth interface), its ticket ERC20 and its golden pass
#    ERC721: each compiled and hashed like the world (same steps, their own files), then one manifest
#    template abi/practice_dungeon.json with the three ABIs, tagged practice-dungeon, practice-ticket and
#    practice-golden_pass (the bindings and `devnet deploy` read it).
build_dungeon() {
    build_contract practice_ticket
    build_contract practice_golden_pass
    build_contract practice_dungeon
    write_abi_file practice_dungeon.json '{
        "practice-dungeon": ["practice_dungeon", ["buy_game", "claim_free_game", "cost_to_play"]],
        "practice-ticket": ["practice_ticket", ["approve", "balance_of", "allowance", "mint"]],
        "practice-golden_pass": ["practice_golden_pass", ["owner_of", "mint"]]
    }'
}

# 6. The v2 practice world (Death Mountain's second generation, docs/practice-v2.md): the VRF
#    stand-in, the Denshokan-like ERC721, GameCore (sharing the world's rules), GameToken and the
#    randomness subsystem a variant's GameCore may draw through, each compiled and hashed like the
#    world, then one ABI file abi/practice_v2.json with the four ABIs
#    tagged practice_v2-vrf, practice_v2-denshokan, practice_v2-game and practice_v2-token (the
#    Rust side's v2 bindings and `devnet deploy --generation v2` read it).
build_v2() {
    build_contract practice_vrf "$SHARED/prelude.cairo"
    build_contract practice_denshokan
    build_contract practice_v2_game "$SHARED/prelude.cairo" "$SHARED/rules.cairo" "$SHARED/actions.cairo"
    build_contract practice_v2_token "$SHARED/prelude.cairo"
    build_contract practice_v2_randomness "$SHARED/prelude.cairo"
    write_abi_file practice_v2.json '{
        "practice_v2-vrf": ["practice_vrf", ["request_random", "consume_random"]],
        "practice_v2-denshokan": ["practice_denshokan", ["owner_of", "balance_of", "register_game", "mint"]],
        "practice_v2-game": ["practice_v2_game", ["start_game", "explore", "attack", "flee", "equip",
            "drop_items", "buy_items", "select_stat_upgrades", "surrender", "load_assets",
            "settings_exist", "set_settings", "set_vrf_consumer"]],
        "practice_v2-token": ["practice_v2_token", ["mint_game", "score", "game_over"]]
    }'
}

install_compiler
compile_sierra
compute_class_hashes
write_manifest
log "done: blake2s $(cat "$HASH_FILE"), poseidon $(cat "$POSEIDON_HASH_FILE")"
build_dungeon
log "done: the practice dungeon, ticket and golden pass"
build_v2
log "done: the v2 practice world (VRF, Denshokan, GameCore, GameToken)"
