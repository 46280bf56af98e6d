//! Program binaries (GL_ARB_get_program_binary, GL_OES_get_program_binary, ES 3.0), and what a
//! link compiled ([`LinkInput`], kept with the program: program pipelines relink the stages of
//! several separable programs together from it, `objects::program_pipeline`).
//!
//! Design decisions:
//! - One binary format, [`FORMAT`]. A binary is a header, then a payload: the header ties it to
//!   the format's version, ArenaGL's crate version, the device (`pipelineCacheUUID` and
//!   `driverVersion`) and a fingerprint of the device capabilities the link lowered the SPIR-V
//!   for (`DeviceCaps`); a checksum covers the payload. A binary that fails any of them loads
//!   as a failed link (`GL_LINK_STATUS` false, the reason in the info log), never an error.
//! - The payload is the linked program as draws use it ([`Saved`]): each stage's SPIR-V and
//!   its descriptor-set layouts ([`Code`]), the interface (attributes, uniforms and their
//!   storage, blocks, samplers, storage blocks, images, fragment outputs, built-in uniforms,
//!   transform-feedback varyings, subroutines), the link-time state (uniform initializers,
//!   the epilogue and depth-mode flags, the compute work-group size) and the [`LinkInput`]
//!   (sources, bindings, `GL_PROGRAM_SEPARABLE`), which only a pipeline combining several
//!   separable programs reads. Loading makes the Vulkan objects from it and calls no GLSL
//!   compiler; the tessellation and geometry layouts are read back from the SPIR-V. (The one
//!   exception: a program with an evaluation stage and no control stage regenerates its
//!   pass-through control stage, `tess::PassThroughControl`, which is compiled at draw time.)
//! - Decoding trusts nothing: every count is bounded by the bytes left, every string is UTF-8,
//!   every enum code is known, every index into another table is checked against that table,
//!   and nothing may follow the payload. A corrupt binary is a log line.
//! - Uniform values are not saved: a loaded program starts with its initializers, as after a
//!   link (the specification's rule).

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use ash::vk;

use super::tess::PassThroughControl;
use super::{
    link, ActiveAttrib, ActiveUniform, BlockInfo, FfUniform, LinkError, Linked, SamplerInfo,
    UniformStorage,
};
use crate::gl::compute::{ImageInfo, StorageBlockInfo};
use crate::gl::context::enums::*;
use crate::gl::context::error::{invalid_enum, invalid_op, invalid_value, GlResult};
use crate::gl::context::Context;
use crate::gl::vk::device::Device;
use crate::glsl::initializers::Initializer;
use crate::glsl::subroutine::{StageSubroutines, SubroutineFunction, SubroutineUniform};
use crate::glsl::xfb::{XfbLayout, XfbRequest, XfbVarying};
use crate::glsl::{
    self, FragBinding, GlType, SampledKind, SamplerDim, SamplerType, ScalarKind, Stage, StageMask,
};

/// The inputs of one successful `glLinkProgram`: the attached units' sources and the bindings
/// the application set before it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct LinkInput {
    pub units: Vec<(Stage, String)>,
    pub attrib_bindings: HashMap<String, u32>,
    pub frag_bindings: HashMap<String, FragBinding>,
    pub xfb: XfbRequest,
    /// `GL_PROGRAM_SEPARABLE` at the link.
    pub separable: bool,
    /// The specialized SPIR-V modules of a GL_ARB_gl_spirv program (then `units` is empty).
    pub spirv: Vec<(Stage, Vec<u32>)>,
}

impl LinkInput {
    /// The application's stages (those of its own units, not the ones a link supplies), once
    /// per unit.
    pub(crate) fn stages(&self) -> impl Iterator<Item = Stage> + '_ {
        self.units.iter().map(|(s, _)| *s)
    }

    /// Whether a unit of `stage` was linked.
    pub(crate) fn has_stage(&self, stage: Stage) -> bool {
        self.units.iter().any(|(s, _)| *s == stage)
    }
}

/// ArenaGL's program binary format (`GL_PROGRAM_BINARY_FORMATS`' one entry).
pub(crate) const FORMAT: GLenum = 0x4147_4C42;
/// The first bytes of every binary.
const MAGIC: [u8; 4] = *b"AGLB";
/// The payload's layout version: raised whenever [`Saved`] or an encoding changes.
const FORMAT_VERSION: u32 = 3;

/// One descriptor-set layout binding, as the program's layouts were made from it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct LayoutBinding {
    pub binding: u32,
    pub ty: vk::DescriptorType,
    pub count: u32,
    pub stages: vk::ShaderStageFlags,
}

impl LayoutBinding {
    pub(crate) fn of(b: &vk::DescriptorSetLayoutBinding<'_>) -> Self {
        Self {
            binding: b.binding,
            ty: b.descriptor_type,
            count: b.descriptor_count,
            stages: b.stage_flags,
        }
    }

    pub(crate) fn vk(&self) -> vk::DescriptorSetLayoutBinding<'static> {
        vk::DescriptorSetLayoutBinding::default()
            .binding(self.binding)
            .descriptor_type(self.ty)
            .descriptor_count(self.count)
            .stage_flags(self.stages)
    }
}

/// A linked program's code: what its Vulkan objects are made from (`link::vulkan_layout`),
/// kept so that `glGetProgramBinary` can save it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Code {
    /// Each stage's SPIR-V.
    pub stages: Vec<(Stage, Vec<u32>)>,
    /// The bindings of descriptor sets 0 and 1.
    pub sets: [Vec<LayoutBinding>; 2],
}

// ---- the encoding ---------------------------------------------------------------------------

/// Why a binary does not load: a line of the program's info log.
type Refusal = String;

#[derive(Default)]
struct Writer(Vec<u8>);

impl Writer {
    fn u8(&mut self, v: u8) {
        self.0.push(v);
    }

    fn u32(&mut self, v: u32) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }

    fn u64(&mut self, v: u64) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }

    fn bytes(&mut self, b: &[u8]) {
        self.0.extend_from_slice(b);
    }
}

struct Reader<'a> {
    rest: &'a [u8],
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], Refusal> {
        if n > self.rest.len() {
            return Err(format!(
                "the binary is truncated ({n} bytes needed, {} left)",
                self.rest.len()
            ));
        }
        let (head, tail) = self.rest.split_at(n);
        self.rest = tail;
        Ok(head)
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N], Refusal> {
        let mut out = [0; N];
        out.copy_from_slice(self.take(N)?);
        Ok(out)
    }

    fn u8(&mut self) -> Result<u8, Refusal> {
        Ok(self.array::<1>()?[0])
    }

    fn u32(&mut self) -> Result<u32, Refusal> {
        Ok(u32::from_le_bytes(self.array()?))
    }

    fn u64(&mut self) -> Result<u64, Refusal> {
        Ok(u64::from_le_bytes(self.array()?))
    }

    /// A count of items at least `min_size` bytes each: never more than the bytes left hold.
    fn count(&mut self, min_size: usize) -> Result<usize, Refusal> {
        let n = self.u32()? as usize;
        if n.saturating_mul(min_size.max(1)) > self.rest.len() {
            return Err(format!(
                "a count of {n} is more than the {} bytes left can hold",
                self.rest.len()
            ));
        }
        Ok(n)
    }
}

/// A value with one encoding, read back exactly or refused.
trait Wire: Sized {
    /// The fewest bytes one value takes (bounds counts of them).
    const MIN_SIZE: usize = 1;
    fn put(&self, w: &mut Writer);
    fn get(r: &mut Reader<'_>) -> Result<Self, Refusal>;
}

impl Wire for u32 {
    const MIN_SIZE: usize = 4;
    fn put(&self, w: &mut Writer) {
        w.u32(*self);
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, Refusal> {
        r.u32()
    }
}

impl Wire for i32 {
    const MIN_SIZE: usize = 4;
    fn put(&self, w: &mut Writer) {
        w.u32(*self as u32);
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, Refusal> {
        Ok(r.u32()? as i32)
    }
}

/// Indices into the program's tables (checked against them after decoding, `Saved::check`).
/// `usize::MAX`, the "no uniform" mark of a free location, travels as `u32::MAX`.
impl Wire for usize {
    const MIN_SIZE: usize = 4;
    fn put(&self, w: &mut Writer) {
        w.u32(u32::try_from(*self).unwrap_or(u32::MAX));
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, Refusal> {
        Ok(match r.u32()? {
            u32::MAX => usize::MAX,
            v => v as usize,
        })
    }
}

impl Wire for f64 {
    const MIN_SIZE: usize = 8;
    fn put(&self, w: &mut Writer) {
        w.u64(self.to_bits());
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, Refusal> {
        Ok(f64::from_bits(r.u64()?))
    }
}

impl Wire for bool {
    fn put(&self, w: &mut Writer) {
        w.u8(u8::from(*self));
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, Refusal> {
        match r.u8()? {
            0 => Ok(false),
            1 => Ok(true),
            b => Err(format!("{b} is not a boolean")),
        }
    }
}

impl Wire for String {
    const MIN_SIZE: usize = 4;
    fn put(&self, w: &mut Writer) {
        w.u32(self.len() as u32);
        w.bytes(self.as_bytes());
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, Refusal> {
        let n = r.count(1)?;
        let bytes = r.take(n)?;
        String::from_utf8(bytes.to_vec()).map_err(|_| "a name is not UTF-8".to_owned())
    }
}

impl<T: Wire> Wire for Vec<T> {
    const MIN_SIZE: usize = 4;
    fn put(&self, w: &mut Writer) {
        w.u32(self.len() as u32);
        for v in self {
            v.put(w);
        }
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, Refusal> {
        let n = r.count(T::MIN_SIZE)?;
        (0..n).map(|_| T::get(r)).collect()
    }
}

impl<T: Wire> Wire for Option<T> {
    fn put(&self, w: &mut Writer) {
        self.is_some().put(w);
        if let Some(v) = self {
            v.put(w);
        }
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, Refusal> {
        Ok(if bool::get(r)? {
            Some(T::get(r)?)
        } else {
            None
        })
    }
}

impl<A: Wire, B: Wire> Wire for (A, B) {
    const MIN_SIZE: usize = A::MIN_SIZE + B::MIN_SIZE;
    fn put(&self, w: &mut Writer) {
        self.0.put(w);
        self.1.put(w);
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, Refusal> {
        Ok((A::get(r)?, B::get(r)?))
    }
}

impl<A: Wire, B: Wire, C: Wire> Wire for (A, B, C) {
    const MIN_SIZE: usize = A::MIN_SIZE + B::MIN_SIZE + C::MIN_SIZE;
    fn put(&self, w: &mut Writer) {
        self.0.put(w);
        self.1.put(w);
        self.2.put(w);
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, Refusal> {
        Ok((A::get(r)?, B::get(r)?, C::get(r)?))
    }
}

impl<T: Wire, const N: usize> Wire for [T; N] {
    fn put(&self, w: &mut Writer) {
        for v in self {
            v.put(w);
        }
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, Refusal> {
        let items = (0..N).map(|_| T::get(r)).collect::<Result<Vec<T>, _>>()?;
        items
            .try_into()
            .map_err(|_| "an array has the wrong length".to_owned())
    }
}

/// A map, in key order (so one program always gives the same bytes).
impl<V: Wire> Wire for HashMap<String, V> {
    const MIN_SIZE: usize = 4;
    fn put(&self, w: &mut Writer) {
        let mut entries: Vec<(&String, &V)> = self.iter().collect();
        entries.sort_by(|a, b| a.0.cmp(b.0));
        w.u32(entries.len() as u32);
        for (k, v) in entries {
            k.put(w);
            v.put(w);
        }
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, Refusal> {
        let entries: Vec<(String, V)> = Wire::get(r)?;
        Ok(entries.into_iter().collect())
    }
}

/// A fieldless enum as the index of its variant in the list (which must name every variant:
/// the `match` makes a new one a compile error here).
macro_rules! wire_enum {
    ($ty:ident { $($v:ident),+ $(,)? }) => {
        impl Wire for $ty {
            fn put(&self, w: &mut Writer) {
                const ALL: &[$ty] = &[$($ty::$v),+];
                let _every_variant_listed = |v: $ty| match v { $($ty::$v => ()),+ };
                w.u8(ALL.iter().position(|v| v == self).unwrap_or(0) as u8);
            }
            fn get(r: &mut Reader<'_>) -> Result<Self, Refusal> {
                const ALL: &[$ty] = &[$($ty::$v),+];
                let code = r.u8()?;
                ALL.get(code as usize).copied().ok_or_else(|| {
                    format!("{code} is not a {}", stringify!($ty))
                })
            }
        }
    };
}

/// A struct as its fields in the order listed (which must list every field: the struct
/// expression makes a missing one a compile error here).
macro_rules! wire_struct {
    ($ty:ident { $($f:ident),+ $(,)? }) => {
        impl Wire for $ty {
            fn put(&self, w: &mut Writer) {
                $( self.$f.put(w); )+
            }
            fn get(r: &mut Reader<'_>) -> Result<Self, Refusal> {
                Ok($ty { $( $f: Wire::get(r)?, )+ })
            }
        }
    };
}

wire_enum!(Stage {
    Vertex,
    TessControl,
    TessEvaluation,
    Geometry,
    Fragment,
    Compute
});
wire_enum!(ScalarKind {
    Float,
    Double,
    Int,
    UInt,
    Bool,
    Int64,
    UInt64
});
wire_enum!(SampledKind { Float, Int, UInt });
wire_enum!(SamplerDim {
    D1,
    D2,
    D3,
    Cube,
    Rect,
    Buffer,
    D1Array,
    D2Array,
    CubeArray,
    D2Multisample,
    D2MultisampleArray,
});
wire_struct!(SamplerType { dim, kind, shadow });

const ALL_STAGES: [Stage; 6] = [
    Stage::Vertex,
    Stage::TessControl,
    Stage::TessEvaluation,
    Stage::Geometry,
    Stage::Fragment,
    Stage::Compute,
];

impl Wire for StageMask {
    fn put(&self, w: &mut Writer) {
        let bits = ALL_STAGES
            .iter()
            .enumerate()
            .filter(|(_, s)| self.contains(**s))
            .fold(0u8, |bits, (i, _)| bits | 1 << i);
        w.u8(bits);
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, Refusal> {
        let bits = r.u8()?;
        if bits >> ALL_STAGES.len() != 0 {
            return Err(format!("{bits:#x} is not a set of stages"));
        }
        Ok(ALL_STAGES
            .iter()
            .enumerate()
            .filter(|(i, _)| bits & 1 << i != 0)
            .map(|(_, s)| *s)
            .collect())
    }
}

/// A value type as its shape (scalar kind, columns, rows); samplers and images as their type.
impl Wire for GlType {
    fn put(&self, w: &mut Writer) {
        match *self {
            GlType::Sampler(t) => {
                w.u8(1);
                t.put(w);
            }
            GlType::Image(t) => {
                w.u8(2);
                t.put(w);
            }
            other => {
                let (scalar, columns, rows) = other.shape().unwrap_or((ScalarKind::Float, 1, 1));
                w.u8(0);
                scalar.put(w);
                w.u8(columns as u8);
                w.u8(rows as u8);
            }
        }
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, Refusal> {
        match r.u8()? {
            0 => {
                let scalar = ScalarKind::get(r)?;
                let (columns, rows) = (u32::from(r.u8()?), u32::from(r.u8()?));
                GlType::from_shape(scalar, columns, rows)
                    .ok_or_else(|| format!("no {scalar:?} type has {columns}x{rows} components"))
            }
            1 => Ok(GlType::Sampler(SamplerType::get(r)?)),
            2 => Ok(GlType::Image(SamplerType::get(r)?)),
            code => Err(format!("{code} is not a type code")),
        }
    }
}

impl Wire for UniformStorage {
    fn put(&self, w: &mut Writer) {
        match *self {
            UniformStorage::Default {
                offset,
                array_stride,
                matrix_stride,
                row_major,
            } => {
                w.u8(0);
                (offset, array_stride, matrix_stride).put(w);
                row_major.put(w);
            }
            UniformStorage::Sampler(i) => {
                w.u8(1);
                i.put(w);
            }
            UniformStorage::Image(i) => {
                w.u8(2);
                i.put(w);
            }
            UniformStorage::Block {
                block,
                offset,
                array_stride,
                matrix_stride,
                row_major,
            } => {
                w.u8(3);
                block.put(w);
                (offset, array_stride, matrix_stride).put(w);
                row_major.put(w);
            }
        }
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, Refusal> {
        Ok(match r.u8()? {
            0 => {
                let (offset, array_stride, matrix_stride) = Wire::get(r)?;
                UniformStorage::Default {
                    offset,
                    array_stride,
                    matrix_stride,
                    row_major: Wire::get(r)?,
                }
            }
            1 => UniformStorage::Sampler(Wire::get(r)?),
            2 => UniformStorage::Image(Wire::get(r)?),
            3 => {
                let block = Wire::get(r)?;
                let (offset, array_stride, matrix_stride) = Wire::get(r)?;
                UniformStorage::Block {
                    block,
                    offset,
                    array_stride,
                    matrix_stride,
                    row_major: Wire::get(r)?,
                }
            }
            code => return Err(format!("{code} is not a uniform storage code")),
        })
    }
}

impl Wire for LayoutBinding {
    fn put(&self, w: &mut Writer) {
        (self.binding, self.ty.as_raw(), self.count).put(w);
        w.u32(self.stages.as_raw());
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, Refusal> {
        let (binding, ty, count): (u32, i32, u32) = Wire::get(r)?;
        let ty = vk::DescriptorType::from_raw(ty);
        let known = [
            vk::DescriptorType::UNIFORM_BUFFER,
            vk::DescriptorType::UNIFORM_BUFFER_DYNAMIC,
            vk::DescriptorType::COMBINED_IMAGE_SAMPLER,
            vk::DescriptorType::UNIFORM_TEXEL_BUFFER,
            vk::DescriptorType::STORAGE_BUFFER,
            vk::DescriptorType::STORAGE_IMAGE,
        ];
        if !known.contains(&ty) {
            return Err(format!(
                "descriptor type {} is not one a program uses",
                ty.as_raw()
            ));
        }
        let stages = vk::ShaderStageFlags::from_raw(r.u32()?);
        if !(vk::ShaderStageFlags::ALL_GRAPHICS | vk::ShaderStageFlags::COMPUTE).contains(stages) {
            return Err(format!("{:#x} is not a set of stages", stages.as_raw()));
        }
        Ok(Self {
            binding,
            ty,
            count,
            stages,
        })
    }
}

/// The capture layout: what `glGetTransformFeedbackVarying` reports and the buffers' strides and
/// streams (the copies a link rewrote the stage with are in the SPIR-V already).
impl Wire for XfbLayout {
    fn put(&self, w: &mut Writer) {
        self.varyings.put(w);
        self.strides.put(w);
        self.streams.put(w);
        self.uses_streams.put(w);
        self.separate.put(w);
    }
    fn get(r: &mut Reader<'_>) -> Result<Self, Refusal> {
        let mut layout = XfbLayout::default();
        layout.varyings = Wire::get(r)?;
        layout.strides = Wire::get(r)?;
        layout.streams = Wire::get(r)?;
        layout.uses_streams = Wire::get(r)?;
        layout.separate = Wire::get(r)?;
        Ok(layout)
    }
}

wire_struct!(XfbVarying {
    name,
    gl_type,
    size,
    buffer,
    offset
});
wire_struct!(XfbRequest { varyings, separate });
wire_struct!(SubroutineFunction { name, index });
wire_struct!(SubroutineUniform {
    name,
    location,
    size,
    compatible
});
wire_struct!(StageSubroutines {
    functions,
    uniforms
});
wire_struct!(Initializer { name, values });
wire_struct!(ActiveAttrib {
    name,
    ty,
    array_size,
    shader_location,
    gl_location,
    slots
});
wire_struct!(ActiveUniform {
    name,
    ty,
    size,
    storage,
    location
});
wire_struct!(BlockInfo {
    name,
    data_size,
    binding,
    array_size,
    stages,
    members,
    initial_binding,
    dims
});
wire_struct!(SamplerInfo {
    binding,
    ty,
    count,
    initial_unit
});
wire_struct!(StorageBlockInfo {
    name,
    binding,
    count,
    stages,
    atomic_binding,
    initial_binding
});
wire_struct!(ImageInfo {
    name,
    binding,
    ty,
    count,
    stages,
    initial_unit
});
wire_struct!(FfUniform {
    name,
    offset,
    array_stride,
    matrix_stride,
    count
});
wire_struct!(Code { stages, sets });
wire_struct!(LinkInput {
    units,
    attrib_bindings,
    frag_bindings,
    xfb,
    separable,
    spirv
});

// ---- the payload ----------------------------------------------------------------------------

/// Everything a linked program is, without its Vulkan objects (made again on load) and without
/// what its SPIR-V tells again (the tessellation and geometry layouts).
struct Saved {
    input: LinkInput,
    code: Code,
    attribs: Vec<ActiveAttrib>,
    uniforms: Vec<ActiveUniform>,
    locations: Vec<(usize, u32)>,
    default_block_size: u32,
    blocks: Vec<BlockInfo>,
    samplers: Vec<SamplerInfo>,
    storage_blocks: Vec<StorageBlockInfo>,
    images: Vec<ImageInfo>,
    local_size: Option<[u32; 3]>,
    frag_outputs: Vec<(String, u32, u32)>,
    frag_output_types: Vec<(GlType, Option<u32>)>,
    ff_uniforms: Vec<FfUniform>,
    initializers: Vec<Initializer>,
    frag_coord_upper_left: bool,
    legacy_depth_mode: bool,
    frag_epilogue: bool,
    pass_through: bool,
    xfb: Option<XfbLayout>,
    subroutines: Vec<(Stage, StageSubroutines)>,
}

wire_struct!(Saved {
    input,
    code,
    attribs,
    uniforms,
    locations,
    default_block_size,
    blocks,
    samplers,
    storage_blocks,
    images,
    local_size,
    frag_outputs,
    frag_output_types,
    ff_uniforms,
    initializers,
    frag_coord_upper_left,
    legacy_depth_mode,
    frag_epilogue,
    pass_through,
    xfb,
    subroutines,
});

/// SPIR-V's magic number, the first word of every module.
const SPIRV_MAGIC: u32 = 0x0723_0203;

impl Saved {
    fn of(linked: &Linked, input: &LinkInput) -> Self {
        Self {
            input: input.clone(),
            code: linked.code.clone(),
            attribs: linked.attribs.clone(),
            uniforms: linked.uniforms.clone(),
            locations: linked.locations.clone(),
            default_block_size: linked.default_block_size,
            blocks: linked.blocks.clone(),
            samplers: linked.samplers.clone(),
            storage_blocks: linked.storage_blocks.clone(),
            images: linked.images.clone(),
            local_size: linked.local_size,
            frag_outputs: linked.frag_outputs.clone(),
            frag_output_types: linked.frag_output_types.clone(),
            ff_uniforms: linked.ff_uniforms.clone(),
            initializers: linked.initializers.clone(),
            frag_coord_upper_left: linked.frag_coord_upper_left,
            legacy_depth_mode: linked.legacy_depth_mode,
            frag_epilogue: linked.frag_epilogue,
            pass_through: linked.pass_through.is_some(),
            xfb: linked.xfb.clone(),
            subroutines: linked.subroutines.clone(),
        }
    }

    /// Refuses tables that point outside each other, or code that is not SPIR-V: what draws and
    /// uniform commands index with must be in range.
    fn check(&self) -> Result<(), Refusal> {
        let bad = |what: &str| Err(format!("the binary's {what} is out of range"));
        if self.code.stages.is_empty()
            || self
                .code
                .stages
                .iter()
                .any(|(_, words)| words.first() != Some(&SPIRV_MAGIC))
        {
            return bad("code");
        }
        for u in &self.uniforms {
            let ok = match u.storage {
                UniformStorage::Default { offset, .. } => offset < self.default_block_size,
                UniformStorage::Sampler(i) => i < self.samplers.len(),
                UniformStorage::Image(i) => i < self.images.len(),
                UniformStorage::Block { block, .. } => block < self.blocks.len(),
            };
            if !ok {
                return bad("uniform storage");
            }
        }
        let uniforms = self.uniforms.len();
        // `usize::MAX` marks a location no active uniform holds (`uniform_locations`).
        if self
            .locations
            .iter()
            .any(|&(u, _)| u >= uniforms && u != usize::MAX)
            || self
                .blocks
                .iter()
                .any(|b| b.members.iter().any(|&m| m >= uniforms))
        {
            return bad("uniform table");
        }
        if self.pass_through && !self.has_stage(Stage::TessEvaluation) {
            return bad("tessellation state");
        }
        Ok(())
    }

    fn has_stage(&self, stage: Stage) -> bool {
        self.code.stages.iter().any(|(s, _)| *s == stage)
    }

    fn spirv(&self, stage: Stage) -> Option<&[u32]> {
        self.code
            .stages
            .iter()
            .find(|(s, _)| *s == stage)
            .map(|(_, w)| w.as_slice())
    }

    /// The program on `device`: its Vulkan objects made from the saved code.
    fn into_linked(self, device: &Arc<Device>) -> Result<(Linked, LinkInput), LinkError> {
        let tess = glsl::tess::TessLayout::of_stages(
            self.code.stages.iter().map(|(s, w)| (*s, w.as_slice())),
        );
        let geometry = self
            .spirv(Stage::Geometry)
            .map(glsl::geometry::GeometryLayout::of);
        let pass_through = match self.spirv(Stage::TessEvaluation) {
            Some(tes) if self.pass_through => Some(PassThroughControl::new(tes)?),
            _ => None,
        };
        let objects = link::vulkan_layout(device, &self.code)?;
        let generation = objects.generation();
        let (modules, set_layouts, pipeline_layout) = objects.take();
        let linked = Linked {
            modules,
            attribs: self.attribs,
            uniforms: self.uniforms,
            locations: self.locations,
            default_block_size: self.default_block_size,
            blocks: self.blocks,
            samplers: self.samplers,
            storage_blocks: self.storage_blocks,
            images: self.images,
            local_size: self.local_size,
            set_layouts,
            pipeline_layout,
            frag_outputs: self.frag_outputs,
            frag_output_types: self.frag_output_types,
            ff_uniforms: self.ff_uniforms,
            initializers: self.initializers,
            frag_coord_upper_left: self.frag_coord_upper_left,
            legacy_depth_mode: self.legacy_depth_mode,
            frag_epilogue: self.frag_epilogue,
            blend_support: glsl::blend_advanced::program_support(&self.input.units),
            tess,
            pass_through,
            writes_viewport_index: glsl::layer_viewport::writes_viewport_index(
                self.code.stages.iter().map(|(s, w)| (*s, w.as_slice())),
            ),
            pushes_draw_parameters: glsl::draw_parameters::pushed(
                self.code.stages.iter().map(|(s, w)| (*s, w.as_slice())),
            ),
            geometry,
            xfb: self.xfb,
            subroutines: self.subroutines,
            code: self.code,
            id: link::next_program_id(),
            pipelines_built: AtomicBool::new(false),
            generation,
            device: device.clone(),
        };
        Ok((linked, self.input))
    }
}

impl Linked {
    /// The same program made again on the device now in use, from its SPIR-V and tables as a
    /// program binary loads (after a recovery replaced the device its objects were made on).
    pub(crate) fn remade(&self, device: &Arc<Device>) -> Result<Linked, LinkError> {
        Saved::of(self, &LinkInput::default())
            .into_linked(device)
            .map(|(linked, _)| linked)
    }
}

// ---- the header -----------------------------------------------------------------------------

/// What a binary must have been made by and for.
#[derive(Debug, PartialEq, Eq)]
struct Origin {
    format_version: u32,
    crate_version: String,
    pipeline_cache_uuid: [u8; 16],
    driver_version: u32,
    /// [`fingerprint`] of the device capabilities.
    caps: u64,
}

impl Origin {
    fn of(device: &Device) -> Self {
        let (pipeline_cache_uuid, driver_version) = {
            let locked = device.lock();
            let info = locked.manager.device_info();
            (info.pipeline_cache_uuid, info.driver_version)
        };
        Self {
            format_version: FORMAT_VERSION,
            crate_version: env!("CARGO_PKG_VERSION").to_owned(),
            pipeline_cache_uuid,
            driver_version,
            caps: fingerprint(format!("{:?}", device.caps()).as_bytes()),
        }
    }

    fn put(&self, w: &mut Writer) {
        w.bytes(&MAGIC);
        w.u32(self.format_version);
        self.crate_version.put(w);
        w.bytes(&self.pipeline_cache_uuid);
        w.u32(self.driver_version);
        w.u64(self.caps);
    }

    /// Reads the header and refuses one that is not `self`, naming what differs.
    fn expect(&self, r: &mut Reader<'_>) -> Result<(), Refusal> {
        if r.array::<4>().ok() != Some(MAGIC) {
            return Err("not an ArenaGL program binary".into());
        }
        let version = r.u32()?;
        if version != self.format_version {
            return Err(format!(
                "binary format version {version}, this ArenaGL reads version {}",
                self.format_version
            ));
        }
        let crate_version = String::get(r)?;
        if crate_version != self.crate_version {
            return Err(format!(
                "made by ArenaGL {crate_version}, this is ArenaGL {}",
                self.crate_version
            ));
        }
        if r.array::<16>()? != self.pipeline_cache_uuid || r.u32()? != self.driver_version {
            return Err("made on another device or driver version".into());
        }
        if r.u64()? != self.caps {
            return Err("made for other device capabilities".into());
        }
        Ok(())
    }
}

/// FNV-1a, 64 bits: the payload's checksum and the capabilities' fingerprint.
fn fingerprint(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The binary of `linked` (linked from `input`), for a device of `origin`.
fn encode(origin: &Origin, linked: &Linked, input: &LinkInput) -> Vec<u8> {
    let mut payload = Writer::default();
    Saved::of(linked, input).put(&mut payload);
    let mut w = Writer::default();
    origin.put(&mut w);
    w.u32(payload.0.len() as u32);
    w.u64(fingerprint(&payload.0));
    w.bytes(&payload.0);
    w.0
}

/// The saved program of `bytes`, or why it cannot be loaded for a device of `origin`.
fn decode(origin: &Origin, bytes: &[u8]) -> Result<Saved, Refusal> {
    let mut r = Reader { rest: bytes };
    origin.expect(&mut r)?;
    let len = r.u32()? as usize;
    let checksum = r.u64()?;
    if len != r.rest.len() {
        return Err(format!(
            "the payload should be {len} bytes and is {}",
            r.rest.len()
        ));
    }
    if fingerprint(r.rest) != checksum {
        return Err("the payload is corrupt (checksum mismatch)".into());
    }
    let saved = Saved::get(&mut r)?;
    if !r.rest.is_empty() {
        return Err(format!("{} bytes follow the program", r.rest.len()));
    }
    saved.check()?;
    Ok(saved)
}

// ---- the commands ---------------------------------------------------------------------------

impl Context {
    /// `GL_PROGRAM_BINARY_LENGTH`: 0 for a program without a successful link.
    pub(crate) fn program_binary_length(&self, name: u32) -> GlResult<i32> {
        Ok(self
            .saved_binary(name)?
            .map_or(0, |b| i32::try_from(b.len()).unwrap_or(i32::MAX)))
    }

    /// The binary of program `name`'s executable; `None` when its last link failed.
    fn saved_binary(&self, name: u32) -> GlResult<Option<Vec<u8>>> {
        let p = self.program_ref(name)?;
        Ok(match (&p.linked, &p.link_input, p.link_status) {
            (Some(linked), Some(input), true) => {
                Some(encode(&Origin::of(&self.device), linked, input))
            }
            _ => None,
        })
    }

    /// `glGetProgramBinary`: the binary and its format. `GL_INVALID_OPERATION` when the program
    /// is not linked or the binary is longer than `buf_size`.
    pub fn get_program_binary(&mut self, name: u32, buf_size: i32) -> Option<(Vec<u8>, GLenum)> {
        let r = (|| {
            if buf_size < 0 {
                return invalid_value(format!("glGetProgramBinary: bufSize {buf_size} < 0"));
            }
            let Some(bytes) = self.saved_binary(name)? else {
                return invalid_op("glGetProgramBinary: the program is not linked");
            };
            if bytes.len() > buf_size as usize {
                return invalid_op(format!(
                    "glGetProgramBinary: the binary takes {} bytes, bufSize is {buf_size}",
                    bytes.len()
                ));
            }
            Ok((bytes, FORMAT))
        })();
        self.record(r)
    }

    /// `glProgramBinary`: loads `binary` as program `name`'s executable, as a link would; one
    /// that does not load leaves the link status false and says why in the info log.
    pub fn program_binary(&mut self, name: u32, format: GLenum, binary: &[u8], length: i32) {
        let r = (|| {
            self.program_ref(name)?;
            if length < 0 {
                return invalid_value(format!("glProgramBinary: length {length} < 0"));
            }
            if format != FORMAT {
                return invalid_enum("glProgramBinary binaryFormat", format);
            }
            if name == self.program {
                self.refuse_while_capturing("glProgramBinary of the current program")?;
            }
            let result = decode(&Origin::of(&self.device), binary)
                .map_err(|why| LinkError::Log(format!("ERROR: glProgramBinary: {why}\n")))
                .and_then(|saved| saved.into_linked(&self.device));
            let (result, input) = match result {
                Ok((linked, input)) => (Ok((linked, String::new())), input),
                Err(e) => (Err(e), LinkInput::default()),
            };
            let separable = input.separable;
            let loaded = result.is_ok();
            self.install_link(name, input, result)?;
            if loaded {
                self.program_mut(name)?.separable = separable;
            }
            Ok(())
        })();
        self.record(r);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn origin() -> Origin {
        Origin {
            format_version: FORMAT_VERSION,
            crate_version: "1.2.3".into(),
            pipeline_cache_uuid: [7; 16],
            driver_version: 42,
            caps: 9,
        }
    }

    fn sample() -> Saved {
        let sampler = SamplerType {
            dim: SamplerDim::D2Array,
            kind: SampledKind::Int,
            shadow: false,
        };
        Saved {
            input: LinkInput {
                units: vec![(Stage::Vertex, "void main() {}".into())],
                attrib_bindings: [("pos".to_owned(), 3)].into_iter().collect(),
                frag_bindings: [("c".to_owned(), (1, 0))].into_iter().collect(),
                xfb: XfbRequest {
                    varyings: vec!["v".into()],
                    separate: true,
                },
                separable: true,
                spirv: vec![(Stage::Fragment, vec![SPIRV_MAGIC, 7])],
            },
            code: Code {
                stages: vec![
                    (Stage::Vertex, vec![SPIRV_MAGIC, 1, 2]),
                    (Stage::Fragment, vec![SPIRV_MAGIC]),
                ],
                sets: [
                    vec![LayoutBinding {
                        binding: 2,
                        ty: vk::DescriptorType::COMBINED_IMAGE_SAMPLER,
                        count: 4,
                        stages: vk::ShaderStageFlags::FRAGMENT,
                    }],
                    Vec::new(),
                ],
            },
            attribs: vec![ActiveAttrib {
                name: "pos".into(),
                ty: GlType::DMat3x4,
                array_size: Some(2),
                shader_location: 1,
                gl_location: 3,
                slots: 6,
            }],
            uniforms: vec![
                ActiveUniform {
                    name: "s[0]".into(),
                    ty: GlType::Sampler(sampler),
                    size: 4,
                    storage: UniformStorage::Sampler(0),
                    location: Some(0),
                },
                ActiveUniform {
                    name: "m".into(),
                    ty: GlType::Mat2,
                    size: 1,
                    storage: UniformStorage::Default {
                        offset: 16,
                        array_stride: 0,
                        matrix_stride: 16,
                        row_major: true,
                    },
                    location: None,
                },
            ],
            // A free location (`uniform_locations::FREE`) between two used ones.
            locations: vec![(0, 0), (usize::MAX, 0), (0, 1)],
            default_block_size: 48,
            blocks: Vec::new(),
            samplers: vec![SamplerInfo {
                binding: 2,
                ty: sampler,
                count: 4,
                initial_unit: 5,
            }],
            storage_blocks: Vec::new(),
            images: Vec::new(),
            local_size: None,
            frag_outputs: vec![("c".into(), 1, 0)],
            frag_output_types: vec![(GlType::Vec4, None)],
            ff_uniforms: Vec::new(),
            initializers: vec![Initializer {
                name: "m".into(),
                values: vec![1.0, -0.5, f64::MAX, 0.0],
            }],
            frag_coord_upper_left: true,
            legacy_depth_mode: false,
            frag_epilogue: true,
            pass_through: false,
            xfb: None,
            subroutines: vec![(
                Stage::Fragment,
                StageSubroutines {
                    functions: vec![SubroutineFunction {
                        name: "f".into(),
                        index: 0,
                    }],
                    uniforms: Vec::new(),
                },
            )],
        }
    }

    fn encoded(saved: &Saved) -> Vec<u8> {
        let mut payload = Writer::default();
        saved.put(&mut payload);
        let mut w = Writer::default();
        origin().put(&mut w);
        w.u32(payload.0.len() as u32);
        w.u64(fingerprint(&payload.0));
        w.bytes(&payload.0);
        w.0
    }

    fn payload_of(saved: &Saved) -> Vec<u8> {
        let mut w = Writer::default();
        saved.put(&mut w);
        w.0
    }

    #[test]
    fn a_binary_reads_back_as_written() {
        let bytes = encoded(&sample());
        let back = decode(&origin(), &bytes).expect("decodes");
        assert_eq!(payload_of(&back), payload_of(&sample()));
        assert_eq!(back.input, sample().input);
        assert_eq!(back.code, sample().code);
        assert_eq!(back.initializers, sample().initializers);
        assert_eq!(
            back.locations,
            sample().locations,
            "a free location stays free"
        );
    }

    #[test]
    fn another_origin_is_refused_by_name() {
        let bytes = encoded(&sample());
        let mut other = origin();
        other.driver_version = 43;
        let why = decode(&other, &bytes).err().expect("refused");
        assert!(why.contains("driver"), "{why}");
        let mut other = origin();
        other.crate_version = "1.2.4".into();
        let why = decode(&other, &bytes).err().expect("refused");
        assert!(why.contains("ArenaGL 1.2.3"), "{why}");
        let why = decode(&origin(), b"ELF\x7f").err().expect("refused");
        assert!(why.contains("not an ArenaGL"), "{why}");
    }

    #[test]
    fn every_truncation_is_refused() {
        let bytes = encoded(&sample());
        for n in 0..bytes.len() {
            assert!(decode(&origin(), &bytes[..n]).is_err(), "{n} bytes");
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(decode(&origin(), &longer).is_err());
    }

    #[test]
    fn every_flipped_byte_is_refused() {
        let bytes = encoded(&sample());
        for i in 0..bytes.len() {
            for bit in [0x01, 0x80] {
                let mut b = bytes.clone();
                b[i] ^= bit;
                assert!(decode(&origin(), &b).is_err(), "byte {i} bit {bit:#x}");
            }
        }
    }

    #[test]
    fn a_payload_with_valid_checksum_but_bad_tables_is_refused() {
        let mut s = sample();
        s.locations.push((9, 0));
        assert!(decode(&origin(), &encoded(&s))
            .err()
            .expect("refused")
            .contains("out of range"));
        let mut s = sample();
        s.uniforms[0].storage = UniformStorage::Sampler(1);
        assert!(decode(&origin(), &encoded(&s)).is_err());
        let mut s = sample();
        s.code.stages[0].1[0] = 0;
        assert!(decode(&origin(), &encoded(&s)).is_err());
    }

    #[test]
    fn arbitrary_payloads_never_panic() {
        // Payloads with a valid header and checksum but arbitrary bytes: the decoder must refuse
        // (or accept) without panicking or allocating beyond the input.
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let sample_payload = payload_of(&sample());
        for round in 0..2000 {
            let mut payload = sample_payload.clone();
            let flips = 1 + round % 8;
            for _ in 0..flips {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let at = (seed % payload.len() as u64) as usize;
                payload[at] = (seed >> 32) as u8;
            }
            payload.truncate(payload.len() - (round % 5));
            let mut w = Writer::default();
            origin().put(&mut w);
            w.u32(payload.len() as u32);
            w.u64(fingerprint(&payload));
            w.bytes(&payload);
            let _ = decode(&origin(), &w.0);
        }
    }

    #[test]
    fn every_type_keeps_its_shape() {
        for scalar in [ScalarKind::Float, ScalarKind::Double, ScalarKind::UInt64] {
            for columns in 1..=4 {
                for rows in 1..=4 {
                    let Some(t) = GlType::from_shape(scalar, columns, rows) else {
                        continue;
                    };
                    let mut w = Writer::default();
                    t.put(&mut w);
                    let back = GlType::get(&mut Reader { rest: &w.0 }).expect("decodes");
                    assert_eq!(back, t);
                }
            }
        }
    }
}
