//! The contest's calendar and results as its public pages read them: the
//! season store's implementation of the contest's [`ContestResults`]
//! (issue 37), on SQLite and PostgreSQL with one SQL text. Nothing here
//! computes anew: a matchday is the command line's report
//! (`matchday_sql::report_with`) with its games' results read by the same
//! one query, the tables are `matchday_sql`'s counting and
//! [`Standings::compute`](spielleiter_contest::Standings::compute), the
//! final is `knockout_sql`'s.

use std::collections::BTreeMap;

use spielleiter_contest::{
    ByeEntry, ContestResults, Counted, EncounterAccess, EncounterGame, EncounterId,
    EncounterResults, GroupEntry, KnockoutResults, KnockoutRoundResults, MAX_PLAYING_GAMES,
    MatchdayEntry, MatchdayResults, MatchdayStage, Phase, PlayingGame, PlayingMatchday, Standings,
    StoreError, StoreFuture, Team, TeamId,
};

use crate::{
    ContestStore,
    contest_sql::{TEAM_COLUMNS, team_row},
    error::SeasonError,
    knockout_sql::final_of,
    matchday_sql::{
        MATCHDAY_COLUMNS, MatchdayGames, MatchdayReport, MatchdayState, StoredMatchday, corrupt,
        counted_of, matchday_of, matchday_row, phase_groups, report_with, results_of_matchday,
        tables_of,
    },
    sql::{Database, Sql},
    store::GameState,
};

fn stage(state: MatchdayState) -> MatchdayStage {
    match state {
        MatchdayState::Planned => MatchdayStage::Planned,
        MatchdayState::Scheduled => MatchdayStage::Scheduled,
        MatchdayState::Played => MatchdayStage::Played,
        MatchdayState::Published => MatchdayStage::Published,
    }
}

fn entry(matchday: &StoredMatchday) -> MatchdayEntry {
    MatchdayEntry {
        id: matchday.id,
        phase: matchday.phase,
        number: matchday.number,
        stage: stage(matchday.state),
        deadline: matchday.deadline,
        published_at: matchday.published_at,
    }
}

/// A matchday's report with each encounter's games from `games` (the
/// same read the report was made from).
fn results_of(report: MatchdayReport, games: &MatchdayGames) -> MatchdayResults {
    let encounters = report
        .encounters
        .into_iter()
        .map(|(stored, progress)| {
            let played = stored
                .season
                .as_ref()
                .and_then(|season| games.get(season))
                .map_or(&[][..], Vec::as_slice);
            EncounterResults {
                id: stored.id,
                encounter: stored.encounter,
                games: (1..)
                    .zip(played)
                    .map(|(number, &result)| EncounterGame { number, result })
                    .collect(),
                progress,
            }
        })
        .collect();
    MatchdayResults {
        matchday: entry(&report.matchday),
        encounters,
        byes: report
            .byes
            .iter()
            .map(|bye| ByeEntry {
                group: bye.group_number,
                team: bye.team,
            })
            .collect(),
    }
}

/// Matchday `matchday` with its encounters and games.
async fn matchday_results(
    db: &mut Sql<'_>,
    contest: &spielleiter_contest::Contest,
    matchday: StoredMatchday,
) -> Result<MatchdayResults, SeasonError> {
    let (games, failed) = results_of_matchday(db, matchday.id, true).await?;
    let report = report_with(db, contest, matchday, &games, failed).await?;
    Ok(results_of(report, &games))
}

/// Encounter `encounter` of the contest: its teams, its matchday (phase,
/// number, published) and its season.
async fn encounter_row(
    db: &mut Sql<'_>,
    contest: i64,
    encounter: EncounterId,
) -> Result<Option<(EncounterAccess, Option<String>)>, SeasonError> {
    let Some(row) = db
        .query_opt(
            &format!(
                "SELECT {MATCHDAY_COLUMNS}, e.home, e.away, e.season FROM contest_encounters e \
                 JOIN contest_matchdays m ON m.id = e.matchday \
                 WHERE m.contest = $1 AND e.id = $2"
            ),
            &[contest.into(), encounter.0.into()],
        )
        .await?
    else {
        return Ok(None);
    };
    // The matchday's columns first, as `matchday_row` reads them.
    let matchday = matchday_row(&row)?;
    let season: Option<String> = row.get(10)?;
    Ok(Some((
        EncounterAccess {
            teams: [TeamId(row.get(8)?), TeamId(row.get(9)?)],
            published: matchday.state == MatchdayState::Published,
            phase: matchday.phase,
            matchday: matchday.number,
        },
        season,
    )))
}

impl<D: Database + 'static> ContestResults for ContestStore<D> {
    fn groups(&self) -> StoreFuture<'_, Vec<GroupEntry>> {
        let contest = self.record().id.0;
        self.call(move |db| {
            Box::pin(async move {
                let teams: Vec<Team> = db
                    .query(
                        &format!(
                            "SELECT {TEAM_COLUMNS} FROM contest_teams t WHERE t.contest = $1 \
                             ORDER BY t.id"
                        ),
                        &[contest.into()],
                    )
                    .await?
                    .iter()
                    .map(team_row)
                    .collect::<Result<_, _>>()?;
                let names: BTreeMap<i64, String> = db
                    .query(
                        "SELECT id, name FROM contest_groups WHERE contest = $1",
                        &[contest.into()],
                    )
                    .await?
                    .iter()
                    .map(|row| Ok((row.get(0)?, row.get(1)?)))
                    .collect::<Result<_, SeasonError>>()?;
                let groups = phase_groups(db, contest, &teams).await?;
                Ok(groups
                    .into_iter()
                    .map(|group| GroupEntry {
                        number: group.number,
                        id: group.id,
                        name: group
                            .id
                            .and_then(|id| names.get(&id.0).cloned())
                            .unwrap_or_default(),
                        teams: group.teams,
                    })
                    .collect())
            })
        })
    }

    fn matchdays(&self) -> StoreFuture<'_, Vec<MatchdayEntry>> {
        Box::pin(async move {
            let matchdays = ContestStore::matchdays(self)
                .await
                .map_err(|e| self.store_error(e))?;
            Ok(matchdays.iter().map(entry).collect())
        })
    }

    fn matchday(&self, phase: Phase, number: u32) -> StoreFuture<'_, MatchdayResults> {
        let contest = self.record().clone();
        self.call(move |db| {
            Box::pin(async move {
                let matchday = match matchday_of(db, contest.id.0, phase, number).await {
                    Ok(matchday) => matchday,
                    Err(SeasonError::Refused(_)) => {
                        return Err(SeasonError::Contest(StoreError::NotFound("matchday")));
                    }
                    Err(other) => return Err(other),
                };
                matchday_results(db, &contest, matchday).await
            })
        })
    }

    fn standings(&self, phase: Phase, counted: Counted) -> StoreFuture<'_, Vec<Standings>> {
        let contest = self.record().clone();
        if !phase.has_standings() {
            return Box::pin(std::future::ready(Ok(Vec::new())));
        }
        self.call(move |db| {
            Box::pin(async move {
                let counted =
                    counted_of(db, &contest, phase, counted == Counted::Published).await?;
                let mut tables = Vec::new();
                for &through in &counted.numbers {
                    tables.extend(tables_of(&contest, phase, &counted, through)?);
                }
                Ok(tables)
            })
        })
    }

    fn knockout(&self) -> StoreFuture<'_, Option<KnockoutResults>> {
        let contest = self.record().clone();
        self.call(move |db| {
            Box::pin(async move {
                let made = db
                    .query_opt(
                        "SELECT 1 FROM contest_brackets WHERE contest = $1",
                        &[contest.id.0.into()],
                    )
                    .await?;
                if made.is_none() {
                    return Ok(None);
                }
                let report = final_of(db, &contest).await?;
                let mut rounds = Vec::new();
                for round in report.rounds {
                    let results = match round.report {
                        Some(report) => {
                            let (games, _) =
                                results_of_matchday(db, report.matchday.id, true).await?;
                            Some(results_of(report, &games))
                        }
                        None => None,
                    };
                    rounds.push(KnockoutRoundResults {
                        round: round.round,
                        results,
                    });
                }
                Ok(Some(KnockoutResults {
                    seeded_from: report.seeded_from,
                    bracket: report.bracket,
                    rounds,
                }))
            })
        })
    }

    fn encounter(&self, encounter: EncounterId) -> StoreFuture<'_, EncounterAccess> {
        let contest = self.record().id.0;
        self.call(move |db| {
            Box::pin(async move {
                match encounter_row(db, contest, encounter).await? {
                    Some((access, _)) => Ok(access),
                    None => Err(SeasonError::Contest(StoreError::NotFound("encounter"))),
                }
            })
        })
    }

    fn encounter_season(&self, encounter: EncounterId) -> StoreFuture<'_, Option<String>> {
        let contest = self.record().id.0;
        self.call(move |db| {
            Box::pin(async move {
                match encounter_row(db, contest, encounter).await? {
                    Some((_, season)) => Ok(season),
                    None => Err(SeasonError::Contest(StoreError::NotFound("encounter"))),
                }
            })
        })
    }

    fn playing(&self) -> StoreFuture<'_, Vec<PlayingMatchday>> {
        let contest = self.record().id.0;
        self.call(move |db| Box::pin(async move { playing(db, contest).await }))
    }
}

/// The matchdays being played with their games' progress and running
/// games: three queries however many matchdays and games.
async fn playing(db: &mut Sql<'_>, contest: i64) -> Result<Vec<PlayingMatchday>, SeasonError> {
    let scheduled = MatchdayState::Scheduled.as_str();
    let mut matchdays: Vec<PlayingMatchday> = db
        .query(
            &format!(
                "SELECT {MATCHDAY_COLUMNS} FROM contest_matchdays m \
                 WHERE m.contest = $1 AND m.state = $2 ORDER BY m.id"
            ),
            &[contest.into(), scheduled.into()],
        )
        .await?
        .iter()
        .map(|row| {
            Ok(PlayingMatchday {
                matchday: entry(&matchday_row(row)?),
                done: 0,
                running: 0,
                waiting: 0,
                failed: 0,
                games: Vec::new(),
            })
        })
        .collect::<Result<_, SeasonError>>()?;
    if matchdays.is_empty() {
        return Ok(matchdays);
    }
    let of_matchday = |matchdays: &mut Vec<PlayingMatchday>, id: i64| {
        matchdays
            .iter()
            .position(|m| m.matchday.id.0 == id)
            .ok_or_else(|| corrupt("matchday being played", id.to_string()))
    };
    let counts = db
        .query(
            "SELECT e.matchday, g.state, COUNT(*) FROM games g \
             JOIN contest_encounters e ON e.season = g.season \
             JOIN contest_matchdays m ON m.id = e.matchday \
             WHERE m.contest = $1 AND m.state = $2 GROUP BY e.matchday, g.state",
            &[contest.into(), scheduled.into()],
        )
        .await?;
    for row in &counts {
        let at = of_matchday(&mut matchdays, row.get(0)?)?;
        let count: i64 = row.get(2)?;
        let count = u32::try_from(count).unwrap_or(u32::MAX);
        let day = &mut matchdays[at];
        match GameState::parse(&row.get::<String>(1)?)? {
            GameState::Done => day.done = count,
            GameState::Running => day.running = count,
            GameState::Waiting => day.waiting = count,
            GameState::Failed => day.failed = count,
        }
    }
    let running = db
        .query(
            &format!(
                "SELECT e.matchday, e.id, e.home, e.away, g.number, g.worker, g.started_ms \
                 FROM games g JOIN contest_encounters e ON e.season = g.season \
                 JOIN contest_matchdays m ON m.id = e.matchday \
                 WHERE m.contest = $1 AND m.state = $2 AND g.state = $3 \
                 ORDER BY e.matchday, e.id, g.number LIMIT {MAX_PLAYING_GAMES}"
            ),
            &[
                contest.into(),
                scheduled.into(),
                GameState::Running.as_str().into(),
            ],
        )
        .await?;
    for row in &running {
        let at = of_matchday(&mut matchdays, row.get(0)?)?;
        let number: i64 = row.get(4)?;
        matchdays[at].games.push(PlayingGame {
            encounter: EncounterId(row.get(1)?),
            teams: [TeamId(row.get(2)?), TeamId(row.get(3)?)],
            number: u32::try_from(number)
                .map_err(|_| corrupt("game number", number.to_string()))?,
            worker: row.get::<Option<String>>(5)?.unwrap_or_default(),
            started_ms: row.get(6)?,
        });
    }
    Ok(matchdays)
}
