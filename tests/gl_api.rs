//! The GL API through the C ABI: wrong use gets the error the GL 3.3 specification names and
//! never a crash, and state the scene comparisons do not isolate (masked clears) behaves. The built
//! `libarenagl.so` is loaded by path and every function is reached through `eglGetProcAddress`,
//! as a real program does. Each test makes its own context on a 32×32 pbuffer.

use std::ffi::{c_char, c_void, CStr};
use std::ptr::{null, null_mut};

#[macro_use]
#[path = "common/gl.rs"]
mod gl_harness;

use gl_harness::{context, error, expect, f, P};

const GL_NO_ERROR: u32 = 0;
const GL_INVALID_ENUM: u32 = 0x0500;
const GL_INVALID_VALUE: u32 = 0x0501;
const GL_INVALID_OPERATION: u32 = 0x0502;
const GL_INVALID_FRAMEBUFFER_OPERATION: u32 = 0x0506;
const GL_ARRAY_BUFFER: u32 = 0x8892;
const GL_STATIC_DRAW: u32 = 0x88E4;
const GL_TRIANGLES: u32 = 4;
const GL_UNSIGNED_SHORT: u32 = 0x1403;
const GL_FLOAT: u32 = 0x1406;
const GL_UNSIGNED_BYTE: u32 = 0x1401;
const GL_RGBA: u32 = 0x1908;
const GL_TEXTURE_2D: u32 = 0x0DE1;
const GL_VERTEX_SHADER: u32 = 0x8B31;
const GL_FRAGMENT_SHADER: u32 = 0x8B30;
const GL_COMPILE_STATUS: u32 = 0x8B81;
const GL_INFO_LOG_LENGTH: u32 = 0x8B84;
const GL_COLOR_BUFFER_BIT: u32 = 0x4000;
const GL_FRAMEBUFFER: u32 = 0x8D40;
const GL_FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT: u32 = 0x8CD7;
const GL_MAP_READ_BIT: u32 = 1;
const GL_MAP_INVALIDATE_RANGE_BIT: u32 = 4;

fn shader(ty: u32, src: &CStr) -> u32 {
    let create = gl!(c"glCreateShader": fn(u32) -> u32);
    let source = gl!(c"glShaderSource": fn(u32, i32, *const *const c_char, *const i32));
    let compile = gl!(c"glCompileShader": fn(u32));
    // SAFETY: one NUL-terminated string, lengths NULL.
    unsafe {
        let s = create(ty);
        let p = src.as_ptr();
        source(s, 1, &p, null());
        compile(s);
        s
    }
}

fn program(vs: &CStr, fs: &CStr) -> u32 {
    gl_harness::program(
        vs.to_str().expect("UTF-8 source"),
        fs.to_str().expect("UTF-8 source"),
    )
}

const VS: &CStr = c"#version 330 core\nlayout(location = 0) in vec2 pos;\nuniform int count;\nuniform vec3 tint;\nvoid main() { gl_Position = vec4(pos * float(count), 0.0, 1.0); }\n";
const FS: &CStr = c"#version 330 core\nuniform vec3 tint;\nuniform float gain;\nout vec4 color;\nvoid main() { color = vec4(tint * gain, 1.0); }\n";

#[test]
fn bad_enums_values_and_names_get_their_errors() {
    let _ctx = context();
    let enable = gl!(c"glEnable": fn(u32));
    let gen_buffers = gl!(c"glGenBuffers": fn(i32, *mut u32));
    let bind_buffer = gl!(c"glBindBuffer": fn(u32, u32));
    let buffer_data = gl!(c"glBufferData": fn(u32, isize, *const c_void, u32));
    let buffer_sub_data = gl!(c"glBufferSubData": fn(u32, isize, isize, *const c_void));
    let map_range = gl!(c"glMapBufferRange": fn(u32, isize, isize, u32) -> P);
    let viewport = gl!(c"glViewport": fn(i32, i32, i32, i32));
    let clear = gl!(c"glClear": fn(u32));
    let attrib = gl!(c"glVertexAttribPointer": fn(u32, i32, u32, u8, i32, *const c_void));
    let tex_image = gl!(c"glTexImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let gen_textures = gl!(c"glGenTextures": fn(i32, *mut u32));
    let bind_texture = gl!(c"glBindTexture": fn(u32, u32));
    let gen_vaos = gl!(c"glGenVertexArrays": fn(i32, *mut u32));
    let bind_vao = gl!(c"glBindVertexArray": fn(u32));
    // SAFETY: every pointer is a local of the right size or NULL where GL allows it.
    unsafe {
        assert_eq!(error(), GL_NO_ERROR);
        enable(0x1234);
        expect(GL_INVALID_ENUM);
        // The first error sticks until read.
        enable(0x1234);
        viewport(0, 0, -1, 4);
        expect(GL_INVALID_ENUM);

        gen_buffers(-1, null_mut());
        expect(GL_INVALID_VALUE);
        bind_buffer(GL_ARRAY_BUFFER, 4242);
        expect(GL_INVALID_OPERATION);
        bind_buffer(0x1234, 0);
        expect(GL_INVALID_ENUM);
        let mut b = 0;
        gen_buffers(1, &mut b);
        bind_buffer(GL_ARRAY_BUFFER, b);
        buffer_data(GL_ARRAY_BUFFER, -1, null(), GL_STATIC_DRAW);
        expect(GL_INVALID_VALUE);
        buffer_data(GL_ARRAY_BUFFER, 16, null(), 0x1234);
        expect(GL_INVALID_ENUM);
        let data = [0u8; 16];
        buffer_data(GL_ARRAY_BUFFER, 16, data.as_ptr().cast(), GL_STATIC_DRAW);
        expect(GL_NO_ERROR);
        buffer_sub_data(GL_ARRAY_BUFFER, 8, 16, data.as_ptr().cast());
        expect(GL_INVALID_VALUE);
        assert!(map_range(
            GL_ARRAY_BUFFER,
            0,
            8,
            GL_MAP_READ_BIT | GL_MAP_INVALIDATE_RANGE_BIT
        )
        .is_null());
        expect(GL_INVALID_OPERATION);
        assert!(map_range(GL_ARRAY_BUFFER, 4, 64, GL_MAP_READ_BIT).is_null());
        expect(GL_INVALID_VALUE);

        viewport(0, 0, -1, 4);
        expect(GL_INVALID_VALUE);
        clear(0x1);
        expect(GL_INVALID_VALUE);

        // Core profile: no VAO bound.
        attrib(0, 2, GL_FLOAT, 0, 0, null());
        expect(GL_INVALID_OPERATION);
        let mut vao = 0;
        gen_vaos(1, &mut vao);
        bind_vao(vao);
        attrib(99, 2, GL_FLOAT, 0, 0, null());
        expect(GL_INVALID_VALUE);
        attrib(0, 5, GL_FLOAT, 0, 0, null());
        expect(GL_INVALID_VALUE);
        attrib(0, 2, 0x1234, 0, 0, null());
        expect(GL_INVALID_ENUM);

        let mut t = 0;
        gen_textures(1, &mut t);
        bind_texture(GL_TEXTURE_2D, t);
        tex_image(
            GL_TEXTURE_2D,
            0,
            0x8058,
            4,
            4,
            1,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            null(),
        );
        expect(GL_INVALID_VALUE);
        tex_image(
            GL_TEXTURE_2D,
            0,
            0x8058,
            -4,
            4,
            0,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            null(),
        );
        expect(GL_INVALID_VALUE);
        tex_image(
            GL_TEXTURE_2D,
            0,
            0x8058,
            4,
            4,
            0,
            0x1234,
            GL_UNSIGNED_BYTE,
            null(),
        );
        expect(GL_INVALID_ENUM);
        tex_image(
            GL_TEXTURE_2D,
            0,
            0x8058,
            4,
            4,
            0,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            null(),
        );
        expect(GL_NO_ERROR);
    }
}

#[test]
fn draws_without_what_they_need_are_invalid_operations() {
    let _ctx = context();
    let draw_arrays = gl!(c"glDrawArrays": fn(u32, i32, i32));
    let draw_elements = gl!(c"glDrawElements": fn(u32, i32, u32, *const c_void));
    let use_program = gl!(c"glUseProgram": fn(u32));
    let gen_vaos = gl!(c"glGenVertexArrays": fn(i32, *mut u32));
    let bind_vao = gl!(c"glBindVertexArray": fn(u32));
    let gen_fbos = gl!(c"glGenFramebuffers": fn(i32, *mut u32));
    let bind_fbo = gl!(c"glBindFramebuffer": fn(u32, u32));
    let check = gl!(c"glCheckFramebufferStatus": fn(u32) -> u32);
    let clear = gl!(c"glClear": fn(u32));
    let create_program = gl!(c"glCreateProgram": fn() -> u32);
    // SAFETY: locals and NULL offsets only.
    unsafe {
        draw_arrays(GL_TRIANGLES, 0, 3);
        expect(GL_INVALID_OPERATION); // no program
        let p = program(VS, FS);
        use_program(p);
        draw_arrays(GL_TRIANGLES, 0, 3);
        expect(GL_INVALID_OPERATION); // no VAO (core)
        let mut vao = 0;
        gen_vaos(1, &mut vao);
        bind_vao(vao);
        draw_arrays(0x1234, 0, 3);
        expect(GL_INVALID_ENUM);
        draw_arrays(GL_TRIANGLES, 0, -1);
        expect(GL_INVALID_VALUE);
        draw_elements(GL_TRIANGLES, 3, GL_UNSIGNED_SHORT, null());
        expect(GL_INVALID_OPERATION); // no element buffer
        draw_elements(GL_TRIANGLES, 3, GL_FLOAT, null());
        expect(GL_INVALID_ENUM);
        draw_arrays(GL_TRIANGLES, 0, 3);
        expect(GL_NO_ERROR); // attribute 0 disabled: the current value is used

        let unlinked = create_program();
        use_program(unlinked);
        expect(GL_INVALID_OPERATION);

        let mut fbo = 0;
        gen_fbos(1, &mut fbo);
        bind_fbo(GL_FRAMEBUFFER, fbo);
        assert_eq!(
            check(GL_FRAMEBUFFER),
            GL_FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT
        );
        clear(GL_COLOR_BUFFER_BIT);
        expect(GL_INVALID_FRAMEBUFFER_OPERATION);
        draw_arrays(GL_TRIANGLES, 0, 3);
        expect(GL_INVALID_FRAMEBUFFER_OPERATION);
        bind_fbo(GL_FRAMEBUFFER, 0);
        clear(GL_COLOR_BUFFER_BIT);
        expect(GL_NO_ERROR);
    }
}

#[test]
fn uniform_type_mismatches_are_invalid_operations() {
    let _ctx = context();
    let use_program = gl!(c"glUseProgram": fn(u32));
    let location = gl!(c"glGetUniformLocation": fn(u32, *const c_char) -> i32);
    let u1f = gl!(c"glUniform1f": fn(i32, f32));
    let u1i = gl!(c"glUniform1i": fn(i32, i32));
    let u3f = gl!(c"glUniform3f": fn(i32, f32, f32, f32));
    let u4f = gl!(c"glUniform4f": fn(i32, f32, f32, f32, f32));
    let u3fv = gl!(c"glUniform3fv": fn(i32, i32, *const f32));
    let um4 = gl!(c"glUniformMatrix4fv": fn(i32, i32, u8, *const f32));
    let getf = gl!(c"glGetUniformfv": fn(u32, i32, *mut f32));
    // SAFETY: NUL-terminated names, locals.
    unsafe {
        let p = program(VS, FS);
        u1f(0, 1.0);
        expect(GL_INVALID_OPERATION); // no current program
        use_program(p);
        let count = location(p, c"count".as_ptr());
        let tint = location(p, c"tint".as_ptr());
        let gain = location(p, c"gain".as_ptr());
        assert!(
            count >= 0 && tint >= 0 && gain >= 0,
            "{count} {tint} {gain}"
        );
        assert_eq!(location(p, c"nothing".as_ptr()), -1);
        u1f(count, 1.0);
        expect(GL_INVALID_OPERATION); // float into int
        u1i(gain, 1);
        expect(GL_INVALID_OPERATION); // int into float
        u4f(tint, 1.0, 1.0, 1.0, 1.0);
        expect(GL_INVALID_OPERATION); // vec4 into vec3
        let v = [1.0f32; 6];
        u3fv(tint, 2, v.as_ptr());
        expect(GL_INVALID_OPERATION); // count 2 on a non-array
        um4(tint, 1, 0, v.as_ptr());
        expect(GL_INVALID_OPERATION); // matrix into vec3
        u3f(tint, 0.25, 0.5, 0.75);
        expect(GL_NO_ERROR);
        u1f(-1, 3.0);
        expect(GL_NO_ERROR); // location -1 is silently ignored
        u1f(9999, 3.0);
        expect(GL_INVALID_OPERATION);
        let mut out = [0f32; 3];
        getf(p, tint, out.as_mut_ptr());
        assert_eq!(out, [0.25, 0.5, 0.75]);
    }
}

#[test]
fn bad_shaders_report_logs_and_hostile_pointers_do_not_crash() {
    let _ctx = context();
    let get_shader = gl!(c"glGetShaderiv": fn(u32, u32, *mut i32));
    let log = gl!(c"glGetShaderInfoLog": fn(u32, i32, *mut i32, *mut c_char));
    let source = gl!(c"glShaderSource": fn(u32, i32, *const *const c_char, *const i32));
    let create_shader = gl!(c"glCreateShader": fn(u32) -> u32);
    let get_string = gl!(c"glGetString": fn(u32) -> *const u8);
    // SAFETY: locals, NULL where the calls must cope with it.
    unsafe {
        let s = shader(
            GL_FRAGMENT_SHADER,
            c"#version 330 core\nvoid main() { this is not glsl }\n",
        );
        let mut ok = 1;
        get_shader(s, GL_COMPILE_STATUS, &mut ok);
        assert_eq!(ok, 0);
        let mut len = 0;
        get_shader(s, GL_INFO_LOG_LENGTH, &mut len);
        assert!(len > 1);
        let mut buf = vec![0 as c_char; len as usize];
        let mut written = 0;
        log(s, len, &mut written, buf.as_mut_ptr());
        let text = CStr::from_ptr(buf.as_ptr()).to_string_lossy().into_owned();
        assert!(text.contains("ERROR"), "{text}");
        assert_eq!(written as usize, text.len());
        expect(GL_NO_ERROR);

        // NULL buffers and strings: errors or nothing, never a crash.
        log(s, 10, null_mut(), null_mut());
        source(s, 1, null(), null());
        let empty = create_shader(GL_VERTEX_SHADER);
        source(empty, -1, null(), null());
        expect(GL_INVALID_VALUE);
        get_shader(4242, GL_COMPILE_STATUS, &mut ok);
        expect(GL_INVALID_VALUE);
        assert!(get_string(0x1234).is_null());
        expect(GL_INVALID_ENUM);
        let version = CStr::from_ptr(get_string(0x1F02).cast())
            .to_string_lossy()
            .into_owned();
        // 3.3, or the 4.x the device's extensions and limits complete (`context/version.rs`).
        assert!(
            version.starts_with("3.3") || version.starts_with("4."),
            "{version}"
        );
    }
}

#[test]
fn a_clear_under_a_partial_colour_mask_writes_only_the_unmasked_channels() {
    let _ctx = context();
    let clear_color = gl!(c"glClearColor": fn(f32, f32, f32, f32));
    let clear = gl!(c"glClear": fn(u32));
    let color_mask = gl!(c"glColorMask": fn(u8, u8, u8, u8));
    let scissor = gl!(c"glScissor": fn(i32, i32, i32, i32));
    let enable = gl!(c"glEnable": fn(u32));
    let read = gl!(c"glReadPixels": fn(i32, i32, i32, i32, u32, u32, *mut c_void));
    const GL_SCISSOR_TEST: u32 = 0x0C11;
    // SAFETY: `px` holds 32×32 RGBA8 pixels (pack alignment 4 divides the row).
    unsafe {
        clear_color(1.0, 0.0, 0.0, 1.0);
        clear(GL_COLOR_BUFFER_BIT);
        color_mask(0, 1, 0, 0);
        clear_color(0.0, 1.0, 1.0, 0.0);
        enable(GL_SCISSOR_TEST);
        scissor(0, 0, 16, 32); // the left half
        clear(GL_COLOR_BUFFER_BIT);
        let mut px = vec![0u8; 32 * 32 * 4];
        read(
            0,
            0,
            32,
            32,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            px.as_mut_ptr().cast(),
        );
        expect(GL_NO_ERROR);
        let at = |x: usize, y: usize| &px[(y * 32 + x) * 4..(y * 32 + x) * 4 + 4];
        assert_eq!(
            at(4, 4),
            [255, 255, 0, 255],
            "left: red kept, green written, blue/alpha masked"
        );
        assert_eq!(at(28, 4), [255, 0, 0, 255], "right: outside the scissor");
    }
}

const MOVING_VS: &CStr = c"#version 330 core\nlayout(location = 0) in vec2 pos;\nvoid main() { gl_Position = vec4(pos, 0.0, 1.0); }\n";
const WHITE_FS: &CStr = c"#version 330 core\nout vec4 color;\nvoid main() { color = vec4(1.0); }\n";

/// Two triangles covering the left (x < 0) or the right (x > 0) half of the viewport.
fn half(left: bool) -> [f32; 12] {
    let (a, b) = if left { (-1.0, 0.0) } else { (0.0, 1.0) };
    [a, -1.0, b, -1.0, a, 1.0, b, -1.0, b, 1.0, a, 1.0]
}

#[test]
fn updating_a_buffer_between_draws_leaves_earlier_draws_their_data() {
    let _ctx = context();
    let gen_buffers = gl!(c"glGenBuffers": fn(i32, *mut u32));
    let bind_buffer = gl!(c"glBindBuffer": fn(u32, u32));
    let buffer_data = gl!(c"glBufferData": fn(u32, isize, *const c_void, u32));
    let buffer_sub_data = gl!(c"glBufferSubData": fn(u32, isize, isize, *const c_void));
    let get_sub_data = gl!(c"glGetBufferSubData": fn(u32, isize, isize, *mut c_void));
    let copy = gl!(c"glCopyBufferSubData": fn(u32, u32, isize, isize, isize));
    let gen_vaos = gl!(c"glGenVertexArrays": fn(i32, *mut u32));
    let bind_vao = gl!(c"glBindVertexArray": fn(u32));
    let enable_attrib = gl!(c"glEnableVertexAttribArray": fn(u32));
    let attrib = gl!(c"glVertexAttribPointer": fn(u32, i32, u32, u8, i32, *const c_void));
    let use_program = gl!(c"glUseProgram": fn(u32));
    let draw_arrays = gl!(c"glDrawArrays": fn(u32, i32, i32));
    let clear_color = gl!(c"glClearColor": fn(f32, f32, f32, f32));
    let clear = gl!(c"glClear": fn(u32));
    let read = gl!(c"glReadPixels": fn(i32, i32, i32, i32, u32, u32, *mut c_void));
    const GL_COPY_READ_BUFFER: u32 = 0x8F36;
    // SAFETY: locals of the stated sizes; the buffer holds the 6 vertices every draw reads.
    unsafe {
        let p = program(MOVING_VS, WHITE_FS);
        use_program(p);
        let mut vao = 0;
        gen_vaos(1, &mut vao);
        bind_vao(vao);
        let mut buffers = [0u32; 2];
        gen_buffers(2, buffers.as_mut_ptr());
        bind_buffer(GL_ARRAY_BUFFER, buffers[0]);
        let left = half(true);
        buffer_data(GL_ARRAY_BUFFER, 48, left.as_ptr().cast(), GL_STATIC_DRAW);
        enable_attrib(0);
        attrib(0, 2, GL_FLOAT, 0, 0, null());
        clear_color(0.0, 0.0, 0.0, 1.0);
        clear(GL_COLOR_BUFFER_BIT);
        draw_arrays(GL_TRIANGLES, 0, 6); // must read the left half's vertices…
        let right = half(false);
        buffer_sub_data(GL_ARRAY_BUFFER, 0, 48, right.as_ptr().cast()); // …not these
        draw_arrays(GL_TRIANGLES, 0, 6);
        let mut px = vec![0u8; 32 * 32 * 4];
        read(
            0,
            0,
            32,
            32,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            px.as_mut_ptr().cast(),
        );
        expect(GL_NO_ERROR);
        let at = |x: usize| px[(16 * 32 + x) * 4];
        assert_eq!(
            (at(4), at(28)),
            (255, 255),
            "both halves drawn: each draw kept its data"
        );

        let mut back = [0f32; 12];
        get_sub_data(GL_ARRAY_BUFFER, 0, 48, back.as_mut_ptr().cast());
        assert_eq!(back, right);
        // A copy into a second buffer, read back through its own binding.
        bind_buffer(GL_COPY_READ_BUFFER, buffers[0]);
        bind_buffer(GL_ARRAY_BUFFER, buffers[1]);
        buffer_data(GL_ARRAY_BUFFER, 48, null(), GL_STATIC_DRAW);
        copy(GL_COPY_READ_BUFFER, GL_ARRAY_BUFFER, 8, 0, 40);
        get_sub_data(GL_ARRAY_BUFFER, 0, 40, back.as_mut_ptr().cast());
        assert_eq!(back[..10], right[2..]);
        expect(GL_NO_ERROR);
    }
}

#[test]
fn a_line_loop_closes_back_to_its_first_vertex() {
    let _ctx = context();
    let gen_buffers = gl!(c"glGenBuffers": fn(i32, *mut u32));
    let bind_buffer = gl!(c"glBindBuffer": fn(u32, u32));
    let buffer_data = gl!(c"glBufferData": fn(u32, isize, *const c_void, u32));
    let gen_vaos = gl!(c"glGenVertexArrays": fn(i32, *mut u32));
    let bind_vao = gl!(c"glBindVertexArray": fn(u32));
    let enable_attrib = gl!(c"glEnableVertexAttribArray": fn(u32));
    let attrib = gl!(c"glVertexAttribPointer": fn(u32, i32, u32, u8, i32, *const c_void));
    let use_program = gl!(c"glUseProgram": fn(u32));
    let draw_arrays = gl!(c"glDrawArrays": fn(u32, i32, i32));
    let clear_color = gl!(c"glClearColor": fn(f32, f32, f32, f32));
    let clear = gl!(c"glClear": fn(u32));
    let read = gl!(c"glReadPixels": fn(i32, i32, i32, i32, u32, u32, *mut c_void));
    const GL_LINE_LOOP: u32 = 2;
    // Pixel centres of a 32×32 viewport in NDC.
    let ndc = |p: f32| p / 16.0 - 1.0;
    // SAFETY: locals of the stated sizes; the buffer holds the 4 vertices the draw reads.
    unsafe {
        let p = program(MOVING_VS, WHITE_FS);
        use_program(p);
        let mut vao = 0;
        gen_vaos(1, &mut vao);
        bind_vao(vao);
        let mut b = 0;
        gen_buffers(1, &mut b);
        bind_buffer(GL_ARRAY_BUFFER, b);
        let square = [
            ndc(4.5),
            ndc(4.5),
            ndc(27.5),
            ndc(4.5),
            ndc(27.5),
            ndc(27.5),
            ndc(4.5),
            ndc(27.5),
        ];
        buffer_data(GL_ARRAY_BUFFER, 32, square.as_ptr().cast(), GL_STATIC_DRAW);
        enable_attrib(0);
        attrib(0, 2, GL_FLOAT, 0, 0, null());
        clear_color(0.0, 0.0, 0.0, 1.0);
        clear(GL_COLOR_BUFFER_BIT);
        draw_arrays(GL_LINE_LOOP, 0, 4);
        let mut px = vec![0u8; 32 * 32 * 4];
        read(
            0,
            0,
            32,
            32,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            px.as_mut_ptr().cast(),
        );
        expect(GL_NO_ERROR);
        let at = |x: usize, y: usize| px[(y * 32 + x) * 4];
        assert_eq!(at(16, 4), 255, "first edge");
        assert_eq!(at(4, 16), 255, "the closing edge, back to the first vertex");
        assert_eq!(at(16, 16), 0, "inside stays clear");
    }
}

#[test]
fn read_pixels_converts_to_float_as_piglit_probes_read() {
    let _ctx = context();
    let clear_color = gl!(c"glClearColor": fn(f32, f32, f32, f32));
    let clear = gl!(c"glClear": fn(u32));
    let read = gl!(c"glReadPixels": fn(i32, i32, i32, i32, u32, u32, *mut c_void));
    const GL_RED: u32 = 0x1903;
    const GL_RGB: u32 = 0x1907;
    // SAFETY: each output buffer holds what the call writes (pack alignment 4, tight rows).
    unsafe {
        clear_color(1.0, 0.5, 0.0, 1.0);
        clear(GL_COLOR_BUFFER_BIT);
        let mut rgba = [0f32; 8];
        read(3, 3, 2, 1, GL_RGBA, GL_FLOAT, rgba.as_mut_ptr().cast());
        expect(GL_NO_ERROR);
        // 0.5 is stored as 127 or 128 (GL allows either rounding; lavapipe rounds up, NVIDIA
        // down): one step of 1/255 either way.
        let half = 128.0 / 255.0;
        let want = [1.0, half, 0.0, 1.0, 1.0, half, 0.0, 1.0];
        assert!(
            rgba.iter()
                .zip(want)
                .all(|(a, b)| (a - b).abs() <= 1.5 / 255.0),
            "{rgba:?} vs {want:?}"
        );
        let mut red = [0f32; 4];
        read(0, 0, 2, 2, GL_RED, GL_FLOAT, red.as_mut_ptr().cast());
        assert_eq!(red, [1.0; 4]);
        let mut rgb = [7f32; 3];
        read(31, 31, 1, 1, GL_RGB, GL_FLOAT, rgb.as_mut_ptr().cast());
        assert_eq!(rgb, [1.0, half, 0.0]);
        expect(GL_NO_ERROR);
    }
}
