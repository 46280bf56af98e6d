//! Texture entry points: names and binding, image specification (plain, compressed, immutable
//! storage), sub-image uploads, mipmap generation and parameters. The framebuffer and
//! renderbuffer entry points are in `framebuffer::api`.

use std::collections::HashMap;

use arenagl_memory::ImageRegion;
use arenagl_staging::{ClientFormat, ClientPixel, PairError, PixelStore, Region};
use ash::vk;

use crate::gl::context::enums::*;
use crate::gl::context::error::{
    gen_count, invalid_enum, invalid_op, invalid_value, GlError, GlResult,
};
use crate::gl::context::Context;
use crate::gl::objects::framebuffer::Attachment;
use crate::gl::objects::texture::internal_format::{is_depth_format, Base, FormatInfo};
use crate::gl::objects::texture::internalformat_answers::{
    GL_IMAGE_FORMAT_COMPATIBILITY_BY_SIZE, GL_IMAGE_FORMAT_COMPATIBILITY_TYPE,
};
use crate::gl::objects::texture::storage::{wants_mutable_format, ImageRef, Origin};
use crate::gl::objects::texture::target::TexTarget;
use crate::gl::objects::texture::view::{GL_TEXTURE_VIEW_MIN_LEVEL, GL_TEXTURE_VIEW_NUM_LAYERS};
use crate::gl::objects::texture::{
    full_view, image_desc_for, integer_answers, integer_border, integer_values, set_param,
    storage_format, BorderColor, Storage, TexImage, Texture,
};
use crate::gl::vk::device::Device;

/// The storage target `glBindTexture`, `glTexParameter` and `glGenerateMipmap` name
/// (`GL_TEXTURE_BUFFER` is none: `glBindTexture` handles it before, and the others refuse it
/// with `GL_INVALID_ENUM`, as GL 4.6 §8.10 and §8.14.4 say).
fn bind_target(target: GLenum) -> GlResult<TexTarget> {
    TexTarget::from_bind(target)
        .ok_or_else(|| GlError::InvalidEnum(format!("texture target 0x{target:04X}")))
}

/// The texture target and face a `glTexImage{dims}D`-family command addresses; a target of
/// another dimensionality is `GL_INVALID_ENUM`, as the spec says.
fn image_target(target: GLenum, dims: u32) -> GlResult<(TexTarget, u32)> {
    match TexTarget::from_image(target) {
        Some((t, face)) if t.dims() == dims && !t.is_multisample() => Ok((t, face)),
        _ => invalid_enum(&format!("glTex*Image{dims}D target"), target),
    }
}

/// The level a `glTexImage*`-style command specifies: `dims` of the command, its target, level,
/// internal format, GL sizes (unused dimensions 1) and border.
pub(crate) struct LevelSpec {
    pub dims: u32,
    pub target: GLenum,
    pub level: i32,
    pub internal: i32,
    pub size: [i32; 3],
    pub border: i32,
    /// The level's texels arrive as compressed blocks (`glCompressedTexImage*`): its storage
    /// may keep them in the device's block format (`native`).
    pub blocks: bool,
}

/// The box a `glTexSubImage*` writes: the bound texture's target, the cube face (0 for other
/// targets) and the region of the image.
pub(crate) struct SubImage {
    pub tt: TexTarget,
    pub face: u32,
    pub region: ImageRegion,
}

/// The transfer region of a GL box (`offset`, `size`, both in GL axes) of `level`/`face`.
pub(crate) fn image_region(
    t: TexTarget,
    face: u32,
    level: u32,
    off: [i32; 3],
    size: [u32; 3],
) -> ImageRegion {
    let mut r = ImageRegion::rect(level, off[0], off[1], size[0], size[1]);
    match t {
        TexTarget::D1 | TexTarget::D2 | TexTarget::Rect | TexTarget::D2Multisample => {}
        TexTarget::D3 => {
            r.offset.z = off[2];
            r.extent.depth = size[2];
        }
        TexTarget::Cube => r.base_layer = face,
        TexTarget::D1Array => {
            r.offset.y = 0;
            r.extent.height = 1;
            r.base_layer = off[1] as u32;
            r.layer_count = size[1];
        }
        TexTarget::D2Array | TexTarget::D2MultisampleArray | TexTarget::CubeArray => {
            r.base_layer = off[2] as u32;
            r.layer_count = size[2];
        }
    }
    r
}

/// Cube faces are square, and a cube map array's depth counts whole cubes (six layer-faces
/// each): `GL_INVALID_VALUE` otherwise.
fn check_cube_size(t: TexTarget, size: [i32; 3]) -> GlResult<()> {
    if t.is_cube() && size[0] != size[1] {
        return invalid_value("cube map faces must be square");
    }
    if t == TexTarget::CubeArray && size[2] % 6 != 0 {
        return invalid_value(format!(
            "a cube map array's depth {} is not a multiple of 6",
            size[2]
        ));
    }
    Ok(())
}

/// The unpack state a transfer of `t` reads with: a 1D array's layers are the rows of a 2D
/// client image, so the 3D-only parameters must not apply to them.
pub(crate) fn unpack_for(t: TexTarget, store: &PixelStore) -> PixelStore {
    let mut s = *store;
    if t == TexTarget::D1Array {
        s.image_height = 0;
        s.skip_images = 0;
    }
    s
}

/// The largest GL size per axis for `t` at level 0 and the number of levels it allows.
pub(crate) fn limits_of(t: TexTarget, l: &vk::PhysicalDeviceLimits) -> ([u32; 3], u32) {
    let layers = l.max_image_array_layers;
    let max = match t {
        TexTarget::D1 => [l.max_image_dimension1_d, 1, 1],
        TexTarget::D1Array => [l.max_image_dimension1_d, layers, 1],
        TexTarget::D2 | TexTarget::Rect | TexTarget::D2Multisample => {
            [l.max_image_dimension2_d, l.max_image_dimension2_d, 1]
        }
        TexTarget::Cube => [l.max_image_dimension_cube, l.max_image_dimension_cube, 1],
        TexTarget::CubeArray => [
            l.max_image_dimension_cube,
            l.max_image_dimension_cube,
            layers - layers % 6,
        ],
        TexTarget::D2Array | TexTarget::D2MultisampleArray => {
            [l.max_image_dimension2_d, l.max_image_dimension2_d, layers]
        }
        TexTarget::D3 => [l.max_image_dimension3_d; 3],
    };
    let largest = (0..3)
        .filter(|&a| !t.is_layer_axis(a))
        .map(|a| max[a])
        .max()
        .unwrap_or(1);
    let levels = if t.has_mipmaps() {
        32 - largest.max(1).leading_zeros()
    } else {
        1
    };
    (max, levels)
}

/// GL sizes from the command's arguments (missing dimensions are 1).
fn gl_size(dims: u32, width: i32, height: i32, depth: i32) -> [i32; 3] {
    match dims {
        1 => [width, 1, 1],
        2 => [width, height, 1],
        _ => [width, height, depth],
    }
}

/// Level-0 GL size of an image whose `level` has `size` (array layers do not scale).
fn base_size(t: TexTarget, level: u32, size: [u32; 3]) -> [u32; 3] {
    let mut out = size;
    for (axis, v) in out.iter_mut().enumerate() {
        if (axis as u32) < t.dims() && !t.is_layer_axis(axis) {
            *v <<= level;
        }
    }
    out
}

/// Mip levels a full chain of level-0 size `size` has.
fn full_levels(t: TexTarget, size: [u32; 3]) -> u32 {
    if !t.has_mipmaps() {
        return 1;
    }
    let largest = (0..3)
        .filter(|&a| !t.is_layer_axis(a))
        .map(|a| size[a])
        .max()
        .unwrap_or(1);
    32 - largest.max(1).leading_zeros()
}

impl Context {
    /// `glGenTextures`.
    pub fn gen_textures(&mut self, n: i32) -> Vec<u32> {
        let r = gen_count("glGenTextures", n).map(|n| self.textures.generate(n));
        self.record(r).unwrap_or_default()
    }

    /// `glIsTexture`.
    pub fn is_texture(&self, name: u32) -> bool {
        self.textures.get(name).is_some_and(Texture::named)
    }

    /// `glActiveTexture`.
    pub fn active_texture(&mut self, unit: GLenum) {
        let i = unit.wrapping_sub(GL_TEXTURE0);
        if i >= crate::gl::objects::program::MAX_TEXTURE_UNITS {
            self.record::<()>(invalid_enum("glActiveTexture unit", unit));
            return;
        }
        self.active_texture = i;
    }

    /// The texture `name` names, made on its first bind; `GL_INVALID_OPERATION` for a name
    /// that is not a texture name.
    pub(crate) fn texture_to_bind(&mut self, name: u32) -> GlResult<&mut Texture> {
        self.textures
            .get_or_create(name, Texture::default)
            .ok_or_else(|| GlError::InvalidOperation(format!("{name} is not a texture name")))
    }

    /// `glBindTexture`.
    /// Cube map arrays need the device's `imageCubeArray`: without it their target is
    /// `GL_INVALID_ENUM`, as for a GL without GL_ARB_texture_cube_map_array.
    pub(crate) fn check_target_supported(&self, tt: TexTarget) -> GlResult<()> {
        if tt == TexTarget::CubeArray && !self.device.caps().gl4.image_cube_array {
            return invalid_enum("texture target (no imageCubeArray)", tt.gl());
        }
        Ok(())
    }

    pub fn bind_texture(&mut self, target: GLenum, name: u32) {
        if self.textures.get(name).is_some_and(|t| !t.named()) {
            // A deleted texture that framebuffers keep (`framebuffer/retained.rs`).
            self.record::<()>(invalid_op(format!("{name} is not a texture name")));
            return;
        }
        if let Err(e) = self.es_check_texture_target(target) {
            return self.record::<()>(Err(e)).unwrap_or_default();
        }
        if target == GL_TEXTURE_BUFFER {
            return self.bind_buffer_texture(name);
        }
        let r = (|| {
            let tt = bind_target(target)?;
            self.check_target_supported(tt)?;
            if name != 0 {
                let t = self.texture_to_bind(name)?;
                if t.buffer.is_some() {
                    return invalid_op("the texture was first bound to GL_TEXTURE_BUFFER");
                }
                match t.target {
                    None => {
                        t.target = Some(tt);
                        t.params = tt.initial_params();
                    }
                    Some(first) if first != tt => {
                        return invalid_op(format!(
                            "the texture was first bound to target 0x{:04X}",
                            first.gl()
                        ))
                    }
                    Some(_) => {}
                }
            }
            self.texture_units[self.active_texture as usize][tt.index()] = name;
            Ok(())
        })();
        self.record(r);
    }

    /// `glDeleteTextures`.
    pub fn delete_textures(&mut self, names: &[u32]) {
        let device = self.device.clone();
        for &name in names {
            let kept = self.textures.get(name).is_some_and(|t| !t.named());
            if name == 0 || !self.textures.is_reserved(name) || kept {
                continue;
            }
            for u in self
                .texture_units
                .iter_mut()
                .flatten()
                .chain(self.texture_buffers.units.iter_mut())
            {
                if *u == name {
                    *u = 0;
                }
            }
            self.detach_everywhere(Attachment::Texture {
                name,
                level: 0,
                layer: 0,
                layered: false,
            });
            if self.shares_objects() {
                self.bury(crate::gl::context::share_group::SharedKind::Texture, name);
                continue;
            }
            // Framebuffers that are not bound keep it (`framebuffer/retained.rs`).
            let released = self
                .textures
                .remove(name)
                .and_then(|t| self.keep_deleted_texture(name, t));
            if let Some(t) = released {
                crate::gl::context::share_group::release_texture(t, &mut device.lock());
            }
        }
    }

    /// The name of the texture bound to `target` on the active unit, or of the texture a DSA
    /// command names (`dsa`).
    pub(crate) fn bound_texture_name(&self, target: TexTarget) -> u32 {
        (self.dsa.texture)
            .unwrap_or(self.texture_units[self.active_texture as usize][target.index()])
    }

    /// The texture bound to `target` on the active unit, or the texture a DSA command names
    /// (`dsa`).
    pub(crate) fn bound_texture(&mut self, target: TexTarget) -> GlResult<&mut Texture> {
        self.check_target_supported(target)?;
        let name = self.bound_texture_name(target);
        if self.dsa.texture.is_some()
            && self.textures.get(name).and_then(|t| t.target) != Some(target)
        {
            return invalid_op(format!(
                "texture {name} is not a 0x{:04X} texture",
                target.gl()
            ));
        }
        if name == 0 {
            if self.profile == crate::gl::context::Profile::Compatibility {
                // The compatibility profile's default texture of the target.
                return self
                    .default_textures
                    .get_mut(target.index())
                    .ok_or_else(|| GlError::InvalidOperation("no default texture".into()));
            }
            return invalid_op(
                "no texture bound (texture object 0 cannot be changed in the core profile)",
            );
        }
        // Whatever the caller does next (upload, mipmaps, parameters, queries) sees the whole
        // texture, not its demoted stand-in.
        self.restore_texture(name)?;
        let frame = self.pressure.frame;
        let t = self
            .textures
            .get_mut(name)
            .ok_or_else(|| GlError::InvalidOperation("the bound texture is gone".into()))?;
        // An upload or a parameter change is a use: a texture just made is not "unsampled".
        t.last_sampled.set(frame);
        Ok(t)
    }

    /// The unpack layout of a client image and the bytes it reads (the C edge sizes the client
    /// pointer's slice with this).
    pub fn client_image_bytes(
        &self,
        width: i32,
        height: i32,
        format: GLenum,
        ty: GLenum,
        pack: bool,
    ) -> Option<usize> {
        self.client_box_bytes(width, height, None, format, ty, pack)
    }

    /// [`Context::client_image_bytes`] of a `width × height × depth` box of a 3D call
    /// (`glTexImage3D`, `glTexSubImage3D`): `GL_UNPACK_IMAGE_HEIGHT` and `GL_UNPACK_SKIP_IMAGES`
    /// apply even to a box one image deep, as they do in [`upload`].
    pub fn client_image_bytes_3d(
        &self,
        width: i32,
        height: i32,
        depth: i32,
        format: GLenum,
        ty: GLenum,
        pack: bool,
    ) -> Option<usize> {
        self.client_box_bytes(width, height, Some(depth), format, ty, pack)
    }

    /// The bytes a client box reads: a 2D image when `depth` is `None`, else a 3D box.
    fn client_box_bytes(
        &self,
        width: i32,
        height: i32,
        depth: Option<i32>,
        format: GLenum,
        ty: GLenum,
        pack: bool,
    ) -> Option<usize> {
        if crate::gl::pixel::readback_depth::is_depth_stencil_format(format) {
            let pixel = crate::gl::pixel::readback_depth::pixel_bytes(format, ty)?;
            let store = if pack { &self.pack } else { &self.unpack };
            // Layers of a depth upload follow each other's rows (`upload_depth`).
            let (w, h) = (
                width.max(0) as usize,
                height.max(0) as usize * depth.unwrap_or(1).max(0) as usize,
            );
            return crate::gl::pixel::readback_depth::layout(store, w, h, pixel).map(|(_, n)| n);
        }
        let store = if pack { &self.pack } else { &self.unpack };
        let (w, h) = (width.max(0) as u32, height.max(0) as u32);
        let region = match depth {
            None => Region::d2(w, h),
            Some(d) => Region::d3(w, h, d.max(0) as u32),
        };
        let layout = ClientPixel::from_gl(format, ty)
            .ok()?
            .layout(store, region)
            .ok()?;
        usize::try_from(layout.required_bytes()).ok()
    }

    /// `glTexImage2D`.
    #[allow(clippy::too_many_arguments)]
    pub fn tex_image_2d(
        &mut self,
        target: GLenum,
        level: i32,
        internal: i32,
        width: i32,
        height: i32,
        border: i32,
        format: GLenum,
        ty: GLenum,
        data: Option<&[u8]>,
    ) {
        let size = [width, height, 1];
        self.tex_image(2, target, level, internal, size, border, (format, ty), data);
    }

    /// `glTexImage1D`, `glTexImage2D` (`dims` 2) and `glTexImage3D`: specifies one level (of one
    /// cube face) with GL sizes `size` (unused dimensions 1).
    #[allow(clippy::too_many_arguments)]
    pub fn tex_image(
        &mut self,
        dims: u32,
        target: GLenum,
        level: i32,
        internal: i32,
        size: [i32; 3],
        border: i32,
        (format, ty): (GLenum, GLenum),
        data: Option<&[u8]>,
    ) {
        let spec = LevelSpec {
            dims,
            target,
            level,
            internal,
            size,
            border,
            blocks: false,
        };
        let r = crate::gl::objects::texture::internal_format::refuse_texels(
            internal as GLenum,
            "glTexImage",
        )
        .and_then(|()| self.specify_level(spec, (format, ty), data));
        if self.record(r).is_some() {
            self.auto_generate_mipmap(target, level);
        }
    }

    /// [`Context::tex_image`]'s work, returning the error instead of recording it (the
    /// compressed commands and `glCopyTexImage*` specify the level through it, then upload
    /// their texels).
    pub(crate) fn specify_level(
        &mut self,
        spec: LevelSpec,
        (format, ty): (GLenum, GLenum),
        data: Option<&[u8]>,
    ) -> GlResult<()> {
        let LevelSpec {
            dims,
            target,
            level,
            internal,
            size,
            border,
            blocks,
        } = spec;
        let device = self.device.clone();
        let unpack = self.unpack;
        {
            let (tt, face) = image_target(target, dims)?;
            if let (Ok(t), Ok(level)) = (self.bound_texture(tt), u32::try_from(level)) {
                // Respecified: any compressed blocks it had are gone (`get_compressed`).
                t.forget_blocks(face, level);
            }
            let size = gl_size(dims, size[0], size[1], size[2]);
            let (max, max_levels) = limits_of(tt, &device.caps().limits);
            if level < 0 || level as u32 >= max_levels {
                return invalid_value(format!("level {level}"));
            }
            let level = level as u32;
            for axis in 0..3 {
                let limit = if tt.is_layer_axis(axis) || axis as u32 >= tt.dims() {
                    max[axis]
                } else {
                    max[axis] >> level
                };
                if size[axis] < 0 || size[axis] as u32 > limit {
                    return invalid_value(format!("size {size:?} at level {level}"));
                }
            }
            check_cube_size(tt, size)?;
            if border != 0 {
                return invalid_value("border must be 0");
            }
            let mut storage = level_storage(&device, tt, internal as GLenum)?;
            if blocks {
                storage = crate::gl::objects::texture::native::prefer_native(
                    &device.lock(),
                    tt,
                    internal as GLenum,
                    storage,
                );
            }
            let vk_format = storage.format;
            if storage.info.is_depth_stencil() {
                crate::gl::pixel::upload_depth::client_planes(storage.info.base, format, ty)?;
            } else if crate::gl::pixel::readback_depth::is_depth_stencil_format(format) {
                return invalid_op(format!(
                    "format 0x{format:04X} does not match internal format 0x{internal:04X}"
                ));
            } else {
                check_pair(&storage.info, format, ty)?;
            }
            let size = size.map(|v| v as u32);
            let t = self.bound_texture(tt)?;
            if t.storage.as_ref().is_some_and(|s| s.immutable) {
                return invalid_op("the texture's storage is immutable (glTexStorage)");
            }
            let mut locked = device.lock();
            if size.contains(&0) {
                if let Some(s) = t.storage.take() {
                    s.release(&mut locked.manager);
                }
                return Ok(());
            }
            // A shared image (an EGL image's) is orphaned, not written: the texture gets its own.
            let reuse = t.storage.as_ref().is_some_and(|s| {
                !s.shared.is_shared()
                    && s.format == vk_format
                    && s.format_swizzle == storage.info.swizzle(vk_format)
                    && level < s.levels
                    && s.level_size(level) == size
            });
            if !reuse {
                let base = base_size(tt, level, size);
                let levels = full_levels(tt, base);
                let s = new_storage(&mut locked, tt, &storage, internal as GLenum, base, levels)?;
                if let Some(old) = t.storage.replace(s) {
                    old.release(&mut locked.manager);
                }
            }
            let Some(s) = t.storage.as_mut() else {
                return Ok(());
            };
            s.internal = internal as GLenum;
            s.info = storage.info;
            if let Some(d) = data {
                let region = image_region(tt, face, level, [0; 3], size);
                upload(&mut locked, s, tt, &region, d, &unpack, (format, ty))?;
            }
            s.define(face, level);
            Ok(())
        }
    }

    /// `glCompressedTexImage1D/2D/3D`: the blocks are decompressed here and stored like any
    /// other texels (no device format is assumed to support them; see `staging::compressed`).
    #[allow(clippy::too_many_arguments)]
    pub fn compressed_tex_image(
        &mut self,
        dims: u32,
        target: GLenum,
        level: i32,
        internal: GLenum,
        size: [i32; 3],
        border: i32,
        data: Option<&[u8]>,
    ) {
        let r = (|| {
            let codec =
                crate::gl::objects::texture::internal_format::codec(internal).ok_or_else(|| {
                    GlError::InvalidEnum(format!("compressed internal format 0x{internal:04X}"))
                })?;
            self.unpack_blocks.check_skips(dims, &self.unpack)?;
            let gl = gl_size(dims, size[0], size[1], size[2]);
            if gl.iter().any(|&v| v < 0) {
                return invalid_value(format!("size {gl:?}"));
            }
            let [w, h, d] = gl.map(|v| v as u32);
            let needed = codec.image_bytes(w, h, d).unwrap_or(u64::MAX);
            if data.is_some_and(|d| d.len() as u64 != needed) {
                return invalid_value(format!("imageSize is not {needed} for this image"));
            }
            let spec = LevelSpec {
                dims,
                target,
                level,
                internal: internal as i32,
                size,
                border,
                blocks: true,
            };
            self.specify_level(spec, (GL_RGBA, GL_UNSIGNED_BYTE), None)?;
            let Some(data) = data.filter(|_| w > 0 && h > 0 && d > 0) else {
                return Ok(());
            };
            self.upload_compressed(dims, target, level, [0; 3], [w, h, d], codec, data)
        })();
        self.record(r);
    }

    /// `glCompressedTexSubImage1D/2D/3D`: `format` must be the texture's compressed format and
    /// the box must lie on block boundaries (or reach the level's edge).
    #[allow(clippy::too_many_arguments)]
    pub fn compressed_tex_sub_image(
        &mut self,
        dims: u32,
        target: GLenum,
        level: i32,
        (offset, size): ([i32; 3], [i32; 3]),
        format: GLenum,
        data: &[u8],
    ) {
        let r = (|| {
            let (tt, face) = image_target(target, dims)?;
            let codec = crate::gl::objects::texture::internal_format::codec(format)
                .ok_or_else(|| GlError::InvalidEnum(format!("compressed format 0x{format:04X}")))?;
            self.unpack_blocks.check_skips(dims, &self.unpack)?;
            let size = gl_size(dims, size[0], size[1], size[2]);
            let offset = [offset[0], offset[1], offset[2]];
            let t = self.bound_texture(tt)?;
            let Some(s) = t.storage.as_ref() else {
                return invalid_op("glCompressedTexSubImage on a texture without storage");
            };
            if s.internal != format {
                return invalid_op("the format is not the texture's compressed format");
            }
            if level < 0 || !s.face_level_defined(face, level as u32) {
                return invalid_value(format!("level {level} is not defined"));
            }
            let have = s.level_size(level as u32);
            let outside = (0..3).any(|a| {
                offset[a] < 0
                    || size[a] < 0
                    || offset[a] as u64 + size[a] as u64 > u64::from(have[a])
            });
            if outside {
                return invalid_value(format!("region {offset:?} {size:?} outside the level"));
            }
            let block = codec.block_size().map(|v| v as i32);
            let unaligned = (0..2).any(|a| {
                offset[a] % block[a] != 0
                    || (size[a] % block[a] != 0 && (offset[a] + size[a]) as u32 != have[a])
            });
            if unaligned {
                return invalid_op(format!(
                    "the region does not lie on {}×{} block boundaries",
                    block[0], block[1]
                ));
            }
            let [w, h, d] = size.map(|v| v as u32);
            if codec.image_bytes(w, h, d) != Some(data.len() as u64) {
                return invalid_value("imageSize does not match the region");
            }
            if w == 0 || h == 0 || d == 0 {
                return Ok(());
            }
            self.upload_compressed(dims, target, level, offset, [w, h, d], codec, data)
        })();
        self.record(r);
    }

    /// Decompresses `data` (blocks of `codec` covering `size`) and uploads the texels into the
    /// box at `offset` of the bound texture's `level`, converted to its storage format.
    #[allow(clippy::too_many_arguments)]
    fn upload_compressed(
        &mut self,
        dims: u32,
        target: GLenum,
        level: i32,
        offset: [i32; 3],
        size: [u32; 3],
        codec: arenagl_staging::Codec,
        data: &[u8],
    ) -> GlResult<()> {
        let device = self.device.clone();
        let (tt, face) = image_target(target, dims)?;
        let t = self.bound_texture(tt)?;
        t.store_blocks(
            &device,
            (tt, face, level as u32),
            (offset, size),
            codec,
            data,
        )
    }
}

impl Texture {
    /// Decompresses `data` (blocks of `codec` covering `size` texels) into the box at `offset`
    /// of (`face`, `level`) of this `tt` texture, converted to its storage format, and keeps the
    /// blocks (`glGetCompressedTexImage`, `glCopyImageSubData`). No storage: nothing.
    pub(crate) fn store_blocks(
        &mut self,
        device: &crate::gl::vk::device::Device,
        (tt, face, level): (TexTarget, u32, u32),
        (offset, size): ([i32; 3], [u32; 3]),
        codec: arenagl_staging::Codec,
        data: &[u8],
    ) -> GlResult<()> {
        let Some(s) = self.storage.as_ref() else {
            return Ok(());
        };
        let native = crate::gl::objects::texture::native::is_native(s.format);
        if native {
            let region = s.vk_region(&image_region(tt, face, level, offset, size));
            device
                .lock()
                .manager
                .upload_blocks(s.image, &region, data)?;
        } else {
            self.decode_blocks(device, (tt, face, level), (offset, size), codec, data)?;
        }
        crate::gl::objects::texture::native::count_upload(native);
        let Some(s) = self.storage.as_ref() else {
            return Ok(());
        };
        let level_size = s.level_size(level);
        self.keep_blocks(
            (face, level),
            level_size,
            (offset.map(|v| v as u32), size),
            codec,
            data,
        );
        Ok(())
    }

    /// [`Texture::store_blocks`] into uncompressed storage: the blocks decoded on the CPU and
    /// converted to the storage format.
    pub(crate) fn decode_blocks(
        &mut self,
        device: &crate::gl::vk::device::Device,
        (tt, face, level): (TexTarget, u32, u32),
        (offset, size): ([i32; 3], [u32; 3]),
        codec: arenagl_staging::Codec,
        data: &[u8],
    ) -> GlResult<()> {
        let decoded = arenagl_staging::decompress(codec, data, size[0], size[1], size[2])
            .map_err(|e| GlError::InvalidValue(format!("compressed data: {e}")))?;
        let Some(s) = self.storage.as_ref() else {
            return Ok(());
        };
        let from = codec.decoded_format();
        let to = crate::gl::objects::texture::internal_format::texel_format(s.format).ok_or_else(
            || GlError::InvalidOperation(format!("uploads into {:?} storage", s.format)),
        )?;
        let texels = if from == to {
            decoded
        } else {
            let (fb, tb) = (from.texel_bytes() as usize, to.texel_bytes() as usize);
            let mut out = vec![0u8; decoded.len() / fb * tb];
            for (src, dst) in decoded.chunks_exact(fb).zip(out.chunks_exact_mut(tb)) {
                to.encode(from.decode(src), dst);
            }
            out
        };
        let region = s.vk_region(&image_region(tt, face, level, offset, size));
        let tight = PixelStore {
            alignment: arenagl_staging::PixelAlignment::One,
            ..PixelStore::default()
        };
        let bytes = to.texel_bytes() as u8;
        device.lock().manager.upload_image(
            s.image,
            &region,
            &texels,
            &tight,
            ClientFormat::Texels(bytes),
        )?;
        Ok(())
    }
}

impl Context {
    /// `glTexStorage1D/2D/3D`: every level at once, immutable afterwards.
    pub fn tex_storage(
        &mut self,
        dims: u32,
        target: GLenum,
        levels: i32,
        internal: GLenum,
        size: [i32; 3],
    ) {
        let device = self.device.clone();
        let r = (|| {
            let tt = match TexTarget::from_bind(target) {
                Some(t) if t.dims() == dims && !t.is_multisample() => t,
                _ => return invalid_enum(&format!("glTexStorage{dims}D target"), target),
            };
            if !is_sized(internal) {
                return invalid_enum("glTexStorage needs a sized internal format", internal);
            }
            let storage = {
                let locked = device.lock();
                let storage =
                    storage_format(&locked, internal, device.caps().depth_stencil_format)?;
                crate::gl::objects::texture::native::prefer_native(&locked, tt, internal, storage)
            };
            if storage.info.base == Base::Stencil
                && !crate::gl::objects::texture::stencil::stencil8_textures(&device)
            {
                return invalid_enum("stencil-only texture format", internal);
            }
            let vk_format = storage.format;
            let size = gl_size(dims, size[0], size[1], size[2]);
            if levels < 1 || size.iter().any(|&v| v < 1) {
                return invalid_value(format!("glTexStorage levels {levels} size {size:?}"));
            }
            let (max, _) = limits_of(tt, &device.caps().limits);
            if (0..3).any(|a| size[a] as u32 > max[a]) {
                return invalid_value(format!("size {size:?}"));
            }
            check_cube_size(tt, size)?;
            if tt == TexTarget::D3 && is_depth_format(vk_format) {
                return invalid_op("3D textures cannot have a depth format");
            }
            let size = size.map(|v| v as u32);
            if levels as u32 > full_levels(tt, size) {
                return invalid_op(format!("{levels} levels for size {size:?}"));
            }
            let t = self.bound_texture(tt)?;
            if t.storage.as_ref().is_some_and(|s| s.immutable) {
                return invalid_op("the texture's storage is already immutable");
            }
            let mut locked = device.lock();
            let levels = levels as u32;
            let s = new_immutable_storage(&mut locked, tt, &storage, internal, size, levels)?;
            if let Some(old) = t.storage.replace(s) {
                old.release(&mut locked.manager);
            }
            t.blocks.clear();
            Ok(())
        })();
        self.record(r);
    }

    /// `glTexSubImage2D`.
    #[allow(clippy::too_many_arguments)]
    pub fn tex_sub_image_2d(
        &mut self,
        target: GLenum,
        level: i32,
        x: i32,
        y: i32,
        width: i32,
        height: i32,
        format: GLenum,
        ty: GLenum,
        data: &[u8],
    ) {
        let region = ([x, y, 0], [width, height, 1]);
        self.tex_sub_image(2, target, level, region, (format, ty), data);
    }

    /// `glTexSubImage1D/2D/3D`: `(offset, size)` in GL axes (unused dimensions 0 and 1).
    pub fn tex_sub_image(
        &mut self,
        dims: u32,
        target: GLenum,
        level: i32,
        (offset, size): ([i32; 3], [i32; 3]),
        (format, ty): (GLenum, GLenum),
        data: &[u8],
    ) {
        let device = self.device.clone();
        let unpack = self.unpack;
        let r = (|| {
            let Some(SubImage { tt, face, region }) =
                self.sub_image_region(dims, target, level, (offset, size), (format, ty))?
            else {
                return Ok(());
            };
            let t = self.bound_texture(tt)?;
            let Some(s) = t.storage.as_ref() else {
                return invalid_op("glTexSubImage on a texture without storage");
            };
            upload(
                &mut device.lock(),
                s,
                tt,
                &region,
                data,
                &unpack,
                (format, ty),
            )?;
            t.forget_blocks(face, region.mip_level);
            Ok(())
        })();
        if self.record(r).is_some() {
            self.auto_generate_mipmap(target, level);
        }
    }

    /// GL's checks of a `glTexSubImage{dims}D` into the bound texture; the box to write, or
    /// `None` when it is empty.
    pub(crate) fn sub_image_region(
        &mut self,
        dims: u32,
        target: GLenum,
        level: i32,
        (offset, size): ([i32; 3], [i32; 3]),
        (format, ty): (GLenum, GLenum),
    ) -> GlResult<Option<SubImage>> {
        let (tt, face) = image_target(target, dims)?;
        let size = gl_size(dims, size[0], size[1], size[2]);
        let offset = [
            offset[0],
            if dims >= 2 { offset[1] } else { 0 },
            if dims >= 3 { offset[2] } else { 0 },
        ];
        let t = self.bound_texture(tt)?;
        let Some(s) = t.storage.as_ref() else {
            return invalid_op("glTexSubImage on a texture without storage");
        };
        crate::gl::objects::texture::internal_format::refuse_texels(s.internal, "glTexSubImage")?;
        let device = self.device.clone();
        let t = self.bound_texture(tt)?;
        t.decode_native_storage(&device, "glTexSubImage")?;
        let Some(s) = t.storage.as_ref() else {
            return invalid_op("glTexSubImage on a texture without storage");
        };
        if s.info.is_depth_stencil() {
            crate::gl::pixel::upload_depth::client_planes(s.info.base, format, ty)?;
        } else if crate::gl::pixel::readback_depth::is_depth_stencil_format(format) {
            return invalid_op("depth/stencil pixels into a colour texture");
        } else {
            check_pair(&s.info, format, ty)?;
        }
        if level < 0 || !s.face_level_defined(face, level as u32) {
            return invalid_value(format!("level {level} is not defined"));
        }
        let level = level as u32;
        let have = s.level_size(level);
        let outside = (0..3).any(|a| {
            offset[a] < 0 || size[a] < 0 || offset[a] as u64 + size[a] as u64 > u64::from(have[a])
        });
        if outside {
            return invalid_value(format!(
                "region {offset:?} {size:?} outside level {level} ({have:?})"
            ));
        }
        if size.contains(&0) {
            return Ok(None);
        }
        let region = image_region(tt, face, level, offset, size.map(|v| v as u32));
        Ok(Some(SubImage { tt, face, region }))
    }

    /// `glGenerateMipmap`: every level above the base level, up to `GL_TEXTURE_MAX_LEVEL`, is
    /// filtered down from the one before it by linear blits (the manager's `generate_mipmaps`,
    /// all layers and faces at once).
    pub fn generate_mipmap(&mut self, target: GLenum) {
        let r = bind_target(target).and_then(|tt| {
            if !tt.has_mipmaps() {
                return invalid_enum("glGenerateMipmap target", target);
            }
            self.generate_mipmap_of(tt)
        });
        self.record(r);
    }

    /// `GL_GENERATE_MIPMAP` (compatibility profile): after level `level` of the texture bound
    /// to image target `target` changed, a texture with the parameter set regenerates the
    /// levels above its base level when that was the base level. A texture that cannot be
    /// generated yet (a cube map with faces still undefined) is left as it is.
    pub(crate) fn auto_generate_mipmap(&mut self, target: GLenum, level: i32) {
        if self.profile != crate::gl::context::Profile::Compatibility {
            return;
        }
        let Some((tt, _)) = TexTarget::from_image(target).filter(|(tt, _)| tt.has_mipmaps()) else {
            return;
        };
        let wanted = self
            .bound_texture(tt)
            .is_ok_and(|t| t.params.generate_mipmap && t.params.base_level == level);
        if wanted {
            if let Err(e) = self.generate_mipmap_of(tt) {
                tracing::debug!(error = ?e, "GL_GENERATE_MIPMAP: levels not generated");
            }
        }
    }

    /// `glGenerateMipmap`'s work on the texture bound to `tt`.
    fn generate_mipmap_of(&mut self, tt: TexTarget) -> GlResult<()> {
        let device = self.device.clone();
        {
            let t = self.bound_texture(tt)?;
            let base = t.params.base_level.max(0) as u32;
            let max_level = t.params.max_level.max(0) as u32;
            if let Some(s) = t.storage.as_ref() {
                crate::gl::objects::texture::internal_format::refuse_texels(
                    s.internal,
                    "glGenerateMipmap",
                )?;
            }
            t.decode_native_storage(&device, "glGenerateMipmap")?;
            // The levels above the base get filtered texels, not blocks (`get_compressed`).
            t.blocks.retain(|&(_, level), _| level <= base);
            let Some(s) = t.storage.as_mut() else {
                return invalid_op("glGenerateMipmap on a texture without storage");
            };
            if !s.level_defined(base) {
                return invalid_op(format!(
                    "glGenerateMipmap: base level {base} is not defined (on every face)"
                ));
            }
            let last = max_level.min(s.levels - 1);
            if last <= base {
                return Ok(());
            }
            let (image, format, size) = (s.image, s.format, (s.size[0], s.size[1]));
            let origin = s.origin;
            let sizes: Vec<[u32; 3]> = (0..s.levels).map(|l| s.level_size(l)).collect();
            let (blittable, features, own_format) = {
                let locked = device.lock();
                (
                    locked.manager.supports_linear_blit(format),
                    locked.manager.format_features(format),
                    same_format_as_image(&locked, image, format),
                )
            };
            // A texture view filters its own levels and layers in its own format: on the CPU
            // (blits and the drawing path see the whole image in its format), but for depth.
            let whole_image = own_format && origin == Origin::default();
            let depth = is_depth_format(format);
            let renderable = features.contains(if depth {
                vk::FormatFeatureFlags::DEPTH_STENCIL_ATTACHMENT
            } else {
                vk::FormatFeatureFlags::COLOR_ATTACHMENT
            });
            // The drawing fallback renders single-layer 2D levels of formats it can render;
            // other targets blit, and colour formats that can be neither blitted nor drawn
            // are filtered on the CPU.
            if tt == TexTarget::D2
                && renderable
                && whole_image
                && crate::gl::pixel::mipmap_fallback::use_shader(format, blittable)
            {
                self.generate_mipmaps_by_shader(image, format, size, base, last)?;
            } else if blittable && (whole_image || depth) {
                let (base, last) = (origin.level + base, origin.level + last);
                device.lock().manager.generate_mipmaps(image, base, last)?;
            } else if !depth {
                self.generate_mipmaps_on_cpu(
                    (image, format, tt, origin),
                    |l| sizes.get(l as usize).copied().unwrap_or([1, 1, 1]),
                    base,
                    last,
                )?;
            } else {
                return invalid_op(format!(
                    "glGenerateMipmap: the device can neither blit nor render {format:?} {tt:?} levels"
                ));
            }
            if let Some(s) = self.bound_texture(tt)?.storage.as_mut() {
                for level in base..=last {
                    s.define_all_faces(level);
                }
            }
            Ok(())
        }
    }

    /// `glTexParameterf`/`i`.
    pub fn tex_parameter(&mut self, target: GLenum, pname: GLenum, value: f32) {
        let r = (|| {
            if pname == GL_TEXTURE_BORDER_COLOR {
                return invalid_enum("glTexParameter scalar for GL_TEXTURE_BORDER_COLOR", pname);
            }
            self.check_compat_param(pname)?;
            let tt = bind_target(target)?;
            // The value's errors come before the binding's (piglit
            // arb_texrect-texture-base-level-error sets them with texture 0 bound).
            set_param(&mut tt.initial_params(), pname, value)?;
            crate::gl::objects::texture::extensions::check_wrap(&self.device, pname, value)?;
            tt.check_param(pname, value)?;
            let t = self.bound_texture(tt)?;
            set_param(&mut t.params, pname, value)?;
            clamp_immutable_levels(t);
            Ok(())
        })();
        self.record(r);
    }

    /// `glTexParameterfv` with four values (`GL_TEXTURE_BORDER_COLOR`,
    /// `GL_TEXTURE_SWIZZLE_RGBA`) or one.
    pub fn tex_parameter_v(&mut self, target: GLenum, pname: GLenum, values: &[f32]) {
        let r = (|| {
            self.check_compat_param(pname)?;
            let tt = bind_target(target)?;
            let first = values.first().copied().unwrap_or(0.0);
            crate::gl::objects::texture::extensions::check_wrap(&self.device, pname, first)?;
            let t = self.bound_texture(tt)?;
            if pname == GL_TEXTURE_SWIZZLE_RGBA {
                let [r, g, b, a, ..] = values else {
                    return invalid_value("GL_TEXTURE_SWIZZLE_RGBA needs 4 values");
                };
                // All four are checked before any changes (an error changes nothing).
                let mut params = t.params;
                for (i, v) in [r, g, b, a].into_iter().enumerate() {
                    set_param(&mut params, GL_TEXTURE_SWIZZLE_R + i as GLenum, *v)?;
                }
                t.params = params;
                return Ok(());
            }
            if pname == GL_TEXTURE_BORDER_COLOR {
                if let [r, g, b, a, ..] = values {
                    t.params.border = BorderColor::Float([*r, *g, *b, *a]);
                    return Ok(());
                }
                return invalid_value("border colour needs 4 values");
            }
            let value = values.first().copied().unwrap_or(0.0);
            tt.check_param(pname, value)?;
            set_param(&mut t.params, pname, value)?;
            clamp_immutable_levels(t);
            Ok(())
        })();
        self.record(r);
    }

    /// `glTexParameterIiv` (`signed`) / `glTexParameterIuiv`: the border colour keeps the
    /// integer words exactly; every other parameter is set as by `glTexParameteriv`.
    pub fn tex_parameter_integer(
        &mut self,
        target: GLenum,
        pname: GLenum,
        values: &[u32],
        signed: bool,
    ) {
        self.set_integer_parameter(
            pname,
            (values, signed),
            |c, floats| c.tex_parameter_v(target, pname, floats),
            |c| Ok(&mut c.bound_texture(bind_target(target)?)?.params.border),
        );
    }

    /// What `gl{Tex,Sampler}ParameterI{i,ui}v` share: the border colour keeps the integer
    /// words exactly (written through `border`, which finds the object); any other
    /// parameter is handed to `set_floats` as the floats of the `…iv` form.
    pub(crate) fn set_integer_parameter(
        &mut self,
        pname: GLenum,
        (values, signed): (&[u32], bool),
        set_floats: impl FnOnce(&mut Self, &[f32]),
        border: impl FnOnce(&mut Self) -> GlResult<&mut BorderColor>,
    ) {
        if pname != GL_TEXTURE_BORDER_COLOR {
            return set_floats(self, &integer_values(values, signed));
        }
        let r = (|| {
            *border(self)? = integer_border(values, signed)?;
            Ok(())
        })();
        self.record(r);
    }

    /// What `glGet{Tex,Sampler}ParameterI{i,ui}v` share: the border colour's stored words
    /// (read through `border`); any other parameter as `get_floats` answers it, truncated.
    pub(crate) fn get_integer_parameter(
        &mut self,
        pname: GLenum,
        signed: bool,
        get_floats: impl FnOnce(&mut Self) -> Vec<f32>,
        border: impl FnOnce(&mut Self) -> GlResult<&mut BorderColor>,
    ) -> Vec<u32> {
        if pname != GL_TEXTURE_BORDER_COLOR {
            return integer_answers(&get_floats(self), signed);
        }
        let r = border(self).map(|b| b.words().to_vec());
        self.record(r).unwrap_or_default()
    }

    /// `glGetTexParameterIiv` (`signed`) / `glGetTexParameterIuiv`: the border colour's stored
    /// words; every other parameter as `glGetTexParameteriv` answers it.
    pub fn get_tex_parameter_integer(
        &mut self,
        target: GLenum,
        pname: GLenum,
        signed: bool,
    ) -> Vec<u32> {
        self.get_integer_parameter(
            pname,
            signed,
            |c| c.get_tex_parameter(target, pname),
            |c| Ok(&mut c.bound_texture(bind_target(target)?)?.params.border),
        )
    }

    /// `GL_DEPTH_TEXTURE_MODE` and `GL_GENERATE_MIPMAP` are compatibility-profile state:
    /// `GL_INVALID_ENUM` in core.
    fn check_compat_param(&self, pname: GLenum) -> GlResult<()> {
        if matches!(pname, GL_DEPTH_TEXTURE_MODE | GL_GENERATE_MIPMAP)
            && self.profile != crate::gl::context::Profile::Compatibility
        {
            return invalid_enum("texture parameter of the compatibility profile", pname);
        }
        Ok(())
    }

    /// `glGetTexParameterfv`.
    pub fn get_tex_parameter(&mut self, target: GLenum, pname: GLenum) -> Vec<f32> {
        let r = (|| {
            self.check_compat_param(pname)?;
            let image_units = self.offers("GL_ARB_shader_image_load_store");
            let tt = bind_target(target)?;
            // The core profile's texture object 0 cannot be changed, but it answers queries
            // with its initial state (GL 4.6 table 23.15), as Mesa's does.
            let initial;
            let t: &Texture = if self.bound_texture_name(tt) == 0
                && self.profile != crate::gl::context::Profile::Compatibility
            {
                initial = Texture {
                    params: tt.initial_params(),
                    ..Texture::default()
                };
                &initial
            } else {
                self.bound_texture(tt)?
            };
            let immutable = t
                .storage
                .as_ref()
                .filter(|s| s.immutable)
                .map(|s| s.immutable_levels);
            let p = t.params;
            if let Some(value) = p.sampling_value(pname) {
                return Ok(value);
            }
            Ok(match pname {
                GL_TEXTURE_BASE_LEVEL => vec![p.base_level as f32],
                GL_TEXTURE_MAX_LEVEL => vec![p.max_level as f32],
                GL_TEXTURE_SWIZZLE_R..=GL_TEXTURE_SWIZZLE_A => {
                    vec![p.swizzle[(pname - GL_TEXTURE_SWIZZLE_R) as usize] as f32]
                }
                GL_TEXTURE_SWIZZLE_RGBA => p.swizzle.iter().map(|&c| c as f32).collect(),
                GL_TEXTURE_IMMUTABLE_FORMAT => vec![if immutable.is_some() { 1.0 } else { 0.0 }],
                GL_TEXTURE_IMMUTABLE_LEVELS => vec![immutable.unwrap_or(0) as f32],
                GL_TEXTURE_VIEW_MIN_LEVEL..=GL_TEXTURE_VIEW_NUM_LAYERS => {
                    vec![t
                        .storage
                        .as_ref()
                        .and_then(|s| s.view_query(pname))
                        .unwrap_or(0) as f32]
                }
                GL_DEPTH_TEXTURE_MODE => vec![p.depth_mode as f32],
                GL_GENERATE_MIPMAP => vec![if p.generate_mipmap { 1.0 } else { 0.0 }],
                crate::gl::objects::texture::stencil::GL_DEPTH_STENCIL_TEXTURE_MODE => {
                    vec![crate::gl::objects::texture::stencil::mode_value(p.stencil_mode) as f32]
                }
                // Image units match formats by size (GL 4.6 §8.26; read-only here).
                GL_IMAGE_FORMAT_COMPATIBILITY_TYPE if image_units => {
                    vec![GL_IMAGE_FORMAT_COMPATIBILITY_BY_SIZE as f32]
                }
                p => return invalid_enum("glGetTexParameter pname", p),
            })
        })();
        self.record(r).unwrap_or_default()
    }

    /// `glGetTexLevelParameteriv`.
    pub fn get_tex_level_parameter(&mut self, target: GLenum, level: i32, pname: GLenum) -> i32 {
        let device = self.device.clone();
        let r = (|| {
            if let Some(slot) = crate::gl::objects::texture::multisample::proxy_index(target) {
                if level != 0 {
                    return invalid_value(format!("level {level} of a multisample proxy"));
                }
                let proxy = self.proxy_multisample[slot].as_ref();
                return crate::gl::objects::texture::multisample::ProxyLevel::query(proxy, pname)
                    .map_or_else(|| invalid_enum("glGetTexLevelParameter pname", pname), Ok);
            }
            if target == GL_TEXTURE_BUFFER {
                return self.buffer_texture_level_parameter(level, pname);
            }
            let (tt, face) = TexTarget::from_image(target)
                .ok_or_else(|| GlError::InvalidEnum(format!("texture target 0x{target:04X}")))?;
            let (_, max_levels) = limits_of(tt, &device.caps().limits);
            if level < 0 || level as u32 >= max_levels {
                return invalid_value(format!("level {level}"));
            }
            let t = self.bound_texture(tt)?;
            let s = t
                .storage
                .as_ref()
                .filter(|s| s.face_level_defined(face, level as u32));
            let size = s.map_or([0; 3], |s| s.level_size(level as u32));
            if let Some(v) = format_query(s.map(|s| &s.info), pname) {
                return Ok(v);
            }
            Ok(match pname {
                GL_TEXTURE_WIDTH => size[0] as i32,
                GL_TEXTURE_HEIGHT => size[1] as i32,
                GL_TEXTURE_DEPTH => size[2] as i32,
                GL_TEXTURE_INTERNAL_FORMAT => s.map_or(GL_RGBA as i32, |s| s.internal as i32),
                // 0 for a single-sampled (or undefined) level, as GL says.
                GL_TEXTURE_SAMPLES => {
                    s.map_or(0, |s| if s.samples > 1 { s.samples as i32 } else { 0 })
                }
                GL_TEXTURE_FIXED_SAMPLE_LOCATIONS => i32::from(s.is_none_or(|s| s.fixed_locations)),
                // GL_TEXTURE_COMPRESSED: the format the application named (decompressed here).
                0x86A1 => i32::from(s.is_some_and(|s| {
                    crate::gl::objects::texture::internal_format::codec(s.internal).is_some()
                })),
                // GL_TEXTURE_COMPRESSED_IMAGE_SIZE of a compressed level.
                0x86A0 => s
                    .and_then(|s| crate::gl::objects::texture::internal_format::codec(s.internal))
                    .and_then(|c| c.image_bytes(size[0], size[1], size[2]))
                    .map_or(0, |v| v as i32),
                p => return invalid_enum("glGetTexLevelParameter pname", p),
            })
        })();
        self.record(r).unwrap_or(0)
    }
}

/// The storage of a `glTexImage*` level of `internal` for target `tt` on `device`: the
/// format's storage (`storage_format`) where GL lets `tt` hold it — no 3D depth/stencil
/// textures, no 1D or rectangle compressed ones, and stencil-only ones only where the device
/// samples their storage (GL_ARB_texture_stencil8, `stencil.rs`). What
/// `glGetInternalformativ` answers for texture targets comes from this same check.
pub(crate) fn level_storage(device: &Device, tt: TexTarget, internal: GLenum) -> GlResult<Storage> {
    let storage = storage_format(&device.lock(), internal, device.caps().depth_stencil_format)?;
    if storage.info.base == Base::Stencil
        && !crate::gl::objects::texture::stencil::stencil8_textures(device)
    {
        return invalid_enum("stencil-only texture format", internal);
    }
    if storage.info.is_depth_stencil() && tt == TexTarget::D3 {
        return invalid_op("3D textures cannot have a depth format");
    }
    // Specific compressed formats are 2D block formats (GL 4.6 table 8.17).
    let compressed = crate::gl::objects::texture::internal_format::codec(internal).is_some();
    if compressed && matches!(tt, TexTarget::D1 | TexTarget::Rect) {
        return invalid_enum("compressed format on a 1D or rectangle texture", internal);
    }
    Ok(storage)
}

/// A new image (and its sampling view) for `target` with level-0 GL size `size`, stored as
/// `storage` for the internal format the application named `internal`.
fn new_storage(
    locked: &mut crate::gl::vk::device::Locked,
    target: TexTarget,
    storage: &Storage,
    internal: GLenum,
    size: [u32; 3],
    levels: u32,
) -> GlResult<TexImage> {
    storage_image(locked, target, storage, internal, size, levels, false)
}

/// [`new_storage`] of `glTexStorage*`: immutable, every level defined.
fn new_immutable_storage(
    locked: &mut crate::gl::vk::device::Locked,
    target: TexTarget,
    storage: &Storage,
    internal: GLenum,
    size: [u32; 3],
    levels: u32,
) -> GlResult<TexImage> {
    let mut s = storage_image(locked, target, storage, internal, size, levels, true)?;
    s.immutable = true;
    s.immutable_levels = levels;
    for level in 0..levels {
        s.define_all_faces(level);
    }
    Ok(s)
}

/// The image of [`new_storage`] (`immutable`: for `glTexStorage*`, which may be viewed in
/// other formats and targets, `storage.rs`).
pub(crate) fn storage_image(
    locked: &mut crate::gl::vk::device::Locked,
    target: TexTarget,
    storage: &Storage,
    internal: GLenum,
    size: [u32; 3],
    levels: u32,
    immutable: bool,
) -> GlResult<TexImage> {
    let format = storage.format;
    let mut desc = image_desc_for(target, format, size, levels, storage.renderable);
    desc.flags |= view_flags(target, internal, format, size, immutable);
    let layers = desc.array_layers;
    let swizzle = storage.info.swizzle(format);
    let (image, view) =
        locked.image_with_view(&desc, &full_view(target, levels, layers, format, swizzle))?;
    Ok(TexImage {
        image,
        shared: ImageRef::new(image),
        origin: Origin::default(),
        immutable_levels: 0,
        view,
        format,
        internal,
        info: storage.info,
        format_swizzle: swizzle,
        target,
        size,
        levels,
        defined: [0; 6],
        immutable: false,
        level_views: HashMap::new(),
        swizzle_views: HashMap::new(),
        demotion: None,
        samples: 1,
        fixed_locations: true,
    })
}

/// The create flags that let an image of `internal` (stored as `format`) be seen in other
/// formats and targets (`storage.rs`): mutable format, and cube-compatible layers for a
/// square immutable 2D array (cube views).
pub(crate) fn view_flags(
    target: TexTarget,
    internal: GLenum,
    format: vk::Format,
    size: [u32; 3],
    immutable: bool,
) -> vk::ImageCreateFlags {
    let mut flags = vk::ImageCreateFlags::empty();
    if wants_mutable_format(internal, format, immutable) {
        flags |= vk::ImageCreateFlags::MUTABLE_FORMAT;
    }
    if immutable && target == TexTarget::D2Array && size[0] == size[1] && size[2] >= 6 {
        flags |= vk::ImageCreateFlags::CUBE_COMPATIBLE;
    }
    flags
}

/// GL 4.6 §8.17: an immutable texture's base level lies in [0, levels - 1] and its max level
/// in [base, levels - 1] (clamped when set, as Mesa does, so queries see the clamp).
fn clamp_immutable_levels(t: &mut Texture) {
    if let Some(s) = t.storage.as_ref().filter(|s| s.immutable) {
        let last = s.levels.saturating_sub(1) as i32;
        t.params.base_level = t.params.base_level.clamp(0, last);
        t.params.max_level = t.params.max_level.clamp(t.params.base_level, last);
    }
}

/// Whether `image` is stored in `format` itself (not a texture view's other format of it).
pub(crate) fn same_format_as_image(
    locked: &crate::gl::vk::device::Locked,
    image: arenagl_memory::ImageHandle,
    format: vk::Format,
) -> bool {
    locked
        .manager
        .image_info(image)
        .is_ok_and(|i| i.desc.format == format)
}

/// Whether `internal` names a sized format (what `glTexStorage*` requires): not a base
/// format, a legacy component count, an unsized sRGB/snorm name or a generic compressed one.
pub(crate) fn is_sized(internal: GLenum) -> bool {
    !matches!(
        internal,
        1..=4
            | GL_RGBA
            | GL_RGB
            | GL_RG
            | GL_RED
            | GL_ALPHA
            | GL_LUMINANCE
            | GL_LUMINANCE_ALPHA
            | 0x8049 // GL_INTENSITY
            | GL_DEPTH_COMPONENT
            | GL_DEPTH_STENCIL
            | 0x8C40 | 0x8C42 | 0x8C44 | 0x8C46 // GL_SRGB, _ALPHA, GL_SLUMINANCE(_ALPHA)
            | 0x8C48 | 0x8C49 | 0x8225 | 0x8226 | 0x84E9..=0x84EE // generic compressed
            | 0x8F90..=0x8F93 | 0x9010..=0x9013 // unsized snorm
    )
}

/// GL's checks of a client `(format, type)` pair against the internal format it uploads into:
/// unknown names are `GL_INVALID_ENUM`; a packed type with the wrong format, or an integer
/// format into a non-integer texture (and the reverse), `GL_INVALID_OPERATION`.
pub(crate) fn check_pair(info: &FormatInfo, format: GLenum, ty: GLenum) -> GlResult<ClientPixel> {
    let pair = ClientPixel::from_gl(format, ty).map_err(|e| pair_error(e, format, ty))?;
    if pair.is_integer() != info.comp.is_integer() {
        return invalid_op(format!(
            "pixel format 0x{format:04X} and the texture's format disagree on integer-ness"
        ));
    }
    Ok(pair)
}

/// Uploads client pixels (`format`/`ty` laid out per `unpack`) into `region` of `s`: the 8-bit
/// pairs into 8-bit storage go straight through staging's byte tables; everything else is
/// converted by staging's general path into the storage format first and copied.
pub(crate) fn upload(
    locked: &mut crate::gl::vk::device::Locked,
    s: &TexImage,
    tt: TexTarget,
    region: &ImageRegion,
    data: &[u8],
    unpack: &PixelStore,
    (format, ty): (GLenum, GLenum),
) -> GlResult<()> {
    let unpack = unpack_for(tt, unpack);
    // The region in the image's levels and layers (a view's lie at its origin); the manager
    // converts only into the image's own format, so a view in another one converts here.
    let region = &s.vk_region(region);
    let own_format = same_format_as_image(locked, s.image, s.format);
    // Texels converted here are tightly packed, `bytes` each.
    let upload_texels = |locked: &mut crate::gl::vk::device::Locked, texels: &[u8], bytes| {
        let tight = PixelStore {
            alignment: arenagl_staging::PixelAlignment::One,
            ..PixelStore::default()
        };
        let client = ClientFormat::Texels(bytes);
        locked
            .manager
            .upload_image(s.image, region, texels, &tight, client)
    };
    if s.info.is_depth_stencil() {
        return crate::gl::pixel::upload_depth::upload(
            &mut locked.manager,
            (s.image, s.format, s.info.base),
            region,
            data,
            &unpack,
            (format, ty),
        );
    }
    if crate::gl::pixel::readback_depth::is_depth_stencil_format(format) {
        return invalid_op(format!("pixel format 0x{format:04X} into a colour texture"));
    }
    let pair = check_pair(&s.info, format, ty)?;
    let narrow = s.info.narrow_in_rgba8(s.format);
    let eight_bit = narrow.is_none()
        && own_format
        && matches!(
            s.format,
            vk::Format::R8G8B8A8_UNORM
                | vk::Format::R8G8B8A8_SRGB
                | vk::Format::R8_UNORM
                | vk::Format::R8G8_UNORM
        );
    if let (true, Some(client)) = (eight_bit, ClientFormat::from_gl(format, ty)) {
        locked
            .manager
            .upload_image(s.image, region, data, &unpack, client)?;
        return Ok(());
    }
    let texel =
        crate::gl::objects::texture::internal_format::texel_format(s.format).ok_or_else(|| {
            GlError::InvalidOperation(format!("pixel uploads into {:?} storage", s.format))
        })?;
    let depth = region.extent.depth.max(region.layer_count);
    let client_region = if depth > 1 || tt == TexTarget::D3 {
        Region::d3(region.extent.width, region.extent.height, depth)
    } else {
        Region::d2(region.extent.width, region.extent.height)
    };
    let mut texels = arenagl_staging::unpack_to_texels(data, &unpack, client_region, pair, texel)
        .map_err(|e| GlError::InvalidOperation(format!("pixel data: {e}")))?;
    if let Some(bits) = narrow {
        round_to_bits(&mut texels, bits);
    }
    if let (true, arenagl_staging::TexelFormat::Array { bytes, .. }) =
        (unsigned_float(s.internal), texel)
    {
        clamp_negatives(&mut texels, usize::from(bytes));
    }
    upload_texels(locked, &texels, texel.texel_bytes() as u8)?;
    Ok(())
}

/// Formats whose values GL keeps non-negative though they are stored as signed floats:
/// `GL_COMPRESSED_RGB_BPTC_UNSIGNED_FLOAT` (GL compresses a negative value to 0).
fn unsigned_float(internal: GLenum) -> bool {
    internal == 0x8E8F
}

/// Sets every negative float component (of `component_bytes`: halves or singles) to 0.
fn clamp_negatives(texels: &mut [u8], component_bytes: usize) {
    for c in texels.chunks_exact_mut(component_bytes) {
        let negative = match *c {
            [a, b] => u16::from_ne_bytes([a, b]) & 0x8000 != 0,
            [a, b, x, y] => f32::from_ne_bytes([a, b, x, y]).is_sign_negative(),
            _ => false,
        };
        if negative {
            c.fill(0);
        }
    }
}

/// Rounds 8-bit RGBA texels to `bits` per channel (kept as 8-bit values: 1 bit is 0 or 255);
/// channels of 0 or 8 bits are left alone.
fn round_to_bits(texels: &mut [u8], bits: [u8; 4]) {
    for texel in texels.chunks_exact_mut(4) {
        for (c, &b) in texel.iter_mut().zip(&bits) {
            if (1..8).contains(&b) {
                let max = (1u32 << b) - 1;
                let q = (u32::from(*c) * max + 127) / 255;
                *c = ((q * 255 + max / 2) / max) as u8;
            }
        }
    }
}

/// A client `(format, type)` pair for a colour readback, with GL's errors.
pub(crate) fn client_pixel_for(format: GLenum, ty: GLenum) -> GlResult<ClientPixel> {
    ClientPixel::from_gl(format, ty).map_err(|e| pair_error(e, format, ty))
}

/// `glReadPixels` of colour: `region` of the attachment `src` into `out` per `pack` as
/// `format`/`ty`. 8-bit sources read into 8-bit pairs go through staging's byte tables; every
/// other combination reads the raw texels and converts them with staging's general path. An
/// integer source needs an integer format and a normalised/float one a non-integer format
/// (`GL_INVALID_OPERATION` otherwise).
/// The attachment's GL format is `info` (None: the storage means GL's components as they
/// are): formats whose storage holds other components (RGB stored as RGBA, alpha in red,
/// luminance) read GL's components (`readback_base`).
#[allow(clippy::too_many_arguments)]
pub(crate) fn read_color_of(
    locked: &mut crate::gl::vk::device::Locked,
    src: crate::gl::objects::framebuffer::Bound,
    info: Option<&FormatInfo>,
    region: &ImageRegion,
    pack: &PixelStore,
    (format, ty): (GLenum, GLenum),
    pair: ClientPixel,
    out: &mut [u8],
) -> GlResult<()> {
    let rebase = info.filter(|i| crate::gl::pixel::readback_base::needs_rebase(i, src.format));
    let texel = crate::gl::objects::texture::internal_format::texel_format(src.format)
        .ok_or_else(|| GlError::InvalidOperation(format!("colour readback of {:?}", src.format)))?;
    if texel.is_integer() != pair.is_integer() {
        return invalid_op(format!(
            "glReadPixels format 0x{format:04X} and the read buffer disagree on integer-ness"
        ));
    }
    let eight_bit = matches!(
        src.format,
        vk::Format::R8G8B8A8_UNORM
            | vk::Format::R8G8B8A8_SRGB
            | vk::Format::B8G8R8A8_UNORM
            | vk::Format::R8_UNORM
            | vk::Format::R8G8_UNORM
    );
    // Luminance reads take the general path: its pack sums R + G + B, as glReadPixels must
    // (the byte tables' rule is glGetTexImage's L = R).
    // The manager converts from the image's own format only (a texture view may have another).
    let bytewise =
        eight_bit && !pair.has_luminance() && same_format_as_image(locked, src.image, src.format);
    if let (true, None, Some(client)) = (bytewise, rebase, ClientFormat::from_gl(format, ty)) {
        crate::gl::context::error::until_done(|| {
            locked
                .manager
                .read_image(src.image, region, pack, client, out)
        })?;
        return Ok(());
    }
    let (w, h) = (region.extent.width, region.extent.height);
    let bytes = texel.texel_bytes() as usize;
    let mut texels = vec![0u8; w as usize * h as usize * bytes];
    let tight = PixelStore {
        alignment: arenagl_staging::PixelAlignment::One,
        ..PixelStore::default()
    };
    crate::gl::context::error::until_done(|| {
        locked.manager.read_image(
            src.image,
            region,
            &tight,
            ClientFormat::Texels(bytes as u8),
            &mut texels,
        )
    })?;
    let (texels, texel) = match rebase {
        Some(info) => crate::gl::pixel::readback_base::rebase(&texels, texel, info, src.format),
        None => (texels, texel),
    };
    arenagl_staging::pack_from_texels(&texels, texel, pack, Region::d2(w, h), pair, out)
        .map_err(|e| GlError::InvalidOperation(format!("glReadPixels destination: {e}")))
}

fn pair_error(e: PairError, format: GLenum, ty: GLenum) -> GlError {
    match e {
        PairError::Enum => {
            GlError::InvalidEnum(format!("pixel format/type 0x{format:04X}/0x{ty:04X}"))
        }
        PairError::Operation => GlError::InvalidOperation(format!(
            "pixel format 0x{format:04X} does not go with type 0x{ty:04X}"
        )),
    }
}

/// `glGetTexLevelParameter` of the format queries (channel sizes and component types) for a
/// level of internal format `info` (`None`: an undefined level, which answers 0 / `GL_NONE`).
/// Answers come from the GL format, not from the storage standing in for it.
pub(crate) fn format_query(info: Option<&FormatInfo>, pname: GLenum) -> Option<i32> {
    let bits = |i: usize| info.map_or(0, |f| i32::from(f.bits[i]));
    let ty = |i: usize| {
        info.filter(|f| f.bits[i] > 0)
            .map_or(GL_NONE as i32, |f| f.comp.gl() as i32)
    };
    Some(match pname {
        0x805C => bits(0), // GL_TEXTURE_RED_SIZE
        0x805D => bits(1), // GL_TEXTURE_GREEN_SIZE
        0x805E => bits(2), // GL_TEXTURE_BLUE_SIZE
        0x805F => bits(3), // GL_TEXTURE_ALPHA_SIZE
        0x8060 => bits(4), // GL_TEXTURE_LUMINANCE_SIZE
        0x8061 => bits(5), // GL_TEXTURE_INTENSITY_SIZE
        0x884A => bits(6), // GL_TEXTURE_DEPTH_SIZE
        0x88F1 => bits(7), // GL_TEXTURE_STENCIL_SIZE
        0x8C3F => 0,       // GL_TEXTURE_SHARED_SIZE
        0x8C10 => ty(0),   // GL_TEXTURE_RED_TYPE
        0x8C11 => ty(1),   // GL_TEXTURE_GREEN_TYPE
        0x8C12 => ty(2),   // GL_TEXTURE_BLUE_TYPE
        0x8C13 => ty(3),   // GL_TEXTURE_ALPHA_TYPE
        0x8C14 => ty(4),   // GL_TEXTURE_LUMINANCE_TYPE
        0x8C15 => ty(5),   // GL_TEXTURE_INTENSITY_TYPE
        0x8C16 => ty(6),   // GL_TEXTURE_DEPTH_TYPE
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::round_to_bits;

    #[test]
    fn narrow_channels_round_to_their_bits() {
        // RGB5_A1: 5-bit colour, 1-bit alpha (125 → 0, 130 → 255).
        let mut t = [125, 130, 255, 125, 0, 0, 0, 130];
        round_to_bits(&mut t, [5, 5, 5, 1]);
        assert_eq!(t, [123, 132, 255, 0, 0, 0, 0, 255]);
        // RGB4 (no alpha): 4 bits are 17 apart; alpha untouched.
        let mut t = [9, 8, 200, 77];
        round_to_bits(&mut t, [4, 4, 4, 0]);
        assert_eq!(t, [17, 0, 204, 77]);
    }
}
