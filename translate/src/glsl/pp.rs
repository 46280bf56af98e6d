//! Preprocessor tokens for the input guards (`macros`): the source split into directive lines and
//! the text between them, the way glslang's preprocessor splits it.
//!
//! Design decisions:
//! - Line continuations (`\` + newline) are removed first, as glslang's preprocessor removes
//!   them before it tokenises: a directive runs on over its continued lines, and a `//` comment
//!   ending in `\` swallows the next line. Tokens then index this spliced text.
//! - Comments are whitespace. A block comment's newlines do not end a directive (C semantics,
//!   which glslang follows), and a `#` is a directive only as the first token of a line.
//! - Tokens are coarse: identifiers, pp-numbers (`1.5e-3f`, `0x1Fu`), `##`, and single bytes for
//!   everything else. What the guards need is names, parentheses, commas and sizes.
//! - Offsets and lines are `u32`: sources reaching this are under `MAX_SOURCE_BYTES` (4 MiB).

use std::borrow::Cow;
use std::ops::Range;

/// What a token is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    Ident,
    Number,
    /// `##`, token pasting.
    Paste,
    Punct(u8),
}

/// One token: its byte span in the spliced text and the source line it starts on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Tok {
    pub kind: Kind,
    pub start: u32,
    pub end: u32,
    pub line: u32,
}

impl Tok {
    /// Its length in bytes.
    pub fn len(&self) -> u64 {
        u64::from(self.end.saturating_sub(self.start))
    }

    pub fn is_punct(&self, byte: u8) -> bool {
        self.kind == Kind::Punct(byte)
    }
}

/// One directive line: the tokens after its `#`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Directive {
    pub line: u32,
    pub toks: Range<usize>,
}

/// A scanned source.
pub(super) struct Scan<'a> {
    /// The source with its line continuations removed.
    pub text: Cow<'a, str>,
    /// Tokens outside directives, in order.
    pub main: Vec<Tok>,
    /// Tokens of all directives, in order; each [`Directive`] names its range.
    pub dtoks: Vec<Tok>,
    pub directives: Vec<Directive>,
}

impl Scan<'_> {
    /// The text of `tok` (empty if the span is not on character boundaries, which only
    /// punctuation made of non-ASCII bytes can be).
    pub fn text_of(&self, tok: &Tok) -> &str {
        self.text
            .get(tok.start as usize..tok.end as usize)
            .unwrap_or("")
    }

    /// A directive's tokens.
    pub fn directive_toks(&self, d: &Directive) -> &[Tok] {
        self.dtoks.get(d.toks.clone()).unwrap_or(&[])
    }
}

/// Removes line continuations; returns the spliced text and, for each removed newline, the
/// offset in the spliced text where it was.
fn splice(source: &str) -> (Cow<'_, str>, Vec<u32>) {
    if !source.contains("\\\n") && !source.contains("\\\r\n") {
        return (Cow::Borrowed(source), Vec::new());
    }
    let mut out = String::with_capacity(source.len());
    let mut at = Vec::new();
    let mut rest = source;
    while let Some(i) = rest.find('\\') {
        out.push_str(&rest[..i]);
        let after = &rest[i + 1..];
        let skip = if after.starts_with('\n') {
            1
        } else if after.starts_with("\r\n") {
            2
        } else {
            0
        };
        if skip == 0 {
            out.push('\\');
        } else {
            at.push(u32::try_from(out.len()).unwrap_or(u32::MAX));
        }
        rest = &after[skip..];
    }
    out.push_str(rest);
    (Cow::Owned(out), at)
}

/// `source` with its line continuations joined, keeping its line count: every removed newline
/// is put back at the end of its logical line, so the lines after it keep their numbers. Desktop
/// GL implementations take continuations in every GLSL version (as C's preprocessor does);
/// glslang only from GLSL 4.20.
pub fn join_continued_lines(source: &str) -> Cow<'_, str> {
    let (spliced, removed) = splice(source);
    if removed.is_empty() {
        return spliced;
    }
    let mut out = String::with_capacity(source.len());
    let mut pending = 0;
    let mut next = removed.iter().peekable();
    for (i, ch) in spliced.char_indices() {
        while next.next_if(|&&at| at as usize <= i).is_some() {
            pending += 1;
        }
        out.push(ch);
        if ch == '\n' {
            out.extend(std::iter::repeat_n('\n', pending));
            pending = 0;
        }
    }
    pending += next.count();
    out.extend(std::iter::repeat_n('\n', pending));
    Cow::Owned(out)
}

/// Scans `source` into directives and main-stream tokens.
pub(super) fn scan(source: &str) -> Scan<'_> {
    let (text, splices) = splice(source);
    let mut scanner = Scanner {
        b: text.as_bytes(),
        i: 0,
        line: 1,
        splices: &splices,
        next_splice: 0,
        line_start: true,
        directive: None,
        main: Vec::new(),
        dtoks: Vec::new(),
        directives: Vec::new(),
    };
    scanner.run();
    let Scanner {
        main,
        dtoks,
        directives,
        ..
    } = scanner;
    Scan {
        text,
        main,
        dtoks,
        directives,
    }
}

struct Scanner<'a> {
    b: &'a [u8],
    i: usize,
    line: u32,
    splices: &'a [u32],
    next_splice: usize,
    /// Only whitespace and comments since the last newline.
    line_start: bool,
    /// The open directive: its line and first token index.
    directive: Option<(u32, usize)>,
    main: Vec<Tok>,
    dtoks: Vec<Tok>,
    directives: Vec<Directive>,
}

impl Scanner<'_> {
    fn run(&mut self) {
        while self.i < self.b.len() {
            self.count_splices();
            let c = self.b[self.i];
            let next = self.b.get(self.i + 1).copied();
            match c {
                b'\n' => {
                    self.end_directive();
                    self.line_start = true;
                    self.line = self.line.saturating_add(1);
                    self.i += 1;
                }
                b'/' if next == Some(b'/') => self.skip_line_comment(),
                b'/' if next == Some(b'*') => self.skip_block_comment(),
                b'#' if next == Some(b'#') => self.push(Kind::Paste, self.i + 2),
                b'#' if self.line_start && self.directive.is_none() => {
                    self.directive = Some((self.line, self.dtoks.len()));
                    self.line_start = false;
                    self.i += 1;
                }
                _ if c.is_ascii_whitespace() => self.i += 1,
                _ => self.token(c, next),
            }
        }
        self.end_directive();
    }

    /// Counts the lines of the continuations passed so far.
    fn count_splices(&mut self) {
        while self
            .splices
            .get(self.next_splice)
            .is_some_and(|&at| at as usize <= self.i)
        {
            self.line = self.line.saturating_add(1);
            self.next_splice += 1;
        }
    }

    fn skip_line_comment(&mut self) {
        while self.i < self.b.len() && self.b[self.i] != b'\n' {
            self.i += 1;
        }
    }

    fn skip_block_comment(&mut self) {
        self.i += 2;
        while self.i < self.b.len()
            && !(self.b[self.i] == b'*' && self.b.get(self.i + 1) == Some(&b'/'))
        {
            if self.b[self.i] == b'\n' {
                self.line = self.line.saturating_add(1);
            }
            self.i += 1;
            self.count_splices();
        }
        self.i = (self.i + 2).min(self.b.len());
    }

    fn token(&mut self, c: u8, next: Option<u8>) {
        let b = self.b;
        let mut end = self.i + 1;
        let kind = if c.is_ascii_alphabetic() || c == b'_' {
            while end < b.len() && (b[end].is_ascii_alphanumeric() || b[end] == b'_') {
                end += 1;
            }
            Kind::Ident
        } else if c.is_ascii_digit() || (c == b'.' && next.is_some_and(|n| n.is_ascii_digit())) {
            while end < b.len()
                && (b[end].is_ascii_alphanumeric()
                    || b[end] == b'_'
                    || b[end] == b'.'
                    || (matches!(b[end], b'+' | b'-') && matches!(b[end - 1], b'e' | b'E')))
            {
                end += 1;
            }
            Kind::Number
        } else {
            Kind::Punct(c)
        };
        self.push(kind, end);
    }

    fn push(&mut self, kind: Kind, end: usize) {
        let tok = Tok {
            kind,
            start: u32::try_from(self.i).unwrap_or(u32::MAX),
            end: u32::try_from(end).unwrap_or(u32::MAX),
            line: self.line,
        };
        if self.directive.is_some() {
            self.dtoks.push(tok);
        } else {
            self.main.push(tok);
        }
        self.line_start = false;
        self.i = end;
    }

    fn end_directive(&mut self) {
        if let Some((line, first)) = self.directive.take() {
            self.directives.push(Directive {
                line,
                toks: first..self.dtoks.len(),
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts<'a>(scan: &'a Scan<'_>, toks: &[Tok]) -> Vec<&'a str> {
        toks.iter().map(|t| scan.text_of(t)).collect()
    }

    #[test]
    fn directives_and_text_are_split_by_lines() {
        let s = scan("#define A(x) x ## x\nfloat f = A(1.5e-3);\n  # if A\nx\n");
        assert_eq!(s.directives.len(), 2);
        let d0 = s.directive_toks(&s.directives[0]);
        assert_eq!(
            texts(&s, d0),
            ["define", "A", "(", "x", ")", "x", "##", "x"]
        );
        assert_eq!(d0[6].kind, Kind::Paste);
        assert_eq!(s.directives[1].line, 3);
        assert_eq!(
            texts(&s, &s.main),
            ["float", "f", "=", "A", "(", "1.5e-3", ")", ";", "x"]
        );
        assert_eq!(s.main.last().map(|t| t.line), Some(4));
    }

    #[test]
    fn joined_continuations_keep_the_line_count() {
        let source = "#define A(x) \\\n  (x + 1)\nfloat f = A(\\\r\n2.0);\nint g;\n";
        let joined = join_continued_lines(source);
        assert_eq!(
            joined,
            "#define A(x)   (x + 1)\n\nfloat f = A(2.0);\n\nint g;\n"
        );
        assert_eq!(
            join_continued_lines("no continuation\n"),
            "no continuation\n"
        );
        assert_eq!(join_continued_lines("end \\\n"), "end \n");
    }

    #[test]
    fn continuations_and_comments_extend_directives() {
        let s = scan("#define A a \\\n b\n#define B /* one\n two */ c\nd // e \\\nf\ng");
        assert_eq!(
            texts(&s, s.directive_toks(&s.directives[0])),
            ["define", "A", "a", "b"]
        );
        assert_eq!(
            texts(&s, s.directive_toks(&s.directives[1])),
            ["define", "B", "c"]
        );
        assert_eq!(texts(&s, &s.main), ["d", "g"]);
        // Line numbers count the removed continuations.
        assert_eq!(s.main[1].line, 7);
    }

    #[test]
    fn a_hash_inside_a_line_is_punctuation() {
        let s = scan("a # b\n/* x */ #define C\n");
        assert_eq!(texts(&s, &s.main), ["a", "#", "b"]);
        assert_eq!(s.directives.len(), 1);
        // An unterminated comment ends the scan without reading past the end.
        assert!(scan("/* open").main.is_empty());
    }
}
