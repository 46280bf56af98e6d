//! glxgears' frame, repeated: three gears compiled into display lists (flat- and smooth-shaded
//! quad strips and quads with `glNormal3f`, a material per gear), drawn under fixed-function
//! lighting with depth test, culling and `GL_NORMALIZE`, rotated a little more every frame. After
//! the first frame a steady scene must create no new Vulkan pipeline and no new shader module
//! (lavapipe compiles every new pipeline with LLVM), and no shader module may branch on uniform
//! values alone: lavapipe recompiles such a shader on every draw that rebinds its uniforms,
//! which made glxgears run at 1–3 FPS (#20).
//! The pixels are checked too (gears drawn, lit, depth-tested), and the validation layer must
//! stay silent.

use std::f32::consts::PI;
use std::ptr::{null, null_mut};

#[macro_use]
#[path = "common/gl.rs"]
mod gl_harness;

use gl_harness::{f, memory_stat, P};

const GL_COMPILE: u32 = 0x1300;
const GL_COLOR_BUFFER_BIT: u32 = 0x4000;
const GL_DEPTH_BUFFER_BIT: u32 = 0x0100;
const GL_CULL_FACE: u32 = 0x0B44;
const GL_LIGHTING: u32 = 0x0B50;
const GL_LIGHT0: u32 = 0x4000;
const GL_DEPTH_TEST: u32 = 0x0B71;
const GL_NORMALIZE: u32 = 0x0BA1;
const GL_POSITION: u32 = 0x1203;
const GL_FRONT: u32 = 0x0404;
const GL_AMBIENT_AND_DIFFUSE: u32 = 0x1602;
const GL_FLAT: u32 = 0x1D00;
const GL_SMOOTH: u32 = 0x1D01;
const GL_QUADS: u32 = 7;
const GL_QUAD_STRIP: u32 = 8;
const GL_PROJECTION: u32 = 0x1701;
const GL_MODELVIEW: u32 = 0x1700;

const SIZE: i32 = 64;

/// A current compatibility-profile context on a `SIZE`² pbuffer with a depth buffer (the
/// harness's has none), as glxgears' window has.
fn make_current_with_depth() {
    let get_display = gl!(c"eglGetPlatformDisplayEXT": fn(u32, P, *const i32) -> P);
    let initialize = gl!(c"eglInitialize": fn(P, *mut i32, *mut i32) -> u32);
    let choose = gl!(c"eglChooseConfig": fn(P, *const i32, *mut P, i32, *mut i32) -> u32);
    let bind_api = gl!(c"eglBindAPI": fn(u32) -> u32);
    let create_context = gl!(c"eglCreateContext": fn(P, P, P, *const i32) -> P);
    let create_pbuffer = gl!(c"eglCreatePbufferSurface": fn(P, P, *const i32) -> P);
    let make_current = gl!(c"eglMakeCurrent": fn(P, P, P, P) -> u32);
    // SAFETY: live handles from earlier calls, EGL_NONE-terminated lists, out-pointers to locals.
    unsafe {
        let dpy = get_display(0x31DD, null_mut(), null());
        assert!(!dpy.is_null());
        assert_eq!(initialize(dpy, null_mut(), null_mut()), 1);
        // PBUFFER_BIT, OPENGL_BIT, a depth buffer.
        let attribs = [0x3033, 0x0001, 0x3040, 0x0008, 0x3025, 16, 0x3038];
        let (mut cfg, mut n) = (null_mut(), 0);
        assert_eq!(choose(dpy, attribs.as_ptr(), &mut cfg, 1, &mut n), 1);
        assert_eq!(n, 1, "a pbuffer config with depth");
        assert_eq!(bind_api(0x30A2), 1);
        // 2.1 compatibility, as glxgears' glXCreateContext gets.
        let ctx_attribs = [0x3098, 2, 0x30FB, 1, 0x3038];
        let ctx = create_context(dpy, cfg, null_mut(), ctx_attribs.as_ptr());
        assert!(!ctx.is_null());
        let pb = [0x3057, SIZE, 0x3056, SIZE, 0x3038];
        let surface = create_pbuffer(dpy, cfg, pb.as_ptr());
        assert!(!surface.is_null());
        assert_eq!(make_current(dpy, surface, surface, ctx), 1);
    }
}

/// glxgears' `gear()`: one gear as GL commands (compiled into the current display list).
fn gear(inner: f32, outer: f32, width: f32, teeth: i32, tooth_depth: f32) {
    let shade_model = gl!(c"glShadeModel": fn(u32));
    let normal = gl!(c"glNormal3f": fn(f32, f32, f32));
    let begin = gl!(c"glBegin": fn(u32));
    let end = gl!(c"glEnd": fn());
    let vertex = gl!(c"glVertex3f": fn(f32, f32, f32));
    let r0 = inner;
    let r1 = outer - tooth_depth / 2.0;
    let r2 = outer + tooth_depth / 2.0;
    let da = 2.0 * PI / teeth as f32 / 4.0;
    let angle = |i: i32| i as f32 * 2.0 * PI / teeth as f32;
    let v = |r: f32, a: f32, z: f32| {
        // SAFETY: inside glBegin/glEnd (or a list being compiled); plain floats.
        unsafe { vertex(r * a.cos(), r * a.sin(), z) }
    };
    // SAFETY: plain GL calls on the current context, between glBegin and glEnd where GL wants.
    unsafe {
        shade_model(GL_FLAT);
        normal(0.0, 0.0, 1.0);
        // Front face, then front sides of the teeth.
        begin(GL_QUAD_STRIP);
        for i in 0..=teeth {
            let a = angle(i);
            v(r0, a, width * 0.5);
            v(r1, a, width * 0.5);
            if i < teeth {
                v(r0, a, width * 0.5);
                v(r1, a + 3.0 * da, width * 0.5);
            }
        }
        end();
        begin(GL_QUADS);
        for i in 0..teeth {
            let a = angle(i);
            v(r1, a, width * 0.5);
            v(r2, a + da, width * 0.5);
            v(r2, a + 2.0 * da, width * 0.5);
            v(r1, a + 3.0 * da, width * 0.5);
        }
        end();
        normal(0.0, 0.0, -1.0);
        // Back face.
        begin(GL_QUAD_STRIP);
        for i in 0..=teeth {
            let a = angle(i);
            v(r1, a, -width * 0.5);
            v(r0, a, -width * 0.5);
            if i < teeth {
                v(r1, a + 3.0 * da, -width * 0.5);
                v(r0, a, -width * 0.5);
            }
        }
        end();
        // Outward faces of the teeth, a normal per face.
        begin(GL_QUAD_STRIP);
        for i in 0..teeth {
            let a = angle(i);
            v(r1, a, width * 0.5);
            v(r1, a, -width * 0.5);
            let (u, w) = (
                r2 * (a + da).cos() - r1 * a.cos(),
                r2 * (a + da).sin() - r1 * a.sin(),
            );
            let len = (u * u + w * w).sqrt();
            normal(w / len, -u / len, 0.0);
            v(r2, a + da, width * 0.5);
            v(r2, a + da, -width * 0.5);
            normal(a.cos(), a.sin(), 0.0);
            v(r2, a + 2.0 * da, width * 0.5);
            v(r2, a + 2.0 * da, -width * 0.5);
            let (u, w) = (
                r1 * (a + 3.0 * da).cos() - r2 * (a + 2.0 * da).cos(),
                r1 * (a + 3.0 * da).sin() - r2 * (a + 2.0 * da).sin(),
            );
            normal(w, -u, 0.0);
            v(r1, a + 3.0 * da, width * 0.5);
            v(r1, a + 3.0 * da, -width * 0.5);
            normal(a.cos(), a.sin(), 0.0);
        }
        v(r1, 0.0, width * 0.5);
        v(r1, 0.0, -width * 0.5);
        end();
        shade_model(GL_SMOOTH);
        // The inside cylinder, smooth: a normal per vertex.
        begin(GL_QUAD_STRIP);
        for i in 0..=teeth {
            let a = angle(i);
            normal(-a.cos(), -a.sin(), 0.0);
            v(r0, a, -width * 0.5);
            v(r0, a, width * 0.5);
        }
        end();
    }
}

/// glxgears' `init()` and `reshape()`: the light, the three gear lists, the projection.
fn init() -> [u32; 3] {
    let lightfv = gl!(c"glLightfv": fn(u32, u32, *const f32));
    let enable = gl!(c"glEnable": fn(u32));
    let gen_lists = gl!(c"glGenLists": fn(i32) -> u32);
    let new_list = gl!(c"glNewList": fn(u32, u32));
    let end_list = gl!(c"glEndList": fn());
    let materialfv = gl!(c"glMaterialfv": fn(u32, u32, *const f32));
    let viewport = gl!(c"glViewport": fn(i32, i32, i32, i32));
    let matrix_mode = gl!(c"glMatrixMode": fn(u32));
    let load_identity = gl!(c"glLoadIdentity": fn());
    let frustum = gl!(c"glFrustum": fn(f64, f64, f64, f64, f64, f64));
    let translate = gl!(c"glTranslatef": fn(f32, f32, f32));
    let colors = [
        [0.8f32, 0.1, 0.0, 1.0],
        [0.0, 0.8, 0.2, 1.0],
        [0.2, 0.2, 1.0, 1.0],
    ];
    let shapes = [
        (1.0f32, 4.0, 1.0, 20, 0.7),
        (0.5, 2.0, 2.0, 10, 0.7),
        (1.3, 2.0, 0.5, 10, 0.7),
    ];
    let mut lists = [0; 3];
    // SAFETY: plain GL calls on the current context; the pointers are to live arrays of four.
    unsafe {
        lightfv(GL_LIGHT0, GL_POSITION, [5.0f32, 5.0, 10.0, 0.0].as_ptr());
        for cap in [GL_CULL_FACE, GL_LIGHTING, GL_LIGHT0, GL_DEPTH_TEST] {
            enable(cap);
        }
        for ((list, color), (inner, outer, width, teeth, depth)) in
            lists.iter_mut().zip(&colors).zip(shapes)
        {
            *list = gen_lists(1);
            new_list(*list, GL_COMPILE);
            materialfv(GL_FRONT, GL_AMBIENT_AND_DIFFUSE, color.as_ptr());
            gear(inner, outer, width, teeth, depth);
            end_list();
        }
        enable(GL_NORMALIZE);
        viewport(0, 0, SIZE, SIZE);
        matrix_mode(GL_PROJECTION);
        load_identity();
        frustum(-1.0, 1.0, -1.0, 1.0, 5.0, 60.0);
        matrix_mode(GL_MODELVIEW);
        load_identity();
        translate(0.0, 0.0, -40.0);
    }
    lists
}

/// glxgears' `draw()` at rotation `angle`, then the end of the frame (`glFinish`: a pbuffer has
/// nothing to swap).
fn frame(lists: [u32; 3], angle: f32) {
    let clear = gl!(c"glClear": fn(u32));
    let push = gl!(c"glPushMatrix": fn());
    let pop = gl!(c"glPopMatrix": fn());
    let rotate = gl!(c"glRotatef": fn(f32, f32, f32, f32));
    let translate = gl!(c"glTranslatef": fn(f32, f32, f32));
    let call_list = gl!(c"glCallList": fn(u32));
    let finish = gl!(c"glFinish": fn());
    let placed = [
        (-3.0f32, -2.0, angle),
        (3.1, -2.0, -2.0 * angle - 9.0),
        (-3.1, 4.2, -2.0 * angle - 25.0),
    ];
    // SAFETY: plain GL calls on the current context.
    unsafe {
        clear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
        push();
        rotate(20.0, 1.0, 0.0, 0.0);
        rotate(30.0, 0.0, 1.0, 0.0);
        for (list, (x, y, a)) in lists.iter().zip(placed) {
            push();
            translate(x, y, 0.0);
            rotate(a, 0.0, 0.0, 1.0);
            call_list(*list);
            pop();
        }
        pop();
        finish();
    }
}

fn counts() -> (u64, u64) {
    (
        memory_stat(c"pipelines_built"),
        memory_stat(c"shader_modules_created"),
    )
}

/// Shader modules that branch on uniform values alone: lavapipe recompiles each of them with
/// LLVM on every draw that rebinds its uniforms (`glsl::uniform_branches`).
fn uniform_branch_modules() -> u64 {
    memory_stat(c"uniform_branch_modules")
}

#[test]
fn steady_gears_create_no_pipelines_or_shader_modules_after_the_first_frame() {
    // The harness's context first: it holds the test's turn and checks the validation count.
    let _turn = gl_harness::context_profile(true);
    make_current_with_depth();
    let lists = init();
    frame(lists, 0.0);
    let first = counts();
    assert!(
        first.0 > 0 && first.1 > 0,
        "the first frame built its pipelines"
    );
    for i in 1..=10 {
        frame(lists, 2.0 * i as f32);
    }
    assert_eq!(
        counts(),
        first,
        "pipelines, shader modules built by 10 more frames"
    );
    assert_eq!(
        uniform_branch_modules(),
        0,
        "shader modules lavapipe recompiles on every draw"
    );
    assert_eq!(gl_harness::error(), 0);
    // The red gear is lit (its front face, facing the light, is bright red) and the scene is
    // depth-tested: the background is still black in a corner.
    let px = gl_harness::read_rgba(0, 0, SIZE, SIZE);
    let red = px
        .chunks_exact(4)
        .filter(|p| p[0] > 150 && p[1] < 60 && p[2] < 60)
        .count();
    let green = px
        .chunks_exact(4)
        .filter(|p| p[1] > 120 && p[0] < 60)
        .count();
    assert!(red > 50, "lit red gear pixels: {red}");
    assert!(green > 10, "lit green gear pixels: {green}");
    assert_eq!(&px[..3], &[0, 0, 0], "background");
}
