//! The move clock of one outstanding move request: when the time started,
//! when it runs out, and whether an arriving move was in time.
//!
//! Time starts when the request has been written to the player's socket (the
//! connection's writer reports that instant), not when the room decided to
//! ask, and a move's time is the instant its last byte was read from the
//! socket, not when the room got round to it. A busy server therefore never
//! makes a punctual move late. If the request cannot even be written (the
//! player does not read its socket), the hard limit counts from the moment
//! the request was queued.

use std::time::Duration;

use tokio::time::Instant;

/// The limits of one game type, or none for an untimed player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeLimits {
    /// A move later than this loses with `SOFT_TIMEOUT`.
    pub soft: Duration,
    /// No move by then loses with `HARD_TIMEOUT`.
    pub hard: Duration,
}

/// How a player ran out of time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Timeout {
    /// The move came, but after the soft limit.
    Soft,
    /// No move came within the hard limit.
    Hard,
}

/// The clock of one move request.
#[derive(Clone, Copy, Debug)]
pub struct MoveClock {
    limits: Option<TimeLimits>,
    queued_at: Instant,
    written_at: Option<Instant>,
}

impl MoveClock {
    /// A request queued for writing at `queued_at`; `limits` is `None` for a
    /// player who is not timed.
    pub fn new(limits: Option<TimeLimits>, queued_at: Instant) -> MoveClock {
        MoveClock {
            limits,
            queued_at,
            written_at: None,
        }
    }

    /// The request reached the socket at `at`: the clock starts.
    pub fn written(&mut self, at: Instant) {
        self.written_at.get_or_insert(at);
    }

    /// When the player loses for sending nothing, if timed.
    pub fn hard_deadline(&self) -> Option<Instant> {
        let limits = self.limits?;
        Some(self.written_at.unwrap_or(self.queued_at) + limits.hard)
    }

    /// Judges a move whose last byte was read at `read_at`. A move read
    /// before the writer's report arrived (the player answered faster than
    /// the report travelled) took no time at all.
    pub fn judge(&self, read_at: Instant) -> Result<Duration, Timeout> {
        let started = self.written_at.unwrap_or(read_at);
        let took = read_at.saturating_duration_since(started);
        match self.limits {
            Some(limits) if took > limits.hard => Err(Timeout::Hard),
            Some(limits) if took > limits.soft => Err(Timeout::Soft),
            _ => Ok(took),
        }
    }
}

/// Sleeps until `deadline`, or forever without one (a `select!` branch
/// that is off).
pub(crate) async fn sleep_until_some(deadline: Option<Instant>) {
    match deadline {
        Some(deadline) => tokio::time::sleep_until(deadline).await,
        None => std::future::pending().await,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIMITS: TimeLimits = TimeLimits {
        soft: Duration::from_millis(2000),
        hard: Duration::from_millis(10_000),
    };

    #[test]
    fn time_counts_from_the_write_not_from_the_queueing() {
        let queued = Instant::now();
        let mut clock = MoveClock::new(Some(LIMITS), queued);
        let written = queued + Duration::from_millis(500);
        clock.written(written);
        assert_eq!(
            clock.judge(written + Duration::from_millis(1950)),
            Ok(Duration::from_millis(1950))
        );
        assert_eq!(clock.hard_deadline(), Some(written + LIMITS.hard));
    }

    #[test]
    fn the_soft_limit_is_exclusive() {
        let start = Instant::now();
        let mut clock = MoveClock::new(Some(LIMITS), start);
        clock.written(start);
        assert!(clock.judge(start + LIMITS.soft).is_ok());
        assert_eq!(
            clock.judge(start + LIMITS.soft + Duration::from_millis(1)),
            Err(Timeout::Soft)
        );
        assert_eq!(
            clock.judge(start + Duration::from_millis(2050)),
            Err(Timeout::Soft)
        );
        assert_eq!(
            clock.judge(start + LIMITS.hard + Duration::from_millis(1)),
            Err(Timeout::Hard)
        );
    }

    #[test]
    fn an_untimed_player_never_times_out() {
        let start = Instant::now();
        let mut clock = MoveClock::new(None, start);
        clock.written(start);
        assert!(clock.judge(start + Duration::from_secs(3600)).is_ok());
        assert_eq!(clock.hard_deadline(), None);
    }

    #[test]
    fn a_request_that_is_never_written_still_has_a_deadline() {
        let queued = Instant::now();
        let clock = MoveClock::new(Some(LIMITS), queued);
        assert_eq!(clock.hard_deadline(), Some(queued + LIMITS.hard));
    }

    #[test]
    fn the_first_write_report_counts() {
        let start = Instant::now();
        let mut clock = MoveClock::new(Some(LIMITS), start);
        clock.written(start);
        clock.written(start + Duration::from_secs(5));
        assert_eq!(clock.hard_deadline(), Some(start + LIMITS.hard));
    }

    #[test]
    fn a_move_read_before_the_write_report_is_in_time() {
        let start = Instant::now();
        let clock = MoveClock::new(Some(LIMITS), start);
        assert_eq!(
            clock.judge(start + Duration::from_millis(10)),
            Ok(Duration::ZERO)
        );
    }
}
