//! How many interface locations a stage's varyings take: the outputs of a stage before the
//! fragment stage, the inputs of the fragment stage.
//!
//! Design decisions:
//! - Vulkan limits them (`maxVertexOutputComponents`, `maxFragmentInputComponents`, …) and a
//!   pipeline over the limit is invalid — a driver may crash building it (lavapipe does) — so
//!   the GL layer refuses such a link with a log instead (GL lets a link fail for exceeding
//!   an implementation limit). glslang gives every varying whole locations (no packing of two
//!   `float`s into one `vec4` location), so the count is locations × 4 components.
//! - Read from the SPIR-V, the ground truth: one location per scalar or vector (two for 64-bit
//!   three- and four-component vectors), a matrix its columns, an array its elements, a block
//!   its members. Built-ins take none. Per-vertex arrays of geometry and tessellation inputs
//!   are not counted (only fragment inputs are); a tessellation control stage's per-vertex
//!   output arrays count as one element each.

use super::spirv::{decoration as deco, Module, StorageClass, Type};
use super::{CompileError, Stage};

/// The interface locations one stage uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VaryingUse {
    pub stage: Stage,
    /// Past the highest location of the stage's outputs (or, for the fragment stage, inputs).
    pub locations: u32,
}

/// The varying locations of each stage's SPIR-V (outputs; the fragment stage's inputs).
pub fn varying_locations(stages: &[(Stage, &[u32])]) -> Result<Vec<VaryingUse>, CompileError> {
    let mut out = Vec::new();
    for &(stage, words) in stages {
        let module = Module::parse(words)
            .map_err(|e| CompileError::Internal(format!("{stage:?} SPIR-V unreadable: {e}")))?;
        let wanted = if stage == Stage::Fragment {
            StorageClass::Input
        } else {
            StorageClass::Output
        };
        let mut end = 0;
        for var in module.variables.iter().filter(|v| v.storage == wanted) {
            if module.has_decoration(var.id, deco::BUILT_IN) {
                continue;
            }
            let Some(location) = module.decoration(var.id, deco::LOCATION) else {
                continue;
            };
            let Some(Type::Pointer { pointee, .. }) = module.types.get(&var.pointer_type) else {
                continue;
            };
            let ty = per_vertex_element(&module, stage, var.id, *pointee);
            end = end.max(location.saturating_add(location_count(&module, ty, 0)));
        }
        out.push(VaryingUse {
            stage,
            locations: end,
        });
    }
    Ok(out)
}

/// The type whose locations an output of `stage` takes: a tessellation control stage's
/// per-vertex outputs are arrays over the patch's vertices, which take no locations of their
/// own (per-patch outputs, decorated `Patch`, are what they are).
fn per_vertex_element(module: &Module, stage: Stage, var: u32, ty: u32) -> u32 {
    if stage != Stage::TessControl || module.has_decoration(var, deco::PATCH) {
        return ty;
    }
    match module.types.get(&ty) {
        Some(Type::Array { element, .. }) => *element,
        _ => ty,
    }
}

/// Locations a value of type `ty` takes (types nested past a sane depth count as one).
fn location_count(module: &Module, ty: u32, depth: u32) -> u32 {
    if depth > 16 {
        return 1;
    }
    let count = |t: u32| location_count(module, t, depth + 1);
    match module.types.get(&ty) {
        Some(Type::Vector {
            component,
            count: n,
        }) => {
            let wide = matches!(module.types.get(component), Some(Type::Float { width: 64 }));
            if wide && *n > 2 {
                2
            } else {
                1
            }
        }
        Some(Type::Matrix { column, columns }) => columns.saturating_mul(count(*column)),
        Some(Type::Array { element, length }) => {
            length.unwrap_or(1).saturating_mul(count(*element))
        }
        Some(Type::Struct { members }) => members.iter().map(|&m| count(m)).sum(),
        _ => 1,
    }
}
