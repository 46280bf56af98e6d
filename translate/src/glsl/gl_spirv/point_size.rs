//! The point size of a GL module's vertex stage, as the GLSL path's wrapper writes it
//! (`program::link`): unless `GL_PROGRAM_POINT_SIZE` is on, `gl_PointSize` takes `glPointSize`'s
//! value, from the specialization constants the pipeline sets (Vulkan requires a point-list
//! pipeline's last vertex stage to write `PointSize`). A module without a `PointSize` output gets
//! one.
#![deny(unsafe_code, clippy::unwrap_used, clippy::expect_used)]

use super::module::{header, op, opcode, Inst, Sections};

/// The specialization constants of `program::link`'s vertex wrapper.
const POINT_SIZE_CONSTANT: u32 = 7340;
const PROGRAM_POINT_SIZE_CONSTANT: u32 = 7341;
const DECORATION_SPEC_ID: u32 = 1;
const DECORATION_BUILT_IN: u32 = 11;
const BUILT_IN_POINT_SIZE: u32 = 1;
const STORAGE_OUTPUT: u32 = 3;
const OP_TYPE_BOOL: u16 = 20;
const OP_RETURN: u16 = 253;

/// The output holding the point size: its variable and, in a block, its member.
fn point_size_output(s: &Sections) -> Option<(u32, Option<u32>)> {
    let is_point_size = |i: &Inst, at: usize| {
        i.get(at) == Some(&DECORATION_BUILT_IN) && i.get(at + 1) == Some(&BUILT_IN_POINT_SIZE)
    };
    let outputs = s
        .globals
        .iter()
        .filter(|i| opcode(i) == op::VARIABLE && i.len() >= 4 && i[3] == STORAGE_OUTPUT);
    for var in outputs {
        let (ptr, id) = (var[1], var[2]);
        if s.annotations
            .iter()
            .any(|i| opcode(i) == op::DECORATE && i.get(1) == Some(&id) && is_point_size(i, 2))
        {
            return Some((id, None));
        }
        let pointee = s.globals.iter().find_map(|i| {
            (opcode(i) == op::TYPE_POINTER && i.len() == 4 && i[1] == ptr).then(|| i[3])
        })?;
        let member = s.annotations.iter().find_map(|i| {
            (opcode(i) == op::MEMBER_DECORATE && i.get(1) == Some(&pointee) && is_point_size(i, 3))
                .then(|| i[2])
        });
        if let Some(m) = member {
            return Some((id, Some(m)));
        }
    }
    None
}

/// A new `PointSize` output variable of pointer type `ptr`, in the entry point's interface.
fn declare_output(s: &mut Sections, ptr: u32) -> Result<u32, String> {
    let var = s.fresh()?;
    s.globals
        .push(vec![header(op::VARIABLE, 4), ptr, var, STORAGE_OUTPUT]);
    s.decorate(var, DECORATION_BUILT_IN, &[BUILT_IN_POINT_SIZE]);
    if let Some(e) = s.preamble.iter_mut().find(|i| opcode(i) == op::ENTRY_POINT) {
        e.push(var);
        e[0] = header(op::ENTRY_POINT, e.len());
    }
    Ok(var)
}

/// Writes the point size before every return of the entry point function `entry`.
pub(super) fn write_point_size(s: &mut Sections, entry: u32) -> Result<(), String> {
    let float = s.global(op::TYPE_FLOAT, &[32])?;
    let boolean = s.global(OP_TYPE_BOOL, &[])?;
    let ptr = s.global(op::TYPE_POINTER, &[STORAGE_OUTPUT, float])?;
    let (var, member) = match point_size_output(s) {
        Some(found) => found,
        None => (declare_output(s, ptr)?, None),
    };
    let member = match member {
        Some(m) => {
            let int = s.global(op::TYPE_INT, &[32, 1])?;
            Some(s.constant(int, m)?)
        }
        None => None,
    };
    let size = s.fresh()?;
    s.globals.push(vec![
        header(op::SPEC_CONSTANT, 4),
        float,
        size,
        1.0f32.to_bits(),
    ]);
    let program = s.fresh()?;
    s.globals
        .push(vec![header(op::SPEC_CONSTANT_FALSE, 3), boolean, program]);
    s.decorate(size, DECORATION_SPEC_ID, &[POINT_SIZE_CONSTANT]);
    s.decorate(program, DECORATION_SPEC_ID, &[PROGRAM_POINT_SIZE_CONSTANT]);
    let functions = std::mem::take(&mut s.functions);
    let mut out = Vec::with_capacity(functions.len() + 8);
    let mut function = 0;
    for inst in functions {
        if opcode(&inst) == op::FUNCTION && inst.len() >= 3 {
            function = inst[2];
        }
        if function == entry && opcode(&inst) == OP_RETURN {
            let target = match member {
                Some(m) => {
                    let p = s.fresh()?;
                    out.push(vec![header(op::ACCESS_CHAIN, 5), ptr, p, var, m]);
                    p
                }
                None => var,
            };
            let (current, value) = (s.fresh()?, s.fresh()?);
            out.push(vec![header(op::LOAD, 4), float, current, target]);
            out.push(vec![
                header(op::SELECT, 6),
                float,
                value,
                program,
                current,
                size,
            ]);
            out.push(vec![header(op::STORE, 3), target, value]);
        }
        out.push(inst);
    }
    s.functions = out;
    Ok(())
}
