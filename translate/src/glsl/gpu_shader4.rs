//! GL_EXT_gpu_shader4 in GLSL 1.10/1.20 units, for the legacy upgrader (`legacy`).
//!
//! The extension gives old GLSL most of what GLSL 1.30 later made core, under its own names:
//! unsigned integers spelt `unsigned int`, `flat`/`noperspective` varyings, user fragment
//! outputs declared `varying out`, integer samplers, array/buffer samplers, `round` and
//! `truncate`, and a family of texture functions that carry their sampler's dimension in their
//! name (`texture2DArrayGradOffset`, `texelFetch2DRect`, `textureSize1D`, `shadowCubeGrad`, …).
//! The upgrader already writes GLSL 3.30, where all of this exists; this module maps the names.
//!
//! Design decisions:
//! - Token level, like the rest of the upgrader: `unsigned int` becomes `uint` (the
//!   whitespace between the two words stays), `varying out` in a fragment unit becomes `out`
//!   (the `varying` is blanked, so lines keep their numbers).
//! - A texture function name is parsed, not listed: `texture|shadow|texelFetch|textureSize`,
//!   a dimension, then the optional `Proj`, `Lod`/`Grad`, `Offset` parts in that order. The
//!   non-shadow ones map to the GLSL 1.30 built-in with the same parts (`texture` + `ProjGradOffset`
//!   is `textureProjGradOffset`); the built-in's overloads do the rest, integer samplers included.
//! - The shadow ones return a `vec4` built from the comparison by the texture's depth mode, as
//!   GL 2.1's `shadow2D` does. A call is first written as `arena_ff_shadowEXT<built-in>(`, a
//!   name that starts with `arena_ff_shadow`, so the upgrader passes the sampler's depth mode as
//!   its first argument as it does for `shadow2D`; then [`finish`] turns each such call
//!   `NAME(m, args)` into `arena_ff_depth_mode(<built-in>(args), m)`. Not a helper function:
//!   the offset of an `*Offset` lookup must stay a constant expression, and a helper would
//!   need an overload per sampler type, bias and argument list. Names the upgrader already knows
//!   (`shadow2D`, `texture2DArray`, …) never reach this module.
//! - GLSL 3.30 wants an interpolation qualifier before `centroid`; the extension allows
//!   `centroid noperspective varying`, so the two are swapped.
//! - Where GLSL 3.30 lacks the built-in a name maps to (a shadow array lookup with an explicit
//!   level, say), glslang reports the unknown call: the unit fails to compile, as it would on a
//!   driver without that overload.

use super::Stage;

/// The extension's name in `#extension`.
pub(super) const NAME: &str = "GL_EXT_gpu_shader4";

/// Built-in functions the extension gives old GLSL under their GLSL 1.30 names, which the
/// upgrader would otherwise treat as the application's own identifiers.
pub(super) const BUILT_INS: [&str; 1] = ["round"];

/// What the upgrader writes for one identifier of a unit that enables the extension.
pub(super) enum Mapped {
    /// Not the extension's: the upgrader's own rules apply.
    No,
    /// Written (or deliberately held back) here.
    Done,
    /// A texture function, written as this GLSL 3.30 name.
    Function(&'static str),
    /// A shadow lookup, written as its marked name: its first argument must be the sampler's
    /// depth mode, and the unit must go through [`finish`].
    Shadow,
}

/// What marks a shadow lookup until [`finish`].
const SHADOW_MARK: &str = "arena_ff_shadowEXT";

/// The extension's rewrite of one unit: the state carried between identifiers.
#[derive(Default)]
pub(super) struct Gpu4 {
    /// `unsigned` was just seen (and not written).
    unsigned: bool,
    /// Where the `in` written for a fragment unit's `varying` starts in the output, until the
    /// next identifier shows whether it was `varying out`.
    varying_at: Option<usize>,
    /// Where a `centroid` was written, until the next identifier shows whether an
    /// interpolation qualifier follows it.
    centroid_at: Option<usize>,
}

impl Gpu4 {
    /// Maps `ident`, writing to `out` unless it returns [`Mapped::No`] or
    /// [`Mapped::Function`] (the caller writes those). `known` says the upgrader maps the name
    /// itself (`shadow2D`, `texture2DArray`, …): then only the state moves on.
    pub(super) fn map(
        &mut self,
        stage: Stage,
        ident: &str,
        known: bool,
        out: &mut String,
    ) -> Mapped {
        if std::mem::take(&mut self.unsigned) {
            if ident == "int" {
                out.push_str("uint");
                return Mapped::Done;
            }
            out.push_str("unsigned ");
        }
        if let Some(at) = self.varying_at.take() {
            if ident == "out" {
                // `varying out`: the `in` written for `varying` is blanked.
                out.replace_range(at..at + 2, "  ");
            }
        }
        if let Some(at) = self.centroid_at.take() {
            if matches!(ident, "flat" | "noperspective" | "smooth") {
                let held = out.split_off(at);
                out.push_str(ident);
                out.push(' ');
                out.push_str(&held);
                return Mapped::Done;
            }
        }
        match ident {
            "unsigned" => {
                self.unsigned = true;
                Mapped::Done
            }
            "centroid" => {
                self.centroid_at = Some(out.len());
                out.push_str(ident);
                Mapped::Done
            }
            "varying" if stage == Stage::Fragment => {
                self.varying_at = Some(out.len());
                out.push_str("in");
                Mapped::Done
            }
            _ if known => Mapped::No,
            "truncate" => Mapped::Function("trunc"),
            _ => match Lookup::parse(ident) {
                Some(l) if l.base == Base::Shadow => {
                    out.push_str(SHADOW_MARK);
                    out.push_str(l.texture_built_in());
                    Mapped::Shadow
                }
                Some(l) => Mapped::Function(l.built_in()),
                None => Mapped::No,
            },
        }
    }
}

/// `text` with each marked shadow lookup `arena_ff_shadowEXT<built-in>(m, args)` written as
/// `arena_ff_depth_mode(<built-in>(args), m)` (the arguments' text, newlines included, kept).
pub(super) fn finish(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 64);
    let mut rest = text;
    while let Some(at) = rest.find(SHADOW_MARK) {
        out.push_str(&rest[..at]);
        let call = &rest[at + SHADOW_MARK.len()..];
        let name_len = call
            .find(|c: char| !c.is_ascii_alphanumeric())
            .unwrap_or(call.len());
        let (name, after) = call.split_at(name_len);
        match split_call(after) {
            Some((mode, args, tail)) => {
                out.push_str(&format!("arena_ff_depth_mode({name}({args}), {mode})"));
                rest = tail;
            }
            // Not a well-formed call: left for glslang to report.
            None => {
                out.push_str(name);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// For `(first, rest…)tail`: (`first`, `rest…`, `tail`), whitespace before the `(` allowed.
fn split_call(text: &str) -> Option<(&str, &str, &str)> {
    let open = text.len() - text.trim_start().len();
    if !text[open..].starts_with('(') {
        return None;
    }
    let (mut depth, mut comma) = (0usize, None);
    for (i, c) in text.char_indices().skip(open) {
        match c {
            '(' => depth += 1,
            ',' if depth == 1 && comma.is_none() => comma = Some(i),
            ')' => {
                depth -= 1;
                if depth == 0 {
                    let comma = comma?;
                    return Some((&text[open + 1..comma], &text[comma + 1..i], &text[i + 1..]));
                }
            }
            _ => {}
        }
    }
    None
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Base {
    Texture,
    Shadow,
    TexelFetch,
    TextureSize,
}

/// One texture function name of the extension, taken apart.
struct Lookup {
    base: Base,
    proj: bool,
    /// "", "Lod" or "Grad".
    level: &'static str,
    offset: bool,
}

const DIMS: [&str; 8] = [
    "1DArray", "2DArray", "2DRect", "Buffer", "Cube", "1D", "2D", "3D",
];

impl Lookup {
    fn parse(name: &str) -> Option<Lookup> {
        let (base, rest) = [
            ("textureSize", Base::TextureSize),
            ("texelFetch", Base::TexelFetch),
            ("texture", Base::Texture),
            ("shadow", Base::Shadow),
        ]
        .iter()
        .find_map(|(p, b)| name.strip_prefix(p).map(|r| (*b, r)))?;
        let dim = *DIMS.iter().find(|d| rest.starts_with(**d))?;
        let mut rest = &rest[dim.len()..];
        let mut take = |part: &str| match rest.strip_prefix(part) {
            Some(r) => {
                rest = r;
                true
            }
            None => false,
        };
        let proj = take("Proj");
        let level = ["Lod", "Grad"].into_iter().find(|l| take(l)).unwrap_or("");
        let offset = take("Offset");
        let simple = matches!(base, Base::TextureSize | Base::TexelFetch);
        let fits = rest.is_empty()
            && (!simple || (!proj && level.is_empty()))
            && (base != Base::TextureSize || !offset)
            && (base != Base::Shadow || !matches!(dim, "3D" | "Buffer"));
        fits.then_some(Lookup {
            base,
            proj,
            level,
            offset,
        })
    }

    /// The GLSL 1.30 built-in a non-shadow lookup maps to.
    fn built_in(&self) -> &'static str {
        match (self.base, self.offset) {
            (Base::TextureSize, _) => "textureSize",
            (Base::TexelFetch, false) => "texelFetch",
            (Base::TexelFetch, true) => "texelFetchOffset",
            _ => self.texture_built_in(),
        }
    }

    /// The GLSL 1.30 `texture*` lookup with this one's parts.
    fn texture_built_in(&self) -> &'static str {
        TEXTURE_BUILT_INS
            .iter()
            .find(|(p, l, o, _)| *p == self.proj && *l == self.level && *o == self.offset)
            .map_or("texture", |(.., name)| name)
    }
}

/// GLSL 1.30's `texture*` lookups by their parts: (projective, level, offset, name).
const TEXTURE_BUILT_INS: [(bool, &str, bool, &str); 12] = [
    (false, "", false, "texture"),
    (false, "", true, "textureOffset"),
    (true, "", false, "textureProj"),
    (true, "", true, "textureProjOffset"),
    (false, "Lod", false, "textureLod"),
    (false, "Lod", true, "textureLodOffset"),
    (true, "Lod", false, "textureProjLod"),
    (true, "Lod", true, "textureProjLodOffset"),
    (false, "Grad", false, "textureGrad"),
    (false, "Grad", true, "textureGradOffset"),
    (true, "Grad", false, "textureProjGrad"),
    (true, "Grad", true, "textureProjGradOffset"),
];

#[cfg(test)]
mod tests {
    use super::*;

    fn function(name: &str) -> Option<&'static str> {
        Lookup::parse(name).map(|l| l.built_in())
    }

    #[test]
    fn texture_names_map_to_their_glsl_1_30_built_ins() {
        assert_eq!(
            function("texture2DArrayGradOffset"),
            Some("textureGradOffset")
        );
        assert_eq!(
            function("texture1DProjLodOffset"),
            Some("textureProjLodOffset")
        );
        assert_eq!(function("texelFetch2DRect"), Some("texelFetch"));
        assert_eq!(
            function("texelFetch1DArrayOffset"),
            Some("texelFetchOffset")
        );
        assert_eq!(function("textureSizeBuffer"), Some("textureSize"));
        assert_eq!(function("texture3DOffset"), Some("textureOffset"));
        assert_eq!(function("textureSize2DOffset"), None);
        assert_eq!(function("texelFetch2DLod"), None);
        assert_eq!(function("texture2DArrayz"), None);
        assert_eq!(function("textured"), None);
    }

    fn rewrite(stage: Stage, words: &[&str]) -> String {
        let mut g = Gpu4::default();
        let mut out = String::new();
        for w in words {
            match g.map(stage, w, false, &mut out) {
                Mapped::No => out.push_str(w),
                Mapped::Function(f) => out.push_str(f),
                Mapped::Done | Mapped::Shadow => {}
            }
            out.push(' ');
        }
        out
    }

    #[test]
    fn unsigned_int_and_varying_out() {
        assert_eq!(
            rewrite(Stage::Vertex, &["unsigned", "int", "x"]),
            " uint x "
        );
        assert_eq!(
            rewrite(Stage::Fragment, &["varying", "out", "vec4"]),
            "   out vec4 "
        );
        assert_eq!(
            rewrite(Stage::Fragment, &["flat", "varying", "int"]),
            "flat in int "
        );
        assert_eq!(rewrite(Stage::Vertex, &["truncate"]), "trunc ");
    }

    #[test]
    fn shadow_lookups_become_depth_mode_calls() {
        let mut g = Gpu4::default();
        let mut out = String::new();
        assert!(matches!(
            g.map(Stage::Fragment, "shadow2DArrayGradOffset", false, &mut out),
            Mapped::Shadow
        ));
        out.push_str("(m_s, s, c,\n d(x), y, ivec2(1)) + 1.0");
        assert_eq!(
            finish(&out),
            "arena_ff_depth_mode(textureGradOffset( s, c,\n d(x), y, ivec2(1)), m_s) + 1.0"
        );
        assert_eq!(finish("arena_ff_shadowEXTtexture x"), "texture x");
    }

    #[test]
    fn centroid_follows_the_interpolation_qualifier() {
        assert_eq!(
            rewrite(Stage::Fragment, &["centroid", "noperspective", "varying"]),
            "noperspective centroid  in "
        );
        assert_eq!(
            rewrite(Stage::Vertex, &["centroid", "varying"]),
            "centroid varying "
        );
    }
}
