//! The `#version` directive: found, read, and refused when it names no GLSL version or one the
//! GL context does not offer.
//!
//! Design decisions:
//! - The compile step refuses, before glslang, a number that is not a plain decimal (`-1`,
//!   `abc`, `0x6e`, `0110`, which glslang would read as octal), one that does not fit 32 bits,
//!   and one that is no GLSL version at all. These hold for every caller of the compiler.
//! - Which versions exist is glslang's business; which of them a context offers is the GL
//!   layer's: a desktop context offers up to the GLSL of the GL version it reports (its
//!   *ceiling*: 330 for GL 3.3, 400 for GL 4.0, …, `context::version`), never ES 3.00 (which
//!   glslang cannot target for Vulkan), while the compiler's own API keeps compiling every
//!   version (its tests use 4.x shaders). The GL layer's door into the compiler is
//!   `legacy::upgrade`, after [`mark_above`] for the context's ceiling; they mark such a
//!   directive with [`UNOFFERED`] (with the ceiling: `arena_ff_unoffered400`), an `arena_ff_`
//!   name no application may use, and the compile step refuses a marked directive with a log
//!   naming the versions the context supports. ES 1.00 is upgraded like GLSL 1.10, and ES
//!   3.10/3.20, which glslang compiles, stay accepted.
//! - A core-profile context offers no compatibility profile: there the GL layer also marks a
//!   directive naming `compatibility` ([`mark_compatibility_unoffered`], through
//!   `legacy::for_core_profile`), and the log says the profile, not the version, is the reason.
//! - Only what precedes the directive (whitespace and comments) and the directive's own line are
//!   read; comments on that line are spaces. Profiles and trailing tokens are left to glslang,
//!   whose messages for them are clear.
//! - An OpenGL ES context offers GLSL ES only: 1.00 (and no directive, which means 1.00 there),
//!   and 3.00 ES in an ES 3.0 context. `es::for_es` marks every other well-formed directive with
//!   [`UNOFFERED_ES`] and the context's major version, and the log names the versions that
//!   context supports (and, for 3.10/3.20 ES, what is missing for them).
//! - Errors are glslang's format with `'#version'` as the token, on the directive's line.

use super::{guard, CompileError, Stage};

/// The marker `legacy::upgrade` puts after `#version` when the GL context does not offer it.
pub(crate) const UNOFFERED: &str = "arena_ff_unoffered";

/// The marker `es::for_es` puts after `#version` in an OpenGL ES context, followed by the
/// context's major version (`arena_ff_unoffered_es3`).
pub(crate) const UNOFFERED_ES: &str = "arena_ff_unoffered_es";

/// The versions glslang knows (desktop and ES numbers together).
const KNOWN: [u32; 17] = [
    100, 110, 120, 130, 140, 150, 300, 310, 320, 330, 400, 410, 420, 430, 440, 450, 460,
];

/// The desktop versions a GL context may offer, oldest first (up to its ceiling).
const DESKTOP: [u32; 13] = [
    110, 120, 130, 140, 150, 330, 400, 410, 420, 430, 440, 450, 460,
];

/// The newest GLSL version glslang compiles.
pub(crate) const NEWEST: u32 = 460;

/// The ceiling a marker without one means (GL 3.3, which every desktop context offers).
const BASE_CEILING: u32 = 330;

/// What the context's log lists as supported under `ceiling` (see [`offered_by_gl`]).
fn supported(ceiling: u32) -> String {
    let desktop: Vec<String> = DESKTOP
        .iter()
        .filter(|&&v| v <= ceiling)
        .map(|v| format!("{}.{:02}", v / 100, v % 100))
        .collect();
    format!("{}, 1.00 ES, 3.10 ES, and 3.20 ES", desktop.join(", "))
}

/// Where a unit's `#version` directive is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Found {
    /// Offset of its `#`.
    pub start: usize,
    /// End of its line (before the newline).
    pub end: usize,
    /// Just after the word `version`.
    pub keyword_end: usize,
    /// Its line, from 1.
    pub line: usize,
}

/// The version number as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Number {
    Missing,
    /// Not a plain decimal (signed, hexadecimal, octal, or no number at all).
    NotDecimal(String),
    /// Decimal, but past `u32::MAX`.
    OutOfRange(String),
    Value(u32),
}

/// A read directive.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Directive {
    pub found: Found,
    pub number: Number,
    /// The word after the number (`core`, `compatibility`, `es`, or anything else).
    pub profile: Option<String>,
    /// Carries [`UNOFFERED`] or [`UNOFFERED_ES`].
    pub unoffered: bool,
    /// Carries [`UNOFFERED`] with a ceiling ([`mark_above`]): the newest version the context
    /// offers.
    pub ceiling: Option<u32>,
    /// Carries [`UNOFFERED_ES`]: the newest GLSL ES version (100, 300, 310, 320) of the ES
    /// context that refuses it.
    pub es_context: Option<u32>,
}

/// The unit's `#version` directive: the first thing in it other than whitespace and comments.
pub(crate) fn find(source: &str) -> Option<Found> {
    let b = source.as_bytes();
    let (mut i, mut line) = (0, 1);
    while i < b.len() {
        match b[i] {
            b'\n' => line += 1,
            c if c.is_ascii_whitespace() => {}
            b'/' if b.get(i + 1) == Some(&b'/') => {
                i = source[i..].find('\n').map_or(b.len(), |e| i + e);
                continue;
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                let end = source[i + 2..]
                    .find("*/")
                    .map_or(b.len(), |e| i + 2 + e + 2);
                line += source[i..end].matches('\n').count();
                i = end;
                continue;
            }
            b'#' => return directive_at(source, i, line),
            _ => return None,
        }
        i += 1;
    }
    None
}

/// The directive starting with the `#` at `start`, when it is `#version`.
fn directive_at(source: &str, start: usize, line: usize) -> Option<Found> {
    let after_hash = &source[start + 1..];
    let word = after_hash.trim_start_matches([' ', '\t']);
    let rest = word.strip_prefix("version")?;
    if rest
        .bytes()
        .next()
        .is_some_and(|c| c.is_ascii_alphanumeric() || c == b'_')
    {
        return None;
    }
    let keyword_end = source.len() - rest.len();
    let end = source[start..]
        .find('\n')
        .map_or(source.len(), |e| start + e);
    let end = if source[..end].ends_with('\r') {
        end - 1
    } else {
        end
    };
    Some(Found {
        start,
        end: end.max(keyword_end),
        keyword_end,
        line,
    })
}

/// Reads the unit's directive, if it has one.
pub(crate) fn read(source: &str) -> Option<Directive> {
    let found = find(source)?;
    let text = without_comments(source.get(found.keyword_end..found.end).unwrap_or(""));
    let mut words = text.split_ascii_whitespace().peekable();
    let es_context = words
        .peek()
        .and_then(|w| w.strip_prefix(UNOFFERED_ES))
        .and_then(|v| v.parse().ok());
    if es_context.is_some() {
        words.next();
    }
    let marker = words.next_if(|w| w.starts_with(UNOFFERED) && !w.starts_with(UNOFFERED_ES));
    let ceiling = marker.and_then(|w| w[UNOFFERED.len()..].parse().ok());
    let unoffered = es_context.is_some() || marker.is_some();
    let number = match words.next() {
        None => Number::Missing,
        Some(w) => number(w),
    };
    Some(Directive {
        found,
        number,
        profile: words.next().map(str::to_owned),
        unoffered,
        ceiling,
        es_context,
    })
}

/// The rest of a directive line with its comments replaced by spaces.
fn without_comments(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    loop {
        let line_comment = rest.find("//");
        let block = rest.find("/*");
        match (line_comment, block) {
            (Some(l), b) if b.is_none_or(|b| l < b) => {
                out.push_str(&rest[..l]);
                return out;
            }
            (_, Some(b)) => {
                out.push_str(&rest[..b]);
                out.push(' ');
                match rest[b + 2..].find("*/") {
                    Some(e) => rest = &rest[b + 2 + e + 2..],
                    None => return out,
                }
            }
            _ => {
                out.push_str(rest);
                return out;
            }
        }
    }
}

fn number(word: &str) -> Number {
    let decimal = !word.is_empty()
        && word.bytes().all(|c| c.is_ascii_digit())
        && !(word.len() > 1 && word.starts_with('0'));
    if !decimal {
        return Number::NotDecimal(word.to_owned());
    }
    match word.parse() {
        Ok(v) => Number::Value(v),
        Err(_) => Number::OutOfRange(word.to_owned()),
    }
}

/// Whether a desktop GL context offers GLSL `number` with `profile`, before its ceiling
/// ([`mark_above`]): anything the upgrader or glslang compiles but ES 3.00.
pub(crate) fn offered_by_gl(number: u32, profile: Option<&str>) -> bool {
    !matches!((number, profile), (300, Some("es")))
}

/// `source` with its directive marked [`UNOFFERED`] (with `ceiling`) when it names a desktop
/// version newer than `ceiling`, the newest a GL context offers; `None` for any other source.
pub(crate) fn mark_above(source: &str, ceiling: u32) -> Option<String> {
    let d = read(source)?;
    let Number::Value(number) = d.number else {
        return None;
    };
    if d.unoffered || !DESKTOP.contains(&number) || number <= ceiling {
        return None;
    }
    let at = d.found.keyword_end;
    Some(format!(
        "{} {UNOFFERED}{ceiling}{}",
        &source[..at],
        &source[at..]
    ))
}

/// `source` with its directive marked [`UNOFFERED`] when it is well formed but the GL context
/// does not offer it; `None` for any other source.
pub(crate) fn mark_unoffered(source: &str) -> Option<String> {
    let d = read(source)?;
    let Number::Value(number) = d.number else {
        return None;
    };
    if d.unoffered || !KNOWN.contains(&number) || offered_by_gl(number, d.profile.as_deref()) {
        return None;
    }
    let at = d.found.keyword_end;
    Some(format!("{} {UNOFFERED}{}", &source[..at], &source[at..]))
}

/// The GLSL ES versions, each with the OpenGL ES version that brings it.
const ES_VERSIONS: [(u32, &str); 4] = [(100, "2.0"), (300, "3.0"), (310, "3.1"), (320, "3.2")];

/// `source` with its directive marked [`UNOFFERED_ES`] when an OpenGL ES context whose newest
/// GLSL ES is `newest` (100, 300, 310 or 320) does not offer it: desktop GLSL and GLSL ES
/// versions above `newest`; `None` for any other source (no directive, one offered, or one the
/// compile step refuses anyway).
pub(crate) fn mark_es_unoffered(source: &str, newest: u32) -> Option<String> {
    let d = read(source)?;
    let Number::Value(number) = d.number else {
        return None;
    };
    let es = d.profile.as_deref() == Some("es");
    let offered = (number == 100 && d.profile.is_none()) || (es && number <= newest);
    if d.unoffered || !KNOWN.contains(&number) || offered {
        return None;
    }
    let at = d.found.keyword_end;
    Some(format!(
        "{} {UNOFFERED_ES}{newest}{}",
        &source[..at],
        &source[at..]
    ))
}

/// The log of a directive an OpenGL ES context whose newest GLSL ES is `newest` refuses (see
/// [`mark_es_unoffered`]).
fn es_refusal(number: u32, profile: Option<&str>, newest: u32) -> String {
    let api = |glsl: u32| {
        ES_VERSIONS
            .iter()
            .find(|(v, _)| *v == glsl)
            .map_or("2.0", |(_, api)| api)
    };
    let es = if profile == Some("es") { " ES" } else { "" };
    let why = if es.is_empty() {
        " (desktop GLSL)".to_owned()
    } else {
        format!(" (it needs an OpenGL ES {} context)", api(number))
    };
    let supported: Vec<String> = ES_VERSIONS
        .iter()
        .filter(|(v, _)| *v <= newest.max(100))
        .map(|(v, _)| format!("{}.{:02} ES", v / 100, v % 100))
        .collect();
    format!(
        "GLSL {}.{:02}{es} is not supported in an OpenGL ES {} context{why}. Supported versions \
         are: {}",
        number / 100,
        number % 100,
        api(newest),
        supported.join(", ")
    )
}

/// `source` with its directive marked [`UNOFFERED`] when it names the compatibility profile,
/// which a core-profile context does not offer; `None` for any other source (and for a
/// directive already marked or naming no GLSL version, which the compile step refuses anyway).
pub(crate) fn mark_compatibility_unoffered(source: &str) -> Option<String> {
    let d = read(source)?;
    let Number::Value(number) = d.number else {
        return None;
    };
    if d.unoffered || !KNOWN.contains(&number) || d.profile.as_deref() != Some("compatibility") {
        return None;
    }
    let at = d.found.keyword_end;
    Some(format!("{} {UNOFFERED}{}", &source[..at], &source[at..]))
}

/// Whether the upgrader must leave `source` as it is for the compile step to refuse: its
/// directive is malformed, names no GLSL version, or is marked.
pub(crate) fn refused(source: &str) -> bool {
    let Some(d) = read(source) else {
        return false;
    };
    match d.number {
        Number::Value(v) => d.unoffered || !KNOWN.contains(&v),
        _ => true,
    }
}

/// The compile step's check (see the module comment).
pub(super) fn check(stage: Stage, unit: usize, source: &str) -> Result<(), CompileError> {
    let Some(d) = read(source) else {
        return Ok(());
    };
    let message = match &d.number {
        Number::Missing => "must be followed by a version number".to_owned(),
        Number::NotDecimal(w) => format!("'{w}' is not a version number (a decimal such as 330)"),
        Number::OutOfRange(w) => format!("version number {w} is out of range"),
        Number::Value(v) if !KNOWN.contains(v) => format!("{v} is not a GLSL version"),
        Number::Value(v) if d.es_context.is_some() => {
            es_refusal(*v, d.profile.as_deref(), d.es_context.unwrap_or(100))
        }
        // A version the context offers, marked: the profile is what it lacks.
        Number::Value(v)
            if d.unoffered
                && d.ceiling.is_none()
                && d.profile.as_deref() == Some("compatibility")
                && offered_by_gl(*v, d.profile.as_deref()) =>
        {
            format!(
                "the compatibility profile is not supported in a core-profile context (use \
                 '#version {v} core', or a compatibility context)"
            )
        }
        Number::Value(v) if d.unoffered => {
            let es = if d.profile.as_deref() == Some("es") {
                " ES"
            } else {
                ""
            };
            format!(
                "GLSL {}.{:02}{es} is not supported. Supported versions are: {}",
                v / 100,
                v % 100,
                supported(d.ceiling.unwrap_or(BASE_CEILING))
            )
        }
        Number::Value(_) => return Ok(()),
    };
    Err(guard::token_error(
        stage,
        unit,
        d.found.line,
        "#version",
        &message,
    ))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn number_of(source: &str) -> Number {
        read(source).unwrap().number
    }

    #[test]
    fn the_directive_is_found_after_comments_only() {
        let src = "// a\n/* b\n c */\n  #  version 330 core // d\nvoid main() {}";
        let found = find(src).unwrap();
        assert_eq!(found.line, 4);
        assert_eq!(&src[found.start..found.end], "#  version 330 core // d");
        assert_eq!(read(src).unwrap().profile.as_deref(), Some("core"));
        assert_eq!(find("void main() {}\n#version 330\n"), None);
        assert_eq!(find("#define X\n#version 330\n"), None);
        assert_eq!(find("#versions 330\n"), None);
        assert_eq!(
            number_of("#version 330 /* x */ core\r\n"),
            Number::Value(330)
        );
        assert_eq!(number_of("#version/**/330"), Number::Value(330));
    }

    #[test]
    fn numbers_must_be_plain_decimals_within_32_bits() {
        assert_eq!(number_of("#version\n"), Number::Missing);
        assert_eq!(number_of("#version // 330\n"), Number::Missing);
        assert_eq!(number_of("#version -1\n"), Number::NotDecimal("-1".into()));
        assert_eq!(
            number_of("#version 0x6e\n"),
            Number::NotDecimal("0x6e".into())
        );
        assert_eq!(
            number_of("#version 0110\n"),
            Number::NotDecimal("0110".into())
        );
        assert_eq!(
            number_of("#version 4294967297\n"),
            Number::OutOfRange("4294967297".into())
        );
        assert_eq!(number_of("#version 4294967295\n"), Number::Value(u32::MAX));
    }

    #[test]
    fn bad_and_unoffered_directives_are_compile_errors_on_their_line() {
        for (src, expected) in [
            ("#version -1\n", "'-1' is not a version number"),
            ("\n#version 4294967297\n", "out of range"),
            ("#version 331\n", "331 is not a GLSL version"),
            ("#version\n", "must be followed by a version number"),
        ] {
            let log = check(Stage::Vertex, 0, src).unwrap_err().info_log();
            let line = src
                .find('#')
                .map_or(0, |at| src[..at].matches('\n').count() + 1);
            let head = format!("ERROR: 0:{line}: '#version' : ");
            assert!(log.starts_with(&head) && log.contains(expected), "{log}");
        }
        for ok in [
            "#version 330 core\n",
            "#version 460\n",
            "void main() {}",
            "#version 100\n",
        ] {
            assert!(check(Stage::Vertex, 0, ok).is_ok(), "{ok}");
        }
    }

    #[test]
    fn the_gl_context_refuses_what_it_does_not_offer() {
        let marked = mark_above("#version 460 core // x\nvoid main() {}", 400).unwrap();
        assert_eq!(
            marked,
            format!("#version {UNOFFERED}400 460 core // x\nvoid main() {{}}")
        );
        assert!(refused(&marked));
        assert_eq!(mark_above(&marked, 330), None);
        let log = check(Stage::Fragment, 1, &marked).unwrap_err().info_log();
        assert!(
            log.starts_with("ERROR: 0:1: '#version' : GLSL 4.60 is not supported."),
            "{log}"
        );
        assert!(log.contains("3.30, 4.00, 1.00 ES"), "{log}");
        // Up to the ceiling, every desktop version is offered.
        for offered in ["#version 400\n", "#version 460 core\n", "#version 330\n"] {
            assert_eq!(mark_above(offered, 460), None, "{offered}");
            assert_eq!(mark_unoffered(offered), None, "{offered}");
        }
        assert!(mark_above("#version 410\n", 400).is_some());
        assert_eq!(mark_above("#version 310 es\n", 330), None);
        let es = mark_unoffered("#version 300 es\n").unwrap();
        assert!(check(Stage::Vertex, 0, &es)
            .unwrap_err()
            .info_log()
            .contains("GLSL 3.00 ES"));
        for offered in [
            "#version 330 core\n",
            "#version 150 compatibility\n",
            "#version 120\n",
            "#version 100\n",
            "#version 310 es\n",
            "void main() {}",
            "#version -1\n",
        ] {
            assert_eq!(mark_unoffered(offered), None, "{offered}");
        }
        assert!(refused("#version 4294967297\n") && refused("#version 331\n"));
        assert!(!refused("#version 120\n") && !refused("void main() {}"));
    }

    #[test]
    fn a_core_context_refuses_the_compatibility_profile() {
        let marked =
            mark_compatibility_unoffered("\n#version 330 compatibility // x\nvoid main() {}")
                .unwrap();
        assert_eq!(
            marked,
            format!("\n#version {UNOFFERED} 330 compatibility // x\nvoid main() {{}}")
        );
        assert!(refused(&marked));
        let log = check(Stage::Vertex, 0, &marked).unwrap_err().info_log();
        assert!(
            log.starts_with("ERROR: 0:2: '#version' : the compatibility profile is not supported"),
            "{log}"
        );
        // A version the context lacks anyway is refused for the version.
        let newer = mark_above("#version 460 compatibility\n", 330).unwrap();
        assert_eq!(mark_compatibility_unoffered(&newer), None);
        assert!(check(Stage::Vertex, 0, &newer)
            .unwrap_err()
            .info_log()
            .contains("GLSL 4.60 is not supported"));
        for kept in [
            "#version 330 core\n",
            "#version 330\n",
            "#version 150 es\n",
            "#version 331 compatibility\n",
            "void main() {}",
            &mark_above("#version 460 compatibility\n", 330).unwrap(),
        ] {
            assert_eq!(mark_compatibility_unoffered(kept), None, "{kept}");
        }
    }
}
