//! The organiser's steps on the contest's calendar from its pages: the
//! season store's implementation of the contest's [`ContestCalendar`]
//! (issue 37). Each step is the very function the `contest matchday …` and
//! `contest final …` commands call (`matchday_sql`, `knockout_sql`,
//! `upkeep_sql`), so a page refuses what a command refuses, with its
//! reason.

use spielleiter_contest::{
    CalendarDone, CalendarError, CalendarFuture, CalendarStep, ContestCalendar, KnockoutRound,
    Phase, Timestamp,
};

use crate::{ContestStore, error::SeasonError, sql::Database};

/// A store's refusal or failure as the pages' error.
fn calendar_error<D: Database>(store: &ContestStore<D>, error: SeasonError) -> CalendarError {
    match error {
        SeasonError::Refused(why) => CalendarError::Refused(why),
        SeasonError::Database { store, cause } | SeasonError::Connect { store, cause } => {
            CalendarError::Backend { store, cause }
        }
        other => CalendarError::Backend {
            store: store.database().store_name(),
            cause: other.to_string(),
        },
    }
}

/// The final's round numbered `number`, or the refusal.
fn round_of(number: u32) -> Result<KnockoutRound, SeasonError> {
    KnockoutRound::of_number(number).ok_or_else(|| {
        SeasonError::Refused(format!(
            "the final has no round {number}: its rounds are 1 (quarter-finals), 2 (semi-finals), \
             3 (third place) and 4 (the final)"
        ))
    })
}

impl<D: Database + 'static> ContestStore<D> {
    async fn take_step(
        &self,
        step: CalendarStep,
        now: Timestamp,
    ) -> Result<CalendarDone, SeasonError> {
        let done = |phase: Phase, number: u32, games: u64| CalendarDone {
            phase,
            number,
            games,
            changed: true,
        };
        Ok(match step {
            CalendarStep::NewMatchday {
                phase,
                deadline,
                timed,
            } => {
                let made = self.create_matchday(phase, deadline, timed).await?;
                done(made.phase, made.number, 0)
            }
            CalendarStep::NewFinal { size } => {
                let size = size.unwrap_or(self.record().settings.bracket);
                let made = self.create_final(size, now).await?;
                let first = made
                    .bracket
                    .rounds()
                    .first()
                    .map_or(KnockoutRound::SemiFinal.number(), |round| round.number());
                done(Phase::Final, first, 0)
            }
            CalendarStep::Play {
                phase: Phase::Final,
                number,
                timed,
            } => {
                let played = self.play_round(round_of(number)?, timed, now).await?;
                CalendarDone {
                    games: u64::from(played.report.games.1),
                    changed: played.scheduled_now,
                    ..done(Phase::Final, number, 0)
                }
            }
            CalendarStep::Play { phase, number, .. } => {
                let report = self.play_matchday(phase, number, now).await?;
                done(phase, number, u64::from(report.games.1))
            }
            CalendarStep::Publish {
                phase: Phase::Final,
                number,
            } => {
                self.publish_round(round_of(number)?, now).await?;
                done(Phase::Final, number, 0)
            }
            CalendarStep::Publish { phase, number } => {
                self.publish_matchday(phase, number, now).await?;
                done(phase, number, 0)
            }
            CalendarStep::Unpublish {
                phase: Phase::Final,
                number,
            } => {
                self.unpublish_round(round_of(number)?).await?;
                done(Phase::Final, number, 0)
            }
            CalendarStep::Unpublish { phase, number } => {
                self.unpublish_matchday(phase, number).await?;
                done(phase, number, 0)
            }
            CalendarStep::RetryFailed { phase, number } => {
                if phase == Phase::Final {
                    round_of(number)?;
                }
                let retried = self.retry_failed_games(phase, number).await?;
                done(phase, number, retried)
            }
        })
    }
}

impl<D: Database + 'static> ContestCalendar for ContestStore<D> {
    fn take(&self, step: CalendarStep, now: Timestamp) -> CalendarFuture<'_> {
        Box::pin(async move {
            self.take_step(step, now)
                .await
                .map_err(|error| calendar_error(self, error))
        })
    }
}
