//! [`SandboxLimits`]: what a sandboxed player may use (CPU, memory,
//! processes, `/tmp`, time, log size, which user it runs as), their safe
//! defaults, and the container's create request that enforces them with
//! the sandbox's own seccomp profile ([`SECCOMP_PROFILE`]): the options of
//! `docker run`, as the daemon's API takes them ([`Guard`]).

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
/// It goes into every create request whole (as the Docker client sends the
/// file that `--security-opt seccomp=PATH` names).
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

/// One player's container (its name goes with the request, not in it): its
/// owner, the image, the arguments the image's start program gets before
/// the contest's, where its socket directory is, and the seat's
/// reservation.
#[derive(Debug)]
pub(crate) struct ContainerSpec<'a> {
    pub owner: &'a str,
    pub image: &'a str,
    pub args: &'a [String],
    pub socket_dir: &'a Path,
    pub reservation: &'a str,
}

/// The options of a player's container that confine it, each named as
/// `docker run`'s option that sets it. Every container has them all; a
/// debug build leaves out the ones named in
/// `SPIELLEITER_SANDBOX_WITHOUT` ([`Guard::dropped_for_tests`]), so that
/// the hostile player's checks (tests/sandbox/run.sh) can be shown to fail
/// without the measure each of them proves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Guard {
    /// `--network none`: loopback only. Through the API, the container's
    /// networking is disabled as well (`NetworkDisabled`, which the Docker
    /// client cannot set): the daemon then makes no network sandbox for it
    /// at all, and the container's own network namespace, made by the
    /// runtime, has loopback only, as with `none`, about 100 ms sooner.
    Network,
    /// `--cpus`.
    Cpus,
    /// `--memory`.
    Memory,
    /// `--memory-swap` (as much as the memory: no swap).
    MemorySwap,
    /// `--pids-limit`.
    PidsLimit,
    /// `--read-only`: a read-only root.
    ReadOnly,
    /// `--tmpfs /tmp:…`, of the size of the limit.
    Tmpfs,
    /// `--shm-size`: `/dev/shm` of the size of the limit.
    ShmSize,
    /// `--cap-drop ALL`.
    CapDrop,
    /// `--security-opt no-new-privileges`.
    NoNewPrivileges,
    /// `--security-opt seccomp=…`: the sandbox's own profile.
    Seccomp,
    /// `--user`: not root.
    User,
    /// `--ipc private`.
    Ipc,
}

/// The variable that names the guards a debug build leaves out.
pub(crate) const WITHOUT_VARIABLE: &str = "SPIELLEITER_SANDBOX_WITHOUT";

impl Guard {
    /// Every guard.
    pub(crate) const ALL: [Guard; 13] = [
        Guard::Network,
        Guard::Cpus,
        Guard::Memory,
        Guard::MemorySwap,
        Guard::PidsLimit,
        Guard::ReadOnly,
        Guard::Tmpfs,
        Guard::ShmSize,
        Guard::CapDrop,
        Guard::NoNewPrivileges,
        Guard::Seccomp,
        Guard::User,
        Guard::Ipc,
    ];

    /// The `docker run` option's name, without its dashes.
    pub(crate) fn option(self) -> &'static str {
        match self {
            Guard::Network => "network",
            Guard::Cpus => "cpus",
            Guard::Memory => "memory",
            Guard::MemorySwap => "memory-swap",
            Guard::PidsLimit => "pids-limit",
            Guard::ReadOnly => "read-only",
            Guard::Tmpfs => "tmpfs",
            Guard::ShmSize => "shm-size",
            Guard::CapDrop => "cap-drop",
            Guard::NoNewPrivileges => "no-new-privileges",
            Guard::Seccomp => "seccomp",
            Guard::User => "user",
            Guard::Ipc => "ipc",
        }
    }

    /// The guards named in `list` (options' names, separated by commas or
    /// spaces).
    ///
    /// # Errors
    ///
    /// A name that is no guard's: the sandbox would be tested with every
    /// guard while the tester thinks one is missing.
    // Only a debug build reads the variable (and the tests the names).
    #[cfg_attr(not(debug_assertions), allow(dead_code))]
    pub(crate) fn parse_list(list: &str) -> Result<Vec<Guard>, String> {
        list.split([',', ' '])
            .map(|name| name.trim().trim_start_matches("--"))
            .filter(|name| !name.is_empty())
            .map(|name| {
                Guard::ALL
                    .into_iter()
                    .find(|guard| guard.option() == name)
                    .ok_or_else(|| {
                        format!(
                            "{WITHOUT_VARIABLE}: {name} is no guard of the sandbox ({})",
                            Guard::ALL.map(Guard::option).join(", ")
                        )
                    })
            })
            .collect()
    }

    /// The guards a test asks to leave out: in a debug build, those named
    /// in `SPIELLEITER_SANDBOX_WITHOUT`; in a release build none, whatever
    /// it says (the variable is not even read).
    ///
    /// # Errors
    ///
    /// The variable names something that is no guard.
    pub(crate) fn dropped_for_tests() -> Result<Vec<Guard>, String> {
        #[cfg(debug_assertions)]
        if let Some(list) = std::env::var_os(WITHOUT_VARIABLE) {
            return Guard::parse_list(&list.to_string_lossy());
        }
        Ok(Vec::new())
    }
}

impl SandboxLimits {
    /// The daemon's create request for the container (the JSON of `POST
    /// /containers/create`): what `docker run` with these options sends,
    /// attached to the output, less the guards in `without` (none but in a
    /// test that shows a check failing).
    ///
    /// Network: `none`, and disabled ([`Guard::Network`]) — the container
    /// has loopback only, and the relay
    /// carries the player's one connection to the bind-mounted socket; no
    /// address outside the container can be reached, whatever the host's
    /// firewall says.
    pub(crate) fn create_request(
        &self,
        spec: &ContainerSpec<'_>,
        without: &[Guard],
    ) -> serde_json::Value {
        use serde_json::{Value, json};
        let deadline = self.wall_clock.as_secs().max(1).to_string();
        let port = PLAYER_PORT.to_string();
        let mut command: Vec<String> = [
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
        command.extend(spec.args.iter().cloned());
        command.extend(
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
        let mut host = json!({
            // The output is read through the attached stream and cut there;
            // Docker keeps no copy.
            "LogConfig": {"Type": "none", "Config": {}},
            "Mounts": [{
                "Type": "bind",
                "Source": spec.socket_dir.to_string_lossy(),
                "Target": SOCKET_DIR,
                "ReadOnly": true,
            }],
        });
        let mut config = json!({
            "Hostname": "player",
            "AttachStdin": false,
            "AttachStdout": true,
            "AttachStderr": true,
            "Tty": false,
            "OpenStdin": false,
            "StdinOnce": false,
            "Env": ["HOME=/tmp"],
            "Entrypoint": [RELAY_PATH],
            "Cmd": command,
            "Image": spec.image,
            "Labels": {LABEL: "player", OWNER_LABEL: spec.owner},
        });
        let mut security = Vec::new();
        for guard in Guard::ALL {
            if without.contains(&guard) {
                continue;
            }
            let (key, value): (&str, Value) = match guard {
                Guard::Network => {
                    config["NetworkDisabled"] = json!(true);
                    ("NetworkMode", json!("none"))
                }
                Guard::Cpus => ("NanoCpus", json!(u64::from(self.cpu_millis) * 1_000_000)),
                Guard::Memory => ("Memory", json!(self.memory_bytes)),
                Guard::MemorySwap => ("MemorySwap", json!(self.memory_bytes)),
                Guard::PidsLimit => ("PidsLimit", json!(self.pids)),
                Guard::ReadOnly => ("ReadonlyRootfs", json!(true)),
                Guard::Tmpfs => (
                    "Tmpfs",
                    json!({"/tmp": format!("rw,nosuid,nodev,size={},mode=1777", self.tmp_bytes)}),
                ),
                // Docker's /dev/shm is 64 MiB whatever the limits say.
                Guard::ShmSize => ("ShmSize", json!(self.tmp_bytes)),
                Guard::CapDrop => ("CapDrop", json!(["ALL"])),
                Guard::NoNewPrivileges => {
                    security.push("no-new-privileges".to_owned());
                    continue;
                }
                // The profile itself, as the Docker client sends the file
                // named by `--security-opt seccomp=PATH`.
                Guard::Seccomp => {
                    security.push(format!("seccomp={SECCOMP_PROFILE}"));
                    continue;
                }
                Guard::User => {
                    config["User"] = json!(self.user);
                    continue;
                }
                Guard::Ipc => ("IpcMode", json!("private")),
            };
            host[key] = value;
        }
        if !security.is_empty() {
            host["SecurityOpt"] = json!(security);
        }
        config["HostConfig"] = host;
        config
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test.
mod tests {
    use serde_json::{Value, json};

    use super::*;

    fn spec() -> ContainerSpec<'static> {
        ContainerSpec {
            owner: "host:1",
            image: "team-a:3",
            args: const { &[] },
            socket_dir: Path::new("/tmp/sl-sandbox-1-1/socket"),
            reservation: "CODE",
        }
    }

    fn limits() -> SandboxLimits {
        SandboxLimits {
            cpu_millis: 1500,
            memory_bytes: 512 * MIB,
            pids: 64,
            tmp_bytes: 8 * MIB,
            wall_clock: Duration::from_secs(90),
            log_bytes: 1000,
            user: "1234:1234".to_owned(),
        }
    }

    #[test]
    fn every_limit_becomes_an_option_of_the_create_request() {
        let args = ["--game".to_owned(), "blokus_bcl".to_owned()];
        let request = limits().create_request(
            &ContainerSpec {
                args: &args,
                ..spec()
            },
            &[],
        );
        let host = &request["HostConfig"];
        assert_eq!(host["NetworkMode"], "none");
        assert_eq!(request["NetworkDisabled"], true);
        assert_eq!(host["NanoCpus"], 1_500_000_000u64);
        assert_eq!(host["Memory"], 536_870_912u64);
        assert_eq!(host["MemorySwap"], 536_870_912u64);
        assert_eq!(host["PidsLimit"], 64);
        assert_eq!(host["ReadonlyRootfs"], true);
        assert_eq!(
            host["Tmpfs"],
            json!({"/tmp": "rw,nosuid,nodev,size=8388608,mode=1777"})
        );
        assert_eq!(host["ShmSize"], 8_388_608u64);
        assert_eq!(host["CapDrop"], json!(["ALL"]));
        assert_eq!(host["IpcMode"], "private");
        assert_eq!(
            host["SecurityOpt"],
            json!(["no-new-privileges", format!("seccomp={SECCOMP_PROFILE}")])
        );
        assert_eq!(host["LogConfig"]["Type"], "none");
        assert_eq!(
            host["Mounts"],
            json!([{
                "Type": "bind",
                "Source": "/tmp/sl-sandbox-1-1/socket",
                "Target": "/sandbox/run",
                "ReadOnly": true
            }])
        );
        assert_eq!(request["User"], "1234:1234");
        assert_eq!(request["Hostname"], "player");
        assert_eq!(request["Env"], json!(["HOME=/tmp"]));
        assert_eq!(request["AttachStdout"], true);
        assert_eq!(request["AttachStderr"], true);
        assert_eq!(request["AttachStdin"], false);
        assert_eq!(request["Tty"], false);
        assert_eq!(
            request["Labels"],
            json!({
                "org.spielleiter.sandbox": "player",
                "org.spielleiter.sandbox.owner": "host:1"
            })
        );
        assert_eq!(request["Image"], "team-a:3");
        assert_eq!(request["Entrypoint"], json!(["/sandbox/relay"]));
        // The relay's arguments, then the player's own arguments before
        // the contest's.
        assert_eq!(
            request["Cmd"],
            json!([
                "--port",
                "13050",
                "--socket",
                "/sandbox/run/game.sock",
                "--deadline-secs",
                "90",
                "--",
                "/player/start",
                "--game",
                "blokus_bcl",
                "--host",
                "127.0.0.1",
                "--port",
                "13050",
                "--reservation",
                "CODE"
            ])
        );
        // The profile the daemon gets is the file's JSON.
        let profile = host["SecurityOpt"][1]
            .as_str()
            .and_then(|option| option.strip_prefix("seccomp="))
            .unwrap();
        let _: Value = serde_json::from_str(profile).unwrap();
    }

    #[test]
    fn fractions_of_a_core_are_exact() {
        let limits = SandboxLimits {
            cpu_millis: 250,
            ..SandboxLimits::default()
        };
        let request = limits.create_request(&spec(), &[]);
        assert_eq!(request["HostConfig"]["NanoCpus"], 250_000_000u64);
    }

    /// Each guard left out takes out its own option and nothing else.
    #[test]
    fn a_guard_left_out_is_its_option_alone() {
        let whole = limits().create_request(&spec(), &[]);
        let keys = |request: &Value| -> Vec<String> {
            let mut keys: Vec<String> = request
                .as_object()
                .unwrap()
                .keys()
                .map(|key| format!("/{key}"))
                .chain(
                    request["HostConfig"]
                        .as_object()
                        .unwrap()
                        .keys()
                        .map(|key| format!("HostConfig/{key}")),
                )
                .collect();
            if let Some(options) = request["HostConfig"]["SecurityOpt"].as_array() {
                for option in options {
                    let option = option.as_str().unwrap();
                    keys.push(format!("SecurityOpt/{}", option.split('=').next().unwrap()));
                }
            }
            keys.sort();
            keys
        };
        let all = keys(&whole);
        for guard in Guard::ALL {
            let without = limits().create_request(&spec(), &[guard]);
            let missing: Vec<&String> =
                all.iter().filter(|k| !keys(&without).contains(k)).collect();
            let expected: &[&str] = match guard {
                Guard::Network => &["/NetworkDisabled", "HostConfig/NetworkMode"],
                Guard::Cpus => &["HostConfig/NanoCpus"],
                Guard::Memory => &["HostConfig/Memory"],
                Guard::MemorySwap => &["HostConfig/MemorySwap"],
                Guard::PidsLimit => &["HostConfig/PidsLimit"],
                Guard::ReadOnly => &["HostConfig/ReadonlyRootfs"],
                Guard::Tmpfs => &["HostConfig/Tmpfs"],
                Guard::ShmSize => &["HostConfig/ShmSize"],
                Guard::CapDrop => &["HostConfig/CapDrop"],
                Guard::NoNewPrivileges => &["SecurityOpt/no-new-privileges"],
                Guard::Seccomp => &["SecurityOpt/seccomp"],
                Guard::User => &["/User"],
                Guard::Ipc => &["HostConfig/IpcMode"],
            };
            assert_eq!(missing, expected, "{guard:?}");
        }
        let none = limits().create_request(&spec(), &Guard::ALL);
        assert!(none["HostConfig"].get("SecurityOpt").is_none());
        assert!(none.get("User").is_none());
    }

    #[test]
    fn guards_are_named_as_docker_run_s_options() {
        assert_eq!(
            Guard::parse_list("cap-drop, --read-only seccomp,,").unwrap(),
            [Guard::CapDrop, Guard::ReadOnly, Guard::Seccomp]
        );
        assert_eq!(Guard::parse_list("").unwrap(), []);
        let error = Guard::parse_list("cap-drop,cap-add").unwrap_err();
        assert!(error.contains("cap-add is no guard"), "{error}");
        for guard in Guard::ALL {
            assert_eq!(Guard::parse_list(guard.option()).unwrap(), [guard]);
        }
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
