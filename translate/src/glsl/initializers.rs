//! Uniform initializers (GLSL 1.20+: `uniform vec4 c[2] = vec4[2](vec4(1.0), vec4(0.5));`).
//!
//! glslang compiles them for Vulkan but drops the value (a descriptor-backed uniform has no
//! initial contents), while GL says a linked program's uniform starts with its initializer.
//!
//! Design decisions:
//! - The initial values are read from the application's source, not from SPIR-V: a small
//!   constant evaluator over tokens handles literals, `true`/`false`, unary minus, parentheses,
//!   `+ - * /` where one side is a scalar or both have the same length, and constructors of
//!   scalar, vector, matrix and array types (GLSL's rules: one scalar fills a vector or a
//!   matrix's diagonal, longer argument lists are flattened and truncated). Anything else
//!   (named constants, function calls, structures) is skipped with a debug log: the uniform
//!   starts at zero, as it did before.
//! - An unsized array with an array-constructor initializer gets the constructor's length
//!   written into its declaration before compiling ([`size_initialized_arrays`]).
//! - Values are `f64` in declaration (column-major) order; the GL layer converts them to the
//!   uniform's type when it writes the default block after linking (`program`).
#![deny(unsafe_code, clippy::unwrap_used, clippy::expect_used)]

use super::scan::{self, Kind};

/// One uniform's initial value: the declared name and its components in order.
#[derive(Clone, Debug, PartialEq)]
pub struct Initializer {
    pub name: String,
    pub values: Vec<f64>,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Tok<'a> {
    Ident(&'a str),
    Number(f64),
    Punct(u8),
}

/// `source`'s tokens with their numbers evaluated.
fn tokens(source: &str) -> Vec<Tok<'_>> {
    scan::tokens(source)
        .into_iter()
        .map(|t| match t.kind {
            Kind::Ident => Tok::Ident(t.text(source)),
            Kind::Number => Tok::Number(number(t.text(source)).unwrap_or(f64::NAN)),
            Kind::Punct(c) => Tok::Punct(c),
        })
        .collect()
}

/// A GLSL numeric literal (decimal, octal, hex integers with a `u` suffix; floats with `f`/`lf`).
fn number(text: &str) -> Option<f64> {
    let t = text.trim_end_matches(['u', 'U']);
    if let Some(hex) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        return u64::from_str_radix(hex, 16).ok().map(|v| v as f64);
    }
    let is_float = t.contains(['.', 'e', 'E']) || t.ends_with(['f', 'F']);
    if is_float {
        return t.trim_end_matches(['f', 'F', 'l', 'L']).parse::<f64>().ok();
    }
    if t.len() > 1 && t.starts_with('0') {
        return u64::from_str_radix(&t[1..], 8).ok().map(|v| v as f64);
    }
    t.parse::<u64>().ok().map(|v| v as f64)
}

/// Components of a constructor's type: `Some((count, is_matrix_of_columns))`.
fn type_components(name: &str) -> Option<(usize, Option<usize>)> {
    match name {
        "float" | "int" | "uint" | "bool" | "double" => return Some((1, None)),
        _ => {}
    }
    let vec = name
        .strip_prefix("vec")
        .or_else(|| name.strip_prefix("ivec"))
        .or_else(|| name.strip_prefix("uvec"))
        .or_else(|| name.strip_prefix("bvec"))
        .or_else(|| name.strip_prefix("dvec"));
    if let Some(n) = vec.and_then(|n| n.parse::<usize>().ok()) {
        return (2..=4).contains(&n).then_some((n, None));
    }
    let m = name
        .strip_prefix("mat")
        .or_else(|| name.strip_prefix("dmat"))?;
    let (c, r) = match m.split_once('x') {
        Some((c, r)) => (c.parse::<usize>().ok()?, r.parse::<usize>().ok()?),
        None => {
            let n = m.parse::<usize>().ok()?;
            (n, n)
        }
    };
    ((2..=4).contains(&c) && (2..=4).contains(&r)).then_some((c * r, Some(r)))
}

struct Parser<'t, 'a> {
    t: &'t [Tok<'a>],
    at: usize,
}

impl<'a> Parser<'_, 'a> {
    fn peek(&self) -> Option<Tok<'a>> {
        self.t.get(self.at).copied()
    }

    fn eat(&mut self, p: u8) -> bool {
        if self.peek() == Some(Tok::Punct(p)) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    /// additive := term (('+' | '-') term)*
    fn expr(&mut self) -> Option<Vec<f64>> {
        let mut v = self.term()?;
        loop {
            let op = match self.peek() {
                Some(Tok::Punct(c @ (b'+' | b'-'))) => c,
                _ => return Some(v),
            };
            self.at += 1;
            let r = self.term()?;
            v = elementwise(v, r, |a, b| if op == b'+' { a + b } else { a - b })?;
        }
    }

    /// term := unary (('*' | '/') unary)*
    fn term(&mut self) -> Option<Vec<f64>> {
        let mut v = self.unary()?;
        loop {
            let op = match self.peek() {
                Some(Tok::Punct(c @ (b'*' | b'/'))) => c,
                _ => return Some(v),
            };
            self.at += 1;
            let r = self.unary()?;
            // Only scalar scaling: `mat * vec` is not component-wise.
            if v.len() != 1 && r.len() != 1 {
                return None;
            }
            v = elementwise(v, r, |a, b| if op == b'*' { a * b } else { a / b })?;
        }
    }

    fn unary(&mut self) -> Option<Vec<f64>> {
        if self.eat(b'-') {
            return Some(self.unary()?.into_iter().map(|x| -x).collect());
        }
        if self.eat(b'+') {
            return self.unary();
        }
        self.primary()
    }

    fn primary(&mut self) -> Option<Vec<f64>> {
        match self.peek()? {
            Tok::Number(v) => {
                self.at += 1;
                v.is_finite().then(|| vec![v])
            }
            Tok::Punct(b'(') => {
                self.at += 1;
                let v = self.expr()?;
                self.eat(b')').then_some(v)
            }
            // GL_ARB_shading_language_420pack's initializer list (`{ 0, 1, 0, 1 }`, nested for
            // arrays and matrices): the components in order.
            Tok::Punct(b'{') => {
                self.at += 1;
                let mut parts = Vec::new();
                loop {
                    parts.push(self.expr()?);
                    if self.eat(b'}') {
                        return Some(parts.concat());
                    }
                    if !self.eat(b',') {
                        return None;
                    }
                    // A trailing comma before `}` is allowed.
                    if self.eat(b'}') {
                        return Some(parts.concat());
                    }
                }
            }
            Tok::Ident("true") => {
                self.at += 1;
                Some(vec![1.0])
            }
            Tok::Ident("false") => {
                self.at += 1;
                Some(vec![0.0])
            }
            Tok::Ident(name) => {
                self.at += 1;
                let (n, rows) = type_components(name)?;
                // `T[N](…)` / `T[](…)`: an array constructor, the elements concatenated.
                let array = if self.eat(b'[') {
                    while !self.eat(b']') {
                        self.at += 1;
                        if self.at >= self.t.len() {
                            return None;
                        }
                    }
                    true
                } else {
                    false
                };
                if !self.eat(b'(') {
                    return None;
                }
                let mut args = Vec::new();
                if !self.eat(b')') {
                    loop {
                        args.push(self.expr()?);
                        if self.eat(b')') {
                            break;
                        }
                        if !self.eat(b',') {
                            return None;
                        }
                    }
                }
                if array {
                    return Some(args.concat());
                }
                construct(n, rows, &args)
            }
            Tok::Punct(_) => None,
        }
    }
}

fn elementwise(a: Vec<f64>, b: Vec<f64>, f: impl Fn(f64, f64) -> f64) -> Option<Vec<f64>> {
    match (a.len(), b.len()) {
        (1, _) => Some(b.iter().map(|&y| f(a[0], y)).collect()),
        (_, 1) => Some(a.iter().map(|&x| f(x, b[0])).collect()),
        (n, m) if n == m => Some(a.iter().zip(&b).map(|(&x, &y)| f(x, y)).collect()),
        _ => None,
    }
}

/// A constructor of `n` components (`rows` for a matrix of `n / rows` columns).
fn construct(n: usize, rows: Option<usize>, args: &[Vec<f64>]) -> Option<Vec<f64>> {
    if let [single] = args {
        if single.len() == 1 {
            return Some(match rows {
                // One scalar: a matrix's diagonal.
                Some(r) => (0..n)
                    .map(|i| if i / r == i % r { single[0] } else { 0.0 })
                    .collect(),
                None => vec![single[0]; n],
            });
        }
        if rows.is_some() && single.len() != n {
            return None; // a matrix from another matrix: not evaluated
        }
    }
    let flat = args.concat();
    (flat.len() >= n).then(|| flat[..n].to_vec())
}

/// `source` with every unsized array declared with an array-constructor initializer
/// (`uniform vec4 c[] = vec4[](a, b);`) given the constructor's element count (`c[2]`):
/// glslang leaves such a uniform unsized and then refuses to index it with a variable.
pub fn size_initialized_arrays(source: &str) -> std::borrow::Cow<'_, str> {
    if !source.contains("[]") {
        return std::borrow::Cow::Borrowed(source);
    }
    let mut out = String::with_capacity(source.len() + 8);
    let mut at = 0;
    while let Some(found) = source[at..].find("[]") {
        let open = at + found;
        out.push_str(&source[at..open]);
        at = open + 2;
        let count = (|| {
            let rest = source[at..].trim_start().strip_prefix('=')?.trim_start();
            let ty_end = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))?;
            let rest = rest[ty_end..].trim_start().strip_prefix('[')?;
            let close = rest.find(']')?;
            let rest = rest[close + 1..].trim_start().strip_prefix('(')?;
            let (mut depth, mut commas, mut any) = (1usize, 0usize, false);
            for c in rest.chars() {
                match c {
                    '(' | '[' => depth += 1,
                    ')' | ']' => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    ',' if depth == 1 => commas += 1,
                    c if !c.is_whitespace() => any = true,
                    _ => {}
                }
            }
            (depth == 0 && any).then_some(commas + 1)
        })();
        match count {
            Some(n) => out.push_str(&format!("[{n}]")),
            None => out.push_str("[]"),
        }
    }
    out.push_str(&source[at..]);
    std::borrow::Cow::Owned(out)
}

/// The initializers of every loose `uniform` in `source` that the evaluator can compute.
pub fn uniform_initializers(source: &str) -> Vec<Initializer> {
    if !source.contains('=') || !source.contains("uniform") {
        return Vec::new();
    }
    let t = tokens(source);
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut i = 0;
    while i < t.len() {
        match t[i] {
            Tok::Punct(b'{') => depth += 1,
            Tok::Punct(b'}') => depth = depth.saturating_sub(1),
            Tok::Ident("uniform") if depth == 0 => {
                // `uniform [precision] TYPE NAME [array] [= init] (, NAME …)* ;`
                let mut j = i + 1;
                while matches!(t.get(j), Some(Tok::Ident("lowp" | "mediump" | "highp"))) {
                    j += 1;
                }
                let Some(Tok::Ident(_)) = t.get(j) else {
                    i += 1;
                    continue;
                };
                if t.get(j + 1) == Some(&Tok::Punct(b'{')) {
                    i = j + 1; // a block
                    continue;
                }
                j += 1;
                // The type's own array size (`uniform vec4[2] c`).
                if t.get(j) == Some(&Tok::Punct(b'[')) {
                    while j < t.len() && t[j] != Tok::Punct(b']') {
                        j += 1;
                    }
                    j += 1;
                }
                while let Some(Tok::Ident(name)) = t.get(j) {
                    j += 1;
                    while t.get(j) == Some(&Tok::Punct(b'[')) {
                        while j < t.len() && t[j] != Tok::Punct(b']') {
                            j += 1;
                        }
                        j += 1;
                    }
                    if t.get(j) == Some(&Tok::Punct(b'=')) {
                        let mut p = Parser { t: &t, at: j + 1 };
                        match p.expr() {
                            Some(values)
                                if matches!(
                                    p.peek(),
                                    Some(Tok::Punct(b';')) | Some(Tok::Punct(b','))
                                ) =>
                            {
                                out.push(Initializer {
                                    name: (*name).to_owned(),
                                    values,
                                });
                                j = p.at;
                            }
                            _ => {
                                tracing::debug!(
                                    uniform = *name,
                                    "uniform initializer not evaluated; the uniform starts at zero"
                                );
                                // Skip to the end of this declarator.
                                let mut d = 0usize;
                                while let Some(k) = t.get(j) {
                                    match k {
                                        Tok::Punct(b'(' | b'[') => d += 1,
                                        Tok::Punct(b')' | b']') => d = d.saturating_sub(1),
                                        Tok::Punct(b',' | b';') if d == 0 => break,
                                        _ => {}
                                    }
                                    j += 1;
                                }
                            }
                        }
                    }
                    if t.get(j) == Some(&Tok::Punct(b',')) {
                        j += 1;
                        continue;
                    }
                    break;
                }
                i = j;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values(src: &str) -> Vec<(String, Vec<f64>)> {
        uniform_initializers(src)
            .into_iter()
            .map(|i| (i.name, i.values))
            .collect()
    }

    #[test]
    fn constructors_arrays_and_scalars_evaluate() {
        let src = "#version 120\n// uniform float ignored = 3.0;\nuniform vec4 c[2] = vec4[2](vec4(1.0, 0.0, 0.0, 1.0), vec4(0.5));\nuniform float f = -2.5e1, g = 0x10;\nuniform mat2 m = mat2(3.0);\nuniform ivec2 v = ivec2(1, 2) * 2;\nuniform bool b = true;\nuniform vec3 plain;\nvoid main() { float x = 1.0; }\n";
        assert_eq!(
            values(src),
            vec![
                ("c".into(), vec![1.0, 0.0, 0.0, 1.0, 0.5, 0.5, 0.5, 0.5]),
                ("f".into(), vec![-25.0]),
                ("g".into(), vec![16.0]),
                ("m".into(), vec![3.0, 0.0, 0.0, 3.0]),
                ("v".into(), vec![2.0, 4.0]),
                ("b".into(), vec![1.0]),
            ]
        );
    }

    #[test]
    fn unsized_arrays_take_their_initializers_length() {
        let src = "uniform vec4 c[] = vec4[](vec4(1.0), vec4(0.0, 1.0, 0.0, 1.0), vec4(2.0));\nfloat f[] = float[2](1.0, 2.0);\nuniform vec4 d[];\n";
        assert_eq!(
            size_initialized_arrays(src),
            "uniform vec4 c[3] = vec4[](vec4(1.0), vec4(0.0, 1.0, 0.0, 1.0), vec4(2.0));\nfloat f[2] = float[2](1.0, 2.0);\nuniform vec4 d[];\n"
        );
    }

    #[test]
    fn initializer_lists_flatten_in_order() {
        let src = "uniform dvec4 c = { 0, 1, 0, 1 };\n\
            uniform vec2 a[2] = { vec2(1.0, 2.0), { 3.0, 4.0, }, };\n";
        assert_eq!(
            values(src),
            vec![
                ("c".to_owned(), vec![0.0, 1.0, 0.0, 1.0]),
                ("a".to_owned(), vec![1.0, 2.0, 3.0, 4.0]),
            ]
        );
    }

    #[test]
    fn what_cannot_be_evaluated_is_skipped() {
        let src = "const float k = 2.0;\nuniform float a = k * 2.0, b = 1.0;\nuniform vec2 c = vec2(sin(1.0));\nuniform vec3 d = vec3(1.0, 2.0);\nuniform B { vec4 x; };\n";
        assert_eq!(values(src), vec![("b".into(), vec![1.0])]);
        assert!(values("void main() {}").is_empty());
    }
}
