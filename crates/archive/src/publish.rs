//! Giving a finished file its final name in a directory without ever
//! overwriting another ([`publish_without_clobbering`]), the lock a file
//! being written holds against another server's start-up recovery
//! ([`lock`]), and gzip compression of a file or of bytes held in memory.
//! The server's replay writer and the directory archive both publish
//! through here, so a name is claimed the same way whoever writes it.

use std::{
    fs::File,
    io::Write,
    path::{Path, PathBuf},
};

use crate::names::numbered;

/// A file being written, locked (on Unix) so that another server's start
/// does not take it for a crash's leftover.
#[cfg(unix)]
pub type LockedFile = nix::fcntl::Flock<File>;
/// A file being written (no locks on this system).
#[cfg(not(unix))]
pub type LockedFile = File;

/// Locks `file` exclusively without waiting.
///
/// # Errors
///
/// Another process holds the lock, or the system refuses it.
#[cfg(unix)]
pub fn lock(file: File) -> std::io::Result<LockedFile> {
    nix::fcntl::Flock::lock(file, nix::fcntl::FlockArg::LockExclusiveNonblock)
        .map_err(|(_, errno)| std::io::Error::from(errno))
}

/// Without file locks the file is taken as it is.
///
/// # Errors
///
/// Never.
#[cfg(not(unix))]
pub fn lock(file: File) -> std::io::Result<LockedFile> {
    Ok(file)
}

/// Gives `finished` the first free name `STEM[_N]SUFFIX` in `dir`, never
/// overwriting a file. The stem names the room, so the first name is free
/// and one rename that refuses to replace claims it; where that rename is
/// not available, or the name is taken after all, a hard link claims the
/// first free name atomically, and where the file system has no hard links,
/// a checked rename is the fallback.
///
/// # Errors
///
/// The file cannot be moved.
pub fn publish_without_clobbering(
    finished: &Path,
    dir: &Path,
    stem: &str,
    suffix: &str,
) -> std::io::Result<PathBuf> {
    let first = dir.join(format!("{stem}{suffix}"));
    if rename_no_replace(finished, &first).is_ok() {
        return Ok(first);
    }
    for attempt in 1u32.. {
        let target = dir.join(format!("{}{suffix}", numbered(stem, attempt)));
        match std::fs::hard_link(finished, &target) {
            Ok(()) => {
                std::fs::remove_file(finished)?;
                return Ok(target);
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(_) if !target.exists() => {
                std::fs::rename(finished, &target)?;
                return Ok(target);
            }
            Err(e) => return Err(e),
        }
    }
    unreachable!("u32 attempts exhausted")
}

/// Renames `from` to `to` unless `to` exists, in one system call.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn rename_no_replace(from: &Path, to: &Path) -> std::io::Result<()> {
    use nix::fcntl::{AT_FDCWD, RenameFlags, renameat2};
    renameat2(AT_FDCWD, from, AT_FDCWD, to, RenameFlags::RENAME_NOREPLACE)
        .map_err(std::io::Error::from)
}

/// Elsewhere the caller's linking fallback does the work.
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn rename_no_replace(_from: &Path, _to: &Path) -> std::io::Result<()> {
    Err(std::io::Error::from(std::io::ErrorKind::Unsupported))
}

/// Writes the file `source` gzip-compressed to `target`, synced.
///
/// # Errors
///
/// Either file cannot be read or written.
pub fn compress(source: &Path, target: &Path) -> std::io::Result<()> {
    let text = std::fs::read(source)?;
    let file = File::create(target)?;
    let mut encoder = flate2::write::GzEncoder::new(file, flate2::Compression::default());
    encoder.write_all(&text)?;
    encoder.finish()?.sync_data()
}

/// `bytes` gzip-compressed in memory (what a store keeps of a replay or a
/// wire log); bytes that are gzip already (they start with its magic
/// number) are kept as they are.
pub fn gzipped(bytes: &[u8]) -> Vec<u8> {
    if bytes.starts_with(&[0x1f, 0x8b]) {
        return bytes.to_vec();
    }
    let mut encoder = flate2::write::GzEncoder::new(
        Vec::with_capacity(bytes.len() / 4 + 64),
        flate2::Compression::default(),
    );
    // Writing to a vector cannot fail.
    let _ = encoder.write_all(bytes);
    encoder.finish().unwrap_or_default()
}

/// Writes `bytes` to a new file `dir/STEM.partial-write` (numbered when
/// taken), synced, then publishes it as `STEM[_N]SUFFIX`
/// ([`publish_without_clobbering`]); the partial file is removed when
/// anything fails. Returns the published path.
///
/// # Errors
///
/// The file cannot be written or published.
pub fn write_new(dir: &Path, stem: &str, suffix: &str, bytes: &[u8]) -> std::io::Result<PathBuf> {
    let mut attempt = 1u32;
    let (partial, mut file) = loop {
        let partial = dir.join(format!("{}{suffix}.partial-write", numbered(stem, attempt)));
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&partial)
        {
            Ok(file) => break (partial, file),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => attempt += 1,
            Err(e) => return Err(e),
        }
    };
    let written = file
        .write_all(bytes)
        .and_then(|()| file.sync_data())
        .and_then(|()| publish_without_clobbering(&partial, dir, stem, suffix));
    if written.is_err() {
        let _ = std::fs::remove_file(&partial);
    }
    written
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use std::io::Read;

    use super::*;

    #[test]
    fn publishing_never_overwrites_a_file() {
        let dir = tempfile::tempdir().unwrap();
        let dir = dir.path();
        std::fs::write(dir.join("s.xml"), "earlier").unwrap();
        let finished = dir.join("s.xml.partial");
        std::fs::write(&finished, "later").unwrap();
        let published = publish_without_clobbering(&finished, dir, "s", ".xml").unwrap();
        assert_eq!(published, dir.join("s_2.xml"));
        assert_eq!(
            std::fs::read_to_string(dir.join("s.xml")).unwrap(),
            "earlier"
        );
        assert_eq!(std::fs::read_to_string(published).unwrap(), "later");
        assert!(!finished.exists());
        let again = write_new(dir, "s", ".xml", b"third").unwrap();
        assert_eq!(again, dir.join("s_3.xml"));
        let left: Vec<_> = std::fs::read_dir(dir).unwrap().collect();
        assert_eq!(left.len(), 3, "no partial file is left: {left:?}");
    }

    #[test]
    fn bytes_gzipped_in_memory_unpack_to_themselves_and_gzip_stays_gzip() {
        let text = b"<protocol>\n</protocol>";
        let packed = gzipped(text);
        assert!(packed.starts_with(&[0x1f, 0x8b]));
        let mut unpacked = Vec::new();
        flate2::read::GzDecoder::new(packed.as_slice())
            .read_to_end(&mut unpacked)
            .unwrap();
        assert_eq!(unpacked, text);
        assert_eq!(gzipped(&packed), packed);
    }
}
