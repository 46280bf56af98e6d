//! Named device profiles and the per-process crash limit of each.
//!
//! Design decisions:
//! - A profile answers one question: how many bytes may this whole process (CPU and GPU memory
//!   together, since phones have unified memory) hold before the OS kills it. Everything else
//!   (the process's own footprint, Vulkan heaps, the split) belongs to budget derivation.
//! - iOS figures are Jetsam per-process limits, from published crash measurements where they
//!   exist and estimated from sibling devices where they do not; [`Provenance`] says which, and
//!   `docs/residency-budgets.md` gives the source of every row. The
//!   `com.apple.developer.kernel.increased-memory-limit` entitlement raises the limit on some
//!   models; a launcher that has it selects the raised figure with the `+entitled` suffix
//!   (`iphone-13-pro+entitled`). Where no raised figure is known the default one is kept: the
//!   entitlement is documented as "only available on some device models".
//! - Android has no fixed per-app limit: the foreground app dies when the low-memory killer
//!   runs out of other processes to kill. Android profiles are therefore derived from RAM by one
//!   stated rule, [`android_crash_limit`], not looked up.
//! - Linux is measured at run time ([`Profile::linux_host`]): the tighter of the cgroup v2
//!   `memory.max` chain and the RAM available now. The pure half, [`Profile::linux`], takes the
//!   numbers so it is testable.
//! - "MB" in the published iOS tables are 2^20-byte units (Instruments reports a 4 GB iPhone as
//!   3754 MB total), so this module stores MiB.

use std::fmt;

use crate::{cgroup, fmt_bytes, percent_of, ResidencyError, MIB};

/// The operating system family, which decides how the crash limit is found and the default
/// non-GPU footprint.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Platform {
    /// iOS / iPadOS: Jetsam per-process limits; Vulkan through MoltenVK.
    Ios,
    /// Android: the low-memory killer.
    Android,
    /// Desktop or server Linux: cgroups and available RAM.
    Linux,
}

impl Platform {
    /// A short name for reports.
    pub const fn name(self) -> &'static str {
        match self {
            Platform::Ios => "ios",
            Platform::Android => "android",
            Platform::Linux => "linux",
        }
    }

    /// The default non-GPU footprint of the process on this platform, given its crash limit.
    ///
    /// The footprint is everything the process holds that the memory manager does not see: in a
    /// launcher, the JVM heap (`-Xmx`), the JVM's native memory (metaspace, code cache, thread
    /// stacks, LWJGL direct buffers) and the launcher's own UI. Launchers size `-Xmx` from device
    /// RAM, so the default is a fraction of the crash limit, with a floor of 512 MiB (below which
    /// Minecraft does not start) and, on Linux, a cap of 4 GiB (hosts with hundreds of GiB do not
    /// run bigger JVMs for it). A launcher that knows its real figure should pass it instead.
    ///
    /// | platform | fraction of crash limit | floor   | cap   |
    /// |----------|-------------------------|---------|-------|
    /// | iOS      | 55 %                    | 512 MiB | —     |
    /// | Android  | 50 %                    | 512 MiB | —     |
    /// | Linux    | 25 %                    | 512 MiB | 4 GiB |
    pub fn default_footprint(self, crash_limit_bytes: u64) -> u64 {
        let (percent, cap) = match self {
            Platform::Ios => (55, u64::MAX),
            Platform::Android => (50, u64::MAX),
            Platform::Linux => (25, 4096 * MIB),
        };
        percent_of(crash_limit_bytes, percent).clamp(512 * MIB, cap)
    }
}

impl fmt::Display for Platform {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Where a crash limit comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Provenance {
    /// A published crash measurement on this device class.
    Measured,
    /// Estimated from measurements of sibling devices with the same RAM, or from reports of the
    /// memory available to an app at launch. See the sources table in `docs/residency-budgets.md`.
    Estimated,
    /// Computed by a stated rule from RAM ([`android_crash_limit`]).
    Rule,
    /// Read from this machine at run time.
    Runtime,
}

impl Provenance {
    /// A short name for reports.
    pub const fn name(self) -> &'static str {
        match self {
            Provenance::Measured => "measured",
            Provenance::Estimated => "estimated",
            Provenance::Rule => "rule",
            Provenance::Runtime => "runtime",
        }
    }
}

/// A device class and the line its OS kills a process at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Profile {
    /// The key used by `ARENAGL_PROFILE` and `arenagl budget --profile`, e.g. `iphone-12`.
    pub name: String,
    /// A human description.
    pub description: String,
    /// The platform, which picks the default footprint.
    pub platform: Platform,
    /// Physical RAM of the device (nominal for named profiles, measured for the Linux host).
    pub ram_bytes: u64,
    /// Bytes the whole process may hold before the OS kills it. When
    /// [`Profile::increased_limit_applied`] is true this is already the raised figure.
    pub crash_limit_bytes: u64,
    /// The limit with the iOS increased-memory-limit entitlement, where one is known.
    pub increased_limit_bytes: Option<u64>,
    /// Whether `crash_limit_bytes` is the entitled figure.
    pub increased_limit_applied: bool,
    /// Whether the GPU shares RAM with the CPU. All phones and Apple silicon do. The Linux host
    /// says `true` too, because it cannot know its GPU; the Vulkan heap flags given to budget
    /// derivation override this.
    pub unified_memory: bool,
    /// How the crash limit was obtained.
    pub provenance: Provenance,
}

/// The suffix that selects the entitled limit: `iphone-15-pro+entitled`.
pub const ENTITLED_SUFFIX: &str = "+entitled";

/// The name of the run-time Linux profile.
pub const LINUX_HOST: &str = "linux-host";

/// One row of the static table. iOS rows carry their limit; Android rows carry only RAM.
struct Entry {
    name: &'static str,
    description: &'static str,
    platform: Platform,
    ram_mib: u64,
    /// `None` for Android: the limit comes from [`android_crash_limit`].
    crash_mib: Option<u64>,
    increased_mib: Option<u64>,
    provenance: Provenance,
}

/// The named profiles. Sources per row: `docs/residency-budgets.md`.
const TABLE: &[Entry] = &[
    Entry {
        name: "iphone-se-2",
        description: "iPhone SE (2nd generation), A13, 3 GB",
        platform: Platform::Ios,
        ram_mib: 3072,
        // 3 GB class: iPhone XR 1792 MB, iPhone 7 Plus 2040 MB, iPhone X 1392 MB. The XR row
        // (nearest generation) is used.
        crash_mib: Some(1792),
        increased_mib: None,
        provenance: Provenance::Estimated,
    },
    Entry {
        name: "iphone-se-3",
        description: "iPhone SE (3rd generation), A15, 4 GB",
        platform: Platform::Ios,
        ram_mib: 4096,
        // The crash line of the Minecraft/MoltenVK post-mortem this project starts from.
        crash_mib: Some(2091),
        increased_mib: Some(2458),
        provenance: Provenance::Measured,
    },
    Entry {
        name: "iphone-12",
        description: "iPhone 12, A14, 4 GB",
        platform: Platform::Ios,
        ram_mib: 4096,
        crash_mib: Some(2091),
        increased_mib: Some(2458),
        provenance: Provenance::Estimated,
    },
    Entry {
        name: "iphone-13",
        description: "iPhone 13, A15, 4 GB",
        platform: Platform::Ios,
        ram_mib: 4096,
        crash_mib: Some(2091),
        increased_mib: Some(2458),
        provenance: Provenance::Estimated,
    },
    Entry {
        name: "iphone-12-pro",
        description: "iPhone 12 Pro, A14, 6 GB",
        platform: Platform::Ios,
        ram_mib: 6144,
        crash_mib: Some(3064),
        increased_mib: Some(4170),
        provenance: Provenance::Estimated,
    },
    Entry {
        name: "iphone-13-pro",
        description: "iPhone 13 Pro, A15, 6 GB",
        platform: Platform::Ios,
        ram_mib: 6144,
        crash_mib: Some(3064),
        increased_mib: Some(4170),
        provenance: Provenance::Estimated,
    },
    Entry {
        name: "iphone-15-pro",
        description: "iPhone 15 Pro, A17 Pro, 8 GB",
        platform: Platform::Ios,
        ram_mib: 8192,
        crash_mib: Some(3072),
        increased_mib: Some(6144),
        provenance: Provenance::Estimated,
    },
    Entry {
        name: "ipad-pro-m2",
        description: "iPad Pro (M2), 8 GB",
        platform: Platform::Ios,
        ram_mib: 8192,
        crash_mib: Some(5120),
        increased_mib: Some(6144),
        provenance: Provenance::Estimated,
    },
    Entry {
        name: "android-4gb",
        description: "Android, 4 GB RAM class",
        platform: Platform::Android,
        ram_mib: 4096,
        crash_mib: None,
        increased_mib: None,
        provenance: Provenance::Rule,
    },
    Entry {
        name: "android-6gb",
        description: "Android, 6 GB RAM class",
        platform: Platform::Android,
        ram_mib: 6144,
        crash_mib: None,
        increased_mib: None,
        provenance: Provenance::Rule,
    },
    Entry {
        name: "android-8gb",
        description: "Android, 8 GB RAM class",
        platform: Platform::Android,
        ram_mib: 8192,
        crash_mib: None,
        increased_mib: None,
        provenance: Provenance::Rule,
    },
    Entry {
        name: "android-12gb",
        description: "Android, 12 GB RAM class",
        platform: Platform::Android,
        ram_mib: 12288,
        crash_mib: None,
        increased_mib: None,
        provenance: Provenance::Rule,
    },
];

/// The foreground-process crash line of an Android device with `ram_bytes` of RAM.
///
/// Rule: **85 % of RAM, minus 1280 MiB.** The foreground app (`oom_score_adj` 0) is the last
/// thing the low-memory killer (lmkd) takes, so it can grow until everything killable is gone and
/// what remains is:
/// - ~15 % of nominal RAM that no process ever gets: kernel, firmware carve-outs (modem, GPU,
///   DSP), page tables, zram bookkeeping (a "4 GB" phone reports ~3.6 GiB `MemTotal`);
/// - ~1 GiB of processes lmkd does not kill before the foreground app: `system_server`,
///   SystemUI, SurfaceFlinger, the launcher, persistent and perceptible services;
/// - 256 MiB of free-memory headroom: lmkd takes the foreground app only at its critical
///   pressure level (`ro.lmk.critical` = adj 0), before memory is literally exhausted; the old
///   in-kernel killer did it when free memory fell under its first `minfree` level, typically
///   18432 pages = 72 MiB, with file cache on top.
///
/// These are estimates, not measurements; `docs/residency-budgets.md` states the sources. The
/// Java heap limits Android publishes (`ActivityManager.getMemoryClass()` /
/// `getLargeMemoryClass()`) bound only the ART heap and say nothing about native or graphics
/// memory, which is where a launcher's JVM and ArenaGL's allocations live.
pub fn android_crash_limit(ram_bytes: u64) -> u64 {
    percent_of(ram_bytes, 85).saturating_sub(1280 * MIB)
}

impl Profile {
    /// Every named profile (the Linux host is not named here: it is measured, see
    /// [`Profile::linux_host`]).
    pub fn all() -> impl Iterator<Item = Profile> {
        TABLE.iter().map(Profile::from_entry)
    }

    /// The names [`Profile::by_name`] accepts, the Linux host included.
    pub fn names() -> impl Iterator<Item = &'static str> {
        TABLE
            .iter()
            .map(|entry| entry.name)
            .chain(std::iter::once(LINUX_HOST))
    }

    /// The profile called `name` (case-insensitive; `_` may stand for `-`), with an optional
    /// [`ENTITLED_SUFFIX`]. `linux-host` reads this machine.
    pub fn by_name(name: &str) -> Result<Profile, ResidencyError> {
        let normalized = name.trim().to_ascii_lowercase().replace('_', "-");
        let (base, entitled) = match normalized.strip_suffix(ENTITLED_SUFFIX) {
            Some(base) => (base, true),
            None => (normalized.as_str(), false),
        };
        let profile = if base == LINUX_HOST {
            Profile::linux_host()
        } else {
            TABLE
                .iter()
                .find(|entry| entry.name == base)
                .map(Profile::from_entry)
                .ok_or_else(|| ResidencyError::UnknownProfile {
                    name: name.to_owned(),
                    known: Profile::names().collect::<Vec<_>>().join(", "),
                })?
        };
        Ok(if entitled {
            profile.with_increased_memory_limit()
        } else {
            profile
        })
    }

    /// An Android profile for a device with `ram_bytes` of RAM (what
    /// `ActivityManager.MemoryInfo.totalMem` reports, or the nominal size), by
    /// [`android_crash_limit`].
    pub fn android(ram_bytes: u64) -> Profile {
        Profile {
            name: format!("android-{}mb", ram_bytes / MIB),
            description: format!("Android, {} RAM", fmt_bytes(ram_bytes)),
            platform: Platform::Android,
            ram_bytes,
            crash_limit_bytes: android_crash_limit(ram_bytes),
            increased_limit_bytes: None,
            increased_limit_applied: false,
            unified_memory: true,
            provenance: Provenance::Rule,
        }
    }

    /// This Linux machine, measured now: the tighter of the cgroup v2 limit and the available
    /// RAM reported by `sysinfo`.
    pub fn linux_host() -> Profile {
        Profile::linux_host_with_cgroup(cgroup::read_cgroup_v2_limit())
    }

    /// This Linux machine's RAM measured now, under the cgroup limit `cgroup_limit` (read
    /// elsewhere: a live `memory.max`, `signals`).
    pub fn linux_host_with_cgroup(cgroup_limit: Option<u64>) -> Profile {
        let (total, available) = host_memory();
        Profile::linux(cgroup_limit, total, available)
    }

    /// Whether this is the measured Linux host (not a named device profile).
    pub fn is_linux_host(&self) -> bool {
        self.name == LINUX_HOST
    }

    /// A Linux profile from measured numbers (the pure half of [`Profile::linux_host`]).
    ///
    /// The crash limit is the smallest of the cgroup limit and the available RAM; a zero
    /// (unknown) available figure is ignored. With neither, total RAM is used; with nothing at
    /// all the limit is zero and budget derivation clamps and reports it.
    pub fn linux(cgroup_limit: Option<u64>, total_ram: u64, available_ram: u64) -> Profile {
        let available = (available_ram > 0).then_some(available_ram);
        let crash_limit = match (cgroup_limit, available) {
            (Some(cgroup), Some(available)) => cgroup.min(available),
            (Some(cgroup), None) => cgroup,
            (None, Some(available)) => available,
            (None, None) => total_ram,
        };
        let cgroup_text = match cgroup_limit {
            Some(bytes) => format!("cgroup v2 memory.max {}", fmt_bytes(bytes)),
            None => "no cgroup v2 limit".to_owned(),
        };
        Profile {
            name: LINUX_HOST.to_owned(),
            description: format!(
                "this Linux host: {cgroup_text}, {} available of {} RAM",
                fmt_bytes(available_ram),
                fmt_bytes(total_ram)
            ),
            platform: Platform::Linux,
            ram_bytes: total_ram,
            crash_limit_bytes: crash_limit,
            increased_limit_bytes: None,
            increased_limit_applied: false,
            unified_memory: true,
            provenance: Provenance::Runtime,
        }
    }

    /// This profile with the iOS increased-memory-limit entitlement applied, where the raised
    /// figure is known; otherwise unchanged (the entitlement may not raise anything on that model).
    pub fn with_increased_memory_limit(mut self) -> Profile {
        if let Some(raised) = self.increased_limit_bytes {
            if !self.increased_limit_applied {
                self.crash_limit_bytes = raised;
                self.increased_limit_applied = true;
                self.name.push_str(ENTITLED_SUFFIX);
            }
        }
        self
    }

    /// The platform's default non-GPU footprint for this profile
    /// ([`Platform::default_footprint`]).
    pub fn default_footprint_bytes(&self) -> u64 {
        self.platform.default_footprint(self.crash_limit_bytes)
    }

    fn from_entry(entry: &Entry) -> Profile {
        let ram_bytes = entry.ram_mib * MIB;
        let crash_limit_bytes = match entry.crash_mib {
            Some(limit) => limit * MIB,
            None => android_crash_limit(ram_bytes),
        };
        Profile {
            name: entry.name.to_owned(),
            description: entry.description.to_owned(),
            platform: entry.platform,
            ram_bytes,
            crash_limit_bytes,
            increased_limit_bytes: entry.increased_mib.map(|limit| limit * MIB),
            increased_limit_applied: false,
            unified_memory: true,
            provenance: entry.provenance,
        }
    }
}

impl fmt::Display for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} ({}): crash line {} ({})",
            self.name,
            self.description,
            fmt_bytes(self.crash_limit_bytes),
            self.provenance.name()
        )
    }
}

/// (total, available) RAM in bytes; zeros when `sysinfo` cannot tell.
fn host_memory() -> (u64, u64) {
    match sysinfo::System::new() {
        Ok(mut system) => {
            system.refresh_memory_specifics(sysinfo::MemoryRefreshKind::nothing().with_ram());
            (system.total_memory(), system.available_memory())
        }
        Err(_) => (0, 0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_named_profile_resolves() {
        let required = [
            "iphone-se-2",
            "iphone-se-3",
            "iphone-12",
            "iphone-13",
            "iphone-12-pro",
            "iphone-13-pro",
            "iphone-15-pro",
            "ipad-pro-m2",
            "android-4gb",
            "android-6gb",
            "android-8gb",
            "android-12gb",
        ];
        for name in required {
            let profile = Profile::by_name(name).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(profile.name, name);
            assert!(profile.crash_limit_bytes > 0, "{name}");
            assert!(profile.crash_limit_bytes < profile.ram_bytes, "{name}");
        }
        for profile in Profile::all() {
            assert_eq!(Profile::by_name(&profile.name), Ok(profile.clone()));
        }
        assert!(Profile::by_name(LINUX_HOST).is_ok());
    }

    #[test]
    fn four_gb_iphone_crash_line_is_2091_mib() {
        for name in ["iphone-se-3", "iphone-12", "iphone-13"] {
            let profile = Profile::by_name(name).expect("named profile");
            assert_eq!(profile.ram_bytes, 4096 * MIB);
            assert_eq!(profile.crash_limit_bytes, 2091 * MIB, "{name}");
        }
        let pro = Profile::by_name("iphone-13-pro").expect("named profile");
        assert_eq!(pro.crash_limit_bytes, 3064 * MIB);
    }

    #[test]
    fn names_are_case_and_separator_insensitive() {
        let profile = Profile::by_name(" iPhone_12_Pro ").expect("lenient lookup");
        assert_eq!(profile.name, "iphone-12-pro");
    }

    #[test]
    fn unknown_profile_is_an_error_listing_known_names() {
        match Profile::by_name("nokia-3310") {
            Err(ResidencyError::UnknownProfile { name, known }) => {
                assert_eq!(name, "nokia-3310");
                assert!(known.contains("iphone-12") && known.contains(LINUX_HOST));
            }
            other => panic!("expected UnknownProfile, got {other:?}"),
        }
    }

    #[test]
    fn entitled_suffix_raises_the_limit_where_known() {
        let entitled = Profile::by_name("iphone-15-pro+entitled").expect("entitled profile");
        assert!(entitled.increased_limit_applied);
        assert_eq!(entitled.crash_limit_bytes, 6144 * MIB);
        assert_eq!(entitled.name, "iphone-15-pro+entitled");
        // No known raised figure: the default stays (the safe side).
        let se2 = Profile::by_name("iphone-se-2+entitled").expect("entitled profile");
        assert!(!se2.increased_limit_applied);
        assert_eq!(se2.crash_limit_bytes, 1792 * MIB);
        // Applying twice changes nothing.
        assert_eq!(entitled.clone().with_increased_memory_limit(), entitled);
    }

    #[test]
    fn android_rule_matches_documented_values() {
        // 85 % of RAM minus 1280 MiB, as stated in docs/residency-budgets.md.
        let expect = [(4096, 2201), (6144, 3942), (8192, 5683), (12288, 9164)];
        for (ram_mib, limit_mib) in expect {
            let limit = android_crash_limit(ram_mib * MIB);
            assert_eq!(limit / MIB, limit_mib, "{ram_mib} MiB RAM");
            let named =
                Profile::by_name(&format!("android-{}gb", ram_mib / 1024)).expect("android class");
            assert_eq!(named.crash_limit_bytes, limit);
        }
        assert_eq!(
            android_crash_limit(1024 * MIB),
            0,
            "tiny devices clamp at zero"
        );
        assert_eq!(
            Profile::android(4096 * MIB).crash_limit_bytes,
            android_crash_limit(4096 * MIB)
        );
    }

    #[test]
    fn linux_takes_tighter_of_cgroup_and_available() {
        let gib = 1024 * MIB;
        let limited = Profile::linux(Some(4 * gib), 64 * gib, 30 * gib);
        assert_eq!(limited.crash_limit_bytes, 4 * gib);
        let busy = Profile::linux(Some(16 * gib), 64 * gib, 2 * gib);
        assert_eq!(busy.crash_limit_bytes, 2 * gib);
        let uncontained = Profile::linux(None, 64 * gib, 30 * gib);
        assert_eq!(uncontained.crash_limit_bytes, 30 * gib);
        let unknown_available = Profile::linux(None, 64 * gib, 0);
        assert_eq!(unknown_available.crash_limit_bytes, 64 * gib);
        assert_eq!(Profile::linux(None, 0, 0).crash_limit_bytes, 0);
        assert_eq!(limited.provenance, Provenance::Runtime);
    }

    #[test]
    fn default_footprint_follows_platform_rule() {
        assert_eq!(Platform::Ios.default_footprint(2000 * MIB), 1100 * MIB);
        assert_eq!(Platform::Android.default_footprint(4000 * MIB), 2000 * MIB);
        assert_eq!(
            Platform::Linux.default_footprint(64 * 1024 * MIB),
            4096 * MIB
        );
        assert_eq!(Platform::Linux.default_footprint(0), 512 * MIB);
    }

    #[test]
    fn percent_of_is_exact_and_never_overflows() {
        assert_eq!(percent_of(u64::MAX, 100), u64::MAX);
        assert_eq!(percent_of(1000, 85), 850);
        assert_eq!(percent_of(199, 50), 99);
    }
}
