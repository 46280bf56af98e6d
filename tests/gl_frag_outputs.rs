//! Fragment outputs of legacy programs in a compatibility context, through the C ABI: the
//! `gl_FragColor` broadcast to every draw buffer, the alpha test applied to application programs
//! (on draw buffer 0's alpha, discarding every buffer's write), and `glClampColor`. Expected
//! values are the spec's and what llvmpipe draws for the same calls; pixels are read back
//! exactly, and the validation layer must stay silent (outputs outnumber the attachments here).

use std::ffi::c_void;

#[macro_use]
#[path = "common/gl.rs"]
mod gl_harness;

use gl_harness::{expect, f};

const GL_NO_ERROR: u32 = 0;
const GL_INVALID_ENUM: u32 = 0x0500;
const GL_FLOAT: u32 = 0x1406;
const GL_UNSIGNED_BYTE: u32 = 0x1401;
const GL_RGBA: u32 = 0x1908;
const GL_RGBA8: u32 = 0x8058;
const GL_RGBA32F: u32 = 0x8814;
const GL_TEXTURE_2D: u32 = 0x0DE1;
const GL_FRAMEBUFFER: u32 = 0x8D40;
const GL_COLOR_ATTACHMENT0: u32 = 0x8CE0;
const GL_COLOR_BUFFER_BIT: u32 = 0x4000;
const GL_ALPHA_TEST: u32 = 0x0BC0;
const GL_LESS: u32 = 0x0201;
const GL_GEQUAL: u32 = 0x0206;
const GL_CLAMP_VERTEX_COLOR: u32 = 0x891A;
const GL_CLAMP_FRAGMENT_COLOR: u32 = 0x891B;
const GL_CLAMP_READ_COLOR: u32 = 0x891C;
const GL_FIXED_ONLY: u32 = 0x891D;

const SIZE: i32 = 16;

/// A position-only legacy vertex shader (glRectf's corners are clip coordinates).
const VS: &str = "#version 110\nvoid main() { gl_Position = gl_Vertex; }\n";

/// A framebuffer of `count` `internal` textures of SIZE², every one a draw buffer, cleared to
/// transparent black.
fn framebuffer(count: u32, internal: u32) {
    let gen_framebuffers = gl!(c"glGenFramebuffers": fn(i32, *mut u32));
    let bind_framebuffer = gl!(c"glBindFramebuffer": fn(u32, u32));
    let gen_textures = gl!(c"glGenTextures": fn(i32, *mut u32));
    let bind_texture = gl!(c"glBindTexture": fn(u32, u32));
    let tex_image = gl!(c"glTexImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let attach = gl!(c"glFramebufferTexture2D": fn(u32, u32, u32, u32, i32));
    let draw_buffers = gl!(c"glDrawBuffers": fn(i32, *const u32));
    let viewport = gl!(c"glViewport": fn(i32, i32, i32, i32));
    let clear_color = gl!(c"glClearColor": fn(f32, f32, f32, f32));
    let clear = gl!(c"glClear": fn(u32));
    // SAFETY: out-pointers to locals; no pixel data (NULL).
    unsafe {
        let mut fbo = 0;
        gen_framebuffers(1, &mut fbo);
        bind_framebuffer(GL_FRAMEBUFFER, fbo);
        let mut buffers = Vec::new();
        for i in 0..count {
            let mut tex = 0;
            gen_textures(1, &mut tex);
            bind_texture(GL_TEXTURE_2D, tex);
            let ty = if internal == GL_RGBA32F {
                GL_FLOAT
            } else {
                GL_UNSIGNED_BYTE
            };
            tex_image(
                GL_TEXTURE_2D,
                0,
                internal as i32,
                SIZE,
                SIZE,
                0,
                GL_RGBA,
                ty,
                std::ptr::null(),
            );
            attach(
                GL_FRAMEBUFFER,
                GL_COLOR_ATTACHMENT0 + i,
                GL_TEXTURE_2D,
                tex,
                0,
            );
            buffers.push(GL_COLOR_ATTACHMENT0 + i);
        }
        draw_buffers(count as i32, buffers.as_ptr());
        viewport(0, 0, SIZE, SIZE);
        clear_color(0.0, 0.0, 0.0, 0.0);
        clear(GL_COLOR_BUFFER_BIT);
    }
    expect(GL_NO_ERROR);
}

fn use_program(fs: &str) -> u32 {
    let use_program = gl!(c"glUseProgram": fn(u32));
    let p = gl_harness::program(VS, fs);
    // SAFETY: a linked program.
    unsafe { use_program(p) };
    p
}

/// A quad over the whole framebuffer.
fn draw() {
    let rect = gl!(c"glRectf": fn(f32, f32, f32, f32));
    // SAFETY: plain values.
    unsafe { rect(-1.0, -1.0, 1.0, 1.0) };
    expect(GL_NO_ERROR);
}

/// Pixel (x, y) of colour attachment `i` as RGBA8.
fn pixel(i: u32, x: i32, y: i32) -> [u8; 4] {
    let read_buffer = gl!(c"glReadBuffer": fn(u32));
    let read = gl!(c"glReadPixels": fn(i32, i32, i32, i32, u32, u32, *mut c_void));
    let mut px = [0u8; 4];
    // SAFETY: `px` holds one RGBA8 pixel.
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
    expect(GL_NO_ERROR);
    px
}

/// Pixel (x, y) of colour attachment 0 as floats.
fn pixel_f32(x: i32, y: i32) -> [f32; 4] {
    let read_buffer = gl!(c"glReadBuffer": fn(u32));
    let read = gl!(c"glReadPixels": fn(i32, i32, i32, i32, u32, u32, *mut c_void));
    let mut px = [0f32; 4];
    // SAFETY: `px` holds one RGBA float pixel.
    unsafe {
        read_buffer(GL_COLOR_ATTACHMENT0);
        read(x, y, 1, 1, GL_RGBA, GL_FLOAT, px.as_mut_ptr().cast());
    }
    expect(GL_NO_ERROR);
    px
}

fn get_integer(pname: u32) -> i32 {
    let get = gl!(c"glGetIntegerv": fn(u32, *mut i32));
    let mut v = -1;
    // SAFETY: one int out.
    unsafe { get(pname, &mut v) };
    v
}

#[test]
fn gl_frag_color_is_broadcast_to_every_draw_buffer() {
    let _ctx = gl_harness::context_profile(true);
    framebuffer(3, GL_RGBA8);
    use_program("#version 110\nvoid main() { gl_FragColor = vec4(1.0, 0.0, 1.0, 0.6); }\n");
    draw();
    for i in 0..3 {
        gl_harness::assert_rgba8_near(pixel(i, 5, 5), [255, 0, 255, 153], "draw buffer");
    }
    // gl_FragData[i] goes to draw buffer i only.
    framebuffer(3, GL_RGBA8);
    use_program("#version 120\nvoid main() { gl_FragData[1] = vec4(0.0, 1.0, 0.0, 1.0); gl_FragData[2] = vec4(0.0, 0.0, 1.0, 1.0); }\n");
    draw();
    assert_eq!(pixel(1, 5, 5), [0, 255, 0, 255]);
    assert_eq!(pixel(2, 5, 5), [0, 0, 255, 255]);
    // One attachment: the seven other outputs have none, and that is no validation error.
    framebuffer(1, GL_RGBA8);
    use_program("void main() { gl_FragColor = vec4(0.0, 0.0, 1.0, 1.0); }\n");
    draw();
    assert_eq!(pixel(0, 5, 5), [0, 0, 255, 255]);
}

#[test]
fn the_alpha_test_discards_every_draw_buffer_on_buffer_zeros_alpha() {
    let _ctx = gl_harness::context_profile(true);
    let enable = gl!(c"glEnable": fn(u32));
    let disable = gl!(c"glDisable": fn(u32));
    let alpha_func = gl!(c"glAlphaFunc": fn(u32, f32));
    framebuffer(2, GL_RGBA8);
    // fbo-mrt-alphatest's shader: buffer 0's alpha is 0 on the left half and 1 on the right;
    // buffer 1's is always 1, and it is buffer 0's that is tested.
    use_program("#version 130\nvoid main() {\n  float alpha = gl_FragCoord.x < 8.0 ? 0.0 : 1.0;\n  gl_FragData[0] = vec4(1.0, 0.0, 0.0, alpha);\n  gl_FragData[1] = vec4(0.0, 1.0, 0.0, 1.0);\n}\n");
    // SAFETY: plain values.
    unsafe {
        alpha_func(GL_GEQUAL, 0.5);
        enable(GL_ALPHA_TEST);
    }
    draw();
    assert_eq!(pixel(0, 3, 5), [0, 0, 0, 0], "buffer 0, alpha 0: discarded");
    assert_eq!(
        pixel(1, 3, 5),
        [0, 0, 0, 0],
        "buffer 1 of a discarded fragment"
    );
    assert_eq!(pixel(0, 12, 5), [255, 0, 0, 255], "buffer 0, alpha 1: kept");
    assert_eq!(pixel(1, 12, 5), [0, 255, 0, 255], "buffer 1, alpha 1: kept");

    // A new function and reference with the same program: GL_LESS 0.5 keeps the other half.
    framebuffer(2, GL_RGBA8);
    // SAFETY: plain values.
    unsafe { alpha_func(GL_LESS, 0.5) };
    draw();
    assert_eq!(pixel(0, 3, 5), [255, 0, 0, 0]);
    assert_eq!(pixel(1, 3, 5), [0, 255, 0, 255]);
    assert_eq!(pixel(0, 12, 5), [0, 0, 0, 0]);
    assert_eq!(pixel(1, 12, 5), [0, 0, 0, 0]);

    // The reference alone moves (a uniform: same pipeline): alpha 1 < 1.0 fails too.
    framebuffer(2, GL_RGBA8);
    // SAFETY: plain values.
    unsafe { alpha_func(GL_LESS, 1.0) };
    draw();
    assert_eq!(pixel(1, 12, 5), [0, 0, 0, 0]);
    // SAFETY: plain values.
    unsafe { alpha_func(GL_LESS, 0.0) };
    framebuffer(2, GL_RGBA8);
    draw();
    assert_eq!(pixel(1, 3, 5), [0, 0, 0, 0], "alpha 0 < 0.0 fails");

    // gl_FragColor: its alpha is buffer 0's.
    framebuffer(2, GL_RGBA8);
    use_program("void main() { gl_FragColor = vec4(0.0, 0.0, 1.0, 0.25); }\n");
    // SAFETY: plain values.
    unsafe { alpha_func(GL_GEQUAL, 0.5) };
    draw();
    assert_eq!(pixel(0, 5, 5), [0, 0, 0, 0]);
    assert_eq!(pixel(1, 5, 5), [0, 0, 0, 0]);
    // SAFETY: plain value.
    unsafe { disable(GL_ALPHA_TEST) };
    draw();
    gl_harness::assert_rgba8_near(pixel(1, 5, 5), [0, 0, 255, 64], "test off");
}

#[test]
fn clamp_color_clamps_fragment_outputs_of_float_buffers_when_true() {
    let _ctx = gl_harness::context_profile(true);
    let clamp_color = gl!(c"glClampColor": fn(u32, u32));
    assert_eq!(get_integer(GL_CLAMP_FRAGMENT_COLOR), GL_FIXED_ONLY as i32);
    assert_eq!(get_integer(GL_CLAMP_VERTEX_COLOR), 1);
    assert_eq!(get_integer(GL_CLAMP_READ_COLOR), GL_FIXED_ONLY as i32);
    framebuffer(1, GL_RGBA32F);
    use_program("void main() { gl_FragColor = vec4(2.0, -1.0, 0.5, 3.0); }\n");
    // GL_FIXED_ONLY leaves a float buffer's colour alone.
    draw();
    assert_eq!(pixel_f32(5, 5), [2.0, -1.0, 0.5, 3.0]);
    // SAFETY: plain values.
    unsafe { clamp_color(GL_CLAMP_FRAGMENT_COLOR, 1) };
    expect(GL_NO_ERROR);
    assert_eq!(get_integer(GL_CLAMP_FRAGMENT_COLOR), 1);
    draw();
    assert_eq!(pixel_f32(5, 5), [1.0, 0.0, 0.5, 1.0]);
    // SAFETY: plain values.
    unsafe { clamp_color(GL_CLAMP_FRAGMENT_COLOR, 0) };
    draw();
    assert_eq!(pixel_f32(5, 5), [2.0, -1.0, 0.5, 3.0]);
    // SAFETY: plain values.
    unsafe {
        clamp_color(GL_CLAMP_VERTEX_COLOR, GL_FIXED_ONLY);
        clamp_color(GL_CLAMP_READ_COLOR, 0);
    }
    expect(GL_NO_ERROR);
    assert_eq!(get_integer(GL_CLAMP_VERTEX_COLOR), GL_FIXED_ONLY as i32);
    assert_eq!(get_integer(GL_CLAMP_READ_COLOR), 0);
    // SAFETY: plain values.
    unsafe { clamp_color(GL_CLAMP_FRAGMENT_COLOR, 2) };
    expect(GL_INVALID_ENUM);
    // SAFETY: plain values.
    unsafe { clamp_color(0x891E, 1) };
    expect(GL_INVALID_ENUM);
}

#[test]
fn the_core_profile_knows_only_the_read_clamp() {
    let _ctx = gl_harness::context_profile(false);
    let clamp_color = gl!(c"glClampColor": fn(u32, u32));
    let get = gl!(c"glGetIntegerv": fn(u32, *mut i32));
    // SAFETY: plain values; one int out.
    unsafe {
        clamp_color(GL_CLAMP_READ_COLOR, 1);
        expect(GL_NO_ERROR);
        clamp_color(GL_CLAMP_FRAGMENT_COLOR, 1);
        expect(GL_INVALID_ENUM);
        clamp_color(GL_CLAMP_VERTEX_COLOR, 1);
        expect(GL_INVALID_ENUM);
        let mut v = -1;
        get(GL_CLAMP_FRAGMENT_COLOR, &mut v);
        expect(GL_INVALID_ENUM);
    }
    assert_eq!(get_integer(GL_CLAMP_READ_COLOR), 1);
}
