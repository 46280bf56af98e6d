//! GL_ARB_shader_draw_parameters: `gl_BaseVertexARB` and `gl_DrawIDARB` with GL's values.
//!
//! glslang maps the two built-ins to Vulkan's `BaseVertex` and `DrawIndex`, which differ from
//! GL's in two places:
//! - `BaseVertex` is the draw's `firstVertex` in a non-indexed Vulkan draw; GL's is 0 for every
//!   non-indexed draw, and a draw ArenaGL lowers to an index list on the CPU (legacy modes,
//!   client indices, restart) has the GL base vertex folded into its indices.
//! - `DrawIndex` counts within one Vulkan command; GL's `gl_DrawID` counts across the whole
//!   `glMultiDraw*` call, which ArenaGL records as several commands (direct draws, and indirect
//!   batches without `multiDrawIndirect`).
//!
//! [`correct_draw_parameters`] therefore rewrites a vertex module's loads of the two inputs
//! against a small push-constant block, [`DrawParameters`], which the draw pushes before each
//! command of a program that reads them (as Zink does):
//! `gl_DrawIDARB = DrawIndex + draw_id` and
//! `gl_BaseVertexARB = BaseVertex * device_base_vertex + base_vertex`. Every program's pipeline
//! layout carries the push-constant range ([`PUSH_CONSTANT_BYTES`], vertex stage), so layouts
//! stay compatible whatever the program reads; modules that read neither input are unchanged
//! and the draw pushes nothing for them.

use std::borrow::Cow;

use super::num_samples::declaration_point;
use super::rect::{header, opcode, split};
use super::scan::tokens;
use super::spirv::ParseError;
use super::version::{read, Number};
use super::Stage;

/// The extension, whose directive a unit must carry for [`declare`] to act.
pub(crate) const EXTENSION: &str = "GL_ARB_shader_draw_parameters";

/// The three inputs and their SPIR-V `BuiltIn`s.
const BUILTINS: [(&str, u32); 3] = [
    ("gl_BaseVertexARB", BUILT_IN_BASE_VERTEX),
    ("gl_BaseInstanceARB", 4425),
    ("gl_DrawIDARB", BUILT_IN_DRAW_INDEX),
];

/// glslang declares the inputs from GLSL 4.40 on; GLSL 1.30 is the first with `in`.
const DECLARED_FROM: u32 = 440;
const OLDEST: u32 = 130;
/// SPIR-V's `DrawParameters` capability (core in SPIR-V 1.3, both targets).
const CAPABILITY_DRAW_PARAMETERS: u32 = 4427;

/// A vertex unit below GLSL 4.40 that enables the extension and uses its inputs: `source` with
/// them declared through GL_EXT_spirv_intrinsics (as `layer_viewport` declares its built-ins);
/// unchanged otherwise.
pub(crate) fn declare(stage: Stage, source: &str) -> Cow<'_, str> {
    if stage != Stage::Vertex
        || !source.contains(EXTENSION)
        || !BUILTINS.iter().any(|(name, _)| source.contains(name))
    {
        return Cow::Borrowed(source);
    }
    let Some(d) = read(source) else {
        return Cow::Borrowed(source);
    };
    let in_range = matches!(d.number, Number::Value(v) if (OLDEST..DECLARED_FROM).contains(&v));
    if !in_range || d.profile.as_deref() == Some("es") || d.unoffered {
        return Cow::Borrowed(source);
    }
    let t = tokens(source);
    let used = |name: &str| t.iter().any(|k| k.is_word(source, name));
    let Some(first) = t
        .iter()
        .position(|k| BUILTINS.iter().any(|(name, _)| k.is_word(source, name)))
    else {
        return Cow::Borrowed(source);
    };
    let declarations: String = BUILTINS
        .iter()
        .filter(|(name, _)| used(name))
        .map(|(name, builtin)| {
            format!(
                " spirv_decorate(capabilities = [{CAPABILITY_DRAW_PARAMETERS}], 11, {builtin}) in int {name};"
            )
        })
        .collect();
    Cow::Owned(super::layer_viewport::with_declarations(
        source,
        &d.found,
        declaration_point(&t, first),
        &declarations,
    ))
}

mod op {
    pub const ENTRY_POINT: u16 = 15;
    pub const TYPE_INT: u16 = 21;
    pub const TYPE_STRUCT: u16 = 30;
    pub const TYPE_POINTER: u16 = 32;
    pub const CONSTANT: u16 = 43;
    pub const FUNCTION: u16 = 54;
    pub const VARIABLE: u16 = 59;
    pub const LOAD: u16 = 61;
    pub const ACCESS_CHAIN: u16 = 65;
    pub const DECORATE: u16 = 71;
    pub const MEMBER_DECORATE: u16 = 72;
    pub const I_ADD: u16 = 128;
    pub const I_MUL: u16 = 132;
}
const DECORATION_BLOCK: u32 = 2;
const DECORATION_BUILT_IN: u32 = 11;
const DECORATION_OFFSET: u32 = 35;
const BUILT_IN_BASE_VERTEX: u32 = 4424;
const BUILT_IN_DRAW_INDEX: u32 = 4426;
const STORAGE_PUSH_CONSTANT: u32 = 9;

/// What the draw pushes for a program whose vertex stage reads the draw parameters.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[repr(C)]
pub struct DrawParameters {
    /// Added to `DrawIndex`: the GL draw index of the command's first draw.
    pub draw_id: i32,
    /// 1 where the device's `BaseVertex` is GL's (an indexed command from the element buffer
    /// or an indirect buffer), else 0.
    pub device_base_vertex: i32,
    /// Added to that: GL's base vertex where the device's is not used.
    pub base_vertex: i32,
}

impl DrawParameters {
    /// The bytes `vkCmdPushConstants` takes.
    pub fn bytes(&self) -> [u8; PUSH_CONSTANT_BYTES as usize] {
        let mut out = [0u8; PUSH_CONSTANT_BYTES as usize];
        for (at, v) in [self.draw_id, self.device_base_vertex, self.base_vertex]
            .into_iter()
            .enumerate()
        {
            out[4 * at..4 * at + 4].copy_from_slice(&v.to_ne_bytes());
        }
        out
    }
}

/// The size of the push-constant block (vertex stage, offset 0) of every program's layout.
pub const PUSH_CONSTANT_BYTES: u32 = 12;

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

/// Whether a program of these stages reads [`DrawParameters`] (its vertex module was rewritten
/// by [`correct_draw_parameters`]): its draws push them.
pub(crate) fn pushed<'a>(mut stages: impl Iterator<Item = (Stage, &'a [u32])>) -> bool {
    stages.any(|(stage, words)| stage == Stage::Vertex && reads_push_constants(words))
}

/// Whether a module has a push-constant variable.
fn reads_push_constants(words: &[u32]) -> bool {
    split(words).is_ok_and(|insts| {
        insts
            .iter()
            .any(|i| opcode(i) == op::VARIABLE && i.len() >= 4 && i[3] == STORAGE_PUSH_CONSTANT)
    })
}

/// The ids the rewrite declares or finds.
struct Ids {
    bound: u32,
    /// Types, constants and the variable, for the front of the first function.
    declare: Vec<Vec<u32>>,
}

impl Ids {
    fn fresh(&mut self) -> u32 {
        self.bound += 1;
        self.bound - 1
    }

    /// The non-aggregate type `code operands…` of `insts` (SPIR-V allows one of each),
    /// declared when the module has none.
    fn ty(&mut self, insts: &[Vec<u32>], code: u16, operands: &[u32]) -> u32 {
        let found = insts
            .iter()
            .chain(&self.declare)
            .find(|i| opcode(i) == code && i.len() == 2 + operands.len() && i[2..] == *operands);
        if let Some(i) = found {
            return i[1];
        }
        let id = self.fresh();
        let mut inst = vec![header(code, 2 + operands.len()), id];
        inst.extend_from_slice(operands);
        self.declare.push(inst);
        id
    }

    /// A new `OpConstant int value`.
    fn constant(&mut self, int: u32, value: u32) -> u32 {
        let id = self.fresh();
        self.declare
            .push(vec![header(op::CONSTANT, 4), int, id, value]);
        id
    }
}

/// Rewrites a vertex module's `BaseVertex` and `DrawIndex` loads (see the module docs).
/// Returns whether the module changed (it reads neither: unchanged).
pub(crate) fn correct_draw_parameters(words: &mut Vec<u32>) -> Result<bool, ParseError> {
    let insts = split(words)?;
    let base_vertex = builtin_variable(&insts, BUILT_IN_BASE_VERTEX);
    let draw_index = builtin_variable(&insts, BUILT_IN_DRAW_INDEX);
    if base_vertex.is_none() && draw_index.is_none() {
        return Ok(false);
    }
    let mut ids = Ids {
        bound: words[3],
        declare: Vec::new(),
    };
    let int = ids.ty(&insts, op::TYPE_INT, &[32, 1]);
    let block = ids.fresh();
    ids.declare
        .push(vec![header(op::TYPE_STRUCT, 5), block, int, int, int]);
    let block_ptr = ids.ty(&insts, op::TYPE_POINTER, &[STORAGE_PUSH_CONSTANT, block]);
    let int_ptr = ids.ty(&insts, op::TYPE_POINTER, &[STORAGE_PUSH_CONSTANT, int]);
    let members: Vec<u32> = (0..3).map(|m| ids.constant(int, m)).collect();
    let block_var = ids.fresh();
    ids.declare.push(vec![
        header(op::VARIABLE, 4),
        block_ptr,
        block_var,
        STORAGE_PUSH_CONSTANT,
    ]);
    let mut decorations = vec![vec![header(op::DECORATE, 3), block, DECORATION_BLOCK]];
    for m in 0..3 {
        decorations.push(vec![
            header(op::MEMBER_DECORATE, 5),
            block,
            m,
            DECORATION_OFFSET,
            4 * m,
        ]);
    }
    // SPIR-V 1.4 on lists every global the entry point uses; 1.3 only its inputs and outputs.
    let list_globals = words[1] >= 0x0001_0400;
    let mut out: Vec<Vec<u32>> = Vec::with_capacity(insts.len() + 16);
    let mut declared = false;
    for inst in insts {
        let code = opcode(&inst);
        let is_load = |var: Option<u32>| {
            code == op::LOAD && inst.len() >= 4 && Some(inst[3]) == var && inst[1] == int
        };
        if code == op::ENTRY_POINT && list_globals {
            let mut e = inst;
            e.push(block_var);
            e[0] = header(op::ENTRY_POINT, e.len());
            out.push(e);
        } else if code == op::DECORATE && !decorations.is_empty() {
            out.push(inst);
            out.append(&mut decorations);
        } else if code == op::FUNCTION && !declared {
            out.append(&mut ids.declare);
            out.push(inst);
            declared = true;
        } else if is_load(draw_index) || is_load(base_vertex) {
            let (result, loaded) = (inst[2], ids.fresh());
            let reads = |ids: &mut Ids, out: &mut Vec<Vec<u32>>, member: usize| {
                let (ptr, value) = (ids.fresh(), ids.fresh());
                out.push(vec![
                    header(op::ACCESS_CHAIN, 5),
                    int_ptr,
                    ptr,
                    block_var,
                    members[member],
                ]);
                out.push(vec![header(op::LOAD, 4), int, value, ptr]);
                value
            };
            out.push(vec![header(op::LOAD, 4), int, loaded, inst[3]]);
            if is_load(draw_index) {
                let first = reads(&mut ids, &mut out, 0);
                out.push(vec![header(op::I_ADD, 5), int, result, loaded, first]);
            } else {
                let device = reads(&mut ids, &mut out, 1);
                let base = reads(&mut ids, &mut out, 2);
                let scaled = ids.fresh();
                out.push(vec![header(op::I_MUL, 5), int, scaled, loaded, device]);
                out.push(vec![header(op::I_ADD, 5), int, result, scaled, base]);
            }
        } else {
            out.push(inst);
        }
    }
    words.truncate(5);
    words[3] = ids.bound;
    words.extend(out.into_iter().flatten());
    Ok(true)
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use crate::glsl::spirv_testing::{assert_valid, count};
    use crate::glsl::{compile_program, CompileOptions, Stage};

    const FS: &str = "#version 150\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n";

    fn vertex(vs: &str) -> Vec<u32> {
        let program = compile_program(
            &[(Stage::Vertex, vs), (Stage::Fragment, FS)],
            CompileOptions::default(),
        )
        .expect("links");
        program.stage(Stage::Vertex).expect("vertex").spirv.clone()
    }

    #[test]
    fn both_inputs_read_the_pushed_block() {
        let mut words = vertex(
            "#version 150\n#extension GL_ARB_shader_draw_parameters : require\nin vec4 p;\nflat out int v;\nvoid main() {\n    gl_Position = p;\n    v = gl_DrawIDARB + gl_BaseVertexARB * 3 + gl_BaseInstanceARB + gl_DrawIDARB;\n}\n",
        );
        let before = |w: &[u32], code| count(w, code);
        let (adds, muls) = (before(&words, op::I_ADD), before(&words, op::I_MUL));
        let chains = before(&words, op::ACCESS_CHAIN);
        assert!(!reads_push_constants(&words));
        assert!(correct_draw_parameters(&mut words).expect("rewrites"));
        assert_valid(&words);
        assert!(reads_push_constants(&words));
        // Two DrawIndex loads and one BaseVertex load.
        assert_eq!(count(&words, op::I_ADD), adds + 3);
        assert_eq!(count(&words, op::I_MUL), muls + 1);
        assert_eq!(count(&words, op::ACCESS_CHAIN), chains + 4);
    }

    #[test]
    fn glslang_declares_them_from_glsl_440() {
        let mut words = vertex(
            "#version 450\n#extension GL_ARB_shader_draw_parameters : require\nin vec4 p;\nflat out int v;\nvoid main() {\n    gl_Position = p;\n    v = gl_DrawIDARB + gl_BaseVertexARB;\n}\n",
        );
        assert!(correct_draw_parameters(&mut words).expect("rewrites"));
        assert_valid(&words);
    }

    #[test]
    fn older_units_declare_only_with_the_directive() {
        let vs =
            "#version 140\nin vec4 p;\nvoid main() { gl_Position = p * float(gl_DrawIDARB); }\n";
        assert_eq!(declare(Stage::Vertex, vs), vs);
        let enabled = vs.replacen(
            "\n",
            "\n#extension GL_ARB_shader_draw_parameters : enable\n",
            1,
        );
        let declared = declare(Stage::Vertex, &enabled);
        assert!(
            declared.contains("4426) in int gl_DrawIDARB;"),
            "{declared}"
        );
        assert_eq!(declare(Stage::Fragment, &enabled), enabled);
    }

    #[test]
    fn modules_without_them_are_unchanged() {
        let mut words = vertex(
            "#version 150\nin vec4 p;\nvoid main() { gl_Position = p * float(gl_VertexID); }\n",
        );
        let before = words.clone();
        assert!(!correct_draw_parameters(&mut words).expect("parses"));
        assert_eq!(words, before);
    }
}
