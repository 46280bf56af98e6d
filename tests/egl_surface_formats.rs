//! What an EGL surface's config and attributes make of the default framebuffer, through the C
//! ABI: `EGL_GL_COLORSPACE` (EGL_KHR_gl_colorspace: sRGB surfaces encode while
//! `GL_FRAMEBUFFER_SRGB` is on, always in OpenGL ES; `GL_FRAMEBUFFER_ATTACHMENT_COLOR_ENCODING`
//! of `GL_BACK`; `EGL_BAD_MATCH` for configs without 8-bit channels) and `EGL_SAMPLES` 4
//! (multisampled default framebuffers: `GL_SAMPLES`, edges that read back partly covered
//! through the resolve of `glReadPixels` and of `glBlitFramebuffer`). Pbuffers here (surfaceless
//! display); the window side, read back from the X server, is in `child_window_formats`
//! (Xvfb, started here; skipped with the reason printed without it). Under
//! `ARENAGL_VALIDATION=1` the validation layer must stay silent (the harness checks).

#[path = "common/child.rs"]
mod child;
#[macro_use]
#[path = "common/gl.rs"]
mod gl_harness;
#[path = "common/xvfb.rs"]
mod xvfb;

use std::ptr::{null, null_mut};
use std::time::{Duration, Instant};

use arenagl_present::egl::*;
use gl_harness::{assert_rgba8_near, context, error, f, program, read_rgba, P};

const GL_COLOR_BUFFER_BIT: u32 = 0x4000;
const GL_FRAMEBUFFER_SRGB: u32 = 0x8DB9;
const GL_BACK: u32 = 0x0405;
const GL_BACK_LEFT: u32 = 0x0402;
const GL_DRAW_FRAMEBUFFER: u32 = 0x8CA9;
const GL_READ_FRAMEBUFFER: u32 = 0x8CA8;
const GL_COLOR_ENCODING: u32 = 0x8210;
const GL_SRGB: i32 = 0x8C40;
const GL_LINEAR: i32 = 0x2601;
const GL_SAMPLES: u32 = 0x80A9;
const GL_SAMPLE_BUFFERS: u32 = 0x80A8;
const SIZE: i32 = 32;
/// Linear 0.25 as sRGB: 0.25^(1/2.4) × 1.055 − 0.055 = 0.537 → 137 (stored linear: 64).
const QUARTER_ENCODED: u8 = 137;
const QUARTER_LINEAR: u8 = 64;

const CHILD_ENV: &str = "ARENAGL_EGL_SURFACE_FORMATS_CHILD";

fn egl_error() -> EGLint {
    let get_error = gl!(c"eglGetError": fn() -> EGLint);
    // SAFETY: no arguments.
    unsafe { get_error() }
}

/// The surfaceless display, initialized.
fn display() -> P {
    let get_display = gl!(c"eglGetPlatformDisplayEXT": fn(u32, P, *const EGLint) -> P);
    let initialize = gl!(c"eglInitialize": fn(P, *mut EGLint, *mut EGLint) -> u32);
    // SAFETY: a platform enum, no native display, no attributes; out-pointers NULL.
    unsafe {
        let dpy = get_display(0x31DD, null_mut(), null());
        assert!(!dpy.is_null());
        assert_eq!(initialize(dpy, null_mut(), null_mut()), 1);
        dpy
    }
}

/// The first config matching `attribs` (`EGL_NONE`-terminated).
fn config(dpy: P, attribs: &[EGLint]) -> P {
    let choose = gl!(c"eglChooseConfig": fn(P, *const EGLint, *mut P, EGLint, *mut EGLint) -> u32);
    let (mut cfg, mut n) = (null_mut(), 0);
    // SAFETY: a terminated list; out-pointers to locals.
    let chose = unsafe { choose(dpy, attribs.as_ptr(), &mut cfg, 1, &mut n) };
    assert_eq!(chose, 1);
    assert_eq!(n, 1, "a config for {attribs:?}");
    cfg
}

/// A pbuffer config with 5-6-5 colour (EGL sorts deeper colour first, so it is looked for).
fn config_565(dpy: P) -> P {
    let choose = gl!(c"eglChooseConfig": fn(P, *const EGLint, *mut P, EGLint, *mut EGLint) -> u32);
    let attrib = gl!(c"eglGetConfigAttrib": fn(P, P, EGLint, *mut EGLint) -> u32);
    let list = [EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RED_SIZE, 5, EGL_NONE];
    let mut configs = [null_mut(); 64];
    let mut n = 0;
    // SAFETY: a terminated list; room for 64 configs; out-pointers to locals.
    unsafe {
        assert_eq!(
            choose(dpy, list.as_ptr(), configs.as_mut_ptr(), 64, &mut n),
            1
        );
        configs[..n as usize]
            .iter()
            .copied()
            .find(|&c| {
                let mut red = 0;
                attrib(dpy, c, EGL_RED_SIZE, &mut red) == 1 && red == 5
            })
            .expect("an RGB565 pbuffer config")
    }
}

/// A `SIZE`² pbuffer of `cfg` with `attribs` (NULL and the EGL error when refused).
fn pbuffer(dpy: P, cfg: P, attribs: &[EGLint]) -> Result<P, EGLint> {
    let create = gl!(c"eglCreatePbufferSurface": fn(P, P, *const EGLint) -> P);
    let mut list = vec![EGL_WIDTH, SIZE, EGL_HEIGHT, SIZE];
    list.extend_from_slice(attribs);
    list.push(EGL_NONE);
    // SAFETY: a terminated list.
    let s = unsafe { create(dpy, cfg, list.as_ptr()) };
    if s.is_null() {
        Err(egl_error())
    } else {
        Ok(s)
    }
}

/// Makes a context of `api` (3.3 core, or ES 3.0) current on `surface`.
fn make_current(dpy: P, cfg: P, surface: P, api: EGLenum) {
    let bind_api = gl!(c"eglBindAPI": fn(EGLenum) -> u32);
    let create_context = gl!(c"eglCreateContext": fn(P, P, P, *const EGLint) -> P);
    let make_current = gl!(c"eglMakeCurrent": fn(P, P, P, P) -> u32);
    let attribs = if api == EGL_OPENGL_API {
        [
            EGL_CONTEXT_MAJOR_VERSION,
            3,
            EGL_CONTEXT_MINOR_VERSION,
            3,
            EGL_NONE,
        ]
    } else {
        [
            EGL_CONTEXT_MAJOR_VERSION,
            3,
            EGL_CONTEXT_MINOR_VERSION,
            0,
            EGL_NONE,
        ]
    };
    // SAFETY: live handles; a terminated list.
    unsafe {
        assert_eq!(bind_api(api), 1);
        let ctx = create_context(dpy, cfg, null_mut(), attribs.as_ptr());
        assert!(!ctx.is_null(), "context: EGL error {:#x}", egl_error());
        assert_eq!(make_current(dpy, surface, surface, ctx), 1);
        bind_api(EGL_OPENGL_API);
    }
}

fn query_surface(dpy: P, surface: P, attribute: EGLint) -> EGLint {
    let query = gl!(c"eglQuerySurface": fn(P, P, EGLint, *mut EGLint) -> u32);
    let mut v = -1;
    // SAFETY: an out-pointer to a local.
    assert_eq!(unsafe { query(dpy, surface, attribute, &mut v) }, 1);
    v
}

fn clear(rgba: [f32; 4]) {
    let clear_color = gl!(c"glClearColor": fn(f32, f32, f32, f32));
    let clear = gl!(c"glClear": fn(u32));
    // SAFETY: plain GL calls on the current context.
    unsafe {
        clear_color(rgba[0], rgba[1], rgba[2], rgba[3]);
        clear(GL_COLOR_BUFFER_BIT);
    }
}

fn set_framebuffer_srgb(on: bool) {
    let cap = if on {
        gl!(c"glEnable": fn(u32))
    } else {
        gl!(c"glDisable": fn(u32))
    };
    // SAFETY: a valid capability.
    unsafe { cap(GL_FRAMEBUFFER_SRGB) };
}

/// `GL_FRAMEBUFFER_ATTACHMENT_COLOR_ENCODING` of the default framebuffer's colour buffer
/// `buffer` (`GL_BACK_LEFT` in GL, `GL_BACK` in ES).
fn encoding_of(buffer: u32) -> i32 {
    let get = gl!(c"glGetFramebufferAttachmentParameteriv": fn(u32, u32, u32, *mut i32));
    let mut v = 0;
    // SAFETY: an out-pointer to a local.
    unsafe { get(GL_DRAW_FRAMEBUFFER, buffer, GL_COLOR_ENCODING, &mut v) };
    assert_eq!(error(), 0);
    v
}

fn integer(pname: u32) -> i32 {
    let get = gl!(c"glGetIntegerv": fn(u32, *mut i32));
    let mut v = -1;
    // SAFETY: one integer written.
    unsafe { get(pname, &mut v) };
    v
}

fn pixel(x: i32, y: i32) -> [u8; 4] {
    let px = read_rgba(x, y, 1, 1);
    [px[0], px[1], px[2], px[3]]
}

#[test]
fn srgb_pbuffers_encode_while_framebuffer_srgb_is_enabled() {
    let _current = context();
    let dpy = display();
    let cfg = config(
        dpy,
        &[EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RED_SIZE, 8, EGL_NONE],
    );
    let srgb = pbuffer(dpy, cfg, &[EGL_GL_COLORSPACE, EGL_GL_COLORSPACE_SRGB]).expect("sRGB");
    assert_eq!(
        query_surface(dpy, srgb, EGL_GL_COLORSPACE),
        EGL_GL_COLORSPACE_SRGB
    );
    make_current(dpy, cfg, srgb, EGL_OPENGL_API);
    assert_eq!(encoding_of(GL_BACK_LEFT), GL_SRGB);
    let q = 0.25;
    clear([q, q, q, 1.0]);
    let (e, l) = (QUARTER_ENCODED, QUARTER_LINEAR);
    assert_rgba8_near(pixel(3, 3), [l, l, l, 255], "GL_FRAMEBUFFER_SRGB off");
    set_framebuffer_srgb(true);
    clear([q, q, q, 1.0]);
    assert_rgba8_near(pixel(3, 3), [e, e, e, 255], "GL_FRAMEBUFFER_SRGB on");
    assert_eq!(error(), 0);

    // A linear surface never encodes.
    let linear = pbuffer(dpy, cfg, &[EGL_GL_COLORSPACE, EGL_GL_COLORSPACE_LINEAR]).unwrap();
    assert_eq!(
        query_surface(dpy, linear, EGL_GL_COLORSPACE),
        EGL_GL_COLORSPACE_LINEAR
    );
    make_current(dpy, cfg, linear, EGL_OPENGL_API);
    assert_eq!(encoding_of(GL_BACK_LEFT), GL_LINEAR);
    set_framebuffer_srgb(true);
    clear([q, q, q, 1.0]);
    assert_rgba8_near(pixel(3, 3), [l, l, l, 255], "linear surface");
    assert_eq!(error(), 0);
}

#[test]
fn es_contexts_always_encode_to_srgb_surfaces() {
    let _current = context();
    let dpy = display();
    let cfg = config(
        dpy,
        &[
            EGL_SURFACE_TYPE,
            EGL_PBUFFER_BIT,
            EGL_RENDERABLE_TYPE,
            EGL_OPENGL_ES3_BIT,
            EGL_RED_SIZE,
            8,
            EGL_NONE,
        ],
    );
    let srgb = pbuffer(dpy, cfg, &[EGL_GL_COLORSPACE, EGL_GL_COLORSPACE_SRGB]).unwrap();
    make_current(dpy, cfg, srgb, EGL_OPENGL_ES_API);
    assert_eq!(encoding_of(GL_BACK), GL_SRGB);
    clear([0.25, 0.25, 0.25, 1.0]);
    let e = QUARTER_ENCODED;
    assert_rgba8_near(pixel(0, 0), [e, e, e, 255], "ES on an sRGB surface");
    assert_eq!(error(), 0);
}

#[test]
fn srgb_needs_an_eight_bit_config_and_a_known_colorspace() {
    let _current = context();
    let dpy = display();
    let rgb565 = config_565(dpy);
    assert_eq!(
        pbuffer(dpy, rgb565, &[EGL_GL_COLORSPACE, EGL_GL_COLORSPACE_SRGB]),
        Err(EGL_BAD_MATCH)
    );
    assert!(pbuffer(dpy, rgb565, &[EGL_GL_COLORSPACE, EGL_GL_COLORSPACE_LINEAR]).is_ok());
    let rgba8 = config(dpy, &[EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_NONE]);
    assert_eq!(
        pbuffer(dpy, rgba8, &[EGL_GL_COLORSPACE, 0x1234]),
        Err(EGL_BAD_ATTRIBUTE)
    );
    let query = gl!(c"eglQueryString": fn(P, EGLint) -> *const std::ffi::c_char);
    // SAFETY: an initialized display; a static NUL-terminated string.
    let ext = unsafe { std::ffi::CStr::from_ptr(query(dpy, EGL_EXTENSIONS)) };
    assert!(ext
        .to_string_lossy()
        .split(' ')
        .any(|e| e == "EGL_KHR_gl_colorspace"));
}

/// The pbuffer config with exactly these red, alpha, depth and stencil sizes, single-sampled.
fn config_sized(dpy: P, [red, alpha, depth, stencil]: [EGLint; 4]) -> P {
    let choose = gl!(c"eglChooseConfig": fn(P, *const EGLint, *mut P, EGLint, *mut EGLint) -> u32);
    let attrib = gl!(c"eglGetConfigAttrib": fn(P, P, EGLint, *mut EGLint) -> u32);
    let list = [EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_SAMPLES, 0, EGL_NONE];
    let mut configs = [null_mut(); 64];
    let mut n = 0;
    // SAFETY: a terminated list; room for 64 configs; out-pointers to locals.
    unsafe {
        assert_eq!(
            choose(dpy, list.as_ptr(), configs.as_mut_ptr(), 64, &mut n),
            1
        );
        let get = |c: P, a: EGLint| {
            let mut v = -1;
            assert_eq!(attrib(dpy, c, a, &mut v), 1);
            v
        };
        configs[..n as usize]
            .iter()
            .copied()
            .find(|&c| {
                [
                    EGL_RED_SIZE,
                    EGL_ALPHA_SIZE,
                    EGL_DEPTH_SIZE,
                    EGL_STENCIL_SIZE,
                ]
                .map(|a| get(c, a))
                    == [red, alpha, depth, stencil]
            })
            .unwrap_or_else(|| panic!("a config of {red}/{alpha}/{depth}/{stencil} bits"))
    }
}

/// `GL_FRAMEBUFFER_ATTACHMENT_*` `pname` of the default framebuffer's buffer `buffer`.
fn attachment_param(buffer: u32, pname: u32) -> i32 {
    let get = gl!(c"glGetFramebufferAttachmentParameteriv": fn(u32, u32, u32, *mut i32));
    let mut v = -1;
    // SAFETY: an out-pointer to a local.
    unsafe { get(GL_DRAW_FRAMEBUFFER, buffer, pname, &mut v) };
    assert_eq!(error(), 0, "attachment 0x{buffer:X} pname 0x{pname:X}");
    v
}

/// `GL_RED_BITS` … `GL_STENCIL_BITS` of the current draw framebuffer.
fn framebuffer_bits() -> [i32; 6] {
    [0x0D52, 0x0D53, 0x0D54, 0x0D55, 0x0D56, 0x0D57].map(integer)
}

/// A current pbuffer of the config with exactly `sizes` (red, alpha, depth, stencil bits).
fn current_sized(dpy: P, sizes: [EGLint; 4]) {
    let cfg = config_sized(dpy, sizes);
    let surface = pbuffer(dpy, cfg, &[]).unwrap();
    make_current(dpy, cfg, surface, EGL_OPENGL_API);
}

/// Draws `draw_half` with blending that keeps the destination where its alpha is 1
/// (`GL_ONE_MINUS_DST_ALPHA`, `GL_DST_ALPHA`) over a clear to `rgba`; the pixel inside.
fn blend_by_destination_alpha(rgba: [f32; 4]) -> [u8; 4] {
    let enable = gl!(c"glEnable": fn(u32));
    let disable = gl!(c"glDisable": fn(u32));
    let blend_func = gl!(c"glBlendFunc": fn(u32, u32));
    clear(rgba);
    // SAFETY: plain GL calls.
    unsafe {
        enable(0x0BE2); // GL_BLEND
        blend_func(0x0305, 0x0304); // GL_ONE_MINUS_DST_ALPHA, GL_DST_ALPHA
    }
    draw_half();
    // SAFETY: as above.
    unsafe { disable(0x0BE2) };
    pixel(1, 1)
}

#[test]
fn configs_give_the_default_framebuffer_their_sizes() {
    const RED_SIZE: u32 = 0x8212;
    const ALPHA_SIZE: u32 = 0x8215;
    const DEPTH_SIZE: u32 = 0x8216;
    const OBJECT_TYPE: u32 = 0x8CD0;
    const GL_DEPTH: u32 = 0x1801;
    const GL_STENCIL: u32 = 0x1802;
    let _current = context();
    let dpy = display();

    // RGBA8 with 24/8: alpha is stored, so blending by destination alpha sees the clear's 0.
    current_sized(dpy, [8, 8, 24, 8]);
    assert_eq!(framebuffer_bits(), [8, 8, 8, 8, 24, 8]);
    assert_rgba8_near(
        blend_by_destination_alpha([0.0; 4]),
        [255; 4],
        "RGBA8 blend",
    );
    assert_eq!(pixel(30, 30), [0, 0, 0, 0], "RGBA8 keeps alpha 0");

    // RGB8 (no alpha): alpha reads 1 and blends as 1, whatever was cleared.
    current_sized(dpy, [8, 0, 24, 8]);
    assert_eq!(framebuffer_bits(), [8, 8, 8, 0, 24, 8]);
    assert_eq!(attachment_param(GL_BACK_LEFT, ALPHA_SIZE), 0);
    let dark = [0.2, 0.2, 0.2, 0.0];
    assert_rgba8_near(
        blend_by_destination_alpha(dark),
        [51, 51, 51, 255],
        "RGB8 blend",
    );
    assert_eq!(pixel(30, 30), [51, 51, 51, 255], "RGB8 reads alpha 1");

    // RGB565 with a 16-bit depth buffer: 5/6/5 precision (0.3 → 9/31, 19/63, 9/31), alpha 1.
    current_sized(dpy, [5, 0, 16, 0]);
    assert_eq!(framebuffer_bits(), [5, 6, 5, 0, 16, 0]);
    assert_eq!(attachment_param(GL_BACK_LEFT, RED_SIZE), 5);
    assert_eq!(attachment_param(GL_DEPTH, DEPTH_SIZE), 16);
    assert_eq!(attachment_param(GL_STENCIL, OBJECT_TYPE), 0, "no stencil");
    clear([0.3, 0.3, 0.3, 0.0]);
    assert_rgba8_near(pixel(5, 5), [74, 77, 74, 255], "RGB565 quantises");

    // No depth and no stencil: GL_DEPTH/GL_STENCIL are absent, the depth test passes.
    current_sized(dpy, [8, 8, 0, 0]);
    assert_eq!(framebuffer_bits(), [8, 8, 8, 8, 0, 0]);
    assert_eq!(
        attachment_param(GL_DEPTH, OBJECT_TYPE),
        0,
        "no depth buffer"
    );
    let enable = gl!(c"glEnable": fn(u32));
    let depth_func = gl!(c"glDepthFunc": fn(u32));
    let read = gl!(c"glReadPixels": fn(i32, i32, i32, i32, u32, u32, *mut std::ffi::c_void));
    clear([0.0, 0.0, 0.0, 1.0]);
    // SAFETY: plain GL calls.
    unsafe {
        enable(0x0B71); // GL_DEPTH_TEST
        depth_func(0x0200); // GL_NEVER
    }
    draw_half();
    assert_eq!(
        pixel(1, 1),
        [255; 4],
        "no depth buffer: the depth test passes"
    );
    let mut depth = [0f32; 1];
    // SAFETY: one float read into `depth`.
    unsafe { read(0, 0, 1, 1, 0x1902, 0x1406, depth.as_mut_ptr().cast()) };
    assert_eq!(error(), 0x0502, "reading depth without a depth buffer");

    // 24-bit depth without stencil: at least 24 bits (as stored), no stencil, tested.
    current_sized(dpy, [8, 8, 24, 0]);
    let bits = framebuffer_bits();
    assert!(bits[4] >= 24 && bits[5] == 0, "{bits:?}");
    assert_eq!(attachment_param(GL_STENCIL, OBJECT_TYPE), 0, "no stencil");
    let clear_depth = gl!(c"glClearDepth": fn(f64));
    let clear_bits = gl!(c"glClear": fn(u32));
    // SAFETY: plain GL calls.
    unsafe {
        clear_depth(0.25);
        clear_bits(0x4100); // colour and depth
        enable(0x0B71); // GL_DEPTH_TEST (GL_LESS: z 0.5 fails against 0.25)
    }
    draw_half();
    assert_eq!(pixel(1, 1)[0], 0, "the depth buffer rejects the triangle");
    assert_eq!(error(), 0);
}

/// Draws a triangle over the lower-left half of the viewport (the diagonal crosses pixel
/// centres' neighbourhoods, so multisampled edge pixels are partly covered).
fn draw_half() {
    let vs = "#version 330 core\nconst vec2 p[3] = vec2[3](vec2(-1.0, -1.0), vec2(1.0, -1.0), vec2(-1.0, 1.0));\nvoid main() { gl_Position = vec4(p[gl_VertexID], 0.0, 1.0); }";
    let fs = "#version 330 core\nout vec4 c;\nvoid main() { c = vec4(1.0); }";
    let p = program(vs, fs);
    let use_program = gl!(c"glUseProgram": fn(u32));
    let gen_vao = gl!(c"glGenVertexArrays": fn(i32, *mut u32));
    let bind_vao = gl!(c"glBindVertexArray": fn(u32));
    let draw = gl!(c"glDrawArrays": fn(u32, i32, i32));
    let mut vao = 0;
    // SAFETY: plain GL calls; an out-pointer to a local.
    unsafe {
        use_program(p);
        gen_vao(1, &mut vao);
        bind_vao(vao);
        draw(4, 0, 3);
    }
}

/// How many pixels along the diagonal are neither black nor white (the edge's coverage).
fn partial_edge_pixels(px: &[u8]) -> usize {
    px.chunks_exact(4)
        .filter(|p| p[0] > 16 && p[0] < 239)
        .count()
}

#[test]
fn four_sample_pbuffers_render_multisampled_and_resolve_for_reads() {
    let _current = context();
    let dpy = display();
    let ms = config(
        dpy,
        &[
            EGL_SURFACE_TYPE,
            EGL_PBUFFER_BIT,
            EGL_SAMPLE_BUFFERS,
            1,
            EGL_SAMPLES,
            4,
            EGL_NONE,
        ],
    );
    let surface = pbuffer(dpy, ms, &[]).unwrap();
    make_current(dpy, ms, surface, EGL_OPENGL_API);
    assert_eq!(integer(GL_SAMPLES), 4);
    assert_eq!(integer(GL_SAMPLE_BUFFERS), 1);
    clear([0.0, 0.0, 0.0, 1.0]);
    draw_half();
    let px = read_rgba(0, 0, SIZE, SIZE);
    assert_eq!(
        error(),
        0,
        "glReadPixels of a multisampled default framebuffer"
    );
    assert!(
        partial_edge_pixels(&px) >= SIZE as usize / 2,
        "the diagonal is antialiased: {} partly covered pixels",
        partial_edge_pixels(&px)
    );
    assert_eq!(&px[..4], &[255, 255, 255, 255], "inside");
    let top_right = ((SIZE - 1) * SIZE + SIZE - 1) as usize * 4;
    assert_eq!(&px[top_right..top_right + 4], &[0, 0, 0, 255], "outside");

    // Depth reads see sample 0 of each pixel.
    let clear_depth = gl!(c"glClearDepth": fn(f64));
    let clear_bits = gl!(c"glClear": fn(u32));
    let read = gl!(c"glReadPixels": fn(i32, i32, i32, i32, u32, u32, *mut std::ffi::c_void));
    let mut depth = [0f32; 4];
    // SAFETY: plain GL calls; `depth` holds the 2×2 floats read.
    unsafe {
        clear_depth(0.25);
        clear_bits(0x0100); // GL_DEPTH_BUFFER_BIT
        read(3, 3, 2, 2, 0x1902, 0x1406, depth.as_mut_ptr().cast()); // DEPTH_COMPONENT, FLOAT
    }
    assert_eq!(
        error(),
        0,
        "depth read of a multisampled default framebuffer"
    );
    assert!(depth.iter().all(|d| (d - 0.25).abs() < 1e-3), "{depth:?}");

    // A blit from it into a single-sampled framebuffer object resolves too.
    let gen_fb = gl!(c"glGenFramebuffers": fn(i32, *mut u32));
    let bind_fb = gl!(c"glBindFramebuffer": fn(u32, u32));
    let gen_rb = gl!(c"glGenRenderbuffers": fn(i32, *mut u32));
    let bind_rb = gl!(c"glBindRenderbuffer": fn(u32, u32));
    let storage = gl!(c"glRenderbufferStorage": fn(u32, u32, i32, i32));
    let attach = gl!(c"glFramebufferRenderbuffer": fn(u32, u32, u32, u32));
    let blit = gl!(c"glBlitFramebuffer": fn(i32, i32, i32, i32, i32, i32, i32, i32, u32, u32));
    let (mut fb, mut rb) = (0, 0);
    // SAFETY: plain GL calls; out-pointers to locals.
    unsafe {
        gen_fb(1, &mut fb);
        gen_rb(1, &mut rb);
        bind_rb(0x8D41, rb);
        storage(0x8D41, 0x8058, SIZE, SIZE);
        bind_fb(GL_DRAW_FRAMEBUFFER, fb);
        attach(GL_DRAW_FRAMEBUFFER, 0x8CE0, 0x8D41, rb);
        blit(
            0,
            0,
            SIZE,
            SIZE,
            0,
            0,
            SIZE,
            SIZE,
            GL_COLOR_BUFFER_BIT,
            0x2600,
        );
        bind_fb(GL_READ_FRAMEBUFFER, fb);
    }
    assert_eq!(
        error(),
        0,
        "glBlitFramebuffer resolving the default framebuffer"
    );
    let blitted = read_rgba(0, 0, SIZE, SIZE);
    assert_eq!(blitted, px, "the blit's resolve equals the read's");

    // A single-sampled config has hard edges.
    let single = config(
        dpy,
        &[EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_SAMPLES, 0, EGL_NONE],
    );
    let surface = pbuffer(dpy, single, &[]).unwrap();
    make_current(dpy, single, surface, EGL_OPENGL_API);
    assert_eq!(integer(GL_SAMPLES), 0);
    assert_eq!(integer(GL_SAMPLE_BUFFERS), 0);
    clear([0.0, 0.0, 0.0, 1.0]);
    draw_half();
    assert_eq!(partial_edge_pixels(&read_rgba(0, 0, SIZE, SIZE)), 0);
    assert_eq!(error(), 0);
}

#[test]
fn windows_show_encoded_and_resolved_frames() {
    if std::env::var_os(CHILD_ENV).is_some() {
        return;
    }
    if let Some(server) = xvfb::start_or_skip() {
        child::run_test_child(
            "child_window_formats",
            CHILD_ENV,
            [("DISPLAY", &server.name)],
            "WINDOW_FORMATS_OK",
        );
    }
}

/// Polls (10 s: presenting is asynchronous) until `check` accepts the window's pixels at
/// `points` (top-left origin); at the limit, panics with what it last saw.
fn poll_window(
    x: &xvfb::xlib::Xlib,
    conn: xvfb::xlib::Display,
    win: xvfb::xlib::Window,
    points: &[(u32, u32)],
    check: impl Fn(&[[u8; 3]]) -> bool,
    what: &str,
) {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let seen: Vec<_> = points
            .iter()
            .map(|&(px, py)| x.pixel(conn, win, px, py))
            .collect();
        if check(&seen) {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "{what}: the window shows {seen:?}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A window surface of the first window config matching `attribs`, with `surface_attribs`,
/// current with a 3.3 core context.
fn window_surface(
    x: &xvfb::xlib::Xlib,
    conn: xvfb::xlib::Display,
    attribs: &[EGLint],
    surface_attribs: &[EGLint],
) -> (P, P, xvfb::xlib::Window) {
    let get_display = gl!(c"eglGetDisplay": fn(P) -> P);
    let initialize = gl!(c"eglInitialize": fn(P, *mut EGLint, *mut EGLint) -> u32);
    let create_window = gl!(c"eglCreateWindowSurface": fn(P, P, usize, *const EGLint) -> P);
    // SAFETY: a live connection; out-pointers NULL.
    let d = unsafe { get_display(conn.cast()) };
    // SAFETY: as above.
    assert_eq!(unsafe { initialize(d, null_mut(), null_mut()) }, 1);
    let cfg = config(d, attribs);
    let win = x.window(conn, None, SIZE as u32, SIZE as u32);
    // SAFETY: a live window; a terminated list.
    let s = unsafe { create_window(d, cfg, win as usize, surface_attribs.as_ptr()) };
    assert!(!s.is_null(), "window surface: EGL error {:#x}", egl_error());
    make_current(d, cfg, s, EGL_OPENGL_API);
    (d, s, win)
}

#[test]
fn child_window_formats() {
    if std::env::var_os(CHILD_ENV).is_none() {
        return;
    }
    let x = xvfb::xlib::Xlib::load();
    let conn = x.open();
    x.trap_errors();
    let swap = gl!(c"eglSwapBuffers": fn(P, P) -> u32);
    let window_bits = [EGL_SURFACE_TYPE, EGL_WINDOW_BIT, EGL_RED_SIZE, 8];

    // sRGB: the window shows the encoded value.
    let mut attribs = window_bits.to_vec();
    attribs.push(EGL_NONE);
    let srgb = [EGL_GL_COLORSPACE, EGL_GL_COLORSPACE_SRGB, EGL_NONE];
    let (d, s, win) = window_surface(&x, conn, &attribs, &srgb);
    assert_eq!(
        query_surface(d, s, EGL_GL_COLORSPACE),
        EGL_GL_COLORSPACE_SRGB
    );
    set_framebuffer_srgb(true);
    for _ in 0..3 {
        clear([0.25, 0.25, 0.25, 1.0]);
        // SAFETY: the current display and draw surface.
        assert_eq!(unsafe { swap(d, s) }, 1);
    }
    let near = |v: u8| move |seen: &[[u8; 3]]| seen.iter().flatten().all(|c| c.abs_diff(v) <= 1);
    poll_window(
        &x,
        conn,
        win,
        &[(1, 1), (30, 30)],
        near(QUARTER_ENCODED),
        "sRGB",
    );

    // 4× multisampled: the presented frame is the resolve, with a soft diagonal.
    let mut attribs = window_bits.to_vec();
    attribs.extend_from_slice(&[EGL_SAMPLES, 4, EGL_NONE]);
    let (d, s, win) = window_surface(&x, conn, &attribs, &[EGL_NONE]);
    assert_eq!(integer(GL_SAMPLES), 4);
    for _ in 0..3 {
        clear([0.0, 0.0, 0.0, 1.0]);
        draw_half();
        // SAFETY: the current display and draw surface.
        assert_eq!(unsafe { swap(d, s) }, 1);
    }
    // The window's rows run top-down: the diagonal from its top-left to bottom-right.
    let diagonal: Vec<(u32, u32)> = (2..30).map(|i| (i, i)).collect();
    let partial = |seen: &[[u8; 3]]| {
        seen.iter().filter(|c| c[0] > 16 && c[0] < 239).count() >= 8
            && seen.iter().all(|c| c[0] == c[1] && c[1] == c[2])
    };
    poll_window(&x, conn, win, &diagonal, partial, "multisampled");

    // The smallest 8-bit window config (RGB8, no depth, no stencil) gets just that: its frames
    // show a triangle that passes GL_NEVER (no depth buffer), and alpha reads 1.
    let mut attribs = window_bits.to_vec();
    attribs.push(EGL_NONE);
    let (d, s, win) = window_surface(&x, conn, &attribs, &[EGL_NONE]);
    assert_eq!(framebuffer_bits(), [8, 8, 8, 0, 0, 0]);
    let enable = gl!(c"glEnable": fn(u32));
    let depth_func = gl!(c"glDepthFunc": fn(u32));
    // SAFETY: plain GL calls.
    unsafe {
        enable(0x0B71); // GL_DEPTH_TEST
        depth_func(0x0200); // GL_NEVER
    }
    for _ in 0..3 {
        clear([0.0, 0.0, 0.0, 0.0]);
        draw_half();
        // SAFETY: the current display and draw surface.
        assert_eq!(unsafe { swap(d, s) }, 1);
    }
    let corners = |seen: &[[u8; 3]]| seen[0] == [255; 3] && seen[1] == [0; 3];
    poll_window(
        &x,
        conn,
        win,
        &[(2, 29), (29, 2)],
        corners,
        "RGB8 without depth",
    );
    clear([0.0, 0.0, 0.0, 0.0]);
    assert_eq!(pixel(1, 1), [0, 0, 0, 255], "alpha reads 1");
    assert_eq!(error(), 0);
    assert_eq!(x.take_error(conn), 0, "no X error reached the program");
    assert_eq!(
        gl_harness::validation_errors(),
        0,
        "validation errors (see stderr)"
    );
    println!("WINDOW_FORMATS_OK");
}
