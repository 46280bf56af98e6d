//! Program reflection for the GL layer, read from the linked program's SPIR-V.
//!
//! Design decisions:
//! - The source is the SPIR-V itself (glslang-sys has no reflection entry points): what is
//!   reported is exactly what the pipeline layout and vertex input state must match.
//! - Only *active* resources are reported, as GL does: a sampler or block glslang left without a
//!   binding (not statically used) is skipped, so are built-ins (`gl_VertexID`, `gl_Position`).
//! - Resources are merged across stages by name (the resolver assigned them one binding by name);
//!   each carries the mask of stages that use it, for descriptor-set-layout stage flags.
//! - Block members are flattened the way the GL API names them: `s.field`, `arr[2].field`; an
//!   array of non-struct type is one entry with `array_size` and `array_stride`, so
//!   `glUniform*` becomes a write at `offset + i * array_stride`.
//! - Two resources on one (set, binding) — possible when explicit `layout(binding)` values run
//!   past the per-kind binding ranges — is a link error, never silent aliasing.
//! - Every malformed or unexpected construct is an error value (`Internal`), never a panic.
#![deny(unsafe_code, clippy::unwrap_used, clippy::expect_used)]

use std::collections::{BTreeMap, HashMap};

use super::spirv::{decoration as deco, Dim, ImageType, Module, StorageClass, Type};
use super::types::{GlType, SampledKind, SamplerDim, SamplerType, ScalarKind};
use super::{CompileError, Stage, StageMask, DEFAULT_BLOCK_NAME};

/// The most block members (after flattening arrays of structs, counted over every stage's view of
/// its blocks) one program may have: a bound on the work a hostile `uniform S s[100000];` causes.
pub const MAX_FLATTENED_MEMBERS: usize = 65_536;

/// A vertex shader input (`glGetActiveAttrib`, `glGetAttribLocation`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attribute {
    pub name: String,
    /// The first location; a matrix or array takes consecutive locations from here.
    pub location: u32,
    pub ty: GlType,
    pub array_size: Option<u32>,
}

/// A fragment shader output (`glGetFragDataLocation`, `glGetFragDataIndex`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FragOutput {
    pub name: String,
    pub location: u32,
    /// The dual-source blending index (0 unless `layout(index = 1)`).
    pub index: u32,
    pub ty: GlType,
    pub array_size: Option<u32>,
}

/// One uniform inside a block, with the byte layout `glUniform*` writes by.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlockMember {
    /// The GL API name: `color`, `light.position`, `lights[2].color`, `Block.member`.
    pub name: String,
    pub ty: GlType,
    /// Byte offset from the start of the block.
    pub offset: u32,
    pub array_size: Option<u32>,
    /// Bytes between array elements; 0 when not an array.
    pub array_stride: u32,
    /// Bytes between matrix columns (rows when `row_major`); 0 when not a matrix.
    pub matrix_stride: u32,
    pub row_major: bool,
}

/// A uniform block: the default one (loose uniforms) or a named `uniform Block { … }`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UniformBlock {
    /// The block name GL uses (`glGetUniformBlockIndex`); for the default block,
    /// [`DEFAULT_BLOCK_NAME`].
    pub name: String,
    pub set: u32,
    pub binding: u32,
    /// `GL_UNIFORM_BLOCK_DATA_SIZE`: the end of the last member, rounded up to 16 bytes.
    pub size: u32,
    /// `uniform B { … } b[4];` is four GL blocks on one binding with four descriptors.
    pub array_size: Option<u32>,
    /// `b[2][4]`: every level's length, outermost first (`array_size` is their product, the
    /// elements in GL's order); empty for a block or a one-dimensional array of blocks.
    pub dims: Vec<u32>,
    pub stages: StageMask,
    pub members: Vec<BlockMember>,
}

/// A sampler uniform (`uniform sampler2D tex;`): a combined image sampler descriptor.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SamplerUniform {
    pub name: String,
    pub set: u32,
    pub binding: u32,
    pub ty: SamplerType,
    /// `uniform sampler2D t[4];` is one binding with four descriptors.
    pub array_size: Option<u32>,
    /// `t[2][3]`: every level's length, outermost first (`array_size` is their product, the
    /// elements in GL's order); empty for a sampler or a one-dimensional array of them.
    pub dims: Vec<u32>,
    pub stages: StageMask,
}

/// The name glslang gives the storage block that holds the atomic counters of GL binding `N`
/// (`gl_AtomicCounterBlock_N`): under Vulkan's relaxed rules it turns each
/// `layout(binding = N) uniform atomic_uint` into a `uint` member of that block, in declaration
/// order, and the counter functions into atomics on it.
pub const ATOMIC_COUNTER_BLOCK_PREFIX: &str = "gl_AtomicCounterBlock_";

/// A shader storage block (`buffer Block { … };`), or the block of one atomic-counter binding
/// (see [`ATOMIC_COUNTER_BLOCK_PREFIX`]): a storage buffer descriptor.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StorageBlock {
    /// The block name GL uses (`glGetProgramResourceIndex(GL_SHADER_STORAGE_BLOCK)`).
    pub name: String,
    pub set: u32,
    pub binding: u32,
    /// `GL_BUFFER_DATA_SIZE`: the end of the last fixed-size member (a trailing unsized array
    /// counts no element).
    pub size: u32,
    /// `buffer B { … } b[4];` is four GL blocks on one binding with four descriptors.
    pub array_size: Option<u32>,
    pub stages: StageMask,
    /// Member names in declaration order (an atomic-counter block's are its counters').
    pub members: Vec<String>,
}

/// An image uniform (`layout(rgba8) uniform image2D img;`): a storage image descriptor.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImageUniform {
    pub name: String,
    pub set: u32,
    pub binding: u32,
    /// Dimensionality and component kind (`shadow` is always false).
    pub ty: SamplerType,
    /// The SPIR-V image format of its format qualifier (0: none).
    pub format: u32,
    pub array_size: Option<u32>,
    pub stages: StageMask,
}

/// Everything the GL layer needs to know about a linked program's interface.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reflection {
    /// Sorted by location.
    pub attributes: Vec<Attribute>,
    /// Sorted by (location, index).
    pub frag_outputs: Vec<FragOutput>,
    /// The loose uniforms, if the program has any.
    pub default_block: Option<UniformBlock>,
    /// Named uniform blocks, sorted by (set, binding).
    pub uniform_blocks: Vec<UniformBlock>,
    /// Sorted by (set, binding).
    pub samplers: Vec<SamplerUniform>,
    /// Shader storage blocks and atomic-counter blocks, sorted by (set, binding).
    pub storage_blocks: Vec<StorageBlock>,
    /// Sorted by (set, binding).
    pub images: Vec<ImageUniform>,
    /// A compute stage's `local_size_x/y/z`.
    pub local_size: Option<[u32; 3]>,
}

impl Reflection {
    /// The default block's member called `name` (exact GL name, e.g. `lights[1].color`).
    pub fn default_uniform(&self, name: &str) -> Option<&BlockMember> {
        self.default_block
            .as_ref()?
            .members
            .iter()
            .find(|m| m.name == name)
    }

    pub fn attribute(&self, name: &str) -> Option<&Attribute> {
        self.attributes.iter().find(|a| a.name == name)
    }

    pub fn uniform_block(&self, name: &str) -> Option<&UniformBlock> {
        self.uniform_blocks.iter().find(|b| b.name == name)
    }

    pub fn sampler(&self, name: &str) -> Option<&SamplerUniform> {
        self.samplers.iter().find(|s| s.name == name)
    }
}

fn internal(what: impl Into<String>) -> CompileError {
    CompileError::Internal(what.into())
}

/// Reflects the program from each stage's SPIR-V (in pipeline order).
pub(super) fn reflect(stages: &[(Stage, &[u32])]) -> Result<Reflection, CompileError> {
    let mut attributes = Vec::new();
    let mut frag_outputs = Vec::new();
    let mut blocks: BTreeMap<String, UniformBlock> = BTreeMap::new();
    let mut default_block: Option<UniformBlock> = None;
    let mut samplers: BTreeMap<String, SamplerUniform> = BTreeMap::new();
    let mut budget = MAX_FLATTENED_MEMBERS;
    let mut storage: Vec<StorageBlock> = Vec::new();
    let mut images: Vec<ImageUniform> = Vec::new();
    let mut local_size = None;

    for &(stage, words) in stages {
        let module = Module::parse(words)
            .map_err(|e| internal(format!("{stage:?} SPIR-V unreadable: {e}")))?;
        let reader = Reader { module: &module };
        if stage == Stage::Compute {
            local_size = module
                .execution_modes
                .iter()
                .find(|(_, mode, ops)| *mode == EXECUTION_MODE_LOCAL_SIZE && ops.len() >= 3)
                .map(|(_, _, ops)| [ops[0], ops[1], ops[2]]);
        }
        for var in &module.variables {
            let Some(Type::Pointer { pointee, .. }) = module.types.get(&var.pointer_type) else {
                return Err(internal(format!("variable %{} is not a pointer", var.id)));
            };
            let descriptor = matches!(
                var.storage,
                StorageClass::UniformConstant | StorageClass::Uniform | StorageClass::StorageBuffer
            );
            // A descriptor array of arrays is one flat binding (`arrays_of_arrays`).
            let (ty, array_size, dims) = match super::arrays_of_arrays::levels(&module, *pointee) {
                Some(_) if descriptor && !super::arrays_of_arrays::referenced(words, var.id) => {
                    continue;
                }
                Some((dims, element)) if descriptor => {
                    let total = dims.iter().try_fold(1u32, |a, d| a.checked_mul(*d));
                    let total = total.ok_or_else(|| internal("array of arrays too large"))?;
                    (element, Some(total), dims)
                }
                _ => {
                    let (ty, array_size) = reader.peel_array(*pointee)?;
                    (ty, array_size, Vec::new())
                }
            };
            let name = module.name(var.id).to_owned();
            match var.storage {
                StorageClass::Input if stage == Stage::Vertex => {
                    if module.has_decoration(var.id, deco::BUILT_IN) {
                        continue;
                    }
                    let location = module
                        .decoration(var.id, deco::LOCATION)
                        .ok_or_else(|| internal(format!("attribute {name} has no location")))?;
                    attributes.push(Attribute {
                        ty: reader.gl_type(ty)?,
                        name,
                        location,
                        array_size,
                    });
                }
                StorageClass::Output if stage == Stage::Fragment => {
                    if module.has_decoration(var.id, deco::BUILT_IN) {
                        continue;
                    }
                    let location = module
                        .decoration(var.id, deco::LOCATION)
                        .ok_or_else(|| internal(format!("output {name} has no location")))?;
                    frag_outputs.push(FragOutput {
                        ty: reader.gl_type(ty)?,
                        index: module.decoration(var.id, deco::INDEX).unwrap_or(0),
                        name,
                        location,
                        array_size,
                    });
                }
                StorageClass::UniformConstant => {
                    let Some(binding) = module.decoration(var.id, deco::BINDING) else {
                        continue; // inactive
                    };
                    let set = module.decoration(var.id, deco::DESCRIPTOR_SET).unwrap_or(0);
                    if let Some(Type::Image(image)) = module.types.get(&ty) {
                        let image = ImageUniform {
                            name,
                            set,
                            binding,
                            ty: reader.sampler_type(ty)?,
                            format: image.format,
                            array_size,
                            stages: StageMask::of(stage),
                        };
                        merge_by_name(&mut images, image, |i| &mut i.stages, |i| &i.name)?;
                        continue;
                    }
                    let Some(Type::SampledImage { image }) = module.types.get(&ty) else {
                        tracing::warn!(
                            name,
                            "uniform of an opaque type other than a sampler is not reflected yet"
                        );
                        continue;
                    };
                    let sampler_ty = reader.sampler_type(*image)?;
                    let entry = samplers.entry(name.clone()).or_insert(SamplerUniform {
                        name,
                        set,
                        binding,
                        ty: sampler_ty,
                        array_size,
                        dims: dims.clone(),
                        stages: StageMask::default(),
                    });
                    if (entry.set, entry.binding, entry.ty) != (set, binding, sampler_ty) {
                        return Err(internal(format!(
                            "sampler {} differs between stages",
                            entry.name
                        )));
                    }
                    entry.stages.insert(stage);
                }
                StorageClass::Uniform if module.has_decoration(ty, deco::BUFFER_BLOCK) => {
                    if let Some(block) = reader.storage_block(var.id, ty, array_size, stage)? {
                        merge_by_name(&mut storage, block, |b| &mut b.stages, |b| &b.name)?;
                    }
                }
                StorageClass::Uniform => {
                    if !module.has_decoration(ty, deco::BLOCK) {
                        tracing::warn!(name, "a uniform variable that is not a block");
                        continue;
                    }
                    let Some(binding) = module.decoration(var.id, deco::BINDING) else {
                        continue; // inactive
                    };
                    let set = module.decoration(var.id, deco::DESCRIPTOR_SET).unwrap_or(0);
                    let block_name = module.name(ty).to_owned();
                    let is_default = block_name == DEFAULT_BLOCK_NAME;
                    // Members of a block with an instance name are still `Block.member` to GL.
                    let prefix = if is_default || name.is_empty() {
                        String::new()
                    } else {
                        block_name.clone()
                    };
                    let mut members = Vec::new();
                    reader.flatten_struct(ty, &prefix, 0, &mut members, &mut budget)?;
                    let size = reader
                        .size_of(ty, 0, false)?
                        .checked_next_multiple_of(16)
                        .ok_or_else(|| internal("block size overflows"))?;
                    let block = UniformBlock {
                        name: block_name.clone(),
                        set,
                        binding,
                        size,
                        array_size,
                        dims: dims.clone(),
                        stages: StageMask::of(stage),
                        members,
                    };
                    let slot = if is_default {
                        &mut default_block
                    } else {
                        // A block of this name from an earlier stage, if any.
                        let existing = blocks.remove(&block_name);
                        let merged = merge_block(existing, block)?;
                        blocks.insert(block_name, merged);
                        continue;
                    };
                    *slot = Some(merge_block(slot.take(), block)?);
                }
                StorageClass::StorageBuffer => {
                    if let Some(block) = reader.storage_block(var.id, ty, array_size, stage)? {
                        merge_by_name(&mut storage, block, |b| &mut b.stages, |b| &b.name)?;
                    }
                }
                _ => {}
            }
        }
    }

    attributes.sort_by_key(|a| a.location);
    frag_outputs.sort_by_key(|o| (o.location, o.index));
    let mut uniform_blocks: Vec<UniformBlock> = blocks.into_values().collect();
    uniform_blocks.sort_by_key(|b| (b.set, b.binding));
    let mut samplers: Vec<SamplerUniform> = samplers.into_values().collect();
    samplers.sort_by_key(|s| (s.set, s.binding));

    storage.sort_by_key(|b| (b.set, b.binding));
    images.sort_by_key(|i| (i.set, i.binding));
    let reflection = Reflection {
        attributes,
        frag_outputs,
        default_block,
        uniform_blocks,
        samplers,
        storage_blocks: storage,
        images,
        local_size,
    };
    check_bindings_distinct(&reflection)?;
    Ok(reflection)
}

/// `OpExecutionMode … LocalSize x y z`.
const EXECUTION_MODE_LOCAL_SIZE: u32 = 17;

/// Adds `item` to `all`, or merges its stage into the entry of the same name, which must
/// otherwise be equal (glslang assigned resources one binding by name).
fn merge_by_name<T: PartialEq>(
    all: &mut Vec<T>,
    mut item: T,
    stages: impl Fn(&mut T) -> &mut StageMask,
    name: impl Fn(&T) -> &String,
) -> Result<(), CompileError> {
    let Some(existing) = all.iter_mut().find(|e| name(e) == name(&item)) else {
        all.push(item);
        return Ok(());
    };
    let union = stages(existing).union(*stages(&mut item));
    *stages(&mut item) = *stages(existing);
    if *existing != item {
        return Err(internal(format!("{} differs between stages", name(&item))));
    }
    *stages(existing) = union;
    Ok(())
}

/// Two stages' views of one block. glslang merges a block's definition across stages at link
/// time, so they must agree on everything but the stage mask.
fn merge_block(
    existing: Option<UniformBlock>,
    incoming: UniformBlock,
) -> Result<UniformBlock, CompileError> {
    let Some(mut existing) = existing else {
        return Ok(incoming);
    };
    let stages = existing.stages.union(incoming.stages);
    existing.stages = incoming.stages;
    if existing != incoming {
        return Err(internal(format!(
            "block {} is laid out differently in two stages",
            existing.name
        )));
    }
    existing.stages = stages;
    Ok(existing)
}

fn check_bindings_distinct(reflection: &Reflection) -> Result<(), CompileError> {
    let mut seen: HashMap<(u32, u32), &str> = HashMap::new();
    let blocks = reflection
        .default_block
        .iter()
        .chain(&reflection.uniform_blocks)
        .map(|b| (b.set, b.binding, b.name.as_str()));
    let samplers = reflection
        .samplers
        .iter()
        .map(|s| (s.set, s.binding, s.name.as_str()));
    let storage = reflection
        .storage_blocks
        .iter()
        .map(|b| (b.set, b.binding, b.name.as_str()));
    let images = reflection
        .images
        .iter()
        .map(|i| (i.set, i.binding, i.name.as_str()));
    for (set, binding, name) in blocks.chain(samplers).chain(storage).chain(images) {
        if let Some(other) = seen.insert((set, binding), name) {
            return Err(CompileError::Link {
                log: format!(
                    "ERROR: Linking: \"{other}\" and \"{name}\" share descriptor binding \
                     {binding} of set {set}; an explicit layout(binding) is out of range\n"
                ),
            });
        }
    }
    Ok(())
}

struct Reader<'m> {
    module: &'m Module,
}

impl Reader<'_> {
    fn ty(&self, id: u32) -> Result<&Type, CompileError> {
        self.module
            .types
            .get(&id)
            .ok_or_else(|| internal(format!("type %{id} undeclared")))
    }

    /// An outermost sized array's element type and length; other types unchanged.
    fn peel_array(&self, id: u32) -> Result<(u32, Option<u32>), CompileError> {
        match self.ty(id)? {
            Type::Array { element, length } => {
                let length =
                    length.ok_or_else(|| internal(format!("array %{id} has no plain length")))?;
                Ok((*element, Some(length)))
            }
            _ => Ok((id, None)),
        }
    }

    fn scalar(&self, id: u32) -> Result<ScalarKind, CompileError> {
        match self.ty(id)? {
            Type::Float { width: 32 } => Ok(ScalarKind::Float),
            Type::Float { width: 64 } => Ok(ScalarKind::Double),
            Type::Int {
                width: 32,
                signed: true,
            } => Ok(ScalarKind::Int),
            Type::Int {
                width: 32,
                signed: false,
            } => Ok(ScalarKind::UInt),
            Type::Int {
                width: 64,
                signed: true,
            } => Ok(ScalarKind::Int64),
            Type::Int {
                width: 64,
                signed: false,
            } => Ok(ScalarKind::UInt64),
            Type::Bool => Ok(ScalarKind::Bool),
            other => Err(internal(format!("unsupported scalar type {other:?}"))),
        }
    }

    fn gl_type(&self, id: u32) -> Result<GlType, CompileError> {
        let shape = match self.ty(id)? {
            Type::Vector { component, count } => (self.scalar(*component)?, 1, *count),
            Type::Matrix { column, columns } => match self.ty(*column)? {
                Type::Vector { component, count } => (self.scalar(*component)?, *columns, *count),
                other => return Err(internal(format!("matrix column {other:?}"))),
            },
            Type::SampledImage { image } => return Ok(GlType::Sampler(self.sampler_type(*image)?)),
            _ => (self.scalar(id)?, 1, 1),
        };
        GlType::from_shape(shape.0, shape.1, shape.2)
            .ok_or_else(|| internal(format!("no GL type for {shape:?}")))
    }

    fn sampler_type(&self, image: u32) -> Result<SamplerType, CompileError> {
        let Type::Image(ImageType {
            sampled_type,
            dim,
            depth,
            arrayed,
            multisampled,
            ..
        }) = *self.ty(image)?
        else {
            return Err(internal(format!("sampled image of non-image %{image}")));
        };
        let dim = match (dim, arrayed, multisampled) {
            (Dim::D1, false, false) => SamplerDim::D1,
            (Dim::D1, true, false) => SamplerDim::D1Array,
            (Dim::D2, false, false) => SamplerDim::D2,
            (Dim::D2, true, false) => SamplerDim::D2Array,
            (Dim::D2, false, true) => SamplerDim::D2Multisample,
            (Dim::D2, true, true) => SamplerDim::D2MultisampleArray,
            (Dim::D3, false, false) => SamplerDim::D3,
            (Dim::Cube, false, false) => SamplerDim::Cube,
            (Dim::Cube, true, false) => SamplerDim::CubeArray,
            (Dim::Rect, false, false) => SamplerDim::Rect,
            (Dim::Buffer, false, false) => SamplerDim::Buffer,
            other => {
                return Err(internal(format!(
                    "unsupported sampler dimensionality {other:?}"
                )))
            }
        };
        let kind = match self.scalar(sampled_type)? {
            ScalarKind::Float => SampledKind::Float,
            ScalarKind::Int => SampledKind::Int,
            ScalarKind::UInt => SampledKind::UInt,
            other => return Err(internal(format!("sampler of {other:?}"))),
        };
        Ok(SamplerType {
            dim,
            kind,
            shadow: depth == 1,
        })
    }

    /// The storage block variable `var` of block type `ty`; None when inactive (no binding).
    fn storage_block(
        &self,
        var: u32,
        ty: u32,
        array_size: Option<u32>,
        stage: Stage,
    ) -> Result<Option<StorageBlock>, CompileError> {
        let m = self.module;
        let Some(binding) = m.decoration(var, deco::BINDING) else {
            return Ok(None);
        };
        let count = self.struct_members(ty)?.len() as u32;
        let members = (0..count)
            .map(|i| m.member_names.get(&(ty, i)).cloned().unwrap_or_default())
            .collect();
        Ok(Some(StorageBlock {
            name: m.name(ty).to_owned(),
            set: m.decoration(var, deco::DESCRIPTOR_SET).unwrap_or(0),
            binding,
            size: self.size_of(ty, 0, false)?,
            array_size,
            stages: StageMask::of(stage),
            members,
        }))
    }

    fn struct_members(&self, id: u32) -> Result<&[u32], CompileError> {
        match self.ty(id)? {
            Type::Struct { members } => Ok(members),
            other => Err(internal(format!("%{id} is {other:?}, not a struct"))),
        }
    }

    fn flatten_struct(
        &self,
        id: u32,
        prefix: &str,
        base: u32,
        out: &mut Vec<BlockMember>,
        budget: &mut usize,
    ) -> Result<(), CompileError> {
        let m = self.module;
        for (index, &member_ty) in self.struct_members(id)?.iter().enumerate() {
            let index = u32::try_from(index).map_err(|_| internal("struct too large"))?;
            let member_name = m
                .member_names
                .get(&(id, index))
                .map(String::as_str)
                .unwrap_or("");
            let name = if prefix.is_empty() {
                member_name.to_owned()
            } else {
                format!("{prefix}.{member_name}")
            };
            let offset = m
                .member_decoration(id, index, deco::OFFSET)
                .ok_or_else(|| internal(format!("member {name} has no offset")))?;
            let offset = base
                .checked_add(offset)
                .ok_or_else(|| internal("offset overflows"))?;
            let layout = MatrixLayout {
                stride: m
                    .member_decoration(id, index, deco::MATRIX_STRIDE)
                    .unwrap_or(0),
                row_major: m.has_member_decoration(id, index, deco::ROW_MAJOR),
            };
            self.flatten_value(member_ty, name, offset, layout, out, budget)?;
        }
        Ok(())
    }

    fn flatten_value(
        &self,
        id: u32,
        name: String,
        offset: u32,
        layout: MatrixLayout,
        out: &mut Vec<BlockMember>,
        budget: &mut usize,
    ) -> Result<(), CompileError> {
        match self.ty(id)? {
            Type::Struct { .. } => self.flatten_struct(id, &name, offset, out, budget),
            Type::Array { element, length } => {
                let length =
                    length.ok_or_else(|| internal(format!("array {name} has no plain length")))?;
                let stride = self
                    .module
                    .decoration(id, deco::ARRAY_STRIDE)
                    .ok_or_else(|| internal(format!("array {name} has no stride")))?;
                if matches!(self.ty(*element)?, Type::Struct { .. } | Type::Array { .. }) {
                    // GL names every element of an array of aggregates on its own.
                    for k in 0..length {
                        let at = k
                            .checked_mul(stride)
                            .and_then(|d| d.checked_add(offset))
                            .ok_or_else(|| internal("offset overflows"))?;
                        self.flatten_value(
                            *element,
                            format!("{name}[{k}]"),
                            at,
                            layout,
                            out,
                            budget,
                        )?;
                    }
                    Ok(())
                } else {
                    self.push_leaf(
                        *element,
                        name,
                        offset,
                        Some((length, stride)),
                        layout,
                        out,
                        budget,
                    )
                }
            }
            _ => self.push_leaf(id, name, offset, None, layout, out, budget),
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn push_leaf(
        &self,
        id: u32,
        name: String,
        offset: u32,
        array: Option<(u32, u32)>,
        layout: MatrixLayout,
        out: &mut Vec<BlockMember>,
        budget: &mut usize,
    ) -> Result<(), CompileError> {
        if *budget == 0 {
            return Err(CompileError::Link {
                log: format!(
                    "ERROR: Linking: more than {MAX_FLATTENED_MEMBERS} active uniforms in blocks\n"
                ),
            });
        }
        *budget -= 1;
        let ty = self.gl_type(id)?;
        let is_matrix = matches!(self.ty(id)?, Type::Matrix { .. });
        out.push(BlockMember {
            name,
            ty,
            offset,
            array_size: array.map(|(len, _)| len),
            array_stride: array.map_or(0, |(_, stride)| stride),
            matrix_stride: if is_matrix { layout.stride } else { 0 },
            row_major: is_matrix && layout.row_major,
        });
        Ok(())
    }

    /// Bytes a value of type `id` spans in a block (arrays by their stride, matrices by theirs).
    fn size_of(&self, id: u32, matrix_stride: u32, row_major: bool) -> Result<u32, CompileError> {
        let overflow = || internal("type size overflows");
        Ok(match self.ty(id)? {
            Type::Bool => 4,
            Type::Int { width, .. } | Type::Float { width } => width / 8,
            Type::Vector { component, count } => self
                .size_of(*component, 0, false)?
                .checked_mul(*count)
                .ok_or_else(overflow)?,
            Type::Matrix { column, columns } => {
                let rows = match self.ty(*column)? {
                    Type::Vector { count, .. } => *count,
                    other => return Err(internal(format!("matrix column {other:?}"))),
                };
                let vectors = if row_major { rows } else { *columns };
                vectors.checked_mul(matrix_stride).ok_or_else(overflow)?
            }
            Type::Array { length, .. } => {
                let length = length.ok_or_else(|| internal("array without plain length"))?;
                let stride = self.module.decoration(id, deco::ARRAY_STRIDE).unwrap_or(0);
                length.checked_mul(stride).ok_or_else(overflow)?
            }
            // A storage block's trailing unsized array: no element is required.
            Type::RuntimeArray { .. } => 0,
            Type::Struct { members } => {
                let mut end = 0u32;
                for (index, &member) in members.iter().enumerate() {
                    let index = u32::try_from(index).map_err(|_| overflow())?;
                    let m = self.module;
                    let offset = m.member_decoration(id, index, deco::OFFSET).unwrap_or(0);
                    let stride = m
                        .member_decoration(id, index, deco::MATRIX_STRIDE)
                        .unwrap_or(0);
                    let row_major = m.has_member_decoration(id, index, deco::ROW_MAJOR);
                    let size = self.size_of(member, stride, row_major)?;
                    end = end.max(offset.checked_add(size).ok_or_else(overflow)?);
                }
                end
            }
            other => return Err(internal(format!("no size for {other:?}"))),
        })
    }
}

#[derive(Clone, Copy)]
struct MatrixLayout {
    stride: u32,
    row_major: bool,
}
