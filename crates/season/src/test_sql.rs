//! A version's test (issue 36) in the season store: the contest's
//! `test_games` games (2 by default, the first move alternating) of the
//! version against the built-in `random` bot, one season per test
//! (`test-v{version}-{run}`, a version tested again gets the next run),
//! played by `worker --contest` as an encounter's are, and judged once its
//! games are over: passed when the version ended every game regularly,
//! failed when it crashed, timed out, broke a rule or left in any, or a
//! game was given up as failed (the model's
//! [`test_verdict`](spielleiter_contest::test_verdict)). Tests never count:
//! their seasons belong to no matchday.

use spielleiter_archive::Cause;
use spielleiter_contest::{
    NoticeKind, TeamId, VersionEvent, VersionId, VersionNumber, VersionState, test_game_seed,
    test_verdict,
};

use crate::{
    ContestStore, SeasonDefinition, SeasonPlayer,
    columns::encode_definition,
    error::SeasonError,
    matchday_sql::{STAND_IN_PLAYER, corrupt, parse_state, refuse, state_text},
    notice_sql::notify,
    sql::{Database, Sql},
    store::GameState,
};

/// The season of run `run` (from 1) of version `version`'s test.
pub fn test_season_name(version: VersionId, run: u32) -> String {
    format!("test-v{}-{run}", version.0)
}

/// The version's test run a season's name holds, if it is a test's.
fn test_run_of(name: &str, version: VersionId) -> Option<u32> {
    name.strip_prefix(&format!("test-v{}-", version.0))?
        .parse()
        .ok()
}

/// A test started: its season and the games it holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StartedTest {
    /// The version's store id.
    pub version: VersionId,
    /// The test's season, for the workers.
    pub season: String,
    /// Its games.
    pub games: u32,
}

/// A test judged: the version and the state its test left it in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JudgedTest {
    /// The team.
    pub team: TeamId,
    /// The version.
    pub number: VersionNumber,
    /// [`VersionState::Tested`] or [`VersionState::TestFailed`].
    pub state: VersionState,
    /// The test's season.
    pub season: String,
}

/// What a game's record says of its first player (the version): only the
/// causes are decoded.
#[derive(serde::Deserialize)]
struct RecordCauses {
    causes: Vec<Cause>,
}

/// The newest test season of `version`, if it was ever tested.
async fn newest_test(
    db: &mut Sql<'_>,
    version: VersionId,
) -> Result<Option<(String, u32)>, SeasonError> {
    let pattern = format!("test-v{}-%", version.0);
    let rows = db
        .query(
            "SELECT name FROM seasons WHERE name LIKE $1",
            &[pattern.as_str().into()],
        )
        .await?;
    let mut newest: Option<(String, u32)> = None;
    for row in &rows {
        let name: String = row.get(0)?;
        if let Some(run) = test_run_of(&name, version)
            && newest.as_ref().is_none_or(|(_, best)| run > *best)
        {
            newest = Some((name, run));
        }
    }
    Ok(newest)
}

impl<D: Database> ContestStore<D> {
    /// Starts the test of `team`'s version `number`: its season of the
    /// contest's test games against the built-in `random` bot (the version
    /// is the season's first player, moving first in the odd-numbered
    /// games), and the version `testing` — one transaction.
    ///
    /// # Errors
    ///
    /// [`SeasonError::Refused`] — nothing changed — for no such version,
    /// the active version, or one whose state the model does not test
    /// (not built, or being tested). Or the store fails.
    pub async fn start_test(
        &self,
        team: TeamId,
        number: VersionNumber,
        timed: bool,
    ) -> Result<StartedTest, SeasonError> {
        let contest = self.record().clone();
        self.database()
            .transaction(move |db| {
                Box::pin(async move {
                    // The team's row lock orders a version's tests.
                    let locked = db
                        .execute(
                            "UPDATE contest_teams SET name = name WHERE id = $1 AND contest = $2",
                            &[team.0.into(), contest.id.0.into()],
                        )
                        .await?;
                    if locked == 0 {
                        return refuse(format!("the contest has no team {}", team.0));
                    }
                    let Some(row) = db
                        .query_opt(
                            "SELECT id, state, active, player FROM contest_versions \
                             WHERE team = $1 AND number = $2",
                            &[team.0.into(), number.0.into()],
                        )
                        .await?
                    else {
                        return refuse(format!("the team has no version {}", number.0));
                    };
                    let version = VersionId(row.get(0)?);
                    let state = parse_state(&row.get::<String>(1)?)?;
                    let active: i64 = row.get(2)?;
                    let player: String = row.get(3)?;
                    if active != 0 {
                        return refuse(format!(
                            "version {} is the team's active version; it was tested before it was activated",
                            number.0
                        ));
                    }
                    let testing = state.after(VersionEvent::TestStarted).map_err(|_| {
                        SeasonError::Refused(format!(
                            "version {} is {} and cannot be tested now",
                            number.0,
                            state_text(state).unwrap_or("active")
                        ))
                    })?;
                    let run = newest_test(db, version).await?.map_or(1, |(_, run)| run + 1);
                    let definition = SeasonDefinition {
                        game: contest.game.id().to_owned(),
                        players: vec![
                            SeasonPlayer {
                                name: format!("version {}", number.0),
                                start: player,
                            },
                            SeasonPlayer {
                                name: "random".to_owned(),
                                start: STAND_IN_PLAYER.to_owned(),
                            },
                        ],
                        games_per_table: contest.settings.test_games,
                        seed: test_game_seed(contest.seed, version, 0),
                        timed,
                    };
                    let schedule = definition.schedule()?;
                    let season = test_season_name(version, run);
                    let encoded = encode_definition(&definition)?;
                    if crate::store_sql::create(db, &season, &encoded, &schedule)
                        .await?
                        .is_some()
                    {
                        return refuse(format!("the store holds a season named `{season}` already"));
                    }
                    db.execute(
                        "UPDATE contest_versions SET state = $2 WHERE id = $1",
                        &[version.0.into(), state_text(testing)?.into()],
                    )
                    .await?;
                    tracing::info!(team = team.0, version = number.0, season = season.as_str(), "a version's test is scheduled");
                    Ok(StartedTest {
                        version,
                        season,
                        games: u32::try_from(schedule.len()).unwrap_or(u32::MAX),
                    })
                })
            })
            .await
    }

    /// The season of the newest test of `team`'s version `number`, `None`
    /// before its first.
    ///
    /// # Errors
    ///
    /// [`SeasonError::Refused`] for no such version of the team; or the
    /// store fails.
    pub async fn newest_test_season(
        &self,
        team: TeamId,
        number: VersionNumber,
    ) -> Result<Option<String>, SeasonError> {
        let contest = self.record().id.0;
        self.database()
            .run(move |db| {
                Box::pin(async move {
                    let Some(row) = db
                        .query_opt(
                            "SELECT v.id FROM contest_versions v \
                             JOIN contest_teams t ON t.id = v.team \
                             WHERE t.contest = $1 AND v.team = $2 AND v.number = $3",
                            &[contest.into(), team.0.into(), number.0.into()],
                        )
                        .await?
                    else {
                        return refuse(format!("the team has no version {}", number.0));
                    };
                    let version = VersionId(row.get(0)?);
                    Ok(newest_test(db, version).await?.map(|(season, _)| season))
                })
            })
            .await
    }

    /// The seasons of the tests being played that have a game to play,
    /// oldest first: what `worker --contest` plays before the matchdays'
    /// (a team waits at its page for its test).
    ///
    /// # Errors
    ///
    /// The store fails.
    pub async fn tests_to_play(&self) -> Result<Vec<String>, SeasonError> {
        let contest = self.record().id.0;
        self.database()
            .run(move |db| {
                Box::pin(async move {
                    let testing = testing_versions(db, contest).await?;
                    let mut seasons = Vec::new();
                    for (_, _, version) in testing {
                        let Some((season, _)) = newest_test(db, version).await? else {
                            continue;
                        };
                        let open = db
                            .query_opt(
                                "SELECT 1 FROM games WHERE season = $1 \
                                 AND state IN ('waiting', 'running') LIMIT 1",
                                &[season.as_str().into()],
                            )
                            .await?;
                        if open.is_some() {
                            seasons.push(season);
                        }
                    }
                    Ok(seasons)
                })
            })
            .await
    }

    /// Judges every test whose games are over: the version `tested` or
    /// `test failed` (see the module's documentation). Safe to call from
    /// many workers at once: a version is judged once (its state moves
    /// from `testing` in one statement that only one caller's changes).
    ///
    /// # Errors
    ///
    /// The store fails, or holds a record it cannot read.
    pub async fn judge_tests(&self) -> Result<Vec<JudgedTest>, SeasonError> {
        let contest = self.record().id.0;
        self.database()
            .transaction(move |db| {
                Box::pin(async move {
                    let mut judged = Vec::new();
                    for (team, number, version) in testing_versions(db, contest).await? {
                        let Some((season, _)) = newest_test(db, version).await? else {
                            continue;
                        };
                        let games = db
                            .query(
                                "SELECT state, record FROM games WHERE season = $1 ORDER BY number",
                                &[season.as_str().into()],
                            )
                            .await?;
                        let mut irregular = Vec::with_capacity(games.len());
                        let mut over = true;
                        for row in &games {
                            match GameState::parse(&row.get::<String>(0)?)? {
                                GameState::Waiting | GameState::Running => over = false,
                                GameState::Failed => irregular.push(true),
                                GameState::Done => {
                                    let record: String = row.get::<Option<String>>(1)?.ok_or_else(|| {
                                        corrupt("test game", format!("a game of {season} is done without its record"))
                                    })?;
                                    let causes: RecordCauses = serde_json::from_str(&record)
                                        .map_err(|e| corrupt("test game", e.to_string()))?;
                                    irregular.push(causes.causes.first() != Some(&Cause::Regular));
                                }
                            }
                        }
                        if !over || games.is_empty() {
                            continue;
                        }
                        let state = VersionState::Testing
                            .after(test_verdict(&irregular))
                            .map_err(|e| corrupt("version state", e.to_string()))?;
                        let changed = db
                            .execute(
                                "UPDATE contest_versions SET state = $2 WHERE id = $1 AND state = 'testing'",
                                &[version.0.into(), state_text(state)?.into()],
                            )
                            .await?;
                        if changed == 1 {
                            let text = if state == VersionState::Tested {
                                format!("Version {} passed its test: it may be activated.", number.0)
                            } else {
                                format!(
                                    "Version {} failed its test; its test games' page shows how it ended each.",
                                    number.0
                                )
                            };
                            notify(db, team, NoticeKind::TestFinished, &season, &text).await?;
                            tracing::info!(team = team.0, version = number.0, season = season.as_str(), passed = state == VersionState::Tested, "a version's test is judged");
                            judged.push(JudgedTest {
                                team,
                                number,
                                state,
                                season,
                            });
                        }
                    }
                    Ok(judged)
                })
            })
            .await
    }
}

/// The contest's versions being tested: team, number, id.
async fn testing_versions(
    db: &mut Sql<'_>,
    contest: i64,
) -> Result<Vec<(TeamId, VersionNumber, VersionId)>, SeasonError> {
    db.query(
        "SELECT v.team, v.number, v.id FROM contest_versions v \
         JOIN contest_teams t ON t.id = v.team \
         WHERE t.contest = $1 AND v.state = 'testing' ORDER BY v.id",
        &[contest.into()],
    )
    .await?
    .iter()
    .map(|row| {
        let number: i64 = row.get(1)?;
        Ok((
            TeamId(row.get(0)?),
            VersionNumber(
                u32::try_from(number).map_err(|_| corrupt("version number", number.to_string()))?,
            ),
            VersionId(row.get(2)?),
        ))
    })
    .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_test_seasons_run_is_read_back_for_its_own_version_only() {
        let name = test_season_name(VersionId(12), 3);
        assert_eq!(name, "test-v12-3");
        assert_eq!(test_run_of(&name, VersionId(12)), Some(3));
        assert_eq!(test_run_of(&name, VersionId(1)), None);
        assert_eq!(test_run_of("test-v123-1", VersionId(12)), None);
        assert_eq!(test_run_of("championship-1-g1-e1", VersionId(12)), None);
    }
}
