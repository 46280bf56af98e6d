//! Captures a shader declares (GL_ARB_enhanced_layouts `xfb_buffer`, `xfb_offset`,
//! `xfb_stride`): read from the `XfbBuffer`/`Offset`/`XfbStride` decorations glslang gives the
//! last vertex stage's outputs, and captured through the same copy outputs as
//! `glTransformFeedbackVaryings` captures (the parent module).
//!
//! Design decisions:
//! - glslang lays the buffers out (implicit offsets of block members, strides, the errors the
//!   GLSL spec lists); this module only reads its decorations. An output with an offset is
//!   captured as one GL varying per value it holds: a value or an array of values whole, a
//!   struct (or array of structs) member by member, at consecutive offsets aligned to 4 bytes
//!   (8 for 64-bit members), as GLSL 4.40 §4.4.2.3 lays them out.
//! - The copies capture before the wrapper adjusts `gl_Position` for Vulkan, like every
//!   capture; so the originals' own decorations are dropped from the second link's SPIR-V
//!   ([`strip`]) and only the copies carry `Xfb` decorations.
//! - When a stage declares captures, `glTransformFeedbackVaryings` is ignored (GL 4.6 §11.1.2.1).

use super::{
    outputs, resolve_name, shape, Capture, Module, Shape, StorageClass, XfbLayout, XfbVarying,
    COPY_PREFIX, MAX_BUFFERS, MAX_INTERLEAVED_COMPONENTS,
};
use crate::glsl::spirv::{decoration, op, Type};

/// One captured value a declaration names: GL name, buffer, byte offset.
type Leaf = (String, u32, u32);

/// Whether any unit of the program may declare captures (a cheap test before parsing SPIR-V).
pub fn may_declare(sources: &[(crate::glsl::Stage, String)]) -> bool {
    sources.iter().any(|(_, s)| s.contains("xfb_"))
}

/// The layout the last vertex stage's declarations give, or `None` when it declares no capture.
/// The error is the link log.
pub fn resolve_declared(last_stage: &[u32]) -> Result<Option<XfbLayout>, String> {
    let m = Module::parse(last_stage).map_err(|e| format!("SPIR-V unreadable: {e}"))?;
    let (leaves, strides) = declared_leaves(&m);
    if leaves.is_empty() {
        return Ok(None);
    }
    let outs = outputs(&m);
    let mut layout = XfbLayout {
        uses_streams: super::declares_streams(&m),
        ..XfbLayout::default()
    };
    let mut streams: [Option<u32>; MAX_BUFFERS] = [None; MAX_BUFFERS];
    let mut ends = [0u32; MAX_BUFFERS];
    for (name, buffer, offset) in leaves {
        let (expr, ty, array, stream) = resolve_name(&m, &outs, &name)?;
        let b = buffer as usize;
        if b >= MAX_BUFFERS {
            return Err(format!(
                "{name}: xfb_buffer {buffer} is past GL_MAX_TRANSFORM_FEEDBACK_BUFFERS"
            ));
        }
        match streams[b] {
            Some(other) if other != stream => {
                return Err(format!(
                    "{name} is on vertex stream {stream}, but xfb_buffer {buffer} already captures stream {other}"
                ))
            }
            _ => streams[b] = Some(stream),
        }
        let bytes = 4 * ty.words * array.unwrap_or(1);
        ends[b] = ends[b].max(offset + bytes);
        layout.captures.push(Capture {
            expr,
            ty: ty.gl,
            array,
            buffer,
            offset,
            stream,
        });
        layout.varyings.push(XfbVarying {
            name,
            gl_type: ty.gl.gl_enum().unwrap_or(0),
            size: array.unwrap_or(1) as i32,
            buffer,
            offset,
        });
    }
    let used = ends.iter().rposition(|&e| e > 0).map_or(0, |b| b + 1);
    // A buffer's stride is its `xfb_stride` (glslang's, explicit or computed), at least what
    // its captures reach; a buffer nothing is captured into is not written.
    layout.strides = (0..used)
        .map(|b| match ends[b] {
            0 => 0,
            end => strides.get(&(b as u32)).copied().unwrap_or(0).max(end),
        })
        .collect();
    let words: u32 = layout.strides.iter().map(|s| s / 4).sum();
    if words > MAX_INTERLEAVED_COMPONENTS {
        return Err(format!(
            "transform feedback captures {words} components; GL_MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS is {MAX_INTERLEAVED_COMPONENTS}"
        ));
    }
    layout.streams = (0..used).map(|b| streams[b].unwrap_or(0)).collect();
    layout.captures.sort_by_key(|c| (c.buffer, c.offset));
    layout.copies = super::pack(&layout.captures);
    Ok(Some(layout))
}

/// The values the stage's outputs declare offsets for, and the `XfbStride` of each buffer.
fn declared_leaves(m: &Module) -> (Vec<Leaf>, std::collections::HashMap<u32, u32>) {
    let mut leaves = Vec::new();
    let mut strides = std::collections::HashMap::new();
    for v in m
        .variables
        .iter()
        .filter(|v| v.storage == StorageClass::Output)
    {
        let var_name = m.name(v.id);
        if var_name.starts_with(COPY_PREFIX) {
            continue;
        }
        let Some(Type::Pointer { pointee, .. }) = m.types.get(&v.pointer_type) else {
            continue;
        };
        let buffer = m.decoration(v.id, decoration::XFB_BUFFER).unwrap_or(0);
        if let Some(stride) = m.decoration(v.id, decoration::XFB_STRIDE) {
            strides.insert(buffer, stride);
        }
        let block = m.has_decoration(*pointee, decoration::BLOCK);
        match m.types.get(pointee) {
            Some(Type::Struct { members }) if block => {
                let block_name = m.name(*pointee);
                for i in 0..members.len() as u32 {
                    let Some(offset) = m.member_decoration(*pointee, i, decoration::OFFSET) else {
                        continue;
                    };
                    let Some(member) = m.member_names.get(&(*pointee, i)) else {
                        continue;
                    };
                    let name = if block_name == "gl_PerVertex" || var_name.is_empty() {
                        member.clone()
                    } else {
                        format!("{block_name}.{member}")
                    };
                    expand(m, name, members[i as usize], (buffer, offset), &mut leaves);
                }
            }
            _ => {
                if let Some(offset) = m.decoration(v.id, decoration::OFFSET) {
                    let name = gl_name(var_name);
                    expand(m, name, *pointee, (buffer, offset), &mut leaves);
                }
            }
        }
    }
    (leaves, strides)
}

/// The GL name of an output variable (the legacy upgrade's prefixes removed).
fn gl_name(var_name: &str) -> String {
    if let Some(rest) = var_name.strip_prefix(crate::glsl::legacy::FF_PREFIX) {
        format!("gl_{rest}")
    } else {
        var_name
            .strip_prefix(crate::glsl::legacy::USER_PREFIX)
            .unwrap_or(var_name)
            .to_owned()
    }
}

/// The captured values of `name` (of type `ty`) at `at` = (buffer, offset): a value or an
/// array of values whole, structs member by member.
fn expand(m: &Module, name: String, ty: u32, at: (u32, u32), out: &mut Vec<Leaf>) {
    let (buffer, offset) = at;
    match shape(m, ty) {
        Some(Shape::Array(element, n)) if matches!(shape(m, element), Some(Shape::Struct(_))) => {
            let size = size_of(m, element);
            for i in 0..n {
                expand(
                    m,
                    format!("{name}[{i}]"),
                    element,
                    (buffer, offset + i * size),
                    out,
                );
            }
        }
        Some(Shape::Struct(members)) => {
            let mut at = offset;
            for (i, &member) in (0u32..).zip(&members) {
                at = at.next_multiple_of(align_of(m, member));
                let member_name = m.member_names.get(&(ty, i)).cloned().unwrap_or_default();
                expand(
                    m,
                    format!("{name}.{member_name}"),
                    member,
                    (buffer, at),
                    out,
                );
                at += size_of(m, member);
            }
        }
        Some(_) => out.push((name, buffer, offset)),
        None => {}
    }
}

/// Bytes a captured value of `ty` takes (4 per component, 8 per 64-bit one).
fn size_of(m: &Module, ty: u32) -> u32 {
    match shape(m, ty) {
        Some(Shape::Value(v)) => 4 * v.words,
        Some(Shape::Array(element, n)) => n * size_of(m, element),
        Some(Shape::Struct(members)) => members.iter().fold(0, |at, &member| {
            at.next_multiple_of(align_of(m, member)) + size_of(m, member)
        }),
        None => 0,
    }
}

/// 8 for a type holding 64-bit components, else 4.
fn align_of(m: &Module, ty: u32) -> u32 {
    match shape(m, ty) {
        Some(Shape::Value(v)) => {
            let (_, columns, rows) = v.gl.shape().unwrap_or((super::ScalarKind::Float, 1, 1));
            if v.words > columns * rows {
                8
            } else {
                4
            }
        }
        Some(Shape::Array(element, _)) => align_of(m, element),
        Some(Shape::Struct(members)) => members.iter().map(|&t| align_of(m, t)).max().unwrap_or(4),
        None => 4,
    }
}

/// Drops the `Xfb` decorations glslang gave the stage's own outputs (their buffers, strides
/// and offsets; the `Xfb` execution mode and the capability), which the copies' replace.
pub(super) fn strip(words: &mut Vec<u32>) -> Result<(), String> {
    let m = Module::parse(words).map_err(|e| format!("SPIR-V unreadable: {e}"))?;
    let outputs: std::collections::HashSet<u32> = m
        .variables
        .iter()
        .filter(|v| v.storage == StorageClass::Output)
        .map(|v| v.id)
        .collect();
    let output_types: std::collections::HashSet<u32> = m
        .variables
        .iter()
        .filter(|v| v.storage == StorageClass::Output)
        .filter_map(|v| match m.types.get(&v.pointer_type) {
            Some(Type::Pointer { pointee, .. }) => Some(*pointee),
            _ => None,
        })
        .collect();
    let dropped = |ins: &[u32]| -> bool {
        let opcode = (ins[0] & 0xffff) as u16;
        match (opcode, ins.get(1..)) {
            (op::DECORATE, Some([target, deco, ..])) => {
                matches!(*deco, decoration::XFB_BUFFER | decoration::XFB_STRIDE)
                    || (*deco == decoration::OFFSET && outputs.contains(target))
            }
            (op::MEMBER_DECORATE, Some([ty, _, deco, ..])) => {
                *deco == decoration::OFFSET && output_types.contains(ty)
            }
            (op::EXECUTION_MODE, Some([_, mode, ..])) => *mode == super::EXECUTION_MODE_XFB,
            (op::CAPABILITY, Some([cap, ..])) => *cap == super::CAPABILITY_TRANSFORM_FEEDBACK,
            _ => false,
        }
    };
    let mut out = Vec::with_capacity(words.len());
    out.extend_from_slice(words.get(..5).ok_or("truncated SPIR-V")?);
    let mut at = 5;
    while at < words.len() {
        let count = ((words[at] >> 16) as usize).max(1);
        let ins = words.get(at..at + count).ok_or("truncated instruction")?;
        if !dropped(ins) {
            out.extend_from_slice(ins);
        }
        at += count;
    }
    *words = out;
    Ok(())
}
