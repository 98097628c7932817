// The syntax of Cairo ABI type names, shared by the binding generator (`build.rs` includes this
// file) and the ABI check: generic arguments and tuple members.

/// Splits `a::b::Name::<T>` into (`a::b::Name`, Some(`T`)).
pub fn split_generic(ty: &str) -> (&str, Option<&str>) {
    match ty.find("::<") {
        Some(i) if ty.ends_with('>') => (&ty[..i], Some(&ty[i + 3..ty.len() - 1])),
        _ => (ty, None),
    }
}

/// The members of a tuple type `(A, B)`, or `None` for any other type (`()` included).
pub fn tuple_parts(ty: &str) -> Option<Vec<&str>> {
    let inner = ty.strip_prefix('(')?.strip_suffix(')')?;
    if inner.trim().is_empty() {
        return None;
    }
    let (mut parts, mut depth, mut start) = (Vec::new(), 0usize, 0usize);
    for (i, c) in inner.char_indices() {
        match c {
            '<' | '(' => depth += 1,
            '>' | ')' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                parts.push(inner[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(inner[start..].trim());
    Some(parts)
}
