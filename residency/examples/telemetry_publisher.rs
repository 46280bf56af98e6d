//! A synthetic publisher, to try `arenagl top`, `record` and `report` without a GPU: texture
//! usage climbs against an iPhone 12 budget, the real [`PressureMonitor`] raises the levels, and
//! the actions it asks for become events (a proactive GC at warn, an eviction at critical,
//! refusals at over).
//!
//! `cargo run --release -p arenagl-residency --example telemetry_publisher -- [SECONDS]`
//! (default 60), then `arenagl top` in another terminal.

use std::time::{Duration, Instant};

use arenagl_residency::telemetry::{unix_time_ns, Event, EventKind, TelemetryWriter};
use arenagl_residency::{
    Action, Budget, BudgetInputs, Category, PressureMonitor, Profile, Snapshot, Usage,
};

const MIB: u64 = 1 << 20;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let seconds: u64 = match std::env::args().nth(1) {
        Some(arg) => arg.parse()?,
        None => 60,
    };
    let budget = Budget::derive(&BudgetInputs::new(Profile::by_name("iphone-12")?));
    let mut monitor = PressureMonitor::new(&budget);
    let mut writer = TelemetryWriter::create(None)?;
    println!(
        "publishing into {} for {seconds} s (budget {} MiB); try `arenagl top`",
        writer.path().display(),
        budget.total_bytes / MIB
    );

    let mut snapshot = Snapshot {
        budget_bytes: budget.total_bytes,
        budget_shares: budget.shares,
        allocation_clamp: 4096,
        ..Snapshot::default()
    };
    let mut usage = Usage::from_array([150 * MIB, 120 * MIB, 90 * MIB, 32 * MIB, 12 * MIB]);
    let start = Instant::now();
    let frame_time = Duration::from_millis(16);
    let mut frame = 0u64;
    while start.elapsed() < Duration::from_secs(seconds) {
        frame += 1;
        // Textures grow ~3 MiB a frame at first; buffers breathe with the chunk streaming.
        usage[Category::Texture] += 2 * MIB + (frame % 3) * MIB;
        usage[Category::Buffer] = (120 + (frame % 40)) * MIB;
        let update = monitor.update(&usage, &budget);
        for transition in &update.transitions {
            snapshot.events.push(Event {
                kind: EventKind::Pressure(transition.to),
                frame,
                bytes: update.usage_bytes,
            });
        }
        for action in &update.actions {
            let (kind, bytes) = match action {
                Action::ProactiveGc => {
                    snapshot.counters.proactive_gcs += 1;
                    (EventKind::ProactiveGc, 24 * MIB)
                }
                Action::DemoteTextures { bytes_to_free, .. } => {
                    // Evict what the policy asks for, and a margin.
                    let freed = (*bytes_to_free + 200 * MIB).min(usage[Category::Texture]);
                    usage[Category::Texture] -= freed;
                    snapshot.counters.evictions += 1;
                    (EventKind::Eviction, freed)
                }
                _ => continue,
            };
            snapshot.events.push(Event { kind, frame, bytes });
        }
        if monitor.admit(Category::Texture, 4 * MIB).is_err() {
            snapshot.counters.refusals += 1;
            snapshot.events.push(Event {
                kind: EventKind::Refusal,
                frame,
                bytes: 4 * MIB,
            });
            // The game drops a texture pack.
            usage[Category::Texture] = usage[Category::Texture].saturating_sub(64 * MIB);
        }

        snapshot.frame = frame;
        snapshot.timestamp_ns = unix_time_ns();
        snapshot.live_bytes = usage;
        for category in Category::ALL {
            snapshot.peak_bytes[category] = snapshot.peak_bytes[category].max(usage[category]);
        }
        snapshot.pressure = update.level;
        snapshot.device_memory_objects = 40 + usage.total() / (16 * MIB);
        snapshot.allocate_calls = snapshot.device_memory_objects + frame / 100;
        snapshot.epochs_in_flight = 1 + frame % 2;
        snapshot.pending_release_bytes = (frame % 5) * MIB;
        writer.publish(&snapshot);
        std::thread::sleep(frame_time);
    }
    Ok(())
}
