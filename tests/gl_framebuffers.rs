//! Framebuffer operations through the C ABI: `glBlitFramebuffer` scaled, mirrored, scissored
//! and clipped, depth blits, and its errors; draw-buffer routing (`glDrawBuffers` with
//! `GL_NONE` before an attachment) and `glClearBuffer*`. Pixels are read back and checked exactly; the
//! validation layer must stay silent.

use std::ffi::c_void;

#[macro_use]
#[path = "common/gl.rs"]
mod gl_harness;

use gl_harness::{context, expect, f};

const GL_NO_ERROR: u32 = 0;
const GL_INVALID_ENUM: u32 = 0x0500;
const GL_INVALID_VALUE: u32 = 0x0501;
const GL_INVALID_OPERATION: u32 = 0x0502;
const GL_INVALID_FRAMEBUFFER_OPERATION: u32 = 0x0506;
const GL_RGBA: u32 = 0x1908;
const GL_RGBA8: u32 = 0x8058;
const GL_UNSIGNED_BYTE: u32 = 0x1401;
const GL_COLOR_BUFFER_BIT: u32 = 0x4000;
const GL_DEPTH_BUFFER_BIT: u32 = 0x0100;
const GL_NEAREST: u32 = 0x2600;
const GL_LINEAR: u32 = 0x2601;
const GL_FRAMEBUFFER: u32 = 0x8D40;
const GL_READ_FRAMEBUFFER: u32 = 0x8CA8;
const GL_DRAW_FRAMEBUFFER: u32 = 0x8CA9;
const GL_RENDERBUFFER: u32 = 0x8D41;
const GL_COLOR_ATTACHMENT0: u32 = 0x8CE0;
const GL_DEPTH_ATTACHMENT: u32 = 0x8D00;
const GL_DEPTH_COMPONENT24: u32 = 0x81A6;
const GL_SCISSOR_TEST: u32 = 0x0C11;
const GL_DEPTH_TEST: u32 = 0x0B71;
const GL_NONE: u32 = 0;
const GL_COLOR: u32 = 0x1800;
const GL_DEPTH: u32 = 0x1801;
const GL_STENCIL: u32 = 0x1802;
const GL_TRIANGLES: u32 = 0x0004;

/// The default framebuffer (32×32) as RGBA bytes, row 0 at the bottom.
fn pixels() -> Vec<u8> {
    let read = gl!(c"glReadPixels": fn(i32, i32, i32, i32, u32, u32, *mut c_void));
    let mut px = vec![0u8; 32 * 32 * 4];
    // SAFETY: `px` holds 32×32 RGBA bytes.
    unsafe {
        read(
            0,
            0,
            32,
            32,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            px.as_mut_ptr().cast(),
        )
    };
    px
}

fn at(px: &[u8], x: usize, y: usize) -> [u8; 4] {
    let i = (y * 32 + x) * 4;
    [px[i], px[i + 1], px[i + 2], px[i + 3]]
}

/// Clears `(x, y, w, h)` of the bound draw framebuffer to `c` (through the scissor).
fn fill(x: i32, y: i32, w: i32, h: i32, c: [f32; 4]) {
    let enable = gl!(c"glEnable": fn(u32));
    let disable = gl!(c"glDisable": fn(u32));
    let scissor = gl!(c"glScissor": fn(i32, i32, i32, i32));
    let clear_color = gl!(c"glClearColor": fn(f32, f32, f32, f32));
    let clear = gl!(c"glClear": fn(u32));
    // SAFETY: plain values.
    unsafe {
        enable(GL_SCISSOR_TEST);
        scissor(x, y, w, h);
        clear_color(c[0], c[1], c[2], c[3]);
        clear(GL_COLOR_BUFFER_BIT);
        disable(GL_SCISSOR_TEST);
    }
}

/// A 16×16 RGBA8 renderbuffer framebuffer (optionally with a depth renderbuffer), bound to both
/// targets: left half red, right half green.
fn source_fbo(with_depth: bool) -> u32 {
    let gen_fbs = gl!(c"glGenFramebuffers": fn(i32, *mut u32));
    let bind_fb = gl!(c"glBindFramebuffer": fn(u32, u32));
    let gen_rbs = gl!(c"glGenRenderbuffers": fn(i32, *mut u32));
    let bind_rb = gl!(c"glBindRenderbuffer": fn(u32, u32));
    let storage = gl!(c"glRenderbufferStorage": fn(u32, u32, i32, i32));
    let attach = gl!(c"glFramebufferRenderbuffer": fn(u32, u32, u32, u32));
    // SAFETY: out-pointers to locals; plain values.
    unsafe {
        let mut fb = 0;
        gen_fbs(1, &mut fb);
        bind_fb(GL_FRAMEBUFFER, fb);
        let mut rb = [0u32; 2];
        gen_rbs(2, rb.as_mut_ptr());
        bind_rb(GL_RENDERBUFFER, rb[0]);
        storage(GL_RENDERBUFFER, GL_RGBA8, 16, 16);
        attach(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb[0]);
        if with_depth {
            bind_rb(GL_RENDERBUFFER, rb[1]);
            storage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT24, 16, 16);
            attach(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, rb[1]);
        }
        viewport(16, 16);
        fill(0, 0, 8, 16, [1.0, 0.0, 0.0, 1.0]);
        fill(8, 0, 8, 16, [0.0, 1.0, 0.0, 1.0]);
        fb
    }
}

fn viewport(w: i32, h: i32) {
    let v = gl!(c"glViewport": fn(i32, i32, i32, i32));
    // SAFETY: plain values.
    unsafe { v(0, 0, w, h) };
}

fn blit(s: [i32; 4], d: [i32; 4], mask: u32, filter: u32) {
    let b = gl!(c"glBlitFramebuffer": fn(i32, i32, i32, i32, i32, i32, i32, i32, u32, u32));
    // SAFETY: plain values.
    unsafe { b(s[0], s[1], s[2], s[3], d[0], d[1], d[2], d[3], mask, filter) };
}

fn bind(target: u32, fb: u32) {
    let bind_fb = gl!(c"glBindFramebuffer": fn(u32, u32));
    // SAFETY: plain values.
    unsafe { bind_fb(target, fb) };
}

const RED: [u8; 4] = [255, 0, 0, 255];
const GREEN: [u8; 4] = [0, 255, 0, 255];
const BLUE: [u8; 4] = [0, 0, 255, 255];

#[test]
fn blits_scale_mirror_and_clip() {
    let _ctx = context();
    let fb = source_fbo(false);
    bind(GL_DRAW_FRAMEBUFFER, 0);
    viewport(32, 32);
    fill(0, 0, 32, 32, [0.0, 0.0, 1.0, 1.0]);
    // 2× magnification onto the whole drawable.
    bind(GL_READ_FRAMEBUFFER, fb);
    blit(
        [0, 0, 16, 16],
        [0, 0, 32, 32],
        GL_COLOR_BUFFER_BIT,
        GL_NEAREST,
    );
    expect(GL_NO_ERROR);
    bind(GL_READ_FRAMEBUFFER, 0);
    let px = pixels();
    assert_eq!(at(&px, 2, 2), RED);
    assert_eq!(at(&px, 15, 30), RED);
    assert_eq!(at(&px, 16, 30), GREEN);
    assert_eq!(at(&px, 31, 0), GREEN);
    // Mirrored in x: green comes first.
    fill(0, 0, 32, 32, [0.0, 0.0, 1.0, 1.0]);
    bind(GL_READ_FRAMEBUFFER, fb);
    blit(
        [0, 0, 16, 16],
        [32, 0, 0, 32],
        GL_COLOR_BUFFER_BIT,
        GL_NEAREST,
    );
    bind(GL_READ_FRAMEBUFFER, 0);
    let px = pixels();
    assert_eq!(at(&px, 2, 2), GREEN);
    assert_eq!(at(&px, 30, 2), RED);
    // The scissor limits what is written; a destination past the drawable is clipped and
    // keeps the scale (source x 0..16 onto 16..48: only red 0..8 → 16..32 lands).
    fill(0, 0, 32, 32, [0.0, 0.0, 1.0, 1.0]);
    let enable = gl!(c"glEnable": fn(u32));
    let disable = gl!(c"glDisable": fn(u32));
    let scissor = gl!(c"glScissor": fn(i32, i32, i32, i32));
    bind(GL_READ_FRAMEBUFFER, fb);
    // SAFETY: plain values.
    unsafe {
        enable(GL_SCISSOR_TEST);
        scissor(0, 0, 32, 8);
        blit(
            [0, 0, 16, 16],
            [16, 0, 48, 32],
            GL_COLOR_BUFFER_BIT,
            GL_NEAREST,
        );
        disable(GL_SCISSOR_TEST);
    }
    expect(GL_NO_ERROR);
    bind(GL_READ_FRAMEBUFFER, 0);
    let px = pixels();
    assert_eq!(at(&px, 8, 4), BLUE, "left of the destination");
    assert_eq!(at(&px, 20, 4), RED, "scissored in, red half of the source");
    assert_eq!(
        at(&px, 31, 4),
        RED,
        "the green half would land past the drawable"
    );
    assert_eq!(at(&px, 20, 20), BLUE, "above the scissor box");
    // Linear filtering of a 1:1 blit leaves texels as they are.
    fill(0, 0, 32, 32, [0.0, 0.0, 1.0, 1.0]);
    bind(GL_READ_FRAMEBUFFER, fb);
    blit(
        [0, 0, 16, 16],
        [0, 0, 16, 16],
        GL_COLOR_BUFFER_BIT,
        GL_LINEAR,
    );
    bind(GL_READ_FRAMEBUFFER, 0);
    let px = pixels();
    assert_eq!(at(&px, 3, 3), RED);
    assert_eq!(at(&px, 12, 3), GREEN);
    assert_eq!(at(&px, 20, 3), BLUE);
}

#[test]
fn depth_blits_carry_depth_to_the_default_framebuffer() {
    let _ctx = context();
    let clear_depth = gl!(c"glClearDepth": fn(f64));
    let clear = gl!(c"glClear": fn(u32));
    let enable = gl!(c"glEnable": fn(u32));
    let use_program = gl!(c"glUseProgram": fn(u32));
    let gen_vaos = gl!(c"glGenVertexArrays": fn(i32, *mut u32));
    let bind_vao = gl!(c"glBindVertexArray": fn(u32));
    let draw_arrays = gl!(c"glDrawArrays": fn(u32, i32, i32));
    // A full-screen triangle at NDC z 0 (window depth 0.5), blue.
    let p = gl_harness::program(
        "#version 330 core\nvoid main() { vec2 p = vec2((gl_VertexID & 1) * 4 - 1, (gl_VertexID >> 1) * 4 - 1); gl_Position = vec4(p, 0.0, 1.0); }\n",
        "#version 330 core\nout vec4 c;\nvoid main() { c = vec4(0.0, 0.0, 1.0, 1.0); }\n",
    );
    let fb = source_fbo(true);
    // SAFETY: plain values and out-pointers to locals.
    unsafe {
        clear_depth(0.25);
        clear(GL_DEPTH_BUFFER_BIT);
        bind(GL_DRAW_FRAMEBUFFER, 0);
        viewport(32, 32);
        clear_depth(1.0);
        clear(GL_DEPTH_BUFFER_BIT);
        fill(0, 0, 32, 32, [0.0, 0.0, 0.0, 1.0]);
        // Depth 0.25 onto the left half only.
        bind(GL_READ_FRAMEBUFFER, fb);
        blit(
            [0, 0, 16, 16],
            [0, 0, 16, 32],
            GL_DEPTH_BUFFER_BIT,
            GL_NEAREST,
        );
        expect(GL_NO_ERROR);
        bind(GL_READ_FRAMEBUFFER, 0);
        enable(GL_DEPTH_TEST);
        use_program(p);
        let mut vao = 0;
        gen_vaos(1, &mut vao);
        bind_vao(vao);
        draw_arrays(4, 0, 3);
    }
    expect(GL_NO_ERROR);
    let px = pixels();
    assert_eq!(
        at(&px, 8, 16),
        [0, 0, 0, 255],
        "blitted depth 0.25 hides the draw at 0.5"
    );
    assert_eq!(at(&px, 24, 16), BLUE, "depth 1.0 lets it through");
}

#[test]
fn blit_errors_follow_the_specification() {
    let _ctx = context();
    let fb = source_fbo(false);
    bind(GL_DRAW_FRAMEBUFFER, 0);
    blit([0, 0, 1, 1], [0, 0, 1, 1], 0x8000_0000, GL_NEAREST);
    expect(GL_INVALID_VALUE);
    blit([0, 0, 1, 1], [0, 0, 1, 1], GL_COLOR_BUFFER_BIT, 0x1234);
    expect(GL_INVALID_ENUM);
    blit([0, 0, 1, 1], [0, 0, 1, 1], GL_DEPTH_BUFFER_BIT, GL_LINEAR);
    expect(GL_INVALID_OPERATION);
    // An incomplete read framebuffer (no attachments).
    let gen_fbs = gl!(c"glGenFramebuffers": fn(i32, *mut u32));
    let mut empty = 0;
    // SAFETY: out-pointer to a local.
    unsafe { gen_fbs(1, &mut empty) };
    bind(GL_READ_FRAMEBUFFER, empty);
    blit([0, 0, 1, 1], [0, 0, 1, 1], GL_COLOR_BUFFER_BIT, GL_NEAREST);
    expect(GL_INVALID_FRAMEBUFFER_OPERATION);
    // Empty rectangles and a source fully outside the read framebuffer write nothing.
    bind(GL_READ_FRAMEBUFFER, fb);
    blit(
        [0, 0, 0, 16],
        [0, 0, 16, 16],
        GL_COLOR_BUFFER_BIT,
        GL_NEAREST,
    );
    blit(
        [100, 100, 116, 116],
        [0, 0, 16, 16],
        GL_COLOR_BUFFER_BIT,
        GL_NEAREST,
    );
    blit(
        [i32::MIN, 0, i32::MAX, 16],
        [i32::MAX, 0, i32::MIN, 16],
        GL_COLOR_BUFFER_BIT,
        GL_NEAREST,
    );
    expect(GL_NO_ERROR);
}

#[test]
fn depth_and_stencil_read_back_in_every_layout() {
    let _ctx = context();
    let clear_depth = gl!(c"glClearDepth": fn(f64));
    let clear_stencil = gl!(c"glClearStencil": fn(i32));
    let clear = gl!(c"glClear": fn(u32));
    let read = gl!(c"glReadPixels": fn(i32, i32, i32, i32, u32, u32, *mut c_void));
    let pixel_store = gl!(c"glPixelStorei": fn(u32, i32));
    const GL_STENCIL_BUFFER_BIT: u32 = 0x0400;
    const GL_DEPTH_COMPONENT: u32 = 0x1902;
    const GL_STENCIL_INDEX: u32 = 0x1901;
    const GL_DEPTH_STENCIL: u32 = 0x84F9;
    const GL_UNSIGNED_INT_24_8: u32 = 0x84FA;
    const GL_UNSIGNED_INT: u32 = 0x1405;
    const GL_FLOAT: u32 = 0x1406;
    const GL_PACK_ALIGNMENT: u32 = 0x0D05;
    // SAFETY: every output buffer holds what its call writes (4 × 2 pixels, tight or 4-aligned).
    unsafe {
        clear_depth(0.25);
        clear_stencil(0x33);
        clear(GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
        // Depth 0.75 and stencil 0x5 on the right half only.
        let enable = gl!(c"glEnable": fn(u32));
        let disable = gl!(c"glDisable": fn(u32));
        let scissor = gl!(c"glScissor": fn(i32, i32, i32, i32));
        enable(GL_SCISSOR_TEST);
        scissor(16, 0, 16, 32);
        clear_depth(0.75);
        clear_stencil(0x5);
        clear(GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
        disable(GL_SCISSOR_TEST);

        let mut f = [0f32; 8];
        read(
            14,
            0,
            4,
            2,
            GL_DEPTH_COMPONENT,
            GL_FLOAT,
            f.as_mut_ptr().cast(),
        );
        expect(GL_NO_ERROR);
        for (i, v) in f.iter().enumerate() {
            let want = if i % 4 < 2 { 0.25 } else { 0.75 };
            assert!((v - want).abs() < 1e-6, "depth {i}: {v}");
        }
        let mut u = [0u32; 8];
        read(
            14,
            0,
            4,
            2,
            GL_DEPTH_COMPONENT,
            GL_UNSIGNED_INT,
            u.as_mut_ptr().cast(),
        );
        assert!(
            u[0].abs_diff(u32::MAX / 4) < 1 << 10,
            "0.25 as GL_UNSIGNED_INT: {:#x}",
            u[0]
        );
        pixel_store(GL_PACK_ALIGNMENT, 1);
        let mut s = [0u8; 8];
        read(
            14,
            0,
            4,
            2,
            GL_STENCIL_INDEX,
            GL_UNSIGNED_BYTE,
            s.as_mut_ptr().cast(),
        );
        assert_eq!(s, [0x33, 0x33, 0x5, 0x5, 0x33, 0x33, 0x5, 0x5]);
        let mut ds = [0u32; 8];
        read(
            14,
            0,
            4,
            2,
            GL_DEPTH_STENCIL,
            GL_UNSIGNED_INT_24_8,
            ds.as_mut_ptr().cast(),
        );
        assert_eq!(ds[0] & 0xFF, 0x33);
        assert_eq!(ds[3] & 0xFF, 0x5);
        assert!(
            (ds[3] >> 8).abs_diff(0xBF_FFFF) <= 1,
            "0.75 in 24 bits: {:#x}",
            ds[3] >> 8
        );
        expect(GL_NO_ERROR);
        // GL_DEPTH_STENCIL takes only the packed types.
        read(
            0,
            0,
            1,
            1,
            GL_DEPTH_STENCIL,
            GL_FLOAT,
            ds.as_mut_ptr().cast(),
        );
        expect(GL_INVALID_OPERATION);
        // A framebuffer without depth/stencil cannot be read as depth.
        let fb = source_fbo(false);
        bind(GL_READ_FRAMEBUFFER, fb);
        read(
            0,
            0,
            1,
            1,
            GL_DEPTH_COMPONENT,
            GL_FLOAT,
            f.as_mut_ptr().cast(),
        );
        expect(GL_INVALID_OPERATION);
    }
}

#[test]
fn renderbuffer_parameters_report_size_format_and_bits() {
    let _ctx = context();
    let gen_rbs = gl!(c"glGenRenderbuffers": fn(i32, *mut u32));
    let bind_rb = gl!(c"glBindRenderbuffer": fn(u32, u32));
    let storage = gl!(c"glRenderbufferStorage": fn(u32, u32, i32, i32));
    let get = gl!(c"glGetRenderbufferParameteriv": fn(u32, u32, *mut i32));
    let q = |pname: u32| {
        let mut v = -1;
        // SAFETY: out-pointer to a local.
        unsafe { get(GL_RENDERBUFFER, pname, &mut v) };
        v
    };
    // SAFETY: out-pointers to locals; plain values.
    unsafe {
        q(0x8D42);
        expect(GL_INVALID_OPERATION); // none bound
        let mut rb = [0u32; 2];
        gen_rbs(2, rb.as_mut_ptr());
        bind_rb(GL_RENDERBUFFER, rb[0]);
        storage(GL_RENDERBUFFER, GL_RGBA8, 7, 5);
        assert_eq!((q(0x8D42), q(0x8D43), q(0x8D44)), (7, 5, GL_RGBA8 as i32));
        assert_eq!((q(0x8D50), q(0x8D53), q(0x8D54)), (8, 8, 0));
        bind_rb(GL_RENDERBUFFER, rb[1]);
        storage(GL_RENDERBUFFER, 0x88F0, 4, 4); // GL_DEPTH24_STENCIL8
        assert!(q(0x8D54) >= 24, "depth bits");
        assert_eq!(q(0x8D55), 8, "stencil bits");
        q(0x1234);
        expect(GL_INVALID_ENUM);
    }
}

/// `glReadPixels` reads the attached level and layer of a texture, not its level 0 / layer 0.
#[test]
fn read_pixels_reads_the_attached_level_and_layer() {
    let _ctx = context();
    let gen_textures = gl!(c"glGenTextures": fn(i32, *mut u32));
    let bind_texture = gl!(c"glBindTexture": fn(u32, u32));
    let storage_2d = gl!(c"glTexStorage2D": fn(u32, i32, u32, i32, i32));
    let storage_3d = gl!(c"glTexStorage3D": fn(u32, i32, u32, i32, i32, i32));
    let gen_fbs = gl!(c"glGenFramebuffers": fn(i32, *mut u32));
    let attach_2d = gl!(c"glFramebufferTexture2D": fn(u32, u32, u32, u32, i32));
    let attach_layer = gl!(c"glFramebufferTextureLayer": fn(u32, u32, u32, i32, i32));
    let read = gl!(c"glReadPixels": fn(i32, i32, i32, i32, u32, u32, *mut c_void));
    const GL_TEXTURE_2D: u32 = 0x0DE1;
    const GL_TEXTURE_2D_ARRAY: u32 = 0x8C1A;
    let probe = || {
        let mut px = [0u8; 4];
        // SAFETY: `px` holds one RGBA pixel.
        unsafe {
            read(
                0,
                0,
                1,
                1,
                GL_RGBA,
                GL_UNSIGNED_BYTE,
                px.as_mut_ptr().cast(),
            )
        };
        px
    };
    let (mut tex, mut array, mut fb) = (0, 0, 0);
    // SAFETY: out-pointers to locals; plain GL calls on the names made here.
    unsafe {
        gen_textures(1, &mut tex);
        bind_texture(GL_TEXTURE_2D, tex);
        storage_2d(GL_TEXTURE_2D, 3, GL_RGBA8, 16, 16);
        gen_textures(1, &mut array);
        bind_texture(GL_TEXTURE_2D_ARRAY, array);
        storage_3d(GL_TEXTURE_2D_ARRAY, 1, GL_RGBA8, 8, 8, 3);
        gen_fbs(1, &mut fb);
        bind(GL_FRAMEBUFFER, fb);
        // Level 0 red, level 2 green; layer 0 blue, layer 2 white.
        for (level, color) in [(0, [1.0, 0.0, 0.0, 1.0]), (2, [0.0, 1.0, 0.0, 1.0])] {
            attach_2d(
                GL_FRAMEBUFFER,
                GL_COLOR_ATTACHMENT0,
                GL_TEXTURE_2D,
                tex,
                level,
            );
            fill(0, 0, 16, 16, color);
        }
        for (layer, color) in [(0, [0.0, 0.0, 1.0, 1.0]), (2, [1.0, 1.0, 1.0, 1.0])] {
            attach_layer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, array, 0, layer);
            fill(0, 0, 8, 8, color);
        }
        attach_2d(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 2);
        assert_eq!(probe(), [0, 255, 0, 255], "level 2");
        attach_2d(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0);
        assert_eq!(probe(), [255, 0, 0, 255], "level 0");
        attach_layer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, array, 0, 2);
        assert_eq!(probe(), [255, 255, 255, 255], "layer 2");
        attach_layer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, array, 0, 0);
        assert_eq!(probe(), [0, 0, 255, 255], "layer 0");
        bind(GL_FRAMEBUFFER, 0);
    }
    expect(GL_NO_ERROR);
}

/// Two 16×16 RGBA8 renderbuffers as colour attachments 0 and 1 of a new framebuffer bound to
/// both targets, cleared to black. Returns the framebuffer.
fn two_attachment_fbo() -> u32 {
    let gen_fbs = gl!(c"glGenFramebuffers": fn(i32, *mut u32));
    let gen_rbs = gl!(c"glGenRenderbuffers": fn(i32, *mut u32));
    let bind_rb = gl!(c"glBindRenderbuffer": fn(u32, u32));
    let storage = gl!(c"glRenderbufferStorage": fn(u32, u32, i32, i32));
    let attach = gl!(c"glFramebufferRenderbuffer": fn(u32, u32, u32, u32));
    let draw_buffers = gl!(c"glDrawBuffers": fn(i32, *const u32));
    // SAFETY: out-pointers to locals; plain values; `both` outlives the call.
    unsafe {
        let mut fb = 0;
        gen_fbs(1, &mut fb);
        bind(GL_FRAMEBUFFER, fb);
        let mut rb = [0u32; 2];
        gen_rbs(2, rb.as_mut_ptr());
        for (i, &r) in rb.iter().enumerate() {
            bind_rb(GL_RENDERBUFFER, r);
            storage(GL_RENDERBUFFER, GL_RGBA8, 16, 16);
            attach(
                GL_FRAMEBUFFER,
                GL_COLOR_ATTACHMENT0 + i as u32,
                GL_RENDERBUFFER,
                r,
            );
        }
        let both = [GL_COLOR_ATTACHMENT0, GL_COLOR_ATTACHMENT0 + 1];
        draw_buffers(2, both.as_ptr());
        viewport(16, 16);
        fill(0, 0, 16, 16, [0.0, 0.0, 0.0, 0.0]);
        fb
    }
}

/// Pixel (x, y) of colour attachment `i` of the bound read framebuffer.
fn attachment_pixel(i: u32, x: i32, y: i32) -> [u8; 4] {
    let read_buffer = gl!(c"glReadBuffer": fn(u32));
    let read = gl!(c"glReadPixels": fn(i32, i32, i32, i32, u32, u32, *mut c_void));
    let mut px = [0u8; 4];
    // SAFETY: `px` holds one RGBA pixel.
    unsafe {
        read_buffer(GL_COLOR_ATTACHMENT0 + i);
        read(
            x,
            y,
            1,
            1,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            px.as_mut_ptr().cast(),
        );
    }
    px
}

#[test]
fn draw_buffers_route_outputs_to_the_attachments_they_name() {
    let _ctx = context();
    let _fb = two_attachment_fbo();
    let draw_buffers = gl!(c"glDrawBuffers": fn(i32, *const u32));
    let use_program = gl!(c"glUseProgram": fn(u32));
    let gen_vas = gl!(c"glGenVertexArrays": fn(i32, *mut u32));
    let bind_va = gl!(c"glBindVertexArray": fn(u32));
    let draw = gl!(c"glDrawArrays": fn(u32, i32, i32));
    let p = gl_harness::program(
        "#version 330 core\nvoid main() { vec2 p = vec2(float((gl_VertexID & 1) * 4 - 1), float((gl_VertexID >> 1) * 4 - 1)); gl_Position = vec4(p, 0.0, 1.0); }\n",
        "#version 330 core\nlayout(location = 0) out vec4 a;\nlayout(location = 1) out vec4 b;\nvoid main() { a = vec4(1.0, 0.0, 0.0, 1.0); b = vec4(0.0, 1.0, 0.0, 1.0); }\n",
    );
    // Output 1 (green) into attachment 0; output 0 goes nowhere; attachment 1 is not drawn.
    let routed = [GL_NONE, GL_COLOR_ATTACHMENT0];
    // SAFETY: `routed` outlives the call; out-pointer to a local; plain values.
    unsafe {
        draw_buffers(2, routed.as_ptr());
        expect(GL_NO_ERROR);
        let mut va = 0;
        gen_vas(1, &mut va);
        bind_va(va);
        use_program(p);
        draw(GL_TRIANGLES, 0, 3);
    }
    expect(GL_NO_ERROR);
    assert_eq!(attachment_pixel(0, 8, 8), GREEN);
    assert_eq!(attachment_pixel(1, 8, 8), [0, 0, 0, 0]);
    // Errors: an attachment named twice, a window buffer, a non-colour attachment.
    let twice = [GL_COLOR_ATTACHMENT0, GL_COLOR_ATTACHMENT0];
    let back = [0x0405u32]; // GL_BACK
    let depth = [GL_DEPTH_ATTACHMENT];
    // SAFETY: the arrays outlive the calls.
    unsafe {
        draw_buffers(2, twice.as_ptr());
        expect(GL_INVALID_OPERATION);
        draw_buffers(1, back.as_ptr());
        expect(GL_INVALID_OPERATION);
        draw_buffers(1, depth.as_ptr());
        expect(GL_INVALID_ENUM);
    }
}

#[test]
fn clear_buffer_clears_one_draw_buffer_through_masks_and_scissor() {
    let _ctx = context();
    let _fb = two_attachment_fbo();
    let clear_fv = gl!(c"glClearBufferfv": fn(u32, i32, *const f32));
    let clear_iv = gl!(c"glClearBufferiv": fn(u32, i32, *const i32));
    let clear_uiv = gl!(c"glClearBufferuiv": fn(u32, i32, *const u32));
    let clear_fi = gl!(c"glClearBufferfi": fn(u32, i32, f32, i32));
    let color_mask = gl!(c"glColorMaski": fn(u32, u8, u8, u8, u8));
    let enable = gl!(c"glEnable": fn(u32));
    let disable = gl!(c"glDisable": fn(u32));
    let scissor = gl!(c"glScissor": fn(i32, i32, i32, i32));
    let red = [1.0f32, 0.0, 0.0, 1.0];
    let one = [1.0f32; 4];
    // SAFETY: the arrays outlive the calls; plain values.
    unsafe {
        // Draw buffer 1 only: attachment 0 stays black.
        clear_fv(GL_COLOR, 1, red.as_ptr());
        expect(GL_NO_ERROR);
        assert_eq!(attachment_pixel(0, 3, 3), [0, 0, 0, 0]);
        assert_eq!(attachment_pixel(1, 3, 3), RED);
        // Draw buffer 0 through a scissor box and a mask without red and alpha.
        enable(GL_SCISSOR_TEST);
        scissor(0, 0, 8, 16);
        color_mask(0, 0, 1, 1, 0);
        clear_fv(GL_COLOR, 0, one.as_ptr());
        color_mask(0, 1, 1, 1, 1);
        disable(GL_SCISSOR_TEST);
        expect(GL_NO_ERROR);
        assert_eq!(attachment_pixel(0, 3, 3), [0, 255, 255, 0]);
        assert_eq!(attachment_pixel(0, 12, 3), [0, 0, 0, 0]);
        assert_eq!(attachment_pixel(1, 3, 3), RED);
        // The errors GL lists.
        clear_fv(GL_COLOR, 8, red.as_ptr());
        expect(GL_INVALID_VALUE);
        clear_fv(GL_COLOR, -1, red.as_ptr());
        expect(GL_INVALID_VALUE);
        clear_fv(GL_DEPTH, 1, red.as_ptr());
        expect(GL_INVALID_VALUE);
        clear_fv(GL_STENCIL, 0, red.as_ptr());
        expect(GL_INVALID_ENUM);
        let zero = [0i32; 4];
        clear_iv(GL_DEPTH, 0, zero.as_ptr());
        expect(GL_INVALID_ENUM);
        clear_uiv(GL_STENCIL, 0, [0u32; 4].as_ptr());
        expect(GL_INVALID_ENUM);
        clear_fi(GL_COLOR, 0, 1.0, 0);
        expect(GL_INVALID_ENUM);
        clear_fi(0x84F9, 1, 1.0, 0); // GL_DEPTH_STENCIL, draw buffer 1
        expect(GL_INVALID_VALUE);
        // No depth or stencil attachment: nothing to clear, no error.
        clear_fi(0x84F9, 0, 1.0, 0);
        expect(GL_NO_ERROR);
    }
}

#[test]
fn clear_buffer_clears_depth_and_stencil_of_the_default_framebuffer() {
    let _ctx = context();
    let clear_fv = gl!(c"glClearBufferfv": fn(u32, i32, *const f32));
    let clear_fi = gl!(c"glClearBufferfi": fn(u32, i32, f32, i32));
    let read = gl!(c"glReadPixels": fn(i32, i32, i32, i32, u32, u32, *mut c_void));
    let depth_at = || {
        let mut d = -1.0f32;
        // SAFETY: one float.
        unsafe { read(4, 4, 1, 1, 0x1902, 0x1406, (&mut d as *mut f32).cast()) }; // DEPTH_COMPONENT, FLOAT
        d
    };
    let stencil_at = || {
        let mut s = 0u8;
        // SAFETY: one byte.
        unsafe {
            read(
                4,
                4,
                1,
                1,
                0x1901,
                GL_UNSIGNED_BYTE,
                (&mut s as *mut u8).cast(),
            )
        }; // STENCIL_INDEX
        s
    };
    let quarter = [0.25f32];
    // SAFETY: `quarter` outlives the call; plain values.
    unsafe {
        clear_fv(GL_DEPTH, 0, quarter.as_ptr());
        expect(GL_NO_ERROR);
        assert!((depth_at() - 0.25).abs() < 1e-3, "depth {}", depth_at());
        clear_fi(0x84F9, 0, 0.75, 0x5A);
        expect(GL_NO_ERROR);
        assert!((depth_at() - 0.75).abs() < 1e-3, "depth {}", depth_at());
        assert_eq!(stencil_at(), 0x5A);
    }
}

/// piglit fbo-blending-formats (its "FBO result" probes): reading a framebuffer whose GL format
/// has no alpha (GL_RGB8, stored as RGBA8) returns alpha 1 whatever the storage holds, and a
/// GL_RG8 one blue 0, as GL's conversion of the buffer's components to RGBA says.
#[test]
fn reads_of_formats_without_alpha_return_alpha_one() {
    const GL_RGB8: i32 = 0x8051;
    const GL_RG8: i32 = 0x822B;
    const GL_RGB: u32 = 0x1907;
    let _ctx = context();
    let gen_renderbuffers = gl!(c"glGenRenderbuffers": fn(i32, *mut u32));
    let bind_renderbuffer = gl!(c"glBindRenderbuffer": fn(u32, u32));
    let storage = gl!(c"glRenderbufferStorage": fn(u32, u32, i32, i32));
    let gen_framebuffers = gl!(c"glGenFramebuffers": fn(i32, *mut u32));
    let bind_framebuffer = gl!(c"glBindFramebuffer": fn(u32, u32));
    let attach = gl!(c"glFramebufferRenderbuffer": fn(u32, u32, u32, u32));
    let clear_color = gl!(c"glClearColor": fn(f32, f32, f32, f32));
    let clear = gl!(c"glClear": fn(u32));
    let read = gl!(c"glReadPixels": fn(i32, i32, i32, i32, u32, u32, *mut c_void));
    for (internal, expected) in [(GL_RGB8, [255u8, 0, 51, 255]), (GL_RG8, [255, 0, 0, 255])] {
        let mut px = [0u8; 4];
        // SAFETY: out-pointers to locals; the read is one RGBA8 pixel into a 4-byte local.
        unsafe {
            let (mut rb, mut fb) = (0, 0);
            gen_renderbuffers(1, &mut rb);
            bind_renderbuffer(GL_RENDERBUFFER, rb);
            storage(GL_RENDERBUFFER, internal as u32, 4, 4);
            gen_framebuffers(1, &mut fb);
            bind_framebuffer(GL_FRAMEBUFFER, fb);
            attach(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
            clear_color(1.0, 0.0, 0.2, 0.5);
            clear(GL_COLOR_BUFFER_BIT);
            read(
                1,
                1,
                1,
                1,
                GL_RGBA,
                GL_UNSIGNED_BYTE,
                px.as_mut_ptr().cast(),
            );
            assert_eq!(px, expected, "internal format 0x{internal:04X} as RGBA");
            // The general path (a float read) says the same.
            let mut pf = [0f32; 4];
            read(1, 1, 1, 1, GL_RGBA, 0x1406, pf.as_mut_ptr().cast());
            assert_eq!(pf[3], 1.0, "internal format 0x{internal:04X} as float RGBA");
            let mut rgb = [0u8; 4];
            read(
                1,
                1,
                1,
                1,
                GL_RGB,
                GL_UNSIGNED_BYTE,
                rgb.as_mut_ptr().cast(),
            );
            assert_eq!(rgb[..3], expected[..3], "as RGB");
            bind_framebuffer(GL_FRAMEBUFFER, 0);
        }
        expect(GL_NO_ERROR);
    }
}

/// piglit fbo-blending-formats (DST_ALPHA on RGB formats): blending into an attachment whose
/// GL format has no alpha reads destination alpha as 1, even though its RGBA8 storage holds
/// the cleared alpha 0.
#[test]
fn blending_into_a_format_without_alpha_reads_destination_alpha_one() {
    const GL_RGB8: u32 = 0x8051;
    const GL_BLEND: u32 = 0x0BE2;
    const GL_DST_ALPHA: u32 = 0x0304;
    const GL_ONE_MINUS_DST_ALPHA: u32 = 0x0305;
    const GL_ZERO: u32 = 0;
    let _ctx = context();
    let gen_renderbuffers = gl!(c"glGenRenderbuffers": fn(i32, *mut u32));
    let bind_renderbuffer = gl!(c"glBindRenderbuffer": fn(u32, u32));
    let storage = gl!(c"glRenderbufferStorage": fn(u32, u32, i32, i32));
    let gen_framebuffers = gl!(c"glGenFramebuffers": fn(i32, *mut u32));
    let bind_framebuffer = gl!(c"glBindFramebuffer": fn(u32, u32));
    let attach = gl!(c"glFramebufferRenderbuffer": fn(u32, u32, u32, u32));
    let clear_color = gl!(c"glClearColor": fn(f32, f32, f32, f32));
    let clear = gl!(c"glClear": fn(u32));
    let read = gl!(c"glReadPixels": fn(i32, i32, i32, i32, u32, u32, *mut c_void));
    let enable = gl!(c"glEnable": fn(u32));
    let blend_func = gl!(c"glBlendFunc": fn(u32, u32));
    let viewport = gl!(c"glViewport": fn(i32, i32, i32, i32));
    let use_program = gl!(c"glUseProgram": fn(u32));
    let gen_vaos = gl!(c"glGenVertexArrays": fn(i32, *mut u32));
    let bind_vao = gl!(c"glBindVertexArray": fn(u32));
    let draw = gl!(c"glDrawArrays": fn(u32, i32, i32));
    let vs = "#version 330 core\nvoid main() {\n  vec2 p = vec2(float((gl_VertexID & 1) * 4 - 1), float((gl_VertexID & 2) * 2 - 1));\n  gl_Position = vec4(p, 0.0, 1.0);\n}\n";
    let fs =
        "#version 330 core\nout vec4 color;\nvoid main() { color = vec4(1.0, 0.5, 0.25, 1.0); }\n";
    let program = gl_harness::program(vs, fs);
    // SAFETY: out-pointers to locals; the reads are one RGBA8 pixel into 4-byte locals.
    unsafe {
        let (mut rb, mut fb, mut vao) = (0, 0, 0);
        gen_renderbuffers(1, &mut rb);
        bind_renderbuffer(GL_RENDERBUFFER, rb);
        storage(GL_RENDERBUFFER, GL_RGB8, 4, 4);
        gen_framebuffers(1, &mut fb);
        bind_framebuffer(GL_FRAMEBUFFER, fb);
        attach(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
        viewport(0, 0, 4, 4);
        gen_vaos(1, &mut vao);
        bind_vao(vao);
        use_program(program);
        enable(GL_BLEND);
        for (src, dst, expected) in [
            (GL_DST_ALPHA, GL_ZERO, [255u8, 128, 64, 255]),
            (GL_ONE_MINUS_DST_ALPHA, GL_DST_ALPHA, [51, 102, 153, 255]),
        ] {
            clear_color(0.2, 0.4, 0.6, 0.0);
            clear(GL_COLOR_BUFFER_BIT);
            blend_func(src, dst);
            draw(GL_TRIANGLES, 0, 3);
            let mut px = [0u8; 4];
            read(
                1,
                1,
                1,
                1,
                GL_RGBA,
                GL_UNSIGNED_BYTE,
                px.as_mut_ptr().cast(),
            );
            gl_harness::assert_rgba8_near(
                px,
                expected,
                &format!("blend factors 0x{src:04X}, 0x{dst:04X}"),
            );
        }
        bind_framebuffer(GL_FRAMEBUFFER, 0);
    }
    expect(GL_NO_ERROR);
}

const GL_RENDERBUFFER_STENCIL_SIZE: u32 = 0x8D55;
const GL_FRAMEBUFFER_COMPLETE: u32 = 0x8CD5;

/// `glRenderbufferStorage(GL_RENDERBUFFER, internal, 8, 8)` on a new bound renderbuffer;
/// returns it and the error the call raised.
fn storage(internal: u32) -> (u32, u32) {
    let gen_rbs = gl!(c"glGenRenderbuffers": fn(i32, *mut u32));
    let bind_rb = gl!(c"glBindRenderbuffer": fn(u32, u32));
    let store = gl!(c"glRenderbufferStorage": fn(u32, u32, i32, i32));
    let mut rb = 0;
    // SAFETY: out-pointer to a local; plain values.
    unsafe {
        gen_rbs(1, &mut rb);
        bind_rb(GL_RENDERBUFFER, rb);
        store(GL_RENDERBUFFER, internal, 8, 8);
    }
    (rb, gl_harness::error())
}

fn renderbuffer_int(pname: u32) -> i32 {
    let get = gl!(c"glGetRenderbufferParameteriv": fn(u32, u32, *mut i32));
    let mut v = -1;
    // SAFETY: out-pointer to a local.
    unsafe { get(GL_RENDERBUFFER, pname, &mut v) };
    v
}

/// Every stencil index format is a stencil renderbuffer (fbo-storage-formats), and no
/// compressed format is a renderbuffer format at all.
#[test]
fn renderbuffers_take_every_stencil_index_format_and_refuse_compressed_ones() {
    let _ctx = context();
    // GL_STENCIL_INDEX, GL_STENCIL_INDEX1/4/8/16.
    for internal in [0x1901, 0x8D46, 0x8D47, 0x8D48, 0x8D49] {
        let (_, err) = storage(internal);
        assert_eq!(err, GL_NO_ERROR, "stencil format 0x{internal:04X}");
        assert!(
            renderbuffer_int(GL_RENDERBUFFER_STENCIL_SIZE) >= 1,
            "stencil bits of 0x{internal:04X}"
        );
        assert_eq!(renderbuffer_int(0x8D44), internal as i32, "internal format");
    }
    // GL_COMPRESSED_RGBA, _RED, _RG, _SRGB, S3TC DXT1, RGTC1, ETC2.
    for internal in [0x84EE, 0x8225, 0x8226, 0x8C48, 0x83F0, 0x8DBB, 0x9274] {
        let (_, err) = storage(internal);
        assert_eq!(err, GL_INVALID_ENUM, "compressed format 0x{internal:04X}");
    }
    // Luminance and intensity are colour-renderable in the compatibility profile only.
    for internal in [0x1909, 0x190A, 0x8049] {
        let (_, err) = storage(internal);
        assert_eq!(err, GL_INVALID_ENUM, "core legacy format 0x{internal:04X}");
    }
}

const ATTACHMENT_OBJECT_TYPE: u32 = 0x8CD0;
const ATTACHMENT_OBJECT_NAME: u32 = 0x8CD1;
const ATTACHMENT_TEXTURE_LEVEL: u32 = 0x8CD2;
const ATTACHMENT_COMPONENT_TYPE: u32 = 0x8211;
const ATTACHMENT_RED_SIZE: u32 = 0x8212;
const ATTACHMENT_ALPHA_SIZE: u32 = 0x8215;
const ATTACHMENT_DEPTH_SIZE: u32 = 0x8216;
const ATTACHMENT_STENCIL_SIZE: u32 = 0x8217;
const GL_UNSIGNED_NORMALIZED: i32 = 0x8C17;

/// `glGetFramebufferAttachmentParameteriv` of the draw framebuffer, and the error it raised.
fn attachment_int(attachment: u32, pname: u32) -> (i32, u32) {
    let get = gl!(c"glGetFramebufferAttachmentParameteriv": fn(u32, u32, u32, *mut i32));
    let mut v = -1;
    // SAFETY: out-pointer to a local.
    unsafe { get(GL_DRAW_FRAMEBUFFER, attachment, pname, &mut v) };
    (v, gl_harness::error())
}

/// Luminance, luminance-alpha and intensity renderbuffers in a compatibility context are
/// complete colour attachments whose component type and sizes the attachment query reports
/// (ext_framebuffer_multisample-formats stopped at GL_LUMINANCE's component type GL_NONE).
#[test]
fn legacy_colour_renderbuffers_attach_and_report_their_format() {
    let _ctx = gl_harness::context_profile(true);
    let gen_fbs = gl!(c"glGenFramebuffers": fn(i32, *mut u32));
    let attach = gl!(c"glFramebufferRenderbuffer": fn(u32, u32, u32, u32));
    let status = gl!(c"glCheckFramebufferStatus": fn(u32) -> u32);
    let mut fb = 0;
    // SAFETY: out-pointer to a local.
    unsafe { gen_fbs(1, &mut fb) };
    bind(GL_FRAMEBUFFER, fb);
    // (internal, alpha bits)
    for (internal, alpha) in [(0x1909, 0), (0x190A, 8), (0x8049, 0), (0x8040, 0)] {
        let (rb, err) = storage(internal);
        assert_eq!(err, GL_NO_ERROR, "format 0x{internal:04X}");
        // SAFETY: plain values.
        unsafe { attach(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb) };
        // SAFETY: plain values.
        assert_eq!(unsafe { status(GL_FRAMEBUFFER) }, GL_FRAMEBUFFER_COMPLETE);
        let q = |pname| attachment_int(GL_COLOR_ATTACHMENT0, pname);
        assert_eq!(
            q(ATTACHMENT_COMPONENT_TYPE),
            (GL_UNSIGNED_NORMALIZED, GL_NO_ERROR),
            "0x{internal:04X}"
        );
        assert_eq!(q(ATTACHMENT_RED_SIZE), (8, GL_NO_ERROR), "0x{internal:04X}");
        assert_eq!(q(ATTACHMENT_ALPHA_SIZE), (alpha, GL_NO_ERROR));
    }
    expect(GL_NO_ERROR);
}

#[test]
fn attachment_queries_report_objects_formats_and_errors() {
    let _ctx = context();
    let gen_fbs = gl!(c"glGenFramebuffers": fn(i32, *mut u32));
    let attach = gl!(c"glFramebufferRenderbuffer": fn(u32, u32, u32, u32));
    let gen_tex = gl!(c"glGenTextures": fn(i32, *mut u32));
    let bind_tex = gl!(c"glBindTexture": fn(u32, u32));
    let storage2d = gl!(c"glTexStorage2D": fn(u32, i32, u32, i32, i32));
    let attach_tex = gl!(c"glFramebufferTexture2D": fn(u32, u32, u32, u32, i32));
    const GL_TEXTURE_2D: u32 = 0x0DE1;
    const GL_RGBA16F: u32 = 0x881A;
    const GL_DEPTH24_STENCIL8: u32 = 0x88F0;
    const GL_DEPTH_STENCIL_ATTACHMENT: u32 = 0x821A;
    const GL_STENCIL_ATTACHMENT: u32 = 0x8D20;
    const GL_BACK_LEFT: u32 = 0x0402;
    // The default framebuffer: RGBA8 colour, depth and stencil.
    assert_eq!(
        attachment_int(GL_BACK_LEFT, ATTACHMENT_OBJECT_TYPE),
        (0x8218, GL_NO_ERROR),
        "GL_FRAMEBUFFER_DEFAULT"
    );
    assert_eq!(
        attachment_int(GL_BACK_LEFT, ATTACHMENT_RED_SIZE),
        (8, GL_NO_ERROR)
    );
    assert!(attachment_int(GL_DEPTH, ATTACHMENT_DEPTH_SIZE).0 >= 16);
    assert_eq!(
        attachment_int(GL_COLOR_ATTACHMENT0, ATTACHMENT_OBJECT_TYPE).1,
        GL_INVALID_ENUM,
        "an FBO attachment point on the default framebuffer"
    );
    let (mut fb, mut tex) = (0, 0);
    // SAFETY: out-pointers to locals; plain values.
    unsafe {
        gen_fbs(1, &mut fb);
        bind(GL_FRAMEBUFFER, fb);
        gen_tex(1, &mut tex);
        bind_tex(GL_TEXTURE_2D, tex);
        storage2d(GL_TEXTURE_2D, 2, GL_RGBA16F, 8, 8);
        attach_tex(
            GL_FRAMEBUFFER,
            GL_COLOR_ATTACHMENT0 + 1,
            GL_TEXTURE_2D,
            tex,
            1,
        );
    }
    let (rb, _) = storage(GL_RGBA8);
    let (ds, _) = storage(GL_DEPTH24_STENCIL8);
    // SAFETY: plain values.
    unsafe {
        attach(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
        attach(
            GL_FRAMEBUFFER,
            GL_DEPTH_STENCIL_ATTACHMENT,
            GL_RENDERBUFFER,
            ds,
        );
    }
    expect(GL_NO_ERROR);
    let c0 = |pname| attachment_int(GL_COLOR_ATTACHMENT0, pname);
    let c1 = |pname| attachment_int(GL_COLOR_ATTACHMENT0 + 1, pname);
    assert_eq!(c0(ATTACHMENT_OBJECT_TYPE), (GL_RENDERBUFFER as i32, 0));
    assert_eq!(c0(ATTACHMENT_OBJECT_NAME), (rb as i32, 0));
    assert_eq!(c0(ATTACHMENT_COMPONENT_TYPE), (GL_UNSIGNED_NORMALIZED, 0));
    assert_eq!(c0(ATTACHMENT_ALPHA_SIZE), (8, 0));
    assert_eq!(c0(ATTACHMENT_TEXTURE_LEVEL).1, GL_INVALID_ENUM);
    assert_eq!(c1(ATTACHMENT_OBJECT_TYPE), (0x1702, 0), "GL_TEXTURE");
    assert_eq!(c1(ATTACHMENT_OBJECT_NAME), (tex as i32, 0));
    assert_eq!(c1(ATTACHMENT_TEXTURE_LEVEL), (1, 0));
    assert_eq!(c1(ATTACHMENT_COMPONENT_TYPE), (0x1406, 0), "GL_FLOAT");
    assert_eq!(c1(ATTACHMENT_RED_SIZE), (16, 0));
    let depth = |pname| attachment_int(GL_DEPTH_ATTACHMENT, pname);
    assert_eq!(depth(ATTACHMENT_DEPTH_SIZE), (24, 0));
    assert_eq!(
        attachment_int(GL_STENCIL_ATTACHMENT, ATTACHMENT_STENCIL_SIZE),
        (8, 0)
    );
    assert_eq!(
        attachment_int(GL_DEPTH_STENCIL_ATTACHMENT, ATTACHMENT_OBJECT_NAME),
        (ds as i32, 0)
    );
    assert_eq!(
        attachment_int(GL_DEPTH_STENCIL_ATTACHMENT, ATTACHMENT_COMPONENT_TYPE).1,
        GL_INVALID_OPERATION
    );
    // Nothing attached: type and name answer, everything else is GL_INVALID_OPERATION.
    let c2 = |pname| attachment_int(GL_COLOR_ATTACHMENT0 + 2, pname);
    assert_eq!(c2(ATTACHMENT_OBJECT_TYPE), (GL_NONE as i32, 0));
    assert_eq!(c2(ATTACHMENT_OBJECT_NAME), (0, 0));
    assert_eq!(c2(ATTACHMENT_RED_SIZE).1, GL_INVALID_OPERATION);
    assert_eq!(c0(0x1234).1, GL_INVALID_ENUM, "unknown pname");
    assert_eq!(
        attachment_int(GL_BACK_LEFT, ATTACHMENT_OBJECT_TYPE).1,
        GL_INVALID_ENUM
    );
}

/// piglit fbo-blit-scaled-linear: the scissor clips a scaled blit without changing its scale.
/// Clipping the destination moves the source edge to a fraction of a texel, which Vulkan's
/// integer blit offsets would round; the scissored blit must write exactly the pixels of the
/// unscissored one inside the scissor box.
#[test]
fn the_scissor_clips_a_scaled_blit_without_changing_its_scale() {
    let _ctx = context();
    let fb = source_fbo(false);
    let enable = gl!(c"glEnable": fn(u32));
    let disable = gl!(c"glDisable": fn(u32));
    let scissor = gl!(c"glScissor": fn(i32, i32, i32, i32));
    // 16 → 37 across (a non-integer scale, linear: a gradient around x = 18), 16 → 32 up.
    let scaled = |scissored: bool| -> Vec<u8> {
        bind(GL_DRAW_FRAMEBUFFER, 0);
        viewport(32, 32);
        fill(0, 0, 32, 32, [0.0, 0.0, 1.0, 1.0]);
        bind(GL_READ_FRAMEBUFFER, fb);
        // SAFETY: plain values.
        unsafe {
            if scissored {
                enable(GL_SCISSOR_TEST);
                scissor(0, 0, 21, 32);
            }
            blit(
                [0, 0, 16, 16],
                [0, 0, 37, 32],
                GL_COLOR_BUFFER_BIT,
                GL_LINEAR,
            );
            disable(GL_SCISSOR_TEST);
        }
        expect(GL_NO_ERROR);
        bind(GL_READ_FRAMEBUFFER, 0);
        pixels()
    };
    let whole = scaled(false);
    let cut = scaled(true);
    for x in 0..32 {
        let want = if x < 21 { at(&whole, x, 16) } else { BLUE };
        assert_eq!(at(&cut, x, 16), want, "x = {x}");
    }
    // The gradient is really there (a test of clipping, not of a flat colour).
    assert_ne!(at(&whole, 18, 16), RED);
    assert_ne!(at(&whole, 18, 16), GREEN);
}
