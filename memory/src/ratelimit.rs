//! Rate limiting for repeated log lines: the first occurrence, then every Nth, with a count.
//!
//! A call that fails once per frame would otherwise write a line per frame, and a launcher that
//! watches the log can give up on the program; a [`RateLimit`] per message site prevents that.

/// Decides whether the Nth occurrence of a repeated event should be logged.
#[derive(Debug, Clone)]
pub struct RateLimit {
    every: u64,
    count: u64,
}

impl RateLimit {
    /// Logs the first occurrence and then every `every`-th (an `every` of 0 is treated as 1).
    pub const fn new(every: u64) -> Self {
        Self { every, count: 0 }
    }

    /// Records one occurrence; returns `Some(total so far)` when this one should be logged.
    pub fn hit(&mut self) -> Option<u64> {
        self.count += 1;
        let every = self.every.max(1);
        ((self.count - 1) % every == 0).then_some(self.count)
    }

    /// Occurrences recorded so far.
    pub fn count(&self) -> u64 {
        self.count
    }
}

#[cfg(test)]
mod tests {
    use super::RateLimit;

    #[test]
    fn logs_first_then_every_nth() {
        let mut limit = RateLimit::new(10);
        let logged: Vec<u64> = (0..25).filter_map(|_| limit.hit()).collect();
        assert_eq!(logged, vec![1, 11, 21]);
        assert_eq!(limit.count(), 25);
    }
}
