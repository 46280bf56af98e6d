//! Generational handles and the slab that issues them.
//!
//! A handle packs `index | generation | owner` into one `u64`: 24 bits of slot index, 24 bits of
//! generation, 16 bits naming the manager that issued it. Looking a handle up checks all three,
//! so a stale handle (its object retired, the slot perhaps reused) or a handle from another
//! manager is an error value, never another object. Generations start at 1, so the all-zero
//! word is never valid and can stand for GL's name 0. When a slot's generation would wrap, the
//! slot is retired for good instead of reused: no handle ever issued can match a later object,
//! which is what lets caches key on the raw handle value.

#![deny(unsafe_code, clippy::unwrap_used)]

use std::fmt;
use std::marker::PhantomData;

use crate::error::{MemoryError, Result};

const INDEX_BITS: u32 = 24;
const GENERATION_BITS: u32 = 24;
const INDEX_MASK: u64 = (1 << INDEX_BITS) - 1;
const GENERATION_MASK: u64 = (1 << GENERATION_BITS) - 1;
/// The largest slot index a handle can carry.
pub const MAX_INDEX: u32 = INDEX_MASK as u32;
/// The largest generation; a slot that reaches it is never reused.
pub const MAX_GENERATION: u32 = GENERATION_MASK as u32;

/// A typed generational handle. `T` is a marker naming the kind of object.
pub struct Handle<T> {
    raw: u64,
    _kind: PhantomData<fn() -> T>,
}

impl<T> Handle<T> {
    /// Packs the three fields. `index` and `generation` are masked to their widths.
    pub fn from_parts(index: u32, generation: u32, owner: u16) -> Self {
        let raw = (u64::from(index) & INDEX_MASK)
            | ((u64::from(generation) & GENERATION_MASK) << INDEX_BITS)
            | (u64::from(owner) << (INDEX_BITS + GENERATION_BITS));
        Self::from_raw(raw)
    }

    /// Rebuilds a handle from [`Handle::to_raw`]; any value is accepted and checked on lookup.
    pub fn from_raw(raw: u64) -> Self {
        Self {
            raw,
            _kind: PhantomData,
        }
    }

    /// The packed word, for use as a cache key or a GL-visible name.
    pub fn to_raw(self) -> u64 {
        self.raw
    }

    /// The slot index.
    pub fn index(self) -> u32 {
        (self.raw & INDEX_MASK) as u32
    }

    /// The generation the slot had when this handle was issued.
    pub fn generation(self) -> u32 {
        ((self.raw >> INDEX_BITS) & GENERATION_MASK) as u32
    }

    /// The id of the manager that issued the handle.
    pub fn owner(self) -> u16 {
        (self.raw >> (INDEX_BITS + GENERATION_BITS)) as u16
    }
}

impl<T> Clone for Handle<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for Handle<T> {}
impl<T> PartialEq for Handle<T> {
    fn eq(&self, other: &Self) -> bool {
        self.raw == other.raw
    }
}
impl<T> Eq for Handle<T> {}
impl<T> std::hash::Hash for Handle<T> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.raw.hash(state);
    }
}
impl<T> fmt::Debug for Handle<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Handle({}v{}@{})",
            self.index(),
            self.generation(),
            self.owner()
        )
    }
}

struct Slot<E> {
    generation: u32,
    value: Option<E>,
}

/// Storage that hands out [`Handle`]s and validates them on every access.
pub struct Slab<K, E> {
    slots: Vec<Slot<E>>,
    free: Vec<u32>,
    owner: u16,
    len: usize,
    _kind: PhantomData<fn() -> K>,
}

impl<K, E> Slab<K, E> {
    /// An empty slab whose handles carry `owner`.
    pub fn new(owner: u16) -> Self {
        Self {
            slots: Vec::new(),
            free: Vec::new(),
            owner,
            len: 0,
            _kind: PhantomData,
        }
    }

    /// Fails with `OutOfHostMemory` when no slot is free and the index space is used up;
    /// callers check this before creating the object they will insert, so a full slab never
    /// strands a device object.
    pub fn check_room(&self) -> Result<()> {
        if !self.free.is_empty() || self.slots.len() <= MAX_INDEX as usize {
            Ok(())
        } else {
            Err(MemoryError::OutOfHostMemory)
        }
    }

    /// Stores `value` and returns its handle.
    pub fn insert(&mut self, value: E) -> Result<Handle<K>> {
        let index = match self.free.pop() {
            Some(index) => index,
            None => {
                let index = u32::try_from(self.slots.len())
                    .ok()
                    .filter(|&i| i <= MAX_INDEX)
                    .ok_or(MemoryError::OutOfHostMemory)?;
                self.slots.push(Slot {
                    generation: 1,
                    value: None,
                });
                index
            }
        };
        let slot = self
            .slots
            .get_mut(index as usize)
            .ok_or(MemoryError::Internal(
                "free list names a slot that does not exist",
            ))?;
        if slot.value.is_some() {
            return Err(MemoryError::Internal("free list names an occupied slot"));
        }
        slot.value = Some(value);
        self.len += 1;
        Ok(Handle::from_parts(index, slot.generation, self.owner))
    }

    fn slot(&self, handle: Handle<K>) -> Result<&Slot<E>> {
        if handle.owner() != self.owner {
            return Err(MemoryError::InvalidHandle);
        }
        self.slots
            .get(handle.index() as usize)
            .filter(|s| s.generation == handle.generation() && s.value.is_some())
            .ok_or(MemoryError::InvalidHandle)
    }

    /// The object behind `handle`, or [`MemoryError::InvalidHandle`].
    pub fn get(&self, handle: Handle<K>) -> Result<&E> {
        self.slot(handle)?
            .value
            .as_ref()
            .ok_or(MemoryError::InvalidHandle)
    }

    /// Mutable access to the object behind `handle`.
    pub fn get_mut(&mut self, handle: Handle<K>) -> Result<&mut E> {
        self.slot(handle)?;
        self.slots
            .get_mut(handle.index() as usize)
            .and_then(|s| s.value.as_mut())
            .ok_or(MemoryError::InvalidHandle)
    }

    /// Removes the object; the handle (and every copy of it) becomes stale at once.
    pub fn remove(&mut self, handle: Handle<K>) -> Result<E> {
        self.slot(handle)?;
        let index = handle.index();
        let slot = self
            .slots
            .get_mut(index as usize)
            .ok_or(MemoryError::InvalidHandle)?;
        let value = slot.value.take().ok_or(MemoryError::InvalidHandle)?;
        self.len -= 1;
        if slot.generation < MAX_GENERATION {
            slot.generation += 1;
            self.free.push(index);
        }
        // A slot at MAX_GENERATION stays empty forever: reusing it would wrap the generation
        // and let an old handle match a new object.
        Ok(value)
    }

    /// Number of live objects.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether no object is live.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Takes every live object out (used at shutdown); all handles become stale.
    pub fn drain(&mut self) -> Vec<E> {
        let mut out = Vec::with_capacity(self.len);
        self.free.clear();
        for (index, slot) in self.slots.iter_mut().enumerate() {
            if let Some(value) = slot.value.take() {
                out.push(value);
            }
            if slot.generation < MAX_GENERATION {
                slot.generation += 1;
                self.free.push(index as u32);
            }
        }
        self.len = 0;
        out
    }

    /// Iterates over live objects with their handles.
    pub fn iter(&self) -> impl Iterator<Item = (Handle<K>, &E)> {
        let owner = self.owner;
        self.slots.iter().enumerate().filter_map(move |(i, s)| {
            s.value
                .as_ref()
                .map(|v| (Handle::from_parts(i as u32, s.generation, owner), v))
        })
    }

    #[cfg(test)]
    fn force_generation(&mut self, index: usize, generation: u32) {
        if let Some(slot) = self.slots.get_mut(index) {
            slot.generation = generation;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    struct Tag;

    proptest! {
        #[test]
        fn packing_round_trips(index in 0..=MAX_INDEX, generation in 0..=MAX_GENERATION, owner: u16) {
            let h = Handle::<Tag>::from_parts(index, generation, owner);
            prop_assert_eq!(h.index(), index);
            prop_assert_eq!(h.generation(), generation);
            prop_assert_eq!(h.owner(), owner);
            prop_assert_eq!(Handle::<Tag>::from_raw(h.to_raw()), h);
        }
    }

    #[test]
    fn stale_and_foreign_handles_are_errors() {
        let mut slab: Slab<Tag, u32> = Slab::new(7);
        let mut other: Slab<Tag, u32> = Slab::new(8);
        let a = slab.insert(1).expect("insert");
        let foreign = other.insert(1).expect("insert");
        assert_eq!(slab.get(foreign).err(), Some(MemoryError::InvalidHandle));
        assert_eq!(slab.remove(a), Ok(1));
        assert_eq!(slab.get(a).err(), Some(MemoryError::InvalidHandle));
        assert_eq!(slab.remove(a).err(), Some(MemoryError::InvalidHandle));
        // The slot is reused with a new generation: the old handle still does not match.
        let b = slab.insert(2).expect("insert");
        assert_eq!(b.index(), a.index());
        assert_ne!(b, a);
        assert_eq!(slab.get(a).err(), Some(MemoryError::InvalidHandle));
        assert_eq!(slab.get(b), Ok(&2));
        assert_eq!(
            slab.get(Handle::from_raw(0)).err(),
            Some(MemoryError::InvalidHandle)
        );
    }

    #[test]
    fn a_slot_at_the_last_generation_is_never_reused() {
        let mut slab: Slab<Tag, u32> = Slab::new(1);
        let a = slab.insert(1).expect("insert");
        slab.force_generation(a.index() as usize, MAX_GENERATION);
        let a = Handle::from_parts(a.index(), MAX_GENERATION, 1);
        assert_eq!(slab.remove(a), Ok(1));
        let b = slab.insert(2).expect("insert");
        assert_ne!(b.index(), a.index(), "a saturated slot must not be reused");
    }
}
