//! A GL SPIR-V module as the rewriting passes edit it: the words checked for the structure the
//! passes rely on and split into the sections of SPIR-V's logical layout (SPIR-V 1.6, 2.4).
//!
//! Design decisions:
//! - An application's binary is untrusted: [`Sections::parse`] refuses (with a reason for the
//!   info log) anything whose header, instruction lengths or section order the passes could
//!   misread, so that no pass indexes past an instruction or emits a module in a wrong order.
//!   What it cannot see (an operand naming the wrong kind of id, …) is left to the driver,
//!   as it is for Vulkan applications; ArenaGL's own tests run every rewritten module through
//!   `spirv-val` and the validation layer.
//! - New declarations are appended to their section, so they follow everything they may refer
//!   to; ids come from the header's bound, which is bounded so that it never overflows.
#![deny(unsafe_code, clippy::unwrap_used, clippy::expect_used)]

use crate::glsl::spirv::MAGIC;

/// One instruction, its header word first.
pub(super) type Inst = Vec<u32>;

/// Opcodes the passes read or write (SPIR-V 1.6, 3.52).
pub(super) mod op {
    pub const SOURCE_CONTINUED: u16 = 2;
    pub const SOURCE: u16 = 3;
    pub const SOURCE_EXTENSION: u16 = 4;
    pub const NAME: u16 = 5;
    pub const MEMBER_NAME: u16 = 6;
    pub const STRING: u16 = 7;
    pub const EXTENSION: u16 = 10;
    pub const EXT_INST_IMPORT: u16 = 11;
    pub const MEMORY_MODEL: u16 = 14;
    pub const ENTRY_POINT: u16 = 15;
    pub const EXECUTION_MODE: u16 = 16;
    pub const CAPABILITY: u16 = 17;
    pub const TYPE_INT: u16 = 21;
    pub const TYPE_FLOAT: u16 = 22;
    pub const TYPE_VECTOR: u16 = 23;
    pub const TYPE_MATRIX: u16 = 24;
    pub const TYPE_ARRAY: u16 = 28;
    pub const TYPE_STRUCT: u16 = 30;
    pub const TYPE_POINTER: u16 = 32;
    pub const CONSTANT_TRUE: u16 = 41;
    pub const CONSTANT_FALSE: u16 = 42;
    pub const CONSTANT: u16 = 43;
    pub const CONSTANT_COMPOSITE: u16 = 44;
    pub const CONSTANT_NULL: u16 = 46;
    pub const SPEC_CONSTANT_TRUE: u16 = 48;
    pub const SPEC_CONSTANT_FALSE: u16 = 49;
    pub const SPEC_CONSTANT: u16 = 50;
    pub const FUNCTION: u16 = 54;
    pub const FUNCTION_END: u16 = 56;
    pub const FUNCTION_CALL: u16 = 57;
    pub const VARIABLE: u16 = 59;
    pub const LOAD: u16 = 61;
    pub const STORE: u16 = 62;
    pub const COPY_MEMORY: u16 = 63;
    pub const COPY_MEMORY_SIZED: u16 = 64;
    pub const ACCESS_CHAIN: u16 = 65;
    pub const IN_BOUNDS_ACCESS_CHAIN: u16 = 66;
    pub const PTR_ACCESS_CHAIN: u16 = 67;
    pub const DECORATE: u16 = 71;
    pub const MEMBER_DECORATE: u16 = 72;
    pub const DECORATION_GROUP: u16 = 73;
    pub const GROUP_DECORATE: u16 = 74;
    pub const GROUP_MEMBER_DECORATE: u16 = 75;
    pub const COMPOSITE_CONSTRUCT: u16 = 80;
    pub const I_NOT_EQUAL: u16 = 171;
    pub const PHI: u16 = 245;
    pub const SELECT: u16 = 169;
    pub const MODULE_PROCESSED: u16 = 330;
    pub const EXECUTION_MODE_ID: u16 = 331;
    pub const DECORATE_ID: u16 = 332;
    pub const DECORATE_STRING: u16 = 5632;
    pub const MEMBER_DECORATE_STRING: u16 = 5633;
}

/// The highest SPIR-V version accepted (1.6).
const NEWEST_VERSION: u32 = 0x0001_0600;
/// The largest id bound accepted: far above what a real shader needs, far below overflow.
pub(super) const MAX_BOUND: u32 = 1 << 22;

/// The header word of an instruction of `words` words.
pub(super) fn header(opcode: u16, words: usize) -> u32 {
    ((words as u32) << 16) | u32::from(opcode)
}

pub(super) fn opcode(inst: &[u32]) -> u16 {
    inst.first().map_or(0, |w| (w & 0xffff) as u16)
}

/// A literal string's words (nul-terminated, padded with nuls).
pub(super) fn string_words(s: &str) -> Vec<u32> {
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

/// The literal string at the start of `words` and how many words it takes (`None`: no nul).
pub(super) fn read_string(words: &[u32]) -> Option<(String, usize)> {
    let mut bytes = Vec::new();
    for (i, w) in words.iter().enumerate() {
        for b in w.to_le_bytes() {
            if b == 0 {
                return Some((String::from_utf8_lossy(&bytes).into_owned(), i + 1));
            }
            bytes.push(b);
        }
    }
    None
}

/// The module split into the sections of SPIR-V's logical layout.
#[derive(Clone, Debug, Default)]
pub(super) struct Sections {
    pub version: u32,
    pub generator: u32,
    pub bound: u32,
    /// Capabilities, extensions, imports, the memory model, entry points, execution modes.
    pub preamble: Vec<Inst>,
    /// Strings, sources, names.
    pub debug: Vec<Inst>,
    pub annotations: Vec<Inst>,
    /// Types, constants, global variables (and line information among them).
    pub globals: Vec<Inst>,
    /// Every function, in order.
    pub functions: Vec<Inst>,
}

/// The section an instruction belongs to, in layout order.
fn section(code: u16) -> u8 {
    match code {
        op::CAPABILITY
        | op::EXTENSION
        | op::EXT_INST_IMPORT
        | op::MEMORY_MODEL
        | op::ENTRY_POINT
        | op::EXECUTION_MODE
        | op::EXECUTION_MODE_ID => 0,
        op::SOURCE_CONTINUED
        | op::SOURCE
        | op::SOURCE_EXTENSION
        | op::NAME
        | op::MEMBER_NAME
        | op::STRING
        | op::MODULE_PROCESSED => 1,
        op::DECORATE
        | op::MEMBER_DECORATE
        | op::DECORATION_GROUP
        | op::GROUP_DECORATE
        | op::GROUP_MEMBER_DECORATE
        | op::DECORATE_ID
        | op::DECORATE_STRING
        | op::MEMBER_DECORATE_STRING => 2,
        op::FUNCTION => 4,
        _ => 3,
    }
}

impl Sections {
    /// Splits `words`, refusing what the passes could misread (see the module docs).
    pub fn parse(words: &[u32]) -> Result<Self, String> {
        if words.len() < 5 {
            return Err("the binary is shorter than a SPIR-V header".into());
        }
        if words[0] != MAGIC {
            return Err(format!("bad SPIR-V magic number {:#010x}", words[0]));
        }
        let version = words[1];
        if version & 0xff00_00ff != 0 || !(0x0001_0000..=NEWEST_VERSION).contains(&version) {
            return Err(format!("unknown SPIR-V version {version:#010x}"));
        }
        let bound = words[3];
        if bound == 0 || bound > MAX_BOUND {
            return Err(format!("SPIR-V id bound {bound} out of range"));
        }
        if words[4] != 0 {
            return Err("the SPIR-V header's reserved word is not 0".into());
        }
        let mut s = Sections {
            version,
            generator: words[2],
            bound,
            ..Sections::default()
        };
        let mut at = 5;
        let mut last = 0u8;
        let mut in_function = false;
        while at < words.len() {
            let count = (words[at] >> 16) as usize;
            if count == 0 || at + count > words.len() {
                return Err(format!("malformed SPIR-V instruction at word {at}"));
            }
            let inst = words[at..at + count].to_vec();
            let code = opcode(&inst);
            let sec = if last == 4 { 4 } else { section(code) };
            if sec < last || (sec == 4 && section(code) < 3) {
                return Err(format!(
                    "SPIR-V instruction {code} at word {at} is out of the module's section order"
                ));
            }
            match code {
                op::FUNCTION if in_function => {
                    return Err(format!("OpFunction at word {at} inside a function"))
                }
                op::FUNCTION => in_function = true,
                op::FUNCTION_END if !in_function => {
                    return Err(format!("OpFunctionEnd at word {at} outside a function"))
                }
                op::FUNCTION_END => in_function = false,
                _ => {}
            }
            last = sec;
            match sec {
                0 => s.preamble.push(inst),
                1 => s.debug.push(inst),
                2 => s.annotations.push(inst),
                3 => s.globals.push(inst),
                _ => s.functions.push(inst),
            }
            at += count;
        }
        if in_function {
            return Err("the last SPIR-V function has no OpFunctionEnd".into());
        }
        Ok(s)
    }

    /// The module's words.
    pub fn words(&self) -> Vec<u32> {
        let mut out = vec![MAGIC, self.version, self.generator, self.bound, 0];
        for inst in self
            .preamble
            .iter()
            .chain(&self.debug)
            .chain(&self.annotations)
            .chain(&self.globals)
            .chain(&self.functions)
        {
            out.extend_from_slice(inst);
        }
        out
    }

    /// A new id.
    pub fn fresh(&mut self) -> Result<u32, String> {
        if self.bound >= MAX_BOUND {
            return Err("the SPIR-V module needs more ids than ArenaGL allows".into());
        }
        self.bound += 1;
        Ok(self.bound - 1)
    }

    /// The global `code operands…` (a type, say) the module declares, declared when it has none.
    pub fn global(&mut self, code: u16, operands: &[u32]) -> Result<u32, String> {
        let found = self
            .globals
            .iter()
            .find(|i| opcode(i) == code && i.len() == 2 + operands.len() && i[2..] == *operands);
        if let Some(i) = found {
            return Ok(i[1]);
        }
        self.declare(code, operands)
    }

    /// A new global `code id operands…` (a constant, a decorated aggregate type).
    pub fn declare(&mut self, code: u16, operands: &[u32]) -> Result<u32, String> {
        let id = self.fresh()?;
        let mut inst = vec![header(code, 2 + operands.len()), id];
        inst.extend_from_slice(operands);
        self.globals.push(inst);
        Ok(id)
    }

    /// A new constant of the type `ty` with one word of value.
    pub fn constant(&mut self, ty: u32, value: u32) -> Result<u32, String> {
        let id = self.fresh()?;
        self.globals
            .push(vec![header(op::CONSTANT, 4), ty, id, value]);
        Ok(id)
    }

    /// Adds `OpDecorate target decoration operands…`.
    pub fn decorate(&mut self, target: u32, decoration: u32, operands: &[u32]) {
        let mut inst = vec![header(op::DECORATE, 3 + operands.len()), target, decoration];
        inst.extend_from_slice(operands);
        self.annotations.push(inst);
    }

    /// Adds `OpMemberDecorate ty member decoration operands…`.
    pub fn decorate_member(&mut self, ty: u32, member: u32, decoration: u32, operands: &[u32]) {
        let mut inst = vec![
            header(op::MEMBER_DECORATE, 4 + operands.len()),
            ty,
            member,
            decoration,
        ];
        inst.extend_from_slice(operands);
        self.annotations.push(inst);
    }

    /// Adds `OpName id "name"`.
    pub fn name(&mut self, id: u32, name: &str) {
        let mut inst = vec![0, id];
        inst.extend(string_words(name));
        inst[0] = header(op::NAME, inst.len());
        self.debug.push(inst);
    }

    /// Adds `OpMemberName ty member "name"`.
    pub fn name_member(&mut self, ty: u32, member: u32, name: &str) {
        let mut inst = vec![0, ty, member];
        inst.extend(string_words(name));
        inst[0] = header(op::MEMBER_NAME, inst.len());
        self.debug.push(inst);
    }

    /// Drops every `OpDecorate id decoration …`.
    pub fn undecorate(&mut self, id: u32, decoration: u32) {
        self.annotations.retain(|i| {
            !(opcode(i) == op::DECORATE && i.get(1) == Some(&id) && i.get(2) == Some(&decoration))
        });
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    #[test]
    fn strings_round_trip() {
        for s in ["", "main", "abc", "abcd", "entry_point_5"] {
            let words = string_words(s);
            assert_eq!(read_string(&words), Some((s.to_owned(), words.len())));
        }
        assert_eq!(read_string(&[u32::from_le_bytes(*b"abcd")]), None);
    }

    #[test]
    fn garbage_is_refused_never_a_panic() {
        let mut seed = 0x9e37_79b9u32;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            seed
        };
        for len in 0..64 {
            let mut words: Vec<u32> = (0..len).map(|_| next()).collect();
            let _ = Sections::parse(&words);
            if len >= 5 {
                words[0] = MAGIC;
                words[1] = 0x0001_0300;
                words[3] = 100;
                words[4] = 0;
                let _ = Sections::parse(&words);
            }
        }
        assert!(Sections::parse(&[MAGIC, 0x0001_0000, 0, 0, 0]).is_err());
        assert!(Sections::parse(&[MAGIC, 0x0002_0000, 0, 5, 0]).is_err());
        // An instruction running past the end.
        assert!(Sections::parse(&[MAGIC, 0x0001_0000, 0, 5, 0, header(17, 3), 1]).is_err());
    }
}
