//! [`Postgres`]: a PostgreSQL server a test starts itself from Debian's
//! programs (`initdb`, `pg_ctl` under `/usr/lib/postgresql/*/bin`, or on
//! `PATH`): its own data directory in a temporary directory, its own port,
//! stopped when dropped. As root the server runs as the `postgres` user
//! (it refuses root).
//!
//! A test that needs PostgreSQL fails when these programs are missing:
//! such tests carry `postgres` in their names, so that
//! `cargo test --workspace -- --skip postgres` leaves them out by name.

use std::{
    os::unix::fs::PermissionsExt,
    path::PathBuf,
    process::Command,
    sync::{
        Arc, Mutex, Weak,
        atomic::{AtomicU32, Ordering},
    },
};

use crate::free_port;

/// The password of the server's user `spielleiter`.
pub const POSTGRES_PASSWORD: &str = "season-test-password";

/// A PostgreSQL server of a test's own, with an empty database `season`;
/// stopped (and its data removed) when dropped.
#[derive(Debug)]
pub struct Postgres {
    dir: tempfile::TempDir,
    bin: PathBuf,
    port: u16,
    /// As root, the server runs as the `postgres` user.
    as_user: Option<&'static str>,
    /// The databases [`Postgres::fresh_database`] made so far.
    databases: AtomicU32,
}

/// Where `initdb` and `pg_ctl` are: the newest of Debian's versions, else
/// the first directory on `PATH` holding both.
fn postgres_bin() -> Option<PathBuf> {
    let mut candidates: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .map(|entry| entry.path().join("bin"))
        .collect();
    candidates.sort();
    candidates.reverse();
    if let Some(path) = std::env::var_os("PATH") {
        candidates.extend(std::env::split_paths(&path));
    }
    candidates
        .into_iter()
        .find(|dir| dir.join("initdb").is_file() && dir.join("pg_ctl").is_file())
}

/// The server the tests of this process running now share (see
/// [`Postgres::shared`]).
static SHARED: Mutex<Weak<Postgres>> = Mutex::new(Weak::new());

impl Postgres {
    /// Starts a server of this test's own.
    ///
    /// # Panics
    ///
    /// When PostgreSQL's programs are not installed (the message says how
    /// to install them, or to skip the tests that need them), or the server
    /// does not start.
    pub fn start() -> Postgres {
        let Some(bin) = postgres_bin() else {
            panic!(
                "this test needs PostgreSQL's programs (initdb, pg_ctl), found neither in \
                 /usr/lib/postgresql/*/bin nor on PATH: install them (Debian: apt-get install \
                 postgresql) or skip the tests that need them with \
                 `cargo test --workspace -- --skip postgres`"
            );
        };
        let root = Command::new("id")
            .arg("-u")
            .output()
            .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0");
        let dir = tempfile::tempdir().unwrap();
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
        let server = Postgres {
            dir,
            bin,
            port: free_port(),
            as_user: root.then_some("postgres"),
            databases: AtomicU32::new(0),
        };
        let data = server.data();
        std::fs::create_dir(&data).unwrap();
        std::fs::write(server.dir.path().join("pw"), POSTGRES_PASSWORD).unwrap();
        if let Some(user) = server.as_user {
            let chown = Command::new("chown")
                .args(["-R", user])
                .arg(server.dir.path())
                .status()
                .unwrap();
            assert!(chown.success());
        }
        let pwfile = format!("--pwfile={}", server.dir.path().join("pw").display());
        server.run(
            "initdb",
            &[
                "-D",
                data.to_str().unwrap(),
                "-U",
                "spielleiter",
                &pwfile,
                "--auth=scram-sha-256",
                "-E",
                "UTF8",
                "--no-sync",
            ],
        );
        server.pg_ctl("start");
        server.sql("postgres", "CREATE DATABASE season");
        server
    }

    /// A server shared by the tests of this process that run at the same
    /// time: started by the first, stopped when the last of them drops it
    /// (a later test starts another). For tests that only need a database
    /// of their own ([`Postgres::fresh_database`]), not a server to
    /// restart.
    ///
    /// # Panics
    ///
    /// As [`Postgres::start`].
    pub fn shared() -> Arc<Postgres> {
        let mut shared = SHARED
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(server) = shared.upgrade() {
            return server;
        }
        let server = Arc::new(Postgres::start());
        *shared = Arc::downgrade(&server);
        server
    }

    /// The server's port on 127.0.0.1.
    pub fn port(&self) -> u16 {
        self.port
    }

    fn data(&self) -> PathBuf {
        self.dir.path().join("data")
    }

    /// A command for one of PostgreSQL's programs, as the server's user.
    fn command(&self, program: &str) -> Command {
        let exe = self.bin.join(program);
        match self.as_user {
            Some(user) => {
                let mut command = Command::new("runuser");
                command.args(["-u", user, "--"]).arg(&exe);
                command
            }
            None => Command::new(&exe),
        }
    }

    fn run(&self, program: &str, args: &[&str]) {
        let output = self.command(program).args(args).output().unwrap();
        assert!(
            output.status.success(),
            "{program} failed: {}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
    }

    /// Runs `pg_ctl ACTION` (`start`, `stop`, `restart`) on the server,
    /// waiting until it is done; a stop ends the sessions at once (`fast`).
    pub fn pg_ctl(&self, action: &str) {
        let data = self.data();
        let log = self.dir.path().join("postgres.log");
        let options = format!(
            "-p {} -k {} -c listen_addresses=127.0.0.1 -c fsync=off",
            self.port,
            data.display()
        );
        self.run(
            "pg_ctl",
            &[
                "-D",
                data.to_str().unwrap(),
                "-l",
                log.to_str().unwrap(),
                "-o",
                &options,
                "-m",
                "fast",
                "-w",
                action,
            ],
        );
    }

    /// The connection URL of `database` as the user `spielleiter`.
    pub fn url(&self, database: &str) -> String {
        format!(
            "postgres://spielleiter:{POSTGRES_PASSWORD}@127.0.0.1:{}/{database}",
            self.port
        )
    }

    /// Makes an empty database no other caller gets; its name (for
    /// [`Postgres::url`] and [`Postgres::sql`]).
    pub fn fresh_database(&self) -> String {
        let number = self.databases.fetch_add(1, Ordering::Relaxed);
        let name = format!("test_{number}");
        self.sql("postgres", &format!("CREATE DATABASE {name}"));
        name
    }

    /// Runs `sql` in `database` with `psql`; its output, unaligned.
    pub fn sql(&self, database: &str, sql: &str) -> String {
        let output = Command::new(self.bin.join("psql"))
            .args(["-X", "-tA", "-v", "ON_ERROR_STOP=1", "-d"])
            .arg(self.url(database))
            .args(["-c", sql])
            .output()
            .unwrap();
        assert!(
            output.status.success(),
            "psql {sql}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        String::from_utf8_lossy(&output.stdout).trim().to_owned()
    }
}

impl Drop for Postgres {
    fn drop(&mut self) {
        let data = self.data();
        let _ = self
            .command("pg_ctl")
            .args([
                "-D",
                data.to_str().unwrap_or_default(),
                "-m",
                "immediate",
                "stop",
            ])
            .output();
    }
}
