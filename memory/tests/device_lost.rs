//! The device-lost latch on the real driver, with the loss injected at the third submit: later
//! requests answer `DeviceLost`, nothing panics, and shutdown stays validation-clean (the latch
//! waits for the still-alive device before releasing).

mod common;

use arenagl_memory::{BufferDesc, Category, FaultPlan, ManagerConfig, MemoryClass, MemoryError};
use ash::vk;
use common::ValidatedManager;

#[test]
fn injected_device_loss_latches_cleanly() {
    let mut m = ValidatedManager::new(ManagerConfig {
        faults: FaultPlan {
            device_lost_on_submit: Some(3),
            ..FaultPlan::default()
        },
        ..ManagerConfig::default()
    });
    let desc = BufferDesc::new(
        1 << 20,
        vk::BufferUsageFlags::TRANSFER_DST,
        MemoryClass::DeviceBuffer,
        Category::Buffer,
    );
    let mut held = Vec::new();
    let mut lost_at = None;
    for frame in 0..5u32 {
        let b = m.create_buffer(&desc);
        let b = match b {
            Ok(b) => b,
            Err(e) => {
                assert_eq!(e, MemoryError::DeviceLost);
                break;
            }
        };
        let raw = m.use_buffer(b).expect("use").raw();
        let cb = m.recording_command_buffer().expect("cb");
        // SAFETY: recording command buffer, live buffer, in-bounds fill.
        unsafe { m.device().cmd_fill_buffer(cb, raw, 0, 1 << 20, frame) };
        held.push(b);
        if let Err(e) = m.submit() {
            assert_eq!(e, MemoryError::DeviceLost);
            lost_at = Some(frame);
            break;
        }
    }
    assert_eq!(lost_at, Some(2));
    assert!(m.is_lost());
    assert_eq!(
        m.recording_command_buffer().err(),
        Some(MemoryError::DeviceLost)
    );
    assert_eq!(m.create_buffer(&desc).err(), Some(MemoryError::DeviceLost));
    for b in held {
        m.retire_buffer(b).expect("retire after loss");
    }
    let s = m.stats();
    assert!(s.device_lost);
    assert_eq!(s.live_bytes, 0);
}
