//! Test support for the workspace's binaries run as a user runs them: a
//! program run in a directory and its output read, the free ports,
//! waits and scripts those tests share, and a PostgreSQL server a test
//! starts itself ([`Postgres`]). A dev-dependency of `spielleiter`,
//! `spielleiter-season` and `spielleiter-bench`; no product build links it.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test.

#[cfg(unix)]
mod postgres;

use std::{
    io::{BufRead, BufReader},
    net::TcpListener,
    path::{Path, PathBuf},
    process::{Child, Command, Output, Stdio},
    time::{Duration, Instant},
};

#[cfg(unix)]
pub use postgres::{POSTGRES_PASSWORD, Postgres};

/// A binary under test: its path (a test's `env!("CARGO_BIN_EXE_…")`,
/// which only the binary's own crate's tests have) and the environment
/// variables every run of it goes without.
#[derive(Debug, Clone, Copy)]
pub struct Program {
    path: &'static str,
    cleared: &'static [&'static str],
}

impl Program {
    /// The binary at `path`, run with the test's environment.
    pub const fn new(path: &'static str) -> Program {
        Program { path, cleared: &[] }
    }

    /// The same binary, each run without the environment variables
    /// `cleared` (settings a developer's shell may have set that would
    /// change what a test sees).
    pub const fn without(self, cleared: &'static [&'static str]) -> Program {
        Program { cleared, ..self }
    }

    /// Where the binary is, for scripts that run it.
    pub const fn path(&self) -> &'static str {
        self.path
    }

    /// A command for the binary in `dir`, without arguments yet.
    pub fn command(&self, dir: &Path) -> Command {
        let mut command = Command::new(self.path);
        command.current_dir(dir);
        for variable in self.cleared {
            command.env_remove(variable);
        }
        command
    }

    /// Starts `serve` with `args` on free ports (replays off) in `dir`, and
    /// reads its log up to the line that names the web side's address.
    pub fn serve(&self, dir: &Path, args: &[&str]) -> Served {
        let mut child = self
            .command(dir)
            .args([
                "serve",
                "--port",
                "0",
                "--http-port",
                "0",
                "--replays",
                "false",
            ])
            .args(args)
            .env("RUST_LOG", "info")
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
        let mut served = Served {
            child,
            address: String::new(),
            log: Vec::new(),
        };
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            assert!(Instant::now() < deadline, "no web address logged in time");
            let line = lines
                .next()
                .unwrap_or_else(|| panic!("the server ended before serving: {:?}", served.log))
                .unwrap();
            served.log.push(line.clone());
            if let Some((_, rest)) = line.split_once("web pages on http://") {
                served.address = rest.split('/').next().unwrap().to_owned();
                // Keep reading the log so that the server never blocks on it.
                std::thread::spawn(move || for _ in lines {});
                return served;
            }
        }
    }

    /// Runs the binary with `args` in `dir` to its end.
    pub fn run(&self, dir: &Path, args: &[&str]) -> Output {
        self.command(dir).args(args).output().unwrap()
    }

    /// Runs the binary with `args` in `dir`; fails unless it succeeds,
    /// else returns its standard output.
    pub fn succeeding(&self, dir: &Path, args: &[&str]) -> String {
        let output = self.run(dir, args);
        let text = stdout(&output);
        assert!(
            output.status.success(),
            "{args:?}: {text}\n{}",
            String::from_utf8_lossy(&output.stderr)
        );
        text
    }
}

/// A `serve` started by [`Program::serve`]; killed when the test ends,
/// however it ends.
#[derive(Debug)]
pub struct Served {
    child: Child,
    /// The web side's address (`host:port`).
    pub address: String,
    /// The log lines up to the one that names the address.
    pub log: Vec<String>,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A finished run's standard output as text.
pub fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// Fails unless the run succeeded (showing both its outputs), else returns
/// its standard output.
pub fn succeeded(output: &Output) -> String {
    let text = stdout(output);
    assert!(
        output.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    text
}

/// A loopback port that was free a moment ago (bound and let go): for a
/// server the test starts in another process, or for an address where
/// nobody listens.
pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Asks `done` every `every` until it says yes; fails, naming `what`, when
/// `limit` has passed first.
pub fn wait_until(what: &str, limit: Duration, every: Duration, mut done: impl FnMut() -> bool) {
    let deadline = Instant::now() + limit;
    while !done() {
        assert!(Instant::now() < deadline, "{what}: not within {limit:?}");
        std::thread::sleep(every);
    }
}

/// An executable shell script `name` in `dir` that runs `body`; its path.
#[cfg(unix)]
pub fn script(dir: &Path, name: &str, body: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    let executable = std::os::unix::fs::PermissionsExt::from_mode(0o755);
    std::fs::set_permissions(&path, executable).unwrap();
    path
}
