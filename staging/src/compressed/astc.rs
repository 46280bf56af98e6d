//! ASTC LDR blocks (KHR_texture_compression_astc_ldr): 128-bit blocks of the fourteen 2D
//! footprints from 4×4 to 12×12, decoded to RGBA8 by the `astc-decode` crate.
//!
//! Design decisions:
//! - The crate follows the specification's LDR decode: 16-bit interpolation of the endpoints,
//!   rounded to 8 bits; an illegal block (a reserved block mode, too many weights, an HDR
//!   endpoint mode or void extent) decodes to the error colour, opaque magenta, as the
//!   specification says an LDR decoder must.
//! - sRGB blocks decode the same way; the storage (`R8G8B8A8_SRGB`) applies the transfer
//!   function on sampling. The specification expands sRGB endpoints with 0x80 instead of by
//!   replication, which moves a decoded value by at most one step of 8 bits.

/// The fourteen 2D block footprints (width, height), in the order of GL's internal formats
/// (`GL_COMPRESSED_RGBA_ASTC_4x4_KHR` … `12x12`) and of Vulkan's `ASTC_*_BLOCK` formats.
pub const ASTC_FOOTPRINTS: [[u8; 2]; 14] = [
    [4, 4],
    [5, 4],
    [5, 5],
    [6, 5],
    [6, 6],
    [8, 5],
    [8, 6],
    [8, 8],
    [10, 5],
    [10, 6],
    [10, 8],
    [10, 10],
    [12, 10],
    [12, 12],
];

/// Decodes one 16-byte block of `footprint` (width, height) into RGBA8 texels, texel (x, y) at
/// `width·y + x` of `out`. A short `block` decodes as the error colour.
pub(super) fn decode(block: &[u8], footprint: [u8; 2], out: &mut [u8]) {
    let [w, h] = footprint.map(u32::from);
    let Some(bytes) = block.get(..16).and_then(|b| <[u8; 16]>::try_from(b).ok()) else {
        fill_error(w * h, out);
        return;
    };
    let footprint = astc_decode::Footprint::new(w.max(1), h.max(1));
    astc_decode::astc_decode_block(&bytes, footprint, |x, y, rgba| {
        let at = ((y * w + x) * 4) as usize;
        if let Some(dst) = out.get_mut(at..at + 4) {
            dst.copy_from_slice(&rgba);
        }
    });
}

/// `texels` of the error colour.
fn fill_error(texels: u32, out: &mut [u8]) {
    for dst in out.chunks_exact_mut(4).take(texels as usize) {
        dst.copy_from_slice(&ERROR);
    }
}

/// The LDR error colour: opaque magenta.
const ERROR: [u8; 4] = [0xFF, 0, 0xFF, 0xFF];

#[cfg(test)]
mod tests {
    use super::*;

    /// A void-extent LDR block (constant colour, no extent) of UNORM16 `rgba`.
    fn void_extent(rgba: [u16; 4]) -> [u8; 16] {
        let mut b = [0u8; 16];
        // Block mode 0x1FC, LDR, reserved bits 11, all extent coordinates ones.
        b[..8].copy_from_slice(&0xFFFF_FFFF_FFFF_FDFCu64.to_le_bytes());
        for (c, v) in rgba.iter().enumerate() {
            b[8 + 2 * c..10 + 2 * c].copy_from_slice(&v.to_le_bytes());
        }
        b
    }

    #[test]
    fn void_extent_blocks_fill_the_footprint_with_their_colour() {
        for footprint in [[4, 4], [8, 8], [12, 10]] {
            let block = void_extent([0xFFFF, 0x8080, 0, 0x4040]);
            let mut out = vec![0u8; 12 * 12 * 4];
            decode(&block, footprint, &mut out);
            let texels = usize::from(footprint[0]) * usize::from(footprint[1]);
            for t in out.chunks_exact(4).take(texels) {
                assert_eq!(t, [255, 128, 0, 64]);
            }
            assert!(out[texels * 4..].iter().all(|&v| v == 0));
        }
    }

    #[test]
    fn reserved_block_modes_decode_to_the_error_colour() {
        // Block mode 0 is reserved.
        let mut out = [0u8; 16 * 4];
        decode(&[0; 16], [4, 4], &mut out);
        assert!(out.chunks_exact(4).all(|t| t == ERROR));
        decode(&[0; 8], [4, 4], &mut out);
        assert!(out.chunks_exact(4).all(|t| t == ERROR));
    }

    #[test]
    fn arbitrary_blocks_never_panic() {
        // A xorshift stream of blocks over every footprint: each decodes to something.
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut out = [0u8; 12 * 12 * 4];
        for [w, h] in ASTC_FOOTPRINTS {
            for _ in 0..4000 {
                let mut block = [0u8; 16];
                for half in block.chunks_exact_mut(8) {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    half.copy_from_slice(&state.to_le_bytes());
                }
                decode(&block, [w, h], &mut out);
            }
        }
    }
}
