//! Texture objects: GL's per-level specification over one manager image, sampler state, and
//! completeness.
//!
//! Design decisions:
//! - One image per texture holding the whole mip chain its level 0 implies (GL may specify
//!   levels in any order; a level inconsistent with the image restarts the image, which GL
//!   would call incomplete anyway). Formats GL calls RGB are stored as RGBA8 (3-byte formats
//!   are not renderable or even optimal-tiling on most Vulkan devices); staging converts.
//! - Samplers come from a device-wide cache keyed by the parameters, never one per texture
//!   (`maxSamplerAllocationCount` is small on mobile).
//! - The border colour keeps the type it was given in ([`BorderColor`]): the integer words of
//!   `glTexParameterI{i,ui}v` are sampled exactly by integer textures. A colour that is not one
//!   of Vulkan's built-in ones becomes a custom border colour (`VK_EXT_custom_border_color`,
//!   enabled by the manager where the device has it; the nearest built-in one otherwise), except
//!   on depth textures, which keep to the built-in colours.
//! - An incomplete texture samples as (0, 0, 0, 1), as GL says: a draw binds a 1×1 black image
//!   instead. The classic "forgot GL_TEXTURE_MIN_FILTER" bug therefore looks the same here as on
//!   every other GL.

pub(crate) mod api;
pub(crate) mod buffer;
pub(crate) mod egl_image;
pub(crate) mod extensions;
pub(crate) mod internal_format;
pub(crate) mod internalformat_answers;
pub(crate) mod internalformat_query;
pub(crate) mod multisample;
pub(crate) mod native;
pub(crate) mod stencil;
pub(crate) mod storage;
pub(crate) mod target;
pub(crate) mod view;

use std::collections::HashMap;

use arenagl_memory::{Category, ImageDesc, ImageHandle, SamplerDesc, ViewDesc, ViewHandle};
use ash::vk;

use crate::gl::context::enums::*;
use crate::gl::context::error::{invalid_enum, GlResult};
use crate::gl::objects::texture::internal_format::FormatInfo;
use crate::gl::objects::texture::target::TexTarget;
use crate::gl::vk::conv;
use crate::glsl::SampledKind;

/// Sampling parameters (`glTexParameter*`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct TexParams {
    pub min_filter: GLenum,
    pub mag_filter: GLenum,
    pub wrap: [GLenum; 3],
    pub min_lod: f32,
    pub max_lod: f32,
    pub base_level: i32,
    pub max_level: i32,
    pub lod_bias: f32,
    pub compare_mode: GLenum,
    pub compare_func: GLenum,
    pub border: BorderColor,
    pub max_anisotropy: f32,
    pub swizzle: [GLenum; 4],
    /// `GL_DEPTH_TEXTURE_MODE` (compatibility profile): how a depth texture's value becomes
    /// RGBA for the fixed-function units and GLSL 1.10/1.20 shadow lookups.
    pub depth_mode: GLenum,
    /// `GL_GENERATE_MIPMAP` (compatibility profile): a change to the base level regenerates
    /// the levels above it (`Context::auto_generate_mipmap`).
    pub generate_mipmap: bool,
    /// `GL_DEPTH_STENCIL_TEXTURE_MODE` is `GL_STENCIL_INDEX`: a depth/stencil texture samples
    /// its stencil indices (`stencil.rs`).
    pub stencil_mode: bool,
}

impl Default for TexParams {
    fn default() -> Self {
        Self {
            min_filter: GL_NEAREST_MIPMAP_LINEAR,
            mag_filter: GL_LINEAR,
            wrap: [GL_REPEAT; 3],
            min_lod: -1000.0,
            max_lod: 1000.0,
            base_level: 0,
            max_level: 1000,
            lod_bias: 0.0,
            compare_mode: GL_NONE,
            compare_func: GL_LEQUAL,
            border: BorderColor::Float([0.0; 4]),
            max_anisotropy: 1.0,
            swizzle: [GL_RED, GL_GREEN, GL_BLUE, GL_ALPHA],
            depth_mode: GL_LUMINANCE,
            generate_mipmap: false,
            stencil_mode: false,
        }
    }
}

/// `GL_TEXTURE_BORDER_COLOR` as the application gave it: floats (`glTexParameterfv`, and
/// `glTexParameteriv` after GL's normalized conversion), or the exact integer words of
/// `glTexParameterIiv`/`glTexParameterIuiv`, which GL keeps unconverted for integer textures.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum BorderColor {
    Float([f32; 4]),
    Int([i32; 4]),
    Uint([u32; 4]),
}

impl BorderColor {
    /// The colour as floats (`glGetTexParameterfv`); integers convert by value.
    pub(crate) fn floats(&self) -> [f32; 4] {
        match *self {
            BorderColor::Float(f) => f,
            BorderColor::Int(i) => i.map(|v| v as f32),
            BorderColor::Uint(u) => u.map(|v| v as f32),
        }
    }

    /// The stored words (`glGetTexParameterI{i,ui}v`). GL leaves a query whose type differs
    /// from the one that set the colour undefined; a float colour gives its bits, as Mesa does.
    pub(crate) fn words(&self) -> [u32; 4] {
        match *self {
            BorderColor::Float(f) => f.map(f32::to_bits),
            BorderColor::Int(i) => i.map(|v| v as u32),
            BorderColor::Uint(u) => u,
        }
    }

    /// The words a sampler of `kind` (the texture's sampled type) samples outside the image:
    /// integer words for integer textures, float bits for the rest. A colour given as the other
    /// type converts by value (GL leaves that mismatch undefined).
    pub(crate) fn sampled_words(&self, kind: SampledKind) -> [u32; 4] {
        match (kind, *self) {
            (SampledKind::Float, b) => b.floats().map(f32::to_bits),
            (_, BorderColor::Float(f)) if kind == SampledKind::Int => f.map(|v| v as i32 as u32),
            (_, BorderColor::Float(f)) => f.map(|v| v as u32),
            (_, b) => b.words(),
        }
    }
}

/// The border colour of a `glTexParameterI{i,ui}v`/`glSamplerParameterI{i,ui}v` call.
pub(crate) fn integer_border(values: &[u32], signed: bool) -> GlResult<BorderColor> {
    let Ok(words) = <[u32; 4]>::try_from(values.get(..4).unwrap_or_default()) else {
        return crate::gl::context::error::invalid_value("border colour needs 4 values");
    };
    Ok(if signed {
        BorderColor::Int(words.map(|w| w as i32))
    } else {
        BorderColor::Uint(words)
    })
}

/// Whether `pname` is sampling state: the parameters a sampler object holds, which a
/// multisample texture has none of.
pub(crate) fn is_sampler_state(pname: GLenum) -> bool {
    matches!(
        pname,
        GL_TEXTURE_MIN_FILTER
            | GL_TEXTURE_MAG_FILTER
            | GL_TEXTURE_WRAP_S
            | GL_TEXTURE_WRAP_T
            | GL_TEXTURE_WRAP_R
            | GL_TEXTURE_MIN_LOD
            | GL_TEXTURE_MAX_LOD
            | GL_TEXTURE_LOD_BIAS
            | GL_TEXTURE_COMPARE_MODE
            | GL_TEXTURE_COMPARE_FUNC
            | GL_TEXTURE_MAX_ANISOTROPY
            | GL_TEXTURE_BORDER_COLOR
    )
}

/// The values of a `…I{i,ui}v` call of a parameter other than the border colour, as the floats
/// the `…iv` form's parameters are validated as.
pub(crate) fn integer_values(values: &[u32], signed: bool) -> Vec<f32> {
    values
        .iter()
        .map(|&w| if signed { w as i32 as f32 } else { w as f32 })
        .collect()
}

/// A `glGet…Parameterfv` answer as the words of a `…I{i,ui}v` query (`…iv`'s truncation).
pub(crate) fn integer_answers(values: &[f32], signed: bool) -> Vec<u32> {
    values
        .iter()
        .map(|&f| if signed { f as i32 as u32 } else { f as u32 })
        .collect()
}

/// `GL_DEPTH_TEXTURE_MODE`'s value as a small integer (the legacy shadow lookups' uniform):
/// 0 luminance (D, D, D, 1), 1 intensity (D, D, D, D), 2 alpha (0, 0, 0, D), 3 red (D, 0, 0, 1).
pub(crate) fn depth_mode_index(mode: GLenum) -> i32 {
    match mode {
        GL_INTENSITY => 1,
        GL_ALPHA => 2,
        GL_RED => 3,
        _ => 0,
    }
}

/// `GL_DEPTH_TEXTURE_MODE` as a component mapping of a depth view (whose red is the depth):
/// what a GLSL 1.10/1.20 lookup of a depth texture without comparison returns in a
/// compatibility context.
pub(crate) fn depth_mode_swizzle(mode: GLenum) -> [GLenum; 4] {
    match mode {
        GL_INTENSITY => [GL_RED; 4],
        GL_ALPHA => [GL_ZERO, GL_ZERO, GL_ZERO, GL_RED],
        GL_RED => [GL_RED, GL_ZERO, GL_ZERO, GL_ONE],
        _ => [GL_RED, GL_RED, GL_RED, GL_ONE],
    }
}

impl TexParams {
    /// The value of sampling-state parameter `pname` as `glGet{Tex,Sampler}Parameterfv`
    /// answer it; `None` for a parameter that is not sampling state ([`is_sampler_state`]).
    pub(crate) fn sampling_value(&self, pname: GLenum) -> Option<Vec<f32>> {
        Some(match pname {
            GL_TEXTURE_MIN_FILTER => vec![self.min_filter as f32],
            GL_TEXTURE_MAG_FILTER => vec![self.mag_filter as f32],
            GL_TEXTURE_WRAP_S => vec![self.wrap[0] as f32],
            GL_TEXTURE_WRAP_T => vec![self.wrap[1] as f32],
            GL_TEXTURE_WRAP_R => vec![self.wrap[2] as f32],
            GL_TEXTURE_MIN_LOD => vec![self.min_lod],
            GL_TEXTURE_MAX_LOD => vec![self.max_lod],
            GL_TEXTURE_LOD_BIAS => vec![self.lod_bias],
            GL_TEXTURE_COMPARE_MODE => vec![self.compare_mode as f32],
            GL_TEXTURE_COMPARE_FUNC => vec![self.compare_func as f32],
            GL_TEXTURE_MAX_ANISOTROPY => vec![self.max_anisotropy],
            GL_TEXTURE_BORDER_COLOR => self.border.floats().to_vec(),
            _ => return None,
        })
    }

    pub(crate) fn uses_mipmaps(&self) -> bool {
        !matches!(self.min_filter, GL_NEAREST | GL_LINEAR)
    }
}

/// The storage a texture's levels live in.
pub(crate) struct TexImage {
    /// The manager image (the handle [`TexImage::shared`] holds, copied for short access).
    pub image: ImageHandle,
    /// This texture's reference to its image, which views and EGL images share (`storage.rs`).
    pub shared: storage::ImageRef,
    /// Where the texture's level 0 and layer 0 lie in the image (non-zero for views).
    pub origin: storage::Origin,
    /// `GL_TEXTURE_IMMUTABLE_LEVELS` (a view keeps its original's; 0 while mutable).
    pub immutable_levels: u32,
    pub view: ViewHandle,
    pub format: vk::Format,
    /// The internal format as the application named it (what queries report).
    pub internal: GLenum,
    /// What that internal format means (channel sizes, component type, base format).
    pub info: FormatInfo,
    /// The swizzle (GL sources) that gives the GL format's semantics over the stored channels;
    /// the sampling view carries it, `GL_TEXTURE_SWIZZLE_*` composes on top of it.
    pub format_swizzle: [GLenum; 4],
    /// The target the image was made for (its Vulkan image and view types follow from it).
    pub target: TexTarget,
    /// GL width, height and depth of level 0 (1 where the target has fewer dimensions); an
    /// array target's layer axis is part of it.
    pub size: [u32; 3],
    pub levels: u32,
    /// Per face (cube maps; index 0 otherwise), bit i: level i has been specified.
    pub defined: [u64; 6],
    /// Made by `glTexStorage*`: every level exists and none may be respecified.
    pub immutable: bool,
    /// Single-level, single-layer views for framebuffer attachments, by (level, layer).
    pub level_views: HashMap<(u32, u32), ViewHandle>,
    /// Sampling views with a `GL_TEXTURE_SWIZZLE_*` component mapping, by swizzle.
    pub swizzle_views: HashMap<[GLenum; 4], ViewHandle>,
    /// Set while the image holds only the levels from `dropped` on (demoted under memory
    /// pressure, `degrade.rs`): `size`, `levels` and `defined` then describe that smaller image,
    /// and this keeps what they were.
    pub demotion: Option<Demotion>,
    /// Samples per texel: 1, or the count of a multisample texture (`texture_multisample`).
    pub samples: u32,
    /// `GL_TEXTURE_FIXED_SAMPLE_LOCATIONS` (true for every single-sampled texture).
    pub fixed_locations: bool,
}

/// `GL_TEXTURE_SWIZZLE_RGBA`'s default.
pub(crate) const IDENTITY_SWIZZLE: [GLenum; 4] = [GL_RED, GL_GREEN, GL_BLUE, GL_ALPHA];

/// The swizzle that applies `user` (`GL_TEXTURE_SWIZZLE_*`) to what `format` (the format's own
/// swizzle over the storage) yields: GL swizzles the texture's RGBA, which is the format swizzle's
/// output.
pub(crate) fn compose_swizzle(format: [GLenum; 4], user: [GLenum; 4]) -> [GLenum; 4] {
    user.map(|source| match source {
        GL_RED => format[0],
        GL_GREEN => format[1],
        GL_BLUE => format[2],
        GL_ALPHA => format[3],
        other => other,
    })
}

/// What a demoted texture was before: memory pressure (`pressure/degrade.rs`) dropped its top
/// levels and keeps this to restore them ([`TexImage::demotion`]).
#[derive(Debug, Clone)]
pub(crate) struct Demotion {
    /// Levels dropped from the top.
    pub dropped: u32,
    /// The full image's GL size, levels and defined-level bits.
    pub size: [u32; 3],
    pub levels: u32,
    pub defined: [u64; 6],
    /// The frame it was demoted in ("sampled since" is `last_sampled` after it).
    pub at_frame: u64,
}

/// A GL texture object.
#[derive(Default)]
pub(crate) struct Texture {
    /// The target of the first bind (`None` before).
    pub target: Option<TexTarget>,
    pub storage: Option<TexImage>,
    /// Per (face, level): the compressed blocks `glCompressedTex(Sub)Image*` gave, for
    /// `glGetCompressedTexImage` (`pixel/get_compressed.rs`).
    pub blocks: std::collections::HashMap<(u32, u32), Vec<u8>>,
    pub params: TexParams,
    /// A buffer texture's state (`texture_buffer`): `Some` once the texture was bound to
    /// `GL_TEXTURE_BUFFER` (it then never gets a `target` nor image storage).
    pub buffer: Option<crate::gl::objects::texture::buffer::TexBuffer>,
    /// The context frame (`degrade.rs`) in which a draw last sampled it.
    pub last_sampled: std::cell::Cell<u64>,
    /// The name the texture was deleted as, while it lives on only because framebuffers that
    /// were not bound still have it attached (`framebuffer/retained.rs`). It then sits in the
    /// table under a private id that no GL call accepts as a texture name.
    pub deleted_as: Option<u32>,
}

impl Texture {
    /// Whether GL calls may reach this texture by the name it is filed under: false for a
    /// deleted texture that framebuffers keep alive.
    pub(crate) fn named(&self) -> bool {
        self.deleted_as.is_none()
    }
}

impl TexImage {
    /// GL width, height and depth of `level` (array layers do not shrink).
    pub(crate) fn level_size(&self, level: u32) -> [u32; 3] {
        let mut out = self.size;
        for (axis, v) in out.iter_mut().enumerate() {
            if !self.target.is_layer_axis(axis) {
                *v = (*v >> level).max(1);
            }
        }
        out
    }

    /// The sampling view of the whole image with `swizzle` as its component mapping (made on
    /// first use, kept until the image is retired with its views).
    /// `window`: the levels the view spans instead of all (see [`Texture::level_window`]).
    pub(crate) fn swizzled_view(
        &mut self,
        manager: &mut arenagl_memory::MemoryManager,
        swizzle: [GLenum; 4],
        window: Option<LevelWindow>,
    ) -> GlResult<ViewHandle> {
        let key = LevelWindow::key(window, swizzle);
        if let Some(v) = self.swizzle_views.get(&key) {
            return Ok(*v);
        }
        let desc = LevelWindow::apply(window, self.sampling_view_desc(None, swizzle));
        let view = manager.create_view(self.image, &desc)?;
        self.swizzle_views.insert(key, view);
        Ok(view)
    }

    /// Faces whose levels are tracked separately (6 for cube maps).
    pub(crate) fn faces(&self) -> usize {
        if self.target == TexTarget::Cube {
            6
        } else {
            1
        }
    }

    /// Whether `level` is specified (on every face of a cube map).
    pub(crate) fn level_defined(&self, level: u32) -> bool {
        level < self.levels
            && level < 64
            && self.defined[..self.faces()]
                .iter()
                .all(|bits| bits & (1 << level) != 0)
    }

    /// Whether `level` of `face` is specified.
    pub(crate) fn face_level_defined(&self, face: u32, level: u32) -> bool {
        level < self.levels
            && level < 64
            && self
                .defined
                .get(face as usize)
                .is_some_and(|bits| bits & (1 << level) != 0)
    }

    /// Marks `level` of `face` specified.
    pub(crate) fn define(&mut self, face: u32, level: u32) {
        if let (Some(bits), true) = (self.defined.get_mut(face as usize), level < 64) {
            *bits |= 1 << level;
        }
    }

    /// Marks `level` specified on every face.
    pub(crate) fn define_all_faces(&mut self, level: u32) {
        for face in 0..self.faces() as u32 {
            self.define(face, level);
        }
    }

    /// Layers a framebuffer may attach at `level` (faces, array layers, 3D slices).
    pub(crate) fn attachable_layers(&self, level: u32) -> u32 {
        match self.target {
            TexTarget::Cube => 6,
            TexTarget::D1Array => self.size[1],
            TexTarget::D2Array | TexTarget::D2MultisampleArray | TexTarget::CubeArray => {
                self.size[2]
            }
            TexTarget::D3 => self.level_size(level)[2],
            _ => 1,
        }
    }
}

/// The levels a sampling view spans when they are not all the image's: GL's base level to its
/// effective maximum level (`GL_TEXTURE_BASE_LEVEL`, `GL_TEXTURE_MAX_LEVEL`), so that lods,
/// `textureSize`, `texelFetch` and `textureQueryLevels` count from the base level as GL's do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct LevelWindow {
    pub first: u32,
    pub count: u32,
}

impl LevelWindow {
    /// The swizzle-view cache key of a view with `swizzle` over `window`: the window in the
    /// high bits of the first two components, which no GL swizzle source has.
    pub(crate) fn key(window: Option<Self>, swizzle: [GLenum; 4]) -> [GLenum; 4] {
        let mut key = swizzle;
        if let Some(w) = window {
            key[0] |= (w.first + 1) << 16;
            key[1] |= w.count << 16;
        }
        key
    }

    /// `desc` narrowed to `window`'s levels.
    pub(crate) fn apply(window: Option<Self>, mut desc: ViewDesc) -> ViewDesc {
        if let Some(w) = window {
            desc.base_mip_level += w.first;
            desc.mip_level_count = w.count;
        }
        desc
    }
}

impl Texture {
    /// The levels sampling sees when they are not all the image's (`None`: all of them, or a
    /// target without mipmaps).
    pub(crate) fn level_window(&self) -> Option<LevelWindow> {
        let s = self.storage.as_ref()?;
        if !s.target.has_mipmaps() || s.levels == 0 {
            return None;
        }
        let last_level = s.levels - 1;
        let first = (self.params.base_level.max(0) as u32).min(last_level);
        let last = (self.params.max_level.max(0) as u32).clamp(first, last_level);
        (first != 0 || last != last_level).then_some(LevelWindow {
            first,
            count: last - first + 1,
        })
    }

    /// Whether sampling with the current parameters reads defined levels only (GL 3.3 §3.8.14;
    /// a cube map needs every face of each level). A bound sampler object's filter decides
    /// whether mipmaps are needed (`sampler`).
    pub(crate) fn is_complete(&self, sampler: Option<&TexParams>) -> bool {
        let Some(s) = &self.storage else {
            return false;
        };
        let base = self.params.base_level.max(0) as u32;
        if !s.level_defined(base) {
            return false;
        }
        if s.target.is_cube() && s.size[0] != s.size[1] {
            return false;
        }
        if sampler.is_some_and(|p| !s.target.accepts_sampling(p)) {
            return false;
        }
        if !sampler.unwrap_or(&self.params).uses_mipmaps() || !s.target.has_mipmaps() {
            return true;
        }
        let last = (self.params.max_level.max(0) as u32).min(s.levels - 1);
        (base..=last).all(|l| s.level_defined(l))
    }

    /// The sampler this texture asks for: sampling state from the bound sampler object's
    /// parameters when one is bound to the unit (`sampler`), else from the texture's own; the
    /// level range (`GL_TEXTURE_BASE_LEVEL`/`MAX_LEVEL`) always from the texture.
    /// `shadow`: the shader's sampler is a shadow sampler (only those compare).
    pub(crate) fn sampler_desc(
        &self,
        sampler: Option<&TexParams>,
        shadow: bool,
        max_anisotropy_supported: bool,
    ) -> SamplerDesc {
        let p = sampler.unwrap_or(&self.params);
        // The view spans the base level to the effective maximum level (`level_window`), and
        // Vulkan's lods count from the view's first level, as GL's count from the base level.
        let top = match (self.level_window(), &self.storage) {
            (Some(w), _) => w.count - 1,
            (None, Some(s)) => s.levels - 1,
            (None, None) => 0,
        } as f32;
        let (min_lod, max_lod) = if p.uses_mipmaps() {
            (p.min_lod.max(0.0).min(top), p.max_lod.clamp(0.0, top))
        } else {
            // Non-mipmapped minification samples the base level only: Vulkan's idiom is a
            // lod clamp of [0, 0.25].
            (0.0, 0.25)
        };
        // Depth formats keep to the built-in colours (a custom colour must match the view's
        // format, which for depth views Vulkan restricts): the nearest one is chosen then.
        let format = self.storage.as_ref().map(|s| s.format);
        let kind = format.map_or(SampledKind::Float, sampled_kind);
        let depth = format.is_some_and(internal_format::is_depth_format);
        let mut desc = SamplerDesc {
            mag_filter: conv::sampler_filter(p.mag_filter),
            min_filter: conv::sampler_filter(p.min_filter),
            mipmap_mode: conv::mipmap_mode(p.min_filter),
            address_modes: p.wrap.map(conv::address_mode),
            mip_lod_bias: p.lod_bias,
            min_lod,
            max_lod,
            max_anisotropy: (max_anisotropy_supported && p.max_anisotropy > 1.0)
                .then_some(p.max_anisotropy),
            compare_op: self.compare_op(p).filter(|_| shadow),
            ..SamplerDesc::default()
        }
        .with_border(
            p.border.sampled_words(kind),
            kind != SampledKind::Float,
            format.unwrap_or(vk::Format::UNDEFINED),
        );
        if depth {
            desc.border_color =
                arenagl_memory::nearest_builtin_border(desc.border_color, desc.custom_border);
            desc.custom_border = [0; 4];
            desc.custom_border_format = vk::Format::UNDEFINED;
        }
        desc
    }
}

impl Texture {
    /// Depth comparison for shadow samplers: only a depth texture with
    /// `GL_COMPARE_REF_TO_TEXTURE` compares.
    fn compare_op(&self, p: &TexParams) -> Option<vk::CompareOp> {
        let depth = self
            .storage
            .as_ref()
            .is_some_and(|s| internal_format::is_depth_format(s.format));
        if !depth || p.compare_mode != GL_COMPARE_REF_TO_TEXTURE {
            return None;
        }
        // `glTexParameter` accepts only comparison functions; anything else compares always.
        Some(conv::compare_op(p.compare_func).unwrap_or(vk::CompareOp::ALWAYS))
    }
}

/// What a shader reading `format` gets: integer formats need integer samplers (`isampler*`,
/// `usampler*`), everything else float ones.
pub(crate) fn sampled_kind(format: vk::Format) -> crate::glsl::SampledKind {
    use crate::glsl::SampledKind;
    use vk::Format as F;
    match format {
        F::R8_SINT
        | F::R8G8_SINT
        | F::R8G8B8A8_SINT
        | F::R16_SINT
        | F::R16G16_SINT
        | F::R16G16B16A16_SINT
        | F::R32_SINT
        | F::R32G32_SINT
        | F::R32G32B32_SINT
        | F::R32G32B32A32_SINT => SampledKind::Int,
        F::R8_UINT
        | F::R8G8_UINT
        | F::R8G8B8A8_UINT
        | F::R16_UINT
        | F::R16G16_UINT
        | F::R16G16B16A16_UINT
        | F::R32_UINT
        | F::R32G32_UINT
        | F::R32G32B32_UINT
        | F::R32G32B32A32_UINT
        | F::A2B10G10R10_UINT_PACK32 => SampledKind::UInt,
        _ => SampledKind::Float,
    }
}

/// How a GL internal format is stored on this device.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Storage {
    /// The Vulkan format holding the texels.
    pub format: vk::Format,
    /// What the GL format means (queries, upload rules).
    pub info: FormatInfo,
    /// The stored format can be a framebuffer attachment.
    pub renderable: bool,
}

/// The storage for GL internal format `internal` (sized or unsized) on this device:
/// `GL_INVALID_ENUM` for names GL does not accept, `GL_INVALID_OPERATION`-free otherwise; a
/// format no candidate of which the device can sample is reported as unsupported.
pub(crate) fn storage_format(
    locked: &crate::gl::vk::device::Locked,
    internal: GLenum,
    depth_stencil: vk::Format,
) -> GlResult<Storage> {
    let Some(info) = crate::gl::objects::texture::internal_format::lookup(internal) else {
        return invalid_enum("internal format", internal);
    };
    let (format, renderable) =
        crate::gl::objects::texture::internal_format::choose(&info, depth_stencil, |f| {
            locked.manager.format_features(f)
        })
        .ok_or_else(|| {
            crate::gl::context::error::GlError::InvalidOperation(format!(
                "internal format 0x{internal:04X}: the device can store none of {:?}",
                info.candidates
            ))
        })?;
    Ok(Storage {
        format,
        info,
        renderable,
    })
}

/// The request for a texture image of `target` whose level 0 has GL dimensions `size`, with
/// `levels` levels (renderable: colour formats as colour attachments, depth formats as
/// depth/stencil attachments).
pub(crate) fn image_desc(
    target: TexTarget,
    format: vk::Format,
    size: [u32; 3],
    levels: u32,
) -> ImageDesc {
    image_desc_for(target, format, size, levels, true)
}

/// [`image_desc`] of a format that may not support attachment usage (`renderable` false).
pub(crate) fn image_desc_for(
    target: TexTarget,
    format: vk::Format,
    size: [u32; 3],
    levels: u32,
    renderable: bool,
) -> ImageDesc {
    let attachment = if !renderable {
        vk::ImageUsageFlags::empty()
    } else if internal_format::is_depth_format(format) {
        vk::ImageUsageFlags::DEPTH_STENCIL_ATTACHMENT
    } else {
        vk::ImageUsageFlags::COLOR_ATTACHMENT
    };
    let (extent, layers) = target.vk_extent(size);
    let mut desc = ImageDesc::new_2d(
        format,
        extent.width,
        extent.height,
        levels,
        vk::ImageUsageFlags::SAMPLED
            | vk::ImageUsageFlags::TRANSFER_DST
            | vk::ImageUsageFlags::TRANSFER_SRC
            | attachment
            | crate::gl::compute::storage_usage(target, format),
        Category::Texture,
    )
    .named("GL texture");
    desc.image_type = target.image_type();
    desc.extent = extent;
    desc.array_layers = layers;
    desc.flags = target.create_flags();
    desc
}

/// The view shaders sample: every level and layer, typed as the target's samplers expect;
/// depth textures sample their depth aspect.
pub(crate) fn full_view(
    target: TexTarget,
    levels: u32,
    layers: u32,
    format: vk::Format,
    swizzle: [GLenum; 4],
) -> ViewDesc {
    let mut view = ViewDesc::color_2d(levels);
    view.view_type = target.view_type();
    view.layer_count = layers;
    view.components = vk::ComponentMapping {
        r: conv::component_swizzle(swizzle[0]),
        g: conv::component_swizzle(swizzle[1]),
        b: conv::component_swizzle(swizzle[2]),
        a: conv::component_swizzle(swizzle[3]),
    };
    if internal_format::is_depth_format(format) {
        view.aspect = vk::ImageAspectFlags::DEPTH;
    }
    view
}

/// The single-level, single-layer view a framebuffer attaches: colour, or depth and stencil
/// together. A 3D image's slice is a layer of its 2D-array-compatible view.
pub(crate) fn attachment_view(level: u32, layer: u32, format: vk::Format) -> ViewDesc {
    let mut view = ViewDesc {
        base_mip_level: level,
        base_array_layer: layer,
        ..ViewDesc::color_2d(1)
    };
    if internal_format::is_depth_format(format) {
        view.aspect = arenagl_memory::format_aspects(format);
    }
    view
}

/// Validates a `glTexParameter` (pname, value) pair and applies it.
pub(crate) fn set_param(p: &mut TexParams, pname: GLenum, value: f32) -> GlResult<()> {
    let e = value as i32 as GLenum;
    let check = |ok: bool| -> GlResult<GLenum> {
        if ok {
            Ok(e)
        } else {
            invalid_enum("texture parameter value", e)
        }
    };
    match pname {
        GL_TEXTURE_MIN_FILTER => {
            p.min_filter = check(matches!(
                e,
                GL_NEAREST
                    | GL_LINEAR
                    | GL_NEAREST_MIPMAP_NEAREST
                    | GL_LINEAR_MIPMAP_NEAREST
                    | GL_NEAREST_MIPMAP_LINEAR
                    | GL_LINEAR_MIPMAP_LINEAR
            ))?
        }
        GL_TEXTURE_MAG_FILTER => p.mag_filter = check(matches!(e, GL_NEAREST | GL_LINEAR))?,
        GL_TEXTURE_WRAP_S | GL_TEXTURE_WRAP_T | GL_TEXTURE_WRAP_R => {
            let v = check(matches!(
                e,
                GL_REPEAT
                    | GL_CLAMP_TO_EDGE
                    | GL_CLAMP_TO_BORDER
                    | GL_MIRRORED_REPEAT
                    | GL_MIRROR_CLAMP_TO_EDGE
            ))?;
            let i = match pname {
                GL_TEXTURE_WRAP_S => 0,
                GL_TEXTURE_WRAP_T => 1,
                _ => 2,
            };
            p.wrap[i] = v;
        }
        GL_TEXTURE_MIN_LOD => p.min_lod = value,
        GL_TEXTURE_MAX_LOD => p.max_lod = value,
        GL_TEXTURE_LOD_BIAS => p.lod_bias = value,
        GL_TEXTURE_BASE_LEVEL | GL_TEXTURE_MAX_LEVEL => {
            if value < 0.0 {
                return crate::gl::context::error::invalid_value("negative texture level");
            }
            if pname == GL_TEXTURE_BASE_LEVEL {
                p.base_level = value as i32;
            } else {
                p.max_level = value as i32;
            }
        }
        GL_TEXTURE_COMPARE_MODE => {
            p.compare_mode = check(matches!(e, GL_NONE | GL_COMPARE_REF_TO_TEXTURE))?
        }
        GL_TEXTURE_COMPARE_FUNC => p.compare_func = check((GL_NEVER..=GL_ALWAYS).contains(&e))?,
        GL_GENERATE_MIPMAP => p.generate_mipmap = value != 0.0,
        stencil::GL_DEPTH_STENCIL_TEXTURE_MODE => match stencil::mode_of(e) {
            Some(mode) => p.stencil_mode = mode,
            None => return invalid_enum("GL_DEPTH_STENCIL_TEXTURE_MODE value", e),
        },
        GL_DEPTH_TEXTURE_MODE => {
            p.depth_mode = check(matches!(e, GL_LUMINANCE | GL_INTENSITY | GL_ALPHA | GL_RED))?
        }
        GL_TEXTURE_MAX_ANISOTROPY => {
            if value < 1.0 {
                return crate::gl::context::error::invalid_value("anisotropy below 1");
            }
            p.max_anisotropy = value
        }
        GL_TEXTURE_SWIZZLE_R | GL_TEXTURE_SWIZZLE_G | GL_TEXTURE_SWIZZLE_B
        | GL_TEXTURE_SWIZZLE_A => {
            let v = check(matches!(
                e,
                GL_RED | GL_GREEN | GL_BLUE | GL_ALPHA | GL_ZERO | GL_ONE
            ))?;
            p.swizzle[(pname - GL_TEXTURE_SWIZZLE_R) as usize] = v;
        }
        _ => return invalid_enum("texture parameter", pname),
    }
    Ok(())
}
