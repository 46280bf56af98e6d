//! The GLSL token scanner the source rewrites share (`block_structs`, `initializers`,
//! `frag_coord`).
//!
//! Design decisions:
//! - Only what a token-level rewrite needs: identifiers, numeric literals and single punctuation
//!   bytes, each with its byte span in the source, so a rewrite can copy or replace exact text.
//!   Multi-byte operators (`+=`, `<<`) come out as one token per byte.
//! - Comments, whitespace and preprocessor lines (continuations included) produce no tokens: a
//!   rewrite never acts on commented-out code, and directives pass through untouched.
//! - A numeric literal runs through its suffix and exponent (`1.5e-3f`, `0x1Fu`); its value is the
//!   caller's business (`initializers` evaluates them, the others only skip them).

/// What a token is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Ident,
    Number,
    Punct(u8),
}

/// One token and its byte span in the source.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Token {
    pub kind: Kind,
    pub start: usize,
    pub end: usize,
}

impl Token {
    /// The token's text in `source` (the source it was scanned from).
    pub fn text<'a>(&self, source: &'a str) -> &'a str {
        &source[self.start..self.end]
    }

    /// Whether the token is the identifier `word` of `source`.
    pub fn is_word(&self, source: &str, word: &str) -> bool {
        self.kind == Kind::Ident && self.text(source) == word
    }
}

/// The tokens of `source` outside comments and preprocessor lines.
pub(crate) fn tokens(source: &str) -> Vec<Token> {
    let b = source.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let mut line_start = true;
    while i < b.len() {
        let c = b[i];
        if c == b'\n' {
            line_start = true;
            i += 1;
        } else if c.is_ascii_whitespace() {
            i += 1;
        } else if c == b'/' && b.get(i + 1) == Some(&b'/') {
            i = source[i..].find('\n').map_or(b.len(), |e| i + e);
        } else if c == b'/' && b.get(i + 1) == Some(&b'*') {
            i = source[i + 2..]
                .find("*/")
                .map_or(b.len(), |e| i + 2 + e + 2);
        } else if c == b'#' && line_start {
            // A directive runs to the end of its line (continuations included).
            while i < b.len() && !(b[i] == b'\n' && b[i - 1] != b'\\') {
                i += 1;
            }
        } else if c.is_ascii_alphabetic() || c == b'_' {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            out.push(Token {
                kind: Kind::Ident,
                start,
                end: i,
            });
            line_start = false;
        } else if c.is_ascii_digit() || (c == b'.' && b.get(i + 1).is_some_and(u8::is_ascii_digit))
        {
            let start = i;
            while i < b.len()
                && (b[i].is_ascii_alphanumeric()
                    || b[i] == b'.'
                    || ((b[i] == b'-' || b[i] == b'+') && matches!(b[i - 1], b'e' | b'E')))
            {
                i += 1;
            }
            out.push(Token {
                kind: Kind::Number,
                start,
                end: i,
            });
            line_start = false;
        } else {
            out.push(Token {
                kind: Kind::Punct(c),
                start: i,
                end: i + 1,
            });
            i += 1;
            line_start = false;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(source: &str) -> Vec<&str> {
        tokens(source).iter().map(|t| t.text(source)).collect()
    }

    #[test]
    fn comments_and_directives_make_no_tokens() {
        let src = "#version 120\n#define A \\\n  b c\n// x y\nfloat /* z */ f = 1.5e-3f;\n";
        assert_eq!(texts(src), ["float", "f", "=", "1.5e-3f", ";"]);
        let kinds: Vec<Kind> = tokens(src).iter().map(|t| t.kind).collect();
        assert_eq!(
            kinds,
            [
                Kind::Ident,
                Kind::Ident,
                Kind::Punct(b'='),
                Kind::Number,
                Kind::Punct(b';')
            ]
        );
    }

    #[test]
    fn a_hash_inside_a_line_is_punctuation_and_numbers_keep_their_suffixes() {
        assert_eq!(texts("a # b .5 0x1Fu"), ["a", "#", "b", ".5", "0x1Fu"]);
        assert_eq!(texts("/* open"), Vec::<&str>::new());
    }
}
