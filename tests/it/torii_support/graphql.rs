//! A GraphQL query parser for the subset Torii clients send (one query operation, fields with
//! aliases, arguments and nested selections; literal values), enough for the fake Torii to answer
//! exactly the fields asked for and to reject what a real GraphQL server rejects.

/// A literal argument value.
#[derive(Debug, Clone, PartialEq)]
pub enum GValue {
    Int(i64),
    Str(String),
    Bool(bool),
    Null,
    Enum(String),
    List(Vec<GValue>),
    Object(Vec<(String, GValue)>),
}

/// One selected field.
#[derive(Debug, Clone)]
pub struct Field {
    pub name: String,
    pub alias: Option<String>,
    pub args: Vec<(String, GValue)>,
    pub selection: Vec<Field>,
}

impl Field {
    /// The key this field has in the response.
    pub fn key(&self) -> &str {
        self.alias.as_deref().unwrap_or(&self.name)
    }

    pub fn arg(&self, name: &str) -> Option<&GValue> {
        self.args.iter().find(|(n, _)| n == name).map(|(_, v)| v)
    }
}

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Punct(char),
    Spread,
    Name(String),
    Int(i64),
    Float,
    Str(String),
}

fn tokenize(src: &str) -> Result<Vec<(Tok, usize)>, String> {
    let chars: Vec<char> = src.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            ' ' | '\t' | '\n' | '\r' | ',' | '\u{feff}' => i += 1,
            '#' => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
            }
            '{' | '}' | '(' | ')' | '[' | ']' | ':' | '!' | '$' | '=' | '@' | '|' | '&' => {
                out.push((Tok::Punct(c), i));
                i += 1;
            }
            '.' => {
                if chars.get(i + 1) == Some(&'.') && chars.get(i + 2) == Some(&'.') {
                    out.push((Tok::Spread, i));
                    i += 3;
                } else {
                    return Err(format!("unexpected character '.' at {i}"));
                }
            }
            '"' => {
                let start = i;
                i += 1;
                let mut s = String::new();
                loop {
                    match chars.get(i) {
                        None | Some('\n') => return Err(format!("unterminated string at {start}")),
                        Some('"') => {
                            i += 1;
                            break;
                        }
                        Some('\\') => {
                            let e = chars.get(i + 1).ok_or("unterminated escape")?;
                            s.push(match e {
                                'n' => '\n',
                                't' => '\t',
                                '"' => '"',
                                '\\' => '\\',
                                '/' => '/',
                                other => return Err(format!("unsupported escape \\{other}")),
                            });
                            i += 2;
                        }
                        Some(&ch) => {
                            s.push(ch);
                            i += 1;
                        }
                    }
                }
                out.push((Tok::Str(s), start));
            }
            c if c == '-' || c.is_ascii_digit() => {
                let start = i;
                i += 1;
                while i < chars.len() && chars[i].is_ascii_digit() {
                    i += 1;
                }
                if i < chars.len() && matches!(chars[i], '.' | 'e' | 'E') {
                    while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '.') {
                        i += 1;
                    }
                    out.push((Tok::Float, start));
                } else {
                    let text: String = chars[start..i].iter().collect();
                    let v = text.parse().map_err(|_| format!("bad integer {text}"))?;
                    out.push((Tok::Int(v), start));
                }
            }
            c if c == '_' || c.is_ascii_alphabetic() => {
                let start = i;
                while i < chars.len() && (chars[i] == '_' || chars[i].is_ascii_alphanumeric()) {
                    i += 1;
                }
                out.push((Tok::Name(chars[start..i].iter().collect()), start));
            }
            other => return Err(format!("unexpected character '{other}' at {i}")),
        }
    }
    Ok(out)
}

struct Parser {
    toks: Vec<(Tok, usize)>,
    pos: usize,
}

impl Parser {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos).map(|(t, _)| t)
    }

    fn next(&mut self) -> Result<Tok, String> {
        let t = self
            .toks
            .get(self.pos)
            .map(|(t, _)| t.clone())
            .ok_or("unexpected end of query")?;
        self.pos += 1;
        Ok(t)
    }

    fn expect(&mut self, c: char) -> Result<(), String> {
        match self.next()? {
            Tok::Punct(p) if p == c => Ok(()),
            other => Err(format!("expected '{c}', found {other:?}")),
        }
    }

    fn name(&mut self) -> Result<String, String> {
        match self.next()? {
            Tok::Name(n) => Ok(n),
            other => Err(format!("expected a name, found {other:?}")),
        }
    }

    fn document(&mut self) -> Result<Vec<Field>, String> {
        if let Some(Tok::Name(n)) = self.peek() {
            match n.as_str() {
                "query" => {
                    self.pos += 1;
                    if let Some(Tok::Name(_)) = self.peek() {
                        self.pos += 1;
                    }
                    if self.peek() == Some(&Tok::Punct('(')) {
                        return Err("variables are not used by this server's clients".into());
                    }
                }
                other => return Err(format!("unsupported operation `{other}`")),
            }
        }
        let set = self.selection_set()?;
        if self.pos != self.toks.len() {
            return Err("only one operation is allowed".into());
        }
        Ok(set)
    }

    fn selection_set(&mut self) -> Result<Vec<Field>, String> {
        self.expect('{')?;
        let mut fields = Vec::new();
        loop {
            match self.peek() {
                Some(Tok::Punct('}')) => {
                    self.pos += 1;
                    break;
                }
                Some(Tok::Spread) => return Err("fragments are not supported".into()),
                _ => fields.push(self.field()?),
            }
        }
        if fields.is_empty() {
            return Err("a selection set cannot be empty".into());
        }
        Ok(fields)
    }

    fn field(&mut self) -> Result<Field, String> {
        let first = self.name()?;
        let (alias, name) = if self.peek() == Some(&Tok::Punct(':')) {
            self.pos += 1;
            (Some(first), self.name()?)
        } else {
            (None, first)
        };
        let mut args = Vec::new();
        if self.peek() == Some(&Tok::Punct('(')) {
            self.pos += 1;
            loop {
                if self.peek() == Some(&Tok::Punct(')')) {
                    self.pos += 1;
                    break;
                }
                let n = self.name()?;
                self.expect(':')?;
                let v = self.value()?;
                if args.iter().any(|(a, _)| a == &n) {
                    return Err(format!("duplicate argument `{n}`"));
                }
                args.push((n, v));
            }
        }
        let selection = if self.peek() == Some(&Tok::Punct('{')) {
            self.selection_set()?
        } else {
            Vec::new()
        };
        Ok(Field {
            name,
            alias,
            args,
            selection,
        })
    }

    fn value(&mut self) -> Result<GValue, String> {
        match self.next()? {
            Tok::Int(i) => Ok(GValue::Int(i)),
            Tok::Float => Err("float values are not expected here".into()),
            Tok::Str(s) => Ok(GValue::Str(s)),
            Tok::Name(n) => Ok(match n.as_str() {
                "true" => GValue::Bool(true),
                "false" => GValue::Bool(false),
                "null" => GValue::Null,
                _ => GValue::Enum(n),
            }),
            Tok::Punct('$') => Err("variables are not used by this server's clients".into()),
            Tok::Punct('[') => {
                let mut items = Vec::new();
                while self.peek() != Some(&Tok::Punct(']')) {
                    items.push(self.value()?);
                }
                self.pos += 1;
                Ok(GValue::List(items))
            }
            Tok::Punct('{') => {
                let mut fields = Vec::new();
                while self.peek() != Some(&Tok::Punct('}')) {
                    let n = self.name()?;
                    self.expect(':')?;
                    fields.push((n, self.value()?));
                }
                self.pos += 1;
                Ok(GValue::Object(fields))
            }
            other => Err(format!("unexpected {other:?} in a value")),
        }
    }
}

/// Parses a query document into its root selection set.
pub fn parse(src: &str) -> Result<Vec<Field>, String> {
    let toks = tokenize(src)?;
    Parser { toks, pos: 0 }.document()
}

#[test]
fn parses_what_torii_clients_send() {
    let q = r#"query Q { ls009AdventurerPackedModels(where: { adventurer_idIN: ["0x1", "0x2"] }, first: 10 after: "Y3Vyc29y") {
        totalCount edges { cursor node { adventurer_id packed } } pageInfo { hasNextPage endCursor } } }"#;
    let f = parse(q).unwrap();
    assert_eq!(f[0].name, "ls009AdventurerPackedModels");
    assert_eq!(f[0].arg("first"), Some(&GValue::Int(10)));
    assert_eq!(f[0].selection.len(), 3);
    assert!(parse("{ a { } }").is_err());
    assert!(parse("{ a(x: 1, x: 2) }").is_err());
    assert!(parse("mutation { a }").is_err());
    assert!(parse("{ a").is_err());
}
