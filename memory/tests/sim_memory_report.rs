//! The memory report's figures and the host-heap trim (`report.rs`, `host_heap.rs`) on the
//! simulated device, where every allocation is a `vkAllocateMemory` of its own: the trim runs
//! once per allocation that made the device allocate, only when device memory is host memory,
//! never for a request the recycle bin serves; the report carries the manager's own figures and
//! the CPU copies other crates report.

use arenagl_memory::report::{host_bytes, note_host_bytes, HostMemory};
use arenagl_memory::sim::{SimBackend, SimConfig};
use arenagl_memory::{BufferDesc, Category, Manager, ManagerConfig, MemoryClass};
use ash::vk;

const MIB: u64 = 1 << 20;

fn manager(recycle_bin_bytes: u64) -> Manager<SimBackend> {
    Manager::with_backend(
        SimBackend::new(SimConfig::default()),
        ManagerConfig {
            recycle_bin_bytes,
            ..ManagerConfig::default()
        },
    )
}

fn buffer() -> BufferDesc {
    BufferDesc::new(
        MIB,
        vk::BufferUsageFlags::VERTEX_BUFFER,
        MemoryClass::DeviceBuffer,
        Category::Buffer,
    )
}

#[test]
fn the_heap_is_trimmed_when_host_memory_devices_allocate_device_memory() {
    let mut m = manager(8 * MIB);
    m.set_trim_host_heap(true);
    let a = m.create_buffer(&buffer()).expect("first");
    let b = m.create_buffer(&buffer()).expect("second");
    assert_eq!(m.stats().host_heap_trims, 2);
    // A request the recycle bin serves allocates nothing, so nothing is trimmed.
    m.retire_buffer(a).expect("retire");
    let c = m.create_buffer(&buffer()).expect("from the bin");
    assert_eq!(m.stats().recycled, 1);
    assert_eq!(m.stats().host_heap_trims, 2);
    for h in [b, c] {
        m.retire_buffer(h).expect("retire");
    }
}

#[test]
fn the_heap_is_left_alone_by_default() {
    let mut m = manager(0);
    let a = m.create_buffer(&buffer()).expect("buffer");
    assert_eq!(m.stats().device_memory.allocate_calls, 1);
    assert_eq!(m.stats().host_heap_trims, 0);
    m.retire_buffer(a).expect("retire");
}

#[test]
fn the_report_carries_the_managers_figures_and_the_cpu_copies() {
    let mut m = manager(8 * MIB);
    let a = m.create_buffer(&buffer()).expect("buffer");
    note_host_bytes(HostMemory::BufferShadows, 4096, 0);
    let r = m.memory_report();
    note_host_bytes(HostMemory::BufferShadows, 0, 4096);
    assert_eq!(r.categories[Category::Buffer.index()], (MIB, MIB));
    assert_eq!(r.block_bytes, MIB);
    assert_eq!(r.allocate_calls, 1);
    assert_eq!(r.recycle_bin_cap, 8 * MIB);
    assert!(r.buffer_shadow_bytes >= 4096);
    assert!(host_bytes(HostMemory::BufferShadows) < r.buffer_shadow_bytes);
    let line = r.to_string();
    assert!(line.starts_with("ARENAGL_MEMORY_REPORT frame=0 "), "{line}");
    assert!(
        line.contains(" buffers_kib=1024 buffers_peak_kib=1024 "),
        "{line}"
    );
    assert!(line.contains(" recycle_bin_cap_kib=8192 "), "{line}");
    if cfg!(target_os = "linux") {
        assert!(r.process.vm_rss_kib > 0 && r.process.vm_hwm_kib >= r.process.vm_rss_kib);
    }
    m.retire_buffer(a).expect("retire");
}
