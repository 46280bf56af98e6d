//! The telemetry page from the manager's side: with telemetry on, every `begin_frame` publishes a
//! snapshot that another reader sees with the manager's own figures, including the events it
//! derives (refusals, pressure changes).

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

#[test]
fn what_clients_give_up_under_pressure_is_counted_and_published() {
    use arenagl_memory::Degradation;
    let dir = std::env::temp_dir().join(format!("arenagl-sim-degradation-{}", std::process::id()));
    let mut m = Manager::with_backend(
        SimBackend::new(SimConfig::default()),
        ManagerConfig {
            budget: Some(Budget::fixed(8 << 20)),
            ..ManagerConfig::default()
        },
    );
    m.publish_telemetry(Some(&dir)).expect("telemetry page");
    let reader = TelemetryReader::open_in(&dir, std::process::id()).expect("reader");
    for what in [
        Degradation::Demoted {
            textures: 2,
            bytes: 3 << 20,
        },
        Degradation::Restored {
            textures: 1,
            bytes: 1 << 20,
        },
        Degradation::Pruned {
            objects: 4,
            bytes: 0,
        },
        Degradation::CachesTrimmed { objects: 7 },
        Degradation::RenderScale { percent: 75 },
    ] {
        m.record_degradation(what);
    }
    m.begin_frame().expect("frame");
    let stats = m.stats();
    assert_eq!(
        (
            stats.demotions,
            stats.demoted_bytes,
            stats.restorations,
            stats.evictions,
            stats.cache_trims,
            stats.render_scale_percent
        ),
        (2, 3 << 20, 1, 4, 1, 75)
    );
    let snap = reader.read().expect("a snapshot");
    assert_eq!((snap.counters.demotions, snap.counters.evictions), (2, 4));
    let events: Vec<(EventKind, u64)> =
        snap.events.iter().map(|(_, e)| (e.kind, e.bytes)).collect();
    for want in [
        (EventKind::Demotion, 3 << 20),
        (EventKind::Restoration, 1 << 20),
        (EventKind::Prune, 0),
        (EventKind::CacheTrim, 7),
        (EventKind::RenderScale, 75),
    ] {
        assert!(events.contains(&want), "{want:?} in {events:?}");
    }
    drop(m);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn headroom_and_excess_are_measured_from_the_exit_lines() {
    let mut m = Manager::with_backend(
        SimBackend::new(SimConfig::default()),
        ManagerConfig {
            budget: Some(Budget::fixed(100 << 20)),
            ..ManagerConfig::default()
        },
    );
    let desc = BufferDesc::new(
        10 << 20,
        vk::BufferUsageFlags::VERTEX_BUFFER,
        MemoryClass::DeviceBuffer,
        Category::Buffer,
    );
    let mut live = Vec::new();
    for _ in 0..9 {
        live.push(m.create_buffer(&desc).expect("fits"));
    }
    m.begin_frame().expect("frame");
    let usage = m.usage().total();
    assert_eq!(m.pressure_level(), Some(Level::Critical));
    // Critical is left below 85 % of the budget; Warn below 70 %.
    let critical_exit = (100u64 << 20) * 85 / 100;
    assert_eq!(m.bytes_over(Level::Critical), usage - critical_exit);
    assert_eq!(m.headroom_below(Level::Critical), 0);
    for h in live.drain(..3) {
        m.retire_buffer(h).expect("retire");
    }
    m.collect_garbage_blocking().expect("gc");
    m.begin_frame().expect("frame");
    let usage = m.usage().total();
    assert_eq!(m.bytes_over(Level::Critical), 0);
    assert_eq!(m.headroom_below(Level::Critical), critical_exit - usage);
}
