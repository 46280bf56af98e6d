//! What a stress run is asked to do: the suite, the device profile, the scale factor, the
//! frames and the surface, and the sizes and budget the scale derives.
//!
//! Design decisions:
//! - The full-size workload is the Minecraft-like one of the mission: 14 atlases of 1024² with
//!   every mip level, a 64 MiB chunk-mesh arena, 16 MiB of textures and buffers churned a frame.
//!   `S` scales bytes, so an atlas side scales by √S (rounded down to a power of two, at least
//!   64) and the arena by S (at least 1 MiB, a whole number of 64 slots of whole vertices).
//! - The budget is the profile's derived budget (platform footprint, no Vulkan device: what
//!   `arenagl budget --profile NAME` prints) × S, in whole MiB as `ARENAGL_BUDGET_MB` takes it.

use arenagl_glclient::Implementation;
use arenagl_residency::{Budget, BudgetInputs, Profile, MIB};

use crate::StressError;

/// The scale factor when none is given: what this class of machine (a CPU Vulkan device sharing
/// a few GiB with other work) holds comfortably for every profile, the largest (android-12gb,
/// ~4.1 GiB) becoming ~260 MiB.
pub const DEFAULT_SCALE: f64 = 1.0 / 16.0;

/// The suites.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Suite {
    /// 14 mipmapped atlases stitched from 64 sub-uploads per level; one atlas re-stitched and
    /// all 14 sampled every frame.
    Atlas,
    /// A 64 MiB (× S) chunk-mesh arena: an eighth of its 64 slots rewritten with
    /// `glBufferSubData` every frame, one draw per chunk with per-draw uniforms.
    Arena,
    /// Textures and buffers created, uploaded, drawn from and deleted every frame, and one
    /// buffer re-specified (`glBufferData`) at a new size every frame.
    Churn,
    /// The surface recreated at a new size every frame (a pbuffer replaced, as a game's
    /// off-screen target is on a window resize), drawn into at each size; the last frame is at
    /// the configured size.
    Resize,
}

impl Suite {
    /// Every suite, in the order `all` runs them.
    pub const ALL: [Suite; 4] = [Suite::Atlas, Suite::Arena, Suite::Churn, Suite::Resize];

    /// The suite's name on the command line and in result lines.
    pub fn name(self) -> &'static str {
        match self {
            Suite::Atlas => "atlas",
            Suite::Arena => "arena",
            Suite::Churn => "churn",
            Suite::Resize => "resize",
        }
    }
}

impl std::str::FromStr for Suite {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        Suite::ALL
            .into_iter()
            .find(|suite| suite.name() == s)
            .ok_or_else(|| format!("unknown suite {s:?}: atlas, arena, churn or resize"))
    }
}

impl std::fmt::Display for Suite {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// One stress run.
#[derive(Debug, Clone)]
pub struct StressConfig {
    /// The suite.
    pub suite: Suite,
    /// A device profile name (`arenagl budget --list`).
    pub profile: String,
    /// The scale factor S (0 < S ≤ 1).
    pub scale: f64,
    /// The pressure factor P (≥ 1): the budget is the profile's × S / P while the workload
    /// stays full × S, so P > 1 runs the same work on a P times smaller device.
    pub pressure: f64,
    /// Frames to render (each ends with `eglSwapBuffers`).
    pub frames: u32,
    /// Surface width (the resize suite's last frame; the others' every frame).
    pub width: u32,
    /// Surface height.
    pub height: u32,
    /// The GL implementation (ArenaGL unless a reference run is wanted).
    pub implementation: Implementation,
    /// Draw to an X11 window on `$DISPLAY` instead of a pbuffer (the resize suite then resizes
    /// the window itself, and the library rebuilds its swapchain at each new size).
    pub window: bool,
}

impl StressConfig {
    /// A run of `suite` under `profile` with the default scale, 8 frames on a 256 × 256 surface,
    /// on ArenaGL.
    pub fn new(suite: Suite, profile: &str) -> StressConfig {
        StressConfig {
            suite,
            profile: profile.to_owned(),
            scale: DEFAULT_SCALE,
            pressure: 1.0,
            frames: 8,
            width: 256,
            height: 256,
            implementation: Implementation::ArenaGl,
            window: false,
        }
    }

    /// Rejects options no run can honour.
    pub fn validate(&self) -> Result<(), StressError> {
        if !(self.scale > 0.0 && self.scale <= 1.0) {
            return Err(StressError::Usage(format!(
                "--scale {}: must be in (0, 1]",
                self.scale
            )));
        }
        if !(self.pressure >= 1.0 && self.pressure.is_finite()) {
            return Err(StressError::Usage(format!(
                "--pressure {}: must be at least 1",
                self.pressure
            )));
        }
        if self.frames == 0 {
            return Err(StressError::Usage("--frames must be at least 1".into()));
        }
        if !(16..=4096).contains(&self.width) || !(16..=4096).contains(&self.height) {
            return Err(StressError::Usage(format!(
                "surface {}×{}: each side must be 16..=4096",
                self.width, self.height
            )));
        }
        Ok(())
    }

    /// The profile's derived budget × S / P, in whole MiB (at least 1 MiB).
    pub fn scaled_budget_bytes(&self) -> Result<u64, StressError> {
        let profile = Profile::by_name(&self.profile)?;
        let full = Budget::derive(&BudgetInputs::new(profile)).total_bytes;
        let scaled = (full as f64 * self.scale / self.pressure.max(1.0)) as u64;
        Ok((scaled / MIB).max(1) * MIB)
    }

    /// The workload sizes at this scale.
    pub fn sizes(&self) -> Sizes {
        Sizes::at(self.scale)
    }
}

/// Workload sizes at a scale (module doc).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sizes {
    /// Side of each atlas's level 0 (a power of two).
    pub atlas_side: u32,
    /// Bytes of the chunk-mesh arena (64 slots of whole vertices).
    pub arena_bytes: usize,
    /// Bytes of textures and buffers created and deleted per frame (about).
    pub churn_bytes: usize,
}

/// Atlases, as in the game.
pub const ATLASES: usize = 14;
/// Chunk slots in the arena.
pub const ARENA_SLOTS: usize = 64;
/// Full-size atlas side.
const FULL_ATLAS_SIDE: f64 = 1024.0;
/// Full-size arena.
const FULL_ARENA_BYTES: f64 = 64.0 * MIB as f64;
/// Full-size churn a frame.
const FULL_CHURN_BYTES: f64 = 16.0 * MIB as f64;

impl Sizes {
    /// The sizes at scale `s` (0 < s ≤ 1).
    pub fn at(s: f64) -> Sizes {
        let side = FULL_ATLAS_SIDE * s.sqrt();
        // The largest power of two not above `side`, at least 64.
        let atlas_side = (1u32 << (side.max(64.0).log2().floor() as u32)).clamp(64, 1024);
        let slot_vertices = ((FULL_ARENA_BYTES * s).max(MIB as f64)
            / ARENA_SLOTS as f64
            / crate::draw::ARENA_VERTEX_BYTES as f64) as usize;
        Sizes {
            atlas_side,
            arena_bytes: slot_vertices * crate::draw::ARENA_VERTEX_BYTES * ARENA_SLOTS,
            churn_bytes: (FULL_CHURN_BYTES * s).max(256.0 * 1024.0) as usize,
        }
    }

    /// Vertices in one arena slot.
    pub fn slot_vertices(&self) -> usize {
        self.arena_bytes / ARENA_SLOTS / crate::draw::ARENA_VERTEX_BYTES
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_scale_is_the_mission_workload() {
        let sizes = Sizes::at(1.0);
        assert_eq!(sizes.atlas_side, 1024);
        assert!(sizes.arena_bytes <= 64 << 20 && sizes.arena_bytes > (64 << 20) - 64 * 16);
        assert_eq!(
            sizes.arena_bytes % (ARENA_SLOTS * crate::draw::ARENA_VERTEX_BYTES),
            0
        );
    }

    #[test]
    fn a_sixteenth_scales_bytes_by_a_sixteenth() {
        let sizes = Sizes::at(1.0 / 16.0);
        assert_eq!(sizes.atlas_side, 256); // 1024 × √(1/16)
        assert!(sizes.arena_bytes <= 4 << 20 && sizes.arena_bytes > (4 << 20) - 64 * 16);
        assert_eq!(sizes.churn_bytes, 1 << 20);
    }

    #[test]
    fn the_budget_scales_with_the_profile() {
        let mut config = StressConfig::new(Suite::Atlas, "iphone-12");
        config.scale = 1.0;
        let full = config.scaled_budget_bytes().map_err(|e| e.to_string());
        config.scale = 0.25;
        let quarter = config.scaled_budget_bytes().map_err(|e| e.to_string());
        let (full, quarter) = (full.unwrap_or(0), quarter.unwrap_or(0));
        assert!(full > 512 * MIB, "{full}");
        assert!(quarter.abs_diff(full / 4) <= MIB, "{quarter} vs {full}");
        config.profile = "no-such-phone".into();
        assert!(config.scaled_budget_bytes().is_err());
    }

    #[test]
    fn suites_round_trip_their_names() {
        for suite in Suite::ALL {
            assert_eq!(suite.name().parse::<Suite>(), Ok(suite));
        }
        assert!("nope".parse::<Suite>().is_err());
    }
}
