//! Shader subroutines (`GL_ARB_shader_subroutine`, GLSL 4.00) lowered out of the source.
//!
//! SPIR-V for Vulkan has no function pointers and glslang emits none for `subroutine`, so the
//! selection a GL program makes with `glUniformSubroutinesuiv` becomes a specialization
//! constant per subroutine uniform location, and each call through a subroutine uniform a call
//! to a generated dispatcher that switches on it.
//!
//! Design decisions:
//! - A source rewrite over [`scan`]'s tokens, before glslang: `subroutine T f(P);` (a type)
//!   disappears; `subroutine(T, …)` in front of a function definition disappears (the function
//!   stays, an ordinary function); `subroutine uniform T u;` / `u[N];` becomes one
//!   `layout(constant_id = SUBROUTINE_CONSTANT_BASE + location) const int` per location and the
//!   dispatcher's prototype; a call `u(args)` / `u[i](args)` becomes
//!   `arenagl_sub_call_u(i, args)`; the dispatchers' bodies are appended at the end, where every
//!   subroutine function is defined.
//! - GL's numbering: subroutine indices in declaration order unless `layout(index = N)` says
//!   otherwise, uniform locations likewise with `layout(location = N)` (an array takes one per
//!   element). A constant's default is the uniform's first compatible function, so a draw made
//!   before `glUniformSubroutinesuiv` still calls a function of the right type.
//! - The pipeline passes the selected indices as the constants, so a selection is part of the
//!   pipeline key: a program switching between a few subroutines gets a few pipelines, each with
//!   the dispatch folded away by the driver's compiler.
//! - `#extension GL_ARB_shader_subroutine : …` lines are blanked (glslang does not know the
//!   extension, and nothing of it is left for glslang to see).
#![deny(unsafe_code, clippy::unwrap_used, clippy::expect_used)]

use std::borrow::Cow;

use super::scan::{self, Kind, Token};
use super::{CompileError, Stage};

/// `constant_id` of subroutine uniform location 0; location `n` is `BASE + n`.
pub const SUBROUTINE_CONSTANT_BASE: u32 = 7400;
/// Subroutine uniform locations a stage may use (`GL_MAX_SUBROUTINE_UNIFORM_LOCATIONS`).
pub const MAX_SUBROUTINE_UNIFORM_LOCATIONS: u32 = 1024;
/// Subroutines a stage may declare (`GL_MAX_SUBROUTINES`).
pub const MAX_SUBROUTINES: u32 = 256;

const CALL_PREFIX: &str = "arenagl_sub_call_";
const CONSTANT_PREFIX: &str = "arenagl_sub_";
const INDEX_PARAM: &str = "arenagl_sub_i";

/// A function declared with `subroutine(…)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SubroutineFunction {
    pub name: String,
    /// Its GL index within the stage.
    pub index: u32,
}

/// A `subroutine uniform`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SubroutineUniform {
    pub name: String,
    /// Its first location (an array's elements follow).
    pub location: u32,
    /// Array length (1 for a single uniform).
    pub size: u32,
    /// Indices of the subroutines it may be set to, ascending.
    pub compatible: Vec<u32>,
}

/// One stage's subroutines and subroutine uniforms.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StageSubroutines {
    /// Ordered by index.
    pub functions: Vec<SubroutineFunction>,
    /// Ordered by location.
    pub uniforms: Vec<SubroutineUniform>,
}

impl StageSubroutines {
    /// `GL_ACTIVE_SUBROUTINE_UNIFORM_LOCATIONS`: one past the highest location used.
    pub fn location_count(&self) -> u32 {
        self.uniforms
            .iter()
            .map(|u| u.location + u.size)
            .max()
            .unwrap_or(0)
    }

    /// The uniform that owns `location`, if any.
    pub fn uniform_at(&self, location: u32) -> Option<&SubroutineUniform> {
        self.uniforms
            .iter()
            .find(|u| (u.location..u.location + u.size).contains(&location))
    }

    /// The selection a program starts with: each location's first compatible subroutine (0 for
    /// a location no uniform uses).
    pub fn default_selection(&self) -> Vec<u32> {
        (0..self.location_count())
            .map(|l| {
                self.uniform_at(l)
                    .and_then(|u| u.compatible.first().copied())
                    .unwrap_or(0)
            })
            .collect()
    }

    /// `(constant id, subroutine index)` for the pipeline, one per location.
    pub fn constants(&self, selection: &[u32]) -> Vec<(u32, u32)> {
        (0..self.location_count())
            .map(|l| {
                let chosen = selection.get(l as usize).copied();
                let fallback = self.default_selection().get(l as usize).copied();
                (
                    SUBROUTINE_CONSTANT_BASE + l,
                    chosen.or(fallback).unwrap_or(0),
                )
            })
            .collect()
    }

    pub fn is_empty(&self) -> bool {
        self.functions.is_empty() && self.uniforms.is_empty()
    }
}

/// A subroutine type: `subroutine RET NAME(PARAMS);`.
struct SubroutineType {
    name: String,
    ret: String,
    params: Vec<Param>,
}

/// One parameter of a subroutine type: its declaration text and the name it is passed by.
struct Param {
    decl: String,
    name: String,
}

/// A function with its type list, before indices are final.
struct Function {
    name: String,
    types: Vec<String>,
    explicit_index: Option<u32>,
}

/// A uniform before locations are final.
struct Uniform {
    name: String,
    type_name: String,
    size: u32,
    explicit_location: Option<u32>,
    /// Where the declaration is replaced.
    span: (usize, usize),
}

/// What the scan found and where the text changes.
#[derive(Default)]
struct Scan {
    types: Vec<SubroutineType>,
    functions: Vec<Function>,
    uniforms: Vec<Uniform>,
    /// Byte spans to blank out.
    blanks: Vec<(usize, usize)>,
}

/// Whether `source` may use subroutines at all (a cheap test before the rewrite).
pub fn mentions_subroutines(source: &str) -> bool {
    source.contains("subroutine")
}

/// Rewrites `source` without subroutines; `Err` is a compile-log line.
pub fn lower(source: &str) -> Result<(String, StageSubroutines), String> {
    if !mentions_subroutines(source) {
        return Ok((source.to_owned(), StageSubroutines::default()));
    }
    let tokens = scan::tokens(source);
    let found = scan_declarations(source, &tokens)?;
    let info = number(&found)?;
    let mut edits: Vec<(usize, usize, String)> = found
        .blanks
        .iter()
        .map(|&(s, e)| (s, e, blank(&source[s..e])))
        .collect();
    for u in &found.uniforms {
        let ty = type_of(&found, &u.type_name)?;
        let numbered = info
            .uniforms
            .iter()
            .find(|n| n.name == u.name)
            .ok_or_else(|| format!("subroutine uniform {} lost", u.name))?;
        edits.push((u.span.0, u.span.1, declaration(numbered, ty)));
    }
    edits.extend(call_edits(source, &tokens, &found)?);
    edits.sort_by_key(|e| e.0);
    let mut out = String::with_capacity(source.len() + 256);
    let mut at = 0;
    for (start, end, text) in edits {
        if start < at {
            return Err("subroutine declarations overlap".into());
        }
        out.push_str(&source[at..start]);
        out.push_str(&text);
        at = end;
    }
    out.push_str(&source[at..]);
    out = blank_extension_lines(&out);
    for u in &found.uniforms {
        let numbered = info.uniforms.iter().find(|n| n.name == u.name);
        if let (Some(n), Ok(ty)) = (numbered, type_of(&found, &u.type_name)) {
            out.push_str(&dispatcher(n, ty, &info));
        }
    }
    Ok((out, info))
}

/// A program's units, each with its stage.
pub(crate) type Units<'a> = Vec<(Stage, Cow<'a, str>)>;
/// Each stage's subroutine tables.
pub(crate) type ProgramSubroutines = Vec<(Stage, StageSubroutines)>;

/// [`lower`] over a program's units; each stage's subroutines (in one unit of the stage: a
/// stage whose units both declare them does not link).
pub(crate) fn lower_units(
    units: Units<'_>,
) -> Result<(Units<'_>, ProgramSubroutines), CompileError> {
    let mut stages: Vec<(Stage, StageSubroutines)> = Vec::new();
    let mut out = Vec::with_capacity(units.len());
    for (unit, (stage, source)) in units.into_iter().enumerate() {
        if !mentions_subroutines(&source) {
            out.push((stage, source));
            continue;
        }
        let (lowered, info) = lower(&source).map_err(|log| CompileError::Compile {
            stage,
            unit,
            log: format!("ERROR: 0:0: {log}\n"),
        })?;
        if !info.is_empty() {
            if stages.iter().any(|(s, _)| *s == stage) {
                return Err(CompileError::Link {
                    log: format!(
                        "ERROR: Linking: subroutines declared in several {stage:?} shaders\n"
                    ),
                });
            }
            stages.push((stage, info));
        }
        out.push((stage, Cow::Owned(lowered)));
    }
    Ok((out, stages))
}

/// Spaces for `text`, newlines kept (line numbers in logs stay right).
fn blank(text: &str) -> String {
    text.chars()
        .map(|c| if c == '\n' { '\n' } else { ' ' })
        .collect()
}

fn blank_extension_lines(source: &str) -> String {
    source
        .split_inclusive('\n')
        .map(|line| {
            // Only `#extension` directives: `#if defined GL_ARB_shader_subroutine` stays.
            let t = line.trim_start();
            let directive = t.strip_prefix('#').map(str::trim_start);
            if directive.is_some_and(|d| d.starts_with("extension"))
                && t.contains("GL_ARB_shader_subroutine")
            {
                blank(line)
            } else {
                line.to_owned()
            }
        })
        .collect()
}

fn type_of<'a>(found: &'a Scan, name: &str) -> Result<&'a SubroutineType, String> {
    found
        .types
        .iter()
        .find(|t| t.name == name)
        .ok_or_else(|| format!("'{name}' is not a subroutine type"))
}

/// The index of the token closing the bracket opened at `open` (`(`/`)` or `[`/`]`).
fn matching(source: &str, tokens: &[Token], open: usize) -> Result<usize, String> {
    let (o, c) = match tokens[open].kind {
        Kind::Punct(b'(') => (b'(', b')'),
        Kind::Punct(b'[') => (b'[', b']'),
        _ => return Err("expected a bracket".into()),
    };
    let mut depth = 0usize;
    for (i, t) in tokens.iter().enumerate().skip(open) {
        if t.kind == Kind::Punct(o) {
            depth += 1;
        } else if t.kind == Kind::Punct(c) {
            depth -= 1;
            if depth == 0 {
                return Ok(i);
            }
        }
    }
    Err(format!(
        "unbalanced brackets after '{}'",
        tokens[open.saturating_sub(1)].text(source)
    ))
}

/// `layout(…)` just before token `at`: its first token and its `key = N` values.
fn layout_before(source: &str, tokens: &[Token], at: usize) -> Option<(usize, Vec<(String, u32)>)> {
    let close = at.checked_sub(1)?;
    if tokens[close].kind != Kind::Punct(b')') {
        return None;
    }
    let mut depth = 0usize;
    let mut open = close;
    loop {
        match tokens[open].kind {
            Kind::Punct(b')') => depth += 1,
            Kind::Punct(b'(') => {
                depth -= 1;
                if depth == 0 {
                    break;
                }
            }
            _ => {}
        }
        open = open.checked_sub(1)?;
    }
    let word = open.checked_sub(1)?;
    if !tokens[word].is_word(source, "layout") {
        return None;
    }
    let inner = &tokens[open + 1..close];
    let values = inner
        .split(|t| t.kind == Kind::Punct(b','))
        .filter_map(|q| match q {
            [k, eq, v] if eq.kind == Kind::Punct(b'=') => {
                Some((k.text(source).to_owned(), v.text(source).parse().ok()?))
            }
            _ => None,
        })
        .collect();
    Some((word, values))
}

fn layout_value(layout: &Option<(usize, Vec<(String, u32)>)>, key: &str) -> Option<u32> {
    layout
        .as_ref()?
        .1
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| *v)
}

fn scan_declarations(source: &str, tokens: &[Token]) -> Result<Scan, String> {
    let mut found = Scan::default();
    let mut i = 0;
    while i < tokens.len() {
        if !tokens[i].is_word(source, "subroutine") {
            i += 1;
            continue;
        }
        let layout = layout_before(source, tokens, i);
        let start = layout
            .as_ref()
            .map_or(tokens[i].start, |l| tokens[l.0].start);
        let next = tokens
            .get(i + 1)
            .ok_or("'subroutine' at the end of the shader")?;
        i = if next.kind == Kind::Punct(b'(') {
            function_association(source, tokens, i + 1, start, &layout, &mut found)?
        } else if next.is_word(source, "uniform") {
            uniform_declaration(source, tokens, i + 2, start, &layout, &mut found)?
        } else {
            type_declaration(source, tokens, i + 1, start, &mut found)?
        };
    }
    Ok(found)
}

/// `subroutine(T1, T2) RET f(` — returns the token after the list.
fn function_association(
    source: &str,
    tokens: &[Token],
    open: usize,
    start: usize,
    layout: &Option<(usize, Vec<(String, u32)>)>,
    found: &mut Scan,
) -> Result<usize, String> {
    let close = matching(source, tokens, open)?;
    let types: Vec<String> = tokens[open + 1..close]
        .iter()
        .filter(|t| t.kind == Kind::Ident)
        .map(|t| t.text(source).to_owned())
        .collect();
    let paren = (close + 1..tokens.len())
        .find(|&j| tokens[j].kind == Kind::Punct(b'('))
        .ok_or("a subroutine function without a parameter list")?;
    let name = tokens
        .get(paren - 1)
        .filter(|t| t.kind == Kind::Ident)
        .ok_or("a subroutine function without a name")?
        .text(source)
        .to_owned();
    found.blanks.push((start, tokens[close].end));
    found.functions.push(Function {
        name,
        types,
        explicit_index: layout_value(layout, "index"),
    });
    Ok(close + 1)
}

/// `subroutine uniform T u;` or `… u[N];` — returns the token after the `;`.
fn uniform_declaration(
    source: &str,
    tokens: &[Token],
    at: usize,
    start: usize,
    layout: &Option<(usize, Vec<(String, u32)>)>,
    found: &mut Scan,
) -> Result<usize, String> {
    let semi = (at..tokens.len())
        .find(|&j| tokens[j].kind == Kind::Punct(b';'))
        .ok_or("a subroutine uniform without ';'")?;
    let words: Vec<&str> = tokens[at..semi]
        .iter()
        .filter(|t| t.kind == Kind::Ident)
        .map(|t| t.text(source))
        .collect();
    let [.., type_name, name] = words.as_slice() else {
        return Err("a subroutine uniform needs a type and a name".into());
    };
    let size = match tokens[at..semi]
        .iter()
        .position(|t| t.kind == Kind::Punct(b'['))
    {
        Some(p) => tokens
            .get(at + p + 1)
            .and_then(|t| t.text(source).trim_end_matches(['u', 'U']).parse().ok())
            .filter(|&n: &u32| n > 0)
            .ok_or("a subroutine uniform array needs a constant size")?,
        None => 1,
    };
    found.uniforms.push(Uniform {
        name: (*name).to_owned(),
        type_name: (*type_name).to_owned(),
        size,
        explicit_location: layout_value(layout, "location"),
        span: (start, tokens[semi].end),
    });
    Ok(semi + 1)
}

/// `subroutine RET NAME(PARAMS);` — returns the token after the `;`.
fn type_declaration(
    source: &str,
    tokens: &[Token],
    at: usize,
    start: usize,
    found: &mut Scan,
) -> Result<usize, String> {
    let open = (at..tokens.len())
        .find(|&j| tokens[j].kind == Kind::Punct(b'('))
        .ok_or("a subroutine type without a parameter list")?;
    let name_token = tokens
        .get(open - 1)
        .filter(|t| t.kind == Kind::Ident && open - 1 > at - 1)
        .ok_or("a subroutine type without a name")?;
    let close = matching(source, tokens, open)?;
    let semi = tokens
        .get(close + 1)
        .filter(|t| t.kind == Kind::Punct(b';'))
        .ok_or("a subroutine type declaration must end with ';'")?;
    let ret = source[tokens[at].start..name_token.start].trim().to_owned();
    let params = params(source, &tokens[open + 1..close]);
    found.types.push(SubroutineType {
        name: name_token.text(source).to_owned(),
        ret,
        params,
    });
    found.blanks.push((start, semi.end));
    Ok(close + 2)
}

const QUALIFIERS: [&str; 9] = [
    "in", "out", "inout", "const", "highp", "mediump", "lowp", "precise", "coherent",
];

/// The parameters of a type declaration (`void` or nothing: none); unnamed ones get a name.
fn params(source: &str, inner: &[Token]) -> Vec<Param> {
    let mut out = Vec::new();
    for (k, group) in inner
        .split(|t| t.kind == Kind::Punct(b','))
        .filter(|g| !g.is_empty())
        .enumerate()
    {
        let text = source[group[0].start..group[group.len() - 1].end].trim();
        if text == "void" {
            continue;
        }
        let idents: Vec<&Token> = group
            .iter()
            .filter(|t| t.kind == Kind::Ident && !QUALIFIERS.contains(&t.text(source)))
            .collect();
        let (decl, name) = if idents.len() >= 2 {
            let name = idents[idents.len() - 1].text(source).to_owned();
            (text.to_owned(), name)
        } else {
            let name = format!("arenagl_sub_a{k}");
            (format!("{text} {name}"), name)
        };
        out.push(Param { decl, name });
    }
    out
}

/// Indices for functions, locations for uniforms, compatibility lists.
fn number(found: &Scan) -> Result<StageSubroutines, String> {
    let mut taken: Vec<u32> = found
        .functions
        .iter()
        .filter_map(|f| f.explicit_index)
        .collect();
    let mut functions = Vec::new();
    for f in &found.functions {
        let index = match f.explicit_index {
            Some(i) => i,
            None => {
                let free = (0..).find(|i| !taken.contains(i)).unwrap_or(0);
                taken.push(free);
                free
            }
        };
        if index >= MAX_SUBROUTINES {
            return Err(format!(
                "subroutine index {index} of {} is too large",
                f.name
            ));
        }
        for t in &f.types {
            type_of(found, t)?;
        }
        functions.push(SubroutineFunction {
            name: f.name.clone(),
            index,
        });
    }
    functions.sort_by_key(|f| f.index);
    if functions.windows(2).any(|w| w[0].index == w[1].index) {
        return Err("two subroutines have the same index".into());
    }
    let mut used: Vec<u32> = Vec::new();
    for u in found
        .uniforms
        .iter()
        .filter_map(|u| Some((u.explicit_location?, u.size)))
    {
        used.extend(u.0..u.0 + u.1);
    }
    let mut uniforms = Vec::new();
    for u in &found.uniforms {
        type_of(found, &u.type_name)?;
        let location = match u.explicit_location {
            Some(l) => l,
            None => {
                let free = (0..)
                    .find(|l| (*l..*l + u.size).all(|x| !used.contains(&x)))
                    .unwrap_or(0);
                used.extend(free..free + u.size);
                free
            }
        };
        if location + u.size > MAX_SUBROUTINE_UNIFORM_LOCATIONS {
            return Err(format!(
                "subroutine uniform {} has too high a location",
                u.name
            ));
        }
        let compatible = found
            .functions
            .iter()
            .zip(0..)
            .filter(|(f, _)| f.types.contains(&u.type_name))
            .filter_map(|(f, _)| functions.iter().find(|g| g.name == f.name))
            .map(|f| f.index)
            .collect::<Vec<_>>();
        let mut compatible = compatible;
        compatible.sort_unstable();
        uniforms.push(SubroutineUniform {
            name: u.name.clone(),
            location,
            size: u.size,
            compatible,
        });
    }
    uniforms.sort_by_key(|u| u.location);
    Ok(StageSubroutines {
        functions,
        uniforms,
    })
}

fn signature(u: &SubroutineUniform, ty: &SubroutineType) -> String {
    let mut params = vec![format!("int {INDEX_PARAM}")];
    params.extend(ty.params.iter().map(|p| p.decl.clone()));
    format!("{} {CALL_PREFIX}{}({})", ty.ret, u.name, params.join(", "))
}

/// The replacement of a `subroutine uniform` declaration: its constants and the dispatcher's
/// prototype.
fn declaration(u: &SubroutineUniform, ty: &SubroutineType) -> String {
    let default = u.compatible.first().copied().unwrap_or(0);
    let mut out = String::new();
    for e in 0..u.size {
        out.push_str(&format!(
            "layout(constant_id = {}) const int {CONSTANT_PREFIX}{}_{e} = {default}; ",
            SUBROUTINE_CONSTANT_BASE + u.location + e,
            u.name
        ));
    }
    out.push_str(&signature(u, ty));
    out.push(';');
    out
}

/// The dispatcher's definition: the selected index for element `i`, then a switch.
fn dispatcher(u: &SubroutineUniform, ty: &SubroutineType, info: &StageSubroutines) -> String {
    let args = ty
        .params
        .iter()
        .map(|p| p.name.as_str())
        .collect::<Vec<_>>()
        .join(", ");
    let void = ty.ret == "void";
    let mut out = format!(
        "\n{} {{\n    int arenagl_f = {CONSTANT_PREFIX}{}_0;\n",
        signature(u, ty),
        u.name
    );
    for e in 1..u.size {
        out.push_str(&format!(
            "    if ({INDEX_PARAM} == {e}) arenagl_f = {CONSTANT_PREFIX}{}_{e};\n",
            u.name
        ));
    }
    out.push_str("    switch (arenagl_f) {\n");
    let names = |index: u32| info.functions.iter().find(|f| f.index == index);
    for f in u.compatible.iter().filter_map(|&i| names(i)) {
        if void {
            out.push_str(&format!(
                "    case {}: {}({args}); return;\n",
                f.index, f.name
            ));
        } else {
            out.push_str(&format!(
                "    case {}: return {}({args});\n",
                f.index, f.name
            ));
        }
    }
    out.push_str("    default: break;\n    }\n");
    match u.compatible.first().and_then(|&i| names(i)) {
        Some(f) if !void => out.push_str(&format!("    return {}({args});\n", f.name)),
        None if !void => out.push_str(&format!("    return {}(0);\n", ty.ret)),
        _ => {}
    }
    out.push_str("}\n");
    out
}

/// The calls through subroutine uniforms, rewritten to dispatcher calls.
fn call_edits(
    source: &str,
    tokens: &[Token],
    found: &Scan,
) -> Result<Vec<(usize, usize, String)>, String> {
    let inside_declaration = |pos: usize| {
        found
            .uniforms
            .iter()
            .any(|u| (u.span.0..u.span.1).contains(&pos))
    };
    let mut edits = Vec::new();
    for (i, t) in tokens.iter().enumerate() {
        if t.kind != Kind::Ident || inside_declaration(t.start) {
            continue;
        }
        let Some(u) = found.uniforms.iter().find(|u| u.name == t.text(source)) else {
            continue;
        };
        let (index, open) = match tokens.get(i + 1).map(|n| n.kind) {
            Some(Kind::Punct(b'(')) => ("0".to_owned(), i + 1),
            Some(Kind::Punct(b'[')) => {
                let close = matching(source, tokens, i + 1)?;
                let index = source[tokens[i + 1].end..tokens[close].start].to_owned();
                (index, close + 1)
            }
            _ => continue,
        };
        let Some(paren) = tokens.get(open).filter(|p| p.kind == Kind::Punct(b'(')) else {
            return Err(format!(
                "subroutine uniform {} used other than in a call",
                u.name
            ));
        };
        let empty = tokens
            .get(open + 1)
            .is_some_and(|n| n.kind == Kind::Punct(b')'));
        let comma = if empty { "" } else { ", " };
        edits.push((
            t.start,
            paren.end,
            format!("{CALL_PREFIX}{}(({index}){comma}", u.name),
        ));
    }
    Ok(edits)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    const FS: &str = "#version 150\n#extension GL_ARB_shader_subroutine : require\n\
        out vec4 color;\n\
        subroutine vec4 getcolor(float x);\n\
        subroutine (getcolor) vec4 red(float x) { return vec4(x, 0, 0, 1); }\n\
        layout(index = 5) subroutine (getcolor) vec4 green(float x) { return vec4(0, x, 0, 1); }\n\
        subroutine uniform getcolor pick;\n\
        void main() { color = pick(1.0); }\n";

    #[test]
    fn a_subroutine_uniform_becomes_a_constant_and_a_dispatcher() {
        let (out, info) = lower(FS).unwrap();
        assert_eq!(
            info.functions,
            vec![
                SubroutineFunction {
                    name: "red".into(),
                    index: 0
                },
                SubroutineFunction {
                    name: "green".into(),
                    index: 5
                },
            ]
        );
        assert_eq!(
            info.uniforms,
            vec![SubroutineUniform {
                name: "pick".into(),
                location: 0,
                size: 1,
                compatible: vec![0, 5]
            }]
        );
        assert!(!out.contains("subroutine"), "{out}");
        assert!(out.contains("layout(constant_id = 7400) const int arenagl_sub_pick_0 = 0;"));
        assert!(
            out.contains("color = arenagl_sub_call_pick((0), 1.0);"),
            "{out}"
        );
        assert!(out.contains("case 5: return green(x);"), "{out}");
        let main_line = |s: &str| s.lines().position(|l| l.starts_with("void main()"));
        assert_eq!(main_line(&out), main_line(FS), "line numbers are kept");
        assert_eq!(info.default_selection(), vec![0]);
        assert_eq!(info.constants(&[5]), vec![(7400, 5)]);
    }

    #[test]
    fn arrays_locations_void_and_unnamed_parameters() {
        let src = "subroutine void act(inout vec4, float);\n\
            subroutine(act) void a(inout vec4 c, float f) { c.x = f; }\n\
            subroutine(act) void b(inout vec4 c, float f) { c.y = f; }\n\
            layout(location = 2) subroutine uniform act ops[2];\n\
            subroutine uniform act one;\n\
            void main() { vec4 c = vec4(0); ops[1](c, 1.0); one(c, 2.0); }\n";
        let (out, info) = lower(src).unwrap();
        assert_eq!(info.location_count(), 4);
        assert_eq!(info.uniforms[0].name, "one");
        assert_eq!(info.uniforms[0].location, 0);
        assert_eq!((info.uniforms[1].location, info.uniforms[1].size), (2, 2));
        assert!(out.contains("arenagl_sub_call_ops((1), c, 1.0)"), "{out}");
        assert!(out.contains("void arenagl_sub_call_ops(int arenagl_sub_i, inout vec4 arenagl_sub_a0, float arenagl_sub_a1)"), "{out}");
        assert!(
            out.contains("case 1: b(arenagl_sub_a0, arenagl_sub_a1); return;"),
            "{out}"
        );
        assert!(
            out.contains("if (arenagl_sub_i == 1) arenagl_f = arenagl_sub_ops_1;"),
            "{out}"
        );
        assert!(out.contains("layout(constant_id = 7403) const int arenagl_sub_ops_1 = 0;"));
    }

    #[test]
    fn sources_without_subroutines_are_untouched_and_errors_are_logs() {
        let plain = "void main() {}\n";
        assert_eq!(lower(plain).unwrap().0, plain);
        assert!(lower("subroutine uniform nosuch u;\n").is_err());
        assert!(lower("subroutine vec4 t(float x)\n").is_err());
    }
}
