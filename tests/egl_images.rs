//! EGL images through the C ABI (`EGL_KHR_image_base`, `EGL_KHR_gl_texture_2D_image`,
//! `GL_OES_EGL_image`): a texture rendered in context A is sampled in context B, which shares
//! nothing with A, through `glEGLImageTargetTexture2DOES`; the image outlives A's texture and
//! its own destruction while B's texture uses it; and `eglCreateImage`/`eglDestroyImage`
//! answer the errors the EGL specs name. Renderbuffers and cube-map faces are images too
//! (`EGL_KHR_gl_renderbuffer_image`, `EGL_KHR_gl_texture_cubemap_image`), and an image becomes a
//! renderbuffer's storage (`glEGLImageTargetRenderbufferStorageOES`). The validation layer
//! must stay silent.

use std::ptr::{null, null_mut};
use std::sync::Mutex;

#[macro_use]
#[path = "common/gl.rs"]
mod gl_harness;

use gl_harness::{error, f, validation_errors, P};

const GL_TEXTURE_2D: u32 = 0x0DE1;
const GL_RGBA8: u32 = 0x8058;
const GL_FRAMEBUFFER: u32 = 0x8D40;
const GL_COLOR_ATTACHMENT0: u32 = 0x8CE0;
const GL_COLOR_BUFFER_BIT: u32 = 0x4000;
const GL_TEXTURE_MIN_FILTER: u32 = 0x2801;
const GL_NEAREST: i32 = 0x2600;
const GL_TRIANGLES: u32 = 4;
const GL_INVALID_ENUM: u32 = 0x0500;
const GL_INVALID_VALUE: u32 = 0x0501;
const EGL_GL_TEXTURE_2D: u32 = 0x30B1;
const EGL_GL_TEXTURE_LEVEL: i32 = 0x30BC;
const EGL_NONE: i32 = 0x3038;
const EGL_SUCCESS: i32 = 0x3000;
const EGL_BAD_ACCESS: i32 = 0x3002;
const EGL_BAD_CONTEXT: i32 = 0x3006;
const EGL_BAD_MATCH: i32 = 0x3009;
const EGL_BAD_PARAMETER: i32 = 0x300C;

static SERIAL: Mutex<()> = Mutex::new(());

struct Egl {
    dpy: P,
    cfg: P,
}

impl Egl {
    fn new() -> Self {
        let get_display = gl!(c"eglGetPlatformDisplayEXT": fn(u32, P, *const i32) -> P);
        let initialize = gl!(c"eglInitialize": fn(P, *mut i32, *mut i32) -> u32);
        let choose = gl!(c"eglChooseConfig": fn(P, *const i32, *mut P, i32, *mut i32) -> u32);
        let bind_api = gl!(c"eglBindAPI": fn(u32) -> u32);
        // SAFETY: EGL_NONE-terminated lists, out-pointers to locals.
        unsafe {
            let dpy = get_display(0x31DD, null_mut(), null());
            assert_eq!(initialize(dpy, null_mut(), null_mut()), 1);
            let attribs = [0x3033, 0x0001, 0x3040, 0x0008, EGL_NONE];
            let (mut cfg, mut n) = (null_mut(), 0);
            assert_eq!(choose(dpy, attribs.as_ptr(), &mut cfg, 1, &mut n), 1);
            assert_eq!(bind_api(0x30A2), 1);
            Self { dpy, cfg }
        }
    }

    /// A 3.3 core context sharing nothing, made current on a fresh 8×8 pbuffer.
    fn current_context(&self) -> P {
        let create = gl!(c"eglCreateContext": fn(P, P, P, *const i32) -> P);
        let pbuffer = gl!(c"eglCreatePbufferSurface": fn(P, P, *const i32) -> P);
        let make_current = gl!(c"eglMakeCurrent": fn(P, P, P, P) -> u32);
        let attribs = [0x3098, 3, 0x30FB, 3, 0x30FD, 1, EGL_NONE];
        let size = [0x3057, 8, 0x3056, 8, EGL_NONE];
        // SAFETY: live display/config, EGL_NONE-terminated lists.
        unsafe {
            let ctx = create(self.dpy, self.cfg, null_mut(), attribs.as_ptr());
            assert!(!ctx.is_null(), "eglCreateContext");
            let surface = pbuffer(self.dpy, self.cfg, size.as_ptr());
            assert_eq!(make_current(self.dpy, surface, surface, ctx), 1);
            ctx
        }
    }

    fn create_image(&self, ctx: P, texture: u32, attribs: &[i32]) -> P {
        self.create_image_of(ctx, EGL_GL_TEXTURE_2D, texture, attribs)
    }

    /// `eglCreateImageKHR` of `target` (`EGL_GL_*`) object `name`.
    fn create_image_of(&self, ctx: P, target: u32, name: u32, attribs: &[i32]) -> P {
        let create = gl!(c"eglCreateImageKHR": fn(P, P, u32, P, *const i32) -> P);
        // SAFETY: an EGL_NONE-terminated list; the object name travels as the buffer word.
        unsafe { create(self.dpy, ctx, target, name as usize as P, attribs.as_ptr()) }
    }

    fn destroy_image(&self, image: P) -> u32 {
        let destroy = gl!(c"eglDestroyImageKHR": fn(P, P) -> u32);
        // SAFETY: handles only.
        unsafe { destroy(self.dpy, image) }
    }
}

fn egl_error() -> i32 {
    let get = gl!(c"eglGetError": fn() -> i32);
    // SAFETY: no arguments.
    unsafe { get() }
}

/// A 4×4 RGBA8 texture (2 levels) whose level 0 was cleared to `color` through a framebuffer.
fn rendered_texture(color: [f32; 4]) -> u32 {
    let storage = gl!(c"glTexStorage2D": fn(u32, i32, u32, i32, i32));
    let gen_fbos = gl!(c"glGenFramebuffers": fn(i32, *mut u32));
    let bind_fbo = gl!(c"glBindFramebuffer": fn(u32, u32));
    let attach = gl!(c"glFramebufferTexture2D": fn(u32, u32, u32, u32, i32));
    let clear_color = gl!(c"glClearColor": fn(f32, f32, f32, f32));
    let clear = gl!(c"glClear": fn(u32));
    let tex = gl_harness::new_texture(GL_TEXTURE_2D);
    let mut fbo = 0;
    // SAFETY: plain values; out-pointer to a local.
    unsafe {
        storage(GL_TEXTURE_2D, 2, GL_RGBA8, 4, 4);
        gen_fbos(1, &mut fbo);
        bind_fbo(GL_FRAMEBUFFER, fbo);
        attach(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0);
        clear_color(color[0], color[1], color[2], color[3]);
        clear(GL_COLOR_BUFFER_BIT);
        bind_fbo(GL_FRAMEBUFFER, 0);
    }
    assert_eq!(error(), 0);
    tex
}

const VS: &str = "#version 330\nvoid main() {\n    vec2 p = vec2(gl_VertexID == 1 ? 3.0 : -1.0, gl_VertexID == 2 ? 3.0 : -1.0);\n    gl_Position = vec4(p, 0.0, 1.0);\n}\n";
const FS: &str = "#version 330\nuniform sampler2D tex;\nout vec4 frag;\nvoid main() { frag = texture(tex, vec2(0.5)); }\n";

/// Draws a full-screen triangle sampling the bound 2D texture; the pixel at (2, 2).
fn sample_bound_texture() -> [u8; 4] {
    let use_program = gl!(c"glUseProgram": fn(u32));
    let gen_vaos = gl!(c"glGenVertexArrays": fn(i32, *mut u32));
    let bind_vao = gl!(c"glBindVertexArray": fn(u32));
    let draw = gl!(c"glDrawArrays": fn(u32, i32, i32));
    let program = gl_harness::program(VS, FS);
    let mut vao = 0;
    // SAFETY: out-pointer to a local.
    unsafe {
        gen_vaos(1, &mut vao);
        bind_vao(vao);
        use_program(program);
        draw(GL_TRIANGLES, 0, 3);
    }
    assert_eq!(error(), 0);
    let px = gl_harness::read_rgba(2, 2, 1, 1);
    [px[0], px[1], px[2], px[3]]
}

#[test]
fn a_texture_rendered_in_one_context_is_sampled_in_an_unshared_other() {
    let _serial = SERIAL
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let egl = Egl::new();
    let target = gl!(c"glEGLImageTargetTexture2DOES": fn(u32, P));
    let param = gl!(c"glTexParameteri": fn(u32, u32, i32));
    let delete = gl!(c"glDeleteTextures": fn(i32, *const u32));
    let a = egl.current_context();
    let source = rendered_texture([0.0, 1.0, 0.0, 1.0]);
    let image = egl.create_image(a, source, &[EGL_GL_TEXTURE_LEVEL, 0, EGL_NONE]);
    assert!(!image.is_null(), "eglCreateImageKHR: {:#x}", egl_error());
    assert_eq!(egl_error(), EGL_SUCCESS);
    // SAFETY: the name array is a local.
    unsafe { delete(1, &source) };
    let _b = egl.current_context();
    gl_harness::new_texture(GL_TEXTURE_2D);
    // SAFETY: a live image; plain values.
    unsafe {
        target(GL_TEXTURE_2D, image);
        param(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    }
    assert_eq!(error(), 0);
    // The texture keeps the texels after the image itself is destroyed.
    assert_eq!(egl.destroy_image(image), 1);
    assert_eq!(
        sample_bound_texture(),
        [0, 255, 0, 255],
        "context B samples A's texels"
    );
    assert_eq!(validation_errors(), 0, "validation errors (see stderr)");
}

#[test]
fn image_errors_follow_the_egl_specs() {
    let _serial = SERIAL
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let egl = Egl::new();
    let target = gl!(c"glEGLImageTargetTexture2DOES": fn(u32, P));
    let ctx = egl.current_context();
    let tex = rendered_texture([1.0, 0.0, 0.0, 1.0]);
    let none = [EGL_NONE];
    let cases: [(&str, P, u32, Vec<i32>, i32); 5] = [
        ("texture 0", ctx, 0, none.to_vec(), EGL_BAD_PARAMETER),
        (
            "no such texture",
            ctx,
            4242,
            none.to_vec(),
            EGL_BAD_PARAMETER,
        ),
        (
            "level 5",
            ctx,
            tex,
            vec![EGL_GL_TEXTURE_LEVEL, 5, EGL_NONE],
            EGL_BAD_MATCH,
        ),
        (
            "unknown attribute",
            ctx,
            tex,
            vec![0x3099, 1, EGL_NONE],
            EGL_BAD_PARAMETER,
        ),
        (
            "no context",
            null_mut(),
            tex,
            none.to_vec(),
            EGL_BAD_CONTEXT,
        ),
    ];
    for (what, c, t, attribs, want) in cases {
        assert!(egl.create_image(c, t, &attribs).is_null(), "{what}");
        assert_eq!(egl_error(), want, "{what}");
    }
    assert_eq!(egl.destroy_image(0x1234 as P), 0);
    assert_eq!(egl_error(), EGL_BAD_PARAMETER);
    // SAFETY: the image values are never dereferenced by GL.
    unsafe { target(GL_TEXTURE_2D, 0x1234 as P) };
    assert_eq!(error(), GL_INVALID_VALUE);
    let image = egl.create_image(ctx, tex, &none);
    assert!(!image.is_null());
    assert!(egl.create_image(ctx, tex, &none).is_null(), "a sibling");
    assert_eq!(egl_error(), EGL_BAD_ACCESS);
    // SAFETY: as above.
    unsafe { target(0x806F, image) };
    assert_eq!(error(), GL_INVALID_ENUM);
    assert_eq!(egl.destroy_image(image), 1);
    assert_eq!(egl.destroy_image(image), 0, "destroyed twice");
    assert_eq!(validation_errors(), 0, "validation errors (see stderr)");
}

const GL_RENDERBUFFER: u32 = 0x8D41;
const GL_TEXTURE_CUBE_MAP: u32 = 0x8513;
const GL_TEXTURE_CUBE_MAP_NEGATIVE_Y: u32 = 0x8518;
const GL_INVALID_OPERATION: u32 = 0x0502;
const EGL_GL_TEXTURE_CUBE_MAP_NEGATIVE_Y: u32 = 0x30B6;
const EGL_GL_RENDERBUFFER: u32 = 0x30B9;

/// Binds a new framebuffer with `attach` as its colour attachment, clears it to `color`, and
/// unbinds it.
fn clear_through_framebuffer(attach: impl FnOnce(), color: [f32; 4]) {
    let gen_fbos = gl!(c"glGenFramebuffers": fn(i32, *mut u32));
    let bind_fbo = gl!(c"glBindFramebuffer": fn(u32, u32));
    let clear_color = gl!(c"glClearColor": fn(f32, f32, f32, f32));
    let clear = gl!(c"glClear": fn(u32));
    let mut fbo = 0;
    // SAFETY: out-pointer to a local; plain values.
    unsafe {
        gen_fbos(1, &mut fbo);
        bind_fbo(GL_FRAMEBUFFER, fbo);
        attach();
        clear_color(color[0], color[1], color[2], color[3]);
        clear(GL_COLOR_BUFFER_BIT);
        bind_fbo(GL_FRAMEBUFFER, 0);
    }
    assert_eq!(error(), 0);
}

/// A bound renderbuffer of `samples` samples, 4×4 RGBA8.
fn new_renderbuffer(samples: i32) -> u32 {
    let gen = gl!(c"glGenRenderbuffers": fn(i32, *mut u32));
    let bind = gl!(c"glBindRenderbuffer": fn(u32, u32));
    let storage = gl!(c"glRenderbufferStorageMultisample": fn(u32, i32, u32, i32, i32));
    let mut rb = 0;
    // SAFETY: out-pointer to a local; plain values.
    unsafe {
        gen(1, &mut rb);
        bind(GL_RENDERBUFFER, rb);
        storage(GL_RENDERBUFFER, samples, GL_RGBA8, 4, 4);
    }
    rb
}

/// Attaches renderbuffer `rb` as colour attachment 0 of the bound framebuffer.
fn attach_renderbuffer(rb: u32) {
    let attach = gl!(c"glFramebufferRenderbuffer": fn(u32, u32, u32, u32));
    // SAFETY: plain values.
    unsafe { attach(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb) };
}

/// A new 2D texture of context-current `image`, sampled at its centre.
fn sample_image(image: P) -> [u8; 4] {
    let target = gl!(c"glEGLImageTargetTexture2DOES": fn(u32, P));
    let param = gl!(c"glTexParameteri": fn(u32, u32, i32));
    gl_harness::new_texture(GL_TEXTURE_2D);
    // SAFETY: a live image; plain values.
    unsafe {
        target(GL_TEXTURE_2D, image);
        param(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    }
    assert_eq!(error(), 0);
    sample_bound_texture()
}

#[test]
fn renderbuffers_and_cube_faces_are_images_both_ways() {
    let _serial = SERIAL
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let egl = Egl::new();
    let storage = gl!(c"glTexStorage2D": fn(u32, i32, u32, i32, i32));
    let attach_tex = gl!(c"glFramebufferTexture2D": fn(u32, u32, u32, u32, i32));
    let rb_target = gl!(c"glEGLImageTargetRenderbufferStorageOES": fn(u32, P));
    let a = egl.current_context();
    let rb = new_renderbuffer(0);
    clear_through_framebuffer(|| attach_renderbuffer(rb), [0.0, 0.0, 1.0, 1.0]);
    let of_rb = egl.create_image_of(a, EGL_GL_RENDERBUFFER, rb, &[EGL_NONE]);
    assert!(!of_rb.is_null(), "renderbuffer image: {:#x}", egl_error());
    let cube = gl_harness::new_texture(GL_TEXTURE_CUBE_MAP);
    // SAFETY: plain values.
    unsafe { storage(GL_TEXTURE_CUBE_MAP, 1, GL_RGBA8, 4, 4) };
    let face = GL_TEXTURE_CUBE_MAP_NEGATIVE_Y;
    // SAFETY: plain values (the framebuffer is bound by the helper).
    let attach_face = || unsafe { attach_tex(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, face, cube, 0) };
    clear_through_framebuffer(attach_face, [1.0, 1.0, 0.0, 1.0]);
    let of_face = egl.create_image_of(a, EGL_GL_TEXTURE_CUBE_MAP_NEGATIVE_Y, cube, &[EGL_NONE]);
    assert!(!of_face.is_null(), "cube-face image: {:#x}", egl_error());

    let _b = egl.current_context();
    assert_eq!(sample_image(of_rb), [0, 0, 255, 255], "A's renderbuffer");
    assert_eq!(sample_image(of_face), [255, 255, 0, 255], "A's cube face");
    // B renders into the face through a renderbuffer of its own; a texture of it sees that.
    let rb_b = new_renderbuffer(0);
    // SAFETY: a live image.
    unsafe { rb_target(GL_RENDERBUFFER, of_face) };
    assert_eq!(error(), 0);
    clear_through_framebuffer(|| attach_renderbuffer(rb_b), [1.0, 0.0, 0.0, 1.0]);
    assert_eq!(
        sample_image(of_face),
        [255, 0, 0, 255],
        "B's renderbuffer wrote the face"
    );
    for image in [of_rb, of_face] {
        assert_eq!(egl.destroy_image(image), 1);
    }
    assert_eq!(validation_errors(), 0, "validation errors (see stderr)");
}

#[test]
fn renderbuffer_and_cube_image_errors() {
    let _serial = SERIAL
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let egl = Egl::new();
    let rb_target = gl!(c"glEGLImageTargetRenderbufferStorageOES": fn(u32, P));
    let bind = gl!(c"glBindRenderbuffer": fn(u32, u32));
    let ctx = egl.current_context();
    let multisampled = new_renderbuffer(4);
    let cases = [
        ("multisampled", EGL_GL_RENDERBUFFER, multisampled),
        ("no renderbuffer", EGL_GL_RENDERBUFFER, 4242),
        (
            "2D texture as a face",
            EGL_GL_TEXTURE_CUBE_MAP_NEGATIVE_Y,
            rendered_texture([1.0; 4]),
        ),
    ];
    for (what, target, name) in cases {
        assert!(
            egl.create_image_of(ctx, target, name, &[EGL_NONE])
                .is_null(),
            "{what}"
        );
        assert_eq!(egl_error(), EGL_BAD_PARAMETER, "{what}");
    }
    let image = egl.create_image(ctx, rendered_texture([1.0; 4]), &[EGL_NONE]);
    assert!(!image.is_null());
    // SAFETY: a live image and a value that is none; plain values.
    unsafe {
        rb_target(GL_TEXTURE_2D, image);
        assert_eq!(error(), GL_INVALID_ENUM);
        rb_target(GL_RENDERBUFFER, 0x4321 as P);
        assert_eq!(error(), GL_INVALID_VALUE);
        bind(GL_RENDERBUFFER, 0);
        rb_target(GL_RENDERBUFFER, image);
        assert_eq!(error(), GL_INVALID_OPERATION);
    }
    assert_eq!(egl.destroy_image(image), 1);
    assert_eq!(validation_errors(), 0, "validation errors (see stderr)");
}
