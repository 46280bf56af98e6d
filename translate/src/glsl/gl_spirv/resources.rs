//! GL SPIR-V's resources, built-ins and modes made Vulkan's, the way ArenaGL's GLSL path lays
//! them out.
//!
//! - Descriptors: GL numbers each kind's binding points on its own (texture units, uniform
//!   buffer bindings, …) and a GL module has no descriptor sets. Each sampler, image, uniform
//!   block and storage block goes to set [`RESOURCE_SET`] at its kind's binding base plus its
//!   `Binding` (`layout(binding = N)` in GLSL lands in the same place), and the GL binding is
//!   kept for the program's initial binding points.
//! - Names: SPIR-V's names are debug information that GL does not use. They are dropped and
//!   each resource is named from its location or binding (`spirv_location_N`,
//!   `spirv_binding_N`, …), which is what reflection merges stages by.
//! - Built-ins: `VertexId`/`InstanceId` (GL's) become `VertexIndex`/`InstanceIndex` (Vulkan's;
//!   the link then counts instances from the base instance as it does for GLSL).
//! - Modes: a fragment stage's `OriginLowerLeft` becomes Vulkan's `OriginUpperLeft` (ArenaGL
//!   renders GL's lower-left origin upside down, so the two coordinates agree).
#![deny(unsafe_code, clippy::unwrap_used, clippy::expect_used)]

use super::module::{header, op, opcode, read_string, Sections};
use crate::glsl::layout_bindings::Declared;
use crate::glsl::spirv::{Module, StorageClass, Type};
use crate::glsl::{
    Stage, IMAGE_BINDING_BASE, RESOURCE_SET, SAMPLER_BINDING_BASE, STORAGE_BLOCK_BINDING_BASE,
    UNIFORM_BLOCK_BINDING_BASE,
};

const DECORATION_BLOCK: u32 = 2;
const DECORATION_BUFFER_BLOCK: u32 = 3;
const DECORATION_BUILT_IN: u32 = 11;
const DECORATION_LOCATION: u32 = 30;
const DECORATION_INDEX: u32 = 32;
const DECORATION_BINDING: u32 = 33;
const DECORATION_DESCRIPTOR_SET: u32 = 34;
const BUILT_IN_VERTEX_ID: u32 = 5;
const BUILT_IN_INSTANCE_ID: u32 = 6;
const BUILT_IN_VERTEX_INDEX: u32 = 42;
const BUILT_IN_INSTANCE_INDEX: u32 = 43;
const MODE_PIXEL_CENTER_INTEGER: u32 = 6;
const MODE_ORIGIN_UPPER_LEFT: u32 = 7;
const MODE_ORIGIN_LOWER_LEFT: u32 = 8;
const STORAGE_ATOMIC_COUNTER: u32 = 10;
/// The widths of the kinds' binding ranges (`glsl`'s bases).
const SAMPLER_SLOTS: u32 = IMAGE_BINDING_BASE - SAMPLER_BINDING_BASE;
const IMAGE_SLOTS: u32 = STORAGE_BLOCK_BINDING_BASE - IMAGE_BINDING_BASE;
const UNIFORM_BLOCK_SLOTS: u32 = SAMPLER_BINDING_BASE - UNIFORM_BLOCK_BINDING_BASE;
const STORAGE_BLOCK_SLOTS: u32 = 32;

/// What the link learns about the GL interface from the modules (GLSL's path reads it from the
/// sources): explicit uniform locations and binding points by the names ArenaGL gave.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Facts {
    /// What transform feedback captures, when the last stage before the rasteriser declares it.
    pub xfb: Option<crate::glsl::xfb::XfbLayout>,
    /// (uniform name, location), as `layout(location = N) uniform` gives them.
    pub explicit_locations: Vec<(String, u32)>,
    /// Initial binding points, as `layout(binding = N)` gives them.
    pub bindings: Vec<(Declared, u32)>,
    /// Loose uniforms' initial values (name, values in GL's order).
    pub initializers: Vec<crate::glsl::initializers::Initializer>,
    /// Loose `bool`/`bvecN` uniforms (and arrays of them), stored as `uint`s: (name, components).
    pub loose_bools: Vec<(String, u32)>,
}

/// Adds global `var` to the entry point's interface where the module's version needs every
/// global there (SPIR-V 1.4 on).
pub(super) fn add_to_interface(s: &mut Sections, var: u32) {
    if s.version < 0x0001_0400 {
        return;
    }
    if let Some(e) = s.preamble.iter_mut().find(|i| opcode(i) == op::ENTRY_POINT) {
        e.push(var);
        e[0] = header(op::ENTRY_POINT, e.len());
    }
}

/// Drops `vars` from the entry point's interface.
pub(super) fn remove_from_interface(s: &mut Sections, vars: &[u32]) {
    for e in s
        .preamble
        .iter_mut()
        .filter(|i| opcode(i) == op::ENTRY_POINT)
    {
        let Some((_, used)) = e.get(3..).and_then(read_string) else {
            continue;
        };
        let start = 3 + used;
        let kept: Vec<u32> = e[start..]
            .iter()
            .copied()
            .filter(|v| !vars.contains(v))
            .collect();
        e.truncate(start);
        e.extend(kept);
        e[0] = header(op::ENTRY_POINT, e.len());
    }
}

/// The kind of a descriptor variable of pointee `ty`, for its binding range and name.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Sampler,
    Image,
    UniformBlock,
    StorageBlock,
}

fn element(m: &Module, ty: u32) -> u32 {
    match m.types.get(&ty) {
        Some(Type::Array { element, .. } | Type::RuntimeArray { element }) => {
            self::element(m, *element)
        }
        _ => ty,
    }
}

fn kind(m: &Module, storage: StorageClass, pointee: u32) -> Option<Kind> {
    let ty = element(m, pointee);
    match (storage, m.types.get(&ty)) {
        (StorageClass::UniformConstant, Some(Type::Image(_))) => Some(Kind::Image),
        (StorageClass::UniformConstant, Some(Type::SampledImage { .. })) => Some(Kind::Sampler),
        (StorageClass::Uniform, _) if m.has_decoration(ty, DECORATION_BUFFER_BLOCK) => {
            Some(Kind::StorageBlock)
        }
        (StorageClass::Uniform, _) if m.has_decoration(ty, DECORATION_BLOCK) => {
            Some(Kind::UniformBlock)
        }
        (StorageClass::StorageBuffer, _) => Some(Kind::StorageBlock),
        _ => None,
    }
}

/// The descriptor count of a variable of pointee `ty` (arrays of arrays flattened).
fn count(m: &Module, ty: u32) -> u32 {
    match m.types.get(&ty) {
        Some(Type::Array {
            element,
            length: Some(n),
        }) => n.saturating_mul(count(m, *element)),
        _ => 1,
    }
}

/// Sets, bindings and names of `s`'s descriptors and interface variables (see the module docs),
/// recording GL's explicit locations and bindings in `facts`. `m` is the module as parsed before.
pub(super) fn place(
    s: &mut Sections,
    m: &Module,
    stage: Stage,
    facts: &mut Facts,
) -> Result<(), String> {
    s.debug
        .retain(|i| !matches!(opcode(i), op::NAME | op::MEMBER_NAME));
    for var in &m.variables {
        if var.storage == StorageClass::Other(STORAGE_ATOMIC_COUNTER) {
            return Err("atomic counters in SPIR-V are not supported yet".into());
        }
        let Some(Type::Pointer { pointee, .. }) = m.types.get(&var.pointer_type) else {
            continue;
        };
        let builtin = m.has_decoration(var.id, DECORATION_BUILT_IN);
        match var.storage {
            StorageClass::Input | StorageClass::Output if !builtin => {
                name_interface(s, m, stage, var.id, var.storage);
                continue;
            }
            _ => {}
        }
        let Some(kind) = kind(m, var.storage, *pointee) else {
            continue;
        };
        let binding = m.decoration(var.id, DECORATION_BINDING).unwrap_or(0);
        let location = m.decoration(var.id, DECORATION_LOCATION);
        let (base, slots, what) = match kind {
            Kind::Sampler => (SAMPLER_BINDING_BASE, SAMPLER_SLOTS, "sampler"),
            Kind::Image => (IMAGE_BINDING_BASE, IMAGE_SLOTS, "image"),
            Kind::UniformBlock => (
                UNIFORM_BLOCK_BINDING_BASE,
                UNIFORM_BLOCK_SLOTS,
                "uniform_block",
            ),
            Kind::StorageBlock => (
                STORAGE_BLOCK_BINDING_BASE,
                STORAGE_BLOCK_SLOTS,
                "storage_block",
            ),
        };
        if binding.saturating_add(count(m, *pointee)) > slots {
            return Err(format!("{what} binding {binding} is out of range"));
        }
        let name = match (kind, location) {
            (Kind::Sampler | Kind::Image, Some(l)) => super::uniforms::uniform_name(l),
            _ => format!("spirv_{what}_binding_{binding}"),
        };
        s.undecorate(var.id, DECORATION_BINDING);
        s.undecorate(var.id, DECORATION_DESCRIPTOR_SET);
        s.undecorate(var.id, DECORATION_LOCATION);
        s.decorate(var.id, DECORATION_DESCRIPTOR_SET, &[RESOURCE_SET]);
        s.decorate(var.id, DECORATION_BINDING, &[base + binding]);
        let declared = match kind {
            Kind::Sampler => Declared::Sampler(name.clone()),
            Kind::Image => Declared::Image(name.clone()),
            Kind::UniformBlock => Declared::UniformBlock(name.clone()),
            Kind::StorageBlock => Declared::StorageBlock(name.clone()),
        };
        if let (Kind::Sampler | Kind::Image, Some(l)) = (kind, location) {
            facts.explicit_locations.push((name.clone(), l));
        }
        facts.bindings.push((declared, binding));
        match kind {
            Kind::Sampler | Kind::Image => s.name(var.id, &name),
            Kind::UniformBlock | Kind::StorageBlock => name_block(s, m, var.id, *pointee, &name),
        }
    }
    Ok(())
}

/// Names a block variable and its type `name` and the type's members `m0`, `m1`, ….
fn name_block(s: &mut Sections, m: &Module, var: u32, pointee: u32, name: &str) {
    let ty = element(m, pointee);
    s.name(var, name);
    s.name(ty, name);
    if let Some(Type::Struct { members }) = m.types.get(&ty) {
        for i in 0..members.len() as u32 {
            s.name_member(ty, i, &format!("m{i}"));
        }
    }
}

/// Names a vertex input or fragment output from its location (and index).
fn name_interface(s: &mut Sections, m: &Module, stage: Stage, var: u32, storage: StorageClass) {
    let Some(location) = m.decoration(var, DECORATION_LOCATION) else {
        return;
    };
    let name = match (stage, storage) {
        (Stage::Vertex, StorageClass::Input) => format!("spirv_input_{location}"),
        (Stage::Fragment, StorageClass::Output) => match m.decoration(var, DECORATION_INDEX) {
            Some(i) if i > 0 => format!("spirv_output_{location}_{i}"),
            _ => format!("spirv_output_{location}"),
        },
        _ => return,
    };
    s.name(var, &name);
}

/// GL's built-ins and execution modes made Vulkan's (see the module docs).
pub(super) fn vulkan_builtins_and_modes(s: &mut Sections) -> Result<(), String> {
    for inst in &mut s.annotations {
        if opcode(inst) == op::DECORATE && inst.len() == 4 && inst[2] == DECORATION_BUILT_IN {
            match inst[3] {
                BUILT_IN_VERTEX_ID => inst[3] = BUILT_IN_VERTEX_INDEX,
                BUILT_IN_INSTANCE_ID => inst[3] = BUILT_IN_INSTANCE_INDEX,
                _ => {}
            }
        }
    }
    for inst in &mut s.preamble {
        if opcode(inst) != op::EXECUTION_MODE || inst.len() < 3 {
            continue;
        }
        match inst[2] {
            MODE_ORIGIN_LOWER_LEFT => inst[2] = MODE_ORIGIN_UPPER_LEFT,
            MODE_PIXEL_CENTER_INTEGER => {
                return Err("the PixelCenterInteger execution mode is not supported".into())
            }
            _ => {}
        }
    }
    Ok(())
}
