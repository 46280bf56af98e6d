//! Renderbuffer and framebuffer-object entry points: names, binding, renderbuffer storage,
//! attaching texture levels and renderbuffers, draw and read buffers, completeness. What is
//! attached is resolved to images only when a command renders or reads (`resolve_framebuffer`);
//! `glGetFramebufferAttachmentParameteriv` is in `query`.

use arenagl_memory::{ImageDesc, ViewDesc};
use ash::vk;

use crate::gl::context::enums::*;
use crate::gl::context::error::{
    gen_count, invalid_enum, invalid_op, invalid_value, GlError, GlResult,
};
use crate::gl::context::Context;
use crate::gl::objects::framebuffer::{
    attachment_point, depth_view, max_integer_samples, max_samples, pick_samples,
    renderbuffer_format, renderbuffer_row, Attachment, Framebuffer, Point, Renderbuffer,
    MAX_COLOR_ATTACHMENTS,
};
use crate::gl::objects::texture::api::limits_of;
use crate::gl::objects::texture::internal_format::{
    channel_bits, is_depth_format, is_integer_format, lookup,
};
use crate::gl::objects::texture::target::TexTarget;

impl Context {
    // ---- renderbuffers --------------------------------------------------------------------

    /// `glGenRenderbuffers`.
    pub fn gen_renderbuffers(&mut self, n: i32) -> Vec<u32> {
        let r = gen_count("glGenRenderbuffers", n).map(|n| self.renderbuffers.generate(n));
        self.record(r).unwrap_or_default()
    }

    /// `glIsRenderbuffer`.
    pub fn is_renderbuffer(&self, name: u32) -> bool {
        self.renderbuffers
            .get(name)
            .is_some_and(Renderbuffer::named)
    }

    /// `glBindRenderbuffer`.
    pub fn bind_renderbuffer(&mut self, target: GLenum, name: u32) {
        let r = (|| {
            if target != GL_RENDERBUFFER {
                return invalid_enum("glBindRenderbuffer target", target);
            }
            if name != 0
                && !self
                    .renderbuffers
                    .get_or_create(name, Renderbuffer::default)
                    .is_some_and(|rb| rb.named())
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
            let kept = self.renderbuffers.get(name).is_some_and(|rb| !rb.named());
            if name == 0 || !self.renderbuffers.is_reserved(name) || kept {
                continue;
            }
            if self.renderbuffer == name {
                self.renderbuffer = 0;
            }
            self.detach_everywhere(Attachment::Renderbuffer(name));
            if self.shares_objects() {
                self.bury(
                    crate::gl::context::share_group::SharedKind::Renderbuffer,
                    name,
                );
                continue;
            }
            // Framebuffers that are not bound keep it (`retained`).
            let released = self
                .renderbuffers
                .remove(name)
                .and_then(|rb| self.keep_deleted_renderbuffer(name, rb));
            if let Some(mut rb) = released {
                rb.release_storage(&mut device.lock().manager);
            }
        }
    }

    /// The renderbuffer `GL_RENDERBUFFER` commands act on: the bound one, or the one a DSA
    /// command names (`dsa`).
    fn edited_renderbuffer(&self) -> u32 {
        self.dsa.renderbuffer.unwrap_or(self.renderbuffer)
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
            let legacy = self.profile == crate::gl::context::Profile::Compatibility;
            let format = renderbuffer_format(&device, internal, legacy).ok_or_else(|| {
                GlError::InvalidEnum(format!("renderbuffer internal format 0x{internal:04X}"))
            })?;
            let Some(count) = pick_samples(&device, samples as u32) else {
                return invalid_value(format!(
                    "{samples} samples (GL_MAX_SAMPLES is {})",
                    max_samples(&device)
                ));
            };
            if count > 1
                && is_integer_format(format)
                && samples > max_integer_samples(&device) as i32
            {
                return invalid_op(format!(
                    "{samples} samples of an integer format (GL_MAX_INTEGER_SAMPLES is {})",
                    max_integer_samples(&device)
                ));
            }
            let name = self.edited_renderbuffer();
            let rb = self
                .renderbuffers
                .get_mut(name)
                .ok_or_else(|| GlError::InvalidOperation("no renderbuffer bound".into()))?;
            let mut locked = device.lock();
            rb.release_storage(&mut locked.manager);
            rb.format = format;
            rb.internal = internal;
            rb.samples = if count > 1 { count } else { 0 };
            (rb.width, rb.height) = (width as u32, height as u32);
            if width > 0 && height > 0 {
                let depth = is_depth_format(format);
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

    /// `glGetRenderbufferParameteriv` of the bound renderbuffer.
    pub fn get_renderbuffer_parameter(&mut self, target: GLenum, pname: GLenum) -> Option<i32> {
        let r = (|| {
            if target != GL_RENDERBUFFER {
                return invalid_enum("glGetRenderbufferParameteriv target", target);
            }
            let name = self.edited_renderbuffer();
            let rb = self
                .renderbuffers
                .get(name)
                .filter(|_| name != 0)
                .ok_or_else(|| GlError::InvalidOperation("no renderbuffer bound".into()))?;
            let row = renderbuffer_row(rb.internal);
            let bits = match lookup(row) {
                Some(info) if rb.internal != 0 => {
                    let b = info.bits;
                    // Luminance/intensity report as red where a renderbuffer has them.
                    [b[0].max(b[4]).max(b[5]), b[1], b[2], b[3], b[6], b[7]]
                }
                _ => channel_bits(rb.format),
            };
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

    // ---- framebuffer objects --------------------------------------------------------------

    /// `glGenFramebuffers`.
    pub fn gen_framebuffers(&mut self, n: i32) -> Vec<u32> {
        let r = gen_count("glGenFramebuffers", n).map(|n| self.framebuffers.generate(n));
        self.record(r).unwrap_or_default()
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
            if let Some(fb) = self.framebuffers.remove(name) {
                for a in fb.points().flatten() {
                    self.let_go(*a);
                }
            }
        }
    }

    /// Detaches `what` (a texture: any level or layer of it) from the bound framebuffers, as
    /// deleting it does. Framebuffers that are not bound keep it: the caller hands the deleted
    /// object to them (`retained`).
    pub(crate) fn detach_everywhere(&mut self, what: Attachment) {
        let object = what.object();
        let bound = [self.draw_framebuffer, self.read_framebuffer];
        for fb_name in bound {
            if let Some(fb) = self.framebuffers.get_mut(fb_name) {
                for point in fb.points_mut() {
                    if point.is_some_and(|a| a.object() == object) {
                        *point = None;
                    }
                }
            }
        }
    }

    /// The name of the framebuffer bound to `target`, or of the one a DSA command names for it
    /// (`dsa`); `GL_INVALID_ENUM` for a target that is none.
    pub(crate) fn framebuffer_bound_to(&self, target: GLenum) -> GlResult<u32> {
        if let Some(name) = self.dsa.framebuffer_for(target) {
            return Ok(name);
        }
        match target {
            GL_FRAMEBUFFER | GL_DRAW_FRAMEBUFFER => Ok(self.draw_framebuffer),
            GL_READ_FRAMEBUFFER => Ok(self.read_framebuffer),
            t => invalid_enum("framebuffer target", t),
        }
    }

    /// The framebuffer object bound to `target`: `GL_INVALID_OPERATION` for framebuffer 0,
    /// whose attachments cannot change.
    fn target_framebuffer(&mut self, target: GLenum) -> GlResult<&mut Framebuffer> {
        let name = self.framebuffer_bound_to(target)?;
        if name == 0 {
            return invalid_op("framebuffer 0 has no attachments to change");
        }
        self.framebuffers
            .get_mut(name)
            .ok_or_else(|| GlError::InvalidOperation("the bound framebuffer is gone".into()))
    }

    /// Sets the attachment point `attachment` of the framebuffer bound to `target` (both points
    /// for `GL_DEPTH_STENCIL_ATTACHMENT`; `None` detaches).
    fn attach(
        &mut self,
        target: GLenum,
        attachment: GLenum,
        what: Option<Attachment>,
    ) -> GlResult<()> {
        let point = attachment_point(attachment)?;
        let fb = self.target_framebuffer(target)?;
        let replaced = match point {
            Point::Color(i) => [std::mem::replace(&mut fb.colors[i], what), None],
            Point::Depth => [std::mem::replace(&mut fb.depth, what), None],
            Point::Stencil => [std::mem::replace(&mut fb.stencil, what), None],
            Point::DepthStencil => [
                std::mem::replace(&mut fb.depth, what),
                std::mem::replace(&mut fb.stencil, what),
            ],
        };
        // A deleted object this was the last hold on goes now (`retained`).
        for a in replaced.into_iter().flatten() {
            self.let_go(a);
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
                    t.dims() == dims
                        && !matches!(
                            t,
                            TexTarget::D1Array
                                | TexTarget::D2Array
                                | TexTarget::D2MultisampleArray
                                | TexTarget::CubeArray
                        )
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
            self.attach_texture_layer(target, attachment, texture, Some(tt), level, Some(layer))
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
            self.attach_texture_layer(target, attachment, texture, None, level, Some(layer))
        })();
        self.record(r);
    }

    /// Validates and attaches `(level, layer)` of `texture`; `expected` is the target the
    /// command names (`None`: any layered target, for `glFramebufferTextureLayer`); `layer`
    /// `None`: every layer, a layered attachment (`glFramebufferTexture`, `layered`).
    pub(crate) fn attach_texture_layer(
        &mut self,
        target: GLenum,
        attachment: GLenum,
        texture: u32,
        expected: Option<TexTarget>,
        level: i32,
        layer: Option<i32>,
    ) -> GlResult<()> {
        let limits = self.device.caps().limits;
        // A deleted texture that framebuffers keep is no texture to attach anew.
        if self.textures.get(texture).is_some_and(|t| !t.named()) {
            return invalid_op(format!("{texture} is not a texture"));
        }
        // An attachment renders into the full texture.
        self.restore_texture(texture)?;
        let t = self
            .textures
            .get(texture)
            .ok_or_else(|| GlError::InvalidOperation(format!("{texture} is not a texture")))?;
        let Some(tt) = t.target else {
            return invalid_op(format!("texture {texture} has never been bound"));
        };
        // GL 4.5 (and Mesa's core profile) lets glFramebufferTextureLayer name a cube map's
        // face as its layer; the compatibility profile keeps GL 3.0's refusal.
        let cube_layers =
            tt == TexTarget::Cube && self.profile != crate::gl::context::Profile::Compatibility;
        match expected {
            Some(e) if e != tt => return invalid_op("texture target mismatch"),
            None if !cube_layers
                && !matches!(
                    tt,
                    TexTarget::D3
                        | TexTarget::D1Array
                        | TexTarget::D2Array
                        | TexTarget::D2MultisampleArray
                        | TexTarget::CubeArray
                ) =>
            {
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
            TexTarget::D1Array
            | TexTarget::D2Array
            | TexTarget::D2MultisampleArray
            | TexTarget::CubeArray => limits.max_image_array_layers,
            _ => 6,
        };
        if layer.is_some_and(|l| l < 0 || l as u32 >= max_layer) {
            return invalid_value(format!("layer {layer:?}"));
        }
        self.attach(
            target,
            attachment,
            Some(Attachment::Texture {
                name: texture,
                level: level as u32,
                layer: layer.unwrap_or(0) as u32,
                layered: layer.is_none(),
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
            if renderbuffer != 0 && !self.is_renderbuffer(renderbuffer) {
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
            if self.framebuffer_bound_to(GL_DRAW_FRAMEBUFFER)? == 0 {
                return match bufs {
                    [GL_BACK | GL_BACK_LEFT | GL_FRONT | GL_FRONT_LEFT | GL_NONE] => {
                        self.default_draw_buffer = bufs[0];
                        Ok(())
                    }
                    _ => invalid_op("framebuffer 0 takes one of GL_BACK, GL_FRONT, GL_NONE"),
                };
            }
            if bufs.len() > MAX_COLOR_ATTACHMENTS {
                return invalid_value(format!("{} draw buffers", bufs.len()));
            }
            let fb = self.target_framebuffer(GL_DRAW_FRAMEBUFFER)?;
            let mut list = [GL_NONE; MAX_COLOR_ATTACHMENTS];
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
            if self.framebuffer_bound_to(GL_READ_FRAMEBUFFER)? == 0 {
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
            let name = self.framebuffer_bound_to(target)?;
            Ok(match self.resolve_framebuffer(name, true) {
                Ok(_) => GL_FRAMEBUFFER_COMPLETE,
                Err(status) => status,
            })
        })();
        self.record(r).unwrap_or(0)
    }

    // ---- queries of the bound framebuffer --------------------------------------------------

    /// `GL_SAMPLES` of the draw framebuffer: 0 unless its attachments are multisampled
    /// (the default framebuffer's are when its EGL config has `EGL_SAMPLES` > 1).
    pub(crate) fn draw_framebuffer_samples(&self) -> u32 {
        self.framebuffer_samples(self.draw_framebuffer)
    }

    /// `GL_SAMPLES` of framebuffer `name` (0: the default framebuffer).
    pub(crate) fn framebuffer_samples(&self, name: u32) -> u32 {
        if name == 0 {
            return self
                .surface
                .as_ref()
                .map_or(0, |s| if s.samples > 1 { s.samples } else { 0 });
        }
        let Some(fb) = self.framebuffers.get(name) else {
            return 0;
        };
        if fb.points().all(Option::is_none) {
            // No attachments: the default samples, as a draw rounds them (`params`).
            let n = crate::gl::objects::framebuffer::params::rounded_samples(
                &self.device,
                fb.defaults.samples,
            );
            return if n > 1 { n } else { 0 };
        }
        fb.colors
            .iter()
            .chain([&fb.depth, &fb.stencil])
            .flatten()
            .map(|a| match a {
                Attachment::Renderbuffer(name) => {
                    self.renderbuffers.get(*name).map_or(0, |rb| rb.samples)
                }
                Attachment::Texture { name, .. } => self
                    .textures
                    .get(*name)
                    .and_then(|t| t.storage.as_ref())
                    .map_or(0, |s| if s.samples > 1 { s.samples } else { 0 }),
            })
            .max()
            .unwrap_or(0)
    }
}
