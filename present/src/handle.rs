//! Opaque, generational handles and the slab that issues them.
//!
//! A handle packs `kind << 56 | generation << 32 | index` into one non-zero `u64`, which the C
//! ABI will hand out as the `EGLContext`/`EGLSurface`/... pointer value. The kind tag makes a
//! context handle passed where a surface is expected fail lookup instead of aliasing slot N of the
//! other table, and makes every handle non-null. A slot's generation is bumped on free and the slot
//! is retired (never reused) when the generation would wrap, so a destroyed handle can never name
//! a later object.

use std::num::NonZeroU64;

use crate::error::{EglError, EglResult};

const GENERATION_BITS: u32 = 24;
const MAX_GENERATION: u32 = (1 << GENERATION_BITS) - 1;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum Kind {
    Display = 1,
    Config = 2,
    Context = 3,
    Surface = 4,
    Device = 5,
    Sync = 6,
}

/// The packed handle word shared by every typed handle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct RawHandle(NonZeroU64);

impl RawHandle {
    pub(crate) fn new(kind: Kind, generation: u32, index: u32) -> Self {
        let word =
            (kind as u64) << 56 | u64::from(generation & MAX_GENERATION) << 32 | u64::from(index);
        // The kind byte is never zero, so neither is the word.
        Self(NonZeroU64::new(word).unwrap_or(NonZeroU64::MIN))
    }

    pub(crate) fn from_word(kind: Kind, word: u64) -> Option<Self> {
        let h = Self(NonZeroU64::new(word)?);
        (h.kind_byte() == kind as u8).then_some(h)
    }

    fn kind_byte(self) -> u8 {
        (self.0.get() >> 56) as u8
    }
    pub(crate) fn generation(self) -> u32 {
        ((self.0.get() >> 32) as u32) & MAX_GENERATION
    }
    pub(crate) fn index(self) -> u32 {
        self.0.get() as u32
    }
    pub(crate) fn word(self) -> u64 {
        self.0.get()
    }
}

macro_rules! typed_handle {
    ($(#[$doc:meta])* $name:ident, $kind:expr) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(pub(crate) RawHandle);

        impl $name {
            /// The opaque non-zero value the C ABI hands out.
            pub fn to_raw(self) -> u64 {
                self.0.word()
            }
            /// Reinterprets a value from the C ABI; `None` for zero or a value of another kind.
            /// A value that passes may still be stale: operations answer that with an EGL error.
            pub fn from_raw(word: u64) -> Option<Self> {
                RawHandle::from_word($kind, word).map(Self)
            }
        }
    };
}

typed_handle!(
    /// An `EGLDisplay`.
    Display,
    Kind::Display
);
typed_handle!(
    /// An `EGLConfig`; `None` where the API takes one stands for `EGL_NO_CONFIG_KHR`.
    Config,
    Kind::Config
);
typed_handle!(
    /// An `EGLContext`.
    Context,
    Kind::Context
);
typed_handle!(
    /// An `EGLSurface`.
    Surface,
    Kind::Surface
);
typed_handle!(
    /// An `EGLDeviceEXT`.
    Device,
    Kind::Device
);
typed_handle!(
    /// An `EGLSync` (`EGLSyncKHR`).
    EglSync,
    Kind::Sync
);

struct Slot<T> {
    generation: u32,
    value: Option<T>,
}

/// A table of objects addressed by generational handles.
pub(crate) struct Slab<T> {
    kind: Kind,
    slots: Vec<Slot<T>>,
    free: Vec<u32>,
}

impl<T> Slab<T> {
    pub(crate) fn new(kind: Kind) -> Self {
        Self {
            kind,
            slots: Vec::new(),
            free: Vec::new(),
        }
    }

    pub(crate) fn insert(&mut self, value: T) -> EglResult<RawHandle> {
        if let Some(index) = self.free.pop() {
            let slot = &mut self.slots[index as usize];
            slot.value = Some(value);
            return Ok(RawHandle::new(self.kind, slot.generation, index));
        }
        let index = u32::try_from(self.slots.len()).map_err(|_| EglError::BAD_ALLOC)?;
        self.slots.push(Slot {
            generation: 1,
            value: Some(value),
        });
        Ok(RawHandle::new(self.kind, 1, index))
    }

    fn slot(&self, h: RawHandle) -> Option<&Slot<T>> {
        self.slots
            .get(h.index() as usize)
            .filter(|s| s.generation == h.generation())
    }

    pub(crate) fn get(&self, h: RawHandle) -> Option<&T> {
        self.slot(h)?.value.as_ref()
    }

    pub(crate) fn get_mut(&mut self, h: RawHandle) -> Option<&mut T> {
        let slot = self.slots.get_mut(h.index() as usize)?;
        if slot.generation != h.generation() {
            return None;
        }
        slot.value.as_mut()
    }

    pub(crate) fn remove(&mut self, h: RawHandle) -> Option<T> {
        self.slot(h)?;
        let slot = &mut self.slots[h.index() as usize];
        let value = slot.value.take()?;
        if slot.generation < MAX_GENERATION {
            slot.generation += 1;
            self.free.push(h.index());
        }
        Some(value)
    }

    /// Handles of the live objects, for sweeps such as `eglTerminate`.
    pub(crate) fn handles(&self) -> Vec<RawHandle> {
        self.slots
            .iter()
            .enumerate()
            .filter(|(_, s)| s.value.is_some())
            .map(|(i, s)| RawHandle::new(self.kind, s.generation, i as u32))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn freed_handle_never_aliases_the_reused_slot() {
        let mut slab = Slab::new(Kind::Context);
        let a = slab.insert(1).unwrap();
        assert_eq!(slab.remove(a), Some(1));
        let b = slab.insert(2).unwrap();
        assert_eq!(a.index(), b.index());
        assert_ne!(a, b);
        assert_eq!(slab.get(a), None);
        assert_eq!(slab.get(b), Some(&2));
        assert_eq!(slab.remove(a), None);
    }

    #[test]
    fn slot_is_retired_when_its_generation_would_wrap() {
        let mut slab = Slab::new(Kind::Surface);
        slab.slots.push(Slot {
            generation: MAX_GENERATION,
            value: Some(7),
        });
        let h = RawHandle::new(Kind::Surface, MAX_GENERATION, 0);
        assert_eq!(slab.remove(h), Some(7));
        let next = slab.insert(8).unwrap();
        assert_eq!(next.index(), 1, "the exhausted slot must not be reused");
    }

    #[test]
    fn kind_tag_round_trips_and_rejects_other_kinds() {
        let h = RawHandle::new(Kind::Context, 5, 9);
        assert_eq!(Context::from_raw(h.word()), Some(Context(h)));
        assert_eq!(Surface::from_raw(h.word()), None);
        assert_eq!(Context::from_raw(0), None);
        assert_eq!((h.generation(), h.index()), (5, 9));
    }
}
