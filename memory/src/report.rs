//! The memory report: where a process's memory goes, device side and CPU side, opt-in with
//! `ARENAGL_MEMORY_REPORT=1` (printed to stderr as one `ARENAGL_MEMORY_REPORT key=value …`
//! line).
//!
//! Design decisions:
//! - On a device whose memory is host memory (lavapipe, phones) every device byte is a process
//!   byte, so the report sets the manager's own figures (bytes per category, `VkDeviceMemory`
//!   block bytes, staging arenas, the readback buffer, the recycle bin, memory waiting for its
//!   epoch) beside the process's (`VmRSS`, `VmHWM`, `RssAnon`, `RssFile` from
//!   `/proc/self/status`) and the CPU copies other crates keep for the manager's clients
//!   ([`HostMemory`], reported with [`note_host_bytes`]).
//! - Printed when the process's high-water mark has grown since the last line (checked every
//!   [`CHECK_EVERY_FRAMES`] frames at `begin_frame`), and once more when the manager is dropped;
//!   so the last line before a peak is the breakdown at that peak. Off, it costs one branch a
//!   frame and one relaxed atomic add per CPU copy made or freed.
//! - [`Manager::memory_report`] builds the same figures on demand, for tests and tools.
//! - This file owns the manager's `report` field (a [`ReportState`]); the manager calls two
//!   hooks here: `report_frame` at every `begin_frame`, `report_final` in `Drop`.

use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::backend::Backend;
use crate::desc::Category;
use crate::manager::Manager;

/// The variable that turns the report on.
pub const REPORT_VAR: &str = "ARENAGL_MEMORY_REPORT";

/// Frames between two reads of `/proc/self/status` while the report is on.
pub const CHECK_EVERY_FRAMES: u64 = 8;

/// CPU memory other crates keep for the manager's clients, counted process-wide.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HostMemory {
    /// The translator's CPU shadows of small buffers.
    BufferShadows,
}

static BUFFER_SHADOW_BYTES: AtomicU64 = AtomicU64::new(0);

fn counter(kind: HostMemory) -> &'static AtomicU64 {
    match kind {
        HostMemory::BufferShadows => &BUFFER_SHADOW_BYTES,
    }
}

/// Adds `added` bytes to, and takes `removed` bytes from, the process-wide count of `kind`.
pub fn note_host_bytes(kind: HostMemory, added: u64, removed: u64) {
    let c = counter(kind);
    c.fetch_add(added, Ordering::Relaxed);
    // Saturating: a count never goes below zero, even if a caller over-reports a removal.
    let _ = c.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |v| {
        Some(v.saturating_sub(removed))
    });
}

/// Bytes of `kind` held now in this process.
pub fn host_bytes(kind: HostMemory) -> u64 {
    counter(kind).load(Ordering::Relaxed)
}

/// The process's memory as the kernel counts it, in KiB (0 where unknown).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ProcessMemory {
    /// Resident set now.
    pub vm_rss_kib: u64,
    /// The most the resident set has been.
    pub vm_hwm_kib: u64,
    /// Resident anonymous memory (heap, `mmap`ed anonymous memory: lavapipe's device memory).
    pub rss_anon_kib: u64,
    /// Resident file-backed memory (the libraries' code and data).
    pub rss_file_kib: u64,
}

impl ProcessMemory {
    /// Reads `/proc/self/status`; zeros where there is no procfs.
    pub fn read() -> Self {
        std::fs::read_to_string("/proc/self/status")
            .map(|s| Self::parse(&s))
            .unwrap_or_default()
    }

    /// The figures in the text of a `/proc/<pid>/status` file.
    pub fn parse(status: &str) -> Self {
        let mut m = Self::default();
        for line in status.lines() {
            let Some((key, value)) = line.split_once(':') else {
                continue;
            };
            let kib = value
                .trim()
                .trim_end_matches("kB")
                .trim()
                .parse()
                .unwrap_or(0);
            match key {
                "VmRSS" => m.vm_rss_kib = kib,
                "VmHWM" => m.vm_hwm_kib = kib,
                "RssAnon" => m.rss_anon_kib = kib,
                "RssFile" => m.rss_file_kib = kib,
                _ => {}
            }
        }
        m
    }
}

/// One breakdown: the manager's figures and the process's.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MemoryReport {
    /// Frames (`begin_frame` calls) so far.
    pub frame: u64,
    /// The process.
    pub process: ProcessMemory,
    /// Live and peak bytes per category, indexed by [`Category::index`].
    pub categories: [(u64, u64); Category::COUNT],
    /// Bytes in live `VkDeviceMemory` objects (sub-allocated bytes plus free space in blocks).
    pub block_bytes: u64,
    /// Live `VkDeviceMemory` objects.
    pub device_memory_objects: u32,
    /// `vkAllocateMemory` calls so far.
    pub allocate_calls: u64,
    /// Bytes of the staging arenas' live blocks (primary and overflow).
    pub staging_arena_bytes: u64,
    /// The staging arena size in force (each frame slot's primary block).
    pub staging_arena_size: u64,
    /// The most bytes one frame slot bumped between rewinds so far.
    pub staging_peak_slot_bytes: u64,
    /// Bytes of the reusable readback buffer.
    pub readback_bytes: u64,
    /// Bytes reserved by the per-frame CPU scratch arenas.
    pub scratch_bytes: u64,
    /// Bytes in the recycle bin now.
    pub recycle_bin_bytes: u64,
    /// The recycle bin's cap.
    pub recycle_bin_cap: u64,
    /// Bytes retired and waiting for their epoch.
    pub pending_release_bytes: u64,
    /// The translator's CPU shadows of small buffers ([`HostMemory::BufferShadows`]).
    pub buffer_shadow_bytes: u64,
    /// Loads that rewound a staging slot after a wait (`MemoryStats::staging_bounds`).
    pub staging_bounds: u64,
    /// C-heap trims after device memory grew (`MemoryStats::host_heap_trims`).
    pub host_heap_trims: u64,
    /// Bytes of the restore journal (`journal.rs`): file-backed and written back, so clean
    /// pages (part of `rss_file_kib` while resident), never dirty anonymous memory.
    pub journal_bytes: u64,
    /// Length of the journal's file.
    pub journal_file_bytes: u64,
}

impl fmt::Display for MemoryReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kib = |b: u64| b.div_ceil(1024);
        let p = &self.process;
        write!(
            f,
            "ARENAGL_MEMORY_REPORT frame={} vm_rss_kib={} vm_hwm_kib={} rss_anon_kib={} \
             rss_file_kib={} block_kib={} device_memory_objects={} allocate_calls={}",
            self.frame,
            p.vm_rss_kib,
            p.vm_hwm_kib,
            p.rss_anon_kib,
            p.rss_file_kib,
            kib(self.block_bytes),
            self.device_memory_objects,
            self.allocate_calls,
        )?;
        for category in Category::ALL {
            let (live, peak) = self.categories[category.index()];
            let name = category.name().replace('-', "_");
            write!(f, " {name}_kib={} {name}_peak_kib={}", kib(live), kib(peak))?;
        }
        write!(
            f,
            " staging_arena_kib={} staging_arena_size_kib={} staging_peak_slot_kib={} \
             readback_kib={} scratch_kib={} recycle_bin_kib={} recycle_bin_cap_kib={} \
             pending_release_kib={} buffer_shadow_kib={} staging_bounds={} host_heap_trims={} \
             journal_kib={} journal_file_kib={}",
            kib(self.staging_arena_bytes),
            kib(self.staging_arena_size),
            kib(self.staging_peak_slot_bytes),
            kib(self.readback_bytes),
            kib(self.scratch_bytes),
            kib(self.recycle_bin_bytes),
            kib(self.recycle_bin_cap),
            kib(self.pending_release_bytes),
            kib(self.buffer_shadow_bytes),
            self.staging_bounds,
            self.host_heap_trims,
            kib(self.journal_bytes),
            kib(self.journal_file_bytes),
        )
    }
}

/// The report's state in one manager (the manager's `report` field, touched only here).
#[derive(Debug, Default)]
pub(crate) struct ReportState {
    enabled: bool,
    frame: u64,
    /// `VmHWM` at the last printed line.
    printed_hwm_kib: u64,
}

impl ReportState {
    /// On when `ARENAGL_MEMORY_REPORT` is set to anything but `0` or empty.
    pub(crate) fn from_env() -> Self {
        let enabled = std::env::var(REPORT_VAR).is_ok_and(|v| !matches!(v.trim(), "" | "0"));
        Self {
            enabled,
            ..Self::default()
        }
    }
}

impl<B: Backend> Manager<B> {
    /// The breakdown now (whether or not the report is on).
    pub fn memory_report(&self) -> MemoryReport {
        let stats = self.stats();
        let mut categories = [(0, 0); Category::COUNT];
        for (slot, c) in categories.iter_mut().zip(stats.categories.iter()) {
            *slot = (c.live_bytes, c.peak_bytes);
        }
        let staging = self.staging_figures();
        MemoryReport {
            frame: self.report.frame,
            process: ProcessMemory::read(),
            categories,
            block_bytes: stats.device_memory.block_bytes,
            device_memory_objects: stats.device_memory.live_objects,
            allocate_calls: stats.device_memory.allocate_calls,
            staging_arena_bytes: staging.arena_bytes,
            staging_arena_size: staging.arena_size,
            staging_peak_slot_bytes: staging.peak_slot_bytes,
            readback_bytes: staging.readback_bytes,
            scratch_bytes: staging.scratch_bytes,
            recycle_bin_bytes: stats.recycle_bin_bytes,
            recycle_bin_cap: self.recycle_bin_bytes(),
            pending_release_bytes: stats.pending_release_bytes,
            buffer_shadow_bytes: host_bytes(HostMemory::BufferShadows),
            staging_bounds: stats.staging_bounds,
            host_heap_trims: stats.host_heap_trims,
            journal_bytes: stats.journal_bytes,
            journal_file_bytes: stats.journal_file_bytes,
        }
    }

    /// Hook: `Manager::begin_frame` calls this every frame. Prints a line when the report is on
    /// and the process's high-water mark grew since the last one.
    pub(crate) fn report_frame(&mut self) {
        if !self.report.enabled {
            return;
        }
        self.report.frame += 1;
        if self.report.frame % CHECK_EVERY_FRAMES != 1 {
            return;
        }
        let hwm = ProcessMemory::read().vm_hwm_kib;
        if hwm > self.report.printed_hwm_kib {
            self.report.printed_hwm_kib = hwm;
            eprintln!("{}", self.memory_report());
        }
    }

    /// Hook: the manager's `Drop` calls this first. Prints the last line when the report is on.
    pub(crate) fn report_final(&mut self) {
        if self.report.enabled {
            eprintln!("{} final=1", self.memory_report());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_proc_status() {
        let text = "Name:\tx\nVmHWM:\t  2048 kB\nVmRSS:\t  1024 kB\nRssAnon:\t 700 kB\n\
                    RssFile:\t 300 kB\nThreads:\t1\n";
        let m = ProcessMemory::parse(text);
        assert_eq!(
            m,
            ProcessMemory {
                vm_rss_kib: 1024,
                vm_hwm_kib: 2048,
                rss_anon_kib: 700,
                rss_file_kib: 300,
            }
        );
    }

    #[test]
    fn host_bytes_never_go_below_zero() {
        let before = host_bytes(HostMemory::BufferShadows);
        note_host_bytes(HostMemory::BufferShadows, 10, 0);
        note_host_bytes(HostMemory::BufferShadows, 0, 10);
        assert_eq!(host_bytes(HostMemory::BufferShadows), before);
    }
}
