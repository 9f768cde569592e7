//! The final's knockout in the season store (issue 37; schema version 5):
//! its bracket seeded from the places of the phase before, its rounds as
//! matchdays of the phase `final` (numbered as
//! [`KnockoutRound::number`]), and the extra games of a tied encounter —
//! as methods of [`ContestStore`], every statement written once for both
//! databases.
//!
//! # A tied encounter's extra games
//!
//! A round is frozen and scheduled as a matchday is (`matchday_sql`): one
//! season per encounter with the contest's games per encounter. The model
//! ([`Encounter::progress`]) says what a knockout encounter needs next
//! from its stored results; when it asks for more games
//! ([`Progress::Play`]), they are appended to the encounter's season, all
//! in one transaction under the encounter's row lock, so that a worker
//! sees none or all of them and two appenders never add the same games.
//! The games are numbered on (game index `i` is the season's game
//! `i + 1` of its one table), so the season's seats rotate on and the
//! first move keeps alternating; each game's seed derives from the
//! season's seed (the encounter's key) and the game's number alone, so a
//! round played again in a fresh store is the same games, extra ones
//! included.
//!
//! Whoever first finds every game of such a season settled appends: a
//! worker of the season (through [`SeasonStore::more_games`], before it
//! would end) or the organiser's `contest final play ROUND`, which waits
//! for the round ([`ContestStore::advance_round`]). Nobody has to run a
//! command per extension.
//!
//! The winners are not stored: they follow from the stored games, so the
//! bracket shown is always the one the results make.
//!
//! [`SeasonStore::more_games`]: crate::SeasonStore::more_games

use std::collections::BTreeMap;
use std::ops::Range;

use spielleiter_contest::{
    AtDeadline, Bracket, BracketSize, Contest, EncounterOutcome, KnockoutRound, Phase, Progress,
    Side, Team, TeamId, Timestamp, qualifiers,
};

use crate::{
    ContestStore,
    contest_sql::{TEAM_COLUMNS, read_contest, team_row},
    error::SeasonError,
    matchday_sql::{
        FrozenTeams, MATCHDAY_COLUMNS, MatchdayReport, MatchdayState, StoredEncounter,
        StoredMatchday, StoredVersion, VERSION_COLUMNS, corrupt, encounter_row, encounters_of,
        insert_encounters, matchday_of, matchday_row, parse_phase, phase_text, progress_of,
        publish_played, refuse, report_of, unpublish_published, version_row,
    },
    sql::{Database, Sql, Value},
};

/// The final as stored: its bracket with the winners its results make,
/// and each of its rounds.
#[derive(Clone, Debug)]
pub struct FinalReport {
    /// The phase whose places seeded it.
    pub seeded_from: Phase,
    /// When it was made.
    pub created_at: Timestamp,
    /// Seeds (best first) and every encounter decided so far.
    pub bracket: Bracket,
    /// Every round of the bracket in the order they are played.
    pub rounds: Vec<RoundReport>,
}

/// One round of the final.
#[derive(Clone, Debug)]
pub struct RoundReport {
    /// Which.
    pub round: KnockoutRound,
    /// Its matchday once it is played (frozen and scheduled); `None`
    /// before.
    pub report: Option<MatchdayReport>,
}

impl FinalReport {
    /// The round `round`'s report, if it is played.
    pub fn round(&self, round: KnockoutRound) -> Option<&MatchdayReport> {
        self.rounds
            .iter()
            .find(|r| r.round == round)
            .and_then(|r| r.report.as_ref())
    }
}

/// What `contest final play ROUND` found and did.
#[derive(Clone, Debug)]
pub struct RoundPlay {
    /// The round as it stands now.
    pub report: MatchdayReport,
    /// Whether it was frozen and scheduled now (false: it was before, and
    /// the call only looked).
    pub scheduled_now: bool,
}

/// What one look at a knockout encounter did.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Step {
    /// Games of these indices were appended to its season.
    Extended(Range<u32>),
    /// Games scheduled before wait for their results; `open` of them are
    /// still waiting or running (the others failed).
    Waiting { open: u32 },
    /// Decided.
    Decided,
}

/// Appends the games `indices` (from 0) to `season`: the season's games
/// numbered `i + 1` of its one table.
async fn append_games(
    db: &mut Sql<'_>,
    season: &str,
    indices: Range<u32>,
) -> Result<(), SeasonError> {
    let count = indices.len();
    if count == 0 {
        return Ok(());
    }
    let rows: Vec<String> = (0..count)
        .map(|i| format!("($1, ${}, 0, ${})", 2 * i + 2, 2 * i + 3))
        .collect();
    let mut values: Vec<Value<'_>> = vec![season.into()];
    for index in indices {
        values.extend([index + 1, index + 1].map(Value::from));
    }
    db.execute(
        &format!(
            "INSERT INTO games (season, number, table_index, table_game) VALUES {}",
            rows.join(", ")
        ),
        &values,
    )
    .await?;
    Ok(())
}

/// Looks at one knockout encounter whose row the caller has locked and
/// appends the games its results call for.
async fn step(
    db: &mut Sql<'_>,
    contest: &Contest,
    encounter: &StoredEncounter,
) -> Result<Step, SeasonError> {
    let (progress, _) = progress_of(db, contest, encounter).await?;
    match (progress, &encounter.season) {
        (Progress::Decided(_), _) => Ok(Step::Decided),
        (Progress::Play(indices), Some(season)) => {
            append_games(db, season, indices.clone()).await?;
            tracing::info!(
                season = season.as_str(),
                games = ?indices,
                "a tied knockout encounter goes on"
            );
            Ok(Step::Extended(indices))
        }
        (Progress::Play(_), None) => Err(corrupt(
            "knockout encounter",
            format!(
                "encounter {} of round {} has games to play but no season",
                encounter.encounter.key.slot, encounter.encounter.key.matchday
            ),
        )),
        (Progress::Waiting { .. }, season) => {
            let open: i64 = match season {
                Some(season) => db
                    .query_opt(
                        "SELECT COUNT(*) FROM games WHERE season = $1 \
                         AND state IN ('waiting', 'running')",
                        &[season.into()],
                    )
                    .await?
                    .map_or(Ok(0), |row| row.get(0))?,
                None => 0,
            };
            Ok(Step::Waiting {
                open: u32::try_from(open).unwrap_or(u32::MAX),
            })
        }
    }
}

/// Locks the encounter's row: appenders of one encounter take turns
/// (PostgreSQL; SQLite's writers take turns anyway).
async fn lock_encounter(db: &mut Sql<'_>, encounter: &StoredEncounter) -> Result<(), SeasonError> {
    db.execute(
        "UPDATE contest_encounters SET slot = slot WHERE id = $1",
        &[encounter.id.0.into()],
    )
    .await?;
    Ok(())
}

/// [`crate::SeasonStore::more_games`] in a transaction: whether a worker
/// that finds every game of `season` settled has games to play after all.
pub(crate) async fn more_games(db: &mut Sql<'_>, season: &str) -> Result<bool, SeasonError> {
    // The lock first, and only a final's encounter: any other season ends
    // when its games are played.
    let locked = db
        .execute(
            "UPDATE contest_encounters SET slot = slot WHERE season = $1 \
             AND matchday IN (SELECT id FROM contest_matchdays WHERE phase = 'final')",
            &[season.into()],
        )
        .await?;
    if locked == 0 {
        return Ok(false);
    }
    let Some(contest) = read_contest(db).await? else {
        return Ok(false);
    };
    let row = db
        .query_opt(
            "SELECT e.id, e.matchday, e.group_id, e.group_number, e.slot, e.home, \
             e.away, e.home_entry, e.home_version, e.away_entry, e.away_version, e.season, \
             m.number FROM contest_encounters e JOIN contest_matchdays m ON m.id = e.matchday \
             WHERE e.season = $1",
            &[season.into()],
        )
        .await?
        .ok_or_else(|| corrupt("knockout encounter", format!("season `{season}` vanished")))?;
    let round: u32 = row.get(12)?;
    let encounter = encounter_row(&row, Phase::Final, round)?;
    Ok(match step(db, &contest, &encounter).await? {
        Step::Extended(_) => true,
        Step::Waiting { open } => open > 0,
        Step::Decided => false,
    })
}

/// The stored bracket: its size, the phase that seeded it, when it was
/// made and its seeds best first; `None` before `contest final create`.
async fn bracket_of(
    db: &mut Sql<'_>,
    contest: i64,
) -> Result<Option<(Phase, Timestamp, Vec<TeamId>)>, SeasonError> {
    let Some(row) = db
        .query_opt(
            "SELECT size, seeded_from, created_at FROM contest_brackets WHERE contest = $1",
            &[contest.into()],
        )
        .await?
    else {
        return Ok(None);
    };
    let size: i64 = row.get(0)?;
    let from: String = row.get(1)?;
    let created_at = Timestamp(row.get(2)?);
    let seeds: Vec<TeamId> = db
        .query(
            "SELECT team FROM contest_bracket_seeds WHERE contest = $1 ORDER BY seed",
            &[contest.into()],
        )
        .await?
        .iter()
        .map(|row| row.get(0).map(TeamId))
        .collect::<Result<_, _>>()?;
    if seeds.len() as i64 != size {
        return Err(corrupt(
            "bracket",
            format!("a bracket of {size} with {} seeds", seeds.len()),
        ));
    }
    Ok(Some((parse_phase(&from)?, created_at, seeds)))
}

/// The final as stored, its winners from every round's results.
pub(crate) async fn final_of(
    db: &mut Sql<'_>,
    contest: &Contest,
) -> Result<FinalReport, SeasonError> {
    let Some((seeded_from, created_at, seeds)) = bracket_of(db, contest.id.0).await? else {
        return refuse(
            "the contest has no final yet; `contest final create --top K` makes it".to_owned(),
        );
    };
    let mut bracket = Bracket {
        seeds,
        decided: Vec::new(),
    };
    let mut rounds = Vec::new();
    for &round in bracket.rounds() {
        let matchday = db
            .query_opt(
                &format!(
                    "SELECT {MATCHDAY_COLUMNS} FROM contest_matchdays m \
                     WHERE m.contest = $1 AND m.phase = 'final' AND m.number = $2"
                ),
                &[contest.id.0.into(), round.number().into()],
            )
            .await?
            .map(|row| matchday_row(&row))
            .transpose()?;
        let report = match matchday {
            Some(matchday) => Some(report_of(db, contest, matchday).await?),
            None => None,
        };
        for (stored, progress) in report.iter().flat_map(|r| &r.encounters) {
            if let Progress::Decided(result) = progress {
                let pairing = stored.encounter.pairing;
                let winner = match result.outcome {
                    EncounterOutcome::Won(Side::Home) => pairing.home,
                    EncounterOutcome::Won(Side::Away) => pairing.away,
                    other => {
                        return Err(corrupt(
                            "knockout encounter",
                            format!("the {round} ended {other:?}"),
                        ));
                    }
                };
                bracket
                    .record(round, stored.encounter.key.slot, winner)
                    .map_err(|e| corrupt("bracket", e.to_string()))?;
            }
        }
        rounds.push(RoundReport { round, report });
    }
    Ok(FinalReport {
        seeded_from,
        created_at,
        bracket,
        rounds,
    })
}

/// The teams of the contest by id and their active versions.
async fn teams_at_deadline(
    db: &mut Sql<'_>,
    contest: i64,
) -> Result<(Vec<Team>, BTreeMap<TeamId, StoredVersion>), SeasonError> {
    let teams: Vec<Team> = db
        .query(
            &format!(
                "SELECT {TEAM_COLUMNS} FROM contest_teams t WHERE t.contest = $1 ORDER BY t.id"
            ),
            &[contest.into()],
        )
        .await?
        .iter()
        .map(team_row)
        .collect::<Result<_, _>>()?;
    let active = db
        .query(
            &format!(
                "SELECT {VERSION_COLUMNS} FROM contest_versions v \
                 JOIN contest_teams t ON t.id = v.team \
                 WHERE t.contest = $1 AND v.active = 1"
            ),
            &[contest.into()],
        )
        .await?
        .iter()
        .map(|row| version_row(row).map(|v| (v.team, v)))
        .collect::<Result<_, _>>()?;
    Ok((teams, active))
}

/// The round's matchday, refused before it is played.
async fn round_matchday(
    db: &mut Sql<'_>,
    contest: &Contest,
    round: KnockoutRound,
) -> Result<StoredMatchday, SeasonError> {
    let bracket = final_of(db, contest).await?;
    if !bracket.bracket.rounds().contains(&round) {
        return refuse(format!("this bracket has no {round}"));
    }
    match matchday_of(db, contest.id.0, Phase::Final, round.number()).await {
        Err(SeasonError::Refused(_)) => refuse(format!(
            "the {round} is not played yet (`contest final play {}`)",
            round_arg(round)
        )),
        other => other,
    }
}

/// The round as `contest final` names it.
pub fn round_arg(round: KnockoutRound) -> &'static str {
    match round {
        KnockoutRound::QuarterFinal => "quarter",
        KnockoutRound::SemiFinal => "semi",
        KnockoutRound::ThirdPlace => "third",
        KnockoutRound::Final => "final",
    }
}

impl<D: Database> ContestStore<D> {
    /// Makes the final's bracket of `size` from the places of the
    /// champions league when any of its matchdays was played, else of the
    /// championship: every group's winners first (by group), then every
    /// runner-up, … (the model's [`qualifiers`]), seeded 1–8, 4–5, 2–7, 3–6
    /// ([`Bracket`]).
    ///
    /// # Errors
    ///
    /// [`SeasonError::Refused`] — nothing changed — when the contest has a
    /// final already, a matchday of that phase is still being played, or
    /// fewer teams are ranked than the bracket has places. Or the store
    /// fails.
    pub async fn create_final(
        &self,
        size: BracketSize,
        now: Timestamp,
    ) -> Result<FinalReport, SeasonError> {
        let matchdays = self.matchdays().await?;
        let played = |phase: Phase| {
            matchdays
                .iter()
                .filter(|m| m.phase == phase && m.state != MatchdayState::Planned)
                .collect::<Vec<_>>()
        };
        let phase = if played(Phase::ChampionsLeague).is_empty() {
            Phase::Championship
        } else {
            Phase::ChampionsLeague
        };
        if let Some(open) = played(phase)
            .into_iter()
            .find(|m| m.state == MatchdayState::Scheduled)
        {
            // A scheduled matchday may be played by now: its report says.
            let report = self.matchday_report(phase, open.number).await?;
            if report.matchday.state == MatchdayState::Scheduled {
                let (done, all) = report.games;
                return refuse(format!(
                    "matchday {} of the {phase} is still being played ({done} of {all} games done); the final is seeded from its places",
                    open.number
                ));
            }
        }
        let tables = self.standings(phase).await?;
        let most = tables.iter().map(|t| t.rows.len()).max().unwrap_or(0);
        let ranked = qualifiers(&tables, u32::try_from(most).unwrap_or(u32::MAX));
        let bracket = Bracket::new(&ranked, size).map_err(|error| {
            SeasonError::Refused(format!("cannot seed the final from the {phase}: {error}"))
        })?;
        let contest = self.contest.clone();
        self.db
            .transaction(move |db| {
                Box::pin(async move {
                    let id = contest.id.0;
                    db.execute(
                        "UPDATE contests SET name = name WHERE id = $1",
                        &[id.into()],
                    )
                    .await?;
                    if bracket_of(db, id).await?.is_some() {
                        return refuse(
                            "the contest has a final already; `contest final show` shows it"
                                .to_owned(),
                        );
                    }
                    db.execute(
                        "INSERT INTO contest_brackets (contest, size, seeded_from, created_at) \
                         VALUES ($1, $2, $3, $4)",
                        &[
                            id.into(),
                            (size.teams() as i64).into(),
                            phase_text(phase).into(),
                            now.0.into(),
                        ],
                    )
                    .await?;
                    for (seed, team) in (1_i64..).zip(&bracket.seeds) {
                        db.execute(
                            "INSERT INTO contest_bracket_seeds (contest, seed, team) \
                             VALUES ($1, $2, $3)",
                            &[id.into(), seed.into(), team.0.into()],
                        )
                        .await?;
                    }
                    final_of(db, &contest).await
                })
            })
            .await
    }

    /// The final: its bracket with the winners its results make, and every
    /// round (a round whose encounters are all decided is marked played).
    ///
    /// # Errors
    ///
    /// [`SeasonError::Refused`] before `create_final`; or the store fails
    /// or holds a result that does not fit.
    pub async fn final_report(&self) -> Result<FinalReport, SeasonError> {
        let contest = self.contest.clone();
        self.db
            .transaction(move |db| Box::pin(async move { final_of(db, &contest).await }))
            .await
    }

    /// Freezes and schedules round `round` of the final now, as a matchday
    /// is (every team's active version its entry, the contest's stand-in
    /// without one, a disabled team forfeits; one season per encounter
    /// played, timed or not), its pairings from the bracket and the rounds
    /// before. A round frozen before is left as it is
    /// ([`RoundPlay::scheduled_now`] false).
    ///
    /// # Errors
    ///
    /// [`SeasonError::Refused`] — nothing changed — before
    /// `create_final`, for a round the bracket has not, a round whose
    /// teams wait for an earlier round (the model's
    /// [`spielleiter_contest::KnockoutError::NotReady`]), a season of an
    /// encounter's name in the store already. Or the store fails.
    pub async fn play_round(
        &self,
        round: KnockoutRound,
        timed: bool,
        now: Timestamp,
    ) -> Result<RoundPlay, SeasonError> {
        let contest = self.contest.clone();
        self.db
            .transaction(move |db| {
                Box::pin(async move {
                    let id = contest.id.0;
                    db.execute(
                        "UPDATE contests SET name = name WHERE id = $1",
                        &[id.into()],
                    )
                    .await?;
                    let report = final_of(db, &contest).await?;
                    if let Some(played) = report.round(round) {
                        return Ok(RoundPlay {
                            report: played.clone(),
                            scheduled_now: false,
                        });
                    }
                    let (teams, active) = teams_at_deadline(db, id).await?;
                    let by_id: BTreeMap<TeamId, &Team> = teams.iter().map(|t| (t.id, t)).collect();
                    let encounters = report
                        .bracket
                        .schedule_round(round, &contest.settings, |team| AtDeadline {
                            active: active.get(&team).map(|v| v.id),
                            enabled: by_id.get(&team).is_some_and(|t| t.enabled),
                        })
                        .map_err(|error| SeasonError::Refused(error.to_string()))?;
                    db.execute(
                        "INSERT INTO contest_matchdays (contest, phase, number, timed) \
                         VALUES ($1, 'final', $2, $3)",
                        &[id.into(), round.number().into(), timed.into()],
                    )
                    .await?;
                    let matchday = matchday_of(db, id, Phase::Final, round.number()).await?;
                    let frozen = FrozenTeams {
                        by_id: &by_id,
                        active: &active,
                    };
                    let encounters: Vec<(
                        Option<spielleiter_contest::GroupId>,
                        &spielleiter_contest::Encounter,
                    )> = encounters
                        .iter()
                        .map(|encounter| (None, encounter))
                        .collect();
                    insert_encounters(db, &contest, matchday.id, &encounters, &frozen, timed)
                        .await?;
                    db.execute(
                        "UPDATE contest_matchdays SET state = 'scheduled', frozen_at = $2 \
                         WHERE id = $1",
                        &[matchday.id.0.into(), now.0.into()],
                    )
                    .await?;
                    let matchday = matchday_of(db, id, Phase::Final, round.number()).await?;
                    Ok(RoundPlay {
                        report: report_of(db, &contest, matchday).await?,
                        scheduled_now: true,
                    })
                })
            })
            .await
    }

    /// Round `round` as it stands, after appending the extra games that its
    /// tied encounters call for (see the module's documentation); with
    /// every encounter's games appended now, by slot.
    ///
    /// # Errors
    ///
    /// [`SeasonError::Refused`] for a round not played yet; or the store
    /// fails or holds a result that does not fit.
    pub async fn advance_round(
        &self,
        round: KnockoutRound,
    ) -> Result<(MatchdayReport, Vec<(u32, Range<u32>)>), SeasonError> {
        let contest = self.contest.clone();
        self.db
            .transaction(move |db| {
                Box::pin(async move {
                    let matchday = round_matchday(db, &contest, round).await?;
                    let mut extended = Vec::new();
                    for encounter in encounters_of(db, &matchday).await? {
                        lock_encounter(db, &encounter).await?;
                        if let Step::Extended(games) = step(db, &contest, &encounter).await? {
                            extended.push((encounter.encounter.key.slot, games));
                        }
                    }
                    Ok((report_of(db, &contest, matchday).await?, extended))
                })
            })
            .await
    }

    /// Publishes round `round`: its line-up and results become
    /// everybody's.
    ///
    /// # Errors
    ///
    /// [`SeasonError::Refused`] — nothing changed — for a round not played
    /// to the end, or published already. Or the store fails.
    pub async fn publish_round(
        &self,
        round: KnockoutRound,
        now: Timestamp,
    ) -> Result<MatchdayReport, SeasonError> {
        let contest = self.contest.clone();
        self.db
            .transaction(move |db| {
                Box::pin(async move {
                    let matchday = round_matchday(db, &contest, round).await?;
                    let how_to_play = format!("`contest final play {}`", round_arg(round));
                    publish_played(
                        db,
                        &contest,
                        matchday,
                        &format!("the {round}"),
                        &how_to_play,
                        now,
                    )
                    .await
                })
            })
            .await
    }

    /// Takes round `round`'s publication back: its results are the
    /// organisers' and the two teams' again.
    ///
    /// # Errors
    ///
    /// [`SeasonError::Refused`] — nothing changed — for a round not
    /// published. Or the store fails.
    pub async fn unpublish_round(
        &self,
        round: KnockoutRound,
    ) -> Result<MatchdayReport, SeasonError> {
        let contest = self.contest.clone();
        self.db
            .transaction(move |db| {
                Box::pin(async move {
                    let matchday = round_matchday(db, &contest, round).await?;
                    unpublish_published(db, &contest, matchday, &format!("the {round}")).await
                })
            })
            .await
    }
}
