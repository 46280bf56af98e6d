//! Attachments that outlive their names.
//!
//! Deleting a texture or renderbuffer frees its name at once and detaches it from the
//! framebuffers bound to the draw and read targets. A framebuffer object that is not bound keeps
//! it attached, though: the object — image, views, GL state — lives on until the last framebuffer
//! holding it lets go, the same rule that keeps a buffer alive for the vertex arrays that hold it
//! (`buffer::RetainedBuffer`). Drawing into such a framebuffer and reading from it keep working,
//! and its attachment queries report the name the object had.
//!
//! Design decisions:
//! - The deleted object stays in its own table (textures or renderbuffers), filed under a
//!   private id counted down from the top of the name range, and the framebuffers holding it have
//!   their attachments rewritten to that id. Everything that resolves an attachment — drawing,
//!   clearing, reading, blits, completeness, sample counts, memory pressure — then finds it
//!   exactly as it finds a live object; only the framebuffer and the object know the difference.
//! - The object records the name it was deleted as (`deleted_as`). Attachment queries report
//!   that name, and the calls that take a name (`glIs*`, `glBind*`, `glDelete*`,
//!   `glFramebufferTexture*`, `glFramebufferRenderbuffer`) treat the private id as no object.
//!   `glGen*` never hands out a name its table holds and the private id is picked among ids the
//!   table does not hold, so a new object can never land in a kept attachment, nor the kept
//!   object under a name the program owns.
//! - Letting go — an attachment point overwritten or detached, or its framebuffer deleted —
//!   looks through this context's framebuffer objects (they are never shared); when none holds
//!   the object any more it leaves the table and its image is retired through the manager,
//!   released once the GPU has finished with it.

use std::sync::atomic::{AtomicU32, Ordering};

use crate::gl::context::names::Names;
use crate::gl::context::share_group::release_texture;
use crate::gl::context::Context;
use crate::gl::objects::framebuffer::{Attached, Attachment, Renderbuffer};
use crate::gl::objects::texture::Texture;

/// Private ids handed out before they repeat (from `u32::MAX` down).
const PRIVATE_IDS: u32 = 1 << 30;

/// An id from the top of the name range that `table` does not hold (None only when a long run
/// of them is taken, which no program gets near).
fn private_id<T>(table: &Names<T>) -> Option<u32> {
    static NEXT: AtomicU32 = AtomicU32::new(0);
    (0..64)
        .map(|_| u32::MAX - NEXT.fetch_add(1, Ordering::Relaxed) % PRIVATE_IDS)
        .find(|&id| !table.occupies(id))
}

impl Context {
    /// The framebuffer objects of this context with an attachment referring to `object`.
    pub(crate) fn holders(&self, object: Attached) -> Vec<u32> {
        self.framebuffers
            .created()
            .into_iter()
            .filter(|&f| self.framebuffers.get(f).is_some_and(|fb| fb.holds(object)))
            .collect()
    }

    /// Points the attachments of the framebuffers `holders` that refer to `from` at `to`, an
    /// object of the same kind (None: detaches them).
    fn refile(&mut self, holders: &[u32], from: Attached, to: Option<u32>) {
        for &f in holders {
            let Some(fb) = self.framebuffers.get_mut(f) else {
                continue;
            };
            for point in fb.points_mut() {
                if !matches!(*point, Some(a) if a.object() == from) {
                    continue;
                }
                *point = match (to, *point) {
                    (
                        Some(id),
                        Some(Attachment::Texture {
                            level,
                            layer,
                            layered,
                            ..
                        }),
                    ) => Some(Attachment::Texture {
                        name: id,
                        level,
                        layer,
                        layered,
                    }),
                    (Some(id), Some(Attachment::Renderbuffer(_))) => {
                        Some(Attachment::Renderbuffer(id))
                    }
                    _ => None,
                };
            }
        }
    }

    /// Keeps texture `t`, just deleted as `name` (the name freed, the bound framebuffers
    /// detached), for the framebuffers that still have it attached. Returns it when none has:
    /// the caller releases it then.
    pub(crate) fn keep_deleted_texture(&mut self, name: u32, mut t: Texture) -> Option<Texture> {
        let object = Attached::Texture(name);
        let holders = self.holders(object);
        if holders.is_empty() {
            return Some(t);
        }
        let Some(id) = private_id(&self.textures) else {
            self.refile(&holders, object, None);
            return Some(t);
        };
        t.deleted_as = Some(name);
        self.textures.reserve(id);
        self.textures.get_or_create(id, move || t);
        self.refile(&holders, object, Some(id));
        None
    }

    /// [`Self::keep_deleted_texture`] for a renderbuffer.
    pub(crate) fn keep_deleted_renderbuffer(
        &mut self,
        name: u32,
        mut rb: Renderbuffer,
    ) -> Option<Renderbuffer> {
        let object = Attached::Renderbuffer(name);
        let holders = self.holders(object);
        if holders.is_empty() {
            return Some(rb);
        }
        let Some(id) = private_id(&self.renderbuffers) else {
            self.refile(&holders, object, None);
            return Some(rb);
        };
        rb.deleted_as = Some(name);
        self.renderbuffers.reserve(id);
        self.renderbuffers.get_or_create(id, move || rb);
        self.refile(&holders, object, Some(id));
        None
    }

    /// Called for an attachment a framebuffer no longer has (overwritten, detached, or the
    /// framebuffer deleted): a deleted object that no framebuffer holds any more leaves its
    /// table, and its image is retired.
    pub(crate) fn let_go(&mut self, a: Attachment) {
        if self.shares_objects() {
            // A deleted shared object waits for the whole group (`share_group`).
            self.settle_tombstones();
            return;
        }
        let object = a.object();
        let kept = match object {
            Attached::Texture(id) => self.textures.get(id).is_some_and(|t| !t.named()),
            Attached::Renderbuffer(id) => self.renderbuffers.get(id).is_some_and(|r| !r.named()),
        };
        if !kept || !self.holders(object).is_empty() {
            return;
        }
        let device = self.device.clone();
        let mut locked = device.lock();
        match object {
            Attached::Texture(id) => {
                if let Some(t) = self.textures.remove(id) {
                    release_texture(t, &mut locked);
                }
            }
            Attached::Renderbuffer(id) => {
                if let Some(mut rb) = self.renderbuffers.remove(id) {
                    rb.release_storage(&mut locked.manager);
                }
            }
        }
    }
}
