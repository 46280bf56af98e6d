//! `glSpecializeShader`: the entry point chosen and the specialization constants fixed.
//!
//! Design decisions:
//! - The chosen entry point is the module's only one afterwards, renamed `main` (the name every
//!   pipeline uses); the others' execution modes go with them, their functions stay (unused).
//! - Every specialization constant of the application becomes a plain constant of the value
//!   `glSpecializeShader` gave or of its default, and loses its `SpecId`: ArenaGL's pipelines set
//!   specialization constants of their own (depth remap, point size, …), whose ids an
//!   application's module may use too. Constants computed from them (`OpSpecConstantOp`,
//!   `OpSpecConstantComposite`) stay as they are, now over plain constants.
#![deny(unsafe_code, clippy::unwrap_used, clippy::expect_used)]

use super::module::{header, op, opcode, read_string, string_words, Inst, Sections};
use crate::glsl::Stage;

const DECORATION_SPEC_ID: u32 = 1;

/// Why `glSpecializeShader` failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SpecializeError {
    /// No entry point of the shader's stage has that name (`GL_INVALID_VALUE`).
    NoEntryPoint(String),
    /// No specialization constant has that id (`GL_INVALID_VALUE`).
    UnknownConstant(u32),
    /// The binary is not a module ArenaGL can use: the specialization fails with this log.
    Invalid(String),
}

/// SPIR-V's execution model of `stage`.
pub(super) fn execution_model(stage: Stage) -> u32 {
    match stage {
        Stage::Vertex => 0,
        Stage::TessControl => 1,
        Stage::TessEvaluation => 2,
        Stage::Geometry => 3,
        Stage::Fragment => 4,
        Stage::Compute => 5,
    }
}

/// `words` for `stage` with the entry point `entry` and the constants `(id, value)` applied (see
/// the module docs).
pub fn specialize(
    stage: Stage,
    words: &[u32],
    entry: &str,
    constants: &[(u32, u32)],
) -> Result<Vec<u32>, SpecializeError> {
    let mut s = Sections::parse(words).map_err(SpecializeError::Invalid)?;
    check_extensions(&s)?;
    keep_entry_point(&mut s, stage, entry)?;
    let spec_ids: Vec<(u32, u32)> = s
        .annotations
        .iter()
        .filter(|i| opcode(i) == op::DECORATE && i.len() == 4 && i[2] == DECORATION_SPEC_ID)
        .map(|i| (i[1], i[3]))
        .collect();
    if let Some(&(id, _)) = constants
        .iter()
        .find(|(c, _)| !spec_ids.iter().any(|(_, s)| s == c))
    {
        return Err(SpecializeError::UnknownConstant(id));
    }
    for inst in &mut s.globals {
        let Some(&(_, spec)) = spec_ids.iter().find(|(t, _)| inst.get(2) == Some(t)) else {
            continue;
        };
        // The last value given for an id wins, as in Vulkan.
        let value = constants
            .iter()
            .rev()
            .find(|(c, _)| *c == spec)
            .map(|c| c.1);
        fix_constant(inst, value);
    }
    s.annotations
        .retain(|i| !(opcode(i) == op::DECORATE && i.len() == 4 && i[2] == DECORATION_SPEC_ID));
    Ok(s.words())
}

/// Refuses a module that declares a SPIR-V extension ArenaGL does not offer.
fn check_extensions(s: &Sections) -> Result<(), SpecializeError> {
    for inst in s.preamble.iter().filter(|i| opcode(i) == op::EXTENSION) {
        let name = inst.get(1..).and_then(read_string).map(|(n, _)| n);
        match name {
            Some(n) if super::SPIRV_EXTENSIONS.contains(&n.as_str()) => {}
            other => {
                return Err(SpecializeError::Invalid(format!(
                    "the module declares the SPIR-V extension {:?}, which is not offered \
                     (GL_SPIR_V_EXTENSIONS)",
                    other.unwrap_or_default()
                )))
            }
        }
    }
    Ok(())
}

/// Makes the specialization constant `inst` a plain one, of `value` when given.
fn fix_constant(inst: &mut Inst, value: Option<u32>) {
    match opcode(inst) {
        op::SPEC_CONSTANT_TRUE | op::SPEC_CONSTANT_FALSE => {
            let default = opcode(inst) == op::SPEC_CONSTANT_TRUE;
            let on = value.map_or(default, |v| v != 0);
            let code = if on {
                op::CONSTANT_TRUE
            } else {
                op::CONSTANT_FALSE
            };
            inst[0] = header(code, inst.len());
        }
        op::SPEC_CONSTANT if inst.len() >= 4 => {
            if let Some(v) = value {
                inst[3] = v;
                // A 64-bit constant's high word: GL gives 32 bits.
                for w in inst.iter_mut().skip(4) {
                    *w = 0;
                }
            }
            inst[0] = header(op::CONSTANT, inst.len());
        }
        _ => {}
    }
}

/// Keeps only the entry point `entry` of `stage`'s model, renamed `main`, and its execution
/// modes; returns its function.
fn keep_entry_point(s: &mut Sections, stage: Stage, entry: &str) -> Result<u32, SpecializeError> {
    let model = execution_model(stage);
    let mut function = None;
    for inst in &s.preamble {
        if opcode(inst) != op::ENTRY_POINT || inst.len() < 4 || inst[1] != model {
            continue;
        }
        if read_string(&inst[3..]).is_some_and(|(name, _)| name == entry) {
            function = Some(inst[2]);
        }
    }
    let function = function.ok_or_else(|| SpecializeError::NoEntryPoint(entry.to_owned()))?;
    let defined = s
        .functions
        .iter()
        .any(|i| opcode(i) == op::FUNCTION && i.get(2) == Some(&function));
    if !defined {
        return Err(SpecializeError::Invalid(format!(
            "the entry point {entry:?} names no function of the module"
        )));
    }
    let mut kept = Vec::with_capacity(s.preamble.len());
    for inst in s.preamble.drain(..) {
        match opcode(&inst) {
            op::ENTRY_POINT if inst.get(2) == Some(&function) && inst.get(1) == Some(&model) => {
                let Some((_, used)) = read_string(&inst[3..]) else {
                    continue;
                };
                let mut renamed = vec![0, model, function];
                renamed.extend(string_words("main"));
                renamed.extend_from_slice(&inst[3 + used..]);
                renamed[0] = header(op::ENTRY_POINT, renamed.len());
                kept.push(renamed);
            }
            op::ENTRY_POINT => {}
            op::EXECUTION_MODE | op::EXECUTION_MODE_ID if inst.get(1) != Some(&function) => {}
            _ => kept.push(inst),
        }
    }
    s.preamble = kept;
    Ok(function)
}

/// The entry point functions of the module's only entry point.
pub(super) fn entry_function(s: &Sections) -> Option<u32> {
    s.preamble
        .iter()
        .find(|i| opcode(i) == op::ENTRY_POINT && i.len() >= 3)
        .map(|i| i[2])
}
