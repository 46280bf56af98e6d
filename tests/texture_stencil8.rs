//! GL_ARB_texture_stencil8 through the C ABI: a `GL_STENCIL_INDEX8` texture takes
//! `GL_STENCIL_INDEX` uploads (the memory manager's stencil-aspect transfers), samples its
//! indices through a `usampler2D`, reads back with `glGetTexImage`, stencil-tests a draw as a
//! framebuffer's stencil attachment, gets GL's errors for the format pairs and targets the
//! extension refuses, and comes back after a device loss (the restore journal replays the
//! stencil aspect). Every test turns recovery on (`ARENAGL_RECOVER=1`) before its context
//! opens the process's device; the validation layer must stay silent.

use std::ffi::c_void;
use std::ptr::null;

#[macro_use]
#[path = "common/gl.rs"]
mod gl_harness;

use gl_harness::{expect, f, memory_stat, new_texture, read_rgba};

const GL_NO_ERROR: u32 = 0;
const GL_INVALID_ENUM: u32 = 0x0500;
const GL_INVALID_OPERATION: u32 = 0x0502;
const GL_TEXTURE_2D: u32 = 0x0DE1;
const GL_TEXTURE_3D: u32 = 0x806F;
const GL_TEXTURE_2D_ARRAY: u32 = 0x8C1A;
const GL_TEXTURE_MIN_FILTER: u32 = 0x2801;
const GL_TEXTURE_MAG_FILTER: u32 = 0x2800;
const GL_TEXTURE_STENCIL_SIZE: u32 = 0x88F1;
const GL_TEXTURE_DEPTH_SIZE: u32 = 0x884A;
const GL_NEAREST: i32 = 0x2600;
const GL_LINEAR: i32 = 0x2601;
const GL_RGBA: u32 = 0x1908;
const GL_RGBA8: i32 = 0x8058;
const GL_STENCIL_INDEX: u32 = 0x1901;
const GL_STENCIL_INDEX8: i32 = 0x8D48;
const GL_DEPTH_COMPONENT: u32 = 0x1902;
const GL_UNSIGNED_BYTE: u32 = 0x1401;
const GL_UNSIGNED_INT_24_8: u32 = 0x84FA;
const GL_FRAMEBUFFER: u32 = 0x8D40;
const GL_COLOR_ATTACHMENT0: u32 = 0x8CE0;
const GL_STENCIL_ATTACHMENT: u32 = 0x8D20;
const GL_FRAMEBUFFER_COMPLETE: u32 = 0x8CD5;
const GL_STENCIL_TEST: u32 = 0x0B90;
const GL_EQUAL: u32 = 0x0202;
const GL_ALWAYS: u32 = 0x0207;
const GL_KEEP: u32 = 0x1E00;
const GL_REPLACE: u32 = 0x1E01;
const GL_COLOR_BUFFER_BIT: u32 = 0x4000;
const GL_TRIANGLES: u32 = 4;
const GL_EXTENSIONS: u32 = 0x1F03;
const GL_NUM_EXTENSIONS: u32 = 0x821D;
const GL_MAJOR_VERSION: u32 = 0x821B;
const GL_MINOR_VERSION: u32 = 0x821C;

/// The side of the stencil texture; the 32×32 pbuffer shows each texel as a 4×4 block.
const SIDE: usize = 8;

/// A full-screen triangle.
const VS: &str = "#version 330\nvoid main() {\n    vec2 p = vec2(gl_VertexID == 1 ? 3.0 : -1.0, gl_VertexID == 2 ? 3.0 : -1.0);\n    gl_Position = vec4(p, 0.0, 1.0);\n}\n";
/// Red is the stencil index of the texel under the fragment (4×4 pixels per texel).
const SAMPLE_FS: &str = "#version 330\nuniform usampler2D s;\nout vec4 o;\nvoid main() {\n    uint v = texelFetch(s, ivec2(gl_FragCoord.xy) / 4, 0).r;\n    o = vec4(float(v) / 255.0, 0.0, 0.0, 1.0);\n}\n";
/// Plain red.
const RED_FS: &str = "#version 330\nout vec4 o;\nvoid main() { o = vec4(1.0, 0.0, 0.0, 1.0); }\n";

fn recovery_on() {
    std::env::set_var("ARENAGL_RECOVER", "1");
}

/// `context()` with recovery on for the process's device.
fn context() -> gl_harness::Current {
    recovery_on();
    gl_harness::context()
}

/// A different index for every texel, none zero, covering high bits.
fn pattern() -> Vec<u8> {
    (0..SIDE * SIDE).map(|i| (i * 37 + 11) as u8).collect()
}

type TexImage2d = unsafe extern "C" fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void);

/// A new `SIDE × SIDE` stencil texture on the bound unit holding `texels`, nearest filters.
fn stencil_texture(texels: &[u8]) -> u32 {
    let tex_image = gl!(c"glTexImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let param = gl!(c"glTexParameteri": fn(u32, u32, i32));
    let pixel_store = gl!(c"glPixelStorei": fn(u32, i32));
    let tex = new_texture(GL_TEXTURE_2D);
    // SAFETY: `texels` holds SIDE × SIDE bytes, read with an unpack alignment of 1.
    unsafe {
        pixel_store(0x0CF5, 1); // GL_UNPACK_ALIGNMENT
        tex_image(
            GL_TEXTURE_2D,
            0,
            GL_STENCIL_INDEX8,
            SIDE as i32,
            SIDE as i32,
            0,
            GL_STENCIL_INDEX,
            GL_UNSIGNED_BYTE,
            texels.as_ptr().cast(),
        );
        param(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        param(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    }
    tex
}

/// `glGetTexImage(GL_STENCIL_INDEX, GL_UNSIGNED_BYTE)` of level 0 of the bound 2D texture.
fn stencil_texels() -> Vec<u8> {
    let get = gl!(c"glGetTexImage": fn(u32, i32, u32, u32, *mut c_void));
    let pixel_store = gl!(c"glPixelStorei": fn(u32, i32));
    let mut out = vec![0u8; SIDE * SIDE];
    // SAFETY: room for SIDE × SIDE bytes at a pack alignment of 1.
    unsafe {
        pixel_store(0x0D05, 1); // GL_PACK_ALIGNMENT
        get(
            GL_TEXTURE_2D,
            0,
            GL_STENCIL_INDEX,
            GL_UNSIGNED_BYTE,
            out.as_mut_ptr().cast(),
        );
    }
    out
}

/// Draws the full-screen triangle with `program` into the bound framebuffer.
fn draw_with(program: u32) {
    let use_program = gl!(c"glUseProgram": fn(u32));
    let gen_vaos = gl!(c"glGenVertexArrays": fn(i32, *mut u32));
    let bind_vao = gl!(c"glBindVertexArray": fn(u32));
    let draw = gl!(c"glDrawArrays": fn(u32, i32, i32));
    let mut vao = 0;
    // SAFETY: out-pointer to a local; live names.
    unsafe {
        gen_vaos(1, &mut vao);
        bind_vao(vao);
        use_program(program);
        draw(GL_TRIANGLES, 0, 3);
    }
}

/// Binds a new framebuffer with a 32×32 RGBA8 colour texture (the pbuffer's channels may be
/// narrower than 8 bits) and leaves the texture unit's 2D binding as it was.
fn rgba8_target() {
    let tex_image = gl!(c"glTexImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let gen_fbs = gl!(c"glGenFramebuffers": fn(i32, *mut u32));
    let bind_fb = gl!(c"glBindFramebuffer": fn(u32, u32));
    let attach = gl!(c"glFramebufferTexture2D": fn(u32, u32, u32, u32, i32));
    let status = gl!(c"glCheckFramebufferStatus": fn(u32) -> u32);
    let get_integer = gl!(c"glGetIntegerv": fn(u32, *mut i32));
    let bind_tex = gl!(c"glBindTexture": fn(u32, u32));
    let (mut bound, mut fb) = (0, 0);
    // SAFETY: out-pointers to locals; a NULL image; live names.
    unsafe {
        get_integer(0x8069, &mut bound); // GL_TEXTURE_BINDING_2D
        let color = new_texture(GL_TEXTURE_2D);
        tex_image(
            GL_TEXTURE_2D,
            0,
            GL_RGBA8,
            32,
            32,
            0,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            null(),
        );
        gen_fbs(1, &mut fb);
        bind_fb(GL_FRAMEBUFFER, fb);
        attach(
            GL_FRAMEBUFFER,
            GL_COLOR_ATTACHMENT0,
            GL_TEXTURE_2D,
            color,
            0,
        );
        assert_eq!(status(GL_FRAMEBUFFER), GL_FRAMEBUFFER_COMPLETE);
        bind_tex(GL_TEXTURE_2D, bound as u32);
    }
}

/// The red channel of the 32×32 target, one value per texel (the centre of its 4×4 block).
fn sampled_indices() -> Vec<u8> {
    let px = read_rgba(0, 0, 32, 32);
    (0..SIDE * SIDE)
        .map(|i| {
            let (x, y) = (i % SIDE * 4 + 2, i / SIDE * 4 + 2);
            px[(y * 32 + x) * 4]
        })
        .collect()
}

#[test]
fn the_extension_is_offered_and_gl_4_4_claimed() {
    let _ctx = context();
    let get_string_i = gl!(c"glGetStringi": fn(u32, u32) -> *const u8);
    let get_integer = gl!(c"glGetIntegerv": fn(u32, *mut i32));
    let (mut n, mut major, mut minor) = (0, 0, 0);
    // SAFETY: out-pointers to locals; indices below GL_NUM_EXTENSIONS; GL's strings are
    // NUL-terminated and live as long as the context.
    let names: Vec<String> = unsafe {
        get_integer(GL_NUM_EXTENSIONS, &mut n);
        get_integer(GL_MAJOR_VERSION, &mut major);
        get_integer(GL_MINOR_VERSION, &mut minor);
        (0..n as u32)
            .map(|i| {
                let p = get_string_i(GL_EXTENSIONS, i);
                std::ffi::CStr::from_ptr(p.cast())
                    .to_string_lossy()
                    .into_owned()
            })
            .collect()
    };
    assert!(names.iter().any(|e| e == "GL_ARB_texture_stencil8"));
    // The harness asks for 3.3 core: GL gives the highest compatible version it supports.
    assert!((major, minor) >= (4, 4), "GL {major}.{minor}");
    expect(GL_NO_ERROR);
}

#[test]
fn uploaded_stencil_indices_sample_as_unsigned_integers_and_read_back() {
    let _ctx = context();
    let texels = pattern();
    stencil_texture(&texels);
    expect(GL_NO_ERROR);
    let level_param = gl!(c"glGetTexLevelParameteriv": fn(u32, i32, u32, *mut i32));
    let (mut stencil_bits, mut depth_bits) = (0, -1);
    // SAFETY: out-pointers to locals.
    unsafe {
        level_param(GL_TEXTURE_2D, 0, GL_TEXTURE_STENCIL_SIZE, &mut stencil_bits);
        level_param(GL_TEXTURE_2D, 0, GL_TEXTURE_DEPTH_SIZE, &mut depth_bits);
    }
    assert_eq!((stencil_bits, depth_bits), (8, 0));
    assert_eq!(stencil_texels(), texels, "glGetTexImage returns the upload");

    rgba8_target();
    draw_with(gl_harness::program(VS, SAMPLE_FS));
    expect(GL_NO_ERROR);
    assert_eq!(sampled_indices(), texels, "usampler2D reads the indices");

    // A sub-image replaces one 2×2 block and nothing else.
    let sub = gl!(c"glTexSubImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let block = [200u8, 201, 202, 203];
    // SAFETY: four bytes for a 2×2 region at an unpack alignment of 1.
    unsafe {
        sub(
            GL_TEXTURE_2D,
            0,
            3,
            5,
            2,
            2,
            GL_STENCIL_INDEX,
            GL_UNSIGNED_BYTE,
            block.as_ptr().cast(),
        )
    };
    expect(GL_NO_ERROR);
    let mut want = texels.clone();
    for (i, v) in block.iter().enumerate() {
        want[(5 + i / 2) * SIDE + 3 + i % 2] = *v;
    }
    assert_eq!(stencil_texels(), want);

    // Linear filters make a stencil texture incomplete: it samples as 0.
    let param = gl!(c"glTexParameteri": fn(u32, u32, i32));
    // SAFETY: plain values.
    unsafe { param(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR) };
    draw_with(gl_harness::program(VS, SAMPLE_FS));
    assert!(sampled_indices().iter().all(|&v| v == 0), "incomplete");
    expect(GL_NO_ERROR);
}

#[test]
fn format_pairs_and_targets_the_extension_refuses_are_errors() {
    let _ctx = context();
    // SAFETY: the GL signature of glTexImage2D.
    let tex_image: TexImage2d = unsafe { f(c"glTexImage2D") };
    let tex_image_3d =
        gl!(c"glTexImage3D": fn(u32, i32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let bytes = [0u8; 64];
    new_texture(GL_TEXTURE_2D);
    // SAFETY: 64 bytes cover every 4×4 upload below at any of these types.
    unsafe {
        // Depth data into a stencil texture, stencil data into depth/stencil or colour ones.
        tex_image(
            GL_TEXTURE_2D,
            0,
            GL_STENCIL_INDEX8,
            4,
            4,
            0,
            GL_DEPTH_COMPONENT,
            GL_UNSIGNED_BYTE,
            bytes.as_ptr().cast(),
        );
        expect(GL_INVALID_OPERATION);
        tex_image(
            GL_TEXTURE_2D,
            0,
            0x88F0,
            4,
            4,
            0,
            GL_STENCIL_INDEX,
            GL_UNSIGNED_BYTE,
            bytes.as_ptr().cast(),
        );
        expect(GL_INVALID_OPERATION);
        tex_image(
            GL_TEXTURE_2D,
            0,
            GL_RGBA8,
            4,
            4,
            0,
            GL_STENCIL_INDEX,
            GL_UNSIGNED_BYTE,
            bytes.as_ptr().cast(),
        );
        expect(GL_INVALID_OPERATION);
        // A packed depth/stencil type with GL_STENCIL_INDEX; an unknown type.
        tex_image(
            GL_TEXTURE_2D,
            0,
            GL_STENCIL_INDEX8,
            4,
            4,
            0,
            GL_STENCIL_INDEX,
            GL_UNSIGNED_INT_24_8,
            bytes.as_ptr().cast(),
        );
        expect(GL_INVALID_OPERATION);
        tex_image(
            GL_TEXTURE_2D,
            0,
            GL_STENCIL_INDEX8,
            4,
            4,
            0,
            GL_STENCIL_INDEX,
            0x1234,
            bytes.as_ptr().cast(),
        );
        expect(GL_INVALID_ENUM);
        // No 3D stencil textures; arrays are fine.
        new_texture(GL_TEXTURE_3D);
        tex_image_3d(
            GL_TEXTURE_3D,
            0,
            GL_STENCIL_INDEX8,
            2,
            2,
            2,
            0,
            GL_STENCIL_INDEX,
            GL_UNSIGNED_BYTE,
            bytes.as_ptr().cast(),
        );
        expect(GL_INVALID_OPERATION);
        new_texture(GL_TEXTURE_2D_ARRAY);
        tex_image_3d(
            GL_TEXTURE_2D_ARRAY,
            0,
            GL_STENCIL_INDEX8,
            2,
            2,
            3,
            0,
            GL_STENCIL_INDEX,
            GL_UNSIGNED_BYTE,
            null(),
        );
        expect(GL_NO_ERROR);
    }
}

#[test]
fn a_stencil8_texture_attached_as_stencil_stencil_tests_draws() {
    let _ctx = context();
    let gen_fbs = gl!(c"glGenFramebuffers": fn(i32, *mut u32));
    let bind_fb = gl!(c"glBindFramebuffer": fn(u32, u32));
    let attach = gl!(c"glFramebufferTexture2D": fn(u32, u32, u32, u32, i32));
    let status = gl!(c"glCheckFramebufferStatus": fn(u32) -> u32);
    let enable = gl!(c"glEnable": fn(u32));
    let disable = gl!(c"glDisable": fn(u32));
    let stencil_func = gl!(c"glStencilFunc": fn(u32, i32, u32));
    let stencil_op = gl!(c"glStencilOp": fn(u32, u32, u32));
    let clear_color = gl!(c"glClearColor": fn(f32, f32, f32, f32));
    let clear = gl!(c"glClear": fn(u32));
    let viewport = gl!(c"glViewport": fn(i32, i32, i32, i32));
    let bind_tex = gl!(c"glBindTexture": fn(u32, u32));
    // SAFETY: the GL signature of glTexImage2D.
    let tex_image: TexImage2d = unsafe { f(c"glTexImage2D") };

    // Stencil 1 in the left half of every row, 0 in the right half.
    let halves: Vec<u8> = (0..SIDE * SIDE)
        .map(|i| u8::from(i % SIDE < SIDE / 2))
        .collect();
    let stencil = stencil_texture(&halves);
    let color = new_texture(GL_TEXTURE_2D);
    let mut fb = 0;
    // SAFETY: out-pointer to a local; live names; a NULL image.
    unsafe {
        tex_image(
            GL_TEXTURE_2D,
            0,
            GL_RGBA8,
            SIDE as i32,
            SIDE as i32,
            0,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            null(),
        );
        gen_fbs(1, &mut fb);
        bind_fb(GL_FRAMEBUFFER, fb);
        attach(
            GL_FRAMEBUFFER,
            GL_COLOR_ATTACHMENT0,
            GL_TEXTURE_2D,
            color,
            0,
        );
        attach(
            GL_FRAMEBUFFER,
            GL_STENCIL_ATTACHMENT,
            GL_TEXTURE_2D,
            stencil,
            0,
        );
        assert_eq!(status(GL_FRAMEBUFFER), GL_FRAMEBUFFER_COMPLETE);
        viewport(0, 0, SIDE as i32, SIDE as i32);
        clear_color(0.0, 0.0, 1.0, 1.0);
        clear(GL_COLOR_BUFFER_BIT);
        enable(GL_STENCIL_TEST);
        stencil_func(GL_EQUAL, 1, 0xFF);
        stencil_op(GL_KEEP, GL_KEEP, GL_KEEP);
    }
    draw_with(gl_harness::program(VS, RED_FS));
    expect(GL_NO_ERROR);
    let px = read_rgba(0, 0, SIDE as i32, SIDE as i32);
    for (i, p) in px.chunks(4).enumerate() {
        let want = if i % SIDE < SIDE / 2 {
            [255, 0, 0, 255]
        } else {
            [0, 0, 255, 255]
        };
        assert_eq!(
            p, want,
            "pixel {i}: the stencil test passes where the texture holds 1"
        );
    }

    // Drawing writes the texture: replace every index with 0x7E, then read it back.
    // SAFETY: plain values; live names.
    unsafe {
        stencil_func(GL_ALWAYS, 0x7E, 0xFF);
        stencil_op(GL_REPLACE, GL_REPLACE, GL_REPLACE);
    }
    draw_with(gl_harness::program(VS, RED_FS));
    // glCopyTexImage2D of the framebuffer's stencil into a new stencil texture.
    let copy_tex_image = gl!(c"glCopyTexImage2D": fn(u32, i32, u32, i32, i32, i32, i32, i32));
    new_texture(GL_TEXTURE_2D);
    // SAFETY: plain values; live names.
    unsafe {
        disable(GL_STENCIL_TEST);
        copy_tex_image(
            GL_TEXTURE_2D,
            0,
            GL_STENCIL_INDEX8 as u32,
            0,
            0,
            SIDE as i32,
            SIDE as i32,
            0,
        );
        bind_fb(GL_FRAMEBUFFER, 0);
        viewport(0, 0, 32, 32);
    }
    expect(GL_NO_ERROR);
    assert!(
        stencil_texels().iter().all(|&v| v == 0x7E),
        "glCopyTexImage2D copies the stencil"
    );
    // SAFETY: a live name.
    unsafe { bind_tex(GL_TEXTURE_2D, stencil) };
    assert!(
        stencil_texels().iter().all(|&v| v == 0x7E),
        "rendered stencil reads back"
    );
    expect(GL_NO_ERROR);
}

/// `arenagl_set_faults(spec)`: the fault plan from now on.
fn set_faults(spec: &str) {
    // SAFETY: the exported symbol has exactly this signature.
    let set = *unsafe {
        gl_harness::lib()
            .lib
            .get::<unsafe extern "C" fn(*const std::ffi::c_char) -> i32>(b"arenagl_set_faults\0")
    }
    .expect("arenagl_set_faults is exported");
    let spec = std::ffi::CString::new(spec).expect("no NUL");
    // SAFETY: a NUL-terminated string.
    assert_eq!(unsafe { set(spec.as_ptr()) }, 0, "plan {spec:?}");
}

#[test]
fn stencil_texels_come_back_after_a_device_loss() {
    let _ctx = context();
    let texels = pattern();
    let tex = stencil_texture(&texels);
    rgba8_target();
    let finish = gl!(c"glFinish": fn());
    // SAFETY: no arguments.
    unsafe { finish() };
    assert!(memory_stat(c"journal_bytes") > 0, "the upload is journaled");
    let recoveries = memory_stat(c"recoveries");
    set_faults("submit@1=device_lost");
    draw_with(gl_harness::program(VS, SAMPLE_FS));
    // SAFETY: no arguments.
    unsafe { finish() };
    set_faults("");
    expect(GL_NO_ERROR);
    let bind_tex = gl!(c"glBindTexture": fn(u32, u32));
    // SAFETY: a live name.
    unsafe { bind_tex(GL_TEXTURE_2D, tex) };
    assert_eq!(
        stencil_texels(),
        texels,
        "the journal restored the stencil aspect"
    );
    assert_eq!(memory_stat(c"recoveries"), recoveries + 1, "one recovery");
    draw_with(gl_harness::program(VS, SAMPLE_FS));
    assert_eq!(sampled_indices(), texels, "and it samples as before");
    expect(GL_NO_ERROR);
}
