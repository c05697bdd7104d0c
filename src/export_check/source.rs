//! Reading the generated C++ of an Aidge export (export-cpp, Cortex-M): the layer
//! headers' `#define`s and `constexpr` arrays, and `model_forward` in forward.cpp as a
//! sequence of arena pointers, kernel calls and model-output assignments. Not a C++
//! parser: the templates of aidge-export-cpp / aidge-export-arm-cortexm 0.10.1 write
//! these statements in a few fixed shapes, and anything else in the body is skipped.

use crate::error::Error;
use std::collections::HashMap;

/// One header's macros (`#define NAME VALUE`, object-like only) and integer arrays
/// (`constexpr size_t NAME[N] = { ... };`).
#[derive(Default)]
pub struct Header {
    pub name: String,
    pub macros: HashMap<String, String>,
    pub arrays: HashMap<String, Vec<u64>>,
}

impl Header {
    pub fn parse(name: &str, text: &str) -> Header {
        let text = strip_comments(text);
        let mut h = Header {
            name: name.to_string(),
            ..Header::default()
        };
        for line in text.lines() {
            let line = line.trim();
            let Some(rest) = line.strip_prefix("#define") else {
                continue;
            };
            let rest = rest.trim_start();
            let end = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            let (key, value) = rest.split_at(end);
            if key.is_empty() || value.starts_with('(') {
                continue; // function-like macro
            }
            h.macros.insert(key.to_string(), value.trim().to_string());
        }
        let mut from = 0;
        while let Some(i) = text[from..].find("constexpr") {
            let at = from + i;
            from = at + 9;
            let Some(eq) = text[at..].find('=') else {
                break;
            };
            let decl = &text[at..at + eq];
            let Some(bracket) = decl.find('[') else {
                continue;
            };
            let name = decl[..bracket]
                .rsplit(|c: char| c.is_whitespace())
                .next()
                .unwrap_or("");
            let body_start = at + eq;
            let (Some(open), Some(close)) =
                (text[body_start..].find('{'), text[body_start..].find('}'))
            else {
                continue;
            };
            if close < open {
                continue;
            }
            let values: Option<Vec<u64>> = text[body_start + open + 1..body_start + close]
                .split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(|s| s.trim_end_matches(['u', 'U', 'l', 'L']).parse().ok())
                .collect();
            if let Some(values) = values {
                h.arrays.insert(name.to_string(), values);
            }
        }
        h
    }
}

/// An arena pointer: `T* var = (T*) (mem_K + OFFSET_MACRO);`.
pub struct Pointer {
    pub var: String,
    pub ctype: String,
    pub arena: String,
    pub offset: String,
    pub line: usize,
}

/// One statement of `model_forward` that matters to the check.
pub enum Statement {
    Pointer(Pointer),
    /// A kernel call: what is called and the identifiers among its arguments.
    Call {
        callee: String,
        args: Vec<String>,
    },
    /// `*out_ptr = var;`: `var` is a model output.
    Output {
        var: String,
    },
}

/// What forward.cpp holds: the arenas (`static unsigned char mem_K[SIZE];`, size as
/// written) and `model_forward`'s statements in order.
pub struct Forward {
    pub arenas: Vec<(String, String)>,
    pub statements: Vec<Statement>,
}

fn strip_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    loop {
        let line = rest.find("//");
        let block = rest.find("/*");
        match (line, block) {
            (None, None) => {
                out.push_str(rest);
                return out;
            }
            (Some(l), b) if b.map_or(true, |b| l < b) => {
                out.push_str(&rest[..l]);
                rest = &rest[l..];
                rest = &rest[rest.find('\n').unwrap_or(rest.len())..];
            }
            (_, Some(b)) => {
                out.push_str(&rest[..b]);
                let end = rest[b..].find("*/").map_or(rest.len(), |e| b + e + 2);
                // keep the line count: line numbers in messages stay right
                out.extend(rest[b..end].chars().filter(|&c| c == '\n'));
                rest = &rest[end..];
            }
            _ => unreachable!(),
        }
    }
}

/// The body without preprocessor lines and without `#ifdef SAVE_OUTPUTS` (or any
/// `#if`) blocks: the debug dumps read every output, which is not the model's run.
fn strip_conditionals(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut depth = 0usize;
    for line in text.lines() {
        let t = line.trim_start();
        if t.starts_with("#if") {
            depth += 1;
        } else if t.starts_with("#endif") {
            depth = depth.saturating_sub(1);
        } else if depth == 0 && !t.starts_with('#') {
            out.push_str(line);
        }
        out.push('\n');
    }
    out
}

#[derive(Debug, PartialEq)]
enum Token<'a> {
    Word(&'a str),
    Punct(char),
}

fn tokens(s: &str) -> Vec<Token<'_>> {
    let mut out = Vec::new();
    let mut chars = s.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if c.is_whitespace() {
            continue;
        }
        if c.is_ascii_alphanumeric() || c == '_' {
            let mut end = i + c.len_utf8();
            while let Some(&(j, d)) = chars.peek() {
                if d.is_ascii_alphanumeric() || d == '_' {
                    end = j + 1;
                    chars.next();
                } else {
                    break;
                }
            }
            out.push(Token::Word(&s[i..end]));
        } else {
            out.push(Token::Punct(c));
        }
    }
    out
}

fn is_ident(w: &str) -> bool {
    w.chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
}

impl Forward {
    pub fn parse(text: &str) -> Result<Forward, Error> {
        let text = strip_comments(text);
        let mut arenas = Vec::new();
        let mut from = 0;
        while let Some(i) = text[from..].find("unsigned char ") {
            let at = from + i + "unsigned char ".len();
            from = at;
            let rest = &text[at..];
            let (Some(open), Some(close)) = (rest.find('['), rest.find(']')) else {
                continue;
            };
            let name = rest[..open].trim();
            if name.starts_with("mem_") && open < close && !name.contains(char::is_whitespace) {
                arenas.push((name.to_string(), rest[open + 1..close].trim().to_string()));
            }
        }
        let start = text.find("model_forward").ok_or_else(|| {
            Error::whole("forward.cpp: no `model_forward` function (is this an Aidge export?)")
        })?;
        let open = text[start..]
            .find('{')
            .map(|i| start + i)
            .ok_or_else(|| Error::whole("forward.cpp: `model_forward` has no body"))?;
        let mut depth = 0i32;
        let mut close = text.len();
        for (i, c) in text[open..].char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        close = open + i;
                        break;
                    }
                }
                _ => {}
            }
        }
        let first_line = text[..open].matches('\n').count() + 1;
        let body = strip_conditionals(&text[open + 1..close]);
        let mut statements = Vec::new();
        let mut line = first_line;
        for stmt in body.split(';') {
            let lead = stmt.len() - stmt.trim_start().len();
            let at = line + stmt[..lead].matches('\n').count();
            line += stmt.matches('\n').count();
            if let Some(s) = statement(&tokens(stmt), at) {
                statements.push(s);
            }
        }
        Ok(Forward { arenas, statements })
    }
}

fn statement(t: &[Token<'_>], line: usize) -> Option<Statement> {
    use Token::{Punct, Word};
    // *name_ptr = var
    if let [Punct('*'), Word(_), Punct('='), Word(var)] = t {
        return Some(Statement::Output {
            var: var.to_string(),
        });
    }
    // T* var = (T*) (mem_K + OFFSET)   (also `(T*)(mem_K + OFFSET)` with const etc.)
    if let Some(eq) = t.iter().position(|x| *x == Punct('=')) {
        let lhs = &t[..eq];
        let rhs = &t[eq + 1..];
        let arena = rhs
            .iter()
            .position(|x| matches!(x, Word(w) if w.starts_with("mem_")));
        if let (Some(a), [.., Punct('*'), Word(var)]) = (arena, lhs) {
            let ctype: Vec<&str> = lhs[..lhs.len() - 2]
                .iter()
                .filter_map(|x| match x {
                    Word(w) if *w != "const" => Some(*w),
                    _ => None,
                })
                .collect();
            let offset = rhs[a + 1..].iter().find_map(|x| match x {
                Word(w) if is_ident(w) || w.chars().all(|c| c.is_ascii_digit()) => Some(*w),
                _ => None,
            });
            if let (Word(arena), Some(offset)) = (&rhs[a], offset) {
                return Some(Statement::Pointer(Pointer {
                    var: var.to_string(),
                    ctype: ctype.join(" "),
                    arena: arena.to_string(),
                    offset: offset.to_string(),
                    line,
                }));
            }
        }
        return None;
    }
    // callee<...>(args) or callee(args): the last top-level parenthesised group
    let first_paren = t.iter().position(|x| *x == Punct('('))?;
    let callee: String = t[..first_paren]
        .iter()
        .take_while(|x| **x != Punct('<'))
        .map(|x| match x {
            Word(w) => (*w).to_string(),
            Punct(c) => c.to_string(),
        })
        .collect();
    if callee.is_empty() || matches!(callee.as_str(), "if" | "for" | "while" | "return") {
        return None;
    }
    let (mut depth, mut last_open) = (0i32, None);
    for (i, x) in t.iter().enumerate() {
        match x {
            Punct('(') => {
                if depth == 0 {
                    last_open = Some(i);
                }
                depth += 1;
            }
            Punct(')') => depth -= 1,
            _ => {}
        }
    }
    let args = t[last_open? + 1..]
        .iter()
        .filter_map(|x| match x {
            Word(w) if is_ident(w) => Some((*w).to_string()),
            _ => None,
        })
        .collect();
    Some(Statement::Call { callee, args })
}

/// The value of an integer macro or expression (`1*16*1*1`, another macro's name),
/// looked up in `first` then `rest`; None if it is not a product of integers.
pub fn eval(expr: &str, first: &Header, rest: &HashMap<String, String>) -> Option<u64> {
    eval_depth(expr, first, rest, 0)
}

fn eval_depth(expr: &str, first: &Header, rest: &HashMap<String, String>, d: u32) -> Option<u64> {
    if d > 8 {
        return None;
    }
    let mut product: u64 = 1;
    for term in expr.split('*') {
        let term = term.trim().trim_matches(|c| c == '(' || c == ')').trim();
        let term = term.trim_end_matches(['u', 'U', 'l', 'L']);
        let v = if let Ok(v) = term.parse::<u64>() {
            v
        } else if is_ident(term) {
            let def = first.macros.get(term).or_else(|| rest.get(term))?;
            eval_depth(def, first, rest, d + 1)?
        } else {
            return None;
        };
        product = product.checked_mul(v)?;
    }
    Some(product)
}

/// Bytes of one element of a C type the exports use.
pub fn element_bytes(ctype: &str) -> Option<u64> {
    Some(match ctype.trim() {
        "float" | "int32_t" | "uint32_t" | "int" | "unsigned" | "float32_t" => 4,
        "double" | "int64_t" | "uint64_t" => 8,
        "int16_t" | "uint16_t" | "half_float::half" | "half" | "float16_t" => 2,
        "int8_t" | "uint8_t" | "char" | "unsigned char" | "signed char" | "bool" => 1,
        _ => return None,
    })
}
