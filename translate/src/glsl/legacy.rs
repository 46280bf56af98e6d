//! The legacy GLSL upgrader: GLSL 1.10/1.20/1.30 rewritten as GLSL 3.30 so that
//! glslang accepts it for Vulkan.
//!
//! Design decisions:
//! - A token-level rewrite, not a parser: identifiers outside comments are mapped one to one
//!   (`attribute` → `in`, `texture2D` → `texture`, `gl_Vertex` → `arena_ff_Vertex`, …), and a
//!   preamble declares what the mapped names refer to. The preamble is followed by a `#line`
//!   directive, so compile logs keep the application's line numbers.
//! - Built-in state becomes ordinary declarations with reserved `arena_ff_` names: vertex
//!   attributes (`gl_Vertex`, `gl_Color`, `gl_MultiTexCoordN`, …) are inputs the GL layer feeds
//!   from the fixed-function arrays or current values; varyings (`gl_FrontColor`/`gl_Color`,
//!   `gl_TexCoord[]`, …) are matching outputs/inputs; matrices (`gl_ModelViewProjectionMatrix`,
//!   …) are loose uniforms the GL layer fills from its matrix stacks at draw time;
//!   `gl_FragColor`/`gl_FragData[]` are fragment outputs, or, in a program whose fragment units
//!   are all legacy, private globals that the fragment epilogue (`frag_epilogue`) writes out
//!   after the renamed `main`. Only what a unit uses is declared.
//! - Identifiers that were free in old GLSL but are keywords or built-in functions in 3.30
//!   (`texture`, `flat`, `round`, …) are renamed with the [`USER_PREFIX`]; reflection strips it so
//!   the application's names are what `glGetUniformLocation` and friends see. A unit that enables
//!   GL_ARB_shader_bit_encoding keeps `floatBitsToInt` and its siblings as the built-ins.
//! - A fragment unit's reads decide which varyings the vertex unit must declare
//!   ([`Varyings`]): an output the vertex shader never writes is undefined in GL, and declaring it
//!   keeps the stages' interfaces matched for Vulkan.
//! - Being the GL layer's door into the compiler, the upgrader also applies the context's
//!   `#version` rules (`version`): a unit whose directive is malformed or names no GLSL version
//!   is passed on untouched (never upgraded as if it said 1.10), and one naming a version the
//!   context does not offer is passed on marked; the compile step refuses both. A core-profile
//!   context first passes its units through [`for_core_profile`], which marks a directive
//!   naming the compatibility profile the same way.

use super::{gpu_shader4, version, Stage};

/// Prefix of every name the upgrader introduces.
pub const FF_PREFIX: &str = "arena_ff_";
/// Prefix given to application identifiers that collide with GLSL 3.30 names.
pub const USER_PREFIX: &str = "arena_u_";
/// Texture coordinate sets (`gl_TexCoord[]`, `gl_MaxTextureCoords`).
pub const MAX_TEXTURE_COORDS: u32 = 8;

/// The version a unit declares (`#version N`, 110 when absent, as the GL spec says).
pub fn source_version(source: &str) -> u32 {
    version_directive(source).map_or(110, |(_, _, v)| v)
}

/// Whether `source` is GLSL older than 1.40 and must be upgraded (a unit whose `#version` the
/// compile step refuses is not).
pub fn needs_upgrade(source: &str) -> bool {
    source_version(source) < 140 && refused_version(source).is_none()
}

/// `source` as a core-profile context hands it to [`upgrade`]: a `#version N compatibility`
/// directive, naming a profile that context does not offer, is marked for the compile step to
/// refuse (and [`upgrade`] passes a marked unit on untouched); any other source is unchanged.
pub fn for_core_profile(source: &str) -> std::borrow::Cow<'_, str> {
    match version::mark_compatibility_unoffered(source) {
        Some(marked) => std::borrow::Cow::Owned(marked),
        None => std::borrow::Cow::Borrowed(source),
    }
}

/// A unit whose `#version` the compile step must refuse, as the compiler must see it.
fn refused_version(source: &str) -> Option<String> {
    if version::refused(source) {
        return Some(source.to_owned());
    }
    version::mark_unoffered(source)
}

/// Legacy varyings, as a bit set: what a fragment unit reads or a vertex unit writes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Varyings(u8);

impl Varyings {
    pub const FRONT_COLOR: Self = Self(1);
    pub const FRONT_SECONDARY: Self = Self(2);
    pub const TEX_COORD: Self = Self(4);
    pub const FOG_FRAG_COORD: Self = Self(8);

    /// Whether every bit of `other` is set.
    pub fn contains(self, other: Self) -> bool {
        self.0 & other.0 == other.0
    }

    fn insert(&mut self, other: Self) {
        self.0 |= other.0;
    }

    /// Both sets.
    pub fn union(self, other: Self) -> Self {
        Self(self.0 | other.0)
    }
}

/// A unit after upgrading.
#[derive(Clone, Debug)]
pub struct Upgraded {
    /// GLSL 3.30 source.
    pub source: String,
    /// The legacy varyings this unit reads (fragment) or writes (vertex).
    pub varyings: Varyings,
    /// Whether a fragment unit writes `gl_FragColor` (broadcast to every draw buffer in GL).
    pub writes_frag_color: bool,
    /// Whether a fragment unit writes `gl_FragData[]`.
    pub writes_frag_data: bool,
}

/// Upgrades one legacy unit of `stage`. `vertex_outputs` adds varyings a vertex unit must declare
/// (what the program's fragment unit reads). Sources already at 1.40 or later are returned as is.
pub fn upgrade(stage: Stage, source: &str, vertex_outputs: Varyings) -> Upgraded {
    upgrade_unit(stage, source, vertex_outputs, false)
}

/// Upgrades one legacy fragment unit of a program whose fragment stage ends in the epilogue
/// (`frag_epilogue`): `main` becomes [`USER_MAIN`], and `gl_FragColor` / `gl_FragData[]` are
/// private globals the epilogue copies to the outputs. Sources at 1.40 or later are returned as
/// [`upgrade`] returns them.
pub fn upgrade_for_epilogue(source: &str) -> Upgraded {
    upgrade_unit(Stage::Fragment, source, Varyings::default(), true)
}

/// The name an epilogue-wrapped fragment unit's `main` is given.
pub const USER_MAIN: &str = "arena_ff_main";

fn upgrade_unit(stage: Stage, source: &str, vertex_outputs: Varyings, epilogue: bool) -> Upgraded {
    if let Some(source) = refused_version(source) {
        return Upgraded {
            source,
            varyings: Varyings::default(),
            writes_frag_color: false,
            writes_frag_data: false,
        };
    }
    if !needs_upgrade(source) {
        return Upgraded {
            source: rect_functions(stage, source),
            varyings: Varyings::default(),
            writes_frag_color: false,
            writes_frag_data: false,
        };
    }
    let version = source_version(source);
    // GL_ARB_shader_bit_encoding (and GL_ARB_gpu_shader5, which includes it) give GLSL below
    // 3.30 the bit-casting built-ins: they keep their names.
    let bit_encoding = enables(
        source,
        &["GL_ARB_shader_bit_encoding", "GL_ARB_gpu_shader5"],
    );
    // GL_ARB_texture_cube_map_array gives any GLSL the lookups of its sampler types.
    let cube_array = enables(source, &["GL_ARB_texture_cube_map_array"]);
    // GL_EXT_gpu_shader4 gives GLSL 1.10/1.20 much of 1.30 under its own names (`gpu_shader4`).
    let gpu_shader4 = enables(source, &[gpu_shader4::NAME]);
    let mut gpu4 = gpu_shader4::Gpu4::default();
    let mut used: Vec<&'static Builtin> = Vec::new();
    let mut helpers: Vec<&'static str> = Vec::new();
    let mut body = String::with_capacity(source.len() + 64);
    // The `#version` line is dropped (replaced by ours); its line is kept blank.
    let mut rest = source;
    let mut skipped_prefix = String::new();
    if let Some((start, end, _)) = version_directive(source) {
        skipped_prefix.push_str(&source[..start]);
        rest = &source[end..];
    }
    body.push_str(&skipped_prefix);
    let mut shadow_calls = ShadowCalls::default();
    let rewritten = rewrite_identifiers(rest, |ident, out| {
        shadow_calls.before(ident, out);
        if gpu_shader4 {
            match gpu4.map(stage, ident, function(stage, ident).is_some(), out) {
                gpu_shader4::Mapped::No => {}
                gpu_shader4::Mapped::Done => return,
                gpu_shader4::Mapped::Shadow => {
                    if !helpers.contains(&DEPTH_MODE) {
                        helpers.push(DEPTH_MODE);
                    }
                    return shadow_calls.after_function("arena_ff_shadow");
                }
                gpu_shader4::Mapped::Function(to) => return out.push_str(to),
            }
        }
        if let Some(b) = builtin(stage, ident) {
            if !used.iter().any(|u| std::ptr::eq(*u, b)) {
                used.push(b);
            }
            out.push_str(b.replacement);
            return;
        }
        if let Some((to, needed)) = function(stage, ident) {
            for h in needed {
                if !helpers.contains(h) {
                    helpers.push(h);
                }
            }
            out.push_str(to);
            shadow_calls.after_function(to);
            return;
        }
        match (ident, stage) {
            ("attribute", Stage::Vertex) => out.push_str("in"),
            ("varying", Stage::Vertex) => out.push_str("out"),
            ("varying", Stage::Fragment) => out.push_str("in"),
            ("gl_InstanceIDARB", _) => out.push_str("gl_InstanceID"),
            ("main", Stage::Fragment) if epilogue => out.push_str(USER_MAIN),
            _ if COLLIDING
                .iter()
                .any(|&(name, since)| name == ident && version < since)
                && !(bit_encoding && BIT_ENCODING.contains(&ident))
                && !(cube_array && CUBE_ARRAY_LOOKUPS.contains(&ident))
                && !(gpu_shader4 && gpu_shader4::BUILT_INS.contains(&ident)) =>
            {
                out.push_str(USER_PREFIX);
                out.push_str(ident);
            }
            _ => out.push_str(ident),
        }
    });
    if gpu_shader4 {
        body.push_str(&gpu_shader4::finish(&rewritten));
    } else {
        body.push_str(&rewritten);
    }

    let mut varyings = Varyings::default();
    for b in &used {
        if let Some(v) = b.varying {
            varyings.insert(v);
        }
    }
    // `ftransform()` reads the vertex and the combined matrix.
    if helpers.contains(&FTRANSFORM) {
        for name in ["gl_Vertex", "gl_ModelViewProjectionMatrix"] {
            if let Some(b) = builtin(stage, name) {
                if !used.iter().any(|u| std::ptr::eq(*u, b)) {
                    used.push(b);
                }
            }
        }
    }
    if stage == Stage::Vertex {
        for (bit, name) in [
            (Varyings::FRONT_COLOR, "gl_FrontColor"),
            (Varyings::FRONT_SECONDARY, "gl_FrontSecondaryColor"),
            (Varyings::TEX_COORD, "gl_TexCoord"),
            (Varyings::FOG_FRAG_COORD, "gl_FogFragCoord"),
        ] {
            if vertex_outputs.contains(bit) {
                if let Some(b) = builtin(stage, name) {
                    if !used.iter().any(|u| std::ptr::eq(*u, b)) {
                        used.push(b);
                    }
                }
            }
        }
    }
    let writes_frag_color = used.iter().any(|b| b.replacement == "arena_ff_FragColor");
    let writes_frag_data = used.iter().any(|b| b.replacement == "arena_ff_FragData");

    let mut out = String::with_capacity(body.len() + 512);
    out.push_str("#version 330\n");
    // Keep the application's `#extension` lines in front of any declaration.
    let mut preamble = String::new();
    for b in &used {
        // Under the epilogue the colour outputs are private globals the epilogue reads.
        let declaration = match b.declaration.strip_prefix(OUTPUT_AT_0) {
            Some(private) if epilogue => private,
            _ => b.declaration,
        };
        preamble.push_str(declaration);
        preamble.push('\n');
    }
    preamble.push_str(&shadow_calls.declarations());
    for h in &helpers {
        preamble.push_str(h);
        preamble.push('\n');
    }
    let (head, tail) = split_leading_directives(&body);
    out.push_str(head);
    if !head.is_empty() && !head.ends_with('\n') {
        out.push('\n');
    }
    out.push_str(&preamble);
    // The rewrite keeps every line where it was (the `#version` line stays, blank), so the tail
    // starts at the application's line `head lines + 1`; `#line N` names the next line.
    let line = 1 + head.matches('\n').count();
    out.push_str(&format!("#line {line}\n"));
    out.push_str(tail);
    Upgraded {
        source: out,
        varyings,
        writes_frag_color,
        writes_frag_data,
    }
}

/// How `gl_FragColor` and `gl_FragData` are declared when they are outputs.
const OUTPUT_AT_0: &str = "layout(location = 0) out ";

/// GL_ARB_texture_rectangle's functions (`texture2DRect`, `shadow2DRect` and their projective
/// forms) stay available in GLSL 1.40 and later on desktop GLs (Mesa accepts them there; glslang
/// does not): in a source that is otherwise not upgraded they are renamed as an upgrade would,
/// with the helpers they need after the leading directives and a `#line` to keep line numbers.
fn rect_functions(stage: Stage, source: &str) -> String {
    const NAMES: [&str; 4] = [
        "texture2DRect",
        "texture2DRectProj",
        "shadow2DRect",
        "shadow2DRectProj",
    ];
    if !source.contains("2DRect") {
        return source.to_owned();
    }
    let mut helpers: Vec<&'static str> = Vec::new();
    let mut renamed = false;
    let mut shadow_calls = ShadowCalls::default();
    let rewritten = rewrite_identifiers(source, |ident, out| {
        shadow_calls.before(ident, out);
        if let Some((to, needed)) = NAMES
            .contains(&ident)
            .then(|| function(stage, ident))
            .flatten()
        {
            for h in needed {
                if !helpers.contains(h) {
                    helpers.push(h);
                }
            }
            renamed = true;
            out.push_str(to);
            shadow_calls.after_function(to);
            return;
        }
        out.push_str(ident);
    });
    if !renamed {
        return source.to_owned();
    }
    let version_end = version_directive(&rewritten).map_or(0, |(_, end, _)| end);
    let (version, body) = rewritten.split_at(version_end);
    let (head, tail) = split_leading_directives(body);
    let mut out = String::with_capacity(rewritten.len() + 512);
    out.push_str(version);
    if !version.is_empty() && !version.ends_with('\n') {
        out.push('\n');
    }
    out.push_str(head);
    if !head.is_empty() && !head.ends_with('\n') {
        out.push('\n');
    }
    out.push_str(&shadow_calls.declarations());
    for h in &helpers {
        out.push_str(h);
        out.push('\n');
    }
    let line = 1 + version.matches('\n').count() + head.matches('\n').count();
    out.push_str(&format!("#line {line}\n"));
    out.push_str(tail);
    out
}

/// The `#version` directive: (start, end) of its text and the number (110 when unreadable).
fn version_directive(source: &str) -> Option<(usize, usize, u32)> {
    let d = version::read(source)?;
    let number = match d.number {
        version::Number::Value(v) => v,
        _ => 110,
    };
    Some((d.found.start, d.found.end, number))
}

/// Splits `body` after its leading blank, comment and preprocessor lines (where `#extension`
/// must stay in front of declarations).
fn split_leading_directives(body: &str) -> (&str, &str) {
    let mut at = 0;
    let mut in_block_comment = false;
    for line in body.split_inclusive('\n') {
        let t = line.trim();
        if in_block_comment {
            if t.contains("*/") {
                in_block_comment = false;
            }
        } else if t.is_empty() || t.starts_with("//") {
        } else if t.starts_with("/*") {
            in_block_comment = !t.contains("*/");
        } else if t.starts_with("#extension") || t.starts_with("#pragma") {
        } else {
            break;
        }
        at += line.len();
    }
    body.split_at(at)
}

/// Calls `map` for every identifier outside comments; everything else is copied.
pub(crate) fn rewrite_identifiers(source: &str, mut map: impl FnMut(&str, &mut String)) -> String {
    let bytes = source.as_bytes();
    let mut out = String::with_capacity(source.len());
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c == b'/' && bytes.get(i + 1) == Some(&b'/') {
            let end = source[i..].find('\n').map_or(bytes.len(), |e| i + e);
            out.push_str(&source[i..end]);
            i = end;
        } else if c == b'/' && bytes.get(i + 1) == Some(&b'*') {
            let end = source[i + 2..]
                .find("*/")
                .map_or(bytes.len(), |e| i + 2 + e + 2);
            out.push_str(&source[i..end]);
            i = end;
        } else if c.is_ascii_alphabetic() || c == b'_' {
            let start = i;
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            map(&source[start..i], &mut out);
        } else if c.is_ascii_digit() {
            // Numbers (incl. suffixes like `1.0f`, `0x1Fu`) are not identifiers.
            let start = i;
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'.') {
                i += 1;
            }
            out.push_str(&source[start..i]);
        } else {
            let ch = source[i..].chars().next().unwrap_or('\0');
            out.push(ch);
            i += ch.len_utf8().max(1);
        }
    }
    out
}

/// A built-in variable and what replaces it.
struct Builtin {
    name: &'static str,
    replacement: &'static str,
    declaration: &'static str,
    varying: Option<Varyings>,
}

macro_rules! b {
    ($name:literal, $repl:literal, $decl:literal) => {
        Builtin {
            name: $name,
            replacement: $repl,
            declaration: $decl,
            varying: None,
        }
    };
    ($name:literal, $repl:literal, $decl:literal, $v:expr) => {
        Builtin {
            name: $name,
            replacement: $repl,
            declaration: $decl,
            varying: Some($v),
        }
    };
}

/// Built-in uniforms, the same in every stage.
static UNIFORMS: &[Builtin] = &[
    b!(
        "gl_ModelViewMatrix",
        "arena_ff_ModelViewMatrix",
        "uniform mat4 arena_ff_ModelViewMatrix;"
    ),
    b!(
        "gl_ProjectionMatrix",
        "arena_ff_ProjectionMatrix",
        "uniform mat4 arena_ff_ProjectionMatrix;"
    ),
    b!(
        "gl_ModelViewProjectionMatrix",
        "arena_ff_ModelViewProjectionMatrix",
        "uniform mat4 arena_ff_ModelViewProjectionMatrix;"
    ),
    b!(
        "gl_TextureMatrix",
        "arena_ff_TextureMatrix",
        "uniform mat4 arena_ff_TextureMatrix[8];"
    ),
    b!(
        "gl_NormalMatrix",
        "arena_ff_NormalMatrix",
        "uniform mat3 arena_ff_NormalMatrix;"
    ),
    b!(
        "gl_ModelViewMatrixInverse",
        "arena_ff_ModelViewMatrixInverse",
        "uniform mat4 arena_ff_ModelViewMatrixInverse;"
    ),
    b!(
        "gl_ProjectionMatrixInverse",
        "arena_ff_ProjectionMatrixInverse",
        "uniform mat4 arena_ff_ProjectionMatrixInverse;"
    ),
    b!(
        "gl_ModelViewProjectionMatrixInverse",
        "arena_ff_ModelViewProjectionMatrixInverse",
        "uniform mat4 arena_ff_ModelViewProjectionMatrixInverse;"
    ),
    b!(
        "gl_ModelViewMatrixTranspose",
        "arena_ff_ModelViewMatrixTranspose",
        "uniform mat4 arena_ff_ModelViewMatrixTranspose;"
    ),
    b!(
        "gl_ProjectionMatrixTranspose",
        "arena_ff_ProjectionMatrixTranspose",
        "uniform mat4 arena_ff_ProjectionMatrixTranspose;"
    ),
    b!(
        "gl_ModelViewProjectionMatrixTranspose",
        "arena_ff_ModelViewProjectionMatrixTranspose",
        "uniform mat4 arena_ff_ModelViewProjectionMatrixTranspose;"
    ),
    b!(
        "gl_ModelViewMatrixInverseTranspose",
        "arena_ff_ModelViewMatrixInverseTranspose",
        "uniform mat4 arena_ff_ModelViewMatrixInverseTranspose;"
    ),
    b!(
        "gl_ProjectionMatrixInverseTranspose",
        "arena_ff_ProjectionMatrixInverseTranspose",
        "uniform mat4 arena_ff_ProjectionMatrixInverseTranspose;"
    ),
    b!(
        "gl_ModelViewProjectionMatrixInverseTranspose",
        "arena_ff_ModelViewProjectionMatrixInverseTranspose",
        "uniform mat4 arena_ff_ModelViewProjectionMatrixInverseTranspose;"
    ),
    b!(
        "gl_MaxTextureCoords",
        "arena_ff_MaxTextureCoords",
        "const int arena_ff_MaxTextureCoords = 8;"
    ),
    b!(
        "gl_MaxTextureUnits",
        "arena_ff_MaxTextureUnits",
        "const int arena_ff_MaxTextureUnits = 8;"
    ),
];

static VERTEX: &[Builtin] = &[
    b!("gl_Vertex", "arena_ff_Vertex", "in vec4 arena_ff_Vertex;"),
    b!("gl_Normal", "arena_ff_Normal", "in vec3 arena_ff_Normal;"),
    b!("gl_Color", "arena_ff_Color", "in vec4 arena_ff_Color;"),
    b!(
        "gl_SecondaryColor",
        "arena_ff_SecondaryColor",
        "in vec4 arena_ff_SecondaryColor;"
    ),
    b!(
        "gl_FogCoord",
        "arena_ff_FogCoord",
        "in float arena_ff_FogCoord;"
    ),
    b!(
        "gl_MultiTexCoord0",
        "arena_ff_MultiTexCoord0",
        "in vec4 arena_ff_MultiTexCoord0;"
    ),
    b!(
        "gl_MultiTexCoord1",
        "arena_ff_MultiTexCoord1",
        "in vec4 arena_ff_MultiTexCoord1;"
    ),
    b!(
        "gl_MultiTexCoord2",
        "arena_ff_MultiTexCoord2",
        "in vec4 arena_ff_MultiTexCoord2;"
    ),
    b!(
        "gl_MultiTexCoord3",
        "arena_ff_MultiTexCoord3",
        "in vec4 arena_ff_MultiTexCoord3;"
    ),
    b!(
        "gl_MultiTexCoord4",
        "arena_ff_MultiTexCoord4",
        "in vec4 arena_ff_MultiTexCoord4;"
    ),
    b!(
        "gl_MultiTexCoord5",
        "arena_ff_MultiTexCoord5",
        "in vec4 arena_ff_MultiTexCoord5;"
    ),
    b!(
        "gl_MultiTexCoord6",
        "arena_ff_MultiTexCoord6",
        "in vec4 arena_ff_MultiTexCoord6;"
    ),
    b!(
        "gl_MultiTexCoord7",
        "arena_ff_MultiTexCoord7",
        "in vec4 arena_ff_MultiTexCoord7;"
    ),
    b!(
        "gl_FrontColor",
        "arena_ff_FrontColor",
        "out vec4 arena_ff_FrontColor;",
        Varyings::FRONT_COLOR
    ),
    b!(
        "gl_FrontSecondaryColor",
        "arena_ff_FrontSecondaryColor",
        "out vec4 arena_ff_FrontSecondaryColor;",
        Varyings::FRONT_SECONDARY
    ),
    b!(
        "gl_TexCoord",
        "arena_ff_TexCoord",
        "out vec4 arena_ff_TexCoord[8];",
        Varyings::TEX_COORD
    ),
    b!(
        "gl_FogFragCoord",
        "arena_ff_FogFragCoord",
        "out float arena_ff_FogFragCoord;",
        Varyings::FOG_FRAG_COORD
    ),
    // Written but never read by a later stage in this GL (no two-sided colour, no user clipping
    // through gl_ClipVertex): plain globals.
    b!(
        "gl_BackColor",
        "arena_ff_BackColor",
        "vec4 arena_ff_BackColor;"
    ),
    b!(
        "gl_BackSecondaryColor",
        "arena_ff_BackSecondaryColor",
        "vec4 arena_ff_BackSecondaryColor;"
    ),
    b!(
        "gl_ClipVertex",
        "arena_ff_ClipVertex",
        "vec4 arena_ff_ClipVertex;"
    ),
];

static FRAGMENT: &[Builtin] = &[
    b!(
        "gl_Color",
        "arena_ff_FrontColor",
        "in vec4 arena_ff_FrontColor;",
        Varyings::FRONT_COLOR
    ),
    b!(
        "gl_SecondaryColor",
        "arena_ff_FrontSecondaryColor",
        "in vec4 arena_ff_FrontSecondaryColor;",
        Varyings::FRONT_SECONDARY
    ),
    b!(
        "gl_TexCoord",
        "arena_ff_TexCoord",
        "in vec4 arena_ff_TexCoord[8];",
        Varyings::TEX_COORD
    ),
    b!(
        "gl_FogFragCoord",
        "arena_ff_FogFragCoord",
        "in float arena_ff_FogFragCoord;",
        Varyings::FOG_FRAG_COORD
    ),
    b!(
        "gl_FragColor",
        "arena_ff_FragColor",
        "layout(location = 0) out vec4 arena_ff_FragColor;"
    ),
    b!(
        "gl_FragData",
        "arena_ff_FragData",
        "layout(location = 0) out vec4 arena_ff_FragData[8];"
    ),
];

fn builtin(stage: Stage, name: &str) -> Option<&'static Builtin> {
    if !name.starts_with("gl_") {
        return None;
    }
    let stage_table: &[Builtin] = match stage {
        Stage::Vertex => VERTEX,
        Stage::Fragment => FRAGMENT,
        _ => &[],
    };
    stage_table
        .iter()
        .chain(UNIFORMS.iter())
        .find(|b| b.name == name)
}

const FTRANSFORM: &str =
    "vec4 arena_ff_ftransform() { return arena_ff_ModelViewProjectionMatrix * arena_ff_Vertex; }";
/// GL 2.1's shadow lookups return the comparison as RGBA by the texture's
/// `GL_DEPTH_TEXTURE_MODE`, which every call passes first (`m`, [`DEPTH_MODE_PREFIX`]):
/// 0 luminance (r, r, r, 1, the default), 1 intensity (r, r, r, r), 2 alpha (0, 0, 0, r),
/// 3 red (r, 0, 0, 1).
const DEPTH_MODE: &str = "vec4 arena_ff_depth_mode(float r, int m) { return m == 1 ? vec4(r) : m == 2 ? vec4(vec3(0.0), r) : m == 3 ? vec4(r, 0.0, 0.0, 1.0) : vec4(vec3(r), 1.0); }";
const SHADOW: &str =
    "vec4 arena_ff_shadow(int m, sampler1DShadow s, vec3 c) { return arena_ff_depth_mode(texture(s, c), m); }
vec4 arena_ff_shadow(int m, sampler2DShadow s, vec3 c) { return arena_ff_depth_mode(texture(s, c), m); }
vec4 arena_ff_shadow(int m, sampler2DRectShadow s, vec3 c) { return arena_ff_depth_mode(texture(s, c), m); }";
const SHADOW_BIAS: &str =
    "vec4 arena_ff_shadow(int m, sampler1DShadow s, vec3 c, float b) { return arena_ff_depth_mode(texture(s, c, b), m); }
vec4 arena_ff_shadow(int m, sampler2DShadow s, vec3 c, float b) { return arena_ff_depth_mode(texture(s, c, b), m); }";
const SHADOW_PROJ: &str =
    "vec4 arena_ff_shadowProj(int m, sampler1DShadow s, vec4 c) { return arena_ff_depth_mode(textureProj(s, c), m); }
vec4 arena_ff_shadowProj(int m, sampler2DShadow s, vec4 c) { return arena_ff_depth_mode(textureProj(s, c), m); }
vec4 arena_ff_shadowProj(int m, sampler2DRectShadow s, vec4 c) { return arena_ff_depth_mode(textureProj(s, c), m); }";
const SHADOW_PROJ_BIAS: &str = "vec4 arena_ff_shadowProj(int m, sampler1DShadow s, vec4 c, float b) { return arena_ff_depth_mode(textureProj(s, c, b), m); }
vec4 arena_ff_shadowProj(int m, sampler2DShadow s, vec4 c, float b) { return arena_ff_depth_mode(textureProj(s, c, b), m); }";
const SHADOW_LOD: &str = "vec4 arena_ff_shadowLod(int m, sampler1DShadow s, vec3 c, float l) { return arena_ff_depth_mode(textureLod(s, c, l), m); }
vec4 arena_ff_shadowLod(int m, sampler2DShadow s, vec3 c, float l) { return arena_ff_depth_mode(textureLod(s, c, l), m); }";
const SHADOW_PROJ_LOD: &str = "vec4 arena_ff_shadowProjLod(int m, sampler1DShadow s, vec4 c, float l) { return arena_ff_depth_mode(textureProjLod(s, c, l), m); }
vec4 arena_ff_shadowProjLod(int m, sampler2DShadow s, vec4 c, float l) { return arena_ff_depth_mode(textureProjLod(s, c, l), m); }";

/// Prefix of the per-sampler `uniform int` a shadow lookup passes as its depth mode: the
/// upgrader inserts `arena_ff_DepthMode_<first identifier of the call>, ` after the call's
/// parenthesis (the sampler's name; for `s[i]` the array's, for anything else a name no
/// sampler has, which reads as luminance) and declares the uniform; the GL layer fills it
/// from the texture bound to that sampler's unit at each draw.
pub const DEPTH_MODE_PREFIX: &str = "DepthMode_";

/// Call sites of the shadow lookups, for their depth-mode argument.
#[derive(Default)]
struct ShadowCalls {
    /// A shadow function name was just written: the next identifier is its first argument.
    pending: bool,
    /// The first-argument names seen, each declared once.
    samplers: Vec<String>,
}

impl ShadowCalls {
    /// Called for every identifier before it is written: inserts the mode argument in front
    /// of a shadow lookup's first argument.
    fn before(&mut self, ident: &str, out: &mut String) {
        if std::mem::take(&mut self.pending) {
            out.push_str(FF_PREFIX);
            out.push_str(DEPTH_MODE_PREFIX);
            out.push_str(ident);
            out.push_str(", ");
            if !self.samplers.iter().any(|s| s == ident) {
                self.samplers.push(ident.to_owned());
            }
        }
    }

    /// Called after a function name was mapped to `to`.
    fn after_function(&mut self, to: &str) {
        self.pending = to.starts_with("arena_ff_shadow");
    }

    /// The uniforms the calls read.
    fn declarations(&self) -> String {
        self.samplers
            .iter()
            .map(|s| format!("uniform int {FF_PREFIX}{DEPTH_MODE_PREFIX}{s};\n"))
            .collect()
    }
}

/// Legacy texture and transform functions: the 3.30 name and the helpers the preamble must hold
/// (bias overloads exist only in fragment shaders).
fn function(stage: Stage, name: &str) -> Option<(&'static str, &'static [&'static str])> {
    let fragment = stage == Stage::Fragment;
    Some(match name {
        "texture1D" | "texture2D" | "texture3D" | "textureCube" | "texture2DRect"
        | "texture1DArray" | "texture2DArray" => ("texture", &[]),
        "texture1DProj" | "texture2DProj" | "texture3DProj" | "texture2DRectProj" => {
            ("textureProj", &[])
        }
        "texture1DLod" | "texture2DLod" | "texture3DLod" | "textureCubeLod"
        | "texture1DArrayLod" | "texture2DArrayLod" => ("textureLod", &[]),
        "texture1DProjLod" | "texture2DProjLod" | "texture3DProjLod" => ("textureProjLod", &[]),
        "shadow1D" | "shadow2D" | "shadow2DRect" if fragment => {
            ("arena_ff_shadow", &[DEPTH_MODE, SHADOW, SHADOW_BIAS])
        }
        "shadow1D" | "shadow2D" | "shadow2DRect" => ("arena_ff_shadow", &[DEPTH_MODE, SHADOW]),
        "shadow1DProj" | "shadow2DProj" | "shadow2DRectProj" if fragment => (
            "arena_ff_shadowProj",
            &[DEPTH_MODE, SHADOW_PROJ, SHADOW_PROJ_BIAS],
        ),
        "shadow1DProj" | "shadow2DProj" | "shadow2DRectProj" => {
            ("arena_ff_shadowProj", &[DEPTH_MODE, SHADOW_PROJ])
        }
        "shadow1DLod" | "shadow2DLod" => ("arena_ff_shadowLod", &[DEPTH_MODE, SHADOW_LOD]),
        "shadow1DProjLod" | "shadow2DProjLod" => {
            ("arena_ff_shadowProjLod", &[DEPTH_MODE, SHADOW_PROJ_LOD])
        }
        "ftransform" if stage == Stage::Vertex => ("arena_ff_ftransform", &[FTRANSFORM]),
        _ => return None,
    })
}

/// Identifiers that were free in old GLSL but are keywords or built-in functions in GLSL 3.30,
/// with the version that took them: a unit below that version has its uses renamed.
static COLLIDING: &[(&str, u32)] = &[
    // Built-in functions (an application function or variable of the name would hide them or
    // clash with their overloads). Keywords and types are left alone: extensions such as
    // GL_EXT_gpu_shader4 give old GLSL `uint`, `flat`, `sampler2DArray` with their new meaning.
    ("texture", 130),
    ("textureProj", 130),
    ("textureLod", 130),
    ("textureSize", 130),
    ("texelFetch", 130),
    ("textureOffset", 130),
    ("textureGrad", 130),
    ("round", 130),
    ("roundEven", 130),
    ("trunc", 130),
    ("sinh", 130),
    ("cosh", 130),
    ("tanh", 130),
    ("asinh", 130),
    ("acosh", 130),
    ("atanh", 130),
    ("modf", 130),
    ("isnan", 130),
    ("isinf", 130),
    ("inverse", 140),
    ("sampler", 140),
    ("determinant", 150),
    ("floatBitsToInt", 330),
    ("floatBitsToUint", 330),
    ("intBitsToFloat", 330),
    ("uintBitsToFloat", 330),
];

/// Whether an `#extension` line of `source` names one of `extensions`.
fn enables(source: &str, extensions: &[&str]) -> bool {
    source.lines().any(|l| {
        let l = l.trim_start();
        l.starts_with('#') && l.contains("extension") && extensions.iter().any(|e| l.contains(e))
    })
}

/// The lookups GL_ARB_texture_cube_map_array overloads for its sampler types.
const CUBE_ARRAY_LOOKUPS: [&str; 4] = ["texture", "textureLod", "textureSize", "textureGrad"];

/// The built-ins GL_ARB_shader_bit_encoding adds.
const BIT_ENCODING: [&str; 4] = [
    "floatBitsToInt",
    "floatBitsToUint",
    "intBitsToFloat",
    "uintBitsToFloat",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shader_bit_encoding_keeps_its_built_ins() {
        let with = up(
            Stage::Fragment,
            "#version 130\n#extension GL_ARB_shader_bit_encoding : enable\nvoid main() { int i = floatBitsToInt(1.0); }",
        );
        assert!(with.contains("= floatBitsToInt(1.0)"), "{with}");
        let without = up(
            Stage::Fragment,
            "#version 130\nvoid main() { int floatBitsToInt = 1; }",
        );
        assert!(without.contains("arena_u_floatBitsToInt"), "{without}");
    }

    fn up(stage: Stage, src: &str) -> String {
        upgrade(stage, src, Varyings::default()).source
    }

    #[test]
    fn rectangle_functions_are_renamed_in_glsl_140() {
        let src = "#version 140\nuniform sampler2DRectShadow s;\nout vec4 c;\nvoid main() {\n  c = shadow2DRect(s, vec3(1.0));\n}\n";
        let out = upgrade(Stage::Fragment, src, Varyings::default()).source;
        assert!(out.starts_with("#version 140\n"), "{out}");
        // The sampler's depth mode goes first (GL 2.1's luminance, (r, r, r, 1), when 0).
        assert!(
            out.contains("c = arena_ff_shadow(arena_ff_DepthMode_s, s, vec3(1.0));"),
            "{out}"
        );
        assert!(out.contains("uniform int arena_ff_DepthMode_s;\n"), "{out}");
        assert!(out.contains(
            "vec4 arena_ff_shadow(int m, sampler2DRectShadow s, vec3 c) { return arena_ff_depth_mode(texture(s, c), m); }"
        ));
        // The application's line 5 keeps its number.
        assert!(out.contains("#line 2\nuniform"), "{out}");
        let plain = "#version 150\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n";
        assert_eq!(
            upgrade(Stage::Fragment, plain, Varyings::default()).source,
            plain
        );
    }

    #[test]
    fn versions() {
        assert_eq!(source_version("void main(){}"), 110);
        assert_eq!(source_version("// c\n#version 120\nvoid main(){}"), 120);
        assert_eq!(source_version("  #  version 330 core\n"), 330);
        assert!(needs_upgrade("#version 130\n"));
        assert!(!needs_upgrade("#version 140\n"));
        assert_eq!(up(Stage::Vertex, "#version 150\nx"), "#version 150\nx");
    }

    #[test]
    fn vertex_unit() {
        let s = up(
            Stage::Vertex,
            "#version 110\nattribute vec4 p;\nvarying vec4 c; // gl_Color stays in comments\nvoid main() { gl_Position = gl_ModelViewProjectionMatrix * gl_Vertex; c = gl_Color; gl_TexCoord[0] = gl_MultiTexCoord0; }\n",
        );
        assert!(s.starts_with("#version 330\n"), "{s}");
        assert!(s.contains("in vec4 p;"));
        assert!(s.contains("out vec4 c; // gl_Color stays in comments"));
        assert!(s.contains("in vec4 arena_ff_Vertex;"));
        assert!(s.contains("in vec4 arena_ff_Color;"));
        assert!(s.contains("uniform mat4 arena_ff_ModelViewProjectionMatrix;"));
        assert!(s.contains("out vec4 arena_ff_TexCoord[8];"));
        assert!(s.contains("gl_Position = arena_ff_ModelViewProjectionMatrix * arena_ff_Vertex"));
        assert!(s.contains("#line 2\n"), "{s}");
    }

    #[test]
    fn fragment_unit_and_varyings() {
        let u = upgrade(
            Stage::Fragment,
            "uniform sampler2D texture;\nvoid main() { gl_FragColor = gl_Color * texture2D(texture, gl_TexCoord[0].xy); }",
            Varyings::default(),
        );
        assert!(u.varyings.contains(Varyings::FRONT_COLOR));
        assert!(u.varyings.contains(Varyings::TEX_COORD));
        assert!(!u.varyings.contains(Varyings::FOG_FRAG_COORD));
        assert!(u.writes_frag_color);
        let s = u.source;
        assert!(s.contains("uniform sampler2D arena_u_texture;"), "{s}");
        assert!(
            s.contains("texture(arena_u_texture, arena_ff_TexCoord[0].xy)"),
            "{s}"
        );
        assert!(s.contains("in vec4 arena_ff_FrontColor;"));
        assert!(s.contains("#line 1\n"), "{s}");
        let v = upgrade(
            Stage::Vertex,
            "void main() { gl_Position = ftransform(); }",
            Varyings::FRONT_COLOR,
        );
        assert!(v.source.contains("out vec4 arena_ff_FrontColor;"));
        assert!(v.source.contains("arena_ff_ftransform()"));
        assert!(v.source.contains("in vec4 arena_ff_Vertex;"));
    }

    #[test]
    fn extensions_stay_first_and_numbers_survive() {
        let s = up(
            Stage::Fragment,
            "#version 120\n#extension GL_ARB_texture_rectangle : enable\n/* note */\nvoid main() { gl_FragData[1] = vec4(1.0e-2, 0x1F, 2u, 1.5f); }",
        );
        let ext = s.find("#extension").unwrap();
        let decl = s.find("arena_ff_FragData[8]").unwrap();
        assert!(ext < decl, "{s}");
        assert!(s.contains("vec4(1.0e-2, 0x1F, 2u, 1.5f)"), "{s}");
        assert!(s.contains("#line 4\n"), "{s}");
    }

    #[test]
    fn shadow_lookups_pass_each_samplers_depth_mode() {
        let src = "uniform sampler2DShadow a;\nuniform sampler2DShadow b[2];\nvoid main() {\n  gl_FragColor = shadow2D(a, vec3(0.5)) + shadow2DProj(b[1], vec4(1.0)) + shadow2D(a, vec3(0.0));\n}\n";
        let out = upgrade(Stage::Fragment, src, Varyings::default()).source;
        assert!(
            out.contains("arena_ff_shadow(arena_ff_DepthMode_a, a, vec3(0.5))"),
            "{out}"
        );
        assert!(
            out.contains("arena_ff_shadowProj(arena_ff_DepthMode_b, b[1], vec4(1.0))"),
            "{out}"
        );
        // One declaration per sampler, however many calls.
        assert_eq!(
            out.matches("uniform int arena_ff_DepthMode_a;").count(),
            1,
            "{out}"
        );
        assert_eq!(
            out.matches("uniform int arena_ff_DepthMode_b;").count(),
            1,
            "{out}"
        );
        assert_eq!(out.matches("vec4 arena_ff_depth_mode(").count(), 1, "{out}");
        // Non-shadow lookups take no mode.
        let plain = upgrade(
            Stage::Fragment,
            "uniform sampler2D t;\nvoid main() { gl_FragColor = texture2D(t, vec2(0.5)); }\n",
            Varyings::default(),
        )
        .source;
        assert!(
            plain.contains("texture(t, vec2(0.5))") && !plain.contains("DepthMode"),
            "{plain}"
        );
    }
}
