//! Vulkan commands a draw records (issue 20: dirty tracking). A draw whose state did not change
//! since the last draw in the same render pass records its draw command alone; a changed
//! uniform moves only set 1's dynamic offset; a new render pass, a new command buffer or a
//! re-allocated buffer binds again, and the pixels show the state each draw was made with.
//! Counted with `Context::draw_commands_recorded`.

use arenagl_translate::gl::enums::*;
use arenagl_translate::gl::{Context, Device, DrawCall, Profile, ValueKind};

const VERTEX: &str = "#version 330 core
layout(location = 0) in vec2 position;
void main() { gl_Position = vec4(position, 0.0, 1.0); }";

const FRAGMENT: &str = "#version 330 core
uniform sampler2D white;
uniform vec4 tint;
out vec4 colour;
void main() { colour = texture(white, vec2(0.5)) * tint; }";

const SIZE: i32 = 16;

/// Float bits of `values`, as the vertex buffer holds them.
fn bytes(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|f| f.to_ne_bytes()).collect()
}

/// A quad from x = -1 to `right`, the whole height.
fn quad(right: f32) -> Vec<u8> {
    bytes(&[-1.0, -1.0, right, -1.0, -1.0, 1.0, right, 1.0])
}

/// A 16² framebuffer object, a white 1² texture on unit 0, an indexed quad and the program:
/// the state the draws repeat. Returns the program, the vertex buffer and the white texture.
fn scene(gl: &mut Context) -> (u32, u32, u32) {
    let textures = gl.gen_textures(2);
    let (rgba, format, ty) = (GL_RGBA8 as i32, GL_RGBA, GL_UNSIGNED_BYTE);
    gl.bind_texture(GL_TEXTURE_2D, textures[0]);
    gl.tex_image_2d(GL_TEXTURE_2D, 0, rgba, SIZE, SIZE, 0, format, ty, None);
    let fbo = gl.gen_framebuffers(1)[0];
    gl.bind_framebuffer(GL_FRAMEBUFFER, fbo);
    let attachment = GL_COLOR_ATTACHMENT0;
    gl.framebuffer_texture_2d(GL_FRAMEBUFFER, attachment, GL_TEXTURE_2D, textures[0], 0);
    gl.viewport(0, 0, SIZE, SIZE);
    gl.bind_texture(GL_TEXTURE_2D, textures[1]);
    gl.tex_parameter(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST as f32);
    let white = [255u8; 4];
    gl.tex_image_2d(GL_TEXTURE_2D, 0, rgba, 1, 1, 0, format, ty, Some(&white));

    let vao = gl.gen_vertex_arrays(1)[0];
    gl.bind_vertex_array(vao);
    let buffers = gl.gen_buffers(2);
    gl.bind_buffer(GL_ARRAY_BUFFER, buffers[0]);
    let vertices = quad(1.0);
    gl.buffer_data(
        GL_ARRAY_BUFFER,
        vertices.len() as i64,
        Some(&vertices),
        GL_STATIC_DRAW,
    );
    // SAFETY: a buffer is bound, so the pointer is an offset into it.
    unsafe { gl.vertex_attrib_pointer(0, 2, GL_FLOAT, false, 8, 0, false) };
    gl.set_vertex_attrib_array(0, true);
    gl.bind_buffer(GL_ELEMENT_ARRAY_BUFFER, buffers[1]);
    let indices: Vec<u8> = [0u16, 1, 2, 2, 1, 3]
        .iter()
        .flat_map(|i| i.to_ne_bytes())
        .collect();
    gl.buffer_data(
        GL_ELEMENT_ARRAY_BUFFER,
        indices.len() as i64,
        Some(&indices),
        GL_STATIC_DRAW,
    );

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
    let location = gl.get_uniform_location(program, "white");
    gl.uniform(location, ValueKind::Int, 1, 1, &[0]);
    set_tint(gl, program, [1.0, 0.0, 0.0, 1.0]);
    assert_eq!(gl.get_error(), GL_NO_ERROR, "scene setup");
    (program, buffers[0], textures[1])
}

fn set_tint(gl: &mut Context, program: u32, tint: [f32; 4]) {
    let location = gl.get_uniform_location(program, "tint");
    gl.uniform(location, ValueKind::Float, 4, 1, &tint.map(f32::to_bits));
}

/// The indexed quad.
fn draw(gl: &mut Context) {
    let call = DrawCall {
        mode: GL_TRIANGLES,
        count: 6,
        instances: 1,
        indexed: Some((GL_UNSIGNED_SHORT, 0, 0)),
        ..DrawCall::default()
    };
    // SAFETY: no client arrays and no client indices: buffers and a vertex array are bound.
    #[allow(unused_unsafe)]
    unsafe {
        gl.draw(call)
    };
}

/// The commands `draws` calls of `step` then `draw` record.
fn commands_of(gl: &mut Context, draws: u64, mut step: impl FnMut(&mut Context, u64)) -> u64 {
    let before = gl.draw_commands_recorded();
    for i in 0..draws {
        step(gl, i);
        draw(gl);
    }
    assert_eq!(gl.get_error(), GL_NO_ERROR, "draws");
    gl.draw_commands_recorded() - before
}

/// The RGBA8 pixel at (x, 8) of the framebuffer.
fn pixel(gl: &mut Context, x: i32) -> [u8; 4] {
    let mut out = [0u8; 4];
    gl.read_pixels(x, SIZE / 2, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, &mut out);
    assert_eq!(gl.get_error(), GL_NO_ERROR, "glReadPixels");
    out
}

fn open() -> (std::sync::Arc<Device>, Context) {
    let device = Device::open().expect("a Vulkan device");
    let gl = Context::new(device.clone(), Profile::Core);
    (device, gl)
}

fn no_validation_errors(device: &Device) {
    assert_eq!(
        device.lock().manager.validation_error_count(),
        0,
        "validation errors (see stderr)"
    );
}

#[test]
fn an_unchanged_draw_records_only_its_draw_command() {
    let (device, mut gl) = open();
    let (program, _, _) = scene(&mut gl);
    draw(&mut gl); // the first draw of the pass binds everything
    assert_eq!(
        commands_of(&mut gl, 64, |_, _| {}),
        64,
        "one command a draw"
    );
    // The same uniform values set again move nothing either.
    let same = |gl: &mut Context, _| set_tint(gl, program, [1.0, 0.0, 0.0, 1.0]);
    assert_eq!(
        commands_of(&mut gl, 16, same),
        16,
        "uniforms set to their values"
    );
    assert_eq!(pixel(&mut gl, 8), [255, 0, 0, 255]);
    no_validation_errors(&device);
}

#[test]
fn a_changed_uniform_rebinds_only_set_1() {
    let (device, mut gl) = open();
    let (program, _, _) = scene(&mut gl);
    draw(&mut gl);
    let tints = [[0.0, 1.0, 0.0, 1.0], [0.0, 0.0, 1.0, 1.0]];
    let alternate = |gl: &mut Context, i: u64| set_tint(gl, program, tints[i as usize % 2]);
    assert_eq!(
        commands_of(&mut gl, 32, alternate),
        64,
        "set 1 and the draw"
    );
    assert_eq!(pixel(&mut gl, 8), [0, 0, 255, 255], "the last draw's tint");
    no_validation_errors(&device);
}

#[test]
fn a_new_pass_or_a_reallocated_buffer_binds_again() {
    let (device, mut gl) = open();
    let (program, vbo, _) = scene(&mut gl);
    draw(&mut gl);
    gl.finish(); // a new command buffer: nothing bound in it
    let first = commands_of(&mut gl, 1, |_, _| {});
    assert!(
        first > 4,
        "a draw in a new pass binds again ({first} commands)"
    );
    // The vertex buffer re-allocated (orphaned) with a half-width quad, drawn green over a
    // cleared target: the draw must read the new buffer.
    gl.clear_color([0.0; 4]);
    gl.clear(GL_COLOR_BUFFER_BIT);
    set_tint(&mut gl, program, [0.0, 1.0, 0.0, 1.0]);
    gl.bind_buffer(GL_ARRAY_BUFFER, vbo);
    let half = quad(0.0);
    gl.buffer_data(
        GL_ARRAY_BUFFER,
        half.len() as i64,
        Some(&half),
        GL_STREAM_DRAW,
    );
    assert!(
        commands_of(&mut gl, 1, |_, _| {}) > 1,
        "the new buffer is bound"
    );
    assert_eq!(pixel(&mut gl, 2), [0, 255, 0, 255], "inside the half quad");
    assert_eq!(pixel(&mut gl, 13), [0, 0, 0, 0], "outside it");
    no_validation_errors(&device);
}

#[test]
fn alternating_textures_sample_the_one_each_draw_binds() {
    let (device, mut gl) = open();
    let (program, _, white) = scene(&mut gl);
    set_tint(&mut gl, program, [1.0; 4]);
    let blue = gl.gen_textures(1)[0];
    gl.bind_texture(GL_TEXTURE_2D, blue);
    gl.tex_parameter(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST as f32);
    let texel = [0u8, 0, 255, 255];
    let (rgba, format, ty) = (GL_RGBA8 as i32, GL_RGBA, GL_UNSIGNED_BYTE);
    gl.tex_image_2d(GL_TEXTURE_2D, 0, rgba, 1, 1, 0, format, ty, Some(&texel));
    // In one pass each: from the third draw on, each switch finds its texture's set again;
    // the last draw samples its own texture, not the first set or the last one bound.
    let white_pixel = [255; 4];
    for (sequence, want) in [
        ([white, blue, white, blue, white, blue], texel),
        ([blue, white, blue, white, blue, white], white_pixel),
    ] {
        for texture in sequence {
            gl.bind_texture(GL_TEXTURE_2D, texture);
            draw(&mut gl);
        }
        assert_eq!(pixel(&mut gl, 8), want, "the last draw's texture");
    }
    no_validation_errors(&device);
}
