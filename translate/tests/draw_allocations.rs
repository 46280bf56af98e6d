//! Heap allocations of a steady-state draw: a counting global allocator counts what this
//! thread allocates while a context repeats one textured, uniform-reading draw of unchanged
//! state into a framebuffer object (issue 20: per-draw CPU cost).
//!
//! The goal is zero; the bound below is what a draw allocates today, so that a change that adds
//! an allocation to the draw path fails here and one that removes some lowers the bound.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicU64, Ordering};

use arenagl_translate::gl::enums::*;
use arenagl_translate::gl::{Context, Device, DrawCall, Profile, ValueKind};

/// Heap allocations a steady-state draw of the scene below may make (see the module docs).
const MAX_ALLOCATIONS_PER_DRAW: u64 = 3;

/// Counts allocations made on threads that have `COUNTING` set.
struct Counting;

static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);

thread_local! {
    static COUNTING: Cell<bool> = const { Cell::new(false) };
}

fn note() {
    // `try_with`: a thread being torn down has no thread-locals left, and counts nothing.
    if COUNTING.try_with(Cell::get).unwrap_or(false) {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
    }
}

// SAFETY: every call is forwarded unchanged to the system allocator; counting touches only an
// atomic and a const-initialised thread-local, neither of which allocates.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note();
        // SAFETY: the caller's contract, passed on.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note();
        // SAFETY: the caller's contract, passed on.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note();
        // SAFETY: the caller's contract, passed on.
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract, passed on.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

const VERTEX: &str = "#version 330 core
layout(location = 0) in vec2 position;
uniform vec4 placement;
out vec2 uv;
void main() {
    uv = position;
    gl_Position = vec4(placement.xy + position * placement.zw, 0.0, 1.0);
}";

const FRAGMENT: &str = "#version 330 core
in vec2 uv;
uniform sampler2D blocks;
uniform vec4 tint;
out vec4 colour;
void main() { colour = texture(blocks, uv) * tint; }";

/// A linked program of the two stages above, current.
fn program(gl: &mut Context) -> u32 {
    let program = gl.create_program();
    for (ty, source) in [(GL_VERTEX_SHADER, VERTEX), (GL_FRAGMENT_SHADER, FRAGMENT)] {
        let shader = gl.create_shader(ty);
        gl.shader_source(shader, source.to_owned());
        gl.compile_shader(shader);
        gl.attach_shader(program, shader);
    }
    gl.link_program(program);
    assert_eq!(
        gl.get_error(),
        GL_NO_ERROR,
        "{}",
        gl.program_info_log(program)
    );
    gl.use_program(program);
    program
}

/// A 64² framebuffer object, a 4² texture on unit 0, a quad's vertex buffer and vertex array,
/// and the program with its uniforms set: the state every draw of the test repeats.
fn scene(gl: &mut Context) {
    let texture = gl.gen_textures(2);
    gl.bind_texture(GL_TEXTURE_2D, texture[0]);
    let rgba = GL_RGBA8 as i32;
    let (format, ty) = (GL_RGBA, GL_UNSIGNED_BYTE);
    gl.tex_image_2d(GL_TEXTURE_2D, 0, rgba, 64, 64, 0, format, ty, None);
    let fbo = gl.gen_framebuffers(1)[0];
    gl.bind_framebuffer(GL_FRAMEBUFFER, fbo);
    gl.framebuffer_texture_2d(
        GL_FRAMEBUFFER,
        GL_COLOR_ATTACHMENT0,
        GL_TEXTURE_2D,
        texture[0],
        0,
    );
    assert_eq!(
        gl.check_framebuffer_status(GL_FRAMEBUFFER),
        GL_FRAMEBUFFER_COMPLETE
    );
    gl.viewport(0, 0, 64, 64);
    gl.bind_texture(GL_TEXTURE_2D, texture[1]);
    gl.tex_parameter(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST as f32);
    let texels: Vec<u8> = (0..4 * 4 * 4).map(|i| (i * 37) as u8).collect();
    gl.tex_image_2d(GL_TEXTURE_2D, 0, rgba, 4, 4, 0, format, ty, Some(&texels));

    let vao = gl.gen_vertex_arrays(1)[0];
    gl.bind_vertex_array(vao);
    let vbo = gl.gen_buffers(1)[0];
    gl.bind_buffer(GL_ARRAY_BUFFER, vbo);
    let quad: Vec<u8> = [0.0f32, 0.0, 1.0, 0.0, 0.0, 1.0, 1.0, 1.0]
        .iter()
        .flat_map(|f| f.to_ne_bytes())
        .collect();
    gl.buffer_data(
        GL_ARRAY_BUFFER,
        quad.len() as i64,
        Some(&quad),
        GL_STATIC_DRAW,
    );
    // SAFETY: a buffer is bound, so the pointer is an offset into it.
    unsafe { gl.vertex_attrib_pointer(0, 2, GL_FLOAT, false, 8, 0, false) };
    gl.set_vertex_attrib_array(0, true);

    let program = program(gl);
    for (name, value) in [("placement", [-0.5f32, -0.5, 1.0, 1.0]), ("tint", [1.0; 4])] {
        let location = gl.get_uniform_location(program, name);
        let bits = value.map(f32::to_bits);
        gl.uniform(location, ValueKind::Float, 4, 1, &bits);
    }
    let location = gl.get_uniform_location(program, "blocks");
    gl.uniform(location, ValueKind::Int, 1, 1, &[0]);
    assert_eq!(gl.get_error(), GL_NO_ERROR, "scene setup");
}

fn draw(gl: &mut Context) {
    let call = DrawCall {
        mode: GL_TRIANGLE_STRIP,
        first: 0,
        count: 4,
        instances: 1,
        indexed: None,
        ..DrawCall::default()
    };
    // SAFETY: no client arrays and no client indices: a buffer and vertex array are bound.
    #[allow(unused_unsafe)]
    unsafe {
        gl.draw(call)
    };
}

/// Heap allocations per draw of `draws` draws of the scene's unchanged state.
fn allocations_per_draw(gl: &mut Context, draws: u64) -> f64 {
    ALLOCATIONS.store(0, Ordering::Relaxed);
    COUNTING.with(|c| c.set(true));
    for _ in 0..draws {
        draw(gl);
    }
    COUNTING.with(|c| c.set(false));
    ALLOCATIONS.load(Ordering::Relaxed) as f64 / draws as f64
}

#[test]
fn a_steady_state_draw_allocates_at_most_its_bound() {
    let device = Device::open().expect("a Vulkan device");
    let mut gl = Context::new(device.clone(), Profile::Core);
    scene(&mut gl);
    // Warm-up: the pipeline, the stand-in textures, the first descriptor sets, the pass.
    for _ in 0..8 {
        draw(&mut gl);
    }
    let per_draw = allocations_per_draw(&mut gl, 256);
    assert_eq!(gl.get_error(), GL_NO_ERROR, "draws");
    gl.finish();
    println!("heap allocations per steady-state draw: {per_draw:.2}");
    assert!(
        per_draw <= MAX_ALLOCATIONS_PER_DRAW as f64,
        "{per_draw:.2} heap allocations per steady-state draw (bound {MAX_ALLOCATIONS_PER_DRAW})"
    );
    assert_eq!(
        device.lock().manager.validation_error_count(),
        0,
        "validation errors (see stderr)"
    );
}
