//! Byte figures for people, shared by the CLI's commands.
//!
//! One rule everywhere: MiB (2^20 bytes) with one decimal, so columns line up and a dashboard,
//! a `budget` printout and a report legend show the same number for the same bytes.

/// 2^20 bytes.
pub const MIB: u64 = 1 << 20;

/// `bytes` in MiB with one decimal: `627.5 MiB`.
pub fn mib(bytes: u64) -> String {
    format!("{:.1} MiB", mib_f64(bytes))
}

/// `bytes` in MiB as a float (for charts and ratios).
pub fn mib_f64(bytes: u64) -> f64 {
    bytes as f64 / MIB as f64
}

/// `part` as a percentage of `whole` (0 when `whole` is 0).
pub fn percent(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        part as f64 * 100.0 / whole as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats() {
        assert_eq!(mib(2091 * MIB), "2091.0 MiB");
        assert_eq!(mib(MIB / 2), "0.5 MiB");
        assert_eq!(percent(1, 4), 25.0);
        assert_eq!(percent(1, 0), 0.0);
    }
}
