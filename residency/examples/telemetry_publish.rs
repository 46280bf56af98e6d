//! What one telemetry publication costs: `TelemetryWriter::publish` of a full snapshot (16
//! events in the ring), and a `TelemetryReader::read` of it from a second mapping, averaged over
//! many calls.
//!
//! `cargo run --release -p arenagl-residency --example telemetry_publish`

use std::hint::black_box;
use std::time::Instant;

use arenagl_residency::telemetry::{Event, EventKind, Snapshot, TelemetryReader, TelemetryWriter};
use arenagl_residency::{CategoryMap, Level};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dir = std::env::temp_dir().join(format!("arenagl-publish-bench-{}", std::process::id()));
    let mut writer = TelemetryWriter::create(Some(&dir))?;
    let reader = TelemetryReader::open_in(&dir, std::process::id())?;

    let mut snapshot = Snapshot {
        budget_bytes: 1254 << 20,
        budget_shares: CategoryMap::from_array([
            627 << 20,
            250 << 20,
            150 << 20,
            75 << 20,
            25 << 20,
        ]),
        allocation_clamp: 4096,
        pressure: Level::Warn,
        ..Snapshot::default()
    };
    for frame in 0..16 {
        snapshot.events.push(Event {
            kind: EventKind::ProactiveGc,
            frame,
            bytes: 1 << 20,
        });
    }

    const CALLS: u64 = 2_000_000;
    for _ in 0..2 {
        let start = Instant::now();
        for frame in 0..CALLS {
            snapshot.frame = frame;
            snapshot.live_bytes[arenagl_residency::Category::Texture] = frame;
            writer.publish(black_box(&snapshot));
        }
        let publish_ns = start.elapsed().as_nanos() as f64 / CALLS as f64;

        let start = Instant::now();
        let mut frames = 0u64;
        for _ in 0..CALLS {
            frames = frames.wrapping_add(black_box(reader.read()).map_or(0, |s| s.frame));
        }
        let read_ns = start.elapsed().as_nanos() as f64 / CALLS as f64;
        println!(
            "publish: {publish_ns:.1} ns/call, read: {read_ns:.1} ns/call ({CALLS} calls each, \
             {} payload words)",
            arenagl_residency::telemetry::SNAPSHOT_WORDS
        );
        black_box(frames);
    }
    drop(writer);
    let _ = std::fs::remove_dir(&dir);
    Ok(())
}
