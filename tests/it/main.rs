//! The facade's integration tests, one binary (`cargo test --test it`; one file's tests with
//! `cargo test --test it <module>::`): the real binary over stdio and HTTP, real MCP clients
//! (rmcp, the Python SDK, the MCP Inspector), starknet-devnet (`*_devnet`), the embedded sim
//! chain, the Torii and Denshokan stand-ins, and the repository's own rules (`docs_links`,
//! `file_sizes`, `layers`). See docs/tests.md.
//!
//! What the modules share: `common` (the devnet harness, the binary's path, the MCP call helper,
//! fault proxy, paymaster stand-in, Controller accounts), `http_support` (`serve --http` and the
//! Python fleet), `inspector_support` (the MCP Inspector's launcher), `torii_support` and
//! `denshokan_support` (the stand-ins, which the indexer crate's binary includes too) and `tools`
//! (the indexer tools' in-process server over the Torii stand-in).
//!
//! The tests run on the harness's threads side by side whatever file they came from: none may
//! change the process (environment, working directory, a global `tracing` subscriber); each
//! starts its own servers and devnets, on ports the OS hands out.

// Shared helpers.
mod common;
mod denshokan_support;
mod http_support;
mod inspector_support;
/// Not inside `torii_support`: it needs the `mcp` layer, which the indexer crate's tests, built
/// on the same stand-in, may not name.
#[path = "torii_support/tools.rs"]
mod tools;
mod torii_support;

// The tests, one module per former test file.
mod advise_tool;
mod archived_devnet;
mod big_ids;
mod check_devnet;
mod check_variant_devnet;
mod check_vrf_devnet;
mod combined_devnet;
mod compact_results;
mod dead_move_devnet;
mod denshokan_hostile;
mod denshokan_index;
mod differential_devnet;
mod docs_links;
mod entry_devnet;
mod faults_devnet;
mod file_sizes;
mod first_minute;
mod first_minute_devnet;
mod hostile_input;
mod http_devnet;
mod http_inspector;
mod http_sim;
mod inspector_cli;
mod journal_devnet;
mod katana_devnet;
mod keystore_devnet;
mod late_connect_devnet;
mod layers;
mod live_denshokan;
mod live_devnet;
mod live_python;
mod live_sim;
mod mainnet_offline;
mod mcp_conventions;
mod mcp_logging;
mod outside_devnet;
mod outside_v3_devnet;
mod play_devnet;
mod python_client;
mod read_only_devnet;
mod replay_sim;
mod requests_devnet;
mod secrets_devnet;
mod session_approval;
mod session_concurrent_devnet;
mod session_devnet;
mod session_game_devnet;
mod session_v2_devnet;
mod shared_account_devnet;
mod sheet_browser;
mod sheet_card;
mod sim_kill;
mod sim_tools;
mod sim_world;
mod startup_secrets;
mod stop_devnet;
mod text_traps;
mod torii_devnet;
mod torii_game_tools;
mod torii_tools;
mod trap_suite;
mod traps;
mod v2_client_devnet;
mod v2_envelopes_devnet;
mod v2_lifecycle_devnet;
mod v2_mcp_devnet;
mod v2_new_game_devnet;
mod v2_no_indexer;
mod v2_world_devnet;
mod vrf_client_devnet;
mod vrf_rule_devnet;
mod vrf_session_devnet;
mod watch_browser;
mod watch_page;
mod writes_devnet;
