//! GL SPIR-V's loose uniforms moved into ArenaGL's default uniform block.
//!
//! A GL module declares each non-opaque uniform as its own `UniformConstant` variable with a
//! `Location`; Vulkan has no such variables. ArenaGL's GLSL path keeps loose uniforms in one
//! std140 block ([`DEFAULT_BLOCK_NAME`], set [`DEFAULT_BLOCK_SET`], binding
//! [`DEFAULT_BLOCK_BINDING`]) that `glUniform*` writes, so this pass builds that block from the
//! variables of every stage of the program (one member per uniform, in location order, the same
//! block in every stage that has one) and rewrites each stage's uses:
//! - an access chain from a uniform becomes an access chain from the block, one index longer;
//! - a load becomes a load through the block. A loaded struct or array is put together again,
//!   member by member, in the module's own type (the block's copies of aggregate types carry
//!   `Offset`/`ArrayStride` decorations, which the module's own types must not get), and a
//!   `bool`, which has no layout in a uniform buffer, is stored as a `uint` and compared to 0.
//! - any other use (a uniform's pointer passed to a function, selected, stored to) is refused
//!   with a link log, never a module with a dangling id.
#![deny(unsafe_code, clippy::unwrap_used, clippy::expect_used)]

use std::collections::{BTreeMap, HashMap};

use super::module::{header, op, opcode, Inst, Sections};
use crate::glsl::spirv::{Module, StorageClass, Type};
use crate::glsl::{DEFAULT_BLOCK_BINDING, DEFAULT_BLOCK_NAME, DEFAULT_BLOCK_SET};

const STORAGE_UNIFORM: u32 = 2;
const DECORATION_BLOCK: u32 = 2;
const DECORATION_COL_MAJOR: u32 = 5;
const DECORATION_ARRAY_STRIDE: u32 = 6;
const DECORATION_MATRIX_STRIDE: u32 = 7;
const DECORATION_BINDING: u32 = 33;
const DECORATION_DESCRIPTOR_SET: u32 = 34;
const DECORATION_OFFSET: u32 = 35;
const DECORATION_LOCATION: u32 = 30;
/// Nesting deeper than this is refused (a bound on the recursion a hostile module causes).
const MAX_DEPTH: u32 = 16;
/// The largest default block accepted, in bytes.
const MAX_BLOCK_BYTES: u64 = 1 << 20;

/// A scalar of a uniform.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Scalar {
    Float(u32),
    Int(u32),
    UInt(u32),
    Bool,
}

impl Scalar {
    fn bytes(self) -> u64 {
        match self {
            Self::Float(w) | Self::Int(w) | Self::UInt(w) => u64::from(w / 8),
            Self::Bool => 4,
        }
    }
}

/// What a loose uniform holds, whatever ids a module gives its types.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) enum Shape {
    Scalar(Scalar),
    Vector(Scalar, u32),
    Matrix {
        column: Scalar,
        rows: u32,
        columns: u32,
    },
    Array(Box<Shape>, u32),
    Struct(Vec<Shape>),
}

fn round_up(v: u64, to: u64) -> u64 {
    v.div_ceil(to.max(1)) * to.max(1)
}

impl Shape {
    /// The shape of type `ty` of `m`.
    pub(super) fn of(m: &Module, ty: u32, depth: u32) -> Result<Self, String> {
        if depth > MAX_DEPTH {
            return Err("a uniform's type is nested too deeply".into());
        }
        let scalar = |id: u32| match m.types.get(&id) {
            Some(Type::Bool) => Ok(Scalar::Bool),
            Some(&Type::Float {
                width: w @ (32 | 64),
            }) => Ok(Scalar::Float(w)),
            Some(&Type::Int {
                width: w @ (32 | 64),
                signed,
            }) => Ok(if signed {
                Scalar::Int(w)
            } else {
                Scalar::UInt(w)
            }),
            _ => Err(format!("uniform component type %{id} is not supported")),
        };
        Ok(match m.types.get(&ty) {
            Some(Type::Vector { component, count }) => Self::Vector(scalar(*component)?, *count),
            Some(Type::Matrix { column, columns }) => match m.types.get(column) {
                Some(Type::Vector { component, count }) => Self::Matrix {
                    column: scalar(*component)?,
                    rows: *count,
                    columns: *columns,
                },
                _ => return Err(format!("matrix type %{ty} has no vector columns")),
            },
            Some(Type::Array {
                element,
                length: Some(n),
            }) if *n > 0 => Self::Array(Box::new(Self::of(m, *element, depth + 1)?), *n),
            Some(Type::Struct { members }) if !members.is_empty() => Self::Struct(
                members
                    .iter()
                    .map(|t| Self::of(m, *t, depth + 1))
                    .collect::<Result<_, _>>()?,
            ),
            Some(_) => Self::Scalar(scalar(ty)?),
            None => return Err(format!("uniform type %{ty} is not declared")),
        })
    }

    /// The components of a `bool`/`bvecN` (or an array of them); `None` for other types.
    pub(super) fn bool_components(&self) -> Option<u32> {
        match self {
            Self::Scalar(Scalar::Bool) => Some(1),
            Self::Vector(Scalar::Bool, n) => Some(*n),
            Self::Array(e, _) => e.bool_components(),
            _ => None,
        }
    }

    /// How many GL uniform locations it takes (one per basic-typed element).
    pub(super) fn locations(&self) -> u64 {
        match self {
            Self::Array(e, n) => e.locations().saturating_mul(u64::from(*n)),
            Self::Struct(ms) => ms.iter().map(Self::locations).fold(0, u64::saturating_add),
            _ => 1,
        }
    }

    /// std140's base alignment and size.
    fn align_size(&self) -> (u64, u64) {
        match self {
            Self::Scalar(s) => (s.bytes(), s.bytes()),
            Self::Vector(s, n) => {
                let w = s.bytes();
                (if *n == 2 { 2 * w } else { 4 * w }, u64::from(*n) * w)
            }
            Self::Matrix { columns, .. } => {
                let stride = self.matrix_stride();
                (stride, stride * u64::from(*columns))
            }
            Self::Array(e, n) => {
                let stride = self.array_stride();
                (
                    round_up(e.align_size().0, 16),
                    stride.saturating_mul(u64::from(*n)),
                )
            }
            Self::Struct(ms) => {
                let offsets = struct_offsets(ms);
                let align = ms.iter().map(|m| m.align_size().0).max().unwrap_or(16);
                let align = round_up(align, 16);
                let end = ms
                    .last()
                    .zip(offsets.last())
                    .map_or(0, |(m, o)| o.saturating_add(m.align_size().1));
                (align, round_up(end, align))
            }
        }
    }

    /// std140's stride of an array's elements (0 when not an array).
    fn array_stride(&self) -> u64 {
        match self {
            Self::Array(e, _) => {
                let (a, s) = e.align_size();
                round_up(s, round_up(a, 16))
            }
            _ => 0,
        }
    }

    /// std140's stride of a column-major matrix's columns (0 when not a matrix).
    fn matrix_stride(&self) -> u64 {
        match self {
            Self::Matrix { column, rows, .. } => {
                Self::Vector(*column, *rows).align_size().0.max(16)
            }
            _ => 0,
        }
    }

    /// The matrix an array (of arrays) of matrices, or this matrix, holds.
    fn innermost_matrix(&self) -> Option<&Self> {
        match self {
            Self::Matrix { .. } => Some(self),
            Self::Array(e, _) => e.innermost_matrix(),
            _ => None,
        }
    }
}

/// Each member's std140 offset.
fn struct_offsets(members: &[Shape]) -> Vec<u64> {
    let mut at = 0u64;
    members
        .iter()
        .map(|m| {
            let (a, s) = m.align_size();
            let offset = round_up(at, a);
            at = offset.saturating_add(s);
            offset
        })
        .collect()
}

/// A module's loose uniform: its variable, location and type.
#[derive(Clone, Debug)]
pub(super) struct Loose {
    pub var: u32,
    pub location: u32,
    pub pointee: u32,
    pub shape: Shape,
    /// The variable's initializer (a constant), if it has one.
    pub initializer: Option<u32>,
}

/// Whether `ty` (or the element of an array of it) is an opaque type.
fn is_opaque(m: &Module, ty: u32) -> bool {
    match m.types.get(&ty) {
        Some(Type::Image(_) | Type::Sampler | Type::SampledImage { .. }) => true,
        Some(Type::Array { element, .. } | Type::RuntimeArray { element }) => {
            is_opaque(m, *element)
        }
        _ => false,
    }
}

/// The loose uniforms of module `m` (`s` is the same module, split).
pub(super) fn loose_uniforms(m: &Module, s: &Sections) -> Result<Vec<Loose>, String> {
    let mut out = Vec::new();
    for var in m
        .variables
        .iter()
        .filter(|v| v.storage == StorageClass::UniformConstant)
    {
        let Some(Type::Pointer { pointee, .. }) = m.types.get(&var.pointer_type) else {
            return Err(format!("variable %{} is not a pointer", var.id));
        };
        if is_opaque(m, *pointee) {
            continue;
        }
        let location = m
            .decoration(var.id, DECORATION_LOCATION)
            .ok_or_else(|| format!("uniform %{} has no Location", var.id))?;
        let initializer = s.globals.iter().find_map(|i| {
            (opcode(i) == op::VARIABLE && i.get(2) == Some(&var.id))
                .then(|| i.get(4).copied())
                .flatten()
        });
        out.push(Loose {
            var: var.id,
            location,
            pointee: *pointee,
            shape: Shape::of(m, *pointee, 0)?,
            initializer,
        });
    }
    Ok(out)
}

/// The program's default block: each uniform's shape by location, checked for agreement
/// between stages and for overlapping locations.
pub(super) fn program_block(stages: &[Vec<Loose>]) -> Result<BTreeMap<u32, Shape>, String> {
    let mut block: BTreeMap<u32, Shape> = BTreeMap::new();
    for loose in stages.iter().flatten() {
        match block.get(&loose.location) {
            Some(shape) if *shape != loose.shape => {
                return Err(format!(
                    "the uniform at location {} has different types in two stages",
                    loose.location
                ))
            }
            Some(_) => {}
            None => {
                block.insert(loose.location, loose.shape.clone());
            }
        }
    }
    let mut next_free = 0u64;
    for (&location, shape) in &block {
        if u64::from(location) < next_free {
            return Err(format!("two uniforms overlap at location {location}"));
        }
        next_free = u64::from(location) + shape.locations();
    }
    let size = Shape::Struct(block.values().cloned().collect())
        .align_size()
        .1;
    if size > MAX_BLOCK_BYTES {
        return Err(format!(
            "the uniforms take {size} bytes, more than ArenaGL allows"
        ));
    }
    Ok(block)
}

/// The GL name ArenaGL gives the uniform at `location` (SPIR-V's names are not used).
pub(super) fn uniform_name(location: u32) -> String {
    format!("spirv_location_{location}")
}

/// Declares the block's types in one module.
struct Layout<'a> {
    s: &'a mut Sections,
    laid: HashMap<Shape, u32>,
    uints: HashMap<u32, u32>,
}

impl Layout<'_> {
    fn uint(&mut self) -> Result<u32, String> {
        self.s.global(op::TYPE_INT, &[32, 0])
    }

    /// A `uint` constant.
    fn index(&mut self, value: u32) -> Result<u32, String> {
        if let Some(&id) = self.uints.get(&value) {
            return Ok(id);
        }
        let uint = self.uint()?;
        let id = self.s.constant(uint, value)?;
        self.uints.insert(value, id);
        Ok(id)
    }

    fn scalar(&mut self, s: Scalar) -> Result<u32, String> {
        match s {
            Scalar::Float(w) => self.s.global(op::TYPE_FLOAT, &[w]),
            Scalar::Int(w) => self.s.global(op::TYPE_INT, &[w, 1]),
            Scalar::UInt(w) => self.s.global(op::TYPE_INT, &[w, 0]),
            Scalar::Bool => self.uint(),
        }
    }

    /// The laid-out type of `shape` (declared once per module).
    fn ty(&mut self, shape: &Shape) -> Result<u32, String> {
        if let Some(&id) = self.laid.get(shape) {
            return Ok(id);
        }
        let id = match shape {
            Shape::Scalar(s) => self.scalar(*s)?,
            Shape::Vector(s, n) => {
                let c = self.scalar(*s)?;
                self.s.global(op::TYPE_VECTOR, &[c, *n])?
            }
            Shape::Matrix {
                column,
                rows,
                columns,
            } => {
                let c = self.ty(&Shape::Vector(*column, *rows))?;
                self.s.global(op::TYPE_MATRIX, &[c, *columns])?
            }
            Shape::Array(e, n) => {
                let element = self.ty(e)?;
                let length = self.index(*n)?;
                let id = self.s.declare(op::TYPE_ARRAY, &[element, length])?;
                let stride = u32::try_from(shape.array_stride()).map_err(|_| "array too large")?;
                self.s.decorate(id, DECORATION_ARRAY_STRIDE, &[stride]);
                id
            }
            Shape::Struct(ms) => self.structure(ms)?,
        };
        self.laid.insert(shape.clone(), id);
        Ok(id)
    }

    /// A new struct of `members` with their std140 offsets (and matrix layouts).
    fn structure(&mut self, members: &[Shape]) -> Result<u32, String> {
        let ids = members
            .iter()
            .map(|m| self.ty(m))
            .collect::<Result<Vec<_>, _>>()?;
        let id = self.s.declare(op::TYPE_STRUCT, &ids)?;
        for (i, (m, offset)) in members.iter().zip(struct_offsets(members)).enumerate() {
            let i = i as u32;
            let offset = u32::try_from(offset).map_err(|_| "uniform offset too large")?;
            self.s.decorate_member(id, i, DECORATION_OFFSET, &[offset]);
            if let Some(matrix) = m.innermost_matrix() {
                let stride = matrix.matrix_stride() as u32;
                self.s.decorate_member(id, i, DECORATION_COL_MAJOR, &[]);
                self.s
                    .decorate_member(id, i, DECORATION_MATRIX_STRIDE, &[stride]);
            }
            self.s.name_member(id, i, &format!("m{i}"));
        }
        Ok(id)
    }

    fn pointer(&mut self, pointee: u32) -> Result<u32, String> {
        self.s.global(op::TYPE_POINTER, &[STORAGE_UNIFORM, pointee])
    }

    fn null(&mut self, ty: u32) -> Result<u32, String> {
        let found = self
            .s
            .globals
            .iter()
            .find(|i| opcode(i) == op::CONSTANT_NULL && i.len() == 3 && i[1] == ty);
        if let Some(i) = found {
            return Ok(i[2]);
        }
        let id = self.s.fresh()?;
        self.s
            .globals
            .push(vec![header(op::CONSTANT_NULL, 3), ty, id]);
        Ok(id)
    }
}

/// Where a rewritten pointer points: a block member and indices into it.
#[derive(Clone)]
struct Access {
    member: u32,
    indices: Vec<u32>,
    /// The module's own type of what it points at, and its shape.
    orig: u32,
    shape: Shape,
}

/// Rewrites one module's loose uniforms (`loose`, from [`loose_uniforms`]) into the program's
/// default block `block` (see the module docs). `m` is the module as parsed before.
pub(super) fn lower(
    s: &mut Sections,
    m: &Module,
    loose: &[Loose],
    block: &BTreeMap<u32, Shape>,
) -> Result<(), String> {
    if loose.is_empty() {
        return Ok(());
    }
    let mut layout = Layout {
        s,
        laid: HashMap::new(),
        uints: HashMap::new(),
    };
    let shapes: Vec<Shape> = block.values().cloned().collect();
    let block_ty = layout.structure(&shapes)?;
    layout.s.decorate(block_ty, DECORATION_BLOCK, &[]);
    layout.s.name(block_ty, DEFAULT_BLOCK_NAME);
    for (i, &location) in block.keys().enumerate() {
        layout.s.debug.retain(|d| {
            !(opcode(d) == op::MEMBER_NAME && d.get(1..3) == Some(&[block_ty, i as u32]))
        });
        layout
            .s
            .name_member(block_ty, i as u32, &uniform_name(location));
    }
    let block_ptr = layout.pointer(block_ty)?;
    let block_var = layout.s.fresh()?;
    layout.s.globals.push(vec![
        header(op::VARIABLE, 4),
        block_ptr,
        block_var,
        STORAGE_UNIFORM,
    ]);
    layout
        .s
        .decorate(block_var, DECORATION_DESCRIPTOR_SET, &[DEFAULT_BLOCK_SET]);
    layout
        .s
        .decorate(block_var, DECORATION_BINDING, &[DEFAULT_BLOCK_BINDING]);
    super::resources::add_to_interface(layout.s, block_var);

    let mut map: HashMap<u32, Access> = HashMap::new();
    for l in loose {
        let member = block
            .keys()
            .position(|&loc| loc == l.location)
            .ok_or("a uniform is missing from the block")?;
        let member = layout.index(member as u32)?;
        map.insert(
            l.var,
            Access {
                member,
                indices: Vec::new(),
                orig: l.pointee,
                shape: l.shape.clone(),
            },
        );
    }
    let vars: Vec<u32> = loose.iter().map(|l| l.var).collect();
    layout
        .s
        .globals
        .retain(|i| !(opcode(i) == op::VARIABLE && i.get(2).is_some_and(|v| vars.contains(v))));
    layout
        .s
        .annotations
        .retain(|i| !(opcode(i) == op::DECORATE && i.get(1).is_some_and(|v| vars.contains(v))));
    super::resources::remove_from_interface(layout.s, &vars);

    let functions = std::mem::take(&mut layout.s.functions);
    let mut rewriter = Rewriter {
        layout,
        m,
        map,
        block_var,
    };
    let mut out = Vec::with_capacity(functions.len());
    for inst in functions {
        rewriter.rewrite(inst, &mut out)?;
    }
    rewriter.layout.s.functions = out;
    Ok(())
}

struct Rewriter<'a, 'b> {
    layout: Layout<'b>,
    m: &'a Module,
    map: HashMap<u32, Access>,
    block_var: u32,
}

impl Rewriter<'_, '_> {
    fn rewrite(&mut self, inst: Inst, out: &mut Vec<Inst>) -> Result<(), String> {
        let mapped = |at: usize| inst.get(at).and_then(|id| self.map.get(id)).cloned();
        match opcode(&inst) {
            op::LOAD if inst.len() >= 4 => {
                if let Some(access) = mapped(3) {
                    let ptr = self.chain(&access, out)?;
                    return self.reconstruct(access.orig, &access.shape, ptr, inst[2], out);
                }
            }
            op::ACCESS_CHAIN | op::IN_BOUNDS_ACCESS_CHAIN if inst.len() >= 4 => {
                if let Some(access) = mapped(3) {
                    let deeper = self.navigate(access, &inst[4..])?;
                    self.map.insert(inst[2], deeper);
                    return Ok(());
                }
            }
            op::COPY_MEMORY if inst.len() >= 3 => {
                if let Some(access) = mapped(2) {
                    let ptr = self.chain(&access, out)?;
                    let value = self.layout.s.fresh()?;
                    self.reconstruct(access.orig, &access.shape, ptr, value, out)?;
                    out.push(vec![header(op::STORE, 3), inst[1], value]);
                    return Ok(());
                }
            }
            _ => {}
        }
        let pointer_operands: &[usize] = match opcode(&inst) {
            op::STORE | op::COPY_MEMORY | op::COPY_MEMORY_SIZED => &[1, 2],
            op::PTR_ACCESS_CHAIN => &[3],
            op::FUNCTION_CALL | op::PHI | op::SELECT => &[],
            // Atomics take their pointer third (OpAtomicLoad … OpAtomicXor).
            227..=242 => &[3],
            _ => &[],
        };
        let passes_pointer = match opcode(&inst) {
            op::FUNCTION_CALL | op::PHI | op::SELECT => {
                inst.iter().skip(3).any(|id| self.map.contains_key(id))
            }
            _ => pointer_operands
                .iter()
                .any(|&at| inst.get(at).is_some_and(|id| self.map.contains_key(id))),
        };
        if passes_pointer {
            return Err(format!(
                "SPIR-V instruction {} uses a uniform in a way ArenaGL does not support",
                opcode(&inst)
            ));
        }
        out.push(inst);
        Ok(())
    }

    /// `access` after the access chain indices `indices`.
    fn navigate(&self, mut access: Access, indices: &[u32]) -> Result<Access, String> {
        for &index in indices {
            // Only a struct needs the index's value (a constant); elsewhere any one will do.
            let value = match (self.m.constants.get(&index), &access.shape) {
                (Some(&v), _) => v,
                (None, Shape::Struct(_)) => return Err("a struct index is not a constant".into()),
                (None, _) => 0,
            };
            let (orig, shape) = self.child(access.orig, &access.shape, value)?;
            access.orig = orig;
            access.shape = shape;
            access.indices.push(index);
        }
        Ok(access)
    }

    /// Part `i` of a value of the module's type `orig` and shape `shape`: its type and shape.
    fn child(&self, orig: u32, shape: &Shape, i: u32) -> Result<(u32, Shape), String> {
        let bad = || "an access chain into a uniform does not fit its type".to_owned();
        Ok(match (self.m.types.get(&orig), shape) {
            (Some(Type::Struct { members }), Shape::Struct(ms)) => {
                let i = i as usize;
                (
                    *members.get(i).ok_or_else(bad)?,
                    ms.get(i).ok_or_else(bad)?.clone(),
                )
            }
            (Some(Type::Array { element, .. }), Shape::Array(e, _)) => (*element, (**e).clone()),
            (
                Some(Type::Matrix { column, .. }),
                Shape::Matrix {
                    column: c, rows, ..
                },
            ) => (*column, Shape::Vector(*c, *rows)),
            (Some(Type::Vector { component, .. }), Shape::Vector(c, _)) => {
                (*component, Shape::Scalar(*c))
            }
            _ => return Err(bad()),
        })
    }

    /// An access chain from the block to what `access` points at.
    fn chain(&mut self, access: &Access, out: &mut Vec<Inst>) -> Result<u32, String> {
        let laid = self.layout.ty(&access.shape)?;
        let ptr_ty = self.layout.pointer(laid)?;
        let id = self.layout.s.fresh()?;
        let mut inst = vec![0, ptr_ty, id, self.block_var, access.member];
        inst.extend_from_slice(&access.indices);
        inst[0] = header(op::ACCESS_CHAIN, inst.len());
        out.push(inst);
        Ok(id)
    }

    /// Loads `shape` from the block pointer `ptr` into `result` of the module's type `orig`.
    fn reconstruct(
        &mut self,
        orig: u32,
        shape: &Shape,
        ptr: u32,
        result: u32,
        out: &mut Vec<Inst>,
    ) -> Result<(), String> {
        match shape {
            Shape::Scalar(Scalar::Bool) | Shape::Vector(Scalar::Bool, _) => {
                let laid = self.layout.ty(shape)?;
                let zero = self.layout.null(laid)?;
                let word = self.layout.s.fresh()?;
                out.push(vec![header(op::LOAD, 4), laid, word, ptr]);
                out.push(vec![header(op::I_NOT_EQUAL, 5), orig, result, word, zero]);
            }
            Shape::Scalar(_) | Shape::Vector(..) | Shape::Matrix { .. } => {
                out.push(vec![header(op::LOAD, 4), orig, result, ptr]);
            }
            Shape::Array(..) | Shape::Struct(_) => {
                let parts = match shape {
                    Shape::Array(_, n) => *n,
                    Shape::Struct(ms) => ms.len() as u32,
                    _ => 0,
                };
                let mut values = Vec::with_capacity(parts as usize);
                for i in 0..parts {
                    let index = self.layout.index(i)?;
                    let (part_orig, part_shape) = self.child(orig, shape, i)?;
                    let laid = self.layout.ty(&part_shape)?;
                    let ptr_ty = self.layout.pointer(laid)?;
                    let part_ptr = self.layout.s.fresh()?;
                    out.push(vec![
                        header(op::ACCESS_CHAIN, 5),
                        ptr_ty,
                        part_ptr,
                        ptr,
                        index,
                    ]);
                    let value = self.layout.s.fresh()?;
                    self.reconstruct(part_orig, &part_shape, part_ptr, value, out)?;
                    values.push(value);
                }
                let mut inst = vec![0, orig, result];
                inst.extend(values);
                inst[0] = header(op::COMPOSITE_CONSTRUCT, inst.len());
                out.push(inst);
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn std140_layouts() {
        let f = Scalar::Float(32);
        let vec3 = Shape::Vector(f, 3);
        assert_eq!(vec3.align_size(), (16, 12));
        let arr = Shape::Array(Box::new(Shape::Scalar(f)), 4);
        assert_eq!(arr.array_stride(), 16);
        assert_eq!(arr.align_size(), (16, 64));
        let mat3 = Shape::Matrix {
            column: f,
            rows: 3,
            columns: 3,
        };
        assert_eq!(mat3.matrix_stride(), 16);
        assert_eq!(mat3.align_size(), (16, 48));
        let dmat3 = Shape::Matrix {
            column: Scalar::Float(64),
            rows: 3,
            columns: 2,
        };
        assert_eq!(dmat3.matrix_stride(), 32);
        let s = Shape::Struct(vec![Shape::Scalar(f), vec3.clone(), Shape::Scalar(f)]);
        assert_eq!(
            struct_offsets(&[Shape::Scalar(f), vec3, Shape::Scalar(f)]),
            [0, 16, 28]
        );
        assert_eq!(s.align_size(), (16, 32));
        assert_eq!(s.locations(), 3);
        assert_eq!(Shape::Array(Box::new(s), 2).locations(), 6);
    }
}
