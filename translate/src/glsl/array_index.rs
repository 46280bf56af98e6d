//! Dynamically uniform indexing of descriptor arrays (`GL_ARB_gpu_shader5`): `s[i]` for an array
//! of samplers or images, `blocks[i]` for an array of uniform or storage blocks, lowered to a
//! switch over the constant indices where the device cannot index that kind of array.
//!
//! Design decisions:
//! - Vulkan indexes such arrays with a non-constant index only with a feature per kind
//!   (`shaderSampledImageArrayDynamicIndexing`, `shaderUniformBufferArrayDynamicIndexing`, …);
//!   where it is present the SPIR-V is used as it is, where it is absent [`lower`] rewrites it.
//! - The pass works on the SPIR-V, where the access is one `OpAccessChain` with an index that is
//!   not a constant, followed by the instructions that carry the descriptor (loads, `OpImage`,
//!   `OpSampledImage`, pointer arithmetic) down to the first one that yields a plain value (a
//!   sample, a size, a loaded member) or none (a store). That *use chain* is cut out of its block
//!   and copied into one case per array element, each with the constant index; the value comes
//!   back through an `OpPhi` in a new merge block that takes the original result id and the rest
//!   of the block. Opaque values never cross blocks (Vulkan forbids images in `OpPhi`), and
//!   only the case the index names runs, so a store or an atomic in the chain stays exactly once.
//! - GL requires the index to be dynamically uniform, so implicit derivatives inside a case are
//!   as defined as outside it. An index out of range is undefined in GL; it takes the last case.
//! - Whatever this pass cannot prove it handles (a chain value used twice, a chain that leaves its
//!   block, a loop header) is left as it was; the capability glslang declared stays with it, so
//!   such a shader fails pipeline creation loudly rather than sampling the wrong texture. Nested
//!   dynamic indices (`s[i][j]`) are lowered one at a time, the cases re-scanned.
//! - Malformed input is an error value, never a panic.
#![deny(unsafe_code, clippy::unwrap_used, clippy::expect_used)]

use std::collections::{HashMap, HashSet};

use super::rect::{header, opcode, split};
use super::spirv::{decoration, Module, ParseError, StorageClass, Type};

mod op {
    pub const CAPABILITY: u16 = 17;
    pub const CONSTANT: u16 = 43;
    pub const FUNCTION: u16 = 54;
    pub const FUNCTION_END: u16 = 56;
    pub const STORE: u16 = 62;
    pub const COPY_MEMORY: u16 = 63;
    pub const COPY_MEMORY_SIZED: u16 = 64;
    pub const ACCESS_CHAIN: u16 = 65;
    pub const IN_BOUNDS_ACCESS_CHAIN: u16 = 66;
    pub const IMAGE_WRITE: u16 = 99;
    pub const ATOMIC_STORE: u16 = 228;
    pub const PHI: u16 = 245;
    pub const LOOP_MERGE: u16 = 246;
    pub const SELECTION_MERGE: u16 = 247;
    pub const EXT_INST: u16 = 12;
    pub const LABEL: u16 = 248;
    pub const BRANCH: u16 = 249;
    pub const SWITCH: u16 = 251;
    pub const TYPE_VOID: u16 = 19;
}

/// `OpCapability` operands glslang declares for non-constant descriptor indices.
const CAP_UNIFORM_BUFFER_ARRAY: u32 = 28;
const CAP_SAMPLED_IMAGE_ARRAY: u32 = 29;
const CAP_STORAGE_BUFFER_ARRAY: u32 = 30;
const CAP_STORAGE_IMAGE_ARRAY: u32 = 31;

/// The most switches one module gets (each copies a chain per element): a bound on the work.
const MAX_LOWERINGS: usize = 1024;

/// Which kinds of descriptor array the device indexes with non-constant indices.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Indexable {
    pub sampled_images: bool,
    pub storage_images: bool,
    pub uniform_buffers: bool,
    pub storage_buffers: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Kind {
    SampledImage,
    StorageImage,
    UniformBuffer,
    StorageBuffer,
}

impl Kind {
    fn indexable(self, by: Indexable) -> bool {
        match self {
            Self::SampledImage => by.sampled_images,
            Self::StorageImage => by.storage_images,
            Self::UniformBuffer => by.uniform_buffers,
            Self::StorageBuffer => by.storage_buffers,
        }
    }

    fn capability(self) -> u32 {
        match self {
            Self::SampledImage => CAP_SAMPLED_IMAGE_ARRAY,
            Self::StorageImage => CAP_STORAGE_IMAGE_ARRAY,
            Self::UniformBuffer => CAP_UNIFORM_BUFFER_ARRAY,
            Self::StorageBuffer => CAP_STORAGE_BUFFER_ARRAY,
        }
    }
}

/// A non-constant index to lower: the access chain's instruction, which of its indices, the
/// array's length.
struct Site {
    chain: usize,
    operand: usize,
    length: u32,
    kind: Kind,
}

/// Lowers every non-constant index into a descriptor array of a kind `indexable` lacks (see the
/// module docs). Returns whether the module changed.
pub(crate) fn lower(words: &mut Vec<u32>, indexable: Indexable) -> Result<bool, ParseError> {
    let module = Module::parse(words)?;
    let mut insts = split(words)?;
    let mut bound = words[3];
    let mut skipped: HashSet<u32> = HashSet::new();
    let mut kept: HashSet<Kind> = HashSet::new();
    let mut lowered: HashSet<Kind> = HashSet::new();
    let mut constants = Constants::default();
    for _ in 0..MAX_LOWERINGS {
        let Some(site) = find_site(&module, &insts, indexable, &skipped, &constants) else {
            break;
        };
        match lower_site(&module, &mut insts, &site, &mut bound, &mut constants) {
            Some(()) => {
                lowered.insert(site.kind);
            }
            None => {
                skipped.insert(insts[site.chain][2]);
                kept.insert(site.kind);
            }
        }
    }
    if lowered.is_empty() {
        return Ok(false);
    }
    let drop_caps: HashSet<u32> = lowered.difference(&kept).map(|k| k.capability()).collect();
    insts.retain(|i| !(opcode(i) == op::CAPABILITY && i.len() == 2 && drop_caps.contains(&i[1])));
    constants.declare(&mut insts);
    words.truncate(5);
    words[3] = bound;
    words.extend(insts.into_iter().flatten());
    Ok(true)
}

/// The first access chain with a non-constant index into a descriptor array `indexable` lacks.
fn find_site(
    module: &Module,
    insts: &[Vec<u32>],
    indexable: Indexable,
    skipped: &HashSet<u32>,
    constants: &Constants,
) -> Option<Site> {
    insts.iter().enumerate().find_map(|(at, inst)| {
        let code = opcode(inst);
        if !matches!(code, op::ACCESS_CHAIN | op::IN_BOUNDS_ACCESS_CHAIN)
            || inst.len() < 5
            || skipped.contains(&inst[2])
        {
            return None;
        }
        let (operand, length, kind) = descriptor_index(module, constants, inst[3], &inst[4..])?;
        kind.indexable(indexable).not_then(Site {
            chain: at,
            operand: 4 + operand,
            length,
            kind,
        })
    })
}

trait NotThen {
    fn not_then<T>(self, t: T) -> Option<T>;
}

impl NotThen for bool {
    fn not_then<T>(self, t: T) -> Option<T> {
        (!self).then_some(t)
    }
}

/// For an access chain from `base` with `indices`: the position of the first non-constant index
/// that selects a descriptor, the array's length and the descriptor kind.
fn descriptor_index(
    module: &Module,
    constants: &Constants,
    base: u32,
    indices: &[u32],
) -> Option<(usize, u32, Kind)> {
    let var = module.variables.iter().find(|v| v.id == base)?;
    let Some(Type::Pointer { pointee, .. }) = module.types.get(&var.pointer_type) else {
        return None;
    };
    let mut ty = *pointee;
    for (at, &index) in indices.iter().enumerate() {
        match module.types.get(&ty)? {
            Type::Array { element, length } => {
                let dynamic = !constants.is_constant(module, index);
                let kind = descriptor_kind(module, var.storage, *element, at)?;
                if dynamic {
                    return Some((at, (*length)?, kind));
                }
                ty = *element;
            }
            Type::Struct { members } if var.storage == StorageClass::UniformConstant => {
                ty = *members.get(*module.constants.get(&index)? as usize)?;
            }
            _ => return None,
        }
    }
    None
}

/// What an array of `element` in `storage` holds, if it is an array of descriptors (`depth` is
/// how many indices precede this one in the chain).
fn descriptor_kind(
    module: &Module,
    storage: StorageClass,
    element: u32,
    depth: usize,
) -> Option<Kind> {
    match storage {
        StorageClass::UniformConstant => opaque_kind(module, element),
        StorageClass::Uniform if depth == 0 => {
            if module.has_decoration(element, decoration::BUFFER_BLOCK) {
                Some(Kind::StorageBuffer)
            } else {
                module
                    .has_decoration(element, decoration::BLOCK)
                    .then_some(Kind::UniformBuffer)
            }
        }
        StorageClass::StorageBuffer if depth == 0 => Some(Kind::StorageBuffer),
        _ => None,
    }
}

/// The descriptor kind of the opaque type `ty` holds (through arrays and structs).
fn opaque_kind(module: &Module, ty: u32) -> Option<Kind> {
    match module.types.get(&ty)? {
        Type::Image(image) if image.sampled == 2 => Some(Kind::StorageImage),
        Type::Image(_) | Type::SampledImage { .. } | Type::Sampler => Some(Kind::SampledImage),
        Type::Array { element, .. } | Type::RuntimeArray { element } => {
            opaque_kind(module, *element)
        }
        Type::Struct { members } => members.iter().find_map(|m| opaque_kind(module, *m)),
        _ => None,
    }
}

/// Index constants the cases use, declared once per (type, value) at the end.
#[derive(Default)]
struct Constants {
    ids: HashMap<(u32, u32), u32>,
    declared: HashSet<u32>,
}

impl Constants {
    fn get(&mut self, ty: u32, value: u32, bound: &mut u32) -> u32 {
        let id = *self.ids.entry((ty, value)).or_insert_with(|| fresh(bound));
        self.declared.insert(id);
        id
    }

    fn is_constant(&self, module: &Module, id: u32) -> bool {
        module.constants.contains_key(&id) || self.declared.contains(&id)
    }

    /// Declares the constants in front of the first function.
    fn declare(&self, insts: &mut Vec<Vec<u32>>) {
        let at = insts
            .iter()
            .position(|i| opcode(i) == op::FUNCTION)
            .unwrap_or(insts.len());
        let mut decls: Vec<_> = self.ids.iter().collect();
        decls.sort();
        let decls = decls
            .into_iter()
            .map(|(&(ty, value), &id)| vec![header(op::CONSTANT, 4), ty, id, value]);
        insts.splice(at..at, decls);
    }
}

fn fresh(bound: &mut u32) -> u32 {
    *bound += 1;
    *bound - 1
}

/// Whether `inst` names `id` among its operands (an over-approximation: a literal that equals
/// `id` counts too, which only makes the pass more careful).
fn mentions(inst: &[u32], id: u32) -> bool {
    inst[1..].contains(&id)
}

/// Opcodes that take no result type and result id but can end a use chain.
fn has_no_result(code: u16) -> bool {
    matches!(
        code,
        op::STORE | op::COPY_MEMORY | op::COPY_MEMORY_SIZED | op::IMAGE_WRITE | op::ATOMIC_STORE
    )
}

/// Whether values of type `ty` may only stay in their block (pointers and opaque values).
fn block_local(module: &Module, ty: u32) -> bool {
    matches!(
        module.types.get(&ty),
        Some(Type::Pointer { .. } | Type::Image(_) | Type::SampledImage { .. } | Type::Sampler)
    )
}

/// Where a lowering cuts: the block, the chain's instructions, the ones it hoists past.
struct Cut {
    label: usize,
    end: usize,
    chain: Vec<usize>,
    others: Vec<usize>,
}

/// The block around the chain at `site.chain` and the chain's instructions, or `None` when the
/// pass cannot prove the rewrite right.
fn cut(module: &Module, insts: &[Vec<u32>], site: &Site) -> Option<Cut> {
    let label = (0..site.chain)
        .rev()
        .find(|&i| opcode(&insts[i]) == op::LABEL)?;
    let end = (site.chain..insts.len()).find(|&i| is_terminator(opcode(&insts[i])))?;
    // A loop header must keep its `OpLoopMerge`; a selection header's moves with the tail.
    if insts[label..end]
        .iter()
        .any(|i| opcode(i) == op::LOOP_MERGE)
    {
        return None;
    }
    let mut live = vec![insts[site.chain][2]];
    let mut chain = vec![site.chain];
    let mut others = Vec::new();
    for at in site.chain + 1..end {
        let inst = &insts[at];
        if !live.iter().any(|&id| mentions(inst, id)) {
            others.push(at);
            continue;
        }
        chain.push(at);
        let code = opcode(inst);
        if has_no_result(code) || inst.len() < 3 || !block_local(module, inst[1]) {
            return single_uses(insts, &live).then_some(Cut {
                label,
                end,
                chain,
                others,
            });
        }
        live.push(inst[2]);
    }
    None
}

/// Whether each id in `ids` is named exactly once in the function bodies besides its definition.
fn single_uses(insts: &[Vec<u32>], ids: &[u32]) -> bool {
    ids.iter().all(|&id| {
        let mut in_function = false;
        let mut uses = 0;
        for inst in insts {
            match opcode(inst) {
                op::FUNCTION => in_function = true,
                op::FUNCTION_END => in_function = false,
                _ if in_function
                    && inst.len() >= 3
                    && inst[2] == id
                    && !has_no_result(opcode(inst)) => {}
                _ if in_function => uses += inst[1..].iter().filter(|&&w| w == id).count(),
                _ => {}
            }
        }
        uses == 1
    })
}

fn is_terminator(code: u16) -> bool {
    // OpBranch, OpBranchConditional, OpSwitch, OpKill, OpReturn, OpReturnValue, OpUnreachable,
    // OpTerminateInvocation.
    matches!(code, 249..=255 | 4416)
}

/// The type of value `id`: the result type of the instruction defining it.
fn type_of(insts: &[Vec<u32>], id: u32) -> Option<u32> {
    insts
        .iter()
        .find(|i| i.len() >= 3 && i[2] == id && defines_typed_value(opcode(i)))
        .map(|i| i[1])
}

/// Instructions whose second operand word is a result id typed by the first.
fn defines_typed_value(code: u16) -> bool {
    // Not debug, mode-setting or annotation instructions, type declarations or control flow.
    code == op::EXT_INST
        || !matches!(code, 0..=17 | 19..=39 | 71..=75 | op::FUNCTION_END | op::LABEL | 246..=255)
}

/// Rewrites one site (see the module docs); `None` leaves the module as it was.
fn lower_site(
    module: &Module,
    insts: &mut Vec<Vec<u32>>,
    site: &Site,
    bound: &mut u32,
    constants: &mut Constants,
) -> Option<()> {
    let cut = cut(module, insts, site)?;
    let index = insts[site.chain][site.operand];
    let index_type = type_of(insts, index)?;
    let consumer = &insts[*cut.chain.last()?];
    let result = (!has_no_result(opcode(consumer)) && consumer.len() >= 3)
        .then(|| (consumer[1], consumer[2]))
        .filter(|&(ty, _)| !is_void(insts, ty));
    let block = insts[cut.label][1];
    let merge = fresh(bound);
    let cases: Vec<u32> = (0..site.length).map(|_| fresh(bound)).collect();
    let mut head: Vec<Vec<u32>> = insts[cut.label..site.chain].to_vec();
    head.extend(cut.others.iter().map(|&i| insts[i].clone()));
    head.push(vec![header(op::SELECTION_MERGE, 3), merge, 0]);
    head.push(switch(index, &cases));
    let mut phi = result.map(|(ty, id)| vec![header(op::PHI, 3), ty, id]);
    for (k, &label) in cases.iter().enumerate() {
        head.push(vec![header(op::LABEL, 2), label]);
        let constant = constants.get(index_type, k as u32, bound);
        let (copies, value) = copy_chain(insts, &cut.chain, site.operand, constant, bound);
        head.extend(copies);
        head.push(vec![header(op::BRANCH, 2), merge]);
        if let (Some(phi), Some(value)) = (phi.as_mut(), value) {
            phi.extend([value, label]);
        }
    }
    head.push(vec![header(op::LABEL, 2), merge]);
    if let Some(mut phi) = phi {
        phi[0] = header(op::PHI, phi.len());
        head.push(phi);
    }
    let tail_start = *cut.chain.last()? + 1;
    head.extend(
        (tail_start..=cut.end)
            .filter(|i| !cut.others.contains(i))
            .map(|i| insts[i].clone()),
    );
    insts.splice(cut.label..=cut.end, head);
    rename_phi_parents(insts, block, merge);
    Some(())
}

fn is_void(insts: &[Vec<u32>], ty: u32) -> bool {
    insts
        .iter()
        .any(|i| opcode(i) == op::TYPE_VOID && i.get(1) == Some(&ty))
}

/// `OpSwitch index` with case k → `cases[k]`, the last case the default.
fn switch(index: u32, cases: &[u32]) -> Vec<u32> {
    let default = cases.last().copied().unwrap_or(0);
    let mut inst = vec![0, index, default];
    for (k, &label) in cases.iter().enumerate().take(cases.len().saturating_sub(1)) {
        inst.extend([k as u32, label]);
    }
    inst[0] = header(op::SWITCH, inst.len());
    inst
}

/// The chain copied with fresh result ids and the access chain's index `operand` set to
/// `constant`; also the copy of the last instruction's result, if it has one.
fn copy_chain(
    insts: &[Vec<u32>],
    chain: &[usize],
    operand: usize,
    constant: u32,
    bound: &mut u32,
) -> (Vec<Vec<u32>>, Option<u32>) {
    let mut rename: HashMap<u32, u32> = HashMap::new();
    let mut out = Vec::with_capacity(chain.len());
    let mut last = None;
    for (n, &at) in chain.iter().enumerate() {
        let mut inst = insts[at].clone();
        if n == 0 {
            inst[operand] = constant;
        }
        for word in inst[1..].iter_mut() {
            if let Some(&new) = rename.get(word) {
                *word = new;
            }
        }
        last = None;
        if !has_no_result(opcode(&inst)) && inst.len() >= 3 {
            let id = fresh(bound);
            rename.insert(inst[2], id);
            inst[2] = id;
            last = Some(id);
        }
        out.push(inst);
    }
    (out, last)
}

/// Phis that named `old` as a predecessor now name `new` (the block's tail moved there).
fn rename_phi_parents(insts: &mut [Vec<u32>], old: u32, new: u32) {
    for inst in insts.iter_mut().filter(|i| opcode(i) == op::PHI) {
        for parent in inst.iter_mut().skip(4).step_by(2) {
            if *parent == old {
                *parent = new;
            }
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use crate::glsl::spirv_testing::{assert_valid, count};
    use crate::glsl::{compile_program, CompileOptions, Stage};

    const VS: &str = "#version 150\nvoid main() { gl_Position = vec4(0.0); }\n";

    fn fragment(body: &str) -> Vec<u32> {
        let fs = format!("#version 150\n#extension GL_ARB_gpu_shader5 : require\n{body}");
        let program = compile_program(
            &[(Stage::Vertex, VS), (Stage::Fragment, &fs)],
            CompileOptions::default(),
        )
        .expect("links");
        program
            .stage(Stage::Fragment)
            .expect("fragment")
            .spirv
            .clone()
    }

    fn capability(words: &[u32], cap: u32) -> bool {
        split(words)
            .expect("splits")
            .iter()
            .any(|i| opcode(i) == op::CAPABILITY && i[1] == cap)
    }

    #[test]
    fn sampler_array_indices_become_switches() {
        let mut words = fragment(
            "uniform sampler2D s[3];\nuniform int i;\nout vec4 c;\nvoid main() {\n    c = texture(s[i], vec2(0.5)) + vec4(textureSize(s[i + 1], 0), 0.0, 0.0);\n}\n",
        );
        assert!(lower(&mut words, Indexable::default()).expect("lowers"));
        assert!(!capability(&words, CAP_SAMPLED_IMAGE_ARRAY));
        assert_eq!(count(&words, op::SWITCH), 2);
        // One access chain per element and access (plus the two reads of `i`), nothing left.
        assert_eq!(count(&words, op::ACCESS_CHAIN), 3 * 2 + 2);
        assert!(!lower(&mut words, Indexable::default()).expect("parses"));
        assert_valid(&words);
    }

    #[test]
    fn an_indexable_device_keeps_the_module() {
        let mut words = fragment(
            "uniform sampler2D s[3];\nuniform int i;\nout vec4 c;\nvoid main() { c = texture(s[i], vec2(0.5)); }\n",
        );
        let all = Indexable {
            sampled_images: true,
            storage_images: true,
            uniform_buffers: true,
            storage_buffers: true,
        };
        let before = words.clone();
        assert!(!lower(&mut words, all).expect("parses"));
        assert_eq!(words, before);
    }

    #[test]
    fn uniform_block_arrays_are_lowered_by_their_own_feature() {
        let source = "uniform B { vec4 v; } b[2];\nuniform int i;\nout vec4 c;\nvoid main() { c = b[i].v; }\n";
        let mut words = fragment(source);
        let blocks_only = Indexable {
            uniform_buffers: true,
            ..Indexable::default()
        };
        assert!(!lower(&mut words, blocks_only).expect("parses"));
        assert!(lower(&mut words, Indexable::default()).expect("lowers"));
        assert!(!capability(&words, CAP_UNIFORM_BUFFER_ARRAY));
        assert_eq!(count(&words, op::PHI), 1);
        assert_valid(&words);
    }
}
