//! Degradation under memory pressure (`docs/pressure.md`), end to end through the C ABI: a
//! small budget (`ARENAGL_BUDGET_MB`, read when the device opens), a filler buffer that pushes
//! usage into Critical, and the translator's answers — demotion of textures not sampled lately,
//! restoration once pressure falls, the 64-frame prune, cache trimming — and the refusal of an
//! allocation that would cross the budget. Sampling is checked texel for texel: every level of
//! the test texture is one solid colour, so a demoted texture must show exactly the colour of
//! the level the GPU selects, never a stale or garbage one. The validation layer must stay
//! silent (`ARENAGL_VALIDATION=1` in CI).

use std::ffi::{c_void, CStr};
use std::ptr::null;

#[macro_use]
#[path = "common/gl.rs"]
mod gl_harness;

use gl_harness::{error, expect, f, P};

const GL_NO_ERROR: u32 = 0;
const GL_OUT_OF_MEMORY: u32 = 0x0505;
const GL_TEXTURE_2D: u32 = 0x0DE1;
const GL_RGBA: u32 = 0x1908;
const GL_UNSIGNED_BYTE: u32 = 0x1401;
const GL_TEXTURE_MIN_FILTER: u32 = 0x2801;
const GL_TEXTURE_MAG_FILTER: u32 = 0x2800;
const GL_NEAREST: i32 = 0x2600;
const GL_NEAREST_MIPMAP_NEAREST: i32 = 0x2700;
const GL_ARRAY_BUFFER: u32 = 0x8892;
const GL_STATIC_DRAW: u32 = 0x88E4;
const GL_FRAMEBUFFER: u32 = 0x8D40;
const GL_COLOR_ATTACHMENT0: u32 = 0x8CE0;
const GL_FRAMEBUFFER_COMPLETE: u32 = 0x8CD5;
const EGL_DRAW: i32 = 0x3059;

/// The budget of this binary's device, in MiB.
const BUDGET_MB: u64 = 160;
/// Frames without sampling before a texture may be demoted.
const DEMOTE_AFTER: u64 = 3;

/// Usage that stays Critical (90 %, left below 85 %) after Warn halves the staging arenas
/// (16 MiB of them, a tenth of the budget).
const CRITICAL_FILL: u64 = 98;

/// Level `l` of the test texture is `COLORS[l]`.
const COLORS: [[u8; 4]; 9] = [
    [255, 0, 0, 255],
    [0, 255, 0, 255],
    [0, 0, 255, 255],
    [255, 255, 0, 255],
    [255, 0, 255, 255],
    [0, 255, 255, 255],
    [128, 128, 128, 255],
    [255, 255, 255, 255],
    [64, 0, 128, 255],
];

fn context() -> gl_harness::Current {
    // Read when the device opens (the first context of the process): every test sets the same.
    std::env::set_var("ARENAGL_BUDGET_MB", BUDGET_MB.to_string());
    std::env::set_var("ARENAGL_DEMOTE_AFTER_FRAMES", DEMOTE_AFTER.to_string());
    gl_harness::context()
}

/// One of the manager's figures (`arenagl_memory_stat`); the name must be known.
fn stat(name: &CStr) -> u64 {
    let v = gl_harness::memory_stat(name);
    assert_ne!(v, u64::MAX, "{name:?}");
    v
}

/// `eglSwapBuffers` on the current pbuffer: one frame boundary.
fn swap() {
    let display = gl!(c"eglGetCurrentDisplay": fn() -> P);
    let surface = gl!(c"eglGetCurrentSurface": fn(i32) -> P);
    let swap = gl!(c"eglSwapBuffers": fn(P, P) -> u32);
    // SAFETY: the current display and draw surface.
    unsafe { assert_eq!(swap(display(), surface(EGL_DRAW)), 1) };
}

/// A 256×256 texture whose level `l` is solid `COLORS[l]`, sampled nearest-mipmap-nearest.
fn level_coded_texture() -> u32 {
    let gen = gl!(c"glGenTextures": fn(i32, *mut u32));
    let bind = gl!(c"glBindTexture": fn(u32, u32));
    let image = gl!(c"glTexImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let param = gl!(c"glTexParameteri": fn(u32, u32, i32));
    let mut t = 0;
    // SAFETY: out-pointer to a local; each level's texels hold size² RGBA pixels.
    unsafe {
        gen(1, &mut t);
        bind(GL_TEXTURE_2D, t);
        for (level, color) in COLORS.iter().enumerate() {
            let size = 256 >> level;
            let texels: Vec<u8> = color.repeat(size * size);
            image(
                GL_TEXTURE_2D,
                level as i32,
                GL_RGBA as i32,
                size as i32,
                size as i32,
                0,
                GL_RGBA,
                GL_UNSIGNED_BYTE,
                texels.as_ptr().cast(),
            );
        }
        param(
            GL_TEXTURE_2D,
            GL_TEXTURE_MIN_FILTER,
            GL_NEAREST_MIPMAP_NEAREST,
        );
        param(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    }
    assert_eq!(error(), GL_NO_ERROR);
    t
}

/// Draws texture `t` over the 32×32 drawable and reads the centre pixel. `lod`: `None` samples
/// with `texture()` (the 256² texture over 32 pixels selects level 3), `Some(l)` with
/// `textureLod(…, l)`.
fn sample(t: u32, lod: Option<f32>) -> [u8; 4] {
    let use_program = gl!(c"glUseProgram": fn(u32));
    let gen_vaos = gl!(c"glGenVertexArrays": fn(i32, *mut u32));
    let bind_vao = gl!(c"glBindVertexArray": fn(u32));
    let draw_arrays = gl!(c"glDrawArrays": fn(u32, i32, i32));
    let uniform_i = gl!(c"glUniform1i": fn(i32, i32));
    let uniform_f = gl!(c"glUniform1f": fn(i32, f32));
    let location = gl!(c"glGetUniformLocation": fn(u32, *const i8) -> i32);
    let bind_fb = gl!(c"glBindFramebuffer": fn(u32, u32));
    let bind_texture = gl!(c"glBindTexture": fn(u32, u32));
    let viewport = gl!(c"glViewport": fn(i32, i32, i32, i32));
    let read = gl!(c"glReadPixels": fn(i32, i32, i32, i32, u32, u32, *mut c_void));
    let p = gl_harness::program(
        "#version 330 core\nout vec2 uv;\nvoid main() { vec2 p = vec2((gl_VertexID & 1) * 4 - 1, (gl_VertexID >> 1) * 4 - 1); uv = p * 0.5 + 0.5; gl_Position = vec4(p, 0.0, 1.0); }\n",
        "#version 330 core\nuniform sampler2D tex;\nuniform float lod;\nuniform int explicit_lod;\nin vec2 uv;\nout vec4 c;\nvoid main() { c = explicit_lod != 0 ? textureLod(tex, uv, lod) : texture(tex, uv); }\n",
    );
    let mut px = [0u8; 4];
    // SAFETY: NUL-terminated names; `px` holds one RGBA pixel.
    unsafe {
        bind_fb(GL_FRAMEBUFFER, 0);
        viewport(0, 0, 32, 32);
        bind_texture(GL_TEXTURE_2D, t);
        use_program(p);
        uniform_i(location(p, c"tex".as_ptr()), 0);
        uniform_i(
            location(p, c"explicit_lod".as_ptr()),
            i32::from(lod.is_some()),
        );
        uniform_f(location(p, c"lod".as_ptr()), lod.unwrap_or(0.0));
        let mut vao = 0;
        gen_vaos(1, &mut vao);
        bind_vao(vao);
        draw_arrays(4, 0, 3);
        read(
            16,
            16,
            1,
            1,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            px.as_mut_ptr().cast(),
        );
    }
    assert_eq!(error(), GL_NO_ERROR);
    px
}

/// A buffer of `bytes` (no data): the memory that pushes usage up.
fn filler(bytes: u64) -> u32 {
    let gen = gl!(c"glGenBuffers": fn(i32, *mut u32));
    let bind = gl!(c"glBindBuffer": fn(u32, u32));
    let data = gl!(c"glBufferData": fn(u32, isize, *const c_void, u32));
    let mut b = 0;
    // SAFETY: out-pointer to a local; no data pointer.
    unsafe {
        gen(1, &mut b);
        bind(GL_ARRAY_BUFFER, b);
        data(GL_ARRAY_BUFFER, bytes as isize, null(), GL_STATIC_DRAW);
    }
    b
}

fn delete_buffer(b: u32) {
    let delete = gl!(c"glDeleteBuffers": fn(i32, *const u32));
    // SAFETY: pointer to one name.
    unsafe { delete(1, &b) };
}

/// The filler buffer; deleted when dropped, so a failing test leaves the next one its budget.
struct Filler(u32);

impl Drop for Filler {
    fn drop(&mut self) {
        delete_buffer(self.0);
    }
}

/// Fills usage to `percent` % of the budget with one buffer.
fn fill_to(percent: u64) -> Filler {
    let budget = stat(c"budget_bytes");
    assert_eq!(budget, BUDGET_MB << 20, "ARENAGL_BUDGET_MB is the budget");
    // Memory retired by earlier tests counts until its epoch completes and a frame drains it.
    let finish = gl!(c"glFinish": fn());
    // SAFETY: no arguments.
    unsafe { finish() };
    swap();
    let target = budget / 100 * percent;
    let live = stat(c"live_bytes");
    assert!(live < target, "usage {live} is already above {target}");
    let b = filler(target - live);
    assert_eq!(error(), GL_NO_ERROR);
    Filler(b)
}

/// Swaps until the pressure level is `level` (at most `frames` frames).
fn swap_until_level(level: u64, frames: u32) {
    for _ in 0..frames {
        swap();
        if stat(c"pressure_level") == level {
            return;
        }
    }
    panic!(
        "pressure level {} after {frames} frames, wanted {level}",
        stat(c"pressure_level")
    );
}

#[test]
fn unsampled_textures_are_demoted_sample_the_right_levels_and_come_back() {
    let _ctx = context();
    let t = level_coded_texture();
    assert_eq!(sample(t, None), COLORS[3]);
    assert_eq!(sample(t, Some(0.0)), COLORS[0]);
    swap_until_level(0, 8);
    let demotions = stat(c"demotions");
    let restorations = stat(c"restorations");

    // Critical: the texture goes unsampled for DEMOTE_AFTER frames.
    let fill = fill_to(CRITICAL_FILL);
    swap_until_level(2, 4);
    for _ in 0..DEMOTE_AFTER + 2 {
        swap();
    }
    assert!(
        stat(c"demotions") > demotions,
        "the unsampled texture was demoted"
    );
    assert!(stat(c"demoted_bytes") > 0);
    // The GPU's level selection lands on the same level as before: exactly its colour. Level 0
    // is gone, so an explicit level 0 reads the first level kept (a blur, not garbage).
    assert_eq!(sample(t, None), COLORS[3]);
    assert_eq!(sample(t, Some(2.0)), COLORS[3]);
    assert_eq!(sample(t, Some(0.0)), COLORS[1]);
    assert_eq!(
        stat(c"restorations"),
        restorations,
        "nothing is restored while pressure stays Critical"
    );

    // Pressure falls; the texture was sampled since its demotion: it comes back, its dropped
    // level rebuilt from level 1 (solid, so exactly level 1's colour), the others intact.
    drop(fill);
    swap_until_level(0, 8);
    swap();
    assert!(
        stat(c"restorations") > restorations,
        "the sampled texture was restored"
    );
    assert_eq!(sample(t, None), COLORS[3]);
    for (level, color) in COLORS.iter().enumerate().skip(1) {
        assert_eq!(sample(t, Some(level as f32)), *color, "level {level}");
    }
    assert_eq!(sample(t, Some(0.0)), COLORS[1]);
}

#[test]
fn an_upload_into_a_demoted_texture_restores_it_first() {
    let _ctx = context();
    let sub_image =
        gl!(c"glTexSubImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let bind = gl!(c"glBindTexture": fn(u32, u32));
    let t = level_coded_texture();
    swap_until_level(0, 8);
    let demotions = stat(c"demotions");
    let fill = fill_to(CRITICAL_FILL);
    swap_until_level(2, 4);
    for _ in 0..DEMOTE_AFTER + 2 {
        swap();
    }
    assert!(stat(c"demotions") > demotions, "demoted");
    let restorations = stat(c"restorations");
    // Level 0 is respecified in full: the texture must be whole again before the copy lands.
    let blue = [0u8, 0, 255, 255].repeat(256 * 256);
    // SAFETY: `blue` holds 256×256 RGBA pixels.
    unsafe {
        bind(GL_TEXTURE_2D, t);
        sub_image(
            GL_TEXTURE_2D,
            0,
            0,
            0,
            256,
            256,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            blue.as_ptr().cast(),
        );
    }
    assert_eq!(error(), GL_NO_ERROR);
    assert!(stat(c"restorations") > restorations, "restored on upload");
    assert_eq!(sample(t, Some(0.0)), [0, 0, 255, 255]);
    assert_eq!(sample(t, Some(1.0)), COLORS[1]);
    assert_eq!(sample(t, None), COLORS[3]);
    drop(fill);
    swap_until_level(0, 8);
}

#[test]
fn critical_pressure_trims_caches_and_prunes_detached_views_and_rendering_goes_on() {
    let _ctx = context();
    let gen_fb = gl!(c"glGenFramebuffers": fn(i32, *mut u32));
    let bind_fb = gl!(c"glBindFramebuffer": fn(u32, u32));
    let attach = gl!(c"glFramebufferTexture2D": fn(u32, u32, u32, u32, i32));
    let status = gl!(c"glCheckFramebufferStatus": fn(u32) -> u32);
    let clear_color = gl!(c"glClearColor": fn(f32, f32, f32, f32));
    let clear = gl!(c"glClear": fn(u32));
    let param = gl!(c"glTexParameteri": fn(u32, u32, i32));
    let read = gl!(c"glReadPixels": fn(i32, i32, i32, i32, u32, u32, *mut c_void));
    let t = level_coded_texture();
    // Sampled without mipmaps, so never demoted: this test is about the other actions.
    // SAFETY: plain GL call on the bound texture.
    unsafe { param(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST) };
    swap_until_level(0, 8);
    let (trims, evictions) = (stat(c"cache_trims"), stat(c"evictions"));
    // A view made for an attachment, then the attachment is gone: a leftover to prune.
    let mut fb = 0;
    // SAFETY: out-pointer to a local.
    unsafe {
        gen_fb(1, &mut fb);
        bind_fb(GL_FRAMEBUFFER, fb);
        attach(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, t, 0);
        assert_eq!(status(GL_FRAMEBUFFER), GL_FRAMEBUFFER_COMPLETE);
        clear_color(0.0, 1.0, 1.0, 1.0);
        clear(0x4000);
        attach(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, 0, 0);
        bind_fb(GL_FRAMEBUFFER, 0);
    }
    assert_eq!(error(), GL_NO_ERROR);
    let fill = fill_to(CRITICAL_FILL);
    swap_until_level(2, 4);
    swap();
    assert!(
        stat(c"cache_trims") > trims,
        "entering Critical trims the caches"
    );
    // The prune runs every 64 frames at Critical; drawing goes on meanwhile (the trimmed
    // pipeline is rebuilt).
    for _ in 0..66 {
        assert_eq!(sample(t, None), [0, 255, 255, 255]);
        swap();
    }
    assert!(
        stat(c"evictions") > evictions,
        "the prune released the detached attachment view"
    );
    // The pruned view is made again when the level is attached again.
    let mut px = [0u8; 4];
    // SAFETY: plain GL calls on live names; `px` holds one RGBA pixel.
    unsafe {
        bind_fb(GL_FRAMEBUFFER, fb);
        attach(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, t, 0);
        read(
            0,
            0,
            1,
            1,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            px.as_mut_ptr().cast(),
        );
        assert_eq!(px, [0, 255, 255, 255], "the level cleared before the prune");
        clear_color(1.0, 1.0, 0.0, 1.0);
        clear(0x4000);
        read(
            0,
            0,
            1,
            1,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            px.as_mut_ptr().cast(),
        );
        assert_eq!(px, [255, 255, 0, 255]);
        bind_fb(GL_FRAMEBUFFER, 0);
    }
    assert_eq!(error(), GL_NO_ERROR);
    drop(fill);
    swap_until_level(0, 8);
}

#[test]
fn an_allocation_that_would_cross_the_budget_is_refused_and_the_context_recovers() {
    let _ctx = context();
    let t = level_coded_texture();
    swap_until_level(0, 8);
    let fill = fill_to(80);
    let refusals = stat(c"refusals");
    // A quarter of the budget more does not fit: GL_OUT_OF_MEMORY, nothing allocated.
    let big = filler((BUDGET_MB << 20) / 4);
    expect(GL_OUT_OF_MEMORY);
    assert!(stat(c"refusals") > refusals);
    assert!(stat(c"live_bytes") <= BUDGET_MB << 20);
    // The context keeps rendering.
    swap();
    assert_eq!(sample(t, None), COLORS[3]);
    // Freeing memory lets the same request through.
    drop(fill);
    swap_until_level(0, 8);
    let get = gl!(c"glBindBuffer": fn(u32, u32));
    let data = gl!(c"glBufferData": fn(u32, isize, *const c_void, u32));
    // SAFETY: a generated name; no data pointer.
    unsafe {
        get(GL_ARRAY_BUFFER, big);
        data(
            GL_ARRAY_BUFFER,
            ((BUDGET_MB << 20) / 4) as isize,
            null(),
            GL_STATIC_DRAW,
        );
    }
    assert_eq!(error(), GL_NO_ERROR);
    delete_buffer(big);
}

/// The manager's recycle bin end to end: a texture made, drawn and deleted every frame is made
/// from the previous ones' memory (`recycled` counts it; no `vkAllocateMemory` once warm), and
/// the reused image shows exactly its own new texels, never the last frame's.
#[test]
fn textures_made_and_deleted_every_frame_reuse_memory_and_show_their_own_texels() {
    let _ctx = context();
    let gen = gl!(c"glGenTextures": fn(i32, *mut u32));
    let bind = gl!(c"glBindTexture": fn(u32, u32));
    let image = gl!(c"glTexImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let param = gl!(c"glTexParameteri": fn(u32, u32, i32));
    let delete = gl!(c"glDeleteTextures": fn(i32, *const u32));
    // 512² RGBA8: 1 MiB (1.3 with the mip chain GL may still ask for), within this budget's bin
    // (1/32 of 160 MiB).
    const SIDE: usize = 512;
    let mut warm = None;
    for frame in 0..12u8 {
        let color = [frame * 20, 255 - frame * 20, frame.wrapping_mul(37), 255];
        let texels = color.repeat(SIDE * SIDE);
        let mut t = 0;
        // SAFETY: out-pointer to a local; `texels` holds SIDE² RGBA pixels.
        unsafe {
            gen(1, &mut t);
            bind(GL_TEXTURE_2D, t);
            image(
                GL_TEXTURE_2D,
                0,
                GL_RGBA as i32,
                SIDE as i32,
                SIDE as i32,
                0,
                GL_RGBA,
                GL_UNSIGNED_BYTE,
                texels.as_ptr().cast(),
            );
            param(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
            param(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
        }
        assert_eq!(sample(t, None), color, "frame {frame}'s texture");
        // SAFETY: pointer to one name.
        unsafe { delete(1, &t) };
        swap();
        if frame == 3 {
            warm = Some((stat(c"recycled"), stat(c"allocate_calls")));
        }
    }
    let (recycled, calls) = warm.expect("frame 3 passed");
    assert!(
        stat(c"recycled") >= recycled + 8,
        "each later frame's texture came from the bin: {} then {}",
        recycled,
        stat(c"recycled")
    );
    assert_eq!(
        stat(c"allocate_calls"),
        calls,
        "no vkAllocateMemory once warm"
    );
}
