//! The small float encodings GL pixel transfer and texture formats use: IEEE half floats, the
//! unsigned 11- and 10-bit floats of `GL_R11F_G11F_B10F`, and the shared-exponent
//! `GL_RGB9_E5`.
//!
//! Design decisions:
//! - Bit-exact conversions written out by hand (no `half` crate): each is a few lines and the
//!   rules are the ones OpenGL 4.6 §2.3.4 states. Float → small float rounds to nearest even,
//!   saturates to the largest finite value... except where the format has infinities, which
//!   GL keeps; NaN stays NaN; negative values go to 0 for the unsigned formats.
//! - `RGB9_E5` follows the GL spec's encoding algorithm (§8.5.2) literally, including the
//!   "max shared exponent" correction step, so encode(decode(x)) = x for every encoding that
//!   the algorithm itself produces.

/// Half float bits → `f32` (exact).
pub fn f16_to_f32(h: u16) -> f32 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exp = i32::from((h >> 10) & 0x1F);
    let mant = f32::from(h & 0x3FF);
    sign * match exp {
        0 => mant * 2f32.powi(-24),
        31 if mant == 0.0 => f32::INFINITY,
        31 => f32::NAN,
        e => (1.0 + mant / 1024.0) * 2f32.powi(e - 15),
    }
}

/// `f32` → half float bits, round to nearest even; overflow becomes infinity.
pub fn f32_to_f16(v: f32) -> u16 {
    let bits = v.to_bits();
    let sign = ((bits >> 16) & 0x8000) as u16;
    if v.is_nan() {
        return sign | 0x7E00;
    }
    small_float(v.abs(), 5, 10).map_or(sign | 0x7C00, |m| sign | m)
}

/// A non-negative finite-or-infinite `v` as an unsigned float with `exp_bits` exponent and
/// `mant_bits` mantissa bits (bias 2^(e-1) - 1), round to nearest even. `None` when it
/// overflows to infinity.
fn small_float(v: f32, exp_bits: u32, mant_bits: u32) -> Option<u16> {
    let bias = (1i32 << (exp_bits - 1)) - 1;
    let max_exp = (1i32 << exp_bits) - 1; // all ones: inf/NaN
    if v == 0.0 {
        return Some(0);
    }
    if v.is_infinite() {
        return None;
    }
    // v = m × 2^e with m in [1, 2).
    let e = v.log2().floor() as i32;
    let e = if 2f32.powi(e) > v {
        e - 1
    } else if 2f32.powi(e + 1) <= v {
        e + 1
    } else {
        e
    };
    let biased = e + bias;
    let (exp_field, scaled) = if biased <= 0 {
        // Subnormal: v / 2^(1 - bias - mant_bits).
        (0, f64::from(v) * 2f64.powi(bias - 1 + mant_bits as i32))
    } else {
        (
            biased,
            (f64::from(v) / 2f64.powi(e) - 1.0) * f64::from(1u32 << mant_bits),
        )
    };
    let mut mant = round_even(scaled);
    let mut exp_field = exp_field;
    if mant >= u64::from(1u32 << mant_bits) {
        mant -= u64::from(1u32 << mant_bits);
        exp_field += 1;
        if exp_field == 0 {
            exp_field = 1;
        }
    }
    if exp_field >= max_exp {
        return None;
    }
    Some(((exp_field as u16) << mant_bits) | mant as u16)
}

fn round_even(x: f64) -> u64 {
    let f = x.floor();
    let diff = x - f;
    let f = f as u64;
    if diff > 0.5 || (diff == 0.5 && f % 2 == 1) {
        f + 1
    } else {
        f
    }
}

/// An unsigned small float's bits → `f32` (exact).
fn small_to_f32(bits: u32, exp_bits: u32, mant_bits: u32) -> f32 {
    let bias = (1i32 << (exp_bits - 1)) - 1;
    let exp = ((bits >> mant_bits) & ((1 << exp_bits) - 1)) as i32;
    let mant = (bits & ((1 << mant_bits) - 1)) as f32;
    let one = (1u32 << mant_bits) as f32;
    if exp == 0 {
        mant / one * 2f32.powi(1 - bias)
    } else if exp == (1 << exp_bits) - 1 {
        if mant == 0.0 {
            f32::INFINITY
        } else {
            f32::NAN
        }
    } else {
        (1.0 + mant / one) * 2f32.powi(exp - bias)
    }
}

/// `f32` → unsigned float with `exp_bits`/`mant_bits` (negative → 0, NaN kept, overflow → inf).
fn to_unsigned_small(v: f32, exp_bits: u32, mant_bits: u32) -> u32 {
    let inf = ((1u32 << exp_bits) - 1) << mant_bits;
    if v.is_nan() {
        return inf | 1;
    }
    if v <= 0.0 {
        return 0;
    }
    small_float(v, exp_bits, mant_bits).map_or(inf, u32::from)
}

/// `f32` → 11-bit unsigned float (5-bit exponent, 6-bit mantissa).
pub fn f32_to_uf11(v: f32) -> u32 {
    to_unsigned_small(v, 5, 6)
}

/// `f32` → 10-bit unsigned float (5-bit exponent, 5-bit mantissa).
pub fn f32_to_uf10(v: f32) -> u32 {
    to_unsigned_small(v, 5, 5)
}

/// 11-bit unsigned float → `f32`.
pub fn uf11_to_f32(bits: u32) -> f32 {
    small_to_f32(bits & 0x7FF, 5, 6)
}

/// 10-bit unsigned float → `f32`.
pub fn uf10_to_f32(bits: u32) -> f32 {
    small_to_f32(bits & 0x3FF, 5, 5)
}

/// `GL_UNSIGNED_INT_10F_11F_11F_REV`: R in bits 0–10, G in 11–21, B in 22–31.
pub fn pack_r11g11b10(rgb: [f32; 3]) -> u32 {
    f32_to_uf11(rgb[0]) | (f32_to_uf11(rgb[1]) << 11) | (f32_to_uf10(rgb[2]) << 22)
}

/// Inverse of [`pack_r11g11b10`].
pub fn unpack_r11g11b10(v: u32) -> [f32; 3] {
    [
        uf11_to_f32(v & 0x7FF),
        uf11_to_f32((v >> 11) & 0x7FF),
        uf10_to_f32(v >> 22),
    ]
}

const E5_BIAS: i32 = 15;
const E5_MANT: i32 = 9;
const E5_MAX: f32 = 65408.0; // (2^9 - 1) / 2^9 × 2^(31 - 15)

/// `GL_UNSIGNED_INT_5_9_9_9_REV` (GL 4.6 §8.5.2): R in bits 0–8, G 9–17, B 18–26, the shared
/// exponent in 27–31.
pub fn pack_rgb9e5(rgb: [f32; 3]) -> u32 {
    let clamp = |v: f32| {
        if v.is_nan() {
            0.0
        } else {
            v.clamp(0.0, E5_MAX)
        }
    };
    let [r, g, b] = rgb.map(clamp);
    let max = r.max(g).max(b);
    let floor_log2 = if max > 0.0 {
        max.log2().floor() as i32
    } else {
        -E5_BIAS - 1
    };
    let mut exp = (-E5_BIAS - 1).max(floor_log2) + 1 + E5_BIAS;
    let mut scale = 2f64.powi(exp - E5_BIAS - E5_MANT);
    let max_s = (f64::from(max) / scale + 0.5).floor();
    if max_s >= f64::from(1u32 << E5_MANT) {
        exp += 1;
        scale *= 2.0;
    }
    let q = |v: f32| ((f64::from(v) / scale + 0.5).floor() as u32).min(511);
    q(r) | (q(g) << 9) | (q(b) << 18) | ((exp as u32) << 27)
}

/// Inverse of [`pack_rgb9e5`].
pub fn unpack_rgb9e5(v: u32) -> [f32; 3] {
    let exp = (v >> 27) as i32;
    let scale = 2f32.powi(exp - E5_BIAS - E5_MANT);
    [v & 0x1FF, (v >> 9) & 0x1FF, (v >> 18) & 0x1FF].map(|m| m as f32 * scale)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_finite_half_round_trips() {
        for h in 0..=u16::MAX {
            let f = f16_to_f32(h);
            if f.is_nan() {
                assert!(f32_to_f16(f) & 0x7C00 == 0x7C00 && f32_to_f16(f) & 0x3FF != 0);
                continue;
            }
            assert_eq!(f32_to_f16(f), h, "{h:#06x} = {f}");
        }
    }

    #[test]
    fn halves_round_to_nearest_even_and_overflow_to_infinity() {
        assert_eq!(f32_to_f16(1.0), 0x3C00);
        assert_eq!(f32_to_f16(-2.0), 0xC000);
        // 1 + 2^-11 lies halfway between 1 and 1 + 2^-10: ties to even (1.0).
        assert_eq!(f32_to_f16(1.0 + 2f32.powi(-11)), 0x3C00);
        assert_eq!(f32_to_f16(1.0 + 3.0 * 2f32.powi(-11)), 0x3C02);
        assert_eq!(f32_to_f16(65520.0), 0x7C00);
        assert_eq!(f32_to_f16(65504.0), 0x7BFF);
        assert_eq!(f32_to_f16(2f32.powi(-24)), 0x0001);
    }

    #[test]
    fn every_small_float_round_trips() {
        for b in 0..0x7C0u32 {
            assert_eq!(f32_to_uf11(uf11_to_f32(b)), b, "uf11 {b:#x}");
        }
        for b in 0..0x3E0u32 {
            assert_eq!(f32_to_uf10(uf10_to_f32(b)), b, "uf10 {b:#x}");
        }
        assert_eq!(f32_to_uf11(-1.0), 0);
        assert_eq!(uf11_to_f32(f32_to_uf11(1.0)), 1.0);
        assert_eq!(f32_to_uf11(1e9), 0x7C0, "overflow is infinity");
        assert_eq!(
            unpack_r11g11b10(pack_r11g11b10([1.0, 0.5, 2.0])),
            [1.0, 0.5, 2.0]
        );
    }

    #[test]
    fn rgb9e5_encodes_per_the_spec() {
        // 1.0 = 256 × 2^(16 - 15 - 9) → exponent field 16, mantissa 256.
        assert_eq!(pack_rgb9e5([1.0, 0.0, 0.0]), 256 | (16 << 27));
        assert_eq!(
            unpack_rgb9e5(pack_rgb9e5([1.0, 0.5, 0.25])),
            [1.0, 0.5, 0.25]
        );
        assert_eq!(unpack_rgb9e5(pack_rgb9e5([-1.0, f32::NAN, 0.0])), [0.0; 3]);
        assert_eq!(unpack_rgb9e5(pack_rgb9e5([1e9, 0.0, 0.0]))[0], E5_MAX);
        // Every encoding with a maximal mantissa in some channel round-trips.
        for exp in 1..31u32 {
            let v = 511 | (3 << 9) | (exp << 27);
            assert_eq!(pack_rgb9e5(unpack_rgb9e5(v)), v, "exp {exp}");
        }
    }
}
