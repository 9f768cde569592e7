//! The sandbox: teams' player programs run as Docker containers that reach
//! their game and nothing else, and player images built from teams'
//! uploads.
//!
//! # How a sandboxed player reaches its game
//!
//! A player's container has no network but its own loopback
//! (`--network none`). Its first process is the relay (the
//! `spielleiter-sandbox-relay` binary, baked into every sandbox image at
//! [`RELAY_PATH`]): it listens on the container's `127.0.0.1:13050`, starts
//! the player's `/player/start --host 127.0.0.1 --port 13050 --reservation
//! CODE`, and carries each connection to a Unix socket bind-mounted from
//! the host. On the host, the match runner's forwarder carries
//! each connection on that socket to the game server's address, and to no
//! other. So the player can reach its game server's port and nothing else:
//! not the internet, not the host's other ports, not other containers —
//! there is no route to any of them, whatever the host's firewall says.
//!
//! # Layout
//!
//! - [`limits`]: [`SandboxLimits`], their defaults and the container's
//!   create request.
//! - `program`: [`SandboxedProgram`], what a sandboxed player runs;
//!   `error`: [`SandboxError`], why it cannot be run.
//! - [`player`]: [`SandboxedPlayer`], one seat's container from start to
//!   removal, its output cut into the seat's log.
//! - `api`: calls of the Docker daemon's API on its Unix socket, each
//!   bounded in time and bytes ([`DaemonError`]).
//! - `docker`: the checks before a match and the sweep ([`preflight`]);
//!   the Docker client's calls for `player build`.
//! - `forwarder`: the host's end of a player's connection.
//! - `turn`: [`JoinTurns`], the order in which a game's seats join while
//!   their containers start at once.
//! - [`append_note`]: a note in a seat's log, written whole.
//! - [`upload`]: checking and unpacking a team's upload; [`build`]:
//!   building a player image from it ([`build_player_image`]).
#![deny(missing_docs)]

mod api;
pub mod build;
mod docker;
mod error;
mod forwarder;
pub mod limits;
pub mod player;
mod program;
mod seat_log;
mod turn;
pub mod upload;

pub use api::DaemonError;
pub use build::{
    BUILD_LABEL, BuildError, BuildRequest, DEFAULT_BUILD_TIMEOUT, Runtime, build_player_image,
    check_upload_listing,
};
pub use docker::Swept;
pub use error::SandboxError;
pub use limits::{RELAY_PATH, SandboxLimits};
pub use player::{SandboxedPlayer, Seat};
pub use program::SandboxedProgram;
pub use seat_log::append_note;
pub use turn::{JoinTurn, JoinTurns};
pub use upload::{UploadError, UploadLimits};

/// Before the first game of a match with sandboxed players: fails with one
/// line when Docker does not answer or an image is missing or is no
/// sandbox image, and removes what killed match runners left behind. The
/// calls of the daemon are tasks: no runtime thread is held, so games
/// already running on the runtime (a season worker's, say) go on
/// meanwhile.
///
/// # Errors
///
/// Docker is missing, an image is unusable, or the sweep failed.
pub async fn preflight(images: &[&str]) -> Result<Swept, SandboxError> {
    docker::check_docker().await?;
    let mut unique: Vec<&str> = images.to_vec();
    unique.sort_unstable();
    unique.dedup();
    // The sweep and the images' checks are independent calls.
    let (swept, checked) = tokio::join!(docker::sweep(), async {
        for image in &unique {
            docker::check_image(image).await?;
        }
        Ok::<(), SandboxError>(())
    });
    // What was swept is told even when an image fails the check.
    let swept = swept?;
    if !swept.containers.is_empty() {
        tracing::warn!(
            containers = %swept.containers.join(" "),
            "removed sandboxed players left behind by a match runner that is gone"
        );
    }
    checked?;
    Ok(swept)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test.
mod tests {
    use std::{
        process::Command,
        time::{Duration, Instant},
    };

    use super::*;
    use crate::api::tests::{Reply, fake};

    /// Set in the child process that runs the probe.
    const PROBE: &str = "SPIELLEITER_SANDBOX_PREFLIGHT_PROBE";

    /// The preflight's calls of the daemon leave the runtime's thread to
    /// other tasks: on a single-threaded runtime a task spawned before it
    /// runs during its first call (a preflight that blocked for its calls,
    /// as it once did, would hold the only thread until that call's end at
    /// the least).
    ///
    /// The daemon is named by the environment, which a test cannot set for
    /// itself without unsafe code: the test runs itself again as a child
    /// process with `DOCKER_HOST` naming a fake daemon of this process that
    /// takes 0.3 s a call.
    #[test]
    fn the_preflight_holds_no_runtime_thread() {
        if std::env::var_os(PROBE).is_some() {
            probe();
            return;
        }
        let runtime = tokio::runtime::Runtime::new().unwrap();
        let daemon = runtime.block_on(fake(|seen| {
            let body = match seen.path.as_str() {
                "/version" => r#"{"Version":"27.0"}"#,
                path if path.starts_with("/images/") => {
                    r#"{"Config":{"Labels":{"org.spielleiter.sandbox.relay":"/sandbox/relay"}}}"#
                }
                _ => "[]",
            };
            let whole = Reply::status(200, body);
            Reply {
                now: Vec::new(),
                later: Some((Duration::from_millis(300), whole.now)),
            }
        }));
        let output = Command::new(std::env::current_exe().expect("this test"))
            .args([
                "--exact",
                "tests::the_preflight_holds_no_runtime_thread",
                "--nocapture",
            ])
            .env(PROBE, "1")
            .env(
                "DOCKER_HOST",
                format!("unix://{}", daemon.socket().display()),
            )
            .output()
            .expect("the probe runs");
        let text = String::from_utf8_lossy(&output.stdout).into_owned()
            + &String::from_utf8_lossy(&output.stderr);
        assert!(output.status.success(), "the probe failed: {text}");
        assert!(text.contains("1 passed"), "the probe did not run: {text}");
        let mut calls = daemon.calls();
        calls.sort();
        assert_eq!(
            calls,
            [
                "GET /containers/json?all=1&filters=%7B%22label%22%3A%5B%22org.spielleiter.sandbox%22%5D%7D",
                "GET /images/team-a:1/json",
                "GET /images/team-b:1/json",
                "GET /version"
            ]
        );
    }

    fn probe() {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("runtime");
        runtime.block_on(async {
            let (sender, other_ran) = tokio::sync::oneshot::channel();
            tokio::spawn(async move {
                let _ = sender.send(Instant::now());
            });
            let started = Instant::now();
            let swept = preflight(&["team-a:1", "team-b:1", "team-a:1"]).await;
            let finished = Instant::now();
            assert!(swept.is_ok(), "{swept:?}");
            // Two calls one after the other at the least: the version, then
            // the sweep beside the images.
            assert!(finished - started >= Duration::from_millis(600));
            let other_ran = other_ran.await.expect("the other task ran");
            assert!(
                other_ran - started < Duration::from_millis(250),
                "the other task ran {:?} after the preflight's start, not during its first call",
                other_ran - started
            );
        });
    }

    #[test]
    fn a_tcp_docker_host_is_refused_in_one_line() {
        let error = SandboxError::from(DaemonError::UnsupportedHost("tcp://h:2375".to_owned()));
        assert_eq!(
            error.to_string(),
            "docker: DOCKER_HOST=tcp://h:2375: only a daemon on a Unix socket (unix://PATH) can run sandboxed players"
        );
    }
}
