//! GL→Vulkan conversions: pure functions from a GL enum (or a few plain GL values) to the `ash::vk`
//! value that means the same thing.
//!
//! What belongs here: a mapping with no state — no `Context`, no object, no device — whose
//! answer depends only on its arguments. Where GL can name something Vulkan cannot take, the
//! function answers `GL_INVALID_ENUM` (through `GlResult`) or documents its fallback. A decision
//! that reads state (whether a texture compares at all, which faces are culled when culling is
//! off) stays with the state and calls in here for the enum itself.
//!
//! Like the rest of `vk/`, nothing here uses the compatibility layer or the pressure policy, and
//! nothing adds methods to `Context`.

use ash::vk;

use crate::gl::context::enums::*;
use crate::gl::context::error::{invalid_enum, GlResult};

// ---- depth, stencil and blend --------------------------------------------------------------

/// A depth or stencil comparison function (`glDepthFunc`, `glStencilFunc`), `GL_INVALID_ENUM`
/// for anything else.
pub(crate) fn compare_op(func: GLenum) -> GlResult<vk::CompareOp> {
    Ok(match func {
        GL_NEVER => vk::CompareOp::NEVER,
        GL_LESS => vk::CompareOp::LESS,
        GL_EQUAL => vk::CompareOp::EQUAL,
        GL_LEQUAL => vk::CompareOp::LESS_OR_EQUAL,
        GL_GREATER => vk::CompareOp::GREATER,
        GL_NOTEQUAL => vk::CompareOp::NOT_EQUAL,
        GL_GEQUAL => vk::CompareOp::GREATER_OR_EQUAL,
        GL_ALWAYS => vk::CompareOp::ALWAYS,
        _ => return invalid_enum("comparison function", func),
    })
}

/// A stencil operation (`glStencilOp*`), `GL_INVALID_ENUM` for anything else.
pub(crate) fn stencil_op(op: GLenum) -> GlResult<vk::StencilOp> {
    use vk::StencilOp as S;
    Ok(match op {
        GL_KEEP => S::KEEP,
        GL_ZERO => S::ZERO,
        GL_REPLACE => S::REPLACE,
        GL_INCR => S::INCREMENT_AND_CLAMP,
        GL_DECR => S::DECREMENT_AND_CLAMP,
        GL_INVERT => S::INVERT,
        GL_INCR_WRAP => S::INCREMENT_AND_WRAP,
        GL_DECR_WRAP => S::DECREMENT_AND_WRAP,
        _ => return invalid_enum("stencil operation", op),
    })
}

/// A blend factor (`glBlendFunc*`), `GL_INVALID_ENUM` for anything else.
pub(crate) fn blend_factor(f: GLenum) -> GlResult<vk::BlendFactor> {
    use vk::BlendFactor as B;
    Ok(match f {
        GL_ZERO => B::ZERO,
        GL_ONE => B::ONE,
        GL_SRC_COLOR => B::SRC_COLOR,
        GL_ONE_MINUS_SRC_COLOR => B::ONE_MINUS_SRC_COLOR,
        GL_DST_COLOR => B::DST_COLOR,
        GL_ONE_MINUS_DST_COLOR => B::ONE_MINUS_DST_COLOR,
        GL_SRC_ALPHA => B::SRC_ALPHA,
        GL_ONE_MINUS_SRC_ALPHA => B::ONE_MINUS_SRC_ALPHA,
        GL_DST_ALPHA => B::DST_ALPHA,
        GL_ONE_MINUS_DST_ALPHA => B::ONE_MINUS_DST_ALPHA,
        GL_CONSTANT_COLOR => B::CONSTANT_COLOR,
        GL_ONE_MINUS_CONSTANT_COLOR => B::ONE_MINUS_CONSTANT_COLOR,
        GL_CONSTANT_ALPHA => B::CONSTANT_ALPHA,
        GL_ONE_MINUS_CONSTANT_ALPHA => B::ONE_MINUS_CONSTANT_ALPHA,
        GL_SRC_ALPHA_SATURATE => B::SRC_ALPHA_SATURATE,
        GL_SRC1_COLOR => B::SRC1_COLOR,
        GL_ONE_MINUS_SRC1_COLOR => B::ONE_MINUS_SRC1_COLOR,
        GL_SRC1_ALPHA => B::SRC1_ALPHA,
        GL_ONE_MINUS_SRC1_ALPHA => B::ONE_MINUS_SRC1_ALPHA,
        _ => return invalid_enum("blend factor", f),
    })
}

/// A blend equation (`glBlendEquation*`), `GL_INVALID_ENUM` for anything else.
pub(crate) fn blend_op(eq: GLenum) -> GlResult<vk::BlendOp> {
    Ok(match eq {
        GL_FUNC_ADD => vk::BlendOp::ADD,
        GL_FUNC_SUBTRACT => vk::BlendOp::SUBTRACT,
        GL_FUNC_REVERSE_SUBTRACT => vk::BlendOp::REVERSE_SUBTRACT,
        GL_MIN => vk::BlendOp::MIN,
        GL_MAX => vk::BlendOp::MAX,
        _ => return invalid_enum("blend equation", eq),
    })
}

/// The faces `glCullFace` names, for a draw with culling on (`GL_FRONT`, `GL_BACK`, anything
/// else both).
pub(crate) fn cull_mode(mode: GLenum) -> vk::CullModeFlags {
    match mode {
        GL_FRONT => vk::CullModeFlags::FRONT,
        GL_BACK => vk::CullModeFlags::BACK,
        _ => vk::CullModeFlags::FRONT_AND_BACK,
    }
}

// ---- vertex input ---------------------------------------------------------------------------

/// A draw's primitive mode as a Vulkan topology (`GL_INVALID_ENUM` for an unknown mode).
pub(crate) fn topology(mode: GLenum) -> GlResult<vk::PrimitiveTopology> {
    use vk::PrimitiveTopology as T;
    Ok(match mode {
        GL_POINTS => T::POINT_LIST,
        GL_LINES => T::LINE_LIST,
        GL_LINE_STRIP => T::LINE_STRIP,
        GL_TRIANGLES => T::TRIANGLE_LIST,
        GL_TRIANGLE_STRIP => T::TRIANGLE_STRIP,
        GL_TRIANGLE_FAN => T::TRIANGLE_FAN,
        GL_LINES_ADJACENCY => T::LINE_LIST_WITH_ADJACENCY,
        GL_LINE_STRIP_ADJACENCY => T::LINE_STRIP_WITH_ADJACENCY,
        GL_TRIANGLES_ADJACENCY => T::TRIANGLE_LIST_WITH_ADJACENCY,
        GL_TRIANGLE_STRIP_ADJACENCY => T::TRIANGLE_STRIP_WITH_ADJACENCY,
        // Known only where tessellation is (`draw::patch::check_patch_mode`).
        GL_PATCHES => T::PATCH_LIST,
        // Vulkan has no loops: loops are lowered to a strip over indices that end where they
        // began (see `vertex_input::assemble_primitives`).
        GL_LINE_LOOP => T::LINE_STRIP,
        m => return invalid_enum("primitive mode", m),
    })
}

/// The index type of an element draw (`GL_UNSIGNED_BYTE`, `GL_UNSIGNED_SHORT`, anything else
/// 32-bit; the type was validated when the draw was).
pub(crate) fn index_type(ty: GLenum) -> vk::IndexType {
    match ty {
        GL_UNSIGNED_BYTE => vk::IndexType::UINT8_EXT,
        GL_UNSIGNED_SHORT => vk::IndexType::UINT16,
        _ => vk::IndexType::UINT32,
    }
}

// ---- sampling and blits ---------------------------------------------------------------------

/// A texture's magnification or minification filter as Vulkan's filter within a level: the
/// `GL_NEAREST*` filters are nearest, everything else linear.
pub(crate) fn sampler_filter(f: GLenum) -> vk::Filter {
    if matches!(
        f,
        GL_NEAREST | GL_NEAREST_MIPMAP_NEAREST | GL_NEAREST_MIPMAP_LINEAR
    ) {
        vk::Filter::NEAREST
    } else {
        vk::Filter::LINEAR
    }
}

/// The filter between mipmap levels a minification filter asks for (linear only for the
/// `*_MIPMAP_LINEAR` filters).
pub(crate) fn mipmap_mode(min_filter: GLenum) -> vk::SamplerMipmapMode {
    if matches!(
        min_filter,
        GL_NEAREST_MIPMAP_LINEAR | GL_LINEAR_MIPMAP_LINEAR
    ) {
        vk::SamplerMipmapMode::LINEAR
    } else {
        vk::SamplerMipmapMode::NEAREST
    }
}

/// A wrap mode (`GL_TEXTURE_WRAP_*`) as an address mode; anything else repeats.
pub(crate) fn address_mode(wrap: GLenum) -> vk::SamplerAddressMode {
    match wrap {
        GL_CLAMP_TO_EDGE => vk::SamplerAddressMode::CLAMP_TO_EDGE,
        GL_CLAMP_TO_BORDER => vk::SamplerAddressMode::CLAMP_TO_BORDER,
        GL_MIRRORED_REPEAT => vk::SamplerAddressMode::MIRRORED_REPEAT,
        GL_MIRROR_CLAMP_TO_EDGE => vk::SamplerAddressMode::MIRROR_CLAMP_TO_EDGE,
        _ => vk::SamplerAddressMode::REPEAT,
    }
}

/// A GL swizzle source as a Vulkan component swizzle (`GL_ZERO` is 0, `GL_ONE` 1).
pub(crate) fn component_swizzle(source: GLenum) -> vk::ComponentSwizzle {
    match source {
        GL_RED => vk::ComponentSwizzle::R,
        GL_GREEN => vk::ComponentSwizzle::G,
        GL_BLUE => vk::ComponentSwizzle::B,
        GL_ALPHA => vk::ComponentSwizzle::A,
        GL_ZERO => vk::ComponentSwizzle::ZERO,
        _ => vk::ComponentSwizzle::ONE,
    }
}

/// `glBlitFramebuffer`'s filter (`GL_NEAREST` or `GL_LINEAR`, `GL_INVALID_ENUM` otherwise).
pub(crate) fn blit_filter(filter: GLenum) -> GlResult<vk::Filter> {
    Ok(match filter {
        GL_NEAREST => vk::Filter::NEAREST,
        GL_LINEAR => vk::Filter::LINEAR,
        f => return invalid_enum("glBlitFramebuffer filter", f),
    })
}
