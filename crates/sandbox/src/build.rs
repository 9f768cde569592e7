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

/// How long building an image may take.
const BUILD_TIMEOUT: Duration = Duration::from_secs(600);

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
}

/// Checks the upload, unpacks it into a build context under `scratch` and
/// builds the image `request.tag` on the runtime's base image: the upload
/// at `/player` (owned by root, readable by the player, writable by
/// nobody), its start at `/player/start`.
///
/// # Errors
///
/// The upload is refused, the tag is malformed, Docker or the base image is
/// missing, or the build failed. Nothing is built then.
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
    let dockerfile = format!(
        "FROM {base}\nCOPY player /player\n{env}LABEL org.spielleiter.sandbox.runtime={runtime} org.spielleiter.sandbox.upload={upload}\n",
        runtime = request.runtime,
        upload = label_quote(&upload_name),
    );
    fs::write(context.join("Dockerfile"), dockerfile).map_err(|source| UploadError::Io {
        path: context.clone(),
        source,
    })?;
    let context_arg = context.to_string_lossy();
    docker::call_blocking(
        &["build", "--quiet", "--tag", request.tag, &context_arg],
        BUILD_TIMEOUT,
    )
    .map_err(BuildError::Build)?;
    Ok(request.tag.to_owned())
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

    #[test]
    fn runtimes_parse() {
        assert_eq!("python".parse::<Runtime>(), Ok(Runtime::Python));
        assert!("ruby".parse::<Runtime>().is_err());
        assert_eq!(Runtime::Java.default_base(), "sl-sandbox-java:latest");
    }
}
