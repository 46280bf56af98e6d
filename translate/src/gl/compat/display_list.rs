//! Display lists of the compatibility profile: `glNewList`/`glEndList` record calls,
//! `glCallList`/`glCallLists` replay them, `glGenLists`/`glDeleteLists`/`glIsList`/`glListBase`.
//!
//! Design decisions:
//! - A list is a vector of [`ListCommand`], a closed enum of the calls a list records: immediate
//!   mode (`glBegin`/`glEnd`/`glVertex`), current values (colour, secondary colour, normal,
//!   texture coordinates), matrices, `glEnable`/`glDisable`, `glShadeModel`, `glAlphaFunc`,
//!   lighting and materials, and nested `glCallList`. Values are copied when recorded, as GL
//!   says (pointers are dereferenced at compile time).
//! - Each recording entry point asks [`Context::compile`] first: under `GL_COMPILE` the call is
//!   only recorded, under `GL_COMPILE_AND_EXECUTE` it is recorded and then runs. Calls GL never
//!   compiles (`glGen*`, `glGet*`, …) and the ones not recorded yet (texture binds, draws from
//!   arrays, state other than the above) run immediately.
//! - Replay goes through the same entry points with recording suspended (a list executed while
//!   another is compiled in `GL_COMPILE_AND_EXECUTE` mode records only the `glCallList`), and
//!   nests at most [`MAX_LIST_NESTING`] deep, as GL's `GL_MAX_LIST_NESTING` says; deeper calls
//!   are ignored.
//! - Errors in recorded calls are generated when the list executes, not when it is compiled.

use std::collections::HashMap;

use crate::gl::compat::matrix::Mat4;
use crate::gl::context::enums::*;
use crate::gl::context::error::{invalid_enum, invalid_op, invalid_value, GlResult};
use crate::gl::context::{Context, Profile};
use crate::gl::objects::vertex_array::FfArray;

/// `GL_MAX_LIST_NESTING`.
pub(crate) const MAX_LIST_NESTING: u32 = 64;
const GL_COMPILE: GLenum = 0x1300;
const GL_COMPILE_AND_EXECUTE: GLenum = 0x1301;
const GL_2_BYTES: GLenum = 0x1407;
const GL_3_BYTES: GLenum = 0x1408;
const GL_4_BYTES: GLenum = 0x1409;

/// One recorded call.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum ListCommand {
    Begin(GLenum),
    End,
    Vertex([f32; 4]),
    Current(FfArray, [f32; 4]),
    MultiTexCoord(GLenum, [f32; 4]),
    MatrixMode(GLenum),
    LoadMatrix(Option<Mat4>, bool),
    MultMatrix(Mat4, bool),
    PushPopMatrix(bool),
    OrthoFrustum(bool, [f64; 6]),
    TranslateScale(bool, [f64; 3]),
    Rotate([f64; 4]),
    Capability(GLenum, bool),
    ShadeModel(GLenum),
    AlphaFunc(GLenum, f32),
    Light(GLenum, GLenum, Vec<f32>),
    Material(GLenum, GLenum, Vec<f32>),
    LightModel(GLenum, Vec<f32>),
    ColorMaterial(GLenum, GLenum),
    CallList(u32),
    /// `glPolygonOffset` (no clamp) or `glPolygonOffsetClamp`: factor, units, clamp.
    PolygonOffset(f32, f32, Option<f32>),
}

/// The display-list state of a context.
#[derive(Default)]
pub(crate) struct DisplayLists {
    lists: HashMap<u32, Vec<ListCommand>>,
    /// The list being compiled: (name, mode, commands so far).
    compiling: Option<(u32, GLenum, Vec<ListCommand>)>,
    /// Lists being executed (recording is suspended while above 0).
    depth: u32,
    /// `glListBase`.
    base: u32,
}

impl Context {
    /// Records `cmd` in the list being compiled. `true`: the caller must not execute it now
    /// (`GL_COMPILE`).
    pub(crate) fn compile(&mut self, cmd: ListCommand) -> bool {
        if self.lists.depth > 0 {
            return false;
        }
        match self.lists.compiling.as_mut() {
            Some((_, mode, cmds)) => {
                cmds.push(cmd);
                *mode == GL_COMPILE
            }
            None => false,
        }
    }

    fn lists_only(&self, what: &str) -> GlResult<()> {
        if self.profile != Profile::Compatibility {
            return invalid_op(format!("{what} needs a compatibility profile context"));
        }
        if self.compat.immediate.is_some() {
            return invalid_op(format!("{what} between glBegin and glEnd"));
        }
        Ok(())
    }

    /// `glGenLists`: `range` consecutive unused names (0 when there are none, or on error).
    pub fn gen_lists(&mut self, range: i32) -> u32 {
        let r = (|| {
            self.lists_only("glGenLists")?;
            if range < 0 {
                return invalid_value("glGenLists range < 0");
            }
            if range == 0 {
                return Ok(0);
            }
            let range = range as u32;
            let mut first = 1u32;
            loop {
                let Some(last) = first.checked_add(range - 1) else {
                    return Ok(0);
                };
                match (first..=last).find(|n| self.lists.lists.contains_key(n)) {
                    Some(used) => first = used + 1,
                    None => {
                        for n in first..=last {
                            self.lists.lists.insert(n, Vec::new());
                        }
                        return Ok(first);
                    }
                }
            }
        })();
        self.record(r).unwrap_or(0)
    }

    /// `glDeleteLists`.
    pub fn delete_lists(&mut self, list: u32, range: i32) {
        let r = self.lists_only("glDeleteLists").and_then(|()| {
            if range < 0 {
                return invalid_value("glDeleteLists range < 0");
            }
            for n in (0..range as u32).filter_map(|i| list.checked_add(i)) {
                self.lists.lists.remove(&n);
            }
            Ok(())
        });
        self.record(r);
    }

    /// `glIsList`.
    pub fn is_list(&mut self, list: u32) -> bool {
        let r = self.lists_only("glIsList");
        self.record(r).is_some() && self.lists.lists.contains_key(&list)
    }

    /// `glNewList`.
    pub fn new_list(&mut self, list: u32, mode: GLenum) {
        let r = self.lists_only("glNewList").and_then(|()| {
            if list == 0 {
                return invalid_value("glNewList of list 0");
            }
            if !matches!(mode, GL_COMPILE | GL_COMPILE_AND_EXECUTE) {
                return invalid_enum("glNewList mode", mode);
            }
            if self.lists.compiling.is_some() {
                return invalid_op("glNewList while another list is being compiled");
            }
            self.lists.compiling = Some((list, mode, Vec::new()));
            Ok(())
        });
        self.record(r);
    }

    /// `glEndList`: the list replaces any old one of its name.
    pub fn end_list(&mut self) {
        let r = self.lists_only("glEndList").and_then(|()| {
            let Some((list, _, cmds)) = self.lists.compiling.take() else {
                return invalid_op("glEndList with no glNewList");
            };
            self.lists.lists.insert(list, cmds);
            Ok(())
        });
        self.record(r);
    }

    /// `glListBase`.
    pub fn list_base(&mut self, base: u32) {
        let r = self.lists_only("glListBase");
        if self.record(r).is_some() {
            self.lists.base = base;
        }
    }

    /// `glCallList`.
    pub fn call_list(&mut self, list: u32) {
        if self.profile != Profile::Compatibility {
            let r: GlResult<()> = invalid_op("glCallList needs a compatibility profile context");
            self.record(r);
            return;
        }
        if self.compile(ListCommand::CallList(list)) {
            return;
        }
        if self.lists.depth >= MAX_LIST_NESTING {
            return;
        }
        let Some(cmds) = self.lists.lists.get(&list).cloned() else {
            return; // an undefined list does nothing
        };
        self.lists.depth += 1;
        for cmd in cmds {
            self.execute(cmd);
        }
        self.lists.depth -= 1;
    }

    /// `glCallLists`: `names` holds `n` names of `ty` (list base added to each).
    pub fn call_lists(&mut self, n: i32, ty: GLenum, names: &[u8]) {
        let r = (|| {
            if n < 0 {
                return invalid_value("glCallLists n < 0");
            }
            let width = match ty {
                GL_BYTE | GL_UNSIGNED_BYTE => 1,
                GL_SHORT | GL_UNSIGNED_SHORT | GL_2_BYTES => 2,
                GL_3_BYTES => 3,
                GL_INT | GL_UNSIGNED_INT | GL_FLOAT | GL_4_BYTES => 4,
                t => return invalid_enum("glCallLists type", t),
            };
            let mut out = Vec::with_capacity(n as usize);
            for b in names.chunks_exact(width).take(n as usize) {
                let v = match (ty, b) {
                    (GL_BYTE, &[x]) => i64::from(x as i8),
                    (GL_SHORT, &[x, y]) => i64::from(i16::from_ne_bytes([x, y])),
                    (GL_UNSIGNED_SHORT, &[x, y]) => i64::from(u16::from_ne_bytes([x, y])),
                    (GL_INT, &[x, y, z, w]) => i64::from(i32::from_ne_bytes([x, y, z, w])),
                    (GL_UNSIGNED_INT, &[x, y, z, w]) => i64::from(u32::from_ne_bytes([x, y, z, w])),
                    (GL_FLOAT, &[x, y, z, w]) => f32::from_ne_bytes([x, y, z, w]) as i64,
                    // GL_n_BYTES: big-endian unsigned.
                    _ => b.iter().fold(0i64, |acc, &x| (acc << 8) | i64::from(x)),
                };
                out.push(v);
            }
            Ok(out)
        })();
        let Some(values) = self.record(r) else {
            return;
        };
        let base = i64::from(self.lists.base);
        for v in values {
            if let Ok(list) = u32::try_from(base + v) {
                self.call_list(list);
            }
        }
    }

    fn execute(&mut self, cmd: ListCommand) {
        match cmd {
            ListCommand::Begin(mode) => self.begin(mode),
            ListCommand::End => self.end(),
            ListCommand::Vertex(v) => self.vertex(v),
            ListCommand::Current(a, v) => self.ff_current(a, v),
            ListCommand::MultiTexCoord(t, v) => self.multi_tex_coord(t, v),
            ListCommand::MatrixMode(m) => self.matrix_mode(m),
            ListCommand::LoadMatrix(m, t) => self.load_matrix(m, t),
            ListCommand::MultMatrix(m, t) => self.mult_matrix(m, t),
            ListCommand::PushPopMatrix(push) => self.push_pop_matrix(push),
            ListCommand::OrthoFrustum(f, v) => self.ortho_frustum(f, v),
            ListCommand::TranslateScale(s, [x, y, z]) => self.translate_scale(s, x, y, z),
            ListCommand::Rotate([a, x, y, z]) => self.rotate(a, x, y, z),
            ListCommand::Capability(cap, on) => self.set_capability(cap, on),
            ListCommand::PolygonOffset(f, u, None) => self.polygon_offset(f, u),
            ListCommand::PolygonOffset(f, u, Some(c)) => self.polygon_offset_clamp(f, u, c),
            ListCommand::ShadeModel(m) => self.shade_model(m),
            ListCommand::AlphaFunc(f, r) => self.alpha_func(f, r),
            ListCommand::Light(l, p, v) => self.light(l, p, &v),
            ListCommand::Material(f, p, v) => self.material(f, p, &v),
            ListCommand::LightModel(p, v) => self.light_model(p, &v),
            ListCommand::ColorMaterial(f, m) => self.color_material(f, m),
            ListCommand::CallList(n) => self.call_list(n),
        }
    }
}
