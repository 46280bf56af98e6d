//! GL_ARB_texture_view through the C ABI: `glTextureView`'s errors, the `GL_TEXTURE_VIEW_*`
//! queries, sampling one layer of an array through a 2D view, reading an RGBA8 image through an
//! RGBA8UI view (the bits unchanged), rendering into a level of the original through a view,
//! and a view outliving its original (the shared image is retired by its last user). The
//! validation layer must stay silent.

use std::ffi::c_void;

#[macro_use]
#[path = "common/gl.rs"]
mod gl_harness;

use gl_harness::{expect, f};

const GL_NO_ERROR: u32 = 0;
const GL_INVALID_VALUE: u32 = 0x0501;
const GL_INVALID_OPERATION: u32 = 0x0502;
const GL_TEXTURE_2D: u32 = 0x0DE1;
const GL_TEXTURE_3D: u32 = 0x806F;
const GL_TEXTURE_2D_ARRAY: u32 = 0x8C1A;
const GL_TEXTURE_CUBE_MAP: u32 = 0x8513;
const GL_TEXTURE_MIN_FILTER: u32 = 0x2801;
const GL_TEXTURE_MAG_FILTER: u32 = 0x2800;
const GL_NEAREST: i32 = 0x2600;
const GL_RGBA: u32 = 0x1908;
const GL_RGBA_INTEGER: u32 = 0x8D99;
const GL_RGBA8: u32 = 0x8058;
const GL_RGBA8UI: u32 = 0x8D7C;
const GL_R16F: u32 = 0x822D;
const GL_UNSIGNED_BYTE: u32 = 0x1401;
const GL_TRIANGLES: u32 = 4;
const GL_FRAMEBUFFER: u32 = 0x8D40;
const GL_COLOR_ATTACHMENT0: u32 = 0x8CE0;
const GL_COLOR_BUFFER_BIT: u32 = 0x4000;
const GL_TEXTURE_IMMUTABLE_LEVELS: u32 = 0x82DF;
const GL_TEXTURE_VIEW_MIN_LEVEL: u32 = 0x82DB;
const GL_TEXTURE_VIEW_NUM_LEVELS: u32 = 0x82DC;
const GL_TEXTURE_VIEW_MIN_LAYER: u32 = 0x82DD;
const GL_TEXTURE_VIEW_NUM_LAYERS: u32 = 0x82DE;

type TextureView = unsafe extern "C" fn(u32, u32, u32, u32, u32, u32, u32, u32);

fn texture_view() -> TextureView {
    // SAFETY: `TextureView` is glTextureView's C signature.
    unsafe { f::<TextureView>(c"glTextureView") }
}

/// A fresh texture name that was never bound.
fn unbound_name() -> u32 {
    let gen = gl!(c"glGenTextures": fn(i32, *mut u32));
    let mut t = 0;
    // SAFETY: out-pointer to a local.
    unsafe { gen(1, &mut t) };
    t
}

/// An immutable `GL_TEXTURE_2D_ARRAY` of `layers` 2×2 RGBA8 layers, `levels` levels, layer i of
/// level 0 filled with `colors[i]`; left bound.
fn array_texture(levels: i32, colors: &[[u8; 4]]) -> u32 {
    let storage = gl!(c"glTexStorage3D": fn(u32, i32, u32, i32, i32, i32));
    let sub = gl!(c"glTexSubImage3D": fn(u32, i32, i32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let tex = gl_harness::new_texture(GL_TEXTURE_2D_ARRAY);
    // SAFETY: each layer's texels are 2×2 RGBA bytes.
    unsafe {
        storage(
            GL_TEXTURE_2D_ARRAY,
            levels,
            GL_RGBA8,
            2,
            2,
            colors.len() as i32,
        );
        for (layer, color) in colors.iter().enumerate() {
            let texels = color.repeat(4);
            sub(
                GL_TEXTURE_2D_ARRAY,
                0,
                0,
                0,
                layer as i32,
                2,
                2,
                1,
                GL_RGBA,
                GL_UNSIGNED_BYTE,
                texels.as_ptr().cast(),
            );
        }
    }
    expect(GL_NO_ERROR);
    tex
}

/// `glGetTexParameteriv(target, pname)`.
fn tex_param(target: u32, pname: u32) -> i32 {
    let get = gl!(c"glGetTexParameteriv": fn(u32, u32, *mut i32));
    let mut v = -1;
    // SAFETY: out-pointer to a local.
    unsafe { get(target, pname, &mut v) };
    v
}

/// One `glTextureView` error case: what it tries, the view's name, its target, the original
/// texture, the view's format, [min level, levels, min layer, layers], and the error it must give.
type ViewCase = (&'static str, u32, u32, u32, u32, [u32; 4], u32);

#[test]
fn texture_view_errors_follow_the_spec() {
    let _ctx = gl_harness::context();
    let view = texture_view();
    let orig = array_texture(2, &[[1, 2, 3, 4], [5, 6, 7, 8]]);
    let mutable = gl_harness::new_texture(GL_TEXTURE_2D);
    let image = gl!(c"glTexImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    // SAFETY: no data pointer.
    unsafe {
        image(
            GL_TEXTURE_2D,
            0,
            GL_RGBA8 as i32,
            2,
            2,
            0,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            std::ptr::null(),
        )
    };
    expect(GL_NO_ERROR);
    let cases: [ViewCase; 10] = [
        (
            "origtexture 0",
            unbound_name(),
            GL_TEXTURE_2D,
            0,
            GL_RGBA8,
            [0, 1, 0, 1],
            GL_INVALID_VALUE,
        ),
        (
            "mutable origtexture",
            unbound_name(),
            GL_TEXTURE_2D,
            mutable,
            GL_RGBA8,
            [0, 1, 0, 1],
            GL_INVALID_OPERATION,
        ),
        (
            "texture 0",
            0,
            GL_TEXTURE_2D,
            orig,
            GL_RGBA8,
            [0, 1, 0, 1],
            GL_INVALID_VALUE,
        ),
        (
            "never generated",
            4242,
            GL_TEXTURE_2D,
            orig,
            GL_RGBA8,
            [0, 1, 0, 1],
            GL_INVALID_OPERATION,
        ),
        (
            "already has a target",
            orig,
            GL_TEXTURE_2D,
            orig,
            GL_RGBA8,
            [0, 1, 0, 1],
            GL_INVALID_OPERATION,
        ),
        (
            "3D view of an array",
            unbound_name(),
            GL_TEXTURE_3D,
            orig,
            GL_RGBA8,
            [0, 1, 0, 1],
            GL_INVALID_OPERATION,
        ),
        (
            "other view class",
            unbound_name(),
            GL_TEXTURE_2D,
            orig,
            GL_R16F,
            [0, 1, 0, 1],
            GL_INVALID_OPERATION,
        ),
        (
            "minlevel past the levels",
            unbound_name(),
            GL_TEXTURE_2D,
            orig,
            GL_RGBA8,
            [2, 1, 0, 1],
            GL_INVALID_VALUE,
        ),
        (
            "minlayer past the layers",
            unbound_name(),
            GL_TEXTURE_2D,
            orig,
            GL_RGBA8,
            [0, 1, 2, 1],
            GL_INVALID_VALUE,
        ),
        (
            "two layers for 2D",
            unbound_name(),
            GL_TEXTURE_2D,
            orig,
            GL_RGBA8,
            [0, 1, 0, 2],
            GL_INVALID_VALUE,
        ),
    ];
    for (what, tex, target, original, format, [min_level, levels, min_layer, layers], want) in cases
    {
        // SAFETY: plain values.
        unsafe {
            view(
                tex, target, original, format, min_level, levels, min_layer, layers,
            )
        };
        assert_eq!(gl_harness::error(), want, "{what}");
    }
    // A cube map needs six layers.
    // SAFETY: plain values.
    unsafe {
        view(
            unbound_name(),
            GL_TEXTURE_CUBE_MAP,
            orig,
            GL_RGBA8,
            0,
            1,
            0,
            2,
        )
    };
    expect(GL_INVALID_VALUE);
}

#[test]
fn views_answer_their_window_and_share_the_originals_texels() {
    let _ctx = gl_harness::context();
    let view = texture_view();
    let bind = gl!(c"glBindTexture": fn(u32, u32));
    let orig = array_texture(2, &[[255, 0, 0, 255], [0, 255, 0, 255], [0, 0, 255, 255]]);
    let v = unbound_name();
    // Layers 1..3 (clamped from 5), both levels, seen as integers.
    // SAFETY: plain values.
    unsafe { view(v, GL_TEXTURE_2D_ARRAY, orig, GL_RGBA8UI, 0, 9, 1, 5) };
    expect(GL_NO_ERROR);
    // SAFETY: plain values.
    unsafe { bind(GL_TEXTURE_2D_ARRAY, v) };
    let window = [
        GL_TEXTURE_VIEW_MIN_LEVEL,
        GL_TEXTURE_VIEW_NUM_LEVELS,
        GL_TEXTURE_VIEW_MIN_LAYER,
        GL_TEXTURE_VIEW_NUM_LAYERS,
        GL_TEXTURE_IMMUTABLE_LEVELS,
    ]
    .map(|p| tex_param(GL_TEXTURE_2D_ARRAY, p));
    assert_eq!(window, [0, 2, 1, 2, 2]);
    // A view of the view: level 1, layer 1 of it is layer 2 of the original.
    let vv = unbound_name();
    // SAFETY: plain values.
    unsafe { view(vv, GL_TEXTURE_2D, v, GL_RGBA8UI, 1, 1, 1, 1) };
    expect(GL_NO_ERROR);
    // SAFETY: plain values.
    unsafe { bind(GL_TEXTURE_2D, vv) };
    let window =
        [GL_TEXTURE_VIEW_MIN_LEVEL, GL_TEXTURE_VIEW_MIN_LAYER].map(|p| tex_param(GL_TEXTURE_2D, p));
    assert_eq!(window, [1, 2]);
    // The integer view reads the original's bytes unchanged.
    let get = gl!(c"glGetTexImage": fn(u32, i32, u32, u32, *mut c_void));
    let mut out = vec![0u8; 2 * 2 * 2 * 4];
    // SAFETY: room for 2×2 texels of 2 layers.
    unsafe {
        bind(GL_TEXTURE_2D_ARRAY, v);
        get(
            GL_TEXTURE_2D_ARRAY,
            0,
            GL_RGBA_INTEGER,
            GL_UNSIGNED_BYTE,
            out.as_mut_ptr().cast(),
        );
    }
    expect(GL_NO_ERROR);
    assert_eq!(out[..4], [0, 255, 0, 255], "layer 0 of the view is layer 1");
    assert_eq!(
        out[16..20],
        [0, 0, 255, 255],
        "layer 1 of the view is layer 2"
    );
}

const VS: &str = "#version 330\nvoid main() {\n    vec2 p = vec2(gl_VertexID == 1 ? 3.0 : -1.0, gl_VertexID == 2 ? 3.0 : -1.0);\n    gl_Position = vec4(p, 0.0, 1.0);\n}\n";
const FS: &str = "#version 330\nuniform sampler2D tex;\nout vec4 frag;\nvoid main() { frag = texture(tex, vec2(0.5)); }\n";

/// Draws a full-screen triangle with `program` and reads the pixel at (4, 4).
fn draw_and_read(program: u32) -> [u8; 4] {
    let use_program = gl!(c"glUseProgram": fn(u32));
    let gen_vaos = gl!(c"glGenVertexArrays": fn(i32, *mut u32));
    let bind_vao = gl!(c"glBindVertexArray": fn(u32));
    let draw = gl!(c"glDrawArrays": fn(u32, i32, i32));
    let mut vao = 0;
    // SAFETY: out-pointer to a local.
    unsafe {
        gen_vaos(1, &mut vao);
        bind_vao(vao);
        use_program(program);
        draw(GL_TRIANGLES, 0, 3);
    }
    expect(GL_NO_ERROR);
    let px = gl_harness::read_rgba(4, 4, 1, 1);
    [px[0], px[1], px[2], px[3]]
}

#[test]
fn a_2d_view_samples_one_layer_and_outlives_its_original() {
    let _ctx = gl_harness::context();
    let view = texture_view();
    let param = gl!(c"glTexParameteri": fn(u32, u32, i32));
    let delete = gl!(c"glDeleteTextures": fn(i32, *const u32));
    let orig = array_texture(1, &[[255, 0, 0, 255], [0, 255, 0, 255]]);
    let v = unbound_name();
    // SAFETY: plain values; the name array is a local.
    unsafe {
        view(v, GL_TEXTURE_2D, orig, GL_RGBA8, 0, 1, 1, 1);
        delete(1, &orig);
    }
    expect(GL_NO_ERROR);
    gl_harness::new_texture(GL_TEXTURE_2D);
    let bind = gl!(c"glBindTexture": fn(u32, u32));
    // SAFETY: plain values.
    unsafe {
        bind(GL_TEXTURE_2D, v);
        param(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        param(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    }
    let program = gl_harness::program(VS, FS);
    assert_eq!(
        draw_and_read(program),
        [0, 255, 0, 255],
        "layer 1, after the original went"
    );
}

#[test]
fn rendering_into_a_view_writes_the_originals_level() {
    let _ctx = gl_harness::context();
    let view = texture_view();
    let bind = gl!(c"glBindTexture": fn(u32, u32));
    let gen_fbos = gl!(c"glGenFramebuffers": fn(i32, *mut u32));
    let bind_fbo = gl!(c"glBindFramebuffer": fn(u32, u32));
    let attach = gl!(c"glFramebufferTexture2D": fn(u32, u32, u32, u32, i32));
    let clear_color = gl!(c"glClearColor": fn(f32, f32, f32, f32));
    let clear = gl!(c"glClear": fn(u32));
    let storage = gl!(c"glTexStorage2D": fn(u32, i32, u32, i32, i32));
    let orig = gl_harness::new_texture(GL_TEXTURE_2D);
    let v = unbound_name();
    let mut fbo = 0;
    // SAFETY: plain values; out-pointer to a local.
    unsafe {
        storage(GL_TEXTURE_2D, 3, GL_RGBA8, 4, 4);
        view(v, GL_TEXTURE_2D, orig, GL_RGBA8, 1, 2, 0, 1);
        gen_fbos(1, &mut fbo);
        bind_fbo(GL_FRAMEBUFFER, fbo);
        attach(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, v, 0);
        clear_color(0.0, 0.0, 1.0, 1.0);
        clear(GL_COLOR_BUFFER_BIT);
        bind_fbo(GL_FRAMEBUFFER, 0);
        bind(GL_TEXTURE_2D, orig);
    }
    expect(GL_NO_ERROR);
    let level1 = gl_harness::tex_image_rgba(GL_TEXTURE_2D, 1, 2 * 2 * 4);
    assert_eq!(
        level1[..4],
        [0, 0, 255, 255],
        "level 0 of the view is level 1"
    );
    let level0 = gl_harness::tex_image_rgba(GL_TEXTURE_2D, 0, 4 * 4 * 4);
    assert_ne!(
        level0[..4],
        [0, 0, 255, 255],
        "level 0 of the original is not the view's"
    );
}
