//! The GL 3.3 state machine over the memory manager (MISSION T1–T4).
//!
//! Layout: [`Context`] holds a context's state (`context`); entry points live with the objects
//! they act on (`objects_buffer`, `objects_program`, `objects_texture`); `draw` encodes draws
//! and clears into dynamic rendering; `pipeline` and `descriptors` cache what draws need;
//! `device` is the process-wide device with the manager behind a mutex; `get` answers queries;
//! `sync` holds fences, `query` query objects and conditional rendering (over `query_pool`).
//! Every entry point validates first, records GL errors through `error`, and talks to device
//! memory only through `arenagl-memory` (the ownership rule).

mod blend_dst_alpha;
mod blit;
mod buffer;
mod buffer_storage;
mod clamp_color;
mod clear_buffer;
mod compat;
mod context;
mod copy_image;
mod copy_tex_image;
mod degrade;
mod descriptors;
mod device;
mod display_list;
mod draw;
pub mod enums;
mod enums_compat;
mod error;
mod framebuffer;
mod framebuffer_query;
mod get;
mod get_tex_image;
mod internal_format;
mod lighting;
mod lower;
mod masked_clear;
mod matrix;
mod mipmap_cpu;
mod mipmap_fallback;
mod names;
mod objects_buffer;
mod objects_program;
mod objects_sampler;
mod objects_texture;
mod pipeline;
mod pixel_buffer;
mod pixel_rect;
mod program;
mod query;
mod query_pool;
mod readback_base;
mod readback_depth;
mod render_scale;
mod shader_objects_arb;
mod share_group;
mod state;
mod sync;
mod texenv;
mod texture;
mod texture_buffer;
mod texture_multisample;
mod texture_target;
mod upload_depth;
mod vertex_array;

pub use context::{Context, Profile, MAX_UNIFORM_BUFFER_BINDINGS};
pub use device::{Device, DeviceCaps};
pub use draw::DrawCall;
pub use error::{error_name, GlError};
pub use framebuffer::{SurfaceImages, MAX_COLOR_ATTACHMENTS};
pub use get::Value;
pub use get_tex_image::PackDest;
pub use pixel_buffer::PixelBufferTarget;
pub use program::{ValueKind, MAX_TEXTURE_UNITS};
pub use share_group::ShareGroup;
pub use vertex_array::{FfArray, MAX_VERTEX_ATTRIBS};

use std::sync::atomic::{AtomicU64, Ordering};

/// Logs a GL error: the first few and every 1000th after at info (`ARENAGL_LOG=info` shows why
/// a program misbehaves without a flood), the rest at debug. Programs probe with errors on
/// purpose, so none of this is a warning.
pub(crate) fn log_error(e: &GlError) {
    static COUNT: AtomicU64 = AtomicU64::new(0);
    let n = COUNT.fetch_add(1, Ordering::Relaxed);
    if n < 20 || n % 1000 == 0 {
        tracing::info!(error = %e, total = n + 1, "GL error");
    } else {
        tracing::debug!(error = %e, "GL error");
    }
}
