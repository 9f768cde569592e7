//! Why a sandboxed player cannot be run: [`SandboxError`].

use std::path::PathBuf;

use crate::api::DaemonError;

/// Why a sandboxed player cannot be run.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SandboxError {
    /// No Docker client, or no daemon answering it.
    #[error("docker: players need Docker, which does not answer here: {0}")]
    DockerMissing(String),
    /// No Docker daemon answering on its socket.
    #[error("docker: players need Docker, which does not answer here: {0}")]
    DaemonMissing(#[source] DaemonError),
    /// The image is not on this machine.
    #[error(
        "docker:{0}: no such image on this machine (build it with `spielleiter player build`, or `docker load` it)"
    )]
    ImageMissing(String),
    /// The image has no relay, so its player could not reach its game.
    #[error(
        "docker:{0}: not a sandbox image (it lacks the label org.spielleiter.sandbox.relay); build it with `spielleiter player build`, or FROM a sandbox base image (docker/sandbox/build-base.sh)"
    )]
    NotSandboxImage(String),
    /// A seat's run directory (its socket) cannot be made.
    #[error("cannot prepare the sandbox's run directory {0}: {1}")]
    RunDir(PathBuf, #[source] std::io::Error),
    /// A call of the Docker client failed.
    #[error("docker: {0}")]
    Docker(String),
    /// A call of the Docker daemon failed.
    #[error("docker: {0}")]
    Daemon(#[from] DaemonError),
    /// `SPIELLEITER_SANDBOX_WITHOUT` names something that is no guard of
    /// the sandbox (a test's mistake: refused rather than ignored).
    #[error("{0}")]
    UnknownGuard(String),
}
