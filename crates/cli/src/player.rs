//! Sandboxed players on the command line: `spielleiter player build`, a
//! team's player image from its upload, and the sandbox's limits for
//! `docker:` players of `match` and `tournament` (`--sandbox-*`).

use std::{path::PathBuf, time::Duration};

use anyhow::Context;
use clap::{Args, Subcommand};
use spielleiter_arena::Program;
use spielleiter_sandbox::{
    BuildRequest, DEFAULT_BUILD_TIMEOUT, Runtime, SandboxLimits, UploadLimits, build_player_image,
};

/// `spielleiter player …`.
#[derive(Debug, Subcommand)]
pub enum PlayerCommand {
    /// Build a team's player image from its upload, on the runtime's
    /// sandbox base image (docker/sandbox/build-base.sh), for
    /// `--player NAME=docker:NAME:VERSION`.
    Build(BuildArgs),
}

/// `spielleiter player build`.
#[derive(Debug, Args)]
pub struct BuildArgs {
    /// The team's upload: a zip archive or a directory. At its root:
    /// `start` (native; python and java too), or `main.py` (python, with
    /// its packages in `vendor/`), or one `*.jar` (java).
    #[arg(long, value_name = "DIR_OR_ZIP")]
    upload: PathBuf,
    /// What the player is made of: `native` (a Linux x86-64 program),
    /// `python` (Debian's Python 3) or `java` (Debian's JRE).
    #[arg(long, value_name = "RUNTIME")]
    runtime: Runtime,
    /// The image's name and version, e.g. `team-a:3`.
    #[arg(long, value_name = "NAME:VERSION")]
    tag: String,
    /// The base image [default: sl-sandbox-RUNTIME:latest].
    #[arg(long, value_name = "IMAGE")]
    base: Option<String>,
    /// Largest zip archive, in MiB.
    #[arg(long, default_value_t = 100, value_name = "MIB")]
    max_upload_mib: u64,
    /// Largest unpacked upload, in MiB (a zip bomb stops here).
    #[arg(long, default_value_t = 500, value_name = "MIB")]
    max_unpacked_mib: u64,
    /// Seconds `docker build` may take; past them the build is stopped and
    /// what it made removed.
    #[arg(
        long,
        default_value_t = DEFAULT_BUILD_TIMEOUT.as_secs(),
        value_parser = clap::value_parser!(u64).range(1..),
        value_name = "SECS"
    )]
    build_timeout_secs: u64,
}

/// Runs `player …`.
pub fn run(command: &PlayerCommand) -> anyhow::Result<()> {
    match command {
        PlayerCommand::Build(args) => build(args),
    }
}

fn build(args: &BuildArgs) -> anyhow::Result<()> {
    let scratch = tempfile::Builder::new()
        .prefix("sl-sandbox-build-")
        .tempdir()
        .context("cannot make a directory for the build context")?;
    let request = BuildRequest {
        upload: &args.upload,
        runtime: args.runtime,
        tag: &args.tag,
        base: args.base.as_deref(),
        limits: UploadLimits {
            max_upload_bytes: args.max_upload_mib.saturating_mul(MIB),
            max_unpacked_bytes: args.max_unpacked_mib.saturating_mul(MIB),
            ..UploadLimits::default()
        },
        timeout: Duration::from_secs(args.build_timeout_secs),
    };
    let tag = build_player_image(&request, scratch.path())?;
    println!("{tag}");
    Ok(())
}

const MIB: u64 = 1024 * 1024;

/// The sandbox's limits for `docker:` players (each also from its
/// `SPIELLEITER_SANDBOX_*` variable).
#[derive(Clone, Debug, Args)]
pub struct SandboxOptions {
    /// Cores a sandboxed player may use (CPU time per second).
    #[arg(
        long,
        env = "SPIELLEITER_SANDBOX_CPUS",
        default_value_t = 1.0,
        value_name = "CORES"
    )]
    sandbox_cpus: f64,
    /// Memory of a sandboxed player, in MiB (no swap; its /tmp counts too).
    #[arg(
        long,
        env = "SPIELLEITER_SANDBOX_MEMORY_MIB",
        default_value_t = 1024,
        value_name = "MIB"
    )]
    sandbox_memory_mib: u64,
    /// Processes and threads of a sandboxed player.
    #[arg(
        long,
        env = "SPIELLEITER_SANDBOX_PIDS",
        default_value_t = 128,
        value_name = "N"
    )]
    sandbox_pids: u32,
    /// Size of a sandboxed player's writable /tmp, in MiB.
    #[arg(
        long,
        env = "SPIELLEITER_SANDBOX_TMP_MIB",
        default_value_t = 64,
        value_name = "MIB"
    )]
    sandbox_tmp_mib: u64,
    /// Seconds a sandboxed player's container may run at all.
    #[arg(
        long,
        env = "SPIELLEITER_SANDBOX_WALL_CLOCK_SECS",
        default_value_t = 1500,
        value_name = "SECS"
    )]
    sandbox_wall_clock_secs: u64,
    /// Output of a sandboxed player kept per game, in KiB.
    #[arg(
        long,
        env = "SPIELLEITER_SANDBOX_LOG_KIB",
        default_value_t = 1024,
        value_name = "KIB"
    )]
    sandbox_log_kib: u64,
    /// The user (UID:GID) a sandboxed player runs as; not 0.
    #[arg(
        long,
        env = "SPIELLEITER_SANDBOX_USER",
        default_value = "65534:65534",
        value_name = "UID:GID"
    )]
    sandbox_user: String,
}

impl SandboxOptions {
    /// The limits these options give.
    ///
    /// # Errors
    ///
    /// A limit that is zero, not a number, or root as the user.
    pub fn limits(&self) -> anyhow::Result<SandboxLimits> {
        let cpus = self.sandbox_cpus;
        anyhow::ensure!(
            cpus.is_finite() && (0.01..=1024.0).contains(&cpus),
            "--sandbox-cpus {cpus}: from 0.01 to 1024 cores"
        );
        anyhow::ensure!(
            self.sandbox_memory_mib >= 16,
            "--sandbox-memory-mib: at least 16"
        );
        anyhow::ensure!(
            self.sandbox_pids >= 2,
            "--sandbox-pids: at least 2 (the relay and the player)"
        );
        anyhow::ensure!(self.sandbox_tmp_mib >= 1, "--sandbox-tmp-mib: at least 1");
        anyhow::ensure!(
            self.sandbox_wall_clock_secs >= 1,
            "--sandbox-wall-clock-secs: at least 1"
        );
        let user_ok = self.sandbox_user.split_once(':').is_some_and(|(uid, gid)| {
            uid.parse::<u32>().is_ok_and(|uid| uid != 0)
                && gid.parse::<u32>().is_ok_and(|gid| gid != 0)
        });
        anyhow::ensure!(
            user_ok,
            "--sandbox-user {}: numeric UID:GID, neither 0 (root)",
            self.sandbox_user
        );
        Ok(SandboxLimits {
            cpu_millis: (cpus * 1000.0).round() as u32,
            memory_bytes: self.sandbox_memory_mib.saturating_mul(MIB),
            pids: self.sandbox_pids,
            tmp_bytes: self.sandbox_tmp_mib.saturating_mul(MIB),
            wall_clock: Duration::from_secs(self.sandbox_wall_clock_secs),
            log_bytes: self.sandbox_log_kib.saturating_mul(1024),
            user: self.sandbox_user.clone(),
        })
    }

    /// `program` with these limits if it is a `docker:` player.
    ///
    /// # Errors
    ///
    /// As [`SandboxOptions::limits`].
    pub fn apply(&self, program: &Program) -> anyhow::Result<Program> {
        Ok(match program {
            Program::Docker(sandboxed) => {
                let mut sandboxed = sandboxed.clone();
                sandboxed.limits = self.limits()?;
                Program::Docker(sandboxed)
            }
            other => other.clone(),
        })
    }
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;

    #[derive(Debug, Parser)]
    struct Cli {
        #[command(flatten)]
        sandbox: SandboxOptions,
    }

    #[test]
    fn the_defaults_are_the_sandbox_defaults() {
        let cli = Cli::try_parse_from(["x"]).expect("defaults");
        assert_eq!(
            cli.sandbox.limits().expect("limits"),
            SandboxLimits::default()
        );
    }

    #[test]
    fn options_set_the_limits_of_docker_players_only() {
        let cli = Cli::try_parse_from([
            "x",
            "--sandbox-cpus",
            "0.5",
            "--sandbox-memory-mib",
            "256",
            "--sandbox-log-kib",
            "4",
        ])
        .expect("options");
        let program = cli
            .sandbox
            .apply(&"docker:team-a:3".parse().expect("docker"))
            .expect("applied");
        let Program::Docker(sandboxed) = program else {
            panic!("not a docker player");
        };
        assert_eq!(sandboxed.limits.cpu_millis, 500);
        assert_eq!(sandboxed.limits.memory_bytes, 256 * MIB);
        assert_eq!(sandboxed.limits.log_bytes, 4096);
        let builtin: Program = "builtin:greedy".parse().expect("builtin");
        assert_eq!(cli.sandbox.apply(&builtin).expect("applied"), builtin);
    }

    #[test]
    fn root_and_zero_limits_are_refused() {
        for args in [
            ["x", "--sandbox-user", "0:0"],
            ["x", "--sandbox-user", "nobody"],
            ["x", "--sandbox-cpus", "0"],
            ["x", "--sandbox-pids", "1"],
        ] {
            let cli = Cli::try_parse_from(args).expect("parsed");
            assert!(cli.sandbox.limits().is_err(), "{args:?}");
        }
    }
}
