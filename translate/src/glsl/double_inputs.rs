//! Double-precision vertex inputs read through 32-bit integer formats.
//!
//! Design decisions:
//! - Vulkan drivers need not read `R64*_SFLOAT` vertex formats (lavapipe does not), while every
//!   driver reads `R32G32B32A32_UINT`. So a vertex module's `double`-based inputs are read as
//!   `uvec` inputs of the same bytes and rebuilt in the shader, as Zink does: each GL location
//!   of a `double`/`dvec2` becomes one `uvec2`/`uvec4` input, of a `dvec3`/`dvec4` two inputs
//!   (`uvec4` then `uvec2`/`uvec4`, the two Vulkan locations [`super::wide_inputs`] gave it).
//!   The original variable becomes a `Private` one, stored at the top of the entry point from
//!   the `OpBitcast`s of the new inputs (`uvec2` → `double`, `uvec4` → `dvec2`) composed back
//!   into its vectors, matrices and arrays; every other use of it is untouched.
//! - Its pointer types change storage class with it (`Input` → `Private`): in a vertex module
//!   only these inputs have 64-bit float pointee types.
//! - Before SPIR-V 1.4 an entry point lists only `Input`/`Output` variables, so the demoted
//!   ones leave its interface there; from 1.4 they stay (every global is listed).
//! - The GL layer feeds each new input from the application's `glVertexAttribLPointer` array at
//!   the matching byte offset (0 and 16) with a `R32*_UINT` format.
#![deny(unsafe_code, clippy::unwrap_used, clippy::expect_used)]

use std::collections::HashMap;

use super::rect::{header, opcode, split};
use super::spirv::{decoration as deco, Module, ParseError, StorageClass, Type};

mod op {
    pub const ENTRY_POINT: u16 = 15;
    pub const TYPE_INT: u16 = 21;
    pub const TYPE_FLOAT: u16 = 22;
    pub const TYPE_VECTOR: u16 = 23;
    pub const TYPE_POINTER: u16 = 32;
    pub const FUNCTION: u16 = 54;
    pub const VARIABLE: u16 = 59;
    pub const LOAD: u16 = 61;
    pub const STORE: u16 = 62;
    pub const DECORATE: u16 = 71;
    pub const COMPOSITE_CONSTRUCT: u16 = 80;
    pub const BITCAST: u16 = 124;
    pub const LABEL: u16 = 248;
    pub const LINE: u16 = 8;
    pub const NO_LINE: u16 = 317;
}
const STORAGE_INPUT: u32 = 1;
const STORAGE_PRIVATE: u32 = 6;

/// A double-based input to lower: its variable, pointee type and first (Vulkan) location.
struct Lowered {
    var: u32,
    ty: u32,
    location: u32,
}

/// What the rewrite adds: declarations (types, variables), decorations, entry code.
struct Builder<'m> {
    module: &'m Module,
    bound: u32,
    /// Looked-up or declared: `(opcode, operands)` → id, for the few types this pass needs.
    types: HashMap<(u16, Vec<u32>), u32>,
    declarations: Vec<Vec<u32>>,
    decorations: Vec<Vec<u32>>,
    code: Vec<Vec<u32>>,
    inputs: Vec<u32>,
}

impl Builder<'_> {
    fn fresh(&mut self) -> u32 {
        self.bound += 1;
        self.bound - 1
    }

    /// The id of the type `opcode operands`, declared if the module has none.
    fn ty(&mut self, opcode: u16, operands: &[u32]) -> u32 {
        if let Some(&id) = self.types.get(&(opcode, operands.to_vec())) {
            return id;
        }
        let id = self.fresh();
        let mut inst = vec![header(opcode, operands.len() + 2), id];
        inst.extend_from_slice(operands);
        self.declarations.push(inst);
        self.types.insert((opcode, operands.to_vec()), id);
        id
    }

    fn uvec(&mut self, n: u32) -> u32 {
        let uint = self.ty(op::TYPE_INT, &[32, 0]);
        self.ty(op::TYPE_VECTOR, &[uint, n])
    }

    /// `n` doubles (1 or 2) read from a new `uvec(2n)` input at `location`.
    fn doubles(&mut self, n: u32, location: u32) -> u32 {
        let uvec = self.uvec(2 * n);
        let pointer = self.ty(op::TYPE_POINTER, &[STORAGE_INPUT, uvec]);
        let double = self.ty(op::TYPE_FLOAT, &[64]);
        let result_ty = if n == 1 {
            double
        } else {
            self.ty(op::TYPE_VECTOR, &[double, 2])
        };
        let (var, raw, value) = (self.fresh(), self.fresh(), self.fresh());
        self.declarations
            .push(vec![header(op::VARIABLE, 4), pointer, var, STORAGE_INPUT]);
        self.decorations
            .push(vec![header(op::DECORATE, 4), var, deco::LOCATION, location]);
        self.inputs.push(var);
        self.code.push(vec![header(op::LOAD, 4), uvec, raw, var]);
        self.code
            .push(vec![header(op::BITCAST, 4), result_ty, value, raw]);
        value
    }

    fn construct(&mut self, ty: u32, parts: &[u32]) -> u32 {
        let id = self.fresh();
        let mut inst = vec![header(op::COMPOSITE_CONSTRUCT, parts.len() + 3), ty, id];
        inst.extend_from_slice(parts);
        self.code.push(inst);
        id
    }

    /// The value of type `ty` read from the inputs from `*location` on (advanced past them).
    fn value(&mut self, ty: u32, location: &mut u32) -> Option<u32> {
        match self.module.types.get(&ty)? {
            Type::Float { width: 64 } => {
                *location += 1;
                Some(self.doubles(1, *location - 1))
            }
            Type::Vector { count: 2, .. } => {
                *location += 1;
                Some(self.doubles(2, *location - 1))
            }
            &Type::Vector { count, .. } if count == 3 || count == 4 => {
                let low = self.doubles(2, *location);
                let high = self.doubles(count - 2, *location + 1);
                *location += 2;
                Some(self.construct(ty, &[low, high]))
            }
            &Type::Matrix { column, columns } => {
                let parts = (0..columns)
                    .map(|_| self.value(column, location))
                    .collect::<Option<Vec<_>>>()?;
                Some(self.construct(ty, &parts))
            }
            &Type::Array {
                element,
                length: Some(n),
            } if n <= 64 => {
                let parts = (0..n)
                    .map(|_| self.value(element, location))
                    .collect::<Option<Vec<_>>>()?;
                Some(self.construct(ty, &parts))
            }
            _ => None,
        }
    }
}

/// Whether `ty` is built from 64-bit floats (a vector, matrix or array of them).
fn is_double_based(module: &Module, ty: u32) -> bool {
    match module.types.get(&ty) {
        Some(Type::Float { width: 64 }) => true,
        Some(Type::Vector { component, .. }) => is_double_based(module, *component),
        Some(Type::Matrix { column, .. }) => is_double_based(module, *column),
        Some(Type::Array { element, .. }) => is_double_based(module, *element),
        _ => false,
    }
}

/// The double-based user inputs of a vertex module.
fn double_inputs(module: &Module) -> Vec<Lowered> {
    module
        .variables
        .iter()
        .filter(|v| v.storage == StorageClass::Input)
        .filter(|v| !module.has_decoration(v.id, deco::BUILT_IN))
        .filter_map(|v| {
            let Some(Type::Pointer { pointee, .. }) = module.types.get(&v.pointer_type) else {
                return None;
            };
            Some(Lowered {
                var: v.id,
                ty: *pointee,
                location: module.decoration(v.id, deco::LOCATION)?,
            })
        })
        .filter(|l| is_double_based(module, l.ty))
        .collect()
}

/// The type declarations this pass may reuse, by (opcode, operands).
fn known_types(insts: &[Vec<u32>]) -> HashMap<(u16, Vec<u32>), u32> {
    insts
        .iter()
        .filter(|i| {
            matches!(
                opcode(i),
                op::TYPE_INT | op::TYPE_FLOAT | op::TYPE_VECTOR | op::TYPE_POINTER
            ) && i.len() >= 3
        })
        .map(|i| ((opcode(i), i[2..].to_vec()), i[1]))
        .collect()
}

/// Rewrites a vertex module's double-based inputs to be read through `uvec` inputs (see the
/// module notes). Returns whether the module changed.
pub(crate) fn lower_double_inputs(words: &mut Vec<u32>) -> Result<bool, ParseError> {
    let module = Module::parse(words)?;
    let lowered = double_inputs(&module);
    if lowered.is_empty() {
        return Ok(false);
    }
    let insts = split(words)?;
    let mut b = Builder {
        module: &module,
        bound: words[3],
        types: known_types(&insts),
        declarations: Vec::new(),
        decorations: Vec::new(),
        code: Vec::new(),
        inputs: Vec::new(),
    };
    for l in &lowered {
        let mut location = l.location;
        let Some(value) = b.value(l.ty, &mut location) else {
            return Ok(false); // a shape GLSL cannot declare as an input: left as it is
        };
        b.code.push(vec![header(op::STORE, 3), l.var, value]);
    }
    let lowered_vars: Vec<u32> = lowered.iter().map(|l| l.var).collect();
    let lists_private = words[1] >= 0x0001_0400;
    let entry = insts
        .iter()
        .find(|i| opcode(i) == op::ENTRY_POINT && i.len() >= 3)
        .map(|i| i[2]);
    let mut out: Vec<Vec<u32>> = Vec::with_capacity(insts.len() + b.code.len() + 16);
    let (mut decorations, mut declarations, mut code) =
        (Some(b.decorations), Some(b.declarations), Some(b.code));
    let mut in_entry = false;
    for mut inst in insts {
        let o = opcode(&inst);
        let is_type = (19..=39).contains(&o);
        if is_type {
            out.extend(decorations.take().into_iter().flatten());
        }
        if o == op::FUNCTION {
            out.extend(declarations.take().into_iter().flatten());
            in_entry = Some(inst.get(2).copied()) == Some(entry);
        }
        if in_entry
            && !matches!(
                o,
                op::FUNCTION | op::LABEL | op::VARIABLE | op::LINE | op::NO_LINE
            )
        {
            out.extend(code.take().into_iter().flatten());
        }
        match o {
            op::ENTRY_POINT => {
                if !lists_private {
                    let name_end = 3 + entry_name_words(&inst[3..]);
                    let kept: Vec<u32> = inst[name_end..]
                        .iter()
                        .copied()
                        .filter(|id| !lowered_vars.contains(id))
                        .collect();
                    inst.truncate(name_end);
                    inst.extend(kept);
                }
                inst.extend(&b.inputs);
                inst[0] = header(op::ENTRY_POINT, inst.len());
            }
            op::DECORATE if inst.len() >= 3 && lowered_vars.contains(&inst[1]) => {
                if matches!(inst[2], deco::LOCATION | deco::COMPONENT) {
                    continue;
                }
            }
            op::TYPE_POINTER
                if inst.len() >= 4
                    && inst[2] == STORAGE_INPUT
                    && is_double_based(&module, inst[3]) =>
            {
                inst[2] = STORAGE_PRIVATE;
            }
            op::VARIABLE if inst.len() >= 4 && lowered_vars.contains(&inst[2]) => {
                inst[3] = STORAGE_PRIVATE;
            }
            _ => {}
        }
        out.push(inst);
    }
    if code.is_some() {
        return Ok(false); // no entry point body found: nothing rewritten
    }
    words.truncate(5);
    words[3] = b.bound;
    words.extend(out.into_iter().flatten());
    Ok(true)
}

/// Words of the literal string that starts `ops` (through its NUL).
fn entry_name_words(ops: &[u32]) -> usize {
    ops.iter()
        .position(|w| w.to_le_bytes().contains(&0))
        .map_or(ops.len(), |i| i + 1)
}
