//! [`SandboxedPlayer`]: one seat's container, from start to removal — its
//! run directory and forwarder, its output cut into the seat's log, its
//! wall-clock limit, and its removal whatever happened.

use std::{
    fs::File,
    os::unix::fs::PermissionsExt,
    path::PathBuf,
    process::Stdio,
    sync::{
        Arc,
        atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering},
    },
    time::Duration,
};

use tokio::{
    io::{AsyncRead, AsyncReadExt, AsyncWriteExt},
    process::Child,
    task::JoinHandle,
};

use crate::{
    docker::{self, CALL_TIMEOUT},
    error::SandboxError,
    forwarder::Forwarder,
    limits::{ContainerSpec, SECCOMP_PROFILE, SOCKET_NAME},
    program::SandboxedProgram,
    turn::JoinTurn,
};

/// How long after the wall-clock limit the runner kills a container whose
/// relay did not end it.
const DEADLINE_MARGIN: Duration = Duration::from_secs(5);

/// How long the output may still arrive after the container has ended.
const OUTPUT_DRAIN: Duration = Duration::from_secs(5);

/// How often, and how far apart, Docker is asked whether a container that
/// ended by SIGKILL met its memory limit. Docker learns of an out-of-memory
/// kill from an event of its own, which can reach it after the container's
/// exit: asked at once, it said `false` for a memory bomb (seen in CI);
/// asked for a second, it still said `false` once in CI, with seven
/// hostile containers and two games on two cores: three seconds now (only
/// a container that ended by SIGKILL is asked at all).
const OOM_ASKS: u32 = 30;
const OOM_ASK_INTERVAL: Duration = Duration::from_millis(100);

/// Numbers the containers of this process.
static SEQUENCE: AtomicU32 = AtomicU32::new(0);

/// Where a seat's player connects to and where its output goes.
#[derive(Debug)]
pub struct Seat<'a> {
    /// The game server's host, as the runner reaches it.
    pub host: &'a str,
    /// The game server's port.
    pub port: u16,
    /// The seat's reservation code.
    pub reservation: &'a str,
    /// The seat's log, opened for appending.
    pub log: File,
    /// When the seat's player may join: its connections wait at the
    /// forwarder until then, so its container can start before it is the
    /// seat's turn.
    pub turn: JoinTurn,
}

/// A started sandboxed player.
#[derive(Debug)]
pub struct SandboxedPlayer {
    name: String,
    client: Child,
    output: Vec<JoinHandle<()>>,
    log: File,
    run_dir: PathBuf,
    forwarder: Option<Forwarder>,
    deadline: tokio::time::Instant,
    /// When `docker run` was started.
    started: std::time::Instant,
    removed: bool,
}

impl SandboxedPlayer {
    /// Starts `program`'s container for `seat`. Must be called within a
    /// Tokio runtime.
    ///
    /// # Errors
    ///
    /// The run directory or the socket cannot be made, or the Docker client
    /// cannot be started. (Docker's own refusal — an unknown image, say —
    /// shows in the log and in how the player ended.)
    pub fn start(program: &SandboxedProgram, seat: Seat<'_>) -> Result<Self, SandboxError> {
        let sequence = SEQUENCE.fetch_add(1, Ordering::Relaxed);
        let name = format!("sl-sandbox-{}-{sequence}", std::process::id());
        // The run directory holds the seccomp profile, which the Docker
        // client reads, and the directory of the game's socket, which alone
        // is mounted into the container.
        let run_dir = std::env::temp_dir().join(&name);
        let socket_dir = run_dir.join("socket");
        let seccomp_profile = run_dir.join("seccomp.json");
        let io = |e: std::io::Error| SandboxError::RunDir(run_dir.clone(), e);
        std::fs::create_dir_all(&socket_dir).map_err(io)?;
        for dir in [&run_dir, &socket_dir] {
            std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o755)).map_err(io)?;
        }
        std::fs::write(&seccomp_profile, SECCOMP_PROFILE).map_err(io)?;
        let started = std::time::Instant::now();
        let forwarder = Forwarder::start(
            &socket_dir.join(SOCKET_NAME),
            seat.host,
            seat.port,
            seat.log.try_clone().map_err(io)?,
            started,
            seat.turn,
        )
        .map_err(io)?;
        let args = program.limits.create_args(&ContainerSpec {
            name: &name,
            owner: &docker::owner(),
            image: &program.image,
            args: &program.args,
            socket_dir: &socket_dir,
            seccomp_profile: &seccomp_profile,
            reservation: seat.reservation,
        });
        let mut client = tokio::process::Command::new(docker::program())
            .args(&args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .map_err(|e| SandboxError::DockerMissing(format!("cannot run docker: {e}")))?;
        let budget = Arc::new(Budget::new(program.limits.log_bytes));
        let mut output = Vec::new();
        let streams: [Option<Box<dyn AsyncRead + Send + Unpin>>; 2] = [
            client.stdout.take().map(|s| Box::new(s) as _),
            client.stderr.take().map(|s| Box::new(s) as _),
        ];
        for stream in streams.into_iter().flatten() {
            let log = seat.log.try_clone().map_err(io)?;
            output.push(tokio::spawn(keep_output(stream, log, Arc::clone(&budget))));
        }
        tracing::info!(container = %name, image = %program.image, "sandboxed player started");
        Ok(SandboxedPlayer {
            name,
            client,
            output,
            log: seat.log,
            run_dir,
            forwarder: Some(forwarder),
            deadline: tokio::time::Instant::now() + program.limits.wall_clock + DEADLINE_MARGIN,
            started,
            removed: false,
        })
    }

    /// The container's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Waits until the container has ended (or kills it at its wall-clock
    /// limit), removes it, and describes how the player ended.
    pub async fn wait(&mut self) -> String {
        let status = tokio::time::timeout_at(self.deadline, self.client.wait()).await;
        let how = match status {
            Err(_) => {
                self.kill("the sandbox's wall-clock limit has passed").await;
                return "killed: the sandbox's wall-clock limit has passed".to_owned();
            }
            Ok(Err(error)) => format!("cannot wait for the container: {error}"),
            Ok(Ok(status)) => {
                // Only a SIGKILL may be the memory limit's; asking Docker
                // costs a call per seat.
                let out_of_memory =
                    status.code() == Some(137) && killed_for_memory(&self.name).await;
                describe(status.code(), out_of_memory)
            }
        };
        crate::append_note(
            &self.log,
            format_args!(
                "\n[spielleiter sandbox] the container ended: {how} ({} ms after it was started)",
                self.started.elapsed().as_millis()
            ),
        );
        self.finish().await;
        how
    }

    /// Ends the container by force, notes why in the log, and removes it.
    pub async fn kill(&mut self, why: &str) {
        crate::append_note(
            &self.log,
            format_args!("\n[spielleiter sandbox] killed: {why}"),
        );
        self.remove().await;
        let _ = self.client.start_kill();
        let _ = self.client.wait().await;
        self.finish().await;
    }

    /// Collects the rest of the output, removes the container and the run
    /// directory.
    async fn finish(&mut self) {
        drain_output(&mut self.output).await;
        self.remove().await;
        self.forwarder = None;
        let _ = std::fs::remove_dir_all(&self.run_dir);
    }

    async fn remove(&mut self) {
        if self.removed {
            return;
        }
        let started = std::time::Instant::now();
        match docker::call(&["rm", "--force", "--volumes", &self.name], CALL_TIMEOUT).await {
            Ok(_) => {
                self.removed = true;
                crate::append_note(
                    &self.log,
                    format_args!(
                        "[spielleiter sandbox] container {} removed in {} ms",
                        self.name,
                        started.elapsed().as_millis()
                    ),
                );
            }
            Err(error) if error.contains("No such container") => self.removed = true,
            Err(error) => {
                tracing::warn!(container = %self.name, %error, "cannot remove a sandboxed player's container (the next start's sweep will)");
            }
        }
    }
}

impl Drop for SandboxedPlayer {
    /// A player dropped before it was removed (its game task ended early):
    /// its container is removed in the background.
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.run_dir);
        if self.removed {
            return;
        }
        let name = self.name.clone();
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(async move {
                let _ = docker::call(&["rm", "--force", "--volumes", &name], CALL_TIMEOUT).await;
            });
        }
    }
}

/// Waits up to [`OUTPUT_DRAIN`] for each output task, then ends it.
///
/// A `wait` whose future was dropped half-way (the game loop selects over
/// the seats' waits) is called again later: a task it has already awaited
/// to its end is not polled again (tokio panics on that), and one that has
/// ended meanwhile needs no waiting.
async fn drain_output(tasks: &mut [JoinHandle<()>]) {
    for task in tasks {
        if task.is_finished() {
            continue;
        }
        if tokio::time::timeout(OUTPUT_DRAIN, &mut *task)
            .await
            .is_err()
        {
            task.abort();
        }
    }
}

/// Whether Docker says the container `name` was killed at its memory
/// limit, asked [`OOM_ASKS`] times at most, since Docker may learn it only
/// after the container's exit.
async fn killed_for_memory(name: &str) -> bool {
    for ask in 0..OOM_ASKS {
        if ask > 0 {
            tokio::time::sleep(OOM_ASK_INTERVAL).await;
        }
        let state = docker::call(
            &["inspect", "--format", "{{.State.OOMKilled}}", name],
            CALL_TIMEOUT,
        )
        .await;
        match state {
            Ok(state) if state.trim() == "true" => return true,
            Ok(_) => {}
            // Gone or not answering: asking again will not tell more.
            Err(_) => return false,
        }
    }
    false
}

/// How a container ended, from the Docker client's exit status.
fn describe(code: Option<i32>, out_of_memory: bool) -> String {
    match code {
        _ if out_of_memory => "killed: out of memory (the sandbox's memory limit)".to_owned(),
        Some(0) => "exit status: 0".to_owned(),
        Some(124) => "killed: the sandbox's wall-clock limit has passed".to_owned(),
        Some(125) => "docker could not run the container (see the log)".to_owned(),
        Some(code @ 129..=192) => format!("killed by signal {}", code - 128),
        Some(code) => format!("exit status: {code}"),
        None => "the docker client was killed".to_owned(),
    }
}

/// What may still be kept of one player's output (its two streams share
/// it), and whether the cut was noted.
#[derive(Debug)]
struct Budget {
    left: AtomicU64,
    limit: u64,
    noted: AtomicBool,
}

impl Budget {
    fn new(limit: u64) -> Self {
        Budget {
            left: AtomicU64::new(limit),
            limit,
            noted: AtomicBool::new(false),
        }
    }

    /// Takes up to `wanted` bytes; returns how many may be kept.
    fn take(&self, wanted: u64) -> u64 {
        self.left
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |left| {
                Some(left.saturating_sub(wanted))
            })
            .map_or(0, |left| left.min(wanted))
    }
}

/// Copies `stream` into `log` while the budget lasts, then notes once that
/// the output was cut, and reads the rest without keeping it (a player
/// blocked on a full pipe would lose on time for its chattiness alone).
async fn keep_output(
    mut stream: Box<dyn AsyncRead + Send + Unpin>,
    log: File,
    budget: Arc<Budget>,
) {
    let mut log = tokio::fs::File::from_std(log);
    let mut buffer = vec![0; 16 * 1024];
    loop {
        let read = match stream.read(&mut buffer).await {
            Ok(0) | Err(_) => break,
            Ok(read) => read,
        };
        let granted = budget.take(read as u64);
        if granted > 0 {
            let _ = log.write_all(&buffer[..granted as usize]).await;
        }
        if granted < read as u64 && !budget.noted.swap(true, Ordering::SeqCst) {
            let note = format!(
                "\n[spielleiter sandbox] output cut at {} bytes (the sandbox's log limit)\n",
                budget.limit
            );
            let _ = log.write_all(note.as_bytes()).await;
        }
    }
    let _ = log.flush().await;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn endings_are_named() {
        assert_eq!(describe(Some(0), false), "exit status: 0");
        assert!(describe(Some(137), true).contains("out of memory"));
        assert_eq!(describe(Some(137), false), "killed by signal 9");
        assert!(describe(Some(124), false).contains("wall-clock"));
        assert!(describe(Some(125), false).contains("docker could not run"));
    }

    #[tokio::test(start_paused = true)]
    async fn output_tasks_may_be_drained_again_after_a_drain_was_dropped() {
        let mut tasks = vec![tokio::spawn(async {}), tokio::spawn(std::future::pending())];
        // A first drain, dropped while it waits for the second task (as the
        // game loop drops a seat's `wait`): the first task was awaited to
        // its end.
        let first = tokio::time::timeout(Duration::from_millis(50), drain_output(&mut tasks)).await;
        assert!(first.is_err(), "the pending task was waited for");
        assert!(tasks[0].is_finished());
        // Again, in full: no task is polled after its end; the pending one
        // is ended at the limit.
        drain_output(&mut tasks).await;
        tokio::task::yield_now().await;
        assert!(tasks[1].is_finished());
    }

    #[tokio::test]
    async fn output_is_cut_at_the_limit_across_both_streams() {
        let dir = tempfile::tempdir().expect("dir");
        let path = dir.path().join("player.log");
        let log = File::create(&path).expect("log");
        let budget = Arc::new(Budget::new(1000));
        let clone = log.try_clone().expect("clone");
        keep_output(Box::new(&[b'o'; 700][..]), clone, Arc::clone(&budget)).await;
        keep_output(Box::new(&[b'e'; 700][..]), log, budget).await;
        let text = std::fs::read_to_string(&path).expect("read");
        let (kept, note) = text.split_at(1000);
        assert_eq!(kept, format!("{}{}", "o".repeat(700), "e".repeat(300)));
        assert_eq!(
            note,
            "\n[spielleiter sandbox] output cut at 1000 bytes (the sandbox's log limit)\n"
        );
    }
}
