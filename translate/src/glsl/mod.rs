//! GLSL → SPIR-V: what `glCompileShader` and `glLinkProgram` do.
//!
//! Design decisions:
//! - glslang through glslang-sys's C interface (not the safe `glslang` crate, which
//!   compiles one unit at a time and cannot link stages): all units of all stages in one glslang program, linked together, IO mapped once by a
//!   resolver + mapper so that locations and bindings agree across stages, then SPIR-V per stage.
//!   Relaxed Vulkan rules let desktop GLSL keep loose uniforms and unbound samplers.
//! - Targets: Vulkan 1.2 / SPIR-V 1.5 by default; Vulkan 1.1 / SPIR-V 1.3 for older drivers (many
//!   Android devices). Both pass `spirv-val`, and lavapipe with the validation layer accepts
//!   pipelines built from them and their reflection (`tests/glsl_pipeline.rs`).
//! - What glslang refuses for Vulkan and the legacy upgrader ([`legacy`]) rewrites first:
//!   GLSL below 1.40, the compatibility profile, and the `texture2D()`-style calls (relaxed rules
//!   reserve Vulkan GLSL's type names `texture2D`, `sampler`, … so such a call fails to parse).
//! - Descriptor placement is fixed, so that the GL layer can build layouts without guessing:
//!   loose uniforms live in one std140 block, [`DEFAULT_BLOCK_NAME`], alone in set
//!   [`DEFAULT_BLOCK_SET`] at binding [`DEFAULT_BLOCK_BINDING`] (its own set because it changes
//!   per draw while textures do not). Everything else is in set 0, each kind in its own binding
//!   range so that GL's separate binding-point namespaces (UBO binding 0 and texture unit 0 are
//!   different things) never alias: uniform blocks from [`UNIFORM_BLOCK_BINDING_BASE`], samplers
//!   from [`SAMPLER_BINDING_BASE`], images from [`IMAGE_BINDING_BASE`], storage blocks from
//!   [`STORAGE_BLOCK_BINDING_BASE`]. An explicit `layout(binding = N)` lands at base + N; the GL
//!   layer must advertise binding limits below the range widths, and a collision is a link error.
//! - Structure definitions inside uniform blocks (allowed by GL_ARB_uniform_buffer_object, refused
//!   by glslang) are hoisted in front of their block first (`block_structs`).
//! - `gl_FragCoord` layout qualifiers, which Vulkan lacks and glslang links too strictly, are
//!   lowered out of the source (`frag_coord`).
//! - Legacy fragment stages end in an epilogue unit that writes the outputs GL defines around the
//!   shader: `gl_FragColor` broadcast, the alpha test, colour clamping (`frag_epilogue`).
//! - `#version` directives that name no GLSL version are compile errors before glslang, as are,
//!   through the GL layer, versions the context does not offer (`version`).
//! - Input guards (size, NUL bytes, bracket nesting, statement length) on the source and on the
//!   preprocessed text, a static bound on macro expansion before glslang's preprocessor runs
//!   (`macros`), and glslang runs on a thread with a large stack: hostile sources get a compile
//!   error in bounded time, never a crashed or hung process (`guard` has the measurements).
//! - Reflection is read back from the SPIR-V (see `reflect`); one SPIR-V fix-up works around a
//!   glslang defect (`gl_FragData` left without a location, see `spirv`), and rectangle samplers,
//!   which Vulkan lacks, are lowered to 2D ones after reflection (`rect`).
//! - Errors distinguish permanent (the source is wrong) from transient (out of resources: retry later, never cache it).

pub mod array_index;
mod arrays_of_arrays;
mod atomic_counter_ops;
pub mod blend_advanced;
mod block_structs;
mod bounding_box;
mod clip_cull;
mod compile;
mod compute_version;
pub(crate) mod depth_remap;
mod derivative_control;
mod double_inputs;
pub mod draw_parameters;
mod error;
pub mod es;
mod es_counters;
mod es_flat;
mod extensions;
pub mod fixed_function;
mod fp64_version;
mod frag_coord;
pub mod frag_epilogue;
mod frag_outputs;
pub mod geometry;
pub mod gl_spirv;
mod gpu_shader4;
mod group_vote;
mod guard;
pub mod initializers;
mod instance_id;
pub(crate) mod layer_viewport;
pub mod layout_bindings;
pub mod legacy;
mod macros;
mod num_samples;
pub(crate) mod per_vertex;
mod pp;
mod query_levels;
mod raise;
mod rect;
mod reflect;
pub(crate) mod rendezvous;
mod scan;
mod spirv;
#[cfg(test)]
mod spirv_testing;
pub mod subroutine;
pub mod tess;
mod texture_samples;
mod types;
pub(crate) mod uniform_branches;
mod varyings;
pub(crate) mod version;
pub mod wide_inputs;
pub mod xfb;

use std::collections::HashMap;
use std::ffi::CString;

pub use block_structs::{bool_members as block_bool_members, loose_bool_uniforms};
pub use error::CompileError;
pub use es::Dialect;
pub use extensions::ExtensionSet;
pub use frag_coord::{FragCoordLayout, HEIGHT_CONSTANT as FRAG_COORD_HEIGHT_CONSTANT};
pub use frag_outputs::FragBinding;
pub use guard::{MAX_NESTING, MAX_PREPROCESSED_BYTES, MAX_SOURCE_BYTES, MAX_STATEMENT_OPERATORS};
pub use macros::MAX_MACRO_WORK;
pub use num_samples::NUM_SAMPLES_CONSTANT;
pub use pp::join_continued_lines;
pub use reflect::{
    Attribute, BlockMember, FragOutput, ImageUniform, Reflection, SamplerUniform, StorageBlock,
    UniformBlock, ATOMIC_COUNTER_BLOCK_PREFIX, MAX_FLATTENED_MEMBERS,
};
pub use types::{GlType, SampledKind, SamplerDim, SamplerType, ScalarKind};
pub use varyings::{varying_locations, VaryingUse};

/// The name glslang gives the block that collects loose (non-block, non-opaque) uniforms.
pub const DEFAULT_BLOCK_NAME: &str = "gl_DefaultUniformBlock";
/// The descriptor set of the default uniform block; nothing else is placed in it.
pub const DEFAULT_BLOCK_SET: u32 = 1;
/// The default uniform block's binding within [`DEFAULT_BLOCK_SET`].
pub const DEFAULT_BLOCK_BINDING: u32 = 0;
/// The descriptor set of every other resource.
pub const RESOURCE_SET: u32 = 0;
/// First binding of named uniform blocks (96 slots: GL 4.6 asks for 84 binding points).
pub const UNIFORM_BLOCK_BINDING_BASE: u32 = 0;
/// First binding of samplers (96 slots: GL 4.6 asks for 80 texture units).
pub const SAMPLER_BINDING_BASE: u32 = 96;
/// First binding of storage images (32 slots).
pub const IMAGE_BINDING_BASE: u32 = 192;
/// First binding of shader storage blocks (32 slots).
pub const STORAGE_BLOCK_BINDING_BASE: u32 = 224;

/// The stack glslang runs on: its tree walks recurse once per expression level (see `guard`).
const COMPILER_STACK_BYTES: usize = 64 << 20;

/// A programmable pipeline stage, in pipeline order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Stage {
    Vertex,
    TessControl,
    TessEvaluation,
    Geometry,
    Fragment,
    /// A compute program's only stage (`GL_ARB_compute_shader`).
    Compute,
}

/// A set of stages (what a descriptor's `stageFlags` needs).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct StageMask(u8);

impl StageMask {
    pub const fn of(stage: Stage) -> Self {
        Self(1 << stage as u8)
    }

    pub fn insert(&mut self, stage: Stage) {
        self.0 |= Self::of(stage).0;
    }

    pub const fn contains(self, stage: Stage) -> bool {
        self.0 & Self::of(stage).0 != 0
    }

    pub const fn union(self, other: Self) -> Self {
        Self(self.0 | other.0)
    }

    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
}

impl FromIterator<Stage> for StageMask {
    fn from_iter<I: IntoIterator<Item = Stage>>(iter: I) -> Self {
        let mut mask = Self::default();
        for stage in iter {
            mask.insert(stage);
        }
        mask
    }
}

/// The Vulkan environment the SPIR-V is for. The default is the process's device's
/// ([`TargetEnv::set_device`]; Vulkan 1.2 until a device says otherwise).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TargetEnv {
    /// Vulkan 1.1, SPIR-V 1.3.
    Vulkan1_1,
    /// Vulkan 1.2, SPIR-V 1.5.
    Vulkan1_2,
}

/// Whether the process's device is a Vulkan 1.1 one (`TargetEnv::set_device`).
static DEVICE_IS_VULKAN_1_1: std::sync::atomic::AtomicBool =
    std::sync::atomic::AtomicBool::new(false);

impl Default for TargetEnv {
    fn default() -> Self {
        if DEVICE_IS_VULKAN_1_1.load(std::sync::atomic::Ordering::Relaxed) {
            Self::Vulkan1_1
        } else {
            Self::Vulkan1_2
        }
    }
}

impl TargetEnv {
    /// Makes the environment of the process's one Vulkan device (of API version `api`) the
    /// default of every compilation: SPIR-V 1.3 for a Vulkan 1.1 device, 1.5 from 1.2 on.
    pub fn set_device(api: u32) {
        let v1_1 = api < ash::vk::API_VERSION_1_2;
        DEVICE_IS_VULKAN_1_1.store(v1_1, std::sync::atomic::Ordering::Relaxed);
    }

    /// The `--target-env` name `spirv-val` knows it by.
    pub fn spirv_val_name(self) -> &'static str {
        match self {
            Self::Vulkan1_1 => "vulkan1.1",
            Self::Vulkan1_2 => "vulkan1.2",
        }
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct CompileOptions {
    pub target: TargetEnv,
    /// A separable program (GL_ARB_separate_shader_objects): its stages' interfaces are not
    /// checked against each other at the link (the stages of other programs meet them).
    pub separable: bool,
    /// The GLSL extensions of the GL context compiling the units (`extensions`): macros and
    /// `#extension` for those only. `None`: every extension glslang knows (ArenaGL's own units).
    pub extensions: Option<ExtensionSet>,
}

/// One stage's SPIR-V module.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StageModule {
    pub stage: Stage,
    pub spirv: Vec<u32>,
}

/// A linked program: SPIR-V per stage and its interface.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    /// In pipeline order, one per stage present.
    pub stages: Vec<StageModule>,
    pub reflection: Reflection,
    /// Warnings from compiling and linking (`glGetProgramInfoLog` after a successful link).
    pub info_log: String,
    /// The `gl_FragCoord` layout the fragment units redeclared; with `origin_upper_left` the
    /// pipeline must set [`FRAG_COORD_HEIGHT_CONSTANT`] to the framebuffer's height.
    pub frag_coord: FragCoordLayout,
    /// Each stage's shader subroutines, lowered to specialization constants (`subroutine`).
    pub subroutines: Vec<(Stage, subroutine::StageSubroutines)>,
}

impl Program {
    /// GL's clip-space depth remapped to Vulkan's before every vertex the geometry stage emits
    /// (`depth_remap`); the vertex and evaluation stages are wrapped in GLSL instead.
    pub fn remap_geometry_depth(&mut self) -> Result<(), CompileError> {
        for stage in self
            .stages
            .iter_mut()
            .filter(|s| s.stage == Stage::Geometry)
        {
            depth_remap::remap_emitted_depth(&mut stage.spirv)
                .map_err(|e| CompileError::Internal(format!("geometry SPIR-V unreadable: {e}")))?;
        }
        Ok(())
    }

    /// Makes the vertex stage's `gl_InstanceID` count from 0 whatever the draw's base instance
    /// (`instance_id`); needs the device's `shaderDrawParameters`.
    pub fn count_instances_from_base(&mut self) -> Result<(), CompileError> {
        for stage in self.stages.iter_mut().filter(|s| s.stage == Stage::Vertex) {
            instance_id::count_from_base(&mut stage.spirv)
                .map_err(|e| CompileError::Internal(format!("vertex SPIR-V unreadable: {e}")))?;
        }
        Ok(())
    }

    /// GL_ARB_shader_group_vote's votes onto the core subgroup operations in the stages of
    /// `voting` (`vk::ShaderStageFlags` bits), onto a group of one elsewhere (`group_vote`).
    pub fn lower_group_votes(
        &mut self,
        voting: impl Fn(Stage) -> bool,
    ) -> Result<(), CompileError> {
        for stage in self.stages.iter_mut() {
            group_vote::lower(&mut stage.spirv, voting(stage.stage))
                .map_err(|e| CompileError::Internal(format!("SPIR-V unreadable: {e}")))?;
        }
        Ok(())
    }

    /// Gives the vertex stage's `gl_BaseVertexARB` and `gl_DrawIDARB` GL's values through the
    /// draw's push constants (`draw_parameters`); needs the device's `shaderDrawParameters`.
    pub fn correct_draw_parameters(&mut self) -> Result<(), CompileError> {
        for stage in self.stages.iter_mut().filter(|s| s.stage == Stage::Vertex) {
            draw_parameters::correct_draw_parameters(&mut stage.spirv)
                .map_err(|e| CompileError::Internal(format!("vertex SPIR-V unreadable: {e}")))?;
        }
        Ok(())
    }

    /// Lowers non-constant indices into descriptor arrays of the kinds the device cannot index
    /// (`array_index`, GL_ARB_gpu_shader5).
    pub fn lower_array_indexing(
        &mut self,
        indexable: array_index::Indexable,
    ) -> Result<(), CompileError> {
        for stage in self.stages.iter_mut() {
            array_index::lower(&mut stage.spirv, indexable)
                .map_err(|e| CompileError::Internal(format!("SPIR-V unreadable: {e}")))?;
        }
        Ok(())
    }

    pub fn stage(&self, stage: Stage) -> Option<&StageModule> {
        self.stages.iter().find(|m| m.stage == stage)
    }
}

/// Compiles one shader on its own, as `glCompileShader` does. `Ok` holds the info log (warnings,
/// possibly empty); a failure's log is in the error.
pub fn compile_shader(
    stage: Stage,
    source: &str,
    options: CompileOptions,
) -> Result<String, CompileError> {
    let (lowered, _) = subroutine::lower_units(vec![(stage, std::borrow::Cow::Borrowed(source))])?;
    let lowered = num_samples::lower_units(lowered);
    let source = checked_source(stage, 0, &lowered[0].1, &options)?;
    on_compiler_stack(move || compile::compile_unit(stage, 0, &source, &options))
}

/// Compiles and links a program, as `glLinkProgram` does, from the sources of its attached
/// shaders exactly as `glShaderSource` received them (several units of one stage are allowed).
pub fn compile_program(
    stages: &[(Stage, &str)],
    options: CompileOptions,
) -> Result<Program, CompileError> {
    compile_program_bound(stages, options, &HashMap::new())
}

/// [`compile_program`] with the program's fragment output bindings
/// (`glBindFragDataLocationIndexed`: name → (location, index)) applied before reflection.
pub fn compile_program_bound(
    stages: &[(Stage, &str)],
    options: CompileOptions,
    frag_bindings: &HashMap<String, FragBinding>,
) -> Result<Program, CompileError> {
    if stages.is_empty() {
        return Err(CompileError::Link {
            log: "ERROR: Linking: no shaders attached to the program\n".into(),
        });
    }
    let (lowered, frag_coord) = frag_coord::lower_redeclarations(stages)?;
    let (lowered, subroutines) = subroutine::lower_units(lowered)?;
    let lowered = num_samples::lower_units(lowered);
    let sources = lowered
        .iter()
        .enumerate()
        .map(|(unit, (stage, source))| {
            Ok((*stage, checked_source(*stage, unit, source, &options)?))
        })
        .collect::<Result<Vec<_>, CompileError>>()?;
    on_compiler_stack(move || {
        let units: Vec<_> = sources.iter().map(|(s, c)| (*s, c.as_c_str())).collect();
        let mut linked = compile::compile_and_link(&units, &options)?;
        for stage in linked
            .stages
            .iter_mut()
            .filter(|s| s.stage == Stage::Fragment)
        {
            spirv::fix_frag_data_location(&mut stage.words)
                .map_err(|e| CompileError::Internal(format!("fragment SPIR-V unreadable: {e}")))?;
            frag_outputs::bind_frag_outputs(&mut stage.words, frag_bindings)
                .map_err(|e| CompileError::Internal(format!("fragment SPIR-V unreadable: {e}")))?;
        }
        let views: Vec<(Stage, &[u32])> = linked
            .stages
            .iter()
            .map(|s| (s.stage, s.words.as_slice()))
            .collect();
        clip_cull::check(&views)?;
        let reflection = reflect::reflect(&views)?;
        // After reflection, which must still see the rectangle samplers the GL layer binds.
        for stage in linked.stages.iter_mut() {
            lower_after_reflection(&mut stage.words)?;
        }
        Ok(Program {
            stages: linked
                .stages
                .into_iter()
                .map(|s| StageModule {
                    stage: s.stage,
                    spirv: s.words,
                })
                .collect(),
            reflection,
            info_log: linked.log,
            frag_coord,
            subroutines,
        })
    })
}

/// The passes that run on a stage's SPIR-V after reflection (GLSL's and `gl_spirv`'s programs).
fn lower_after_reflection(words: &mut Vec<u32>) -> Result<(), CompileError> {
    let unreadable = |e| CompileError::Internal(format!("SPIR-V unreadable: {e}"));
    arrays_of_arrays::flatten(words).map_err(unreadable)?;
    rect::lower_rect_images(words).map_err(unreadable)?;
    query_levels::extract_images(words).map_err(unreadable)?;
    Ok(())
}

/// Runs `f` on a thread with [`COMPILER_STACK_BYTES`] of stack (reserved, not committed: only
/// the pages a deep parse touches cost memory).
fn on_compiler_stack<T: Send>(
    f: impl FnOnce() -> Result<T, CompileError> + Send,
) -> Result<T, CompileError> {
    std::thread::scope(|scope| {
        let handle = std::thread::Builder::new()
            .name("arenagl-glsl".into())
            .stack_size(COMPILER_STACK_BYTES)
            .spawn_scoped(scope, f)
            .map_err(|_| CompileError::Resource("start its thread"))?;
        handle
            .join()
            .map_err(|_| CompileError::Internal("the compiler thread panicked".into()))?
    })
}

/// The raw-source guards (`guard`, `macros`), the context's `#extension` rules (`extensions`,
/// before ArenaGL adds directives of its own) and, last, its macros, then the C string glslang
/// reads.
fn checked_source(
    stage: Stage,
    unit: usize,
    source: &str,
    options: &CompileOptions,
) -> Result<CString, CompileError> {
    guard::check(stage, unit, source, false)?;
    version::check(stage, unit, source)?;
    macros::check(stage, unit, source)?;
    // Read before `extensions` blanks the directive glslang does not know.
    let query_levels = query_levels::wanted(source);
    let source = match stage {
        Stage::Vertex | Stage::TessEvaluation => layer_viewport::enable_vertex_outputs(source),
        _ => std::borrow::Cow::Borrowed(source),
    };
    let offers = |name: &str| (options.extensions.as_ref()).is_none_or(|e| e.offers(name));
    // Before `extensions` blanks the directives the raise reads.
    let source = match raise::for_extensions(stage, &source, offers) {
        std::borrow::Cow::Owned(raised) => std::borrow::Cow::Owned(raised),
        std::borrow::Cow::Borrowed(_) => source,
    };
    let source = match &options.extensions {
        Some(offered) => offered.rewrite_directives(&source),
        None => source,
    };
    let source = es::version_first(&source);
    let source = match bounding_box::drop_writes(stage, &source) {
        std::borrow::Cow::Owned(dropped) => std::borrow::Cow::Owned(dropped),
        std::borrow::Cow::Borrowed(_) => source,
    };
    let source = if offers(atomic_counter_ops::EXTENSION) {
        match atomic_counter_ops::lower(&source) {
            std::borrow::Cow::Owned(lowered) => std::borrow::Cow::Owned(lowered),
            std::borrow::Cow::Borrowed(_) => source,
        }
    } else {
        source
    };
    let source = match es_counters::lower(&source) {
        std::borrow::Cow::Owned(lowered) => std::borrow::Cow::Owned(lowered),
        std::borrow::Cow::Borrowed(_) => source,
    };
    let source = compute_version::for_tessellation(stage, &source);
    let source = compute_version::for_storage(stage, &source);
    let source = per_vertex::enable_redeclaration(&source);
    let source = fp64_version::for_fp64(&source);
    let declares_layer_viewport = match stage {
        Stage::Fragment => offers(layer_viewport::EXTENSION),
        _ => layer_viewport::VERTEX_EXTENSIONS.iter().any(|e| offers(e)),
    };
    let source = if declares_layer_viewport {
        layer_viewport::lower(stage, &source)
    } else {
        source
    };
    let source = if offers(draw_parameters::EXTENSION) {
        draw_parameters::declare(stage, &source)
    } else {
        source
    };
    // After `layer_viewport`, whose `GL_EXT_spirv_intrinsics` stays on past this block.
    let source = derivative_control::declare(stage, &source);
    let source = if query_levels && offers(query_levels::EXTENSION) {
        std::borrow::Cow::Owned(query_levels::declare(&source))
    } else {
        source
    };
    // At the version the unit now has (a raise may have reached glslang's own declarations).
    let source = if offers(texture_samples::EXTENSION) && texture_samples::wanted(&source) {
        std::borrow::Cow::Owned(texture_samples::declare(&source))
    } else {
        source
    };
    let sized = initializers::size_initialized_arrays(&source);
    let hoisted = block_structs::hoist(&sized);
    let source = match &options.extensions {
        Some(offered) => offered.with_preamble(&hoisted, false),
        None => hoisted.into_owned(),
    };
    CString::new(source)
        .map_err(|_| guard::source_error(stage, unit, 0, "NUL character in shader source"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stage_masks_hold_sets_of_stages() {
        let mask: StageMask = [Stage::Vertex, Stage::Fragment].into_iter().collect();
        assert!(mask.contains(Stage::Vertex) && mask.contains(Stage::Fragment));
        assert!(!mask.contains(Stage::Geometry));
        assert!(StageMask::default().is_empty());
    }
}
