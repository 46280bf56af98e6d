//! Lowering draws Vulkan cannot express directly into a `u32` index list.
//!
//! Design decisions:
//! - Used for the compatibility profile's quads, quad strips and polygons, for indexed line
//!   loops, for draws whose indices (or vertices) live in client memory, and for primitive-restart
//!   indices other than the index type's maximum. Each of these needs the indices on the CPU
//!   anyway, so the draw becomes: indices → segments (split at the restart index, GL compares
//!   before adding the base vertex) → per-mode rewrite → one `u32` index list streamed into the
//!   frame's arena, with Vulkan's own restart value between strip/fan segments.
//! - List modes drop a segment's incomplete primitive (what restarting means for a list), so they
//!   never need Vulkan's list-restart feature.
//! - Quads, quad strips and polygons become triangle lists ordered so that every triangle's
//!   provoking vertex (its first or its last, as the draw's pipeline says: [`Provoking`]) is
//!   the GL primitive's provoking vertex (GL 3.2 compatibility, table 2.12): a polygon's first
//!   vertex under both conventions, a quad's last (4i) and a quad strip quad's last (2i + 2),
//!   since `GL_QUADS_FOLLOW_PROVOKING_VERTEX_CONVENTION` is false. Rotating a triangle's
//!   vertices keeps its winding, so culling and `gl_FrontFacing` see the primitive's own.

use crate::gl::context::enums::*;

/// Vulkan's restart value for 32-bit indices.
pub(crate) const RESTART: u32 = u32::MAX;

/// A lowered draw: the mode to draw with (one Vulkan has) and its indices.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Lowered {
    pub mode: GLenum,
    pub indices: Vec<u32>,
    /// Whether `indices` hold [`RESTART`] separators.
    pub restart: bool,
    /// The largest vertex index used (None when nothing is drawn).
    pub max_vertex: Option<u32>,
}

/// Which vertex of a triangle the draw's pipeline takes flat-shaded values from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Provoking {
    First,
    Last,
}

impl Provoking {
    /// Triangle (`a`, `b`, `pv`) in that winding, with `pv` where it provokes.
    fn triangle(self, a: u32, b: u32, pv: u32) -> [u32; 3] {
        match self {
            Self::First => [pv, a, b],
            Self::Last => [a, b, pv],
        }
    }
}

/// Whether `mode` is one of the compatibility profile's modes Vulkan lacks.
pub(crate) fn is_legacy_mode(mode: GLenum) -> bool {
    matches!(mode, GL_QUADS | GL_QUAD_STRIP | GL_POLYGON)
}

/// Lowers a draw of `mode` over `raw` indices (before the base vertex); `restart` is the GL
/// primitive-restart index when enabled; `provoking` is the pipeline's convention, which the
/// triangles of quads, quad strips and polygons are ordered for.
pub(crate) fn lower(
    mode: GLenum,
    raw: impl Iterator<Item = u32>,
    base_vertex: i32,
    restart: Option<u32>,
    provoking: Provoking,
) -> Lowered {
    let mut segments: Vec<Vec<u32>> = vec![Vec::new()];
    for i in raw {
        if Some(i) == restart {
            segments.push(Vec::new());
        } else if let Some(last) = segments.last_mut() {
            last.push((i as i64 + base_vertex as i64).clamp(0, u32::MAX as i64 - 1) as u32);
        }
    }
    let mut out = Lowered {
        mode,
        indices: Vec::new(),
        restart: false,
        max_vertex: None,
    };
    let list = |n: usize, seg: &[u32], out: &mut Vec<u32>| {
        let whole = seg.len() - seg.len() % n;
        out.extend_from_slice(&seg[..whole]);
    };
    let strip = |min: usize, seg: &[u32], out: &mut Lowered| {
        if seg.len() < min {
            return;
        }
        if !out.indices.is_empty() {
            out.indices.push(RESTART);
            out.restart = true;
        }
        out.indices.extend_from_slice(seg);
    };
    for seg in &segments {
        match mode {
            GL_POINTS => list(1, seg, &mut out.indices),
            GL_LINES => list(2, seg, &mut out.indices),
            GL_TRIANGLES => list(3, seg, &mut out.indices),
            GL_LINES_ADJACENCY => list(4, seg, &mut out.indices),
            GL_TRIANGLES_ADJACENCY => list(6, seg, &mut out.indices),
            GL_LINE_STRIP => strip(2, seg, &mut out),
            GL_LINE_STRIP_ADJACENCY => strip(4, seg, &mut out),
            GL_TRIANGLE_STRIP | GL_TRIANGLE_FAN => strip(3, seg, &mut out),
            GL_TRIANGLE_STRIP_ADJACENCY => strip(6, seg, &mut out),
            // Patches are whole `GL_PATCH_VERTICES` groups the pipeline takes as they come.
            GL_PATCHES => out.indices.extend_from_slice(seg),
            GL_LINE_LOOP if seg.len() >= 2 => {
                let mut closed = seg.clone();
                closed.push(seg[0]);
                strip(2, &closed, &mut out);
            }
            // A fan around the first vertex, which provokes.
            GL_POLYGON if seg.len() >= 3 => {
                for w in seg[1..].windows(2) {
                    out.indices
                        .extend_from_slice(&provoking.triangle(w[0], w[1], seg[0]));
                }
            }
            // Quad i is (a, b, d, c) around its edge; d (2i + 2) provokes.
            GL_QUAD_STRIP => {
                let mut at = 0;
                while at + 4 <= seg.len() {
                    let [a, b, c, d] = [seg[at], seg[at + 1], seg[at + 2], seg[at + 3]];
                    out.indices.extend_from_slice(&provoking.triangle(a, b, d));
                    out.indices.extend_from_slice(&provoking.triangle(c, a, d));
                    at += 2;
                }
            }
            GL_QUADS => {
                for q in seg.chunks_exact(4) {
                    out.indices
                        .extend_from_slice(&provoking.triangle(q[0], q[1], q[3]));
                    out.indices
                        .extend_from_slice(&provoking.triangle(q[1], q[2], q[3]));
                }
            }
            _ => {}
        }
    }
    out.mode = match mode {
        GL_LINE_LOOP => GL_LINE_STRIP,
        GL_POLYGON | GL_QUAD_STRIP | GL_QUADS => GL_TRIANGLES,
        m => m,
    };
    out.max_vertex = out.indices.iter().copied().filter(|&i| i != RESTART).max();
    out
}

/// Decodes `bytes` as indices of `ty` (`GL_UNSIGNED_BYTE/SHORT/INT`), native endian.
pub(crate) fn decode_indices(ty: GLenum, bytes: &[u8]) -> Vec<u32> {
    match ty {
        GL_UNSIGNED_BYTE => bytes.iter().map(|&b| u32::from(b)).collect(),
        GL_UNSIGNED_SHORT => bytes
            .chunks_exact(2)
            .map(|c| u32::from(u16::from_ne_bytes([c[0], c[1]])))
            .collect(),
        _ => bytes
            .chunks_exact(4)
            .map(|c| u32::from_ne_bytes([c[0], c[1], c[2], c[3]]))
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn l(mode: GLenum, raw: &[u32], restart: Option<u32>) -> Lowered {
        lower(mode, raw.iter().copied(), 0, restart, Provoking::Last)
    }

    fn first(mode: GLenum, raw: &[u32]) -> Lowered {
        lower(mode, raw.iter().copied(), 0, None, Provoking::First)
    }

    /// The provoking vertex of each triangle of a lowered list.
    fn provokers(t: &Lowered, provoking: Provoking) -> Vec<u32> {
        assert_eq!(t.mode, GL_TRIANGLES);
        t.indices
            .chunks_exact(3)
            .map(|tri| match provoking {
                Provoking::First => tri[0],
                Provoking::Last => tri[2],
            })
            .collect()
    }

    #[test]
    fn quads_become_triangles_provoked_by_the_last_vertex() {
        let q = l(GL_QUADS, &[0, 1, 2, 3, 4, 5, 6, 7, 8], None);
        assert_eq!(q.mode, GL_TRIANGLES);
        assert_eq!(q.indices, vec![0, 1, 3, 1, 2, 3, 4, 5, 7, 5, 6, 7]);
        assert_eq!(q.max_vertex, Some(7));
        let f = first(GL_QUADS, &[0, 1, 2, 3, 4, 5, 6, 7]);
        assert_eq!(f.indices, vec![3, 0, 1, 3, 1, 2, 7, 4, 5, 7, 5, 6]);
        assert_eq!(provokers(&f, Provoking::First), vec![3, 3, 7, 7]);
    }

    #[test]
    fn quad_strips_are_provoked_by_each_quads_last_vertex_under_both_conventions() {
        // Quad i (from 1) is vertices 2i-1, 2i, 2i+2, 2i+1 around; 2i+2 provokes (0-based 2i+1).
        let raw = [0, 1, 2, 3, 4, 5, 6];
        let last = l(GL_QUAD_STRIP, &raw, None);
        assert_eq!(provokers(&last, Provoking::Last), vec![3, 3, 5, 5]);
        assert_eq!(last.indices[..6], [0, 1, 3, 2, 0, 3]);
        let f = first(GL_QUAD_STRIP, &raw);
        assert_eq!(provokers(&f, Provoking::First), vec![3, 3, 5, 5]);
        // The same triangles, rotated (the winding is kept).
        assert_eq!(f.indices[..6], [3, 0, 1, 3, 2, 0]);
        assert_eq!(last.max_vertex, Some(5));
        assert!(l(GL_QUAD_STRIP, &[0, 1, 2], None).indices.is_empty());
    }

    #[test]
    fn polygons_are_provoked_by_their_first_vertex_under_both_conventions() {
        let last = l(GL_POLYGON, &[4, 5, 6, 7, 8], None);
        assert_eq!(last.indices, vec![5, 6, 4, 6, 7, 4, 7, 8, 4]);
        assert_eq!(provokers(&last, Provoking::Last), vec![4, 4, 4]);
        let f = first(GL_POLYGON, &[4, 5, 6, 7, 8]);
        assert_eq!(f.indices, vec![4, 5, 6, 4, 6, 7, 4, 7, 8]);
        assert!(l(GL_POLYGON, &[0, 1], None).indices.is_empty());
    }

    #[test]
    fn strips_fans_and_loops_restart_between_segments() {
        let s = l(
            GL_TRIANGLE_STRIP,
            &[0, 1, 2, 3, 9, 4, 5, 9, 6, 7, 8],
            Some(9),
        );
        assert_eq!(s.indices, vec![0, 1, 2, 3, RESTART, 6, 7, 8]);
        assert!(s.restart);
        let p = lower(
            GL_POLYGON,
            [0u32, 1, 2, 3, 9, 4, 5, 6].into_iter(),
            0,
            Some(9),
            Provoking::First,
        );
        assert_eq!(
            (p.mode, p.indices, p.restart),
            (GL_TRIANGLES, vec![0, 1, 2, 0, 2, 3, 4, 5, 6], false)
        );
        let lp = l(GL_LINE_LOOP, &[0, 1, 2, 7, 3, 4], Some(7));
        assert_eq!(lp.mode, GL_LINE_STRIP);
        assert_eq!(lp.indices, vec![0, 1, 2, 0, RESTART, 3, 4, 3]);
        let qs = l(GL_QUAD_STRIP, &[0, 1, 2, 3, 4], None);
        assert_eq!(
            (qs.mode, qs.indices.clone()),
            (GL_TRIANGLES, vec![0, 1, 3, 2, 0, 3])
        );
    }

    #[test]
    fn lists_drop_incomplete_primitives_and_base_vertex_applies_after_restart() {
        let t = lower(
            GL_TRIANGLES,
            [0u32, 1, 5, 2, 3, 4, 6].into_iter(),
            10,
            Some(5),
            Provoking::Last,
        );
        assert_eq!(t.indices, vec![12, 13, 14]);
        assert!(!t.restart);
        assert_eq!(l(GL_TRIANGLES, &[], None).max_vertex, None);
    }

    #[test]
    fn decodes_each_index_type() {
        assert_eq!(decode_indices(GL_UNSIGNED_BYTE, &[1, 255]), vec![1, 255]);
        let s: Vec<u8> = [3u16, 65535].iter().flat_map(|v| v.to_ne_bytes()).collect();
        assert_eq!(decode_indices(GL_UNSIGNED_SHORT, &s), vec![3, 65535]);
        let w: Vec<u8> = [7u32, 1 << 20]
            .iter()
            .flat_map(|v| v.to_ne_bytes())
            .collect();
        assert_eq!(decode_indices(GL_UNSIGNED_INT, &w), vec![7, 1 << 20]);
    }
}
