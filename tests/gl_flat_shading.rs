//! Flat shading of the compatibility profile through the C ABI: `glShadeModel(GL_FLAT)` in the
//! fixed-function programs (primary and secondary colour, lit colour), the provoking vertex of
//! triangles, quads, quad strips and polygons under both `glProvokingVertex` conventions, and
//! `glBegin` refusing a draw state that cannot draw. The expected colours are GL's (GL 3.2
//! compatibility, table 2.12, with `GL_QUADS_FOLLOW_PROVOKING_VERTEX_CONVENTION` false), which
//! is what llvmpipe renders for piglit's provoking-vertex and arb-provoking-vertex-render.
//! Pixels are read back and checked exactly; the validation layer must stay silent.

use std::ffi::c_void;

#[macro_use]
#[path = "common/gl.rs"]
mod gl_harness;

use gl_harness::{expect, f};

const GL_NO_ERROR: u32 = 0;
const GL_INVALID_OPERATION: u32 = 0x0502;
const GL_RGBA: u32 = 0x1908;
const GL_UNSIGNED_BYTE: u32 = 0x1401;
const GL_COLOR_BUFFER_BIT: u32 = 0x4000;
const GL_TRIANGLES: u32 = 4;
const GL_QUADS: u32 = 7;
const GL_QUAD_STRIP: u32 = 8;
const GL_POLYGON: u32 = 9;
const GL_FLAT: u32 = 0x1D00;
const GL_SMOOTH: u32 = 0x1D01;
const GL_FIRST_VERTEX_CONVENTION: u32 = 0x8E4D;
const GL_LAST_VERTEX_CONVENTION: u32 = 0x8E4E;
const GL_COLOR_SUM: u32 = 0x8458;
const GL_LIGHTING: u32 = 0x0B50;
const GL_LIGHT0: u32 = 0x4000;
const GL_COLOR_MATERIAL: u32 = 0x0B57;

const RED: [f32; 3] = [1.0, 0.0, 0.0];
const GREEN: [f32; 3] = [0.0, 1.0, 0.0];
const BLUE: [f32; 3] = [0.0, 0.0, 1.0];
const YELLOW: [f32; 3] = [1.0, 1.0, 0.0];

fn rgba(c: [f32; 3]) -> [u8; 4] {
    [
        (c[0] * 255.0) as u8,
        (c[1] * 255.0) as u8,
        (c[2] * 255.0) as u8,
        255,
    ]
}

/// The pixel at (x, y) of the 32×32 drawable (row 0 at the bottom).
fn pixel(x: i32, y: i32) -> [u8; 4] {
    let read = gl!(c"glReadPixels": fn(i32, i32, i32, i32, u32, u32, *mut c_void));
    let mut px = [0u8; 4];
    // SAFETY: `px` holds one RGBA pixel.
    unsafe {
        read(
            x,
            y,
            1,
            1,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            px.as_mut_ptr().cast(),
        )
    };
    px
}

fn clear() {
    let clear_color = gl!(c"glClearColor": fn(f32, f32, f32, f32));
    let clear = gl!(c"glClear": fn(u32));
    // SAFETY: plain values.
    unsafe {
        clear_color(0.0, 0.0, 0.0, 0.0);
        clear(GL_COLOR_BUFFER_BIT);
    }
}

/// One `glBegin(mode)`/`glEnd` of (colour, x, y) vertices in normalized device coordinates
/// (the matrices are the identity).
fn immediate(mode: u32, vertices: &[([f32; 3], f32, f32)]) {
    let begin = gl!(c"glBegin": fn(u32));
    let end = gl!(c"glEnd": fn());
    let color = gl!(c"glColor3f": fn(f32, f32, f32));
    let vertex = gl!(c"glVertex2f": fn(f32, f32));
    // SAFETY: plain values.
    unsafe {
        begin(mode);
        for (c, x, y) in vertices {
            color(c[0], c[1], c[2]);
            vertex(*x, *y);
        }
        end();
    }
}

fn shade_model(mode: u32) {
    let f = gl!(c"glShadeModel": fn(u32));
    // SAFETY: a plain value.
    unsafe { f(mode) };
}

fn provoking_vertex(mode: u32) {
    let f = gl!(c"glProvokingVertex": fn(u32));
    // SAFETY: a plain value.
    unsafe { f(mode) };
}

/// A triangle of red, green and blue vertices over the left half, the pixel at its centroid.
fn rgb_triangle_centre() -> [u8; 4] {
    clear();
    immediate(
        GL_TRIANGLES,
        &[(RED, -1.0, -1.0), (GREEN, 0.0, -1.0), (BLUE, -0.5, 1.0)],
    );
    pixel(8, 10)
}

#[test]
fn flat_fixed_function_colour_is_the_provoking_vertex_colour() {
    let _ctx = gl_harness::context_profile(true);
    shade_model(GL_FLAT);
    provoking_vertex(GL_FIRST_VERTEX_CONVENTION);
    assert_eq!(rgb_triangle_centre(), rgba(RED), "flat, first vertex");
    provoking_vertex(GL_LAST_VERTEX_CONVENTION);
    assert_eq!(rgb_triangle_centre(), rgba(BLUE), "flat, last vertex");
    shade_model(GL_SMOOTH);
    let smooth = rgb_triangle_centre();
    assert!(
        smooth[0] > 40 && smooth[1] > 40 && smooth[2] > 40,
        "smooth shading interpolates: {smooth:?}"
    );
    expect(GL_NO_ERROR);
}

#[test]
fn flat_shading_covers_the_secondary_and_the_lit_colour() {
    let _ctx = gl_harness::context_profile(true);
    let enable = gl!(c"glEnable": fn(u32));
    let disable = gl!(c"glDisable": fn(u32));
    let secondary = gl!(c"glSecondaryColor3f": fn(f32, f32, f32));
    shade_model(GL_FLAT);
    provoking_vertex(GL_LAST_VERTEX_CONVENTION);
    // The colour sum with a black primary colour: the secondary colour alone shows.
    let begin = gl!(c"glBegin": fn(u32));
    let end = gl!(c"glEnd": fn());
    let color = gl!(c"glColor3f": fn(f32, f32, f32));
    let vertex = gl!(c"glVertex2f": fn(f32, f32));
    clear();
    // SAFETY: plain values.
    unsafe {
        enable(GL_COLOR_SUM);
        color(0.0, 0.0, 0.0);
        begin(GL_TRIANGLES);
        for (c, x, y) in [(RED, -1.0, -1.0), (GREEN, 0.0, -1.0), (BLUE, -0.5, 1.0)] {
            secondary(c[0], c[1], c[2]);
            vertex(x, y);
        }
        end();
        disable(GL_COLOR_SUM);
    }
    assert_eq!(pixel(8, 10), rgba(BLUE), "flat secondary colour");
    // Lighting per vertex with the colour tracking ambient and diffuse, a light along +z and
    // the normal +z: each vertex's lit colour is its own colour (1.2 × it, clamped).
    // SAFETY: plain values.
    unsafe {
        enable(GL_LIGHTING);
        enable(GL_LIGHT0);
        enable(GL_COLOR_MATERIAL);
    }
    provoking_vertex(GL_FIRST_VERTEX_CONVENTION);
    assert_eq!(rgb_triangle_centre(), rgba(RED), "flat lit colour");
    // SAFETY: plain values.
    unsafe { disable(GL_LIGHTING) };
    expect(GL_NO_ERROR);
}

/// Draws `mode` (the vertices of piglit's arb-provoking-vertex-render) under `convention` and
/// returns the pixels at a quarter and three quarters of the width, half height.
fn legacy_primitive(mode: u32, convention: u32) -> ([u8; 4], [u8; 4]) {
    provoking_vertex(convention);
    clear();
    let v: &[([f32; 3], f32, f32)] = match mode {
        GL_QUADS => &[
            (RED, -1.0, -1.0),
            (GREEN, -1.0, 1.0),
            (BLUE, -0.1, 1.0),
            (YELLOW, -0.1, -1.0),
            (GREEN, 0.1, -1.0),
            (BLUE, 0.1, 1.0),
            (YELLOW, 1.0, 1.0),
            (RED, 1.0, -1.0),
        ],
        GL_QUAD_STRIP => &[
            (RED, -1.0, -1.0),
            (GREEN, -1.0, 1.0),
            (BLUE, 0.0, -1.0),
            (YELLOW, 0.0, 1.0),
            (GREEN, 1.0, -1.0),
            (RED, 1.0, 1.0),
        ],
        _ => &[
            (RED, 1.0, -1.0),
            (GREEN, -1.0, -1.0),
            (BLUE, -1.0, 1.0),
            (YELLOW, 1.0, 1.0),
        ],
    };
    immediate(mode, v);
    (pixel(8, 16), pixel(24, 16))
}

#[test]
fn quads_quad_strips_and_polygons_flat_shade_with_their_provoking_vertex() {
    let _ctx = gl_harness::context_profile(true);
    shade_model(GL_FLAT);
    for convention in [GL_FIRST_VERTEX_CONVENTION, GL_LAST_VERTEX_CONVENTION] {
        // Quads and quad strips take the last vertex of each quad whatever the convention
        // (GL_QUADS_FOLLOW_PROVOKING_VERTEX_CONVENTION is false); a polygon its first vertex.
        assert_eq!(
            legacy_primitive(GL_QUADS, convention),
            (rgba(YELLOW), rgba(RED)),
            "GL_QUADS under 0x{convention:04X}"
        );
        assert_eq!(
            legacy_primitive(GL_QUAD_STRIP, convention),
            (rgba(YELLOW), rgba(RED)),
            "GL_QUAD_STRIP under 0x{convention:04X}"
        );
        assert_eq!(
            legacy_primitive(GL_POLYGON, convention),
            (rgba(RED), rgba(RED)),
            "GL_POLYGON under 0x{convention:04X}"
        );
    }
    expect(GL_NO_ERROR);
}

const GL_INVALID_FRAMEBUFFER_OPERATION: u32 = 0x0506;
const GL_FRAMEBUFFER: u32 = 0x8D40;
const GL_RENDERBUFFER: u32 = 0x8D41;
const GL_COLOR_ATTACHMENT0: u32 = 0x8CE0;
const GL_RGBA8: u32 = 0x8058;
const GL_BLEND: u32 = 0x0BE2;
const GL_ONE: u32 = 1;
const GL_SRC1_ALPHA: u32 = 0x8589;

/// `glEnd` right after a `glBegin` that must not have started a primitive: GL refuses it.
fn end_is_stray(what: &str) {
    let end = gl!(c"glEnd": fn());
    // SAFETY: no arguments.
    unsafe { end() };
    assert_eq!(
        gl_harness::error(),
        GL_INVALID_OPERATION,
        "{what}: glEnd finds no glBegin"
    );
}

#[test]
fn glbegin_refuses_a_draw_state_that_cannot_draw() {
    let _ctx = gl_harness::context_profile(true);
    let begin = gl!(c"glBegin": fn(u32));
    let gen_framebuffers = gl!(c"glGenFramebuffers": fn(i32, *mut u32));
    let bind_framebuffer = gl!(c"glBindFramebuffer": fn(u32, u32));
    let gen_renderbuffers = gl!(c"glGenRenderbuffers": fn(i32, *mut u32));
    let bind_renderbuffer = gl!(c"glBindRenderbuffer": fn(u32, u32));
    let storage = gl!(c"glRenderbufferStorage": fn(u32, u32, i32, i32));
    let attach = gl!(c"glFramebufferRenderbuffer": fn(u32, u32, u32, u32));
    let draw_buffers = gl!(c"glDrawBuffers": fn(i32, *const u32));
    let blend_func_i = gl!(c"glBlendFunci": fn(u32, u32, u32));
    let enable_i = gl!(c"glEnablei": fn(u32, u32));
    let disable_i = gl!(c"glDisablei": fn(u32, u32));
    shade_model(GL_FLAT);
    provoking_vertex(GL_FIRST_VERTEX_CONVENTION);

    // A framebuffer with no attachment is incomplete.
    let mut fbo = 0;
    // SAFETY: out-pointers to locals; plain values.
    unsafe {
        gen_framebuffers(1, &mut fbo);
        bind_framebuffer(GL_FRAMEBUFFER, fbo);
        begin(GL_TRIANGLES);
    }
    expect(GL_INVALID_FRAMEBUFFER_OPERATION);
    end_is_stray("incomplete framebuffer");

    // Dual-source blending on draw buffer 1 of two (GL_MAX_DUAL_SOURCE_DRAW_BUFFERS is 1).
    let mut rbs = [0u32; 2];
    let bufs = [GL_COLOR_ATTACHMENT0, GL_COLOR_ATTACHMENT0 + 1];
    // SAFETY: out-pointers to locals; `bufs` holds the two draw buffers.
    unsafe {
        gen_renderbuffers(2, rbs.as_mut_ptr());
        for (i, rb) in rbs.iter().enumerate() {
            bind_renderbuffer(GL_RENDERBUFFER, *rb);
            storage(GL_RENDERBUFFER, GL_RGBA8, 32, 32);
            attach(
                GL_FRAMEBUFFER,
                GL_COLOR_ATTACHMENT0 + i as u32,
                GL_RENDERBUFFER,
                *rb,
            );
        }
        draw_buffers(2, bufs.as_ptr());
        blend_func_i(1, GL_SRC1_ALPHA, GL_ONE);
        enable_i(GL_BLEND, 1);
        begin(GL_QUADS);
    }
    expect(GL_INVALID_OPERATION);
    end_is_stray("dual-source blending into two draw buffers");

    // With the state fixed, glBegin starts a primitive, a nested glBegin is refused and leaves
    // it alone, and glEnd draws it into both draw buffers.
    // SAFETY: plain values.
    unsafe {
        disable_i(GL_BLEND, 1);
        begin(GL_TRIANGLES);
        begin(GL_QUADS);
    }
    assert_eq!(gl_harness::error(), GL_INVALID_OPERATION, "nested glBegin");
    let color = gl!(c"glColor3f": fn(f32, f32, f32));
    let vertex = gl!(c"glVertex2f": fn(f32, f32));
    let end = gl!(c"glEnd": fn());
    // SAFETY: plain values.
    unsafe {
        for (c, x, y) in [(GREEN, -1.0, -1.0), (RED, 3.0, -1.0), (BLUE, -1.0, 3.0)] {
            color(c[0], c[1], c[2]);
            vertex(x, y);
        }
        end();
    }
    expect(GL_NO_ERROR);
    assert_eq!(
        pixel(16, 16),
        rgba(GREEN),
        "the first glBegin's triangle drew"
    );
}
