//! Phones (issue 21, first part): device profiles (`ARENAGL_VK_PROFILE`), `arenagl info`, and
//! the render-pass fallback of devices without dynamic rendering.
//!
//! - `arenagl info` prints the clamped device: under a profile an extension the profile lacks is
//!   not enabled, and the limits are the profile's.
//! - A profile below ArenaGL's floor (the Android 2022 baseline is Vulkan 1.1) refuses the
//!   device with a message naming what is missing: `arenagl info` fails, and so does
//!   `eglCreateContext` (`EGL_BAD_ALLOC`), never a context that draws nothing.
//! - With `ARENAGL_FORCE_RENDER_PASS=1` dynamic rendering is not even enabled: draws go through
//!   render passes and framebuffers, and must produce the same pixels with the validation layer
//!   silent; with `ARENAGL_FORCE_FENCES=1` as well, timeline semaphores are not enabled either
//!   and a fence per epoch keeps the epoch clock (frames after frames, waits and read-backs).
//!   The GL parts run in child processes (the device and its failure are per process).

#[path = "common/child.rs"]
mod child;
#[macro_use]
#[path = "common/gl.rs"]
mod gl_harness;

use std::process::Command;
use std::ptr::{null, null_mut};

use gl_harness::{f, P};

const BIN: &str = env!("CARGO_BIN_EXE_arenagl");
const CHILD_ENV: &str = "ARENAGL_PHONES_CHILD";

/// Runs `arenagl info --brief` with `envs`; (success, stdout, stderr).
fn info(envs: &[(&str, &str)]) -> (bool, String, String) {
    let out = Command::new(BIN)
        .args(["info", "--brief"])
        .env_remove("ARENAGL_VK_PROFILE")
        .env_remove("ARENAGL_FORCE_RENDER_PASS")
        .env("ARENAGL_TELEMETRY", "0")
        .envs(envs.iter().copied())
        .output()
        .expect("run arenagl info");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The device extensions `arenagl info` lists as enabled.
fn enabled_extensions(stdout: &str) -> Vec<String> {
    stdout
        .lines()
        .skip_while(|l| !l.starts_with("enabled extensions"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .map(|l| l.trim().to_owned())
        .collect()
}

#[test]
fn info_prints_the_device_clamped_by_the_profile() {
    let (ok, whole, err) = info(&[("ARENAGL_VALIDATION", "1")]);
    assert!(ok, "arenagl info failed:\n{err}");
    assert!(whole.contains("profile: none"), "{whole}");
    assert!(whole.contains("GL core: "), "{whole}");
    assert!(whole.contains("ES 3.0: OpenGL ES 3.0"), "{whole}");
    assert!(whole.contains("budget: "), "{whole}");
    let unclamped = enabled_extensions(&whole);
    // lavapipe has push descriptors and transform feedback; the Android 15 minimums do not list
    // them, so under the profile they are not enabled.
    for ext in ["VK_KHR_push_descriptor", "VK_EXT_transform_feedback"] {
        assert!(
            unclamped.iter().any(|e| e == ext),
            "{ext} on the whole device:\n{whole}"
        );
    }
    let (ok, clamped, err) = info(&[
        ("ARENAGL_VALIDATION", "1"),
        ("ARENAGL_VK_PROFILE", "VP_ANDROID_15_minimums"),
    ]);
    assert!(ok, "arenagl info under the profile failed:\n{err}");
    assert!(
        clamped.contains("profile: VP_ANDROID_15_minimums"),
        "{clamped}"
    );
    let enabled = enabled_extensions(&clamped);
    assert!(!enabled.is_empty(), "{clamped}");
    for ext in ["VK_KHR_push_descriptor", "VK_EXT_transform_feedback"] {
        assert!(
            !enabled.iter().any(|e| e == ext),
            "{ext} under the profile:\n{clamped}"
        );
    }
    // The profile's limits (the Android baseline it inherits): 4 descriptor sets, 4096².
    assert!(clamped.contains("maxBoundDescriptorSets: 4\n"), "{clamped}");
    assert!(clamped.contains("maxImageDimension2D: 4096\n"), "{clamped}");
    assert!(
        !err.contains("arenagl::validation"),
        "validation messages:\n{err}"
    );
}

#[test]
fn a_profile_file_is_read_and_a_bad_one_is_an_error() {
    let dir = std::env::temp_dir().join(format!("arenagl-phones-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("small.json");
    std::fs::write(
        &path,
        r#"{"profiles": {"VP_TEST_small": {"version": 1, "api-version": "1.3.0",
              "capabilities": ["base"]}},
            "capabilities": {"base": {
              "extensions": {"VK_EXT_index_type_uint8": 1},
              "features": {"VkPhysicalDeviceIndexTypeUint8FeaturesEXT": {"indexTypeUint8": true}},
              "properties": {"VkPhysicalDeviceProperties": {"limits": {"maxImageDimension2D": 2048}}}}}}"#,
    )
    .expect("write the profile");
    let (ok, out, err) = info(&[("ARENAGL_VK_PROFILE", path.to_str().expect("utf-8 path"))]);
    assert!(ok, "{err}");
    assert!(out.contains("profile: VP_TEST_small"), "{out}");
    assert_eq!(
        enabled_extensions(&out),
        ["VK_EXT_index_type_uint8"],
        "{out}"
    );
    assert!(out.contains("maxImageDimension2D: 2048\n"), "{out}");
    let (ok, _, err) = info(&[("ARENAGL_VK_PROFILE", "VP_NO_SUCH_PROFILE")]);
    assert!(!ok);
    assert!(err.contains("unknown profile"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_profile_below_the_floor_is_refused_with_what_it_lacks() {
    if std::env::var_os(CHILD_ENV).is_some() {
        return;
    }
    let (ok, _, err) = info(&[("ARENAGL_VK_PROFILE", "android-baseline-2022")]);
    assert!(
        !ok,
        "the Android 2022 baseline (Vulkan 1.1) opened a device"
    );
    for what in ["needs Vulkan 1.2", "Vulkan 1.1", "VP_ANDROID_baseline_2022"] {
        assert!(
            err.contains(what),
            "the refusal does not name {what}:\n{err}"
        );
    }
    child::run_test_child(
        "child_context_creation_fails",
        CHILD_ENV,
        [("ARENAGL_VK_PROFILE", "VP_ANDROID_baseline_2022")],
        "CONTEXT_REFUSED",
    );
}

#[test]
fn child_context_creation_fails() {
    if std::env::var_os(CHILD_ENV).is_none() {
        return;
    }
    const EGL_BAD_ALLOC: i32 = 0x3003;
    let get_display = gl!(c"eglGetPlatformDisplayEXT": fn(u32, P, *const i32) -> P);
    let initialize = gl!(c"eglInitialize": fn(P, *mut i32, *mut i32) -> u32);
    let choose = gl!(c"eglChooseConfig": fn(P, *const i32, *mut P, i32, *mut i32) -> u32);
    let bind_api = gl!(c"eglBindAPI": fn(u32) -> u32);
    let create_context = gl!(c"eglCreateContext": fn(P, P, P, *const i32) -> P);
    let get_error = gl!(c"eglGetError": fn() -> i32);
    // SAFETY: live handles from earlier calls, EGL_NONE-terminated lists, out-pointers to locals.
    unsafe {
        let dpy = get_display(0x31DD, null_mut(), null());
        assert_eq!(initialize(dpy, null_mut(), null_mut()), 1);
        let attribs = [0x3033, 0x0001, 0x3040, 0x0008, 0x3038];
        let (mut cfg, mut n) = (null_mut(), 0);
        assert_eq!(choose(dpy, attribs.as_ptr(), &mut cfg, 1, &mut n), 1);
        assert_eq!(bind_api(0x30A2), 1);
        let ctx_attribs = [0x3098, 3, 0x30FB, 3, 0x3038];
        let ctx = create_context(dpy, cfg, null_mut(), ctx_attribs.as_ptr());
        assert!(ctx.is_null(), "a context on a device below the floor");
        assert_eq!(get_error(), EGL_BAD_ALLOC);
    }
    println!("CONTEXT_REFUSED");
}

#[test]
fn draws_go_through_render_passes_without_dynamic_rendering() {
    if std::env::var_os(CHILD_ENV).is_some() {
        return;
    }
    child::run_test_child(
        "child_draw_through_render_passes",
        CHILD_ENV,
        [("ARENAGL_FORCE_RENDER_PASS", "1")],
        "RENDER_PASS_DRAW_OK",
    );
}

#[test]
fn epochs_complete_through_fences_without_timeline_semaphores() {
    if std::env::var_os(CHILD_ENV).is_some() {
        return;
    }
    child::run_test_child(
        "child_draw_through_render_passes",
        CHILD_ENV,
        [
            ("ARENAGL_FORCE_RENDER_PASS", "1"),
            ("ARENAGL_FORCE_FENCES", "1"),
        ],
        "RENDER_PASS_DRAW_OK",
    );
}

#[test]
fn child_draw_through_render_passes() {
    if std::env::var_os(CHILD_ENV).is_none() {
        return;
    }
    let _current = gl_harness::context();
    let clear_color = gl!(c"glClearColor": fn(f32, f32, f32, f32));
    let clear = gl!(c"glClear": fn(u32));
    let enable = gl!(c"glEnable": fn(u32));
    let use_program = gl!(c"glUseProgram": fn(u32));
    let gen_vao = gl!(c"glGenVertexArrays": fn(i32, *mut u32));
    let bind_vao = gl!(c"glBindVertexArray": fn(u32));
    let draw = gl!(c"glDrawArrays": fn(u32, i32, i32));
    let p = gl_harness::program(
        "#version 330\nuniform float z;\nvoid main() {\n\
         vec2 c[3] = vec2[3](vec2(-1.0, -1.0), vec2(3.0, -1.0), vec2(-1.0, 3.0));\n\
         gl_Position = vec4(c[gl_VertexID], z, 1.0);\n}\n",
        "#version 330\nout vec4 o;\nvoid main() { o = vec4(0.0, 1.0, 0.0, 1.0); }\n",
    );
    let uniform = gl!(c"glUniform1f": fn(i32, f32));
    let location = gl!(c"glGetUniformLocation": fn(u32, *const std::ffi::c_char) -> i32);
    let depth_func = gl!(c"glDepthFunc": fn(u32));
    // Several epochs, each read back (a wait on its completion): a triangle in front of the
    // cleared depth, one beyond the far plane (clipped away), then a clear alone.
    let steps: [(Option<f32>, [u8; 4]); 3] = [
        (Some(0.0), [0, 255, 0, 255]),
        (Some(1.5), [255, 0, 0, 255]),
        (None, [255, 0, 0, 255]),
    ];
    // SAFETY: a current context; out-pointer to a local, NUL-terminated name.
    unsafe {
        let mut vao = 0;
        gen_vao(1, &mut vao);
        bind_vao(vao);
        enable(0x0B71); // GL_DEPTH_TEST: the pass has a depth attachment too
        depth_func(0x0201); // GL_LESS
        use_program(p);
    }
    for (i, (z, want)) in steps.into_iter().enumerate() {
        // SAFETY: a current context; the program is bound.
        unsafe {
            clear_color(1.0, 0.0, 0.0, 1.0);
            clear(0x4000 | 0x0100);
            if let Some(z) = z {
                uniform(location(p, c"z".as_ptr()), z);
                draw(0x0004, 0, 3);
            }
        }
        assert_eq!(gl_harness::error(), 0);
        let px = gl_harness::read_rgba(0, 0, 32, 32);
        assert!(
            px.chunks(4).all(|c| c == want),
            "step {i}: want {want:?} everywhere, first pixel {:?}",
            &px[..4]
        );
    }
    println!("RENDER_PASS_DRAW_OK");
}

#[test]
fn geometry_shaders_are_refused_where_the_profile_lacks_them() {
    if std::env::var_os(CHILD_ENV).is_some() {
        return;
    }
    child::run_test_child(
        "child_geometry_shader_refused",
        CHILD_ENV,
        [("ARENAGL_VK_PROFILE", "VP_ANDROID_15_minimums")],
        "GEOMETRY_REFUSED",
    );
}

#[test]
fn child_geometry_shader_refused() {
    if std::env::var_os(CHILD_ENV).is_none() {
        return;
    }
    const GL_GEOMETRY_SHADER: u32 = 0x8DD9;
    const GL_VERTEX_SHADER: u32 = 0x8B31;
    const GL_INVALID_ENUM: u32 = 0x0500;
    let _current = gl_harness::context();
    let create = gl!(c"glCreateShader": fn(u32) -> u32);
    // SAFETY: plain GL calls on the current context.
    unsafe {
        assert_eq!(
            create(GL_GEOMETRY_SHADER),
            0,
            "no geometryShader under the profile"
        );
        assert_eq!(gl_harness::error(), GL_INVALID_ENUM);
        assert_ne!(create(GL_VERTEX_SHADER), 0);
    }
    gl_harness::expect(0);
    println!("GEOMETRY_REFUSED");
}
