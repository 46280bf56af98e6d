//! Live memory signals on the simulated device (`arenagl_residency::signals`, the manager's
//! `refresh_signals`): a changed cgroup `memory.max` moves the budget, and new `memory.events`,
//! Linux PSI and each Android trim level move the pressure level, within one frame; a
//! launcher's available bytes set the crash line. The files are fakes in a temporary directory
//! (the reader is pointed at them), the launcher's reports go through the same functions the C
//! ABI calls.

use std::path::PathBuf;
use std::sync::Mutex;

use arenagl_memory::sim::{SimBackend, SimConfig};
use arenagl_memory::{BufferDesc, BufferHandle, Category, Manager, ManagerConfig, MemoryClass};
use arenagl_residency::signals::{self, trim, SignalReader};
use arenagl_residency::{Action, BudgetInputs, Constraint, Level, Profile, VulkanMemory};
use ash::vk;

const MIB: u64 = 1 << 20;

/// The launcher's reports are process-wide: one test at a time.
static SERIAL: Mutex<()> = Mutex::new(());

const CALM_PSI: &str = "some avg10=0.00 avg60=0.00 avg300=0.00 total=0\n\
                        full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n";
const NO_EVENTS: &str = "low 0\nhigh 0\nmax 0\noom 0\noom_kill 0\n";

/// A fake cgroup directory and PSI file under a fresh temporary directory.
struct Fakes {
    dir: PathBuf,
}

impl Fakes {
    fn new(name: &str, memory_max: u64) -> Self {
        let dir =
            std::env::temp_dir().join(format!("arenagl-signals-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let fakes = Self { dir };
        fakes.write("memory.max", &memory_max.to_string());
        fakes.write("memory.events", NO_EVENTS);
        fakes.write("pressure", CALM_PSI);
        fakes
    }

    fn write(&self, file: &str, contents: &str) {
        std::fs::write(self.dir.join(file), contents).expect("write a fake");
    }

    fn reader(&self) -> SignalReader {
        let dir = self.dir.clone();
        let cgroup = Some((dir.clone(), vec![dir.join("memory.max")]));
        SignalReader::with_paths(Some(self.dir.join("pressure")), cgroup)
    }
}

impl Drop for Fakes {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// A manager on the simulated device whose budget is derived live from a Linux host under a
/// cgroup limit of `memory_max` with a 64 MiB footprint, reading `fakes`.
fn manager(fakes: &Fakes, memory_max: u64) -> Manager<SimBackend> {
    let mut m = Manager::with_backend(
        SimBackend::new(SimConfig::default()),
        ManagerConfig::default(),
    );
    let inputs = BudgetInputs::new(Profile::linux_host_with_cgroup(Some(memory_max)))
        .with_footprint(64 * MIB)
        .with_vulkan(VulkanMemory {
            device_local_heap_bytes: 8 << 30,
            unified: true,
            heap_budget_bytes: None,
        });
    m.set_live_budget(inputs, fakes.reader());
    m
}

fn allocate(m: &mut Manager<SimBackend>, mib: u64) -> Vec<BufferHandle> {
    let desc = BufferDesc::new(
        8 * MIB,
        vk::BufferUsageFlags::VERTEX_BUFFER,
        MemoryClass::DeviceBuffer,
        Category::Buffer,
    );
    (0..mib / 8)
        .map(|_| m.create_buffer(&desc).expect("under the budget"))
        .collect()
}

fn total(m: &Manager<SimBackend>) -> u64 {
    m.budget().expect("a budget").total_bytes
}

fn frame(m: &mut Manager<SimBackend>) -> Level {
    m.begin_frame().expect("frame");
    m.pressure_level().expect("a budget")
}

fn lock() -> std::sync::MutexGuard<'static, ()> {
    let guard = SERIAL
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    signals::clear_reports();
    guard
}

#[test]
fn a_changed_memory_max_moves_the_budget_within_one_frame() {
    let _serial = lock();
    let fakes = Fakes::new("max", 512 * MIB);
    let mut m = manager(&fakes, 512 * MIB);
    // 512 MiB - 64 MiB footprint - 64 MiB margin.
    assert_eq!(total(&m), 384 * MIB);
    let _held = allocate(&mut m, 200);
    assert_eq!(frame(&mut m), Level::Normal);
    fakes.write("memory.max", &(380 * MIB).to_string());
    assert_eq!(frame(&mut m), Level::Warn, "200 MiB of 252");
    assert_eq!(total(&m), 252 * MIB);
    let budget = m.budget().expect("budget");
    assert_eq!(budget.derivation.binding, Constraint::Platform);
    fakes.write("memory.max", "max\n");
    frame(&mut m);
    assert!(total(&m) > 384 * MIB, "no cgroup limit: the host's RAM");
}

#[test]
fn new_cgroup_events_hold_the_level_for_a_while() {
    let _serial = lock();
    let fakes = Fakes::new("events", 1 << 30);
    let mut m = manager(&fakes, 1 << 30);
    let _held = allocate(&mut m, 64);
    assert_eq!(frame(&mut m), Level::Normal);
    fakes.write("memory.events", "low 0\nhigh 2\nmax 0\noom 0\noom_kill 0\n");
    assert_eq!(frame(&mut m), Level::Warn, "memory.high was crossed");
    fakes.write("memory.events", "low 0\nhigh 2\nmax 1\noom 0\noom_kill 0\n");
    assert_eq!(frame(&mut m), Level::Critical, "memory.max was hit");
    assert_eq!(frame(&mut m), Level::Critical, "held with no new event");
}

#[test]
fn psi_moves_the_level_and_releases_it() {
    let _serial = lock();
    let fakes = Fakes::new("psi", 1 << 30);
    let mut m = manager(&fakes, 1 << 30);
    let _held = allocate(&mut m, 64);
    let gcs = m.stats().proactive_gcs;
    fakes.write(
        "pressure",
        "some avg10=22.00 avg60=1.00 avg300=0.10 total=9\n",
    );
    assert_eq!(frame(&mut m), Level::Warn, "some tasks stall on memory");
    assert_eq!(m.stats().proactive_gcs, gcs + 1, "Warn collects early");
    fakes.write(
        "pressure",
        "some avg10=60.00 avg60=1.00 avg300=0.10 total=9\nfull avg10=8.00 avg60=0 avg300=0 total=2\n",
    );
    assert_eq!(frame(&mut m), Level::Critical, "every task stalls");
    fakes.write("pressure", CALM_PSI);
    assert_eq!(
        frame(&mut m),
        Level::Normal,
        "64 MiB of about 900: back down"
    );
}

#[test]
fn each_trim_level_has_its_effect() {
    let _serial = lock();
    let fakes = Fakes::new("trim", 1 << 30);
    let mut m = manager(&fakes, 1 << 30);
    let _held = allocate(&mut m, 64);
    let levels = [
        (trim::RUNNING_MODERATE, Level::Warn),
        (trim::RUNNING_LOW, Level::Critical),
        (trim::RUNNING_CRITICAL, Level::Critical),
        (trim::UI_HIDDEN, Level::Warn),
        (trim::BACKGROUND, Level::Critical),
        (trim::MODERATE, Level::Critical),
        (trim::COMPLETE, Level::Critical),
    ];
    for (level, want) in levels {
        let gcs = m.stats().proactive_gcs;
        m.take_pressure_actions();
        signals::report_trim(level);
        assert_eq!(frame(&mut m), want, "trim level {level}");
        assert_eq!(
            m.stats().proactive_gcs,
            gcs + 1,
            "trim level {level} collects"
        );
        let actions = m.take_pressure_actions();
        let demote = actions.iter().find_map(|a| match a {
            Action::DemoteTextures { bytes_to_free, .. } => Some(*bytes_to_free),
            _ => None,
        });
        if want == Level::Critical {
            assert_eq!(
                demote,
                Some(16 * MIB),
                "trim level {level}: a quarter of 64 MiB"
            );
            assert!(actions.contains(&Action::TrimCaches), "trim level {level}");
        } else {
            assert_eq!(demote, None, "trim level {level} demotes nothing");
        }
        signals::report_trim(0);
        assert_eq!(frame(&mut m), Level::Normal, "trim level 0 after {level}");
    }
}

#[test]
fn available_bytes_set_the_crash_line() {
    let _serial = lock();
    let fakes = Fakes::new("available", 1 << 30);
    let mut m = manager(&fakes, 1 << 30);
    let _held = allocate(&mut m, 48);
    signals::report_available(200 * MIB);
    frame(&mut m);
    // Footprint 64 + usage 48 + 200 available = a 312 MiB crash line; less the footprint and
    // the 64 MiB margin.
    assert_eq!(total(&m), 184 * MIB);
    // Nothing left: the platform candidate is 0, so the budget is its 64 MiB minimum, of which
    // 48 MiB are in use.
    signals::report_available(0);
    assert_eq!(frame(&mut m), Level::Warn, "48 MiB in use of 64 MiB");
    assert_eq!(total(&m), 64 * MIB);
    signals::clear_reports();
    frame(&mut m);
    assert_eq!(total(&m), (1 << 30) - 128 * MIB, "the cgroup's line again");
}
