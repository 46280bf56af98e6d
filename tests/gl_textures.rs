//! Texture targets through the C ABI: every target GL 3.3 samples (1D, 2D, 3D, cube, 1D and 2D
//! arrays) specified with `glTexImage*`/`glTexStorage*`/`glTexSubImage*`, sampled in a shader
//! and read back exactly; immutable storage and the spec's errors; mipmap generation over layers
//! and faces; rendering into a layer and a face. The built `libarenagl.so` is loaded by path,
//! every function reached through `eglGetProcAddress`; each test makes its own context.

use std::ffi::c_void;
use std::ptr::null;

#[macro_use]
#[path = "common/gl.rs"]
mod gl_harness;

use gl_harness::{context, error, expect, f};

const GL_NO_ERROR: u32 = 0;
const GL_INVALID_ENUM: u32 = 0x0500;
const GL_INVALID_VALUE: u32 = 0x0501;
const GL_INVALID_OPERATION: u32 = 0x0502;
const GL_UNSIGNED_BYTE: u32 = 0x1401;
const GL_RGBA: u32 = 0x1908;
const GL_RGBA8: u32 = 0x8058;
const GL_TEXTURE_1D: u32 = 0x0DE0;
const GL_TEXTURE_2D: u32 = 0x0DE1;
const GL_TEXTURE_3D: u32 = 0x806F;
const GL_TEXTURE_1D_ARRAY: u32 = 0x8C18;
const GL_TEXTURE_2D_ARRAY: u32 = 0x8C1A;
const GL_TEXTURE_CUBE_MAP: u32 = 0x8513;
const GL_TEXTURE_CUBE_MAP_POSITIVE_X: u32 = 0x8515;
const GL_TEXTURE_BINDING_3D: u32 = 0x806A;
const GL_TEXTURE_BINDING_CUBE_MAP: u32 = 0x8514;
const GL_TEXTURE_BINDING_2D: u32 = 0x8069;
const GL_TEXTURE_MIN_FILTER: u32 = 0x2801;
const GL_TEXTURE_MAG_FILTER: u32 = 0x2800;
const GL_TEXTURE_IMMUTABLE_FORMAT: u32 = 0x912F;
const GL_NEAREST: i32 = 0x2600;
const GL_NEAREST_MIPMAP_NEAREST: i32 = 0x2700;
const GL_TRIANGLES: u32 = 4;
const GL_FRAMEBUFFER: u32 = 0x8D40;
const GL_COLOR_ATTACHMENT0: u32 = 0x8CE0;
const GL_FRAMEBUFFER_COMPLETE: u32 = 0x8CD5;
const GL_COLOR_BUFFER_BIT: u32 = 0x4000;

/// A texture bound to `target` on unit 0 with nearest filtering (no mipmaps needed).
fn texture(target: u32) -> u32 {
    let gen = gl!(c"glGenTextures": fn(i32, *mut u32));
    let bind = gl!(c"glBindTexture": fn(u32, u32));
    let param = gl!(c"glTexParameteri": fn(u32, u32, i32));
    let mut t = 0;
    // SAFETY: out-pointer to a local.
    unsafe {
        gen(1, &mut t);
        bind(target, t);
        param(target, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        param(target, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    }
    t
}

/// Draws a full-screen triangle whose colour is `expr` (GLSL over `uniform {sampler} t`, unit
/// 0) and reads the centre pixel of the 32×32 surface.
fn sample(sampler: &str, expr: &str) -> [u8; 4] {
    let use_program = gl!(c"glUseProgram": fn(u32));
    let gen_vaos = gl!(c"glGenVertexArrays": fn(i32, *mut u32));
    let bind_vao = gl!(c"glBindVertexArray": fn(u32));
    let draw = gl!(c"glDrawArrays": fn(u32, i32, i32));
    let read = gl!(c"glReadPixels": fn(i32, i32, i32, i32, u32, u32, *mut c_void));
    let vs = "#version 330 core\nvoid main() {\n  vec2 p = vec2(float((gl_VertexID & 1) * 4 - 1), float((gl_VertexID & 2) * 2 - 1));\n  gl_Position = vec4(p, 0.0, 1.0);\n}\n";
    let fs = format!(
        "#version 330 core\nuniform {sampler} t;\nout vec4 color;\nvoid main() {{ color = {expr}; }}\n"
    );
    let program = gl_harness::program(vs, &fs);
    let mut vao = 0;
    let mut px = [0u8; 4];
    // SAFETY: out-pointers to locals; the read is one RGBA8 pixel into a 4-byte local.
    unsafe {
        gen_vaos(1, &mut vao);
        bind_vao(vao);
        use_program(program);
        draw(GL_TRIANGLES, 0, 3);
        read(
            16,
            16,
            1,
            1,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            px.as_mut_ptr().cast(),
        );
    }
    assert_eq!(error(), GL_NO_ERROR, "sampling {sampler} with {expr}");
    px
}

/// `n` distinct RGBA8 texels: texel i is (i*10+1, i*10+2, i*10+3, 255 - i).
fn texels(n: usize) -> Vec<u8> {
    (0..n)
        .flat_map(|i| {
            let b = (i * 10) as u8;
            [b + 1, b + 2, b + 3, 255 - i as u8]
        })
        .collect()
}

fn texel(i: usize) -> [u8; 4] {
    let b = (i * 10) as u8;
    [b + 1, b + 2, b + 3, 255 - i as u8]
}

#[test]
fn one_d_two_d_and_three_d_textures_sample_their_texels_exactly() {
    let _ctx = context();
    let image_1d = gl!(c"glTexImage1D": fn(u32, i32, i32, i32, i32, u32, u32, *const c_void));
    let image_2d = gl!(c"glTexImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let image_3d =
        gl!(c"glTexImage3D": fn(u32, i32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    // SAFETY: each upload reads width × height × depth RGBA8 texels from a live vector.
    unsafe {
        let data = texels(8);
        texture(GL_TEXTURE_1D);
        image_1d(
            GL_TEXTURE_1D,
            0,
            GL_RGBA8 as i32,
            8,
            0,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            data.as_ptr().cast(),
        );
        assert_eq!(error(), GL_NO_ERROR);
        assert_eq!(sample("sampler1D", "texelFetch(t, 5, 0)"), texel(5));
        assert_eq!(sample("sampler1D", "texture(t, 2.5 / 8.0)"), texel(2));

        let data = texels(12);
        texture(GL_TEXTURE_2D);
        image_2d(
            GL_TEXTURE_2D,
            0,
            GL_RGBA8 as i32,
            4,
            3,
            0,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            data.as_ptr().cast(),
        );
        assert_eq!(
            sample("sampler2D", "texelFetch(t, ivec2(3, 2), 0)"),
            texel(11)
        );
        // Deep levels of 2D and 1D textures (their unused axes stay 1 at every level).
        let (rgba8, ub) = (GL_RGBA8 as i32, GL_UNSIGNED_BYTE);
        image_2d(
            GL_TEXTURE_2D,
            2,
            rgba8,
            1,
            1,
            0,
            GL_RGBA,
            ub,
            data.as_ptr().cast(),
        );
        image_2d(GL_TEXTURE_2D, 12, rgba8, 1, 1, 0, GL_RGBA, ub, null());
        assert_eq!(error(), GL_NO_ERROR);
        texture(GL_TEXTURE_1D);
        image_1d(
            GL_TEXTURE_1D,
            9,
            rgba8,
            1,
            0,
            GL_RGBA,
            ub,
            data.as_ptr().cast(),
        );
        assert_eq!(error(), GL_NO_ERROR);

        let data = texels(2 * 3 * 4);
        texture(GL_TEXTURE_3D);
        image_3d(
            GL_TEXTURE_3D,
            0,
            GL_RGBA8 as i32,
            2,
            3,
            4,
            0,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            data.as_ptr().cast(),
        );
        assert_eq!(error(), GL_NO_ERROR);
        // Texel (x, y, z) is index x + 2y + 6z.
        assert_eq!(
            sample("sampler3D", "texelFetch(t, ivec3(1, 2, 3), 0)"),
            texel(1 + 4 + 18)
        );
        assert_eq!(
            sample("sampler3D", "texture(t, vec3(0.25, 0.5, 0.375))"),
            texel(2 + 6)
        );
    }
}

#[test]
fn array_textures_sample_each_layer() {
    let _ctx = context();
    let image_2d = gl!(c"glTexImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let image_3d =
        gl!(c"glTexImage3D": fn(u32, i32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let sub_3d = gl!(c"glTexSubImage3D": fn(u32, i32, i32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    // SAFETY: each upload reads exactly the texels its size names from a live vector.
    unsafe {
        // A 1D array: GL's height is the layer count.
        let data = texels(4 * 3);
        texture(GL_TEXTURE_1D_ARRAY);
        image_2d(
            GL_TEXTURE_1D_ARRAY,
            0,
            GL_RGBA8 as i32,
            4,
            3,
            0,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            data.as_ptr().cast(),
        );
        assert_eq!(error(), GL_NO_ERROR);
        assert_eq!(
            sample("sampler1DArray", "texelFetch(t, ivec2(1, 2), 0)"),
            texel(9)
        );
        assert_eq!(
            sample("sampler1DArray", "texture(t, vec2(0.9, 1.0))"),
            texel(7)
        );

        // A 2D array of 3 layers of 2×2, layer 1 replaced by a sub-image afterwards.
        let data = texels(2 * 2 * 3);
        texture(GL_TEXTURE_2D_ARRAY);
        image_3d(
            GL_TEXTURE_2D_ARRAY,
            0,
            GL_RGBA8 as i32,
            2,
            2,
            3,
            0,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            data.as_ptr().cast(),
        );
        assert_eq!(
            sample("sampler2DArray", "texelFetch(t, ivec3(1, 0, 2), 0)"),
            texel(9)
        );
        let patch = [200u8, 201, 202, 203];
        sub_3d(
            GL_TEXTURE_2D_ARRAY,
            0,
            0,
            1,
            1,
            1,
            1,
            1,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            patch.as_ptr().cast(),
        );
        assert_eq!(error(), GL_NO_ERROR);
        assert_eq!(
            sample("sampler2DArray", "texelFetch(t, ivec3(0, 1, 1), 0)"),
            patch
        );
        assert_eq!(
            sample("sampler2DArray", "texture(t, vec3(0.75, 0.25, 1.0))"),
            texel(5)
        );
    }
}

/// Six 2×2 faces, face i solid `texel(i)`.
fn cube_faces(
    image_2d: unsafe extern "C" fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void),
) {
    for face in 0..6 {
        let data: Vec<u8> = texel(face).repeat(4);
        // SAFETY: four RGBA8 texels from a live vector.
        unsafe {
            image_2d(
                GL_TEXTURE_CUBE_MAP_POSITIVE_X + face as u32,
                0,
                GL_RGBA8 as i32,
                2,
                2,
                0,
                GL_RGBA,
                GL_UNSIGNED_BYTE,
                data.as_ptr().cast(),
            );
        }
    }
}

#[test]
fn cube_maps_sample_the_face_a_direction_points_at() {
    let _ctx = context();
    let image_2d = gl!(c"glTexImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    texture(GL_TEXTURE_CUBE_MAP);
    cube_faces(image_2d);
    assert_eq!(error(), GL_NO_ERROR);
    let dirs = [
        "vec3(1, 0.1, 0.1)",
        "vec3(-1, 0.1, 0.1)",
        "vec3(0.1, 1, 0.1)",
        "vec3(0.1, -1, 0.1)",
        "vec3(0.1, 0.1, 1)",
        "vec3(0.1, 0.1, -1)",
    ];
    for (face, dir) in dirs.iter().enumerate() {
        assert_eq!(
            sample("samplerCube", &format!("texture(t, {dir})")),
            texel(face),
            "face {face}"
        );
    }
}

#[test]
fn incomplete_cubes_and_samplers_of_another_target_sample_black() {
    let _ctx = context();
    let image_2d = gl!(c"glTexImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let black = [0, 0, 0, 255];
    // SAFETY: four RGBA8 texels from a live vector.
    unsafe {
        let data = texels(4);
        texture(GL_TEXTURE_2D);
        image_2d(
            GL_TEXTURE_2D,
            0,
            GL_RGBA8 as i32,
            2,
            2,
            0,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            data.as_ptr().cast(),
        );
        assert_eq!(
            sample("sampler2D", "texelFetch(t, ivec2(1, 1), 0)"),
            texel(3)
        );
        // Unit 0's 3D, cube and array bindings are empty: those samplers read the stand-in.
        assert_eq!(sample("sampler3D", "texture(t, vec3(0.5))"), black);
        assert_eq!(sample("samplerCube", "texture(t, vec3(1, 0, 0))"), black);
        assert_eq!(
            sample("sampler2DArray", "texture(t, vec3(0.5, 0.5, 0))"),
            black
        );
        assert_eq!(sample("sampler1D", "texture(t, 0.5)"), black);

        // A cube with five faces is incomplete.
        texture(GL_TEXTURE_CUBE_MAP);
        for face in 0..5 {
            let data = texel(face).repeat(4);
            image_2d(
                GL_TEXTURE_CUBE_MAP_POSITIVE_X + face as u32,
                0,
                GL_RGBA8 as i32,
                2,
                2,
                0,
                GL_RGBA,
                GL_UNSIGNED_BYTE,
                data.as_ptr().cast(),
            );
        }
        assert_eq!(
            sample("samplerCube", "texture(t, vec3(1, 0.1, 0.1))"),
            black
        );
    }
}

#[test]
fn tex_storage_is_immutable_and_complete() {
    let _ctx = context();
    let storage_2d = gl!(c"glTexStorage2D": fn(u32, i32, u32, i32, i32));
    let storage_3d = gl!(c"glTexStorage3D": fn(u32, i32, u32, i32, i32, i32));
    let image_2d = gl!(c"glTexImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let sub_2d = gl!(c"glTexSubImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let sub_3d = gl!(c"glTexSubImage3D": fn(u32, i32, i32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let get_param = gl!(c"glGetTexParameteriv": fn(u32, u32, *mut i32));
    let param = gl!(c"glTexParameteri": fn(u32, u32, i32));
    // SAFETY: uploads read exactly the texels their sizes name; out-pointers to locals.
    unsafe {
        texture(GL_TEXTURE_2D);
        storage_2d(GL_TEXTURE_2D, 3, GL_RGBA8, 4, 4);
        assert_eq!(error(), GL_NO_ERROR);
        let mut v = 0;
        get_param(GL_TEXTURE_2D, GL_TEXTURE_IMMUTABLE_FORMAT, &mut v);
        assert_eq!(v, 1);
        // Respecification of immutable storage.
        image_2d(
            GL_TEXTURE_2D,
            0,
            GL_RGBA8 as i32,
            4,
            4,
            0,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            null(),
        );
        expect(GL_INVALID_OPERATION);
        storage_2d(GL_TEXTURE_2D, 1, GL_RGBA8, 4, 4);
        expect(GL_INVALID_OPERATION);
        // Level 2 exists (1×1) and is sampled with mipmapping on.
        let texel2 = [9u8, 8, 7, 6];
        sub_2d(
            GL_TEXTURE_2D,
            2,
            0,
            0,
            1,
            1,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            texel2.as_ptr().cast(),
        );
        assert_eq!(error(), GL_NO_ERROR);
        param(
            GL_TEXTURE_2D,
            GL_TEXTURE_MIN_FILTER,
            GL_NEAREST_MIPMAP_NEAREST,
        );
        assert_eq!(sample("sampler2D", "texelFetch(t, ivec2(0), 2)"), texel2);
        // Out of range: a level the storage lacks, a region outside the level.
        sub_2d(
            GL_TEXTURE_2D,
            3,
            0,
            0,
            1,
            1,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            texel2.as_ptr().cast(),
        );
        expect(GL_INVALID_VALUE);
        sub_2d(
            GL_TEXTURE_2D,
            1,
            1,
            1,
            2,
            1,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            texel2.as_ptr().cast(),
        );
        expect(GL_INVALID_VALUE);

        // Too many levels for the size; unsized formats; zero levels.
        texture(GL_TEXTURE_3D);
        storage_3d(GL_TEXTURE_3D, 4, GL_RGBA8, 4, 2, 2);
        expect(GL_INVALID_OPERATION);
        storage_3d(GL_TEXTURE_3D, 1, GL_RGBA, 4, 2, 2);
        expect(GL_INVALID_ENUM);
        storage_3d(GL_TEXTURE_3D, 0, GL_RGBA8, 4, 2, 2);
        expect(GL_INVALID_VALUE);
        storage_3d(GL_TEXTURE_3D, 3, GL_RGBA8, 4, 2, 2);
        assert_eq!(error(), GL_NO_ERROR);
        let data = texels(4 * 2 * 2);
        sub_3d(
            GL_TEXTURE_3D,
            0,
            0,
            0,
            0,
            4,
            2,
            2,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            data.as_ptr().cast(),
        );
        assert_eq!(
            sample("sampler3D", "texelFetch(t, ivec3(3, 1, 1), 0)"),
            texel(15)
        );

        // A 2D-array storage through glTexStorage3D; a cube through glTexStorage2D.
        texture(GL_TEXTURE_2D_ARRAY);
        storage_3d(GL_TEXTURE_2D_ARRAY, 1, GL_RGBA8, 1, 1, 4);
        let data = texels(4);
        sub_3d(
            GL_TEXTURE_2D_ARRAY,
            0,
            0,
            0,
            0,
            1,
            1,
            4,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            data.as_ptr().cast(),
        );
        assert_eq!(
            sample("sampler2DArray", "texelFetch(t, ivec3(0, 0, 3), 0)"),
            texel(3)
        );
        texture(GL_TEXTURE_CUBE_MAP);
        storage_2d(GL_TEXTURE_CUBE_MAP, 1, GL_RGBA8, 2, 2);
        assert_eq!(error(), GL_NO_ERROR);
        let data = texel(4).repeat(4);
        sub_2d(
            GL_TEXTURE_CUBE_MAP_POSITIVE_X + 4,
            0,
            0,
            0,
            2,
            2,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            data.as_ptr().cast(),
        );
        assert_eq!(
            sample("samplerCube", "texture(t, vec3(0.1, 0.1, 1))"),
            texel(4)
        );
        storage_2d(GL_TEXTURE_CUBE_MAP, 1, GL_RGBA8, 2, 2);
        expect(GL_INVALID_OPERATION);
    }
}

#[test]
fn targets_of_the_wrong_dimensionality_and_bad_sizes_get_their_errors() {
    let _ctx = context();
    let image_1d = gl!(c"glTexImage1D": fn(u32, i32, i32, i32, i32, u32, u32, *const c_void));
    let image_2d = gl!(c"glTexImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let image_3d =
        gl!(c"glTexImage3D": fn(u32, i32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let bind = gl!(c"glBindTexture": fn(u32, u32));
    let get = gl!(c"glGetIntegerv": fn(u32, *mut i32));
    let gen_mipmap = gl!(c"glGenerateMipmap": fn(u32));
    let rgba = GL_RGBA8 as i32;
    let ub = GL_UNSIGNED_BYTE;
    // SAFETY: NULL data (no upload) or out-pointers to locals.
    unsafe {
        let t3 = texture(GL_TEXTURE_3D);
        image_2d(GL_TEXTURE_3D, 0, rgba, 2, 2, 0, GL_RGBA, ub, null());
        expect(GL_INVALID_ENUM);
        image_3d(GL_TEXTURE_2D, 0, rgba, 2, 2, 2, 0, GL_RGBA, ub, null());
        expect(GL_INVALID_ENUM);
        image_1d(GL_TEXTURE_2D, 0, rgba, 2, 0, GL_RGBA, ub, null());
        expect(GL_INVALID_ENUM);
        image_2d(GL_TEXTURE_CUBE_MAP, 0, rgba, 2, 2, 0, GL_RGBA, ub, null());
        expect(GL_INVALID_ENUM);
        image_3d(GL_TEXTURE_3D, -1, rgba, 2, 2, 2, 0, GL_RGBA, ub, null());
        expect(GL_INVALID_VALUE);
        image_3d(GL_TEXTURE_3D, 40, rgba, 1, 1, 1, 0, GL_RGBA, ub, null());
        expect(GL_INVALID_VALUE);
        image_3d(GL_TEXTURE_3D, 0, rgba, 2, 2, -2, 0, GL_RGBA, ub, null());
        expect(GL_INVALID_VALUE);
        image_3d(GL_TEXTURE_3D, 0, 0x1902, 2, 2, 2, 0, 0x1902, 0x1405, null()); // depth 3D
        expect(GL_INVALID_OPERATION);
        // Non-square cube faces.
        texture(GL_TEXTURE_CUBE_MAP);
        image_2d(
            GL_TEXTURE_CUBE_MAP_POSITIVE_X,
            0,
            rgba,
            2,
            4,
            0,
            GL_RGBA,
            ub,
            null(),
        );
        expect(GL_INVALID_VALUE);
        // A cube map without every face cannot generate mipmaps.
        image_2d(
            GL_TEXTURE_CUBE_MAP_POSITIVE_X,
            0,
            rgba,
            2,
            2,
            0,
            GL_RGBA,
            ub,
            null(),
        );
        gen_mipmap(GL_TEXTURE_CUBE_MAP);
        expect(GL_INVALID_OPERATION);
        // A name first bound as 3D cannot be bound as 2D.
        bind(GL_TEXTURE_2D, t3);
        expect(GL_INVALID_OPERATION);
        let mut v = -1;
        get(GL_TEXTURE_BINDING_3D, &mut v);
        assert_eq!(v, t3 as i32);
        get(GL_TEXTURE_BINDING_2D, &mut v);
        assert_eq!(v, 0);
        get(GL_TEXTURE_BINDING_CUBE_MAP, &mut v);
        assert!(v > 0);
    }
}

#[test]
fn generate_mipmap_fills_every_layer_and_face() {
    let _ctx = context();
    let image_2d = gl!(c"glTexImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let image_3d =
        gl!(c"glTexImage3D": fn(u32, i32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let gen_mipmap = gl!(c"glGenerateMipmap": fn(u32));
    let param = gl!(c"glTexParameteri": fn(u32, u32, i32));
    // SAFETY: uploads read exactly the texels their sizes name.
    unsafe {
        // Two 4×4 layers, each one solid colour: every level of each keeps it.
        let data: Vec<u8> = [texel(1).repeat(16), texel(2).repeat(16)].concat();
        texture(GL_TEXTURE_2D_ARRAY);
        image_3d(
            GL_TEXTURE_2D_ARRAY,
            0,
            GL_RGBA8 as i32,
            4,
            4,
            2,
            0,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            data.as_ptr().cast(),
        );
        gen_mipmap(GL_TEXTURE_2D_ARRAY);
        assert_eq!(error(), GL_NO_ERROR);
        param(
            GL_TEXTURE_2D_ARRAY,
            GL_TEXTURE_MIN_FILTER,
            GL_NEAREST_MIPMAP_NEAREST,
        );
        assert_eq!(
            sample("sampler2DArray", "texelFetch(t, ivec3(0, 0, 1), 2)"),
            texel(2)
        );
        assert_eq!(
            sample("sampler2DArray", "texelFetch(t, ivec3(0, 0, 0), 2)"),
            texel(1)
        );

        texture(GL_TEXTURE_CUBE_MAP);
        cube_faces(image_2d);
        gen_mipmap(GL_TEXTURE_CUBE_MAP);
        assert_eq!(error(), GL_NO_ERROR);
        param(
            GL_TEXTURE_CUBE_MAP,
            GL_TEXTURE_MIN_FILTER,
            GL_NEAREST_MIPMAP_NEAREST,
        );
        assert_eq!(
            sample("samplerCube", "textureLod(t, vec3(0.1, -1, 0.1), 1.0)"),
            texel(3)
        );

        // A 3D texture halves its depth too: a 2×2×2 box of one colour per slice averages.
        let data: Vec<u8> = [[10u8, 20, 30, 255].repeat(4), [30u8, 40, 50, 255].repeat(4)].concat();
        texture(GL_TEXTURE_3D);
        image_3d(
            GL_TEXTURE_3D,
            0,
            GL_RGBA8 as i32,
            2,
            2,
            2,
            0,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            data.as_ptr().cast(),
        );
        gen_mipmap(GL_TEXTURE_3D);
        param(
            GL_TEXTURE_3D,
            GL_TEXTURE_MIN_FILTER,
            GL_NEAREST_MIPMAP_NEAREST,
        );
        assert_eq!(
            sample("sampler3D", "texelFetch(t, ivec3(0), 1)"),
            [20, 30, 40, 255]
        );
    }
}

#[test]
fn framebuffers_render_into_a_layer_a_face_and_a_slice() {
    let _ctx = context();
    let image_2d = gl!(c"glTexImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let image_3d =
        gl!(c"glTexImage3D": fn(u32, i32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let gen_fbs = gl!(c"glGenFramebuffers": fn(i32, *mut u32));
    let bind_fb = gl!(c"glBindFramebuffer": fn(u32, u32));
    let layer = gl!(c"glFramebufferTextureLayer": fn(u32, u32, u32, i32, i32));
    let tex_2d = gl!(c"glFramebufferTexture2D": fn(u32, u32, u32, u32, i32));
    let tex_3d = gl!(c"glFramebufferTexture3D": fn(u32, u32, u32, u32, i32, i32));
    let status = gl!(c"glCheckFramebufferStatus": fn(u32) -> u32);
    let clear_color = gl!(c"glClearColor": fn(f32, f32, f32, f32));
    let clear = gl!(c"glClear": fn(u32));
    let viewport = gl!(c"glViewport": fn(i32, i32, i32, i32));
    // SAFETY: NULL data (no upload); out-pointers to locals.
    unsafe {
        let mut fb = 0;
        gen_fbs(1, &mut fb);
        let array = texture(GL_TEXTURE_2D_ARRAY);
        image_3d(
            GL_TEXTURE_2D_ARRAY,
            0,
            GL_RGBA8 as i32,
            4,
            4,
            3,
            0,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            texels(48).as_ptr().cast(),
        );
        let cube = texture(GL_TEXTURE_CUBE_MAP);
        cube_faces(image_2d);
        let vol = texture(GL_TEXTURE_3D);
        image_3d(
            GL_TEXTURE_3D,
            0,
            GL_RGBA8 as i32,
            4,
            4,
            4,
            0,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            null(),
        );

        bind_fb(GL_FRAMEBUFFER, fb);
        viewport(0, 0, 4, 4);
        clear_color(1.0, 0.0, 0.0, 1.0);
        layer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, array, 0, 2);
        assert_eq!(status(GL_FRAMEBUFFER), GL_FRAMEBUFFER_COMPLETE);
        clear(GL_COLOR_BUFFER_BIT);
        layer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, array, 0, 3);
        assert_ne!(
            status(GL_FRAMEBUFFER),
            GL_FRAMEBUFFER_COMPLETE,
            "layer 3 of 3"
        );
        // A cube map's face as a layer: GL 4.5 §9.2.8 accepts it (Mesa does in every desktop
        // context, and piglit expects it); the face-3 attachment below replaces it.
        layer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, cube, 0, 0);
        assert_eq!(error(), GL_NO_ERROR);

        clear_color(0.0, 1.0, 0.0, 1.0);
        tex_2d(
            GL_FRAMEBUFFER,
            GL_COLOR_ATTACHMENT0,
            GL_TEXTURE_CUBE_MAP_POSITIVE_X + 3,
            cube,
            0,
        );
        assert_eq!(status(GL_FRAMEBUFFER), GL_FRAMEBUFFER_COMPLETE);
        clear(GL_COLOR_BUFFER_BIT);

        clear_color(0.0, 0.0, 1.0, 1.0);
        tex_3d(
            GL_FRAMEBUFFER,
            GL_COLOR_ATTACHMENT0,
            GL_TEXTURE_3D,
            vol,
            0,
            2,
        );
        assert_eq!(status(GL_FRAMEBUFFER), GL_FRAMEBUFFER_COMPLETE);
        clear(GL_COLOR_BUFFER_BIT);
        assert_eq!(error(), GL_NO_ERROR);

        bind_fb(GL_FRAMEBUFFER, 0);
        viewport(0, 0, 32, 32);
        let bind = gl!(c"glBindTexture": fn(u32, u32));
        bind(GL_TEXTURE_2D_ARRAY, array);
        assert_eq!(
            sample("sampler2DArray", "texelFetch(t, ivec3(3, 3, 2), 0)"),
            [255, 0, 0, 255]
        );
        assert_eq!(
            sample("sampler2DArray", "texelFetch(t, ivec3(3, 3, 1), 0)"),
            texel(31)
        );
        bind(GL_TEXTURE_CUBE_MAP, cube);
        assert_eq!(
            sample("samplerCube", "texture(t, vec3(0.1, -1, 0.1))"),
            [0, 255, 0, 255]
        );
        assert_eq!(
            sample("samplerCube", "texture(t, vec3(0.1, 1, 0.1))"),
            texel(2)
        );
        bind(GL_TEXTURE_3D, vol);
        assert_eq!(
            sample("sampler3D", "texelFetch(t, ivec3(1, 1, 2), 0)"),
            [0, 0, 255, 255]
        );
    }
}

#[test]
fn a_bound_sampler_object_overrides_the_texture_sampling_state() {
    let _ctx = context();
    let image_2d = gl!(c"glTexImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let gen_samplers = gl!(c"glGenSamplers": fn(i32, *mut u32));
    let delete_samplers = gl!(c"glDeleteSamplers": fn(i32, *const u32));
    let is_sampler = gl!(c"glIsSampler": fn(u32) -> u8);
    let bind_sampler = gl!(c"glBindSampler": fn(u32, u32));
    let sampler_param = gl!(c"glSamplerParameteri": fn(u32, u32, i32));
    let get_sampler_param = gl!(c"glGetSamplerParameteriv": fn(u32, u32, *mut i32));
    let param = gl!(c"glTexParameteri": fn(u32, u32, i32));
    let bind = gl!(c"glBindTexture": fn(u32, u32));
    let gen = gl!(c"glGenTextures": fn(i32, *mut u32));
    let get = gl!(c"glGetIntegerv": fn(u32, *mut i32));
    const GL_TEXTURE_WRAP_S: u32 = 0x2802;
    const GL_CLAMP_TO_EDGE: i32 = 0x812F;
    const GL_TEXTURE_BASE_LEVEL: u32 = 0x813C;
    const GL_SAMPLER_BINDING: u32 = 0x8919;
    let black = [0, 0, 0, 255];
    // SAFETY: uploads read the 2 texels named; out-pointers to locals.
    unsafe {
        // Default texture state: a mipmapping min filter without mipmaps, so incomplete.
        let mut t = 0;
        gen(1, &mut t);
        bind(GL_TEXTURE_2D, t);
        let data = texels(2);
        image_2d(
            GL_TEXTURE_2D,
            0,
            GL_RGBA8 as i32,
            2,
            1,
            0,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            data.as_ptr().cast(),
        );
        let at = "texture(t, vec2(1.25, 0.5))";
        assert_eq!(sample("sampler2D", at), black);

        let mut s = 0;
        gen_samplers(1, &mut s);
        assert_eq!(is_sampler(s), 1);
        sampler_param(s, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        sampler_param(s, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
        sampler_param(s, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
        assert_eq!(error(), GL_NO_ERROR);
        bind_sampler(0, s);
        // The sampler's filter makes the texture complete; its clamp reads the last texel.
        assert_eq!(sample("sampler2D", at), texel(1));
        let mut v = 0;
        get_sampler_param(s, GL_TEXTURE_WRAP_S, &mut v);
        assert_eq!(v, GL_CLAMP_TO_EDGE);
        get(GL_SAMPLER_BINDING, &mut v);
        assert_eq!(v, s as i32);

        // Unbound: the texture's own state again (incomplete, then repeating).
        bind_sampler(0, 0);
        assert_eq!(sample("sampler2D", at), black);
        param(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        param(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
        assert_eq!(sample("sampler2D", at), texel(0));

        // Errors: texture-only state, unknown names; deleting unbinds.
        sampler_param(s, GL_TEXTURE_BASE_LEVEL, 1);
        expect(GL_INVALID_ENUM);
        sampler_param(s, GL_TEXTURE_WRAP_S, 0x1234);
        expect(GL_INVALID_ENUM);
        sampler_param(4242, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
        expect(GL_INVALID_OPERATION);
        bind_sampler(0, 4242);
        expect(GL_INVALID_OPERATION);
        bind_sampler(1000, s);
        expect(GL_INVALID_VALUE);
        bind_sampler(0, s);
        delete_samplers(1, &s);
        assert_eq!(is_sampler(s), 0);
        get(GL_SAMPLER_BINDING, &mut v);
        assert_eq!(v, 0);
        assert_eq!(sample("sampler2D", at), texel(0));
    }
}

#[test]
fn integer_samplers_without_an_integer_texture_read_integer_black() {
    let _ctx = context();
    let image_2d = gl!(c"glTexImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    // SAFETY: four RGBA8 texels from a live vector.
    unsafe {
        texture(GL_TEXTURE_2D);
        let data = texels(4);
        image_2d(
            GL_TEXTURE_2D,
            0,
            GL_RGBA8 as i32,
            2,
            2,
            0,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            data.as_ptr().cast(),
        );
    }
    // An RGBA8 texture is not an integer texture: both read (0, 0, 0, 1).
    assert_eq!(
        sample(
            "usampler2D",
            "vec4(texelFetch(t, ivec2(0), 0)) * vec4(0.5, 0.5, 0.5, 1.0)"
        ),
        [0, 0, 0, 255]
    );
    assert_eq!(
        sample("isampler3D", "vec4(texelFetch(t, ivec3(0), 0))"),
        [0, 0, 0, 255]
    );
}

#[test]
fn swizzles_remap_the_sampled_components() {
    let _ctx = context();
    let image_2d = gl!(c"glTexImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let param = gl!(c"glTexParameteri": fn(u32, u32, i32));
    const GL_TEXTURE_SWIZZLE_R: u32 = 0x8E42;
    // SAFETY: four RGBA8 texels from a live vector.
    unsafe {
        texture(GL_TEXTURE_2D);
        let data = texels(4);
        image_2d(
            GL_TEXTURE_2D,
            0,
            GL_RGBA8 as i32,
            2,
            2,
            0,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            data.as_ptr().cast(),
        );
        let [r, _, b, _] = texel(3);
        let sources = [0x1905, 0, 1, 0x1903]; // BLUE, ZERO, ONE, RED
        for (i, s) in sources.iter().enumerate() {
            param(GL_TEXTURE_2D, GL_TEXTURE_SWIZZLE_R + i as u32, *s);
        }
        assert_eq!(error(), GL_NO_ERROR);
        assert_eq!(
            sample("sampler2D", "texelFetch(t, ivec2(1, 1), 0)"),
            [b, 0, 255, r]
        );
        param(GL_TEXTURE_2D, GL_TEXTURE_SWIZZLE_R, 0x1234);
        expect(GL_INVALID_ENUM);
    }
}

#[test]
fn float_and_half_float_texels_upload_into_normalized_formats() {
    let _ctx = context();
    let image = gl!(c"glTexImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let sub_image =
        gl!(c"glTexSubImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let store = gl!(c"glPixelStorei": fn(u32, i32));
    const GL_FLOAT: u32 = 0x1406;
    const GL_HALF_FLOAT: u32 = 0x140B;
    const GL_RGB: u32 = 0x1907;
    const GL_UNPACK_SKIP_PIXELS: u32 = 0x0CF4;
    texture(GL_TEXTURE_2D);
    // One RGBA texel from floats: clamped and rounded to bytes as GL converts them.
    let f = [0.25f32, 2.0, -1.0, 0.5];
    // SAFETY: `f` holds the 1×1 RGBA float image.
    unsafe {
        image(
            GL_TEXTURE_2D,
            0,
            GL_RGBA8 as i32,
            1,
            1,
            0,
            GL_RGBA,
            GL_FLOAT,
            f.as_ptr().cast(),
        );
    }
    assert_eq!(
        sample("sampler2D", "texture(t, vec2(0.5))"),
        [64, 255, 0, 128]
    );
    // Sub-image of half floats (RGB), reading past one skipped pixel.
    let h: [u16; 6] = [0, 0, 0, 0x3800, 0x3C00, 0x3400]; // skipped, then (0.5, 1.0, 0.25)
                                                         // SAFETY: `h` holds the skipped pixel and the 1×1 RGB half-float image.
    unsafe {
        store(GL_UNPACK_SKIP_PIXELS, 1);
        sub_image(
            GL_TEXTURE_2D,
            0,
            0,
            0,
            1,
            1,
            GL_RGB,
            GL_HALF_FLOAT,
            h.as_ptr().cast(),
        );
        store(GL_UNPACK_SKIP_PIXELS, 0);
    }
    assert_eq!(
        sample("sampler2D", "texture(t, vec2(0.5))"),
        [128, 255, 64, 255]
    );
}

/// piglit texsubimage: a `glTexSubImage3D` one image deep still skips `GL_UNPACK_SKIP_IMAGES`
/// images of `GL_UNPACK_IMAGE_HEIGHT` rows (the C edge once sized such a call as a 2D image, so
/// the upload found too few client bytes and failed), and RGB storage behind RGBA8 texels reads
/// the same bytes.
#[test]
fn one_image_deep_3d_sub_images_honour_skip_images() {
    const GL_UNPACK_ROW_LENGTH: u32 = 0x0CF2;
    const GL_UNPACK_SKIP_PIXELS: u32 = 0x0CF4;
    const GL_UNPACK_SKIP_ROWS: u32 = 0x0CF3;
    const GL_UNPACK_SKIP_IMAGES: u32 = 0x806D;
    const GL_UNPACK_IMAGE_HEIGHT: u32 = 0x806E;
    const GL_RGB8: i32 = 0x8051;
    let _ctx = context();
    let image_3d =
        gl!(c"glTexImage3D": fn(u32, i32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let sub_3d = gl!(c"glTexSubImage3D": fn(u32, i32, i32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let store = gl!(c"glPixelStorei": fn(u32, i32));
    // Texel (x, y, z) of a 4×3×3 client box is index x + 4y + 12z.
    let data = texels(4 * 3 * 3);
    for internal in [GL_RGBA8 as i32, GL_RGB8] {
        // SAFETY: every transfer reads inside `data` (4×3×3 RGBA8 texels, rows of 4).
        unsafe {
            texture(GL_TEXTURE_3D);
            let zeros = vec![0u8; data.len()];
            image_3d(
                GL_TEXTURE_3D,
                0,
                internal,
                4,
                3,
                3,
                0,
                GL_RGBA,
                GL_UNSIGNED_BYTE,
                zeros.as_ptr().cast(),
            );
            store(GL_UNPACK_ROW_LENGTH, 4);
            store(GL_UNPACK_IMAGE_HEIGHT, 3);
            store(GL_UNPACK_SKIP_PIXELS, 1);
            store(GL_UNPACK_SKIP_ROWS, 1);
            store(GL_UNPACK_SKIP_IMAGES, 2);
            // A 2×2×1 box at (1, 1, 2) from client texels (1..3, 1..3, 2).
            sub_3d(
                GL_TEXTURE_3D,
                0,
                1,
                1,
                2,
                2,
                2,
                1,
                GL_RGBA,
                GL_UNSIGNED_BYTE,
                data.as_ptr().cast(),
            );
            for p in [GL_UNPACK_ROW_LENGTH, GL_UNPACK_IMAGE_HEIGHT] {
                store(p, 0);
            }
            for p in [
                GL_UNPACK_SKIP_PIXELS,
                GL_UNPACK_SKIP_ROWS,
                GL_UNPACK_SKIP_IMAGES,
            ] {
                store(p, 0);
            }
            assert_eq!(error(), GL_NO_ERROR, "internal format 0x{internal:04X}");
        }
        let opaque = |mut t: [u8; 4]| {
            if internal == GL_RGB8 {
                t[3] = 255;
            }
            t
        };
        for (x, y) in [(1, 1), (2, 1), (1, 2), (2, 2)] {
            assert_eq!(
                sample(
                    "sampler3D",
                    &format!("texelFetch(t, ivec3({x}, {y}, 2), 0)")
                ),
                opaque(texel(x + 4 * y + 12 * 2)),
                "texel ({x}, {y}, 2) of internal format 0x{internal:04X}"
            );
        }
        assert_eq!(
            sample("sampler3D", "texelFetch(t, ivec3(0, 1, 2), 0)"),
            opaque([0, 0, 0, 0]),
            "outside the box"
        );
    }
}

/// piglit fbo-generatemipmap-swizzle: `GL_TEXTURE_SWIZZLE_RGBA` sets and answers all four
/// sources at once through the vector calls; a bad source changes none of them.
#[test]
fn the_swizzle_vector_sets_and_answers_all_four_sources() {
    const GL_TEXTURE_SWIZZLE_RGBA: u32 = 0x8E46;
    const GL_TEXTURE_SWIZZLE_R: u32 = 0x8E42;
    const GL_RED: i32 = 0x1903;
    const GL_GREEN: i32 = 0x1904;
    const GL_BLUE: i32 = 0x1905;
    const GL_ONE: i32 = 1;
    let _ctx = context();
    let image_2d = gl!(c"glTexImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let param_v = gl!(c"glTexParameteriv": fn(u32, u32, *const i32));
    let get_param_v = gl!(c"glGetTexParameteriv": fn(u32, u32, *mut i32));
    let data = texels(1);
    // SAFETY: one RGBA8 texel from a live vector; out-pointers to locals.
    unsafe {
        texture(GL_TEXTURE_2D);
        image_2d(
            GL_TEXTURE_2D,
            0,
            GL_RGBA8 as i32,
            1,
            1,
            0,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            data.as_ptr().cast(),
        );
        let swizzle = [GL_BLUE, GL_GREEN, GL_RED, GL_ONE];
        param_v(GL_TEXTURE_2D, GL_TEXTURE_SWIZZLE_RGBA, swizzle.as_ptr());
        expect(GL_NO_ERROR);
        let mut got = [0i32; 4];
        get_param_v(GL_TEXTURE_2D, GL_TEXTURE_SWIZZLE_RGBA, got.as_mut_ptr());
        assert_eq!(got, swizzle);
        let mut r = 0;
        get_param_v(GL_TEXTURE_2D, GL_TEXTURE_SWIZZLE_R, &mut r);
        assert_eq!(r, GL_BLUE);
        let bad = [GL_RED, GL_RED, 0x1234, GL_RED];
        param_v(GL_TEXTURE_2D, GL_TEXTURE_SWIZZLE_RGBA, bad.as_ptr());
        expect(GL_INVALID_ENUM);
        get_param_v(GL_TEXTURE_2D, GL_TEXTURE_SWIZZLE_RGBA, got.as_mut_ptr());
        assert_eq!(got, swizzle, "an error changes nothing");
    }
    let t = texel(0);
    assert_eq!(
        sample("sampler2D", "texture(t, vec2(0.5))"),
        [t[2], t[1], t[0], 255]
    );
}

const GL_TEXTURE_BORDER_COLOR: u32 = 0x1004;
const GL_TEXTURE_WRAP_S: u32 = 0x2802;
const GL_TEXTURE_WRAP_T: u32 = 0x2803;
const GL_CLAMP_TO_BORDER: i32 = 0x812D;

/// A 1×1 texture of `internal` (one texel of `format`/`ty` from `texel`) on unit 0, nearest
/// filtered and clamped to its border on both axes.
fn border_texture(internal: u32, format: u32, ty: u32, texel: &[u8]) -> u32 {
    let image_2d = gl!(c"glTexImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let param = gl!(c"glTexParameteri": fn(u32, u32, i32));
    let t = texture(GL_TEXTURE_2D);
    // SAFETY: `texel` holds one texel of `format`/`ty` (the callers size it so).
    unsafe {
        image_2d(
            GL_TEXTURE_2D,
            0,
            internal as i32,
            1,
            1,
            0,
            format,
            ty,
            texel.as_ptr().cast(),
        );
        param(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_BORDER);
        param(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_BORDER);
    }
    t
}

#[test]
fn integer_border_colours_keep_their_words_and_are_sampled_exactly() {
    const GL_RGBA32UI: u32 = 0x8D70;
    const GL_RGBA32I: u32 = 0x8D82;
    const GL_RGBA_INTEGER: u32 = 0x8D99;
    const GL_UNSIGNED_INT: u32 = 0x1405;
    const GL_INT: u32 = 0x1404;
    let _ctx = context();
    let param_iuiv = gl!(c"glTexParameterIuiv": fn(u32, u32, *const u32));
    let param_iiv = gl!(c"glTexParameterIiv": fn(u32, u32, *const i32));
    let get_iuiv = gl!(c"glGetTexParameterIuiv": fn(u32, u32, *mut u32));
    let get_iiv = gl!(c"glGetTexParameterIiv": fn(u32, u32, *mut i32));
    let gen_samplers = gl!(c"glGenSamplers": fn(i32, *mut u32));
    let bind_sampler = gl!(c"glBindSampler": fn(u32, u32));
    let sampler_i = gl!(c"glSamplerParameteri": fn(u32, u32, i32));
    let sampler_iiv = gl!(c"glSamplerParameterIiv": fn(u32, u32, *const i32));
    let get_sampler_iiv = gl!(c"glGetSamplerParameterIiv": fn(u32, u32, *mut i32));
    let get_sampler_iuiv = gl!(c"glGetSamplerParameterIuiv": fn(u32, u32, *mut u32));
    // Words no float conversion keeps: above 2^24, and with the top bit set.
    let words: [u32; 4] = [0x8070_6050, 0x4030_2010, 0x0807_0605, 0x0403_0201];
    let bad = [0x0bad_c0de_u32; 4];
    // SAFETY: out-pointers to four-element locals; texels are 16 bytes of one RGBA32 texel.
    unsafe {
        border_texture(GL_RGBA32UI, GL_RGBA_INTEGER, GL_UNSIGNED_INT, &[7; 16]);
        param_iuiv(GL_TEXTURE_2D, GL_TEXTURE_BORDER_COLOR, words.as_ptr());
        expect(GL_NO_ERROR);
        let mut got = [0u32; 4];
        get_iuiv(GL_TEXTURE_2D, GL_TEXTURE_BORDER_COLOR, got.as_mut_ptr());
        assert_eq!(got, words);
        // An unknown pname is GL_INVALID_ENUM and writes nothing.
        let mut untouched = bad;
        get_iuiv(
            GL_TEXTURE_2D,
            0xbeef_0000 | GL_TEXTURE_BORDER_COLOR,
            untouched.as_mut_ptr(),
        );
        expect(GL_INVALID_ENUM);
        assert_eq!(untouched, bad);
        // Other parameters go through the I forms as through the iv ones.
        let mut wrap = [0i32; 4];
        get_iiv(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, wrap.as_mut_ptr());
        assert_eq!(wrap[0], GL_CLAMP_TO_BORDER);
    }
    // Inside the texture the texel, outside it the border words, each compared in the shader
    // (a component is 1.0 where it matches).
    let expected = format!(
        "uvec4({}u, {}u, {}u, {}u)",
        words[0], words[1], words[2], words[3]
    );
    assert_eq!(
        sample(
            "usampler2D",
            "vec4(equal(texture(t, vec2(0.5)), uvec4(0x07070707u)))"
        ),
        [255; 4]
    );
    assert_eq!(
        sample(
            "usampler2D",
            &format!("vec4(equal(texture(t, vec2(-2.0, 3.0)), {expected}))")
        ),
        [255; 4],
        "an unsigned integer texture samples its integer border words"
    );

    // Signed, through a sampler object's Iiv (which overrides the texture's border).
    let ints = [-1, -2, i32::MIN, i32::MAX];
    // SAFETY: as above.
    unsafe {
        border_texture(GL_RGBA32I, GL_RGBA_INTEGER, GL_INT, &[1; 16]);
        let mut s = 0;
        gen_samplers(1, &mut s);
        sampler_i(s, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_BORDER);
        sampler_i(s, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_BORDER);
        sampler_i(s, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        sampler_i(s, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
        // The texture's own integer border, which the sampler object below overrides.
        param_iiv(
            GL_TEXTURE_2D,
            GL_TEXTURE_BORDER_COLOR,
            [5, 6, 7, 8].as_ptr(),
        );
        let mut own = [0i32; 4];
        get_iiv(GL_TEXTURE_2D, GL_TEXTURE_BORDER_COLOR, own.as_mut_ptr());
        assert_eq!(own, [5, 6, 7, 8]);
        sampler_iiv(s, GL_TEXTURE_BORDER_COLOR, ints.as_ptr());
        expect(GL_NO_ERROR);
        let mut got = [0i32; 4];
        get_sampler_iiv(s, GL_TEXTURE_BORDER_COLOR, got.as_mut_ptr());
        assert_eq!(got, ints);
        let mut as_words = [0u32; 4];
        get_sampler_iuiv(s, GL_TEXTURE_BORDER_COLOR, as_words.as_mut_ptr());
        assert_eq!(as_words, ints.map(|i| i as u32));
        // The texture-only base level is not a sampler parameter, in the I forms too.
        sampler_iiv(s, 0x813C, [1].as_ptr());
        expect(GL_INVALID_ENUM);
        bind_sampler(0, s);
    }
    assert_eq!(
        sample(
            "isampler2D",
            "vec4(equal(texture(t, vec2(1.5, 0.5)), ivec4(-1, -2, -2147483647 - 1, 2147483647)))"
        ),
        [255; 4],
        "a signed integer texture samples the sampler object's integer border"
    );
}

#[test]
fn float_border_colours_are_sampled_and_answer_normalized_integer_queries() {
    let _ctx = context();
    let param_fv = gl!(c"glTexParameterfv": fn(u32, u32, *const f32));
    let param_iv = gl!(c"glTexParameteriv": fn(u32, u32, *const i32));
    let get_fv = gl!(c"glGetTexParameterfv": fn(u32, u32, *mut f32));
    let get_iv = gl!(c"glGetTexParameteriv": fn(u32, u32, *mut i32));
    // SAFETY: out-pointers to four-element locals; one RGBA8 texel.
    unsafe {
        border_texture(GL_RGBA8, GL_RGBA, GL_UNSIGNED_BYTE, &[9, 9, 9, 9]);
        // glTexParameteriv maps integers onto [-1, 1]; glGetTexParameteriv maps back.
        let half = i32::MAX / 2 + 1;
        param_iv(
            GL_TEXTURE_2D,
            GL_TEXTURE_BORDER_COLOR,
            [i32::MAX, half, 0, i32::MAX].as_ptr(),
        );
        let mut f4 = [0f32; 4];
        get_fv(GL_TEXTURE_2D, GL_TEXTURE_BORDER_COLOR, f4.as_mut_ptr());
        assert_eq!(f4, [1.0, 0.5, 0.0, 1.0]);
        let colour = [0.25f32, 0.5, 0.75, 1.0];
        param_fv(GL_TEXTURE_2D, GL_TEXTURE_BORDER_COLOR, colour.as_ptr());
        let mut i4 = [0i32; 4];
        get_iv(GL_TEXTURE_2D, GL_TEXTURE_BORDER_COLOR, i4.as_mut_ptr());
        assert_eq!(i4, [536_870_912, 1_073_741_824, 1_610_612_735, i32::MAX]);
        expect(GL_NO_ERROR);
    }
    // llvmpipe draws (64, 128, 191, 255) here: the colour, not the nearest built-in one.
    gl_harness::assert_rgba8_near(
        sample("sampler2D", "texture(t, vec2(0.5, -1.0))"),
        [64, 128, 191, 255],
        "the float border colour",
    );
    assert_eq!(sample("sampler2D", "texture(t, vec2(0.5))"), [9, 9, 9, 9]);
}

/// Legacy narrow formats stored as 8-bit RGBA keep the precision their size queries report:
/// `GL_RGB5_A1`'s alpha is one bit, so 125 reads back as 0 and 130 as 255 (piglit
/// getteximage-formats draws with that alpha and expects the 1-bit result).
#[test]
fn narrow_formats_round_uploads_to_their_reported_bits() {
    const GL_RGB5_A1: i32 = 0x8057;
    const GL_TEXTURE_ALPHA_SIZE: u32 = 0x805F;
    let _ctx = context();
    let tex_image = gl!(c"glTexImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let get_image = gl!(c"glGetTexImage": fn(u32, i32, u32, u32, *mut c_void));
    let level_param = gl!(c"glGetTexLevelParameteriv": fn(u32, i32, u32, *mut i32));
    texture(GL_TEXTURE_2D);
    let data: [u8; 8] = [255, 0, 0, 125, 0, 255, 0, 130];
    let mut out = [7u8; 8];
    let mut alpha_bits = 0;
    // SAFETY: a 2×1 RGBA8 image and a readback of the same size; out-pointer to a local.
    unsafe {
        tex_image(
            GL_TEXTURE_2D,
            0,
            GL_RGB5_A1,
            2,
            1,
            0,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            data.as_ptr().cast(),
        );
        get_image(
            GL_TEXTURE_2D,
            0,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            out.as_mut_ptr().cast(),
        );
        level_param(GL_TEXTURE_2D, 0, GL_TEXTURE_ALPHA_SIZE, &mut alpha_bits);
    }
    expect(GL_NO_ERROR);
    assert_eq!(alpha_bits, 1);
    assert_eq!(out, [255, 0, 0, 0, 0, 255, 0, 255]);
}
