//! The compatibility profile's matrix stacks (modelview, projection, one texture stack per
//! unit) and the 4×4 arithmetic they need. Matrices are column-major `[f32; 16]`, as GL stores
//! and `glLoadMatrixf` passes them; products are computed in `f64`.

use crate::gl::context::enums::*;
use crate::gl::context::error::{invalid_enum, invalid_value, GlError, GlResult};

/// A column-major 4×4 matrix.
pub(crate) type Mat4 = [f32; 16];

/// Stack depth of every stack (GL asks for at least 32 modelview, 2 projection, 2 texture).
pub(crate) const STACK_DEPTH: usize = 32;
/// Texture matrix stacks (one per texture coordinate set).
pub(crate) const TEXTURE_STACKS: usize = 8;

pub(crate) const IDENTITY: Mat4 = [
    1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0,
];

/// `a × b`.
pub(crate) fn mul(a: &Mat4, b: &Mat4) -> Mat4 {
    let mut out = [0.0f32; 16];
    for c in 0..4 {
        for r in 0..4 {
            let mut s = 0.0f64;
            for k in 0..4 {
                s += f64::from(a[k * 4 + r]) * f64::from(b[c * 4 + k]);
            }
            out[c * 4 + r] = s as f32;
        }
    }
    out
}

pub(crate) fn transpose(m: &Mat4) -> Mat4 {
    let mut out = [0.0f32; 16];
    for c in 0..4 {
        for r in 0..4 {
            out[r * 4 + c] = m[c * 4 + r];
        }
    }
    out
}

/// The inverse, or the identity for a singular matrix (what GL leaves undefined).
pub(crate) fn inverse(m: &Mat4) -> Mat4 {
    let a: Vec<f64> = m.iter().map(|&v| f64::from(v)).collect();
    // Gauss-Jordan on [a | I] with partial pivoting, rows = matrix rows.
    let mut aug = [[0.0f64; 8]; 4];
    for r in 0..4 {
        for c in 0..4 {
            aug[r][c] = a[c * 4 + r];
        }
        aug[r][4 + r] = 1.0;
    }
    for col in 0..4 {
        let pivot = (col..4)
            .max_by(|&x, &y| aug[x][col].abs().total_cmp(&aug[y][col].abs()))
            .unwrap_or(col);
        if aug[pivot][col].abs() < 1e-300 {
            return IDENTITY;
        }
        aug.swap(col, pivot);
        let p = aug[col][col];
        for v in aug[col].iter_mut() {
            *v /= p;
        }
        for r in 0..4 {
            if r != col {
                let f = aug[r][col];
                if f != 0.0 {
                    let pivot_row = aug[col];
                    for (v, pv) in aug[r].iter_mut().zip(pivot_row.iter()) {
                        *v -= f * pv;
                    }
                }
            }
        }
    }
    let mut out = [0.0f32; 16];
    for r in 0..4 {
        for c in 0..4 {
            out[c * 4 + r] = aug[r][4 + c] as f32;
        }
    }
    out
}

/// The upper-left 3×3 of the inverse transpose (`gl_NormalMatrix`), as three columns.
pub(crate) fn normal_matrix(modelview: &Mat4) -> [[f32; 3]; 3] {
    let it = transpose(&inverse(modelview));
    [
        [it[0], it[1], it[2]],
        [it[4], it[5], it[6]],
        [it[8], it[9], it[10]],
    ]
}

pub(crate) fn ortho(l: f64, r: f64, b: f64, t: f64, n: f64, f: f64) -> GlResult<Mat4> {
    if l == r || b == t || n == f {
        return invalid_value("glOrtho with an empty volume");
    }
    let mut m = IDENTITY;
    m[0] = (2.0 / (r - l)) as f32;
    m[5] = (2.0 / (t - b)) as f32;
    m[10] = (-2.0 / (f - n)) as f32;
    m[12] = (-(r + l) / (r - l)) as f32;
    m[13] = (-(t + b) / (t - b)) as f32;
    m[14] = (-(f + n) / (f - n)) as f32;
    Ok(m)
}

pub(crate) fn frustum(l: f64, r: f64, b: f64, t: f64, n: f64, f: f64) -> GlResult<Mat4> {
    if n <= 0.0 || f <= 0.0 || l == r || b == t || n == f {
        return invalid_value("glFrustum with near/far <= 0 or an empty volume");
    }
    let mut m = [0.0f32; 16];
    m[0] = (2.0 * n / (r - l)) as f32;
    m[5] = (2.0 * n / (t - b)) as f32;
    m[8] = ((r + l) / (r - l)) as f32;
    m[9] = ((t + b) / (t - b)) as f32;
    m[10] = (-(f + n) / (f - n)) as f32;
    m[11] = -1.0;
    m[14] = (-2.0 * f * n / (f - n)) as f32;
    Ok(m)
}

pub(crate) fn translate(x: f64, y: f64, z: f64) -> Mat4 {
    let mut m = IDENTITY;
    m[12] = x as f32;
    m[13] = y as f32;
    m[14] = z as f32;
    m
}

pub(crate) fn scale(x: f64, y: f64, z: f64) -> Mat4 {
    let mut m = IDENTITY;
    m[0] = x as f32;
    m[5] = y as f32;
    m[10] = z as f32;
    m
}

/// `glRotate`: `angle` degrees about (x, y, z) (normalised; a zero axis leaves the identity).
pub(crate) fn rotate(angle: f64, x: f64, y: f64, z: f64) -> Mat4 {
    let len = (x * x + y * y + z * z).sqrt();
    if len == 0.0 {
        return IDENTITY;
    }
    let (x, y, z) = (x / len, y / len, z / len);
    let (s, c) = angle.to_radians().sin_cos();
    let k = 1.0 - c;
    let v = [
        x * x * k + c,
        y * x * k + z * s,
        x * z * k - y * s,
        0.0,
        x * y * k - z * s,
        y * y * k + c,
        y * z * k + x * s,
        0.0,
        x * z * k + y * s,
        y * z * k - x * s,
        z * z * k + c,
        0.0,
        0.0,
        0.0,
        0.0,
        1.0,
    ];
    v.map(|e| e as f32)
}

/// The stacks and the mode that picks one.
#[derive(Debug, Clone)]
pub(crate) struct MatrixStacks {
    pub mode: GLenum,
    pub modelview: Vec<Mat4>,
    pub projection: Vec<Mat4>,
    pub texture: Vec<Vec<Mat4>>,
}

impl Default for MatrixStacks {
    fn default() -> Self {
        Self {
            mode: GL_MODELVIEW,
            modelview: vec![IDENTITY],
            projection: vec![IDENTITY],
            texture: vec![vec![IDENTITY]; TEXTURE_STACKS],
        }
    }
}

impl MatrixStacks {
    /// The stack `mode` selects (`unit` picks the texture stack).
    fn stack(&mut self, unit: usize) -> &mut Vec<Mat4> {
        match self.mode {
            GL_PROJECTION => &mut self.projection,
            GL_TEXTURE => &mut self.texture[unit.min(TEXTURE_STACKS - 1)],
            _ => &mut self.modelview,
        }
    }

    pub(crate) fn set_mode(&mut self, mode: GLenum) -> GlResult<()> {
        match mode {
            GL_MODELVIEW | GL_PROJECTION | GL_TEXTURE => {
                self.mode = mode;
                Ok(())
            }
            m => invalid_enum("matrix mode", m),
        }
    }

    /// The top of the current stack.
    pub(crate) fn top(&mut self, unit: usize) -> &mut Mat4 {
        let s = self.stack(unit);
        if s.is_empty() {
            s.push(IDENTITY);
        }
        let last = s.len() - 1;
        &mut s[last]
    }

    /// Multiplies the current matrix by `m` on the right (what every GL transform call does).
    pub(crate) fn multiply(&mut self, unit: usize, m: &Mat4) {
        let top = self.top(unit);
        *top = mul(top, m);
    }

    pub(crate) fn push(&mut self, unit: usize) -> GlResult<()> {
        let s = self.stack(unit);
        if s.len() >= STACK_DEPTH {
            return Err(GlError::StackOverflow(format!(
                "glPushMatrix past the stack depth {STACK_DEPTH}"
            )));
        }
        let top = s.last().copied().unwrap_or(IDENTITY);
        s.push(top);
        Ok(())
    }

    pub(crate) fn pop(&mut self, unit: usize) -> GlResult<()> {
        let s = self.stack(unit);
        if s.len() <= 1 {
            return Err(GlError::StackUnderflow(
                "glPopMatrix with one matrix on the stack".into(),
            ));
        }
        s.pop();
        Ok(())
    }

    /// Identity modelview and projection tops (window-space draws of pixel rectangles, which
    /// restore the saved stacks afterwards).
    pub(crate) fn load_identity_all(&mut self) {
        for s in [&mut self.modelview, &mut self.projection] {
            match s.last_mut() {
                Some(top) => *top = IDENTITY,
                None => s.push(IDENTITY),
            }
        }
    }

    pub(crate) fn modelview(&self) -> Mat4 {
        self.modelview.last().copied().unwrap_or(IDENTITY)
    }

    pub(crate) fn projection(&self) -> Mat4 {
        self.projection.last().copied().unwrap_or(IDENTITY)
    }

    pub(crate) fn texture(&self, unit: usize) -> Mat4 {
        self.texture
            .get(unit)
            .and_then(|s| s.last().copied())
            .unwrap_or(IDENTITY)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: &Mat4, b: &Mat4) -> bool {
        a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-5)
    }

    #[test]
    fn inverse_undoes_transforms() {
        let m = mul(
            &mul(&translate(1.0, -2.0, 3.0), &rotate(30.0, 0.0, 0.0, 1.0)),
            &scale(2.0, 4.0, 0.5),
        );
        assert!(close(&mul(&m, &inverse(&m)), &IDENTITY));
        assert!(close(&inverse(&scale(0.0, 1.0, 1.0)), &IDENTITY));
    }

    #[test]
    fn ortho_maps_the_window_to_clip_space() {
        let m = ortho(0.0, 100.0, 0.0, 50.0, -1.0, 1.0).unwrap();
        // (100, 50, 0) → (1, 1, 0).
        let x = m[0] * 100.0 + m[12];
        let y = m[5] * 50.0 + m[13];
        assert!((x - 1.0).abs() < 1e-6 && (y - 1.0).abs() < 1e-6);
        assert!(ortho(1.0, 1.0, 0.0, 1.0, 0.0, 1.0).is_err());
    }

    #[test]
    fn stacks_push_pop_and_report_over_and_underflow() {
        let mut s = MatrixStacks::default();
        assert!(matches!(s.pop(0), Err(GlError::StackUnderflow(_))));
        s.multiply(0, &translate(1.0, 0.0, 0.0));
        s.push(0).unwrap();
        s.multiply(0, &translate(1.0, 0.0, 0.0));
        assert_eq!(s.modelview()[12], 2.0);
        s.pop(0).unwrap();
        assert_eq!(s.modelview()[12], 1.0);
        for _ in 1..STACK_DEPTH {
            s.push(0).unwrap();
        }
        assert!(matches!(s.push(0), Err(GlError::StackOverflow(_))));
        s.set_mode(GL_TEXTURE).unwrap();
        s.multiply(3, &scale(2.0, 2.0, 2.0));
        assert_eq!(s.texture(3)[0], 2.0);
        assert_eq!(s.texture(2)[0], 1.0);
        assert!(s.set_mode(GL_TEXTURE_2D).is_err());
    }

    #[test]
    fn rotation_matches_the_gl_definition() {
        // 90° about z takes x to y.
        let m = rotate(90.0, 0.0, 0.0, 2.0);
        assert!((m[1] - 1.0).abs() < 1e-6 && m[0].abs() < 1e-6);
        assert!(close(&rotate(45.0, 0.0, 0.0, 0.0), &IDENTITY));
    }
}
