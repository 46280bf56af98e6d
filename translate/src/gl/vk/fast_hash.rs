//! A fast hasher for the translator's per-draw caches (the pipeline cache first) and the GL
//! name tables a draw looks objects up in (`context::names`).
//!
//! Design decisions:
//! - The standard library's SipHash resists hash flooding and costs about as much as the rest
//!   of a pipeline lookup together: a `PipelineKey` is some hundred small fields, each a call
//!   into SipHash. The keys here come from GL state the application sets, not from an attacker
//!   who gains by colliding them, so a multiply-rotate hash word by word (the one rustc uses for
//!   its own tables) is enough.
//! - `finish` rotates the state so that the multiply's well-mixed high bits reach the low bits
//!   the table picks its bucket with.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A `HashMap` hashed with [`FastHasher`].
pub(crate) type FastHashMap<K, V> = HashMap<K, V, BuildHasherDefault<FastHasher>>;

/// The multiplier of rustc's FxHasher (an odd constant with well-spread bits).
const SEED: u64 = 0xf135_7aea_2e62_a9c5;

/// A word-at-a-time multiply-rotate hasher (not flood-resistant; see the module docs).
#[derive(Default, Clone, Copy)]
pub(crate) struct FastHasher {
    state: u64,
}

impl FastHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        self.state = (self.state.rotate_left(5) ^ word).wrapping_mul(SEED);
    }
}

impl Hasher for FastHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.add(u64::from_le_bytes([
                c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7],
            ]));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut word = [0u8; 8];
            word[..rest.len()].copy_from_slice(rest);
            // The length tells "ab" + "" from "a" + "b" apart.
            self.add(u64::from_le_bytes(word) ^ ((rest.len() as u64) << 59));
        }
    }

    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }

    #[inline]
    fn write_u16(&mut self, i: u16) {
        self.add(u64::from(i));
    }

    #[inline]
    fn write_u32(&mut self, i: u32) {
        self.add(u64::from(i));
    }

    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }

    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }

    #[inline]
    fn finish(&self) -> u64 {
        self.state.rotate_left(26)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::{BuildHasher, Hash};

    fn hash<T: Hash + ?Sized>(v: &T) -> u64 {
        BuildHasherDefault::<FastHasher>::default().hash_one(v)
    }

    #[test]
    fn equal_values_hash_equal_and_neighbours_differ() {
        assert_eq!(hash(&(1u32, vec![2u8, 3])), hash(&(1u32, vec![2u8, 3])));
        assert_ne!(hash(&1u32), hash(&2u32));
        assert_ne!(hash(&(1u32, 2u32)), hash(&(2u32, 1u32)));
        assert_ne!(hash(&"ab"), hash(&"ba"));
        assert_ne!(hash(&[1u8; 9][..]), hash(&[1u8; 10][..]));
    }

    #[test]
    fn small_keys_spread_over_the_low_bits() {
        // A table of 64 buckets picks by the low 6 bits: 256 consecutive keys must use most.
        let buckets: std::collections::HashSet<u64> = (0u32..256).map(|i| hash(&i) & 63).collect();
        assert!(buckets.len() > 48, "{} buckets of 64", buckets.len());
    }
}
