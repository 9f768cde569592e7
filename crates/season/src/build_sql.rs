//! A team's uploads and their builds in the season store (issue 36; schema
//! version 6): an upload queued as the team's next version with its build
//! job ([`ContestStore::queue_upload`]), the job claimed by a worker with
//! Docker ([`ContestStore::claim_build`]), its lease renewed
//! ([`ContestStore::heartbeat_build`]) and its end written
//! ([`ContestStore::finish_build`]) — each statement written once for both
//! databases — and the [`TeamVersions`] interface of the teams' pages.
//!
//! # Fencing
//!
//! A build is claimed as a game is: the oldest queued build, or one whose
//! lease ran out (its worker was killed while building), taken with its
//! attempt counted up and a lease on the database's clock. A heartbeat and
//! the finish name the attempt, and change nothing (zero rows) unless the
//! build is still that attempt's and its lease has not run out: a worker
//! that comes back late writes no second image and no second log.

use std::time::Duration;

use spielleiter_contest::{
    BuildLog, Contest, MemberId, NoticeKind, Runtime, StoreError, StoreFuture, TeamId,
    TeamVersions, Timestamp, Upload, VersionEntry, VersionId, VersionNumber, VersionState,
    versions::{check_comment, check_start_parameters},
    versions_store::{NOT_ACTIVATABLE, NOT_TESTABLE},
};

use crate::{
    ContestStore,
    columns::millis,
    error::SeasonError,
    matchday_sql::{StoredVersion, corrupt, refuse},
    notice_sql::notify,
    sql::{Database, Sql},
};

/// The most bytes of a build's log that are kept: its last ones, where
/// Docker says what failed.
pub const MAX_BUILD_LOG_BYTES: usize = 64 * 1024;

/// A build a worker claimed: what to build, and the fence its heartbeats
/// and finish name.
#[derive(Clone, PartialEq, Eq)]
pub struct BuildJob {
    /// The version.
    pub version: VersionId,
    /// Whose.
    pub team: TeamId,
    /// Its number in the team.
    pub number: VersionNumber,
    /// The contest's part of its images' names ([`contest_image_key`]).
    pub contest_key: String,
    /// The claim's attempt (1 for the first).
    pub attempt: u32,
    /// The worker that claimed it.
    pub worker: String,
    /// What it runs on.
    pub runtime: Runtime,
    /// Its start parameters, for the player's arguments.
    pub start_parameters: String,
    /// The ZIP archive as uploaded.
    pub archive: Vec<u8>,
}

impl std::fmt::Debug for BuildJob {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BuildJob")
            .field("version", &self.version)
            .field("team", &self.team)
            .field("number", &self.number)
            .field("contest_key", &self.contest_key)
            .field("attempt", &self.attempt)
            .field("worker", &self.worker)
            .field("runtime", &self.runtime)
            .field("archive_bytes", &self.archive.len())
            .finish_non_exhaustive()
    }
}

impl BuildJob {
    /// The image's name for this version: one per version, whichever
    /// worker builds it (`sl-team-CONTEST-TEAM:vNUMBER`).
    pub fn image_tag(&self) -> String {
        format!(
            "sl-team-{}-{}:v{}",
            self.contest_key, self.team.0, self.number.0
        )
    }
}

/// The contest's part of its teams' image names: ten hexadecimal digits of
/// a digest of its seed and name. Each store numbers its teams from 1, so
/// without it two contests' teams on one Docker daemon would build over
/// each other's images; and a digest, not the seed, which decides the
/// contest's draws (a team reads its image's name in its build log).
pub fn contest_image_key(contest: &Contest) -> String {
    use sha2::Digest as _;
    let digest = sha2::Sha256::new()
        .chain_update(b"spielleiter team images\0")
        .chain_update(contest.seed.to_le_bytes())
        .chain_update(contest.name.as_bytes())
        .finalize();
    digest
        .iter()
        .take(5)
        .map(|byte| format!("{byte:02x}"))
        .collect()
}

/// How a build ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BuildOutcome {
    /// The image was built.
    Built {
        /// Its name.
        image: String,
    },
    /// The build failed (the log says why).
    Failed,
}

/// A build's row, as its log page and the tests read it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredBuild {
    /// `queued`, `building`, `built` or `build_failed`.
    pub state: String,
    /// The last claim's attempt (0: never claimed).
    pub attempt: u32,
    /// The worker of the last claim.
    pub worker: Option<String>,
    /// The log.
    pub log: String,
    /// The image made.
    pub image: Option<String>,
}

fn runtime_of(text: &str) -> Result<Runtime, SeasonError> {
    Runtime::named(text).ok_or_else(|| corrupt("runtime", format!("`{text}`")))
}

/// The last [`MAX_BUILD_LOG_BYTES`] of `log` (cut at a character), said
/// to be cut where it is.
pub fn capped_log(log: &str) -> String {
    if log.len() <= MAX_BUILD_LOG_BYTES {
        return log.to_owned();
    }
    let note = format!(
        "[the log's first bytes are cut: it had {} bytes]\n",
        log.len()
    );
    let mut start = log.len() - (MAX_BUILD_LOG_BYTES - note.len());
    while !log.is_char_boundary(start) {
        start += 1;
    }
    format!("{note}{}", &log[start..])
}

/// The player of a built version: its image, with the start parameters as
/// its own arguments (split into words as a command line is, never given
/// to a shell).
///
/// # Errors
///
/// The start parameters do not split into words (a quote not closed).
pub fn built_player(image: &str, start_parameters: &str) -> Result<String, String> {
    format!("docker:{image} {start_parameters}")
        .parse::<spielleiter_arena::Program>()
        .map(|program| program.to_string())
        .map_err(|error| format!("the start parameters are refused: {error}"))
}

/// Why start parameters or a comment are refused, if they are.
fn text_refusal(start_parameters: &str, comment: &str) -> Option<String> {
    if let Err(error) = check_start_parameters(start_parameters) {
        return Some(error.to_string());
    }
    if let Err(error) = built_player("image:1", start_parameters) {
        return Some(error);
    }
    check_comment(comment).err().map(|error| error.to_string())
}

/// Adds `team`'s next version (under the team's row lock), in `state`.
pub(crate) async fn insert_version(
    db: &mut Sql<'_>,
    team: TeamId,
    player: &str,
    comment: &str,
    state: &str,
    now: Timestamp,
) -> Result<(VersionId, VersionNumber), SeasonError> {
    // The team's row lock orders versions added at once.
    db.execute(
        "UPDATE contest_teams SET enabled = enabled WHERE id = $1",
        &[team.0.into()],
    )
    .await?;
    let row = db
        .query_opt(
            "SELECT COALESCE(MAX(number), 0) FROM contest_versions WHERE team = $1",
            &[team.0.into()],
        )
        .await?;
    let last: i64 = match row {
        Some(row) => row.get(0)?,
        None => 0,
    };
    let row = db
        .query_opt(
            "INSERT INTO contest_versions \
             (team, number, player, comment, state, active, created_at) \
             VALUES ($1, $2, $3, $4, $5, 0, $6) RETURNING id",
            &[
                team.0.into(),
                (last + 1).into(),
                player.into(),
                comment.into(),
                state.into(),
                now.0.into(),
            ],
        )
        .await?
        .ok_or_else(|| corrupt("version", "no id came back".to_owned()))?;
    let number =
        u32::try_from(last + 1).map_err(|_| corrupt("version number", (last + 1).to_string()))?;
    Ok((VersionId(row.get(0)?), VersionNumber(number)))
}

impl<D: Database> ContestStore<D> {
    /// Stores `upload` as `team`'s next version, `uploaded`, with its build
    /// queued: one transaction.
    ///
    /// # Errors
    ///
    /// [`SeasonError::Refused`] for no such team, start parameters that are
    /// not one line of words, a comment too long; nothing is stored then.
    /// Or the store fails.
    pub async fn queue_upload(
        &self,
        team: TeamId,
        upload: &Upload,
        now: Timestamp,
    ) -> Result<StoredVersion, SeasonError> {
        if let Some(why) = text_refusal(&upload.start_parameters, &upload.comment) {
            return refuse(why);
        }
        let (contest, upload) = (self.contest.id.0, upload.clone());
        self.db
            .transaction(move |db| {
                Box::pin(async move {
                    crate::matchday_sql::team_of(db, contest, team).await?;
                    let (id, number) =
                        insert_version(db, team, "", &upload.comment, "uploaded", now).await?;
                    db.execute(
                        "INSERT INTO contest_uploads \
                         (version, runtime, start_parameters, archive, uploaded_by) \
                         VALUES ($1, $2, $3, $4, $5)",
                        &[
                            id.0.into(),
                            upload.runtime.name().into(),
                            upload.start_parameters.as_str().into(),
                            upload.archive.as_slice().into(),
                            upload.by.0.into(),
                        ],
                    )
                    .await?;
                    db.execute(
                        "INSERT INTO contest_builds (version) VALUES ($1)",
                        &[id.0.into()],
                    )
                    .await?;
                    Ok(StoredVersion {
                        id,
                        team,
                        number,
                        player: String::new(),
                        comment: upload.comment,
                        state: VersionState::Uploaded,
                        active: false,
                        created_at: now,
                    })
                })
            })
            .await
    }

    /// Claims the contest's oldest queued build, or one whose lease ran out,
    /// for `worker` with a lease of `lease`; `None` when there is none.
    ///
    /// # Errors
    ///
    /// The store fails.
    pub async fn claim_build(
        &self,
        worker: &str,
        lease: Duration,
    ) -> Result<Option<BuildJob>, SeasonError> {
        let (contest, worker) = (self.contest.id.0, worker.to_owned());
        let contest_key = contest_image_key(&self.contest);
        self.db
            .transaction(move |db| {
                Box::pin(async move {
                    // The next build in a materialised CTE, read once by the
                    // update (as a game's claim does).
                    let claimed = db
                        .query_opt(
                            "WITH next AS MATERIALIZED (SELECT version FROM contest_builds \
                                 WHERE (state = 'queued' OR \
                                     (state = 'building' AND lease_until < {now_ms})) \
                                 AND version IN (SELECT v.id FROM contest_versions v \
                                     JOIN contest_teams t ON t.id = v.team WHERE t.contest = $3) \
                                 ORDER BY version LIMIT 1 {skip_locked}) \
                             UPDATE contest_builds SET state = 'building', \
                             attempt = attempt + 1, worker = $1, lease_until = {now_ms} + $2 \
                             WHERE version = (SELECT version FROM next) \
                             RETURNING version, attempt",
                            &[worker.as_str().into(), millis(lease).into(), contest.into()],
                        )
                        .await?;
                    let Some(claimed) = claimed else {
                        return Ok(None);
                    };
                    let version: i64 = claimed.get(0)?;
                    let attempt: u32 = claimed.get(1)?;
                    db.execute(
                        "UPDATE contest_versions SET state = 'building' \
                         WHERE id = $1 AND state = 'uploaded'",
                        &[version.into()],
                    )
                    .await?;
                    let row = db
                        .query_opt(
                            "SELECT v.team, v.number, u.runtime, u.start_parameters, u.archive \
                             FROM contest_versions v JOIN contest_uploads u ON u.version = v.id \
                             WHERE v.id = $1",
                            &[version.into()],
                        )
                        .await?
                        .ok_or_else(|| {
                            corrupt("build", format!("version {version} has no upload"))
                        })?;
                    let runtime: String = row.get(2)?;
                    Ok(Some(BuildJob {
                        version: VersionId(version),
                        team: TeamId(row.get(0)?),
                        number: VersionNumber(row.get(1)?),
                        contest_key,
                        attempt,
                        worker,
                        runtime: runtime_of(&runtime)?,
                        start_parameters: row.get(3)?,
                        archive: row.get(4)?,
                    }))
                })
            })
            .await
    }

    /// Renews `job`'s lease by `lease`: true if the build is still the
    /// job's (its attempt, building, its lease not run out).
    ///
    /// # Errors
    ///
    /// The store fails.
    pub async fn heartbeat_build(
        &self,
        job: &BuildJob,
        lease: Duration,
    ) -> Result<bool, SeasonError> {
        let (version, attempt) = (job.version.0, job.attempt);
        let changed = self
            .db
            .run(move |db| {
                Box::pin(async move {
                    db.execute(
                        "UPDATE contest_builds SET lease_until = {now_ms} + $3 \
                         WHERE version = $1 AND attempt = $2 AND state = 'building' \
                         AND lease_until >= {now_ms}",
                        &[version.into(), attempt.into(), millis(lease).into()],
                    )
                    .await
                })
            })
            .await?;
        Ok(changed == 1)
    }

    /// Writes how `job` ended, with its `log` ([`capped_log`]): the build
    /// and its version built (the version's player `docker:IMAGE` with the
    /// start parameters) or failed. False, and nothing written, if the
    /// build is no longer the job's (a later attempt claimed it, or the
    /// lease ran out).
    ///
    /// # Errors
    ///
    /// The store fails.
    pub async fn finish_build(
        &self,
        job: &BuildJob,
        outcome: &BuildOutcome,
        log: &str,
        now: Timestamp,
    ) -> Result<bool, SeasonError> {
        let (version, attempt) = (job.version.0, job.attempt);
        let (state, image, player, log) = match outcome {
            BuildOutcome::Built { image } => match built_player(image, &job.start_parameters) {
                Ok(player) => ("built", Some(image.clone()), player, capped_log(log)),
                Err(why) => ("build_failed", None, String::new(), capped_log(&why)),
            },
            BuildOutcome::Failed => ("build_failed", None, String::new(), capped_log(log)),
        };
        self.db
            .transaction(move |db| {
                Box::pin(async move {
                    let changed = db
                        .execute(
                            "UPDATE contest_builds SET state = $3, log = $4, image = $5, \
                             finished_at = $6, lease_until = NULL \
                             WHERE version = $1 AND attempt = $2 AND state = 'building' \
                             AND lease_until >= {now_ms}",
                            &[
                                version.into(),
                                attempt.into(),
                                state.into(),
                                log.as_str().into(),
                                image.as_deref().into(),
                                now.0.into(),
                            ],
                        )
                        .await?;
                    if changed != 1 {
                        return Ok(false);
                    }
                    db.execute(
                        "UPDATE contest_versions SET state = $2, player = $3 \
                         WHERE id = $1 AND state = 'building'",
                        &[version.into(), state.into(), player.as_str().into()],
                    )
                    .await?;
                    if let Some(row) = db
                        .query_opt(
                            "SELECT team, number FROM contest_versions WHERE id = $1",
                            &[version.into()],
                        )
                        .await?
                    {
                        let (team, number): (i64, i64) = (row.get(0)?, row.get(1)?);
                        let (kind, text) = if state == "built" {
                            (
                                NoticeKind::BuildFinished,
                                format!("Version {number} is built; \u{201c}Test\u{201d} on the versions page plays it against the random bot."),
                            )
                        } else {
                            (
                                NoticeKind::BuildFailed,
                                format!("Version {number}'s build failed; its build log says why."),
                            )
                        };
                        notify(db, TeamId(team), kind, &format!("build-{version}-{attempt}"), &text).await?;
                    }
                    Ok(true)
                })
            })
            .await
    }

    /// The build of `team`'s version `number`; `None` for a version without
    /// one (a player named on the command line).
    ///
    /// # Errors
    ///
    /// [`SeasonError::Refused`] for no such team or version, or the store
    /// fails.
    pub async fn build_of(
        &self,
        team: TeamId,
        number: VersionNumber,
    ) -> Result<Option<StoredBuild>, SeasonError> {
        let contest = self.contest.id.0;
        self.db
            .transaction(move |db| {
                Box::pin(async move {
                    let owner = crate::matchday_sql::team_of(db, contest, team).await?;
                    let version = db
                        .query_opt(
                            "SELECT id FROM contest_versions WHERE team = $1 AND number = $2",
                            &[team.0.into(), number.0.into()],
                        )
                        .await?;
                    let Some(version) = version else {
                        return refuse(format!("team \"{}\" has no {number}", owner.name));
                    };
                    let version: i64 = version.get(0)?;
                    db.query_opt(
                        "SELECT state, attempt, worker, log, image FROM contest_builds \
                         WHERE version = $1",
                        &[version.into()],
                    )
                    .await?
                    .map(|row| {
                        Ok(StoredBuild {
                            state: row.get(0)?,
                            attempt: row.get(1)?,
                            worker: row.get(2)?,
                            log: row.get(3)?,
                            image: row.get(4)?,
                        })
                    })
                    .transpose()
                })
            })
            .await
    }

    /// `team`'s versions with their uploads' runtimes and start parameters.
    async fn version_entries(&self, team: TeamId) -> Result<Vec<VersionEntry>, SeasonError> {
        let contest = self.contest.id.0;
        self.db
            .transaction(move |db| {
                Box::pin(async move {
                    crate::matchday_sql::team_of(db, contest, team).await?;
                    let rows = db
                        .query(
                            "SELECT v.number, v.state, v.active, v.comment, v.created_at, \
                             u.runtime, u.start_parameters FROM contest_versions v \
                             LEFT JOIN contest_uploads u ON u.version = v.id \
                             WHERE v.team = $1 ORDER BY v.number",
                            &[team.0.into()],
                        )
                        .await?;
                    rows.iter()
                        .map(|row| {
                            let state: String = row.get(1)?;
                            let runtime: Option<String> = row.get(5)?;
                            Ok(VersionEntry {
                                number: VersionNumber(row.get(0)?),
                                state: crate::matchday_sql::parse_state(&state)?,
                                active: row.get(2)?,
                                comment: row.get(3)?,
                                created_at: Timestamp(row.get(4)?),
                                runtime: runtime.as_deref().map(runtime_of).transpose()?,
                                start_parameters: row.get::<Option<String>>(6)?.unwrap_or_default(),
                            })
                        })
                        .collect()
                })
            })
            .await
    }

    fn versions_error(&self, error: SeasonError) -> StoreError {
        match error {
            SeasonError::Refused(why) if why.contains("has no") => StoreError::NotFound("version"),
            SeasonError::Refused(why) if why.contains("no team") => StoreError::NotFound("team"),
            SeasonError::Refused(_) => StoreError::Refused("the upload is refused"),
            SeasonError::Database { store, cause } | SeasonError::Connect { store, cause } => {
                StoreError::Backend { store, cause }
            }
            other => StoreError::Backend {
                store: self.db.store_name(),
                cause: other.to_string(),
            },
        }
    }
}

impl<D: Database + 'static> TeamVersions for ContestStore<D> {
    fn team_versions(&self, team: TeamId) -> StoreFuture<'_, Vec<VersionEntry>> {
        Box::pin(async move {
            self.version_entries(team)
                .await
                .map_err(|e| self.versions_error(e))
        })
    }

    fn upload<'a>(
        &'a self,
        team: TeamId,
        upload: &'a Upload,
        now: Timestamp,
    ) -> StoreFuture<'a, VersionEntry> {
        Box::pin(async move {
            // The page shows the store's refusal: one line of its own each.
            if let Err(error) = check_start_parameters(&upload.start_parameters) {
                return Err(StoreError::Refused(match error {
                    spielleiter_contest::versions::VersionTextError::StartParametersTooLong(_) => {
                        "the start parameters are longer than 1000 bytes"
                    }
                    _ => "the start parameters must be one line without control characters",
                }));
            }
            if built_player("image:1", &upload.start_parameters).is_err() {
                return Err(StoreError::Refused(
                    "a quote in the start parameters is not closed",
                ));
            }
            if check_comment(&upload.comment).is_err() {
                return Err(StoreError::Refused("the comment is longer than 2000 bytes"));
            }
            let stored = self
                .queue_upload(team, upload, now)
                .await
                .map_err(|e| self.versions_error(e))?;
            Ok(VersionEntry {
                number: stored.number,
                runtime: Some(upload.runtime),
                start_parameters: upload.start_parameters.clone(),
                state: stored.state,
                active: false,
                comment: stored.comment,
                created_at: now,
            })
        })
    }

    fn build_log(&self, team: TeamId, number: VersionNumber) -> StoreFuture<'_, Option<BuildLog>> {
        Box::pin(async move {
            let build = self
                .build_of(team, number)
                .await
                .map_err(|e| self.versions_error(e))?;
            let Some(build) = build else {
                return Ok(None);
            };
            let entries = self
                .version_entries(team)
                .await
                .map_err(|e| self.versions_error(e))?;
            let state = entries
                .iter()
                .find(|v| v.number == number)
                .map_or(VersionState::Uploaded, |v| v.state);
            Ok(Some(BuildLog {
                number,
                state,
                log: build.log,
                image: build.image,
            }))
        })
    }

    fn activate<'a>(
        &'a self,
        team: TeamId,
        number: VersionNumber,
        by: MemberId,
        by_name: &'a str,
        now: Timestamp,
    ) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            match self
                .activate_version_if(
                    team,
                    number,
                    Some(by),
                    by_name,
                    now,
                    (VersionState::may_activate, "a version that passed its test"),
                )
                .await
            {
                Ok(_) => Ok(()),
                Err(SeasonError::Refused(why)) if why.contains("has no") => {
                    Err(StoreError::NotFound("version"))
                }
                Err(SeasonError::Refused(_)) => Err(StoreError::Refused(NOT_ACTIVATABLE)),
                Err(other) => Err(self.versions_error(other)),
            }
        })
    }

    fn test(&self, team: TeamId, number: VersionNumber) -> StoreFuture<'_, ()> {
        Box::pin(async move {
            // A team's test is timed as its matchdays are by default: the
            // test shows whether the program keeps to the clock.
            match self.start_test(team, number, true).await {
                Ok(_) => Ok(()),
                Err(SeasonError::Refused(why)) if why.starts_with("the contest has no team") => {
                    Err(StoreError::NotFound("team"))
                }
                Err(SeasonError::Refused(why)) if why.starts_with("the team has no version") => {
                    Err(StoreError::NotFound("version"))
                }
                Err(SeasonError::Refused(_)) => Err(StoreError::Refused(NOT_TESTABLE)),
                Err(other) => Err(self.versions_error(other)),
            }
        })
    }

    fn test_season(&self, team: TeamId, number: VersionNumber) -> StoreFuture<'_, Option<String>> {
        Box::pin(async move {
            self.newest_test_season(team, number)
                .await
                .map_err(|error| match error {
                    SeasonError::Refused(_) => StoreError::NotFound("version"),
                    other => self.versions_error(other),
                })
        })
    }
}

#[cfg(test)]
mod tests {
    use spielleiter_contest::{ContestId, ContestSettings};
    use spielleiter_rules::GameType;

    use super::*;

    fn contest(name: &str, seed: u64) -> Contest {
        Contest {
            id: ContestId(1),
            name: name.to_owned(),
            game: GameType::DEFAULT,
            seed,
            settings: ContestSettings::default(),
        }
    }

    #[test]
    fn each_contest_has_its_own_image_names() {
        let key = contest_image_key(&contest("Cup", 5));
        assert_eq!(key.len(), 10, "{key}");
        assert!(
            key.bytes()
                .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase()),
            "{key}"
        );
        // The same contest, whichever worker builds: the same names.
        assert_eq!(contest_image_key(&contest("Cup", 5)), key);
        // Another store's contest of the same name, or the same seed.
        assert_ne!(contest_image_key(&contest("Cup", 6)), key);
        assert_ne!(contest_image_key(&contest("League", 5)), key);
    }
}
