//! `loot-survivor-mcp`: the binary; the command line lives in the `cli` layer.

fn main() -> std::process::ExitCode {
    cli::main()
}
