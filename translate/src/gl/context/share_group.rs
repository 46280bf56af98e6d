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
//! - Deleting an object frees its name at once for every context of the group, but the object
//!   lives on while any context may still use it (GL 4.6 §5.1.3): a binding, a vertex array or
//!   a framebuffer attachment of another context — or of the deleting one's unbound containers
//!   — keeps working. The object stays filed under its name, *buried* (`names.rs`: reachable by
//!   bindings, gone for every call that takes a name), with a [`Tombstone`] listing the contexts
//!   that may still hold it: at first every member of the group. After each command a context
//!   crosses itself off the tombstones whose object it no longer references
//!   ([`Context::settle_tombstones`]); a destroyed context crosses itself off everywhere. The
//!   last one out releases the object, and only then may `glGen*` hand the name out again.
//!   Programs follow GL's own rule for them: a program deleted while current in any context is
//!   flagged (`GL_DELETE_STATUS`) and keeps its name until no context uses it (each program
//!   counts the contexts that have it current).
//! - A context that shares nothing keeps its own mechanisms for containers that hold deleted
//!   objects (`buffer::RetainedBuffer`, `framebuffer/retained.rs`); tombstones are for groups.

use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use crate::gl::context::error::{GlError, GlResult};
use crate::gl::context::names::Names;
use crate::gl::context::Context;
use crate::gl::objects::buffer::Buffer;
use crate::gl::objects::framebuffer::{Attached, Renderbuffer};
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
    /// The ids of the group's live contexts ([`Context::member_id`]).
    pub members: Vec<u64>,
    /// Deleted objects that some member may still use.
    pub tombstones: Vec<Tombstone>,
}

/// The kinds of shared object whose deletion waits for the group's other contexts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SharedKind {
    Buffer,
    Texture,
    Renderbuffer,
    Sampler,
}

/// A shared object deleted while members of its group may still use it.
#[derive(Debug)]
pub(crate) struct Tombstone {
    kind: SharedKind,
    name: u32,
    /// The members that have not yet been seen to let go of it.
    holders: Vec<u64>,
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
        std::mem::swap(&mut self.members, &mut c.share_members);
        std::mem::swap(&mut self.tombstones, &mut c.tombstones);
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
        for mut rb in self.renderbuffers.drain() {
            rb.release_storage(&mut locked.manager);
        }
    }
}

/// Retires a texture's image and its buffer-texture view.
pub(crate) fn release_texture(mut t: Texture, locked: &mut Locked) {
    if let Some(s) = t.storage {
        s.release(&mut locked.manager);
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
            objects.members.push(other.member_id);
            other.share = Some(Arc::new(ShareGroup {
                device: other.device.clone(),
                objects: Mutex::new(objects),
            }));
        }
        self.share = other.share.clone();
        if let Some(group) = &self.share {
            group.lock().members.push(self.member_id);
        }
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
        let r = f(&mut *restore.context);
        restore.context.settle_tombstones();
        r
    }

    /// Deletes shared object `name` of `kind` for the whole group: this context's own
    /// bindings are already gone; the object stays (buried) until no member references it.
    /// Only for a context that shares its objects.
    pub(crate) fn bury(&mut self, kind: SharedKind, name: u32) {
        let buried = match kind {
            SharedKind::Buffer => self.buffers.bury(name),
            SharedKind::Texture => {
                if let Some(t) = self.textures.get_mut(name) {
                    t.deleted_as = Some(name);
                }
                self.textures.bury(name)
            }
            SharedKind::Renderbuffer => {
                if let Some(r) = self.renderbuffers.get_mut(name) {
                    r.deleted_as = Some(name);
                }
                self.renderbuffers.bury(name)
            }
            SharedKind::Sampler => self.samplers.bury(name),
        };
        if !buried {
            // Only reserved (never bound): there is no object to wait for.
            self.free_buried(kind, name);
            return;
        }
        self.tombstones.push(Tombstone {
            kind,
            name,
            holders: self.share_members.clone(),
        });
        self.settle_tombstones();
    }

    /// Crosses this context off the tombstones of objects it no longer references, and
    /// releases those no member holds any more.
    pub(crate) fn settle_tombstones(&mut self) {
        self.cross_off(false);
    }

    /// Crosses this context off every tombstone and the group's members: it is being
    /// destroyed (called inside [`Context::run_shared`]).
    pub(crate) fn leave_share_group(&mut self) {
        let me = self.member_id;
        self.share_members.retain(|&m| m != me);
        self.cross_off(true);
    }

    fn cross_off(&mut self, everywhere: bool) {
        if self.tombstones.is_empty() {
            return;
        }
        let me = self.member_id;
        let mut tombstones = std::mem::take(&mut self.tombstones);
        for t in tombstones.iter_mut() {
            if t.holders.contains(&me) && (everywhere || !self.references(t.kind, t.name)) {
                t.holders.retain(|&h| h != me);
            }
        }
        let (dead, live): (Vec<_>, Vec<_>) =
            tombstones.into_iter().partition(|t| t.holders.is_empty());
        self.tombstones = live;
        for t in dead {
            self.free_buried(t.kind, t.name);
        }
    }

    /// Whether this context's bindings, vertex arrays or framebuffers reference `name`.
    fn references(&self, kind: SharedKind, name: u32) -> bool {
        match kind {
            SharedKind::Buffer => self.references_buffer(name),
            SharedKind::Texture => {
                self.texture_units.iter().flatten().any(|&t| t == name)
                    || self.texture_buffers.units.contains(&name)
                    || !self.holders(Attached::Texture(name)).is_empty()
            }
            SharedKind::Renderbuffer => {
                self.renderbuffer == name || !self.holders(Attached::Renderbuffer(name)).is_empty()
            }
            SharedKind::Sampler => self.sampler_units.contains(&name),
        }
    }

    fn references_buffer(&self, name: u32) -> bool {
        self.array_buffer == name
            || self.generic_bindings.values().any(|&b| b == name)
            || self.uniform_bindings.iter().any(|b| b.buffer == name)
            || self.compute.names_buffer(name)
            || self.default_vertex_array.names_buffer(name)
            || self.vertex_arrays.created().into_iter().any(|v| {
                self.vertex_arrays
                    .get(v)
                    .is_some_and(|a| a.names_buffer(name))
            })
    }

    /// Releases a deleted object nobody references any more; its name is free again.
    fn free_buried(&mut self, kind: SharedKind, name: u32) {
        let device = self.device.clone();
        match kind {
            SharedKind::Buffer => {
                if let Some(h) = self.buffers.remove(name).and_then(|b| b.storage) {
                    let _ = device.lock().manager.retire_buffer(h);
                }
            }
            SharedKind::Texture => {
                if let Some(t) = self.textures.remove(name) {
                    release_texture(t, &mut device.lock());
                }
            }
            SharedKind::Renderbuffer => {
                if let Some(mut rb) = self.renderbuffers.remove(name) {
                    rb.release_storage(&mut device.lock().manager);
                }
            }
            SharedKind::Sampler => {
                self.samplers.remove(name);
            }
        }
    }
}
