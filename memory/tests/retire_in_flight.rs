//! Retiring and blocking waits on the real driver: a resource retired while the recording command
//! buffer still uses it survives a blocking GC until that buffer's epoch completes. The validation
//! layer (on) would report a buffer destroyed while in use, and the debug-build check in the
//! manager compares every release with the semaphore's real counter (`release_violations`).

mod common;

use arenagl_memory::{BufferDesc, Category, ManagerConfig, MemoryClass, MemoryError};
use ash::vk;
use common::ValidatedManager;

const LEN: usize = 1 << 20;

fn pattern() -> Vec<u8> {
    (0..LEN).map(|i| (i * 31 % 251) as u8).collect()
}

#[test]
fn retired_source_survives_until_its_copy_has_executed() {
    let mut m = ValidatedManager::new(ManagerConfig::default());
    let src = m
        .create_buffer(&BufferDesc::new(
            LEN as u64,
            vk::BufferUsageFlags::TRANSFER_SRC,
            MemoryClass::Upload,
            Category::Staging,
        ))
        .expect("src");
    let dst = m
        .create_buffer(&BufferDesc::new(
            LEN as u64,
            vk::BufferUsageFlags::TRANSFER_DST,
            MemoryClass::Readback,
            Category::Staging,
        ))
        .expect("dst");
    let data = pattern();
    m.write_buffer(src, 0, &data).expect("write src");
    let cb = m.recording_command_buffer().expect("cb");
    let s = m.use_buffer(src).expect("use src").raw();
    let d = m.use_buffer(dst).expect("use dst").raw();
    let region = vk::BufferCopy {
        src_offset: 0,
        dst_offset: 0,
        size: LEN as u64,
    };
    // SAFETY: recording command buffer; both buffers live and large enough.
    unsafe { m.device().cmd_copy_buffer(cb, s, d, &[region]) };
    let recording = m.recording_epoch();
    m.retire_buffer(src)
        .expect("retire src while the copy is only recorded");
    assert_eq!(
        m.use_buffer(src).err(),
        Some(MemoryError::InvalidHandle),
        "a retired handle is stale at once"
    );
    let st = m.stats();
    assert_eq!(
        st.pending_release_objects, 1,
        "src must wait for epoch {recording}"
    );
    // The blocking GC must submit the recording first, wait for it, and only then free src.
    m.collect_garbage_blocking().expect("blocking gc");
    let st = m.stats();
    assert_eq!(st.pending_release_objects, 0);
    assert_eq!(st.epoch_completed, recording);
    assert_eq!(st.release_violations, 0);
    let mut out = vec![0u8; LEN];
    m.read_buffer(dst, 0, &mut out).expect("read dst");
    assert!(out == data, "the copy read freed memory");
    m.retire_buffer(dst).expect("retire dst");
}

#[test]
fn retired_buffer_is_released_at_the_first_drain_after_its_epoch() {
    let mut m = ValidatedManager::new(ManagerConfig::default());
    let buf = m
        .create_buffer(&BufferDesc::new(
            65536,
            vk::BufferUsageFlags::TRANSFER_DST,
            MemoryClass::DeviceBuffer,
            Category::Buffer,
        ))
        .expect("buffer");
    let cb = m.recording_command_buffer().expect("cb");
    let raw = m.use_buffer(buf).expect("use").raw();
    // SAFETY: recording command buffer, live buffer, in-bounds fill.
    unsafe { m.device().cmd_fill_buffer(cb, raw, 0, 65536, 7) };
    m.retire_buffer(buf).expect("retire");
    let epoch = m.submit().expect("submit");
    // A buffer mid-flight cannot be mapped: the idle check refuses with Busy, never races.
    m.wait_epoch(epoch).expect("wait");
    m.begin_frame().expect("drain at frame start");
    let st = m.stats();
    assert_eq!(st.pending_release_objects, 0);
    assert_eq!(st.released_objects, 1);
    assert_eq!(st.release_violations, 0);
}

#[test]
fn host_access_to_a_buffer_in_flight_is_refused_not_raced() {
    let mut m = ValidatedManager::new(ManagerConfig::default());
    let buf = m
        .create_buffer(&BufferDesc::new(
            4096,
            vk::BufferUsageFlags::TRANSFER_DST,
            MemoryClass::Readback,
            Category::Staging,
        ))
        .expect("buffer");
    let cb = m.recording_command_buffer().expect("cb");
    let raw = m.use_buffer(buf).expect("use").raw();
    // SAFETY: recording command buffer, live buffer, in-bounds fill.
    unsafe { m.device().cmd_fill_buffer(cb, raw, 0, 4096, 0x0101_0101) };
    let epoch = m.recording_epoch();
    let mut out = [0u8; 16];
    assert_eq!(
        m.read_buffer(buf, 0, &mut out),
        Err(MemoryError::Busy(epoch))
    );
    m.wait_epoch(epoch)
        .expect("waiting for the recording epoch submits it first");
    m.read_buffer(buf, 0, &mut out).expect("idle now");
    assert_eq!(out, [1u8; 16]);
    m.retire_buffer(buf).expect("retire");
}
