//! Live memory signals from the platform, read every frame: what the operating system says about
//! memory *now*, beside the budget derived once at start-up.
//!
//! Design decisions:
//! - Two kinds of signal. A **limit** moves the budget: cgroup v2 `memory.max` re-read (a
//!   container resized under a running game), or the bytes a launcher reports as still available
//!   to the process (iOS `os_proc_available_memory`). A **pressure floor** holds the pressure
//!   level at Warn or Critical whatever the usage, so the actions of that level run once (early
//!   GC, staging shrink, recycle bin emptied; texture demotion, cache trimming, render scale):
//!   Linux PSI (`/proc/pressure/memory`), new `high`/`max`/`oom` events in cgroup v2
//!   `memory.events`, and Android's `onTrimMemory` levels from the launcher. A floor does not
//!   shrink the budget: a game that must load its next chunks may still allocate up to it.
//! - The launcher's two calls (`arenagl_memory_trim`, `arenagl_memory_available` in the C ABI)
//!   may come from any thread; they only store into process-wide atomics ([`report_trim`],
//!   [`report_available`]). Each memory manager's [`SignalReader`] reads those atomics and the
//!   files at its next frame, so a signal takes effect within one frame.
//! - Pushed signals and events are held for [`HOLD`] (5 s) and then lapse, since no platform says
//!   when its pressure is over; a new trim or event renews the hold, and trim level 0 ends it.
//! - Reading a file is a few microseconds; a file that is absent or malformed is "no signal",
//!   never an error. The paths can be pointed elsewhere (`ARENAGL_PSI_FILE`,
//!   `ARENAGL_CGROUP_DIR`), which is how the tests drive them.
//! - Parsing is pure ([`parse_psi`], [`parse_memory_events`], [`trim_floor`]) and unit-tested.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use crate::cgroup;
use crate::pressure::Level;

/// How long a pushed signal (a trim level, available bytes) or a cgroup event holds.
pub const HOLD: Duration = Duration::from_secs(5);

/// PSI `some avg10` (percent of the last 10 s in which some task stalled on memory) at which
/// the floor is Warn.
pub const PSI_SOME_WARN: f32 = 10.0;
/// PSI `full avg10` (percent in which every task stalled on memory) at which it is Critical.
pub const PSI_FULL_CRITICAL: f32 = 5.0;

/// The variable that points the PSI reader at another file.
pub const PSI_FILE_VAR: &str = "ARENAGL_PSI_FILE";
/// The variable that points the cgroup reader at another cgroup directory.
pub const CGROUP_DIR_VAR: &str = "ARENAGL_CGROUP_DIR";

/// Android's `ComponentCallbacks2.TRIM_MEMORY_*` levels that [`trim_floor`] knows.
pub mod trim {
    /// The app runs; the device is beginning to run low.
    pub const RUNNING_MODERATE: u32 = 5;
    /// The app runs; the device is running low.
    pub const RUNNING_LOW: u32 = 10;
    /// The app runs; the device will soon kill background processes.
    pub const RUNNING_CRITICAL: u32 = 15;
    /// The app's UI is no longer visible.
    pub const UI_HIDDEN: u32 = 20;
    /// The app is in the background, near the start of the kill list.
    pub const BACKGROUND: u32 = 40;
    /// The app is in the middle of the kill list.
    pub const MODERATE: u32 = 60;
    /// The app is next to be killed.
    pub const COMPLETE: u32 = 80;
}

/// The pressure floor an Android trim level asks for: Warn for `RUNNING_MODERATE` and
/// `UI_HIDDEN` (collect early, shrink staging, empty the recycle bin), Critical for
/// `RUNNING_LOW` and everything graver (also demote textures, trim caches, lower the render
/// scale). 0 (and anything below 5) is no floor; unknown levels count as the next lower known
/// one, as Android's own documentation asks apps to treat them.
pub fn trim_floor(level: u32) -> Level {
    match level {
        0..=4 => Level::Normal,
        5..=9 | 20..=39 => Level::Warn,
        _ => Level::Critical,
    }
}

/// PSI's memory averages (`/proc/pressure/memory`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Psi {
    /// `some avg10`: percent of the last 10 s some task stalled on memory.
    pub some_avg10: f32,
    /// `full avg10`: percent of the last 10 s every task stalled on memory.
    pub full_avg10: f32,
}

impl Psi {
    /// The floor these averages ask for ([`PSI_SOME_WARN`], [`PSI_FULL_CRITICAL`]).
    pub fn floor(&self) -> Level {
        if self.full_avg10 >= PSI_FULL_CRITICAL {
            Level::Critical
        } else if self.some_avg10 >= PSI_SOME_WARN {
            Level::Warn
        } else {
            Level::Normal
        }
    }
}

/// Parses `/proc/pressure/memory`: `some avg10=… avg60=… avg300=… total=…` and a `full` line
/// (absent on kernels before 5.x's `full` for memory: taken as 0).
pub fn parse_psi(contents: &str) -> Option<Psi> {
    let avg10 = |kind: &str| {
        let line = contents.lines().find(|l| l.starts_with(kind))?;
        let field = line
            .split_whitespace()
            .find_map(|f| f.strip_prefix("avg10="))?;
        field.parse::<f32>().ok().filter(|v| v.is_finite())
    };
    Some(Psi {
        some_avg10: avg10("some ")?,
        full_avg10: avg10("full ").unwrap_or(0.0),
    })
}

/// The counters of a cgroup v2 `memory.events` file that mean the limit was hit.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MemoryEvents {
    /// Times usage went over `memory.high` (the kernel throttled and reclaimed).
    pub high: u64,
    /// Times usage hit `memory.max` (allocation failed first, then reclaim).
    pub max: u64,
    /// Times the OOM killer was invoked, plus processes it killed.
    pub oom: u64,
}

impl MemoryEvents {
    /// The floor the change from `before` to `self` asks for: Critical after new `max` or `oom`
    /// events, Warn after new `high` events.
    pub fn floor_since(&self, before: &MemoryEvents) -> Level {
        if self.max > before.max || self.oom > before.oom {
            Level::Critical
        } else if self.high > before.high {
            Level::Warn
        } else {
            Level::Normal
        }
    }
}

/// Parses `memory.events` (`low N`, `high N`, `max N`, `oom N`, `oom_kill N`, …).
pub fn parse_memory_events(contents: &str) -> Option<MemoryEvents> {
    let mut events = MemoryEvents::default();
    let mut seen = false;
    for line in contents.lines() {
        let mut words = line.split_whitespace();
        let (Some(key), Some(Ok(n))) = (words.next(), words.next().map(str::parse::<u64>)) else {
            continue;
        };
        seen = true;
        match key {
            "high" => events.high = n,
            "max" => events.max = n,
            "oom" | "oom_kill" => events.oom += n,
            _ => {}
        }
    }
    seen.then_some(events)
}

/// The launcher's pushed signals: the latest trim level and available bytes, each with the
/// time it came (milliseconds since [`epoch`], 0: never).
struct Pushed {
    trim_level: AtomicU32,
    trim_at_ms: AtomicU64,
    available: AtomicU64,
    available_at_ms: AtomicU64,
}

static PUSHED: Pushed = Pushed {
    trim_level: AtomicU32::new(0),
    trim_at_ms: AtomicU64::new(0),
    available: AtomicU64::new(0),
    available_at_ms: AtomicU64::new(0),
};

/// The process's reference instant for pushed signals' times.
fn epoch() -> Instant {
    static EPOCH: OnceLock<Instant> = OnceLock::new();
    *EPOCH.get_or_init(Instant::now)
}

/// `now` in milliseconds since [`epoch`], at least 1 (0 means "never").
fn stamp(now: Instant) -> u64 {
    let ms = now.saturating_duration_since(epoch()).as_millis();
    u64::try_from(ms).unwrap_or(u64::MAX).max(1)
}

/// Records an Android trim level (`onTrimMemory`), from any thread: each memory manager holds
/// its pressure floor at [`trim_floor`]`(level)` from its next frame, for [`HOLD`]. Level 0
/// ends a trim at once.
pub fn report_trim(level: u32) {
    PUSHED.trim_level.store(level, Ordering::Relaxed);
    PUSHED
        .trim_at_ms
        .store(stamp(Instant::now()), Ordering::Release);
}

/// Records the bytes the process may still allocate before the platform kills it (iOS
/// `os_proc_available_memory`), from any thread: from the next frame, for [`HOLD`], the
/// budget's crash line is what the process uses now plus this.
pub fn report_available(bytes: u64) {
    PUSHED.available.store(bytes, Ordering::Relaxed);
    PUSHED
        .available_at_ms
        .store(stamp(Instant::now()), Ordering::Release);
}

/// Forgets the launcher's reports (trim level and available bytes) at once, as if they had
/// lapsed: for tests, and for a launcher that stops reporting (its app came back to the
/// foreground with memory to spare).
pub fn clear_reports() {
    PUSHED.trim_at_ms.store(0, Ordering::Release);
    PUSHED.available_at_ms.store(0, Ordering::Release);
}

/// The pushed value stored at `at_ms`, while it holds at `now`.
fn held<T>(at_ms: &AtomicU64, now: Instant, value: impl FnOnce() -> T) -> Option<T> {
    let at = at_ms.load(Ordering::Acquire);
    let hold = u64::try_from(HOLD.as_millis()).unwrap_or(u64::MAX);
    (at != 0 && stamp(now).saturating_sub(at) < hold).then(value)
}

/// What the signals say at one frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Signals {
    /// The tightest cgroup v2 `memory.max` now (`None`: unlimited or unreadable).
    pub cgroup_limit_bytes: Option<u64>,
    /// Bytes the launcher says the process may still allocate, while that report holds.
    pub available_bytes: Option<u64>,
    /// The pressure level the platform asks for at least.
    pub floor: Level,
}

/// Reads the signals for one memory manager, once a frame ([`SignalReader::poll`]).
#[derive(Debug, Clone)]
pub struct SignalReader {
    psi_file: Option<PathBuf>,
    /// The process's cgroup directory and the `memory.max` files that bound it.
    cgroup: Option<(PathBuf, Vec<PathBuf>)>,
    events: Option<MemoryEvents>,
    events_floor: Option<(Level, Instant)>,
}

impl SignalReader {
    /// A reader of this process's signals: `ARENAGL_PSI_FILE` else `/proc/pressure/memory`,
    /// `ARENAGL_CGROUP_DIR` (that directory's own files) else this process's cgroup v2
    /// directory and its ancestors' `memory.max`.
    pub fn from_env() -> Self {
        let psi = std::env::var_os(PSI_FILE_VAR)
            .map_or_else(|| PathBuf::from("/proc/pressure/memory"), PathBuf::from);
        let cgroup = match std::env::var_os(CGROUP_DIR_VAR) {
            Some(dir) => {
                let dir = PathBuf::from(dir);
                Some((dir.clone(), vec![dir.join("memory.max")]))
            }
            None => own_cgroup(),
        };
        Self::with_paths(Some(psi), cgroup)
    }

    /// A reader of the given PSI file and cgroup directory with its `memory.max` files.
    pub fn with_paths(psi_file: Option<PathBuf>, cgroup: Option<(PathBuf, Vec<PathBuf>)>) -> Self {
        let mut reader = Self {
            psi_file,
            cgroup,
            events: None,
            events_floor: None,
        };
        reader.events = reader.read_events();
        reader
    }

    /// The signals at `now`: the files read again and the pushed values that still hold.
    pub fn poll(&mut self, now: Instant) -> Signals {
        let psi = self
            .psi_file
            .as_deref()
            .and_then(read)
            .as_deref()
            .and_then(parse_psi);
        let mut floor = psi.map_or(Level::Normal, |p| p.floor());
        if let Some(events) = self.read_events() {
            let before = self.events.replace(events).unwrap_or(events);
            let new = events.floor_since(&before);
            if new > Level::Normal {
                self.events_floor = Some((new, now));
            }
        }
        if let Some((level, at)) = self.events_floor {
            if now.saturating_duration_since(at) < HOLD {
                floor = floor.max(level);
            } else {
                self.events_floor = None;
            }
        }
        let trim = held(&PUSHED.trim_at_ms, now, || {
            trim_floor(PUSHED.trim_level.load(Ordering::Relaxed))
        });
        floor = floor.max(trim.unwrap_or(Level::Normal));
        Signals {
            cgroup_limit_bytes: self.cgroup_limit(),
            available_bytes: held(&PUSHED.available_at_ms, now, || {
                PUSHED.available.load(Ordering::Relaxed)
            }),
            floor,
        }
    }

    fn read_events(&self) -> Option<MemoryEvents> {
        let (dir, _) = self.cgroup.as_ref()?;
        parse_memory_events(&read(&dir.join("memory.events"))?)
    }

    fn cgroup_limit(&self) -> Option<u64> {
        let (_, files) = self.cgroup.as_ref()?;
        let contents: Vec<Option<String>> = files.iter().map(|f| read(f)).collect();
        cgroup::tightest_limit(contents.iter().map(Option::as_deref))
    }
}

/// This process's cgroup v2 directory and the `memory.max` files from it up to the root.
fn own_cgroup() -> Option<(PathBuf, Vec<PathBuf>)> {
    let own = read(Path::new("/proc/self/cgroup"))?;
    let path = cgroup::parse_proc_self_cgroup(&own)?;
    let mount = Path::new(cgroup::CGROUP_V2_MOUNT);
    let files = cgroup::memory_max_files(mount, path);
    let dir = files
        .first()
        .and_then(|f| f.parent())
        .map(Path::to_path_buf)?;
    Some((dir, files))
}

fn read(path: &Path) -> Option<String> {
    std::fs::read_to_string(path).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn psi_averages_set_the_floor() {
        let calm = "some avg10=0.00 avg60=0.00 avg300=0.00 total=0\n\
                    full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n";
        let some = "some avg10=12.50 avg60=3.00 avg300=1.00 total=99\n\
                    full avg10=1.00 avg60=0.00 avg300=0.00 total=9\n";
        let full = "some avg10=40.00 avg60=3.00 avg300=1.00 total=99\n\
                    full avg10=7.25 avg60=0.00 avg300=0.00 total=9\n";
        let floors: Vec<Level> = [calm, some, full]
            .iter()
            .map(|c| parse_psi(c).expect("parses").floor())
            .collect();
        assert_eq!(floors, [Level::Normal, Level::Warn, Level::Critical]);
        // An old kernel's file has no `full` line; garbage is no signal.
        let old = parse_psi("some avg10=11.00 avg60=0 avg300=0 total=1\n").expect("parses");
        assert_eq!(old.full_avg10, 0.0);
        assert_eq!(parse_psi("no pressure here"), None);
        assert_eq!(parse_psi("some avg10=NaN\n"), None);
    }

    #[test]
    fn new_cgroup_events_set_the_floor() {
        let a = parse_memory_events("low 0\nhigh 3\nmax 1\noom 0\noom_kill 0\n").expect("parses");
        assert_eq!(
            a,
            MemoryEvents {
                high: 3,
                max: 1,
                oom: 0
            }
        );
        let more_high = MemoryEvents { high: 4, ..a };
        let more_max = MemoryEvents { max: 2, ..a };
        let killed = parse_memory_events("high 3\nmax 1\noom 1\noom_kill 1\n").expect("parses");
        assert_eq!(a.floor_since(&a), Level::Normal);
        assert_eq!(more_high.floor_since(&a), Level::Warn);
        assert_eq!(more_max.floor_since(&a), Level::Critical);
        assert_eq!(killed.floor_since(&a), Level::Critical);
        assert_eq!(parse_memory_events(""), None);
    }

    #[test]
    fn trim_levels_map_to_floors() {
        use trim::*;
        let want = [
            (0, Level::Normal),
            (RUNNING_MODERATE, Level::Warn),
            (RUNNING_LOW, Level::Critical),
            (RUNNING_CRITICAL, Level::Critical),
            (UI_HIDDEN, Level::Warn),
            (BACKGROUND, Level::Critical),
            (MODERATE, Level::Critical),
            (COMPLETE, Level::Critical),
            (7, Level::Warn),
            (1000, Level::Critical),
        ];
        for (level, floor) in want {
            assert_eq!(trim_floor(level), floor, "trim level {level}");
        }
    }
}
