//! `gl_NumSamples` (GL_ARB_sample_shading, GLSL 4.00), which Vulkan GLSL lacks.
//!
//! A fragment unit that reads it gets a specialization constant in its place,
//! [`NUM_SAMPLES_CONSTANT`], which the pipeline sets to its attachments' sample count (1 for a
//! single-sampled target, as GL defines the variable). The declaration goes right after the
//! top-level statement before the first use (or before the unit's first token), on the same
//! line, so compile logs keep their line numbers.

use std::borrow::Cow;

use super::frag_coord::Sources;
use super::scan::{tokens, Kind, Token};
use super::Stage;

/// The specialization constant id of the draw's sample count.
pub const NUM_SAMPLES_CONSTANT: u32 = 7346;
const NAME: &str = "arenagl_num_samples";
const BUILTIN: &str = "gl_NumSamples";

/// Where the declaration goes: the end of the last top-level `;` or `}` before token `first`,
/// else the start of the unit's first token.
pub(super) fn declaration_point(t: &[Token], first: usize) -> usize {
    let mut depth = 0usize;
    let mut at = t.first().map_or(0, |k| k.start);
    for k in &t[..first] {
        match k.kind {
            Kind::Punct(b'{') => depth += 1,
            Kind::Punct(b'}') => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    at = k.end;
                }
            }
            Kind::Punct(b';') if depth == 0 => at = k.end,
            _ => {}
        }
    }
    at
}

/// `source` with `gl_NumSamples` lowered (see the module docs); None when it reads none.
pub(crate) fn lower(source: &str) -> Option<String> {
    if !source.contains(BUILTIN) {
        return None;
    }
    let t = tokens(source);
    let first = t.iter().position(|k| k.is_word(source, BUILTIN))?;
    let insert = declaration_point(&t, first);
    let mut out = String::with_capacity(source.len() + 80);
    out.push_str(&source[..insert]);
    out.push_str(&format!(
        " layout(constant_id = {NUM_SAMPLES_CONSTANT}) const int {NAME} = 1;"
    ));
    let mut at = insert;
    for k in t[first..].iter().filter(|k| k.is_word(source, BUILTIN)) {
        out.push_str(&source[at..k.start]);
        out.push_str(NAME);
        at = k.end;
    }
    out.push_str(&source[at..]);
    Some(out)
}

/// `units` with every fragment unit's `gl_NumSamples` lowered.
pub(crate) fn lower_units(units: Sources<'_>) -> Sources<'_> {
    units
        .into_iter()
        .map(|(stage, source)| match stage {
            Stage::Fragment => match lower(&source) {
                Some(lowered) => (stage, Cow::Owned(lowered)),
                None => (stage, source),
            },
            _ => (stage, source),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uses_become_the_constant_declared_before_their_statement() {
        let src = "#version 130\n#extension GL_ARB_sample_shading : require\nuniform int n;\nout vec4 c;\nvoid main()\n{\n  if (gl_NumSamples == n) c = vec4(gl_NumSamples);\n}\n";
        let out = lower(src).unwrap_or_default();
        assert_eq!(out.lines().count(), src.lines().count());
        assert!(
            out.contains(
                "out vec4 c; layout(constant_id = 7346) const int arenagl_num_samples = 1;\n"
            ),
            "{out}"
        );
        assert!(!out.contains("gl_NumSamples"), "{out}");
        assert_eq!(lower("void main() {}"), None);
    }
}
