//! `gl_InstanceID` counted from the draw's base instance.
//!
//! glslang's relaxed Vulkan rules alias GL's `gl_InstanceID` to Vulkan's `InstanceIndex`, which
//! counts from the draw's `firstInstance`; GL's counts from 0 whatever the base instance
//! (GL_ARB_base_instance). [`count_from_base`] rewrites every load of the `InstanceIndex` input
//! into `InstanceIndex - BaseInstance` (SPIR-V 1.3's `DrawParameters` capability, Vulkan's
//! `shaderDrawParameters` feature), so direct and indirect draws alike see GL's value.

use super::rect::{header, opcode, split};
use super::spirv::ParseError;

mod op {
    pub const CAPABILITY: u16 = 17;
    pub const ENTRY_POINT: u16 = 15;
    pub const TYPE_POINTER: u16 = 32;
    pub const VARIABLE: u16 = 59;
    pub const LOAD: u16 = 61;
    pub const DECORATE: u16 = 71;
    pub const I_SUB: u16 = 130;
}
const DECORATION_BUILT_IN: u32 = 11;
const BUILT_IN_INSTANCE_INDEX: u32 = 43;
const BUILT_IN_BASE_INSTANCE: u32 = 4425;
const CAPABILITY_DRAW_PARAMETERS: u32 = 4427;

/// The variable decorated `BuiltIn builtin`, if any.
fn builtin_variable(insts: &[Vec<u32>], builtin: u32) -> Option<u32> {
    insts.iter().find_map(|i| {
        (opcode(i) == op::DECORATE
            && i.len() >= 4
            && i[2] == DECORATION_BUILT_IN
            && i[3] == builtin)
            .then(|| i[1])
    })
}

/// Rewrites a vertex module's `InstanceIndex` loads to count from the base instance (see the
/// module docs). Returns whether the module changed (it reads no `InstanceIndex`: unchanged).
pub(crate) fn count_from_base(words: &mut Vec<u32>) -> Result<bool, ParseError> {
    let mut insts = split(words)?;
    // `DrawParameters` is core from SPIR-V 1.3 (both targets); older modules stay as they are.
    if words[1] < 0x0001_0300 {
        return Ok(false);
    }
    let Some(index_var) = builtin_variable(&insts, BUILT_IN_INSTANCE_INDEX) else {
        return Ok(false);
    };
    let mut bound = words[3];
    let mut fresh = || {
        bound += 1;
        bound - 1
    };
    // The input's pointer type, and the integer type it points at.
    let Some(ptr_type) = insts
        .iter()
        .find(|i| opcode(i) == op::VARIABLE && i.len() >= 3 && i[2] == index_var)
        .map(|i| i[1])
    else {
        return Ok(false);
    };
    let Some(int_type) = insts
        .iter()
        .find(|i| opcode(i) == op::TYPE_POINTER && i.len() >= 4 && i[1] == ptr_type)
        .map(|i| i[3])
    else {
        return Ok(false);
    };
    let (base_var, declare) = match builtin_variable(&insts, BUILT_IN_BASE_INSTANCE) {
        Some(v) => (v, false),
        None => (fresh(), true),
    };
    let mut out: Vec<Vec<u32>> = Vec::with_capacity(insts.len() + 8);
    let mut capability_added = false;
    for inst in insts.drain(..) {
        match opcode(&inst) {
            op::CAPABILITY if !capability_added => {
                out.push(inst);
                out.push(vec![header(op::CAPABILITY, 2), CAPABILITY_DRAW_PARAMETERS]);
                capability_added = true;
            }
            op::ENTRY_POINT if declare => {
                let mut e = inst;
                e.push(base_var);
                e[0] = header(op::ENTRY_POINT, e.len());
                out.push(e);
            }
            op::DECORATE
                if declare
                    && inst.get(1) == Some(&index_var)
                    && inst.get(2) == Some(&DECORATION_BUILT_IN) =>
            {
                out.push(inst);
                out.push(vec![
                    header(op::DECORATE, 4),
                    base_var,
                    DECORATION_BUILT_IN,
                    BUILT_IN_BASE_INSTANCE,
                ]);
            }
            op::VARIABLE if declare && inst.get(2) == Some(&index_var) => {
                let storage = inst[3];
                out.push(inst);
                out.push(vec![header(op::VARIABLE, 4), ptr_type, base_var, storage]);
            }
            op::LOAD if inst.len() >= 4 && inst[3] == index_var => {
                let (result, index, base) = (inst[2], fresh(), fresh());
                out.push(vec![header(op::LOAD, 4), int_type, index, index_var]);
                out.push(vec![header(op::LOAD, 4), int_type, base, base_var]);
                out.push(vec![header(op::I_SUB, 5), int_type, result, index, base]);
            }
            _ => out.push(inst),
        }
    }
    words.truncate(5);
    words[3] = bound;
    words.extend(out.into_iter().flatten());
    Ok(true)
}
