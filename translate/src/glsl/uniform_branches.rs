//! Finds branches of a SPIR-V module whose condition depends on uniform values and constants
//! alone (`if (u.x > 0.0)`, a loop `for (i = 0; i < u.n; i++)`).
//!
//! Why: lavapipe (Mesa 22.x) specializes such a shader on the uniforms' current values and
//! recompiles it with LLVM every time its uniform buffers or push constants are rebound — in
//! GL terms on nearly every draw — and keeps no variant. One such branch in the fixed-function
//! lighting program made glxgears spend 80 % of its time in LLVM at 1–3 FPS (#20). The
//! programs ArenaGL generates must have none (tests assert it through
//! `gl::vk::pipeline::build_counts`); a user program with some is logged at debug level.
//!
//! Design decisions:
//! - A forward data-flow pass over the module's instructions classifies every value as
//!   constant (literals and specialization constants), uniform (loaded from a `Uniform` or
//!   `PushConstant` variable, or computed from uniforms and constants only) or varying
//!   (anything else), repeated until nothing changes, so values carried through function-local
//!   variables and loop phis are followed.
//! - Conservative where it cannot tell: function parameters and results, image reads, and every
//!   other instruction of a function body not listed as pure arithmetic are varying, so a branch is reported only when
//!   it really depends on uniforms alone.

use std::collections::HashMap;

/// What a value depends on, ordered: the join of two classes is the larger.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Class {
    Constant,
    Uniform,
    Varying,
}

const OP_EXT_INST: u32 = 12;
const OP_FUNCTION: u32 = 54;
const OP_VARIABLE: u32 = 59;
const OP_LOAD: u32 = 61;
const OP_STORE: u32 = 62;
const OP_ACCESS_CHAIN: u32 = 65;
const OP_IN_BOUNDS_ACCESS_CHAIN: u32 = 66;
const OP_VECTOR_SHUFFLE: u32 = 79;
const OP_COMPOSITE_EXTRACT: u32 = 81;
const OP_COMPOSITE_INSERT: u32 = 82;
const OP_BRANCH_CONDITIONAL: u32 = 250;
const OP_SWITCH: u32 = 251;
/// Storage classes whose variables hold uniform values.
const SC_UNIFORM: u32 = 2;
const SC_PUSH_CONSTANT: u32 = 9;
/// Storage classes of variables whose contents the pass follows through stores.
const SC_PRIVATE: u32 = 6;
const SC_FUNCTION: u32 = 7;

/// Constants and specialization constants (`OpConstantTrue` … `OpConstantNull`,
/// `OpSpecConstantTrue` … `OpSpecConstantOp`).
fn is_constant(op: u32) -> bool {
    matches!(op, 41..=46 | 48..=52)
}

/// Pure operations whose result depends on their operands only: the id operands of each
/// (after the result type and id), or None for an instruction the pass does not follow.
fn pure_operands(op: u32, words: &[u32]) -> Option<&[u32]> {
    let rest = words.get(3..)?;
    match op {
        // Set and instruction number first (GLSL.std.450's functions are all pure).
        OP_EXT_INST => rest.get(2..),
        // Two vectors, then literal components.
        OP_VECTOR_SHUFFLE => rest.get(..2),
        // Composite, then literal indices.
        OP_COMPOSITE_EXTRACT => rest.get(..1),
        // Object and composite, then literal indices.
        OP_COMPOSITE_INSERT => rest.get(..2),
        // OpVectorExtractDynamic … OpTranspose (construct, copy), conversions, arithmetic,
        // OpAny … OpIsInf, logic and comparisons (with OpSelect), bit operations, OpPhi.
        77
        | 78
        | 80
        | 83
        | 84
        | 109..=124
        | 126..=152
        | 154..=157
        | 164..=191
        | 194..=205
        | 245 => Some(rest),
        _ => None,
    }
}

/// The branches (`OpBranchConditional`, `OpSwitch`) of `spirv` whose condition is computed
/// from uniform values and constants only, and at least one uniform.
pub fn uniform_branches(spirv: &[u32]) -> usize {
    let mut flow = Flow::default();
    // Each round can only raise classes, so this ends; rounds past a few are a safety net.
    for _ in 0..16 {
        if !flow.round(spirv) {
            break;
        }
    }
    instructions(spirv)
        .filter(|(op, w)| match *op {
            OP_BRANCH_CONDITIONAL | OP_SWITCH => {
                w.get(1).map(|c| flow.class(*c)) == Some(Class::Uniform)
            }
            _ => false,
        })
        .count()
}

/// Each instruction of `spirv` after the header: its opcode and its words (the first
/// included). Stops at a malformed word count.
fn instructions(spirv: &[u32]) -> impl Iterator<Item = (u32, &[u32])> {
    let mut at = 5;
    std::iter::from_fn(move || {
        let first = *spirv.get(at)?;
        let len = (first >> 16) as usize;
        let words = spirv.get(at..at + len).filter(|_| len > 0)?;
        at += len;
        Some((first & 0xFFFF, words))
    })
}

#[derive(Default)]
struct Flow {
    /// Every classified value.
    values: HashMap<u32, Class>,
    /// Pointers into variables: the variable (followed through access chains).
    roots: HashMap<u32, u32>,
    /// Variables: their storage class.
    storage: HashMap<u32, u32>,
    /// Function-local and private variables: the join of everything stored into them.
    contents: HashMap<u32, Class>,
}

impl Flow {
    /// A value's class; ids that are not values (types, labels) count as constants.
    fn class(&self, id: u32) -> Class {
        self.values.get(&id).copied().unwrap_or(Class::Constant)
    }

    fn join(&self, ids: &[u32]) -> Class {
        ids.iter()
            .map(|&id| self.class(id))
            .max()
            .unwrap_or(Class::Constant)
    }

    /// Raises `id` to at least `class`; true when it changed.
    fn raise(map: &mut HashMap<u32, Class>, id: u32, class: Class) -> bool {
        let slot = map.entry(id).or_insert(Class::Constant);
        let changed = class > *slot;
        *slot = (*slot).max(class);
        changed
    }

    /// What a load through `pointer` reads.
    fn load(&self, pointer: u32) -> Class {
        let Some(&var) = self.roots.get(&pointer) else {
            return Class::Varying;
        };
        match self.storage.get(&var) {
            Some(&(SC_UNIFORM | SC_PUSH_CONSTANT)) => Class::Uniform,
            Some(&(SC_PRIVATE | SC_FUNCTION)) => {
                self.contents.get(&var).copied().unwrap_or(Class::Constant)
            }
            _ => Class::Varying,
        }
    }

    /// One pass over the module; true when any class rose.
    fn round(&mut self, spirv: &[u32]) -> bool {
        let mut changed = false;
        let mut in_function = false;
        for (op, w) in instructions(spirv) {
            in_function |= op == OP_FUNCTION;
            let class = match op {
                OP_VARIABLE => {
                    if let (Some(&var), Some(&sc)) = (w.get(2), w.get(3)) {
                        self.storage.insert(var, sc);
                        self.roots.insert(var, var);
                    }
                    continue;
                }
                OP_ACCESS_CHAIN | OP_IN_BOUNDS_ACCESS_CHAIN => {
                    if let (Some(&ptr), Some(&base)) = (w.get(2), w.get(3)) {
                        if let Some(&var) = self.roots.get(&base) {
                            self.roots.insert(ptr, var);
                        }
                    }
                    continue;
                }
                OP_STORE => {
                    if let (Some(ptr), Some(value)) = (w.get(1), w.get(2)) {
                        if let Some(&var) = self.roots.get(ptr) {
                            let class = self.class(*value);
                            changed |= Self::raise(&mut self.contents, var, class);
                        }
                    }
                    continue;
                }
                OP_LOAD => w.get(3).map_or(Class::Varying, |&p| self.load(p)),
                op if is_constant(op) => Class::Constant,
                op => match pure_operands(op, w) {
                    Some(ids) => self.join(ids),
                    // Any other result of a function body (parameters, calls, image reads) is
                    // varying; outside functions only constants and variables are values.
                    None if in_function && has_result(op) => Class::Varying,
                    None => continue,
                },
            };
            if let Some(&id) = w.get(2) {
                changed |= Self::raise(&mut self.values, id, class);
            }
        }
        changed
    }
}

/// Whether an instruction of a function body (other than the ones `Flow::round` handles
/// first) has a result type and id, in its words 1 and 2: every one but the control flow,
/// stores, barriers and the like.
fn has_result(op: u32) -> bool {
    !matches!(
        op,
        8 | 56 | 63 | 64 | 99 | 218..=221 | 224 | 225 | 228 | 246..=257 | 317 | 4416 | 5380
    )
}

#[cfg(test)]
pub(crate) mod tests {
    use super::uniform_branches;
    use crate::glsl::Stage;

    /// The uniform branches of vertex shader `vs` (linked with a trivial fragment shader).
    pub(crate) fn count(vs: &str) -> usize {
        let fs = "#version 450\nlayout(location = 0) out vec4 c;\nvoid main() { c = vec4(1.0); }\n";
        let program = crate::glsl::compile_program(
            &[(Stage::Vertex, vs), (Stage::Fragment, fs)],
            crate::glsl::CompileOptions::default(),
        )
        .unwrap_or_else(|e| panic!("{e:?}"));
        let vertex = program.stage(Stage::Vertex).expect("a vertex stage");
        uniform_branches(&vertex.spirv)
    }

    #[test]
    fn a_branch_on_a_uniform_is_found() {
        let vs = "#version 450\nlayout(binding = 0) uniform U { vec4 a; int n; } u;\nlayout(location = 0) in vec4 p;\nvoid main() {\n    vec4 k = u.a;\n    gl_Position = p;\n    if (k.w > -1.5) { gl_Position *= 2.0; }\n}\n";
        assert_eq!(count(vs), 1);
        let looped = "#version 450\nlayout(binding = 0) uniform U { vec4 a; int n; } u;\nlayout(location = 0) in vec4 p;\nvoid main() {\n    gl_Position = p;\n    for (int i = 0; i < u.n; i++) { gl_Position.x += 1.0; }\n}\n";
        assert_eq!(count(looped), 1, "the loop's condition");
    }

    #[test]
    fn branches_on_inputs_and_selects_on_uniforms_are_not() {
        let vs = "#version 450\nlayout(binding = 0) uniform U { vec4 a; } u;\nlayout(location = 0) in vec4 p;\nvoid main() {\n    gl_Position = p;\n    if (p.x + u.a.x > 0.0) { gl_Position *= 2.0; }\n    float s = u.a.w > -1.5 ? 2.0 : 1.0;\n    gl_Position.y *= s;\n}\n";
        assert_eq!(count(vs), 0);
    }
}
