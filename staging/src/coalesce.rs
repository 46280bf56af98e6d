//! Dirty-range coalescing for buffer uploads.
//!
//! Design decisions:
//! - The ranges are kept sorted and disjoint in a `Vec`; after `clear` the capacity stays, so a
//!   steady stream of `glBufferSubData` calls allocates nothing after warm-up. Insertion finds the
//!   affected run with two binary searches and replaces it in place: O(log n) to find, O(n) to
//!   shift in the worst case, and n stays small because ranges merge.
//! - Overlapping and adjacent ranges always merge. Ranges separated by a gap of at most
//!   `max_gap` bytes merge too (one larger copy is cheaper than two small ones; 0 disables it).
//!   Invariant: consecutive stored ranges are more than `max_gap` bytes apart, so the result does
//!   not depend on insertion order.
//! - Empty ranges are ignored; bounds are `u64` byte offsets into the buffer and nothing here can
//!   overflow (gap sums saturate).

use std::ops::Range;

/// A set of dirty byte ranges of one buffer.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DirtyRanges {
    /// Sorted, disjoint, and more than `max_gap` apart.
    ranges: Vec<Range<u64>>,
    max_gap: u64,
}

impl DirtyRanges {
    /// An empty set that merges only overlapping and adjacent ranges.
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty set that also merges ranges separated by at most `max_gap` bytes.
    pub fn with_max_gap(max_gap: u64) -> Self {
        Self {
            ranges: Vec::new(),
            max_gap,
        }
    }

    /// The gap below which (inclusive) ranges merge.
    pub const fn max_gap(&self) -> u64 {
        self.max_gap
    }

    /// Marks `range` dirty, merging it with every stored range it overlaps, touches or comes
    /// within `max_gap` of.
    pub fn insert(&mut self, range: Range<u64>) {
        if range.is_empty() {
            return;
        }
        let gap = self.max_gap;
        // First stored range that ends close enough to `range.start` to merge (or lies after it).
        let first = self
            .ranges
            .partition_point(|r| r.end.saturating_add(gap) < range.start);
        // One past the last stored range that starts close enough to `range.end` to merge.
        let last = self
            .ranges
            .partition_point(|r| r.start <= range.end.saturating_add(gap));
        if first >= last {
            self.ranges.insert(first, range);
            return;
        }
        let start = range.start.min(self.ranges[first].start);
        let end = range.end.max(self.ranges[last - 1].end);
        self.ranges[first] = start..end;
        self.ranges.drain(first + 1..last);
    }

    /// The merged ranges, in ascending order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = Range<u64>> + '_ {
        self.ranges.iter().cloned()
    }

    /// Number of merged ranges.
    pub fn len(&self) -> usize {
        self.ranges.len()
    }

    /// Whether nothing is dirty.
    pub fn is_empty(&self) -> bool {
        self.ranges.is_empty()
    }

    /// Bytes covered by the merged ranges (bridged gaps included).
    pub fn total_bytes(&self) -> u64 {
        self.ranges.iter().map(|r| r.end - r.start).sum()
    }

    /// Forgets every range, keeping the capacity.
    pub fn clear(&mut self) {
        self.ranges.clear();
    }

    /// Iterates the merged ranges in order and leaves the set empty (capacity kept).
    pub fn drain(&mut self) -> impl Iterator<Item = Range<u64>> + '_ {
        self.ranges.drain(..)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The obvious model: a bitmap of dirty bytes, then runs, then runs closer than the gap.
    fn reference(inserted: &[Range<u64>], size: usize, max_gap: u64) -> Vec<Range<u64>> {
        let mut dirty = vec![false; size];
        for r in inserted {
            for b in r.start..r.end {
                dirty[b as usize] = true;
            }
        }
        let mut runs: Vec<Range<u64>> = Vec::new();
        for (i, &d) in dirty.iter().enumerate() {
            let i = i as u64;
            if !d {
                continue;
            }
            match runs.last_mut() {
                Some(last) if i - last.end <= max_gap => last.end = i + 1,
                _ => runs.push(i..i + 1),
            }
        }
        runs
    }

    #[test]
    fn merges_overlapping_and_adjacent_but_not_apart() {
        let mut d = DirtyRanges::new();
        d.insert(10..20);
        d.insert(30..40);
        d.insert(20..25);
        d.insert(0..0);
        assert_eq!(d.iter().collect::<Vec<_>>(), vec![10..25, 30..40]);
        d.insert(24..31);
        assert_eq!(d.iter().collect::<Vec<_>>(), vec![10..40]);
        assert_eq!(d.total_bytes(), 30);
        d.clear();
        assert!(d.is_empty());
    }

    #[test]
    fn gap_threshold_is_inclusive() {
        let mut d = DirtyRanges::with_max_gap(4);
        d.insert(0..10);
        d.insert(14..20); // gap of 4: merges
        d.insert(25..30); // gap of 5: stays apart
        assert_eq!(d.drain().collect::<Vec<_>>(), vec![0..20, 25..30]);
        assert!(d.is_empty());
    }

    #[test]
    fn saturates_near_the_top_of_the_address_space() {
        let mut d = DirtyRanges::with_max_gap(u64::MAX);
        d.insert(u64::MAX - 1..u64::MAX);
        d.insert(0..1);
        assert_eq!(d.iter().collect::<Vec<_>>(), vec![0..u64::MAX]);
    }

    proptest! {
        #[test]
        fn coalescing_matches_a_bitmap(
            inserted in prop::collection::vec(
                (0u64..200, 0u64..24).prop_map(|(s, l)| s..s + l),
                0..40,
            ),
            max_gap in prop::sample::select(vec![0u64, 1, 2, 3, 7, 16]),
        ) {
            let mut d = DirtyRanges::with_max_gap(max_gap);
            for r in &inserted {
                d.insert(r.clone());
            }
            let got: Vec<_> = d.iter().collect();
            prop_assert_eq!(got, reference(&inserted, 256, max_gap));
        }
    }
}
