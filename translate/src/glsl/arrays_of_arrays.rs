//! Arrays of arrays of descriptors (GL_ARB_arrays_of_arrays): `uniform sampler2D s[2][3]`,
//! `uniform Block { … } b[2][4]`, images and storage blocks alike.
//!
//! Vulkan takes a descriptor binding as one-dimensional array only (a `UniformConstant`,
//! `Uniform` or `StorageBuffer` variable is a resource or an array of resources), while glslang
//! declares GLSL's arrays of arrays as SPIR-V arrays of arrays. [`flatten`] rewrites each such
//! variable as one array of every element, in GL's order (the last subscript varying fastest,
//! which is also how GL numbers the elements' locations and blocks), and each access to it as an
//! access to element `((i0 * d1 + i1) * d2 + i2) …`: folded to a constant when every subscript
//! is one, computed in the function otherwise (a non-constant index then goes through
//! `array_index` where the device cannot index that kind of array).
//!
//! Reflection reads the module before this pass, so it sees every level (`reflect`); the pass
//! runs on each linked stage after it. An access chain that stops inside the levels (glslang
//! emits one for `s[i]` then indexes it further) is merged into the chains built on it; any other
//! use of such a partial pointer leaves the module unchanged (and failing pipeline creation
//! loudly, never sampling the wrong resource). Malformed input is an error value, never a panic.
#![deny(unsafe_code, clippy::unwrap_used, clippy::expect_used)]

use std::collections::HashMap;

use super::rect::{header, opcode, split};
use super::spirv::{Module, ParseError, StorageClass, Type};

mod op {
    pub const TYPE_INT: u16 = 21;
    pub const TYPE_ARRAY: u16 = 28;
    pub const TYPE_POINTER: u16 = 32;
    pub const CONSTANT: u16 = 43;
    pub const FUNCTION: u16 = 54;
    pub const VARIABLE: u16 = 59;
    pub const ACCESS_CHAIN: u16 = 65;
    pub const IN_BOUNDS_ACCESS_CHAIN: u16 = 66;
    pub const I_ADD: u16 = 128;
    pub const I_MUL: u16 = 132;
}

/// A variable to flatten: its array levels, outermost first.
struct Target {
    dims: Vec<u32>,
}

/// The levels of an array of arrays type (outermost first) and its innermost element; `None`
/// for a type of fewer than two sized levels.
pub(crate) fn levels(module: &Module, mut ty: u32) -> Option<(Vec<u32>, u32)> {
    let mut dims = Vec::new();
    while let Some(Type::Array {
        element,
        length: Some(length),
    }) = module.types.get(&ty)
    {
        dims.push(*length);
        ty = *element;
    }
    (dims.len() >= 2).then_some((dims, ty))
}

/// Whether any function of the module (`words`) names `id`: a descriptor of an
/// array-of-arrays type that none does is inactive (glslang decorates such variables with
/// binding 0 rather than leaving them unbound, as it does the others it does not use).
pub(crate) fn referenced(words: &[u32], id: u32) -> bool {
    let Ok(insts) = split(words) else {
        return false;
    };
    insts
        .iter()
        .skip_while(|i| opcode(i) != op::FUNCTION)
        .any(|i| i[1..].contains(&id))
}

/// New declarations and ids.
struct Builder {
    bound: u32,
    int_type: u32,
    declare: Vec<Vec<u32>>,
    constants: HashMap<u32, u32>,
}

impl Builder {
    fn id(&mut self) -> u32 {
        self.bound += 1;
        self.bound - 1
    }

    fn constant(&mut self, value: u32) -> u32 {
        if let Some(&id) = self.constants.get(&value) {
            return id;
        }
        let id = self.id();
        let int_type = self.int_type;
        self.declare
            .push(vec![header(op::CONSTANT, 4), int_type, id, value]);
        self.constants.insert(value, id);
        id
    }

    /// The id of the flat index of `indices` into levels `dims`, instructions that compute it
    /// (when an index is not a constant) appended to `code`.
    fn flat_index(
        &mut self,
        module: &Module,
        dims: &[u32],
        indices: &[u32],
        code: &mut Vec<Vec<u32>>,
    ) -> Option<u32> {
        let constant: Option<Vec<u32>> = indices
            .iter()
            .map(|i| module.constants.get(i).copied())
            .collect();
        if let Some(values) = constant {
            let mut flat: u32 = 0;
            for (v, d) in values.iter().zip(dims) {
                flat = flat.checked_mul(*d)?.checked_add(*v)?;
            }
            return Some(self.constant(flat));
        }
        let mut acc = *indices.first()?;
        for (&index, &d) in indices.iter().zip(dims).skip(1) {
            let size = self.constant(d);
            let (product, sum) = (self.id(), self.id());
            let int_type = self.int_type;
            code.push(vec![header(op::I_MUL, 5), int_type, product, acc, size]);
            code.push(vec![header(op::I_ADD, 5), int_type, sum, product, index]);
            acc = sum;
        }
        Some(acc)
    }
}

/// Rewrites every descriptor variable of an array-of-arrays type as a one-dimensional array
/// (see the module docs). Returns whether the module changed.
pub(crate) fn flatten(words: &mut Vec<u32>) -> Result<bool, ParseError> {
    let module = Module::parse(words)?;
    let mut targets: HashMap<u32, Target> = HashMap::new();
    let mut element_of: HashMap<u32, (u32, u32)> = HashMap::new();
    for var in &module.variables {
        let descriptor = matches!(
            var.storage,
            StorageClass::UniformConstant | StorageClass::Uniform | StorageClass::StorageBuffer
        );
        let Some(Type::Pointer { pointee, storage }) = module.types.get(&var.pointer_type) else {
            continue;
        };
        if let (true, Some((dims, element))) = (descriptor, levels(&module, *pointee)) {
            element_of.insert(var.id, (element, storage_word(*storage)));
            targets.insert(var.id, Target { dims });
        }
    }
    if targets.is_empty() {
        return Ok(false);
    }
    let mut insts = split(words)?;
    let existing_int = insts
        .iter()
        .find(|i| opcode(i) == op::TYPE_INT && i.len() == 4 && i[2] == 32);
    let mut b = Builder {
        bound: words[3],
        int_type: existing_int.map_or(0, |i| i[1]),
        declare: Vec::new(),
        constants: HashMap::new(),
    };
    if existing_int.is_none() {
        b.int_type = b.id();
        let id = b.int_type;
        b.declare.push(vec![header(op::TYPE_INT, 4), id, 32, 0]);
    }
    // The variables, redeclared with their flat types.
    let mut variables = Vec::new();
    for (&var, t) in &targets {
        let (element, storage) = element_of[&var];
        let total = t.dims.iter().try_fold(1u32, |a, d| a.checked_mul(*d));
        let Some(total) = total else {
            return Ok(false);
        };
        let length = b.constant(total);
        let (array, pointer) = (b.id(), b.id());
        b.declare
            .push(vec![header(op::TYPE_ARRAY, 4), array, element, length]);
        b.declare
            .push(vec![header(op::TYPE_POINTER, 4), pointer, storage, array]);
        variables.push(vec![header(op::VARIABLE, 4), pointer, var, storage]);
    }
    let Some(body) = rewrite_chains(&module, &insts, &targets, &mut b) else {
        return Ok(false);
    };
    insts = body;
    insts.retain(|i| !(opcode(i) == op::VARIABLE && i.len() >= 4 && targets.contains_key(&i[2])));
    let first_function = insts
        .iter()
        .position(|i| opcode(i) == op::FUNCTION)
        .unwrap_or(insts.len());
    let added: Vec<Vec<u32>> = b.declare.into_iter().chain(variables).collect();
    insts.splice(first_function..first_function, added);
    words.truncate(5);
    words[3] = b.bound;
    words.extend(insts.into_iter().flatten());
    Ok(true)
}

fn storage_word(storage: StorageClass) -> u32 {
    match storage {
        StorageClass::UniformConstant => 0,
        StorageClass::Uniform => 2,
        StorageClass::StorageBuffer => 12,
        StorageClass::Input => 1,
        StorageClass::Output => 3,
        StorageClass::PushConstant => 9,
        StorageClass::Other(w) => w,
    }
}

/// `insts` with every access chain into a target rewritten; `None` when a partial chain has a
/// use this pass does not rewrite.
fn rewrite_chains(
    module: &Module,
    insts: &[Vec<u32>],
    targets: &HashMap<u32, Target>,
    b: &mut Builder,
) -> Option<Vec<Vec<u32>>> {
    // Partial chains: result id → (variable, the subscripts so far).
    let mut partial: HashMap<u32, (u32, Vec<u32>)> = HashMap::new();
    let mut out = Vec::with_capacity(insts.len());
    for inst in insts {
        let code = opcode(inst);
        let chain =
            matches!(code, op::ACCESS_CHAIN | op::IN_BOUNDS_ACCESS_CHAIN) && inst.len() >= 4;
        let base = if chain { inst[3] } else { 0 };
        let (var, mut indices) = match (targets.get(&base), partial.get(&base)) {
            (Some(_), _) if chain => (base, Vec::new()),
            (_, Some((var, so_far))) if chain => (*var, so_far.clone()),
            _ => {
                if inst[1..].iter().any(|w| partial.contains_key(w)) {
                    return None;
                }
                out.push(inst.clone());
                continue;
            }
        };
        indices.extend_from_slice(&inst[4..]);
        let dims = &targets.get(&var)?.dims;
        if indices.len() < dims.len() {
            partial.insert(inst[2], (var, indices));
            continue;
        }
        let flat = b.flat_index(module, dims, &indices[..dims.len()], &mut out)?;
        let mut rewritten = vec![0, inst[1], inst[2], var, flat];
        rewritten.extend_from_slice(&indices[dims.len()..]);
        rewritten[0] = header(code, rewritten.len());
        out.push(rewritten);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::super::compile::compile_and_link;
    use super::super::spirv_testing::assert_valid as spirv_val;
    use super::super::{CompileOptions, Stage};
    use super::*;
    use std::ffi::CString;

    /// A fragment unit's SPIR-V as glslang links it (before this pass).
    fn fragment(body: &str) -> Vec<u32> {
        let fs =
            CString::new(format!("#version 430\nout vec4 color;\n{body}\n")).unwrap_or_default();
        let linked = compile_and_link(&[(Stage::Fragment, &fs)], &CompileOptions::default())
            .unwrap_or_else(|e| panic!("{e:?}"));
        linked
            .stages
            .into_iter()
            .next()
            .map(|s| s.words)
            .unwrap_or_default()
    }

    #[test]
    fn sampler_arrays_of_arrays_become_one_flat_array() {
        let mut words = fragment(
            "uniform sampler2D s[2][3];\nuniform int n;\n\
             void main() { color = texture(s[1][2], vec2(0.5)) + texture(s[n][1], vec2(0.5)); }",
        );
        assert!(flatten(&mut words).unwrap_or(false));
        spirv_val(&words);
        let module = Module::parse(&words).unwrap_or_default();
        for var in &module.variables {
            if let Some(Type::Pointer { pointee, .. }) = module.types.get(&var.pointer_type) {
                assert!(
                    levels(&module, *pointee).is_none(),
                    "{}",
                    module.name(var.id)
                );
            }
        }
        assert!(!flatten(&mut words).unwrap_or(true));
    }

    #[test]
    fn block_arrays_of_arrays_keep_their_member_subscripts() {
        let mut words = fragment(
            "uniform B { vec4 c[2]; } b[2][2];\nuniform int n;\n\
             void main() { color = b[1][n].c[1] + b[0][1].c[0]; }",
        );
        assert!(flatten(&mut words).unwrap_or(false));
        spirv_val(&words);
    }
}
