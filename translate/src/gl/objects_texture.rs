//! Texture, renderbuffer and framebuffer-object entry points.

use std::collections::HashMap;

use arenagl_memory::{ImageDesc, ImageRegion, ViewDesc};
use arenagl_staging::{ClientFormat, ClientLayout, Region};
use ash::vk;

use super::context::Context;
use super::enums::*;
use super::error::{invalid_enum, invalid_op, invalid_value, GlError, GlResult};
use super::framebuffer::{
    attachment_point, depth_view, renderbuffer_format, Attachment, Framebuffer, Point, Renderbuffer,
};
use super::texture::{full_view, image_desc, set_param, storage_format, TexImage, Texture};

/// Texture targets this slice creates storage for.
fn check_target(target: GLenum) -> GlResult<()> {
    match target {
        GL_TEXTURE_2D => Ok(()),
        GL_TEXTURE_1D
        | GL_TEXTURE_3D
        | GL_TEXTURE_1D_ARRAY
        | GL_TEXTURE_2D_ARRAY
        | GL_TEXTURE_RECTANGLE
        | GL_TEXTURE_CUBE_MAP
        | GL_TEXTURE_2D_MULTISAMPLE
        | GL_TEXTURE_2D_MULTISAMPLE_ARRAY
        | GL_TEXTURE_BUFFER => invalid_op(format!(
            "texture target 0x{target:04X} is not supported by this GL yet (GL_TEXTURE_2D is)"
        )),
        t => invalid_enum("texture target", t),
    }
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
            check_target(target)?;
            if name != 0 {
                let t = self
                    .textures
                    .get_or_create(name, Texture::default)
                    .ok_or_else(|| {
                        GlError::InvalidOperation(format!("{name} is not a texture name"))
                    })?;
                if t.target == 0 {
                    t.target = target;
                } else if t.target != target {
                    return invalid_op("the texture was first bound to another target");
                }
            }
            self.texture_units[self.active_texture as usize] = name;
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
            for u in self.texture_units.iter_mut() {
                if *u == name {
                    *u = 0;
                }
            }
            self.detach_everywhere(Attachment::Texture { name, level: 0 });
            if let Some(Texture {
                storage: Some(s), ..
            }) = self.textures.remove(name)
            {
                let _ = device.lock().manager.retire_image(s.image);
            }
        }
    }

    fn bound_texture(&mut self, target: GLenum) -> GlResult<&mut Texture> {
        check_target(target)?;
        let name = self.texture_units[self.active_texture as usize];
        if name == 0 {
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
        let layout = ClientLayout::new(
            store,
            Region::d2(width.max(0) as u32, height.max(0) as u32),
            f,
        )
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
        let device = self.device.clone();
        let unpack = self.unpack;
        let r = (|| {
            check_target(target)?;
            let max = device.caps().limits.max_image_dimension2_d as i32;
            if level < 0 || level > 31 - max.leading_zeros() as i32 {
                return invalid_value(format!("level {level}"));
            }
            if width < 0 || height < 0 || width > max >> level || height > max >> level {
                return invalid_value(format!("size {width}x{height} at level {level}"));
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
            let t = self.bound_texture(target)?;
            let (w, h) = ((width as u32) << level, (height as u32) << level);
            let mut locked = device.lock();
            let reuse = t.storage.as_ref().is_some_and(|s| {
                s.format == vk_format
                    && s.level_size(level as u32) == (width as u32, height as u32)
                    && (s.width, s.height) == (w.max(1), h.max(1))
            });
            if width == 0 || height == 0 {
                if let Some(s) = t.storage.take() {
                    let _ = locked.manager.retire_image(s.image);
                }
                return Ok(());
            }
            if !reuse {
                let levels = ImageDesc::full_mip_count(vk::Extent3D {
                    width: w,
                    height: h,
                    depth: 1,
                });
                let (image, view) = locked.image_with_view(
                    &image_desc(vk_format, w, h, levels),
                    &full_view(levels, vk_format),
                )?;
                if let Some(old) = t.storage.replace(TexImage {
                    image,
                    view,
                    format: vk_format,
                    internal: sized,
                    width: w,
                    height: h,
                    levels,
                    defined: 0,
                    level_views: HashMap::new(),
                }) {
                    let _ = locked.manager.retire_image(old.image);
                }
            }
            let Some(s) = t.storage.as_mut() else {
                return Ok(());
            };
            s.internal = sized;
            if let Some(d) = data {
                let region = ImageRegion::rect(level as u32, 0, 0, width as u32, height as u32);
                locked
                    .manager
                    .upload_image(s.image, &region, d, &unpack, client)?;
            }
            s.defined |= 1 << level;
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
        let device = self.device.clone();
        let unpack = self.unpack;
        let r = (|| {
            let client = client_format(format, ty)?;
            let t = self.bound_texture(target)?;
            let Some(s) = t.storage.as_ref() else {
                return invalid_op("glTexSubImage2D on a texture without storage");
            };
            if level < 0 || level as u32 >= s.levels || s.defined & (1 << level) == 0 {
                return invalid_value(format!("level {level} is not defined"));
            }
            let (lw, lh) = s.level_size(level as u32);
            if x < 0
                || y < 0
                || width < 0
                || height < 0
                || x as u64 + width as u64 > u64::from(lw)
                || y as u64 + height as u64 > u64::from(lh)
            {
                return invalid_value(format!(
                    "region {x},{y} {width}x{height} outside level {level} ({lw}x{lh})"
                ));
            }
            if width == 0 || height == 0 {
                return Ok(());
            }
            let region = ImageRegion::rect(level as u32, x, y, width as u32, height as u32);
            device
                .lock()
                .manager
                .upload_image(s.image, &region, data, &unpack, client)?;
            Ok(())
        })();
        self.record(r);
    }

    /// `glGenerateMipmap`: every level above the base level, up to `GL_TEXTURE_MAX_LEVEL`, is
    /// filtered down from the one before it by linear blits (the manager's `generate_mipmaps`).
    pub fn generate_mipmap(&mut self, target: GLenum) {
        let device = self.device.clone();
        let r = (|| {
            let t = self.bound_texture(target)?;
            let base = t.params.base_level.max(0) as u32;
            let max_level = t.params.max_level.max(0) as u32;
            let Some(s) = t.storage.as_mut() else {
                return invalid_op("glGenerateMipmap on a texture without storage");
            };
            if base >= s.levels || s.defined & (1 << base) == 0 {
                return invalid_op(format!(
                    "glGenerateMipmap: base level {base} is not defined"
                ));
            }
            let last = max_level.min(s.levels - 1);
            if last <= base {
                return Ok(());
            }
            let (image, format, size) = (s.image, s.format, (s.width, s.height));
            let blittable = device.lock().manager.supports_linear_blit(format);
            if super::mipmap_fallback::use_shader(format, blittable) {
                self.generate_mipmaps_by_shader(image, format, size, base, last)?;
            } else {
                device.lock().manager.generate_mipmaps(image, base, last)?;
            }
            if let Some(s) = self.bound_texture(target)?.storage.as_mut() {
                for level in base..=last {
                    s.defined |= 1 << level;
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
            let t = self.bound_texture(target)?;
            set_param(&mut t.params, pname, value)
        })();
        self.record(r);
    }

    /// `glTexParameterfv` with four values (`GL_TEXTURE_BORDER_COLOR`) or one.
    pub fn tex_parameter_v(&mut self, target: GLenum, pname: GLenum, values: &[f32]) {
        let r = (|| {
            let t = self.bound_texture(target)?;
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
            let p = self.bound_texture(target)?.params;
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
                p => return invalid_enum("glGetTexParameter pname", p),
            })
        })();
        self.record(r).unwrap_or_default()
    }

    /// `glGetTexLevelParameteriv`.
    pub fn get_tex_level_parameter(&mut self, target: GLenum, level: i32, pname: GLenum) -> i32 {
        let r = (|| {
            let t = self.bound_texture(target)?;
            if level < 0 {
                return invalid_value(format!("level {level}"));
            }
            let s = t
                .storage
                .as_ref()
                .filter(|s| (level as u32) < s.levels && s.defined & (1 << level) != 0);
            Ok(match pname {
                GL_TEXTURE_WIDTH => s.map_or(0, |s| s.level_size(level as u32).0 as i32),
                GL_TEXTURE_HEIGHT => s.map_or(0, |s| s.level_size(level as u32).1 as i32),
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
            if samples > 1 {
                return invalid_op("multisampled renderbuffers are not supported by this GL yet");
            }
            let format = renderbuffer_format(&device, internal).ok_or_else(|| {
                GlError::InvalidEnum(format!("renderbuffer internal format 0x{internal:04X}"))
            })?;
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
                let desc = ImageDesc::new_2d(
                    format,
                    width as u32,
                    height as u32,
                    1,
                    usage,
                    arenagl_memory::Category::RenderTarget,
                )
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
        let r = (|| {
            if texture == 0 {
                return self.attach(target, attachment, None);
            }
            if textarget != GL_TEXTURE_2D {
                return check_target(textarget)
                    .and_then(|()| invalid_op("texture target mismatch"));
            }
            let t = self
                .textures
                .get(texture)
                .ok_or_else(|| GlError::InvalidOperation(format!("{texture} is not a texture")))?;
            if t.target != GL_TEXTURE_2D {
                return invalid_op("the texture is not a 2D texture");
            }
            if !(0..=15).contains(&level) {
                return invalid_value(format!("level {level}"));
            }
            self.attach(
                target,
                attachment,
                Some(Attachment::Texture {
                    name: texture,
                    level: level as u32,
                }),
            )
        })();
        self.record(r);
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
                let ok = b == GL_NONE || b == GL_COLOR_ATTACHMENT0 + i as u32;
                if !ok {
                    return invalid_op(format!(
                        "draw buffer {i} must be GL_NONE or GL_COLOR_ATTACHMENT{i} in this GL"
                    ));
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
