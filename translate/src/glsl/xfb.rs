//! Transform feedback varyings (`glTransformFeedbackVaryings`): resolved against the last vertex
//! stage at link, captured through copy outputs that carry Vulkan's `Xfb` decorations.
//!
//! Design decisions:
//! - GL names what to capture by string, down to an array element or a struct member
//!   (`arr[2]`, `s.m`, `gl_ClipDistance[1]`), while Vulkan captures whole output variables
//!   (or block members) at an `Offset` of an `XfbBuffer`. So every captured varying gets an
//!   output of its own, `arenagl_xfb_N`, that a function appended to the stage assigns from the
//!   GLSL expression the name already is; only those copies are decorated. One path covers
//!   user outputs, built-ins inside `gl_PerVertex`, elements and members alike, and the
//!   application's own outputs keep their interface untouched.
//! - The names are resolved against the SPIR-V of a first link without the copies (the ground
//!   truth for what the stage outputs, with types): a name that is not an output of the last
//!   vertex stage, or that names a whole struct, fails the link with a log, as GL requires.
//! - The decorations are added to the SPIR-V after the second link (glslang would want
//!   GL_ARB_enhanced_layouts and GLSL 1.40+ for `xfb_*` qualifiers, which older units lack).
//! - Layout follows GL: `GL_INTERLEAVED_ATTRIBS` packs varyings tightly into buffer 0
//!   (`gl_NextBuffer` moves to the next buffer, `gl_SkipComponentsN` leaves N components),
//!   `GL_SEPARATE_ATTRIBS` gives varying i buffer i. Every component is 4 bytes (8 for doubles).
//! - Captures a stage declares itself (GL_ARB_enhanced_layouts' `xfb_*` qualifiers) are read
//!   from glslang's decorations (`declared`) and captured through the same copies; they
//!   override `glTransformFeedbackVaryings`.
//! - Vertex streams (`layout(stream = N)`, `EmitStreamVertex(N)`): a capture's stream is its
//!   output's `Stream` decoration; one buffer takes one stream (else a link error, as GL says).
//!   In a geometry stage that uses streams the copies are declared with their stream, and
//!   `EmitStreamVertex(n)` is routed through a function that assigns stream n's copies first.
#![deny(unsafe_code, clippy::unwrap_used, clippy::expect_used)]

mod declared;

pub use declared::{may_declare, resolve_declared};

use super::legacy::{FF_PREFIX, USER_PREFIX};
use super::spirv::{decoration, op, Module, ParseError, StorageClass, Type};
use super::types::{GlType, ScalarKind};
use super::Stage;

/// `GL_MAX_TRANSFORM_FEEDBACK_BUFFERS` (and `…_SEPARATE_ATTRIBS`).
pub const MAX_BUFFERS: usize = 4;
/// `GL_MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS`.
pub const MAX_INTERLEAVED_COMPONENTS: u32 = 64;
/// `GL_MAX_TRANSFORM_FEEDBACK_SEPARATE_COMPONENTS`.
pub const MAX_SEPARATE_COMPONENTS: u32 = 4;
/// The function the vertex wrapper calls after the application's `main` (see `capture_source`).
pub const CAPTURE_FN: &str = "arenagl_xfb_capture";
/// Prefix of the copy outputs.
const COPY_PREFIX: &str = "arenagl_xfb_";
/// `GL_NONE`: the type of `gl_NextBuffer` and `gl_SkipComponentsN` entries.
const GL_NONE: u32 = 0;
/// `GL_MAX_VERTEX_STREAMS` where the device has geometry streams.
pub const MAX_STREAMS: u32 = 4;
/// SPIR-V's `Stream` decoration.
const DECORATION_STREAM: u32 = 29;

/// What `glTransformFeedbackVaryings` asked for, applied at the next link.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct XfbRequest {
    pub varyings: Vec<String>,
    /// `GL_SEPARATE_ATTRIBS` (else interleaved).
    pub separate: bool,
}

/// One entry as `glGetTransformFeedbackVarying` reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct XfbVarying {
    pub name: String,
    /// The `GL_*` type enum (`GL_NONE` for `gl_NextBuffer` / `gl_SkipComponentsN`).
    pub gl_type: u32,
    /// Array length (1 for a non-array; the component count for `gl_SkipComponentsN`).
    pub size: i32,
    /// The buffer binding it is captured into (`GL_TRANSFORM_FEEDBACK_BUFFER_INDEX` names the
    /// binding's place among the bindings written).
    pub buffer: u32,
    /// Its byte offset in a captured vertex (`GL_OFFSET`).
    pub offset: u32,
}

/// One captured varying: the GLSL expression it is, its type and array length, where it goes.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Capture {
    expr: String,
    ty: GlType,
    array: Option<u32>,
    buffer: u32,
    offset: u32,
    /// The vertex stream of the captured output.
    stream: u32,
}

impl Capture {
    /// The expression of each 32-bit component, in capture order (arrays by element, matrices
    /// by column).
    fn components(&self) -> Vec<String> {
        let Some((_, columns, rows)) = self.ty.shape() else {
            return Vec::new();
        };
        let elements: Vec<String> = match self.array {
            Some(n) => (0..n).map(|i| format!("{}[{i}]", self.expr)).collect(),
            None => vec![self.expr.clone()],
        };
        let mut out = Vec::new();
        for e in elements {
            match (columns, rows) {
                (1, 1) => out.push(e),
                (1, n) => out.extend((0..n).map(|i| format!("{e}[{i}]"))),
                (c, r) => out.extend(
                    (0..c)
                        .flat_map(|c| (0..r).map(move |r| (c, r)))
                        .map(|(c, r)| format!("{e}[{c}][{r}]")),
                ),
            }
        }
        out
    }

    /// The scalar kind of a capture that packs with its neighbours (32-bit kinds only).
    fn packable(&self) -> Option<ScalarKind> {
        match self.ty.shape()?.0 {
            k @ (ScalarKind::Float | ScalarKind::Int | ScalarKind::UInt) => Some(k),
            _ => None,
        }
    }
}

/// One copy output, `decl name[array]`, at `offset` of `buffer`, assigned by `assigns`
/// (`(element of the copy, value)`, the element empty for the whole copy).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Copy {
    decl: String,
    array: Option<u32>,
    buffer: u32,
    offset: u32,
    stream: u32,
    assigns: Vec<(String, String)>,
}

/// The copies that capture `captures`: neighbouring 32-bit captures of one scalar kind in one
/// buffer share `vec4` copies (a copy output takes whole locations, which the stage's output
/// limit counts), the others get one copy each.
fn pack(captures: &[Capture]) -> Vec<Copy> {
    let mut copies = Vec::new();
    let mut i = 0;
    while i < captures.len() {
        let first = &captures[i];
        let Some(kind) = first.packable() else {
            copies.push(Copy {
                decl: glsl_name(first.ty),
                array: first.array,
                buffer: first.buffer,
                offset: first.offset,
                stream: first.stream,
                assigns: vec![(String::new(), first.expr.clone())],
            });
            i += 1;
            continue;
        };
        let mut components = Vec::new();
        let mut end = first.offset;
        while let Some(c) = captures.get(i) {
            if c.buffer != first.buffer || c.offset != end || c.packable() != Some(kind) {
                break;
            }
            let comps = c.components();
            end += 4 * comps.len() as u32;
            components.extend(comps);
            i += 1;
        }
        let at = (first.buffer, first.offset, first.stream);
        copies.extend(packed_copies(kind, at, &components));
    }
    copies
}

/// `components` of one scalar kind as a `vec4` array and a shorter tail, at (buffer, offset,
/// stream).
fn packed_copies(kind: ScalarKind, at: (u32, u32, u32), components: &[String]) -> Vec<Copy> {
    let (buffer, offset, stream) = at;
    let decl = |n: u32| {
        GlType::from_shape(kind, 1, n)
            .map(glsl_name)
            .unwrap_or_default()
    };
    let full = components.len() / 4;
    let mut out = Vec::new();
    if full > 0 {
        out.push(Copy {
            decl: decl(4),
            array: Some(full as u32),
            buffer,
            offset,
            stream,
            assigns: components[..full * 4]
                .iter()
                .enumerate()
                .map(|(k, v)| (format!("[{}][{}]", k / 4, k % 4), v.clone()))
                .collect(),
        });
    }
    let tail = &components[full * 4..];
    if !tail.is_empty() {
        let scalar = tail.len() == 1;
        out.push(Copy {
            decl: decl(tail.len() as u32),
            array: None,
            buffer,
            offset: offset + 16 * full as u32,
            stream,
            assigns: tail
                .iter()
                .enumerate()
                .map(|(k, v)| {
                    (
                        if scalar {
                            String::new()
                        } else {
                            format!("[{k}]")
                        },
                        v.clone(),
                    )
                })
                .collect(),
        });
    }
    out
}

/// The resolved capture layout of a linked program.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct XfbLayout {
    pub varyings: Vec<XfbVarying>,
    /// Bytes per vertex of each buffer binding the program writes (index = binding).
    pub strides: Vec<u32>,
    /// The vertex stream each buffer binding the program writes takes (index = binding).
    pub streams: Vec<u32>,
    /// The stage declares outputs on vertex streams (its copies then name their stream).
    pub uses_streams: bool,
    pub separate: bool,
    captures: Vec<Capture>,
    copies: Vec<Copy>,
}

impl XfbLayout {
    /// `GL_TRANSFORM_FEEDBACK_VARYING_MAX_LENGTH`: the longest name plus its terminator.
    pub fn max_name_length(&self) -> usize {
        self.varyings
            .iter()
            .map(|v| v.name.len() + 1)
            .max()
            .unwrap_or(0)
    }
}

/// A value type as both APIs see it: the GL type, its GLSL spelling, its components.
#[derive(Clone, Copy)]
struct ValueType {
    gl: GlType,
    /// 4-byte words per element (a double component takes two).
    words: u32,
}

fn glsl_name(t: GlType) -> String {
    let Some((scalar, columns, rows)) = t.shape() else {
        return String::new();
    };
    let (scalar_name, prefix) = match scalar {
        ScalarKind::Float => ("float", ""),
        ScalarKind::Double => ("double", "d"),
        ScalarKind::Int => ("int", "i"),
        ScalarKind::UInt => ("uint", "u"),
        ScalarKind::Bool => ("bool", "b"),
        ScalarKind::Int64 => ("int64_t", "i64"),
        ScalarKind::UInt64 => ("uint64_t", "u64"),
    };
    match (columns, rows) {
        (1, 1) => scalar_name.to_owned(),
        (1, n) => format!("{prefix}vec{n}"),
        (c, r) if c == r => format!("{prefix}mat{c}"),
        (c, r) => format!("{prefix}mat{c}x{r}"),
    }
}

/// What a type id is, one step at a time.
enum Shape {
    Value(ValueType),
    Array(u32, u32),
    Struct(Vec<u32>),
}

fn scalar_of(m: &Module, id: u32) -> Option<(ScalarKind, u32)> {
    match m.types.get(&id)? {
        Type::Float { width: 64 } => Some((ScalarKind::Double, 2)),
        Type::Float { .. } => Some((ScalarKind::Float, 1)),
        Type::Int {
            width: 64,
            signed: true,
        } => Some((ScalarKind::Int64, 2)),
        Type::Int { width: 64, .. } => Some((ScalarKind::UInt64, 2)),
        Type::Int { signed: true, .. } => Some((ScalarKind::Int, 1)),
        Type::Int { .. } => Some((ScalarKind::UInt, 1)),
        Type::Bool => Some((ScalarKind::Bool, 1)),
        _ => None,
    }
}

fn shape(m: &Module, id: u32) -> Option<Shape> {
    let value = |scalar: (ScalarKind, u32), columns: u32, rows: u32| {
        GlType::from_shape(scalar.0, columns, rows).map(|gl| {
            Shape::Value(ValueType {
                gl,
                words: scalar.1 * columns * rows,
            })
        })
    };
    match m.types.get(&id)? {
        Type::Vector { component, count } => value(scalar_of(m, *component)?, 1, *count),
        Type::Matrix { column, columns } => match m.types.get(column)? {
            Type::Vector { component, count } => value(scalar_of(m, *component)?, *columns, *count),
            _ => None,
        },
        Type::Array {
            element,
            length: Some(n),
        } => Some(Shape::Array(*element, *n)),
        Type::Struct { members } => Some(Shape::Struct(members.clone())),
        _ => value(scalar_of(m, id)?, 1, 1),
    }
}

/// `Private`: module-scope globals, where the legacy upgrade keeps the built-in outputs no
/// later stage reads (`gl_ClipVertex`, `gl_BackColor`, …).
const PRIVATE: StorageClass = StorageClass::Other(6);

/// One output of the last vertex stage: GL name, GLSL expression, type id, vertex stream.
type Output = (String, String, u32, u32);

/// The outputs of the last vertex stage by GL name.
fn outputs(m: &Module) -> Vec<Output> {
    let mut out = Vec::new();
    let legacy_global = |id: u32| m.name(id).starts_with(FF_PREFIX);
    let captured = m.variables.iter().filter(|v| {
        v.storage == StorageClass::Output || v.storage == PRIVATE && legacy_global(v.id)
    });
    for v in captured {
        let Some(Type::Pointer { pointee, .. }) = m.types.get(&v.pointer_type) else {
            continue;
        };
        let var_name = m.name(v.id).to_owned();
        if var_name.starts_with(COPY_PREFIX) {
            continue;
        }
        let block = m.has_decoration(*pointee, decoration::BLOCK);
        let var_stream = m.decoration(v.id, DECORATION_STREAM);
        match m.types.get(pointee) {
            Some(Type::Struct { members }) if block => {
                let block_name = m.name(*pointee).to_owned();
                for (i, &ty) in (0u32..).zip(members) {
                    let Some(member) = m.member_names.get(&(*pointee, i)) else {
                        continue;
                    };
                    let (gl, expr) = if block_name == "gl_PerVertex" {
                        (member.clone(), member.clone())
                    } else if var_name.is_empty() {
                        (format!("{block_name}.{member}"), member.clone())
                    } else {
                        (
                            format!("{block_name}.{member}"),
                            format!("{var_name}.{member}"),
                        )
                    };
                    let stream = m
                        .member_decoration(*pointee, i, DECORATION_STREAM)
                        .or(var_stream)
                        .unwrap_or(0);
                    // A member of a block without an instance name is also its bare name.
                    if var_name.is_empty() && block_name != "gl_PerVertex" {
                        out.push((member.clone(), member.clone(), ty, stream));
                    }
                    out.push((gl, expr, ty, stream));
                }
            }
            _ => {
                let gl = if let Some(rest) = var_name.strip_prefix(FF_PREFIX) {
                    format!("gl_{rest}")
                } else {
                    var_name
                        .strip_prefix(USER_PREFIX)
                        .unwrap_or(&var_name)
                        .to_owned()
                };
                out.push((gl, var_name.clone(), *pointee, var_stream.unwrap_or(0)));
            }
        }
    }
    out
}

/// One part of a varying name: `ident` or `ident[N]`.
fn split_part(part: &str) -> Option<(&str, Option<u32>)> {
    match part.find('[') {
        None => Some((part, None)),
        Some(i) => {
            let index = part[i + 1..].strip_suffix(']')?.parse().ok()?;
            Some((&part[..i], Some(index)))
        }
    }
}

/// A resolved varying name: GLSL expression, value type, array length, vertex stream.
type Resolved = (String, ValueType, Option<u32>, u32);

/// Resolves one varying name.
fn resolve_name(m: &Module, outs: &[Output], name: &str) -> Result<Resolved, String> {
    let unknown =
        || format!("transform feedback varying {name} is not an output of the last vertex stage");
    // The longest output name that prefixes the varying (a block output's name has a dot).
    let (gl, expr, ty, stream) = outs
        .iter()
        .filter(|(gl, _, _, _)| {
            name == gl
                || name
                    .strip_prefix(gl.as_str())
                    .is_some_and(|rest| rest.starts_with('[') || rest.starts_with('.'))
        })
        .max_by_key(|(gl, _, _, _)| gl.len())
        .ok_or_else(unknown)?;
    let mut expr = expr.clone();
    let mut ty = *ty;
    let rest = &name[gl.len()..];
    // An index right after the output's own name, then `.member[i]` parts.
    let mut parts: Vec<String> = Vec::new();
    if let Some(stripped) = rest.strip_prefix('[') {
        let end = stripped.find(']').ok_or_else(unknown)?;
        parts.push(format!("[{}]", &stripped[..end]));
        parts.extend(
            stripped[end + 1..]
                .split('.')
                .skip(1)
                .map(|p| format!(".{p}")),
        );
        if !stripped[end + 1..].is_empty() && !stripped[end + 1..].starts_with('.') {
            return Err(unknown());
        }
    } else {
        parts.extend(rest.split('.').skip(1).map(|p| format!(".{p}")));
    }
    for part in parts {
        let (member, index) = if let Some(p) = part.strip_prefix('.') {
            split_part(p).ok_or_else(unknown)?
        } else {
            ("", split_part(&format!("x{part}")).ok_or_else(unknown)?.1)
        };
        if !member.is_empty() {
            let Some(Shape::Struct(members)) = shape(m, ty) else {
                return Err(unknown());
            };
            let i = (0u32..)
                .zip(&members)
                .find(|(i, _)| m.member_names.get(&(ty, *i)).map(String::as_str) == Some(member))
                .ok_or_else(unknown)?;
            ty = *i.1;
            expr.push('.');
            expr.push_str(member);
        }
        if let Some(index) = index {
            let Some(Shape::Array(element, len)) = shape(m, ty) else {
                return Err(unknown());
            };
            if index >= len {
                return Err(format!(
                    "transform feedback varying {name}: index past the array"
                ));
            }
            ty = element;
            expr.push_str(&format!("[{index}]"));
        }
    }
    match shape(m, ty) {
        Some(Shape::Value(v)) => Ok((expr, v, None, *stream)),
        Some(Shape::Array(element, len)) => match shape(m, element) {
            Some(Shape::Value(v)) => Ok((expr, v, Some(len), *stream)),
            _ => Err(format!("transform feedback varying {name}: arrays of arrays or structs cannot be captured whole")),
        },
        _ => Err(format!("transform feedback varying {name} is a struct: capture its members")),
    }
}

/// Whether the stage decorates any output (or output block member) with a vertex stream.
fn declares_streams(m: &Module) -> bool {
    m.variables
        .iter()
        .any(|v| m.decoration(v.id, DECORATION_STREAM).is_some())
        || m.member_decorations
            .keys()
            .any(|&(_, _, d)| d == DECORATION_STREAM)
}

/// Resolves `request` against the SPIR-V of the last vertex stage; the error is the link log.
pub fn resolve(request: &XfbRequest, last_stage: &[u32]) -> Result<XfbLayout, String> {
    let m = Module::parse(last_stage).map_err(|e| format!("SPIR-V unreadable: {e}"))?;
    let outs = outputs(&m);
    let mut layout = XfbLayout {
        separate: request.separate,
        uses_streams: declares_streams(&m),
        ..XfbLayout::default()
    };
    // The stream of each buffer, once a varying goes to it.
    let mut streams: Vec<Option<u32>> = vec![None; MAX_BUFFERS];
    let mut buffer = 0u32;
    let mut words = vec![0u32; 1];
    for (i, name) in request.varyings.iter().enumerate() {
        if request.separate {
            buffer = i as u32;
            words.resize(i + 1, 0);
        }
        if name == "gl_NextBuffer" || name.starts_with("gl_SkipComponents") {
            if request.separate {
                return Err(format!(
                    "{name} is only allowed with GL_INTERLEAVED_ATTRIBS"
                ));
            }
            if name == "gl_NextBuffer" {
                buffer += 1;
                if buffer as usize >= MAX_BUFFERS {
                    return Err(format!(
                        "gl_NextBuffer: more than GL_MAX_TRANSFORM_FEEDBACK_BUFFERS ({MAX_BUFFERS})"
                    ));
                }
                words.resize(buffer as usize + 1, 0);
                layout.varyings.push(XfbVarying {
                    name: name.clone(),
                    gl_type: GL_NONE,
                    size: 0,
                    buffer,
                    offset: 0,
                });
            } else {
                let n: u32 = match &name["gl_SkipComponents".len()..] {
                    "1" => 1,
                    "2" => 2,
                    "3" => 3,
                    "4" => 4,
                    _ => return Err(format!("{name} is not a transform feedback varying")),
                };
                layout.varyings.push(XfbVarying {
                    name: name.clone(),
                    gl_type: GL_NONE,
                    size: n as i32,
                    buffer,
                    offset: words[buffer as usize] * 4,
                });
                words[buffer as usize] += n;
            }
            continue;
        }
        if request.varyings[..i].contains(name) {
            return Err(format!("transform feedback varying {name} is named twice"));
        }
        let (expr, ty, array, stream) = resolve_name(&m, &outs, name)?;
        match streams[buffer as usize] {
            Some(other) if other != stream => {
                return Err(format!(
                    "transform feedback varying {name} is on vertex stream {stream}, but buffer {buffer} already captures stream {other}"
                ))
            }
            _ => streams[buffer as usize] = Some(stream),
        }
        let n = ty.words * array.unwrap_or(1);
        if request.separate && n > MAX_SEPARATE_COMPONENTS {
            return Err(format!(
                "transform feedback varying {name} has {n} components; GL_MAX_TRANSFORM_FEEDBACK_SEPARATE_COMPONENTS is {MAX_SEPARATE_COMPONENTS}"
            ));
        }
        layout.captures.push(Capture {
            expr,
            ty: ty.gl,
            array,
            buffer,
            offset: words[buffer as usize] * 4,
            stream,
        });
        layout.varyings.push(XfbVarying {
            name: name.clone(),
            gl_type: ty.gl.gl_enum().unwrap_or(GL_NONE),
            size: array.unwrap_or(1) as i32,
            buffer,
            offset: words[buffer as usize] * 4,
        });
        words[buffer as usize] += n;
    }
    let total: u32 = words.iter().sum();
    if !request.separate && total > MAX_INTERLEAVED_COMPONENTS {
        return Err(format!(
            "transform feedback captures {total} components; GL_MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS is {MAX_INTERLEAVED_COMPONENTS}"
        ));
    }
    layout.strides = words.iter().map(|w| w * 4).collect();
    layout.streams = (0..words.len()).map(|b| streams[b].unwrap_or(0)).collect();
    layout.copies = pack(&layout.captures);
    Ok(layout)
}

/// GLSL appended to the last vertex stage's unit: the copy outputs and `void fn_name()` that
/// assigns them, then runs `tail` (a statement, or nothing).
pub fn capture_source(layout: &XfbLayout, fn_name: &str, tail: &str) -> String {
    let mut s = copy_declarations(layout);
    s.push_str(&format!("void {fn_name}() {{\n"));
    s.push_str(&copy_assignments(layout, None, "    "));
    s.push_str(tail);
    s.push_str("}\n");
    s
}

/// The copy outputs' declarations (with their stream where the stage uses streams).
fn copy_declarations(layout: &XfbLayout) -> String {
    let mut s = String::from("\n");
    for (i, c) in layout.copies.iter().enumerate() {
        let array = c.array.map(|n| format!("[{n}]")).unwrap_or_default();
        let stream = if layout.uses_streams {
            format!("layout(stream = {}) ", c.stream)
        } else {
            String::new()
        };
        s.push_str(&format!(
            "{stream}out {} {COPY_PREFIX}{i}{array};\n",
            c.decl
        ));
    }
    s
}

/// The statements assigning the copies (of `stream` only, when given), each after `indent`.
fn copy_assignments(layout: &XfbLayout, stream: Option<u32>, indent: &str) -> String {
    let mut s = String::new();
    for (i, c) in layout.copies.iter().enumerate() {
        if stream.is_some_and(|n| n != c.stream) {
            continue;
        }
        for (element, value) in &c.assigns {
            s.push_str(&format!("{indent}{COPY_PREFIX}{i}{element} = {value};\n"));
        }
    }
    s
}

/// The geometry stage's emit functions: `EMIT_FN()` assigns stream 0's copies and emits;
/// where the stage uses streams, `EMIT_STREAM_FN(n)` assigns stream n's and emits on it
/// (`EmitStreamVertex` takes a constant, so one branch per stream).
fn geometry_emit_source(layout: &XfbLayout) -> String {
    let mut s = copy_declarations(layout);
    s.push_str(&format!("void {EMIT_FN}() {{\n"));
    s.push_str(&copy_assignments(layout, Some(0), "    "));
    s.push_str("    EmitVertex();\n}\n");
    if layout.uses_streams {
        s.push_str(&format!("void {EMIT_STREAM_FN}(int stream) {{\n"));
        for n in 0..MAX_STREAMS {
            let branch = if n == 0 { "    " } else { " else " };
            s.push_str(&format!("{branch}if (stream == {n}) {{\n"));
            s.push_str(&copy_assignments(layout, Some(n), "        "));
            s.push_str(&format!("        EmitStreamVertex({n});\n    }}"));
        }
        s.push_str("\n}\n");
    }
    s
}

/// The geometry stage's `EmitVertex()` replacement.
const EMIT_FN: &str = "arenagl_xfb_emit";
/// The geometry stage's `EmitStreamVertex(n)` replacement.
const EMIT_STREAM_FN: &str = "arenagl_xfb_emit_stream";

/// Adds the capture to the units of `last`, the last vertex stage. The vertex and evaluation
/// stages are wrapped (`wrapper_call` is the wrapper's call of the application's `main`): the
/// copies run right after it, before the wrapper adjusts `gl_Position` for Vulkan. A geometry
/// stage copies before each `EmitVertex()` (a macro routes it through the capture function).
pub fn add_capture(
    sources: &mut [(Stage, String)],
    last: Stage,
    layout: &XfbLayout,
    wrapper_call: &str,
) -> Result<(), String> {
    if last == Stage::Geometry {
        return add_geometry_capture(sources, layout);
    }
    let (_, src) = sources
        .iter_mut()
        .find(|(stage, src)| *stage == last && src.contains(wrapper_call))
        .ok_or("the last vertex stage has no wrapper to capture in")?;
    let call = src.find(wrapper_call).ok_or("no wrapper call")?;
    let main = src[..call].rfind("void main()").ok_or("no wrapper main")?;
    let mut out = String::with_capacity(src.len() + 256);
    out.push_str(&src[..main]);
    out.push_str(&format!("void {CAPTURE_FN}();\n"));
    out.push_str(&src[main..call + wrapper_call.len()]);
    out.push_str(&format!("    {CAPTURE_FN}();\n"));
    out.push_str(&src[call + wrapper_call.len()..]);
    out.push_str(&capture_source(layout, CAPTURE_FN, ""));
    *src = out;
    Ok(())
}

/// The geometry stage's capture: `EmitVertex()` becomes `arenagl_xfb_emit()` in every unit
/// (declared after the unit's leading directives), which copies, then emits; likewise
/// `EmitStreamVertex(n)` where the stage uses streams.
fn add_geometry_capture(sources: &mut [(Stage, String)], layout: &XfbLayout) -> Result<(), String> {
    let mut defined = false;
    for (_, src) in sources.iter_mut().filter(|(s, _)| *s == Stage::Geometry) {
        let at = after_leading_directives(src);
        let mut out = String::with_capacity(src.len() + 512);
        out.push_str(&src[..at]);
        out.push_str(&format!(
            "void {EMIT_FN}();\n#define EmitVertex() {EMIT_FN}()\n"
        ));
        if layout.uses_streams {
            out.push_str(&format!(
                "void {EMIT_STREAM_FN}(int);\n#define EmitStreamVertex(n) {EMIT_STREAM_FN}(n)\n"
            ));
        }
        out.push_str(&src[at..]);
        if !defined && src.contains("main") {
            out.push_str("\n#undef EmitVertex\n");
            if layout.uses_streams {
                out.push_str("#undef EmitStreamVertex\n");
            }
            out.push_str(&geometry_emit_source(layout));
            defined = true;
        }
        *src = out;
    }
    if defined {
        Ok(())
    } else {
        Err("no geometry unit defines main".into())
    }
}

/// The byte index just past the `#version` / `#extension` lines (and blank lines and line
/// comments among them) that open a unit.
fn after_leading_directives(src: &str) -> usize {
    let mut at = 0;
    let mut end = 0;
    for line in src.split_inclusive('\n') {
        let t = line.trim();
        at += line.len();
        if t.starts_with("#version") || t.starts_with("#extension") {
            end = at;
        } else if !(t.is_empty() || t.starts_with("//")) {
            break;
        }
    }
    end
}

/// Adds `Capability TransformFeedback`, `ExecutionMode Xfb` and each copy's `XfbBuffer`,
/// `XfbStride` and `Offset` to the last vertex stage's SPIR-V.
pub fn decorate(words: &mut Vec<u32>, layout: &XfbLayout) -> Result<(), String> {
    let bad = |e: ParseError| format!("SPIR-V unreadable: {e}");
    // Outputs the stage declared captures for keep no `Xfb` decorations of their own.
    declared::strip(words)?;
    let m = Module::parse(words).map_err(bad)?;
    let mut decorations = Vec::new();
    for (i, c) in layout.copies.iter().enumerate() {
        let name = format!("{COPY_PREFIX}{i}");
        let var = m
            .variables
            .iter()
            .find(|v| v.storage == StorageClass::Output && m.name(v.id) == name)
            .ok_or_else(|| format!("the copy output {name} is missing"))?;
        let stride = layout.strides.get(c.buffer as usize).copied().unwrap_or(0);
        for (deco, value) in [
            (decoration::XFB_BUFFER, c.buffer),
            (decoration::XFB_STRIDE, stride),
            (decoration::OFFSET, c.offset),
        ] {
            decorations.extend([(4 << 16) | u32::from(op::DECORATE), var.id, deco, value]);
        }
    }
    let entry =
        find_instruction(words, |opcode| opcode == op::ENTRY_POINT).ok_or("no entry point")?;
    let entry_id = words
        .get(entry + 2)
        .copied()
        .ok_or("truncated entry point")?;
    let after_entries = last_instruction_end(words, op::ENTRY_POINT).ok_or("no entry point")?;
    let annotations = find_instruction(words, |opcode| {
        matches!(opcode, op::DECORATE | op::MEMBER_DECORATE)
    })
    .unwrap_or(after_entries);
    // From the back, so each index stays valid.
    words.splice(annotations..annotations, decorations);
    words.splice(
        after_entries..after_entries,
        [
            (3 << 16) | u32::from(op::EXECUTION_MODE),
            entry_id,
            EXECUTION_MODE_XFB,
        ],
    );
    words.splice(
        5..5,
        [
            (2 << 16) | u32::from(op::CAPABILITY),
            CAPABILITY_TRANSFORM_FEEDBACK,
        ],
    );
    Ok(())
}

const EXECUTION_MODE_XFB: u32 = 11;
const CAPABILITY_TRANSFORM_FEEDBACK: u32 = 53;

/// The word index of the first instruction whose opcode passes `wanted`.
fn find_instruction(words: &[u32], wanted: impl Fn(u16) -> bool) -> Option<usize> {
    let mut at = 5;
    while at < words.len() {
        let count = ((words[at] >> 16) as usize).max(1);
        if wanted((words[at] & 0xffff) as u16) {
            return Some(at);
        }
        at += count;
    }
    None
}

/// The word index just past the last instruction with `opcode`.
fn last_instruction_end(words: &[u32], opcode: u16) -> Option<usize> {
    let mut at = 5;
    let mut end = None;
    while at < words.len() {
        let count = ((words[at] >> 16) as usize).max(1);
        if (words[at] & 0xffff) as u16 == opcode {
            end = Some(at + count);
        }
        at += count;
    }
    end
}

#[cfg(test)]
#[allow(clippy::expect_used)]
mod tests {
    use super::*;
    use crate::glsl::{compile_program, CompileOptions};

    const VS: &str = "#version 150\nin vec4 p;\nout vec3 a;\nout float b[3];\nstruct S { vec2 x; int y; };\nout S s;\nvoid main() { gl_Position = p; a = p.xyz; b[0] = 1.0; b[1] = 2.0; b[2] = 3.0; s.x = p.xy; s.y = 4; }\n";
    const FS: &str = "#version 150\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n";

    fn vertex_spirv() -> Vec<u32> {
        let p = compile_program(
            &[(Stage::Vertex, VS), (Stage::Fragment, FS)],
            CompileOptions::default(),
        )
        .expect("links");
        p.stages
            .into_iter()
            .find(|s| s.stage == Stage::Vertex)
            .expect("vertex")
            .spirv
    }

    fn request(names: &[&str], separate: bool) -> XfbRequest {
        XfbRequest {
            varyings: names.iter().map(|s| s.to_string()).collect(),
            separate,
        }
    }

    #[test]
    fn interleaved_layout_packs_elements_members_and_skips() {
        let spv = vertex_spirv();
        let names = [
            "gl_Position",
            "b[1]",
            "gl_SkipComponents2",
            "s.x",
            "gl_NextBuffer",
            "a",
            "b",
        ];
        let l = resolve(&request(&names, false), &spv).expect("resolves");
        assert_eq!(l.strides, vec![(4 + 1 + 2 + 2) * 4, (3 + 3) * 4]);
        let offsets: Vec<(u32, u32)> = l.captures.iter().map(|c| (c.buffer, c.offset)).collect();
        assert_eq!(offsets, vec![(0, 0), (0, 16), (0, 28), (1, 0), (1, 12)]);
        assert_eq!(l.captures[1].expr, "b[1]");
        assert_eq!(l.captures[2].expr, "s.x");
        // Neighbouring float components share vec4 copies.
        let copies: Vec<(&str, Option<u32>, u32, u32)> = l
            .copies
            .iter()
            .map(|c| (c.decl.as_str(), c.array, c.buffer, c.offset))
            .collect();
        assert_eq!(
            copies,
            vec![
                ("vec4", Some(1), 0, 0),
                ("float", None, 0, 16),
                ("vec2", None, 0, 28),
                ("vec4", Some(1), 1, 0),
                ("vec2", None, 1, 16),
            ]
        );
        assert_eq!(
            l.copies[3].assigns[3],
            ("[0][3]".to_owned(), "b[0]".to_owned())
        );
        assert_eq!(l.varyings[6].size, 3);
        assert_eq!(l.varyings[0].gl_type, 0x8B52);
        assert_eq!(l.max_name_length(), "gl_SkipComponents2".len() + 1);
    }

    #[test]
    fn link_errors_name_the_varying() {
        let spv = vertex_spirv();
        for (names, separate) in [
            (&["nope"][..], false),
            (&["s"][..], false),
            (&["a", "a"][..], false),
            (&["b[3]"][..], false),
            (&["gl_Position", "gl_NextBuffer"][..], true),
            (
                &[
                    "gl_NextBuffer",
                    "gl_NextBuffer",
                    "gl_NextBuffer",
                    "gl_NextBuffer",
                ][..],
                false,
            ),
        ] {
            assert!(
                resolve(&request(names, separate), &spv).is_err(),
                "{names:?}"
            );
        }
    }

    #[test]
    fn streams_come_from_the_outputs_and_one_buffer_takes_one_stream() {
        const VS2: &str = "#version 150\nvoid main() { gl_Position = vec4(0.0); }\n";
        const GS: &str = "#version 150\n#extension GL_ARB_gpu_shader5 : enable\nlayout(points) in;\nlayout(points, max_vertices = 2) out;\nout float a;\nlayout(stream = 1) out Block1 { vec2 b; };\nvoid main() { a = 1.0; EmitVertex(); b = vec2(2.0); EmitStreamVertex(1); }\n";
        let p = compile_program(
            &[
                (Stage::Vertex, VS2),
                (Stage::Geometry, GS),
                (Stage::Fragment, FS),
            ],
            CompileOptions::default(),
        )
        .expect("links");
        let gs = &p
            .stages
            .iter()
            .find(|s| s.stage == Stage::Geometry)
            .expect("geometry")
            .spirv;
        let l = resolve(&request(&["a", "gl_NextBuffer", "b"], false), gs).expect("resolves");
        assert_eq!(l.streams, vec![0, 1]);
        assert!(l.uses_streams);
        let src = geometry_emit_source(&l);
        assert!(
            src.contains("layout(stream = 1) out vec2 arenagl_xfb_1;"),
            "{src}"
        );
        assert!(resolve(&request(&["a", "Block1.b"], false), gs).is_err());
    }

    #[test]
    fn decorations_are_added_to_the_copies() {
        let spv = vertex_spirv();
        let l = resolve(&request(&["a", "b[2]"], true), &spv).expect("resolves");
        let src = capture_source(&l, CAPTURE_FN, "");
        assert!(
            src.contains("out vec3 arenagl_xfb_0;") && src.contains("arenagl_xfb_1 = b[2];"),
            "{src}"
        );
        let vs = format!(
            "{}{src}",
            VS.replace("void main() {", "void main() { arenagl_xfb_capture();")
                .replacen("void main()", "void arenagl_xfb_capture();\nvoid main()", 1)
        );
        let p = compile_program(
            &[(Stage::Vertex, vs.as_str()), (Stage::Fragment, FS)],
            CompileOptions::default(),
        )
        .expect("links with copies");
        let mut words = p.stages[0].spirv.clone();
        decorate(&mut words, &l).expect("decorates");
        let m = Module::parse(&words).expect("parses");
        let copy = m
            .variables
            .iter()
            .find(|v| m.name(v.id) == "arenagl_xfb_1")
            .expect("copy");
        assert_eq!(m.decoration(copy.id, decoration::XFB_BUFFER), Some(1));
        assert_eq!(m.decoration(copy.id, decoration::XFB_STRIDE), Some(4));
        assert!(m
            .execution_modes
            .iter()
            .any(|(_, mode, _)| *mode == EXECUTION_MODE_XFB));
    }
}
