//! GL_KHR_debug through the C ABI: a debug context's flag and output, every GL error as a
//! message naming its command, the bounded log, the callback (called on the calling thread
//! before the command returns, and free to call GL itself), message filtering inherited by
//! debug groups, the group stack's errors, and object labels.

use std::cell::RefCell;
use std::ffi::{c_char, c_void, CStr};
use std::ptr::{null, null_mut};

#[macro_use]
#[path = "common/gl.rs"]
mod gl_harness;

use gl_harness::{context, context_with, expect, f, Current};

const GL_INVALID_ENUM: u32 = 0x0500;
const GL_INVALID_VALUE: u32 = 0x0501;
const GL_INVALID_OPERATION: u32 = 0x0502;
const GL_STACK_OVERFLOW: u32 = 0x0503;
const GL_STACK_UNDERFLOW: u32 = 0x0504;
const GL_DONT_CARE: u32 = 0x1100;
const GL_CONTEXT_FLAGS: u32 = 0x821E;
const GL_DEBUG_OUTPUT: u32 = 0x92E0;
const GL_DEBUG_OUTPUT_SYNCHRONOUS: u32 = 0x8242;
const GL_DEBUG_LOGGED_MESSAGES: u32 = 0x9145;
const GL_DEBUG_NEXT_LOGGED_MESSAGE_LENGTH: u32 = 0x8243;
const GL_DEBUG_CALLBACK_FUNCTION: u32 = 0x8244;
const GL_DEBUG_CALLBACK_USER_PARAM: u32 = 0x8245;
const GL_DEBUG_SOURCE_API: u32 = 0x8246;
const GL_DEBUG_SOURCE_APPLICATION: u32 = 0x824A;
const GL_DEBUG_SOURCE_OTHER: u32 = 0x824B;
const GL_DEBUG_TYPE_ERROR: u32 = 0x824C;
const GL_DEBUG_TYPE_MARKER: u32 = 0x8268;
const GL_DEBUG_TYPE_PUSH_GROUP: u32 = 0x8269;
const GL_DEBUG_TYPE_POP_GROUP: u32 = 0x826A;
const GL_DEBUG_SEVERITY_NOTIFICATION: u32 = 0x826B;
const GL_DEBUG_SEVERITY_HIGH: u32 = 0x9146;
const GL_DEBUG_SEVERITY_LOW: u32 = 0x9148;
const GL_MAX_DEBUG_GROUP_STACK_DEPTH: u32 = 0x826C;
const GL_DEBUG_GROUP_STACK_DEPTH: u32 = 0x826D;
const GL_MAX_DEBUG_MESSAGE_LENGTH: u32 = 0x9143;
const GL_MAX_DEBUG_LOGGED_MESSAGES: u32 = 0x9144;
const GL_MAX_LABEL_LENGTH: u32 = 0x82E8;
const GL_BUFFER: u32 = 0x82E0;
const GL_TEXTURE: u32 = 0x1702;
const GL_ARRAY_BUFFER: u32 = 0x8892;
const GL_SYNC_GPU_COMMANDS_COMPLETE: u32 = 0x9117;

/// A current 3.3 core context made with `EGL_CONTEXT_OPENGL_DEBUG_BIT_KHR`.
fn debug_context() -> Current {
    let attribs = [0x3098, 3, 0x30FB, 3, 0x30FD, 1, 0x30FC, 1, 0x3038];
    context_with(0x30A2, 0x0008, &attribs)
}

fn get_int(pname: u32) -> i32 {
    let get = gl!(c"glGetIntegerv": fn(u32, *mut i32));
    let mut v = -1;
    // SAFETY: one integer out.
    unsafe { get(pname, &mut v) };
    v
}

fn is_enabled(cap: u32) -> bool {
    let is = gl!(c"glIsEnabled": fn(u32) -> u8);
    // SAFETY: plain arguments.
    unsafe { is(cap) != 0 }
}

#[derive(Debug, Clone, PartialEq)]
struct Message {
    source: u32,
    ty: u32,
    id: u32,
    severity: u32,
    text: String,
}

/// Everything in the log, taken one message at a time.
fn drain_log() -> Vec<Message> {
    let get_log = gl!(c"glGetDebugMessageLog": fn(u32, i32, *mut u32, *mut u32, *mut u32, *mut u32, *mut i32, *mut c_char) -> u32);
    let mut out = Vec::new();
    loop {
        let (mut source, mut ty, mut id, mut severity, mut length) = (0, 0, 0, 0, 0);
        let mut text = vec![0 as c_char; 4096];
        // SAFETY: one message's worth of out-values, a 4096-byte text buffer.
        let n = unsafe {
            get_log(
                1,
                text.len() as i32,
                &mut source,
                &mut ty,
                &mut id,
                &mut severity,
                &mut length,
                text.as_mut_ptr(),
            )
        };
        if n == 0 {
            return out;
        }
        // SAFETY: the log wrote a NUL-terminated text of `length` bytes with the terminator.
        let s = unsafe { CStr::from_ptr(text.as_ptr()) };
        assert_eq!(s.to_bytes().len() + 1, length as usize);
        out.push(Message {
            source,
            ty,
            id,
            severity,
            text: s.to_string_lossy().into_owned(),
        });
    }
}

fn insert(id: u32, severity: u32, text: &CStr) {
    let insert = gl!(c"glDebugMessageInsert": fn(u32, u32, u32, u32, i32, *const c_char));
    // SAFETY: a NUL-terminated text with length -1.
    unsafe {
        insert(
            GL_DEBUG_SOURCE_APPLICATION,
            GL_DEBUG_TYPE_MARKER,
            id,
            severity,
            -1,
            text.as_ptr(),
        )
    };
}

fn control(source: u32, ty: u32, severity: u32, ids: &[u32], enabled: bool) {
    let control = gl!(c"glDebugMessageControl": fn(u32, u32, u32, i32, *const u32, u8));
    // SAFETY: `ids` holds the count given.
    unsafe {
        control(
            source,
            ty,
            severity,
            ids.len() as i32,
            ids.as_ptr(),
            u8::from(enabled),
        )
    };
}

fn marker_ids(log: &[Message]) -> Vec<u32> {
    log.iter()
        .filter(|m| m.ty == GL_DEBUG_TYPE_MARKER)
        .map(|m| m.id)
        .collect()
}

#[test]
fn a_debug_context_logs_every_error_with_its_command() {
    let _c = debug_context();
    assert_eq!(
        get_int(GL_CONTEXT_FLAGS) & 2,
        2,
        "GL_CONTEXT_FLAG_DEBUG_BIT"
    );
    assert!(
        is_enabled(GL_DEBUG_OUTPUT),
        "on from the start in a debug context"
    );
    assert!(get_int(GL_MAX_DEBUG_MESSAGE_LENGTH) >= 1);
    assert!(get_int(GL_MAX_DEBUG_LOGGED_MESSAGES) >= 1);
    assert!(get_int(GL_MAX_LABEL_LENGTH) >= 256);
    drain_log();
    let bind = gl!(c"glBindBuffer": fn(u32, u32));
    // SAFETY: plain arguments (a bad target).
    unsafe { bind(0x1234, 0) };
    assert_eq!(get_int(GL_DEBUG_LOGGED_MESSAGES), 1);
    let next = get_int(GL_DEBUG_NEXT_LOGGED_MESSAGE_LENGTH);
    expect(GL_INVALID_ENUM);
    let log = drain_log();
    assert_eq!(log.len(), 1, "{log:?}");
    let m = &log[0];
    assert_eq!(
        (m.source, m.ty, m.id, m.severity),
        (
            GL_DEBUG_SOURCE_API,
            GL_DEBUG_TYPE_ERROR,
            GL_INVALID_ENUM,
            GL_DEBUG_SEVERITY_HIGH
        )
    );
    assert!(m.text.starts_with("glBindBuffer: "), "{}", m.text);
    assert_eq!(next as usize, m.text.len() + 1);
    assert_eq!(
        get_int(GL_DEBUG_LOGGED_MESSAGES),
        0,
        "reading empties the log"
    );
}

#[test]
fn output_is_off_in_a_plain_context_until_enabled() {
    let _c = context();
    assert_eq!(get_int(GL_CONTEXT_FLAGS) & 2, 0);
    assert!(!is_enabled(GL_DEBUG_OUTPUT));
    insert(1, GL_DEBUG_SEVERITY_HIGH, c"unheard");
    assert_eq!(get_int(GL_DEBUG_LOGGED_MESSAGES), 0);
    let enable = gl!(c"glEnable": fn(u32));
    // SAFETY: plain arguments.
    unsafe { enable(GL_DEBUG_OUTPUT) };
    insert(2, GL_DEBUG_SEVERITY_HIGH, c"heard");
    let log = drain_log();
    assert_eq!(marker_ids(&log), [2]);
    assert_eq!(log[0].text, "heard");
    expect(0);
}

#[test]
fn the_log_is_bounded_and_drops_what_does_not_fit() {
    let _c = debug_context();
    let max = get_int(GL_MAX_DEBUG_LOGGED_MESSAGES);
    for id in 0..max as u32 + 5 {
        insert(id, GL_DEBUG_SEVERITY_HIGH, c"m");
    }
    assert_eq!(get_int(GL_DEBUG_LOGGED_MESSAGES), max);
    let ids = marker_ids(&drain_log());
    assert_eq!(ids, (0..max as u32).collect::<Vec<_>>(), "the oldest stay");
    // A text buffer too small for the next message returns none and keeps it.
    insert(9, GL_DEBUG_SEVERITY_HIGH, c"twelve chars");
    let get_log = gl!(c"glGetDebugMessageLog": fn(u32, i32, *mut u32, *mut u32, *mut u32, *mut u32, *mut i32, *mut c_char) -> u32);
    let mut small = [0 as c_char; 8];
    // SAFETY: an 8-byte buffer, NULL arrays.
    let n = unsafe {
        get_log(
            4,
            8,
            null_mut(),
            null_mut(),
            null_mut(),
            null_mut(),
            null_mut(),
            small.as_mut_ptr(),
        )
    };
    assert_eq!(n, 0);
    assert_eq!(get_int(GL_DEBUG_LOGGED_MESSAGES), 1);
    // SAFETY: as above, with a negative bufSize.
    let n = unsafe {
        get_log(
            4,
            -1,
            null_mut(),
            null_mut(),
            null_mut(),
            null_mut(),
            null_mut(),
            small.as_mut_ptr(),
        )
    };
    assert_eq!(n, 0);
    expect(GL_INVALID_VALUE);
}

thread_local! {
    static HEARD: RefCell<Vec<(Message, usize, i32)>> = const { RefCell::new(Vec::new()) };
}

/// Records the message with its user parameter, and calls GL from inside the callback.
extern "C" fn callback(
    source: u32,
    ty: u32,
    id: u32,
    severity: u32,
    length: i32,
    text: *const c_char,
    user: *const c_void,
) {
    // SAFETY: GL passes a NUL-terminated message of `length` bytes.
    let s = unsafe { CStr::from_ptr(text) };
    assert_eq!(s.to_bytes().len(), length as usize);
    let logged = get_int(GL_DEBUG_LOGGED_MESSAGES);
    let m = Message {
        source,
        ty,
        id,
        severity,
        text: s.to_string_lossy().into_owned(),
    };
    HEARD.with(|h| h.borrow_mut().push((m, user as usize, logged)));
}

#[test]
fn the_callback_hears_each_message_before_the_call_returns() {
    let _c = debug_context();
    let set = gl!(c"glDebugMessageCallback": fn(*const c_void, *const c_void));
    let get_pointer = gl!(c"glGetPointerv": fn(u32, *mut *mut c_void));
    let enable = gl!(c"glEnable": fn(u32));
    // SAFETY: a GLDEBUGPROC and an opaque user value; pointer out-values are locals.
    unsafe {
        enable(GL_DEBUG_OUTPUT_SYNCHRONOUS);
        set(callback as *const c_void, 0x5150 as *const c_void);
        let mut p = null_mut();
        get_pointer(GL_DEBUG_CALLBACK_FUNCTION, &mut p);
        assert_eq!(p as usize, callback as *const () as usize);
        get_pointer(GL_DEBUG_CALLBACK_USER_PARAM, &mut p);
        assert_eq!(p as usize, 0x5150);
    }
    HEARD.with(|h| h.borrow_mut().clear());
    let gen = gl!(c"glGenBuffers": fn(i32, *mut u32));
    // SAFETY: a negative count writes nothing.
    unsafe { gen(-1, null_mut()) };
    let heard = HEARD.with(|h| h.borrow_mut().split_off(0));
    assert_eq!(
        heard.len(),
        1,
        "heard on this thread, before glGenBuffers returned"
    );
    let (m, user, logged) = &heard[0];
    assert_eq!(
        (m.ty, m.id, *user),
        (GL_DEBUG_TYPE_ERROR, GL_INVALID_VALUE, 0x5150)
    );
    assert!(m.text.starts_with("glGenBuffers: "), "{}", m.text);
    assert_eq!(
        *logged, 0,
        "the callback's own glGetIntegerv ran; nothing was logged"
    );
    expect(GL_INVALID_VALUE);
    // SAFETY: NULL goes back to the log.
    unsafe { set(null(), null()) };
    insert(3, GL_DEBUG_SEVERITY_HIGH, c"to the log");
    assert_eq!(marker_ids(&drain_log()), [3]);
    assert!(HEARD.with(|h| h.borrow().is_empty()));
}

#[test]
fn groups_inherit_and_restore_the_message_filter() {
    let _c = debug_context();
    let push = gl!(c"glPushDebugGroup": fn(u32, u32, i32, *const c_char));
    let pop = gl!(c"glPopDebugGroup": fn());
    drain_log();
    assert_eq!(get_int(GL_DEBUG_GROUP_STACK_DEPTH), 1);
    insert(1, GL_DEBUG_SEVERITY_LOW, c"low severity starts disabled");
    control(GL_DONT_CARE, GL_DONT_CARE, GL_DONT_CARE, &[], false);
    control(
        GL_DEBUG_SOURCE_APPLICATION,
        GL_DEBUG_TYPE_MARKER,
        GL_DONT_CARE,
        &[7],
        true,
    );
    control(
        GL_DEBUG_SOURCE_APPLICATION,
        GL_DEBUG_TYPE_PUSH_GROUP,
        GL_DONT_CARE,
        &[],
        true,
    );
    control(
        GL_DEBUG_SOURCE_APPLICATION,
        GL_DEBUG_TYPE_POP_GROUP,
        GL_DONT_CARE,
        &[],
        true,
    );
    insert(7, GL_DEBUG_SEVERITY_HIGH, c"seven");
    insert(8, GL_DEBUG_SEVERITY_HIGH, c"eight");
    // SAFETY: a NUL-terminated group message.
    unsafe { push(GL_DEBUG_SOURCE_APPLICATION, 42, -1, c"group".as_ptr()) };
    assert_eq!(get_int(GL_DEBUG_GROUP_STACK_DEPTH), 2);
    insert(8, GL_DEBUG_SEVERITY_HIGH, c"eight, inherited off");
    control(
        GL_DEBUG_SOURCE_APPLICATION,
        GL_DEBUG_TYPE_MARKER,
        GL_DONT_CARE,
        &[8],
        true,
    );
    insert(8, GL_DEBUG_SEVERITY_HIGH, c"eight, on in the group");
    // SAFETY: no arguments.
    unsafe { pop() };
    insert(8, GL_DEBUG_SEVERITY_HIGH, c"eight, off again");
    insert(7, GL_DEBUG_SEVERITY_HIGH, c"seven again");
    let log = drain_log();
    let kinds: Vec<(u32, u32)> = log.iter().map(|m| (m.ty, m.id)).collect();
    assert_eq!(
        kinds,
        [
            (GL_DEBUG_TYPE_MARKER, 7),
            (GL_DEBUG_TYPE_PUSH_GROUP, 42),
            (GL_DEBUG_TYPE_MARKER, 8),
            (GL_DEBUG_TYPE_POP_GROUP, 42),
            (GL_DEBUG_TYPE_MARKER, 7),
        ]
    );
    assert_eq!(log[1].text, "group");
    assert_eq!(log[3].severity, GL_DEBUG_SEVERITY_NOTIFICATION);
    expect(0);
}

#[test]
fn the_debug_commands_refuse_bad_arguments() {
    let _c = debug_context();
    let push = gl!(c"glPushDebugGroup": fn(u32, u32, i32, *const c_char));
    let pop = gl!(c"glPopDebugGroup": fn());
    let insert_raw = gl!(c"glDebugMessageInsert": fn(u32, u32, u32, u32, i32, *const c_char));
    // SAFETY: no arguments.
    unsafe { pop() };
    expect(GL_STACK_UNDERFLOW);
    let max = get_int(GL_MAX_DEBUG_GROUP_STACK_DEPTH);
    for _ in 1..max {
        // SAFETY: a 1-byte message with its length.
        unsafe { push(GL_DEBUG_SOURCE_APPLICATION, 1, 1, c"g".as_ptr()) };
    }
    expect(0);
    // SAFETY: as above.
    unsafe { push(GL_DEBUG_SOURCE_APPLICATION, 1, 1, c"g".as_ptr()) };
    expect(GL_STACK_OVERFLOW);
    assert_eq!(get_int(GL_DEBUG_GROUP_STACK_DEPTH), max);
    for _ in 1..max {
        // SAFETY: no arguments.
        unsafe { pop() };
    }
    expect(0);
    // SAFETY: as above.
    unsafe { push(GL_DEBUG_SOURCE_API, 1, 1, c"g".as_ptr()) };
    expect(GL_INVALID_ENUM);
    insert(1, GL_DONT_CARE, c"no severity");
    expect(GL_INVALID_ENUM);
    let long = vec![b'x'; get_int(GL_MAX_DEBUG_MESSAGE_LENGTH) as usize];
    // SAFETY: `long` holds the length given.
    unsafe {
        insert_raw(
            GL_DEBUG_SOURCE_APPLICATION,
            GL_DEBUG_TYPE_MARKER,
            1,
            GL_DEBUG_SEVERITY_HIGH,
            long.len() as i32,
            long.as_ptr().cast(),
        )
    };
    expect(GL_INVALID_VALUE);
    control(
        GL_DEBUG_SOURCE_APPLICATION,
        GL_DEBUG_TYPE_MARKER,
        GL_DEBUG_SEVERITY_LOW,
        &[1],
        true,
    );
    expect(GL_INVALID_OPERATION);
    control(GL_DONT_CARE, GL_DEBUG_TYPE_MARKER, GL_DONT_CARE, &[1], true);
    expect(GL_INVALID_OPERATION);
    control(
        GL_DEBUG_SOURCE_OTHER + 1,
        GL_DONT_CARE,
        GL_DONT_CARE,
        &[],
        true,
    );
    expect(GL_INVALID_ENUM);
}

#[test]
fn labels_name_live_objects_only() {
    let _c = context();
    let label = gl!(c"glObjectLabel": fn(u32, u32, i32, *const c_char));
    let get_label = gl!(c"glGetObjectLabel": fn(u32, u32, i32, *mut i32, *mut c_char));
    let ptr_label = gl!(c"glObjectPtrLabel": fn(*const c_void, i32, *const c_char));
    let get_ptr_label = gl!(c"glGetObjectPtrLabel": fn(*const c_void, i32, *mut i32, *mut c_char));
    let gen = gl!(c"glGenBuffers": fn(i32, *mut u32));
    let bind = gl!(c"glBindBuffer": fn(u32, u32));
    let delete = gl!(c"glDeleteBuffers": fn(i32, *const u32));
    let fence = gl!(c"glFenceSync": fn(u32, u32) -> *const c_void);
    let read = |get: &dyn Fn(i32, *mut i32, *mut c_char)| {
        let mut buf = [0 as c_char; 64];
        let mut len = -1;
        get(buf.len() as i32, &mut len, buf.as_mut_ptr());
        // SAFETY: the label was written NUL-terminated.
        let s = unsafe { CStr::from_ptr(buf.as_ptr()) }
            .to_string_lossy()
            .into_owned();
        assert_eq!(s.len(), len as usize);
        s
    };
    // SAFETY: out-pointers are locals; labels are NUL-terminated or carry their length.
    unsafe {
        let mut b = 0;
        gen(1, &mut b);
        label(GL_BUFFER, b, -1, c"never bound".as_ptr());
        expect(GL_INVALID_VALUE);
        bind(GL_ARRAY_BUFFER, b);
        label(GL_BUFFER, b, 5, c"vertices!".as_ptr());
        expect(0);
        assert_eq!(read(&|n, l, s| get_label(GL_BUFFER, b, n, l, s)), "verti");
        let mut len = -1;
        get_label(GL_BUFFER, b, 0, &mut len, null_mut());
        assert_eq!(len, 5, "NULL label: the full length");
        let mut short = [0 as c_char; 3];
        get_label(GL_BUFFER, b, 3, &mut len, short.as_mut_ptr());
        assert_eq!(
            (len, CStr::from_ptr(short.as_ptr()).to_bytes()),
            (2, &b"ve"[..])
        );
        label(GL_BUFFER, b, 0, null());
        assert_eq!(read(&|n, l, s| get_label(GL_BUFFER, b, n, l, s)), "");
        get_label(GL_BUFFER, b, -1, &mut len, null_mut());
        expect(GL_INVALID_VALUE);
        label(GL_TEXTURE, b, -1, c"not a texture".as_ptr());
        expect(GL_INVALID_VALUE);
        label(0x1234, b, -1, c"no such namespace".as_ptr());
        expect(GL_INVALID_ENUM);
        let long = vec![b'x'; get_int(GL_MAX_LABEL_LENGTH) as usize];
        label(GL_BUFFER, b, long.len() as i32, long.as_ptr().cast());
        expect(GL_INVALID_VALUE);
        delete(1, &b);
        get_label(GL_BUFFER, b, 0, &mut len, null_mut());
        expect(GL_INVALID_VALUE);

        let sync = fence(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
        ptr_label(sync, -1, c"frame fence".as_ptr());
        assert_eq!(read(&|n, l, s| get_ptr_label(sync, n, l, s)), "frame fence");
        ptr_label(0x10 as *const c_void, -1, c"not a sync".as_ptr());
        expect(GL_INVALID_VALUE);
    }
}
