//! OpenGL ES 2.0 and 3.0 contexts through the C ABI: what they report, GLSL ES (1.00 and
//! 3.00 ES draw; desktop GLSL and versions the context lacks are refused with a log), the enums
//! and commands where ES differs from desktop GL, the extensions they advertise, and desktop
//! contexts left as they were. Each test makes its own context on a 32×32 pbuffer.

use std::ffi::{c_char, c_void, CStr};
use std::ptr::{null, null_mut};

#[macro_use]
#[path = "common/gl.rs"]
mod gl_harness;
#[path = "common/es.rs"]
mod es_harness;

use es_harness::{compile, es_context, integer, string, try_link};
use gl_harness::{context_with, error, expect, f, Current};

const GL_INVALID_ENUM: u32 = 0x0500;
const GL_INVALID_OPERATION: u32 = 0x0502;
const GL_VERSION: u32 = 0x1F02;
const GL_SHADING_LANGUAGE_VERSION: u32 = 0x8B8C;
const GL_EXTENSIONS: u32 = 0x1F03;
const GL_MAJOR_VERSION: u32 = 0x821B;
const GL_MINOR_VERSION: u32 = 0x821C;
const GL_NUM_EXTENSIONS: u32 = 0x821D;
const GL_CONTEXT_PROFILE_MASK: u32 = 0x9126;
const GL_VERTEX_SHADER: u32 = 0x8B31;
const GL_FRAGMENT_SHADER: u32 = 0x8B30;
const GL_FLOAT: u32 = 0x1406;
const GL_UNSIGNED_BYTE: u32 = 0x1401;
const GL_UNSIGNED_INT: u32 = 0x1405;
const GL_TRIANGLES: u32 = 4;
const GL_QUADS: u32 = 7;
const GL_RGBA: u32 = 0x1908;
const GL_LUMINANCE: u32 = 0x1909;
const GL_TEXTURE_1D: u32 = 0x0DE0;
const GL_TEXTURE_2D: u32 = 0x0DE1;
const GL_TEXTURE_3D: u32 = 0x806F;
const GL_FRONT_AND_BACK: u32 = 0x0408;
const GL_FILL: u32 = 0x1B02;
const GL_COLOR_BUFFER_BIT: u32 = 0x4000;
const GL_ARRAY_BUFFER: u32 = 0x8892;
const GL_STATIC_DRAW: u32 = 0x88E4;
const GL_FRAMEBUFFER: u32 = 0x8D40;
const GL_RENDERBUFFER: u32 = 0x8D41;
const GL_COLOR_ATTACHMENT0: u32 = 0x8CE0;
const GL_DEPTH_ATTACHMENT: u32 = 0x8D00;
const GL_DEPTH_STENCIL_ATTACHMENT: u32 = 0x821A;
const GL_FRAMEBUFFER_COMPLETE: u32 = 0x8CD5;
const GL_DEPTH_COMPONENT24: u32 = 0x81A6;
const GL_DEPTH24_STENCIL8: u32 = 0x88F0;
const GL_RGBA8: u32 = 0x8058;
const GL_FUNC_ADD: u32 = 0x8006;
const GL_MIN: u32 = 0x8007;
const GL_DEPTH_RANGE: u32 = 0x0B70;
const GL_DEPTH_CLEAR_VALUE: u32 = 0x0B73;

/// A current context on a fresh 32×32 pbuffer: OpenGL ES `major`.0 with `es`, else desktop
/// 3.3 core.
fn context(es: bool, major: i32) -> Current {
    if es {
        es_context(major, 0)
    } else {
        context_with(0x30A2, 0x08, &[0x3098, 3, 0x30FB, 3, 0x30FD, 1, 0x3038])
    }
}

/// Links a vertex + fragment program; asserts the link, showing the program's log.
fn link(vs: &str, fs: &str) -> u32 {
    let (p, ok, log) = try_link(&[(GL_VERTEX_SHADER, vs), (GL_FRAGMENT_SHADER, fs)]);
    assert!(ok, "link: {log}");
    p
}

fn clear_and_read(draw: impl FnOnce()) -> ([u8; 4], [u8; 4]) {
    let clear_color = gl!(c"glClearColor": fn(f32, f32, f32, f32));
    let clear = gl!(c"glClear": fn(u32));
    let read = gl!(c"glReadPixels": fn(i32, i32, i32, i32, u32, u32, *mut c_void));
    let (mut centre, mut corner) = ([0u8; 4], [0u8; 4]);
    // SAFETY: plain calls; each read writes 4 bytes into a local.
    unsafe {
        clear_color(0.0, 0.0, 1.0, 1.0);
        clear(GL_COLOR_BUFFER_BIT);
        draw();
        read(
            8,
            8,
            1,
            1,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            centre.as_mut_ptr().cast(),
        );
        read(
            31,
            31,
            1,
            1,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            corner.as_mut_ptr().cast(),
        );
    }
    (centre, corner)
}

/// A triangle over the lower-left half of the viewport, corners (-1,-1), (1,-1), (-1,1).
static TRIANGLE: [f32; 6] = [-1.0, -1.0, 1.0, -1.0, -1.0, 1.0];
/// The whole viewport, as a triangle strip.
static QUAD: [f32; 8] = [-1.0, -1.0, 1.0, -1.0, -1.0, 1.0, 1.0, 1.0];

#[test]
fn es_contexts_report_es_versions_and_only_es_extensions() {
    for major in [2, 3] {
        let _c = context(true, major);
        // A 3.0 request gets the highest ES 3.x the device offers (`tests/gl_es31.rs`).
        let minor = if major == 3 {
            integer(GL_MINOR_VERSION)
        } else {
            0
        };
        assert_eq!(
            string(GL_VERSION),
            format!("OpenGL ES {major}.{minor} ArenaGL 0.1")
        );
        let glsl = if major == 3 {
            format!("3.{minor}0")
        } else {
            "1.00".to_owned()
        };
        assert_eq!(
            string(GL_SHADING_LANGUAGE_VERSION),
            format!("OpenGL ES GLSL ES {glsl}")
        );
        let extensions = string(GL_EXTENSIONS);
        for name in [
            "GL_OES_element_index_uint",
            "GL_OES_depth24",
            "GL_OES_packed_depth_stencil",
            "GL_OES_rgb8_rgba8",
            "GL_OES_texture_npot",
            "GL_OES_vertex_array_object",
            "GL_OES_standard_derivatives",
            "GL_OES_depth_texture",
            "GL_OES_mapbuffer",
            "GL_EXT_blend_minmax",
        ] {
            assert!(extensions.split(' ').any(|e| e == name), "{name}");
        }
        assert!(
            extensions
                .split(' ')
                .all(|e| ["GL_OES_", "GL_EXT_", "GL_KHR_"]
                    .iter()
                    .any(|p| e.starts_with(p))),
            "{extensions}"
        );
        if major == 3 {
            assert_eq!(integer(GL_MAJOR_VERSION), 3);
            assert!(extensions
                .split(' ')
                .any(|e| e == "GL_EXT_color_buffer_float"));
            let n = integer(GL_NUM_EXTENSIONS);
            assert_eq!(n as usize, extensions.split(' ').count());
        } else {
            integer(GL_MAJOR_VERSION);
            expect(GL_INVALID_ENUM);
        }
        integer(GL_CONTEXT_PROFILE_MASK);
        expect(GL_INVALID_ENUM);
    }
}

#[test]
fn a_glsl_es_1_00_program_draws_from_client_arrays() {
    let _c = context(true, 2);
    let vs = "attribute vec2 pos;\nvarying lowp vec4 v_color;\nuniform vec4 color;\n\
              void main() { v_color = color; gl_Position = vec4(pos, 0.0, 1.0); }\n";
    let fs = "#version 100\nprecision mediump float;\nvarying lowp vec4 v_color;\n\
              void main() { gl_FragColor = v_color; }\n";
    let p = link(vs, fs);
    let use_program = gl_harness_use();
    let location = gl!(c"glGetUniformLocation": fn(u32, *const c_char) -> i32);
    let uniform = gl!(c"glUniform4f": fn(i32, f32, f32, f32, f32));
    let attrib = gl!(c"glGetAttribLocation": fn(u32, *const c_char) -> i32);
    let pointer = gl!(c"glVertexAttribPointer": fn(u32, i32, u32, u8, i32, *const c_void));
    let enable = gl!(c"glEnableVertexAttribArray": fn(u32));
    let draw = gl!(c"glDrawArrays": fn(u32, i32, i32));
    let (centre, corner) = clear_and_read(|| {
        // SAFETY: a linked program; a client array of 3 vec2s that outlives the draw.
        unsafe {
            use_program(p);
            uniform(location(p, c"color".as_ptr()), 1.0, 0.0, 0.0, 1.0);
            let a = attrib(p, c"pos".as_ptr()) as u32;
            pointer(a, 2, GL_FLOAT, 0, 0, TRIANGLE.as_ptr().cast());
            enable(a);
            draw(GL_TRIANGLES, 0, 3);
        }
    });
    assert_eq!(error(), 0);
    assert_eq!(centre, [255, 0, 0, 255], "inside the triangle");
    assert_eq!(corner, [0, 0, 255, 255], "outside it");
}

fn gl_harness_use() -> unsafe extern "C" fn(u32) {
    gl!(c"glUseProgram": fn(u32))
}

#[test]
fn a_glsl_es_3_00_program_draws_from_a_vertex_array() {
    let _c = context(true, 3);
    let vs = "#version 300 es\nlayout(location = 0) in vec2 pos;\nout vec2 uv;\n\
              void main() { uv = pos; gl_Position = vec4(pos, 0.0, 1.0); }\n";
    // One output without a location (location 0, as GLSL ES 3.00 says), a uniform block, and
    // `buffer`, a name in 3.00 ES that 3.10 ES reserves.
    let fs = "#version 300 es\nprecision mediump float;\nin vec2 uv;\nuniform vec4 color;\n\
              layout(std140) uniform Tint { vec4 tint; };\nout vec4 frag;\n\
              void main() { float buffer = 1.0; frag = color * buffer + tint; }\n";
    let (_, ok, log) = compile(GL_FRAGMENT_SHADER, fs);
    assert!(ok, "{log}");
    let p = link(vs, fs);
    let gen_vao = gl!(c"glGenVertexArrays": fn(i32, *mut u32));
    let bind_vao = gl!(c"glBindVertexArray": fn(u32));
    let gen_buffer = gl!(c"glGenBuffers": fn(i32, *mut u32));
    let bind_buffer = gl!(c"glBindBuffer": fn(u32, u32));
    let data = gl!(c"glBufferData": fn(u32, isize, *const c_void, u32));
    let location = gl!(c"glGetUniformLocation": fn(u32, *const c_char) -> i32);
    let uniform = gl!(c"glUniform4f": fn(i32, f32, f32, f32, f32));
    let pointer = gl!(c"glVertexAttribPointer": fn(u32, i32, u32, u8, i32, *const c_void));
    let enable = gl!(c"glEnableVertexAttribArray": fn(u32));
    let draw = gl!(c"glDrawArrays": fn(u32, i32, i32));
    let use_program = gl_harness_use();
    let bind_base = gl!(c"glBindBufferBase": fn(u32, u32, u32));
    let (centre, corner) = clear_and_read(|| {
        // SAFETY: out-pointers to locals; the buffer data is 24 bytes of `TRIANGLE`, 16 of
        // `tint`.
        unsafe {
            let (mut vao, mut buffer) = (0, 0);
            gen_vao(1, &mut vao);
            bind_vao(vao);
            gen_buffer(1, &mut buffer);
            bind_buffer(GL_ARRAY_BUFFER, buffer);
            data(
                GL_ARRAY_BUFFER,
                24,
                TRIANGLE.as_ptr().cast(),
                GL_STATIC_DRAW,
            );
            pointer(0, 2, GL_FLOAT, 0, 0, null());
            enable(0);
            use_program(p);
            uniform(location(p, c"color".as_ptr()), 0.0, 1.0, 0.0, 1.0);
            // The block at binding 0 holds (0, 0, 0.5, 0): the draw is (0, 1, 0.5, 1).
            let tint = [0.0f32, 0.0, 0.5, 0.0];
            let mut ubo = 0;
            gen_buffer(1, &mut ubo);
            bind_buffer(0x8A11, ubo); // GL_UNIFORM_BUFFER
            data(0x8A11, 16, tint.as_ptr().cast(), GL_STATIC_DRAW);
            bind_base(0x8A11, 0, ubo);
            draw(GL_TRIANGLES, 0, 3);
        }
    });
    assert_eq!(error(), 0);
    gl_harness::assert_rgba8_near(centre, [0, 255, 128, 255], "inside the triangle");
    assert_eq!(corner, [0, 0, 255, 255], "outside it");
}

#[test]
fn es_contexts_refuse_desktop_glsl_and_versions_they_lack() {
    let _c = context(true, 3);
    for (src, expected) in [
        (
            "#version 330 core\nvoid main() {}\n",
            &[
                "GLSL 3.30 is not supported in an OpenGL ES 3.",
                "context (desktop GLSL)",
            ][..],
        ),
        (
            "#version 320 es\nvoid main() {}\n",
            &["GLSL 3.20 ES is not supported in an OpenGL ES 3."],
        ),
    ] {
        if integer(GL_MINOR_VERSION) == 2 {
            break; // every GLSL ES version is offered
        }
        let (_, ok, log) = compile(GL_VERTEX_SHADER, src);
        assert!(
            !ok && expected.iter().all(|e| log.contains(e)),
            "{src}: {log}"
        );
    }
    // GLSL ES rules: a fragment shader needs a default float precision; `texture2D`, not
    // `texture`, in 1.00.
    let (_, ok, log) = compile(
        GL_FRAGMENT_SHADER,
        "uniform float a;\nvoid main() { gl_FragColor = vec4(a); }\n",
    );
    assert!(!ok && log.contains("precision"), "{log}");
    let (_, ok, log) = compile(
        GL_FRAGMENT_SHADER,
        "precision mediump float;\nuniform sampler2D s;\n\
         void main() { gl_FragColor = texture(s, vec2(0.5)); }\n",
    );
    assert!(!ok && log.contains("texture"), "{log}");
    drop(_c);
    let _c = context(true, 2);
    let (_, ok, log) = compile(GL_VERTEX_SHADER, "#version 300 es\nvoid main() {}\n");
    assert!(
        !ok && log.contains("GLSL 3.00 ES is not supported in an OpenGL ES 2.0 context"),
        "{log}"
    );
}

#[test]
fn es_contexts_refuse_desktop_enums_and_commands() {
    let _c = context(true, 3);
    let enable = gl!(c"glEnable": fn(u32));
    let bind_texture = gl!(c"glBindTexture": fn(u32, u32));
    let polygon_mode = gl!(c"glPolygonMode": fn(u32, u32));
    let draw = gl!(c"glDrawArrays": fn(u32, i32, i32));
    let shader_binary = gl!(c"glShaderBinary": fn(i32, *const u32, u32, *const c_void, i32));
    let precision = gl!(c"glGetShaderPrecisionFormat": fn(u32, u32, *mut i32, *mut i32));
    let release = gl!(c"glReleaseShaderCompiler": fn());
    // SAFETY: plain calls; out-pointers to locals.
    unsafe {
        enable(GL_TEXTURE_2D); // a fixed-function capability
        expect(GL_INVALID_ENUM);
        bind_texture(GL_TEXTURE_1D, 0);
        expect(GL_INVALID_ENUM);
        bind_texture(GL_TEXTURE_3D, 0);
        assert_eq!(error(), 0, "3D textures are ES 3.0");
        polygon_mode(GL_FRONT_AND_BACK, GL_FILL);
        expect(GL_INVALID_OPERATION);
        draw(GL_QUADS, 0, 4);
        expect(GL_INVALID_ENUM);
        shader_binary(0, null(), 0x1234, null(), 0);
        expect(GL_INVALID_ENUM);
        let (mut range, mut bits) = ([0; 2], 0);
        precision(GL_FRAGMENT_SHADER, 0x8DF1, range.as_mut_ptr(), &mut bits); // MEDIUM_FLOAT
        assert_eq!((range, bits, error()), ([127, 127], 23, 0));
        precision(GL_FRAGMENT_SHADER, 0x8DF5, range.as_mut_ptr(), &mut bits); // HIGH_INT
        assert_eq!((range, bits, error()), ([31, 30], 0, 0));
        precision(GL_TEXTURE_2D, 0x8DF1, range.as_mut_ptr(), &mut bits);
        expect(GL_INVALID_ENUM);
        release();
        assert_eq!(error(), 0);
    }
    drop(_c);
    let _c = context(true, 2);
    // SAFETY: a plain call.
    unsafe { bind_texture(GL_TEXTURE_3D, 0) };
    expect(GL_INVALID_ENUM);
}

#[test]
fn es_state_commands_and_unsized_formats_work() {
    let _c = context(true, 2);
    let clear_depth = gl!(c"glClearDepthf": fn(f32));
    let depth_range = gl!(c"glDepthRangef": fn(f32, f32));
    let get_float = gl!(c"glGetFloatv": fn(u32, *mut f32));
    let gen = gl!(c"glGenTextures": fn(i32, *mut u32));
    let bind_texture = gl!(c"glBindTexture": fn(u32, u32));
    let image = gl!(c"glTexImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    // SAFETY: out-pointers to locals; texel data of the stated size (3×5 RGBA, 3×5 luminance).
    unsafe {
        clear_depth(0.25);
        depth_range(0.125, 0.75);
        let (mut clear, mut range) = (0.0, [0.0; 2]);
        get_float(GL_DEPTH_CLEAR_VALUE, &mut clear);
        get_float(GL_DEPTH_RANGE, range.as_mut_ptr());
        assert_eq!((clear, range), (0.25, [0.125, 0.75]));
        let mut t = 0;
        gen(1, &mut t);
        bind_texture(GL_TEXTURE_2D, t);
        let texels = [0x80u8; 3 * 5 * 4];
        image(
            GL_TEXTURE_2D,
            0,
            GL_RGBA as i32,
            3,
            5,
            0,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            texels.as_ptr().cast(),
        );
        image(
            GL_TEXTURE_2D,
            0,
            GL_LUMINANCE as i32,
            3,
            5,
            0,
            GL_LUMINANCE,
            GL_UNSIGNED_BYTE,
            texels.as_ptr().cast(),
        );
        assert_eq!(error(), 0);
    }
}

/// A framebuffer with a colour and a depth (or depth/stencil) renderbuffer of the given formats.
fn renderbuffer_framebuffer(color: u32, depth: u32, attachment: u32) -> u32 {
    let gen_fb = gl!(c"glGenFramebuffers": fn(i32, *mut u32));
    let bind_fb = gl!(c"glBindFramebuffer": fn(u32, u32));
    let gen_rb = gl!(c"glGenRenderbuffers": fn(i32, *mut u32));
    let bind_rb = gl!(c"glBindRenderbuffer": fn(u32, u32));
    let storage = gl!(c"glRenderbufferStorage": fn(u32, u32, i32, i32));
    let attach = gl!(c"glFramebufferRenderbuffer": fn(u32, u32, u32, u32));
    let status = gl!(c"glCheckFramebufferStatus": fn(u32) -> u32);
    // SAFETY: out-pointers to locals.
    unsafe {
        let (mut fb, mut rb) = (0, [0u32; 2]);
        gen_fb(1, &mut fb);
        bind_fb(GL_FRAMEBUFFER, fb);
        gen_rb(2, rb.as_mut_ptr());
        for (r, (format, at)) in rb
            .iter()
            .zip([(color, GL_COLOR_ATTACHMENT0), (depth, attachment)])
        {
            bind_rb(GL_RENDERBUFFER, *r);
            storage(GL_RENDERBUFFER, format, 8, 8);
            attach(GL_FRAMEBUFFER, at, GL_RENDERBUFFER, *r);
        }
        let s = status(GL_FRAMEBUFFER);
        bind_fb(GL_FRAMEBUFFER, 0);
        s
    }
}

#[test]
fn the_advertised_es_extensions_work() {
    let _c = context(true, 2);
    // GL_OES_rgb8_rgba8, GL_OES_depth24, GL_OES_packed_depth_stencil.
    for (depth, at) in [
        (GL_DEPTH_COMPONENT24, GL_DEPTH_ATTACHMENT),
        (GL_DEPTH24_STENCIL8, GL_DEPTH_STENCIL_ATTACHMENT),
    ] {
        let status = renderbuffer_framebuffer(GL_RGBA8, depth, at);
        assert_eq!(status, GL_FRAMEBUFFER_COMPLETE, "0x{depth:04X}");
    }
    // GL_OES_vertex_array_object through its own names; GL_EXT_blend_minmax.
    let gen_vao = gl!(c"glGenVertexArraysOES": fn(i32, *mut u32));
    let bind_vao = gl!(c"glBindVertexArrayOES": fn(u32));
    let is_vao = gl!(c"glIsVertexArrayOES": fn(u32) -> u8);
    let equation = gl!(c"glBlendEquation": fn(u32));
    // SAFETY: out-pointers to locals.
    unsafe {
        let mut vao = 0;
        gen_vao(1, &mut vao);
        bind_vao(vao);
        assert_eq!(is_vao(vao), 1);
        bind_vao(0);
        equation(GL_MIN);
        equation(GL_FUNC_ADD);
    }
    assert_eq!(error(), 0);
    // GL_OES_standard_derivatives.
    let fs = "#extension GL_OES_standard_derivatives : enable\nprecision mediump float;\n\
              varying vec2 uv;\nvoid main() { gl_FragColor = vec4(dFdx(uv), fwidth(uv)); }\n";
    let vs = "attribute vec2 pos;\nvarying vec2 uv;\n\
              void main() { uv = pos; gl_Position = vec4(pos, 0.0, 1.0); }\n";
    let (_, ok, log) = compile(GL_FRAGMENT_SHADER, fs);
    assert!(ok, "{log}");
    link(vs, fs);
    // GL_OES_element_index_uint (client-side indices) and GL_OES_texture_npot (3×5 above).
    let p = link(
        "attribute vec2 pos;\nvoid main() { gl_Position = vec4(pos, 0.0, 1.0); }\n",
        "precision mediump float;\nvoid main() { gl_FragColor = vec4(1.0, 1.0, 0.0, 1.0); }\n",
    );
    let pointer = gl!(c"glVertexAttribPointer": fn(u32, i32, u32, u8, i32, *const c_void));
    let enable = gl!(c"glEnableVertexAttribArray": fn(u32));
    let bind_attrib = gl!(c"glGetAttribLocation": fn(u32, *const c_char) -> i32);
    let draw = gl!(c"glDrawElements": fn(u32, i32, u32, *const c_void));
    let use_program = gl_harness_use();
    let indices: [u32; 3] = [0, 1, 2];
    let (centre, _) = clear_and_read(|| {
        // SAFETY: client arrays that outlive the draw.
        unsafe {
            use_program(p);
            let a = bind_attrib(p, c"pos".as_ptr()) as u32;
            pointer(a, 2, GL_FLOAT, 0, 0, TRIANGLE.as_ptr().cast());
            enable(a);
            draw(GL_TRIANGLES, 3, GL_UNSIGNED_INT, indices.as_ptr().cast());
        }
    });
    assert_eq!(error(), 0);
    assert_eq!(centre, [255, 255, 0, 255]);
}

/// GL_OES_mapbuffer: a mapped buffer's pointer is what `glGetBufferPointervOES` answers, and
/// what was written through it is drawn after the unmap.
#[test]
fn mapped_buffers_feed_draws() {
    let _c = context(true, 2);
    let gen_buffer = gl!(c"glGenBuffers": fn(i32, *mut u32));
    let bind_buffer = gl!(c"glBindBuffer": fn(u32, u32));
    let data = gl!(c"glBufferData": fn(u32, isize, *const c_void, u32));
    let map = gl!(c"glMapBufferOES": fn(u32, u32) -> *mut c_void);
    let unmap = gl!(c"glUnmapBufferOES": fn(u32) -> u8);
    let pointer_of = gl!(c"glGetBufferPointervOES": fn(u32, u32, *mut *mut c_void));
    let pointer = gl!(c"glVertexAttribPointer": fn(u32, i32, u32, u8, i32, *const c_void));
    let enable = gl!(c"glEnableVertexAttribArray": fn(u32));
    let draw = gl!(c"glDrawArrays": fn(u32, i32, i32));
    let attrib = gl!(c"glGetAttribLocation": fn(u32, *const c_char) -> i32);
    let use_program = gl_harness_use();
    const GL_WRITE_ONLY_OES: u32 = 0x88B9;
    const GL_BUFFER_MAP_POINTER_OES: u32 = 0x88BD;
    let p = link(
        "attribute vec2 pos;\nvoid main() { gl_Position = vec4(pos, 0.0, 1.0); }\n",
        "precision mediump float;\nvoid main() { gl_FragColor = vec4(1.0, 0.0, 1.0, 1.0); }\n",
    );
    let (centre, corner) = clear_and_read(|| {
        // SAFETY: the mapping holds 24 bytes until the unmap; out-pointers to locals.
        unsafe {
            let mut buffer = 0;
            gen_buffer(1, &mut buffer);
            bind_buffer(GL_ARRAY_BUFFER, buffer);
            data(GL_ARRAY_BUFFER, 24, null(), GL_STATIC_DRAW);
            let mapped = map(GL_ARRAY_BUFFER, GL_WRITE_ONLY_OES);
            assert!(!mapped.is_null());
            let mut queried = null_mut();
            pointer_of(GL_ARRAY_BUFFER, GL_BUFFER_MAP_POINTER_OES, &mut queried);
            assert_eq!(queried, mapped);
            std::ptr::copy_nonoverlapping(TRIANGLE.as_ptr(), mapped.cast::<f32>(), 6);
            assert_eq!(unmap(GL_ARRAY_BUFFER), 1);
            pointer_of(GL_ARRAY_BUFFER, GL_BUFFER_MAP_POINTER_OES, &mut queried);
            assert!(queried.is_null(), "no pointer once unmapped");
            use_program(p);
            let a = attrib(p, c"pos".as_ptr()) as u32;
            pointer(a, 2, GL_FLOAT, 0, 0, null());
            enable(a);
            draw(GL_TRIANGLES, 0, 3);
        }
    });
    assert_eq!(error(), 0);
    assert_eq!((centre, corner), ([255, 0, 255, 255], [0, 0, 255, 255]));
}

/// GL_OES_depth_texture: a depth texture uploaded with `GL_UNSIGNED_INT` texels, complete as a
/// framebuffer's depth attachment, samples as luminance in GLSL ES 1.00.
#[test]
fn depth_textures_upload_attach_and_sample_as_luminance() {
    let _c = context(true, 2);
    let gen = gl!(c"glGenTextures": fn(i32, *mut u32));
    let bind_texture = gl!(c"glBindTexture": fn(u32, u32));
    let image = gl!(c"glTexImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let parameter = gl!(c"glTexParameteri": fn(u32, u32, i32));
    let gen_fb = gl!(c"glGenFramebuffers": fn(i32, *mut u32));
    let bind_fb = gl!(c"glBindFramebuffer": fn(u32, u32));
    let attach = gl!(c"glFramebufferTexture2D": fn(u32, u32, u32, u32, i32));
    let status = gl!(c"glCheckFramebufferStatus": fn(u32) -> u32);
    const GL_DEPTH_COMPONENT: u32 = 0x1902;
    let texels = [0x8000_0000u32; 4 * 4];
    let (t, fb) = {
        let (mut t, mut fb) = (0, 0);
        // SAFETY: out-pointers to locals; 4×4 texels of 4 bytes.
        unsafe {
            gen(1, &mut t);
            bind_texture(GL_TEXTURE_2D, t);
            image(
                GL_TEXTURE_2D,
                0,
                GL_DEPTH_COMPONENT as i32,
                4,
                4,
                0,
                GL_DEPTH_COMPONENT,
                GL_UNSIGNED_INT,
                texels.as_ptr().cast(),
            );
            parameter(GL_TEXTURE_2D, 0x2801, 0x2600); // MIN_FILTER NEAREST
            parameter(GL_TEXTURE_2D, 0x2800, 0x2600); // MAG_FILTER NEAREST
            gen_fb(1, &mut fb);
            bind_fb(GL_FRAMEBUFFER, fb);
            attach(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D, t, 0);
            assert_eq!(status(GL_FRAMEBUFFER), GL_FRAMEBUFFER_COMPLETE);
            bind_fb(GL_FRAMEBUFFER, 0);
        }
        (t, fb)
    };
    assert_eq!(error(), 0);
    let p = link(
        "attribute vec2 pos;\nvarying vec2 uv;\n\
         void main() { uv = pos * 0.5 + 0.5; gl_Position = vec4(pos, 0.0, 1.0); }\n",
        "precision mediump float;\nuniform sampler2D depth;\nvarying vec2 uv;\n\
         void main() { gl_FragColor = texture2D(depth, uv); }\n",
    );
    let use_program = gl_harness_use();
    let attrib = gl!(c"glGetAttribLocation": fn(u32, *const c_char) -> i32);
    let pointer = gl!(c"glVertexAttribPointer": fn(u32, i32, u32, u8, i32, *const c_void));
    let enable = gl!(c"glEnableVertexAttribArray": fn(u32));
    let draw = gl!(c"glDrawArrays": fn(u32, i32, i32));
    let enable_cap = gl!(c"glEnable": fn(u32));
    let depth_func = gl!(c"glDepthFunc": fn(u32));
    let viewport = gl!(c"glViewport": fn(i32, i32, i32, i32));
    let clear_depth = gl!(c"glClearDepthf": fn(f32));
    let clear = gl!(c"glClear": fn(u32));
    let sample = |quad: bool| {
        clear_and_read(|| {
            // SAFETY: a linked program; client arrays that outlive the draw.
            unsafe {
                use_program(p);
                bind_texture(GL_TEXTURE_2D, t);
                let a = attrib(p, c"pos".as_ptr()) as u32;
                let (data, mode, n) = if quad {
                    (&QUAD[..], 5, 4)
                } else {
                    (&TRIANGLE[..], GL_TRIANGLES, 3)
                };
                pointer(a, 2, GL_FLOAT, 0, 0, data.as_ptr().cast());
                enable(a);
                draw(mode, 0, n);
            }
        })
    };
    let (inside, _) = sample(false);
    assert_eq!(error(), 0);
    gl_harness::assert_rgba8_near(
        inside,
        [128, 128, 128, 255],
        "uploaded depth 0.5 as luminance",
    );
    // The shadow-map pattern: a depth-only framebuffer cleared to 0.25, then the triangle drawn
    // into it (depth 0.5 over its lower-left half), then sampled.
    // SAFETY: plain calls on live objects; a client array that outlives the draw.
    unsafe {
        bind_fb(GL_FRAMEBUFFER, fb);
        viewport(0, 0, 4, 4);
        clear_depth(0.25);
        clear(0x0100); // GL_DEPTH_BUFFER_BIT
        enable_cap(0x0B71); // GL_DEPTH_TEST
        depth_func(0x0207); // GL_ALWAYS
        use_program(p);
        bind_texture(GL_TEXTURE_2D, 0);
        draw(GL_TRIANGLES, 0, 3);
        bind_fb(GL_FRAMEBUFFER, 0);
        viewport(0, 0, 32, 32);
    }
    assert_eq!(error(), 0);
    let (inside, corner) = sample(true);
    gl_harness::assert_rgba8_near(inside, [128, 128, 128, 255], "drawn depth 0.5");
    gl_harness::assert_rgba8_near(corner, [64, 64, 64, 255], "cleared depth 0.25");
    assert_eq!(error(), 0);
}

#[test]
fn desktop_contexts_keep_their_rules() {
    let _c = context(false, 3);
    // A 3.3 request gets the device's desktop version (`context::version`), 3.3 or later.
    let (major, minor) = (integer(GL_MAJOR_VERSION), integer(GL_MINOR_VERSION));
    assert!((major, minor) >= (3, 3), "{major}.{minor}");
    assert_eq!(
        string(GL_VERSION),
        format!("{major}.{minor} (Core Profile) ArenaGL 0.1")
    );
    assert_eq!(
        string(GL_SHADING_LANGUAGE_VERSION),
        format!("{major}.{minor}0")
    );
    // GL_ARB_ES2_compatibility: GLSL ES 1.00 compiles on desktop GL; GL_ARB_ES3_compatibility:
    // so does 3.00 ES.
    let (_, ok, log) = compile(
        GL_VERTEX_SHADER,
        "#version 100\nattribute vec4 p;\nvoid main() { gl_Position = p; }\n",
    );
    assert!(ok, "{log}");
    let (_, ok, log) = compile(
        GL_VERTEX_SHADER,
        "#version 300 es\nin vec4 p;\nvoid main() { float buffer = 1.0; gl_Position = p * buffer; }\n",
    );
    assert!(ok, "{log}");
    let stringi = gl!(c"glGetStringi": fn(u32, u32) -> *const c_char);
    let names: Vec<String> = (0..integer(GL_NUM_EXTENSIONS) as u32)
        // SAFETY: an index below GL_NUM_EXTENSIONS names a NUL-terminated string.
        .map(|i| unsafe { CStr::from_ptr(stringi(GL_EXTENSIONS, i)) })
        .map(|s| s.to_string_lossy().into_owned())
        .collect();
    assert!(
        names.iter().any(|n| n == "GL_ARB_ES3_compatibility"),
        "{names:?}"
    );
    let (_, ok, log) = compile(GL_VERTEX_SHADER, "#version 330 core\nvoid main() {}\n");
    assert!(ok, "{log}");
    let bind_texture = gl!(c"glBindTexture": fn(u32, u32));
    let polygon_mode = gl!(c"glPolygonMode": fn(u32, u32));
    // SAFETY: plain calls.
    unsafe {
        bind_texture(GL_TEXTURE_1D, 0);
        polygon_mode(GL_FRONT_AND_BACK, GL_FILL);
    }
    assert_eq!(error(), 0);
}

const GL_ELEMENT_ARRAY_BUFFER: u32 = 0x8893;
const GL_TRIANGLE_STRIP: u32 = 5;
const GL_PRIMITIVE_RESTART: u32 = 0x8F9D;
const GL_PRIMITIVE_RESTART_FIXED_INDEX: u32 = 0x8D69;
const GL_MAX_ELEMENT_INDEX: u32 = 0x8D6B;

/// A GLSL ES 3.00 program drawing `layout(location = 0) in vec2` positions in red.
fn red_es3_program() -> u32 {
    link(
        "#version 300 es\nlayout(location = 0) in vec2 pos;\n\
         void main() { gl_Position = vec4(pos, 0.0, 1.0); }\n",
        "#version 300 es\nprecision mediump float;\nout vec4 o;\n\
         void main() { o = vec4(1.0, 0.0, 0.0, 1.0); }\n",
    )
}

#[test]
fn es3_restarts_strips_at_the_fixed_index() {
    let _c = context(true, 3);
    let p = red_es3_program();
    let enable = gl!(c"glEnable": fn(u32));
    let is_enabled = gl!(c"glIsEnabled": fn(u32) -> u8);
    let pointer = gl!(c"glVertexAttribPointer": fn(u32, i32, u32, u8, i32, *const c_void));
    let enable_array = gl!(c"glEnableVertexAttribArray": fn(u32));
    let draw = gl!(c"glDrawElements": fn(u32, i32, u32, *const c_void));
    let use_program = gl_harness_use();
    // Two strips with a gap between them, x in [-1, -0.5] and in [0.5, 1], split by the fixed
    // index of unsigned bytes, 255. Vertex 255 exists, at (0, -1): joined (no restart), the
    // strip's bridging triangle (-0.5, 1), (0, -1), (0.5, -1) would cover the gap's middle.
    let mut vertices = [0.0f32; 2 * 256];
    vertices[..16].copy_from_slice(&[
        -1.0, -1.0, -0.5, -1.0, -1.0, 1.0, -0.5, 1.0, // left
        0.5, -1.0, 1.0, -1.0, 0.5, 1.0, 1.0, 1.0, // right
    ]);
    vertices[2 * 255..].copy_from_slice(&[0.0, -1.0]);
    let indices: [u8; 9] = [0, 1, 2, 3, 0xFF, 4, 5, 6, 7];
    let vbo = gl_harness::buffer_with(GL_ARRAY_BUFFER, bytes_of(&vertices));
    let ibo = gl_harness::buffer_with(GL_ELEMENT_ARRAY_BUFFER, bytes_of(&indices));
    assert!(integer(GL_MAX_ELEMENT_INDEX) >= (1 << 24) - 1);
    // SAFETY: plain calls; the bound buffers hold 256 vec2s and 9 u8 indices.
    unsafe {
        enable(GL_PRIMITIVE_RESTART);
        expect(GL_INVALID_ENUM); // desktop GL's variable index is not in ES
        enable(GL_PRIMITIVE_RESTART_FIXED_INDEX);
        assert_eq!(
            (is_enabled(GL_PRIMITIVE_RESTART_FIXED_INDEX), error()),
            (1, 0)
        );
        let _ = (vbo, ibo);
        use_program(p);
        pointer(0, 2, GL_FLOAT, 0, 0, null());
        enable_array(0);
    }
    let _ = clear_and_read(|| {
        // SAFETY: the element buffer holds 9 indices.
        unsafe { draw(GL_TRIANGLE_STRIP, 9, GL_UNSIGNED_BYTE, null()) };
    });
    assert_eq!(error(), 0);
    let row = gl_harness::read_rgba(0, 16, 32, 1);
    let at = |x: usize| [row[4 * x], row[4 * x + 1], row[4 * x + 2], row[4 * x + 3]];
    let (red, blue) = ([255, 0, 0, 255], [0, 0, 255, 255]);
    assert!((0..8).all(|x| at(x) == red), "the left strip: {row:?}");
    assert!((24..32).all(|x| at(x) == red), "the right strip: {row:?}");
    assert!(
        (8..24).all(|x| at(x) == blue),
        "no triangle joins them: {row:?}"
    );
}

/// The bytes of a slice of plain numbers.
fn bytes_of<T: Copy>(v: &[T]) -> &[u8] {
    // SAFETY: `T` is a plain number type (f32, u8) without padding; the bytes live as long as
    // `v`.
    unsafe { std::slice::from_raw_parts(v.as_ptr().cast(), std::mem::size_of_val(v)) }
}

#[test]
fn es2_refuses_es3_state_and_es_programs_need_both_stages() {
    let _c = context(true, 2);
    for pname in [
        0x8D57,               // GL_MAX_SAMPLES
        0x8CAA,               // GL_READ_FRAMEBUFFER_BINDING
        0x88ED,               // GL_PIXEL_PACK_BUFFER_BINDING
        0x8E24,               // GL_TRANSFORM_FEEDBACK_BUFFER_ACTIVE
        GL_MAX_ELEMENT_INDEX, // ES 3.0 state
    ] {
        integer(pname);
        assert_eq!(error(), GL_INVALID_ENUM, "0x{pname:04X}");
    }
    integer(0x85B5); // GL_VERTEX_ARRAY_BINDING: GL_OES_vertex_array_object's
    assert_eq!(error(), 0);
    let vs = "attribute vec4 p;\nvoid main() { gl_Position = p; }\n";
    let (vs, ok, log) = compile(GL_VERTEX_SHADER, vs);
    assert!(ok, "{log}");
    let create = gl!(c"glCreateProgram": fn() -> u32);
    let attach = gl!(c"glAttachShader": fn(u32, u32));
    let link_program = gl!(c"glLinkProgram": fn(u32));
    let get = gl!(c"glGetProgramiv": fn(u32, u32, *mut i32));
    // SAFETY: plain calls; an out-pointer to a local.
    let linked = unsafe {
        let p = create();
        attach(p, vs);
        link_program(p);
        let mut status = -1;
        get(p, 0x8B82, &mut status); // GL_LINK_STATUS
        status
    };
    assert_eq!(
        (linked, error()),
        (0, 0),
        "a vertex shader alone does not link in ES"
    );
    drop(_c);
    let _c = context(true, 3);
    assert!(integer(0x8D57) >= 1); // GL_MAX_SAMPLES is ES 3.0 state
    assert_eq!(error(), 0);
}

#[test]
fn es3_transform_feedback_captures_vertex_outputs() {
    const GL_TRANSFORM_FEEDBACK_BUFFER: u32 = 0x8C8E;
    const GL_RASTERIZER_DISCARD: u32 = 0x8C89;
    const GL_PRIMITIVES_WRITTEN: u32 = 0x8C88;
    let _c = context(true, 3);
    let varyings = gl!(c"glTransformFeedbackVaryings": fn(u32, i32, *const *const c_char, u32));
    let (p, ok) = gl_harness::try_program_with(
        "#version 300 es\nlayout(location = 0) in float x;\nout float y;\n\
         void main() { y = x * 2.0; gl_Position = vec4(0.0); }\n",
        "#version 300 es\nprecision mediump float;\nout vec4 o;\nvoid main() { o = vec4(1.0); }\n",
        |p| {
            let names = [c"y".as_ptr()];
            // SAFETY: one NUL-terminated name.
            unsafe { varyings(p, 1, names.as_ptr(), 0x8C8C) }; // GL_INTERLEAVED_ATTRIBS
        },
    );
    assert!(ok);
    let inputs = [1.0f32, 2.0, 3.0, 4.0];
    let _vbo = gl_harness::buffer_with(GL_ARRAY_BUFFER, bytes_of(&inputs));
    let xfb = gl_harness::buffer_with(GL_TRANSFORM_FEEDBACK_BUFFER, &[0u8; 16]);
    let enable = gl!(c"glEnable": fn(u32));
    let begin = gl!(c"glBeginTransformFeedback": fn(u32));
    let use_program = gl_harness_use();
    let end = gl!(c"glEndTransformFeedback": fn());
    let bind_base = gl!(c"glBindBufferBase": fn(u32, u32, u32));
    let pointer = gl!(c"glVertexAttribPointer": fn(u32, i32, u32, u8, i32, *const c_void));
    let enable_array = gl!(c"glEnableVertexAttribArray": fn(u32));
    let draw = gl!(c"glDrawArrays": fn(u32, i32, i32));
    let gen_query = gl!(c"glGenQueries": fn(i32, *mut u32));
    let begin_query = gl!(c"glBeginQuery": fn(u32, u32));
    let end_query = gl!(c"glEndQuery": fn(u32));
    let query_result = gl!(c"glGetQueryObjectuiv": fn(u32, u32, *mut u32));
    let map = gl!(c"glMapBufferRange": fn(u32, isize, isize, u32) -> *const f32);
    let unmap = gl!(c"glUnmapBuffer": fn(u32) -> u8);
    // SAFETY: plain calls on live objects; the mapping holds the 4 floats asked for and is read
    // before it is unmapped.
    let (captured, written) = unsafe {
        use_program(p);
        pointer(0, 1, GL_FLOAT, 0, 0, null());
        enable_array(0);
        bind_base(GL_TRANSFORM_FEEDBACK_BUFFER, 0, xfb);
        enable(GL_RASTERIZER_DISCARD);
        let mut q = 0;
        gen_query(1, &mut q);
        begin_query(GL_PRIMITIVES_WRITTEN, q);
        begin(0); // GL_POINTS
        draw(0, 0, 4);
        end();
        end_query(GL_PRIMITIVES_WRITTEN);
        let mut written = 0;
        query_result(q, 0x8866, &mut written); // GL_QUERY_RESULT
        let m = map(GL_TRANSFORM_FEEDBACK_BUFFER, 0, 16, 1); // GL_MAP_READ_BIT
        assert!(!m.is_null());
        let captured = std::slice::from_raw_parts(m, 4).to_vec();
        unmap(GL_TRANSFORM_FEEDBACK_BUFFER);
        (captured, written)
    };
    assert_eq!(error(), 0);
    assert_eq!(captured, [2.0, 4.0, 6.0, 8.0]);
    assert_eq!(written, 4);
}

#[test]
fn es3_renders_into_float_colour_buffers() {
    // GL_EXT_color_buffer_float: 16- and 32-bit float and 11/11/10 colour buffers are complete,
    // and hold values outside [0, 1].
    const GL_RGBA16F: u32 = 0x881A;
    let _c = context(true, 3);
    for format in [GL_RGBA16F, 0x8814, 0x822E, 0x8C3A] {
        // RGBA32F, R32F, R11F_G11F_B10F
        let status = renderbuffer_framebuffer(format, GL_DEPTH_COMPONENT24, GL_DEPTH_ATTACHMENT);
        assert_eq!(status, GL_FRAMEBUFFER_COMPLETE, "0x{format:04X}");
    }
    let gen_fb = gl!(c"glGenFramebuffers": fn(i32, *mut u32));
    let bind_fb = gl!(c"glBindFramebuffer": fn(u32, u32));
    let gen_rb = gl!(c"glGenRenderbuffers": fn(i32, *mut u32));
    let bind_rb = gl!(c"glBindRenderbuffer": fn(u32, u32));
    let storage = gl!(c"glRenderbufferStorage": fn(u32, u32, i32, i32));
    let attach = gl!(c"glFramebufferRenderbuffer": fn(u32, u32, u32, u32));
    let clear_color = gl!(c"glClearColor": fn(f32, f32, f32, f32));
    let clear = gl!(c"glClear": fn(u32));
    let read = gl!(c"glReadPixels": fn(i32, i32, i32, i32, u32, u32, *mut c_void));
    let mut texel = [0.0f32; 4];
    // SAFETY: out-pointers to locals; the read writes one RGBA float texel into `texel`.
    unsafe {
        let (mut fb, mut rb) = (0, 0);
        gen_fb(1, &mut fb);
        bind_fb(GL_FRAMEBUFFER, fb);
        gen_rb(1, &mut rb);
        bind_rb(GL_RENDERBUFFER, rb);
        storage(GL_RENDERBUFFER, GL_RGBA16F, 8, 8);
        attach(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
        clear_color(0.25, 2.0, -1.0, 1.0);
        clear(GL_COLOR_BUFFER_BIT);
        read(0, 0, 1, 1, GL_RGBA, GL_FLOAT, texel.as_mut_ptr().cast());
    }
    assert_eq!(error(), 0);
    assert_eq!(texel, [0.25, 2.0, -1.0, 1.0]);
}
