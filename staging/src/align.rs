//! The copy alignment rule for staging offsets.
//!
//! Design decisions:
//! - One offset must satisfy several constraints at once: Vulkan requires the `bufferOffset` of a
//!   buffer↔image copy to be a multiple of 4 and of the texel block size; the device prefers
//!   multiples of `optimalBufferCopyOffsetAlignment`; flushing a non-coherent mapping works in
//!   units of `nonCoherentAtomSize`; and the house rule is 256. The smallest
//!   offset that satisfies all of them is a multiple of their **least common multiple**, not of
//!   their maximum: texel blocks of 3, 6 or 12 bytes (RGB8, RGB16, RGB32F) are not powers of
//!   two, and max(256, 3) = 256 is not a multiple of 3. lcm(256, 3) = 768 is.
//! - A device limit of 0 means "no constraint" (treated as 1) rather than a division by zero:
//!   drivers have reported zeros for limits they do not care about.
//! - `align_up` works for any non-zero alignment (`%`, not a bit mask) and reports overflow
//!   instead of wrapping: offsets near `u64::MAX` come from application-controlled sizes.

use std::num::NonZeroU64;

use crate::error::StagingError;

/// Vulkan: the `bufferOffset` of a buffer↔image copy must be a multiple of 4
/// (VUID-VkBufferImageCopy-bufferOffset, depth/stencil) and of the texel block size.
pub const VK_COPY_OFFSET_MULTIPLE: u64 = 4;

/// ArenaGL's own floor for staging offsets: keeps every copy source on a
/// boundary that every driver we know of copies from at full speed.
pub const HOUSE_COPY_ALIGNMENT: u64 = 256;

/// Greatest common divisor (Euclid). `gcd(0, b) == b`.
pub fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// Least common multiple of two alignments. Zero is treated as 1 ("no constraint").
///
/// # Errors
/// [`StagingError::Overflow`] when the result does not fit in 64 bits.
pub fn lcm(a: u64, b: u64) -> Result<u64, StagingError> {
    let (a, b) = (a.max(1), b.max(1));
    (a / gcd(a, b)).checked_mul(b).ok_or(StagingError::Overflow)
}

/// Rounds `offset` up to the next multiple of `align`, which need not be a power of two.
///
/// # Errors
/// [`StagingError::Overflow`] when the rounded offset does not fit in 64 bits.
pub fn align_up(offset: u64, align: NonZeroU64) -> Result<u64, StagingError> {
    match offset % align.get() {
        0 => Ok(offset),
        rem => offset
            .checked_add(align.get() - rem)
            .ok_or(StagingError::Overflow),
    }
}

/// Whether `offset` is a multiple of `align`.
pub fn is_aligned(offset: u64, align: NonZeroU64) -> bool {
    offset % align.get() == 0
}

/// The device limits that constrain staging offsets (copied by `memory/` from
/// `VkPhysicalDeviceLimits`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct CopyLimits {
    /// `VkPhysicalDeviceLimits::optimalBufferCopyOffsetAlignment`.
    pub optimal_buffer_copy_offset_alignment: u64,
    /// `VkPhysicalDeviceLimits::nonCoherentAtomSize`.
    pub non_coherent_atom_size: u64,
}

impl CopyLimits {
    /// The alignment for staging offsets of copies of texel blocks of `texel_block_bytes` bytes:
    /// lcm(4, 256, optimalBufferCopyOffsetAlignment, texel block size, nonCoherentAtomSize).
    /// Pass 1 for buffer→buffer copies (no texel constraint).
    ///
    /// The offsets are relative to the start of a staging block; `memory/` must place every block
    /// at a memory offset that is a multiple of `nonCoherentAtomSize` for the flush rule to hold
    /// in device memory as well.
    ///
    /// # Errors
    /// [`StagingError::Overflow`] when the lcm does not fit in 64 bits (only absurd limits).
    pub fn copy_alignment(&self, texel_block_bytes: u32) -> Result<NonZeroU64, StagingError> {
        let mut align = lcm(VK_COPY_OFFSET_MULTIPLE, HOUSE_COPY_ALIGNMENT)?;
        align = lcm(align, self.optimal_buffer_copy_offset_alignment)?;
        align = lcm(align, u64::from(texel_block_bytes))?;
        align = lcm(align, self.non_coherent_atom_size)?;
        NonZeroU64::new(align).ok_or(StagingError::Internal("lcm of non-zero values is zero"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn nz(v: u64) -> NonZeroU64 {
        NonZeroU64::new(v).unwrap_or(NonZeroU64::MIN)
    }

    #[test]
    fn lcm_handles_texel_sizes_that_are_not_powers_of_two() {
        let limits = CopyLimits {
            optimal_buffer_copy_offset_alignment: 64,
            non_coherent_atom_size: 64,
        };
        assert_eq!(limits.copy_alignment(1).map(NonZeroU64::get), Ok(256));
        assert_eq!(limits.copy_alignment(4).map(NonZeroU64::get), Ok(256));
        assert_eq!(limits.copy_alignment(3).map(NonZeroU64::get), Ok(768));
        assert_eq!(limits.copy_alignment(6).map(NonZeroU64::get), Ok(768));
        assert_eq!(limits.copy_alignment(12).map(NonZeroU64::get), Ok(768));
        assert_eq!(limits.copy_alignment(16).map(NonZeroU64::get), Ok(256));
        let big_atom = CopyLimits {
            optimal_buffer_copy_offset_alignment: 1,
            non_coherent_atom_size: 1024,
        };
        assert_eq!(big_atom.copy_alignment(3).map(NonZeroU64::get), Ok(3072));
    }

    #[test]
    fn zero_limits_mean_no_constraint() {
        assert_eq!(
            CopyLimits::default().copy_alignment(0).map(NonZeroU64::get),
            Ok(256)
        );
    }

    #[test]
    fn align_up_reports_overflow_instead_of_wrapping() {
        assert_eq!(align_up(u64::MAX, nz(256)), Err(StagingError::Overflow));
        assert_eq!(align_up(u64::MAX - 2, nz(3)), Ok(u64::MAX));
        assert_eq!(align_up(u64::MAX, nz(1)), Ok(u64::MAX));
        assert_eq!(lcm(u64::MAX, u64::MAX - 1), Err(StagingError::Overflow));
    }

    #[test]
    fn align_up_examples() {
        assert_eq!(align_up(0, nz(768)), Ok(0));
        assert_eq!(align_up(1, nz(768)), Ok(768));
        assert_eq!(align_up(768, nz(768)), Ok(768));
        assert_eq!(align_up(769, nz(768)), Ok(1536));
    }

    proptest! {
        #[test]
        fn align_up_is_the_least_aligned_offset_not_below(
            offset in 0u64..1 << 40,
            align in 1u64..5000,
        ) {
            let a = nz(align);
            let up = align_up(offset, a)?;
            prop_assert!(is_aligned(up, a));
            prop_assert!(up >= offset);
            prop_assert!(up - offset < align);
        }

        #[test]
        fn copy_alignment_is_a_multiple_of_every_constraint(
            optimal in prop::sample::select(vec![0u64, 1, 4, 16, 64, 128, 256, 512]),
            atom in prop::sample::select(vec![0u64, 1, 64, 128, 256]),
            texel in prop::sample::select(vec![1u32, 2, 3, 4, 6, 8, 12, 16]),
        ) {
            let limits = CopyLimits {
                optimal_buffer_copy_offset_alignment: optimal,
                non_coherent_atom_size: atom,
            };
            let align = limits.copy_alignment(texel)?.get();
            let constraints = [4, 256, optimal.max(1), atom.max(1), u64::from(texel)];
            for c in constraints {
                prop_assert_eq!(align % c, 0, "{} is not a multiple of {}", align, c);
            }
            // Least: no proper divisor of `align` satisfies every constraint.
            for d in 1..align {
                if align % d == 0 {
                    let ok = constraints.iter().all(|c| d % c == 0);
                    prop_assert!(!ok, "{} is a smaller common multiple than {}", d, align);
                }
            }
        }
    }
}
