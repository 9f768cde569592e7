//! Friendly games between teams (issue 36) in the season store, on SQLite
//! and PostgreSQL with one SQL text: challenges (`contest_challenges`),
//! their answers under the model's rules ([`Challenge`], [`check_rate`]),
//! and for an accepted one a season `friendly-{id}` of the contest's
//! `games_per_friendly` games between the two teams' active versions at
//! that moment (the challenger first), played by `worker --contest` after
//! the matchdays' games and marked played once its games are over. Its
//! games belong to no matchday: they never count.

use spielleiter_contest::{
    Challenge, ChallengeAnswer, ChallengeEntry, ChallengeError, ChallengeId, ChallengeRate,
    ChallengeState, FriendlyGames, NO_ACTIVE_VERSION, NoticeKind, RATE_LIMITED, StoreError,
    StoreFuture, TeamId, Timestamp, check_rate, friendly_game_seed,
};

use crate::{
    ContestStore, SeasonDefinition, SeasonPlayer,
    columns::encode_definition,
    error::SeasonError,
    matchday_sql::{corrupt, refuse, stored_result},
    notice_sql::notify,
    sql::{Database, Row, Sql},
};

/// The season of challenge `challenge`'s games.
pub fn friendly_season_name(challenge: ChallengeId) -> String {
    format!("friendly-{}", challenge.0)
}

const CHALLENGE_COLUMNS: &str = "c.id, c.challenger, c.challenged, c.created_at, c.state, c.season";

fn state_text(state: ChallengeState) -> &'static str {
    match state {
        ChallengeState::Open => "open",
        ChallengeState::Accepted => "accepted",
        ChallengeState::Declined => "declined",
        ChallengeState::Withdrawn => "withdrawn",
        ChallengeState::Played => "played",
    }
}

fn challenge_row(row: &Row) -> Result<(Challenge, Option<String>), SeasonError> {
    let state: String = row.get(4)?;
    let state = [
        ChallengeState::Open,
        ChallengeState::Accepted,
        ChallengeState::Declined,
        ChallengeState::Withdrawn,
        ChallengeState::Played,
    ]
    .into_iter()
    .find(|s| state_text(*s) == state)
    .ok_or_else(|| corrupt("challenge state", state))?;
    Ok((
        Challenge {
            id: ChallengeId(row.get(0)?),
            challenger: TeamId(row.get(1)?),
            challenged: TeamId(row.get(2)?),
            created_at: Timestamp(row.get(3)?),
            state,
        },
        row.get(5)?,
    ))
}

/// The challenge with its games' results.
async fn entry_of(
    db: &mut Sql<'_>,
    challenge: Challenge,
    season: Option<String>,
) -> Result<ChallengeEntry, SeasonError> {
    let mut games = Vec::new();
    if let Some(season) = season {
        for row in &db
            .query(
                "SELECT state, record FROM games WHERE season = $1 ORDER BY number",
                &[season.as_str().into()],
            )
            .await?
        {
            games.push(stored_result(row, 0)?);
        }
    }
    Ok(ChallengeEntry { challenge, games })
}

/// The player of `team`'s active version, if it has one, and the team's
/// name.
async fn active_player(
    db: &mut Sql<'_>,
    team: TeamId,
) -> Result<Option<(String, String)>, SeasonError> {
    let row = db
        .query_opt(
            "SELECT t.name, v.player FROM contest_teams t \
             JOIN contest_versions v ON v.team = t.id AND v.active = 1 \
             WHERE t.id = $1 AND t.enabled = 1",
            &[team.0.into()],
        )
        .await?;
    row.map(|row| Ok((row.get(0)?, row.get(1)?))).transpose()
}

/// `team`'s name.
async fn team_name(db: &mut Sql<'_>, team: TeamId) -> Result<String, SeasonError> {
    let row = db
        .query_opt(
            "SELECT name FROM contest_teams WHERE id = $1",
            &[team.0.into()],
        )
        .await?
        .ok_or_else(|| corrupt("team", team.0.to_string()))?;
    row.get(0)
}

/// Tells the challenger that `challenge` was accepted.
async fn tell_accepted(
    db: &mut Sql<'_>,
    challenge: &Challenge,
    by_itself: bool,
) -> Result<(), SeasonError> {
    let name = team_name(db, challenge.challenged).await?;
    let how = if by_itself {
        " (it accepts by itself)"
    } else {
        ""
    };
    notify(
        db,
        challenge.challenger,
        NoticeKind::ChallengeAccepted,
        &format!("accepted-{}", challenge.id.0),
        &format!("{name} accepted your friendly challenge{how}; its games wait for the workers."),
    )
    .await
}

/// Schedules accepted `challenge`'s season with both active versions.
async fn schedule(
    db: &mut Sql<'_>,
    contest: &spielleiter_contest::Contest,
    challenge: &Challenge,
    now: Timestamp,
) -> Result<String, SeasonError> {
    let mut players = Vec::with_capacity(2);
    for team in [challenge.challenger, challenge.challenged] {
        let Some((name, start)) = active_player(db, team).await? else {
            return refuse(NO_ACTIVE_VERSION.to_owned());
        };
        players.push(SeasonPlayer { name, start });
    }
    let definition = SeasonDefinition {
        game: contest.game.id().to_owned(),
        players,
        games_per_table: contest.settings.games_per_friendly,
        seed: friendly_game_seed(contest.seed, challenge.id, 0),
        timed: true,
    };
    let schedule = definition.schedule()?;
    let season = friendly_season_name(challenge.id);
    let encoded = encode_definition(&definition)?;
    if crate::store_sql::create(db, &season, &encoded, &schedule)
        .await?
        .is_some()
    {
        return refuse(format!("the store holds a season named `{season}` already"));
    }
    db.execute(
        "UPDATE contest_challenges SET state = 'accepted', season = $2, answered_at = $3 \
         WHERE id = $1",
        &[challenge.id.0.into(), season.as_str().into(), now.0.into()],
    )
    .await?;
    tracing::info!(
        challenge = challenge.id.0,
        season = season.as_str(),
        "a friendly encounter is scheduled"
    );
    Ok(season)
}

fn model_refusal(error: ChallengeError) -> SeasonError {
    SeasonError::Refused(match error {
        ChallengeError::RateLimited { .. } => RATE_LIMITED.to_owned(),
        other => other.to_string(),
    })
}

impl<D: Database> ContestStore<D> {
    /// `from` challenges `to` (or every other enabled team with an active
    /// version); see [`FriendlyGames::challenge`].
    ///
    /// # Errors
    ///
    /// [`SeasonError::Refused`] — nothing stored — for a team of another
    /// contest or none, the team itself, the hour's challenges used,
    /// friendly games switched off, a team without an active version. Or
    /// the store fails.
    pub async fn make_challenges(
        &self,
        from: TeamId,
        to: Option<TeamId>,
        now: Timestamp,
    ) -> Result<Vec<ChallengeEntry>, SeasonError> {
        let contest = self.record().clone();
        self.database()
            .transaction(move |db| {
                Box::pin(async move {
                    // The challenger's row lock orders its challenges (the rate).
                    let locked = db
                        .execute(
                            "UPDATE contest_teams SET name = name WHERE id = $1 AND contest = $2",
                            &[from.0.into(), contest.id.0.into()],
                        )
                        .await?;
                    if locked == 0 {
                        return refuse("the contest has no such team".to_owned());
                    }
                    if active_player(db, from).await?.is_none() {
                        return refuse(NO_ACTIVE_VERSION.to_owned());
                    }
                    let targets: Vec<(TeamId, bool)> = match to {
                        Some(to) if to == from => {
                            return Err(model_refusal(ChallengeError::Itself));
                        }
                        Some(to) => {
                            let row = db
                                .query_opt(
                                    "SELECT auto_accept_friendly FROM contest_teams \
                                     WHERE id = $1 AND contest = $2 AND enabled = 1",
                                    &[to.0.into(), contest.id.0.into()],
                                )
                                .await?;
                            let Some(row) = row else {
                                return refuse("the contest has no such team".to_owned());
                            };
                            if active_player(db, to).await?.is_none() {
                                return refuse(NO_ACTIVE_VERSION.to_owned());
                            }
                            vec![(to, row.get(0)?)]
                        }
                        None => db
                            .query(
                                "SELECT t.id, t.auto_accept_friendly FROM contest_teams t \
                                 WHERE t.contest = $1 AND t.enabled = 1 AND t.id <> $2 \
                                 AND EXISTS (SELECT 1 FROM contest_versions v \
                                             WHERE v.team = t.id AND v.active = 1) \
                                 ORDER BY t.id",
                                &[contest.id.0.into(), from.0.into()],
                            )
                            .await?
                            .iter()
                            .map(|row| Ok((TeamId(row.get(0)?), row.get(1)?)))
                            .collect::<Result<_, SeasonError>>()?,
                    };
                    if targets.is_empty() {
                        return refuse(NO_ACTIVE_VERSION.to_owned());
                    }
                    let started = started_within_hour(db, from, now).await?;
                    let new = u32::try_from(targets.len()).unwrap_or(u32::MAX);
                    check_rate(&started, now, new, &contest.settings).map_err(model_refusal)?;
                    let mut made = Vec::with_capacity(targets.len());
                    for (to, auto_accept) in targets {
                        let row = db
                            .query_opt(
                                "INSERT INTO contest_challenges \
                                 (contest, challenger, challenged, state, created_at) \
                                 VALUES ($1, $2, $3, 'open', $4) RETURNING id",
                                &[
                                    contest.id.0.into(),
                                    from.0.into(),
                                    to.0.into(),
                                    now.0.into(),
                                ],
                            )
                            .await?
                            .ok_or_else(|| corrupt("challenge", "no id came back".to_owned()))?;
                        let challenge =
                            Challenge::new(ChallengeId(row.get(0)?), from, to, auto_accept, now)
                                .map_err(model_refusal)?;
                        let by = team_name(db, from).await?;
                        let season = if challenge.state == ChallengeState::Accepted {
                            let season = schedule(db, &contest, &challenge, now).await?;
                            tell_accepted(db, &challenge, true).await?;
                            Some(season)
                        } else {
                            None
                        };
                        let received = if season.is_some() {
                            format!("{by} challenged you to a friendly encounter; your team accepts by itself, so its games are scheduled.")
                        } else {
                            format!("{by} challenges you to a friendly encounter: accept or decline it on the friendly page.")
                        };
                        notify(
                            db,
                            to,
                            NoticeKind::ChallengeReceived,
                            &format!("challenge-{}", challenge.id.0),
                            &received,
                        )
                        .await?;
                        made.push(entry_of(db, challenge, season).await?);
                    }
                    Ok(made)
                })
            })
            .await
    }

    /// `team` answers challenge `challenge`; see [`FriendlyGames::answer`].
    ///
    /// # Errors
    ///
    /// [`SeasonError::Refused`] — nothing changed — for a challenge that
    /// is not the team's to answer so, or an accept without both active
    /// versions. Or the store fails.
    pub async fn answer_challenge(
        &self,
        team: TeamId,
        challenge: ChallengeId,
        answer: ChallengeAnswer,
        now: Timestamp,
    ) -> Result<ChallengeEntry, SeasonError> {
        let contest = self.record().clone();
        self.database()
            .transaction(move |db| {
                Box::pin(async move {
                    let row = db
                        .query_opt(
                            &format!(
                                "SELECT {CHALLENGE_COLUMNS} FROM contest_challenges c \
                                 WHERE c.id = $1 AND c.contest = $2"
                            ),
                            &[challenge.0.into(), contest.id.0.into()],
                        )
                        .await?;
                    let Some(row) = row else {
                        return refuse("no such challenge".to_owned());
                    };
                    let (mut stored, _) = challenge_row(&row)?;
                    let allowed = match answer {
                        ChallengeAnswer::Accept | ChallengeAnswer::Decline => {
                            stored.challenged == team
                        }
                        ChallengeAnswer::Withdraw => stored.challenger == team,
                        ChallengeAnswer::Played => false,
                    };
                    if !allowed {
                        return refuse("no such challenge".to_owned());
                    }
                    let before = stored.state;
                    stored.answer(answer).map_err(model_refusal)?;
                    let season = if stored.state == ChallengeState::Accepted {
                        let season = schedule(db, &contest, &stored, now).await?;
                        tell_accepted(db, &stored, false).await?;
                        Some(season)
                    } else {
                        let changed = db
                            .execute(
                                "UPDATE contest_challenges SET state = $2, answered_at = $3 \
                                 WHERE id = $1 AND state = $4",
                                &[
                                    challenge.0.into(),
                                    state_text(stored.state).into(),
                                    now.0.into(),
                                    state_text(before).into(),
                                ],
                            )
                            .await?;
                        if changed == 0 {
                            return refuse("the challenge was answered meanwhile".to_owned());
                        }
                        None
                    };
                    entry_of(db, stored, season).await
                })
            })
            .await
    }

    /// Marks every accepted challenge whose games are over played; how
    /// many. Called by the contest's workers with its time
    /// ([`ContestStore::keep_time`]).
    ///
    /// # Errors
    ///
    /// The store fails.
    pub async fn settle_friendlies(&self) -> Result<u64, SeasonError> {
        let contest = self.record().id.0;
        self.database()
            .transaction(move |db| {
                Box::pin(async move {
                    let over = db
                        .query(
                            &format!(
                                "SELECT {CHALLENGE_COLUMNS} FROM contest_challenges c \
                                 WHERE c.contest = $1 AND c.state = 'accepted' \
                                 AND NOT EXISTS (SELECT 1 FROM games g WHERE g.season = c.season \
                                                 AND g.state IN ('waiting', 'running'))"
                            ),
                            &[contest.into()],
                        )
                        .await?;
                    let mut played = 0;
                    for row in &over {
                        let (challenge, _) = challenge_row(row)?;
                        // One caller marks it; only that one tells the teams.
                        let changed = db
                            .execute(
                                "UPDATE contest_challenges SET state = 'played' \
                                 WHERE id = $1 AND state = 'accepted'",
                                &[challenge.id.0.into()],
                            )
                            .await?;
                        if changed == 0 {
                            continue;
                        }
                        played += 1;
                        for (team, other) in [
                            (challenge.challenger, challenge.challenged),
                            (challenge.challenged, challenge.challenger),
                        ] {
                            let name = team_name(db, other).await?;
                            notify(
                                db,
                                team,
                                NoticeKind::FriendlyPlayed,
                                &format!("played-{}", challenge.id.0),
                                &format!("The friendly encounter with {name} is played; its games are on the friendly page."),
                            )
                            .await?;
                        }
                    }
                    Ok(played)
                })
            })
            .await
    }

    /// The seasons of accepted challenges with a game to play, oldest
    /// first.
    ///
    /// # Errors
    ///
    /// The store fails.
    pub async fn friendlies_to_play(&self) -> Result<Vec<String>, SeasonError> {
        let contest = self.record().id.0;
        self.database()
            .run(move |db| {
                Box::pin(async move {
                    db.query(
                        "SELECT c.season FROM contest_challenges c \
                         WHERE c.contest = $1 AND c.state = 'accepted' \
                         AND EXISTS (SELECT 1 FROM games g WHERE g.season = c.season \
                                     AND g.state IN ('waiting', 'running')) \
                         ORDER BY c.id",
                        &[contest.into()],
                    )
                    .await?
                    .iter()
                    .map(|row| row.get::<String>(0))
                    .collect()
                })
            })
            .await
    }

    async fn team_challenges(&self, team: TeamId) -> Result<Vec<ChallengeEntry>, SeasonError> {
        let contest = self.record().id.0;
        self.database()
            .run(move |db| {
                Box::pin(async move {
                    let rows = db
                        .query(
                            &format!(
                                "SELECT {CHALLENGE_COLUMNS} FROM contest_challenges c \
                                 WHERE c.contest = $1 AND (c.challenger = $2 OR c.challenged = $2) \
                                 ORDER BY c.id DESC LIMIT 100"
                            ),
                            &[contest.into(), team.0.into()],
                        )
                        .await?;
                    let mut entries = Vec::with_capacity(rows.len());
                    for row in &rows {
                        let (challenge, season) = challenge_row(row)?;
                        entries.push(entry_of(db, challenge, season).await?);
                    }
                    Ok(entries)
                })
            })
            .await
    }

    async fn challenge_rate(
        &self,
        team: TeamId,
        now: Timestamp,
    ) -> Result<ChallengeRate, SeasonError> {
        let limit = self.record().settings.friendly_challenges_per_hour;
        self.database()
            .run(move |db| {
                Box::pin(async move {
                    let used = started_within_hour(db, team, now).await?.len();
                    Ok(ChallengeRate {
                        used: u32::try_from(used).unwrap_or(u32::MAX),
                        limit,
                    })
                })
            })
            .await
    }

    async fn season_of_challenge(
        &self,
        team: TeamId,
        challenge: ChallengeId,
    ) -> Result<Option<String>, SeasonError> {
        let contest = self.record().id.0;
        self.database()
            .run(move |db| {
                Box::pin(async move {
                    let row = db
                        .query_opt(
                            "SELECT season FROM contest_challenges WHERE id = $1 AND contest = $2 \
                             AND (challenger = $3 OR challenged = $3)",
                            &[challenge.0.into(), contest.into(), team.0.into()],
                        )
                        .await?;
                    Ok(match row {
                        Some(row) => row.get::<Option<String>>(0)?,
                        None => None,
                    })
                })
            })
            .await
    }

    fn friendly_error(&self, error: SeasonError) -> StoreError {
        match error {
            SeasonError::Refused(why) if why.starts_with("no such challenge") => {
                StoreError::NotFound("challenge")
            }
            SeasonError::Refused(why) if why.starts_with("the contest has no such team") => {
                StoreError::NotFound("team")
            }
            SeasonError::Refused(why) => StoreError::Refused(
                [
                    RATE_LIMITED,
                    NO_ACTIVE_VERSION,
                    "a team cannot challenge itself",
                    "friendly games are switched off in this contest",
                ]
                .into_iter()
                .find(|known| why.starts_with(known))
                .unwrap_or("the challenge cannot be answered so now"),
            ),
            other => self.store_error(other),
        }
    }
}

/// When `team`'s challenges of the hour before `now` were made.
async fn started_within_hour(
    db: &mut Sql<'_>,
    team: TeamId,
    now: Timestamp,
) -> Result<Vec<Timestamp>, SeasonError> {
    db.query(
        "SELECT created_at FROM contest_challenges WHERE challenger = $1 AND created_at > $2",
        &[
            team.0.into(),
            (now.0 - spielleiter_contest::friendly::RATE_WINDOW_SECONDS).into(),
        ],
    )
    .await?
    .iter()
    .map(|row| Ok(Timestamp(row.get(0)?)))
    .collect()
}

impl<D: Database + 'static> FriendlyGames for ContestStore<D> {
    fn challenges(&self, team: TeamId) -> StoreFuture<'_, Vec<ChallengeEntry>> {
        Box::pin(async move {
            self.team_challenges(team)
                .await
                .map_err(|e| self.friendly_error(e))
        })
    }

    fn challenge(
        &self,
        from: TeamId,
        to: Option<TeamId>,
        now: Timestamp,
    ) -> StoreFuture<'_, Vec<ChallengeEntry>> {
        Box::pin(async move {
            self.make_challenges(from, to, now)
                .await
                .map_err(|e| self.friendly_error(e))
        })
    }

    fn answer(
        &self,
        team: TeamId,
        challenge: ChallengeId,
        answer: ChallengeAnswer,
        now: Timestamp,
    ) -> StoreFuture<'_, ChallengeEntry> {
        Box::pin(async move {
            self.answer_challenge(team, challenge, answer, now)
                .await
                .map_err(|e| self.friendly_error(e))
        })
    }

    fn rate(&self, team: TeamId, now: Timestamp) -> StoreFuture<'_, ChallengeRate> {
        Box::pin(async move {
            self.challenge_rate(team, now)
                .await
                .map_err(|e| self.friendly_error(e))
        })
    }

    fn friendly_season(&self, team: TeamId, challenge: ChallengeId) -> StoreFuture<'_, String> {
        Box::pin(async move {
            match self.season_of_challenge(team, challenge).await {
                Ok(Some(season)) => Ok(season),
                Ok(None) => Err(StoreError::NotFound("challenge")),
                Err(error) => Err(self.friendly_error(error)),
            }
        })
    }
}
