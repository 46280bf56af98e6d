//! Column-major 4×4 matrices as GL's `glUniformMatrix4fv` takes them (not transposed), and the
//! few constructors the scenes and the demo need. Deliberately tiny: no linear-algebra crate for
//! five functions.

/// A column-major 4×4 matrix: element (row r, column c) is at `c * 4 + r`.
pub type Mat4 = [f32; 16];

/// The identity.
pub const IDENTITY: Mat4 = [
    1.0, 0.0, 0.0, 0.0, //
    0.0, 1.0, 0.0, 0.0, //
    0.0, 0.0, 1.0, 0.0, //
    0.0, 0.0, 0.0, 1.0,
];

/// `a × b`.
pub fn mul(a: &Mat4, b: &Mat4) -> Mat4 {
    let mut out = [0.0; 16];
    for c in 0..4 {
        for r in 0..4 {
            out[c * 4 + r] = (0..4).map(|k| a[k * 4 + r] * b[c * 4 + k]).sum();
        }
    }
    out
}

/// A translation.
pub fn translate(x: f32, y: f32, z: f32) -> Mat4 {
    let mut m = IDENTITY;
    m[12] = x;
    m[13] = y;
    m[14] = z;
    m
}

/// A scale.
pub fn scale(x: f32, y: f32, z: f32) -> Mat4 {
    let mut m = IDENTITY;
    m[0] = x;
    m[5] = y;
    m[10] = z;
    m
}

/// A rotation by `radians` about +Z.
pub fn rotate_z(radians: f32) -> Mat4 {
    let (s, c) = radians.sin_cos();
    let mut m = IDENTITY;
    m[0] = c;
    m[1] = s;
    m[4] = -s;
    m[5] = c;
    m
}

/// A right-handed perspective projection onto GL's clip space (depth −1..1).
pub fn perspective(fov_y_radians: f32, aspect: f32, near: f32, far: f32) -> Mat4 {
    let f = 1.0 / (fov_y_radians / 2.0).tan();
    let mut m = [0.0; 16];
    m[0] = f / aspect;
    m[5] = f;
    m[10] = (far + near) / (near - far);
    m[11] = -1.0;
    m[14] = 2.0 * far * near / (near - far);
    m
}

/// A view matrix looking from `eye` at `target` with +Y up.
pub fn look_at(eye: [f32; 3], target: [f32; 3]) -> Mat4 {
    let sub = |a: [f32; 3], b: [f32; 3]| [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
    let cross = |a: [f32; 3], b: [f32; 3]| {
        [
            a[1] * b[2] - a[2] * b[1],
            a[2] * b[0] - a[0] * b[2],
            a[0] * b[1] - a[1] * b[0],
        ]
    };
    let dot = |a: [f32; 3], b: [f32; 3]| a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
    let normalize = |a: [f32; 3]| {
        let len = dot(a, a).sqrt().max(f32::MIN_POSITIVE);
        [a[0] / len, a[1] / len, a[2] / len]
    };
    let f = normalize(sub(target, eye));
    let s = normalize(cross(f, [0.0, 1.0, 0.0]));
    let u = cross(s, f);
    [
        s[0],
        u[0],
        -f[0],
        0.0, //
        s[1],
        u[1],
        -f[1],
        0.0, //
        s[2],
        u[2],
        -f[2],
        0.0, //
        -dot(s, eye),
        -dot(u, eye),
        dot(f, eye),
        1.0,
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn apply(m: &Mat4, v: [f32; 4]) -> [f32; 4] {
        let mut out = [0.0; 4];
        for (r, o) in out.iter_mut().enumerate() {
            *o = (0..4).map(|c| m[c * 4 + r] * v[c]).sum();
        }
        out
    }

    #[test]
    fn translate_then_scale_compose_right_to_left() {
        let m = mul(&translate(1.0, 2.0, 3.0), &scale(2.0, 2.0, 2.0));
        assert_eq!(apply(&m, [1.0, 1.0, 1.0, 1.0]), [3.0, 4.0, 5.0, 1.0]);
    }

    #[test]
    fn look_at_puts_the_target_on_the_negative_z_axis() {
        let v = apply(
            &look_at([0.0, 0.0, 5.0], [0.0, 0.0, 0.0]),
            [0.0, 0.0, 0.0, 1.0],
        );
        assert!((v[2] + 5.0).abs() < 1e-5 && v[0].abs() < 1e-5 && v[1].abs() < 1e-5);
    }
}
