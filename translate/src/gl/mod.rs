//! The GL state machine over the memory manager: GL 3.3 core and compatibility.
//!
//! The rooms, and what each holds:
//! - `context/` — [`Context`], one GL context's state; GL errors (`error`), object name tables
//!   (`names`), the enums, `glGet*` (`get`), the pipeline state GL core has too — blend,
//!   depth, stencil, viewport, raster (`state`, `PipelineState`) — and share groups
//!   (`share_group`).
//! - `objects/<kind>/` — one folder per GL object type (buffer, vertex array, texture, sampler,
//!   framebuffer and renderbuffer, program, query, sync): the object type beside the entry
//!   points that act on it (`api.rs` where they are a file of their own).
//! - `draw/` — draws and clears: the render pass, what one draw records, lowering of what Vulkan
//!   cannot draw directly, masked and per-buffer clears.
//! - `compute/` — compute dispatches, storage-buffer / atomic-counter / image-unit bindings and
//!   memory barriers (GL_ARB_compute_shader and the GL 4.2/4.3 storage extensions).
//! - `pixel/` — pixel transfers: pixel buffer objects, reads, depth uploads, image copies,
//!   blits, mipmap generation, `glGetTexImage`, `glDrawPixels`/`glBitmap`.
//! - `compat/` — the compatibility profile's fixed-function layer: generated programs,
//!   lighting, texture environments, matrix stacks, display lists, colour clamping.
//! - `pressure/` — what memory pressure makes the translator give up (texture demotion, cache
//!   trimming, the render scale).
//! - `dsa/` — GL_ARB_direct_state_access: the `glCreate*` commands and the selection that
//!   runs each bind-to-edit path on a named object.
//! - `vk/` — the Vulkan side: the process-wide device (the memory manager behind a mutex), the
//!   pipeline, descriptor and query-pool caches, and the pure GL→Vulkan enum mappings (`conv`).
//!
//! The line between **GL API state** (validation, object tables, what `glGet*` answers: every
//! room but `vk/`) and **the Vulkan side** (`vk/`, and the recording in `draw/` and `pixel/`) is
//! where a frontend/backend split would put its wire.
//!
//! The rule (checked by `translate/tests/layout_rule.rs`): object types — the files of
//! `objects/` that add no methods to `Context` — and `vk/` do not use `compat/` or `pressure/`
//! (policy depends on objects, never the reverse), and `vk/` adds no methods to `Context`.
//! Every entry point validates first, records GL errors through `context/error`, and reaches
//! device memory only through `arenagl-memory` (the ownership rule).

mod compat;
mod compute;
mod context;
mod draw;
mod dsa;
mod objects;
mod pixel;
mod pressure;
mod vk;

pub use context::debug;
pub use context::enums;
pub use context::error::{error_name, GlError};
pub use context::get::Value;
pub use context::share_group::ShareGroup;
pub use context::{Context, Profile, MAX_UNIFORM_BUFFER_BINDINGS};
pub use draw::indirect::IndirectDraw;
pub use draw::DrawCall;
pub use dsa::Named;
pub use objects::framebuffer::{SurfaceColor, SurfaceFormat, SurfaceImages, MAX_COLOR_ATTACHMENTS};
pub use objects::multi_bind::{BufferRanges, VertexBuffers};
pub use objects::program::{split_u64, ValueKind, MAX_TEXTURE_UNITS};
pub use objects::query_buffer::QueryResultType;
pub use objects::sync::DeviceFence;
pub use objects::texture::egl_image::{
    destroy_display_images, destroy_egl_image, is_egl_image, EglImageError, EglImageSource,
};
pub use objects::texture::native::{compressed_uploads, CompressedUploads};
pub use objects::vertex_array::binding::FormatKind;
pub use objects::vertex_array::{FfArray, MAX_VERTEX_ATTRIBS};
pub use pixel::buffer::PixelBufferTarget;
pub use pixel::compressed_store::BlockLayout;
pub use pixel::get_tex_image::PackDest;
pub use vk::device::{Device, DeviceCaps};
pub use vk::pipeline::{build_counts, BuildCounts};

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
