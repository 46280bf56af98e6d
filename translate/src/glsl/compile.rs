//! The glslang FFI: the only unsafe code in the crate.
//!
//! Design decisions:
//! - glslang-sys's C interface, used the one way that produces valid Vulkan SPIR-V from desktop
//!   GLSL: every unit of every stage parsed with `VULKAN_RULES_RELAXED |
//!   AUTO_MAP_BINDINGS | AUTO_MAP_LOCATIONS`, all of them in one `glslang_program_t`, linked
//!   together, then IO mapped once with a resolver + mapper so locations and bindings are assigned
//!   by name across stages, then one `SPIRV_generate` per stage.
//! - Each glslang object is owned by a small RAII guard; drop order (mapper, resolver, program,
//!   shaders) is the reverse of the dependencies between them.
//! - `glslang_shader_create` keeps a pointer to its `glslang_input_t` (and the source it points at)
//!   until preprocessing is done, so both live on the stack of the function that preprocesses and
//!   parses, and the shader is never preprocessed or parsed again afterwards.
//! - `#include` is refused: without callbacks glslang would read files from the disk for a shader
//!   that enables `GL_GOOGLE_include_directive`; with ours every include fails.
//! - The process is initialised once and never finalised (glslang's own refcount is not needed:
//!   compiling may start on any thread at any time). glslang is thread-safe after that.
//! - A null object from glslang means it could not allocate: a transient `Resource` error. An
//!   allocation failure *inside* glslang (C++ `new` throwing through code built without
//!   exceptions, into Rust frames that cannot unwind) aborts the process; nothing here can catch
//!   it. Likewise a failing `assert` in glslang (glslang-sys builds without `NDEBUG`).
//! - Binding shifts put each resource kind in its own range (see `mod.rs`); the default uniform
//!   block is a uniform block too, so the uniform-block range must start at 0 for the block to
//!   stay at `DEFAULT_BLOCK_BINDING`.
#![deny(clippy::unwrap_used, clippy::expect_used)]

use std::ffi::{c_char, c_int, c_void, CStr, CString};
use std::ptr::NonNull;
use std::sync::OnceLock;

use glslang_sys as sys;

use super::{
    extensions, guard, CompileError, CompileOptions, Stage, TargetEnv, DEFAULT_BLOCK_BINDING,
    DEFAULT_BLOCK_NAME, DEFAULT_BLOCK_SET, IMAGE_BINDING_BASE, SAMPLER_BINDING_BASE,
    STORAGE_BLOCK_BINDING_BASE, UNIFORM_BLOCK_BINDING_BASE,
};

/// What a unit with no `#version` is taken to be: GLSL 1.10, as the GL spec says.
const DEFAULT_VERSION: c_int = 110;

/// `EShMsgSpvRules | EShMsgVulkanRules` for parsing.
const MESSAGES: sys::glslang_messages_t = sys::glslang_messages_t(
    sys::glslang_messages_t::SPV_RULES.0 | sys::glslang_messages_t::VULKAN_RULES.0,
);

/// Linking adds `EShMsgValidateCrossStageIO`: without it glslang links a fragment shader that
/// reads an input no earlier stage writes, which GL says is a link error. The C enum's bits equal
/// the C++ ones, which matters because `glslang_program_link` passes them through unconverted.
const LINK_MESSAGES: c_int = MESSAGES.0 | sys::glslang_messages_t::VALIDATE_CROSS_STAGE_IO.0;

// The default block is shifted like every uniform block (see the module comment).
const _: () = assert!(UNIFORM_BLOCK_BINDING_BASE == 0);

const SHADER_OPTIONS: c_int = sys::glslang_shader_options_t::VULKAN_RULES_RELAXED.0
    | sys::glslang_shader_options_t::AUTO_MAP_BINDINGS.0
    | sys::glslang_shader_options_t::AUTO_MAP_LOCATIONS.0;

/// One unit's SPIR-V stage output.
pub(super) struct StageSpirv {
    pub stage: Stage,
    pub words: Vec<u32>,
}

/// What a successful link gives back.
pub(super) struct Linked {
    /// In pipeline order, one per stage present.
    pub stages: Vec<StageSpirv>,
    /// Warnings from compiling the units and linking them.
    pub log: String,
}

fn ensure_process() -> Result<(), CompileError> {
    static INITIALISED: OnceLock<bool> = OnceLock::new();
    // SAFETY: `glslang_initialize_process` has no preconditions; OnceLock runs it once per
    // process, and nothing ever calls `glslang_finalize_process`.
    let ok = *INITIALISED.get_or_init(|| unsafe { sys::glslang_initialize_process() } != 0);
    if ok {
        Ok(())
    } else {
        Err(CompileError::Resource("initialise glslang"))
    }
}

fn map_stage(stage: Stage) -> sys::glslang_stage_t {
    match stage {
        Stage::Vertex => sys::glslang_stage_t::Vertex,
        Stage::TessControl => sys::glslang_stage_t::TesselationControl,
        Stage::TessEvaluation => sys::glslang_stage_t::TesselationEvaluation,
        Stage::Geometry => sys::glslang_stage_t::Geometry,
        Stage::Fragment => sys::glslang_stage_t::Fragment,
        Stage::Compute => sys::glslang_stage_t::Compute,
    }
}

fn map_target(
    target: TargetEnv,
) -> (
    sys::glslang_target_client_version_t,
    sys::glslang_target_language_version_t,
) {
    match target {
        TargetEnv::Vulkan1_1 => (
            sys::glslang_target_client_version_t::Vulkan1_1,
            sys::glslang_target_language_version_t::SPIRV1_3,
        ),
        TargetEnv::Vulkan1_2 => (
            sys::glslang_target_client_version_t::Vulkan1_2,
            sys::glslang_target_language_version_t::SPIRV1_5,
        ),
    }
}

/// Copies a C string glslang owns; null reads as empty.
///
/// # Safety
/// `ptr` is null or points at a nul-terminated string that stays valid for the call.
unsafe fn owned_string(ptr: *const c_char) -> String {
    if ptr.is_null() {
        String::new()
    } else {
        // SAFETY: non-null and nul-terminated per the caller's contract.
        unsafe { CStr::from_ptr(ptr) }
            .to_string_lossy()
            .into_owned()
    }
}

struct Shader(NonNull<sys::glslang_shader_t>);

impl Shader {
    fn info_log(&self) -> String {
        // SAFETY: `self.0` is a live shader; the log pointer is valid until the shader changes.
        let log = unsafe { owned_string(sys::glslang_shader_get_info_log(self.0.as_ptr())) };
        extensions::unmark(log)
    }
}

impl Drop for Shader {
    fn drop(&mut self) {
        // SAFETY: created by `glslang_shader_create`, deleted exactly once, after the program
        // that referenced it (see the field order in `compile_and_link`).
        unsafe { sys::glslang_shader_delete(self.0.as_ptr()) }
    }
}

struct Program(NonNull<sys::glslang_program_t>);

impl Program {
    fn info_log(&self) -> String {
        // SAFETY: `self.0` is a live program; the log pointer is valid until it changes.
        unsafe { owned_string(sys::glslang_program_get_info_log(self.0.as_ptr())) }
    }
}

impl Drop for Program {
    fn drop(&mut self) {
        // SAFETY: created by `glslang_program_create`, deleted exactly once; the resolver that
        // borrowed one of its intermediates is dropped before it.
        unsafe { sys::glslang_program_delete(self.0.as_ptr()) }
    }
}

struct Resolver(NonNull<sys::glslang_resolver_t>);

impl Drop for Resolver {
    fn drop(&mut self) {
        // SAFETY: created by `glslang_glsl_resolver_create`, deleted exactly once.
        unsafe { sys::glslang_glsl_resolver_delete(self.0.as_ptr()) }
    }
}

struct Mapper(NonNull<sys::glslang_mapper_t>);

impl Drop for Mapper {
    fn drop(&mut self) {
        // SAFETY: created by `glslang_glsl_mapper_create`, deleted exactly once.
        unsafe { sys::glslang_glsl_mapper_delete(self.0.as_ptr()) }
    }
}

/// glslang's include callbacks: every include fails (the shader gets a compile error).
extern "C" fn refuse_include(
    _ctx: *mut c_void,
    _header_name: *const c_char,
    _includer_name: *const c_char,
    _include_depth: usize,
) -> *mut sys::glsl_include_result_t {
    std::ptr::null_mut()
}

extern "C" fn free_include(_ctx: *mut c_void, _result: *mut sys::glsl_include_result_t) -> c_int {
    0
}

/// Preprocesses and parses one unit. `Ok(Err(log))` is a compile error.
fn parse_unit(
    stage: Stage,
    unit: usize,
    source: &CStr,
    options: &CompileOptions,
) -> Result<Result<Shader, String>, CompileError> {
    let (client_version, spirv_version) = map_target(options.target);
    let resource = default_resources();
    let input = sys::glslang_input_t {
        language: sys::glslang_source_t::GLSL,
        stage: map_stage(stage),
        client: sys::glslang_client_t::Vulkan,
        client_version,
        target_language: sys::glslang_target_language_t::SPIRV,
        target_language_version: spirv_version,
        code: source.as_ptr(),
        default_version: DEFAULT_VERSION,
        default_profile: sys::glslang_profile_t::None,
        force_default_version_and_profile: 0,
        forward_compatible: 0,
        messages: MESSAGES,
        resource: &resource,
        callbacks: sys::glsl_include_callbacks_t {
            include_system: Some(refuse_include),
            include_local: Some(refuse_include),
            free_include_result: Some(free_include),
        },
        callbacks_ctx: std::ptr::null_mut(),
    };
    // SAFETY: `input`, the source and the resource limits it points at outlive every call below
    // that reads them (the shader keeps `&input.code` until preprocessing; parsing switches it to
    // the preprocessed copy the shader owns).
    let raw = unsafe { sys::glslang_shader_create(&input) };
    let shader = Shader(NonNull::new(raw).ok_or(CompileError::Resource("create a shader"))?);
    let ubo_name = CString::new(DEFAULT_BLOCK_NAME)
        .map_err(|_| CompileError::Internal("default block name has a NUL".into()))?;
    let ptr = shader.0.as_ptr();
    // SAFETY: `ptr` is a live shader; glslang copies the block name into its own string.
    unsafe {
        sys::glslang_shader_set_options(ptr, SHADER_OPTIONS);
        sys::glslang_shader_set_default_uniform_block_name(ptr, ubo_name.as_ptr());
        sys::glslang_shader_set_default_uniform_block_set_and_binding(
            ptr,
            DEFAULT_BLOCK_SET,
            DEFAULT_BLOCK_BINDING,
        );
        use sys::glslang_resource_type_t as R;
        for (res, base) in [
            (R::UBO, UNIFORM_BLOCK_BINDING_BASE),
            (R::CombinedSampler, SAMPLER_BINDING_BASE),
            (R::Texture, SAMPLER_BINDING_BASE),
            (R::Sampler, SAMPLER_BINDING_BASE),
            (R::Image, IMAGE_BINDING_BASE),
            (R::SSBO, STORAGE_BLOCK_BINDING_BASE),
            (R::UAV, STORAGE_BLOCK_BINDING_BASE),
        ] {
            sys::glslang_shader_shift_binding(ptr, res, base);
        }
    }
    Ok(preprocess_and_parse(&shader, &input, stage, unit).map(|()| shader))
}

/// Preprocesses and parses `shader`, created from `input`; `Err` holds the compile log.
fn preprocess_and_parse(
    shader: &Shader,
    input: &sys::glslang_input_t,
    stage: Stage,
    unit: usize,
) -> Result<(), String> {
    let ptr = shader.0.as_ptr();
    // SAFETY: `ptr` is live and `input` is the same input it was created from.
    let preprocessed = unsafe { sys::glslang_shader_preprocess(ptr, input) } != 0;
    if !preprocessed {
        return Err(shader.info_log());
    }
    // Macros can expand a harmless source into a hostile one: guard what the parser will read.
    // SAFETY: `ptr` is live; the text is owned by the shader and unchanged until parse.
    let text = unsafe { owned_string(sys::glslang_shader_get_preprocessed_code(ptr)) };
    if let Err(err) = guard::check(stage, unit, &text, true) {
        return Err(err.info_log());
    }
    // SAFETY: as above; parse reads the preprocessed text the shader owns.
    let parsed = unsafe { sys::glslang_shader_parse(ptr, input) } != 0;
    if !parsed {
        return Err(shader.info_log());
    }
    Ok(())
}

/// Checks one unit against GLSL ES's own rules with glslang's reference front end (no client
/// API, no SPIR-V: the ES rules as the ES specification writes them, which glslang's Vulkan path
/// does not apply below ES 3.10). A unit without `#version` is GLSL ES 1.00. `Ok(log)` holds any
/// warnings; a failure is a compile error with the ES front end's log.
pub(super) fn validate_es_unit(stage: Stage, source: &CStr) -> Result<String, CompileError> {
    ensure_process()?;
    let resource = default_resources();
    let input = sys::glslang_input_t {
        language: sys::glslang_source_t::GLSL,
        stage: map_stage(stage),
        client: sys::glslang_client_t::None,
        client_version: sys::glslang_target_client_version_t::Vulkan1_1,
        target_language: sys::glslang_target_language_t::None,
        target_language_version: sys::glslang_target_language_version_t::SPIRV1_3,
        code: source.as_ptr(),
        default_version: 100,
        default_profile: sys::glslang_profile_t::ES,
        force_default_version_and_profile: 0,
        forward_compatible: 0,
        messages: sys::glslang_messages_t(0),
        resource: &resource,
        callbacks: sys::glsl_include_callbacks_t {
            include_system: Some(refuse_include),
            include_local: Some(refuse_include),
            free_include_result: Some(free_include),
        },
        callbacks_ctx: std::ptr::null_mut(),
    };
    // SAFETY: as in `parse_unit`: `input`, the source and the limits outlive every call that
    // reads them.
    let raw = unsafe { sys::glslang_shader_create(&input) };
    let shader = Shader(NonNull::new(raw).ok_or(CompileError::Resource("create a shader"))?);
    match preprocess_and_parse(&shader, &input, stage, 0) {
        Ok(()) => Ok(shader.info_log()),
        Err(log) => Err(CompileError::Compile {
            stage,
            unit: 0,
            log,
        }),
    }
}

/// Compiles one unit on its own: `glCompileShader`. `Ok(log)` holds any warnings.
pub(super) fn compile_unit(
    stage: Stage,
    unit: usize,
    source: &CStr,
    options: &CompileOptions,
) -> Result<String, CompileError> {
    ensure_process()?;
    match parse_unit(stage, unit, source, options)? {
        Ok(shader) => Ok(shader.info_log()),
        Err(log) => Err(CompileError::Compile { stage, unit, log }),
    }
}

/// Compiles every unit, links them into one program, maps IO and generates SPIR-V per stage.
pub(super) fn compile_and_link(
    units: &[(Stage, &CStr)],
    options: &CompileOptions,
) -> Result<Linked, CompileError> {
    ensure_process()?;
    let mut log = String::new();

    // Shaders first so that they outlive the program (locals drop in reverse order).
    let mut shaders = Vec::with_capacity(units.len());
    for (unit, &(stage, source)) in units.iter().enumerate() {
        match parse_unit(stage, unit, source, options)? {
            Ok(shader) => {
                log.push_str(&shader.info_log());
                shaders.push(shader);
            }
            Err(log) => return Err(CompileError::Compile { stage, unit, log }),
        }
    }

    // SAFETY: no preconditions.
    let raw = unsafe { sys::glslang_program_create() };
    let program = Program(NonNull::new(raw).ok_or(CompileError::Resource("create a program"))?);
    for shader in &shaders {
        // SAFETY: both are live; the program only stores the pointer, and `shaders` outlives
        // `program` (declared first, so dropped last).
        unsafe { sys::glslang_program_add_shader(program.0.as_ptr(), shader.0.as_ptr()) };
    }
    let messages = if options.separable {
        MESSAGES.0
    } else {
        LINK_MESSAGES
    };
    // SAFETY: `program` is live and holds parsed shaders.
    let linked = unsafe { sys::glslang_program_link(program.0.as_ptr(), messages) } != 0;
    if !linked {
        return Err(CompileError::Link {
            log: program.info_log(),
        });
    }

    let mut present: Vec<Stage> = units.iter().map(|&(stage, _)| stage).collect();
    present.sort();
    present.dedup();
    let Some(&first) = present.first() else {
        return Err(CompileError::Internal(
            "linked a program with no stage".into(),
        ));
    };

    // The resolver reads its settings (auto-mapping, binding shifts) from one stage's
    // intermediate, which must exist: glslang dereferences it unchecked.
    // SAFETY: `program` is linked and has an intermediate for `first`.
    let raw = unsafe { sys::glslang_glsl_resolver_create(program.0.as_ptr(), map_stage(first)) };
    let resolver = Resolver(NonNull::new(raw).ok_or(CompileError::Resource("create a resolver"))?);
    // SAFETY: no preconditions.
    let raw = unsafe { sys::glslang_glsl_mapper_create() };
    let mapper = Mapper(NonNull::new(raw).ok_or(CompileError::Resource("create a mapper"))?);
    // SAFETY: all three are live; the program is linked.
    let mapped = unsafe {
        sys::glslang_program_map_io_with_resolver_and_mapper(
            program.0.as_ptr(),
            resolver.0.as_ptr(),
            mapper.0.as_ptr(),
        )
    } != 0;
    if !mapped {
        return Err(CompileError::Link {
            log: program.info_log(),
        });
    }
    log.push_str(&program.info_log());

    let mut stages = Vec::with_capacity(present.len());
    for stage in present {
        let mut spv_options = sys::glslang_spv_options_t {
            generate_debug_info: false,
            strip_debug_info: false,
            disable_optimizer: true,
            optimize_size: false,
            optimize_performance: false,
            disassemble: false,
            validate: false,
            emit_nonsemantic_shader_debug_info: false,
            emit_nonsemantic_shader_debug_source: false,
            compile_only: false,
            optimize_allow_expanded_id_bound: false,
            compiler_signature: std::ptr::null(),
            command_line_arguments: std::ptr::null(),
            current_working_directory: std::ptr::null(),
        };
        let ptr = program.0.as_ptr();
        // SAFETY: the program is linked and IO-mapped and has an intermediate for `stage`; the
        // options struct outlives the call.
        unsafe {
            sys::glslang_program_SPIRV_generate_with_options(
                ptr,
                map_stage(stage),
                &mut spv_options,
            )
        };
        // SAFETY: the program is live; the messages pointer is valid until the next generate.
        let messages = unsafe { owned_string(sys::glslang_program_SPIRV_get_messages(ptr)) };
        // SAFETY: the program is live.
        let len = unsafe { sys::glslang_program_SPIRV_get_size(ptr) };
        // SAFETY: `glslang_program_SPIRV_get_ptr` points at `len` words owned by the program,
        // valid until the next generate; they are copied out before that.
        let words = unsafe {
            let data = sys::glslang_program_SPIRV_get_ptr(ptr);
            if data.is_null() || len == 0 {
                Vec::new()
            } else {
                std::slice::from_raw_parts(data, len).to_vec()
            }
        };
        if words.is_empty()
            || messages.contains("error:")
            || messages.contains("Missing functionality")
        {
            return Err(CompileError::Link {
                log: format!("ERROR: {stage:?} stage: SPIR-V generation failed\n{messages}"),
            });
        }
        if !messages.is_empty() {
            log.push_str(&messages);
        }
        stages.push(StageSpirv { stage, words });
    }

    drop(mapper);
    drop(resolver);
    drop(program);
    drop(shaders);
    Ok(Linked { stages, log })
}

/// glslang's own defaults (`glslang/ResourceLimits/ResourceLimits.cpp`, which glslang-sys does not
/// build), generous desktop limits, except `max_draw_buffers`. They only bound what a shader may
/// declare; the GL layer checks the limits it advertises itself.
fn default_resources() -> sys::glslang_resource_t {
    sys::glslang_resource_t {
        max_lights: 32,
        max_clip_planes: 6,
        max_texture_units: 32,
        max_texture_coords: 32,
        // `gl_MaxVertexAttribs`: GL_MAX_VERTEX_ATTRIBS on common devices (`Context::max_vertex_attribs`).
        max_vertex_attribs: 32,
        max_vertex_uniform_components: 4096,
        max_varying_floats: 64,
        max_vertex_texture_image_units: 32,
        max_combined_texture_image_units: 96,
        max_texture_image_units: 32,
        max_fragment_uniform_components: 4096,
        // GL's minimum and the common Vulkan `maxColorAttachments`: `gl_FragData` is declared
        // with this many locations, which must exist on the device.
        max_draw_buffers: 8,
        max_vertex_uniform_vectors: super::es::MAX_UNIFORM_VECTORS,
        max_varying_vectors: super::es::MAX_VARYING_VECTORS,
        max_fragment_uniform_vectors: super::es::MAX_UNIFORM_VECTORS,
        max_vertex_output_vectors: 16,
        max_fragment_input_vectors: 15,
        min_program_texel_offset: -8,
        max_program_texel_offset: 7,
        max_clip_distances: 8,
        max_compute_work_group_count_x: 65535,
        max_compute_work_group_count_y: 65535,
        max_compute_work_group_count_z: 65535,
        max_compute_work_group_size_x: 1024,
        max_compute_work_group_size_y: 1024,
        max_compute_work_group_size_z: 1024,
        max_compute_uniform_components: 1024,
        max_compute_texture_image_units: 16,
        max_compute_image_uniforms: 8,
        max_compute_atomic_counters: 8,
        max_compute_atomic_counter_buffers: 8,
        max_varying_components: 60,
        max_vertex_output_components: 64,
        max_geometry_input_components: 64,
        max_geometry_output_components: 128,
        max_fragment_input_components: 128,
        max_image_units: 8,
        max_combined_image_units_and_fragment_outputs: 8,
        max_combined_shader_output_resources: 24,
        max_image_samples: 0,
        max_vertex_image_uniforms: 0,
        max_tess_control_image_uniforms: 0,
        max_tess_evaluation_image_uniforms: 0,
        max_geometry_image_uniforms: 0,
        max_fragment_image_uniforms: 8,
        max_combined_image_uniforms: 8,
        max_geometry_texture_image_units: 16,
        max_geometry_output_vertices: 256,
        max_geometry_total_output_components: 1024,
        max_geometry_uniform_components: 1024,
        max_geometry_varying_components: 64,
        max_tess_control_input_components: 128,
        max_tess_control_output_components: 128,
        max_tess_control_texture_image_units: 16,
        max_tess_control_uniform_components: 1024,
        max_tess_control_total_output_components: 4096,
        max_tess_evaluation_input_components: 128,
        max_tess_evaluation_output_components: 128,
        max_tess_evaluation_texture_image_units: 16,
        max_tess_evaluation_uniform_components: 1024,
        max_tess_patch_components: 120,
        max_patch_vertices: 32,
        max_tess_gen_level: 64,
        max_viewports: 16,
        max_vertex_atomic_counters: 8,
        max_tess_control_atomic_counters: 8,
        max_tess_evaluation_atomic_counters: 8,
        max_geometry_atomic_counters: 8,
        max_fragment_atomic_counters: 8,
        max_combined_atomic_counters: 32,
        max_atomic_counter_bindings: 8,
        max_vertex_atomic_counter_buffers: 8,
        max_tess_control_atomic_counter_buffers: 8,
        max_tess_evaluation_atomic_counter_buffers: 8,
        max_geometry_atomic_counter_buffers: 8,
        max_fragment_atomic_counter_buffers: 8,
        max_combined_atomic_counter_buffers: 8,
        max_atomic_counter_buffer_size: 16384,
        max_transform_feedback_buffers: 4,
        max_transform_feedback_interleaved_components: 64,
        // GL_ARB_cull_distance's limits, as `gl::context::cull_distance` answers them (the
        // combined one is checked at link, `clip_cull`).
        max_cull_distances: 8,
        max_combined_clip_and_cull_distances: 8,
        max_samples: 4,
        max_mesh_output_vertices_nv: 256,
        max_mesh_output_primitives_nv: 512,
        max_mesh_work_group_size_x_nv: 32,
        max_mesh_work_group_size_y_nv: 1,
        max_mesh_work_group_size_z_nv: 1,
        max_task_work_group_size_x_nv: 32,
        max_task_work_group_size_y_nv: 1,
        max_task_work_group_size_z_nv: 1,
        max_mesh_view_count_nv: 4,
        max_mesh_output_vertices_ext: 256,
        max_mesh_output_primitives_ext: 256,
        max_mesh_work_group_size_x_ext: 128,
        max_mesh_work_group_size_y_ext: 128,
        max_mesh_work_group_size_z_ext: 128,
        max_task_work_group_size_x_ext: 128,
        max_task_work_group_size_y_ext: 128,
        max_task_work_group_size_z_ext: 128,
        max_mesh_view_count_ext: 4,
        __bindgen_anon_1: sys::glslang_resource_s__bindgen_ty_1 {
            max_dual_source_draw_buffers_ext: 1,
        },
        limits: sys::glslang_limits_t::default(),
    }
}
