//! The `layout(binding = N)` values GL must report for storage blocks, image uniforms, and
//! (GL_ARB_shading_language_420pack) samplers and uniform blocks.
//!
//! Design decisions:
//! - glslang maps every resource a binding (explicit ones at the kind's base + N, the others
//!   wherever is free), so the SPIR-V cannot tell an explicit `binding = 0` from an automatic
//!   one. GL's initial binding point is the explicit value, else 0; it is read here from the
//!   application's own source, token by token (`scan`), before any rewrite.
//! - Only what a declaration at global scope says: `layout(…) [qualifiers] buffer Name {` and
//!   `layout(…) [qualifiers] uniform imageType name`. A binding written as an expression other
//!   than a literal is left to the default (0).

use super::scan::{tokens, Kind, Token};

/// What a `layout(binding = N)` was found on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Declared {
    /// A shader storage block, by block name.
    StorageBlock(String),
    /// An image uniform, by variable name.
    Image(String),
    /// A sampler uniform, by variable name: its initial texture unit.
    Sampler(String),
    /// A uniform block, by block name: its initial binding point.
    UniformBlock(String),
}

/// The explicit bindings of `source`'s storage blocks, uniform blocks, image and sampler
/// uniforms.
pub fn explicit_bindings(source: &str) -> Vec<(Declared, u32)> {
    let toks = tokens(source);
    let mut out = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        if !toks[i].is_word(source, "layout") {
            i += 1;
            continue;
        }
        let Some((binding, after)) = layout_binding(source, &toks, i + 1) else {
            i += 1;
            continue;
        };
        if let Some(declared) = declared_after(source, &toks, after) {
            out.push((declared, binding));
        }
        i = after;
    }
    out
}

/// From the `(` at `at`: the `binding = N` inside the parentheses (if any) and the index past
/// the closing `)`.
fn layout_binding(source: &str, toks: &[Token], at: usize) -> Option<(u32, usize)> {
    if toks.get(at)?.kind != Kind::Punct(b'(') {
        return None;
    }
    let close = (at..toks.len()).find(|&k| toks[k].kind == Kind::Punct(b')'))?;
    let inner = &toks[at + 1..close];
    let binding = inner.windows(3).find_map(|w| {
        (w[0].is_word(source, "binding") && w[1].kind == Kind::Punct(b'='))
            .then(|| parse_uint(w[2].text(source)))
            .flatten()
    })?;
    Some((binding, close + 1))
}

fn parse_uint(text: &str) -> Option<u32> {
    let t = text.trim_end_matches(['u', 'U']);
    if let Some(hex) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        u32::from_str_radix(hex, 16).ok()
    } else if t.len() > 1 && t.starts_with('0') {
        u32::from_str_radix(&t[1..], 8).ok()
    } else {
        t.parse().ok()
    }
}

/// The block or opaque uniform a layout qualifier ending before `at` applies to.
fn declared_after(source: &str, toks: &[Token], at: usize) -> Option<Declared> {
    const QUALIFIERS: &[&str] = &[
        "readonly",
        "writeonly",
        "coherent",
        "volatile",
        "restrict",
        "highp",
        "mediump",
        "lowp",
    ];
    let mut k = at;
    while toks.get(k)?.kind == Kind::Ident && QUALIFIERS.contains(&toks[k].text(source)) {
        k += 1;
    }
    let keyword = toks.get(k)?;
    let next = toks.get(k + 1).filter(|t| t.kind == Kind::Ident)?;
    if keyword.is_word(source, "buffer") {
        return Some(Declared::StorageBlock(next.text(source).to_owned()));
    }
    if keyword.is_word(source, "uniform") {
        let mut k = k + 1;
        while toks.get(k)?.kind == Kind::Ident && QUALIFIERS.contains(&toks[k].text(source)) {
            k += 1;
        }
        let ty = toks.get(k)?.text(source);
        let after = toks.get(k + 1)?;
        if after.kind == Kind::Punct(b'{') {
            return Some(Declared::UniformBlock(ty.to_owned()));
        }
        let name = Some(after).filter(|t| t.kind == Kind::Ident)?;
        if ty.contains("image") {
            return Some(Declared::Image(name.text(source).to_owned()));
        }
        if ty.contains("sampler") {
            return Some(Declared::Sampler(name.text(source).to_owned()));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn storage_blocks_and_images_report_their_literal_bindings() {
        let src = "#version 430\n\
            layout(std430, binding = 3) readonly buffer A { uint a[]; };\n\
            layout(std430) buffer B { uint b; };\n\
            layout(rgba8, binding = 0x2) writeonly uniform image2D img;\n\
            layout(binding = 1) uniform sampler2D s;\n\
            layout(std140, binding = 5) uniform U { vec4 u; } u[2];\n\
            layout(std140) uniform V { vec4 v; };\n";
        assert_eq!(
            explicit_bindings(src),
            vec![
                (Declared::StorageBlock("A".into()), 3),
                (Declared::Image("img".into()), 2),
                (Declared::Sampler("s".into()), 1),
                (Declared::UniformBlock("U".into()), 5),
            ]
        );
    }
}
