//! The game as this tool surface presents it: the tools' names and arguments, the legal tools
//! with their descriptions, the adventurer view with them, and the compact rendering. The game
//! crate knows the rules; what a model reads and calls is worded here.

pub mod compact;
pub mod event_lines;
pub mod legal;
pub mod tool_call;
pub mod tools;
pub mod view;
