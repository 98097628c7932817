//! casm-hash: compile a Sierra contract class to CASM and print its compiled class hash.
//!
//! starknet-devnet 0.10.1 recompiles every declared Sierra class with cairo-lang 2.19.4
//! (through universal-sierra-compiler) and compares the declared compiled class hash with
//! `casm.hash(&HashVersion::V2)`, the Blake2s hash of Starknet >= 0.14.1. This tool repeats
//! exactly that compilation and prints the hash of the resulting CASM:
//!
//! - `--hash blake2s` (the default): `CasmContractClass::compiled_class_hash()`, what Starknet
//!   >= 0.14.1 and starknet-devnet 0.10.1 expect;
//! - `--hash poseidon`: `CasmContractClass::legacy_compiled_class_hash()`, the hash of Starknet
//!   < 0.14.1, which katana 1.7 (Starknet 0.13 blocks) and katana 1.8 (Starknet 0.14.0 blocks)
//!   record for a declared class. It hashes the CASM of cairo-lang 2.19.4; katana compiles with
//!   its own cairo-lang (2.11.2 in 1.7.1, 2.12.4 in 1.8.0-rc.9, per its Cargo.lock), whose CASM
//!   may differ.
//!
//! Usage: casm-hash [--hash poseidon|blake2s] <contract.sierra.json>   → prints one line `0x…`

use std::process::ExitCode;

use cairo_lang_starknet_classes::casm_contract_class::CasmContractClass;
use cairo_lang_starknet_classes::contract_class::ContractClass;
use serde_json::Value;

const USAGE: &str = "usage: casm-hash [--hash poseidon|blake2s] <contract.sierra.json>";

/// Which compiled-class-hash function to apply to the CASM.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum HashFunction {
    /// Starknet >= 0.14.1 (SNIP-34).
    Blake2s,
    /// Starknet < 0.14.1.
    Poseidon,
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (function, path) = match parse_args(&args) {
        Ok(parsed) => parsed,
        Err(err) => {
            eprintln!("casm-hash: {err}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    match compiled_class_hash(path, function) {
        Ok(hash) => {
            println!("{hash}");
            ExitCode::SUCCESS
        }
        Err(err) => {
            eprintln!("casm-hash: {err}");
            ExitCode::FAILURE
        }
    }
}

/// Reads `[--hash poseidon|blake2s] <path>` (the switch may come before or after the path).
fn parse_args(args: &[String]) -> Result<(HashFunction, &str), String> {
    let mut function = HashFunction::Blake2s;
    let mut path = None;
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        let value = if arg == "--hash" {
            Some(rest.next().ok_or("--hash needs a value")?.as_str())
        } else {
            arg.strip_prefix("--hash=")
        };
        match value {
            Some("poseidon") => function = HashFunction::Poseidon,
            Some("blake2s") => function = HashFunction::Blake2s,
            Some(other) => return Err(format!("unknown hash function '{other}'")),
            None if path.is_none() && !arg.starts_with("--") => path = Some(arg.as_str()),
            None => return Err(format!("unexpected argument '{arg}'")),
        }
    }
    Ok((function, path.ok_or("missing the Sierra file")?))
}

/// Reads the Sierra class at `path` and returns its compiled class hash as 0x-hex.
fn compiled_class_hash(path: &str, function: HashFunction) -> Result<String, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    let mut sierra: Value = serde_json::from_str(&text).map_err(|e| format!("bad JSON: {e}"))?;
    // Same normalisation as universal-sierra-compiler: the ABI and debug info do not take part
    // in the compilation (and an old-style ABI would not parse with the 2.19 types).
    sierra["abi"] = Value::Null;
    sierra["sierra_program_debug_info"] = Value::Null;
    sierra["contract_class_version"] = Value::String(String::new());

    let class: ContractClass =
        serde_json::from_value(sierra).map_err(|e| format!("not a Sierra contract class: {e}"))?;
    let program = class
        .extract_sierra_program(true)
        .map_err(|e| format!("cannot extract the Sierra program: {e}"))?;
    let casm = CasmContractClass::from_contract_class(class, program, true, usize::MAX)
        .map_err(|e| format!("Sierra to CASM compilation failed: {e}"))?;
    let hash = match function {
        HashFunction::Blake2s => casm.compiled_class_hash(),
        HashFunction::Poseidon => casm.legacy_compiled_class_hash(),
    };
    Ok(format!("{hash:#x}"))
}
