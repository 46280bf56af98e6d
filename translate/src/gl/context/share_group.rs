//! Share groups (GL 4.6 §5.1, EGL 1.5 §3.7.1 `share_context`): contexts created to share
//! objects see one set of buffers, textures, renderbuffers, samplers, shaders and programs —
//! one name space each — while vertex arrays, framebuffers, queries and every binding stay per
//! context. Sync objects already live on the process-wide device, shared by every context.
//!
//! Design decisions:
//! - The shared tables are owned by the group, behind one mutex. A command on a context of a
//!   group runs inside [`Context::run_shared`], which locks the group, moves the tables into the
//!   context's own fields for the command's duration and moves them back afterwards (also when
//!   the command panics). So the translator reads `self.buffers` and friends as it always did,
//!   and two threads driving shared contexts take turns per command: a command sees the
//!   objects whole, never half-changed by the other thread. A context that shares nothing takes
//!   no lock.
//! - Lock order: the context's own mutex (held by the C edge), then the group, then the device.
//! - A context joins a group before its first command ([`Context::join_share_group`]); the
//!   first context of a group hands its tables to the group then. Both must be on the same
//!   device: the objects' memory belongs to it.
//! - The group releases the objects' device memory when its last context is destroyed.
//! - Deleting an object frees its name at once for every context of the group. A binding in
//!   another context keeps the name, not the object: it then reads as no object (an incomplete
//!   texture, a missing buffer is an error), never as freed memory.

use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use crate::gl::context::error::{GlError, GlResult};
use crate::gl::context::names::Names;
use crate::gl::context::Context;
use crate::gl::objects::buffer::Buffer;
use crate::gl::objects::framebuffer::Renderbuffer;
use crate::gl::objects::program::{Program, Shader};
use crate::gl::objects::texture::{TexParams, Texture};
use crate::gl::vk::device::{Device, Locked};

/// The object tables a share group holds.
#[derive(Default)]
pub(crate) struct SharedObjects {
    pub buffers: Names<Buffer>,
    pub shaders: Names<Shader>,
    pub programs: Names<Program>,
    pub textures: Names<Texture>,
    pub samplers: Names<TexParams>,
    pub renderbuffers: Names<Renderbuffer>,
}

impl SharedObjects {
    /// Exchanges these tables with the context's own fields.
    pub(crate) fn swap_with(&mut self, c: &mut Context) {
        std::mem::swap(&mut self.buffers, &mut c.buffers);
        std::mem::swap(&mut self.shaders, &mut c.shaders);
        std::mem::swap(&mut self.programs, &mut c.programs);
        std::mem::swap(&mut self.textures, &mut c.textures);
        std::mem::swap(&mut self.samplers, &mut c.samplers);
        std::mem::swap(&mut self.renderbuffers, &mut c.renderbuffers);
    }

    /// Retires every object's device memory (the last user of the tables is gone).
    pub(crate) fn release(&mut self, locked: &mut Locked) {
        for b in self.buffers.drain() {
            if let Some(h) = b.storage {
                let _ = locked.manager.retire_buffer(h);
            }
        }
        for t in self.textures.drain() {
            release_texture(t, locked);
        }
        for r in self.renderbuffers.drain() {
            if let Some((image, _)) = r.storage {
                let _ = locked.manager.retire_image(image);
            }
        }
    }
}

/// Retires a texture's image and its buffer-texture view.
pub(crate) fn release_texture(mut t: Texture, locked: &mut Locked) {
    if let Some(s) = t.storage {
        let _ = locked.manager.retire_image(s.image);
    }
    if let Some(b) = t.buffer.as_mut() {
        b.release(locked);
    }
}

/// The objects of contexts that share them.
pub struct ShareGroup {
    device: Arc<Device>,
    objects: Mutex<SharedObjects>,
}

impl ShareGroup {
    fn lock(&self) -> MutexGuard<'_, SharedObjects> {
        self.objects.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl Drop for ShareGroup {
    fn drop(&mut self) {
        let objects = self
            .objects
            .get_mut()
            .unwrap_or_else(PoisonError::into_inner);
        objects.release(&mut self.device.lock());
        // Programs drop their Vulkan objects through their own Drop (deferred), after the
        // device lock is let go.
        objects.programs.drain().for_each(drop);
    }
}

/// Puts the tables back into the group when a command ends, however it ends.
struct Restore<'a> {
    context: &'a mut Context,
    objects: MutexGuard<'a, SharedObjects>,
}

impl Drop for Restore<'_> {
    fn drop(&mut self) {
        self.objects.swap_with(self.context);
    }
}

impl Context {
    /// Makes this new context share `other`'s objects (`eglCreateContext` with a share
    /// context). Called before this context's first command; its own (empty) tables are
    /// dropped. `GL_INVALID_OPERATION` when the two are on different devices (one was made
    /// before a device loss).
    pub fn join_share_group(&mut self, other: &mut Context) -> GlResult<()> {
        if !Arc::ptr_eq(&self.device, &other.device) {
            return Err(GlError::InvalidOperation(
                "the share context is on another (lost) device".into(),
            ));
        }
        if other.share.is_none() {
            let mut objects = SharedObjects::default();
            objects.swap_with(other);
            other.share = Some(Arc::new(ShareGroup {
                device: other.device.clone(),
                objects: Mutex::new(objects),
            }));
        }
        self.share = other.share.clone();
        Ok(())
    }

    /// Whether this context shares its objects with others.
    pub fn shares_objects(&self) -> bool {
        self.share.is_some()
    }

    /// Runs one command: with the group's tables in place when the context shares objects
    /// (the group locked meanwhile), directly otherwise.
    pub fn run_shared<R>(&mut self, f: impl FnOnce(&mut Context) -> R) -> R {
        let Some(group) = self.share.clone() else {
            return f(self);
        };
        let mut objects = group.lock();
        objects.swap_with(self);
        let restore = Restore {
            context: self,
            objects,
        };
        f(&mut *restore.context)
    }
}
