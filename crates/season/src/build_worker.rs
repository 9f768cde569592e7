//! [`run_build_worker`]: a worker's builds of the teams' uploads — claims
//! each queued build of the contest ([`ContestStore::claim_build`]),
//! builds it with an [`ImageBuilder`] on a blocking thread while its lease
//! is renewed beside it, and writes the outcome under the claim
//! ([`ContestStore::finish_build`]). A worker whose lease was lost (it
//! stalled past it, another worker took the build) writes nothing; the
//! build it made is the same image name, so one image and one log stay.
//!
//! The builder is behind a trait so that the season crate needs no Docker:
//! the command line's builder unpacks with the sandbox's limits and builds
//! with `build_player_image`; the tests' builder makes no image.

use std::{sync::Arc, time::Duration};

use tokio_util::sync::CancellationToken;
use tracing::{info, warn};

use crate::{
    AnyStore, ContestStore,
    build_sql::{BuildJob, BuildOutcome},
    error::SeasonError,
    worker::{WorkerSettings, system_now},
};

/// What a build made: the image (`None`: it failed) and its log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Built {
    /// The image's name, when built.
    pub image: Option<String>,
    /// What the build said (the store keeps its last bytes).
    pub log: String,
}

/// Builds a version's image from its upload. Called on a blocking thread;
/// may take minutes.
pub trait ImageBuilder: Send + Sync + 'static {
    /// Builds `job` (its archive, runtime and [`BuildJob::image_tag`]).
    fn build(&self, job: &BuildJob) -> Built;
}

/// What a build worker did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BuildReport {
    /// Versions built.
    pub built: u32,
    /// Builds that failed (their logs say why).
    pub failed: u32,
    /// Builds whose outcome was refused: the lease was lost meanwhile.
    pub discarded: u32,
    /// Whether a shutdown stopped it.
    pub interrupted: bool,
}

/// How often a build worker with nothing to build looks again.
pub const BUILD_IDLE_POLL: Duration = Duration::from_secs(5);

/// Builds the contest's queued uploads one after another with `builder`,
/// as `settings.name` with its lease and heartbeat; with nothing to build
/// it looks again every [`BUILD_IDLE_POLL`], or ends when `until_idle`. A
/// shutdown ends it at once: a build under way is abandoned (its lease
/// runs out and another worker builds it).
///
/// # Errors
///
/// The store fails with something other than a lost connection.
pub async fn run_build_worker(
    contest: &ContestStore<AnyStore>,
    builder: Arc<dyn ImageBuilder>,
    settings: &WorkerSettings,
    shutdown: CancellationToken,
    until_idle: bool,
) -> Result<BuildReport, SeasonError> {
    let mut report = BuildReport::default();
    let mut said_idle = false;
    info!(worker = %settings.name, "build worker starts");
    loop {
        let claimed = tokio::select! {
            () = shutdown.cancelled() => {
                report.interrupted = true;
                return Ok(report);
            }
            claimed = contest.claim_build(&settings.name, settings.lease) => claimed,
        };
        let job = match claimed {
            Ok(Some(job)) => job,
            Ok(None) => {
                if until_idle {
                    return Ok(report);
                }
                if !said_idle {
                    info!(worker = %settings.name, "no build is queued; waiting for the next");
                    said_idle = true;
                }
                tokio::select! {
                    () = shutdown.cancelled() => {}
                    () = tokio::time::sleep(BUILD_IDLE_POLL) => {}
                }
                continue;
            }
            Err(error) if error.is_transient() => {
                warn!(%error, "cannot claim a build; trying again");
                tokio::select! {
                    () = shutdown.cancelled() => {}
                    () = tokio::time::sleep(settings.poll) => {}
                }
                continue;
            }
            Err(error) => return Err(error),
        };
        said_idle = false;
        info!(worker = %settings.name, team = job.team.0, version = job.number.0, attempt = job.attempt, "building");
        let Some(built) =
            build_holding_the_lease(contest, &builder, &job, settings, &shutdown).await
        else {
            report.interrupted = true;
            return Ok(report);
        };
        let outcome = match &built.image {
            Some(image) => BuildOutcome::Built {
                image: image.clone(),
            },
            None => BuildOutcome::Failed,
        };
        if contest
            .finish_build(&job, &outcome, &built.log, system_now())
            .await?
        {
            if built.image.is_some() {
                report.built += 1;
            } else {
                report.failed += 1;
            }
            info!(
                team = job.team.0,
                version = job.number.0,
                built = built.image.is_some(),
                "build finished"
            );
        } else {
            report.discarded += 1;
            warn!(
                team = job.team.0,
                version = job.number.0,
                "the build's lease was lost; its outcome is discarded"
            );
        }
    }
}

/// Runs `builder` on `job` on a blocking thread, renewing the lease every
/// heartbeat meanwhile; `None` when `shutdown` came first.
async fn build_holding_the_lease(
    contest: &ContestStore<AnyStore>,
    builder: &Arc<dyn ImageBuilder>,
    job: &BuildJob,
    settings: &WorkerSettings,
    shutdown: &CancellationToken,
) -> Option<Built> {
    let (builder, blocking_job) = (Arc::clone(builder), job.clone());
    let build = tokio::task::spawn_blocking(move || builder.build(&blocking_job));
    tokio::pin!(build);
    let mut beat = tokio::time::interval(settings.heartbeat);
    beat.tick().await;
    loop {
        tokio::select! {
            () = shutdown.cancelled() => return None,
            done = &mut build => {
                return Some(done.unwrap_or_else(|error| Built {
                    image: None,
                    log: format!("the build stopped: {error}"),
                }));
            }
            _ = beat.tick() => match contest.heartbeat_build(job, settings.lease).await {
                Ok(true) => {}
                // The finish will be refused; the build is let run out.
                Ok(false) => warn!(team = job.team.0, version = job.number.0, "the build's lease is lost"),
                Err(error) => warn!(%error, "cannot renew the build's lease; trying again"),
            },
        }
    }
}
