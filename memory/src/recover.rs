//! Device-loss recovery inside the same manager: the restore journal's hooks, and re-opening
//! the device behind the same handles.
//!
//! Design decisions:
//! - **Journal hooks** (`journal.rs` says what is kept and why at upload time): the manager's
//!   `write_buffer` (and through it `upload_buffer`'s direct path), `upload_buffer`'s staged
//!   path, `upload_image` (the tightly packed, converted texels of each chunk) and
//!   `generate_mipmaps` record here; `retire_buffer` / `retire_image` drop the handle's
//!   entries. Only client objects are journaled: staging-category memory and the upload and
//!   readback classes are not. Nothing is journaled while a restore is writing the contents
//!   back (they are already there).
//! - **Re-opening** ([`Manager::recover`]): a lost manager asks its backend for a new device
//!   like the lost one ([`Backend::reopen`]: the same physical device and configuration, the
//!   epoch clock continued), after checking that the lost device runs nothing of ours any more
//!   (a loss injected while the device still runs waits, bounded, as the latch does). Then it
//!   destroys every retired object and the staging arenas, re-creates every live buffer,
//!   image, view and sampler on the new device under the same handle
//!   (`Manager::move_to_backend`; on failure nothing changed and the attempt counts as
//!   failed), drops the lost device, opens the latch, and refills: journaled contents are
//!   written back (buffers at their offsets, image regions replayed in order, mipmap
//!   generations re-run), everything else is cleared to zero where the object allows it
//!   (render targets, evicted or never-specified objects).
//! - **Retry with back-off, budgeted**: a failed attempt (device still busy, no device,
//!   different features, out of memory while re-creating) waits `first_backoff`, doubling up to
//!   `max_backoff`, and after `max_attempts` failures in a row recovery gives up (the manager
//!   stays latched, as without recovery); an `Unsupported` answer (a backend that cannot
//!   re-open) gives up at once. Each class of failure is logged once.
//! - **Clients** learn of a recovery through [`Manager::recoveries`]; the device-lost latch
//!   opens with a new [`crate::LostFlag`], so a client that still holds the old flag keeps
//!   seeing the loss until it fetches the new one. A client that made its own objects on the
//!   device holds it open with a `DeviceHold` (`vulkan::restore`) until it destroyed them: the
//!   GL translator re-creates its pipelines, layouts and pools per device generation
//!   (`docs/robustness.md`, "Recovery inside the context").
//! - Recovery and the journal are on by default where device memory is host memory (phones,
//!   integrated GPUs, lavapipe) and opt-in on a discrete GPU; `ARENAGL_RECOVER=0` turns both
//!   off, `=1` on. The journal copies every client upload into its file: on lavapipe (release
//!   build) that costs the upload-bound scene about a tenth more time per frame and the
//!   game-like scene nothing measurable, but on the H200 it made uploads 2.4-3x and texture
//!   churn 2.5x slower, where uploads themselves are fast (`docs/robustness.md`).
//!   `ARENAGL_JOURNAL_MB` caps the
//!   journal (default a quarter of the budget); `ARENAGL_JOURNAL_DIR` places its file.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use crate::backend::Backend;
use crate::desc::{Category, MemoryClass};
use crate::error::{MemoryError, Result};
use crate::journal::{ImageReplay, Journal, JournalFigures, JournalRegion};
use crate::manager::{BufferHandle, ImageHandle, Manager};

/// How a lost device is recovered.
#[derive(Debug, Clone)]
pub struct RecoverPolicy {
    /// Whether a lost device may be re-opened at all.
    pub enabled: bool,
    /// The restore journal's cap in bytes (0: no journal; objects come back cleared).
    pub journal_bytes: u64,
    /// Where the journal's (unlinked) file is made.
    pub journal_dir: PathBuf,
    /// Failed attempts in a row before recovery gives up.
    pub max_attempts: u32,
    /// The wait after the first failed attempt (doubling after each further one).
    pub first_backoff: Duration,
    /// The longest wait between attempts.
    pub max_backoff: Duration,
}

impl Default for RecoverPolicy {
    fn default() -> Self {
        Self {
            enabled: true,
            journal_bytes: 0,
            journal_dir: std::env::temp_dir(),
            max_attempts: 8,
            first_backoff: Duration::from_millis(50),
            max_backoff: Duration::from_secs(2),
        }
    }
}

/// The variable that turns recovery off (`0`) or on (anything else); without it, recovery is
/// on where device memory is host memory.
pub const RECOVER_VAR: &str = "ARENAGL_RECOVER";
/// The variable that caps the restore journal, in MiB (`0`: no journal).
pub const JOURNAL_MB_VAR: &str = "ARENAGL_JOURNAL_MB";
/// The variable that names the journal's directory.
pub const JOURNAL_DIR_VAR: &str = "ARENAGL_JOURNAL_DIR";

impl RecoverPolicy {
    /// The policy from the environment for a device under a budget of `budget_bytes` whose
    /// memory is host memory or not (`unified`): [`RECOVER_VAR`] (`0` off, set otherwise on,
    /// unset: `unified`), [`JOURNAL_MB_VAR`] (default a quarter of the budget, 256 MiB without
    /// one), [`JOURNAL_DIR_VAR`].
    pub fn from_env(budget_bytes: Option<u64>, unified: bool) -> Result<Self> {
        const MIB: u64 = 1 << 20;
        let enabled = std::env::var(RECOVER_VAR).map_or(unified, |v| v.trim() != "0");
        let journal_bytes = match std::env::var(JOURNAL_MB_VAR) {
            Ok(v) => v.trim().parse::<u64>().map(|mb| mb * MIB).map_err(|_| {
                MemoryError::InvalidRequest(format!(
                    "{JOURNAL_MB_VAR}={v:?}: expected a whole number of MiB"
                ))
            })?,
            Err(_) => budget_bytes.map_or(256 * MIB, |b| b / 4),
        };
        let journal_dir = std::env::var_os(JOURNAL_DIR_VAR)
            .map(PathBuf::from)
            .unwrap_or_else(std::env::temp_dir);
        Ok(Self {
            enabled,
            journal_bytes: if enabled { journal_bytes } else { 0 },
            journal_dir,
            ..Self::default()
        })
    }
}

/// The recovery state of one manager (its `recover` field, touched only here).
pub(crate) struct RecoverState {
    policy: RecoverPolicy,
    journal: Option<Journal>,
    /// Failed attempts in a row.
    failures: u32,
    not_before: Option<Instant>,
    /// Failure classes already logged.
    logged: Vec<&'static str>,
    recoveries: u64,
    /// A restore is writing contents back: nothing is journaled.
    restoring: bool,
}

impl RecoverState {
    pub(crate) fn new(policy: &RecoverPolicy) -> Self {
        let journal = (policy.journal_bytes > 0)
            .then(|| Journal::new(policy.journal_bytes, &policy.journal_dir));
        Self {
            policy: policy.clone(),
            journal,
            failures: 0,
            not_before: None,
            logged: Vec::new(),
            recoveries: 0,
            restoring: false,
        }
    }
}

/// What one call to [`Manager::recover`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Recovery {
    /// The device is not lost: nothing to do.
    NotLost,
    /// A new device is open behind the same handles.
    Recovered(RecoveryReport),
    /// The attempt failed or is backing off: call again after this long.
    Later(Duration),
    /// Recovery is off, or its budget of attempts is spent: the manager stays lost.
    GaveUp,
}

/// What a recovery restored.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RecoveryReport {
    /// Buffers re-created.
    pub buffers: u64,
    /// Images re-created.
    pub images: u64,
    /// Journaled bytes written back.
    pub restored_bytes: u64,
    /// Objects with nothing journaled, cleared instead.
    pub cleared: u64,
    /// Objects that could not be refilled (their contents are undefined).
    pub unrestored: u64,
    /// Failed attempts before this one.
    pub failed_attempts: u32,
}

/// How contents go back into re-created objects: each backend's front implements it (the
/// Vulkan one records transfers; the simulation writes what it can hold).
pub trait RestoreContents {
    /// Writes journaled `bytes` at `offset` of `buffer`.
    fn restore_buffer(&mut self, buffer: BufferHandle, offset: u64, bytes: &[u8]) -> Result<()>;
    /// Clears `buffer` to zero where it can.
    fn clear_buffer(&mut self, buffer: BufferHandle) -> Result<()>;
    /// Writes journaled, tightly packed `bytes` into `region` of `image`.
    fn restore_image_region(
        &mut self,
        image: ImageHandle,
        region: &JournalRegion,
        bytes: &[u8],
    ) -> Result<()>;
    /// Regenerates levels `base + 1 ..= last` of `image` from `base`.
    fn regenerate_mipmaps(&mut self, image: ImageHandle, base: u32, last: u32) -> Result<()>;
    /// Clears `image` to zero where it can.
    fn clear_image(&mut self, image: ImageHandle) -> Result<()>;
    /// Submits what the restore recorded.
    fn finish_restore(&mut self) -> Result<()>;
}

fn journaled(category: Category, class: MemoryClass) -> bool {
    category != Category::Staging
        && category != Category::Pipeline
        && !matches!(class, MemoryClass::Upload | MemoryClass::Readback)
}

impl<B: Backend> Manager<B> {
    // ---- journal hooks ---------------------------------------------------------------------

    /// Hook: `write_buffer` and `upload_buffer` record the client's bytes written at `offset`.
    pub(crate) fn journal_buffer_write(&mut self, buffer: BufferHandle, offset: u64, data: &[u8]) {
        if self.recover.restoring || self.recover.journal.is_none() {
            return;
        }
        let Ok(info) = self.buffer_info(buffer) else {
            return;
        };
        if !journaled(info.desc.category, info.desc.class) {
            return;
        }
        if let Some(j) = self.recover.journal.as_mut() {
            j.record_buffer(buffer.to_raw(), info.desc.size, offset, data);
        }
        self.note_journal();
    }

    /// Hook: `upload_image` records the tightly packed device-format texels of `region`.
    pub(crate) fn journal_image_write(
        &mut self,
        image: ImageHandle,
        region: JournalRegion,
        data: &[u8],
    ) {
        if !self.journal_takes_image(image) {
            return;
        }
        if let Some(j) = self.recover.journal.as_mut() {
            j.record_image(image.to_raw(), region, data);
        }
        self.note_journal();
    }

    /// Hook: `generate_mipmaps` records that levels `base + 1 ..= last` came from `base`.
    pub(crate) fn journal_mipmaps(&mut self, image: ImageHandle, base: u32, last: u32) {
        if !self.journal_takes_image(image) {
            return;
        }
        if let Some(j) = self.recover.journal.as_mut() {
            j.record_mipmaps(image.to_raw(), base, last);
        }
        self.note_journal();
    }

    /// Whether the journal should record writes to `image` (it is on, not restoring, and the
    /// image is a client object).
    pub(crate) fn journal_takes_image(&self, image: ImageHandle) -> bool {
        if self.recover.restoring || self.recover.journal.is_none() {
            return false;
        }
        self.image_info(image)
            .is_ok_and(|i| journaled(i.desc.category, MemoryClass::DeviceImage))
    }

    /// Hook: `retire_buffer` drops the handle's entries.
    pub(crate) fn journal_forget_buffer(&mut self, buffer: BufferHandle) {
        if let Some(j) = self.recover.journal.as_mut() {
            j.retire_buffer(buffer.to_raw());
            self.note_journal();
        }
    }

    /// Hook: `retire_image` drops the handle's entries.
    pub(crate) fn journal_forget_image(&mut self, image: ImageHandle) {
        if let Some(j) = self.recover.journal.as_mut() {
            j.retire_image(image.to_raw());
            self.note_journal();
        }
    }

    fn note_journal(&mut self) {
        let f = self.journal_figures();
        self.record_stat(crate::stats::Stat::Journal(f));
    }

    /// The restore journal's figures (all zero without a journal).
    pub fn journal_figures(&self) -> JournalFigures {
        self.recover
            .journal
            .as_ref()
            .map(Journal::figures)
            .unwrap_or_default()
    }

    /// The recovery policy in force.
    pub fn recover_policy(&self) -> &RecoverPolicy {
        &self.recover.policy
    }

    /// Replaces the recovery policy; a new journal starts empty (the old one's entries are
    /// dropped).
    pub fn set_recover_policy(&mut self, policy: RecoverPolicy) {
        self.recover = RecoverState::new(&policy);
        self.note_journal();
    }

    /// Devices re-opened after a loss so far.
    pub fn recoveries(&self) -> u64 {
        self.recover.recoveries
    }

    // ---- re-opening ------------------------------------------------------------------------

    /// One failed attempt of class `class`: logged once per class, then backs off (doubling)
    /// or, past the budget, gives up.
    fn recovery_failed(&mut self, class: &'static str, error: &MemoryError) -> Recovery {
        let r = &mut self.recover;
        r.failures += 1;
        if matches!(error, MemoryError::Unsupported(_)) {
            // Waiting cannot help (a backend that cannot re-open).
            r.failures = r.failures.max(r.policy.max_attempts);
        }
        if !r.logged.contains(&class) {
            r.logged.push(class);
            tracing::warn!(attempt = r.failures, class, error = %error, "device recovery attempt failed; retrying with back-off");
        }
        if r.failures >= r.policy.max_attempts {
            if !r.logged.contains(&"gave up") {
                r.logged.push("gave up");
                tracing::error!(
                    attempts = r.failures,
                    "device recovery gave up: the device stays lost"
                );
            }
            return Recovery::GaveUp;
        }
        let wait = r
            .policy
            .first_backoff
            .saturating_mul(1 << (r.failures - 1).min(16))
            .min(r.policy.max_backoff);
        r.not_before = Some(Instant::now() + wait);
        Recovery::Later(wait)
    }
}

impl<B: Backend> Manager<B>
where
    Self: RestoreContents,
{
    /// After a device loss: opens a new device like the lost one and moves every live object
    /// onto it under the same handle, refilled from the restore journal (or cleared). One
    /// attempt per call, honouring the back-off; see the module comment for the steps.
    pub fn recover(&mut self) -> Result<Recovery> {
        if !self.is_lost() {
            return Ok(Recovery::NotLost);
        }
        let r = &self.recover;
        if !r.policy.enabled || r.failures >= r.policy.max_attempts {
            return Ok(Recovery::GaveUp);
        }
        if let Some(wait) = r
            .not_before
            .and_then(|t| t.checked_duration_since(Instant::now()))
        {
            return Ok(Recovery::Later(wait));
        }
        if !self.device_quiescent() {
            let e = MemoryError::Timeout(self.submitted_epoch());
            return Ok(self.recovery_failed("lost device still busy", &e));
        }
        let fresh = match self.backend().reopen(self.submitted_epoch()) {
            Ok(fresh) => fresh,
            Err(e) => return Ok(self.recovery_failed("re-open", &e)),
        };
        self.reset_staging();
        self.release_all_retired();
        if let Err((fresh, e)) = self.move_to_backend(fresh) {
            drop(fresh);
            return Ok(self.recovery_failed("re-create objects", &e));
        }
        self.reopen_latch();
        let mut report = RecoveryReport {
            failed_attempts: self.recover.failures,
            ..RecoveryReport::default()
        };
        self.recover.failures = 0;
        self.recover.not_before = None;
        self.recover.recoveries += 1;
        self.record_stat(crate::stats::Stat::Recovered);
        self.recover.restoring = true;
        let restored = self.restore_all(&mut report);
        self.recover.restoring = false;
        if let Err(e) = restored {
            // Lost again while refilling (the only error `restore_all` passes on): the next
            // attempt starts over.
            return Ok(self.recovery_failed("refill", &e));
        }
        tracing::warn!(
            recoveries = self.recover.recoveries,
            buffers = report.buffers,
            images = report.images,
            restored_bytes = report.restored_bytes,
            cleared = report.cleared,
            "the lost Vulkan device was replaced; every object is back under its handle"
        );
        Ok(Recovery::Recovered(report))
    }

    /// Refills every live buffer and image from the journal, or clears it. An object that
    /// cannot be refilled (out of memory for staging) is counted and skipped; losing the device
    /// again stops the restore.
    fn restore_all(&mut self, report: &mut RecoveryReport) -> Result<()> {
        let (buffers, images) = self.live_resources();
        for handle in buffers {
            report.buffers += 1;
            let refilled = self.refill_buffer(handle, report);
            isolate(refilled, report)?;
        }
        for handle in images {
            report.images += 1;
            let refilled = self.refill_image(handle, report);
            isolate(refilled, report)?;
        }
        let submitted = self.finish_restore();
        isolate(submitted, report)
    }

    /// Writes the buffer's journaled ranges back, or clears it.
    fn refill_buffer(&mut self, handle: BufferHandle, report: &mut RecoveryReport) -> Result<()> {
        let ranges: Vec<(u64, Vec<u8>)> = self
            .recover
            .journal
            .as_ref()
            .map(|j| {
                j.buffer_contents(handle.to_raw())
                    .into_iter()
                    .map(|(o, b)| (o, b.to_vec()))
                    .collect()
            })
            .unwrap_or_default();
        if ranges.is_empty() {
            report.cleared += 1;
            return self.clear_buffer(handle);
        }
        for (offset, bytes) in ranges {
            report.restored_bytes += bytes.len() as u64;
            self.restore_buffer(handle, offset, &bytes)?;
        }
        Ok(())
    }

    /// Replays the image's journal log, or clears it.
    fn refill_image(&mut self, handle: ImageHandle, report: &mut RecoveryReport) -> Result<()> {
        let steps: Vec<Step> = self
            .recover
            .journal
            .as_ref()
            .map(|j| {
                j.image_contents(handle.to_raw())
                    .into_iter()
                    .map(Step::from)
                    .collect()
            })
            .unwrap_or_default();
        if steps.is_empty() {
            report.cleared += 1;
            return self.clear_image(handle);
        }
        for step in steps {
            match step {
                Step::Region(region, bytes) => {
                    report.restored_bytes += bytes.len() as u64;
                    self.restore_image_region(handle, &region, &bytes)?;
                }
                Step::Mipmaps(base, last) => self.regenerate_mipmaps(handle, base, last)?,
            }
        }
        Ok(())
    }
}

/// One object's refill result: device loss stops the restore; any other failure leaves that
/// object's contents undefined (as GL allows after a reset), is counted, and the restore goes on.
fn isolate(result: Result<()>, report: &mut RecoveryReport) -> Result<()> {
    match result {
        Err(MemoryError::DeviceLost) => Err(MemoryError::DeviceLost),
        Err(e) => {
            report.unrestored += 1;
            tracing::warn!(error = %e, "an object could not be refilled after the recovery");
            Ok(())
        }
        Ok(()) => Ok(()),
    }
}

/// An owned [`ImageReplay`] (the journal is borrowed from the manager the restore writes to).
enum Step {
    Region(JournalRegion, Vec<u8>),
    Mipmaps(u32, u32),
}

impl From<ImageReplay<'_>> for Step {
    fn from(r: ImageReplay<'_>) -> Self {
        match r {
            ImageReplay::Region(region, bytes) => Step::Region(region, bytes.to_vec()),
            ImageReplay::Mipmaps { base, last } => Step::Mipmaps(base, last),
        }
    }
}

/// The simulated device holds bytes only for host-visible buffers: those are written back
/// (or zeroed); everything else has no contents to restore.
impl RestoreContents for Manager<crate::sim::SimBackend> {
    fn restore_buffer(&mut self, buffer: BufferHandle, offset: u64, bytes: &[u8]) -> Result<()> {
        if self.buffer_is_mapped(buffer)? {
            self.write_buffer(buffer, offset, bytes)?;
        }
        Ok(())
    }

    fn clear_buffer(&mut self, buffer: BufferHandle) -> Result<()> {
        if self.buffer_is_mapped(buffer)? {
            let size = self.buffer_info(buffer)?.desc.size;
            let zeros = vec![0u8; usize::try_from(size).unwrap_or(0)];
            self.write_buffer(buffer, 0, &zeros)?;
        }
        Ok(())
    }

    fn restore_image_region(
        &mut self,
        _image: ImageHandle,
        _region: &JournalRegion,
        _bytes: &[u8],
    ) -> Result<()> {
        Ok(())
    }

    fn regenerate_mipmaps(&mut self, _image: ImageHandle, _base: u32, _last: u32) -> Result<()> {
        Ok(())
    }

    fn clear_image(&mut self, _image: ImageHandle) -> Result<()> {
        Ok(())
    }

    fn finish_restore(&mut self) -> Result<()> {
        Ok(())
    }
}
