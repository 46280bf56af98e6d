//! A linked program's tessellation: its layout as `glGetProgramiv` reports it
//! (`GL_TESS_CONTROL_OUTPUT_VERTICES`, `GL_TESS_GEN_*`, read from its SPIR-V by `glsl::tess`),
//! and the control stage ArenaGL supplies to a program that has none ([`PassThroughControl`]).

use std::sync::{Mutex, PoisonError};

use arenagl_memory::MemoryManager;
use ash::vk;

use super::{error_log, LinkError};
use crate::gl::context::enums::*;
use crate::gl::context::error::{invalid_op, GlError, GlResult};
use crate::gl::objects::program::Linked;
use crate::glsl::tess::{PatchVarying, TessDomain, TessLayout, TessSpacing};
use crate::glsl::{self, CompileError, CompileOptions, Stage};

/// `GL_QUADS`, the `GL_TESS_GEN_MODE` of the quad domain.
const GL_QUADS: GLenum = 0x0007;

/// `glGetProgramiv`'s tessellation pnames for a program linked as `linked` (`None` for other
/// pnames): `GL_INVALID_OPERATION` when the program lacks the stage that declares the value.
pub(crate) fn program_param(linked: Option<&Linked>, pname: GLenum) -> Option<GlResult<i32>> {
    let has = |stage: Stage| linked.is_some_and(|l| l.modules.iter().any(|(s, _)| *s == stage));
    let missing = |stage: &str| {
        Some(invalid_op(format!(
            "glGetProgramiv(0x{pname:x}): the program has no linked {stage} shader"
        )))
    };
    let tess = linked.map(|l| l.tess).unwrap_or_default();
    let value = match pname {
        GL_TESS_CONTROL_OUTPUT_VERTICES => {
            if !has(Stage::TessControl) {
                return missing("tessellation control");
            }
            tess.output_vertices.unwrap_or(0)
        }
        GL_TESS_GEN_MODE
        | GL_TESS_GEN_SPACING
        | GL_TESS_GEN_VERTEX_ORDER
        | GL_TESS_GEN_POINT_MODE => {
            if !has(Stage::TessEvaluation) {
                return missing("tessellation evaluation");
            }
            generator_param(&tess, pname)
        }
        _ => return None,
    };
    Some(Ok(value as i32))
}

/// The primitive generator's layout as GL names it.
fn generator_param(tess: &TessLayout, pname: GLenum) -> GLenum {
    match pname {
        GL_TESS_GEN_MODE => match tess.domain {
            Some(TessDomain::Quads) => GL_QUADS,
            Some(TessDomain::Isolines) => GL_ISOLINES,
            _ => GL_TRIANGLES,
        },
        GL_TESS_GEN_SPACING => match tess.spacing {
            Some(TessSpacing::FractionalEven) => GL_FRACTIONAL_EVEN,
            Some(TessSpacing::FractionalOdd) => GL_FRACTIONAL_ODD,
            _ => GL_EQUAL,
        },
        GL_TESS_GEN_VERTEX_ORDER => {
            if tess.clockwise == Some(true) {
                GL_CW
            } else {
                GL_CCW
            }
        }
        _ => u32::from(tess.point_mode),
    }
}

/// The control stage of a program that has an evaluation stage and no control stage: GL's
/// fixed function passes each patch through at the `glPatchParameterfv` default levels, which
/// Vulkan has no stage for, so ArenaGL generates one (`glsl::tess::pass_through_control`). Its
/// `layout(vertices = N)` is `GL_PATCH_VERTICES` at draw time, so there is one module per patch
/// size, made by the first pipeline that needs it and destroyed with the program; the levels
/// are specialization constants (`PipelineKey::default_levels`).
pub(crate) struct PassThroughControl {
    varyings: Vec<PatchVarying>,
    /// The modules made so far, by patch size.
    modules: Mutex<Vec<(u32, vk::ShaderModule)>>,
}

impl PassThroughControl {
    /// The pass-through stage for the evaluation stage `tes` (SPIR-V): refused, with a link
    /// log, when its inputs cannot be copied, and checked by compiling it once.
    pub(crate) fn new(tes: &[u32]) -> Result<Self, LinkError> {
        let varyings =
            glsl::tess::patch_varyings(tes).map_err(|e| LinkError::Log(error_log(&e)))?;
        compile(&varyings, 3).map_err(|e| LinkError::Log(error_log(&e)))?;
        Ok(Self {
            varyings,
            modules: Mutex::new(Vec::new()),
        })
    }

    /// The module for patches of `vertices` vertices, made through `manager` on first need.
    pub(crate) fn module(
        &self,
        manager: &mut MemoryManager,
        vertices: u32,
    ) -> GlResult<vk::ShaderModule> {
        let mut modules = self.modules.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(&(_, m)) = modules.iter().find(|(n, _)| *n == vertices) {
            return Ok(m);
        }
        let spirv = compile(&self.varyings, vertices).map_err(|e| {
            GlError::InvalidOperation(format!("the pass-through control stage: {e}"))
        })?;
        let info = vk::ShaderModuleCreateInfo::default().code(&spirv);
        let module = manager.create_link_object(|raw| {
            // SAFETY: valid device; the SPIR-V came from glslang and passed its validation.
            unsafe { raw.create_shader_module(&info, None) }
        })?;
        crate::gl::vk::pipeline::note_shader_module(&spirv);
        modules.push((vertices, module));
        Ok(module)
    }

    /// Every module made, for the program's release.
    pub(crate) fn take_modules(&mut self) -> Vec<vk::ShaderModule> {
        let modules = self
            .modules
            .get_mut()
            .unwrap_or_else(PoisonError::into_inner);
        modules.drain(..).map(|(_, m)| m).collect()
    }
}

/// The pass-through stage's SPIR-V for patches of `vertices` vertices.
fn compile(varyings: &[PatchVarying], vertices: u32) -> Result<Vec<u32>, CompileError> {
    let source = glsl::tess::pass_through_control(varyings, vertices);
    let program = glsl::compile_program(
        &[(Stage::TessControl, source.as_str())],
        CompileOptions::default(),
    )?;
    program
        .stages
        .into_iter()
        .next()
        .map(|s| s.spirv)
        .ok_or_else(|| CompileError::Internal("no control stage compiled".into()))
}
