//! Interface matching by location between the stages of different separable programs
//! (GL_ARB_separate_shader_objects' "rendezvous by location").
//!
//! When a program pipeline's stages are linked together (`objects::program_pipeline`), glslang
//! matches an output and an input *by name* and refuses the pair when both carry different
//! `layout(location)`s, while GL pairs located variables by location alone, whatever their
//! names. So the located inputs of a consuming stage are renamed (every use in the unit) to a
//! name no earlier stage declares; they then meet their outputs through the locations.
//!
//! Each separable program also has its own uniform name space, which one link would merge: the
//! uniforms and uniform blocks two stage programs both declare are renamed per program
//! ([`rename_globals`]) before they meet.
//!
//! Between the stages of *one* separable program GL's usual matching rules hold, which the
//! link (glslang's cross-stage check off for separable programs) does not apply:
//! [`unmatched_input`] finds an input the previous stage of the program does not write (by
//! location when located, else by name). Only loose declarations at global scope are compared;
//! interface blocks and built-ins are left alone.

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

/// `source` with the global identifiers `names` (uniforms, block names) renamed to
/// `NAME{suffix}` at every use. Member names are left alone: a name after `.` and the member
/// lists of structs and blocks (`struct S { … }`, `uniform B { … }`) are not renamed.
pub(crate) fn rename_globals(source: &str, names: &HashSet<String>, suffix: &str) -> String {
    if names.is_empty() {
        return source.to_owned();
    }
    let toks = tokens(source);
    let mut out = String::with_capacity(source.len() + names.len() * suffix.len() * 4);
    let mut copied = 0;
    // Brace depths at which a member list opened (inside one, nothing is renamed).
    let mut member_lists: Vec<usize> = Vec::new();
    let mut depth = 0usize;
    for (i, t) in toks.iter().enumerate() {
        let prev = i.checked_sub(1).map(|p| &toks[p]);
        match t.kind {
            Kind::Punct(b'{') => {
                depth += 1;
                let opens_members = prev.is_some_and(|p| {
                    p.kind == Kind::Ident && !["else", "do"].contains(&p.text(source))
                });
                if opens_members {
                    member_lists.push(depth);
                }
            }
            Kind::Punct(b'}') => {
                if member_lists.last() == Some(&depth) {
                    member_lists.pop();
                }
                depth = depth.saturating_sub(1);
            }
            Kind::Ident if member_lists.is_empty() && names.contains(t.text(source)) => {
                if prev.is_some_and(|p| p.kind == Kind::Punct(b'.')) {
                    continue;
                }
                out.push_str(&source[copied..t.end]);
                out.push_str(suffix);
                copied = t.end;
            }
            _ => {}
        }
    }
    out.push_str(&source[copied..]);
    out
}

/// A loose global `in`/`out` declaration: its names and its location, if any.
#[derive(Debug, PartialEq, Eq)]
struct Varying<'a> {
    names: Vec<&'a str>,
    location: Option<u32>,
}

/// An input `consumer` reads that `producer` (the stage before it in the same program) does not
/// write: a located input without an output at its location, an unlocated one without an
/// output of its name. None when every input is met; inputs declared but never used are not
/// compared (GL refuses only what a stage statically reads).
pub(crate) fn unmatched_input(producer: &str, consumer: &str) -> Option<String> {
    let outputs = varyings(producer, "out");
    let inputs = varyings(consumer, "in");
    let toks = tokens(consumer);
    let used = |name: &str| toks.iter().filter(|t| t.is_word(consumer, name)).count() > 1;
    for input in inputs.iter().filter(|i| i.names.iter().any(|n| used(n))) {
        let met = |o: &Varying<'_>| match input.location {
            Some(l) => o.location == Some(l),
            None => o.names.iter().any(|n| input.names.contains(n)),
        };
        if !outputs.iter().any(met) {
            return Some(match input.location {
                Some(l) => format!("input at location {l} is not written by the stage before"),
                None => format!(
                    "input '{}' is not written by the stage before",
                    input.names.join(", ")
                ),
            });
        }
    }
    None
}

/// The `layout(location = N) uniform` declarations of `source` (GL_ARB_explicit_uniform_location):
/// each uniform's name and location. Uniform blocks are not among them.
pub(crate) fn explicit_uniform_locations(source: &str) -> Vec<(String, u32)> {
    varyings(source, "uniform")
        .into_iter()
        .filter_map(|v| Some((v.names.first()?.to_string(), v.location?)))
        .collect()
}

/// The loose `direction` (`in`, `out` or `uniform`) declarations at global scope of `source`.
fn varyings<'a>(source: &'a str, direction: &str) -> Vec<Varying<'a>> {
    let toks = tokens(source);
    let mut out = Vec::new();
    let (mut depth, mut parens) = (0usize, 0usize);
    let mut statement_start = 0;
    for (i, t) in toks.iter().enumerate() {
        match t.kind {
            Kind::Punct(b'{') => depth += 1,
            Kind::Punct(b'}') => {
                depth = depth.saturating_sub(1);
                statement_start = i + 1;
            }
            Kind::Punct(b'(') => parens += 1,
            Kind::Punct(b')') => parens = parens.saturating_sub(1),
            Kind::Punct(b';') => statement_start = i + 1,
            Kind::Ident if depth == 0 && parens == 0 && t.is_word(source, direction) => {
                // Subroutine uniforms have locations of their own (GL_ARB_shader_subroutine).
                let qualifiers = &toks[statement_start..i];
                if qualifiers.iter().any(|q| q.is_word(source, "subroutine")) {
                    continue;
                }
                if let Some(v) = declaration(source, &toks, statement_start, i) {
                    out.push(v);
                }
            }
            _ => {}
        }
    }
    out
}

/// The declaration whose storage qualifier is at `at` (the statement starting at `start`):
/// None for blocks, built-ins and layout-only statements (`layout(triangles) in;`).
fn declaration<'a>(
    source: &'a str,
    toks: &[Token],
    start: usize,
    at: usize,
) -> Option<Varying<'a>> {
    let mut j = at + 1;
    while toks
        .get(j)
        .is_some_and(|t| QUALIFIERS.iter().any(|q| t.is_word(source, q)))
    {
        j += 1;
    }
    let ty = toks.get(j)?;
    if ty.kind != Kind::Ident || toks.get(j + 1)?.kind != Kind::Ident {
        return None;
    }
    let mut names = Vec::new();
    let mut k = j + 1;
    let mut depth = 0usize;
    while let Some(t) = toks.get(k) {
        match t.kind {
            Kind::Punct(b';') if depth == 0 => break,
            Kind::Punct(b'[') => depth += 1,
            Kind::Punct(b']') => depth = depth.saturating_sub(1),
            Kind::Ident if depth == 0 => names.push(t.text(source)),
            _ => {}
        }
        k += 1;
    }
    if names.iter().any(|n| n.starts_with("gl_")) {
        return None;
    }
    Some(Varying {
        names,
        location: location_in(source, &toks[start..at]),
    })
}

/// The literal `location = N` of the `layout(…)` among `toks`, if any.
fn location_in(source: &str, toks: &[Token]) -> Option<u32> {
    toks.windows(3).find_map(|w| {
        let is_location = w[0].is_word(source, "location") && w[1].kind == Kind::Punct(b'=');
        let n = w[2].text(source);
        let n = n.trim_end_matches(['u', 'U']);
        is_location.then(|| n.parse().ok()).flatten()
    })
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

    #[test]
    fn globals_are_renamed_but_members_are_not() {
        let src = "struct S { vec4 a; };\nuniform S s;\nuniform vec4 a;\n\
                   uniform Blk { vec4 a; } blk;\n\
                   void main() { if (true) { gl_Position = a + s.a + blk.a; } else { a; } }\n";
        let names: HashSet<String> = ["a".to_owned(), "Blk".to_owned()].into();
        let out = rename_globals(src, &names, "_p1");
        assert!(out.contains("struct S { vec4 a; };"), "{out}");
        assert!(out.contains("uniform vec4 a_p1;"), "{out}");
        assert!(out.contains("uniform Blk_p1 { vec4 a; } blk;"), "{out}");
        assert!(out.contains("gl_Position = a_p1 + s.a + blk.a;"), "{out}");
        assert!(out.contains("else { a_p1; }"), "{out}");
    }

    #[test]
    fn explicit_uniform_locations_are_read_from_layouts() {
        let src = "layout(location = 3) uniform vec4 a;\nuniform float b;\n\
                   layout(binding = 1, location = 5) uniform sampler2D s[2];\n\
                   layout(location = 9) uniform Blk { vec4 c; };\n\
                   layout(location = 3) subroutine uniform offset_t f;\n";
        assert_eq!(
            explicit_uniform_locations(src),
            [("a".to_owned(), 3), ("s".to_owned(), 5)]
        );
    }

    #[test]
    fn inputs_meet_outputs_by_location_else_by_name() {
        let vs = "layout(location = 2) out vec3 a;\nout vec4 b, c[2];\nout Blk { vec4 d; } blk;\n\
                  void f(in vec4 x) {}\nvoid main() { gl_Position = vec4(0); }\n";
        let gs =
            |decl: &str| format!("layout(triangles) in;\n{decl}\nin Blk {{ vec4 d; }} blk[];\n");
        assert_eq!(
            unmatched_input(vs, &gs("layout(location = 2) in vec3 va[];")),
            None
        );
        assert_eq!(unmatched_input(vs, &gs("flat in vec4 c[];")), None);
        let reads = |decl: &str| format!("{}void main() {{ va; }}\n", gs(decl));
        assert!(unmatched_input(vs, &reads("layout(location = 1) in vec3 va[];")).is_some());
        assert!(unmatched_input(vs, &reads("in vec3 va[];")).is_some());
        assert_eq!(unmatched_input(vs, &gs("in vec3 va[];")), None);
    }
}
