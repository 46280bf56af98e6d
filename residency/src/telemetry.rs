//! The telemetry page: a running ArenaGL process publishes its memory figures every frame
//! into a small memory-mapped file; `arenagl top` and `arenagl record` read it from another
//! process.
//!
//! Design decisions:
//! - **One file per process**, `<pid>.page`, in [`telemetry_dir`]: `$ARENAGL_TELEMETRY_DIR`, else
//!   `$XDG_RUNTIME_DIR/arenagl/`, else `<temp dir>/arenagl-<uid>/` (the temp dir is `$TMPDIR` or
//!   `/tmp`; on iOS it is the app's own tmp, the only place it may write). The directory is made
//!   `0700` and refused when it is a symlink, owned by another user or writable by others; files
//!   are `0600`.
//! - **Publishing costs tens of nanoseconds**: the [`Snapshot`] is encoded on the stack and copied
//!   into the mapping as ~100 relaxed atomic word stores under a seqlock ([`crate::seqlock`]).
//!   No allocation, no lock, no system call; the kernel writes the page back lazily (it is a
//!   tmpfs file under `$XDG_RUNTIME_DIR`, so usually never).
//! - **Readers never see a torn snapshot**: the seqlock rejects copies that overlapped a write
//!   and [`TelemetryReader::read`] retries a bounded number of times, so a writer that died
//!   mid-write costs a reader a `None`, never a hang.
//! - **The header is immutable once visible**: the writer builds the page under a temporary
//!   name and renames it into place, so a reader that can open `<pid>.page` sees a complete
//!   header; the file is never truncated or rewritten in place (a later process with the same
//!   pid replaces it by another rename, leaving existing mappings of the old file intact).
//! - **Liveness**: a page is attachable only while its writer lives: `/proc/<pid>` exists and the
//!   process start time recorded in the header matches `/proc/<pid>/stat` (so a recycled pid is
//!   not mistaken for the writer). The writer removes its file on drop; files left by a crash are
//!   ignored as stale. Without procfs, liveness cannot be told and pages count as alive.
//! - `unsafe` is confined to `telemetry/page.rs`, which views the mapping as atomic words.
//!
//! # Layout, version 1 (64-bit words, little-endian)
//! | word  | content |
//! |-------|---------|
//! | 0     | magic, the bytes `ARENAGLT` |
//! | 1     | layout version ([`LAYOUT_VERSION`]) |
//! | 2     | page size in bytes ([`PAGE_BYTES`]) |
//! | 3     | writer pid |
//! | 4     | writer start time (`/proc/<pid>/stat` field 22, clock ticks since boot; 0 unknown) |
//! | 5     | first payload word (16) |
//! | 6     | payload words ([`SNAPSHOT_WORDS`]) |
//! | 8     | seqlock sequence (odd while a write is in progress, 0 before the first; native-endian, and every target ArenaGL runs on is little-endian) |
//! | 16–95 | the snapshot, in [`Snapshot::encode`] order: frame, timestamp, budget, 5 shares, 5 live, 5 peak, device-memory objects, clamp, `vkAllocateMemory` calls, pressure level, 6 counters, epochs in flight, pending-release bytes, device lost, events recorded, then 16 event slots of (kind code, frame, bytes) |
//!
//! A reader rejects a page whose magic, version, size or payload length differs from its own.

#[allow(unsafe_code)] // The mapping must be viewed as atomics; see `page` for the argument.
mod page;
mod snapshot;

use std::fs::{self, File, OpenOptions};
use std::io::{self, Read};
use std::os::unix::fs::{DirBuilderExt, MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::sync::Mutex;

pub use page::PAGE_BYTES;
pub use snapshot::{
    unix_time_ns, Counters, Event, EventKind, EventRing, Snapshot, EVENT_CAPACITY, SNAPSHOT_WORDS,
};

use crate::seqlock::{SeqLock, StdMemory};
use crate::ResidencyError;
use page::{SharedPage, PAGE_WORDS};

/// The page magic: the bytes `ARENAGLT` as a little-endian word.
pub const MAGIC: u64 = u64::from_le_bytes(*b"ARENAGLT");
/// The layout version this build writes and reads.
pub const LAYOUT_VERSION: u64 = 1;
/// The variable that overrides [`telemetry_dir`].
pub const DIR_VAR: &str = "ARENAGL_TELEMETRY_DIR";

const HEADER_WORDS: usize = 8;
const SEQ_WORD: usize = 8;
const PAYLOAD_WORD: usize = 16;
const _: () = assert!(PAYLOAD_WORD + SNAPSHOT_WORDS <= PAGE_WORDS);
const _: () = assert!(HEADER_WORDS <= SEQ_WORD && SEQ_WORD < PAYLOAD_WORD);

/// Read attempts before [`TelemetryReader::read`] gives up on a write in progress. A write takes
/// well under a microsecond, so only a writer descheduled mid-write (or dead) exhausts them.
const READ_ATTEMPTS: u32 = 1024;

/// Page files this process is writing, so two writers never share (and delete) one file.
static ACTIVE: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// The directory telemetry pages live in (see the module docs). Never creates it.
pub fn telemetry_dir() -> PathBuf {
    let var = |name| std::env::var_os(name).filter(|value| !value.is_empty());
    if let Some(dir) = var(DIR_VAR) {
        return PathBuf::from(dir);
    }
    if let Some(runtime) = var("XDG_RUNTIME_DIR") {
        return PathBuf::from(runtime).join("arenagl");
    }
    let owner = match current_uid() {
        Some(uid) => format!("arenagl-{uid}"),
        None => match std::env::var("USER") {
            Ok(user) if !user.is_empty() && !user.contains('/') => format!("arenagl-{user}"),
            _ => "arenagl".to_owned(),
        },
    };
    std::env::temp_dir().join(owner)
}

/// Publishes this process's [`Snapshot`]s into its telemetry page.
pub struct TelemetryWriter {
    page: SharedPage,
    path: PathBuf,
}

impl TelemetryWriter {
    /// Creates `<pid>.page` in `dir` ([`telemetry_dir`] when `None`), creating the directory if
    /// needed. Fails when this process already publishes into that directory.
    pub fn create(dir: Option<&Path>) -> Result<TelemetryWriter, ResidencyError> {
        let dir = dir.map_or_else(telemetry_dir, Path::to_path_buf);
        create_page(
            &dir,
            std::process::id(),
            process_start_ticks(std::process::id()),
        )
    }

    /// Publishes `snapshot`: ~100 atomic word stores into the mapping, no allocation, no system
    /// call, never blocks.
    pub fn publish(&mut self, snapshot: &Snapshot) {
        let mut words = [0u64; SNAPSHOT_WORDS];
        snapshot.encode(&mut words);
        seqlock(&self.page).write(&words);
    }

    /// The page file.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for TelemetryWriter {
    fn drop(&mut self) {
        // Best effort: a file that cannot be removed is stale once this process exits, and
        // readers ignore stale files.
        let _ = fs::remove_file(&self.path);
        active_paths().retain(|path| path != &self.path);
    }
}

impl std::fmt::Debug for TelemetryWriter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TelemetryWriter")
            .field("path", &self.path)
            .finish_non_exhaustive()
    }
}

/// Attaches to another process's telemetry page.
pub struct TelemetryReader {
    page: SharedPage,
    header: Header,
    path: PathBuf,
    /// (device, inode) of the mapped file, to notice that the writer removed or replaced it.
    identity: (u64, u64),
}

impl TelemetryReader {
    /// Attaches to process `pid`'s page in [`telemetry_dir`].
    pub fn open(pid: u32) -> Result<TelemetryReader, ResidencyError> {
        TelemetryReader::open_in(&telemetry_dir(), pid)
    }

    /// Attaches to process `pid`'s page in `dir`.
    pub fn open_in(dir: &Path, pid: u32) -> Result<TelemetryReader, ResidencyError> {
        let path = page_path(dir, pid);
        let file = match OpenOptions::new().read(true).write(true).open(&path) {
            Ok(file) => file,
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                return Err(ResidencyError::NoTelemetry {
                    pid,
                    dir: dir.to_path_buf(),
                })
            }
            Err(e) => return Err(io_error("open", &path, &e)),
        };
        let header = read_header(&file, &path, pid)?;
        if !writer_alive(header.pid, header.start_ticks) {
            return Err(ResidencyError::StalePage { pid, path });
        }
        let meta = file
            .metadata()
            .map_err(|e| io_error("inspect", &path, &e))?;
        let page = SharedPage::map(&file).map_err(|e| io_error("map", &path, &e))?;
        Ok(TelemetryReader {
            page,
            header,
            path,
            identity: (meta.dev(), meta.ino()),
        })
    }

    /// Pids of the processes publishing live pages in [`telemetry_dir`], ascending.
    pub fn list_processes() -> Result<Vec<u32>, ResidencyError> {
        TelemetryReader::list_processes_in(&telemetry_dir())
    }

    /// Pids of the processes publishing live pages in `dir`, ascending. Stale, foreign and
    /// unreadable files are skipped; a missing directory lists nothing.
    pub fn list_processes_in(dir: &Path) -> Result<Vec<u32>, ResidencyError> {
        let entries = match fs::read_dir(dir) {
            Ok(entries) => entries,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(io_error("list", dir, &e)),
        };
        let mut pids = Vec::new();
        for entry in entries.flatten() {
            let name = entry.file_name();
            let Some(pid) = name
                .to_str()
                .and_then(|name| name.strip_suffix(".page"))
                .and_then(|stem| stem.parse::<u32>().ok())
            else {
                continue;
            };
            let path = entry.path();
            let live = File::open(&path)
                .ok()
                .and_then(|file| read_header(&file, &path, pid).ok())
                .is_some_and(|header| writer_alive(header.pid, header.start_ticks));
            if live {
                pids.push(pid);
            }
        }
        pids.sort_unstable();
        Ok(pids)
    }

    /// The latest snapshot; `None` when nothing was published yet, or a write was in progress
    /// for every attempt (try again later). Never a torn snapshot.
    pub fn read(&self) -> Option<Snapshot> {
        let mut words = [0u64; SNAPSHOT_WORDS];
        match seqlock(&self.page).read(&mut words, READ_ATTEMPTS)? {
            0 => None,
            _ => Snapshot::decode(&words),
        }
    }

    /// Whether the writer still publishes into this page: its process runs and the page file is
    /// still the one mapped (a writer removes it when dropped). The page stays readable after,
    /// frozen at the last snapshot.
    pub fn is_alive(&self) -> bool {
        let same_file =
            fs::metadata(&self.path).is_ok_and(|meta| (meta.dev(), meta.ino()) == self.identity);
        same_file && writer_alive(self.header.pid, self.header.start_ticks)
    }

    /// The writer's pid.
    pub fn pid(&self) -> u32 {
        self.header.pid
    }

    /// The page file.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl std::fmt::Debug for TelemetryReader {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TelemetryReader")
            .field("path", &self.path)
            .field("pid", &self.header.pid)
            .finish_non_exhaustive()
    }
}

/// The immutable header fields a reader needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Header {
    pid: u32,
    start_ticks: u64,
}

fn seqlock(page: &SharedPage) -> SeqLock<'_, StdMemory> {
    let words = page.words();
    SeqLock::new(
        &words[SEQ_WORD],
        &words[PAYLOAD_WORD..PAYLOAD_WORD + SNAPSHOT_WORDS],
    )
}

fn page_path(dir: &Path, pid: u32) -> PathBuf {
    dir.join(format!("{pid}.page"))
}

fn io_error(action: &'static str, path: &Path, error: &io::Error) -> ResidencyError {
    ResidencyError::TelemetryIo {
        action,
        path: path.to_path_buf(),
        kind: error.kind(),
        message: error.to_string(),
    }
}

fn active_paths() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    // The critical sections cannot panic; a poisoned lock still holds a consistent list.
    ACTIVE
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Creates the page for `pid` in `dir` (the pure half of [`TelemetryWriter::create`]; tests use
/// it to plant pages of other pids).
fn create_page(
    dir: &Path,
    pid: u32,
    start_ticks: Option<u64>,
) -> Result<TelemetryWriter, ResidencyError> {
    ensure_private_dir(dir)?;
    let path = page_path(dir, pid);
    {
        let mut active = active_paths();
        if active.contains(&path) {
            return Err(ResidencyError::AlreadyPublishing { path });
        }
        active.push(path.clone());
    }
    let tmp = dir.join(format!(".{pid}.page.tmp"));
    let built = build_page(&tmp, pid, start_ticks.unwrap_or(0)).and_then(|page| {
        fs::rename(&tmp, &path)
            .map(|()| page)
            .map_err(|e| io_error("publish", &path, &e))
    });
    match built {
        Ok(page) => Ok(TelemetryWriter { page, path }),
        Err(e) => {
            let _ = fs::remove_file(&tmp);
            active_paths().retain(|active| active != &path);
            Err(e)
        }
    }
}

fn build_page(tmp: &Path, pid: u32, start_ticks: u64) -> Result<SharedPage, ResidencyError> {
    // A leftover from a crashed process with this pid; `create_new` below then refuses to
    // follow anything planted at the name.
    let _ = fs::remove_file(tmp);
    let file = OpenOptions::new()
        .read(true)
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(tmp)
        .map_err(|e| io_error("create", tmp, &e))?;
    file.set_len(PAGE_BYTES as u64)
        .map_err(|e| io_error("size", tmp, &e))?;
    let page = SharedPage::map(&file).map_err(|e| io_error("map", tmp, &e))?;
    let words = page.words();
    let header = [
        MAGIC,
        LAYOUT_VERSION,
        PAGE_BYTES as u64,
        u64::from(pid),
        start_ticks,
        PAYLOAD_WORD as u64,
        SNAPSHOT_WORDS as u64,
    ];
    for (word, value) in words.iter().zip(header) {
        // Relaxed is enough: readers open the file only after the rename, a system call that
        // orders these stores before anything they do.
        word.store(value.to_le(), Ordering::Relaxed);
    }
    Ok(page)
}

/// Reads and validates the header of `file`, which should belong to `pid`.
fn read_header(file: &File, path: &Path, pid: u32) -> Result<Header, ResidencyError> {
    let incompatible = |reason: String| ResidencyError::IncompatiblePage {
        path: path.to_path_buf(),
        reason,
    };
    let mut bytes = [0u8; HEADER_WORDS * 8];
    // `Read for &File`: a plain read of words the writer never changes after publishing them.
    (&*file)
        .read_exact(&mut bytes)
        .map_err(|_| incompatible("shorter than a telemetry header".to_owned()))?;
    let mut words = [0u64; HEADER_WORDS];
    for (word, chunk) in words.iter_mut().zip(bytes.chunks_exact(8)) {
        let mut le = [0u8; 8];
        le.copy_from_slice(chunk);
        *word = u64::from_le_bytes(le);
    }
    let [magic, version, page_bytes, page_pid, start_ticks, payload_word, payload_words, _] = words;
    if magic != MAGIC {
        return Err(incompatible(
            "bad magic (not an ArenaGL telemetry page)".to_owned(),
        ));
    }
    if version != LAYOUT_VERSION {
        return Err(incompatible(format!(
            "layout version {version}; this arenagl reads version {LAYOUT_VERSION}"
        )));
    }
    if page_bytes != PAGE_BYTES as u64
        || payload_word != PAYLOAD_WORD as u64
        || payload_words != SNAPSHOT_WORDS as u64
    {
        return Err(incompatible(format!(
            "page of {page_bytes} bytes with {payload_words} payload words at word \
             {payload_word}; expected {PAGE_BYTES}, {SNAPSHOT_WORDS} at {PAYLOAD_WORD}"
        )));
    }
    if page_pid != u64::from(pid) {
        return Err(incompatible(format!(
            "written by pid {page_pid}, named for pid {pid}"
        )));
    }
    Ok(Header { pid, start_ticks })
}

/// Creates `dir` (mode 0700) if needed and checks that it is a real directory of this user that
/// nobody else can write to: pages are attached to by pid, so a planted file must not be able to
/// impersonate a process.
fn ensure_private_dir(dir: &Path) -> Result<(), ResidencyError> {
    fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)
        .map_err(|e| io_error("create directory", dir, &e))?;
    let meta = fs::symlink_metadata(dir).map_err(|e| io_error("inspect", dir, &e))?;
    let refuse = |message: &str| ResidencyError::TelemetryIo {
        action: "use directory",
        path: dir.to_path_buf(),
        kind: io::ErrorKind::PermissionDenied,
        message: message.to_owned(),
    };
    if !meta.is_dir() {
        return Err(refuse("not a directory (a symlink?)"));
    }
    if current_uid().is_some_and(|uid| uid != meta.uid()) {
        return Err(refuse("owned by another user"));
    }
    if meta.permissions().mode() & 0o022 != 0 {
        return Err(refuse("writable by other users"));
    }
    Ok(())
}

/// This process's user id, from the owner of `/proc/self` (no libc call); `None` without procfs.
fn current_uid() -> Option<u32> {
    fs::metadata("/proc/self").ok().map(|meta| meta.uid())
}

/// Field 22 of `/proc/<pid>/stat`: when the process started, in clock ticks since boot.
fn process_start_ticks(pid: u32) -> Option<u64> {
    let stat = fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name (field 2) is in parentheses and may contain spaces and ')'; the fields
    // after the last ')' start at field 3.
    let after_name = &stat[stat.rfind(')')? + 1..];
    after_name.split_whitespace().nth(22 - 3)?.parse().ok()
}

/// Whether the process that wrote a page with this pid and start time still runs.
fn writer_alive(pid: u32, start_ticks: u64) -> bool {
    if !Path::new("/proc/self").exists() {
        return true; // no procfs: cannot tell
    }
    if !Path::new(&format!("/proc/{pid}")).exists() {
        return false;
    }
    match (start_ticks, process_start_ticks(pid)) {
        (0, _) | (_, None) => true,
        (recorded, Some(now)) => recorded == now,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::category::CategoryMap;
    use crate::pressure::Level;
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;
    use std::time::{Duration, Instant};

    /// A fresh private directory under the system temp dir, removed on drop.
    struct TempDir(PathBuf);

    impl TempDir {
        fn new(name: &str) -> TempDir {
            let dir = std::env::temp_dir().join(format!(
                "arenagl-telemetry-test-{}-{name}",
                std::process::id()
            ));
            let _ = fs::remove_dir_all(&dir);
            TempDir(dir)
        }
    }

    impl Drop for TempDir {
        fn drop(&mut self) {
            let _ = fs::remove_dir_all(&self.0);
        }
    }

    /// A snapshot whose every field is derived from `k`, so a mix of two publications is
    /// detectable ([`assert_consistent`]). Events accumulate in `ring` across calls.
    fn derived(k: u64, ring: &mut EventRing) -> Snapshot {
        ring.push(Event {
            kind: EventKind::ALL[(k % 12) as usize],
            frame: k,
            bytes: k * 13,
        });
        let per = |base: u64| CategoryMap::from_array(std::array::from_fn(|i| base + i as u64));
        Snapshot {
            frame: k,
            timestamp_ns: k * 3,
            budget_bytes: k * 5 + 1,
            budget_shares: per(k),
            live_bytes: per(k * 2),
            peak_bytes: per(k * 4),
            device_memory_objects: k % 4096,
            allocation_clamp: 4096,
            allocate_calls: k,
            pressure: Level::ALL[(k % 4) as usize],
            counters: Counters {
                proactive_gcs: k,
                blocking_gcs: k + 1,
                evictions: k + 2,
                demotions: k + 3,
                refusals: k + 4,
                oom_recoveries: k + 5,
            },
            epochs_in_flight: k % 3,
            pending_release_bytes: k * 11,
            device_lost: k % 2 == 1,
            events: *ring,
        }
    }

    fn assert_consistent(s: &Snapshot) {
        let k = s.frame;
        let mut expected = derived(k, &mut EventRing::default());
        expected.events = s.events; // the ring is checked event by event below
        assert_eq!(*s, expected, "torn snapshot at frame {k}");
        assert_eq!(s.events.recorded(), k + 1, "torn ring at frame {k}");
        for (sequence, event) in s.events.iter() {
            assert_eq!(event.frame, sequence, "torn event at frame {k}");
            assert_eq!(event.bytes, sequence * 13, "torn event at frame {k}");
            assert_eq!(event.kind, EventKind::ALL[(sequence % 12) as usize]);
        }
        let retained = (k + 1).min(EVENT_CAPACITY as u64);
        assert_eq!(
            s.events.iter().count() as u64,
            retained,
            "torn ring at frame {k}"
        );
    }

    #[test]
    fn round_trip_list_and_removal_on_drop() {
        let dir = TempDir::new("round-trip");
        let pid = std::process::id();
        let mut writer = TelemetryWriter::create(Some(&dir.0)).expect("create");
        assert_eq!(writer.path(), dir.0.join(format!("{pid}.page")));
        let mode = fs::metadata(&dir.0).expect("dir").permissions().mode();
        assert_eq!(mode & 0o777, 0o700);

        let reader = TelemetryReader::open_in(&dir.0, pid).expect("open");
        assert_eq!(reader.read(), None, "nothing published yet");
        assert!(reader.is_alive());
        assert_eq!(
            TelemetryReader::list_processes_in(&dir.0).expect("list"),
            vec![pid]
        );

        let mut ring = EventRing::default();
        for k in 0..40 {
            let snapshot = derived(k, &mut ring);
            writer.publish(&snapshot);
            assert_eq!(reader.read(), Some(snapshot));
        }
        assert!(matches!(
            TelemetryWriter::create(Some(&dir.0)),
            Err(ResidencyError::AlreadyPublishing { .. })
        ));

        let path = writer.path().to_path_buf();
        drop(writer);
        assert!(!path.exists(), "the page is removed on drop");
        assert_eq!(
            TelemetryReader::list_processes_in(&dir.0).expect("list"),
            Vec::<u32>::new()
        );
        assert!(matches!(
            TelemetryReader::open_in(&dir.0, pid),
            Err(ResidencyError::NoTelemetry { .. })
        ));
        // The attached reader keeps the last snapshot of the unlinked file, and knows it is gone.
        assert_eq!(reader.read().map(|s| s.frame), Some(39));
        assert!(!reader.is_alive());
        // A new writer after the old one is dropped is fine.
        TelemetryWriter::create(Some(&dir.0)).expect("create again");
    }

    #[test]
    fn stale_and_foreign_pages_are_ignored() {
        let dir = TempDir::new("stale");
        let pid = std::process::id();
        // A pid above the kernel's pid_max (2^22) never runs.
        let dead_pid = 4_000_000_000;
        let stale = create_page(&dir.0, dead_pid, Some(1)).expect("plant");
        // Our own pid with another start time: a recycled pid.
        let recycled = create_page(&dir.0, pid, Some(1)).expect("plant");
        fs::write(dir.0.join("77.page.tmp"), b"junk").expect("junk");
        fs::write(dir.0.join("notes.txt"), b"junk").expect("junk");
        assert_eq!(
            TelemetryReader::list_processes_in(&dir.0).expect("list"),
            Vec::<u32>::new()
        );
        assert!(matches!(
            TelemetryReader::open_in(&dir.0, dead_pid),
            Err(ResidencyError::StalePage { pid, .. }) if pid == dead_pid
        ));
        assert!(matches!(
            TelemetryReader::open_in(&dir.0, pid),
            Err(ResidencyError::StalePage { .. })
        ));
        drop((stale, recycled));
        assert!(TelemetryReader::list_processes_in(&dir.0.join("missing"))
            .expect("missing dir lists nothing")
            .is_empty());
    }

    #[test]
    fn corrupt_pages_are_refused_with_a_reason() {
        let dir = TempDir::new("corrupt");
        ensure_private_dir(&dir.0).expect("dir");
        let pid = std::process::id();
        let path = dir.0.join(format!("{pid}.page"));
        fs::write(&path, vec![0u8; PAGE_BYTES]).expect("write");
        let error = TelemetryReader::open_in(&dir.0, pid).expect_err("zeros are not a page");
        assert!(error.to_string().contains("bad magic"), "{error}");
        fs::write(&path, b"ARENAGLT").expect("write");
        let error = TelemetryReader::open_in(&dir.0, pid).expect_err("too short");
        assert!(error.to_string().contains("shorter"), "{error}");
        let mut newer = MAGIC.to_le_bytes().to_vec();
        newer.extend(2u64.to_le_bytes());
        newer.resize(PAGE_BYTES, 0);
        fs::write(&path, newer).expect("write");
        let error = TelemetryReader::open_in(&dir.0, pid).expect_err("newer layout");
        assert!(error.to_string().contains("layout version 2"), "{error}");
    }

    #[test]
    fn a_shared_directory_is_refused() {
        let dir = TempDir::new("shared");
        fs::create_dir_all(&dir.0).expect("dir");
        fs::set_permissions(&dir.0, fs::Permissions::from_mode(0o777)).expect("chmod");
        let error = TelemetryWriter::create(Some(&dir.0)).expect_err("world-writable");
        assert!(
            error.to_string().contains("writable by other users"),
            "{error}"
        );
    }

    #[test]
    fn start_ticks_parse_this_process() {
        let ticks = process_start_ticks(std::process::id());
        if Path::new("/proc/self/stat").exists() {
            assert!(ticks.is_some_and(|t| t > 0));
            assert!(writer_alive(std::process::id(), ticks.unwrap_or(0)));
        }
    }

    /// A writer thread publishes continuously through one mapping while a reader thread reads
    /// through another mapping of the same file: every accepted snapshot must be one publication.
    #[test]
    fn concurrent_reads_are_never_torn() {
        let dir = TempDir::new("torn");
        let mut writer = TelemetryWriter::create(Some(&dir.0)).expect("create");
        let reader = TelemetryReader::open_in(&dir.0, std::process::id()).expect("open");
        let stop = Arc::new(AtomicBool::new(false));
        let writing = {
            let stop = Arc::clone(&stop);
            std::thread::spawn(move || {
                let mut ring = EventRing::default();
                let mut k = 0;
                while !stop.load(Ordering::Relaxed) {
                    writer.publish(&derived(k, &mut ring));
                    k += 1;
                }
                k
            })
        };
        let deadline = Instant::now() + Duration::from_millis(400);
        let (mut reads, mut frames_seen, mut last_frame) = (0u64, 0u64, None);
        while Instant::now() < deadline || frames_seen < 10 {
            if let Some(snapshot) = reader.read() {
                assert_consistent(&snapshot);
                reads += 1;
                if last_frame != Some(snapshot.frame) {
                    frames_seen += 1;
                    last_frame = Some(snapshot.frame);
                }
            }
            if Instant::now() > deadline + Duration::from_secs(10) {
                break;
            }
        }
        stop.store(true, Ordering::Relaxed);
        let published = writing.join().expect("writer thread");
        eprintln!(
            "{reads} consistent reads of {frames_seen} distinct frames; {published} published"
        );
        assert!(reads > 100, "too few reads to mean anything: {reads}");
        assert!(frames_seen >= 10, "the writer did not run concurrently");
    }
}
