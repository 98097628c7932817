#!/usr/bin/env node
// Produces tests/fixtures/outside_execution.json: SNIP-12 (revision 1) hashes of SNIP-9 v2
// OutsideExecutions and the game's VRF salts, computed by starknet.js (an implementation
// independent of ours), for the unit tests in crates/chain/src/outside.rs and crates/chain/src/vrf.rs.
//
//   TMP=$(mktemp -d) && npm install --prefix "$TMP" --no-audit --no-fund starknet@7.1.0
//   NODE_PATH="$TMP/node_modules" node scripts/snip12-fixtures.cjs > tests/fixtures/outside_execution.json
//
// Never commit node_modules.
"use strict";
const { typedData, outsideExecution, hash, shortString, num } = require("starknet");

const ANY_CALLER = shortString.encodeShortString("ANY_CALLER");
const VRF = "0x051fea4450da9d6aee758bdeba88b2f665bcbf549d2c61421aa724e9ac0ced8f";
const GAME = "0x6f7c4350d6d5ee926b3ac4fa0c9c351055456e75c92227468d84232fc493a9c";
const ACCOUNT = "0x064b48806902a367c8598f4f95c305e8c1a1acba5f082d294a43793113115691";
const SN_MAIN = shortString.encodeShortString("SN_MAIN");
const SN_SEPOLIA = shortString.encodeShortString("SN_SEPOLIA");

const salt = (xs) => num.toHex(hash.computePoseidonHashOnElements(xs.map((x) => BigInt(x))));

const cases = [
  {
    name: "explore with VRF, any caller, mainnet",
    chainId: SN_MAIN,
    signer: ACCOUNT,
    options: { caller: ANY_CALLER, execute_after: 1, execute_before: 1893456000 },
    nonce: "0x1234",
    calls: [
      { contractAddress: VRF, entrypoint: "request_random", calldata: [GAME, "0x1", salt([5, 42])] },
      { contractAddress: GAME, entrypoint: "explore", calldata: ["42", "1"] },
    ],
  },
  {
    name: "attack with VRF, specific caller, sepolia",
    chainId: SN_SEPOLIA,
    signer: "0x078662e7352d062084b0010068b99288486c2d8b914f6e2a55ce945f8792c8b1",
    options: { caller: "0x4f5e1", execute_after: 0, execute_before: "0xffffffffffffffffffffffffffffffff" },
    nonce: "0x7a3f5b1c9e2d4a6b8c0e1f2a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6",
    calls: [
      { contractAddress: VRF, entrypoint: "request_random", calldata: [GAME, "0x1", salt([17, 9001, 8])] },
      { contractAddress: GAME, entrypoint: "attack", calldata: ["9001", "0"] },
    ],
  },
  {
    name: "one call with empty calldata",
    chainId: shortString.encodeShortString("SN_DEVNET"),
    signer: ACCOUNT,
    options: { caller: ANY_CALLER, execute_after: 100, execute_before: 200 },
    nonce: "0x0",
    calls: [{ contractAddress: GAME, entrypoint: "get_version", calldata: [] }],
  },
  {
    name: "no calls",
    chainId: SN_MAIN,
    signer: ACCOUNT,
    options: { caller: ANY_CALLER, execute_after: 1, execute_before: 2 },
    nonce: "0x99",
    calls: [],
  },
  {
    name: "three calls, long calldata",
    chainId: SN_SEPOLIA,
    signer: ACCOUNT,
    options: { caller: ACCOUNT, execute_after: 1700000000, execute_before: 1700003600 },
    nonce: "0x5",
    calls: [
      { contractAddress: VRF, entrypoint: "request_random", calldata: [GAME, "0x1", salt([300, 123456789, 65536])] },
      { contractAddress: GAME, entrypoint: "equip", calldata: ["123456789", "3", "12", "34", "56"] },
      { contractAddress: GAME, entrypoint: "buy_items", calldata: ["123456789", "2", "1", "77", "1"] },
    ],
  },
];

const out = {
  generator: "starknet.js 7.1.0 (scripts/snip12-fixtures.cjs)",
  outside_execution_type: typedData.encodeType(
    outsideExecution.getTypedData(SN_MAIN, cases[0].options, "0x1", [], "2").types,
    "OutsideExecution",
    "1",
  ),
  domain_type: typedData.encodeType(
    outsideExecution.getTypedData(SN_MAIN, cases[0].options, "0x1", [], "2").types,
    "StarknetDomain",
    "1",
  ),
  executions: cases.map((c) => {
    const td = outsideExecution.getTypedData(c.chainId, c.options, c.nonce, c.calls, "2");
    return {
      name: c.name,
      chain_id: num.toHex(c.chainId),
      signer: num.toHex(c.signer),
      caller: num.toHex(c.options.caller),
      nonce: num.toHex(c.nonce),
      execute_after: num.toHex(c.options.execute_after),
      execute_before: num.toHex(c.options.execute_before),
      calls: td.message.Calls.map((k) => ({
        to: num.toHex(k.To),
        selector: num.toHex(k.Selector),
        calldata: k.Calldata.map((x) => num.toHex(x)),
      })),
      message_hash: num.toHex(typedData.getMessageHash(td, c.signer)),
    };
  }),
  salts: [
    [1, 1],
    [0, 7],
    [5, 42],
    [65535, 18446744073709551615n],
  ]
    .map(([xp, id]) => ({ kind: "explore", xp, adventurer_id: id.toString(), hash: salt([xp, id]) }))
    .concat(
      [
        [17, 9001, 7],
        [0, 1, 0],
        [300, 123456789, 65535],
      ].map(([xp, id, ac]) => ({
        kind: "battle",
        xp,
        adventurer_id: id.toString(),
        action_count_before: ac,
        // the contract increments action_count first (u16 wrap-around)
        hash: salt([xp, id, (ac + 1) % 65536]),
      })),
    ),
};
process.stdout.write(JSON.stringify(out, null, 2) + "\n");
