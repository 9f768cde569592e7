//! [`build_player_image`]: a team's player image from its upload, on one of
//! the sandbox's base images, with the upload's contract per [`Runtime`]
//! (what at the upload's root starts the player).

use std::{
    fmt, fs,
    os::unix::fs::PermissionsExt,
    path::{Path, PathBuf},
    str::FromStr,
    time::Duration,
};

use crate::{
    docker,
    error::SandboxError,
    upload::{UploadError, UploadLimits, unpack},
};

/// How long building an image may take unless the request says otherwise.
pub const DEFAULT_BUILD_TIMEOUT: Duration = Duration::from_secs(600);

/// How long the clean-up after a failed build waits for the daemon to let go
/// of the build's containers.
const CLEANUP_TIMEOUT: Duration = Duration::from_secs(60);

/// How often the clean-up looks again for containers of the build.
const CLEANUP_INTERVAL: Duration = Duration::from_millis(500);

/// The label of every image and container a build makes after its `FROM`
/// (the Dockerfile's first instruction after it), naming the build: what a
/// failed build left is found by it.
pub const BUILD_LABEL: &str = "org.spielleiter.sandbox.build";

/// What a player is made of, and so which base image it is built on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Runtime {
    /// A Linux x86-64 program, static or linked to glibc: `start` at the
    /// upload's root (a program or a `#!/bin/sh` script).
    Native,
    /// Debian's Python 3: `start`, or `main.py`; the team's packages in
    /// `vendor/` (`pip install --target vendor …`), which is on the
    /// `PYTHONPATH`.
    Python,
    /// Debian's headless JRE: `start`, or exactly one `*.jar` at the root,
    /// run as `java -jar`.
    Java,
}

impl Runtime {
    /// The runtime's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Runtime::Native => "native",
            Runtime::Python => "python",
            Runtime::Java => "java",
        }
    }

    /// The base image `docker/sandbox/build-base.sh` builds for it.
    pub fn default_base(self) -> String {
        format!("sl-sandbox-{}:latest", self.name())
    }

    /// Whether `root_files` (the names of the regular files at an upload's
    /// root) hold the runtime's start: `start`; for Python or `main.py`;
    /// for Java or exactly one `*.jar`.
    fn has_start(self, root_files: &[String]) -> bool {
        let has = |name: &str| root_files.iter().any(|file| file == name);
        match self {
            Runtime::Native => has("start"),
            Runtime::Python => has("start") || has("main.py"),
            Runtime::Java => {
                has("start")
                    || root_files
                        .iter()
                        .filter(|file| Path::new(file).extension().is_some_and(|e| e == "jar"))
                        .count()
                        == 1
            }
        }
    }

    fn wanted(self) -> &'static str {
        match self {
            Runtime::Native => "`start`",
            Runtime::Python => "`start` or `main.py`",
            Runtime::Java => "`start` or one `*.jar`",
        }
    }
}

impl fmt::Display for Runtime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Runtime {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "native" => Ok(Runtime::Native),
            "python" => Ok(Runtime::Python),
            "java" => Ok(Runtime::Java),
            other => Err(format!("unknown runtime {other}: native, python or java")),
        }
    }
}

/// Why a player image was not built.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum BuildError {
    /// The upload is refused.
    #[error(transparent)]
    Upload(#[from] UploadError),
    /// The tag is not `NAME:VERSION`.
    #[error(
        "--tag {0}: expected NAME:VERSION (lower-case letters, digits, `.`, `_`, `-`, `/` in the name)"
    )]
    BadTag(String),
    /// Docker is missing or the base image is not there.
    #[error(transparent)]
    Sandbox(#[from] SandboxError),
    /// `docker build` failed.
    #[error("docker build failed: {0}")]
    Build(String),
    /// `docker build` ran past its time limit: it was stopped, and what it
    /// had made is removed (or `left` says what could not be).
    #[error(
        "docker build took longer than its limit of {} s: stopped, {}",
        .limit.as_secs_f64(),
        match .left { None => "and what it had made is removed".to_owned(), Some(left) => format!("but {left}") }
    )]
    TimedOut {
        /// The limit.
        limit: Duration,
        /// What the clean-up could not remove, if anything.
        left: Option<String>,
    },
}

/// What to build.
#[derive(Debug)]
pub struct BuildRequest<'a> {
    /// The zip archive or directory.
    pub upload: &'a Path,
    /// The runtime.
    pub runtime: Runtime,
    /// `NAME:VERSION` of the image.
    pub tag: &'a str,
    /// The base image [default: the runtime's sandbox base image].
    pub base: Option<&'a str>,
    /// How large the upload may be.
    pub limits: UploadLimits,
    /// How long `docker build` may take ([`DEFAULT_BUILD_TIMEOUT`] is the
    /// usual); past it the build is stopped and what it made removed.
    pub timeout: Duration,
}

/// Checks the upload, unpacks it into a build context under `scratch` and
/// builds the image `request.tag` on the runtime's base image: the upload
/// at `/player` (owned by root, readable by the player, writable by
/// nobody), its start at `/player/start`.
///
/// The build is Docker's classic builder, bounded by `request.timeout`:
/// each step's image carries [`BUILD_LABEL`] with this build's name, and a
/// build that fails or runs past its limit (its client killed, which
/// cancels it in the daemon) has its containers and images removed, so
/// that no layer, intermediate container or cache entry is left. (BuildKit
/// would leave cache entries that nothing names.)
///
/// # Errors
///
/// The upload is refused, the tag is malformed, Docker or the base image is
/// missing, or the build failed or ran past its limit. Nothing is built
/// then.
pub fn build_player_image(
    request: &BuildRequest<'_>,
    scratch: &Path,
) -> Result<String, BuildError> {
    if !valid_tag(request.tag) {
        return Err(BuildError::BadTag(request.tag.to_owned()));
    }
    let context = scratch.join("context");
    let player = context.join("player");
    unpack(request.upload, &player, &request.limits)?;
    let env = prepare_start(request.upload, &player, request.runtime)?;
    normalise_modes(&player).map_err(|source| UploadError::Io {
        path: player.clone(),
        source,
    })?;

    docker::check_docker_blocking()?;
    let base = request
        .base
        .map_or_else(|| request.runtime.default_base(), str::to_owned);
    docker::check_image_blocking(&base).map_err(|error| match error {
        SandboxError::ImageMissing(_) => BuildError::Build(format!(
            "the base image {base} is not on this machine: build it with docker/sandbox/build-base.sh {}",
            request.runtime
        )),
        other => other.into(),
    })?;
    let upload_name = request
        .upload
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let base_id = docker::call_blocking(
        &["image", "inspect", "--format", "{{.Id}}", &base],
        docker::CALL_TIMEOUT,
    )
    .map_err(BuildError::Build)?;
    let build = build_name(request.tag);
    let dockerfile = format!(
        "FROM {base}\nLABEL {BUILD_LABEL}={build}\nCOPY player /player\n{env}LABEL org.spielleiter.sandbox.runtime={runtime} org.spielleiter.sandbox.upload={upload}\n",
        build = label_quote(&build),
        runtime = request.runtime,
        upload = label_quote(&upload_name),
    );
    fs::write(context.join("Dockerfile"), dockerfile).map_err(|source| UploadError::Io {
        path: context.clone(),
        source,
    })?;
    let context_arg = context.to_string_lossy();
    // The classic builder: its steps are images and containers that the
    // label and the output name; DOCKER_BUILDKIT=0 chooses it whatever the
    // client's default. No cache: every step is this build's own (none an
    // older build's that it must not remove).
    let built = docker::run_blocking(
        &[
            "build",
            "--force-rm",
            "--no-cache",
            "--tag",
            request.tag,
            &context_arg,
        ],
        &[("DOCKER_BUILDKIT", "0")],
        request.timeout,
    );
    let failed = match built {
        Ok(_) => return Ok(request.tag.to_owned()),
        Err(failed) => failed,
    };
    let made = BuildSteps::read(&failed.output, base_id.trim());
    let cleaned = remove_leftovers(&made, &build);
    if let Err(left) = &cleaned {
        tracing::warn!(build = %build, %left, "a failed build left containers or images behind");
    }
    Err(if failed.timed_out {
        BuildError::TimedOut {
            limit: request.timeout,
            left: cleaned.err(),
        }
    } else {
        BuildError::Build(last_line(&failed.errors, &failed.reason))
    })
}

/// A build's own name for [`BUILD_LABEL`]: the tag, this process and the
/// time, so that two builds (of the same tag, too) never share it.
fn build_name(tag: &str) -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |since| since.as_nanos());
    format!("{tag} {} {nanos}", std::process::id())
}

/// The containers and images the classic builder reported making, from its
/// output: ` ---> Running in ID` for a step's container, ` ---> ID` for a
/// step's image. The base's image (the `FROM` step's) and images taken from
/// the cache (after ` ---> Using cache`), which are older builds', are not
/// this build's.
#[derive(Debug, Default, PartialEq, Eq)]
struct BuildSteps {
    containers: Vec<String>,
    images: Vec<String>,
}

impl BuildSteps {
    fn read(output: &str, base_id: &str) -> Self {
        let base = base_id.strip_prefix("sha256:").unwrap_or(base_id);
        let mut steps = BuildSteps::default();
        let mut cached = false;
        for line in output.lines() {
            let Some(said) = line.trim().strip_prefix("---> ") else {
                continue;
            };
            let said = said.trim();
            if let Some(container) = said.strip_prefix("Running in ") {
                steps.containers.push(container.to_owned());
            } else if said == "Using cache" {
                cached = true;
            } else if said.len() >= 12
                && said.chars().all(|c| c.is_ascii_hexdigit())
                // The flag is reset by every image named.
                && !std::mem::take(&mut cached)
                && !base.starts_with(said)
            {
                steps.images.push(said.to_owned());
            }
        }
        steps
    }
}

/// Removes what the failed build `build` made: its containers (those its
/// output named and those with its label, waiting up to
/// [`CLEANUP_TIMEOUT`] for a step the daemon was still finishing), then its
/// images, newest first (removing an untagged image removes its untagged
/// parents too). Fails with a line saying what is left.
fn remove_leftovers(made: &BuildSteps, build: &str) -> Result<(), String> {
    let label = format!("label={BUILD_LABEL}={build}");
    let listed = |kind: &[&str]| -> Result<Vec<String>, String> {
        let mut args = kind.to_vec();
        args.extend(["--quiet", "--filter", &label]);
        let ids = docker::call_blocking(&args, docker::CALL_TIMEOUT)?;
        Ok(ids.lines().map(str::to_owned).collect())
    };
    // Those the output named that are still there (`docker rm --force`
    // says nothing of one that is gone, so it cannot tell), and those with
    // the label.
    let id_filters: Vec<String> = made
        .containers
        .iter()
        .map(|id| format!("id={id}"))
        .collect();
    let still_there = || -> Result<Vec<String>, String> {
        let mut there = listed(&["ps", "--all"])?;
        if !id_filters.is_empty() {
            let mut args = vec!["ps", "--all", "--quiet"];
            for filter in &id_filters {
                args.extend(["--filter", filter.as_str()]);
            }
            let ids = docker::call_blocking(&args, docker::CALL_TIMEOUT)?;
            there.extend(ids.lines().map(str::to_owned));
        }
        Ok(there)
    };
    let started = std::time::Instant::now();
    loop {
        let containers = still_there()?;
        if containers.is_empty() {
            break;
        }
        if started.elapsed() > CLEANUP_TIMEOUT {
            return Err(format!(
                "its containers {} are left after {CLEANUP_TIMEOUT:?}",
                containers.join(" ")
            ));
        }
        // The daemon may be removing one itself ("removal … is already in
        // progress"): the next look tells.
        for container in &containers {
            let _ = docker::call_blocking(&["rm", "--force", container], docker::CALL_TIMEOUT);
        }
        std::thread::sleep(CLEANUP_INTERVAL);
    }
    let mut images: Vec<String> = made.images.iter().rev().cloned().collect();
    images.extend(listed(&["images", "--all"])?);
    images.extend(committed_after_the_kill(made)?);
    for image in &images {
        match docker::call_blocking(&["rmi", image], docker::CALL_TIMEOUT) {
            Ok(_) => {}
            Err(error) if error.contains("No such image") => {}
            // An image of the cache that a later build's image stands on.
            Err(error) if error.contains("dependent child images") => {}
            Err(error) => return Err(format!("image {image}: {error}")),
        }
    }
    let left = listed(&["images", "--all"])?;
    if left.is_empty() {
        Ok(())
    } else {
        Err(format!("its images {} are left", left.join(" ")))
    }
}

/// Images without a tag or child that were committed from a container the
/// build's output named: a step (an `ONBUILD` step of the base, which runs
/// before the label) that the daemon finished after the client was killed,
/// before it noticed.
fn committed_after_the_kill(made: &BuildSteps) -> Result<Vec<String>, String> {
    if made.containers.is_empty() {
        return Ok(Vec::new());
    }
    let dangling = docker::call_blocking(
        &["images", "--all", "--quiet", "--filter", "dangling=true"],
        docker::CALL_TIMEOUT,
    )?;
    let mut args = vec!["image", "inspect", "--format", "{{.Id}} {{.Container}}"];
    args.extend(dangling.lines());
    if args.len() == 4 {
        return Ok(Vec::new());
    }
    // An image removed meanwhile fails the inspection of all: then none.
    let inspected = docker::call_blocking(&args, docker::CALL_TIMEOUT).unwrap_or_default();
    Ok(inspected
        .lines()
        .filter_map(|line| line.split_once(' '))
        .filter(|(_, container)| {
            made.containers
                .iter()
                .any(|seen| !seen.is_empty() && container.starts_with(seen.as_str()))
        })
        .map(|(id, _)| id.to_owned())
        .collect())
}

/// The last line of `text` that says something, or `otherwise`: Docker's
/// client writes its error last (a deprecation notice may come first).
fn last_line(text: &str, otherwise: &str) -> String {
    text.lines()
        .map(str::trim)
        .rfind(|line| !line.is_empty())
        .unwrap_or(otherwise)
        .to_owned()
}

/// Checks the upload `archive` (a zip archive held in memory, as a
/// browser sent it, named `name` in refusals) as [`build_player_image`]
/// will, from its listing alone and unpacking nothing: its size, that it
/// is a zip archive, each entry's name, kind, path and declared size (a
/// zip bomb, a path leaving the directory, a link), and that the runtime's
/// start is at its root. What only unpacking shows (sizes that lie) the
/// build still refuses.
///
/// # Errors
///
/// Why the upload would be refused.
pub fn check_upload_listing(
    name: &str,
    archive: &[u8],
    runtime: Runtime,
    limits: &UploadLimits,
) -> Result<(), UploadError> {
    let upload = Path::new(name);
    let entries = crate::upload::listing(upload, archive, limits)?;
    let root_files: Vec<String> = entries
        .iter()
        .filter(|(path, is_dir)| !is_dir && path.components().count() == 1)
        .map(|(path, _)| path.to_string_lossy().into_owned())
        .collect();
    if runtime.has_start(&root_files) {
        Ok(())
    } else {
        Err(UploadError::NoStart {
            path: upload.to_owned(),
            runtime: runtime.name(),
            wanted: runtime.wanted(),
        })
    }
}

/// Makes sure `/player/start` exists for the runtime (writing the obvious
/// one for `main.py` or a jar); returns the Dockerfile's `ENV` line.
fn prepare_start(upload: &Path, player: &Path, runtime: Runtime) -> Result<String, UploadError> {
    let start = player.join("start");
    let io = |source| UploadError::Io {
        path: start.clone(),
        source,
    };
    let missing = || UploadError::NoStart {
        path: upload.to_owned(),
        runtime: runtime.name(),
        wanted: runtime.wanted(),
    };
    // An upload of nothing made no directory: no start either.
    let root_files: Vec<String> = fs::read_dir(player)
        .map(|entries| {
            entries
                .flatten()
                .filter(|entry| entry.path().is_file())
                .map(|entry| entry.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    if !runtime.has_start(&root_files) {
        return Err(missing());
    }
    let has_start = start.is_file();
    match runtime {
        Runtime::Native => {
            if !has_start {
                return Err(missing());
            }
            Ok(String::new())
        }
        Runtime::Python => {
            if !has_start {
                if !player.join("main.py").is_file() {
                    return Err(missing());
                }
                fs::write(&start, "#!/bin/sh\nexec python3 /player/main.py \"$@\"\n")
                    .map_err(io)?;
            }
            Ok("ENV PYTHONPATH=/player/vendor:/player\n".to_owned())
        }
        Runtime::Java => {
            if !has_start {
                let jars: Vec<PathBuf> = fs::read_dir(player)
                    .map_err(io)?
                    .flatten()
                    .map(|e| e.path())
                    .filter(|p| p.extension().is_some_and(|e| e == "jar") && p.is_file())
                    .collect();
                let [jar] = jars.as_slice() else {
                    return Err(missing());
                };
                let name = jar.file_name().map(|n| n.to_string_lossy().into_owned());
                let name = name.unwrap_or_default();
                fs::write(
                    &start,
                    format!("#!/bin/sh\nexec java -jar '/player/{name}' \"$@\"\n"),
                )
                .map_err(io)?;
            }
            Ok(String::new())
        }
    }
}

/// Directories 0755, files 0644, `start` and files executable by their
/// owner 0755: the player reads its files and writes none.
fn normalise_modes(dir: &Path) -> std::io::Result<()> {
    fs::set_permissions(dir, fs::Permissions::from_mode(0o755))?;
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        let path = entry.path();
        let metadata = entry.metadata()?;
        if metadata.is_dir() {
            normalise_modes(&path)?;
        } else {
            let executable = metadata.permissions().mode() & 0o100 != 0
                || path.file_name() == Some("start".as_ref());
            let mode = if executable { 0o755 } else { 0o644 };
            fs::set_permissions(&path, fs::Permissions::from_mode(mode))?;
        }
    }
    Ok(())
}

/// A Dockerfile `LABEL` value in double quotes.
fn label_quote(value: &str) -> String {
    let escaped: String = value
        .chars()
        .filter(|c| !c.is_control())
        .flat_map(|c| match c {
            '"' | '\\' | '$' => vec!['\\', c],
            c => vec![c],
        })
        .collect();
    format!("\"{escaped}\"")
}

/// `NAME:VERSION` as Docker takes it: a lower-case name of letters,
/// digits and `._-/` separators (a registry host with a port is allowed),
/// and a version of up to 128 letters, digits, `_`, `.` or `-`.
fn valid_tag(tag: &str) -> bool {
    let Some((name, version)) = tag.rsplit_once(':') else {
        return false;
    };
    let name_ok = !name.is_empty()
        && name.len() <= 200
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || "._-/:".contains(c))
        && name.starts_with(|c: char| c.is_ascii_alphanumeric())
        && !name.ends_with(|c: char| !c.is_ascii_alphanumeric());
    let version_ok = !version.is_empty()
        && version.len() <= 128
        && version
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_.-".contains(c))
        && !version.starts_with(['.', '-']);
    name_ok && version_ok
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_need_a_name_and_a_version() {
        assert!(valid_tag("team-a:3"));
        assert!(valid_tag("registry.example:5000/contest/team_a:2027.1"));
        assert!(!valid_tag("team-a"));
        assert!(!valid_tag("Team-A:3"));
        assert!(!valid_tag("team a:3"));
        assert!(!valid_tag("team-a:"));
        assert!(!valid_tag(":3"));
        assert!(!valid_tag("-x:3"));
    }

    /// A zip archive in memory of `entries`; a name starting with `@` is a
    /// link to `/etc/passwd`.
    fn zip_bytes(entries: &[(&str, &[u8])]) -> Vec<u8> {
        use std::io::Write;
        let mut writer = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
        let options = zip::write::SimpleFileOptions::default();
        for (name, data) in entries {
            if let Some(link) = name.strip_prefix('@') {
                writer
                    .add_symlink(link, "/etc/passwd", options)
                    .expect("link");
            } else {
                writer.start_file(*name, options).expect("entry");
                writer.write_all(data).expect("data");
            }
        }
        writer.finish().expect("finish").into_inner()
    }

    #[test]
    fn an_upload_in_memory_is_checked_from_its_listing() {
        let limits = UploadLimits {
            max_upload_bytes: 64 * 1024,
            max_unpacked_bytes: 1024 * 1024,
            ..UploadLimits::default()
        };
        let check =
            |archive: &[u8], runtime| check_upload_listing("v.zip", archive, runtime, &limits);
        let good = zip_bytes(&[("start", b"#!/bin/sh\n"), ("lib/x", b"1")]);
        assert!(check(&good, Runtime::Native).is_ok());
        let python = zip_bytes(&[("main.py", b"print(1)"), ("vendor/a.py", b"")]);
        assert!(check(&python, Runtime::Python).is_ok());
        let error = check(&python, Runtime::Native);
        assert!(
            matches!(error, Err(UploadError::NoStart { .. })),
            "{error:?}"
        );
        let jars = zip_bytes(&[("a.jar", b""), ("b.jar", b"")]);
        let error = check(&jars, Runtime::Java);
        assert!(
            matches!(error, Err(UploadError::NoStart { .. })),
            "{error:?}"
        );
        // A start further down is no start.
        let nested = zip_bytes(&[("bot/start", b"")]);
        assert!(check(&nested, Runtime::Native).is_err());
        let zeros = vec![0u8; 4 * 1024 * 1024];
        let bomb = zip_bytes(&[("start", b""), ("zeros", &zeros)]);
        assert!(bomb.len() < 64 * 1024, "{}", bomb.len());
        let error = check(&bomb, Runtime::Native);
        assert!(matches!(error, Err(UploadError::Bomb { .. })), "{error:?}");
        let escape = zip_bytes(&[("start", b""), ("../evil", b"x")]);
        let error = check(&escape, Runtime::Native);
        assert!(
            matches!(error, Err(UploadError::Traversal { .. })),
            "{error:?}"
        );
        let link = zip_bytes(&[("start", b""), ("@passwd", b"")]);
        let error = check(&link, Runtime::Native);
        assert!(
            matches!(error, Err(UploadError::NotAFile { .. })),
            "{error:?}"
        );
        let error = check(b"not a zip at all", Runtime::Native);
        assert!(matches!(error, Err(UploadError::NotZip(_))), "{error:?}");
        let large = vec![b'P'; 64 * 1024 + 1];
        let error = check(&large, Runtime::Native);
        assert!(
            matches!(error, Err(UploadError::TooLarge { .. })),
            "{error:?}"
        );
        // One line each, naming the upload as the page calls it.
        let said = check(&escape, Runtime::Native)
            .expect_err("refused")
            .to_string();
        assert!(
            said.starts_with("v.zip: ") && !said.contains('\n'),
            "{said}"
        );
    }

    #[test]
    fn each_runtime_needs_its_start() {
        let dir = tempfile::tempdir().expect("dir");
        let player = dir.path().join("player");
        fs::create_dir_all(&player).expect("dir");
        let upload = Path::new("team.zip");
        for runtime in [Runtime::Native, Runtime::Python, Runtime::Java] {
            let error = prepare_start(upload, &player, runtime);
            assert!(
                matches!(error, Err(UploadError::NoStart { .. })),
                "{runtime}: {error:?}"
            );
        }
        fs::write(player.join("main.py"), "print(1)\n").expect("main.py");
        let env = prepare_start(upload, &player, Runtime::Python).expect("python");
        assert!(env.contains("PYTHONPATH=/player/vendor"));
        let start = fs::read_to_string(player.join("start")).expect("start");
        assert!(start.contains("python3 /player/main.py"));
        fs::remove_file(player.join("start")).expect("rm");
        fs::write(player.join("client.jar"), "PK").expect("jar");
        prepare_start(upload, &player, Runtime::Java).expect("java");
        let start = fs::read_to_string(player.join("start")).expect("start");
        assert!(start.contains("java -jar '/player/client.jar'"));
        // Two jars: which one?
        fs::remove_file(player.join("start")).expect("rm");
        fs::write(player.join("other.jar"), "PK").expect("jar");
        assert!(prepare_start(upload, &player, Runtime::Java).is_err());
    }

    #[test]
    fn the_player_reads_its_files_and_writes_none() {
        let dir = tempfile::tempdir().expect("dir");
        let player = dir.path().join("player");
        fs::create_dir_all(player.join("lib")).expect("dir");
        fs::write(player.join("start"), "#!/bin/sh\n").expect("start");
        fs::write(player.join("lib/data"), "x").expect("data");
        fs::set_permissions(player.join("lib/data"), fs::Permissions::from_mode(0o666))
            .expect("chmod");
        normalise_modes(&player).expect("modes");
        let mode = |p: &str| fs::metadata(player.join(p)).expect(p).permissions().mode() & 0o777;
        assert_eq!(mode("start"), 0o755);
        assert_eq!(mode("lib/data"), 0o644);
        assert_eq!(mode("lib"), 0o755);
    }

    /// What the classic builder printed for a build whose base has an
    /// `ONBUILD` step taken from the cache, and one that ran, before it
    /// was killed during the copy of the upload.
    #[test]
    fn a_builds_own_containers_and_images_are_read_from_its_output() {
        let output = "Sending build context to Docker daemon  3.072kB\n\
            Step 1/5 : FROM sl-sandbox-test-slowbase:1\n\
            # Executing 2 build triggers\n\
             ---> Using cache\n\
             ---> 0c9b6b79e062\n\
             ---> Running in c67405aad437\n\
            Removing intermediate container c67405aad437\n\
             ---> 3bf793b71b2a\n\
            Step 2/5 : LABEL org.spielleiter.sandbox.build=\"team:1 7 9\"\n\
             ---> Running in 114359d83eea\n\
            Removing intermediate container 114359d83eea\n\
             ---> 53ea42327255\n\
            Step 3/5 : COPY player /player\n";
        let base = "sha256:8b6d1352280e351b14d99599fbc882aacaca2f41f1b0ecd4c51a26ef574ac0e8";
        let with_base = format!("Step 1/5 : FROM x\n ---> 8b6d1352280e\n{output}");
        for output in [output, with_base.as_str()] {
            assert_eq!(
                BuildSteps::read(output, base),
                BuildSteps {
                    containers: vec!["c67405aad437".to_owned(), "114359d83eea".to_owned()],
                    images: vec!["3bf793b71b2a".to_owned(), "53ea42327255".to_owned()],
                }
            );
        }
    }

    #[test]
    fn a_failed_builds_reason_is_the_clients_last_line() {
        let errors = "DEPRECATED: The legacy builder is deprecated and will be removed.\n            \
            BuildKit is currently disabled.\n\n\
            COPY failed: no space left on device\n\n";
        assert_eq!(
            last_line(errors, "exit status: 1"),
            "COPY failed: no space left on device"
        );
        assert_eq!(last_line("", "exit status: 1"), "exit status: 1");
    }

    #[test]
    fn two_builds_have_two_names() {
        let (first, second) = (build_name("team:1"), build_name("team:1"));
        assert_ne!(first, second);
        assert!(first.starts_with("team:1 "), "{first}");
    }

    #[test]
    fn runtimes_parse() {
        assert_eq!("python".parse::<Runtime>(), Ok(Runtime::Python));
        assert!("ruby".parse::<Runtime>().is_err());
        assert_eq!(Runtime::Java.default_base(), "sl-sandbox-java:latest");
    }
}
