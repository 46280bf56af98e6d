//! Rectangle textures (GL_ARB_texture_rectangle, core in 3.1) through the C ABI: texels sampled
//! at unnormalized texel centres come back exactly through every rectangle sampler function
//! (`texture`, `textureProj`, `textureOffset`, `texelFetch`, `textureSize`, integer samplers,
//! shadow comparison, the GLSL 1.20 `texture2DRect` names); a rectangle texture is a
//! framebuffer attachment that renders and blits both ways; and every rectangle-specific GL
//! error. The built `libarenagl.so` is loaded by path; each test makes its own context.

use std::ffi::c_void;
use std::ptr::null;

#[macro_use]
#[path = "common/gl.rs"]
mod gl_harness;

use gl_harness::{context, error, expect, f, new_texture as texture};

const GL_NO_ERROR: u32 = 0;
const GL_INVALID_ENUM: u32 = 0x0500;
const GL_INVALID_VALUE: u32 = 0x0501;
const GL_INVALID_OPERATION: u32 = 0x0502;
const GL_UNSIGNED_BYTE: u32 = 0x1401;
const GL_FLOAT: u32 = 0x1406;
const GL_RGBA: u32 = 0x1908;
const GL_RGBA8: u32 = 0x8058;
const GL_RGBA8UI: u32 = 0x8D7C;
const GL_RGBA_INTEGER: u32 = 0x8D99;
const GL_DEPTH_COMPONENT: u32 = 0x1902;
const GL_DEPTH_COMPONENT24: u32 = 0x81A6;
const GL_TEXTURE_2D: u32 = 0x0DE1;
const GL_TEXTURE_RECTANGLE: u32 = 0x84F5;
const GL_TEXTURE_BINDING_RECTANGLE: u32 = 0x84F6;
const GL_MAX_RECTANGLE_TEXTURE_SIZE: u32 = 0x84F8;
const GL_TEXTURE_MIN_FILTER: u32 = 0x2801;
const GL_TEXTURE_MAG_FILTER: u32 = 0x2800;
const GL_TEXTURE_WRAP_S: u32 = 0x2802;
const GL_TEXTURE_WRAP_T: u32 = 0x2803;
const GL_TEXTURE_BASE_LEVEL: u32 = 0x813C;
const GL_TEXTURE_COMPARE_MODE: u32 = 0x884C;
const GL_COMPARE_REF_TO_TEXTURE: i32 = 0x884E;
const GL_NEAREST: i32 = 0x2600;
const GL_LINEAR: i32 = 0x2601;
const GL_LINEAR_MIPMAP_LINEAR: i32 = 0x2703;
const GL_REPEAT: i32 = 0x2901;
const GL_MIRRORED_REPEAT: i32 = 0x8370;
const GL_CLAMP_TO_EDGE: i32 = 0x812F;
const GL_TRIANGLES: u32 = 4;
const GL_FRAMEBUFFER: u32 = 0x8D40;
const GL_READ_FRAMEBUFFER: u32 = 0x8CA8;
const GL_DRAW_FRAMEBUFFER: u32 = 0x8CA9;
const GL_COLOR_ATTACHMENT0: u32 = 0x8CE0;
const GL_DEPTH_ATTACHMENT: u32 = 0x8D00;
const GL_FRAMEBUFFER_COMPLETE: u32 = 0x8CD5;
const GL_COLOR_BUFFER_BIT: u32 = 0x4000;
const GL_DEPTH_BUFFER_BIT: u32 = 0x0100;
const GL_EXTENSIONS: u32 = 0x1F03;
const GL_NUM_EXTENSIONS: u32 = 0x821D;

fn param(target: u32, pname: u32, value: i32) {
    let p = gl!(c"glTexParameteri": fn(u32, u32, i32));
    // SAFETY: plain values.
    unsafe { p(target, pname, value) };
}

fn get_param(target: u32, pname: u32) -> i32 {
    let get = gl!(c"glGetTexParameteriv": fn(u32, u32, *mut i32));
    let mut v = -1;
    // SAFETY: one value into a local.
    unsafe { get(target, pname, &mut v) };
    v
}

fn get_int(pname: u32) -> i32 {
    let get = gl!(c"glGetIntegerv": fn(u32, *mut i32));
    let mut v = -1;
    // SAFETY: one value into a local.
    unsafe { get(pname, &mut v) };
    v
}

/// `w × h` distinct RGBA8 texels: texel (x, y) is (x*40+1, y*40+2, x+y*8+3, 255).
fn texels(w: usize, h: usize) -> Vec<u8> {
    (0..w * h).flat_map(|i| texel(i % w, i / w)).collect()
}

fn texel(x: usize, y: usize) -> [u8; 4] {
    [
        (x * 40 + 1) as u8,
        (y * 40 + 2) as u8,
        (x + y * 8 + 3) as u8,
        255,
    ]
}

/// Draws a full-screen triangle whose colour is `expr` (GLSL 3.30 over `uniform {sampler} t`,
/// unit 0) and reads the centre pixel of the 32×32 target.
fn sample(sampler: &str, expr: &str) -> [u8; 4] {
    let fs = format!(
        "#version 330 core\nuniform {sampler} t;\nout vec4 color;\nvoid main() {{ color = {expr}; }}\n"
    );
    draw_and_read(&fs)
}

const VS: &str = "#version 330 core\nvoid main() {\n  vec2 p = vec2(float((gl_VertexID & 1) * 4 - 1), float((gl_VertexID & 2) * 2 - 1));\n  gl_Position = vec4(p, 0.0, 1.0);\n}\n";

fn draw_and_read(fs: &str) -> [u8; 4] {
    draw_with(VS, fs);
    read_pixel(16, 16)
}

fn draw_with(vs: &str, fs: &str) {
    let use_program = gl!(c"glUseProgram": fn(u32));
    let gen_vaos = gl!(c"glGenVertexArrays": fn(i32, *mut u32));
    let bind_vao = gl!(c"glBindVertexArray": fn(u32));
    let draw = gl!(c"glDrawArrays": fn(u32, i32, i32));
    let program = gl_harness::program(vs, fs);
    let mut vao = 0;
    // SAFETY: out-pointer to a local.
    unsafe {
        gen_vaos(1, &mut vao);
        bind_vao(vao);
        use_program(program);
        draw(GL_TRIANGLES, 0, 3);
    }
    assert_eq!(error(), GL_NO_ERROR, "drawing with\n{fs}");
}

fn read_pixel(x: i32, y: i32) -> [u8; 4] {
    let read = gl!(c"glReadPixels": fn(i32, i32, i32, i32, u32, u32, *mut c_void));
    let mut px = [0u8; 4];
    // SAFETY: one RGBA8 pixel into a 4-byte local.
    unsafe {
        read(
            x,
            y,
            1,
            1,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            px.as_mut_ptr().cast(),
        )
    };
    px
}

fn rect_image(w: i32, h: i32, internal: u32, format: u32, data: &[u8]) {
    let image = gl!(c"glTexImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    // SAFETY: `data` holds w × h four-byte texels.
    unsafe {
        image(
            GL_TEXTURE_RECTANGLE,
            0,
            internal as i32,
            w,
            h,
            0,
            format,
            GL_UNSIGNED_BYTE,
            data.as_ptr().cast(),
        )
    };
}

#[test]
fn rectangle_texels_sample_exactly_at_unnormalized_centres() {
    let _ctx = context();
    // Non-power-of-two on purpose: the coordinate divide must not round across a texel.
    let (w, h) = (7usize, 5usize);
    texture(GL_TEXTURE_RECTANGLE);
    param(GL_TEXTURE_RECTANGLE, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    param(GL_TEXTURE_RECTANGLE, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    rect_image(w as i32, h as i32, GL_RGBA8, GL_RGBA, &texels(w, h));
    assert_eq!(error(), GL_NO_ERROR);
    for (x, y) in [(0, 0), (6, 0), (3, 2), (6, 4), (1, 3)] {
        let at = format!("vec2({x}.5, {y}.5)");
        assert_eq!(
            sample("sampler2DRect", &format!("texture(t, {at})")),
            texel(x, y),
            "texture at {at}"
        );
    }
    assert_eq!(
        sample("sampler2DRect", "texelFetch(t, ivec2(4, 3))"),
        texel(4, 3)
    );
    // textureProj divides s and t (in texels) by q.
    assert_eq!(
        sample("sampler2DRect", "textureProj(t, vec3(11.0, 5.0, 2.0))"),
        texel(5, 2)
    );
    assert_eq!(
        sample("sampler2DRect", "textureProj(t, vec4(3.0, 7.0, 0.0, 2.0))"),
        texel(1, 3)
    );
    // Offsets are texels either way.
    assert_eq!(
        sample(
            "sampler2DRect",
            "textureOffset(t, vec2(2.5, 1.5), ivec2(2, 1))"
        ),
        texel(4, 2)
    );
    // textureGrad's gradients are texels too: one texel per pixel keeps level 0 and nearest.
    assert_eq!(
        sample(
            "sampler2DRect",
            "textureGrad(t, vec2(5.5, 0.5), vec2(1.0, 0.0), vec2(0.0, 1.0))"
        ),
        texel(5, 0)
    );
    // textureSize is the size in texels, with no level argument.
    assert_eq!(
        sample(
            "sampler2DRect",
            "vec4(vec2(textureSize(t)) / 255.0, 0.0, 1.0)"
        ),
        [7, 5, 0, 255]
    );
    // Linear filtering halfway between two texels in x averages them.
    param(GL_TEXTURE_RECTANGLE, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    param(GL_TEXTURE_RECTANGLE, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    let mid = sample("sampler2DRect", "texture(t, vec2(3.0, 2.5))");
    let (a, b) = (texel(2, 2), texel(3, 2));
    for c in 0..4 {
        let want = (u16::from(a[c]) + u16::from(b[c])) / 2;
        assert!(
            (i32::from(mid[c]) - i32::from(want as u8)).abs() <= 1,
            "linear mid {mid:?} vs {a:?}/{b:?}"
        );
    }
}

#[test]
fn integer_rectangle_textures_and_legacy_names_sample_exactly() {
    let _ctx = context();
    let (w, h) = (3usize, 6usize);
    texture(GL_TEXTURE_RECTANGLE);
    param(GL_TEXTURE_RECTANGLE, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    param(GL_TEXTURE_RECTANGLE, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    rect_image(
        w as i32,
        h as i32,
        GL_RGBA8UI,
        GL_RGBA_INTEGER,
        &texels(w, h),
    );
    assert_eq!(error(), GL_NO_ERROR);
    let want = texel(2, 4);
    assert_eq!(
        sample("usampler2DRect", "vec4(texelFetch(t, ivec2(2, 4))) / 255.0"),
        want
    );
    assert_eq!(
        sample("usampler2DRect", "vec4(texture(t, vec2(2.5, 4.5))) / 255.0"),
        want
    );
    // The same texels, normalized, through the GLSL 1.20 names (ARB_texture_rectangle).
    texture(GL_TEXTURE_RECTANGLE);
    param(GL_TEXTURE_RECTANGLE, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    param(GL_TEXTURE_RECTANGLE, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    rect_image(w as i32, h as i32, GL_RGBA8, GL_RGBA, &texels(w, h));
    let fs = "#version 120\n#extension GL_ARB_texture_rectangle : require\nuniform sampler2DRect t;\nvoid main() { gl_FragColor = texture2DRect(t, vec2(2.5, 4.5)) + texture2DRectProj(t, vec3(1.0, 2.0, 2.0)) * 0.0; }\n";
    draw_with(VS, fs);
    assert_eq!(read_pixel(16, 16), want);
}

#[test]
fn rectangle_depth_textures_compare_through_shadow_samplers() {
    let _ctx = context();
    let gen_fbs = gl!(c"glGenFramebuffers": fn(i32, *mut u32));
    let bind_fb = gl!(c"glBindFramebuffer": fn(u32, u32));
    let attach = gl!(c"glFramebufferTexture2D": fn(u32, u32, u32, u32, i32));
    let status = gl!(c"glCheckFramebufferStatus": fn(u32) -> u32);
    let clear_depth = gl!(c"glClearDepth": fn(f64));
    let clear = gl!(c"glClear": fn(u32));
    let draw_buffer = gl!(c"glDrawBuffer": fn(u32));
    let read_buffer = gl!(c"glReadBuffer": fn(u32));
    let image = gl!(c"glTexImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let depth = texture(GL_TEXTURE_RECTANGLE);
    let mut fb = 0;
    // SAFETY: NULL data allocates; out-pointer to a local.
    unsafe {
        image(
            GL_TEXTURE_RECTANGLE,
            0,
            GL_DEPTH_COMPONENT24 as i32,
            9,
            4,
            0,
            GL_DEPTH_COMPONENT,
            GL_FLOAT,
            null(),
        );
        assert_eq!(error(), GL_NO_ERROR);
        // Fill it with depth 0.5 by clearing it as a depth-only framebuffer's attachment.
        gen_fbs(1, &mut fb);
        bind_fb(GL_FRAMEBUFFER, fb);
        attach(
            GL_FRAMEBUFFER,
            GL_DEPTH_ATTACHMENT,
            GL_TEXTURE_RECTANGLE,
            depth,
            0,
        );
        draw_buffer(0);
        read_buffer(0);
        assert_eq!(status(GL_FRAMEBUFFER), GL_FRAMEBUFFER_COMPLETE);
        clear_depth(0.5);
        clear(GL_DEPTH_BUFFER_BIT);
        bind_fb(GL_FRAMEBUFFER, 0);
    }
    assert_eq!(error(), GL_NO_ERROR);
    param(
        GL_TEXTURE_RECTANGLE,
        GL_TEXTURE_COMPARE_MODE,
        GL_COMPARE_REF_TO_TEXTURE,
    );
    // GL_LEQUAL (the default): 1 where the reference is at most the stored 0.5.
    let white = [255, 255, 255, 255];
    let black = [0, 0, 0, 255];
    let shadow = |expr: &str| sample("sampler2DRectShadow", &format!("vec4(vec3({expr}), 1.0)"));
    assert_eq!(shadow("texture(t, vec3(8.5, 3.5, 0.25))"), white);
    assert_eq!(shadow("texture(t, vec3(8.5, 3.5, 0.75))"), black);
    assert_eq!(shadow("textureProj(t, vec4(17.0, 7.0, 0.5, 2.0))"), white);
    assert_eq!(shadow("textureProj(t, vec4(17.0, 7.0, 1.5, 2.0))"), black);
    // The GLSL 1.40 legacy name the piglit test uses.
    let fs = "#version 140\nuniform sampler2DRectShadow t;\nout vec4 c;\nvoid main() { c = vec4(shadow2DRect(t, vec3(4.5, 1.5, 0.25)).xxx, 1.0); }\n";
    assert_eq!(draw_and_read(fs), white);
}

#[test]
fn rectangle_textures_render_and_blit_both_ways() {
    let _ctx = context();
    let gen_fbs = gl!(c"glGenFramebuffers": fn(i32, *mut u32));
    let bind_fb = gl!(c"glBindFramebuffer": fn(u32, u32));
    let attach = gl!(c"glFramebufferTexture2D": fn(u32, u32, u32, u32, i32));
    let status = gl!(c"glCheckFramebufferStatus": fn(u32) -> u32);
    let blit = gl!(c"glBlitFramebuffer": fn(i32, i32, i32, i32, i32, i32, i32, i32, u32, u32));
    let clear_color = gl!(c"glClearColor": fn(f32, f32, f32, f32));
    let clear = gl!(c"glClear": fn(u32));
    let viewport = gl!(c"glViewport": fn(i32, i32, i32, i32));
    let rect = texture(GL_TEXTURE_RECTANGLE);
    rect_image(20, 12, GL_RGBA8, GL_RGBA, &texels(20, 12));
    let mut fbs = [0u32; 2];
    // SAFETY: out-pointer to a local array of two.
    unsafe {
        gen_fbs(2, fbs.as_mut_ptr());
        bind_fb(GL_FRAMEBUFFER, fbs[0]);
        attach(
            GL_FRAMEBUFFER,
            GL_COLOR_ATTACHMENT0,
            GL_TEXTURE_RECTANGLE,
            rect,
            0,
        );
        assert_eq!(status(GL_FRAMEBUFFER), GL_FRAMEBUFFER_COMPLETE);
        // Render into the rectangle texture: a constant colour over its whole 20×12.
        viewport(0, 0, 20, 12);
    }
    draw_with(
        VS,
        "#version 330 core\nout vec4 c;\nvoid main() { c = vec4(0.2, 0.4, 0.6, 1.0); }\n",
    );
    assert_eq!(read_pixel(19, 11), [51, 102, 153, 255]);
    // SAFETY: plain values.
    unsafe {
        // Blit a 4×4 corner of the rectangle texture to the window's (0,0)..(8,8), scaled.
        clear_color(1.0, 0.0, 0.0, 1.0);
        bind_fb(GL_DRAW_FRAMEBUFFER, 0);
        viewport(0, 0, 32, 32);
        clear(GL_COLOR_BUFFER_BIT);
        bind_fb(GL_READ_FRAMEBUFFER, fbs[0]);
        blit(
            0,
            0,
            4,
            4,
            0,
            0,
            8,
            8,
            GL_COLOR_BUFFER_BIT,
            GL_NEAREST as u32,
        );
        assert_eq!(error(), GL_NO_ERROR);
        bind_fb(GL_READ_FRAMEBUFFER, 0);
    }
    assert_eq!(read_pixel(7, 7), [51, 102, 153, 255]);
    assert_eq!(read_pixel(9, 9), [255, 0, 0, 255]);
    // And back: the window's red into the rectangle texture's top-right corner.
    // SAFETY: plain values.
    unsafe {
        bind_fb(GL_READ_FRAMEBUFFER, 0);
        bind_fb(GL_DRAW_FRAMEBUFFER, fbs[0]);
        blit(
            20,
            20,
            24,
            24,
            16,
            8,
            20,
            12,
            GL_COLOR_BUFFER_BIT,
            GL_NEAREST as u32,
        );
        assert_eq!(error(), GL_NO_ERROR);
        bind_fb(GL_FRAMEBUFFER, fbs[0]);
    }
    assert_eq!(read_pixel(17, 9), [255, 0, 0, 255]);
    assert_eq!(read_pixel(15, 9), [51, 102, 153, 255]);
    // The texture sampled afterwards sees what was rendered and blitted.
    // SAFETY: plain values.
    unsafe {
        bind_fb(GL_FRAMEBUFFER, 0);
    }
    param(GL_TEXTURE_RECTANGLE, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    param(GL_TEXTURE_RECTANGLE, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    assert_eq!(
        sample("sampler2DRect", "texelFetch(t, ivec2(19, 11))"),
        [255, 0, 0, 255]
    );
    assert_eq!(
        sample("sampler2DRect", "texture(t, vec2(0.5))"),
        [51, 102, 153, 255]
    );
}

#[test]
fn rectangle_errors_and_state_follow_the_specification() {
    let _ctx = context();
    let image = gl!(c"glTexImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let storage = gl!(c"glTexStorage2D": fn(u32, i32, u32, i32, i32));
    let mipmap = gl!(c"glGenerateMipmap": fn(u32));
    let get_string_i = gl!(c"glGetStringi": fn(u32, u32) -> *const u8);
    let t = texture(GL_TEXTURE_RECTANGLE);
    assert_eq!(get_int(GL_TEXTURE_BINDING_RECTANGLE), t as i32);
    assert!(get_int(GL_MAX_RECTANGLE_TEXTURE_SIZE) >= 1024);
    // The initial state has no mipmaps and no repeat.
    assert_eq!(
        get_param(GL_TEXTURE_RECTANGLE, GL_TEXTURE_MIN_FILTER),
        GL_LINEAR
    );
    assert_eq!(
        get_param(GL_TEXTURE_RECTANGLE, GL_TEXTURE_WRAP_S),
        GL_CLAMP_TO_EDGE
    );
    assert_eq!(
        get_param(GL_TEXTURE_RECTANGLE, GL_TEXTURE_WRAP_T),
        GL_CLAMP_TO_EDGE
    );
    expect(GL_NO_ERROR);
    // GL 4.6 §8.10: mipmap filters and repeating wraps are INVALID_ENUM, a base level other
    // than 0 INVALID_OPERATION; the state is unchanged.
    param(
        GL_TEXTURE_RECTANGLE,
        GL_TEXTURE_MIN_FILTER,
        GL_LINEAR_MIPMAP_LINEAR,
    );
    expect(GL_INVALID_ENUM);
    param(GL_TEXTURE_RECTANGLE, GL_TEXTURE_WRAP_S, GL_REPEAT);
    expect(GL_INVALID_ENUM);
    param(GL_TEXTURE_RECTANGLE, GL_TEXTURE_WRAP_T, GL_MIRRORED_REPEAT);
    expect(GL_INVALID_ENUM);
    param(GL_TEXTURE_RECTANGLE, GL_TEXTURE_BASE_LEVEL, 1);
    expect(GL_INVALID_OPERATION);
    param(GL_TEXTURE_RECTANGLE, GL_TEXTURE_BASE_LEVEL, 0);
    expect(GL_NO_ERROR);
    assert_eq!(
        get_param(GL_TEXTURE_RECTANGLE, GL_TEXTURE_MIN_FILTER),
        GL_LINEAR
    );
    assert_eq!(
        get_param(GL_TEXTURE_RECTANGLE, GL_TEXTURE_WRAP_S),
        GL_CLAMP_TO_EDGE
    );
    // A 2D texture still takes them.
    texture(GL_TEXTURE_2D);
    param(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_REPEAT);
    param(
        GL_TEXTURE_2D,
        GL_TEXTURE_MIN_FILTER,
        GL_LINEAR_MIPMAP_LINEAR,
    );
    expect(GL_NO_ERROR);
    texture(GL_TEXTURE_RECTANGLE);
    // SAFETY: NULL data allocates only.
    unsafe {
        // One level only: level 1 is INVALID_VALUE, two storage levels INVALID_OPERATION.
        image(
            GL_TEXTURE_RECTANGLE,
            1,
            GL_RGBA8 as i32,
            4,
            4,
            0,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            null(),
        );
        expect(GL_INVALID_VALUE);
        storage(GL_TEXTURE_RECTANGLE, 2, GL_RGBA8, 4, 4);
        expect(GL_INVALID_OPERATION);
        storage(GL_TEXTURE_RECTANGLE, 1, GL_RGBA8, 4, 4);
        expect(GL_NO_ERROR);
        // No mipmaps to generate.
        mipmap(GL_TEXTURE_RECTANGLE);
        expect(GL_INVALID_ENUM);
        // Advertised.
        let n = get_int(GL_NUM_EXTENSIONS);
        let found = (0..n as u32).any(|i| {
            let s = get_string_i(GL_EXTENSIONS, i);
            !s.is_null()
                && std::ffi::CStr::from_ptr(s.cast()).to_bytes() == b"GL_ARB_texture_rectangle"
        });
        assert!(found, "GL_ARB_texture_rectangle is advertised");
    }
}

#[test]
fn depth_texels_upload_from_floats_and_shorts() {
    let _ctx = context();
    let image = gl!(c"glTexImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let sub = gl!(c"glTexSubImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    texture(GL_TEXTURE_RECTANGLE);
    param(GL_TEXTURE_RECTANGLE, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    param(GL_TEXTURE_RECTANGLE, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    param(
        GL_TEXTURE_RECTANGLE,
        GL_TEXTURE_COMPARE_MODE,
        GL_COMPARE_REF_TO_TEXTURE,
    );
    let depths: Vec<u8> = [0.1f32, 0.3, 0.6, 0.9]
        .iter()
        .flat_map(|d| d.to_ne_bytes())
        .collect();
    // SAFETY: four floats; then one unsigned short.
    unsafe {
        image(
            GL_TEXTURE_RECTANGLE,
            0,
            GL_DEPTH_COMPONENT24 as i32,
            4,
            1,
            0,
            GL_DEPTH_COMPONENT,
            GL_FLOAT,
            depths.as_ptr().cast(),
        );
        assert_eq!(error(), GL_NO_ERROR);
    }
    // GL_LEQUAL: 1 where the reference 0.5 is at most the stored depth.
    let at = |x: u32| {
        sample(
            "sampler2DRectShadow",
            &format!("vec4(vec3(texture(t, vec3({x}.5, 0.5, 0.5))), 1.0)"),
        )[0]
    };
    assert_eq!([at(0), at(1), at(2), at(3)], [0, 0, 255, 255]);
    // GL_UNSIGNED_SHORT 65535 is depth 1 (sub-image of texel 1 only).
    let one = 65535u16.to_ne_bytes();
    // SAFETY: one unsigned short.
    unsafe {
        sub(
            GL_TEXTURE_RECTANGLE,
            0,
            1,
            0,
            1,
            1,
            GL_DEPTH_COMPONENT,
            0x1403, // GL_UNSIGNED_SHORT
            one.as_ptr().cast(),
        );
        assert_eq!(error(), GL_NO_ERROR);
    }
    assert_eq!([at(0), at(1), at(2), at(3)], [0, 255, 255, 255]);
    // Colour pixels into a depth texture are GL_INVALID_OPERATION.
    // SAFETY: four bytes.
    unsafe {
        sub(
            GL_TEXTURE_RECTANGLE,
            0,
            0,
            0,
            1,
            1,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            one.repeat(2).as_ptr().cast(),
        );
    }
    expect(GL_INVALID_OPERATION);
}

const GL_TEXTURE_2D_MULTISAMPLE: u32 = 0x9100;
const GL_TEXTURE_BINDING_2D_MULTISAMPLE: u32 = 0x9104;
const GL_TEXTURE_SAMPLES: u32 = 0x9106;
const GL_TEXTURE_FIXED_SAMPLE_LOCATIONS: u32 = 0x9107;
const GL_MAX_COLOR_TEXTURE_SAMPLES: u32 = 0x910E;
const GL_SAMPLE_POSITION: u32 = 0x8E50;
const GL_LUMINANCE8: u32 = 0x8040;

fn tex_image_ms(target: u32, samples: i32, internal: u32, w: i32, h: i32, fixed: u8) {
    let f = gl!(c"glTexImage2DMultisample": fn(u32, i32, u32, i32, i32, u8));
    // SAFETY: plain values.
    unsafe { f(target, samples, internal, w, h, fixed) };
}

#[test]
fn multisample_texture_edge_samples_differ_and_resolve_to_their_average() {
    let _ctx = context();
    let gen_fbs = gl!(c"glGenFramebuffers": fn(i32, *mut u32));
    let bind_fb = gl!(c"glBindFramebuffer": fn(u32, u32));
    let attach = gl!(c"glFramebufferTexture2D": fn(u32, u32, u32, u32, i32));
    let status = gl!(c"glCheckFramebufferStatus": fn(u32) -> u32);
    let blit = gl!(c"glBlitFramebuffer": fn(i32, i32, i32, i32, i32, i32, i32, i32, u32, u32));
    let clear_color = gl!(c"glClearColor": fn(f32, f32, f32, f32));
    let clear = gl!(c"glClear": fn(u32));
    let level_param = gl!(c"glGetTexLevelParameteriv": fn(u32, i32, u32, *mut i32));
    let sample_pos = gl!(c"glGetMultisamplefv": fn(u32, u32, *mut f32));
    let ms = texture(GL_TEXTURE_2D_MULTISAMPLE);
    tex_image_ms(GL_TEXTURE_2D_MULTISAMPLE, 4, GL_RGBA8, 32, 32, 1);
    assert_eq!(error(), GL_NO_ERROR);
    assert_eq!(get_int(GL_TEXTURE_BINDING_2D_MULTISAMPLE), ms as i32);
    let mut fb = 0;
    let mut v = [0i32; 2];
    let mut pos = [0f32; 2];
    // SAFETY: out-pointers to locals.
    unsafe {
        level_param(GL_TEXTURE_2D_MULTISAMPLE, 0, GL_TEXTURE_SAMPLES, &mut v[0]);
        level_param(
            GL_TEXTURE_2D_MULTISAMPLE,
            0,
            GL_TEXTURE_FIXED_SAMPLE_LOCATIONS,
            &mut v[1],
        );
        assert_eq!(v, [4, 1]);
        gen_fbs(1, &mut fb);
        bind_fb(GL_FRAMEBUFFER, fb);
        attach(
            GL_FRAMEBUFFER,
            GL_COLOR_ATTACHMENT0,
            GL_TEXTURE_2D_MULTISAMPLE,
            ms,
            0,
        );
        assert_eq!(status(GL_FRAMEBUFFER), GL_FRAMEBUFFER_COMPLETE);
        sample_pos(GL_SAMPLE_POSITION, 0, pos.as_mut_ptr());
        assert_eq!(pos, [0.375, 0.125]);
        sample_pos(GL_SAMPLE_POSITION, 4, pos.as_mut_ptr());
        expect(GL_INVALID_VALUE);
        clear_color(0.0, 0.0, 0.0, 1.0);
        clear(GL_COLOR_BUFFER_BIT);
    }
    // White below the diagonal x + y = 32 (window coordinates): pixels with x + y = 31 are
    // cut in half, and two of the four standard sample positions lie on the white side.
    let vs_tri = "#version 330 core\nvoid main() {\n  vec2 p[3] = vec2[3](vec2(-1.0, -1.0), vec2(1.0, -1.0), vec2(-1.0, 1.0));\n  gl_Position = vec4(p[gl_VertexID], 0.0, 1.0);\n}\n";
    draw_with(
        vs_tri,
        "#version 330 core\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n",
    );
    // SAFETY: plain values.
    unsafe { bind_fb(GL_FRAMEBUFFER, 0) };
    // Each sample of the texel the fragment sits on, one per channel.
    let fetch = "#version 330 core\nuniform sampler2DMS t;\nout vec4 c;\nvoid main() {\n  ivec2 p = ivec2(gl_FragCoord.xy);\n  c = vec4(texelFetch(t, p, 0).r, texelFetch(t, p, 1).r, texelFetch(t, p, 2).r, texelFetch(t, p, 3).r);\n}\n";
    draw_with(VS, fetch);
    let edge = read_pixel(15, 16);
    let lit = edge.iter().filter(|&&c| c == 255).count();
    let dark = edge.iter().filter(|&&c| c == 0).count();
    assert_eq!((lit, dark), (2, 2), "edge samples {edge:?}");
    assert_eq!(read_pixel(4, 4), [255; 4], "inside");
    assert_eq!(read_pixel(28, 28), [0; 4], "outside");
    assert_eq!(
        sample(
            "sampler2DMS",
            "vec4(vec2(textureSize(t)) / 255.0, 0.0, 1.0)"
        ),
        [32, 32, 0, 255]
    );
    // Resolve by blit: the edge pixel is the average of its samples.
    // SAFETY: plain values.
    unsafe {
        bind_fb(GL_READ_FRAMEBUFFER, fb);
        bind_fb(GL_DRAW_FRAMEBUFFER, 0);
        blit(
            0,
            0,
            32,
            32,
            0,
            0,
            32,
            32,
            GL_COLOR_BUFFER_BIT,
            GL_NEAREST as u32,
        );
        assert_eq!(error(), GL_NO_ERROR);
        bind_fb(GL_FRAMEBUFFER, 0);
    }
    let resolved = read_pixel(15, 16);
    assert!(
        (i32::from(resolved[0]) - 128).abs() <= 1,
        "resolved edge {resolved:?}"
    );
    assert_eq!(read_pixel(4, 4)[0], 255);
}

#[test]
fn multisample_texture_errors_follow_the_specification() {
    let _ctx = context();
    let storage = gl!(c"glTexStorage2DMultisample": fn(u32, i32, u32, i32, i32, u8));
    let image = gl!(c"glTexImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let max = get_int(GL_MAX_COLOR_TEXTURE_SAMPLES);
    assert!(max >= 4, "GL_MAX_COLOR_TEXTURE_SAMPLES {max}");
    texture(GL_TEXTURE_2D_MULTISAMPLE);
    tex_image_ms(GL_TEXTURE_2D, 4, GL_RGBA8, 8, 8, 1);
    expect(GL_INVALID_ENUM);
    tex_image_ms(GL_TEXTURE_2D_MULTISAMPLE, 0, GL_RGBA8, 8, 8, 1);
    expect(GL_INVALID_VALUE);
    tex_image_ms(GL_TEXTURE_2D_MULTISAMPLE, max + 1, GL_RGBA8, 8, 8, 1);
    expect(GL_INVALID_OPERATION);
    tex_image_ms(GL_TEXTURE_2D_MULTISAMPLE, 4, GL_LUMINANCE8, 8, 8, 1);
    expect(GL_INVALID_ENUM);
    tex_image_ms(GL_TEXTURE_2D_MULTISAMPLE, 4, GL_RGBA8, -1, 8, 1);
    expect(GL_INVALID_VALUE);
    // SAFETY: NULL data.
    unsafe {
        image(
            GL_TEXTURE_2D_MULTISAMPLE,
            0,
            GL_RGBA8 as i32,
            8,
            8,
            0,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            null(),
        );
    }
    expect(GL_INVALID_ENUM);
    // No sampler state; one level.
    param(GL_TEXTURE_2D_MULTISAMPLE, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    expect(GL_INVALID_ENUM);
    param(GL_TEXTURE_2D_MULTISAMPLE, GL_TEXTURE_BASE_LEVEL, 1);
    expect(GL_INVALID_OPERATION);
    // SAFETY: plain values.
    unsafe {
        storage(GL_TEXTURE_2D_MULTISAMPLE, 4, GL_RGBA8, 8, 8, 0);
        expect(GL_NO_ERROR);
        storage(GL_TEXTURE_2D_MULTISAMPLE, 4, GL_RGBA8, 8, 8, 0);
        expect(GL_INVALID_OPERATION);
    }
    tex_image_ms(GL_TEXTURE_2D_MULTISAMPLE, 4, GL_RGBA8, 8, 8, 1);
    expect(GL_INVALID_OPERATION);
    // Completeness (GL 4.6 §9.4.2): a texture without fixed sample locations beside a
    // renderbuffer of the same count is GL_FRAMEBUFFER_INCOMPLETE_MULTISAMPLE.
    let gen_fbs = gl!(c"glGenFramebuffers": fn(i32, *mut u32));
    let bind_fb = gl!(c"glBindFramebuffer": fn(u32, u32));
    let attach = gl!(c"glFramebufferTexture2D": fn(u32, u32, u32, u32, i32));
    let status = gl!(c"glCheckFramebufferStatus": fn(u32) -> u32);
    let gen_rbs = gl!(c"glGenRenderbuffers": fn(i32, *mut u32));
    let bind_rb = gl!(c"glBindRenderbuffer": fn(u32, u32));
    let rb_storage = gl!(c"glRenderbufferStorageMultisample": fn(u32, i32, u32, i32, i32));
    let attach_rb = gl!(c"glFramebufferRenderbuffer": fn(u32, u32, u32, u32));
    let variable = texture(GL_TEXTURE_2D_MULTISAMPLE);
    tex_image_ms(GL_TEXTURE_2D_MULTISAMPLE, 4, GL_RGBA8, 8, 8, 0);
    let (mut fb, mut rb) = (0, 0);
    // SAFETY: out-pointers to locals.
    unsafe {
        gen_fbs(1, &mut fb);
        bind_fb(GL_FRAMEBUFFER, fb);
        attach(
            GL_FRAMEBUFFER,
            GL_COLOR_ATTACHMENT0,
            GL_TEXTURE_2D_MULTISAMPLE,
            variable,
            0,
        );
        assert_eq!(status(GL_FRAMEBUFFER), GL_FRAMEBUFFER_COMPLETE);
        gen_rbs(1, &mut rb);
        bind_rb(0x8D41, rb); // GL_RENDERBUFFER
        rb_storage(0x8D41, 4, GL_RGBA8, 8, 8);
        attach_rb(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0 + 1, 0x8D41, rb);
        assert_eq!(status(GL_FRAMEBUFFER), 0x8D56); // GL_FRAMEBUFFER_INCOMPLETE_MULTISAMPLE
        bind_fb(GL_FRAMEBUFFER, 0);
    }
    expect(GL_NO_ERROR);
}

#[test]
fn proxy_multisample_targets_answer_whether_a_texture_would_fit() {
    const GL_PROXY_TEXTURE_2D_MULTISAMPLE: u32 = 0x9101;
    const GL_PROXY_TEXTURE_2D_MULTISAMPLE_ARRAY: u32 = 0x9103;
    const GL_TEXTURE_WIDTH: u32 = 0x1000;
    const GL_TEXTURE_HEIGHT: u32 = 0x1001;
    const GL_TEXTURE_DEPTH: u32 = 0x8071;
    const GL_TEXTURE_INTERNAL_FORMAT: u32 = 0x1003;
    const GL_RGB: u32 = 0x1907;
    let _ctx = context();
    let image_3d = gl!(c"glTexImage3DMultisample": fn(u32, i32, u32, i32, i32, i32, u8));
    let level = gl!(c"glGetTexLevelParameteriv": fn(u32, i32, u32, *mut i32));
    let query = |target, pname| {
        let mut v = -1;
        // SAFETY: out-pointer to a local.
        unsafe { level(target, 0, pname, &mut v) };
        v
    };
    let max = get_int(GL_MAX_COLOR_TEXTURE_SAMPLES);
    let bound = texture(GL_TEXTURE_2D_MULTISAMPLE);
    // The piglit case: a proxy makes nothing and raises nothing.
    tex_image_ms(GL_PROXY_TEXTURE_2D_MULTISAMPLE, 4, GL_RGB, 1024, 1024, 0);
    expect(GL_NO_ERROR);
    let p = GL_PROXY_TEXTURE_2D_MULTISAMPLE;
    assert_eq!(query(p, GL_TEXTURE_WIDTH), 1024);
    assert_eq!(query(p, GL_TEXTURE_HEIGHT), 1024);
    assert_eq!(query(p, GL_TEXTURE_INTERNAL_FORMAT), GL_RGB as i32);
    assert_eq!(query(p, GL_TEXTURE_SAMPLES), 4);
    assert_eq!(query(p, GL_TEXTURE_FIXED_SAMPLE_LOCATIONS), 0);
    // The bound texture is untouched.
    assert_eq!(query(GL_TEXTURE_2D_MULTISAMPLE, GL_TEXTURE_WIDTH), 0);
    assert_ne!(bound, 0);
    // Too many samples or too large: the proxy's state is zeroed, with no error.
    tex_image_ms(p, max + 1, GL_RGBA8, 8, 8, 1);
    expect(GL_NO_ERROR);
    assert_eq!(query(p, GL_TEXTURE_WIDTH), 0);
    assert_eq!(query(p, GL_TEXTURE_SAMPLES), 0);
    tex_image_ms(p, 4, GL_RGBA8, 8, 8, 1);
    assert_eq!(query(p, GL_TEXTURE_WIDTH), 8);
    tex_image_ms(p, 4, GL_RGBA8, 1 << 30, 8, 1);
    expect(GL_NO_ERROR);
    assert_eq!(query(p, GL_TEXTURE_WIDTH), 0);
    // Errors that are not about fitting stay errors: format, samples < 1, negative sizes.
    tex_image_ms(p, 4, GL_LUMINANCE8, 8, 8, 1);
    expect(GL_INVALID_ENUM);
    tex_image_ms(p, 0, GL_RGBA8, 8, 8, 1);
    expect(GL_INVALID_VALUE);
    tex_image_ms(p, 4, GL_RGBA8, -1, 8, 1);
    expect(GL_INVALID_VALUE);
    // The array proxy takes the 3D form only.
    let pa = GL_PROXY_TEXTURE_2D_MULTISAMPLE_ARRAY;
    tex_image_ms(pa, 4, GL_RGBA8, 8, 8, 1);
    expect(GL_INVALID_ENUM);
    // SAFETY: plain values.
    unsafe { image_3d(pa, 4, GL_RGBA8, 8, 8, 3, 1) };
    expect(GL_NO_ERROR);
    assert_eq!(query(pa, GL_TEXTURE_DEPTH), 3);
    assert_eq!(query(pa, GL_TEXTURE_FIXED_SAMPLE_LOCATIONS), 1);
    // Level parameters of a proxy exist for level 0 only.
    let mut v = 0;
    // SAFETY: out-pointer to a local.
    unsafe { level(p, 1, GL_TEXTURE_WIDTH, &mut v) };
    expect(GL_INVALID_VALUE);
}
