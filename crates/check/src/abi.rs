//! A Cairo (Sierra) ABI read for comparison: its functions with their argument and return types,
//! each type reduced to its wire shape (primitives by full path, arrays and spans alike, structs
//! by their member types, enums by their variant types), so two classes compare by what their
//! calldata and answers look like, not by where their types are declared.

use std::collections::{BTreeMap, HashMap};
use std::rc::Rc;

use serde_json::Value;

use chain::type_syntax::{split_generic, tuple_parts};

/// Nesting deeper than this has no shape (an ABI's types are not recursive; a guard only).
const MAX_DEPTH: usize = 16;

/// The longest shape built, in bytes (the practice worlds' longest is about 1 KB); a longer one
/// compares as different.
pub const MAX_SHAPE: usize = 16 * 1024;

/// `s` when it is within [`MAX_SHAPE`].
fn capped(s: String) -> Option<Rc<str>> {
    (s.len() <= MAX_SHAPE).then(|| Rc::from(s))
}

/// One function of an ABI.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Function {
    /// Its name.
    pub name: String,
    /// Its arguments, as (name, Cairo type).
    pub inputs: Vec<(String, String)>,
    /// Its return types.
    pub outputs: Vec<String>,
}

/// A contract's ABI, indexed by function and by type name.
#[derive(Debug, Clone, Default)]
pub struct Abi {
    functions: BTreeMap<String, Function>,
    defs: BTreeMap<String, Value>,
}

impl Abi {
    /// Reads a Sierra ABI (the JSON array of its entries); functions inside interfaces count.
    pub fn parse(abi: &Value) -> Result<Self, String> {
        let entries = abi.as_array().ok_or("the ABI is not a JSON array")?;
        let mut out = Abi::default();
        for entry in entries {
            match entry["type"].as_str() {
                Some("function") => out.add_function(entry),
                Some("interface") => {
                    for item in entry["items"].as_array().into_iter().flatten() {
                        out.add_function(item);
                    }
                }
                Some("struct" | "enum") => {
                    if let Some(name) = entry["name"].as_str() {
                        out.defs
                            .entry(name.to_string())
                            .or_insert_with(|| entry.clone());
                    }
                }
                _ => {}
            }
        }
        Ok(out)
    }

    /// Reads an ABI given as a JSON string (a flattened Sierra class's `abi`).
    pub fn parse_str(text: &str) -> Result<Self, String> {
        let v: Value =
            serde_json::from_str(text).map_err(|e| format!("the ABI is not JSON: {e}"))?;
        Self::parse(&v)
    }

    fn add_function(&mut self, v: &Value) {
        if v["type"].as_str() != Some("function") {
            return;
        }
        let Some(name) = v["name"].as_str() else {
            return;
        };
        let types =
            |key: &str| -> Vec<&Value> { v[key].as_array().into_iter().flatten().collect() };
        let f = Function {
            name: name.to_string(),
            inputs: types("inputs")
                .into_iter()
                .map(|i| {
                    let n = i["name"].as_str().unwrap_or("arg");
                    (n.to_string(), i["type"].as_str().unwrap_or("?").to_string())
                })
                .collect(),
            outputs: types("outputs")
                .into_iter()
                .map(|o| o["type"].as_str().unwrap_or("?").to_string())
                .collect(),
        };
        self.functions.entry(name.to_string()).or_insert(f);
    }

    /// The function called `name`, if the ABI has one.
    pub fn function(&self, name: &str) -> Option<&Function> {
        self.functions.get(name)
    }

    /// The wire shape of a Cairo type: `core::felt252`, `Array<core::integer::u8>`,
    /// `{core::integer::u8,core::bool}` (a struct), `enum{()|core::integer::u8}`, `(A,B)`.
    /// `None` when the type refers to itself or its shape would pass [`MAX_SHAPE`] bytes: a
    /// deployed class can be built so, and such a type compares as different.
    pub fn shape(&self, ty: &str) -> Option<String> {
        let mut memo = HashMap::new();
        self.shape_at(ty, 0, &mut memo).map(|s| s.to_string())
    }

    /// One type's shape; each named type is expanded once per [`Abi::shape`] call (`memo`, where
    /// `None` also marks a type being expanded), so the work grows with the ABI, not its nesting.
    fn shape_at(
        &self,
        ty: &str,
        depth: usize,
        memo: &mut HashMap<String, Option<Rc<str>>>,
    ) -> Option<Rc<str>> {
        let ty = ty.trim().trim_start_matches('@');
        if depth > MAX_DEPTH {
            return None;
        }
        if let Some(parts) = tuple_parts(ty) {
            let parts = self.shapes_of(parts, depth, memo)?;
            return capped(format!("({})", parts.join(",")));
        }
        if let (base, Some(inner)) = split_generic(ty)
            && matches!(base, "core::array::Array" | "core::array::Span")
        {
            return capped(format!("Array<{}>", self.shape_at(inner, depth + 1, memo)?));
        }
        let Some(def) = self.defs.get(ty) else {
            return capped(ty.to_string());
        };
        if let Some(known) = memo.get(ty) {
            return known.clone();
        }
        memo.insert(ty.to_string(), None);
        let (key, open, sep) = match def["type"].as_str() {
            Some("enum") => ("variants", "enum{", "|"),
            _ => ("members", "{", ","),
        };
        let members = def[key]
            .as_array()
            .into_iter()
            .flatten()
            .map(|m| m["type"].as_str().unwrap_or("()"));
        let shape = self
            .shapes_of(members, depth, memo)
            .and_then(|parts| capped(format!("{open}{}}}", parts.join(sep))));
        memo.insert(ty.to_string(), shape.clone());
        shape
    }

    /// The shapes of `types`, stopping at the first that has none or once their total passes
    /// [`MAX_SHAPE`].
    fn shapes_of<'t>(
        &self,
        types: impl IntoIterator<Item = &'t str>,
        depth: usize,
        memo: &mut HashMap<String, Option<Rc<str>>>,
    ) -> Option<Vec<Rc<str>>> {
        let mut total = 0;
        let mut out = Vec::new();
        for ty in types {
            let shape = self.shape_at(ty, depth + 1, memo)?;
            total += shape.len() + 1;
            if total > MAX_SHAPE {
                return None;
            }
            out.push(shape);
        }
        Some(out)
    }

    /// `f` as a reader sees it: `attack(adventurer_id: felt252, to_the_death: bool)`, with
    /// `-> (Adventurer, Bag)` when `outputs`; with `shapes`, each type followed by its shape.
    pub fn signature(&self, f: &Function, outputs: bool, shapes: bool) -> String {
        let show = |ty: &str| {
            if shapes {
                let shape = self.shape(ty);
                let shape = shape.as_deref().map_or(UNSHAPED.into(), short);
                format!("{} = {shape}", short(ty))
            } else {
                short(ty)
            }
        };
        let args: Vec<String> = f
            .inputs
            .iter()
            .map(|(n, t)| format!("{n}: {}", show(t)))
            .collect();
        let mut s = format!("{}({})", f.name, args.join(", "));
        if outputs && !f.outputs.is_empty() {
            let outs: Vec<String> = f.outputs.iter().map(|t| show(t)).collect();
            s.push_str(&format!(" -> {}", outs.join(", ")));
        }
        s
    }
}

/// What a signature shows for a type without a shape.
const UNSHAPED: &str = "(recursive, or too large to compare)";

/// How `deployed`'s function `name` differs from `ours`'s, as (ours, deployed) signatures
/// (`None` for deployed: it has no such function); `None` when they agree. Arguments compare by
/// count and shape (their names are not on the wire), and return types too when `outputs`.
pub fn compare(
    ours: &Abi,
    deployed: &Abi,
    name: &str,
    outputs: bool,
) -> Option<(String, Option<String>)> {
    let mine = ours.function(name)?;
    let Some(theirs) = deployed.function(name) else {
        return Some((ours.signature(mine, outputs, false), None));
    };
    let same = |a: &[String], b: &[String], x: &Abi, y: &Abi| {
        a.len() == b.len()
            && a.iter()
                .zip(b)
                .all(|(p, q)| match (x.shape(p), y.shape(q)) {
                    (Some(p), Some(q)) => p == q,
                    _ => false,
                })
    };
    let types = |f: &Function| f.inputs.iter().map(|(_, t)| t.clone()).collect::<Vec<_>>();
    let inputs_agree = same(&types(mine), &types(theirs), ours, deployed);
    let outputs_agree = !outputs || same(&mine.outputs, &theirs.outputs, ours, deployed);
    if inputs_agree && outputs_agree {
        return None;
    }
    let (a, b) = (
        ours.signature(mine, outputs, false),
        deployed.signature(theirs, outputs, false),
    );
    if a != b {
        return Some((a, Some(b)));
    }
    // Same names, different members: show the shapes.
    Some((
        ours.signature(mine, outputs, true),
        Some(deployed.signature(theirs, outputs, true)),
    ))
}

/// A Cairo type with each path cut to its last segment: `core::array::Array::<core::integer::u8>`
/// reads `Array<u8>`.
pub fn short(ty: &str) -> String {
    let mut out = String::new();
    let mut token = String::new();
    let flush = |token: &mut String, out: &mut String| {
        let t = token.trim_end_matches("::");
        out.push_str(t.rsplit("::").next().unwrap_or(t));
        token.clear();
    };
    for c in ty.chars() {
        match c {
            '<' | '>' | '(' | ')' | ',' | '{' | '}' | '|' | '@' | ' ' => {
                flush(&mut token, &mut out);
                out.push(c);
            }
            _ => token.push(c),
        }
    }
    flush(&mut token, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn abi(attack_arg: &str, stats_member: &str) -> Abi {
        Abi::parse(&json!([
            {"type": "struct", "name": "game::Stats", "members": [
                {"name": "strength", "type": "core::integer::u8"},
                {"name": "luck", "type": stats_member}]},
            {"type": "enum", "name": "core::option::Option::<core::integer::u8>", "variants": [
                {"name": "Some", "type": "core::integer::u8"}, {"name": "None", "type": "()"}]},
            {"type": "interface", "name": "game::IGame", "items": [
                {"type": "function", "name": "attack", "inputs": [
                    {"name": "adventurer_id", "type": "core::felt252"},
                    {"name": "to_the_death", "type": attack_arg}], "outputs": [],
                 "state_mutability": "external"},
                {"type": "function", "name": "upgrade", "inputs": [
                    {"name": "stats", "type": "game::Stats"},
                    {"name": "items", "type": "core::array::Span::<core::integer::u8>"},
                    {"name": "pick", "type": "core::option::Option::<core::integer::u8>"}],
                 "outputs": [], "state_mutability": "external"}]},
            {"type": "function", "name": "load", "inputs": [],
             "outputs": [{"type": "(game::Stats, core::bool)"}], "state_mutability": "view"}
        ]))
        .unwrap()
    }

    #[test]
    fn an_argument_of_another_type_is_a_difference_naming_both_types() {
        let ours = abi("core::bool", "core::integer::u8");
        let theirs = abi("core::integer::u8", "core::integer::u8");
        let (a, b) = compare(&ours, &theirs, "attack", false).unwrap();
        assert_eq!(a, "attack(adventurer_id: felt252, to_the_death: bool)");
        assert_eq!(
            b.as_deref(),
            Some("attack(adventurer_id: felt252, to_the_death: u8)")
        );
        assert_eq!(compare(&ours, &ours, "attack", false), None);
        assert_eq!(compare(&ours, &theirs, "upgrade", false), None);
    }

    #[test]
    fn structs_compare_by_members_and_spans_as_arrays() {
        let ours = abi("core::bool", "core::integer::u8");
        let theirs = abi("core::bool", "core::integer::u16");
        let shape = |ty| ours.shape(ty).unwrap();
        assert_eq!(
            shape("game::Stats"),
            "{core::integer::u8,core::integer::u8}"
        );
        assert_eq!(
            shape("@core::array::Span::<core::integer::u8>"),
            "Array<core::integer::u8>"
        );
        assert_eq!(
            shape("core::option::Option::<core::integer::u8>"),
            "enum{core::integer::u8|()}"
        );
        let (a, b) = compare(&ours, &theirs, "upgrade", false).unwrap();
        assert!(a.contains("stats: Stats = {u8,u8}"), "{a}");
        assert!(b.unwrap().contains("stats: Stats = {u8,u16}"));
        // The view's answer differs too, but only when outputs are compared.
        assert_eq!(compare(&ours, &theirs, "load", false), None);
        let (a, _) = compare(&ours, &theirs, "load", true).unwrap();
        assert!(a.ends_with("-> (Stats, bool) = ({u8,u8},bool)"), "{a}");
    }

    #[test]
    fn a_missing_function_or_an_extra_argument_is_a_difference() {
        let ours = abi("core::bool", "core::integer::u8");
        let mut theirs = abi("core::bool", "core::integer::u8");
        theirs.functions.remove("attack");
        assert_eq!(compare(&ours, &theirs, "attack", false).unwrap().1, None);
        let mut longer = abi("core::bool", "core::integer::u8");
        let f = longer.functions.get_mut("attack").unwrap();
        f.inputs.push(("extra".into(), "core::felt252".into()));
        assert!(compare(&ours, &longer, "attack", false).is_some());
    }

    /// A struct of `fanout` members of the next, `levels` deep: its shape doubles (or more)
    /// with each level.
    fn nested(levels: usize, fanout: usize, last: &str) -> Abi {
        let mut entries: Vec<Value> = (0..levels)
            .map(|i| {
                let next = if i + 1 == levels {
                    last.to_string()
                } else {
                    format!("t::S{}", i + 1)
                };
                let members: Vec<Value> = (0..fanout)
                    .map(|m| json!({"name": format!("m{m}"), "type": next}))
                    .collect();
                json!({"type": "struct", "name": format!("t::S{i}"), "members": members})
            })
            .collect();
        entries.push(json!({"type": "function", "name": "attack", "inputs": [
            {"name": "a", "type": "t::S0"}], "outputs": [], "state_mutability": "external"}));
        Abi::parse(&Value::Array(entries)).unwrap()
    }

    #[test]
    fn a_recursive_or_exploding_type_has_no_shape_and_differs_at_once() {
        let started = std::time::Instant::now();
        let exploding = nested(40, 4, "core::felt252");
        assert_eq!(exploding.shape("t::S0"), None);
        assert_eq!(
            exploding.shape("t::S39").unwrap(),
            "{core::felt252,core::felt252,core::felt252,core::felt252}"
        );
        let recursive = nested(3, 2, "t::S0");
        assert_eq!(recursive.shape("t::S1"), None);
        // Each against itself still differs: a type without a shape is never the same as one.
        for abi in [&exploding, &recursive] {
            let (_, deployed) = compare(abi, abi, "attack", false).unwrap();
            assert!(deployed.unwrap().contains(UNSHAPED));
        }
        // A small nesting keeps its shape.
        assert!(nested(3, 2, "core::felt252").shape("t::S0").is_some());
        assert!(
            started.elapsed() < std::time::Duration::from_secs(1),
            "{:?}",
            started.elapsed()
        );
    }

    #[test]
    fn short_names_cut_every_path() {
        assert_eq!(
            short("core::array::Array::<core::integer::u8>"),
            "Array<u8>"
        );
        assert_eq!(short("(game::Stats, core::bool)"), "(Stats, bool)");
        assert_eq!(short("@core::felt252"), "@felt252");
    }
}
