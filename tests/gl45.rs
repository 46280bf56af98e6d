//! GL 4.4 and 4.5 extensions through the C ABI, read back through queries and pixels:
//! GL_ARB_multi_bind (runs of bindings in one call, each binding refused on its own),
//! GL_ARB_texture_barrier (a draw reads what the draw before the barrier wrote into the texture
//! it renders to) and GL_ARB_conditional_render_inverted; layered framebuffers (`gl_Layer` picks
//! the layer, clears reach every layer, completeness), GL_ARB_cull_distance (culling and the
//! combined limit) and GL_ARB_shader_texture_image_samples (`textureSamples` in GLSL 1.50).

use std::ffi::c_void;
use std::ptr::null;

#[macro_use]
#[path = "common/gl.rs"]
mod gl_harness;

use gl_harness::{context_with, expect, f, program, read_rgba, Current};

const GL_INVALID_ENUM: u32 = 0x0500;
const GL_INVALID_VALUE: u32 = 0x0501;
const GL_INVALID_OPERATION: u32 = 0x0502;
const GL_UNIFORM_BUFFER: u32 = 0x8A11;
const GL_UNIFORM_BUFFER_BINDING: u32 = 0x8A28;
const GL_UNIFORM_BUFFER_START: u32 = 0x8A29;
const GL_UNIFORM_BUFFER_SIZE: u32 = 0x8A2A;
const GL_SHADER_STORAGE_BUFFER: u32 = 0x90D2;
const GL_SHADER_STORAGE_BUFFER_BINDING: u32 = 0x90D3;
const GL_ARRAY_BUFFER: u32 = 0x8892;
const GL_MAX_UNIFORM_BUFFER_BINDINGS: u32 = 0x8A2F;
const GL_TEXTURE_2D: u32 = 0x0DE1;
const GL_TEXTURE_2D_ARRAY: u32 = 0x8C1A;
const GL_TEXTURE_BINDING_2D: u32 = 0x8069;
const GL_TEXTURE_BINDING_2D_ARRAY: u32 = 0x8C1D;
const GL_TEXTURE0: u32 = 0x84C0;
const GL_ACTIVE_TEXTURE: u32 = 0x84E0;
const GL_SAMPLER_BINDING: u32 = 0x8919;
const GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS: u32 = 0x8B4D;
const GL_IMAGE_BINDING_NAME: u32 = 0x8F3A;
const GL_IMAGE_BINDING_LEVEL: u32 = 0x8F3B;
const GL_IMAGE_BINDING_LAYERED: u32 = 0x8F3C;
const GL_IMAGE_BINDING_ACCESS: u32 = 0x8F3E;
const GL_IMAGE_BINDING_FORMAT: u32 = 0x906E;
const GL_READ_WRITE: i32 = 0x88BA;
const GL_VERTEX_BINDING_BUFFER: u32 = 0x8F4F;
const GL_VERTEX_BINDING_OFFSET: u32 = 0x82D7;
const GL_VERTEX_BINDING_STRIDE: u32 = 0x82D8;
const GL_RGBA8: u32 = 0x8058;
const GL_RGBA: u32 = 0x1908;
const GL_UNSIGNED_BYTE: u32 = 0x1401;
const GL_FLOAT: u32 = 0x1406;
const GL_TRIANGLE_STRIP: u32 = 0x0005;
const GL_FRAMEBUFFER: u32 = 0x8D40;
const GL_COLOR_ATTACHMENT0: u32 = 0x8CE0;
const GL_SAMPLES_PASSED: u32 = 0x8914;
const GL_QUERY_WAIT_INVERTED: u32 = 0x8E17;
const GL_QUERY_NO_WAIT_INVERTED: u32 = 0x8E18;
const GL_QUERY_WAIT: u32 = 0x8E13;
const GL_COLOR_BUFFER_BIT: u32 = 0x4000;
const GL_TEXTURE_MIN_FILTER: u32 = 0x2801;
const GL_NEAREST: i32 = 0x2600;

/// A current 4.2 core context (image units and storage buffers are part of it).
fn context_4_2() -> Current {
    const EGL_OPENGL_API: u32 = 0x30A2;
    context_with(
        EGL_OPENGL_API,
        0x0008,
        &[0x3098, 4, 0x30FB, 2, 0x30FD, 1, 0x3038],
    )
}

fn integer(pname: u32) -> i32 {
    let get = gl!(c"glGetIntegerv": fn(u32, *mut i32));
    let mut v = -1;
    // SAFETY: one integer out.
    unsafe { get(pname, &mut v) };
    v
}

fn indexed(pname: u32, index: u32) -> i64 {
    let get = gl!(c"glGetInteger64i_v": fn(u32, u32, *mut i64));
    let mut v = -1;
    // SAFETY: one integer out.
    unsafe { get(pname, index, &mut v) };
    v
}

/// `n` objects from a `glCreate*`/`glGen*`-style function.
fn names(make: unsafe extern "C" fn(i32, *mut u32), n: usize) -> Vec<u32> {
    let mut out = vec![0; n];
    // SAFETY: room for `n` names.
    unsafe { make(n as i32, out.as_mut_ptr()) };
    out
}

fn buffers(n: usize) -> Vec<u32> {
    let create = gl!(c"glCreateBuffers": fn(i32, *mut u32));
    let storage = gl!(c"glNamedBufferData": fn(u32, isize, *const c_void, u32));
    let made = names(create, n);
    for &b in &made {
        // SAFETY: no data pointer.
        unsafe { storage(b, 1024, null(), 0x88E4) };
    }
    made
}

/// A `w`×`h` RGBA8 texture of `target` (2D, or 2D array of 2 layers) with every level.
fn texture(target: u32, w: i32, h: i32) -> u32 {
    let create = gl!(c"glCreateTextures": fn(u32, i32, *mut u32));
    let storage2 = gl!(c"glTextureStorage2D": fn(u32, i32, u32, i32, i32));
    let storage3 = gl!(c"glTextureStorage3D": fn(u32, i32, u32, i32, i32, i32));
    let mut t = 0;
    // SAFETY: room for one name.
    unsafe {
        create(target, 1, &mut t);
        if target == GL_TEXTURE_2D_ARRAY {
            storage3(t, 1, GL_RGBA8, w, h, 2);
        } else {
            storage2(t, 1, GL_RGBA8, w, h);
        }
    }
    t
}

fn uniform_bindings(first: u32, n: u32) -> Vec<i64> {
    (first..first + n)
        .map(|i| indexed(GL_UNIFORM_BUFFER_BINDING, i))
        .collect()
}

#[test]
fn bind_buffers_base_binds_a_run_and_keeps_the_generic_binding() {
    let _c = context_4_2();
    let base = gl!(c"glBindBuffersBase": fn(u32, u32, i32, *const u32));
    let bind = gl!(c"glBindBuffer": fn(u32, u32));
    let b = buffers(4);
    // SAFETY: arrays of `count` names, or NULL.
    unsafe {
        bind(GL_UNIFORM_BUFFER, b[0]);
        base(GL_UNIFORM_BUFFER, 2, 3, b[1..].as_ptr());
        expect(0);
        assert_eq!(uniform_bindings(2, 3), [b[1], b[2], b[3]].map(i64::from));
        assert_eq!(
            integer(GL_UNIFORM_BUFFER_BINDING),
            b[0] as i32,
            "generic binding kept"
        );
        // One name that is no buffer: that binding stays, the others are made.
        base(GL_UNIFORM_BUFFER, 2, 3, [b[3], 4242, b[1]].as_ptr());
        expect(GL_INVALID_OPERATION);
        assert_eq!(uniform_bindings(2, 3), [b[3], b[2], b[1]].map(i64::from));
        // Past the last binding point: nothing changes.
        let max = integer(GL_MAX_UNIFORM_BUFFER_BINDINGS) as u32;
        base(GL_UNIFORM_BUFFER, max - 1, 2, b.as_ptr());
        expect(GL_INVALID_OPERATION);
        assert_eq!(indexed(GL_UNIFORM_BUFFER_BINDING, max - 1), 0);
        base(GL_UNIFORM_BUFFER, 0, -1, b.as_ptr());
        expect(GL_INVALID_VALUE);
        base(GL_ARRAY_BUFFER, 0, 1, b.as_ptr());
        expect(GL_INVALID_ENUM);
        // NULL unbinds the run.
        base(GL_UNIFORM_BUFFER, 2, 3, null());
        expect(0);
        assert_eq!(uniform_bindings(2, 3), [0, 0, 0]);
        base(GL_SHADER_STORAGE_BUFFER, 1, 2, b[2..].as_ptr());
        expect(0);
        assert_eq!(
            indexed(GL_SHADER_STORAGE_BUFFER_BINDING, 2),
            i64::from(b[3])
        );
    }
}

#[test]
fn bind_buffers_range_refuses_each_bad_range_on_its_own() {
    let _c = context_4_2();
    let range =
        gl!(c"glBindBuffersRange": fn(u32, u32, i32, *const u32, *const isize, *const isize));
    let align = integer(0x8A34) as isize; // GL_UNIFORM_BUFFER_OFFSET_ALIGNMENT
    let b = buffers(3);
    let offsets = [0, align, 0];
    let sizes = [64, 32, 0]; // the last size is not positive
                             // SAFETY: arrays of `count` values.
    unsafe {
        range(
            GL_UNIFORM_BUFFER,
            0,
            3,
            b.as_ptr(),
            offsets.as_ptr(),
            sizes.as_ptr(),
        )
    };
    expect(GL_INVALID_VALUE);
    assert_eq!(
        uniform_bindings(0, 3),
        [i64::from(b[0]), i64::from(b[1]), 0]
    );
    assert_eq!(indexed(GL_UNIFORM_BUFFER_START, 1), align as i64);
    assert_eq!(indexed(GL_UNIFORM_BUFFER_SIZE, 1), 32);
    assert_eq!(indexed(GL_UNIFORM_BUFFER_SIZE, 0), 64);
}

#[test]
fn bind_textures_binds_each_to_its_own_target_and_keeps_the_active_unit() {
    let _c = context_4_2();
    let bind_textures = gl!(c"glBindTextures": fn(u32, i32, *const u32));
    let active = gl!(c"glActiveTexture": fn(u32));
    let gen = gl!(c"glGenTextures": fn(i32, *mut u32));
    let (t2d, tarray) = (
        texture(GL_TEXTURE_2D, 4, 4),
        texture(GL_TEXTURE_2D_ARRAY, 4, 4),
    );
    let never_bound = names(gen, 1)[0];
    let on_unit = |unit: u32, binding: u32| {
        // SAFETY: a unit below the limit.
        unsafe { active(GL_TEXTURE0 + unit) };
        integer(binding)
    };
    // SAFETY: arrays of `count` names, or NULL.
    unsafe {
        active(GL_TEXTURE0 + 7);
        bind_textures(3, 3, [t2d, tarray, never_bound].as_ptr());
        expect(GL_INVALID_OPERATION);
        assert_eq!(integer(GL_ACTIVE_TEXTURE), (GL_TEXTURE0 + 7) as i32);
        assert_eq!(on_unit(3, GL_TEXTURE_BINDING_2D), t2d as i32);
        assert_eq!(on_unit(4, GL_TEXTURE_BINDING_2D_ARRAY), tarray as i32);
        assert_eq!(on_unit(4, GL_TEXTURE_BINDING_2D), 0);
        let units = integer(GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS) as u32;
        bind_textures(units - 1, 2, [t2d, t2d].as_ptr());
        expect(GL_INVALID_OPERATION);
        bind_textures(3, 2, null());
        expect(0);
        assert_eq!(on_unit(3, GL_TEXTURE_BINDING_2D), 0);
        assert_eq!(on_unit(4, GL_TEXTURE_BINDING_2D_ARRAY), 0);
    }
}

#[test]
fn bind_samplers_and_image_textures_bind_runs() {
    let _c = context_4_2();
    let bind_samplers = gl!(c"glBindSamplers": fn(u32, i32, *const u32));
    let bind_images = gl!(c"glBindImageTextures": fn(u32, i32, *const u32));
    let create_samplers = gl!(c"glCreateSamplers": fn(i32, *mut u32));
    let active = gl!(c"glActiveTexture": fn(u32));
    let s = names(create_samplers, 2);
    let (t2d, tarray) = (
        texture(GL_TEXTURE_2D, 4, 4),
        texture(GL_TEXTURE_2D_ARRAY, 4, 4),
    );
    let create = gl!(c"glCreateTextures": fn(u32, i32, *mut u32));
    let mut empty = 0;
    // SAFETY: room for one name.
    unsafe { create(GL_TEXTURE_2D, 1, &mut empty) };
    // SAFETY: arrays of `count` names, or NULL.
    unsafe {
        bind_samplers(1, 3, [s[0], 777, s[1]].as_ptr());
        expect(GL_INVALID_OPERATION);
        let sampler_on = |unit: u32| {
            active(GL_TEXTURE0 + unit);
            integer(GL_SAMPLER_BINDING)
        };
        assert_eq!(
            [sampler_on(1), sampler_on(2), sampler_on(3)],
            [s[0] as i32, 0, s[1] as i32]
        );
        bind_samplers(1, 3, null());
        assert_eq!(sampler_on(3), 0);

        bind_images(2, 3, [t2d, tarray, empty].as_ptr());
        expect(GL_INVALID_OPERATION); // `empty` has no level 0
        assert_eq!(indexed(GL_IMAGE_BINDING_NAME, 2), i64::from(t2d));
        assert_eq!(indexed(GL_IMAGE_BINDING_LAYERED, 2), 0);
        assert_eq!(indexed(GL_IMAGE_BINDING_NAME, 3), i64::from(tarray));
        assert_eq!(indexed(GL_IMAGE_BINDING_LAYERED, 3), 1);
        assert_eq!(indexed(GL_IMAGE_BINDING_LEVEL, 3), 0);
        assert_eq!(
            indexed(GL_IMAGE_BINDING_ACCESS, 3),
            i64::from(GL_READ_WRITE)
        );
        assert_eq!(indexed(GL_IMAGE_BINDING_FORMAT, 3), i64::from(GL_RGBA8));
        assert_eq!(indexed(GL_IMAGE_BINDING_NAME, 4), 0);
        bind_images(7, 2, [t2d, t2d].as_ptr());
        expect(GL_INVALID_OPERATION);
        bind_images(2, 2, null());
        expect(0);
        assert_eq!(indexed(GL_IMAGE_BINDING_NAME, 3), 0);
    }
}

/// A program that draws its two-component positions in the colour of `u_tex` at the centre.
fn sampling_program() -> u32 {
    program(
        "#version 330 core\nlayout(location = 0) in vec2 p;\n\
         void main() { gl_Position = vec4(p, 0.0, 1.0); }\n",
        "#version 330 core\nuniform sampler2D u_tex;\nout vec4 c;\n\
         void main() { c = texture(u_tex, vec2(0.5)); }\n",
    )
}

/// Fills level 0 of the 1×1 RGBA8 2D texture `t` with `rgba`.
fn fill(t: u32, rgba: [u8; 4]) {
    let sub =
        gl!(c"glTextureSubImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    // SAFETY: one RGBA8 texel.
    unsafe {
        sub(
            t,
            0,
            0,
            0,
            1,
            1,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            rgba.as_ptr().cast(),
        )
    };
}

#[test]
fn bind_vertex_buffers_and_textures_feed_a_draw() {
    let _c = context_4_2();
    let bind_vbs = gl!(c"glBindVertexBuffers": fn(u32, i32, *const u32, *const isize, *const i32));
    let bind_textures = gl!(c"glBindTextures": fn(u32, i32, *const u32));
    let gen_vao = gl!(c"glGenVertexArrays": fn(i32, *mut u32));
    let bind_vao = gl!(c"glBindVertexArray": fn(u32));
    let format = gl!(c"glVertexAttribFormat": fn(u32, i32, u32, u8, u32));
    let attrib_binding = gl!(c"glVertexAttribBinding": fn(u32, u32));
    let enable = gl!(c"glEnableVertexAttribArray": fn(u32));
    let data = gl!(c"glNamedBufferSubData": fn(u32, isize, isize, *const c_void));
    let use_program = gl!(c"glUseProgram": fn(u32));
    let uniform = gl!(c"glUniform1i": fn(i32, i32));
    let location = gl!(c"glGetUniformLocation": fn(u32, *const std::ffi::c_char) -> i32);
    let draw = gl!(c"glDrawArrays": fn(u32, i32, i32));
    let b = buffers(2);
    // The full-screen strip lives 16 bytes into the second buffer.
    let quad: [f32; 8] = [-1.0, -1.0, 1.0, -1.0, -1.0, 1.0, 1.0, 1.0];
    let (red, green) = (texture(GL_TEXTURE_2D, 1, 1), texture(GL_TEXTURE_2D, 1, 1));
    fill(red, [255, 0, 0, 255]);
    fill(green, [0, 255, 0, 255]);
    let p = sampling_program();
    // SAFETY: arrays of `count` values; the quad's 32 bytes fit the 1024-byte buffer.
    unsafe {
        data(b[1], 16, 32, quad.as_ptr().cast());
        bind_vao(names(gen_vao, 1)[0]);
        format(0, 2, GL_FLOAT, 0, 0);
        attrib_binding(0, 1);
        enable(0);
        bind_vbs(0, 2, b.as_ptr(), [0isize, 16].as_ptr(), [8, 8].as_ptr());
        expect(0);
        assert_eq!(indexed(GL_VERTEX_BINDING_BUFFER, 1), i64::from(b[1]));
        assert_eq!(indexed(GL_VERTEX_BINDING_OFFSET, 1), 16);
        assert_eq!(indexed(GL_VERTEX_BINDING_STRIDE, 1), 8);
        // A negative stride is refused for its binding only.
        bind_vbs(2, 2, b.as_ptr(), [0isize, 0].as_ptr(), [-4, 12].as_ptr());
        expect(GL_INVALID_VALUE);
        assert_eq!(indexed(GL_VERTEX_BINDING_BUFFER, 2), 0);
        assert_eq!(indexed(GL_VERTEX_BINDING_STRIDE, 3), 12);
        use_program(p);
        uniform(location(p, c"u_tex".as_ptr()), 5);
        bind_textures(4, 2, [red, green].as_ptr());
        draw(GL_TRIANGLE_STRIP, 0, 4);
        expect(0);
    }
    assert_eq!(read_rgba(16, 16, 1, 1), [0, 255, 0, 255]);
}

/// A framebuffer whose colour attachment is the 2×1 texture `t`, bound.
fn framebuffer_of(t: u32) {
    let create = gl!(c"glCreateFramebuffers": fn(i32, *mut u32));
    let attach = gl!(c"glNamedFramebufferTexture": fn(u32, u32, u32, i32));
    let bind = gl!(c"glBindFramebuffer": fn(u32, u32));
    let fb = names(create, 1)[0];
    // SAFETY: live objects.
    unsafe {
        attach(fb, GL_COLOR_ATTACHMENT0, t, 0);
        bind(GL_FRAMEBUFFER, fb);
    }
}

#[test]
fn texture_barrier_lets_a_draw_read_what_the_last_one_wrote() {
    let _c = context_4_2();
    let barrier = gl!(c"glTextureBarrier": fn());
    let viewport = gl!(c"glViewport": fn(i32, i32, i32, i32));
    let use_program = gl!(c"glUseProgram": fn(u32));
    let bind_unit = gl!(c"glBindTextureUnit": fn(u32, u32));
    let param = gl!(c"glTextureParameteri": fn(u32, u32, i32));
    let draw = gl!(c"glDrawArrays": fn(u32, i32, i32));
    let gen_vao = gl!(c"glGenVertexArrays": fn(i32, *mut u32));
    let bind_vao = gl!(c"glBindVertexArray": fn(u32));
    let clear_color = gl!(c"glClearColor": fn(f32, f32, f32, f32));
    let clear = gl!(c"glClear": fn(u32));
    // Each draw adds a quarter to the texel it reads and writes (a ping-pong in one texture).
    let p = program(
        "#version 330 core\nvoid main() {\n\
         vec2 c[4] = vec2[](vec2(-1,-1), vec2(1,-1), vec2(-1,1), vec2(1,1));\n\
         gl_Position = vec4(c[gl_VertexID], 0.0, 1.0); }\n",
        "#version 330 core\nuniform sampler2D u_tex;\nout vec4 c;\n\
         void main() { c = texelFetch(u_tex, ivec2(gl_FragCoord.xy), 0) + vec4(0.25, 0.0, 0.0, 0.0); }\n",
    );
    let t = texture(GL_TEXTURE_2D, 2, 1);
    // SAFETY: live objects; `u_tex` reads unit 0.
    unsafe {
        param(t, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        framebuffer_of(t);
        viewport(0, 0, 2, 1);
        clear_color(0.0, 0.0, 0.0, 1.0);
        clear(GL_COLOR_BUFFER_BIT);
        bind_vao(names(gen_vao, 1)[0]);
        use_program(p);
        bind_unit(0, t);
        for _ in 0..3 {
            barrier();
            draw(GL_TRIANGLE_STRIP, 0, 4);
        }
        expect(0);
    }
    let px = read_rgba(0, 0, 2, 1);
    // 3 × 0.25 of red, on both texels.
    assert!(
        px[0].abs_diff(191) <= 1 && px[4].abs_diff(191) <= 1,
        "{px:?}"
    );
}

#[test]
fn inverted_conditional_render_draws_when_the_query_saw_nothing() {
    let _c = context_4_2();
    let gen_queries = gl!(c"glGenQueries": fn(i32, *mut u32));
    let begin_query = gl!(c"glBeginQuery": fn(u32, u32));
    let end_query = gl!(c"glEndQuery": fn(u32));
    let begin = gl!(c"glBeginConditionalRender": fn(u32, u32));
    let end = gl!(c"glEndConditionalRender": fn());
    let clear_color = gl!(c"glClearColor": fn(f32, f32, f32, f32));
    let clear = gl!(c"glClear": fn(u32));
    let q = names(gen_queries, 1)[0];
    // SAFETY: live query; clears are the conditional commands drawn here.
    unsafe {
        // A query around nothing: it saw no samples.
        begin_query(GL_SAMPLES_PASSED, q);
        end_query(GL_SAMPLES_PASSED);
        clear_color(0.0, 0.0, 1.0, 1.0);
        clear(GL_COLOR_BUFFER_BIT);
        for (mode, rgba, drawn) in [
            (GL_QUERY_WAIT, [1.0, 0.0, 0.0, 1.0], false),
            (GL_QUERY_WAIT_INVERTED, [0.0, 1.0, 0.0, 1.0], true),
            (GL_QUERY_NO_WAIT_INVERTED, [1.0, 1.0, 0.0, 1.0], true),
        ] {
            let before = read_rgba(3, 3, 1, 1);
            begin(q, mode);
            clear_color(rgba[0], rgba[1], rgba[2], rgba[3]);
            clear(GL_COLOR_BUFFER_BIT);
            end();
            expect(0);
            let want: Vec<u8> = if drawn {
                rgba.iter().map(|&v| (v * 255.0) as u8).collect()
            } else {
                before
            };
            assert_eq!(read_rgba(3, 3, 1, 1), want, "mode 0x{mode:04X}");
        }
        begin(q, 0x8E1B);
        expect(GL_INVALID_ENUM);
    }
}

/// `v` as the 11-bit unsigned float of GL_ARB_vertex_type_10f_11f_11f_rev (`mantissa` bits 6)
/// or the 10-bit one (5): exact for the values used here (0, ½, 1 and powers of two).
fn small_float(v: f32, mantissa: u32) -> u32 {
    if v == 0.0 {
        return 0;
    }
    let exponent = (v.log2().floor() as i32 + 15) as u32;
    let fraction = v / 2f32.powi(exponent as i32 - 15) - 1.0;
    (exponent << mantissa) | (fraction * (1 << mantissa) as f32) as u32
}

fn packed_rgb(r: f32, g: f32, b: f32) -> u32 {
    small_float(r, 6) | (small_float(g, 6) << 11) | (small_float(b, 5) << 22)
}

#[test]
fn packed_float_vertex_colours_reach_the_fragments() {
    const GL_UNSIGNED_INT_10F_11F_11F_REV: u32 = 0x8C3B;
    const GL_BGRA: i32 = 0x80E1;
    let _c = context_4_2();
    let gen_vao = gl!(c"glGenVertexArrays": fn(i32, *mut u32));
    let bind_vao = gl!(c"glBindVertexArray": fn(u32));
    let bind_buffer = gl!(c"glBindBuffer": fn(u32, u32));
    let pointer = gl!(c"glVertexAttribPointer": fn(u32, i32, u32, u8, i32, *const c_void));
    let ipointer = gl!(c"glVertexAttribIPointer": fn(u32, i32, u32, i32, *const c_void));
    let enable = gl!(c"glEnableVertexAttribArray": fn(u32));
    let p3ui = gl!(c"glVertexAttribP3ui": fn(u32, u32, u8, u32));
    let p4ui = gl!(c"glVertexAttribP4ui": fn(u32, u32, u8, u32));
    let get_attrib = gl!(c"glGetVertexAttribfv": fn(u32, u32, *mut f32));
    let data = gl!(c"glNamedBufferSubData": fn(u32, isize, isize, *const c_void));
    let use_program = gl!(c"glUseProgram": fn(u32));
    let draw = gl!(c"glDrawArrays": fn(u32, i32, i32));
    let p = gl_harness::program_with(
        "#version 330 core\nlayout(location = 0) in vec2 p;\nlayout(location = 1) in vec3 c;\n\
         out vec3 v;\nvoid main() { v = c; gl_Position = vec4(p, 0.0, 1.0); }\n",
        "#version 330 core\nin vec3 v;\nout vec4 o;\nvoid main() { o = vec4(v, 1.0); }\n",
        |_| {},
    );
    let b = buffers(2);
    let quad: [f32; 8] = [-1.0, -1.0, 1.0, -1.0, -1.0, 1.0, 1.0, 1.0];
    let colours = [packed_rgb(1.0, 0.5, 0.0); 4];
    // SAFETY: the arrays fit the 1024-byte buffers; pointers are buffer offsets.
    unsafe {
        data(b[0], 0, 32, quad.as_ptr().cast());
        data(b[1], 0, 16, colours.as_ptr().cast());
        bind_vao(names(gen_vao, 1)[0]);
        bind_buffer(GL_ARRAY_BUFFER, b[0]);
        pointer(0, 2, GL_FLOAT, 0, 0, null());
        bind_buffer(GL_ARRAY_BUFFER, b[1]);
        pointer(1, 2, GL_UNSIGNED_INT_10F_11F_11F_REV, 0, 0, null());
        expect(GL_INVALID_OPERATION); // size 3 only
        pointer(1, GL_BGRA, GL_UNSIGNED_INT_10F_11F_11F_REV, 0, 0, null());
        expect(GL_INVALID_OPERATION);
        ipointer(1, 3, GL_UNSIGNED_INT_10F_11F_11F_REV, 0, null());
        expect(GL_INVALID_ENUM);
        pointer(1, 3, GL_UNSIGNED_INT_10F_11F_11F_REV, 0, 0, null());
        expect(0);
        enable(0);
        enable(1);
        use_program(p);
        draw(GL_TRIANGLE_STRIP, 0, 4);
        expect(0);
        // The current value through glVertexAttribP3ui (P4 does not take the type).
        p3ui(
            2,
            GL_UNSIGNED_INT_10F_11F_11F_REV,
            1,
            packed_rgb(0.25, 2.0, 0.5),
        );
        expect(0);
        let mut v = [0.0f32; 4];
        get_attrib(2, 0x8626, v.as_mut_ptr()); // GL_CURRENT_VERTEX_ATTRIB
        assert_eq!(v, [0.25, 2.0, 0.5, 1.0]);
        p4ui(2, GL_UNSIGNED_INT_10F_11F_11F_REV, 0, 0);
        expect(GL_INVALID_ENUM);
    }
    let px = read_rgba(16, 16, 1, 1);
    assert!(
        px[0] == 255 && px[1].abs_diff(128) <= 1 && px[2] == 0,
        "{px:?}"
    );
}

#[test]
fn robust_reads_refuse_to_write_past_the_buffer() {
    let _c = context_4_2();
    let readn = gl!(c"glReadnPixels": fn(i32, i32, i32, i32, u32, u32, i32, *mut c_void));
    let readn_khr = gl!(c"glReadnPixelsKHR": fn(i32, i32, i32, i32, u32, u32, i32, *mut c_void));
    let getn = gl!(c"glGetnUniformfv": fn(u32, i32, i32, *mut f32));
    let use_program = gl!(c"glUseProgram": fn(u32));
    let uniform = gl!(c"glUniform4f": fn(i32, f32, f32, f32, f32));
    let location = gl!(c"glGetUniformLocation": fn(u32, *const std::ffi::c_char) -> i32);
    let clear_color = gl!(c"glClearColor": fn(f32, f32, f32, f32));
    let clear = gl!(c"glClear": fn(u32));
    let get_boolean = gl!(c"glGetBooleanv": fn(u32, *mut u8));
    let p = program(
        "#version 330 core\nvoid main() { gl_Position = vec4(0.0); }\n",
        "#version 330 core\nuniform vec4 u;\nout vec4 c;\nvoid main() { c = u; }\n",
    );
    let mut px = [7u8; 16];
    let mut v = [0.0f32; 4];
    // SAFETY: `px` holds 16 bytes and `v` 16; the sizes passed say so or less.
    unsafe {
        clear_color(0.0, 1.0, 0.0, 1.0);
        clear(GL_COLOR_BUFFER_BIT);
        readn(
            0,
            0,
            2,
            2,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            15,
            px.as_mut_ptr().cast(),
        );
        expect(GL_INVALID_OPERATION);
        assert_eq!(px, [7; 16], "nothing written");
        readn_khr(
            0,
            0,
            2,
            2,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            16,
            px.as_mut_ptr().cast(),
        );
        expect(0);
        assert_eq!(px[..4], [0, 255, 0, 255]);
        use_program(p);
        let u = location(p, c"u".as_ptr());
        uniform(u, 1.0, 2.0, 3.0, 4.0);
        getn(p, u, 12, v.as_mut_ptr());
        expect(GL_INVALID_OPERATION);
        assert_eq!(v, [0.0; 4]);
        getn(p, u, 16, v.as_mut_ptr());
        expect(0);
        assert_eq!(v, [1.0, 2.0, 3.0, 4.0]);
        let mut robust = 9;
        get_boolean(0x90F3, &mut robust); // GL_CONTEXT_ROBUST_ACCESS
        expect(0);
        assert!(robust <= 1);
    }
}

// ---- Layered framebuffers, GL_ARB_cull_distance, GL_ARB_shader_texture_image_samples ----

const GL_VERTEX_SHADER: u32 = 0x8B31;
const GL_GEOMETRY_SHADER: u32 = 0x8DD9;
const GL_FRAGMENT_SHADER: u32 = 0x8B30;
const GL_TEXTURE_CUBE_MAP: u32 = 0x8513;
const GL_TEXTURE_CUBE_MAP_POSITIVE_X: u32 = 0x8515;
const GL_TEXTURE_2D_MULTISAMPLE: u32 = 0x9100;
const GL_READ_FRAMEBUFFER: u32 = 0x8CA8;
const GL_DRAW_FRAMEBUFFER: u32 = 0x8CA9;
const GL_COLOR_ATTACHMENT1: u32 = 0x8CE1;
const GL_FRAMEBUFFER_COMPLETE: u32 = 0x8CD5;
const GL_FRAMEBUFFER_INCOMPLETE_LAYER_TARGETS: u32 = 0x8DA8;
const GL_FRAMEBUFFER_ATTACHMENT_LAYERED: u32 = 0x8DA7;
const GL_FRAMEBUFFER_ATTACHMENT_TEXTURE_LAYER: u32 = 0x8CD4;
const GL_TRIANGLES: u32 = 0x0004;
const GL_MAX_CULL_DISTANCES: u32 = 0x82F9;
const GL_MAX_COMBINED_CLIP_AND_CULL_DISTANCES: u32 = 0x82FA;

/// Links the `stages` (shader type, source) into a program: the program and whether it linked.
fn link(stages: &[(u32, &str)]) -> (u32, bool) {
    let create = gl!(c"glCreateShader": fn(u32) -> u32);
    let source = gl!(c"glShaderSource": fn(u32, i32, *const *const std::ffi::c_char, *const i32));
    let compile = gl!(c"glCompileShader": fn(u32));
    let create_program = gl!(c"glCreateProgram": fn() -> u32);
    let attach = gl!(c"glAttachShader": fn(u32, u32));
    let link = gl!(c"glLinkProgram": fn(u32));
    let get = gl!(c"glGetProgramiv": fn(u32, u32, *mut i32));
    // SAFETY: NUL-terminated sources with NULL lengths; the out-pointer is a local.
    unsafe {
        let p = create_program();
        for &(ty, src) in stages {
            let s = create(ty);
            let c = std::ffi::CString::new(src).expect("no NUL");
            source(s, 1, &c.as_ptr(), null());
            compile(s);
            attach(p, s);
            let shader_status = gl!(c"glGetShaderiv": fn(u32, u32, *mut i32));
            let mut compiled = 0;
            shader_status(s, 0x8B81, &mut compiled);
            if compiled != 1 {
                let log = gl!(c"glGetShaderInfoLog": fn(u32, i32, *mut i32, *mut u8));
                eprintln!("compile log: {}", info_log(log, s));
            }
        }
        link(p);
        let mut ok = 0;
        get(p, 0x8B82, &mut ok);
        if ok != 1 {
            let log = gl!(c"glGetProgramInfoLog": fn(u32, i32, *mut i32, *mut u8));
            eprintln!("link log: {}", info_log(log, p));
        }
        (p, ok == 1)
    }
}

/// The info log of shader or program `object`, through `get_log` (`glGet*InfoLog`).
fn info_log(get_log: unsafe extern "C" fn(u32, i32, *mut i32, *mut u8), object: u32) -> String {
    let mut text = vec![0u8; 4096];
    let mut len = 0;
    // SAFETY: `text` holds the 4096 bytes the call may write; `len` is a local.
    unsafe { get_log(object, 4096, &mut len, text.as_mut_ptr()) };
    String::from_utf8_lossy(&text[..len.clamp(0, 4096) as usize]).into_owned()
}

/// A texture of `target` made by `glCreateTextures`.
fn new_texture(target: u32) -> u32 {
    let create = gl!(c"glCreateTextures": fn(u32, i32, *mut u32));
    let mut t = 0;
    // SAFETY: room for one name.
    unsafe { create(target, 1, &mut t) };
    t
}

/// A bound empty vertex array (core profile draws need one; the shaders make the vertices).
fn bind_empty_vertex_array() {
    let create = gl!(c"glCreateVertexArrays": fn(i32, *mut u32));
    let bind = gl!(c"glBindVertexArray": fn(u32));
    let vao = names(create, 1)[0];
    // SAFETY: a name glCreateVertexArrays made.
    unsafe { bind(vao) };
}

/// A framebuffer object with `texture` (level 0) as its one colour attachment, through
/// `glNamedFramebufferTexture`: layered for a whole array or cube texture.
fn framebuffer_of_whole(texture: u32) -> u32 {
    let create = gl!(c"glCreateFramebuffers": fn(i32, *mut u32));
    let attach = gl!(c"glNamedFramebufferTexture": fn(u32, u32, u32, i32));
    let fb = names(create, 1)[0];
    // SAFETY: names this test made.
    unsafe { attach(fb, GL_COLOR_ATTACHMENT0, texture, 0) };
    fb
}

fn framebuffer_status(fb: u32) -> u32 {
    let check = gl!(c"glCheckNamedFramebufferStatus": fn(u32, u32) -> u32);
    // SAFETY: a framebuffer name.
    unsafe { check(fb, GL_FRAMEBUFFER) }
}

fn attachment_parameter(fb: u32, attachment: u32, pname: u32) -> i32 {
    let get = gl!(c"glGetNamedFramebufferAttachmentParameteriv": fn(u32, u32, u32, *mut i32));
    let mut v = -1;
    // SAFETY: one integer out.
    unsafe { get(fb, attachment, pname, &mut v) };
    v
}

/// The centre pixel of layer `layer` of level 0 of the 2D array `texture`, read through a
/// framebuffer that attaches that layer alone.
fn array_layer_pixel(texture: u32, layer: i32, size: i32) -> [u8; 4] {
    let create = gl!(c"glCreateFramebuffers": fn(i32, *mut u32));
    let attach = gl!(c"glNamedFramebufferTextureLayer": fn(u32, u32, u32, i32, i32));
    let bind = gl!(c"glBindFramebuffer": fn(u32, u32));
    let fb = names(create, 1)[0];
    // SAFETY: names this test made.
    unsafe {
        attach(fb, GL_COLOR_ATTACHMENT0, texture, 0, layer);
        bind(GL_READ_FRAMEBUFFER, fb);
    }
    assert_eq!(
        attachment_parameter(fb, GL_COLOR_ATTACHMENT0, GL_FRAMEBUFFER_ATTACHMENT_LAYERED),
        0,
        "glFramebufferTextureLayer attaches one layer"
    );
    let px = read_rgba(size / 2, size / 2, 1, 1);
    [px[0], px[1], px[2], px[3]]
}

const FULLSCREEN_VS: &str = "#version 150\n\
    void main() {\n\
      vec2 p = vec2(float(gl_VertexID == 1) * 4.0 - 1.0, float(gl_VertexID == 2) * 4.0 - 1.0);\n\
      gl_Position = vec4(p, 0.0, 1.0);\n\
    }\n";

const COLOR_FS: &str = "#version 150\nin vec4 color;\nout vec4 frag;\n\
    void main() { frag = color; }\n";

/// Each of the first three layers gets the triangle once, in a colour of its own; layer 3 is
/// left alone.
const LAYERS_GS: &str = "#version 150\n\
    layout(triangles) in;\n\
    layout(triangle_strip, max_vertices = 9) out;\n\
    out vec4 color;\n\
    void main() {\n\
      for (int layer = 0; layer < 3; layer++) {\n\
        for (int i = 0; i < 3; i++) {\n\
          gl_Layer = layer;\n\
          color = vec4(float(layer) * 0.25, 1.0 - float(layer) * 0.25, 0.0, 1.0);\n\
          gl_Position = gl_in[i].gl_Position;\n\
          EmitVertex();\n\
        }\n\
        EndPrimitive();\n\
      }\n\
    }\n";

#[test]
fn a_layered_framebuffer_renders_where_gl_layer_says_and_clears_every_layer() {
    let _c = context_4_2();
    const SIZE: i32 = 8;
    let storage3 = gl!(c"glTextureStorage3D": fn(u32, i32, u32, i32, i32, i32));
    let bind_fb = gl!(c"glBindFramebuffer": fn(u32, u32));
    let viewport = gl!(c"glViewport": fn(i32, i32, i32, i32));
    let clear_color = gl!(c"glClearColor": fn(f32, f32, f32, f32));
    let clear = gl!(c"glClear": fn(u32));
    let use_program = gl!(c"glUseProgram": fn(u32));
    let draw = gl!(c"glDrawArrays": fn(u32, i32, i32));
    let array = new_texture(GL_TEXTURE_2D_ARRAY);
    // SAFETY: a texture this test made.
    unsafe { storage3(array, 1, GL_RGBA8, SIZE, SIZE, 4) };
    let fb = framebuffer_of_whole(array);
    expect(0);
    assert_eq!(framebuffer_status(fb), GL_FRAMEBUFFER_COMPLETE);
    assert_eq!(
        attachment_parameter(fb, GL_COLOR_ATTACHMENT0, GL_FRAMEBUFFER_ATTACHMENT_LAYERED),
        1
    );
    assert_eq!(
        attachment_parameter(
            fb,
            GL_COLOR_ATTACHMENT0,
            GL_FRAMEBUFFER_ATTACHMENT_TEXTURE_LAYER
        ),
        0
    );
    let (p, linked) = link(&[
        (GL_VERTEX_SHADER, FULLSCREEN_VS),
        (GL_GEOMETRY_SHADER, LAYERS_GS),
        (GL_FRAGMENT_SHADER, COLOR_FS),
    ]);
    assert!(linked, "the layer-selecting program links");
    bind_empty_vertex_array();
    // SAFETY: objects this test made; plain state calls.
    unsafe {
        bind_fb(GL_DRAW_FRAMEBUFFER, fb);
        viewport(0, 0, SIZE, SIZE);
        clear_color(0.0, 0.0, 1.0, 1.0);
        clear(GL_COLOR_BUFFER_BIT);
        use_program(p);
        draw(GL_TRIANGLES, 0, 3);
    }
    expect(0);
    let drawn = [[0, 255, 0, 255], [64, 191, 0, 255], [128, 128, 0, 255]];
    for (layer, want) in drawn.iter().enumerate() {
        let got = array_layer_pixel(array, layer as i32, SIZE);
        gl_harness::assert_rgba8_near(got, *want, &format!("layer {layer}"));
    }
    assert_eq!(
        array_layer_pixel(array, 3, SIZE),
        [0, 0, 255, 255],
        "the clear reached the layer no primitive chose"
    );
}

#[test]
fn a_whole_cube_map_attaches_six_faces_and_mixed_layering_is_incomplete() {
    let _c = context_4_2();
    let storage2 = gl!(c"glTextureStorage2D": fn(u32, i32, u32, i32, i32));
    let attach = gl!(c"glNamedFramebufferTexture": fn(u32, u32, u32, i32));
    let attach_face = gl!(c"glFramebufferTexture2D": fn(u32, u32, u32, u32, i32));
    let bind_fb = gl!(c"glBindFramebuffer": fn(u32, u32));
    let viewport = gl!(c"glViewport": fn(i32, i32, i32, i32));
    let clear_color = gl!(c"glClearColor": fn(f32, f32, f32, f32));
    let clear = gl!(c"glClear": fn(u32));
    let cube = new_texture(GL_TEXTURE_CUBE_MAP);
    let flat = texture(GL_TEXTURE_2D, 4, 4);
    // SAFETY: a texture this test made.
    unsafe { storage2(cube, 1, GL_RGBA8, 4, 4) };
    let fb = framebuffer_of_whole(cube);
    assert_eq!(framebuffer_status(fb), GL_FRAMEBUFFER_COMPLETE);
    // SAFETY: objects this test made; plain state calls.
    unsafe {
        bind_fb(GL_FRAMEBUFFER, fb);
        viewport(0, 0, 4, 4);
        clear_color(1.0, 0.0, 1.0, 1.0);
        clear(GL_COLOR_BUFFER_BIT);
        // A layered and a non-layered attachment together (GL 4.6 §9.4.2).
        attach(fb, GL_COLOR_ATTACHMENT1, flat, 0);
    }
    expect(0);
    assert_eq!(
        framebuffer_status(fb),
        GL_FRAMEBUFFER_INCOMPLETE_LAYER_TARGETS
    );
    // SAFETY: as above.
    unsafe { attach(fb, GL_COLOR_ATTACHMENT1, 0, 0) };
    for face in 0..6 {
        // SAFETY: as above; each face alone is an ordinary attachment.
        unsafe {
            attach_face(
                GL_FRAMEBUFFER,
                GL_COLOR_ATTACHMENT0,
                GL_TEXTURE_CUBE_MAP_POSITIVE_X + face,
                cube,
                0,
            )
        };
        let px = read_rgba(2, 2, 1, 1);
        assert_eq!(px, [255, 0, 255, 255], "face {face} was cleared");
    }
    // A buffer texture has no image to attach.
    let buffer_texture = new_texture(0x8C2A); // GL_TEXTURE_BUFFER
                                              // SAFETY: as above.
    unsafe { attach(fb, GL_COLOR_ATTACHMENT0, buffer_texture, 0) };
    expect(GL_INVALID_OPERATION);
}

const CULL_FS: &str =
    "#version 150\nout vec4 frag;\nvoid main() { frag = vec4(1.0, 1.0, 0.0, 1.0); }\n";

#[test]
fn cull_distances_cull_whole_primitives_within_the_limits() {
    let _c = context_4_2();
    assert_eq!(integer(GL_MAX_CULL_DISTANCES), 8);
    assert_eq!(integer(GL_MAX_COMBINED_CLIP_AND_CULL_DISTANCES), 8);
    // Instance 0 covers the left half with a negative distance at every vertex (culled);
    // instance 1 the right half, with a distance negative at one vertex only (kept whole).
    let vs = "#version 130\n#extension GL_ARB_cull_distance : require\n\
        out float gl_CullDistance[2];\n\
        const vec2 corner[3] = vec2[3](vec2(-1.0, -1.0), vec2(0.0, -1.0), vec2(-1.0, 1.0));\n\
        void main() {\n\
          gl_Position = vec4(corner[gl_VertexID] + vec2(float(gl_InstanceID), 0.0), 0.0, 1.0);\n\
          gl_CullDistance[0] = 1.0;\n\
          bool all_out = gl_InstanceID == 0;\n\
          gl_CullDistance[1] = all_out || gl_VertexID == 0 ? -1.0 : 1.0;\n\
        }\n";
    let (p, linked) = link(&[(GL_VERTEX_SHADER, vs), (GL_FRAGMENT_SHADER, CULL_FS)]);
    assert!(linked, "a GLSL 1.30 unit enabling the extension links");
    let use_program = gl!(c"glUseProgram": fn(u32));
    let draw = gl!(c"glDrawArraysInstanced": fn(u32, i32, i32, i32));
    let clear_color = gl!(c"glClearColor": fn(f32, f32, f32, f32));
    let clear = gl!(c"glClear": fn(u32));
    bind_empty_vertex_array();
    // SAFETY: a program this test linked; plain state calls.
    unsafe {
        clear_color(0.0, 0.0, 0.0, 1.0);
        clear(GL_COLOR_BUFFER_BIT);
        use_program(p);
        draw(GL_TRIANGLES, 0, 3, 2);
    }
    expect(0);
    // The triangles' right angles are at (-1, -1) and (0, -1).
    assert_eq!(read_rgba(2, 2, 1, 1), [0, 0, 0, 255], "instance 0 culled");
    assert_eq!(
        read_rgba(18, 2, 1, 1),
        [255, 255, 0, 255],
        "instance 1 kept"
    );
    let over = "#version 130\n#extension GL_ARB_cull_distance : require\n\
        out float gl_CullDistance[5];\nout float gl_ClipDistance[5];\n\
        void main() { gl_Position = vec4(0.0); }\n";
    let (_, linked) = link(&[(GL_VERTEX_SHADER, over), (GL_FRAGMENT_SHADER, CULL_FS)]);
    assert!(!linked, "10 clip and cull distances exceed the combined 8");
}

#[test]
fn texture_samples_answers_the_sample_count_below_glsl_4_30() {
    let _c = context_4_2();
    let storage = gl!(c"glTextureStorage2DMultisample": fn(u32, i32, u32, i32, i32, u8));
    let bind_unit = gl!(c"glBindTextureUnit": fn(u32, u32));
    let use_program = gl!(c"glUseProgram": fn(u32));
    let draw = gl!(c"glDrawArrays": fn(u32, i32, i32));
    let ms = new_texture(GL_TEXTURE_2D_MULTISAMPLE);
    // SAFETY: a texture this test made.
    unsafe {
        storage(ms, 4, GL_RGBA8, 4, 4, 1);
        bind_unit(0, ms);
    }
    let fs = "#version 150\n#extension GL_ARB_shader_texture_image_samples : require\n\
        uniform sampler2DMS s;\nout vec4 frag;\n\
        void main() { frag = vec4(float(textureSamples(s)) / 255.0, 0.0, 0.0, 1.0); }\n";
    let (p, linked) = link(&[(GL_VERTEX_SHADER, FULLSCREEN_VS), (GL_FRAGMENT_SHADER, fs)]);
    assert!(linked, "textureSamples compiles in GLSL 1.50");
    bind_empty_vertex_array();
    // SAFETY: a program this test linked.
    unsafe {
        use_program(p);
        draw(GL_TRIANGLES, 0, 3);
    }
    expect(0);
    assert_eq!(read_rgba(5, 5, 1, 1)[0], 4, "four samples");
}
