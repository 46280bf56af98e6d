//! GLSL ES's rule that a fragment input of integer type is `flat`, for the inputs glslang does
//! not check: the members of input blocks.
//!
//! Design decisions:
//! - GLSL ES 3.20 §4.3.4 (and 3.10 with GL_EXT/OES_shader_io_blocks): "Fragment shader inputs
//!   that are, or contain, signed or unsigned integers [...] must be qualified with the
//!   interpolation qualifier flat". glslang refuses a plain `in int i;` but compiles an integer
//!   member of an input block (or a struct member holding one) that neither it nor its block
//!   qualifies `flat`, which Vulkan then interpolates as it may not (an integer `Input` needs
//!   `Flat`). The check reads the unit's tokens (`scan`, comments and directives skipped): the
//!   structs declared at file scope and whether each holds an integer, then every `in` block.
//! - Only fragment units of GLSL ES from 3.10 ask for it ([`check`]'s caller, `es::validate`);
//!   3.00 ES has no input blocks in fragment shaders (glslang refuses them).
//! - The log names the member and its line, as glslang's own error for a plain input does.

use std::collections::HashSet;

use super::scan::{self, Kind, Token};
use super::{guard, CompileError, Stage};

/// GLSL ES's scalar and vector integer types.
const INTEGER_TYPES: &[&str] = &[
    "int", "ivec2", "ivec3", "ivec4", "uint", "uvec2", "uvec3", "uvec4",
];

/// Words that qualify a declaration (the type is the first word that is none of them).
const QUALIFIERS: &[&str] = &[
    "flat",
    "smooth",
    "noperspective",
    "centroid",
    "sample",
    "patch",
    "in",
    "out",
    "uniform",
    "buffer",
    "highp",
    "mediump",
    "lowp",
    "invariant",
    "precise",
    "const",
    "layout",
];

/// Refuses a fragment unit (GLSL ES 3.10 or later) with an integer input-block member that is
/// not `flat`, naming the first such member.
pub(crate) fn check(stage: Stage, unit: usize, source: &str) -> Result<(), CompileError> {
    if stage != Stage::Fragment {
        return Ok(());
    }
    let tokens = scan::tokens(source);
    let mut integer_structs = HashSet::new();
    let mut i = 0;
    while i < tokens.len() {
        let statement = Statement::at(&tokens, i);
        match statement.kind(source) {
            Some(Declares::Struct(name))
                if (statement.members())
                    .any(|m| is_integer(m.type_name(source), &integer_structs)) =>
            {
                integer_structs.insert(name.to_owned());
            }
            Some(Declares::InputBlock) => {
                let unflat = statement.members().find(|m| {
                    !m.is_flat(source) && is_integer(m.type_name(source), &integer_structs)
                });
                if let Some(m) = unflat {
                    let name = m.name(source);
                    let line = source[..name.start].matches('\n').count() + 1;
                    return Err(guard::token_error(
                        stage,
                        unit,
                        line,
                        name.text(source),
                        "a fragment shader input of integer type (here a block member) must be \
                         qualified flat",
                    ));
                }
            }
            _ => {}
        }
        i = statement.end;
    }
    Ok(())
}

fn is_integer(type_name: &str, integer_structs: &HashSet<String>) -> bool {
    INTEGER_TYPES.contains(&type_name) || integer_structs.contains(type_name)
}

/// Whether a statement head is a function's (its parameter list closes it; a block's head
/// ends in the block's name, even after `layout(…)`).
fn is_function(head: &[Token]) -> bool {
    head.last().is_some_and(|t| t.kind == Kind::Punct(b')'))
}

/// What a file-scope statement with a body declares.
enum Declares<'a> {
    /// `struct NAME { … }`.
    Struct(&'a str),
    /// `… in NAME { … }` (GLSL ES qualifies members, never the block, with `flat`).
    InputBlock,
}

/// A file-scope statement: its head (the tokens before its body's `{` or its end), its body
/// (the tokens between the braces, when it has one) and the index after it.
struct Statement<'t> {
    head: &'t [Token],
    body: Option<&'t [Token]>,
    end: usize,
}

impl<'t> Statement<'t> {
    /// The statement starting at token `start`: up to a `;` at depth 0, or the `}` closing its
    /// first brace (a function body ends there, a block or struct at the `;` after it).
    fn at(tokens: &'t [Token], start: usize) -> Statement<'t> {
        let punct = |t: &Token, c: u8| t.kind == Kind::Punct(c);
        let Some(open) = tokens[start..]
            .iter()
            .position(|t| punct(t, b'{') || punct(t, b';'))
            .map(|p| start + p)
        else {
            return Statement {
                head: &tokens[start..],
                body: None,
                end: tokens.len(),
            };
        };
        if punct(&tokens[open], b';') {
            return Statement {
                head: &tokens[start..open],
                body: None,
                end: open + 1,
            };
        }
        let mut depth = 0usize;
        let mut close = tokens.len();
        for (i, t) in tokens.iter().enumerate().skip(open) {
            match t.kind {
                Kind::Punct(b'{') => depth += 1,
                Kind::Punct(b'}') => {
                    depth -= 1;
                    if depth == 0 {
                        close = i;
                        break;
                    }
                }
                _ => {}
            }
        }
        // A declaration's body is followed by its instance name and `;`; a function's is not.
        let end = if is_function(&tokens[start..open]) {
            close + 1
        } else {
            tokens[close..]
                .iter()
                .position(|t| punct(t, b';'))
                .map_or(tokens.len(), |p| close + p + 1)
        };
        Statement {
            head: &tokens[start..open],
            body: Some(&tokens[(open + 1).min(close)..close]),
            end,
        }
    }

    /// What the statement declares, when it is a struct or an input block.
    fn kind<'s>(&self, source: &'s str) -> Option<Declares<'s>> {
        self.body?;
        let words: Vec<&str> = (self.head.iter())
            .filter(|t| t.kind == Kind::Ident)
            .map(|t| t.text(source))
            .collect();
        if let ["struct", name] = words.as_slice() {
            return Some(Declares::Struct(name));
        }
        (!is_function(self.head) && words.contains(&"in")).then_some(Declares::InputBlock)
    }

    /// The member declarations of the statement's body.
    fn members(&self) -> impl Iterator<Item = Member<'t>> {
        let body = self.body.unwrap_or(&[]);
        body.split(|t| t.kind == Kind::Punct(b';'))
            .filter(|m| !m.is_empty())
            .map(|tokens| Member { tokens })
    }
}

/// One member declaration of a struct or block (without its `;`).
struct Member<'t> {
    tokens: &'t [Token],
}

impl Member<'_> {
    /// The words before the type (qualifiers), `layout(…)` groups skipped.
    fn words<'a>(&'a self, source: &'a str) -> impl Iterator<Item = (usize, &'a str)> + 'a {
        let mut depth = 0usize;
        self.tokens
            .iter()
            .enumerate()
            .filter_map(move |(i, t)| match t.kind {
                Kind::Punct(b'(') => {
                    depth += 1;
                    None
                }
                Kind::Punct(b')') => {
                    depth = depth.saturating_sub(1);
                    None
                }
                Kind::Ident if depth == 0 => Some((i, t.text(source))),
                _ => None,
            })
    }

    /// The index of the member's type token.
    fn type_index(&self, source: &str) -> Option<usize> {
        self.words(source)
            .find(|(_, w)| !QUALIFIERS.contains(w))
            .map(|(i, _)| i)
    }

    fn type_name<'s>(&self, source: &'s str) -> &'s str {
        self.type_index(source)
            .map_or("", |i| self.tokens[i].text(source))
    }

    /// The member's name (the token after its type; the type when there is none).
    fn name(&self, source: &str) -> Token {
        let i = self.type_index(source).unwrap_or(0);
        *self.tokens.get(i + 1).unwrap_or(&self.tokens[i])
    }

    fn is_flat(&self, source: &str) -> bool {
        self.words(source).any(|(_, w)| w == "flat")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(src: &str) -> Option<String> {
        match check(Stage::Fragment, 0, src) {
            Ok(()) => None,
            Err(CompileError::Compile { log, .. }) => Some(log),
            Err(other) => panic!("{other:?}"),
        }
    }

    #[test]
    fn integer_block_members_need_flat() {
        let block = |m: &str| format!("#version 320 es\nin IB {{\n  {m};\n}};\nvoid main() {{}}\n");
        for m in [
            "int a",
            "smooth uvec2 a",
            "highp ivec4 a[2]",
            "centroid uint a",
        ] {
            let log = refused(&block(m)).unwrap_or_else(|| panic!("{m}"));
            assert!(log.starts_with("ERROR: 0:3: 'a' :"), "{log}");
        }
        for m in [
            "flat int a",
            "vec4 a",
            "flat highp ivec4 a[2]",
            "layout(location = 1) flat uint a",
        ] {
            assert_eq!(refused(&block(m)), None, "{m}");
        }
        assert!(check(Stage::Vertex, 0, &block("int a")).is_ok());
    }

    #[test]
    fn structs_holding_integers_count_as_integers() {
        let src = "#version 320 es\nstruct T { float f; };\nstruct S { T t; uvec3 u; };\n\
                   struct R { S s; };\nin IB { T t; R r; };\nvoid main() { vec4 v; }\n";
        let log = refused(src).unwrap_or_default();
        assert!(log.starts_with("ERROR: 0:5: 'r' :"), "{log}");
        assert_eq!(refused(&src.replace("R r;", "flat R r;")), None);
        assert_eq!(refused(&src.replace(" uvec3 u;", "")), None);
        // Functions, uniform blocks and plain inputs are not input blocks.
        let other = "#version 320 es\nuniform U { int u; };\nin vec4 v;\n\
                     int f(int a) { return a; }\nvoid main() { if (true) { int b; } }\n";
        assert_eq!(refused(other), None);
    }
}
