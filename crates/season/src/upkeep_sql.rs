//! Keeping a contest going between the organiser's commands (issue 37):
//! games given up as failed put back for the workers
//! ([`ContestStore::retry_failed_games`]), and the clock's part —
//! matchdays frozen once their deadlines pass, matchdays played to the
//! end marked so (and published, where the contest publishes
//! automatically) — done by whoever calls [`ContestStore::keep_time`]
//! (every contest worker, each time it looks for games). Methods of
//! [`ContestStore`], every statement written once for both databases.

use spielleiter_contest::{KnockoutRound, Phase, Timestamp};

use crate::{
    ContestStore,
    error::SeasonError,
    matchday_sql::{
        MATCHDAY_COLUMNS, MatchdayReport, MatchdayState, matchday_of, matchday_row, phase_text,
        refuse, report_of,
    },
    sql::Database,
    store_sql::RETRY_GAME,
};

/// What [`ContestStore::keep_time`] did.
#[derive(Clone, Debug, Default)]
pub struct Upkeep {
    /// Matchdays frozen and scheduled because their deadline passed.
    pub frozen: Vec<MatchdayReport>,
    /// Matchdays found played to the end (marked played, or published
    /// where the contest publishes automatically).
    pub finished: Vec<MatchdayReport>,
    /// Matchdays whose deadline passed but that cannot be frozen, each
    /// with why (the refusal of `contest matchday play`); they stay
    /// planned until the organiser acts.
    pub refused: Vec<(Phase, u32, String)>,
    /// Versions whose test games are over, judged now.
    pub judged: Vec<crate::test_sql::JudgedTest>,
    /// Friendly encounters whose games are over, marked played now.
    pub friendlies_played: u64,
}

impl<D: Database> ContestStore<D> {
    /// Sets every game of matchday `number` of `phase` (or of the
    /// final's round of that number) that was given up as failed waiting
    /// again, for the workers to play; how many. The encounters they
    /// belong to wait for them (a failed game has no result).
    ///
    /// # Errors
    ///
    /// [`SeasonError::Refused`] — nothing changed — for no such matchday,
    /// or one without failed games. Or the store fails.
    pub async fn retry_failed_games(&self, phase: Phase, number: u32) -> Result<u64, SeasonError> {
        let contest = self.contest.id.0;
        self.db
            .transaction(move |db| {
                Box::pin(async move {
                    let title = match KnockoutRound::of_number(number) {
                        Some(round) if phase == Phase::Final => format!("the {round}"),
                        _ => format!("matchday {number} of the {phase}"),
                    };
                    let matchday = match matchday_of(db, contest, phase, number).await {
                        Err(SeasonError::Refused(_)) if phase == Phase::Final => {
                            return refuse(format!("{title} is not scheduled yet"));
                        }
                        found => found?,
                    };
                    let retried = db
                        .execute(
                            &format!(
                                "{RETRY_GAME} WHERE state = 'failed' AND season IN \
                                 (SELECT e.season FROM contest_encounters e \
                                  WHERE e.matchday = $1 AND e.season IS NOT NULL)"
                            ),
                            &[matchday.id.0.into()],
                        )
                        .await?;
                    if retried == 0 {
                        return refuse(format!("{title} has no failed game to play again"));
                    }
                    Ok(retried)
                })
            })
            .await
    }

    /// Does what the clock asks at `now`: freezes and schedules every
    /// planned matchday (not the final's rounds, which `contest final
    /// play` starts) whose deadline is at or before `now`, earliest
    /// first, as `contest matchday play` would (the versions active at
    /// that moment are frozen: a worker calling this every few seconds
    /// freezes within that much of the deadline); and brings every
    /// scheduled matchday up to date, so that one played to the end is
    /// marked played or, where the contest publishes automatically,
    /// published; and judges every version's test whose games are over
    /// ([`ContestStore::judge_tests`]), marks friendly encounters played,
    /// and tells teams without an active version that a deadline is near.
    /// Safe to call from many workers at once: a matchday is
    /// frozen once (under the contest's row lock), and one that another
    /// caller froze first is not reported.
    ///
    /// # Errors
    ///
    /// The store fails, or holds a result that does not fit its
    /// encounter. A matchday that cannot be frozen is no error: it is in
    /// [`Upkeep::refused`].
    pub async fn keep_time(&self, now: Timestamp) -> Result<Upkeep, SeasonError> {
        let contest = self.contest.id.0;
        let due = self
            .db
            .run(move |db| {
                Box::pin(async move {
                    db.query(
                        &format!(
                            "SELECT {MATCHDAY_COLUMNS} FROM contest_matchdays m \
                             WHERE m.contest = $1 AND m.state = 'planned' AND m.phase <> $2 \
                             AND m.deadline IS NOT NULL AND m.deadline <= $3 \
                             ORDER BY m.deadline, m.id"
                        ),
                        &[
                            contest.into(),
                            phase_text(Phase::Final).into(),
                            now.0.into(),
                        ],
                    )
                    .await?
                    .iter()
                    .map(matchday_row)
                    .collect::<Result<Vec<_>, _>>()
                })
            })
            .await?;
        let mut upkeep = Upkeep::default();
        for matchday in due {
            match self
                .play_matchday(matchday.phase, matchday.number, now)
                .await
            {
                Ok(report) => upkeep.frozen.push(report),
                Err(SeasonError::Refused(why)) => {
                    // Frozen by another caller in the meantime: not ours to report.
                    let now_state = self.matchday_state(matchday.phase, matchday.number).await?;
                    if now_state == MatchdayState::Planned {
                        upkeep.refused.push((matchday.phase, matchday.number, why));
                    }
                }
                Err(error) => return Err(error),
            }
        }
        let settled = self.contest.clone();
        upkeep.finished = self
            .db
            .transaction(move |db| {
                Box::pin(async move {
                    let scheduled = db
                        .query(
                            &format!(
                                "SELECT {MATCHDAY_COLUMNS} FROM contest_matchdays m \
                                 WHERE m.contest = $1 AND m.state = 'scheduled' ORDER BY m.id"
                            ),
                            &[settled.id.0.into()],
                        )
                        .await?
                        .iter()
                        .map(matchday_row)
                        .collect::<Result<Vec<_>, _>>()?;
                    let mut finished = Vec::new();
                    for matchday in scheduled {
                        let report = report_of(db, &settled, matchday).await?;
                        if report.matchday.state != MatchdayState::Scheduled {
                            finished.push(report);
                        }
                    }
                    Ok(finished)
                })
            })
            .await?;
        upkeep.judged = self.judge_tests().await?;
        upkeep.friendlies_played = self.settle_friendlies().await?;
        let contest = self.contest.clone();
        self.db
            .transaction(move |db| {
                Box::pin(
                    async move { crate::notice_sql::warn_without_version(db, &contest, now).await },
                )
            })
            .await?;
        Ok(upkeep)
    }

    /// Where matchday `number` of `phase` stands.
    async fn matchday_state(
        &self,
        phase: Phase,
        number: u32,
    ) -> Result<MatchdayState, SeasonError> {
        let contest = self.contest.id.0;
        self.db
            .run(move |db| {
                Box::pin(async move { Ok(matchday_of(db, contest, phase, number).await?.state) })
            })
            .await
    }
}
