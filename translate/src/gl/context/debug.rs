//! GL_KHR_debug (GL 4.3 core; GL_ARB_debug_output is its subset): the debug message log, the
//! application's callback, message filtering, debug groups and object labels.
//!
//! Design decisions:
//! - Every GL error becomes a message (source `GL_DEBUG_SOURCE_API`, type `GL_DEBUG_TYPE_ERROR`,
//!   id the error code, severity high) whose text starts with the command's name, which the C
//!   edge tells the context before each command ([`Context::set_debug_command`]).
//! - The callback is never called from inside the context: a message for it waits in `pending`
//!   and the C edge calls it once the command is done and the context's lock released
//!   ([`Context::take_debug_deliveries`]), on the thread that made the call. So delivery is
//!   always synchronous (`GL_DEBUG_OUTPUT_SYNCHRONOUS` changes nothing) and a callback may call
//!   GL itself. Without a callback the message goes to a bounded log; a full log drops new
//!   messages, as the spec says.
//! - Filtering (`glDebugMessageControl`) is a list of rules, the last matching one deciding; a
//!   new rule removes the older ones it covers, so the list stays as small as the distinct
//!   rules. Each debug group owns a copy of its parent's rules (`glPushDebugGroup`).
//! - Labels live in the context, keyed by namespace and name. Names are not handed out again
//!   soon (`Names::generate` moves on), and labels of deleted objects are pruned as the map
//!   grows. Labels are this context's own, even for objects a share group shares.

use std::collections::{HashMap, VecDeque};
use std::ffi::{c_char, c_void};

use crate::gl::context::enums::*;
use crate::gl::context::error::{invalid_enum, invalid_op, invalid_value, GlError, GlResult};
use crate::gl::context::{Context, Profile};

pub const GL_DEBUG_OUTPUT_SYNCHRONOUS: GLenum = 0x8242;
pub const GL_DEBUG_NEXT_LOGGED_MESSAGE_LENGTH: GLenum = 0x8243;
pub const GL_DEBUG_CALLBACK_FUNCTION: GLenum = 0x8244;
pub const GL_DEBUG_CALLBACK_USER_PARAM: GLenum = 0x8245;
pub const GL_DEBUG_SOURCE_API: GLenum = 0x8246;
pub const GL_DEBUG_SOURCE_OTHER: GLenum = 0x824B;
pub const GL_DEBUG_SOURCE_THIRD_PARTY: GLenum = 0x8249;
pub const GL_DEBUG_SOURCE_APPLICATION: GLenum = 0x824A;
pub const GL_DEBUG_TYPE_ERROR: GLenum = 0x824C;
pub const GL_DEBUG_TYPE_OTHER: GLenum = 0x8251;
pub const GL_DEBUG_TYPE_MARKER: GLenum = 0x8268;
pub const GL_DEBUG_TYPE_PUSH_GROUP: GLenum = 0x8269;
pub const GL_DEBUG_TYPE_POP_GROUP: GLenum = 0x826A;
pub const GL_DEBUG_SEVERITY_NOTIFICATION: GLenum = 0x826B;
pub const GL_MAX_DEBUG_GROUP_STACK_DEPTH: GLenum = 0x826C;
pub const GL_DEBUG_GROUP_STACK_DEPTH: GLenum = 0x826D;
pub const GL_BUFFER: GLenum = 0x82E0;
pub const GL_SHADER: GLenum = 0x82E1;
pub const GL_PROGRAM: GLenum = 0x82E2;
pub const GL_QUERY: GLenum = 0x82E3;
pub const GL_PROGRAM_PIPELINE: GLenum = 0x82E4;
pub const GL_SAMPLER: GLenum = 0x82E6;
pub const GL_DISPLAY_LIST: GLenum = 0x82E7;
pub const GL_MAX_LABEL_LENGTH: GLenum = 0x82E8;
pub const GL_MAX_DEBUG_MESSAGE_LENGTH: GLenum = 0x9143;
pub const GL_MAX_DEBUG_LOGGED_MESSAGES: GLenum = 0x9144;
pub const GL_DEBUG_LOGGED_MESSAGES: GLenum = 0x9145;
pub const GL_DEBUG_SEVERITY_HIGH: GLenum = 0x9146;
pub const GL_DEBUG_SEVERITY_MEDIUM: GLenum = 0x9147;
pub const GL_DEBUG_SEVERITY_LOW: GLenum = 0x9148;
pub const GL_DEBUG_OUTPUT: GLenum = 0x92E0;
pub const GL_CONTEXT_FLAG_DEBUG_BIT: GLenum = 0x2;

/// The longest message, terminator included (`GL_MAX_DEBUG_MESSAGE_LENGTH`).
pub const MAX_DEBUG_MESSAGE_LENGTH: usize = 4096;
/// Messages the log holds (`GL_MAX_DEBUG_LOGGED_MESSAGES`).
pub const MAX_DEBUG_LOGGED_MESSAGES: usize = 64;
/// Debug groups, the default one included (`GL_MAX_DEBUG_GROUP_STACK_DEPTH`).
pub const MAX_DEBUG_GROUP_STACK_DEPTH: usize = 64;
/// The longest label, terminator included (`GL_MAX_LABEL_LENGTH`).
pub const MAX_LABEL_LENGTH: usize = 256;

/// `GLDEBUGPROC`.
pub type DebugProc = unsafe extern "C" fn(
    source: GLenum,
    ty: GLenum,
    id: u32,
    severity: GLenum,
    length: i32,
    message: *const c_char,
    user: *const c_void,
);

/// One debug message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DebugMessage {
    pub source: GLenum,
    pub ty: GLenum,
    pub id: u32,
    pub severity: GLenum,
    /// Without the terminator, shorter than [`MAX_DEBUG_MESSAGE_LENGTH`].
    pub text: String,
}

/// A call of the application's callback that the C edge makes after the command.
#[derive(Debug, Clone)]
pub struct DebugDelivery {
    pub callback: DebugProc,
    /// `userParam`, as given to `glDebugMessageCallback`.
    pub user: usize,
    pub message: DebugMessage,
}

/// A message's text as GL and the C edge pass it: the claimed length (the string's length for
/// a negative one) and at most [`MAX_DEBUG_MESSAGE_LENGTH`] of its bytes.
#[derive(Debug, Clone, Copy)]
pub struct DebugText<'a> {
    pub length: usize,
    pub bytes: &'a [u8],
}

impl DebugText<'_> {
    /// The text, `GL_INVALID_VALUE` (naming `what`) when its length reaches `max`.
    fn checked(&self, what: &str, max: usize) -> GlResult<String> {
        if self.length >= max {
            return invalid_value(format!("{what}: length {} >= {max}", self.length));
        }
        let n = self.length.min(self.bytes.len());
        Ok(String::from_utf8_lossy(&self.bytes[..n]).into_owned())
    }
}

/// One `glDebugMessageControl` call: which messages it matches (`None`: any) and what it set.
#[derive(Debug, Clone)]
struct Rule {
    source: Option<GLenum>,
    ty: Option<GLenum>,
    severity: Option<GLenum>,
    ids: Option<Vec<u32>>,
    enabled: bool,
}

/// `Some(v)` matches `v` only, `None` anything.
fn field_matches(filter: Option<GLenum>, v: GLenum) -> bool {
    filter.is_none_or(|f| f == v)
}

/// Whether filter `outer` matches everything filter `inner` does.
fn field_covers(outer: Option<GLenum>, inner: Option<GLenum>) -> bool {
    outer.is_none() || outer == inner
}

impl Rule {
    fn matches(&self, m: &DebugMessage) -> bool {
        field_matches(self.source, m.source)
            && field_matches(self.ty, m.ty)
            && field_matches(self.severity, m.severity)
            && self.ids.as_ref().is_none_or(|ids| ids.contains(&m.id))
    }

    /// Whether this rule decides every message `older` matches (so `older` no longer counts).
    fn covers(&self, older: &Rule) -> bool {
        let ids = match (&self.ids, &older.ids) {
            (None, _) => true,
            (Some(_), None) => false,
            (Some(a), Some(b)) => b.iter().all(|id| a.contains(id)),
        };
        ids && field_covers(self.source, older.source)
            && field_covers(self.ty, older.ty)
            && field_covers(self.severity, older.severity)
    }
}

/// One debug group: the message that opened it and its filter rules.
#[derive(Debug, Clone)]
struct Group {
    /// The push's message (repeated, as `GL_DEBUG_TYPE_POP_GROUP`, by the pop).
    opened_by: Option<DebugMessage>,
    rules: Vec<Rule>,
}

impl Group {
    /// Whether `m` passes the filter; by default every message but low-severity ones does.
    fn enabled(&self, m: &DebugMessage) -> bool {
        self.rules
            .iter()
            .rev()
            .find(|r| r.matches(m))
            .map_or(m.severity != GL_DEBUG_SEVERITY_LOW, |r| r.enabled)
    }

    fn add(&mut self, rule: Rule) {
        self.rules.retain(|older| !rule.covers(older));
        self.rules.push(rule);
    }
}

/// A context's debug state.
pub(crate) struct DebugState {
    /// Made as a debug context (`GL_CONTEXT_FLAG_DEBUG_BIT`).
    debug_context: bool,
    /// `GL_DEBUG_OUTPUT`.
    output: bool,
    /// `GL_DEBUG_OUTPUT_SYNCHRONOUS` (delivery is synchronous either way).
    synchronous: bool,
    callback: Option<(DebugProc, usize)>,
    log: VecDeque<DebugMessage>,
    /// Never empty: the first is the default group.
    groups: Vec<Group>,
    pending: Vec<DebugDelivery>,
    /// The GL command being run, for error messages.
    command: &'static str,
    labels: HashMap<(GLenum, u64), String>,
    /// Label count after the last pruning of deleted objects' labels.
    labels_pruned_at: usize,
}

impl Default for DebugState {
    fn default() -> Self {
        Self {
            debug_context: false,
            output: false,
            synchronous: false,
            callback: None,
            log: VecDeque::new(),
            groups: vec![Group {
                opened_by: None,
                rules: Vec::new(),
            }],
            pending: Vec::new(),
            command: "",
            labels: HashMap::new(),
            labels_pruned_at: 0,
        }
    }
}

impl DebugState {
    fn group(&mut self) -> &mut Group {
        self.groups
            .last_mut()
            .expect("the default group is never popped")
    }

    /// Files `m` for the callback or the log, if output is on and the filter lets it through.
    fn emit(&mut self, m: DebugMessage) {
        if !self.output || !self.group().enabled(&m) {
            return;
        }
        match self.callback {
            Some((callback, user)) => self.pending.push(DebugDelivery {
                callback,
                user,
                message: m,
            }),
            None if self.log.len() < MAX_DEBUG_LOGGED_MESSAGES => self.log.push_back(m),
            None => {}
        }
    }
}

/// Cuts `s` below `max` bytes, at a character boundary.
fn bounded(mut s: String, max: usize) -> String {
    if s.len() >= max {
        let mut end = max - 1;
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        s.truncate(end);
    }
    s
}

fn is_source(v: GLenum) -> bool {
    (GL_DEBUG_SOURCE_API..=GL_DEBUG_SOURCE_OTHER).contains(&v)
}

fn is_type(v: GLenum) -> bool {
    (GL_DEBUG_TYPE_ERROR..=GL_DEBUG_TYPE_OTHER).contains(&v)
        || (GL_DEBUG_TYPE_MARKER..=GL_DEBUG_TYPE_POP_GROUP).contains(&v)
}

fn is_severity(v: GLenum) -> bool {
    (GL_DEBUG_SEVERITY_HIGH..=GL_DEBUG_SEVERITY_LOW).contains(&v)
        || v == GL_DEBUG_SEVERITY_NOTIFICATION
}

/// A filter argument: `GL_DONT_CARE` is `None`, a value `valid` accepts is itself.
fn filter(what: &str, v: GLenum, valid: fn(GLenum) -> bool) -> GlResult<Option<GLenum>> {
    match v {
        GL_DONT_CARE => Ok(None),
        v if valid(v) => Ok(Some(v)),
        v => invalid_enum(what, v),
    }
}

/// The source an application's message may have (`glDebugMessageInsert`, `glPushDebugGroup`).
fn application_source(what: &str, source: GLenum) -> GlResult<()> {
    if matches!(
        source,
        GL_DEBUG_SOURCE_APPLICATION | GL_DEBUG_SOURCE_THIRD_PARTY
    ) {
        Ok(())
    } else {
        invalid_enum(&format!("{what} source"), source)
    }
}

impl Context {
    /// Marks the context as made with the debug flag: `GL_CONTEXT_FLAG_DEBUG_BIT`, and debug
    /// output on from the start.
    pub fn set_debug_context(&mut self, debug: bool) {
        self.debug.debug_context = debug;
        self.debug.output = debug;
    }

    /// The `GL_CONTEXT_FLAGS` bits the debug state contributes.
    pub(crate) fn debug_context_flags(&self) -> i64 {
        if self.debug.debug_context {
            i64::from(GL_CONTEXT_FLAG_DEBUG_BIT)
        } else {
            0
        }
    }

    /// Names the GL command about to run (the C edge calls this before each one).
    pub fn set_debug_command(&mut self, name: &'static str) {
        self.debug.command = name;
    }

    /// The callback calls the last command produced; the C edge makes them once the context
    /// is released.
    pub fn take_debug_deliveries(&mut self) -> Vec<DebugDelivery> {
        std::mem::take(&mut self.debug.pending)
    }

    /// The message of an error the current command raised.
    pub(crate) fn debug_error(&mut self, e: &GlError) {
        if self.debug.output {
            let text = format!("{}: {e}", self.debug.command);
            self.debug_api_error(e.code(), text);
        }
    }

    /// The message of an error code set without a [`GlError`] (the C edge's checks).
    pub(crate) fn debug_error_code(&mut self, code: GLenum) {
        if self.debug.output {
            let text = format!(
                "{}: {}",
                self.debug.command,
                crate::gl::context::error::error_name(code)
            );
            self.debug_api_error(code, text);
        }
    }

    fn debug_api_error(&mut self, code: GLenum, text: String) {
        self.debug.emit(DebugMessage {
            source: GL_DEBUG_SOURCE_API,
            ty: GL_DEBUG_TYPE_ERROR,
            id: code,
            severity: GL_DEBUG_SEVERITY_HIGH,
            text: bounded(text, MAX_DEBUG_MESSAGE_LENGTH),
        });
    }

    /// `glEnable`/`glDisable`/`glIsEnabled` of the debug capabilities: `Some` with the value
    /// (after setting `on`, if given) for them, `None` for any other capability.
    pub(crate) fn debug_capability(&mut self, cap: GLenum, on: Option<bool>) -> Option<bool> {
        let flag = match cap {
            GL_DEBUG_OUTPUT => &mut self.debug.output,
            GL_DEBUG_OUTPUT_SYNCHRONOUS => &mut self.debug.synchronous,
            _ => return None,
        };
        if let Some(on) = on {
            *flag = on;
        }
        Some(*flag)
    }

    /// The `glGet*` values of the debug state and limits.
    pub(crate) fn get_debug(&self, pname: GLenum) -> Option<i64> {
        let d = &self.debug;
        Some(match pname {
            GL_DEBUG_OUTPUT => i64::from(d.output),
            GL_DEBUG_OUTPUT_SYNCHRONOUS => i64::from(d.synchronous),
            GL_DEBUG_LOGGED_MESSAGES => d.log.len() as i64,
            GL_DEBUG_NEXT_LOGGED_MESSAGE_LENGTH => {
                d.log.front().map_or(0, |m| m.text.len() + 1) as i64
            }
            GL_DEBUG_GROUP_STACK_DEPTH => d.groups.len() as i64,
            GL_MAX_DEBUG_GROUP_STACK_DEPTH => MAX_DEBUG_GROUP_STACK_DEPTH as i64,
            GL_MAX_DEBUG_MESSAGE_LENGTH => MAX_DEBUG_MESSAGE_LENGTH as i64,
            GL_MAX_DEBUG_LOGGED_MESSAGES => MAX_DEBUG_LOGGED_MESSAGES as i64,
            GL_MAX_LABEL_LENGTH => MAX_LABEL_LENGTH as i64,
            _ => return None,
        })
    }

    /// `glDebugMessageCallback`: `None` sends messages to the log again.
    pub fn debug_message_callback(&mut self, callback: Option<DebugProc>, user: usize) {
        self.debug.callback = callback.map(|c| (c, user));
    }

    /// `glGetPointerv(GL_DEBUG_CALLBACK_FUNCTION | GL_DEBUG_CALLBACK_USER_PARAM)`.
    pub fn debug_pointer(&mut self, pname: GLenum) -> Option<usize> {
        let cb = self.debug.callback;
        let r = match pname {
            GL_DEBUG_CALLBACK_FUNCTION => Ok(cb.map_or(0, |(f, _)| f as usize)),
            GL_DEBUG_CALLBACK_USER_PARAM => Ok(cb.map_or(0, |(_, u)| u)),
            _ => invalid_enum("glGetPointerv pname", pname),
        };
        self.record(r)
    }

    /// `glDebugMessageControl`: `ids` are the `count` ids given (GL_INVALID_OPERATION unless
    /// source and type are named and severity is not).
    pub fn debug_message_control(
        &mut self,
        source: GLenum,
        ty: GLenum,
        severity: GLenum,
        count: i32,
        ids: &[u32],
        enabled: bool,
    ) {
        let r = (|| {
            let rule = Rule {
                source: filter("glDebugMessageControl source", source, is_source)?,
                ty: filter("glDebugMessageControl type", ty, is_type)?,
                severity: filter("glDebugMessageControl severity", severity, is_severity)?,
                ids: None,
                enabled,
            };
            if count < 0 {
                return invalid_value(format!("glDebugMessageControl: count {count} < 0"));
            }
            if count == 0 {
                return Ok(rule);
            }
            if rule.source.is_none() || rule.ty.is_none() || rule.severity.is_some() {
                return invalid_op(
                    "glDebugMessageControl: ids need a source and a type, and no severity",
                );
            }
            Ok(Rule {
                ids: Some(ids.to_vec()),
                ..rule
            })
        })();
        if let Some(rule) = self.record(r) {
            self.debug.group().add(rule);
        }
    }

    /// `glDebugMessageInsert`.
    pub fn debug_message_insert(
        &mut self,
        source: GLenum,
        ty: GLenum,
        id: u32,
        severity: GLenum,
        text: DebugText<'_>,
    ) {
        let r = (|| {
            application_source("glDebugMessageInsert", source)?;
            if !is_type(ty) {
                return invalid_enum("glDebugMessageInsert type", ty);
            }
            if !is_severity(severity) {
                return invalid_enum("glDebugMessageInsert severity", severity);
            }
            let text = text.checked("glDebugMessageInsert", MAX_DEBUG_MESSAGE_LENGTH)?;
            Ok(DebugMessage {
                source,
                ty,
                id,
                severity,
                text,
            })
        })();
        if let Some(m) = self.record(r) {
            self.debug.emit(m);
        }
    }

    /// `glGetDebugMessageLog`: up to `count` messages, taken from the log. With a message
    /// buffer (`buf_size` given) it stops before the first text that would not fit.
    pub fn debug_message_log(&mut self, count: u32, buf_size: Option<i32>) -> Vec<DebugMessage> {
        let room = match buf_size.map(usize::try_from) {
            Some(Err(_)) => {
                self.record::<()>(invalid_value("glGetDebugMessageLog: bufSize < 0"));
                return Vec::new();
            }
            Some(Ok(n)) => Some(n),
            None => None,
        };
        let mut room = room;
        let mut out = Vec::new();
        while out.len() < count as usize {
            let Some(next) = self.debug.log.front() else {
                break;
            };
            if let Some(left) = room {
                let need = next.text.len() + 1;
                if need > left {
                    break;
                }
                room = Some(left - need);
            }
            out.extend(self.debug.log.pop_front());
        }
        out
    }

    /// `glPushDebugGroup`.
    pub fn push_debug_group(&mut self, source: GLenum, id: u32, text: DebugText<'_>) {
        let r = (|| {
            application_source("glPushDebugGroup", source)?;
            let text = text.checked("glPushDebugGroup", MAX_DEBUG_MESSAGE_LENGTH)?;
            if self.debug.groups.len() >= MAX_DEBUG_GROUP_STACK_DEPTH {
                return Err(GlError::StackOverflow(format!(
                    "glPushDebugGroup: {MAX_DEBUG_GROUP_STACK_DEPTH} groups deep already"
                )));
            }
            Ok(DebugMessage {
                source,
                ty: GL_DEBUG_TYPE_PUSH_GROUP,
                id,
                severity: GL_DEBUG_SEVERITY_NOTIFICATION,
                text,
            })
        })();
        if let Some(m) = self.record(r) {
            let rules = self.debug.group().rules.clone();
            self.debug.groups.push(Group {
                opened_by: Some(m.clone()),
                rules,
            });
            self.debug.emit(m);
        }
    }

    /// `glPopDebugGroup`.
    pub fn pop_debug_group(&mut self) {
        if self.debug.groups.len() <= 1 {
            self.record::<()>(Err(GlError::StackUnderflow(
                "glPopDebugGroup: only the default group is left".into(),
            )));
            return;
        }
        let group = self.debug.groups.pop();
        if let Some(m) = group.and_then(|g| g.opened_by) {
            self.debug.emit(DebugMessage {
                ty: GL_DEBUG_TYPE_POP_GROUP,
                ..m
            });
        }
    }

    /// Whether `name` is an object of namespace `identifier` (`GL_INVALID_ENUM` for an
    /// unknown namespace).
    fn labelled_object_exists(&mut self, identifier: GLenum, name: u32) -> GlResult<bool> {
        Ok(match identifier {
            GL_BUFFER => self.is_buffer(name),
            GL_SHADER => self.is_shader(name),
            GL_PROGRAM => self.is_program(name),
            GL_VERTEX_ARRAY => self.is_vertex_array(name),
            GL_QUERY => self.is_query(name),
            GL_TRANSFORM_FEEDBACK => self.is_transform_feedback(name),
            GL_SAMPLER => self.is_sampler(name),
            GL_TEXTURE => self.is_texture(name),
            GL_RENDERBUFFER => self.is_renderbuffer(name),
            GL_FRAMEBUFFER => self.is_framebuffer(name),
            GL_PROGRAM_PIPELINE => self.is_program_pipeline(name),
            GL_DISPLAY_LIST if self.profile == Profile::Compatibility => self.is_list(name),
            _ => return invalid_enum("object label identifier", identifier),
        })
    }

    /// Whether `target` is a live object (`GL_INVALID_ENUM` for an unknown namespace).
    fn labelled_exists(&mut self, target: Labelled) -> GlResult<bool> {
        match target {
            Labelled::Object { identifier, name } => self.labelled_object_exists(identifier, name),
            Labelled::Sync(handle) => Ok(self.is_sync(handle)),
        }
    }

    /// `target`'s label key; `GL_INVALID_VALUE` when there is no such object.
    fn label_key(&mut self, target: Labelled, what: &str) -> GlResult<(GLenum, u64)> {
        if !self.labelled_exists(target)? {
            return invalid_value(format!("{what}: {target:?} is not an object"));
        }
        Ok(target.key())
    }

    /// `glObjectLabel` / `glObjectPtrLabel`: `None` removes the label.
    pub fn object_label(&mut self, target: Labelled, label: Option<DebugText<'_>>) {
        let what = target.command("gl", "Label");
        let r = (|| {
            let key = self.label_key(target, &what)?;
            let text = label
                .map(|t| t.checked(&what, MAX_LABEL_LENGTH))
                .transpose()?;
            Ok((key, text))
        })();
        let Some((key, text)) = self.record(r) else {
            return;
        };
        match text {
            Some(t) => {
                self.debug.labels.insert(key, t);
                self.prune_labels();
            }
            None => {
                self.debug.labels.remove(&key);
            }
        }
    }

    /// Drops the labels of deleted objects once the map has doubled since the last pruning.
    fn prune_labels(&mut self) {
        let n = self.debug.labels.len();
        if n < 64 || n < 2 * self.debug.labels_pruned_at {
            return;
        }
        let mut labels = std::mem::take(&mut self.debug.labels);
        labels.retain(|&key, _| {
            self.labelled_exists(Labelled::from_key(key))
                .unwrap_or(false)
        });
        self.debug.labels_pruned_at = labels.len();
        self.debug.labels = labels;
    }

    /// `glGetObjectLabel` / `glGetObjectPtrLabel`: the label, empty for none.
    pub fn get_object_label(&mut self, target: Labelled, buf_size: i32) -> Option<String> {
        let what = target.command("glGet", "Label");
        let r = (|| {
            if buf_size < 0 {
                return invalid_value(format!("{what}: bufSize {buf_size} < 0"));
            }
            let key = self.label_key(target, &what)?;
            Ok(self.debug.labels.get(&key).cloned().unwrap_or_default())
        })();
        self.record(r)
    }
}

/// What a label is attached to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Labelled {
    /// `glObjectLabel`'s object: a namespace (`GL_BUFFER`, `GL_TEXTURE`, …) and a name.
    Object { identifier: GLenum, name: u32 },
    /// `glObjectPtrLabel`'s sync object.
    Sync(usize),
}

impl Labelled {
    /// The command's name: `prefix`, `Object` or `ObjectPtr`, `suffix`.
    fn command(self, prefix: &str, suffix: &str) -> String {
        let ptr = if matches!(self, Labelled::Sync(_)) {
            "Ptr"
        } else {
            ""
        };
        format!("{prefix}Object{ptr}{suffix}")
    }

    fn key(self) -> (GLenum, u64) {
        match self {
            Labelled::Object { identifier, name } => (identifier, u64::from(name)),
            Labelled::Sync(handle) => (GL_SYNC_FENCE, handle as u64),
        }
    }

    fn from_key((identifier, name): (GLenum, u64)) -> Self {
        if identifier == GL_SYNC_FENCE {
            Labelled::Sync(name as usize)
        } else {
            Labelled::Object {
                identifier,
                name: name as u32,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(source: GLenum, ty: GLenum, id: u32, severity: GLenum) -> DebugMessage {
        DebugMessage {
            source,
            ty,
            id,
            severity,
            text: String::new(),
        }
    }

    fn rule(source: Option<GLenum>, ids: Option<Vec<u32>>, enabled: bool) -> Rule {
        Rule {
            source,
            ty: source.map(|_| GL_DEBUG_TYPE_MARKER),
            severity: None,
            ids,
            enabled,
        }
    }

    #[test]
    fn the_last_matching_rule_decides_and_low_severity_starts_disabled() {
        let mut g = Group {
            opened_by: None,
            rules: Vec::new(),
        };
        let app = GL_DEBUG_SOURCE_APPLICATION;
        let m = |id, sev| message(app, GL_DEBUG_TYPE_MARKER, id, sev);
        assert!(g.enabled(&m(1, GL_DEBUG_SEVERITY_HIGH)));
        assert!(g.enabled(&m(1, GL_DEBUG_SEVERITY_NOTIFICATION)));
        assert!(!g.enabled(&m(1, GL_DEBUG_SEVERITY_LOW)));
        g.add(rule(None, None, false));
        assert!(!g.enabled(&m(1, GL_DEBUG_SEVERITY_HIGH)));
        g.add(rule(Some(app), Some(vec![2]), true));
        assert!(g.enabled(&m(2, GL_DEBUG_SEVERITY_LOW)));
        assert!(!g.enabled(&m(3, GL_DEBUG_SEVERITY_HIGH)));
        g.add(rule(None, None, true));
        assert_eq!(
            g.rules.len(),
            1,
            "a catch-all rule replaces every older one"
        );
    }

    #[test]
    fn a_rule_covers_only_what_it_matches_entirely() {
        let app = GL_DEBUG_SOURCE_APPLICATION;
        let some = rule(Some(app), Some(vec![1, 2]), true);
        assert!(some.covers(&rule(Some(app), Some(vec![2]), false)));
        assert!(!some.covers(&rule(Some(app), Some(vec![3]), false)));
        assert!(!some.covers(&rule(Some(app), None, false)));
        assert!(!some.covers(&rule(None, None, false)));
    }

    #[test]
    fn texts_at_the_limit_are_refused_and_long_messages_cut() {
        let t = DebugText {
            length: 3,
            bytes: b"abcdef",
        };
        assert_eq!(t.checked("x", 4).ok().as_deref(), Some("abc"));
        assert!(t.checked("x", 3).is_err());
        assert_eq!(bounded("é".repeat(10), 6), "éé");
    }
}
