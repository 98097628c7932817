//! casm-hash: compile a Sierra contract class to CASM and print its compiled class hash.
//!
//! starknet-devnet 0.10.1 recompiles every declared Sierra class with cairo-lang 2.19.4
//! (through universal-sierra-compiler) and compares the declared compiled class hash with
//! `casm.hash(&HashVersion::V2)`, the Blake2s hash of Starknet >= 0.14.1. This tool repeats
//! exactly that compilation and prints `CasmContractClass::compiled_class_hash()` (Blake2s).
//!
//! Usage: casm-hash <contract.sierra.json>   → prints one line `0x…`

use std::process::ExitCode;

use cairo_lang_starknet_classes::casm_contract_class::CasmContractClass;
use cairo_lang_starknet_classes::contract_class::ContractClass;
use serde_json::Value;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 2 {
        eprintln!("usage: casm-hash <contract.sierra.json>");
        return ExitCode::from(2);
    }
    match compiled_class_hash(&args[1]) {
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

/// Reads the Sierra class at `path` and returns its Blake2s compiled class hash as 0x-hex.
fn compiled_class_hash(path: &str) -> Result<String, String> {
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
    Ok(format!("{:#x}", casm.compiled_class_hash()))
}
