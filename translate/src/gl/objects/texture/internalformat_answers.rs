//! GL_ARB_internalformat_query2's answers for a supported resource (`internalformat_query.rs`
//! resolves the resource and gives the "unsupported" answers).
//!
//! Design decisions:
//! - Each answer is read from what the code that does the operation uses: channel sizes and
//!   types from the format row `glGetTexLevelParameter` answers from (`api::format_query`),
//!   maximum sizes from `glGetIntegerv`'s limits, pixel-transfer pairs checked against the
//!   upload rules (`api::check_pair`), filtering and blits from the stored Vulkan format's
//!   features, image-unit support from the storage usage textures are made with
//!   (`compute::storage_usage`), view classes from the texture-view table
//!   (`view::view_class`), block sizes from the compressed codecs.
//! - `None` is the "unsupported" answer (0, `GL_NONE`, `GL_FALSE`). Support levels are
//!   `GL_FULL_SUPPORT` or `GL_NONE`; nothing works with a caveat here.
//! - What ArenaGL does not do is `GL_NONE`: `DEPTH_STENCIL` texel uploads, layered framebuffer
//!   attachments, sampling a texture while it is the depth or stencil attachment
//!   (`GL_SIMULTANEOUS_TEXTURE_AND_*`), image units on multisample or buffer textures.

use ash::vk;

use crate::gl::context::enums::*;
use crate::gl::context::{Context, Profile};
use crate::gl::objects::texture::api::{check_pair, format_query, is_sized};
use crate::gl::objects::texture::internal_format::{codec, Base, Comp, FormatInfo};
use crate::gl::objects::texture::internalformat_query::{
    Kind, Resource, GL_CLEAR_TEXTURE, GL_SRGB_DECODE_ARB,
};
use crate::gl::objects::texture::target::TexTarget;
use crate::gl::objects::texture::view::view_class;

const GL_FULL_SUPPORT: i64 = 0x82B7;
const GL_SRGB: i64 = 0x8C40;
const GL_LINEAR_ENCODING: i64 = 0x2601;
/// `GL_IMAGE_FORMAT_COMPATIBILITY_TYPE` (also a `glGetTexParameter` query) and its one value.
pub(crate) const GL_IMAGE_FORMAT_COMPATIBILITY_TYPE: GLenum = 0x90C7;
pub(crate) const GL_IMAGE_FORMAT_COMPATIBILITY_BY_SIZE: GLenum = 0x90C8;
const GL_RED_INTEGER: GLenum = 0x8D94;
const GL_RG_INTEGER: GLenum = 0x8228;
const GL_RGB_INTEGER: GLenum = 0x8D98;
const GL_RGBA_INTEGER: GLenum = 0x8D99;
const GL_ALPHA_INTEGER: GLenum = 0x8D97;
const GL_LUMINANCE_INTEGER: GLenum = 0x8D9C;
const GL_LUMINANCE_ALPHA_INTEGER: GLenum = 0x8D9D;
const GL_UNSIGNED_INT_10F_11F_11F_REV: GLenum = 0x8C3B;
const GL_UNSIGNED_INT_5_9_9_9_REV: GLenum = 0x8C3E;

/// `GL_FULL_SUPPORT` where `yes`, else the unsupported `GL_NONE`.
fn full(yes: bool) -> Option<i64> {
    yes.then_some(GL_FULL_SUPPORT)
}

/// `GL_TRUE` where `yes`, else the unsupported `GL_FALSE`.
fn truth(yes: bool) -> Option<i64> {
    yes.then_some(1)
}

impl Context {
    /// The answer for `pname` (a legal query2 `pname` other than the sample counts) about the
    /// supported `r`; `None`: the unsupported answer.
    pub(crate) fn query2_answer(&mut self, r: &Resource, pname: GLenum) -> Option<i64> {
        match pname {
            0x826F => Some(1),                     // GL_INTERNALFORMAT_SUPPORTED
            0x8270 => Some(i64::from(r.internal)), // GL_INTERNALFORMAT_PREFERRED
            0x8271..=0x827D => size_or_type(&r.info, pname),
            0x827E..=0x8281 => self.max_size(r.kind, pname),
            0x8282 => self.max_combined_dimensions(r), // GL_MAX_COMBINED_DIMENSIONS
            0x8283..=0x8288 => components(r, pname),
            0x8289..=0x828B => framebuffer_support(r, pname, self.features(r.format)),
            0x828C..=0x828E => read_pixels(r, pname),
            0x828F..=0x8292 => texture_image(r, pname),
            0x8293..=0x8295 => self.mipmap(r, pname),
            0x8296..=0x8299 => srgb(r, pname), // colour encoding, sRGB read/write/decode
            0x829A => self.filter(r),          // GL_FILTER
            0x829B..=0x82A0 => self.shader_texture(r, pname),
            0x82A1..=0x82A3 => self.shadow_gather(r, pname),
            0x82A4..=0x82AA => self.image_unit(r, pname),
            // What `glGetTexParameter` answers for every texture with a tex-parameter target.
            GL_IMAGE_FORMAT_COMPATIBILITY_TYPE => r
                .kind
                .texture()
                .filter(|_| self.offers("GL_ARB_shader_image_load_store"))
                .map(|_| i64::from(GL_IMAGE_FORMAT_COMPATIBILITY_BY_SIZE)),
            0x86A1 => truth(codec(r.internal).is_some()), // GL_TEXTURE_COMPRESSED
            0x82B1..=0x82B3 => compressed_block(r.internal, pname),
            0x82B4 => full(r.kind == Kind::Buffer), // GL_CLEAR_BUFFER
            GL_CLEAR_TEXTURE => clear_texture(r),
            0x82B5 | 0x82B6 => texture_view(r, pname),
            // GL_SIMULTANEOUS_TEXTURE_AND_DEPTH/STENCIL_TEST/WRITE: feedback loops are not
            // supported.
            _ => None,
        }
    }

    /// The stored format's optimal-tiling features.
    fn features(&self, format: vk::Format) -> vk::FormatFeatureFlags {
        self.device.lock().manager.format_features(format)
    }

    /// One integer limit, as `glGetIntegerv` answers it.
    fn limit(&mut self, pname: GLenum) -> Option<i64> {
        self.get(pname)?.to_ints().first().copied()
    }

    /// `GL_MAX_WIDTH`, `_HEIGHT`, `_DEPTH`, `_LAYERS`: the `glGetIntegerv` limit of the
    /// kind's axis; 0 where the kind has no such axis.
    fn max_size(&mut self, kind: Kind, pname: GLenum) -> Option<i64> {
        let limit = size_limit(kind, pname)?;
        self.limit(limit)
    }

    /// `GL_MAX_COMBINED_DIMENSIONS`: the product of the maximum sizes, samples and faces.
    fn max_combined_dimensions(&mut self, r: &Resource) -> Option<i64> {
        let mut product: i64 = 1;
        for pname in [0x827E, 0x827F, 0x8280] {
            product = product.saturating_mul(self.max_size(r.kind, pname).unwrap_or(1).max(1));
        }
        if r.kind.texture().is_some_and(|t| t.is_multisample()) {
            let samples = self.sample_counts(r).first().copied().unwrap_or(1);
            product = product.saturating_mul(samples.max(1));
        }
        if r.kind.texture().is_some_and(|t| t.is_cube()) {
            product = product.saturating_mul(6);
        }
        Some(product)
    }

    /// `GL_MIPMAP`, `GL_MANUAL_GENERATE_MIPMAP`, `GL_AUTO_GENERATE_MIPMAP` (the compatibility
    /// profile's `GL_GENERATE_MIPMAP`): textures with levels; depth levels are generated by
    /// blits, so only where the device blits the stored format.
    fn mipmap(&self, r: &Resource, pname: GLenum) -> Option<i64> {
        if !r.kind.texture().is_some_and(|t| t.has_mipmaps()) {
            return None;
        }
        let generates = match r.info.base {
            Base::Stencil => false,
            Base::Depth | Base::DepthStencil => {
                self.device.lock().manager.supports_linear_blit(r.format)
            }
            _ => true,
        };
        match pname {
            0x8293 => truth(true),
            0x8294 => full(generates),
            _ => full(generates && self.profile == Profile::Compatibility),
        }
    }

    /// `GL_FILTER`: linear filtering of a sampled, non-integer, single-sampled texture whose
    /// stored format the device filters linearly.
    fn filter(&self, r: &Resource) -> Option<i64> {
        let sampled = r
            .kind
            .texture()
            .is_some_and(|t| !t.is_multisample() && r.info.base != Base::Stencil);
        full(
            sampled
                && !r.info.comp.is_integer()
                && self
                    .features(r.format)
                    .contains(vk::FormatFeatureFlags::SAMPLED_IMAGE_FILTER_LINEAR),
        )
    }

    /// `GL_VERTEX_TEXTURE` … `GL_COMPUTE_TEXTURE`: textures (buffer textures too, stencil ones
    /// through their stencil aspect) are sampled in every stage the context has.
    fn shader_texture(&self, r: &Resource, pname: GLenum) -> Option<i64> {
        let stage = match pname {
            0x829C | 0x829D => self.offers("GL_ARB_tessellation_shader"),
            0x82A0 => self.offers("GL_ARB_compute_shader"),
            _ => true,
        };
        full(stage && r.kind != Kind::Renderbuffer)
    }

    /// `GL_TEXTURE_SHADOW`, `GL_TEXTURE_GATHER`, `GL_TEXTURE_GATHER_SHADOW`: the targets with
    /// shadow and gather samplers; shadow lookups need depth.
    fn shadow_gather(&self, r: &Resource, pname: GLenum) -> Option<i64> {
        use TexTarget as T;
        let t = r.kind.texture()?;
        let depth = matches!(r.info.base, Base::Depth | Base::DepthStencil);
        let gather_target = matches!(t, T::D2 | T::D2Array | T::Cube | T::CubeArray | T::Rect);
        let gather = self.offers("GL_ARB_texture_gather") && gather_target;
        match pname {
            0x82A1 => full(depth && (gather_target || matches!(t, T::D1 | T::D1Array))),
            0x82A2 => full(gather && r.info.base != Base::Stencil),
            _ => full(gather && depth),
        }
    }

    /// The image-unit queries (GL 4.6 table 8.26 formats): texel size, class, pixel format and
    /// type of any resource but a renderbuffer; loads and stores where textures of the stored
    /// format are made storable; atomics on the 32-bit integer formats.
    fn image_unit(&self, r: &Resource, pname: GLenum) -> Option<i64> {
        use crate::gl::compute::image_unit::IMAGE_FORMATS;
        let image_format = self.offers("GL_ARB_shader_image_load_store")
            && r.kind != Kind::Renderbuffer
            && IMAGE_FORMATS.contains(&r.internal);
        if !image_format {
            return None;
        }
        let storable = r
            .kind
            .texture()
            .is_some_and(|t| !crate::gl::compute::storage_usage(t, r.format).is_empty());
        let info = &r.info;
        match pname {
            0x82A4 | 0x82A5 => full(storable), // GL_SHADER_IMAGE_LOAD, _STORE
            0x82A6 => full(storable && matches!(r.internal, 0x8235 | 0x8236)), // R32I, R32UI
            0x82A7 => Some(info.bits[..4].iter().map(|&b| i64::from(b)).sum()),
            0x82A8 => image_class(info),
            0x82A9 => Some(i64::from(natural_pair(info).0)),
            _ => Some(i64::from(natural_pair(info).1)),
        }
    }
}

/// `GL_INTERNALFORMAT_<X>_SIZE` / `_TYPE`: what `glGetTexLevelParameter` reports for a level
/// of this format (stencil, which it has no type query for: unsigned integer).
fn size_or_type(info: &FormatInfo, pname: GLenum) -> Option<i64> {
    // GL_TEXTURE_{RED,GREEN,BLUE,ALPHA,DEPTH,STENCIL,SHARED}_SIZE, then
    // GL_TEXTURE_{RED,GREEN,BLUE,ALPHA,DEPTH}_TYPE: `pname`'s counterparts, in its order.
    const TEX_LEVEL: [GLenum; 12] = [
        0x805C, 0x805D, 0x805E, 0x805F, 0x884A, 0x88F1, 0x8C3F, 0x8C10, 0x8C11, 0x8C12, 0x8C13,
        0x8C16,
    ];
    if pname == 0x827D {
        return (info.bits[7] > 0).then_some(i64::from(GL_UNSIGNED_INT));
    }
    let query = TEX_LEVEL[(pname - 0x8271) as usize];
    format_query(Some(info), query).map(i64::from)
}

/// The `glGetIntegerv` limit answering `GL_MAX_WIDTH` … `GL_MAX_LAYERS` for `kind` (`None`:
/// the kind has no such axis).
fn size_limit(kind: Kind, pname: GLenum) -> Option<GLenum> {
    use TexTarget as T;
    let (dims, layer_axis) = match kind {
        Kind::Buffer => (1, None),
        Kind::Renderbuffer => (2, None),
        Kind::Texture(t) => (t.dims(), (0..3).find(|&a| t.is_layer_axis(a))),
    };
    if pname == 0x8281 {
        return layer_axis.map(|_| GL_MAX_ARRAY_TEXTURE_LAYERS);
    }
    let axis = (pname - 0x827E) as usize;
    if axis as u32 >= dims {
        return None;
    }
    if layer_axis == Some(axis) {
        return Some(GL_MAX_ARRAY_TEXTURE_LAYERS);
    }
    Some(match kind {
        Kind::Buffer => GL_MAX_TEXTURE_BUFFER_SIZE,
        Kind::Renderbuffer => GL_MAX_RENDERBUFFER_SIZE,
        Kind::Texture(T::D3) => GL_MAX_3D_TEXTURE_SIZE,
        Kind::Texture(T::Cube | T::CubeArray) => GL_MAX_CUBE_MAP_TEXTURE_SIZE,
        Kind::Texture(T::Rect) => GL_MAX_RECTANGLE_TEXTURE_SIZE,
        Kind::Texture(_) => GL_MAX_TEXTURE_SIZE,
    })
}

/// `GL_COLOR/DEPTH/STENCIL_COMPONENTS` (what the format holds) and `_RENDERABLE` (and that it
/// renders, in this profile).
fn components(r: &Resource, pname: GLenum) -> Option<i64> {
    let base = r.info.base;
    let holds = match pname {
        0x8283 | 0x8286 => !r.info.is_depth_stencil(),
        0x8284 | 0x8287 => matches!(base, Base::Depth | Base::DepthStencil),
        _ => matches!(base, Base::Stencil | Base::DepthStencil),
    };
    let renders = pname < 0x8286 || r.renderable;
    truth(holds && renders)
}

/// `GL_FRAMEBUFFER_RENDERABLE`, `_LAYERED` (layered attachments are not built) and
/// `GL_FRAMEBUFFER_BLEND` (colour, not integer, where the stored format blends).
fn framebuffer_support(
    r: &Resource,
    pname: GLenum,
    features: vk::FormatFeatureFlags,
) -> Option<i64> {
    match pname {
        0x8289 => full(r.attachable),
        0x828A => None,
        _ => full(
            r.attachable
                && !r.info.is_depth_stencil()
                && !r.info.comp.is_integer()
                && features.contains(vk::FormatFeatureFlags::COLOR_ATTACHMENT_BLEND),
        ),
    }
}

/// `GL_READ_PIXELS` and its preferred format and type: renderable formats are read with the
/// pair that carries their texels exactly.
fn read_pixels(r: &Resource, pname: GLenum) -> Option<i64> {
    if !r.renderable || r.kind == Kind::Buffer {
        return None;
    }
    let (format, ty) = natural_pair(&r.info);
    Some(match pname {
        0x828C => GL_FULL_SUPPORT,
        0x828D => i64::from(format),
        _ => i64::from(ty),
    })
}

/// `GL_TEXTURE_IMAGE_FORMAT/TYPE` (`glTexImage*` uploads) and `GL_GET_TEXTURE_IMAGE_FORMAT/
/// TYPE` (`glGetTexImage`): textures with levels to transfer (not multisample ones), with
/// the exact pair where the upload path takes it (depth and stencil planes always:
/// `pixel/upload_depth.rs`).
fn texture_image(r: &Resource, pname: GLenum) -> Option<i64> {
    if r.kind.texture().is_none_or(|t| t.is_multisample()) {
        return None;
    }
    let (format, ty) = natural_pair(&r.info);
    let upload = pname < 0x8291;
    let transfers = r.info.is_depth_stencil() || !upload || check_pair(&r.info, format, ty).is_ok();
    if !transfers {
        return None;
    }
    Some(i64::from(if pname % 2 == 1 { format } else { ty }))
}

/// `GL_COLOR_ENCODING`, `GL_SRGB_READ`, `GL_SRGB_WRITE`, `GL_SRGB_DECODE_ARB`.
fn srgb(r: &Resource, pname: GLenum) -> Option<i64> {
    let colour = !r.info.is_depth_stencil();
    let srgb = colour && r.info.srgb;
    match pname {
        0x8296 if colour => Some(if srgb { GL_SRGB } else { GL_LINEAR_ENCODING }),
        0x8296 => None,
        0x8297 => full(srgb && r.kind.texture().is_some()),
        // Decoding cannot be turned off (`GL_EXT_texture_sRGB_decode` is not offered).
        GL_SRGB_DECODE_ARB => None,
        _ => full(srgb && r.attachable),
    }
}

/// `GL_TEXTURE_COMPRESSED_BLOCK_WIDTH/HEIGHT/SIZE` of a specific compressed format (in
/// texels and bytes).
fn compressed_block(internal: GLenum, pname: GLenum) -> Option<i64> {
    let c = codec(internal)?;
    let [width, height] = c.block_size();
    Some(match pname {
        0x82B3 => i64::from(c.block_bytes()),
        0x82B1 => i64::from(width),
        _ => i64::from(height),
    })
}

/// `GL_CLEAR_TEXTURE`: what `glClearTexImage` clears (not depth/stencil, multisample or
/// compressed textures).
fn clear_texture(r: &Resource) -> Option<i64> {
    let t = r.kind.texture()?;
    full(!t.is_multisample() && !r.info.is_depth_stencil() && codec(r.internal).is_none())
}

/// `GL_TEXTURE_VIEW` (views need immutable, so sized, storage) and
/// `GL_VIEW_COMPATIBILITY_CLASS`.
fn texture_view(r: &Resource, pname: GLenum) -> Option<i64> {
    r.kind.texture()?;
    if pname == 0x82B5 {
        return full(is_sized(r.internal));
    }
    let class = view_class(r.internal)?;
    Some(match class {
        128 => 0x82C4,
        96 => 0x82C5,
        64 => 0x82C6,
        48 => 0x82C7,
        32 => 0x82C8,
        24 => 0x82C9,
        16 => 0x82CA,
        8 => 0x82CB,
        // Compressed classes 1001… in `view_class`'s order: RGTC1, RGTC2, BPTC unorm, BPTC
        // float, DXT1 RGB, DXT1 RGBA, DXT3, DXT5.
        1001 => 0x82D0,
        1002 => 0x82D1,
        1003 => 0x82D2,
        1004 => 0x82D3,
        c => 0x82CC + i64::from(c - 1005),
    })
}

/// `GL_IMAGE_COMPATIBILITY_CLASS` of an image-unit format: components × bits, or the packed
/// classes.
fn image_class(info: &FormatInfo) -> Option<i64> {
    let bits = &info.bits[..4];
    if bits == [11, 11, 10, 0] {
        return Some(0x82C2);
    }
    if bits == [10, 10, 10, 2] {
        return Some(0x82C3);
    }
    let comps = bits.iter().filter(|&&b| b > 0).count();
    let row = match bits[0] {
        32 => 0,
        16 => 1,
        8 => 2,
        _ => return None,
    };
    let column = match comps {
        4 => 0,
        2 => 1,
        1 => 2,
        _ => return None,
    };
    Some(0x82B9 + row * 3 + column)
}

/// The client `(format, type)` that carries texels of `info` exactly: the base format (its
/// `_INTEGER` form for integer formats) and the type of the widest channel or the packing.
pub(crate) fn natural_pair(info: &FormatInfo) -> (GLenum, GLenum) {
    match info.base {
        Base::Depth if info.comp == Comp::Float => (GL_DEPTH_COMPONENT, GL_FLOAT),
        Base::Depth if info.bits[6] == 16 => (GL_DEPTH_COMPONENT, GL_UNSIGNED_SHORT),
        Base::Depth => (GL_DEPTH_COMPONENT, GL_UNSIGNED_INT),
        Base::DepthStencil if info.comp == Comp::Float => {
            (GL_DEPTH_STENCIL, GL_FLOAT_32_UNSIGNED_INT_24_8_REV)
        }
        Base::DepthStencil => (GL_DEPTH_STENCIL, GL_UNSIGNED_INT_24_8),
        Base::Stencil => (GL_STENCIL_INDEX, GL_UNSIGNED_BYTE),
        _ => (colour_format(info), colour_type(info)),
    }
}

/// The client format of a colour format's texels.
fn colour_format(info: &FormatInfo) -> GLenum {
    let integer = info.comp.is_integer();
    let pick = |plain: GLenum, int: GLenum| if integer { int } else { plain };
    match info.base {
        Base::Red | Base::Intensity => pick(GL_RED, GL_RED_INTEGER),
        Base::Rg => pick(GL_RG, GL_RG_INTEGER),
        Base::Rgb => pick(GL_RGB, GL_RGB_INTEGER),
        Base::Alpha => pick(GL_ALPHA, GL_ALPHA_INTEGER),
        Base::Luminance => pick(GL_LUMINANCE, GL_LUMINANCE_INTEGER),
        Base::LuminanceAlpha => pick(GL_LUMINANCE_ALPHA, GL_LUMINANCE_ALPHA_INTEGER),
        _ => pick(GL_RGBA, GL_RGBA_INTEGER),
    }
}

/// The client type of a colour format's texels: its packing, else its widest channel.
fn colour_type(info: &FormatInfo) -> GLenum {
    match (&info.bits[..4], info.comp) {
        ([10, 10, 10, 2], _) => return GL_UNSIGNED_INT_2_10_10_10_REV,
        ([11, 11, 10, 0], Comp::Float) => return GL_UNSIGNED_INT_10F_11F_11F_REV,
        ([9, 9, 9, 0], Comp::Float) => return GL_UNSIGNED_INT_5_9_9_9_REV,
        _ => {}
    }
    let widest = info.bits[..6].iter().copied().max().unwrap_or(8);
    match (info.comp, widest) {
        (Comp::Float, 0..=16) => GL_HALF_FLOAT,
        (Comp::Float, _) => GL_FLOAT,
        (Comp::Unorm | Comp::UInt, 0..=8) => GL_UNSIGNED_BYTE,
        (Comp::Unorm | Comp::UInt, 9..=16) => GL_UNSIGNED_SHORT,
        (Comp::UInt, _) => GL_UNSIGNED_INT,
        (Comp::Snorm | Comp::Int, 0..=8) => GL_BYTE,
        (Comp::Snorm | Comp::Int, 9..=16) => GL_SHORT,
        (Comp::Int, _) => GL_INT,
        // Wider unorm/snorm channels (none GL names) read as their 16-bit type.
        (Comp::Unorm, _) => GL_UNSIGNED_SHORT,
        (Comp::Snorm, _) => GL_SHORT,
    }
}
