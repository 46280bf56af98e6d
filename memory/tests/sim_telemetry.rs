//! R3 from the manager's side: with telemetry on, every `begin_frame` publishes a snapshot that
//! another reader sees with the manager's own figures, including the events it derives
//! (refusals, pressure changes).

use arenagl_memory::sim::{SimBackend, SimConfig};
use arenagl_memory::{BufferDesc, Category, Manager, ManagerConfig, MemoryClass};
use arenagl_residency::telemetry::EventKind;
use arenagl_residency::{Budget, Level, TelemetryReader};
use ash::vk;

#[test]
fn every_frame_publishes_the_managers_figures() {
    let dir = std::env::temp_dir().join(format!("arenagl-sim-telemetry-{}", std::process::id()));
    let mut m = Manager::with_backend(
        SimBackend::new(SimConfig::default()),
        ManagerConfig {
            budget: Some(Budget::fixed(8 << 20)),
            ..ManagerConfig::default()
        },
    );
    m.publish_telemetry(Some(&dir)).expect("telemetry page");
    let reader = TelemetryReader::open_in(&dir, std::process::id()).expect("reader");
    let desc = BufferDesc::new(
        1 << 20,
        vk::BufferUsageFlags::VERTEX_BUFFER,
        MemoryClass::DeviceBuffer,
        Category::Texture,
    );
    let mut live = Vec::new();
    for _ in 0..10 {
        if let Ok(h) = m.create_buffer(&desc) {
            live.push(h);
        }
        m.begin_frame().expect("frame");
    }
    let snap = reader.read().expect("a snapshot");
    let stats = m.stats();
    assert_eq!(
        snap.frame, 11,
        "one publication at start, then one per frame"
    );
    assert_eq!(
        snap.live_bytes[Category::Texture],
        stats.categories[Category::Texture.index()].live_bytes
    );
    assert_eq!(snap.live_bytes[Category::Texture], 8 << 20);
    assert_eq!(snap.budget_bytes, 8 << 20);
    assert_eq!(snap.pressure, Level::Over);
    assert_eq!(snap.counters.refusals, 2);
    assert_eq!(
        snap.device_memory_objects,
        u64::from(stats.device_memory.live_objects)
    );
    let kinds: Vec<EventKind> = snap.events.iter().map(|(_, e)| e.kind).collect();
    assert!(kinds.contains(&EventKind::Refusal), "{kinds:?}");
    assert!(
        kinds.contains(&EventKind::Pressure(Level::Over)),
        "{kinds:?}"
    );
    for h in live {
        m.retire_buffer(h).expect("retire");
    }
    drop(m);
    assert!(!reader.is_alive(), "the page goes away with the manager");
    let _ = std::fs::remove_dir_all(&dir);
}
