//! A team's upload (a zip archive or a directory), checked and unpacked
//! into a build context: not a zip, too large, a zip bomb, entry names
//! leaving the directory, links or special files — each refused with one
//! clear error before anything is built.

use std::{
    fs::{self, File},
    io::{self, Read, Write},
    os::unix::fs::PermissionsExt,
    path::{Component, Path, PathBuf},
};

/// How large an upload may be.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UploadLimits {
    /// The zip archive itself, in bytes [default: 100 MiB].
    pub max_upload_bytes: u64,
    /// Everything unpacked together, in bytes [default: 500 MiB].
    pub max_unpacked_bytes: u64,
    /// Files and directories [default: 20,000].
    pub max_entries: usize,
}

impl Default for UploadLimits {
    fn default() -> Self {
        UploadLimits {
            max_upload_bytes: 100 * 1024 * 1024,
            max_unpacked_bytes: 500 * 1024 * 1024,
            max_entries: 20_000,
        }
    }
}

/// Why an upload is refused.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum UploadError {
    /// Neither a file nor a directory.
    #[error("{0}: no such file or directory")]
    Missing(PathBuf),
    /// A file that is not a zip archive.
    #[error("{0}: not a zip archive (an upload is a zip archive or a directory)")]
    NotZip(PathBuf),
    /// The archive or a directory's files are larger than allowed.
    #[error("{path}: {size} bytes, more than the limit of {limit} bytes")]
    TooLarge {
        /// The upload.
        path: PathBuf,
        /// Its size (or as far as it was counted).
        size: u64,
        /// The limit.
        limit: u64,
    },
    /// The archive unpacks to more than allowed (declared or found while
    /// unpacking).
    #[error("{path}: unpacks to more than {limit} bytes (a zip bomb?)")]
    Bomb {
        /// The upload.
        path: PathBuf,
        /// The limit.
        limit: u64,
    },
    /// More entries than allowed.
    #[error("{path}: more than {limit} files and directories")]
    TooManyEntries {
        /// The upload.
        path: PathBuf,
        /// The limit.
        limit: usize,
    },
    /// An entry's name is absolute or climbs out with `..`.
    #[error("{path}: the entry `{entry}` points outside the upload (an absolute path or `..`)")]
    Traversal {
        /// The upload.
        path: PathBuf,
        /// The entry's name.
        entry: String,
    },
    /// A symbolic link or another special file.
    #[error(
        "{path}: `{entry}` is a link or a special file; an upload holds files and directories only"
    )]
    NotAFile {
        /// The upload.
        path: PathBuf,
        /// The entry's name.
        entry: String,
    },
    /// The archive cannot be read.
    #[error("{path}: a damaged zip archive: {reason}")]
    Damaged {
        /// The upload.
        path: PathBuf,
        /// What the reader found.
        reason: String,
    },
    /// The runtime's start file is missing.
    #[error("{path}: no {wanted} at the upload's root (the {runtime} runtime's start)")]
    NoStart {
        /// The upload.
        path: PathBuf,
        /// The runtime.
        runtime: &'static str,
        /// What would start the player.
        wanted: &'static str,
    },
    /// Reading the upload or writing the build context failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: io::Error,
    },
}

fn io_error(path: &Path) -> impl FnOnce(io::Error) -> UploadError + '_ {
    move |source| UploadError::Io {
        path: path.to_owned(),
        source,
    }
}

/// Unpacks `upload` (a zip archive or a directory) into the empty
/// directory `into`, checking it against `limits`.
///
/// # Errors
///
/// Why the upload is refused; `into` may then hold part of it.
pub fn unpack(upload: &Path, into: &Path, limits: &UploadLimits) -> Result<(), UploadError> {
    let metadata = fs::metadata(upload).map_err(|_| UploadError::Missing(upload.to_owned()))?;
    if metadata.is_dir() {
        let mut counted = Counted::default();
        copy_dir(upload, upload, into, limits, &mut counted)
    } else {
        if metadata.len() > limits.max_upload_bytes {
            return Err(UploadError::TooLarge {
                path: upload.to_owned(),
                size: metadata.len(),
                limit: limits.max_upload_bytes,
            });
        }
        let mut file = File::open(upload).map_err(io_error(upload))?;
        let mut magic = [0; 4];
        if file.read_exact(&mut magic).is_err()
            || &magic != b"PK\x03\x04" && &magic != b"PK\x05\x06"
        {
            return Err(UploadError::NotZip(upload.to_owned()));
        }
        unzip(upload, into, limits)
    }
}

#[derive(Debug, Default)]
struct Counted {
    bytes: u64,
    entries: usize,
}

fn copy_dir(
    root: &Path,
    dir: &Path,
    into: &Path,
    limits: &UploadLimits,
    counted: &mut Counted,
) -> Result<(), UploadError> {
    fs::create_dir_all(into).map_err(io_error(into))?;
    for entry in fs::read_dir(dir).map_err(io_error(dir))? {
        let entry = entry.map_err(io_error(dir))?;
        let path = entry.path();
        let kind = entry.file_type().map_err(io_error(&path))?;
        counted.entries += 1;
        if counted.entries > limits.max_entries {
            return Err(UploadError::TooManyEntries {
                path: root.to_owned(),
                limit: limits.max_entries,
            });
        }
        let target = into.join(entry.file_name());
        let name = || {
            path.strip_prefix(root)
                .unwrap_or(&path)
                .to_string_lossy()
                .into_owned()
        };
        if kind.is_dir() {
            copy_dir(root, &path, &target, limits, counted)?;
        } else if kind.is_file() {
            let size = entry.metadata().map_err(io_error(&path))?.len();
            counted.bytes += size;
            if counted.bytes > limits.max_unpacked_bytes {
                return Err(UploadError::TooLarge {
                    path: root.to_owned(),
                    size: counted.bytes,
                    limit: limits.max_unpacked_bytes,
                });
            }
            fs::copy(&path, &target).map_err(io_error(&path))?;
        } else {
            return Err(UploadError::NotAFile {
                path: root.to_owned(),
                entry: name(),
            });
        }
    }
    Ok(())
}

/// A zip entry's Unix file type bits (`S_IFMT`).
const FILE_TYPE_MASK: u32 = 0o170_000;
const REGULAR_FILE: u32 = 0o100_000;
const DIRECTORY: u32 = 0o040_000;

fn unzip(upload: &Path, into: &Path, limits: &UploadLimits) -> Result<(), UploadError> {
    let damaged = |e: zip::result::ZipError| UploadError::Damaged {
        path: upload.to_owned(),
        reason: e.to_string(),
    };
    let file = File::open(upload).map_err(io_error(upload))?;
    let mut archive = zip::ZipArchive::new(file).map_err(damaged)?;
    if archive.len() > limits.max_entries {
        return Err(UploadError::TooManyEntries {
            path: upload.to_owned(),
            limit: limits.max_entries,
        });
    }
    let bomb = || UploadError::Bomb {
        path: upload.to_owned(),
        limit: limits.max_unpacked_bytes,
    };
    // First every entry's name, kind and declared size, so that a bad
    // entry at the end refuses the upload before anything is written.
    let mut declared: u64 = 0;
    let mut entries = Vec::with_capacity(archive.len());
    for index in 0..archive.len() {
        let entry = archive.by_index_raw(index).map_err(damaged)?;
        let name = entry.name().map_err(damaged)?.into_owned();
        let relative = safe_path(&name).ok_or_else(|| UploadError::Traversal {
            path: upload.to_owned(),
            entry: name.clone(),
        })?;
        let kind = entry.unix_mode().map(|mode| mode & FILE_TYPE_MASK);
        let is_dir = entry.is_dir();
        if entry.is_symlink() {
            return Err(UploadError::NotAFile {
                path: upload.to_owned(),
                entry: name,
            });
        }
        match kind {
            None | Some(0) | Some(REGULAR_FILE) | Some(DIRECTORY) => {}
            Some(_) => {
                return Err(UploadError::NotAFile {
                    path: upload.to_owned(),
                    entry: name,
                });
            }
        }
        declared = declared.saturating_add(entry.size());
        if declared > limits.max_unpacked_bytes {
            return Err(bomb());
        }
        entries.push((index, relative, is_dir));
    }
    let mut written: u64 = 0;
    for (index, relative, is_dir) in entries {
        let target = into.join(&relative);
        if is_dir {
            fs::create_dir_all(&target).map_err(io_error(&target))?;
            continue;
        }
        if let Some(parent) = target.parent() {
            fs::create_dir_all(parent).map_err(io_error(parent))?;
        }
        let entry = archive.by_index(index).map_err(damaged)?;
        let executable = entry.unix_mode().is_some_and(|mode| mode & 0o111 != 0);
        // The declared sizes may lie: what is read is counted too, and one
        // byte past the limit is enough to know.
        let left = limits.max_unpacked_bytes - written;
        let mut out = File::create(&target).map_err(io_error(&target))?;
        let copied =
            io::copy(&mut entry.take(left + 1), &mut out).map_err(|e| UploadError::Damaged {
                path: upload.to_owned(),
                reason: format!("{}: {e}", relative.display()),
            })?;
        out.flush().map_err(io_error(&target))?;
        if executable {
            // Only whether it may be run; the build sets the modes.
            fs::set_permissions(&target, fs::Permissions::from_mode(0o755))
                .map_err(io_error(&target))?;
        }
        written += copied;
        if written > limits.max_unpacked_bytes {
            return Err(bomb());
        }
    }
    Ok(())
}

/// `name` as a relative path of normal components, or `None` if it is
/// absolute, climbs with `..`, or is empty.
fn safe_path(name: &str) -> Option<PathBuf> {
    if name.contains('\\') || name.contains('\0') {
        return None;
    }
    let mut path = PathBuf::new();
    for component in Path::new(name).components() {
        match component {
            Component::Normal(part) => path.push(part),
            Component::CurDir => {}
            Component::ParentDir | Component::RootDir | Component::Prefix(_) => return None,
        }
    }
    (!path.as_os_str().is_empty()).then_some(path)
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use zip::write::SimpleFileOptions;

    use super::*;

    fn zip_of(path: &Path, entries: &[(&str, &[u8])]) {
        let mut writer = zip::ZipWriter::new(File::create(path).expect("zip"));
        for (name, data) in entries {
            // Programs keep their executable bit.
            let mode = if name.ends_with(".bin") { 0o755 } else { 0o644 };
            writer
                .start_file(*name, SimpleFileOptions::default().unix_permissions(mode))
                .expect("entry");
            writer.write_all(data).expect("data");
        }
        writer.finish().expect("finish");
    }

    #[test]
    fn a_good_zip_is_unpacked() {
        let dir = tempfile::tempdir().expect("dir");
        let upload = dir.path().join("team.zip");
        zip_of(
            &upload,
            &[
                ("start", b"#!/bin/sh\n"),
                ("lib/x.py", b"x = 1\n"),
                ("bot.bin", b"\x7fELF"),
            ],
        );
        let into = dir.path().join("out");
        unpack(&upload, &into, &UploadLimits::default()).expect("unpacked");
        let mode = |name: &str| {
            fs::metadata(into.join(name))
                .expect(name)
                .permissions()
                .mode()
        };
        assert_ne!(mode("bot.bin") & 0o100, 0);
        assert_eq!(mode("lib/x.py") & 0o111, 0);
        assert_eq!(fs::read(into.join("start")).expect("start"), b"#!/bin/sh\n");
        assert_eq!(fs::read(into.join("lib/x.py")).expect("x.py"), b"x = 1\n");
    }

    #[test]
    fn not_a_zip_is_refused() {
        let dir = tempfile::tempdir().expect("dir");
        let upload = dir.path().join("team.zip");
        fs::write(&upload, "#!/bin/sh\necho hello\n").expect("write");
        let error = unpack(&upload, &dir.path().join("out"), &UploadLimits::default());
        assert!(matches!(error, Err(UploadError::NotZip(_))), "{error:?}");
    }

    #[test]
    fn entries_leaving_the_directory_are_refused_before_anything_is_written() {
        let dir = tempfile::tempdir().expect("dir");
        for name in ["../evil", "/etc/evil", "a/../../evil"] {
            let upload = dir.path().join("team.zip");
            zip_of(&upload, &[("start", b"ok"), (name, b"evil")]);
            let into = dir.path().join("out");
            let error = unpack(&upload, &into, &UploadLimits::default());
            assert!(
                matches!(&error, Err(UploadError::Traversal { entry, .. }) if entry == name),
                "{name}: {error:?}"
            );
            assert!(!into.join("start").exists());
            assert!(!dir.path().join("evil").exists());
        }
    }

    #[test]
    fn a_zip_bomb_is_refused() {
        let dir = tempfile::tempdir().expect("dir");
        let upload = dir.path().join("bomb.zip");
        let zeros = vec![0u8; 4 * 1024 * 1024];
        zip_of(&upload, &[("start", b"ok"), ("zeros", &zeros)]);
        // Compressed, the archive is a few KiB.
        assert!(fs::metadata(&upload).expect("size").len() < 64 * 1024);
        let limits = UploadLimits {
            max_unpacked_bytes: 1024 * 1024,
            ..UploadLimits::default()
        };
        let error = unpack(&upload, &dir.path().join("out"), &limits);
        assert!(matches!(error, Err(UploadError::Bomb { .. })), "{error:?}");
    }

    #[test]
    fn too_large_uploads_and_too_many_entries_are_refused() {
        let dir = tempfile::tempdir().expect("dir");
        let upload = dir.path().join("team.zip");
        zip_of(&upload, &[("start", b"ok"), ("a", b"1"), ("b", b"2")]);
        let small = UploadLimits {
            max_upload_bytes: 10,
            ..UploadLimits::default()
        };
        let error = unpack(&upload, &dir.path().join("out"), &small);
        assert!(
            matches!(error, Err(UploadError::TooLarge { .. })),
            "{error:?}"
        );
        let few = UploadLimits {
            max_entries: 2,
            ..UploadLimits::default()
        };
        let error = unpack(&upload, &dir.path().join("out2"), &few);
        assert!(
            matches!(error, Err(UploadError::TooManyEntries { .. })),
            "{error:?}"
        );
    }

    #[test]
    fn a_directory_with_a_link_is_refused() {
        let dir = tempfile::tempdir().expect("dir");
        let upload = dir.path().join("team");
        fs::create_dir_all(&upload).expect("dir");
        fs::write(upload.join("start"), "#!/bin/sh\n").expect("start");
        std::os::unix::fs::symlink("/etc/passwd", upload.join("passwd")).expect("link");
        let error = unpack(&upload, &dir.path().join("out"), &UploadLimits::default());
        assert!(
            matches!(&error, Err(UploadError::NotAFile { entry, .. }) if entry == "passwd"),
            "{error:?}"
        );
    }

    #[test]
    fn entry_names_are_checked() {
        assert_eq!(safe_path("a/./b"), Some(PathBuf::from("a/b")));
        assert_eq!(safe_path("dir/"), Some(PathBuf::from("dir")));
        assert_eq!(safe_path(".."), None);
        assert_eq!(safe_path("/abs"), None);
        assert_eq!(safe_path("a\\..\\b"), None);
        assert_eq!(safe_path(""), None);
    }
}
