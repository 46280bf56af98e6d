//! Rectangle samplers (`sampler2DRect` and friends) lowered to 2D ones in the SPIR-V.
//!
//! Design decisions:
//! - Vulkan has no rectangle images (SPIR-V's `SampledRect` capability is not allowed), and its
//!   unnormalized-coordinate samplers forbid nearly every instruction GLSL emits (offsets,
//!   projection, comparisons, implicit LOD). So a rectangle image becomes a 2D image and every
//!   coordinate a sampling instruction takes is divided by the level-0 size
//!   (`OpImageQuerySizeLod … 0`): `texture`, `textureProj` (only s and t are divided; q stays),
//!   the shadow variants (the reference is its own operand), `textureGrad` (the gradients are
//!   in texels too) and `textureGather`. Texel offsets are texels in both worlds and stay.
//!   `texelFetch` keeps its integer coordinate and gains the explicit level 0 a 2D fetch needs;
//!   `textureSize` becomes a level-0 size query. This is what Mesa's `nir_lower_tex` does for
//!   Zink.
//! - The pass works on the SPIR-V rather than the GLSL: the module knows exactly which values
//!   are rectangle samplers (through function parameters, arrays, anything), where a token
//!   rewrite of the source would have to guess.
//! - Reflection runs before this pass, so the GL layer still sees `GL_SAMPLER_2D_RECT` and binds
//!   the unit's rectangle texture.
//! - A rectangle image type that becomes identical to a 2D one already declared is merged into
//!   it (SPIR-V forbids duplicate non-aggregate types), and so is its sampled-image type; every
//!   place an image type can be named (result types of the instructions that move opaque values,
//!   pointer, array, struct and function types) is renamed.
//! - Malformed input is an error value, never a panic.
#![deny(unsafe_code, clippy::unwrap_used, clippy::expect_used)]

use std::collections::{HashMap, HashSet};

use super::spirv::{ParseError, MAGIC};

/// Opcodes this pass reads or writes (SPIR-V 1.6 unified specification, section 3.52).
mod op {
    pub const UNDEF: u16 = 1;
    pub const NAME: u16 = 5;
    pub const MEMBER_NAME: u16 = 6;
    pub const CAPABILITY: u16 = 17;
    pub const TYPE_INT: u16 = 21;
    pub const TYPE_FLOAT: u16 = 22;
    pub const TYPE_VECTOR: u16 = 23;
    pub const TYPE_IMAGE: u16 = 25;
    pub const TYPE_SAMPLED_IMAGE: u16 = 27;
    pub const TYPE_ARRAY: u16 = 28;
    pub const TYPE_RUNTIME_ARRAY: u16 = 29;
    pub const TYPE_STRUCT: u16 = 30;
    pub const TYPE_POINTER: u16 = 32;
    pub const TYPE_FUNCTION: u16 = 33;
    pub const CONSTANT: u16 = 43;
    pub const CONSTANT_NULL: u16 = 46;
    pub const FUNCTION: u16 = 54;
    pub const FUNCTION_PARAMETER: u16 = 55;
    pub const FUNCTION_CALL: u16 = 57;
    pub const LOAD: u16 = 61;
    pub const DECORATE: u16 = 71;
    pub const MEMBER_DECORATE: u16 = 72;
    pub const COMPOSITE_CONSTRUCT: u16 = 80;
    pub const COMPOSITE_EXTRACT: u16 = 81;
    pub const COPY_OBJECT: u16 = 83;
    pub const SAMPLED_IMAGE: u16 = 86;
    pub const IMAGE_SAMPLE_IMPLICIT_LOD: u16 = 87;
    pub const IMAGE_SAMPLE_EXPLICIT_LOD: u16 = 88;
    pub const IMAGE_SAMPLE_DREF_IMPLICIT_LOD: u16 = 89;
    pub const IMAGE_SAMPLE_DREF_EXPLICIT_LOD: u16 = 90;
    pub const IMAGE_SAMPLE_PROJ_IMPLICIT_LOD: u16 = 91;
    pub const IMAGE_SAMPLE_PROJ_EXPLICIT_LOD: u16 = 92;
    pub const IMAGE_SAMPLE_PROJ_DREF_IMPLICIT_LOD: u16 = 93;
    pub const IMAGE_SAMPLE_PROJ_DREF_EXPLICIT_LOD: u16 = 94;
    pub const IMAGE_FETCH: u16 = 95;
    pub const IMAGE_GATHER: u16 = 96;
    pub const IMAGE_DREF_GATHER: u16 = 97;
    pub const IMAGE: u16 = 100;
    pub const IMAGE_QUERY_SIZE_LOD: u16 = 103;
    pub const IMAGE_QUERY_SIZE: u16 = 104;
    pub const CONVERT_S_TO_F: u16 = 111;
    pub const F_DIV: u16 = 136;
    pub const SELECT: u16 = 169;
    pub const PHI: u16 = 245;
    pub const COPY_LOGICAL: u16 = 400;
}

/// SPIR-V section 3.8: `Dim`.
const DIM_2D: u32 = 1;
const DIM_RECT: u32 = 4;
/// SPIR-V section 3.31: capabilities.
const CAP_IMAGE_RECT: u32 = 36;
const CAP_SAMPLED_RECT: u32 = 37;
const CAP_IMAGE_QUERY: u32 = 50;
/// SPIR-V section 3.14: image operand bits.
const OPERAND_BIAS: u32 = 0x1;
const OPERAND_LOD: u32 = 0x2;
const OPERAND_GRAD: u32 = 0x4;

/// Instructions whose first two operands are a result type and a result id and which can
/// produce an opaque (image or sampled-image) value: these carry rectangle-ness from the
/// declarations to the sampling instructions, and their result types are renamed when types
/// merge.
const OPAQUE_VALUE_OPCODES: [u16; 12] = [
    op::UNDEF,
    op::CONSTANT_NULL,
    op::FUNCTION_PARAMETER,
    op::FUNCTION_CALL,
    op::LOAD,
    op::COMPOSITE_EXTRACT,
    op::COPY_OBJECT,
    op::SAMPLED_IMAGE,
    op::IMAGE,
    op::SELECT,
    op::PHI,
    op::COPY_LOGICAL,
];

pub(super) fn header(opcode: u16, words: usize) -> u32 {
    ((words as u32) << 16) | u32::from(opcode)
}

/// The module split into instructions (each with its header word).
pub(super) fn split(words: &[u32]) -> Result<Vec<Vec<u32>>, ParseError> {
    if words.len() < 5 {
        return Err(ParseError::TooShort);
    }
    if words[0] != MAGIC {
        return Err(ParseError::BadMagic(words[0]));
    }
    let mut out = Vec::new();
    let mut at = 5;
    while at < words.len() {
        let count = (words[at] >> 16) as usize;
        if count == 0 || at + count > words.len() {
            return Err(ParseError::BadInstruction(at));
        }
        out.push(words[at..at + count].to_vec());
        at += count;
    }
    Ok(out)
}

pub(super) fn opcode(inst: &[u32]) -> u16 {
    (inst[0] & 0xffff) as u16
}

/// The ids this pass needs: found in the module or declared by it.
struct Scalars {
    float: u32,
    v2int: u32,
    v2float: u32,
    v3float: u32,
    int0: u32,
    /// Declarations to add in front of the first function.
    declare: Vec<Vec<u32>>,
}

impl Scalars {
    fn find_or_declare(insts: &[Vec<u32>], bound: &mut u32) -> Self {
        let find = |opc: u16, ops: &[u32]| {
            insts
                .iter()
                .find(|i| opcode(i) == opc && i.len() == 2 + ops.len() && i[2..] == *ops)
                .map(|i| i[1])
        };
        let mut declare = Vec::new();
        let mut fresh = |bound: &mut u32, inst: &[u32]| {
            let id = *bound;
            *bound += 1;
            let mut v = vec![header(inst[0] as u16, inst.len() + 1), id];
            v.extend_from_slice(&inst[1..]);
            declare.push(v);
            id
        };
        let float = find(op::TYPE_FLOAT, &[32])
            .unwrap_or_else(|| fresh(bound, &[u32::from(op::TYPE_FLOAT), 32]));
        let int = find(op::TYPE_INT, &[32, 1])
            .unwrap_or_else(|| fresh(bound, &[u32::from(op::TYPE_INT), 32, 1]));
        let v2int = find(op::TYPE_VECTOR, &[int, 2])
            .unwrap_or_else(|| fresh(bound, &[u32::from(op::TYPE_VECTOR), int, 2]));
        let v2float = find(op::TYPE_VECTOR, &[float, 2])
            .unwrap_or_else(|| fresh(bound, &[u32::from(op::TYPE_VECTOR), float, 2]));
        let v3float = find(op::TYPE_VECTOR, &[float, 3])
            .unwrap_or_else(|| fresh(bound, &[u32::from(op::TYPE_VECTOR), float, 3]));
        // A constant's operands are (type, id, value): search by type and value.
        let int0 = insts
            .iter()
            .find(|i| opcode(i) == op::CONSTANT && i.len() == 4 && i[1] == int && i[3] == 0)
            .map(|i| i[2]);
        let int0 = match int0 {
            Some(id) => id,
            None => {
                let id = *bound;
                *bound += 1;
                declare.push(vec![header(op::CONSTANT, 4), int, id, 0]);
                id
            }
        };
        Self {
            float,
            v2int,
            v2float,
            v3float,
            int0,
            declare,
        }
    }
}

/// Rewrites every rectangle image in `words` as a 2D image (see the module comment). Returns
/// whether the module had any.
pub(crate) fn lower_rect_images(words: &mut Vec<u32>) -> Result<bool, ParseError> {
    let insts = split(words)?;
    let mut bound = words[3];
    let rect_images: HashSet<u32> = insts
        .iter()
        .filter(|i| opcode(i) == op::TYPE_IMAGE && i.len() >= 9 && i[3] == DIM_RECT)
        .map(|i| i[1])
        .collect();
    if rect_images.is_empty() {
        return Ok(false);
    }
    let rect_sampled: HashSet<u32> = insts
        .iter()
        .filter(|i| {
            opcode(i) == op::TYPE_SAMPLED_IMAGE && i.len() >= 3 && rect_images.contains(&i[2])
        })
        .map(|i| i[1])
        .collect();
    for &id in rect_images.iter().chain(&rect_sampled) {
        if id >= bound {
            return Err(ParseError::IdOutOfBound(id));
        }
    }

    // The type of every value that may be opaque, by the original type ids.
    let mut value_type: HashMap<u32, u32> = HashMap::new();
    for i in &insts {
        if OPAQUE_VALUE_OPCODES.contains(&opcode(i)) && i.len() >= 3 {
            value_type.insert(i[2], i[1]);
        }
    }

    // Merge types that became identical; the first declaration of each survives.
    let mut insts = insts;
    let mut rename: HashMap<u32, u32> = HashMap::new();
    let mut removed: HashSet<u32> = HashSet::new();
    let mut seen: HashMap<(u16, Vec<u32>), u32> = HashMap::new();
    for i in insts.iter_mut() {
        let opc = opcode(i);
        if opc == op::TYPE_IMAGE && i.len() >= 9 && rect_images.contains(&i[1]) {
            i[3] = DIM_2D;
        }
        rename_type_operands(i, &rename);
        if matches!(
            opc,
            op::TYPE_IMAGE | op::TYPE_SAMPLED_IMAGE | op::TYPE_FUNCTION
        ) && i.len() >= 2
        {
            let key = (opc, i[2..].to_vec());
            match seen.get(&key) {
                Some(&first) => {
                    rename.insert(i[1], first);
                    removed.insert(i[1]);
                }
                None => {
                    seen.insert(key, i[1]);
                }
            }
        }
    }

    let scalars = Scalars::find_or_declare(&insts, &mut bound);
    let has_query = insts
        .iter()
        .any(|i| opcode(i) == op::CAPABILITY && i.get(1) == Some(&CAP_IMAGE_QUERY));

    let mut out: Vec<u32> = words[..5].to_vec();
    let mut declared = false;
    let mut capability_added = has_query;
    let image_of = |sampled: u32| -> Option<u32> {
        insts
            .iter()
            .find(|i| opcode(i) == op::TYPE_SAMPLED_IMAGE && i.len() >= 3 && i[1] == sampled)
            .map(|i| *rename.get(&i[2]).unwrap_or(&i[2]))
    };
    for inst in &insts {
        let opc = opcode(inst);
        match opc {
            op::CAPABILITY if matches!(inst.get(1), Some(&(CAP_SAMPLED_RECT | CAP_IMAGE_RECT))) => {
                continue
            }
            op::NAME | op::MEMBER_NAME | op::DECORATE | op::MEMBER_DECORATE
                if inst.get(1).is_some_and(|id| removed.contains(id)) =>
            {
                continue
            }
            op::TYPE_IMAGE | op::TYPE_SAMPLED_IMAGE | op::TYPE_FUNCTION
                if inst.get(1).is_some_and(|id| removed.contains(id)) =>
            {
                continue
            }
            op::FUNCTION if !declared => {
                for d in &scalars.declare {
                    out.extend_from_slice(d);
                }
                declared = true;
            }
            _ => {}
        }
        if opc != op::CAPABILITY && !capability_added {
            out.extend_from_slice(&[header(op::CAPABILITY, 2), CAP_IMAGE_QUERY]);
            capability_added = true;
        }
        let mut inst = inst.clone();
        rename_value_type(&mut inst, &rename);
        let is_rect =
            |id: u32, set: &HashSet<u32>| value_type.get(&id).is_some_and(|t| set.contains(t));
        match opc {
            op::IMAGE_SAMPLE_IMPLICIT_LOD
            | op::IMAGE_SAMPLE_EXPLICIT_LOD
            | op::IMAGE_SAMPLE_DREF_IMPLICIT_LOD
            | op::IMAGE_SAMPLE_DREF_EXPLICIT_LOD
            | op::IMAGE_SAMPLE_PROJ_IMPLICIT_LOD
            | op::IMAGE_SAMPLE_PROJ_EXPLICIT_LOD
            | op::IMAGE_SAMPLE_PROJ_DREF_IMPLICIT_LOD
            | op::IMAGE_SAMPLE_PROJ_DREF_EXPLICIT_LOD
            | op::IMAGE_GATHER
            | op::IMAGE_DREF_GATHER
                if inst.len() >= 5 && is_rect(inst[3], &rect_sampled) =>
            {
                let sampled_type = value_type.get(&inst[3]).copied().unwrap_or(0);
                let image_type =
                    image_of(sampled_type).ok_or(ParseError::IdOutOfBound(sampled_type))?;
                normalize_sample(&mut out, &mut inst, image_type, &scalars, &mut bound);
            }
            op::IMAGE_FETCH if inst.len() >= 5 && is_rect(inst[3], &rect_images) => {
                add_lod_zero(&mut inst, scalars.int0);
            }
            op::IMAGE_QUERY_SIZE if inst.len() >= 4 && is_rect(inst[3], &rect_images) => {
                inst = vec![
                    header(op::IMAGE_QUERY_SIZE_LOD, 5),
                    inst[1],
                    inst[2],
                    inst[3],
                    scalars.int0,
                ];
            }
            _ => {}
        }
        out.extend_from_slice(&inst);
    }
    out[3] = bound;
    *words = out;
    Ok(true)
}

/// Renames the type operands of type declarations (`rename` maps merged types to survivors).
fn rename_type_operands(inst: &mut [u32], rename: &HashMap<u32, u32>) {
    let from = match opcode(inst) {
        op::TYPE_SAMPLED_IMAGE | op::TYPE_ARRAY | op::TYPE_RUNTIME_ARRAY => 2..3,
        op::TYPE_POINTER => 3..4,
        op::TYPE_STRUCT | op::TYPE_FUNCTION => 2..inst.len(),
        _ => return,
    };
    for w in inst.get_mut(from).into_iter().flatten() {
        if let Some(&to) = rename.get(w) {
            *w = to;
        }
    }
}

/// Renames the result type of a value instruction and the function type of a function.
fn rename_value_type(inst: &mut [u32], rename: &HashMap<u32, u32>) {
    let at: &[usize] = match opcode(inst) {
        op::FUNCTION => &[1, 4],
        o if OPAQUE_VALUE_OPCODES.contains(&o) => &[1],
        _ => return,
    };
    for &a in at {
        if let Some(w) = inst.get_mut(a) {
            if let Some(&to) = rename.get(w) {
                *w = to;
            }
        }
    }
}

/// Emits into `out` the division of `inst`'s coordinate (and gradients) by the image's level-0
/// size, and points `inst` at the results.
fn normalize_sample(
    out: &mut Vec<u32>,
    inst: &mut [u32],
    image_type: u32,
    s: &Scalars,
    bound: &mut u32,
) {
    let mut next = || {
        let id = *bound;
        *bound += 1;
        id
    };
    let opc = opcode(inst);
    let (sampled, coord) = (inst[3], inst[4]);
    let image = next();
    let size = next();
    let fsize = next();
    out.extend_from_slice(&[header(op::IMAGE, 4), image_type, image, sampled]);
    out.extend_from_slice(&[
        header(op::IMAGE_QUERY_SIZE_LOD, 5),
        s.v2int,
        size,
        image,
        s.int0,
    ]);
    out.extend_from_slice(&[header(op::CONVERT_S_TO_F, 4), s.v2float, fsize, size]);
    let (x, y, xy, scaled) = (next(), next(), next(), next());
    out.extend_from_slice(&[header(op::COMPOSITE_EXTRACT, 5), s.float, x, coord, 0]);
    out.extend_from_slice(&[header(op::COMPOSITE_EXTRACT, 5), s.float, y, coord, 1]);
    out.extend_from_slice(&[header(op::COMPOSITE_CONSTRUCT, 5), s.v2float, xy, x, y]);
    out.extend_from_slice(&[header(op::F_DIV, 5), s.v2float, scaled, xy, fsize]);
    let projective = matches!(
        opc,
        op::IMAGE_SAMPLE_PROJ_IMPLICIT_LOD
            | op::IMAGE_SAMPLE_PROJ_EXPLICIT_LOD
            | op::IMAGE_SAMPLE_PROJ_DREF_IMPLICIT_LOD
            | op::IMAGE_SAMPLE_PROJ_DREF_EXPLICIT_LOD
    );
    inst[4] = if projective {
        // q follows the two coordinates (SPIR-V puts it there for 2D projective sampling).
        let (q, with_q) = (next(), next());
        out.extend_from_slice(&[header(op::COMPOSITE_EXTRACT, 5), s.float, q, coord, 2]);
        out.extend_from_slice(&[
            header(op::COMPOSITE_CONSTRUCT, 5),
            s.v3float,
            with_q,
            scaled,
            q,
        ]);
        with_q
    } else {
        scaled
    };
    // Image operands follow the fixed operands (a reference, a component for the gathers).
    let fixed = match opc {
        op::IMAGE_SAMPLE_DREF_IMPLICIT_LOD
        | op::IMAGE_SAMPLE_DREF_EXPLICIT_LOD
        | op::IMAGE_SAMPLE_PROJ_DREF_IMPLICIT_LOD
        | op::IMAGE_SAMPLE_PROJ_DREF_EXPLICIT_LOD
        | op::IMAGE_GATHER
        | op::IMAGE_DREF_GATHER => 6,
        _ => 5,
    };
    let Some(&mask) = inst.get(fixed) else {
        return;
    };
    if mask & OPERAND_GRAD != 0 {
        let mut at = fixed + 1;
        at += usize::from(mask & OPERAND_BIAS != 0) + usize::from(mask & OPERAND_LOD != 0);
        for g in at..(at + 2).min(inst.len()) {
            let scaled = next();
            out.extend_from_slice(&[header(op::F_DIV, 5), s.v2float, scaled, inst[g], fsize]);
            inst[g] = scaled;
        }
    }
}

/// Gives a fetch the explicit level 0 a 2D image needs (a rectangle image has none).
fn add_lod_zero(inst: &mut Vec<u32>, int0: u32) {
    if let Some(mask) = inst.get(5).copied() {
        if mask & OPERAND_LOD != 0 {
            return;
        }
        inst[5] = mask | OPERAND_LOD;
        // Lod comes first: Bias, the only operand before it, is not allowed on a fetch.
        inst.insert(6, int0);
    } else {
        inst.extend_from_slice(&[OPERAND_LOD, int0]);
    }
    inst[0] = header(opcode(inst), inst.len());
}
