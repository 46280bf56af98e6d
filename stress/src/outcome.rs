//! What a stress run returns, and its one-line form (`STRESS_RESULT key=value …`) that
//! `arenagl stress` prints last and [`crate::run_in_child`] parses back.
//!
//! Design decisions:
//! - GL errors are tallied, not raised: `GL_OUT_OF_MEMORY` is the answer a budget gives, so it
//!   is counted apart from every other error (which would be a bug in the suite or the library).
//! - The peak is the sum of each category's peak from the library's telemetry page: an upper
//!   bound of the true peak, so "peak ≤ budget" checked on it can only be stricter.
//! - Figures the implementation cannot give (no telemetry page: not ArenaGL) are `None`, printed
//!   as `-`, never a made-up zero.

use arenagl_glclient::gl::{consts::OUT_OF_MEMORY, GLenum};
use arenagl_glclient::Image;

use crate::StressError;

/// The first word of the result line.
pub const RESULT_PREFIX: &str = "STRESS_RESULT";

/// GL errors seen during a run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ErrorTally {
    /// `GL_OUT_OF_MEMORY` errors.
    pub out_of_memory: u64,
    /// Every other error.
    pub other: u64,
    /// The first error other than out-of-memory, for the report.
    pub first_other: Option<GLenum>,
}

impl ErrorTally {
    /// Counts the codes `glGetError` returned.
    pub fn add(&mut self, codes: &[GLenum]) {
        for &code in codes {
            if code == OUT_OF_MEMORY {
                self.out_of_memory += 1;
            } else {
                self.other += 1;
                self.first_other.get_or_insert(code);
            }
        }
    }
}

/// The outcome of one stress run.
#[derive(Debug, Clone, PartialEq)]
pub struct StressResult {
    /// The suite's name.
    pub suite: String,
    /// The profile's name.
    pub profile: String,
    /// The scale factor.
    pub scale: f64,
    /// Frames rendered (each ended by `eglSwapBuffers`).
    pub frames: u32,
    /// GL errors seen.
    pub errors: ErrorTally,
    /// Validation-layer errors the library reported (ArenaGL's diagnostic export), if any.
    pub validation_errors: Option<u64>,
    /// Peak device bytes (sum of per-category peaks, from the telemetry page).
    pub peak_device_bytes: Option<u64>,
    /// The budget the library ran under (from the telemetry page).
    pub budget_bytes: Option<u64>,
    /// The budget the run asked for (the profile's × S).
    pub requested_budget_bytes: u64,
    /// `vkAllocateMemory` calls (from the telemetry page).
    pub allocate_calls: Option<u64>,
    /// Swapchains the library created (window runs: the first, then one per rebuild).
    pub swapchains_created: Option<u64>,
    /// `GL_RENDERER`.
    pub renderer: String,
    /// The final frame, top row first.
    pub final_frame: Image,
}

impl StressResult {
    /// Distinct RGBA values in the final frame (a blank or cleared-only frame has one).
    pub fn distinct_colours(&self) -> usize {
        let mut colours: Vec<[u8; 4]> = self
            .final_frame
            .rgba
            .chunks_exact(4)
            .map(|p| [p[0], p[1], p[2], p[3]])
            .collect();
        colours.sort_unstable();
        colours.dedup();
        colours.len()
    }

    /// Whether the peak stayed within the budget the library ran under (`None`: unknown).
    pub fn within_budget(&self) -> Option<bool> {
        Some(self.peak_device_bytes? <= self.budget_bytes?)
    }

    /// The result line (without the final frame, which goes to a PNG: `png=` names it).
    pub fn line(&self, png: Option<&std::path::Path>) -> String {
        let opt = |v: Option<u64>| v.map_or_else(|| "-".to_owned(), |v| v.to_string());
        format!(
            "{RESULT_PREFIX} suite={} profile={} scale={} frames={} gl_errors={} oom_errors={} \
             validation_errors={} peak_device_bytes={} budget_bytes={} requested_budget_bytes={} \
             allocate_calls={} swapchains_created={} final_frame={}x{} distinct_colours={} png={}",
            self.suite,
            self.profile,
            self.scale,
            self.frames,
            self.errors.other,
            self.errors.out_of_memory,
            opt(self.validation_errors),
            opt(self.peak_device_bytes),
            opt(self.budget_bytes),
            self.requested_budget_bytes,
            opt(self.allocate_calls),
            opt(self.swapchains_created),
            self.final_frame.width,
            self.final_frame.height,
            self.distinct_colours(),
            png.map_or_else(|| "-".to_owned(), |p| p.display().to_string()),
        )
    }
}

/// The fields of a result line, by key.
pub(crate) struct ParsedLine<'a>(Vec<(&'a str, &'a str)>);

impl<'a> ParsedLine<'a> {
    /// Splits `line` (which starts with [`RESULT_PREFIX`]) into its fields.
    pub(crate) fn parse(line: &'a str) -> Result<ParsedLine<'a>, StressError> {
        let rest = line
            .strip_prefix(RESULT_PREFIX)
            .ok_or_else(|| StressError::Child(format!("not a result line: {line}")))?;
        Ok(ParsedLine(
            rest.split_whitespace()
                .filter_map(|field| field.split_once('='))
                .collect(),
        ))
    }

    /// The raw value of `key`.
    pub(crate) fn get(&self, key: &str) -> Result<&'a str, StressError> {
        self.0
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| *v)
            .ok_or_else(|| StressError::Child(format!("the result line has no {key}=")))
    }

    /// `key` as a number.
    pub(crate) fn number<T: std::str::FromStr>(&self, key: &str) -> Result<T, StressError> {
        let raw = self.get(key)?;
        raw.parse()
            .map_err(|_| StressError::Child(format!("{key}={raw} is not a number")))
    }

    /// `key` as a number, `-` meaning unknown.
    pub(crate) fn optional(&self, key: &str) -> Result<Option<u64>, StressError> {
        match self.get(key)? {
            "-" => Ok(None),
            _ => self.number(key).map(Some),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arenagl_glclient::gl::consts::INVALID_VALUE;

    #[test]
    fn out_of_memory_is_counted_apart() {
        let mut tally = ErrorTally::default();
        tally.add(&[OUT_OF_MEMORY, INVALID_VALUE, OUT_OF_MEMORY]);
        assert_eq!(tally.out_of_memory, 2);
        assert_eq!(tally.other, 1);
        assert_eq!(tally.first_other, Some(INVALID_VALUE));
    }

    #[test]
    fn the_line_parses_back() {
        let result = StressResult {
            suite: "atlas".into(),
            profile: "iphone-12".into(),
            scale: 0.0625,
            frames: 3,
            errors: ErrorTally {
                out_of_memory: 2,
                other: 1,
                first_other: None,
            },
            validation_errors: Some(0),
            peak_device_bytes: Some(1234),
            budget_bytes: None,
            requested_budget_bytes: 5 << 20,
            allocate_calls: Some(7),
            swapchains_created: None,
            renderer: "x".into(),
            final_frame: Image {
                width: 2,
                height: 1,
                rgba: vec![1, 2, 3, 4, 1, 2, 3, 5],
            },
        };
        let line = result.line(None);
        let parsed = ParsedLine::parse(&line).map_err(|e| e.to_string());
        let Ok(parsed) = parsed else {
            panic!("{line}: {parsed:?}", parsed = parsed.err())
        };
        assert_eq!(parsed.get("suite").ok(), Some("atlas"));
        assert_eq!(parsed.number::<u32>("frames").ok(), Some(3));
        assert_eq!(parsed.number::<u64>("oom_errors").ok(), Some(2));
        assert_eq!(parsed.optional("peak_device_bytes").ok(), Some(Some(1234)));
        assert_eq!(parsed.optional("budget_bytes").ok(), Some(None));
        assert_eq!(parsed.number::<usize>("distinct_colours").ok(), Some(2));
        assert!(parsed.get("nope").is_err());
    }
}
