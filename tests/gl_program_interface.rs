//! `GL_ARB_program_interface_query` through the C ABI: resource counts, names, indices,
//! properties and locations of uniforms, uniform blocks, vertex inputs and fragment outputs of
//! a linked program, and the errors GL specifies.

use std::ffi::{c_char, CStr};

#[macro_use]
#[path = "common/gl.rs"]
mod gl_harness;

use gl_harness::{context, expect, f, program};

const GL_NO_ERROR: u32 = 0;
const GL_INVALID_ENUM: u32 = 0x0500;
const GL_INVALID_VALUE: u32 = 0x0501;
const GL_INVALID_OPERATION: u32 = 0x0502;
const GL_INVALID_INDEX: u32 = 0xFFFF_FFFF;
const GL_FLOAT_VEC4: i32 = 0x8B52;
const GL_FLOAT_MAT4: i32 = 0x8B5C;
const GL_UNIFORM: u32 = 0x92E1;
const GL_UNIFORM_BLOCK: u32 = 0x92E2;
const GL_PROGRAM_INPUT: u32 = 0x92E3;
const GL_PROGRAM_OUTPUT: u32 = 0x92E4;
const GL_ATOMIC_COUNTER_BUFFER: u32 = 0x92C0;
const GL_ACTIVE_RESOURCES: u32 = 0x92F5;
const GL_MAX_NAME_LENGTH: u32 = 0x92F6;
const GL_MAX_NUM_ACTIVE_VARIABLES: u32 = 0x92F7;
const GL_NAME_LENGTH: u32 = 0x92F9;
const GL_TYPE: u32 = 0x92FA;
const GL_ARRAY_SIZE: u32 = 0x92FB;
const GL_OFFSET: u32 = 0x92FC;
const GL_BLOCK_INDEX: u32 = 0x92FD;
const GL_BUFFER_BINDING: u32 = 0x9302;
const GL_NUM_ACTIVE_VARIABLES: u32 = 0x9304;
const GL_REFERENCED_BY_FRAGMENT_SHADER: u32 = 0x930A;
const GL_LOCATION: u32 = 0x930E;

const VS: &str = "#version 150\n\
    in vec4 position;\n\
    in vec4 weights[2];\n\
    uniform mat4 transform;\n\
    void main() { gl_Position = transform * position + weights[1]; }\n";

const FS: &str = "#version 150\n\
    uniform Lights { vec4 ambient; vec4 diffuse; };\n\
    uniform vec4 tint[3];\n\
    out vec4 colour;\n\
    void main() { colour = ambient + diffuse + tint[2]; }\n";

fn interface_iv(p: u32, iface: u32, pname: u32) -> i32 {
    let get = gl!(c"glGetProgramInterfaceiv": fn(u32, u32, u32, *mut i32));
    let mut v = -7;
    // SAFETY: one value into a local.
    unsafe { get(p, iface, pname, &mut v) };
    v
}

fn index(p: u32, iface: u32, name: &CStr) -> u32 {
    let get = gl!(c"glGetProgramResourceIndex": fn(u32, u32, *const c_char) -> u32);
    // SAFETY: a NUL-terminated name.
    unsafe { get(p, iface, name.as_ptr()) }
}

fn location(p: u32, iface: u32, name: &CStr) -> i32 {
    let get = gl!(c"glGetProgramResourceLocation": fn(u32, u32, *const c_char) -> i32);
    // SAFETY: a NUL-terminated name.
    unsafe { get(p, iface, name.as_ptr()) }
}

fn name(p: u32, iface: u32, i: u32) -> String {
    let get = gl!(c"glGetProgramResourceName": fn(u32, u32, u32, i32, *mut i32, *mut c_char));
    let mut buf = [0u8; 64];
    let mut len = 0;
    // SAFETY: `buf.len()` bytes into a local buffer.
    unsafe {
        get(
            p,
            iface,
            i,
            buf.len() as i32,
            &mut len,
            buf.as_mut_ptr().cast(),
        )
    };
    String::from_utf8_lossy(&buf[..len.max(0) as usize]).into_owned()
}

fn props(p: u32, iface: u32, i: u32, props: &[u32]) -> Vec<i32> {
    let get =
        gl!(c"glGetProgramResourceiv": fn(u32, u32, u32, i32, *const u32, i32, *mut i32, *mut i32));
    let mut out = [-7i32; 16];
    let mut len = 0;
    // SAFETY: `props.len()` properties in, at most `out.len()` values out.
    unsafe {
        get(
            p,
            iface,
            i,
            props.len() as i32,
            props.as_ptr(),
            out.len() as i32,
            &mut len,
            out.as_mut_ptr(),
        )
    };
    out[..len.max(0) as usize].to_vec()
}

#[test]
fn resources_of_a_linked_program() {
    let _ctx = context();
    let p = program(VS, FS);
    expect(GL_NO_ERROR);

    // Uniforms: `transform`, `tint[0]` and the two block members.
    assert_eq!(interface_iv(p, GL_UNIFORM, GL_ACTIVE_RESOURCES), 4);
    assert_eq!(
        interface_iv(p, GL_UNIFORM, GL_MAX_NAME_LENGTH),
        "transform".len() as i32 + 1
    );
    let tint = index(p, GL_UNIFORM, c"tint");
    assert_ne!(tint, GL_INVALID_INDEX);
    assert_eq!(index(p, GL_UNIFORM, c"tint[0]"), tint);
    assert_eq!(index(p, GL_UNIFORM, c"missing"), GL_INVALID_INDEX);
    assert_eq!(name(p, GL_UNIFORM, tint), "tint[0]");
    assert_eq!(
        props(
            p,
            GL_UNIFORM,
            tint,
            &[GL_TYPE, GL_ARRAY_SIZE, GL_BLOCK_INDEX, GL_OFFSET]
        ),
        [GL_FLOAT_VEC4, 3, -1, -1]
    );
    let transform = index(p, GL_UNIFORM, c"transform");
    assert_eq!(props(p, GL_UNIFORM, transform, &[GL_TYPE]), [GL_FLOAT_MAT4]);
    let tint_location = location(p, GL_UNIFORM, c"tint");
    assert!(tint_location >= 0);
    assert_eq!(location(p, GL_UNIFORM, c"tint[2]"), tint_location + 2);
    let diffuse = index(p, GL_UNIFORM, c"diffuse");
    assert_eq!(
        props(p, GL_UNIFORM, diffuse, &[GL_BLOCK_INDEX, GL_OFFSET]),
        [0, 16]
    );

    // The block.
    assert_eq!(interface_iv(p, GL_UNIFORM_BLOCK, GL_ACTIVE_RESOURCES), 1);
    assert_eq!(
        interface_iv(p, GL_UNIFORM_BLOCK, GL_MAX_NUM_ACTIVE_VARIABLES),
        2
    );
    assert_eq!(index(p, GL_UNIFORM_BLOCK, c"Lights"), 0);
    let block_binding = gl!(c"glUniformBlockBinding": fn(u32, u32, u32));
    // SAFETY: plain GL call.
    unsafe { block_binding(p, 0, 5) };
    assert_eq!(
        props(
            p,
            GL_UNIFORM_BLOCK,
            0,
            &[
                GL_NAME_LENGTH,
                GL_BUFFER_BINDING,
                GL_NUM_ACTIVE_VARIABLES,
                GL_REFERENCED_BY_FRAGMENT_SHADER
            ]
        ),
        [7, 5, 2, 1]
    );

    // Vertex inputs and fragment outputs.
    assert_eq!(interface_iv(p, GL_PROGRAM_INPUT, GL_ACTIVE_RESOURCES), 2);
    let position = location(p, GL_PROGRAM_INPUT, c"position");
    let get_attrib = gl!(c"glGetAttribLocation": fn(u32, *const c_char) -> i32);
    // SAFETY: a NUL-terminated name.
    assert_eq!(position, unsafe { get_attrib(p, c"position".as_ptr()) });
    let weights = index(p, GL_PROGRAM_INPUT, c"weights");
    assert_ne!(weights, GL_INVALID_INDEX);
    assert_eq!(props(p, GL_PROGRAM_INPUT, weights, &[GL_ARRAY_SIZE]), [2]);
    assert_eq!(interface_iv(p, GL_PROGRAM_OUTPUT, GL_ACTIVE_RESOURCES), 1);
    assert_eq!(location(p, GL_PROGRAM_OUTPUT, c"colour"), 0);
    assert_eq!(
        props(p, GL_PROGRAM_OUTPUT, 0, &[GL_TYPE, GL_LOCATION]),
        [GL_FLOAT_VEC4, 0]
    );
    expect(GL_NO_ERROR);
}

#[test]
fn interface_query_errors() {
    let _ctx = context();
    let p = program(VS, FS);
    // Not a property of this interface; not a property at all; out-of-range index.
    assert!(props(p, GL_PROGRAM_INPUT, 0, &[GL_BUFFER_BINDING]).is_empty());
    expect(GL_INVALID_OPERATION);
    assert!(props(p, GL_UNIFORM, 0, &[0x1234]).is_empty());
    expect(GL_INVALID_ENUM);
    assert!(props(p, GL_UNIFORM, 99, &[GL_TYPE]).is_empty());
    expect(GL_INVALID_VALUE);
    // Atomic-counter buffers have no names; a bad interface; a bad program.
    assert_eq!(index(p, GL_ATOMIC_COUNTER_BUFFER, c"x"), GL_INVALID_INDEX);
    expect(GL_INVALID_ENUM);
    assert_eq!(
        interface_iv(p, GL_ATOMIC_COUNTER_BUFFER, GL_MAX_NAME_LENGTH),
        -7
    );
    expect(GL_INVALID_OPERATION);
    assert_eq!(interface_iv(p, GL_UNIFORM, GL_MAX_NUM_ACTIVE_VARIABLES), -7);
    expect(GL_INVALID_OPERATION);
    assert_eq!(index(p, 0x1234, c"x"), GL_INVALID_INDEX);
    expect(GL_INVALID_ENUM);
    assert_eq!(interface_iv(p + 100, GL_UNIFORM, GL_ACTIVE_RESOURCES), -7);
    expect(GL_INVALID_VALUE);
}
