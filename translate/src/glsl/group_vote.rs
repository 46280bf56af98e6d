//! GL_ARB_shader_group_vote: `anyInvocationARB`, `allInvocationsARB`,
//! `allInvocationsEqualARB`.
//!
//! glslang compiles them to `SPV_KHR_subgroup_vote`'s `OpSubgroupAnyKHR`, `OpSubgroupAllKHR`
//! and `OpSubgroupAllEqualKHR`, which need `VK_EXT_shader_subgroup_vote` (lavapipe lacks it;
//! glslang declares the functions from GLSL 4.30, so older units are raised, `raise`).
//! [`lower`] rewrites them per stage:
//! - where the device's subgroups vote in the stage (Vulkan 1.1 `VOTE` in
//!   `supportedOperations` and the stage in `supportedStages`), into the core
//!   `OpGroupNonUniformAny/All/AllEqual` over the `Subgroup` scope;
//! - elsewhere, into the vote of a group of one invocation: `any` and `all` are the value
//!   itself, `allEqual` is true. The extension leaves the set of invocations voting together to
//!   the implementation ("implementation-dependent, and this extension provides no guarantee
//!   over how individual shader invocations are assigned to such sets"), so one invocation per
//!   set is a valid assignment.

use super::rect::{header, opcode, split};
use super::spirv::ParseError;

mod op {
    pub const EXTENSION: u16 = 10;
    pub const CAPABILITY: u16 = 17;
    pub const TYPE_INT: u16 = 21;
    pub const CONSTANT: u16 = 43;
    pub const FUNCTION: u16 = 54;
    pub const COPY_OBJECT: u16 = 83;
    pub const LOGICAL_EQUAL: u16 = 164;
    pub const GROUP_NON_UNIFORM_ALL: u16 = 334;
    pub const GROUP_NON_UNIFORM_ANY: u16 = 335;
    pub const GROUP_NON_UNIFORM_ALL_EQUAL: u16 = 336;
    pub const SUBGROUP_ALL_KHR: u16 = 4428;
    pub const SUBGROUP_ANY_KHR: u16 = 4429;
    pub const SUBGROUP_ALL_EQUAL_KHR: u16 = 4430;
}
const CAPABILITY_GROUP_NON_UNIFORM: u32 = 61;
const CAPABILITY_GROUP_NON_UNIFORM_VOTE: u32 = 62;
const CAPABILITY_SUBGROUP_VOTE_KHR: u32 = 4431;
const SCOPE_SUBGROUP: u32 = 3;

/// The words of a literal string operand (NUL-terminated, padded to a word).
fn literal(name: &str) -> Vec<u32> {
    let mut bytes = name.as_bytes().to_vec();
    bytes.push(0);
    bytes.resize(bytes.len().div_ceil(4) * 4, 0);
    bytes
        .chunks(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// Rewrites a module's subgroup votes (see the module docs): onto the core subgroup operations
/// when `native`, else onto a group of one. Returns whether the module had any.
pub(crate) fn lower(words: &mut Vec<u32>, native: bool) -> Result<bool, ParseError> {
    let insts = split(words)?;
    let is_vote = |i: &Vec<u32>| {
        matches!(
            opcode(i),
            op::SUBGROUP_ALL_KHR | op::SUBGROUP_ANY_KHR | op::SUBGROUP_ALL_EQUAL_KHR
        )
    };
    if !insts.iter().any(is_vote) {
        return Ok(false);
    }
    let mut bound = words[3];
    let extension = literal("SPV_KHR_subgroup_vote");
    // The `Subgroup` scope: a 32-bit unsigned constant (its type declared if the module has
    // none, in front of the first function).
    let uint = insts
        .iter()
        .find(|i| opcode(i) == op::TYPE_INT && i.len() == 4 && i[2..] == [32, 0])
        .map(|i| i[1]);
    let mut declare = Vec::new();
    let uint = uint.unwrap_or_else(|| {
        bound += 1;
        declare.push(vec![header(op::TYPE_INT, 4), bound - 1, 32, 0]);
        bound - 1
    });
    let scope = bound;
    bound += 1;
    declare.push(vec![header(op::CONSTANT, 4), uint, scope, SCOPE_SUBGROUP]);
    let mut out: Vec<Vec<u32>> = Vec::with_capacity(insts.len() + 4);
    for inst in insts {
        match opcode(&inst) {
            op::CAPABILITY if inst.get(1) == Some(&CAPABILITY_SUBGROUP_VOTE_KHR) => {
                if native {
                    out.push(vec![
                        header(op::CAPABILITY, 2),
                        CAPABILITY_GROUP_NON_UNIFORM,
                    ]);
                    out.push(vec![
                        header(op::CAPABILITY, 2),
                        CAPABILITY_GROUP_NON_UNIFORM_VOTE,
                    ]);
                }
            }
            op::EXTENSION if inst[1..] == extension[..] => {}
            op::FUNCTION if native && !declare.is_empty() => {
                out.append(&mut declare);
                out.push(inst);
            }
            code if is_vote(&inst) && inst.len() == 4 => {
                let (ty, result, value) = (inst[1], inst[2], inst[3]);
                out.push(match (native, code) {
                    (true, _) => {
                        let core = match code {
                            op::SUBGROUP_ALL_KHR => op::GROUP_NON_UNIFORM_ALL,
                            op::SUBGROUP_ANY_KHR => op::GROUP_NON_UNIFORM_ANY,
                            _ => op::GROUP_NON_UNIFORM_ALL_EQUAL,
                        };
                        vec![header(core, 5), ty, result, scope, value]
                    }
                    (false, op::SUBGROUP_ALL_EQUAL_KHR) => {
                        vec![header(op::LOGICAL_EQUAL, 5), ty, result, value, value]
                    }
                    (false, _) => vec![header(op::COPY_OBJECT, 4), ty, result, value],
                });
            }
            _ => out.push(inst),
        }
    }
    words.truncate(5);
    words[3] = bound;
    words.extend(out.into_iter().flatten());
    Ok(true)
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use crate::glsl::spirv_testing::{assert_valid, count};
    use crate::glsl::{compile_program, CompileOptions, Stage};

    const CS: &str = "#version 430\n#extension GL_ARB_shader_group_vote : require\nlayout(local_size_x = 4) in;\nlayout(std430, binding = 0) buffer B { uint v[]; };\nvoid main() {\n    bool b = v[gl_LocalInvocationIndex] != 0u;\n    v[gl_LocalInvocationIndex] = uint(anyInvocationARB(b)) + uint(allInvocationsARB(b)) * 2u + uint(allInvocationsEqualARB(b)) * 4u;\n}\n";

    fn compute() -> Vec<u32> {
        let program =
            compile_program(&[(Stage::Compute, CS)], CompileOptions::default()).expect("links");
        program
            .stage(Stage::Compute)
            .expect("compute")
            .spirv
            .clone()
    }

    #[test]
    fn votes_become_core_subgroup_operations() {
        let mut words = compute();
        assert_eq!(count(&words, op::SUBGROUP_ANY_KHR), 1);
        assert!(lower(&mut words, true).expect("rewrites"));
        assert_valid(&words);
        assert_eq!(count(&words, op::GROUP_NON_UNIFORM_ANY), 1);
        assert_eq!(count(&words, op::GROUP_NON_UNIFORM_ALL_EQUAL), 1);
        assert!(!lower(&mut words, true).expect("parses"), "once only");
    }

    /// piglit's `vs-eq-const`: a GLSL 1.50 vertex unit voting on constants, raised to 4.30
    /// (`raise::RAISES`), where glslang declares the votes.
    const VS_150: &str = "#version 150\n#extension GL_ARB_shader_group_vote: enable\nin vec4 piglit_vertex;\nout vec4 color;\nvoid main() {\n    gl_Position = piglit_vertex;\n    if (allInvocationsEqualARB(true) && allInvocationsEqualARB(false))\n        color = vec4(0.0, 1.0, 0.0, 1.0);\n    else\n        color = vec4(1.0, 0.0, 0.0, 1.0);\n}\n";
    const FS_150: &str = "#version 150\nin vec4 color;\nout vec4 frag_color;\nvoid main() {\n    frag_color = color;\n}\n";

    #[test]
    fn a_glsl_1_50_vertex_unit_votes_on_constants() {
        let program = compile_program(
            &[(Stage::Vertex, VS_150), (Stage::Fragment, FS_150)],
            CompileOptions::default(),
        )
        .expect("links");
        let vertex = &program.stage(Stage::Vertex).expect("vertex").spirv;
        for native in [true, false] {
            let mut words = vertex.clone();
            assert!(lower(&mut words, native).expect("rewrites"));
            assert_valid(&words);
            assert_eq!(count(&words, op::SUBGROUP_ALL_EQUAL_KHR), 0);
        }
    }

    #[test]
    fn without_subgroup_votes_a_group_is_one_invocation() {
        let mut words = compute();
        assert!(lower(&mut words, false).expect("rewrites"));
        assert_valid(&words);
        assert_eq!(count(&words, op::SUBGROUP_ALL_KHR), 0);
        assert_eq!(count(&words, op::LOGICAL_EQUAL), 1);
    }
}
