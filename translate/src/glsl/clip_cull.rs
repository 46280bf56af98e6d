//! The combined limit on clip and cull distances (GL_ARB_cull_distance).
//!
//! GLSL 4.50 §7.1: the sizes of `gl_ClipDistance` and `gl_CullDistance` that one shader
//! declares must not add up to more than `gl_MaxCombinedClipAndCullDistances`, a compile or link
//! error. glslang checks each array against its own limit only, so the link checks the sum.
//!
//! Design decisions:
//! - Read from each linked stage's SPIR-V, where both arrays have their final sizes (explicit,
//!   or implicit ones glslang sized from the highest index used): the members of the built-in
//!   `gl_PerVertex` blocks (one level of arrays stripped for per-vertex inputs and `gl_out[]`)
//!   and the plain variables (the fragment inputs), decorated `BuiltIn ClipDistance/CullDistance`.
//! - Inputs and outputs are counted apart: each interface is one declaration of the pair.
//! - glslang gives a block member the shader neither sizes nor uses one element (the
//!   `gl_ClipDistance` of a unit that only redeclares `gl_CullDistance`): a one-element member
//!   that no access chain reaches counts as absent. A unit that declares one element and never
//!   uses it may so pass one over the limit: the check never refuses a valid program.
//! - The limit is the one glslang's constants are built with (`compile`), which the GL context
//!   answers for `GL_MAX_COMBINED_CLIP_AND_CULL_DISTANCES`.
#![deny(unsafe_code, clippy::unwrap_used, clippy::expect_used)]

use super::rect::{opcode, split};
use super::spirv::{decoration, Module, StorageClass, Type};
use super::{CompileError, Stage};

/// `OpAccessChain` and `OpInBoundsAccessChain`.
const ACCESS_CHAINS: [u16; 2] = [65, 66];

/// `gl_MaxCombinedClipAndCullDistances`, as glslang is told it.
pub(crate) const MAX_COMBINED: u32 = 8;

/// SPIR-V's `BuiltIn ClipDistance` and `BuiltIn CullDistance`.
const CLIP_DISTANCE: u32 = 3;
const CULL_DISTANCE: u32 = 4;

/// A link error for the first stage interface of `stages` whose clip and cull distances
/// together exceed [`MAX_COMBINED`].
pub(crate) fn check(stages: &[(Stage, &[u32])]) -> Result<(), CompileError> {
    for &(stage, words) in stages {
        let unreadable = |e| CompileError::Internal(format!("SPIR-V unreadable: {e}"));
        let module = Module::parse(words).map_err(unreadable)?;
        let chains = access_chains(words).map_err(unreadable)?;
        for (storage, what) in [(StorageClass::Input, "in"), (StorageClass::Output, "out")] {
            let used = distances(&module, &chains, &storage);
            if used > MAX_COMBINED {
                return Err(CompileError::Link {
                    log: format!(
                        "error: {stage:?} shader: the {what} gl_ClipDistance and \
                         gl_CullDistance arrays have {used} elements together, more than \
                         gl_MaxCombinedClipAndCullDistances ({MAX_COMBINED})\n"
                    ),
                });
            }
        }
    }
    Ok(())
}

/// The access chains of a module: (base variable, the constant ids of its first two indices).
fn access_chains(words: &[u32]) -> Result<Vec<(u32, [u32; 2])>, super::spirv::ParseError> {
    Ok(split(words)?
        .iter()
        .filter(|i| ACCESS_CHAINS.contains(&opcode(i)) && i.len() > 4)
        .map(|i| (i[3], [i[4], i.get(5).copied().unwrap_or(0)]))
        .collect())
}

/// The clip and cull distances the variables of `storage` in `module` declare; `chains` are
/// the module's [`access_chains`].
fn distances(module: &Module, chains: &[(u32, [u32; 2])], storage: &StorageClass) -> u32 {
    let built_in = |d: Option<u32>| matches!(d, Some(CLIP_DISTANCE | CULL_DISTANCE));
    let mut total = 0;
    for var in module.variables.iter().filter(|v| v.storage == *storage) {
        let Some(&Type::Pointer { pointee, .. }) = module.types.get(&var.pointer_type) else {
            continue;
        };
        if built_in(module.decoration(var.id, decoration::BUILT_IN)) {
            total += length(module, pointee);
            continue;
        }
        // Per-vertex blocks (`gl_in[]`, `gl_out[]`) name the member with their second index.
        let (block, member_index) = match module.types.get(&pointee) {
            Some(&Type::Array { element, .. }) => (element, 1),
            _ => (pointee, 0),
        };
        if let Some(Type::Struct { members }) = module.types.get(&block) {
            for (i, &member) in (0u32..).zip(members) {
                if !built_in(module.member_decoration(block, i, decoration::BUILT_IN)) {
                    continue;
                }
                let n = length(module, member);
                let reached = chains.iter().any(|(base, indices)| {
                    *base == var.id && module.constants.get(&indices[member_index]) == Some(&i)
                });
                if n > 1 || reached {
                    total += n;
                }
            }
        }
    }
    total
}

/// The length of the array type `ty` (0 for anything else).
fn length(module: &Module, ty: u32) -> u32 {
    match module.types.get(&ty) {
        Some(&Type::Array {
            length: Some(n), ..
        }) => n,
        _ => 0,
    }
}

#[cfg(test)]
#[allow(clippy::expect_used)]
mod tests {
    use super::*;

    fn vertex(clip: u32, cull: u32) -> Result<(), CompileError> {
        let vs = format!(
            "#version 450\nout float gl_ClipDistance[{clip}];\nout float gl_CullDistance[{cull}];\n\
             void main() {{ gl_Position = vec4(0.0); }}\n"
        );
        let fs = "#version 450\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n";
        let program = crate::glsl::compile_program(
            &[(Stage::Vertex, &vs), (Stage::Fragment, fs)],
            Default::default(),
        )?;
        let words = &program.stage(Stage::Vertex).expect("vertex").spirv;
        check(&[(Stage::Vertex, words)])
    }

    #[test]
    fn more_than_the_combined_limit_fails_the_link() {
        assert!(vertex(4, 4).is_ok());
        assert!(vertex(1, 7).is_ok());
        // glslang's one-element `gl_ClipDistance` of a unit that never names it is no use.
        let cull_only = "#version 450\nout float gl_CullDistance[8];\n\
                         void main() { gl_Position = vec4(0.0); }\n";
        let fs = "#version 450\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n";
        let program = crate::glsl::compile_program(
            &[(Stage::Vertex, cull_only), (Stage::Fragment, fs)],
            Default::default(),
        );
        assert!(program.is_ok(), "{:?}", program.err());
        match vertex(5, 5) {
            Err(CompileError::Link { log }) => assert!(log.contains("10 elements"), "{log}"),
            other => panic!("{other:?}"),
        }
    }
}
