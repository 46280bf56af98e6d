//! Allocation categories and a fixed-size per-category map.
//!
//! Design decisions:
//! - Five allocatable categories. "Slack" is a share of the budget, not a category: nothing is
//!   ever allocated *as* slack; it is the headroom every category may borrow.
//! - Anything that is neither a texture, a buffer, a render target nor staging memory (pipeline
//!   caches, shader modules, descriptor pools, query pools) is accounted as [`Category::Pipeline`].
//! - [`CategoryMap`] is an array indexed by the enum, so per-frame usage snapshots are `Copy`,
//!   allocation-free and cheap to hand from the memory manager to the pressure monitor.

use std::fmt;
use std::ops::{Index, IndexMut};

/// What the bytes are for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Category {
    /// Sampled textures (the only category that can be demoted by dropping mip levels).
    Texture,
    /// Vertex, index, uniform and storage buffers.
    Buffer,
    /// Colour and depth attachments, renderbuffers, the internal render-scale targets.
    RenderTarget,
    /// Staging arenas, overflow blocks and readback memory.
    Staging,
    /// Pipelines, shader modules, descriptor pools and every other driver object.
    Pipeline,
}

impl Category {
    /// Number of categories.
    pub const COUNT: usize = 5;
    /// Every category, in index order.
    pub const ALL: [Category; Category::COUNT] = [
        Category::Texture,
        Category::Buffer,
        Category::RenderTarget,
        Category::Staging,
        Category::Pipeline,
    ];

    /// The index of this category in a [`CategoryMap`].
    pub const fn index(self) -> usize {
        self as usize
    }

    /// A short name for reports and dashboards.
    pub const fn name(self) -> &'static str {
        match self {
            Category::Texture => "textures",
            Category::Buffer => "buffers",
            Category::RenderTarget => "render-targets",
            Category::Staging => "staging",
            Category::Pipeline => "pipelines",
        }
    }
}

impl fmt::Display for Category {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One value per [`Category`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct CategoryMap<T>([T; Category::COUNT]);

impl<T> CategoryMap<T> {
    /// A map from values in [`Category::ALL`] order.
    pub const fn from_array(values: [T; Category::COUNT]) -> Self {
        CategoryMap(values)
    }

    /// `(category, value)` pairs in [`Category::ALL`] order.
    pub fn iter(&self) -> impl Iterator<Item = (Category, &T)> {
        Category::ALL.into_iter().zip(self.0.iter())
    }

    /// The values in [`Category::ALL`] order.
    pub fn values(&self) -> &[T; Category::COUNT] {
        &self.0
    }
}

impl<T> Index<Category> for CategoryMap<T> {
    type Output = T;
    fn index(&self, category: Category) -> &T {
        &self.0[category.index()]
    }
}

impl<T> IndexMut<Category> for CategoryMap<T> {
    fn index_mut(&mut self, category: Category) -> &mut T {
        &mut self.0[category.index()]
    }
}

/// Bytes in use per category: what the memory manager feeds to the pressure monitor.
pub type Usage = CategoryMap<u64>;

impl CategoryMap<u64> {
    /// The sum over all categories, saturating at `u64::MAX` (which is over any budget, so an
    /// overflowing sum reads as "over" rather than wrapping to "nearly empty").
    pub fn total(&self) -> u64 {
        self.0
            .iter()
            .fold(0u64, |sum, &bytes| sum.saturating_add(bytes))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_order_matches_all() {
        for (i, category) in Category::ALL.into_iter().enumerate() {
            assert_eq!(category.index(), i);
        }
    }

    #[test]
    fn total_saturates_instead_of_wrapping() {
        let usage = Usage::from_array([u64::MAX, 1, 0, 0, 0]);
        assert_eq!(usage.total(), u64::MAX);
        let usage = Usage::from_array([1, 2, 3, 4, 5]);
        assert_eq!(usage.total(), 15);
    }
}
