//! Framebuffer attachments that outlive their names, through the C ABI.
//!
//! Deleting a texture or renderbuffer frees its name at once, but a framebuffer object that is
//! not bound keeps it attached: the object (and its image) lives on until the last framebuffer
//! holding it lets go — detached, replaced by another attachment, or the framebuffer deleted.
//! Rendering into and reading from that framebuffer keep working, its attachment queries keep
//! reporting the old name, and a new object never slips into the attachment. The framebuffers
//! bound when the object is deleted lose the attachment at once.
//!
//! Each test makes its own context on a 32×32 pbuffer; the validation layer must stay silent.

use std::ffi::c_void;

#[macro_use]
#[path = "common/gl.rs"]
mod gl_harness;

use gl_harness::{context, expect, f};

const GL_NO_ERROR: u32 = 0;
const GL_INVALID_OPERATION: u32 = 0x0502;
const GL_NONE: u32 = 0;
const GL_TEXTURE: u32 = 0x1702;
const GL_TEXTURE_2D: u32 = 0x0DE1;
const GL_TEXTURE_MIN_FILTER: u32 = 0x2801;
const GL_NEAREST: i32 = 0x2600;
const GL_RGBA: u32 = 0x1908;
const GL_RGBA8: u32 = 0x8058;
const GL_UNSIGNED_BYTE: u32 = 0x1401;
const GL_COLOR_BUFFER_BIT: u32 = 0x4000;
const GL_FRAMEBUFFER: u32 = 0x8D40;
const GL_READ_FRAMEBUFFER: u32 = 0x8CA8;
const GL_DRAW_FRAMEBUFFER: u32 = 0x8CA9;
const GL_RENDERBUFFER: u32 = 0x8D41;
const GL_COLOR_ATTACHMENT0: u32 = 0x8CE0;
const GL_FRAMEBUFFER_COMPLETE: u32 = 0x8CD5;
const GL_FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT: u32 = 0x8CD7;
const GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE: u32 = 0x8CD0;
const GL_FRAMEBUFFER_ATTACHMENT_OBJECT_NAME: u32 = 0x8CD1;

const RED: [u8; 4] = [255, 0, 0, 255];
const GREEN: [u8; 4] = [0, 255, 0, 255];
const BLUE: [u8; 4] = [0, 0, 255, 255];

// ---- helpers ------------------------------------------------------------------------------

/// A new `size`×`size` RGBA8 texture filled with `colour` (nearest filtering, one level).
fn texture(size: i32, colour: [u8; 4]) -> u32 {
    let gen = gl!(c"glGenTextures": fn(i32, *mut u32));
    let bind = gl!(c"glBindTexture": fn(u32, u32));
    let image = gl!(c"glTexImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let parameter = gl!(c"glTexParameteri": fn(u32, u32, i32));
    let texels: Vec<u8> = colour
        .iter()
        .copied()
        .cycle()
        .take((size * size * 4) as usize)
        .collect();
    // SAFETY: `texels` holds size×size RGBA8 texels; the out-pointer is a local.
    unsafe {
        let mut t = 0;
        gen(1, &mut t);
        bind(GL_TEXTURE_2D, t);
        image(
            GL_TEXTURE_2D,
            0,
            GL_RGBA8 as i32,
            size,
            size,
            0,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            texels.as_ptr().cast(),
        );
        parameter(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        bind(GL_TEXTURE_2D, 0);
        t
    }
}

/// A new 16×16 RGBA8 renderbuffer (left unbound).
fn renderbuffer() -> u32 {
    let gen = gl!(c"glGenRenderbuffers": fn(i32, *mut u32));
    let bind = gl!(c"glBindRenderbuffer": fn(u32, u32));
    let storage = gl!(c"glRenderbufferStorage": fn(u32, u32, i32, i32));
    // SAFETY: the out-pointer is a local; plain values.
    unsafe {
        let mut rb = 0;
        gen(1, &mut rb);
        bind(GL_RENDERBUFFER, rb);
        storage(GL_RENDERBUFFER, GL_RGBA8, 16, 16);
        bind(GL_RENDERBUFFER, 0);
        rb
    }
}

fn bind_framebuffer(target: u32, fb: u32) {
    let bind = gl!(c"glBindFramebuffer": fn(u32, u32));
    // SAFETY: plain values.
    unsafe { bind(target, fb) };
}

/// A new framebuffer, left bound to both targets.
fn framebuffer() -> u32 {
    let gen = gl!(c"glGenFramebuffers": fn(i32, *mut u32));
    // SAFETY: the out-pointer is a local.
    let fb = unsafe {
        let mut fb = 0;
        gen(1, &mut fb);
        fb
    };
    bind_framebuffer(GL_FRAMEBUFFER, fb);
    fb
}

/// Attaches level 0 of 2D texture `t` (0: detaches) as colour attachment 0 of the bound
/// framebuffer.
fn attach_texture(t: u32) {
    let attach = gl!(c"glFramebufferTexture2D": fn(u32, u32, u32, u32, i32));
    // SAFETY: plain values.
    unsafe { attach(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, t, 0) };
}

/// Attaches renderbuffer `rb` as colour attachment 0 of the bound framebuffer.
fn attach_renderbuffer(rb: u32) {
    let attach = gl!(c"glFramebufferRenderbuffer": fn(u32, u32, u32, u32));
    // SAFETY: plain values.
    unsafe { attach(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb) };
}

/// A new framebuffer (left bound) whose colour attachment 0 is texture `t`.
fn framebuffer_of_texture(t: u32) -> u32 {
    let fb = framebuffer();
    attach_texture(t);
    assert_eq!(status(GL_FRAMEBUFFER), GL_FRAMEBUFFER_COMPLETE);
    fb
}

fn status(target: u32) -> u32 {
    let check = gl!(c"glCheckFramebufferStatus": fn(u32) -> u32);
    // SAFETY: plain values.
    unsafe { check(target) }
}

/// Clears the 16×16 draw framebuffer to `c`.
fn clear_to(c: [f32; 4]) {
    let viewport = gl!(c"glViewport": fn(i32, i32, i32, i32));
    let clear_color = gl!(c"glClearColor": fn(f32, f32, f32, f32));
    let clear = gl!(c"glClear": fn(u32));
    // SAFETY: plain values.
    unsafe {
        viewport(0, 0, 16, 16);
        clear_color(c[0], c[1], c[2], c[3]);
        clear(GL_COLOR_BUFFER_BIT);
    }
}

/// The pixel at (`x`, `y`) of the read framebuffer.
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

/// `pname` of colour attachment 0 of the framebuffer bound to `target`.
fn attachment(target: u32, pname: u32) -> i32 {
    let get = gl!(c"glGetFramebufferAttachmentParameteriv": fn(u32, u32, u32, *mut i32));
    let mut v = -7;
    // SAFETY: the out-pointer is a local.
    unsafe { get(target, GL_COLOR_ATTACHMENT0, pname, &mut v) };
    v
}

/// (object type, object name) of colour attachment 0 of the framebuffer bound to `target`.
fn attached(target: u32) -> (u32, u32) {
    (
        attachment(target, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE) as u32,
        attachment(target, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_NAME) as u32,
    )
}

fn delete_textures(names: &[u32]) {
    let delete = gl!(c"glDeleteTextures": fn(i32, *const u32));
    // SAFETY: `names` holds `len` names.
    unsafe { delete(names.len() as i32, names.as_ptr()) };
}

fn delete_renderbuffers(names: &[u32]) {
    let delete = gl!(c"glDeleteRenderbuffers": fn(i32, *const u32));
    // SAFETY: `names` holds `len` names.
    unsafe { delete(names.len() as i32, names.as_ptr()) };
}

fn delete_framebuffers(names: &[u32]) {
    let delete = gl!(c"glDeleteFramebuffers": fn(i32, *const u32));
    // SAFETY: `names` holds `len` names.
    unsafe { delete(names.len() as i32, names.as_ptr()) };
}

fn is_texture(name: u32) -> bool {
    let is = gl!(c"glIsTexture": fn(u32) -> u8);
    // SAFETY: plain values.
    unsafe { is(name) != 0 }
}

fn is_renderbuffer(name: u32) -> bool {
    let is = gl!(c"glIsRenderbuffer": fn(u32) -> u8);
    // SAFETY: plain values.
    unsafe { is(name) != 0 }
}

/// Buffers and images the device holds for clients, once the GPU has caught up.
fn live() -> u64 {
    let finish = gl!(c"glFinish": fn());
    // SAFETY: no arguments.
    unsafe { finish() };
    gl_harness::memory_stat(c"client_objects_live")
}

// ---- tests --------------------------------------------------------------------------------

#[test]
fn a_texture_deleted_while_an_unbound_framebuffer_holds_it_stays_attached() {
    let _ctx = context();
    let tex = texture(16, RED);
    let fb = framebuffer_of_texture(tex);
    bind_framebuffer(GL_FRAMEBUFFER, 0);
    delete_textures(&[tex]);
    expect(GL_NO_ERROR);
    assert!(!is_texture(tex), "the name is freed at once");

    bind_framebuffer(GL_FRAMEBUFFER, fb);
    assert_eq!(
        status(GL_FRAMEBUFFER),
        GL_FRAMEBUFFER_COMPLETE,
        "the framebuffer still has its texture"
    );
    assert_eq!(
        attached(GL_FRAMEBUFFER),
        (GL_TEXTURE, tex),
        "the attachment reports the name the texture had"
    );
    assert_eq!(pixel(5, 9), RED, "the texture's contents are still there");
    clear_to([0.0, 1.0, 0.0, 1.0]);
    assert_eq!(pixel(0, 0), GREEN);
    assert_eq!(pixel(15, 15), GREEN);
    expect(GL_NO_ERROR);

    bind_framebuffer(GL_FRAMEBUFFER, 0);
    delete_framebuffers(&[fb]);
    expect(GL_NO_ERROR);
}

#[test]
fn a_renderbuffer_deleted_while_an_unbound_framebuffer_holds_it_stays_attached() {
    let _ctx = context();
    let rb = renderbuffer();
    let fb = framebuffer();
    attach_renderbuffer(rb);
    assert_eq!(status(GL_FRAMEBUFFER), GL_FRAMEBUFFER_COMPLETE);
    clear_to([1.0, 0.0, 0.0, 1.0]);
    bind_framebuffer(GL_FRAMEBUFFER, 0);
    delete_renderbuffers(&[rb]);
    expect(GL_NO_ERROR);
    assert!(!is_renderbuffer(rb), "the name is freed at once");

    bind_framebuffer(GL_FRAMEBUFFER, fb);
    assert_eq!(
        status(GL_FRAMEBUFFER),
        GL_FRAMEBUFFER_COMPLETE,
        "the framebuffer still has its renderbuffer"
    );
    assert_eq!(
        attached(GL_FRAMEBUFFER),
        (GL_RENDERBUFFER, rb),
        "the attachment reports the name the renderbuffer had"
    );
    assert_eq!(
        pixel(7, 3),
        RED,
        "the renderbuffer's contents are still there"
    );
    clear_to([0.0, 0.0, 1.0, 1.0]);
    assert_eq!(pixel(0, 0), BLUE);
    assert_eq!(pixel(15, 15), BLUE);
    expect(GL_NO_ERROR);

    bind_framebuffer(GL_FRAMEBUFFER, 0);
    delete_framebuffers(&[fb]);
    expect(GL_NO_ERROR);
}

#[test]
fn new_objects_never_slip_into_the_attachment_of_a_deleted_one() {
    let _ctx = context();
    let bind_texture = gl!(c"glBindTexture": fn(u32, u32));
    let bind_renderbuffer = gl!(c"glBindRenderbuffer": fn(u32, u32));
    let tex = texture(16, RED);
    let fb = framebuffer_of_texture(tex);
    let rb = renderbuffer();
    let fb_rb = framebuffer();
    attach_renderbuffer(rb);
    clear_to([0.0, 1.0, 0.0, 1.0]);
    bind_framebuffer(GL_FRAMEBUFFER, 0);
    delete_textures(&[tex]);
    delete_renderbuffers(&[rb]);
    expect(GL_NO_ERROR);
    assert!(!is_texture(tex) && !is_renderbuffer(rb));

    // The old names are no objects any more: binding or attaching them is an error, and the
    // framebuffers' hold on the deleted objects gives no way back to them.
    // SAFETY: plain values.
    unsafe { bind_texture(GL_TEXTURE_2D, tex) };
    expect(GL_INVALID_OPERATION);
    // SAFETY: plain values.
    unsafe { bind_renderbuffer(GL_RENDERBUFFER, rb) };
    expect(GL_INVALID_OPERATION);
    let other = framebuffer();
    attach_texture(tex);
    expect(GL_INVALID_OPERATION);
    attach_renderbuffer(rb);
    expect(GL_INVALID_OPERATION);
    assert_eq!(attached(GL_FRAMEBUFFER), (GL_NONE, 0));

    // New objects, smaller and of another colour, in the new framebuffer.
    let fresh = texture(8, BLUE);
    let fresh_rb = renderbuffer();
    assert!(is_texture(fresh) && is_renderbuffer(fresh_rb));
    attach_texture(fresh);
    assert_eq!(status(GL_FRAMEBUFFER), GL_FRAMEBUFFER_COMPLETE);
    assert_eq!(attached(GL_FRAMEBUFFER), (GL_TEXTURE, fresh));

    bind_framebuffer(GL_FRAMEBUFFER, fb);
    assert_eq!(status(GL_FRAMEBUFFER), GL_FRAMEBUFFER_COMPLETE);
    assert_eq!(attached(GL_FRAMEBUFFER), (GL_TEXTURE, tex));
    assert_eq!(
        pixel(15, 15),
        RED,
        "16×16 and red: still the deleted texture"
    );
    clear_to([0.0, 1.0, 0.0, 1.0]);
    assert_eq!(pixel(15, 15), GREEN);

    bind_framebuffer(GL_FRAMEBUFFER, fb_rb);
    assert_eq!(status(GL_FRAMEBUFFER), GL_FRAMEBUFFER_COMPLETE);
    assert_eq!(attached(GL_FRAMEBUFFER), (GL_RENDERBUFFER, rb));
    assert_eq!(pixel(15, 15), GREEN, "still the deleted renderbuffer");

    bind_framebuffer(GL_FRAMEBUFFER, other);
    assert_eq!(
        pixel(7, 7),
        BLUE,
        "drawing into the old one left the new one alone"
    );
    expect(GL_NO_ERROR);

    bind_framebuffer(GL_FRAMEBUFFER, 0);
    delete_framebuffers(&[fb, fb_rb, other]);
    delete_textures(&[fresh]);
    delete_renderbuffers(&[fresh_rb]);
    expect(GL_NO_ERROR);
}

#[test]
fn a_deleted_attachment_is_released_with_the_last_framebuffer_that_holds_it() {
    let _ctx = context();
    let baseline = live();

    // A texture held by two framebuffers: gone with the second.
    let tex = texture(16, RED);
    let first = framebuffer_of_texture(tex);
    let second = framebuffer_of_texture(tex);
    bind_framebuffer(GL_FRAMEBUFFER, 0);
    assert_eq!(live(), baseline + 1);
    delete_textures(&[tex]);
    assert_eq!(
        live(),
        baseline + 1,
        "both framebuffers still hold the texture"
    );
    delete_framebuffers(&[first]);
    assert_eq!(
        live(),
        baseline + 1,
        "the second framebuffer still holds it"
    );
    delete_framebuffers(&[second]);
    assert_eq!(
        live(),
        baseline,
        "the last holder gone, the image is retired"
    );

    // Detaching lets go too, even from the framebuffer while it is bound.
    let tex = texture(16, RED);
    let fb = framebuffer_of_texture(tex);
    bind_framebuffer(GL_FRAMEBUFFER, 0);
    delete_textures(&[tex]);
    assert_eq!(live(), baseline + 1);
    bind_framebuffer(GL_FRAMEBUFFER, fb);
    attach_texture(0);
    expect(GL_NO_ERROR);
    assert_eq!(live(), baseline, "detached: the image is retired");

    // So does attaching something else in its place.
    let rb = renderbuffer();
    attach_renderbuffer(rb);
    bind_framebuffer(GL_FRAMEBUFFER, 0);
    delete_renderbuffers(&[rb]);
    assert_eq!(
        live(),
        baseline + 1,
        "the framebuffer holds the renderbuffer"
    );
    bind_framebuffer(GL_FRAMEBUFFER, fb);
    let replacement = renderbuffer();
    attach_renderbuffer(replacement);
    assert_eq!(status(GL_FRAMEBUFFER), GL_FRAMEBUFFER_COMPLETE);
    assert_eq!(
        live(),
        baseline + 1,
        "replaced: only the new renderbuffer is left"
    );
    delete_renderbuffers(&[replacement]);
    assert_eq!(
        live(),
        baseline,
        "deleted while bound: detached and retired"
    );
    assert_eq!(attached(GL_FRAMEBUFFER), (GL_NONE, 0));

    bind_framebuffer(GL_FRAMEBUFFER, 0);
    delete_framebuffers(&[fb]);
    assert_eq!(live(), baseline);
    expect(GL_NO_ERROR);
}

#[test]
fn deleting_detaches_from_the_bound_framebuffers_only() {
    let _ctx = context();
    let baseline = live();

    // Alone in the bound framebuffer: detached and retired at once.
    let tex = texture(16, RED);
    let fb = framebuffer_of_texture(tex);
    delete_textures(&[tex]);
    assert_eq!(attached(GL_FRAMEBUFFER), (GL_NONE, 0));
    assert_eq!(
        status(GL_FRAMEBUFFER),
        GL_FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT
    );
    assert_eq!(live(), baseline, "nothing holds the texture any more");

    // Attached to the bound draw and read framebuffers and to one that is not bound: only the
    // unbound one keeps it.
    let tex = texture(16, RED);
    let kept = framebuffer_of_texture(tex);
    let read = framebuffer_of_texture(tex);
    bind_framebuffer(GL_FRAMEBUFFER, fb);
    attach_texture(tex);
    bind_framebuffer(GL_READ_FRAMEBUFFER, read);
    delete_textures(&[tex]);
    expect(GL_NO_ERROR);
    assert_eq!(attached(GL_DRAW_FRAMEBUFFER), (GL_NONE, 0));
    assert_eq!(attached(GL_READ_FRAMEBUFFER), (GL_NONE, 0));
    assert_eq!(live(), baseline + 1, "the unbound framebuffer holds it");

    bind_framebuffer(GL_FRAMEBUFFER, kept);
    assert_eq!(status(GL_FRAMEBUFFER), GL_FRAMEBUFFER_COMPLETE);
    assert_eq!(attached(GL_FRAMEBUFFER), (GL_TEXTURE, tex));
    assert_eq!(pixel(3, 3), RED);

    // Deleted again by its old name while bound: the name is no longer the texture's.
    delete_textures(&[tex]);
    assert_eq!(status(GL_FRAMEBUFFER), GL_FRAMEBUFFER_COMPLETE);
    assert_eq!(attached(GL_FRAMEBUFFER), (GL_TEXTURE, tex));

    bind_framebuffer(GL_FRAMEBUFFER, 0);
    delete_framebuffers(&[fb, kept, read]);
    assert_eq!(live(), baseline);
    expect(GL_NO_ERROR);
}
