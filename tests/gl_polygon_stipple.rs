//! The polygon stipple through the C ABI (compatibility profile): `glPolygonStipple` masks
//! the fragments of polygons by window position — for fixed-function and legacy GLSL draws —
//! and leaves lines alone; `glGetPolygonStipple` returns the pattern; both honour the pixel
//! store state and pixel buffer objects; the core profile refuses both.

use std::ffi::c_void;

#[macro_use]
#[path = "common/gl.rs"]
mod gl_harness;

use gl_harness::{context_profile, error, expect, f, Current};

const GL_INVALID_OPERATION: u32 = 0x0502;
const GL_POLYGON_STIPPLE: u32 = 0x0B42;
const GL_QUADS: u32 = 0x0007;
const GL_LINES: u32 = 0x0001;
const GL_COLOR_BUFFER_BIT: u32 = 0x4000;
const GL_PIXEL_PACK_BUFFER: u32 = 0x88EB;
const GL_PIXEL_UNPACK_BUFFER: u32 = 0x88EC;
const GL_STREAM_COPY: u32 = 0x88E2;
const GL_UNPACK_ALIGNMENT: u32 = 0x0CF5;

/// A checkerboard: pixel (x, y) is kept when x + y is even (most significant bit first).
fn checkerboard() -> [u8; 128] {
    std::array::from_fn(|i| if (i / 4) % 2 == 0 { 0xAA } else { 0x55 })
}

fn stipple(mask: &[u8]) {
    let set = gl!(c"glPolygonStipple": fn(*const u8));
    // SAFETY: `mask` holds the 128 bytes of a 32×32 bitmap.
    unsafe { set(mask.as_ptr()) };
}

/// Clears to black and draws a white quad over the whole 32×32 surface with `mode`.
fn draw_white(mode: u32) {
    let clear_color = gl!(c"glClearColor": fn(f32, f32, f32, f32));
    let clear = gl!(c"glClear": fn(u32));
    let begin = gl!(c"glBegin": fn(u32));
    let end = gl!(c"glEnd": fn());
    let color = gl!(c"glColor3f": fn(f32, f32, f32));
    let vertex = gl!(c"glVertex2f": fn(f32, f32));
    // SAFETY: plain values.
    unsafe {
        clear_color(0.0, 0.0, 0.0, 1.0);
        clear(GL_COLOR_BUFFER_BIT);
        color(1.0, 1.0, 1.0);
        begin(mode);
        if mode == GL_QUADS {
            for (x, y) in [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)] {
                vertex(x, y);
            }
        } else {
            // Horizontal lines through the centres of rows 3 and 10.
            for y in [3.5f32, 10.5] {
                let ndc = y / 16.0 - 1.0;
                vertex(-1.0, ndc);
                vertex(1.0, ndc);
            }
        }
        end();
    }
}

/// The red channel of every pixel, row by row from the bottom.
fn reds() -> Vec<u8> {
    let px = gl_harness::read_rgba(0, 0, 32, 32);
    px.chunks_exact(4).map(|p| p[0]).collect()
}

fn enable(on: bool) {
    let which = if on { c"glEnable" } else { c"glDisable" };
    // SAFETY: both take one enum.
    let f = unsafe { f::<unsafe extern "C" fn(u32)>(which) };
    // SAFETY: a plain value.
    unsafe { f(GL_POLYGON_STIPPLE) };
}

#[test]
fn polygons_keep_the_pixels_whose_bit_is_set_and_lines_are_not_stippled() {
    let _c: Current = context_profile(true);
    stipple(&checkerboard());
    enable(true);
    draw_white(GL_QUADS);
    assert_eq!(error(), 0);
    let got = reds();
    for (i, &r) in got.iter().enumerate() {
        let (x, y) = (i % 32, i / 32);
        let want = if (x + y) % 2 == 0 { 255 } else { 0 };
        assert_eq!(r, want, "pixel ({x}, {y})");
    }
    draw_white(GL_LINES);
    let lines = reds();
    assert!(
        (0..32).all(|x| lines[3 * 32 + x] == 255),
        "a line is not a polygon: {:?}",
        &lines[3 * 32..4 * 32]
    );
    enable(false);
    draw_white(GL_QUADS);
    assert!(reds().iter().all(|&r| r == 255), "disabled: every pixel");
}

#[test]
fn a_legacy_glsl_program_is_stippled_too() {
    let _c: Current = context_profile(true);
    let program = gl_harness::program(
        "#version 120\nvoid main() { gl_Position = gl_Vertex; }\n",
        "#version 120\nvoid main() { gl_FragColor = vec4(1.0); }\n",
    );
    let use_program = gl!(c"glUseProgram": fn(u32));
    // Only row 0 of the pattern has bits (x = 0 and x = 31): pixels (0, 0), (31, 0), (0, 32k)…
    let mut mask = [0u8; 128];
    mask[0] = 0x80;
    mask[3] = 0x01;
    stipple(&mask);
    enable(true);
    // SAFETY: a linked program.
    unsafe { use_program(program) };
    draw_white(GL_QUADS);
    assert_eq!(error(), 0);
    let got = reds();
    let lit: Vec<usize> = (0..got.len()).filter(|&i| got[i] == 255).collect();
    assert_eq!(lit, vec![0, 31], "only (0, 0) and (31, 0)");
}

#[test]
fn get_returns_the_pattern_under_pack_state_and_pixel_buffers() {
    let _c: Current = context_profile(true);
    let get = gl!(c"glGetPolygonStipple": fn(*mut u8));
    let mut initial = [0u8; 128];
    // SAFETY: room for the 128-byte pattern.
    unsafe { get(initial.as_mut_ptr()) };
    assert_eq!(initial, [0xFF; 128], "GL's initial pattern is all ones");
    let pattern: [u8; 128] = std::array::from_fn(|i| (i * 37 % 251) as u8);
    stipple(&pattern);
    let mut back = [0u8; 128];
    // SAFETY: as above.
    unsafe { get(back.as_mut_ptr()) };
    assert_eq!(back, pattern);

    // Through pixel buffers: upload from offset 16 of an unpack buffer, read into offset 4 of
    // a pack buffer.
    let gen = gl!(c"glGenBuffers": fn(i32, *mut u32));
    let bind = gl!(c"glBindBuffer": fn(u32, u32));
    let data = gl!(c"glBufferData": fn(u32, isize, *const c_void, u32));
    let get_sub = gl!(c"glGetBufferSubData": fn(u32, isize, isize, *mut c_void));
    let mut source = vec![0u8; 16];
    source.extend_from_slice(&checkerboard());
    let mut bufs = [0u32; 2];
    let zeros = [0u8; 140];
    // SAFETY: out-pointers to locals; the data pointers hold the sizes given.
    unsafe {
        gen(2, bufs.as_mut_ptr());
        bind(GL_PIXEL_UNPACK_BUFFER, bufs[0]);
        data(
            GL_PIXEL_UNPACK_BUFFER,
            source.len() as isize,
            source.as_ptr().cast(),
            GL_STREAM_COPY,
        );
        let set = gl!(c"glPolygonStipple": fn(*const u8));
        set(16 as *const u8);
        bind(GL_PIXEL_UNPACK_BUFFER, 0);
        bind(GL_PIXEL_PACK_BUFFER, bufs[1]);
        data(
            GL_PIXEL_PACK_BUFFER,
            140,
            zeros.as_ptr().cast(),
            GL_STREAM_COPY,
        );
        get(4 as *mut u8);
        // Past the end: refused, nothing written.
        get(64 as *mut u8);
    }
    expect(GL_INVALID_OPERATION);
    let mut out = [0u8; 140];
    // SAFETY: room for 140 bytes.
    unsafe { get_sub(GL_PIXEL_PACK_BUFFER, 0, 140, out.as_mut_ptr().cast()) };
    assert_eq!(
        &out[4..132],
        &checkerboard()[..],
        "the pattern from the unpack buffer"
    );
    assert_eq!(&out[..4], &[0; 4]);

    // Unpack alignment 8: rows are 8 bytes apart, only their first 4 bytes count.
    let store = gl!(c"glPixelStorei": fn(u32, i32));
    let padded: Vec<u8> = (0..32)
        .flat_map(|_| [0x0F, 0, 0, 0xF0, 9, 9, 9, 9])
        .collect();
    // SAFETY: plain values; `padded` holds 32 rows of 8 bytes.
    unsafe {
        bind(GL_PIXEL_PACK_BUFFER, 0);
        store(GL_UNPACK_ALIGNMENT, 8);
        stipple(&padded);
        store(GL_UNPACK_ALIGNMENT, 4);
        get(back.as_mut_ptr());
    }
    assert!(
        back.chunks_exact(4).all(|r| r == [0x0F, 0, 0, 0xF0]),
        "{back:?}"
    );
    assert_eq!(error(), 0);
}

#[test]
fn the_core_profile_has_no_stipple() {
    let _c: Current = context_profile(false);
    stipple(&checkerboard());
    expect(GL_INVALID_OPERATION);
}
