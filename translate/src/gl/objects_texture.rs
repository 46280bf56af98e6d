//! Texture, renderbuffer and framebuffer-object entry points.

use std::collections::HashMap;

use arenagl_memory::{ImageDesc, ImageRegion, ViewDesc};

use super::texture_target::TexTarget;
use arenagl_staging::{ClientFormat, ClientLayout, PixelStore, Region};
use ash::vk;

use super::context::Context;
use super::enums::*;
use super::error::{invalid_enum, invalid_op, invalid_value, GlError, GlResult};
use super::framebuffer::{
    attachment_point, depth_view, renderbuffer_format, Attachment, Framebuffer, Point, Renderbuffer,
};
use super::texture::{full_view, image_desc, set_param, storage_format, TexImage, Texture};

/// The storage target `glBindTexture`, `glTexParameter` and `glGenerateMipmap` name.
fn bind_target(target: GLenum) -> GlResult<TexTarget> {
    match target {
        GL_TEXTURE_2D_MULTISAMPLE | GL_TEXTURE_2D_MULTISAMPLE_ARRAY | GL_TEXTURE_BUFFER => {
            invalid_op(format!(
                "texture target 0x{target:04X} is not supported by this GL yet"
            ))
        }
        t => TexTarget::from_bind(t)
            .ok_or_else(|| GlError::InvalidEnum(format!("texture target 0x{t:04X}"))),
    }
}

/// The texture target and face a `glTexImage{dims}D`-family command addresses; a target of
/// another dimensionality is `GL_INVALID_ENUM`, as the spec says.
fn image_target(target: GLenum, dims: u32) -> GlResult<(TexTarget, u32)> {
    match TexTarget::from_image(target) {
        Some((t, face)) if t.dims() == dims => Ok((t, face)),
        _ => invalid_enum(&format!("glTex*Image{dims}D target"), target),
    }
}

/// The transfer region of a GL box (`offset`, `size`, both in GL axes) of `level`/`face`.
fn image_region(t: TexTarget, face: u32, level: u32, off: [i32; 3], size: [u32; 3]) -> ImageRegion {
    let mut r = ImageRegion::rect(level, off[0], off[1], size[0], size[1]);
    match t {
        TexTarget::D1 | TexTarget::D2 | TexTarget::Rect => {}
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
        TexTarget::D2Array => {
            r.base_layer = off[2] as u32;
            r.layer_count = size[2];
        }
    }
    r
}

/// The unpack state a transfer of `t` reads with: a 1D array's layers are the rows of a 2D
/// client image, so the 3D-only parameters must not apply to them.
fn unpack_for(t: TexTarget, store: &PixelStore) -> PixelStore {
    let mut s = *store;
    if t == TexTarget::D1Array {
        s.image_height = 0;
        s.skip_images = 0;
    }
    s
}

/// The largest GL size per axis for `t` at level 0 and the number of levels it allows.
fn limits_of(t: TexTarget, l: &vk::PhysicalDeviceLimits) -> ([u32; 3], u32) {
    let layers = l.max_image_array_layers;
    let max = match t {
        TexTarget::D1 => [l.max_image_dimension1_d, 1, 1],
        TexTarget::D1Array => [l.max_image_dimension1_d, layers, 1],
        TexTarget::D2 | TexTarget::Rect => [l.max_image_dimension2_d, l.max_image_dimension2_d, 1],
        TexTarget::Cube => [l.max_image_dimension_cube, l.max_image_dimension_cube, 1],
        TexTarget::D2Array => [l.max_image_dimension2_d, l.max_image_dimension2_d, layers],
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
        if n < 0 {
            self.record::<()>(invalid_value(format!("glGenTextures n = {n}")));
            return Vec::new();
        }
        self.textures.generate(n as usize)
    }

    /// `glIsTexture`.
    pub fn is_texture(&self, name: u32) -> bool {
        self.textures.exists(name)
    }

    /// `glActiveTexture`.
    pub fn active_texture(&mut self, unit: GLenum) {
        let i = unit.wrapping_sub(GL_TEXTURE0);
        if i >= super::program::MAX_TEXTURE_UNITS {
            self.record::<()>(invalid_enum("glActiveTexture unit", unit));
            return;
        }
        self.active_texture = i;
    }

    /// `glBindTexture`.
    pub fn bind_texture(&mut self, target: GLenum, name: u32) {
        let r = (|| {
            let tt = bind_target(target)?;
            if name != 0 {
                let t = self
                    .textures
                    .get_or_create(name, Texture::default)
                    .ok_or_else(|| {
                        GlError::InvalidOperation(format!("{name} is not a texture name"))
                    })?;
                match t.target {
                    None => t.target = Some(tt),
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
            if name == 0 || !self.textures.is_reserved(name) {
                continue;
            }
            for u in self.texture_units.iter_mut().flatten() {
                if *u == name {
                    *u = 0;
                }
            }
            self.detach_everywhere(Attachment::Texture {
                name,
                level: 0,
                layer: 0,
            });
            if let Some(Texture {
                storage: Some(s), ..
            }) = self.textures.remove(name)
            {
                let _ = device.lock().manager.retire_image(s.image);
            }
        }
    }

    /// The texture bound to `target` on the active unit.
    fn bound_texture(&mut self, target: TexTarget) -> GlResult<&mut Texture> {
        let name = self.texture_units[self.active_texture as usize][target.index()];
        if name == 0 {
            if self.profile == super::context::Profile::Compatibility {
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
        self.textures
            .get_mut(name)
            .ok_or_else(|| GlError::InvalidOperation("the bound texture is gone".into()))
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
        self.client_image_bytes_3d(width, height, 1, format, ty, pack)
    }

    /// [`Context::client_image_bytes`] of a `width × height × depth` box (`glTexImage3D`).
    pub fn client_image_bytes_3d(
        &self,
        width: i32,
        height: i32,
        depth: i32,
        format: GLenum,
        ty: GLenum,
        pack: bool,
    ) -> Option<usize> {
        if let (false, Some((comps, bytes))) = (pack, super::float_upload::float_pixel(format, ty))
        {
            let size = [width, height, depth].map(|v| v.max(0) as usize);
            return super::float_upload::layout(&self.unpack, size, comps * bytes).map(|l| l.2);
        }
        if pack && super::readback_depth::is_depth_stencil_format(format) {
            let pixel = super::readback_depth::pixel_bytes(format, ty)?;
            let (w, h) = (width.max(0) as usize, height.max(0) as usize);
            return super::readback_depth::layout(&self.pack, w, h, pixel).map(|(_, n)| n);
        }
        if let (true, Some(channels)) = (pack, super::draw::float_readback_channels(format, ty)) {
            let (w, h) = (width.max(0) as usize, height.max(0) as usize);
            if w == 0 || h == 0 {
                return Some(0);
            }
            let stride = super::draw::float_row_stride(&self.pack, w as u32, channels)?;
            let pixel = 4 * channels.len();
            let rows = (self.pack.skip_rows as usize + h - 1).checked_mul(stride)?;
            let last = (self.pack.skip_pixels as usize)
                .checked_add(w)?
                .checked_mul(pixel)?;
            return rows.checked_add(last);
        }
        let f = ClientFormat::from_gl(format, ty)?;
        let store = if pack { &self.pack } else { &self.unpack };
        let (w, h, d) = (
            width.max(0) as u32,
            height.max(0) as u32,
            depth.max(0) as u32,
        );
        let region = if depth == 1 {
            Region::d2(w, h)
        } else {
            Region::d3(w, h, d)
        };
        let layout = ClientLayout::new(store, region, f).ok()?;
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
        let device = self.device.clone();
        let mut unpack = self.unpack;
        let converted = data.and_then(|d| {
            let s = size.map(|v| v.max(0) as usize);
            super::float_upload::to_unorm8(&unpack, s, (format, ty), d)
        });
        let (data, ty) = match &converted {
            Some((bytes, tight)) => {
                unpack = *tight;
                (Some(&bytes[..]), GL_UNSIGNED_BYTE)
            }
            None => (data, ty),
        };
        let r = (|| {
            let (tt, face) = image_target(target, dims)?;
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
            if tt == TexTarget::Cube && size[0] != size[1] {
                return invalid_value("cube map faces must be square");
            }
            if border != 0 {
                return invalid_value("border must be 0");
            }
            let (vk_format, sized) = storage_format(internal, device.caps().depth_stencil_format)?;
            let depth = super::framebuffer::is_depth_format(vk_format);
            if depth != matches!(format, GL_DEPTH_COMPONENT | GL_DEPTH_STENCIL) {
                return invalid_op(format!(
                    "format 0x{format:04X} does not match internal format 0x{internal:04X}"
                ));
            }
            if depth && matches!(tt, TexTarget::D3) {
                return invalid_op("3D textures cannot have a depth format");
            }
            if depth && data.is_some() {
                return invalid_op(
                    "uploading depth texels is not supported by this GL yet (NULL data is)",
                );
            }
            let client = if depth {
                ClientFormat::Rgba // never used: depth textures take no data
            } else {
                client_format(format, ty)?
            };
            let size = size.map(|v| v as u32);
            let t = self.bound_texture(tt)?;
            if t.storage.as_ref().is_some_and(|s| s.immutable) {
                return invalid_op("the texture's storage is immutable (glTexStorage)");
            }
            let mut locked = device.lock();
            if size.contains(&0) {
                if let Some(s) = t.storage.take() {
                    let _ = locked.manager.retire_image(s.image);
                }
                return Ok(());
            }
            let reuse = t.storage.as_ref().is_some_and(|s| {
                s.format == vk_format && level < s.levels && s.level_size(level) == size
            });
            if !reuse {
                let base = base_size(tt, level, size);
                let levels = full_levels(tt, base);
                let s = new_storage(&mut locked, tt, vk_format, sized, base, levels)?;
                if let Some(old) = t.storage.replace(s) {
                    let _ = locked.manager.retire_image(old.image);
                }
            }
            let Some(s) = t.storage.as_mut() else {
                return Ok(());
            };
            s.internal = sized;
            if let Some(d) = data {
                let region = image_region(tt, face, level, [0; 3], size);
                locked.manager.upload_image(
                    s.image,
                    &region,
                    d,
                    &unpack_for(tt, &unpack),
                    client,
                )?;
            }
            s.define(face, level);
            Ok(())
        })();
        self.record(r);
    }

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
                Some(t) if t.dims() == dims => t,
                _ => return invalid_enum(&format!("glTexStorage{dims}D target"), target),
            };
            if matches!(
                internal,
                GL_RGBA | GL_RGB | GL_RG | GL_RED | GL_DEPTH_COMPONENT | GL_DEPTH_STENCIL | 1..=4
            ) {
                return invalid_enum("glTexStorage needs a sized internal format", internal);
            }
            let (vk_format, sized) =
                storage_format(internal as i32, device.caps().depth_stencil_format)?;
            let size = gl_size(dims, size[0], size[1], size[2]);
            if levels < 1 || size.iter().any(|&v| v < 1) {
                return invalid_value(format!("glTexStorage levels {levels} size {size:?}"));
            }
            let (max, _) = limits_of(tt, &device.caps().limits);
            if (0..3).any(|a| size[a] as u32 > max[a]) {
                return invalid_value(format!("size {size:?}"));
            }
            if tt == TexTarget::Cube && size[0] != size[1] {
                return invalid_value("cube map faces must be square");
            }
            if tt == TexTarget::D3 && super::framebuffer::is_depth_format(vk_format) {
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
            let mut s = new_storage(&mut locked, tt, vk_format, sized, size, levels as u32)?;
            s.immutable = true;
            for level in 0..levels as u32 {
                s.define_all_faces(level);
            }
            if let Some(old) = t.storage.replace(s) {
                let _ = locked.manager.retire_image(old.image);
            }
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
        let mut unpack = self.unpack;
        let s = gl_size(dims, size[0], size[1], size[2]).map(|v| v.max(0) as usize);
        let converted = super::float_upload::to_unorm8(&unpack, s, (format, ty), data);
        let (data, ty) = match &converted {
            Some((bytes, tight)) => {
                unpack = *tight;
                (&bytes[..], GL_UNSIGNED_BYTE)
            }
            None => (data, ty),
        };
        let r = (|| {
            let (tt, face) = image_target(target, dims)?;
            let client = client_format(format, ty)?;
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
            if super::framebuffer::is_depth_format(s.format) {
                return invalid_op("uploading depth texels is not supported by this GL yet");
            }
            if level < 0 || !s.face_level_defined(face, level as u32) {
                return invalid_value(format!("level {level} is not defined"));
            }
            let level = level as u32;
            let have = s.level_size(level);
            let outside = (0..3).any(|a| {
                offset[a] < 0
                    || size[a] < 0
                    || offset[a] as u64 + size[a] as u64 > u64::from(have[a])
            });
            if outside {
                return invalid_value(format!(
                    "region {offset:?} {size:?} outside level {level} ({have:?})"
                ));
            }
            if size.contains(&0) {
                return Ok(());
            }
            let region = image_region(tt, face, level, offset, size.map(|v| v as u32));
            device.lock().manager.upload_image(
                s.image,
                &region,
                data,
                &unpack_for(tt, &unpack),
                client,
            )?;
            Ok(())
        })();
        self.record(r);
    }

    /// `glGenerateMipmap`: every level above the base level, up to `GL_TEXTURE_MAX_LEVEL`, is
    /// filtered down from the one before it by linear blits (the manager's `generate_mipmaps`,
    /// all layers and faces at once).
    pub fn generate_mipmap(&mut self, target: GLenum) {
        let device = self.device.clone();
        let r = (|| {
            let tt = bind_target(target)?;
            if !tt.has_mipmaps() {
                return invalid_enum("glGenerateMipmap target", target);
            }
            let t = self.bound_texture(tt)?;
            let base = t.params.base_level.max(0) as u32;
            let max_level = t.params.max_level.max(0) as u32;
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
            let blittable = device.lock().manager.supports_linear_blit(format);
            // The drawing fallback renders single-layer 2D levels; other targets blit.
            if tt == TexTarget::D2 && super::mipmap_fallback::use_shader(format, blittable) {
                self.generate_mipmaps_by_shader(image, format, size, base, last)?;
            } else {
                device.lock().manager.generate_mipmaps(image, base, last)?;
            }
            if let Some(s) = self.bound_texture(tt)?.storage.as_mut() {
                for level in base..=last {
                    s.define_all_faces(level);
                }
            }
            Ok(())
        })();
        self.record(r);
    }

    /// `glTexParameterf`/`i`.
    pub fn tex_parameter(&mut self, target: GLenum, pname: GLenum, value: f32) {
        let r = (|| {
            if pname == GL_TEXTURE_BORDER_COLOR {
                return invalid_enum("glTexParameter scalar for GL_TEXTURE_BORDER_COLOR", pname);
            }
            let tt = bind_target(target)?;
            let t = self.bound_texture(tt)?;
            set_param(&mut t.params, pname, value)
        })();
        self.record(r);
    }

    /// `glTexParameterfv` with four values (`GL_TEXTURE_BORDER_COLOR`) or one.
    pub fn tex_parameter_v(&mut self, target: GLenum, pname: GLenum, values: &[f32]) {
        let r = (|| {
            let tt = bind_target(target)?;
            let t = self.bound_texture(tt)?;
            if pname == GL_TEXTURE_BORDER_COLOR {
                if let [r, g, b, a, ..] = values {
                    t.params.border = [*r, *g, *b, *a];
                    return Ok(());
                }
                return invalid_value("border colour needs 4 values");
            }
            set_param(&mut t.params, pname, values.first().copied().unwrap_or(0.0))
        })();
        self.record(r);
    }

    /// `glGetTexParameterfv`.
    pub fn get_tex_parameter(&mut self, target: GLenum, pname: GLenum) -> Vec<f32> {
        let r = (|| {
            let tt = bind_target(target)?;
            let t = self.bound_texture(tt)?;
            let immutable = t.storage.as_ref().filter(|s| s.immutable).map(|s| s.levels);
            let p = t.params;
            Ok(match pname {
                GL_TEXTURE_MIN_FILTER => vec![p.min_filter as f32],
                GL_TEXTURE_MAG_FILTER => vec![p.mag_filter as f32],
                GL_TEXTURE_WRAP_S => vec![p.wrap[0] as f32],
                GL_TEXTURE_WRAP_T => vec![p.wrap[1] as f32],
                GL_TEXTURE_WRAP_R => vec![p.wrap[2] as f32],
                GL_TEXTURE_MIN_LOD => vec![p.min_lod],
                GL_TEXTURE_MAX_LOD => vec![p.max_lod],
                GL_TEXTURE_BASE_LEVEL => vec![p.base_level as f32],
                GL_TEXTURE_MAX_LEVEL => vec![p.max_level as f32],
                GL_TEXTURE_LOD_BIAS => vec![p.lod_bias],
                GL_TEXTURE_COMPARE_MODE => vec![p.compare_mode as f32],
                GL_TEXTURE_COMPARE_FUNC => vec![p.compare_func as f32],
                GL_TEXTURE_MAX_ANISOTROPY => vec![p.max_anisotropy],
                GL_TEXTURE_BORDER_COLOR => p.border.to_vec(),
                GL_TEXTURE_SWIZZLE_R..=GL_TEXTURE_SWIZZLE_A => {
                    vec![p.swizzle[(pname - GL_TEXTURE_SWIZZLE_R) as usize] as f32]
                }
                GL_TEXTURE_IMMUTABLE_FORMAT => vec![if immutable.is_some() { 1.0 } else { 0.0 }],
                GL_TEXTURE_IMMUTABLE_LEVELS => vec![immutable.unwrap_or(0) as f32],
                p => return invalid_enum("glGetTexParameter pname", p),
            })
        })();
        self.record(r).unwrap_or_default()
    }

    /// `glGetTexLevelParameteriv`.
    pub fn get_tex_level_parameter(&mut self, target: GLenum, level: i32, pname: GLenum) -> i32 {
        let device = self.device.clone();
        let r = (|| {
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
            Ok(match pname {
                GL_TEXTURE_WIDTH => size[0] as i32,
                GL_TEXTURE_HEIGHT => size[1] as i32,
                GL_TEXTURE_DEPTH => size[2] as i32,
                GL_TEXTURE_INTERNAL_FORMAT => s.map_or(GL_RGBA as i32, |s| s.internal as i32),
                p => return invalid_enum("glGetTexLevelParameter pname", p),
            })
        })();
        self.record(r).unwrap_or(0)
    }

    // ---- renderbuffers --------------------------------------------------------------------

    /// `glGenRenderbuffers`.
    pub fn gen_renderbuffers(&mut self, n: i32) -> Vec<u32> {
        if n < 0 {
            self.record::<()>(invalid_value(format!("glGenRenderbuffers n = {n}")));
            return Vec::new();
        }
        self.renderbuffers.generate(n as usize)
    }

    /// `glIsRenderbuffer`.
    pub fn is_renderbuffer(&self, name: u32) -> bool {
        self.renderbuffers.exists(name)
    }

    /// `glBindRenderbuffer`.
    pub fn bind_renderbuffer(&mut self, target: GLenum, name: u32) {
        let r = (|| {
            if target != GL_RENDERBUFFER {
                return invalid_enum("glBindRenderbuffer target", target);
            }
            if name != 0
                && self
                    .renderbuffers
                    .get_or_create(name, Renderbuffer::default)
                    .is_none()
            {
                return invalid_op(format!("{name} is not a renderbuffer name"));
            }
            self.renderbuffer = name;
            Ok(())
        })();
        self.record(r);
    }

    /// `glDeleteRenderbuffers`.
    pub fn delete_renderbuffers(&mut self, names: &[u32]) {
        let device = self.device.clone();
        for &name in names {
            if name == 0 || !self.renderbuffers.is_reserved(name) {
                continue;
            }
            if self.renderbuffer == name {
                self.renderbuffer = 0;
            }
            self.detach_everywhere(Attachment::Renderbuffer(name));
            if let Some(Renderbuffer {
                storage: Some((image, _)),
                ..
            }) = self.renderbuffers.remove(name)
            {
                let _ = device.lock().manager.retire_image(image);
            }
        }
    }

    /// `glRenderbufferStorage` (`glRenderbufferStorageMultisample` with 0 samples).
    pub fn renderbuffer_storage(
        &mut self,
        target: GLenum,
        samples: i32,
        internal: GLenum,
        width: i32,
        height: i32,
    ) {
        let device = self.device.clone();
        let r = (|| {
            if target != GL_RENDERBUFFER {
                return invalid_enum("glRenderbufferStorage target", target);
            }
            let max = device.caps().limits.max_image_dimension2_d as i32;
            if width < 0 || height < 0 || width > max || height > max || samples < 0 {
                return invalid_value(format!("renderbuffer {width}x{height}"));
            }
            let format = renderbuffer_format(&device, internal).ok_or_else(|| {
                GlError::InvalidEnum(format!("renderbuffer internal format 0x{internal:04X}"))
            })?;
            let Some(count) = super::framebuffer::pick_samples(&device, samples as u32) else {
                return invalid_value(format!(
                    "{samples} samples (GL_MAX_SAMPLES is {})",
                    super::framebuffer::max_samples(&device)
                ));
            };
            if count > 1
                && is_integer_format(format)
                && samples > super::framebuffer::max_integer_samples(&device) as i32
            {
                return invalid_op(format!(
                    "{samples} samples of an integer format (GL_MAX_INTEGER_SAMPLES is {})",
                    super::framebuffer::max_integer_samples(&device)
                ));
            }
            let name = self.renderbuffer;
            let rb = self
                .renderbuffers
                .get_mut(name)
                .ok_or_else(|| GlError::InvalidOperation("no renderbuffer bound".into()))?;
            let mut locked = device.lock();
            if let Some((old, _)) = rb.storage.take() {
                let _ = locked.manager.retire_image(old);
            }
            rb.format = format;
            rb.internal = internal;
            rb.samples = if count > 1 { count } else { 0 };
            (rb.width, rb.height) = (width as u32, height as u32);
            if width > 0 && height > 0 {
                let depth = super::framebuffer::is_depth_format(format);
                // Transfers both ways: glBlitFramebuffer, glReadPixels, copies.
                let usage = if depth {
                    vk::ImageUsageFlags::DEPTH_STENCIL_ATTACHMENT
                        | vk::ImageUsageFlags::TRANSFER_SRC
                        | vk::ImageUsageFlags::TRANSFER_DST
                } else {
                    vk::ImageUsageFlags::COLOR_ATTACHMENT
                        | vk::ImageUsageFlags::TRANSFER_SRC
                        | vk::ImageUsageFlags::TRANSFER_DST
                        | vk::ImageUsageFlags::SAMPLED
                };
                let desc = ImageDesc {
                    samples: vk::SampleCountFlags::from_raw(count),
                    ..ImageDesc::new_2d(
                        format,
                        width as u32,
                        height as u32,
                        1,
                        usage,
                        arenagl_memory::Category::RenderTarget,
                    )
                }
                .named("GL renderbuffer");
                let view = if depth {
                    depth_view()
                } else {
                    ViewDesc::color_2d(1)
                };
                rb.storage = Some(locked.image_with_view(&desc, &view)?);
            }
            Ok(())
        })();
        self.record(r);
    }

    // ---- framebuffer objects --------------------------------------------------------------

    /// `glGenFramebuffers`.
    /// `glGetRenderbufferParameteriv` of the bound renderbuffer.
    pub fn get_renderbuffer_parameter(&mut self, target: GLenum, pname: GLenum) -> Option<i32> {
        let r = (|| {
            if target != GL_RENDERBUFFER {
                return invalid_enum("glGetRenderbufferParameteriv target", target);
            }
            let rb = self
                .renderbuffers
                .get(self.renderbuffer)
                .filter(|_| self.renderbuffer != 0)
                .ok_or_else(|| GlError::InvalidOperation("no renderbuffer bound".into()))?;
            let bits = channel_bits(rb.format);
            Ok(match pname {
                0x8D42 => rb.width as i32,  // GL_RENDERBUFFER_WIDTH
                0x8D43 => rb.height as i32, // GL_RENDERBUFFER_HEIGHT
                0x8D44 => {
                    if rb.internal == 0 {
                        GL_RGBA as i32
                    } else {
                        rb.internal as i32
                    }
                } // GL_RENDERBUFFER_INTERNAL_FORMAT
                0x8D50..=0x8D55 => i32::from(bits[(pname - 0x8D50) as usize]), // RED..STENCIL_SIZE
                0x8CAB => rb.samples as i32, // GL_RENDERBUFFER_SAMPLES
                p => return invalid_enum("glGetRenderbufferParameteriv pname", p),
            })
        })();
        self.record(r)
    }

    pub fn gen_framebuffers(&mut self, n: i32) -> Vec<u32> {
        if n < 0 {
            self.record::<()>(invalid_value(format!("glGenFramebuffers n = {n}")));
            return Vec::new();
        }
        self.framebuffers.generate(n as usize)
    }

    /// `glIsFramebuffer`.
    pub fn is_framebuffer(&self, name: u32) -> bool {
        self.framebuffers.exists(name)
    }

    /// `glBindFramebuffer`.
    pub fn bind_framebuffer(&mut self, target: GLenum, name: u32) {
        let r = (|| {
            if !matches!(
                target,
                GL_FRAMEBUFFER | GL_DRAW_FRAMEBUFFER | GL_READ_FRAMEBUFFER
            ) {
                return invalid_enum("glBindFramebuffer target", target);
            }
            if name != 0
                && self
                    .framebuffers
                    .get_or_create(name, Framebuffer::default)
                    .is_none()
            {
                return invalid_op(format!("{name} is not a framebuffer name"));
            }
            if target != GL_READ_FRAMEBUFFER {
                self.draw_framebuffer = name;
            }
            if target != GL_DRAW_FRAMEBUFFER {
                self.read_framebuffer = name;
            }
            Ok(())
        })();
        self.record(r);
    }

    /// `glDeleteFramebuffers`.
    pub fn delete_framebuffers(&mut self, names: &[u32]) {
        for &name in names {
            if name == 0 || !self.framebuffers.is_reserved(name) {
                continue;
            }
            if self.draw_framebuffer == name {
                self.draw_framebuffer = 0;
            }
            if self.read_framebuffer == name {
                self.read_framebuffer = 0;
            }
            self.framebuffers.remove(name);
        }
    }

    fn detach_everywhere(&mut self, what: Attachment) {
        let same = |a: &Option<Attachment>| match (a, what) {
            (Some(Attachment::Texture { name, .. }), Attachment::Texture { name: n, .. }) => {
                *name == n
            }
            (Some(a), w) => *a == w,
            (None, _) => false,
        };
        let bound = [self.draw_framebuffer, self.read_framebuffer];
        for fb_name in bound {
            if let Some(fb) = self.framebuffers.get_mut(fb_name) {
                for c in fb.colors.iter_mut().chain([&mut fb.depth, &mut fb.stencil]) {
                    if same(c) {
                        *c = None;
                    }
                }
            }
        }
    }

    fn target_framebuffer(&mut self, target: GLenum) -> GlResult<&mut Framebuffer> {
        let name = match target {
            GL_FRAMEBUFFER | GL_DRAW_FRAMEBUFFER => self.draw_framebuffer,
            GL_READ_FRAMEBUFFER => self.read_framebuffer,
            t => return invalid_enum("framebuffer target", t),
        };
        if name == 0 {
            return invalid_op("framebuffer 0 has no attachments to change");
        }
        self.framebuffers
            .get_mut(name)
            .ok_or_else(|| GlError::InvalidOperation("the bound framebuffer is gone".into()))
    }

    fn attach(
        &mut self,
        target: GLenum,
        attachment: GLenum,
        what: Option<Attachment>,
    ) -> GlResult<()> {
        let point = attachment_point(attachment)?;
        let fb = self.target_framebuffer(target)?;
        match point {
            Point::Color(i) => fb.colors[i] = what,
            Point::Depth => fb.depth = what,
            Point::Stencil => fb.stencil = what,
            Point::DepthStencil => {
                fb.depth = what;
                fb.stencil = what;
            }
        }
        Ok(())
    }

    /// `glFramebufferTexture2D`.
    pub fn framebuffer_texture_2d(
        &mut self,
        target: GLenum,
        attachment: GLenum,
        textarget: GLenum,
        texture: u32,
        level: i32,
    ) {
        self.framebuffer_texture_nd(2, target, attachment, textarget, texture, level, 0);
    }

    /// `glFramebufferTexture1D/2D/3D`: `textarget` names the texture's target (a cube face for
    /// cube maps); `layer` is the 3D slice.
    #[allow(clippy::too_many_arguments)]
    pub fn framebuffer_texture_nd(
        &mut self,
        dims: u32,
        target: GLenum,
        attachment: GLenum,
        textarget: GLenum,
        texture: u32,
        level: i32,
        layer: i32,
    ) {
        let r = (|| {
            if texture == 0 {
                return self.attach(target, attachment, None);
            }
            let (tt, face) = TexTarget::from_image(textarget)
                .filter(|(t, _)| {
                    t.dims() == dims && !matches!(t, TexTarget::D1Array | TexTarget::D2Array)
                })
                .ok_or_else(|| {
                    GlError::InvalidEnum(format!(
                        "glFramebufferTexture{dims}D textarget 0x{textarget:04X}"
                    ))
                })?;
            let layer = if tt == TexTarget::D3 {
                layer
            } else {
                face as i32
            };
            self.attach_texture_layer(target, attachment, texture, Some(tt), level, layer)
        })();
        self.record(r);
    }

    /// `glFramebufferTextureLayer`: one layer of an array texture or one slice of a 3D one.
    pub fn framebuffer_texture_layer(
        &mut self,
        target: GLenum,
        attachment: GLenum,
        texture: u32,
        level: i32,
        layer: i32,
    ) {
        let r = (|| {
            if texture == 0 {
                return self.attach(target, attachment, None);
            }
            self.attach_texture_layer(target, attachment, texture, None, level, layer)
        })();
        self.record(r);
    }

    /// Validates and attaches `(level, layer)` of `texture`; `expected` is the target the
    /// command names (`None`: any layered target, for `glFramebufferTextureLayer`).
    fn attach_texture_layer(
        &mut self,
        target: GLenum,
        attachment: GLenum,
        texture: u32,
        expected: Option<TexTarget>,
        level: i32,
        layer: i32,
    ) -> GlResult<()> {
        let limits = self.device.caps().limits;
        let t = self
            .textures
            .get(texture)
            .ok_or_else(|| GlError::InvalidOperation(format!("{texture} is not a texture")))?;
        let Some(tt) = t.target else {
            return invalid_op(format!("texture {texture} has never been bound"));
        };
        match expected {
            Some(e) if e != tt => return invalid_op("texture target mismatch"),
            None if !matches!(tt, TexTarget::D3 | TexTarget::D1Array | TexTarget::D2Array) => {
                return invalid_op("glFramebufferTextureLayer needs a 3D or array texture")
            }
            _ => {}
        }
        let (max, max_levels) = limits_of(tt, &limits);
        if level < 0 || level as u32 >= max_levels {
            return invalid_value(format!("level {level}"));
        }
        let max_layer = match tt {
            TexTarget::D3 => max[2] >> level,
            TexTarget::D1Array | TexTarget::D2Array => limits.max_image_array_layers,
            _ => 6,
        };
        if layer < 0 || layer as u32 >= max_layer {
            return invalid_value(format!("layer {layer}"));
        }
        self.attach(
            target,
            attachment,
            Some(Attachment::Texture {
                name: texture,
                level: level as u32,
                layer: layer as u32,
            }),
        )
    }

    /// `glFramebufferRenderbuffer`.
    pub fn framebuffer_renderbuffer(
        &mut self,
        target: GLenum,
        attachment: GLenum,
        rb_target: GLenum,
        renderbuffer: u32,
    ) {
        let r = (|| {
            if rb_target != GL_RENDERBUFFER {
                return invalid_enum("renderbuffer target", rb_target);
            }
            if renderbuffer != 0 && !self.renderbuffers.exists(renderbuffer) {
                return invalid_op(format!("{renderbuffer} is not a renderbuffer"));
            }
            let what = (renderbuffer != 0).then_some(Attachment::Renderbuffer(renderbuffer));
            self.attach(target, attachment, what)
        })();
        self.record(r);
    }

    /// `glDrawBuffers` (and `glDrawBuffer` with one entry).
    pub fn draw_buffers(&mut self, bufs: &[GLenum]) {
        let r = (|| {
            if self.draw_framebuffer == 0 {
                return match bufs {
                    [GL_BACK | GL_BACK_LEFT | GL_FRONT | GL_FRONT_LEFT | GL_NONE] => {
                        self.default_draw_buffer = bufs[0];
                        Ok(())
                    }
                    _ => invalid_op("framebuffer 0 takes one of GL_BACK, GL_FRONT, GL_NONE"),
                };
            }
            if bufs.len() > super::framebuffer::MAX_COLOR_ATTACHMENTS {
                return invalid_value(format!("{} draw buffers", bufs.len()));
            }
            let fb = self.target_framebuffer(GL_DRAW_FRAMEBUFFER)?;
            let mut list = [GL_NONE; super::framebuffer::MAX_COLOR_ATTACHMENTS];
            for (i, &b) in bufs.iter().enumerate() {
                match attachment_point(b) {
                    _ if b == GL_NONE => {}
                    Ok(Point::Color(_)) if list[..i].contains(&b) => {
                        return invalid_op(format!("glDrawBuffers names 0x{b:04X} twice"));
                    }
                    Ok(Point::Color(_)) => {}
                    Err(e @ GlError::InvalidOperation(_)) => return Err(e),
                    _ if matches!(b, GL_BACK | GL_BACK_LEFT | GL_FRONT | GL_FRONT_LEFT) => {
                        return invalid_op(
                            "glDrawBuffers of a window buffer on a framebuffer object",
                        );
                    }
                    _ => return invalid_enum("glDrawBuffers buffer", b),
                }
                list[i] = b;
            }
            fb.draw_buffers = list;
            Ok(())
        })();
        self.record(r);
    }

    /// `glReadBuffer`.
    pub fn read_buffer(&mut self, src: GLenum) {
        let r = (|| {
            if self.read_framebuffer == 0 {
                return match src {
                    GL_BACK | GL_BACK_LEFT | GL_FRONT | GL_FRONT_LEFT | GL_NONE => {
                        self.default_read_buffer = src;
                        Ok(())
                    }
                    _ => invalid_op("framebuffer 0 reads GL_BACK or GL_FRONT"),
                };
            }
            let fb = self.target_framebuffer(GL_READ_FRAMEBUFFER)?;
            if src != GL_NONE && attachment_point(src).is_err() {
                return invalid_enum("glReadBuffer source", src);
            }
            fb.read_buffer = src;
            Ok(())
        })();
        self.record(r);
    }

    /// `glCheckFramebufferStatus`.
    pub fn check_framebuffer_status(&mut self, target: GLenum) -> GLenum {
        let r = (|| {
            let name = match target {
                GL_FRAMEBUFFER | GL_DRAW_FRAMEBUFFER => self.draw_framebuffer,
                GL_READ_FRAMEBUFFER => self.read_framebuffer,
                t => return invalid_enum("glCheckFramebufferStatus target", t),
            };
            Ok(match self.resolve_framebuffer(name, true) {
                Ok(_) => GL_FRAMEBUFFER_COMPLETE,
                Err(status) => status,
            })
        })();
        self.record(r).unwrap_or(0)
    }
}

/// A new image (and its sampling view) for `target` with level-0 GL size `size`.
fn new_storage(
    locked: &mut super::device::Locked,
    target: TexTarget,
    format: vk::Format,
    internal: GLenum,
    size: [u32; 3],
    levels: u32,
) -> GlResult<TexImage> {
    let desc = image_desc(target, format, size, levels);
    let layers = desc.array_layers;
    let (image, view) =
        locked.image_with_view(&desc, &full_view(target, levels, layers, format))?;
    Ok(TexImage {
        image,
        view,
        format,
        internal,
        target,
        size,
        levels,
        defined: [0; 6],
        immutable: false,
        level_views: HashMap::new(),
        swizzle_views: HashMap::new(),
    })
}

fn client_format(format: GLenum, ty: GLenum) -> GlResult<ClientFormat> {
    ClientFormat::from_gl(format, ty).ok_or_else(|| {
        GlError::InvalidEnum(format!(
            "pixel format/type 0x{format:04X}/0x{ty:04X} (this slice transfers 8-bit colour)"
        ))
    })
}

pub(crate) fn client_format_for(format: GLenum, ty: GLenum) -> GlResult<ClientFormat> {
    client_format(format, ty)
}

/// Whether `f` holds unnormalized integers.
fn is_integer_format(f: vk::Format) -> bool {
    let name = format!("{f:?}");
    let depth_stencil = super::framebuffer::is_depth_format(f) || f == vk::Format::S8_UINT;
    !depth_stencil && (name.ends_with("_UINT") || name.ends_with("_SINT"))
}

/// Bits of red, green, blue, alpha, depth and stencil in a renderbuffer's Vulkan format (what
/// `GL_RENDERBUFFER_*_SIZE` report; sizes of the stored format, which may be wider than asked).
fn channel_bits(f: vk::Format) -> [u8; 6] {
    use vk::Format as F;
    match f {
        F::R8_UNORM => [8, 0, 0, 0, 0, 0],
        F::R8G8_UNORM => [8, 8, 0, 0, 0, 0],
        F::R8G8B8A8_UNORM | F::R8G8B8A8_SRGB | F::B8G8R8A8_UNORM => [8, 8, 8, 8, 0, 0],
        F::R8G8B8A8_SINT | F::R8G8B8A8_UINT => [8, 8, 8, 8, 0, 0],
        F::R8_SINT | F::R8_UINT => [8, 0, 0, 0, 0, 0],
        F::R8G8_SINT | F::R8G8_UINT => [8, 8, 0, 0, 0, 0],
        F::R16_UNORM | F::R16_SFLOAT | F::R16_SINT | F::R16_UINT => [16, 0, 0, 0, 0, 0],
        F::R16G16_UNORM | F::R16G16_SFLOAT | F::R16G16_SINT | F::R16G16_UINT => {
            [16, 16, 0, 0, 0, 0]
        }
        F::R16G16B16A16_UNORM
        | F::R16G16B16A16_SFLOAT
        | F::R16G16B16A16_SINT
        | F::R16G16B16A16_UINT => [16, 16, 16, 16, 0, 0],
        F::R32_SFLOAT | F::R32_SINT | F::R32_UINT => [32, 0, 0, 0, 0, 0],
        F::R32G32_SFLOAT | F::R32G32_SINT | F::R32G32_UINT => [32, 32, 0, 0, 0, 0],
        F::R32G32B32A32_SFLOAT | F::R32G32B32A32_SINT | F::R32G32B32A32_UINT => {
            [32, 32, 32, 32, 0, 0]
        }
        F::A2B10G10R10_UNORM_PACK32 | F::A2B10G10R10_UINT_PACK32 => [10, 10, 10, 2, 0, 0],
        F::B10G11R11_UFLOAT_PACK32 => [11, 11, 10, 0, 0, 0],
        F::D16_UNORM => [0, 0, 0, 0, 16, 0],
        F::D16_UNORM_S8_UINT => [0, 0, 0, 0, 16, 8],
        F::X8_D24_UNORM_PACK32 => [0, 0, 0, 0, 24, 0],
        F::D24_UNORM_S8_UINT => [0, 0, 0, 0, 24, 8],
        F::D32_SFLOAT => [0, 0, 0, 0, 32, 0],
        F::D32_SFLOAT_S8_UINT => [0, 0, 0, 0, 32, 8],
        F::S8_UINT => [0, 0, 0, 0, 0, 8],
        _ => [0; 6],
    }
}
