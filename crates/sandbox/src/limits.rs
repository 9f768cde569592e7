//! [`SandboxLimits`]: what a sandboxed player may use (CPU, memory,
//! processes, `/tmp`, time, log size, which user it runs as), their safe
//! defaults, and the `docker run` options that enforce them with the
//! sandbox's own seccomp profile ([`SECCOMP_PROFILE`]).

use std::{path::Path, time::Duration};

/// The limits of one sandboxed player, each with a safe default
/// ([`SandboxLimits::default`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SandboxLimits {
    /// CPU time per wall-clock second, in thousandths of a core (`--cpus`).
    pub cpu_millis: u32,
    /// Memory, in bytes; swap is not allowed (`--memory` = `--memory-swap`).
    pub memory_bytes: u64,
    /// Processes and threads of the container together (`--pids-limit`).
    pub pids: u32,
    /// Size of the writable `/tmp`, and of `/dev/shm` (POSIX shared
    /// memory): each a tmpfs, counted in the memory too.
    pub tmp_bytes: u64,
    /// How long the container may run at all; past it, it is killed (by
    /// the relay inside, and by the match runner outside).
    pub wall_clock: Duration,
    /// How much of the player's standard output and error is kept per game.
    pub log_bytes: u64,
    /// The user (`UID:GID`) the player runs as: not root, and owning no file
    /// of the image.
    pub user: String,
}

const MIB: u64 = 1024 * 1024;

impl Default for SandboxLimits {
    /// One core, 1 GiB of memory and no swap, 128 processes, 64 MiB of
    /// `/tmp`, 25 minutes (the match's 20 minutes per game and time to
    /// start), 1 MiB of log, `nobody` (65534:65534).
    fn default() -> Self {
        SandboxLimits {
            cpu_millis: 1000,
            memory_bytes: 1024 * MIB,
            pids: 128,
            tmp_bytes: 64 * MIB,
            wall_clock: Duration::from_secs(25 * 60),
            log_bytes: MIB,
            user: "65534:65534".to_owned(),
        }
    }
}

/// The seccomp profile of every player's container
/// (`docker/sandbox/seccomp.json`, where its comments say what it is made
/// of): Docker's default as it applies to a container without
/// capabilities, less `AF_VSOCK` sockets and `io_uring`, 64-bit only.
/// The Docker client reads a profile from a file: each seat writes this
/// one to its run directory.
pub const SECCOMP_PROFILE: &str = include_str!("../../../docker/sandbox/seccomp.json");

/// Where the relay and the player live inside every sandbox image.
pub const RELAY_PATH: &str = "/sandbox/relay";
/// The directory the game's Unix socket is mounted on inside a container.
pub const SOCKET_DIR: &str = "/sandbox/run";
/// The socket's name in that directory (and in the host's run directory).
pub const SOCKET_NAME: &str = "game.sock";
/// The player's start program inside the image.
pub const START_PATH: &str = "/player/start";
/// The port the player is told to connect to on the container's loopback.
pub const PLAYER_PORT: u16 = 13050;
/// The label every container of the sandbox carries (the sweep's filter).
pub const LABEL: &str = "org.spielleiter.sandbox";
/// The label naming the process that started a container: `HOST:PID`.
pub const OWNER_LABEL: &str = "org.spielleiter.sandbox.owner";
/// The label a sandbox image carries: the path of its relay.
pub const RELAY_LABEL: &str = "org.spielleiter.sandbox.relay";

/// One player's container: its name and owner, the image, the arguments
/// the image's start program gets before the contest's, where its socket
/// directory and its seccomp profile ([`SECCOMP_PROFILE`] in a file) are,
/// and the seat's reservation.
#[derive(Debug)]
pub(crate) struct ContainerSpec<'a> {
    pub name: &'a str,
    pub owner: &'a str,
    pub image: &'a str,
    pub args: &'a [String],
    pub socket_dir: &'a Path,
    pub seccomp_profile: &'a Path,
    pub reservation: &'a str,
}

impl SandboxLimits {
    /// The arguments of `docker` that run the container, attached to its
    /// output.
    ///
    /// Network: `none` — the container has loopback only, and the relay
    /// carries the player's one connection to the bind-mounted socket; no
    /// address outside the container can be reached, whatever the host's
    /// firewall says.
    pub(crate) fn create_args(&self, spec: &ContainerSpec<'_>) -> Vec<String> {
        let memory = self.memory_bytes.to_string();
        let deadline = self.wall_clock.as_secs().max(1).to_string();
        let port = PLAYER_PORT.to_string();
        let mut args: Vec<String> = [
            "run",
            "--name",
            spec.name,
            "--label",
            &format!("{LABEL}=player"),
            "--label",
            &format!("{OWNER_LABEL}={}", spec.owner),
            "--network",
            "none",
            "--hostname",
            "player",
            "--cpus",
            &format!("{}.{:03}", self.cpu_millis / 1000, self.cpu_millis % 1000),
            "--memory",
            &memory,
            "--memory-swap",
            &memory,
            "--pids-limit",
            &self.pids.to_string(),
            "--read-only",
            "--tmpfs",
            &format!("/tmp:rw,nosuid,nodev,size={},mode=1777", self.tmp_bytes),
            // Docker's /dev/shm is 64 MiB whatever the limits say.
            "--shm-size",
            &self.tmp_bytes.to_string(),
            "--cap-drop",
            "ALL",
            "--security-opt",
            "no-new-privileges",
            "--security-opt",
            &format!("seccomp={}", spec.seccomp_profile.display()),
            "--user",
            &self.user,
            "--ipc",
            "private",
            // The output is read through the attached streams and cut there;
            // Docker keeps no copy.
            "--log-driver",
            "none",
            "--env",
            "HOME=/tmp",
            "--mount",
            &format!(
                "type=bind,source={},target={SOCKET_DIR},readonly",
                spec.socket_dir.display()
            ),
            "--entrypoint",
            RELAY_PATH,
            spec.image,
            "--port",
            &port,
            "--socket",
            &format!("{SOCKET_DIR}/{SOCKET_NAME}"),
            "--deadline-secs",
            &deadline,
            "--",
            START_PATH,
        ]
        .map(str::to_owned)
        .to_vec();
        args.extend(spec.args.iter().cloned());
        args.extend(
            [
                "--host",
                "127.0.0.1",
                "--port",
                &port,
                "--reservation",
                spec.reservation,
            ]
            .map(str::to_owned),
        );
        args
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value_of<'a>(args: &'a [String], option: &str) -> Vec<&'a str> {
        args.windows(2)
            .filter(|w| w[0] == option)
            .map(|w| w[1].as_str())
            .collect()
    }

    #[test]
    fn every_limit_becomes_a_docker_option() {
        let limits = SandboxLimits {
            cpu_millis: 1500,
            memory_bytes: 512 * MIB,
            pids: 64,
            tmp_bytes: 8 * MIB,
            wall_clock: Duration::from_secs(90),
            log_bytes: 1000,
            user: "1234:1234".to_owned(),
        };
        let args = limits.create_args(&ContainerSpec {
            name: "sl-sandbox-1-1",
            owner: "host:1",
            image: "team-a:3",
            args: &["--game".to_owned(), "blokus_bcl".to_owned()],
            socket_dir: Path::new("/tmp/sl-sandbox-1-1/socket"),
            seccomp_profile: Path::new("/tmp/sl-sandbox-1-1/seccomp.json"),
            reservation: "CODE",
        });
        assert_eq!(value_of(&args, "--network"), ["none"]);
        assert_eq!(value_of(&args, "--cpus"), ["1.500"]);
        assert_eq!(value_of(&args, "--memory"), ["536870912"]);
        assert_eq!(value_of(&args, "--memory-swap"), ["536870912"]);
        assert_eq!(value_of(&args, "--pids-limit"), ["64"]);
        assert_eq!(
            value_of(&args, "--tmpfs"),
            ["/tmp:rw,nosuid,nodev,size=8388608,mode=1777"]
        );
        assert_eq!(value_of(&args, "--cap-drop"), ["ALL"]);
        assert_eq!(value_of(&args, "--shm-size"), ["8388608"]);
        assert_eq!(
            value_of(&args, "--security-opt"),
            [
                "no-new-privileges",
                "seccomp=/tmp/sl-sandbox-1-1/seccomp.json"
            ]
        );
        assert_eq!(value_of(&args, "--user"), ["1234:1234"]);
        assert_eq!(value_of(&args, "--deadline-secs"), ["90"]);
        assert!(args.contains(&"--read-only".to_owned()));
        assert_eq!(
            value_of(&args, "--label"),
            [
                "org.spielleiter.sandbox=player",
                "org.spielleiter.sandbox.owner=host:1"
            ]
        );
        // The image, then the relay's arguments, then the player's own
        // arguments before the contest's.
        let image = args.iter().position(|a| a == "team-a:3").expect("image");
        let program = &args[args.iter().position(|a| a == "--").expect("--") + 1..];
        assert!(image < args.len() - program.len());
        assert_eq!(
            program,
            [
                "/player/start",
                "--game",
                "blokus_bcl",
                "--host",
                "127.0.0.1",
                "--port",
                "13050",
                "--reservation",
                "CODE"
            ]
        );
    }

    #[test]
    fn fractions_of_a_core_are_written_exactly() {
        let limits = SandboxLimits {
            cpu_millis: 250,
            ..SandboxLimits::default()
        };
        let args = limits.create_args(&ContainerSpec {
            name: "n",
            owner: "o",
            image: "i",
            args: &[],
            socket_dir: Path::new("/d"),
            seccomp_profile: Path::new("/p"),
            reservation: "r",
        });
        assert_eq!(value_of(&args, "--cpus"), ["0.250"]);
    }

    /// The profile's facts as the hostile player's test relies on them
    /// (tests/sandbox/run.sh shows them inside a container).
    #[test]
    fn the_seccomp_profile_is_dockers_less_vsock_and_io_uring() {
        let profile: serde_json::Value =
            serde_json::from_str(SECCOMP_PROFILE).expect("the profile is JSON");
        assert_eq!(profile["defaultAction"], "SCMP_ACT_ERRNO");
        let groups = profile["syscalls"].as_array().expect("syscalls");
        let rules_for = |name: &str| -> Vec<&serde_json::Value> {
            groups
                .iter()
                .filter(|group| {
                    group["names"]
                        .as_array()
                        .is_some_and(|names| names.iter().any(|n| n == name))
                })
                .collect()
        };
        for name in [
            "io_uring_setup",
            "io_uring_enter",
            "io_uring_register",
            "socketcall",
            "mount",
            "unshare",
            "setns",
        ] {
            assert!(rules_for(name).is_empty(), "{name} is allowed");
        }
        // socket: one rule, any family but AF_VSOCK (40).
        let socket = rules_for("socket");
        assert_eq!(socket.len(), 1);
        assert_eq!(socket[0]["action"], "SCMP_ACT_ALLOW");
        assert_eq!(
            socket[0]["args"],
            serde_json::json!([{"index": 0, "value": 40, "op": "SCMP_CMP_NE"}])
        );
        // clone only without new namespaces; clone3 refused as unknown.
        let clone = rules_for("clone");
        assert_eq!(clone.len(), 1);
        assert_eq!(clone[0]["args"][0]["op"], "SCMP_CMP_MASKED_EQ");
        assert_eq!(rules_for("clone3")[0]["errnoRet"], 38);
        // What every program needs is there.
        for name in [
            "read", "write", "openat", "mmap", "futex", "execve", "connect",
        ] {
            assert_eq!(rules_for(name).len(), 1, "{name}");
        }
        // No 32-bit architecture beside the native one.
        for arch in profile["archMap"].as_array().expect("archMap") {
            assert_eq!(arch["subArchitectures"], serde_json::json!([]), "{arch}");
        }
    }
}
