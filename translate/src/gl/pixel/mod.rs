//! Pixel transfers between client memory, buffers, images and framebuffers: pixel buffer
//! objects (`buffer`), `glDrawPixels`/`glBitmap` (`rect`), `glReadPixels` (`read`) and what a
//! read of colour or depth returns (`readback_*`), depth uploads, `glGetTexImage` and
//! `glGetCompressedTexImage`, image copies,
//! blits and mipmap generation.

pub(crate) mod blit;
pub(crate) mod buffer;
pub(crate) mod clear_texture;
pub(crate) mod compressed_store;
pub(crate) mod copy_image;
pub(crate) mod copy_tex_image;
pub(crate) mod get_compressed;
pub(crate) mod get_tex_image;
pub(crate) mod get_texture_sub_image;
pub(crate) mod mipmap_cpu;
pub(crate) mod mipmap_fallback;
pub(crate) mod read;
pub(crate) mod readback_base;
pub(crate) mod readback_depth;
pub(crate) mod rect;
pub(crate) mod upload_depth;

/// Logs that `what` is not supported yet and nothing was copied, on the first call and then
/// on every 1000th, counted in the caller's own `count`.
fn warn_now_and_then(count: &std::sync::atomic::AtomicU64, what: std::fmt::Arguments) {
    let n = count.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    if n % 1000 == 0 {
        tracing::warn!(
            count = n + 1,
            "{what} is not supported yet; nothing was copied"
        );
    }
}
