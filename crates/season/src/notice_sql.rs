//! A team's notices (issue 36) in the season store: written by the change
//! they tell of, in its transaction, once per key (a build's attempt, a
//! test's season, a challenge, a matchday), read newest first, each
//! member's read mark, and their mail: each notice's mail to each member
//! with an address is claimed by a sender for a lease and fenced by its
//! attempt ([`TeamNotices`]).

use spielleiter_contest::{
    MAIL_ATTEMPTS, MAX_NOTICES, MailJob, MemberId, Notice, NoticeId, NoticeKind, StandIn,
    StoreError, StoreFuture, TeamId, TeamNotices, Timestamp, check_mail_address,
};

use crate::{
    ContestStore,
    error::SeasonError,
    matchday_sql::{corrupt, parse_phase},
    sql::{Database, Sql},
};

const KINDS: [(NoticeKind, &str); 8] = [
    (NoticeKind::BuildFinished, "build_finished"),
    (NoticeKind::BuildFailed, "build_failed"),
    (NoticeKind::TestFinished, "test_finished"),
    (NoticeKind::ChallengeReceived, "challenge_received"),
    (NoticeKind::ChallengeAccepted, "challenge_accepted"),
    (NoticeKind::FriendlyPlayed, "friendly_played"),
    (NoticeKind::NoActiveVersion, "no_active_version"),
    (NoticeKind::MatchdayPublished, "matchday_published"),
];

fn kind_text(kind: NoticeKind) -> &'static str {
    KINDS
        .iter()
        .find(|(k, _)| *k == kind)
        .map_or("build_finished", |(_, text)| text)
}

/// Tells `team` `text`, once for `key` (a second notice of the same key
/// is not written), at the database's clock.
pub(crate) async fn notify(
    db: &mut Sql<'_>,
    team: TeamId,
    kind: NoticeKind,
    key: &str,
    text: &str,
) -> Result<(), SeasonError> {
    db.execute(
        "INSERT INTO contest_notices (team, kind, key, text, created_at) \
         VALUES ($1, $2, $3, $4, {now_ms} / 1000) ON CONFLICT (team, key) DO NOTHING",
        &[
            team.0.into(),
            kind_text(kind).into(),
            key.into(),
            text.into(),
        ],
    )
    .await?;
    Ok(())
}

/// How long before a matchday's deadline a team without an active
/// version is told.
pub const NO_VERSION_WARNING_SECONDS: i64 = 24 * 3600;

/// An instant for a notice, in UTC.
fn shown(at: Timestamp) -> String {
    jiff::Timestamp::from_second(at.0).map_or_else(
        |_| at.0.to_string(),
        |t| t.strftime("%Y-%m-%d %H:%M UTC").to_string(),
    )
}

/// Tells every enabled team without an active version, once per matchday,
/// that a planned matchday's deadline is within
/// [`NO_VERSION_WARNING_SECONDS`] of `now`; how many notices were due.
pub(crate) async fn warn_without_version(
    db: &mut Sql<'_>,
    contest: &spielleiter_contest::Contest,
    now: Timestamp,
) -> Result<usize, SeasonError> {
    let due = db
        .query(
            "SELECT id, phase, number, deadline FROM contest_matchdays \
             WHERE contest = $1 AND state = 'planned' AND deadline IS NOT NULL \
             AND deadline > $2 AND deadline <= $3 ORDER BY deadline, id",
            &[
                contest.id.0.into(),
                now.0.into(),
                (now.0 + NO_VERSION_WARNING_SECONDS).into(),
            ],
        )
        .await?;
    let mut told = 0;
    for row in &due {
        let (matchday, phase, number, deadline): (i64, String, i64, i64) =
            (row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?);
        let phase = parse_phase(&phase)?;
        let teams = db
            .query(
                "SELECT t.id FROM contest_teams t WHERE t.contest = $1 AND t.enabled = 1 \
                 AND NOT EXISTS (SELECT 1 FROM contest_versions v \
                                 WHERE v.team = t.id AND v.active = 1)",
                &[contest.id.0.into()],
            )
            .await?;
        let then = match contest.settings.stand_in {
            StandIn::RandomBot => "the built-in random bot plays for your team",
            StandIn::Forfeit => "your team forfeits its encounter",
        };
        let text = format!(
            "Your team has no active version, and matchday {number} of the {phase} is frozen at {}: \
             activate one before then, or {then}.",
            shown(Timestamp(deadline))
        );
        for team in &teams {
            notify(
                db,
                TeamId(team.get(0)?),
                NoticeKind::NoActiveVersion,
                &format!("no-active-{matchday}"),
                &text,
            )
            .await?;
            told += 1;
        }
    }
    Ok(told)
}

impl<D: Database> ContestStore<D> {
    async fn team_notices(&self, team: TeamId) -> Result<Vec<Notice>, SeasonError> {
        let contest = self.record().id.0;
        self.database()
            .run(move |db| {
                Box::pin(async move {
                    db.query(
                        &format!(
                            "SELECT n.id, n.kind, n.text, n.created_at FROM contest_notices n \
                             JOIN contest_teams t ON t.id = n.team \
                             WHERE t.contest = $1 AND n.team = $2 \
                             ORDER BY n.created_at DESC, n.id DESC LIMIT {MAX_NOTICES}"
                        ),
                        &[contest.into(), team.0.into()],
                    )
                    .await?
                    .iter()
                    .map(|row| {
                        let kind: String = row.get(1)?;
                        Ok(Notice {
                            id: NoticeId(row.get(0)?),
                            kind: KINDS
                                .iter()
                                .find(|(_, text)| *text == kind)
                                .map(|(k, _)| *k)
                                .ok_or_else(|| corrupt("notice kind", kind))?,
                            text: row.get(2)?,
                            at: Timestamp(row.get(3)?),
                        })
                    })
                    .collect()
                })
            })
            .await
    }

    /// `member`'s read mark, `None` when `member` is no member of `team`
    /// (in this contest) or has marked nothing yet.
    async fn read_mark(
        &self,
        team: TeamId,
        member: MemberId,
    ) -> Result<Option<NoticeId>, SeasonError> {
        let contest = self.record().id.0;
        self.database()
            .run(move |db| {
                Box::pin(async move {
                    let row = db
                        .query_opt(
                            "SELECT r.up_to FROM contest_notice_reads r \
                             JOIN contest_accounts a ON a.id = r.member \
                             WHERE r.member = $1 AND a.team = $2 AND a.contest = $3",
                            &[member.0.into(), team.0.into(), contest.into()],
                        )
                        .await?;
                    row.map(|row| row.get(0).map(NoticeId)).transpose()
                })
            })
            .await
    }

    /// Moves `member`'s read mark to `up_to`, never back and never past
    /// the team's newest notice; refused for anybody but a member of
    /// `team`.
    async fn move_read_mark(
        &self,
        team: TeamId,
        member: MemberId,
        up_to: NoticeId,
    ) -> Result<(), SeasonError> {
        let contest = self.record().id.0;
        self.database()
            .run(move |db| {
                Box::pin(async move {
                    let member_of = db
                        .query_opt(
                            "SELECT 1 FROM contest_accounts WHERE id = $1 AND team = $2 AND contest = $3",
                            &[member.0.into(), team.0.into(), contest.into()],
                        )
                        .await?;
                    if member_of.is_none() {
                        return Err(SeasonError::Contest(StoreError::Refused(
                            "only the team's members keep a read mark on its notices",
                        )));
                    }
                    let newest: i64 = match db
                        .query_opt(
                            "SELECT COALESCE(MAX(id), 0) FROM contest_notices WHERE team = $1",
                            &[team.0.into()],
                        )
                        .await?
                    {
                        Some(row) => row.get(0)?,
                        None => 0,
                    };
                    let up_to = up_to.0.min(newest);
                    // One statement, so that two tabs marking at once keep
                    // the greater mark.
                    db.execute(
                        "INSERT INTO contest_notice_reads (member, up_to) VALUES ($1, $2) \
                         ON CONFLICT (member) DO UPDATE SET up_to = \
                         CASE WHEN excluded.up_to > contest_notice_reads.up_to \
                         THEN excluded.up_to ELSE contest_notice_reads.up_to END",
                        &[member.0.into(), up_to.into()],
                    )
                    .await?;
                    Ok(())
                })
            })
            .await
    }
}

/// The longest failure kept with a mail, in bytes.
const MAX_MAIL_ERROR: usize = 500;

impl<D: Database> ContestStore<D> {
    async fn address_of(&self, member: MemberId) -> Result<Option<String>, SeasonError> {
        let contest = self.record().id.0;
        self.database()
            .run(move |db| {
                Box::pin(async move {
                    let row = db
                        .query_opt(
                            "SELECT m.address FROM contest_mail_addresses m \
                             JOIN contest_accounts a ON a.id = m.member \
                             WHERE m.member = $1 AND a.contest = $2",
                            &[member.0.into(), contest.into()],
                        )
                        .await?;
                    row.map(|row| row.get(0)).transpose()
                })
            })
            .await
    }

    async fn set_address(
        &self,
        member: MemberId,
        address: Option<String>,
    ) -> Result<(), SeasonError> {
        if let Some(address) = &address {
            check_mail_address(address).map_err(|error| {
                SeasonError::Contest(StoreError::Refused(match error {
                    spielleiter_contest::MailAddressError::Empty => "the e-mail address is empty",
                    spielleiter_contest::MailAddressError::TooLong => {
                        "the e-mail address is too long"
                    }
                    spielleiter_contest::MailAddressError::Malformed(_) => {
                        "the e-mail address is not of the form name@example.org"
                    }
                }))
            })?;
        }
        let contest = self.record().id.0;
        self.database()
            .transaction(move |db| {
                Box::pin(async move {
                    let known = db
                        .query_opt(
                            "SELECT 1 FROM contest_accounts WHERE id = $1 AND contest = $2",
                            &[member.0.into(), contest.into()],
                        )
                        .await?;
                    if known.is_none() {
                        return Err(SeasonError::Contest(StoreError::NotFound("account")));
                    }
                    match address {
                        Some(address) => {
                            db.execute(
                                "INSERT INTO contest_mail_addresses (member, address, since) \
                                 VALUES ($1, $2, {now_ms} / 1000) ON CONFLICT (member) DO UPDATE \
                                 SET address = excluded.address, since = excluded.since",
                                &[member.0.into(), address.as_str().into()],
                            )
                            .await?;
                        }
                        None => {
                            db.execute(
                                "DELETE FROM contest_mail_addresses WHERE member = $1",
                                &[member.0.into()],
                            )
                            .await?;
                        }
                    }
                    Ok(())
                })
            })
            .await
    }

    async fn claim_mails(&self, lease_ms: i64, max: usize) -> Result<Vec<MailJob>, SeasonError> {
        let contest = self.record().id.0;
        let max = i64::try_from(max).unwrap_or(i64::MAX);
        self.database()
            .transaction(move |db| {
                Box::pin(async move {
                    // Each member of a notice's team with an address set
                    // before it was told, and enabled: a mail not claimed
                    // yet, or one whose claim ran out with attempts left.
                    let due = db
                        .query(
                            "SELECT n.id, a.id, m.address, n.team, t.name, n.text, n.created_at, \
                             s.attempt FROM contest_notices n \
                             JOIN contest_teams t ON t.id = n.team \
                             JOIN contest_accounts a ON a.team = n.team AND a.enabled = 1 \
                             JOIN contest_mail_addresses m ON m.member = a.id \
                             LEFT JOIN contest_notice_mail s ON s.notice = n.id AND s.member = a.id \
                             WHERE t.contest = $1 AND n.created_at >= m.since \
                             AND (s.notice IS NULL OR (s.state = 'sending' \
                                 AND s.lease_until < {now_ms} AND s.attempt < $2)) \
                             ORDER BY n.id, a.id LIMIT $3",
                            &[contest.into(), i64::from(MAIL_ATTEMPTS).into(), max.into()],
                        )
                        .await?;
                    let mut jobs = Vec::new();
                    for row in &due {
                        let (notice, member): (i64, i64) = (row.get(0)?, row.get(1)?);
                        let before: Option<i64> = row.get(7)?;
                        // Claimed by whoever writes the row first; a
                        // sender that lost the race finds it taken.
                        let claimed = match before {
                            None => db
                                .query_opt(
                                    "INSERT INTO contest_notice_mail \
                                     (notice, member, state, attempt, lease_until) \
                                     VALUES ($1, $2, 'sending', 1, {now_ms} + $3) \
                                     ON CONFLICT (notice, member) DO NOTHING RETURNING attempt",
                                    &[notice.into(), member.into(), lease_ms.into()],
                                )
                                .await?,
                            Some(attempt) => db
                                .query_opt(
                                    "UPDATE contest_notice_mail SET attempt = attempt + 1, \
                                     lease_until = {now_ms} + $3 \
                                     WHERE notice = $1 AND member = $2 AND state = 'sending' \
                                     AND attempt = $4 AND lease_until < {now_ms} RETURNING attempt",
                                    &[
                                        notice.into(),
                                        member.into(),
                                        lease_ms.into(),
                                        attempt.into(),
                                    ],
                                )
                                .await?,
                        };
                        let Some(claimed) = claimed else { continue };
                        jobs.push(MailJob {
                            notice: NoticeId(notice),
                            member: MemberId(member),
                            address: row.get(2)?,
                            team: TeamId(row.get(3)?),
                            team_name: row.get(4)?,
                            text: row.get(5)?,
                            at: Timestamp(row.get(6)?),
                            attempt: claimed.get(0)?,
                        });
                    }
                    Ok(jobs)
                })
            })
            .await
    }

    async fn record_mail(
        &self,
        job: &MailJob,
        outcome: Result<(), String>,
        retry_ms: i64,
    ) -> Result<(), SeasonError> {
        let (notice, member, attempt) = (job.notice.0, job.member.0, i64::from(job.attempt));
        let last = job.attempt >= MAIL_ATTEMPTS;
        self.database()
            .run(move |db| {
                Box::pin(async move {
                    let fence = "WHERE notice = $1 AND member = $2 AND attempt = $3 \
                                 AND state = 'sending'";
                    match outcome {
                        Ok(()) => {
                            db.execute(
                                &format!(
                                    "UPDATE contest_notice_mail SET state = 'sent', error = NULL {fence}"
                                ),
                                &[notice.into(), member.into(), attempt.into()],
                            )
                            .await?;
                        }
                        Err(why) => {
                            let mut why = why;
                            if why.len() > MAX_MAIL_ERROR {
                                let mut end = MAX_MAIL_ERROR;
                                while !why.is_char_boundary(end) {
                                    end -= 1;
                                }
                                why.truncate(end);
                            }
                            let mut values = vec![
                                notice.into(),
                                member.into(),
                                attempt.into(),
                                why.as_str().into(),
                            ];
                            let change = if last {
                                "state = 'failed', error = $4"
                            } else {
                                values.push(retry_ms.into());
                                "lease_until = {now_ms} + $5, error = $4"
                            };
                            db.execute(
                                &format!("UPDATE contest_notice_mail SET {change} {fence}"),
                                &values,
                            )
                            .await?;
                        }
                    }
                    Ok(())
                })
            })
            .await
    }
}

impl<D: Database + 'static> TeamNotices for ContestStore<D> {
    fn notices(&self, team: TeamId) -> StoreFuture<'_, Vec<Notice>> {
        self.answered(self.team_notices(team))
    }

    fn last_read(&self, team: TeamId, member: MemberId) -> StoreFuture<'_, Option<NoticeId>> {
        self.answered(self.read_mark(team, member))
    }

    fn mark_read(&self, team: TeamId, member: MemberId, up_to: NoticeId) -> StoreFuture<'_, ()> {
        self.answered(self.move_read_mark(team, member, up_to))
    }

    fn mail_address(&self, member: MemberId) -> StoreFuture<'_, Option<String>> {
        self.answered(self.address_of(member))
    }

    fn set_mail_address<'a>(
        &'a self,
        member: MemberId,
        address: Option<&'a str>,
    ) -> StoreFuture<'a, ()> {
        self.answered(self.set_address(member, address.map(str::to_owned)))
    }

    fn claim_mail(&self, lease_ms: i64, max: usize) -> StoreFuture<'_, Vec<MailJob>> {
        self.answered(self.claim_mails(lease_ms, max))
    }

    fn mail_done<'a>(
        &'a self,
        job: &'a MailJob,
        outcome: Result<(), String>,
        retry_ms: i64,
    ) -> StoreFuture<'a, ()> {
        self.answered(self.record_mail(job, outcome, retry_ms))
    }
}
