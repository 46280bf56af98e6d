//! Interface matching by location between the stages of different separable programs
//! (GL_ARB_separate_shader_objects' "rendezvous by location").
//!
//! When a program pipeline's stages are linked together (`objects::program_pipeline`), glslang
//! matches an output and an input *by name* and refuses the pair when both carry different
//! `layout(location)`s, while GL pairs located variables by location alone, whatever their
//! names. So the located inputs of a consuming stage are renamed (every use in the unit) to a
//! name no earlier stage declares; they then meet their outputs through the locations.

use std::collections::HashSet;

use super::scan::{tokens, Kind, Token};

/// The suffix that takes a located input out of glslang's name matching.
const SUFFIX: &str = "_arenagl_by_location";

/// Qualifiers that may stand between a `layout(…)` and `in`.
const QUALIFIERS: &[&str] = &[
    "flat",
    "smooth",
    "noperspective",
    "centroid",
    "sample",
    "patch",
    "invariant",
    "precise",
    "highp",
    "mediump",
    "lowp",
];

/// `source` with its `layout(location = …) in TYPE NAME` variables renamed.
pub(crate) fn rename_located_inputs(source: &str) -> String {
    let toks = tokens(source);
    let names = located_inputs(source, &toks);
    if names.is_empty() {
        return source.to_owned();
    }
    let mut out = String::with_capacity(source.len() + names.len() * SUFFIX.len() * 4);
    let mut copied = 0;
    for t in &toks {
        if t.kind == Kind::Ident && names.contains(t.text(source)) {
            out.push_str(&source[copied..t.end]);
            out.push_str(SUFFIX);
            copied = t.end;
        }
    }
    out.push_str(&source[copied..]);
    out
}

/// The names of the located (non-block) inputs `toks` declare.
fn located_inputs<'a>(source: &'a str, toks: &[Token]) -> HashSet<&'a str> {
    let mut names = HashSet::new();
    let mut i = 0;
    while i < toks.len() {
        if !toks[i].is_word(source, "layout")
            || toks.get(i + 1).map(|t| t.kind) != Some(Kind::Punct(b'('))
        {
            i += 1;
            continue;
        }
        let mut j = i + 2;
        let mut located = false;
        while j < toks.len() && toks[j].kind != Kind::Punct(b')') {
            located |= toks[j].is_word(source, "location");
            j += 1;
        }
        j += 1;
        while toks
            .get(j)
            .is_some_and(|t| QUALIFIERS.iter().any(|q| t.is_word(source, q)))
        {
            j += 1;
        }
        let is_in = toks.get(j).is_some_and(|t| t.is_word(source, "in"));
        let (ty, name, after) = (toks.get(j + 1), toks.get(j + 2), toks.get(j + 3));
        if let (true, true, Some(ty), Some(name), Some(after)) = (located, is_in, ty, name, after) {
            let ends = matches!(after.kind, Kind::Punct(b';') | Kind::Punct(b'['));
            if ty.kind == Kind::Ident && name.kind == Kind::Ident && ends {
                names.insert(name.text(source));
            }
        }
        i = j;
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn located_inputs_are_renamed_everywhere_and_blocks_are_not() {
        let src = "layout(location = 3) flat in vec4 a;\nin vec4 b;\n\
                   layout(location = 1) in Blk { vec4 c; } blk;\n\
                   void main() { gl_FragColor = a + b + blk.c; }\n";
        let out = rename_located_inputs(src);
        assert!(out.contains("flat in vec4 a_arenagl_by_location;"));
        assert!(out.contains("gl_FragColor = a_arenagl_by_location + b + blk.c;"));
        assert!(out.contains("in vec4 b;"));
    }
}
