//! Cube map arrays through the C ABI (GL_ARB_texture_cube_map_array): `glTexImage3D` of
//! `GL_TEXTURE_CUBE_MAP_ARRAY` with a depth of whole cubes, sampled by `samplerCubeArray` at a
//! direction and a cube index (each layer-face holds its own colour, read back as pixels),
//! `glTexSubImage3D` into one layer-face, `glGetTexImage` of every layer-face, the binding query
//! and the size errors. The validation layer must stay silent.

use std::ffi::c_void;
use std::ptr::null;

#[macro_use]
#[path = "common/gl.rs"]
mod gl_harness;

use gl_harness::{expect, f};

const GL_NO_ERROR: u32 = 0;
const GL_INVALID_VALUE: u32 = 0x0501;
const GL_TEXTURE_CUBE_MAP_ARRAY: u32 = 0x9009;
const GL_TEXTURE_BINDING_CUBE_MAP_ARRAY: u32 = 0x900A;
const GL_TEXTURE_MIN_FILTER: u32 = 0x2801;
const GL_TEXTURE_MAG_FILTER: u32 = 0x2800;
const GL_NEAREST: i32 = 0x2600;
const GL_RGBA: u32 = 0x1908;
const GL_RGBA8: i32 = 0x8058;
const GL_UNSIGNED_BYTE: u32 = 0x1401;
const GL_ARRAY_BUFFER: u32 = 0x8892;
const GL_STATIC_DRAW: u32 = 0x88E4;
const GL_FLOAT: u32 = 0x1406;
const GL_TRIANGLE_STRIP: u32 = 5;

const VS: &str = "#version 330\nlayout(location = 0) in vec2 pos;\nvoid main() { gl_Position = vec4(pos, 0.0, 1.0); }\n";
const FS: &str = "#version 330\n#extension GL_ARB_texture_cube_map_array : require\nuniform samplerCubeArray tex;\nuniform vec4 coord;\nout vec4 frag;\nvoid main() { frag = texture(tex, coord); }\n";

/// Layer-face `i`'s colour (layer-face = cube × 6 + face).
fn colour(i: u8) -> [u8; 4] {
    [i * 20, 255 - i * 20, 7, 255]
}

/// Two 2×2 cubes, layer-face `i` filled with `colour(i)`, bound with nearest filtering.
fn cube_array() {
    let image =
        gl!(c"glTexImage3D": fn(u32, i32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let param = gl!(c"glTexParameteri": fn(u32, u32, i32));
    let texels: Vec<u8> = (0..12u8).flat_map(|i| colour(i).repeat(4)).collect();
    gl_harness::new_texture(GL_TEXTURE_CUBE_MAP_ARRAY);
    // SAFETY: `texels` holds 2×2×12 RGBA texels.
    unsafe {
        image(
            GL_TEXTURE_CUBE_MAP_ARRAY,
            0,
            GL_RGBA8,
            2,
            2,
            12,
            0,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            texels.as_ptr().cast(),
        );
        param(GL_TEXTURE_CUBE_MAP_ARRAY, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        param(GL_TEXTURE_CUBE_MAP_ARRAY, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    }
    expect(GL_NO_ERROR);
}

/// The centre pixel after drawing the window with the lookup at `coord`.
fn sample(program: u32, coord: [f32; 4]) -> [u8; 4] {
    let location = gl!(c"glGetUniformLocation": fn(u32, *const std::ffi::c_char) -> i32);
    let uniform = gl!(c"glUniform4f": fn(i32, f32, f32, f32, f32));
    let draw = gl!(c"glDrawArrays": fn(u32, i32, i32));
    // SAFETY: a NUL-terminated name; plain values.
    unsafe {
        uniform(
            location(program, c"coord".as_ptr()),
            coord[0],
            coord[1],
            coord[2],
            coord[3],
        );
        draw(GL_TRIANGLE_STRIP, 0, 4);
    }
    let v = gl_harness::read_rgba(16, 16, 1, 1);
    [v[0], v[1], v[2], v[3]]
}

#[test]
fn sampler_cube_array_reads_the_face_of_the_cube_it_names() {
    let _ctx = gl_harness::context();
    let gen_vaos = gl!(c"glGenVertexArrays": fn(i32, *mut u32));
    let bind_vao = gl!(c"glBindVertexArray": fn(u32));
    let gen_buffers = gl!(c"glGenBuffers": fn(i32, *mut u32));
    let bind_buffer = gl!(c"glBindBuffer": fn(u32, u32));
    let data = gl!(c"glBufferData": fn(u32, isize, *const c_void, u32));
    let pointer = gl!(c"glVertexAttribPointer": fn(u32, i32, u32, u8, i32, *const c_void));
    let enable = gl!(c"glEnableVertexAttribArray": fn(u32));
    let use_program = gl!(c"glUseProgram": fn(u32));
    let sub_image = gl!(c"glTexSubImage3D": fn(u32, i32, i32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let strip: [f32; 8] = [-1.0, -1.0, 1.0, -1.0, -1.0, 1.0, 1.0, 1.0];
    let program = gl_harness::program(VS, FS);
    cube_array();
    // SAFETY: `strip` holds 32 bytes; out-pointers to locals.
    unsafe {
        let (mut vao, mut b) = (0, 0);
        gen_vaos(1, &mut vao);
        bind_vao(vao);
        gen_buffers(1, &mut b);
        bind_buffer(GL_ARRAY_BUFFER, b);
        data(GL_ARRAY_BUFFER, 32, strip.as_ptr().cast(), GL_STATIC_DRAW);
        pointer(0, 2, GL_FLOAT, 0, 0, null());
        enable(0);
        use_program(program);
    }
    // +X of cube 0 is layer-face 0; +X, -Y and -Z of cube 1 are 6, 9 and 11.
    assert_eq!(sample(program, [1.0, 0.0, 0.0, 0.0]), colour(0));
    assert_eq!(sample(program, [1.0, 0.0, 0.0, 1.0]), colour(6));
    assert_eq!(sample(program, [0.0, -1.0, 0.0, 1.0]), colour(9));
    assert_eq!(sample(program, [0.0, 0.0, -1.0, 1.0]), colour(11));
    // A sub-image into layer-face 9 alone.
    let white = [255u8; 16];
    // SAFETY: `white` holds 2×2×1 RGBA texels.
    unsafe {
        sub_image(
            GL_TEXTURE_CUBE_MAP_ARRAY,
            0,
            0,
            0,
            9,
            2,
            2,
            1,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            white.as_ptr().cast(),
        )
    };
    expect(GL_NO_ERROR);
    assert_eq!(sample(program, [0.0, -1.0, 0.0, 1.0]), [255; 4]);
    assert_eq!(sample(program, [0.0, -1.0, 0.0, 0.0]), colour(3));
    expect(GL_NO_ERROR);
}

#[test]
fn cube_map_array_sizes_queries_and_read_back() {
    let _ctx = gl_harness::context();
    let get = gl!(c"glGetIntegerv": fn(u32, *mut i32));
    let image =
        gl!(c"glTexImage3D": fn(u32, i32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let storage = gl!(c"glTexStorage3D": fn(u32, i32, u32, i32, i32, i32));
    let get_image = gl!(c"glGetTexImage": fn(u32, i32, u32, u32, *mut c_void));
    cube_array();
    let mut bound = 0;
    let mut back = vec![0u8; 2 * 2 * 12 * 4];
    // SAFETY: out-pointers to locals; `back` holds the whole level; null pixels read nothing.
    unsafe {
        get(GL_TEXTURE_BINDING_CUBE_MAP_ARRAY, &mut bound);
        assert_ne!(bound, 0);
        get_image(
            GL_TEXTURE_CUBE_MAP_ARRAY,
            0,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            back.as_mut_ptr().cast(),
        );
        expect(GL_NO_ERROR);
        for i in 0..12u8 {
            let at = i as usize * 16;
            assert_eq!(back[at..at + 4], colour(i), "layer-face {i}");
        }
        image(
            GL_TEXTURE_CUBE_MAP_ARRAY,
            0,
            GL_RGBA8,
            2,
            2,
            7,
            0,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            null(),
        );
        expect(GL_INVALID_VALUE); // not whole cubes
        image(
            GL_TEXTURE_CUBE_MAP_ARRAY,
            0,
            GL_RGBA8,
            2,
            4,
            6,
            0,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            null(),
        );
        expect(GL_INVALID_VALUE); // faces not square
        gl_harness::new_texture(GL_TEXTURE_CUBE_MAP_ARRAY);
        storage(GL_TEXTURE_CUBE_MAP_ARRAY, 1, GL_RGBA8 as u32, 4, 4, 8);
        expect(GL_INVALID_VALUE);
        storage(GL_TEXTURE_CUBE_MAP_ARRAY, 3, GL_RGBA8 as u32, 4, 4, 18);
        expect(GL_NO_ERROR);
    }
}
