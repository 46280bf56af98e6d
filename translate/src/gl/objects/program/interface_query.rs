//! GL_ARB_program_interface_query: `glGetProgramInterfaceiv` and `glGetProgramResource*`,
//! answered from the linked program's reflection.
//!
//! Each query builds the table of one interface ([`Resource`]s: a name and the properties it
//! answers, in GL's resource order) from `Linked` and the program's bindings, and reads it; a
//! property an interface does not have is `GL_INVALID_OPERATION`, as GL says.
//!
//! What the tables hold: uniforms, uniform blocks (one resource per array element), the
//! vertex inputs of a program with a vertex stage, the fragment outputs of one with a fragment
//! stage, shader storage blocks, atomic-counter buffers, transform feedback varyings, and each
//! stage's subroutines and subroutine uniforms. Not yet: buffer variables (storage-block
//! members are not reflected), the inputs of a program whose first stage is not the vertex
//! stage and the outputs of one whose last is not the fragment stage. Loose uniforms and
//! samplers report being referenced by every stage of the program (the reflection keeps one
//! default block for all stages).

use crate::gl::context::enums::*;
use crate::gl::context::error::{invalid_enum, invalid_op, invalid_value, GlError, GlResult};
use crate::gl::context::Context;
use crate::gl::objects::program::{Linked, Program, UniformStorage};
use crate::glsl::xfb::XfbLayout;
use crate::glsl::{Stage, StageMask};

pub(crate) const GL_UNIFORM: GLenum = 0x92E1;
pub(crate) const GL_UNIFORM_BLOCK: GLenum = 0x92E2;
pub(crate) const GL_PROGRAM_INPUT: GLenum = 0x92E3;
pub(crate) const GL_PROGRAM_OUTPUT: GLenum = 0x92E4;
pub(crate) const GL_BUFFER_VARIABLE: GLenum = 0x92E5;
pub(crate) const GL_SHADER_STORAGE_BLOCK: GLenum = 0x92E6;
pub(crate) const GL_ATOMIC_COUNTER_BUFFER_INTERFACE: GLenum = 0x92C0;
pub(crate) const GL_TRANSFORM_FEEDBACK_VARYING: GLenum = 0x92F4;
/// GL_ARB_enhanced_layouts: the buffers transform feedback captures into.
const GL_TRANSFORM_FEEDBACK_BUFFER_INTERFACE: GLenum = 0x8C8E;
const GL_TRANSFORM_FEEDBACK_BUFFER_INDEX: GLenum = 0x934B;
const GL_TRANSFORM_FEEDBACK_BUFFER_STRIDE: GLenum = 0x934C;
/// `GL_VERTEX_SUBROUTINE` … `GL_COMPUTE_SUBROUTINE`, in [`SUBROUTINE_STAGES`] order.
const GL_VERTEX_SUBROUTINE: GLenum = 0x92E8;
/// `GL_VERTEX_SUBROUTINE_UNIFORM` … `GL_COMPUTE_SUBROUTINE_UNIFORM`.
const GL_VERTEX_SUBROUTINE_UNIFORM: GLenum = 0x92EE;
const SUBROUTINE_STAGES: [Stage; 6] = [
    Stage::Vertex,
    Stage::TessControl,
    Stage::TessEvaluation,
    Stage::Geometry,
    Stage::Fragment,
    Stage::Compute,
];

pub(crate) const GL_ACTIVE_RESOURCES: GLenum = 0x92F5;
pub(crate) const GL_MAX_NAME_LENGTH: GLenum = 0x92F6;
pub(crate) const GL_MAX_NUM_ACTIVE_VARIABLES: GLenum = 0x92F7;
pub(crate) const GL_MAX_NUM_COMPATIBLE_SUBROUTINES: GLenum = 0x92F8;

const GL_NAME_LENGTH: GLenum = 0x92F9;
const GL_TYPE: GLenum = 0x92FA;
const GL_ARRAY_SIZE: GLenum = 0x92FB;
const GL_OFFSET: GLenum = 0x92FC;
const GL_BLOCK_INDEX: GLenum = 0x92FD;
const GL_ARRAY_STRIDE: GLenum = 0x92FE;
const GL_MATRIX_STRIDE: GLenum = 0x92FF;
const GL_IS_ROW_MAJOR: GLenum = 0x9300;
const GL_ATOMIC_COUNTER_BUFFER_INDEX: GLenum = 0x9301;
const GL_BUFFER_BINDING: GLenum = 0x9302;
const GL_BUFFER_DATA_SIZE: GLenum = 0x9303;
const GL_NUM_ACTIVE_VARIABLES: GLenum = 0x9304;
const GL_ACTIVE_VARIABLES: GLenum = 0x9305;
/// `GL_REFERENCED_BY_VERTEX_SHADER` … `_COMPUTE_SHADER`, in [`SUBROUTINE_STAGES`] order.
const GL_REFERENCED_BY_VERTEX_SHADER: GLenum = 0x9306;
const GL_LOCATION: GLenum = 0x930E;
const GL_LOCATION_INDEX: GLenum = 0x930F;
const GL_IS_PER_PATCH: GLenum = 0x92E7;
const GL_LOCATION_COMPONENT: GLenum = 0x934A;
const GL_NUM_COMPATIBLE_SUBROUTINES_PROP: GLenum = 0x8E4A;
const GL_COMPATIBLE_SUBROUTINES_PROP: GLenum = 0x8E4B;

/// Whether `prop` is a property enum of this extension (another enum is `GL_INVALID_ENUM`).
fn is_property(prop: GLenum) -> bool {
    matches!(prop, GL_NAME_LENGTH..=GL_LOCATION_INDEX)
        || matches!(
            prop,
            GL_IS_PER_PATCH
                | GL_LOCATION_COMPONENT
                | GL_TRANSFORM_FEEDBACK_BUFFER_INDEX
                | GL_TRANSFORM_FEEDBACK_BUFFER_STRIDE
                | GL_NUM_COMPATIBLE_SUBROUTINES_PROP
                | GL_COMPATIBLE_SUBROUTINES_PROP
        )
}

/// A program interface.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Interface {
    Uniform,
    UniformBlock,
    Input,
    Output,
    BufferVariable,
    StorageBlock,
    AtomicCounterBuffer,
    XfbVarying,
    XfbBuffer,
    Subroutine(Stage),
    SubroutineUniform(Stage),
}

impl Interface {
    fn of(e: GLenum, tessellation: bool) -> Option<Self> {
        let stage_at = |base: GLenum| {
            let stage = *SUBROUTINE_STAGES.get(e.checked_sub(base)? as usize)?;
            let tess = matches!(stage, Stage::TessControl | Stage::TessEvaluation);
            (!tess || tessellation).then_some(stage)
        };
        Some(match e {
            GL_UNIFORM => Interface::Uniform,
            GL_UNIFORM_BLOCK => Interface::UniformBlock,
            GL_PROGRAM_INPUT => Interface::Input,
            GL_PROGRAM_OUTPUT => Interface::Output,
            GL_BUFFER_VARIABLE => Interface::BufferVariable,
            GL_SHADER_STORAGE_BLOCK => Interface::StorageBlock,
            GL_ATOMIC_COUNTER_BUFFER_INTERFACE => Interface::AtomicCounterBuffer,
            GL_TRANSFORM_FEEDBACK_VARYING => Interface::XfbVarying,
            GL_TRANSFORM_FEEDBACK_BUFFER_INTERFACE => Interface::XfbBuffer,
            e if (GL_VERTEX_SUBROUTINE..GL_VERTEX_SUBROUTINE + 6).contains(&e) => {
                Interface::Subroutine(stage_at(GL_VERTEX_SUBROUTINE)?)
            }
            e if (GL_VERTEX_SUBROUTINE_UNIFORM..GL_VERTEX_SUBROUTINE_UNIFORM + 6).contains(&e) => {
                Interface::SubroutineUniform(stage_at(GL_VERTEX_SUBROUTINE_UNIFORM)?)
            }
            _ => return None,
        })
    }

    /// Whether its resources have names (atomic-counter and transform feedback buffers do
    /// not).
    fn named(self) -> bool {
        !matches!(self, Interface::AtomicCounterBuffer | Interface::XfbBuffer)
    }

    /// Whether its resources list active variables (blocks and buffers).
    fn has_variables(self) -> bool {
        matches!(
            self,
            Interface::UniformBlock
                | Interface::StorageBlock
                | Interface::AtomicCounterBuffer
                | Interface::XfbBuffer
        )
    }
}

/// One active resource: its name and the properties it answers.
struct Resource {
    name: String,
    props: Vec<(GLenum, Vec<i32>)>,
}

impl Resource {
    fn new(name: String) -> Self {
        let props = vec![(GL_NAME_LENGTH, vec![name.len() as i32 + 1])];
        Self { name, props }
    }

    fn with(mut self, prop: GLenum, value: i32) -> Self {
        self.props.push((prop, vec![value]));
        self
    }

    fn with_list(mut self, prop: GLenum, values: Vec<i32>) -> Self {
        self.props.push((prop, values));
        self
    }

    /// The six `GL_REFERENCED_BY_*_SHADER` properties of `stages`.
    fn referenced_by(mut self, stages: StageMask) -> Self {
        for (i, stage) in SUBROUTINE_STAGES.into_iter().enumerate() {
            let prop = GL_REFERENCED_BY_VERTEX_SHADER + i as GLenum;
            self.props
                .push((prop, vec![i32::from(stages.contains(stage))]));
        }
        self
    }

    fn prop(&self, prop: GLenum) -> Option<&[i32]> {
        self.props
            .iter()
            .find(|(p, _)| *p == prop)
            .map(|(_, v)| v.as_slice())
    }
}

/// The stages of `linked`'s modules.
fn program_stages(linked: &Linked) -> StageMask {
    linked.modules.iter().map(|(stage, _)| *stage).collect()
}

/// The table of `interface` for `program` (empty before a successful link).
fn resources(interface: Interface, program: &Program) -> Vec<Resource> {
    let Some(linked) = program.linked.as_deref() else {
        return Vec::new();
    };
    match interface {
        Interface::Uniform => uniforms(linked),
        Interface::UniformBlock => uniform_blocks(linked, program),
        Interface::Input => inputs(linked, program),
        Interface::Output => outputs(linked, program),
        Interface::BufferVariable => Vec::new(),
        Interface::StorageBlock | Interface::AtomicCounterBuffer => {
            storage_blocks(linked, program, interface == Interface::AtomicCounterBuffer)
        }
        Interface::XfbVarying => linked.xfb.as_ref().map_or_else(Vec::new, xfb_varyings),
        Interface::XfbBuffer => linked.xfb.as_ref().map_or_else(Vec::new, xfb_buffers),
        Interface::Subroutine(stage) => linked.subroutines_of(stage).map_or_else(Vec::new, |t| {
            let mut functions: Vec<_> = t.functions.iter().collect();
            functions.sort_by_key(|f| f.index);
            functions
                .into_iter()
                .map(|f| Resource::new(f.name.clone()))
                .collect()
        }),
        Interface::SubroutineUniform(stage) => {
            linked.subroutines_of(stage).map_or_else(Vec::new, |t| {
                t.uniforms
                    .iter()
                    .map(|u| {
                        let name = if u.size > 1 {
                            format!("{}[0]", u.name)
                        } else {
                            u.name.clone()
                        };
                        Resource::new(name)
                            .with(GL_ARRAY_SIZE, u.size as i32)
                            .with(
                                GL_NUM_COMPATIBLE_SUBROUTINES_PROP,
                                u.compatible.len() as i32,
                            )
                            .with_list(
                                GL_COMPATIBLE_SUBROUTINES_PROP,
                                u.compatible.iter().map(|&c| c as i32).collect(),
                            )
                            .with(GL_LOCATION, u.location as i32)
                    })
                    .collect()
            })
        }
    }
}

/// The bindings a capture writes, in binding order: those with a captured varying.
fn written_bindings(x: &XfbLayout) -> Vec<u32> {
    let mut out: Vec<u32> = x
        .varyings
        .iter()
        .filter(|v| v.gl_type != 0)
        .map(|v| v.buffer)
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

fn xfb_varyings(x: &XfbLayout) -> Vec<Resource> {
    let bindings = written_bindings(x);
    x.varyings
        .iter()
        .map(|v| {
            let index = bindings.iter().position(|&b| b == v.buffer);
            Resource::new(v.name.clone())
                .with(GL_TYPE, v.gl_type as i32)
                .with(GL_ARRAY_SIZE, v.size)
                .with(GL_OFFSET, v.offset as i32)
                .with(
                    GL_TRANSFORM_FEEDBACK_BUFFER_INDEX,
                    index.map_or(-1, |i| i as i32),
                )
        })
        .collect()
}

/// GL_ARB_enhanced_layouts' `GL_TRANSFORM_FEEDBACK_BUFFER` resources: one per binding written.
fn xfb_buffers(x: &XfbLayout) -> Vec<Resource> {
    written_bindings(x)
        .into_iter()
        .map(|b| {
            let members: Vec<i32> = (0i32..)
                .zip(&x.varyings)
                .filter(|(_, v)| v.gl_type != 0 && v.buffer == b)
                .map(|(i, _)| i)
                .collect();
            let stride = x.strides.get(b as usize).copied().unwrap_or(0);
            Resource::new(String::new())
                .with(GL_BUFFER_BINDING, b as i32)
                .with(GL_NUM_ACTIVE_VARIABLES, members.len() as i32)
                .with_list(GL_ACTIVE_VARIABLES, members)
                .with(GL_TRANSFORM_FEEDBACK_BUFFER_STRIDE, stride as i32)
        })
        .collect()
}

fn uniforms(linked: &Linked) -> Vec<Resource> {
    let all = program_stages(linked);
    linked
        .uniforms
        .iter()
        .map(|u| {
            let is_matrix = u.ty.shape().is_some_and(|(_, cols, _)| cols > 1);
            let (block, layout, stages) = match u.storage {
                UniformStorage::Block {
                    block,
                    offset,
                    array_stride,
                    matrix_stride,
                    row_major,
                } => {
                    let index: u32 = linked.blocks[..block].iter().map(|b| b.array_size).sum();
                    let stages = linked.blocks.get(block).map_or(all, |b| b.stages);
                    (
                        index as i32,
                        Some((offset, array_stride, matrix_stride, row_major)),
                        stages,
                    )
                }
                _ => (-1, None, all),
            };
            Resource::new(u.name.clone())
                .with(GL_TYPE, u.ty.gl_enum().unwrap_or(GL_FLOAT_VEC4) as i32)
                .with(GL_ARRAY_SIZE, u.size as i32)
                .with(GL_OFFSET, layout.map_or(-1, |l| l.0 as i32))
                .with(GL_BLOCK_INDEX, block)
                .with(
                    GL_ARRAY_STRIDE,
                    layout.map_or(-1, |l| if u.size > 1 { l.1 as i32 } else { 0 }),
                )
                .with(
                    GL_MATRIX_STRIDE,
                    layout.map_or(-1, |l| if is_matrix { l.2 as i32 } else { 0 }),
                )
                .with(
                    GL_IS_ROW_MAJOR,
                    i32::from(layout.is_some_and(|l| l.3 && is_matrix)),
                )
                .with(GL_ATOMIC_COUNTER_BUFFER_INDEX, -1)
                .with(GL_LOCATION, u.location.unwrap_or(-1))
                .referenced_by(stages)
        })
        .collect()
}

fn uniform_blocks(linked: &Linked, program: &Program) -> Vec<Resource> {
    let mut out = Vec::new();
    for b in &linked.blocks {
        for e in 0..b.array_size {
            let name = b.element_name(e);
            let binding = program.block_bindings.get(out.len()).copied().unwrap_or(0);
            out.push(
                Resource::new(name)
                    .with(GL_BUFFER_BINDING, binding as i32)
                    .with(GL_BUFFER_DATA_SIZE, b.data_size as i32)
                    .with(GL_NUM_ACTIVE_VARIABLES, b.members.len() as i32)
                    .with_list(
                        GL_ACTIVE_VARIABLES,
                        b.members.iter().map(|&m| m as i32).collect(),
                    )
                    .referenced_by(b.stages),
            );
        }
    }
    out
}

/// Whether the application linked a unit of `stage` (a stage the link supplied is not part of
/// the program's interface).
fn linked_stage(program: &Program, stage: Stage) -> bool {
    program
        .link_input
        .as_ref()
        .is_none_or(|input| input.has_stage(stage))
}

fn inputs(linked: &Linked, program: &Program) -> Vec<Resource> {
    if !linked_stage(program, Stage::Vertex) {
        return Vec::new();
    }
    let vertex = StageMask::of(Stage::Vertex);
    linked
        .attribs
        .iter()
        .map(|a| {
            Resource::new(a.name.clone())
                .with(GL_TYPE, a.ty.gl_enum().unwrap_or(GL_FLOAT_VEC4) as i32)
                .with(GL_ARRAY_SIZE, a.array_size.unwrap_or(1) as i32)
                .with(GL_LOCATION, a.gl_location as i32)
                .with(GL_IS_PER_PATCH, 0)
                .with(GL_LOCATION_COMPONENT, 0)
                .referenced_by(vertex)
        })
        .collect()
}

fn outputs(linked: &Linked, program: &Program) -> Vec<Resource> {
    if !linked_stage(program, Stage::Fragment) {
        return Vec::new();
    }
    let fragment = StageMask::of(Stage::Fragment);
    linked
        .frag_outputs
        .iter()
        .enumerate()
        .map(|(i, (name, location, index))| {
            let (ty, array) = linked
                .frag_output_types
                .get(i)
                .copied()
                .map_or((GL_FLOAT_VEC4, None), |(t, a)| {
                    (t.gl_enum().unwrap_or(GL_FLOAT_VEC4), a)
                });
            let name = if array.is_some() && !name.ends_with(']') {
                format!("{name}[0]")
            } else {
                name.clone()
            };
            Resource::new(name)
                .with(GL_TYPE, ty as i32)
                .with(GL_ARRAY_SIZE, array.unwrap_or(1) as i32)
                .with(GL_LOCATION, *location as i32)
                .with(GL_LOCATION_INDEX, *index as i32)
                .with(GL_IS_PER_PATCH, 0)
                .with(GL_LOCATION_COMPONENT, 0)
                .referenced_by(fragment)
        })
        .collect()
}

fn storage_blocks(linked: &Linked, program: &Program, atomic: bool) -> Vec<Resource> {
    let mut out = Vec::new();
    let mut element = 0usize;
    for b in &linked.storage_blocks {
        for e in 0..b.count {
            let binding = program.storage_bindings.get(element).copied().unwrap_or(0);
            element += 1;
            if b.atomic_binding.is_some() != atomic {
                continue;
            }
            let name = if b.count > 1 {
                format!("{}[{e}]", b.name)
            } else {
                b.name.clone()
            };
            out.push(
                Resource::new(name)
                    .with(GL_BUFFER_BINDING, binding as i32)
                    .with(GL_NUM_ACTIVE_VARIABLES, 0)
                    .with_list(GL_ACTIVE_VARIABLES, Vec::new())
                    .referenced_by(b.stages),
            );
        }
    }
    out
}

/// The index of the resource `name` names: its exact name, or an array's name without `[0]`.
fn find(table: &[Resource], name: &str) -> Option<usize> {
    let is_array = |r: &Resource| r.prop(GL_ARRAY_SIZE).is_some_and(|v| v[0] > 1);
    table.iter().position(|r| {
        r.name == name
            || r.name.strip_suffix("[0]").is_some_and(|base| base == name)
            || (is_array(r) && name.strip_suffix("[0]") == Some(r.name.as_str()))
    })
}

impl Context {
    /// The program and the interface a query names (`call` is the entry point).
    fn interface_of(&self, program: u32, interface: GLenum, call: &str) -> GlResult<Interface> {
        let tessellation = self.device.caps().tessellation_shader;
        let found = Interface::of(interface, tessellation);
        self.program_ref(program)?;
        found.map_or_else(
            || invalid_enum(&format!("{call} programInterface"), interface),
            Ok,
        )
    }

    fn table(&self, program: u32, interface: Interface) -> GlResult<Vec<Resource>> {
        Ok(resources(interface, self.program_ref(program)?))
    }

    /// `glGetProgramInterfaceiv`.
    pub fn get_program_interface(&mut self, program: u32, interface: GLenum, pname: GLenum) -> i32 {
        let r = (|| {
            // An interface this GL lacks is GL_INVALID_OPERATION here, as Mesa and piglit
            // have it (the resource queries say GL_INVALID_ENUM).
            let iface = self
                .interface_of(program, interface, "glGetProgramInterfaceiv")
                .map_err(|e| match e {
                    GlError::InvalidEnum(why) => GlError::InvalidOperation(why),
                    e => e,
                })?;
            let table = self.table(program, iface)?;
            let max = |prop: GLenum| {
                table
                    .iter()
                    .filter_map(|r| r.prop(prop).and_then(|v| v.first().copied()))
                    .max()
                    .unwrap_or(0)
            };
            match pname {
                GL_ACTIVE_RESOURCES => Ok(table.len() as i32),
                GL_MAX_NAME_LENGTH if iface.named() => Ok(max(GL_NAME_LENGTH)),
                GL_MAX_NUM_ACTIVE_VARIABLES if iface.has_variables() => {
                    Ok(max(GL_NUM_ACTIVE_VARIABLES))
                }
                GL_MAX_NUM_COMPATIBLE_SUBROUTINES
                    if matches!(iface, Interface::SubroutineUniform(_)) =>
                {
                    Ok(max(GL_NUM_COMPATIBLE_SUBROUTINES_PROP))
                }
                GL_MAX_NAME_LENGTH
                | GL_MAX_NUM_ACTIVE_VARIABLES
                | GL_MAX_NUM_COMPATIBLE_SUBROUTINES => invalid_op(format!(
                    "glGetProgramInterfaceiv: {iface:?} has no pname {pname:#x}"
                )),
                p => invalid_enum("glGetProgramInterfaceiv pname", p),
            }
        })();
        self.record(r).unwrap_or(0)
    }

    /// `glGetProgramResourceIndex`: `GL_INVALID_INDEX` for a name no resource has.
    pub fn get_program_resource_index(
        &mut self,
        program: u32,
        interface: GLenum,
        name: &str,
    ) -> u32 {
        let r = (|| {
            let iface = self.interface_of(program, interface, "glGetProgramResourceIndex")?;
            if !iface.named() {
                return invalid_enum("glGetProgramResourceIndex programInterface", interface);
            }
            let table = self.table(program, iface)?;
            Ok(find(&table, name).map_or(GL_INVALID_INDEX, |i| i as u32))
        })();
        self.record(r).unwrap_or(GL_INVALID_INDEX)
    }

    /// `glGetProgramResourceName`.
    pub fn get_program_resource_name(
        &mut self,
        program: u32,
        interface: GLenum,
        index: u32,
    ) -> Option<String> {
        let r = (|| {
            let iface = self.interface_of(program, interface, "glGetProgramResourceName")?;
            if !iface.named() {
                return invalid_enum("glGetProgramResourceName programInterface", interface);
            }
            let table = self.table(program, iface)?;
            table.get(index as usize).map_or_else(
                || invalid_value(format!("glGetProgramResourceName: index {index}")),
                |r| Ok(r.name.clone()),
            )
        })();
        self.record(r)
    }

    /// `glGetProgramResourceiv`: the values of `props`, in order (a list property gives its
    /// whole list).
    pub fn get_program_resource_iv(
        &mut self,
        program: u32,
        interface: GLenum,
        index: u32,
        props: &[GLenum],
    ) -> Option<Vec<i32>> {
        let r = (|| {
            let iface = self.interface_of(program, interface, "glGetProgramResourceiv")?;
            let table = self.table(program, iface)?;
            let resource = table.get(index as usize).ok_or_else(|| {
                GlError::InvalidValue(format!("glGetProgramResourceiv: index {index}"))
            })?;
            let mut out = Vec::new();
            for &prop in props {
                match resource.prop(prop) {
                    Some(values) => out.extend_from_slice(values),
                    None if is_property(prop) => {
                        return invalid_op(format!(
                            "glGetProgramResourceiv: {iface:?} has no property {prop:#x}"
                        ))
                    }
                    None => return invalid_enum("glGetProgramResourceiv prop", prop),
                }
            }
            Ok(out)
        })();
        self.record(r)
    }

    /// `glGetProgramResourceLocation`: -1 for a name without a location.
    pub fn get_program_resource_location(
        &mut self,
        program: u32,
        interface: GLenum,
        name: &str,
    ) -> i32 {
        let r = (|| {
            let iface = self.interface_of(program, interface, "glGetProgramResourceLocation")?;
            let linked = self
                .program_ref(program)?
                .linked("glGetProgramResourceLocation")?
                .clone();
            if name.starts_with("gl_") {
                return Ok(-1);
            }
            match iface {
                Interface::Uniform => Ok(linked.uniform_location(name)),
                Interface::Input | Interface::Output => {
                    let table = self.table(program, iface)?;
                    Ok(located(&table, name, GL_LOCATION))
                }
                Interface::SubroutineUniform(stage) => {
                    let table = self.table(program, Interface::SubroutineUniform(stage))?;
                    Ok(located(&table, name, GL_LOCATION))
                }
                _ => invalid_enum("glGetProgramResourceLocation programInterface", interface),
            }
        })();
        self.record(r).unwrap_or(-1)
    }

    /// `glGetProgramResourceLocationIndex`: the fragment output's index, -1 for none.
    pub fn get_program_resource_location_index(
        &mut self,
        program: u32,
        interface: GLenum,
        name: &str,
    ) -> i32 {
        let r = (|| {
            let iface =
                self.interface_of(program, interface, "glGetProgramResourceLocationIndex")?;
            if iface != Interface::Output {
                return invalid_enum(
                    "glGetProgramResourceLocationIndex programInterface",
                    interface,
                );
            }
            self.program_ref(program)?
                .linked("glGetProgramResourceLocationIndex")?;
            let table = self.table(program, iface)?;
            Ok(find(&table, name)
                .and_then(|i| table[i].prop(GL_LOCATION_INDEX))
                .map_or(-1, |v| v[0]))
        })();
        self.record(r).unwrap_or(-1)
    }
}

/// The location `name` has in `table` (`prop`: its `GL_LOCATION`), an array element's being
/// the array's plus its subscript; -1 for none.
fn located(table: &[Resource], name: &str, prop: GLenum) -> i32 {
    let at = |n: &str| {
        find(table, n)
            .and_then(|i| table[i].prop(prop))
            .map(|v| v[0])
    };
    if let Some(loc) = at(name) {
        return loc;
    }
    let Some((base, sub)) = name
        .strip_suffix(']')
        .and_then(|n| n.rsplit_once('['))
        .and_then(|(base, i)| Some((base, i.parse::<i32>().ok()?)))
    else {
        return -1;
    };
    let size = find(table, base)
        .and_then(|i| table[i].prop(GL_ARRAY_SIZE))
        .map_or(1, |v| v[0]);
    match at(base) {
        Some(loc) if loc >= 0 && sub < size => loc + sub,
        _ => -1,
    }
}
