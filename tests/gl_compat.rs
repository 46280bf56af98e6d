//! The compatibility profile through the C ABI: legacy GLSL (1.10/1.20) upgraded with its
//! built-in attributes, varyings and matrices; fixed-function client arrays; immediate mode;
//! drawing with no program (texture environment, alpha test); quads and primitive restart with
//! client-side indices; matrix stacks and their errors; and the core profile refusing all of it.
//! Pixels are read back and checked exactly; the validation layer must stay silent.

use std::ffi::c_void;
use std::ptr::null;

#[macro_use]
#[path = "common/gl.rs"]
mod gl_harness;

use gl_harness::{expect, f};

const GL_NO_ERROR: u32 = 0;
const GL_INVALID_ENUM: u32 = 0x0500;
const GL_INVALID_VALUE: u32 = 0x0501;
const GL_INVALID_OPERATION: u32 = 0x0502;
const GL_STACK_OVERFLOW: u32 = 0x0503;
const GL_STACK_UNDERFLOW: u32 = 0x0504;
const GL_FLOAT: u32 = 0x1406;
const GL_UNSIGNED_BYTE: u32 = 0x1401;
const GL_UNSIGNED_SHORT: u32 = 0x1403;
const GL_RGBA: u32 = 0x1908;
const GL_COLOR_BUFFER_BIT: u32 = 0x4000;
const GL_TRIANGLE_STRIP: u32 = 5;
const GL_QUADS: u32 = 7;
const GL_POLYGON: u32 = 9;
const GL_VERTEX_ARRAY: u32 = 0x8074;
const GL_COLOR_ARRAY: u32 = 0x8076;
const GL_MODELVIEW: u32 = 0x1700;
const GL_PROJECTION: u32 = 0x1701;
const GL_MODELVIEW_MATRIX: u32 = 0x0BA6;
const GL_TEXTURE_2D: u32 = 0x0DE1;
const GL_ALPHA_TEST: u32 = 0x0BC0;
const GL_GREATER: u32 = 0x0204;
const GL_PRIMITIVE_RESTART: u32 = 0x8F9D;

fn context(compat: bool) -> gl_harness::Current {
    gl_harness::context_profile(compat)
}

/// The 32×32 drawable as RGBA bytes, row 0 at the bottom.
fn pixels() -> Vec<u8> {
    let read = gl!(c"glReadPixels": fn(i32, i32, i32, i32, u32, u32, *mut c_void));
    let mut px = vec![0u8; 32 * 32 * 4];
    // SAFETY: `px` holds 32×32 RGBA bytes (pack alignment 4, tight rows).
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

fn clear_black() {
    let clear_color = gl!(c"glClearColor": fn(f32, f32, f32, f32));
    let clear = gl!(c"glClear": fn(u32));
    // SAFETY: plain values.
    unsafe {
        clear_color(0.0, 0.0, 0.0, 0.0);
        clear(GL_COLOR_BUFFER_BIT);
    }
}

/// Window coordinates: the projection maps (0, 0)–(32, 32) onto the drawable.
fn ortho_window() {
    let matrix_mode = gl!(c"glMatrixMode": fn(u32));
    let load_identity = gl!(c"glLoadIdentity": fn());
    let ortho = gl!(c"glOrtho": fn(f64, f64, f64, f64, f64, f64));
    // SAFETY: plain values.
    unsafe {
        matrix_mode(GL_PROJECTION);
        load_identity();
        ortho(0.0, 32.0, 0.0, 32.0, -1.0, 1.0);
        matrix_mode(GL_MODELVIEW);
        load_identity();
    }
}

const LEGACY_VS: &str = "#version 110\nattribute float unused;\nvarying vec4 tint;\nvoid main() {\n    gl_Position = gl_ModelViewProjectionMatrix * gl_Vertex;\n    gl_FrontColor = gl_Color;\n    tint = vec4(1.0);\n}\n";
const LEGACY_FS: &str = "#version 110\nuniform sampler2D texture;\nvarying vec4 tint;\nvoid main() {\n    gl_FragColor = gl_Color * tint;\n}\n";

#[test]
fn legacy_glsl_reads_client_arrays_colours_and_the_matrix_stack() {
    let _ctx = context(true);
    let use_program = gl!(c"glUseProgram": fn(u32));
    let vertex_pointer = gl!(c"glVertexPointer": fn(i32, u32, i32, *const c_void));
    let color_pointer = gl!(c"glColorPointer": fn(i32, u32, i32, *const c_void));
    let enable_client = gl!(c"glEnableClientState": fn(u32));
    let draw_arrays = gl!(c"glDrawArrays": fn(u32, i32, i32));
    let translate = gl!(c"glTranslatef": fn(f32, f32, f32));
    let get_location = gl!(c"glGetUniformLocation": fn(u32, *const i8) -> i32);
    // A quad over x 0..16 in window coordinates, moved right by 8 through the modelview.
    let quad: [f32; 8] = [0.0, 0.0, 16.0, 0.0, 16.0, 32.0, 0.0, 32.0];
    let colours: [u8; 16] = [
        255, 0, 0, 255, 255, 0, 0, 255, 255, 0, 0, 255, 255, 0, 0, 255,
    ];
    let p = gl_harness::program(LEGACY_VS, LEGACY_FS);
    // SAFETY: the client arrays outlive the draw; values are plain.
    unsafe {
        // The application's `texture` (a 3.30 built-in name) keeps its name.
        assert!(get_location(p, c"texture".as_ptr()) >= 0);
        assert_eq!(
            get_location(p, c"gl_ModelViewProjectionMatrix".as_ptr()),
            -1
        );
        use_program(p);
        ortho_window();
        translate(8.0, 0.0, 0.0);
        clear_black();
        vertex_pointer(2, GL_FLOAT, 0, quad.as_ptr().cast());
        color_pointer(4, GL_UNSIGNED_BYTE, 0, colours.as_ptr().cast());
        enable_client(GL_VERTEX_ARRAY);
        enable_client(GL_COLOR_ARRAY);
        draw_arrays(GL_QUADS, 0, 4);
    }
    expect(GL_NO_ERROR);
    let px = pixels();
    assert_eq!(at(&px, 4, 16), [0, 0, 0, 0], "left of the translated quad");
    assert_eq!(at(&px, 9, 3), [255, 0, 0, 255], "inside the quad");
    assert_eq!(
        at(&px, 23, 28),
        [255, 0, 0, 255],
        "inside the quad (second triangle)"
    );
    assert_eq!(at(&px, 25, 16), [0, 0, 0, 0], "right of the quad");
}

#[test]
fn no_program_draws_with_the_texture_environment_and_alpha_test() {
    let _ctx = context(true);
    let gen_textures = gl!(c"glGenTextures": fn(i32, *mut u32));
    let bind_texture = gl!(c"glBindTexture": fn(u32, u32));
    let tex_image = gl!(c"glTexImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let tex_parameter = gl!(c"glTexParameteri": fn(u32, u32, i32));
    let enable = gl!(c"glEnable": fn(u32));
    let disable = gl!(c"glDisable": fn(u32));
    let is_enabled = gl!(c"glIsEnabled": fn(u32) -> u8);
    let begin = gl!(c"glBegin": fn(u32));
    let end = gl!(c"glEnd": fn());
    let vertex = gl!(c"glVertex2f": fn(f32, f32));
    let tex_coord = gl!(c"glTexCoord2f": fn(f32, f32));
    let color = gl!(c"glColor4f": fn(f32, f32, f32, f32));
    let alpha_func = gl!(c"glAlphaFunc": fn(u32, f32));
    // Two texels: red | green.
    let texels: [u8; 8] = [255, 0, 0, 255, 0, 255, 0, 255];
    let quad = |s0: f32, s1: f32| {
        // SAFETY: immediate mode; plain values.
        unsafe {
            begin(GL_QUADS);
            for (x, y, s) in [
                (0.0, 0.0, s0),
                (32.0, 0.0, s1),
                (32.0, 32.0, s1),
                (0.0, 32.0, s0),
            ] {
                tex_coord(s, 0.5);
                vertex(x, y);
            }
            end();
        }
    };
    // SAFETY: `texels` holds the 2×1 RGBA image; the rest are plain values.
    unsafe {
        let mut t = 0;
        gen_textures(1, &mut t);
        bind_texture(GL_TEXTURE_2D, t);
        tex_image(
            GL_TEXTURE_2D,
            0,
            GL_RGBA as i32,
            2,
            1,
            0,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            texels.as_ptr().cast(),
        );
        tex_parameter(GL_TEXTURE_2D, 0x2801, 0x2600); // MIN_FILTER NEAREST
        tex_parameter(GL_TEXTURE_2D, 0x2800, 0x2600); // MAG_FILTER NEAREST
        ortho_window();
        clear_black();
        enable(GL_TEXTURE_2D);
        assert_eq!(is_enabled(GL_TEXTURE_2D), 1);
        color(1.0, 1.0, 0.5, 1.0); // GL_MODULATE: texel × colour
        quad(0.0, 1.0);
    }
    expect(GL_NO_ERROR);
    let px = pixels();
    assert_eq!(at(&px, 8, 16), [255, 0, 0, 255], "left texel");
    assert_eq!(at(&px, 24, 16), [0, 255, 0, 255], "right texel");
    // The alpha test discards fragments whose alpha fails; untextured colour shows the rest.
    // SAFETY: plain values.
    unsafe {
        clear_black();
        disable(GL_TEXTURE_2D);
        enable(GL_ALPHA_TEST);
        alpha_func(GL_GREATER, 0.5);
        color(0.0, 0.0, 1.0, 0.25);
        quad(0.0, 1.0);
        color(0.0, 0.0, 1.0, 0.75);
        begin(GL_POLYGON);
        for (x, y) in [(0.0, 0.0), (8.0, 0.0), (8.0, 8.0), (0.0, 8.0)] {
            vertex(x, y);
        }
        end();
    }
    expect(GL_NO_ERROR);
    let px = pixels();
    assert_eq!(
        at(&px, 20, 20),
        [0, 0, 0, 0],
        "alpha 0.25 fails GL_GREATER 0.5"
    );
    assert_eq!(at(&px, 4, 4), [0, 0, 255, 191], "alpha 0.75 passes");
}

#[test]
fn restart_indices_in_client_memory_split_a_strip() {
    let _ctx = context(true);
    let vertex_pointer = gl!(c"glVertexPointer": fn(i32, u32, i32, *const c_void));
    let enable_client = gl!(c"glEnableClientState": fn(u32));
    let draw_elements = gl!(c"glDrawElements": fn(u32, i32, u32, *const c_void));
    let enable = gl!(c"glEnable": fn(u32));
    let restart_index = gl!(c"glPrimitiveRestartIndex": fn(u32));
    let color = gl!(c"glColor3f": fn(f32, f32, f32));
    // Two squares, x 0..8 and 16..24; one strip over both would also fill 8..16.
    let verts: [f32; 16] = [
        0.0, 0.0, 0.0, 32.0, 8.0, 0.0, 8.0, 32.0, 16.0, 0.0, 16.0, 32.0, 24.0, 0.0, 24.0, 32.0,
    ];
    // Restart index 1000 (not the type's maximum), indices in client memory.
    let indices: [u16; 9] = [0, 1, 2, 3, 1000, 4, 5, 6, 7];
    // SAFETY: arrays outlive the draw; values are plain.
    unsafe {
        ortho_window();
        clear_black();
        color(1.0, 1.0, 1.0);
        vertex_pointer(2, GL_FLOAT, 0, verts.as_ptr().cast());
        enable_client(GL_VERTEX_ARRAY);
        enable(GL_PRIMITIVE_RESTART);
        restart_index(1000);
        draw_elements(
            GL_TRIANGLE_STRIP,
            9,
            GL_UNSIGNED_SHORT,
            indices.as_ptr().cast(),
        );
    }
    expect(GL_NO_ERROR);
    let px = pixels();
    assert_eq!(at(&px, 4, 16), [255, 255, 255, 255], "first square");
    assert_eq!(
        at(&px, 12, 16),
        [0, 0, 0, 0],
        "the restart leaves the gap empty"
    );
    assert_eq!(at(&px, 20, 16), [255, 255, 255, 255], "second square");
}

#[test]
fn a_fragment_only_legacy_program_gets_fixed_function_transform() {
    let _ctx = context(true);
    let create = gl!(c"glCreateShader": fn(u32) -> u32);
    let source = gl!(c"glShaderSource": fn(u32, i32, *const *const i8, *const i32));
    let compile = gl!(c"glCompileShader": fn(u32));
    let create_program = gl!(c"glCreateProgram": fn() -> u32);
    let attach = gl!(c"glAttachShader": fn(u32, u32));
    let link = gl!(c"glLinkProgram": fn(u32));
    let get = gl!(c"glGetProgramiv": fn(u32, u32, *mut i32));
    let use_program = gl!(c"glUseProgram": fn(u32));
    let rect = gl!(c"glRectf": fn(f32, f32, f32, f32));
    let color = gl!(c"glColor3f": fn(f32, f32, f32));
    let fs = c"void main() { gl_FragColor = gl_Color.bgra; }";
    // SAFETY: NUL-terminated source; out-pointer to a local.
    unsafe {
        let s = create(0x8B30);
        let ptr = fs.as_ptr();
        source(s, 1, &ptr, null());
        compile(s);
        let p = create_program();
        attach(p, s);
        link(p);
        let mut ok = 0;
        get(p, 0x8B82, &mut ok);
        assert_eq!(
            ok, 1,
            "a fragment-only program links in a compatibility context"
        );
        use_program(p);
        ortho_window();
        clear_black();
        color(1.0, 0.0, 0.0);
        rect(16.0, 0.0, 32.0, 32.0);
    }
    expect(GL_NO_ERROR);
    let px = pixels();
    assert_eq!(at(&px, 24, 16), [0, 0, 255, 255], "swizzled current colour");
    assert_eq!(at(&px, 8, 16), [0, 0, 0, 0]);
}

#[test]
fn matrix_stacks_answer_queries_and_report_over_and_underflow() {
    let _ctx = context(true);
    let matrix_mode = gl!(c"glMatrixMode": fn(u32));
    let push = gl!(c"glPushMatrix": fn());
    let pop = gl!(c"glPopMatrix": fn());
    let translate = gl!(c"glTranslatef": fn(f32, f32, f32));
    let get_floats = gl!(c"glGetFloatv": fn(u32, *mut f32));
    let begin = gl!(c"glBegin": fn(u32));
    let end = gl!(c"glEnd": fn());
    // SAFETY: out-pointers to locals of 16 floats; plain values.
    unsafe {
        matrix_mode(GL_MODELVIEW);
        pop();
        expect(GL_STACK_UNDERFLOW);
        push();
        translate(1.0, 2.0, 3.0);
        let mut m = [0f32; 16];
        get_floats(GL_MODELVIEW_MATRIX, m.as_mut_ptr());
        assert_eq!(&m[12..16], &[1.0, 2.0, 3.0, 1.0]);
        pop();
        get_floats(GL_MODELVIEW_MATRIX, m.as_mut_ptr());
        assert_eq!(&m[12..16], &[0.0, 0.0, 0.0, 1.0]);
        for _ in 0..31 {
            push();
        }
        expect(GL_NO_ERROR);
        push();
        expect(GL_STACK_OVERFLOW);
        matrix_mode(GL_TEXTURE_2D);
        expect(GL_INVALID_ENUM);
        end();
        expect(GL_INVALID_OPERATION);
        begin(GL_QUADS);
        begin(GL_QUADS);
        expect(GL_INVALID_OPERATION);
        end();
        expect(GL_NO_ERROR);
    }
}

#[test]
fn the_core_profile_refuses_fixed_function_and_legacy_modes() {
    let _ctx = context(false);
    let begin = gl!(c"glBegin": fn(u32));
    let vertex_pointer = gl!(c"glVertexPointer": fn(i32, u32, i32, *const c_void));
    let matrix_mode = gl!(c"glMatrixMode": fn(u32));
    let draw_arrays = gl!(c"glDrawArrays": fn(u32, i32, i32));
    let gen_vaos = gl!(c"glGenVertexArrays": fn(i32, *mut u32));
    let bind_vao = gl!(c"glBindVertexArray": fn(u32));
    let use_program = gl!(c"glUseProgram": fn(u32));
    let verts = [0f32; 8];
    let p = gl_harness::program(
        "#version 330 core\nvoid main() { gl_Position = vec4(0.0); }\n",
        "#version 330 core\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n",
    );
    // SAFETY: plain values; the pointer is never read (the call fails first).
    unsafe {
        begin(GL_QUADS);
        expect(GL_INVALID_OPERATION);
        vertex_pointer(2, GL_FLOAT, 0, verts.as_ptr().cast());
        expect(GL_INVALID_OPERATION);
        matrix_mode(GL_MODELVIEW);
        expect(GL_INVALID_OPERATION);
        let mut vao = 0;
        gen_vaos(1, &mut vao);
        bind_vao(vao);
        use_program(p);
        draw_arrays(GL_QUADS, 0, 4);
        expect(GL_INVALID_ENUM);
        use_program(0);
        draw_arrays(GL_TRIANGLE_STRIP, 0, 4);
        expect(GL_INVALID_OPERATION);
    }
}

#[test]
fn integer_and_double_positions_are_converted_and_bounded() {
    let _ctx = context(false);
    let gen_buffers = gl!(c"glGenBuffers": fn(i32, *mut u32));
    let bind_buffer = gl!(c"glBindBuffer": fn(u32, u32));
    let buffer_data = gl!(c"glBufferData": fn(u32, isize, *const c_void, u32));
    let gen_vaos = gl!(c"glGenVertexArrays": fn(i32, *mut u32));
    let bind_vao = gl!(c"glBindVertexArray": fn(u32));
    let enable_attrib = gl!(c"glEnableVertexAttribArray": fn(u32));
    let attrib = gl!(c"glVertexAttribPointer": fn(u32, i32, u32, u8, i32, *const c_void));
    let use_program = gl!(c"glUseProgram": fn(u32));
    let draw_arrays = gl!(c"glDrawArrays": fn(u32, i32, i32));
    const GL_INT: u32 = 0x1404;
    const GL_ARRAY_BUFFER: u32 = 0x8892;
    // Positions in units of 1/16 of the drawable: a quad over the left half.
    let p = gl_harness::program(
        "#version 330 core\nlayout(location = 0) in vec2 pos;\nvoid main() { gl_Position = vec4(pos / 16.0 - 1.0, 0.0, 1.0); }\n",
        "#version 330 core\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n",
    );
    let quad: [i32; 8] = [0, 0, 16, 0, 0, 32, 16, 32];
    // SAFETY: the buffer data is a local of the stated size; values are plain.
    unsafe {
        let mut vao = 0;
        gen_vaos(1, &mut vao);
        bind_vao(vao);
        let mut b = 0;
        gen_buffers(1, &mut b);
        bind_buffer(GL_ARRAY_BUFFER, b);
        buffer_data(GL_ARRAY_BUFFER, 32, quad.as_ptr().cast(), 0x88E4);
        enable_attrib(0);
        attrib(0, 2, GL_INT, 0, 0, null());
        use_program(p);
        clear_black();
        draw_arrays(GL_TRIANGLE_STRIP, 0, 4);
        expect(GL_NO_ERROR);
        let px = pixels();
        assert_eq!(
            at(&px, 8, 16),
            [255, 255, 255, 255],
            "GL_INT positions, as floats"
        );
        assert_eq!(at(&px, 24, 16), [0, 0, 0, 0]);
        // A draw past the end of the converted array is refused, never a huge allocation
        // (a fuzz finding: it once asked for 62 GB and aborted).
        draw_arrays(GL_TRIANGLE_STRIP, i32::MAX, i32::MAX);
        expect(GL_INVALID_OPERATION);
    }
}

#[test]
fn an_indexed_line_loop_with_no_element_buffer_is_refused_in_core() {
    let _ctx = context(false);
    let gen_vaos = gl!(c"glGenVertexArrays": fn(i32, *mut u32));
    let bind_vao = gl!(c"glBindVertexArray": fn(u32));
    let use_program = gl!(c"glUseProgram": fn(u32));
    let draw_elements = gl!(c"glDrawElements": fn(u32, i32, u32, *const c_void));
    let p = gl_harness::program(
        "#version 330 core\nvoid main() { gl_Position = vec4(0.0, 0.0, 0.0, 1.0); }\n",
        "#version 330 core\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n",
    );
    // SAFETY: the "pointer" is an offset GL must not dereference in a core context (a fuzz
    // finding: a lowered line loop once read it as client memory and crashed).
    unsafe {
        let mut vao = 0;
        gen_vaos(1, &mut vao);
        bind_vao(vao);
        use_program(p);
        draw_elements(2, 4, GL_UNSIGNED_SHORT, 0xdead_0000usize as *const c_void);
        expect(GL_INVALID_OPERATION);
    }
}

#[test]
fn texture_combiners_on_two_units_and_linear_fog() {
    let _ctx = context(true);
    let gen_textures = gl!(c"glGenTextures": fn(i32, *mut u32));
    let bind_texture = gl!(c"glBindTexture": fn(u32, u32));
    let active_texture = gl!(c"glActiveTexture": fn(u32));
    let tex_image = gl!(c"glTexImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let tex_parameter = gl!(c"glTexParameteri": fn(u32, u32, i32));
    let tex_env = gl!(c"glTexEnvi": fn(u32, u32, i32));
    let tex_envfv = gl!(c"glTexEnvfv": fn(u32, u32, *const f32));
    let get_tex_env = gl!(c"glGetTexEnviv": fn(u32, u32, *mut i32));
    let enable = gl!(c"glEnable": fn(u32));
    let disable = gl!(c"glDisable": fn(u32));
    let fogi = gl!(c"glFogi": fn(u32, i32));
    let fogf = gl!(c"glFogf": fn(u32, f32));
    let fogfv = gl!(c"glFogfv": fn(u32, *const f32));
    let begin = gl!(c"glBegin": fn(u32));
    let end = gl!(c"glEnd": fn());
    let vertex = gl!(c"glVertex3f": fn(f32, f32, f32));
    let tex_coord = gl!(c"glTexCoord2f": fn(f32, f32));
    let color = gl!(c"glColor3f": fn(f32, f32, f32));
    const GL_TEXTURE0: u32 = 0x84C0;
    const GL_TEXTURE_ENV: u32 = 0x2300;
    const GL_TEXTURE_ENV_MODE: u32 = 0x2200;
    const GL_TEXTURE_ENV_COLOR: u32 = 0x2201;
    const GL_COMBINE: i32 = 0x8570;
    const GL_COMBINE_RGB: u32 = 0x8571;
    const GL_SUBTRACT: i32 = 0x84E7;
    const GL_SRC0_RGB: u32 = 0x8580;
    const GL_SRC1_RGB: u32 = 0x8581;
    const GL_PREVIOUS: i32 = 0x8578;
    const GL_CONSTANT: i32 = 0x8576;
    const GL_FOG: u32 = 0x0B60;
    const GL_FOG_MODE: u32 = 0x0B65;
    const GL_FOG_START: u32 = 0x0B63;
    const GL_FOG_END: u32 = 0x0B64;
    const GL_FOG_COLOR: u32 = 0x0B66;
    const GL_LINEAR: i32 = 0x2601;
    let texels: [u8; 8] = [255, 0, 0, 255, 0, 255, 0, 255];
    let white: [u8; 4] = [255; 4];
    let quad = |z: f32| {
        // SAFETY: immediate mode; plain values.
        unsafe {
            begin(GL_QUADS);
            for (x, y, s) in [
                (0.0, 0.0, 0.0),
                (32.0, 0.0, 1.0),
                (32.0, 32.0, 1.0),
                (0.0, 32.0, 0.0),
            ] {
                tex_coord(s, 0.5);
                vertex(x, y, z);
            }
            end();
        }
    };
    // SAFETY: images of the stated sizes; plain values; out-pointers to locals.
    unsafe {
        let mut t = [0u32; 2];
        gen_textures(2, t.as_mut_ptr());
        for (unit, (tex, data, w)) in [(t[0], texels.as_ptr(), 2), (t[1], white.as_ptr(), 1)]
            .into_iter()
            .enumerate()
        {
            active_texture(GL_TEXTURE0 + unit as u32);
            bind_texture(GL_TEXTURE_2D, tex);
            tex_image(
                GL_TEXTURE_2D,
                0,
                GL_RGBA as i32,
                w,
                1,
                0,
                GL_RGBA,
                GL_UNSIGNED_BYTE,
                data.cast(),
            );
            tex_parameter(GL_TEXTURE_2D, 0x2801, 0x2600);
            tex_parameter(GL_TEXTURE_2D, 0x2800, 0x2600);
            enable(GL_TEXTURE_2D);
        }
        // Unit 1: previous minus the constant colour (0.25, 0, 0).
        tex_env(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, GL_COMBINE);
        tex_env(GL_TEXTURE_ENV, GL_COMBINE_RGB, GL_SUBTRACT);
        tex_env(GL_TEXTURE_ENV, GL_SRC0_RGB, GL_PREVIOUS);
        tex_env(GL_TEXTURE_ENV, GL_SRC1_RGB, GL_CONSTANT);
        tex_envfv(
            GL_TEXTURE_ENV,
            GL_TEXTURE_ENV_COLOR,
            [0.25f32, 0.0, 0.0, 0.0].as_ptr(),
        );
        let mut mode = 0;
        get_tex_env(GL_TEXTURE_ENV, GL_COMBINE_RGB, &mut mode);
        assert_eq!(mode, GL_SUBTRACT);
        tex_env(GL_TEXTURE_ENV, GL_COMBINE_RGB, 0x1234);
        expect(GL_INVALID_ENUM);
        active_texture(GL_TEXTURE0);
        ortho_window();
        clear_black();
        color(1.0, 1.0, 1.0);
        quad(0.0);
    }
    expect(GL_NO_ERROR);
    let px = pixels();
    assert_eq!(at(&px, 8, 16), [191, 0, 0, 255], "red texel minus 0.25 red");
    assert_eq!(
        at(&px, 24, 16),
        [0, 255, 0, 255],
        "green texel, red clamped at 0"
    );
    // Linear fog from 0 to 1 in eye distance: at z = -0.5 half the fog colour.
    // SAFETY: plain values; the colour array holds four floats.
    unsafe {
        active_texture(GL_TEXTURE0 + 1);
        disable(GL_TEXTURE_2D);
        active_texture(GL_TEXTURE0);
        disable(GL_TEXTURE_2D);
        enable(GL_FOG);
        fogi(GL_FOG_MODE, GL_LINEAR);
        fogf(GL_FOG_START, 0.0);
        fogf(GL_FOG_END, 1.0);
        fogfv(GL_FOG_COLOR, [0.0f32, 0.0, 1.0, 1.0].as_ptr());
        clear_black();
        quad(-0.5);
    }
    expect(GL_NO_ERROR);
    let px = pixels();
    let p = at(&px, 16, 16);
    assert!(
        p[0].abs_diff(128) <= 1 && p[1].abs_diff(128) <= 1 && p[2] == 255,
        "white half fogged to blue: {p:?}"
    );
}

#[test]
fn raster_positions_and_the_colour_sum() {
    let _ctx = context(true);
    let raster_pos = gl!(c"glRasterPos3f": fn(f32, f32, f32));
    let window_pos = gl!(c"glWindowPos2i": fn(i32, i32));
    let get_floats = gl!(c"glGetFloatv": fn(u32, *mut f32));
    let get_bool = gl!(c"glGetBooleanv": fn(u32, *mut u8));
    let enable = gl!(c"glEnable": fn(u32));
    let color = gl!(c"glColor3f": fn(f32, f32, f32));
    let secondary = gl!(c"glSecondaryColor3f": fn(f32, f32, f32));
    let rect = gl!(c"glRectf": fn(f32, f32, f32, f32));
    const GL_CURRENT_RASTER_POSITION: u32 = 0x0B07;
    const GL_CURRENT_RASTER_POSITION_VALID: u32 = 0x0B08;
    const GL_COLOR_SUM: u32 = 0x8458;
    let mut p = [0f32; 4];
    let mut valid = 0u8;
    // SAFETY: out-pointers to locals; plain values.
    unsafe {
        ortho_window();
        raster_pos(12.0, 20.0, 0.0);
        get_floats(GL_CURRENT_RASTER_POSITION, p.as_mut_ptr());
        assert_eq!(p, [12.0, 20.0, 0.5, 1.0], "window coordinates and depth");
        raster_pos(40.0, 20.0, 0.0);
        get_bool(GL_CURRENT_RASTER_POSITION_VALID, &mut valid);
        assert_eq!(valid, 0, "outside the clip volume");
        window_pos(3, 4);
        get_floats(GL_CURRENT_RASTER_POSITION, p.as_mut_ptr());
        get_bool(GL_CURRENT_RASTER_POSITION_VALID, &mut valid);
        assert_eq!((p[0], p[1], valid), (3.0, 4.0, 1));
        clear_black();
        enable(GL_COLOR_SUM);
        color(1.0, 0.0, 0.0);
        secondary(0.0, 0.5, 0.0);
        rect(0.0, 0.0, 32.0, 32.0);
    }
    expect(GL_NO_ERROR);
    let px = pixels();
    let c = at(&px, 16, 16);
    assert!(
        c[0] == 255 && c[1].abs_diff(128) <= 1 && c[2] == 0,
        "primary + secondary: {c:?}"
    );
}

#[test]
fn texture_object_zero_is_a_usable_default_texture() {
    let _ctx = context(true);
    let tex_image = gl!(c"glTexImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let tex_parameter = gl!(c"glTexParameteri": fn(u32, u32, i32));
    let enable = gl!(c"glEnable": fn(u32));
    let color = gl!(c"glColor3f": fn(f32, f32, f32));
    let begin = gl!(c"glBegin": fn(u32));
    let end = gl!(c"glEnd": fn());
    let vertex = gl!(c"glVertex2f": fn(f32, f32));
    let tex_coord = gl!(c"glTexCoord2f": fn(f32, f32));
    let texel: [u8; 4] = [10, 200, 30, 255];
    // SAFETY: `texel` holds the 1×1 RGBA image; plain values.
    unsafe {
        // No glGenTextures/glBindTexture: texture 0 of GL_TEXTURE_2D.
        tex_image(
            GL_TEXTURE_2D,
            0,
            GL_RGBA as i32,
            1,
            1,
            0,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            texel.as_ptr().cast(),
        );
        tex_parameter(GL_TEXTURE_2D, 0x2801, 0x2600);
        expect(GL_NO_ERROR);
        enable(GL_TEXTURE_2D);
        ortho_window();
        clear_black();
        color(1.0, 1.0, 1.0);
        begin(GL_QUADS);
        for (x, y) in [(0.0, 0.0), (32.0, 0.0), (32.0, 32.0), (0.0, 32.0)] {
            tex_coord(0.5, 0.5);
            vertex(x, y);
        }
        end();
    }
    expect(GL_NO_ERROR);
    assert_eq!(at(&pixels(), 16, 16), texel);
}

/// piglit fbo-3d (its second texture): a unit whose texture is incomplete (here: a 2×2 level 0
/// alone under the default mipmapping minification filter) acts as if texturing were disabled, so the
/// primary colour passes through; a shader sampling it would read (0, 0, 0, 1) instead.
#[test]
fn an_incomplete_texture_disables_its_fixed_function_unit() {
    let _ctx = context(true);
    let gen_textures = gl!(c"glGenTextures": fn(i32, *mut u32));
    let bind_texture = gl!(c"glBindTexture": fn(u32, u32));
    let tex_image = gl!(c"glTexImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let tex_parameter = gl!(c"glTexParameteri": fn(u32, u32, i32));
    let enable = gl!(c"glEnable": fn(u32));
    let color = gl!(c"glColor3f": fn(f32, f32, f32));
    let texel: [u8; 4] = [10, 200, 30, 255];
    let texels = texel.repeat(4);
    // SAFETY: `texels` holds the 2×2 RGBA image; plain values.
    unsafe {
        let mut t = 0;
        gen_textures(1, &mut t);
        bind_texture(GL_TEXTURE_2D, t);
        tex_image(
            GL_TEXTURE_2D,
            0,
            GL_RGBA as i32,
            2,
            2,
            0,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            texels.as_ptr().cast(),
        );
        enable(GL_TEXTURE_2D);
        ortho_window();
        color(1.0, 0.0, 0.0);
        clear_black();
        textured_quad(0.5, 0.5, 0.0);
        assert_eq!(
            at(&pixels(), 16, 16),
            [255, 0, 0, 255],
            "incomplete: colour"
        );
        // Complete once the filter needs no mipmaps: the texel modulates the colour.
        tex_parameter(GL_TEXTURE_2D, 0x2801, 0x2600);
        color(1.0, 1.0, 1.0);
        clear_black();
        textured_quad(0.5, 0.5, 0.0);
        assert_eq!(at(&pixels(), 16, 16), texel, "complete: texel");
    }
    expect(GL_NO_ERROR);
}

/// piglit fbo-clear-formats (GL_ALPHA16F, GL_ALPHA_SNORM, depth textures): the classic texture
/// environments follow the texture's base format (GL 2.1 table 3.22). An alpha texture keeps
/// the fragment colour, an RGB one under GL_REPLACE keeps the fragment alpha, an intensity one
/// adds to alpha too, and a depth texture reads as luminance (D, D, D).
#[test]
fn texture_environments_follow_the_base_format() {
    const GL_TEXTURE_ENV: u32 = 0x2300;
    const GL_TEXTURE_ENV_MODE: u32 = 0x2200;
    const GL_REPLACE: i32 = 0x1E01;
    const GL_MODULATE: i32 = 0x2100;
    const GL_ADD: i32 = 0x0104;
    const GL_ALPHA: u32 = 0x1906;
    const GL_RGB: u32 = 0x1907;
    const GL_INTENSITY8: i32 = 0x804B;
    const GL_LUMINANCE: u32 = 0x1909;
    const GL_DEPTH_COMPONENT: u32 = 0x1902;
    const GL_DEPTH_COMPONENT24: i32 = 0x81A6;
    const GL_FRAMEBUFFER: u32 = 0x8D40;
    const GL_DEPTH_ATTACHMENT: u32 = 0x8D00;
    const GL_DEPTH_BUFFER_BIT: u32 = 0x0100;
    let _ctx = context(true);
    let gen_textures = gl!(c"glGenTextures": fn(i32, *mut u32));
    let bind_texture = gl!(c"glBindTexture": fn(u32, u32));
    let tex_image = gl!(c"glTexImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let tex_parameter = gl!(c"glTexParameteri": fn(u32, u32, i32));
    let tex_env = gl!(c"glTexEnvi": fn(u32, u32, i32));
    let enable = gl!(c"glEnable": fn(u32));
    let color = gl!(c"glColor4ub": fn(u8, u8, u8, u8));
    let gen_framebuffers = gl!(c"glGenFramebuffers": fn(i32, *mut u32));
    let bind_framebuffer = gl!(c"glBindFramebuffer": fn(u32, u32));
    let framebuffer_texture = gl!(c"glFramebufferTexture2D": fn(u32, u32, u32, u32, i32));
    let draw_buffer = gl!(c"glDrawBuffer": fn(u32));
    let clear_depth = gl!(c"glClearDepth": fn(f64));
    let clear = gl!(c"glClear": fn(u32));
    // A 1×1 texture of `internal` holding `texel` (as `format` bytes; none: NULL), bound.
    let texture = |internal: i32, format: u32, texel: &[u8]| {
        // SAFETY: `texel` holds one pixel of `format`; plain values.
        unsafe {
            let mut t = 0;
            gen_textures(1, &mut t);
            bind_texture(GL_TEXTURE_2D, t);
            tex_image(
                GL_TEXTURE_2D,
                0,
                internal,
                1,
                1,
                0,
                format,
                GL_UNSIGNED_BYTE,
                if texel.is_empty() {
                    null()
                } else {
                    texel.as_ptr().cast()
                },
            );
            t
        }
    };
    let draw = |mode: i32| -> [u8; 4] {
        // SAFETY: plain values.
        unsafe {
            tex_env(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, mode);
            color(255, 128, 64, 100);
        }
        clear_black();
        textured_quad(0.5, 0.5, 0.0);
        at(&pixels(), 16, 16)
    };
    // SAFETY: plain values; the unpack alignment covers the 1-byte and 3-byte texels.
    unsafe {
        gl!(c"glPixelStorei": fn(u32, i32))(0x0CF5, 1);
        enable(GL_TEXTURE_2D);
        ortho_window();
        texture(GL_ALPHA as i32, GL_ALPHA, &[50]);
        assert_eq!(draw(GL_REPLACE), [255, 128, 64, 50], "alpha, GL_REPLACE");
        assert_eq!(draw(GL_MODULATE), [255, 128, 64, 20], "alpha, GL_MODULATE");
        texture(GL_RGB as i32, GL_RGB, &[10, 20, 30]);
        assert_eq!(draw(GL_REPLACE), [10, 20, 30, 100], "RGB, GL_REPLACE");
        texture(GL_LUMINANCE as i32, GL_LUMINANCE, &[40]);
        assert_eq!(draw(GL_REPLACE), [40, 40, 40, 100], "luminance, GL_REPLACE");
        texture(GL_INTENSITY8, GL_LUMINANCE, &[60]);
        assert_eq!(draw(GL_ADD), [255, 188, 124, 160], "intensity, GL_ADD");
        // A depth texture cleared to 0.25 through a framebuffer, then drawn.
        let depth = texture(GL_DEPTH_COMPONENT24, GL_DEPTH_COMPONENT, &[]);
        tex_parameter(GL_TEXTURE_2D, 0x2801, 0x2600);
        let mut fb = 0;
        gen_framebuffers(1, &mut fb);
        bind_framebuffer(GL_FRAMEBUFFER, fb);
        framebuffer_texture(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D, depth, 0);
        draw_buffer(0);
        clear_depth(0.25);
        clear(GL_DEPTH_BUFFER_BIT);
        bind_framebuffer(GL_FRAMEBUFFER, 0);
        let px = draw(GL_REPLACE);
        for c in &px[..3] {
            assert!(c.abs_diff(64) <= 1, "depth as luminance: {px:?}");
        }
        assert_eq!(px[3], 100, "depth keeps the fragment alpha: {px:?}");
        // GL_DEPTH_TEXTURE_MODE picks the texel: intensity (D, D, D, D), alpha (0, 0, 0, D),
        // red (D, 0, 0, 1); each then behaves as that base format under the environment.
        bind_texture(GL_TEXTURE_2D, depth);
        let near = |got: [u8; 4], want: [u8; 4], what: &str| {
            let close = got.iter().zip(want).all(|(g, w)| g.abs_diff(w) <= 1);
            assert!(close, "{what}: {got:?}, want {want:?}");
        };
        tex_parameter(GL_TEXTURE_2D, GL_DEPTH_TEXTURE_MODE, GL_INTENSITY as i32);
        near(
            draw(GL_REPLACE),
            [64, 64, 64, 64],
            "depth as intensity, GL_REPLACE",
        );
        tex_parameter(GL_TEXTURE_2D, GL_DEPTH_TEXTURE_MODE, GL_ALPHA as i32);
        near(
            draw(GL_MODULATE),
            [255, 128, 64, 25],
            "depth as alpha, GL_MODULATE",
        );
        tex_parameter(GL_TEXTURE_2D, GL_DEPTH_TEXTURE_MODE, GL_RED as i32);
        near(
            draw(GL_REPLACE),
            [64, 0, 0, 100],
            "depth as red, GL_REPLACE",
        );
        let mut mode = 0;
        gl!(c"glGetTexParameteriv": fn(u32, u32, *mut i32))(
            GL_TEXTURE_2D,
            GL_DEPTH_TEXTURE_MODE,
            &mut mode,
        );
        assert_eq!(mode, GL_RED as i32);
        tex_parameter(GL_TEXTURE_2D, GL_DEPTH_TEXTURE_MODE, GL_RGBA as i32);
        expect(GL_INVALID_ENUM);
    }
    expect(GL_NO_ERROR);
}

const GL_DEPTH_TEXTURE_MODE: u32 = 0x884B;
const GL_INTENSITY: u32 = 0x8049;
const GL_RED: u32 = 0x1903;

/// piglit glsl-fs-shadow2DRect-04: GLSL 1.10's shadow lookups return the comparison through the
/// texture's GL_DEPTH_TEXTURE_MODE, per sampler; the core profile has no such parameter.
#[test]
fn legacy_shadow_lookups_follow_each_textures_depth_mode() {
    const GL_DEPTH_COMPONENT: u32 = 0x1902;
    const GL_TEXTURE_COMPARE_MODE: u32 = 0x884C;
    const GL_TEXTURE_COMPARE_FUNC: u32 = 0x884D;
    const GL_COMPARE_REF_TO_TEXTURE: i32 = 0x884E;
    const GL_NEVER: i32 = 0x0200;
    const GL_ALWAYS: i32 = 0x0207;
    const GL_ALPHA: i32 = 0x1906;
    const GL_TEXTURE0: u32 = 0x84C0;
    let _ctx = context(true);
    let gen_textures = gl!(c"glGenTextures": fn(i32, *mut u32));
    let bind_texture = gl!(c"glBindTexture": fn(u32, u32));
    let active = gl!(c"glActiveTexture": fn(u32));
    let tex_image = gl!(c"glTexImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let param = gl!(c"glTexParameteri": fn(u32, u32, i32));
    let use_program = gl!(c"glUseProgram": fn(u32));
    let location = gl!(c"glGetUniformLocation": fn(u32, *const std::ffi::c_char) -> i32);
    let uniform1i = gl!(c"glUniform1i": fn(i32, i32));
    let vs =
        "#version 110\nvoid main() { gl_Position = gl_ModelViewProjectionMatrix * gl_Vertex; }\n";
    // Two shadow samplers, each shown in one half of the window.
    let fs = "#version 110\nuniform sampler2DShadow a;\nuniform sampler2DShadow b;\nvoid main() {\n    gl_FragColor = gl_FragCoord.x < 16.0 ? shadow2D(a, vec3(0.5, 0.5, 0.5)) : shadow2DProj(b, vec4(0.5, 0.5, 0.5, 1.0));\n}\n";
    let program = gl_harness::program(vs, fs);
    let depth = [0.5f32];
    // A depth texture on `unit` comparing with `func`, in depth mode `mode`.
    let shadow_texture = |unit: u32, func: i32, mode: u32| {
        // SAFETY: one float depth texel from a live array; out-pointer to a local.
        unsafe {
            let mut t = 0;
            gen_textures(1, &mut t);
            active(GL_TEXTURE0 + unit);
            bind_texture(GL_TEXTURE_2D, t);
            tex_image(
                GL_TEXTURE_2D,
                0,
                GL_DEPTH_COMPONENT as i32,
                1,
                1,
                0,
                GL_DEPTH_COMPONENT,
                GL_FLOAT,
                depth.as_ptr().cast(),
            );
            param(GL_TEXTURE_2D, 0x2801, 0x2600);
            param(GL_TEXTURE_2D, 0x2800, 0x2600);
            param(
                GL_TEXTURE_2D,
                GL_TEXTURE_COMPARE_MODE,
                GL_COMPARE_REF_TO_TEXTURE,
            );
            param(GL_TEXTURE_2D, GL_TEXTURE_COMPARE_FUNC, func);
            param(GL_TEXTURE_2D, GL_DEPTH_TEXTURE_MODE, mode as i32);
            t
        }
    };
    let draw = || -> ([u8; 4], [u8; 4]) {
        clear_black();
        textured_quad(0.5, 0.5, 0.0);
        let px = pixels();
        (at(&px, 8, 16), at(&px, 24, 16))
    };
    // SAFETY: NUL-terminated names; plain values.
    unsafe {
        ortho_window();
        use_program(program);
        uniform1i(location(program, c"a".as_ptr()), 0);
        uniform1i(location(program, c"b".as_ptr()), 1);
        shadow_texture(0, GL_ALWAYS, GL_ALPHA as u32);
        let b = shadow_texture(1, GL_ALWAYS, GL_RED);
        assert_eq!(draw(), ([0, 0, 0, 255], [255, 0, 0, 255]), "alpha | red");
        // The default is luminance; a failed comparison in intensity mode is all zero.
        active(GL_TEXTURE0);
        shadow_texture(0, GL_ALWAYS, 0x1909); // GL_LUMINANCE
        active(GL_TEXTURE0 + 1);
        bind_texture(GL_TEXTURE_2D, b);
        param(GL_TEXTURE_2D, GL_TEXTURE_COMPARE_FUNC, GL_NEVER);
        param(GL_TEXTURE_2D, GL_DEPTH_TEXTURE_MODE, GL_INTENSITY as i32);
        assert_eq!(
            draw(),
            ([255, 255, 255, 255], [0, 0, 0, 0]),
            "luminance | intensity"
        );
        // Swapping the units swaps the halves: the mode follows the sampler's unit.
        uniform1i(location(program, c"a".as_ptr()), 1);
        uniform1i(location(program, c"b".as_ptr()), 0);
        assert_eq!(
            draw(),
            ([0, 0, 0, 0], [255, 255, 255, 255]),
            "swapped units"
        );
    }
    expect(GL_NO_ERROR);
    drop(_ctx);
    // The core profile has no GL_DEPTH_TEXTURE_MODE.
    let _core = context(false);
    let mut t = 0;
    // SAFETY: out-pointers to locals.
    unsafe {
        gen_textures(1, &mut t);
        bind_texture(GL_TEXTURE_2D, t);
        param(GL_TEXTURE_2D, GL_DEPTH_TEXTURE_MODE, GL_RED as i32);
        expect(GL_INVALID_ENUM);
        let mut v = 0;
        gl!(c"glGetTexParameteriv": fn(u32, u32, *mut i32))(
            GL_TEXTURE_2D,
            GL_DEPTH_TEXTURE_MODE,
            &mut v,
        );
        expect(GL_INVALID_ENUM);
    }
}

/// Draws a window-filling quad in immediate mode with one texture coordinate (s, t, r).
fn textured_quad(s: f32, t: f32, r: f32) {
    let begin = gl!(c"glBegin": fn(u32));
    let end = gl!(c"glEnd": fn());
    let vertex = gl!(c"glVertex2f": fn(f32, f32));
    let tex_coord = gl!(c"glTexCoord3f": fn(f32, f32, f32));
    // SAFETY: immediate mode; plain values.
    unsafe {
        begin(GL_QUADS);
        for (x, y) in [(0.0, 0.0), (32.0, 0.0), (32.0, 32.0), (0.0, 32.0)] {
            tex_coord(s, t, r);
            vertex(x, y);
        }
        end();
    }
}

#[test]
fn fixed_function_units_sample_1d_2d_3d_and_cube_targets_by_priority() {
    const GL_TEXTURE_1D: u32 = 0x0DE0;
    const GL_TEXTURE_3D: u32 = 0x806F;
    const GL_TEXTURE_CUBE_MAP: u32 = 0x8513;
    const GL_TEXTURE_CUBE_MAP_POSITIVE_X: u32 = 0x8515;
    let _ctx = context(true);
    let gen_textures = gl!(c"glGenTextures": fn(i32, *mut u32));
    let bind_texture = gl!(c"glBindTexture": fn(u32, u32));
    let tex_image_1d = gl!(c"glTexImage1D": fn(u32, i32, i32, i32, i32, u32, u32, *const c_void));
    let tex_image_2d =
        gl!(c"glTexImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let tex_image_3d =
        gl!(c"glTexImage3D": fn(u32, i32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let tex_parameter = gl!(c"glTexParameteri": fn(u32, u32, i32));
    let enable = gl!(c"glEnable": fn(u32));
    let disable = gl!(c"glDisable": fn(u32));
    let is_enabled = gl!(c"glIsEnabled": fn(u32) -> u8);
    let color = gl!(c"glColor3f": fn(f32, f32, f32));
    let red: [u8; 4] = [255, 0, 0, 255];
    let green: [u8; 4] = [0, 255, 0, 255];
    let blue: [u8; 4] = [0, 0, 255, 255];
    let white: [u8; 4] = [255, 255, 255, 255];
    let pair =
        |a: [u8; 4], b: [u8; 4]| -> [u8; 8] { [a[0], a[1], a[2], a[3], b[0], b[1], b[2], b[3]] };
    let nearest = |target: u32| {
        // SAFETY: plain values.
        unsafe {
            tex_parameter(target, 0x2801, 0x2600); // MIN_FILTER NEAREST
            tex_parameter(target, 0x2800, 0x2600); // MAG_FILTER NEAREST
        }
    };
    // SAFETY: each image pointer holds the pixels its size names; plain values otherwise.
    unsafe {
        let mut t = [0u32; 4];
        gen_textures(4, t.as_mut_ptr());
        // 2D: white. 1D: red | green. 3D (1×1×2): blue, then green. Cube: +X red, the rest blue.
        bind_texture(GL_TEXTURE_2D, t[0]);
        tex_image_2d(
            GL_TEXTURE_2D,
            0,
            GL_RGBA as i32,
            1,
            1,
            0,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            white.as_ptr().cast(),
        );
        nearest(GL_TEXTURE_2D);
        bind_texture(GL_TEXTURE_1D, t[1]);
        let texels = pair(red, green);
        tex_image_1d(
            GL_TEXTURE_1D,
            0,
            GL_RGBA as i32,
            2,
            0,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            texels.as_ptr().cast(),
        );
        nearest(GL_TEXTURE_1D);
        bind_texture(GL_TEXTURE_3D, t[2]);
        let texels = pair(blue, green);
        tex_image_3d(
            GL_TEXTURE_3D,
            0,
            GL_RGBA as i32,
            1,
            1,
            2,
            0,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            texels.as_ptr().cast(),
        );
        nearest(GL_TEXTURE_3D);
        bind_texture(GL_TEXTURE_CUBE_MAP, t[3]);
        for face in 0..6 {
            let texel = if face == 0 { red } else { blue };
            tex_image_2d(
                GL_TEXTURE_CUBE_MAP_POSITIVE_X + face,
                0,
                GL_RGBA as i32,
                1,
                1,
                0,
                GL_RGBA,
                GL_UNSIGNED_BYTE,
                texel.as_ptr().cast(),
            );
        }
        nearest(GL_TEXTURE_CUBE_MAP);
        expect(GL_NO_ERROR);
        ortho_window();
        color(1.0, 1.0, 1.0);

        // 1D alone samples s only.
        enable(GL_TEXTURE_1D);
        clear_black();
        textured_quad(0.75, 0.0, 0.0);
        assert_eq!(at(&pixels(), 16, 16), green, "1D texel at s = 0.75");
        // 2D outranks 1D.
        enable(GL_TEXTURE_2D);
        clear_black();
        textured_quad(0.75, 0.0, 0.0);
        assert_eq!(at(&pixels(), 16, 16), white, "2D outranks 1D");
        // 3D outranks 2D and reads r.
        enable(GL_TEXTURE_3D);
        assert_eq!(is_enabled(GL_TEXTURE_3D), 1);
        clear_black();
        textured_quad(0.5, 0.5, 0.75);
        assert_eq!(at(&pixels(), 16, 16), green, "3D slice 1 at r = 0.75");
        clear_black();
        textured_quad(0.5, 0.5, 0.25);
        assert_eq!(at(&pixels(), 16, 16), blue, "3D slice 0 at r = 0.25");
        // The cube map outranks everything and reads a direction.
        enable(GL_TEXTURE_CUBE_MAP);
        assert_eq!(is_enabled(GL_TEXTURE_CUBE_MAP), 1);
        clear_black();
        textured_quad(1.0, 0.1, -0.2);
        assert_eq!(at(&pixels(), 16, 16), red, "+X face");
        clear_black();
        textured_quad(-0.2, 1.0, 0.1);
        assert_eq!(at(&pixels(), 16, 16), blue, "+Y face");
        // Disabling the cube map falls back to the next enabled target: 3D, then 2D.
        disable(GL_TEXTURE_CUBE_MAP);
        assert_eq!(is_enabled(GL_TEXTURE_CUBE_MAP), 0);
        clear_black();
        textured_quad(0.75, 0.5, 0.75);
        assert_eq!(at(&pixels(), 16, 16), green, "3D again");
        disable(GL_TEXTURE_3D);
        clear_black();
        textured_quad(0.75, 0.5, 0.75);
        assert_eq!(at(&pixels(), 16, 16), white, "2D again");
    }
    expect(GL_NO_ERROR);
}

#[test]
fn display_lists_record_immediate_mode_and_matrices_and_replay_them() {
    const GL_COMPILE: u32 = 0x1300;
    const GL_COMPILE_AND_EXECUTE: u32 = 0x1301;
    const GL_INVALID_VALUE: u32 = 0x0501;
    let _ctx = context(true);
    let gen_lists = gl!(c"glGenLists": fn(i32) -> u32);
    let new_list = gl!(c"glNewList": fn(u32, u32));
    let end_list = gl!(c"glEndList": fn());
    let call_list = gl!(c"glCallList": fn(u32));
    let call_lists = gl!(c"glCallLists": fn(i32, u32, *const c_void));
    let list_base = gl!(c"glListBase": fn(u32));
    let is_list = gl!(c"glIsList": fn(u32) -> u8);
    let delete_lists = gl!(c"glDeleteLists": fn(u32, i32));
    let color = gl!(c"glColor3f": fn(f32, f32, f32));
    let translate = gl!(c"glTranslatef": fn(f32, f32, f32));
    let rect = gl!(c"glRectf": fn(f32, f32, f32, f32));
    // SAFETY: plain values; `names` outlives glCallLists.
    unsafe {
        ortho_window();
        clear_black();
        let base = gen_lists(2);
        assert!(base != 0 && is_list(base) == 1 && is_list(base + 1) == 1);
        // List `base`: a red 8×8 square at the origin, then a move right by 16.
        new_list(base, GL_COMPILE);
        color(1.0, 0.0, 0.0);
        rect(0.0, 0.0, 8.0, 8.0);
        translate(16.0, 0.0, 0.0);
        end_list();
        expect(GL_NO_ERROR);
        assert_eq!(
            at(&pixels(), 4, 4),
            [0, 0, 0, 0],
            "GL_COMPILE draws nothing"
        );
        // List `base + 1`: green, calls `base` (nested), compiled and executed at once.
        new_list(base + 1, GL_COMPILE_AND_EXECUTE);
        color(0.0, 1.0, 0.0);
        call_list(base);
        end_list();
        expect(GL_NO_ERROR);
        // The nested list set red, then drew at x 0..8 and moved right.
        let px = pixels();
        assert_eq!(at(&px, 4, 4), [255, 0, 0, 255], "executed while compiled");
        // Now the modelview is +16: replay `base + 1` through glCallLists with a base.
        color(0.0, 0.0, 1.0);
        list_base(base);
        let names: [u8; 1] = [1];
        call_lists(1, GL_UNSIGNED_BYTE, names.as_ptr().cast());
        expect(GL_NO_ERROR);
        let px = pixels();
        assert_eq!(
            at(&px, 20, 4),
            [255, 0, 0, 255],
            "replayed at the moved origin"
        );
        assert_eq!(at(&px, 12, 4), [0, 0, 0, 0]);
        // Errors: list 0, a second glNewList, glEndList with none open.
        new_list(0, GL_COMPILE);
        expect(GL_INVALID_VALUE);
        new_list(base, GL_COMPILE);
        new_list(base + 1, GL_COMPILE);
        expect(GL_INVALID_OPERATION);
        end_list();
        end_list();
        expect(GL_INVALID_OPERATION);
        delete_lists(base, 2);
        assert_eq!(is_list(base), 0);
        call_list(base); // an undefined list does nothing
        expect(GL_NO_ERROR);
    }
}

#[test]
fn lighting_is_per_vertex_blinn_phong_with_material_and_colour_material() {
    const GL_LIGHTING: u32 = 0x0B50;
    const GL_LIGHT0: u32 = 0x4000;
    const GL_COLOR_MATERIAL: u32 = 0x0B57;
    const GL_FRONT_AND_BACK: u32 = 0x0408;
    const GL_DIFFUSE: u32 = 0x1201;
    const GL_POSITION: u32 = 0x1203;
    let _ctx = context(true);
    let enable = gl!(c"glEnable": fn(u32));
    let disable = gl!(c"glDisable": fn(u32));
    let material = gl!(c"glMaterialfv": fn(u32, u32, *const f32));
    let light = gl!(c"glLightfv": fn(u32, u32, *const f32));
    let normal = gl!(c"glNormal3f": fn(f32, f32, f32));
    let color = gl!(c"glColor3f": fn(f32, f32, f32));
    let rect = gl!(c"glRectf": fn(f32, f32, f32, f32));
    let red = [1.0f32, 0.0, 0.0, 1.0];
    // SAFETY: pointers to locals of four floats; plain values.
    unsafe {
        ortho_window();
        clear_black();
        material(GL_FRONT_AND_BACK, GL_DIFFUSE, red.as_ptr());
        enable(GL_LIGHTING);
        enable(GL_LIGHT0);
        // Light 0 defaults: white, directional along +z. Diffuse = n·l; ambient = 0.2 × 0.2.
        normal(0.0, 0.0, 1.0);
        rect(0.0, 0.0, 16.0, 32.0);
        // A normal at 60° from the light: n·l = 0.5.
        normal(0.866_025_4, 0.0, 0.5);
        rect(16.0, 0.0, 32.0, 16.0);
        // Colour material: the current colour is the diffuse (and ambient) colour.
        enable(GL_COLOR_MATERIAL);
        color(0.0, 1.0, 0.0);
        normal(0.0, 0.0, 1.0);
        rect(16.0, 16.0, 32.0, 32.0);
        disable(GL_COLOR_MATERIAL);
    }
    expect(GL_NO_ERROR);
    let px = pixels();
    // 1.0 + 0.04 clamps to 255; 0.04 × 255 ≈ 10.
    assert_eq!(
        at(&px, 8, 16),
        [255, 10, 10, 255],
        "full diffuse plus ambient"
    );
    let half = at(&px, 24, 8);
    assert!(
        (137..=140).contains(&half[0]) && half[1] == 10,
        "n·l = 0.5: {half:?}"
    );
    // Ambient follows the colour too: 0.2 × (0, 1, 0) × 0.2 → green only.
    assert_eq!(at(&px, 24, 24), [0, 255, 0, 255], "colour material");
    // A light moved behind the surface leaves only the ambient term: the material ambient
    // that colour material left green (1.0) × the scene's 0.2.
    let behind = [0.0f32, 0.0, -1.0, 0.0];
    // SAFETY: as above.
    unsafe {
        clear_black();
        light(GL_LIGHT0, GL_POSITION, behind.as_ptr());
        normal(0.0, 0.0, 1.0);
        rect(0.0, 0.0, 32.0, 32.0);
    }
    expect(GL_NO_ERROR);
    assert_eq!(at(&pixels(), 16, 16), [0, 51, 0, 255], "ambient only");
}

#[test]
fn bitmaps_and_draw_pixels_draw_at_the_raster_position_with_zoom_and_scissor() {
    const GL_SCISSOR_TEST: u32 = 0x0C11;
    const GL_UNPACK_ALIGNMENT: u32 = 0x0CF5;
    let _ctx = context(true);
    let color = gl!(c"glColor3f": fn(f32, f32, f32));
    let window_pos = gl!(c"glWindowPos2i": fn(i32, i32));
    let bitmap = gl!(c"glBitmap": fn(i32, i32, f32, f32, f32, f32, *const u8));
    let draw_pixels = gl!(c"glDrawPixels": fn(i32, i32, u32, u32, *const c_void));
    let zoom = gl!(c"glPixelZoom": fn(f32, f32));
    let enable = gl!(c"glEnable": fn(u32));
    let disable = gl!(c"glDisable": fn(u32));
    let scissor = gl!(c"glScissor": fn(i32, i32, i32, i32));
    let store = gl!(c"glPixelStorei": fn(u32, i32));
    let viewport = gl!(c"glViewport": fn(i32, i32, i32, i32));
    // An 8×2 bitmap: row 0 = 1100_0011, row 1 = 0000_0000 (alignment 1).
    let bits: [u8; 2] = [0b1100_0011, 0];
    // 2×1 RGBA pixels: red, green.
    let image: [u8; 8] = [255, 0, 0, 255, 0, 255, 0, 255];
    // SAFETY: the pointers hold what the sizes and unpack state say; plain values otherwise.
    unsafe {
        clear_black();
        store(GL_UNPACK_ALIGNMENT, 1);
        // The raster colour is the colour when the position is set, not at glBitmap.
        color(0.0, 0.0, 1.0);
        window_pos(4, 4);
        color(1.0, 1.0, 1.0);
        // A viewport that does not cover the drawable: window positions ignore it.
        viewport(0, 0, 8, 8);
        bitmap(8, 2, 0.0, 0.0, 10.0, 0.0, bits.as_ptr());
        // The raster position moved right by 10: zoomed ×4 pixels at (14, 4).
        zoom(4.0, 4.0);
        draw_pixels(2, 1, GL_RGBA, GL_UNSIGNED_BYTE, image.as_ptr().cast());
        // Scissored: a second copy at (4, 20) keeps only x < 6.
        zoom(1.0, 1.0);
        window_pos(4, 20);
        enable(GL_SCISSOR_TEST);
        scissor(0, 0, 6, 32);
        bitmap(8, 2, 0.0, 0.0, 0.0, 0.0, bits.as_ptr());
        disable(GL_SCISSOR_TEST);
    }
    expect(GL_NO_ERROR);
    let px = pixels();
    let blue = [0, 0, 255, 255];
    assert_eq!(at(&px, 4, 4), blue, "set bit 0");
    assert_eq!(at(&px, 5, 4), blue, "set bit 1");
    assert_eq!(at(&px, 6, 4), [0, 0, 0, 0], "clear bit 2");
    assert_eq!(at(&px, 11, 4), blue, "set bit 7");
    assert_eq!(at(&px, 4, 5), [0, 0, 0, 0], "row 1 is clear");
    assert_eq!(at(&px, 15, 6), [255, 0, 0, 255], "zoomed red pixel");
    assert_eq!(at(&px, 20, 7), [0, 255, 0, 255], "zoomed green pixel");
    assert_eq!(at(&px, 22, 4), [0, 0, 0, 0], "past the zoomed image");
    // Set after the white colour: this copy is white.
    assert_eq!(at(&px, 5, 20), [255; 4], "inside the scissor");
    assert_eq!(at(&px, 11, 20), [0, 0, 0, 0], "outside the scissor");
}

#[test]
fn packed_immediate_mode_vertices_and_colours_unpack_2_10_10_10() {
    const GL_UNSIGNED_INT_2_10_10_10_REV: u32 = 0x8368;
    let _ctx = context(true);
    let begin = gl!(c"glBegin": fn(u32));
    let end = gl!(c"glEnd": fn());
    let vertex_p2 = gl!(c"glVertexP2ui": fn(u32, u32));
    let color_p4 = gl!(c"glColorP4ui": fn(u32, u32));
    // Colour: r = 1023 (1.0), g = 0, b = 0, a = 3 (1.0).
    let red = 1023 | (3 << 30);
    // SAFETY: plain values.
    unsafe {
        ortho_window();
        clear_black();
        color_p4(GL_UNSIGNED_INT_2_10_10_10_REV, red);
        begin(GL_QUADS);
        for (x, y) in [(0u32, 0u32), (16, 0), (16, 32), (0, 32)] {
            vertex_p2(GL_UNSIGNED_INT_2_10_10_10_REV, x | (y << 10));
        }
        end();
        color_p4(GL_FLOAT, red);
        expect(GL_INVALID_ENUM);
    }
    expect(GL_NO_ERROR);
    let px = pixels();
    assert_eq!(at(&px, 8, 16), [255, 0, 0, 255]);
    assert_eq!(at(&px, 24, 16), [0, 0, 0, 0]);
}

/// Whether the current context advertises `name` (`glGetStringi`, which both profiles have).
fn has_extension(name: &str) -> bool {
    let get_integer = gl!(c"glGetIntegerv": fn(u32, *mut i32));
    let get_string_i = gl!(c"glGetStringi": fn(u32, u32) -> *const std::ffi::c_char);
    // SAFETY: indices below GL_NUM_EXTENSIONS; the strings are NUL-terminated and static.
    unsafe {
        let mut n = 0;
        get_integer(0x821D, &mut n);
        (0..n as u32).any(|i| {
            std::ffi::CStr::from_ptr(get_string_i(0x1F03, i)).to_bytes() == name.as_bytes()
        })
    }
}

#[test]
fn arb_shader_objects_handles_are_shaders_and_programs() {
    let _ctx = context(true);
    for ext in [
        "GL_ARB_shader_objects",
        "GL_ARB_vertex_shader",
        "GL_ARB_fragment_shader",
        "GL_ARB_shading_language_100",
    ] {
        assert!(has_extension(ext), "{ext}");
    }
    let create_shader = gl!(c"glCreateShaderObjectARB": fn(u32) -> u32);
    let create_program = gl!(c"glCreateProgramObjectARB": fn() -> u32);
    let source = gl!(c"glShaderSourceARB": fn(u32, i32, *const *const i8, *const i32));
    let compile = gl!(c"glCompileShaderARB": fn(u32));
    let attach = gl!(c"glAttachObjectARB": fn(u32, u32));
    let link = gl!(c"glLinkProgramARB": fn(u32));
    let use_program = gl!(c"glUseProgramObjectARB": fn(u32));
    let handle = gl!(c"glGetHandleARB": fn(u32) -> u32);
    let param = gl!(c"glGetObjectParameterivARB": fn(u32, u32, *mut i32));
    let paramf = gl!(c"glGetObjectParameterfvARB": fn(u32, u32, *mut f32));
    let info_log = gl!(c"glGetInfoLogARB": fn(u32, i32, *mut i32, *mut i8));
    let attached = gl!(c"glGetAttachedObjectsARB": fn(u32, i32, *mut i32, *mut u32));
    let delete = gl!(c"glDeleteObjectARB": fn(u32));
    let vs = c"attribute vec4 p; void main() { gl_Position = p; }";
    let fs = c"void main() { gl_FragColor = vec4(1.0); }";
    let broken = c"void main() { gl_FragColor = undefined_name; }";
    // SAFETY: NUL-terminated sources with NULL lengths; out-pointers are locals of the sizes
    // given.
    unsafe {
        let v = create_shader(0x8B31);
        let fr = create_shader(0x8B30);
        let bad = create_shader(0x8B30);
        for (s, src) in [(v, vs), (fr, fs), (bad, broken)] {
            source(s, 1, &src.as_ptr(), null());
            compile(s);
        }
        let p = create_program();
        attach(p, v);
        attach(p, fr);
        link(p);
        expect(GL_NO_ERROR);
        let get = |o: u32, pname: u32| {
            let mut x = -1;
            param(o, pname, &mut x);
            x
        };
        assert_eq!(get(p, 0x8B4E), 0x8B40, "GL_OBJECT_TYPE_ARB of a program");
        assert_eq!(get(fr, 0x8B4E), 0x8B48, "GL_OBJECT_TYPE_ARB of a shader");
        assert_eq!(get(fr, 0x8B4F), 0x8B30, "GL_OBJECT_SUBTYPE_ARB");
        assert_eq!(get(p, 0x8B82), 1, "GL_OBJECT_LINK_STATUS_ARB");
        assert_eq!(get(bad, 0x8B81), 0, "GL_OBJECT_COMPILE_STATUS_ARB");
        assert_eq!(get(p, 0x8B85), 2, "GL_OBJECT_ATTACHED_OBJECTS_ARB");
        let mut f = 0.0;
        paramf(v, 0x8B81, &mut f);
        assert_eq!(f, 1.0);
        expect(GL_NO_ERROR);
        // The info log of a shader that failed names the problem.
        let mut log = [0i8; 512];
        let mut len = 0;
        info_log(bad, 512, &mut len, log.as_mut_ptr());
        assert!(len > 0);
        let text = std::ffi::CStr::from_ptr(log.as_ptr()).to_string_lossy();
        assert!(text.contains("undefined_name"), "{text}");
        let mut names = [0u32; 4];
        let mut n = 0;
        attached(p, 4, &mut n, names.as_mut_ptr());
        assert_eq!((n, names[0] + names[1]), (2, v + fr));
        // The current program is the handle GL_PROGRAM_OBJECT_ARB names.
        use_program(p);
        assert_eq!(handle(0x8B40), p);
        assert_eq!(handle(0x8B48), 0);
        expect(GL_INVALID_ENUM);
        // Errors: an unknown handle, and a subtype of a program.
        let mut untouched = 7;
        param(p + 100, 0x8B4E, &mut untouched);
        expect(GL_INVALID_VALUE);
        param(p, 0x8B4F, &mut untouched);
        expect(GL_INVALID_ENUM);
        assert_eq!(untouched, 7, "a failed query writes nothing");
        delete(p + 100);
        expect(GL_INVALID_VALUE);
        // glDeleteObjectARB deletes either kind.
        use_program(0);
        delete(bad);
        delete(p);
        delete(0);
        expect(GL_NO_ERROR);
        let is_program = gl!(c"glIsProgram": fn(u32) -> u8);
        let is_shader = gl!(c"glIsShader": fn(u32) -> u8);
        assert_eq!((is_program(p), is_shader(bad), is_shader(v)), (0, 0, 1));
    }
    drop(_ctx);
    let _core = context(false);
    assert!(
        !has_extension("GL_ARB_shader_objects"),
        "core contexts do not advertise it"
    );
}

#[test]
fn only_per_vertex_commands_run_between_begin_and_end() {
    let _ctx = context(true);
    let begin = gl!(c"glBegin": fn(u32));
    let end = gl!(c"glEnd": fn());
    let vertex = gl!(c"glVertex2f": fn(f32, f32));
    let color = gl!(c"glColor3f": fn(f32, f32, f32));
    let enable = gl!(c"glEnable": fn(u32));
    let is_enabled = gl!(c"glIsEnabled": fn(u32) -> u8);
    let create_program = gl!(c"glCreateProgram": fn() -> u32);
    // SAFETY: plain values.
    unsafe {
        begin(0x0004); // GL_TRIANGLES
        color(0.0, 1.0, 0.0);
        vertex(-1.0, -1.0);
        expect(GL_NO_ERROR);
        // Refused and ignored inside glBegin/glEnd (GL 2.1 section 2.6.3).
        enable(0x0BE2); // GL_BLEND
        expect(GL_INVALID_OPERATION);
        assert_eq!(create_program(), 0);
        expect(GL_INVALID_OPERATION);
        vertex(1.0, -1.0);
        vertex(-1.0, 1.0);
        end();
        expect(GL_NO_ERROR);
        assert_eq!(is_enabled(0x0BE2), 0, "the refused glEnable did nothing");
        // Outside, the same commands work.
        enable(0x0BE2);
        assert_eq!(is_enabled(0x0BE2), 1);
        assert_ne!(create_program(), 0);
        expect(GL_NO_ERROR);
    }
}

/// piglit copyteximage (it sets GL_GENERATE_MIPMAP on every texture): with the compatibility
/// profile's GL_GENERATE_MIPMAP set, each change to the base level regenerates the levels above
/// it; the core profile has no such parameter.
#[test]
fn generate_mipmap_regenerates_the_levels_when_the_base_level_changes() {
    const GL_GENERATE_MIPMAP: u32 = 0x8191;
    const GL_RGBA8: i32 = 0x8058;
    let _ctx = context(true);
    let gen_textures = gl!(c"glGenTextures": fn(i32, *mut u32));
    let bind_texture = gl!(c"glBindTexture": fn(u32, u32));
    let tex_image = gl!(c"glTexImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let sub_image =
        gl!(c"glTexSubImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let param = gl!(c"glTexParameteri": fn(u32, u32, i32));
    let get_param = gl!(c"glGetTexParameteriv": fn(u32, u32, *mut i32));
    let get_image = gl!(c"glGetTexImage": fn(u32, i32, u32, u32, *mut c_void));
    let level = |l: i32| -> [u8; 4] {
        let mut px = [0u8; 4];
        // SAFETY: a 1×1 RGBA8 level into a 4-byte local (the 2×2 level is read partly: the
        // callers read level 2 only).
        unsafe {
            get_image(
                GL_TEXTURE_2D,
                l,
                GL_RGBA,
                GL_UNSIGNED_BYTE,
                px.as_mut_ptr().cast(),
            )
        };
        px
    };
    let first = [10u8, 20, 30, 40].repeat(16);
    let second = [200u8, 100, 50, 250].repeat(16);
    // SAFETY: 4×4 RGBA8 images from live vectors; out-pointers to locals.
    unsafe {
        let mut t = 0;
        gen_textures(1, &mut t);
        bind_texture(GL_TEXTURE_2D, t);
        param(GL_TEXTURE_2D, GL_GENERATE_MIPMAP, 1);
        let mut v = 0;
        get_param(GL_TEXTURE_2D, GL_GENERATE_MIPMAP, &mut v);
        assert_eq!(v, 1);
        tex_image(
            GL_TEXTURE_2D,
            0,
            GL_RGBA8,
            4,
            4,
            0,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            first.as_ptr().cast(),
        );
        expect(GL_NO_ERROR);
        assert_eq!(level(2), [10, 20, 30, 40], "generated by glTexImage2D");
        sub_image(
            GL_TEXTURE_2D,
            0,
            0,
            0,
            4,
            4,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            second.as_ptr().cast(),
        );
        expect(GL_NO_ERROR);
        assert_eq!(
            level(2),
            [200, 100, 50, 250],
            "regenerated by glTexSubImage2D"
        );
        // Off: the levels keep what they have.
        param(GL_TEXTURE_2D, GL_GENERATE_MIPMAP, 0);
        sub_image(
            GL_TEXTURE_2D,
            0,
            0,
            0,
            4,
            4,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            first.as_ptr().cast(),
        );
        assert_eq!(level(2), [200, 100, 50, 250], "not regenerated");
    }
    expect(GL_NO_ERROR);
    drop(_ctx);
    let _core = context(false);
    // SAFETY: out-pointer to a local.
    unsafe {
        let mut t = 0;
        gen_textures(1, &mut t);
        bind_texture(GL_TEXTURE_2D, t);
        param(GL_TEXTURE_2D, GL_GENERATE_MIPMAP, 1);
        expect(GL_INVALID_ENUM);
    }
}

/// piglit texrect-many: immediate mode keeps each vertex's texture coordinates of every unit
/// given a `glMultiTexCoord`, including vertices emitted before the first such call (they keep
/// the unit's current value from before).
#[test]
fn immediate_mode_vertices_carry_every_units_texture_coordinates() {
    const GL_TEXTURE1: u32 = 0x84C1;
    let _ctx = context(true);
    let gen_textures = gl!(c"glGenTextures": fn(i32, *mut u32));
    let bind_texture = gl!(c"glBindTexture": fn(u32, u32));
    let tex_image = gl!(c"glTexImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let param = gl!(c"glTexParameteri": fn(u32, u32, i32));
    let active = gl!(c"glActiveTexture": fn(u32));
    let enable = gl!(c"glEnable": fn(u32));
    let multi = gl!(c"glMultiTexCoord2f": fn(u32, f32, f32));
    let begin = gl!(c"glBegin": fn(u32));
    let end = gl!(c"glEnd": fn());
    let vertex = gl!(c"glVertex2f": fn(f32, f32));
    // Texel 0 red, texel 1 green, on unit 1 only.
    let texels: [u8; 8] = [255, 0, 0, 255, 0, 255, 0, 255];
    // SAFETY: a 2×1 RGBA8 image from a live array; plain values.
    unsafe {
        active(GL_TEXTURE1);
        let mut t = 0;
        gen_textures(1, &mut t);
        bind_texture(GL_TEXTURE_2D, t);
        tex_image(
            GL_TEXTURE_2D,
            0,
            GL_RGBA as i32,
            2,
            1,
            0,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            texels.as_ptr().cast(),
        );
        param(GL_TEXTURE_2D, 0x2801, 0x2600);
        param(GL_TEXTURE_2D, 0x2800, 0x2600);
        enable(GL_TEXTURE_2D);
        ortho_window();
        clear_black();
        // s runs from 1 on the left to 0 on the right. The first vertex is emitted before any
        // glMultiTexCoord inside the pair, with the current s = 1.
        multi(GL_TEXTURE1, 1.0, 0.5);
        begin(GL_QUADS);
        vertex(0.0, 0.0);
        multi(GL_TEXTURE1, 0.0, 0.5);
        vertex(32.0, 0.0);
        vertex(32.0, 32.0);
        multi(GL_TEXTURE1, 1.0, 0.5);
        vertex(0.0, 32.0);
        end();
    }
    expect(GL_NO_ERROR);
    let px = pixels();
    for (x, y) in [(4, 4), (4, 28)] {
        assert_eq!(at(&px, x, y), [0, 255, 0, 255], "left ({x}, {y}): texel 1");
    }
    for (x, y) in [(28, 4), (28, 28)] {
        assert_eq!(at(&px, x, y), [255, 0, 0, 255], "right ({x}, {y}): texel 0");
    }
}

/// piglit fbo-mrt-new-bind (through `piglit_draw_rect`): in a compatibility context generic
/// attribute 0 aliases the conventional vertex array, so a GLSL 1.30 program whose `pos` is at
/// location 0 draws from `glVertexPointer`'s array.
#[test]
fn a_generic_input_at_location_zero_reads_the_vertex_pointer_array() {
    let _ctx = context(true);
    let vertex_pointer = gl!(c"glVertexPointer": fn(i32, u32, i32, *const c_void));
    let enable_client = gl!(c"glEnableClientState": fn(u32));
    let bind_attrib = gl!(c"glBindAttribLocation": fn(u32, u32, *const i8));
    let link = gl!(c"glLinkProgram": fn(u32));
    let use_program = gl!(c"glUseProgram": fn(u32));
    let draw_arrays = gl!(c"glDrawArrays": fn(u32, i32, i32));
    let p = gl_harness::program(
        "#version 130\nin vec4 pos;\nvoid main() { gl_Position = pos; }\n",
        "#version 130\nvoid main() { gl_FragColor = vec4(0.0, 1.0, 0.0, 1.0); }\n",
    );
    // The left half of the drawable.
    let quad: [f32; 8] = [-1.0, -1.0, 0.0, -1.0, -1.0, 1.0, 0.0, 1.0];
    clear_black();
    // SAFETY: `quad` outlives the draw; plain values otherwise.
    unsafe {
        bind_attrib(p, 0, c"pos".as_ptr());
        link(p);
        use_program(p);
        vertex_pointer(2, GL_FLOAT, 0, quad.as_ptr().cast());
        enable_client(0x8074); // GL_VERTEX_ARRAY; generic array 0 stays disabled
        draw_arrays(0x0005, 0, 4); // GL_TRIANGLE_STRIP
    }
    expect(GL_NO_ERROR);
    let px = pixels();
    assert_eq!(at(&px, 4, 16), [0, 255, 0, 255], "inside the quad");
    assert_eq!(at(&px, 28, 16), [0, 0, 0, 0], "outside it: the clear");
}

/// piglit depth-tex-modes-glsl: a GLSL 1.10 `texture2D` of a depth texture without comparison
/// returns the depth through GL_DEPTH_TEXTURE_MODE (luminance by default); GLSL 1.30 returns
/// (D, 0, 0, 1) whatever the mode.
#[test]
fn legacy_glsl_lookups_of_depth_textures_follow_the_depth_mode() {
    const GL_DEPTH_COMPONENT: u32 = 0x1902;
    const GL_ALPHA: i32 = 0x1906;
    let _ctx = context(true);
    let gen_textures = gl!(c"glGenTextures": fn(i32, *mut u32));
    let bind_texture = gl!(c"glBindTexture": fn(u32, u32));
    let tex_image = gl!(c"glTexImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let param = gl!(c"glTexParameteri": fn(u32, u32, i32));
    let use_program = gl!(c"glUseProgram": fn(u32));
    let vs =
        "#version 110\nvoid main() { gl_Position = gl_ModelViewProjectionMatrix * gl_Vertex; }\n";
    let fs110 = "#version 110\nuniform sampler2D t;\nvoid main() { gl_FragColor = texture2D(t, vec2(0.5)); }\n";
    let vs130 =
        "#version 130\nvoid main() { gl_Position = gl_ModelViewProjectionMatrix * gl_Vertex; }\n";
    let fs130 = "#version 130\nuniform sampler2D t;\nout vec4 c;\nvoid main() { c = texture(t, vec2(0.5)); }\n";
    let legacy = gl_harness::program(vs, fs110);
    let modern = gl_harness::program(vs130, fs130);
    let depth = [0.75f32];
    let draw = |program: u32| -> [u8; 4] {
        // SAFETY: a program made above.
        unsafe { use_program(program) };
        clear_black();
        textured_quad(0.5, 0.5, 0.0);
        at(&pixels(), 16, 16)
    };
    let near = |got: [u8; 4], want: [u8; 4], what: &str| {
        let close = got.iter().zip(want).all(|(g, w)| g.abs_diff(w) <= 1);
        assert!(close, "{what}: {got:?}, want {want:?}");
    };
    // SAFETY: one float depth texel from a live array; out-pointer to a local.
    unsafe {
        ortho_window();
        let mut t = 0;
        gen_textures(1, &mut t);
        bind_texture(GL_TEXTURE_2D, t);
        tex_image(
            GL_TEXTURE_2D,
            0,
            GL_DEPTH_COMPONENT as i32,
            1,
            1,
            0,
            GL_DEPTH_COMPONENT,
            GL_FLOAT,
            depth.as_ptr().cast(),
        );
        param(GL_TEXTURE_2D, 0x2801, 0x2600);
        param(GL_TEXTURE_2D, 0x2800, 0x2600);
        near(
            draw(legacy),
            [191, 191, 191, 255],
            "luminance (the default)",
        );
        param(GL_TEXTURE_2D, GL_DEPTH_TEXTURE_MODE, GL_INTENSITY as i32);
        near(draw(legacy), [191, 191, 191, 191], "intensity");
        param(GL_TEXTURE_2D, GL_DEPTH_TEXTURE_MODE, GL_ALPHA);
        near(draw(legacy), [0, 0, 0, 191], "alpha");
        near(draw(modern), [191, 0, 0, 255], "GLSL 1.30 ignores the mode");
    }
    expect(GL_NO_ERROR);
}
