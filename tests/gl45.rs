//! GL 4.4 and 4.5 extensions through the C ABI, read back through queries and pixels:
//! GL_ARB_multi_bind (runs of bindings in one call, each binding refused on its own),
//! GL_ARB_texture_barrier (a draw reads what the draw before the barrier wrote into the texture
//! it renders to) and GL_ARB_conditional_render_inverted.

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
