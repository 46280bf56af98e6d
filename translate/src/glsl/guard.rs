//! Input guards: the sources glslang would crash on, or spend unbounded stack on, are refused with
//! a compile error before glslang sees them.
//!
//! Design decisions:
//! - glslang's parser is bounded (its stack stops at 10 000 states: right-recursive input gets a
//!   "memory exhausted" compile error), but its tree walks recurse once per level of a
//!   left-associative chain (`u+u+u+…`), which the parser builds without growing its stack:
//!   measured, 200 000 levels overflow a 64 MiB stack, 100 000 do not. So a statement may hold
//!   at most [`MAX_STATEMENT_OPERATORS`] operator characters, bracket nesting is capped at
//!   [`MAX_NESTING`], and glslang runs on a 64 MiB stack (`mod.rs`): at least a 3× margin.
//! - The same checks run twice: on the source as given (before glslang) and on glslang's
//!   preprocessed text (before parsing), so macros that expand into deep or long expressions are
//!   caught too. Preprocessing itself is bounded by glslang (64 `#if` levels, macro expansion
//!   depth), except for the output size of exponentially nested macros ("macro bombs"): those
//!   are bounded statically before glslang runs (`macros`).
//! - A NUL byte would silently truncate the C string glslang reads; it is an error instead.
//! - Errors are formatted the way glslang formats its own, so the info log reads uniformly.
#![deny(unsafe_code, clippy::unwrap_used, clippy::expect_used)]

use super::{CompileError, Stage};

/// The largest source accepted, in bytes (real shaders stay well under 1 MiB).
pub const MAX_SOURCE_BYTES: usize = 4 << 20;
/// The largest preprocessed text accepted: macro expansion may grow a source this far.
pub const MAX_PREPROCESSED_BYTES: usize = 16 << 20;
/// The deepest `( [ {` nesting accepted.
pub const MAX_NESTING: usize = 256;
/// The most operator characters one statement may hold (a 4096-entry constant table has ~12 000).
pub const MAX_STATEMENT_OPERATORS: usize = 40_000;

/// A compile error formatted the way glslang formats its own.
pub(super) fn source_error(stage: Stage, unit: usize, line: usize, message: &str) -> CompileError {
    token_error(stage, unit, line, "", message)
}

/// A compile error about `token` (a directive or construct), formatted as glslang does.
pub(super) fn token_error(
    stage: Stage,
    unit: usize,
    line: usize,
    token: &str,
    message: &str,
) -> CompileError {
    CompileError::Compile {
        stage,
        unit,
        log: format!(
            "ERROR: 0:{line}: '{token}' : {message}\nERROR: 1 compilation errors.  No code generated.\n\n"
        ),
    }
}

/// Checks `text` (a source, or glslang's preprocessed output when `preprocessed`).
pub(super) fn check(
    stage: Stage,
    unit: usize,
    text: &str,
    preprocessed: bool,
) -> Result<(), CompileError> {
    let (limit, what) = if preprocessed {
        (MAX_PREPROCESSED_BYTES, "preprocessed shader source")
    } else {
        (MAX_SOURCE_BYTES, "shader source")
    };
    if text.len() > limit {
        let message = format!(
            "{what} is {} bytes, more than the {limit} accepted",
            text.len()
        );
        return Err(source_error(stage, unit, 0, &message));
    }
    if let Some(at) = text.find('\0') {
        let line = text[..at].matches('\n').count() + 1;
        return Err(source_error(
            stage,
            unit,
            line,
            "NUL character in shader source",
        ));
    }
    match scan(text) {
        Ok(()) => Ok(()),
        Err(Excess::Nesting(line)) => Err(source_error(
            stage,
            unit,
            line,
            &format!("brackets nested deeper than {MAX_NESTING}"),
        )),
        Err(Excess::Statement(line)) => Err(source_error(
            stage,
            unit,
            line,
            &format!("statement has more than {MAX_STATEMENT_OPERATORS} operators"),
        )),
    }
}

#[derive(Debug, PartialEq, Eq)]
enum Excess {
    Nesting(usize),
    Statement(usize),
}

/// One pass over the text outside comments: bracket depth, and operators since the last `; { }`.
fn scan(text: &str) -> Result<(), Excess> {
    scan_with(text, MAX_NESTING, MAX_STATEMENT_OPERATORS)
}

fn scan_with(text: &str, max_nesting: usize, max_operators: usize) -> Result<(), Excess> {
    let bytes = text.as_bytes();
    let (mut depth, mut operators, mut line, mut i) = (0usize, 0usize, 1usize, 0usize);
    while i < bytes.len() {
        match bytes[i] {
            b'\n' => line += 1,
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                i += 2;
                while i < bytes.len() && !(bytes[i] == b'*' && bytes.get(i + 1) == Some(&b'/')) {
                    line += usize::from(bytes[i] == b'\n');
                    i += 1;
                }
                i += 2;
                continue;
            }
            b'(' | b'[' | b'{' => {
                depth += 1;
                if depth > max_nesting {
                    return Err(Excess::Nesting(line));
                }
                if bytes[i] == b'{' {
                    operators = 0;
                }
            }
            b')' | b']' => depth = depth.saturating_sub(1),
            b'}' => {
                depth = depth.saturating_sub(1);
                operators = 0;
            }
            b';' => operators = 0,
            b'+' | b'-' | b'*' | b'/' | b'%' | b'<' | b'>' | b'=' | b'!' | b'&' | b'|' | b'^'
            | b'?' | b':' | b'~' | b',' | b'.' => {
                operators += 1;
                if operators > max_operators {
                    return Err(Excess::Statement(line));
                }
            }
            _ => {}
        }
        i += 1;
    }
    Ok(())
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn nesting_counts_brackets_outside_comments() {
        assert_eq!(scan_with("((()))", 3, 100), Ok(()));
        assert_eq!(scan_with("(((())))", 3, 100), Err(Excess::Nesting(1)));
        assert_eq!(scan_with("a\nb\n{[((", 3, 100), Err(Excess::Nesting(3)));
        assert_eq!(scan_with("// ((((((\n/* [[[[[[\n */ ()", 3, 100), Ok(()));
        // Closing brackets never drive the depth below zero.
        assert_eq!(scan_with(")))))(((", 3, 100), Ok(()));
        // An unterminated block comment ends the scan without reading past the end.
        assert_eq!(scan_with("(/* ((((", 1, 100), Ok(()));
    }

    #[test]
    fn operators_are_counted_per_statement() {
        assert_eq!(scan_with("a+b+c;", 8, 1), Err(Excess::Statement(1)));
        assert_eq!(scan_with("a+b;c+d;{e+f}g+h", 8, 2), Ok(()));
        assert_eq!(
            scan_with("x = 1.0;\ny = a+b+c+d;", 8, 3),
            Err(Excess::Statement(2))
        );
        // Operators inside comments do not count.
        assert_eq!(scan_with("a /* +++++ */ + b; // ----", 8, 2), Ok(()));
    }

    #[test]
    fn nul_and_size_are_refused_with_the_line() {
        let err = check(Stage::Fragment, 2, "void main()\n{\0}", false).unwrap_err();
        assert!(matches!(
            err,
            CompileError::Compile { stage: Stage::Fragment, unit: 2, ref log } if log.starts_with("ERROR: 0:2: ")
        ));
        let big = " ".repeat(MAX_SOURCE_BYTES + 1);
        assert!(check(Stage::Vertex, 0, &big, false).is_err());
        assert!(check(Stage::Vertex, 0, &big, true).is_ok());
    }
}
