//! A calendar for the pages' tests: it keeps every step it is asked to
//! take, and answers with what the test set (done, or a refusal).

use std::sync::Mutex;

use spielleiter_contest::{
    CalendarDone, CalendarError, CalendarFuture, CalendarStep, ContestCalendar, Phase, Timestamp,
};

/// The steps taken, and the answer to the next.
#[derive(Debug, Default)]
pub(crate) struct RecordingCalendar {
    taken: Mutex<Vec<(CalendarStep, Timestamp)>>,
    refusal: Mutex<Option<String>>,
}

impl RecordingCalendar {
    /// The steps taken so far, with the time each was taken at.
    pub fn taken(&self) -> Vec<(CalendarStep, Timestamp)> {
        self.taken.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// Every step from now on is refused with `why` (`None`: taken).
    pub fn refuse(&self, why: Option<&str>) {
        *self.refusal.lock().unwrap_or_else(|e| e.into_inner()) = why.map(str::to_owned);
    }
}

impl ContestCalendar for RecordingCalendar {
    fn take(&self, step: CalendarStep, now: Timestamp) -> CalendarFuture<'_> {
        let refusal = self
            .refusal
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        if refusal.is_none() {
            self.taken
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push((step, now));
        }
        let (phase, number) = match step {
            CalendarStep::NewMatchday { phase, .. } => (phase, 1),
            CalendarStep::NewFinal { .. } => (Phase::Final, 2),
            CalendarStep::Play { phase, number, .. }
            | CalendarStep::Publish { phase, number }
            | CalendarStep::Unpublish { phase, number }
            | CalendarStep::RetryFailed { phase, number } => (phase, number),
        };
        Box::pin(async move {
            match refusal {
                Some(why) => Err(CalendarError::Refused(why)),
                None => Ok(CalendarDone {
                    phase,
                    number,
                    games: 12,
                    changed: true,
                }),
            }
        })
    }
}
