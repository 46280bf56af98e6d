//! Phones (issue 21, first part): device profiles (`ARENAGL_VK_PROFILE`), `arenagl info`, and
//! the render-pass fallback of devices without dynamic rendering.
//!
//! - `arenagl info` prints the clamped device: under a profile an extension the profile lacks is
//!   not enabled, and the limits are the profile's.
//! - A profile below ArenaGL's floor (the Android 2021 baseline is Vulkan 1.0) refuses the
//!   device with a message naming what is missing: `arenagl info` fails, and so does
//!   `eglCreateContext` (`EGL_BAD_ALLOC`), never a context that draws nothing.
//! - The Android 2022 baseline (Vulkan 1.1: no Vulkan 1.2 structures, SPIR-V 1.3, render pass 2
//!   through `VK_KHR_create_renderpass2`, no host query reset, no timeline semaphores) and the
//!   MoltenVK profile give working contexts: the draws and an occlusion query (its slots reset
//!   by `vkCmdResetQueryPool`) read back right with the validation layer silent.
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

/// A current compatibility context of the version the device gives (none asked: GL 2.1 on
/// the phone baselines, which complete no GL 3.x), for the test's duration.
fn any_context() -> gl_harness::Current {
    gl_harness::context_with(0x30A2, 0x0008, &[0x30FD, 2, 0x3038])
}

/// A GLSL 1.20 program (what every context compiles) drawing the triangle `corners` at the
/// depth of its uniform `z` in colour `rgb`; the corners are left as attribute 0's array.
fn triangle_program(corners: [[f32; 2]; 3], rgb: &str) -> u32 {
    let vertex_attrib_pointer = gl!(c"glVertexAttribPointer": fn(u32, i32, u32, u8, i32, P));
    let enable_array = gl!(c"glEnableVertexAttribArray": fn(u32));
    let bind_location = gl!(c"glBindAttribLocation": fn(u32, u32, *const std::ffi::c_char));
    let bytes: Vec<u8> = corners
        .iter()
        .flatten()
        .flat_map(|v| v.to_ne_bytes())
        .collect();
    gl_harness::buffer_with(0x8892, &bytes); // GL_ARRAY_BUFFER
                                             // SAFETY: a current context; the array buffer is bound, so the pointer is an offset.
    unsafe {
        vertex_attrib_pointer(0, 2, 0x1406, 0, 0, null_mut()); // GL_FLOAT
        enable_array(0);
    }
    gl_harness::program_with(
        "#version 120\nattribute vec2 corner;\nuniform float z;\n\
         void main() { gl_Position = vec4(corner, z, 1.0); }\n",
        &format!("#version 120\nvoid main() {{ gl_FragColor = vec4({rgb}, 1.0); }}\n"),
        // SAFETY: a current context; `p` is a live program, the name NUL-terminated.
        |p| unsafe { bind_location(p, 0, c"corner".as_ptr()) },
    )
}

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
    // An ES 3.0 request gets the highest ES 3.x the device offers.
    assert!(whole.contains("ES 3.0: OpenGL ES 3."), "{whole}");
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
    let (ok, _, err) = info(&[("ARENAGL_VK_PROFILE", "android-baseline-2021")]);
    assert!(
        !ok,
        "the Android 2021 baseline (Vulkan 1.0) opened a device"
    );
    for what in ["needs Vulkan 1.1", "Vulkan 1.0", "VP_ANDROID_baseline_2021"] {
        assert!(
            err.contains(what),
            "the refusal does not name {what}:\n{err}"
        );
    }
    child::run_test_child(
        "child_context_creation_fails",
        CHILD_ENV,
        [("ARENAGL_VK_PROFILE", "VP_ANDROID_baseline_2021")],
        "CONTEXT_REFUSED",
    );
}

#[test]
fn the_android_2022_baseline_opens_a_vulkan_1_1_device() {
    let (ok, out, err) = info(&[
        ("ARENAGL_VALIDATION", "1"),
        ("ARENAGL_VK_PROFILE", "android-baseline-2022"),
    ]);
    assert!(ok, "arenagl info under the 2022 baseline failed:\n{err}");
    assert!(out.contains("used 1.1."), "{out}");
    let enabled = enabled_extensions(&out);
    assert!(
        enabled.iter().any(|e| e == "VK_KHR_create_renderpass2"),
        "render pass 2 comes from its extension on Vulkan 1.1:\n{out}"
    );
    assert!(out.contains("ES 2.0: OpenGL ES 2.0"), "{out}");
    assert!(
        !err.contains("arenagl::validation"),
        "validation messages:\n{err}"
    );
}

/// The `major.minor` at the start of `label`'s `GL_VERSION` in `arenagl info`'s output.
fn info_version(out: &str, label: &str) -> (u32, u32) {
    let line = (out.lines())
        .find_map(|l| l.strip_prefix(label))
        .unwrap_or_else(|| panic!("no {label} in:\n{out}"));
    let number = line
        .trim_start_matches("OpenGL ES ")
        .split([' ', ';'])
        .next();
    let mut parts = number
        .unwrap_or("")
        .split('.')
        .map(|n| n.parse().unwrap_or(0));
    (parts.next().unwrap_or(0), parts.next().unwrap_or(0))
}

#[test]
fn versions_follow_the_features_the_device_has() {
    let (ok, out, err) = info(&[("ARENAGL_VALIDATION", "1")]);
    assert!(ok, "{err}");
    assert!(
        info_version(&out, "GL core: ") >= (4, 2),
        "the unclamped device keeps GL 4.2 or later:\n{out}"
    );
    assert!(info_version(&out, "ES 3.0: ") >= (3, 0), "{out}");
    // No transform feedback, geometry shaders, depth clamp or 8 draw buffers: GL 2.1 and
    // ES 2.0, as Zink gives such devices.
    let (ok, out, err) = info(&[
        ("ARENAGL_VALIDATION", "1"),
        ("ARENAGL_VK_PROFILE", "android-baseline-2022"),
    ]);
    assert!(ok, "{err}");
    assert_eq!(info_version(&out, "GL core: "), (2, 1), "{out}");
    assert!(
        out.contains("GL compatibility: 2.1 ArenaGL 0.1; GLSL 1.20"),
        "{out}"
    );
    assert_eq!(info_version(&out, "ES 3.0: "), (2, 0), "{out}");
}

#[test]
fn a_version_above_the_devices_is_refused_on_the_2022_baseline() {
    if std::env::var_os(CHILD_ENV).is_some() {
        return;
    }
    child::run_test_child(
        "child_version_above_refused",
        CHILD_ENV,
        [("ARENAGL_VK_PROFILE", "android-baseline-2022")],
        "VERSION_REFUSED",
    );
}

/// GL 3.3 (either profile) and ES 3.0 are `EGL_BAD_MATCH`; no version asked gives GL 2.1.
#[test]
fn child_version_above_refused() {
    if std::env::var_os(CHILD_ENV).is_none() {
        return;
    }
    const EGL_BAD_MATCH: i32 = 0x3009;
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
        // EGL_OPENGL_BIT | EGL_OPENGL_ES2_BIT | EGL_OPENGL_ES3_BIT_KHR
        let attribs = [0x3033, 0x0001, 0x3040, 0x0008 | 0x0004 | 0x0040, 0x3038];
        let (mut cfg, mut n) = (null_mut(), 0);
        assert_eq!(choose(dpy, attribs.as_ptr(), &mut cfg, 1, &mut n), 1);
        let requests: [(u32, &[i32]); 3] = [
            (0x30A2, &[0x3098, 3, 0x30FB, 3, 0x30FD, 1, 0x3038]),
            (0x30A2, &[0x3098, 3, 0x30FB, 3, 0x30FD, 2, 0x3038]),
            (0x30A0, &[0x3098, 3, 0x3038]), // EGL_OPENGL_ES_API
        ];
        for (api, ctx_attribs) in requests {
            assert_eq!(bind_api(api), 1);
            let ctx = create_context(dpy, cfg, null_mut(), ctx_attribs.as_ptr());
            assert!(
                ctx.is_null(),
                "{ctx_attribs:x?}: a context above the device"
            );
            assert_eq!(get_error(), EGL_BAD_MATCH, "{ctx_attribs:x?}");
        }
    }
    let _current = any_context();
    let get_string = gl!(c"glGetString": fn(u32) -> *const std::ffi::c_char);
    // SAFETY: a current context; GL_VERSION's string is NUL-terminated and lives with it.
    let version = unsafe { std::ffi::CStr::from_ptr(get_string(0x1F02)) };
    assert_eq!(version.to_str(), Ok("2.1 ArenaGL 0.1"));
    println!("VERSION_REFUSED");
}

#[test]
fn draws_and_queries_work_on_the_android_2022_baseline() {
    if std::env::var_os(CHILD_ENV).is_some() {
        return;
    }
    for test in ["child_draw_through_render_passes", "child_occlusion_query"] {
        child::run_test_child(
            test,
            CHILD_ENV,
            [("ARENAGL_VK_PROFILE", "android-baseline-2022")],
            "_OK",
        );
    }
}

#[test]
fn draws_and_queries_work_under_the_moltenvk_profile() {
    if std::env::var_os(CHILD_ENV).is_some() {
        return;
    }
    for test in ["child_draw_through_render_passes", "child_occlusion_query"] {
        child::run_test_child(test, CHILD_ENV, [("ARENAGL_VK_PROFILE", "moltenvk")], "_OK");
    }
}

/// An occlusion query over draws in several render passes (a read-back between them ends
/// one): on a device without `hostQueryReset` each segment's slot is reset by a command.
#[test]
fn child_occlusion_query() {
    if std::env::var_os(CHILD_ENV).is_none() {
        return;
    }
    const GL_SAMPLES_PASSED: u32 = 0x8914;
    const GL_QUERY_RESULT: u32 = 0x8866;
    let _current = any_context();
    let gen_queries = gl!(c"glGenQueries": fn(i32, *mut u32));
    let begin = gl!(c"glBeginQuery": fn(u32, u32));
    let end = gl!(c"glEndQuery": fn(u32));
    let result = gl!(c"glGetQueryObjectuiv": fn(u32, u32, *mut u32));
    let use_program = gl!(c"glUseProgram": fn(u32));
    let draw = gl!(c"glDrawArrays": fn(u32, i32, i32));
    let clear = gl!(c"glClear": fn(u32));
    // A triangle covering the lower-left half of the 32×32 target: 528 samples (the diagonal's
    // pixels have their centres above or below it: 32·33/2).
    let p = triangle_program([[-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0]], "0.0, 0.0, 1.0");
    let mut counts = Vec::new();
    // SAFETY: a current context; out-pointers to locals.
    unsafe {
        let mut q = 0;
        use_program(p);
        gen_queries(1, &mut q);
        for round in 0..3 {
            clear(0x4000);
            begin(GL_SAMPLES_PASSED, q);
            for _ in 0..=round {
                draw(0x0004, 0, 3);
                // A read-back ends the render pass: the next draw counts in a new segment.
                let _ = gl_harness::read_rgba(0, 0, 1, 1);
            }
            end(GL_SAMPLES_PASSED);
            let mut n = 0;
            result(q, GL_QUERY_RESULT, &mut n);
            counts.push(n);
        }
    }
    assert_eq!(gl_harness::error(), 0);
    let one = counts[0];
    assert!(
        (496..=560).contains(&one),
        "one half-screen triangle passed {one} samples"
    );
    assert_eq!(
        counts,
        [one, 2 * one, 3 * one],
        "segments over passes add up"
    );
    println!("OCCLUSION_QUERY_OK");
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
    let _current = any_context();
    let clear_color = gl!(c"glClearColor": fn(f32, f32, f32, f32));
    let clear = gl!(c"glClear": fn(u32));
    let enable = gl!(c"glEnable": fn(u32));
    let use_program = gl!(c"glUseProgram": fn(u32));
    let draw = gl!(c"glDrawArrays": fn(u32, i32, i32));
    let p = triangle_program([[-1.0, -1.0], [3.0, -1.0], [-1.0, 3.0]], "0.0, 1.0, 0.0");
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
    let _current = any_context();
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
