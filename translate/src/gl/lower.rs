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
//! - Quads become two triangles each, (a, b, d) and (b, c, d): both end on the quad's last
//!   vertex, which is GL's provoking vertex for a quad.

use super::enums::*;

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

/// Whether `mode` is one of the compatibility profile's modes Vulkan lacks.
pub(crate) fn is_legacy_mode(mode: GLenum) -> bool {
    matches!(mode, GL_QUADS | GL_QUAD_STRIP | GL_POLYGON)
}

/// Lowers a draw of `mode` over `raw` indices (before the base vertex); `restart` is the GL
/// primitive-restart index when enabled.
pub(crate) fn lower(
    mode: GLenum,
    raw: impl Iterator<Item = u32>,
    base_vertex: i32,
    restart: Option<u32>,
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
            GL_LINE_LOOP if seg.len() >= 2 => {
                let mut closed = seg.clone();
                closed.push(seg[0]);
                strip(2, &closed, &mut out);
            }
            GL_POLYGON => strip(3, seg, &mut out),
            GL_QUAD_STRIP => {
                let even = seg.len() - seg.len() % 2;
                strip(4, &seg[..even], &mut out);
            }
            GL_QUADS => {
                for q in seg.chunks_exact(4) {
                    out.indices
                        .extend_from_slice(&[q[0], q[1], q[3], q[1], q[2], q[3]]);
                }
            }
            _ => {}
        }
    }
    out.mode = match mode {
        GL_LINE_LOOP => GL_LINE_STRIP,
        GL_POLYGON => GL_TRIANGLE_FAN,
        GL_QUAD_STRIP => GL_TRIANGLE_STRIP,
        GL_QUADS => GL_TRIANGLES,
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
        lower(mode, raw.iter().copied(), 0, restart)
    }

    #[test]
    fn quads_become_triangles_ending_on_the_last_vertex() {
        let q = l(GL_QUADS, &[0, 1, 2, 3, 4, 5, 6, 7, 8], None);
        assert_eq!(q.mode, GL_TRIANGLES);
        assert_eq!(q.indices, vec![0, 1, 3, 1, 2, 3, 4, 5, 7, 5, 6, 7]);
        assert_eq!(q.max_vertex, Some(7));
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
        let p = l(GL_POLYGON, &[0, 1, 2, 3], None);
        assert_eq!(
            (p.mode, p.indices.len(), p.restart),
            (GL_TRIANGLE_FAN, 4, false)
        );
        let lp = l(GL_LINE_LOOP, &[0, 1, 2, 7, 3, 4], Some(7));
        assert_eq!(lp.mode, GL_LINE_STRIP);
        assert_eq!(lp.indices, vec![0, 1, 2, 0, RESTART, 3, 4, 3]);
        let qs = l(GL_QUAD_STRIP, &[0, 1, 2, 3, 4], None);
        assert_eq!(
            (qs.mode, qs.indices.clone()),
            (GL_TRIANGLE_STRIP, vec![0, 1, 2, 3])
        );
    }

    #[test]
    fn lists_drop_incomplete_primitives_and_base_vertex_applies_after_restart() {
        let t = lower(
            GL_TRIANGLES,
            [0u32, 1, 5, 2, 3, 4, 6].into_iter(),
            10,
            Some(5),
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
