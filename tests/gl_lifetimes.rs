//! Object lifetimes through the C ABI: what deleting an object frees, and what it must keep.
//!
//! - Program churn: linking, drawing with and deleting programs must not grow the process;
//!   everything kept per program (Vulkan modules and layouts, pipelines, descriptor sets
//!   that name its layouts) goes with it. A pipeline alone is hundreds of kilobytes on
//!   lavapipe, so keeping those of deleted programs would show at once.
//! - A buffer deleted while a vertex array that is not bound holds it lives on for that vertex
//!   array (GL 4.6 §5.1.3: the name is freed at once, the object when its last reference
//!   goes); a shader deleted while attached lives until detached.
//! - Sampler uniforms of different types on one texture unit make drawing
//!   `GL_INVALID_OPERATION` (GL 3.3 §2.11.7) and `glValidateProgram` fail.
//!
//! Each test makes its own context on a 32×32 pbuffer; the validation layer must stay silent.

use std::ffi::{c_char, c_void, CString};
use std::ptr::null;

#[macro_use]
#[path = "common/gl.rs"]
mod gl_harness;

use gl_harness::{buffer_with, context, error, expect, f};

const GL_NO_ERROR: u32 = 0;
const GL_INVALID_OPERATION: u32 = 0x0502;
const GL_ARRAY_BUFFER: u32 = 0x8892;
const GL_ELEMENT_ARRAY_BUFFER: u32 = 0x8893;
const GL_FLOAT: u32 = 0x1406;
const GL_UNSIGNED_BYTE: u32 = 0x1401;
const GL_UNSIGNED_SHORT: u32 = 0x1403;
const GL_RGBA: u32 = 0x1908;
const GL_TRIANGLE_STRIP: u32 = 5;
const GL_VERTEX_SHADER: u32 = 0x8B31;
const GL_FRAGMENT_SHADER: u32 = 0x8B30;
const GL_DELETE_STATUS: u32 = 0x8B80;
const GL_LINK_STATUS: u32 = 0x8B82;
const GL_VALIDATE_STATUS: u32 = 0x8B83;
const GL_COLOR_BUFFER_BIT: u32 = 0x4000;
const GL_VERTEX_ATTRIB_ARRAY_BUFFER_BINDING: u32 = 0x889F;

const VS: &str = "#version 330 core\nlayout(location = 0) in vec2 pos;\nvoid main() { gl_Position = vec4(pos, 0.0, 1.0); }\n";
const FS: &str =
    "#version 330 core\nuniform vec4 tint;\nout vec4 color;\nvoid main() { color = tint; }\n";

/// A window-filling strip, as four `vec2`s.
const STRIP: [f32; 8] = [-1.0, -1.0, 1.0, -1.0, -1.0, 1.0, 1.0, 1.0];
/// A strip over the left half of the window only.
const LEFT_STRIP: [f32; 8] = [-1.0, -1.0, 0.0, -1.0, -1.0, 1.0, 0.0, 1.0];

const GREEN: [u8; 4] = [0, 255, 0, 255];
const BLUE: [u8; 4] = [0, 0, 255, 255];

// ---- helpers ------------------------------------------------------------------------------

/// The pixel at (`x`, `y`) of the drawable.
fn pixel(x: i32, y: i32) -> [u8; 4] {
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

fn float_bytes(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_ne_bytes()).collect()
}

/// A new vertex array (left bound) whose attribute 0 reads `vec2`s from a new buffer holding
/// `strip`; returns (vertex array, buffer).
fn strip_vao(strip: &[f32]) -> (u32, u32) {
    let gen_vaos = gl!(c"glGenVertexArrays": fn(i32, *mut u32));
    let bind_vao = gl!(c"glBindVertexArray": fn(u32));
    let pointer = gl!(c"glVertexAttribPointer": fn(u32, i32, u32, u8, i32, *const c_void));
    let enable = gl!(c"glEnableVertexAttribArray": fn(u32));
    // SAFETY: offsets into the bound buffer; the out-pointer is a local.
    unsafe {
        let mut vao = 0;
        gen_vaos(1, &mut vao);
        bind_vao(vao);
        let buffer = buffer_with(GL_ARRAY_BUFFER, &float_bytes(strip));
        pointer(0, 2, GL_FLOAT, 0, 0, null());
        enable(0);
        (vao, buffer)
    }
}

/// Compiles one shader of type `ty`.
fn shader(ty: u32, src: &str) -> u32 {
    let create = gl!(c"glCreateShader": fn(u32) -> u32);
    let source = gl!(c"glShaderSource": fn(u32, i32, *const *const c_char, *const i32));
    let compile = gl!(c"glCompileShader": fn(u32));
    let c = CString::new(src).expect("no NUL");
    // SAFETY: one NUL-terminated string, lengths NULL.
    unsafe {
        let s = create(ty);
        let ptr = c.as_ptr();
        source(s, 1, &ptr, null());
        compile(s);
        s
    }
}

/// A program of `vs` and `fs` whose shaders are deleted right after being attached (flagged,
/// they live until the program lets go of them), linked (asserted).
fn program_owning_its_shaders(vs: &str, fs: &str) -> u32 {
    let create_program = gl!(c"glCreateProgram": fn() -> u32);
    let attach = gl!(c"glAttachShader": fn(u32, u32));
    let link = gl!(c"glLinkProgram": fn(u32));
    let get = gl!(c"glGetProgramiv": fn(u32, u32, *mut i32));
    let delete_shader = gl!(c"glDeleteShader": fn(u32));
    let (v, f) = (shader(GL_VERTEX_SHADER, vs), shader(GL_FRAGMENT_SHADER, fs));
    // SAFETY: live names from the calls above; the out-pointer is a local.
    unsafe {
        let p = create_program();
        attach(p, v);
        attach(p, f);
        delete_shader(v);
        delete_shader(f);
        link(p);
        let mut ok = 0;
        get(p, GL_LINK_STATUS, &mut ok);
        assert_eq!(ok, 1, "link");
        p
    }
}

/// Sets the current program's `tint` to `rgba`.
fn tint(program: u32, rgba: [f32; 4]) {
    let location = gl!(c"glGetUniformLocation": fn(u32, *const c_char) -> i32);
    let uniform = gl!(c"glUniform4f": fn(i32, f32, f32, f32, f32));
    // SAFETY: a NUL-terminated name; plain values.
    unsafe {
        uniform(
            location(program, c"tint".as_ptr()),
            rgba[0],
            rgba[1],
            rgba[2],
            rgba[3],
        )
    };
}

/// Clears the drawable to blue.
fn clear_blue() {
    let clear_color = gl!(c"glClearColor": fn(f32, f32, f32, f32));
    let clear = gl!(c"glClear": fn(u32));
    // SAFETY: plain values.
    unsafe {
        clear_color(0.0, 0.0, 1.0, 1.0);
        clear(GL_COLOR_BUFFER_BIT);
    }
}

// ---- program churn ------------------------------------------------------------------------

/// The process's resident set, in bytes (`VmRSS`). Free memory the allocator keeps is given
/// back first, so that what is counted is memory still in use, not the allocator's choices.
fn resident_bytes() -> u64 {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        extern "C" {
            fn malloc_trim(pad: usize) -> i32;
        }
        // SAFETY: glibc's malloc_trim has no preconditions.
        unsafe { malloc_trim(0) };
    }
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status");
    let kib: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .expect("a VmRSS line in kB");
    kib * 1024
}

/// Programs each churn test measures over: `ARENAGL_CHURN_PROGRAMS` (50000 for the long
/// check), else a count both tests run through in well under a minute on lavapipe.
fn churn_count() -> u64 {
    std::env::var("ARENAGL_CHURN_PROGRAMS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2000)
}

/// Average growth per program above which the churn tests fail. ArenaGL's own growth measures
/// under 50 bytes per program (0 for programs that never draw; 13 over 50,000 that do). The
/// validation layer (`ARENAGL_VALIDATION=1`) keeps bookkeeping of its own per descriptor-set
/// layout and set ever made, measured at 40–150 bytes per program, so the bound is doubled
/// under it. The leaks this guards against cost 580 (drawing, 3,400 under the layer) to 4,300
/// (linking only, 44,000 under the layer) bytes per program.
fn max_bytes_per_program() -> f64 {
    let validation = std::env::var("ARENAGL_VALIDATION").is_ok_and(|v| v.trim() == "1");
    if validation {
        512.0
    } else {
        256.0
    }
}

/// Runs `one(i)` for `warm_up` programs, then measures the resident set over `churn_count()`
/// more and asserts it stayed flat.
fn assert_churn_is_flat(what: &str, warm_up: u64, one: impl Fn(u64)) {
    (0..warm_up).for_each(&one);
    assert_eq!(error(), GL_NO_ERROR);
    let n = churn_count();
    let before = resident_bytes();
    let started = std::time::Instant::now();
    (warm_up..warm_up + n).for_each(&one);
    let after = resident_bytes();
    assert_eq!(error(), GL_NO_ERROR);
    let per_program = after.saturating_sub(before) as f64 / n as f64;
    eprintln!(
        "{what}: {n} programs in {:.1} s, resident {before} → {after} bytes, {per_program:.1} bytes/program",
        started.elapsed().as_secs_f64()
    );
    assert!(
        per_program < max_bytes_per_program(),
        "{what}: the process grew {per_program:.1} bytes per program over {n} programs ({before} → {after})"
    );
}

/// Creates, links and deletes programs that never draw, and never waits for the device: what
/// a program that builds its shaders up front (or a shader editor) does.
#[test]
fn programs_linked_and_deleted_leave_nothing_behind() {
    let _ctx = context();
    let delete_program = gl!(c"glDeleteProgram": fn(u32));
    assert_churn_is_flat("link and delete", 300, |_| {
        let p = program_owning_its_shaders(VS, FS);
        // SAFETY: a live program name.
        unsafe { delete_program(p) };
    });
}

/// Each program draws once (a pipeline and a descriptor set of its own) and is deleted; a
/// frame ends after each. The warm-up fills a descriptor pool (1024 sets) first.
#[test]
fn programs_drawn_with_and_deleted_leave_nothing_behind() {
    let _ctx = context();
    let use_program = gl!(c"glUseProgram": fn(u32));
    let delete_program = gl!(c"glDeleteProgram": fn(u32));
    let draw_arrays = gl!(c"glDrawArrays": fn(u32, i32, i32));
    let finish = gl!(c"glFinish": fn());
    strip_vao(&STRIP);
    assert_churn_is_flat("draw and delete", 1200, |_| {
        let p = program_owning_its_shaders(VS, FS);
        // SAFETY: a live program name; plain values.
        unsafe {
            use_program(p);
            tint(p, [0.0, 1.0, 0.0, 1.0]);
            draw_arrays(GL_TRIANGLE_STRIP, 0, 4);
            use_program(0);
            delete_program(p);
            finish();
        }
    });
    assert_eq!(pixel(16, 16), GREEN, "the last program drew");
}

// ---- objects kept by the containers that hold them ----------------------------------------

#[test]
fn a_buffer_deleted_while_an_unbound_vao_holds_it_still_feeds_its_draws() {
    let _ctx = context();
    let bind_vao = gl!(c"glBindVertexArray": fn(u32));
    let delete_buffers = gl!(c"glDeleteBuffers": fn(i32, *const u32));
    let is_buffer = gl!(c"glIsBuffer": fn(u32) -> u8);
    let use_program = gl!(c"glUseProgram": fn(u32));
    let draw_arrays = gl!(c"glDrawArrays": fn(u32, i32, i32));
    let draw_elements = gl!(c"glDrawElements": fn(u32, i32, u32, *const c_void));
    let get_attrib = gl!(c"glGetVertexAttribiv": fn(u32, u32, *mut i32));
    let p = gl_harness::program(VS, FS);
    let indices: Vec<u8> = [0u16, 1, 2, 3]
        .iter()
        .flat_map(|i| i.to_ne_bytes())
        .collect();
    let (vao, vertices) = strip_vao(&STRIP);
    let elements = buffer_with(GL_ELEMENT_ARRAY_BUFFER, &indices);
    // SAFETY: live names; the index offset 0 is into the element buffer; out-pointers are
    // locals.
    unsafe {
        use_program(p);
        tint(p, [0.0, 1.0, 0.0, 1.0]);
        bind_vao(0);
        delete_buffers(2, [vertices, elements].as_ptr());
        expect(GL_NO_ERROR);
        assert_eq!(is_buffer(vertices), 0, "the vertex buffer's name is free");
        assert_eq!(is_buffer(elements), 0, "the element buffer's name is free");
        bind_vao(vao);
        let mut binding = 0;
        get_attrib(0, GL_VERTEX_ATTRIB_ARRAY_BUFFER_BINDING, &mut binding);
        assert_eq!(
            binding as u32, vertices,
            "the vertex array still names its buffer"
        );
        clear_blue();
        draw_elements(GL_TRIANGLE_STRIP, 4, GL_UNSIGNED_SHORT, null());
        expect(GL_NO_ERROR);
        assert_eq!(
            pixel(16, 16),
            GREEN,
            "indexed draw from the deleted buffers"
        );
        clear_blue();
        draw_arrays(GL_TRIANGLE_STRIP, 0, 4);
        expect(GL_NO_ERROR);
        assert_eq!(pixel(16, 16), GREEN, "draw from the deleted vertex buffer");
    }
}

#[test]
fn a_new_buffer_leaves_the_deleted_one_to_the_vao_that_holds_it() {
    let _ctx = context();
    let bind_vao = gl!(c"glBindVertexArray": fn(u32));
    let bind_buffer = gl!(c"glBindBuffer": fn(u32, u32));
    let delete_buffers = gl!(c"glDeleteBuffers": fn(i32, *const u32));
    let delete_vaos = gl!(c"glDeleteVertexArrays": fn(i32, *const u32));
    let use_program = gl!(c"glUseProgram": fn(u32));
    let draw_arrays = gl!(c"glDrawArrays": fn(u32, i32, i32));
    let pointer = gl!(c"glVertexAttribPointer": fn(u32, i32, u32, u8, i32, *const c_void));
    let p = gl_harness::program(VS, FS);
    let draw = |vao: u32| {
        // SAFETY: a live vertex array; plain values.
        unsafe {
            bind_vao(vao);
            clear_blue();
            draw_arrays(GL_TRIANGLE_STRIP, 0, 4);
        }
        expect(GL_NO_ERROR);
        (pixel(8, 16), pixel(24, 16))
    };
    // SAFETY: live names throughout; pointers to locals.
    unsafe {
        use_program(p);
        tint(p, [0.0, 1.0, 0.0, 1.0]);
        let (whole, old) = strip_vao(&STRIP);
        bind_vao(0);
        delete_buffers(1, &old);
        // New buffers (an implementation may hand the freed name out again), one bound to
        // GL_ARRAY_BUFFER and filled while the vertex array that holds the old one is bound.
        let (half, _) = strip_vao(&LEFT_STRIP);
        bind_vao(whole);
        let fresh = buffer_with(GL_ARRAY_BUFFER, &float_bytes(&LEFT_STRIP));
        bind_buffer(GL_ARRAY_BUFFER, 0);
        assert_eq!(
            draw(whole),
            (GREEN, GREEN),
            "the deleted buffer still fills the window"
        );
        assert_eq!(draw(half), (GREEN, BLUE), "the new buffer is its own");
        // Respecifying the array lets go of the deleted buffer.
        bind_vao(whole);
        bind_buffer(GL_ARRAY_BUFFER, fresh);
        pointer(0, 2, GL_FLOAT, 0, 0, null());
        bind_buffer(GL_ARRAY_BUFFER, 0);
        expect(GL_NO_ERROR);
        assert_eq!(
            draw(whole),
            (GREEN, BLUE),
            "the array reads the new buffer now"
        );
        bind_vao(0);
        delete_vaos(2, [whole, half].as_ptr());
        delete_buffers(1, &fresh);
        expect(GL_NO_ERROR);
    }
}

#[test]
fn a_deleted_buffer_is_freed_with_the_last_vao_that_holds_it() {
    let _ctx = context();
    let bind_vao = gl!(c"glBindVertexArray": fn(u32));
    let delete_buffers = gl!(c"glDeleteBuffers": fn(i32, *const u32));
    let delete_vaos = gl!(c"glDeleteVertexArrays": fn(i32, *const u32));
    let finish = gl!(c"glFinish": fn());
    let live = || {
        // SAFETY: no arguments.
        unsafe { finish() };
        gl_harness::memory_stat(c"client_objects_live")
    };
    let gen_vaos = gl!(c"glGenVertexArrays": fn(i32, *mut u32));
    let bind_buffer = gl!(c"glBindBuffer": fn(u32, u32));
    let pointer = gl!(c"glVertexAttribPointer": fn(u32, i32, u32, u8, i32, *const c_void));
    let baseline = live();
    // SAFETY: live names; offsets into the bound buffer; pointers to locals.
    unsafe {
        let (first, buffer) = strip_vao(&STRIP);
        // A second vertex array reads the same buffer.
        let mut second = 0;
        gen_vaos(1, &mut second);
        bind_vao(second);
        bind_buffer(GL_ARRAY_BUFFER, buffer);
        pointer(1, 2, GL_FLOAT, 0, 0, null());
        bind_vao(0);
        delete_buffers(1, &buffer);
        assert_eq!(
            live(),
            baseline + 1,
            "both vertex arrays still hold the buffer"
        );
        delete_vaos(1, &first);
        assert_eq!(
            live(),
            baseline + 1,
            "the second vertex array still holds it"
        );
        delete_vaos(1, &second);
        assert_eq!(
            live(),
            baseline,
            "the last holder gone, the storage is retired"
        );
    }
    expect(GL_NO_ERROR);
}

#[test]
fn a_shader_deleted_while_attached_lives_until_detached() {
    let _ctx = context();
    let create_program = gl!(c"glCreateProgram": fn() -> u32);
    let attach = gl!(c"glAttachShader": fn(u32, u32));
    let detach = gl!(c"glDetachShader": fn(u32, u32));
    let link = gl!(c"glLinkProgram": fn(u32));
    let get_program = gl!(c"glGetProgramiv": fn(u32, u32, *mut i32));
    let get_shader = gl!(c"glGetShaderiv": fn(u32, u32, *mut i32));
    let is_shader = gl!(c"glIsShader": fn(u32) -> u8);
    let delete_shader = gl!(c"glDeleteShader": fn(u32));
    let delete_program = gl!(c"glDeleteProgram": fn(u32));
    let use_program = gl!(c"glUseProgram": fn(u32));
    let draw_arrays = gl!(c"glDrawArrays": fn(u32, i32, i32));
    let (vs, fs) = (shader(GL_VERTEX_SHADER, VS), shader(GL_FRAGMENT_SHADER, FS));
    strip_vao(&STRIP);
    // SAFETY: live names; out-pointers are locals.
    unsafe {
        let p = create_program();
        attach(p, vs);
        attach(p, fs);
        delete_shader(vs);
        delete_shader(fs);
        assert_eq!(is_shader(vs), 1, "flagged for deletion, still attached");
        let mut status = 0;
        get_shader(vs, GL_DELETE_STATUS, &mut status);
        assert_eq!(status, 1, "GL_DELETE_STATUS");
        // The flagged shaders still link.
        link(p);
        get_program(p, GL_LINK_STATUS, &mut status);
        assert_eq!(status, 1, "link with deleted shaders");
        use_program(p);
        tint(p, [0.0, 1.0, 0.0, 1.0]);
        clear_blue();
        draw_arrays(GL_TRIANGLE_STRIP, 0, 4);
        expect(GL_NO_ERROR);
        assert_eq!(pixel(16, 16), GREEN);
        detach(p, vs);
        assert_eq!(is_shader(vs), 0, "detached: deleted");
        assert_eq!(is_shader(fs), 1, "still attached");
        use_program(0);
        delete_program(p);
        assert_eq!(is_shader(fs), 0, "the program let go of it");
    }
    expect(GL_NO_ERROR);
}

// ---- sampler types per texture unit -------------------------------------------------------

const SAMPLERS_FS: &str = "#version 330 core\nuniform sampler2D flat2d;\nuniform sampler2D other2d;\nuniform sampler3D volume;\nout vec4 color;\nvoid main() { color = texture(flat2d, vec2(0.5)) + texture(other2d, vec2(0.5)) + texture(volume, vec3(0.5)) + vec4(0.0, 1.0, 0.0, 1.0); }\n";

#[test]
fn samplers_of_different_types_on_one_unit_cannot_draw() {
    let _ctx = context();
    let use_program = gl!(c"glUseProgram": fn(u32));
    let location = gl!(c"glGetUniformLocation": fn(u32, *const c_char) -> i32);
    let uniform = gl!(c"glUniform1i": fn(i32, i32));
    let validate = gl!(c"glValidateProgram": fn(u32));
    let get_program = gl!(c"glGetProgramiv": fn(u32, u32, *mut i32));
    let draw_arrays = gl!(c"glDrawArrays": fn(u32, i32, i32));
    let p = gl_harness::program(VS, SAMPLERS_FS);
    strip_vao(&STRIP);
    // SAFETY: a live program; NUL-terminated names; out-pointers are locals.
    unsafe {
        use_program(p);
        let [flat2d, other2d, volume] =
            [c"flat2d", c"other2d", c"volume"].map(|n| location(p, n.as_ptr()));
        let draw = || {
            clear_blue();
            draw_arrays(GL_TRIANGLE_STRIP, 0, 4);
        };
        let validated = || {
            validate(p);
            let mut ok = -1;
            get_program(p, GL_VALIDATE_STATUS, &mut ok);
            ok
        };
        // Every sampler starts on unit 0: the 3D one shares it with the 2D ones.
        draw();
        expect(GL_INVALID_OPERATION);
        assert_eq!(validated(), 0, "a sampler3D and a sampler2D on unit 0");
        // Different units: fine; two samplers of one type on one unit: fine.
        uniform(volume, 1);
        draw();
        expect(GL_NO_ERROR);
        assert_eq!(pixel(16, 16)[1], 255, "the draw ran");
        assert_eq!(validated(), 1, "the 2D samplers share unit 0");
        uniform(other2d, 1);
        uniform(flat2d, 2);
        draw();
        expect(GL_INVALID_OPERATION);
        assert_eq!(validated(), 0, "a sampler2D and the sampler3D on unit 1");
        uniform(other2d, 2);
        draw();
        expect(GL_NO_ERROR);
        assert_eq!(validated(), 1, "every unit read as one type");
    }
}
