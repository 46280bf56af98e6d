//! Environment overrides: `ARENAGL_BUDGET_MB` and `ARENAGL_PROFILE`, and the pressure policy's
//! knobs `ARENAGL_DEMOTE_AFTER_FRAMES` and `ARENAGL_CRITICAL_RENDER_SCALE`.
//!
//! Design decisions:
//! - Parsing takes the values (`Option<&str>`), so tests never touch the process environment;
//!   [`EnvOverrides::from_env`] is the only reader and does nothing but fetch the two variables.
//! - A bad value is an error, never a panic and never silently ignored: a person who set a
//!   budget and got a different one would be misled. An empty value counts as unset
//!   (`ARENAGL_BUDGET_MB= cmd` is a common way to clear a variable).
//! - `ARENAGL_BUDGET_MB` is a hard total for GPU memory in MiB (2^20 bytes). It wins over every
//!   derived constraint, even when larger: it is the escape hatch for a device whose figures
//!   are wrong. Zero is rejected (a zero budget refuses every allocation, which is never meant).
//! - `ARENAGL_PROFILE` names a profile as [`Profile::by_name`] does (`+entitled` included); it
//!   replaces the detected profile.

use crate::{ActionPolicy, Profile, ResidencyError, MIB};

/// The variable holding a hard GPU budget in MiB.
pub const BUDGET_VAR: &str = "ARENAGL_BUDGET_MB";
/// The variable naming a device profile.
pub const PROFILE_VAR: &str = "ARENAGL_PROFILE";

/// The variable holding the frames without sampling after which a texture may be demoted.
pub const DEMOTE_AFTER_VAR: &str = "ARENAGL_DEMOTE_AFTER_FRAMES";
/// The variable holding the render scale asked for at Critical (a fraction, `0.25..=1`).
pub const RENDER_SCALE_VAR: &str = "ARENAGL_CRITICAL_RENDER_SCALE";

/// The pressure policy with the environment's knobs applied to the default
/// ([`ActionPolicy::default`]): `demote_after` frames (a whole number) and `render_scale` (a
/// fraction from 0.25 to 1). `None` or empty keeps the default.
pub fn parse_policy(
    demote_after: Option<&str>,
    render_scale: Option<&str>,
) -> Result<ActionPolicy, ResidencyError> {
    let mut policy = ActionPolicy::default();
    if let Some(value) = non_empty(demote_after) {
        if !value.bytes().all(|b| b.is_ascii_digit()) {
            return Err(ResidencyError::InvalidOverride {
                var: DEMOTE_AFTER_VAR,
                value: value.to_owned(),
                reason: "expected a whole number of frames, e.g. 256",
            });
        }
        policy.unsampled_for_frames =
            value
                .parse::<u32>()
                .map_err(|_| ResidencyError::InvalidOverride {
                    var: DEMOTE_AFTER_VAR,
                    value: value.to_owned(),
                    reason: "the number is too large",
                })?;
    }
    if let Some(value) = non_empty(render_scale) {
        match value.parse::<f32>() {
            Ok(scale) if (0.25..=1.0).contains(&scale) => policy.critical_render_scale = scale,
            _ => {
                return Err(ResidencyError::InvalidOverride {
                    var: RENDER_SCALE_VAR,
                    value: value.to_owned(),
                    reason: "expected a fraction from 0.25 to 1, e.g. 0.75",
                })
            }
        }
    }
    Ok(policy)
}

/// [`parse_policy`] of the process environment.
pub fn policy_from_env() -> Result<ActionPolicy, ResidencyError> {
    let demote = read_var(DEMOTE_AFTER_VAR)?;
    let scale = read_var(RENDER_SCALE_VAR)?;
    parse_policy(demote.as_deref(), scale.as_deref())
}

/// What the environment asks for.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EnvOverrides {
    /// A hard total GPU budget in bytes, from `ARENAGL_BUDGET_MB`.
    pub budget_bytes: Option<u64>,
    /// A profile that replaces the detected one, from `ARENAGL_PROFILE`.
    pub profile: Option<Profile>,
}

impl EnvOverrides {
    /// Parses the raw values of `ARENAGL_BUDGET_MB` and `ARENAGL_PROFILE` (`None` = unset).
    pub fn parse(budget_mb: Option<&str>, profile: Option<&str>) -> Result<Self, ResidencyError> {
        let budget_bytes = match non_empty(budget_mb) {
            Some(value) => Some(parse_budget_mb(value)?),
            None => None,
        };
        let profile = match non_empty(profile) {
            Some(name) => Some(Profile::by_name(name)?),
            None => None,
        };
        Ok(EnvOverrides {
            budget_bytes,
            profile,
        })
    }

    /// Reads both variables from the process environment and parses them. A value that is not
    /// UTF-8 is an error like any other bad value.
    pub fn from_env() -> Result<Self, ResidencyError> {
        let budget = read_var(BUDGET_VAR)?;
        let profile = read_var(PROFILE_VAR)?;
        EnvOverrides::parse(budget.as_deref(), profile.as_deref())
    }
}

fn non_empty(value: Option<&str>) -> Option<&str> {
    value.map(str::trim).filter(|value| !value.is_empty())
}

fn parse_budget_mb(value: &str) -> Result<u64, ResidencyError> {
    let invalid = |reason| ResidencyError::InvalidOverride {
        var: BUDGET_VAR,
        value: value.to_owned(),
        reason,
    };
    // `u64::from_str` accepts a leading `+`; a budget is written as plain digits.
    if !value.bytes().all(|b| b.is_ascii_digit()) {
        return Err(invalid("expected a whole number of MiB, e.g. 1536"));
    }
    let mib = value
        .parse::<u64>()
        .map_err(|_| invalid("the number is too large"))?;
    if mib == 0 {
        return Err(invalid("a zero budget would refuse every allocation"));
    }
    mib.checked_mul(MIB)
        .ok_or_else(|| invalid("the number is too large"))
}

fn read_var(var: &'static str) -> Result<Option<String>, ResidencyError> {
    match std::env::var_os(var) {
        None => Ok(None),
        Some(value) => {
            value
                .into_string()
                .map(Some)
                .map_err(|raw| ResidencyError::InvalidOverride {
                    var,
                    value: raw.to_string_lossy().into_owned(),
                    reason: "the value is not UTF-8",
                })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reason_of(result: Result<EnvOverrides, ResidencyError>) -> &'static str {
        match result {
            Err(ResidencyError::InvalidOverride { var, reason, .. }) => {
                assert_eq!(var, BUDGET_VAR);
                reason
            }
            other => panic!("expected InvalidOverride, got {other:?}"),
        }
    }

    #[test]
    fn policy_knobs_parse_and_reject_bad_values() {
        assert_eq!(parse_policy(None, Some(" ")), Ok(ActionPolicy::default()));
        let p = parse_policy(Some("8"), Some("0.5")).expect("valid knobs");
        assert_eq!((p.unsampled_for_frames, p.critical_render_scale), (8, 0.5));
        for (demote, scale) in [
            (Some("-1"), None),
            (Some("1e3"), None),
            (Some("99999999999"), None),
            (None, Some("0.1")),
            (None, Some("2")),
            (None, Some("NaN")),
            (None, Some("half")),
        ] {
            assert!(
                matches!(
                    parse_policy(demote, scale),
                    Err(ResidencyError::InvalidOverride { .. })
                ),
                "{demote:?} {scale:?}"
            );
        }
    }

    #[test]
    fn unset_and_empty_mean_no_override() {
        assert_eq!(EnvOverrides::parse(None, None), Ok(EnvOverrides::default()));
        assert_eq!(
            EnvOverrides::parse(Some(""), Some("  ")),
            Ok(EnvOverrides::default())
        );
    }

    #[test]
    fn budget_in_mib_becomes_bytes() {
        let parsed = EnvOverrides::parse(Some("1536"), None).expect("valid budget");
        assert_eq!(parsed.budget_bytes, Some(1536 * MIB));
        let padded = EnvOverrides::parse(Some(" 64\n"), None).expect("whitespace is trimmed");
        assert_eq!(padded.budget_bytes, Some(64 * MIB));
    }

    #[test]
    fn bad_budgets_are_errors() {
        for value in ["abc", "-5", "+5", "1.5", "1536MB", "0x10"] {
            let reason = reason_of(EnvOverrides::parse(Some(value), None));
            assert!(reason.contains("whole number"), "{value}: {reason}");
        }
        assert!(reason_of(EnvOverrides::parse(Some("0"), None)).contains("zero"));
        // Fits in u64 as MiB but not as bytes, and does not fit at all.
        assert!(reason_of(EnvOverrides::parse(Some("17592186044416"), None)).contains("large"));
        assert!(
            reason_of(EnvOverrides::parse(Some("99999999999999999999999"), None)).contains("large")
        );
    }

    #[test]
    fn profile_override_resolves_names() {
        let parsed = EnvOverrides::parse(None, Some("iphone-12")).expect("known profile");
        assert_eq!(
            parsed.profile.map(|p| p.crash_limit_bytes),
            Some(2091 * MIB)
        );
        let entitled =
            EnvOverrides::parse(Some("900"), Some("IPHONE-13-PRO+entitled")).expect("both set");
        assert_eq!(entitled.budget_bytes, Some(900 * MIB));
        assert!(entitled.profile.is_some_and(|p| p.increased_limit_applied));
    }

    #[test]
    fn unknown_profile_override_is_an_error() {
        assert!(matches!(
            EnvOverrides::parse(None, Some("iphone-99")),
            Err(ResidencyError::UnknownProfile { .. })
        ));
    }
}
