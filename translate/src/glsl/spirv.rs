//! A small, read-only SPIR-V module parser: just the instructions reflection needs.
//!
//! Design decisions:
//! - glslang-sys exposes no reflection API, so reflection reads the SPIR-V glslang generated. The
//!   module is the ground truth anyway: whatever the parser reports is what the pipeline will see.
//! - Only debug names, decorations, types, constants, variables and entry points are indexed; every
//!   other instruction is skipped by its word count. Unknown opcodes are therefore harmless.
//! - Malformed input (truncated instruction, zero word count, bad magic, ids past the bound) is an
//!   error value, never a panic: the parser is also what tests and fuzzers run on foreign modules.
#![deny(unsafe_code, clippy::unwrap_used, clippy::expect_used)]

use std::collections::HashMap;

pub(crate) const MAGIC: u32 = 0x0723_0203;

/// Opcodes this parser understands (SPIR-V 1.6 unified specification, section 3.52).
pub(crate) mod op {
    pub const NAME: u16 = 5;
    pub const MEMBER_NAME: u16 = 6;
    pub const ENTRY_POINT: u16 = 15;
    pub const EXECUTION_MODE: u16 = 16;
    pub const TYPE_BOOL: u16 = 20;
    pub const TYPE_INT: u16 = 21;
    pub const TYPE_FLOAT: u16 = 22;
    pub const TYPE_VECTOR: u16 = 23;
    pub const TYPE_MATRIX: u16 = 24;
    pub const TYPE_IMAGE: u16 = 25;
    pub const TYPE_SAMPLER: u16 = 26;
    pub const TYPE_SAMPLED_IMAGE: u16 = 27;
    pub const TYPE_ARRAY: u16 = 28;
    pub const TYPE_RUNTIME_ARRAY: u16 = 29;
    pub const TYPE_STRUCT: u16 = 30;
    pub const TYPE_POINTER: u16 = 32;
    pub const CONSTANT: u16 = 43;
    pub const VARIABLE: u16 = 59;
    pub const DECORATE: u16 = 71;
    pub const MEMBER_DECORATE: u16 = 72;
    pub const GROUP_MEMBER_DECORATE: u16 = 75;
    pub const DECORATE_ID: u16 = 332;
    pub const DECORATE_STRING: u16 = 5632;
    pub const MEMBER_DECORATE_STRING: u16 = 5633;
    pub const TYPE_VOID: u16 = 19;
    pub const CONSTANT_NULL: u16 = 46;
    pub const FUNCTION: u16 = 54;
    pub const CAPABILITY: u16 = 17;
}

/// Decorations this parser records (SPIR-V section 3.20).
pub(crate) mod decoration {
    pub const BLOCK: u32 = 2;
    pub const BUFFER_BLOCK: u32 = 3;
    pub const ROW_MAJOR: u32 = 4;
    pub const ARRAY_STRIDE: u32 = 6;
    pub const MATRIX_STRIDE: u32 = 7;
    pub const BUILT_IN: u32 = 11;
    pub const PATCH: u32 = 15;
    pub const LOCATION: u32 = 30;
    pub const COMPONENT: u32 = 31;
    pub const INDEX: u32 = 32;
    pub const BINDING: u32 = 33;
    pub const DESCRIPTOR_SET: u32 = 34;
    pub const OFFSET: u32 = 35;
    pub const XFB_BUFFER: u32 = 36;
    pub const XFB_STRIDE: u32 = 37;
}

/// Storage classes (SPIR-V section 3.7).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum StorageClass {
    UniformConstant,
    Input,
    Uniform,
    Output,
    PushConstant,
    StorageBuffer,
    Other(u32),
}

impl StorageClass {
    fn from_word(word: u32) -> Self {
        match word {
            0 => Self::UniformConstant,
            1 => Self::Input,
            2 => Self::Uniform,
            3 => Self::Output,
            9 => Self::PushConstant,
            12 => Self::StorageBuffer,
            other => Self::Other(other),
        }
    }
}

/// Image dimensionality (SPIR-V section 3.8).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Dim {
    D1,
    D2,
    D3,
    Cube,
    Rect,
    Buffer,
    Other(u32),
}

impl Dim {
    fn from_word(word: u32) -> Self {
        match word {
            0 => Self::D1,
            1 => Self::D2,
            2 => Self::D3,
            3 => Self::Cube,
            4 => Self::Rect,
            5 => Self::Buffer,
            other => Self::Other(other),
        }
    }
}

/// A type declaration, with ids of the types it is built from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Type {
    Bool,
    Int {
        width: u32,
        signed: bool,
    },
    Float {
        width: u32,
    },
    Vector {
        component: u32,
        count: u32,
    },
    Matrix {
        column: u32,
        columns: u32,
    },
    Image(ImageType),
    Sampler,
    SampledImage {
        image: u32,
    },
    /// `length` is the value of the constant the array's length operand names (`None` when that
    /// is a specialization constant or otherwise not a plain 32-bit constant).
    Array {
        element: u32,
        length: Option<u32>,
    },
    RuntimeArray {
        element: u32,
    },
    Struct {
        members: Vec<u32>,
    },
    Pointer {
        storage: StorageClass,
        pointee: u32,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ImageType {
    pub sampled_type: u32,
    pub dim: Dim,
    /// 0 = not depth, 1 = depth, 2 = unknown.
    pub depth: u32,
    pub arrayed: bool,
    pub multisampled: bool,
    /// 1 = used with a sampler, 2 = storage image.
    pub sampled: u32,
    /// The SPIR-V image format (0 = unknown); a storage image's `layout(rgba8)` qualifier.
    pub format: u32,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Variable {
    pub id: u32,
    pub pointer_type: u32,
    pub storage: StorageClass,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct EntryPoint {
    pub execution_model: u32,
    pub name: String,
    pub interface: Vec<u32>,
}

/// Why a word stream is not a SPIR-V module this parser can read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum ParseError {
    TooShort,
    BadMagic(u32),
    /// The instruction starting at this word index has a zero word count or runs past the end.
    BadInstruction(usize),
    /// An instruction names an id at or past the header's bound.
    IdOutOfBound(u32),
}

impl std::fmt::Display for ParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::TooShort => write!(f, "module shorter than its header"),
            Self::BadMagic(m) => write!(f, "bad magic number {m:#010x}"),
            Self::BadInstruction(at) => write!(f, "malformed instruction at word {at}"),
            Self::IdOutOfBound(id) => write!(f, "id {id} past the module's bound"),
        }
    }
}

/// The indexed content of one module.
#[derive(Debug, Default)]
pub(crate) struct Module {
    pub names: HashMap<u32, String>,
    pub member_names: HashMap<(u32, u32), String>,
    /// (target, decoration) → the decoration's literal operands.
    pub decorations: HashMap<(u32, u32), Vec<u32>>,
    /// (struct, member, decoration) → literal operands.
    pub member_decorations: HashMap<(u32, u32, u32), Vec<u32>>,
    pub types: HashMap<u32, Type>,
    /// Plain 32-bit (or the low word of wider) constants, by result id.
    pub constants: HashMap<u32, u32>,
    /// Module-scope variables in declaration order (function-local ones are skipped).
    pub variables: Vec<Variable>,
    pub entry_points: Vec<EntryPoint>,
    /// `OpExecutionMode`s: (entry point, mode, literal operands).
    pub execution_modes: Vec<(u32, u32, Vec<u32>)>,
}

impl Module {
    pub fn parse(words: &[u32]) -> Result<Self, ParseError> {
        if words.len() < 5 {
            return Err(ParseError::TooShort);
        }
        if words[0] != MAGIC {
            return Err(ParseError::BadMagic(words[0]));
        }
        let bound = words[3];
        let mut module = Module::default();
        let check = |id: u32| {
            if id < bound {
                Ok(id)
            } else {
                Err(ParseError::IdOutOfBound(id))
            }
        };

        let mut at = 5;
        while at < words.len() {
            let count = (words[at] >> 16) as usize;
            let opcode = (words[at] & 0xffff) as u16;
            if count == 0 || at + count > words.len() {
                return Err(ParseError::BadInstruction(at));
            }
            let ops = &words[at + 1..at + count];
            let bad = ParseError::BadInstruction(at);
            match opcode {
                op::NAME if !ops.is_empty() => {
                    module
                        .names
                        .insert(check(ops[0])?, literal_string(&ops[1..]));
                }
                op::MEMBER_NAME if ops.len() >= 2 => {
                    module
                        .member_names
                        .insert((check(ops[0])?, ops[1]), literal_string(&ops[2..]));
                }
                op::ENTRY_POINT if ops.len() >= 2 => {
                    let name = literal_string(&ops[2..]);
                    let name_words = name.len() / 4 + 1;
                    let interface = ops.get(2 + name_words..).unwrap_or(&[]).to_vec();
                    for &id in &interface {
                        check(id)?;
                    }
                    module.entry_points.push(EntryPoint {
                        execution_model: ops[0],
                        name,
                        interface,
                    });
                }
                op::EXECUTION_MODE if ops.len() >= 2 => {
                    module
                        .execution_modes
                        .push((check(ops[0])?, ops[1], ops[2..].to_vec()));
                }
                op::DECORATE if ops.len() >= 2 => {
                    module
                        .decorations
                        .insert((check(ops[0])?, ops[1]), ops[2..].to_vec());
                }
                op::MEMBER_DECORATE if ops.len() >= 3 => {
                    module
                        .member_decorations
                        .insert((check(ops[0])?, ops[1], ops[2]), ops[3..].to_vec());
                }
                op::TYPE_BOOL | op::TYPE_SAMPLER if !ops.is_empty() => {
                    let ty = if opcode == op::TYPE_BOOL {
                        Type::Bool
                    } else {
                        Type::Sampler
                    };
                    module.types.insert(check(ops[0])?, ty);
                }
                op::TYPE_INT if ops.len() >= 3 => {
                    let ty = Type::Int {
                        width: ops[1],
                        signed: ops[2] != 0,
                    };
                    module.types.insert(check(ops[0])?, ty);
                }
                op::TYPE_FLOAT if ops.len() >= 2 => {
                    module
                        .types
                        .insert(check(ops[0])?, Type::Float { width: ops[1] });
                }
                op::TYPE_VECTOR | op::TYPE_MATRIX if ops.len() >= 3 => {
                    let ty = if opcode == op::TYPE_VECTOR {
                        Type::Vector {
                            component: ops[1],
                            count: ops[2],
                        }
                    } else {
                        Type::Matrix {
                            column: ops[1],
                            columns: ops[2],
                        }
                    };
                    module.types.insert(check(ops[0])?, ty);
                }
                op::TYPE_IMAGE if ops.len() >= 8 => {
                    let ty = Type::Image(ImageType {
                        sampled_type: ops[1],
                        dim: Dim::from_word(ops[2]),
                        depth: ops[3],
                        arrayed: ops[4] != 0,
                        multisampled: ops[5] != 0,
                        sampled: ops[6],
                        format: ops[7],
                    });
                    module.types.insert(check(ops[0])?, ty);
                }
                op::TYPE_SAMPLED_IMAGE if ops.len() >= 2 => {
                    module
                        .types
                        .insert(check(ops[0])?, Type::SampledImage { image: ops[1] });
                }
                op::TYPE_ARRAY if ops.len() >= 3 => {
                    // Constants are declared before the types that use them, so the length is
                    // already known when it is a plain constant.
                    let length = module.constants.get(&ops[2]).copied();
                    let ty = Type::Array {
                        element: ops[1],
                        length,
                    };
                    module.types.insert(check(ops[0])?, ty);
                }
                op::TYPE_RUNTIME_ARRAY if ops.len() >= 2 => {
                    module
                        .types
                        .insert(check(ops[0])?, Type::RuntimeArray { element: ops[1] });
                }
                op::TYPE_STRUCT if !ops.is_empty() => {
                    let members = ops[1..].to_vec();
                    module
                        .types
                        .insert(check(ops[0])?, Type::Struct { members });
                }
                op::TYPE_POINTER if ops.len() >= 3 => {
                    let ty = Type::Pointer {
                        storage: StorageClass::from_word(ops[1]),
                        pointee: ops[2],
                    };
                    module.types.insert(check(ops[0])?, ty);
                }
                op::CONSTANT if ops.len() >= 3 => {
                    module.constants.insert(check(ops[1])?, ops[2]);
                }
                op::VARIABLE if ops.len() >= 3 => {
                    let storage = StorageClass::from_word(ops[2]);
                    // Function-scope variables never carry interface decorations.
                    if storage != StorageClass::Other(7) {
                        module.variables.push(Variable {
                            id: check(ops[1])?,
                            pointer_type: ops[0],
                            storage,
                        });
                    }
                }
                op::NAME
                | op::MEMBER_NAME
                | op::ENTRY_POINT
                | op::EXECUTION_MODE
                | op::DECORATE
                | op::MEMBER_DECORATE
                | op::TYPE_BOOL
                | op::TYPE_SAMPLER
                | op::TYPE_INT
                | op::TYPE_FLOAT
                | op::TYPE_VECTOR
                | op::TYPE_MATRIX
                | op::TYPE_IMAGE
                | op::TYPE_SAMPLED_IMAGE
                | op::TYPE_ARRAY
                | op::TYPE_RUNTIME_ARRAY
                | op::TYPE_STRUCT
                | op::TYPE_POINTER
                | op::CONSTANT
                | op::VARIABLE => return Err(bad),
                _ => {}
            }
            at += count;
        }
        Ok(module)
    }

    /// The first literal operand of a decoration on `id`, if it has one.
    pub fn decoration(&self, id: u32, decoration: u32) -> Option<u32> {
        self.decorations
            .get(&(id, decoration))
            .and_then(|ops| ops.first().copied())
    }

    pub fn has_decoration(&self, id: u32, decoration: u32) -> bool {
        self.decorations.contains_key(&(id, decoration))
    }

    pub fn member_decoration(&self, ty: u32, member: u32, decoration: u32) -> Option<u32> {
        self.member_decorations
            .get(&(ty, member, decoration))
            .and_then(|ops| ops.first().copied())
    }

    pub fn has_member_decoration(&self, ty: u32, member: u32, decoration: u32) -> bool {
        self.member_decorations
            .contains_key(&(ty, member, decoration))
    }

    pub fn name(&self, id: u32) -> &str {
        self.names.get(&id).map(String::as_str).unwrap_or("")
    }
}

/// Works around a glslang defect: with `AUTO_MAP_LOCATIONS` it gives `gl_FragColor` location 0
/// but leaves `gl_FragData` (which desktop GLSL up to 4.60 still accepts) without any location,
/// which Vulkan forbids (VUID-StandaloneSpirv-Location-04916). Decorates it with location 0, the
/// location `gl_FragData[0]` is written to. Returns whether the module was changed.
pub(crate) fn fix_frag_data_location(words: &mut Vec<u32>) -> Result<bool, ParseError> {
    let module = Module::parse(words)?;
    let Some(var) = module.variables.iter().find(|v| {
        v.storage == StorageClass::Output
            && module.name(v.id) == "gl_FragData"
            && !module.has_decoration(v.id, decoration::LOCATION)
    }) else {
        return Ok(false);
    };
    // Annotations come after debug instructions and before the first type declaration; insert
    // at the first annotation, or before the first type when there is none.
    let mut at = 5;
    while at < words.len() {
        let opcode = (words[at] & 0xffff) as u16;
        let is_annotation = (op::DECORATE..=op::GROUP_MEMBER_DECORATE).contains(&opcode)
            || opcode == op::DECORATE_ID
            || opcode == op::DECORATE_STRING
            || opcode == op::MEMBER_DECORATE_STRING;
        let is_type_or_later = (op::TYPE_VOID..=op::CONSTANT_NULL).contains(&opcode)
            || opcode == op::VARIABLE
            || opcode == op::FUNCTION;
        if is_annotation || is_type_or_later {
            break;
        }
        at += ((words[at] >> 16) as usize).max(1);
    }
    let decorate = [
        (4 << 16) | u32::from(op::DECORATE),
        var.id,
        decoration::LOCATION,
        0,
    ];
    words.splice(at..at, decorate);
    Ok(true)
}

/// A nul-terminated UTF-8 literal packed little-endian into words (SPIR-V section 2.2.1).
fn literal_string(words: &[u32]) -> String {
    let mut bytes = Vec::with_capacity(words.len() * 4);
    'words: for word in words {
        for byte in word.to_le_bytes() {
            if byte == 0 {
                break 'words;
            }
            bytes.push(byte);
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn string_words(s: &str) -> Vec<u32> {
        let mut bytes = s.as_bytes().to_vec();
        bytes.push(0);
        while bytes.len() % 4 != 0 {
            bytes.push(0);
        }
        bytes
            .chunks(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect()
    }

    fn inst(opcode: u16, ops: &[u32]) -> Vec<u32> {
        let mut v = vec![((ops.len() as u32 + 1) << 16) | opcode as u32];
        v.extend_from_slice(ops);
        v
    }

    fn header(bound: u32) -> Vec<u32> {
        vec![MAGIC, 0x0001_0500, 0, bound, 0]
    }

    #[test]
    fn names_decorations_types_and_variables_are_indexed() {
        let mut words = header(20);
        let mut name = vec![1];
        name.extend(string_words("color"));
        words.extend(inst(op::NAME, &name));
        words.extend(inst(op::DECORATE, &[1, decoration::LOCATION, 3]));
        words.extend(inst(op::TYPE_FLOAT, &[2, 32]));
        words.extend(inst(op::TYPE_VECTOR, &[3, 2, 4]));
        words.extend(inst(op::TYPE_INT, &[4, 32, 0]));
        words.extend(inst(op::CONSTANT, &[4, 5, 7]));
        words.extend(inst(op::TYPE_ARRAY, &[6, 3, 5]));
        words.extend(inst(op::TYPE_POINTER, &[7, 3, 6]));
        words.extend(inst(op::VARIABLE, &[7, 1, 3]));
        let m = Module::parse(&words).unwrap();
        assert_eq!(m.name(1), "color");
        assert_eq!(m.decoration(1, decoration::LOCATION), Some(3));
        assert_eq!(
            m.types[&6],
            Type::Array {
                element: 3,
                length: Some(7)
            }
        );
        assert_eq!(
            m.variables,
            vec![Variable {
                id: 1,
                pointer_type: 7,
                storage: StorageClass::Output
            }]
        );
    }

    #[test]
    fn frag_data_gets_location_zero_once() {
        let mut words = header(10);
        let mut name = vec![3];
        name.extend(string_words("gl_FragData"));
        words.extend(inst(op::NAME, &name));
        words.extend(inst(op::TYPE_FLOAT, &[1, 32]));
        words.extend(inst(op::TYPE_POINTER, &[2, 3, 1]));
        words.extend(inst(op::VARIABLE, &[2, 3, 3]));
        assert!(fix_frag_data_location(&mut words).unwrap());
        let m = Module::parse(&words).unwrap();
        assert_eq!(m.decoration(3, decoration::LOCATION), Some(0));
        // The decoration sits between the debug names and the types, where SPIR-V wants it.
        assert_eq!(words[5 + name.len() + 1] & 0xffff, u32::from(op::DECORATE));
        assert!(!fix_frag_data_location(&mut words).unwrap());
    }

    #[test]
    fn strings_of_a_multiple_of_four_bytes_end_in_a_zero_word() {
        assert_eq!(literal_string(&string_words("main")), "main");
        assert_eq!(literal_string(&string_words("abc")), "abc");
        // A string with no terminator (malformed) still decodes what is there.
        assert_eq!(literal_string(&[u32::from_le_bytes(*b"ab\0\0")]), "ab");
    }

    #[test]
    fn malformed_modules_are_errors() {
        assert_eq!(Module::parse(&[MAGIC]).unwrap_err(), ParseError::TooShort);
        assert_eq!(
            Module::parse(&[1, 2, 3, 4, 5]).unwrap_err(),
            ParseError::BadMagic(1)
        );
        let mut zero = header(4);
        zero.push(0);
        assert_eq!(
            Module::parse(&zero).unwrap_err(),
            ParseError::BadInstruction(5)
        );
        let mut long = header(4);
        long.push((9 << 16) | op::NAME as u32);
        assert_eq!(
            Module::parse(&long).unwrap_err(),
            ParseError::BadInstruction(5)
        );
        let mut past = header(4);
        past.extend(inst(op::DECORATE, &[9, decoration::LOCATION, 0]));
        assert_eq!(
            Module::parse(&past).unwrap_err(),
            ParseError::IdOutOfBound(9)
        );
        // A known opcode with too few operands is malformed, not skipped.
        let mut short = header(4);
        short.extend(inst(op::TYPE_POINTER, &[1]));
        assert_eq!(
            Module::parse(&short).unwrap_err(),
            ParseError::BadInstruction(5)
        );
    }
}
