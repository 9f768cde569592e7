//! A contest's versions and matchdays in the season store (issues 36 and
//! 37; schema version 4): a team's versions and their activations, the
//! matchdays of a phase, each matchday's encounters with the entries frozen
//! at its deadline, and the teams sitting out — as methods of
//! [`ContestStore`], every statement written once for both databases (see
//! [`crate::sql`]).
//!
//! # Games
//!
//! A matchday played ([`ContestStore::play_matchday`]) is scheduled as
//! seasons of the existing tables, one per encounter that is played: its
//! two players are the teams' frozen entries (the version's player, or the
//! `builtin:random` stand-in), home first, so that home moves first in
//! game 1 and the first move alternates as a season's seats rotate; its
//! games per table are the contest's games per encounter. The workers play
//! them as any season's (`spielleiter worker --store URL --name SEASON`),
//! unchanged. A season's games take their seeds from the season's seed and
//! their number (the arena's derivation); the season's seed is the
//! encounter's [`EncounterKey::game_seed`] of game 0, from the contest's
//! seed and the encounter's key alone, so that a matchday scheduled again
//! in a fresh store is the same games.
//!
//! # Atomicity
//!
//! Every method is one transaction; a refusal ([`SeasonError::Refused`])
//! rolls it back. A team's active version is switched under the team's
//! row lock (PostgreSQL; SQLite's writers take turns), and the partial
//! unique index keeps at most one active version per team whatever
//! happens.

use std::collections::{BTreeMap, BTreeSet};

use spielleiter_contest::{
    AtDeadline, Encounter, EncounterId, EncounterKey, EncounterKind, EncounterResult, Entry,
    GameResult, GroupId, MatchdayId, MemberId, Pairing, Phase, PlayedEncounter, Progress,
    Publication, Side, Standings, Team, TeamId, Timestamp, VersionId, VersionNumber, VersionState,
    qualifiers, schedule_matchday, versions::check_comment,
};

use crate::{
    ContestStore, SeasonDefinition, SeasonPlayer,
    columns::encode_definition,
    contest_sql::{TEAM_COLUMNS, team_row},
    error::SeasonError,
    sql::{Database, Row, Sql, Value},
    store::GameState,
};

/// What plays for a team without an active version when the contest's
/// stand-in is the `random` bot.
pub const STAND_IN_PLAYER: &str = "builtin:random";

/// A team's version as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredVersion {
    /// The store's id.
    pub id: VersionId,
    /// Whose.
    pub team: TeamId,
    /// Its number in the team, from 1.
    pub number: VersionNumber,
    /// How it is started, as a season's player (`builtin:greedy`,
    /// `docker:IMAGE`, a command line).
    pub player: String,
    /// The team's or organiser's note.
    pub comment: String,
    /// How far its build and test went (never
    /// [`VersionState::Active`]: see [`StoredVersion::active`]).
    pub state: VersionState,
    /// Whether it is the team's active version.
    pub active: bool,
    /// When it was added.
    pub created_at: Timestamp,
}

/// One activation of a version, as recorded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActivationRecord {
    /// The team.
    pub team: TeamId,
    /// The version made active.
    pub version: VersionId,
    /// The version that was active before.
    pub replaced: Option<VersionId>,
    /// The account that did it; `None`: the administrator on the command
    /// line.
    pub by: Option<MemberId>,
    /// Who, as shown.
    pub by_name: String,
    /// When.
    pub at: Timestamp,
}

/// Where a matchday is on its way.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum MatchdayState {
    /// Made; nothing frozen yet.
    Planned,
    /// Its entries are frozen and its games scheduled.
    Scheduled,
    /// Every encounter is decided.
    Played,
    /// Its line-up and results are public.
    Published,
}

impl MatchdayState {
    /// The state as stored.
    pub fn as_str(self) -> &'static str {
        match self {
            MatchdayState::Planned => "planned",
            MatchdayState::Scheduled => "scheduled",
            MatchdayState::Played => "played",
            MatchdayState::Published => "published",
        }
    }

    fn parse(text: &str) -> Result<MatchdayState, SeasonError> {
        Ok(match text {
            "planned" => MatchdayState::Planned,
            "scheduled" => MatchdayState::Scheduled,
            "played" => MatchdayState::Played,
            "published" => MatchdayState::Published,
            other => return Err(corrupt("matchday state", format!("`{other}`"))),
        })
    }
}

/// A matchday as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredMatchday {
    /// The store's id.
    pub id: MatchdayId,
    /// Its phase.
    pub phase: Phase,
    /// Its number in the phase, from 1.
    pub number: u32,
    /// When the active versions are to be frozen, if set.
    pub deadline: Option<Timestamp>,
    /// Whether the server times the players in its games.
    pub timed: bool,
    /// Where it stands.
    pub state: MatchdayState,
    /// When its entries were frozen.
    pub frozen_at: Option<Timestamp>,
    /// When it was published.
    pub published_at: Option<Timestamp>,
}

/// An encounter as stored: the model's [`Encounter`] and where its games
/// are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredEncounter {
    /// The store's id.
    pub id: EncounterId,
    /// Its matchday.
    pub matchday: MatchdayId,
    /// Its group; `None` when the contest has no groups (every team in one).
    pub group: Option<GroupId>,
    /// Key, pairing and frozen entries.
    pub encounter: Encounter,
    /// The season whose games it is; `None` for a forfeit.
    pub season: Option<String>,
}

/// A team that sat a matchday out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bye {
    /// The group's number in the phase.
    pub group_number: u32,
    /// The team.
    pub team: TeamId,
}

/// A matchday with its encounters, each with what it needs next, and its
/// byes.
#[derive(Clone, Debug)]
pub struct MatchdayReport {
    /// The matchday (its state brought up to date: played once every
    /// encounter is decided).
    pub matchday: StoredMatchday,
    /// Its encounters in key order, each with its progress.
    pub encounters: Vec<(StoredEncounter, Progress)>,
    /// Its games: done and all (over the encounters that are played).
    pub games: (u32, u32),
    /// Its games given up as failed (their encounters wait for them:
    /// [`ContestStore::retry_failed_games`]).
    pub failed: u32,
    /// The teams that sat out.
    pub byes: Vec<Bye>,
}

/// Phase names as stored.
pub(crate) fn phase_text(phase: Phase) -> &'static str {
    match phase {
        Phase::Trial => "trial",
        Phase::Championship => "championship",
        Phase::ChampionsLeague => "champions_league",
        Phase::Final => "final",
    }
}

pub(crate) fn parse_phase(text: &str) -> Result<Phase, SeasonError> {
    Phase::ALL
        .into_iter()
        .find(|phase| phase_text(*phase) == text)
        .ok_or_else(|| corrupt("phase", format!("`{text}`")))
}

pub(crate) fn state_text(state: VersionState) -> Result<&'static str, SeasonError> {
    Ok(match state {
        VersionState::Uploaded => "uploaded",
        VersionState::Building => "building",
        VersionState::Built => "built",
        VersionState::BuildFailed => "build_failed",
        VersionState::Testing => "testing",
        VersionState::Tested => "tested",
        VersionState::TestFailed => "test_failed",
        VersionState::Active => {
            return Err(corrupt(
                "version state",
                "active is a flag, not a state".to_owned(),
            ));
        }
    })
}

pub(crate) fn parse_state(text: &str) -> Result<VersionState, SeasonError> {
    VersionState::ALL
        .into_iter()
        .filter(|state| *state != VersionState::Active)
        .find(|state| state_text(*state).is_ok_and(|t| t == text))
        .ok_or_else(|| corrupt("version state", format!("`{text}`")))
}

pub(crate) fn corrupt(what: &'static str, cause: String) -> SeasonError {
    SeasonError::Corrupt { what, cause }
}

pub(crate) fn refuse<T>(why: String) -> Result<T, SeasonError> {
    Err(SeasonError::Refused(why))
}

/// Whether the organiser may make a version in `state` its team's active
/// one: a version ready to play (built, or tested) — never one whose build
/// or test failed, nor one still being built or tested (issue 36). The
/// model's [`spielleiter_contest::activate`] asks for a passed test as
/// well: a team's own upload is tested before it plays; a player the
/// organiser names on the command line has nothing to build.
pub fn organiser_may_activate(state: VersionState) -> bool {
    matches!(state, VersionState::Built | VersionState::Tested)
}

pub(crate) const VERSION_COLUMNS: &str =
    "v.id, v.team, v.number, v.player, v.comment, v.state, v.active, v.created_at";

pub(crate) fn version_row(row: &Row) -> Result<StoredVersion, SeasonError> {
    let state: String = row.get(5)?;
    Ok(StoredVersion {
        id: VersionId(row.get(0)?),
        team: TeamId(row.get(1)?),
        number: VersionNumber(row.get(2)?),
        player: row.get(3)?,
        comment: row.get(4)?,
        state: parse_state(&state)?,
        active: row.get(6)?,
        created_at: Timestamp(row.get(7)?),
    })
}

pub(crate) const MATCHDAY_COLUMNS: &str =
    "m.id, m.phase, m.number, m.deadline, m.timed, m.state, m.frozen_at, m.published_at";

pub(crate) fn matchday_row(row: &Row) -> Result<StoredMatchday, SeasonError> {
    let phase: String = row.get(1)?;
    let state: String = row.get(5)?;
    Ok(StoredMatchday {
        id: MatchdayId(row.get(0)?),
        phase: parse_phase(&phase)?,
        number: row.get(2)?,
        deadline: row.get::<Option<i64>>(3)?.map(Timestamp),
        timed: row.get(4)?,
        state: MatchdayState::parse(&state)?,
        frozen_at: row.get::<Option<i64>>(6)?.map(Timestamp),
        published_at: row.get::<Option<i64>>(7)?.map(Timestamp),
    })
}

const ENCOUNTER_COLUMNS: &str = "e.id, e.matchday, e.group_id, e.group_number, e.slot, e.home, \
     e.away, e.home_entry, e.home_version, e.away_entry, e.away_version, e.season";

fn entry_of(kind: &str, version: Option<i64>) -> Result<Entry, SeasonError> {
    match (kind, version) {
        ("version", Some(id)) => Ok(Entry::Version(VersionId(id))),
        ("stand_in", None) => Ok(Entry::StandIn),
        ("forfeit", None) => Ok(Entry::Forfeit),
        (kind, version) => Err(corrupt(
            "encounter entry",
            format!("`{kind}` with version {version:?}"),
        )),
    }
}

fn entry_columns(entry: Entry) -> (&'static str, Option<i64>) {
    match entry {
        Entry::Version(id) => ("version", Some(id.0)),
        Entry::StandIn => ("stand_in", None),
        Entry::Forfeit => ("forfeit", None),
    }
}

pub(crate) fn encounter_row(
    row: &Row,
    phase: Phase,
    matchday: u32,
) -> Result<StoredEncounter, SeasonError> {
    let home_entry: String = row.get(7)?;
    let away_entry: String = row.get(9)?;
    Ok(StoredEncounter {
        id: EncounterId(row.get(0)?),
        matchday: MatchdayId(row.get(1)?),
        group: row.get::<Option<i64>>(2)?.map(GroupId),
        encounter: Encounter {
            key: EncounterKey {
                phase,
                matchday,
                group: row.get(3)?,
                slot: row.get(4)?,
            },
            pairing: Pairing {
                home: TeamId(row.get(5)?),
                away: TeamId(row.get(6)?),
            },
            entries: [
                entry_of(&home_entry, row.get(8)?)?,
                entry_of(&away_entry, row.get(10)?)?,
            ],
            // The final's encounters cannot end drawn.
            kind: if phase == Phase::Final {
                EncounterKind::Knockout
            } else {
                EncounterKind::RoundRobin
            },
        },
        season: row.get(11)?,
    })
}

/// The season name of an encounter's games: its key, readable and unique
/// in the store (`championship-3-g1-e2`).
pub fn encounter_season_name(key: &EncounterKey) -> String {
    format!(
        "{}-{}-g{}-e{}",
        phase_text(key.phase).replace('_', "-"),
        key.matchday,
        key.group,
        key.slot
    )
}

/// The contest's team `team`, refused when it has none of that id.
pub(crate) async fn team_of(
    db: &mut Sql<'_>,
    contest: i64,
    team: TeamId,
) -> Result<Team, SeasonError> {
    let row = db
        .query_opt(
            &format!(
                "SELECT {TEAM_COLUMNS} FROM contest_teams t WHERE t.contest = $1 AND t.id = $2"
            ),
            &[contest.into(), team.0.into()],
        )
        .await?;
    match row {
        Some(row) => team_row(&row),
        None => refuse(format!("the contest has no team {team}")),
    }
}

async fn versions_of(db: &mut Sql<'_>, team: TeamId) -> Result<Vec<StoredVersion>, SeasonError> {
    db.query(
        &format!(
            "SELECT {VERSION_COLUMNS} FROM contest_versions v WHERE v.team = $1 ORDER BY v.number"
        ),
        &[team.0.into()],
    )
    .await?
    .iter()
    .map(version_row)
    .collect()
}

pub(crate) async fn matchday_of(
    db: &mut Sql<'_>,
    contest: i64,
    phase: Phase,
    number: u32,
) -> Result<StoredMatchday, SeasonError> {
    let row = db
        .query_opt(
            &format!(
                "SELECT {MATCHDAY_COLUMNS} FROM contest_matchdays m \
                 WHERE m.contest = $1 AND m.phase = $2 AND m.number = $3"
            ),
            &[contest.into(), phase_text(phase).into(), number.into()],
        )
        .await?;
    match row {
        Some(row) => matchday_row(&row),
        None => refuse(format!("the {phase} has no matchday {number}")),
    }
}

pub(crate) async fn encounters_of(
    db: &mut Sql<'_>,
    matchday: &StoredMatchday,
) -> Result<Vec<StoredEncounter>, SeasonError> {
    db.query(
        &format!(
            "SELECT {ENCOUNTER_COLUMNS} FROM contest_encounters e WHERE e.matchday = $1 \
             ORDER BY e.group_number, e.slot"
        ),
        &[matchday.id.0.into()],
    )
    .await?
    .iter()
    .map(|row| encounter_row(row, matchday.phase, matchday.number))
    .collect()
}

async fn byes_of(db: &mut Sql<'_>, matchday: MatchdayId) -> Result<Vec<Bye>, SeasonError> {
    db.query(
        "SELECT group_number, team FROM contest_byes WHERE matchday = $1 \
         ORDER BY group_number, team",
        &[matchday.0.into()],
    )
    .await?
    .iter()
    .map(|row| {
        Ok(Bye {
            group_number: row.get(0)?,
            team: TeamId(row.get(1)?),
        })
    })
    .collect()
}

/// What an encounter counts of a stored game record: the game's number,
/// each player's win points and points. The rest of the record (names,
/// commands, causes, think times) is not decoded: the standings read every
/// game of a phase.
#[derive(serde::Deserialize)]
struct RecordResult {
    game: u32,
    win_points: Vec<u32>,
    points: Vec<u32>,
}

/// The encounter's view of a stored game record (player 1 is home).
fn game_result(text: &str) -> Result<GameResult, SeasonError> {
    let record: RecordResult =
        serde_json::from_str(text).map_err(|e| corrupt("game result", e.to_string()))?;
    let (&[home_wins, away_wins], &[home_points, away_points]) =
        (record.win_points.as_slice(), record.points.as_slice())
    else {
        return Err(corrupt(
            "encounter game",
            format!("game {} has no result of two players", record.game),
        ));
    };
    let winner = match home_wins.cmp(&away_wins) {
        std::cmp::Ordering::Greater => Some(Side::Home),
        std::cmp::Ordering::Less => Some(Side::Away),
        std::cmp::Ordering::Equal => None,
    };
    Ok(GameResult {
        winner,
        points: [i64::from(home_points), i64::from(away_points)],
    })
}

/// What an encounter needs next, from its season's stored games (a game
/// without a result — waiting, running or given up — counts as not played
/// yet), and its games done and all.
pub(crate) async fn progress_of(
    db: &mut Sql<'_>,
    contest: &spielleiter_contest::Contest,
    encounter: &StoredEncounter,
) -> Result<(Progress, (u32, u32)), SeasonError> {
    let mut games = Vec::new();
    if let Some(season) = &encounter.season {
        let rows = db
            .query(
                "SELECT state, record FROM games WHERE season = $1 ORDER BY number",
                &[season.into()],
            )
            .await?;
        for row in &rows {
            games.push(stored_result(row, 0)?);
        }
    }
    encounter_progress(contest, encounter, &games)
}

/// The result of a game row's `state` and `record` (columns `first` and
/// `first + 1`): `None` unless the game is done.
pub(crate) fn stored_result(row: &Row, first: usize) -> Result<Option<GameResult>, SeasonError> {
    let state: String = row.get(first)?;
    let record: Option<String> = row.get(first + 1)?;
    Ok(match (GameState::parse(&state)?, record) {
        (GameState::Done, Some(record)) => Some(game_result(&record)?),
        _ => None,
    })
}

/// What `encounter` needs next from its games' results in order (`None`:
/// not played yet), and its games done and all.
fn encounter_progress(
    contest: &spielleiter_contest::Contest,
    encounter: &StoredEncounter,
    games: &[Option<GameResult>],
) -> Result<(Progress, (u32, u32)), SeasonError> {
    let done = games.iter().flatten().count() as u32;
    let all = games.len() as u32;
    let progress = encounter
        .encounter
        .progress(&contest.settings, contest.seed, games)
        .map_err(|e| corrupt("encounter", e.to_string()))?;
    Ok((progress, (done, all)))
}

/// The results of a matchday's games by season, each season's in game
/// order (game `i` from 0 is the season's game number `i + 1`).
pub(crate) type MatchdayGames = BTreeMap<String, Vec<Option<GameResult>>>;

/// The results of the games of the matchday's encounters — of every one
/// with `every`, else only of those not decided before (without a kept
/// result, [`kept_results`]) — by season, and how many of those games were
/// given up as failed: one query for the whole matchday, so that a report
/// (and the standings, a report per matchday) costs a few queries however
/// many encounters it has.
pub(crate) async fn results_of_matchday(
    db: &mut Sql<'_>,
    matchday: MatchdayId,
    every: bool,
) -> Result<(MatchdayGames, u32), SeasonError> {
    let undecided = if every { "" } else { "AND e.result IS NULL " };
    let rows = db
        .query(
            &format!(
                "SELECT g.season, g.state, g.record FROM games g \
                 JOIN contest_encounters e ON e.season = g.season \
                 WHERE e.matchday = $1 {undecided}ORDER BY g.season, g.number"
            ),
            &[matchday.0.into()],
        )
        .await?;
    let mut results: BTreeMap<String, Vec<Option<GameResult>>> = BTreeMap::new();
    let mut failed = 0;
    for row in &rows {
        let season: String = row.get(0)?;
        if GameState::parse(&row.get::<String>(1)?)? == GameState::Failed {
            failed += 1;
        }
        results
            .entry(season)
            .or_default()
            .push(stored_result(row, 1)?);
    }
    Ok((results, failed))
}

/// The kept results of the matchday's decided encounters, by encounter
/// (schema version 6: each written once, by [`keep_results`]).
async fn kept_results(
    db: &mut Sql<'_>,
    matchday: MatchdayId,
) -> Result<BTreeMap<EncounterId, EncounterResult>, SeasonError> {
    let rows = db
        .query(
            "SELECT id, result FROM contest_encounters WHERE matchday = $1 AND result IS NOT NULL",
            &[matchday.0.into()],
        )
        .await?;
    let mut kept = BTreeMap::new();
    for row in &rows {
        let text: String = row.get(1)?;
        let result: EncounterResult =
            serde_json::from_str(&text).map_err(|e| corrupt("encounter result", e.to_string()))?;
        kept.insert(EncounterId(row.get(0)?), result);
    }
    Ok(kept)
}

/// Keeps each newly decided encounter's result with it, once: its games
/// never change after (a done game's record is fenced), so the result
/// stays what its games give. [`ROWS_PER_INSERT`] encounters a statement,
/// as a matchday's rows are written.
async fn keep_results(
    db: &mut Sql<'_>,
    decided: &[(EncounterId, EncounterResult)],
) -> Result<(), SeasonError> {
    for chunk in decided.chunks(ROWS_PER_INSERT) {
        let mut texts = Vec::with_capacity(chunk.len());
        for (_, result) in chunk {
            texts.push(
                serde_json::to_string(result)
                    .map_err(|e| corrupt("encounter result", e.to_string()))?,
            );
        }
        let cases: String = (0..chunk.len())
            .map(|i| format!(" WHEN ${} THEN ${}", 2 * i + 1, 2 * i + 2))
            .collect();
        let ids: Vec<String> = (0..chunk.len())
            .map(|i| format!("${}", 2 * i + 1))
            .collect();
        let mut values: Vec<Value<'_>> = Vec::with_capacity(2 * chunk.len());
        for ((id, _), text) in chunk.iter().zip(&texts) {
            values.push(id.0.into());
            values.push(text.as_str().into());
        }
        db.execute(
            &format!(
                "UPDATE contest_encounters SET result = CASE id{cases} END \
                 WHERE id IN ({}) AND result IS NULL",
                ids.join(", ")
            ),
            &values,
        )
        .await?;
    }
    Ok(())
}

/// The matchday's report; a scheduled matchday whose encounters are all
/// decided is marked played — or published at once, by the database's
/// clock, when the contest publishes automatically. Publishing at that
/// step alone, never from `played`, is what lets an organiser take an
/// automatic publication back for good.
pub(crate) async fn report_of(
    db: &mut Sql<'_>,
    contest: &spielleiter_contest::Contest,
    matchday: StoredMatchday,
) -> Result<MatchdayReport, SeasonError> {
    let (results, failed) = results_of_matchday(db, matchday.id, false).await?;
    report_with(db, contest, matchday, &results, failed).await
}

/// The matchday's report from its games' `results` and how many `failed`
/// ([`results_of_matchday`]: every game's, for a caller that shows the
/// games too), its decided encounters' from their kept results.
pub(crate) async fn report_with(
    db: &mut Sql<'_>,
    contest: &spielleiter_contest::Contest,
    mut matchday: StoredMatchday,
    results: &MatchdayGames,
    failed: u32,
) -> Result<MatchdayReport, SeasonError> {
    let mut encounters = Vec::new();
    let mut games = (0, 0);
    let kept = kept_results(db, matchday.id).await?;
    let mut newly_decided = Vec::new();
    for encounter in encounters_of(db, &matchday).await? {
        if let Some(result) = kept.get(&encounter.id) {
            // Decided: every game it has is played.
            games.0 += result.played;
            games.1 += result.played;
            encounters.push((encounter, Progress::Decided(*result)));
            continue;
        }
        let played = encounter
            .season
            .as_ref()
            .and_then(|season| results.get(season))
            .map_or(&[][..], Vec::as_slice);
        let (progress, (done, all)) = encounter_progress(contest, &encounter, played)?;
        if let Progress::Decided(result) = &progress {
            newly_decided.push((encounter.id, *result));
        }
        games.0 += done;
        games.1 += all;
        encounters.push((encounter, progress));
    }
    keep_results(db, &newly_decided).await?;
    let decided = encounters
        .iter()
        .all(|(_, progress)| matches!(progress, Progress::Decided(_)));
    if matchday.state == MatchdayState::Scheduled && decided {
        if contest.settings.publication == Publication::Automatic {
            let published_at: Option<i64> = db
                .query_opt(
                    "UPDATE contest_matchdays SET state = 'published', \
                     published_at = {now_ms} / 1000 \
                     WHERE id = $1 AND state = 'scheduled' RETURNING published_at",
                    &[matchday.id.0.into()],
                )
                .await?
                .map(|row| row.get(0))
                .transpose()?;
            matchday.state = MatchdayState::Published;
            matchday.published_at = published_at.map(Timestamp).or(matchday.published_at);
        } else {
            db.execute(
                "UPDATE contest_matchdays SET state = 'played' WHERE id = $1 AND state = 'scheduled'",
                &[matchday.id.0.into()],
            )
            .await?;
            matchday.state = MatchdayState::Played;
        }
    }
    let byes = byes_of(db, matchday.id).await?;
    Ok(MatchdayReport {
        matchday,
        encounters,
        games,
        failed,
        byes,
    })
}

/// The teams and their active versions at a deadline, for the seasons of
/// the encounters frozen then.
pub(crate) struct FrozenTeams<'a> {
    /// The contest's teams by id.
    pub(crate) by_id: &'a BTreeMap<TeamId, &'a Team>,
    /// Each team's active version, for those with one.
    pub(crate) active: &'a BTreeMap<TeamId, StoredVersion>,
}

/// How many rows one `INSERT` of [`insert_encounters`] writes at most
/// (games: five times as many). Measured on a matchday of 150 encounters
/// (BENCHMARKS.md, "A contest of 300 teams"): PostgreSQL pays a round trip
/// per statement (40 ms at 10, 31 ms at 100; 176 ms with a few statements
/// per encounter), and SQLite compiles each long statement anew (7 ms a
/// row at a time, 8 ms at 10, 32 ms at 100).
const ROWS_PER_INSERT: usize = 10;

/// Stores `encounters` of matchday `matchday` (each with its group) and,
/// for each whose sides both play, its season of the contest's games per
/// encounter (see the module's documentation; a knockout encounter's
/// extra games are added to it later, `knockout_sql`): a few multi-row
/// statements for the whole matchday, not a few per encounter.
///
/// # Errors
///
/// [`SeasonError::Refused`] when the store holds a season of an
/// encounter's name already; or the store fails.
pub(crate) async fn insert_encounters(
    db: &mut Sql<'_>,
    contest: &spielleiter_contest::Contest,
    matchday: MatchdayId,
    encounters: &[(Option<GroupId>, &Encounter)],
    teams: &FrozenTeams<'_>,
    timed: bool,
) -> Result<(), SeasonError> {
    // Each played encounter's season: its name, definition and games.
    let mut seasons = Vec::new();
    let mut season_of = Vec::with_capacity(encounters.len());
    for (_, encounter) in encounters {
        if !encounter.entries.iter().all(Entry::plays) {
            season_of.push(None);
            continue;
        }
        let players = encounter
            .pairing
            .teams()
            .into_iter()
            .zip(encounter.entries)
            .map(|(team, entry)| SeasonPlayer {
                name: teams
                    .by_id
                    .get(&team)
                    .map_or_else(|| team.to_string(), |t| t.name.clone()),
                start: match entry {
                    Entry::Version(_) => teams
                        .active
                        .get(&team)
                        .map_or_else(String::new, |v| v.player.clone()),
                    Entry::StandIn | Entry::Forfeit => STAND_IN_PLAYER.to_owned(),
                },
            })
            .collect();
        let definition = SeasonDefinition {
            game: contest.game.id().to_owned(),
            players,
            games_per_table: contest.settings.games_per_encounter,
            seed: encounter.key.game_seed(contest.seed, 0),
            timed,
        };
        let schedule = definition.schedule()?;
        let name = encounter_season_name(&encounter.key);
        seasons.push((name.clone(), encode_definition(&definition)?, schedule));
        season_of.push(Some(name));
    }
    for chunk in seasons.chunks(ROWS_PER_INSERT) {
        let names: Vec<Value<'_>> = chunk
            .iter()
            .map(|(name, ..)| name.as_str().into())
            .collect();
        let taken = db
            .query_opt(
                &format!(
                    "SELECT name FROM seasons WHERE name IN ({}) LIMIT 1",
                    placeholders(chunk.len(), 1, 0)
                ),
                &names,
            )
            .await?;
        if let Some(row) = taken {
            let name: String = row.get(0)?;
            return refuse(format!(
                "the store holds a season named `{name}` already; an encounter's games need that name"
            ));
        }
        let mut values: Vec<Value<'_>> = Vec::with_capacity(2 * chunk.len());
        for (name, definition, _) in chunk {
            values.extend::<[Value<'_>; 2]>([name.as_str().into(), definition.as_str().into()]);
        }
        db.execute(
            &format!(
                "INSERT INTO seasons (name, definition, created_ms) VALUES {}",
                rows_of(chunk.len(), 2, "{now_ms}")
            ),
            &values,
        )
        .await?;
    }
    let games: Vec<(&str, &crate::ScheduledGame)> = seasons
        .iter()
        .flat_map(|(name, _, schedule)| schedule.iter().map(move |game| (name.as_str(), game)))
        .collect();
    for chunk in games.chunks(5 * ROWS_PER_INSERT) {
        let mut values: Vec<Value<'_>> = Vec::with_capacity(4 * chunk.len());
        for (season, game) in chunk {
            values.push((*season).into());
            values.extend([game.number, game.table, game.table_game].map(Value::from));
        }
        db.execute(
            &format!(
                "INSERT INTO games (season, number, table_index, table_game) VALUES {}",
                rows_of(chunk.len(), 4, "")
            ),
            &values,
        )
        .await?;
    }
    let rows: Vec<_> = encounters.iter().zip(&season_of).collect();
    for chunk in rows.chunks(ROWS_PER_INSERT) {
        let mut values: Vec<Value<'_>> = Vec::with_capacity(11 * chunk.len());
        for ((group, encounter), season) in chunk {
            let (home_entry, home_version) = entry_columns(encounter.entries[0]);
            let (away_entry, away_version) = entry_columns(encounter.entries[1]);
            values.extend::<[Value<'_>; 11]>([
                matchday.0.into(),
                group.map(|g| g.0).into(),
                encounter.key.group.into(),
                encounter.key.slot.into(),
                encounter.pairing.home.0.into(),
                encounter.pairing.away.0.into(),
                home_entry.into(),
                home_version.into(),
                away_entry.into(),
                away_version.into(),
                season.as_deref().into(),
            ]);
        }
        db.execute(
            &format!(
                "INSERT INTO contest_encounters (matchday, group_id, group_number, \
                 slot, home, away, home_entry, home_version, away_entry, \
                 away_version, season) VALUES {}",
                rows_of(chunk.len(), 11, "")
            ),
            &values,
        )
        .await?;
    }
    Ok(())
}

/// `count` placeholders `$first, $first+1, …` (after `offset` others),
/// comma-separated.
fn placeholders(count: usize, first: usize, offset: usize) -> String {
    (0..count)
        .map(|i| format!("${}", first + offset + i))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `count` rows of `width` placeholders each, numbered on from `$1`, each
/// row followed by `extra` (a column's SQL, e.g. `{now_ms}`) when given:
/// `($1, $2, {now_ms}), ($3, $4, {now_ms})`.
fn rows_of(count: usize, width: usize, extra: &str) -> String {
    (0..count)
        .map(|row| {
            let mut cells = placeholders(width, 1, row * width);
            if !extra.is_empty() {
                cells.push_str(", ");
                cells.push_str(extra);
            }
            format!("({cells})")
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Publishes `matchday` (a matchday, or a knockout round: `title` names
/// it in refusals, `how_to_play` says how it is played) at `now`: its
/// line-up and results become everybody's. Refused, nothing changed,
/// unless every game of it is played.
pub(crate) async fn publish_played(
    db: &mut Sql<'_>,
    contest: &spielleiter_contest::Contest,
    matchday: StoredMatchday,
    title: &str,
    how_to_play: &str,
    now: Timestamp,
) -> Result<MatchdayReport, SeasonError> {
    let mut report = report_of(db, contest, matchday).await?;
    match report.matchday.state {
        MatchdayState::Played => {}
        MatchdayState::Published => return refuse(format!("{title} is published already")),
        MatchdayState::Planned => {
            return refuse(format!("{title} is not played yet ({how_to_play})"));
        }
        MatchdayState::Scheduled => {
            let (done, all) = report.games;
            return refuse(format!(
                "{title} is still being played ({done} of {all} games done)"
            ));
        }
    }
    db.execute(
        "UPDATE contest_matchdays SET state = 'published', published_at = $2 WHERE id = $1",
        &[report.matchday.id.0.into(), now.0.into()],
    )
    .await?;
    report.matchday.state = MatchdayState::Published;
    report.matchday.published_at = Some(now);
    Ok(report)
}

/// Takes `matchday`'s (or a knockout round's) publication back: played,
/// its results the organisers' and its encounters' teams' again. Refused,
/// nothing changed, unless it is published.
pub(crate) async fn unpublish_published(
    db: &mut Sql<'_>,
    contest: &spielleiter_contest::Contest,
    matchday: StoredMatchday,
    title: &str,
) -> Result<MatchdayReport, SeasonError> {
    if matchday.state != MatchdayState::Published {
        return refuse(format!("{title} is not published"));
    }
    db.execute(
        "UPDATE contest_matchdays SET state = 'played', published_at = NULL WHERE id = $1",
        &[matchday.id.0.into()],
    )
    .await?;
    let matchday = matchday_of(db, contest.id.0, matchday.phase, matchday.number).await?;
    report_of(db, contest, matchday).await
}

impl<D: Database> ContestStore<D> {
    /// Adds version `player` (how it is started, as a season's player) to
    /// `team`, numbered after the team's last; built, as a player named on
    /// the command line has nothing to build.
    ///
    /// # Errors
    ///
    /// [`SeasonError::Refused`] for no such team, a player that is no
    /// program, a comment too long; or the store fails.
    pub async fn add_version(
        &self,
        team: TeamId,
        player: &str,
        comment: &str,
        now: Timestamp,
    ) -> Result<StoredVersion, SeasonError> {
        let player = player.trim().to_owned();
        if player.is_empty() {
            return refuse("the player is empty (builtin:BOT, docker:IMAGE or a command)".into());
        }
        if let Err(error) = player.parse::<spielleiter_arena::Program>() {
            return refuse(format!("the player `{player}` is refused: {error}"));
        }
        if let Err(error) = check_comment(comment) {
            return refuse(error.to_string());
        }
        let (contest, comment) = (self.contest.id.0, comment.to_owned());
        self.db
            .transaction(move |db| {
                Box::pin(async move {
                    team_of(db, contest, team).await?;
                    let (id, number) =
                        crate::build_sql::insert_version(db, team, &player, &comment, "built", now)
                            .await?;
                    Ok(StoredVersion {
                        id,
                        team,
                        number,
                        player,
                        comment,
                        state: VersionState::Built,
                        active: false,
                        created_at: now,
                    })
                })
            })
            .await
    }

    /// `team`'s versions, by number.
    ///
    /// # Errors
    ///
    /// No such team, or the store fails.
    pub async fn versions(&self, team: TeamId) -> Result<Vec<StoredVersion>, SeasonError> {
        let contest = self.contest.id.0;
        self.db
            .transaction(move |db| {
                Box::pin(async move {
                    team_of(db, contest, team).await?;
                    versions_of(db, team).await
                })
            })
            .await
    }

    /// Makes `team`'s version `number` its active one (the one active
    /// before is no longer), recorded as done by `by` (`None`: the
    /// administrator) named `by_name` at `now`.
    ///
    /// # Errors
    ///
    /// [`SeasonError::Refused`] for no such team or version, a version
    /// active already, or one not ready to play
    /// ([`organiser_may_activate`]); nothing is changed. Or the store fails.
    pub async fn activate_version(
        &self,
        team: TeamId,
        number: VersionNumber,
        by: Option<MemberId>,
        by_name: &str,
        now: Timestamp,
    ) -> Result<ActivationRecord, SeasonError> {
        self.activate_version_if(
            team,
            number,
            by,
            by_name,
            now,
            (organiser_may_activate, "a built or tested version"),
        )
        .await
    }

    /// [`ContestStore::activate_version`] under the rule `rule` (its test and what it asks for, as said in a refusal): the
    /// organiser's ([`organiser_may_activate`]) or the model's for a
    /// team's own members ([`VersionState::may_activate`]).
    pub(crate) async fn activate_version_if(
        &self,
        team: TeamId,
        number: VersionNumber,
        by: Option<MemberId>,
        by_name: &str,
        now: Timestamp,
        rule: (fn(VersionState) -> bool, &'static str),
    ) -> Result<ActivationRecord, SeasonError> {
        let (contest, by_name) = (self.contest.id.0, by_name.to_owned());
        self.db
            .transaction(move |db| {
                Box::pin(async move {
                    let owner = team_of(db, contest, team).await?;
                    db.execute(
                        "UPDATE contest_teams SET enabled = enabled WHERE id = $1",
                        &[team.0.into()],
                    )
                    .await?;
                    let versions = versions_of(db, team).await?;
                    let Some(target) = versions.iter().find(|v| v.number == number) else {
                        return refuse(format!(
                            "team \"{}\" has no {number} (it has {})",
                            owner.name,
                            match versions.len() {
                                0 => "none".to_owned(),
                                1 => "version 1".to_owned(),
                                n => format!("versions 1 to {n}"),
                            }
                        ));
                    };
                    if target.active {
                        return refuse(format!(
                            "{number} of team \"{}\" is its active version already",
                            owner.name
                        ));
                    }
                    if !(rule.0)(target.state) {
                        let which = rule.1;
                        return refuse(format!(
                            "{number} of team \"{}\" is {}; only {which} can be activated",
                            owner.name,
                            state_text(target.state)?.replace('_', " ")
                        ));
                    }
                    let replaced = versions.iter().find(|v| v.active).map(|v| v.id);
                    db.execute(
                        "UPDATE contest_versions SET active = 0 WHERE team = $1 AND active = 1",
                        &[team.0.into()],
                    )
                    .await?;
                    db.execute(
                        "UPDATE contest_versions SET active = 1 WHERE id = $1",
                        &[target.id.0.into()],
                    )
                    .await?;
                    db.execute(
                        "INSERT INTO contest_activations \
                         (team, version, replaced, by_member, by_name, at) \
                         VALUES ($1, $2, $3, $4, $5, $6)",
                        &[
                            team.0.into(),
                            target.id.0.into(),
                            replaced.map(|v| v.0).into(),
                            by.map(|m| m.0).into(),
                            by_name.as_str().into(),
                            now.0.into(),
                        ],
                    )
                    .await?;
                    Ok(ActivationRecord {
                        team,
                        version: target.id,
                        replaced,
                        by,
                        by_name,
                        at: now,
                    })
                })
            })
            .await
    }

    /// Every activation of `team`'s versions, oldest first.
    ///
    /// # Errors
    ///
    /// No such team, or the store fails.
    pub async fn activations(&self, team: TeamId) -> Result<Vec<ActivationRecord>, SeasonError> {
        let contest = self.contest.id.0;
        self.db
            .transaction(move |db| {
                Box::pin(async move {
                    team_of(db, contest, team).await?;
                    db.query(
                        "SELECT team, version, replaced, by_member, by_name, at \
                         FROM contest_activations WHERE team = $1 ORDER BY id",
                        &[team.0.into()],
                    )
                    .await?
                    .iter()
                    .map(|row| {
                        Ok(ActivationRecord {
                            team: TeamId(row.get(0)?),
                            version: VersionId(row.get(1)?),
                            replaced: row.get::<Option<i64>>(2)?.map(VersionId),
                            by: row.get::<Option<i64>>(3)?.map(MemberId),
                            by_name: row.get(4)?,
                            at: Timestamp(row.get(5)?),
                        })
                    })
                    .collect()
                })
            })
            .await
    }

    /// Makes the next matchday of `phase` (numbered after its last), with
    /// its deadline and whether its games are timed.
    ///
    /// # Errors
    ///
    /// [`SeasonError::Refused`] for the final (played in rounds, not
    /// matchdays), or the store fails.
    pub async fn create_matchday(
        &self,
        phase: Phase,
        deadline: Option<Timestamp>,
        timed: bool,
    ) -> Result<StoredMatchday, SeasonError> {
        if phase == Phase::Final {
            return refuse(
                "the final's rounds are not made as matchdays: `contest final create`, then `contest final play ROUND`"
                    .to_owned(),
            );
        }
        let contest = self.contest.id.0;
        self.db
            .transaction(move |db| {
                Box::pin(async move {
                    // The contest's row lock orders matchdays made at once.
                    db.execute(
                        "UPDATE contests SET name = name WHERE id = $1",
                        &[contest.into()],
                    )
                    .await?;
                    let row = db
                        .query_opt(
                            "SELECT COALESCE(MAX(number), 0) FROM contest_matchdays \
                             WHERE contest = $1 AND phase = $2",
                            &[contest.into(), phase_text(phase).into()],
                        )
                        .await?;
                    let last: i64 = match row {
                        Some(row) => row.get(0)?,
                        None => 0,
                    };
                    let number = u32::try_from(last + 1)
                        .map_err(|_| corrupt("matchday number", (last + 1).to_string()))?;
                    db.execute(
                        "INSERT INTO contest_matchdays (contest, phase, number, deadline, timed) \
                         VALUES ($1, $2, $3, $4, $5)",
                        &[
                            contest.into(),
                            phase_text(phase).into(),
                            number.into(),
                            deadline.map(|t| t.0).into(),
                            timed.into(),
                        ],
                    )
                    .await?;
                    matchday_of(db, contest, phase, number).await
                })
            })
            .await
    }

    /// Every matchday of the contest, by phase and number.
    ///
    /// # Errors
    ///
    /// The store fails.
    pub async fn matchdays(&self) -> Result<Vec<StoredMatchday>, SeasonError> {
        let contest = self.contest.id.0;
        let mut matchdays: Vec<StoredMatchday> = self
            .db
            .run(move |db| {
                Box::pin(async move {
                    db.query(
                        &format!(
                            "SELECT {MATCHDAY_COLUMNS} FROM contest_matchdays m \
                             WHERE m.contest = $1 ORDER BY m.number"
                        ),
                        &[contest.into()],
                    )
                    .await?
                    .iter()
                    .map(matchday_row)
                    .collect::<Result<Vec<_>, SeasonError>>()
                })
            })
            .await?;
        matchdays.sort_by_key(|m| (m.phase, m.number));
        Ok(matchdays)
    }

    /// The seasons of the contest's encounters (every matchday's and every
    /// knockout round's): their games are the contest's, shown only as its
    /// publication allows, never on a season page of their own.
    ///
    /// # Errors
    ///
    /// The store fails.
    pub async fn encounter_seasons(&self) -> Result<BTreeSet<String>, SeasonError> {
        let contest = self.contest.id.0;
        self.db
            .run(move |db| {
                Box::pin(async move {
                    db.query(
                        "SELECT e.season FROM contest_encounters e \
                         JOIN contest_matchdays m ON m.id = e.matchday \
                         WHERE m.contest = $1 AND e.season IS NOT NULL",
                        &[contest.into()],
                    )
                    .await?
                    .iter()
                    .map(|row| row.get::<String>(0))
                    .collect::<Result<BTreeSet<_>, SeasonError>>()
                })
            })
            .await
    }

    /// The seasons of the contest's versions' tests and encounters that
    /// have a game to play (waiting, or claimed and perhaps abandoned),
    /// the tests first ([`ContestStore::tests_to_play`]: a team waits at
    /// its page for its test), then the oldest matchday's, then the
    /// accepted friendly challenges' ([`ContestStore::friendlies_to_play`]):
    /// what `worker --contest` plays, one after another.
    ///
    /// # Errors
    ///
    /// The store fails.
    pub async fn seasons_to_play(&self) -> Result<Vec<String>, SeasonError> {
        let contest = self.contest.id.0;
        let mut seasons = self.tests_to_play().await?;
        let encounters = self
            .db
            .run(move |db| {
                Box::pin(async move {
                    db.query(
                        "SELECT e.season FROM contest_encounters e \
                         JOIN contest_matchdays m ON m.id = e.matchday \
                         WHERE m.contest = $1 AND e.season IS NOT NULL \
                         AND EXISTS (SELECT 1 FROM games g WHERE g.season = e.season \
                                     AND g.state IN ('waiting', 'running')) \
                         ORDER BY m.id, e.group_number, e.slot",
                        &[contest.into()],
                    )
                    .await?
                    .iter()
                    .map(|row| row.get::<String>(0))
                    .collect::<Result<Vec<_>, SeasonError>>()
                })
            })
            .await?;
        seasons.extend(encounters);
        seasons.extend(self.friendlies_to_play().await?);
        Ok(seasons)
    }

    /// Freezes and schedules matchday `number` of `phase` now: every
    /// team's active version becomes its entry (without one the contest's
    /// stand-in; a disabled team forfeits), each group's round-robin plan
    /// gives the pairings, and every encounter that is played gets its
    /// season of games (see the module's documentation). Groups are the
    /// contest's in the order they were made; a contest without groups
    /// plays as one group.
    ///
    /// # Errors
    ///
    /// [`SeasonError::Refused`] — nothing changed — for no such matchday,
    /// one frozen already, teams some of which have a group and some none,
    /// a group of fewer than two teams, a season of an encounter's name in
    /// the store already. Or the store fails.
    pub async fn play_matchday(
        &self,
        phase: Phase,
        number: u32,
        now: Timestamp,
    ) -> Result<MatchdayReport, SeasonError> {
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
                    let matchday = matchday_of(db, id, phase, number).await?;
                    if matchday.state != MatchdayState::Planned {
                        return refuse(format!(
                            "matchday {number} of the {phase} is {} already; a matchday is frozen once",
                            matchday.state.as_str()
                        ));
                    }
                    let teams: Vec<Team> = db
                        .query(
                            &format!(
                                "SELECT {TEAM_COLUMNS} FROM contest_teams t WHERE t.contest = $1 \
                                 ORDER BY t.id"
                            ),
                            &[id.into()],
                        )
                        .await?
                        .iter()
                        .map(team_row)
                        .collect::<Result<_, _>>()?;
                    let groups = match phase {
                        Phase::ChampionsLeague => champions_league_group(db, &contest).await?,
                        _ => {
                            if phase == Phase::Championship {
                                championship_still_open(db, id).await?;
                            }
                            phase_groups(db, id, &teams).await?
                        }
                    };
                    let active: BTreeMap<TeamId, StoredVersion> = db
                        .query(
                            &format!(
                                "SELECT {VERSION_COLUMNS} FROM contest_versions v \
                                 JOIN contest_teams t ON t.id = v.team \
                                 WHERE t.contest = $1 AND v.active = 1"
                            ),
                            &[id.into()],
                        )
                        .await?
                        .iter()
                        .map(|row| version_row(row).map(|v| (v.team, v)))
                        .collect::<Result<_, _>>()?;
                    let by_id: BTreeMap<TeamId, &Team> = teams.iter().map(|t| (t.id, t)).collect();
                    let schedule = schedule_matchday(
                        contest.seed,
                        &contest.settings,
                        phase,
                        number,
                        groups.iter().map(|g| (g.number, g.teams.as_slice())),
                        |team| AtDeadline {
                            active: active.get(&team).map(|v| v.id),
                            enabled: by_id.get(&team).is_some_and(|t| t.enabled),
                        },
                    )
                    .map_err(|error| SeasonError::Refused(format!("cannot pair the teams: {error}")))?;
                    let group_id = |number: u32| {
                        groups
                            .iter()
                            .find(|g| g.number == number)
                            .and_then(|g| g.id)
                    };
                    let encounters: Vec<(Option<GroupId>, &Encounter)> = schedule
                        .encounters
                        .iter()
                        .map(|encounter| (group_id(encounter.key.group), encounter))
                        .collect();
                    insert_encounters(
                        db,
                        &contest,
                        matchday.id,
                        &encounters,
                        &FrozenTeams {
                            by_id: &by_id,
                            active: &active,
                        },
                        matchday.timed,
                    )
                    .await?;
                    for team in &schedule.sitting_out {
                        let group = groups
                            .iter()
                            .find(|g| g.teams.contains(team))
                            .ok_or_else(|| corrupt("bye", format!("team {team} is in no group")))?;
                        db.execute(
                            "INSERT INTO contest_byes (matchday, group_id, group_number, team) \
                             VALUES ($1, $2, $3, $4)",
                            &[
                                matchday.id.0.into(),
                                group.id.map(|g| g.0).into(),
                                group.number.into(),
                                team.0.into(),
                            ],
                        )
                        .await?;
                    }
                    db.execute(
                        "UPDATE contest_matchdays SET state = 'scheduled', frozen_at = $2 \
                         WHERE id = $1",
                        &[matchday.id.0.into(), now.0.into()],
                    )
                    .await?;
                    let matchday = matchday_of(db, id, phase, number).await?;
                    report_of(db, &contest, matchday).await
                })
            })
            .await
    }

    /// Matchday `number` of `phase` with its encounters and how far each
    /// is (a scheduled matchday whose encounters are all decided is marked
    /// played).
    ///
    /// # Errors
    ///
    /// [`SeasonError::Refused`] for no such matchday, or the store fails or
    /// holds a result that does not fit its encounter.
    pub async fn matchday_report(
        &self,
        phase: Phase,
        number: u32,
    ) -> Result<MatchdayReport, SeasonError> {
        let contest = self.contest.clone();
        self.db
            .transaction(move |db| {
                Box::pin(async move {
                    let matchday = matchday_of(db, contest.id.0, phase, number).await?;
                    report_of(db, &contest, matchday).await
                })
            })
            .await
    }

    /// Publishes matchday `number` of `phase`: its line-up and results
    /// become everybody's.
    ///
    /// # Errors
    ///
    /// [`SeasonError::Refused`] — nothing changed — for no such matchday,
    /// one not played to the end, or one published already. Or the store
    /// fails.
    pub async fn publish_matchday(
        &self,
        phase: Phase,
        number: u32,
        now: Timestamp,
    ) -> Result<MatchdayReport, SeasonError> {
        let contest = self.contest.clone();
        self.db
            .transaction(move |db| {
                Box::pin(async move {
                    let matchday = matchday_of(db, contest.id.0, phase, number).await?;
                    let title = format!("matchday {number} of the {phase}");
                    let how_to_play = format!("`contest matchday play {number}`");
                    publish_played(db, &contest, matchday, &title, &how_to_play, now).await
                })
            })
            .await
    }

    /// Takes matchday `number` of `phase`'s publication back: its results
    /// are the organisers' and the two teams' of each encounter again.
    ///
    /// # Errors
    ///
    /// [`SeasonError::Refused`] — nothing changed — for no such matchday or
    /// one not published. Or the store fails.
    pub async fn unpublish_matchday(
        &self,
        phase: Phase,
        number: u32,
    ) -> Result<MatchdayReport, SeasonError> {
        let contest = self.contest.clone();
        self.db
            .transaction(move |db| {
                Box::pin(async move {
                    let matchday = matchday_of(db, contest.id.0, phase, number).await?;
                    let title = format!("matchday {number} of the {phase}");
                    unpublish_published(db, &contest, matchday, &title).await
                })
            })
            .await
    }

    /// The tables of `phase`, one per group by group number, after its
    /// last matchday that is frozen, from every decided encounter of its
    /// matchdays (one whose games are not all done counts once they are).
    /// A group's teams are those its matchdays paired or sat out.
    ///
    /// # Errors
    ///
    /// [`SeasonError::Refused`] for a phase without a table (trial
    /// matchdays, the final), or the store fails or holds a result that
    /// does not fit its encounter.
    pub async fn standings(&self, phase: Phase) -> Result<Vec<Standings>, SeasonError> {
        if !phase.has_standings() {
            return refuse(format!("no table is kept for the {phase}"));
        }
        let contest = self.contest.clone();
        self.db
            .transaction(move |db| Box::pin(async move { standings_in(db, &contest, phase).await }))
            .await
    }
}

/// The tables of `phase` (one that has tables) as
/// [`ContestStore::standings`] gives them: every frozen matchday counted.
pub(crate) async fn standings_in(
    db: &mut Sql<'_>,
    contest: &spielleiter_contest::Contest,
    phase: Phase,
) -> Result<Vec<Standings>, SeasonError> {
    let counted = counted_of(db, contest, phase, false).await?;
    let through = counted.numbers.last().copied().unwrap_or(0);
    tables_of(contest, phase, &counted, through)
}

/// What a phase's tables count: each group's teams (those its counted
/// matchdays paired or sat out), every decided encounter of those
/// matchdays, and their numbers in order.
pub(crate) struct CountedMatchdays {
    teams: BTreeMap<u32, BTreeSet<TeamId>>,
    played: Vec<PlayedEncounter>,
    /// The matchdays counted, by number.
    pub(crate) numbers: Vec<u32>,
}

/// What the tables of `phase` count: every frozen matchday, or with
/// `published_only` the published ones alone.
pub(crate) async fn counted_of(
    db: &mut Sql<'_>,
    contest: &spielleiter_contest::Contest,
    phase: Phase,
    published_only: bool,
) -> Result<CountedMatchdays, SeasonError> {
    let which = if published_only {
        "m.state = 'published'"
    } else {
        "m.state <> 'planned'"
    };
    let matchdays: Vec<StoredMatchday> = db
        .query(
            &format!(
                "SELECT {MATCHDAY_COLUMNS} FROM contest_matchdays m \
                 WHERE m.contest = $1 AND m.phase = $2 AND {which} \
                 ORDER BY m.number"
            ),
            &[contest.id.0.into(), phase_text(phase).into()],
        )
        .await?
        .iter()
        .map(matchday_row)
        .collect::<Result<_, _>>()?;
    let numbers = matchdays.iter().map(|m| m.number).collect();
    let mut teams: BTreeMap<u32, BTreeSet<TeamId>> = BTreeMap::new();
    let mut played = Vec::new();
    for matchday in matchdays {
        let report = report_of(db, contest, matchday).await?;
        for bye in &report.byes {
            teams.entry(bye.group_number).or_default().insert(bye.team);
        }
        for (stored, progress) in report.encounters {
            let encounter = stored.encounter;
            teams
                .entry(encounter.key.group)
                .or_default()
                .extend(encounter.pairing.teams());
            if let Progress::Decided(result) = progress {
                played.push(PlayedEncounter {
                    key: encounter.key,
                    pairing: encounter.pairing,
                    result,
                });
            }
        }
    }
    Ok(CountedMatchdays {
        teams,
        played,
        numbers,
    })
}

/// The tables of `phase`, one per group by group number, after matchday
/// `through`, from what `counted` holds.
pub(crate) fn tables_of(
    contest: &spielleiter_contest::Contest,
    phase: Phase,
    counted: &CountedMatchdays,
    through: u32,
) -> Result<Vec<Standings>, SeasonError> {
    counted
        .teams
        .iter()
        .map(|(&group, teams)| {
            let teams: Vec<TeamId> = teams.iter().copied().collect();
            Standings::compute(contest.seed, phase, group, &teams, &counted.played, through)
                .map_err(|e| corrupt("standings", e.to_string()))
        })
        .collect()
}

/// Refuses a championship matchday once the champions league has begun:
/// the champions league's teams are the championship's best, read from its
/// table each time one of its matchdays is frozen, so that table must not
/// change under it.
async fn championship_still_open(db: &mut Sql<'_>, contest: i64) -> Result<(), SeasonError> {
    let begun = db
        .query_opt(
            "SELECT number FROM contest_matchdays WHERE contest = $1 AND phase = $2 \
             AND state <> 'planned' ORDER BY number LIMIT 1",
            &[contest.into(), phase_text(Phase::ChampionsLeague).into()],
        )
        .await?;
    if begun.is_some() {
        return refuse(
            "the champions league has begun, seeded from the championship's table: the championship is over"
                .to_owned(),
        );
    }
    Ok(())
}

/// The champions league's one group: the best
/// [`ContestSettings::champions_league_size`](spielleiter_contest::ContestSettings)
/// of every championship group ([`qualifiers`]: all winners first, then
/// all runners-up, …, each by group number), from the championship's table
/// over its frozen matchdays. Refused while a championship matchday is
/// still being played, before any is played, and for fewer than two
/// qualifiers. The same teams in the same order on every champions league
/// matchday, as the championship's table stays as it was once the
/// champions league begins ([`championship_still_open`]).
async fn champions_league_group(
    db: &mut Sql<'_>,
    contest: &spielleiter_contest::Contest,
) -> Result<Vec<PhaseGroup>, SeasonError> {
    let open = db
        .query(
            &format!(
                "SELECT {MATCHDAY_COLUMNS} FROM contest_matchdays m \
                 WHERE m.contest = $1 AND m.phase = $2 AND m.state = 'scheduled' ORDER BY m.number"
            ),
            &[contest.id.0.into(), phase_text(Phase::Championship).into()],
        )
        .await?
        .iter()
        .map(matchday_row)
        .collect::<Result<Vec<_>, _>>()?;
    for matchday in open {
        // A scheduled matchday may be played by now: its report says.
        let number = matchday.number;
        let report = report_of(db, contest, matchday).await?;
        if report.matchday.state == MatchdayState::Scheduled {
            let (done, all) = report.games;
            return refuse(format!(
                "matchday {number} of the championship is still being played ({done} of {all} games done); the champions league is seeded from its table"
            ));
        }
    }
    let tables = standings_in(db, contest, Phase::Championship).await?;
    if tables.is_empty() {
        return refuse(
            "no championship matchday is played yet; the champions league is seeded from its table"
                .to_owned(),
        );
    }
    let teams = qualifiers(&tables, contest.settings.champions_league_size);
    if teams.len() < 2 {
        return refuse(format!(
            "the championship's table gives {} team for the champions league; it needs two",
            teams.len()
        ));
    }
    Ok(vec![PhaseGroup {
        id: None,
        number: 1,
        teams,
    }])
}

/// A group as a matchday pairs it.
pub(crate) struct PhaseGroup {
    pub(crate) id: Option<GroupId>,
    pub(crate) number: u32,
    pub(crate) teams: Vec<TeamId>,
}

/// The groups a matchday pairs: the contest's groups that hold teams, in
/// the order they were made, numbered from 1, each with its teams in the
/// order they were added; every team in one group when no team has one.
pub(crate) async fn phase_groups(
    db: &mut Sql<'_>,
    contest: i64,
    teams: &[Team],
) -> Result<Vec<PhaseGroup>, SeasonError> {
    if teams.iter().all(|t| t.group.is_none()) {
        return Ok(vec![PhaseGroup {
            id: None,
            number: 1,
            teams: teams.iter().map(|t| t.id).collect(),
        }]);
    }
    if let Some(loose) = teams.iter().find(|t| t.group.is_none()) {
        return refuse(format!(
            "team \"{}\" has no group, but other teams have one; every team needs a group",
            loose.name
        ));
    }
    let ids: Vec<i64> = db
        .query(
            "SELECT id FROM contest_groups WHERE contest = $1 ORDER BY id",
            &[contest.into()],
        )
        .await?
        .iter()
        .map(|row| row.get(0))
        .collect::<Result<_, _>>()?;
    let mut groups = Vec::new();
    for id in ids {
        let members: Vec<TeamId> = teams
            .iter()
            .filter(|t| t.group == Some(GroupId(id)))
            .map(|t| t.id)
            .collect();
        if !members.is_empty() {
            groups.push(PhaseGroup {
                id: Some(GroupId(id)),
                number: groups.len() as u32 + 1,
                teams: members,
            });
        }
    }
    Ok(groups)
}
