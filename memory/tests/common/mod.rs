//! Shared fixture for the GPU tests: a manager on the real device with the validation layer on,
//! which fails the test if the layer reported any error while the test ran.

#![allow(dead_code)]

use std::ops::{Deref, DerefMut};

use arenagl_memory::{ManagerConfig, MemoryManager, VulkanConfig};

/// A manager whose drop asserts that the validation layer stayed silent.
pub struct ValidatedManager {
    inner: Option<MemoryManager>,
}

impl ValidatedManager {
    pub fn new(config: ManagerConfig) -> Self {
        Self::with_vulkan(VulkanConfig::default(), config)
    }

    pub fn with_vulkan(vulkan: VulkanConfig, config: ManagerConfig) -> Self {
        init_tracing();
        let vulkan = VulkanConfig {
            validation: validation_requested(),
            ..vulkan
        };
        let inner = MemoryManager::new(&vulkan, config)
            .expect("open the Vulkan device (is lavapipe installed?)");
        Self { inner: Some(inner) }
    }

    /// Asserts no validation error so far.
    pub fn assert_validation_clean(&self) {
        let m = self.inner.as_ref().expect("manager");
        assert_eq!(
            m.validation_error_count(),
            0,
            "validation errors: {:#?}",
            m.validation_errors()
        );
    }
}

/// Tests run with validation unless `ARENAGL_VALIDATION=0` is set explicitly.
pub fn validation_requested() -> bool {
    std::env::var("ARENAGL_VALIDATION").map_or(true, |v| v.trim() != "0")
}

pub fn init_tracing() {
    let _ = tracing_subscriber_init();
}

fn tracing_subscriber_init() -> Result<(), ()> {
    Ok(())
}

impl Deref for ValidatedManager {
    type Target = MemoryManager;
    fn deref(&self) -> &MemoryManager {
        self.inner.as_ref().expect("manager")
    }
}

impl DerefMut for ValidatedManager {
    fn deref_mut(&mut self) -> &mut MemoryManager {
        self.inner.as_mut().expect("manager")
    }
}

impl Drop for ValidatedManager {
    fn drop(&mut self) {
        let Some(mut m) = self.inner.take() else {
            return;
        };
        // Shut down fully (wait idle, release everything) while the messenger still listens.
        let idle = m.collect_garbage_blocking();
        let errors = m.validation_errors();
        let count = m.validation_error_count();
        drop(m);
        if !std::thread::panicking() {
            assert!(idle.is_ok(), "GPU did not go idle: {idle:?}");
            assert_eq!(count, 0, "validation errors: {errors:#?}");
        }
    }
}
