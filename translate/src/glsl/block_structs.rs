//! Structure definitions inside interface blocks, hoisted out before glslang sees them.
//!
//! GL_ARB_uniform_buffer_object (and Mesa) accept `uniform B { struct { vec2 p; } s[4]; };`, a
//! structure type defined inside a block; later GLSL specifications (and glslang) refuse it
//! ("structure definitions cannot be nested inside a block").
//!
//! Design decisions:
//! - A token-level rewrite, like `legacy`: comments and preprocessor lines are skipped, and only
//!   the pattern `[layout(…)] uniform|buffer NAME { … struct [NAME] { … } declarators; … }` is
//!   touched. Each such definition moves in front of the block's declaration as
//!   `struct NAME { … };`, and the member keeps its declarators with the type's name. An anonymous
//!   structure gets a reserved `arena_block_struct{N}` name; GL never reports structure type
//!   names, so no query sees it.
//! - Newlines move with the definition, so the source keeps its line count and every line
//!   after the block keeps its number in compile logs.
//! - Sources without the pattern are returned borrowed and untouched.
//! - The same tokens list the `bool`/`bvecN` block members ([`bool_members`]): SPIR-V stores them
//!   as `uint`s, and the GL layer reports them with their declared type.
#![deny(unsafe_code, clippy::unwrap_used, clippy::expect_used)]

use std::borrow::Cow;

use super::scan::{tokens, Kind, Token};

/// Name prefix given to anonymous structures defined inside blocks.
const ANONYMOUS_PREFIX: &str = "arena_block_struct";

/// One structure definition to move: its text span, the name to give it, and where it goes.
struct Hoist {
    start: usize,
    end: usize,
    name: Option<String>,
    to: usize,
}

/// `source` with every structure defined inside a uniform or buffer block moved in front of the
/// block.
pub fn hoist(source: &str) -> Cow<'_, str> {
    if !source.contains("struct") {
        return Cow::Borrowed(source);
    }
    let t = tokens(source);
    match find_hoists(source, &t) {
        Some(hoists) if !hoists.is_empty() => Cow::Owned(rewrite(source, &hoists)),
        // Nothing to move, or unbalanced input left for the compiler to report.
        _ => Cow::Borrowed(source),
    }
}

/// The structure definitions inside the blocks of `source` (tokens `t`), in source order; `None`
/// when a structure's body is not closed.
fn find_hoists(source: &str, t: &[Token]) -> Option<Vec<Hoist>> {
    let text = |k: &Token| &source[k.start..k.end];
    let is = |k: Option<&Token>, p: u8| k.is_some_and(|k| k.kind == Kind::Punct(p));
    let mut hoists = Vec::new();
    let mut depth = 0usize;
    // The first token of the current top-level declaration.
    let mut decl_start: Option<usize> = None;
    let mut anonymous = 0usize;
    let mut i = 0;
    while i < t.len() {
        let k = t[i];
        if depth == 0 && decl_start.is_none() {
            decl_start = Some(k.start);
        }
        match k.kind {
            Kind::Punct(b'{') => depth += 1,
            Kind::Punct(b'}') => depth = depth.saturating_sub(1),
            Kind::Punct(b';') if depth == 0 => decl_start = None,
            _ => {}
        }
        // `uniform|buffer NAME {` at top level opens a block.
        let opens_block = depth == 0
            && k.kind == Kind::Ident
            && matches!(text(&k), "uniform" | "buffer")
            && t.get(i + 1).is_some_and(|n| n.kind == Kind::Ident)
            && is(t.get(i + 2), b'{');
        if !opens_block {
            if depth == 0 && k.kind == Kind::Punct(b'}') {
                decl_start = None;
            }
            i += 1;
            continue;
        }
        let to = decl_start.unwrap_or(k.start);
        // Continue after the block's closing brace (depth back at 0).
        i = block_hoists(source, t, i + 3, to, &mut anonymous, &mut hoists)?;
        decl_start = None;
    }
    Some(hoists)
}

/// Adds the structure definitions of one block, whose body starts at token `first`, to
/// `hoists` (each to move to byte `to`); answers the token after the block's closing brace, or
/// `None` when a structure's body is not closed. `anonymous` counts the names given so far.
fn block_hoists(
    source: &str,
    t: &[Token],
    first: usize,
    to: usize,
    anonymous: &mut usize,
    hoists: &mut Vec<Hoist>,
) -> Option<usize> {
    let text = |k: &Token| &source[k.start..k.end];
    let is = |k: Option<&Token>, p: u8| k.is_some_and(|k| k.kind == Kind::Punct(p));
    let mut j = first;
    let mut inner = 1usize;
    while j < t.len() && inner > 0 {
        match t[j].kind {
            Kind::Punct(b'{') => inner += 1,
            Kind::Punct(b'}') => inner -= 1,
            Kind::Ident if inner == 1 && text(&t[j]) == "struct" => {
                let named = t.get(j + 1).filter(|n| n.kind == Kind::Ident);
                let open = j + 1 + usize::from(named.is_some());
                if is(t.get(open), b'{') {
                    let close = matching_brace(t, open)?;
                    let name = match named {
                        Some(_) => None,
                        None => {
                            *anonymous += 1;
                            Some(format!("{ANONYMOUS_PREFIX}{}", *anonymous - 1))
                        }
                    };
                    hoists.push(Hoist {
                        start: t[j].start,
                        end: t[close].end,
                        name,
                        to,
                    });
                    j = close + 1;
                    continue;
                }
            }
            _ => {}
        }
        j += 1;
    }
    Some(j)
}

/// The matching `}` of the `{` at token `open` (`None` when the source ends first).
fn matching_brace(t: &[Token], open: usize) -> Option<usize> {
    let mut d = 0usize;
    let mut close = open;
    while close < t.len() {
        match t[close].kind {
            Kind::Punct(b'{') => d += 1,
            Kind::Punct(b'}') => {
                d -= 1;
                if d == 0 {
                    break;
                }
            }
            _ => {}
        }
        close += 1;
    }
    (close < t.len()).then_some(close)
}

/// `source` with `hoists` (in source order) applied: each block's definitions in front of it,
/// and each definition in the block replaced by its type's name.
fn rewrite(source: &str, hoists: &[Hoist]) -> String {
    let mut out = String::with_capacity(source.len() + 64 * hoists.len());
    let mut at = 0;
    let mut h = 0;
    while h < hoists.len() {
        let to = hoists[h].to;
        out.push_str(&source[at..to]);
        // Every definition of this block, in order, in front of it.
        let mut k = h;
        while k < hoists.len() && hoists[k].to == to {
            let x = &hoists[k];
            let def = &source[x.start..x.end];
            match &x.name {
                Some(name) => {
                    out.push_str("struct ");
                    out.push_str(name);
                    out.push_str(&def["struct".len()..]);
                }
                None => out.push_str(def),
            }
            out.push_str("; ");
            k += 1;
        }
        // The block with each definition replaced by its type's name.
        let mut from = to;
        for x in &hoists[h..k] {
            out.push_str(&source[from..x.start]);
            out.push_str(&type_name(source, x));
            from = x.end;
        }
        at = from;
        h = k;
    }
    out.push_str(&source[at..]);
    out
}

/// The name of a hoisted structure's type: the one given to an anonymous structure, else the
/// name it was defined with.
fn type_name(source: &str, x: &Hoist) -> String {
    match &x.name {
        Some(name) => name.clone(),
        None => {
            // `struct NAME {`: the name is the second token of the definition.
            let def = &source[x.start + "struct".len()..x.end];
            def.trim_start()
                .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .next()
                .unwrap_or_default()
                .to_owned()
        }
    }
}

/// Members declared `bool` or `bvecN` inside uniform or buffer blocks: (name, components).
pub fn bool_members(source: &str) -> Vec<(String, u32)> {
    if !source.contains("bool") && !source.contains("bvec") {
        return Vec::new();
    }
    let t = tokens(source);
    let text = |k: &Token| &source[k.start..k.end];
    let mut out = Vec::new();
    let mut i = 0;
    while i + 2 < t.len() {
        let opens = t[i].kind == Kind::Ident
            && matches!(text(&t[i]), "uniform" | "buffer")
            && t[i + 1].kind == Kind::Ident
            && t[i + 2].kind == Kind::Punct(b'{');
        if !opens {
            i += 1;
            continue;
        }
        let mut j = i + 3;
        let mut depth = 1usize;
        while j < t.len() && depth > 0 {
            match t[j].kind {
                Kind::Punct(b'{') => depth += 1,
                Kind::Punct(b'}') => depth -= 1,
                Kind::Ident => {
                    let n = match text(&t[j]) {
                        "bool" => Some(1),
                        "bvec2" => Some(2),
                        "bvec3" => Some(3),
                        "bvec4" => Some(4),
                        _ => None,
                    };
                    if let (Some(n), Some(name)) =
                        (n, t.get(j + 1).filter(|k| k.kind == Kind::Ident))
                    {
                        out.push((text(name).to_owned(), n));
                    }
                }
                _ => {}
            }
            j += 1;
        }
        i = j;
    }
    out
}

/// Loose (default-block) uniforms declared `bool` or `bvecN`: (name, components). glslang stores
/// them as `uint`s too, so the GL layer needs the declared type to report and convert them.
pub fn loose_bool_uniforms(source: &str) -> Vec<(String, u32)> {
    if !source.contains("bool") && !source.contains("bvec") {
        return Vec::new();
    }
    let t = tokens(source);
    let text = |k: &Token| &source[k.start..k.end];
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut i = 0;
    while i < t.len() {
        match t[i].kind {
            Kind::Punct(b'{') => depth += 1,
            Kind::Punct(b'}') => depth = depth.saturating_sub(1),
            _ => {}
        }
        if depth > 0 || !t[i].is_word(source, "uniform") {
            i += 1;
            continue;
        }
        let mut j = i + 1;
        while t
            .get(j)
            .is_some_and(|k| matches!(text(k), "lowp" | "mediump" | "highp"))
        {
            j += 1;
        }
        let n = match t.get(j).map(text) {
            Some("bool") => 1,
            Some("bvec2") => 2,
            Some("bvec3") => 3,
            Some("bvec4") => 4,
            _ => {
                i += 1;
                continue;
            }
        };
        // Declarators `name [ [N] ] [= init] , …` up to the `;`.
        j += 1;
        let mut nested = 0usize;
        let mut expect_name = true;
        while let Some(k) = t.get(j) {
            match k.kind {
                Kind::Punct(b'(' | b'[') => nested += 1,
                Kind::Punct(b')' | b']') => nested = nested.saturating_sub(1),
                Kind::Punct(b',') if nested == 0 => expect_name = true,
                Kind::Punct(b';' | b'{' | b'}') if nested == 0 => break,
                Kind::Ident if expect_name && nested == 0 => {
                    out.push((text(k).to_owned(), n));
                    expect_name = false;
                }
                _ => {}
            }
            j += 1;
        }
        i = j;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loose_boolean_uniforms_are_listed() {
        let src = "uniform bool on;\nuniform mediump bvec2 a[2], b = bvec2(true, false);\nuniform B { bool inside; };\nuniform vec4 v;\nvoid f() { bool local; }\n";
        assert_eq!(
            loose_bool_uniforms(src),
            vec![
                ("on".to_owned(), 1),
                ("a".to_owned(), 2),
                ("b".to_owned(), 2)
            ]
        );
    }

    #[test]
    fn boolean_block_members_are_listed() {
        let src = "uniform bool loose;\nlayout(std140) uniform ubo {\n  float a;\n  bvec3 flags;\n  struct { bool on; } s;\n};\n";
        assert_eq!(
            bool_members(src),
            vec![("flags".to_owned(), 3), ("on".to_owned(), 1)]
        );
    }

    #[test]
    fn an_anonymous_struct_in_a_block_is_named_and_moved_out() {
        let src = "layout(std140) uniform;\nlayout(std140) uniform ub_info {\n   struct {\n      vec2 pos;\n      vec4 color;\n   } info [4];\n};\nvoid main() {}\n";
        let out = hoist(src);
        assert_eq!(
            out,
            "layout(std140) uniform;\nstruct arena_block_struct0 {\n      vec2 pos;\n      vec4 color;\n   }; layout(std140) uniform ub_info {\n   arena_block_struct0 info [4];\n};\nvoid main() {}\n"
        );
        assert_eq!(out.matches('\n').count(), src.matches('\n').count());
    }

    #[test]
    fn a_named_struct_keeps_its_name_and_other_sources_are_untouched() {
        let src =
            "uniform B { struct S { float f; } s; vec4 v; };\nstruct T { int x; };\nuniform T t;\n";
        assert_eq!(
            hoist(src),
            "struct S { float f; }; uniform B { S s; vec4 v; };\nstruct T { int x; };\nuniform T t;\n"
        );
        let plain =
            "// uniform B { struct S { float f; } s; };\nstruct T { int x; };\nuniform T t;\n";
        assert!(matches!(hoist(plain), Cow::Borrowed(_)));
        // Unbalanced input is left for the compiler to report.
        assert!(matches!(
            hoist("uniform B { struct { float f; "),
            Cow::Borrowed(_)
        ));
    }
}
