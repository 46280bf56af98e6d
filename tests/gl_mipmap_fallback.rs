//! `glGenerateMipmap` by drawing: this binary forces the colour- and depth-shader fallbacks
//! (`ARENAGL_MIPMAP_PATH=shader`, before the library first reads it), since lavapipe blits
//! every colour format. Levels are read back by sampling them with `texelFetch` and checked
//! against the exact 2×2 box filter; the validation layer must stay silent.

use std::ffi::c_void;
use std::ptr::null;

#[macro_use]
#[path = "common/gl.rs"]
mod gl_harness;

use gl_harness::{error, f};

const GL_NO_ERROR: u32 = 0;
const GL_TEXTURE_2D: u32 = 0x0DE1;
const GL_RGBA: u32 = 0x1908;
const GL_UNSIGNED_BYTE: u32 = 0x1401;
const GL_FRAMEBUFFER: u32 = 0x8D40;
const GL_COLOR_ATTACHMENT0: u32 = 0x8CE0;
const GL_DEPTH_ATTACHMENT: u32 = 0x8D00;
const GL_DEPTH_COMPONENT: u32 = 0x1902;
const GL_DEPTH_COMPONENT24: u32 = 0x81A6;
const GL_FLOAT: u32 = 0x1406;
const GL_DEPTH_BUFFER_BIT: u32 = 0x0100;
const GL_SCISSOR_TEST: u32 = 0x0C11;

fn context() -> gl_harness::Current {
    // Read once by the library, on its first glGenerateMipmap: every test here sets the same.
    std::env::set_var("ARENAGL_MIPMAP_PATH", "shader");
    gl_harness::context()
}

/// Draws level `level` of the texture bound to unit 0 texel for texel into the lower-left corner
/// of the 32×32 drawable (channel `.r` only when `depth`), and reads `w × h` back as RGBA.
fn show_level(level: i32, w: usize, h: usize, depth: bool) -> Vec<u8> {
    let use_program = gl!(c"glUseProgram": fn(u32));
    let gen_vaos = gl!(c"glGenVertexArrays": fn(i32, *mut u32));
    let bind_vao = gl!(c"glBindVertexArray": fn(u32));
    let draw_arrays = gl!(c"glDrawArrays": fn(u32, i32, i32));
    let uniform = gl!(c"glUniform1i": fn(i32, i32));
    let location = gl!(c"glGetUniformLocation": fn(u32, *const i8) -> i32);
    let bind_fb = gl!(c"glBindFramebuffer": fn(u32, u32));
    let viewport = gl!(c"glViewport": fn(i32, i32, i32, i32));
    let read = gl!(c"glReadPixels": fn(i32, i32, i32, i32, u32, u32, *mut c_void));
    let fs = format!(
        "#version 330 core\nuniform sampler2D tex;\nuniform int level;\nout vec4 c;\nvoid main() {{ vec4 t = texelFetch(tex, ivec2(gl_FragCoord.xy), level); c = {}; }}\n",
        if depth { "vec4(t.r, t.r, t.r, 1.0)" } else { "t" }
    );
    let p = gl_harness::program(
        "#version 330 core\nvoid main() { vec2 p = vec2((gl_VertexID & 1) * 4 - 1, (gl_VertexID >> 1) * 4 - 1); gl_Position = vec4(p, 0.0, 1.0); }\n",
        &fs,
    );
    let mut px = vec![0u8; w * h * 4];
    // SAFETY: NUL-terminated names; `px` holds w × h RGBA bytes (rows of w*4, a multiple of 4).
    unsafe {
        bind_fb(GL_FRAMEBUFFER, 0);
        viewport(0, 0, 32, 32);
        use_program(p);
        uniform(location(p, c"tex".as_ptr()), 0);
        uniform(location(p, c"level".as_ptr()), level);
        let mut vao = 0;
        gen_vaos(1, &mut vao);
        bind_vao(vao);
        draw_arrays(4, 0, 3);
        read(
            0,
            0,
            w as i32,
            h as i32,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            px.as_mut_ptr().cast(),
        );
    }
    px
}

fn texture() -> u32 {
    let gen_textures = gl!(c"glGenTextures": fn(i32, *mut u32));
    let bind_texture = gl!(c"glBindTexture": fn(u32, u32));
    let mut t = 0;
    // SAFETY: out-pointer to a local.
    unsafe {
        gen_textures(1, &mut t);
        bind_texture(GL_TEXTURE_2D, t);
    }
    t
}

#[test]
fn the_colour_shader_box_filters_every_level() {
    let _ctx = context();
    let tex_image = gl!(c"glTexImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let generate = gl!(c"glGenerateMipmap": fn(u32));
    // Level 0 (16×16): red = 16 x, green = 16 y.
    let mut texels = Vec::new();
    for y in 0..16u32 {
        for x in 0..16u32 {
            texels.extend_from_slice(&[(16 * x) as u8, (16 * y) as u8, 0, 255]);
        }
    }
    texture();
    // SAFETY: `texels` holds the 16×16 RGBA image.
    unsafe {
        tex_image(
            GL_TEXTURE_2D,
            0,
            GL_RGBA as i32,
            16,
            16,
            0,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            texels.as_ptr().cast(),
        );
        generate(GL_TEXTURE_2D);
    }
    assert_eq!(error(), GL_NO_ERROR);
    // Level 1 (8×8): the average of 16·2i and 16·(2i+1) is 32i + 8.
    let px = show_level(1, 8, 8, false);
    for j in 0..8 {
        for i in 0..8 {
            let p = &px[(j * 8 + i) * 4..(j * 8 + i) * 4 + 4];
            assert_eq!(
                p,
                [32 * i as u8 + 8, 32 * j as u8 + 8, 0, 255],
                "level 1 at ({i}, {j})"
            );
        }
    }
    // Level 4 (1×1): the mean of everything, 120 (each step averages exactly).
    let px = show_level(4, 1, 1, false);
    assert_eq!(&px[..4], [120, 120, 0, 255]);
    assert_eq!(error(), GL_NO_ERROR);
}

#[test]
fn the_depth_shader_averages_depth_levels() {
    let _ctx = context();
    let tex_image = gl!(c"glTexImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let tex_parameter = gl!(c"glTexParameteri": fn(u32, u32, i32));
    let generate = gl!(c"glGenerateMipmap": fn(u32));
    let gen_fbs = gl!(c"glGenFramebuffers": fn(i32, *mut u32));
    let bind_fb = gl!(c"glBindFramebuffer": fn(u32, u32));
    let attach = gl!(c"glFramebufferTexture2D": fn(u32, u32, u32, u32, i32));
    let clear_depth = gl!(c"glClearDepth": fn(f64));
    let clear = gl!(c"glClear": fn(u32));
    let enable = gl!(c"glEnable": fn(u32));
    let disable = gl!(c"glDisable": fn(u32));
    let scissor = gl!(c"glScissor": fn(i32, i32, i32, i32));
    let draw_buffer = gl!(c"glDrawBuffer": fn(u32));
    let read_buffer = gl!(c"glReadBuffer": fn(u32));
    let t = texture();
    // SAFETY: a NULL image (storage only); plain values and out-pointers to locals.
    unsafe {
        tex_image(
            GL_TEXTURE_2D,
            0,
            GL_DEPTH_COMPONENT24 as i32,
            16,
            16,
            0,
            GL_DEPTH_COMPONENT,
            GL_FLOAT,
            null(),
        );
        tex_parameter(GL_TEXTURE_2D, 0x2801, 0x2600); // MIN_FILTER NEAREST
        let mut fb = 0;
        gen_fbs(1, &mut fb);
        bind_fb(GL_FRAMEBUFFER, fb);
        attach(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D, t, 0);
        draw_buffer(0);
        read_buffer(0);
        // Left half depth 0.25, right half 0.75.
        enable(GL_SCISSOR_TEST);
        scissor(0, 0, 8, 16);
        clear_depth(0.25);
        clear(GL_DEPTH_BUFFER_BIT);
        scissor(8, 0, 8, 16);
        clear_depth(0.75);
        clear(GL_DEPTH_BUFFER_BIT);
        disable(GL_SCISSOR_TEST);
        bind_fb(GL_FRAMEBUFFER, 0);
        generate(GL_TEXTURE_2D);
        let _ = GL_COLOR_ATTACHMENT0;
    }
    assert_eq!(error(), GL_NO_ERROR);
    let grey = |v: f32| (v * 255.0).round() as u8;
    let px = show_level(1, 8, 8, true);
    assert_eq!(px[(4 * 8 + 1) * 4], grey(0.25), "level 1, left half");
    assert_eq!(px[(4 * 8 + 6) * 4], grey(0.75), "level 1, right half");
    let px = show_level(4, 1, 1, true);
    let mean = px[0];
    assert!(
        (i32::from(mean) - i32::from(grey(0.5))).abs() <= 1,
        "level 4: {mean}"
    );
    assert_eq!(error(), GL_NO_ERROR);
}

/// `GL_RGB9_E5` can be neither blitted with linear filtering nor rendered to on lavapipe (nor
/// drawn by the fallback, which this binary forces): its levels are box-filtered on the CPU, for
/// a 2D texture and for a cube map (a target the drawing fallback does not draw). Before the
/// CPU path, the fallback drew into an image without attachment usage (validation errors).
#[test]
fn formats_that_can_be_neither_blitted_nor_drawn_are_filtered_on_the_cpu() {
    const GL_RGB: u32 = 0x1907;
    const GL_RGB9_E5: i32 = 0x8C3D;
    const GL_TEXTURE_CUBE_MAP: u32 = 0x8513;
    const GL_TEXTURE_CUBE_MAP_POSITIVE_X: u32 = 0x8515;
    let _ctx = context();
    let tex_image = gl!(c"glTexImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let generate = gl!(c"glGenerateMipmap": fn(u32));
    let get_image = gl!(c"glGetTexImage": fn(u32, i32, u32, u32, *mut c_void));
    let bind_texture = gl!(c"glBindTexture": fn(u32, u32));
    // Level 0 (4×4): red alternates 0 and 1 along x, green is 0.5 + 0.25 × face, blue 1.
    let face_image = |face: u32| -> Vec<f32> {
        (0..16)
            .flat_map(|i| [(i % 2) as f32, 0.5 + 0.25 * face as f32, 1.0])
            .collect()
    };
    let level = |target: u32, l: i32, texels: usize| -> Vec<f32> {
        let mut out = vec![-1.0f32; texels * 3];
        // SAFETY: `out` holds `texels` RGB float texels, the level's size.
        unsafe { get_image(target, l, GL_RGB, GL_FLOAT, out.as_mut_ptr().cast()) };
        out
    };
    let t = texture();
    // SAFETY: each image holds 4×4 RGB floats.
    unsafe {
        tex_image(
            GL_TEXTURE_2D,
            0,
            GL_RGB9_E5,
            4,
            4,
            0,
            GL_RGB,
            GL_FLOAT,
            face_image(0).as_ptr().cast(),
        );
        generate(GL_TEXTURE_2D);
    }
    assert_eq!(error(), GL_NO_ERROR);
    assert_eq!(level(GL_TEXTURE_2D, 1, 4), [0.5, 0.5, 1.0].repeat(4));
    assert_eq!(level(GL_TEXTURE_2D, 2, 1), [0.5, 0.5, 1.0]);
    let mut cube = t;
    // SAFETY: out-pointer to a local; each face image holds 4×4 RGB floats.
    unsafe {
        gl!(c"glGenTextures": fn(i32, *mut u32))(1, &mut cube);
        bind_texture(GL_TEXTURE_CUBE_MAP, cube);
        for face in 0..6 {
            tex_image(
                GL_TEXTURE_CUBE_MAP_POSITIVE_X + face,
                0,
                GL_RGB9_E5,
                4,
                4,
                0,
                GL_RGB,
                GL_FLOAT,
                face_image(face).as_ptr().cast(),
            );
        }
        generate(GL_TEXTURE_CUBE_MAP);
    }
    assert_eq!(error(), GL_NO_ERROR);
    for face in 0..6u32 {
        let green = 0.5 + 0.25 * face as f32;
        assert_eq!(
            level(GL_TEXTURE_CUBE_MAP_POSITIVE_X + face, 2, 1),
            [0.5, green, 1.0],
            "face {face}"
        );
    }
    assert_eq!(error(), GL_NO_ERROR);
}
