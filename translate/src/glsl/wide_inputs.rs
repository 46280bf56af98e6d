//! Vertex inputs of wide 64-bit types (`dvec3`, `dvec4`, and matrices and arrays of them):
//! one location each in GLSL, two in Vulkan.
//!
//! Design decisions:
//! - GLSL (4.4.1) gives a vertex shader input of any vector type one location, `dvec3` and
//!   `dvec4` included (GL_ARB_vertex_attrib_64bit: `layout(location = 0) in dvec4 a;
//!   layout(location = 1) in dvec4 b;` is legal), and glslang keeps those locations. SPIR-V for
//!   Vulkan gives a 64-bit three- or four-component input two locations, so such a module's
//!   inputs would overlap. The vertex module's input locations are *stretched* after linking:
//!   every GLSL location a wide input covers becomes two Vulkan locations, the others one, in
//!   order, so inputs that did not overlap in GLSL do not in Vulkan.
//! - GL's attribute locations stay the GLSL ones (reflection reads the module before the
//!   stretch); the GL layer maps each input's first location through [`Stretch::location`] and
//!   steps a matrix's or array's further locations by [`vulkan_slots`].
//! - The same map packs the inputs: GLSL locations no input covers take no Vulkan location.
//!   The Vulkan locations a program may use are few (`maxVertexInputAttributes`, 32 on common
//!   devices, all of them needed for GL_MAX_VERTEX_ATTRIBS 32) and glslang places the inputs it
//!   maps itself (an upgraded legacy shader's `arena_ff_*`) after the explicit ones, so
//!   `layout(location = 31)` beside `gl_Vertex` still fits. A module whose inputs are already
//!   packed and narrow is left untouched. The double inputs are then read through 32-bit
//!   integer inputs at the same locations (`double_inputs`).
#![deny(unsafe_code, clippy::unwrap_used, clippy::expect_used)]

use super::spirv::{decoration as deco, op, Module, ParseError, StorageClass, Type};
use super::types::GlType;

/// Vulkan locations one GLSL location of a vertex input of `ty` takes: 2 for 64-bit
/// three- and four-component columns, else 1.
pub fn vulkan_slots(ty: GlType) -> u32 {
    match ty.shape() {
        Some((scalar, _, rows)) if scalar.is_64bit() && rows >= 3 => 2,
        _ => 1,
    }
}

/// How GLSL vertex-input locations map to Vulkan ones after [`stretch_vertex_inputs`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stretch {
    /// Per GLSL location (from 0), the Vulkan locations it takes: 0 where no input covers it,
    /// 2 where a wide input does, else 1; empty when the map is the identity.
    width: Vec<u8>,
}

impl Stretch {
    /// The Vulkan location of GLSL location `glsl`.
    pub fn location(&self, glsl: u32) -> u32 {
        let below: u32 = self
            .width
            .iter()
            .take(glsl as usize)
            .map(|&w| u32::from(w))
            .sum();
        below + glsl.saturating_sub(self.width.len() as u32)
    }

    /// Whether the map changes no location.
    fn is_identity(&self) -> bool {
        self.width.iter().all(|&w| w == 1)
    }
}

/// A vertex module's input: its variable, first GLSL location, GLSL locations spanned, and
/// whether its columns are wide.
struct Input {
    id: u32,
    location: u32,
    span: u32,
    wide: bool,
}

/// Rewrites the `Location`s of a vertex module's inputs so that wide ones take two Vulkan
/// locations per GLSL location (see the module notes); the map the GL layer reads locations
/// through.
pub(crate) fn stretch_vertex_inputs(words: &mut [u32]) -> Result<Stretch, ParseError> {
    let module = Module::parse(words)?;
    let inputs: Vec<Input> = module
        .variables
        .iter()
        .filter(|v| v.storage == StorageClass::Input)
        .filter(|v| !module.has_decoration(v.id, deco::BUILT_IN))
        .filter_map(|v| {
            let location = module.decoration(v.id, deco::LOCATION)?;
            let Some(Type::Pointer { pointee, .. }) = module.types.get(&v.pointer_type) else {
                return None;
            };
            let (span, wide) = shape(&module, *pointee);
            Some(Input {
                id: v.id,
                location,
                span,
                wide,
            })
        })
        .collect();
    let end = inputs
        .iter()
        .map(|i| i.location.saturating_add(i.span))
        .max()
        .unwrap_or(0)
        .min(1 << 16);
    let mut width = vec![0u8; end as usize];
    for i in &inputs {
        let from = (i.location as usize).min(width.len());
        let to = (i.location.saturating_add(i.span) as usize).min(width.len());
        let w = if i.wide { 2 } else { 1 };
        width[from..to].iter_mut().for_each(|x| *x = (*x).max(w));
    }
    let stretch = Stretch { width };
    if stretch.is_identity() {
        return Ok(Stretch::default());
    }
    let mut at = 5;
    while at < words.len() {
        let count = ((words[at] >> 16) as usize).max(1);
        let opcode = (words[at] & 0xffff) as u16;
        if opcode == op::DECORATE && count >= 4 && at + 3 < words.len() {
            let (target, decoration) = (words[at + 1], words[at + 2]);
            if decoration == deco::LOCATION && inputs.iter().any(|i| i.id == target) {
                words[at + 3] = stretch.location(words[at + 3]);
            }
        }
        at += count;
    }
    Ok(stretch)
}

/// (GLSL locations, wide) of a vertex input of type `ty`: a matrix spans its columns, an
/// array its elements; wide when its vectors are 64-bit with three or four components.
fn shape(module: &Module, ty: u32) -> (u32, bool) {
    match module.types.get(&ty) {
        Some(Type::Array {
            element,
            length: Some(n),
        }) => {
            let (span, wide) = shape(module, *element);
            (span.saturating_mul(*n), wide)
        }
        Some(Type::Matrix { column, columns }) => (*columns, shape(module, *column).1),
        Some(Type::Vector { component, count }) => (
            1,
            *count >= 3
                && matches!(
                    module.types.get(component),
                    Some(Type::Float { width: 64 } | Type::Int { width: 64, .. })
                ),
        ),
        _ => (1, false),
    }
}

impl super::Program {
    /// Readies the vertex stage's double inputs for Vulkan: their locations stretched
    /// ([`stretch_vertex_inputs`]), then their reads lowered to `uvec` inputs
    /// (`double_inputs`). Reflection keeps the GLSL locations; the map says where each went.
    pub fn lower_double_vertex_inputs(&mut self) -> Result<Stretch, super::CompileError> {
        let Some(vertex) = self
            .stages
            .iter_mut()
            .find(|s| s.stage == super::Stage::Vertex)
        else {
            return Ok(Stretch::default());
        };
        let unreadable =
            |e| super::CompileError::Internal(format!("vertex SPIR-V unreadable: {e}"));
        let stretch = stretch_vertex_inputs(&mut vertex.spirv).map_err(unreadable)?;
        super::double_inputs::lower_double_inputs(&mut vertex.spirv).map_err(unreadable)?;
        Ok(stretch)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wide_locations_take_two_vulkan_locations() {
        let s = Stretch {
            width: vec![2, 1, 2, 2],
        };
        assert_eq!(
            (0..5).map(|l| s.location(l)).collect::<Vec<_>>(),
            [0, 2, 3, 5, 7]
        );
        // Locations no input covers take none: 31 follows 1 and 2.
        let packed = Stretch {
            width: [vec![1, 1], vec![0; 29], vec![1]].concat(),
        };
        assert_eq!(packed.location(31), 2);
        assert_eq!(packed.location(32), 3);
        assert_eq!(Stretch::default().location(3), 3);
        assert_eq!(vulkan_slots(GlType::DVec3), 2);
        assert_eq!(vulkan_slots(GlType::DMat4x2), 1);
        assert_eq!(vulkan_slots(GlType::DMat2x4), 2);
        assert_eq!(vulkan_slots(GlType::Vec4), 1);
    }
}
