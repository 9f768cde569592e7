//! [`SandboxedPlayer`]: one seat's container, from its creation to its
//! removal — its run directory and forwarder, its output cut into the
//! seat's log, its wall-clock limit, and its removal whatever happened.
//!
//! Each container's calls of the Docker daemon are one task of its own
//! (`Life`), started with the player: create, attach to the output and
//! register the wait for its end (side by side), start; then the wait for
//! its end (or its wall clock, or the runner's kill), the memory limit's
//! question for a container that ended by SIGKILL, and the removal. The
//! seats' tasks run side by side, so a game's containers are created,
//! started and removed at the same time.

use std::{
    fs::File,
    os::unix::fs::PermissionsExt,
    path::PathBuf,
    sync::atomic::{AtomicU32, Ordering},
    time::Duration,
};

use tokio::{
    io::{AsyncRead, AsyncReadExt, AsyncWriteExt},
    sync::{oneshot, watch},
    task::JoinHandle,
};

use crate::{
    api::{Daemon, DaemonError, Frames, Removal},
    docker,
    error::SandboxError,
    forwarder::Forwarder,
    limits::{ContainerSpec, Guard, SOCKET_NAME, WITHOUT_VARIABLE},
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

/// How the output is read from the daemon: a few frames at a time.
const OUTPUT_BUFFER: usize = 16 * 1024;

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
    log: File,
    run_dir: PathBuf,
    forwarder: Option<Forwarder>,
    /// Asks the container's task to end the container now. Dropped, it asks
    /// the same: a player dropped early is removed by its task.
    stop: watch::Sender<bool>,
    /// How the container ended, when its task tells.
    ended: Option<oneshot::Receiver<String>>,
    /// How it ended, once told.
    how: Option<String>,
    /// The container's task, which ends once the container is removed.
    life: Option<JoinHandle<()>>,
}

impl SandboxedPlayer {
    /// Starts `program`'s container for `seat`: its calls of the daemon go
    /// on in a task of their own. Must be called within a Tokio runtime.
    ///
    /// # Errors
    ///
    /// The run directory or the socket cannot be made, or `DOCKER_HOST`
    /// names no Unix socket. (Docker's own refusal — an unknown image, say —
    /// shows in the log and in how the player ended.)
    pub fn start(program: &SandboxedProgram, seat: Seat<'_>) -> Result<Self, SandboxError> {
        Self::start_on(Daemon::from_env()?, program, seat)
    }

    /// [`start`](Self::start) on `daemon`.
    pub(crate) fn start_on(
        daemon: Daemon,
        program: &SandboxedProgram,
        seat: Seat<'_>,
    ) -> Result<Self, SandboxError> {
        let without = Guard::dropped_for_tests().map_err(SandboxError::UnknownGuard)?;
        let sequence = SEQUENCE.fetch_add(1, Ordering::Relaxed);
        let name = format!("sl-sandbox-{}-{sequence}", std::process::id());
        // The run directory holds the directory of the game's socket, which
        // alone is mounted into the container.
        let run_dir = std::env::temp_dir().join(&name);
        let socket_dir = run_dir.join("socket");
        let io = |e: std::io::Error| SandboxError::RunDir(run_dir.clone(), e);
        std::fs::create_dir_all(&socket_dir).map_err(io)?;
        for dir in [&run_dir, &socket_dir] {
            std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o755)).map_err(io)?;
        }
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
        let request = program
            .limits
            .create_request(
                &ContainerSpec {
                    owner: &docker::owner(),
                    image: &program.image,
                    args: &program.args,
                    socket_dir: &socket_dir,
                    reservation: seat.reservation,
                },
                &without,
            )
            .to_string()
            .into_bytes();
        if !without.is_empty() {
            let left_out = without
                .iter()
                .map(|guard| guard.option())
                .collect::<Vec<_>>();
            tracing::warn!(container = %name, without = %left_out.join(" "), "a test's sandboxed player: its container lacks guards ({WITHOUT_VARIABLE})");
            crate::append_note(
                &seat.log,
                format_args!(
                    "[spielleiter sandbox] a test's container: without {} ({WITHOUT_VARIABLE})",
                    left_out.join(", ")
                ),
            );
        }
        let (stop, stopped) = watch::channel(false);
        let (tell, ended) = oneshot::channel();
        let life = Life {
            daemon,
            name: name.clone(),
            request,
            log: seat.log.try_clone().map_err(io)?,
            log_bytes: program.limits.log_bytes,
            started,
            deadline: tokio::time::Instant::now() + program.limits.wall_clock + DEADLINE_MARGIN,
        };
        let life = tokio::spawn(life.run(stopped, tell));
        tracing::info!(container = %name, image = %program.image, "sandboxed player started");
        Ok(SandboxedPlayer {
            name,
            log: seat.log,
            run_dir,
            forwarder: Some(forwarder),
            stop,
            ended: Some(ended),
            how: None,
            life: Some(life),
        })
    }

    /// The container's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Waits until the container has ended (or is killed at its wall-clock
    /// limit) and is removed, and describes how the player ended.
    ///
    /// Cancel-safe: a `wait` dropped half-way (the game loop selects over
    /// the seats' waits) goes on where it was when called again.
    pub async fn wait(&mut self) -> String {
        let how = self.ended().await;
        self.finish().await;
        how
    }

    /// Ends the container by force, notes why in the log, and removes it.
    pub async fn kill(&mut self, why: &str) {
        crate::append_note(
            &self.log,
            format_args!("\n[spielleiter sandbox] killed: {why}"),
        );
        self.stop.send_replace(true);
        self.ended().await;
        self.finish().await;
    }

    /// How the container ended, once its task tells.
    async fn ended(&mut self) -> String {
        if let Some(ended) = &mut self.ended {
            let how = ended
                .await
                .unwrap_or_else(|_| "the container's task ended without telling how".to_owned());
            self.ended = None;
            self.how = Some(how);
        }
        self.how.clone().unwrap_or_default()
    }

    /// Waits for the container's removal; closes the socket and removes
    /// the run directory.
    async fn finish(&mut self) {
        if let Some(life) = &mut self.life {
            if let Err(error) = life.await {
                tracing::warn!(container = %self.name, %error, "the task of a sandboxed player's container failed");
            }
            self.life = None;
        }
        self.forwarder = None;
        let _ = std::fs::remove_dir_all(&self.run_dir);
    }
}

impl Drop for SandboxedPlayer {
    /// A player dropped before it was removed (its game task ended early):
    /// its task, told by the dropped `stop`, removes the container in the
    /// background.
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.run_dir);
    }
}

/// One container's calls of the daemon, from its creation to its removal.
struct Life {
    daemon: Daemon,
    name: String,
    /// The create request's JSON.
    request: Vec<u8>,
    log: File,
    log_bytes: u64,
    /// When the player was started (the times in the log count from it).
    started: std::time::Instant,
    /// When the runner kills a container its relay did not end.
    deadline: tokio::time::Instant,
}

/// How a container's run ended, as its task saw it.
enum Ended {
    /// It ended by itself: how (noted with its time).
    Exited(String),
    /// It never ran (Docker refused a step; noted in the log): how.
    NotRun(String),
    /// It is ended by force (the runner's kill, or its wall clock): how.
    Killed(String),
}

impl Life {
    /// Notes in the seat's log how the container ended, and when.
    fn note_end(&self, how: &str) {
        crate::append_note(
            &self.log,
            format_args!(
                "\n[spielleiter sandbox] the container ended: {how} ({} ms after it was started)",
                self.started.elapsed().as_millis()
            ),
        );
    }

    /// Runs the container to its end, tells how it ended, and removes it.
    async fn run(self, mut stop: watch::Receiver<bool>, tell: oneshot::Sender<String>) {
        let mut output = None;
        let ended = self.until_ended(&mut stop, &mut output).await;
        let never_ran = matches!(ended, Ended::NotRun(_));
        match ended {
            Ended::Exited(how) => {
                if let Some(task) = &mut output {
                    drain_output(task).await;
                }
                self.note_end(&how);
                let _ = tell.send(how);
                self.remove().await;
            }
            Ended::NotRun(how) | Ended::Killed(how) => {
                // Removed by force first: that ends it, and its output.
                self.remove().await;
                if let Some(task) = &mut output {
                    drain_output(task).await;
                }
                if never_ran {
                    self.note_end(&how);
                }
                let _ = tell.send(how);
            }
        }
    }

    /// Creates and starts the container and waits for its end: whatever
    /// fails on the way is noted in the log, as the end of a container
    /// that never ran. The output's task is left in `output`.
    async fn until_ended(
        &self,
        stop: &mut watch::Receiver<bool>,
        output: &mut Option<JoinHandle<()>>,
    ) -> Ended {
        let killed = || Ended::Killed("killed".to_owned());
        let not_run = |what: &str, error: DaemonError| {
            tracing::warn!(container = %self.name, %error, "docker could not {what} a sandboxed player's container");
            crate::append_note(
                &self.log,
                format_args!(
                    "[spielleiter sandbox] docker could not {what} the container: {error}"
                ),
            );
            Ended::NotRun(describe(Some(125), false))
        };
        match self.daemon.create(&self.name, &self.request).await {
            Ok(warnings) => {
                for warning in warnings {
                    tracing::warn!(container = %self.name, %warning, "the Docker daemon's warning on creating a sandboxed player's container");
                }
            }
            Err(error) => return not_run("create", error),
        }
        let created = self.started.elapsed();
        if stopping(stop) {
            return killed();
        }
        // Both before the start, so that neither output nor end is missed.
        let (attached, waiting) = tokio::join!(
            self.daemon.attach(&self.name),
            self.daemon.wait_next_exit(&self.name)
        );
        match attached {
            Ok(stream) => {
                let log = match self.log.try_clone() {
                    Ok(log) => log,
                    Err(error) => {
                        tracing::warn!(container = %self.name, %error, "cannot write a sandboxed player's output to its log");
                        return Ended::NotRun(format!(
                            "cannot write the output to the log: {error}"
                        ));
                    }
                };
                *output = Some(tokio::spawn(keep_output(stream, log, self.log_bytes)));
            }
            Err(error) => return not_run("attach to", error),
        }
        let waiting = match waiting {
            Ok(waiting) => waiting,
            Err(error) => return not_run("wait for", error),
        };
        if stopping(stop) {
            return killed();
        }
        if let Err(error) = self.daemon.start(&self.name).await {
            return not_run("start", error);
        }
        crate::append_note(
            &self.log,
            format_args!(
                "[spielleiter sandbox] container {} created in {} ms, started {} ms after the player was",
                self.name,
                created.as_millis(),
                self.started.elapsed().as_millis()
            ),
        );
        let status = tokio::select! {
            status = waiting.status() => status,
            _ = stop.wait_for(|stop| *stop) => return killed(),
            () = tokio::time::sleep_until(self.deadline) => {
                let why = "the sandbox's wall-clock limit has passed";
                crate::append_note(&self.log, format_args!("\n[spielleiter sandbox] killed: {why}"));
                return Ended::Killed(format!("killed: {why}"));
            }
        };
        match status {
            Ok(code) => {
                let code = i32::try_from(code).ok();
                // Only a SIGKILL may be the memory limit's; asking Docker
                // costs a call per seat.
                let out_of_memory = code == Some(137) && self.killed_for_memory().await;
                Ended::Exited(describe(code, out_of_memory))
            }
            Err(error) => {
                tracing::warn!(container = %self.name, %error, "cannot wait for a sandboxed player's container");
                Ended::Exited(format!("cannot wait for the container: {error}"))
            }
        }
    }

    /// Whether Docker says the container was killed at its memory limit,
    /// asked [`OOM_ASKS`] times at most, since Docker may learn it only
    /// after the container's exit.
    async fn killed_for_memory(&self) -> bool {
        for ask in 0..OOM_ASKS {
            if ask > 0 {
                tokio::time::sleep(OOM_ASK_INTERVAL).await;
            }
            match self.daemon.oom_killed(&self.name).await {
                Ok(true) => return true,
                Ok(false) => {}
                // Gone or not answering: asking again will not tell more.
                Err(error) => {
                    tracing::warn!(container = %self.name, %error, "cannot ask whether a sandboxed player met its memory limit");
                    return false;
                }
            }
        }
        false
    }

    /// Removes the container (by force), noting how long it took.
    async fn remove(&self) {
        let started = std::time::Instant::now();
        match self.daemon.remove(&self.name).await {
            Ok(Removal::Removed) => crate::append_note(
                &self.log,
                format_args!(
                    "[spielleiter sandbox] container {} removed in {} ms",
                    self.name,
                    started.elapsed().as_millis()
                ),
            ),
            Ok(Removal::Gone) => {}
            Err(error) => {
                tracing::warn!(container = %self.name, %error, "cannot remove a sandboxed player's container (the next start's sweep will)");
            }
        }
    }
}

/// Whether the runner asks the container to end (or is gone).
fn stopping(stop: &watch::Receiver<bool>) -> bool {
    *stop.borrow() || stop.has_changed().is_err()
}

/// Waits up to [`OUTPUT_DRAIN`] for the output's task, then ends it.
///
/// A task awaited to its end already is not polled again (tokio panics on
/// that), and one that has ended meanwhile needs no waiting.
async fn drain_output(task: &mut JoinHandle<()>) {
    if task.is_finished() {
        return;
    }
    if tokio::time::timeout(OUTPUT_DRAIN, &mut *task)
        .await
        .is_err()
    {
        task.abort();
    }
}

/// How a container ended, from its exit status (125: Docker could not run
/// it, as `docker run` says).
fn describe(code: Option<i32>, out_of_memory: bool) -> String {
    match code {
        _ if out_of_memory => "killed: out of memory (the sandbox's memory limit)".to_owned(),
        Some(0) => "exit status: 0".to_owned(),
        Some(124) => "killed: the sandbox's wall-clock limit has passed".to_owned(),
        Some(125) => "docker could not run the container (see the log)".to_owned(),
        Some(code @ 129..=192) => format!("killed by signal {}", code - 128),
        Some(code) => format!("exit status: {code}"),
        None => "an exit status out of range".to_owned(),
    }
}

/// Copies the payloads of Docker's output stream (standard output and
/// error, [`Frames`]) into `log` while `limit` bytes last, then notes once
/// that the output was cut, and reads the rest without keeping it (a
/// player blocked on a full pipe would lose on time for its chattiness
/// alone).
async fn keep_output(mut stream: impl AsyncRead + Unpin, log: File, limit: u64) {
    let mut log = tokio::fs::File::from_std(log);
    let mut frames = Frames::default();
    let mut buffer = vec![0; OUTPUT_BUFFER];
    let mut payload = Vec::with_capacity(OUTPUT_BUFFER);
    let mut left = limit;
    let mut noted = false;
    loop {
        let read = match stream.read(&mut buffer).await {
            Ok(0) | Err(_) => break,
            Ok(read) => read,
        };
        payload.clear();
        frames.feed(&buffer[..read], |bytes| payload.extend_from_slice(bytes));
        let wanted = payload.len() as u64;
        let granted = left.min(wanted);
        left -= granted;
        if granted > 0 {
            let _ = log.write_all(&payload[..granted as usize]).await;
        }
        if granted < wanted && !std::mem::replace(&mut noted, true) {
            let note = format!(
                "\n[spielleiter sandbox] output cut at {limit} bytes (the sandbox's log limit)\n"
            );
            let _ = log.write_all(note.as_bytes()).await;
        }
    }
    let _ = log.flush().await;
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test.
mod tests {
    use std::sync::{Arc, Mutex};

    use super::*;
    use crate::{
        api::tests::{Fake, Reply, Seen, fake},
        limits::SandboxLimits,
    };

    #[test]
    fn endings_are_named() {
        assert_eq!(describe(Some(0), false), "exit status: 0");
        assert!(describe(Some(137), true).contains("out of memory"));
        assert_eq!(describe(Some(137), false), "killed by signal 9");
        assert!(describe(Some(124), false).contains("wall-clock"));
        assert!(describe(Some(125), false).contains("docker could not run"));
    }

    #[tokio::test(start_paused = true)]
    async fn the_output_may_be_drained_again_after_a_drain_was_dropped() {
        let mut done = tokio::spawn(async {});
        drain_output(&mut done).await;
        assert!(done.is_finished());
        drain_output(&mut done).await;
        let mut pending = tokio::spawn(std::future::pending::<()>());
        let first =
            tokio::time::timeout(Duration::from_millis(50), drain_output(&mut pending)).await;
        assert!(first.is_err(), "the pending task was waited for");
        // Again, in full: ended at the limit.
        drain_output(&mut pending).await;
        tokio::task::yield_now().await;
        assert!(pending.is_finished());
    }

    /// Frames of Docker's output stream: `(stream, payload)` each.
    fn framed(frames: &[(u8, &[u8])]) -> Vec<u8> {
        let mut stream = Vec::new();
        for (kind, payload) in frames {
            stream.extend_from_slice(&[*kind, 0, 0, 0]);
            stream.extend_from_slice(&u32::try_from(payload.len()).unwrap().to_be_bytes());
            stream.extend_from_slice(payload);
        }
        stream
    }

    #[tokio::test]
    async fn output_is_cut_at_the_limit_across_both_streams() {
        let dir = tempfile::tempdir().expect("dir");
        let path = dir.path().join("player.log");
        let log = File::create(&path).expect("log");
        let stream = framed(&[(1, &[b'o'; 700]), (2, &[b'e'; 700]), (1, &[b'o'; 10])]);
        keep_output(&stream[..], log, 1000).await;
        let text = std::fs::read_to_string(&path).expect("read");
        let (kept, note) = text.split_at(1000);
        assert_eq!(kept, format!("{}{}", "o".repeat(700), "e".repeat(300)));
        assert_eq!(
            note,
            "\n[spielleiter sandbox] output cut at 1000 bytes (the sandbox's log limit)\n"
        );
    }

    /// A daemon for one container: it answers each step of its life;
    /// `exit` is what its wait answers (after `runs`, or never).
    fn daemon_for(exit: Option<(Duration, &'static str)>) -> impl Fn(&Seen) -> Reply + Send + Sync {
        move |seen: &Seen| {
            let path = seen.path.as_str();
            if path.starts_with("/containers/create") {
                Reply::status(201, r#"{"Id":"abc","Warnings":[]}"#)
            } else if path.contains("/attach") {
                let mut now =
                    b"HTTP/1.1 101 UPGRADED\r\nConnection: Upgrade\r\nUpgrade: tcp\r\n\r\n"
                        .to_vec();
                now.extend_from_slice(&framed(&[(1, b"hello from the player\n")]));
                Reply {
                    now,
                    later: exit.map(|(runs, _)| (runs, Vec::new())),
                }
            } else if path.contains("/wait") {
                let now = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n".to_vec();
                Reply {
                    now,
                    later: exit.map(|(runs, body)| {
                        (
                            runs,
                            format!("{:x}\r\n{body}\r\n0\r\n\r\n", body.len()).into_bytes(),
                        )
                    }),
                }
            } else if path.ends_with("/start") {
                Reply::status(204, "")
            } else if path.ends_with("/json") {
                Reply::status(200, r#"{"State":{"OOMKilled":true}}"#)
            } else if seen.method == "DELETE" {
                Reply::status(204, "")
            } else {
                Reply::status(404, r#"{"message":"unexpected"}"#)
            }
        }
    }

    struct Started {
        fake: Fake,
        player: SandboxedPlayer,
        log: PathBuf,
        _dir: tempfile::TempDir,
    }

    async fn start(answer: impl Fn(&Seen) -> Reply + Send + Sync + 'static) -> Started {
        let fake = fake(answer).await;
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("player.log");
        let program = SandboxedProgram {
            image: "team:1".to_owned(),
            args: Vec::new(),
            limits: SandboxLimits::default(),
        };
        let player = SandboxedPlayer::start_on(
            fake.daemon(),
            &program,
            Seat {
                host: "127.0.0.1",
                port: 1,
                reservation: "CODE",
                log: File::create(&log).unwrap(),
                turn: JoinTurn::given(),
            },
        )
        .unwrap();
        Started {
            fake,
            player,
            log,
            _dir: dir,
        }
    }

    /// The calls of the container's life, in order, without its name.
    fn steps(fake: &Fake, name: &str) -> Vec<String> {
        fake.calls()
            .iter()
            .map(|call| call.replace(name, "NAME"))
            .collect()
    }

    #[tokio::test]
    async fn a_container_is_created_attached_waited_for_started_and_removed() {
        let mut started = start(daemon_for(Some((
            Duration::from_millis(100),
            r#"{"StatusCode":0,"Error":null}"#,
        ))))
        .await;
        let name = started.player.name().to_owned();
        assert_eq!(started.player.wait().await, "exit status: 0");
        let steps = steps(&started.fake, &name);
        assert_eq!(steps[0], "POST /containers/create?name=NAME");
        let mut middle = steps[1..3].to_vec();
        middle.sort();
        assert_eq!(
            middle,
            [
                "POST /containers/NAME/attach?stream=1&stdout=1&stderr=1",
                "POST /containers/NAME/wait?condition=next-exit"
            ]
        );
        assert_eq!(
            steps[3..],
            [
                "POST /containers/NAME/start",
                "DELETE /containers/NAME?force=1&v=1"
            ]
        );
        let request = started.fake.seen()[0].json();
        assert_eq!(request["Image"], "team:1");
        assert_eq!(request["HostConfig"]["CapDrop"], serde_json::json!(["ALL"]));
        let log = std::fs::read_to_string(&started.log).unwrap();
        assert!(log.contains("hello from the player\n"), "{log}");
        assert!(
            log.contains(&format!("container {name} created in ")),
            "{log}"
        );
        assert!(
            log.contains("the container ended: exit status: 0 ("),
            "{log}"
        );
        assert!(
            log.contains(&format!("container {name} removed in ")),
            "{log}"
        );
        // The output is in the log before the end's note.
        assert!(log.find("hello").unwrap() < log.find("the container ended").unwrap());
        // Waiting again tells the same, and calls nothing more.
        assert_eq!(started.player.wait().await, "exit status: 0");
        assert_eq!(started.fake.calls().len(), 5);
    }

    #[tokio::test]
    async fn a_sigkill_is_asked_about_the_memory_limit() {
        let mut started = start(daemon_for(Some((
            Duration::from_millis(10),
            r#"{"StatusCode":137,"Error":null}"#,
        ))))
        .await;
        let name = started.player.name().to_owned();
        assert!(started.player.wait().await.contains("out of memory"));
        assert!(steps(&started.fake, &name).contains(&"GET /containers/NAME/json".to_owned()));
    }

    #[tokio::test]
    async fn a_killed_player_s_container_is_removed_by_force() {
        let mut started = start(daemon_for(None)).await;
        let name = started.player.name().to_owned();
        // Let it start; it would run for ever.
        for _ in 0..100 {
            if started.fake.calls().iter().any(|c| c.ends_with("/start")) {
                break;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        tokio::time::timeout(Duration::from_secs(5), started.player.kill("too slow"))
            .await
            .expect("the kill ends in time");
        assert_eq!(
            steps(&started.fake, &name).last().map(String::as_str),
            Some("DELETE /containers/NAME?force=1&v=1")
        );
        let log = std::fs::read_to_string(&started.log).unwrap();
        assert!(log.contains("killed: too slow"), "{log}");
        assert!(log.contains("removed in"), "{log}");
    }

    #[tokio::test]
    async fn a_dropped_player_s_container_is_removed_in_the_background() {
        let started = start(daemon_for(None)).await;
        let name = started.player.name().to_owned();
        drop(started.player);
        for _ in 0..200 {
            if started.fake.calls().iter().any(|c| c.starts_with("DELETE")) {
                break;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        assert_eq!(
            steps(&started.fake, &name).last().map(String::as_str),
            Some("DELETE /containers/NAME?force=1&v=1")
        );
    }

    #[tokio::test]
    async fn a_refused_create_is_the_end_of_a_container_that_never_ran() {
        let removed = Arc::new(Mutex::new(0));
        let counted = Arc::clone(&removed);
        let mut started = start(move |seen: &Seen| {
            if seen.method == "DELETE" {
                *counted.lock().unwrap() += 1;
                Reply::status(404, r#"{"message":"No such container"}"#)
            } else {
                Reply::status(404, r#"{"message":"No such image: team:1"}"#)
            }
        })
        .await;
        let how = started.player.wait().await;
        assert_eq!(how, "docker could not run the container (see the log)");
        let log = std::fs::read_to_string(&started.log).unwrap();
        assert!(
            log.contains("docker could not create the container: POST /containers/create?name="),
            "{log}"
        );
        assert!(log.contains("No such image: team:1"), "{log}");
        // No start; the removal is tried (a container may be half made).
        assert!(!started.fake.calls().iter().any(|c| c.ends_with("/start")));
        assert_eq!(*removed.lock().unwrap(), 1);
    }
}
