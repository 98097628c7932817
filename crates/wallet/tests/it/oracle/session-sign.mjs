// Signs fixed Controller session vectors with npm `@cartridge/controller-wasm` (an independent
// implementation of the session signature) and prints one JSON line with the results, for
// crates/wallet/tests/it/session_oracle.rs to compare with our Rust signer. Offline: `sign` needs no RPC.
//
// Usage: node session-sign.mjs <package dir>  (vectors as JSON on stdin)
// Input:  {"vectors": [{"name", "private_key", "address", "owner_guid", "chain_id", "expires_at",
//          "hash", "policies": {"<contract>": ["<entrypoint>:<selector>[:<spender>:<amount>]", ...]},
//          "calls": [{"to", "entrypoint", "calldata": [...]}]}]}
// Output: {"results": [{"name", "session_key_guid", "signature": ["0x..", ...]}]}
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const pkg = process.argv[2];
if (!pkg) {
  console.error("usage: node session-sign.mjs <controller-wasm package dir>");
  process.exit(2);
}
const dir = join(pkg, "pkg-session");

// The package is built for bundlers (`import * as wasm from "./x.wasm"`), which Node 20 does not
// load without a flag; instantiate the module by hand against its JS glue instead.
const glue = await import(pathToFileURL(join(dir, "session_wasm_bg.js")).href);
const bytes = readFileSync(join(dir, "session_wasm_bg.wasm"));
const { instance } = await WebAssembly.instantiate(bytes, { "./session_wasm_bg.js": glue });
glue.__wbg_set_wasm(instance.exports);
if (instance.exports.__wbindgen_start) instance.exports.__wbindgen_start();

const input = JSON.parse(readFileSync(0, "utf8"));

// Session policies take selectors while calls take names (the wasm hashes those itself), so each
// policy method arrives as "entrypoint:selector": the name to sort by, the selector to hash.
function toWasmPolicies(policies) {
  // The keychain's order (cartridge-gg/controller packages/keychain utils toWasmPolicies):
  // contracts by lower-cased address string, then methods by entrypoint name (localeCompare).
  return Object.entries(policies)
    .sort(([a], [b]) => a.toLowerCase().localeCompare(b.toLowerCase()))
    .flatMap(([target, methods]) =>
      methods
        .map((m) => {
          const [entrypoint, selector, spender, amount] = m.split(":");
          return { entrypoint, selector, spender, amount };
        })
        .sort((a, b) => a.entrypoint.localeCompare(b.entrypoint))
        .map((m) =>
          m.spender
            ? { target, spender: m.spender, amount: m.amount }
            : { target, method: m.selector, authorized: true },
        ),
    );
}

const results = [];
for (const v of input.vectors) {
  const sessionKeyGuid = glue.signerToGuid({ starknet: { privateKey: v.private_key } });
  const session = {
    policies: toWasmPolicies(v.policies),
    expiresAt: v.expires_at,
    metadataHash: "0x0",
    sessionKeyGuid,
    guardianKeyGuid: "0x0",
  };
  const account = glue.CartridgeSessionAccount.newAsRegistered(
    "http://127.0.0.1:1/",
    v.private_key,
    v.address,
    v.owner_guid,
    v.chain_id,
    session,
  );
  const calls = v.calls.map((c) => ({
    contractAddress: c.to,
    entrypoint: c.entrypoint,
    calldata: c.calldata,
  }));
  const signature = await account.sign(v.hash, calls);
  results.push({ name: v.name, session_key_guid: sessionKeyGuid, signature });
  account.free();
}
process.stdout.write(JSON.stringify({ results }) + "\n");
