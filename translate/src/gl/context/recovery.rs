//! A context across a device recovery (`docs/robustness.md`, "Recovery inside the context").
//!
//! Design decisions:
//! - **Who recovers.** A context without a reset notification strategy
//!   (`GL_NO_RESET_NOTIFICATION`, the default) recovers: the command that meets the lost
//!   device asks [`Device::recover`](crate::gl::Device::recover) for a new device behind the
//!   same memory handles and runs normally on it; the command that hit the loss had its work
//!   dropped (as a frame a reset discards) and raises no error. A context that asked for
//!   `GL_LOSE_CONTEXT_ON_RESET` keeps GL's robustness behaviour: it stays lost and reports the
//!   reset, also when another context of the process recovered the device.
//! - **What follows the device.** Memory objects (buffers, textures, renderbuffers, surfaces)
//!   keep their handles: the manager re-created them and refilled them from its restore
//!   journal. What the translator made with the raw device is per generation: on the first
//!   command after a recovery (`follow_recovery`, one integer compare otherwise) the context
//!   gives the lost device's objects back to be destroyed there (descriptor pools, the draw
//!   encoder's caches, query pools — made again in place so query objects keep their slots —,
//!   the buffer-texture stand-in) and makes every linked program of its namespace again from
//!   its SPIR-V (`Linked::remade`); internal programs (fixed function, masked clears, mipmap
//!   draws) are made again on next use. Pipelines come back from their cache keys.

use std::sync::Arc;

use crate::gl::context::enums::GL_CONTEXT_LOST;
use crate::gl::context::Context;
use crate::gl::objects::program::Linked;
use crate::gl::objects::transform_feedback::TransformFeedback;

impl Context {
    /// Whether a lost device is recovered for this context rather than reported (no reset
    /// notification asked for, and recovery on).
    pub fn recovers_from_loss(&self) -> bool {
        !self.lose_context_on_reset && self.device.recover_enabled()
    }

    /// Before a command: whether the context can run it. On a lost device a recovering context
    /// recovers it (or finds it recovered); then, or when another context recovered it
    /// meanwhile, the context follows the new device. `false`: the context is lost (the caller
    /// generates `GL_CONTEXT_LOST`).
    pub fn usable_after_loss(&mut self) -> bool {
        let moved = self.device_generation != self.device.generation();
        if !self.recovers_from_loss() {
            if moved {
                // Another context replaced the device: this one's reset happened too.
                self.lost = true;
            }
            return !self.is_lost();
        }
        if self.device.is_lost() && !self.device.recover() {
            return false;
        }
        self.lost = false;
        self.follow_recovery();
        true
    }

    /// Whether an error with code `code` is the loss a recovering context absorbs: the work
    /// of the command is dropped, no error is raised, and the next command recovers.
    pub(crate) fn absorbs_loss(&self, code: u32) -> bool {
        code == GL_CONTEXT_LOST && self.recovers_from_loss()
    }

    /// After a recovery: gives back what this context made on the lost device and makes its
    /// programs again on the new one (see the module comment). Nothing when the device did
    /// not change since the last command.
    pub(crate) fn follow_recovery(&mut self) {
        let generation = self.device.generation();
        let lost = self.device_generation;
        if lost == generation {
            return;
        }
        self.device_generation = generation;
        self.encoder.forget_lost_device();
        let device = self.device.clone();
        {
            let mut locked = device.lock();
            self.descriptors.forget_lost_device(&mut locked, lost);
            self.queries.forget_lost_device(&device, &mut locked, lost);
            self.texture_buffers.forget_lost_device(&mut locked, lost);
        }
        self.clear_program = None;
        self.mipmap_programs = [None, None];
        self.compat.programs.clear();
        let remade = self.remake_programs(generation);
        self.follow_captures(&remade);
    }

    /// Points every active transform feedback capture at its program made again (a capture
    /// keeps the program current at `glBeginTransformFeedback`; `remade` pairs each program's
    /// lost-device `Linked` with its new one). A capture whose program could not be made again
    /// ends: GL leaves what it would have written undefined after a reset.
    fn follow_captures(&mut self, remade: &[(Arc<Linked>, Arc<Linked>)]) {
        let generation = self.device_generation;
        let xfb = &mut self.xfb;
        for name in xfb.objects.created() {
            if let Some(object) = xfb.objects.get_mut(name) {
                follow_capture(object, remade, generation);
            }
        }
        follow_capture(&mut xfb.default, remade, generation);
    }

    /// Makes every linked program of the namespace whose Vulkan objects belong to an earlier
    /// device generation again on the device in use. A program that cannot be made again
    /// (out of memory) is left unlinked with a log saying why.
    /// Returns each program's (lost, remade) pair.
    fn remake_programs(&mut self, generation: u64) -> Vec<(Arc<Linked>, Arc<Linked>)> {
        let device = self.device.clone();
        let mut remade = Vec::new();
        for name in self.programs.created() {
            let Some(program) = self.programs.get_mut(name) else {
                continue;
            };
            let Some(old) = program.linked.as_ref() else {
                continue;
            };
            if old.generation == generation {
                continue;
            }
            match old.remade(&device) {
                Ok(linked) => {
                    let linked = Arc::new(linked);
                    remade.push((old.clone(), linked.clone()));
                    program.linked = Some(linked);
                }
                Err(e) => {
                    tracing::warn!(program = name, error = ?e, "a program could not be made again after the device recovery");
                    program.linked = None;
                    program.link_status = false;
                    program.log =
                        "ERROR: the program could not be made again after a device recovery\n"
                            .into();
                }
            }
        }
        remade
    }
}

/// One transform feedback object's capture after a recovery to device `generation` (see
/// `Context::follow_captures`).
fn follow_capture(
    object: &mut TransformFeedback,
    remade: &[(Arc<Linked>, Arc<Linked>)],
    generation: u64,
) {
    let Some(active) = object.active.as_mut() else {
        return;
    };
    match remade
        .iter()
        .find(|(old, _)| Arc::ptr_eq(old, &active.program))
    {
        Some((_, new)) => active.program = new.clone(),
        None if active.program.generation != generation => object.active = None,
        None => {}
    }
}
