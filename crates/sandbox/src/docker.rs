//! The checks before a match (is Docker there, are the images sandbox
//! images) and the sweep of containers whose match runner is gone, as
//! calls of the daemon's API (`crate::api`); and the calls of Docker's
//! command-line client that `player build` makes (it has no runtime, and
//! builds with the client's builder), each bounded in time.

use std::{
    ffi::OsString,
    io::Read,
    path::PathBuf,
    process::{Command, Stdio},
    sync::{Arc, Mutex, mpsc},
    thread,
    time::Duration,
};

use crate::{
    api::{Daemon, Removal},
    error::SandboxError,
    limits::{LABEL, OWNER_LABEL, RELAY_LABEL},
};

/// How long one call of the Docker client may take (a loaded daemon takes
/// seconds to remove a container).
pub(crate) const CALL_TIMEOUT: Duration = crate::api::CALL_TIMEOUT;

/// How much of a call's output is read: enough for thousands of lines of
/// `docker ps`.
const OUTPUT_LIMIT: u64 = 4 * 1024 * 1024;

/// The Docker client of `player build`: `$SPIELLEITER_DOCKER` or `docker`
/// on the `PATH`. (A match calls the daemon itself, [`crate::api`].)
pub(crate) fn program() -> OsString {
    std::env::var_os("SPIELLEITER_DOCKER").unwrap_or_else(|| "docker".into())
}

/// This machine's name and this process's id: a container's owner.
pub(crate) fn owner() -> String {
    format!("{}:{}", host_name(), std::process::id())
}

fn host_name() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|name| name.trim().to_owned())
        .unwrap_or_else(|_| "localhost".to_owned())
}

/// Runs `docker ARGS`, blocking this thread for at most `timeout`; returns
/// its standard output, or a one-line reason (its standard error's first
/// line) why it failed.
pub(crate) fn call_blocking(args: &[&str], timeout: Duration) -> Result<String, String> {
    run_blocking(args, &[], timeout).map_err(|failed| failed.reason)
}

/// Why a call of the Docker client failed, and what it had written to its
/// standard output until then (a build's steps, say, to clean up after).
#[derive(Debug)]
pub(crate) struct Failed {
    /// One line: the client's error, or that it took too long.
    pub reason: String,
    /// Its standard output, as far as it came.
    pub output: String,
    /// Its standard error, as far as it came.
    pub errors: String,
    /// Whether it was killed at its time limit.
    pub timed_out: bool,
}

/// Runs `docker ARGS` with the environment `envs` added, blocking this
/// thread for at most `timeout`, and kills the client past it; the
/// standard output is kept as it comes (up to [`OUTPUT_LIMIT`]) so that a
/// failure still tells what the client reported.
pub(crate) fn run_blocking(
    args: &[&str],
    envs: &[(&str, &str)],
    timeout: Duration,
) -> Result<String, Failed> {
    let failed = |reason| Failed {
        reason,
        output: String::new(),
        errors: String::new(),
        timed_out: false,
    };
    let mut child = Command::new(program())
        .args(args)
        .envs(envs.iter().copied())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| failed(format!("cannot run {}: {e}", program().to_string_lossy())))?;
    let (stdout, stderr) = (child.stdout.take(), child.stderr.take());
    let pid = child.id();
    let output = Arc::new(Mutex::new(Vec::new()));
    let (sender, receiver) = mpsc::channel();
    {
        let output = Arc::clone(&output);
        thread::spawn(move || {
            let errors = thread::spawn(move || {
                let mut text = String::new();
                if let Some(pipe) = stderr {
                    let _ = pipe.take(OUTPUT_LIMIT).read_to_string(&mut text);
                }
                text
            });
            if let Some(mut pipe) = stdout {
                let mut buffer = [0; 8192];
                loop {
                    match pipe.read(&mut buffer) {
                        Ok(0) | Err(_) => break,
                        Ok(read) => {
                            let Ok(mut kept) = output.lock() else { break };
                            let room = usize::try_from(OUTPUT_LIMIT)
                                .unwrap_or(usize::MAX)
                                .saturating_sub(kept.len());
                            kept.extend_from_slice(&buffer[..read.min(room)]);
                        }
                    }
                }
            }
            let errors = errors.join().unwrap_or_default();
            let _ = sender.send((child.wait(), errors));
        });
    }
    let result = receiver.recv_timeout(timeout);
    if result.is_err()
        && let Ok(pid) = i32::try_from(pid)
    {
        let _ = nix::sys::signal::kill(
            nix::unistd::Pid::from_raw(pid),
            nix::sys::signal::Signal::SIGKILL,
        );
    }
    let output = output
        .lock()
        .map(|kept| String::from_utf8_lossy(&kept).into_owned())
        .unwrap_or_default();
    let failed = |reason, errors| Failed {
        reason,
        output: output.clone(),
        errors,
        timed_out: false,
    };
    match result {
        Ok((Ok(status), _)) if status.success() => Ok(output),
        Ok((Ok(status), errors)) => Err(failed(first_line(&errors, &status.to_string()), errors)),
        Ok((Err(e), errors)) => Err(failed(format!("cannot wait for docker: {e}"), errors)),
        Err(_) => Err(Failed {
            timed_out: true,
            ..failed(
                format!("docker {} took longer than {timeout:?}", args.join(" ")),
                String::new(),
            )
        }),
    }
}

fn first_line(text: &str, otherwise: &str) -> String {
    text.lines()
        .map(str::trim)
        .find(|line| !line.is_empty())
        .unwrap_or(otherwise)
        .to_owned()
}

/// The call that shows whether Docker can be used, and its time limit.
const VERSION: [&str; 3] = ["version", "--format", "{{.Server.Version}}"];
const VERSION_TIMEOUT: Duration = Duration::from_secs(10);

/// Fails with one line when Docker cannot be used: no daemon answering on
/// its socket.
pub(crate) async fn check_docker() -> Result<(), SandboxError> {
    let version = Daemon::from_env()?
        .version()
        .await
        .map_err(SandboxError::DaemonMissing)?;
    tracing::debug!(%version, "the Docker daemon answers");
    Ok(())
}

/// Whether Docker can be used, through its client, blocking this thread
/// (for `player build`).
pub(crate) fn check_docker_blocking() -> Result<(), SandboxError> {
    call_blocking(&VERSION, VERSION_TIMEOUT)
        .map(drop)
        .map_err(SandboxError::DockerMissing)
}

/// The format that shows an image's relay label.
fn relay_format() -> String {
    format!("{{{{index .Config.Labels \"{RELAY_LABEL}\"}}}}")
}

/// Fails unless `image` is on this machine and is a sandbox image (has the
/// relay).
pub(crate) async fn check_image(image: &str) -> Result<(), SandboxError> {
    let inspected = Daemon::from_env()?.inspect_image(image).await?;
    let relay = inspected.map(|image| {
        image
            .pointer("/Config/Labels")
            .and_then(|labels| labels.get(RELAY_LABEL))
            .and_then(serde_json::Value::as_str)
            .unwrap_or_default()
            .to_owned()
    });
    judge_image(image, relay.ok_or_else(|| "no such image".to_owned()))
}

/// Whether `image` is a sandbox image on this machine, through the Docker
/// client, blocking this thread (for `player build`).
pub(crate) fn check_image_blocking(image: &str) -> Result<(), SandboxError> {
    let format = relay_format();
    let inspected = call_blocking(
        &["image", "inspect", "--format", &format, image],
        CALL_TIMEOUT,
    );
    judge_image(image, inspected)
}

/// What the image's relay label (`inspected`, or why it cannot be read)
/// says of `image`.
fn judge_image(image: &str, inspected: Result<String, String>) -> Result<(), SandboxError> {
    let relay = inspected.map_err(|_| SandboxError::ImageMissing(image.to_owned()))?;
    if relay.trim().is_empty() || relay.trim() == "<no value>" {
        return Err(SandboxError::NotSandboxImage(image.to_owned()));
    }
    Ok(())
}

/// What a sweep found and removed.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Swept {
    /// Containers left by match runners that are gone, now removed.
    pub containers: Vec<String>,
    /// Their run directories (with the game's socket), now removed.
    pub run_dirs: Vec<PathBuf>,
}

/// Removes the sandbox's containers and run directories whose match runner
/// (the owner in their label) no longer runs on this machine: what a killed
/// runner left behind. Containers of running processes (another match,
/// another worker) are left alone.
pub(crate) async fn sweep() -> Result<Swept, SandboxError> {
    let daemon = Daemon::from_env()?;
    let listed = daemon.list(LABEL, OWNER_LABEL).await?;
    let host = host_name();
    let mut swept = Swept::default();
    for container in listed {
        if owner_gone(&container.owner, &host) {
            if daemon.remove(&container.name).await? == Removal::Removed {
                tracing::info!(container = %container.name, "swept a sandboxed player's container left behind");
            }
            swept.containers.push(container.name);
        }
    }
    // The temporary directory may be large or slow: read on a blocking
    // thread.
    match tokio::task::spawn_blocking(move || sweep_run_dirs(&host)).await {
        Ok(run_dirs) => swept.run_dirs = run_dirs,
        Err(error) => tracing::warn!(%error, "the sweep of the sandbox's run directories failed"),
    }
    Ok(swept)
}

/// Removes the run directories whose match runner is gone; returns them.
fn sweep_run_dirs(host: &str) -> Vec<PathBuf> {
    let mut removed = Vec::new();
    if let Ok(entries) = std::fs::read_dir(std::env::temp_dir()) {
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let Some(pid) = name
                .strip_prefix("sl-sandbox-")
                .and_then(|rest| rest.split('-').next())
            else {
                continue;
            };
            if owner_gone(&format!("{host}:{pid}"), host)
                && std::fs::remove_dir_all(entry.path()).is_ok()
            {
                removed.push(entry.path());
            }
        }
    }
    removed
}

/// Whether `owner` (`HOST:PID`) is a process of this machine that has
/// ended. Owners on other machines sharing the daemon are not judged.
fn owner_gone(owner: &str, host: &str) -> bool {
    let Some((owner_host, pid)) = owner.rsplit_once(':') else {
        // Unlabelled by a runner: nobody will remove it.
        return true;
    };
    if owner_host != host {
        return false;
    }
    let Ok(pid) = pid.parse::<i32>() else {
        return true;
    };
    matches!(
        nix::sys::signal::kill(nix::unistd::Pid::from_raw(pid), None),
        Err(nix::errno::Errno::ESRCH)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_owner_is_gone_when_its_process_is() {
        let host = host_name();
        assert!(!owner_gone(&owner(), &host));
        // Past the kernel's largest process id.
        assert!(owner_gone(&format!("{host}:99999999"), &host));
        assert!(!owner_gone("another-machine:99999999", &host));
        assert!(owner_gone("", &host));
    }

    #[test]
    fn an_image_without_the_relay_label_is_no_sandbox_image() {
        assert!(judge_image("team:1", Ok("/sandbox/relay\n".to_owned())).is_ok());
        assert!(matches!(
            judge_image("team:1", Ok("<no value>\n".to_owned())),
            Err(SandboxError::NotSandboxImage(image)) if image == "team:1"
        ));
        assert!(matches!(
            judge_image("team:1", Err("No such image: team:1".to_owned())),
            Err(SandboxError::ImageMissing(image)) if image == "team:1"
        ));
    }

    #[test]
    fn a_failing_call_says_why_in_one_line() {
        let error = first_line("\n  Cannot connect to the Docker daemon\nmore\n", "exit 1");
        assert_eq!(error, "Cannot connect to the Docker daemon");
        assert_eq!(first_line("", "exit status: 1"), "exit status: 1");
    }
}
