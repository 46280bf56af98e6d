//! GL's clip-space depth remapped to Vulkan's in a geometry stage's SPIR-V.
//!
//! GL clips depth to [-w, w] and maps it to the depth range from there; Vulkan clips to [0, w].
//! The last stage before rasterisation therefore writes `z' = (z + w) / 2` into `gl_Position`.
//! The vertex and tessellation evaluation stages do that in a GLSL wrapper around their `main`
//! (`program::link`); a geometry stage has no single place to write it, since every
//! `EmitVertex()` sends a vertex, and a source macro would collide with transform feedback's own
//! `EmitVertex` rewrite (`xfb`). [`remap_emitted_depth`] instead inserts the remap into the
//! SPIR-V in front of every `OpEmitVertex` and `OpEmitStreamVertex`, after anything the shader
//! (or the capture copies) did with the GL value.
//! A GL SPIR-V module (GL_ARB_gl_spirv, `gl_spirv`) has no GLSL to wrap: its vertex or
//! evaluation stage gets the same remap before every return of its entry point
//! ([`remap_returned_depth`]).
//!
//! The remap is skipped at run time under `glClipControl(…, GL_ZERO_TO_ONE)`, whose depth is
//! Vulkan's already: every remapping stage reads the boolean specialization constant
//! [`ZERO_TO_ONE_CONSTANT`] (false by default), which `vk::pipeline` sets per pipeline.

use super::rect::{header, opcode, split};
use super::spirv::ParseError;

/// The specialization constant id of "GL_ZERO_TO_ONE: leave depth alone" in every stage that
/// remaps depth (this pass, and the vertex and evaluation wrappers of `program::link`).
pub const ZERO_TO_ONE_CONSTANT: u32 = 7347;

/// The GLSL the vertex and evaluation wrappers declare and run: the constant, and the remap
/// statement (for a `main` that has just run the application's).
pub const GLSL_DECLARATION: &str =
    "layout(constant_id = 7347) const bool arenagl_depth_zero_to_one = false;\n";
/// See [`GLSL_DECLARATION`].
pub const GLSL_REMAP: &str = "    if (!arenagl_depth_zero_to_one) {\n        gl_Position.z = (gl_Position.z + gl_Position.w) * 0.5;\n    }\n";

mod op {
    pub const DECORATE: u16 = 71;
    pub const MEMBER_DECORATE: u16 = 72;
    pub const TYPE_BOOL: u16 = 20;
    pub const TYPE_INT: u16 = 21;
    pub const TYPE_FLOAT: u16 = 22;
    pub const TYPE_VECTOR: u16 = 23;
    pub const TYPE_POINTER: u16 = 32;
    pub const SPEC_CONSTANT_FALSE: u16 = 49;
    pub const CONSTANT: u16 = 43;
    pub const FUNCTION: u16 = 54;
    pub const VARIABLE: u16 = 59;
    pub const LOAD: u16 = 61;
    pub const STORE: u16 = 62;
    pub const ACCESS_CHAIN: u16 = 65;
    pub const COMPOSITE_EXTRACT: u16 = 81;
    pub const COMPOSITE_INSERT: u16 = 82;
    pub const F_ADD: u16 = 129;
    pub const F_MUL: u16 = 133;
    pub const SELECT: u16 = 169;
    pub const EMIT_VERTEX: u16 = 218;
    pub const EMIT_STREAM_VERTEX: u16 = 220;
    pub const RETURN: u16 = 253;
}
const DECORATION_SPEC_ID: u32 = 1;
const DECORATION_BUILT_IN: u32 = 11;
const BUILT_IN_POSITION: u32 = 0;
const STORAGE_OUTPUT: u32 = 3;

/// Where the stage's `gl_Position` output is: a variable of its own, or a member of the
/// `gl_PerVertex` output block variable.
#[derive(Clone, Copy)]
enum Position {
    Variable(u32),
    Member { block: u32, member: u32 },
}

/// The stage's `gl_Position` output, if it has one.
fn position_output(insts: &[Vec<u32>]) -> Option<Position> {
    let is_position = |i: &&Vec<u32>, code: u16, at: usize| {
        opcode(i) == code
            && i.len() > at + 1
            && i[at] == DECORATION_BUILT_IN
            && i[at + 1] == BUILT_IN_POSITION
    };
    let pointee = |ptr: u32| {
        insts.iter().find_map(|i| {
            (opcode(i) == op::TYPE_POINTER && i.len() == 4 && i[1] == ptr && i[2] == STORAGE_OUTPUT)
                .then(|| i[3])
        })
    };
    let outputs = insts
        .iter()
        .filter(|i| opcode(i) == op::VARIABLE && i.len() >= 4 && i[3] == STORAGE_OUTPUT);
    for var in outputs {
        let (ptr, id) = (var[1], var[2]);
        if insts
            .iter()
            .any(|i| is_position(&i, op::DECORATE, 2) && i[1] == id)
        {
            return Some(Position::Variable(id));
        }
        let Some(ty) = pointee(ptr) else { continue };
        if let Some(d) = insts
            .iter()
            .find(|i| is_position(i, op::MEMBER_DECORATE, 3) && i[1] == ty)
        {
            return Some(Position::Member {
                block: id,
                member: d[2],
            });
        }
    }
    None
}

/// The ids the remap uses: found in the module, or declared in front of its first function.
struct Ids {
    bound: u32,
    declare: Vec<Vec<u32>>,
}

impl Ids {
    fn fresh(&mut self) -> u32 {
        self.bound += 1;
        self.bound - 1
    }

    /// The type `code operands…` of `insts`, declared when the module has none.
    fn ty(&mut self, insts: &[Vec<u32>], code: u16, operands: &[u32]) -> u32 {
        let declared = self.declare.iter().map(Vec::as_slice);
        let found =
            insts.iter().map(Vec::as_slice).chain(declared).find(|i| {
                opcode(i) == code && i.len() == 2 + operands.len() && i[2..] == *operands
            });
        if let Some(i) = found {
            return i[1];
        }
        let id = self.fresh();
        let mut inst = vec![header(code, 2 + operands.len()), id];
        inst.extend_from_slice(operands);
        self.declare.push(inst);
        id
    }

    /// A new constant of `ty` with the bits `value`.
    fn constant(&mut self, ty: u32, value: u32) -> u32 {
        let id = self.fresh();
        self.declare
            .push(vec![header(op::CONSTANT, 4), ty, id, value]);
        id
    }
}

/// The ids of the code inserted before each emit.
struct Remap {
    position: Position,
    float: u32,
    vec4: u32,
    out_vec4: u32,
    member: u32,
    half: u32,
    zero_to_one: u32,
}

impl Remap {
    /// `z = zero_to_one ? z : (z + w) * 0.5` on the output `gl_Position`.
    fn code(&self, ids: &mut Ids) -> Vec<Vec<u32>> {
        let mut out = Vec::with_capacity(9);
        let pointer = match self.position {
            Position::Variable(var) => var,
            Position::Member { block, .. } => {
                let p = ids.fresh();
                out.push(vec![
                    header(op::ACCESS_CHAIN, 5),
                    self.out_vec4,
                    p,
                    block,
                    self.member,
                ]);
                p
            }
        };
        let [v, z, w, sum, half, chosen, new] = std::array::from_fn(|_| ids.fresh());
        let f = self.float;
        out.extend([
            vec![header(op::LOAD, 4), self.vec4, v, pointer],
            vec![header(op::COMPOSITE_EXTRACT, 5), f, z, v, 2],
            vec![header(op::COMPOSITE_EXTRACT, 5), f, w, v, 3],
            vec![header(op::F_ADD, 5), f, sum, z, w],
            vec![header(op::F_MUL, 5), f, half, sum, self.half],
            vec![header(op::SELECT, 6), f, chosen, self.zero_to_one, z, half],
            vec![
                header(op::COMPOSITE_INSERT, 6),
                self.vec4,
                new,
                chosen,
                v,
                2,
            ],
            vec![header(op::STORE, 3), pointer, new],
        ]);
        out
    }
}

/// Inserts GL's depth remap (see the module docs) in front of every vertex a geometry module
/// emits. Returns whether the module changed: unchanged without an emit, without a
/// `gl_Position` output, or when it already reads [`ZERO_TO_ONE_CONSTANT`] (remapped before).
pub(crate) fn remap_emitted_depth(words: &mut Vec<u32>) -> Result<bool, ParseError> {
    remap_before(words, |_, i| {
        matches!(opcode(i), op::EMIT_VERTEX | op::EMIT_STREAM_VERTEX)
    })
}

/// [`remap_emitted_depth`] for a vertex or evaluation stage that has no GLSL wrapper (a GL
/// SPIR-V module, `gl_spirv`): the remap runs before every return of the entry point function
/// `entry`.
pub(crate) fn remap_returned_depth(words: &mut Vec<u32>, entry: u32) -> Result<bool, ParseError> {
    remap_before(words, |function, i| {
        function == entry && opcode(i) == op::RETURN
    })
}

/// Inserts the remap in front of every instruction `site(function, instruction)` picks.
fn remap_before(
    words: &mut Vec<u32>,
    site: impl Fn(u32, &[u32]) -> bool,
) -> Result<bool, ParseError> {
    let insts = split(words)?;
    let mut function = 0;
    let mut in_function = |i: &Vec<u32>| {
        if opcode(i) == op::FUNCTION && i.len() >= 3 {
            function = i[2];
        }
        function
    };
    let sites: Vec<bool> = insts.iter().map(|i| site(in_function(i), i)).collect();
    let remapped = insts.iter().any(|i| {
        opcode(i) == op::DECORATE
            && i.get(2..4) == Some(&[DECORATION_SPEC_ID, ZERO_TO_ONE_CONSTANT])
    });
    let Some(position) = position_output(&insts) else {
        return Ok(false);
    };
    if remapped || !sites.contains(&true) {
        return Ok(false);
    }
    let mut ids = Ids {
        bound: words[3],
        declare: Vec::new(),
    };
    let float = ids.ty(&insts, op::TYPE_FLOAT, &[32]);
    let vec4 = ids.ty(&insts, op::TYPE_VECTOR, &[float, 4]);
    let out_vec4 = ids.ty(&insts, op::TYPE_POINTER, &[STORAGE_OUTPUT, vec4]);
    let int = ids.ty(&insts, op::TYPE_INT, &[32, 1]);
    let boolean = ids.ty(&insts, op::TYPE_BOOL, &[]);
    let member = match position {
        Position::Member { member, .. } => ids.constant(int, member),
        Position::Variable(_) => 0,
    };
    let half = ids.constant(float, 0.5f32.to_bits());
    let zero_to_one = ids.fresh();
    ids.declare.push(vec![
        header(op::SPEC_CONSTANT_FALSE, 3),
        boolean,
        zero_to_one,
    ]);
    let remap = Remap {
        position,
        float,
        vec4,
        out_vec4,
        member,
        half,
        zero_to_one,
    };
    let spec_id = vec![
        header(op::DECORATE, 4),
        zero_to_one,
        DECORATION_SPEC_ID,
        ZERO_TO_ONE_CONSTANT,
    ];
    let mut out: Vec<Vec<u32>> = Vec::with_capacity(insts.len() + 16);
    let (mut decorated, mut declared) = (false, false);
    for (inst, at_site) in insts.into_iter().zip(sites) {
        let code = opcode(&inst);
        if !decorated && matches!(code, op::DECORATE | op::MEMBER_DECORATE) {
            out.push(spec_id.clone());
            decorated = true;
        }
        if !declared && code == op::FUNCTION {
            out.append(&mut ids.declare);
            declared = true;
        }
        if at_site {
            out.extend(remap.code(&mut ids));
        }
        out.push(inst);
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

    const VS: &str = "#version 150\nin vec4 p;\nvoid main() { gl_Position = p; }\n";
    const FS: &str = "#version 150\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n";

    fn geometry(gs: &str) -> Vec<u32> {
        let program = compile_program(
            &[
                (Stage::Vertex, VS),
                (Stage::Geometry, gs),
                (Stage::Fragment, FS),
            ],
            CompileOptions::default(),
        )
        .expect("links");
        program
            .stage(Stage::Geometry)
            .expect("geometry")
            .spirv
            .clone()
    }

    #[test]
    fn every_emit_gets_the_remap() {
        let mut words = geometry(
            "#version 150\nlayout(triangles) in;\nlayout(triangle_strip, max_vertices = 6) out;\nvoid emit(int i) { gl_Position = gl_in[i].gl_Position; EmitVertex(); }\nvoid main() {\n    for (int i = 0; i < 3; i++) emit(i);\n    EndPrimitive();\n    gl_Position = vec4(0.0); EmitVertex();\n}\n",
        );
        let selects = count(&words, op::SELECT);
        assert!(remap_emitted_depth(&mut words).expect("remaps"));
        assert_valid(&words);
        assert_eq!(count(&words, op::SELECT), selects + 2);
        assert_eq!(count(&words, op::SPEC_CONSTANT_FALSE), 1);
        // Once only.
        assert!(!remap_emitted_depth(&mut words).expect("parses"));
    }

    #[test]
    fn stream_emits_get_the_remap() {
        let mut words = geometry(
            "#version 150\n#extension GL_ARB_gpu_shader5 : require\nlayout(points) in;\nlayout(points, max_vertices = 2) out;\nlayout(stream = 1) out float x;\nvoid main() {\n    gl_Position = gl_in[0].gl_Position; EmitStreamVertex(0);\n    x = 1.0; EmitStreamVertex(1);\n}\n",
        );
        assert!(remap_emitted_depth(&mut words).expect("remaps"));
        assert_valid(&words);
        assert_eq!(count(&words, op::SPEC_CONSTANT_FALSE), 1);
    }

    #[test]
    fn a_module_without_emits_is_left_alone() {
        let mut words = geometry(
            "#version 150\nlayout(points) in;\nlayout(points, max_vertices = 1) out;\nvoid main() { gl_Position = vec4(0.0); }\n",
        );
        let before = words.clone();
        assert!(!remap_emitted_depth(&mut words).expect("parses"));
        assert_eq!(words, before);
    }
}
